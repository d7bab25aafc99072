/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association's invariants between calls, checked as a whole (dcSCTP's
 * IsConsistent() is the model): what the state implies about the
 * handshake scratch, the data block and each timer; the path set's
 * indices; the receive side's TSN map; the send side's queues recounted
 * from their nodes (sctp_rtxq_check() for the retransmission queue, the
 * rules at the top of sctp/outq.c for the send queue), its flights against
 * the paths that exist and their T3-rtx deadlines, its next TSN against
 * the highest sent.
 *
 * Compiled in every build; called after every entry point only where
 * SCTP_ASSOC_CHECK is defined (sctp/meson.build: the unit tests, the
 * simulation and the fuzz targets link that variant), because it reads
 * every queued message and chunk. A broken invariant there aborts with
 * its name (sctp/assoc_check_report.c), so a test fails at the input that
 * broke it, not later where the damage shows.
 */
#include "sctp/assoc_internal.h"

static bool
assoc_in_states(const struct sctp_assoc *a, enum sctp_assoc_state lo, enum sctp_assoc_state hi)
{
	return a->state >= lo && a->state <= hi;
}

static bool
timer_on(const struct sctp_assoc *a, enum sctp_assoc_timer t)
{
	return a->timer_at[t] != SCTP_TIME_NEVER;
}

static const char *
check_timers(const struct sctp_assoc *a)
{
	if (a->state == SCTP_ASSOC_CLOSED) {
		for (unsigned t = 0; t < SCTP_ASSOC_TIMER_COUNT; t++)
			if (timer_on(a, (enum sctp_assoc_timer)t))
				return "timers: none runs in CLOSED";
		return NULL;
	}
	if (timer_on(a, SCTP_ASSOC_T1_INIT) && a->state != SCTP_ASSOC_COOKIE_WAIT)
		return "timers: T1-init runs only in COOKIE-WAIT";
	if (timer_on(a, SCTP_ASSOC_T1_COOKIE) && a->state != SCTP_ASSOC_COOKIE_ECHOED)
		return "timers: T1-cookie runs only in COOKIE-ECHOED";
	if (timer_on(a, SCTP_ASSOC_T2_SHUTDOWN) && a->state != SCTP_ASSOC_SHUTDOWN_SENT &&
	    a->state != SCTP_ASSOC_SHUTDOWN_ACK_SENT)
		return "timers: T2-shutdown runs only in SHUTDOWN-SENT and SHUTDOWN-ACK-SENT";
	if (timer_on(a, SCTP_ASSOC_T5_GUARD) &&
	    !assoc_in_states(a, SCTP_ASSOC_SHUTDOWN_PENDING, SCTP_ASSOC_SHUTDOWN_ACK_SENT))
		return "timers: T5-shutdown-guard runs only in the shutdown states";
	uint64_t hb = a->paths.running ? sctp_paths_next_wakeup(&a->paths) : SCTP_TIME_NEVER;
	if (a->timer_at[SCTP_ASSOC_T_HEARTBEAT] != hb)
		return "timers: the heartbeat timer is not the path set's next wakeup";
	if (timer_on(a, SCTP_ASSOC_T_SACK) && a->data_mem == NULL)
		return "timers: the delayed SACK runs only with a receive side";
	/* Read before the per-path deadlines are. */
	const struct sctp_assoc_tx *tx = a->tx;
	if (tx != NULL &&
	    (tx->n_paths < a->paths.n || tx->n_paths > SCTP_MAX_PATHS ||
	     (const uint8_t *)tx->path != (const uint8_t *)tx + assoc_align8(sizeof(*tx))))
		return "tx: a send state per path, behind the send side's struct";
	uint64_t t3 = SCTP_TIME_NEVER;
	for (unsigned i = 0; a->tx != NULL && i < a->tx->n_paths; i++)
		if (a->tx->path[i].t3_at < t3)
			t3 = a->tx->path[i].t3_at;
	if (a->timer_at[SCTP_ASSOC_T3_RTX] != t3)
		return "timers: T3-rtx is not the earliest path deadline";
	if (timer_on(a, SCTP_ASSOC_T_BUNDLE) &&
	    (a->tx == NULL || a->state != SCTP_ASSOC_ESTABLISHED))
		return "timers: the bundling delay runs only in ESTABLISHED with a send side";
	return NULL;
}

static const char *
check_paths(const struct sctp_assoc *a)
{
	const struct sctp_paths *ps = &a->paths;

	if (a->state == SCTP_ASSOC_CLOSED)
		return NULL;
	if (ps->n == 0 || ps->n > ps->cap || ps->cap > SCTP_MAX_PATHS)
		return "paths: 1 <= n <= cap <= SCTP_MAX_PATHS";
	if (ps->primary >= ps->n || ps->current >= ps->n)
		return "paths: primary and current are paths in use";
	bool beating = a->state == SCTP_ASSOC_ESTABLISHED ||
		       a->state == SCTP_ASSOC_SHUTDOWN_PENDING ||
		       a->state == SCTP_ASSOC_SHUTDOWN_RECEIVED;
	if (ps->running != beating)
		return "paths: heartbeats run from ESTABLISHED until our SHUTDOWN or SHUTDOWN ACK";
	return NULL;
}

