/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-association options (dataplane/dpsctp_opt.h, docs/OPTIONS.md). An
 * association reads the instance's options (its profile, d->profile, and
 * d->optv) until its first dpsctp_assoc_setopt(), which gives it a block of
 * its own (struct dp_opts, from the instance's heap: one per association
 * at most, given back when it is freed). dpsctp_setopt() changes the
 * instance's: the associations alive then get a block holding the values
 * they had, so only those made afterwards see the new ones.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_malloc.h>

#include "dataplane/dp_opt.h"
#include "sctp/assoc_internal.h"

#define NS_PER_US 1000u
#define NS_PER_MS 1000000u

/* The events every application gets, whatever its mask: a handle's first and last words. */
#define DP_EVENTS_ALWAYS                                                                           \
	(DPSCTP_EV_BIT(DPSCTP_EV_COMM_UP) | DPSCTP_EV_BIT(DPSCTP_EV_COMM_LOST) |                   \
	 DPSCTP_EV_BIT(DPSCTP_EV_SHUTDOWN_COMPLETE) | DPSCTP_EV_BIT(DPSCTP_EV_CANT_START))

static int
opt_err(char *err, size_t errlen, int rc, const char *fmt, const char *a, const char *b)
{
	if (err != NULL && errlen != 0)
		snprintf(err, errlen, fmt, a, b);
	return rc;
}

void
dp_opt_instance_init(struct dpsctp *d)
{
	/*
	 * The send side's congestion parameters: RFC 9260's for every profile
	 * (what the data plane has always run), Max.Burst from the profile's
	 * field from now on, so MAX_BURST reads what is in force.
	 */
	d->cc = sctp_cc_params_rfc;
	d->profile.max_burst = d->cc.max_burst;
	memset(&d->optv, 0, sizeof(d->optv));
	d->optv.events = UINT32_MAX;
	d->optv.nodelay = 1;
}

int
dp_opt_from_config(struct dpsctp *d, char *err, size_t errlen)
{
	const struct dpsctp_config *c = &d->cfg;
	struct sctp_profile *p = &d->profile;
	if (c->rto_initial_us != 0)
		p->rto_initial_ns = (uint64_t)c->rto_initial_us * NS_PER_US;
	if (c->rto_min_us != 0)
		p->rto_min_ns = (uint64_t)c->rto_min_us * NS_PER_US;
	if (c->rto_max_us != 0)
		p->rto_max_ns = (uint64_t)c->rto_max_us * NS_PER_US;
	if (c->assoc_max_retrans != 0)
		p->assoc_max_retrans = (uint16_t)c->assoc_max_retrans;
	if (c->path_max_retrans != 0)
		p->path_max_retrans = (uint16_t)c->path_max_retrans;
	if (c->hb_interval_us != 0)
		p->hb_interval_ns = (uint64_t)c->hb_interval_us * NS_PER_US;
	if (c->sack_delay_us != 0)
		p->sack_delay_ns = (uint64_t)c->sack_delay_us * NS_PER_US;
	if (c->sack_freq != 0)
		p->sack_every = (uint16_t)c->sack_freq;
	if (c->max_burst != 0)
		p->max_burst = (uint16_t)c->max_burst;
	if (c->pf_threshold == DPSCTP_CONFIG_PF_OFF) {
		p->pf_enabled = false;
	} else if (c->pf_threshold != DPSCTP_CONFIG_PF_PROFILE) {
		p->pf_enabled = true;
		p->pf_max_retrans = (uint16_t)c->pf_threshold;
	}
	if (c->maxseg != 0)
		p->max_seg = c->maxseg;
	if (c->max_init_retrans != 0)
		p->max_init_retransmits = (uint16_t)c->max_init_retrans;
	if (c->max_init_timeout_us != 0)
		p->max_init_timeo_ns = (uint64_t)c->max_init_timeout_us * NS_PER_US;
	if (c->cookie_life_ms != 0)
		p->valid_cookie_life_ns = (uint64_t)c->cookie_life_ms * NS_PER_MS;
	d->cc.max_burst = p->max_burst;
	const char *why = sctp_profile_check(p);
	if (why != NULL)
		return opt_err(
			err, errlen, -EINVAL, "%s: %s",
			"the option keys (--rto-*, --sack-*, --pf-threshold, ...) over the profile",
			why);
	return 0;
}

