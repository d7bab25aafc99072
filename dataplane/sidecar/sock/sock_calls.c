/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdpsctp-sock: the socket calls a program makes, wrapped. A call on a
 * descriptor that is not an SCTP socket of ours goes to the C library at
 * once; on one of ours it is served here, through dpsctpd.
 */
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "dataplane/dpsctp_opt.h"
#include "dataplane/sidecar/sock/sock.h"

/* Ports listen() picks for a socket bound to port 0 (Linux's ephemeral range). */
#define SOCK_EPHEMERAL_LO 32768u
#define SOCK_EPHEMERAL_N  28232u

static bool
sock_wanted(int domain, int type, int protocol)
{
	int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
	return protocol == IPPROTO_SCTP && (domain == AF_INET || domain == AF_INET6) &&
	       (base == SOCK_STREAM || base == SOCK_SEQPACKET);
}

/* DPSCTP_SOCK_FALLBACK=kernel: without a daemon, the kernel's SCTP (where it has one). */
static bool
sock_fallback_kernel(void)
{
	const char *f = getenv("DPSCTP_SOCK_FALLBACK");
	return f != NULL && strcmp(f, "kernel") == 0;
}

SOCK_EXPORT int
socket(int domain, int type, int protocol)
{
	sock_real_init();
	if (sock_inside || !sock_wanted(domain, type, protocol))
		return sock_real.socket(domain, type, protocol);
	int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
	pthread_mutex_lock(&sock_g.lock);
	int rc = sock_attach();
	if (rc != 0) {
		pthread_mutex_unlock(&sock_g.lock);
		if (sock_fallback_kernel())
			return sock_real.socket(domain, type, protocol);
		/* No daemon at the socket's path reads as a refused connection. */
		return sock_fail(rc == -ENOENT ? -ECONNREFUSED : rc);
	}
	struct sock *sk = sock_new(domain, base);
	if (sk == NULL || (rc = sock_open_fd(sk, type)) != 0) {
		if (sk != NULL)
			sock_free(sk);
		pthread_mutex_unlock(&sock_g.lock);
		return sock_fail(sk == NULL ? -ENOMEM : rc);
	}
	int fd = sk->fd;
	sock_ready(sk);
	pthread_mutex_unlock(&sock_g.lock);
	return fd;
}

SOCK_EXPORT int
bind(int fd, const struct sockaddr *sa, socklen_t len)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.bind(fd, sa, len);
	int rc = sock_check(sk);
	if (rc != 0)
		return (int)sock_leave(rc);
	struct sctp_addr a;
	uint16_t port;
	if (sk->bound || sk->state != SOCK_FRESH)
		return (int)sock_leave(-EINVAL);
	if ((rc = sock_addr_from(sa, len, &a, &port)) != 0)
		return (int)sock_leave(rc);
	if (sa->sa_family == AF_INET6 && sk->domain == AF_INET)
		return (int)sock_leave(-EINVAL);
	sock_addr_to(&a, port, sk->domain, &sk->local);
	sk->bound = true;
	return (int)sock_leave(0);
}

static int
sock_listen_port(uint16_t port)
{
	struct sock_op *op = sock_op_begin();
	if (op == NULL)
		return -EAGAIN;
	int rc = dpsctp_client_listen(sock_g.c, 0, port, op->cookie);
	if (rc == 0)
		rc = sock_op_wait(op);
	sock_op_end(op);
	return rc == -EEXIST ? -EADDRINUSE : rc;
}

SOCK_EXPORT int
listen(int fd, int backlog)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.listen(fd, backlog);
	int rc = sock_check(sk);
	if (rc != 0)
		return (int)sock_leave(rc);
	/* As Linux: at least 1, at most net.core.somaxconn's default. */
	sk->backlog = backlog < 1 ? 1u : backlog > 4096 ? 4096u : (unsigned)backlog;
	if (sk->state == SOCK_LISTENING)
		return (int)sock_leave(0);
	if (sk->state != SOCK_FRESH)
		return (int)sock_leave(-EINVAL);
	struct sockaddr_in *in = (struct sockaddr_in *)&sk->local;
	uint16_t port = ntohs(in->sin_port);
	if (port != 0) {
		rc = sock_listen_port(port);
	} else {
		/* Port 0: one of the ephemeral ports nobody listens on. */
		rc = -EADDRINUSE;
		for (unsigned i = 0; i < 64 && rc == -EADDRINUSE; i++) {
			port = (uint16_t)(SOCK_EPHEMERAL_LO +
					  (unsigned)random() % SOCK_EPHEMERAL_N);
			rc = sock_listen_port(port);
		}
		if (rc == 0) {
			in->sin_port = htons(port);
			sk->bound = true;
		}
	}
	if (rc == 0)
		sk->state = SOCK_LISTENING;
	return (int)sock_leave(rc);
}

