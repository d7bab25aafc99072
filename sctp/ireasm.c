/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reassembly and per-stream delivery of I-DATA, RFC 8260 §2.1 and §2.3.1:
 * see ireasm.h for the API, the reference contract, partial delivery and
 * the costs. Not wired into the association yet (ireasm.h).
 *
 * The structures. A message in progress has a record (a node of kind MSG)
 * on two lists: its stream's (ordered: by MID, lowest first; unordered: in
 * arrival order) and the association's (every record, for the O(A) and
 * O(Q) walks). Its queued fragments (nodes of kind FRAG) hang from it in
 * FSN order. Every list links next one way and prev the other, the head's
 * prev being the tail, so both ends are O(1). FSNs are compared as offsets
 * from base (fsn - base, 32-bit), so a message in partial delivery may
 * wrap its FSN (§2.1).
 *
 * Invariants between calls (sctp_ireasm_check() numbers them):
 *  I1  The association's list holds every record once, r->msgs of them;
 *      each is on the list of its stream and U bit once.
 *  I2  A stream's ordered records have strictly increasing MIDs, none
 *      before the stream's next MID (those are STALE on arrival).
 *  I3  A record's fragments have strictly increasing FSN offsets from
 *      base, below 2^31; only the last may be an E; only FSN 0 outside
 *      partial delivery may be a B. r->chunks and r->bytes count them all.
 *  I4  run_end is the end of the run of consecutive FSNs from base (up to
 *      an E), with run_bytes its bytes; NIL when base is not queued.
 *  I5  No deliverable record (unordered, or ordered with its stream's next
 *      MID) is whole, and none is due a partial delivery: in partial
 *      delivery its run is empty, otherwise its run is below pd_point.
 *      So whatever can go up has gone up.
 *  I6  A record holds at least one fragment or is in partial delivery; an
 *      ordered one in partial delivery has its stream's next MID.
 */
#include <stddef.h>
#include <string.h>

#include "sctp/ireasm.h"
#include "sctp/tsn.h"
#include "sctp/wire.h"

#define NIL SCTP_IREASM_NIL

#define FB    SCTP_DATA_FLAG_B
#define FE    SCTP_DATA_FLAG_E
#define FU    SCTP_DATA_FLAG_U
#define MF_PD 0x80u /* record: in partial delivery */

#define OFF_MAX 0x80000000u /* FSN offsets from base are below this */

enum kind {
	KIND_FREE = 0,
	KIND_FRAG = 1,
	KIND_MSG = 2,
};

_Static_assert(sizeof(union sctp_ireasm_node) == 48, "pool node grew: see ireasm.h");
_Static_assert(sizeof(struct sctp_ireasm) == 16, "per-association header: see ireasm.h");
_Static_assert(sizeof(struct sctp_ireasm_stream) == 12, "per-stream state: see ireasm.h");

struct call {
	struct sctp_ireasm *r;
	const struct sctp_ireasm_env *env;
	union sctp_ireasm_node *nodes;
};

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

/* ---- pool ---- */

static uint32_t
pool_get(struct call *k)
{
	struct sctp_ireasm_pool *pool = k->env->pool;
	uint32_t x = pool->free;

	pool->free = k->nodes[x].f.next;
	pool->n_free--;
	return x;
}

/* Nodes first..last, count of them, linked by f.next, back in O(1). */
static void
pool_put(struct call *k, uint32_t first, uint32_t last, uint32_t count)
{
	struct sctp_ireasm_pool *pool = k->env->pool;

	k->nodes[last].f.next = pool->free;
	pool->free = first;
	pool->n_free += count;
}

/* ---- lists of records: the stream's (a false) or the association's (a true) ---- */

static uint32_t *
lnext(union sctp_ireasm_node *n, bool a)
{
	return a ? &n->m.anext : &n->m.snext;
}

static uint32_t *
lprev(union sctp_ireasm_node *n, bool a)
{
	return a ? &n->m.aprev : &n->m.sprev;
}

/* Links x after p (NIL: at the head). */
static void
list_insert(struct call *k, uint32_t *head, bool a, uint32_t p, uint32_t x)
{
	union sctp_ireasm_node *nodes = k->nodes;
	uint32_t s;

	if (*head == NIL) {
		*lnext(&nodes[x], a) = NIL;
		*lprev(&nodes[x], a) = x;
		*head = x;
	} else if (p == NIL) {
		*lnext(&nodes[x], a) = *head;
		*lprev(&nodes[x], a) = *lprev(&nodes[*head], a);
		*lprev(&nodes[*head], a) = x;
		*head = x;
	} else {
		s = *lnext(&nodes[p], a);
		*lprev(&nodes[x], a) = p;
		*lnext(&nodes[x], a) = s;
		*lnext(&nodes[p], a) = x;
		if (s == NIL)
			*lprev(&nodes[*head], a) = x;
		else
			*lprev(&nodes[s], a) = x;
	}
}

