/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sender's retransmission queue and SACK processing, RFC 9260 §6.1 A,
 * §6.2.1, §6.3.1 C5, §6.3.2, §6.3.3 E3, §7.2.4 and §12.4: see rtxq.h for
 * the API, the states, the reference contract and the costs.
 *
 * Invariants between calls (sctp_rtxq_check() verifies every one):
 *  I1  The list from head along next holds TSNs cum_point + 1, + 2, ...
 *      up to the tail's, each once; head and tail are NIL together.
 *  I2  Each node has exactly one of IN_FLIGHT, GAP_ACKED, MARKED.
 *  I3  path_flight[i] is the sum of chunk bytes of IN_FLIGHT nodes with
 *      path i; data_flight the sum of their payload bytes; n_gap_acked and
 *      n_marked count their states.
 *  I4  cum_point <= karn_fence <= highest sent (serial order), so the fence
 *      never falls 2^31 behind and its comparisons stay meaningful.
 *  I5  PR-SCTP: a node with S_PR has a slot (pool->pr); an ABANDONED node
 *      has S_PR and no handle; abandoned nodes form whole messages (no
 *      abandoned node next to a non-abandoned one of the same B..E run).
 *
 * PR-SCTP costs the reliable path nothing but a test in three places: the
 * cum ack asks one more state bit before "newly acked", the gap walk one
 * when a covered node was not gap-acked, take_rtx one per chunk resent. An abandoned node is in no
 * flight and no count, so every other walk passes over it as over a gap-acked one.
 *
 * Processing one SACK (sctp_rtxq_on_sack), after checks that read the gap
 * blocks once and change nothing (any refusal leaves everything as it was):
 *
 *  1. Cumulative ack: nodes up to the cum TSN leave the head; those not
 *     gap-acked before are newly acknowledged (bytes to their path, RTT
 *     sample, R3 check). The run is spliced onto the pool's free list at
 *     once: the nodes are already linked in order.
 *  2. Gap blocks (only if the SACK has any, or chunks were gap-acked
 *     before): one walk from the new head, merged with the blocks in
 *     ascending order, until past the last block and every previously
 *     gap-acked node. A covered node not gap-acked before is newly acked; a
 *     gap-acked node not covered is reneged (§6.2.1 D iii): back in flight,
 *     one miss indication, T3-rtx to be started on its path.
 *  3. Miss indications (§7.2.4): a second walk from the head over the
 *     IN_FLIGHT nodes below the HTNA, the highest TSN this SACK newly
 *     acknowledged (or, in Fast Recovery on a SACK that moved the cum
 *     point, below the last gap block's end: every TSN it reports missing),
 *     plus the reneged ones. A node reaching three is marked for fast
 *     retransmit, unless it was fast-retransmitted before (§7.2.4 rule 5).
 *
 * Miss indications count for IN_FLIGHT nodes only: a MARKED node will be
 * resent anyway, and a GAP_ACKED one is not missing. A node's count starts
 * over when it is resent; the FAST_RTX bit never clears.
 *
 * Gap block order. §3.3.4 says the blocks "SHOULD be isolated", not that
 * they are sorted; every stack we know sends them ascending and disjoint,
 * and that is what lets step 2 be one merge over the list. A SACK whose
 * blocks go backwards or overlap would need the walk restarted per block,
 * O(blocks * queue) for the peer to choose (16379 blocks by 64 K chunks);
 * such a SACK is refused (SCTP_RTXQ_SACK_GAP_ORDER, nothing changes) and
 * the association counts it. Adjacent blocks (end + 1 == next start) are
 * accepted.
 *
 * Old SACKs and a_rwnd. §6.2.1 D i drops a SACK whose cum TSN is behind the
 * Cumulative TSN Ack Point, and with it its a_rwnd: that window was
 * computed before data the newer SACK already accounted for, and taking it
 * could reopen a window the receiver has since closed. D i says "less
 * than": a SACK with the same cum TSN is processed in full, a_rwnd
 * included, since that is how window updates and new gap reports arrive
 * (§6.2). One that was overtaken by a newer one with the same cum TSN cannot
 * be told apart; its gap blocks may look like reneging. The RFC accepts
 * this; so does every stack.
 *
 * RTT samples (§6.3.1 C5). Never from a RETRANSMITTED chunk, and only from
 * a chunk above the Karn fence: the highest TSN sent at the last
 * retransmission, so "no DATA chunk with TSN less than or equal to r was
 * retransmitted since the DATA chunk with TSN r was sent first" holds (more
 * strictly: retransmissions of higher TSNs block it too). The fence alone
 * already excludes every retransmitted chunk (it is at or above each one's
 * TSN from its resend on); the RETRANSMITTED test states C5's first
 * sentence where it is applied. Per path, the newest newly acknowledged
 * eligible chunk gives the sample; C4 (once per round trip) is the
 * association's.
 */
#include <stddef.h>
#include <string.h>

#include "sctp/rtxq.h"
#include "sctp/tsn.h"
#include "sctp/wire.h"

#define NIL SCTP_RTXQ_NIL

#define S_IN_FLIGHT SCTP_RTXQ_S_IN_FLIGHT
#define S_GAP_ACKED SCTP_RTXQ_S_GAP_ACKED
#define S_MARKED    SCTP_RTXQ_S_MARKED
#define S_FAST_RTX  SCTP_RTXQ_S_FAST_RTX
#define S_RTX	    SCTP_RTXQ_S_RETRANSMITTED
#define S_PHASE	    SCTP_RTXQ_S_PHASE
#define S_ABANDONED SCTP_RTXQ_S_ABANDONED
#define S_PR	    SCTP_RTXQ_S_PR
/* Transient, inside one sctp_rtxq_on_sack(): reneged by this SACK (step 2 to step 3). */
#define S_RENEGED 0x20u

/*
 * 48 bytes on LP64: two pointers and the send time (24), TSN, PPID, next
 * (12), length, stream and SSN (6), flags, state, path and misses (4), the
 * high half of an I-DATA MID (2). An I-DATA fragment's FSN shares the PPID
 * field, as on the wire: a B fragment's FSN is 0. 40 would need the send time in 32 bits (4.3 s of
 * nanoseconds: too short for RTO.Max) or the PPID out of the node.
 */
_Static_assert(sizeof(void *) != 8 || sizeof(struct sctp_rtxq_node) == 48,
	       "struct sctp_rtxq_node grew: see its comment");
/*
 * 64 bytes: the eight per-path flight sizes (32) and eight 32-bit fields.
 * The 48 first aimed at would need the per-path flights outside the queue
 * (in struct sctp_path, with the queue handed a pointer per call).
 */
_Static_assert(sizeof(struct sctp_rtxq) <= 64, "struct sctp_rtxq grew: see its comment");
_Static_assert(SCTP_MAX_PATHS <= 8, "path masks are 8 bits");
_Static_assert((S_PHASE & (S_FAST_RTX | S_RTX | S_RENEGED | S_PR)) == 0, "state bits overlap");
_Static_assert(sizeof(struct sctp_rtxq_pr_slot) == 16, "struct sctp_rtxq_pr_slot grew");

