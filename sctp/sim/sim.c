/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pair simulation of sim.h: a client association and a server endpoint
 * on a virtual clock, one impairment stage per direction, a fixed pool of
 * packet buffers. No checksum is computed or checked anywhere: the stages
 * never corrupt (sim_init refuses corrupt_ppb), so a CRC would only cost
 * time (docs/SIM.md). Multihome runs add a second address per side, a
 * black hole and loss on the second network in front of the stages, and
 * record each side's path milestones after every event.
 */
#include "sctp/sim/sim.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define CLIENT_PORT 40000u
#define SERVER_PORT 5001u

/* §5.2 inputs the association refused: none when the handshakes are sound. */
static uint64_t
sim_collision_drops(const struct sctp_assoc_counters *c)
{
	return c->drops[SCTP_ASSOC_DROP_INIT_NO_ROUTE] + c->drops[SCTP_ASSOC_DROP_INIT_NEW_ADDRS] +
	       c->drops[SCTP_ASSOC_DROP_COOKIE_TAG_OR_PORT_MISMATCH] +
	       c->drops[SCTP_ASSOC_DROP_COOKIE_STALE] + c->drops[SCTP_ASSOC_DROP_COOKIE_LATE] +
	       c->drops[SCTP_ASSOC_DROP_COOKIE_NO_CASE];
}

static const char *const outcome_names[SIM_OUTCOME_COUNT] = {
	[SIM_OK] = "ok",
	[SIM_CANT_START] = "cant_start",
	[SIM_COMM_LOST] = "comm_lost",
	[SIM_HANG] = "hang",
	[SIM_BAD_STATE] = "bad_state",
	[SIM_LEAK] = "leak",
	[SIM_SETUP_ERROR] = "setup_error",
};

const char *
sim_outcome_name(enum sim_outcome o)
{
	return (unsigned)o < SIM_OUTCOME_COUNT ? outcome_names[o] : "unknown";
}

static enum sim_side
other(enum sim_side x)
{
	return x == SIM_CLIENT ? SIM_SERVER : SIM_CLIENT;
}

/* The first failure found wins: later checks must not hide its cause. */
static void
fail(struct sim_result *r, enum sim_outcome o, const char *fmt, ...)
{
	va_list ap;

	if (r->outcome != SIM_OK)
		return;
	r->outcome = o;
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
}

/* Pool. */

static bool
pkt_alloc(struct sim *s, uint32_t *idx)
{
	if (s->free_top == 0)
		return false;
	*idx = s->free[--s->free_top];
	return true;
}

static void
pkt_release(struct sim *s, uint32_t idx)
{
	s->free[s->free_top++] = idx;
}

static void
release_cb(void *ctx, uintptr_t handle, uint32_t len)
{
	(void)len;
	pkt_release(ctx, (uint32_t)handle);
}

/* impair_ops.dup: a byte copy into a free buffer, or no copy at all. */
static bool
dup_cb(void *ctx, uintptr_t handle, uint32_t len, uintptr_t *copy)
{
	struct sim *s = ctx;
	uint32_t idx;

	if (!pkt_alloc(s, &idx))
		return false;
	s->pool[idx].len = len;
	s->pool[idx].to = s->pool[handle].to;
	s->pool[idx].src = s->pool[handle].src;
	s->pool[idx].dst = s->pool[handle].dst;
	memcpy(s->pool[idx].bytes, s->pool[handle].bytes, len);
	*copy = idx;
	return true;
}

uint32_t
sim_pool_free(const struct sim *s)
{
	return s->free_top;
}

uint32_t
sim_in_flight(const struct sim *s)
{
	return impair_count(&s->stage[SIM_CLIENT]) + impair_count(&s->stage[SIM_SERVER]);
}

static bool
blackhole_on(const struct sim *s)
{
	const struct sim_blackhole *bh = &s->sc.blackhole;
	uint64_t t0 = s->res.t_established;

	if (!s->sc.multihome || bh->to_ns <= bh->from_ns || t0 == SCTP_TIME_NEVER)
		return false;
	return s->now >= t0 + bh->from_ns && s->now < t0 + bh->to_ns;
}

static bool
blackholed(const struct sim *s, const struct sctp_addr *dst)
{
	const struct sim_blackhole *bh = &s->sc.blackhole;

	return blackhole_on(s) && bh->side < SIM_SIDES && bh->addr < s->side[bh->side].n_addrs &&
	       sctp_addr_eq(dst, &s->side[bh->side].addrs[bh->addr]);
}

/* alt_loss_ppb: a draw only for packets of the second network. */
static bool
alt_lost(struct sim *s, const struct sctp_addr *src, const struct sctp_addr *dst)
{
	const struct sim_endside *sv = &s->side[SIM_SERVER];

	if (s->sc.alt_loss_ppb == 0 || sv->n_addrs < 2)
		return false;
	if (!sctp_addr_eq(src, &sv->addrs[1]) && !sctp_addr_eq(dst, &sv->addrs[1]))
		return false;
	return impair_rng_chance(&s->alt_rng, s->sc.alt_loss_ppb);
}

