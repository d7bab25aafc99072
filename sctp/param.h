/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Parameters (RFC 9260 §3.2.1): the TLVs of INIT, INIT ACK, ASCONF,
 * ASCONF ACK and RE-CONFIG.
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Parameter Type         |       Parameter Length        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                       Parameter Value                         /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * Covered here:
 *  - INIT / INIT ACK, RFC 9260 §3.3.2.1 and §3.3.3.1: IPv4 Address (5),
 *    IPv6 Address (6), State Cookie (7), Unrecognized Parameter (8),
 *    Cookie Preservative (9), Host Name Address (11, deprecated),
 *    Supported Address Types (12), ECN Capable (0x8000, Appendix A);
 *  - extensions carried in INIT / INIT ACK: Zero Checksum Acceptable
 *    (0x8001, RFC 9653 §4), Random (0x8002), Chunk List (0x8003) and
 *    HMAC-ALGO (0x8004) of RFC 4895 §3, Padding (0x8005, RFC 4820 §4),
 *    Supported Extensions (0x8008, RFC 5061 §4.2.7), Forward-TSN-Supported
 *    (0xC000, RFC 3758 §3.1), Adaptation Layer Indication (0xC006,
 *    RFC 5061 §4.2.6);
 *  - ASCONF parameters, RFC 5061 §4.2: Add IP Address (0xC001), Delete IP
 *    Address (0xC002), Error Cause Indication (0xC003), Set Primary Address
 *    (0xC004), Success Indication (0xC005);
 *  - RE-CONFIG parameters, RFC 6525 §4: 13 to 18.
 *
 * Each parameter has a struct, sctp_param_<x>_parse() taking a TLV that the
 * TLV walker (sctp/packet.h) yielded and the caller dispatched on its type,
 * and sctp_param_<x>_build() writing the whole TLV. Parsers return
 * SCTP_PERR_PARAM_LEN_INVALID when the length does not fit the type's layout
 * and never read outside the TLV's value. Variable parts are views into the
 * packet. Builders bracket the TLV with sctp_tlv_build_begin()/end(), so a
 * parameter's padding is written before the next TLV and the padding of the
 * last one is left to the enclosing chunk (RFC 9260 §3.2); a parameter built
 * from a parsed struct reproduces the parsed bytes.
 */
#ifndef SCTP_PARAM_H
#define SCTP_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sctp/packet.h"

/*
 * A list of 16-bit values (address types, HMAC identifiers, stream numbers,
 * parameter types). A parser fills `be` with a view of the big-endian wire
 * bytes; a caller building from host values sets `host` instead (and leaves
 * `be` NULL). Builders write from `be` when it is set, else from `host`.
 */
struct sctp_param_u16_list {
	const uint8_t *be;
	const uint16_t *host;
	uint16_t count;
};

static inline uint16_t
sctp_param_u16_list_at(const struct sctp_param_u16_list *l, uint16_t i)
{
	if (l->be)
		return sctp_load_be16(l->be + 2u * i);
	return l->host[i];
}

/* Write the list's 2 * count bytes (no TLV header). */
void sctp_param_u16_list_write(struct sctp_writer *w, const struct sctp_param_u16_list *l);

/*
 * Walk buf as a sequence of TLVs of the given kind and check its framing.
 * Returns the walker's error (SCTP_PERR_PARAM_* or SCTP_PERR_CAUSE_* after
 * kind) or SCTP_PERR_OK; *count receives the number of TLVs found. Used for
 * the TLV lists embedded in parameters, causes and chunks.
 */
enum sctp_parse_err sctp_param_walk_check(enum sctp_tlv_kind kind, const uint8_t *buf, size_t len,
					  uint32_t *count);

/* The bytes of a TLV the walker yielded, header included (length bytes). */
static inline const uint8_t *
sctp_param_tlv_bytes(const struct sctp_tlv *t)
{
	return t->value - SCTP_PARAM_HDR_LEN;
}

