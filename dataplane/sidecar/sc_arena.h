/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A payload arena of the sidecar region (docs/SIDECAR.md): a byte
 * ring in shared memory that one side fills and the other drains in the
 * same order. The tx arena carries what an application sends (it writes
 * the bytes, then a SEND request naming them by offset and length; the
 * daemon copies them into mbufs and releases them); the rx arena carries
 * what the daemon received (one-copy mode).
 *
 * Every allocation is contiguous: one that would cross the end starts
 * again at offset 0, and the bytes skipped count as used until the
 * consumer passes them. So the consumer can release by the (offset, length)
 * of what it took, in order — and must check that pair: it is input from
 * the other side, and the only acceptable one is the allocation that comes
 * next (sc_arena_take()).
 *
 * The two positions are free-running byte counters, kept in the arena's
 * first cache lines like sc_ring's indices: the producer's is `head`, the
 * consumer's `tail`; each side keeps its own copy and checks the other's.
 */
#ifndef DPSCTP_SC_ARENA_H
#define DPSCTP_SC_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* head and tail, a cache line each, in a page of their own: the data that
 * follows stays page-aligned (zero copy will register it with DPDK). */
#define SC_ARENA_HDR 4096u

struct sc_arena {
	uint8_t *shared; /* the arena's first byte in this mapping */
	uint8_t *data;	 /* shared + SC_ARENA_HDR */
	uint64_t size;	 /* data bytes, a power of two */
	uint64_t mine;	 /* producer: head; consumer: tail */
	uint64_t other;	 /* the other side's, as last read and checked */
};

/*
 * Lay out an arena with `bytes` of data (a power of two >= 4096) at
 * region + off: SC_ARENA_HDR + bytes in all. 0 or -EINVAL.
 */
int sc_arena_create(void *region, uint64_t region_len, uint64_t off, uint64_t bytes);

/* A view of it; -EINVAL for a bad geometry, -EPROTO for positions already impossible. */
int sc_arena_attach(struct sc_arena *a, void *region, uint64_t region_len, uint64_t off,
		    uint64_t bytes, bool is_producer);

/*
 * Producer: room for len contiguous bytes. The offset (into the arena's
 * data, what a slot carries) in *off, the place to write in the return
 * value; NULL when the consumer has not freed enough yet (-EAGAIN in *err)
 * or its tail is impossible (-EPROTO) or len can never fit (-EMSGSIZE).
 */
void *sc_arena_alloc(struct sc_arena *a, uint32_t len, uint64_t *off, int *err);

/* Producer: make everything allocated so far visible (before the slots that name it). */
void sc_arena_publish(struct sc_arena *a);

/*
 * Consumer: the bytes a slot names, if (off, len) is exactly the next
 * allocation the producer made and published; NULL otherwise (-EPROTO in
 * *err: out of order, outside the arena, or beyond what was published).
 */
const void *sc_arena_take(struct sc_arena *a, uint64_t off, uint32_t len, int *err);

/*
 * Consumer: as sc_arena_take(), without taking: the same bytes (and checks)
 * again at the next peek or take. For a consumer that may have to leave a
 * request where it is (dpsctpd, when the send buffer is full).
 */
const void *sc_arena_peek(struct sc_arena *a, uint64_t off, uint32_t len, int *err);

/*
 * Producer: the consumer's position now (a byte counter: everything the
 * producer allocated before it has been given back), or -EPROTO in *err
 * when it is impossible. What dpsctpd uses to learn an application has
 * read a message (its receive window reopens by that much).
 */
uint64_t sc_arena_freed(struct sc_arena *a, int *err);

/* Producer: the position after the last allocation (compare with sc_arena_freed()). */
static inline uint64_t
sc_arena_head(const struct sc_arena *a)
{
	return a->mine;
}

/* Consumer: give back everything taken so far. */
void sc_arena_release(struct sc_arena *a);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_SC_ARENA_H */
