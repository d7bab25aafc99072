/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sidecar's single-producer/single-consumer ring in shared memory
 * (docs/SIDECAR.md; docs/ARCHITECTURE.md decision 8). No DPDK, no pointers
 * in the shared part: the daemon and an application map the same memfd at
 * different addresses, so a ring is found by its offset in the region and
 * each side keeps its own view of it.
 *
 * Shared part, at `off` in the region (three cache lines, then the slots;
 * sc_ring.c defines it):
 *
 *   line 0: head  — the next slot the producer fills; the producer writes it
 *   line 1: tail  — the next slot the consumer takes; the consumer writes it
 *           sleeping — the consumer is about to block on its eventfd
 *   line 2: slots, slot_bytes — as the daemon made it (informational: a
 *           side never trusts them, see below)
 *   slots x slot_bytes bytes of slots
 *
 * Indices run freely modulo 2^32; slot i is at (i & mask). A producer
 * publishes filled slots with a release store of head, a consumer frees
 * them with a release store of tail; each reads the other's index with an
 * acquire load. One producer and one consumer, each its own thread.
 *
 * Trust: the daemon maps memory an application can write, so everything in
 * the shared part is input. A view's geometry (slot count, slot size,
 * offset) comes from the side's own records, never from the shared
 * header, and the other side's index is checked on every read: a producer
 * more than `slots` ahead of its consumer, or a consumer ahead of its
 * producer, is a broken (or hostile) peer: -EPROTO, and the daemon stops
 * serving that application alone.
 *
 * Wake-ups: a consumer that finds the ring empty and wants to block sets
 * `sleeping`, checks the ring once more (the producer may have committed in
 * between), and only then waits on its eventfd; a producer that commits
 * and sees `sleeping` clears it and writes the eventfd
 * (sc_ring_commit() says when). A busy-polling consumer never sets it, so
 * its producer never makes a system call.
 */
#ifndef DPSCTP_SC_RING_H
#define DPSCTP_SC_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SC_RING_LINE	 64u
#define SC_RING_HEAD_OFF 0u   /* the shared part's byte offsets (sc_ring.c checks them) */
#define SC_RING_TAIL_OFF 64u  /* tail, then sleeping at +4 */
#define SC_RING_HDR	 192u /* the slots start here */

struct sc_ring_shared; /* sc_ring.c: _Atomic indices, never a pointer */

/* One side's view: private memory, geometry from its own records. */
struct sc_ring {
	struct sc_ring_shared *sh;
	uint8_t *slot0;
	uint32_t mask;
	uint32_t slot_bytes;
	uint32_t mine;	/* producer: head; consumer: tail (this side's index) */
	uint32_t other; /* the other side's index, as last read and checked */
};

/* Bytes of a ring of `slots` slots of `slot_bytes`. */
static inline size_t
sc_ring_bytes(uint32_t slots, uint32_t slot_bytes)
{
	return SC_RING_HDR + (size_t)slots * slot_bytes;
}

/* Slots: a power of two, 2 .. 2^24; slot bytes: a power of two, 8 .. 4096. */
bool sc_ring_geometry_ok(uint32_t slots, uint32_t slot_bytes);

/*
 * Lay a new ring out at region + off (the daemon, before any application
 * maps the region). 0, or -EINVAL for a bad geometry, an offset that is not
 * a multiple of SC_RING_LINE, or a ring that does not fit in region_len.
 */
int sc_ring_create(void *region, size_t region_len, size_t off, uint32_t slots,
		   uint32_t slot_bytes);

/*
 * A view of the ring at region + off with the geometry the caller knows
 * (is_producer: the side that fills it). The shared indices are read as
 * they are now (a view may be made while the other side runs). 0, -EINVAL
 * as for sc_ring_create(), or -EPROTO when the shared indices are already
 * apart by more than the ring holds.
 */
int sc_ring_attach(struct sc_ring *r, void *region, size_t region_len, size_t off, uint32_t slots,
		   uint32_t slot_bytes, bool is_producer);

/* Producer: free slots now (>= 0), or -EPROTO when the consumer's tail is impossible. */
int sc_ring_free(struct sc_ring *r);

/* Producer: the k-th slot after the last committed one (k below sc_ring_free()), to fill. */
static inline void *
sc_ring_reserve(const struct sc_ring *r, uint32_t k)
{
	return r->slot0 + (size_t)((r->mine + k) & r->mask) * r->slot_bytes;
}

/*
 * Producer: publish n filled slots. True when the consumer asked to be
 * woken (its `sleeping` flag is cleared here): write its eventfd then.
 */
bool sc_ring_commit(struct sc_ring *r, uint32_t n);

/* Consumer: filled slots now (>= 0), or -EPROTO when the producer's head is impossible. */
int sc_ring_count(struct sc_ring *r);

/* Consumer: the k-th filled slot (k below sc_ring_count()). */
static inline const void *
sc_ring_peek(const struct sc_ring *r, uint32_t k)
{
	return r->slot0 + (size_t)((r->mine + k) & r->mask) * r->slot_bytes;
}

/* Consumer: give n slots back to the producer. */
void sc_ring_release(struct sc_ring *r, uint32_t n);

/*
 * Consumer about to block: announce it, then look again. True when the ring
 * is still empty (block on the eventfd now); false when something arrived
 * meanwhile or the producer broke the ring (the flag is withdrawn; call
 * sc_ring_count()).
 */
bool sc_ring_prepare_sleep(struct sc_ring *r);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_SC_RING_H */