static inline uint8_t
bit(unsigned path)
{
	return (uint8_t)(1u << path);
}

uint32_t
sctp_rtxq_highest_sent(const struct sctp_rtxq *q, const struct sctp_rtxq_pool *pool)
{
	return q->tail == NIL ? q->cum_point : pool->nodes[q->tail].tsn;
}

int
sctp_rtxq_pool_init(struct sctp_rtxq_pool *p, struct sctp_rtxq_node *nodes, uint32_t n)
{
	if (nodes == NULL || n == 0 || n >= NIL)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		memset(&nodes[i], 0, sizeof(nodes[i]));
		nodes[i].next = i + 1 < n ? i + 1 : NIL;
	}
	p->nodes = nodes;
	p->pr = NULL;
	p->ctx = NULL;
	p->n = n;
	p->free = 0;
	p->n_free = n;
	return 0;
}

int
sctp_rtxq_pool_attach_pr(struct sctp_rtxq_pool *p, struct sctp_rtxq_pr_slot *slots, uint32_t n)
{
	if (slots == NULL || n != p->n)
		return -1;
	memset(slots, 0, sizeof(*slots) * n);
	p->pr = slots;
	return 0;
}

int
sctp_rtxq_pool_attach_ctx(struct sctp_rtxq_pool *p, uint32_t *slots, uint32_t n)
{
	if (slots == NULL || n != p->n)
		return -1;
	memset(slots, 0, sizeof(*slots) * n);
	p->ctx = slots;
	return 0;
}

void
sctp_rtxq_init(struct sctp_rtxq *q, uint32_t initial_tsn, uint32_t peer_a_rwnd)
{
	memset(q, 0, sizeof(*q));
	q->head = NIL;
	q->tail = NIL;
	q->cum_point = initial_tsn - 1u;
	q->karn_fence = q->cum_point;
	q->a_rwnd = peer_a_rwnd;
}

const char *
sctp_rtxq_sack_verdict_name(enum sctp_rtxq_sack_verdict v)
{
	switch (v) {
	case SCTP_RTXQ_SACK_OK:
		return "ok";
	case SCTP_RTXQ_SACK_OLD:
		return "old";
	case SCTP_RTXQ_SACK_CUM_NOT_SENT:
		return "cum_not_sent";
	case SCTP_RTXQ_SACK_GAP_NOT_SENT:
		return "gap_not_sent";
	case SCTP_RTXQ_SACK_BAD_GAP:
		return "bad_gap";
	case SCTP_RTXQ_SACK_GAP_ORDER:
		return "gap_order";
	}
	return "unknown";
}

enum sctp_rtxq_add_verdict
sctp_rtxq_add(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, const struct sctp_rtxq_chunk *c,
	      uint64_t now_ns)
{
	struct sctp_rtxq_pool *pool = env->pool;
	uint32_t highest = sctp_rtxq_highest_sent(q, pool);
	struct sctp_rtxq_node *n;
	uint32_t x;

	if (c->path >= SCTP_MAX_PATHS)
		return SCTP_RTXQ_ADD_BAD_PATH;
	if (c->payload.len > SCTP_RTXQ_MAX_PAYLOAD)
		return SCTP_RTXQ_ADD_BAD_LEN;
	if (c->tsn != highest + 1u)
		return SCTP_RTXQ_ADD_BAD_TSN;
	if (pool->n_free == 0 ||
	    (env->max_chunks != 0 && highest - q->cum_point >= env->max_chunks))
		return SCTP_RTXQ_ADD_NO_ROOM;

	x = pool->free;
	n = &pool->nodes[x];
	pool->free = n->next;
	pool->n_free--;

	n->handle = c->payload.handle;
	n->data = c->payload.data;
	n->sent_ns = now_ns;
	n->tsn = c->tsn;
	n->ppid = c->ppid;
	n->next = NIL;
	n->len = (uint16_t)c->payload.len;
	n->sid = c->sid;
	n->ssn = c->ssn;
	n->mid_hi = c->mid_hi;
	n->flags = c->flags;
	n->state = S_IN_FLIGHT;
	n->path = c->path;
	n->misses = 0;
	if (pool->ctx != NULL)
		pool->ctx[x] = c->context;

	if (q->tail == NIL)
		q->head = x;
	else
		pool->nodes[q->tail].next = x;
	q->tail = x;
	q->path_flight[c->path] += sctp_rtxq_chunk_bytes(n->len);
	q->data_flight += n->len;
	return SCTP_RTXQ_ADD_OK;
}

enum sctp_rtxq_add_verdict
sctp_rtxq_add_pr(struct sctp_rtxq *q, const struct sctp_rtxq_env *env,
		 const struct sctp_rtxq_chunk *c, uint64_t now_ns, const struct sctp_rtxq_pr *pr)
{
	enum sctp_rtxq_add_verdict v;
	struct sctp_rtxq_pr_slot *sl;

	if (pr == NULL || pr->policy == SCTP_RTXQ_PR_NONE)
		return sctp_rtxq_add(q, env, c, now_ns);
	if (pr->policy >= SCTP_RTXQ_PR_N || env->pool->pr == NULL)
		return SCTP_RTXQ_ADD_BAD_PR;
	v = sctp_rtxq_add(q, env, c, now_ns);
	if (v != SCTP_RTXQ_ADD_OK)
		return v;
	sl = &env->pool->pr[q->tail];
	sl->value = pr->value;
	sl->ppid = pr->ppid;
	sl->rtx = 0;
	sl->policy = pr->policy;
	sl->reserved = 0;
	env->pool->nodes[q->tail].state |= S_PR;
	return SCTP_RTXQ_ADD_OK;
}

enum sctp_rtxq_add_verdict
sctp_rtxq_add_skip(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, uint32_t tsn, uint16_t sid,
		   uint16_t ssn, uint8_t flags, uint8_t path, const struct sctp_rtxq_pr *pr)
{
	struct sctp_rtxq_chunk c = {
		.tsn = tsn,
		.sid = sid,
		.ssn = ssn,
		.flags = (uint8_t)((flags & SCTP_DATA_FLAG_U) | SCTP_DATA_FLAG_E),
		.path = path,
	};
	enum sctp_rtxq_add_verdict v;
	struct sctp_rtxq_node *n;

	if (pr == NULL || pr->policy == SCTP_RTXQ_PR_NONE)
		return SCTP_RTXQ_ADD_BAD_PR;
	v = sctp_rtxq_add_pr(q, env, &c, 0, pr);
	if (v != SCTP_RTXQ_ADD_OK)
		return v;
	/* Never sent: out of the flight sctp_rtxq_add() counted it in. */
	n = &env->pool->nodes[q->tail];
	q->path_flight[path] -= sctp_rtxq_chunk_bytes(0);
	n->state = (uint8_t)((n->state & ~S_PHASE) | S_ABANDONED);
	return SCTP_RTXQ_ADD_OK;
}

/*
 * The checks that refuse a SACK, before anything changes. room: TSNs sent
 * above the SACK's cum TSN (highest - cum), so a block may end at offset
 * room at most.
 */