static void
list_remove(struct call *k, uint32_t *head, bool a, uint32_t x)
{
	union sctp_ireasm_node *nodes = k->nodes;
	uint32_t n = *lnext(&nodes[x], a);
	uint32_t p = *lprev(&nodes[x], a);

	if (x == *head) {
		*head = n;
		if (n != NIL)
			*lprev(&nodes[n], a) = p;
	} else {
		*lnext(&nodes[p], a) = n;
		if (n == NIL)
			*lprev(&nodes[*head], a) = p;
		else
			*lprev(&nodes[n], a) = p;
	}
}

/* ---- records ---- */

static uint32_t *
stream_head(const struct call *k, uint16_t sid, bool unordered)
{
	struct sctp_ireasm_stream *st = &k->env->streams[sid];

	return unordered ? &st->uo : &st->ord;
}

/* The record of (sid, U, mid), or NIL: O(R) from the newest. */
static uint32_t
find_rec(const struct call *k, uint16_t sid, bool unordered, uint32_t mid)
{
	const union sctp_ireasm_node *nodes = k->nodes;
	uint32_t head = *stream_head(k, sid, unordered);
	uint32_t i;

	if (head == NIL)
		return NIL;
	for (i = nodes[head].m.sprev;; i = nodes[i].m.sprev) {
		if (nodes[i].m.mid == mid)
			return i;
		if (!unordered && sctp_tsn_lt(nodes[i].m.mid, mid))
			return NIL; /* sorted: it would be after this one */
		if (i == head)
			return NIL;
	}
}

/* An ordered MID the stream went past, or one half the MID space or more ahead of it. */
static bool
mid_passed(const struct sctp_ireasm_stream *st, uint32_t mid)
{
	return mid - st->next_mid >= 0x80000000u;
}

static uint32_t
new_rec(struct call *k, const struct sctp_ireasm_chunk *c)
{
	union sctp_ireasm_node *nodes = k->nodes;
	bool unordered = (c->flags & FU) != 0;
	uint32_t *head = stream_head(k, c->sid, unordered);
	uint32_t x = pool_get(k), p;
	struct sctp_ireasm_mrec *m = &nodes[x].m;

	memset(m, 0, sizeof(*m));
	m->kind = KIND_MSG;
	m->first = NIL;
	m->last = NIL;
	m->run_end = NIL;
	m->mid = c->mid;
	m->sid = c->sid;
	m->flags = (uint8_t)(c->flags & FU);
	/* Ordered: after the last record with a lower MID (O(1) in order). */
	p = *head == NIL ? NIL : nodes[*head].m.sprev;
	if (!unordered) {
		while (p != NIL && sctp_tsn_lt(c->mid, nodes[p].m.mid))
			p = p == *head ? NIL : nodes[p].m.sprev;
	}
	list_insert(k, head, false, p, x);
	list_insert(k, &k->r->head, true, k->r->head == NIL ? NIL : nodes[k->r->head].m.aprev, x);
	k->r->msgs++;
	return x;
}

/* A record without fragments leaves both lists and the pool takes it. */
static void
free_rec(struct call *k, uint32_t x)
{
	struct sctp_ireasm_mrec *m = &k->nodes[x].m;

	list_remove(k, stream_head(k, m->sid, (m->flags & FU) != 0), false, x);
	list_remove(k, &k->r->head, true, x);
	m->kind = KIND_FREE;
	k->r->msgs--;
	pool_put(k, x, x, 1);
}

static bool
rec_deliverable(const struct call *k, const struct sctp_ireasm_mrec *m)
{
	return (m->flags & FU) || m->mid == k->env->streams[m->sid].next_mid;
}

static bool
rec_whole(const struct call *k, const struct sctp_ireasm_mrec *m)
{
	return m->run_end != NIL && (k->nodes[m->run_end].f.flags & FE);
}

static uint32_t
off_of(const struct sctp_ireasm_mrec *m, uint32_t fsn)
{
	return fsn - m->base;
}

