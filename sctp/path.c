/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Path management, RFC 9260 §5.4, §6.4, §8.1-§8.3 and RFC 7829: see path.h
 * for the API and docs/PATHS.md for the rules and the state diagram.
 *
 * Storage: path 0 in the set, paths 1 .. cap-1 in the caller's block, every
 * access through sctp_paths_get(); invariant 1 <= n <= cap <=
 * SCTP_MAX_PATHS, and more != NULL whenever cap > 1. Nothing here allocates;
 * attaching a block copies at most 7 paths (560 bytes).
 */
#include <string.h>

#include "sctp/path.h"
#include "sctp/reader.h"

_Static_assert((SCTP_MAX_PATHS) * (SCTP_PATH_EV_BITS) <= 32, "per-path events fit bits 0..31");
_Static_assert(SCTP_MAX_PATHS <= 32, "heartbeat masks are 32 bits");
/*
 * Sizes on LP64 (every DPDK target this builds for): a path is 56 bytes of
 * 64-bit fields (the RTO estimator's 24, four times 8 more), 16 of address,
 * 8 of state, flags, error counter and jitter value, then the path MTU
 * and its flags (3 bytes, 5 of padding): 88 (80 before the MTU moved from
 * the association into the path). The set is 8 bytes of small fields, the
 * block pointer (8), path 0 (88), the probe window (8) and the probe
 * counter, the start MTU and the refusal counter (2 + 2 + 4): 120.
 */
_Static_assert(sizeof(struct sctp_path) == 88, "struct sctp_path grew: see its comment");
_Static_assert(sizeof(void *) != 8 || sizeof(struct sctp_paths) == 120,
	       "struct sctp_paths grew: see its comment");
_Static_assert(SCTP_MAX_PATHS <= UINT8_MAX, "n and cap are 8 bits");
/* Per-path values live in the profile (sctp/profile.h), one entry and one bit per path. */
_Static_assert(SCTP_PROFILE_PATHS == SCTP_MAX_PATHS, "a per-path value for every path");
_Static_assert(SCTP_MAX_PATHS <= 8, "struct sctp_profile.path_own is 8 bits");

/* How a path is probed (docs/PATHS.md "Heartbeats"). */
enum hb_mode {
	HB_NONE,   /* heartbeats off for this path */
	HB_PROBE,  /* one per RTO, back to back: unconfirmed (§5.4) or PF (RFC 7829) */
	HB_NORMAL, /* when idle for RTO + HB.interval +- RTO/2 (§8.3) */
};

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > SCTP_TIME_NEVER - b ? SCTP_TIME_NEVER : a + b;
}

static uint64_t
max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static bool
confirmed(const struct sctp_path *pa)
{
	return (pa->flags & SCTP_PATH_F_CONFIRMED) != 0;
}

/* Confirmed and in state s: a candidate for data in that tier. */
static bool
usable(const struct sctp_path *pa, enum sctp_path_state s)
{
	return confirmed(pa) && pa->state == s;
}

static enum hb_mode
hb_mode(const struct sctp_path *pa)
{
	/* §5.4: probe each RTO; once inactive, "lowered to the normal rate". */
	if (!confirmed(pa))
		return pa->state == SCTP_PATH_INACTIVE ? HB_NORMAL : HB_PROBE;
	/* RFC 7829: a PF path is probed each RTO; we do so whatever the user's setting. */
	if (pa->state == SCTP_PATH_PF)
		return HB_PROBE;
	return (pa->flags & SCTP_PATH_F_HB_ENABLED) ? HB_NORMAL : HB_NONE;
}

/* Start of the current idle period: the last HEARTBEAT or new DATA sent. */
static uint64_t
hb_anchor(const struct sctp_path *pa)
{
	return max_u64(pa->hb_sent_ns, pa->last_tx_ns);
}

uint64_t
sctp_path_hb_period(const struct sctp_path *pa, uint64_t hb_interval_ns, uint32_t rnd)
{
	uint64_t rto = pa->rto.rto_ns;
	/* rto * rnd / 2^32 in 64 bits: split rto so neither product overflows. */
	uint64_t j = (rto >> 32) * rnd + (((rto & 0xffffffffu) * rnd) >> 32);

	return sat_add(sat_add(rto - rto / 2, hb_interval_ns), j);
}

