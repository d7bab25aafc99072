/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dd_probe: the applications dpsctpd's [dp] tests need that a well-behaved
 * program would never be (dpsctpd_test.py runs them against a live daemon
 * and a peer).
 *
 *   dd_probe SOCKET isolation PEER PORT
 *       Two applications in one process. A connects to PEER:PORT (an echo
 *       server) and gets an echo back; B, given A's association handle,
 *       gets -ENOENT for SEND, SHUTDOWN and ABORT and never an event of A's;
 *       A listens on a port and B's LISTEN on it is -EADDRINUSE; A's
 *       association then closes gracefully. Exit 0 when all of that held.
 *
 *   dd_probe SOCKET zerocopy PEER PORT N
 *       N messages of 1 B .. 20 KB echoed, received by reference into the
 *       daemon's packet buffers (zero copy; several pieces for a message of
 *       several packets), each compared with what was sent.
 *
 *   dd_probe SOCKET garbage
 *       A hostile application: attaches by hand (sc_region.h), writes a
 *       request with an unknown operation and a RESET_STREAMS with an
 *       unknown flag (expects a -EPROTO completion for each and to stay
 *       attached), then moves its request ring's head far beyond
 *       the ring (expects to be detached: EOF on its socket); attaches
 *       again, moves its event ring's tail beyond the ring and writes one
 *       request (expects to be detached, though no event was posted). Exit
 *       0 when all three happened.
 *
 *   dd_probe SOCKET cplring PEER PORT
 *       The completion ring at every fill level. With 64-slot
 *       rings, for each level f of 0..63 completions left unpolled and each
 *       mix of three of quiet sends, sends, barriers and quiet sends that
 *       fail (a stale handle: they complete), repeated over 64 requests:
 *       every completion comes exactly once, in request order, with its
 *       status, and every message sent comes back from the echo server
 *       intact and in order. Prints the messages and bytes sent.
 *
 *   dd_probe SOCKET listen FIRST N [hold]
 *       Listen on ports FIRST .. FIRST+N-1 (each must complete with 0);
 *       with hold, say "holding" and wait to be killed, else detach.
 *
 *   dd_probe SOCKET unlisten PORT N
 *       Two applications: A listens on PORT, B's LISTEN is -EADDRINUSE and
 *       its UNLISTEN -ENOENT; A's UNLISTEN is 0 (a second one -ENOENT);
 *       then B's LISTEN on PORT is 0 and A's -EADDRINUSE. A listens on N
 *       more ports (its --app-listens), the next is -ENOBUFS, and after one
 *       UNLISTEN it is 0.
 *
 *   dd_probe SOCKET limits PEER PORT N
 *       --app-assocs N: application A connects N times (each up), the next
 *       CONNECT is -ENOBUFS; application B still connects.
 *
 *   dd_probe SOCKET accept PEER PORT N SECONDS
 *       Listen on PORT and watch the associations accepted for SECONDS (a
 *       peer opens more than N): at most N are up at once, and with N up
 *       a CONNECT of ours (to PEER) is -ENOBUFS (accepted associations count against
 *       --app-assocs N).
 *
 *   dd_probe SOCKET prsctp PEER PORT EXT
 *       PR-SCTP through the daemon: COMM_UP's extensions are EXT (a comma
 *       list of pr-sctp, i-data and reconfig, or none: what the daemon's
 *       --extensions let it negotiate); a
 *       message sent with each policy (none, a lifetime, a retransmission
 *       limit, a priority) completes with 0 and comes back intact from the
 *       echo peer, none abandoned on a link that loses nothing; the library
 *       refuses an unknown policy and a lifetime of 0 ms (-EINVAL).
 *
 *   dd_probe SOCKET sched PEER PORT SCHED
 *       The stream scheduler through the daemon: GET_SCHED says SCHED (the
 *       daemon's --sched) at first; SET_SCHED and SET_STREAM_PARAM take
 *       effect (the getters say so); a stream the association does not
 *       have and a weight of 0 under wfq are -EINVAL, an association of
 *       nobody -ENOENT for all four requests, a SET_SCHED behind a send
 *       still leaving -EBUSY; the library refuses an unknown scheduler
 *       (-EINVAL) without posting it; messages sent meanwhile are echoed
 *       intact.
 *
 *   dd_probe SOCKET reconf PEER PORT on|off
 *       Stream reconfiguration (RFC 6525) through the daemon, --max-streams
 *       16 --out-streams 8. on: COMM_UP lists RE-CONFIG; an outgoing reset
 *       of streams 1 and 2 comes back as STREAM_RESET naming them, an
 *       incoming one of every stream too; a second request while one waits
 *       is -EINPROGRESS, a stream the association lacks -EINVAL; adding 2
 *       outbound and 3 inbound streams ends in STREAM_CHANGE with 10 and 11,
 *       and a message on the new stream 9 is echoed on it; adding past
 *       --max-streams 16 either way is -EINVAL in the completion (nothing
 *       changes); the association reset comes as ASSOC_RESET, and a message
 *       after it is
 *       echoed; another application's or an ended handle is -ENOENT, a bad
 *       flag or 33 streams -EINVAL in the library. off (the daemon's
 *       --extensions without reconfig): COMM_UP lacks it and each request
 *       is -EOPNOTSUPP.
 *
 *   dd_probe SOCKET opts PEER PORT
 *       The per-association options (RFC 6458) through the daemon: STATUS
 *       (ESTABLISHED, COMM_UP's streams, a window) and PEER_ADDR_INFO (the
 *       primary path usable, with cwnd, srtt, rto and mtu; -ENOENT for an
 *       address not the peer's); RTOINFO, DELAYED_SACK and EVENTS set and
 *       read back; a send with DPSCTP_CLIENT_DEFAULT_SNDINFO echoed on the
 *       stream and PPID of DEFAULT_SNDINFO; bad values refused by the
 *       library with the option's message, one that does not fit the
 *       values in force -EINVAL in the completion, nothing changed; another
 *       application's SETOPT and GETOPT on the association -ENOENT; the
 *       application's defaults (MAX_BURST, RTOINFO's max alone, INITMSG) on
 *       its associations made afterwards, not on the one before, not on
 *       another application's; connect_opts' INITMSG over the defaults; an
 *       ended handle -ENOENT. Then by hand: a SETOPT of an option id beyond
 *       the wire's is -EPROTO and the next request answered (attached),
 *       option bytes out of step detach.
 *
 *   dd_probe SOCKET opts-accept PORT N
 *       MAX_BURST and DELAYED_SACK defaults set, then LISTEN on PORT (says
 *       "listening"): the association a peer opens has them, and its N
 *       messages are echoed.
 *
 *   dd_probe SOCKET workers PEER PORT NAME N M W
 *       A multi-worker daemon (--queues W): application NAME opens N
 *       associations with the echo server at PEER:PORT from one thread
 *       (each COMM_UP), which land on all W workers (their handles say
 *       which: SC_HANDLE_WORKER()), all up for half a second; M messages
 *       of 8 .. 1407 bytes on each,
 *       every one named by (association, sequence), 8 in flight per
 *       association; every echo comes back on its association, in order,
 *       intact, exactly once; a barrier completes once, after them; a
 *       GETOPT STATUS on each association answers on its worker; each
 *       association shuts down gracefully (SHUTDOWN_COMPLETE).
 *
 *   dd_probe SOCKET stall PEER PORT N LEN all|abort
 *       An application that stops reading: connects to the echo server,
 *       sends N messages of LEN bytes (numbered), says "not reading" and
 *       reads nothing until SIGUSR1 (at most 120 s) while the echoes come
 *       back to its rings and the daemon's backlog. Then it reads. all: every
 *       echo arrives intact, in order, once (receive flow control held the
 *       peer); abort: with rings of 64 slots, the association is lost
 *       (COMM_LOST) because its backlog overflowed, and what arrived before
 *       is intact and in order (it sends what the windows let it: fewer
 *       than N when they close first).
 *
 * Each failed expectation prints one line naming it; exit 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "dataplane/dpsctp_opt.h"
#include "dataplane/sidecar/dpsctp_client.h"
#include "dataplane/sidecar/sc_proto.h"
#include "dataplane/sidecar/sc_region.h"

static int failures;

#define EXPECT(cond, ...)                                                                          \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "dd_probe: FAIL: " __VA_ARGS__);                           \
			fprintf(stderr, "\n");                                                     \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Poll c until an event of `kind` (and, for completions, `cookie`) arrives. */
static bool
wait_for(struct dpsctp_client *c, enum dpsctp_client_kind kind, uint64_t cookie,
	 struct dpsctp_client_event *out, double secs, unsigned *foreign, uint64_t foreign_assoc)
{
	double end = now_s() + secs;
	while (now_s() < end) {
		struct dpsctp_client_event ev[16];
		int n = dpsctp_client_poll(c, 0, ev, 16);
		if (n < 0) {
			fprintf(stderr, "dd_probe: poll: %s\n", strerror(-n));
			return false;
		}
		for (int i = 0; i < n; i++) {
			if (foreign != NULL && ev[i].assoc == foreign_assoc && foreign_assoc != 0)
				(*foreign)++;
			if (ev[i].kind == kind && (kind != DPSCTP_CLIENT_COMPLETION ||
						   ev[i].completion.cookie == cookie)) {
				*out = ev[i];
				return true;
			}
		}
		if (n == 0)
			(void)dpsctp_client_wait(c, 0, 10);
	}
	return false;
}

/* Attach with opts; NULL with the reason on stderr. */
static struct dpsctp_client *
attach_opts(const char *sock, const struct dpsctp_client_opts *o)
{
	int err;
	struct dpsctp_client *c = dpsctp_client_attach(sock, o, &err);
	if (c == NULL)
		fprintf(stderr, "dd_probe: attach: %s\n", strerror(-err));
	return c;
}

static int32_t connect_up(struct dpsctp_client *c, const struct sctp_addr *pa, uint16_t port,
			  uint64_t cookie, uint64_t *h);
static uint32_t up_extensions; /* the last connect_up()'s COMM_UP: what it negotiated */
static uint16_t up_out, up_in; /* and its streams */

static int
isolation(const char *sock, const char *peer, uint16_t port)
{
	int err;
	struct dpsctp_client_opts oa = { .name = "probe-A" }, ob = { .name = "probe-B" };
	struct dpsctp_client *a = dpsctp_client_attach(sock, &oa, &err);
	struct dpsctp_client *b = dpsctp_client_attach(sock, &ob, &err);
	if (a == NULL || b == NULL) {
		fprintf(stderr, "dd_probe: attach: %s\n", strerror(-err));
		return 3;
	}
	struct sctp_addr pa = { 4, { 0 } };
	if (inet_pton(AF_INET, peer, pa.bytes) != 1)
		return 2;
	struct dpsctp_client_event ev;
	unsigned b_saw = 0;
	/* Completion and COMM_UP can come in one poll: connect_up() sees both. */
	uint64_t ha = 0;
	int32_t up = connect_up(a, &pa, port, 1, &ha);
	EXPECT(up == 0, "A: connect and COMM_UP: %d", up);

	/* B names A's association: refused, as an unknown one (a quiet send
	 * that fails still completes). */
	struct dpsctp_client_sndinfo si = { ha, 0, htonl(7), DPSCTP_CLIENT_QUIET, 0, 0, 0 };
	const char msg[] = "not yours";
	EXPECT(dpsctp_client_send(b, 0, &si, msg, sizeof(msg), 10) == 0, "B: send request");
	EXPECT(wait_for(b, DPSCTP_CLIENT_COMPLETION, 10, &ev, 5, &b_saw, ha) &&
		       ev.completion.status == -ENOENT,
	       "B: SEND on A's association completes with -ENOENT (got %d)", ev.completion.status);
	EXPECT(dpsctp_client_shutdown(b, 0, ha, 11) == 0, "B: shutdown request");
	EXPECT(wait_for(b, DPSCTP_CLIENT_COMPLETION, 11, &ev, 5, &b_saw, ha) &&
		       ev.completion.status == -ENOENT,
	       "B: SHUTDOWN of A's association: -ENOENT (got %d)", ev.completion.status);
	EXPECT(dpsctp_client_abort(b, 0, ha, 12) == 0, "B: abort request");
	EXPECT(wait_for(b, DPSCTP_CLIENT_COMPLETION, 12, &ev, 5, &b_saw, ha) &&
		       ev.completion.status == -ENOENT,
	       "B: ABORT of A's association: -ENOENT (got %d)", ev.completion.status);

	/* Ports: the first application to listen has it. */
	uint16_t lport = (uint16_t)(port + 100);
	EXPECT(dpsctp_client_listen(a, 0, lport, 2) == 0, "A: listen request");
	EXPECT(wait_for(a, DPSCTP_CLIENT_COMPLETION, 2, &ev, 5, NULL, 0) &&
		       ev.completion.status == 0,
	       "A: LISTEN %u completes with 0 (got %d)", lport, ev.completion.status);
	EXPECT(dpsctp_client_listen(b, 0, lport, 13) == 0, "B: listen request");
	EXPECT(wait_for(b, DPSCTP_CLIENT_COMPLETION, 13, &ev, 5, &b_saw, ha) &&
		       ev.completion.status == -EADDRINUSE,
	       "B: LISTEN on A's port: -EADDRINUSE (got %d)", ev.completion.status);

	/* A's association still works: one message echoed; a quiet send that
	 * succeeds has no completion, the barrier behind it has one. */
	si.assoc = ha;
	EXPECT(dpsctp_client_send(a, 0, &si, msg, sizeof(msg), 3) == 0, "A: send request");
	EXPECT(dpsctp_client_barrier(a, 0, 5) == 0, "A: barrier request");
	bool barrier = false, echoed = false;
	unsigned quiet_cpl = 0;
	for (double end = now_s() + 10; !(barrier && echoed) && now_s() < end;) {
		struct dpsctp_client_event evs[16];
		int m = dpsctp_client_poll(a, 0, evs, 16);
		for (int i = 0; i < m; i++) {
			if (evs[i].kind == DPSCTP_CLIENT_COMPLETION &&
			    evs[i].completion.cookie == 3)
				quiet_cpl++;
			if (evs[i].kind == DPSCTP_CLIENT_COMPLETION &&
			    evs[i].completion.cookie == 5)
				barrier =
					evs[i].completion.status == 0 && evs[i].completion.op == 6;
			if (evs[i].kind == DPSCTP_CLIENT_RECV)
				echoed = evs[i].assoc == ha && evs[i].recv.len == sizeof(msg) &&
					 memcmp(evs[i].recv.data, msg, sizeof(msg)) == 0;
		}
	}
	EXPECT(barrier, "A: the barrier completes (op 6, status 0)");
	EXPECT(quiet_cpl == 0, "A: a quiet send that succeeded completed anyway");
	EXPECT(echoed, "A: the echo of its message");
	EXPECT(dpsctp_client_shutdown(a, 0, ha, 4) == 0, "A: shutdown request");
	EXPECT(wait_for(a, DPSCTP_CLIENT_SHUTDOWN_COMPLETE, 0, &ev, 10, NULL, 0),
	       "A: SHUTDOWN_COMPLETE");
	/* B heard nothing of A's association all along. */
	struct dpsctp_client_event evs[16];
	int n = dpsctp_client_poll(b, 0, evs, 16);
	for (int i = 0; i < n; i++)
		b_saw += evs[i].assoc == ha;
	EXPECT(b_saw == 0, "B saw %u events of A's association", b_saw);
	dpsctp_client_detach(a);
	dpsctp_client_detach(b);
	printf("dd_probe: isolation: %s\n", failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

/*
 * Zero copy: messages of 1 B to 20 KB (one packet, several) sent one at a
 * time to the echo server; each echo, delivered by reference (pieces with
 * DPSCTP_CLIENT_MORE for the packets of a large one), must be the message.
 */
static int
zerocopy(const char *sock, const char *peer, uint16_t port, unsigned n)
{
	static const uint32_t sizes[] = { 1, 100, 1452, 3000, 9000, 20000 };
	struct dpsctp_client_opts o = { .name = "probe-zc", .zero_copy = 1 };
	struct dpsctp_client *c = attach_opts(sock, &o);
	if (c == NULL)
		return 3;
	EXPECT(dpsctp_client_zero_copy(c) == 1, "the daemon granted zero copy");
	struct sctp_addr pa = { 4, { 0 } };
	if (inet_pton(AF_INET, peer, pa.bytes) != 1)
		return 2;
	struct dpsctp_client_event ev;
	EXPECT(dpsctp_client_connect(c, 0, &pa, 1, port, 1) == 0, "connect request");
	EXPECT(wait_for(c, DPSCTP_CLIENT_COMM_UP, 0, &ev, 10, NULL, 0), "COMM_UP");
	uint64_t h = ev.assoc;
	static uint8_t out[20000], in[20000];
	unsigned good = 0, pieces = 0;
	for (unsigned k = 0; k < n && failures == 0; k++) {
		uint32_t len = sizes[k % (sizeof(sizes) / sizeof(sizes[0]))];
		for (uint32_t i = 0; i < len; i++)
			out[i] = (uint8_t)(k * 31u + i * 7u);
		struct dpsctp_client_sndinfo si = { h, (uint16_t)(k % 4), htonl(k), 0, 0, 0, 0 };
		EXPECT(dpsctp_client_send(c, 0, &si, out, len, 100 + k) == 0, "send %u", k);
		uint32_t got = 0;
		bool whole = false;
		for (double end = now_s() + 10; !whole && now_s() < end;) {
			struct dpsctp_client_event evs[16];
			int m = dpsctp_client_poll(c, 0, evs, 16);
			if (m < 0) {
				EXPECT(false, "poll: %s", strerror(-m));
				break;
			}
			for (int i = 0; i < m; i++) {
				if (evs[i].kind != DPSCTP_CLIENT_RECV)
					continue;
				pieces++;
				if (got + evs[i].recv.len <= sizeof(in))
					memcpy(in + got, evs[i].recv.data, evs[i].recv.len);
				got += evs[i].recv.len;
				whole = !(evs[i].recv.flags & DPSCTP_CLIENT_MORE);
			}
		}
		EXPECT(whole && got == len && memcmp(in, out, len) == 0,
		       "echo %u: %u of %u bytes%s", k, got, len, whole ? "" : " (incomplete)");
		good += whole && got == len && memcmp(in, out, len) == 0;
	}
	EXPECT(dpsctp_client_shutdown(c, 0, h, 2) == 0, "shutdown request");
	EXPECT(wait_for(c, DPSCTP_CLIENT_SHUTDOWN_COMPLETE, 0, &ev, 10, NULL, 0),
	       "SHUTDOWN_COMPLETE");
	dpsctp_client_detach(c);
	printf("dd_probe: zerocopy: %u of %u echoes intact in %u pieces: %s\n", good, n, pieces,
	       failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

/* A hand-made attach: the region and thread 0's rings, as the library would. */
static int
raw_attach(const char *path, int *sock, struct sc_thread *th, struct sc_layout *l)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	*sock = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (*sock < 0 || connect(*sock, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		return -errno;
	struct sc_hello h;
	memset(&h, 0, sizeof(h));
	h.magic = SC_MAGIC;
	h.version = SC_VERSION;
	h.n_threads = 1;
	snprintf(h.name, sizeof(h.name), "probe-garbage");
	int rc = sc_hello_send(*sock, &h);
	struct sc_welcome w;
	int fds[2];
	if (rc == 0)
		rc = sc_welcome_recv(*sock, &w, fds, 2);
	if (rc != 0)
		return rc;
	if (w.status != 0)
		return w.status;
	*l = w.layout;
	void *base;
	rc = sc_region_map(fds[0], l, w.generation, &base);
	if (rc == 0)
		rc = sc_region_thread(base, l, 0, false, th);
	return rc;
}

static bool
socket_closed_within(int sock, int ms)
{
	struct pollfd pf = { sock, POLLIN, 0 };
	if (poll(&pf, 1, ms) <= 0)
		return false;
	char b;
	return recv(sock, &b, 1, MSG_DONTWAIT) == 0 || (pf.revents & (POLLHUP | POLLERR)) != 0;
}

static int
garbage(const char *path)
{
	int sock;
	struct sc_thread th;
	struct sc_layout l;
	int rc = raw_attach(path, &sock, &th, &l);
	if (rc != 0) {
		fprintf(stderr, "dd_probe: attach: %s\n", strerror(-rc));
		return 3;
	}
	/* 1. An unknown operation: an error for this request, nothing more. */
	struct sc_req *r = sc_ring_reserve(&th.req, 0);
	memset(r, 0, sizeof(*r));
	r->op = 0xee;
	r->cookie = 0x5a5a;
	(void)sc_ring_commit(&th.req, 1);
	bool got = false;
	for (double end = now_s() + 5; !got && now_s() < end;) {
		if (sc_ring_count(&th.cpl) > 0) {
			const struct sc_cpl *c = sc_ring_peek(&th.cpl, 0);
			EXPECT(c->cookie == 0x5a5a && c->status == -EPROTO,
			       "bad op: completion cookie %llx status %d, want 5a5a -EPROTO",
			       (unsigned long long)c->cookie, c->status);
			sc_ring_release(&th.cpl, 1);
			got = true;
		}
		usleep(1000);
	}
	EXPECT(got, "bad op: no completion within 5 s");
	EXPECT(!socket_closed_within(sock, 200), "bad op: detached for one bad request");

	/* 1b. A RESET_STREAMS (RFC 6525) with a flag nobody defined and no
	 * stream list (so no arena bytes out of step): the same. */
	r = sc_ring_reserve(&th.req, 0);
	memset(r, 0, sizeof(*r));
	r->op = SC_OP_RESET_STREAMS;
	r->assoc = 1;
	r->value = 0x04;
	r->cookie = 0x5a5b;
	(void)sc_ring_commit(&th.req, 1);
	got = false;
	for (double end = now_s() + 5; !got && now_s() < end; usleep(1000))
		if (sc_ring_count(&th.cpl) > 0) {
			const struct sc_cpl *c = sc_ring_peek(&th.cpl, 0);
			EXPECT(c->cookie == 0x5a5b && c->status == -EPROTO,
			       "bad RESET_STREAMS: completion cookie %llx status %d, want 5a5b "
			       "-EPROTO",
			       (unsigned long long)c->cookie, c->status);
			sc_ring_release(&th.cpl, 1);
			got = true;
		}
	EXPECT(got, "bad RESET_STREAMS: no completion within 5 s");
	EXPECT(!socket_closed_within(sock, 200), "bad RESET_STREAMS: detached");

	/* 2. A ring head the daemon cannot believe: detached, alone. */
	_Atomic uint32_t *head = (_Atomic uint32_t *)(void *)th.req.sh;
	atomic_store(head, th.req.mine + 10u * (th.req.mask + 1u));
	EXPECT(socket_closed_within(sock, 5000), "broken ring: still attached after 5 s");
	close(sock);

	/* 3. An event ring's tail beyond its head, then an ordinary request:
	 * the daemon notices when it next touches the rings (it posts no event
	 * here), not only when it next posts one. */
	rc = raw_attach(path, &sock, &th, &l);
	if (rc != 0) {
		fprintf(stderr, "dd_probe: attach again: %s\n", strerror(-rc));
		return 3;
	}
	/* First a request answered, so the daemon has set up its side of
	 * the rings: what follows is found by serving, not by attaching. */
	r = sc_ring_reserve(&th.req, 0);
	memset(r, 0, sizeof(*r));
	r->op = 0xee;
	(void)sc_ring_commit(&th.req, 1);
	got = false;
	for (double end = now_s() + 5; !got && now_s() < end; usleep(1000))
		if (sc_ring_count(&th.cpl) > 0) {
			sc_ring_release(&th.cpl, 1);
			got = true;
		}
	EXPECT(got, "second attach: no completion within 5 s");
	_Atomic uint32_t *evt_tail =
		(_Atomic uint32_t *)(void *)((uint8_t *)(void *)th.evt.sh + SC_RING_TAIL_OFF);
	atomic_store(evt_tail, th.evt.mine + 10u * (th.evt.mask + 1u));
	r = sc_ring_reserve(&th.req, 0);
	memset(r, 0, sizeof(*r));
	r->op = 0xee;
	(void)sc_ring_commit(&th.req, 1);
	EXPECT(socket_closed_within(sock, 5000),
	       "broken event ring: still attached 5 s after the next request");
	close(sock);
	printf("dd_probe: garbage: %s\n", failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

/*
 * CONNECT to peer:port from c: its completion's status (INT32_MIN: none),
 * INT32_MAX when it succeeded but no COMM_UP followed; *h the association.
 * Completion and COMM_UP may come in one poll: both are looked for in each.
 */
static int32_t
connect_up_init(struct dpsctp_client *c, const struct sctp_addr *pa, uint16_t port,
		const struct dpsctp_initmsg *init, uint64_t cookie, uint64_t *h)
{
	if (dpsctp_client_connect_opts(c, 0, pa, 1, port, init, cookie, NULL, 0) != 0)
		return INT32_MIN;
	int32_t st = INT32_MIN;
	uint64_t assoc = 0;
	bool up = false;
	for (double end = now_s() + 10; !up && now_s() < end;) {
		struct dpsctp_client_event ev[16];
		int n = dpsctp_client_poll(c, 0, ev, 16);
		for (int i = 0; i < n; i++) {
			if (ev[i].kind == DPSCTP_CLIENT_COMPLETION &&
			    ev[i].completion.cookie == cookie) {
				st = ev[i].completion.status;
				assoc = ev[i].assoc;
			}
			if (ev[i].kind == DPSCTP_CLIENT_COMM_UP && st == 0 &&
			    ev[i].assoc == assoc) {
				up = true;
				up_extensions = ev[i].assoc_change.extensions;
				up_out = ev[i].assoc_change.outbound_streams;
				up_in = ev[i].assoc_change.inbound_streams;
			}
		}
		if (st != INT32_MIN && st != 0)
			return st;
		if (n <= 0)
			(void)dpsctp_client_wait(c, 0, 10);
	}
	if (h != NULL)
		*h = assoc;
	return st == 0 && !up ? INT32_MAX : st;
}

static int32_t
connect_up(struct dpsctp_client *c, const struct sctp_addr *pa, uint16_t port, uint64_t cookie,
	   uint64_t *h)
{
	return connect_up_init(c, pa, port, NULL, cookie, h);
}

/* ------------------------------------------------------------ cplring */

#define CPL_SLOTS   64u	  /* the rings' size: the smallest the daemon grants */
#define CPL_MSG_MAX 1200u /* one packet: the echo comes back whole */

enum cpl_kind { CPL_QUIET, CPL_SEND, CPL_BARRIER, CPL_FAIL };

/* What a cplring run expects and has seen. */
static struct {
	struct dpsctp_client *c;
	uint64_t h;	 /* the association with the echo server */
	uint64_t cookie; /* the next request's */
	struct {
		uint64_t cookie;
		int32_t status;
		uint8_t op;
	} want[4u * CPL_SLOTS]; /* completions due, oldest first */
	unsigned want_head, want_n;
	uint32_t sent, echoed; /* messages by sequence number */
	uint32_t echo_off;     /* bytes of the echo in progress (pieces) */
	uint64_t sent_bytes, echoed_bytes, completions;
	uint8_t msg[CPL_MSG_MAX];
} cpl;

static uint32_t
cpl_len(uint32_t seq)
{
	return 1u + (seq * 131u) % CPL_MSG_MAX;
}

static uint8_t
cpl_byte(uint32_t seq, uint32_t i)
{
	return (uint8_t)(seq * 7u + i * 13u + (i >> 8));
}

/* One completion or event against what is due. false: a failure (said). */
static bool
cpl_consume(const struct dpsctp_client_event *e)
{
	if (e->kind == DPSCTP_CLIENT_COMPLETION) {
		if (cpl.want_n == 0) {
			EXPECT(false, "a completion nothing asked for: cookie %llu op %u status %d",
			       (unsigned long long)e->completion.cookie, e->completion.op,
			       e->completion.status);
			return false;
		}
		unsigned i = cpl.want_head;
		bool ok = e->completion.cookie == cpl.want[i].cookie &&
			  e->completion.op == cpl.want[i].op &&
			  e->completion.status == cpl.want[i].status;
		EXPECT(ok,
		       "completion %llu: cookie %llu op %u status %d, want cookie %llu op %u "
		       "status %d",
		       (unsigned long long)cpl.completions,
		       (unsigned long long)e->completion.cookie, e->completion.op,
		       e->completion.status, (unsigned long long)cpl.want[i].cookie, cpl.want[i].op,
		       cpl.want[i].status);
		cpl.want_head = (i + 1) % (sizeof(cpl.want) / sizeof(cpl.want[0]));
		cpl.want_n--;
		cpl.completions++;
		return ok;
	}
	if (e->kind == DPSCTP_CLIENT_PEER_ADDR_CHANGE)
		return true; /* its path confirmed: nothing to do with the rings */
	if (e->kind != DPSCTP_CLIENT_RECV) {
		EXPECT(false, "event %u (error %u) on the association", e->kind,
		       e->assoc_change.error);
		return false;
	}
	uint32_t seq = cpl.echoed, len = cpl_len(seq);
	bool ok = seq < cpl.sent && e->assoc == cpl.h && e->recv.ppid == htonl(seq) &&
		  cpl.echo_off + e->recv.len <= len;
	for (uint32_t i = 0; ok && i < e->recv.len; i++)
		ok = ((const uint8_t *)e->recv.data)[i] == cpl_byte(seq, cpl.echo_off + i);
	EXPECT(ok, "echo of message %u (of %u sent): %u bytes at %u, ppid %u: not what was sent",
	       seq, cpl.sent, e->recv.len, cpl.echo_off, ntohl(e->recv.ppid));
	cpl.echo_off += e->recv.len;
	if (!(e->recv.flags & DPSCTP_CLIENT_MORE)) {
		EXPECT(cpl.echo_off == len, "echo of message %u: %u bytes, want %u", seq,
		       cpl.echo_off, len);
		cpl.echoed++;
		cpl.echoed_bytes += len;
		cpl.echo_off = 0;
	}
	return ok;
}

/* Poll up to max; the completions among them in *cpls. false: a failure. */
static bool
cpl_poll(unsigned max, unsigned *cpls)
{
	struct dpsctp_client_event ev[CPL_SLOTS];
	int n = dpsctp_client_poll(cpl.c, 0, ev, max < CPL_SLOTS ? max : CPL_SLOTS);
	if (n < 0) {
		EXPECT(false, "poll: %s (detached by the daemon?)", strerror(-n));
		return false;
	}
	for (int i = 0; i < n; i++) {
		if (!cpl_consume(&ev[i]))
			return false;
		*cpls += ev[i].kind == DPSCTP_CLIENT_COMPLETION;
	}
	return true;
}

static void
cpl_due(uint64_t cookie, uint8_t op, int32_t status)
{
	unsigned cap = sizeof(cpl.want) / sizeof(cpl.want[0]);
	cpl.want[(cpl.want_head + cpl.want_n) % cap].cookie = cookie;
	cpl.want[(cpl.want_head + cpl.want_n) % cap].op = op;
	cpl.want[(cpl.want_head + cpl.want_n) % cap].status = status;
	cpl.want_n++;
}

/* Post one request of kind k, without polling (that would change the fill
 * level): a full ring empties as the daemon serves, the completion ring
 * having room for everything posted before. */
static bool
cpl_post(enum cpl_kind k)
{
	uint64_t cookie = ++cpl.cookie;
	int rc = -EAGAIN;
	for (double end = now_s() + 5; rc == -EAGAIN && now_s() < end;) {
		if (k == CPL_BARRIER) {
			rc = dpsctp_client_barrier(cpl.c, 0, cookie);
			continue;
		}
		uint32_t seq = cpl.sent, len = cpl_len(seq);
		for (uint32_t i = 0; i < len; i++)
			cpl.msg[i] = cpl_byte(seq, i);
		/* A quiet send that fails: a handle of the right slot, an older generation. */
		struct dpsctp_client_sndinfo si = { k == CPL_FAIL ? cpl.h + (1ull << 32) : cpl.h,
						    0,
						    htonl(seq),
						    k == CPL_SEND ? 0u : DPSCTP_CLIENT_QUIET,
						    0,
						    0,
						    0 };
		rc = dpsctp_client_send(cpl.c, 0, &si, cpl.msg, len, cookie);
		if (rc == 0 && k != CPL_FAIL) {
			cpl.sent++;
			cpl.sent_bytes += len;
		}
	}
	EXPECT(rc == 0, "post of a request of kind %d: %s", k, strerror(-rc));
	if (k == CPL_BARRIER)
		cpl_due(cookie, 6, 0);
	else if (k == CPL_SEND)
		cpl_due(cookie, 3, 0);
	else if (k == CPL_FAIL)
		cpl_due(cookie, 3, -ENOENT);
	return rc == 0;
}

/*
 * One trial: fill the completion ring with barriers (the daemon then serves
 * nothing more), queue the mix behind them, take all but f of the barriers'
 * completions in one poll (one release: the daemon sees S - f free slots at
 * once), wait for the daemon to serve a round of the mix, then take
 * everything: completions and echoes.
 */
static bool
cpl_trial(unsigned f, const enum cpl_kind mix[3])
{
	for (unsigned i = 0; i < CPL_SLOTS; i++)
		if (!cpl_post(CPL_BARRIER))
			return false;
	for (unsigned i = 0; i < CPL_SLOTS; i++)
		if (!cpl_post(mix[i % 3]))
			return false;
	double end = now_s() + 10;
	for (unsigned taken = 0; taken < CPL_SLOTS - f;) {
		if (!cpl_poll(CPL_SLOTS - f - taken, &taken))
			return false;
		if (now_s() > end) {
			EXPECT(false, "level %u: the barriers' completions did not come", f);
			return false;
		}
	}
	/* The mix fills the request ring: one more request goes in only once
	 * the daemon has served a round of it, with S - f slots free. */
	if (!cpl_post(CPL_BARRIER))
		return false;
	while (cpl.want_n != 0 || cpl.echoed != cpl.sent) {
		unsigned got = 0;
		if (!cpl_poll(CPL_SLOTS, &got))
			return false;
		if (now_s() > end) {
			EXPECT(false, "level %u mix %d%d%d: %u completions and %u echoes missing",
			       f, mix[0], mix[1], mix[2], cpl.want_n, cpl.sent - cpl.echoed);
			return false;
		}
	}
	return true;
}

static int
cplring(const char *sock, const char *peer, uint16_t port)
{
	struct dpsctp_client_opts o = { .name = "probe-cpl", .ring_slots = CPL_SLOTS };
	cpl.c = attach_opts(sock, &o);
	if (cpl.c == NULL)
		return 3;
	struct sctp_addr pa = { 4, { 0 } };
	if (inet_pton(AF_INET, peer, pa.bytes) != 1)
		return 2;
	struct dpsctp_client_event ev;
	int32_t st = connect_up(cpl.c, &pa, port, 1, &cpl.h);
	EXPECT(st == 0, "CONNECT: %d", st);
	cpl.cookie = 100;
	unsigned trials = 0;
	for (unsigned f = 0; f < CPL_SLOTS && failures == 0; f++)
		for (unsigned m = 0; m < 64 && failures == 0; m++) {
			enum cpl_kind mix[3] = { (enum cpl_kind)(m % 4), (enum cpl_kind)(m / 4 % 4),
						 (enum cpl_kind)(m / 16) };
			trials += cpl_trial(f, mix);
		}
	if (failures == 0) {
		EXPECT(dpsctp_client_shutdown(cpl.c, 0, cpl.h, 2) == 0, "shutdown request");
		EXPECT(wait_for(cpl.c, DPSCTP_CLIENT_SHUTDOWN_COMPLETE, 0, &ev, 10, NULL, 0),
		       "SHUTDOWN_COMPLETE");
	}
	dpsctp_client_detach(cpl.c);
	printf("dd_probe: cplring: %u trials, %llu completions in order, %u messages (%llu "
	       "bytes) sent, %u (%llu bytes) echoed intact: %s\n",
	       trials, (unsigned long long)cpl.completions, cpl.sent,
	       (unsigned long long)cpl.sent_bytes, cpl.echoed, (unsigned long long)cpl.echoed_bytes,
	       failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

/* ------------------------------------------------ listeners and limits */

/* The status of the completion of `cookie` (INT32_MIN: none within 5 s). */
static int32_t
status_of(struct dpsctp_client *c, uint64_t cookie)
{
	struct dpsctp_client_event ev;
	return wait_for(c, DPSCTP_CLIENT_COMPLETION, cookie, &ev, 5, NULL, 0) ? ev.completion.status
									      : INT32_MIN;
}

static struct dpsctp_client *
attach_named(const char *sock, const char *name)
{
	struct dpsctp_client_opts o = { .name = name };
	return attach_opts(sock, &o);
}

static int
listen_ports(const char *sock, uint16_t first, unsigned n, bool hold)
{
	struct dpsctp_client *c = attach_named(sock, "probe-listen");
	if (c == NULL)
		return 3;
	for (unsigned i = 0; i < n; i++) {
		int32_t st = dpsctp_client_listen(c, 0, (uint16_t)(first + i), 10 + i) == 0
				     ? status_of(c, 10 + i)
				     : INT32_MIN;
		EXPECT(st == 0, "LISTEN %u: %d, want 0", first + i, st);
	}
	if (hold && failures == 0) {
		printf("dd_probe: holding %u ports\n", n);
		fflush(stdout);
		for (;;)
			pause(); /* until killed */
	}
	dpsctp_client_detach(c);
	printf("dd_probe: listen %u..%u: %s\n", first, first + n - 1,
	       failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

/* A request by kind on port, its completion's status. */
static int32_t
port_op(struct dpsctp_client *c, bool listen, uint16_t port)
{
	static uint64_t cookie = 1000;
	cookie++;
	int rc = listen ? dpsctp_client_listen(c, 0, port, cookie)
			: dpsctp_client_unlisten(c, 0, port, cookie);
	return rc == 0 ? status_of(c, cookie) : INT32_MIN;
}

static int
unlisten(const char *sock, uint16_t port, unsigned app_listens)
{
	struct dpsctp_client *a = attach_named(sock, "probe-A"), *b = attach_named(sock, "probe-B");
	if (a == NULL || b == NULL)
		return 3;
	int32_t st;
	EXPECT((st = port_op(a, true, port)) == 0, "A: LISTEN %u: %d, want 0", port, st);
	EXPECT((st = port_op(b, true, port)) == -EADDRINUSE, "B: LISTEN on A's port: %d", st);
	EXPECT((st = port_op(b, false, port)) == -ENOENT, "B: UNLISTEN of A's port: %d", st);
	EXPECT((st = port_op(a, false, port)) == 0, "A: UNLISTEN %u: %d, want 0", port, st);
	EXPECT((st = port_op(a, false, port)) == -ENOENT, "A: second UNLISTEN: %d", st);
	EXPECT((st = port_op(b, true, port)) == 0, "B: LISTEN on the port A gave back: %d", st);
	EXPECT((st = port_op(a, true, port)) == -EADDRINUSE, "A: LISTEN on B's port now: %d", st);
	EXPECT((st = port_op(b, false, port)) == 0, "B: UNLISTEN: %d", st);
	/* The per-application limit counts ports held now, not ports ever listened on. */
	for (unsigned i = 1; i <= app_listens; i++)
		EXPECT((st = port_op(a, true, (uint16_t)(port + i))) == 0, "A: LISTEN %u: %d",
		       port + i, st);
	uint16_t over = (uint16_t)(port + app_listens + 1);
	EXPECT((st = port_op(a, true, over)) == -ENOBUFS, "A: LISTEN beyond --app-listens: %d", st);
	EXPECT((st = port_op(a, false, (uint16_t)(port + 1))) == 0, "A: UNLISTEN %u: %d", port + 1,
	       st);
	EXPECT((st = port_op(a, true, over)) == 0, "A: LISTEN %u after an UNLISTEN: %d", over, st);
	dpsctp_client_detach(a);
	dpsctp_client_detach(b);
	printf("dd_probe: unlisten: %s\n", failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

static int
limits(const char *sock, const char *peer, uint16_t port, unsigned n)
{
	struct sctp_addr pa = { 4, { 0 } };
	if (inet_pton(AF_INET, peer, pa.bytes) != 1)
		return 2;
	struct dpsctp_client *a = attach_named(sock, "probe-A"), *b = attach_named(sock, "probe-B");
	if (a == NULL || b == NULL)
		return 3;
	int32_t st;
	for (unsigned i = 0; i < n; i++)
		EXPECT((st = connect_up(a, &pa, port, 10 + i, NULL)) == 0, "A: association %u: %d",
		       i + 1, st);
	EXPECT((st = connect_up(a, &pa, port, 99, NULL)) == -ENOBUFS,
	       "A: CONNECT beyond --app-assocs %u: %d, want -ENOBUFS", n, st);
	EXPECT((st = connect_up(b, &pa, port, 1, NULL)) == 0,
	       "B: CONNECT while A holds its limit: %d, want 0", st);
	dpsctp_client_detach(a);
	dpsctp_client_detach(b);
	printf("dd_probe: limits: %s\n", failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

static int
accept_limit(const char *sock, const char *peer, uint16_t port, unsigned n, unsigned secs)
{
	struct sctp_addr pa = { 4, { 0 } };
	if (inet_pton(AF_INET, peer, pa.bytes) != 1)
		return 2;
	struct dpsctp_client *c = attach_named(sock, "probe-accept");
	if (c == NULL)
		return 3;
	int32_t st = port_op(c, true, port);
	EXPECT(st == 0, "LISTEN %u: %d", port, st);
	printf("dd_probe: listening on %u\n", port);
	fflush(stdout);
	unsigned up = 0, live = 0, max_live = 0;
	bool asked = false;
	for (double end = now_s() + secs; now_s() < end;) {
		struct dpsctp_client_event ev[32];
		int m = dpsctp_client_poll(c, 0, ev, 32);
		if (m < 0) {
			EXPECT(false, "poll: %s", strerror(-m));
			break;
		}
		for (int i = 0; i < m; i++) {
			if (ev[i].kind == DPSCTP_CLIENT_COMM_UP) {
				up++;
				live++;
			} else if (ev[i].kind == DPSCTP_CLIENT_COMM_LOST ||
				   ev[i].kind == DPSCTP_CLIENT_SHUTDOWN_COMPLETE) {
				live--;
			} else if (ev[i].kind == DPSCTP_CLIENT_COMPLETION &&
				   ev[i].completion.cookie == 77) {
				EXPECT(ev[i].completion.status == -ENOBUFS,
				       "CONNECT with %u accepted associations up: %d, want "
				       "-ENOBUFS",
				       n, ev[i].completion.status);
			}
		}
		if (live > max_live)
			max_live = live;
		if (live == n && !asked) {
			asked = true;
			EXPECT(dpsctp_client_connect(c, 0, &pa, 1, 9, 77) == 0, "CONNECT request");
		}
		if (m == 0)
			(void)dpsctp_client_wait(c, 0, 10);
	}
	EXPECT(max_live == n, "%u associations accepted at once, want %u (--app-assocs)", max_live,
	       n);
	EXPECT(asked, "never had %u accepted associations up", n);
	dpsctp_client_detach(c);
	printf("dd_probe: accept: %u accepted in all, at most %u at once: %s\n", up, max_live,
	       failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

/* ------------------------------------------------------------- prsctp */

static int
prsctp(const char *sock, const char *peer, uint16_t port, const char *ext)
{
	struct dpsctp_client_opts o = { .name = "probe-pr" };
	struct dpsctp_client *c = attach_opts(sock, &o);
	if (c == NULL)
		return 3;
	struct sctp_addr pa = { 4, { 0 } };
	if (inet_pton(AF_INET, peer, pa.bytes) != 1)
		return 2;
	uint32_t want_ext = 0;
	if (strcmp(ext, "none") != 0) {
		char list[64];
		snprintf(list, sizeof(list), "%s", ext);
		for (char *save = NULL, *w = strtok_r(list, ",", &save); w != NULL;
		     w = strtok_r(NULL, ",", &save))
			want_ext |= strcmp(w, "pr-sctp") == 0	 ? DPSCTP_CLIENT_EXT_PR_SCTP
				    : strcmp(w, "i-data") == 0	 ? DPSCTP_CLIENT_EXT_I_DATA
				    : strcmp(w, "reconfig") == 0 ? DPSCTP_CLIENT_EXT_RECONFIG
								 : 0x80u; /* never negotiated */
	}
	uint64_t h = 0;
	int32_t up = connect_up(c, &pa, port, 1, &h);
	EXPECT(up == 0, "connect and COMM_UP: %d", up);
	EXPECT(up_extensions == want_ext, "COMM_UP's extensions 0x%x, expected 0x%x (%s)",
	       up_extensions, want_ext, ext);

	static const struct {
		uint32_t policy, value;
		const char *name;
	} sends[] = {
		{ DPSCTP_CLIENT_PR_NONE, 0, "reliable" },
		{ DPSCTP_CLIENT_PR_TTL, 60000, "a 60 s lifetime" },
		{ DPSCTP_CLIENT_PR_RTX, 5, "5 retransmissions" },
		{ DPSCTP_CLIENT_PR_PRIO, 3, "priority 3" },
	};
	const unsigned n = sizeof(sends) / sizeof(sends[0]);
	char msg[64];
	unsigned done = 0, echoed = 0, failed = 0;
	for (unsigned k = 0; k < n; k++) {
		struct dpsctp_client_sndinfo si = {
			h, 0, htonl(k), 0, sends[k].policy, sends[k].value, 0
		};
		memset(msg, 0, sizeof(msg)); /* every byte of it is compared */
		snprintf(msg, sizeof(msg), "message %u: %s", k, sends[k].name);
		EXPECT(dpsctp_client_send(c, 0, &si, msg, sizeof(msg), 100 + k) == 0,
		       "send with %s posted", sends[k].name);
	}
	for (double end = now_s() + 10; (done < n || echoed < n) && now_s() < end;) {
		struct dpsctp_client_event ev[16];
		int m = dpsctp_client_poll(c, 0, ev, 16);
		for (int i = 0; i < m; i++) {
			if (ev[i].kind == DPSCTP_CLIENT_COMPLETION &&
			    ev[i].completion.cookie >= 100 && ev[i].completion.cookie < 100 + n) {
				unsigned k = (unsigned)(ev[i].completion.cookie - 100);
				EXPECT(ev[i].completion.status == 0,
				       "SEND with %s completes with 0 (got %d)", sends[k].name,
				       ev[i].completion.status);
				done++;
			} else if (ev[i].kind == DPSCTP_CLIENT_RECV) {
				uint32_t k = ntohl(ev[i].recv.ppid);
				memset(msg, 0, sizeof(msg));
				snprintf(msg, sizeof(msg), "message %u: %s", k,
					 k < n ? sends[k].name : "?");
				EXPECT(k < n && ev[i].recv.len == sizeof(msg) &&
					       memcmp(ev[i].recv.data, msg, sizeof(msg)) == 0,
				       "the echo of message %u intact", k);
				echoed++;
			} else if (ev[i].kind == DPSCTP_CLIENT_SEND_FAILED) {
				failed++;
			}
		}
		if (m == 0)
			(void)dpsctp_client_wait(c, 0, 10);
	}
	EXPECT(done == n, "%u of %u sends completed", done, n);
	EXPECT(echoed == n, "%u of %u echoed", echoed, n);
	EXPECT(failed == 0, "%u SEND_FAILED on a link that loses nothing", failed);

	/* What dpsctp_send() would refuse never reaches the daemon. */
	struct dpsctp_client_sndinfo bad = { h, 0, 0, 0, DPSCTP_CLIENT_PR_PRIO + 1, 0, 0 };
	EXPECT(dpsctp_client_send(c, 0, &bad, msg, sizeof(msg), 9) == -EINVAL,
	       "an unknown policy is -EINVAL");
	bad.pr_policy = DPSCTP_CLIENT_PR_TTL;
	EXPECT(dpsctp_client_send(c, 0, &bad, msg, sizeof(msg), 9) == -EINVAL,
	       "a lifetime of 0 ms is -EINVAL");

	struct dpsctp_client_event ev;
	EXPECT(dpsctp_client_shutdown(c, 0, h, 4) == 0, "shutdown request");
	EXPECT(wait_for(c, DPSCTP_CLIENT_SHUTDOWN_COMPLETE, 0, &ev, 10, NULL, 0),
	       "SHUTDOWN_COMPLETE");
	dpsctp_client_detach(c);
	printf("dd_probe: prsctp: extensions 0x%x, %u sent with policies, %u echoed: %s\n",
	       up_extensions, done, echoed, failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

/* -------------------------------------------------------------- sched */

/* The completion of the request with this cookie: its status, and *value. */
static int32_t
sched_cpl(struct dpsctp_client *c, uint64_t cookie, enum dpsctp_client_op op, uint32_t *value)
{
	struct dpsctp_client_event ev;
	if (!wait_for(c, DPSCTP_CLIENT_COMPLETION, cookie, &ev, 10, NULL, 0)) {
		EXPECT(false, "no completion for request %llu", (unsigned long long)cookie);
		return INT32_MIN;
	}
	EXPECT(ev.completion.op == op, "request %llu completed as op %d, not %d",
	       (unsigned long long)cookie, (int)ev.completion.op, (int)op);
	EXPECT(ev.completion.status == 0 || ev.completion.value == 0,
	       "a failed request %llu with a value", (unsigned long long)cookie);
	if (value != NULL)
		*value = ev.completion.value;
	return ev.completion.status;
}

static int
sched(const char *sock, const char *peer, uint16_t port, const char *sched_name)
{
	static const char *const names[] = { "rr", "fcfs", "rr_pkt", "prio", "fc", "wfq" };
	uint32_t want = UINT32_MAX, v = 0;
	for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i], sched_name) == 0)
			want = i;
	if (want == UINT32_MAX)
		return 2;
	struct dpsctp_client_opts o = { .name = "probe-sched" };
	struct dpsctp_client *c = attach_opts(sock, &o);
	if (c == NULL)
		return 3;
	struct sctp_addr pa = { 4, { 0 } };
	if (inet_pton(AF_INET, peer, pa.bytes) != 1)
		return 2;
	uint64_t h = 0, ck = 100;
	int32_t rc = connect_up(c, &pa, port, 1, &h);
	EXPECT(rc == 0, "connect and COMM_UP: %d", rc);

	/* The daemon's --sched, then each scheduler in turn. */
	EXPECT(dpsctp_client_get_sched(c, 0, h, ++ck) == 0, "GET_SCHED posted");
	rc = sched_cpl(c, ck, DPSCTP_CLIENT_OP_GET_SCHED, &v);
	EXPECT(rc == 0 && v == want, "GET_SCHED: %d, %u; want the daemon's %s (%u)", rc, v,
	       sched_name, want);
	for (uint32_t s = DPSCTP_CLIENT_SCHED_RR; s <= DPSCTP_CLIENT_SCHED_WFQ; s++) {
		EXPECT(dpsctp_client_set_sched(c, 0, h, s, ++ck) == 0, "SET_SCHED %u posted", s);
		rc = sched_cpl(c, ck, DPSCTP_CLIENT_OP_SET_SCHED, NULL);
		EXPECT(rc == 0, "SET_SCHED %s: %d", names[s], rc);
		EXPECT(dpsctp_client_get_sched(c, 0, h, ++ck) == 0, "GET_SCHED posted");
		rc = sched_cpl(c, ck, DPSCTP_CLIENT_OP_GET_SCHED, &v);
		EXPECT(rc == 0 && v == s, "GET_SCHED after SET_SCHED %s: %d, %u", names[s], rc, v);
	}
	EXPECT(dpsctp_client_set_sched(c, 0, h, DPSCTP_CLIENT_SCHED_WFQ + 1, ++ck) == -EINVAL,
	       "an unknown scheduler is -EINVAL in the library");

	/* Under wfq (set last): a weight of 0 is refused, others kept. */
	EXPECT(dpsctp_client_set_stream_param(c, 0, h, 1, 0, ++ck) == 0, "posted");
	rc = sched_cpl(c, ck, DPSCTP_CLIENT_OP_SET_STREAM_PARAM, NULL);
	EXPECT(rc == -EINVAL, "a weight of 0 under wfq: %d, want -EINVAL", rc);
	EXPECT(dpsctp_client_set_stream_param(c, 0, h, 1, 700, ++ck) == 0, "posted");
	rc = sched_cpl(c, ck, DPSCTP_CLIENT_OP_SET_STREAM_PARAM, NULL);
	EXPECT(rc == 0, "SET_STREAM_PARAM 1 = 700: %d", rc);
	EXPECT(dpsctp_client_get_stream_param(c, 0, h, 1, ++ck) == 0, "posted");
	rc = sched_cpl(c, ck, DPSCTP_CLIENT_OP_GET_STREAM_PARAM, &v);
	EXPECT(rc == 0 && v == 700, "GET_STREAM_PARAM 1: %d, %u; want 700", rc, v);
	EXPECT(dpsctp_client_get_stream_param(c, 0, h, 2, ++ck) == 0, "posted");
	rc = sched_cpl(c, ck, DPSCTP_CLIENT_OP_GET_STREAM_PARAM, &v);
	EXPECT(rc == 0 && v == 0, "GET_STREAM_PARAM 2: %d, %u; want the default 0", rc, v);
	/* 64 streams (--max-streams): 64 is not one of them. */
	EXPECT(dpsctp_client_set_stream_param(c, 0, h, 64, 1, ++ck) == 0, "posted");
	rc = sched_cpl(c, ck, DPSCTP_CLIENT_OP_SET_STREAM_PARAM, NULL);
	EXPECT(rc == -EINVAL, "SET_STREAM_PARAM of stream 64: %d, want -EINVAL", rc);
	EXPECT(dpsctp_client_get_stream_param(c, 0, h, 64, ++ck) == 0, "posted");
	rc = sched_cpl(c, ck, DPSCTP_CLIENT_OP_GET_STREAM_PARAM, NULL);
	EXPECT(rc == -EINVAL, "GET_STREAM_PARAM of stream 64: %d, want -EINVAL", rc);

	/* An association of nobody's (another generation of the slot). */
	uint64_t bad = h ^ (1ull << 40);
	EXPECT(dpsctp_client_set_sched(c, 0, bad, 0, ++ck) == 0, "posted");
	EXPECT(sched_cpl(c, ck, DPSCTP_CLIENT_OP_SET_SCHED, NULL) == -ENOENT, "SET_SCHED: -ENOENT");
	EXPECT(dpsctp_client_get_sched(c, 0, bad, ++ck) == 0, "posted");
	EXPECT(sched_cpl(c, ck, DPSCTP_CLIENT_OP_GET_SCHED, NULL) == -ENOENT, "GET_SCHED: -ENOENT");
	EXPECT(dpsctp_client_set_stream_param(c, 0, bad, 0, 1, ++ck) == 0, "posted");
	EXPECT(sched_cpl(c, ck, DPSCTP_CLIENT_OP_SET_STREAM_PARAM, NULL) == -ENOENT,
	       "SET_STREAM_PARAM: -ENOENT");
	EXPECT(dpsctp_client_get_stream_param(c, 0, bad, 0, ++ck) == 0, "posted");
	EXPECT(sched_cpl(c, ck, DPSCTP_CLIENT_OP_GET_STREAM_PARAM, NULL) == -ENOENT,
	       "GET_STREAM_PARAM: -ENOENT");

	/*
	 * A SET_SCHED right behind a 200,000-byte send finds most of it still
	 * queued (the first window is 10 packets): -EBUSY, the scheduler
	 * unchanged. Tried a few times, in case this process was held up
	 * between the two posts long enough for the send to leave.
	 */
	static uint8_t big[200000];
	unsigned busy = 0, echoed = 0, tries = 0;
	for (; tries < 5 && busy == 0; tries++) {
		for (uint32_t i = 0; i < sizeof(big); i++)
			big[i] = (uint8_t)(i * 7u + tries);
		struct dpsctp_client_sndinfo si = { h, 3, htonl(tries), 0, 0, 0, 0 };
		EXPECT(dpsctp_client_send(c, 0, &si, big, sizeof(big), 50) == 0, "send posted");
		EXPECT(dpsctp_client_set_sched(c, 0, h, DPSCTP_CLIENT_SCHED_FCFS, ++ck) == 0,
		       "SET_SCHED posted");
		/* Its completion and the echo, whole (parts put back together),
		 * from the same polls: neither may be taken for the other. */
		uint32_t got = 0, mid = 0;
		bool whole = false, intact = true, done = false;
		rc = INT32_MIN;
		for (double end = now_s() + 20; !(whole && done) && now_s() < end;) {
			struct dpsctp_client_event ev[16];
			int m = dpsctp_client_poll(c, 0, ev, 16);
			for (int i = 0; i < m; i++) {
				if (ev[i].kind == DPSCTP_CLIENT_COMPLETION &&
				    ev[i].completion.cookie == ck) {
					rc = ev[i].completion.status;
					done = true;
				}
				if (ev[i].kind != DPSCTP_CLIENT_RECV)
					continue;
				const uint8_t *d = ev[i].recv.data;
				for (uint32_t k = 0; k < ev[i].recv.len && got + k < sizeof(big);
				     k++)
					intact &= d[k] == big[got + k];
				/* Every part names the same message (RECV's mid, version 5). */
				if (got == 0)
					mid = ev[i].recv.mid;
				intact &= ev[i].recv.mid == mid && ev[i].recv.sid == 3 &&
					  ev[i].recv.ssn == (uint16_t)mid;
				got += ev[i].recv.len;
				whole = !(ev[i].recv.flags & DPSCTP_CLIENT_MORE);
			}
			if (m == 0)
				(void)dpsctp_client_wait(c, 0, 10);
		}
		EXPECT(rc == -EBUSY || rc == 0, "SET_SCHED behind a send: %d", rc);
		busy += rc == -EBUSY;
		EXPECT(whole && intact && got == sizeof(big), "echo %u: %u bytes%s", tries, got,
		       intact ? "" : ", not the ones sent");
		echoed += whole && intact && got == sizeof(big);
	}
	EXPECT(busy == 1, "SET_SCHED behind a send never -EBUSY in %u tries", tries);
	EXPECT(dpsctp_client_get_sched(c, 0, h, ++ck) == 0, "posted");
	rc = sched_cpl(c, ck, DPSCTP_CLIENT_OP_GET_SCHED, &v);
	EXPECT(rc == 0 && v == (tries == 1 ? DPSCTP_CLIENT_SCHED_WFQ : DPSCTP_CLIENT_SCHED_FCFS),
	       "the scheduler after a refused change: %u", v);

	struct dpsctp_client_event ev;
	EXPECT(dpsctp_client_shutdown(c, 0, h, 4) == 0, "shutdown request");
	EXPECT(wait_for(c, DPSCTP_CLIENT_SHUTDOWN_COMPLETE, 0, &ev, 10, NULL, 0),
	       "SHUTDOWN_COMPLETE");
	dpsctp_client_detach(c);
	printf("dd_probe: sched: the daemon's %s, %u requests, %u echoed, -EBUSY after %u: %s\n",
	       sched_name, (unsigned)(ck - 100), echoed, tries, failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

/* ------------------------------------------------------------- reconf */

/*
 * What the polls brought and nobody took yet: a completion and the events
 * it caused may come in one poll, in either order. STREAM_RESET's list is
 * copied (the library's copy lasts until the next poll).
 */
#define RQ_MAX 256u
static struct dpsctp_client_event rq[RQ_MAX];
static uint16_t rq_sids[RQ_MAX][32];
static unsigned rq_n;

/* The first waiting event of `kind` (a completion: with `cookie`), within secs. */
static bool
rq_take(struct dpsctp_client *c, enum dpsctp_client_kind kind, uint64_t cookie,
	struct dpsctp_client_event *out, double secs, uint16_t *sids)
{
	for (double end = now_s() + secs;;) {
		for (unsigned i = 0; i < rq_n; i++) {
			if (rq[i].kind != kind ||
			    (kind == DPSCTP_CLIENT_COMPLETION && rq[i].completion.cookie != cookie))
				continue;
			*out = rq[i];
			if (kind == DPSCTP_CLIENT_STREAM_RESET && sids != NULL)
				memcpy(sids, rq_sids[i], sizeof(rq_sids[i]));
			memmove(&rq[i], &rq[i + 1], (rq_n - i - 1) * sizeof(rq[0]));
			memmove(&rq_sids[i], &rq_sids[i + 1], (rq_n - i - 1) * sizeof(rq_sids[0]));
			rq_n--;
			return true;
		}
		if (now_s() >= end || rq_n == RQ_MAX)
			return false;
		struct dpsctp_client_event ev[16];
		unsigned room = RQ_MAX - rq_n < 16 ? RQ_MAX - rq_n : 16;
		int n = dpsctp_client_poll(c, 0, ev, room);
		if (n < 0) {
			fprintf(stderr, "dd_probe: poll: %s\n", strerror(-n));
			return false;
		}
		for (int i = 0; i < n; i++) {
			rq[rq_n] = ev[i];
			if (ev[i].kind == DPSCTP_CLIENT_STREAM_RESET &&
			    ev[i].stream_reset.n <= 32 && ev[i].stream_reset.n != 0)
				memcpy(rq_sids[rq_n], ev[i].stream_reset.streams,
				       ev[i].stream_reset.n * sizeof(uint16_t));
			rq_n++;
		}
		if (n == 0)
			(void)dpsctp_client_wait(c, 0, 10);
	}
}

/* The completion of the request with this cookie: its status (INT32_MIN: none). */
static int32_t
rq_status(struct dpsctp_client *c, uint64_t cookie, enum dpsctp_client_op op)
{
	struct dpsctp_client_event ev;
	if (!rq_take(c, DPSCTP_CLIENT_COMPLETION, cookie, &ev, 10, NULL)) {
		EXPECT(false, "no completion for request %llu", (unsigned long long)cookie);
		return INT32_MIN;
	}
	EXPECT(ev.completion.op == op, "request %llu completed as op %d, not %d",
	       (unsigned long long)cookie, (int)ev.completion.op, (int)op);
	return ev.completion.status;
}

/* A message on stream sid comes back on it, intact. */
static void
rq_echo(struct dpsctp_client *c, uint64_t h, uint16_t sid, uint64_t cookie)
{
	char msg[48], want[48];
	memset(msg, 0, sizeof(msg));
	snprintf(msg, sizeof(msg), "stream %u, request %llu", sid, (unsigned long long)cookie);
	memcpy(want, msg, sizeof(msg));
	struct dpsctp_client_sndinfo si = { h, sid, htonl(sid), 0, 0, 0, 0 };
	EXPECT(dpsctp_client_send(c, 0, &si, msg, sizeof(msg), cookie) == 0, "send posted");
	int32_t rc = rq_status(c, cookie, DPSCTP_CLIENT_OP_SEND);
	EXPECT(rc == 0, "send on stream %u: %d", sid, rc);
	struct dpsctp_client_event ev;
	bool got = rq_take(c, DPSCTP_CLIENT_RECV, 0, &ev, 10, NULL);
	EXPECT(got && ev.recv.sid == sid && ev.recv.len == sizeof(want) &&
		       memcmp(ev.recv.data, want, sizeof(want)) == 0,
	       "the echo on stream %u: %s, stream %u, %u bytes", sid, got ? "came" : "none",
	       got ? ev.recv.sid : 0, got ? ev.recv.len : 0);
}

static int
reconf(const char *sock, const char *peer, uint16_t port, bool on)
{
	struct dpsctp_client *c = attach_named(sock, "probe-reconf");
	struct dpsctp_client *other = attach_named(sock, "probe-other");
	if (c == NULL || other == NULL)
		return 3;
	struct sctp_addr pa = { 4, { 0 } };
	if (inet_pton(AF_INET, peer, pa.bytes) != 1)
		return 2;
	uint64_t h = 0, ck = 100;
	int32_t rc = connect_up(c, &pa, port, 1, &h);
	EXPECT(rc == 0, "connect and COMM_UP: %d", rc);
	EXPECT(((up_extensions & DPSCTP_CLIENT_EXT_RECONFIG) != 0) == on,
	       "COMM_UP's extensions 0x%x %s RE-CONFIG", up_extensions, on ? "lack" : "have");
	EXPECT(up_out == 8 && up_in == 8, "COMM_UP: %u streams out, %u in; want --out-streams' 8",
	       up_out, up_in);
	const uint16_t two[] = { 1, 2 };
	struct dpsctp_client_event ev;
	uint16_t sids[32];

	if (!on) {
		EXPECT(dpsctp_client_reset_streams(c, 0, h, DPSCTP_CLIENT_RESET_OUTGOING, two, 2,
						   ++ck) == 0,
		       "posted");
		rc = rq_status(c, ck, DPSCTP_CLIENT_OP_RESET_STREAMS);
		EXPECT(rc == -EOPNOTSUPP, "RESET_STREAMS not negotiated: %d", rc);
		EXPECT(dpsctp_client_add_streams(c, 0, h, 1, 1, ++ck) == 0, "posted");
		rc = rq_status(c, ck, DPSCTP_CLIENT_OP_ADD_STREAMS);
		EXPECT(rc == -EOPNOTSUPP, "ADD_STREAMS not negotiated: %d", rc);
		EXPECT(dpsctp_client_reset_assoc(c, 0, h, ++ck) == 0, "posted");
		rc = rq_status(c, ck, DPSCTP_CLIENT_OP_RESET_ASSOC);
		EXPECT(rc == -EOPNOTSUPP, "RESET_ASSOC not negotiated: %d", rc);
		rq_echo(c, h, 1, ++ck);
		goto out;
	}

	/* Our outgoing streams 1 and 2, after a message on 1 (its SSN is not 0). */
	rq_echo(c, h, 1, ++ck);
	EXPECT(dpsctp_client_reset_streams(c, 0, h, DPSCTP_CLIENT_RESET_OUTGOING, two, 2, ++ck) ==
		       0,
	       "posted");
	rc = rq_status(c, ck, DPSCTP_CLIENT_OP_RESET_STREAMS);
	EXPECT(rc == 0, "RESET_STREAMS outgoing 1, 2: %d", rc);
	bool got = rq_take(c, DPSCTP_CLIENT_STREAM_RESET, 0, &ev, 10, sids);
	EXPECT(got && ev.assoc == h && ev.stream_reset.flags == DPSCTP_CLIENT_RESET_OUTGOING_SSN &&
		       ev.stream_reset.n == 2 && sids[0] == 1 && sids[1] == 2,
	       "STREAM_RESET of our streams 1 and 2: %s, flags 0x%x, %u streams",
	       got ? "came" : "none", got ? ev.stream_reset.flags : 0, got ? ev.stream_reset.n : 0);
	rq_echo(c, h, 1, ++ck);

	/* The peer's outgoing streams, every one; a request while it waits is -EINPROGRESS
	 * (tried again if the first was answered before the second was served). */
	unsigned busy = 0, tries = 0;
	for (; tries < 5 && busy == 0; tries++) {
		EXPECT(dpsctp_client_reset_streams(c, 0, h, DPSCTP_CLIENT_RESET_INCOMING, NULL, 0,
						   ++ck) == 0,
		       "posted");
		EXPECT(dpsctp_client_reset_streams(c, 0, h, DPSCTP_CLIENT_RESET_OUTGOING, two, 1,
						   ck + 1) == 0,
		       "posted");
		rc = rq_status(c, ck, DPSCTP_CLIENT_OP_RESET_STREAMS);
		EXPECT(rc == 0, "RESET_STREAMS incoming, every stream: %d", rc);
		int32_t second = rq_status(c, ++ck, DPSCTP_CLIENT_OP_RESET_STREAMS);
		EXPECT(second == -EINPROGRESS || second == 0, "a second request: %d", second);
		busy += second == -EINPROGRESS;
		got = rq_take(c, DPSCTP_CLIENT_STREAM_RESET, 0, &ev, 10, sids);
		EXPECT(got && ev.stream_reset.flags == DPSCTP_CLIENT_RESET_INCOMING_SSN &&
			       ev.stream_reset.n == 0,
		       "STREAM_RESET of every incoming stream: %s, flags 0x%x, %u streams",
		       got ? "came" : "none", got ? ev.stream_reset.flags : 0,
		       got ? ev.stream_reset.n : 0);
		if (second == 0) /* it went after all: its answer too */
			EXPECT(rq_take(c, DPSCTP_CLIENT_STREAM_RESET, 0, &ev, 10, sids),
			       "STREAM_RESET of stream 1");
	}
	EXPECT(busy == 1, "a request while one waits never -EINPROGRESS in %u tries", tries);
	const uint16_t none[] = { 8 }; /* streams 0 .. 7 */
	EXPECT(dpsctp_client_reset_streams(c, 0, h, DPSCTP_CLIENT_RESET_OUTGOING, none, 1, ++ck) ==
		       0,
	       "posted");
	rc = rq_status(c, ck, DPSCTP_CLIENT_OP_RESET_STREAMS);
	EXPECT(rc == -EINVAL, "RESET_STREAMS of stream 8 of 8: %d, want -EINVAL", rc);

	/* 2 more outbound and 3 more inbound streams: one STREAM_CHANGE per direction. */
	EXPECT(dpsctp_client_add_streams(c, 0, h, 2, 3, ++ck) == 0, "posted");
	rc = rq_status(c, ck, DPSCTP_CLIENT_OP_ADD_STREAMS);
	EXPECT(rc == 0, "ADD_STREAMS 2 out, 3 in: %d", rc);
	uint16_t o = up_out, i = up_in;
	unsigned changes = 0;
	while ((o != 10 || i != 11) && rq_take(c, DPSCTP_CLIENT_STREAM_CHANGE, 0, &ev, 10, NULL)) {
		EXPECT(ev.stream_change.flags == 0, "STREAM_CHANGE flags 0x%x",
		       ev.stream_change.flags);
		o = ev.stream_change.outbound_streams;
		i = ev.stream_change.inbound_streams;
		changes++;
	}
	EXPECT(o == 10 && i == 11, "after %u STREAM_CHANGE: %u out, %u in; want 10 and 11", changes,
	       o, i);
	rq_echo(c, h, 9, ++ck);

	/*
	 * Past --max-streams 16 (10 + 7 outbound): the daemon's call refuses
	 * it at once, -EINVAL in the completion, and nothing changes.
	 */
	EXPECT(dpsctp_client_add_streams(c, 0, h, 7, 0, ++ck) == 0, "posted");
	rc = rq_status(c, ck, DPSCTP_CLIENT_OP_ADD_STREAMS);
	EXPECT(rc == -EINVAL, "ADD_STREAMS 7 out past 16: %d, want -EINVAL", rc);
	EXPECT(dpsctp_client_add_streams(c, 0, h, 0, 6, ++ck) == 0, "posted");
	rc = rq_status(c, ck, DPSCTP_CLIENT_OP_ADD_STREAMS);
	EXPECT(rc == -EINVAL, "ADD_STREAMS 6 in past 16: %d, want -EINVAL", rc);
	rq_echo(c, h, 9, ++ck);

	/* Both TSNs and every stream: once our echo sends are acknowledged. */
	rc = -EAGAIN;
	for (double end = now_s() + 10; rc == -EAGAIN && now_s() < end;) {
		EXPECT(dpsctp_client_reset_assoc(c, 0, h, ++ck) == 0, "posted");
		rc = rq_status(c, ck, DPSCTP_CLIENT_OP_RESET_ASSOC);
		if (rc == -EAGAIN)
			usleep(50000);
	}
	EXPECT(rc == 0, "RESET_ASSOC: %d", rc);
	got = rq_take(c, DPSCTP_CLIENT_ASSOC_RESET, 0, &ev, 10, NULL);
	EXPECT(got && ev.assoc_reset.flags == 0 &&
		       ev.assoc_reset.local_tsn != ev.assoc_reset.remote_tsn,
	       "ASSOC_RESET: %s, flags 0x%x, TSNs %u, %u", got ? "came" : "none",
	       got ? ev.assoc_reset.flags : 0, got ? ev.assoc_reset.local_tsn : 0,
	       got ? ev.assoc_reset.remote_tsn : 0);
	rq_echo(c, h, 0, ++ck);
	rq_echo(c, h, 9, ++ck);

	/* What the library refuses, and what the daemon does not let another application name. */
	uint16_t many[33] = { 0 };
	EXPECT(dpsctp_client_reset_streams(c, 0, h, 0x04, two, 2, ++ck) == -EINVAL,
	       "a bad flag: -EINVAL in the library");
	EXPECT(dpsctp_client_reset_streams(c, 0, h, DPSCTP_CLIENT_RESET_OUTGOING, many, 33, ++ck) ==
		       -EINVAL,
	       "33 streams: -EINVAL in the library");
	EXPECT(dpsctp_client_reset_streams(other, 0, h, DPSCTP_CLIENT_RESET_OUTGOING, two, 2, 7) ==
		       0,
	       "posted");
	EXPECT(rq_status(other, 7, DPSCTP_CLIENT_OP_RESET_STREAMS) == -ENOENT,
	       "RESET_STREAMS on another application's association: -ENOENT");
	uint64_t bad = h ^ (1ull << 40); /* another generation of the slot */
	EXPECT(dpsctp_client_add_streams(c, 0, bad, 1, 0, ++ck) == 0, "posted");
	EXPECT(rq_status(c, ck, DPSCTP_CLIENT_OP_ADD_STREAMS) == -ENOENT, "ADD_STREAMS: -ENOENT");
	EXPECT(dpsctp_client_reset_assoc(c, 0, bad, ++ck) == 0, "posted");
	EXPECT(rq_status(c, ck, DPSCTP_CLIENT_OP_RESET_ASSOC) == -ENOENT, "RESET_ASSOC: -ENOENT");
	EXPECT(dpsctp_client_reset_streams(c, 0, bad, DPSCTP_CLIENT_RESET_OUTGOING, NULL, 0,
					   ++ck) == 0,
	       "posted");
	EXPECT(rq_status(c, ck, DPSCTP_CLIENT_OP_RESET_STREAMS) == -ENOENT,
	       "RESET_STREAMS: -ENOENT");
out:
	EXPECT(dpsctp_client_shutdown(c, 0, h, 4) == 0, "shutdown request");
	EXPECT(rq_take(c, DPSCTP_CLIENT_SHUTDOWN_COMPLETE, 0, &ev, 10, NULL), "SHUTDOWN_COMPLETE");
	dpsctp_client_detach(other);
	dpsctp_client_detach(c);
	printf("dd_probe: reconf %s: extensions 0x%x, %u requests: %s\n", on ? "on" : "off",
	       up_extensions, (unsigned)(ck - 100), failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

/* -------------------------------------------------------------- opts */

static uint64_t opt_ck = 5000; /* cookies of the opts requests */

/* SETOPT posted, then its completion: the status (INT32_MIN: none; the
 * library's own refusal, with its reason in why). */
static int32_t
opt_set(struct dpsctp_client *c, uint64_t h, int opt, const void *v, uint32_t len, char *why,
	size_t whylen)
{
	int rc = dpsctp_client_setopt(c, 0, h, opt, v, len, ++opt_ck, why, whylen);
	if (rc != 0)
		return rc;
	return sched_cpl(c, opt_ck, DPSCTP_CLIENT_OP_SETOPT, NULL);
}

/* GETOPT posted (question q, or none), then its answer copied into out: the status. */
static int32_t
opt_get(struct dpsctp_client *c, uint64_t h, int opt, const void *q, uint32_t qlen, void *out,
	uint32_t len)
{
	int rc = dpsctp_client_getopt(c, 0, h, opt, q, qlen, ++opt_ck);
	if (rc != 0)
		return rc;
	struct dpsctp_client_event ev;
	if (!wait_for(c, DPSCTP_CLIENT_COMPLETION, opt_ck, &ev, 10, NULL, 0)) {
		EXPECT(false, "no completion for GETOPT %d", opt);
		return INT32_MIN;
	}
	EXPECT(ev.completion.op == DPSCTP_CLIENT_OP_GETOPT, "GETOPT %d completed as op %d", opt,
	       (int)ev.completion.op);
	if (ev.completion.status != 0) {
		EXPECT(ev.completion.data == NULL && ev.completion.len == 0,
		       "GETOPT %d refused with an answer", opt);
		return ev.completion.status;
	}
	EXPECT(ev.completion.len == len && ev.completion.data != NULL,
	       "GETOPT %d: an answer of %u bytes, want %u", opt, ev.completion.len, len);
	memcpy(out, ev.completion.data, ev.completion.len < len ? ev.completion.len : len);
	return 0;
}

static uint32_t
opt_u32(struct dpsctp_client *c, uint64_t h, int opt)
{
	struct dpsctp_assoc_value v = { UINT32_MAX };
	int32_t rc = opt_get(c, h, opt, NULL, 0, &v, sizeof(v));
	EXPECT(rc == 0, "GETOPT %d of %llx: %d", opt, (unsigned long long)h, rc);
	return v.value;
}

/* A message on h comes back from the echo peer. */
static bool
opt_echo(struct dpsctp_client *c, uint64_t h)
{
	struct dpsctp_client_sndinfo si = { h, 0, htonl(51), 0, 0, 0, 0 };
	struct dpsctp_client_event ev;
	if (dpsctp_client_send(c, 0, &si, "options", 7, ++opt_ck) != 0)
		return false;
	return wait_for(c, DPSCTP_CLIENT_RECV, 0, &ev, 10, NULL, 0) && ev.assoc == h &&
	       ev.recv.len == 7 && memcmp(ev.recv.data, "options", 7) == 0;
}

/* One path's information is sane: active, with a window, an RTT sample, an RTO and an MTU. */
static void
opt_path_sane(const struct dpsctp_paddrinfo *p, const struct sctp_addr *peer, const char *what)
{
	/* Usable: active, or potentially failed (RFC 7829). The data-center profile's
	 * PF threshold of 0 puts the only path there after one late heartbeat on a loaded
	 * machine, and data still goes on it; inactive would be a failure. */
	EXPECT(p->state == DPSCTP_CLIENT_PATH_ACTIVE ||
		       p->state == DPSCTP_CLIENT_PATH_POTENTIALLY_FAILED,
	       "%s: state %u, want ACTIVE or POTENTIALLY_FAILED", what, p->state);
	EXPECT(p->cwnd != 0 && p->srtt_us != 0 && p->rto_us != 0 && p->mtu >= 576,
	       "%s: cwnd %u, srtt %u us, rto %u us, mtu %u: want each set", what, p->cwnd,
	       p->srtt_us, p->rto_us, p->mtu);
	EXPECT(p->addr.family == peer->family && memcmp(p->addr.bytes, peer->bytes, 4) == 0,
	       "%s: the path to family %u, not the peer's", what, p->addr.family);
}

/*
 * The per-association options through the daemon (dpsctpd --loopback-peer
 * echo): set on one association and read back, STATUS and PEER_ADDR_INFO,
 * refusals (the library's with the option's message, the data plane's in
 * the completion), isolation, the application's defaults (its own, not
 * another's; associations made before keep theirs), INITMSG at connect, and
 * malformed requests written by hand.
 */
static int
opts(const char *sock, const char *peer, uint16_t port)
{
	struct dpsctp_client *c = attach_named(sock, "probe-opts");
	struct dpsctp_client *other = attach_named(sock, "probe-opts-other");
	if (c == NULL || other == NULL)
		return 3;
	struct sctp_addr pa = { 4, { 0 } };
	if (inet_pton(AF_INET, peer, pa.bytes) != 1)
		return 2;
	char why[160];
	uint64_t h = 0, h2 = 0, h3 = 0, hb = 0;
	int32_t rc = connect_up(c, &pa, port, 1, &h);
	EXPECT(rc == 0, "connect and COMM_UP: %d", rc);
	uint16_t out = up_out, in = up_in;
	EXPECT(opt_echo(c, h), "a message echoed before the options");

	/* STATUS and PEER_ADDR_INFO. */
	struct dpsctp_status st;
	rc = opt_get(c, h, DPSCTP_OPT_STATUS, NULL, 0, &st, sizeof(st));
	EXPECT(rc == 0, "GETOPT STATUS: %d", rc);
	EXPECT(st.state == DPSCTP_CLIENT_STATE_ESTABLISHED, "STATUS.state %u, want ESTABLISHED",
	       st.state);
	EXPECT(st.outstrms == out && st.instrms == in,
	       "STATUS streams out %u in %u, COMM_UP said %u %u", st.outstrms, st.instrms, out, in);
	EXPECT(st.rwnd != 0 && st.fragmentation_point != 0, "STATUS rwnd %u, fragmentation %u",
	       st.rwnd, st.fragmentation_point);
	opt_path_sane(&st.primary, &pa, "STATUS.primary");
	struct dpsctp_paddrinfo pi, q;
	memset(&q, 0, sizeof(q));
	q.addr = pa;
	rc = opt_get(c, h, DPSCTP_OPT_PEER_ADDR_INFO, &q, sizeof(q), &pi, sizeof(pi));
	EXPECT(rc == 0, "GETOPT PEER_ADDR_INFO of the peer's address: %d", rc);
	opt_path_sane(&pi, &pa, "PEER_ADDR_INFO");
	rc = opt_get(c, h, DPSCTP_OPT_PEER_ADDR_INFO, NULL, 0, &pi, sizeof(pi));
	EXPECT(rc == 0, "GETOPT PEER_ADDR_INFO, no address (the primary): %d", rc);
	opt_path_sane(&pi, &pa, "PEER_ADDR_INFO of the primary");
	q.addr.bytes[3] ^= 0x40;
	rc = opt_get(c, h, DPSCTP_OPT_PEER_ADDR_INFO, &q, sizeof(q), &pi, sizeof(pi));
	EXPECT(rc == -ENOENT, "PEER_ADDR_INFO of an address not the peer's: %d, want -ENOENT", rc);

	/* RTOINFO, DELAYED_SACK and EVENTS set on the association, read back. */
	struct dpsctp_rtoinfo rto = { 800000, 400000, 30000000 }, rto_b;
	EXPECT(opt_set(c, h, DPSCTP_OPT_RTOINFO, &rto, sizeof(rto), why, sizeof(why)) == 0,
	       "SETOPT RTOINFO");
	rc = opt_get(c, h, DPSCTP_OPT_RTOINFO, NULL, 0, &rto_b, sizeof(rto_b));
	EXPECT(rc == 0 && memcmp(&rto, &rto_b, sizeof(rto)) == 0, "RTOINFO read back: %d, %u %u %u",
	       rc, rto_b.initial_us, rto_b.min_us, rto_b.max_us);
	struct dpsctp_sack_info sack = { 40000, 3 }, sack_b;
	EXPECT(opt_set(c, h, DPSCTP_OPT_DELAYED_SACK, &sack, sizeof(sack), why, sizeof(why)) == 0,
	       "SETOPT DELAYED_SACK");
	rc = opt_get(c, h, DPSCTP_OPT_DELAYED_SACK, NULL, 0, &sack_b, sizeof(sack_b));
	EXPECT(rc == 0 && sack_b.delay_us == 40000 && sack_b.freq == 3,
	       "DELAYED_SACK read back: %d, %u us, %u", rc, sack_b.delay_us, sack_b.freq);
	struct dpsctp_events evm = { DPSCTP_CLIENT_EVENT_SEND_FAILED |
				     DPSCTP_CLIENT_EVENT_STREAM_RESET },
			     evm_b;
	EXPECT(opt_set(c, h, DPSCTP_OPT_EVENTS, &evm, sizeof(evm), why, sizeof(why)) == 0,
	       "SETOPT EVENTS");
	rc = opt_get(c, h, DPSCTP_OPT_EVENTS, NULL, 0, &evm_b, sizeof(evm_b));
	EXPECT(rc == 0 && (evm_b.mask & evm.mask) == evm.mask &&
		       !(evm_b.mask & DPSCTP_CLIENT_EVENT_PEER_ADDR_CHANGE),
	       "EVENTS read back: %d, 0x%x", rc, evm_b.mask);
	EXPECT(opt_echo(c, h), "a message echoed after the options");
	/* DEFAULT_SNDINFO: a send that names nothing goes on its stream, with its PPID. */
	struct dpsctp_default_sndinfo ds = { 2, 0, 77, 0, 0, 0, 0 };
	EXPECT(opt_set(c, h, DPSCTP_OPT_DEFAULT_SNDINFO, &ds, sizeof(ds), why, sizeof(why)) == 0,
	       "SETOPT DEFAULT_SNDINFO");
	struct dpsctp_client_sndinfo dsi = {
		h, 5, htonl(5), DPSCTP_CLIENT_DEFAULT_SNDINFO, 0, 0, 0
	};
	struct dpsctp_client_event dev = { .kind = DPSCTP_CLIENT_COMPLETION };
	EXPECT(dpsctp_client_send(c, 0, &dsi, "dflt", 4, ++opt_ck) == 0 &&
		       wait_for(c, DPSCTP_CLIENT_RECV, 0, &dev, 10, NULL, 0) && dev.assoc == h &&
		       dev.recv.sid == 2 && dev.recv.ppid == htonl(77),
	       "a DEFAULT_SNDINFO send echoed on stream %u, PPID %u (want 2, 77)", dev.recv.sid,
	       ntohl(dev.recv.ppid));

	/* Refused: by the library with the option's message (nothing posted), and by the
	 * data plane for a value that does not fit those in force. */
	struct dpsctp_rtoinfo bad = { 0, 2000000, 1000000 };
	rc = opt_set(c, h, DPSCTP_OPT_RTOINFO, &bad, sizeof(bad), why, sizeof(why));
	EXPECT(rc == -EINVAL && strstr(why, "RTOINFO.min_us 2000000") != NULL,
	       "RTOINFO min above max: %d \"%s\"", rc, why);
	struct dpsctp_sack_info bad_sack = { 700000, 0 };
	rc = opt_set(c, h, DPSCTP_OPT_DELAYED_SACK, &bad_sack, sizeof(bad_sack), why, sizeof(why));
	EXPECT(rc == -EINVAL && strstr(why, "DELAYED_SACK.delay_us 700000") != NULL,
	       "DELAYED_SACK of 700 ms: %d \"%s\"", rc, why);
	struct dpsctp_events bad_ev = { 1u << 30 };
	rc = opt_set(c, h, DPSCTP_OPT_EVENTS, &bad_ev, sizeof(bad_ev), why, sizeof(why));
	EXPECT(rc == -EINVAL && strstr(why, "EVENTS.mask") != NULL, "EVENTS bit 30: %d \"%s\"", rc,
	       why);
	struct dpsctp_rtoinfo high_min = { 0, 35000000, 0 }; /* above max 30 s in force */
	rc = opt_set(c, h, DPSCTP_OPT_RTOINFO, &high_min, sizeof(high_min), why, sizeof(why));
	EXPECT(rc == -EINVAL, "RTOINFO min above the max in force: %d, want -EINVAL", rc);
	rc = opt_get(c, h, DPSCTP_OPT_RTOINFO, NULL, 0, &rto_b, sizeof(rto_b));
	EXPECT(rc == 0 && memcmp(&rto, &rto_b, sizeof(rto)) == 0,
	       "RTOINFO unchanged by the refusals: %u %u %u", rto_b.initial_us, rto_b.min_us,
	       rto_b.max_us);

	/* Another application: no option of this association, set or read. */
	struct dpsctp_assoc_value burst = { 2 };
	rc = opt_set(other, h, DPSCTP_OPT_MAX_BURST, &burst, sizeof(burst), why, sizeof(why));
	EXPECT(rc == -ENOENT, "another application's SETOPT: %d, want -ENOENT", rc);
	rc = opt_get(other, h, DPSCTP_OPT_STATUS, NULL, 0, &st, sizeof(st));
	EXPECT(rc == -ENOENT, "another application's GETOPT STATUS: %d, want -ENOENT", rc);
	rc = opt_get(other, h, DPSCTP_OPT_RTOINFO, NULL, 0, &rto_b, sizeof(rto_b));
	EXPECT(rc == -ENOENT, "another application's GETOPT RTOINFO: %d, want -ENOENT", rc);
	uint32_t burst_before = opt_u32(c, h, DPSCTP_OPT_MAX_BURST);

	/* The application's defaults: its associations made afterwards start with them, the
	 * one before keeps its values, another application's neither. */
	uint32_t daemon_burst = opt_u32(c, 0, DPSCTP_OPT_MAX_BURST);
	burst.value = daemon_burst + 3;
	EXPECT(opt_set(c, 0, DPSCTP_OPT_MAX_BURST, &burst, sizeof(burst), why, sizeof(why)) == 0,
	       "SETOPT MAX_BURST default");
	struct dpsctp_rtoinfo rto_def = { 0, 0, 45000000 }, rto_def_b;
	EXPECT(opt_set(c, 0, DPSCTP_OPT_RTOINFO, &rto_def, sizeof(rto_def), why, sizeof(why)) == 0,
	       "SETOPT RTOINFO default, max only");
	rc = opt_get(c, 0, DPSCTP_OPT_RTOINFO, NULL, 0, &rto_def_b, sizeof(rto_def_b));
	EXPECT(rc == 0 && rto_def_b.max_us == 45000000 && rto_def_b.min_us != 0 &&
		       rto_def_b.initial_us != 0,
	       "the RTOINFO default read back: the daemon's with max 45 s (%u %u %u)",
	       rto_def_b.initial_us, rto_def_b.min_us, rto_def_b.max_us);
	struct dpsctp_sack_info slow = { 450000, 0 }; /* fine alone, not below RTO.Min */
	rc = opt_set(c, 0, DPSCTP_OPT_DELAYED_SACK, &slow, sizeof(slow), why, sizeof(why));
	EXPECT(rc == -EINVAL, "a DELAYED_SACK default above the RTO.Min default: %d, want -EINVAL",
	       rc);
	rc = opt_get(c, 0, DPSCTP_OPT_DELAYED_SACK, NULL, 0, &sack_b, sizeof(sack_b));
	EXPECT(rc == 0 && sack_b.delay_us < 450000, "the DELAYED_SACK default unchanged: %u us",
	       sack_b.delay_us);
	struct dpsctp_initmsg im = { 5, 6, 0, 0, 0 };
	EXPECT(opt_set(c, 0, DPSCTP_OPT_INITMSG, &im, sizeof(im), why, sizeof(why)) == 0,
	       "SETOPT INITMSG default");
	EXPECT(opt_u32(c, 0, DPSCTP_OPT_MAX_BURST) == daemon_burst + 3, "the MAX_BURST default");
	EXPECT(opt_u32(other, 0, DPSCTP_OPT_MAX_BURST) == daemon_burst,
	       "another application's MAX_BURST default is the daemon's");
	EXPECT(opt_u32(c, h, DPSCTP_OPT_MAX_BURST) == burst_before,
	       "the association made before keeps its MAX_BURST");
	rc = connect_up(c, &pa, port, 2, &h2);
	EXPECT(rc == 0, "second connect: %d", rc);
	EXPECT(up_out == 5 && up_in <= 6,
	       "INITMSG default: COMM_UP streams out %u in %u, want 5, "
	       "at most 6",
	       up_out, up_in);
	EXPECT(opt_u32(c, h2, DPSCTP_OPT_MAX_BURST) == daemon_burst + 3,
	       "the association made after has the MAX_BURST default");
	rc = opt_get(c, h2, DPSCTP_OPT_RTOINFO, NULL, 0, &rto_b, sizeof(rto_b));
	EXPECT(rc == 0 && rto_b.max_us == 45000000 && rto_b.min_us == rto_def_b.min_us,
	       "the association made after has the RTOINFO default: %u %u %u", rto_b.initial_us,
	       rto_b.min_us, rto_b.max_us);
	EXPECT(opt_echo(c, h2), "the association with the defaults echoes");
	rc = connect_up(other, &pa, port, 3, &hb);
	EXPECT(rc == 0, "the other application's connect: %d", rc);
	EXPECT(opt_u32(other, hb, DPSCTP_OPT_MAX_BURST) == daemon_burst,
	       "the other application's association has the daemon's MAX_BURST");

	/* INITMSG at connect: the call's fields over the application's defaults. */
	im = (struct dpsctp_initmsg){ 3, 0, 0, 0, 0 };
	rc = connect_up_init(c, &pa, port, &im, 4, &h3);
	EXPECT(rc == 0, "connect_opts and COMM_UP: %d", rc);
	EXPECT(up_out == 3 && up_in <= 6, "connect_opts: COMM_UP streams out %u in %u (3, <= 6)",
	       up_out, up_in);
	rc = opt_get(c, h3, DPSCTP_OPT_STATUS, NULL, 0, &st, sizeof(st));
	EXPECT(rc == 0 && st.outstrms == 3 && st.instrms == up_in,
	       "connect_opts: STATUS streams %u %u, COMM_UP said 3 %u", st.outstrms, st.instrms,
	       up_in);
	im = (struct dpsctp_initmsg){ 0, 0, 0, 0, 0 };
	im.reserved = 9;
	EXPECT(dpsctp_client_connect_opts(c, 0, &pa, 1, port, &im, 5, why, sizeof(why)) ==
			       -EINVAL &&
		       strstr(why, "INITMSG.reserved") != NULL,
	       "connect_opts with a bad INITMSG: \"%s\"", why);

	/* The handles end: their options are gone with them. Messages still queued or
	 * unacknowledged at the abort (far more than one round trip's window was posted
	 * right before it) fail with SEND_FAILED, each carrying its send's context. */
	static char big[16384];
	uint32_t n_big = 12;
	for (uint32_t i = 0; i < n_big; i++) {
		struct dpsctp_client_sndinfo bsi = { h2, 1, htonl(i),	    DPSCTP_CLIENT_QUIET,
						     0,	 0, 0xc0de0000u + i };
		EXPECT(dpsctp_client_send(c, 0, &bsi, big, sizeof(big), 900 + i) == 0,
		       "big send %u posted", i);
	}
	EXPECT(dpsctp_client_abort(c, 0, h2, ++opt_ck) == 0, "abort posted");
	/* (Its COMM_LOST came inside the abort: the handle is gone with the completion.) */
	unsigned n_failed = 0, bad_ctx = 0;
	uint32_t seen_ctx = 0;
	bool aborted = false;
	for (double end = now_s() + 10; !aborted && now_s() < end;) {
		struct dpsctp_client_event fev[16];
		int n = dpsctp_client_poll(c, 0, fev, 16);
		for (int i = 0; i < n; i++) {
			if (fev[i].kind == DPSCTP_CLIENT_SEND_FAILED && fev[i].assoc == h2 &&
			    fev[i].send_failed.context != 0) {
				/* Each message once, with its own context; the PPID names
				 * it too, but an I-DATA message whose first fragment was
				 * acknowledged reports PPID 0 (its other fragments carry
				 * an FSN there). Context 0: an echo sent earlier without
				 * one, its SACK not in yet. */
				uint32_t k = fev[i].send_failed.context - 0xc0de0000u;
				uint32_t ppid = ntohl(fev[i].send_failed.ppid);
				bool ok = k < n_big && !(seen_ctx >> k & 1u) &&
					  (ppid == k || ppid == 0);
				seen_ctx |= 1u << (k & 31u);
				n_failed++;
				bad_ctx += !ok;
			}
			aborted |= fev[i].kind == DPSCTP_CLIENT_COMPLETION &&
				   fev[i].completion.cookie == opt_ck &&
				   fev[i].completion.op == DPSCTP_CLIENT_OP_ABORT;
		}
		if (n <= 0)
			(void)dpsctp_client_wait(c, 0, 10);
	}
	EXPECT(aborted, "abort completed");
	EXPECT(n_failed > 0 && bad_ctx == 0,
	       "SEND_FAILED at the abort: %u, %u with a context not their send's", n_failed,
	       bad_ctx);
	rc = opt_get(c, h2, DPSCTP_OPT_STATUS, NULL, 0, &st, sizeof(st));
	EXPECT(rc == -ENOENT, "GETOPT on an ended association: %d, want -ENOENT", rc);
	dpsctp_client_detach(other);
	dpsctp_client_detach(c);

	/* Written by hand: an option id beyond the wire's, with its bytes in the arena,
	 * refused (-EPROTO) and the arena in step (the next GETOPT answered); then bytes
	 * that are not the arena's next: detached. */
	int rsock;
	struct sc_thread th;
	struct sc_layout l;
	rc = raw_attach(sock, &rsock, &th, &l);
	if (rc != 0) {
		fprintf(stderr, "dd_probe: attach: %s\n", strerror(-rc));
		return 3;
	}
	int err;
	uint64_t off;
	void *b = sc_arena_alloc(&th.tx, sizeof(struct dpsctp_rtoinfo), &off, &err);
	memset(b, 0, sizeof(struct dpsctp_rtoinfo));
	sc_arena_publish(&th.tx);
	struct sc_req *r = sc_ring_reserve(&th.req, 0);
	memset(r, 0, sizeof(*r));
	r->op = SC_OP_SETOPT;
	r->value = SC_OPT_ID_MAX + 1;
	r->off = off;
	r->len = sizeof(struct dpsctp_rtoinfo);
	r->cookie = 0x0b;
	r = sc_ring_reserve(&th.req, 1);
	memset(r, 0, sizeof(*r));
	r->op = SC_OP_GETOPT;
	r->value = DPSCTP_OPT_MAX_BURST;
	r->cookie = 0x0c;
	(void)sc_ring_commit(&th.req, 2);
	bool got = false;
	for (double end = now_s() + 5; !got && now_s() < end; usleep(1000)) {
		if (sc_ring_count(&th.cpl) < 3)
			continue;
		const struct sc_cpl *c1 = sc_ring_peek(&th.cpl, 0);
		const struct sc_cpl *c2 = sc_ring_peek(&th.cpl, 1);
		struct dpsctp_assoc_value v;
		memcpy(&v, sc_ring_peek(&th.cpl, 2), sizeof(v));
		EXPECT(c1->cookie == 0x0b && c1->status == -EPROTO,
		       "SETOPT of option 64: cookie %llx status %d, want -EPROTO",
		       (unsigned long long)c1->cookie, c1->status);
		EXPECT(c2->cookie == 0x0c && c2->status == 0 && c2->value == sizeof(v) &&
			       v.value == daemon_burst,
		       "GETOPT after it: status %d, %u bytes, MAX_BURST %u (the daemon's %u)",
		       c2->status, c2->value, v.value, daemon_burst);
		sc_ring_release(&th.cpl, 3);
		got = true;
	}
	EXPECT(got, "raw SETOPT and GETOPT: no completions within 5 s");
	EXPECT(!socket_closed_within(rsock, 200), "a bad option id: detached");
	b = sc_arena_alloc(&th.tx, 64, &off, &err);
	memset(b, 0, 64);
	sc_arena_publish(&th.tx);
	r = sc_ring_reserve(&th.req, 0);
	memset(r, 0, sizeof(*r));
	r->op = SC_OP_SETOPT;
	r->value = DPSCTP_OPT_RTOINFO;
	r->off = (off + 32) % l.arena_bytes; /* not where the bytes are */
	r->len = sizeof(struct dpsctp_rtoinfo);
	(void)sc_ring_commit(&th.req, 1);
	EXPECT(socket_closed_within(rsock, 5000), "option bytes out of step: still attached");
	close(rsock);
	printf("dd_probe: opts: %llu requests: %s\n", (unsigned long long)(opt_ck - 5000),
	       failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

/*
 * An association accepted on PORT gets the application's defaults: set
 * MAX_BURST and DELAYED_SACK defaults, listen, say "listening"; the peer
 * connects; the association's options are the defaults, and the peer's
 * messages are echoed until it closes (N of them).
 */
static int
opts_accept(const char *sock, uint16_t port, unsigned n)
{
	struct dpsctp_client *c = attach_named(sock, "probe-opts-accept");
	if (c == NULL)
		return 3;
	char why[160];
	struct dpsctp_assoc_value burst = { 9 };
	struct dpsctp_sack_info sack = { 200, 2 }; /* below either profile's RTO.Min */
	EXPECT(opt_set(c, 0, DPSCTP_OPT_MAX_BURST, &burst, sizeof(burst), why, sizeof(why)) == 0,
	       "SETOPT MAX_BURST default");
	EXPECT(opt_set(c, 0, DPSCTP_OPT_DELAYED_SACK, &sack, sizeof(sack), why, sizeof(why)) == 0,
	       "SETOPT DELAYED_SACK default");
	EXPECT(dpsctp_client_listen(c, 0, port, 1) == 0 && status_of(c, 1) == 0, "LISTEN");
	printf("dd_probe: listening\n");
	fflush(stdout);
	/* One loop for everything: the peer's messages may come with its COMM_UP and
	 * while the options are read, and each must be echoed. */
	struct dpsctp_client_event ev;
	uint64_t h = 0;
	unsigned echoed = 0, answers = 0;
	bool closed = false;
	for (double end = now_s() + 30; !closed && now_s() < end;) {
		struct dpsctp_client_event evs[16];
		int k = dpsctp_client_poll(c, 0, evs, 16);
		for (int i = 0; i < k; i++) {
			ev = evs[i];
			if (ev.kind == DPSCTP_CLIENT_COMM_UP && h == 0) {
				h = ev.assoc;
				EXPECT(dpsctp_client_getopt(c, 0, h, DPSCTP_OPT_MAX_BURST, NULL, 0,
							    11) == 0 &&
					       dpsctp_client_getopt(c, 0, h,
								    DPSCTP_OPT_DELAYED_SACK, NULL,
								    0, 12) == 0 &&
					       dpsctp_client_getopt(c, 0, h, DPSCTP_OPT_STATUS,
								    NULL, 0, 13) == 0,
				       "GETOPTs posted");
			} else if (ev.kind == DPSCTP_CLIENT_COMPLETION &&
				   ev.completion.op == DPSCTP_CLIENT_OP_GETOPT) {
				answers++;
				EXPECT(ev.completion.status == 0 && ev.completion.data != NULL,
				       "GETOPT %llu: %d", (unsigned long long)ev.completion.cookie,
				       ev.completion.status);
				if (ev.completion.status != 0)
					continue;
				if (ev.completion.cookie == 11) {
					const struct dpsctp_assoc_value *v = ev.completion.data;
					EXPECT(v->value == 9,
					       "the accepted association's MAX_BURST %u", v->value);
				} else if (ev.completion.cookie == 12) {
					const struct dpsctp_sack_info *v = ev.completion.data;
					EXPECT(v->delay_us == 200 && v->freq == 2,
					       "the accepted association's DELAYED_SACK: %u us, %u",
					       v->delay_us, v->freq);
				} else {
					const struct dpsctp_status *v = ev.completion.data;
					EXPECT(v->state == DPSCTP_CLIENT_STATE_ESTABLISHED,
					       "the accepted association's STATUS: state %u",
					       v->state);
				}
			} else if (ev.kind == DPSCTP_CLIENT_RECV && ev.assoc == h) {
				struct dpsctp_client_sndinfo si = { h, ev.recv.sid, ev.recv.ppid,
								    0, 0,	    0,
								    0 };
				while (dpsctp_client_send(c, 0, &si, ev.recv.data, ev.recv.len,
							  0) == -EAGAIN)
					usleep(100);
				echoed++;
			} else if ((ev.kind == DPSCTP_CLIENT_SHUTDOWN_COMPLETE ||
				    ev.kind == DPSCTP_CLIENT_COMM_LOST) &&
				   ev.assoc == h) {
				closed = true; /* the peer is done */
			}
		}
		if (k == 0)
			(void)dpsctp_client_wait(c, 0, 10);
	}
	EXPECT(h != 0, "no association accepted within 30 s");
	EXPECT(answers == 3, "%u of 3 GETOPTs answered", answers);
	EXPECT(echoed == n, "echoed %u of %u messages", echoed, n);
	dpsctp_client_detach(c);
	printf("dd_probe: opts accept: %u echoed: %s\n", echoed, failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

/* ------------------------------------------------------------ workers */

#define WK_MAX	    256u
#define WK_INFLIGHT 8u
#define WK_MSG_MAX  1407u

static uint32_t
wk_len(uint32_t a, uint32_t seq)
{
	return 8u + (seq * 37u + a * 11u) % (WK_MSG_MAX - 7u);
}

static void
wk_fill(uint8_t *p, uint32_t a, uint32_t seq, uint32_t len)
{
	memcpy(p, &a, 4);
	memcpy(p + 4, &seq, 4);
	for (uint32_t i = 8; i < len; i++)
		p[i] = (uint8_t)(a * 7u + seq * 13u + i);
}

static int
workers(const char *sock, const char *peer, uint16_t port, const char *name, unsigned n, unsigned m,
	unsigned nw)
{
	if (n == 0 || n > WK_MAX || nw == 0 || nw > SC_MAX_WORKERS) {
		fprintf(stderr, "dd_probe: workers: 1..%u associations, 1..%u workers\n", WK_MAX,
			SC_MAX_WORKERS);
		return 2;
	}
	struct dpsctp_client *c = attach_named(sock, name);
	if (c == NULL)
		return 3;
	struct sctp_addr pa = { 4, { 0 } };
	inet_pton(AF_INET, peer, pa.bytes);
	static uint64_t h[WK_MAX];
	static uint32_t sent[WK_MAX], echoed[WK_MAX];
	static bool closed[WK_MAX], answered[WK_MAX];
	unsigned per_worker[SC_MAX_WORKERS] = { 0 };
	for (unsigned a = 0; a < n; a++) {
		int32_t st = connect_up(c, &pa, port, 1000 + a, &h[a]);
		EXPECT(st == 0 && h[a] != 0, "association %u: connect %d", a, st);
		if (h[a] == 0)
			break;
		per_worker[SC_HANDLE_WORKER(h[a]) % SC_MAX_WORKERS]++;
	}
	unsigned used = 0;
	for (unsigned w = 0; w < SC_MAX_WORKERS; w++) {
		used += per_worker[w] != 0;
		EXPECT(w < nw || per_worker[w] == 0, "%u associations on worker %u of %u",
		       per_worker[w], w, nw);
	}
	EXPECT(used == (n < nw ? n : nw), "associations on %u workers, not %u", used,
	       n < nw ? n : nw);
	/* All up at once for a moment: long enough for the daemon's telemetry (refreshed every
	 * 100 ms) to show them. */
	printf("dd_probe: workers: %s: %u associations up\n", name, n);
	fflush(stdout);
	usleep(500000);
	uint64_t total = (uint64_t)n * m, got = 0, bad = 0, foreign = 0;
	uint8_t buf[WK_MSG_MAX], want[WK_MSG_MAX];
	double end = now_s() + 120;
	while (failures == 0 && got < total && now_s() < end) {
		for (unsigned a = 0; a < n; a++)
			while (sent[a] < m && sent[a] - echoed[a] < WK_INFLIGHT) {
				uint32_t len = wk_len(a, sent[a]);
				wk_fill(buf, a, sent[a], len);
				struct dpsctp_client_sndinfo si = { .assoc = h[a],
								    .sid = (uint16_t)(sent[a] % 4),
								    .ppid = htonl(a),
								    .flags = DPSCTP_CLIENT_QUIET };
				int rc = dpsctp_client_send(c, 0, &si, buf, len, 0);
				if (rc == -EAGAIN)
					break;
				EXPECT(rc == 0, "association %u: send %u: %s", a, sent[a],
				       strerror(-rc));
				if (rc != 0)
					break;
				sent[a]++;
			}
		struct dpsctp_client_event ev[64];
		int k = dpsctp_client_poll(c, 0, ev, 64);
		EXPECT(k >= 0, "poll: %s", strerror(k < 0 ? -k : 0));
		if (k < 0)
			break;
		for (int i = 0; i < k; i++) {
			const struct dpsctp_client_event *e = &ev[i];
			if (e->kind == DPSCTP_CLIENT_COMPLETION) {
				EXPECT(false, "a completion of a quiet send: %d",
				       e->completion.status);
				continue;
			}
			if (e->kind != DPSCTP_CLIENT_RECV)
				continue;
			unsigned a = 0;
			while (a < n && h[a] != e->assoc)
				a++;
			if (a == n) {
				foreign++;
				continue;
			}
			uint32_t seq = echoed[a];
			uint32_t len = wk_len(a, seq);
			wk_fill(want, a, seq, len);
			bool ok = e->recv.len == len && e->recv.flags == 0 &&
				  e->recv.ppid == htonl(a) && memcmp(e->recv.data, want, len) == 0;
			EXPECT(ok, "association %u: echo %u not the message sent (len %u of %u)", a,
			       seq, e->recv.len, len);
			bad += !ok;
			echoed[a]++;
			got++;
		}
		if (k == 0 && got < total)
			(void)dpsctp_client_wait(c, 0, 1);
	}
	EXPECT(got == total, "%llu of %llu echoes", (unsigned long long)got,
	       (unsigned long long)total);
	EXPECT(foreign == 0, "%llu events of associations not ours", (unsigned long long)foreign);
	/* A barrier: one completion, though it went to every worker's ring. */
	EXPECT(dpsctp_client_barrier(c, 0, 77) == 0, "barrier posted");
	struct dpsctp_client_event ev;
	EXPECT(wait_for(c, DPSCTP_CLIENT_COMPLETION, 77, &ev, 5, NULL, 0), "the barrier completed");
	/* Requests about an association go to its worker: each answered, with its state. */
	for (unsigned a = 0; a < n && h[a] != 0; a++) {
		int rc = dpsctp_client_getopt(c, 0, h[a], DPSCTP_OPT_STATUS, NULL, 0, 2000 + a);
		EXPECT(rc == 0, "association %u: GETOPT STATUS posted: %d", a, rc);
	}
	unsigned answers = 0, barriers = 0, done = 0;
	end = now_s() + 10;
	for (unsigned a = 0; a < n && h[a] != 0; a++)
		EXPECT(dpsctp_client_shutdown(c, 0, h[a], 3000 + a) == 0, "shutdown %u posted", a);
	while (now_s() < end && (answers < n || done < n)) {
		struct dpsctp_client_event evs[64];
		int k = dpsctp_client_poll(c, 0, evs, 64);
		if (k < 0)
			break;
		for (int i = 0; i < k; i++) {
			const struct dpsctp_client_event *e = &evs[i];
			if (e->kind == DPSCTP_CLIENT_COMPLETION && e->completion.cookie == 77)
				barriers++;
			if (e->kind == DPSCTP_CLIENT_COMPLETION &&
			    e->completion.op == DPSCTP_CLIENT_OP_GETOPT) {
				uint64_t a = e->completion.cookie - 2000;
				struct dpsctp_status st;
				bool ok = a < n && !answered[a] && e->completion.status == 0 &&
					  e->completion.len == sizeof(st);
				if (ok) {
					memcpy(&st, e->completion.data, sizeof(st));
					ok = st.state == DPSCTP_CLIENT_STATE_ESTABLISHED;
					answered[a] = true;
				}
				EXPECT(ok, "GETOPT STATUS of association %llu: %d",
				       (unsigned long long)a, e->completion.status);
				answers++;
			}
			if (e->kind == DPSCTP_CLIENT_SHUTDOWN_COMPLETE) {
				unsigned a = 0;
				while (a < n && h[a] != e->assoc)
					a++;
				EXPECT(a < n && !closed[a],
				       "SHUTDOWN_COMPLETE of an unknown or closed "
				       "association");
				if (a < n)
					closed[a] = true;
				done++;
			}
		}
		if (k == 0)
			(void)dpsctp_client_wait(c, 0, 5);
	}
	EXPECT(barriers == 0, "the barrier completed %u more times", barriers);
	EXPECT(answers == n, "%u of %u GETOPTs answered", answers, n);
	EXPECT(done == n, "%u of %u associations shut down", done, n);
	dpsctp_client_detach(c);
	printf("dd_probe: workers: %s: %u associations on %u workers (", name, n, used);
	for (unsigned w = 0; w < nw; w++)
		printf("%s%u", w ? " " : "", per_worker[w]);
	printf("), %llu of %llu echoed intact, %llu bad: %s\n", (unsigned long long)(got - bad),
	       (unsigned long long)total, (unsigned long long)bad, failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

static volatile sig_atomic_t stall_go;

static void
stall_on_usr1(int sig)
{
	(void)sig;
	stall_go = 1;
}

static void
stall_fill(uint8_t *p, uint32_t seq, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		p[i] = i < 4 ? (uint8_t)(seq >> (24 - 8 * i)) : (uint8_t)(seq * 13u + i);
}

static int
stall(const char *sock, const char *peer, uint16_t port, unsigned n, uint32_t len, bool abort)
{
	struct sigaction sa = { .sa_handler = stall_on_usr1 };
	sigaction(SIGUSR1, &sa, NULL);
	/* abort: rings of 64 slots, so that with the daemon's small --backlog
	 * its events overflow before the windows close. */
	struct dpsctp_client_opts co = { .name = "staller", .ring_slots = abort ? 64 : 0 };
	struct dpsctp_client *c = attach_opts(sock, &co);
	struct sctp_addr pa = { 4, { 0 } };
	if (c == NULL || len < 4 || len > 9000 || inet_pton(AF_INET, peer, pa.bytes) != 1)
		return 2;
	uint64_t h = 0;
	EXPECT(connect_up(c, &pa, port, 1, &h) == 0, "COMM_UP");
	static uint8_t msg[9000], want[9000];
	unsigned sent = 0;
	/* Sends only: a full request ring is emptied by the daemon, not by us.
	 * Reading nothing, the windows close at last (the peer's echoes wait
	 * for ours): two seconds without progress end the sending. */
	double idle_until = now_s() + 2;
	for (double end = now_s() + 30;
	     sent < n && now_s() < end && now_s() < idle_until && failures == 0;) {
		stall_fill(msg, sent, len);
		struct dpsctp_client_sndinfo si = { h, 0, 0, DPSCTP_CLIENT_QUIET, 0, 0, 0 };
		int rc = dpsctp_client_send(c, 0, &si, msg, len, 0);
		if (rc == 0) {
			sent++;
			idle_until = now_s() + 2;
		} else if (rc == -EAGAIN || rc == -ENOBUFS)
			usleep(200);
		else
			EXPECT(false, "send %u: %s", sent, strerror(-rc));
	}
	EXPECT(sent == n || abort, "%u of %u sent", sent, n);
	printf("dd_probe: stall: %u sent, not reading\n", sent);
	fflush(stdout);
	for (double end = now_s() + 120; !stall_go && now_s() < end;)
		usleep(10000);
	unsigned got = 0, bad = 0;
	bool lost = false;
	uint32_t part = 0; /* bytes of the message being put together */
	for (double end = now_s() + 60; got < sent && !lost && now_s() < end;) {
		struct dpsctp_client_event ev[32];
		int m = dpsctp_client_poll(c, 0, ev, 32);
		if (m < 0) {
			EXPECT(false, "poll: %s", strerror(-m));
			break;
		}
		for (int i = 0; i < m; i++) {
			if (ev[i].kind == DPSCTP_CLIENT_COMM_LOST)
				lost = true;
			if (ev[i].kind != DPSCTP_CLIENT_RECV)
				continue;
			stall_fill(want, got, len);
			uint32_t k = ev[i].recv.len;
			bad += part + k > len || memcmp(ev[i].recv.data, want + part, k) != 0;
			part += k;
			if (!(ev[i].recv.flags & DPSCTP_CLIENT_MORE)) {
				bad += part != len;
				part = 0;
				got++;
			}
		}
		if (m == 0)
			(void)dpsctp_client_wait(c, 0, 10);
	}
	EXPECT(bad == 0, "%u echoes damaged or out of order", bad);
	if (abort) {
		EXPECT(lost && got < sent, "the association was lost (%u of %u echoes first)", got,
		       sent);
	} else {
		EXPECT(!lost && got == sent, "%u of %u echoes%s", got, sent,
		       lost ? ", then the association was lost" : "");
		struct dpsctp_client_event ev;
		EXPECT(dpsctp_client_shutdown(c, 0, h, 2) == 0, "shutdown request");
		EXPECT(wait_for(c, DPSCTP_CLIENT_SHUTDOWN_COMPLETE, 0, &ev, 10, NULL, 0),
		       "SHUTDOWN_COMPLETE");
	}
	dpsctp_client_detach(c);
	printf("dd_probe: stall: %u of %u echoes intact after the stall, %u bad%s: %s\n",
	       got - (bad < got ? bad : got), sent, bad, lost ? ", association lost" : "",
	       failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	if (argc == 8 && strcmp(argv[2], "stall") == 0 &&
	    (strcmp(argv[7], "all") == 0 || strcmp(argv[7], "abort") == 0))
		return stall(argv[1], argv[3], (uint16_t)atoi(argv[4]), (unsigned)atoi(argv[5]),
			     (uint32_t)atoi(argv[6]), strcmp(argv[7], "abort") == 0);
	if (argc == 5 && strcmp(argv[2], "isolation") == 0)
		return isolation(argv[1], argv[3], (uint16_t)atoi(argv[4]));
	if (argc == 6 && strcmp(argv[2], "zerocopy") == 0)
		return zerocopy(argv[1], argv[3], (uint16_t)atoi(argv[4]), (unsigned)atoi(argv[5]));
	if (argc == 3 && strcmp(argv[2], "garbage") == 0)
		return garbage(argv[1]);
	if (argc == 5 && strcmp(argv[2], "cplring") == 0)
		return cplring(argv[1], argv[3], (uint16_t)atoi(argv[4]));
	if ((argc == 5 || argc == 6) && strcmp(argv[2], "listen") == 0)
		return listen_ports(argv[1], (uint16_t)atoi(argv[3]), (unsigned)atoi(argv[4]),
				    argc == 6 && strcmp(argv[5], "hold") == 0);
	if (argc == 5 && strcmp(argv[2], "unlisten") == 0)
		return unlisten(argv[1], (uint16_t)atoi(argv[3]), (unsigned)atoi(argv[4]));
	if (argc == 6 && strcmp(argv[2], "limits") == 0)
		return limits(argv[1], argv[3], (uint16_t)atoi(argv[4]), (unsigned)atoi(argv[5]));
	if (argc == 7 && strcmp(argv[2], "accept") == 0)
		return accept_limit(argv[1], argv[3], (uint16_t)atoi(argv[4]),
				    (unsigned)atoi(argv[5]), (unsigned)atoi(argv[6]));
	if (argc == 6 && strcmp(argv[2], "prsctp") == 0)
		return prsctp(argv[1], argv[3], (uint16_t)atoi(argv[4]), argv[5]);
	if (argc == 6 && strcmp(argv[2], "sched") == 0)
		return sched(argv[1], argv[3], (uint16_t)atoi(argv[4]), argv[5]);
	if (argc == 6 && strcmp(argv[2], "reconf") == 0 &&
	    (strcmp(argv[5], "on") == 0 || strcmp(argv[5], "off") == 0))
		return reconf(argv[1], argv[3], (uint16_t)atoi(argv[4]),
			      strcmp(argv[5], "on") == 0);
	if (argc == 5 && strcmp(argv[2], "opts") == 0)
		return opts(argv[1], argv[3], (uint16_t)atoi(argv[4]));
	if (argc == 5 && strcmp(argv[2], "opts-accept") == 0)
		return opts_accept(argv[1], (uint16_t)atoi(argv[3]), (unsigned)atoi(argv[4]));
	if (argc == 9 && strcmp(argv[2], "workers") == 0)
		return workers(argv[1], argv[3], (uint16_t)atoi(argv[4]), argv[5],
			       (unsigned)atoi(argv[6]), (unsigned)atoi(argv[7]),
			       (unsigned)atoi(argv[8]));
	fprintf(stderr,
		"usage: dd_probe SOCKET isolation PEER PORT | SOCKET zerocopy PEER PORT N | "
		"SOCKET garbage | SOCKET cplring PEER PORT | SOCKET listen FIRST N [hold] | "
		"SOCKET unlisten PORT APP_LISTENS | SOCKET limits PEER PORT N | "
		"SOCKET accept PEER PORT N SECONDS | SOCKET prsctp PEER PORT EXT | "
		"SOCKET sched PEER PORT SCHED | SOCKET reconf PEER PORT on|off | "
		"SOCKET opts PEER PORT | SOCKET opts-accept PORT N | "
		"SOCKET workers PEER PORT NAME N M W | SOCKET stall PEER PORT N LEN all|abort\n");
	return 2;
}