static int
sock_accept_one(int fd, struct sockaddr *sa, socklen_t *len, int flags)
{
	struct sock *l = sock_enter(fd);
	if (l == NULL)
		return sock_real.accept4(fd, sa, len, flags);
	int rc = sock_check(l);
	if (rc != 0)
		return (int)sock_leave(rc);
	if ((flags & ~(SOCK_NONBLOCK | SOCK_CLOEXEC)) != 0)
		return (int)sock_leave(-EINVAL);
	if (l->type == SOCK_SEQPACKET)
		return (int)sock_leave(
			-EOPNOTSUPP); /* its associations are its own (RFC 6458 §3) */
	for (;;) {
		if (l->state != SOCK_LISTENING)
			return (int)sock_leave(-EINVAL);
		struct sock *sk = l->acc_head;
		if (sk != NULL) {
			if ((rc = sock_open_fd(sk, flags)) != 0)
				return (int)sock_leave(rc == -EMFILE || rc == -ENFILE ? rc
										      : -ENOBUFS);
			l->acc_head = sk->acc_next;
			if (l->acc_head == NULL)
				l->acc_tail = NULL;
			sk->acc_next = NULL;
			l->n_acc--;
			sock_ready(l);
			sock_ready(sk);
			sock_addr_copy_out(&sk->peer, sa, len);
			return (int)sock_leave(sk->fd);
		}
		if (l->err != 0) {
			rc = -l->err;
			l->err = 0;
			sock_ready(l);
			return (int)sock_leave(rc);
		}
		if (sock_nonblocking(l))
			return (int)sock_leave(-EAGAIN);
		if ((rc = sock_wait(l, POLLIN, l->rcvtimeo_ms)) != 0)
			return (int)sock_leave(rc);
		if (sock_get(fd) != l)
			return (int)sock_leave(-EBADF); /* closed meanwhile by another thread */
	}
}

SOCK_EXPORT int
accept(int fd, struct sockaddr *sa, socklen_t *len)
{
	return sock_accept_one(fd, sa, len, 0);
}

SOCK_EXPORT int
accept4(int fd, struct sockaddr *sa, socklen_t *len, int flags)
{
	return sock_accept_one(fd, sa, len, flags);
}

/*
 * A one-to-many socket's connect: one more association (the program's
 * RFC 6458 §3.1.5 set-up), waited for unless the socket is non-blocking.
 */
static int
sock_connect_many(struct sock *sk, const struct sockaddr *sa, socklen_t len, sctp_assoc_t *id)
{
	struct sock_asc *a = NULL;
	int rc = sock_many_connect(sk, sa, len, &a);
	if (rc == -EISCONN && a != NULL && !a->up)
		rc = -EALREADY;
	if (rc != 0)
		return rc;
	*id = a->id;
	if (sock_nonblocking(sk))
		return -EINPROGRESS;
	struct sock_send si = { .aid = a->id };
	if (sock_many_target(sk, &si, 0, &rc) == NULL)
		return rc == -EAGAIN ? -EINPROGRESS : rc;
	return 0;
}

/* connect() and sctp_connectx(): 0 or -errno, the association's id in *id. */
int
sock_connect_sk(struct sock *sk, int fd, const struct sockaddr *sa, socklen_t len, sctp_assoc_t *id)
{
	int rc = sock_check(sk);
	if (rc != 0)
		return rc;
	if (sk->type == SOCK_SEQPACKET)
		return sock_connect_many(sk, sa, len, id);
	if (sk->state == SOCK_CONNECTING)
		return -EALREADY;
	if (sk->state == SOCK_CONNECTED || sk->state == SOCK_LISTENING)
		return -EISCONN;
	if (sk->state != SOCK_FRESH)
		return -EINVAL;
	if (sock_g.gone)
		return -ECONNRESET;
	struct sctp_addr a;
	uint16_t port;
	if ((rc = sock_addr_from(sa, len, &a, &port)) != 0)
		return rc;
	if (port == 0 || (sk->domain == AF_INET && sa->sa_family == AF_INET6))
		return port == 0 ? -EINVAL : -EAFNOSUPPORT;
	struct sock_op *op = sock_op_begin();
	if (op == NULL)
		return -EAGAIN;
	op->sk = sk;
	struct dpsctp_initmsg im;
	sock_addr_to(&a, port, sk->domain, &sk->peer);
	sk->state = SOCK_CONNECTING;
	sk->eof = sk->ended = sk->eof_pending = false;
	sk->err = 0;
	rc = dpsctp_client_connect_opts(sock_g.c, 0, &a, 1, port, sock_initmsg(sk, &im), op->cookie,
					NULL, 0);
	if (rc == 0)
		rc = sock_op_wait(op);
	sock_op_end(op);
	if (rc != 0) {
		sk->state = SOCK_FRESH;
		sock_ready(sk);
		return rc == -ENOBUFS ? -EAGAIN : rc;
	}
	*id = sk->aid;
	sock_opt_apply(sk);
	sock_ready(sk); /* not writable until COMM_UP */
	if (sock_nonblocking(sk))
		return -EINPROGRESS;
	while (sk->state == SOCK_CONNECTING) {
		if ((rc = sock_wait(sk, POLLOUT, sk->sndtimeo_ms)) != 0)
			return rc == -EAGAIN ? -EINPROGRESS : rc;
		if (sock_get(fd) != sk)
			return -EBADF;
	}
	if (sk->state == SOCK_CONNECTED && sk->assoc != 0)
		return 0;
	/* The error stays for SO_ERROR too, as Linux leaves it. */
	return sk->err != 0 ? -sk->err : -ECONNREFUSED;
}

