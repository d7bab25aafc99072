/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 8899 §5.2 for one path (sctp/plpmtud.h has the diagram and the
 * search order). Pure: no clock, no I/O; the association feeds it.
 */
#include <stddef.h>

#include "sctp/plpmtud.h"

_Static_assert(sizeof(struct sctp_plpmtud) == 40, "struct sctp_plpmtud: see its comment");

static uint64_t
plp_after(uint64_t now_ns, uint64_t d)
{
	return d >= SCTP_TIME_NEVER - now_ns ? SCTP_TIME_NEVER : now_ns + d;
}

uint16_t
sctp_plpmtud_clamp(const struct sctp_plpmtud_params *p, uint32_t size)
{
	uint32_t lo = p->min, hi = p->max;

	if (hi < lo)
		hi = lo;
	if (size > hi)
		size = hi;
	if (size < lo)
		size = lo;
	size &= ~3u;
	if (size < lo) /* a floor that is not a multiple of 4: the next one up */
		size += 4;
	return (uint16_t)size;
}

/* BASE_PLPMTU on this path: 1200, unless the floor or the interface says otherwise. */
static uint16_t
plp_base(const struct sctp_plpmtud_params *p)
{
	return sctp_plpmtud_clamp(p, SCTP_PLPMTUD_BASE_PLPMTU);
}

static void
plp_want(struct sctp_plpmtud *s, uint16_t size)
{
	s->probe_size = size;
	s->probe_count = 0;
	s->out = false;
	s->probe_due = SCTP_TIME_NEVER;
}

static void
plp_complete(struct sctp_plpmtud *s, const struct sctp_plpmtud_params *p, uint64_t now_ns)
{
	s->state = SCTP_PLPMTUD_SEARCH_COMPLETE;
	plp_want(s, 0);
	s->raise_at = plp_after(now_ns, p->raise_ns);
}

/* SEARCHING: the next size to probe above the PLPMTU, or the search is over. */
static void
plp_search_next(struct sctp_plpmtud *s, const struct sctp_plpmtud_params *p, uint64_t now_ns)
{
	uint32_t c;

	if (s->plpmtu >= s->high) {
		plp_complete(s, p, now_ns);
		return;
	}
	if (s->phase == 0)
		c = s->high;
	else
		c = (uint32_t)s->plpmtu +
		    (s->phase == 1 ? SCTP_PLPMTUD_BIG_STEP : SCTP_PLPMTUD_SMALL_STEP);
	if (c > s->high)
		c = s->high;
	plp_want(s, (uint16_t)c);
}

void
sctp_plpmtud_start(struct sctp_plpmtud *s, const struct sctp_plpmtud_params *p, uint16_t start)
{
	s->state = SCTP_PLPMTUD_SEARCHING;
	s->phase = 0;
	s->plpmtu = sctp_plpmtud_clamp(p, start);
	s->high = sctp_plpmtud_clamp(p, p->max);
	s->nonce = 0;
	s->raise_at = SCTP_TIME_NEVER;
	s->confirming = true;
	s->confirm_next = false;
	s->search_lost = 0;
	plp_want(s, s->plpmtu);
}

void
sctp_plpmtud_stop(struct sctp_plpmtud *s)
{
	s->state = SCTP_PLPMTUD_DISABLED;
	s->confirming = false;
	s->confirm_next = false;
	s->search_lost = 0;
	plp_want(s, 0);
	s->raise_at = SCTP_TIME_NEVER;
}

void
sctp_plpmtud_sent(struct sctp_plpmtud *s, uint64_t nonce, uint64_t now_ns, uint64_t timeout_ns)
{
	if (sctp_plpmtud_want(s) == 0)
		return;
	s->out = true;
	s->nonce = nonce;
	s->probe_due = plp_after(now_ns, timeout_ns);
}

static enum sctp_plpmtud_change
plp_set(struct sctp_plpmtud *s, uint16_t size)
{
	uint16_t old = s->plpmtu;

	s->plpmtu = size;
	return size < old   ? SCTP_PLPMTUD_LOWER
	       : size > old ? SCTP_PLPMTUD_HIGHER
			    : SCTP_PLPMTUD_SAME;
}