/*
 * Sending: the bytes go into a buffer, the buffer into the sender's stage;
 * the black hole and the second network's loss act first, and take no
 * buffer.
 */
static void
transmit(struct sim_endside *x, const uint8_t *bytes, size_t len, const struct sctp_addr *src,
	 const struct sctp_addr *dst)
{
	struct sim *s = x->sim;
	struct sim_dir_stats *st = &s->res.dir[x->id];
	uint32_t idx;

	if (blackholed(s, dst)) {
		st->sent++;
		st->blackholed++;
		return;
	}
	if (alt_lost(s, src, dst)) {
		st->sent++;
		st->alt_lost++;
		return;
	}
	if (len > SIM_PKT_MAX || !pkt_alloc(s, &idx)) {
		st->no_buffer++;
		return;
	}
	s->pool[idx].len = (uint32_t)len;
	s->pool[idx].to = (uint8_t)other(x->id);
	s->pool[idx].src = *src;
	s->pool[idx].dst = *dst;
	memcpy(s->pool[idx].bytes, bytes, len);
	st->sent++;
	if (impair_push(&s->stage[x->id], idx, (uint32_t)len, s->now) != IMPAIR_QUEUED) {
		st->dropped++;
		pkt_release(s, idx);
	}
}

static void
send_cb(void *ctx, const uint8_t *bytes, size_t len, const struct sctp_addr *src,
	const struct sctp_addr *dst)
{
	transmit(ctx, bytes, len, src, dst);
}

/* One association per side, so one handshake scratch per side. */
static struct sctp_assoc_handshake *
hs_get_cb(void *ctx)
{
	struct sim_endside *x = ctx;

	if (x->hs_lent)
		return NULL;
	x->hs_lent = true;
	return &x->hs;
}

static void
hs_put_cb(void *ctx, struct sctp_assoc_handshake *hs)
{
	struct sim_endside *x = ctx;

	if (hs != &x->hs || !x->hs_lent)
		fail(&x->sim->res, SIM_LEAK, "handshake scratch given back twice or not ours");
	x->hs_lent = false;
}

/*
 * One block per side, so one association's worth: the peer's addresses
 * beyond the first. A second request while it is lent, or one for more
 * than it holds, is refused and counted (the association then ignores the
 * addresses, which a multihome run would notice as a missing path).
 */
static struct sctp_path *
paths_get_cb(void *ctx, unsigned want, unsigned *got)
{
	struct sim_endside *x = ctx;
	const unsigned len = sizeof(x->paths_block) / sizeof(x->paths_block[0]);

	if (x->paths_lent || want > len) {
		x->sim->res.path[x->id].paths_refused++;
		return NULL;
	}
	x->paths_lent = true;
	*got = len;
	return x->paths_block;
}

static void
paths_put_cb(void *ctx, struct sctp_path *block)
{
	struct sim_endside *x = ctx;

	if (block != x->paths_block || !x->paths_lent)
		fail(&x->sim->res, SIM_LEAK, "path block given back twice or not ours");
	x->paths_lent = false;
}

/* Index of addr among side id's addresses, SIM_ADDRS when it is none of them. */
static unsigned
addr_index(const struct sim *s, enum sim_side id, const struct sctp_addr *addr)
{
	const struct sim_endside *x = &s->side[id];

	for (unsigned i = 0; i < x->n_addrs; i++)
		if (sctp_addr_eq(addr, &x->addrs[i]))
			return i;
	return SIM_ADDRS;
}

/* A PEER_ADDR_CHANGE: counted per address and kind; the primary's milestones. */
static void
note_addr_change(struct sim_endside *x, const struct sctp_notification *n)
{
	struct sim *s = x->sim;
	struct sim_path_result *pr = &s->res.path[x->id];
	unsigned i = addr_index(s, other(x->id), &n->addr);

	s->res.addr_changes[x->id]++;
	if (i >= SIM_ADDRS || n->addr_state > SCTP_ADDR_CHANGE_MADE_PRIMARY)
		return;
	pr->addr_notes[i][n->addr_state]++;
	bool down = n->addr_state == SCTP_ADDR_CHANGE_POTENTIALLY_FAILED ||
		    n->addr_state == SCTP_ADDR_CHANGE_UNREACHABLE;
	if (down || n->addr_state == SCTP_ADDR_CHANGE_AVAILABLE)
		x->peer_down[i] = down;
	if (s->now < s->watch_from)
		return;
	if (i != 0) {
		if (n->addr_state == SCTP_ADDR_CHANGE_AVAILABLE && pr->alt_down_at_fail &&
		    pr->t_alt_back == SCTP_TIME_NEVER)
			pr->t_alt_back = s->now;
		return;
	}
	if (down && pr->t_pf == SCTP_TIME_NEVER && pr->t_unreachable == SCTP_TIME_NEVER)
		pr->alt_down_at_fail = x->peer_down[1];
	switch (n->addr_state) {
	case SCTP_ADDR_CHANGE_POTENTIALLY_FAILED:
		if (pr->t_pf == SCTP_TIME_NEVER)
			pr->t_pf = s->now;
		break;
	case SCTP_ADDR_CHANGE_UNREACHABLE:
		if (pr->t_unreachable == SCTP_TIME_NEVER)
			pr->t_unreachable = s->now;
		break;
	case SCTP_ADDR_CHANGE_AVAILABLE:
		if (pr->t_available == SCTP_TIME_NEVER &&
		    (pr->t_pf != SCTP_TIME_NEVER || pr->t_unreachable != SCTP_TIME_NEVER))
			pr->t_available = s->now;
		break;
	default:
		break;
	}
}

