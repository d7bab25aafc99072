/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association's interpreter: the one place that changes the
 * association, builds control packets (RFC 9260 §3.3, §8.5.1 for their
 * tags) and calls the user. It carries out the commands the handlers emit
 * (sctp/assoc_internal.h).
 *
 * The flow. assoc_apply() runs a handler's command list in order. A
 * command of the data path hands its input to the receive or send logic
 * (assoc_data.c, assoc_send.c), which works the data-path modules and
 * sends DATA and SACK packets itself, but emits whatever else it decides
 * (an ABORT, an ERROR, a SHUTDOWN and its timer and state, path events)
 * into a follow-up queue instead of calling back in here: the loop drains
 * that queue, follow-ups of follow-ups included, right after the command
 * that filled it and before the next one, as Linux's sm_sideeffect.c
 * queues side effects rather than recursing. So every change has one
 * writer at a time, the calls run one way (interpreter -> send and receive
 * logic -> modules), and the effects keep the order the handler asked for.
 * assoc_apply_end() does the same for the work every input ends with: the
 * packet's SACK decision and the flush.
 */
#include <errno.h>
#include <string.h>

#include "sctp/assoc_internal.h"

/* §9.2: SHUTDOWN carries the last in-sequence TSN received. */
static uint32_t
assoc_cum_tsn_ack(const struct sctp_assoc *a)
{
	return a->data_mem != NULL ? sctp_tsn_map_cum(&a->rx_tsn) : a->peer_initial_tsn - 1u;
}

/*
 * Where a control packet of ours goes: the data path, the primary while it
 * is active, else the alternate the path set chose (§6.4). DATA and its
 * retransmissions pick their own path (assoc_send.c), SACKs theirs
 * (assoc_sack_send()).
 */
static struct sctp_addr
assoc_path_dst(const struct sctp_assoc *a)
{
	return sctp_path_addr(sctp_assoc_data_path(a));
}

static struct sctp_rto *
assoc_data_rto(struct sctp_assoc *a)
{
	return &sctp_paths_get(&a->paths, a->paths.current)->rto;
}

static uint32_t
assoc_rnd32(const struct sctp_assoc *a)
{
	return a->ep->cfg.random32(a->ep->cfg.ctx);
}

/* RFC 9260 §6.3: T1 and T2 run for the RTO; T5 for 5 x RTO.Max (§9.2). */
static uint64_t
assoc_timer_duration(const struct sctp_assoc *a, enum sctp_assoc_timer t)
{
	const struct sctp_profile *p = assoc_profile(a);
	uint64_t rto = sctp_assoc_data_path(a)->rto.rto_ns;

	if (t == SCTP_ASSOC_T5_GUARD)
		return 5u * p->rto_max_ns;
	/* RFC 6458 sinit_max_init_timeo: the handshake's back-off stops there. */
	if ((t == SCTP_ASSOC_T1_INIT || t == SCTP_ASSOC_T1_COOKIE) && p->max_init_timeo_ns != 0 &&
	    rto > p->max_init_timeo_ns)
		return p->max_init_timeo_ns;
	return rto;
}

/* Our INIT's optional parameters: addresses, preservative, extensions. */
static void
assoc_tx_init_params(const struct sctp_assoc *a, struct sctp_writer *w)
{
	const struct sctp_endpoint_config *cfg = &a->ep->cfg;

	/* One address is the packet's own source: listing it adds nothing. */
	for (uint8_t i = 0; cfg->n_addrs > 1 && i < cfg->n_addrs; i++) {
		struct sctp_param_addr pa = {
			.type = cfg->addrs[i].family == SCTP_ADDR_V4 ? SCTP_PARAM_IPV4_ADDR
								     : SCTP_PARAM_IPV6_ADDR,
		};
		memcpy(pa.addr, cfg->addrs[i].bytes, sizeof(pa.addr));
		sctp_param_addr_build(w, &pa);
	}
	if (a->hs->preservative_ms != 0) {
		struct sctp_param_cookie_preservative cp = { a->hs->preservative_ms };
		sctp_param_cookie_preservative_build(w, &cp);
	}
	sctp_cookie_ext_params_build(w, cfg->extensions, cfg->zero_checksum_edmid);
}

/* RFC 9260 §3.3.2, §5.1 A: our INIT. */
static void
assoc_tx_init(const struct sctp_assoc *a, struct sctp_writer *w)
{
	const struct sctp_profile *prof = assoc_profile(a);
	struct sctp_init init = {
		.type = SCTP_CHUNK_INIT,
		.init_tag = a->local_vtag,
		.a_rwnd = a->ep->cfg.a_rwnd,
		.os = prof->out_streams,
		.mis = prof->max_in_streams,
		.initial_tsn = a->local_initial_tsn,
	};
	size_t off = sctp_init_build_begin(w, &init);
	assoc_tx_init_params(a, w);
	sctp_init_build_end(w, off);
}