int
sctp_plpmtud_on_ack(struct sctp_plpmtud *s, const struct sctp_plpmtud_params *p, uint16_t size,
		    uint64_t nonce, uint64_t now_ns, enum sctp_plpmtud_change *change)
{
	*change = SCTP_PLPMTUD_SAME;
	if (s->state == SCTP_PLPMTUD_DISABLED || !s->out || size != s->probe_size ||
	    nonce != s->nonce)
		return -1;
	s->out = false;
	s->probe_due = SCTP_TIME_NEVER;
	s->probe_count = 0;
	if (s->confirming) {
		/* The PLPMTU carries: no black hole. */
		s->confirming = false;
		if (s->state == SCTP_PLPMTUD_SEARCHING) {
			/* The same size again, its lost probes still counted. */
			plp_search_next(s, p, now_ns);
			if (s->state == SCTP_PLPMTUD_SEARCHING)
				s->probe_count = s->search_lost;
		} else {
			plp_want(s, 0);
		}
		s->search_lost = 0;
		return 0;
	}
	switch (s->state) {
	case SCTP_PLPMTUD_BASE:
	case SCTP_PLPMTUD_ERROR:
		/*
		 * BASE_PLPMTU confirmed: search upwards in steps (§5.2 BASE ->
		 * SEARCHING). Out of ERROR, where even BASE went unanswered, the
		 * path was more likely down than narrow: what failed before says
		 * nothing, so the whole range again, the top size first.
		 */
		if (s->state == SCTP_PLPMTUD_ERROR) {
			s->high = sctp_plpmtud_clamp(p, p->max);
			s->phase = 0;
		} else {
			s->phase = 1;
		}
		*change = plp_set(s, size);
		s->state = SCTP_PLPMTUD_SEARCHING;
		plp_search_next(s, p, now_ns);
		break;
	case SCTP_PLPMTUD_SEARCHING:
		/* A size above the PLPMTU carried: so does the PLPMTU. */
		s->confirm_next = false;
		if (size > s->plpmtu)
			*change = plp_set(s, size);
		plp_search_next(s, p, now_ns);
		break;
	default:
		plp_want(s, 0);
		break;
	}
	return 0;
}

/*
 * The PLPMTU stopped carrying (§4.3 black hole): back to BASE_PLPMTU and
 * search from there; the failed size bounds the search.
 */
static enum sctp_plpmtud_change
plp_black_hole(struct sctp_plpmtud *s, const struct sctp_plpmtud_params *p)
{
	uint16_t base = plp_base(p);
	uint16_t failed = s->plpmtu;

	s->confirming = false;
	s->confirm_next = false;
	s->search_lost = 0;
	s->phase = 1;
	s->raise_at = SCTP_TIME_NEVER;
	s->high = failed >= base + 4u ? (uint16_t)(failed - 4u) : base;
	if (failed > base) {
		s->state = SCTP_PLPMTUD_BASE;
		plp_want(s, base);
		return plp_set(s, base);
	}
	/* The PLPMTU was BASE_PLPMTU already: nothing above the floor is known to carry. */
	s->state = SCTP_PLPMTUD_ERROR;
	plp_want(s, base);
	return plp_set(s, p->min);
}

/* MAX_PROBES probes of probe_size lost. */
static enum sctp_plpmtud_change
plp_size_failed(struct sctp_plpmtud *s, const struct sctp_plpmtud_params *p, uint64_t now_ns)
{
	if (s->confirming)
		return plp_black_hole(s, p);
	switch (s->state) {
	case SCTP_PLPMTUD_BASE:
	case SCTP_PLPMTUD_ERROR: {
		/* §5.2 BASE -> ERROR: MIN_PLPMTU, BASE_PLPMTU probed again. */
		s->state = SCTP_PLPMTUD_ERROR;
		plp_want(s, plp_base(p));
		return plp_set(s, p->min);
	}
	case SCTP_PLPMTUD_SEARCHING:
		s->high = s->probe_size >= s->plpmtu + 4u ? (uint16_t)(s->probe_size - 4u)
							  : s->plpmtu;
		if (s->phase < 2)
			s->phase++;
		plp_search_next(s, p, now_ns);
		return SCTP_PLPMTUD_SAME;
	default:
		plp_want(s, 0);
		return SCTP_PLPMTUD_SAME;
	}
}

