/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reassembly and per-stream delivery, RFC 9260 §6.5, §6.6, §6.9 and RFC 3758
 * §3.6: see reasm.h for the API, the reference contract and the costs.
 *
 * The queue. An association's queued fragments form one list in TSN order,
 * whatever their stream: next links go up and end in NIL, prev links go down
 * and the head's prev is the tail, so both ends are O(1). Since the
 * fragments of a message carry consecutive TSNs (§6.9), a message is a run
 * of list neighbours with consecutive TSNs from a B to an E fragment, and
 * every check on a new chunk looks at its two list neighbours only.
 *
 * Invariants between calls:
 *  I1  TSNs strictly increase along next; no two nodes share a TSN.
 *  I2  Two queued fragments with consecutive TSNs obey the §6.9 rule of
 *      follows(): so a run of consecutive TSNs starting at a B and without
 *      an E before its end is a prefix of one message. With pr_cut, a
 *      fragment that is not an E followed by a B (a message the sender
 *      abandoned part way, RFC 3758 §3.5 A3) never stays queued: the
 *      prefix before the B is dropped when the pair appears (cut()).
 *  I3  No queued message is whole and deliverable: a whole message goes up
 *      as soon as it is deliverable (unordered, or ordered with the stream's
 *      next SSN and that stream not blocked by a partial delivery).
 *  I4  run_b is the cache that makes in-order arrival O(1): when it is a
 *      node, that node is a B fragment and the nodes from it to the tail
 *      have consecutive TSNs, none of them E, with run_bytes payload bytes;
 *      NIL says there is no such B (the tail is an E, or its run has a gap
 *      or no B); RUN_UNKNOWN says "recompute before use" (after an
 *      out-of-order insertion or a removal near the tail).
 *  I5  chunks, bytes and each stream's held count what is queued (held:
 *      ordered fragments only); chunks <= max_chunks and bytes <= max_bytes
 *      as they stood when each fragment was queued.
 *  I6  In partial delivery, pd_next is not queued (the fragment before it
 *      went up, and whatever followed it contiguously went up with it).
 *  I7  A partial delivery starts only for a message whose B follows the
 *      cumulative TSN (every TSN below the message received: eligible()).
 *      So the fragment it waits for is the association's lowest missing
 *      TSN. Why it matters: with RFC 3758 that fragment may be abandoned,
 *      and the FORWARD TSN that says so can only come once every TSN below
 *      it is acknowledged. Were the one partial delivery allowed to wait
 *      above a missing TSN, and that TSN the B of a message that needs a
 *      partial delivery to fit, neither could move (found by the
 *      randomized model in reasm_test.cc).
 */
#include <stddef.h>
#include <string.h>

#include "sctp/reasm.h"
#include "sctp/tsn.h"
#include "sctp/wire.h"

#define NIL	    SCTP_REASM_NIL
#define RUN_UNKNOWN (SCTP_REASM_NIL - 1u)

#define FB SCTP_DATA_FLAG_B
#define FE SCTP_DATA_FLAG_E
#define FU SCTP_DATA_FLAG_U

enum pd_state {
	PD_NONE = 0,
	PD_ORDERED = 1,
	PD_UNORDERED = 2,
};

_Static_assert(sizeof(struct sctp_reasm) <= 32, "per-association header: see reasm.h");
_Static_assert(sizeof(struct sctp_reasm_node) == 40, "pool node grew: see reasm.h");
_Static_assert(sizeof(struct sctp_reasm_stream) == 4, "per-stream state grew: see reasm.h");

/* One call: the association, its environment, and its cumulative TSN. */
struct call {
	struct sctp_reasm *r;
	const struct sctp_reasm_env *env;
	struct sctp_reasm_node *nodes;
	uint32_t cum; /* every TSN up to this one is received (or abandoned) */
};

/* What the §6.9 checks compare: a queued node or the chunk in hand. */
struct frag {
	uint32_t tsn;
	uint16_t sid;
	uint16_t ssn;
	uint8_t flags;
};

/* A run of queued nodes from first to last, linked by next. */
struct run {
	uint32_t first;
	uint32_t last;
	uint32_t count;
	uint32_t bytes;
};

static struct frag
frag_of_node(const struct sctp_reasm_node *n)
{
	return (struct frag){ n->tsn, n->sid, n->ssn, n->flags };
}

static struct frag
frag_of_chunk(const struct sctp_reasm_chunk *c)
{
	return (struct frag){ c->tsn, c->sid, c->ssn, (uint8_t)(c->flags & (FB | FE | FU)) };
}

/*
 * May x carry the TSN right after p (§6.9)? After an end comes a beginning;
 * otherwise x continues p's message: not a B, same stream, same U bit and,
 * ordered, the same SSN (the SSN of an unordered chunk means nothing, §6.6).
 */