/* RFC 9260 §5.1 C: COOKIE ECHO first, then the ERROR of §3.2.2 if any. */
static void
assoc_tx_cookie_echo(const struct sctp_assoc *a, struct sctp_writer *w)
{
	struct sctp_cookie ce = {
		.type = SCTP_CHUNK_COOKIE_ECHO,
		.cookie = a->hs->cookie,
		.cookie_len = a->hs->cookie_len,
	};
	sctp_cookie_build(w, &ce);
	if (a->hs->report_len == 0)
		return;
	struct sctp_error err = { 0 };
	size_t off = sctp_error_build_begin(w, &err);
	struct sctp_cause_unrecognized_params u = { a->hs->report, a->hs->report_len };
	sctp_cause_unrecognized_params_build(w, &u);
	sctp_error_build_end(w, off);
}

static void
assoc_tx_abort_cause(const struct assoc_send *s, struct sctp_writer *w)
{
	static const uint16_t state_cookie = SCTP_PARAM_STATE_COOKIE;

	switch (s->cause) {
	case SCTP_CAUSE_USER_INITIATED_ABORT: {
		struct sctp_cause_user_abort u = { s->view, s->view_len };
		sctp_cause_user_abort_build(w, &u);
		break;
	}
	case SCTP_CAUSE_INVALID_MANDATORY_PARAM:
		sctp_cause_invalid_mandatory_param_build(w);
		break;
	case SCTP_CAUSE_MISSING_MANDATORY_PARAM: {
		struct sctp_cause_missing_param m = { { NULL, &state_cookie, 1 } };
		sctp_cause_missing_param_build(w, &m);
		break;
	}
	case SCTP_CAUSE_UNRESOLVABLE_ADDR: {
		struct sctp_cause_unresolvable_addr u = { s->view, s->view_len };
		sctp_cause_unresolvable_addr_build(w, &u);
		break;
	}
	case SCTP_CAUSE_OUT_OF_RESOURCE:
		sctp_cause_out_of_resource_build(w);
		break;
	case SCTP_CAUSE_NO_USER_DATA: {
		struct sctp_cause_no_user_data n = { s->value };
		sctp_cause_no_user_data_build(w, &n);
		break;
	}
	case SCTP_CAUSE_PROTOCOL_VIOLATION: {
		struct sctp_cause_protocol_violation pv = { NULL, 0 };
		sctp_cause_protocol_violation_build(w, &pv);
		break;
	}
	case SCTP_CAUSE_RESTART_WITH_NEW_ADDRS: {
		struct sctp_cause_restart_new_addrs r = { s->view, s->view_len };
		sctp_cause_restart_new_addrs_build(w, &r);
		break;
	}
	default:
		break;
	}
}

/* Unrecognized Chunk Type: the chunk, cut to what a report should carry. */
#define SCTP_ASSOC_REPORT_CHUNK_MAX 1024u

static void
assoc_tx_chunks(const struct sctp_assoc *a, const struct assoc_send *s, struct sctp_writer *w)
{
	uint8_t t_flag = s->reflect ? SCTP_FLAG_T : 0;

	switch (s->pkt) {
	case PKT_INIT:
		assoc_tx_init(a, w);
		break;
	case PKT_COOKIE_ECHO:
		assoc_tx_cookie_echo(a, w);
		break;
	case PKT_SHUTDOWN: {
		struct sctp_shutdown sd = { SCTP_CHUNK_SHUTDOWN, 0, assoc_cum_tsn_ack(a) };
		sctp_shutdown_build(w, &sd);
		break;
	}
	case PKT_SHUTDOWN_ACK:
	case PKT_SHUTDOWN_COMPLETE: {
		uint8_t type = s->pkt == PKT_SHUTDOWN_ACK ? SCTP_CHUNK_SHUTDOWN_ACK
							  : SCTP_CHUNK_SHUTDOWN_COMPLETE;
		struct sctp_shutdown sd = { type, t_flag, 0 };
		sctp_shutdown_build(w, &sd);
		break;
	}
	case PKT_ABORT: {
		struct sctp_abort ab = { .flags = t_flag };
		size_t off = sctp_abort_build_begin(w, &ab);
		assoc_tx_abort_cause(s, w);
		sctp_abort_build_end(w, off);
		break;
	}
	case PKT_HEARTBEAT_ACK: {
		struct sctp_heartbeat hb = { SCTP_CHUNK_HEARTBEAT_ACK, 0, s->view, s->view_len };
		sctp_heartbeat_build(w, &hb);
		break;
	}
	case PKT_COOKIE_ACK: {
		struct sctp_cookie ack = { SCTP_CHUNK_COOKIE_ACK, 0, NULL, 0 };
		sctp_cookie_build(w, &ack);
		break;
	}
	case PKT_ERROR_STREAM: {
		struct sctp_error err = { 0 };
		size_t off = sctp_error_build_begin(w, &err);
		struct sctp_cause_invalid_stream is = { (uint16_t)s->value, 0 };
		sctp_cause_invalid_stream_build(w, &is);
		sctp_error_build_end(w, off);
		break;
	}
	case PKT_ERROR_STALE: {
		struct sctp_error err = { 0 };
		size_t off = sctp_error_build_begin(w, &err);
		struct sctp_cause_stale_cookie sc = { s->value };
		sctp_cause_stale_cookie_build(w, &sc);
		sctp_error_build_end(w, off);
		break;
	}
	case PKT_SHUTDOWN_ACK_COOKIE: {
		struct sctp_shutdown sd = { SCTP_CHUNK_SHUTDOWN_ACK, 0, 0 };
		sctp_shutdown_build(w, &sd);
		struct sctp_error err = { 0 };
		size_t off = sctp_error_build_begin(w, &err);
		sctp_cause_cookie_while_shutting_down_build(w);
		sctp_error_build_end(w, off);
		break;
	}
	default: { /* PKT_ERROR_CHUNK */
		struct sctp_error err = { 0 };
		size_t off = sctp_error_build_begin(w, &err);
		struct sctp_cause_unrecognized_chunk u = {
			s->view, min_u16(s->view_len, SCTP_ASSOC_REPORT_CHUNK_MAX)
		};
		sctp_cause_unrecognized_chunk_build(w, &u);
		sctp_error_build_end(w, off);
		break;
	}
	}
}

