/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Statistics: per association, per path, per worker (docs/COUNTERS.md).
 *
 * A worker's counters are one flat list for telemetry and the API: its own
 * (DP_WORKER_COUNTERS in dp.h), then drivers/net/l3.c's ("l3." prefix),
 * then the endpoints' drops summed over the worker's endpoints ("ep."
 * prefix), then the associations' named discards ("assoc." prefix): those of
 * closed associations, plus the live ones' when read on the worker's thread
 * or on an instance that is polled, not started (another thread must not
 * walk the worker's list; /dpsctp/ telemetry asks the worker instead). Reading from another thread
 * sees each 64-bit counter whole (aligned stores) but not a snapshot of all of them together.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dataplane/dp.h"

static const char *const dp_ctr_names[] = {
#define DP_CTR_NAME(name, why) #name,
	DP_WORKER_COUNTERS(DP_CTR_NAME)
#undef DP_CTR_NAME
};

#define DP_N_OWN (sizeof(dp_ctr_names) / sizeof(dp_ctr_names[0]))

/* "l3.<name>", "ep.<name>", "assoc.<name>", built once (names are static per process). */
static char dp_l3_names[DPSCTP_L3_COUNTERS_MAX][48];
static char dp_ep_names[SCTP_EP_DROP_COUNT][48];
static char dp_assoc_names[SCTP_ASSOC_DROP_COUNT][64];

static const char *
dp_assoc_name(unsigned i)
{
	if (dp_assoc_names[i][0] == '\0')
		snprintf(dp_assoc_names[i], sizeof(dp_assoc_names[i]), "assoc.%s",
			 sctp_assoc_drop_name((enum sctp_assoc_drop)i));
	return dp_assoc_names[i];
}

static const char *
dp_l3_name(unsigned i)
{
	if (dp_l3_names[i][0] == '\0')
		snprintf(dp_l3_names[i], sizeof(dp_l3_names[i]), "l3.%s",
			 dpsctp_l3_counter_name(i));
	return dp_l3_names[i];
}

static const char *
dp_ep_name(unsigned i)
{
	if (dp_ep_names[i][0] == '\0')
		snprintf(dp_ep_names[i], sizeof(dp_ep_names[i]), "ep.%s",
			 sctp_ep_drop_name((enum sctp_ep_drop)i));
	return dp_ep_names[i];
}

uint64_t
dpsctp_worker_counter(const struct dpsctp *d, unsigned worker, unsigned i, const char **name)
{
	return dp_worker_counter(d, worker, i, name,
				 d != NULL && worker < d->n_workers &&
					 (!d->started || dp_worker_current() == d->w[worker]));
}

uint64_t
dp_worker_counter(const struct dpsctp *d, unsigned worker, unsigned i, const char **name, bool live)
{
	*name = NULL;
	if (d == NULL || worker >= d->n_workers)
		return UINT64_MAX;
	const struct dp_worker *w = d->w[worker];
	if (i < DP_N_OWN) {
		*name = dp_ctr_names[i];
		return ((const uint64_t *)&w->ctr)[i];
	}
	i -= (unsigned)DP_N_OWN;
	unsigned n_l3 = dpsctp_l3_counter_count();
	if (i < n_l3 && i < DPSCTP_L3_COUNTERS_MAX) {
		*name = dp_l3_name(i);
		return dpsctp_l3_counter_value(&w->l3.ctr, i);
	}
	i -= n_l3;
	if (i < SCTP_EP_DROP_COUNT) {
		uint64_t v = w->closed_ep.drops[i];
		for (unsigned k = 0; k < d->n_listeners; k++)
			v += w->ep[k].drops[i];
		*name = dp_ep_name(i);
		return v;
	}
	i -= SCTP_EP_DROP_COUNT;
	if (i + 1 < SCTP_ASSOC_DROP_COUNT) {
		/* [NONE] is not a drop: names start at 1. Live associations are read
		 * only by the worker's own thread (or on a polled instance). */
		unsigned k = i + 1;
		uint64_t v = w->assoc_drops_closed[k];
		if (live)
			for (const struct dpsctp_assoc *c = w->conns; c != NULL; c = c->next)
				v += c->ctr.drops[k];
		*name = dp_assoc_name(k);
		return v;
	}
	return UINT64_MAX;
}

_Static_assert(sizeof(struct dp_worker_counters) == DP_N_OWN * sizeof(uint64_t),
	       "worker counters are a flat array of uint64_t");

int
dpsctp_assoc_get_stats(const struct dpsctp_assoc *a, struct dpsctp_assoc_stats *st)
{
	if (a == NULL || st == NULL)
		return -EINVAL;
	*st = a->st;
	st->data_chunks_out = a->ctr.data_sent;
	st->data_chunks_rtx = a->ctr.data_rtx;
	st->data_chunks_in = a->ctr.data_chunks;
	st->data_dups_in = a->ctr.data_dups;
	st->sacks_out = a->ctr.sacks_sent;
	st->sacks_in = a->ctr.sacks_in;
	st->t3_expiries = a->ctr.t3_expiries;
	st->fast_retransmits = a->ctr.fast_retransmits;
	st->state = a->a.state;
	st->peer_rwnd = a->a.tx != NULL ? a->a.tx->rtxq.a_rwnd : a->a.peer_a_rwnd;
	st->send_queued = a->a.tx != NULL ? a->a.tx->outq.queued_bytes : 0;
	st->paths = a->a.paths.n;
	return 0;
}

int
dpsctp_path_get_stats(const struct dpsctp_assoc *a, unsigned i, struct dpsctp_path_stats *st)
{
	if (a == NULL || st == NULL)
		return -EINVAL;
	if (i >= a->a.paths.n)
		return -ENOENT;
	const struct sctp_path *p = sctp_paths_get_const(&a->a.paths, i);
	struct sctp_addr addr = sctp_path_addr(p);
	memset(st, 0, sizeof(*st));
	st->addr.family = addr.family == SCTP_ADDR_V6 ? 6 : 4;
	memcpy(st->addr.bytes, addr.bytes, sizeof(st->addr.bytes));
	st->state = p->state;
	st->srtt_us = (uint32_t)(p->rto.srtt_ns / 1000u);
	st->rto_us = (uint32_t)(p->rto.rto_ns / 1000u);
	if (a->a.tx != NULL && i < SCTP_MAX_PATHS) {
		st->cwnd = a->a.tx->path_cc[i].cwnd;
		st->ssthresh = a->a.tx->path_cc[i].ssthresh;
		st->flight = a->a.tx->rtxq.path_flight[i];
	}
	st->primary = i == a->a.paths.primary;
	return 0;
}
