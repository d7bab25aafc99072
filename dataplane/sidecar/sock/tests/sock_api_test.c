/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An lksctp program, as such programs are written: plain sockets, libsctp's
 * functions (linked with -lsctp, as Debian's libsctp-dev gives them),
 * epoll, signals, fork. Run by sock_test.py under
 * LD_PRELOAD=libdpsctp-sock.so against dpsctpd --loopback-peer echo, whose
 * peer (HOST PORT) echoes every message on its stream. One "ok"/"FAIL"
 * line per check; the exit status is the number of failures.
 *
 *   sock_api_test HOST PORT
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/sctp.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int failures;

static void check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
check(bool ok, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("%s", ok ? "ok   " : "FAIL ");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	va_end(ap);
	if (!ok)
		failures++;
}

static struct sockaddr_in peer;

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double
cpu_seconds(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static int
connected(int type)
{
	int s = socket(AF_INET, type, IPPROTO_SCTP);
	if (s < 0 || connect(s, (struct sockaddr *)&peer, sizeof(peer)) != 0) {
		printf("FAIL socket/connect: %s\n", strerror(errno));
		exit(100);
	}
	return s;
}

/*
 * Each check's condition is computed into a variable first: the arguments of
 * check() are evaluated in no set order, and the values it prints must be
 * those after the call.
 */

/* libsctp's message functions, one after another, each echo checked. */
static void
libsctp_calls(void)
{
	int s = connected(SOCK_STREAM);
	struct sctp_event_subscribe ev = { .sctp_data_io_event = 1 };
	check(setsockopt(s, IPPROTO_SCTP, SCTP_EVENTS, &ev, sizeof(ev)) == 0, "SCTP_EVENTS set");

	const char *m1 = "sctp_sendmsg on stream 2";
	int n = sctp_sendmsg(s, m1, strlen(m1), NULL, 0, htonl(46), 0, 2, 0, 7);
	char buf[512];
	struct sctp_sndrcvinfo si;
	int flags = 0;
	int r = sctp_recvmsg(s, buf, sizeof(buf), NULL, NULL, &si, &flags);
	check(n == (int)strlen(m1) && r == n && memcmp(buf, m1, (size_t)r) == 0 &&
		      si.sinfo_stream == 2 && si.sinfo_ppid == htonl(46) && (flags & MSG_EOR),
	      "sctp_sendmsg / sctp_recvmsg: stream %u, ppid %u, MSG_EOR %d", si.sinfo_stream,
	      ntohl(si.sinfo_ppid), (flags & MSG_EOR) != 0);

	struct sctp_sndrcvinfo snd = { .sinfo_stream = 5, .sinfo_ppid = htonl(60) };
	const char *m2 = "sctp_send on stream 5";
	n = sctp_send(s, m2, strlen(m2), &snd, 0);
	flags = 0;
	r = sctp_recvmsg(s, buf, sizeof(buf), NULL, NULL, &si, &flags);
	check(r == n && si.sinfo_stream == 5 && si.sinfo_ppid == htonl(60),
	      "sctp_send: stream %u, ppid %u", si.sinfo_stream, ntohl(si.sinfo_ppid));

	int on = 1;
	check(setsockopt(s, IPPROTO_SCTP, SCTP_RECVRCVINFO, &on, sizeof(on)) == 0,
	      "SCTP_RECVRCVINFO set");
	struct sctp_sndinfo sn = { .snd_sid = 7, .snd_ppid = htonl(3) };
	char p1[] = "sctp_sendv ", p2[] = "in two pieces";
	struct iovec iov[2] = { { p1, strlen(p1) }, { p2, strlen(p2) } };
	n = sctp_sendv(s, iov, 2, NULL, 0, &sn, sizeof(sn), SCTP_SENDV_SNDINFO, 0);
	struct iovec in = { buf, sizeof(buf) };
	struct sctp_rcvinfo ri;
	socklen_t ril = sizeof(ri);
	unsigned type = 0;
	flags = 0;
	r = sctp_recvv(s, &in, 1, NULL, NULL, &ri, &ril, &type, &flags);
	check(n == 24 && r == 24 && memcmp(buf, "sctp_sendv in two pieces", 24) == 0 &&
		      type == SCTP_RECVV_RCVINFO && ri.rcv_sid == 7 && ri.rcv_ppid == htonl(3),
	      "sctp_sendv (2 iovecs) / sctp_recvv: %d bytes, info type %u, sid %u", r, type,
	      ri.rcv_sid);

	struct sctp_status st;
	socklen_t sl = sizeof(st);
	memset(&st, 0, sizeof(st));
	int rc = sctp_opt_info(s, 0, SCTP_STATUS, &st, &sl);
	check(rc == 0 && st.sstat_state == SCTP_ESTABLISHED && st.sstat_outstrms > 0,
	      "sctp_opt_info(SCTP_STATUS): ESTABLISHED, %u streams out", st.sstat_outstrms);
	struct sctp_rtoinfo rto = { 0 };
	sl = sizeof(rto);
	rc = sctp_opt_info(s, 0, SCTP_RTOINFO, &rto, &sl);
	check(rc == 0 && rto.srto_min > 0 && rto.srto_max >= rto.srto_min,
	      "sctp_opt_info(SCTP_RTOINFO): min %u ms, max %u ms", rto.srto_min, rto.srto_max);

	struct sockaddr *addrs = NULL;
	struct sockaddr_in got;
	int k = sctp_getpaddrs(s, 0, &addrs);
	if (k == 1)
		memcpy(&got, addrs, sizeof(got));
	check(k == 1 && got.sin_addr.s_addr == peer.sin_addr.s_addr &&
		      got.sin_port == peer.sin_port,
	      "sctp_getpaddrs: %d address, the peer's", k);
	sctp_freepaddrs(addrs);
	k = sctp_getladdrs(s, 0, &addrs);
	if (k == 1)
		memcpy(&got, addrs, sizeof(got));
	check(k == 1 && got.sin_port != 0, "sctp_getladdrs: %d address with our port", k);
	sctp_freeladdrs(addrs);
	close(s);

	/* sctp_bindx and sctp_connectx on a fresh socket. */
	s = socket(AF_INET6, SOCK_STREAM, IPPROTO_SCTP);
	struct sockaddr_in6 any = { .sin6_family = AF_INET6, .sin6_port = htons(43210) };
	check(sctp_bindx(s, (struct sockaddr *)&any, 1, SCTP_BINDX_ADD_ADDR) == 0,
	      "sctp_bindx(ADD) of [::]:43210");
	rc = sctp_bindx(s, (struct sockaddr *)&any, 1, SCTP_BINDX_REM_ADDR);
	int e = errno;
	check(rc != 0 && e == EOPNOTSUPP, "sctp_bindx(REM): EOPNOTSUPP (%s)", strerror(e));
	struct sockaddr_in6 mapped = { .sin6_family = AF_INET6, .sin6_port = peer.sin_port };
	mapped.sin6_addr.s6_addr[10] = mapped.sin6_addr.s6_addr[11] = 0xff;
	memcpy(&mapped.sin6_addr.s6_addr[12], &peer.sin_addr, 4);
	sctp_assoc_t id = -1;
	rc = sctp_connectx(s, (struct sockaddr *)&mapped, 1, &id);
	check(rc == 0 && id > 0, "sctp_connectx: association id %d", (int)id);
	check(send(s, "x", 1, 0) == 1 && recv(s, buf, sizeof(buf), 0) == 1, "echo after connectx");
	close(s);
}

/* Read notifications until one of type arrives (or a few others went by). */
static bool
await_note(int s, uint16_t type, void *out, size_t outlen)
{
	for (int i = 0; i < 8; i++) {
		char buf[512];
		struct iovec v = { buf, sizeof(buf) };
		struct msghdr mh = { .msg_iov = &v, .msg_iovlen = 1 };
		ssize_t r = recvmsg(s, &mh, 0);
		if (r <= 0)
			return false;
		const union sctp_notification *n = (const void *)buf;
		if ((mh.msg_flags & MSG_NOTIFICATION) && n->sn_header.sn_type == type) {
			memcpy(out, buf, (size_t)r < outlen ? (size_t)r : outlen);
			return true;
		}
	}
	return false;
}

/* The association's options through the daemon: paths, scheduler, reconfiguration. */
static void
options(void)
{
	/* 8 streams each way, so that two more fit the daemon's 64. */
	int s = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	struct sctp_initmsg im = { .sinit_num_ostreams = 8, .sinit_max_instreams = 8 };
	if (s < 0 || setsockopt(s, IPPROTO_SCTP, SCTP_INITMSG, &im, sizeof(im)) != 0 ||
	    connect(s, (struct sockaddr *)&peer, sizeof(peer)) != 0) {
		printf("FAIL socket/INITMSG/connect: %s\n", strerror(errno));
		exit(100);
	}
	struct sctp_paddrinfo pi;
	memset(&pi, 0, sizeof(pi));
	memcpy(&pi.spinfo_address, &peer, sizeof(peer));
	socklen_t l = sizeof(pi);
	int rc = getsockopt(s, IPPROTO_SCTP, SCTP_GET_PEER_ADDR_INFO, &pi, &l);
	check(rc == 0 && pi.spinfo_state == SCTP_ACTIVE && pi.spinfo_mtu > 0 && pi.spinfo_cwnd > 0,
	      "SCTP_GET_PEER_ADDR_INFO of the peer: active, mtu %u, cwnd %u", pi.spinfo_mtu,
	      pi.spinfo_cwnd);
	struct sctp_paddrparams pp;
	memset(&pp, 0, sizeof(pp));
	pp.spp_hbinterval = 7000;
	pp.spp_flags = SPP_HB_ENABLE;
	rc = setsockopt(s, IPPROTO_SCTP, SCTP_PEER_ADDR_PARAMS, &pp, sizeof(pp));
	memset(&pp, 0, sizeof(pp));
	l = sizeof(pp);
	int rc2 = getsockopt(s, IPPROTO_SCTP, SCTP_PEER_ADDR_PARAMS, &pp, &l);
	check(rc == 0 && rc2 == 0 && pp.spp_hbinterval == 7000 && (pp.spp_flags & SPP_HB_ENABLE),
	      "SCTP_PEER_ADDR_PARAMS: HB.interval 7000 ms set and read back (%u)",
	      pp.spp_hbinterval);
	pp.spp_flags = SPP_HB_DEMAND;
	rc = setsockopt(s, IPPROTO_SCTP, SCTP_PEER_ADDR_PARAMS, &pp, sizeof(pp));
	int e = errno;
	check(rc != 0 && e == EOPNOTSUPP, "SPP_HB_DEMAND: EOPNOTSUPP (%s)", strerror(e));
	struct sctp_prim pr;
	memset(&pr, 0, sizeof(pr));
	l = sizeof(pr);
	rc = getsockopt(s, IPPROTO_SCTP, SCTP_PRIMARY_ADDR, &pr, &l);
	check(rc == 0 &&
		      ((struct sockaddr_in *)&pr.ssp_addr)->sin_addr.s_addr == peer.sin_addr.s_addr,
	      "SCTP_PRIMARY_ADDR: the peer's address");

	struct sctp_assoc_value av = { 0, SCTP_SS_PRIO };
	rc = setsockopt(s, IPPROTO_SCTP, SCTP_STREAM_SCHEDULER, &av, sizeof(av));
	struct sctp_stream_value sv = { 0, 3, 9 };
	rc2 = setsockopt(s, IPPROTO_SCTP, SCTP_STREAM_SCHEDULER_VALUE, &sv, sizeof(sv));
	memset(&av, 0, sizeof(av));
	l = sizeof(av);
	int rc3 = getsockopt(s, IPPROTO_SCTP, SCTP_STREAM_SCHEDULER, &av, &l);
	sv.stream_value = 0;
	l = sizeof(sv);
	int rc4 = getsockopt(s, IPPROTO_SCTP, SCTP_STREAM_SCHEDULER_VALUE, &sv, &l);
	check(rc == 0 && rc2 == 0 && rc3 == 0 && rc4 == 0 && av.assoc_value == SCTP_SS_PRIO &&
		      sv.stream_value == 9,
	      "SCTP_STREAM_SCHEDULER PRIO and stream 3's priority 9, read back (%u, %u)",
	      av.assoc_value, sv.stream_value);

	struct sctp_default_prinfo dp = { 0, 50, SCTP_PR_SCTP_TTL };
	rc = setsockopt(s, IPPROTO_SCTP, SCTP_DEFAULT_PRINFO, &dp, sizeof(dp));
	memset(&dp, 0, sizeof(dp));
	l = sizeof(dp);
	rc2 = getsockopt(s, IPPROTO_SCTP, SCTP_DEFAULT_PRINFO, &dp, &l);
	char b[64];
	int sent = (int)send(s, "timed", 5, 0);
	int got = (int)recv(s, b, sizeof(b), 0);
	check(rc == 0 && rc2 == 0 && dp.pr_policy == SCTP_PR_SCTP_TTL && dp.pr_value == 50 &&
		      sent == 5 && got == 5,
	      "SCTP_DEFAULT_PRINFO TTL 50 ms read back; a message under it echoed");

	/* Stream reconfiguration, each answered by its notification. */
	struct sctp_event ev = { 0, SCTP_STREAM_RESET_EVENT, 1 };
	setsockopt(s, IPPROTO_SCTP, SCTP_EVENT, &ev, sizeof(ev));
	ev.se_type = SCTP_STREAM_CHANGE_EVENT;
	setsockopt(s, IPPROTO_SCTP, SCTP_EVENT, &ev, sizeof(ev));
	ev.se_type = SCTP_ASSOC_RESET_EVENT;
	setsockopt(s, IPPROTO_SCTP, SCTP_EVENT, &ev, sizeof(ev));
	av.assoc_id = 0;
	av.assoc_value = SCTP_ENABLE_RESET_STREAM_REQ | SCTP_ENABLE_CHANGE_ASSOC_REQ;
	rc = setsockopt(s, IPPROTO_SCTP, SCTP_ENABLE_STREAM_RESET, &av, sizeof(av));
	check(rc == 0, "SCTP_ENABLE_STREAM_RESET");
	uint8_t rbuf[sizeof(struct sctp_reset_streams) + 2 * sizeof(uint16_t)];
	struct sctp_reset_streams *rs = (void *)rbuf;
	rs->srs_assoc_id = 0;
	rs->srs_flags = SCTP_STREAM_RESET_OUTGOING;
	rs->srs_number_streams = 2;
	rs->srs_stream_list[0] = 1;
	rs->srs_stream_list[1] = 2;
	rc = setsockopt(s, IPPROTO_SCTP, SCTP_RESET_STREAMS, rbuf, sizeof(rbuf));
	uint8_t nb[128];
	bool ok = rc == 0 && await_note(s, SCTP_STREAM_RESET_EVENT, nb, sizeof(nb));
	const struct sctp_stream_reset_event *re = (const void *)nb;
	check(ok && (re->strreset_flags & SCTP_STREAM_RESET_OUTGOING_SSN) &&
		      re->strreset_length == sizeof(*re) + 4 && re->strreset_stream_list[0] == 1 &&
		      re->strreset_stream_list[1] == 2,
	      "SCTP_RESET_STREAMS of 1 and 2: SCTP_STREAM_RESET_EVENT naming them");
	struct sctp_add_streams as = { 0, 0, 2 };
	rc = setsockopt(s, IPPROTO_SCTP, SCTP_ADD_STREAMS, &as, sizeof(as));
	ok = rc == 0 && await_note(s, SCTP_STREAM_CHANGE_EVENT, nb, sizeof(nb));
	const struct sctp_stream_change_event *ce = (const void *)nb;
	check(ok && ce->strchange_outstrms == 10 && !(ce->strchange_flags & 0x0c),
	      "SCTP_ADD_STREAMS of 2 outbound to 8: SCTP_STREAM_CHANGE_EVENT, %u out",
	      ok ? ce->strchange_outstrms : 0);
	sctp_assoc_t zero = 0;
	rc = setsockopt(s, IPPROTO_SCTP, SCTP_RESET_ASSOC, &zero, sizeof(zero));
	ok = rc == 0 && await_note(s, SCTP_ASSOC_RESET_EVENT, nb, sizeof(nb));
	const struct sctp_assoc_reset_event *ae = (const void *)nb;
	check(ok && !(ae->assocreset_flags & 0x0c), "SCTP_RESET_ASSOC: SCTP_ASSOC_RESET_EVENT");
	sent = (int)send(s, "after", 5, 0);
	got = (int)recv(s, b, sizeof(b), 0);
	check(sent == 5 && got == 5, "a message echoed after the resets");
	close(s);
}

/* epoll, level- and edge-triggered, over a pipe and an SCTP socket. */
static void
epoll_mixed(void)
{
	int s = connected(SOCK_STREAM);
	int p[2];
	if (pipe(p) != 0)
		exit(100);
	int ep = epoll_create1(0);
	struct epoll_event e = { .events = EPOLLIN | EPOLLET, .data.fd = s };
	epoll_ctl(ep, EPOLL_CTL_ADD, s, &e);
	e.events = EPOLLIN;
	e.data.fd = p[0];
	epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &e);
	struct epoll_event out[4];
	check(epoll_wait(ep, out, 4, 100) == 0, "epoll: nothing ready at first");
	(void)!write(p[1], "k", 1);
	int n = epoll_wait(ep, out, 4, 1000);
	check(n == 1 && out[0].data.fd == p[0], "epoll: the pipe alone ready after a write");
	char c;
	(void)!read(p[0], &c, 1);
	send(s, "one", 3, 0);
	n = epoll_wait(ep, out, 4, 2000);
	check(n == 1 && out[0].data.fd == s && (out[0].events & EPOLLIN),
	      "epoll (EPOLLET): the SCTP socket ready once its echo waits");
	check(epoll_wait(ep, out, 4, 100) == 0, "epoll (EPOLLET): no second report unread");
	send(s, "two", 3, 0);
	n = epoll_wait(ep, out, 4, 2000);
	check(n == 1 && out[0].data.fd == s, "epoll (EPOLLET): a new edge for a new message");
	char buf[16];
	int a = (int)recv(s, buf, sizeof(buf), 0);
	int b = (int)recv(s, buf + 3, sizeof(buf) - 3, 0);
	int c2 = (int)recv(s, buf, sizeof(buf), MSG_DONTWAIT);
	check(a == 3 && b == 3 && c2 < 0 && errno == EAGAIN, "both read, then EAGAIN (%d %d %d)", a,
	      b, c2);
	close(ep);
	close(p[0]);
	close(p[1]);
	close(s);
}

static volatile sig_atomic_t alarms;

static void
on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void *
send_later(void *arg)
{
	usleep(300000);
	send(*(int *)arg, "later", 5, 0);
	return NULL;
}

static int self_pipe[2];
static volatile sig_atomic_t storms;

static void
on_storm(int sig)
{
	(void)sig;
	storms++;
	(void)!write(self_pipe[1], "s", 1);
}

/* Blocking calls sleep (no CPU), time out, and are interrupted by signals. */
static void
blocking(void)
{
	int s = connected(SOCK_STREAM);
	struct timeval tv = { 0, 300000 };
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	char buf[16];
	double t0 = now(), c0 = cpu_seconds();
	ssize_t r = recv(s, buf, sizeof(buf), 0);
	double dt = now() - t0, dc = cpu_seconds() - c0;
	check(r < 0 && errno == EAGAIN && dt >= 0.25 && dt < 5,
	      "SO_RCVTIMEO 300 ms: EAGAIN after %.0f ms", dt * 1000);
	check(dc < 0.1, "blocked in recv, the process used %.1f ms of CPU (sleeps, no spin)",
	      dc * 1000);
	tv.tv_sec = 0;
	tv.tv_usec = 0;
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));

	/* SIGALRM without SA_RESTART: recv returns EINTR, as on Linux. */
	struct sigaction sa = { .sa_handler = on_alarm };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 0 }, { 0, 200000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	r = recv(s, buf, sizeof(buf), 0);
	check(r < 0 && errno == EINTR && alarms == 1, "a signal interrupts a blocked recv: EINTR");

	/* With SA_RESTART the same recv is restarted, as Linux restarts it, and
	 * returns the message another thread sends 300 ms later. */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	pthread_t th;
	pthread_create(&th, NULL, send_later, &s);
	setitimer(ITIMER_REAL, &it, NULL);
	r = recv(s, buf, sizeof(buf), 0);
	pthread_join(th, NULL);
	check(r == 5 && alarms == 2, "with SA_RESTART the interrupted recv goes on: %zd bytes", r);

	/* A storm of signals whose handler writes to its self-pipe (a descriptor not
	 * ours: never the library's lock) while 500 echoes go back and forth. */
	if (pipe(self_pipe) != 0)
		exit(100);
	fcntl(self_pipe[1], F_SETFL, O_NONBLOCK);
	sa.sa_handler = on_storm;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval storm = { { 0, 200 }, { 0, 200 } };
	setitimer(ITIMER_REAL, &storm, NULL);
	int echoed = 0;
	for (int i = 0; i < 500; i++) {
		if (send(s, "storm", 5, 0) == 5 && recv(s, buf, sizeof(buf), 0) == 5)
			echoed++;
	}
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	check(echoed == 500 && storms > 0,
	      "500 echoes under %d signals whose handler writes to a pipe", (int)storms);
	close(self_pipe[0]);
	close(self_pipe[1]);
	close(s);

	/* A listening socket's accept sleeps too, and SO_RCVTIMEO bounds it. */
	int l = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	struct sockaddr_in any = { .sin_family = AF_INET, .sin_port = htons(43211) };
	tv.tv_usec = 200000;
	setsockopt(l, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	check(bind(l, (struct sockaddr *)&any, sizeof(any)) == 0 && listen(l, 4) == 0,
	      "bind and listen on 43211");
	check(accept(l, NULL, NULL) < 0 && errno == EAGAIN, "accept times out: EAGAIN");
	int l2 = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	int rc = bind(l2, (struct sockaddr *)&any, sizeof(any)) == 0 ? listen(l2, 4) : 0;
	int e = errno;
	check(rc != 0 && e == EADDRINUSE, "a second listen on 43211: EADDRINUSE (%s)", strerror(e));
	close(l2);
	close(l);
}

/* fork: the child cannot use the parent's socket, can make its own; the parent
 * carries on. */
static void
forked(void)
{
	int s = connected(SOCK_STREAM);
	pid_t pid = fork();
	if (pid == 0) {
		int bad = 0;
		if (send(s, "c", 1, 0) >= 0 || errno != ENOTSUP)
			bad |= 1;
		close(s); /* leaves the parent's association alone */
		int c = connected(SOCK_STREAM);
		char b[8];
		if (send(c, "child", 5, 0) != 5 || recv(c, b, sizeof(b), 0) != 5 ||
		    memcmp(b, "child", 5) != 0)
			bad |= 2;
		close(c);
		exit(bad);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "fork: the child's send on the parent's socket is ENOTSUP, its own socket echoes "
	      "(status %d)",
	      WEXITSTATUS(status));
	char b[8];
	check(send(s, "parent", 6, 0) == 6 && recv(s, b, sizeof(b), 0) == 6 &&
		      memcmp(b, "parent", 6) == 0,
	      "fork: the parent's association is intact after the child closed its copy");
	close(s);
}

/* SO_LINGER 0 aborts; send on an ended association fails with EPIPE. */
static void
endings(void)
{
	int s = connected(SOCK_STREAM);
	struct sctp_event_subscribe ev = { .sctp_association_event = 1, .sctp_shutdown_event = 1 };
	setsockopt(s, IPPROTO_SCTP, SCTP_EVENTS, &ev, sizeof(ev));
	check(shutdown(s, SHUT_WR) == 0, "shutdown(SHUT_WR)");
	char buf[256];
	struct iovec v = { buf, sizeof(buf) };
	struct msghdr mh = { .msg_iov = &v, .msg_iovlen = 1 };
	bool comp = false;
	for (int i = 0; i < 4 && !comp; i++) {
		ssize_t r = recvmsg(s, &mh, 0);
		if (r <= 0)
			break;
		const union sctp_notification *n = (const void *)buf;
		comp = (mh.msg_flags & MSG_NOTIFICATION) &&
		       n->sn_header.sn_type == SCTP_ASSOC_CHANGE &&
		       n->sn_assoc_change.sac_state == SCTP_SHUTDOWN_COMP;
	}
	check(comp, "after SHUT_WR: the SHUTDOWN_COMP notification");
	ssize_t late = send(s, "late", 4, MSG_NOSIGNAL);
	int e = errno;
	check(late < 0 && e == EPIPE, "send after the shutdown: EPIPE (%s)", strerror(e));
	close(s);
	s = connected(SOCK_STREAM);
	struct linger lg = { 1, 0 };
	check(setsockopt(s, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)) == 0, "SO_LINGER {1, 0}");
	check(close(s) == 0, "close with SO_LINGER 0 (an ABORT)");
}

int
main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: sock_api_test HOST PORT\n");
		return 2;
	}
	peer.sin_family = AF_INET;
	peer.sin_port = htons((uint16_t)atoi(argv[2]));
	if (inet_pton(AF_INET, argv[1], &peer.sin_addr) != 1)
		return 2;
	libsctp_calls();
	options();
	epoll_mixed();
	blocking();
	forked();
	endings();
	printf("%d failed\n", failures);
	return failures > 100 ? 100 : failures;
}
