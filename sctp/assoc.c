/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association state machine, RFC 9260 §4, §5.1, §5.2.3, §5.2.5, §5.2.6,
 * §8.5, §8.5.1, §9.1 and §9.2. See sctp/assoc.h for the interface and
 * docs/STATES.md for the diagram and the tables.
 *
 * This file holds the entry points: it checks each chunk's tag against its
 * cell's rule, walks the packet, fires the timers and takes the user's
 * calls. Each input goes to its cell (sctp/assoc_table.c), whose handler
 * emits commands (sctp/assoc_handshake.c, sctp/assoc_shutdown.c,
 * sctp/assoc_control.c, ...) that assoc_apply() carries out
 * (sctp/assoc_apply.c); assoc_apply_end() ends the input. Past filling a
 * new TCB (connect, from_cookie), nothing here changes the association but
 * through them. Each entry point ends with ASSOC_CHECK(): the invariants,
 * in builds with SCTP_ASSOC_CHECK.
 */
#include <errno.h>
#include <string.h>

#include "sctp/assoc_internal.h"

/* The layout sctp/assoc.h describes (docs/ARCHITECTURE.md decision 6). */
_Static_assert(sizeof(struct sctp_assoc) <= 512, "an association within 512 bytes");
_Static_assert(offsetof(struct sctp_assoc, counters) + sizeof(void *) <= 64,
	       "what every packet reads: cache line 0");
_Static_assert(offsetof(struct sctp_assoc, paths) == 64, "the path set starts line 1");
_Static_assert(offsetof(struct sctp_assoc, paths) + offsetof(struct sctp_paths, first) +
			       offsetof(struct sctp_path, hb_due_ns) <=
		       128,
	       "path 0's hot fields (up to its last send time) in line 1");

static int
assoc_run_cell(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_in *in)
{
	struct assoc_cmds cmds;

	assoc_cmds_init(&cmds);
	in->cell->fn(a, in, &cmds);
	assoc_apply(a, run, &cmds);
	return cmds.result;
}

/* RFC 9260 §8.5 and §8.5.1: does the packet's tag pass this cell's rule? */
static bool
assoc_vtag_ok(const struct sctp_assoc *a, const struct sctp_rx *rx, const struct sctp_chunk *c,
	      enum sctp_assoc_vtag_rule rule)
{
	uint32_t vtag = rx->pkt.vtag;

	switch (rule) {
	case SCTP_ASSOC_VTAG_OURS:
		return vtag == a->local_vtag;
	case SCTP_ASSOC_VTAG_ZERO:
		return vtag == 0;
	case SCTP_ASSOC_VTAG_T_BIT:
		if (c->flags & SCTP_FLAG_T)
			return a->peer_vtag != 0 && vtag == a->peer_vtag;
		return vtag == a->local_vtag;
	case SCTP_ASSOC_VTAG_ANY:
		return true;
	default:
		return false;
	}
}

/*
 * Walk the packet once. Each chunk goes to its cell; a tag that fails the
 * cell's rule discards the rest of the packet (§8.5: "silently discard").
 * The chunks before it stay handled: they passed their own rule.
 */
static void
assoc_walk(struct sctp_assoc *a, const struct sctp_rx *rx, uint64_t now_ns, bool skip_first)
{
	struct assoc_run run = { .rx = rx, .now_ns = now_ns, .stop = false };
	struct sctp_chunk_iter it;
	struct sctp_chunk c;

	sctp_chunk_iter_init(&it, &rx->pkt);
	if (skip_first && !sctp_chunk_iter_next(&it, &c))
		run.stop = true;
	while (!run.stop && sctp_chunk_iter_next(&it, &c)) {
		enum sctp_assoc_row row = sctp_assoc_row_of(c.type, a->extensions);
		const struct assoc_cell *cell = &assoc_chunk_table[row][a->state];
		if (!assoc_vtag_ok(a, rx, &c, (enum sctp_assoc_vtag_rule)cell->vtag)) {
			assoc_count_drop(a, SCTP_ASSOC_DROP_BAD_VTAG);
			return;
		}
		struct assoc_in in = { .rx = rx, .c = &c, .cell = cell, .now_ns = now_ns };
		assoc_run_cell(a, &run, &in);
	}
	if (it.err != SCTP_PERR_OK)
		assoc_count_drop(a, SCTP_ASSOC_DROP_MALFORMED_PACKET);
	assoc_apply_end(a, &run);
}

