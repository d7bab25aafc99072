/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * COOKIE ECHO (RFC 9260 §3.3.11) and COOKIE ACK (§3.3.12).
 *
 * COOKIE ECHO: the State Cookie of the INIT ACK, opaque, as the whole value.
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 10   |  Chunk Flags  |            Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                            Cookie                             /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * COOKIE ACK, Length = 4:
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 11   |  Chunk Flags  |          Length = 4           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * The codec does not judge the cookie: its length and MAC are checked by
 * whoever made it (the stateless INIT responder).
 */
#ifndef SCTP_CHUNK_COOKIE_H
#define SCTP_CHUNK_COOKIE_H

#include <stdint.h>

#include "sctp/packet.h"

struct sctp_cookie {
	uint8_t type;	       /* SCTP_CHUNK_COOKIE_ECHO or SCTP_CHUNK_COOKIE_ACK */
	uint8_t flags;	       /* raw chunk flags */
	const uint8_t *cookie; /* COOKIE ECHO: cookie_len bytes inside the packet */
	uint16_t cookie_len;   /* 0 for COOKIE ACK */
};

/*
 * COOKIE ECHO or COOKIE ACK, by c->type. COOKIE ECHO: SCTP_PERR_CHUNK_LEN_SHORT
 * below the chunk header; COOKIE ACK: SCTP_PERR_CHUNK_LEN_EXACT unless 4.
 */
enum sctp_parse_err sctp_cookie_parse(const struct sctp_chunk *c, struct sctp_cookie *out);

/* The whole chunk of type in->type (the cookie written for COOKIE ECHO only). */
void sctp_cookie_build(struct sctp_writer *w, const struct sctp_cookie *in);

#endif /* SCTP_CHUNK_COOKIE_H */
