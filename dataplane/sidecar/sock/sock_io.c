/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdpsctp-sock: the C library's data calls, wrapped (send, recv, read,
 * write and their vector and message forms, and the fortified variants a
 * program built with _FORTIFY_SOURCE calls). sendmsg() reads the sending
 * control messages of RFC 6458 §5.3 here; sock_data.c does the rest.
 */
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataplane/sidecar/sock/sock.h"

/* The fortified forms have no declaration of their own outside glibc's bits. */
ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen);
ssize_t __recv_chk(int fd, void *buf, size_t len, size_t buflen, int flags);
ssize_t __recvfrom_chk(int fd, void *buf, size_t len, size_t buflen, int flags, struct sockaddr *sa,
		       socklen_t *sl);

static ssize_t
io_send(struct sock *sk, const void *buf, size_t len, int flags)
{
	struct iovec v = { (void *)(uintptr_t)buf, len };
	struct sock_send si;
	sock_default_send(sk, &si);
	return sock_leave(sock_sendv(sk, &v, 1, &si, flags));
}

static ssize_t
io_recv(struct sock *sk, void *buf, size_t len, int flags)
{
	struct iovec v = { buf, len };
	return sock_leave(sock_recvv(sk, &v, 1, flags, NULL));
}

/* PR-SCTP policies: RFC 6458's SCTP_PR_SCTP_* to the daemon's. */
uint32_t
sock_pr_policy(uint16_t p)
{
	switch (p & SCTP_PR_SCTP_MASK) {
	case SCTP_PR_SCTP_TTL:
		return DPSCTP_CLIENT_PR_TTL;
	case SCTP_PR_SCTP_RTX:
		return DPSCTP_CLIENT_PR_RTX;
	case SCTP_PR_SCTP_PRIO:
		return DPSCTP_CLIENT_PR_PRIO;
	default:
		return DPSCTP_CLIENT_PR_NONE;
	}
}

/* The sending control messages: 0, or -EINVAL for one malformed or unknown. */
static int
io_send_cmsgs(const struct msghdr *mh, struct sock_send *si)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c != NULL;
	     c = CMSG_NXTHDR((struct msghdr *)mh, c)) {
		if (c->cmsg_level != IPPROTO_SCTP)
			continue;
		size_t len = c->cmsg_len - CMSG_LEN(0);
		const void *d = CMSG_DATA(c);
		switch (c->cmsg_type) {
		case SCTP_SNDRCV: {
			struct sctp_sndrcvinfo s;
			if (len < sizeof(s))
				return -EINVAL;
			memcpy(&s, d, sizeof(s));
			si->sid = s.sinfo_stream;
			si->ppid = s.sinfo_ppid;
			si->flags = s.sinfo_flags;
			si->context = s.sinfo_context;
			si->aid = s.sinfo_assoc_id;
			/* The lifetime is PR-SCTP's timed reliability when one is given. */
			if (s.sinfo_timetolive != 0) {
				si->pr_policy = DPSCTP_CLIENT_PR_TTL;
				si->pr_value = s.sinfo_timetolive;
			}
			break;
		}
		case SCTP_SNDINFO: {
			struct sctp_sndinfo s;
			if (len < sizeof(s))
				return -EINVAL;
			memcpy(&s, d, sizeof(s));
			si->sid = s.snd_sid;
			si->ppid = s.snd_ppid;
			si->flags = s.snd_flags;
			si->context = s.snd_context;
			si->aid = s.snd_assoc_id;
			break;
		}
		case SCTP_PRINFO: {
			struct sctp_prinfo p;
			if (len < sizeof(p))
				return -EINVAL;
			memcpy(&p, d, sizeof(p));
			si->pr_policy = sock_pr_policy(p.pr_policy);
			si->pr_value = si->pr_policy != DPSCTP_CLIENT_PR_NONE ? p.pr_value : 0;
			if (si->pr_policy == DPSCTP_CLIENT_PR_TTL && si->pr_value == 0)
				si->pr_policy = DPSCTP_CLIENT_PR_NONE;
			break;
		}
		case SCTP_INIT:
		case SCTP_DSTADDRV4:
		case SCTP_DSTADDRV6:
			/* For the one-to-many style's implicit set-up: a one-to-one
			 * socket's association is its own. */
			break;
		default:
			return -EINVAL; /* SCTP_AUTHINFO among them: no SCTP-AUTH */
		}
	}
	if ((si->flags & ~(uint32_t)(SCTP_UNORDERED | SCTP_EOF | SCTP_ABORT |
				     SCTP_SACK_IMMEDIATELY | SCTP_ADDR_OVER | SCTP_SENDALL)) != 0)
		return -EINVAL;
	return 0;
}

ssize_t
sock_sendmsg_sk(struct sock *sk, const struct msghdr *mh, int flags, const struct sock_send *dflt)
{
	struct sock_send si;
	if (dflt != NULL)
		si = *dflt;
	else
		sock_default_send(sk, &si);
	int rc = mh->msg_controllen != 0 ? io_send_cmsgs(mh, &si) : 0;
	if (rc != 0)
		return rc;
	if (sk->type == SOCK_SEQPACKET && mh->msg_name != NULL) {
		si.to = mh->msg_name;
		si.tolen = mh->msg_namelen;
	}
	return sock_sendv(sk, mh->msg_iov, (int)mh->msg_iovlen, &si, flags);
}

