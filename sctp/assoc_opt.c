/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-association parameters (sctp/assoc_opt.h). */
#include <errno.h>
#include <string.h>

#include "sctp/assoc_internal.h"
#include "sctp/assoc_opt.h"

const struct sctp_profile *
sctp_assoc_profile(const struct sctp_assoc *a)
{
	return assoc_profile(a);
}

struct sctp_assoc_opts *
sctp_assoc_opts(const struct sctp_assoc *a)
{
	if (a->prof == NULL || a->ep == NULL || a->prof == a->ep->cfg.profile)
		return NULL;
	/* The profile is the block's first member. */
	return (struct sctp_assoc_opts *)(uintptr_t)a->prof;
}

/*
 * The congestion parameters without a block: the data configuration's,
 * else those of the endpoint's profile (the data-center set for the
 * data-center profile).
 */
static const struct sctp_cc_params *
assoc_default_cc(const struct sctp_assoc *a)
{
	const struct sctp_data_config *d = a->ep != NULL ? a->ep->cfg.data : NULL;
	const struct sctp_cc_params *cc = d != NULL ? d->cc : NULL;

	if (cc == NULL)
		cc = a->ep != NULL && a->ep->cfg.profile == &sctp_profile_dc ? &sctp_cc_params_dc
									     : &sctp_cc_params_rfc;
	if (sctp_cc_params_check(cc) != NULL)
		cc = &sctp_cc_params_rfc;
	return cc;
}

const struct sctp_cc_params *
assoc_opts_cc(const struct sctp_assoc *a)
{
	struct sctp_assoc_opts *o = sctp_assoc_opts(a);

	return o != NULL ? &o->cc : assoc_default_cc(a);
}

void
sctp_assoc_opts_init(struct sctp_assoc_opts *o, const struct sctp_assoc *a)
{
	const struct sctp_assoc_opts *cur = sctp_assoc_opts(a);

	if (cur != NULL) {
		if (cur != o)
			*o = *cur;
		return;
	}
	o->profile = *assoc_profile(a);
	o->cc = *assoc_default_cc(a);
	/* What is in force stays in force: the block's Max.Burst starts as the send side's. */
	o->profile.max_burst = o->cc.max_burst;
}

int
sctp_assoc_set_opts(struct sctp_assoc *a, struct sctp_assoc_opts *o, uint64_t now_ns,
		    const char **why)
{
	const struct sctp_profile *p = &o->profile;
	const char *bad = sctp_profile_check(p);

	if (bad == NULL) {
		o->cc.max_burst = p->max_burst;
		bad = sctp_cc_params_check(&o->cc);
	}
	if (bad != NULL) {
		if (why != NULL)
			*why = bad;
		return -EINVAL;
	}
	a->prof = p; /* before sctp_assoc_connect() too: assoc_reset() keeps it */
	for (unsigned i = 0; i < a->paths.n; i++) {
		struct sctp_path *pa = sctp_paths_get(&a->paths, i);

		if (!sctp_rto_measured(&pa->rto))
			pa->rto.rto_ns = p->rto_initial_ns;
		else if (pa->rto.rto_ns < p->rto_min_ns)
			pa->rto.rto_ns = p->rto_min_ns;
		else if (pa->rto.rto_ns > p->rto_max_ns)
			pa->rto.rto_ns = p->rto_max_ns;
		/* Rescheduled with the new interval, on or off as the path is. */
		(void)sctp_paths_set_hb_enabled(&a->paths, p, i,
						(pa->flags & SCTP_PATH_F_HB_ENABLED) != 0, now_ns);
	}
	if (a->tx != NULL)
		a->tx->cc = &o->cc;
	/* The heartbeat timer follows the path set's deadline (as after any input). */
	a->timer_at[SCTP_ASSOC_T_HEARTBEAT] =
		a->paths.running ? sctp_paths_next_wakeup(&a->paths) : SCTP_TIME_NEVER;
	return 0;
}

void
sctp_assoc_clear_opts(struct sctp_assoc *a)
{
	/* NULL, not ep's: a reuse on another endpoint must not keep this one's. */
	a->prof = NULL;
	if (a->tx != NULL)
		a->tx->cc = assoc_default_cc(a);
}