static const char *
check_rx(const struct sctp_assoc *a)
{
	const struct sctp_tsn_map *m = &a->rx_tsn;

	if (a->rx_streams != a->data_mem)
		return "rx: the inbound streams head the data block";
	if (a->rx_path >= a->paths.n)
		return "rx: the last DATA's path is a path in use";
	if (a->rx_sack_now & ~3u)
		return "rx: unknown SACK policy bits";
	if (assoc_idata(a)) {
		const struct sctp_data_config *d = a->ep->cfg.data;
		struct sctp_ireasm_env env = {
			.pool = d->ireasm_pool,
			.streams = a->rx_istreams,
			.n_streams = a->inbound_streams,
			.lim = d->reasm,
			.buf = &d->buf,
		};
		if (sctp_ireasm_check(&a->rx_ireasm, &env) != 0)
			return "rx: I-DATA reassembly (the invariants of sctp/ireasm.c)";
	}
	if ((m->above == 0) != (m->highest_off == 0) || m->above > m->highest_off)
		return "rx: TSN map: TSNs held above cum against the highest received";
	if (m->highest_off > sctp_tsn_map_window(m))
		return "rx: TSN map: highest received beyond the window";
	return NULL;
}

static uint32_t
pad4(uint32_t n)
{
	return (n + 3u) & ~3u;
}

/* The send queue against a recount (the rules at the top of sctp/outq.c). */
struct outq_count {
	uint32_t msgs, partial;
	uint64_t bytes, wire;
};

static const char *
outq_visit(const struct sctp_outq *q, uint32_t ref, struct outq_count *c)
{
	uint32_t hdr = (q->flags & SCTP_OUTQ_QF_IDATA) ? SCTP_OUTQ_IDATA_HDR : SCTP_OUTQ_DATA_HDR;

	if (ref == 0 || ref > q->pool->n)
		return "outq: link outside the pool";
	if (++c->msgs > q->pool->n)
		return "outq: more messages than the pool has (a cycle)";
	const struct sctp_outq_msg *m = &q->pool->nodes[ref - 1];
	if (m->off >= m->len)
		return "outq: a queued message with nothing left to take";
	c->bytes += m->len - m->off;
	c->wire += hdr + pad4(m->len - m->off);
	c->partial += m->off != 0;
	return NULL;
}

static const char *
outq_count_rr(const struct sctp_outq *q, struct outq_count *c)
{
	const char *e;
	unsigned active = 0, ring = 0;

	for (unsigned s = 0; s < q->n_streams; s++) {
		const struct sctp_outq_stream *st = &q->streams[s];
		if ((st->tail != 0) != (st->sched_next != 0))
			return "outq: a stream has messages iff it is on the ring";
		active += st->tail != 0;
	}
	if ((q->head == 0) != (active == 0))
		return "outq: the ring's head is 0 iff no stream is active";
	for (uint32_t s1 = q->head; s1 != 0 && (ring == 0 || s1 != q->head);) {
		if (s1 > q->n_streams)
			return "outq: the ring leaves the streams";
		if (++ring > active)
			return "outq: the ring holds more than the active streams";
		const struct sctp_outq_stream *st = &q->streams[s1 - 1];
		uint32_t before = c->partial, ref = st->tail;
		do {
			if (ref == 0 || ref > q->pool->n)
				return "outq: link outside the pool";
			ref = q->pool->nodes[ref - 1].next;
			if ((e = outq_visit(q, ref, c)) != NULL)
				return e;
		} while (ref != st->tail);
		if (c->partial - before > 1)
			return "outq: more than one message of a stream partly taken";
		s1 = st->sched_next;
	}
	return ring == active ? NULL : "outq: an active stream is off the ring";
}

static const char *
outq_count_fcfs(const struct sctp_outq *q, struct outq_count *c)
{
	const char *e;
	uint32_t last = 0;

	for (uint32_t ref = q->head; ref != 0; ref = q->pool->nodes[ref - 1].next) {
		if ((e = outq_visit(q, ref, c)) != NULL)
			return e;
		last = ref;
	}
	return last == q->tail ? NULL : "outq: the tail is not the last message";
}

static const char *
check_outq(const struct sctp_outq *q, const struct sctp_data_config *d)
{
	struct outq_count c = { 0, 0, 0, 0 };
	const char *e;

	if (q->pool != d->outq_pool)
		return "outq: the configured pool";
	e = q->sched == SCTP_OUTQ_SCHED_FCFS ? outq_count_fcfs(q, &c) : outq_count_rr(q, &c);
	if (e != NULL)
		return e;
	if (c.msgs != q->queued_msgs || c.bytes != q->queued_bytes)
		return "outq: queued messages and bytes differ from a recount";
	if (c.wire != q->wire_bytes)
		return "outq: wire bytes differ from a recount";
	if (!(q->flags & SCTP_OUTQ_QF_IDATA) && c.partial > 1)
		return "outq: more than one message partly taken";
	return NULL;
}

