/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdpsctp-sock: setsockopt() and getsockopt() on SCTP sockets. Options
 * of the socket itself (events, control messages wanted, INITMSG for the
 * next connect, buffers, timeouts, linger) live here; options of the
 * association go to dpsctpd (dpsctp_client_setopt(), _getopt()), with
 * RFC 6458's structs turned into <dpsctp/dpsctp_opt.h>'s. An association
 * option set before there is an association is kept and applied once
 * connect() or accept() has one. Anything else fails with the errno
 * Linux gives for an option it does not know: ENOPROTOOPT.
 */
#include <netinet/in.h>
#include <string.h>
#include <sys/time.h>

#include "dataplane/dpsctp_opt.h"
#include "dataplane/sidecar/sock/sock.h"

static int
opt_int(const void *val, socklen_t len, int *out)
{
	if (val == NULL || len < (socklen_t)sizeof(int))
		return -EINVAL;
	memcpy(out, val, sizeof(int));
	return 0;
}

static int
opt_put(void *val, socklen_t *len, const void *v, size_t n)
{
	if (val == NULL || len == NULL)
		return -EFAULT;
	if ((size_t)*len < n)
		return -EINVAL;
	memcpy(val, v, n);
	*len = (socklen_t)n;
	return 0;
}

static int
opt_put_int(void *val, socklen_t *len, int v)
{
	return opt_put(val, len, &v, sizeof(v));
}

static void opt_paddrinfo(const struct sock *sk, const struct dpsctp_paddrinfo *d,
			  struct sctp_paddrinfo *p);

/* An association option through the daemon, of the association handle names
 * (0: the application's defaults): set, or read (out: the answer). */
static int
opt_daemon(uint64_t handle, bool set, int opt, const void *in, uint32_t len, void *out)
{
	if (sock_g.c == NULL || sock_g.gone)
		return -ECONNRESET;
	struct sock_op *op = sock_op_begin();
	if (op == NULL)
		return -EAGAIN;
	char why[128] = "";
	int rc = set ? dpsctp_client_setopt(sock_g.c, 0, handle, opt, in, len, op->cookie, why,
					    sizeof(why))
		     : dpsctp_client_getopt(sock_g.c, 0, handle, opt, in, in != NULL ? len : 0,
					    op->cookie);
	if (rc == 0)
		rc = sock_op_wait(op);
	if (rc == 0 && !set) {
		if (op->len != len)
			rc = -EPROTO;
		else
			memcpy(out, op->data, len);
	}
	sock_op_end(op);
	return rc == -ENOENT && handle != 0 ? -EINVAL : rc;
}

/* Read an association option: the association's, or with none the daemon's
 * defaults for this application. */
static int
opt_read(uint64_t handle, int opt, void *out, uint32_t len)
{
	return opt_daemon(handle, false, opt, NULL, len, out);
}

static int
opt_write(struct sock *sk, uint64_t handle, int opt, const void *in, uint32_t len)
{
	if (handle == 0) {
		/* Kept for the association connect() or accept() makes (sock_opt_apply()). */
		for (unsigned i = 0; i < SOCK_PENDING_OPTS; i++) {
			struct sock_pending_opt *p = &sk->pend[i];
			if (p->opt == 0 || p->opt == opt) {
				p->opt = opt;
				p->len = len;
				memcpy(p->data, in, len);
				return 0;
			}
		}
		return -ENOBUFS;
	}
	return opt_daemon(handle, true, opt, in, len, NULL);
}

const struct dpsctp_initmsg *
sock_initmsg(const struct sock *sk, struct dpsctp_initmsg *im)
{
	if (!sk->have_initmsg)
		return NULL;
	memset(im, 0, sizeof(*im));
	im->num_ostreams = sk->initmsg.sinit_num_ostreams;
	im->max_instreams = sk->initmsg.sinit_max_instreams;
	im->max_attempts = sk->initmsg.sinit_max_attempts;
	im->max_init_timeo_us = (uint32_t)sk->initmsg.sinit_max_init_timeo * 1000u;
	return im;
}

void
sock_opt_apply_to(struct sock *sk, uint64_t handle)
{
	for (unsigned i = 0; i < SOCK_PENDING_OPTS && sk->pend[i].opt != 0; i++)
		dpsctp_client_setopt(sock_g.c, 0, handle, sk->pend[i].opt, sk->pend[i].data,
				     sk->pend[i].len, 0, NULL, 0);
}

void
sock_opt_apply(struct sock *sk)
{
	sock_opt_apply_to(sk, sk->assoc);
}

static bool
opt_pending(const struct sock *sk, int opt, void *out, uint32_t len)
{
	for (unsigned i = 0; i < SOCK_PENDING_OPTS; i++) {
		if (sk->pend[i].opt == opt && sk->pend[i].len == len) {
			memcpy(out, sk->pend[i].data, len);
			return true;
		}
	}
	return false;
}

