/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ABORT, RFC 9260 §3.3.7.
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 6    |  Reserved   |T|           Length              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                  zero or more Error Causes                    /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * T (SCTP_FLAG_T): the sender had no TCB and reflected the peer's tag
 * (§8.5.1). The parser does not check the causes: an ABORT takes effect
 * whatever its causes say (§9.1; only its tag is checked, §8.5.1), so a garbled cause
 * list must not stop it. Walk them with sctp_abort_cause_iter_init(); the
 * iterator's err names a malformed cause.
 */
#ifndef SCTP_CHUNK_ABORT_H
#define SCTP_CHUNK_ABORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sctp/packet.h"

struct sctp_abort {
	uint8_t flags; /* SCTP_FLAG_T; reserved bits kept raw */
	const uint8_t *causes;
	uint16_t causes_len;
};

static inline bool
sctp_abort_t_bit(const struct sctp_abort *a)
{
	return (a->flags & SCTP_FLAG_T) != 0;
}

/* Never fails on a chunk the walker yielded (any length >= 4 is an ABORT). */
enum sctp_parse_err sctp_abort_parse(const struct sctp_chunk *c, struct sctp_abort *out);
/* The whole chunk, causes copied as given: build(parse(x)) == x. */
void sctp_abort_build(struct sctp_writer *w, const struct sctp_abort *in);
/* A fresh ABORT from cause builders (in->causes ignored); see sctp/cause.h. */
size_t sctp_abort_build_begin(struct sctp_writer *w, const struct sctp_abort *in);
void sctp_abort_build_end(struct sctp_writer *w, size_t chunk_off);

static inline void
sctp_abort_cause_iter_init(struct sctp_tlv_iter *it, const struct sctp_abort *a)
{
	sctp_tlv_iter_init(it, SCTP_TLV_CAUSE, a->causes, a->causes_len);
}

#endif /* SCTP_CHUNK_ABORT_H */
