/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ASCONF (RFC 5061 §4.1.1) and ASCONF-ACK (RFC 5061 §4.1.2).
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Type = 0xC1   |  Chunk Flags  |      Chunk Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Sequence Number                         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Address Parameter                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    ASCONF Parameter #1 ... #N                 |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Type = 0x80   |  Chunk Flags  |      Chunk Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Sequence Number                         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 ASCONF Parameter Response #1 ... #N           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * The Address Parameter of an ASCONF is mandatory and is an IPv4 or IPv6
 * Address parameter (SCTP_PERR_PARAM_ADDR_TYPE otherwise). The parser checks
 * the framing of the parameters that follow; each is read with
 * sctp_param_asconf_addr_parse(), sctp_param_error_cause_ind_parse(), ...
 * An ASCONF-ACK may carry no parameter at all (every request succeeded,
 * RFC 5061 §5.2); an ASCONF with none is accepted as well.
 */
#ifndef SCTP_CHUNK_ASCONF_H
#define SCTP_CHUNK_ASCONF_H

#include <stddef.h>
#include <stdint.h>

#include "sctp/packet.h"
#include "sctp/param.h"

struct sctp_asconf {
	uint8_t type;  /* SCTP_CHUNK_ASCONF or SCTP_CHUNK_ASCONF_ACK */
	uint8_t flags; /* none defined; kept raw */
	uint32_t serial;
	struct sctp_param_addr addr; /* ASCONF only */
	const uint8_t *params;	     /* after the address parameter, for ASCONF */
	uint16_t params_len;
};

/*
 * SCTP_PERR_CHUNK_LEN_FIXED when the serial number (and, for ASCONF, an
 * address parameter header) does not fit; SCTP_PERR_PARAM_* for a bad
 * address parameter or badly framed parameters.
 */
enum sctp_parse_err sctp_asconf_parse(const struct sctp_chunk *c, struct sctp_asconf *out);
/* The whole chunk, params copied as given: build(parse(x)) == x. */
void sctp_asconf_build(struct sctp_writer *w, const struct sctp_asconf *in);
/*
 * A fresh ASCONF / ASCONF-ACK from parameter builders: begin() writes the
 * header, the serial number and (ASCONF) the address parameter; in->params
 * is ignored.
 */
size_t sctp_asconf_build_begin(struct sctp_writer *w, const struct sctp_asconf *in);
void sctp_asconf_build_end(struct sctp_writer *w, size_t chunk_off);

static inline void
sctp_asconf_params_iter_init(struct sctp_tlv_iter *it, const struct sctp_asconf *a)
{
	sctp_tlv_iter_init(it, SCTP_TLV_PARAM, a->params, a->params_len);
}

#endif /* SCTP_CHUNK_ASCONF_H */
