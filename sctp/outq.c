/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Outbound message queue, RFC 9260 §6.1, §6.5, §6.6, §6.9, RFC 7053 §3 and
 * RFC 8260 §2.1, §3: see outq.h for the API, who holds which buffer
 * reference, and the costs.
 *
 * Node references are 1 + the node's index in the pool, so that 0 is "none"
 * and an all-zero stream entry is an idle stream (init is one memset).
 *
 * Invariants after every call:
 *   - queued_msgs = the number of nodes linked in the scheduler's lists;
 *     queued_bytes = the sum of len - off over them; wire_bytes = the sum of
 *     hdr + pad4(len - off) over them; every linked node has off < len;
 *   - the queue holds one buffer reference per linked node (none for a NULL
 *     handle, buf.h: bytes the core does not hold);
 *   - the ring schedulers (all but FCFS): a stream has tail != 0 iff it
 *     has queued messages iff its sched_next != 0 (it is on the ring of
 *     active streams); head is 0
 *     iff the ring is empty, else 1 + the id of the stream before the one
 *     served next. Each stream's messages form a circular list through
 *     next, tail pointing at the last, tail's next at the first;
 *   - priority: the ring is sorted by sched_param from q->tail's successor
 *     to q->tail; the stream after head has the first one's priority
 *     unless it has a DATA message partly taken;
 *   - WFQ and FC: the stream after head has a positive credit unless it
 *     has a DATA message partly taken;
 *   - FCFS: head and tail are the first and last node of one list through
 *     next, ending in 0, both 0 when it is empty;
 *   - at most one message is partly taken (0 < off) per stream, and, unless
 *     I-DATA, at most one in the whole queue: it is the one peek answers;
 *   - no SSN or MID has been given since init unless flags has
 *     SCTP_OUTQ_QF_TAKEN;
 *   - a node's pr_policy is SCTP_OUTQ_PR_NONE unless the pool has PR
 *     slots; an unsent SCTP_OUTQ_PR_PRIO node's mid and fsn hold its push
 *     order (pool->pr_seq when it was pushed), every other unsent node's
 *     fsn is 0.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "sctp/outq.h"
#include "sctp/rtxq.h"

/*
 * LP64 layouts: the header is two pointers, seven 32-bit fields and 4
 * bytes of stream count, scheduler and flags (48, the budget for the
 * per-association part); a node two pointers, six 32-bit fields, the stream
 * id, flags, a spare byte and the WFQ credit (48, what the padding of the
 * 44 bytes before the credit took anyway: four nodes in three cache lines);
 * a stream entry 16 (four per cache line).
 */
_Static_assert(sizeof(void *) != 8 || sizeof(struct sctp_outq) == 48,
	       "struct sctp_outq grew: see its comment");
_Static_assert(sizeof(void *) != 8 || sizeof(struct sctp_outq_msg) == 48,
	       "struct sctp_outq_msg grew: see its comment");
_Static_assert(sizeof(struct sctp_outq_stream) == 16, "struct sctp_outq_stream grew");
_Static_assert(sizeof(struct sctp_outq_pr) == 16, "struct sctp_outq_pr grew");
_Static_assert(SCTP_OUTQ_PR_NONE == SCTP_RTXQ_PR_NONE && SCTP_OUTQ_PR_TTL == SCTP_RTXQ_PR_TTL &&
		       SCTP_OUTQ_PR_RTX == SCTP_RTXQ_PR_RTX &&
		       SCTP_OUTQ_PR_PRIO == SCTP_RTXQ_PR_PRIO,
	       "a chunk's policy goes to sctp_rtxq_add_pr() as it is");
_Static_assert(SCTP_OUTQ_MAX_STREAMS <= 0xffffu, "1 + stream id fits sched_next");
_Static_assert((uint64_t)SCTP_OUTQ_MAX_BYTES + (uint64_t)SCTP_OUTQ_MAX_MSGS * 23u < 0x80000000u,
	       "wire_bytes fits 32 bits");
_Static_assert(SCTP_OUTQ_FLAGS == (SCTP_DATA_FLAG_U | SCTP_DATA_FLAG_I),
	       "push flags are the chunk's U and I bits");

/* Largest user data in one chunk: the chunk Length field is 16 bits. */
#define DATA_MAX_PAYLOAD  (0xffffu - SCTP_OUTQ_DATA_HDR)
#define IDATA_MAX_PAYLOAD (0xffffu - SCTP_OUTQ_IDATA_HDR)

static inline bool
is_idata(const struct sctp_outq *q)
{
	return (q->flags & SCTP_OUTQ_QF_IDATA) != 0;
}

static inline struct sctp_outq_msg *
node(const struct sctp_outq *q, uint32_t ref)
{
	return &q->pool->nodes[ref - 1u];
}

static inline struct sctp_outq_stream *
stream_of(const struct sctp_outq *q, uint32_t id1)
{
	return &q->streams[id1 - 1u];
}

static inline uint32_t
hdr_len(const struct sctp_outq *q)
{
	return is_idata(q) ? SCTP_OUTQ_IDATA_HDR : SCTP_OUTQ_DATA_HDR;
}

/* Bytes in a packet of a chunk carrying len bytes of user data. */
static inline uint32_t
wire_len(const struct sctp_outq *q, uint32_t len)
{
	return hdr_len(q) + ((len + 3u) & ~3u);
}

static inline uint32_t
clamp_payload(const struct sctp_outq *q, uint32_t max_payload)
{
	uint32_t cap = is_idata(q) ? IDATA_MAX_PAYLOAD : DATA_MAX_PAYLOAD;

	return max_payload < cap ? max_payload : cap;
}

static inline void
buf_hold(const struct sctp_outq_pool *p, void *handle)
{
	if (handle != NULL)
		p->ops->hold(p->ops->ctx, handle);
}

static inline void
buf_release(const struct sctp_outq_pool *p, void *handle)
{
	if (handle != NULL)
		p->ops->release(p->ops->ctx, handle);
}

/* ---- Round robin, RFC 8260 §3.2 ------------------------------------------ */

/*
 * The active streams form a ring through sched_next; q->head names the
 * stream before the current one, so that the current one can leave the
 * ring in O(1) and a newly active stream joins right before it, i.e. at
 * the end of the round. Round robin per packet, fair capacity and WFQ use
 * the same ring, priority keeps it sorted.
 */
