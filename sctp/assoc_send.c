/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association's send path, RFC 9260 §6.1 (transmission rules A-D),
 * §6.2.1 (processing a SACK), §6.3.2 and §6.3.3 (T3-rtx, rules R1-R3,
 * E1-E3), §7.2 (congestion control, through sctp/cc.h), §7.2.4 (fast
 * retransmit), §9.2 (no new data once a shutdown is under way; the
 * SHUTDOWN's Cumulative TSN Ack) and RFC 6458 §6.1.4 (SEND FAILED). The
 * order of calls is in docs/DATAPATH.md.
 *
 * The modules do the work: the send queue (sctp/outq.h) keeps messages and
 * cuts chunks, the retransmission queue (sctp/rtxq.h) keeps what was sent
 * and judges SACKs, the congestion control (sctp/cc.h) says how much may
 * go, the path set (sctp/path.h) keeps RTOs and error counts. This file
 * calls them in the RFC's order, assigns TSNs, and builds packets.
 *
 * The interpreter runs it (OP_PUSH, OP_SACK, OP_T3, the flush that ends
 * every input). It sends its DATA packets and the SACKs it owes itself
 * (the SACK from the receive path, assoc_data.c, the one file it calls),
 * and emits into the interpreter's follow-up queue what else it decides:
 * path events, an ABORT for a SACK of a TSN never sent, the SHUTDOWN or
 * SHUTDOWN ACK once nothing is outstanding. It never calls the interpreter.
 *
 * Zero window probing (§6.1 A): with the peer's window too small for the
 * next chunk and nothing in flight, one chunk goes anyway (tx_flush_new()).
 * A receiver whose window stays closed drops it and says so in a SACK
 * (§6.2); T3-rtx then resends it at backed-off intervals without counting
 * errors for as long as such SACKs keep coming (assoc_tx_t3(),
 * tx->sack_since_data), and a SACK that reopens the window sends it again
 * at once (tx_window_reopened()), unless its PR-SCTP retransmissions are
 * used up: then it stays in flight, under T3-rtx.
 *
 * One flush after every input, timer and user call (assoc_tx_flush()):
 * packets of at most one MTU (tx->mtu, IP header included) while the
 * path's cwnd (with Max.Burst), the peer's rwnd and the retransmission
 * queue's room allow: a SACK first if one is owed (the delayed one, or the
 * one the input's DATA asked for at once: bundled, §6.10, so the input
 * costs one packet, not two), retransmissions, then new chunks. A SACK owed
 * at once that found no DATA to ride on leaves alone at the end.
 *
 * Bundling (RFC 9260 §6.10) without waiting is the default. Two ways to
 * bundle more: SCTP_SEND_MORE (the flush of that call sends no new data:
 * the caller queues a burst, then calls sctp_assoc_flush()), and a
 * bundling delay (sctp_data_config.bundle_delay_us): in ESTABLISHED, a
 * packet of new data that would leave less than full waits until the
 * oldest queued message has waited the delay (SCTP_ASSOC_T_BUNDLE), unless
 * a SCTP_SEND_SACK_NOW message is queued. Retransmissions and control
 * chunks never wait, and a shutdown sends everything at once. With no
 * delay configured the flush pays one test of tx->bundle_delay_ns.
 *
 * Storage: struct sctp_assoc_tx and the outbound streams' entries (16 bytes
 * each) sit in the data_mem block (assoc_tx_bytes()); messages and chunks in
 * the lcore's pools. Nothing is allocated here. Zero copy: a DATA chunk is
 * a 16-byte header plus the user's slice (ops->send_data); without that op
 * the packet is flattened on the stack (one copy) for ops->send.
 *
 * Stack: a packet being built is about 8 KB (head, 128 segments), the
 * chunk arrays of one fill or take another 5 KB, the flatten fallback 9 KB.
 *
 * Invariants: the TSNs of new chunks are consecutive from our Initial TSN
 * (rtxq refuses any other); every chunk taken from the send queue goes to
 * the retransmission queue (its reference with it), which is why the flush
 * bounds each fill by the retransmission queue's room first.
 */
#include <errno.h>
#include <string.h>

#include "sctp/assoc_internal.h"
#include "sctp/assoc_opt.h"
#include "sctp/chunk_data.h"
#include "sctp/chunk_forward_tsn.h"
#include "sctp/chunk_idata.h"
#include "sctp/chunk_sack.h"
#include "sctp/chunk_shutdown.h"

_Static_assert((SCTP_SEND_MORE & SCTP_OUTQ_FLAGS) == 0, "MORE is no DATA chunk flag");
_Static_assert(sizeof(struct sctp_tx_path) == 64, "a path's send state is one cache line");

/* Most DATA chunks in one packet: 20 bytes each at least. */
#define ASSOC_TX_MAX_SEGS 128u
/* Largest MTU the flatten fallback and the bounds accept (jumbo frames). */
#define ASSOC_TX_MTU_MAX 9000u
/* Smallest MTU: RFC 9260 §6.9 assumes at least an IPv6 minimum link. */
#define ASSOC_TX_MTU_MIN 576u

static const struct sctp_data_config *
tx_cfg(const struct sctp_assoc *a)
{
	return a->ep->cfg.data;
}

/*
 * PMDCS (§1.3) of path i: its MTU (one load, struct sctp_path.mtu) less
 * the IP header of the association's family and the common header.
 */
static inline uint16_t
tx_pmdcs(const struct sctp_assoc *a, unsigned i)
{
	unsigned ip = a->local_addr.family == SCTP_ADDR_V6 ? 40u : 20u;

	return (uint16_t)(sctp_paths_get_const(&a->paths, i)->mtu - ip - SCTP_COMMON_HDR_LEN);
}

uint16_t
assoc_tx_pmdcs(const struct sctp_assoc *a, unsigned i)
{
	return tx_pmdcs(a, i);
}

void
assoc_tx_start(struct sctp_assoc *a, void *mem)
{
	const struct sctp_data_config *d = tx_cfg(a);
	struct sctp_assoc_tx *tx = mem;
	unsigned n_paths = assoc_tx_paths(d);
	struct sctp_tx_path *path =
		(struct sctp_tx_path *)(void *)((uint8_t *)mem + assoc_align8(sizeof(*tx)));
	struct sctp_outq_stream *streams = (struct sctp_outq_stream *)(void *)(path + n_paths);
	struct sctp_outq_config oc = {
		.max_bytes = d->outq_max_bytes,
		.max_msgs = d->outq_max_msgs,
		.n_streams = a->outbound_streams,
		.sched = d->sched,
		.idata = assoc_idata(a), /* RFC 8260 §2.2: negotiated, then for every message */
	};

	memset(tx, 0, sizeof(*tx));
	memset(path, 0, n_paths * sizeof(*path));
	a->tx = NULL;
	if (a->paths.n > n_paths)
		return; /* more paths than the config's blocks hold: the send side stays off */
	if (sctp_outq_init(&tx->outq, d->outq_pool, streams, &oc) != 0)
		return; /* a bad limit or scheduler: the send side stays off (-EOPNOTSUPP) */
	tx->path = path;
	tx->n_paths = (uint8_t)n_paths;
	tx->env.pool = d->rtxq_pool;
	tx->env.buf = &d->buf;
	tx->env.max_chunks = d->rtxq_max_chunks;
	tx->env.idata = assoc_idata(a);
	tx->cc = assoc_opts_cc(a);
	tx->bundle_delay_ns = (uint64_t)d->bundle_delay_us * 1000u;
	tx->hold_since = SCTP_TIME_NEVER;
	tx->pr_next = SCTP_TIME_NEVER;
	tx->mtu = d->mtu == 0 ? (uint16_t)SCTP_ASSOC_TX_MAX : d->mtu;
	if (tx->mtu < ASSOC_TX_MTU_MIN)
		tx->mtu = ASSOC_TX_MTU_MIN;
	if (tx->mtu > ASSOC_TX_MTU_MAX)
		tx->mtu = ASSOC_TX_MTU_MAX;
	sctp_rtxq_init(&tx->rtxq, a->local_initial_tsn, a->peer_a_rwnd);
	tx->next_tsn = a->local_initial_tsn;
	sctp_cc_recovery_init(&tx->fr);
	a->tx = tx;
	assoc_pmtu_start(a);
	for (unsigned i = 0; i < tx->n_paths; i++) {
		/* Paths not in use yet start at the interface MTU too (mtu_start). */
		uint16_t pmdcs = i < a->paths.n ? tx_pmdcs(a, i) : tx_pmdcs(a, 0);
		sctp_cc_init(&tx->path[i].cc, tx->cc, pmdcs, a->local_addr.family);
		tx->path[i].t3_at = SCTP_TIME_NEVER;
	}
	assoc_reconf_start(a);
}