SOCK_EXPORT int
connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.connect(fd, sa, len);
	sctp_assoc_t id;
	return (int)sock_leave(sock_connect_sk(sk, fd, sa, len, &id));
}

/* The last descriptor of sk is gone. */
static void
sock_release(struct sock *sk)
{
	if (sk->orphan) {
		sock_free(sk);
		return;
	}
	if (sk->type == SOCK_SEQPACKET) {
		if (sk->state == SOCK_LISTENING && sock_g.c != NULL && !sock_g.gone)
			dpsctp_client_unlisten(sock_g.c, 0,
					       ntohs(((struct sockaddr_in *)&sk->local)->sin_port),
					       0);
		sock_many_close(sk);
		sock_drop_queue(sk);
		if (sk->ascs == NULL) {
			sock_free(sk);
			return;
		}
		sk->state = SOCK_CLOSING; /* freed when its last association ends (sock_many.c) */
		return;
	}
	if (sk->state == SOCK_LISTENING) {
		uint16_t port = ntohs(((struct sockaddr_in *)&sk->local)->sin_port);
		if (sock_g.c != NULL && !sock_g.gone)
			dpsctp_client_unlisten(sock_g.c, 0, port, 0);
		/* Accepted by the daemon, never by the program: aborted, as Linux does. */
		for (struct sock *c = sk->acc_head, *n; c != NULL; c = n) {
			n = c->acc_next;
			c->linger_on = 1;
			c->linger_s = 0;
			sock_close_assoc(c);
			c->state = SOCK_CLOSING;
			if (c->assoc == 0)
				sock_free(c);
		}
		sock_free(sk);
		return;
	}
	if (sk->assoc != 0) {
		sock_abort_if_unread(sk);
		sock_close_assoc(sk);
		sk->state = SOCK_CLOSING;
		return; /* freed when its association ends (sock_core.c) */
	}
	sock_free(sk);
}

SOCK_EXPORT int
close(int fd)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.close(fd);
	sock_unbind_fd(fd);
	if (sk->fd == fd)
		sk->fd = -1;
	int rc = sock_real.close(fd);
	if (sk->refs == 0) {
		sock_release(sk);
	} else if (sk->fd < 0) {
		/* Another descriptor (a dup) names it still: it carries the readiness. */
		for (int i = 0; i < sock_g.nfd; i++) {
			if (sock_g.byfd[i] == sk) {
				sk->fd = i;
				break;
			}
		}
	}
	pthread_mutex_unlock(&sock_g.lock);
	return rc;
}

SOCK_EXPORT int
shutdown(int fd, int how)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.shutdown(fd, how);
	int rc = sock_check(sk);
	if (rc != 0)
		return (int)sock_leave(rc);
	if (how != SHUT_RD && how != SHUT_WR && how != SHUT_RDWR)
		return (int)sock_leave(-EINVAL);
	/* A one-to-many socket closes its associations one by one (SCTP_EOF); Linux
	 * takes the call and does nothing to them. */
	if (sk->type == SOCK_SEQPACKET)
		return (int)sock_leave(sk->state == SOCK_FRESH && sk->ascs == NULL ? -ENOTCONN : 0);
	if (sk->state != SOCK_CONNECTED)
		return (int)sock_leave(-ENOTCONN);
	if (how != SHUT_WR) {
		sk->rd_shut = true;
	}
	/* SCTP has no half-close: SHUT_WR begins the graceful shutdown (RFC 6458 §4.1.7). */
	if (how != SHUT_RD && !sk->wr_shut && sk->assoc != 0 && !sock_g.gone) {
		dpsctp_client_shutdown(sock_g.c, 0, sk->assoc, 0);
		sk->wr_shut = true;
	}
	sock_ready(sk);
	return (int)sock_leave(0);
}