static void
rr_push(struct sctp_outq *q, uint32_t ref)
{
	struct sctp_outq_msg *m = node(q, ref);
	struct sctp_outq_stream *st = &q->streams[m->sid];
	uint32_t id1 = (uint32_t)m->sid + 1u;

	if (st->tail != 0) {
		struct sctp_outq_msg *t = node(q, st->tail);

		m->next = t->next;
		t->next = ref;
		st->tail = ref;
		return;
	}
	m->next = ref;
	st->tail = ref;
	if (q->head == 0) {
		st->sched_next = (uint16_t)id1;
	} else {
		struct sctp_outq_stream *prev = stream_of(q, q->head);

		st->sched_next = prev->sched_next;
		prev->sched_next = (uint16_t)id1;
	}
	q->head = id1;
}

/* The first queued message of an active stream. */
static inline struct sctp_outq_msg *
first_msg(const struct sctp_outq *q, const struct sctp_outq_stream *st)
{
	return node(q, node(q, st->tail)->next);
}

static inline uint32_t
cur_of(const struct sctp_outq *q)
{
	return stream_of(q, q->head)->sched_next;
}

static uint32_t
rr_peek(const struct sctp_outq *q)
{
	if (q->head == 0)
		return 0;
	return node(q, stream_of(q, cur_of(q))->tail)->next;
}

/* The current stream's first message ref is done and was not its last: unlink it. */
static inline void
unlink_first(struct sctp_outq *q, struct sctp_outq_stream *cur, uint32_t ref)
{
	node(q, cur->tail)->next = node(q, ref)->next;
}

/* The current stream (after prev) sent its last message: it leaves the ring. */
static inline void
ring_leave(struct sctp_outq *q, struct sctp_outq_stream *prev, uint32_t cur_id1,
	   struct sctp_outq_stream *cur)
{
	cur->tail = 0;
	if (q->head == cur_id1)
		q->head = 0;
	else
		prev->sched_next = cur->sched_next;
	cur->sched_next = 0;
}

static void
rr_taken(struct sctp_outq *q, uint32_t ref, uint32_t bytes, bool done)
{
	struct sctp_outq_stream *prev = stream_of(q, q->head);
	uint32_t cur_id1 = prev->sched_next;
	struct sctp_outq_stream *cur = stream_of(q, cur_id1);

	(void)bytes;
	if (!done) {
		/* DATA: stay on the message (§6.9); I-DATA: one chunk per turn. */
		if (is_idata(q))
			q->head = cur_id1;
		return;
	}
	if (cur->tail != ref) {
		/* Unlink the first message; the stream goes to the end of the round. */
		unlink_first(q, cur, ref);
		q->head = cur_id1;
		return;
	}
	/* It was the stream's only message: the stream leaves the ring. */
	ring_leave(q, prev, cur_id1, cur);
}

/* ---- First come, first served, RFC 8260 §3.1 ----------------------------- */

static void
fcfs_push(struct sctp_outq *q, uint32_t ref)
{
	node(q, ref)->next = 0;
	if (q->tail != 0)
		node(q, q->tail)->next = ref;
	else
		q->head = ref;
	q->tail = ref;
}

static uint32_t
fcfs_peek(const struct sctp_outq *q)
{
	return q->head;
}

static void
fcfs_taken(struct sctp_outq *q, uint32_t ref, uint32_t bytes, bool done)
{
	(void)bytes;
	if (!done)
		return;
	q->head = node(q, ref)->next;
	if (q->head == 0)
		q->tail = 0;
}

/* ---- Round robin per packet, RFC 8260 §3.3 -------------------------------- */

/*
 * The round-robin ring, but the turn passes at sctp_outq_packet_end(), not
 * per message. q->tail's low bits lock the packet to the stream of its
 * first chunk: once that stream has nothing more (or, with DATA, its
 * carried-over message ended), peek answers 0 until the packet ends. Bit
 * 31 (CARRY) says the current stream's first message began in an earlier
 * packet (DATA): when it ends the turn passes, so a stream whose packets
 * each end inside a new message cannot keep the turn for ever.
 */
#define RRP_CARRY 0x80000000u

static uint32_t
rrp_peek(const struct sctp_outq *q)
{
	uint32_t lock = q->tail & ~RRP_CARRY;

	if (q->head == 0 || (lock != 0 && lock != cur_of(q)))
		return 0;
	return node(q, stream_of(q, cur_of(q))->tail)->next;
}

static void
rrp_taken(struct sctp_outq *q, uint32_t ref, uint32_t bytes, bool done)
{
	struct sctp_outq_stream *prev = stream_of(q, q->head);
	uint32_t cur_id1 = prev->sched_next;
	struct sctp_outq_stream *cur = stream_of(q, cur_id1);
	uint32_t carry = q->tail & RRP_CARRY;

	(void)bytes;
	if (!done) {
		q->tail = cur_id1 | carry;
		return;
	}
	q->tail = cur_id1; /* the carried message, if any, is over */
	if (cur->tail != ref) {
		unlink_first(q, cur, ref);
		if (carry)
			q->head = cur_id1; /* its turn ends: the rest of the packet stays empty */
		return;
	}
	ring_leave(q, prev, cur_id1, cur);
}

static void
rrp_packet_end(struct sctp_outq *q)
{
	uint32_t lock = q->tail & ~RRP_CARRY;

	q->tail = 0;
	if (lock == 0 || q->head == 0 || cur_of(q) != lock)
		return; /* nothing taken, or the stream left or passed its turn */
	if (!is_idata(q) && first_msg(q, stream_of(q, lock))->off != 0) {
		q->tail = RRP_CARRY; /* §6.9: its message goes on in the next packet */
		return;
	}
	q->head = lock;
}

/* ---- Priority, RFC 8260 §3.4 ---------------------------------------------- */

/*
 * The ring sorted by priority (sched_param, lower first), q->tail its last
 * stream, so the first (a stream of the highest priority with data) is
 * tail's sched_next. The current stream is always of the first one's
 * priority, except a lower one finishing a DATA message when a higher one
 * became active (§6.9 forbids cutting in); streams of one priority take
 * turns: after a turn the next one in the ring if it is of the same
 * priority, else the first.
 */