static void
tx_notify_failed(struct sctp_assoc *a, uint16_t sid, uint32_t ppid, uint32_t len, bool sent,
		 uint8_t pr_policy, uint32_t context)
{
	struct sctp_notification n = {
		.assoc = a,
		.type = SCTP_NOTIFY_SEND_FAILED,
		.outbound_streams = a->outbound_streams,
		.inbound_streams = a->inbound_streams,
		.extensions = a->extensions,
		.sid = sid,
		.sent = sent,
		.pr_policy = pr_policy,
		.ppid = ppid,
		.length = len,
		.context = context,
	};
	a->counters->send_failed++;
	a->ops->notify(a->ctx, &n);
}

/* A message with chunks unacknowledged; one whose rest is still queued is the outq's to report. */
static void
tx_rtxq_failed(void *arg, const struct sctp_rtxq_msg *m)
{
	if (m->has_last)
		tx_notify_failed(arg, m->sid, m->ppid, m->len, true, SCTP_PR_NONE, m->context);
}

static void
tx_outq_failed(void *arg, const struct sctp_outq_unsent *u)
{
	tx_notify_failed(arg, u->sid, u->ppid, u->msg.len, u->taken != 0, SCTP_PR_NONE, u->context);
}

/*
 * Close or restart (RFC 6458 §6.1.4): SEND FAILED once per message sent
 * and not acknowledged (TSN order), then once per message still queued;
 * every reference released.
 */
void
assoc_tx_stop(struct sctp_assoc *a)
{
	struct sctp_assoc_tx *tx = a->tx;

	if (tx == NULL)
		return;
	sctp_rtxq_abandon(&tx->rtxq, &tx->env, tx_rtxq_failed, a);
	(void)sctp_outq_abandon(&tx->outq, tx_outq_failed, a);
	a->tx = NULL;
	a->timer_at[SCTP_ASSOC_T3_RTX] = SCTP_TIME_NEVER;
	a->timer_at[SCTP_ASSOC_T_BUNDLE] = SCTP_TIME_NEVER;
	a->timer_at[SCTP_ASSOC_T_RECONF] = SCTP_TIME_NEVER;
}

/* ---- PR-SCTP, the sender's side (RFC 3758 §3.5, RFC 7496) --------------- */

static void tx_t3_start(struct sctp_assoc *a, unsigned i, uint64_t now_ns, bool restart);
static bool tx_skip(struct sctp_assoc *a);

/*
 * A message the retransmission queue abandoned: sent, so SCTP_DATA_SENT.
 * If its last fragments were never sent they wait in the send queue and go
 * with it (§3.5 A3); their bytes count in the report and the counters.
 */
static void
tx_pr_sent_abandoned(void *arg, const struct sctp_rtxq_msg *m, enum sctp_rtxq_pr_policy policy)
{
	struct sctp_assoc *a = arg;
	uint32_t len = m->len;

	/* With I-DATA the queue abandons a message only once its E went (has_last). */
	if (!m->has_last) {
		struct sctp_assoc_tx *tx = a->tx;
		uint32_t rest = sctp_outq_abandon_partial(&tx->outq, m->sid);
		len += rest;
		a->stats->pr_abandoned.bytes[policy] += rest;
		/* With DATA one message at a time is part way: one skip slot. */
		tx->skip_due = true;
		tx->skip_flags = m->flags;
		tx->skip_sid = m->sid;
		tx->skip_ssn = m->ssn;
		tx->skip_policy = (uint8_t)policy;
	}
	tx_notify_failed(a, m->sid, m->ppid, len, true, (uint8_t)policy, m->context);
}

struct tx_pr_unsent {
	struct sctp_assoc *a;
	uint8_t policy;
};

/* A message abandoned before any of it was sent: SCTP_DATA_UNSENT, no FORWARD TSN needed. */
static void
tx_pr_unsent_abandoned(void *arg, const struct sctp_outq_unsent *u)
{
	const struct tx_pr_unsent *c = arg;

	c->a->stats->pr_abandoned.msgs[c->policy]++;
	c->a->stats->pr_abandoned.bytes[c->policy] += u->msg.len;
	tx_notify_failed(c->a, u->sid, u->ppid, u->msg.len, false, c->policy, u->context);
}

/*
 * §3.5 A2/A3, RFC 7496 §4: abandon what a policy gives up, before the
 * flush retransmits or sends anything: TTL messages whose lifetime is over
 * (looked for only once the earliest deadline passed) and, after chunks
 * were marked, RTX messages whose limit is used up. O(queued) when it
 * runs; never for an association that never queued a policy.
 */
static void
tx_pr_expire(struct sctp_assoc *a, struct assoc_run *run)
{
	struct sctp_assoc_tx *tx = a->tx;

	if (!tx->pr_used || (!run->pr_check && run->now_ns <= tx->pr_next))
		return;
	run->pr_check = false;
	struct sctp_rtxq_pr_result res;
	struct tx_pr_unsent ctx = { a, SCTP_PR_TTL };
	uint64_t next_q = UINT64_MAX;
	(void)sctp_rtxq_pr_expire(&tx->rtxq, &tx->env, run->now_ns, tx_pr_sent_abandoned, a,
				  &a->stats->pr_abandoned, &res);
	(void)sctp_outq_pr_expire(&tx->outq, run->now_ns, tx_pr_unsent_abandoned, &ctx, &next_q);
	(void)tx_skip(a);
	tx->pr_next = next_q < res.next_deadline ? next_q : res.next_deadline;
	if (res.msgs == 0)
		return;
	/* §6.3.2 R2 for the flight abandoned; C5 keeps one running while a FORWARD TSN is due. */
	for (unsigned i = 0; i < a->paths.n; i++)
		if ((res.flight_mask & (1u << i)) && sctp_rtxq_path_flight(&tx->rtxq, i) == 0)
			tx->path[i].t3_at = SCTP_TIME_NEVER;
	run->fwd_check = true;
}

/*
 * The never-sent last fragment of a message abandoned part way takes the
 * next TSN (sctp_rtxq_add_skip()), before any new chunk does. False while
 * the retransmission queue has no room: no new chunk may go either.
 */
static bool
tx_skip(struct sctp_assoc *a)
{
	struct sctp_assoc_tx *tx = a->tx;

	if (!tx->skip_due)
		return true;
	struct sctp_rtxq_pr pr = { .policy = tx->skip_policy };
	unsigned dp = sctp_paths_data_path(&a->paths);
	if (sctp_rtxq_add_skip(&tx->rtxq, &tx->env, tx->next_tsn, tx->skip_sid, tx->skip_ssn,
			       tx->skip_flags, (uint8_t)dp, &pr) != SCTP_RTXQ_ADD_OK)
		return false;
	tx->next_tsn++;
	tx->skip_due = false;
	return true;
}

