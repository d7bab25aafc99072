/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sock_conform: the one-to-one SCTP socket API, case by case, on whatever
 * serves it: Linux's own SCTP (the static build, /peer in linux_vm.py's
 * guest) or libdpsctp-sock through dpsctpd (the dynamic build under
 * LD_PRELOAD). sock_conform.py runs both and compares the lines.
 *
 *   sock_conform server PORT         listen on PORT (any address)
 *   sock_conform client HOST PORT    the local cases, then HOST:PORT (and
 *                                    HOST:PORT+1, where nobody listens)
 *
 * Every case prints exactly one line, `case NAME: rc=R errno=E FIELD=V...`,
 * holding nothing that legitimately differs between two stacks (addresses,
 * ports, association ids, descriptor numbers, TSNs, buffer sizes and
 * defaults the stack picks, timings); cases that are one stack's choice
 * within what RFC 6458 allows are left out. Lines starting with anything
 * else ("info ...", "abort ...") are not compared. The two roles keep in
 * step through the messages they exchange (each wait is itself a case), and
 * sleep where a case needs the peer's packets to have arrived (the next
 * message for SCTP_NXTINFO, the end of a shutdown). Plain socket API and
 * <netinet/sctp.h> only: no libsctp, so it links statically.
 *
 * Exit status 0 when every case ran (whatever it printed), 2 bad usage,
 * 3 when a step the other role depends on failed (an "abort" line says which).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/sctp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* How long a role waits for the other at most (the guest's CPU is emulated). */
#define WAIT_S 30
/* How long a read of a "what comes next" sequence waits. */
#define SEQ_MS 300
/* For the peer's packets to arrive (loopback in the guest, memif on the host). */
#define SETTLE_MS 1000

/* ------------------------------------------------------------------ output */

static char line[4096];
static size_t line_n;

static void
add(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line + line_n, sizeof(line) - line_n, fmt, ap);
	va_end(ap);
	if (n > 0)
		line_n += (size_t)n < sizeof(line) - line_n ? (size_t)n : sizeof(line) - line_n - 1;
}

static void
begin(const char *name)
{
	line_n = 0;
	add("case %s:", name);
}

static void
end(void)
{
	printf("%s\n", line);
	fflush(stdout);
}

static void
info(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("info ");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	va_end(ap);
}

static const char *errname(int e);

static void __attribute__((noreturn)) die(const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	printf("abort ");
	vprintf(fmt, ap);
	printf(" (errno %s)\n", errname(e));
	fflush(stdout);
	va_end(ap);
	exit(3);
}

static const char *
errname(int e)
{
	static char buf[16];
	switch (e) {
#define E(x)                                                                                       \
	case x:                                                                                    \
		return #x
		E(EAGAIN);
		E(EINVAL);
		E(ENOTCONN);
		E(EISCONN);
		E(EALREADY);
		E(EINPROGRESS);
		E(ECONNREFUSED);
		E(ECONNRESET);
		E(ECONNABORTED);
		E(EPIPE);
		E(ENOPROTOOPT);
		E(EOPNOTSUPP);
		E(EPROTONOSUPPORT);
		E(ESOCKTNOSUPPORT);
		E(EPROTOTYPE);
		E(EAFNOSUPPORT);
		E(EACCES);
		E(EPERM);
		E(EFAULT);
		E(EDOM);
		E(EBADF);
		E(ENOTSOCK);
		E(ETIMEDOUT);
		E(ESHUTDOWN);
		E(EADDRINUSE);
		E(EADDRNOTAVAIL);
		E(ENOBUFS);
		E(ENOMEM);
		E(EMSGSIZE);
		E(ENOENT);
		E(EPROTO);
		E(EINTR);
		E(EIO);
#undef E
	default:
		snprintf(buf, sizeof(buf), "E%d", e);
		return buf;
	}
}

/* rc and errno: errno only when the call failed. */
static void
add_rc(long rc, int e)
{
	if (rc < 0)
		add(" rc=%ld errno=%s", rc, errname(e));
	else
		add(" rc=%ld errno=-", rc);
}

/* The call first, then its errno (a function's arguments have no order). */
#define ADD_RC(call)                                                                               \
	do {                                                                                       \
		long rc_ = (long)(call);                                                           \
		int e_ = errno;                                                                    \
		add_rc(rc_, e_);                                                                   \
	} while (0)
#define ADD_FD(call)                                                                               \
	do {                                                                                       \
		int fd_ = (call);                                                                  \
		int e_ = errno;                                                                    \
		add_fd(fd_, e_);                                                                   \
	} while (0)

/* A call that returns a descriptor: its number is the process's business. */
static void
add_fd(int fd, int e)
{
	if (fd < 0)
		add(" rc=-1 errno=%s", errname(e));
	else
		add(" rc=fd errno=-");
}

static void
add_revents(const char *key, short r)
{
	static const struct {
		short bit;
		const char *name;
	} bits[] = { { POLLIN, "IN" },	    { POLLPRI, "PRI" }, { POLLOUT, "OUT" },
		     { POLLERR, "ERR" },    { POLLHUP, "HUP" }, { POLLNVAL, "NVAL" },
		     { POLLRDHUP, "RDHUP" } };
	add(" %s=", key);
	int any = 0;
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (r & bits[i].bit) {
			add("%s%s", any ? "|" : "", bits[i].name);
			any = 1;
		}
	}
	if (!any)
		add("0");
}

static void
add_msgflags(int f)
{
	add(" flags=");
	int any = 0;
	if (f & MSG_NOTIFICATION) {
		add("NOTIFICATION");
		any = 1;
	}
	if (f & MSG_EOR) {
		add("%sEOR", any ? "|" : "");
		any = 1;
	}
	if (f & MSG_CTRUNC) {
		add("%sCTRUNC", any ? "|" : "");
		any = 1;
	}
	if (f & MSG_TRUNC) {
		add("%sTRUNC", any ? "|" : "");
		any = 1;
	}
	int rest = f & ~(MSG_NOTIFICATION | MSG_EOR | MSG_CTRUNC | MSG_TRUNC);
	if (rest)
		add("%s0x%x", any ? "|" : "", rest);
	else if (!any)
		add("0");
}

static const char *
sndflags(unsigned f)
{
	static char buf[64];
	buf[0] = '\0';
	if (f & SCTP_UNORDERED)
		strcat(buf, "U");
	if (f & SCTP_NOTIFICATION)
		strcat(buf, "N");
	unsigned rest = f & ~(unsigned)(SCTP_UNORDERED | SCTP_NOTIFICATION);
	if (rest)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "+0x%x", rest);
	return buf[0] ? buf : "0";
}