static enum sctp_rtxq_sack_verdict
check_gaps(const struct sctp_sack *s, uint32_t room)
{
	uint32_t prev_end = 0;

	for (uint16_t i = 0; i < s->n_gaps; i++) {
		struct sctp_sack_gap g = sctp_sack_gap_block(s, i);

		if (g.start == 0 || g.start > g.end)
			return SCTP_RTXQ_SACK_BAD_GAP;
		if (g.end > room)
			return SCTP_RTXQ_SACK_GAP_NOT_SENT;
		if (i > 0 && g.start <= prev_end)
			return SCTP_RTXQ_SACK_GAP_ORDER;
		prev_end = g.end;
	}
	return SCTP_RTXQ_SACK_OK;
}

/* What one SACK's walks carry between the steps. */
struct walk {
	struct sctp_rtxq_sack_result *out;
	uint64_t now_ns;
	uint32_t htna; /* highest TSN newly acked, valid if have_htna */
	bool have_htna;
	uint8_t seen;	  /* paths whose earliest outstanding chunk has been passed */
	uint8_t restart;  /* paths whose earliest outstanding chunk was newly acked */
	uint32_t reneged; /* nodes with S_RENEGED set, for step 3 */
};

/*
 * Node n, IN_FLIGHT or MARKED, is newly acknowledged (by the cum TSN or a
 * gap block): its bytes go to its path, it leaves the flight or the marked
 * count, and it may give an RTT sample. The caller sets its new state.
 */
static void
newly_acked(struct sctp_rtxq *q, struct walk *w, const struct sctp_rtxq_node *n)
{
	uint32_t cb = sctp_rtxq_chunk_bytes(n->len);
	unsigned p = n->path;
	struct sctp_rtxq_path_ack *pa = &w->out->path[p];

	pa->bytes_acked += cb;
	w->out->acked_mask |= bit(p);
	if (n->state & S_IN_FLIGHT) {
		/* R3: the first outstanding chunk of this path met in TSN order. */
		if (!(w->seen & bit(p)))
			w->restart |= bit(p);
		w->seen |= bit(p);
		q->path_flight[p] -= cb;
		q->data_flight -= n->len;
	} else {
		q->n_marked--;
	}
	if (!(n->state & S_RTX) && sctp_tsn_gt(n->tsn, q->karn_fence)) {
		pa->rtt_ns = w->now_ns > n->sent_ns ? w->now_ns - n->sent_ns : 0;
		w->out->rtt_mask |= bit(p);
	}
	w->htna = n->tsn;
	w->have_htna = true;
}

/* Step 1: release the nodes up to cum; returns how many. */
static uint32_t
cum_ack(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, struct walk *w, uint32_t cum)
{
	struct sctp_rtxq_pool *pool = env->pool;
	struct sctp_rtxq_node *nodes = pool->nodes;
	uint32_t first = q->head;
	uint32_t last = NIL;
	uint32_t count = 0;
	uint32_t x = first;

	while (x != NIL && sctp_tsn_le(nodes[x].tsn, cum)) {
		struct sctp_rtxq_node *n = &nodes[x];

		if (n->state & (S_GAP_ACKED | S_ABANDONED)) {
			/* Abandoned: already out of every count, reference released. */
			if (n->state & S_GAP_ACKED)
				q->n_gap_acked--;
		} else {
			newly_acked(q, w, n);
		}
		if (n->handle != NULL)
			env->buf->release(env->buf->ctx, n->handle);
		n->handle = NULL;
		n->data = NULL;
		n->state = 0;
		last = x;
		x = n->next;
		count++;
	}
	if (count == 0)
		return 0;
	/* The run first..last is linked already: hand it back in one splice. */
	nodes[last].next = pool->free;
	pool->free = first;
	pool->n_free += count;
	q->head = x;
	if (x == NIL)
		q->tail = NIL;
	return count;
}

/* Step 2: gap blocks against the queue, one merge walk; reneging. */
static void
gap_walk(struct sctp_rtxq *q, struct sctp_rtxq_node *nodes, struct walk *w,
	 const struct sctp_sack *s)
{
	uint32_t cum = q->cum_point;
	uint32_t left = q->n_gap_acked; /* gap-acked nodes not yet visited */
	uint16_t b = 0;
	uint32_t lo = 0;
	uint32_t hi = 0;
	uint32_t x = q->head;

	if (s->n_gaps > 0) {
		struct sctp_sack_gap g = sctp_sack_gap_block(s, 0);

		lo = cum + g.start;
		hi = cum + g.end;
	}
	while (x != NIL && (b < s->n_gaps || left > 0)) {
		struct sctp_rtxq_node *n = &nodes[x];
		unsigned p = n->path;
		uint32_t cb = sctp_rtxq_chunk_bytes(n->len);
		bool covered;

		while (b < s->n_gaps && sctp_tsn_gt(n->tsn, hi)) {
			if (++b < s->n_gaps) {
				struct sctp_sack_gap g = sctp_sack_gap_block(s, b);

				lo = cum + g.start;
				hi = cum + g.end;
			}
		}
		covered = b < s->n_gaps && sctp_tsn_ge(n->tsn, lo);

		if (n->state & S_GAP_ACKED) {
			left--;
			if (!covered) {
				/* §6.2.1 D iii: the receiver reneged. Outstanding again. */
				n->state =
					(uint8_t)((n->state & ~S_PHASE) | S_IN_FLIGHT | S_RENEGED);
				q->n_gap_acked--;
				q->path_flight[p] += cb;
				q->data_flight += n->len;
				w->out->reneged++;
				w->out->t3_start_mask |= bit(p);
				w->reneged++;
				w->seen |= bit(p);
			}
		} else if (covered && !(n->state & S_ABANDONED)) {
			newly_acked(q, w, n);
			n->state = (uint8_t)((n->state & ~S_PHASE) | S_GAP_ACKED);
			q->n_gap_acked++;
		} else if (n->state & S_IN_FLIGHT) {
			w->seen |= bit(p);
		}
		x = n->next;
	}
}

/* A chunk with its third miss indication: marked for fast retransmit (§7.2.4 rules 1, 5). */
static void
mark_fast_rtx(struct sctp_rtxq *q, struct sctp_rtxq_sack_result *out, struct sctp_rtxq_node *n)
{
	uint32_t cb = sctp_rtxq_chunk_bytes(n->len);

	n->state = (uint8_t)((n->state & ~S_PHASE) | S_MARKED | S_FAST_RTX);
	q->path_flight[n->path] -= cb;
	q->data_flight -= n->len;
	q->n_marked++;
	out->fast_rtx_mask |= bit(n->path);
	out->fast_rtx_chunks++;
	out->fast_rtx_bytes += cb;
}

/*
 * Step 3: one miss indication for each IN_FLIGHT node below limit (if
 * has_limit) and for each node reneged by this SACK.
 */