/* Largest FORWARD TSN we build: what one 1500-byte packet carries. */
#define ASSOC_FWD_MAX_ENTRIES ((SCTP_ASSOC_TX_MAX - 20u - SCTP_COMMON_HDR_LEN - 8u) / 4u)

/*
 * §3.5 C1-C3, C5: after a SACK, a T3-rtx expiry or an abandonment, when
 * the Advanced.Peer.Ack.Point is ahead of the peer's cum (the chunk after
 * the Cumulative TSN Ack Point is abandoned), a FORWARD TSN with it, alone,
 * to the data path, and T3-rtx running there so that a lost one is sent
 * again. One per event, as Linux does: each SACK still behind the point
 * gets another.
 */
static void
tx_fwd_tsn(struct sctp_assoc *a, struct assoc_run *run)
{
	struct sctp_assoc_tx *tx = a->tx;

	if (!run->fwd_check)
		return;
	run->fwd_check = false;
	if (!(a->extensions & SCTP_COOKIE_EXT_FORWARD_TSN) || sctp_rtxq_empty(&tx->rtxq) ||
	    !(tx->env.pool->nodes[tx->rtxq.head].state & SCTP_RTXQ_S_ABANDONED))
		return;
	bool idata = tx->env.idata;
	struct sctp_forward_tsn_ientry ent[ASSOC_FWD_MAX_ENTRIES];
	unsigned dp = sctp_paths_data_path(&a->paths);
	uint16_t max = sctp_rtxq_fwd_max_entries(tx_pmdcs(a, dp), idata);
	struct sctp_rtxq_fwd f;
	if (max > ASSOC_FWD_MAX_ENTRIES)
		max = ASSOC_FWD_MAX_ENTRIES;
	if (!sctp_rtxq_fwd_tsn(&tx->rtxq, tx->env.pool, idata, ent, max, &f))
		return;
	_Alignas(8) uint8_t buf[SCTP_ASSOC_TX_MAX];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_packet_build_header(&w, a->local_port, a->peer_port, a->peer_vtag);
	if (idata) {
		/* RFC 8260 §2.3.1: I-FORWARD TSN, entries (stream, U, MID). */
		sctp_forward_tsn_build_ientries(&w, 0, f.new_cum_tsn, ent, f.n_entries);
	} else {
		struct sctp_forward_tsn_entry e4[ASSOC_FWD_MAX_ENTRIES];
		for (uint16_t i = 0; i < f.n_entries; i++)
			e4[i] = sctp_rtxq_fwd_entry(&ent[i]);
		sctp_forward_tsn_build_entries(&w, 0, f.new_cum_tsn, e4, f.n_entries);
	}
	if (!sctp_writer_ok(&w)) {
		assoc_count_drop(a, SCTP_ASSOC_DROP_TX_TOO_BIG);
		return;
	}
	struct sctp_addr dst = sctp_path_addr(sctp_paths_get(&a->paths, dp));
	a->ops->send(a->ctx, buf, w.off, assoc_src_for(a, &dst), &dst);
	a->stats->fwd_tsn_sent++;
	tx_t3_start(a, dp, run->now_ns, false);
}

/* §9.2 "outstanding data": queued or sent and not cumulatively acknowledged. */
bool
assoc_tx_outstanding(const struct sctp_assoc *a)
{
	return a->tx != NULL && (!sctp_outq_empty(&a->tx->outq) || !sctp_rtxq_empty(&a->tx->rtxq));
}

/* ---- Handlers ------------------------------------------------------------ */

/* §6.2.1: a SACK, in a state where data of ours may be outstanding. */
void
assoc_sf_sack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	if (a->tx == NULL) {
		emit_drop(o, SCTP_ASSOC_DROP_DATA_PATH);
		return;
	}
	emit(o, OP_SACK)->u.chunk = in->c;
}

/*
 * §9.2: SHUTDOWN in ESTABLISHED, SHUTDOWN-PENDING or SHUTDOWN-RECEIVED: its
 * Cumulative TSN Ack acknowledges our data, SHUTDOWN-RECEIVED; the SHUTDOWN
 * ACK leaves once nothing of ours is outstanding (assoc_tx_flush()).
 */
void
assoc_sf_shutdown_data(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_shutdown sd;

	(void)a;
	if (sctp_shutdown_parse(in->c, &sd) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	emit(o, OP_SHUTDOWN_CUM)->u.chunk = in->c;
	emit_state(o, SCTP_ASSOC_SHUTDOWN_RECEIVED);
}

/* §6.3.3: some path's T3-rtx deadline passed. */
void
assoc_tf_t3_rtx(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit(o, OP_T3);
}

/*
 * §9.2: the user's SHUTDOWN in ESTABLISHED: SHUTDOWN-PENDING, T5 bounds the
 * whole sequence; the SHUTDOWN leaves from the flush at the end of this
 * call, or later, once our data is all acknowledged.
 */
void
assoc_uf_shutdown_data(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)in;
	assoc_begin_shutdown(a, o);
}

/* The bundling delay ran out (ESTABLISHED): the flush after it holds nothing back. */
void
assoc_tf_bundle(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit(o, OP_BUNDLE_DUE);
}

/* The user's FLUSH: the flush that ends every user call does the work. */
void
assoc_uf_flush(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	(void)o;
}

/* The user's SEND in ESTABLISHED: the message joins the send queue. */
void
assoc_uf_send(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	emit(o, OP_PUSH)->u.user = in;
}

/* ---- The interpreter's part ---------------------------------------------- */

/*
 * The message's PR-SCTP policy as the send queue keeps it (pr->value made a
 * deadline for TTL), or reliable when the peer lacks PR-SCTP (RFC 3758
 * §3.3: nothing may be abandoned without a FORWARD TSN to say so).
 */
static int
tx_pr_policy(struct sctp_assoc *a, const struct assoc_run *run, const struct assoc_in *in,
	     struct sctp_outq_pr *pr)
{
	if (pr->policy > SCTP_PR_PRIO || (pr->policy == SCTP_PR_TTL && pr->value == 0))
		return -EINVAL;
	if (pr->policy == SCTP_PR_NONE)
		return 0;
	if (!(a->extensions & SCTP_COOKIE_EXT_FORWARD_TSN)) {
		a->counters->pr_unsupported++;
		pr->policy = SCTP_PR_NONE;
		pr->value = 0;
		return 0;
	}
	if (a->tx->env.pool->pr == NULL || tx_cfg(a)->outq_pool->pr == NULL)
		return -EOPNOTSUPP;
	if (pr->policy == SCTP_PR_TTL)
		pr->value = run->now_ns + (uint64_t)in->pr_value * 1000000u;
	return 0;
}

