/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The options' values checked alone (dataplane/dpsctp_opt.h): no DPDK, so
 * the sidecar's client library links this file and refuses a bad value
 * before it leaves the application. What depends on the values in force
 * (RTO.Min below RTO.Max, the PF threshold below Path.Max.Retrans, the
 * clock granularity) is checked where the option is set, on the profile
 * that results (sctp_profile_check()).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dataplane/dpsctp.h"

/* The structs cross processes as bytes: no padding anywhere. */
_Static_assert(sizeof(struct dpsctp_rtoinfo) == 12, "rtoinfo: no padding");
_Static_assert(sizeof(struct dpsctp_associnfo) == 16, "associnfo: no padding");
_Static_assert(sizeof(struct dpsctp_initmsg) == 12, "initmsg: no padding");
_Static_assert(sizeof(struct dpsctp_paddrparams) == 36, "paddrparams: no padding");
_Static_assert(sizeof(struct dpsctp_sack_info) == 8, "sack_info: no padding");
_Static_assert(sizeof(struct dpsctp_assoc_value) == 4, "assoc_value: no padding");
_Static_assert(sizeof(struct dpsctp_default_sndinfo) == 24, "default_sndinfo: no padding");
_Static_assert(sizeof(struct dpsctp_events) == 4, "events: no padding");
_Static_assert(sizeof(struct dpsctp_primary_addr) == 20, "primary_addr: no padding");
_Static_assert(sizeof(struct dpsctp_paddrinfo) == 40, "paddrinfo: no padding");
_Static_assert(sizeof(struct dpsctp_status) == 64, "status: no padding");

#define US_PER_S 1000000u
#define TIME_MAX (3600u * US_PER_S) /* one hour: the RTO arithmetic's bound */

static const struct {
	const char *name;
	size_t size;
} opts[DPSCTP_OPT_END] = {
	[DPSCTP_OPT_RTOINFO] = { "RTOINFO", sizeof(struct dpsctp_rtoinfo) },
	[DPSCTP_OPT_ASSOCINFO] = { "ASSOCINFO", sizeof(struct dpsctp_associnfo) },
	[DPSCTP_OPT_INITMSG] = { "INITMSG", sizeof(struct dpsctp_initmsg) },
	[DPSCTP_OPT_PEER_ADDR_PARAMS] = { "PEER_ADDR_PARAMS", sizeof(struct dpsctp_paddrparams) },
	[DPSCTP_OPT_DELAYED_SACK] = { "DELAYED_SACK", sizeof(struct dpsctp_sack_info) },
	[DPSCTP_OPT_MAXSEG] = { "MAXSEG", sizeof(struct dpsctp_assoc_value) },
	[DPSCTP_OPT_MAX_BURST] = { "MAX_BURST", sizeof(struct dpsctp_assoc_value) },
	[DPSCTP_OPT_NODELAY] = { "NODELAY", sizeof(struct dpsctp_assoc_value) },
	[DPSCTP_OPT_DEFAULT_SNDINFO] = { "DEFAULT_SNDINFO", sizeof(struct dpsctp_default_sndinfo) },
	[DPSCTP_OPT_EVENTS] = { "EVENTS", sizeof(struct dpsctp_events) },
	[DPSCTP_OPT_PRIMARY_ADDR] = { "PRIMARY_ADDR", sizeof(struct dpsctp_primary_addr) },
	[DPSCTP_OPT_STATUS] = { "STATUS", sizeof(struct dpsctp_status) },
	[DPSCTP_OPT_PEER_ADDR_INFO] = { "PEER_ADDR_INFO", sizeof(struct dpsctp_paddrinfo) },
};

const char *
dpsctp_opt_name(enum dpsctp_opt opt)
{
	return (unsigned)opt < DPSCTP_OPT_END ? opts[opt].name : NULL;
}

size_t
dpsctp_opt_size(enum dpsctp_opt opt)
{
	return (unsigned)opt < DPSCTP_OPT_END ? opts[opt].size : 0;
}