static int
opt_assoc_get(struct sock *sk, uint64_t handle, int opt, void *out, uint32_t len)
{
	if (handle == 0 && opt_pending(sk, opt, out, len))
		return 0;
	return opt_read(handle, opt, out, len);
}

/* The association an option's struct names by its first field (every RFC 6458
 * struct with an assoc_id has it first): sk's own on a one-to-one socket. */
static uint64_t
opt_target(struct sock *sk, const void *val, socklen_t len, int *rc)
{
	sctp_assoc_t id = 0;
	if (val != NULL && len >= (socklen_t)sizeof(id))
		memcpy(&id, val, sizeof(id));
	return sock_opt_handle(sk, id, rc);
}

static int
opt_socket_set(struct sock *sk, int name, const void *val, socklen_t len)
{
	int v, rc;
	switch (name) {
	case SO_RCVBUF:
	case SO_SNDBUF:
		if ((rc = opt_int(val, len, &v)) != 0)
			return rc;
		/* As Linux: the value doubled (bookkeeping), with a floor. */
		v = v < 2304 ? 4608 : v > 0x3fffffff ? 0x7ffffffe : v * 2;
		if (name == SO_RCVBUF)
			sk->rcvbuf = v;
		else
			sk->sndbuf = v;
		return 0;
	case SO_REUSEADDR:
	case SO_REUSEPORT:
		if ((rc = opt_int(val, len, &v)) != 0)
			return rc;
		sk->reuseaddr = v != 0;
		return 0;
	case SO_KEEPALIVE:
		/* SCTP's heartbeats keep every path alive; Linux accepts the option. */
		return opt_int(val, len, &v);
	case SO_LINGER: {
		struct linger l;
		if (val == NULL || len < (socklen_t)sizeof(l))
			return -EINVAL;
		memcpy(&l, val, sizeof(l));
		sk->linger_on = l.l_onoff != 0;
		sk->linger_s = l.l_linger;
		return 0;
	}
	case SO_RCVTIMEO:
	case SO_SNDTIMEO: {
		struct timeval tv;
		if (val == NULL || len < (socklen_t)sizeof(tv))
			return -EINVAL;
		memcpy(&tv, val, sizeof(tv));
		if (tv.tv_usec < 0 || tv.tv_usec >= 1000000)
			return -EDOM;
		int64_t ms = (int64_t)tv.tv_sec * 1000 + (tv.tv_usec + 999) / 1000;
		if (ms <= 0)
			ms = -1; /* 0: no timeout */
		if (name == SO_RCVTIMEO)
			sk->rcvtimeo_ms = ms;
		else
			sk->sndtimeo_ms = ms;
		return 0;
	}
	default:
		return -ENOPROTOOPT;
	}
}

static int
opt_socket_get(struct sock *sk, int name, void *val, socklen_t *len)
{
	switch (name) {
	case SO_RCVBUF:
		return opt_put_int(val, len, sk->rcvbuf);
	case SO_SNDBUF:
		return opt_put_int(val, len, sk->sndbuf);
	case SO_REUSEADDR:
	case SO_REUSEPORT:
		return opt_put_int(val, len, sk->reuseaddr);
	case SO_ERROR: {
		int e = sk->err;
		sk->err = 0;
		sock_ready(sk);
		return opt_put_int(val, len, e);
	}
	case SO_TYPE:
		return opt_put_int(val, len, sk->type);
	case SO_DOMAIN:
		return opt_put_int(val, len, sk->domain);
	case SO_PROTOCOL:
		return opt_put_int(val, len, IPPROTO_SCTP);
	case SO_ACCEPTCONN:
		return opt_put_int(val, len, sk->state == SOCK_LISTENING);
	case SO_LINGER: {
		struct linger l = { sk->linger_on, sk->linger_s };
		return opt_put(val, len, &l, sizeof(l));
	}
	case SO_RCVTIMEO:
	case SO_SNDTIMEO: {
		int64_t ms = name == SO_RCVTIMEO ? sk->rcvtimeo_ms : sk->sndtimeo_ms;
		struct timeval tv = { 0, 0 };
		if (ms > 0) {
			tv.tv_sec = ms / 1000;
			tv.tv_usec = (ms % 1000) * 1000;
		}
		return opt_put(val, len, &tv, sizeof(tv));
	}
	default:
		return -ENOPROTOOPT;
	}
}

/* SPP flags both APIs number alike (heartbeats, path MTU discovery). */
#define OPT_SPP_SAME (SPP_HB_ENABLE | SPP_HB_DISABLE | SPP_PMTUD_ENABLE | SPP_PMTUD_DISABLE)