void
assoc_tx_push(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_in *in)
{
	struct sctp_assoc_tx *tx = a->tx;

	if (tx == NULL) {
		run->result = -EOPNOTSUPP;
		return;
	}
	if (in->msg == NULL || (in->context != 0 && tx->env.pool->ctx == NULL)) {
		run->result = -EINVAL;
		return;
	}
	uint8_t flags = (uint8_t)(in->flags & ~SCTP_SEND_MORE);
	struct sctp_outq_pr pr = { .policy = in->pr_policy, .value = in->pr_value };
	if (assoc_reconf_closed(tx, in->sid)) {
		run->result = -EAGAIN; /* RFC 6525 §5.1.2: until the peer answers our reset */
		return;
	}
	int r = tx_pr_policy(a, run, in, &pr);
	if (r == 0)
		r = sctp_outq_push_ctx(&tx->outq, in->sid, in->ppid, flags, in->msg, &pr,
				       in->context);
	if (r == -ENOBUFS && pr.policy == SCTP_PR_PRIO) {
		/*
		 * RFC 7496 §4: room made by abandoning queued messages of lower
		 * priority, as many bytes as the byte limit lacks (at least one
		 * message when the message limit is the one reached).
		 */
		struct tx_pr_unsent ctx = { a, SCTP_PR_PRIO };
		uint32_t free = tx->outq.max_bytes - tx->outq.queued_bytes;
		uint32_t need = in->msg->len > free ? in->msg->len - free : 1u;
		if (sctp_outq_pr_evict(&tx->outq, pr.value, need, tx_pr_unsent_abandoned, &ctx) !=
		    0)
			r = sctp_outq_push_ctx(&tx->outq, in->sid, in->ppid, flags, in->msg, &pr,
					       in->context);
	}
	run->result = r;
	if (r != 0)
		return;
	if (pr.policy != SCTP_PR_NONE) {
		tx->pr_used = true;
		if (pr.policy == SCTP_PR_TTL && pr.value < tx->pr_next)
			tx->pr_next = pr.value;
	}
	/* The queue took a hold of its own: the caller's reference ends here. */
	if (in->msg->handle != NULL)
		tx_cfg(a)->buf.release(tx_cfg(a)->buf.ctx, in->msg->handle);
	run->more = (in->flags & SCTP_SEND_MORE) != 0;
	if (tx->bundle_delay_ns != 0) {
		if (tx->hold_since == SCTP_TIME_NEVER)
			tx->hold_since = run->now_ns;
		if (flags & SCTP_SEND_SACK_NOW)
			tx->no_hold = true; /* RFC 7053: the sender wants an answer now */
	}
}

/* The association's T3-rtx timer follows the earliest path deadline. */
static void
tx_t3_sync(struct sctp_assoc *a)
{
	uint64_t next = SCTP_TIME_NEVER;

	/* Only paths in use run T3-rtx (paths.n <= tx->n_paths: assoc_tx_start()). */
	if (a->tx != NULL) {
		const struct sctp_tx_path *path = a->tx->path;
		for (unsigned i = 0, n = a->paths.n; i < n; i++)
			if (path[i].t3_at < next)
				next = path[i].t3_at;
	}
	a->timer_at[SCTP_ASSOC_T3_RTX] = next;
}

static void
tx_t3_start(struct sctp_assoc *a, unsigned i, uint64_t now_ns, bool restart)
{
	if (i >= a->paths.n)
		return;
	if (restart || a->tx->path[i].t3_at == SCTP_TIME_NEVER)
		a->tx->path[i].t3_at = now_ns + sctp_paths_get(&a->paths, i)->rto.rto_ns;
}

size_t
sctp_tx_flatten(uint8_t *out, size_t cap, const uint8_t *head, size_t head_len,
		const struct sctp_tx_seg *segs, unsigned n_segs)
{
	size_t len = head_len;

	for (unsigned i = 0; i < n_segs; i++)
		len += segs[i].hdr_len + segs[i].payload.len + segs[i].pad;
	if (len > cap)
		return 0;
	memcpy(out, head, head_len);
	size_t off = head_len;
	for (unsigned i = 0; i < n_segs; i++) {
		memcpy(out + off, segs[i].hdr, segs[i].hdr_len);
		off += segs[i].hdr_len;
		memcpy(out + off, segs[i].payload.data, segs[i].payload.len);
		off += segs[i].payload.len;
		memset(out + off, 0, segs[i].pad);
		off += segs[i].pad;
	}
	return len;
}

/* One packet being built: its head (common header, SACK) and DATA chunks. */
struct tx_pkt {
	_Alignas(8) uint8_t head[SCTP_ASSOC_TX_MAX];
	struct sctp_writer w;
	unsigned n;
	uint32_t room; /* bytes of chunks that still fit in the packet */
	struct sctp_tx_seg segs[ASSOC_TX_MAX_SEGS];
};

/*
 * Does the SACK owed go in a packet to path i? The delayed one always; the
 * one owed at once only if the packet goes where the DATA came from (§6.4:
 * SACKs go to the source of the DATA they acknowledge).
 */
static bool
tx_sack_rides(const struct sctp_assoc *a, const struct assoc_run *run, unsigned i)
{
	if (a->data_mem == NULL)
		return false;
	if (a->timer_at[SCTP_ASSOC_T_SACK] != SCTP_TIME_NEVER)
		return true;
	if (!run->sack_due || run->rx == NULL)
		return false;
	struct sctp_addr dst = sctp_path_addr(sctp_paths_get_const(&a->paths, i));
	return sctp_addr_eq(&dst, &run->rx->src);
}

/* The SACK owed at once found no DATA packet to ride on: alone, to the DATA's source. */
static void
tx_sack_alone(struct sctp_assoc *a, struct assoc_run *run)
{
	run->sack_due = false;
	assoc_sack_send(a, run, true);
}

/*
 * A fresh packet to path i; a SACK owed goes in first (§6.10 bundling).
 * need: bytes of the chunk the caller will put in first (0: unknown). When
 * the SACK and that chunk do not fit one packet — a full-sized DATA chunk
 * never does — the SACK leaves alone now: holding it for its timer would
 * hold the DATA too (the chunk is sized to a packet without a SACK), one
 * delayed-SACK interval (100 us in the data-center profile) per message of
 * a ping-pong or of traffic both ways.
 */
static void
tx_pkt_begin(struct sctp_assoc *a, struct assoc_run *run, struct tx_pkt *p, unsigned i,
	     uint32_t need)
{
	p->w = sctp_writer_make(p->head, sizeof(p->head));
	p->n = 0;
	sctp_packet_build_header(&p->w, a->local_port, a->peer_port, a->peer_vtag);
	p->room = tx_pmdcs(a, i);
	if (tx_sack_rides(a, run, i)) {
		size_t before = p->w.off;
		assoc_tx_sack(a, &p->w);
		size_t sack = p->w.off - before;
		bool fits = sack + (need != 0 ? need : 20u) <= p->room;
		if (!sctp_writer_ok(&p->w) || !fits) {
			p->w = sctp_writer_make(p->head, sizeof(p->head));
			sctp_packet_build_header(&p->w, a->local_port, a->peer_port, a->peer_vtag);
			if (sctp_writer_ok(&p->w) && need != 0)
				tx_sack_alone(a, run);
			return;
		}
		p->room -= (uint32_t)sack;
	}
}

/*
 * One chunk's header into the packet: DATA, or I-DATA when negotiated
 * (mid_hi << 16 | ssn the MID, ppid the PPID of a B fragment or the FSN of
 * any other, as the retransmission queue keeps them). Forced in line, as
 * before the I-DATA branch made it too big for gcc to choose it: the call
 * cost 50 instructions a message on the DATA path (callgrind,
 * bench_assoc_tx Small64).
 */
static inline __attribute__((always_inline)) void
tx_seg(const struct sctp_assoc *a, struct tx_pkt *p, uint32_t tsn, uint16_t sid, uint16_t ssn,
       uint16_t mid_hi, uint32_t ppid, uint8_t flags, const struct sctp_slice *payload)
{
	struct sctp_tx_seg *s = &p->segs[p->n++];
	struct sctp_writer w = sctp_writer_make(s->hdr, sizeof(s->hdr));

	if (assoc_idata(a)) {
		struct sctp_idata d = {
			.flags = flags,
			.sid = sid,
			.tsn = tsn,
			.mid = (uint32_t)mid_hi << 16 | ssn,
			.ppid_fsn = ppid,
			.payload_len = (uint16_t)payload->len,
		};
		sctp_idata_build_header(&w, &d);
	} else {
		struct sctp_data d = {
			.flags = flags,
			.sid = sid,
			.ssn = ssn,
			.tsn = tsn,
			.ppid = ppid,
			.payload_len = (uint16_t)payload->len,
		};
		sctp_data_build_header(&w, &d);
	}
	s->hdr_len = (uint8_t)w.off;
	s->payload = *payload;
	s->pad = (uint8_t)(SCTP_PAD4(payload->len) - payload->len);
}

