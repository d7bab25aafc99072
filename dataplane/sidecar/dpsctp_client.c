/* SPDX-License-Identifier: BSD-3-Clause */
/* libdpsctp-client: attaching to dpsctpd (dpsctp_client.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "dataplane/dpsctp_opt.h"
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
		       DPSCTP_CLIENT_QUIET == SC_SEND_QUIET &&
		       DPSCTP_CLIENT_DEFAULT_SNDINFO == SC_SEND_DEFAULT,
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

/* Every option travels whole in the slots the wire gives it (sc_proto.h). */
_Static_assert(DPSCTP_OPT_END - 1 <= SC_OPT_ID_MAX, "option ids");
_Static_assert(sizeof(struct dpsctp_status) <= SC_OPT_MAX_BYTES &&
		       sizeof(struct dpsctp_paddrinfo) <= SC_OPT_MAX_BYTES &&
		       sizeof(struct dpsctp_paddrparams) <= SC_OPT_MAX_BYTES &&
		       sizeof(struct dpsctp_default_sndinfo) <= SC_OPT_MAX_BYTES &&
		       sizeof(struct dpsctp_initmsg) <= SC_OPT_MAX_BYTES,
	       "options fit the wire");

/*
 * GETOPT answers handed out by one poll of a thread, copied out of the
 * completion ring (whose slots the daemon reuses once the poll releases
 * them) into the thread's own storage, aligned for the option's struct and
 * valid until its next poll. A poll that has used them all stops before the
 * next answer, which the next poll returns.
 */
#define CLIENT_ANSWERS_PER_POLL 4u