static int
opt_paddrparams_set(struct sock *sk, const void *val, socklen_t len)
{
	struct sctp_paddrparams p;
	int rc = 0;
	if (val == NULL || len < (socklen_t)sizeof(p))
		return -EINVAL;
	memcpy(&p, val, sizeof(p));
	/* Heartbeats on demand or at zero delay, flow labels and DSCP are not the
	 * daemon's to give. */
	if ((p.spp_flags & (SPP_HB_DEMAND | SPP_HB_TIME_IS_ZERO | SPP_IPV6_FLOWLABEL | SPP_DSCP)) !=
	    0)
		return -EOPNOTSUPP;
	struct dpsctp_paddrparams d;
	memset(&d, 0, sizeof(d));
	d.flags = p.spp_flags & OPT_SPP_SAME;
	d.hb_interval_us = p.spp_hbinterval * 1000u;
	d.path_max_retrans = p.spp_pathmaxrxt;
	d.pathmtu = p.spp_pathmtu;
	uint16_t port;
	struct sockaddr_storage ss;
	memcpy(&ss, &p.spp_address, sizeof(ss));
	if (ss.ss_family != 0 &&
	    sock_addr_from((const struct sockaddr *)&ss, sizeof(ss), &d.addr, &port) != 0)
		return -EINVAL;
	uint64_t h = opt_target(sk, val, len, &rc);
	if (rc != 0)
		return rc;
	if ((rc = opt_write(sk, h, DPSCTP_OPT_PEER_ADDR_PARAMS, &d, sizeof(d))) != 0)
		return rc;
	/* The SACK delay rides along in Linux's struct: the association's. */
	if ((p.spp_flags & (SPP_SACKDELAY_ENABLE | SPP_SACKDELAY_DISABLE)) != 0) {
		struct dpsctp_sack_info s = { .delay_us = (p.spp_flags & SPP_SACKDELAY_ENABLE)
								  ? p.spp_sackdelay * 1000u
								  : 0,
					      .freq = (p.spp_flags & SPP_SACKDELAY_DISABLE) ? 1u
											    : 0 };
		rc = opt_write(sk, h, DPSCTP_OPT_DELAYED_SACK, &s, sizeof(s));
	}
	return rc;
}

static int
opt_paddrparams_get(struct sock *sk, void *val, socklen_t *len)
{
	struct sctp_paddrparams p;
	int rc = 0;
	if (val == NULL || len == NULL || *len < (socklen_t)sizeof(p))
		return -EINVAL;
	memcpy(&p, val, sizeof(p));
	struct dpsctp_paddrparams d;
	memset(&d, 0, sizeof(d));
	uint16_t port;
	struct sockaddr_storage ss;
	memcpy(&ss, &p.spp_address, sizeof(ss));
	if (ss.ss_family != 0 &&
	    sock_addr_from((const struct sockaddr *)&ss, sizeof(ss), &d.addr, &port) != 0)
		return -EINVAL;
	uint64_t h = opt_target(sk, val, *len, &rc);
	if (rc != 0)
		return rc;
	if (h == 0 && opt_pending(sk, DPSCTP_OPT_PEER_ADDR_PARAMS, &d, sizeof(d)))
		rc = 0;
	else if (d.addr.family != SCTP_ADDR_NONE)
		rc = opt_daemon(h, false, DPSCTP_OPT_PEER_ADDR_PARAMS, &d, sizeof(d), &d);
	else
		rc = opt_read(h, DPSCTP_OPT_PEER_ADDR_PARAMS, &d, sizeof(d));
	if (rc != 0)
		return rc;
	struct dpsctp_sack_info s = { 0, 0 };
	(void)opt_assoc_get(sk, h, DPSCTP_OPT_DELAYED_SACK, &s, sizeof(s));
	p.spp_hbinterval = d.hb_interval_us / 1000u;
	p.spp_pathmaxrxt = d.path_max_retrans;
	p.spp_pathmtu = d.pathmtu;
	p.spp_sackdelay = s.delay_us / 1000u;
	p.spp_flags = (d.flags & OPT_SPP_SAME) |
		      (s.freq == 1 ? SPP_SACKDELAY_DISABLE : SPP_SACKDELAY_ENABLE);
	return opt_put(val, len, &p, sizeof(p));
}

/* struct sctp_event_subscribe's bytes are the notification types in order. */
static void
opt_events_from(struct sock *sk, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n && i < sizeof(struct sctp_event_subscribe); i++) {
		uint32_t bit = SOCK_EV(SCTP_SN_TYPE_BASE + i);
		sk->events = b[i] != 0 ? sk->events | bit : sk->events & ~bit;
	}
}