static inline uint16_t
prio_of(const struct sctp_outq *q, uint32_t id1)
{
	return stream_of(q, id1)->sched_param;
}

/* Back to the highest priority, unless the current stream must finish a DATA message. */
static void
prio_fix(struct sctp_outq *q)
{
	uint32_t cur;

	if (q->head == 0)
		return;
	cur = cur_of(q);
	if (prio_of(q, cur) == prio_of(q, stream_of(q, q->tail)->sched_next))
		return;
	if (!is_idata(q) && first_msg(q, stream_of(q, cur))->off != 0)
		return;
	q->head = q->tail;
}

/*
 * Insert active stream id1 after the last stream of its priority or a
 * higher one (the end of its class), keeping the current stream current.
 * Returns its predecessor. O(active streams).
 */
static uint32_t
prio_link(struct sctp_outq *q, uint32_t id1)
{
	struct sctp_outq_stream *st = stream_of(q, id1);
	uint16_t p = st->sched_param;
	uint32_t last = q->tail, first, pred;

	if (q->head == 0) {
		st->sched_next = (uint16_t)id1;
		q->head = id1;
		q->tail = id1;
		return id1;
	}
	first = stream_of(q, last)->sched_next;
	pred = last; /* a new highest priority: at the start, after the last */
	if (p >= prio_of(q, first)) {
		pred = first;
		while (pred != last && prio_of(q, stream_of(q, pred)->sched_next) <= p)
			pred = stream_of(q, pred)->sched_next;
		if (pred == last)
			q->tail = id1;
	}
	st->sched_next = stream_of(q, pred)->sched_next;
	stream_of(q, pred)->sched_next = (uint16_t)id1;
	if (q->head == pred)
		q->head = id1;
	return pred;
}

static void
prio_push(struct sctp_outq *q, uint32_t ref)
{
	struct sctp_outq_msg *m = node(q, ref);
	struct sctp_outq_stream *st = &q->streams[m->sid];

	if (st->tail != 0) {
		struct sctp_outq_msg *t = node(q, st->tail);

		m->next = t->next;
		t->next = ref;
		st->tail = ref;
		return;
	}
	m->next = ref;
	st->tail = ref;
	prio_link(q, (uint32_t)m->sid + 1u);
	prio_fix(q);
}

static void
prio_taken(struct sctp_outq *q, uint32_t ref, uint32_t bytes, bool done)
{
	uint32_t prev_id1 = q->head;
	struct sctp_outq_stream *prev = stream_of(q, prev_id1);
	uint32_t cur_id1 = prev->sched_next;
	struct sctp_outq_stream *cur = stream_of(q, cur_id1);

	(void)bytes;
	if (!done) {
		if (!is_idata(q))
			return; /* §6.9 */
		q->head = cur_id1;
		prio_fix(q);
		return;
	}
	if (cur->tail != ref) {
		unlink_first(q, cur, ref);
		q->head = cur_id1;
		prio_fix(q);
		return;
	}
	if (q->tail == cur_id1 && prev_id1 != cur_id1)
		q->tail = prev_id1;
	ring_leave(q, prev, cur_id1, cur);
	if (q->head == 0)
		q->tail = 0;
	prio_fix(q);
}

/* An active stream's priority changes: out of the ring and back in at its new place. */
static void
prio_move(struct sctp_outq *q, uint32_t id1, uint16_t value)
{
	struct sctp_outq_stream *st = stream_of(q, id1);
	uint32_t pred = id1;
	bool keep;

	while (stream_of(q, pred)->sched_next != id1)
		pred = stream_of(q, pred)->sched_next;
	if (pred == id1) {
		st->sched_param = value; /* alone on the ring */
		return;
	}
	/* The current stream in the middle of a DATA message stays current (§6.9). */
	keep = q->head == pred && !is_idata(q) && first_msg(q, st)->off != 0;
	stream_of(q, pred)->sched_next = st->sched_next;
	if (q->tail == id1)
		q->tail = pred;
	if (q->head == id1)
		q->head = pred;
	st->sched_param = value;
	pred = prio_link(q, id1);
	if (keep)
		q->head = pred;
	else
		prio_fix(q);
}

/* ---- Fair capacity and weighted fair queueing, RFC 8260 §3.5, §3.6 ------- */

/*
 * Deficit round robin over the round-robin ring rather than virtual finish
 * times: a finish-time scheduler needs a sorted structure (a heap: O(log n)
 * per chunk and per-stream room for a tag and a position, which the 16-byte
 * stream entry does not have), DRR needs one signed credit per active
 * stream, kept in its first message's node (moved to the next message when
 * it ends; a stream that empties loses its credit, as in DRR) and O(1) per
 * chunk. Each turn adds weight * SCTP_OUTQ_WFQ_QUANTUM; the stream is served
 * while its credit is positive, every chunk costing its user data bytes;
 * the chunk that overdraws still goes, and with DATA the rest of its
 * message, so credit stays above -(the largest message, or chunk with
 * I-DATA) and above that the shares are exact: over any stretch in which
 * streams i and j stay backlogged, |bytes_i / w_i - bytes_j / w_j| <=
 * 2 * quantum + that largest unit (tests/outq_sched_test.cc checks it).
 */
static inline int64_t
wfq_quantum(const struct sctp_outq *q, const struct sctp_outq_stream *st)
{
	uint32_t w = q->sched == SCTP_OUTQ_SCHED_FC || st->sched_param == 0 ? 1u : st->sched_param;

	return (int64_t)w * SCTP_OUTQ_WFQ_QUANTUM;
}

static void
wfq_push(struct sctp_outq *q, uint32_t ref)
{
	bool was_empty = q->head == 0;

	node(q, ref)->credit = 0;
	rr_push(q, ref);
	if (was_empty) /* its turn starts now */
		node(q, ref)->credit = (int32_t)wfq_quantum(q, &q->streams[node(q, ref)->sid]);
}

/*
 * The turn passes from the stream after q->head on: each stream reached
 * gets its quantum and is served if its credit is then positive. A whole
 * round of streams in debt is cut short: the rounds they all still need
 * are credited at once, O(active streams), so a long DATA message's debt
 * costs no loop of empty rounds.
 */
