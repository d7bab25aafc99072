/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdpsctp-sock: the functions of lksctp's libsctp (RFC 6458 §9), so that
 * a program linked with libsctp.so.1 gets these before libsctp's (which
 * would speak Linux-private socket options to a descriptor that is not a
 * kernel socket). Each works on a kernel descriptor too, as libsctp's do:
 * the message functions through sendmsg()/recvmsg() with control
 * messages, which this library or the kernel serves.
 */
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/sidecar/sock/sock.h"

/* The address list functions: bytes of one address of a family. */
SOCK_EXPORT int
sctp_getaddrlen(sa_family_t family)
{
	return family == AF_INET    ? (int)sizeof(struct sockaddr_in)
	       : family == AF_INET6 ? (int)sizeof(struct sockaddr_in6)
				    : -1;
}

SOCK_EXPORT int
sctp_sendmsg(int s, const void *msg, size_t len, struct sockaddr *to, socklen_t tolen,
	     uint32_t ppid, uint32_t flags, uint16_t stream_no, uint32_t timetolive,
	     uint32_t context)
{
	struct sctp_sndrcvinfo si = { .sinfo_stream = stream_no,
				      .sinfo_flags = (uint16_t)flags,
				      .sinfo_ppid = ppid,
				      .sinfo_context = context,
				      .sinfo_timetolive = timetolive };
	(void)to; /* one-to-one: the socket's association */
	(void)tolen;
	return sctp_send(s, msg, len, &si, 0);
}

SOCK_EXPORT int
sctp_send(int s, const void *msg, size_t len, const struct sctp_sndrcvinfo *sinfo, int flags)
{
	char cbuf[CMSG_SPACE(sizeof(struct sctp_sndrcvinfo))];
	struct iovec v = { (void *)(uintptr_t)msg, len };
	struct msghdr mh = { .msg_iov = &v, .msg_iovlen = 1 };
	if (sinfo != NULL) {
		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = IPPROTO_SCTP;
		c->cmsg_type = SCTP_SNDRCV;
		c->cmsg_len = CMSG_LEN(sizeof(*sinfo));
		memcpy(CMSG_DATA(c), sinfo, sizeof(*sinfo));
	}
	return (int)sendmsg(s, &mh, flags);
}

SOCK_EXPORT int
sctp_recvmsg(int s, void *msg, size_t len, struct sockaddr *from, socklen_t *fromlen,
	     struct sctp_sndrcvinfo *sinfo, int *msg_flags)
{
	char cbuf[CMSG_SPACE(sizeof(struct sctp_sndrcvinfo)) +
		  CMSG_SPACE(sizeof(struct sctp_rcvinfo)) +
		  CMSG_SPACE(sizeof(struct sctp_nxtinfo))];
	struct iovec v = { msg, len };
	struct msghdr mh = { .msg_name = from,
			     .msg_namelen = fromlen != NULL ? *fromlen : 0,
			     .msg_iov = &v,
			     .msg_iovlen = 1,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	ssize_t n = recvmsg(s, &mh, msg_flags != NULL ? *msg_flags : 0);
	if (n < 0)
		return -1;
	if (fromlen != NULL)
		*fromlen = mh.msg_namelen;
	if (msg_flags != NULL)
		*msg_flags = mh.msg_flags;
	if (sinfo != NULL) {
		memset(sinfo, 0, sizeof(*sinfo));
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c != NULL; c = CMSG_NXTHDR(&mh, c))
			if (c->cmsg_level == IPPROTO_SCTP && c->cmsg_type == SCTP_SNDRCV)
				memcpy(sinfo, CMSG_DATA(c), sizeof(*sinfo));
	}
	return (int)n;
}

