/* SPDX-License-Identifier: BSD-3-Clause */
/* libdpsctp-client: attaching to dpsctpd (dpsctp_client.h). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "dataplane/sidecar/dpsctp_client.h"
#include "dataplane/sidecar/sc_proto.h"
#include "dataplane/sidecar/sc_region.h"

/* Events map onto the public kinds one to one, after COMPLETION. */
_Static_assert(DPSCTP_CLIENT_RECV == SC_EVT_RECV + 1, "event kinds");
_Static_assert(DPSCTP_CLIENT_DAEMON_STOPPING == SC_EVT_DAEMON_STOPPING + 1, "event kinds");
_Static_assert(DPSCTP_CLIENT_STREAM_CHANGE == SC_EVT_STREAM_CHANGE + 1, "event kinds");
/* Send flags go into the request as they are. */
_Static_assert(DPSCTP_CLIENT_UNORDERED == SC_SEND_UNORDERED &&
		       DPSCTP_CLIENT_SACK_NOW == SC_SEND_SACK_NOW &&
		       DPSCTP_CLIENT_QUIET == SC_SEND_QUIET,
	       "send flags");
/* PR-SCTP policies travel as the API numbers them. */
_Static_assert(DPSCTP_CLIENT_PR_NONE == SC_PR_NONE && DPSCTP_CLIENT_PR_TTL == SC_PR_TTL &&
		       DPSCTP_CLIENT_PR_RTX == SC_PR_RTX && DPSCTP_CLIENT_PR_PRIO == SC_PR_PRIO,
	       "PR-SCTP policies");
/* Schedulers, too. */
_Static_assert(DPSCTP_CLIENT_SCHED_RR == 0 && DPSCTP_CLIENT_SCHED_WFQ == SC_SCHED_MAX,
	       "schedulers");
/* And receive flags come out as they are (less SC_RECV_ZC, which stays in here). */
_Static_assert(DPSCTP_CLIENT_UNORDERED == SC_RECV_UNORDERED && DPSCTP_CLIENT_MORE == SC_RECV_MORE &&
		       DPSCTP_CLIENT_CONT == SC_RECV_CONT &&
		       DPSCTP_CLIENT_ABORTED == SC_RECV_ABORTED,
	       "receive flags");
/* Stream reconfiguration's flags travel as they are, both ways. */
_Static_assert(DPSCTP_CLIENT_RESET_INCOMING == SC_RESET_INCOMING &&
		       DPSCTP_CLIENT_RESET_OUTGOING == SC_RESET_OUTGOING &&
		       DPSCTP_CLIENT_RESET_INCOMING_SSN == SC_RESET_INCOMING_SSN &&
		       DPSCTP_CLIENT_RESET_OUTGOING_SSN == SC_RESET_OUTGOING_SSN &&
		       DPSCTP_CLIENT_RESET_DENIED == SC_RESET_DENIED &&
		       DPSCTP_CLIENT_RESET_FAILED == SC_RESET_FAILED,
	       "reset flags");

/*
 * STREAM_RESET lists handed out by one poll of a thread. Each is copied out
 * of the rx arena (whose allocations are byte-aligned, no place for a
 * uint16_t *) into the thread's own storage, valid until its next poll; a
 * poll that has used it all stops before the next STREAM_RESET, which the
 * next poll returns.
 */
#define CLIENT_RESETS_PER_POLL 4u

struct dpsctp_client {
	int sock;
	uint32_t id;
	uint64_t generation;
	struct sc_layout layout;
	void *base;
	int fds[2 + SC_MAX_THREADS]; /* memfd, the threads' eventfds, the packet-buffer memfd */
	unsigned n_fds;
	bool gone; /* any thread may set it: __atomic accesses */
	/* Per thread: empty polls since the last look at the control socket. */
	uint32_t empty_polls[SC_MAX_THREADS];
	struct sc_thread th[SC_MAX_THREADS];
	const uint8_t *zc_base; /* the daemon's packet buffers, read-only; NULL: one copy */
	uint64_t zc_bytes;
	uint16_t reset_sids[SC_MAX_THREADS][CLIENT_RESETS_PER_POLL][SC_RECONF_MAX_STREAMS];
	unsigned n_resets[SC_MAX_THREADS]; /* of reset_sids[t] handed out by this poll */
};

