/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reassembly and per-stream delivery of received DATA, RFC 9260 §6.5
 * (stream sequence numbers), §6.6 (ordered and unordered delivery), §6.9
 * (fragmentation and reassembly), §6.10 (bundling: chunks arrive one by
 * one), with the receiver side of RFC 3758 §3.6 (FORWARD TSN) and the
 * partial delivery point of RFC 6458 §8.1.20.
 *
 * Place in the receive path. The association parses a DATA chunk
 * (sctp/chunk_data.h), checks its TSN against the TSN map, and only for a
 * new TSN calls sctp_reasm_input() with its cumulative TSN as it stands
 * before that chunk. The verdict says whether the TSN may be marked
 * received (sctp_reasm_verdict_marks_tsn()): NO_ROOM means "not taken", so
 * the association leaves the TSN unmarked, the SACK does not cover it, and
 * the peer retransmits it (RFC 9260 §6.2: a receiver may drop what it
 * cannot buffer). BAD_FRAGMENT is a protocol violation the association
 * answers with an ABORT. Whenever the cumulative TSN moves (after marking a
 * taken chunk; a FORWARD TSN passes it in its own calls), the association
 * calls sctp_reasm_cum_moved(): O(1) unless the queue is full. Pass every
 * new TSN to sctp_reasm_input(), at zero window too: NO_ROOM is this
 * module's way of dropping what §6.2 says to drop, and it first tries to
 * make room.
 *
 * Memory. Nothing here allocates. Queued fragments live in nodes of a pool
 * (struct sctp_reasm_pool: an array and a free list over it, one per lcore,
 * shared by that lcore's associations). Each association has a 32-byte
 * struct sctp_reasm and one 4-byte struct sctp_reasm_stream per inbound
 * stream, both in the caller's storage. Per association, queued fragments
 * and queued payload bytes are capped by struct sctp_reasm_limits; a chunk
 * that would exceed a cap, or find the pool empty, is refused with NO_ROOM
 * and nothing of it is taken (no hold, nothing queued). The one other thing
 * such a call may do is what it tried first to make room: start a partial
 * delivery of another message (below). A chunk that is delivered at once
 * needs no room and is never refused for lack of it; see "Progress".
 *
 * Zero copy and references (sctp/buf.h). A payload handed to
 * sctp_reasm_input() is the caller's for the call. When a fragment is
 * queued, ops->hold() is called once on its handle; when a queued fragment
 * is dropped (FORWARD TSN, sctp_reasm_abandon()), ops->release() is called
 * once. A delivered message hands its slices to the receiver each with
 * exactly one reference: a fragment that was queued passes on the hold taken
 * when it was queued; a fragment from the packet in hand that goes up at
 * once is held just before the delivery. The receiver releases each slice
 * when done with it (for the data plane: the mbuf segment becomes part of
 * the message's chain and is freed with it). Handles that are NULL (bytes
 * nobody owns) are never held nor released.
 *
 * What the receiver sees. deliver(arg, msg) is called once per delivery.
 * msg names the stream, the SSN, the PPID of the first fragment, the flags
 * and the bytes; its fragments are read in order with sctp_reasm_iter_*()
 * DURING the callback only (the nodes go back to the pool when it returns;
 * the slices, with their references, are the receiver's). The callback must
 * not call into this module for the same association. A whole message is
 * one delivery without MORE or CONT; msg->len is its length. A message
 * delivered in parts (partial delivery) arrives as:
 *
 *   first part       flags MORE          (the first fragments, in order)
 *   middle parts     flags CONT|MORE     (the following fragments)
 *   last part        flags CONT          (up to the E fragment)
 *   or instead:      flags CONT|ABORTED  (no fragments: the peer abandoned
 *                                         the rest, RFC 3758 §3.6)
 *
 * Only one message per association is in partial delivery at a time; its
 * parts arrive in order, but other deliveries (other streams, unordered
 * messages) may come between two parts. On its own stream an ordered message
 * in partial delivery blocks the next SSN until its last part (or ABORTED).
 * The total length is the sum of the parts' len. Partial delivery starts
 * for a message that could be delivered now (an unordered one, or the
 * ordered one whose SSN is the stream's next) whose TSNs start right after
 * the cumulative TSN (every TSN below it received), when its received
 * prefix holds at least limits.pd_point bytes (0: off) or when the
 * association is full (a cap reached, or the pool empty). The second case
 * frees the room a deadlock would otherwise need: the peer cannot complete a
 * message whose own fragments fill the receiver. The first condition keeps
 * the one partial delivery waiting for the lowest missing TSN, which the
 * peer can always send or, under RFC 3758, skip with a FORWARD TSN; were it
 * waiting above a missing TSN, that TSN could need the partial delivery
 * itself and neither could move (reasm.c, invariant I7).
 *
 * Progress. A chunk is never refused for lack of room when it goes up at
 * once: a whole (B and E) message that is deliverable now, the fragment the
 * message in partial delivery waits for, or, with nothing in partial
 * delivery, the B fragment at the cumulative TSN + 1 of a deliverable
 * message (it starts one). So whatever fills the queue, the lowest missing
 * TSN is always accepted when the peer retransmits it, the cumulative TSN
 * always advances, and RFC 9260 §6.2's "drop the largest TSN held for
 * reordering" (reneging) is never needed here. The randomized models in
 * reasm_test.cc check this with caps down to one chunk, a shared pool down
 * to one node, and abandoned messages.
 *
 * Costs, Q being the fragments queued for the association (at most
 * limits.max_chunks) and k the fragments of one message:
 *
 *   in order (TSN above every queued TSN): O(1) to queue or to go up at
 *     once, O(1) to see that the message is complete (the open run at the
 *     tail of the queue is cached; after an out-of-order insertion or a
 *     removal at the tail the next in-order fragment rebuilds that cache
 *     once, O(k)), O(k) to deliver it (its slices are walked once to count
 *     them; the nodes return to the pool in O(1)); a fragment continuing a
 *     partial delivery goes up in O(1)
 *   a single-fragment deliverable message in order: the fast path, no node
 *     is taken, O(1)
 *   out of order: O(Q) to find the place (walking back from the highest
 *     TSN, so slightly late chunks cost little), O(k) to check completeness
 *   next message of a stream after a delivery: O(1) when the stream has
 *     nothing else queued, else a scan O(Q) per message released
 *   when full (a cap reached or the pool empty): O(Q) per input
 *   FORWARD TSN: O(Q), plus O(Q) per stranded message delivered
 *   abandon: O(Q)
 *
 * Checks on the peer (RFC 9260 §6.9: the fragments of a message carry
 * consecutive TSNs, and share the stream, the U bit and, when ordered, the
 * SSN). A chunk is compared with the queued chunks at TSN - 1 and TSN + 1
 * and with the message in partial delivery: after an E fragment comes a B
 * fragment; after a fragment that is not E comes a fragment of the same
 * message that is not B. Anything else is BAD_FRAGMENT, with nothing taken.
 * Fragments delivered already are not compared (their chunks are gone).
 */
#ifndef SCTP_REASM_H
#define SCTP_REASM_H

#include <stdbool.h>
#include <stdint.h>

#include "sctp/buf.h"
#include "sctp/chunk_data.h"

union sctp_ireasm_node; /* sctp/ireasm.h */

/* "No node" in node links; also the largest pool is below it. */
#define SCTP_REASM_NIL UINT32_MAX

/* max_chunks and per-stream counts are 16-bit. */
#define SCTP_REASM_MAX_CHUNKS 65535u

/*
 * A queued fragment: a node of the pool. The caller only allocates the
 * array (sctp_reasm_pool_init()); the fields are this module's. 40 bytes.
 */
struct sctp_reasm_node {
	void *handle;	     /* the payload's buffer (one hold taken) */
	const uint8_t *data; /* first payload byte */
	uint32_t tsn;
	uint32_t ppid;
	uint32_t next; /* higher TSN; in the pool: next free node */
	uint32_t prev; /* lower TSN; the queue's head links to its tail */
	uint16_t len;
	uint16_t sid;
	uint16_t ssn;
	uint8_t flags; /* SCTP_DATA_FLAG_B, _E, _U */
	uint8_t reserved;
};

/* Nodes of one lcore, shared by its associations. */
struct sctp_reasm_pool {
	struct sctp_reasm_node *nodes;
	uint32_t n;	 /* nodes in the array */
	uint32_t free;	 /* first free node, SCTP_REASM_NIL when none */
	uint32_t n_free; /* free nodes */
};

/*
 * Per inbound stream, in caller storage of one entry per inbound stream
 * (the MIS the association agreed, RFC 9260 §5.1.1). Zeroed by
 * sctp_reasm_streams_init(): SSNs start at 0 (§6.5).
 */
struct sctp_reasm_stream {
	uint16_t next_ssn; /* SSN of the next ordered message to deliver */
	uint16_t held;	   /* ordered fragments of this stream queued */
};

/*
 * Per-association caps, in the caller's configuration. max_bytes counts
 * payload bytes (what a_rwnd is computed from); max_chunks counts queued
 * fragments (nodes), at most SCTP_REASM_MAX_CHUNKS. pd_point is the
 * partial delivery point in bytes (RFC 6458 §8.1.20), 0 for none: partial
 * delivery then happens only when the association is full.
 */
struct sctp_reasm_limits {
	uint32_t max_bytes;
	uint32_t pd_point;
	uint16_t max_chunks;
};

/*
 * One association's reassembly queue: 32 bytes. Queued fragments form one
 * list in TSN order. Zero it with sctp_reasm_init().
 */
struct sctp_reasm {
	uint32_t head;	    /* lowest-TSN queued node; SCTP_REASM_NIL when empty */
	uint32_t run_b;	    /* the B node of the open run at the tail (see reasm.c) */
	uint32_t run_bytes; /* payload bytes from run_b to the tail */
	uint32_t bytes;	    /* payload bytes queued */
	uint32_t pd_next;   /* partial delivery: TSN of the fragment it waits for */
	uint32_t pd_ppid;   /* partial delivery: PPID of the message */
	uint16_t chunks;    /* fragments queued */
	uint16_t pd_sid;    /* partial delivery: stream */
	uint16_t pd_ssn;    /* partial delivery: SSN (ordered) */
	uint8_t pd;	    /* partial delivery: none, ordered or unordered */
	uint8_t reserved;
};

/*
 * What sctp_reasm_input() did. "Taken" verdicts let the association mark
 * the TSN received (sctp_reasm_verdict_marks_tsn()); each verdict other
 * than DELIVERED and QUEUED has its own counter in the association.
 */
enum sctp_reasm_verdict {
	SCTP_REASM_DELIVERED = 0, /* taken: went up now (alone or completing a message) */
	SCTP_REASM_QUEUED,	  /* taken: held until its message can go up */
	SCTP_REASM_STALE,	  /* taken and discarded: an ordered fragment whose SSN the stream
				     has passed (after a FORWARD TSN skipped it, RFC 3758 §3.6),
				     or, with pr_cut, a fragment of a message cut short */
	SCTP_REASM_NO_ROOM,	  /* not taken: a cap or the pool; leave the TSN unmarked, the
				     peer retransmits it */
	SCTP_REASM_BAD_STREAM,	  /* stream id >= inbound streams: RFC 9260 §6.5, acknowledge the
				     TSN, send an ERROR with cause 1; nothing taken */
	SCTP_REASM_BAD_FRAGMENT, /* contradicts its neighbours (§6.9): ABORT, protocol violation */
	SCTP_REASM_DUPLICATE,	 /* the TSN is queued already (the TSN map should have said so);
				    nothing changes */
	SCTP_REASM_BAD_LEN,	 /* payload over 65535 bytes: cannot come from a DATA chunk
				    (16-bit Length); a caller bug, nothing taken */
};

/* "delivered", "queued", "stale", "no_room", ...; "unknown" otherwise. */
const char *sctp_reasm_verdict_name(enum sctp_reasm_verdict v);

/* DELIVERED, QUEUED, STALE and BAD_STREAM: the TSN counts as received. */
static inline bool
sctp_reasm_verdict_marks_tsn(enum sctp_reasm_verdict v)
{
	return v == SCTP_REASM_DELIVERED || v == SCTP_REASM_QUEUED || v == SCTP_REASM_STALE ||
	       v == SCTP_REASM_BAD_STREAM;
}

/* One received DATA chunk. flags: the chunk's flags (B, E, U used; I ignored). */
struct sctp_reasm_chunk {
	uint32_t tsn;
	uint32_t ppid;
	uint16_t sid;
	uint16_t ssn;
	uint8_t flags;
	struct sctp_slice payload;
};

/* The chunk of a parsed DATA chunk whose payload lies in handle's buffer. */
static inline struct sctp_reasm_chunk
sctp_reasm_chunk_of(const struct sctp_data *d, void *handle)
{
	struct sctp_reasm_chunk c;

	c.tsn = d->tsn;
	c.ppid = d->ppid;
	c.sid = d->sid;
	c.ssn = d->ssn;
	c.flags = d->flags;
	c.payload.handle = handle;
	c.payload.data = d->payload;
	c.payload.len = d->payload_len;
	return c;
}

/* struct sctp_reasm_msg.flags */
#define SCTP_REASM_MSG_UNORDERED 0x01u /* U bit: delivered on completion, ssn meaningless */
#define SCTP_REASM_MSG_MORE	 0x02u /* partial delivery: more of this message follows */
#define SCTP_REASM_MSG_CONT	 0x04u /* partial delivery: continues the message begun earlier */
#define SCTP_REASM_MSG_ABORTED	 0x08u /* with CONT, no fragments: the message stops here */

/*
 * One delivery. Read the fragments with sctp_reasm_iter_init() and
 * sctp_reasm_iter_next() during the callback. The fields after flags say
 * where the fragments are and are not for the receiver.
 */
struct sctp_reasm_msg {
	uint16_t sid;
	uint16_t ssn;	 /* DATA: the SSN; I-DATA: the MID's low 16 bits */
	uint32_t mid;	 /* DATA: the SSN again; I-DATA: the Message Identifier */
	uint32_t ppid;	 /* of the message's first fragment */
	uint32_t len;	 /* payload bytes in this delivery */
	uint32_t nfrags; /* slices in this delivery; 0 only with ABORTED */
	uint8_t flags;	 /* SCTP_REASM_MSG_* */
	bool has_first;	 /* first: a fragment from the packet in hand, before the chain */
	struct sctp_slice first;
	const struct sctp_reasm_node *nodes;
	/*
	 * Non-NULL: the chain is of I-DATA reassembly's nodes (sctp/ireasm.h),
	 * which the association hands up in this same form, so that a
	 * receiver reads both kinds with sctp_reasm_iter_*().
	 */
	const union sctp_ireasm_node *inodes;
	uint32_t chain;	  /* first node of the queued fragments, linked by next */
	uint32_t n_chain; /* how many */
};

/* Walks a delivery's fragments in order. */
struct sctp_reasm_iter {
	const struct sctp_reasm_node *nodes;
	const union sctp_ireasm_node *inodes;
	struct sctp_slice first;
	bool has_first;
	uint32_t node;
	uint32_t left;
};

/* I-DATA's queued fragment x into *out; returns the next node (sctp/ireasm.c). */
uint32_t sctp_ireasm_node_slice(const union sctp_ireasm_node *nodes, uint32_t x,
				struct sctp_slice *out);

static inline void
sctp_reasm_iter_init(struct sctp_reasm_iter *it, const struct sctp_reasm_msg *m)
{
	it->nodes = m->nodes;
	it->inodes = m->inodes;
	it->first = m->first;
	it->has_first = m->has_first;
	it->node = m->chain;
	it->left = m->n_chain;
}

/* The next fragment into *out (it carries one reference); false after the last. */
static inline bool
sctp_reasm_iter_next(struct sctp_reasm_iter *it, struct sctp_slice *out)
{
	const struct sctp_reasm_node *n;

	if (it->has_first) {
		*out = it->first;
		it->has_first = false;
		return true;
	}
	if (it->left == 0)
		return false;
	if (it->inodes != NULL) {
		it->node = sctp_ireasm_node_slice(it->inodes, it->node, out);
		it->left--;
		return true;
	}
	n = &it->nodes[it->node];
	out->handle = n->handle;
	out->data = n->data;
	out->len = n->len;
	it->node = n->next;
	it->left--;
	return true;
}

typedef void (*sctp_reasm_deliver_fn)(void *arg, const struct sctp_reasm_msg *m);

/*
 * Everything a call needs besides the association's header: the lcore's
 * pool, the association's streams and caps, the buffer ops and the
 * receiver. The association builds it (it can keep one per association).
 */
struct sctp_reasm_env {
	struct sctp_reasm_pool *pool;
	struct sctp_reasm_stream *streams;
	uint32_t n_streams; /* entries in streams: the inbound stream count */
	struct sctp_reasm_limits lim;
	const struct sctp_buf_ops *buf;
	sctp_reasm_deliver_fn deliver;
	void *arg;
	/*
	 * PR-SCTP negotiated (RFC 3758): a B fragment may carry the TSN right
	 * after a fragment that is not an E. The sender abandoned that message
	 * part way, and the fragments it had not sent never got TSNs (§3.5
	 * A3), so the prefix it left here can never be whole: it is dropped at
	 * once (its TSNs stay received) instead of the pair being refused as
	 * BAD_FRAGMENT, and a partial delivery of it ends ABORTED. Without
	 * PR-SCTP the pair breaks RFC 9260 §6.9 and stays BAD_FRAGMENT.
	 */
	bool pr_cut;
};

/* n nodes in caller storage, all free. -1 if n is 0 or not below SCTP_REASM_NIL. */
int sctp_reasm_pool_init(struct sctp_reasm_pool *p, struct sctp_reasm_node *nodes, uint32_t n);

/* An empty queue, nothing in partial delivery. */
void sctp_reasm_init(struct sctp_reasm *r);

/* n streams at SSN 0 with nothing held (RFC 9260 §6.5). */
void sctp_reasm_streams_init(struct sctp_reasm_stream *s, uint32_t n);

/*
 * One new DATA chunk (its TSN not seen before): see the verdicts. cum_tsn:
 * the association's cumulative TSN before this chunk.
 */
enum sctp_reasm_verdict sctp_reasm_input(struct sctp_reasm *r, const struct sctp_reasm_env *env,
					 const struct sctp_reasm_chunk *c, uint32_t cum_tsn);

/*
 * The cumulative TSN moved to cum_tsn (a taken chunk was marked). When the
 * queue is full this may start the partial delivery that makes room (O(Q));
 * otherwise it does nothing (O(1)).
 */
void sctp_reasm_cum_moved(struct sctp_reasm *r, const struct sctp_reasm_env *env, uint32_t cum_tsn);

/* Payload bytes queued: what a_rwnd subtracts (RFC 9260 §6.2). */
static inline uint32_t
sctp_reasm_queued_bytes(const struct sctp_reasm *r)
{
	return r->bytes;
}

/* Fragments queued. */
static inline uint32_t
sctp_reasm_queued_chunks(const struct sctp_reasm *r)
{
	return r->chunks;
}

/* Whether a message is in partial delivery. */
static inline bool
sctp_reasm_in_partial_delivery(const struct sctp_reasm *r)
{
	return r->pd != 0;
}

/*
 * FORWARD TSN received (RFC 3758 §3.6), first step: the association moved
 * its cumulative TSN to cum_tsn (the New Cumulative TSN, then further over
 * what it had received; call only when it moved). Drops every partly
 * reassembled message still missing a TSN at or below cum_tsn (releasing
 * its holds); whole messages stay, for sctp_reasm_forward_ssn(). If the
 * message in partial delivery waits for a TSN at or below cum_tsn, the
 * receiver gets its ABORTED delivery and, when ordered, the stream moves
 * past its SSN.
 */
void sctp_reasm_forward_tsn(struct sctp_reasm *r, const struct sctp_reasm_env *env,
			    uint32_t cum_tsn);

/*
 * Second step, once per (stream, SSN) the FORWARD TSN lists: the ordered
 * messages of stream sid up to ssn that are queued whole go up in SSN order
 * (the "stranded" data), what is left of that stream up to ssn is dropped,
 * the stream's next SSN becomes ssn + 1 (unless already past it), and the
 * messages that follow and are complete go up too. A message of that stream
 * in partial delivery with an SSN up to ssn ends with ABORTED. cum_tsn as
 * for sctp_reasm_forward_tsn(). Returns 0, or -1 for a stream id out of
 * range (nothing done).
 */
int sctp_reasm_forward_ssn(struct sctp_reasm *r, const struct sctp_reasm_env *env, uint16_t sid,
			   uint16_t ssn, uint32_t cum_tsn);

/*
 * RFC 6525 §5.2.2: the peer reset its outgoing stream sid, whose next
 * ordered message is SSN 0 again. The caller resets only once every TSN
 * the peer sent on it before is received, so a peer that keeps RFC 6525
 * leaves nothing of the stream held. What another leaves (a message never
 * completed, an SSN ahead of one it never sent) is of the old numbering:
 * whole ordered messages go up in SSN order, as a FORWARD TSN past them
 * would send them, the rest of the stream's ordered fragments are dropped
 * (a partial delivery on it ends ABORTED). Unordered DATA carries no SSN
 * and stays. cum_tsn as
 * for sctp_reasm_forward_tsn(). -1 if sid is not a stream. O(Q) per message that goes up.
 */
int sctp_reasm_stream_reset(struct sctp_reasm *r, const struct sctp_reasm_env *env, uint16_t sid,
			    uint32_t cum_tsn);

/*
 * The association goes away: every queued fragment's hold is released, the
 * nodes go back to the pool, partial delivery is forgotten without a
 * delivery (the receiver learns of the close separately) and each stream's
 * held count is zero. next_ssn is left as it was.
 */
void sctp_reasm_abandon(struct sctp_reasm *r, const struct sctp_reasm_env *env);

#endif /* SCTP_REASM_H */