const struct dp_optvals *
dp_opt_vals(const struct dpsctp_assoc *c)
{
	return c->opts != NULL ? &c->opts->v : &c->w->d->optv;
}

bool
dp_opt_event_wanted(const struct dpsctp_assoc *c, unsigned type)
{
	uint32_t bit = DPSCTP_EV_BIT(type);
	return (bit & DP_EVENTS_ALWAYS) != 0 || (dp_opt_vals(c)->events & bit) != 0;
}

void
dp_opt_free(struct dpsctp_assoc *c)
{
	if (c->opts == NULL)
		return;
	sctp_assoc_clear_opts(&c->a);
	rte_free(c->opts);
	c->opts = NULL;
}

int
dp_opt_path_mtu(struct dpsctp_assoc *c, unsigned path, uint32_t mtu, char *err, size_t errlen)
{
	if (mtu > UINT16_MAX)
		return opt_err(err, errlen, -EINVAL, "%s%s",
			       "PEER_ADDR_PARAMS.pathmtu: above 65535", "");
	int rc = sctp_assoc_set_path_mtu(&c->a, path, (uint16_t)mtu);
	if (rc == -ENOTCONN)
		return opt_err(err, errlen, rc, "%s%s",
			       "PEER_ADDR_PARAMS.pathmtu / SPP_PMTUD_*: the association is not "
			       "established",
			       "");
	if (rc == -EINVAL)
		return opt_err(err, errlen, rc, "%s%s",
			       "PEER_ADDR_PARAMS.pathmtu: below the family's floor (576 IPv4, "
			       "1280 IPv6) or above the interface MTU (--mtu)",
			       "");
	return rc;
}

/*
 * PEER_ADDR_PARAMS' SPP_PMTUD_* at the instance level: discovery on or
 * off for the associations made afterwards (their paths start at the
 * interface MTU, --mtu; a different fixed MTU is an association's setting).
 */
static int
opt_pmtud_default(struct sctp_profile *p, const struct dpsctp_paddrparams *o, uint16_t if_mtu,
		  char *err, size_t errlen)
{
	if (o->flags & DPSCTP_SPP_PMTUD_ENABLE) {
		p->pmtud = true;
		return 0;
	}
	if (o->pathmtu != 0 && o->pathmtu != if_mtu)
		return opt_err(err, errlen, -EINVAL, "%s%s",
			       "PEER_ADDR_PARAMS.pathmtu: the instance's paths start at the "
			       "interface MTU (--mtu); fix another per association",
			       "");
	p->pmtud = false;
	p->plpmtud = false;
	return 0;
}

/*
 * PEER_ADDR_PARAMS' heartbeat interval and failure thresholds: on path
 * `path` only (its own values in the profile, RFC 6458 §8.1.12 with
 * spp_address), or, for -1, on the association and on every path, which
 * drop their own values of the fields the set names (Linux writes the
 * association's value into every transport).
 */
static void
opt_paddr_to_profile(struct sctp_profile *p, const struct dpsctp_paddrparams *o, int path)
{
	if (path >= 0) {
		unsigned i = (unsigned)path;
		if (o->hb_interval_us != 0)
			sctp_profile_path_set_hb_interval(p, i,
							  (uint64_t)o->hb_interval_us * NS_PER_US);
		if (o->path_max_retrans != 0)
			sctp_profile_path_set_max_retrans(p, i, o->path_max_retrans);
		if (o->flags & (DPSCTP_SPP_PF_ENABLE | DPSCTP_SPP_PF_DISABLE))
			sctp_profile_path_set_pf(p, i, (o->flags & DPSCTP_SPP_PF_ENABLE) != 0,
						 o->pf_threshold);
		return;
	}
	unsigned named = 0;
	if (o->hb_interval_us != 0) {
		p->hb_interval_ns = (uint64_t)o->hb_interval_us * NS_PER_US;
		named |= SCTP_PROFILE_OWN_HB_INTERVAL;
	}
	if (o->path_max_retrans != 0) {
		p->path_max_retrans = o->path_max_retrans;
		named |= SCTP_PROFILE_OWN_MAX_RETRANS;
	}
	if (o->flags & DPSCTP_SPP_PF_ENABLE) {
		p->pf_enabled = true;
		p->pf_max_retrans = o->pf_threshold;
		named |= SCTP_PROFILE_OWN_PF;
	}
	if (o->flags & DPSCTP_SPP_PF_DISABLE) {
		p->pf_enabled = false;
		named |= SCTP_PROFILE_OWN_PF;
	}
	if (o->flags & DPSCTP_SPP_HB_ENABLE)
		p->hb_off = false;
	if (o->flags & DPSCTP_SPP_HB_DISABLE)
		p->hb_off = true;
	sctp_profile_paths_follow(p, named);
}