static struct dpsctp_client *
client_fail(struct dpsctp_client *c, int *err, int e)
{
	dpsctp_client_detach(c);
	if (err != NULL)
		*err = e;
	return NULL;
}

struct dpsctp_client *
dpsctp_client_attach(const char *socket_path, const struct dpsctp_client_opts *opts, int *err)
{
	const char *path = socket_path != NULL ? socket_path : DPSCTP_CLIENT_DEFAULT_SOCKET;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	unsigned threads = opts != NULL && opts->threads != 0 ? opts->threads : 1;
	if (strlen(path) >= sizeof(sa.sun_path) || threads > SC_MAX_THREADS ||
	    (opts != NULL && opts->name != NULL && strlen(opts->name) >= SC_NAME_LEN)) {
		if (err != NULL)
			*err = -EINVAL;
		return NULL;
	}
	strcpy(sa.sun_path, path);
	struct dpsctp_client *c = calloc(1, sizeof(*c));
	if (c == NULL)
		return client_fail(NULL, err, -ENOMEM);
	c->sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (c->sock < 0)
		return client_fail(c, err, -errno);
	if (connect(c->sock, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		return client_fail(c, err, -errno);
	struct sc_hello h;
	memset(&h, 0, sizeof(h));
	h.magic = SC_MAGIC;
	h.version = SC_VERSION;
	h.n_threads = threads;
	if (opts != NULL) {
		h.ring_slots = opts->ring_slots;
		h.arena_bytes = opts->arena_bytes;
		if (opts->zero_copy)
			h.flags |= SC_HELLO_ZERO_COPY;
		if (opts->name != NULL)
			strcpy(h.name, opts->name);
	}
	int rc = sc_hello_send(c->sock, &h);
	if (rc != 0)
		return client_fail(c, err, rc);
	struct sc_welcome w;
	rc = sc_welcome_recv(c->sock, &w, c->fds, 2 + threads);
	if (rc != 0)
		return client_fail(c, err, rc);
	c->n_fds = w.status == 0 ? w.n_fds : 0;
	if (w.status != 0)
		return client_fail(c, err, w.status);
	unsigned want = 1 + threads + (w.zc_bytes != 0);
	if (w.n_fds != want || w.layout.n_threads != threads ||
	    (w.zc_bytes != 0 && !(h.flags & SC_HELLO_ZERO_COPY)))
		return client_fail(c, err, -EPROTO);
	if (w.zc_bytes != 0) {
		/* Read-only: the packet buffers are the daemon's (and other applications'). */
		void *zc = mmap(NULL, w.zc_bytes, PROT_READ, MAP_SHARED, c->fds[1 + threads], 0);
		if (zc == MAP_FAILED)
			return client_fail(c, err, -errno);
		c->zc_base = zc;
		c->zc_bytes = w.zc_bytes;
	}
	c->id = w.app_id;
	c->generation = w.generation;
	c->layout = w.layout;
	rc = sc_region_map(c->fds[0], &c->layout, c->generation, &c->base);
	for (unsigned t = 0; rc == 0 && t < threads; t++)
		rc = sc_region_thread(c->base, &c->layout, t, false, &c->th[t]);
	if (rc != 0)
		return client_fail(c, err, rc);
	if (err != NULL)
		*err = 0;
	return c;
}

int
dpsctp_client_zero_copy(const struct dpsctp_client *c)
{
	return c->zc_base != NULL;
}

uint32_t
dpsctp_client_id(const struct dpsctp_client *c)
{
	return c->id;
}

int
dpsctp_client_fd(const struct dpsctp_client *c, unsigned t)
{
	return t < c->layout.n_threads ? c->fds[1 + t] : -EINVAL;
}

int
dpsctp_client_check(struct dpsctp_client *c)
{
	if (!__atomic_load_n(&c->gone, __ATOMIC_RELAXED)) {
		/* The daemon never writes after the welcome: readable means it hung up. */
		struct pollfd pf = { c->sock, POLLIN, 0 };
		/* > 0 only: -1 is a signal (EINTR), not the daemon leaving. */
		if (poll(&pf, 1, 0) > 0)
			__atomic_store_n(&c->gone, true, __ATOMIC_RELAXED);
	}
	return __atomic_load_n(&c->gone, __ATOMIC_RELAXED) ? -ECONNRESET : 0;
}

/* A request slot of thread t to fill, or NULL (*rc: -EINVAL, -EAGAIN, -ECONNRESET). */
static struct sc_req *
client_req(struct dpsctp_client *c, unsigned t, int *rc)
{
	if (t >= c->layout.n_threads) {
		*rc = -EINVAL;
		return NULL;
	}
	if (__atomic_load_n(&c->gone, __ATOMIC_RELAXED)) {
		*rc = -ECONNRESET;
		return NULL;
	}
	int room = sc_ring_free(&c->th[t].req);
	if (room <= 0) {
		/* The daemon alone moves our request ring's tail: a bad one means it broke. */
		*rc = room < 0 ? -EPROTO : -EAGAIN;
		return NULL;
	}
	struct sc_req *r = sc_ring_reserve(&c->th[t].req, 0);
	memset(r, 0, sizeof(*r));
	*rc = 0;
	return r;
}

/* The daemon's lcores poll the request rings: no wake-up to send. */
static int
client_post(struct dpsctp_client *c, unsigned t)
{
	(void)sc_ring_commit(&c->th[t].req, 1);
	return 0;
}

/* LISTEN and UNLISTEN: a port, nothing else. */
static int
client_port_req(struct dpsctp_client *c, unsigned t, uint8_t op, uint16_t port, uint64_t cookie)
{
	int rc;
	if (port == 0)
		return -EINVAL;
	struct sc_req *r = client_req(c, t, &rc);
	if (r == NULL)
		return rc;
	r->op = op;
	r->port = port;
	r->cookie = cookie;
	return client_post(c, t);
}

int
dpsctp_client_listen(struct dpsctp_client *c, unsigned t, uint16_t port, uint64_t cookie)
{
	return client_port_req(c, t, SC_OP_LISTEN, port, cookie);
}

int
dpsctp_client_unlisten(struct dpsctp_client *c, unsigned t, uint16_t port, uint64_t cookie)
{
	return client_port_req(c, t, SC_OP_UNLISTEN, port, cookie);
}

int
dpsctp_client_connect(struct dpsctp_client *c, unsigned t, const struct sctp_addr *addrs,
		      unsigned n, uint16_t port, uint64_t cookie)
{
	int rc;
	if (n == 0 || n > SC_MAX_ADDRS || port == 0)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		if (addrs[i].family != 4 && addrs[i].family != 6)
			return -EINVAL;
	struct sc_req *r = client_req(c, t, &rc);
	if (r == NULL)
		return rc;
	uint64_t off;
	struct sc_addr *a = sc_arena_alloc(&c->th[t].tx, (uint32_t)(n * sizeof(*a)), &off, &rc);
	if (a == NULL)
		return rc == -EPROTO ? -EPROTO : -EAGAIN;
	for (unsigned i = 0; i < n; i++) {
		memset(&a[i], 0, sizeof(a[i]));
		a[i].family = addrs[i].family;
		memcpy(a[i].bytes, addrs[i].bytes, 16);
	}
	sc_arena_publish(&c->th[t].tx);
	r->op = SC_OP_CONNECT;
	r->port = port;
	r->off = off;
	r->len = (uint32_t)(n * sizeof(*a));
	r->cookie = cookie;
	return client_post(c, t);
}

int
dpsctp_client_send(struct dpsctp_client *c, unsigned t, const struct dpsctp_client_sndinfo *si,
		   const void *buf, uint32_t len, uint64_t cookie)
{
	int rc;
	if (si == NULL || buf == NULL || len == 0 ||
	    (si->flags &
	     ~(DPSCTP_CLIENT_UNORDERED | DPSCTP_CLIENT_SACK_NOW | DPSCTP_CLIENT_QUIET)) != 0)
		return -EINVAL;
	/* What dpsctp_send() would refuse, refused here, before the arena is spent on it. */
	if (si->pr_policy > DPSCTP_CLIENT_PR_PRIO ||
	    (si->pr_policy == DPSCTP_CLIENT_PR_TTL && si->pr_value == 0))
		return -EINVAL;
	if (len > c->layout.arena_bytes)
		return -EMSGSIZE;
	struct sc_req *r = client_req(c, t, &rc);
	if (r == NULL)
		return rc;
	uint64_t off;
	void *d = sc_arena_alloc(&c->th[t].tx, len, &off, &rc);
	if (d == NULL)
		return rc;
	memcpy(d, buf, len);
	sc_arena_publish(&c->th[t].tx);
	r->op = SC_OP_SEND;
	r->flags = (uint8_t)si->flags;
	r->sid = si->sid;
	r->ppid = si->ppid;
	r->assoc = si->assoc;
	r->off = off;
	r->len = len;
	r->pr_policy = si->pr_policy;
	r->pr_value = si->pr_policy != DPSCTP_CLIENT_PR_NONE ? si->pr_value : 0;
	r->cookie = cookie;
	return client_post(c, t);
}

static int
client_assoc_op(struct dpsctp_client *c, unsigned t, uint8_t op, uint64_t assoc, uint64_t cookie)
{
	int rc;
	if (assoc == 0)
		return -EINVAL;
	struct sc_req *r = client_req(c, t, &rc);
	if (r == NULL)
		return rc;
	r->op = op;
	r->assoc = assoc;
	r->cookie = cookie;
	return client_post(c, t);
}

/* The scheduler requests: an association, a stream and a value. */
static int
client_sched_req(struct dpsctp_client *c, unsigned t, uint8_t op, uint64_t assoc, uint16_t sid,
		 uint32_t value, uint64_t cookie)
{
	int rc;
	if (assoc == 0)
		return -EINVAL;
	struct sc_req *r = client_req(c, t, &rc);
	if (r == NULL)
		return rc;
	r->op = op;
	r->assoc = assoc;
	r->sid = sid;
	r->value = value;
	r->cookie = cookie;
	return client_post(c, t);
}

int
dpsctp_client_set_sched(struct dpsctp_client *c, unsigned t, uint64_t assoc, unsigned sched,
			uint64_t cookie)
{
	/* What dpsctp_set_sched() would refuse, refused before the ring is spent on it. */
	if (sched > DPSCTP_CLIENT_SCHED_WFQ)
		return -EINVAL;
	return client_sched_req(c, t, SC_OP_SET_SCHED, assoc, 0, sched, cookie);
}

int
dpsctp_client_get_sched(struct dpsctp_client *c, unsigned t, uint64_t assoc, uint64_t cookie)
{
	return client_sched_req(c, t, SC_OP_GET_SCHED, assoc, 0, 0, cookie);
}

int
dpsctp_client_set_stream_param(struct dpsctp_client *c, unsigned t, uint64_t assoc, uint16_t sid,
			       uint16_t value, uint64_t cookie)
{
	return client_sched_req(c, t, SC_OP_SET_STREAM_PARAM, assoc, sid, value, cookie);
}

int
dpsctp_client_get_stream_param(struct dpsctp_client *c, unsigned t, uint64_t assoc, uint16_t sid,
			       uint64_t cookie)
{
	return client_sched_req(c, t, SC_OP_GET_STREAM_PARAM, assoc, sid, 0, cookie);
}

int
dpsctp_client_reset_streams(struct dpsctp_client *c, unsigned t, uint64_t assoc, unsigned flags,
			    const uint16_t *sids, uint16_t n, uint64_t cookie)
{
	int rc;
	/* What dpsctp_reset_streams() would refuse, refused before the ring is spent on it. */
	if (assoc == 0 ||
	    (flags & (DPSCTP_CLIENT_RESET_INCOMING | DPSCTP_CLIENT_RESET_OUTGOING)) == 0 ||
	    (flags & ~(DPSCTP_CLIENT_RESET_INCOMING | DPSCTP_CLIENT_RESET_OUTGOING)) != 0 ||
	    n > SC_RECONF_MAX_STREAMS || (n != 0 && sids == NULL))
		return -EINVAL;
	struct sc_req *r = client_req(c, t, &rc);
	if (r == NULL)
		return rc;
	if (n != 0) {
		/* The list travels in the tx arena, as a message's bytes do. */
		uint64_t off;
		uint32_t len = (uint32_t)n * (uint32_t)sizeof(*sids);
		void *d = sc_arena_alloc(&c->th[t].tx, len, &off, &rc);
		if (d == NULL)
			return rc == -EPROTO ? -EPROTO : -EAGAIN;
		memcpy(d, sids, len);
		sc_arena_publish(&c->th[t].tx);
		r->off = off;
		r->len = len;
	}
	r->op = SC_OP_RESET_STREAMS;
	r->assoc = assoc;
	r->value = flags;
	r->cookie = cookie;
	return client_post(c, t);
}

int
dpsctp_client_add_streams(struct dpsctp_client *c, unsigned t, uint64_t assoc, uint16_t out,
			  uint16_t in, uint64_t cookie)
{
	if (out == 0 && in == 0)
		return -EINVAL;
	/* Both counts in the one value: outbound in the low 16 bits. */
	return client_sched_req(c, t, SC_OP_ADD_STREAMS, assoc, 0,
				(uint32_t)out | (uint32_t)in << 16, cookie);
}

int
dpsctp_client_reset_assoc(struct dpsctp_client *c, unsigned t, uint64_t assoc, uint64_t cookie)
{
	return client_assoc_op(c, t, SC_OP_RESET_ASSOC, assoc, cookie);
}

int
dpsctp_client_barrier(struct dpsctp_client *c, unsigned t, uint64_t cookie)
{
	int rc;
	struct sc_req *r = client_req(c, t, &rc);
	if (r == NULL)
		return rc;
	r->op = SC_OP_RELEASE;
	r->cookie = cookie;
	return client_post(c, t);
}

int
dpsctp_client_shutdown(struct dpsctp_client *c, unsigned t, uint64_t assoc, uint64_t cookie)
{
	return client_assoc_op(c, t, SC_OP_SHUTDOWN, assoc, cookie);
}

int
dpsctp_client_abort(struct dpsctp_client *c, unsigned t, uint64_t assoc, uint64_t cookie)
{
	return client_assoc_op(c, t, SC_OP_ABORT, assoc, cookie);
}

/* The wire's codes (sc_proto.h) to the API's: the two may differ. */
static enum dpsctp_client_op
client_op(uint8_t op)
{
	switch (op) {
	case SC_OP_LISTEN:
		return DPSCTP_CLIENT_OP_LISTEN;
	case SC_OP_CONNECT:
		return DPSCTP_CLIENT_OP_CONNECT;
	case SC_OP_SEND:
		return DPSCTP_CLIENT_OP_SEND;
	case SC_OP_SHUTDOWN:
		return DPSCTP_CLIENT_OP_SHUTDOWN;
	case SC_OP_ABORT:
		return DPSCTP_CLIENT_OP_ABORT;
	case SC_OP_RELEASE:
		return DPSCTP_CLIENT_OP_BARRIER;
	case SC_OP_UNLISTEN:
		return DPSCTP_CLIENT_OP_UNLISTEN;
	case SC_OP_SET_SCHED:
		return DPSCTP_CLIENT_OP_SET_SCHED;
	case SC_OP_GET_SCHED:
		return DPSCTP_CLIENT_OP_GET_SCHED;
	case SC_OP_SET_STREAM_PARAM:
		return DPSCTP_CLIENT_OP_SET_STREAM_PARAM;
	case SC_OP_GET_STREAM_PARAM:
		return DPSCTP_CLIENT_OP_GET_STREAM_PARAM;
	case SC_OP_RESET_STREAMS:
		return DPSCTP_CLIENT_OP_RESET_STREAMS;
	case SC_OP_ADD_STREAMS:
		return DPSCTP_CLIENT_OP_ADD_STREAMS;
	case SC_OP_RESET_ASSOC:
		return DPSCTP_CLIENT_OP_RESET_ASSOC;
	default:
		return (enum dpsctp_client_op)0; /* not a request: the caller says -EPROTO */
	}
}

/* sc_evt_check() has accepted the type. */
static enum dpsctp_client_kind
client_kind(uint8_t type)
{
	switch (type) {
	case SC_EVT_RECV:
		return DPSCTP_CLIENT_RECV;
	case SC_EVT_COMM_UP:
		return DPSCTP_CLIENT_COMM_UP;
	case SC_EVT_COMM_LOST:
		return DPSCTP_CLIENT_COMM_LOST;
	case SC_EVT_SHUTDOWN_COMPLETE:
		return DPSCTP_CLIENT_SHUTDOWN_COMPLETE;
	case SC_EVT_CANT_START:
		return DPSCTP_CLIENT_CANT_START;
	case SC_EVT_RESTART:
		return DPSCTP_CLIENT_RESTART;
	case SC_EVT_PEER_ADDR_CHANGE:
		return DPSCTP_CLIENT_PEER_ADDR_CHANGE;
	case SC_EVT_SEND_FAILED:
		return DPSCTP_CLIENT_SEND_FAILED;
	case SC_EVT_SHUTDOWN_EVENT:
		return DPSCTP_CLIENT_SHUTDOWN_EVENT;
	case SC_EVT_STREAM_RESET:
		return DPSCTP_CLIENT_STREAM_RESET;
	case SC_EVT_ASSOC_RESET:
		return DPSCTP_CLIENT_ASSOC_RESET;
	case SC_EVT_STREAM_CHANGE:
		return DPSCTP_CLIENT_STREAM_CHANGE;
	default:
		return DPSCTP_CLIENT_DAEMON_STOPPING;
	}
}

static struct sctp_addr
client_addr(const struct sc_addr *a)
{
	struct sctp_addr out;

	memset(&out, 0, sizeof(out));
	if (a->family != 0) {
		out.family = a->family;
		memcpy(out.bytes, a->bytes, sizeof(out.bytes));
	}
	return out;
}

/* One event's own fields from its slot (and the rx arena): 0 or -EPROTO. */
static int
client_event(struct dpsctp_client *c, struct sc_thread *th, const struct sc_evt *e,
	     struct dpsctp_client_event *ev)
{
	int rc;

	switch (e->type) {
	case SC_EVT_RECV:
		ev->recv.len = e->len;
		ev->recv.ppid = e->ppid;
		ev->recv.sid = e->sid;
		ev->recv.ssn = e->ssn;
		ev->recv.mid = e->mid;
		ev->recv.flags = (uint8_t)(e->flags & ~SC_RECV_ZC);
		if (e->flags & SC_RECV_ABORTED)
			return 0; /* no bytes (sc_evt_check()): data stays NULL */
		if (e->flags & SC_RECV_ZC) {
			/* By reference: the record says where in the packet buffers. */
			const struct sc_zc_ref *z = sc_arena_take(&th->rx, e->off, e->len, &rc);
			if (z == NULL || c->zc_base == NULL || z->len == 0 ||
			    z->off > c->zc_bytes || z->len > c->zc_bytes - z->off)
				return -EPROTO;
			ev->recv.data = c->zc_base + z->off;
			ev->recv.len = z->len;
		} else {
			ev->recv.data = sc_arena_take(&th->rx, e->off, e->len, &rc);
			if (ev->recv.data == NULL)
				return -EPROTO;
		}
		return 0;
	case SC_EVT_COMM_UP:
	case SC_EVT_RESTART:
	case SC_EVT_COMM_LOST:
	case SC_EVT_SHUTDOWN_COMPLETE:
	case SC_EVT_CANT_START:
		/* Who the association is with (the family checked: 0, 4 or 6). */
		ev->assoc_change.peer = client_addr(&e->peer);
		ev->assoc_change.port = e->port;
		ev->assoc_change.peer_port = e->peer_port;
		if (e->type == SC_EVT_COMM_UP || e->type == SC_EVT_RESTART) {
			/* The wire keeps the stream counts in sid (out) and ssn (in). */
			ev->assoc_change.outbound_streams = e->sid;
			ev->assoc_change.inbound_streams = e->ssn;
			ev->assoc_change.extensions = e->extensions;
		}
		ev->assoc_change.error = e->error;
		ev->assoc_change.reason = (enum dpsctp_client_reason)e->reason;
		return 0;
	case SC_EVT_PEER_ADDR_CHANGE: {
		/* The address travels in the rx arena like a message's bytes. */
		const struct sc_addr *a = sc_arena_take(&th->rx, e->off, e->len, &rc);
		if (a == NULL || (a->family != 4 && a->family != 6))
			return -EPROTO;
		ev->addr_change.addr = client_addr(a);
		ev->addr_change.state = (enum dpsctp_client_addr_state)e->addr_state;
		return 0;
	}
	case SC_EVT_SEND_FAILED:
		ev->send_failed.len = e->len;
		ev->send_failed.ppid = e->ppid;
		ev->send_failed.sid = e->sid;
		ev->send_failed.sent = (e->flags & SC_FAILED_SENT) != 0;
		ev->send_failed.pr_policy = e->pr_policy;
		return 0;
	case SC_EVT_STREAM_RESET:
		ev->stream_reset.flags = e->flags;
		ev->stream_reset.n = (uint16_t)(e->len / sizeof(uint16_t));
		if (e->len != 0) {
			/* The list travels in the rx arena (at most 32, checked). */
			const void *p = sc_arena_take(&th->rx, e->off, e->len, &rc);
			unsigned ti = (unsigned)(th - c->th);
			if (p == NULL)
				return -EPROTO;
			uint16_t *sids = c->reset_sids[ti][c->n_resets[ti]++];
			memcpy(sids, p, e->len);
			ev->stream_reset.streams = sids;
		}
		return 0;
	case SC_EVT_ASSOC_RESET:
		ev->assoc_reset.flags = e->flags;
		ev->assoc_reset.local_tsn = e->ppid;
		ev->assoc_reset.remote_tsn = e->mid;
		return 0;
	case SC_EVT_STREAM_CHANGE:
		ev->stream_change.flags = e->flags;
		ev->stream_change.outbound_streams = e->sid;
		ev->stream_change.inbound_streams = e->ssn;
		return 0;
	default:
		return 0; /* SHUTDOWN_EVENT, DAEMON_STOPPING: the kind says it all */
	}
}

int
dpsctp_client_poll(struct dpsctp_client *c, unsigned t, struct dpsctp_client_event *ev,
		   unsigned max)
{
	if (t >= c->layout.n_threads)
		return -EINVAL;
	struct sc_thread *th = &c->th[t];
	/* What the last poll handed out is no longer the application's. */
	sc_arena_release(&th->rx);
	unsigned n = 0;
	int have = sc_ring_count(&th->cpl);
	if (have < 0)
		return -EPROTO;
	for (; n < max && (int)n < have; n++) {
		const struct sc_cpl *p = sc_ring_peek(&th->cpl, n);
		memset(&ev[n], 0, sizeof(ev[n]));
		ev[n].kind = DPSCTP_CLIENT_COMPLETION;
		ev[n].assoc = p->assoc;
		ev[n].completion.cookie = p->cookie;
		ev[n].completion.status = p->status;
		ev[n].completion.op = client_op(p->op);
		ev[n].completion.value = p->value;
		if (ev[n].completion.op == 0)
			return -EPROTO; /* an answer to a request nobody can make */
	}
	sc_ring_release(&th->cpl, n);
	have = sc_ring_count(&th->evt);
	if (have < 0)
		return -EPROTO;
	unsigned k = 0;
	c->n_resets[t] = 0;
	for (; n < max && (int)k < have; n++, k++) {
		const struct sc_evt *e = sc_ring_peek(&th->evt, k);
		if (sc_evt_check(e, c->layout.arena_bytes) != 0)
			return -EPROTO;
		if (e->type == SC_EVT_STREAM_RESET && e->len != 0 &&
		    c->n_resets[t] == CLIENT_RESETS_PER_POLL)
			break; /* no room for its list this time: the next poll's first */
		memset(&ev[n], 0, sizeof(ev[n]));
		ev[n].kind = client_kind(e->type);
		ev[n].assoc = e->assoc;
		if (client_event(c, th, e, &ev[n]) != 0)
			return -EPROTO;
	}
	sc_ring_release(&th->evt, k);
	/* A busy-polling thread must not pay a system call per empty poll: the
	 * control socket (the daemon's departure) is looked at every 1,024th. */
	if (n != 0)
		c->empty_polls[t] = 0;
	else if ((++c->empty_polls[t] & 1023u) == 0 && dpsctp_client_check(c) != 0)
		return -ECONNRESET;
	return (int)n;
}

int
dpsctp_client_wait(struct dpsctp_client *c, unsigned t, int timeout_ms)
{
	if (t >= c->layout.n_threads)
		return -EINVAL;
	struct sc_thread *th = &c->th[t];
	/* Both rings must be empty with their flags up before blocking, or a
	 * commit between the check and the poll would be missed. */
	bool sleep_cpl = sc_ring_prepare_sleep(&th->cpl);
	bool sleep_evt = sleep_cpl && sc_ring_prepare_sleep(&th->evt);
	if (!sleep_cpl || !sleep_evt)
		return 1;
	struct pollfd pf[2] = { { c->fds[1 + t], POLLIN, 0 }, { c->sock, POLLIN, 0 } };
	int rc = poll(pf, 2, timeout_ms);
	if (rc < 0)
		return errno == EINTR ? 0 : -errno;
	if (pf[1].revents != 0) {
		__atomic_store_n(&c->gone, true, __ATOMIC_RELAXED);
		return -ECONNRESET;
	}
	if (pf[0].revents & POLLIN) {
		uint64_t v;
		(void)read(c->fds[1 + t], &v, sizeof(v));
		return 1;
	}
	return 0;
}

void
dpsctp_client_detach(struct dpsctp_client *c)
{
	if (c == NULL)
		return;
	if (c->base != NULL)
		munmap(c->base, c->layout.region_bytes);
	if (c->zc_base != NULL)
		munmap((void *)(uintptr_t)c->zc_base, c->zc_bytes);
	for (unsigned i = 0; i < c->n_fds; i++)
		close(c->fds[i]);
	if (c->sock >= 0)
		close(c->sock);
	free(c);
}
