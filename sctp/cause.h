/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Error causes (RFC 9260 §3.3.10), carried in ABORT, ERROR and (RFC 5061)
 * in the Error Cause Indication parameter of an ASCONF ACK.
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |           Cause Code          |       Cause Length            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                    Cause-Specific Information                 /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * Covered: RFC 9260 §3.3.10.1-13 (codes 1 to 13), RFC 5061 §4.3 (0xA0 to
 * 0xA4) and RFC 4895 §4.1 (0x0105). Each cause has a struct (none for the
 * three causes without information), sctp_cause_<x>_parse() taking a TLV
 * the walker yielded with SCTP_TLV_CAUSE (the caller dispatched on its
 * code), and sctp_cause_<x>_build() writing the whole cause. Parsers return
 * SCTP_PERR_CAUSE_LEN_INVALID when the length does not fit the code's layout;
 * TLVs embedded in a cause (addresses, parameters) must be well framed, and
 * errors inside them are reported as SCTP_PERR_PARAM_*. Causes that embed
 * bytes from elsewhere (an address parameter, a chunk, parameters) hold a
 * view of those bytes, headers included, and their builders copy it; to
 * build such a cause from fresh parts, bracket the parts with
 * sctp_tlv_build_begin(w, code) / sctp_tlv_build_end().
 */
#ifndef SCTP_CAUSE_H
#define SCTP_CAUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sctp/packet.h"
#include "sctp/param.h"

/* "INVALID_STREAM", ..., "PROTOCOL_VIOLATION", ..., "UNKNOWN". */
const char *sctp_cause_code_name(uint16_t code);

/* 1, Invalid Stream Identifier (length 8): stream id, 16 reserved bits (kept raw). */
struct sctp_cause_invalid_stream {
	uint16_t sid;
	uint16_t reserved;
};
enum sctp_parse_err sctp_cause_invalid_stream_parse(const struct sctp_tlv *t,
						    struct sctp_cause_invalid_stream *out);
void sctp_cause_invalid_stream_build(struct sctp_writer *w,
				     const struct sctp_cause_invalid_stream *in);

/*
 * 2, Missing Mandatory Parameter: a 32-bit count N, then N parameter types;
 * length 8 + 2N. The count must match the length exactly, so a count the
 * cause cannot hold (up to 2^32 - 1) is rejected. Builders write the count
 * from types.count.
 */
struct sctp_cause_missing_param {
	struct sctp_param_u16_list types;
};
enum sctp_parse_err sctp_cause_missing_param_parse(const struct sctp_tlv *t,
						   struct sctp_cause_missing_param *out);
void sctp_cause_missing_param_build(struct sctp_writer *w,
				    const struct sctp_cause_missing_param *in);

/* 3, Stale Cookie (length 8): measure of staleness in microseconds. */
struct sctp_cause_stale_cookie {
	uint32_t staleness_us;
};
enum sctp_parse_err sctp_cause_stale_cookie_parse(const struct sctp_tlv *t,
						  struct sctp_cause_stale_cookie *out);
void sctp_cause_stale_cookie_build(struct sctp_writer *w, const struct sctp_cause_stale_cookie *in);

/* 4, Out of Resource (length 4). */
enum sctp_parse_err sctp_cause_out_of_resource_parse(const struct sctp_tlv *t);
void sctp_cause_out_of_resource_build(struct sctp_writer *w);

/*
 * 5, Unresolvable Address: one address parameter TLV (IPv4, IPv6, Host Name
 * or any other type), whole. The cause may or may not count the embedded
 * TLV's padding; both are accepted.
 */
struct sctp_cause_unresolvable_addr {
	const uint8_t *addr; /* the parameter, header included */
	uint16_t addr_len;
};
enum sctp_parse_err sctp_cause_unresolvable_addr_parse(const struct sctp_tlv *t,
						       struct sctp_cause_unresolvable_addr *out);
void sctp_cause_unresolvable_addr_build(struct sctp_writer *w,
					const struct sctp_cause_unresolvable_addr *in);

/*
 * 6, Unrecognized Chunk Type: the unrecognized chunk, header first. At least
 * the 4-byte chunk header; the embedded Chunk Length is reported, not
 * trusted (a sender may have cut a long chunk short).
 */
struct sctp_cause_unrecognized_chunk {
	const uint8_t *chunk; /* header included */
	uint16_t chunk_len;
};
static inline uint8_t
sctp_cause_unrecognized_chunk_type(const struct sctp_cause_unrecognized_chunk *c)
{
	return c->chunk[0];
}
enum sctp_parse_err sctp_cause_unrecognized_chunk_parse(const struct sctp_tlv *t,
							struct sctp_cause_unrecognized_chunk *out);