/* A PEER_ADDR_PARAMS set that changes the profile (not only path flags and MTUs). */
static bool
opt_paddr_in_profile(const struct dpsctp_paddrparams *o)
{
	return o->hb_interval_us != 0 || o->path_max_retrans != 0 ||
	       (o->flags & (DPSCTP_SPP_PF_ENABLE | DPSCTP_SPP_PF_DISABLE)) != 0;
}

/*
 * The profile and dp-side fields of a value dpsctp_opt_check() accepted
 * (PRIMARY_ADDR and the path MTU and heartbeat flags of PEER_ADDR_PARAMS
 * are the caller's). path: the path a PEER_ADDR_PARAMS names, else -1.
 */
static void
opt_to_profile(struct sctp_profile *p, struct dp_optvals *v, enum dpsctp_opt opt, const void *val,
	       int path)
{
	switch (opt) {
	case DPSCTP_OPT_RTOINFO: {
		const struct dpsctp_rtoinfo *o = val;
		if (o->initial_us != 0)
			p->rto_initial_ns = (uint64_t)o->initial_us * NS_PER_US;
		if (o->min_us != 0)
			p->rto_min_ns = (uint64_t)o->min_us * NS_PER_US;
		if (o->max_us != 0)
			p->rto_max_ns = (uint64_t)o->max_us * NS_PER_US;
		break;
	}
	case DPSCTP_OPT_ASSOCINFO: {
		const struct dpsctp_associnfo *o = val;
		if (o->max_retrans != 0)
			p->assoc_max_retrans = o->max_retrans;
		if (o->cookie_life_ms != 0)
			p->valid_cookie_life_ns = (uint64_t)o->cookie_life_ms * NS_PER_MS;
		break;
	}
	case DPSCTP_OPT_INITMSG: {
		const struct dpsctp_initmsg *o = val;
		if (o->num_ostreams != 0)
			p->out_streams = o->num_ostreams;
		if (o->max_instreams != 0)
			p->max_in_streams = o->max_instreams;
		if (o->max_attempts != 0)
			p->max_init_retransmits = o->max_attempts;
		if (o->max_init_timeo_us != 0)
			p->max_init_timeo_ns = (uint64_t)o->max_init_timeo_us * NS_PER_US;
		break;
	}
	case DPSCTP_OPT_PEER_ADDR_PARAMS:
		opt_paddr_to_profile(p, val, path);
		break;
	case DPSCTP_OPT_DELAYED_SACK: {
		const struct dpsctp_sack_info *o = val;
		if (o->delay_us != 0)
			p->sack_delay_ns = (uint64_t)o->delay_us * NS_PER_US;
		if (o->freq != 0)
			p->sack_every = (uint16_t)o->freq;
		break;
	}
	case DPSCTP_OPT_MAXSEG:
		p->max_seg = ((const struct dpsctp_assoc_value *)val)->value;
		break;
	case DPSCTP_OPT_MAX_BURST:
		p->max_burst = (uint16_t)((const struct dpsctp_assoc_value *)val)->value;
		break;
	case DPSCTP_OPT_NODELAY:
		v->nodelay = ((const struct dpsctp_assoc_value *)val)->value;
		break;
	case DPSCTP_OPT_DEFAULT_SNDINFO:
		v->sndinfo = *(const struct dpsctp_default_sndinfo *)val;
		break;
	case DPSCTP_OPT_EVENTS:
		v->events = ((const struct dpsctp_events *)val)->mask;
		break;
	default:
		break;
	}
}

