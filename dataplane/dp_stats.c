/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Statistics: per association, per path, per worker (docs/COUNTERS.md).
 *
 * A worker's counters are one flat list for telemetry and the API: its own
 * (DP_WORKER_COUNTERS in dp_counters.h), then drivers/net/l3.c's ("l3." prefix),
 * then the endpoints' drops summed over the worker's endpoints ("ep."
 * prefix), then the associations' named discards and then their other
 * events (both "assoc." prefix: failovers, restarts, PMTU changes, ...),
 * which the core counts into one struct per worker (struct
 * sctp_assoc_counters), live and closed associations alike. Reading from another thread sees each
 * 64-bit counter whole (aligned stores) but not a snapshot of all of them
 * together.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dataplane/dp_public.h"
#include "dataplane/dp_stats.h"
#include "dataplane/dp_worker.h"

/*
 * The groups of the flat list, in order. Each names its counters from the
 * one list that declares them (DP_WORKER_COUNTERS in dp_counters.h,
 * drivers/net/l3_drop.def, sctp/endpoint_drop.def, sctp/assoc_drop.def,
 * sctp/assoc_event.def)
 * and reads counter i of a worker; the list's name is the group's prefix
 * and the counter's own name ("l3.nbr_table_full").
 */
struct dp_ctr_group {
	const char *prefix;
	unsigned first; /* the group's first index in its own list */
	unsigned (*count)(void);
	const char *(*name)(unsigned i);
	uint64_t (*value)(const struct dpsctp *d, const struct dp_worker *w, unsigned i);
};

static const char *const dp_own_names[] = {
#define DP_CTR_NAME(name, why) #name,
	DP_WORKER_COUNTERS(DP_CTR_NAME)
#undef DP_CTR_NAME
};

#define DP_N_OWN (sizeof(dp_own_names) / sizeof(dp_own_names[0]))

_Static_assert(sizeof(struct dp_worker_counters) == DP_N_OWN * sizeof(uint64_t),
	       "worker counters are a flat array of uint64_t");

static unsigned
dp_own_count(void)
{
	return (unsigned)DP_N_OWN;
}

static const char *
dp_own_name(unsigned i)
{
	return dp_own_names[i];
}

static uint64_t
dp_own_value(const struct dpsctp *d, const struct dp_worker *w, unsigned i)
{
	(void)d;
	return ((const uint64_t *)&w->ctr)[i];
}

static unsigned
dp_l3_count(void)
{
	unsigned n = dpsctp_l3_counter_count();
	return n < DPSCTP_L3_COUNTERS_MAX ? n : DPSCTP_L3_COUNTERS_MAX;
}

/* Summed over the worker's ports (each has its own L3 state). */
static uint64_t
dp_l3_value(const struct dpsctp *d, const struct dp_worker *w, unsigned i)
{
	uint64_t v = 0;
	for (unsigned p = 0; p < d->n_ports; p++)
		v += dpsctp_l3_counter_value(&w->l3[p]->ctr, i);
	return v;
}

static unsigned
dp_ep_count(void)
{
	return SCTP_EP_DROP_COUNT;
}

static const char *
dp_ep_name(unsigned i)
{
	return sctp_ep_drop_name((enum sctp_ep_drop)i);
}

/* Summed over the worker's endpoints: the closed one and every listener's. */
static uint64_t
dp_ep_value(const struct dpsctp *d, const struct dp_worker *w, unsigned i)
{
	uint64_t v = w->closed_ep.drops[i];
	for (unsigned k = 0; k < d->n_listeners; k++)
		v += w->ep[k].drops[i];
	return v;
}

/* [NONE] is not a drop: the group starts at 1. */
static unsigned
dp_assoc_count(void)
{
	return SCTP_ASSOC_DROP_COUNT;
}

static const char *
dp_assoc_name(unsigned i)
{
	return sctp_assoc_drop_name((enum sctp_assoc_drop)i);
}

/* The worker's associations' discards, live and closed: one array the core counts into. */
static uint64_t
dp_assoc_value(const struct dpsctp *d, const struct dp_worker *w, unsigned i)
{
	(void)d;
	return w->assoc_ctr.drops[i];
}

static unsigned
dp_event_count(void)
{
	return SCTP_ASSOC_EVENT_COUNT;
}

