/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * INIT (RFC 9260 §3.3.2) and INIT ACK (RFC 9260 §3.3.3): same layout, the
 * chunk type tells them apart.
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 1/2  |  Chunk Flags  |      Chunk Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         Initiate Tag                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |           Advertised Receiver Window Credit (a_rwnd)          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Number of Outbound Streams   |  Number of Inbound Streams    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                          Initial TSN                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /              Optional/Variable-Length Parameters              /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * The parser checks the fixed part and the framing of the parameters (a
 * successful parse guarantees a clean TLV walk over params); what the
 * parameters say is sctp_init_params_decode()'s job (sctp/param.h), and the
 * checks of field values (a zero Initiate Tag, zero stream counts: §3.3.2)
 * are the association's, which answers them with an ABORT.
 */
#ifndef SCTP_CHUNK_INIT_H
#define SCTP_CHUNK_INIT_H

#include <stddef.h>
#include <stdint.h>

#include "sctp/packet.h"

struct sctp_init {
	uint8_t type;  /* SCTP_CHUNK_INIT or SCTP_CHUNK_INIT_ACK */
	uint8_t flags; /* none defined; kept raw */
	uint32_t init_tag;
	uint32_t a_rwnd;
	uint16_t os;  /* number of outbound streams */
	uint16_t mis; /* number of inbound streams */
	uint32_t initial_tsn;
	const uint8_t *params; /* view; excludes the last parameter's padding */
	uint16_t params_len;
};

/*
 * SCTP_PERR_CHUNK_LEN_FIXED when the value is shorter than the 16-byte fixed
 * part; SCTP_PERR_PARAM_* when the parameters are not well framed.
 */
enum sctp_parse_err sctp_init_parse(const struct sctp_chunk *c, struct sctp_init *out);

/* The whole chunk, params copied as given: build(parse(x)) == x. */
void sctp_init_build(struct sctp_writer *w, const struct sctp_init *in);

/*
 * A fresh INIT / INIT ACK from parameter builders: begin() writes the header
 * and the fixed part (in->params is ignored) and returns the chunk offset;
 * the caller then writes parameters with sctp_param_*_build(); end() sets
 * the chunk length (the last parameter's padding not counted) and pads.
 */
size_t sctp_init_build_begin(struct sctp_writer *w, const struct sctp_init *in);
void sctp_init_build_end(struct sctp_writer *w, size_t chunk_off);

/* Walk the parameters of a parsed INIT / INIT ACK. */
static inline void
sctp_init_params_iter_init(struct sctp_tlv_iter *it, const struct sctp_init *init)
{
	sctp_tlv_iter_init(it, SCTP_TLV_PARAM, init->params, init->params_len);
}

#endif /* SCTP_CHUNK_INIT_H */
