/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctpd: an application's option defaults (SETOPT and GETOPT with
 * association 0, RFC 6458's association id 0; dd.h).
 *
 * The data plane's own defaults (dpsctp_setopt()) are the daemon's, for
 * every application, and fixed once it runs. What one application sets for
 * its associations to come is kept here, per application: the sets it made,
 * merged as RFC 6458 merges sets on an endpoint (a field of 0 keeps the
 * value in force, PEER_ADDR_PARAMS' flags change what they name), and
 * applied with dpsctp_assoc_setopt() to each association it connects
 * (INITMSG through dpsctp_connect_opts(), before the INIT leaves) or
 * accepts (at COMM_UP, the first the daemon hears of it). A GETOPT of a
 * default reads the daemon's value with the application's sets over it.
 */
#include <errno.h>
#include <string.h>

#include "apps/dpsctpd/dd.h"

_Static_assert(sizeof(struct dpsctp_status) <= DD_OPT_BYTES &&
		       sizeof(struct dpsctp_paddrparams) <= DD_OPT_BYTES &&
		       sizeof(struct dpsctp_default_sndinfo) <= DD_OPT_BYTES &&
		       DD_OPT_BYTES <= SC_OPT_MAX_BYTES && DPSCTP_OPT_END <= 32,
	       "an option's bytes, and a bit of dd_opts.set per option");

/* A field that a set of 0 leaves as it is. */
#define DD_KEEP(dst, src, field)                                                                   \
	do {                                                                                       \
		if ((src)->field != 0)                                                             \
			(dst)->field = (src)->field;                                               \
	} while (0)

/* One ENABLE/DISABLE pair of PEER_ADDR_PARAMS' flags: the set's, when it names either. */
static uint32_t
dd_spp_pair(uint32_t have, uint32_t set, uint32_t on, uint32_t off)
{
	if ((set & (on | off)) == 0)
		return have;
	return (have & ~(on | off)) | (set & (on | off));
}

/* dst (the value so far) with the set src over it, as a set on an endpoint changes it. */
static void
dd_opt_merge(enum dpsctp_opt opt, void *dst, const void *src)
{
	switch (opt) {
	case DPSCTP_OPT_RTOINFO: {
		struct dpsctp_rtoinfo *d = dst;
		const struct dpsctp_rtoinfo *s = src;
		DD_KEEP(d, s, initial_us);
		DD_KEEP(d, s, min_us);
		DD_KEEP(d, s, max_us);
		return;
	}
	case DPSCTP_OPT_ASSOCINFO: {
		/* The read-only fields are the daemon's (a get fills them). */
		struct dpsctp_associnfo *d = dst;
		const struct dpsctp_associnfo *s = src;
		DD_KEEP(d, s, max_retrans);
		DD_KEEP(d, s, cookie_life_ms);
		return;
	}
	case DPSCTP_OPT_INITMSG: {
		struct dpsctp_initmsg *d = dst;
		const struct dpsctp_initmsg *s = src;
		DD_KEEP(d, s, num_ostreams);
		DD_KEEP(d, s, max_instreams);
		DD_KEEP(d, s, max_attempts);
		DD_KEEP(d, s, max_init_timeo_us);
		return;
	}
	case DPSCTP_OPT_PEER_ADDR_PARAMS: {
		struct dpsctp_paddrparams *d = dst;
		const struct dpsctp_paddrparams *s = src;
		d->flags = dd_spp_pair(d->flags, s->flags, DPSCTP_SPP_HB_ENABLE,
				       DPSCTP_SPP_HB_DISABLE);
		d->flags = dd_spp_pair(d->flags, s->flags, DPSCTP_SPP_PMTUD_ENABLE,
				       DPSCTP_SPP_PMTUD_DISABLE);
		d->flags = dd_spp_pair(d->flags, s->flags, DPSCTP_SPP_PF_ENABLE,
				       DPSCTP_SPP_PF_DISABLE);
		DD_KEEP(d, s, hb_interval_us);
		DD_KEEP(d, s, path_max_retrans);
		if (s->flags & DPSCTP_SPP_PF_ENABLE)
			d->pf_threshold = s->pf_threshold;
		if (s->flags & DPSCTP_SPP_PMTUD_DISABLE)
			d->pathmtu = s->pathmtu;
		return;
	}
	case DPSCTP_OPT_DELAYED_SACK: {
		struct dpsctp_sack_info *d = dst;
		const struct dpsctp_sack_info *s = src;
		DD_KEEP(d, s, delay_us);
		DD_KEEP(d, s, freq);
		return;
	}
	default:
		/* MAXSEG, MAX_BURST, NODELAY (0 means something there), DEFAULT_SNDINFO,
		 * EVENTS: a set is the whole value. */
		memcpy(dst, src, dpsctp_opt_size(opt));
		return;
	}
}

/* An option an application may set a default of: one the daemon's instance has. */
static bool
dd_opt_defaultable(enum dpsctp_opt opt)
{
	return opt > 0 && opt < DPSCTP_OPT_END && opt != DPSCTP_OPT_PRIMARY_ADDR &&
	       opt != DPSCTP_OPT_STATUS && opt != DPSCTP_OPT_PEER_ADDR_INFO;
}

int
dd_opt_get_default(const struct dd *d, const struct dd_app *app, enum dpsctp_opt opt, void *val,
		   size_t *len)
{
	if (!dd_opt_defaultable(opt))
		return -ENOPROTOOPT;
	int rc = dpsctp_getopt(d->dp, opt, val, len);
	if (rc == 0 && (app->opts.set & (1u << opt)))
		dd_opt_merge(opt, val, app->opts.val[opt].bytes);
	return rc;
}

/*
 * The defaults of app hold together as an association would start with
 * them (the data plane's profile check, for what a set can break): RTO.Min
 * <= RTO.Initial <= RTO.Max, the SACK delay below RTO.Min (a SACK held back
 * longer fires T3-rtx spuriously), the PF threshold below
 * Path.Max.Retrans (RFC 7829 §5). 0 or -EINVAL.
 */
static int
dd_opt_consistent(const struct dd *d, const struct dd_app *app)
{
	struct dpsctp_rtoinfo rto;
	struct dpsctp_sack_info sack;
	struct dpsctp_paddrparams pp;
	size_t n = sizeof(rto), m = sizeof(sack), k = sizeof(pp);
	memset(&pp, 0, sizeof(pp));
	if (dd_opt_get_default(d, app, DPSCTP_OPT_RTOINFO, &rto, &n) != 0 ||
	    dd_opt_get_default(d, app, DPSCTP_OPT_DELAYED_SACK, &sack, &m) != 0 ||
	    dd_opt_get_default(d, app, DPSCTP_OPT_PEER_ADDR_PARAMS, &pp, &k) != 0)
		return -EINVAL;
	if (dpsctp_opt_check(DPSCTP_OPT_RTOINFO, &rto, sizeof(rto), NULL, 0) != 0 ||
	    sack.delay_us >= rto.min_us)
		return -EINVAL;
	if ((pp.flags & DPSCTP_SPP_PF_ENABLE) && pp.pf_threshold >= pp.path_max_retrans)
		return -EINVAL;
	return 0;
}

int
dd_opt_set_default(const struct dd *d, struct dd_app *app, enum dpsctp_opt opt, const void *val,
		   size_t len)
{
	if (!dd_opt_defaultable(opt))
		return -ENOPROTOOPT;
	int rc = dpsctp_opt_check(opt, val, len, NULL, 0);
	if (rc != 0)
		return rc;
	if (opt == DPSCTP_OPT_PEER_ADDR_PARAMS &&
	    ((const struct dpsctp_paddrparams *)val)->addr.family != SCTP_ADDR_NONE)
		return -EINVAL; /* a default is every path's: it names none (dpsctp_setopt()) */
	/* The sets so far with this one over them, kept only if the defaults still hold
	 * together: refused now, not at each connect. (Whatever else the data plane
	 * refuses at an association fails its connect, or aborts it when accepted.) */
	union dd_opt_val was = app->opts.val[opt];
	uint32_t was_set = app->opts.set;
	if (!(app->opts.set & (1u << opt)))
		memset(&app->opts.val[opt], 0, sizeof(app->opts.val[opt]));
	dd_opt_merge(opt, app->opts.val[opt].bytes, val);
	app->opts.set |= 1u << opt;
	rc = dd_opt_consistent(d, app);
	if (rc != 0) {
		app->opts.val[opt] = was;
		app->opts.set = was_set;
	}
	return rc;
}

const struct dpsctp_initmsg *
dd_opt_initmsg(const struct dd_app *app, const struct dpsctp_initmsg *call,
	       struct dpsctp_initmsg *out)
{
	if (!(app->opts.set & (1u << DPSCTP_OPT_INITMSG)))
		return call;
	memcpy(out, app->opts.val[DPSCTP_OPT_INITMSG].bytes, sizeof(*out));
	if (call != NULL)
		dd_opt_merge(DPSCTP_OPT_INITMSG, out, call);
	return out;
}

int
dd_opt_apply_defaults(const struct dd_app *app, struct dpsctp_assoc *a)
{
	for (int opt = 1; opt < DPSCTP_OPT_END; opt++) {
		/* INITMSG went with the connect (dpsctp_connect_opts()); an accepted
		 * association answered the INIT with the daemon's streams. */
		if (!(app->opts.set & (1u << opt)) || opt == DPSCTP_OPT_INITMSG)
			continue;
		int rc = dpsctp_assoc_setopt(a, (enum dpsctp_opt)opt, app->opts.val[opt].bytes,
					     dpsctp_opt_size((enum dpsctp_opt)opt), NULL, 0);
		if (rc != 0)
			return rc;
	}
	return 0;
}