/* Path i's period with its own HB.interval, or the association's. */
static uint64_t
hb_period(const struct sctp_path *pa, const struct sctp_profile *p, unsigned i, uint32_t rnd)
{
	return sctp_path_hb_period(pa, sctp_profile_hb_interval(p, i), rnd);
}

/*
 * Next heartbeat deadline of path i with nothing outstanding. A normal-rate
 * deadline may already be past (a long-idle path): that means "now".
 */
static void
hb_schedule(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i, uint64_t now_ns)
{
	struct sctp_path *pa = sctp_paths_get(ps, i);

	if (pa->flags & SCTP_PATH_F_HB_OUTSTANDING)
		return;
	pa->flags &= (uint8_t)~SCTP_PATH_F_HB_ADMITTED; /* a re-plan forfeits a granted slot */
	if (!ps->running) {
		pa->hb_due_ns = SCTP_TIME_NEVER;
		return;
	}
	switch (hb_mode(pa)) {
	case HB_PROBE:
		pa->hb_due_ns = now_ns;
		break;
	case HB_NORMAL:
		pa->hb_due_ns = sat_add(hb_anchor(pa), hb_period(pa, p, i, pa->hb_jitter));
		break;
	case HB_NONE:
		pa->hb_due_ns = SCTP_TIME_NEVER;
		break;
	}
}

static uint64_t
set_state(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i, enum sctp_path_state s,
	  uint64_t now_ns)
{
	static const unsigned ev_of[] = {
		[SCTP_PATH_ACTIVE] = SCTP_PATH_EV_ACTIVE,
		[SCTP_PATH_PF] = SCTP_PATH_EV_PF,
		[SCTP_PATH_INACTIVE] = SCTP_PATH_EV_INACTIVE,
	};
	struct sctp_path *pa = sctp_paths_get(ps, i);

	if (pa->state == s)
		return 0;
	pa->state = (uint8_t)s;
	hb_schedule(ps, p, i, now_ns);
	return SCTP_PATH_EV(i, ev_of[s]);
}

/*
 * Best confirmed active path other than `skip` (pass SCTP_MAX_PATHS for
 * none): fewest errors, then smallest RTO (the path that would notice a loss
 * soonest), then lowest index, so the choice is deterministic. -1 if none.
 */
static int
best_active(const struct sctp_paths *ps, unsigned skip)
{
	const struct sctp_path *b = NULL;
	int best = -1;

	for (unsigned i = 0; i < ps->n; i++) {
		const struct sctp_path *pa = sctp_paths_get_const(ps, i);

		if (i == skip || !usable(pa, SCTP_PATH_ACTIVE))
			continue;
		if (b == NULL || pa->errors < b->errors ||
		    (pa->errors == b->errors && pa->rto.rto_ns < b->rto.rto_ns)) {
			best = (int)i;
			b = pa;
		}
	}
	return best;
}

/*
 * RFC 7829, all paths PF or inactive: the PF path with the fewest errors;
 * a tie goes to the path data is on (the most recently used), then to the
 * primary, then to the lowest index. -1 if no confirmed path is PF.
 */
static int
best_pf(const struct sctp_paths *ps)
{
	const struct sctp_path *b = NULL;
	int best = -1;
	unsigned best_rank = 0;

	for (unsigned i = 0; i < ps->n; i++) {
		const struct sctp_path *pa = sctp_paths_get_const(ps, i);
		unsigned rank = i == ps->current ? 0 : i == ps->primary ? 1 : 2;

		if (!usable(pa, SCTP_PATH_PF))
			continue;
		if (b == NULL || pa->errors < b->errors ||
		    (pa->errors == b->errors && rank < best_rank)) {
			best = (int)i;
			b = pa;
			best_rank = rank;
		}
	}
	return best;
}

/*
 * Re-choose the path for new data after any change. Order: the primary if
 * active; else stay on the current path if active (no flapping between
 * alternates, §8.2 "only ONE ... SHOULD be chosen"); else the best active
 * alternate; else the best PF path (RFC 7829); else, all inactive, stay on
 * the path data last went to (RFC 9260 §8.2 leaves this to the
 * implementation; the most recently used path is our reading of RFC 7829's
 * dormant state operation).
 */