/* What the instance's block sizes allow (the data block holds --max-streams). */
static int
opt_check_limits(const struct dpsctp *d, const struct sctp_profile *p, enum dpsctp_opt opt,
		 char *err, size_t errlen)
{
	const char *name = dpsctp_opt_name(opt);
	if (p->out_streams > d->set.max_streams || p->max_in_streams > d->set.max_streams) {
		char lim[48];
		snprintf(lim, sizeof(lim), "%u", (unsigned)d->set.max_streams);
		return opt_err(err, errlen, -EINVAL, "%s: streams above --max-streams %s", name,
			       lim);
	}
	const char *why = sctp_profile_check(p);
	if (why != NULL)
		return opt_err(err, errlen, -EINVAL, "%s: with the values in force, %s", name, why);
	return 0;
}

/* Associations alive keep what they had: a block of their own before the instance's change. */
static int
opt_pin_existing(struct dpsctp *d)
{
	for (unsigned i = 0; i < d->n_workers; i++) {
		if (d->w[i] == NULL)
			continue;
		for (struct dpsctp_assoc *c = d->w[i]->conns; c != NULL; c = c->next) {
			if (c->opts != NULL)
				continue;
			struct dp_opts *o = rte_zmalloc("dpsctp_opts", sizeof(*o), 0);
			if (o == NULL)
				return -ENOMEM;
			sctp_assoc_opts_init(&o->core, &c->a);
			o->v = d->optv;
			if (sctp_assoc_set_opts(&c->a, &o->core, d->w[i]->now_ns, NULL) != 0) {
				rte_free(o);
				return -ENOMEM;
			}
			c->opts = o;
		}
	}
	return 0;
}

int
dpsctp_setopt(struct dpsctp *d, enum dpsctp_opt opt, const void *val, size_t len, char *err,
	      size_t errlen)
{
	if (d == NULL)
		return -EINVAL;
	int rc = dpsctp_opt_check(opt, val, len, err, errlen);
	if (rc != 0)
		return rc;
	if (opt == DPSCTP_OPT_PRIMARY_ADDR)
		return opt_err(err, errlen, -ENOPROTOOPT, "%s%s",
			       "PRIMARY_ADDR: an association's, not the instance's", "");
	if (d->started)
		return opt_err(err, errlen, -EBUSY, "%s%s",
			       "dpsctp_setopt(): the instance is started", "");
	if (opt == DPSCTP_OPT_PEER_ADDR_PARAMS) {
		const struct dpsctp_paddrparams *o = val;
		if (o->addr.family != SCTP_ADDR_NONE)
			return opt_err(err, errlen, -EINVAL, "%s%s",
				       "PEER_ADDR_PARAMS.addr: the instance's names no address",
				       "");
	}
	struct sctp_profile p = d->profile;
	struct dp_optvals v = d->optv;
	opt_to_profile(&p, &v, opt, val, -1);
	if (opt == DPSCTP_OPT_PEER_ADDR_PARAMS) {
		const struct dpsctp_paddrparams *o = val;
		if (o->flags & (DPSCTP_SPP_PMTUD_ENABLE | DPSCTP_SPP_PMTUD_DISABLE)) {
			rc = opt_pmtud_default(&p, o, d->cfg.mtu, err, errlen);
			if (rc != 0)
				return rc;
		}
	}
	rc = opt_check_limits(d, &p, opt, err, errlen);
	if (rc != 0)
		return rc;
	rc = opt_pin_existing(d);
	if (rc != 0)
		return opt_err(err, errlen, rc, "%s%s",
			       "no memory to keep the existing associations' options", "");
	d->profile = p;
	d->optv = v;
	d->cc.max_burst = p.max_burst;
	return 0;
}

