/* SPDX-License-Identifier: BSD-3-Clause */
/* The sidecar's shared-memory SPSC ring (sc_ring.h says how and why). */
#include <errno.h>
#include <stdalign.h>
#include <stdatomic.h>

#include "dataplane/sidecar/sc_ring.h"

struct sc_ring_shared {
	alignas(SC_RING_LINE) _Atomic uint32_t head; /* written by the producer only */
	alignas(SC_RING_LINE) _Atomic uint32_t tail; /* written by the consumer only */
	_Atomic uint32_t sleeping;		     /* the consumer's, cleared by the producer */
	alignas(SC_RING_LINE) uint32_t slots;	     /* as created; informational only */
	uint32_t slot_bytes;
};

_Static_assert(offsetof(struct sc_ring_shared, head) == SC_RING_HEAD_OFF, "head");
_Static_assert(offsetof(struct sc_ring_shared, tail) == SC_RING_TAIL_OFF, "tail");
_Static_assert(sizeof(struct sc_ring_shared) == SC_RING_HDR, "header size");
/* Both processes must agree on the representation of the indices. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "lock-free 32-bit atomics");

bool
sc_ring_geometry_ok(uint32_t slots, uint32_t slot_bytes)
{
	return slots >= 2 && (slots & (slots - 1)) == 0 && slots <= (1u << 24) && slot_bytes >= 8 &&
	       (slot_bytes & (slot_bytes - 1)) == 0 && slot_bytes <= 4096;
}

static bool
sc_ring_fits(size_t region_len, size_t off, uint32_t slots, uint32_t slot_bytes)
{
	return sc_ring_geometry_ok(slots, slot_bytes) && off % SC_RING_LINE == 0 &&
	       off <= region_len && region_len - off >= sc_ring_bytes(slots, slot_bytes);
}

int
sc_ring_create(void *region, size_t region_len, size_t off, uint32_t slots, uint32_t slot_bytes)
{
	if (!sc_ring_fits(region_len, off, slots, slot_bytes))
		return -EINVAL;
	struct sc_ring_shared *sh = (struct sc_ring_shared *)(void *)((uint8_t *)region + off);
	atomic_init(&sh->head, 0);
	atomic_init(&sh->tail, 0);
	atomic_init(&sh->sleeping, 0);
	sh->slots = slots;
	sh->slot_bytes = slot_bytes;
	return 0;
}

int
sc_ring_attach(struct sc_ring *r, void *region, size_t region_len, size_t off, uint32_t slots,
	       uint32_t slot_bytes, bool is_producer)
{
	if (!sc_ring_fits(region_len, off, slots, slot_bytes))
		return -EINVAL;
	r->sh = (struct sc_ring_shared *)(void *)((uint8_t *)region + off);
	r->slot0 = (uint8_t *)r->sh + SC_RING_HDR;
	r->mask = slots - 1;
	r->slot_bytes = slot_bytes;
	uint32_t h = atomic_load_explicit(&r->sh->head, memory_order_acquire);
	uint32_t t = atomic_load_explicit(&r->sh->tail, memory_order_acquire);
	if (h - t > slots)
		return -EPROTO;
	r->mine = is_producer ? h : t;
	r->other = is_producer ? t : h;
	return 0;
}

int
sc_ring_free(struct sc_ring *r)
{
	uint32_t t = atomic_load_explicit(&r->sh->tail, memory_order_acquire);
	/* The tail only moves forward, and never past our head. */
	if (t - r->other > r->mine - r->other)
		return -EPROTO;
	r->other = t;
	return (int)((r->mask + 1) - (r->mine - t));
}

bool
sc_ring_commit(struct sc_ring *r, uint32_t n)
{
	r->mine += n;
	atomic_store_explicit(&r->sh->head, r->mine, memory_order_release);
	/* The store above and the load below must not pass each other, or a
	 * consumer going to sleep could miss this commit (the consumer fences
	 * the same way in sc_ring_prepare_sleep()). */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&r->sh->sleeping, memory_order_relaxed) == 0)
		return false;
	return atomic_exchange_explicit(&r->sh->sleeping, 0, memory_order_relaxed) != 0;
}

int
sc_ring_count(struct sc_ring *r)
{
	uint32_t h = atomic_load_explicit(&r->sh->head, memory_order_acquire);
	uint32_t size = r->mask + 1;
	/* The head only moves forward, and never more than a ring ahead of us. */
	if (h - r->mine > size || h - r->other > size - (r->other - r->mine))
		return -EPROTO;
	r->other = h;
	return (int)(h - r->mine);
}

void
sc_ring_release(struct sc_ring *r, uint32_t n)
{
	r->mine += n;
	atomic_store_explicit(&r->sh->tail, r->mine, memory_order_release);
}

bool
sc_ring_prepare_sleep(struct sc_ring *r)
{
	atomic_store_explicit(&r->sh->sleeping, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst);
	if (sc_ring_count(r) == 0)
		return true;
	atomic_store_explicit(&r->sh->sleeping, 0, memory_order_relaxed);
	return false;
}