static void
wfq_next_turn(struct sctp_outq *q)
{
	uint32_t start = cur_of(q);
	bool jumped = false;

	for (;;) {
		uint32_t id1 = cur_of(q);
		struct sctp_outq_stream *st = stream_of(q, id1);
		struct sctp_outq_msg *m = first_msg(q, st);
		int64_t c = (int64_t)m->credit + wfq_quantum(q, st);

		m->credit = (int32_t)c;
		if (c > 0)
			return;
		q->head = id1;
		if (cur_of(q) != start || jumped)
			continue;
		/* Nobody could go: k - 1 more rounds for all, k the fewest any needs. */
		int64_t k = INT64_MAX;
		uint32_t s = start;
		do {
			const struct sctp_outq_stream *t = stream_of(q, s);
			int64_t need = -(int64_t)first_msg(q, t)->credit / wfq_quantum(q, t) + 1;

			if (need < k)
				k = need;
			s = t->sched_next;
		} while (s != start);
		s = start;
		do {
			const struct sctp_outq_stream *t = stream_of(q, s);
			struct sctp_outq_msg *f = first_msg(q, t);

			f->credit = (int32_t)((int64_t)f->credit + (k - 1) * wfq_quantum(q, t));
			s = t->sched_next;
		} while (s != start);
		jumped = true;
	}
}

static void
wfq_taken(struct sctp_outq *q, uint32_t ref, uint32_t bytes, bool done)
{
	struct sctp_outq_stream *prev = stream_of(q, q->head);
	uint32_t cur_id1 = prev->sched_next;
	struct sctp_outq_stream *cur = stream_of(q, cur_id1);
	struct sctp_outq_msg *m = node(q, ref);
	int32_t credit = (int32_t)((int64_t)m->credit - bytes);

	m->credit = credit;
	if (!done) {
		if (credit > 0 || !is_idata(q))
			return; /* DATA: the message goes on (§6.9) */
		q->head = cur_id1;
		wfq_next_turn(q);
		return;
	}
	if (cur->tail != ref) {
		unlink_first(q, cur, ref);
		node(q, m->next)->credit = credit;
		if (credit > 0)
			return;
		q->head = cur_id1;
		wfq_next_turn(q);
		return;
	}
	ring_leave(q, prev, cur_id1, cur);
	if (q->head != 0)
		wfq_next_turn(q);
}

static const struct sctp_outq_sched_ops rr_ops = {
	.name = "rr",
	.push = rr_push,
	.peek = rr_peek,
	.taken = rr_taken,
};

static const struct sctp_outq_sched_ops fcfs_ops = {
	.name = "fcfs",
	.push = fcfs_push,
	.peek = fcfs_peek,
	.taken = fcfs_taken,
};

static const struct sctp_outq_sched_ops rrp_ops = {
	.name = "rr_pkt",
	.push = rr_push,
	.peek = rrp_peek,
	.taken = rrp_taken,
};

static const struct sctp_outq_sched_ops prio_ops = {
	.name = "prio",
	.push = prio_push,
	.peek = rr_peek,
	.taken = prio_taken,
};

static const struct sctp_outq_sched_ops fc_ops = {
	.name = "fc",
	.push = wfq_push,
	.peek = rr_peek,
	.taken = wfq_taken,
};

static const struct sctp_outq_sched_ops wfq_ops = {
	.name = "wfq",
	.push = wfq_push,
	.peek = rr_peek,
	.taken = wfq_taken,
};

const struct sctp_outq_sched_ops *const sctp_outq_scheds[SCTP_OUTQ_SCHED_COUNT] = {
	[SCTP_OUTQ_SCHED_RR] = &rr_ops,	     [SCTP_OUTQ_SCHED_FCFS] = &fcfs_ops,
	[SCTP_OUTQ_SCHED_RR_PKT] = &rrp_ops, [SCTP_OUTQ_SCHED_PRIO] = &prio_ops,
	[SCTP_OUTQ_SCHED_FC] = &fc_ops,	     [SCTP_OUTQ_SCHED_WFQ] = &wfq_ops,
};

static inline const struct sctp_outq_sched_ops *
sched(const struct sctp_outq *q)
{
	return sctp_outq_scheds[q->sched];
}

const char *
sctp_outq_sched_name(unsigned s)
{
	return s < SCTP_OUTQ_SCHED_COUNT ? sctp_outq_scheds[s]->name : NULL;
}

void
sctp_outq_packet_end(struct sctp_outq *q)
{
	if (q->sched == SCTP_OUTQ_SCHED_RR_PKT)
		rrp_packet_end(q);
}

int
sctp_outq_set_stream_param(struct sctp_outq *q, uint16_t sid, uint16_t value)
{
	struct sctp_outq_stream *st;

	if (sid >= q->n_streams || (value == 0 && q->sched == SCTP_OUTQ_SCHED_WFQ))
		return -EINVAL;
	st = &q->streams[sid];
	if (q->sched == SCTP_OUTQ_SCHED_PRIO && st->tail != 0 && st->sched_param != value)
		prio_move(q, (uint32_t)sid + 1u, value);
	else
		st->sched_param = value;
	return 0;
}

int
sctp_outq_stream_param(const struct sctp_outq *q, uint16_t sid)
{
	return sid < q->n_streams ? q->streams[sid].sched_param : -EINVAL;
}

int
sctp_outq_grow(struct sctp_outq *q, struct sctp_outq_stream *streams, uint16_t n)
{
	if (streams == NULL || n < q->n_streams)
		return -EINVAL;
	memmove(streams, q->streams, sizeof(*streams) * q->n_streams);
	memset(streams + q->n_streams, 0, sizeof(*streams) * (size_t)(n - q->n_streams));
	q->streams = streams;
	q->n_streams = n;
	return 0;
}

bool
sctp_outq_stream_busy(const struct sctp_outq *q, uint16_t sid)
{
	return sid < q->n_streams && q->streams[sid].tail != 0;
}

int
sctp_outq_reset_stream(struct sctp_outq *q, uint16_t sid)
{
	if (sid >= q->n_streams)
		return -EINVAL;
	if (q->streams[sid].tail != 0)
		return -EBUSY;
	q->streams[sid].next_mid = 0;
	q->streams[sid].next_umid = 0;
	return 0;
}