static bool
follows(const struct frag *p, const struct frag *x)
{
	if (p->flags & FE)
		return (x->flags & FB) != 0;
	if (x->flags & FB)
		return false;
	if (p->sid != x->sid || ((p->flags ^ x->flags) & FU))
		return false;
	return (x->flags & FU) || p->ssn == x->ssn;
}

/*
 * p then x break §6.9 only because the sender abandoned p's message after
 * sending p (RFC 3758 §3.5 A3): allowed when PR-SCTP was negotiated.
 */
static bool
cut_allowed(const struct call *k, const struct frag *p, const struct frag *x)
{
	return k->env->pr_cut && !(p->flags & FE) && (x->flags & FB);
}

static void
buf_hold(const struct call *k, void *handle)
{
	if (handle != NULL)
		k->env->buf->hold(k->env->buf->ctx, handle);
}

static void
buf_release(const struct call *k, void *handle)
{
	if (handle != NULL)
		k->env->buf->release(k->env->buf->ctx, handle);
}

static uint32_t
tail_of(const struct call *k)
{
	return k->nodes[k->r->head].prev;
}

/* A cap reached, or the pool empty: partial delivery may start (reasm.h). */
static bool
full(const struct call *k)
{
	return k->r->chunks >= k->env->lim.max_chunks || k->r->bytes >= k->env->lim.max_bytes ||
	       k->env->pool->n_free == 0;
}

static bool
room_for(const struct call *k, uint32_t len)
{
	return k->env->pool->n_free > 0 && k->r->chunks < k->env->lim.max_chunks &&
	       (uint64_t)k->r->bytes + len <= k->env->lim.max_bytes;
}

/* Could the message starting at B node f go up now (ignoring completeness)? */
static bool
startable(const struct call *k, const struct sctp_reasm_node *f)
{
	if (f->flags & FU)
		return true;
	if (k->r->pd == PD_ORDERED && k->r->pd_sid == f->sid)
		return false;
	return f->ssn == k->env->streams[f->sid].next_ssn;
}

/* I7: every TSN below first_tsn is received. */
static bool
eligible(const struct call *k, uint32_t first_tsn)
{
	return sctp_tsn_le(first_tsn - 1, k->cum);
}

/*
 * Where TSN tsn goes: *prev gets the queued node with the highest TSN below
 * it (NIL: it becomes the head). Returns true if tsn is queued already.
 * O(1) when tsn is above the tail; otherwise walks down from the tail.
 */
static bool
locate(const struct call *k, uint32_t tsn, uint32_t *prev)
{
	const struct sctp_reasm_node *nodes = k->nodes;
	uint32_t i;

	*prev = NIL;
	if (k->r->head == NIL)
		return false;
	i = tail_of(k);
	for (;;) {
		if (sctp_tsn_gt(tsn, nodes[i].tsn)) {
			*prev = i;
			return false;
		}
		if (nodes[i].tsn == tsn)
			return true;
		if (i == k->r->head)
			return false;
		i = nodes[i].prev;
	}
}

static uint32_t
succ_of(const struct call *k, uint32_t prev)
{
	return prev == NIL ? k->r->head : k->nodes[prev].next;
}

static void
link_after(struct call *k, uint32_t p, uint32_t x)
{
	struct sctp_reasm_node *nodes = k->nodes;
	struct sctp_reasm *r = k->r;
	uint32_t s;

	if (r->head == NIL) {
		nodes[x].next = NIL;
		nodes[x].prev = x;
		r->head = x;
	} else if (p == NIL) {
		nodes[x].next = r->head;
		nodes[x].prev = nodes[r->head].prev;
		nodes[r->head].prev = x;
		r->head = x;
	} else {
		s = nodes[p].next;
		nodes[x].prev = p;
		nodes[x].next = s;
		nodes[p].next = x;
		if (s == NIL)
			nodes[r->head].prev = x;
		else
			nodes[s].prev = x;
	}
}

/* Take nodes f..l (list neighbours) out of the list; their next links stay. */
static void
unlink_run(struct call *k, uint32_t f, uint32_t l)
{
	struct sctp_reasm_node *nodes = k->nodes;
	struct sctp_reasm *r = k->r;
	uint32_t before = f == r->head ? NIL : nodes[f].prev;
	uint32_t after = nodes[l].next;

	if (l == tail_of(k) || f == r->run_b)
		r->run_b = RUN_UNKNOWN;
	if (before == NIL && after == NIL) {
		r->head = NIL;
		r->run_b = NIL;
	} else if (before == NIL) {
		nodes[after].prev = nodes[f].prev;
		r->head = after;
	} else if (after == NIL) {
		nodes[before].next = NIL;
		nodes[r->head].prev = before;
	} else {
		nodes[before].next = after;
		nodes[after].prev = before;
	}
}

/* Give nodes f..l (count of them, linked by next) back to the pool in O(1). */
static void
pool_put(struct call *k, const struct run *run)
{
	struct sctp_reasm_pool *pool = k->env->pool;

	pool->nodes[run->last].next = pool->free;
	pool->free = run->first;
	pool->n_free += run->count;
}

