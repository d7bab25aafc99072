/* SPDX-License-Identifier: BSD-3-Clause */
/* RTO estimator, RFC 9260 §6.3.1 and §6.3.3 E2: see rto.h for the rules and bounds. */
#include "sctp/rto.h"

/* (1 - 1/2^shift) * old + (1/2^shift) * x, rounded down once. */
static uint64_t
ewma(uint64_t old, uint64_t x, uint8_t shift)
{
	return (((old << shift) - old) + x) >> shift;
}

static uint64_t
clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void
sctp_rto_init(struct sctp_rto *r, const struct sctp_profile *p)
{
	r->rto_ns = p->rto_initial_ns;
	r->srtt_ns = 0;
	r->rttvar_ns = 0;
}

void
sctp_rto_sample(struct sctp_rto *r, const struct sctp_profile *p, uint64_t rtt_ns)
{
	uint64_t rtt = rtt_ns < p->rto_max_ns ? rtt_ns : p->rto_max_ns;

	if (!sctp_rto_measured(r)) {
		r->srtt_ns = rtt;
		r->rttvar_ns = rtt / 2;
	} else {
		uint64_t delta = r->srtt_ns > rtt ? r->srtt_ns - rtt : rtt - r->srtt_ns;

		r->rttvar_ns = ewma(r->rttvar_ns, delta, p->rto_beta_shift);
		r->srtt_ns = ewma(r->srtt_ns, rtt, p->rto_alpha_shift);
	}
	if (r->rttvar_ns == 0)
		r->rttvar_ns = p->clock_granularity_ns;
	r->rto_ns = clamp(r->srtt_ns + 4 * r->rttvar_ns, p->rto_min_ns, p->rto_max_ns);
}

void
sctp_rto_backoff(struct sctp_rto *r, const struct sctp_profile *p)
{
	r->rto_ns = r->rto_ns > p->rto_max_ns / 2 ? p->rto_max_ns : r->rto_ns * 2;
}