void
sctp_assoc_input(struct sctp_assoc *a, const struct sctp_rx *rx, uint64_t now_ns)
{
	assoc_walk(a, rx, now_ns, false);
	ASSOC_CHECK(a);
}

void
sctp_assoc_input_after_cookie(struct sctp_assoc *a, const struct sctp_rx *rx, uint64_t now_ns)
{
	assoc_walk(a, rx, now_ns, true);
	ASSOC_CHECK(a);
}

void
sctp_assoc_timeout(struct sctp_assoc *a, uint64_t now_ns)
{
	/*
	 * T5 first: when it is due, retransmitting under T2 is pointless.
	 * T3-rtx and the reconfiguration timer before the heartbeat: their
	 * error count may make a path potentially failed, whose probe is then
	 * due at once (RFC 7829).
	 */
	static const uint8_t order[SCTP_ASSOC_TIMER_COUNT] = {
		SCTP_ASSOC_T5_GUARD,	SCTP_ASSOC_T1_INIT, SCTP_ASSOC_T1_COOKIE,
		SCTP_ASSOC_T2_SHUTDOWN, SCTP_ASSOC_T3_RTX,  SCTP_ASSOC_T_RECONF,
		SCTP_ASSOC_T_HEARTBEAT, SCTP_ASSOC_T_SACK,  SCTP_ASSOC_T_BUNDLE,
		SCTP_ASSOC_T_PMTU,
	};
	_Static_assert(SCTP_ASSOC_TIMER_COUNT == 10, "every timer has its place in order[]");
	struct assoc_run run = { .rx = NULL, .now_ns = now_ns, .stop = false };

	for (unsigned i = 0; i < SCTP_ASSOC_TIMER_COUNT; i++) {
		uint8_t t = order[i];
		if (a->timer_at[t] > now_ns)
			continue;
		a->timer_at[t] = SCTP_TIME_NEVER;
		struct assoc_in in = { .cell = &assoc_timer_table[t][a->state], .now_ns = now_ns };
		assoc_run_cell(a, &run, &in);
	}
	assoc_apply_end(a, &run);
	ASSOC_CHECK(a);
}

uint64_t
sctp_assoc_next_wakeup(const struct sctp_assoc *a)
{
	uint64_t next = SCTP_TIME_NEVER;

	for (unsigned t = 0; t < SCTP_ASSOC_TIMER_COUNT; t++)
		if (a->timer_at[t] < next)
			next = a->timer_at[t];
	return next;
}

static int
assoc_user_run(struct sctp_assoc *a, enum sctp_assoc_user_call u, struct assoc_in *in)
{
	struct assoc_run run = { .rx = NULL, .now_ns = in->now_ns, .stop = false };

	in->cell = &assoc_user_table[u][a->state];
	int r = assoc_run_cell(a, &run, in);
	if (r == 0)
		r = run.result;
	assoc_apply_end(a, &run);
	return r;
}

static int
assoc_user_call(struct sctp_assoc *a, enum sctp_assoc_user_call u, uint64_t now_ns,
		const uint8_t *reason, uint16_t reason_len, const struct sctp_addr *addr)
{
	struct assoc_in in = {
		.reason = reason,
		.reason_len = reason_len,
		.addr = addr,
		.now_ns = now_ns,
	};
	return assoc_user_run(a, u, &in);
}

int
sctp_assoc_consumed(struct sctp_assoc *a, uint32_t bytes, uint64_t now_ns)
{
	struct assoc_in in = { .bytes = bytes, .now_ns = now_ns };

	int r = assoc_user_run(a, SCTP_ASSOC_USER_CONSUMED, &in);
	ASSOC_CHECK(a);
	return r;
}

int
sctp_assoc_send(struct sctp_assoc *a, uint16_t sid, uint32_t ppid, uint8_t flags,
		const struct sctp_slice *msg, uint64_t now_ns)
{
	struct assoc_in in = {
		.msg = msg,
		.ppid = ppid,
		.sid = sid,
		.flags = flags,
		.now_ns = now_ns,
	};
	int r = assoc_user_run(a, SCTP_ASSOC_USER_SEND, &in);
	ASSOC_CHECK(a);
	return r;
}

int
sctp_assoc_send_pr(struct sctp_assoc *a, uint16_t sid, uint32_t ppid, uint8_t flags,
		   const struct sctp_slice *msg, uint8_t pr_policy, uint32_t pr_value,
		   uint64_t now_ns)
{
	return sctp_assoc_send_ctx(a, sid, ppid, flags, msg, pr_policy, pr_value, 0, now_ns);
}