/* I4 from node x on, x being the next FSN of the run (or base). */
static void
run_extend(struct call *k, struct sctp_ireasm_mrec *m, uint32_t x)
{
	const union sctp_ireasm_node *nodes = k->nodes;
	uint32_t n;

	m->run_end = x;
	m->run_bytes += nodes[x].f.len;
	while (!(nodes[x].f.flags & FE)) {
		n = nodes[x].f.next;
		if (n == NIL || nodes[n].f.fsn != nodes[x].f.fsn + 1)
			break;
		x = n;
		m->run_end = x;
		m->run_bytes += nodes[x].f.len;
	}
}

/* A cap reached, or the pool empty. */
static bool
full(const struct call *k)
{
	const struct sctp_ireasm *r = k->r;

	return (uint64_t)r->chunks + r->msgs >= k->env->lim.max_chunks ||
	       r->bytes >= k->env->lim.max_bytes || k->env->pool->n_free == 0;
}

static bool
room_for(const struct call *k, uint32_t n, uint32_t len)
{
	const struct sctp_ireasm *r = k->r;

	return k->env->pool->n_free >= n &&
	       (uint64_t)r->chunks + r->msgs + n <= k->env->lim.max_chunks &&
	       (uint64_t)r->bytes + len <= k->env->lim.max_bytes;
}

/* Should deliverable record m's run go up now (I5)? */
static bool
pd_due(const struct call *k, const struct sctp_ireasm_mrec *m, bool force)
{
	if (m->run_end == NIL)
		return false;
	return force || (m->flags & MF_PD) || full(k) ||
	       (k->env->lim.pd_point != 0 && m->run_bytes >= k->env->lim.pd_point);
}

/*
 * Deliverable record x goes up: its run from base, after the chunk in hand
 * inl when there is one (then inl is the fragment at base and the run is
 * recomputed from the queued fragment after it). The message ends if the
 * delivery reaches its E: the record goes and, ordered, the stream's next
 * MID moves on (the caller drains the stream). Returns true when it ended.
 */
static bool
go_up(struct call *k, uint32_t x, const struct sctp_ireasm_chunk *inl)
{
	union sctp_ireasm_node *nodes = k->nodes;
	struct sctp_ireasm_mrec *m = &nodes[x].m;
	struct sctp_ireasm *r = k->r;
	struct sctp_ireasm_msg msg;
	uint32_t chain = NIL, last = NIL, count = 0, i;
	bool end;

	memset(&msg, 0, sizeof(msg));
	msg.sid = m->sid;
	msg.mid = m->mid;
	msg.flags = (uint8_t)(((m->flags & FU) ? SCTP_REASM_MSG_UNORDERED : 0u) |
			      ((m->flags & MF_PD) ? SCTP_REASM_MSG_CONT : 0u));
	msg.nodes = nodes;
	msg.chain = NIL;
	if (inl != NULL) {
		if (inl->flags & FB)
			m->ppid = inl->ppid;
		msg.has_first = true;
		msg.first = inl->payload;
		msg.len = inl->payload.len;
		msg.nfrags = 1;
		buf_hold(k, inl->payload.handle);
		m->base = inl->fsn + 1;
		m->run_end = NIL;
		m->run_bytes = 0;
		if (!(inl->flags & FE) && m->first != NIL && nodes[m->first].f.fsn == m->base)
			run_extend(k, m, m->first);
		end = (inl->flags & FE) != 0;
	} else {
		end = false;
	}
	if (m->run_end != NIL) {
		chain = m->first;
		last = m->run_end;
		end = (nodes[last].f.flags & FE) != 0;
		for (i = chain;; i = nodes[i].f.next) {
			count++;
			nodes[i].f.kind = KIND_FREE;
			if (i == last)
				break;
		}
		msg.chain = chain;
		msg.n_chain = count;
		msg.nfrags += count;
		msg.len += m->run_bytes;
		m->base = nodes[last].f.fsn + 1;
		m->first = nodes[last].f.next;
		if (m->first == NIL)
			m->last = NIL;
		else
			nodes[m->first].f.prev = NIL;
		r->chunks -= count;
		r->bytes -= m->run_bytes;
		m->run_end = NIL;
		m->run_bytes = 0;
	}
	msg.ppid = m->ppid;
	if (!end)
		msg.flags |= SCTP_REASM_MSG_MORE;
	if (end) {
		if (!(m->flags & FU))
			k->env->streams[m->sid].next_mid = m->mid + 1;
		free_rec(k, x);
	} else {
		m->flags |= MF_PD;
	}
	k->env->deliver(k->env->arg, &msg);
	if (count > 0)
		pool_put(k, chain, last, count);
	return end;
}

