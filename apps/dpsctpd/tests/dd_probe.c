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
 *       request with an unknown operation (expects a -EPROTO completion and
 *       to stay attached), then moves its request ring's head far beyond
 *       the ring (expects to be detached: EOF on its socket). Exit 0 when
 *       both happened.
 *
 * Each failed expectation prints one line naming it; exit 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

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
			if (ev[i].kind == kind &&
			    (kind != DPSCTP_CLIENT_COMPLETION || ev[i].cookie == cookie)) {
				*out = ev[i];
				return true;
			}
		}
		if (n == 0)
			(void)dpsctp_client_wait(c, 0, 10);
	}
	return false;
}

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
	struct dpsctp_client_addr pa = { 4, { 0 } };
	if (inet_pton(AF_INET, peer, pa.bytes) != 1)
		return 2;
	struct dpsctp_client_event ev;
	unsigned b_saw = 0;
	EXPECT(dpsctp_client_connect(a, 0, &pa, 1, port, 1) == 0, "A: connect request");
	EXPECT(wait_for(a, DPSCTP_CLIENT_COMPLETION, 1, &ev, 5, NULL, 0) && ev.status == 0,
	       "A: connect completion");
	EXPECT(wait_for(a, DPSCTP_CLIENT_COMM_UP, 0, &ev, 10, NULL, 0), "A: COMM_UP");
	uint64_t ha = ev.assoc;

	/* B names A's association: refused, as an unknown one (a quiet send
	 * that fails still completes). */
	struct dpsctp_client_sndinfo si = { ha, 0, htonl(7), DPSCTP_CLIENT_QUIET, 0 };
	const char msg[] = "not yours";
	EXPECT(dpsctp_client_send(b, 0, &si, msg, sizeof(msg), 10) == 0, "B: send request");
	EXPECT(wait_for(b, DPSCTP_CLIENT_COMPLETION, 10, &ev, 5, &b_saw, ha) &&
		       ev.status == -ENOENT,
	       "B: SEND on A's association completes with -ENOENT (got %d)", ev.status);
	EXPECT(dpsctp_client_shutdown(b, 0, ha, 11) == 0, "B: shutdown request");
	EXPECT(wait_for(b, DPSCTP_CLIENT_COMPLETION, 11, &ev, 5, &b_saw, ha) &&
		       ev.status == -ENOENT,
	       "B: SHUTDOWN of A's association: -ENOENT (got %d)", ev.status);
	EXPECT(dpsctp_client_abort(b, 0, ha, 12) == 0, "B: abort request");
	EXPECT(wait_for(b, DPSCTP_CLIENT_COMPLETION, 12, &ev, 5, &b_saw, ha) &&
		       ev.status == -ENOENT,
	       "B: ABORT of A's association: -ENOENT (got %d)", ev.status);

	/* Ports: the first application to listen has it. */
	uint16_t lport = (uint16_t)(port + 100);
	EXPECT(dpsctp_client_listen(a, 0, lport, 2) == 0, "A: listen request");
	EXPECT(wait_for(a, DPSCTP_CLIENT_COMPLETION, 2, &ev, 5, NULL, 0) && ev.status == 0,
	       "A: LISTEN %u completes with 0 (got %d)", lport, ev.status);
	EXPECT(dpsctp_client_listen(b, 0, lport, 13) == 0, "B: listen request");
	EXPECT(wait_for(b, DPSCTP_CLIENT_COMPLETION, 13, &ev, 5, &b_saw, ha) &&
		       ev.status == -EADDRINUSE,
	       "B: LISTEN on A's port: -EADDRINUSE (got %d)", ev.status);

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
			if (evs[i].kind == DPSCTP_CLIENT_COMPLETION && evs[i].cookie == 3)
				quiet_cpl++;
			if (evs[i].kind == DPSCTP_CLIENT_COMPLETION && evs[i].cookie == 5)
				barrier = evs[i].status == 0 && evs[i].op == 6;
			if (evs[i].kind == DPSCTP_CLIENT_RECV)
				echoed = evs[i].assoc == ha && evs[i].len == sizeof(msg) &&
					 memcmp(evs[i].data, msg, sizeof(msg)) == 0;
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
	int err;
	struct dpsctp_client_opts o = { .name = "probe-zc", .zero_copy = 1 };
	struct dpsctp_client *c = dpsctp_client_attach(sock, &o, &err);
	if (c == NULL) {
		fprintf(stderr, "dd_probe: attach: %s\n", strerror(-err));
		return 3;
	}
	EXPECT(dpsctp_client_zero_copy(c) == 1, "the daemon granted zero copy");
	struct dpsctp_client_addr pa = { 4, { 0 } };
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
		struct dpsctp_client_sndinfo si = { h, (uint16_t)(k % 4), htonl(k), 0, 0 };
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
				if (got + evs[i].len <= sizeof(in))
					memcpy(in + got, evs[i].data, evs[i].len);
				got += evs[i].len;
				whole = !(evs[i].flags & DPSCTP_CLIENT_MORE);
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

	/* 2. A ring head the daemon cannot believe: detached, alone. */
	_Atomic uint32_t *head = (_Atomic uint32_t *)(void *)th.req.sh;
	atomic_store(head, th.req.mine + 10u * (th.req.mask + 1u));
	EXPECT(socket_closed_within(sock, 5000), "broken ring: still attached after 5 s");
	close(sock);
	printf("dd_probe: garbage: %s\n", failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[2], "isolation") == 0)
		return isolation(argv[1], argv[3], (uint16_t)atoi(argv[4]));
	if (argc == 6 && strcmp(argv[2], "zerocopy") == 0)
		return zerocopy(argv[1], argv[3], (uint16_t)atoi(argv[4]), (unsigned)atoi(argv[5]));
	if (argc == 3 && strcmp(argv[2], "garbage") == 0)
		return garbage(argv[1]);
	fprintf(stderr,
		"usage: dd_probe SOCKET isolation PEER PORT | SOCKET zerocopy PEER PORT N | "
		"SOCKET garbage\n");
	return 2;
}