/* "IPV4_ADDR", "STATE_COOKIE", "SUPPORTED_EXTENSIONS", ..., "UNKNOWN". */
const char *sctp_param_type_name(uint16_t type);

/*
 * IPv4 Address (5, length 8) and IPv6 Address (6, length 20),
 * RFC 9260 §3.3.2.1.1-2. One struct for both: `type` says which, an IPv4
 * address occupies addr[0..3] in network order.
 */
struct sctp_param_addr {
	uint16_t type; /* SCTP_PARAM_IPV4_ADDR or SCTP_PARAM_IPV6_ADDR */
	uint8_t addr[16];
};

static inline uint8_t
sctp_param_addr_len(const struct sctp_param_addr *a)
{
	return a->type == SCTP_PARAM_IPV4_ADDR ? 4 : 16;
}

/* SCTP_PERR_PARAM_ADDR_TYPE when t is neither type 5 nor 6. */
enum sctp_parse_err sctp_param_addr_parse(const struct sctp_tlv *t, struct sctp_param_addr *out);
void sctp_param_addr_build(struct sctp_writer *w, const struct sctp_param_addr *in);

/* State Cookie (7), RFC 9260 §3.3.3.1.1: opaque, at least one byte. */
struct sctp_param_state_cookie {
	const uint8_t *cookie;
	uint16_t len;
};
enum sctp_parse_err sctp_param_state_cookie_parse(const struct sctp_tlv *t,
						  struct sctp_param_state_cookie *out);
void sctp_param_state_cookie_build(struct sctp_writer *w, const struct sctp_param_state_cookie *in);

/*
 * Unrecognized Parameter (8), RFC 9260 §3.3.3.1.2: the unrecognized
 * parameter(s) copied whole from the INIT. At least one well-formed TLV;
 * errors inside are reported as SCTP_PERR_PARAM_*.
 */
struct sctp_param_unrecognized {
	const uint8_t *params; /* TLVs, headers included */
	uint16_t len;
};
enum sctp_parse_err sctp_param_unrecognized_parse(const struct sctp_tlv *t,
						  struct sctp_param_unrecognized *out);
void sctp_param_unrecognized_build(struct sctp_writer *w, const struct sctp_param_unrecognized *in);

/* Cookie Preservative (9, length 8), RFC 9260 §3.3.2.1.3. */
struct sctp_param_cookie_preservative {
	uint32_t increment_ms; /* suggested cookie life-span increment */
};
enum sctp_parse_err
sctp_param_cookie_preservative_parse(const struct sctp_tlv *t,
				     struct sctp_param_cookie_preservative *out);
void sctp_param_cookie_preservative_build(struct sctp_writer *w,
					  const struct sctp_param_cookie_preservative *in);

/*
 * Host Name Address (11), RFC 9260 §3.3.2.1.4. Deprecated: an INIT or INIT
 * ACK carrying it is answered with an ABORT (which may carry the parameter
 * back in an Unresolvable Address cause). Parsed so that it can be reported;
 * the name is a view of at least one byte, NUL terminator(s) included.
 */
struct sctp_param_host_name {
	const uint8_t *name;
	uint16_t len;
};
enum sctp_parse_err sctp_param_host_name_parse(const struct sctp_tlv *t,
					       struct sctp_param_host_name *out);
void sctp_param_host_name_build(struct sctp_writer *w, const struct sctp_param_host_name *in);

/*
 * Supported Address Types (12), RFC 9260 §3.3.2.1.5: one or more 16-bit
 * parameter types (5, 6, 11); length 4 + 2n, so an odd n leaves 2 bytes of
 * padding.
 */
struct sctp_param_supported_addr_types {
	struct sctp_param_u16_list types;
};
enum sctp_parse_err
sctp_param_supported_addr_types_parse(const struct sctp_tlv *t,
				      struct sctp_param_supported_addr_types *out);