/* ---- Pool and queue ------------------------------------------------------ */

int
sctp_outq_pool_init(struct sctp_outq_pool *p, struct sctp_outq_msg *nodes, uint32_t n,
		    const struct sctp_buf_ops *ops)
{
	if (p == NULL || nodes == NULL || ops == NULL || n == 0 || n > SCTP_OUTQ_POOL_MAX)
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++)
		nodes[i].next = i + 1u < n ? i + 2u : 0; /* references: 1 + index */
	p->nodes = nodes;
	p->ops = ops;
	p->pr = NULL;
	p->ctx = NULL;
	p->pr_seq = 0;
	p->n = n;
	p->free = 1;
	p->n_free = n;
	return 0;
}

int
sctp_outq_pool_attach_pr(struct sctp_outq_pool *p, struct sctp_outq_pr *slots, uint32_t n)
{
	if (p == NULL || slots == NULL || n != p->n)
		return -1;
	p->pr = slots;
	return 0;
}

int
sctp_outq_pool_attach_ctx(struct sctp_outq_pool *p, uint32_t *slots, uint32_t n)
{
	if (p == NULL || slots == NULL || n != p->n)
		return -1;
	p->ctx = slots;
	return 0;
}

static bool
limits_ok(uint32_t max_bytes, uint32_t max_msgs)
{
	return max_bytes >= 1 && max_bytes <= SCTP_OUTQ_MAX_BYTES && max_msgs >= 1 &&
	       max_msgs <= SCTP_OUTQ_MAX_MSGS;
}

int
sctp_outq_init(struct sctp_outq *q, struct sctp_outq_pool *pool, struct sctp_outq_stream *streams,
	       const struct sctp_outq_config *cfg)
{
	if (q == NULL || pool == NULL || streams == NULL || cfg == NULL || cfg->n_streams == 0 ||
	    cfg->sched >= SCTP_OUTQ_SCHED_COUNT || !limits_ok(cfg->max_bytes, cfg->max_msgs))
		return -EINVAL;
	memset(streams, 0, sizeof(*streams) * cfg->n_streams);
	q->pool = pool;
	q->streams = streams;
	q->queued_bytes = 0;
	q->queued_msgs = 0;
	q->max_bytes = cfg->max_bytes;
	q->max_msgs = cfg->max_msgs;
	q->wire_bytes = 0;
	q->head = 0;
	q->tail = 0;
	q->n_streams = cfg->n_streams;
	q->sched = cfg->sched;
	q->flags = cfg->idata ? SCTP_OUTQ_QF_IDATA : 0;
	return 0;
}

int
sctp_outq_set_limits(struct sctp_outq *q, uint32_t max_bytes, uint32_t max_msgs)
{
	if (!limits_ok(max_bytes, max_msgs))
		return -EINVAL;
	q->max_bytes = max_bytes;
	q->max_msgs = max_msgs;
	return 0;
}

int
sctp_outq_set_sched(struct sctp_outq *q, unsigned s)
{
	if (s >= SCTP_OUTQ_SCHED_COUNT)
		return -EINVAL;
	if (!sctp_outq_empty(q))
		return -EBUSY;
	/*
	 * Empty: every scheduler's state is all zeros (stream links, head),
	 * but round robin per packet's lock of a packet in progress.
	 */
	q->head = 0;
	q->tail = 0;
	q->sched = (uint8_t)s;
	return 0;
}

int
sctp_outq_set_idata(struct sctp_outq *q, bool on)
{
	if (q->flags & SCTP_OUTQ_QF_TAKEN)
		return -EBUSY;
	/*
	 * Nothing taken yet: no SSN or MID given, every queued message whole,
	 * so only the header size in wire_bytes changes, 4 bytes per message.
	 */
	if (on && !is_idata(q))
		q->wire_bytes += (SCTP_OUTQ_IDATA_HDR - SCTP_OUTQ_DATA_HDR) * q->queued_msgs;
	else if (!on && is_idata(q))
		q->wire_bytes -= (SCTP_OUTQ_IDATA_HDR - SCTP_OUTQ_DATA_HDR) * q->queued_msgs;
	q->flags = (uint8_t)((q->flags & ~SCTP_OUTQ_QF_IDATA) | (on ? SCTP_OUTQ_QF_IDATA : 0));
	return 0;
}

/*
 * The push calls; pr NULL for a reliable message. context is 0 when the
 * pool has no context slots (sctp_outq_push_ctx() checked).
 */
static inline int
push(struct sctp_outq *q, uint16_t sid, uint32_t ppid, uint8_t flags, const struct sctp_slice *msg,
     const struct sctp_outq_pr *pr, uint32_t context)
{
	struct sctp_outq_pool *p = q->pool;
	struct sctp_outq_msg *m;
	uint32_t ref;

	if (sid >= q->n_streams || msg == NULL || msg->data == NULL || msg->len == 0 ||
	    (flags & ~SCTP_OUTQ_FLAGS) != 0)
		return -EINVAL;
	if (msg->len > q->max_bytes)
		return -EMSGSIZE;
	/* queued_bytes may exceed max_bytes after sctp_outq_set_limits() lowered it. */
	if (q->queued_bytes > q->max_bytes || msg->len > q->max_bytes - q->queued_bytes ||
	    q->queued_msgs >= q->max_msgs)
		return -ENOBUFS;
	if (p->free == 0)
		return -ENOMEM;
	ref = p->free;
	m = node(q, ref);
	p->free = m->next;
	p->n_free--;

	m->handle = msg->handle;
	m->data = msg->data;
	m->len = msg->len;
	m->off = 0;
	m->ppid = ppid;
	m->mid = 0;
	m->fsn = 0;
	m->sid = sid;
	m->flags = flags;
	m->pr_policy = SCTP_OUTQ_PR_NONE;
	m->credit = 0;
	if (p->ctx != NULL)
		p->ctx[ref - 1u] = context;
	if (pr != NULL) {
		struct sctp_outq_pr *slot = &p->pr[ref - 1u];

		m->pr_policy = pr->policy;
		*slot = (struct sctp_outq_pr){ .value = pr->value, .policy = pr->policy };
		/* The push order, for eviction: mid and fsn are free until it goes. */
		if (pr->policy == SCTP_OUTQ_PR_PRIO) {
			m->mid = (uint32_t)(p->pr_seq >> 32);
			m->fsn = (uint32_t)p->pr_seq;
			p->pr_seq++;
		}
	}
	buf_hold(p, msg->handle);
	q->queued_bytes += msg->len;
	q->queued_msgs++;
	q->wire_bytes += wire_len(q, msg->len);
	sched(q)->push(q, ref);
	return 0;
}