static void
ms_sleep(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* ------------------------------------------------------------------ sockets */

static struct sockaddr_in peer_addr; /* client: the server's address */

static struct sockaddr_in
addr4(const char *host, int port)
{
	struct sockaddr_in a;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	if (host == NULL)
		a.sin_addr.s_addr = htonl(INADDR_ANY);
	else if (inet_pton(AF_INET, host, &a.sin_addr) != 1)
		die("bad address %s", host);
	return a;
}

static int
sctp_sock(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	if (fd < 0)
		die("socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP)");
	return fd;
}

static void
set_int(int fd, int level, int name, int v)
{
	if (setsockopt(fd, level, name, &v, sizeof(v)) != 0)
		die("setsockopt(%d, %d) = %d", level, name, v);
}

static void
set_timeo(int fd, int name, int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	if (setsockopt(fd, SOL_SOCKET, name, &tv, sizeof(tv)) != 0)
		die("setsockopt SO_*TIMEO");
}

static void
subscribe(int fd, uint16_t type, int on)
{
	struct sctp_event e;
	memset(&e, 0, sizeof(e));
	e.se_type = type;
	e.se_on = (uint8_t)on;
	if (setsockopt(fd, IPPROTO_SCTP, SCTP_EVENT, &e, sizeof(e)) != 0)
		die("SCTP_EVENT %u", type);
}

static void
set_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
}

static short
poll_now(int fd, short events, int ms)
{
	struct pollfd p = { fd, events, 0 };
	int rc = poll(&p, 1, ms);
	return rc > 0 ? p.revents : 0;
}

/* The readiness a program sees: everything poll() reports, at once. */
static void
add_ready(int fd)
{
	add_revents("ready", poll_now(fd, POLLIN | POLLOUT | POLLRDHUP, 0));
}

static void
add_so_error(int fd)
{
	int e = -1;
	socklen_t l = sizeof(e);
	int rc = getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &l);
	if (rc != 0)
		add(" so_error=fail:%s", errname(errno));
	else
		add(" so_error=%s", e == 0 ? "0" : errname(e));
}

/* ------------------------------------------------------------------ messages */

static uint8_t
pat(int k, size_t i)
{
	return (uint8_t)(k * 37 + (int)i * 7 + 1);
}

static void
fill(uint8_t *b, int k, size_t len)
{
	for (size_t i = 0; i < len; i++)
		b[i] = pat(k, i);
}

enum cm { CM_NONE, CM_SNDINFO, CM_SNDRCV };

/* One message: pattern k, len bytes, its stream, PPID (host order) and flags
 * in the control message cm asks for. The return of sendmsg(). */
static ssize_t
send_msg(int fd, int k, size_t len, enum cm cm, uint16_t sid, uint32_t ppid, uint16_t flags,
	 uint32_t context)
{
	static uint8_t buf[65536];
	fill(buf, k, len);
	struct iovec v = { buf, len };
	union {
		char b[CMSG_SPACE(sizeof(struct sctp_sndrcvinfo))];
		struct cmsghdr align;
	} u;
	memset(&u, 0, sizeof(u));
	struct msghdr mh = { .msg_iov = &v, .msg_iovlen = 1 };
	if (cm != CM_NONE) {
		struct cmsghdr *c = (struct cmsghdr *)u.b;
		c->cmsg_level = IPPROTO_SCTP;
		if (cm == CM_SNDINFO) {
			struct sctp_sndinfo si = { .snd_sid = sid,
						   .snd_flags = flags,
						   .snd_ppid = htonl(ppid),
						   .snd_context = context };
			c->cmsg_type = SCTP_SNDINFO;
			c->cmsg_len = CMSG_LEN(sizeof(si));
			memcpy(CMSG_DATA(c), &si, sizeof(si));
			mh.msg_controllen = CMSG_SPACE(sizeof(si));
		} else {
			struct sctp_sndrcvinfo sr;
			memset(&sr, 0, sizeof(sr));
			sr.sinfo_stream = sid;
			sr.sinfo_flags = flags;
			sr.sinfo_ppid = htonl(ppid);
			sr.sinfo_context = context;
			c->cmsg_type = SCTP_SNDRCV;
			c->cmsg_len = CMSG_LEN(sizeof(sr));
			memcpy(CMSG_DATA(c), &sr, sizeof(sr));
			mh.msg_controllen = CMSG_SPACE(sizeof(sr));
		}
		mh.msg_control = u.b;
	}
	return sendmsg(fd, &mh, MSG_NOSIGNAL); /* errno: sendmsg()'s */
}

static void
add_notification(const uint8_t *b, size_t n)
{
	if (n < 8) {
		add(" notif=short");
		return;
	}
	union sctp_notification sn;
	memcpy(&sn, b, n < sizeof(sn) ? n : sizeof(sn));
	const __typeof__(sn.sn_header) *h = &sn.sn_header;
	switch (h->sn_type) {
	case SCTP_ASSOC_CHANGE: {
		const struct sctp_assoc_change *ac = (const void *)b;
		static const char *st[] = { "COMM_UP", "COMM_LOST", "RESTART", "SHUTDOWN_COMP",
					    "CANT_STR_ASSOC" };
		add(" notif=ASSOC_CHANGE nflags=%u nlen=%u", ac->sac_flags, ac->sac_length);
		if (ac->sac_state < 5)
			add(" state=%s", st[ac->sac_state]);
		else
			add(" state=%u", ac->sac_state);
		add(" error=%u out=%u in=%u", ac->sac_error, ac->sac_outbound_streams,
		    ac->sac_inbound_streams);
		size_t info = ac->sac_length > sizeof(*ac) && ac->sac_length <= n
				      ? ac->sac_length - sizeof(*ac)
				      : 0;
		add(" info=");
		if (info == 0)
			add("-");
		for (size_t i = 0; i < info; i++)
			add("%02x", ac->sac_info[i]);
		break;
	}
	case SCTP_SHUTDOWN_EVENT: {
		const struct sctp_shutdown_event *se = (const void *)b;
		add(" notif=SHUTDOWN_EVENT nflags=%u nlen=%u", se->sse_flags, se->sse_length);
		break;
	}
	default:
		add(" notif=type%u nflags=%u nlen=%u", h->sn_type, h->sn_flags, h->sn_length);
	}
	if (h->sn_length != n)
		add(" rc_vs_nlen=differ");
}

/*
 * One recvmsg() into a buffer of cap bytes, everything it says: rc, errno,
 * msg_flags, the address's family and length, the control messages
 * (sorted by type: their order is no API), and either the notification or
 * whether the data is message k's bytes from offset off on.
 */