/* §8.5 and §8.5.1: the tag a packet of ours carries. */
static uint32_t
assoc_tx_vtag(const struct sctp_assoc *a, const struct assoc_run *run, const struct assoc_send *s)
{
	if (s->pkt == PKT_INIT)
		return 0; /* §8.5.1 A */
	if (s->reflect)
		return run->rx->pkt.vtag; /* §8.5.1 B, C with the T bit */
	return s->vtag != 0 ? s->vtag : a->peer_vtag;
}

/* INIT and COOKIE ECHO remember when they left, for the RTT and §5.2.6. */
static void
assoc_note_handshake_tx(struct sctp_assoc *a, const struct assoc_run *run,
			const struct assoc_send *s)
{
	if (s->pkt != PKT_INIT && s->pkt != PKT_COOKIE_ECHO)
		return;
	if (s->rtx) {
		a->hs->retransmitted = true;
	} else {
		a->hs->sent_ns = run->now_ns;
		a->hs->retransmitted = false;
	}
}

/*
 * §5.2.1, §5.2.2: the INIT ACK answering the INIT in hand, made by the
 * endpoint's own code with the association's tags and tie-tags.
 */
static void
assoc_tx_init_ack(struct sctp_assoc *a, const struct assoc_run *run, const struct assoc_cmds *cmds,
		  struct sctp_writer *w)
{
	struct sctp_init init;
	struct sctp_init_params p;
	struct sctp_init_ack_tags tags = cmds->init_ack;

	/* The cookie lives as long as this association says (RFC 6458 ASSOCINFO). */
	tags.cookie_life_ns = assoc_profile(a)->valid_cookie_life_ns;
	if (run->rx == NULL || cmds->init_chunk == NULL ||
	    sctp_endpoint_check_init(cmds->init_chunk, &init, &p) != SCTP_EP_DROP_COUNT ||
	    !sctp_endpoint_write_init_ack(a->ep, run->rx, &init, &p, &tags, run->now_ns, w))
		w->err = true;
}

static void
assoc_apply_send(struct sctp_assoc *a, const struct assoc_run *run, const struct assoc_cmds *cmds,
		 const struct assoc_send *s)
{
	_Alignas(8) uint8_t buf[SCTP_ASSOC_TX_MAX];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	struct sctp_addr path_dst = assoc_path_dst(a);
	const struct sctp_addr *src = assoc_src_for(a, &path_dst), *dst = &path_dst;

	if (s->pkt == PKT_SACK) {
		/* The receive path's own packet, built and sent there. */
		assoc_sack_send(a, run, s->to_source);
		return;
	}
	sctp_packet_build_header(&w, a->local_port, a->peer_port, assoc_tx_vtag(a, run, s));
	if (s->pkt == PKT_INIT_ACK)
		assoc_tx_init_ack(a, run, cmds, &w);
	else
		assoc_tx_chunks(a, s, &w);
	if (!sctp_writer_ok(&w)) {
		assoc_count_drop(a, SCTP_ASSOC_DROP_TX_TOO_BIG);
		return;
	}
	if ((s->reflect || s->to_source) && run->rx != NULL) {
		src = &run->rx->dst;
		dst = &run->rx->src;
	}
	assoc_note_handshake_tx(a, run, s);
	a->ops->send(a->ctx, buf, w.off, src, dst);
	if (s->pkt == PKT_SHUTDOWN)
		assoc_sack_sent(a); /* it carries the Cumulative TSN Ack (§9.2) */
}