static int
opt_sctp_set(struct sock *sk, int name, const void *val, socklen_t len)
{
	int v, rc = 0;
	switch (name) {
	case SCTP_NODELAY:
		if ((rc = opt_int(val, len, &v)) != 0)
			return rc;
		sk->nodelay = v != 0;
		{
			struct dpsctp_assoc_value av = { .value = v != 0 };
			return opt_write(sk, sk->assoc, DPSCTP_OPT_NODELAY, &av, sizeof(av));
		}
	case SCTP_DISABLE_FRAGMENTS:
		/* Messages are always fragmented to the path MTU here. */
		if ((rc = opt_int(val, len, &v)) != 0)
			return rc;
		return v == 0 ? 0 : -EOPNOTSUPP;
	case SCTP_INITMSG: {
		struct sctp_initmsg im;
		if (val == NULL || len != (socklen_t)sizeof(im))
			return -EINVAL; /* Linux takes the struct's length only */
		memcpy(&im, val, sizeof(im));
		/* A field of 0 keeps what was set (RFC 6458 §8.1.3). */
		if (im.sinit_num_ostreams != 0)
			sk->initmsg.sinit_num_ostreams = im.sinit_num_ostreams;
		if (im.sinit_max_instreams != 0)
			sk->initmsg.sinit_max_instreams = im.sinit_max_instreams;
		if (im.sinit_max_attempts != 0)
			sk->initmsg.sinit_max_attempts = im.sinit_max_attempts;
		if (im.sinit_max_init_timeo != 0)
			sk->initmsg.sinit_max_init_timeo = im.sinit_max_init_timeo;
		sk->have_initmsg = true;
		return 0;
	}
	case SCTP_EVENTS:
		/* Shorter structs of older programs set what they have (0 bytes:
		 * nothing), as Linux takes them. */
		if (len > (socklen_t)sizeof(struct sctp_event_subscribe) ||
		    (val == NULL && len != 0))
			return -EINVAL;
		opt_events_from(sk, val, len);
		return 0;
	case SCTP_EVENT: {
		struct sctp_event e;
		if (val == NULL || len < (socklen_t)sizeof(e))
			return -EINVAL;
		memcpy(&e, val, sizeof(e));
		if (e.se_type < SCTP_SN_TYPE_BASE || e.se_type > SCTP_SN_TYPE_MAX)
			return -EINVAL;
		uint32_t bit = SOCK_EV(e.se_type);
		sk->events = e.se_on ? sk->events | bit : sk->events & ~bit;
		return 0;
	}
	case SCTP_RECVRCVINFO:
	case SCTP_RECVNXTINFO:
		if ((rc = opt_int(val, len, &v)) != 0)
			return rc;
		if (name == SCTP_RECVRCVINFO)
			sk->recvrcvinfo = v != 0;
		else
			sk->recvnxtinfo = v != 0;
		return 0;
	case SCTP_DEFAULT_SNDINFO: {
		struct sctp_sndinfo d;
		if (val == NULL || len != (socklen_t)sizeof(d))
			return -EINVAL;
		memcpy(&d, val, sizeof(d));
		if ((d.snd_flags & ~(uint16_t)(SCTP_UNORDERED | SCTP_ADDR_OVER | SCTP_ABORT |
					       SCTP_SACK_IMMEDIATELY | SCTP_SENDALL | SCTP_EOF)) !=
		    0)
			return -EINVAL;
		sk->dflt = d;
		return 0;
	}
	case SCTP_DEFAULT_SEND_PARAM: {
		struct sctp_sndrcvinfo s;
		if (val == NULL || len < (socklen_t)sizeof(s))
			return -EINVAL;
		memcpy(&s, val, sizeof(s));
		sk->dflt.snd_sid = s.sinfo_stream;
		sk->dflt.snd_flags = s.sinfo_flags;
		sk->dflt.snd_ppid = s.sinfo_ppid;
		sk->dflt.snd_context = s.sinfo_context;
		sk->dflt_ttl = s.sinfo_timetolive;
		return 0;
	}
	case SCTP_RTOINFO: {
		struct sctp_rtoinfo r;
		if (val == NULL || len < (socklen_t)sizeof(r))
			return -EINVAL;
		memcpy(&r, val, sizeof(r));
		uint64_t h = opt_target(sk, val, len, &rc);
		struct dpsctp_rtoinfo d;
		if (rc != 0 || (rc = opt_assoc_get(sk, h, DPSCTP_OPT_RTOINFO, &d, sizeof(d))) != 0)
			return rc;
		/* 0 keeps a value (RFC 6458 §8.1.1). */
		if (r.srto_initial != 0)
			d.initial_us = r.srto_initial * 1000u;
		if (r.srto_min != 0)
			d.min_us = r.srto_min * 1000u;
		if (r.srto_max != 0)
			d.max_us = r.srto_max * 1000u;
		return opt_write(sk, h, DPSCTP_OPT_RTOINFO, &d, sizeof(d));
	}
	case SCTP_ASSOCINFO: {
		struct sctp_assocparams a;
		if (val == NULL || len < (socklen_t)sizeof(a))
			return -EINVAL;
		memcpy(&a, val, sizeof(a));
		struct dpsctp_associnfo d = { .max_retrans = a.sasoc_asocmaxrxt,
					      .cookie_life_ms = a.sasoc_cookie_life };
		uint64_t h = opt_target(sk, val, len, &rc);
		return rc != 0 ? rc : opt_write(sk, h, DPSCTP_OPT_ASSOCINFO, &d, sizeof(d));
	}
	case SCTP_MAXSEG:
	case SCTP_MAX_BURST: {
		struct sctp_assoc_value a;
		if (val == NULL || len < (socklen_t)sizeof(int))
			return -EINVAL;
		/* An int alone is the old form of both (Linux takes it). */
		if (len >= (socklen_t)sizeof(a))
			memcpy(&a, val, sizeof(a));
		else
			memcpy(&a.assoc_value, val, sizeof(int));
		struct dpsctp_assoc_value d = { .value = a.assoc_value };
		uint64_t h =
			len >= (socklen_t)sizeof(a) ? opt_target(sk, val, len, &rc) : sk->assoc;
		if (rc != 0)
			return rc;
		return opt_write(sk, h,
				 name == SCTP_MAXSEG ? DPSCTP_OPT_MAXSEG : DPSCTP_OPT_MAX_BURST, &d,
				 sizeof(d));
	}
	case SCTP_DELAYED_SACK: {
		struct sctp_sack_info s;
		if (val == NULL || len < (socklen_t)sizeof(s))
			return -EINVAL;
		memcpy(&s, val, sizeof(s));
		struct dpsctp_sack_info d = { .delay_us = s.sack_delay * 1000u,
					      .freq = s.sack_freq };
		uint64_t h = opt_target(sk, val, len, &rc);
		return rc != 0 ? rc : opt_write(sk, h, DPSCTP_OPT_DELAYED_SACK, &d, sizeof(d));
	}
	case SCTP_PEER_ADDR_PARAMS:
		return opt_paddrparams_set(sk, val, len);
	case SCTP_PRIMARY_ADDR: {
		struct sctp_prim p;
		if (val == NULL || len < (socklen_t)sizeof(p))
			return -EINVAL;
		memcpy(&p, val, sizeof(p));
		struct dpsctp_primary_addr d;
		memset(&d, 0, sizeof(d));
		uint16_t port;
		if ((rc = sock_addr_from((const struct sockaddr *)&p.ssp_addr, sizeof(p.ssp_addr),
					 &d.addr, &port)) != 0)
			return -EINVAL;
		uint64_t h = opt_target(sk, val, len, &rc);
		if (rc != 0 || h == 0)
			return rc != 0 ? rc : -EINVAL; /* an association's, never a default */
		return opt_daemon(h, true, DPSCTP_OPT_PRIMARY_ADDR, &d, sizeof(d), NULL);
	}
	case SCTP_DEFAULT_PRINFO: {
		struct sctp_default_prinfo p;
		if (val == NULL || len < (socklen_t)sizeof(p))
			return -EINVAL;
		memcpy(&p, val, sizeof(p));
		if ((p.pr_policy & ~SCTP_PR_SCTP_MASK) != 0)
			return -EINVAL;
		sk->dflt_pr_policy = sock_pr_policy(p.pr_policy);
		sk->dflt_pr_value = sk->dflt_pr_policy != DPSCTP_CLIENT_PR_NONE ? p.pr_value : 0;
		if (sk->dflt_pr_policy == DPSCTP_CLIENT_PR_TTL && sk->dflt_pr_value == 0)
			sk->dflt_pr_policy = DPSCTP_CLIENT_PR_NONE;
		return 0;
	}
	case SCTP_CONTEXT: {
		struct sctp_assoc_value a;
		if (val == NULL || len < (socklen_t)sizeof(a))
			return -EINVAL;
		memcpy(&a, val, sizeof(a));
		sk->dflt.snd_context = a.assoc_value;
		return 0;
	}
	default:
		return sock_opt_stream_set(sk, name, val, len);
	}
}