/*
 * The run from node f: following next while the TSNs are consecutive, up
 * to and including the first E. By I2 it lies within one message.
 */
static struct run
run_from(const struct call *k, uint32_t f)
{
	const struct sctp_reasm_node *nodes = k->nodes;
	struct run run = { f, f, 1, nodes[f].len };
	uint32_t n;

	while (!(nodes[run.last].flags & FE)) {
		n = nodes[run.last].next;
		if (n == NIL || nodes[n].tsn != nodes[run.last].tsn + 1)
			break;
		run.last = n;
		run.count++;
		run.bytes += nodes[n].len;
	}
	return run;
}

/* The first node of x's run: down through consecutive TSNs until a B. */
static uint32_t
run_start(const struct call *k, uint32_t x)
{
	const struct sctp_reasm_node *nodes = k->nodes;
	uint32_t p;

	while (!(nodes[x].flags & FB) && x != k->r->head) {
		p = nodes[x].prev;
		if (nodes[p].tsn + 1 != nodes[x].tsn)
			break;
		x = p;
	}
	return x;
}

/* I4: recompute run_b and run_bytes for the current tail. O(k). */
static void
run_refresh(struct call *k)
{
	const struct sctp_reasm_node *nodes = k->nodes;
	struct sctp_reasm *r = k->r;
	uint32_t x, bytes = 0;

	r->run_b = NIL;
	if (r->head == NIL)
		return;
	x = tail_of(k);
	if (nodes[x].flags & FE)
		return;
	for (;;) {
		bytes += nodes[x].len;
		if (nodes[x].flags & FB) {
			r->run_b = x;
			r->run_bytes = bytes;
			return;
		}
		if (x == r->head || nodes[nodes[x].prev].tsn + 1 != nodes[x].tsn)
			return;
		x = nodes[x].prev;
	}
}

static struct sctp_reasm_msg
msg_of(uint16_t sid, uint16_t ssn, uint32_t ppid, uint8_t data_flags, uint8_t msg_flags)
{
	struct sctp_reasm_msg m;

	memset(&m, 0, sizeof(m));
	m.sid = sid;
	m.ssn = ssn;
	m.mid = ssn;
	m.ppid = ppid;
	m.flags = (uint8_t)(msg_flags | ((data_flags & FU) ? SCTP_REASM_MSG_UNORDERED : 0u));
	m.chain = NIL;
	return m;
}

/*
 * One delivery: the slice in hand (inl, may be NULL) first, then the queued
 * run (NULL or empty for none). The run leaves the queue before the
 * callback; its nodes return to the pool after it.
 */
static void
deliver(struct call *k, struct sctp_reasm_msg *m, const struct sctp_slice *inl,
	const struct run *run)
{
	struct sctp_reasm *r = k->r;
	bool chain = run != NULL && run->count > 0;

	m->nodes = k->nodes;
	if (inl != NULL) {
		m->has_first = true;
		m->first = *inl;
		m->len += inl->len;
		m->nfrags++;
		buf_hold(k, inl->handle);
	}
	if (chain) {
		m->chain = run->first;
		m->n_chain = run->count;
		m->len += run->bytes;
		m->nfrags += run->count;
		unlink_run(k, run->first, run->last);
		r->chunks = (uint16_t)(r->chunks - run->count);
		r->bytes -= run->bytes;
		if (!(m->flags & SCTP_REASM_MSG_UNORDERED))
			k->env->streams[m->sid].held =
				(uint16_t)(k->env->streams[m->sid].held - run->count);
	}
	k->env->deliver(k->env->arg, m);
	if (chain)
		pool_put(k, run);
}

static void drain(struct call *k, uint16_t sid);
static void pd_scan(struct call *k, bool force);

/*
 * A whole queued message goes up; an ordered one advances its stream and
 * *sid names it for the caller to drain (false for unordered), so that a
 * long line of waiting messages is released by a loop, not a recursion.
 */
static bool
deliver_whole(struct call *k, const struct run *run, uint16_t *sid)
{
	const struct sctp_reasm_node *f = &k->nodes[run->first];
	struct sctp_reasm_msg m = msg_of(f->sid, f->ssn, f->ppid, f->flags, 0);

	deliver(k, &m, NULL, run);
	if (m.flags & SCTP_REASM_MSG_UNORDERED)
		return false;
	k->env->streams[m.sid].next_ssn++;
	*sid = m.sid;
	return true;
}