SOCK_EXPORT int
sctp_sendv(int s, const struct iovec *iov, int iovcnt, struct sockaddr *addrs, int addrcnt,
	   void *info, socklen_t infolen, unsigned int infotype, int flags)
{
	char cbuf[CMSG_SPACE(sizeof(struct sctp_sndinfo)) + CMSG_SPACE(sizeof(struct sctp_prinfo))];
	struct msghdr mh = { .msg_iov = (struct iovec *)(uintptr_t)iov,
			     .msg_iovlen = (size_t)iovcnt };
	(void)addrs; /* one-to-one: the socket's association */
	(void)addrcnt;
	const struct sctp_sndinfo *snd = NULL;
	const struct sctp_prinfo *pr = NULL;
	switch (infotype) {
	case SCTP_SENDV_NOINFO:
		break;
	case SCTP_SENDV_SNDINFO:
		if (info == NULL || infolen < sizeof(*snd))
			return sock_fail(-EINVAL);
		snd = info;
		break;
	case SCTP_SENDV_PRINFO:
		if (info == NULL || infolen < sizeof(*pr))
			return sock_fail(-EINVAL);
		pr = info;
		break;
	case SCTP_SENDV_SPA: {
		const struct sctp_sendv_spa *spa = info;
		if (info == NULL || infolen < sizeof(*spa))
			return sock_fail(-EINVAL);
		if ((spa->sendv_flags & SCTP_SEND_AUTHINFO_VALID) != 0)
			return sock_fail(-EINVAL);
		if ((spa->sendv_flags & SCTP_SEND_SNDINFO_VALID) != 0)
			snd = &spa->sendv_sndinfo;
		if ((spa->sendv_flags & SCTP_SEND_PRINFO_VALID) != 0)
			pr = &spa->sendv_prinfo;
		break;
	}
	default:
		return sock_fail(-EINVAL); /* SCTP_SENDV_AUTHINFO: no SCTP-AUTH */
	}
	size_t used = 0;
	memset(cbuf, 0, sizeof(cbuf));
	if (snd != NULL) {
		struct cmsghdr *c = (struct cmsghdr *)(void *)cbuf;
		c->cmsg_level = IPPROTO_SCTP;
		c->cmsg_type = SCTP_SNDINFO;
		c->cmsg_len = CMSG_LEN(sizeof(*snd));
		memcpy(CMSG_DATA(c), snd, sizeof(*snd));
		used += CMSG_SPACE(sizeof(*snd));
	}
	if (pr != NULL) {
		struct cmsghdr *c = (struct cmsghdr *)(void *)(cbuf + used);
		c->cmsg_level = IPPROTO_SCTP;
		c->cmsg_type = SCTP_PRINFO;
		c->cmsg_len = CMSG_LEN(sizeof(*pr));
		memcpy(CMSG_DATA(c), pr, sizeof(*pr));
		used += CMSG_SPACE(sizeof(*pr));
	}
	mh.msg_control = used != 0 ? cbuf : NULL;
	mh.msg_controllen = used;
	return (int)sendmsg(s, &mh, flags);
}

SOCK_EXPORT int
sctp_recvv(int s, const struct iovec *iov, int iovlen, struct sockaddr *from, socklen_t *fromlen,
	   void *info, socklen_t *infolen, unsigned int *infotype, int *flags)
{
	char cbuf[CMSG_SPACE(sizeof(struct sctp_rcvinfo)) +
		  CMSG_SPACE(sizeof(struct sctp_nxtinfo)) +
		  CMSG_SPACE(sizeof(struct sctp_sndrcvinfo))];
	struct msghdr mh = { .msg_name = from,
			     .msg_namelen = fromlen != NULL ? *fromlen : 0,
			     .msg_iov = (struct iovec *)(uintptr_t)iov,
			     .msg_iovlen = (size_t)iovlen,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	ssize_t n = recvmsg(s, &mh, flags != NULL ? *flags : 0);
	if (n < 0)
		return -1;
	if (fromlen != NULL)
		*fromlen = mh.msg_namelen;
	if (flags != NULL)
		*flags = mh.msg_flags;
	const void *rcv = NULL, *nxt = NULL;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c != NULL; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level == IPPROTO_SCTP && c->cmsg_type == SCTP_RCVINFO)
			rcv = CMSG_DATA(c);
		if (c->cmsg_level == IPPROTO_SCTP && c->cmsg_type == SCTP_NXTINFO)
			nxt = CMSG_DATA(c);
	}
	unsigned type = SCTP_RECVV_NOINFO;
	if (info != NULL && infolen != NULL) {
		if (rcv != NULL && nxt != NULL && *infolen >= sizeof(struct sctp_recvv_rn)) {
			struct sctp_recvv_rn *rn = info;
			memcpy(&rn->recvv_rcvinfo, rcv, sizeof(rn->recvv_rcvinfo));
			memcpy(&rn->recvv_nxtinfo, nxt, sizeof(rn->recvv_nxtinfo));
			*infolen = sizeof(*rn);
			type = SCTP_RECVV_RN;
		} else if (rcv != NULL && *infolen >= sizeof(struct sctp_rcvinfo)) {
			memcpy(info, rcv, sizeof(struct sctp_rcvinfo));
			*infolen = sizeof(struct sctp_rcvinfo);
			type = SCTP_RECVV_RCVINFO;
		} else if (nxt != NULL && *infolen >= sizeof(struct sctp_nxtinfo)) {
			memcpy(info, nxt, sizeof(struct sctp_nxtinfo));
			*infolen = sizeof(struct sctp_nxtinfo);
			type = SCTP_RECVV_NXTINFO;
		} else {
			*infolen = 0;
		}
	}
	if (infotype != NULL)
		*infotype = type;
	return (int)n;
}