/* Bytes of chunk header and fixed part the association's user data chunks take. */
static uint32_t
tx_chunk_hdr(const struct sctp_assoc *a)
{
	return assoc_idata(a) ? SCTP_OUTQ_IDATA_HDR : SCTP_OUTQ_DATA_HDR;
}

/*
 * frag_mtu: 0, or the path MTU a packet larger than it may be IP-fragmented
 * to (a DATA chunk sent before the path's MTU fell, which RFC 9260 §6.9
 * does not let us cut again: docs/PMTU.md); the callee reads it with
 * sctp_assoc_frag_mtu() during the call.
 */
static void
tx_pkt_send(struct sctp_assoc *a, struct assoc_run *run, struct tx_pkt *p, unsigned path,
	    uint16_t frag_mtu)
{
	struct sctp_addr dst = sctp_path_addr(sctp_paths_get(&a->paths, path));
	const struct sctp_addr *src = assoc_src_for(a, &dst);

	if (p->w.off > SCTP_COMMON_HDR_LEN) {
		/* One SACK per received packet: later packets of this flush carry none. */
		run->sack_due = false;
		assoc_sack_sent(a);
		a->stats->sacks_sent++;
		a->counters->sacks_bundled++;
	}
	a->counters->data_packets++;
	a->tx->sack_since_data = false;
	a->tx->frag_mtu = frag_mtu;
	if (a->ops->send_data != NULL) {
		a->ops->send_data(a->ctx, p->head, p->w.off, p->segs, p->n, src, &dst);
		a->tx->frag_mtu = 0;
		return;
	}
	_Alignas(8) uint8_t flat[ASSOC_TX_MTU_MAX];
	size_t len = sctp_tx_flatten(flat, sizeof(flat), p->head, p->w.off, p->segs, p->n);
	if (len == 0) {
		a->tx->frag_mtu = 0;
		assoc_count_drop(a, SCTP_ASSOC_DROP_TX_TOO_BIG);
		return;
	}
	a->ops->send(a->ctx, flat, len, src, &dst);
	a->tx->frag_mtu = 0;
}

/*
 * Retransmissions to path rp (§6.3.3 E3, §7.2.4 rule 3): packets of the
 * earliest marked chunks while cwnd allows, or one packet regardless of it
 * when a fast retransmit is owed.
 *
 * A chunk larger than the path's PMDCS (cut before its MTU fell, or for a
 * path with a larger one) cannot be cut again: its TSN is fixed (RFC 9260
 * §6.9). It goes alone, and the data plane may IP-fragment that packet at
 * the source to the path's MTU (tx_pkt_send()'s frag_mtu), as RFC 9260
 * §7.3 allows and FreeBSD does: one oversized packet per such chunk, until
 * they are all acknowledged.
 */
static bool
tx_flush_rtx(struct sctp_assoc *a, struct assoc_run *run, unsigned rp, struct tx_pkt *p)
{
	struct sctp_assoc_tx *tx = a->tx;
	struct sctp_cc_window w = sctp_cc_window(&tx->path[rp].cc, tx->cc,
						 sctp_rtxq_path_flight(&tx->rtxq, rp), false);
	uint32_t sent = 0, pkts = 0;
	bool spent = false;

	while (sctp_rtxq_marked(&tx->rtxq) != 0 &&
	       (tx->fast_rtx || sctp_cc_window_allows(&w, sent, pkts))) {
		struct sctp_rtxq_rtx r[ASSOC_TX_MAX_SEGS];
		uint32_t bytes = 0;
		uint16_t frag_mtu = 0;
		tx_pkt_begin(a, run, p, rp, 0);
		unsigned n = sctp_rtxq_take_rtx(&tx->rtxq, &tx->env, rp, p->room, r,
						ASSOC_TX_MAX_SEGS, &bytes);
		if (n == 0 && p->w.off == SCTP_COMMON_HDR_LEN) {
			/*
			 * A whole packet's room and nothing taken: every chunk still
			 * marked has its retransmissions used up
			 * (sctp_rtxq_take_rtx()), or the first is larger than the
			 * path's PMDCS: alone, IP-fragmented.
			 */
			uint32_t need = sctp_rtxq_next_rtx_bytes(&tx->rtxq, &tx->env);
			if (need == 0) {
				spent = true;
				break;
			}
			frag_mtu = sctp_paths_get(&a->paths, rp)->mtu;
			n = sctp_rtxq_take_rtx(&tx->rtxq, &tx->env, rp, need, r, 1, &bytes);
		}
		if (n == 0)
			break; /* a SACK took the room: the chunk goes in the next flush */
		for (unsigned k = 0; k < n; k++)
			tx_seg(a, p, r[k].tsn, r[k].sid, r[k].ssn, r[k].mid_hi, r[k].ppid,
			       r[k].flags, &r[k].payload);
		if (sctp_spurious_open(&tx->spur))
			for (unsigned k = 0; k < n; k++)
				sctp_spurious_on_rtx(&tx->spur, r[k].tsn, run->now_ns,
						     sctp_paths_get(&a->paths, rp)->rto.rto_ns);
		a->stats->data_rtx += n;
		if (frag_mtu != 0)
			a->counters->pmtu_frag_rtx++;
		tx_pkt_send(a, run, p, rp, frag_mtu);
		tx_t3_start(a, rp, run->now_ns, false);
		tx->fast_rtx = false;
		sent += bytes;
		pkts++;
	}
	tx->fast_rtx = false;
	return spent;
}

/* Room for new chunks: the retransmission queue's pool and cap. */
static unsigned
tx_rtxq_room(const struct sctp_assoc_tx *tx)
{
	uint32_t room = tx->env.pool->n_free;

	if (tx->env.max_chunks != 0) {
		uint32_t used = sctp_rtxq_count(&tx->rtxq, tx->env.pool);
		uint32_t left = used < tx->env.max_chunks ? tx->env.max_chunks - used : 0;
		if (left < room)
			room = left;
	}
	return room < ASSOC_TX_MAX_SEGS ? room : ASSOC_TX_MAX_SEGS;
}

/*
 * Hold the next packet of new data back? Only with a bundling delay, in
 * ESTABLISHED, no SACK_NOW message queued, less than a full packet queued
 * (sctp_outq_wire_bytes() against PMDCS), and the oldest queued message
 * younger than the delay.
 */
static bool
tx_hold(const struct sctp_assoc *a, const struct assoc_run *run)
{
	const struct sctp_assoc_tx *tx = a->tx;

	return tx->bundle_delay_ns != 0 && !tx->no_hold && !run->bundle_due &&
	       a->state == SCTP_ASSOC_ESTABLISHED &&
	       sctp_outq_wire_bytes(&tx->outq) < tx_pmdcs(a, sctp_paths_data_path(&a->paths)) &&
	       tx->hold_since != SCTP_TIME_NEVER &&
	       run->now_ns - tx->hold_since < tx->bundle_delay_ns;
}

/*
 * After a flush with a bundling delay: an empty queue forgets its age; a
 * tail held back gets the timer at the oldest message's deadline; anything
 * else (windows closed, or sent) needs none.
 */
static void
tx_bundle_sync(struct sctp_assoc *a, const struct assoc_run *run)
{
	struct sctp_assoc_tx *tx = a->tx;
	uint64_t at = SCTP_TIME_NEVER;

	if (sctp_outq_empty(&tx->outq)) {
		tx->hold_since = SCTP_TIME_NEVER;
		tx->no_hold = false;
	} else if (tx_hold(a, run)) {
		at = tx->hold_since + tx->bundle_delay_ns;
	}
	a->timer_at[SCTP_ASSOC_T_BUNDLE] = at;
}