/* Stream sid's next MID moved: what is in order goes up (I5). O(1) per message. */
static void
drain(struct call *k, uint16_t sid)
{
	struct sctp_ireasm_stream *st = &k->env->streams[sid];
	struct sctp_ireasm_mrec *m;
	uint32_t h;

	while ((h = st->ord) != NIL) {
		m = &k->nodes[h].m;
		if (m->mid != st->next_mid)
			return;
		if (rec_whole(k, m)) {
			go_up(k, h, NULL);
			continue;
		}
		if (pd_due(k, m, false))
			go_up(k, h, NULL);
		return;
	}
}

/*
 * Every deliverable record whose run is due goes up (I5), or with force
 * every deliverable run (a chunk found no room, though the association may
 * not be full by full()'s measure). Makes room, and restores I5 after a
 * drop. O(A), plus a restart from the head each time a message ends (it
 * may free other records through drain()).
 */
static void
settle(struct call *k, bool force)
{
	union sctp_ireasm_node *nodes = k->nodes;
	struct sctp_ireasm_mrec *m;
	uint32_t x = k->r->head, next;
	uint16_t sid;

	while (x != NIL) {
		m = &nodes[x].m;
		next = m->anext;
		if (rec_deliverable(k, m) && (rec_whole(k, m) || pd_due(k, m, force))) {
			sid = m->sid;
			if (go_up(k, x, NULL)) {
				drain(k, sid);
				x = k->r->head;
				continue;
			}
		}
		x = next;
	}
}

/* Release record x's fragments and give them back. O(fragments). */
static void
drop_frags(struct call *k, uint32_t x)
{
	union sctp_ireasm_node *nodes = k->nodes;
	struct sctp_ireasm_mrec *m = &nodes[x].m;
	uint32_t i, count = 0;

	if (m->first == NIL)
		return;
	for (i = m->first;; i = nodes[i].f.next) {
		buf_release(k, nodes[i].f.handle);
		k->r->bytes -= nodes[i].f.len;
		nodes[i].f.kind = KIND_FREE;
		count++;
		if (i == m->last)
			break;
	}
	k->r->chunks -= count;
	pool_put(k, m->first, m->last, count);
	m->first = m->last = m->run_end = NIL;
	m->run_bytes = 0;
}

/*
 * Record x can never be whole: its fragments go, a partial delivery ends
 * ABORTED and, ordered, moves its stream past it (the caller settles).
 */
static void
kill(struct call *k, uint32_t x)
{
	struct sctp_ireasm_mrec *m = &k->nodes[x].m;
	struct sctp_ireasm_msg msg;

	drop_frags(k, x);
	if (m->flags & MF_PD) {
		memset(&msg, 0, sizeof(msg));
		msg.sid = m->sid;
		msg.mid = m->mid;
		msg.ppid = m->ppid;
		msg.flags = (uint8_t)(SCTP_REASM_MSG_CONT | SCTP_REASM_MSG_ABORTED |
				      ((m->flags & FU) ? SCTP_REASM_MSG_UNORDERED : 0u));
		msg.nodes = k->nodes;
		msg.chain = NIL;
		if (!(m->flags & FU))
			k->env->streams[m->sid].next_mid = m->mid + 1;
		free_rec(k, x);
		k->env->deliver(k->env->arg, &msg);
		return;
	}
	free_rec(k, x);
}

const char *
sctp_ireasm_verdict_name(enum sctp_ireasm_verdict v)
{
	static const char *const names[] = {
		[SCTP_IREASM_DELIVERED] = "delivered",
		[SCTP_IREASM_QUEUED] = "queued",
		[SCTP_IREASM_STALE] = "stale",
		[SCTP_IREASM_NO_ROOM] = "no_room",
		[SCTP_IREASM_BAD_STREAM] = "bad_stream",
		[SCTP_IREASM_BAD_FRAGMENT] = "bad_fragment",
		[SCTP_IREASM_DUPLICATE] = "duplicate",
		[SCTP_IREASM_BAD_LEN] = "bad_len",
	};

	if ((unsigned)v >= sizeof(names) / sizeof(names[0]) || names[v] == NULL)
		return "unknown";
	return names[v];
}

int
sctp_ireasm_pool_init(struct sctp_ireasm_pool *p, union sctp_ireasm_node *nodes, uint32_t n)
{
	uint32_t i;

	if (n == 0 || n >= NIL)
		return -1;
	for (i = 0; i < n; i++) {
		memset(&nodes[i], 0, sizeof(nodes[i]));
		nodes[i].f.next = i + 1 < n ? i + 1 : NIL;
	}
	p->nodes = nodes;
	p->n = n;
	p->free = 0;
	p->n_free = n;
	return 0;
}