static int
opt_out(void *val, size_t *len, const void *src, size_t size)
{
	if (*len < size)
		return -EINVAL;
	memcpy(val, src, size);
	*len = size;
	return 0;
}

/* The profile and dp-side parts of an option as a get returns them. */
static int
opt_get_common(const struct sctp_profile *p, const struct dp_optvals *v, enum dpsctp_opt opt,
	       void *val, size_t *len)
{
	switch (opt) {
	case DPSCTP_OPT_RTOINFO: {
		struct dpsctp_rtoinfo o = {
			.initial_us = (uint32_t)(p->rto_initial_ns / NS_PER_US),
			.min_us = (uint32_t)(p->rto_min_ns / NS_PER_US),
			.max_us = (uint32_t)(p->rto_max_ns / NS_PER_US),
		};
		return opt_out(val, len, &o, sizeof(o));
	}
	case DPSCTP_OPT_ASSOCINFO: {
		struct dpsctp_associnfo o = {
			.max_retrans = p->assoc_max_retrans,
			.cookie_life_ms = (uint32_t)(p->valid_cookie_life_ns / NS_PER_MS),
		};
		return opt_out(val, len, &o, sizeof(o));
	}
	case DPSCTP_OPT_INITMSG: {
		struct dpsctp_initmsg o = {
			.num_ostreams = p->out_streams,
			.max_instreams = p->max_in_streams,
			.max_attempts = p->max_init_retransmits,
			.max_init_timeo_us =
				(uint32_t)((p->max_init_timeo_ns != 0 ? p->max_init_timeo_ns
								      : p->rto_max_ns) /
					   NS_PER_US),
		};
		return opt_out(val, len, &o, sizeof(o));
	}
	case DPSCTP_OPT_PEER_ADDR_PARAMS: {
		struct dpsctp_paddrparams o;
		memset(&o, 0, sizeof(o));
		o.flags = (p->hb_off ? DPSCTP_SPP_HB_DISABLE : DPSCTP_SPP_HB_ENABLE) |
			  DPSCTP_SPP_PMTUD_DISABLE |
			  (p->pf_enabled ? DPSCTP_SPP_PF_ENABLE : DPSCTP_SPP_PF_DISABLE);
		o.hb_interval_us = (uint32_t)(p->hb_interval_ns / NS_PER_US);
		o.path_max_retrans = p->path_max_retrans;
		o.pf_threshold = p->pf_enabled ? p->pf_max_retrans : 0;
		return opt_out(val, len, &o, sizeof(o));
	}
	case DPSCTP_OPT_DELAYED_SACK: {
		struct dpsctp_sack_info o = { (uint32_t)(p->sack_delay_ns / NS_PER_US),
					      p->sack_every };
		return opt_out(val, len, &o, sizeof(o));
	}
	case DPSCTP_OPT_MAXSEG: {
		struct dpsctp_assoc_value o = { p->max_seg };
		return opt_out(val, len, &o, sizeof(o));
	}
	case DPSCTP_OPT_MAX_BURST: {
		struct dpsctp_assoc_value o = { p->max_burst };
		return opt_out(val, len, &o, sizeof(o));
	}
	case DPSCTP_OPT_NODELAY: {
		struct dpsctp_assoc_value o = { v->nodelay };
		return opt_out(val, len, &o, sizeof(o));
	}
	case DPSCTP_OPT_DEFAULT_SNDINFO:
		return opt_out(val, len, &v->sndinfo, sizeof(v->sndinfo));
	case DPSCTP_OPT_EVENTS: {
		struct dpsctp_events o = { v->events & (uint32_t)~DPSCTP_EV_BIT(0) };
		return opt_out(val, len, &o, sizeof(o));
	}
	default:
		return -ENOPROTOOPT;
	}
}

int
dpsctp_getopt(const struct dpsctp *d, enum dpsctp_opt opt, void *val, size_t *len)
{
	if (d == NULL || val == NULL || len == NULL)
		return -EINVAL;
	if (opt == DPSCTP_OPT_PRIMARY_ADDR || opt == DPSCTP_OPT_STATUS ||
	    opt == DPSCTP_OPT_PEER_ADDR_INFO)
		return -ENOPROTOOPT;
	return opt_get_common(&d->profile, &d->optv, opt, val, len);
}