/* Bytes of a packed address list of n entries, or -EINVAL. */
static int
sctp_packed_len(const struct sockaddr *addrs, int n)
{
	const uint8_t *p = (const uint8_t *)addrs;
	int len = 0;
	for (int i = 0; i < n; i++) {
		/* Packed: each address's family read in place, byte-wise. */
		sa_family_t fam;
		memcpy(&fam, p + len + offsetof(struct sockaddr, sa_family), sizeof(fam));
		int l = sctp_getaddrlen(fam);
		if (l < 0)
			return -EINVAL;
		len += l;
	}
	return len;
}

SOCK_EXPORT int
sctp_bindx(int sd, struct sockaddr *addrs, int addrcnt, int flags)
{
	if (addrs == NULL || addrcnt <= 0 || sctp_packed_len(addrs, addrcnt) < 0)
		return sock_fail(-EINVAL);
	if (flags == SCTP_BINDX_ADD_ADDR) {
		/* dpsctpd serves its own addresses: the first address sets the port
		 * (and the others must agree on it), as binding it would. */
		/* sin_port and sin6_port sit at the same offset. */
		const uint8_t *p = (const uint8_t *)addrs;
		uint16_t port, other;
		memcpy(&port, p + offsetof(struct sockaddr_in, sin_port), sizeof(port));
		for (int i = 0, at = 0; i < addrcnt; i++) {
			sa_family_t fam;
			memcpy(&fam, p + at + offsetof(struct sockaddr, sa_family), sizeof(fam));
			memcpy(&other, p + at + offsetof(struct sockaddr_in, sin_port),
			       sizeof(other));
			if (other != port)
				return sock_fail(-EINVAL);
			at += sctp_getaddrlen(fam);
		}
		return bind(sd, addrs, (socklen_t)sctp_getaddrlen(addrs->sa_family));
	}
	if (flags == SCTP_BINDX_REM_ADDR)
		return sock_fail(-EOPNOTSUPP); /* no dynamic addresses (RFC 5061) */
	return sock_fail(-EINVAL);
}

SOCK_EXPORT int
sctp_connectx(int sd, struct sockaddr *addrs, int addrcnt, sctp_assoc_t *id)
{
	if (addrs == NULL || addrcnt <= 0 || sctp_packed_len(addrs, addrcnt) < 0)
		return sock_fail(-EINVAL);
	/* The first address is the primary (the daemon's association is set up to
	 * it; the peer's INIT ACK lists the others). */
	socklen_t len = (socklen_t)sctp_getaddrlen(addrs->sa_family);
	struct sock *sk = sock_enter(sd);
	if (sk == NULL) {
		int rc = connect(sd, addrs, len);
		if (rc == 0 && id != NULL)
			*id = 0;
		return rc;
	}
	sctp_assoc_t aid = 0;
	int rc = sock_connect_sk(sk, sd, addrs, len, &aid);
	if ((rc == 0 || rc == -EINPROGRESS) && id != NULL)
		*id = aid;
	if (rc == 0)
		errno = 0; /* as libsctp's callers expect of a success */
	return (int)sock_leave(rc);
}

