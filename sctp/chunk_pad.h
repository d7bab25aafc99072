/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * PAD chunk, RFC 4820 §3: bytes whose only purpose is to make the packet
 * larger (path MTU probing, RFC 8899). The receiver ignores the content.
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Type = 0x84   |   Flags=0     |             Length            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                                                               |
 * \                         Padding Data                          /
 * /                                                               \
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 */
#ifndef SCTP_CHUNK_PAD_H
#define SCTP_CHUNK_PAD_H

#include <stdint.h>

#include "sctp/packet.h"

struct sctp_pad {
	uint8_t flags;	     /* raw chunk flags */
	const uint8_t *data; /* padding data, len bytes inside the packet */
	uint16_t len;
};

/* SCTP_PERR_CHUNK_LEN_SHORT below the chunk header; any content is accepted. */
enum sctp_parse_err sctp_pad_parse(const struct sctp_chunk *c, struct sctp_pad *out);

/*
 * The whole chunk with in->len bytes of padding data: copied from in->data,
 * or zeros when in->data is NULL (the form a sender of probes uses).
 */
void sctp_pad_build(struct sctp_writer *w, const struct sctp_pad *in);

#endif /* SCTP_CHUNK_PAD_H */