static void
miss_walk(struct sctp_rtxq *q, struct sctp_rtxq_node *nodes, struct walk *w, bool has_limit,
	  uint32_t limit)
{
	uint32_t x = q->head;

	while (x != NIL) {
		struct sctp_rtxq_node *n = &nodes[x];
		bool below = has_limit && sctp_tsn_lt(n->tsn, limit);
		bool count;

		if (!below && w->reneged == 0)
			break;
		if (n->state & S_RENEGED) {
			n->state &= (uint8_t)~S_RENEGED;
			w->reneged--;
			count = true;
		} else {
			count = below;
		}
		if (count && (n->state & S_IN_FLIGHT) && !(n->state & S_FAST_RTX)) {
			if (++n->misses >= SCTP_RTXQ_FR_THRESHOLD)
				mark_fast_rtx(q, w->out, n);
		}
		x = n->next;
	}
}

static void
result_start(const struct sctp_rtxq *q, const struct sctp_rtxq_pool *pool,
	     struct sctp_rtxq_sack_result *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < SCTP_MAX_PATHS; i++) {
		out->path[i].flight_before = q->path_flight[i];
		out->path[i].flight_after = q->path_flight[i];
		out->flight_before += q->path_flight[i];
	}
	out->flight_after = out->flight_before;
	out->cum_tsn = q->cum_point;
	out->highest_sent = sctp_rtxq_highest_sent(q, pool);
	out->all_acked = out->flight_before == 0 && q->n_marked == 0;
}

/* After the walks: flights after, T3 masks, totals. */
static void
result_finish(const struct sctp_rtxq *q, const struct walk *w, struct sctp_rtxq_sack_result *out)
{
	out->flight_after = 0;
	for (unsigned i = 0; i < SCTP_MAX_PATHS; i++) {
		uint32_t f = q->path_flight[i];

		out->path[i].flight_after = f;
		out->flight_after += f;
		out->bytes_acked += out->path[i].bytes_acked;
		if (f == 0)
			out->t3_stop_mask |= bit(i);
		else if (w->restart & bit(i))
			out->t3_restart_mask |= bit(i);
	}
	out->t3_start_mask &= (uint8_t)~out->t3_stop_mask;
	out->cum_tsn = q->cum_point;
	out->all_acked = out->flight_after == 0 && q->n_marked == 0;
}

/* §6.2.1 D i, then §12.4. [cum_point, highest] spans < 2^31 TSNs (I1). */
static enum sctp_rtxq_sack_verdict
check_cum(const struct sctp_rtxq *q, uint32_t cum, uint32_t highest)
{
	if (sctp_tsn_lt(cum, q->cum_point))
		return SCTP_RTXQ_SACK_OLD;
	if (cum - q->cum_point > highest - q->cum_point)
		return SCTP_RTXQ_SACK_CUM_NOT_SENT;
	return SCTP_RTXQ_SACK_OK;
}

/* Step 1 and the cum point. */
static void
advance(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, struct walk *w, uint32_t cum)
{
	w->out->chunks_released = cum_ack(q, env, w, cum);
	if (cum != q->cum_point) {
		w->out->cum_advanced = true;
		q->cum_point = cum;
		if (sctp_tsn_lt(q->karn_fence, cum))
			q->karn_fence = cum;
	}
}

enum sctp_rtxq_sack_verdict
sctp_rtxq_on_sack(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, const struct sctp_sack *s,
		  bool in_fast_recovery, uint64_t now_ns, struct sctp_rtxq_sack_result *out)
{
	struct sctp_rtxq_node *nodes = env->pool->nodes;
	uint32_t cum = s->cum_tsn;
	uint32_t highest = sctp_rtxq_highest_sent(q, env->pool);
	enum sctp_rtxq_sack_verdict v;
	struct walk w;
	uint32_t last_end = 0;

	result_start(q, env->pool, out);
	v = check_cum(q, cum, highest);
	if (v == SCTP_RTXQ_SACK_OK)
		v = check_gaps(s, highest - cum);
	if (v != SCTP_RTXQ_SACK_OK)
		return v;
	if (s->n_gaps > 0)
		last_end = sctp_sack_gap_block(s, (uint16_t)(s->n_gaps - 1)).end;

	memset(&w, 0, sizeof(w));
	w.out = out;
	w.now_ns = now_ns;
	advance(q, env, &w, cum);
	q->a_rwnd = s->a_rwnd;

	if (s->n_gaps > 0 || q->n_gap_acked > 0)
		gap_walk(q, nodes, &w, s);

	if (in_fast_recovery && out->cum_advanced && s->n_gaps > 0)
		miss_walk(q, nodes, &w, true, cum + last_end);
	else if (w.have_htna && sctp_tsn_gt(w.htna, cum))
		miss_walk(q, nodes, &w, true, w.htna);
	else if (w.reneged > 0)
		miss_walk(q, nodes, &w, false, 0);

	result_finish(q, &w, out);
	return SCTP_RTXQ_SACK_OK;
}

enum sctp_rtxq_sack_verdict
sctp_rtxq_on_shutdown_cum(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, uint32_t cum_tsn,
			  uint64_t now_ns, struct sctp_rtxq_sack_result *out)
{
	enum sctp_rtxq_sack_verdict v;
	struct walk w;

	result_start(q, env->pool, out);
	v = check_cum(q, cum_tsn, sctp_rtxq_highest_sent(q, env->pool));
	if (v != SCTP_RTXQ_SACK_OK)
		return v;
	memset(&w, 0, sizeof(w));
	w.out = out;
	w.now_ns = now_ns;
	advance(q, env, &w, cum_tsn);
	result_finish(q, &w, out);
	return SCTP_RTXQ_SACK_OK;
}

uint32_t
sctp_rtxq_on_t3_expiry(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, unsigned path,
		       uint32_t *bytes)
{
	struct sctp_rtxq_node *nodes = env->pool->nodes;
	uint32_t count = 0;
	uint32_t total = 0;

	if (path < SCTP_MAX_PATHS && q->path_flight[path] > 0) {
		for (uint32_t x = q->head; x != NIL; x = nodes[x].next) {
			struct sctp_rtxq_node *n = &nodes[x];

			if (n->path != path || !(n->state & S_IN_FLIGHT))
				continue;
			n->state = (uint8_t)((n->state & ~S_PHASE) | S_MARKED);
			total += sctp_rtxq_chunk_bytes(n->len);
			q->data_flight -= n->len;
			count++;
		}
		q->path_flight[path] -= total;
		q->n_marked += count;
	}
	if (bytes != NULL)
		*bytes = total;
	return count;
}

uint32_t
sctp_rtxq_unmark_t3(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, unsigned path,
		    uint32_t *bytes)
{
	struct sctp_rtxq_node *nodes = env->pool->nodes;
	uint32_t count = 0;
	uint32_t total = 0;

	if (path < SCTP_MAX_PATHS && q->n_marked > 0) {
		for (uint32_t x = q->head; x != NIL; x = nodes[x].next) {
			struct sctp_rtxq_node *n = &nodes[x];

			if (n->path != path || (n->state & S_PHASE) != S_MARKED ||
			    (n->state & S_FAST_RTX))
				continue;
			n->state = (uint8_t)((n->state & ~S_PHASE) | S_IN_FLIGHT);
			total += sctp_rtxq_chunk_bytes(n->len);
			q->data_flight += n->len;
			count++;
		}
		q->path_flight[path] += total;
		q->n_marked -= count;
	}
	if (bytes != NULL)
		*bytes = total;
	return count;
}