static void
notify_cb(void *ctx, const struct sctp_notification *n)
{
	struct sim_endside *x = ctx;
	struct sim_result *r = &x->sim->res;

	/* Path state changes and peer ERRORs are not the association's life. */
	if (n->type == SCTP_NOTIFY_PEER_ADDR_CHANGE) {
		note_addr_change(x, n);
		return;
	}
	if (n->type == SCTP_NOTIFY_REMOTE_ERROR) {
		r->remote_errors[x->id]++;
		return;
	}
	if (x->n_notes < SIM_NOTES_MAX) {
		x->notes[x->n_notes].at_ns = x->sim->now;
		x->notes[x->n_notes].type = n->type;
		x->notes[x->n_notes].reason = n->reason;
	}
	x->n_notes++;
	r->notes[x->id]++;
	switch (n->type) {
	case SCTP_NOTIFY_COMM_UP:
		if (r->comm_up[x->id]++ == 0)
			r->t_up[x->id] = x->sim->now;
		break;
	case SCTP_NOTIFY_SHUTDOWN_COMPLETE:
		r->shutdown_complete[x->id]++;
		r->t_closed[x->id] = x->sim->now;
		break;
	default:
		r->t_closed[x->id] = x->sim->now;
		if (r->fail_reason == SCTP_ASSOC_REASON_NONE)
			r->fail_reason = n->reason;
		break;
	}
}

/* Strategies of the endpoints: tags and TSNs from the run's seed. */
static uint32_t
choose_tag(void *ctx, const struct sctp_rx *rx)
{
	struct sim_endside *x = ctx;
	uint32_t t;

	(void)rx;
	do
		t = (uint32_t)impair_rng_next(&x->sim->rng);
	while (t == 0);
	return t;
}

static uint32_t
random32(void *ctx)
{
	struct sim_endside *x = ctx;

	return (uint32_t)impair_rng_next(&x->sim->rng);
}

static int
side_init(struct sim *s, enum sim_side id)
{
	struct sim_endside *x = &s->side[id];
	struct sctp_endpoint_config cfg;
	uint8_t key[SCTP_COOKIE_KEY_LEN];

	memset(x, 0, sizeof(*x));
	x->sim = s;
	x->id = id;
	/* Address k in network 10.0.k.0/24: one network per address index. */
	x->n_addrs = s->sc.multihome ? SIM_ADDRS : 1;
	for (unsigned k = 0; k < x->n_addrs; k++) {
		const uint8_t ip[4] = { 10, 0, (uint8_t)k, (uint8_t)(id + 1) };
		x->addrs[k] = sctp_addr_v4(ip);
	}
	x->port = id == SIM_CLIENT ? CLIENT_PORT : SERVER_PORT;
	memset(&cfg, 0, sizeof(cfg));
	cfg.port = x->port;
	cfg.profile = s->sc.profile;
	cfg.a_rwnd = 65536;
	cfg.listening = id == SIM_SERVER;
	cfg.extensions = SCTP_COOKIE_EXT_FORWARD_TSN;
	cfg.n_addrs = (uint8_t)x->n_addrs;
	for (unsigned k = 0; k < x->n_addrs; k++)
		cfg.addrs[k] = x->addrs[k];
	cfg.choose_tag = choose_tag;
	cfg.random32 = random32;
	cfg.ctx = x;
	for (unsigned i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)impair_rng_next(&s->rng);
	sctp_assoc_init(&x->a, &s->ops, x, &x->counters, &x->stats);
	return sctp_endpoint_init(&x->ep, &cfg, key, s->now);
}