static uint64_t
reselect(struct sctp_paths *ps, const struct sctp_profile *p)
{
	unsigned cur = ps->current;
	unsigned want = cur;
	int alt;

	if (usable(sctp_paths_get_const(ps, ps->primary), SCTP_PATH_ACTIVE))
		want = ps->primary;
	else if (usable(sctp_paths_get_const(ps, cur), SCTP_PATH_ACTIVE))
		want = cur;
	else if ((alt = best_active(ps, SCTP_MAX_PATHS)) >= 0)
		want = (unsigned)alt;
	else if ((alt = best_pf(ps)) >= 0)
		want = (unsigned)alt;
	if (want == cur)
		return 0;
	ps->current = (uint8_t)want;
	if (want == ps->primary)
		return SCTP_PATHS_EV_PRIMARY_RETURN;
	/* RFC 7829 Primary Path Switchover: without return, the alternate becomes primary. */
	if (!p->primary_return && sctp_paths_get_const(ps, want)->state == SCTP_PATH_ACTIVE) {
		ps->primary = (uint8_t)want;
		return SCTP_PATHS_EV_FAILOVER | SCTP_PATHS_EV_PRIMARY_CHANGED;
	}
	return SCTP_PATHS_EV_FAILOVER;
}

/*
 * One error on path i (§8.2, §8.3) and, when count_assoc, on the association
 * (§8.1). An inactive path's counter stays put (§8.3 "SHOULD NOT increment
 * the error counter any more"). Thresholds are "exceeds": a path is PF at
 * PFMR + 1 errors, inactive at Path.Max.Retrans + 1 (both path i's own when
 * it has them, RFC 6458 §8.1.12), and the association is lost at
 * Association.Max.Retrans + 1.
 */
static uint64_t
count_error(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i, bool count_assoc,
	    uint64_t now_ns)
{
	struct sctp_path *pa = sctp_paths_get(ps, i);
	uint64_t ev = 0;

	if (count_assoc) {
		if (ps->assoc_errors < UINT16_MAX)
			ps->assoc_errors++;
		if (ps->assoc_errors > p->assoc_max_retrans)
			ev |= SCTP_PATHS_EV_COMM_LOST;
	}
	if (pa->state == SCTP_PATH_INACTIVE)
		return ev;
	pa->errors++;
	uint16_t pfmr = 0;
	bool pf = sctp_profile_pf(p, i, &pfmr);

	if (pa->errors > sctp_profile_path_max_retrans(p, i))
		ev |= set_state(ps, p, i, SCTP_PATH_INACTIVE, now_ns);
	else if (pf && pa->errors > pfmr)
		ev |= set_state(ps, p, i, SCTP_PATH_PF, now_ns);
	return ev;
}

/* The path answered: §8.1, §8.2 and §8.3 clears, RFC 7829 PF -> active. */
static uint64_t
path_alive(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i, uint64_t now_ns)
{
	ps->assoc_errors = 0;
	sctp_paths_get(ps, i)->errors = 0;
	return set_state(ps, p, i, SCTP_PATH_ACTIVE, now_ns);
}

/* SCTP_ADDR_V4, SCTP_ADDR_V6 or SCTP_ADDR_NONE, from the flags. */
static uint8_t
path_family(const struct sctp_path *pa)
{
	if (pa->flags & SCTP_PATH_F_V4)
		return SCTP_ADDR_V4;
	if (pa->flags & SCTP_PATH_F_V6)
		return SCTP_ADDR_V6;
	return SCTP_ADDR_NONE;
}

/* sctp_addr_eq() against the path's address, without building a struct sctp_addr. */
static bool
path_has_addr(const struct sctp_path *pa, const struct sctp_addr *a)
{
	return a->family == path_family(pa) &&
	       memcmp(pa->addr_bytes, a->bytes, sctp_addr_len(a)) == 0;
}

static void
path_init(struct sctp_path *pa, const struct sctp_profile *p, const struct sctp_addr *addr,
	  bool is_confirmed)
{
	memset(pa, 0, sizeof(*pa));
	pa->state = SCTP_PATH_ACTIVE;
	pa->flags = (p->hb_off ? 0 : SCTP_PATH_F_HB_ENABLED) |
		    (is_confirmed ? SCTP_PATH_F_CONFIRMED : 0);
	if (addr->family == SCTP_ADDR_V4)
		pa->flags |= SCTP_PATH_F_V4;
	else if (addr->family == SCTP_ADDR_V6)
		pa->flags |= SCTP_PATH_F_V6;
	sctp_rto_init(&pa->rto, p);
	pa->hb_due_ns = SCTP_TIME_NEVER;
	/* Only the family's bytes: the rest stays zero, as sctp_addr_v4() leaves it. */
	memcpy(pa->addr_bytes, addr->bytes, sctp_addr_len(addr));
}

