/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reassembly and per-stream delivery of received I-DATA, RFC 8260 §2.1
 * (Message Identifier, Fragment Sequence Number), with the receiver side
 * of I-FORWARD TSN (§2.3.1, RFC 3758 §3.6) and the partial delivery point
 * of RFC 6458 §8.1.20. sctp/reasm.h does the same for DATA.
 *
 * Not wired yet: no association calls this module (sctp/assoc_data.c
 * feeds DATA to sctp/reasm.h only, and I-DATA is not negotiated). The
 * calls it will make are listed under "Place in the receive path".
 *
 * Why not reasm.c. With I-DATA the sender interleaves the fragments of
 * messages of different streams chunk by chunk (RFC 8260 §1), so a message
 * is not a run of consecutive TSNs. A message is named by (stream, U bit,
 * MID), its fragments are ordered by FSN (the B fragment is FSN 0 and
 * carries the PPID; the E fragment's FSN says how many there are), ordered
 * messages go up in MID order per stream (32-bit serial arithmetic, RFC
 * 1982) and unordered ones as soon as they are whole. Ordered and
 * unordered messages of one stream count their MIDs separately.
 *
 * Place in the receive path. The association parses an I-DATA chunk
 * (sctp/chunk_idata.h), checks its TSN against the TSN map, and only for a
 * new TSN calls sctp_ireasm_input() with sctp_ireasm_chunk_of(). The
 * verdict says whether the TSN may be marked received
 * (sctp_ireasm_verdict_marks_tsn()), as for reasm: NO_ROOM leaves it
 * unmarked (the peer retransmits it, RFC 9260 §6.2), BAD_FRAGMENT is a
 * protocol violation answered with an ABORT, BAD_STREAM an ERROR with
 * cause 1 (TSN marked). An I-FORWARD TSN (sctp/chunk_forward_tsn.h) is
 * applied after the TSN map moved its cumulative TSN: first
 * sctp_ireasm_forward_tsn() with the new cumulative TSN, then
 * sctp_ireasm_forward() once per entry. Unlike reasm there is no
 * sctp_reasm_cum_moved(): room is made inside each input call.
 *
 * Memory. Nothing here allocates. A node of the pool (struct
 * sctp_ireasm_pool: an array in caller storage and a free list, one per
 * lcore, shared by its associations; 48 bytes a node) holds either one
 * queued fragment or the record of one message in progress. Each
 * association has a 16-byte struct sctp_ireasm and one 12-byte struct
 * sctp_ireasm_stream per inbound stream. Per association, the caps of
 * struct sctp_reasm_limits apply: max_bytes to queued payload bytes,
 * max_chunks to the nodes it holds (fragments plus one record per message
 * in progress). A chunk that would exceed a cap or find the pool empty is
 * refused with NO_ROOM with nothing of it taken, after this call first
 * tried to make room (below, "Partial delivery").
 *
 * Zero copy and references: exactly reasm.h's contract (sctp/buf.h). A
 * queued fragment is held once (ops->hold) and either passes that hold to
 * the receiver in a delivery or is released once when dropped (I-FORWARD
 * TSN, abandon); a slice from the chunk in hand that goes up at once is
 * held just before its delivery. NULL handles are never held nor released.
 *
 * What the receiver sees: deliver(arg, msg) once per delivery, the
 * fragments read with sctp_ireasm_iter_*() during the callback only; the
 * callback must not call into this module for the same association. The
 * delivery is struct sctp_ireasm_msg, reasm's struct sctp_reasm_msg with a
 * 32-bit MID in place of the 16-bit SSN and this module's nodes (which
 * carry an FSN, not a PPID) behind its chain; its flags are reasm's
 * SCTP_REASM_MSG_* with the same meaning: a whole message has neither MORE
 * nor CONT, a partial delivery is MORE, CONT|MORE ..., CONT, or ends with
 * CONT|ABORTED and no fragments.
 *
 * Partial delivery, per message. Several messages may be in partial
 * delivery at once: at most one ordered per stream (only the stream's next
 * MID can go up) and any number of unordered ones. Each one's state is in
 * its record, and the receiver tells them apart by (sid, U, MID) (the
 * SCTP_FRAGMENT_INTERLEAVE level 2 of RFC 6458 §8.1.20). One at a time, as
 * reasm does, deadlocks here: reasm keeps its one partial delivery waiting
 * for the lowest missing TSN (its invariant I7), but with interleaving the
 * TSN a message waits for is unknown, so the one message in partial
 * delivery could wait above a missing TSN whose own message needs room.
 * A deliverable message (unordered, or ordered with its stream's next MID)
 * whose queued fragments from its first undelivered FSN on are contiguous
 * starts a partial delivery when they hold at least limits.pd_point bytes
 * (0: never for that reason) or when the association is full (a cap
 * reached or the pool empty; then every such message is tried until it is
 * not full). Once in partial delivery, every fragment that continues it
 * goes up at once, with no room needed.
 *
 * Progress. Every sender numbers the fragments of a message in the order
 * it sends them, so FSN order is TSN order within a message, and a sender
 * sends the messages of one stream and U bit one after another (RFC 8260
 * interleaves streams, not the messages of a stream). Then the chunk at
 * the cumulative TSN + 1 always finds every earlier fragment of its
 * message received, and every earlier message of its stream whole: it
 * extends a deliverable message's contiguous prefix. If that prefix is
 * queued, making room delivers it in part and frees its nodes; if it is
 * empty, the chunk goes up at once. So the lowest missing TSN is always
 * taken and the cumulative TSN always advances; the one exception is a B
 * fragment without E that needs a record when the shared pool is empty
 * (then the caps may be passed by that one record, never the pool): size
 * the pool with one node per association beyond the caps' sum.
 *
 * Costs, F being the fragments queued for one message, R the messages in
 * progress on the chunk's stream, A those of the association, Q the nodes
 * the association holds:
 *
 *   finding the message: O(R) from the newest, O(1) in order
 *   placing a fragment in its message: O(1) in FSN order (at the tail),
 *     else O(F) from the tail
 *   completeness: O(1), kept in the record (the contiguous prefix and its
 *     bytes); extending the prefix over fragments that arrived early
 *     walks each of them once
 *   delivery: O(fragments delivered) to count them, nodes back in O(1)
 *   a whole deliverable single-fragment message: the fast path, no node
 *   next message of a stream after a delivery: O(1) (the stream's ordered
 *     messages are kept in MID order)
 *   when full: O(A) per input to make room
 *   sctp_ireasm_forward_tsn(): O(Q); sctp_ireasm_forward(): O(R) plus
 *     O(fragments dropped or delivered); abandon: O(Q)
 *
 * Checks on the peer, each BAD_FRAGMENT with nothing taken: a B fragment
 * with an FSN other than 0 (a caller's chunk: sctp_ireasm_chunk_of()
 * never makes one); a fragment without B with FSN 0 (that is the B's
 * FSN; allowed only in a message already in partial delivery, where the
 * FSN may have wrapped, §2.1); a second B of a message in partial
 * delivery or an FSN already delivered; two E fragments of one message
 * with different FSNs; a fragment beyond the E's FSN, or an E below a
 * queued fragment; the same (stream, U, MID, FSN) queued with a different
 * TSN (a retransmission keeps its TSN). The same TSN queued again is
 * DUPLICATE (the TSN map should have said so), nothing changes.
 */
#ifndef SCTP_IREASM_H
#define SCTP_IREASM_H

#include <stdbool.h>
#include <stdint.h>

#include "sctp/buf.h"
#include "sctp/chunk_idata.h"
#include "sctp/reasm.h"

/* "No node" in node links; the largest pool is below it. */
#define SCTP_IREASM_NIL UINT32_MAX

/* A queued fragment (kind FRAG). */
struct sctp_ireasm_frag {
	void *handle;	     /* the payload's buffer (one hold taken) */
	const uint8_t *data; /* first payload byte */
	uint32_t tsn;
	uint32_t fsn;
	uint32_t next; /* higher FSN in its message; in the pool: next free node */
	uint32_t prev; /* lower FSN; NIL for the message's first */
	uint16_t len;
	uint8_t flags; /* SCTP_DATA_FLAG_B, _E */
	uint8_t kind;
};

/* A message in progress (kind MSG): its queued fragments and its place. */
struct sctp_ireasm_mrec {
	uint32_t first;	    /* lowest-FSN queued fragment, NIL for none */
	uint32_t last;	    /* highest-FSN queued fragment */
	uint32_t run_end;   /* last fragment of the contiguous run from base, NIL: none */
	uint32_t run_bytes; /* payload bytes from first to run_end */
	uint32_t snext;	    /* the stream's list (ordered: by MID) */
	uint32_t sprev;	    /* the list's head links to its tail */
	uint32_t anext;	    /* the association's list of messages */
	uint32_t aprev;	    /* likewise, head to tail */
	uint32_t mid;
	uint32_t ppid; /* once the B fragment was seen */
	uint32_t base; /* FSN of the first fragment not delivered yet */
	uint16_t sid;
	uint8_t flags; /* SCTP_DATA_FLAG_U, and this module's own bits */
	uint8_t kind;
};

/* One node of the pool: 48 bytes. Its fields are this module's. */
union sctp_ireasm_node {
	struct sctp_ireasm_frag f;
	struct sctp_ireasm_mrec m;
};

struct sctp_ireasm_pool {
	union sctp_ireasm_node *nodes;
	uint32_t n;	 /* nodes in the array */
	uint32_t free;	 /* first free node, SCTP_IREASM_NIL when none */
	uint32_t n_free; /* free nodes */
};

/*
 * Per inbound stream: 12 bytes, zeroed by sctp_ireasm_streams_init() (MIDs
 * start at 0, RFC 8260 §2.1).
 */
struct sctp_ireasm_stream {
	uint32_t next_mid; /* MID of the next ordered message to deliver */
	uint32_t ord;	   /* ordered messages in progress, lowest MID first; NIL: none */
	uint32_t uo;	   /* unordered messages in progress, in arrival order */
};

/* One association: 16 bytes. Zero it with sctp_ireasm_init(). */
struct sctp_ireasm {
	uint32_t head;	 /* messages in progress, NIL when none */
	uint32_t bytes;	 /* payload bytes queued */
	uint32_t chunks; /* fragments queued */
	uint32_t msgs;	 /* message records */
};

enum sctp_ireasm_verdict {
	SCTP_IREASM_DELIVERED = 0, /* taken: went up now (alone or with its message) */
	SCTP_IREASM_QUEUED,	   /* taken: held until its message can go up */
	SCTP_IREASM_STALE,	   /* taken and discarded: ordered, and its stream has passed
				      the MID (after an I-FORWARD TSN skipped it) */
	SCTP_IREASM_NO_ROOM,	   /* not taken: a cap or the pool; leave the TSN unmarked */
	SCTP_IREASM_BAD_STREAM,	   /* stream id >= inbound streams (RFC 9260 §6.5): mark the
				      TSN, ERROR with cause 1; nothing taken */
	SCTP_IREASM_BAD_FRAGMENT,  /* contradicts its message (see above): ABORT */
	SCTP_IREASM_DUPLICATE,	   /* this TSN is queued already; nothing changes */
	SCTP_IREASM_BAD_LEN,	   /* payload over 65535 bytes: a caller bug; nothing taken */
};

/* "delivered", "queued", ...; "unknown" otherwise. */
const char *sctp_ireasm_verdict_name(enum sctp_ireasm_verdict v);

/* DELIVERED, QUEUED, STALE and BAD_STREAM: the TSN counts as received. */
static inline bool
sctp_ireasm_verdict_marks_tsn(enum sctp_ireasm_verdict v)
{
	return v == SCTP_IREASM_DELIVERED || v == SCTP_IREASM_QUEUED || v == SCTP_IREASM_STALE ||
	       v == SCTP_IREASM_BAD_STREAM;
}

/* One received I-DATA chunk. flags: the chunk's (B, E, U used). */
struct sctp_ireasm_chunk {
	uint32_t tsn;
	uint32_t mid;
	uint32_t fsn;  /* 0 for a B fragment */
	uint32_t ppid; /* B fragment only */
	uint16_t sid;
	uint8_t flags;
	struct sctp_slice payload;
};

static inline struct sctp_ireasm_chunk
sctp_ireasm_chunk_of(const struct sctp_idata *d, void *handle)
{
	struct sctp_ireasm_chunk c;

	c.tsn = d->tsn;
	c.mid = d->mid;
	c.fsn = sctp_idata_fsn(d);
	c.ppid = sctp_idata_ppid(d);
	c.sid = d->sid;
	c.flags = d->flags;
	c.payload.handle = handle;
	c.payload.data = d->payload;
	c.payload.len = d->payload_len;
	return c;
}

/* One delivery (flags: SCTP_REASM_MSG_*). */
struct sctp_ireasm_msg {
	uint16_t sid;
	uint8_t flags;
	bool has_first; /* first: the chunk in hand, before the chain */
	uint32_t mid;
	uint32_t ppid;	 /* of the message's B fragment */
	uint32_t len;	 /* payload bytes in this delivery */
	uint32_t nfrags; /* slices in this delivery; 0 only with ABORTED */
	struct sctp_slice first;
	const union sctp_ireasm_node *nodes;
	uint32_t chain; /* first queued fragment, linked by next */
	uint32_t n_chain;
};

struct sctp_ireasm_iter {
	const union sctp_ireasm_node *nodes;
	struct sctp_slice first;
	bool has_first;
	uint32_t node;
	uint32_t left;
};

static inline void
sctp_ireasm_iter_init(struct sctp_ireasm_iter *it, const struct sctp_ireasm_msg *m)
{
	it->nodes = m->nodes;
	it->first = m->first;
	it->has_first = m->has_first;
	it->node = m->chain;
	it->left = m->n_chain;
}

/* The next fragment into *out (it carries one reference); false after the last. */
static inline bool
sctp_ireasm_iter_next(struct sctp_ireasm_iter *it, struct sctp_slice *out)
{
	const struct sctp_ireasm_frag *f;

	if (it->has_first) {
		*out = it->first;
		it->has_first = false;
		return true;
	}
	if (it->left == 0)
		return false;
	f = &it->nodes[it->node].f;
	out->handle = f->handle;
	out->data = f->data;
	out->len = f->len;
	it->node = f->next;
	it->left--;
	return true;
}

typedef void (*sctp_ireasm_deliver_fn)(void *arg, const struct sctp_ireasm_msg *m);

struct sctp_ireasm_env {
	struct sctp_ireasm_pool *pool;
	struct sctp_ireasm_stream *streams;
	uint32_t n_streams; /* the inbound stream count */
	struct sctp_reasm_limits lim;
	const struct sctp_buf_ops *buf;
	sctp_ireasm_deliver_fn deliver;
	void *arg;
};

/* n nodes, all free. -1 if n is 0 or not below SCTP_IREASM_NIL. */
int sctp_ireasm_pool_init(struct sctp_ireasm_pool *p, union sctp_ireasm_node *nodes, uint32_t n);

void sctp_ireasm_init(struct sctp_ireasm *r);

/* n streams at MID 0 with nothing in progress. */
void sctp_ireasm_streams_init(struct sctp_ireasm_stream *s, uint32_t n);

/*
 * sctp_reasm_stream_reset() for I-DATA: stream sid's next ordered MID is 0
 * again. What it still holds is of the old numbering, which only a peer
 * that broke RFC 6525 leaves behind (a fragment never completed, a MID
 * ahead of one it never sent): whole ordered messages go up in MID order
 * as a FORWARD TSN past them would send them, the rest is dropped (a
 * partial delivery ends ABORTED), unordered ones included, so that no
 * fragment of the new numbering joins an old message. -1 if sid is not a
 * stream. O(A) plus O(fragments) dropped.
 */
int sctp_ireasm_stream_reset(struct sctp_ireasm *r, const struct sctp_ireasm_env *env,
			     uint16_t sid);

/* One new I-DATA chunk (its TSN not seen before): see the verdicts. */
enum sctp_ireasm_verdict sctp_ireasm_input(struct sctp_ireasm *r, const struct sctp_ireasm_env *env,
					   const struct sctp_ireasm_chunk *c);

static inline uint32_t
sctp_ireasm_queued_bytes(const struct sctp_ireasm *r)
{
	return r->bytes;
}

static inline uint32_t
sctp_ireasm_queued_chunks(const struct sctp_ireasm *r)
{
	return r->chunks;
}

/*
 * I-FORWARD TSN, first step: the association moved its cumulative TSN to
 * cum_tsn. Every TSN up to it is received or abandoned, so a message still
 * missing a fragment whose TSN must be at or below it (below a queued
 * fragment of a higher FSN whose TSN is at most cum_tsn + 1) can never be
 * whole: it is dropped, holds released, and one in partial delivery ends
 * ABORTED (ordered: its stream moves past its MID). This catches what the
 * entries cannot name: a late fragment of a message an earlier I-FORWARD
 * TSN dropped. O(Q).
 */
void sctp_ireasm_forward_tsn(struct sctp_ireasm *r, const struct sctp_ireasm_env *env,
			     uint32_t cum_tsn);

/*
 * Second step, once per entry (sid, U, MID), RFC 8260 §2.3.1: MID is the
 * highest skipped of the stream's ordered (U clear) or unordered messages.
 * Ordered: the stream's whole messages up to MID go up in MID order (the
 * stranded data, RFC 3758 §3.6), the others up to MID are dropped (one in
 * partial delivery ends ABORTED), the next MID becomes MID + 1 unless
 * already past it, and what then is in order goes up; an ordered MID 2^31
 * or more past the stream's next MID is one it went past (nothing done),
 * as a DATA chunk's would be stale. Unordered: every
 * unordered message of the stream up to MID in progress is dropped (ABORTED
 * if in partial delivery): the sender sends a stream's unordered messages
 * one after another, so by the time the cumulative TSN passes the skipped
 * one, those before it are whole (and gone up) or abandoned. Returns 0, or
 * -1 for a stream out of range (nothing done).
 */
int sctp_ireasm_forward(struct sctp_ireasm *r, const struct sctp_ireasm_env *env, uint16_t sid,
			bool unordered, uint32_t mid);

/*
 * The association goes away: every hold released, every node back in the
 * pool, partial deliveries forgotten without a delivery; next_mid stays.
 */
void sctp_ireasm_abandon(struct sctp_ireasm *r, const struct sctp_ireasm_env *env);

/*
 * Checks the invariants of ireasm.c for one association: 0, or the number
 * of the first one broken. O(Q + streams). For tests.
 */
int sctp_ireasm_check(const struct sctp_ireasm *r, const struct sctp_ireasm_env *env);

#endif /* SCTP_IREASM_H */