SOCK_EXPORT int
getsockname(int fd, struct sockaddr *sa, socklen_t *len)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.getsockname(fd, sa, len);
	if (sa == NULL || len == NULL)
		return (int)sock_leave(-EFAULT);
	sock_addr_copy_out(&sk->local, sa, len);
	return (int)sock_leave(0);
}

SOCK_EXPORT int
getpeername(int fd, struct sockaddr *sa, socklen_t *len)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.getpeername(fd, sa, len);
	if (sa == NULL || len == NULL)
		return (int)sock_leave(-EFAULT);
	if (sk->type == SOCK_SEQPACKET ||
	    (sk->state != SOCK_CONNECTED && sk->state != SOCK_CONNECTING))
		return (int)sock_leave(-ENOTCONN);
	sock_addr_copy_out(&sk->peer, sa, len);
	return (int)sock_leave(0);
}

/* dup() and its kin: the new descriptor names the same socket. */
static int
sock_dup_done(int oldfd, int newfd)
{
	if (newfd < 0 || !sock_maybe_ours(oldfd))
		return newfd;
	pthread_mutex_lock(&sock_g.lock);
	struct sock *sk = sock_get(oldfd);
	if (sk != NULL)
		sock_bind_fd(sk, newfd);
	pthread_mutex_unlock(&sock_g.lock);
	return newfd;
}

SOCK_EXPORT int
dup(int fd)
{
	sock_real_init();
	return sock_dup_done(fd, sock_real.dup(fd));
}

/* dup2() onto one of our descriptors closes that one first, as the kernel does. */
static int
sock_dup_onto(int oldfd, int newfd, int flags, bool three)
{
	sock_real_init();
	if (!sock_inside && oldfd != newfd && sock_enter(newfd) != NULL) {
		pthread_mutex_unlock(&sock_g.lock);
		close(newfd);
	}
	int rc = three ? sock_real.dup3(oldfd, newfd, flags) : sock_real.dup2(oldfd, newfd);
	if (rc < 0 || oldfd == newfd)
		return rc;
	return sock_dup_done(oldfd, rc);
}

SOCK_EXPORT int
dup2(int oldfd, int newfd)
{
	return sock_dup_onto(oldfd, newfd, 0, false);
}

SOCK_EXPORT int
dup3(int oldfd, int newfd, int flags)
{
	return sock_dup_onto(oldfd, newfd, flags, true);
}

static int
sock_fcntl(int fd, int cmd, va_list ap)
{
	sock_real_init();
	/* Every command takes one argument or none; the C library's own wrapper
	 * reads one either way. */
	unsigned long arg = va_arg(ap, unsigned long);
	int rc = sock_real.fcntl(fd, cmd, arg);
	if ((cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) && rc >= 0)
		return sock_dup_done(fd, rc);
	return rc;
}

/*
 * Both names glibc exports: with _FILE_OFFSET_BITS=64 (this build, and many
 * programs, Python among them) <fcntl.h> renames fcntl to fcntl64, so each
 * is defined under its symbol name explicitly.
 */
SOCK_EXPORT int sock_fcntl_plain(int fd, int cmd, ...) __asm__("fcntl");
SOCK_EXPORT int sock_fcntl_64(int fd, int cmd, ...) __asm__("fcntl64");

int
sock_fcntl_plain(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	int rc = sock_fcntl(fd, cmd, ap);
	va_end(ap);
	return rc;
}

int
sock_fcntl_64(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	int rc = sock_fcntl(fd, cmd, ap);
	va_end(ap);
	return rc;
}

SOCK_EXPORT int
ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	sock_real_init();
	/* FIONBIO sets O_NONBLOCK on the program's descriptor, which is where
	 * the library reads it: the C library's call does it. FIONREAD (SIOCINQ)
	 * is the unread bytes of the next message, as Linux's SCTP says it. */
	if (req == FIONREAD) {
		struct sock *sk = sock_enter(fd);
		if (sk != NULL) {
			*(int *)arg = sk->head != NULL ? (int)(sk->head->len - sk->head->off) : 0;
			return (int)sock_leave(0);
		}
	}
	return sock_real.ioctl(fd, req, arg);
}
