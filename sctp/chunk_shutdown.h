/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHUTDOWN (RFC 9260 §3.3.8), SHUTDOWN ACK (§3.3.9) and SHUTDOWN COMPLETE
 * (§3.3.13). Each has exactly one valid length.
 *
 * SHUTDOWN, Length = 8:
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 7    |  Chunk Flags  |          Length = 8           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Cumulative TSN Ack                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * SHUTDOWN ACK, Length = 4:
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 8    |  Chunk Flags  |          Length = 4           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * SHUTDOWN COMPLETE, Length = 4 (T: the sender reflected the peer's tag,
 * SCTP_FLAG_T, RFC 9260 §8.5.1):
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 14   |  Reserved   |T|          Length = 4           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 */
#ifndef SCTP_CHUNK_SHUTDOWN_H
#define SCTP_CHUNK_SHUTDOWN_H

#include <stdint.h>

#include "sctp/packet.h"

struct sctp_shutdown {
	uint8_t type;	  /* SHUTDOWN, SHUTDOWN_ACK or SHUTDOWN_COMPLETE */
	uint8_t flags;	  /* raw chunk flags (SCTP_FLAG_T for SHUTDOWN COMPLETE) */
	uint32_t cum_tsn; /* SHUTDOWN only; 0 for the other two */
};

/* Any of the three, by c->type; SCTP_PERR_CHUNK_LEN_EXACT on any other length. */
enum sctp_parse_err sctp_shutdown_parse(const struct sctp_chunk *c, struct sctp_shutdown *out);

/* The whole chunk of type in->type (cum_tsn written for SHUTDOWN only). */
void sctp_shutdown_build(struct sctp_writer *w, const struct sctp_shutdown *in);

#endif /* SCTP_CHUNK_SHUTDOWN_H */