void sctp_param_supported_addr_types_build(struct sctp_writer *w,
					   const struct sctp_param_supported_addr_types *in);

/* ECN Capable (0x8000, length 4), RFC 9260 Appendix A. No value. */
enum sctp_parse_err sctp_param_ecn_capable_parse(const struct sctp_tlv *t);
void sctp_param_ecn_capable_build(struct sctp_writer *w);

/* Forward-TSN-Supported (0xC000, length 4), RFC 3758 §3.1. No value. */
enum sctp_parse_err sctp_param_forward_tsn_supported_parse(const struct sctp_tlv *t);
void sctp_param_forward_tsn_supported_build(struct sctp_writer *w);

/*
 * Zero Checksum Acceptable (0x8001, length 8), RFC 9653 §4: the sender
 * accepts packets with a zero checksum when they are protected by the named
 * Error Detection Method.
 */
#define SCTP_EDMID_RESERVED 0u /* reserved in the RFC 9653 IANA registry */
#define SCTP_EDMID_DTLS	    1u /* SCTP over DTLS, RFC 9653 IANA registry */
struct sctp_param_zero_checksum {
	uint32_t edmid; /* Error Detection Method Identifier */
};
enum sctp_parse_err sctp_param_zero_checksum_parse(const struct sctp_tlv *t,
						   struct sctp_param_zero_checksum *out);
void sctp_param_zero_checksum_build(struct sctp_writer *w,
				    const struct sctp_param_zero_checksum *in);

/*
 * Random (0x8002), RFC 4895 §3.1: the random number, at least one byte
 * (RFC 4895 §6.1 asks senders for 32; what to accept is the caller's policy).
 */
struct sctp_param_random {
	const uint8_t *random;
	uint16_t len;
};
enum sctp_parse_err sctp_param_random_parse(const struct sctp_tlv *t,
					    struct sctp_param_random *out);
void sctp_param_random_build(struct sctp_writer *w, const struct sctp_param_random *in);

/* Chunk List (0x8003), RFC 4895 §3.2: chunk types (one byte each) to authenticate. */
struct sctp_param_chunk_list {
	const uint8_t *types;
	uint16_t count;
};
enum sctp_parse_err sctp_param_chunk_list_parse(const struct sctp_tlv *t,
						struct sctp_param_chunk_list *out);
void sctp_param_chunk_list_build(struct sctp_writer *w, const struct sctp_param_chunk_list *in);

/* HMAC-ALGO (0x8004), RFC 4895 §3.3: one or more 16-bit HMAC identifiers. */
#define SCTP_HMAC_SHA1	 1u /* RFC 4895 §3.3 */
#define SCTP_HMAC_SHA256 3u /* RFC 4895 §3.3 */
struct sctp_param_hmac_algo {
	struct sctp_param_u16_list ids;
};
enum sctp_parse_err sctp_param_hmac_algo_parse(const struct sctp_tlv *t,
					       struct sctp_param_hmac_algo *out);
void sctp_param_hmac_algo_build(struct sctp_writer *w, const struct sctp_param_hmac_algo *in);

/*
 * Padding (0x8005), RFC 4820 §4: any length; the content is ignored by the
 * receiver. A builder with data == NULL writes len zero bytes.
 */
struct sctp_param_padding {
	const uint8_t *data;
	uint16_t len;
};
enum sctp_parse_err sctp_param_padding_parse(const struct sctp_tlv *t,
					     struct sctp_param_padding *out);
void sctp_param_padding_build(struct sctp_writer *w, const struct sctp_param_padding *in);

/*
 * Supported Extensions (0x8008), RFC 5061 §4.2.7: the chunk types (one byte
 * each) the sender supports; length 4 + n, so padding follows unless n is a
 * multiple of 4. An empty list is accepted.
 */