int
sctp_outq_push(struct sctp_outq *q, uint16_t sid, uint32_t ppid, uint8_t flags,
	       const struct sctp_slice *msg)
{
	return push(q, sid, ppid, flags, msg, NULL, 0);
}

int
sctp_outq_push_ctx(struct sctp_outq *q, uint16_t sid, uint32_t ppid, uint8_t flags,
		   const struct sctp_slice *msg, const struct sctp_outq_pr *pr, uint32_t context)
{
	if (context != 0 && q->pool->ctx == NULL)
		return -EINVAL;
	if (pr == NULL || pr->policy == SCTP_OUTQ_PR_NONE)
		return push(q, sid, ppid, flags, msg, NULL, context);
	if (pr->policy > SCTP_OUTQ_PR_PRIO || q->pool->pr == NULL)
		return -EINVAL;
	return push(q, sid, ppid, flags, msg, pr, context);
}

int
sctp_outq_push_pr(struct sctp_outq *q, uint16_t sid, uint32_t ppid, uint8_t flags,
		  const struct sctp_slice *msg, const struct sctp_outq_pr *pr)
{
	return sctp_outq_push_ctx(q, sid, ppid, flags, msg, pr, 0);
}

/*
 * Cut the next f bytes (1 <= f <= len - off) of node ref, peek's answer,
 * into *c and tell the scheduler.
 */
static void
take(struct sctp_outq *q, uint32_t ref, uint32_t f, struct sctp_outq_chunk *c)
{
	struct sctp_outq_pool *p = q->pool;
	struct sctp_outq_msg *m = node(q, ref);
	uint32_t rem = m->len - m->off;
	bool last = f == rem;
	uint8_t flags = m->flags & SCTP_DATA_FLAG_U;

	if (m->off == 0) {
		struct sctp_outq_stream *st = &q->streams[m->sid];

		/* §6.5, §6.6, RFC 8260 §2.1: numbered in the order of transmission. */
		flags |= SCTP_DATA_FLAG_B;
		q->flags |= SCTP_OUTQ_QF_TAKEN;
		m->fsn = 0; /* mid and fsn held a priority message's push order */
		if (is_idata(q)) {
			m->mid =
				(m->flags & SCTP_OUTQ_UNORDERED) ? st->next_umid++ : st->next_mid++;
		} else if (!(m->flags & SCTP_OUTQ_UNORDERED)) {
			m->mid = st->next_mid;
			st->next_mid = (uint16_t)(st->next_mid + 1u);
		} else {
			m->mid = 0;
		}
	}
	if (last)
		flags |= SCTP_DATA_FLAG_E | (m->flags & SCTP_DATA_FLAG_I);

	c->slice.handle = m->handle;
	c->slice.data = m->data + m->off;
	c->slice.len = f;
	c->ppid = m->ppid;
	c->mid = m->mid;
	c->fsn = m->fsn;
	c->sid = m->sid;
	c->ssn = is_idata(q) ? 0 : (uint16_t)m->mid;
	c->flags = flags;
	c->pr_policy = m->pr_policy;
	c->pr_value = m->pr_policy != SCTP_OUTQ_PR_NONE ? p->pr[ref - 1u].value : 0;
	c->context = p->ctx != NULL ? p->ctx[ref - 1u] : 0;

	q->queued_bytes -= f;
	q->wire_bytes -= wire_len(q, rem);
	if (!last) {
		q->wire_bytes += wire_len(q, rem - f);
		m->off += f;
		m->fsn++;
		buf_hold(p, m->handle); /* the chunk's own reference */
		sched(q)->taken(q, ref, f, false);
		return;
	}
	/* The last fragment takes over the queue's reference. */
	q->queued_msgs--;
	sched(q)->taken(q, ref, f, true);
	m->next = p->free;
	p->free = ref;
	p->n_free++;
}

int
sctp_outq_next(struct sctp_outq *q, uint32_t max_payload, struct sctp_outq_chunk *c)
{
	uint32_t ref, rem, f;

	if (max_payload == 0)
		return -EINVAL;
	ref = sched(q)->peek(q);
	if (ref == 0)
		return -ENOENT;
	max_payload = clamp_payload(q, max_payload);
	rem = node(q, ref)->len - node(q, ref)->off;
	f = rem < max_payload ? rem : max_payload;
	take(q, ref, f, c);
	return 0;
}

uint32_t
sctp_outq_peek_len(const struct sctp_outq *q, uint32_t max_payload)
{
	uint32_t ref, rem;

	if (max_payload == 0)
		return 0;
	ref = sched(q)->peek(q);
	if (ref == 0)
		return 0;
	max_payload = clamp_payload(q, max_payload);
	rem = node(q, ref)->len - node(q, ref)->off;
	return wire_len(q, rem < max_payload ? rem : max_payload);
}

unsigned
sctp_outq_fill(struct sctp_outq *q, uint32_t max_payload, uint32_t room,
	       struct sctp_outq_chunk *out, unsigned max, uint32_t *used)
{
	uint32_t taken = 0;
	unsigned n = 0;

	if (max_payload != 0) {
		max_payload = clamp_payload(q, max_payload);
		while (n < max) {
			uint32_t ref = sched(q)->peek(q);
			uint32_t rem, f, w;

			if (ref == 0)
				break;
			rem = node(q, ref)->len - node(q, ref)->off;
			f = rem < max_payload ? rem : max_payload;
			w = wire_len(q, f);
			if (w > room - taken)
				break;
			take(q, ref, f, &out[n++]);
			taken += w;
		}
	}
	if (used != NULL)
		*used = taken;
	sctp_outq_packet_end(q);
	return n;
}

