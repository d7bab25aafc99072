/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one bounded reader. Every byte the codec takes from the network goes
 * through these functions: each read checks the remaining length, a short
 * read sets a sticky error and yields zeros, and the buffer is only ever read
 * (const). Callers read a run of fields and test sctp_reader_ok() once.
 *
 * Multi-byte fields are big-endian (network order) on the wire.
 */
#ifndef SCTP_READER_H
#define SCTP_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sctp/byteorder.h"

struct sctp_reader {
	const uint8_t *buf; /* first readable byte */
	size_t len;	    /* bytes readable from buf */
	size_t off;	    /* next byte to read */
	bool err;	    /* a read ran past len: sticky */
};

static inline struct sctp_reader
sctp_reader_make(const uint8_t *buf, size_t len)
{
	struct sctp_reader r = { buf, len, 0, false };
	return r;
}

static inline size_t
sctp_reader_left(const struct sctp_reader *r)
{
	return r->err ? 0 : r->len - r->off;
}

static inline bool
sctp_reader_ok(const struct sctp_reader *r)
{
	return !r->err;
}

/* Reserve n bytes; NULL (and the sticky error) when fewer remain. */
static inline const uint8_t *
sctp_reader_take(struct sctp_reader *r, size_t n)
{
	if (r->err || r->len - r->off < n) {
		r->err = true;
		return NULL;
	}
	const uint8_t *p = r->buf + r->off;
	r->off += n;
	return p;
}

static inline uint8_t
sctp_reader_u8(struct sctp_reader *r)
{
	const uint8_t *p = sctp_reader_take(r, 1);
	return p ? p[0] : 0;
}

static inline uint16_t
sctp_reader_u16(struct sctp_reader *r)
{
	const uint8_t *p = sctp_reader_take(r, 2);
	return p ? (uint16_t)((p[0] << 8) | p[1]) : 0;
}

static inline uint32_t
sctp_reader_u32(struct sctp_reader *r)
{
	const uint8_t *p = sctp_reader_take(r, 4);
	return p ? ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3]
		 : 0;
}

static inline void
sctp_reader_skip(struct sctp_reader *r, size_t n)
{
	(void)sctp_reader_take(r, n);
}

/* A sub-reader over the next n bytes; the parent advances past them. */
static inline struct sctp_reader
sctp_reader_sub(struct sctp_reader *r, size_t n)
{
	const uint8_t *p = sctp_reader_take(r, n);
	struct sctp_reader s = { p, p ? n : 0, 0, p == NULL };
	return s;
}

#endif /* SCTP_READER_H */