SOCK_EXPORT int
sctp_peeloff_flags(int sd, sctp_assoc_t assoc_id, unsigned flags)
{
	struct sock *sk = sock_enter(sd);
	if (sk == NULL) {
		/* A kernel socket (DPSCTP_SOCK_FALLBACK=kernel): Linux's own option. */
		struct {
			sctp_peeloff_arg_t p;
			unsigned flags;
		} arg = { { assoc_id, 0 }, flags };
		socklen_t len = sizeof(arg);
		int name = flags != 0 ? SCTP_SOCKOPT_PEELOFF_FLAGS : SCTP_SOCKOPT_PEELOFF;
		if (flags == 0)
			len = sizeof(arg.p);
		if (sock_real.getsockopt(sd, IPPROTO_SCTP, name, &arg, &len) != 0)
			return -1;
		return arg.p.sd;
	}
	int rc = sock_check(sk);
	if (rc == 0)
		rc = sock_peeloff_sk(sk, assoc_id, flags);
	return (int)sock_leave(rc);
}

SOCK_EXPORT int
sctp_peeloff(int sd, sctp_assoc_t assoc_id)
{
	return sctp_peeloff_flags(sd, assoc_id, 0);
}

SOCK_EXPORT int
sctp_opt_info(int sd, sctp_assoc_t id, int opt, void *arg, socklen_t *size)
{
	/* As libsctp: the id goes into the options' structs that start with one. */
	switch (opt) {
	case SCTP_RTOINFO:
	case SCTP_ASSOCINFO:
	case SCTP_PRIMARY_ADDR:
	case SCTP_PEER_ADDR_PARAMS:
	case SCTP_DELAYED_SACK:
	case SCTP_MAXSEG:
	case SCTP_STATUS:
	case SCTP_GET_PEER_ADDR_INFO:
	case SCTP_MAX_BURST:
	case SCTP_CONTEXT:
	case SCTP_EVENT:
		if (arg == NULL || size == NULL || *size < (socklen_t)sizeof(id))
			return sock_fail(-EINVAL);
		memcpy(arg, &id, sizeof(id));
		break;
	default:
		break;
	}
	return getsockopt(sd, IPPROTO_SCTP, opt, arg, size);
}

/* One address, packed as the address list functions return them. */
static int
sctp_one_addr(int sd, bool peer, struct sockaddr **addrs)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int rc = peer ? getpeername(sd, (struct sockaddr *)&ss, &len)
		      : getsockname(sd, (struct sockaddr *)&ss, &len);
	if (rc != 0)
		return -1;
	*addrs = malloc(len);
	if (*addrs == NULL)
		return sock_fail(-ENOMEM);
	memcpy(*addrs, &ss, len);
	return 1;
}

SOCK_EXPORT int
sctp_getpaddrs(int sd, sctp_assoc_t id, struct sockaddr **addrs)
{
	if (addrs == NULL)
		return sock_fail(-EINVAL);
	struct sock *sk = sock_enter(sd);
	if (sk != NULL && sk->type == SOCK_SEQPACKET) {
		/* One association of many: its peer (the primary address). */
		struct sockaddr_storage ss;
		int rc = sock_many_peer(sk, id, &ss);
		if (rc == 0) {
			socklen_t len = sock_addr_len(&ss);
			if ((*addrs = malloc(len)) == NULL)
				rc = -ENOMEM;
			else
				memcpy(*addrs, &ss, len);
		}
		return (int)sock_leave(rc == 0 ? 1 : rc);
	}
	if (sk != NULL)
		pthread_mutex_unlock(&sock_g.lock);
	return sctp_one_addr(sd, true, addrs);
}

SOCK_EXPORT int
sctp_freepaddrs(struct sockaddr *addrs)
{
	free(addrs);
	return 0;
}

SOCK_EXPORT int
sctp_getladdrs(int sd, sctp_assoc_t id, struct sockaddr **addrs)
{
	(void)id;
	if (addrs == NULL)
		return sock_fail(-EINVAL);
	return sctp_one_addr(sd, false, addrs);
}

SOCK_EXPORT int
sctp_freeladdrs(struct sockaddr *addrs)
{
	free(addrs);
	return 0;
}