/*
 * New DATA to the data path (§6.1 A-D): while cwnd with Max.Burst allows,
 * the peer's rwnd has room (or, at zero window, one chunk when nothing is
 * in flight: the §6.1 A probe), and the retransmission queue has room.
 */
static void
tx_flush_new(struct sctp_assoc *a, struct assoc_run *run, struct tx_pkt *p)
{
	struct sctp_assoc_tx *tx = a->tx;
	unsigned dp = sctp_paths_data_path(&a->paths);
	uint32_t hdr = tx_chunk_hdr(a);
	/* New messages are cut to the data path's MTU (docs/PMTU.md "Fragmentation"). */
	uint32_t max_payload = (uint32_t)tx_pmdcs(a, dp) - hdr;
	uint32_t max_seg = assoc_profile(a)->max_seg; /* RFC 6458 SCTP_MAXSEG */
	if (max_seg != 0 && max_seg < max_payload)
		max_payload = max_seg;
	struct sctp_cc_window w = sctp_cc_window(&tx->path[dp].cc, tx->cc,
						 sctp_rtxq_path_flight(&tx->rtxq, dp), true);
	uint32_t sent = 0, pkts = 0;

	while (!sctp_outq_empty(&tx->outq) && sctp_cc_window_allows(&w, sent, pkts)) {
		uint32_t rwnd = sctp_rtxq_rwnd(&tx->rtxq);
		unsigned max = tx_rtxq_room(tx);
		if (max == 0 || tx_hold(a, run))
			break;
		uint32_t next = sctp_outq_peek_len(&tx->outq, max_payload);
		tx_pkt_begin(a, run, p, dp, next);
		uint32_t room = p->room, rwnd_room = rwnd + hdr + 3u;
		if (next > rwnd_room) {
			if (sctp_rtxq_flight(&tx->rtxq) != 0)
				break;
			max = 1; /* §6.1 A: with nothing in flight, one chunk always may go */
		} else if (rwnd_room < room) {
			room = rwnd_room;
		}
		struct sctp_outq_chunk ch[ASSOC_TX_MAX_SEGS];
		uint32_t used = 0;
		unsigned n = sctp_outq_fill(&tx->outq, max_payload, room, ch, max, &used);
		if (n == 0)
			break;
		for (unsigned k = 0; k < n; k++) {
			/* I-DATA: the wire's PPID/FSN field, the MID in two halves. */
			bool idata = tx->env.idata;
			bool b = (ch[k].flags & SCTP_DATA_FLAG_B) != 0;
			struct sctp_rtxq_chunk rc = {
				.tsn = tx->next_tsn,
				.ppid = idata && !b ? ch[k].fsn : ch[k].ppid,
				.sid = ch[k].sid,
				.ssn = idata ? (uint16_t)ch[k].mid : ch[k].ssn,
				.mid_hi = idata ? (uint16_t)(ch[k].mid >> 16) : 0,
				.flags = ch[k].flags,
				.path = (uint8_t)dp,
				.payload = ch[k].slice,
				.context = ch[k].context,
			};
			/*
			 * Room was checked first, so only a bug fails here; the
			 * chunk is then dropped (its reference released) rather
			 * than sent without a retransmission queue entry.
			 */
			struct sctp_rtxq_pr pr = {
				.policy = ch[k].pr_policy,
				.value = ch[k].pr_value,
				.ppid = ch[k].ppid,
			};
			if (sctp_rtxq_add_pr(&tx->rtxq, &tx->env, &rc, run->now_ns, &pr) !=
			    SCTP_RTXQ_ADD_OK) {
				if (ch[k].slice.handle != NULL)
					tx_cfg(a)->buf.release(tx_cfg(a)->buf.ctx,
							       ch[k].slice.handle);
				continue;
			}
			tx_seg(a, p, rc.tsn, rc.sid, rc.ssn, rc.mid_hi, rc.ppid, rc.flags,
			       &ch[k].slice);
			tx->next_tsn++;
		}
		if (p->n == 0)
			break;
		a->stats->data_sent += p->n;
		tx_pkt_send(a, run, p, dp, 0);
		sctp_paths_on_data_sent(&a->paths, dp, run->now_ns);
		tx_t3_start(a, dp, run->now_ns, false);
		sent += used;
		pkts++;
	}
}

/*
 * F-RTO step 2b (sctp/spurious.h): new data in place of the marked chunks,
 * as cwnd allows. The hold lasts only while something in flight can bring
 * step 3's SACK; with nothing (no new data could go after all: PR-SCTP
 * abandoned it, the retransmission queue is full), it ends here and the
 * marked chunks go in this flush.
 */
static void
tx_flush_frto(struct sctp_assoc *a, struct assoc_run *run, struct tx_pkt *p)
{
	if (tx_skip(a))
		tx_flush_new(a, run, p);
	if (sctp_rtxq_flight(&a->tx->rtxq) == 0)
		sctp_frto_release(&a->tx->spur);
}

/* §9.2: once nothing is outstanding, SHUTDOWN-PENDING and SHUTDOWN-RECEIVED move on. */
static void
tx_shutdown_step(const struct sctp_assoc *a, struct assoc_cmds *q)
{
	if (assoc_tx_outstanding(a))
		return;
	if (a->state == SCTP_ASSOC_SHUTDOWN_PENDING) {
		emit_send(q, PKT_SHUTDOWN);
		emit_count(q, OP_SHUTDOWN_RTX, 0);
		emit_timer_start(q, SCTP_ASSOC_T2_SHUTDOWN);
		emit_state(q, SCTP_ASSOC_SHUTDOWN_SENT);
	} else if (a->state == SCTP_ASSOC_SHUTDOWN_RECEIVED) {
		emit_send(q, PKT_SHUTDOWN_ACK);
		emit_count(q, OP_SHUTDOWN_RTX, 0);
		emit_timer_start(q, SCTP_ASSOC_T2_SHUTDOWN);
		emit_state(q, SCTP_ASSOC_SHUTDOWN_ACK_SENT);
	}
}

void
assoc_tx_flush(struct sctp_assoc *a, struct assoc_run *run, struct assoc_cmds *q)
{
	if (run->halted)
		return;
	if (a->state != SCTP_ASSOC_ESTABLISHED && a->state != SCTP_ASSOC_SHUTDOWN_PENDING &&
	    a->state != SCTP_ASSOC_SHUTDOWN_RECEIVED)
		return;
	if (a->tx != NULL) {
		struct tx_pkt p;
		tx_pr_expire(a, run);
		tx_fwd_tsn(a, run);
		unsigned rp = sctp_paths_rtx_path(&a->paths, sctp_paths_data_path(&a->paths));
		/*
		 * New data only once nothing is left to retransmit. Spent: every
		 * chunk still marked has its retransmissions used up. With I-DATA
		 * their message may wait for its E to be sent before it can be
		 * abandoned (sctp/rtxq.h, "PR-SCTP"): new data sends that E.
		 */
		bool spent = false;
		if (sctp_frto_holding(&a->tx->spur) && !run->more)
			tx_flush_frto(a, run, &p);
		if (sctp_rtxq_marked(&a->tx->rtxq) != 0 && !sctp_frto_holding(&a->tx->spur))
			spent = tx_flush_rtx(a, run, rp, &p);
		if (spent && !a->tx->env.idata) {
			/*
			 * With DATA their messages are abandoned now (RFC 7496
			 * §4), whatever marked them: left marked they would hold
			 * every new chunk back until some later T3-rtx expiry or
			 * fast retransmit asked the policy, and with nothing in
			 * flight none comes.
			 */
			run->pr_check = true;
			tx_pr_expire(a, run);
			tx_fwd_tsn(a, run);
		}
		if ((sctp_rtxq_marked(&a->tx->rtxq) == 0 || (spent && a->tx->env.idata)) &&
		    !run->more && tx_skip(a))
			tx_flush_new(a, run, &p);
		tx_t3_sync(a);
		if (a->tx->bundle_delay_ns != 0)
			tx_bundle_sync(a, run);
	}
	if (run->sack_due)
		tx_sack_alone(a, run);
	if (run->shutdown_step)
		tx_shutdown_step(a, q);
	run->shutdown_step = false;
}

