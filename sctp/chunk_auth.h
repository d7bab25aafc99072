/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AUTH chunk, RFC 4895 §4.1.
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Type = 0x0F   |   Flags=0     |             Length            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Shared Key Identifier     |   HMAC Identifier             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                                                               |
 * \                             HMAC                              /
 * /                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * Whether the HMAC length fits the HMAC Identifier (20 bytes for SHA-1, 32
 * for SHA-256) is for the authentication code to judge: an unknown
 * identifier is answered with cause 0x0105 (RFC 4895 §6.3), not dropped here.
 */
#ifndef SCTP_CHUNK_AUTH_H
#define SCTP_CHUNK_AUTH_H

#include <stdint.h>

#include "sctp/packet.h"

struct sctp_auth {
	uint8_t flags; /* raw chunk flags */
	uint16_t key_id;
	uint16_t hmac_id;
	const uint8_t *hmac; /* hmac_len bytes inside the packet */
	uint16_t hmac_len;
};

/* SCTP_PERR_CHUNK_LEN_FIXED below 8 bytes; an empty HMAC parses. */
enum sctp_parse_err sctp_auth_parse(const struct sctp_chunk *c, struct sctp_auth *out);

/*
 * The whole chunk. With in->hmac NULL, hmac_len zero bytes are written: the
 * form over which RFC 4895 §6.2 computes the HMAC, which the caller then
 * stores at 8 bytes past the chunk's start.
 */
void sctp_auth_build(struct sctp_writer *w, const struct sctp_auth *in);

#endif /* SCTP_CHUNK_AUTH_H */
