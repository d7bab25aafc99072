/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Outbound message queue, RFC 9260 §6.1, §6.5, §6.6, §6.9, RFC 7053 §3 and
 * RFC 8260 §2.1, §3.1, §3.2: see outq.h for the API, who holds which buffer
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
 *   - round robin: a stream has tail != 0 iff it has queued messages iff
 *     its sched_next != 0 (it is on the ring of active streams); head is 0
 *     iff the ring is empty, else 1 + the id of the stream before the one
 *     served next. Each stream's messages form a circular list through
 *     next, tail pointing at the last, tail's next at the first;
 *   - FCFS: head and tail are the first and last node of one list through
 *     next, ending in 0, both 0 when it is empty;
 *   - at most one message is partly taken (0 < off) per stream, and, unless
 *     I-DATA, at most one in the whole queue: it is the one peek answers;
 *   - no SSN or MID has been given since init unless flags has
 *     SCTP_OUTQ_QF_TAKEN.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "sctp/outq.h"

/*
 * LP64 layouts: the header is two pointers, seven 32-bit fields and 4
 * bytes of stream count, scheduler and flags (48, the budget for the
 * per-association part); a node two pointers, six 32-bit fields, the stream
 * id, flags and a spare byte (44, padded to 48: four nodes in three cache
 * lines); a stream entry 16 (four per cache line).
 */
_Static_assert(sizeof(void *) != 8 || sizeof(struct sctp_outq) == 48,
	       "struct sctp_outq grew: see its comment");
_Static_assert(sizeof(void *) != 8 || sizeof(struct sctp_outq_msg) == 48,
	       "struct sctp_outq_msg grew: see its comment");
_Static_assert(sizeof(struct sctp_outq_stream) == 16, "struct sctp_outq_stream grew");
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
 * the end of the round.
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

static uint32_t
rr_peek(const struct sctp_outq *q)
{
	const struct sctp_outq_stream *cur;

	if (q->head == 0)
		return 0;
	cur = stream_of(q, stream_of(q, q->head)->sched_next);
	return node(q, cur->tail)->next;
}

static void
rr_taken(struct sctp_outq *q, uint32_t ref, bool done)
{
	struct sctp_outq_stream *prev = stream_of(q, q->head);
	uint32_t cur_id1 = prev->sched_next;
	struct sctp_outq_stream *cur = stream_of(q, cur_id1);

	if (!done) {
		/* DATA: stay on the message (§6.9); I-DATA: one chunk per turn. */
		if (is_idata(q))
			q->head = cur_id1;
		return;
	}
	if (cur->tail != ref) {
		/* Unlink the first message; the stream goes to the end of the round. */
		node(q, cur->tail)->next = node(q, ref)->next;
		q->head = cur_id1;
		return;
	}
	/* It was the stream's only message: the stream leaves the ring. */
	cur->tail = 0;
	if (q->head == cur_id1)
		q->head = 0;
	else
		prev->sched_next = cur->sched_next;
	cur->sched_next = 0;
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
fcfs_taken(struct sctp_outq *q, uint32_t ref, bool done)
{
	if (!done)
		return;
	q->head = node(q, ref)->next;
	if (q->head == 0)
		q->tail = 0;
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

const struct sctp_outq_sched_ops *const sctp_outq_scheds[SCTP_OUTQ_SCHED_COUNT] = {
	[SCTP_OUTQ_SCHED_RR] = &rr_ops,
	[SCTP_OUTQ_SCHED_FCFS] = &fcfs_ops,
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
	p->n = n;
	p->free = 1;
	p->n_free = n;
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
	/* Empty: both schedulers' state is all zeros (head, tail, stream links). */
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

int
sctp_outq_push(struct sctp_outq *q, uint16_t sid, uint32_t ppid, uint8_t flags,
	       const struct sctp_slice *msg)
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
	m->reserved = 0;
	buf_hold(p, msg->handle);
	q->queued_bytes += msg->len;
	q->queued_msgs++;
	q->wire_bytes += wire_len(q, msg->len);
	sched(q)->push(q, ref);
	return 0;
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
		if (is_idata(q)) {
			m->mid =
				(m->flags & SCTP_OUTQ_UNORDERED) ? st->next_umid++ : st->next_mid++;
		} else if (!(m->flags & SCTP_OUTQ_UNORDERED)) {
			m->mid = st->next_mid;
			st->next_mid = (uint16_t)(st->next_mid + 1u);
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

	q->queued_bytes -= f;
	q->wire_bytes -= wire_len(q, rem);
	if (!last) {
		q->wire_bytes += wire_len(q, rem - f);
		m->off += f;
		m->fsn++;
		buf_hold(p, m->handle); /* the chunk's own reference */
		sched(q)->taken(q, ref, false);
		return;
	}
	/* The last fragment takes over the queue's reference. */
	q->queued_msgs--;
	sched(q)->taken(q, ref, true);
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
	return n;
}

uint32_t
sctp_outq_abandon(struct sctp_outq *q, sctp_outq_unsent_fn fn, void *arg)
{
	struct sctp_outq_pool *p = q->pool;
	uint32_t dropped = 0;
	uint32_t ref;

	while ((ref = sched(q)->peek(q)) != 0) {
		struct sctp_outq_msg *m = node(q, ref);

		if (fn != NULL) {
			struct sctp_outq_unsent u = {
				.msg = { .handle = m->handle, .data = m->data, .len = m->len },
				.ppid = m->ppid,
				.taken = m->off,
				.sid = m->sid,
				.flags = m->flags,
			};

			fn(arg, &u);
		}
		buf_release(p, m->handle);
		sched(q)->taken(q, ref, true);
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