__attribute__((format(printf, 3, 4))) static int
bad(char *err, size_t errlen, const char *fmt, ...)
{
	if (err != NULL && errlen != 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A time field: 0 keeps it, else lo..hi microseconds. */
static int
check_us(const char *opt, const char *field, uint32_t v, uint32_t lo, uint32_t hi, char *err,
	 size_t errlen)
{
	if (v != 0 && (v < lo || v > hi))
		return bad(err, errlen, "%s.%s %u: outside %u us..%u us (0 keeps the value)", opt,
			   field, v, lo, hi);
	return 0;
}

static int
check_addr(const char *opt, const struct sctp_addr *a, int none_ok, char *err, size_t errlen)
{
	if (a->family == SCTP_ADDR_V4 || a->family == SCTP_ADDR_V6 ||
	    (none_ok && a->family == SCTP_ADDR_NONE))
		return 0;
	return bad(err, errlen, "%s.addr: family %u is not IPv4 (4) or IPv6 (6)%s", opt, a->family,
		   none_ok ? " or none (0)" : "");
}

static int
check_reserved(const char *opt, const uint8_t *r, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		if (r[i] != 0)
			return bad(err, errlen, "%s.reserved: must be 0", opt);
	return 0;
}

static int
check_paddrparams(const struct dpsctp_paddrparams *v, char *err, size_t errlen)
{
	const char *o = "PEER_ADDR_PARAMS";
	const uint32_t known = DPSCTP_SPP_HB_ENABLE | DPSCTP_SPP_HB_DISABLE |
			       DPSCTP_SPP_PMTUD_ENABLE | DPSCTP_SPP_PMTUD_DISABLE |
			       DPSCTP_SPP_PF_ENABLE | DPSCTP_SPP_PF_DISABLE;
	static const uint32_t pairs[][2] = {
		{ DPSCTP_SPP_HB_ENABLE, DPSCTP_SPP_HB_DISABLE },
		{ DPSCTP_SPP_PMTUD_ENABLE, DPSCTP_SPP_PMTUD_DISABLE },
		{ DPSCTP_SPP_PF_ENABLE, DPSCTP_SPP_PF_DISABLE },
	};

	if (v->flags & ~known)
		return bad(err, errlen, "%s.flags 0x%x: unknown bits 0x%x", o, v->flags,
			   v->flags & ~known);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if ((v->flags & pairs[i][0]) && (v->flags & pairs[i][1]))
			return bad(err, errlen, "%s.flags 0x%x: both 0x%x and 0x%x", o, v->flags,
				   pairs[i][0], pairs[i][1]);
	int rc = check_us(o, "hb_interval_us", v->hb_interval_us, 1000u, TIME_MAX, err, errlen);
	if (rc != 0)
		return rc;
	if (v->flags & DPSCTP_SPP_PMTUD_DISABLE) {
		if (v->pathmtu < 576 || v->pathmtu > 9216)
			return bad(
				err, errlen,
				"%s.pathmtu %u: outside 576..9216 (with DPSCTP_SPP_PMTUD_DISABLE)",
				o, v->pathmtu);
	} else if (v->pathmtu != 0) {
		return bad(err, errlen, "%s.pathmtu %u: set only with DPSCTP_SPP_PMTUD_DISABLE", o,
			   v->pathmtu);
	}
	if (!(v->flags & DPSCTP_SPP_PF_ENABLE) && v->pf_threshold != 0)
		return bad(err, errlen, "%s.pf_threshold %u: set only with DPSCTP_SPP_PF_ENABLE", o,
			   v->pf_threshold);
	rc = check_addr(o, &v->addr, 1, err, errlen);
	return rc != 0 ? rc : check_reserved(o, v->reserved, sizeof(v->reserved), err, errlen);
}

static int
check_sndinfo(const struct dpsctp_default_sndinfo *v, char *err, size_t errlen)
{
	const char *o = "DEFAULT_SNDINFO";
	const uint32_t known = DPSCTP_SEND_UNORDERED | DPSCTP_SEND_SACK_NOW;

	if (v->flags & ~known)
		return bad(err, errlen,
			   "%s.flags 0x%x: only DPSCTP_SEND_UNORDERED and DPSCTP_SEND_SACK_NOW", o,
			   v->flags);
	if (v->pr_policy > DPSCTP_PR_PRIO)
		return bad(err, errlen, "%s.pr_policy %u: outside 0..3 (DPSCTP_PR_*)", o,
			   v->pr_policy);
	if (v->pr_policy == DPSCTP_PR_TTL && v->pr_value == 0)
		return bad(err, errlen, "%s.pr_value 0: a DPSCTP_PR_TTL lifetime is 1 ms or more",
			   o);
	return v->reserved != 0 ? bad(err, errlen, "%s.reserved: must be 0", o) : 0;
}

/* The events the mask may name: those of enum dpsctp_event_type. */
#define EVENTS_ALL (((DPSCTP_EV_BIT(DPSCTP_EV_STREAM_CHANGE) << 1) - 1u) & ~DPSCTP_EV_BIT(0))

int
dpsctp_opt_check(enum dpsctp_opt opt, const void *val, size_t len, char *err, size_t errlen)
{
	const char *o = dpsctp_opt_name(opt);

	if (o == NULL) {
		(void)bad(err, errlen, "option %d: no such option", (int)opt);
		return -ENOPROTOOPT;
	}
	if (opt == DPSCTP_OPT_STATUS || opt == DPSCTP_OPT_PEER_ADDR_INFO) {
		(void)bad(err, errlen, "%s: read only (getopt)", o);
		return -ENOPROTOOPT;
	}
	if (val == NULL || len != opts[opt].size)
		return bad(err, errlen, "%s: value of %zu bytes, expected a struct of %zu", o,
			   val == NULL ? (size_t)0 : len, opts[opt].size);
	switch (opt) {
	case DPSCTP_OPT_RTOINFO: {
		const struct dpsctp_rtoinfo *v = val;
		int rc = check_us(o, "initial_us", v->initial_us, 1, TIME_MAX, err, errlen);
		if (rc == 0)
			rc = check_us(o, "min_us", v->min_us, 1, TIME_MAX, err, errlen);
		if (rc == 0)
			rc = check_us(o, "max_us", v->max_us, 1, TIME_MAX, err, errlen);
		if (rc == 0 && v->min_us != 0 && v->max_us != 0 && v->min_us > v->max_us)
			rc = bad(err, errlen, "%s.min_us %u: above max_us %u", o, v->min_us,
				 v->max_us);
		if (rc == 0 && v->initial_us != 0 &&
		    ((v->min_us != 0 && v->initial_us < v->min_us) ||
		     (v->max_us != 0 && v->initial_us > v->max_us)))
			rc = bad(err, errlen, "%s.initial_us %u: outside min_us..max_us", o,
				 v->initial_us);
		return rc;
	}
	case DPSCTP_OPT_ASSOCINFO: {
		const struct dpsctp_associnfo *v = val;
		if (v->cookie_life_ms > 3600u * 1000u)
			return bad(err, errlen,
				   "%s.cookie_life_ms %u: outside 1 ms..3600000 ms (0 keeps the "
				   "value)",
				   o, v->cookie_life_ms);
		return 0;
	}
	case DPSCTP_OPT_INITMSG: {
		const struct dpsctp_initmsg *v = val;
		if (v->reserved != 0)
			return bad(err, errlen, "%s.reserved: must be 0", o);
		return check_us(o, "max_init_timeo_us", v->max_init_timeo_us, 1, TIME_MAX, err,
				errlen);
	}
	case DPSCTP_OPT_PEER_ADDR_PARAMS:
		return check_paddrparams(val, err, errlen);
	case DPSCTP_OPT_DELAYED_SACK: {
		const struct dpsctp_sack_info *v = val;
		if (v->delay_us > 500000u)
			return bad(err, errlen,
				   "%s.delay_us %u: above 500 ms (RFC 9260 §6.2); allowed 1 "
				   "us..500000 us (0 keeps the value)",
				   o, v->delay_us);
		if (v->freq > 65535u)
			return bad(err, errlen, "%s.freq %u: outside 1..65535 (0 keeps the value)",
				   o, v->freq);
		return 0;
	}
	case DPSCTP_OPT_MAXSEG: {
		const struct dpsctp_assoc_value *v = val;
		if (v->value != 0 && (v->value < 256 || v->value > 65535))
			return bad(err, errlen,
				   "%s.value %u: outside 256..65535 bytes (0: the path MTU's)", o,
				   v->value);
		return 0;
	}
	case DPSCTP_OPT_MAX_BURST: {
		const struct dpsctp_assoc_value *v = val;
		if (v->value > 65535u)
			return bad(err, errlen, "%s.value %u: outside 0..65535 packets (0: no cap)",
				   o, v->value);
		return 0;
	}
	case DPSCTP_OPT_NODELAY: {
		const struct dpsctp_assoc_value *v = val;
		if (v->value > 1)
			return bad(err, errlen, "%s.value %u: 0 or 1", o, v->value);
		return 0;
	}
	case DPSCTP_OPT_DEFAULT_SNDINFO:
		return check_sndinfo(val, err, errlen);
	case DPSCTP_OPT_EVENTS: {
		const struct dpsctp_events *v = val;
		if (v->mask & ~(uint32_t)EVENTS_ALL)
			return bad(err, errlen, "%s.mask 0x%x: bits 0x%x name no event", o, v->mask,
				   v->mask & ~(uint32_t)EVENTS_ALL);
		return 0;
	}
	case DPSCTP_OPT_PRIMARY_ADDR: {
		const struct dpsctp_primary_addr *v = val;
		int rc = check_addr(o, &v->addr, 0, err, errlen);
		return rc != 0 ? rc
			       : check_reserved(o, v->reserved, sizeof(v->reserved), err, errlen);
	}
	default:
		break;
	}
	(void)bad(err, errlen, "%s: not an option one sets", o);
	return -ENOPROTOOPT;
}