/*
 * The data path's storage, one block from ops->data_get() on entering
 * ESTABLISHED (and on a restart): the receive side's part, then the send
 * side's (sctp_assoc_data_bytes()). No data path configured: nothing asked,
 * DATA is counted and dropped.
 */
static int
assoc_data_start(struct sctp_assoc *a)
{
	const struct sctp_data_config *d = a->ep->cfg.data;

	if (d == NULL || a->ops->data_get == NULL)
		return 0;
	size_t rx = assoc_rx_bytes(d, a->inbound_streams, assoc_idata(a));
	size_t tx = assoc_tx_bytes(d, a->outbound_streams);
	if (assoc_idata(a) && d->ireasm_pool == NULL)
		return -ENOMEM; /* offered without a pool to reassemble it: a config bug */
	uint8_t *mem = a->ops->data_get(a->ctx, rx + tx);
	if (mem == NULL)
		return -ENOMEM;
	a->data_mem = mem;
	assoc_rx_start(a, mem);
	if (tx != 0)
		assoc_tx_start(a, mem + rx);
	return 0;
}

/*
 * Close or restart: what reassembly holds is dropped, SEND FAILED for what
 * was not acknowledged, the block goes back.
 */
static void
assoc_data_stop(struct sctp_assoc *a)
{
	if (a->data_mem == NULL)
		return;
	assoc_rx_stop(a);
	assoc_tx_stop(a);
	a->ops->data_put(a->ctx, a->data_mem);
	a->data_mem = NULL;
	a->rx_streams = NULL;
	a->timer_at[SCTP_ASSOC_T_SACK] = SCTP_TIME_NEVER;
}

static void
assoc_apply_notify(struct sctp_assoc *a, const struct assoc_notify *an)
{
	struct sctp_notification n = {
		.assoc = a,
		.type = an->type,
		.reason = an->reason,
		.error = an->error,
		.outbound_streams = a->outbound_streams,
		.inbound_streams = a->inbound_streams,
		.extensions = a->extensions,
		.abort_causes = an->causes,
		.abort_causes_len = an->causes_len,
	};
	a->ops->notify(a->ctx, &n);
}

/* §3.2.2: keep the unrecognized parameters that fit, each whole, padded. */
static void
assoc_keep_reports(struct sctp_assoc *a, const struct assoc_peer *pr)
{
	uint16_t end = 0;

	for (uint16_t i = 0; i < pr->n_report; i++) {
		uint16_t at = (uint16_t)SCTP_PAD4(end), len = pr->report[i].length;
		if ((size_t)at + len > sizeof(a->hs->report))
			break;
		memset(a->hs->report + end, 0, at - end);
		memcpy(a->hs->report + at, sctp_param_tlv_bytes(&pr->report[i]), len);
		end = (uint16_t)(at + len);
	}
	a->hs->report_len = end;
}

static void
assoc_apply_peer_init(struct sctp_assoc *a, const struct assoc_peer *pr)
{
	a->peer_vtag = pr->vtag;
	a->peer_initial_tsn = pr->initial_tsn;
	a->peer_a_rwnd = pr->a_rwnd;
	a->outbound_streams = pr->outbound_streams;
	a->inbound_streams = pr->inbound_streams;
	a->extensions = pr->extensions;
	if (pr->os_clamped)
		a->counters->init_ack_os_clamped++;
	/* §5.4 rule 3: learned from the peer, so unconfirmed until a heartbeat. */
	assoc_add_peer_addrs(a, &pr->src, 1, false, 0);
	assoc_add_peer_addrs(a, pr->addrs, pr->n_addrs, false, 0);
	memcpy(a->hs->cookie, pr->cookie, pr->cookie_len);
	a->hs->cookie_len = pr->cookie_len;
	assoc_keep_reports(a, pr);
}

/* §5.2.6: back to COOKIE-WAIT; the next INIT asks for more cookie life. */
static void
assoc_apply_stale_restart(struct sctp_assoc *a, uint32_t preservative_ms)
{
	a->stale_restarts++;
	a->counters->stale_cookie_restarts++;
	a->hs->preservative_ms = preservative_ms;
	a->hs->cookie_len = 0;
	a->hs->report_len = 0;
	a->peer_vtag = 0; /* a T-bit ABORT with the old tag is no longer the peer's */
}

/*
 * §5.2.4 B, before ESTABLISHED: the TCB the cookie describes. Our tag is
 * the cookie's already; our Initial TSN is taken too, because the peer
 * learned it from the INIT ACK that carried this cookie, which may have
 * come from the endpoint before this association existed (the INITs
 * crossed). No DATA has been sent yet, so nothing depends on the old one.
 */
