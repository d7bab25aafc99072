/* SPDX-License-Identifier: BSD-3-Clause */
/* The RFC 9260 §16 defaults and the data-center profile (docs/PROFILES.md). */
#include <string.h>

#include "sctp/profile.h"

const struct sctp_profile sctp_profile_rfc = {
	.rto_initial_ns = SCTP_S(1),
	.rto_min_ns = SCTP_S(1),
	.rto_max_ns = SCTP_S(60),
	.rto_alpha_shift = 3,
	.rto_beta_shift = 2,
	.clock_granularity_ns = SCTP_MS(1),
	.valid_cookie_life_ns = SCTP_S(60),
	.cookie_preservative_cap_ns = SCTP_S(60),
	.max_init_retransmits = 8,
	.assoc_max_retrans = 10,
	.path_max_retrans = 5,
	.pf_enabled = false,
	.pf_max_retrans = 0,
	.primary_return = true,
	.hb_interval_ns = SCTP_S(30),
	.hb_max_burst = 1,
	.max_burst = 4,
	.sack_delay_ns = SCTP_MS(200),
	.sack_every = 2,
	.sack_immediate_on_gap_or_dup = true,
	.proto_unreach_aborts = true,
	.out_streams = 10,
	.max_in_streams = 65535,
	.frto = true,
	.pmtud = true,
	.plpmtud = false,
	.pmtu_min_v4 = SCTP_PMTU_MIN_V4,
	.plpmtud_probe_ns = SCTP_S(1),
	.plpmtud_raise_ns = SCTP_S(600),
};

const struct sctp_profile sctp_profile_dc = {
	.rto_initial_ns = SCTP_MS(10),
	.rto_min_ns = SCTP_US(500),
	.rto_max_ns = SCTP_MS(200),
	.rto_alpha_shift = 3,
	.rto_beta_shift = 2,
	.clock_granularity_ns = SCTP_US(1),
	.valid_cookie_life_ns = SCTP_S(10),
	.cookie_preservative_cap_ns = SCTP_S(10),
	.max_init_retransmits = 8,
	.assoc_max_retrans = 20,
	.path_max_retrans = 3,
	.pf_enabled = true,
	.pf_max_retrans = 0,
	.primary_return = true,
	.hb_interval_ns = SCTP_MS(50),
	.hb_max_burst = 1,
	.max_burst = 0,
	.sack_delay_ns = SCTP_US(100),
	.sack_every = 4,
	.sack_immediate_on_gap_or_dup = true,
	.proto_unreach_aborts = false,
	.out_streams = 16,
	.max_in_streams = 65535,
	.frto = true,
	.pmtud = true,
	.plpmtud = false,
	.pmtu_min_v4 = SCTP_PMTU_MIN_V4,
	.plpmtud_probe_ns = SCTP_MS(10),
	.plpmtud_raise_ns = SCTP_S(600),
};

static const struct {
	const char *name;
	const struct sctp_profile *profile;
} profiles[] = {
	[SCTP_PROFILE_RFC] = { "rfc", &sctp_profile_rfc },
	[SCTP_PROFILE_DC] = { "dc", &sctp_profile_dc },
};

#define N_PROFILES (sizeof(profiles) / sizeof(profiles[0]))

const struct sctp_profile *
sctp_profile_get(enum sctp_profile_id id)
{
	return (unsigned)id < N_PROFILES ? profiles[id].profile : NULL;
}

const char *
sctp_profile_name(enum sctp_profile_id id)
{
	return (unsigned)id < N_PROFILES ? profiles[id].name : NULL;
}

int
sctp_profile_from_name(const char *name, enum sctp_profile_id *id)
{
	for (unsigned i = 0; i < N_PROFILES; i++) {
		if (strcmp(name, profiles[i].name) == 0) {
			*id = (enum sctp_profile_id)i;
			return 0;
		}
	}
	return -1;
}

static void
path_own(struct sctp_profile *p, unsigned i, unsigned own)
{
	p->path[i].own |= (uint8_t)own;
	p->path_own |= (uint8_t)(1u << i);
}

void
sctp_profile_path_set_hb_interval(struct sctp_profile *p, unsigned i, uint64_t ns)
{
	if (i >= SCTP_PROFILE_PATHS)
		return;
	p->path[i].hb_interval_ns = ns;
	path_own(p, i, SCTP_PROFILE_OWN_HB_INTERVAL);
}

void
sctp_profile_path_set_max_retrans(struct sctp_profile *p, unsigned i, uint16_t n)
{
	if (i >= SCTP_PROFILE_PATHS)
		return;
	p->path[i].path_max_retrans = n;
	path_own(p, i, SCTP_PROFILE_OWN_MAX_RETRANS);
}