void
sctp_paths_init(struct sctp_paths *ps, const struct sctp_profile *p,
		const struct sctp_addr *primary)
{
	memset(ps, 0, sizeof(*ps));
	path_init(&ps->first, p, primary, true);
	ps->mtu_start = SCTP_PATH_MTU_DEFAULT;
	ps->first.mtu = ps->mtu_start;
	ps->n = 1;
	ps->cap = 1;
	ps->more = NULL;
}

int
sctp_paths_attach(struct sctp_paths *ps, struct sctp_path *more, unsigned n_more)
{
	if (more == NULL || n_more == 0 || n_more < ps->n - 1u)
		return -1;
	/* The paths in use move with their state; the rest of the block is written by add(). */
	if (ps->n > 1 && more != ps->more)
		memmove(more, ps->more, (ps->n - 1u) * sizeof(*more));
	ps->more = more;
	ps->cap = (uint8_t)(n_more >= SCTP_MAX_PATHS - 1u ? SCTP_MAX_PATHS : 1u + n_more);
	return 0;
}

struct sctp_path *
sctp_paths_detach(struct sctp_paths *ps)
{
	struct sctp_path *more = ps->more;

	if (ps->n > 1)
		return NULL;
	ps->more = NULL;
	ps->cap = 1;
	return more;
}

int
sctp_paths_find(const struct sctp_paths *ps, const struct sctp_addr *addr)
{
	for (unsigned i = 0; i < ps->n; i++)
		if (path_has_addr(sctp_paths_get_const(ps, i), addr))
			return (int)i;
	return -1;
}

/* Spread one random value over the paths so their heartbeats do not beat in step. */
static uint32_t
rotate(uint32_t v, unsigned i)
{
	unsigned r = (4 * i) & 31;

	return r ? (v >> r) | (v << (32 - r)) : v;
}

static void
path_start(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i, uint64_t now_ns,
	   uint32_t rnd)
{
	struct sctp_path *pa = sctp_paths_get(ps, i);

	/*
	 * The first idle heartbeat comes a random fraction of HB.interval
	 * early: the idle period is taken to have begun up to one interval
	 * before now. Associations set up together (a restart's thousands of
	 * INITs in a second) would otherwise heartbeat together for ever, the
	 * per-period jitter of +-RTO/2 being small against the interval; with
	 * it, N idle paths cost N / interval heartbeats a second evenly from the
	 * first period on. §8.3 lets heartbeats begin at ESTABLISHED.
	 */
	uint64_t spread =
		((sctp_profile_hb_interval(p, i) >> 16) * (rotate(rnd * 0x9e3779b1u, i) >> 16));

	pa->last_tx_ns = now_ns > spread ? now_ns - spread : 0;
	pa->hb_jitter = rotate(rnd, i);
	hb_schedule(ps, p, i, now_ns);
}

int
sctp_paths_add(struct sctp_paths *ps, const struct sctp_profile *p, const struct sctp_addr *addr,
	       bool is_confirmed, uint64_t now_ns, uint32_t rnd)
{
	int found = sctp_paths_find(ps, addr);

	if (found >= 0)
		return found;
	if (ps->n >= ps->cap || sctp_addr_len(addr) == 0)
		return -1;
	unsigned i = ps->n++;

	path_init(sctp_paths_get(ps, i), p, addr, is_confirmed);
	sctp_paths_get(ps, i)->mtu = ps->mtu_start;
	path_start(ps, p, i, now_ns, rnd);
	return (int)i;
}

void
sctp_paths_set_mtu_start(struct sctp_paths *ps, uint16_t mtu)
{
	ps->mtu_start = mtu;
	for (unsigned i = 0; i < ps->n; i++) {
		struct sctp_path *pa = sctp_paths_get(ps, i);

		if (!(pa->pmtu_flags & SCTP_PATH_PMTU_FIXED))
			pa->mtu = mtu;
	}
}

void
sctp_paths_hb_start(struct sctp_paths *ps, const struct sctp_profile *p, uint64_t now_ns,
		    uint32_t rnd)
{
	ps->running = true;
	for (unsigned i = 0; i < ps->n; i++)
		path_start(ps, p, i, now_ns, rnd);
}