SOCK_EXPORT ssize_t
send(int fd, const void *buf, size_t len, int flags)
{
	struct sock *sk = sock_enter(fd);
	return sk == NULL ? sock_real.send(fd, buf, len, flags) : io_send(sk, buf, len, flags);
}

/*
 * A send with an address on a one-to-one socket that has no association
 * sets one up first (Linux's implicit connect); on one that has, the
 * address is ignored.
 */
static struct sock *
io_enter_to(int fd, const struct sockaddr *sa, socklen_t sl)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL || sa == NULL || sk->state != SOCK_FRESH || sk->orphan ||
	    sk->type == SOCK_SEQPACKET)
		return sk;
	pthread_mutex_unlock(&sock_g.lock);
	if (connect(fd, sa, sl) != 0 && errno != EISCONN && errno != EINPROGRESS)
		return (struct sock *)-1;
	return sock_enter(fd);
}

SOCK_EXPORT ssize_t
sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *sa, socklen_t sl)
{
	struct sock *sk = io_enter_to(fd, sa, sl);
	if (sk == (struct sock *)-1)
		return -1;
	if (sk == NULL)
		return sock_real.sendto(fd, buf, len, flags, sa, sl);
	struct iovec v = { (void *)(uintptr_t)buf, len };
	struct msghdr mh = {
		.msg_name = (void *)(uintptr_t)sa, .msg_namelen = sl, .msg_iov = &v, .msg_iovlen = 1
	};
	return sock_leave(sock_sendmsg_sk(sk, &mh, flags, NULL));
}

SOCK_EXPORT ssize_t
sendmsg(int fd, const struct msghdr *mh, int flags)
{
	struct sock *sk = io_enter_to(fd, mh->msg_name, mh->msg_namelen);
	if (sk == (struct sock *)-1)
		return -1;
	if (sk == NULL)
		return sock_real.sendmsg(fd, mh, flags);
	return sock_leave(sock_sendmsg_sk(sk, mh, flags, NULL));
}

SOCK_EXPORT ssize_t
write(int fd, const void *buf, size_t len)
{
	struct sock *sk = sock_enter(fd);
	return sk == NULL ? sock_real.write(fd, buf, len) : io_send(sk, buf, len, 0);
}

SOCK_EXPORT ssize_t
writev(int fd, const struct iovec *iov, int n)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.writev(fd, iov, n);
	struct sock_send si;
	sock_default_send(sk, &si);
	return sock_leave(n < 0 ? -EINVAL : sock_sendv(sk, iov, n, &si, 0));
}

SOCK_EXPORT ssize_t
recv(int fd, void *buf, size_t len, int flags)
{
	struct sock *sk = sock_enter(fd);
	return sk == NULL ? sock_real.recv(fd, buf, len, flags) : io_recv(sk, buf, len, flags);
}

SOCK_EXPORT ssize_t
recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *sa, socklen_t *sl)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.recvfrom(fd, buf, len, flags, sa, sl);
	struct iovec v = { buf, len };
	struct msghdr mh = {
		.msg_name = sa, .msg_namelen = sl != NULL ? *sl : 0, .msg_iov = &v, .msg_iovlen = 1
	};
	ssize_t rc = sock_recvv(sk, &v, 1, flags, sa != NULL && sl != NULL ? &mh : NULL);
	if (rc >= 0 && sa != NULL && sl != NULL)
		*sl = mh.msg_namelen;
	return sock_leave(rc);
}

SOCK_EXPORT ssize_t
recvmsg(int fd, struct msghdr *mh, int flags)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.recvmsg(fd, mh, flags);
	return sock_leave(sock_recvv(sk, mh->msg_iov, (int)mh->msg_iovlen, flags, mh));
}

SOCK_EXPORT ssize_t
read(int fd, void *buf, size_t len)
{
	struct sock *sk = sock_enter(fd);
	return sk == NULL ? sock_real.read(fd, buf, len) : io_recv(sk, buf, len, 0);
}

SOCK_EXPORT ssize_t
readv(int fd, const struct iovec *iov, int n)
{
	struct sock *sk = sock_enter(fd);
	if (sk == NULL)
		return sock_real.readv(fd, iov, n);
	return sock_leave(n < 0 ? -EINVAL : sock_recvv(sk, iov, n, 0, NULL));
}

/* _FORTIFY_SOURCE's checked forms: the same, once the buffer is known to fit. */
SOCK_EXPORT ssize_t
__read_chk(int fd, void *buf, size_t len, size_t buflen)
{
	if (len > buflen)
		abort();
	return read(fd, buf, len);
}

SOCK_EXPORT ssize_t
__recv_chk(int fd, void *buf, size_t len, size_t buflen, int flags)
{
	if (len > buflen)
		abort();
	return recv(fd, buf, len, flags);
}

SOCK_EXPORT ssize_t
__recvfrom_chk(int fd, void *buf, size_t len, size_t buflen, int flags, struct sockaddr *sa,
	       socklen_t *sl)
{
	if (len > buflen)
		abort();
	return recvfrom(fd, buf, len, flags, sa, sl);
}