void
sctp_ireasm_init(struct sctp_ireasm *r)
{
	memset(r, 0, sizeof(*r));
	r->head = NIL;
}

void
sctp_ireasm_streams_init(struct sctp_ireasm_stream *s, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		s[i].next_mid = 0;
		s[i].ord = NIL;
		s[i].uo = NIL;
	}
}

/*
 * The §2.1 checks of chunk c against its record x. *p gets the queued
 * fragment it goes after (NIL: first). Returns QUEUED when c may be taken.
 */
static enum sctp_ireasm_verdict
check_in(const struct call *k, uint32_t x, const struct sctp_ireasm_chunk *c, uint32_t *p)
{
	const union sctp_ireasm_node *nodes = k->nodes;
	const struct sctp_ireasm_mrec *m = &nodes[x].m;
	uint32_t off = off_of(m, c->fsn), i, o;

	*p = NIL;
	if (m->flags & MF_PD) {
		if (c->flags & FB)
			return SCTP_IREASM_BAD_FRAGMENT; /* its B went up already */
	} else if (!(c->flags & FB) && c->fsn == 0) {
		return SCTP_IREASM_BAD_FRAGMENT;
	}
	if (off >= OFF_MAX)
		return SCTP_IREASM_BAD_FRAGMENT; /* an FSN that went up already */
	if (m->last == NIL)
		return SCTP_IREASM_QUEUED;
	o = off_of(m, nodes[m->last].f.fsn);
	if ((nodes[m->last].f.flags & FE) && off > o)
		return SCTP_IREASM_BAD_FRAGMENT; /* beyond the E */
	if ((c->flags & FE) && off < o)
		return SCTP_IREASM_BAD_FRAGMENT; /* an E below a queued fragment */
	for (i = m->last;; i = nodes[i].f.prev) {
		o = off_of(m, nodes[i].f.fsn);
		if (o == off) {
			if (nodes[i].f.tsn == c->tsn)
				return SCTP_IREASM_DUPLICATE;
			return SCTP_IREASM_BAD_FRAGMENT; /* one FSN, two TSNs (or two Es) */
		}
		if (o < off) {
			*p = i;
			return SCTP_IREASM_QUEUED;
		}
		if (nodes[i].f.prev == NIL)
			return SCTP_IREASM_QUEUED;
	}
}

/* Queue c in record x after fragment p (NIL: first), hold it, extend the run. */
static uint32_t
queue_frag(struct call *k, uint32_t x, const struct sctp_ireasm_chunk *c, uint32_t p)
{
	union sctp_ireasm_node *nodes = k->nodes;
	struct sctp_ireasm_mrec *m = &nodes[x].m;
	uint32_t y = pool_get(k), s;
	struct sctp_ireasm_frag *f = &nodes[y].f;
	uint32_t want;

	f->handle = c->payload.handle;
	f->data = c->payload.data;
	f->len = (uint16_t)c->payload.len;
	f->tsn = c->tsn;
	f->fsn = c->fsn;
	f->flags = (uint8_t)(c->flags & (FB | FE));
	f->kind = KIND_FRAG;
	buf_hold(k, c->payload.handle);
	s = p == NIL ? m->first : nodes[p].f.next;
	f->prev = p;
	f->next = s;
	if (p == NIL)
		m->first = y;
	else
		nodes[p].f.next = y;
	if (s == NIL)
		m->last = y;
	else
		nodes[s].f.prev = y;
	if (c->flags & FB)
		m->ppid = c->ppid;
	k->r->chunks++;
	k->r->bytes += c->payload.len;
	want = m->run_end == NIL ? m->base : nodes[m->run_end].f.fsn + 1;
	if (c->fsn == want && (m->run_end == NIL || !(nodes[m->run_end].f.flags & FE)))
		run_extend(k, m, y);
	return y;
}

/* c may go up now as the fragment at its message's front (record x or none). */
static bool
at_front(const struct call *k, uint32_t x, const struct sctp_ireasm_chunk *c, bool deliverable)
{
	const struct sctp_ireasm_mrec *m;

	if (!deliverable)
		return false;
	if (x == NIL)
		return (c->flags & FB) != 0;
	m = &k->nodes[x].m;
	return c->fsn == m->base && m->run_end == NIL;
}