void
sctp_profile_path_set_pf(struct sctp_profile *p, unsigned i, bool on, uint16_t pfmr)
{
	if (i >= SCTP_PROFILE_PATHS)
		return;
	p->path[i].pf_enabled = on;
	p->path[i].pf_max_retrans = on ? pfmr : 0;
	path_own(p, i, SCTP_PROFILE_OWN_PF);
}

void
sctp_profile_paths_follow(struct sctp_profile *p, unsigned own)
{
	for (unsigned i = 0; i < SCTP_PROFILE_PATHS; i++) {
		p->path[i].own &= (uint8_t)~own;
		if (p->path[i].own == 0) {
			memset(&p->path[i], 0, sizeof(p->path[i]));
			p->path_own &= (uint8_t) ~(1u << i);
		}
	}
}

/* The per-path values, as the association's are checked below. */
static const char *
profile_check_paths(const struct sctp_profile *p)
{
	for (unsigned i = 0; i < SCTP_PROFILE_PATHS; i++) {
		bool own = p->path[i].own != 0;
		uint16_t pfmr = 0;

		if (own != (((p->path_own >> i) & 1u) != 0) ||
		    (p->path[i].own &
		     ~(unsigned)(SCTP_PROFILE_OWN_HB_INTERVAL | SCTP_PROFILE_OWN_MAX_RETRANS |
				 SCTP_PROFILE_OWN_PF)))
			return "path_own does not match the per-path values";
		if (!own)
			continue;
		if (sctp_profile_path_max_retrans(p, i) == 0)
			return "a path's path_max_retrans is 0";
		if (sctp_profile_pf(p, i, &pfmr) && pfmr >= sctp_profile_path_max_retrans(p, i))
			return "a path's pf_max_retrans >= its path_max_retrans (RFC 7829)";
		if (sctp_profile_hb_interval(p, i) == 0)
			return "a path's hb_interval_ns is 0";
	}
	return NULL;
}

const char *
sctp_profile_check(const struct sctp_profile *p)
{
	if (p->clock_granularity_ns == 0)
		return "clock_granularity_ns is 0";
	if (p->rto_min_ns < p->clock_granularity_ns)
		return "rto_min_ns < clock_granularity_ns";
	if (p->rto_min_ns > p->rto_initial_ns)
		return "rto_min_ns > rto_initial_ns";
	if (p->rto_initial_ns > p->rto_max_ns)
		return "rto_initial_ns > rto_max_ns";
	/* RTO arithmetic is done in 64 bits with 4 * RTTVAR and shifts. */
	if (p->rto_max_ns > SCTP_S(3600))
		return "rto_max_ns above one hour";
	if (p->rto_alpha_shift == 0 || p->rto_alpha_shift > 8 || p->rto_beta_shift == 0 ||
	    p->rto_beta_shift > 8)
		return "rto_alpha_shift / rto_beta_shift outside 1..8";
	if (p->valid_cookie_life_ns == 0)
		return "valid_cookie_life_ns is 0";
	/* RFC 9260 §6.2: the SACK delay MUST NOT exceed 500 ms. */
	if (p->sack_delay_ns > SCTP_MS(500))
		return "sack_delay_ns above 500 ms (RFC 9260 §6.2)";
	/* A SACK held back longer than the RTO floor fires T3-rtx spuriously. */
	if (p->sack_delay_ns >= p->rto_min_ns)
		return "sack_delay_ns >= rto_min_ns";
	if (p->sack_every == 0)
		return "sack_every is 0";
	if (p->assoc_max_retrans == 0 || p->path_max_retrans == 0)
		return "assoc_max_retrans / path_max_retrans is 0";
	/* RFC 7829 §5: PFMR below PMR, or PF is the same as inactive. */
	if (p->pf_enabled && p->pf_max_retrans >= p->path_max_retrans)
		return "pf_max_retrans >= path_max_retrans (RFC 7829)";
	/* 0 would never confirm a path (RFC 9260 §5.4 probes are HB bursts). */
	if (p->hb_max_burst == 0)
		return "hb_max_burst is 0";
	if (p->hb_interval_ns == 0)
		return "hb_interval_ns is 0";
	if (p->max_seg != 0 && p->max_seg < 256)
		return "max_seg below 256";
	if (p->out_streams == 0 || p->max_in_streams == 0)
		return "out_streams / max_in_streams is 0 (RFC 9260 §3.3.2)";
	if (p->pmtu_min_v4 != 0 && (p->pmtu_min_v4 < SCTP_PMTU_MIN_V4 || p->pmtu_min_v4 > 9000))
		return "pmtu_min_v4 outside 576..9000 (0: 576)";
	if (p->plpmtud && (p->plpmtud_probe_ns == 0 || p->plpmtud_raise_ns == 0))
		return "plpmtud_probe_ns / plpmtud_raise_ns is 0";
	return profile_check_paths(p);
}