/* The path with that address, or -1. */
static int
opt_path(const struct dpsctp_assoc *c, const struct sctp_addr *addr)
{
	for (unsigned i = 0; i < c->a.paths.n; i++) {
		struct sctp_addr pa = sctp_path_addr(sctp_paths_get_const(&c->a.paths, i));
		if (sctp_addr_eq(&pa, addr))
			return (int)i;
	}
	return -1;
}

/* The MTU packets to path i are built for. */
static uint32_t
opt_path_mtu_now(const struct dpsctp_assoc *c, unsigned i)
{
	int mtu = sctp_assoc_path_mtu(&c->a, i, NULL);
	return mtu > 0 ? (uint32_t)mtu : c->w->d->cfg.mtu;
}

static void
opt_paddrinfo(const struct dpsctp_assoc *c, unsigned i, struct dpsctp_paddrinfo *o)
{
	const struct sctp_path *p = sctp_paths_get_const(&c->a.paths, i);
	struct dpsctp_path_stats ps;
	memset(o, 0, sizeof(*o));
	(void)dpsctp_path_get_stats(c, i, &ps);
	o->state = ps.state;
	o->cwnd = ps.cwnd;
	o->srtt_us = (uint32_t)(p->rto.srtt_ns / NS_PER_US);
	o->rto_us = (uint32_t)(p->rto.rto_ns / NS_PER_US);
	o->mtu = opt_path_mtu_now(c, i);
	o->addr = sctp_path_addr(p);
}

static int
opt_get_status(const struct dpsctp_assoc *c, void *val, size_t *len)
{
	const struct sctp_assoc *a = &c->a;
	struct dpsctp_status o;
	struct dpsctp_assoc_stats st;
	memset(&o, 0, sizeof(o));
	(void)dpsctp_assoc_get_stats(c, &st);
	o.state = st.state;
	o.rwnd = st.peer_rwnd;
	o.instrms = a->inbound_streams;
	o.outstrms = a->outbound_streams;
	if (a->tx != NULL) {
		o.unacked = sctp_rtxq_count(&a->tx->rtxq, a->tx->env.pool);
		bool idata = (a->extensions & SCTP_COOKIE_EXT_I_DATA) != 0;
		uint32_t ip = a->local_addr.family == SCTP_ADDR_V6 ? 40u : 20u;
		uint32_t frag = a->tx->mtu - ip - SCTP_COMMON_HDR_LEN - (idata ? 20u : 16u);
		uint32_t max_seg = assoc_profile(a)->max_seg;
		o.fragmentation_point = max_seg != 0 && max_seg < frag ? max_seg : frag;
	}
	if (a->data_mem != NULL)
		o.pending = (a->extensions & SCTP_COOKIE_EXT_I_DATA)
				    ? sctp_ireasm_queued_chunks(&a->rx_ireasm)
				    : sctp_reasm_queued_chunks(&a->rx_reasm);
	if (a->paths.n != 0)
		opt_paddrinfo(c, a->paths.primary < a->paths.n ? a->paths.primary : 0, &o.primary);
	return opt_out(val, len, &o, sizeof(o));
}