enum sctp_ireasm_verdict
sctp_ireasm_input(struct sctp_ireasm *r, const struct sctp_ireasm_env *env,
		  const struct sctp_ireasm_chunk *c)
{
	struct call k = { r, env, env->pool->nodes };
	union sctp_ireasm_node *nodes = k.nodes;
	bool unordered = (c->flags & FU) != 0;
	struct sctp_ireasm_stream *st;
	enum sctp_ireasm_verdict v;
	uint32_t x, p = NIL, y;
	bool deliverable;
	struct sctp_ireasm_msg msg;

	if (c->sid >= env->n_streams)
		return SCTP_IREASM_BAD_STREAM;
	if (c->payload.len > UINT16_MAX)
		return SCTP_IREASM_BAD_LEN;
	if ((c->flags & FB) && c->fsn != 0)
		return SCTP_IREASM_BAD_FRAGMENT;
	st = &env->streams[c->sid];
	/*
	 * §2.1 ordered delivery: the stream passed this MID (an I-FORWARD TSN
	 * skipped it). So is one 2^31 or more ahead, which serial arithmetic
	 * cannot order against the others (I2); no sender has that many
	 * messages of a stream outstanding. Found by fuzz_assoc.
	 */
	if (!unordered && mid_passed(st, c->mid))
		return SCTP_IREASM_STALE;
	deliverable = unordered || c->mid == st->next_mid;
	x = find_rec(&k, c->sid, unordered, c->mid);
	if (x == NIL) {
		if (!(c->flags & FB) && c->fsn == 0)
			return SCTP_IREASM_BAD_FRAGMENT;
		/* Offsets from a new message's FSN 0 stay below OFF_MAX (I3): no message has
		 * 2^31 fragments. Found by fuzz_assoc. */
		if (c->fsn >= OFF_MAX)
			return SCTP_IREASM_BAD_FRAGMENT;
		/* Fast path: a whole message that may go up goes up, no node taken. */
		if ((c->flags & (FB | FE)) == (FB | FE) && deliverable) {
			memset(&msg, 0, sizeof(msg));
			msg.sid = c->sid;
			msg.mid = c->mid;
			msg.ppid = c->ppid;
			msg.flags = unordered ? SCTP_REASM_MSG_UNORDERED : 0u;
			msg.has_first = true;
			msg.first = c->payload;
			msg.len = c->payload.len;
			msg.nfrags = 1;
			msg.nodes = nodes;
			msg.chain = NIL;
			buf_hold(&k, c->payload.handle);
			env->deliver(env->arg, &msg);
			if (!unordered) {
				st->next_mid = c->mid + 1;
				drain(&k, c->sid);
			}
			return SCTP_IREASM_DELIVERED;
		}
	} else {
		v = check_in(&k, x, c, &p);
		if (v != SCTP_IREASM_QUEUED)
			return v;
		/* Continues a partial delivery: up at once, no room needed. */
		if ((nodes[x].m.flags & MF_PD) && c->fsn == nodes[x].m.base) {
			if (go_up(&k, x, c) && !unordered)
				drain(&k, c->sid);
			goto delivered;
		}
	}

	if (!room_for(&k, x == NIL ? 2u : 1u, c->payload.len)) {
		/* Make room: partial deliveries that are due now that we are full. */
		settle(&k, true);
		if (!unordered && mid_passed(st, c->mid))
			return SCTP_IREASM_STALE;
		deliverable = unordered || c->mid == st->next_mid;
		x = find_rec(&k, c->sid, unordered, c->mid);
		if (x != NIL) {
			v = check_in(&k, x, c, &p);
			if (v != SCTP_IREASM_QUEUED)
				return v;
		}
		if (!room_for(&k, x == NIL ? 2u : 1u, c->payload.len)) {
			/* Progress (ireasm.h): the front of a deliverable message goes up. */
			if (!at_front(&k, x, c, deliverable))
				return SCTP_IREASM_NO_ROOM;
			if (x == NIL) {
				if (env->pool->n_free == 0)
					return SCTP_IREASM_NO_ROOM;
				x = new_rec(&k, c); /* may pass the caps by this one record */
			}
			if (go_up(&k, x, c) && !unordered)
				drain(&k, c->sid);
			goto delivered;
		}
	}

	if (x == NIL)
		x = new_rec(&k, c);
	y = queue_frag(&k, x, c, p);
	if (rec_deliverable(&k, &nodes[x].m) &&
	    (rec_whole(&k, &nodes[x].m) || pd_due(&k, &nodes[x].m, false))) {
		if (go_up(&k, x, NULL) && !unordered)
			drain(&k, c->sid);
	}
	if (full(&k))
		settle(&k, false);
	/* Nothing was allocated since c was queued: its node is free iff it went up. */
	if (nodes[y].f.kind == KIND_FRAG && nodes[y].f.tsn == c->tsn)
		return SCTP_IREASM_QUEUED;
delivered:
	if (full(&k))
		settle(&k, false);
	return SCTP_IREASM_DELIVERED;
}