int
sctp_assoc_send_ctx(struct sctp_assoc *a, uint16_t sid, uint32_t ppid, uint8_t flags,
		    const struct sctp_slice *msg, uint8_t pr_policy, uint32_t pr_value,
		    uint32_t context, uint64_t now_ns)
{
	struct assoc_in in = {
		.msg = msg,
		.ppid = ppid,
		.sid = sid,
		.flags = flags,
		.pr_policy = pr_policy,
		.pr_value = pr_value,
		.context = context,
		.now_ns = now_ns,
	};
	int r = assoc_user_run(a, SCTP_ASSOC_USER_SEND, &in);
	ASSOC_CHECK(a);
	return r;
}

int
sctp_assoc_reset_streams(struct sctp_assoc *a, unsigned flags, const uint16_t *sids, uint16_t n,
			 uint64_t now_ns)
{
	struct assoc_in in = {
		.reset_flags = flags,
		.sids = sids,
		.n_sids = n,
		.now_ns = now_ns,
	};
	int r = assoc_user_run(a, SCTP_ASSOC_USER_RECONF, &in);
	ASSOC_CHECK(a);
	return r;
}

int
sctp_assoc_add_streams(struct sctp_assoc *a, uint16_t out, uint16_t in, uint64_t now_ns)
{
	struct assoc_in x = {
		.reconf = ASSOC_RECONF_ADD,
		.add_out = out,
		.add_in = in,
		.now_ns = now_ns,
	};
	int r = assoc_user_run(a, SCTP_ASSOC_USER_RECONF, &x);
	ASSOC_CHECK(a);
	return r;
}

int
sctp_assoc_reset_assoc(struct sctp_assoc *a, uint64_t now_ns)
{
	struct assoc_in x = { .reconf = ASSOC_RECONF_ASSOC, .now_ns = now_ns };
	int r = assoc_user_run(a, SCTP_ASSOC_USER_RECONF, &x);
	ASSOC_CHECK(a);
	return r;
}

int
sctp_assoc_shutdown(struct sctp_assoc *a, uint64_t now_ns)
{
	int r = assoc_user_call(a, SCTP_ASSOC_USER_SHUTDOWN, now_ns, NULL, 0, NULL);
	ASSOC_CHECK(a);
	return r;
}

int
sctp_assoc_abort(struct sctp_assoc *a, uint64_t now_ns, const uint8_t *reason, uint16_t reason_len)
{
	int r = assoc_user_call(a, SCTP_ASSOC_USER_ABORT, now_ns, reason, reason_len, NULL);
	ASSOC_CHECK(a);
	return r;
}

int
sctp_assoc_set_primary(struct sctp_assoc *a, const struct sctp_addr *peer, uint64_t now_ns)
{
	int r = assoc_user_call(a, SCTP_ASSOC_USER_SET_PRIMARY, now_ns, NULL, 0, peer);
	ASSOC_CHECK(a);
	return r;
}

int
sctp_assoc_flush(struct sctp_assoc *a, uint64_t now_ns)
{
	int r = assoc_user_call(a, SCTP_ASSOC_USER_FLUSH, now_ns, NULL, 0, NULL);
	ASSOC_CHECK(a);
	return r;
}

/* Everything but what the caller gave sctp_assoc_init(). */
static void
assoc_reset(struct sctp_assoc *a, struct sctp_endpoint *ep)
{
	const struct sctp_assoc_ops *ops = a->ops;
	void *ctx = a->ctx;
	struct sctp_assoc_counters *counters = a->counters;
	struct sctp_assoc_stats *stats = a->stats;
	/* A per-association block set before connect (sctp_assoc_set_opts()) stays. */
	const struct sctp_profile *prof = a->prof;

	sctp_assoc_init(a, ops, ctx, counters, stats);
	a->ep = ep;
	a->prof = prof != NULL ? prof : ep->cfg.profile;
}

void
sctp_assoc_init(struct sctp_assoc *a, const struct sctp_assoc_ops *ops, void *ctx,
		struct sctp_assoc_counters *counters, struct sctp_assoc_stats *stats)
{
	memset(a, 0, sizeof(*a));
	a->state = SCTP_ASSOC_CLOSED;
	for (unsigned t = 0; t < SCTP_ASSOC_TIMER_COUNT; t++)
		a->timer_at[t] = SCTP_TIME_NEVER;
	a->ops = ops;
	a->ctx = ctx;
	a->counters = counters;
	a->stats = stats;
	ASSOC_CHECK(a);
}

