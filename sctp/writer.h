/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bounded writer used by every builder. Like the reader, an overflow sets
 * a sticky error instead of writing past the end; a builder writes a whole
 * chunk and the caller checks sctp_writer_ok() once. Values are written in
 * network byte order.
 */
#ifndef SCTP_WRITER_H
#define SCTP_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sctp/byteorder.h"

struct sctp_writer {
	uint8_t *buf;
	size_t cap; /* bytes writable at buf */
	size_t off; /* next byte to write */
	bool err;   /* a write did not fit: sticky */
};

static inline struct sctp_writer
sctp_writer_make(uint8_t *buf, size_t cap)
{
	struct sctp_writer w = { buf, cap, 0, false };
	return w;
}

static inline bool
sctp_writer_ok(const struct sctp_writer *w)
{
	return !w->err;
}

/* Reserve n bytes; NULL (and the sticky error) when they do not fit. */
static inline uint8_t *
sctp_writer_take(struct sctp_writer *w, size_t n)
{
	if (w->err || w->cap - w->off < n) {
		w->err = true;
		return NULL;
	}
	uint8_t *p = w->buf + w->off;
	w->off += n;
	return p;
}

static inline void
sctp_writer_u8(struct sctp_writer *w, uint8_t v)
{
	uint8_t *p = sctp_writer_take(w, 1);
	if (p)
		p[0] = v;
}

static inline void
sctp_writer_u16(struct sctp_writer *w, uint16_t v)
{
	uint8_t *p = sctp_writer_take(w, 2);
	if (p)
		sctp_store_be16(p, v);
}

static inline void
sctp_writer_u32(struct sctp_writer *w, uint32_t v)
{
	uint8_t *p = sctp_writer_take(w, 4);
	if (p)
		sctp_store_be32(p, v);
}

static inline void
sctp_writer_bytes(struct sctp_writer *w, const void *src, size_t n)
{
	uint8_t *p = sctp_writer_take(w, n);
	if (p && n)
		memcpy(p, src, n);
}

/* Zero bytes up to the next multiple of 4 counted from the writer's start. */
static inline void
sctp_writer_pad4(struct sctp_writer *w)
{
	size_t pad = (4u - (w->off & 3u)) & 3u;
	uint8_t *p = sctp_writer_take(w, pad);
	if (p && pad)
		memset(p, 0, pad);
}

#endif /* SCTP_WRITER_H */