/*
 * Is record m provably dead under cum_tsn? A fragment missing below a
 * queued one whose TSN is at most cum_tsn + 1 has a lower TSN (FSN order is
 * TSN order, ireasm.h "Progress"), so it is at or below cum_tsn: received
 * (then it would be queued or delivered) or abandoned.
 */
static bool
dead(const struct call *k, const struct sctp_ireasm_mrec *m, uint32_t cum_tsn)
{
	const union sctp_ireasm_node *nodes = k->nodes;
	uint32_t i, want = m->base;

	for (i = m->first; i != NIL; i = nodes[i].f.next) {
		if (nodes[i].f.fsn != want && sctp_tsn_le(nodes[i].f.tsn - 1, cum_tsn))
			return true;
		want = nodes[i].f.fsn + 1;
	}
	return false;
}

void
sctp_ireasm_forward_tsn(struct sctp_ireasm *r, const struct sctp_ireasm_env *env, uint32_t cum_tsn)
{
	struct call k = { r, env, env->pool->nodes };
	uint32_t x, next;

	for (x = r->head; x != NIL; x = next) {
		next = k.nodes[x].m.anext;
		if (dead(&k, &k.nodes[x].m, cum_tsn))
			kill(&k, x); /* frees x only: no delivery but its ABORTED */
	}
	settle(&k, false);
}

int
sctp_ireasm_forward(struct sctp_ireasm *r, const struct sctp_ireasm_env *env, uint16_t sid,
		    bool unordered, uint32_t mid)
{
	struct call k = { r, env, env->pool->nodes };
	union sctp_ireasm_node *nodes = k.nodes;
	struct sctp_ireasm_stream *st;
	uint32_t x, next, base, span;

	if (sid >= env->n_streams)
		return -1;
	st = &env->streams[sid];
	if (unordered) {
		for (x = st->uo; x != NIL; x = next) {
			next = nodes[x].m.snext;
			if (sctp_tsn_le(nodes[x].m.mid, mid))
				kill(&k, x);
		}
		settle(&k, false);
		return 0;
	}
	/*
	 * Measured from next_mid, as mid_passed() measures what is held: a
	 * mid half the MID space or more away is one the stream went past.
	 * (sctp_tsn_lt() has no answer at exactly half, where the comparisons
	 * here once disagreed and moved next_mid past records still held.)
	 */
	base = st->next_mid;
	span = mid - base;
	if (span >= OFF_MAX)
		return 0;
	/* Up to mid, lowest MID first: whole ones go up (stranded), the rest go. */
	while ((x = st->ord) != NIL && nodes[x].m.mid - base <= span) {
		if (rec_whole(&k, &nodes[x].m)) {
			st->next_mid = nodes[x].m.mid;
			go_up(&k, x, NULL);
		} else {
			kill(&k, x);
		}
	}
	if (st->next_mid - base <= span)
		st->next_mid = mid + 1;
	drain(&k, sid);
	settle(&k, false);
	return 0;
}

int
sctp_ireasm_stream_reset(struct sctp_ireasm *r, const struct sctp_ireasm_env *env, uint16_t sid)
{
	struct call k = { r, env, env->pool->nodes };
	struct sctp_ireasm_stream *st;
	uint32_t x;

	if (sid >= env->n_streams)
		return -1;
	st = &env->streams[sid];
	/* The common case, and a reset of every stream (up to 65,535) stays O(streams). */
	if (st->ord == NIL && st->uo == NIL) {
		st->next_mid = 0;
		return 0;
	}
	/* Every ordered MID held is below next_mid + 2^31 (I2, mid_passed()). */
	(void)sctp_ireasm_forward(r, env, sid, false, st->next_mid + (OFF_MAX - 1u));
	while ((x = st->uo) != NIL)
		kill(&k, x);
	st->next_mid = 0;
	settle(&k, false);
	return 0;
}

void
sctp_ireasm_abandon(struct sctp_ireasm *r, const struct sctp_ireasm_env *env)
{
	struct call k = { r, env, env->pool->nodes };
	uint32_t x;

	while ((x = r->head) != NIL) {
		drop_frags(&k, x);
		free_rec(&k, x);
	}
}