struct sctp_param_supported_ext {
	const uint8_t *types;
	uint16_t count;
};
enum sctp_parse_err sctp_param_supported_ext_parse(const struct sctp_tlv *t,
						   struct sctp_param_supported_ext *out);
void sctp_param_supported_ext_build(struct sctp_writer *w,
				    const struct sctp_param_supported_ext *in);

/* Adaptation Layer Indication (0xC006, length 8), RFC 5061 §4.2.6. */
struct sctp_param_adaptation {
	uint32_t indication; /* Adaptation Code Point */
};
enum sctp_parse_err sctp_param_adaptation_parse(const struct sctp_tlv *t,
						struct sctp_param_adaptation *out);
void sctp_param_adaptation_build(struct sctp_writer *w, const struct sctp_param_adaptation *in);

/*
 * Add IP Address (0xC001), Delete IP Address (0xC002) and Set Primary
 * Address (0xC004), RFC 5061 §4.2.1, §4.2.2, §4.2.4: an ASCONF-Request
 * Correlation ID, then exactly one IPv4 or IPv6 Address parameter.
 *
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |        Type = 0xC001          |    Length = Variable          |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |               ASCONF-Request Correlation ID                   |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                       Address Parameter                       |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 */
struct sctp_param_asconf_addr {
	uint16_t type; /* SCTP_PARAM_ADD_IP, SCTP_PARAM_DEL_IP or SCTP_PARAM_SET_PRIMARY */
	uint32_t correlation_id;
	struct sctp_param_addr addr;
};
enum sctp_parse_err sctp_param_asconf_addr_parse(const struct sctp_tlv *t,
						 struct sctp_param_asconf_addr *out);
void sctp_param_asconf_addr_build(struct sctp_writer *w, const struct sctp_param_asconf_addr *in);

/*
 * Error Cause Indication (0xC003), RFC 5061 §4.2.3: correlation ID, then one
 * or more error causes (walk them with SCTP_TLV_CAUSE; their framing is
 * checked by the parser, errors reported as SCTP_PERR_CAUSE_*).
 */
struct sctp_param_error_cause_ind {
	uint32_t correlation_id;
	const uint8_t *causes;
	uint16_t causes_len;
};
enum sctp_parse_err sctp_param_error_cause_ind_parse(const struct sctp_tlv *t,
						     struct sctp_param_error_cause_ind *out);
void sctp_param_error_cause_ind_build(struct sctp_writer *w,
				      const struct sctp_param_error_cause_ind *in);

/* Success Indication (0xC005, length 8), RFC 5061 §4.2.5. */
struct sctp_param_success_ind {
	uint32_t correlation_id;
};
enum sctp_parse_err sctp_param_success_ind_parse(const struct sctp_tlv *t,
						 struct sctp_param_success_ind *out);
void sctp_param_success_ind_build(struct sctp_writer *w, const struct sctp_param_success_ind *in);

/*
 * Outgoing SSN Reset Request (13), RFC 6525 §4.1: length 16 + 2n.
 *
 *  |     Parameter Type = 13       | Parameter Length = 16 + 2 * N |
 *  |           Re-configuration Request Sequence Number            |
 *  |           Re-configuration Response Sequence Number           |
 *  |                Sender's Last Assigned TSN                     |
 *  |  Stream Number 1 (optional)   |    Stream Number 2 (optional) |
 *  /                            ......                             /
 */
struct sctp_param_out_reset_req {
	uint32_t req_seq;
	uint32_t resp_seq;
	uint32_t last_tsn;
	struct sctp_param_u16_list streams; /* empty: all streams */
};
enum sctp_parse_err sctp_param_out_reset_req_parse(const struct sctp_tlv *t,
						   struct sctp_param_out_reset_req *out);
void sctp_param_out_reset_req_build(struct sctp_writer *w,
				    const struct sctp_param_out_reset_req *in);

