/* SPDX-License-Identifier: BSD-3-Clause */
/* The daemon's writing side of a ring set (sc_post.h says what and why). */
#include "dataplane/sidecar/sc_post.h"

#include <errno.h>
#include <string.h>

void
sc_post_init(struct sc_post *p, struct sc_thread *th, struct sc_unread *unread, uint32_t cap)
{
	memset(p, 0, sizeof(*p));
	p->th = th;
	p->unread = unread;
	p->cap = cap;
}

bool
sc_post_room(struct sc_post *p)
{
	if (p->room > p->pending)
		return true;
	int f = sc_ring_free(&p->th->evt);
	p->room = f > 0 ? (uint32_t)f : 0;
	/*
	 * An impossible consumer index (-EPROTO) leaves no room, and none for
	 * the events already reserved this round either: they are committed
	 * all the same (the next reap or serve finds the set broken), and the
	 * count must not go below them. (It did: the room wrapped to 2^32 and
	 * the round after posted without bound; found by fuzz_sidecar.)
	 */
	if (p->room < p->pending)
		p->room = p->pending;
	return p->room > p->pending;
}

static struct sc_evt *
post_slot(struct sc_post *p, const struct sc_evt *e)
{
	struct sc_evt *slot = sc_ring_reserve(&p->th->evt, p->pending);
	*slot = *e;
	p->pending++;
	return slot;
}

struct sc_evt *
sc_post_plain(struct sc_post *p, const struct sc_evt *e)
{
	return sc_post_room(p) ? post_slot(p, e) : NULL;
}

struct sc_evt *
sc_post_bytes(struct sc_post *p, const struct sc_evt *e, uint32_t len, const struct sc_unread *rec,
	      uint8_t **bytes)
{
	if (p->n == p->cap || !sc_post_room(p))
		return NULL;
	uint64_t off;
	int err;
	uint8_t *b = sc_arena_alloc(&p->th->rx, len, &off, &err);
	if (b == NULL)
		return NULL; /* no room now; a broken tail shows at the next reap */
	p->rx_dirty = true;
	struct sc_unread *u = &p->unread[(p->head + p->n) % p->cap];
	*u = *rec;
	u->end = sc_arena_head(&p->th->rx);
	p->n++;
	struct sc_evt *slot = post_slot(p, e);
	slot->off = off;
	slot->len = len;
	*bytes = b;
	return slot;
}

bool
sc_post_recv(struct sc_post *p, const struct sc_evt *e, uint32_t slot, uint32_t gen,
	     sc_post_copy_fn copy, void *arg, uint32_t *done)
{
	uint32_t piece_max = (uint32_t)(p->th->rx.size / 4u);
	while (*done < e->len) {
		uint32_t left = e->len - *done;
		uint32_t k = left < piece_max ? left : piece_max;
		struct sc_unread rec = { slot, gen, k, 0, NULL };
		uint8_t *b;
		struct sc_evt *s = sc_post_bytes(p, e, k, &rec, &b);
		if (s == NULL)
			return false;
		copy(arg, b, *done, k);
		if (*done + k < e->len)
			s->flags |= SC_RECV_MORE;
		if (*done != 0) /* a piece after the first continues the message */
			s->flags |= SC_RECV_CONT;
		*done += k;
	}
	return true;
}

struct sc_unread *
sc_post_last(struct sc_post *p)
{
	return p->n == 0 ? NULL : &p->unread[(p->head + p->n - 1) % p->cap];
}

bool
sc_post_publish(struct sc_post *p)
{
	bool wake = false;
	if (p->rx_dirty) {
		sc_arena_publish(&p->th->rx);
		p->rx_dirty = false;
	}
	if (p->pending != 0) {
		wake = sc_ring_commit(&p->th->evt, p->pending);
		p->room -= p->pending;
		p->pending = 0;
	}
	return wake;
}

int
sc_post_reap(struct sc_post *p, sc_post_read_fn fn, void *arg)
{
	int err;
	uint64_t tail = sc_arena_freed(&p->th->rx, &err);
	if (err != 0)
		return err;
	while (p->n != 0) {
		struct sc_unread *u = &p->unread[p->head];
		if ((int64_t)(tail - u->end) < 0)
			break;
		fn(arg, u);
		p->head = (p->head + 1) % p->cap;
		p->n--;
	}
	return 0;
}

void
sc_post_drain(struct sc_post *p, sc_post_read_fn fn, void *arg)
{
	for (; p->n != 0; p->n--, p->head = (p->head + 1) % p->cap)
		fn(arg, &p->unread[p->head]);
}