/* Partial delivery starts with the queued run from a B node (not whole). */
static void
pd_start(struct call *k, const struct run *run)
{
	const struct sctp_reasm_node *f = &k->nodes[run->first];
	struct sctp_reasm_msg m = msg_of(f->sid, f->ssn, f->ppid, f->flags, SCTP_REASM_MSG_MORE);
	struct sctp_reasm *r = k->r;

	r->pd = (f->flags & FU) ? PD_UNORDERED : PD_ORDERED;
	r->pd_sid = f->sid;
	r->pd_ssn = f->ssn;
	r->pd_ppid = f->ppid;
	r->pd_next = k->nodes[run->last].tsn + 1;
	deliver(k, &m, NULL, run);
}

/* Partial delivery is over (last part or ABORTED): the stream moves on. */
static void
pd_end(struct call *k)
{
	struct sctp_reasm *r = k->r;
	bool ordered = r->pd == PD_ORDERED;
	uint16_t sid = r->pd_sid;

	r->pd = PD_NONE;
	if (ordered) {
		k->env->streams[sid].next_ssn = (uint16_t)(r->pd_ssn + 1);
		drain(k, sid);
	}
	pd_scan(k, false);
}

static void
pd_abort(struct call *k)
{
	struct sctp_reasm *r = k->r;
	struct sctp_reasm_msg m =
		msg_of(r->pd_sid, r->pd_ssn, r->pd_ppid, r->pd == PD_UNORDERED ? FU : 0,
		       SCTP_REASM_MSG_CONT | SCTP_REASM_MSG_ABORTED);

	deliver(k, &m, NULL, NULL);
	pd_end(k);
}

/*
 * Is the deliverable run from B node first, of bytes bytes, to start a
 * partial delivery now? Only one at a time, only under I7, and only past the
 * partial delivery point or when full (or forced by a caller that is).
 */
static bool
pd_due(const struct call *k, uint32_t first, uint32_t bytes, bool force)
{
	if (k->r->pd != PD_NONE || !eligible(k, k->nodes[first].tsn))
		return false;
	return force || full(k) || (k->env->lim.pd_point != 0 && bytes >= k->env->lim.pd_point);
}

/*
 * The first deliverable message prefix in TSN order that pd_due() accepts
 * goes up in part. A whole deliverable message found on the way (I3 says
 * there is none) goes up too. O(Q).
 */
static void
pd_scan(struct call *k, bool force)
{
	const struct sctp_reasm_node *nodes = k->nodes;
	uint32_t x = k->r->head;
	struct run run;
	uint16_t sid;

	while (k->r->pd == PD_NONE && x != NIL) {
		if (!(nodes[x].flags & FB) || !startable(k, &nodes[x])) {
			x = nodes[x].next;
			continue;
		}
		run = run_from(k, x);
		if (nodes[run.last].flags & FE) {
			if (deliver_whole(k, &run, &sid))
				drain(k, sid);
			x = k->r->head;
			continue;
		}
		if (pd_due(k, x, run.bytes, force)) {
			pd_start(k, &run);
			return;
		}
		x = nodes[run.last].next;
	}
}

/* The queued B node of ordered message (sid, ssn), or NIL. O(Q). */
static uint32_t
find_start(const struct call *k, uint16_t sid, uint16_t ssn)
{
	const struct sctp_reasm_node *nodes = k->nodes;
	uint32_t x;

	for (x = k->r->head; x != NIL; x = nodes[x].next) {
		if ((nodes[x].flags & (FB | FU)) == FB && nodes[x].sid == sid &&
		    nodes[x].ssn == ssn)
			return x;
	}
	return NIL;
}

/*
 * Stream sid's next SSN moved: its queued messages go up while whole and in
 * sequence (§6.5); an incomplete one at the front may start a partial
 * delivery.
 */
static void
drain(struct call *k, uint16_t sid)
{
	struct sctp_reasm_stream *st = &k->env->streams[sid];
	uint32_t f;
	struct run run;

	while (st->held > 0 && !(k->r->pd == PD_ORDERED && k->r->pd_sid == sid)) {
		f = find_start(k, sid, st->next_ssn);
		if (f == NIL)
			return;
		run = run_from(k, f);
		if (!(k->nodes[run.last].flags & FE)) {
			if (pd_due(k, f, run.bytes, false))
				pd_start(k, &run);
			return;
		}
		deliver_whole(k, &run, &sid);
	}
}

/* Release a queued run's holds and give its nodes back (FORWARD TSN, abandon). */
static void
drop_run(struct call *k, const struct run *run)
{
	struct sctp_reasm_node *nodes = k->nodes;
	struct sctp_reasm *r = k->r;
	uint32_t x = run->first;
	uint32_t i;

	unlink_run(k, run->first, run->last);
	for (i = 0; i < run->count; i++) {
		buf_release(k, nodes[x].handle);
		r->bytes -= nodes[x].len;
		if (!(nodes[x].flags & FU))
			k->env->streams[nodes[x].sid].held--;
		x = nodes[x].next;
	}
	r->chunks = (uint16_t)(r->chunks - run->count);
	pool_put(k, run);
}