/* Linux's numbering of a path's state (SCTP_INACTIVE, SCTP_PF, SCTP_ACTIVE). */
static int
opt_path_state(uint32_t s)
{
	return s == DPSCTP_CLIENT_PATH_ACTIVE		    ? SCTP_ACTIVE
	       : s == DPSCTP_CLIENT_PATH_POTENTIALLY_FAILED ? SCTP_PF
							    : SCTP_INACTIVE;
}

static void
opt_paddrinfo(const struct sock *sk, const struct dpsctp_paddrinfo *d, struct sctp_paddrinfo *p)
{
	memset(p, 0, sizeof(*p));
	struct sockaddr_storage ss;
	sock_addr_to(&d->addr, ntohs(((const struct sockaddr_in *)&sk->peer)->sin_port), sk->domain,
		     &ss);
	memcpy(&p->spinfo_address, &ss, sizeof(p->spinfo_address));
	p->spinfo_state = opt_path_state(d->state);
	p->spinfo_cwnd = d->cwnd;
	p->spinfo_srtt = d->srtt_us / 1000u;
	p->spinfo_rto = d->rto_us / 1000u;
	p->spinfo_mtu = d->mtu;
}

static int
opt_sctp_get(struct sock *sk, int name, void *val, socklen_t *len)
{
	int rc = 0;
	switch (name) {
	case SCTP_NODELAY: {
		/* What the association does (the daemon's default sends each message
		 * at once: 1), not merely what the program set. */
		struct dpsctp_assoc_value d;
		if ((rc = opt_assoc_get(sk, sk->assoc, DPSCTP_OPT_NODELAY, &d, sizeof(d))) != 0)
			return rc;
		return opt_put_int(val, len, d.value != 0);
	}
	case SCTP_INITMSG: {
		struct sctp_initmsg im = sk->initmsg;
		if (!sk->have_initmsg) {
			struct dpsctp_initmsg d;
			if ((rc = opt_read(0, DPSCTP_OPT_INITMSG, &d, sizeof(d))) != 0)
				return rc;
			im.sinit_num_ostreams = d.num_ostreams;
			im.sinit_max_instreams = d.max_instreams;
			im.sinit_max_attempts = d.max_attempts;
			im.sinit_max_init_timeo = (uint16_t)(d.max_init_timeo_us / 1000u);
		}
		return opt_put(val, len, &im, sizeof(im));
	}
	case SCTP_EVENTS: {
		struct sctp_event_subscribe s;
		uint8_t *b = (uint8_t *)&s;
		for (size_t i = 0; i < sizeof(s); i++)
			b[i] = (sk->events & SOCK_EV(SCTP_SN_TYPE_BASE + i)) != 0;
		/* Older programs pass a shorter struct: as much as fits (as Linux);
		 * none at all is refused. */
		if (val == NULL || len == NULL)
			return -EFAULT;
		if (*len == 0)
			return -EINVAL;
		size_t n = (size_t)*len < sizeof(s) ? (size_t)*len : sizeof(s);
		return opt_put(val, len, &s, n);
	}
	case SCTP_EVENT: {
		struct sctp_event e;
		if (val == NULL || len == NULL || *len < (socklen_t)sizeof(e))
			return -EINVAL;
		memcpy(&e, val, sizeof(e));
		if (e.se_type < SCTP_SN_TYPE_BASE || e.se_type > SCTP_SN_TYPE_MAX)
			return -EINVAL;
		e.se_on = (sk->events & SOCK_EV(e.se_type)) != 0;
		return opt_put(val, len, &e, sizeof(e));
	}
	case SCTP_DISABLE_FRAGMENTS:
		return opt_put_int(val, len, 0);
	case SCTP_RECVRCVINFO:
		return opt_put_int(val, len, sk->recvrcvinfo);
	case SCTP_RECVNXTINFO:
		return opt_put_int(val, len, sk->recvnxtinfo);
	case SCTP_DEFAULT_SNDINFO:
		return opt_put(val, len, &sk->dflt, sizeof(sk->dflt));
	case SCTP_STATUS: {
		uint64_t h = opt_target(sk, val, len != NULL ? *len : 0, &rc);
		if (rc != 0 || h == 0)
			return -EINVAL; /* Linux: no association to report */
		struct dpsctp_status d;
		if ((rc = opt_read(h, DPSCTP_OPT_STATUS, &d, sizeof(d))) != 0)
			return rc;
		sctp_assoc_t sid;
		memcpy(&sid, val, sizeof(sid));
		struct sctp_status s;
		memset(&s, 0, sizeof(s));
		s.sstat_assoc_id = sk->type == SOCK_STREAM ? sk->aid : sid;
		s.sstat_state = (int32_t)d.state + 1; /* Linux counts SCTP_EMPTY first */
		s.sstat_rwnd = d.rwnd;
		s.sstat_unackdata = (uint16_t)(d.unacked > 0xffff ? 0xffff : d.unacked);
		s.sstat_penddata = (uint16_t)(d.pending > 0xffff ? 0xffff : d.pending);
		s.sstat_instrms = d.instrms;
		s.sstat_outstrms = d.outstrms;
		s.sstat_fragmentation_point = d.fragmentation_point;
		opt_paddrinfo(sk, &d.primary, &s.sstat_primary);
		return opt_put(val, len, &s, sizeof(s));
	}
	case SCTP_RTOINFO: {
		struct dpsctp_rtoinfo d;
		uint64_t h = opt_target(sk, val, len != NULL ? *len : 0, &rc);
		if (rc != 0 || (rc = opt_assoc_get(sk, h, DPSCTP_OPT_RTOINFO, &d, sizeof(d))) != 0)
			return rc;
		/* Milliseconds, rounded up: a data-center profile's 500 us RTO.Min
		 * reads as 1, not as 0 (which a set takes as "keep"). */
		struct sctp_rtoinfo r = { .srto_initial = (d.initial_us + 999u) / 1000u,
					  .srto_max = (d.max_us + 999u) / 1000u,
					  .srto_min = (d.min_us + 999u) / 1000u };
		return opt_put(val, len, &r, sizeof(r));
	}
	case SCTP_ASSOCINFO: {
		struct dpsctp_associnfo d;
		uint64_t h = opt_target(sk, val, len != NULL ? *len : 0, &rc);
		if (rc != 0 ||
		    (rc = opt_assoc_get(sk, h, DPSCTP_OPT_ASSOCINFO, &d, sizeof(d))) != 0)
			return rc;
		struct sctp_assocparams a = { .sasoc_asocmaxrxt = d.max_retrans,
					      .sasoc_number_peer_destinations = d.peer_destinations,
					      .sasoc_peer_rwnd = d.peer_rwnd,
					      .sasoc_local_rwnd = d.local_rwnd,
					      .sasoc_cookie_life = d.cookie_life_ms };
		return opt_put(val, len, &a, sizeof(a));
	}
	case SCTP_MAXSEG:
	case SCTP_MAX_BURST: {
		struct dpsctp_assoc_value d;
		int opt = name == SCTP_MAXSEG ? DPSCTP_OPT_MAXSEG : DPSCTP_OPT_MAX_BURST;
		uint64_t h = len != NULL && *len >= (socklen_t)sizeof(struct sctp_assoc_value)
				     ? opt_target(sk, val, *len, &rc)
				     : sk->assoc;
		if (rc != 0 || (rc = opt_assoc_get(sk, h, opt, &d, sizeof(d))) != 0)
			return rc;
		if (len != NULL && *len == (socklen_t)sizeof(int))
			return opt_put_int(val, len, (int)d.value);
		struct sctp_assoc_value a = { .assoc_value = d.value };
		return opt_put(val, len, &a, sizeof(a));
	}
	case SCTP_DELAYED_SACK: {
		struct dpsctp_sack_info d;
		uint64_t h = opt_target(sk, val, len != NULL ? *len : 0, &rc);
		if (rc != 0 ||
		    (rc = opt_assoc_get(sk, h, DPSCTP_OPT_DELAYED_SACK, &d, sizeof(d))) != 0)
			return rc;
		struct sctp_sack_info s = { .sack_delay = d.delay_us / 1000u, .sack_freq = d.freq };
		return opt_put(val, len, &s, sizeof(s));
	}
	case SCTP_PEER_ADDR_PARAMS:
		return opt_paddrparams_get(sk, val, len);
	case SCTP_GET_PEER_ADDR_INFO: {
		struct sctp_paddrinfo p;
		if (val == NULL || len == NULL || *len < (socklen_t)sizeof(p))
			return -EINVAL;
		memcpy(&p, val, sizeof(p));
		struct dpsctp_paddrinfo d;
		memset(&d, 0, sizeof(d));
		uint16_t port;
		if (sock_addr_from((const struct sockaddr *)&p.spinfo_address,
				   sizeof(p.spinfo_address), &d.addr, &port) != 0)
			return -EINVAL;
		uint64_t h = opt_target(sk, val, *len, &rc);
		if (rc != 0 || h == 0)
			return -EINVAL;
		if ((rc = opt_daemon(h, false, DPSCTP_OPT_PEER_ADDR_INFO, &d, sizeof(d), &d)) != 0)
			return rc;
		sctp_assoc_t id = p.spinfo_assoc_id;
		opt_paddrinfo(sk, &d, &p);
		p.spinfo_assoc_id = id;
		return opt_put(val, len, &p, sizeof(p));
	}
	case SCTP_PRIMARY_ADDR: {
		struct sctp_prim p;
		if (val == NULL || len == NULL || *len < (socklen_t)sizeof(p))
			return -EINVAL;
		memcpy(&p, val, sizeof(p));
		uint64_t h = opt_target(sk, val, *len, &rc);
		if (rc != 0 || h == 0)
			return -EINVAL;
		struct dpsctp_primary_addr d;
		if ((rc = opt_read(h, DPSCTP_OPT_PRIMARY_ADDR, &d, sizeof(d))) != 0)
			return rc;
		struct sockaddr_storage ss;
		sock_addr_to(&d.addr, ntohs(((const struct sockaddr_in *)&sk->peer)->sin_port),
			     sk->domain, &ss);
		memcpy(&p.ssp_addr, &ss, sizeof(p.ssp_addr));
		return opt_put(val, len, &p, sizeof(p));
	}
	case SCTP_DEFAULT_PRINFO: {
		struct sctp_default_prinfo p;
		if (val == NULL || len == NULL || *len < (socklen_t)sizeof(p))
			return -EINVAL;
		memcpy(&p, val, sizeof(p));
		static const uint16_t linux_pr[] = { SCTP_PR_SCTP_NONE, SCTP_PR_SCTP_TTL,
						     SCTP_PR_SCTP_RTX, SCTP_PR_SCTP_PRIO };
		p.pr_policy = linux_pr[sk->dflt_pr_policy & 3u];
		p.pr_value = sk->dflt_pr_value;
		return opt_put(val, len, &p, sizeof(p));
	}
	case SCTP_CONTEXT: {
		struct sctp_assoc_value a;
		if (val == NULL || len == NULL || *len < (socklen_t)sizeof(a))
			return -EINVAL;
		memcpy(&a, val, sizeof(a));
		a.assoc_value = sk->dflt.snd_context;
		return opt_put(val, len, &a, sizeof(a));
	}
	case SCTP_GET_ASSOC_NUMBER: {
		uint32_t n = 0;
		if (sk->type != SOCK_SEQPACKET)
			return -EINVAL; /* Linux: a one-to-many socket's question */
		for (const struct sock_asc *a = sk->ascs; a != NULL; a = a->next)
			n++;
		return opt_put(val, len, &n, sizeof(n));
	}
	case SCTP_GET_ASSOC_ID_LIST: {
		if (sk->type != SOCK_SEQPACKET)
			return -EINVAL;
		if (val == NULL || len == NULL || *len < (socklen_t)sizeof(struct sctp_assoc_ids))
			return -EINVAL;
		uint32_t n = 0;
		for (const struct sock_asc *a = sk->ascs; a != NULL; a = a->next)
			n++;
		size_t need = sizeof(struct sctp_assoc_ids) + n * sizeof(sctp_assoc_t);
		if ((size_t)*len < need)
			return -EINVAL;
		struct sctp_assoc_ids *ids = val;
		ids->gaids_number_of_ids = n;
		n = 0;
		for (const struct sock_asc *a = sk->ascs; a != NULL; a = a->next)
			ids->gaids_assoc_id[n++] = a->id;
		*len = (socklen_t)need;
		return 0;
	}
	default:
		return sock_opt_stream_get(sk, name, val, len);
	}
}