void sctp_cause_unrecognized_chunk_build(struct sctp_writer *w,
					 const struct sctp_cause_unrecognized_chunk *in);

/* 7, Invalid Mandatory Parameter (length 4). */
enum sctp_parse_err sctp_cause_invalid_mandatory_param_parse(const struct sctp_tlv *t);
void sctp_cause_invalid_mandatory_param_build(struct sctp_writer *w);

/* 8, Unrecognized Parameters: one or more whole parameter TLVs. */
struct sctp_cause_unrecognized_params {
	const uint8_t *params;
	uint16_t len;
};
enum sctp_parse_err
sctp_cause_unrecognized_params_parse(const struct sctp_tlv *t,
				     struct sctp_cause_unrecognized_params *out);
void sctp_cause_unrecognized_params_build(struct sctp_writer *w,
					  const struct sctp_cause_unrecognized_params *in);

/* 9, No User Data (length 8): the TSN of the empty DATA chunk. */
struct sctp_cause_no_user_data {
	uint32_t tsn;
};
enum sctp_parse_err sctp_cause_no_user_data_parse(const struct sctp_tlv *t,
						  struct sctp_cause_no_user_data *out);
void sctp_cause_no_user_data_build(struct sctp_writer *w, const struct sctp_cause_no_user_data *in);

/* 10, Cookie Received While Shutting Down (length 4). */
enum sctp_parse_err sctp_cause_cookie_while_shutting_down_parse(const struct sctp_tlv *t);
void sctp_cause_cookie_while_shutting_down_build(struct sctp_writer *w);

/* 11, Restart of an Association with New Addresses: one or more address TLVs. */
struct sctp_cause_restart_new_addrs {
	const uint8_t *addrs;
	uint16_t len;
};
enum sctp_parse_err sctp_cause_restart_new_addrs_parse(const struct sctp_tlv *t,
						       struct sctp_cause_restart_new_addrs *out);
void sctp_cause_restart_new_addrs_build(struct sctp_writer *w,
					const struct sctp_cause_restart_new_addrs *in);

/* 12, User-Initiated Abort: the upper layer's reason, opaque, possibly empty. */
struct sctp_cause_user_abort {
	const uint8_t *reason;
	uint16_t len;
};
enum sctp_parse_err sctp_cause_user_abort_parse(const struct sctp_tlv *t,
						struct sctp_cause_user_abort *out);
void sctp_cause_user_abort_build(struct sctp_writer *w, const struct sctp_cause_user_abort *in);

/* 13, Protocol Violation: additional information, opaque, possibly empty. */
struct sctp_cause_protocol_violation {
	const uint8_t *info;
	uint16_t len;
};
enum sctp_parse_err sctp_cause_protocol_violation_parse(const struct sctp_tlv *t,
							struct sctp_cause_protocol_violation *out);
void sctp_cause_protocol_violation_build(struct sctp_writer *w,
					 const struct sctp_cause_protocol_violation *in);

/*
 * RFC 5061 §4.3, 0xA0 Request to Delete Last Remaining IP Address, 0xA1
 * Operation Refused Due to Resource Shortage, 0xA2 Request to Delete Source
 * IP Address, 0xA3 Association Aborted due to Illegal ASCONF-ACK, 0xA4
 * Request Refused - No Authorization: a copy of the ASCONF parameter(s) the
 * error is about. One shape for all five; the TLV list must be well framed
 * and may be empty (0xA3 travels in an ABORT and usually carries nothing).
 */
struct sctp_cause_asconf {
	uint16_t code; /* SCTP_CAUSE_DELETE_LAST_ADDR .. SCTP_CAUSE_REQUEST_REFUSED */
	const uint8_t *params;
	uint16_t len;
};
enum sctp_parse_err sctp_cause_asconf_parse(const struct sctp_tlv *t,
					    struct sctp_cause_asconf *out);
void sctp_cause_asconf_build(struct sctp_writer *w, const struct sctp_cause_asconf *in);

/*
 * 0x0105, Unsupported HMAC Identifier, RFC 4895 §4.1: length 6 (the 16-bit
 * identifier, then 2 bytes of padding). A length of 8, counting the padding,
 * is accepted too; builders write 6.
 */
struct sctp_cause_unsupported_hmac {
	uint16_t hmac_id;
};
enum sctp_parse_err sctp_cause_unsupported_hmac_parse(const struct sctp_tlv *t,
						      struct sctp_cause_unsupported_hmac *out);
void sctp_cause_unsupported_hmac_build(struct sctp_writer *w,
				       const struct sctp_cause_unsupported_hmac *in);

#endif /* SCTP_CAUSE_H */