uint32_t
sctp_outq_abandon(struct sctp_outq *q, sctp_outq_unsent_fn fn, void *arg)
{
	struct sctp_outq_pool *p = q->pool;
	uint32_t dropped = 0;
	uint32_t ref;

	for (;;) {
		if (q->sched == SCTP_OUTQ_SCHED_RR_PKT)
			q->tail = 0; /* no packet lock: peek answers until the queue is empty */
		ref = sched(q)->peek(q);
		if (ref == 0)
			break;
		struct sctp_outq_msg *m = node(q, ref);

		if (fn != NULL) {
			struct sctp_outq_unsent u = {
				.msg = { .handle = m->handle, .data = m->data, .len = m->len },
				.ppid = m->ppid,
				.taken = m->off,
				.sid = m->sid,
				.flags = m->flags,
				.pr_policy = m->pr_policy,
				.context = p->ctx != NULL ? p->ctx[ref - 1u] : 0,
			};

			fn(arg, &u);
		}
		buf_release(p, m->handle);
		sched(q)->taken(q, ref, m->len - m->off, true);
		m->next = p->free;
		p->free = ref;
		p->n_free++;
		dropped++;
	}
	q->queued_bytes = 0;
	q->queued_msgs = 0;
	q->wire_bytes = 0;
	return dropped;
}

/* ---- PR-SCTP: messages leaving from anywhere in the queue ----------------- */

/*
 * Where a queued message is, as the links need it to be unlinked: FCFS,
 * pm is its predecessor in the list (0: the head); the ring schedulers,
 * pm its predecessor in its stream's circle (itself when it is the
 * stream's only message), id1 its stream and ring_prev that stream's
 * predecessor on the ring (itself when alone; only read when the stream
 * empties).
 */
struct loc {
	uint32_t ref;
	uint32_t pm;
	uint32_t id1;
	uint32_t ring_prev;
};

static inline bool
is_wfq(const struct sctp_outq *q)
{
	return q->sched == SCTP_OUTQ_SCHED_WFQ || q->sched == SCTP_OUTQ_SCHED_FC;
}

/*
 * Unlink message l->ref from wherever it is, leaving every scheduler as if
 * the message had ended there: the stream's next message inherits the
 * WFQ/FC credit kept on its first one; a stream that empties leaves the
 * ring as in ring_leave() (the turn passes to the next stream if it was
 * the current one; the stream before the current one hands that place to
 * its predecessor), and then priority returns to the highest class and
 * WFQ/FC starts the next stream's turn, as their taken() do. Round robin
 * per packet keeps its packet lock: a packet locked to a stream that left
 * stays closed to the others until it ends, as after the stream's last
 * chunk. Never the DATA message being sent (the one peek answers with a
 * fragment taken): that one ends through taken() (drop_partial()).
 */
static void
unlink_msg(struct sctp_outq *q, const struct loc *l)
{
	struct sctp_outq_msg *m = node(q, l->ref);
	struct sctp_outq_stream *st;
	bool was_cur;

	if (q->sched == SCTP_OUTQ_SCHED_FCFS) {
		if (l->pm == 0)
			q->head = m->next;
		else
			node(q, l->pm)->next = m->next;
		if (q->tail == l->ref)
			q->tail = l->pm;
		return;
	}
	st = stream_of(q, l->id1);
	if (l->pm != l->ref) {
		/* The stream keeps other messages. */
		bool first = l->pm == st->tail;

		node(q, l->pm)->next = m->next;
		if (st->tail == l->ref)
			st->tail = l->pm;
		if (first && is_wfq(q))
			node(q, m->next)->credit = m->credit;
		return;
	}
	/* Its last message: the stream leaves the ring. */
	was_cur = q->head == l->ring_prev;
	st->tail = 0;
	if (l->ring_prev == l->id1) {
		q->head = 0;
		if (q->sched == SCTP_OUTQ_SCHED_PRIO)
			q->tail = 0;
	} else {
		stream_of(q, l->ring_prev)->sched_next = st->sched_next;
		if (q->head == l->id1)
			q->head = l->ring_prev;
		if (q->sched == SCTP_OUTQ_SCHED_PRIO && q->tail == l->id1)
			q->tail = l->ring_prev;
	}
	st->sched_next = 0;
	if (q->sched == SCTP_OUTQ_SCHED_PRIO)
		prio_fix(q);
	else if (is_wfq(q) && was_cur && q->head != 0)
		wfq_next_turn(q);
}

/* Message ref's untaken bytes leave the counts and its node the queue's reference. */
static void
uncount(struct sctp_outq *q, uint32_t ref)
{
	const struct sctp_outq_msg *m = node(q, ref);
	uint32_t rem = m->len - m->off;

	q->queued_bytes -= rem;
	q->wire_bytes -= wire_len(q, rem);
	q->queued_msgs--;
	buf_release(q->pool, m->handle);
}

static void
free_node(struct sctp_outq *q, uint32_t ref)
{
	struct sctp_outq_pool *p = q->pool;

	node(q, ref)->next = p->free;
	p->free = ref;
	p->n_free++;
}

/* An unsent message at l is abandoned: reported, released, unlinked, freed. */
static void
drop_unsent(struct sctp_outq *q, const struct loc *l, sctp_outq_unsent_fn fn, void *arg)
{
	const struct sctp_outq_msg *m = node(q, l->ref);

	if (fn != NULL) {
		struct sctp_outq_unsent u = {
			.msg = { .handle = m->handle, .data = m->data, .len = m->len },
			.ppid = m->ppid,
			.taken = 0,
			.sid = m->sid,
			.flags = m->flags,
			.pr_policy = m->pr_policy,
			.context = q->pool->ctx != NULL ? q->pool->ctx[l->ref - 1u] : 0,
		};

		fn(arg, &u);
	}
	uncount(q, l->ref);
	unlink_msg(q, l);
	free_node(q, l->ref);
}

/*
 * Visit every queued message once, in no promised order, with its
 * location; visit() answers true when it dropped the message (only that
 * one: nothing else may change). O(queued messages).
 */
typedef bool (*visit_fn)(struct sctp_outq *q, const struct loc *l, void *ctx);