/* I3, I4 for record x; adds its fragments to *chunks and *bytes. 0 or the invariant. */
static int
check_rec(const struct call *k, uint32_t x, uint64_t *chunks, uint64_t *bytes)
{
	const union sctp_ireasm_node *nodes = k->nodes;
	const struct sctp_ireasm_mrec *m = &nodes[x].m;
	uint32_t i, prev = NIL, o, last_o = 0, run_end = NIL, run_bytes = 0;
	bool run = true;

	for (i = m->first; i != NIL; i = nodes[i].f.next) {
		if (nodes[i].f.kind != KIND_FRAG || nodes[i].f.prev != prev)
			return 3;
		o = off_of(m, nodes[i].f.fsn);
		if (o >= OFF_MAX || (prev != NIL && o <= last_o))
			return 3;
		if ((nodes[i].f.flags & FE) && nodes[i].f.next != NIL)
			return 3;
		if ((nodes[i].f.flags & FB) && (nodes[i].f.fsn != 0 || (m->flags & MF_PD)))
			return 3;
		if (run && o == (prev == NIL ? 0 : last_o + 1) &&
		    (prev == NIL || !(nodes[prev].f.flags & FE))) {
			run_end = i;
			run_bytes += nodes[i].f.len;
		} else {
			run = false;
		}
		(*chunks)++;
		*bytes += nodes[i].f.len;
		prev = i;
		last_o = o;
	}
	if (prev != m->last)
		return 3;
	if (run_end != m->run_end || (run_end != NIL && run_bytes != m->run_bytes))
		return 4;
	return 0;
}

int
sctp_ireasm_check(const struct sctp_ireasm *r, const struct sctp_ireasm_env *env)
{
	struct call k = { (struct sctp_ireasm *)r, env, env->pool->nodes };
	const union sctp_ireasm_node *nodes = k.nodes;
	const struct sctp_ireasm_mrec *m;
	uint64_t chunks = 0, bytes = 0, msgs = 0, on_streams = 0;
	uint32_t x, prev = NIL, s, h;
	int e;

	for (x = r->head; x != NIL; x = nodes[x].m.anext) {
		m = &nodes[x].m;
		if (m->kind != KIND_MSG || m->sid >= env->n_streams)
			return 1;
		if ((x == r->head ? nodes[x].m.aprev != nodes[r->head].m.aprev : m->aprev != prev))
			return 1;
		if (++msgs > env->pool->n)
			return 1;
		e = check_rec(&k, x, &chunks, &bytes);
		if (e != 0)
			return e;
		if (rec_deliverable(&k, m) && (rec_whole(&k, m) || pd_due(&k, m, false)))
			return 5;
		if (m->first == NIL && !(m->flags & MF_PD))
			return 6;
		if ((m->flags & (MF_PD | FU)) == MF_PD &&
		    (m->mid != env->streams[m->sid].next_mid || env->streams[m->sid].ord != x))
			return 6;
		prev = x;
	}
	if (r->head != NIL && nodes[r->head].m.aprev != prev)
		return 1;
	if (msgs != r->msgs || chunks != r->chunks || bytes != r->bytes)
		return msgs != r->msgs ? 1 : 3;
	for (s = 0; s < env->n_streams; s++) {
		for (int u = 0; u < 2; u++) {
			h = u ? env->streams[s].uo : env->streams[s].ord;
			prev = NIL;
			for (x = h; x != NIL; x = nodes[x].m.snext) {
				m = &nodes[x].m;
				if (m->kind != KIND_MSG || m->sid != s ||
				    ((m->flags & FU) != 0) != (u != 0))
					return 1;
				if (x != h && m->sprev != prev)
					return 1;
				if (++on_streams > msgs)
					return 1;
				if (!u &&
				    (sctp_tsn_lt(m->mid, env->streams[s].next_mid) ||
				     (prev != NIL && !sctp_tsn_lt(nodes[prev].m.mid, m->mid))))
					return 2;
				prev = x;
			}
			if (h != NIL && nodes[h].m.sprev != prev)
				return 1;
		}
	}
	return on_streams == msgs ? 0 : 1;
}

uint32_t
sctp_ireasm_node_slice(const union sctp_ireasm_node *nodes, uint32_t x, struct sctp_slice *out)
{
	const struct sctp_ireasm_frag *f = &nodes[x].f;

	out->handle = f->handle;
	out->data = f->data;
	out->len = f->len;
	return f->next;
}