static void
assoc_apply_adopt_cookie(struct sctp_assoc *a, const struct sctp_cookie_state *st)
{
	a->local_initial_tsn = st->local_initial_tsn;
	a->peer_vtag = st->peer_vtag;
	a->peer_initial_tsn = st->peer_initial_tsn;
	a->peer_a_rwnd = st->peer_a_rwnd;
	a->outbound_streams = st->outbound_streams;
	a->inbound_streams = st->inbound_streams;
	a->extensions = st->extensions;
}

/*
 * §5.2.4 A: the peer restarted. The association is rebuilt from the
 * cookie as if an ABORT and a new COOKIE ECHO had come: both tags, both
 * Initial TSNs, streams, extensions; every timer and retransmission count
 * cleared; the path's congestion state back to its initial values
 * (§6.2.1), which for now is the RTO. Transport addresses stay: an INIT
 * that added any was refused (§5.2.2).
 */
static void
assoc_apply_restart(struct sctp_assoc *a, const struct sctp_cookie_state *st, struct assoc_cmds *q)
{
	/* Whatever was received for the old association is dropped (§5.2.4 A). */
	assoc_data_stop(a);
	assoc_apply_adopt_cookie(a, st);
	a->local_vtag = st->local_vtag;
	for (unsigned t = 0; t < SCTP_ASSOC_TIMER_COUNT; t++)
		a->timer_at[t] = SCTP_TIME_NEVER;
	a->init_rtx = 0;
	a->shutdown_rtx = 0;
	a->stale_restarts = 0;
	a->shutdown_requested = false;
	for (unsigned i = 0; i < a->paths.n; i++)
		sctp_rto_init(&sctp_paths_get(&a->paths, i)->rto, assoc_profile(a));
	a->counters->restarts++;
	if (assoc_data_start(a) != 0)
		emit_abort(a, q, SCTP_CAUSE_OUT_OF_RESOURCE, SCTP_ASSOC_REASON_NO_MEMORY, 0);
}

static void
assoc_apply_close(struct sctp_assoc *a, struct assoc_run *run)
{
	struct sctp_path *block = sctp_paths_block(&a->paths);

	assoc_data_stop(a);
	sctp_paths_hb_stop(&a->paths);
	if (block != NULL) {
		/* The addresses stay readable (path 0); the block goes back. */
		struct sctp_addr first = sctp_path_addr(sctp_paths_get(&a->paths, 0));
		sctp_paths_init(&a->paths, assoc_profile(a), &first);
		a->ops->paths_put(a->ctx, block);
	}
	for (unsigned t = 0; t < SCTP_ASSOC_TIMER_COUNT; t++)
		a->timer_at[t] = SCTP_TIME_NEVER;
	a->state = SCTP_ASSOC_CLOSED;
	a->freeable = true;
	run->stop = true;
}

void
assoc_add_peer_addrs(struct sctp_assoc *a, const struct sctp_addr *addrs, unsigned n,
		     bool confirmed, uint64_t now_ns)
{
	struct sctp_paths *ps = &a->paths;
	unsigned fresh = 0;

	for (unsigned i = 0; i < n; i++)
		if (addrs[i].family == a->local_addr.family && sctp_paths_find(ps, &addrs[i]) < 0)
			fresh++;
	if (ps->n + fresh > ps->cap && a->ops->paths_get != NULL) {
		unsigned want = ps->n + fresh - 1u, got = 0;
		if (want > SCTP_MAX_PATHS - 1u)
			want = SCTP_MAX_PATHS - 1u;
		struct sctp_path *old = sctp_paths_block(ps);
		struct sctp_path *block = a->ops->paths_get(a->ctx, want, &got);
		if (block != NULL && sctp_paths_attach(ps, block, got) == 0) {
			if (old != NULL)
				a->ops->paths_put(a->ctx, old);
		} else if (block != NULL) {
			a->ops->paths_put(a->ctx, block);
		}
	}
	for (unsigned i = 0; i < n; i++) {
		if (addrs[i].family != a->local_addr.family) {
			a->counters->peer_addrs_ignored++;
			continue;
		}
		if (sctp_paths_add(ps, assoc_profile(a), &addrs[i], confirmed, now_ns,
				   assoc_rnd32(a)) < 0)
			a->counters->peer_addrs_ignored++;
	}
}

/*
 * State entry actions (§8.3): heartbeats run from ESTABLISHED until our
 * SHUTDOWN or SHUTDOWN ACK leaves. Kept here so that no handler can enter
 * a state and forget them.
 */