int
sim_init(struct sim *s, const struct sim_scenario *sc)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->sc = *sc;
	s->now = 0;
	for (unsigned i = 0; i < SIM_POOL_SIZE; i++)
		s->free[i] = SIM_POOL_SIZE - 1 - i;
	s->free_top = SIM_POOL_SIZE;
	for (unsigned i = 0; i < SIM_SIDES; i++) {
		struct sim_path_result *pr = &s->res.path[i];

		s->res.t_up[i] = SCTP_TIME_NEVER;
		s->res.t_closed[i] = SCTP_TIME_NEVER;
		pr->t_confirmed = pr->t_pf = pr->t_unreachable = SCTP_TIME_NEVER;
		pr->t_failover = pr->t_available = pr->t_return = SCTP_TIME_NEVER;
		pr->t_alt_back = SCTP_TIME_NEVER;
	}
	s->res.t_established = SCTP_TIME_NEVER;
	s->res.t_shutdown = SCTP_TIME_NEVER;
	s->res.t_blackhole_from = SCTP_TIME_NEVER;
	s->res.t_blackhole_to = SCTP_TIME_NEVER;
	s->watch_from = SCTP_TIME_NEVER;
	if (sc->profile == NULL || sc->impair.corrupt_ppb != 0 ||
	    (!sc->multihome &&
	     (sc->alt_loss_ppb != 0 || sc->blackhole.to_ns > sc->blackhole.from_ns)) ||
	    sc->alt_loss_ppb > IMPAIR_PPB_ONE || sc->blackhole.side >= SIM_SIDES ||
	    sc->blackhole.addr >= SIM_ADDRS || impair_storage_size(SIM_POOL_SIZE) == 0 ||
	    impair_storage_size(SIM_POOL_SIZE) > sizeof(s->impair_mem[0]))
		return -EINVAL;
	s->ops.send = send_cb;
	s->ops.notify = notify_cb;
	s->ops.hs_get = hs_get_cb;
	s->ops.hs_put = hs_put_cb;
	s->ops.paths_get = paths_get_cb;
	s->ops.paths_put = paths_put_cb;
	s->stage_ops.dup = dup_cb;
	s->stage_ops.ctx = s;
	for (unsigned i = 0; i < SIM_SIDES; i++) {
		/* Distinct streams per direction; the scenario's seed names them all. */
		rc = impair_init(&s->stage[i], &sc->impair, &s->stage_ops,
				 sc->seed ^ (i * 0x9e3779b97f4a7c15ull), SIM_POOL_SIZE,
				 s->impair_mem[i], sizeof(s->impair_mem[i]));
		if (rc != 0)
			return rc;
	}
	impair_rng_seed(&s->rng, sc->seed, IMPAIR_STREAM_COUNT);
	impair_rng_seed(&s->alt_rng, sc->seed, IMPAIR_STREAM_COUNT + 1);
	rc = side_init(s, SIM_CLIENT);
	if (rc != 0)
		return rc;
	rc = side_init(s, SIM_SERVER);
	if (rc != 0) {
		sctp_endpoint_fini(&s->side[SIM_CLIENT].ep);
		return rc;
	}
	return 0;
}

void
sim_fini(struct sim *s)
{
	for (unsigned i = 0; i < SIM_SIDES; i++) {
		impair_drain(&s->stage[i], release_cb, s);
		sctp_endpoint_fini(&s->side[i].ep);
	}
}

int
sim_connect(struct sim *s)
{
	struct sim_endside *c = &s->side[SIM_CLIENT];
	struct sim_endside *sv = &s->side[SIM_SERVER];
	int rc;

	rc = sctp_assoc_connectx(&c->a, &c->ep, sv->addrs, sv->n_addrs, &c->addrs[0], c->port,
				 sv->port, s->now);
	if (rc == 0)
		c->has_assoc = true;
	return rc;
}

int
sim_shutdown(struct sim *s, enum sim_side from)
{
	return sctp_assoc_shutdown(&s->side[from].a, s->now);
}

static bool
assoc_live(const struct sim_endside *x)
{
	return x->has_assoc && !sctp_assoc_freeable(&x->a);
}

/*
 * Whether the packet belongs to x's association, by verification tag as
 * the data plane will find it: our tag, or the peer's tag reflected with
 * the T bit (RFC 9260 §8.5.1 B, C: ABORT, SHUTDOWN COMPLETE). An INIT
 * (tag 0) always goes to the endpoint.
 */
static bool
routes_to_assoc(const struct sim_endside *x, const struct sim_pkt *p)
{
	uint32_t vtag;
	bool t_bit;

	if (!assoc_live(x) || p->len < SCTP_COMMON_HDR_LEN + 4)
		return false;
	vtag = (uint32_t)p->bytes[4] << 24 | (uint32_t)p->bytes[5] << 16 |
	       (uint32_t)p->bytes[6] << 8 | p->bytes[7];
	t_bit = (p->bytes[SCTP_COMMON_HDR_LEN + 1] & SCTP_FLAG_T) != 0;
	if (vtag == 0)
		return false;
	return vtag == x->a.local_vtag || (t_bit && vtag == x->a.peer_vtag);
}