/* RFC 7496 §4: node x, of an SCTP_RTXQ_PR_RTX message, went as often as its limit allows. */
static inline bool
rtx_used_up(const struct sctp_rtxq_pool *pool, uint32_t x)
{
	return (pool->nodes[x].state & S_PR) && pool->pr[x].policy == SCTP_RTXQ_PR_RTX &&
	       pool->pr[x].rtx >= pool->pr[x].value;
}

uint32_t
sctp_rtxq_mark_oversize(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, unsigned path,
			uint32_t room, uint32_t from_tsn, uint32_t *bytes)
{
	struct sctp_rtxq_node *nodes = env->pool->nodes;
	uint32_t count = 0;
	uint32_t total = 0;
	uint32_t extra = env->idata ? 4u : 0u;

	if (path < SCTP_MAX_PATHS && q->path_flight[path] > 0) {
		for (uint32_t x = q->head; x != NIL; x = nodes[x].next) {
			struct sctp_rtxq_node *n = &nodes[x];
			uint32_t cb = sctp_rtxq_chunk_bytes(n->len);

			if (n->path != path || !(n->state & S_IN_FLIGHT) || cb + extra <= room ||
			    sctp_tsn_lt(n->tsn, from_tsn))
				continue;
			n->state = (uint8_t)((n->state & ~S_PHASE) | S_MARKED);
			total += cb;
			q->data_flight -= n->len;
			count++;
		}
		q->path_flight[path] -= total;
		q->n_marked += count;
	}
	if (bytes != NULL)
		*bytes = total;
	return count;
}

uint32_t
sctp_rtxq_next_rtx_bytes(const struct sctp_rtxq *q, const struct sctp_rtxq_env *env)
{
	const struct sctp_rtxq_node *nodes = env->pool->nodes;
	uint32_t left = q->n_marked;

	for (uint32_t x = q->head; x != NIL && left > 0; x = nodes[x].next) {
		const struct sctp_rtxq_node *n = &nodes[x];

		if (!(n->state & S_MARKED))
			continue;
		left--;
		if (rtx_used_up(env->pool, x))
			continue; /* used up: sctp_rtxq_take_rtx() passes it over */
		return sctp_rtxq_chunk_bytes(n->len) + (env->idata ? 4u : 0u);
	}
	return 0;
}

/* The highest TSN sent when it is the one chunk in flight and nothing is marked; else NULL. */
static struct sctp_rtxq_node *
alone_in_flight(const struct sctp_rtxq *q, const struct sctp_rtxq_pool *pool)
{
	struct sctp_rtxq_node *n;

	if (q->tail == NIL || q->n_marked != 0)
		return NULL;
	n = &pool->nodes[q->tail];
	/* Every chunk in flight counts at least 16 bytes, so equal sums mean no other. */
	if (!(n->state & S_IN_FLIGHT) || sctp_rtxq_flight(q) != sctp_rtxq_chunk_bytes(n->len))
		return NULL;
	return n;
}

int
sctp_rtxq_window_probe(const struct sctp_rtxq *q, const struct sctp_rtxq_pool *pool, uint32_t *tsn)
{
	const struct sctp_rtxq_node *n = alone_in_flight(q, pool);

	if (n == NULL || n->len <= q->a_rwnd)
		return -1;
	if (tsn != NULL)
		*tsn = n->tsn;
	return n->path;
}

int
sctp_rtxq_window_reopened(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, uint32_t tsn)
{
	struct sctp_rtxq_node *n = alone_in_flight(q, env->pool);

	/*
	 * A probe whose retransmissions are used up could not go again:
	 * marked, it would wait for sctp_rtxq_pr_expire(), which nothing
	 * here asks for, with the flight (and so T3-rtx) gone. In flight it
	 * stays under T3-rtx, whose expiry marks it and has it abandoned, and
	 * a SACK may still ack it: the window often reopens while the probe
	 * is on its way rather than dropped.
	 */
	if (n == NULL || n->tsn != tsn || n->len > q->a_rwnd || rtx_used_up(env->pool, q->tail))
		return -1;
	n->state = (uint8_t)((n->state & ~S_PHASE) | S_MARKED);
	q->path_flight[n->path] -= sctp_rtxq_chunk_bytes(n->len);
	q->data_flight -= n->len;
	q->n_marked++;
	return n->path;
}

unsigned
sctp_rtxq_take_rtx(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, unsigned path,
		   uint32_t budget, struct sctp_rtxq_rtx *out, unsigned max_out, uint32_t *bytes)
{
	struct sctp_rtxq_node *nodes = env->pool->nodes;
	uint32_t left = q->n_marked; /* marked nodes not yet visited */
	uint32_t used = 0;
	unsigned k = 0;

	if (path >= SCTP_MAX_PATHS)
		left = 0;
	for (uint32_t x = q->head; x != NIL && left > 0 && k < max_out; x = nodes[x].next) {
		struct sctp_rtxq_node *n = &nodes[x];
		uint32_t cb;

		if (!(n->state & S_MARKED))
			continue;
		if (rtx_used_up(env->pool, x)) {
			left--; /* used up: sctp_rtxq_pr_expire() abandons it */
			continue;
		}
		cb = sctp_rtxq_chunk_bytes(n->len);
		/* The packet's room counts the chunk as it goes: I-DATA's header is 4 bytes more.
		 */
		uint32_t wire = cb + (env->idata ? 4u : 0u);
		if (wire > budget - used)
			break;
		used += wire;
		left--;
		if ((n->state & S_PR) && env->pool->pr[x].rtx < UINT16_MAX)
			env->pool->pr[x].rtx++;
		n->state = (uint8_t)((n->state & ~S_PHASE) | S_IN_FLIGHT | S_RTX);
		n->path = (uint8_t)path;
		n->misses = 0;
		q->path_flight[path] += cb;
		q->data_flight += n->len;
		q->n_marked--;
		out[k].payload.handle = n->handle;
		out[k].payload.data = n->data;
		out[k].payload.len = n->len;
		out[k].tsn = n->tsn;
		out[k].ppid = n->ppid;
		out[k].sid = n->sid;
		out[k].ssn = n->ssn;
		out[k].mid_hi = n->mid_hi;
		out[k].flags = n->flags;
		k++;
	}
	/* §6.3.1 C5: nothing sent so far may give an RTT sample now (see the top of the file). */
	if (k > 0)
		q->karn_fence = sctp_rtxq_highest_sent(q, env->pool);
	if (bytes != NULL)
		*bytes = used;
	return k;
}

static void
msg_start(struct sctp_rtxq_msg *m, const struct sctp_rtxq_pool *pool, uint32_t x)
{
	const struct sctp_rtxq_node *n = &pool->nodes[x];

	memset(m, 0, sizeof(*m));
	m->context = pool->ctx != NULL ? pool->ctx[x] : 0;
	m->first_tsn = n->tsn;
	m->ppid = n->ppid;
	m->sid = n->sid;
	m->ssn = n->ssn;
	m->mid = (uint32_t)n->mid_hi << 16 | n->ssn;
	m->flags = n->flags;
	m->has_first = (n->flags & SCTP_DATA_FLAG_B) != 0;
}