/* Probe the PLPMTU itself now; a search resumes after it (sctp_plpmtud_on_loss()). */
static void
plp_confirm(struct sctp_plpmtud *s)
{
	s->confirm_next = false;
	s->search_lost = s->state == SCTP_PLPMTUD_SEARCHING ? s->probe_count : 0;
	s->confirming = true;
	plp_want(s, s->plpmtu);
}

enum sctp_plpmtud_change
sctp_plpmtud_on_timer(struct sctp_plpmtud *s, const struct sctp_plpmtud_params *p, uint64_t now_ns,
		      unsigned *lost)
{
	enum sctp_plpmtud_change ch = SCTP_PLPMTUD_SAME;

	if (s->state == SCTP_PLPMTUD_DISABLED)
		return ch;
	if (s->out && s->probe_due <= now_ns) {
		s->out = false;
		s->probe_due = SCTP_TIME_NEVER;
		if (lost != NULL)
			(*lost)++;
		/* Wanted again at once, unless that was the last of MAX_PROBES. */
		if (++s->probe_count >= SCTP_PLPMTUD_MAX_PROBES)
			ch = plp_size_failed(s, p, now_ns);
		if (s->confirm_next && !s->confirming &&
		    (s->state == SCTP_PLPMTUD_SEARCHING ||
		     s->state == SCTP_PLPMTUD_SEARCH_COMPLETE))
			plp_confirm(s);
		s->confirm_next = false;
	}
	if (s->state == SCTP_PLPMTUD_SEARCH_COMPLETE && s->raise_at <= now_ns && !s->confirming &&
	    !s->out) {
		/* §5.2 PMTU_RAISE_TIMER: the path may have grown; the top size first. */
		s->state = SCTP_PLPMTUD_SEARCHING;
		s->raise_at = SCTP_TIME_NEVER;
		s->high = sctp_plpmtud_clamp(p, p->max);
		s->phase = 0;
		plp_search_next(s, p, now_ns);
	}
	return ch;
}

void
sctp_plpmtud_on_loss(struct sctp_plpmtud *s)
{
	if ((s->state != SCTP_PLPMTUD_SEARCHING && s->state != SCTP_PLPMTUD_SEARCH_COMPLETE) ||
	    s->confirming)
		return;
	if (s->out) {
		s->confirm_next = true; /* after the search probe out */
		return;
	}
	plp_confirm(s);
}

enum sctp_plpmtud_change
sctp_plpmtud_on_ptb(struct sctp_plpmtud *s, const struct sctp_plpmtud_params *p, uint32_t mtu,
		    uint64_t now_ns)
{
	if (s->state == SCTP_PLPMTUD_DISABLED)
		return SCTP_PLPMTUD_SAME;
	uint16_t size = sctp_plpmtud_clamp(p, mtu);
	if (size >= s->plpmtu)
		return SCTP_PLPMTUD_SAME;
	/* §4.6.2: the PTB's size is used at once and confirmed by a probe. */
	s->state = SCTP_PLPMTUD_SEARCH_COMPLETE;
	s->high = size;
	s->raise_at = plp_after(now_ns, p->raise_ns);
	s->confirming = true;
	s->confirm_next = false;
	s->search_lost = 0;
	plp_want(s, size);
	return plp_set(s, size);
}

const char *
sctp_plpmtud_state_name(enum sctp_plpmtud_state st)
{
	static const char *const names[] = {
		[SCTP_PLPMTUD_DISABLED] = "disabled",
		[SCTP_PLPMTUD_BASE] = "base",
		[SCTP_PLPMTUD_SEARCHING] = "searching",
		[SCTP_PLPMTUD_SEARCH_COMPLETE] = "search_complete",
		[SCTP_PLPMTUD_ERROR] = "error",
	};
	return (unsigned)st < sizeof(names) / sizeof(names[0]) ? names[st] : "unknown";
}