static const char *
dp_event_name(unsigned i)
{
	return sctp_assoc_event_name((enum sctp_assoc_event)i);
}

/* The same array's events (failovers, restarts, PMTU changes, ...). */
static uint64_t
dp_event_value(const struct dpsctp *d, const struct dp_worker *w, unsigned i)
{
	(void)d;
	return sctp_assoc_event_value(&w->assoc_ctr, (enum sctp_assoc_event)i);
}

static const struct dp_ctr_group dp_ctr_groups[] = {
	{ "", 0, dp_own_count, dp_own_name, dp_own_value },
	{ "l3.", 0, dp_l3_count, dpsctp_l3_counter_name, dp_l3_value },
	{ "ep.", 0, dp_ep_count, dp_ep_name, dp_ep_value },
	{ "assoc.", 1, dp_assoc_count, dp_assoc_name, dp_assoc_value },
	{ "assoc.", 0, dp_event_count, dp_event_name, dp_event_value },
};

#define DP_N_GROUPS (sizeof(dp_ctr_groups) / sizeof(dp_ctr_groups[0]))

/* "<prefix><name>", built once per counter (names are static per process). */
#define DP_N_NAMES                                                                                 \
	(DP_N_OWN + DPSCTP_L3_COUNTERS_MAX + SCTP_EP_DROP_COUNT + SCTP_ASSOC_DROP_COUNT +          \
	 SCTP_ASSOC_EVENT_COUNT)
static char dp_names[DP_N_NAMES][64];

static const char *
dp_ctr_name(const struct dp_ctr_group *g, unsigned flat, unsigned i)
{
	if (g->prefix[0] == '\0')
		return g->name(i);
	if (dp_names[flat][0] == '\0')
		snprintf(dp_names[flat], sizeof(dp_names[flat]), "%s%s", g->prefix, g->name(i));
	return dp_names[flat];
}

uint64_t
dpsctp_worker_counter(const struct dpsctp *d, unsigned worker, unsigned i, const char **name)
{
	return dp_worker_counter(d, worker, i, name);
}

/* The names of enum dp_stage (dp_types.h), as dpsctp_worker_stage() gives them. */
static const char *const dp_stage_names[DP_STAGE_COUNT] = {
	[DP_STAGE_OTHER] = "other",	  [DP_STAGE_RX_BURST] = "rx_burst",
	[DP_STAGE_RX_COPY] = "rx_copy",	  [DP_STAGE_L3] = "l3",
	[DP_STAGE_CRC] = "crc",		  [DP_STAGE_PARSE] = "parse",
	[DP_STAGE_LOOKUP] = "lookup",	  [DP_STAGE_CORE] = "core",
	[DP_STAGE_DELIVER] = "deliver",	  [DP_STAGE_APP] = "app",
	[DP_STAGE_REARM] = "rearm",	  [DP_STAGE_TX_BUILD] = "tx_build",
	[DP_STAGE_TX_BURST] = "tx_burst", [DP_STAGE_TIMERS] = "timers",
	[DP_STAGE_REQUESTS] = "requests", [DP_STAGE_RX_FREE] = "rx_free",
	[DP_STAGE_IDLE] = "idle",
};

int
dpsctp_worker_stage(const struct dpsctp *d, unsigned worker, unsigned i, const char **name,
		    uint64_t *cycles, uint64_t *events)
{
	if (name != NULL)
		*name = NULL;
	if (d == NULL || worker >= d->n_workers)
		return -EINVAL;
	const struct dp_worker *w = d->w[worker];
	if (!w->stages_on)
		return -ENOTSUP;
	/* "other" last: the named stages first, in the order of a poll. */
	unsigned s = i + 1u == DP_STAGE_COUNT ? DP_STAGE_OTHER : i + 1u;
	if (i >= DP_STAGE_COUNT)
		return -ENOENT;
	if (name != NULL)
		*name = dp_stage_names[s];
	if (cycles != NULL)
		*cycles = w->stage[s].cycles;
	if (events != NULL)
		*events = w->stage[s].events;
	return 0;
}