int
dpsctp_assoc_getopt(const struct dpsctp_assoc *c, enum dpsctp_opt opt, void *val, size_t *len)
{
	if (c == NULL || val == NULL || len == NULL)
		return -EINVAL;
	size_t size = dpsctp_opt_size(opt);
	if (size == 0)
		return -ENOPROTOOPT;
	if (*len < size)
		return -EINVAL;
	const struct sctp_profile *p = assoc_profile(&c->a);
	switch (opt) {
	case DPSCTP_OPT_STATUS:
		return opt_get_status(c, val, len);
	case DPSCTP_OPT_PEER_ADDR_INFO: {
		struct dpsctp_paddrinfo *o = val;
		int i = o->addr.family == SCTP_ADDR_NONE ? (int)c->a.paths.primary
							 : opt_path(c, &o->addr);
		if (i < 0 || (unsigned)i >= c->a.paths.n)
			return -ENOENT;
		opt_paddrinfo(c, (unsigned)i, o);
		*len = size;
		return 0;
	}
	case DPSCTP_OPT_PRIMARY_ADDR: {
		struct dpsctp_primary_addr o;
		memset(&o, 0, sizeof(o));
		if (c->a.paths.n != 0)
			o.addr = sctp_path_addr(
				sctp_paths_get_const(&c->a.paths, c->a.paths.primary));
		return opt_out(val, len, &o, sizeof(o));
	}
	case DPSCTP_OPT_ASSOCINFO: {
		int rc = opt_get_common(p, dp_opt_vals(c), opt, val, len);
		struct dpsctp_associnfo *o = val;
		o->peer_destinations = c->a.paths.n;
		o->peer_rwnd = c->a.tx != NULL ? c->a.tx->rtxq.a_rwnd : c->a.peer_a_rwnd;
		o->local_rwnd = c->a.ep != NULL ? c->a.ep->cfg.a_rwnd : 0;
		return rc;
	}
	case DPSCTP_OPT_PEER_ADDR_PARAMS: {
		struct sctp_addr want = ((const struct dpsctp_paddrparams *)val)->addr;
		int i = -1;
		if (want.family != SCTP_ADDR_NONE && (i = opt_path(c, &want)) < 0)
			return -ENOENT;
		int rc = opt_get_common(p, dp_opt_vals(c), opt, val, len);
		struct dpsctp_paddrparams *o = val;
		o->addr = want;
		if (i >= 0) {
			/* The path's own values, else the association's. */
			uint16_t pfmr = 0;
			bool pf = sctp_profile_pf(p, (unsigned)i, &pfmr);
			o->hb_interval_us =
				(uint32_t)(sctp_profile_hb_interval(p, (unsigned)i) / NS_PER_US);
			o->path_max_retrans = sctp_profile_path_max_retrans(p, (unsigned)i);
			o->pf_threshold = pf ? pfmr : 0;
			o->flags &= ~(DPSCTP_SPP_PF_ENABLE | DPSCTP_SPP_PF_DISABLE);
			o->flags |= pf ? DPSCTP_SPP_PF_ENABLE : DPSCTP_SPP_PF_DISABLE;
			const struct sctp_path *pa = sctp_paths_get_const(&c->a.paths, (unsigned)i);
			o->flags &= ~(DPSCTP_SPP_HB_ENABLE | DPSCTP_SPP_HB_DISABLE);
			o->flags |= (pa->flags & SCTP_PATH_F_HB_ENABLED) ? DPSCTP_SPP_HB_ENABLE
									 : DPSCTP_SPP_HB_DISABLE;
			o->pathmtu = opt_path_mtu_now(c, (unsigned)i);
			bool fixed = false;
			(void)sctp_assoc_path_mtu(&c->a, (unsigned)i, &fixed);
			o->flags &= ~(DPSCTP_SPP_PMTUD_ENABLE | DPSCTP_SPP_PMTUD_DISABLE);
			o->flags |= fixed ? DPSCTP_SPP_PMTUD_DISABLE : DPSCTP_SPP_PMTUD_ENABLE;
		}
		return rc;
	}
	default:
		return opt_get_common(p, dp_opt_vals(c), opt, val, len);
	}
}

/* PEER_ADDR_PARAMS' per-path parts: heartbeats on or off, the MTU. */
static int
opt_paths_apply(struct dpsctp_assoc *c, const struct dpsctp_paddrparams *o, char *err,
		size_t errlen)
{
	unsigned lo = 0, hi = c->a.paths.n;
	if (o->addr.family != SCTP_ADDR_NONE) {
		int i = opt_path(c, &o->addr);
		if (i < 0)
			return opt_err(err, errlen, -ENOENT, "%s%s",
				       "PEER_ADDR_PARAMS.addr: not one of the peer's addresses",
				       "");
		lo = (unsigned)i;
		hi = lo + 1;
	}
	if (o->flags & (DPSCTP_SPP_PMTUD_ENABLE | DPSCTP_SPP_PMTUD_DISABLE))
		for (unsigned i = lo; i < hi; i++) {
			int rc = dp_opt_path_mtu(
				c, i, (o->flags & DPSCTP_SPP_PMTUD_DISABLE) ? o->pathmtu : 0, err,
				errlen);
			if (rc != 0)
				return rc;
		}
	if (o->flags & (DPSCTP_SPP_HB_ENABLE | DPSCTP_SPP_HB_DISABLE))
		for (unsigned i = lo; i < hi; i++)
			(void)sctp_paths_set_hb_enabled(&c->a.paths, assoc_profile(&c->a), i,
							(o->flags & DPSCTP_SPP_HB_ENABLE) != 0,
							c->w->now_ns);
	return 0;
}