static void
deliver(struct sim *s, struct sim_pkt *p)
{
	struct sim_endside *x = &s->side[p->to];
	struct sctp_rx rx;
	struct sctp_tx tx;
	struct sctp_cookie_state st;
	enum sctp_ep_drop drop;
	enum sctp_ootb_result r;
	uint64_t out[SIM_PKT_MAX / 8];

	memset(&rx, 0, sizeof(rx));
	if (sctp_packet_parse(&rx.pkt, p->bytes, p->len) != SCTP_PERR_OK) {
		fail(&s->res, SIM_BAD_STATE, "side %u sent a packet that does not parse", p->to);
		return;
	}
	rx.src = p->src;
	rx.dst = p->dst;
	if (routes_to_assoc(x, p)) {
		sctp_assoc_input(&x->a, &rx, s->now);
		return;
	}
	memset(&tx, 0, sizeof(tx));
	tx.buf = (uint8_t *)out;
	tx.cap = sizeof(out);
	r = sctp_endpoint_input(&x->ep, &rx, s->now, &tx, &st, &drop);
	if (r != SCTP_OOTB_DISCARD && tx.len != 0)
		transmit(x, tx.buf, tx.len, &tx.src, &tx.dst);
	if (r != SCTP_OOTB_NEW_ASSOC)
		return;
	if (x->has_assoc && !sctp_assoc_freeable(&x->a)) {
		fail(&s->res, SIM_BAD_STATE, "side %u: a cookie for a second association", p->to);
		return;
	}
	/* A closed association is reused, as the data plane would reuse its slot. */
	sctp_assoc_init(&x->a, &s->ops, x, &x->counters, &x->stats);
	x->has_assoc = true;
	if (p->to == SIM_SERVER)
		s->res.server_assocs++;
	if (sctp_assoc_from_cookie(&x->a, &x->ep, &st, s->now) != 0) {
		fail(&s->res, SIM_BAD_STATE, "side %u: sctp_assoc_from_cookie failed", p->to);
		return;
	}
	sctp_assoc_input_after_cookie(&x->a, &rx, s->now);
}

static uint64_t
wakeup_of(const struct sim_endside *x)
{
	return assoc_live(x) ? sctp_assoc_next_wakeup(&x->a) : SCTP_TIME_NEVER;
}

uint64_t
sim_next_event(const struct sim *s)
{
	uint64_t t = SCTP_TIME_NEVER;

	for (unsigned i = 0; i < SIM_SIDES; i++) {
		uint64_t due = impair_next_due(&s->stage[i]);
		uint64_t w = wakeup_of(&s->side[i]);

		if (due < t)
			t = due;
		if (w < t)
			t = w;
	}
	return t;
}

static bool
all_confirmed(const struct sim_endside *x)
{
	const struct sctp_paths *ps = &x->a.paths;

	if (!assoc_live(x) || ps->n < x->sim->side[other(x->id)].n_addrs)
		return false;
	for (unsigned i = 0; i < ps->n; i++)
		if (!(sctp_paths_get_const(ps, i)->flags & SCTP_PATH_F_CONFIRMED))
			return false;
	return true;
}

/*
 * After every event: the counters' moves become milestones (the event that
 * moved them happened at s->now; the clock does not move within a step).
 */
static void
watch_paths(struct sim *s)
{
	for (unsigned i = 0; i < SIM_SIDES; i++) {
		struct sim_endside *x = &s->side[i];
		struct sim_path_result *pr = &s->res.path[i];

		if (x->counters.failovers != pr->failovers) {
			pr->failovers = x->counters.failovers;
			if (pr->t_failover == SCTP_TIME_NEVER && s->now >= s->watch_from)
				pr->t_failover = s->now;
		}
		if (x->counters.primary_returns != pr->primary_returns) {
			pr->primary_returns = x->counters.primary_returns;
			if (pr->t_return == SCTP_TIME_NEVER && pr->t_failover != SCTP_TIME_NEVER)
				pr->t_return = s->now;
		}
		pr->heartbeats_sent = x->stats.heartbeats_sent;
		if (assoc_live(x))
			pr->n_paths = x->a.paths.n;
		if (pr->t_confirmed == SCTP_TIME_NEVER && s->sc.multihome && all_confirmed(x))
			pr->t_confirmed = s->now;
	}
}

bool
sim_step(struct sim *s, uint64_t limit_ns)
{
	uint64_t t = sim_next_event(s);
	uintptr_t h;
	uint32_t len;

	if (t == SCTP_TIME_NEVER || t > limit_ns)
		return false;
	if (t > s->now)
		s->now = t;
	s->res.events++;
	for (unsigned i = 0; i < SIM_SIDES; i++) {
		if (impair_pop(&s->stage[i], s->now, &h, &len)) {
			s->res.dir[i].delivered++;
			deliver(s, &s->pool[h]);
			pkt_release(s, (uint32_t)h);
			watch_paths(s);
			return true;
		}
	}
	for (unsigned i = 0; i < SIM_SIDES; i++) {
		if (wakeup_of(&s->side[i]) <= s->now) {
			sctp_assoc_timeout(&s->side[i].a, s->now);
			watch_paths(s);
			return true;
		}
	}
	return true;
}

