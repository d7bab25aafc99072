/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdpsctp-sock's core: the attachment to dpsctpd, the pump thread that
 * hands completions and events to the sockets, the descriptor table, and
 * the readiness of each socket's descriptor (sock.h says how it works).
 */
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "dataplane/sidecar/sock/sock.h"

__thread int sock_inside;

struct sock_global sock_g = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cv = PTHREAD_COND_INITIALIZER,
	.kick = -1,
};

/* How long a sender whose send found the rings full waits before trying again
 * when no completion comes sooner (the barrier it posted normally wakes it). */
#define SOCK_RETRY_NS 1000000ull

/* At exit, how long associations closed by the program (or left open) have to
 * finish their shutdown before the library detaches (the daemon then aborts
 * what is left): DPSCTP_SOCK_LINGER_MS. */
#define SOCK_EXIT_LINGER_MS 5000

uint64_t
sock_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void
sock_kick(void)
{
	uint64_t one = 1;
	if (sock_g.kick >= 0)
		(void)!sock_real.write(sock_g.kick, &one, sizeof(one));
}

/* ---------------------------------------------------------------- sockets */

static size_t
sock_hash_of(uint64_t assoc)
{
	return (size_t)((assoc * 0x9e3779b97f4a7c15ull) >> 54) & (SOCK_HASH - 1);
}

void
sock_hash_add(struct sock *sk)
{
	size_t h = sock_hash_of(sk->assoc);
	sk->hnext = sock_g.hash[h];
	sock_g.hash[h] = sk;
}

void
sock_hash_del(struct sock *sk)
{
	if (sk->assoc == 0)
		return;
	for (struct sock **p = &sock_g.hash[sock_hash_of(sk->assoc)]; *p != NULL;
	     p = &(*p)->hnext) {
		if (*p == sk) {
			*p = sk->hnext;
			break;
		}
	}
	sk->hnext = NULL;
}

struct sock *
sock_by_assoc(uint64_t assoc)
{
	for (struct sock *sk = sock_g.hash[sock_hash_of(assoc)]; sk != NULL; sk = sk->hnext)
		if (sk->assoc == assoc)
			return sk;
	return NULL;
}

struct sock *
sock_new(int domain, int type)
{
	struct sock *sk = calloc(1, sizeof(*sk));
	if (sk == NULL)
		return NULL;
	sk->fd = -1;
	sk->inner = -1;
	sk->id = ++sock_g.next_id;
	sk->domain = domain;
	sk->type = type;
	sk->rcvtimeo_ms = -1;
	sk->sndtimeo_ms = -1;
	/* Linux's defaults for an SCTP socket (net.sctp.{r,w}mem's middle values). */
	sk->rcvbuf = 212992;
	sk->sndbuf = 212992;
	sk->nodelay = false;
	sk->local.ss_family = (sa_family_t)domain;
	sk->next = sock_g.all;
	sock_g.all = sk;
	return sk;
}

int
sock_open_fd(struct sock *sk, int flags)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return -errno;
	/* The program's end: the flags it asked for. Ours: never inherited. */
	int fl = sock_real.fcntl(sv[0], F_GETFL);
	if ((flags & SOCK_NONBLOCK) != 0)
		sock_real.fcntl(sv[0], F_SETFL, fl | O_NONBLOCK);
	if ((flags & SOCK_CLOEXEC) == 0)
		sock_real.fcntl(sv[0], F_SETFD, 0);
	sock_real.fcntl(sv[1], F_SETFL, sock_real.fcntl(sv[1], F_GETFL) | O_NONBLOCK);
	/* The smallest send buffer, so that filling it (not writable) takes a few
	 * kilobytes. */
	int small = 1;
	sock_real.setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
	sk->inner = sv[1];
	sock_bind_fd(sk, sv[0]);
	sk->fd = sv[0];
	return 0;
}