int
dp_opt_assoc_apply(struct dpsctp_assoc *c, enum dpsctp_opt opt, const void *val, char *err,
		   size_t errlen)
{
	struct dpsctp *d = c->w->d;
	if (sctp_assoc_freeable(&c->a))
		return opt_err(err, errlen, -ENOTCONN, "%s%s", "the association is closed", "");
	if (opt == DPSCTP_OPT_PRIMARY_ADDR) {
		int rc = sctp_assoc_set_primary(
			&c->a, &((const struct dpsctp_primary_addr *)val)->addr, c->w->now_ns);
		if (rc == -EADDRNOTAVAIL)
			return opt_err(err, errlen, -ENOENT, "%s%s",
				       "PRIMARY_ADDR.addr: not one of the peer's addresses", "");
		if (rc == -EINVAL)
			return opt_err(err, errlen, -EINVAL, "%s%s",
				       "PRIMARY_ADDR.addr: the path is not confirmed yet", "");
		return rc;
	}
	int path = -1;
	if (opt == DPSCTP_OPT_PEER_ADDR_PARAMS &&
	    ((const struct dpsctp_paddrparams *)val)->addr.family != SCTP_ADDR_NONE) {
		const struct dpsctp_paddrparams *pp = val;
		path = opt_path(c, &pp->addr);
		if (path < 0)
			return opt_err(err, errlen, -ENOENT, "%s%s",
				       "PEER_ADDR_PARAMS.addr: not one of the peer's addresses",
				       "");
		/* Heartbeats on or off and the MTU are the path's own state: no block. */
		if (!opt_paddr_in_profile(pp))
			return opt_paths_apply(c, pp, err, errlen);
	}
	struct dp_opts *o = c->opts, tmp;
	if (o != NULL) {
		tmp = *o;
	} else if (c->a.ep == NULL) { /* before connect (dpsctp_connect_opts()) */
		tmp.core.profile = d->profile;
		tmp.core.cc = d->cc;
		tmp.v = d->optv;
	} else {
		sctp_assoc_opts_init(&tmp.core, &c->a);
		tmp.v = d->optv;
	}
	opt_to_profile(&tmp.core.profile, &tmp.v, opt, val, path);
	int rc = opt_check_limits(d, &tmp.core.profile, opt, err, errlen);
	if (rc != 0)
		return rc;
	if (o == NULL) {
		o = rte_zmalloc("dpsctp_opts", sizeof(*o), 0);
		if (o == NULL)
			return opt_err(err, errlen, -ENOMEM, "%s%s",
				       "no memory for the association's options", "");
	}
	*o = tmp;
	const char *why = NULL;
	rc = sctp_assoc_set_opts(&c->a, &o->core, c->w->now_ns, &why);
	if (rc != 0) {
		if (c->opts == NULL)
			rte_free(o);
		return opt_err(err, errlen, rc, "%s: %s", dpsctp_opt_name(opt),
			       why != NULL ? why : "refused");
	}
	c->opts = o;
	if (opt == DPSCTP_OPT_PEER_ADDR_PARAMS)
		rc = opt_paths_apply(c, val, err, errlen);
	return rc;
}

int
dp_opt_assoc_init(struct dpsctp_assoc *c, const struct dpsctp_initmsg *init)
{
	return dp_opt_assoc_apply(c, DPSCTP_OPT_INITMSG, init, NULL, 0);
}