/*
 * Nothing left to happen but heartbeats: both stages empty and no timer
 * running other than the heartbeat timer, which an established
 * association runs for as long as it lives (RFC 9260 §8.3).
 */
static bool
sim_quiet(const struct sim *s)
{
	for (unsigned i = 0; i < SIM_SIDES; i++) {
		const struct sim_endside *x = &s->side[i];

		if (impair_next_due(&s->stage[i]) != SCTP_TIME_NEVER)
			return false;
		for (unsigned t = 0; assoc_live(x) && t < SCTP_ASSOC_TIMER_COUNT; t++)
			if (t != SCTP_ASSOC_T_HEARTBEAT && x->a.timer_at[t] != SCTP_TIME_NEVER)
				return false;
	}
	return true;
}

/* Run until pred holds (NULL: until quiet), or the deadline passes. */
static void
run_until(struct sim *s, bool (*pred)(const struct sim *), uint64_t deadline)
{
	while (!(pred != NULL ? pred(s) : sim_quiet(s)) && s->res.outcome == SIM_OK &&
	       sim_step(s, deadline))
		;
}

static bool
both_up_or_ended(const struct sim *s)
{
	const struct sim_result *r = &s->res;

	return (r->comm_up[SIM_CLIENT] && r->comm_up[SIM_SERVER]) ||
	       !assoc_live(&s->side[SIM_CLIENT]);
}

static bool
both_closed(const struct sim *s)
{
	return !assoc_live(&s->side[SIM_CLIENT]) && !assoc_live(&s->side[SIM_SERVER]);
}

/* Every event up to and including limit_ns. */
static void
run_to(struct sim *s, uint64_t limit_ns)
{
	while (s->res.outcome == SIM_OK && sim_step(s, limit_ns))
		;
}

static bool
both_live(const struct sim *s)
{
	return assoc_live(&s->side[SIM_CLIENT]) && assoc_live(&s->side[SIM_SERVER]);
}

static bool
paths_confirmed_or_ended(const struct sim *s)
{
	return (all_confirmed(&s->side[SIM_CLIENT]) && all_confirmed(&s->side[SIM_SERVER])) ||
	       !both_live(s);
}

/* Side i failed over and is not back on its primary, or has a path not active. */
static const char *
still_down(const struct sim *s, unsigned i)
{
	const struct sim_path_result *pr = &s->res.path[i];
	const struct sctp_paths *ps = &s->side[i].a.paths;

	if (pr->t_failover != SCTP_TIME_NEVER && pr->t_return == SCTP_TIME_NEVER)
		return "failed over and never returned to its primary";
	for (unsigned k = 0; k < ps->n; k++)
		if (sctp_paths_get_const(ps, k)->state != SCTP_PATH_ACTIVE)
			return "a path still PF or unreachable";
	return NULL;
}

/* After the repair: healed on both sides, or an association ended. */
static bool
healed_or_ended(const struct sim *s)
{
	if (!both_live(s))
		return true;
	return still_down(s, SIM_CLIENT) == NULL && still_down(s, SIM_SERVER) == NULL;
}

/* RTO of the path from side id to the peer's address 0 (the primary). */
static uint64_t
primary_rto(const struct sim *s, enum sim_side id)
{
	const struct sim_endside *x = &s->side[id];
	int i = sctp_paths_find(&x->a.paths, &s->side[other(id)].addrs[0]);

	return i < 0 ? 0 : sctp_paths_get_const(&x->a.paths, (unsigned)i)->rto.rto_ns;
}

/*
 * Multihome, once both sides are up: confirmation, then the black hole,
 * then the return to the primary (sim_run()'s comment).
 */