/* What a SACK (or SHUTDOWN's cum ack) did: cc, RTO, paths, T3 (docs/CC.md order). */
static void
tx_after_ack(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_rtxq_sack_result *r,
	     bool fr_before, struct assoc_cmds *q)
{
	struct sctp_assoc_tx *tx = a->tx;
	const struct sctp_profile *prof = assoc_profile(a);
	uint64_t ev = 0;

	a->stats->sacks_in++;
	tx->sack_since_data = true;
	run->shutdown_step = true;
	(void)sctp_cc_recovery_on_sack(&tx->fr, r->cum_tsn);
	for (unsigned i = 0; i < a->paths.n; i++) {
		uint8_t bit = (uint8_t)(1u << i);
		if (r->acked_mask & bit) {
			struct sctp_cc_sack ev_cc = {
				.bytes_acked = r->path[i].bytes_acked,
				.flight_before = r->path[i].flight_before,
				.flight_after = r->path[i].flight_after,
				.cum_tsn_advanced = r->cum_advanced,
				.in_fast_recovery = sctp_cc_recovery_active(&tx->fr),
			};
			sctp_cc_on_sack(&tx->path[i].cc, tx->cc, &ev_cc);
			ev |= sctp_paths_on_data_acked(&a->paths, prof, i, run->now_ns);
		}
		if (r->rtt_mask & bit)
			sctp_rto_sample(&sctp_paths_get(&a->paths, i)->rto, prof,
					r->path[i].rtt_ns);
	}
	if (r->fast_rtx_mask != 0) {
		a->stats->fast_retransmits++;
		sctp_spurious_cancel(&tx->spur); /* a loss the peer reported: no undo */
		for (unsigned i = 0; i < a->paths.n; i++)
			if (r->fast_rtx_mask & (1u << i))
				sctp_cc_on_fast_retransmit(&tx->path[i].cc, tx->cc, fr_before);
		(void)sctp_cc_recovery_enter(&tx->fr, r->highest_sent);
		tx->fast_rtx = true;
	}
	for (unsigned i = 0; i < a->paths.n; i++) {
		uint8_t bit = (uint8_t)(1u << i);
		if (r->t3_stop_mask & bit)
			tx->path[i].t3_at = SCTP_TIME_NEVER; /* §6.3.2 R2 */
		else if (r->t3_restart_mask & bit)
			tx_t3_start(a, i, run->now_ns, true); /* R3 */
		if (r->t3_start_mask & bit)
			tx_t3_start(a, i, run->now_ns, false); /* R4 */
	}
	tx_t3_sync(a);
	if (ev != 0)
		emit_path_events(q, ev);
}

static void
tx_sack_verdict(struct sctp_assoc *a, struct assoc_run *run, enum sctp_rtxq_sack_verdict v,
		const struct sctp_rtxq_sack_result *r, bool fr_before, struct assoc_cmds *q)
{
	if (sctp_rtxq_sack_verdict_aborts(v)) {
		/* RFC 9260 §12.4: a SACK of a TSN never sent. */
		emit_abort(a, q, SCTP_CAUSE_PROTOCOL_VIOLATION, SCTP_ASSOC_REASON_PROTOCOL, 0);
		return;
	}
	if (v == SCTP_RTXQ_SACK_OLD) {
		a->counters->sacks_old++;
		return;
	}
	if (v == SCTP_RTXQ_SACK_GAP_ORDER) {
		a->counters->sacks_gap_order++;
		return;
	}
	tx_after_ack(a, run, r, fr_before, q);
	if (a->tx->pr_used) {
		run->fwd_check = true; /* §3.5 C1-C3 after every SACK */
		if (r->fast_rtx_mask != 0)
			run->pr_check = true;
	}
}

/*
 * §6.1 A, §6.2: the SACK opened the window while the probe it had already
 * answered (so dropped: a receiver at zero window takes no new TSN) is
 * still the only chunk in flight. It goes again in this input's flush,
 * ahead of the new data the window now lets go, instead of at its T3-rtx
 * deadline, which probing has backed off towards RTO.Max: until it arrives
 * the receiver can deliver nothing sent after it on its stream. The path's
 * T3-rtx stops (§6.3.2 R2: nothing outstanding there); the retransmission
 * starts it again where it goes.
 */
static void
tx_window_reopened(struct sctp_assoc *a, uint32_t probe)
{
	struct sctp_assoc_tx *tx = a->tx;
	int path = sctp_rtxq_window_reopened(&tx->rtxq, &tx->env, probe);

	if (path < 0)
		return;
	if (sctp_rtxq_path_flight(&tx->rtxq, (unsigned)path) == 0)
		tx->path[path].t3_at = SCTP_TIME_NEVER;
	tx_t3_sync(a);
}

/* New data to send in place of held retransmissions (F-RTO step 2b)? */
static bool
tx_frto_can_send_new(const struct sctp_assoc *a)
{
	const struct sctp_assoc_tx *tx = a->tx;

	return a->state == SCTP_ASSOC_ESTABLISHED && !sctp_outq_empty(&tx->outq) &&
	       sctp_rtxq_rwnd(&tx->rtxq) > 0 && tx_rtxq_room(tx) > 0;
}

/*
 * The SACK against the open T3-rtx episode (sctp/spurious.h): F-RTO's steps
 * 2 and 3 from its Cumulative TSN Ack, then its Duplicate TSNs against the
 * chunks the expiry retransmitted. Either detector may find the timeout was
 * a stall: its cwnd cut and RTO back-off are undone, and what F-RTO held
 * goes back in flight, its originals on their way. The Duplicate TSNs are
 * read here only, and only while an episode is open.
 */
static void
tx_spurious_check(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_sack *s,
		  const struct sctp_rtxq_sack_result *r)
{
	struct sctp_assoc_tx *tx = a->tx;
	unsigned path = tx->spur.path;
	bool held = sctp_frto_holding(&tx->spur);

	bool can_new = assoc_profile(a)->frto && tx_frto_can_send_new(a);
	enum sctp_frto_verdict f =
		sctp_frto_on_sack(&tx->spur, r->cum_tsn, r->cum_advanced, s->n_dups > 0, can_new);
	/* The new data goes in this flush, whatever the bundling delay. */
	if (f == SCTP_FRTO_HOLD)
		tx->no_hold = true;
	for (uint16_t i = 0; i < s->n_dups; i++)
		sctp_spurious_on_dup(&tx->spur, sctp_sack_dup_tsn(s, i));
	bool undo = f == SCTP_FRTO_SPURIOUS;
	if (!undo)
		undo = sctp_spurious_on_sack(&tx->spur, r->cum_tsn, run->now_ns) ==
		       SCTP_SPURIOUS_UNDO;
	if (!undo || path >= a->paths.n)
		return;
	a->stats->t3_spurious++;
	sctp_spurious_undo(&tx->spur, &tx->path[path].cc, &sctp_paths_get(&a->paths, path)->rto);
	if (!held)
		return;
	a->stats->t3_rtx_saved += sctp_rtxq_unmark_t3(&tx->rtxq, &tx->env, path, NULL);
	/* §6.3.2 R1: what is back in flight runs under T3-rtx. */
	if (sctp_rtxq_path_flight(&tx->rtxq, path) != 0)
		tx_t3_start(a, path, run->now_ns, false);
	tx_t3_sync(a);
}

