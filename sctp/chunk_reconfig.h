/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RE-CONFIG, RFC 6525 §3.1.
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Type = 130    |  Chunk Flags  |      Chunk Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                  Re-configuration Parameter                   /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /             Re-configuration Parameter (optional)             /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * The parser checks the framing and that there are one or two parameters
 * (SCTP_PERR_RECONFIG_PARAM_COUNT otherwise); which pairs RFC 6525 §3.1
 * allows, and what each says (sctp_param_*_parse for types 13-18), is the
 * caller's business.
 */
#ifndef SCTP_CHUNK_RECONFIG_H
#define SCTP_CHUNK_RECONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "sctp/packet.h"

struct sctp_reconfig {
	uint8_t flags; /* none defined; kept raw */
	const uint8_t *params;
	uint16_t params_len;
	/* Filled by the parser, ignored by the builder. */
	uint8_t n_params;
	struct sctp_tlv param[2];
};

enum sctp_parse_err sctp_reconfig_parse(const struct sctp_chunk *c, struct sctp_reconfig *out);
/* The whole chunk, params copied as given: build(parse(x)) == x. */
void sctp_reconfig_build(struct sctp_writer *w, const struct sctp_reconfig *in);
/* A fresh RE-CONFIG from parameter builders (in->params ignored). */
size_t sctp_reconfig_build_begin(struct sctp_writer *w, const struct sctp_reconfig *in);
void sctp_reconfig_build_end(struct sctp_writer *w, size_t chunk_off);

#endif /* SCTP_CHUNK_RECONFIG_H */