static void
assoc_enter_state(struct sctp_assoc *a, struct assoc_run *run, uint8_t s, struct assoc_cmds *q)
{
	uint8_t old = a->state;

	a->state = s;
	if (s == SCTP_ASSOC_ESTABLISHED && old < SCTP_ASSOC_ESTABLISHED) {
		sctp_paths_hb_start(&a->paths, assoc_profile(a), run->now_ns, assoc_rnd32(a));
		if (assoc_data_start(a) != 0)
			emit_abort(a, q, SCTP_CAUSE_OUT_OF_RESOURCE, SCTP_ASSOC_REASON_NO_MEMORY,
				   0);
	} else if (s == SCTP_ASSOC_SHUTDOWN_SENT || s == SCTP_ASSOC_SHUTDOWN_ACK_SENT) {
		sctp_paths_hb_stop(&a->paths);
	} else if (s == SCTP_ASSOC_SHUTDOWN_PENDING || s == SCTP_ASSOC_SHUTDOWN_RECEIVED) {
		run->shutdown_step = true; /* §9.2: on once nothing is outstanding */
	}
}

/* RFC 6458 SCTP_PEER_ADDR_CHANGE for path i. */
static void
assoc_notify_addr(struct sctp_assoc *a, unsigned i, enum sctp_addr_change what)
{
	struct sctp_notification n = {
		.assoc = a,
		.type = SCTP_NOTIFY_PEER_ADDR_CHANGE,
		.outbound_streams = a->outbound_streams,
		.inbound_streams = a->inbound_streams,
		.extensions = a->extensions,
		.addr_state = (uint8_t)what,
		.addr = sctp_path_addr(sctp_paths_get(&a->paths, i)),
	};
	a->ops->notify(a->ctx, &n);
}

/*
 * What the path set reported (sctp/path.h event masks) becomes
 * notifications and counters; every path failing (§8.1) ends the
 * association: COMMUNICATION LOST, nothing more to send to anyone.
 */
static void
assoc_apply_path_events(struct sctp_assoc *a, struct assoc_run *run, uint64_t ev)
{
	static const struct {
		unsigned bit;
		enum sctp_addr_change what;
	} map[] = {
		{ SCTP_PATH_EV_CONFIRMED, SCTP_ADDR_CHANGE_CONFIRMED },
		{ SCTP_PATH_EV_PF, SCTP_ADDR_CHANGE_POTENTIALLY_FAILED },
		{ SCTP_PATH_EV_INACTIVE, SCTP_ADDR_CHANGE_UNREACHABLE },
		{ SCTP_PATH_EV_ACTIVE, SCTP_ADDR_CHANGE_AVAILABLE },
	};

	for (unsigned i = 0; i < a->paths.n; i++) {
		unsigned pev = sctp_path_events(ev, i);
		for (unsigned k = 0; pev != 0 && k < sizeof(map) / sizeof(map[0]); k++)
			if (pev & map[k].bit)
				assoc_notify_addr(a, i, map[k].what);
	}
	if (ev & SCTP_PATHS_EV_PRIMARY_CHANGED)
		assoc_notify_addr(a, a->paths.primary, SCTP_ADDR_CHANGE_MADE_PRIMARY);
	if (ev & SCTP_PATHS_EV_FAILOVER)
		a->counters->failovers++;
	if (ev & SCTP_PATHS_EV_PRIMARY_RETURN)
		a->counters->primary_returns++;
	if (ev & SCTP_PATHS_EV_COMM_LOST) {
		assoc_apply_close(a, run);
		struct assoc_notify n = { .type = SCTP_NOTIFY_COMM_LOST,
					  .reason = SCTP_ASSOC_REASON_PATHS_FAILED };
		assoc_apply_notify(a, &n);
	}
}

/* RFC 9260 §8.3: a HEARTBEAT to path i, its info recorded by the path set. */
static void
assoc_send_heartbeat(struct sctp_assoc *a, const struct assoc_run *run, unsigned i)
{
	_Alignas(8)
		uint8_t buf[SCTP_COMMON_HDR_LEN + SCTP_CHUNK_HDR_LEN + SCTP_PATH_HB_INFO_LEN + 4u];
	uint8_t info[SCTP_PATH_HB_INFO_LEN];
	struct sctp_writer iw = sctp_writer_make(info, sizeof(info));
	uint64_t nonce = (uint64_t)assoc_rnd32(a) << 32 | assoc_rnd32(a);

	if (sctp_paths_hb_info(&a->paths, i, run->now_ns, nonce, assoc_rnd32(a), &iw) != 0)
		return;
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_packet_build_header(&w, a->local_port, a->peer_port, a->peer_vtag);
	struct sctp_heartbeat hb = { SCTP_CHUNK_HEARTBEAT, 0, info, (uint16_t)iw.off };
	sctp_heartbeat_build(&w, &hb);
	if (!sctp_writer_ok(&w)) {
		assoc_count_drop(a, SCTP_ASSOC_DROP_TX_TOO_BIG);
		return;
	}
	struct sctp_addr dst = sctp_path_addr(sctp_paths_get(&a->paths, i));
	a->stats->heartbeats_sent++;
	a->ops->send(a->ctx, buf, w.off, assoc_src_for(a, &dst), &dst);
}