void
sctp_paths_hb_stop(struct sctp_paths *ps)
{
	ps->running = false;
	for (unsigned i = 0; i < ps->n; i++) {
		struct sctp_path *pa = sctp_paths_get(ps, i);

		pa->flags &= (uint8_t)~SCTP_PATH_F_HB_OUTSTANDING;
		pa->hb_due_ns = SCTP_TIME_NEVER;
	}
}

int
sctp_paths_set_hb_enabled(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i, bool on,
			  uint64_t now_ns)
{
	if (i >= ps->n)
		return -1;
	struct sctp_path *pa = sctp_paths_get(ps, i);

	if (on)
		pa->flags |= SCTP_PATH_F_HB_ENABLED;
	else
		pa->flags &= (uint8_t)~SCTP_PATH_F_HB_ENABLED;
	hb_schedule(ps, p, i, now_ns);
	return 0;
}

int
sctp_paths_set_primary(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i,
		       uint64_t *events)
{
	*events = 0;
	if (i >= ps->n || !confirmed(sctp_paths_get_const(ps, i)))
		return -1;
	ps->primary = (uint8_t)i;
	*events = reselect(ps, p);
	return 0;
}

unsigned
sctp_paths_rtx_path(const struct sctp_paths *ps, unsigned last)
{
	unsigned cur = ps->current;
	int alt;

	if (cur != last && usable(sctp_paths_get_const(ps, cur), SCTP_PATH_ACTIVE))
		return cur;
	alt = best_active(ps, last);
	return alt >= 0 ? (unsigned)alt : cur;
}

uint64_t
sctp_paths_on_t3_expiry(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i,
			uint64_t now_ns)
{
	if (i >= ps->n)
		return 0;
	sctp_rto_backoff(&sctp_paths_get(ps, i)->rto, p);
	uint64_t ev = count_error(ps, p, i, true, now_ns);

	return ev | reselect(ps, p);
}

void
sctp_paths_on_probe_expiry(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i)
{
	if (i < ps->n)
		sctp_rto_backoff(&sctp_paths_get(ps, i)->rto, p);
}

uint64_t
sctp_paths_on_data_acked(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i,
			 uint64_t now_ns)
{
	if (i >= ps->n)
		return 0;
	uint64_t ev = path_alive(ps, p, i, now_ns);

	return ev | reselect(ps, p);
}

/*
 * §5.4 HB.Max.Burst: at most that many probes of unconfirmed paths per RTO
 * window (the RTO of the path that opens the window), handed out round
 * robin from the path after the one probed last, so a path whose probe just
 * timed out cannot starve the others. A profile value of 0 would never
 * confirm a path, so it counts as 1. Paths left out wait for the next window.
 */
static uint32_t
grant_probes(struct sctp_paths *ps, const struct sctp_profile *p, uint32_t want, uint64_t now_ns)
{
	unsigned burst = p->hb_max_burst ? p->hb_max_burst : 1;
	unsigned start = ps->probe_last;
	uint32_t granted = 0;

	for (unsigned k = 1; k <= ps->n && want; k++) {
		unsigned i = (start + k) % ps->n;
		struct sctp_path *pa = sctp_paths_get(ps, i);

		if (!(want & (1u << i)))
			continue;
		want &= ~(1u << i);
		if (now_ns >= ps->probe_window_end_ns) {
			ps->probe_window_end_ns = sat_add(now_ns, pa->rto.rto_ns);
			ps->probes = 0;
		}
		if (ps->probes >= burst) {
			pa->hb_due_ns = ps->probe_window_end_ns;
			continue;
		}
		ps->probes++;
		ps->probe_last = (uint8_t)i;
		granted |= 1u << i;
	}
	return granted;
}