void
assoc_rx_sack(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_chunk *c,
	      struct assoc_cmds *q)
{
	struct sctp_assoc_tx *tx = a->tx;
	struct sctp_sack s;
	struct sctp_rtxq_sack_result r;

	if (tx == NULL)
		return;
	if (sctp_sack_parse(c, &s) != SCTP_PERR_OK) {
		assoc_count_drop(a, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		run->stop = true;
		return;
	}
	/* A probe the peer already answered without taking it (§6.1 A). */
	uint32_t probe = 0;
	bool probing =
		tx->sack_since_data && sctp_rtxq_window_probe(&tx->rtxq, tx->env.pool, &probe) >= 0;
	bool fr = sctp_cc_recovery_active(&tx->fr);
	enum sctp_rtxq_sack_verdict v =
		sctp_rtxq_on_sack(&tx->rtxq, &tx->env, &s, fr, run->now_ns, &r);
	tx_sack_verdict(a, run, v, &r, fr, q);
	if (probing && v == SCTP_RTXQ_SACK_OK)
		tx_window_reopened(a, probe);
	if (v == SCTP_RTXQ_SACK_OK && sctp_spurious_open(&tx->spur))
		tx_spurious_check(a, run, &s, &r);
}

/* §9.2: the SHUTDOWN's Cumulative TSN Ack, a SACK without gap blocks. */
void
assoc_rx_shutdown_cum(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_chunk *c,
		      struct assoc_cmds *q)
{
	struct sctp_assoc_tx *tx = a->tx;
	struct sctp_shutdown sd;
	struct sctp_rtxq_sack_result r;

	if (tx == NULL || sctp_shutdown_parse(c, &sd) != SCTP_PERR_OK)
		return;
	bool fr = sctp_cc_recovery_active(&tx->fr);
	enum sctp_rtxq_sack_verdict v =
		sctp_rtxq_on_shutdown_cum(&tx->rtxq, &tx->env, sd.cum_tsn, run->now_ns, &r);
	tx_sack_verdict(a, run, v, &r, fr, q);
}

/*
 * §6.3.3: T3-rtx expired on each path whose deadline passed: its chunks
 * marked (E3), cwnd to one PMDCS (E1, §7.2.3), Fast Recovery over, the RTO
 * backed off and errors counted (E2, §8.1, §8.2: maybe failover or
 * COMMUNICATION LOST). The flush then retransmits to the rtx path and
 * restarts T3 there.
 *
 * A zero window probe (§6.1 A: the one chunk in flight, more than the
 * peer's window) that the peer answered with a SACK since it last went out
 * is no loss: the receiver dropped it because its window is still closed,
 * "for an indefinite time" if its application is slow. Its expiry marks it
 * and backs the RTO off, so probes go at exponentially growing intervals
 * up to RTO.Max, but counts no error on the path or the association
 * ("SHOULD NOT increment the error counter") and leaves cwnd alone ("Zero
 * window probing does not affect the calculation of cwnd"). A probe
 * unanswered since it went out counts as any expiry does: a peer that
 * stopped answering is still given up after Association.Max.Retrans.
 */
void
assoc_tx_t3(struct sctp_assoc *a, struct assoc_run *run, struct assoc_cmds *q)
{
	struct sctp_assoc_tx *tx = a->tx;

	if (tx == NULL)
		return;
	for (unsigned i = 0; i < a->paths.n; i++) {
		if (tx->path[i].t3_at > run->now_ns)
			continue;
		tx->path[i].t3_at = SCTP_TIME_NEVER;
		a->stats->t3_expiries++;
		run->pr_check = run->fwd_check = tx->pr_used; /* RFC 7496 §4; §3.5 C5 */
		bool probe = tx->sack_since_data &&
			     sctp_rtxq_window_probe(&tx->rtxq, tx->env.pool, NULL) == (int)i;
		(void)sctp_rtxq_on_t3_expiry(&tx->rtxq, &tx->env, i, NULL);
		sctp_cc_recovery_on_t3(&tx->fr);
		if (probe) {
			a->counters->zwp_expiries++;
			sctp_paths_on_probe_expiry(&a->paths, assoc_profile(a), i);
			continue;
		}
		sctp_spurious_on_t3(&tx->spur, i, &tx->path[i].cc,
				    &sctp_paths_get(&a->paths, i)->rto,
				    !sctp_rtxq_rtx_outstanding(&tx->rtxq),
				    sctp_rtxq_highest_sent(&tx->rtxq, tx->env.pool));
		sctp_cc_on_t3_expiry(&tx->path[i].cc, tx->cc);
		assoc_pmtu_t3(a, i);
		uint64_t ev = sctp_paths_on_t3_expiry(&a->paths, assoc_profile(a), i, run->now_ns);
		tx_t3_sync(a);
		if (ev != 0)
			emit_path_events(q, ev);
		if (ev & SCTP_PATHS_EV_COMM_LOST) {
			/* §8.1: the association ends; the other paths' expiries no longer matter.
			 */
			emit(q, OP_HALT);
			return;
		}
	}
	tx_t3_sync(a);
}

void
assoc_tx_move(struct sctp_assoc *a, void *mem, uint16_t new_out)
{
	struct sctp_assoc_tx *tx = mem;
	struct sctp_tx_path *path =
		(struct sctp_tx_path *)(void *)((uint8_t *)mem + assoc_align8(sizeof(*tx)));
	struct sctp_outq_stream *streams =
		(struct sctp_outq_stream *)(void *)(path + a->tx->n_paths);

	memcpy(tx, a->tx, sizeof(*tx));
	memcpy(path, a->tx->path, tx->n_paths * sizeof(*path));
	tx->path = path;
	(void)sctp_outq_grow(&tx->outq, streams, new_out); /* new_out >= the count: never fails */
	a->tx = tx;
}

void
assoc_tx_reset(struct sctp_assoc *a, uint32_t next_tsn)
{
	struct sctp_assoc_tx *tx = a->tx;

	for (uint16_t i = 0; i < tx->outq.n_streams; i++)
		(void)sctp_outq_reset_stream(&tx->outq, i); /* the caller saw it empty */
	sctp_rtxq_init(&tx->rtxq, next_tsn, sctp_rtxq_rwnd(&tx->rtxq));
	tx->next_tsn = next_tsn;
	sctp_cc_recovery_init(&tx->fr);
	sctp_spurious_cancel(&tx->spur); /* the TSNs it follows start again */
}

/*
 * The scheduler and the streams' parameters (RFC 8260 §3): plain settings
 * of the send queue, no input to the state machine, so these calls do not
 * go through the interpreter; the next flush serves by them.
 */
int
sctp_assoc_set_sched(struct sctp_assoc *a, unsigned sched)
{
	if (a->tx == NULL || a->state == SCTP_ASSOC_CLOSED)
		return -ENOTCONN;
	return sctp_outq_set_sched(&a->tx->outq, sched);
}

int
sctp_assoc_sched(const struct sctp_assoc *a)
{
	if (a->tx == NULL || a->state == SCTP_ASSOC_CLOSED)
		return -ENOTCONN;
	return a->tx->outq.sched;
}

int
sctp_assoc_set_stream_param(struct sctp_assoc *a, uint16_t sid, uint16_t value)
{
	if (a->tx == NULL || a->state == SCTP_ASSOC_CLOSED)
		return -ENOTCONN;
	return sctp_outq_set_stream_param(&a->tx->outq, sid, value);
}

int
sctp_assoc_stream_param(const struct sctp_assoc *a, uint16_t sid)
{
	if (a->tx == NULL || a->state == SCTP_ASSOC_CLOSED)
		return -ENOTCONN;
	return sctp_outq_stream_param(&a->tx->outq, sid);
}
