/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ERROR (Operation Error), RFC 9260 §3.3.10.
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 9    | Chunk  Flags  |           Length              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                    one or more Error Causes                   /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * No flags are defined; they are kept raw. As for ABORT, the parser does not
 * check the causes (an empty ERROR is accepted too: nothing to act on, but
 * nothing unsafe); walk them with sctp_error_cause_iter_init(), whose err
 * names a malformed cause.
 */
#ifndef SCTP_CHUNK_ERROR_H
#define SCTP_CHUNK_ERROR_H

#include <stddef.h>
#include <stdint.h>

#include "sctp/packet.h"

struct sctp_error {
	uint8_t flags;
	const uint8_t *causes;
	uint16_t causes_len;
};

/* Never fails on a chunk the walker yielded. */
enum sctp_parse_err sctp_error_parse(const struct sctp_chunk *c, struct sctp_error *out);
/* The whole chunk, causes copied as given: build(parse(x)) == x. */
void sctp_error_build(struct sctp_writer *w, const struct sctp_error *in);
/* A fresh ERROR from cause builders (in->causes ignored); see sctp/cause.h. */
size_t sctp_error_build_begin(struct sctp_writer *w, const struct sctp_error *in);
void sctp_error_build_end(struct sctp_writer *w, size_t chunk_off);

static inline void
sctp_error_cause_iter_init(struct sctp_tlv_iter *it, const struct sctp_error *e)
{
	sctp_tlv_iter_init(it, SCTP_TLV_CAUSE, e->causes, e->causes_len);
}

#endif /* SCTP_CHUNK_ERROR_H */