void
sock_bind_fd(struct sock *sk, int fd)
{
	if (fd >= sock_g.nfd) {
		int n = sock_g.nfd != 0 ? sock_g.nfd : 1024;
		while (n <= fd)
			n *= 2;
		struct sock **t = calloc((size_t)n, sizeof(*t));
		if (t == NULL)
			abort(); /* a few kilobytes more, once; nothing sensible to do without */
		if (sock_g.byfd != NULL)
			memcpy(t, sock_g.byfd, (size_t)sock_g.nfd * sizeof(*t));
		/* The table first, then its size: sock_maybe_ours() reads them the other
		 * way round, without the lock. The old table is never freed: a reader may
		 * still be looking at it. */
		__atomic_store_n(&sock_g.byfd, t, __ATOMIC_RELEASE);
		__atomic_store_n(&sock_g.nfd, n, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&sock_g.byfd[fd], sk, __ATOMIC_RELEASE);
	sk->refs++;
}

void
sock_unbind_fd(int fd)
{
	if (fd >= 0 && fd < sock_g.nfd && sock_g.byfd[fd] != NULL) {
		sock_g.byfd[fd]->refs--;
		__atomic_store_n(&sock_g.byfd[fd], NULL, __ATOMIC_RELEASE);
	}
}

struct sock *
sock_get(int fd)
{
	return fd >= 0 && fd < sock_g.nfd ? sock_g.byfd[fd] : NULL;
}

struct sock *
sock_enter(int fd)
{
	sock_real_init();
	if (!sock_maybe_ours(fd))
		return NULL;
	pthread_mutex_lock(&sock_g.lock);
	struct sock *sk = sock_get(fd);
	if (sk == NULL)
		pthread_mutex_unlock(&sock_g.lock);
	return sk;
}

ssize_t
sock_leave(ssize_t rc)
{
	pthread_mutex_unlock(&sock_g.lock);
	return rc < 0 ? sock_fail((int)rc) : rc;
}

bool
sock_maybe_ours(int fd)
{
	if (sock_inside || fd < 0)
		return false;
	int n = __atomic_load_n(&sock_g.nfd, __ATOMIC_ACQUIRE);
	struct sock **t = __atomic_load_n(&sock_g.byfd, __ATOMIC_ACQUIRE);
	return fd < n && t != NULL && __atomic_load_n(&t[fd], __ATOMIC_ACQUIRE) != NULL;
}

int
sock_check(struct sock *sk)
{
	if (!sk->orphan)
		return 0;
	static bool said;
	if (!said) {
		said = true;
		fprintf(stderr,
			"libdpsctp-sock: SCTP socket %d was made before fork() by process %d; a "
			"child cannot use it (ENOTSUP; docs/SOCKETS.md, \"fork and exec\")\n",
			sk->fd, (int)sock_g.pid);
	}
	return -ENOTSUP;
}

void
sock_drop_queue(struct sock *sk)
{
	for (struct sock_msg *m = sk->head, *n; m != NULL; m = n) {
		n = m->next;
		sock_asc_put(m->asc);
		free(m);
	}
	sk->head = sk->tail = NULL;
	if (sk->queued > (size_t)sk->rcvbuf && sock_g.over_rcvbuf > 0)
		sock_g.over_rcvbuf--;
	sk->queued = 0;
}

void
sock_free(struct sock *sk)
{
	sock_hash_del(sk);
	sock_drop_queue(sk);
	while (sk->ascs != NULL)
		sock_asc_forget(sk->ascs);
	if (sk->send_blocked)
		sock_g.n_blocked--;
	for (struct sock **p = &sock_g.all; *p != NULL; p = &(*p)->next) {
		if (*p == sk) {
			*p = sk->next;
			break;
		}
	}
	if (sk->inner >= 0)
		sock_real.close(sk->inner);
	free(sk);
}

bool
sock_nonblocking(const struct sock *sk)
{
	return sk->fd >= 0 && (sock_real.fcntl(sk->fd, F_GETFL) & O_NONBLOCK) != 0;
}

/* ---------------------------------------------------------------- readiness */

void
sock_block_send(struct sock *sk)
{
	/* A barrier says when what the socket sent so far has been served; without
	 * room to post one, the pump retries after SOCK_RETRY_NS. */
	if (!sk->barrier_out &&
	    dpsctp_client_barrier(sock_g.c, 0, SOCK_COOKIE_BARRIER | sk->id) == 0) {
		sk->barrier_out = true;
		sk->mark = sk->unserved;
	}
	if (!sk->send_blocked) {
		sk->send_blocked = true;
		if (sock_g.n_blocked++ == 0)
			sock_g.blocked_ns = sock_now_ns();
		sock_kick();
	}
	sock_ready(sk);
}

static void
sock_unblock_send(struct sock *sk)
{
	if (!sk->send_blocked)
		return;
	sk->send_blocked = false;
	sock_g.n_blocked--;
	sock_ready(sk);
}

static bool
sock_readable(const struct sock *sk)
{
	if (sk->type == SOCK_SEQPACKET)
		return sock_recv_ready(sk) || sk->err != 0;
	if (sk->state == SOCK_LISTENING)
		return sk->acc_head != NULL || sk->err != 0;
	return sock_recv_ready(sk) || sk->err != 0 || sk->eof_pending || sk->rd_shut;
}

/*
 * As Linux's one-to-one socket polls: a socket without an association is
 * not writable (fresh, or listening), nor is one whose connect is under
 * way; one whose connect failed is (Linux says POLLERR, which a descriptor
 * pair cannot: the program's wait must end, and SO_ERROR says why); one
 * whose association ended is.
 */
static bool
sock_writable(const struct sock *sk)
{
	if (sk->type == SOCK_SEQPACKET)
		return !sk->send_blocked;
	if (sk->state == SOCK_FRESH)
		return sk->err != 0;
	if (sk->state == SOCK_LISTENING || sk->state == SOCK_CONNECTING)
		return false;
	return !sk->send_blocked;
}

void
sock_ready(struct sock *sk)
{
	if (sk->fd < 0 || sk->inner < 0)
		return;
	char buf[256];
	if (sock_readable(sk)) {
		/* A byte per arrival (up to a few), so that edge-triggered epoll
		 * sees each one as Linux's socket would. */
		if (sk->tokens < SOCK_TOKENS_MAX &&
		    sock_real.send(sk->inner, "r", 1, MSG_DONTWAIT | MSG_NOSIGNAL) == 1)
			sk->tokens++;
	} else if (sk->tokens != 0) {
		while (sock_real.recv(sk->fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
			;
		sk->tokens = 0;
	}
	if (!sock_writable(sk) && !sk->filled) {
		memset(buf, 0, sizeof(buf));
		while (sock_real.send(sk->fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_NOSIGNAL) > 0)
			;
		sk->filled = true;
	} else if (sock_writable(sk) && sk->filled) {
		char big[4096];
		while (sock_real.recv(sk->inner, big, sizeof(big), MSG_DONTWAIT) > 0)
			;
		sk->filled = false;
	}
}

int
sock_wait(struct sock *sk, short events, int64_t timeout_ms)
{
	struct pollfd pf = { sk->fd, events, 0 };
	int fd = sk->fd;
	if (fd < 0)
		return -EBADF;
	pthread_mutex_unlock(&sock_g.lock);
	int rc, e;
	/* A handler's signal restarts the wait as signal(7) says Linux restarts
	 * the call: with SA_RESTART (sock_sig.c) and no timeout on the socket. */
	do {
		rc = poll(&pf, 1, timeout_ms < 0 ? -1 : (int)timeout_ms);
		e = errno;
	} while (rc < 0 && e == EINTR && timeout_ms < 0 && sock_sig_restarts());
	pthread_mutex_lock(&sock_g.lock);
	if (rc < 0)
		return e == EINTR ? -EINTR : -e;
	return rc == 0 ? -EAGAIN : 0;
}

void
sock_queue(struct sock *sk, struct sock_msg *m)
{
	m->next = NULL;
	if (sk->tail != NULL)
		sk->tail->next = m;
	else
		sk->head = m;
	sk->tail = m;
	bool was_over = sk->queued > (size_t)sk->rcvbuf;
	sk->queued += m->len;
	if (!was_over && sk->queued > (size_t)sk->rcvbuf)
		sock_g.over_rcvbuf++;
	sock_ready(sk);
}

void
sock_notify(struct sock *sk, struct sock_asc *a, const void *n, uint32_t len, uint16_t type)
{
	if (sk == NULL || (sk->events & SOCK_EV(type)) == 0)
		return;
	struct sock_msg *m = malloc(sizeof(*m) + len);
	if (m == NULL)
		return;
	memset(m, 0, sizeof(*m));
	m->len = len;
	m->flags = SOCK_MSG_EOR | SOCK_MSG_NOTIFICATION;
	m->asc = a;
	if (a != NULL)
		a->refs++;
	memcpy(m->data, n, len);
	sock_queue(sk, m);
}

/* ---------------------------------------------------------------- requests waited for */

struct sock_op *
sock_op_begin(void)
{
	for (unsigned i = 0; i < SOCK_OPS; i++) {
		struct sock_op *op = &sock_g.ops[i];
		if (op->used)
			continue;
		memset(op, 0, sizeof(*op));
		op->used = true;
		op->cookie =
			SOCK_COOKIE_OP | ((uint64_t)i << 32) | (++sock_g.next_seq & 0xffffffffu);
		return op;
	}
	return NULL;
}

int
sock_op_wait(struct sock_op *op)
{
	while (!op->done && !sock_g.gone)
		pthread_cond_wait(&sock_g.cv, &sock_g.lock);
	return op->done ? op->status : -ECONNRESET;
}

void
sock_op_end(struct sock_op *op)
{
	op->used = false;
}

/* ---------------------------------------------------------------- events to sockets */

void
sock_assoc_change(struct sock *sk, struct sock_asc *a, const struct dpsctp_client_event *ev,
		  uint16_t state, sctp_assoc_t id)
{
	/* COMM_LOST and CANT_START after the peer's ABORT carry its first error
	 * cause in sac_info, as Linux does: the daemon hands on the cause's code,
	 * not its body, so the cause is told with its 4-byte header alone. */
	uint8_t buf[sizeof(struct sctp_assoc_change) + 4];
	struct sctp_assoc_change ac;
	memset(&ac, 0, sizeof(ac));
	ac.sac_type = SCTP_ASSOC_CHANGE;
	ac.sac_length = sizeof(ac);
	bool cause = (state == SCTP_COMM_LOST || state == SCTP_CANT_STR_ASSOC) &&
		     ev->assoc_change.reason == DPSCTP_CLIENT_REASON_PEER_ABORT &&
		     ev->assoc_change.error != 0;
	ac.sac_state = state;
	/* Linux hands the ABORT's cause code on as it was on the wire (network order). */
	ac.sac_error = htons(ev->assoc_change.error);
	ac.sac_outbound_streams = ev->assoc_change.outbound_streams;
	ac.sac_inbound_streams = ev->assoc_change.inbound_streams;
	ac.sac_assoc_id = id;
	if (cause) {
		uint16_t tlv[2] = { htons(ev->assoc_change.error), htons(4) };
		ac.sac_length = sizeof(buf);
		memcpy(buf, &ac, sizeof(ac));
		memcpy(buf + sizeof(ac), tlv, sizeof(tlv));
		sock_notify(sk, a, buf, sizeof(buf), SCTP_ASSOC_CHANGE);
		return;
	}
	sock_notify(sk, a, &ac, sizeof(ac), SCTP_ASSOC_CHANGE);
}

/* Why a connect failed, or an association ended, as Linux's errno says it. */
int
sock_reason_errno(enum dpsctp_client_reason r)
{
	switch (r) {
	case DPSCTP_CLIENT_REASON_PEER_ABORT:
		return ECONNREFUSED;
	case DPSCTP_CLIENT_REASON_T1_INIT:
	case DPSCTP_CLIENT_REASON_T1_COOKIE:
	case DPSCTP_CLIENT_REASON_T2_SHUTDOWN:
	case DPSCTP_CLIENT_REASON_PATHS_FAILED:
		return ETIMEDOUT;
	case DPSCTP_CLIENT_REASON_NO_MEMORY:
		return ENOBUFS;
	default:
		return ECONNRESET;
	}
}

/* The association of sk has ended: readers see the end, a closed socket goes. */
static void
sock_ended(struct sock *sk, int err)
{
	sock_unblock_send(sk);
	sock_hash_del(sk);
	sk->assoc = 0;
	if (sk->state == SOCK_CLOSING && sk->fd < 0 && sk->refs == 0) {
		sock_free(sk);
		return;
	}
	if (sk->state == SOCK_CONNECTING) {
		sk->state = SOCK_FRESH; /* it never came up: connect again, if the program will */
	} else {
		sk->ended = true;
		/* The peer's graceful close is an end of file, as on Linux: every
		 * receive reads 0 and the descriptor polls IN|RDHUP (its inner end
		 * shut for writing); after our own close or a reset, ENOTCONN. */
		sk->eof_pending = err == 0 && !sk->wr_shut;
		if (sk->eof_pending && sk->inner >= 0)
			sock_real.shutdown(sk->inner, SHUT_WR);
	}
	sk->eof = true;
	if (err != 0 && sk->err == 0)
		sk->err = err;
	sock_ready(sk);
}

static struct sock *
sock_listener(uint16_t port)
{
	for (struct sock *sk = sock_g.all; sk != NULL; sk = sk->next) {
		if (sk->state != SOCK_LISTENING || sk->orphan)
			continue;
		uint16_t p = ntohs(((struct sockaddr_in *)&sk->local)->sin_port);
		if (p == port)
			return sk;
	}
	return NULL;
}

/* An association the daemon accepted on a port we listen on. */
static void
sock_accepted(const struct dpsctp_client_event *ev)
{
	const struct dpsctp_client_assoc_change *ac = &ev->assoc_change;
	struct sock *l = sock_listener(ac->port);
	struct sock *sk = NULL;
	/* A full backlog refuses the association, as Linux's one-to-one socket does
	 * (ABORT); so does a socket we cannot make. */
	if (l == NULL || l->n_acc >= l->backlog || (sk = sock_new(l->domain, l->type)) == NULL) {
		dpsctp_client_abort(sock_g.c, 0, ev->assoc, 0);
		return;
	}
	sk->state = SOCK_CONNECTED;
	sk->assoc = ev->assoc;
	sk->out_streams = ac->outbound_streams;
	sk->in_streams = ac->inbound_streams;
	sk->local = l->local;
	sock_addr_to(&ac->peer, ac->peer_port, l->domain, &sk->peer);
	/* What the listener set is what an accepted socket starts with (Linux
	 * copies the listening socket's options). */
	sk->rcvbuf = l->rcvbuf;
	sk->sndbuf = l->sndbuf;
	sk->events = l->events;
	sk->recvrcvinfo = l->recvrcvinfo;
	sk->recvnxtinfo = l->recvnxtinfo;
	sk->nodelay = l->nodelay;
	sk->dflt = l->dflt;
	sk->linger_on = l->linger_on;
	sk->linger_s = l->linger_s;
	memcpy(sk->pend, l->pend, sizeof(sk->pend));
	sk->aid = sock_new_aid();
	sock_hash_add(sk);
	sock_opt_apply(sk);
	sock_assoc_change(sk, NULL, ev, SCTP_COMM_UP, sk->aid);
	if (l->acc_tail != NULL)
		l->acc_tail->acc_next = sk;
	else
		l->acc_head = sk;
	l->acc_tail = sk;
	l->n_acc++;
	sock_ready(l);
}

static void
sock_completion(const struct dpsctp_client_event *ev)
{
	const struct dpsctp_client_completion *c = &ev->completion;
	if ((c->cookie & SOCK_COOKIE_OP) != 0) {
		struct sock_op *op = &sock_g.ops[(c->cookie >> 32) & 0xff];
		if ((c->cookie >> 32 & 0xff) >= SOCK_OPS || !op->used || op->cookie != c->cookie)
			return;
		op->status = c->status;
		op->assoc = ev->assoc;
		op->value = c->value;
		if (c->data != NULL) {
			op->len = c->len < sizeof(op->data) ? c->len : (uint32_t)sizeof(op->data);
			memcpy(op->data, c->data, op->len);
		}
		/* A connect's association is the socket's before its COMM_UP is read. */
		if (c->op == DPSCTP_CLIENT_OP_CONNECT && c->status == 0 && op->sk != NULL &&
		    ev->assoc != 0) {
			if (op->sk->type == SOCK_SEQPACKET) {
				op->asc = sock_asc_add(op->sk, ev->assoc);
				if (op->asc == NULL)
					dpsctp_client_abort(sock_g.c, 0, ev->assoc, 0);
			} else {
				op->sk->assoc = ev->assoc;
				op->sk->aid = sock_new_aid();
				sock_hash_add(op->sk);
			}
		}
		op->done = true;
		return;
	}
	if ((c->cookie & SOCK_COOKIE_BARRIER) == 0 && c->status == 0)
		return;
	struct sock *sk = sock_g.all;
	while (sk != NULL && sk->id != (uint32_t)c->cookie)
		sk = sk->next;
	if (sk == NULL)
		return;
	if ((c->cookie & SOCK_COOKIE_BARRIER) != 0) {
		/* Everything the socket sent before its barrier left the arena. */
		sk->unserved -= sk->mark;
		sk->mark = 0;
		sk->barrier_out = false;
		sock_unblock_send(sk);
		return;
	}
	/* A quiet send that failed: its socket hears it as SO_ERROR. */
	if (sk->err == 0)
		sk->err = -c->status;
	sock_ready(sk);
}

void
sock_recv_event(struct sock *sk, struct sock_asc *a, const struct dpsctp_client_event *ev)
{
	const struct dpsctp_client_recv *r = &ev->recv;
	if (sk == NULL || sk->rd_shut || sk->state == SOCK_CLOSING) {
		sock_g.dropped_recv++;
		return;
	}
	if ((r->flags & DPSCTP_CLIENT_ABORTED) != 0) {
		/* The sender gave up the message whose first parts came: it ends
		 * here (RFC 6458's partial delivery aborted). */
		sock_recv_aborted(sk, a, r);
		return;
	}
	struct sock_msg *m = malloc(sizeof(*m) + r->len);
	if (m == NULL) {
		sock_g.dropped_recv++;
		return;
	}
	memset(m, 0, sizeof(*m));
	m->len = r->len;
	m->ppid = r->ppid;
	m->sid = r->sid;
	m->ssn = r->ssn;
	m->mid = r->mid;
	m->asc = a;
	if (a != NULL)
		a->refs++;
	m->flags = (uint16_t)(((r->flags & DPSCTP_CLIENT_MORE) == 0 ? SOCK_MSG_EOR : 0) |
			      ((r->flags & DPSCTP_CLIENT_UNORDERED) != 0 ? SOCK_MSG_UNORDERED : 0));
	if (r->len != 0)
		memcpy(m->data, r->data, r->len);
	sock_queue(sk, m);
}

/*
 * The daemon went (it said so, or its socket closed): every association of
 * the process ended with it, each told as a COMM_LOST (to those who
 * subscribed) and ECONNRESET.
 */
static void
sock_daemon_gone(void)
{
	sock_g.gone = true;
	struct dpsctp_client_event lost;
	memset(&lost, 0, sizeof(lost));
	lost.kind = DPSCTP_CLIENT_COMM_LOST;
	for (struct sock *sk = sock_g.all, *n; sk != NULL; sk = n) {
		n = sk->next;
		if (sk->assoc != 0 || sk->state == SOCK_CONNECTING) {
			if (sk->assoc != 0)
				sock_assoc_change(sk, NULL, &lost, SCTP_COMM_LOST, sk->aid);
			sock_ended(sk, ECONNRESET);
		} else if (sk->type == SOCK_SEQPACKET) {
			while (sk->ascs != NULL) {
				sock_assoc_change(sk, sk->ascs, &lost, SCTP_COMM_LOST,
						  sk->ascs->id);
				sock_asc_forget(sk->ascs);
			}
			sk->err = ECONNRESET;
			sock_ready(sk);
		} else if (sk->state == SOCK_LISTENING) {
			sk->err = ECONNRESET;
			sock_ready(sk);
		}
	}
	pthread_cond_broadcast(&sock_g.cv);
}

/*
 * Notifications that say something about an association without changing
 * its state, on either style (id: its id as the program sees it).
 */
void
sock_other_event(struct sock *sk, struct sock_asc *a, const struct dpsctp_client_event *ev,
		 sctp_assoc_t id)
{
	switch (ev->kind) {
	case DPSCTP_CLIENT_SHUTDOWN_EVENT: {
		struct sctp_shutdown_event se = { .sse_type = SCTP_SHUTDOWN_EVENT,
						  .sse_length = sizeof(se),
						  .sse_assoc_id = id };
		sock_notify(sk, a, &se, sizeof(se), SCTP_SHUTDOWN_EVENT);
		if (a == NULL) {
			/* The peer sends nothing more (RFC 9260 §9.2): a receive with
			 * nothing queued reads 0 (Linux's CLOSING). */
			sk->eof = true;
			sk->eof_pending = true;
			sock_ready(sk);
		}
		return;
	}
	case DPSCTP_CLIENT_PEER_ADDR_CHANGE: {
		struct sctp_paddr_change pc;
		memset(&pc, 0, sizeof(pc));
		pc.spc_type = SCTP_PEER_ADDR_CHANGE;
		pc.spc_length = sizeof(pc);
		pc.spc_assoc_id = id;
		switch (ev->addr_change.state) {
		case DPSCTP_CLIENT_ADDR_AVAILABLE:
			pc.spc_state = SCTP_ADDR_AVAILABLE;
			break;
		case DPSCTP_CLIENT_ADDR_UNREACHABLE:
			pc.spc_state = SCTP_ADDR_UNREACHABLE;
			break;
		case DPSCTP_CLIENT_ADDR_POTENTIALLY_FAILED:
			pc.spc_state = SCTP_ADDR_POTENTIALLY_FAILED;
			break;
		case DPSCTP_CLIENT_ADDR_CONFIRMED:
			pc.spc_state = SCTP_ADDR_CONFIRMED;
			break;
		default:
			pc.spc_state = SCTP_ADDR_MADE_PRIM;
			break;
		}
		struct sockaddr_storage ss;
		sock_addr_to(&ev->addr_change.addr, 0, sk->domain, &ss);
		memcpy(&pc.spc_aaddr, &ss, sizeof(pc.spc_aaddr));
		sock_notify(sk, a, &pc, sizeof(pc), SCTP_PEER_ADDR_CHANGE);
		return;
	}
	case DPSCTP_CLIENT_SEND_FAILED: {
		struct sctp_send_failed_event sf;
		memset(&sf, 0, sizeof(sf));
		sf.ssf_type = SCTP_SEND_FAILED_EVENT;
		sf.ssf_length = sizeof(sf);
		sf.ssf_flags = ev->send_failed.sent ? SCTP_DATA_SENT : SCTP_DATA_UNSENT;
		sf.ssfe_info.snd_sid = ev->send_failed.sid;
		sf.ssfe_info.snd_ppid = ev->send_failed.ppid;
		sf.ssfe_info.snd_context = ev->send_failed.context;
		sf.ssfe_info.snd_assoc_id = id;
		sf.ssf_assoc_id = id;
		sock_notify(sk, a, &sf, sizeof(sf), SCTP_SEND_FAILED_EVENT);
		return;
	}
	case DPSCTP_CLIENT_STREAM_RESET: {
		/* RFC 6525's flags have RFC 6458's numbers in both APIs. */
		const struct dpsctp_client_stream_reset *r = &ev->stream_reset;
		uint8_t buf[sizeof(struct sctp_stream_reset_event) + 32 * sizeof(uint16_t)];
		struct sctp_stream_reset_event *e = (void *)buf;
		uint16_t n = r->n <= 32 ? r->n : 32;
		memset(buf, 0, sizeof(buf));
		e->strreset_type = SCTP_STREAM_RESET_EVENT;
		e->strreset_flags = (uint16_t)r->flags;
		e->strreset_length = (uint32_t)(sizeof(*e) + n * sizeof(uint16_t));
		e->strreset_assoc_id = id;
		if (n != 0 && r->streams != NULL)
			memcpy(buf + sizeof(*e), r->streams, n * sizeof(uint16_t));
		sock_notify(sk, a, buf, e->strreset_length, SCTP_STREAM_RESET_EVENT);
		return;
	}
	case DPSCTP_CLIENT_ASSOC_RESET: {
		struct sctp_assoc_reset_event e = {
			.assocreset_type = SCTP_ASSOC_RESET_EVENT,
			.assocreset_flags = (uint16_t)ev->assoc_reset.flags,
			.assocreset_length = sizeof(e),
			.assocreset_assoc_id = id,
			.assocreset_local_tsn = ev->assoc_reset.local_tsn,
			.assocreset_remote_tsn = ev->assoc_reset.remote_tsn,
		};
		sock_notify(sk, a, &e, sizeof(e), SCTP_ASSOC_RESET_EVENT);
		return;
	}
	case DPSCTP_CLIENT_STREAM_CHANGE: {
		if ((ev->stream_change.flags &
		     (DPSCTP_CLIENT_RESET_DENIED | DPSCTP_CLIENT_RESET_FAILED)) == 0) {
			uint16_t *out = a != NULL ? &a->out_streams : &sk->out_streams;
			uint16_t *in = a != NULL ? &a->in_streams : &sk->in_streams;
			*out = ev->stream_change.outbound_streams;
			*in = ev->stream_change.inbound_streams;
		}
		struct sctp_stream_change_event e = {
			.strchange_type = SCTP_STREAM_CHANGE_EVENT,
			.strchange_flags = (uint16_t)ev->stream_change.flags,
			.strchange_length = sizeof(e),
			.strchange_assoc_id = id,
			.strchange_instrms = ev->stream_change.inbound_streams,
			.strchange_outstrms = ev->stream_change.outbound_streams,
		};
		sock_notify(sk, a, &e, sizeof(e), SCTP_STREAM_CHANGE_EVENT);
		return;
	}
	default:
		return;
	}
}

static void
sock_event(const struct dpsctp_client_event *ev)
{
	if (ev->kind == DPSCTP_CLIENT_COMPLETION) {
		sock_completion(ev);
		return;
	}
	if (ev->kind == DPSCTP_CLIENT_DAEMON_STOPPING) {
		sock_daemon_gone();
		return;
	}
	if (sock_many_event(ev))
		return; /* a one-to-many socket's */
	struct sock *sk = sock_by_assoc(ev->assoc);
	switch (ev->kind) {
	case DPSCTP_CLIENT_RECV:
		sock_recv_event(sk, NULL, ev);
		return;
	case DPSCTP_CLIENT_COMM_UP:
		if (sk == NULL) {
			sock_accepted(ev);
			return;
		}
		sk->state = sk->state == SOCK_CONNECTING ? SOCK_CONNECTED : sk->state;
		sk->out_streams = ev->assoc_change.outbound_streams;
		sk->in_streams = ev->assoc_change.inbound_streams;
		sock_addr_to(&ev->assoc_change.peer, ev->assoc_change.peer_port, sk->domain,
			     &sk->peer);
		if (!sk->bound)
			((struct sockaddr_in *)&sk->local)->sin_port = htons(ev->assoc_change.port);
		sock_assoc_change(sk, NULL, ev, SCTP_COMM_UP, sk->aid);
		sock_ready(sk);
		return;
	case DPSCTP_CLIENT_RESTART:
		if (sk != NULL)
			sock_assoc_change(sk, NULL, ev, SCTP_RESTART, sk->aid);
		return;
	case DPSCTP_CLIENT_CANT_START:
	case DPSCTP_CLIENT_COMM_LOST:
		if (sk != NULL) {
			sock_assoc_change(sk, NULL, ev,
					  ev->kind == DPSCTP_CLIENT_CANT_START ? SCTP_CANT_STR_ASSOC
									       : SCTP_COMM_LOST,
					  sk->aid);
			/* Our own abort (SO_LINGER 0, close of a listener's queue) is no error;
			 * the peer's ABORT of a live association is a reset (of one
			 * that never came up, a refusal). */
			int e = ev->assoc_change.reason == DPSCTP_CLIENT_REASON_USER_ABORT ? 0
				: ev->kind == DPSCTP_CLIENT_COMM_LOST &&
						ev->assoc_change.reason ==
							DPSCTP_CLIENT_REASON_PEER_ABORT
					? ECONNRESET
					: sock_reason_errno(ev->assoc_change.reason);
			sock_ended(sk, e);
		}
		return;
	case DPSCTP_CLIENT_SHUTDOWN_COMPLETE:
		if (sk != NULL) {
			/* The daemon does not say when the peer's SHUTDOWN came: a close
			 * the program did not begin is told as SCTP_SHUTDOWN_EVENT just
			 * before its end, in the order Linux tells them. */
			if (!sk->wr_shut && !sk->eof) {
				struct dpsctp_client_event se = {
					.kind = DPSCTP_CLIENT_SHUTDOWN_EVENT, .assoc = ev->assoc
				};
				sock_other_event(sk, NULL, &se, sk->aid);
			}
			sock_assoc_change(sk, NULL, ev, SCTP_SHUTDOWN_COMP, sk->aid);
			sock_ended(sk, 0);
		}
		return;
	default:
		if (sk != NULL)
			sock_other_event(sk, NULL, ev, sk->aid);
		return;
	}
}

/* ---------------------------------------------------------------- the pump */

/*
 * Whether a socket's queue past its SO_RCVBUF holds the pump. One that is
 * in the middle of a message with no more of it queued does not: only more
 * events can let its reader go on (with I-DATA the rest of that message may
 * come behind other messages' parts), so the bound yields to it — up to
 * SOCK_STUCK_RCVBUFS times SO_RCVBUF, so that a peer that sends other
 * messages and never the rest of that one cannot grow the queue without
 * bound: past it the pump is held, the daemon's backlog fills, and the
 * daemon aborts the association (counted, backlog_aborts).
 */
#define SOCK_STUCK_RCVBUFS 4u

static bool
sock_pump_held(void)
{
	if (sock_g.over_rcvbuf == 0)
		return false;
	for (const struct sock *sk = sock_g.all; sk != NULL; sk = sk->next) {
		if (sk->queued <= (size_t)sk->rcvbuf)
			continue;
		bool stuck = sk->reading && !sock_recv_ready(sk);
		if (!stuck || sk->queued > SOCK_STUCK_RCVBUFS * (size_t)sk->rcvbuf)
			return true;
	}
	return false;
}

static void *
sock_pump(void *arg)
{
	(void)arg;
	sock_inside = 1;
	/* Signals are the program's threads' business. */
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	struct dpsctp_client_event ev[64];
	pthread_mutex_lock(&sock_g.lock);
	while (!sock_g.stop && !sock_g.gone) {
		/* A reader over SO_RCVBUF holds everything: the daemon keeps the rest
		 * (its backlog, then the association's window), nothing is dropped. */
		if (sock_pump_held()) {
			pthread_cond_wait(&sock_g.cv, &sock_g.lock);
			continue;
		}
		int timeout = sock_g.n_blocked != 0 ? 1 : -1;
		struct dpsctp_client *c = sock_g.c;
		pthread_mutex_unlock(&sock_g.lock);
		int w = dpsctp_client_wait(c, 0, timeout);
		pthread_mutex_lock(&sock_g.lock);
		if (sock_g.stop)
			break;
		int n = 0, got = 0;
		if (w >= 0) {
			while ((n = dpsctp_client_poll(c, 0, ev, 64)) > 0) {
				for (int i = 0; i < n; i++)
					sock_event(&ev[i]);
				got += n;
				if (n < 64 || sock_pump_held())
					break;
			}
		}
		if (w == -ECONNRESET || n == -ECONNRESET || n == -EPROTO) {
			sock_daemon_gone();
			break;
		}
		/* Senders that found no room try again once something was served, or
		 * after a millisecond. */
		if (sock_g.n_blocked != 0 &&
		    (got != 0 || sock_now_ns() - sock_g.blocked_ns >= SOCK_RETRY_NS)) {
			for (struct sock *sk = sock_g.all; sk != NULL; sk = sk->next)
				if (!sk->barrier_out)
					sock_unblock_send(sk);
			if (sock_g.n_blocked != 0)
				sock_g.blocked_ns = sock_now_ns();
		}
		if (got != 0)
			pthread_cond_broadcast(&sock_g.cv);
	}
	sock_g.pump_running = false;
	pthread_mutex_unlock(&sock_g.lock);
	return NULL;
}

/* ---------------------------------------------------------------- attach, fork, exit */

static const char *
sock_socket_path(void)
{
	const char *p = getenv("DPSCTP_SOCKET");
	if (p == NULL || *p == '\0')
		p = getenv("DPSCTPD_SOCKET");
	return p != NULL && *p != '\0' ? p : DPSCTP_CLIENT_DEFAULT_SOCKET;
}

int
sock_attach(void)
{
	if (sock_g.c != NULL && !sock_g.gone)
		return 0;
	if (sock_g.c != NULL) {
		/* The daemon went: its sockets stay failed; new ones attach again. */
		if (sock_g.pump_running) {
			sock_g.stop = true;
			sock_kick();
			pthread_cond_broadcast(&sock_g.cv); /* a pump held by a full queue */
			pthread_mutex_unlock(&sock_g.lock);
			pthread_join(sock_g.pump, NULL);
			pthread_mutex_lock(&sock_g.lock);
		}
		sock_inside++;
		dpsctp_client_detach(sock_g.c);
		sock_inside--;
		sock_g.c = NULL;
		sock_g.kick = -1;
	}
	int err = 0;
	char name[32];
	snprintf(name, sizeof(name), "sock:%d", (int)getpid());
	struct dpsctp_client_opts o = { .threads = 1, .name = name };
	const char *path = sock_socket_path();
	sock_inside++;
	struct dpsctp_client *c = dpsctp_client_attach(path, &o, &err);
	sock_inside--;
	if (c == NULL) {
		static bool said;
		if (!said) {
			said = true;
			fprintf(stderr,
				"libdpsctp-sock: cannot attach to dpsctpd at %s: %s; SCTP sockets "
				"fail (set DPSCTP_SOCKET to the daemon's socket; "
				"docs/SOCKETS.md)\n",
				path, strerror(-err));
		}
		return err;
	}
	sock_g.c = c;
	sock_g.kick = dpsctp_client_fd(c, 0);
	sock_g.gone = false;
	sock_g.stop = false;
	sock_g.pid = getpid();
	sock_g.pump_running = true;
	if (pthread_create(&sock_g.pump, NULL, sock_pump, NULL) != 0) {
		sock_g.pump_running = false;
		sock_inside++;
		dpsctp_client_detach(c);
		sock_inside--;
		sock_g.c = NULL;
		return -EAGAIN;
	}
	return 0;
}

void
sock_abort_if_unread(struct sock *sk)
{
	/* Data the program never read: Linux's close aborts (RFC 6458 §4.1.4
	 * leaves it to the stack), so the peer learns it was not taken.
	 * Notifications left unread do not count. */
	for (const struct sock_msg *m = sk->head; m != NULL; m = m->next) {
		if ((m->flags & SOCK_MSG_NOTIFICATION) == 0) {
			sk->linger_on = 1;
			sk->linger_s = 0;
			return;
		}
	}
}

void
sock_close_assoc(struct sock *sk)
{
	if (sk->assoc == 0 || sock_g.c == NULL || sock_g.gone)
		return;
	if (sk->linger_on && sk->linger_s == 0)
		dpsctp_client_abort(sock_g.c, 0, sk->assoc, 0);
	else
		dpsctp_client_shutdown(sock_g.c, 0, sk->assoc, 0);
	sk->wr_shut = true;
}

static void
sock_fork_prepare(void)
{
	pthread_mutex_lock(&sock_g.lock);
}

static void
sock_fork_parent(void)
{
	pthread_mutex_unlock(&sock_g.lock);
}

/*
 * The child has the parent's descriptors and mappings but not its pump, and
 * two processes cannot share one ring set: the sockets it inherited stay
 * the parent's (orphans here: ENOTSUP), its own attach when it makes one.
 */
static void
sock_fork_child(void)
{
	pthread_mutex_init(&sock_g.lock, NULL);
	pthread_cond_init(&sock_g.cv, NULL);
	for (struct sock *sk = sock_g.all; sk != NULL; sk = sk->next) {
		sk->orphan = true;
		sock_hash_del(sk);
		sk->assoc = 0;
		while (sk->ascs != NULL)
			sock_asc_forget(sk->ascs);
	}
	memset(sock_g.hash, 0, sizeof(sock_g.hash));
	memset(sock_g.ahash, 0, sizeof(sock_g.ahash));
	memset(sock_g.ops, 0, sizeof(sock_g.ops));
	if (sock_g.c != NULL) {
		sock_inside++;
		dpsctp_client_detach(sock_g.c); /* our copies of its descriptors and mappings */
		sock_inside--;
	}
	sock_g.c = NULL;
	sock_g.kick = -1;
	sock_g.pump_running = false;
	sock_g.gone = false;
	sock_g.n_blocked = 0;
	sock_g.over_rcvbuf = 0;
}

__attribute__((constructor)) static void
sock_init(void)
{
	sock_real_init();
	pthread_atfork(sock_fork_prepare, sock_fork_parent, sock_fork_child);
}

/*
 * At exit, as the kernel would: associations still open are shut down
 * gracefully, and those closing get time to finish, so that what the
 * program sent is delivered; then the library detaches.
 */
__attribute__((destructor)) static void
sock_fini(void)
{
	pthread_mutex_lock(&sock_g.lock);
	if (sock_g.c == NULL || sock_g.pid != getpid()) {
		pthread_mutex_unlock(&sock_g.lock);
		return;
	}
	for (struct sock *sk = sock_g.all; sk != NULL; sk = sk->next) {
		if (sk->orphan)
			continue;
		/* What nobody will read goes (an association with data unread is
		 * aborted, as close() does), and with it any hold on the pump. */
		sock_abort_if_unread(sk);
		sock_drop_queue(sk);
		if (!sk->wr_shut && sk->assoc != 0)
			sock_close_assoc(sk);
		if (!sk->orphan && sk->type == SOCK_SEQPACKET && sk->state != SOCK_CLOSING)
			sock_many_close(sk);
	}
	pthread_cond_broadcast(&sock_g.cv); /* the queues are gone: the pump goes on */
	const char *env = getenv("DPSCTP_SOCK_LINGER_MS");
	uint64_t linger_ms = env != NULL ? strtoull(env, NULL, 10) : SOCK_EXIT_LINGER_MS;
	uint64_t end = sock_now_ns() + linger_ms * 1000000ull;
	for (;;) {
		bool open = false;
		for (struct sock *sk = sock_g.all; sk != NULL; sk = sk->next)
			open |= !sk->orphan && (sk->assoc != 0 || sk->ascs != NULL);
		if (!open || sock_g.gone || !sock_g.pump_running || sock_now_ns() >= end)
			break;
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 10000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&sock_g.cv, &sock_g.lock, &ts);
	}
	if (sock_g.pump_running) {
		sock_g.stop = true;
		sock_kick();
		pthread_cond_broadcast(&sock_g.cv); /* a pump held by a full queue waits there */
		pthread_mutex_unlock(&sock_g.lock);
		pthread_join(sock_g.pump, NULL);
		pthread_mutex_lock(&sock_g.lock);
	}
	sock_inside++;
	dpsctp_client_detach(sock_g.c);
	sock_inside--;
	sock_g.c = NULL;
	pthread_mutex_unlock(&sock_g.lock);
}