static void
run_paths(struct sim *s, uint64_t deadline)
{
	struct sim_result *r = &s->res;
	const struct sim_blackhole *bh = &s->sc.blackhole;
	bool has_bh = bh->to_ns > bh->from_ns;
	uint64_t open = r->t_established + bh->from_ns, shut = r->t_established + bh->to_ns;

	s->watch_from = has_bh ? open : r->t_established;
	/* open >= t_established > 0: the handshake takes at least one round trip. */
	run_until(s, paths_confirmed_or_ended, has_bh ? open - 1 : deadline);
	if (!both_live(s))
		return; /* judged at the end, as any association that ended early */
	if (!all_confirmed(&s->side[SIM_CLIENT]) || !all_confirmed(&s->side[SIM_SERVER])) {
		fail(r, SIM_BAD_STATE,
		     "paths not all confirmed (client %u, server %u paths) by t=%" PRIu64 " ns",
		     s->side[SIM_CLIENT].a.paths.n, s->side[SIM_SERVER].a.paths.n, s->now);
		return;
	}
	if (!has_bh)
		return;
	r->t_blackhole_from = open;
	r->t_blackhole_to = shut;
	run_to(s, open - 1);
	for (unsigned i = 0; i < SIM_SIDES; i++)
		r->path[i].rto_open_ns = primary_rto(s, (enum sim_side)i);
	run_to(s, shut - 1);
	for (unsigned i = 0; i < SIM_SIDES; i++)
		r->path[i].rto_repair_ns = primary_rto(s, (enum sim_side)i);
	/* Nothing is due before the repair: what follows (a shutdown) starts at it or later. */
	if (s->now < shut)
		s->now = shut;
	run_until(s, healed_or_ended, deadline);
	for (unsigned i = 0; i < SIM_SIDES && both_live(s); i++)
		if (still_down(s, i) != NULL)
			fail(r, SIM_BAD_STATE, "side %u at the time limit: %s", i,
			     still_down(s, i));
}

/* The end of a run: every notification as the outcome implies it. */
static void
check_notes(struct sim *s)
{
	struct sim_result *r = &s->res;

	for (unsigned i = 0; i < SIM_SIDES; i++) {
		if (r->comm_up[i] > 1)
			fail(r, SIM_BAD_STATE, "side %u: COMM_UP %u times", i, r->comm_up[i]);
		if (r->shutdown_complete[i] > 1)
			fail(r, SIM_BAD_STATE, "side %u: SHUTDOWN_COMPLETE %u times", i,
			     r->shutdown_complete[i]);
		if (r->notes[i] > r->comm_up[i] + 1u)
			fail(r, SIM_BAD_STATE, "side %u: %u notifications", i, r->notes[i]);
	}
	if (r->server_assocs > 1)
		fail(r, SIM_BAD_STATE, "the server created %u associations", r->server_assocs);
}

enum sim_outcome
sim_run(struct sim *s, const struct sim_scenario *sc, struct sim_result *res)
{
	struct sim_result *r = &s->res;
	uint64_t deadline;
	uint32_t in_flight;
	int rc;

	rc = sim_init(s, sc);
	if (rc != 0) {
		memset(res, 0, sizeof(*res));
		res->outcome = SIM_SETUP_ERROR;
		snprintf(res->detail, sizeof(res->detail), "sim_init: %d", rc);
		return res->outcome;
	}
	r->t_start = s->now;
	deadline = sc->time_limit_ns;
	if (sim_connect(s) != 0)
		fail(r, SIM_SETUP_ERROR, "sim_connect failed");

	run_until(s, both_up_or_ended, deadline);
	if (r->comm_up[SIM_CLIENT] && r->comm_up[SIM_SERVER]) {
		r->t_established = r->t_up[SIM_CLIENT] > r->t_up[SIM_SERVER] ? r->t_up[SIM_CLIENT]
									     : r->t_up[SIM_SERVER];
		if (sc->multihome)
			run_paths(s, deadline);
		/* An association that ended on the way (COMM_LOST) is judged below. */
		if (sc->shutdown && r->outcome == SIM_OK && both_live(s)) {
			r->t_shutdown = s->now;
			if (sim_shutdown(s, sc->shutdown_from) != 0)
				fail(r, SIM_BAD_STATE, "sctp_assoc_shutdown refused");
			run_until(s, both_closed, deadline);
		}
	}
	/* Let what is still in flight arrive (copies, late retransmissions). */
	run_until(s, NULL, deadline);
	r->t_end = s->now;
	for (unsigned i = 0; i < SIM_SIDES; i++) {
		struct sim_endside *x = &s->side[i];

		r->final_state[i] = x->a.state;
		r->collisions[i] = sim_collision_drops(&x->counters);
		r->dir[i].duplicated = impair_counters_get(&s->stage[i])->duplicated;
	}

	if (!sim_quiet(s))
		fail(r, SIM_HANG, "events still pending at the time limit (t=%" PRIu64 " ns)",
		     s->now);
	if (r->notes[SIM_CLIENT] > r->comm_up[SIM_CLIENT] && r->comm_up[SIM_CLIENT] == 0)
		fail(r, SIM_CANT_START, "the client's handshake gave up");
	for (unsigned i = 0; i < SIM_SIDES; i++) {
		if (r->notes[i] > r->comm_up[i] + r->shutdown_complete[i])
			fail(r, SIM_COMM_LOST, "side %u ended abnormally", i);
	}
	check_notes(s);
	for (unsigned i = 0; i < SIM_SIDES && r->outcome == SIM_OK; i++) {
		uint8_t want = sc->shutdown ? SCTP_ASSOC_CLOSED : SCTP_ASSOC_ESTABLISHED;

		if (r->final_state[i] != want)
			fail(r, SIM_BAD_STATE, "side %u: %s at the end, expected %s", i,
			     sctp_assoc_state_name(r->final_state[i]), sctp_assoc_state_name(want));
		if (r->comm_up[i] != 1)
			fail(r, SIM_BAD_STATE, "side %u: COMM_UP %u times", i, r->comm_up[i]);
		if (sc->shutdown && r->shutdown_complete[i] != 1)
			fail(r, SIM_BAD_STATE, "side %u: no SHUTDOWN_COMPLETE", i);
	}

	/* Nothing may be stuck in a stage once the pair has gone quiet. */
	in_flight = sim_in_flight(s);
	if (in_flight != 0)
		fail(r, SIM_LEAK, "%u packets stuck inside the stages", in_flight);
	/*
	 * Whatever is left (the peer of an association that gave up, or a
	 * pair not asked to shut down) is aborted so that the buffer check
	 * sees a quiet pair; the ABORTs it sends are drained with the rest.
	 */
	for (unsigned i = 0; i < SIM_SIDES; i++)
		if (assoc_live(&s->side[i]))
			sctp_assoc_abort(&s->side[i].a, s->now, NULL, 0);
	for (unsigned i = 0; i < SIM_SIDES; i++)
		impair_drain(&s->stage[i], release_cb, s);
	if (s->free_top != SIM_POOL_SIZE)
		fail(r, SIM_LEAK, "%u of %u buffers free", s->free_top, SIM_POOL_SIZE);
	for (unsigned i = 0; i < SIM_SIDES; i++)
		if (s->side[i].hs_lent)
			fail(r, SIM_LEAK, "side %u: handshake scratch never given back", i);
	for (unsigned i = 0; i < SIM_SIDES; i++)
		if (s->side[i].paths_lent)
			fail(r, SIM_LEAK, "side %u: path block never given back", i);
	for (unsigned i = 0; i < SIM_SIDES; i++)
		if (r->dir[i].no_buffer != 0)
			fail(r, SIM_LEAK, "side %u: %" PRIu64 " packets found no buffer", i,
			     r->dir[i].no_buffer);

	*res = *r;
	sim_fini(s);
	return res->outcome;
}