static void
walk(struct sctp_outq *q, visit_fn visit, void *ctx)
{
	struct loc l;
	uint32_t n_active = 0, s;

	if (q->sched == SCTP_OUTQ_SCHED_FCFS) {
		l = (struct loc){ .ref = q->head };
		while (l.ref != 0) {
			uint32_t nx = node(q, l.ref)->next;

			if (!visit(q, &l, ctx))
				l.pm = l.ref;
			l.ref = nx;
		}
		return;
	}
	if (q->head == 0)
		return;
	s = q->head;
	do {
		n_active++;
		s = stream_of(q, s)->sched_next;
	} while (s != q->head);
	/*
	 * From the current stream round to q->head's: a stream that empties
	 * leaves the ring, and its successor is then ring_prev's; dropping
	 * changes no other stream's links (head and the schedulers' turn may
	 * move, not the ring).
	 */
	l.ring_prev = q->head;
	for (uint32_t i = 0; i < n_active; i++) {
		struct sctp_outq_stream *st;
		uint32_t end;
		bool left = false;

		l.id1 = stream_of(q, l.ring_prev)->sched_next;
		st = stream_of(q, l.id1);
		end = st->tail;
		l.pm = end;
		l.ref = node(q, end)->next;
		for (;;) {
			uint32_t nx = node(q, l.ref)->next;
			bool last = l.ref == end;

			if (visit(q, &l, ctx))
				left = l.pm == l.ref;
			else
				l.pm = l.ref;
			if (last)
				break;
			l.ref = nx;
		}
		if (!left)
			l.ring_prev = l.id1;
	}
}

struct expire_ctx {
	uint64_t now;
	uint64_t next_deadline;
	uint32_t dropped;
	sctp_outq_unsent_fn fn;
	void *arg;
};

static bool
expire_visit(struct sctp_outq *q, const struct loc *l, void *ctx)
{
	struct expire_ctx *x = ctx;
	const struct sctp_outq_msg *m = node(q, l->ref);
	uint64_t deadline;

	if (m->pr_policy != SCTP_OUTQ_PR_TTL)
		return false;
	deadline = q->pool->pr[l->ref - 1u].value;
	if (m->off == 0 && x->now > deadline) {
		drop_unsent(q, l, x->fn, x->arg);
		x->dropped++;
		return true;
	}
	if (deadline < x->next_deadline)
		x->next_deadline = deadline;
	return false;
}

uint32_t
sctp_outq_pr_expire(struct sctp_outq *q, uint64_t now_ns, sctp_outq_unsent_fn fn, void *arg,
		    uint64_t *next_deadline)
{
	struct expire_ctx x = {
		.now = now_ns, .next_deadline = UINT64_MAX, .dropped = 0, .fn = fn, .arg = arg
	};

	if (q->pool->pr != NULL)
		walk(q, expire_visit, &x);
	if (next_deadline != NULL)
		*next_deadline = x.next_deadline;
	return x.dropped;
}

struct evict_ctx {
	uint64_t prio;
	struct loc victim; /* ref 0: none found */
	uint64_t value;	   /* the victim's priority */
	uint64_t seq;	   /* and push order */
};

static inline uint64_t
push_order(const struct sctp_outq_msg *m)
{
	return (uint64_t)m->mid << 32 | m->fsn;
}

/* The lowest priority unsent message below x->prio, the latest pushed among equals. */
static bool
evict_visit(struct sctp_outq *q, const struct loc *l, void *ctx)
{
	struct evict_ctx *x = ctx;
	const struct sctp_outq_msg *m = node(q, l->ref);
	uint64_t v, seq;

	if (m->pr_policy != SCTP_OUTQ_PR_PRIO || m->off != 0)
		return false;
	v = q->pool->pr[l->ref - 1u].value;
	if (v <= x->prio)
		return false;
	seq = push_order(m);
	if (x->victim.ref == 0 || v > x->value || (v == x->value && seq > x->seq)) {
		x->victim = *l;
		x->value = v;
		x->seq = seq;
	}
	return false;
}

uint32_t
sctp_outq_pr_evict(struct sctp_outq *q, uint64_t prio, uint32_t need, sctp_outq_unsent_fn fn,
		   void *arg)
{
	uint32_t freed = 0;

	if (q->pool->pr == NULL)
		return 0;
	while (freed < need) {
		struct evict_ctx x = { .prio = prio };

		/* A search changes nothing, so the victim's location holds for the drop. */
		walk(q, evict_visit, &x);
		if (x.victim.ref == 0)
			break;
		freed += node(q, x.victim.ref)->len;
		drop_unsent(q, &x.victim, fn, arg);
	}
	return freed;
}

uint32_t
sctp_outq_abandon_partial(struct sctp_outq *q, uint16_t sid)
{
	struct loc l;
	uint32_t rem;

	if (sid >= q->n_streams)
		return 0;
	if (q->sched == SCTP_OUTQ_SCHED_FCFS) {
		/* FCFS serves its head until it ends, DATA or I-DATA: a partly sent message is the
		 * head. */
		l = (struct loc){ .ref = q->head };
	} else {
		struct sctp_outq_stream *st = &q->streams[sid];

		if (st->tail == 0)
			return 0;
		l = (struct loc){ .ref = node(q, st->tail)->next, .pm = st->tail, .id1 = sid + 1u };
	}
	if (l.ref == 0 || node(q, l.ref)->sid != sid || node(q, l.ref)->off == 0)
		return 0;
	rem = node(q, l.ref)->len - node(q, l.ref)->off;
	uncount(q, l.ref);
	if (l.ref == sched(q)->peek(q)) {
		/*
		 * The message being served (with DATA always this one, §6.9):
		 * it ends as if its last chunk had been taken, costing no
		 * credit. Round robin per packet: taken() locks the packet to
		 * the stream, right after a chunk of it; between packets, with
		 * nothing taken, the packet stays open to the next stream.
		 */
		uint32_t lock = q->tail & ~RRP_CARRY;

		sched(q)->taken(q, l.ref, 0, true);
		if (q->sched == SCTP_OUTQ_SCHED_RR_PKT && lock == 0)
			q->tail = 0;
	} else {
		/* I-DATA: a stream's head whose turn it is not. */
		if (l.pm == l.ref) {
			uint32_t p = l.id1;

			while (stream_of(q, p)->sched_next != l.id1)
				p = stream_of(q, p)->sched_next;
			l.ring_prev = p;
		}
		unlink_msg(q, &l);
	}
	free_node(q, l.ref);
	return rem;
}