/* Incoming SSN Reset Request (14), RFC 6525 §4.2: length 8 + 2n. */
struct sctp_param_in_reset_req {
	uint32_t req_seq;
	struct sctp_param_u16_list streams; /* empty: all streams */
};
enum sctp_parse_err sctp_param_in_reset_req_parse(const struct sctp_tlv *t,
						  struct sctp_param_in_reset_req *out);
void sctp_param_in_reset_req_build(struct sctp_writer *w, const struct sctp_param_in_reset_req *in);

/* SSN/TSN Reset Request (15, length 8), RFC 6525 §4.3. */
struct sctp_param_tsn_reset_req {
	uint32_t req_seq;
};
enum sctp_parse_err sctp_param_tsn_reset_req_parse(const struct sctp_tlv *t,
						   struct sctp_param_tsn_reset_req *out);
void sctp_param_tsn_reset_req_build(struct sctp_writer *w,
				    const struct sctp_param_tsn_reset_req *in);

/*
 * Re-configuration Response (16), RFC 6525 §4.4: length 12, or 20 with the
 * two next-TSN fields (which only answer an SSN/TSN Reset Request).
 */
enum sctp_reconfig_result {
	SCTP_RECONFIG_SUCCESS_NOP = 0,	     /* Success - Nothing to do */
	SCTP_RECONFIG_SUCCESS_PERFORMED = 1, /* Success - Performed */
	SCTP_RECONFIG_DENIED = 2,	     /* Denied */
	SCTP_RECONFIG_ERROR_WRONG_SSN = 3,   /* Error - Wrong SSN */
	SCTP_RECONFIG_ERROR_IN_PROGRESS = 4, /* Error - Request already in progress */
	SCTP_RECONFIG_ERROR_BAD_SEQ = 5,     /* Error - Bad Sequence Number */
	SCTP_RECONFIG_IN_PROGRESS = 6,	     /* In progress */
};
struct sctp_param_reconfig_resp {
	uint32_t resp_seq;
	uint32_t result; /* enum sctp_reconfig_result, kept raw */
	bool has_tsns;
	uint32_t sender_next_tsn;
	uint32_t receiver_next_tsn;
};
enum sctp_parse_err sctp_param_reconfig_resp_parse(const struct sctp_tlv *t,
						   struct sctp_param_reconfig_resp *out);
void sctp_param_reconfig_resp_build(struct sctp_writer *w,
				    const struct sctp_param_reconfig_resp *in);

/*
 * Add Outgoing Streams Request (17) and Add Incoming Streams Request (18),
 * RFC 6525 §4.5-4.6: length 12; request sequence number, number of new
 * streams, 16 reserved bits (kept raw).
 */
struct sctp_param_add_streams_req {
	uint16_t type; /* SCTP_PARAM_ADD_OUT_STREAMS_REQ or SCTP_PARAM_ADD_IN_STREAMS_REQ */
	uint32_t req_seq;
	uint16_t n_streams;
	uint16_t reserved;
};
enum sctp_parse_err sctp_param_add_streams_req_parse(const struct sctp_tlv *t,
						     struct sctp_param_add_streams_req *out);
void sctp_param_add_streams_req_build(struct sctp_writer *w,
				      const struct sctp_param_add_streams_req *in);

/*
 * INIT / INIT ACK parameter summary: what the association needs from the
 * parameters, found in one walk, bounded, no allocation.
 *
 * Addresses beyond SCTP_INIT_MAX_ADDRS are counted, not stored: 8 covers the
 * multihoming seen in data centres and 5G cores (two to four paths) with
 * room to spare, and keeps the summary on the stack.
 * SCTP_INIT_MAX_REPORTS bounds the unrecognized parameters kept for
 * reporting; more are counted in n_report_dropped.
 */
#define SCTP_INIT_MAX_ADDRS   8
#define SCTP_INIT_MAX_REPORTS 8

