/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The daemon's writing side of one ring set (docs/SIDECAR.md): events into
 * the event ring, their bytes into the rx arena, a record of each span of
 * arena bytes not yet read, and the reaping of those records once the
 * application has read past them. dpsctpd posts every event through it
 * (apps/dpsctpd/dd_app.c); what a record's reading gives back (a receive
 * window's bytes, a zero-copy chain) is the caller's, by callback.
 *
 * What the application writes here is the event ring's consumer index and
 * the rx arena's tail: both read by the primitives (sc_ring_free(),
 * sc_arena_freed()), which refuse an impossible value (-EPROTO: the set is
 * broken, the application detached). So a record is reaped only when the
 * application's tail has passed its end, never before: a zero-copy chain
 * is freed only once the application says it is done with its bytes.
 *
 * Plain C11, no DPDK: the sidecar's fuzz target (fuzz/fuzz_sidecar.c) runs
 * this very code between a hostile application's writes.
 *
 * A round: any number of sc_post_*() calls, then sc_post_publish() once
 * (the arena's bytes before the events that name them, one index store
 * each). Single thread: the worker that owns the set.
 */
#ifndef DPSCTP_SC_POST_H
#define DPSCTP_SC_POST_H

#include <stdbool.h>
#include <stdint.h>

#include "dataplane/sidecar/sc_proto.h"
#include "dataplane/sidecar/sc_region.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One span of rx arena bytes posted and not yet read. */
struct sc_unread {
	uint32_t slot, gen; /* the association it came from (the daemon's handle parts) */
	uint32_t bytes;	    /* message bytes its receive window gets back once read; 0: none */
	uint64_t end;	    /* the arena's head after the span (set by the post) */
	void *owner;	    /* zero copy: what to give back once read (a chain); NULL: nothing */
};

struct sc_post {
	struct sc_thread *th;	  /* the daemon's views of the set */
	struct sc_unread *unread; /* FIFO of cap records (caller's storage) */
	uint32_t head, n, cap;
	uint32_t pending; /* events reserved this round, committed by sc_post_publish() */
	uint32_t room;	  /* free event slots when the consumer's index was last read */
	bool rx_dirty;	  /* arena bytes written this round */
};

/*
 * th: the set's daemon views (sc_region_set()); unread: cap records. Two
 * records per event slot is enough for every event to have one.
 */
void sc_post_init(struct sc_post *p, struct sc_thread *th, struct sc_unread *unread, uint32_t cap);

/*
 * Room for one more event this round. The consumer's index is read only
 * when the room counted last time is used up: it shares a cache line with
 * what the application writes, and reading it per event cost a line
 * transfer each.
 */
bool sc_post_room(struct sc_post *p);

/* An event without bytes: its slot (a copy of e, to amend), or NULL when there is no room. */
struct sc_evt *sc_post_plain(struct sc_post *p, const struct sc_evt *e);

/*
 * An event with len bytes in the rx arena and a record of them (rec's
 * slot, gen, bytes and owner; end is set here), all or nothing: the slot
 * (a copy of e with off and len set, to amend) and *bytes, where the
 * caller writes the len bytes before sc_post_publish(); NULL when the
 * event ring, the arena or the records have no room (nothing taken then).
 */
struct sc_evt *sc_post_bytes(struct sc_post *p, const struct sc_evt *e, uint32_t len,
			     const struct sc_unread *rec, uint8_t **bytes);

/* copy(arg, dst, off, len): bytes [off, off + len) of a message into dst. */
typedef void (*sc_post_copy_fn)(void *arg, uint8_t *dst, uint32_t off, uint32_t len);

/*
 * A RECV with e->len bytes, copied in: pieces of at most a quarter of the
 * arena, each its own RECV (SC_RECV_MORE but the last, SC_RECV_CONT but the
 * first), each with a record (slot, gen, its bytes). *done counts the bytes
 * posted, so a message stopped by a full ring continues where it stopped.
 * True when the whole message is in.
 */
bool sc_post_recv(struct sc_post *p, const struct sc_evt *e, uint32_t slot, uint32_t gen,
		  sc_post_copy_fn copy, void *arg, uint32_t *done);

/* The newest record (to hand it the owner of a message posted in part), NULL: none. */
struct sc_unread *sc_post_last(struct sc_post *p);

/*
 * The round's end: the arena published, the events committed. True when
 * the application asked to be woken (write its eventfd).
 */
bool sc_post_publish(struct sc_post *p);

/* fn(arg, record) for each record read, oldest first. */
typedef void (*sc_post_read_fn)(void *arg, const struct sc_unread *u);

/*
 * Every record the application has read past (its rx arena tail), oldest
 * first, through fn, and dropped. 0, or -EPROTO when the tail is
 * impossible (the set is broken; nothing reaped).
 */
int sc_post_reap(struct sc_post *p, sc_post_read_fn fn, void *arg);

/* Every record, read or not, through fn and dropped: the set goes away. */
void sc_post_drain(struct sc_post *p, sc_post_read_fn fn, void *arg);

#ifdef __cplusplus
}
#endif

#endif