/*
 * I-DATA. The chunks of one message: same stream, U bit and MID. A walk
 * from the head meets a message first at its lowest TSN in the queue, and
 * its last chunk is its E (a stream's messages go one after another, each
 * in FSN order), so the scans below run from that first chunk to the E, or
 * to the tail while the E is not sent. S_SEEN marks the chunks of messages
 * a walk has looked at; every walk that sets it clears it before it
 * returns.
 */
#define S_SEEN S_RENEGED

static bool
same_msg(const struct sctp_rtxq_node *a, const struct sctp_rtxq_node *b)
{
	return a->sid == b->sid && a->ssn == b->ssn && a->mid_hi == b->mid_hi &&
	       ((a->flags ^ b->flags) & SCTP_DATA_FLAG_U) == 0;
}

/* What a scan of one I-DATA message found. */
struct imsg {
	struct sctp_rtxq_msg m;
	bool all_gap_acked;
	bool rtx_used; /* an SCTP_RTXQ_PR_RTX chunk marked with its limit used up */
};

/* The message whose first chunk in the queue is x: its chunks marked S_SEEN. */
static void
imsg_scan(struct sctp_rtxq_pool *pool, uint32_t x, struct imsg *im)
{
	struct sctp_rtxq_node *nodes = pool->nodes;
	const struct sctp_rtxq_node *first = &nodes[x];

	msg_start(&im->m, pool, x);
	if (!(first->flags & SCTP_DATA_FLAG_B))
		im->m.ppid = (first->state & S_PR) ? pool->pr[x].ppid : 0; /* not an FSN */
	im->all_gap_acked = true;
	im->rtx_used = false;
	for (; x != NIL; x = nodes[x].next) {
		struct sctp_rtxq_node *n = &nodes[x];

		if (!same_msg(n, first) || (n->state & S_ABANDONED))
			continue;
		n->state |= S_SEEN;
		im->m.len += n->len;
		im->m.chunks++;
		if (n->state & S_GAP_ACKED)
			im->m.gap_acked_len += n->len;
		else
			im->all_gap_acked = false;
		if ((n->state & S_MARKED) && (n->state & S_PR) &&
		    pool->pr[x].policy == SCTP_RTXQ_PR_RTX && pool->pr[x].rtx >= pool->pr[x].value)
			im->rtx_used = true;
		if (n->flags & SCTP_DATA_FLAG_E) {
			im->m.has_last = true;
			break;
		}
	}
}

/* Every S_SEEN bit of the queue cleared. */
static void
clear_seen(struct sctp_rtxq_node *nodes, uint32_t x)
{
	for (; x != NIL; x = nodes[x].next)
		nodes[x].state &= (uint8_t)~S_SEEN;
}

void
sctp_rtxq_abandon(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, sctp_rtxq_msg_fn fn,
		  void *arg)
{
	struct sctp_rtxq_pool *pool = env->pool;
	struct sctp_rtxq_node *nodes = pool->nodes;
	uint32_t highest = sctp_rtxq_highest_sent(q, pool);
	struct sctp_rtxq_msg m;
	bool open = false;
	uint32_t count = 0;

	for (uint32_t x = q->head; env->idata && fn != NULL && x != NIL; x = nodes[x].next) {
		struct imsg im;

		if (nodes[x].state & (S_ABANDONED | S_SEEN))
			continue;
		imsg_scan(pool, x, &im);
		fn(arg, &im.m);
	}
	for (uint32_t x = q->head; !env->idata && x != NIL; x = nodes[x].next) {
		struct sctp_rtxq_node *n = &nodes[x];

		if (n->state & S_ABANDONED)
			continue; /* whole messages, reported when abandoned */
		if (open && (n->flags & SCTP_DATA_FLAG_B)) {
			/* A B fragment before the open message's E: the peer never saw an E. */
			if (fn != NULL)
				fn(arg, &m);
			open = false;
		}
		if (!open) {
			msg_start(&m, pool, x);
			open = true;
		}
		m.len += n->len;
		m.chunks++;
		if (n->state & S_GAP_ACKED)
			m.gap_acked_len += n->len;
		if (n->flags & SCTP_DATA_FLAG_E) {
			m.has_last = true;
			if (fn != NULL)
				fn(arg, &m);
			open = false;
		}
	}
	if (open && fn != NULL && !env->idata)
		fn(arg, &m);

	for (uint32_t x = q->head; x != NIL; x = nodes[x].next) {
		struct sctp_rtxq_node *n = &nodes[x];

		if (n->handle != NULL)
			env->buf->release(env->buf->ctx, n->handle);
		n->handle = NULL;
		n->data = NULL;
		n->state = 0;
		count++;
	}
	if (count > 0) {
		nodes[q->tail].next = pool->free;
		pool->free = q->head;
		pool->n_free += count;
	}
	memset(q->path_flight, 0, sizeof(q->path_flight));
	q->head = NIL;
	q->tail = NIL;
	q->cum_point = highest;
	q->karn_fence = highest;
	q->data_flight = 0;
	q->n_gap_acked = 0;
	q->n_marked = 0;
}

/*
 * PR-SCTP. A message is the run from node x to its E fragment (or to the
 * node before the next B, or the tail): RFC 9260 §6.9 gives a message's
 * fragments consecutive TSNs. Returns its node count; *after gets the node
 * after it.
 */
static uint32_t
msg_span(const struct sctp_rtxq_node *nodes, uint32_t x, uint32_t *after)
{
	uint32_t k = 0;

	for (;;) {
		const struct sctp_rtxq_node *n = &nodes[x];

		k++;
		x = n->next;
		if ((n->flags & SCTP_DATA_FLAG_E) || x == NIL ||
		    (nodes[x].flags & SCTP_DATA_FLAG_B))
			break;
	}
	*after = x;
	return k;
}

/* Whether the k nodes from x are all gap-acked (the peer has the message). */
static bool
msg_all_gap_acked(const struct sctp_rtxq_node *nodes, uint32_t x, uint32_t k)
{
	for (; k > 0; k--, x = nodes[x].next)
		if (!(nodes[x].state & S_GAP_ACKED))
			return false;
	return true;
}

/* Node n leaves its phase for ABANDONED; its reference is released. */
static void
abandon_node(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, struct sctp_rtxq_node *n,
	     struct sctp_rtxq_pr_result *res)
{
	uint8_t ph = n->state & S_PHASE;

	if (ph == S_IN_FLIGHT) {
		uint32_t cb = sctp_rtxq_chunk_bytes(n->len);

		q->path_flight[n->path] -= cb;
		q->data_flight -= n->len;
		res->flight_bytes += cb;
		res->flight_mask |= bit(n->path);
	} else if (ph == S_MARKED) {
		q->n_marked--;
	} else if (ph == S_GAP_ACKED) {
		q->n_gap_acked--;
	}
	if (n->handle != NULL)
		env->buf->release(env->buf->ctx, n->handle);
	n->handle = NULL;
	n->data = NULL;
	n->state = (uint8_t)((n->state & ~S_PHASE) | S_ABANDONED);
}

