/* SPDX-License-Identifier: BSD-3-Clause */
/* A payload arena of the sidecar region: an in-order byte ring (sc_arena.h). */
#include <errno.h>
#include <stdatomic.h>

#include "dataplane/sidecar/sc_arena.h"

#define SC_ARENA_HEAD_OFF 0u
#define SC_ARENA_TAIL_OFF 64u

static _Atomic uint64_t *
sc_arena_pos(uint8_t *shared, unsigned off)
{
	return (_Atomic uint64_t *)(void *)(shared + off);
}

static bool
sc_arena_fits(uint64_t region_len, uint64_t off, uint64_t bytes)
{
	return bytes >= 4096 && (bytes & (bytes - 1)) == 0 && off % 64 == 0 && off <= region_len &&
	       region_len - off >= SC_ARENA_HDR + bytes;
}

int
sc_arena_create(void *region, uint64_t region_len, uint64_t off, uint64_t bytes)
{
	if (!sc_arena_fits(region_len, off, bytes))
		return -EINVAL;
	uint8_t *s = (uint8_t *)region + off;
	atomic_init(sc_arena_pos(s, SC_ARENA_HEAD_OFF), 0);
	atomic_init(sc_arena_pos(s, SC_ARENA_TAIL_OFF), 0);
	return 0;
}

int
sc_arena_attach(struct sc_arena *a, void *region, uint64_t region_len, uint64_t off, uint64_t bytes,
		bool is_producer)
{
	if (!sc_arena_fits(region_len, off, bytes))
		return -EINVAL;
	a->shared = (uint8_t *)region + off;
	a->data = a->shared + SC_ARENA_HDR;
	a->size = bytes;
	uint64_t h = atomic_load_explicit(sc_arena_pos(a->shared, SC_ARENA_HEAD_OFF),
					  memory_order_acquire);
	uint64_t t = atomic_load_explicit(sc_arena_pos(a->shared, SC_ARENA_TAIL_OFF),
					  memory_order_acquire);
	if (h - t > a->size)
		return -EPROTO;
	a->mine = is_producer ? h : t;
	a->other = is_producer ? t : h;
	return 0;
}

/* Where an allocation of len starting at position p lands: the same rule on both sides. */
static uint64_t
sc_arena_place(const struct sc_arena *a, uint64_t p, uint32_t len)
{
	uint64_t o = p & (a->size - 1);
	return o + len > a->size ? p + (a->size - o) : p;
}

void *
sc_arena_alloc(struct sc_arena *a, uint32_t len, uint64_t *off, int *err)
{
	if (len == 0 || len > a->size) {
		*err = -EMSGSIZE;
		return NULL;
	}
	uint64_t start = sc_arena_place(a, a->mine, len);
	if (start + len - a->other > a->size) {
		uint64_t t = atomic_load_explicit(sc_arena_pos(a->shared, SC_ARENA_TAIL_OFF),
						  memory_order_acquire);
		/* The tail only moves forward, never past our head. */
		if (t - a->other > a->mine - a->other) {
			*err = -EPROTO;
			return NULL;
		}
		a->other = t;
		if (start + len - t > a->size) {
			*err = -EAGAIN;
			return NULL;
		}
	}
	a->mine = start + len;
	*off = start & (a->size - 1);
	*err = 0;
	return a->data + *off;
}

void
sc_arena_publish(struct sc_arena *a)
{
	atomic_store_explicit(sc_arena_pos(a->shared, SC_ARENA_HEAD_OFF), a->mine,
			      memory_order_release);
}

const void *
sc_arena_take(struct sc_arena *a, uint64_t off, uint32_t len, int *err)
{
	*err = -EPROTO;
	if (len == 0 || len > a->size)
		return NULL;
	uint64_t start = sc_arena_place(a, a->mine, len);
	if (off != (start & (a->size - 1)))
		return NULL;
	if (start + len - a->mine > a->other - a->mine) {
		uint64_t h = atomic_load_explicit(sc_arena_pos(a->shared, SC_ARENA_HEAD_OFF),
						  memory_order_acquire);
		/* The head only moves forward, at most an arena ahead of us. */
		if (h - a->other > a->size - (a->other - a->mine) || h - a->mine > a->size)
			return NULL;
		a->other = h;
		if (start + len - a->mine > h - a->mine)
			return NULL; /* named before it was published */
	}
	a->mine = start + len;
	*err = 0;
	return a->data + off;
}

const void *
sc_arena_peek(struct sc_arena *a, uint64_t off, uint32_t len, int *err)
{
	uint64_t mine = a->mine;
	const void *p = sc_arena_take(a, off, len, err);
	a->mine = mine;
	return p;
}

uint64_t
sc_arena_freed(struct sc_arena *a, int *err)
{
	uint64_t t = atomic_load_explicit(sc_arena_pos(a->shared, SC_ARENA_TAIL_OFF),
					  memory_order_acquire);
	/* The tail only moves forward, never past our head. */
	if (t - a->other > a->mine - a->other) {
		*err = -EPROTO;
		return a->other;
	}
	a->other = t;
	*err = 0;
	return t;
}

void
sc_arena_release(struct sc_arena *a)
{
	atomic_store_explicit(sc_arena_pos(a->shared, SC_ARENA_TAIL_OFF), a->mine,
			      memory_order_release);
}