struct sctp_init_params {
	/* IPv4 / IPv6 Address parameters, in order (RFC 9260 §3.3.2.1.1-2). */
	struct sctp_param_addr addrs[SCTP_INIT_MAX_ADDRS];
	uint16_t n_addrs;
	uint16_t n_addrs_dropped; /* seen beyond SCTP_INIT_MAX_ADDRS */

	/* State Cookie (INIT ACK), a view. */
	bool has_cookie;
	const uint8_t *cookie;
	uint16_t cookie_len;

	bool has_cookie_preservative;
	uint32_t cookie_preservative_ms;

	/* Supported Address Types: absent means "any" (RFC 9260 §3.3.2.1.5). */
	bool has_supported_addr_types;
	bool supports_ipv4;
	bool supports_ipv6;
	bool supports_host_name;

	/* Host Name Address seen: RFC 9260 §3.3.2.1.4 says ABORT. */
	bool host_name_seen;
	struct sctp_tlv host_name; /* the first one, for an Unresolvable Address cause */

	/* Supported Extensions (RFC 5061 §4.2.7): chunk types, a view. */
	bool has_supported_ext;
	const uint8_t *ext_chunks;
	uint16_t n_ext_chunks;

	bool ecn;	  /* ECN Capable */
	bool forward_tsn; /* Forward-TSN-Supported */
	bool zero_checksum;
	uint32_t zero_checksum_edmid;
	bool has_adaptation;
	uint32_t adaptation_ind;

	/* RFC 4895 AUTH parameters, views. */
	bool has_random;
	const uint8_t *random;
	uint16_t random_len;
	bool has_chunk_list;
	const uint8_t *auth_chunks;
	uint16_t n_auth_chunks;
	bool has_hmac_algo;
	struct sctp_param_u16_list hmac_ids;

	/* Unrecognized Parameter (8) parameters of an INIT ACK: what the peer
	 * did not understand in our INIT (whole TLVs, views). */
	struct sctp_tlv peer_unrecognized[SCTP_INIT_MAX_REPORTS];
	uint16_t n_peer_unrecognized;

	/*
	 * Parameters this decoder does not recognize, handled by the upper two
	 * bits of their type (RFC 9260 §3.2.1): 00 and 01 stop the walk (later
	 * parameters are not processed; `stopped` is set and stop_offset gives
	 * the parameter's offset), 10 and 11 skip; 01 and 11 also ask for a
	 * report, kept here in order. The caller reports them in an
	 * Unrecognized Parameter of its INIT ACK when the chunk was an INIT, or
	 * in an ERROR (Unrecognized Parameters cause) when it was an INIT ACK
	 * (RFC 9260 §3.2.2). Types that are valid in other chunks only
	 * (Heartbeat Info, ASCONF and RE-CONFIG parameters) count as
	 * unrecognized here.
	 */
	uint16_t n_unknown;
	bool stopped;
	uint32_t stop_offset;
	struct sctp_tlv report[SCTP_INIT_MAX_REPORTS];
	uint16_t n_report;
	uint16_t n_report_dropped;

	/* When the decoder fails on a parameter: its type and offset. */
	uint16_t err_type;
	uint32_t err_offset;
};

/*
 * Walk the parameters of an INIT or INIT ACK (the bytes after the 16-byte
 * fixed part) once and fill *out. Returns SCTP_PERR_OK, a walker error
 * (SCTP_PERR_PARAM_TRUNCATED / _LEN_SHORT / _LEN_OVERRUN) or the error of a
 * recognized parameter whose layout is wrong (SCTP_PERR_PARAM_LEN_INVALID);
 * on error, err_type and err_offset name the parameter and *out holds what
 * was decoded before it. A repeated parameter (other than addresses and
 * reports) overwrites the earlier one.
 */
enum sctp_parse_err sctp_init_params_decode(const uint8_t *params, size_t len,
					    struct sctp_init_params *out);

#endif /* SCTP_PARAM_H */