/* A time in the largest unit that writes it exactly: what impair_parse() reads back. */
static void
format_time(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		uint64_t ns;
		const char *unit;
	} units[] = { { SCTP_S(1), "s" }, { SCTP_MS(1), "ms" }, { SCTP_US(1), "us" } };

	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns != 0 && ns % units[i].ns == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].ns, units[i].unit);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64 "ns", ns);
}

/* The multihome tokens, each with a leading space; empty without multihome. */
static void
format_paths(const struct sim_scenario *sc, char *buf, size_t len)
{
	const struct sim_blackhole *bh = &sc->blackhole;
	char from[32], to[32];
	int n;

	buf[0] = '\0';
	if (!sc->multihome)
		return;
	n = snprintf(buf, len, " multihome=on");
	if (bh->to_ns > bh->from_ns && n >= 0 && (size_t)n < len) {
		format_time(bh->from_ns, from, sizeof(from));
		format_time(bh->to_ns, to, sizeof(to));
		n += snprintf(buf + n, len - (size_t)n, " blackhole=%c%u@%s-%s",
			      bh->side == SIM_CLIENT ? 'c' : 's', bh->addr, from, to);
	}
	if (sc->alt_loss_ppb != 0 && n >= 0 && (size_t)n < len) {
		/* Percent with up to seven decimals: ppb exactly, as loss= takes it. */
		uint32_t whole = sc->alt_loss_ppb / 10000000u, frac = sc->alt_loss_ppb % 10000000u;
		char f[16] = "";

		if (frac != 0) {
			snprintf(f, sizeof(f), ".%07u", frac);
			for (size_t k = strlen(f); f[k - 1] == '0'; k--)
				f[k - 1] = '\0';
		}
		snprintf(buf + n, len - (size_t)n, " altloss=%u%s%%", whole, f);
	}
}

int
sim_scenario_format(const struct sim_scenario *sc, char *buf, size_t len)
{
	char imp[256], paths[128];
	const char *prof = sc->profile == &sctp_profile_rfc  ? "rfc"
			   : sc->profile == &sctp_profile_dc ? "dc"
							     : "custom";

	impair_format(&sc->impair, sc->seed, imp, sizeof(imp));
	format_paths(sc, paths, sizeof(paths));
	if (!sc->shutdown)
		return snprintf(buf, len, "profile=%s shutdown=none%s impair=%s", prof, paths, imp);
	return snprintf(buf, len, "profile=%s shutdown=%s%s impair=%s", prof,
			sc->shutdown_from == SIM_CLIENT ? "client" : "server", paths, imp);
}