uint64_t
sctp_paths_on_wakeup(struct sctp_paths *ps, const struct sctp_profile *p, uint64_t now_ns,
		     uint32_t *hb_mask)
{
	uint64_t ev = 0;
	uint32_t mask = 0, probes = 0;

	for (unsigned i = 0; i < ps->n; i++) {
		struct sctp_path *pa = sctp_paths_get(ps, i);

		if (pa->hb_due_ns > now_ns)
			continue;
		if (pa->flags & SCTP_PATH_F_HB_OUTSTANDING) {
			/* §8.3: unanswered within one RTO. Back off, count, re-plan. */
			pa->flags &= (uint8_t)~SCTP_PATH_F_HB_OUTSTANDING;
			sctp_rto_backoff(&pa->rto, p);
			ev |= count_error(ps, p, i, confirmed(pa), now_ns);
			hb_schedule(ps, p, i, now_ns);
			if (pa->hb_due_ns > now_ns)
				continue;
		}
		switch (hb_mode(pa)) {
		case HB_NORMAL:
			/* Lazy idle test: new data since the anchor moves the deadline. */
			pa->hb_due_ns = sat_add(hb_anchor(pa), hb_period(pa, p, i, pa->hb_jitter));
			if (pa->hb_due_ns <= now_ns)
				mask |= 1u << i;
			else /* no longer idle: a granted slot lapses */
				pa->flags &= (uint8_t)~SCTP_PATH_F_HB_ADMITTED;
			break;
		case HB_PROBE:
			if (confirmed(pa))
				mask |= 1u << i;
			else
				probes |= 1u << i;
			break;
		case HB_NONE:
			pa->hb_due_ns = SCTP_TIME_NEVER;
			break;
		}
	}
	*hb_mask = mask | (probes ? grant_probes(ps, p, probes, now_ns) : 0);
	return ev | reselect(ps, p);
}

bool
sctp_paths_hb_budgeted(const struct sctp_paths *ps, unsigned i)
{
	if (i >= ps->n)
		return false;
	const struct sctp_path *pa = sctp_paths_get_const(ps, i);

	return hb_mode(pa) == HB_NORMAL && !(pa->flags & SCTP_PATH_F_HB_ADMITTED);
}

bool
sctp_paths_hb_probing(const struct sctp_paths *ps, unsigned i)
{
	return i < ps->n && hb_mode(sctp_paths_get_const(ps, i)) == HB_PROBE;
}

void
sctp_paths_hb_defer(struct sctp_paths *ps, unsigned i, uint64_t until_ns)
{
	if (i >= ps->n)
		return;
	struct sctp_path *pa = sctp_paths_get(ps, i);

	if (pa->flags & SCTP_PATH_F_HB_OUTSTANDING)
		return;
	pa->flags |= SCTP_PATH_F_HB_ADMITTED;
	pa->hb_due_ns = until_ns;
}

/*
 * A heartbeat's nonce: the round's secret (pa->hb_nonce, random, taken when
 * the round opened) mixed with the send time by a bijection, so every
 * HEARTBEAT of a round carries a different nonce and an ACK names its own
 * send time. Unforgeable without the secret, as one random nonce is.
 */
static uint64_t
hb_round_nonce(uint64_t secret, uint64_t sent_ns)
{
	return secret ^ (sent_ns * 0x9e3779b97f4a7c15ull);
}

int
sctp_paths_hb_info(struct sctp_paths *ps, unsigned i, uint64_t now_ns, uint64_t nonce,
		   uint32_t jitter_rnd, struct sctp_writer *w)
{
	if (i >= ps->n)
		return -1;

	struct sctp_path *pa = sctp_paths_get(ps, i);
	/* A round stays open until an ACK of one of its HEARTBEATs comes back. */
	uint64_t secret = (pa->flags & SCTP_PATH_F_NONCE_VALID) ? pa->hb_nonce : nonce;

	nonce = hb_round_nonce(secret, now_ns);
	sctp_writer_u8(w, SCTP_PATH_HB_INFO_FORMAT);
	sctp_writer_u8(w, (uint8_t)i);
	sctp_writer_u16(w, 0);
	sctp_writer_u32(w, (uint32_t)(nonce >> 32));
	sctp_writer_u32(w, (uint32_t)nonce);
	sctp_writer_u32(w, (uint32_t)(now_ns >> 32));
	sctp_writer_u32(w, (uint32_t)now_ns);
	if (!sctp_writer_ok(w))
		return -1;
	pa->hb_nonce = secret;
	pa->hb_sent_ns = now_ns;
	pa->hb_jitter = jitter_rnd;
	pa->flags &= (uint8_t)~SCTP_PATH_F_HB_ADMITTED;
	pa->hb_due_ns = sat_add(now_ns, pa->rto.rto_ns);
	pa->flags |= SCTP_PATH_F_HB_OUTSTANDING | SCTP_PATH_F_NONCE_VALID;
	return 0;
}