/*
 * The queued prefix ending at node l belongs to a message cut short (I2):
 * it can never be whole, so it goes now, holds released. Its first node is
 * found down through consecutive TSNs (run_start()); from there run_from()
 * comes back up to l, which is not an E and has no consecutive successor
 * queued yet.
 */
static void
cut(struct call *k, uint32_t l)
{
	struct run run = run_from(k, run_start(k, l));
	drop_run(k, &run);
}

/* The chunk in hand was taken: it may move the cumulative TSN. */
static void
took(struct call *k, uint32_t tsn)
{
	if (tsn == k->cum + 1)
		k->cum = tsn;
}

/*
 * The chunk partial delivery waits for (tsn == pd_next): it goes up at once
 * with whatever follows it contiguously in the queue. No room needed.
 */
static enum sctp_reasm_verdict
pd_continue(struct call *k, const struct sctp_reasm_chunk *c)
{
	const struct sctp_reasm_node *nodes = k->nodes;
	struct sctp_reasm *r = k->r;
	struct frag x = frag_of_chunk(c);
	struct frag sf;
	struct run run = { NIL, NIL, 0, 0 };
	uint32_t p, s, last_tsn = c->tsn;
	struct sctp_reasm_msg m;
	bool end, cut_short;

	if ((x.flags & FB) || x.sid != r->pd_sid ||
	    ((x.flags & FU) != 0) != (r->pd == PD_UNORDERED) ||
	    (!(x.flags & FU) && x.ssn != r->pd_ssn))
		return SCTP_REASM_BAD_FRAGMENT;
	if (locate(k, c->tsn, &p))
		return SCTP_REASM_DUPLICATE;
	s = succ_of(k, p);
	if (s != NIL && nodes[s].tsn == c->tsn + 1) {
		sf = frag_of_node(&nodes[s]);
		if (follows(&x, &sf)) {
			if (!(x.flags & FE)) {
				run = run_from(k, s);
				last_tsn = nodes[run.last].tsn;
			}
		} else if (!cut_allowed(k, &x, &sf)) {
			return SCTP_REASM_BAD_FRAGMENT;
		}
	}
	end = (x.flags & FE) || (run.count > 0 && (nodes[run.last].flags & FE));
	/* Cut short (I2): what follows contiguously is the B of the next message. */
	s = run.count > 0 ? nodes[run.last].next : s;
	cut_short = !end && s != NIL && nodes[s].tsn == last_tsn + 1;
	m = msg_of(r->pd_sid, r->pd_ssn, r->pd_ppid, x.flags,
		   SCTP_REASM_MSG_CONT | (end ? 0u : SCTP_REASM_MSG_MORE));
	deliver(k, &m, &c->payload, &run);
	if (c->tsn == k->cum + 1)
		k->cum = last_tsn;
	if (end)
		pd_end(k);
	else if (cut_short)
		pd_abort(k);
	else
		r->pd_next = last_tsn + 1;
	return SCTP_REASM_DELIVERED;
}

/*
 * No room, and c is the B fragment of a deliverable message that I7 allows,
 * with nothing in partial delivery: c goes up at once with the fragments
 * queued right after it, as a whole message if they reach its E, else as
 * the first part of a partial delivery. s is c's successor in the queue.
 */
static void
start_in_hand(struct call *k, const struct sctp_reasm_chunk *c, uint32_t s)
{
	const struct sctp_reasm_node *nodes = k->nodes;
	struct sctp_reasm *r = k->r;
	struct run run = { NIL, NIL, 0, 0 };
	uint32_t last_tsn = c->tsn;
	bool end = (c->flags & FE) != 0;
	struct sctp_reasm_msg m;

	if (!end && s != NIL && nodes[s].tsn == c->tsn + 1) {
		run = run_from(k, s);
		last_tsn = nodes[run.last].tsn;
		end = (nodes[run.last].flags & FE) != 0;
	}
	m = msg_of(c->sid, c->ssn, c->ppid, c->flags, end ? 0u : SCTP_REASM_MSG_MORE);
	if (!end) {
		r->pd = (c->flags & FU) ? PD_UNORDERED : PD_ORDERED;
		r->pd_sid = c->sid;
		r->pd_ssn = c->ssn;
		r->pd_ppid = c->ppid;
		r->pd_next = last_tsn + 1;
	}
	deliver(k, &m, &c->payload, &run);
	k->cum = last_tsn; /* c was cum + 1 (I7), the run followed it */
	if (end && !(c->flags & FU)) {
		k->env->streams[c->sid].next_ssn++;
		drain(k, c->sid);
	}
}