static ssize_t
recv_add(int fd, size_t cap, int flags, int k, size_t off)
{
	static uint8_t buf[65536];
	union {
		char b[1024];
		struct cmsghdr align;
	} u;
	struct sockaddr_storage from;
	memset(&from, 0xee, sizeof(from));
	/* Zeros: a stack that leaves msg_controllen as it was (a 0 return) shows
	 * one empty header, the same every run. */
	memset(&u, 0, sizeof(u));
	struct iovec v = { buf, cap };
	struct msghdr mh = { .msg_name = &from,
			     .msg_namelen = sizeof(from),
			     .msg_iov = &v,
			     .msg_iovlen = 1,
			     .msg_control = u.b,
			     .msg_controllen = sizeof(u.b) };
	ssize_t rc = recvmsg(fd, &mh, flags);
	int e = errno;
	add_rc(rc, e);
	if (rc < 0)
		return rc;
	add_msgflags(mh.msg_flags);
	if (mh.msg_namelen == 0)
		add(" from=none");
	else
		add(" from=%s/%u",
		    from.ss_family == AF_INET	 ? "AF_INET"
		    : from.ss_family == AF_INET6 ? "AF_INET6"
						 : "other",
		    (unsigned)mh.msg_namelen);
	struct sctp_sndrcvinfo sr;
	struct sctp_rcvinfo ri;
	struct sctp_nxtinfo ni;
	int have_sr = 0, have_ri = 0, have_ni = 0, other = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c != NULL; c = CMSG_NXTHDR(&mh, c)) {
		size_t l = c->cmsg_len - CMSG_LEN(0);
		if (c->cmsg_level == IPPROTO_SCTP && c->cmsg_type == SCTP_SNDRCV &&
		    l >= sizeof(sr)) {
			memcpy(&sr, CMSG_DATA(c), sizeof(sr));
			have_sr++;
		} else if (c->cmsg_level == IPPROTO_SCTP && c->cmsg_type == SCTP_RCVINFO &&
			   l >= sizeof(ri)) {
			memcpy(&ri, CMSG_DATA(c), sizeof(ri));
			have_ri++;
		} else if (c->cmsg_level == IPPROTO_SCTP && c->cmsg_type == SCTP_NXTINFO &&
			   l >= sizeof(ni)) {
			memcpy(&ni, CMSG_DATA(c), sizeof(ni));
			have_ni++;
		} else {
			other++;
		}
	}
	int unordered = 0;
	if (have_sr) {
		/* The SSN of an unordered message means nothing (RFC 9260 §6.6). */
		unordered = (sr.sinfo_flags & SCTP_UNORDERED) != 0;
		add(" sndrcv=sid:%u,ssn:", sr.sinfo_stream);
		if (unordered)
			add("-");
		else
			add("%u", sr.sinfo_ssn);
		add(",flags:%s,ppid:%u,context:%u", sndflags(sr.sinfo_flags), ntohl(sr.sinfo_ppid),
		    sr.sinfo_context);
		if (have_sr > 1)
			add("(x%d)", have_sr);
	}
	if (have_ri) {
		unordered = (ri.rcv_flags & SCTP_UNORDERED) != 0;
		add(" rcvinfo=sid:%u,ssn:", ri.rcv_sid);
		if (unordered)
			add("-");
		else
			add("%u", ri.rcv_ssn);
		add(",flags:%s,ppid:%u,context:%u", sndflags(ri.rcv_flags), ntohl(ri.rcv_ppid),
		    ri.rcv_context);
		if (have_ri > 1)
			add("(x%d)", have_ri);
	}
	if (have_ni) {
		add(" nxtinfo=sid:%u,flags:%s,ppid:%u,length:%u", ni.nxt_sid,
		    sndflags(ni.nxt_flags), ntohl(ni.nxt_ppid), ni.nxt_length);
		if (have_ni > 1)
			add("(x%d)", have_ni);
	}
	if (other)
		add(" other_cmsgs=%d", other);
	if (!have_sr && !have_ri && !have_ni && !other)
		add(" cmsgs=none");
	if (mh.msg_flags & MSG_NOTIFICATION) {
		add_notification(buf, (size_t)rc);
	} else if (k >= 0) {
		int ok = 1;
		for (ssize_t i = 0; i < rc; i++)
			ok &= buf[i] == pat(k, off + (size_t)i);
		add(" data=%s", ok ? "ok" : "BAD");
	}
	return rc;
}

/* One receive as a case of its own. */
static ssize_t
recv_case(const char *name, int fd, size_t cap, int flags, int k, size_t off)
{
	begin(name);
	ssize_t rc = recv_add(fd, cap, flags, k, off);
	end();
	return rc;
}

/*
 * What a socket gives, read after read, once its association has ended or
 * is ending: blocking reads, the first waiting WAIT_S at most (the end may
 * take a while on a loaded machine), the others SEQ_MS, until one returns
 * 0, an error repeats, or five. Each in brackets.
 */
static void
add_seq(int fd)
{
	int last = 0;
	for (int i = 0; i < 5; i++) {
		set_timeo(fd, SO_RCVTIMEO, i == 0 ? WAIT_S * 1000 : SEQ_MS);
		add(" [");
		errno = 0;
		ssize_t rc = recv_add(fd, 4096, 0, -1, 0);
		int e = errno;
		add(" ]");
		if (rc == 0)
			break;
		if (rc < 0) {
			if (e == last)
				break;
			last = e;
		} else {
			last = 0;
		}
	}
}

/* Wait for the other role's message "what" (the data: message k). */
static void
wait_go(const char *name, int fd, int k, size_t len)
{
	begin(name);
	ssize_t rc = recv_add(fd, 4096, 0, k, 0);
	end();
	if (rc != (ssize_t)len)
		die("%s: expected the peer's %zu-byte message", name, len);
}

static void
send_go(const char *name, int fd, int k, size_t len)
{
	begin(name);
	ssize_t rc = send_msg(fd, k, len, CM_NONE, 0, 0, 0, 0);
	add_rc(rc, errno);
	end();
	if (rc != (ssize_t)len)
		die("%s: send", name);
}

/* ------------------------------------------------------------------ options */

static void
add_getint(int fd, int level, int name, socklen_t len)
{
	int v[2] = { -7, -7 };
	socklen_t l = len;
	int rc = getsockopt(fd, level, name, v, &l);
	int e = errno;
	add_rc(rc, e);
	if (rc == 0)
		add(" value=%d len=%u", v[0], (unsigned)l);
}

static void
add_setint(int fd, int level, int name, int v, socklen_t len)
{
	int b[2] = { v, 0 };
	int rc = setsockopt(fd, level, name, b, len);
	ADD_RC(rc);
}

static void
add_initmsg(int fd)
{
	struct sctp_initmsg im;
	memset(&im, 0, sizeof(im));
	socklen_t l = sizeof(im);
	int rc = getsockopt(fd, IPPROTO_SCTP, SCTP_INITMSG, &im, &l);
	int e = errno;
	add(" get:");
	add_rc(rc, e);
	if (rc == 0)
		add(" ostreams=%u instreams=%u attempts=%u timeo=%u", im.sinit_num_ostreams,
		    im.sinit_max_instreams, im.sinit_max_attempts, im.sinit_max_init_timeo);
}