static void
assoc_apply_paths_wakeup(struct sctp_assoc *a, struct assoc_run *run)
{
	uint32_t mask = 0;
	uint64_t ev = sctp_paths_on_wakeup(&a->paths, assoc_profile(a), run->now_ns, &mask);

	if (!(ev & SCTP_PATHS_EV_COMM_LOST))
		for (unsigned i = 0; i < a->paths.n; i++) {
			if (!(mask & (1u << i)))
				continue;
			if (a->ops->hb_admit != NULL && sctp_paths_hb_budgeted(&a->paths, i)) {
				uint64_t wait = a->ops->hb_admit(a->ctx, run->now_ns, false);

				if (wait != 0) {
					sctp_paths_hb_defer(&a->paths, i, run->now_ns + wait);
					continue;
				}
			} else if (a->ops->hb_admit != NULL &&
				   sctp_paths_hb_probing(&a->paths, i)) {
				(void)a->ops->hb_admit(a->ctx, run->now_ns, true);
			}
			assoc_send_heartbeat(a, run, i);
		}
	assoc_apply_path_events(a, run, ev);
}

static void
assoc_apply_hb_ack(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_send *s)
{
	unsigned path;
	uint64_t ev = 0;

	if (assoc_pmtu_hb_ack(a, run, s->view, s->view_len))
		return; /* a PLPMTUD probe's: the path set never sent it */
	if (sctp_paths_on_hb_ack(&a->paths, assoc_profile(a), s->view, s->view_len, run->now_ns,
				 &path, &ev) != SCTP_HB_ACK_OK) {
		assoc_count_drop(a, SCTP_ASSOC_DROP_HB_ACK_REFUSED);
		return;
	}
	assoc_apply_path_events(a, run, ev);
}

static void
assoc_apply_set_primary(struct sctp_assoc *a, struct assoc_run *run, unsigned i)
{
	uint64_t ev = 0;

	if (sctp_paths_set_primary(&a->paths, assoc_profile(a), i, &ev) != 0)
		return;
	assoc_notify_addr(a, i, SCTP_ADDR_CHANGE_MADE_PRIMARY);
	assoc_apply_path_events(a, run, ev & ~SCTP_PATHS_EV_PRIMARY_CHANGED);
}

static void
assoc_apply_one(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_cmds *cmds,
		const struct assoc_cmd *c, struct assoc_cmds *q)
{
	switch ((enum assoc_op)c->op) {
	case OP_STATE:
		assoc_enter_state(a, run, c->u.state, q);
		break;
	case OP_TIMER_START:
		a->timer_at[c->u.timer] =
			run->now_ns + assoc_timer_duration(a, (enum sctp_assoc_timer)c->u.timer);
		break;
	case OP_TIMER_STOP:
		a->timer_at[c->u.timer] = SCTP_TIME_NEVER;
		break;
	case OP_SEND:
		assoc_apply_send(a, run, cmds, &c->u.send);
		break;
	case OP_NOTIFY:
		assoc_apply_notify(a, &c->u.notify);
		break;
	case OP_DROP:
		assoc_count_drop(a, (enum sctp_assoc_drop)c->u.drop);
		break;
	case OP_STOP:
		run->stop = true;
		break;
	case OP_PEER_INIT:
		assoc_apply_peer_init(a, &cmds->peer);
		break;
	case OP_RTO_SAMPLE:
		sctp_rto_sample(assoc_data_rto(a), assoc_profile(a), run->now_ns - a->hs->sent_ns);
		break;
	case OP_RTO_BACKOFF:
		sctp_rto_backoff(assoc_data_rto(a), assoc_profile(a));
		break;
	case OP_INIT_RTX:
		a->init_rtx = (uint16_t)c->u.count;
		break;
	case OP_SHUTDOWN_RTX:
		a->shutdown_rtx = (uint16_t)c->u.count;
		break;
	case OP_STALE_RESTART:
		assoc_apply_stale_restart(a, c->u.count);
		break;
	case OP_SHUTDOWN_FLAG:
		a->shutdown_requested = true;
		break;
	case OP_CLOSE:
		assoc_apply_close(a, run);
		break;
	case OP_ADOPT_COOKIE:
		assoc_apply_adopt_cookie(a, &cmds->cookie);
		break;
	case OP_PEER_VTAG:
		a->peer_vtag = c->u.count;
		break;
	case OP_RESTART:
		assoc_apply_restart(a, &cmds->cookie, q);
		break;
	case OP_PATHS_WAKEUP:
		assoc_apply_paths_wakeup(a, run);
		break;
	case OP_HB_ACK:
		assoc_apply_hb_ack(a, run, &c->u.send);
		break;
	case OP_SET_PRIMARY:
		assoc_apply_set_primary(a, run, c->u.count);
		break;
	case OP_DATA:
		assoc_rx_data(a, run, c->u.chunk, q);
		break;
	case OP_SACK:
		assoc_rx_sack(a, run, c->u.chunk, q);
		break;
	case OP_FWD_TSN:
		assoc_rx_forward_tsn(a, run, c->u.chunk);
		break;
	case OP_SHUTDOWN_CUM:
		assoc_rx_shutdown_cum(a, run, c->u.chunk, q);
		break;
	case OP_T3:
		assoc_tx_t3(a, run, q);
		break;
	case OP_CONSUMED:
		assoc_rx_consumed(a, run, c->u.count);
		break;
	case OP_PUSH:
		assoc_tx_push(a, run, c->u.user);
		break;
	case OP_RECONF:
		assoc_rx_reconfig(a, run, c->u.chunk, q);
		break;
	case OP_RECONF_USER:
		assoc_reconf_user(a, run, c->u.user);
		break;
	case OP_RECONF_TIMER:
		assoc_reconf_timeout(a, run, q);
		break;
	case OP_PMTU_TIMER:
		assoc_pmtu_timeout(a, run);
		break;
	case OP_BUNDLE_DUE:
		run->bundle_due = true;
		break;
	case OP_PATH_EVENTS:
		assoc_apply_path_events(a, run, c->u.events);
		break;
	case OP_HALT:
		run->halted = true;
		run->stop = true;
		break;
	}
}