static bool
assoc_addr_ok(const struct sctp_addr *x)
{
	return x != NULL && sctp_addr_len(x) != 0;
}

int
sctp_assoc_connect(struct sctp_assoc *a, struct sctp_endpoint *ep, const struct sctp_addr *peer,
		   const struct sctp_addr *local, uint16_t local_port, uint16_t peer_port,
		   uint64_t now_ns)
{
	return sctp_assoc_connectx(a, ep, peer, 1, local, local_port, peer_port, now_ns);
}

int
sctp_assoc_connectx(struct sctp_assoc *a, struct sctp_endpoint *ep, const struct sctp_addr *peers,
		    unsigned n_peers, const struct sctp_addr *local, uint16_t local_port,
		    uint16_t peer_port, uint64_t now_ns)
{
	if (ep == NULL || peers == NULL || n_peers == 0 || !assoc_addr_ok(local) ||
	    local_port == 0 || peer_port == 0)
		return -EINVAL;
	for (unsigned i = 0; i < n_peers; i++)
		if (!assoc_addr_ok(&peers[i]))
			return -EINVAL;
	if (a->state != SCTP_ASSOC_CLOSED)
		return -EISCONN;
	struct sctp_assoc_handshake *hs = a->ops->hs_get(a->ctx);
	if (hs == NULL)
		return -ENOBUFS;
	assoc_reset(a, ep);
	memset(hs, 0, offsetof(struct sctp_assoc_handshake, cookie));
	a->hs = hs;
	a->local_addr = *local;
	/* §5.4 rule 1: every address the user gave is confirmed. */
	sctp_paths_init(&a->paths, a->prof, &peers[0]);
	assoc_add_peer_addrs(a, peers + 1, n_peers - 1, true, now_ns);
	a->local_port = local_port;
	a->peer_port = peer_port;
	a->local_vtag = ep->cfg.choose_tag(ep->cfg.ctx, NULL);
	if (a->local_vtag == 0) /* a strategy bug must not put 0 on the wire */
		a->local_vtag = 1;
	a->local_initial_tsn = ep->cfg.random32(ep->cfg.ctx);

	/* RFC 9260 §5.1 A: INIT, T1-init, COOKIE-WAIT. */
	struct assoc_run run = { .rx = NULL, .now_ns = now_ns, .stop = false };
	struct assoc_cmds cmds = { .n = 0 };
	emit_send(&cmds, PKT_INIT);
	emit_timer_start(&cmds, SCTP_ASSOC_T1_INIT);
	emit_state(&cmds, SCTP_ASSOC_COOKIE_WAIT);
	assoc_apply(a, &run, &cmds);
	ASSOC_CHECK(a);
	return 0;
}

int
sctp_assoc_from_cookie(struct sctp_assoc *a, struct sctp_endpoint *ep,
		       const struct sctp_cookie_state *st, uint64_t now_ns)
{
	if (ep == NULL || st == NULL)
		return -EINVAL;
	if (a->state != SCTP_ASSOC_CLOSED)
		return -EISCONN;
	assoc_reset(a, ep);
	a->local_vtag = st->local_vtag;
	a->peer_vtag = st->peer_vtag;
	a->local_initial_tsn = st->local_initial_tsn;
	a->peer_initial_tsn = st->peer_initial_tsn;
	a->peer_a_rwnd = st->peer_a_rwnd;
	a->outbound_streams = st->outbound_streams;
	a->inbound_streams = st->inbound_streams;
	a->local_port = st->local_port;
	a->peer_port = st->peer_port;
	a->extensions = st->extensions;
	a->local_addr = st->local_addr;
	/* §5.4 rule 2: the address the INIT ACK went to is the confirmed one. */
	sctp_paths_init(&a->paths, a->prof, &st->peer_src);
	assoc_add_peer_addrs(a, st->peer_addrs, st->n_peer_addrs, false, now_ns);

	/* RFC 9260 §5.1 D: the COOKIE ACK is sent; ESTABLISHED, COMMUNICATION UP. */
	struct assoc_run run = { .rx = NULL, .now_ns = now_ns, .stop = false };
	struct assoc_cmds cmds = { .n = 0 };
	emit_state(&cmds, SCTP_ASSOC_ESTABLISHED);
	emit(&cmds, OP_NOTIFY)->u.notify.type = SCTP_NOTIFY_COMM_UP;
	assoc_apply(a, &run, &cmds);
	ASSOC_CHECK(a);
	return 0;
}