/* The k nodes from x, one message with a policy: reported, then abandoned. */
static void
abandon_msg(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, uint32_t x, uint32_t k,
	    sctp_rtxq_pr_fn fn, void *arg, struct sctp_rtxq_pr_stats *stats,
	    struct sctp_rtxq_pr_result *res)
{
	struct sctp_rtxq_node *nodes = env->pool->nodes;
	enum sctp_rtxq_pr_policy policy = (enum sctp_rtxq_pr_policy)env->pool->pr[x].policy;
	struct sctp_rtxq_msg m;
	uint32_t y = x;

	msg_start(&m, env->pool, x);
	for (uint32_t i = 0; i < k; i++, y = nodes[y].next) {
		m.len += nodes[y].len;
		m.chunks++;
		if (nodes[y].state & S_GAP_ACKED)
			m.gap_acked_len += nodes[y].len;
		if (nodes[y].flags & SCTP_DATA_FLAG_E)
			m.has_last = true;
	}
	if (fn != NULL)
		fn(arg, &m, policy);
	for (uint32_t i = 0; i < k; i++, x = nodes[x].next)
		abandon_node(q, env, &nodes[x], res);
	res->msgs++;
	res->chunks += k;
	res->bytes += m.len;
	if (stats != NULL) {
		stats->msgs[policy]++;
		stats->bytes[policy] += m.len;
	}
}

/* abandon_msg() for the I-DATA message im whose first chunk is x (its chunks S_SEEN). */
static void
abandon_imsg(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, uint32_t x,
	     const struct imsg *im, sctp_rtxq_pr_fn fn, void *arg, struct sctp_rtxq_pr_stats *stats,
	     struct sctp_rtxq_pr_result *res)
{
	struct sctp_rtxq_node *nodes = env->pool->nodes;
	enum sctp_rtxq_pr_policy policy = (enum sctp_rtxq_pr_policy)env->pool->pr[x].policy;
	const struct sctp_rtxq_node first = nodes[x];

	if (fn != NULL)
		fn(arg, &im->m, policy);
	for (uint32_t left = im->m.chunks; x != NIL && left > 0; x = nodes[x].next) {
		if (!same_msg(&nodes[x], &first) || (nodes[x].state & S_ABANDONED))
			continue;
		abandon_node(q, env, &nodes[x], res);
		left--;
	}
	res->msgs++;
	res->chunks += im->m.chunks;
	res->bytes += im->m.len;
	if (stats != NULL) {
		stats->msgs[policy]++;
		stats->bytes[policy] += im->m.len;
	}
}

/*
 * sctp_rtxq_pr_expire() with I-DATA: each message scanned once, from its
 * first chunk; one not sent to its E yet waits (see rtxq.h).
 */
static void
pr_expire_idata(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, uint64_t now_ns,
		sctp_rtxq_pr_fn fn, void *arg, struct sctp_rtxq_pr_stats *stats,
		struct sctp_rtxq_pr_result *res)
{
	struct sctp_rtxq_pool *pool = env->pool;

	for (uint32_t x = q->head; x != NIL; x = pool->nodes[x].next) {
		const struct sctp_rtxq_node *n = &pool->nodes[x];
		const struct sctp_rtxq_pr_slot *sl = &pool->pr[x];
		struct imsg im;

		if ((n->state & (S_ABANDONED | S_SEEN)) || !(n->state & S_PR))
			continue;
		imsg_scan(pool, x, &im);
		bool ttl = sl->policy == SCTP_RTXQ_PR_TTL;
		bool due = ttl ? now_ns > sl->value : im.rtx_used;
		if (due && im.m.has_last && !im.all_gap_acked)
			abandon_imsg(q, env, x, &im, fn, arg, stats, res);
		else if (due && !im.m.has_last && !im.all_gap_acked && now_ns < res->next_deadline)
			res->next_deadline = now_ns; /* look again once its E is sent */
		else if (ttl && sl->value >= now_ns && sl->value < res->next_deadline)
			res->next_deadline = sl->value;
	}
	clear_seen(pool->nodes, q->head);
}

/* sctp_rtxq_pr_evict()'s choice with I-DATA: the message to evict, NIL for none. */
static uint32_t
pr_evict_pick_idata(const struct sctp_rtxq *q, struct sctp_rtxq_pool *pool, uint64_t prio,
		    struct imsg *best_im)
{
	uint32_t best = NIL;
	uint64_t best_v = 0;

	for (uint32_t x = q->head; x != NIL; x = pool->nodes[x].next) {
		const struct sctp_rtxq_node *n = &pool->nodes[x];
		const struct sctp_rtxq_pr_slot *sl = &pool->pr[x];
		struct imsg im;

		if ((n->state & (S_ABANDONED | S_SEEN)) || !(n->state & S_PR))
			continue;
		if (sl->policy != SCTP_RTXQ_PR_PRIO || sl->value <= prio ||
		    (best != NIL && sl->value <= best_v))
			continue;
		imsg_scan(pool, x, &im);
		if (!im.m.has_last || im.all_gap_acked)
			continue;
		best = x;
		best_v = sl->value;
		*best_im = im;
	}
	clear_seen(pool->nodes, q->head);
	return best;
}

/* RFC 7496 §4 / RFC 3758 §4: whether the k-node message at x is due to be abandoned. */
static bool
msg_expired(const struct sctp_rtxq_pool *pool, uint32_t x, uint32_t k, uint64_t now_ns)
{
	const struct sctp_rtxq_pr_slot *sl = &pool->pr[x];

	if (sl->policy == SCTP_RTXQ_PR_TTL)
		return now_ns > sl->value;
	if (sl->policy != SCTP_RTXQ_PR_RTX)
		return false;
	for (; k > 0; k--, x = pool->nodes[x].next)
		if ((pool->nodes[x].state & S_MARKED) && pool->pr[x].rtx >= sl->value)
			return true;
	return false;
}

uint32_t
sctp_rtxq_pr_expire(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, uint64_t now_ns,
		    sctp_rtxq_pr_fn fn, void *arg, struct sctp_rtxq_pr_stats *stats,
		    struct sctp_rtxq_pr_result *res)
{
	struct sctp_rtxq_pool *pool = env->pool;
	struct sctp_rtxq_pr_result local;
	uint32_t x = q->head;

	if (res == NULL)
		res = &local;
	memset(res, 0, sizeof(*res));
	res->next_deadline = UINT64_MAX;
	if (pool->pr == NULL)
		return 0;
	if (env->idata) {
		pr_expire_idata(q, env, now_ns, fn, arg, stats, res);
		return res->msgs;
	}
	while (x != NIL) {
		const struct sctp_rtxq_node *n = &pool->nodes[x];
		uint32_t after;
		uint32_t k;

		if (n->state & S_ABANDONED) {
			x = n->next;
			continue;
		}
		k = msg_span(pool->nodes, x, &after);
		if ((n->state & S_PR) && msg_expired(pool, x, k, now_ns) &&
		    !msg_all_gap_acked(pool->nodes, x, k))
			abandon_msg(q, env, x, k, fn, arg, stats, res);
		else if ((n->state & S_PR) && pool->pr[x].policy == SCTP_RTXQ_PR_TTL &&
			 pool->pr[x].value >= now_ns && pool->pr[x].value < res->next_deadline)
			res->next_deadline = pool->pr[x].value;
		x = after;
	}
	return res->msgs;
}