/* The handshake scratch goes back as soon as the handshake is over. */
static void
assoc_release_handshake(struct sctp_assoc *a)
{
	if (a->hs != NULL && a->state != SCTP_ASSOC_COOKIE_WAIT &&
	    a->state != SCTP_ASSOC_COOKIE_ECHOED) {
		a->ops->hs_put(a->ctx, a->hs);
		a->hs = NULL;
	}
}

/*
 * Follow-ups: what the commands just run emitted into q, in order, with
 * what those emit in turn appended behind them. The bound is the queue's
 * (SCTP_ASSOC_MAX_CMDS in all, counted past it): no command's follow-ups
 * come near it (the longest, T3-rtx on every path, emits one per path and
 * OP_HALT), and a follow-up's own follow-ups are an ABORT's four at most.
 */
static void
assoc_apply_follow_ups(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_cmds *cmds,
		       struct assoc_cmds *q)
{
	for (uint8_t k = 0; k < q->n && !run->halted; k++)
		assoc_apply_one(a, run, cmds, &q->cmd[k], q);
	if (q->overflow)
		assoc_count_drop(a, SCTP_ASSOC_DROP_CMD_OVERFLOW);
	assoc_cmds_init(q);
}

/* After the commands of one call: what depends on all of them. */
static void
assoc_apply_finish(struct sctp_assoc *a)
{
	assoc_release_handshake(a);
	/* The path set's deadline moves with what it was told; follow it. */
	a->timer_at[SCTP_ASSOC_T_HEARTBEAT] =
		a->paths.running ? sctp_paths_next_wakeup(&a->paths) : SCTP_TIME_NEVER;
}

/* The one place that changes the association. */
void
assoc_apply(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_cmds *cmds)
{
	struct assoc_cmds q;

	assoc_cmds_init(&q);
	if (cmds->overflow)
		assoc_count_drop(a, SCTP_ASSOC_DROP_CMD_OVERFLOW);
	for (uint8_t i = 0; i < cmds->n && !run->halted; i++) {
		assoc_apply_one(a, run, cmds, &cmds->cmd[i], &q);
		if (q.n != 0 || q.overflow)
			assoc_apply_follow_ups(a, run, cmds, &q);
	}
	assoc_apply_finish(a);
}

/*
 * Every input ends here (a packet whose tags all passed, a timer, a user
 * call): the packet's one SACK decision, then the flush, each with its
 * follow-ups before the next step.
 */
void
assoc_apply_end(struct sctp_assoc *a, struct assoc_run *run)
{
	struct assoc_cmds q;
	bool followed = false;

	assoc_cmds_init(&q);
	assoc_rx_packet_end(a, run, &q);
	if (q.n != 0 || q.overflow) {
		assoc_apply_follow_ups(a, run, &q, &q);
		followed = true;
	}
	if (a->reconf_deferred)
		assoc_reconf_input_end(a, run);
	assoc_tx_flush(a, run, &q);
	if (q.n != 0 || q.overflow) {
		assoc_apply_follow_ups(a, run, &q, &q);
		followed = true;
	}
	assoc_pmtu_flush(a, run);
	if (followed)
		assoc_apply_finish(a);
}