static void
add_events(int fd, socklen_t len)
{
	uint8_t b[sizeof(struct sctp_event_subscribe) + 8];
	memset(b, 0x55, sizeof(b));
	socklen_t l = len;
	int rc = getsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, b, &l);
	int e = errno;
	add(" get%u:", (unsigned)len);
	add_rc(rc, e);
	if (rc == 0) {
		add(" len=%u bits=", (unsigned)l);
		for (socklen_t i = 0; i < l && i < sizeof(b); i++)
			add("%u", b[i]);
	}
}

/* ------------------------------------------------------------------ client: local cases */

static void
local_cases(void)
{
	int fd, e;

	/* socket(): the types an SCTP program asks for, and what it reads back. */
	static const struct {
		const char *name;
		int domain, type;
	} kinds[] = {
		{ "cli.socket_inet_stream", AF_INET, SOCK_STREAM },
		{ "cli.socket_inet6_stream", AF_INET6, SOCK_STREAM },
		{ "cli.socket_inet_seqpacket", AF_INET, SOCK_SEQPACKET },
		{ "cli.socket_inet_dgram", AF_INET, SOCK_DGRAM },
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		begin(kinds[i].name);
		fd = socket(kinds[i].domain, kinds[i].type, IPPROTO_SCTP);
		e = errno;
		add_fd(fd, e);
		if (fd >= 0) {
			add(" SO_TYPE:");
			add_getint(fd, SOL_SOCKET, SO_TYPE, sizeof(int));
			add(" SO_PROTOCOL:");
			add_getint(fd, SOL_SOCKET, SO_PROTOCOL, sizeof(int));
			add(" SO_DOMAIN:");
			add_getint(fd, SOL_SOCKET, SO_DOMAIN, sizeof(int));
			add(" SO_ACCEPTCONN:");
			add_getint(fd, SOL_SOCKET, SO_ACCEPTCONN, sizeof(int));
			if (kinds[i].domain == AF_INET6) {
				add(" IPV6_V6ONLY:");
				add_getint(fd, IPPROTO_IPV6, IPV6_V6ONLY, sizeof(int));
			}
			close(fd);
		}
		end();
	}

	begin("cli.socket_nonblock_cloexec");
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_SCTP);
	ADD_FD(fd);
	if (fd >= 0) {
		add(" nonblock=%d cloexec=%d", (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0,
		    (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
		add(" SO_TYPE:");
		add_getint(fd, SOL_SOCKET, SO_TYPE, sizeof(int));
		close(fd);
	}
	end();

	/* Options on a socket with no association. */
	fd = sctp_sock();

	begin("cli.opt_nodelay");
	add(" set1:");
	add_setint(fd, IPPROTO_SCTP, SCTP_NODELAY, 1, sizeof(int));
	add(" get:");
	add_getint(fd, IPPROTO_SCTP, SCTP_NODELAY, sizeof(int));
	add(" get8:");
	add_getint(fd, IPPROTO_SCTP, SCTP_NODELAY, 8);
	add(" set0:");
	add_setint(fd, IPPROTO_SCTP, SCTP_NODELAY, 0, sizeof(int));
	add(" get:");
	add_getint(fd, IPPROTO_SCTP, SCTP_NODELAY, sizeof(int));
	end();

	begin("cli.opt_nodelay_badlen");
	add(" set2:");
	add_setint(fd, IPPROTO_SCTP, SCTP_NODELAY, 1, 2);
	add(" get2:");
	add_getint(fd, IPPROTO_SCTP, SCTP_NODELAY, 2);
	end();

	begin("cli.opt_initmsg");
	{
		struct sctp_initmsg im = { .sinit_num_ostreams = 5,
					   .sinit_max_instreams = 7,
					   .sinit_max_attempts = 3,
					   .sinit_max_init_timeo = 2000 };
		add(" set:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_INITMSG, &im, sizeof(im)));
		add_initmsg(fd);
	}
	end();

	/* RFC 6458 §8.1.3: 0 in a field leaves that value as it was. */
	begin("cli.opt_initmsg_zero_keeps");
	{
		struct sctp_initmsg im = { .sinit_num_ostreams = 6 };
		add(" set:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_INITMSG, &im, sizeof(im)));
		add_initmsg(fd);
	}
	end();

	begin("cli.opt_initmsg_badlen");
	{
		uint8_t b[sizeof(struct sctp_initmsg) + 4];
		memset(b, 0, sizeof(b));
		((struct sctp_initmsg *)(void *)b)->sinit_num_ostreams = 9;
		add(" set_short:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_INITMSG, b, 4));
		add(" set_long:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_INITMSG, b, sizeof(b)));
		socklen_t l = 4;
		add(" get_short:");
		ADD_RC(getsockopt(fd, IPPROTO_SCTP, SCTP_INITMSG, b, &l));
		add_initmsg(fd);
	}
	end();

	begin("cli.opt_events");
	{
		struct sctp_event_subscribe s;
		memset(&s, 0, sizeof(s));
		s.sctp_data_io_event = 1;
		s.sctp_association_event = 1;
		add(" set:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, &s, sizeof(s)));
		add_events(fd, sizeof(s));
	}
	end();

	/* A shorter struct (an older program's): the first bytes only, the rest kept. */
	begin("cli.opt_events_short");
	{
		uint8_t b[3] = { 0, 1, 1 };
		add(" set3:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, b, sizeof(b)));
		add_events(fd, sizeof(struct sctp_event_subscribe));
		add_events(fd, 3);
	}
	end();

	begin("cli.opt_events_badlen");
	{
		uint8_t b[sizeof(struct sctp_event_subscribe) + 1];
		memset(b, 0, sizeof(b));
		add(" set_long:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, b, sizeof(b)));
		add(" set0:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, b, 0));
		add_events(fd, 0);
		add_events(fd, sizeof(struct sctp_event_subscribe) + 4);
	}
	end();

	begin("cli.opt_event");
	{
		struct sctp_event ev = { .se_type = SCTP_SHUTDOWN_EVENT, .se_on = 1 };
		add(" set:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_EVENT, &ev, sizeof(ev)));
		struct sctp_event g = { .se_type = SCTP_SHUTDOWN_EVENT };
		socklen_t l = sizeof(g);
		add(" get:");
		ADD_RC(getsockopt(fd, IPPROTO_SCTP, SCTP_EVENT, &g, &l));
		add(" on=%u len=%u", g.se_on, (unsigned)l);
		g.se_type = SCTP_PEER_ADDR_CHANGE;
		g.se_on = 9;
		l = sizeof(g);
		add(" get_addr:");
		ADD_RC(getsockopt(fd, IPPROTO_SCTP, SCTP_EVENT, &g, &l));
		add(" on=%u", g.se_on);
		add_events(fd, sizeof(struct sctp_event_subscribe));
	}
	end();

	begin("cli.opt_event_bad");
	{
		struct sctp_event ev = { .se_type = 0x1234, .se_on = 1 };
		add(" set_type:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_EVENT, &ev, sizeof(ev)));
		ev.se_type = SCTP_SHUTDOWN_EVENT;
		add(" set_short:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_EVENT, &ev, 4));
		socklen_t l = 4;
		add(" get_short:");
		ADD_RC(getsockopt(fd, IPPROTO_SCTP, SCTP_EVENT, &ev, &l));
	}
	end();

	begin("cli.opt_recvrcvinfo");
	add(" set:");
	add_setint(fd, IPPROTO_SCTP, SCTP_RECVRCVINFO, 1, sizeof(int));
	add(" get:");
	add_getint(fd, IPPROTO_SCTP, SCTP_RECVRCVINFO, sizeof(int));
	add(" nxt_get:");
	add_getint(fd, IPPROTO_SCTP, SCTP_RECVNXTINFO, sizeof(int));
	end();

	begin("cli.opt_default_sndinfo");
	{
		struct sctp_sndinfo si = { .snd_sid = 2,
					   .snd_flags = SCTP_UNORDERED,
					   .snd_ppid = htonl(77),
					   .snd_context = 5 };
		add(" set:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_DEFAULT_SNDINFO, &si, sizeof(si)));
		struct sctp_sndinfo g;
		memset(&g, 0, sizeof(g));
		socklen_t l = sizeof(g);
		add(" get:");
		ADD_RC(getsockopt(fd, IPPROTO_SCTP, SCTP_DEFAULT_SNDINFO, &g, &l));
		add(" sid=%u flags=%s ppid=%u context=%u len=%u", g.snd_sid, sndflags(g.snd_flags),
		    ntohl(g.snd_ppid), g.snd_context, (unsigned)l);
	}
	end();

	/* Flags RFC 6458 §5.3.4 does not define; a length that is no sctp_sndinfo. */
	begin("cli.opt_default_sndinfo_bad");
	{
		uint8_t b[sizeof(struct sctp_sndinfo) + 4];
		memset(b, 0, sizeof(b));
		struct sctp_sndinfo *si = (struct sctp_sndinfo *)b;
		si->snd_flags = 0x4000;
		add(" set_badflag:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_DEFAULT_SNDINFO, b, sizeof(*si)));
		si->snd_flags = 0;
		si->snd_sid = 1;
		add(" set_long:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_DEFAULT_SNDINFO, b, sizeof(b)));
		add(" set_short:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_DEFAULT_SNDINFO, b, 4));
		struct sctp_sndinfo g;
		memset(&g, 0, sizeof(g));
		socklen_t l = sizeof(g);
		add(" get:");
		ADD_RC(getsockopt(fd, IPPROTO_SCTP, SCTP_DEFAULT_SNDINFO, &g, &l));
		add(" sid=%u flags=%s", g.snd_sid, sndflags(g.snd_flags));
	}
	end();

	begin("cli.opt_linger");
	{
		struct linger l0 = { 1, 0 }, l2 = { 2, 7 }, g;
		socklen_t l = sizeof(g);
		add(" set1_0:");
		ADD_RC(setsockopt(fd, SOL_SOCKET, SO_LINGER, &l0, sizeof(l0)));
		add(" get:");
		ADD_RC(getsockopt(fd, SOL_SOCKET, SO_LINGER, &g, &l));
		add(" onoff=%d linger=%d", g.l_onoff, g.l_linger);
		add(" set2_7:");
		ADD_RC(setsockopt(fd, SOL_SOCKET, SO_LINGER, &l2, sizeof(l2)));
		l = sizeof(g);
		add(" get:");
		ADD_RC(getsockopt(fd, SOL_SOCKET, SO_LINGER, &g, &l));
		add(" onoff=%d linger=%d", g.l_onoff, g.l_linger);
		struct linger off = { 0, 0 };
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &off, sizeof(off));
	}
	end();

	begin("cli.opt_rcvtimeo");
	{
		struct timeval tv = { 1, 500000 }, g;
		socklen_t l = sizeof(g);
		add(" set:");
		ADD_RC(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
		add(" get:");
		ADD_RC(getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &g, &l));
		add(" sec=%ld usec=%ld len=%u", (long)g.tv_sec, (long)g.tv_usec, (unsigned)l);
		add(" set_short:");
		ADD_RC(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, 4));
		struct timeval bad = { 0, 1000000 };
		add(" set_usec1e6:");
		ADD_RC(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &bad, sizeof(bad)));
		struct timeval zero = { 0, 0 };
		add(" set0:");
		ADD_RC(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &zero, sizeof(zero)));
		l = sizeof(g);
		add(" get:");
		ADD_RC(getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &g, &l));
		add(" sec=%ld usec=%ld", (long)g.tv_sec, (long)g.tv_usec);
	}
	end();

	begin("cli.opt_sndtimeo");
	{
		struct timeval tv = { 2, 500000 }, g;
		socklen_t l = sizeof(g);
		add(" set:");
		ADD_RC(setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)));
		add(" get:");
		ADD_RC(getsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &g, &l));
		add(" sec=%ld usec=%ld", (long)g.tv_sec, (long)g.tv_usec);
		struct timeval zero = { 0, 0 };
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &zero, sizeof(zero));
	}
	end();

	/* SCTP-AUTH (RFC 4895): a key set on a socket. */
	begin("cli.opt_auth_key");
	{
		uint8_t b[sizeof(struct sctp_authkey) + 4];
		memset(b, 0, sizeof(b));
		struct sctp_authkey *k = (struct sctp_authkey *)(void *)b;
		k->sca_keynumber = 1;
		k->sca_keylength = 4;
		memcpy(b + sizeof(*k), "keyk", 4);
		add(" set:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_AUTH_KEY, b, sizeof(b)));
		struct sctp_authkeyid id = { .scact_keynumber = 0 };
		socklen_t l = sizeof(id);
		add(" get_active_key:");
		ADD_RC(getsockopt(fd, IPPROTO_SCTP, SCTP_AUTH_ACTIVE_KEY, &id, &l));
	}
	end();

	begin("cli.opt_unknown");
	add(" set:");
	add_setint(fd, IPPROTO_SCTP, 9999, 1, sizeof(int));
	add(" get:");
	add_getint(fd, IPPROTO_SCTP, 9999, sizeof(int));
	end();

	begin("cli.opt_disable_fragments");
	add(" set1:");
	add_setint(fd, IPPROTO_SCTP, SCTP_DISABLE_FRAGMENTS, 1, sizeof(int));
	add(" get:");
	add_getint(fd, IPPROTO_SCTP, SCTP_DISABLE_FRAGMENTS, sizeof(int));
	add(" set0:");
	add_setint(fd, IPPROTO_SCTP, SCTP_DISABLE_FRAGMENTS, 0, sizeof(int));
	end();

	begin("cli.opt_status_fresh");
	{
		struct sctp_status st;
		memset(&st, 0, sizeof(st));
		socklen_t l = sizeof(st);
		ADD_RC(getsockopt(fd, IPPROTO_SCTP, SCTP_STATUS, &st, &l));
	}
	end();

	/* Calls that need an association, on a socket that has none. */
	begin("cli.getpeername_fresh");
	{
		struct sockaddr_storage ss;
		socklen_t l = sizeof(ss);
		ADD_RC(getpeername(fd, (struct sockaddr *)&ss, &l));
	}
	end();

	begin("cli.recv_fresh");
	{
		char b[16];
		add(" recv:");
		ADD_RC(recv(fd, b, sizeof(b), MSG_DONTWAIT));
		add(" recvmsg:");
		recv_add(fd, sizeof(b), MSG_DONTWAIT, -1, 0);
		/* Blocking (at most 300 ms): nothing can come on a socket without an
		 * association. */
		set_timeo(fd, SO_RCVTIMEO, 300);
		add(" recv_blocking:");
		ADD_RC(recv(fd, b, sizeof(b), 0));
		set_timeo(fd, SO_RCVTIMEO, 0);
	}
	end();

	begin("cli.send_fresh");
	ADD_RC(send(fd, "x", 1, MSG_NOSIGNAL));
	end();

	begin("cli.shutdown_fresh");
	ADD_RC(shutdown(fd, SHUT_WR));
	end();

	begin("cli.poll_fresh");
	add_ready(fd);
	end();

	begin("cli.accept_fresh");
	{
		int nfd = accept(fd, NULL, NULL);
		ADD_FD(nfd);
		if (nfd >= 0)
			close(nfd);
	}
	end();

	begin("cli.bind_twice");
	{
		struct sockaddr_in a = addr4(NULL, 0);
		add(" first:");
		ADD_RC(bind(fd, (struct sockaddr *)&a, sizeof(a)));
		add(" second:");
		ADD_RC(bind(fd, (struct sockaddr *)&a, sizeof(a)));
		struct sockaddr_storage ss;
		socklen_t l = sizeof(ss);
		add(" getsockname:");
		ADD_RC(getsockname(fd, (struct sockaddr *)&ss, &l));
		add(" family=%s len=%u", ss.ss_family == AF_INET ? "AF_INET" : "other",
		    (unsigned)l);
	}
	end();
	close(fd);

	/* listen(), then accept() with nothing to accept. */
	begin("cli.listen_accept_nonblock");
	{
		fd = sctp_sock();
		struct sockaddr_in a = addr4(NULL, 0);
		add(" bind:");
		ADD_RC(bind(fd, (struct sockaddr *)&a, sizeof(a)));
		add(" listen:");
		ADD_RC(listen(fd, 4));
		add(" SO_ACCEPTCONN:");
		add_getint(fd, SOL_SOCKET, SO_ACCEPTCONN, sizeof(int));
		struct sockaddr_in got;
		socklen_t l = sizeof(got);
		getsockname(fd, (struct sockaddr *)&got, &l);
		add(" port=%s", got.sin_port != 0 ? "nonzero" : "0");
		set_nonblock(fd, 1);
		add(" accept:");
		ADD_FD(accept(fd, NULL, NULL));
		add_ready(fd);
		add(" recv:");
		char b[8];
		ADD_RC(recv(fd, b, sizeof(b), 0));
		add(" connect:");
		struct sockaddr_in to = peer_addr;
		ADD_RC(connect(fd, (struct sockaddr *)&to, sizeof(to)));
		add(" listen_again:");
		ADD_RC(listen(fd, 8));
		close(fd);
	}
	end();
}

/* ------------------------------------------------------------------ client: associations */

static void
add_status(int fd)
{
	struct sctp_status st;
	memset(&st, 0, sizeof(st));
	socklen_t l = sizeof(st);
	int rc = getsockopt(fd, IPPROTO_SCTP, SCTP_STATUS, &st, &l);
	int e = errno;
	add_rc(rc, e);
	if (rc != 0)
		return;
	static const char *states[] = { "EMPTY",
					"CLOSED",
					"COOKIE_WAIT",
					"COOKIE_ECHOED",
					"ESTABLISHED",
					"SHUTDOWN_PENDING",
					"SHUTDOWN_SENT",
					"SHUTDOWN_RECEIVED",
					"SHUTDOWN_ACK_SENT" };
	if (st.sstat_state >= 0 && st.sstat_state < 9)
		add(" state=%s", states[st.sstat_state]);
	else
		add(" state=%d", st.sstat_state);
	add(" instrms=%u outstrms=%u", st.sstat_instrms, st.sstat_outstrms);
	add(" primary_family=%s primary_state=%d len=%u",
	    st.sstat_primary.spinfo_address.ss_family == AF_INET ? "AF_INET" : "other",
	    st.sstat_primary.spinfo_state, (unsigned)l);
}

static void
connect_refused(int port)
{
	struct sockaddr_in to = peer_addr;
	to.sin_port = htons((uint16_t)port);

	/* Blocking: the peer's ABORT (RFC 9260 §8.4) is the refusal. */
	begin("cli.connect_refused");
	{
		int fd = sctp_sock();
		add(" connect:");
		ADD_RC(connect(fd, (struct sockaddr *)&to, sizeof(to)));
		add_so_error(fd);
		add_ready(fd);
		add(" recv:");
		char b[8];
		ADD_RC(recv(fd, b, sizeof(b), MSG_DONTWAIT));
		add(" send:");
		ADD_RC(send(fd, "x", 1, MSG_NOSIGNAL));
		close(fd);
	}
	end();

	/* Non-blocking, with ASSOC_CHANGE subscribed: CANT_STR_ASSOC is queued. */
	begin("cli.connect_refused_nonblock");
	{
		int fd = sctp_sock();
		subscribe(fd, SCTP_ASSOC_CHANGE, 1);
		set_nonblock(fd, 1);
		add(" connect:");
		ADD_RC(connect(fd, (struct sockaddr *)&to, sizeof(to)));
		add_revents("pollout", poll_now(fd, POLLOUT, WAIT_S * 1000));
		ms_sleep(200);
		add_ready(fd);
		add_so_error(fd);
		add(" recvmsg:");
		recv_add(fd, 4096, MSG_DONTWAIT, -1, 0);
		add(" connect_again:");
		ADD_RC(connect(fd, (struct sockaddr *)&to, sizeof(to)));
		close(fd);
	}
	end();
}

/*
 * The main association: a non-blocking connect, options and notifications,
 * messages both ways with their control messages, partial reads, PEEK,
 * NXTINFO, then a graceful shutdown by the client.
 */
static void
client_main(int port)
{
	struct sockaddr_in to = peer_addr;
	to.sin_port = htons((uint16_t)port);
	int fd = sctp_sock();
	{
		struct sctp_initmsg im = { .sinit_num_ostreams = 5, .sinit_max_instreams = 7 };
		if (setsockopt(fd, IPPROTO_SCTP, SCTP_INITMSG, &im, sizeof(im)) != 0)
			die("SCTP_INITMSG");
		struct sctp_event_subscribe s;
		memset(&s, 0, sizeof(s));
		s.sctp_data_io_event = 1;
		s.sctp_association_event = 1;
		s.sctp_shutdown_event = 1;
		if (setsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, &s, sizeof(s)) != 0)
			die("SCTP_EVENTS");
	}

	begin("cli.connect_nonblock");
	set_nonblock(fd, 1);
	add(" connect:");
	ADD_RC(connect(fd, (struct sockaddr *)&to, sizeof(to)));
	add_revents("pollout", poll_now(fd, POLLOUT, WAIT_S * 1000));
	add_so_error(fd);
	ms_sleep(100);
	add_ready(fd);
	add(" connect_again:");
	ADD_RC(connect(fd, (struct sockaddr *)&to, sizeof(to)));
	{
		struct sockaddr_storage ss;
		socklen_t l = sizeof(ss);
		add(" getpeername:");
		ADD_RC(getpeername(fd, (struct sockaddr *)&ss, &l));
		add(" family=%s len=%u", ss.ss_family == AF_INET ? "AF_INET" : "other",
		    (unsigned)l);
	}
	end();
	set_nonblock(fd, 0);
	set_timeo(fd, SO_RCVTIMEO, WAIT_S * 1000);

	/* INITMSG both sides: out = min(our 5, the server's 4 in), in = min(its 3 out, our 7). */
	recv_case("cli.comm_up", fd, 4096, 0, -1, 0);

	begin("cli.status");
	add_status(fd);
	end();

	begin("cli.recv_nonblock_empty");
	{
		char b[8];
		ADD_RC(recv(fd, b, sizeof(b), MSG_DONTWAIT));
	}
	end();

	wait_go("cli.go1", fd, 101, 3);

	begin("cli.send_m1_sndinfo");
	ADD_RC(send_msg(fd, 1, 64, CM_SNDINFO, 2, 1234, 0, 9));
	end();
	begin("cli.send_m2_sndrcv_unordered");
	ADD_RC(send_msg(fd, 2, 100, CM_SNDRCV, 1, 42, SCTP_UNORDERED, 0));
	end();

	wait_go("cli.go2", fd, 102, 3);

	begin("cli.send_m3_m4");
	ADD_RC(send_msg(fd, 3, 300, CM_SNDINFO, 3, 7, 0, 0));
	ADD_RC(send_msg(fd, 4, 20, CM_SNDINFO, 0, 8, SCTP_UNORDERED, 0));
	end();

	wait_go("cli.go3", fd, 103, 3);

	/* SCTP_DEFAULT_SNDINFO on the association: a plain send() uses it. */
	begin("cli.send_m5_default_sndinfo");
	{
		struct sctp_sndinfo si = { .snd_sid = 1, .snd_ppid = htonl(99) };
		add(" set:");
		ADD_RC(setsockopt(fd, IPPROTO_SCTP, SCTP_DEFAULT_SNDINFO, &si, sizeof(si)));
		uint8_t b[10];
		fill(b, 5, sizeof(b));
		add(" send:");
		ADD_RC(send(fd, b, sizeof(b), MSG_NOSIGNAL));
	}
	end();

	/* A stream the association does not have (4 out): RFC 6458 §5.3.4 / Linux EINVAL. */
	begin("cli.send_bad_stream");
	ADD_RC(send_msg(fd, 9, 10, CM_SNDINFO, 10, 1, 0, 0));
	ms_sleep(300);
	add_so_error(fd);
	end();

	/* The server's message on stream 2, unordered, PPID 555: SCTP_SNDRCV alone. */
	recv_case("cli.recv_m6", fd, 4096, 0, 6, 0);

	begin("cli.rcvtimeo_expires");
	{
		set_timeo(fd, SO_RCVTIMEO, 300);
		char b[8];
		ADD_RC(recv(fd, b, sizeof(b), 0));
		set_timeo(fd, SO_RCVTIMEO, WAIT_S * 1000);
	}
	end();

	begin("cli.shutdown_wr");
	ADD_RC(shutdown(fd, SHUT_WR));
	end();

	/* What comes: SHUTDOWN_COMP, then the end. */
	ms_sleep(SETTLE_MS);
	begin("cli.after_shutdown");
	add_seq(fd);
	end();

	begin("cli.after_shutdown_calls");
	add_ready(fd);
	add_so_error(fd);
	add(" send:");
	ADD_RC(send(fd, "x", 1, MSG_NOSIGNAL));
	add(" status:");
	{
		struct sctp_status st;
		socklen_t l = sizeof(st);
		ADD_RC(getsockopt(fd, IPPROTO_SCTP, SCTP_STATUS, &st, &l));
	}
	add(" shutdown:");
	ADD_RC(shutdown(fd, SHUT_WR));
	{
		struct sockaddr_storage ss;
		socklen_t l = sizeof(ss);
		add(" getpeername:");
		ADD_RC(getpeername(fd, (struct sockaddr *)&ss, &l));
	}
	end();
	close(fd);
}

/* Second association: the client aborts it (SO_LINGER 0, close). */
static void
client_abort(int port)
{
	struct sockaddr_in to = peer_addr;
	to.sin_port = htons((uint16_t)port);
	int fd = sctp_sock();
	subscribe(fd, SCTP_ASSOC_CHANGE, 1);
	set_timeo(fd, SO_RCVTIMEO, WAIT_S * 1000);
	begin("cli.abort_connect");
	ADD_RC(connect(fd, (struct sockaddr *)&to, sizeof(to)));
	add_ready(fd);
	end();
	if (poll_now(fd, POLLOUT, 0) == 0)
		die("cli.abort_connect");
	recv_case("cli.abort_comm_up", fd, 4096, 0, -1, 0);
	wait_go("cli.abort_go", fd, 104, 3);
	begin("cli.abort_close");
	{
		struct linger l = { 1, 0 };
		add(" linger:");
		ADD_RC(setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l)));
		add(" close:");
		ADD_RC(close(fd));
	}
	end();
}

/* Third association: the client closes it with a message unread. */
static void
client_close_unread(int port)
{
	struct sockaddr_in to = peer_addr;
	to.sin_port = htons((uint16_t)port);
	int fd = sctp_sock();
	set_timeo(fd, SO_RCVTIMEO, WAIT_S * 1000);
	begin("cli.unread_connect");
	ADD_RC(connect(fd, (struct sockaddr *)&to, sizeof(to)));
	end();
	begin("cli.unread_wait");
	add_revents("pollin", poll_now(fd, POLLIN, WAIT_S * 1000));
	end();
	ms_sleep(200);
	begin("cli.unread_close");
	ADD_RC(close(fd));
	end();
	/* Alive while the server looks at the end: what close() did, not what
	 * the end of the process does. */
	ms_sleep(3 * SETTLE_MS);
}

static int
client(const char *host, int port)
{
	peer_addr = addr4(host, port);
	local_cases();
	connect_refused(port + 1);
	client_main(port);
	client_abort(port);
	client_close_unread(port);
	info("client done");
	return 0;
}

/* ------------------------------------------------------------------ server */

static int
accept_case(const char *name, int l)
{
	begin(name);
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd = accept(l, (struct sockaddr *)&ss, &sl);
	ADD_FD(fd);
	if (fd < 0) {
		end();
		die("%s", name);
	}
	add(" family=%s len=%u", ss.ss_family == AF_INET ? "AF_INET" : "other", (unsigned)sl);
	add(" SO_ACCEPTCONN:");
	add_getint(fd, SOL_SOCKET, SO_ACCEPTCONN, sizeof(int));
	end();
	set_timeo(fd, SO_RCVTIMEO, WAIT_S * 1000);
	return fd;
}

/* After the peer ended an association: what the socket gives and says. */
static void
after_end(const char *name, int fd)
{
	begin(name);
	add_seq(fd);
	end();
	char n2[64];
	snprintf(n2, sizeof(n2), "%s_calls", name);
	begin(n2);
	add_ready(fd);
	add_so_error(fd);
	add(" send:");
	ADD_RC(send(fd, "x", 1, MSG_NOSIGNAL));
	add(" status:");
	{
		struct sctp_status st;
		socklen_t l = sizeof(st);
		ADD_RC(getsockopt(fd, IPPROTO_SCTP, SCTP_STATUS, &st, &l));
	}
	add(" shutdown:");
	ADD_RC(shutdown(fd, SHUT_WR));
	end();
}

static int
server(int port)
{
	int l = sctp_sock();
	{
		struct sctp_initmsg im = { .sinit_num_ostreams = 3, .sinit_max_instreams = 4 };
		if (setsockopt(l, IPPROTO_SCTP, SCTP_INITMSG, &im, sizeof(im)) != 0)
			die("SCTP_INITMSG");
		struct sctp_event_subscribe s;
		memset(&s, 0, sizeof(s));
		s.sctp_data_io_event = 1;
		s.sctp_association_event = 1;
		s.sctp_shutdown_event = 1;
		if (setsockopt(l, IPPROTO_SCTP, SCTP_EVENTS, &s, sizeof(s)) != 0)
			die("SCTP_EVENTS");
		set_int(l, IPPROTO_SCTP, SCTP_RECVRCVINFO, 1);
	}
	struct sockaddr_in a = addr4(NULL, port);
	begin("srv.bind");
	add(" first:");
	ADD_RC(bind(l, (struct sockaddr *)&a, sizeof(a)));
	add(" second:");
	ADD_RC(bind(l, (struct sockaddr *)&a, sizeof(a)));
	end();
	begin("srv.listen");
	ADD_RC(listen(l, 8));
	add(" SO_ACCEPTCONN:");
	add_getint(l, SOL_SOCKET, SO_ACCEPTCONN, sizeof(int));
	set_nonblock(l, 1);
	add(" accept:");
	ADD_FD(accept(l, NULL, NULL));
	set_nonblock(l, 0);
	add_ready(l);
	add(" recv:");
	{
		char b[8];
		ADD_RC(recv(l, b, sizeof(b), MSG_DONTWAIT));
	}
	end();
	info("ready");

	/* ---- the main association */
	int fd = accept_case("srv.accept", l);
	recv_case("srv.comm_up", fd, 4096, 0, -1, 0);
	begin("srv.status");
	add_status(fd);
	end();
	begin("srv.rcvtimeo_expires");
	{
		set_timeo(fd, SO_RCVTIMEO, 300);
		char b[8];
		ADD_RC(recv(fd, b, sizeof(b), 0));
		set_timeo(fd, SO_RCVTIMEO, WAIT_S * 1000);
	}
	end();
	send_go("srv.go1", fd, 101, 3);

	/* M1 whole; M2 (100 bytes) in two reads of 60. */
	recv_case("srv.recv_m1", fd, 4096, 0, 1, 0);
	recv_case("srv.recv_m2_part1", fd, 60, 0, 2, 0);
	recv_case("srv.recv_m2_part2", fd, 60, 0, 2, 60);

	/* M3 and M4 both queued before M3 is read: PEEK, then NXTINFO. */
	send_go("srv.go2", fd, 102, 3);
	begin("srv.wait_m3");
	add_revents("pollin", poll_now(fd, POLLIN, WAIT_S * 1000));
	end();
	ms_sleep(SETTLE_MS);
	begin("srv.fionread");
	{
		int n = -1;
		ADD_RC(ioctl(fd, FIONREAD, &n));
		add(" value=%d", n);
	}
	end();
	/* (SCTP_NXTINFO off for the PEEK: what "next" means under PEEK is no API.) */
	recv_case("srv.peek_m3", fd, 4096, MSG_PEEK, 3, 0);
	set_int(fd, IPPROTO_SCTP, SCTP_RECVNXTINFO, 1);
	recv_case("srv.recv_m3", fd, 4096, 0, 3, 0);
	recv_case("srv.recv_m4", fd, 4096, 0, 4, 0);
	set_int(fd, IPPROTO_SCTP, SCTP_RECVNXTINFO, 0);

	send_go("srv.go3", fd, 103, 3);
	recv_case("srv.recv_m5", fd, 4096, 0, 5, 0);

	begin("srv.send_m6");
	ADD_RC(send_msg(fd, 6, 40, CM_SNDINFO, 2, 555, SCTP_UNORDERED, 0));
	end();

	/* The client's shutdown(SHUT_WR): SHUTDOWN_EVENT, SHUTDOWN_COMP, the end. */
	recv_case("srv.shutdown_event", fd, 4096, 0, -1, 0);
	ms_sleep(SETTLE_MS);
	after_end("srv.after_shutdown", fd);
	close(fd);

	/* ---- the second: the client aborts */
	fd = accept_case("srv.abort_accept", l);
	recv_case("srv.abort_comm_up", fd, 4096, 0, -1, 0);
	send_go("srv.abort_go", fd, 104, 3);
	begin("srv.abort_wait");
	add_revents("pollin", poll_now(fd, POLLIN, WAIT_S * 1000));
	end();
	ms_sleep(SETTLE_MS);
	begin("srv.abort_ready");
	add_ready(fd);
	end();
	after_end("srv.after_abort", fd);
	close(fd);

	/* ---- the third: the client closes with our message unread */
	fd = accept_case("srv.unread_accept", l);
	recv_case("srv.unread_comm_up", fd, 4096, 0, -1, 0);
	send_go("srv.unread_send", fd, 105, 3);
	begin("srv.unread_wait");
	add_revents("pollin", poll_now(fd, POLLIN, WAIT_S * 1000));
	end();
	ms_sleep(SETTLE_MS);
	after_end("srv.after_unread_close", fd);
	close(fd);
	close(l);
	info("server done");
	return 0;
}

int
main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	alarm(300); /* never hang a test run */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && strcmp(argv[1], "server") == 0)
		return server(atoi(argv[2]));
	if (argc == 4 && strcmp(argv[1], "client") == 0)
		return client(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: %s server PORT | client HOST PORT\n", argv[0]);
	return 2;
}