static enum sctp_hb_ack_verdict
hb_ack_check(const struct sctp_paths *ps, const uint8_t *info, size_t info_len, unsigned *path,
	     uint64_t *sent_ns)
{
	if (info_len != SCTP_PATH_HB_INFO_LEN)
		return SCTP_HB_ACK_BAD_LEN;

	struct sctp_reader r = sctp_reader_make(info, info_len);
	uint8_t format = sctp_reader_u8(&r);
	uint8_t i = sctp_reader_u8(&r);
	uint16_t reserved = sctp_reader_u16(&r);
	uint64_t nonce = (uint64_t)sctp_reader_u32(&r) << 32;

	nonce |= sctp_reader_u32(&r);
	uint64_t sent = (uint64_t)sctp_reader_u32(&r) << 32;

	sent |= sctp_reader_u32(&r);
	if (format != SCTP_PATH_HB_INFO_FORMAT || reserved != 0)
		return SCTP_HB_ACK_BAD_FORMAT;
	if (i >= ps->n)
		return SCTP_HB_ACK_BAD_PATH;

	const struct sctp_path *pa = sctp_paths_get_const(ps, i);
	/*
	 * Any HEARTBEAT of the open round, the last or an earlier one whose
	 * deadline passed (a probe's ACK that comes after the next probe left
	 * is still the peer alive). One comparison of the nonce, so timing
	 * tells nothing of which bits differed.
	 */
	uint64_t diff = nonce ^ hb_round_nonce(pa->hb_nonce, sent);

	if (!(pa->flags & SCTP_PATH_F_NONCE_VALID) || diff != 0 || sent > pa->hb_sent_ns)
		return SCTP_HB_ACK_BAD_NONCE;
	*path = i;
	*sent_ns = sent;
	return SCTP_HB_ACK_OK;
}

enum sctp_hb_ack_verdict
sctp_paths_on_hb_ack(struct sctp_paths *ps, const struct sctp_profile *p, const uint8_t *info,
		     size_t info_len, uint64_t now_ns, unsigned *path, uint64_t *events)
{
	unsigned i = 0;
	uint64_t sent = 0;
	enum sctp_hb_ack_verdict v = hb_ack_check(ps, info, info_len, &i, &sent);

	*events = 0;
	if (v != SCTP_HB_ACK_OK) {
		if (ps->hb_ack_rejects < UINT32_MAX)
			ps->hb_ack_rejects++;
		return v;
	}

	struct sctp_path *pa = sctp_paths_get(ps, i);
	uint64_t ev = 0;

	*path = i;
	/* The round closes: the next HEARTBEAT opens one with a new secret. */
	pa->flags &= (uint8_t) ~(SCTP_PATH_F_HB_OUTSTANDING | SCTP_PATH_F_NONCE_VALID);
	/* The HEARTBEAT acknowledged, whichever of the round: its own round trip. */
	sctp_rto_sample(&pa->rto, p, now_ns > sent ? now_ns - sent : 0);
	if (!confirmed(pa)) {
		pa->flags |= SCTP_PATH_F_CONFIRMED;
		ev |= SCTP_PATH_EV(i, SCTP_PATH_EV_CONFIRMED);
	}
	ev |= path_alive(ps, p, i, now_ns);
	/* The answered heartbeat ends this period: plan the next from its send time. */
	hb_schedule(ps, p, i, now_ns);
	*events = ev | reselect(ps, p);
	return SCTP_HB_ACK_OK;
}

uint64_t
sctp_paths_next_wakeup(const struct sctp_paths *ps)
{
	uint64_t t = SCTP_TIME_NEVER;

	for (unsigned i = 0; i < ps->n; i++) {
		uint64_t due = sctp_paths_get_const(ps, i)->hb_due_ns;

		if (due < t)
			t = due;
	}
	return t;
}

const char *
sctp_hb_ack_verdict_name(enum sctp_hb_ack_verdict v)
{
	static const char *const names[] = {
		[SCTP_HB_ACK_OK] = "ok",
		[SCTP_HB_ACK_BAD_LEN] = "bad_len",
		[SCTP_HB_ACK_BAD_FORMAT] = "bad_format",
		[SCTP_HB_ACK_BAD_PATH] = "bad_path",
		[SCTP_HB_ACK_BAD_NONCE] = "bad_nonce",
	};

	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "unknown";
}