uint64_t
dp_worker_counter(const struct dpsctp *d, unsigned worker, unsigned i, const char **name)
{
	*name = NULL;
	if (d == NULL || worker >= d->n_workers)
		return UINT64_MAX;
	const struct dp_worker *w = d->w[worker];
	unsigned flat = i;
	for (unsigned k = 0; k < DP_N_GROUPS; k++) {
		const struct dp_ctr_group *g = &dp_ctr_groups[k];
		unsigned n = g->count() - g->first;
		if (i < n) {
			*name = dp_ctr_name(g, flat, g->first + i);
			return g->value(d, w, g->first + i);
		}
		i -= n;
	}
	return UINT64_MAX;
}

int
dpsctp_port_frames(const struct dpsctp *d, unsigned port, struct dpsctp_port_frames *st)
{
	if (d == NULL || st == NULL || port >= d->n_ports)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	for (unsigned i = 0; i < d->n_workers; i++)
		if (d->w[i] != NULL) {
			st->rx_packets += d->w[i]->port_rx[port];
			st->tx_packets += d->w[i]->port_tx[port];
		}
	return 0;
}

unsigned
dpsctp_assoc_count(const struct dpsctp *d)
{
	unsigned n = 0;
	for (unsigned i = 0; i < d->n_workers; i++)
		n += d->w[i] != NULL ? d->w[i]->n_conns : 0;
	return n;
}

int
dpsctp_assoc_get_stats(const struct dpsctp_assoc *a, struct dpsctp_assoc_stats *st)
{
	if (a == NULL || st == NULL)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->msgs_sent = a->msgs_sent;
	st->bytes_sent = a->bytes_sent;
	st->msgs_recv = a->msgs_recv;
	st->bytes_recv = a->bytes_recv;
	st->data_chunks_out = a->stats.data_sent;
	st->data_chunks_rtx = a->stats.data_rtx;
	st->data_chunks_in = a->stats.data_chunks;
	st->data_dups_in = a->stats.data_dups;
	st->sacks_out = a->stats.sacks_sent;
	st->sacks_in = a->stats.sacks_in;
	st->t3_expiries = a->stats.t3_expiries;
	st->fast_retransmits = a->stats.fast_retransmits;
	st->t3_spurious = a->stats.t3_spurious;
	st->t3_rtx_saved = a->stats.t3_rtx_saved;
	st->heartbeats_out = a->stats.heartbeats_sent;
	st->state = dp_public_assoc_state(a->a.state);
	st->peer_rwnd = a->a.tx != NULL ? a->a.tx->rtxq.a_rwnd : a->a.peer_a_rwnd;
	st->send_queued = a->a.tx != NULL ? a->a.tx->outq.queued_bytes : 0;
	st->paths = a->a.paths.n;
	/* The public bits are the core's (dp_worker.c); only what this build offers. */
	st->extensions = a->a.extensions & DPSCTP_CONFIG_EXTENSIONS;
	st->abandoned_msgs = st->abandoned_bytes = 0;
	for (unsigned i = 0; i < SCTP_RTXQ_PR_N; i++) {
		st->abandoned_msgs += a->stats.pr_abandoned.msgs[i];
		st->abandoned_bytes += a->stats.pr_abandoned.bytes[i];
	}
	st->fwd_tsn_out = a->stats.fwd_tsn_sent;
	st->fwd_tsn_in = a->stats.fwd_tsn_in;
	st->reconf_requests = a->stats.reconf_requests;
	st->reconf_rtx = a->stats.reconf_rtx;
	st->reconf_peer_requests = a->stats.reconf_peer_requests;
	st->reconf_denied = a->stats.reconf_denied;
	st->reconf_malformed = a->stats.reconf_malformed;
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
	st->state = dp_public_path_state(p->state);
	st->srtt_us = (uint32_t)(p->rto.srtt_ns / 1000u);
	st->rto_us = (uint32_t)(p->rto.rto_ns / 1000u);
	if (a->a.tx != NULL && i < a->a.tx->n_paths) {
		st->cwnd = a->a.tx->path[i].cc.cwnd;
		st->ssthresh = a->a.tx->path[i].cc.ssthresh;
		st->flight = a->a.tx->rtxq.path_flight[i];
	}
	st->primary = i == a->a.paths.primary;
	st->mtu = p->mtu;
	return 0;
}