int
sock_setopt(struct sock *sk, int level, int name, const void *val, socklen_t len)
{
	/* An AF_INET6 socket serves IPv4 peers too (v4-mapped), as Linux's does by
	 * default; IPV6_V6ONLY is kept and read back, and does not refuse them. */
	if (level == IPPROTO_IPV6 && name == IPV6_V6ONLY && sk->domain == AF_INET6) {
		int v, rc = opt_int(val, len, &v);
		if (rc == 0)
			sk->v6only = v != 0;
		return rc;
	}
	if (level == SOL_SOCKET)
		return opt_socket_set(sk, name, val, len);
	if (level == IPPROTO_SCTP)
		return opt_sctp_set(sk, name, val, len);
	return -ENOPROTOOPT;
}

int
sock_getopt(struct sock *sk, int level, int name, void *val, socklen_t *len)
{
	if (level == IPPROTO_IPV6 && name == IPV6_V6ONLY && sk->domain == AF_INET6)
		return opt_put_int(val, len, sk->v6only);
	if (level == SOL_SOCKET)
		return opt_socket_get(sk, name, val, len);
	if (level == IPPROTO_SCTP)
		return opt_sctp_get(sk, name, val, len);
	return -ENOPROTOOPT;
}

SOCK_EXPORT int
setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.setsockopt(fd, level, name, val, len);
	int rc = sock_check(sk);
	return (int)sock_leave(rc != 0 ? rc : sock_setopt(sk, level, name, val, len));
}

SOCK_EXPORT int
getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.getsockopt(fd, level, name, val, len);
	int rc = sock_check(sk);
	return (int)sock_leave(rc != 0 ? rc : sock_getopt(sk, level, name, val, len));
}