union client_answer {
	uint64_t align;
	uint8_t bytes[SC_OPT_MAX_BYTES];
};

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
	/* Per thread, a ring set per daemon worker (sc_region.h): a request
	 * goes to the set of the worker that owns its association. */
	struct sc_thread th[SC_MAX_THREADS][SC_MAX_WORKERS];
	/* Per thread: the worker its next connect goes to (round robin). */
	uint32_t next_worker[SC_MAX_THREADS];
	/* Per thread and worker: barrier completions seen (one barrier is a
	 * RELEASE in every set; it completes when the last set answers). */
	uint64_t barriers[SC_MAX_THREADS][SC_MAX_WORKERS];
	const uint8_t *zc_base; /* the daemon's packet buffers, read-only; NULL: one copy */
	uint64_t zc_bytes;
	uint16_t reset_sids[SC_MAX_THREADS][CLIENT_RESETS_PER_POLL][SC_RECONF_MAX_STREAMS];
	unsigned n_resets[SC_MAX_THREADS]; /* of reset_sids[t] handed out by this poll */
	union client_answer answers[SC_MAX_THREADS][CLIENT_ANSWERS_PER_POLL];
	unsigned n_answers[SC_MAX_THREADS]; /* of answers[t] handed out by this poll */
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
	/* A daemon that turns a user away as it accepts (its allow lists) has
	 * sent its refusal and closed, perhaps before our hello went (the send
	 * fails) or with it unread (Linux reports ECONNRESET once, ahead of
	 * what is queued): the refusal still waits to be read, and says why. */
	if (rc != 0 && rc != -EPIPE && rc != -ECONNRESET)
		return client_fail(c, err, rc);
	struct sc_welcome w;
	int wrc = sc_welcome_recv(c->sock, &w, c->fds, 2 + threads);
	if (wrc == -ECONNRESET)
		wrc = sc_welcome_recv(c->sock, &w, c->fds, 2 + threads);
	if (wrc != 0)
		return client_fail(c, err, rc != 0 ? rc : wrc);
	c->n_fds = w.status == 0 ? w.n_fds : 0;
	if (w.status != 0)
		return client_fail(c, err, w.status);
	unsigned want = 1 + threads + (w.zc_bytes != 0);
	if (w.n_fds != want || w.layout.n_threads != threads || w.layout.n_workers == 0 ||
	    w.layout.n_workers > SC_MAX_WORKERS ||
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
		for (unsigned k = 0; rc == 0 && k < c->layout.n_workers; k++)
			rc = sc_region_set(c->base, &c->layout, t, k, false, &c->th[t][k]);
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

/*
 * The worker whose ring set carries a request about assoc (sc_proto.h's
 * handle): a handle naming a worker the daemon does not have goes to
 * worker 0, which answers -ENOENT as for any handle it does not know.
 */
static unsigned
client_worker(const struct dpsctp_client *c, uint64_t assoc)
{
	uint32_t w = SC_HANDLE_WORKER(assoc);
	return w < c->layout.n_workers ? w : 0;
}

/* A request slot of thread t's set w to fill, or NULL (*rc: -EINVAL, -EAGAIN, -ECONNRESET). */
static struct sc_req *
client_req(struct dpsctp_client *c, unsigned t, unsigned w, int *rc)
{
	if (t >= c->layout.n_threads) {
		*rc = -EINVAL;
		return NULL;
	}
	if (__atomic_load_n(&c->gone, __ATOMIC_RELAXED)) {
		*rc = -ECONNRESET;
		return NULL;
	}
	int room = sc_ring_free(&c->th[t][w].req);
	if (room <= 0) {
		/* The daemon alone moves our request ring's tail: a bad one means it broke. */
		*rc = room < 0 ? -EPROTO : -EAGAIN;
		return NULL;
	}
	struct sc_req *r = sc_ring_reserve(&c->th[t][w].req, 0);
	memset(r, 0, sizeof(*r));
	*rc = 0;
	return r;
}

/* The daemon's lcores poll the request rings: no wake-up to send. */
static int
client_post(struct dpsctp_client *c, unsigned t, unsigned w)
{
	(void)sc_ring_commit(&c->th[t][w].req, 1);
	return 0;
}

/* LISTEN and UNLISTEN: a port, nothing else. */
static int
client_port_req(struct dpsctp_client *c, unsigned t, uint8_t op, uint16_t port, uint64_t cookie)
{
	int rc;
	if (port == 0)
		return -EINVAL;
	/* A port is the instance's, not a worker's: worker 0 serves it for all. */
	struct sc_req *r = client_req(c, t, 0, &rc);
	if (r == NULL)
		return rc;
	r->op = op;
	r->port = port;
	r->cookie = cookie;
	return client_post(c, t, 0);
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

/* CONNECT: the addresses in the arena, then the INITMSG when there is one. */
static int
client_connect(struct dpsctp_client *c, unsigned t, const struct sctp_addr *addrs, unsigned n,
	       uint16_t port, const struct dpsctp_initmsg *init, uint64_t cookie)
{
	int rc;
	if (addrs == NULL || n == 0 || n > SC_MAX_ADDRS || port == 0)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		if (addrs[i].family != 4 && addrs[i].family != 6)
			return -EINVAL;
	/* The workers take the thread's connects in turn: the one that gets it
	 * owns the association (its tag), and its handle says so. */
	unsigned w = t < c->layout.n_threads ? c->next_worker[t] % c->layout.n_workers : 0;
	struct sc_req *r = client_req(c, t, w, &rc);
	if (r == NULL)
		return rc;
	uint32_t init_len = init != NULL ? (uint32_t)sizeof(*init) : 0;
	uint32_t len = (uint32_t)(n * sizeof(struct sc_addr)) + init_len;
	uint64_t off;
	uint8_t *p = sc_arena_alloc(&c->th[t][w].tx, len, &off, &rc);
	if (p == NULL)
		return rc == -EPROTO ? -EPROTO : -EAGAIN;
	/* The addresses as the wire has them, the INITMSG (if any) right after. */
	for (unsigned i = 0; i < n; i++) {
		struct sc_addr a;
		memset(&a, 0, sizeof(a));
		a.family = addrs[i].family;
		memcpy(a.bytes, addrs[i].bytes, 16);
		memcpy(p + i * sizeof(a), &a, sizeof(a));
	}
	if (init != NULL)
		memcpy(p + n * sizeof(struct sc_addr), init, init_len);
	sc_arena_publish(&c->th[t][w].tx);
	r->op = SC_OP_CONNECT;
	r->port = port;
	r->off = off;
	r->len = len;
	r->value = init_len;
	r->cookie = cookie;
	c->next_worker[t] = (w + 1) % c->layout.n_workers;
	return client_post(c, t, w);
}

int
dpsctp_client_connect(struct dpsctp_client *c, unsigned t, const struct sctp_addr *addrs,
		      unsigned n, uint16_t port, uint64_t cookie)
{
	return client_connect(c, t, addrs, n, port, NULL, cookie);
}

int
dpsctp_client_connect_opts(struct dpsctp_client *c, unsigned t, const struct sctp_addr *addrs,
			   unsigned n, uint16_t port, const struct dpsctp_initmsg *init,
			   uint64_t cookie, char *err, size_t errlen)
{
	if (err != NULL && errlen != 0)
		err[0] = '\0';
	/* The daemon checks it again; the reason is said here, where it can be. */
	if (init != NULL) {
		int rc = dpsctp_opt_check(DPSCTP_OPT_INITMSG, init, sizeof(*init), err, errlen);
		if (rc != 0)
			return rc;
	}
	return client_connect(c, t, addrs, n, port, init, cookie);
}

int
dpsctp_client_send(struct dpsctp_client *c, unsigned t, const struct dpsctp_client_sndinfo *si,
		   const void *buf, uint32_t len, uint64_t cookie)
{
	int rc;
	if (si == NULL || buf == NULL || len == 0 ||
	    (si->flags & ~(DPSCTP_CLIENT_UNORDERED | DPSCTP_CLIENT_SACK_NOW | DPSCTP_CLIENT_QUIET |
			   DPSCTP_CLIENT_DEFAULT_SNDINFO)) != 0)
		return -EINVAL;
	bool dflt = (si->flags & DPSCTP_CLIENT_DEFAULT_SNDINFO) != 0;
	/* What dpsctp_send() would refuse, refused here, before the arena is spent on it. */
	if (!dflt && (si->pr_policy > DPSCTP_CLIENT_PR_PRIO ||
		      (si->pr_policy == DPSCTP_CLIENT_PR_TTL && si->pr_value == 0)))
		return -EINVAL;
	if (len > c->layout.arena_bytes)
		return -EMSGSIZE;
	unsigned w = client_worker(c, si->assoc);
	struct sc_req *r = client_req(c, t, w, &rc);
	if (r == NULL)
		return rc;
	uint64_t off;
	void *d = sc_arena_alloc(&c->th[t][w].tx, len, &off, &rc);
	if (d == NULL)
		return rc;
	memcpy(d, buf, len);
	sc_arena_publish(&c->th[t][w].tx);
	r->op = SC_OP_SEND;
	r->assoc = si->assoc;
	r->off = off;
	r->len = len;
	if (dflt) { /* the daemon takes the rest from the association */
		r->flags = (uint8_t)(si->flags &
				     (DPSCTP_CLIENT_QUIET | DPSCTP_CLIENT_DEFAULT_SNDINFO));
	} else {
		r->flags = (uint8_t)si->flags;
		r->sid = si->sid;
		r->ppid = si->ppid;
		r->pr_policy = si->pr_policy;
		r->pr_value = si->pr_policy != DPSCTP_CLIENT_PR_NONE ? si->pr_value : 0;
		r->context = si->context;
	}
	r->cookie = cookie;
	return client_post(c, t, w);
}

static int
client_assoc_op(struct dpsctp_client *c, unsigned t, uint8_t op, uint64_t assoc, uint64_t cookie)
{
	int rc;
	if (assoc == 0)
		return -EINVAL;
	unsigned w = client_worker(c, assoc);
	struct sc_req *r = client_req(c, t, w, &rc);
	if (r == NULL)
		return rc;
	r->op = op;
	r->assoc = assoc;
	r->cookie = cookie;
	return client_post(c, t, w);
}

/* The scheduler requests: an association, a stream and a value. */
static int
client_sched_req(struct dpsctp_client *c, unsigned t, uint8_t op, uint64_t assoc, uint16_t sid,
		 uint32_t value, uint64_t cookie)
{
	int rc;
	if (assoc == 0)
		return -EINVAL;
	unsigned w = client_worker(c, assoc);
	struct sc_req *r = client_req(c, t, w, &rc);
	if (r == NULL)
		return rc;
	r->op = op;
	r->assoc = assoc;
	r->sid = sid;
	r->value = value;
	r->cookie = cookie;
	return client_post(c, t, w);
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
	unsigned w = client_worker(c, assoc);
	struct sc_req *r = client_req(c, t, w, &rc);
	if (r == NULL)
		return rc;
	if (n != 0) {
		/* The list travels in the tx arena, as a message's bytes do. */
		uint64_t off;
		uint32_t len = (uint32_t)n * (uint32_t)sizeof(*sids);
		void *d = sc_arena_alloc(&c->th[t][w].tx, len, &off, &rc);
		if (d == NULL)
			return rc == -EPROTO ? -EPROTO : -EAGAIN;
		memcpy(d, sids, len);
		sc_arena_publish(&c->th[t][w].tx);
		r->off = off;
		r->len = len;
	}
	r->op = SC_OP_RESET_STREAMS;
	r->assoc = assoc;
	r->value = flags;
	r->cookie = cookie;
	return client_post(c, t, w);
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

/* SETOPT and GETOPT: an option and its struct's bytes (none: a bare question). */
static int
client_opt_req(struct dpsctp_client *c, unsigned t, uint8_t op, uint64_t assoc, int opt,
	       const void *val, uint32_t len, uint64_t cookie)
{
	int rc;
	/* assoc 0, the application's defaults: worker 0 keeps them for all. */
	unsigned w = client_worker(c, assoc);
	struct sc_req *r = client_req(c, t, w, &rc);
	if (r == NULL)
		return rc;
	if (len != 0) {
		uint64_t off;
		void *d = sc_arena_alloc(&c->th[t][w].tx, len, &off, &rc);
		if (d == NULL)
			return rc == -EPROTO ? -EPROTO : -EAGAIN;
		memcpy(d, val, len);
		sc_arena_publish(&c->th[t][w].tx);
		r->off = off;
		r->len = len;
	}
	r->op = op;
	r->assoc = assoc;
	r->value = (uint32_t)opt;
	r->cookie = cookie;
	return client_post(c, t, w);
}

/* An option's id as the wire carries it: one the options header knows. */
static bool
client_opt_known(int opt)
{
	return opt > 0 && opt < DPSCTP_OPT_END && dpsctp_opt_size((enum dpsctp_opt)opt) != 0;
}

int
dpsctp_client_setopt(struct dpsctp_client *c, unsigned t, uint64_t assoc, int opt, const void *val,
		     uint32_t len, uint64_t cookie, char *err, size_t errlen)
{
	if (err != NULL && errlen != 0)
		err[0] = '\0';
	if (t >= c->layout.n_threads)
		return -EINVAL;
	if (!client_opt_known(opt)) {
		if (err != NULL && errlen != 0)
			snprintf(err, errlen, "option %d: not an option", opt);
		return -ENOPROTOOPT;
	}
	/* What the daemon (dpsctp_opt_check() again, then the data plane) would refuse for
	 * the value alone is refused here, with the option, the field and the range. */
	int rc = dpsctp_opt_check((enum dpsctp_opt)opt, val, len, err, errlen);
	if (rc != 0)
		return rc;
	if (assoc == 0 && opt == DPSCTP_OPT_PRIMARY_ADDR) {
		/* A peer's address: an association's alone, there is no default for it. */
		if (err != NULL && errlen != 0)
			snprintf(err, errlen, "PRIMARY_ADDR: an association's, not a default");
		return -ENOPROTOOPT;
	}
	return client_opt_req(c, t, SC_OP_SETOPT, assoc, opt, val, len, cookie);
}

int
dpsctp_client_getopt(struct dpsctp_client *c, unsigned t, uint64_t assoc, int opt, const void *in,
		     uint32_t len, uint64_t cookie)
{
	if (t >= c->layout.n_threads)
		return -EINVAL;
	if (!client_opt_known(opt))
		return -ENOPROTOOPT;
	if (in == NULL ? len != 0 : len != dpsctp_opt_size((enum dpsctp_opt)opt))
		return -EINVAL;
	return client_opt_req(c, t, SC_OP_GETOPT, assoc, opt, in, len, cookie);
}

/*
 * A barrier is a RELEASE in every ring set of the thread (each worker
 * completes it in its own ring order), posted only when every set has
 * room; the poll hands out one completion, when the last set answered.
 */
int
dpsctp_client_barrier(struct dpsctp_client *c, unsigned t, uint64_t cookie)
{
	int rc;
	unsigned nw = c->layout.n_workers;
	for (unsigned w = 0; w < nw; w++)
		if (client_req(c, t, w, &rc) == NULL)
			return rc;
	for (unsigned w = 0; w < nw; w++) {
		struct sc_req *r = client_req(c, t, w, &rc);
		r->op = SC_OP_RELEASE;
		r->cookie = cookie;
		(void)client_post(c, t, w);
	}
	return 0;
}

/* Set w answered a barrier: whether it was the last set to (the barrier is complete). */
static bool
client_barrier_done(struct dpsctp_client *c, unsigned t, unsigned w)
{
	uint64_t mine = ++c->barriers[t][w];
	for (unsigned v = 0; v < c->layout.n_workers; v++)
		if (c->barriers[t][v] < mine)
			return false;
	return true;
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
	case SC_OP_SETOPT:
		return DPSCTP_CLIENT_OP_SETOPT;
	case SC_OP_GETOPT:
		return DPSCTP_CLIENT_OP_GETOPT;
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
client_event(struct dpsctp_client *c, unsigned ti, struct sc_thread *th, const struct sc_evt *e,
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
		ev->send_failed.context = e->mid; /* the wire's place for it (sc_proto.h) */
		return 0;
	case SC_EVT_STREAM_RESET:
		ev->stream_reset.flags = e->flags;
		ev->stream_reset.n = (uint16_t)(e->len / sizeof(uint16_t));
		if (e->len != 0) {
			/* The list travels in the rx arena (at most 32, checked). */
			const void *p = sc_arena_take(&th->rx, e->off, e->len, &rc);
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

/* Set (t, w)'s completions into ev from *n on, up to max. 0 or -EPROTO. */
static int
client_poll_cpl(struct dpsctp_client *c, unsigned t, unsigned w, struct dpsctp_client_event *ev,
		unsigned max, unsigned *n)
{
	struct sc_thread *th = &c->th[t][w];
	unsigned k = 0; /* completion slots read */
	int have = sc_ring_count(&th->cpl);
	if (have < 0)
		return -EPROTO;
	while (*n < max && (int)k < have) {
		const struct sc_cpl *p = sc_ring_peek(&th->cpl, k);
		/* An answer to a request nobody can make, or one longer than the ring holds. */
		int extra = sc_cpl_check(p);
		if (extra < 0 || (int)k + 1 + extra > have)
			return -EPROTO;
		if (extra != 0 && c->n_answers[t] == CLIENT_ANSWERS_PER_POLL)
			break; /* no room for its answer this time: the next poll's first */
		k += 1u + (unsigned)extra;
		/* A barrier's RELEASE in one set of several: only the last one completes it. */
		if (p->op == SC_OP_RELEASE && !client_barrier_done(c, t, w))
			continue;
		struct dpsctp_client_event *e = &ev[(*n)++];
		memset(e, 0, sizeof(*e));
		e->kind = DPSCTP_CLIENT_COMPLETION;
		e->assoc = p->assoc;
		e->completion.cookie = p->cookie;
		e->completion.status = p->status;
		e->completion.op = client_op(p->op);
		if (extra != 0) {
			/* A GETOPT's answer: the raw slots after it, copied out whole. */
			uint8_t *a = c->answers[t][c->n_answers[t]++].bytes;
			unsigned at0 = k - (unsigned)extra;
			for (int i = 0; i < extra; i++) {
				uint32_t at = (uint32_t)i * SC_SLOT_BYTES;
				uint32_t left = p->value - at;
				memcpy(a + at, sc_ring_peek(&th->cpl, at0 + (unsigned)i),
				       left < SC_SLOT_BYTES ? left : SC_SLOT_BYTES);
			}
			e->completion.data = a;
			e->completion.len = p->value;
		} else {
			e->completion.value = p->value;
		}
	}
	sc_ring_release(&th->cpl, k);
	return 0;
}

/* Set (t, w)'s events into ev from *n on, up to max. 0 or -EPROTO. */
static int
client_poll_evt(struct dpsctp_client *c, unsigned t, unsigned w, struct dpsctp_client_event *ev,
		unsigned max, unsigned *n)
{
	struct sc_thread *th = &c->th[t][w];
	int have = sc_ring_count(&th->evt);
	if (have < 0)
		return -EPROTO;
	unsigned k = 0;
	for (; *n < max && (int)k < have; (*n)++, k++) {
		const struct sc_evt *e = sc_ring_peek(&th->evt, k);
		if (sc_evt_check(e, c->layout.arena_bytes) != 0)
			return -EPROTO;
		if (e->type == SC_EVT_STREAM_RESET && e->len != 0 &&
		    c->n_resets[t] == CLIENT_RESETS_PER_POLL)
			break; /* no room for its list this time: the next poll's first */
		memset(&ev[*n], 0, sizeof(ev[*n]));
		ev[*n].kind = client_kind(e->type);
		ev[*n].assoc = e->assoc;
		if (client_event(c, t, th, e, &ev[*n]) != 0)
			return -EPROTO;
	}
	sc_ring_release(&th->evt, k);
	return 0;
}

/*
 * Every ring set of the thread, one per daemon worker: the completions of
 * all, then the events of all (an association's events come from one set,
 * in order; between associations of different workers there was never an
 * order). With N workers an empty poll reads 2 x N ring indices.
 */
int
dpsctp_client_poll(struct dpsctp_client *c, unsigned t, struct dpsctp_client_event *ev,
		   unsigned max)
{
	if (t >= c->layout.n_threads)
		return -EINVAL;
	unsigned nw = c->layout.n_workers, n = 0;
	/* What the last poll handed out is no longer the application's. */
	for (unsigned w = 0; w < nw; w++)
		sc_arena_release(&c->th[t][w].rx);
	c->n_answers[t] = 0;
	c->n_resets[t] = 0;
	for (unsigned w = 0; w < nw; w++)
		if (client_poll_cpl(c, t, w, ev, max, &n) != 0)
			return -EPROTO;
	for (unsigned w = 0; w < nw; w++)
		if (client_poll_evt(c, t, w, ev, max, &n) != 0)
			return -EPROTO;
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
	/* Every ring must be empty with its flag up before blocking, or a commit
	 * between the check and the poll would be missed. The workers share the
	 * thread's eventfd. */
	for (unsigned w = 0; w < c->layout.n_workers; w++) {
		struct sc_thread *th = &c->th[t][w];
		if (!sc_ring_prepare_sleep(&th->cpl) || !sc_ring_prepare_sleep(&th->evt))
			return 1;
	}
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