uint32_t
sctp_rtxq_pr_evict(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, uint64_t prio,
		   uint32_t need, sctp_rtxq_pr_fn fn, void *arg, struct sctp_rtxq_pr_stats *stats,
		   struct sctp_rtxq_pr_result *res)
{
	struct sctp_rtxq_pool *pool = env->pool;
	struct sctp_rtxq_pr_result local;

	if (res == NULL)
		res = &local;
	memset(res, 0, sizeof(*res));
	if (pool->pr == NULL)
		return 0;
	while (env->idata && res->bytes < need) {
		struct imsg im;
		uint32_t best = pr_evict_pick_idata(q, pool, prio, &im);
		if (best == NIL)
			break;
		abandon_imsg(q, env, best, &im, fn, arg, stats, res);
	}
	while (!env->idata && res->bytes < need) {
		uint32_t best = NIL;
		uint32_t best_k = 0;
		uint64_t best_v = 0;
		uint32_t x = q->head;

		/* The lowest priority (highest value) above prio; the first in TSN order among
		 * equals. */
		while (x != NIL) {
			const struct sctp_rtxq_node *n = &pool->nodes[x];
			uint32_t after;
			uint32_t k;

			if (n->state & S_ABANDONED) {
				x = n->next;
				continue;
			}
			k = msg_span(pool->nodes, x, &after);
			if ((n->state & S_PR) && pool->pr[x].policy == SCTP_RTXQ_PR_PRIO &&
			    pool->pr[x].value > prio &&
			    (best == NIL || pool->pr[x].value > best_v) &&
			    !msg_all_gap_acked(pool->nodes, x, k)) {
				best = x;
				best_k = k;
				best_v = pool->pr[x].value;
			}
			x = after;
		}
		if (best == NIL)
			break;
		abandon_msg(q, env, best, best_k, fn, arg, stats, res);
	}
	return res->bytes;
}

bool
sctp_rtxq_fwd_tsn(const struct sctp_rtxq *q, const struct sctp_rtxq_pool *pool, bool idata,
		  struct sctp_forward_tsn_ientry *out, uint16_t max_entries,
		  struct sctp_rtxq_fwd *f)
{
	uint32_t point = q->cum_point;
	uint16_t n_out = 0;

	f->limited = false;
	for (uint32_t x = q->head; x != NIL && (pool->nodes[x].state & S_ABANDONED);
	     x = pool->nodes[x].next) {
		const struct sctp_rtxq_node *n = &pool->nodes[x];
		bool u = (n->flags & SCTP_DATA_FLAG_U) != 0;
		uint16_t flags = u ? (uint16_t)SCTP_I_FORWARD_TSN_FLAG_U : 0;
		uint32_t mid = idata ? (uint32_t)n->mid_hi << 16 | n->ssn : n->ssn;
		uint16_t i;

		if (!u || idata) {
			for (i = 0; i < n_out; i++)
				if (out[i].sid == n->sid && out[i].flags == flags)
					break;
			if (i < n_out) {
				/* The highest per stream, in serial order (RFC 1982 on 16 or 32
				 * bits). */
				bool higher = idata ? sctp_tsn_gt(mid, out[i].mid)
						    : (int16_t)(uint16_t)(mid - out[i].mid) > 0;
				if (higher)
					out[i].mid = mid;
			} else if (n_out == max_entries) {
				f->limited = true;
				break;
			} else {
				out[n_out].sid = n->sid;
				out[n_out].flags = flags;
				out[n_out].mid = mid;
				n_out++;
			}
		}
		point = n->tsn;
	}
	f->new_cum_tsn = point;
	f->n_entries = n_out;
	return point != q->cum_point;
}

const char *
sctp_rtxq_check(const struct sctp_rtxq *q, const struct sctp_rtxq_pool *pool)
{
	uint32_t flight[SCTP_MAX_PATHS] = { 0 };
	uint32_t data = 0;
	uint32_t gap = 0;
	uint32_t marked = 0;
	uint32_t count = 0;
	uint32_t expect = q->cum_point + 1u;
	uint32_t last = NIL;
	uint32_t highest;

	if ((q->head == NIL) != (q->tail == NIL))
		return "head and tail disagree on emptiness";
	for (uint32_t x = q->head; x != NIL; x = pool->nodes[x].next) {
		const struct sctp_rtxq_node *n;
		uint8_t ph;

		if (x >= pool->n)
			return "link outside the pool";
		if (++count > pool->n)
			return "more nodes than the pool has (a cycle)";
		n = &pool->nodes[x];
		if (n->tsn != expect)
			return "TSNs not consecutive from cum_point + 1";
		expect++;
		ph = n->state & S_PHASE;
		if (ph != S_IN_FLIGHT && ph != S_GAP_ACKED && ph != S_MARKED && ph != S_ABANDONED)
			return "not exactly one of in flight, gap-acked, marked, abandoned";
		if (n->state & S_RENEGED)
			return "transient reneged bit left set";
		if (n->path >= SCTP_MAX_PATHS)
			return "path index out of range";
		if ((n->state & S_PR) && pool->pr == NULL)
			return "policy bit on a node of a pool without PR slots";
		if (ph == S_ABANDONED && (!(n->state & S_PR) || n->handle != NULL))
			return "abandoned node without a policy or still holding its buffer";
		if (last != NIL) {
			const struct sctp_rtxq_node *p = &pool->nodes[last];
			/* Neighbours of one message; with I-DATA another may lie between. */
			bool one = !(p->flags & SCTP_DATA_FLAG_E) &&
				   !(n->flags & SCTP_DATA_FLAG_B) && same_msg(p, n);

			if (one && ((p->state ^ n->state) & S_ABANDONED))
				return "a message partly abandoned";
		}
		if (ph == S_IN_FLIGHT) {
			flight[n->path] += sctp_rtxq_chunk_bytes(n->len);
			data += n->len;
		} else if (ph == S_GAP_ACKED) {
			gap++;
		} else if (ph == S_MARKED) {
			marked++;
		}
		last = x;
	}
	if (last != q->tail)
		return "tail is not the last node";
	for (unsigned i = 0; i < SCTP_MAX_PATHS; i++)
		if (flight[i] != q->path_flight[i])
			return "path flight differs from a recount";
	if (data != q->data_flight)
		return "payload in flight differs from a recount";
	if (gap != q->n_gap_acked)
		return "gap-acked count differs from a recount";
	if (marked != q->n_marked)
		return "marked count differs from a recount";
	if (count > pool->n - pool->n_free)
		return "more nodes queued than taken from the pool";
	highest = sctp_rtxq_highest_sent(q, pool);
	if (!sctp_tsn_le(q->cum_point, q->karn_fence) || !sctp_tsn_le(q->karn_fence, highest))
		return "Karn fence outside [cum_point, highest sent]";
	return NULL;
}