const char *
sctp_reasm_verdict_name(enum sctp_reasm_verdict v)
{
	static const char *const names[] = {
		[SCTP_REASM_DELIVERED] = "delivered",	[SCTP_REASM_QUEUED] = "queued",
		[SCTP_REASM_STALE] = "stale",		[SCTP_REASM_NO_ROOM] = "no_room",
		[SCTP_REASM_BAD_STREAM] = "bad_stream", [SCTP_REASM_BAD_FRAGMENT] = "bad_fragment",
		[SCTP_REASM_DUPLICATE] = "duplicate",	[SCTP_REASM_BAD_LEN] = "bad_len",
	};

	if ((unsigned)v >= sizeof(names) / sizeof(names[0]) || names[v] == NULL)
		return "unknown";
	return names[v];
}

int
sctp_reasm_pool_init(struct sctp_reasm_pool *p, struct sctp_reasm_node *nodes, uint32_t n)
{
	uint32_t i;

	if (n == 0 || n >= RUN_UNKNOWN)
		return -1;
	for (i = 0; i < n; i++) {
		memset(&nodes[i], 0, sizeof(nodes[i]));
		nodes[i].next = i + 1 < n ? i + 1 : NIL;
	}
	p->nodes = nodes;
	p->n = n;
	p->free = 0;
	p->n_free = n;
	return 0;
}

void
sctp_reasm_init(struct sctp_reasm *r)
{
	memset(r, 0, sizeof(*r));
	r->head = NIL;
	r->run_b = NIL;
}

void
sctp_reasm_streams_init(struct sctp_reasm_stream *s, uint32_t n)
{
	memset(s, 0, sizeof(*s) * n);
}

/* Whether c may go up now, ignoring completeness (startable() for the chunk in hand). */
static bool
deliverable(const struct call *k, const struct sctp_reasm_chunk *c)
{
	if (c->flags & FU)
		return true;
	if (k->r->pd == PD_ORDERED && k->r->pd_sid == c->sid)
		return false;
	return c->ssn == k->env->streams[c->sid].next_ssn;
}

/* Take a node from the pool for c (room_for() said there is one), hold c. */
static uint32_t
queue_chunk(struct call *k, const struct sctp_reasm_chunk *c, uint32_t p)
{
	struct sctp_reasm_pool *pool = k->env->pool;
	struct sctp_reasm_node *n;
	uint32_t x = pool->free;

	pool->free = k->nodes[x].next;
	pool->n_free--;
	n = &k->nodes[x];
	n->handle = c->payload.handle;
	n->data = c->payload.data;
	n->len = (uint16_t)c->payload.len;
	n->tsn = c->tsn;
	n->ppid = c->ppid;
	n->sid = c->sid;
	n->ssn = c->ssn;
	n->flags = (uint8_t)(c->flags & (FB | FE | FU));
	n->reserved = 0;
	buf_hold(k, c->payload.handle);
	link_after(k, p, x);
	k->r->chunks++;
	k->r->bytes += c->payload.len;
	if (!(n->flags & FU))
		k->env->streams[c->sid].held++;
	return x;
}