static const char *
check_tx(const struct sctp_assoc *a)
{
	const struct sctp_data_config *d = a->ep->cfg.data;
	const struct sctp_assoc_tx *tx = a->tx;
	const char *e;

	if ((const uint8_t *)tx !=
	    (const uint8_t *)a->data_mem + assoc_rx_bytes(d, a->inbound_streams, assoc_idata(a)))
		return "tx: the send side follows the receive side in the data block";
	if (tx->outq.n_streams != a->outbound_streams)
		return "tx: a send queue entry per outbound stream";
	if (tx->env.pool != d->rtxq_pool)
		return "tx: the configured retransmission pool";
	/* Its strings name the retransmission queue's own invariants (sctp/rtxq.c I1-I4). */
	if ((e = sctp_rtxq_check(&tx->rtxq, tx->env.pool)) != NULL)
		return e;
	if (tx->next_tsn - 1u != sctp_rtxq_highest_sent(&tx->rtxq, tx->env.pool))
		return "tx: the next TSN follows the highest sent";
	for (unsigned i = 0; i < SCTP_MAX_PATHS; i++) {
		uint32_t flight = sctp_rtxq_path_flight(&tx->rtxq, i);
		uint64_t t3 = i < tx->n_paths ? tx->path[i].t3_at : SCTP_TIME_NEVER;
		if (i >= a->paths.n && (flight != 0 || t3 != SCTP_TIME_NEVER))
			return "tx: no flight and no T3-rtx on a path not in use";
		if (flight != 0 && t3 == SCTP_TIME_NEVER)
			return "tx: T3-rtx runs on every path with data in flight (§6.3.2 R1)";
	}
	const struct sctp_assoc_reconf *rc = &tx->reconf;
	if ((rc->req == 0) != (a->timer_at[SCTP_ASSOC_T_RECONF] == SCTP_TIME_NEVER))
		return "reconf: the timer runs exactly while a request is outstanding";
	if ((rc->waiting & ~rc->req) != 0 || (rc->req != 0 && rc->waiting == 0))
		return "reconf: a request waits for answers to its own parameters only";
	if (rc->n_streams > SCTP_RECONF_MAX_STREAMS || rc->def_n > SCTP_RECONF_MAX_STREAMS)
		return "reconf: at most SCTP_RECONF_MAX_STREAMS streams kept";
	if (rc->req != 0 && !(a->extensions & SCTP_COOKIE_EXT_RECONFIG))
		return "reconf: requests only with RE-CONFIG negotiated";
	if (((tx->outq.flags & SCTP_OUTQ_QF_IDATA) != 0) != assoc_idata(a))
		return "tx: the send queue cuts the chunk kind negotiated (RFC 8260 §2.2)";
	return check_outq(&tx->outq, d);
}

const char *
sctp_assoc_check(const struct sctp_assoc *a)
{
	const char *e;

	if (a->state >= SCTP_ASSOC_STATE_COUNT)
		return "state: one of the eight";
	if (a->freeable && a->state != SCTP_ASSOC_CLOSED)
		return "freeable: only when CLOSED";
	if (a->counters != NULL && a->counters->drops[SCTP_ASSOC_DROP_CMD_OVERFLOW] != 0)
		return "commands: a command list overflowed (cmd_overflow)";
	bool handshake = a->state == SCTP_ASSOC_COOKIE_WAIT || a->state == SCTP_ASSOC_COOKIE_ECHOED;
	if ((a->hs != NULL) != handshake)
		return "hs: lent exactly in COOKIE-WAIT and COOKIE-ECHOED";
	bool data_states = a->state >= SCTP_ASSOC_ESTABLISHED;
	if (a->state != SCTP_ASSOC_CLOSED &&
	    (a->ep == NULL || a->local_vtag == 0 || a->local_port == 0 || a->peer_port == 0))
		return "tags: an endpoint, our tag and both ports once out of CLOSED";
	if (data_states &&
	    (a->peer_vtag == 0 || a->outbound_streams == 0 || a->inbound_streams == 0))
		return "tags: the peer's tag and both stream counts from ESTABLISHED on";
	if ((e = check_timers(a)) != NULL || (e = check_paths(a)) != NULL)
		return e;
	if (a->data_mem == NULL) {
		if (a->tx != NULL || a->rx_streams != NULL)
			return "data: no receive or send side without the data block";
		if (data_states && a->ep->cfg.data != NULL && a->ops->data_get != NULL)
			return "data: the data block is held from ESTABLISHED on";
		return NULL;
	}
	if (!data_states)
		return "data: the data block is held only from ESTABLISHED on";
	if ((e = check_rx(a)) != NULL)
		return e;
	return a->tx != NULL ? check_tx(a) : NULL;
}