enum sctp_reasm_verdict
sctp_reasm_input(struct sctp_reasm *r, const struct sctp_reasm_env *env,
		 const struct sctp_reasm_chunk *c, uint32_t cum_tsn)
{
	struct call k = { r, env, env->pool->nodes, cum_tsn };
	struct sctp_reasm_node *nodes = k.nodes;
	struct frag xf = frag_of_chunk(c), nf;
	bool ordered = !(xf.flags & FU);
	struct sctp_reasm_msg m;
	uint32_t p, s, x, first;
	struct run run;
	uint16_t sid;

	if (c->sid >= env->n_streams)
		return SCTP_REASM_BAD_STREAM;
	if (c->payload.len > UINT16_MAX)
		return SCTP_REASM_BAD_LEN;
	if (r->pd != PD_NONE && c->tsn == r->pd_next) {
		if (!env->pr_cut || !(xf.flags & FB))
			return pd_continue(&k, c);
		/* The message in partial delivery was cut short (I2): it ends ABORTED. */
		pd_abort(&k);
	}
	/* A second start of the message in partial delivery. */
	if (ordered && (xf.flags & FB) && r->pd == PD_ORDERED && r->pd_sid == c->sid &&
	    r->pd_ssn == c->ssn)
		return SCTP_REASM_BAD_FRAGMENT;

	/* §6.9 against the neighbours, before anything is taken. */
	if (locate(&k, c->tsn, &p))
		return SCTP_REASM_DUPLICATE;
	s = succ_of(&k, p);
	if (s != NIL && nodes[s].tsn == c->tsn + 1) {
		nf = frag_of_node(&nodes[s]);
		if (!follows(&xf, &nf)) {
			if (!cut_allowed(&k, &xf, &nf))
				return SCTP_REASM_BAD_FRAGMENT;
			/* c is the last fragment sent of a message cut short: it
			 * and the prefix of that message before it can never be
			 * whole (I2). */
			if (p != NIL && nodes[p].tsn + 1 == c->tsn) {
				nf = frag_of_node(&nodes[p]);
				if (!follows(&nf, &xf))
					return SCTP_REASM_BAD_FRAGMENT;
				if (!(xf.flags & FB))
					cut(&k, p);
			}
			return SCTP_REASM_STALE;
		}
	}
	if (p != NIL && nodes[p].tsn + 1 == c->tsn) {
		nf = frag_of_node(&nodes[p]);
		if (!follows(&nf, &xf)) {
			if (!cut_allowed(&k, &nf, &xf))
				return SCTP_REASM_BAD_FRAGMENT;
			cut(&k, p); /* c begins a message after one cut short */
			locate(&k, c->tsn, &p);
			s = succ_of(&k, p);
		}
	}
	/* §6.5: the stream has passed this SSN (only after a FORWARD TSN skip). */
	if (ordered && sctp_ssn_lt(c->ssn, env->streams[c->sid].next_ssn))
		return SCTP_REASM_STALE;

	/* Fast path: a whole message that may go up goes up, no node taken. */
	if ((xf.flags & (FB | FE)) == (FB | FE) && deliverable(&k, c)) {
		m = msg_of(c->sid, c->ssn, c->ppid, xf.flags, 0);
		deliver(&k, &m, &c->payload, NULL);
		took(&k, c->tsn);
		if (ordered) {
			env->streams[c->sid].next_ssn++;
			if (env->streams[c->sid].held > 0)
				drain(&k, c->sid);
		}
		goto taken;
	}

	if (!room_for(&k, c->payload.len)) {
		/* Free room by starting a partial delivery (c not taken: I7 with cum_tsn). */
		pd_scan(&k, true);
		if (r->pd != PD_NONE && c->tsn == r->pd_next)
			return pd_continue(&k, c);
		locate(&k, c->tsn, &p);
		s = succ_of(&k, p);
		if (!room_for(&k, c->payload.len)) {
			if ((xf.flags & FB) && deliverable(&k, c) && r->pd == PD_NONE &&
			    eligible(&k, c->tsn)) {
				start_in_hand(&k, c, s);
				goto taken;
			}
			return SCTP_REASM_NO_ROOM;
		}
	}

	/* Queue it, and find which message prefix it extends (I4). */
	if (s == NIL) {
		if (!(xf.flags & FB) && p != NIL && nodes[p].tsn + 1 == c->tsn &&
		    r->run_b == RUN_UNKNOWN)
			run_refresh(&k);
		x = queue_chunk(&k, c, p);
		if (xf.flags & FB) {
			r->run_b = x;
			r->run_bytes = c->payload.len;
		} else if (p != NIL && nodes[p].tsn + 1 == c->tsn) {
			if (r->run_b != NIL)
				r->run_bytes += c->payload.len;
		} else {
			r->run_b = NIL;
		}
		first = r->run_b;
		if (xf.flags & FE)
			r->run_b = NIL;
	} else {
		x = queue_chunk(&k, c, p);
		r->run_b = RUN_UNKNOWN;
		first = run_start(&k, x);
		if (!(nodes[first].flags & FB))
			first = NIL;
	}
	took(&k, c->tsn);
	if (first == NIL || !startable(&k, &nodes[first]))
		goto queued;
	/* In order, the cache answers in O(1) unless something goes up. */
	if (s == NIL && !(xf.flags & FE) && !pd_due(&k, first, r->run_bytes, false))
		goto queued;
	/* O(k): walks the prefix once, to deliver it or (out of order) to see if it is whole. */
	run = run_from(&k, first);
	if (nodes[run.last].flags & FE) {
		if (deliver_whole(&k, &run, &sid))
			drain(&k, sid);
		goto taken;
	}
	if (pd_due(&k, first, run.bytes, false)) {
		pd_start(&k, &run);
		goto taken;
	}
queued:
	if (r->pd == PD_NONE && full(&k)) {
		/* c may have gone up with the partial delivery this starts. */
		pd_scan(&k, true);
		if (!locate(&k, c->tsn, &p))
			return SCTP_REASM_DELIVERED;
	}
	return SCTP_REASM_QUEUED;
taken:
	if (r->pd == PD_NONE && r->head != NIL && full(&k))
		pd_scan(&k, true);
	return SCTP_REASM_DELIVERED;
}

void
sctp_reasm_cum_moved(struct sctp_reasm *r, const struct sctp_reasm_env *env, uint32_t cum_tsn)
{
	struct call k = { r, env, env->pool->nodes, cum_tsn };

	if (r->pd == PD_NONE && r->head != NIL && full(&k))
		pd_scan(&k, true);
}

void
sctp_reasm_forward_tsn(struct sctp_reasm *r, const struct sctp_reasm_env *env, uint32_t cum_tsn)
{
	struct call k = { r, env, env->pool->nodes, cum_tsn };
	const struct sctp_reasm_node *nodes = k.nodes;
	uint32_t x, next;
	struct run run;
	bool whole, gap_below, gap_above;

	for (x = r->head; x != NIL; x = next) {
		run = run_from(&k, x);
		next = nodes[run.last].next;
		whole = (nodes[run.first].flags & FB) && (nodes[run.last].flags & FE);
		gap_below = !(nodes[run.first].flags & FB) &&
			    sctp_tsn_le(nodes[run.first].tsn - 1, cum_tsn);
		gap_above = !(nodes[run.last].flags & FE) &&
			    sctp_tsn_le(nodes[run.last].tsn + 1, cum_tsn);
		if (!whole && (gap_below || gap_above))
			drop_run(&k, &run);
	}
	if (r->pd != PD_NONE && sctp_tsn_le(r->pd_next, cum_tsn))
		pd_abort(&k);
	else if (r->pd == PD_NONE)
		pd_scan(&k, false);
}

/* Serial distance from a to b, 16-bit: how far b is past a. */
static uint16_t
ssn_dist(uint16_t a, uint16_t b)
{
	return (uint16_t)(b - a);
}

/* The queued whole message of stream sid with the lowest SSN in [next, next + span], or NIL. */
static uint32_t
stranded(const struct call *k, uint16_t sid, uint16_t base, uint16_t span)
{
	const struct sctp_reasm_node *nodes = k->nodes;
	uint16_t next = k->env->streams[sid].next_ssn, d, best_d = 0;
	uint32_t x, best = NIL;
	struct run run;

	for (x = k->r->head; x != NIL; x = nodes[x].next) {
		if ((nodes[x].flags & (FB | FU)) != FB || nodes[x].sid != sid)
			continue;
		d = ssn_dist(next, nodes[x].ssn);
		if (ssn_dist(base, nodes[x].ssn) > span || (best != NIL && d >= best_d))
			continue;
		run = run_from(k, x);
		if (nodes[run.last].flags & FE) {
			best = x;
			best_d = d;
		}
	}
	return best;
}

int
sctp_reasm_forward_ssn(struct sctp_reasm *r, const struct sctp_reasm_env *env, uint16_t sid,
		       uint16_t ssn, uint32_t cum_tsn)
{
	struct call k = { r, env, env->pool->nodes, cum_tsn };
	const struct sctp_reasm_node *nodes = k.nodes;
	struct sctp_reasm_stream *st;
	uint32_t x, next;
	uint16_t base, span, s;
	struct run run;

	if (sid >= env->n_streams)
		return -1;
	st = &env->streams[sid];
	if (r->pd == PD_ORDERED && r->pd_sid == sid && !sctp_ssn_lt(ssn, r->pd_ssn))
		pd_abort(&k);
	if (sctp_ssn_lt(ssn, st->next_ssn))
		return 0;
	base = st->next_ssn;
	span = ssn_dist(base, ssn);
	/* Stranded whole messages up to ssn go up in SSN order: O(Q) each. */
	while (st->held > 0 && (x = stranded(&k, sid, base, span)) != NIL) {
		run = run_from(&k, x);
		st->next_ssn = nodes[x].ssn;
		deliver_whole(&k, &run, &s);
	}
	/* What is left of the stream up to ssn can no longer go up in order. */
	for (x = r->head; x != NIL && st->held > 0; x = next) {
		next = nodes[x].next;
		if ((nodes[x].flags & FU) || nodes[x].sid != sid ||
		    ssn_dist(base, nodes[x].ssn) > span)
			continue;
		run = (struct run){ x, x, 1, nodes[x].len };
		drop_run(&k, &run);
	}
	if (!sctp_ssn_lt(ssn, st->next_ssn))
		st->next_ssn = (uint16_t)(ssn + 1);
	drain(&k, sid);
	pd_scan(&k, false);
	return 0;
}

int
sctp_reasm_stream_reset(struct sctp_reasm *r, const struct sctp_reasm_env *env, uint16_t sid,
			uint32_t cum_tsn)
{
	if (sid >= env->n_streams)
		return -1;
	/*
	 * The common case, and a reset of every stream (up to 65,535) stays
	 * O(streams): forward_ssn() would walk the queue for each.
	 */
	if (env->streams[sid].held == 0 && !(r->pd == PD_ORDERED && r->pd_sid == sid)) {
		env->streams[sid].next_ssn = 0;
		return 0;
	}
	/* Every ordered SSN held is at most 2^15 past next_ssn (stale otherwise). */
	(void)sctp_reasm_forward_ssn(r, env, sid, (uint16_t)(env->streams[sid].next_ssn + 0x8000u),
				     cum_tsn);
	env->streams[sid].next_ssn = 0;
	return 0;
}

void
sctp_reasm_abandon(struct sctp_reasm *r, const struct sctp_reasm_env *env)
{
	struct call k = { r, env, env->pool->nodes, 0 };
	struct run run;

	while (r->head != NIL) {
		run = run_from(&k, r->head);
		drop_run(&k, &run);
	}
	r->pd = PD_NONE;
	r->run_b = NIL;
}
