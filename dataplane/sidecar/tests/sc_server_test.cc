// SPDX-License-Identifier: BSD-3-Clause
// Attaching to the daemon (dataplane/sidecar/sc_server.h) through the
// client library (dpsctp_client.h), both in this process with the server
// polled on its own thread: two applications get their own regions; one
// that dies is detached; garbage on the socket is refused without touching
// the attached ones; limits answer -E2BIG and -EBUSY; when the daemon goes
// the client sees -ECONNRESET and attaches to the next one. Clients that
// say nothing, half a hello or never read their welcome hold nobody up;
// a second server on a live socket is refused.
#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <grp.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <csignal>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "dataplane/dpsctp_opt.h"
#include "dataplane/sidecar/dpsctp_client.h"
#include "dataplane/sidecar/sc_proto.h"
#include "dataplane/sidecar/sc_server.h"

namespace {

class Server {
      public:
	explicit Server(uint64_t generation, uint32_t max_apps = 4, uint32_t max_pending = 0,
			uint32_t hello_timeout_ms = 0, uint32_t workers = 0,
			const struct sc_server_access *access = nullptr)
	{
		path_ = "/tmp/dpsctp-sc-test-" + std::to_string(getpid()) + ".sock";
		struct sc_server_limits lim = { max_apps, 4, 256, 1 << 16, 0, 0, workers, {} };
		if (access != nullptr)
			lim.access = *access;
		lim.max_pending = max_pending; // 0: the defaults
		lim.hello_timeout_ms = hello_timeout_ms;
		EXPECT_EQ(sc_server_open(&s_, path_.c_str(), &lim, generation), 0);
		// The table belongs to the poll thread; the test counts through callbacks.
		s_.on_attach = [](struct sc_server *, struct sc_app *, void *arg) {
			((Server *)arg)->attached_.fetch_add(1);
		};
		s_.on_detach = [](struct sc_server *, struct sc_app *, void *arg) {
			((Server *)arg)->detached_.fetch_add(1);
		};
		s_.arg = this;
		t_ = std::thread([this] {
			while (!stop_)
				sc_server_poll(&s_, 20);
		});
	}
	~Server()
	{
		stop();
	}
	void stop()
	{
		if (t_.joinable()) {
			stop_ = true;
			t_.join();
			sc_server_close(&s_, path_.c_str());
		}
	}
	const char *path() const
	{
		return path_.c_str();
	}
	bool wait_apps(int n)
	{
		for (int i = 0; i < 500; i++) {
			if (attached_.load() - detached_.load() == n)
				return true;
			usleep(10000);
		}
		return false;
	}
	struct sc_server s_;
	std::atomic<int> attached_{ 0 }, detached_{ 0 };

      private:
	std::string path_;
	std::thread t_;
	std::atomic<bool> stop_{ false };
};

TEST(ScServer, TwoApplicationsGetTheirOwnRegions)
{
	Server srv(1);
	struct dpsctp_client_opts o = { 2, 0, 0, "app-a", 0 };
	int err;
	struct dpsctp_client *a = dpsctp_client_attach(srv.path(), &o, &err);
	ASSERT_NE(a, nullptr) << err;
	o.name = "app-b";
	o.threads = 1;
	struct dpsctp_client *b = dpsctp_client_attach(srv.path(), &o, &err);
	ASSERT_NE(b, nullptr) << err;
	EXPECT_NE(dpsctp_client_id(a), dpsctp_client_id(b));
	EXPECT_GE(dpsctp_client_fd(a, 1), 0);
	EXPECT_EQ(dpsctp_client_fd(b, 1), -EINVAL); // b has one thread
	EXPECT_NE(dpsctp_client_fd(a, 0), dpsctp_client_fd(b, 0));
	ASSERT_TRUE(srv.wait_apps(2));
	EXPECT_EQ(dpsctp_client_check(a), 0);
	dpsctp_client_detach(a);
	ASSERT_TRUE(srv.wait_apps(1));
	EXPECT_EQ(srv.detached_.load(), 1);
	dpsctp_client_detach(b);
	ASSERT_TRUE(srv.wait_apps(0));
}

TEST(ScServer, AnApplicationThatDiesIsDetached)
{
	Server srv(2);
	pid_t pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int err;
		struct dpsctp_client *c = dpsctp_client_attach(srv.path(), nullptr, &err);
		_exit(c != nullptr ? 0 : 1); // dies attached: no detach
	}
	int st;
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ASSERT_TRUE(srv.wait_apps(0));
	EXPECT_EQ(srv.attached_.load(), 1);
	EXPECT_EQ(srv.detached_.load(), 1);
}

TEST(ScServer, GarbageIsRefusedAndTheOthersAreUntouched)
{
	Server srv(3);
	int err;
	struct dpsctp_client *good = dpsctp_client_attach(srv.path(), nullptr, &err);
	ASSERT_NE(good, nullptr) << err;
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	struct sockaddr_un sa = {};
	sa.sun_family = AF_UNIX;
	strcpy(sa.sun_path, srv.path());
	ASSERT_EQ(connect(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	const char junk[] = "GET / HTTP/1.0\r\n\r\n";
	ASSERT_EQ(send(s, junk, sizeof(junk), 0), (ssize_t)sizeof(junk));
	char buf[256];
	EXPECT_GT(recv(s, buf, sizeof(buf), 0), 0); // a refusal, then EOF
	EXPECT_EQ(recv(s, buf, sizeof(buf), 0), 0);
	close(s);
	EXPECT_EQ(dpsctp_client_check(good), 0);
	ASSERT_TRUE(srv.wait_apps(1));
	srv.stop(); // the counters belong to the poll thread
	EXPECT_EQ(srv.s_.ctr.bad_hello, 1u);
	EXPECT_EQ(srv.s_.ctr.refused, 1u);
	dpsctp_client_detach(good);
}

TEST(ScServer, LimitsAreAnsweredWithTheirReason)
{
	Server srv(4, 1);
	int err;
	struct dpsctp_client_opts o = { 5, 0, 0, "greedy", 0 }; // the daemon allows 4 threads
	EXPECT_EQ(dpsctp_client_attach(srv.path(), &o, &err), nullptr);
	EXPECT_EQ(err, -E2BIG);
	o = { 1, 0, 1 << 20, "greedy", 0 }; // and 64 KiB arenas
	EXPECT_EQ(dpsctp_client_attach(srv.path(), &o, &err), nullptr);
	EXPECT_EQ(err, -E2BIG);
	struct dpsctp_client *one = dpsctp_client_attach(srv.path(), nullptr, &err);
	ASSERT_NE(one, nullptr) << err;
	EXPECT_EQ(dpsctp_client_attach(srv.path(), nullptr, &err), nullptr); // one app at most
	EXPECT_EQ(err, -EBUSY);
	o = { 1, 0, 0, "a name longer than thirty-one bytes", 0 };
	EXPECT_EQ(dpsctp_client_attach(srv.path(), &o, &err), nullptr);
	EXPECT_EQ(err, -EINVAL);
	dpsctp_client_detach(one);
}

TEST(ScServer, WhenTheDaemonGoesTheClientSeesItAndAttachesAgain)
{
	int err;
	EXPECT_EQ(dpsctp_client_attach("/tmp/dpsctp-no-daemon-here.sock", nullptr, &err), nullptr);
	EXPECT_EQ(err, -ENOENT);
	auto *srv = new Server(5);
	std::string path = srv->path();
	struct dpsctp_client *c = dpsctp_client_attach(path.c_str(), nullptr, &err);
	ASSERT_NE(c, nullptr) << err;
	EXPECT_EQ(dpsctp_client_check(c), 0);
	delete srv; // the daemon stops
	// A busy poller learns it within 1,024 empty polls (no system call each).
	struct dpsctp_client_event ev[4];
	int rc = 0, polls = 0;
	while (rc == 0 && polls < 1024) {
		rc = dpsctp_client_poll(c, 0, ev, 4);
		polls++;
	}
	EXPECT_EQ(rc, -ECONNRESET);
	EXPECT_GT(polls, 1); // not on the first empty poll
	EXPECT_EQ(dpsctp_client_check(c), -ECONNRESET);
	dpsctp_client_detach(c);
	Server again(6);
	c = dpsctp_client_attach(again.path(), nullptr, &err);
	ASSERT_NE(c, nullptr) << err;
	EXPECT_EQ(dpsctp_client_check(c), 0);
	dpsctp_client_detach(c);
}

} // namespace

namespace {

// Protocol 8, a daemon with two workers (this test in its place): the library
// takes a ring set per worker; connects go to the workers in turn; a request
// about an association goes to the set its handle names (a worker the daemon
// lacks: worker 0's); LISTEN and the defaults go to worker 0's; a barrier is a
// RELEASE in each set and completes once, when the last set answered; a poll
// returns the completions, then the events, of both sets.
TEST(ScClient, RingSetPerWorker)
{
	Server srv(8, 4, 0, 0, 2);
	static std::atomic<struct sc_app *> app{ nullptr };
	srv.s_.on_attach = [](struct sc_server *, struct sc_app *a, void *arg) {
		((Server *)arg)->attached_.fetch_add(1);
		app.store(a);
	};
	int err;
	struct dpsctp_client_opts o = { 1, 64, 1 << 16, "sets", 0 };
	struct dpsctp_client *c = dpsctp_client_attach(srv.path(), &o, &err);
	ASSERT_NE(c, nullptr) << err;
	ASSERT_TRUE(srv.wait_apps(1));
	struct sc_app *a = app.load();
	ASSERT_EQ(a->layout.n_workers, 2u);
	struct sc_thread d[2];
	for (uint32_t w = 0; w < 2; w++)
		ASSERT_EQ(sc_region_set(a->base, &a->layout, 0, w, true, &d[w]), 0);
	auto take = [&](uint32_t w, uint8_t *op, uint64_t *assoc, uint64_t *cookie) {
		if (sc_ring_count(&d[w].req) != 1)
			return false;
		const struct sc_req *r = (const struct sc_req *)sc_ring_peek(&d[w].req, 0);
		*op = r->op;
		*assoc = r->assoc;
		*cookie = r->cookie;
		if (r->len != 0)
			(void)sc_arena_take(&d[w].tx, r->off, r->len, &err);
		sc_arena_release(&d[w].tx);
		sc_ring_release(&d[w].req, 1);
		return true;
	};
	uint8_t op;
	uint64_t assoc, cookie;
	struct sctp_addr peer = { 4, { 192, 0, 2, 2 } };
	// Connects alternate: worker 0, worker 1, worker 0.
	for (uint32_t i = 0; i < 3; i++) {
		ASSERT_EQ(dpsctp_client_connect(c, 0, &peer, 1, 5001, 20 + i), 0);
		EXPECT_TRUE(take(i % 2, &op, &assoc, &cookie)) << "connect " << i;
		EXPECT_EQ(op, SC_OP_CONNECT);
		EXPECT_EQ(cookie, 20u + i);
		EXPECT_EQ(sc_ring_count(&d[(i + 1) % 2].req), 0);
	}
	// By the handle's worker; one the daemon lacks goes to worker 0.
	const uint64_t h0 = (5ull << 32) | 1u, h1 = (5ull << 32) | (1u << 24) | 1u,
		       h9 = (5ull << 32) | (9u << 24) | 1u;
	ASSERT_EQ(dpsctp_client_abort(c, 0, h1, 30), 0);
	EXPECT_TRUE(take(1, &op, &assoc, &cookie));
	EXPECT_EQ(assoc, h1);
	static const char msg[] = "to worker 0";
	struct dpsctp_client_sndinfo si = { h0, 0, 0, 0, 0, 0, 0 };
	ASSERT_EQ(dpsctp_client_send(c, 0, &si, msg, sizeof(msg), 31), 0);
	EXPECT_TRUE(take(0, &op, &assoc, &cookie));
	EXPECT_EQ(op, SC_OP_SEND);
	ASSERT_EQ(dpsctp_client_shutdown(c, 0, h9, 32), 0);
	EXPECT_TRUE(take(0, &op, &assoc, &cookie));
	EXPECT_EQ(assoc, h9);
	// Instance-wide: worker 0's set.
	ASSERT_EQ(dpsctp_client_listen(c, 0, 5001, 33), 0);
	EXPECT_TRUE(take(0, &op, &assoc, &cookie));
	EXPECT_EQ(op, SC_OP_LISTEN);
	uint32_t burst = 4;
	ASSERT_EQ(dpsctp_client_setopt(c, 0, 0, DPSCTP_OPT_MAX_BURST, &burst, sizeof(burst), 34,
				       nullptr, 0),
		  0);
	EXPECT_TRUE(take(0, &op, &assoc, &cookie));
	EXPECT_EQ(op, SC_OP_SETOPT);
	EXPECT_EQ(sc_ring_count(&d[1].req), 0);

	// A barrier: a RELEASE in each set, one completion after both.
	ASSERT_EQ(dpsctp_client_barrier(c, 0, 40), 0);
	for (uint32_t w = 0; w < 2; w++) {
		EXPECT_TRUE(take(w, &op, &assoc, &cookie)) << "worker " << w;
		EXPECT_EQ(op, SC_OP_RELEASE);
		EXPECT_EQ(cookie, 40u);
	}
	auto complete = [&](uint32_t w, uint8_t cop, uint64_t ccookie) {
		struct sc_cpl *p = (struct sc_cpl *)sc_ring_reserve(&d[w].cpl, 0);
		memset(p, 0, sizeof(*p));
		p->op = cop;
		p->cookie = ccookie;
		(void)sc_ring_commit(&d[w].cpl, 1);
	};
	auto event = [&](uint32_t w, uint64_t h) {
		struct sc_evt *v = (struct sc_evt *)sc_ring_reserve(&d[w].evt, 0);
		memset(v, 0, sizeof(*v));
		v->type = SC_EVT_SHUTDOWN_COMPLETE;
		v->assoc = h;
		(void)sc_ring_commit(&d[w].evt, 1);
	};
	struct dpsctp_client_event ev[8];
	complete(1, SC_OP_RELEASE, 40);
	EXPECT_EQ(dpsctp_client_poll(c, 0, ev, 8), 0) << "worker 0 has not answered yet";
	event(1, h1);
	complete(0, SC_OP_RELEASE, 40);
	event(0, h0);
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 8), 3);
	EXPECT_EQ(ev[0].kind, DPSCTP_CLIENT_COMPLETION);
	EXPECT_EQ(ev[0].completion.op, DPSCTP_CLIENT_OP_BARRIER);
	EXPECT_EQ(ev[0].completion.cookie, 40u);
	// Then the events of both sets, worker 0's first.
	EXPECT_EQ(ev[1].kind, DPSCTP_CLIENT_SHUTDOWN_COMPLETE);
	EXPECT_EQ(ev[1].assoc, h0);
	EXPECT_EQ(ev[2].assoc, h1);
	// Two barriers in flight, answered out of step by the workers: two completions, in order.
	ASSERT_EQ(dpsctp_client_barrier(c, 0, 41), 0);
	ASSERT_EQ(dpsctp_client_barrier(c, 0, 42), 0);
	for (uint32_t w = 0; w < 2; w++)
		sc_ring_release(&d[w].req, (uint32_t)sc_ring_count(&d[w].req));
	complete(0, SC_OP_RELEASE, 41);
	complete(0, SC_OP_RELEASE, 42);
	complete(1, SC_OP_RELEASE, 41);
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 8), 1);
	EXPECT_EQ(ev[0].completion.cookie, 41u);
	complete(1, SC_OP_RELEASE, 42);
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 8), 1);
	EXPECT_EQ(ev[0].completion.cookie, 42u);
	dpsctp_client_detach(c);
}

// The requests and events through the rings and arenas, with this test in
// the daemon's place: it reads the application's requests as the daemon's
// lcore will (checked, payload taken from the tx arena) and answers with
// completions and RECV events whose bytes it writes into the rx arena.
TEST(ScClient, RequestsAndEventsThroughTheRings)
{
	Server srv(7);
	static std::atomic<struct sc_app *> app{ nullptr };
	srv.s_.on_attach = [](struct sc_server *, struct sc_app *a, void *arg) {
		((Server *)arg)->attached_.fetch_add(1);
		app.store(a);
	};
	int err;
	struct dpsctp_client_opts o = { 1, 64, 1 << 16, "rings", 0 };
	struct dpsctp_client *c = dpsctp_client_attach(srv.path(), &o, &err);
	ASSERT_NE(c, nullptr) << err;
	ASSERT_TRUE(srv.wait_apps(1));
	struct sc_app *a = app.load();
	struct sc_thread d;
	ASSERT_EQ(sc_region_thread(a->base, &a->layout, 0, true, &d), 0);

	ASSERT_EQ(dpsctp_client_listen(c, 0, 5001, 11), 0);
	struct sctp_addr peer = { 4, { 192, 0, 2, 2 } };
	ASSERT_EQ(dpsctp_client_connect(c, 0, &peer, 1, 5001, 12), 0);
	EXPECT_EQ(dpsctp_client_connect(c, 0, &peer, 0, 5001, 13), -EINVAL);
	const uint32_t n = 1000;
	uint32_t sent = 0, seen = 0, echoed = 0;
	std::vector<uint8_t> msg(3000);
	struct dpsctp_client_event ev[32];
	while (seen < n + 2 || echoed < n) {
		// The application: send while it can.
		for (; sent < n; sent++) {
			uint32_t len = 1 + sent * 37 % 3000;
			memset(msg.data(), (int)(sent & 0xff), len);
			struct dpsctp_client_sndinfo si = { 77, (uint16_t)(sent % 4), sent, 0, 0, 0,
							    0 };
			int rc = dpsctp_client_send(c, 0, &si, msg.data(), len, 100 + sent);
			if (rc == -EAGAIN)
				break;
			ASSERT_EQ(rc, 0);
		}
		// The daemon: take requests, complete them, echo SENDs as RECV events.
		int have = sc_ring_count(&d.req);
		ASSERT_GE(have, 0);
		int k = 0;
		for (; k < have && sc_ring_free(&d.cpl) > 0 && sc_ring_free(&d.evt) > 0; k++) {
			const struct sc_req *r = (const struct sc_req *)sc_ring_peek(&d.req, k);
			ASSERT_EQ(sc_req_check(r, a->layout.arena_bytes), 0);
			struct sc_cpl *p = (struct sc_cpl *)sc_ring_reserve(&d.cpl, 0);
			memset(p, 0, sizeof(*p));
			p->cookie = r->cookie;
			p->op = r->op;
			if (r->op == SC_OP_LISTEN) {
				EXPECT_EQ(r->port, 5001);
			} else if (r->op == SC_OP_CONNECT) {
				const struct sc_addr *ad = (const struct sc_addr *)sc_arena_take(
					&d.tx, r->off, r->len, &err);
				ASSERT_NE(ad, nullptr);
				EXPECT_EQ(ad->family, 4);
				EXPECT_EQ(ad->bytes[3], 2);
				p->assoc = 77;
			} else {
				ASSERT_EQ(r->op, SC_OP_SEND);
				// Room for the echo first: a request is taken only when it
				// can be completed (its tx bytes are then consumed).
				uint64_t off;
				uint8_t *e = (uint8_t *)sc_arena_alloc(&d.rx, r->len, &off, &err);
				if (e == nullptr) {
					ASSERT_EQ(err,
						  -EAGAIN); // the application has not polled yet
					break;
				}
				const uint8_t *b =
					(const uint8_t *)sc_arena_take(&d.tx, r->off, r->len, &err);
				ASSERT_NE(b, nullptr);
				ASSERT_EQ(r->len, 1 + r->ppid * 37 % 3000);
				ASSERT_EQ(b[r->len - 1], (uint8_t)(r->ppid & 0xff));
				memcpy(e, b, r->len);
				sc_arena_publish(&d.rx);
				struct sc_evt *v = (struct sc_evt *)sc_ring_reserve(&d.evt, 0);
				memset(v, 0, sizeof(*v));
				v->type = SC_EVT_RECV;
				v->assoc = r->assoc;
				v->sid = r->sid;
				v->ppid = r->ppid;
				v->off = off;
				v->len = r->len;
				sc_ring_commit(&d.evt, 1);
			}
			sc_ring_commit(&d.cpl, 1);
		}
		sc_ring_release(&d.req, (uint32_t)k);
		sc_arena_release(&d.tx);
		// The application: completions and echoes.
		int got = dpsctp_client_poll(c, 0, ev, 32);
		ASSERT_GE(got, 0);
		for (int i = 0; i < got; i++) {
			if (ev[i].kind == DPSCTP_CLIENT_COMPLETION) {
				EXPECT_EQ(ev[i].completion.status, 0);
				seen++;
				continue;
			}
			ASSERT_EQ(ev[i].kind, DPSCTP_CLIENT_RECV);
			ASSERT_EQ(ev[i].recv.ppid, echoed);
			ASSERT_EQ(ev[i].recv.len, 1 + echoed * 37 % 3000);
			ASSERT_EQ(((const uint8_t *)ev[i].recv.data)[0], (uint8_t)(echoed & 0xff));
			EXPECT_EQ(ev[i].assoc, 77u);
			echoed++;
		}
	}
	EXPECT_EQ(sent, n);
	// Nothing pending: a wait times out, and a commit with the flag up wakes it.
	EXPECT_EQ(dpsctp_client_poll(c, 0, ev, 32), 0);
	EXPECT_EQ(dpsctp_client_wait(c, 0, 10), 0);
	std::thread wake([&] {
		usleep(20000);
		struct sc_evt *v = (struct sc_evt *)sc_ring_reserve(&d.evt, 0);
		memset(v, 0, sizeof(*v));
		v->type = SC_EVT_SHUTDOWN_EVENT;
		v->assoc = 77;
		if (sc_ring_commit(&d.evt, 1)) {
			uint64_t one = 1;
			EXPECT_EQ(write(a->efd[0], &one, 8), 8);
		}
	});
	EXPECT_EQ(dpsctp_client_wait(c, 0, 5000), 1);
	wake.join();
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 32), 1);
	EXPECT_EQ(ev[0].kind, DPSCTP_CLIENT_SHUTDOWN_EVENT);
	// A malformed event from a broken daemon is refused, not followed.
	struct sc_evt *v = (struct sc_evt *)sc_ring_reserve(&d.evt, 0);
	memset(v, 0, sizeof(*v));
	v->type = SC_EVT_RECV;
	v->assoc = 77;
	v->off = 5; // not where the next rx bytes are
	v->len = 10;
	sc_ring_commit(&d.evt, 1);
	EXPECT_EQ(dpsctp_client_poll(c, 0, ev, 32), -EPROTO);
	dpsctp_client_detach(c);
}

// PR-SCTP through the library: a send's policy and value reach the ring
// as given (the value only with a policy); what the data plane would refuse
// is -EINVAL before anything is posted; SEND_FAILED hands over its policy
// and whether the message went out, COMM_UP what was negotiated.
TEST(ScClient, PrSctpThroughTheRings)
{
	Server srv(8);
	static std::atomic<struct sc_app *> app{ nullptr };
	srv.s_.on_attach = [](struct sc_server *, struct sc_app *a, void *arg) {
		((Server *)arg)->attached_.fetch_add(1);
		app.store(a);
	};
	int err;
	struct dpsctp_client_opts o = { 1, 64, 1 << 16, "pr", 0 };
	struct dpsctp_client *c = dpsctp_client_attach(srv.path(), &o, &err);
	ASSERT_NE(c, nullptr) << err;
	ASSERT_TRUE(srv.wait_apps(1));
	struct sc_app *a = app.load();
	struct sc_thread d;
	ASSERT_EQ(sc_region_thread(a->base, &a->layout, 0, true, &d), 0);

	const uint8_t msg[100] = { 1 };
	struct {
		uint32_t policy, value, want_value;
	} sends[] = {
		{ DPSCTP_CLIENT_PR_NONE, 123, 0 }, // the value means nothing without a policy
		{ DPSCTP_CLIENT_PR_TTL, 1, 1 },
		{ DPSCTP_CLIENT_PR_RTX, 0, 0 }, // sent once, never retransmitted
		{ DPSCTP_CLIENT_PR_PRIO, 0xffffffffu, 0xffffffffu },
	};
	for (auto &x : sends) {
		struct dpsctp_client_sndinfo si = { 77, 1, 0, 0, x.policy, x.value, 0 };
		ASSERT_EQ(dpsctp_client_send(c, 0, &si, msg, sizeof(msg), x.policy), 0);
	}
	struct dpsctp_client_sndinfo bad = { 77, 1, 0, 0, DPSCTP_CLIENT_PR_PRIO + 1, 1, 0 };
	EXPECT_EQ(dpsctp_client_send(c, 0, &bad, msg, sizeof(msg), 9), -EINVAL);
	bad.pr_policy = DPSCTP_CLIENT_PR_TTL;
	bad.pr_value = 0; // a lifetime over before it starts
	EXPECT_EQ(dpsctp_client_send(c, 0, &bad, msg, sizeof(msg), 9), -EINVAL);
	ASSERT_EQ(sc_ring_count(&d.req), 4); // the refused ones posted nothing
	for (int k = 0; k < 4; k++) {
		const struct sc_req *r = (const struct sc_req *)sc_ring_peek(&d.req, (uint32_t)k);
		EXPECT_EQ(sc_req_check(r, a->layout.arena_bytes), 0);
		EXPECT_EQ(r->op, SC_OP_SEND);
		EXPECT_EQ(r->pr_policy, sends[k].policy);
		EXPECT_EQ(r->pr_value, sends[k].want_value) << "policy " << sends[k].policy;
	}
	sc_ring_release(&d.req, 4);

	// The daemon: COMM_UP with PR-SCTP negotiated, then two SEND_FAILED, one
	// abandoned by its lifetime after going out, one left at the close.
	struct sc_evt *v = (struct sc_evt *)sc_ring_reserve(&d.evt, 0);
	memset(v, 0, sizeof(*v));
	v->type = SC_EVT_COMM_UP;
	v->assoc = 77;
	v->peer.family = 4;
	v->extensions = DPSCTP_CLIENT_EXT_PR_SCTP;
	v = (struct sc_evt *)sc_ring_reserve(&d.evt, 1);
	memset(v, 0, sizeof(*v));
	v->type = SC_EVT_SEND_FAILED;
	v->assoc = 77;
	v->sid = 1;
	v->len = 100;
	v->pr_policy = SC_PR_TTL;
	v->flags = SC_FAILED_SENT;
	v = (struct sc_evt *)sc_ring_reserve(&d.evt, 2);
	memset(v, 0, sizeof(*v));
	v->type = SC_EVT_SEND_FAILED;
	v->assoc = 77;
	v->len = 50;
	sc_ring_commit(&d.evt, 3);
	struct dpsctp_client_event ev[8];
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 8), 3);
	EXPECT_EQ(ev[0].kind, DPSCTP_CLIENT_COMM_UP);
	EXPECT_EQ(ev[0].assoc_change.extensions, DPSCTP_CLIENT_EXT_PR_SCTP);
	EXPECT_EQ(ev[1].kind, DPSCTP_CLIENT_SEND_FAILED);
	EXPECT_EQ(ev[1].send_failed.pr_policy, DPSCTP_CLIENT_PR_TTL);
	EXPECT_EQ(ev[1].send_failed.sent, 1);
	EXPECT_EQ(ev[1].send_failed.len, 100u);
	EXPECT_EQ(ev[1].send_failed.sid, 1);
	EXPECT_EQ(ev[2].kind, DPSCTP_CLIENT_SEND_FAILED);
	EXPECT_EQ(ev[2].send_failed.pr_policy, DPSCTP_CLIENT_PR_NONE);
	EXPECT_EQ(ev[2].send_failed.sent, 0);
	// A policy the protocol does not have is the daemon breaking it.
	v = (struct sc_evt *)sc_ring_reserve(&d.evt, 0);
	memset(v, 0, sizeof(*v));
	v->type = SC_EVT_SEND_FAILED;
	v->assoc = 77;
	v->pr_policy = SC_PR_PRIO + 1;
	sc_ring_commit(&d.evt, 1);
	EXPECT_EQ(dpsctp_client_poll(c, 0, ev, 8), -EPROTO);
	dpsctp_client_detach(c);
}
// The stream scheduler through the library: each call posts one request
// with the association, stream and value as given (the value only for the
// setters); a scheduler the data plane does not have is -EINVAL before
// anything is posted; a getter's answer comes back in the completion's
// value, with the operation named.
TEST(ScClient, SchedThroughTheRings)
{
	Server srv(8);
	static std::atomic<struct sc_app *> app{ nullptr };
	srv.s_.on_attach = [](struct sc_server *, struct sc_app *a, void *arg) {
		((Server *)arg)->attached_.fetch_add(1);
		app.store(a);
	};
	int err;
	struct dpsctp_client_opts o = { 1, 64, 1 << 16, "sched", 0 };
	struct dpsctp_client *c = dpsctp_client_attach(srv.path(), &o, &err);
	ASSERT_NE(c, nullptr) << err;
	ASSERT_TRUE(srv.wait_apps(1));
	struct sc_app *a = app.load();
	struct sc_thread d;
	ASSERT_EQ(sc_region_thread(a->base, &a->layout, 0, true, &d), 0);

	EXPECT_EQ(dpsctp_client_set_sched(c, 0, 77, DPSCTP_CLIENT_SCHED_WFQ + 1, 1), -EINVAL);
	EXPECT_EQ(dpsctp_client_set_sched(c, 0, 0, DPSCTP_CLIENT_SCHED_PRIO, 1), -EINVAL);
	EXPECT_EQ(dpsctp_client_get_sched(c, 0, 0, 1), -EINVAL);
	EXPECT_EQ(dpsctp_client_set_stream_param(c, 0, 0, 1, 1, 1), -EINVAL);
	EXPECT_EQ(dpsctp_client_get_stream_param(c, 0, 0, 1, 1), -EINVAL);
	EXPECT_EQ(dpsctp_client_get_sched(c, 1, 77, 1), -EINVAL) << "a thread out of range";
	ASSERT_EQ(sc_ring_count(&d.req), 0) << "the refused ones posted nothing";

	ASSERT_EQ(dpsctp_client_set_sched(c, 0, 77, DPSCTP_CLIENT_SCHED_PRIO, 10), 0);
	ASSERT_EQ(dpsctp_client_get_sched(c, 0, 77, 11), 0);
	ASSERT_EQ(dpsctp_client_set_stream_param(c, 0, 77, 3, 65535, 12), 0);
	ASSERT_EQ(dpsctp_client_get_stream_param(c, 0, 77, 3, 13), 0);
	const struct {
		uint8_t op;
		uint16_t sid;
		uint32_t value;
		enum dpsctp_client_op api;
	} want[] = {
		{ SC_OP_SET_SCHED, 0, DPSCTP_CLIENT_SCHED_PRIO, DPSCTP_CLIENT_OP_SET_SCHED },
		{ SC_OP_GET_SCHED, 0, 0, DPSCTP_CLIENT_OP_GET_SCHED },
		{ SC_OP_SET_STREAM_PARAM, 3, 65535, DPSCTP_CLIENT_OP_SET_STREAM_PARAM },
		{ SC_OP_GET_STREAM_PARAM, 3, 0, DPSCTP_CLIENT_OP_GET_STREAM_PARAM },
	};
	ASSERT_EQ(sc_ring_count(&d.req), 4);
	for (uint32_t k = 0; k < 4; k++) {
		const struct sc_req *r = (const struct sc_req *)sc_ring_peek(&d.req, k);
		EXPECT_EQ(sc_req_check(r, a->layout.arena_bytes), 0) << k;
		EXPECT_EQ(r->op, want[k].op) << k;
		EXPECT_EQ(r->assoc, 77u) << k;
		EXPECT_EQ(r->sid, want[k].sid) << k;
		EXPECT_EQ(r->value, want[k].value) << k;
		EXPECT_EQ(r->cookie, 10u + k) << k;
	}
	sc_ring_release(&d.req, 4);

	// The daemon's answers: the getters' values, and a refusal.
	const int32_t status[] = { 0, 0, -EINVAL, 0 };
	const uint32_t value[] = { 0, DPSCTP_CLIENT_SCHED_PRIO, 0, 65535 };
	for (uint32_t k = 0; k < 4; k++) {
		struct sc_cpl *p = (struct sc_cpl *)sc_ring_reserve(&d.cpl, k);
		memset(p, 0, sizeof(*p));
		p->cookie = 10u + k;
		p->op = want[k].op;
		p->status = status[k];
		p->value = value[k];
	}
	sc_ring_commit(&d.cpl, 4);
	struct dpsctp_client_event ev[8];
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 8), 4);
	for (int k = 0; k < 4; k++) {
		EXPECT_EQ(ev[k].kind, DPSCTP_CLIENT_COMPLETION);
		EXPECT_EQ(ev[k].completion.op, want[k].api) << k;
		EXPECT_EQ(ev[k].completion.cookie, 10u + (unsigned)k);
		EXPECT_EQ(ev[k].completion.status, status[k]) << k;
		EXPECT_EQ(ev[k].completion.value, value[k]) << k;
	}
	dpsctp_client_detach(c);
}

// One event slot of the daemon's, zeroed, for the association 77.
struct sc_evt *
evt_slot(struct sc_thread *d, uint32_t k, uint8_t type)
{
	struct sc_evt *v = (struct sc_evt *)sc_ring_reserve(&d->evt, k);
	memset(v, 0, sizeof(*v));
	v->type = type;
	v->assoc = 77;
	return v;
}

// Stream reconfiguration (RFC 6525) through the library: what the data
// plane would refuse for its form is -EINVAL before anything is posted;
// RESET_STREAMS carries its flags and its list (in the tx arena),
// ADD_STREAMS both counts, RESET_ASSOC the association; the completions
// name the operations; STREAM_RESET's list comes out of the rx arena at
// any offset (an odd one here), ASSOC_RESET's TSNs and STREAM_CHANGE's
// counts as the daemon wrote them; the RECV that ends an abandoned message
// has no bytes. More STREAM_RESET lists than one poll keeps wait for the
// next poll.
TEST(ScClient, ReconfThroughTheRings)
{
	Server srv(9);
	static std::atomic<struct sc_app *> app{ nullptr };
	srv.s_.on_attach = [](struct sc_server *, struct sc_app *a, void *arg) {
		((Server *)arg)->attached_.fetch_add(1);
		app.store(a);
	};
	int err;
	struct dpsctp_client_opts o = { 1, 64, 1 << 16, "reconf", 0 };
	struct dpsctp_client *c = dpsctp_client_attach(srv.path(), &o, &err);
	ASSERT_NE(c, nullptr) << err;
	ASSERT_TRUE(srv.wait_apps(1));
	struct sc_app *a = app.load();
	struct sc_thread d;
	ASSERT_EQ(sc_region_thread(a->base, &a->layout, 0, true, &d), 0);

	uint16_t many[33];
	for (uint16_t i = 0; i < 33; i++)
		many[i] = i;
	const unsigned out = DPSCTP_CLIENT_RESET_OUTGOING, in = DPSCTP_CLIENT_RESET_INCOMING;
	EXPECT_EQ(dpsctp_client_reset_streams(c, 0, 77, 0, many, 1, 1), -EINVAL) << "no direction";
	EXPECT_EQ(dpsctp_client_reset_streams(c, 0, 77, 0x04, many, 1, 1), -EINVAL);
	EXPECT_EQ(dpsctp_client_reset_streams(c, 0, 77, out, many, 33, 1), -EINVAL) << "33";
	EXPECT_EQ(dpsctp_client_reset_streams(c, 0, 77, out, nullptr, 2, 1), -EINVAL);
	EXPECT_EQ(dpsctp_client_reset_streams(c, 0, 0, out, many, 1, 1), -EINVAL);
	EXPECT_EQ(dpsctp_client_reset_streams(c, 1, 77, out, many, 1, 1), -EINVAL) << "thread 1";
	EXPECT_EQ(dpsctp_client_add_streams(c, 0, 77, 0, 0, 1), -EINVAL) << "nothing to add";
	EXPECT_EQ(dpsctp_client_add_streams(c, 0, 0, 1, 0, 1), -EINVAL);
	EXPECT_EQ(dpsctp_client_reset_assoc(c, 0, 0, 1), -EINVAL);
	EXPECT_EQ(dpsctp_client_reset_assoc(c, 1, 77, 1), -EINVAL);
	ASSERT_EQ(sc_ring_count(&d.req), 0) << "the refused ones posted nothing";

	const uint16_t three[] = { 3, 7, 65535 };
	ASSERT_EQ(dpsctp_client_reset_streams(c, 0, 77, out, three, 3, 10), 0);
	ASSERT_EQ(dpsctp_client_reset_streams(c, 0, 77, in | out, nullptr, 0, 11), 0);
	ASSERT_EQ(dpsctp_client_reset_streams(c, 0, 77, in, many, 32, 12), 0);
	ASSERT_EQ(dpsctp_client_add_streams(c, 0, 77, 2, 65535, 13), 0);
	ASSERT_EQ(dpsctp_client_reset_assoc(c, 0, 77, 14), 0);
	const struct {
		uint8_t op;
		uint32_t value, len;
		enum dpsctp_client_op api;
	} want[] = {
		{ SC_OP_RESET_STREAMS, out, 6, DPSCTP_CLIENT_OP_RESET_STREAMS },
		{ SC_OP_RESET_STREAMS, in | out, 0, DPSCTP_CLIENT_OP_RESET_STREAMS },
		{ SC_OP_RESET_STREAMS, in, 64, DPSCTP_CLIENT_OP_RESET_STREAMS },
		{ SC_OP_ADD_STREAMS, 2u | 65535u << 16, 0, DPSCTP_CLIENT_OP_ADD_STREAMS },
		{ SC_OP_RESET_ASSOC, 0, 0, DPSCTP_CLIENT_OP_RESET_ASSOC },
	};
	ASSERT_EQ(sc_ring_count(&d.req), 5);
	for (uint32_t k = 0; k < 5; k++) {
		const struct sc_req *r = (const struct sc_req *)sc_ring_peek(&d.req, k);
		EXPECT_EQ(sc_req_check(r, a->layout.arena_bytes), 0) << k;
		EXPECT_EQ(r->op, want[k].op) << k;
		EXPECT_EQ(r->assoc, 77u) << k;
		EXPECT_EQ(r->value, want[k].value) << k;
		EXPECT_EQ(r->len, want[k].len) << k;
		EXPECT_EQ(r->cookie, 10u + k) << k;
		if (r->len == 0)
			continue;
		const void *p = sc_arena_take(&d.tx, r->off, r->len, &err);
		ASSERT_NE(p, nullptr) << k;
		EXPECT_EQ(memcmp(p, k == 0 ? (const void *)three : (const void *)many, r->len), 0)
			<< k;
	}
	sc_ring_release(&d.req, 5);
	sc_arena_release(&d.tx);

	const int32_t status[] = { 0, -EINPROGRESS, -EOPNOTSUPP, -EINVAL, -EAGAIN };
	for (uint32_t k = 0; k < 5; k++) {
		struct sc_cpl *p = (struct sc_cpl *)sc_ring_reserve(&d.cpl, k);
		memset(p, 0, sizeof(*p));
		p->cookie = 10u + k;
		p->op = want[k].op;
		p->status = status[k];
	}
	sc_ring_commit(&d.cpl, 5);

	// A byte of a message first, so that the list lands at an odd offset.
	uint64_t off;
	uint8_t *b = (uint8_t *)sc_arena_alloc(&d.rx, 1, &off, &err);
	ASSERT_NE(b, nullptr);
	*b = 0x5a;
	struct sc_evt *v = evt_slot(&d, 0, SC_EVT_RECV);
	v->off = off;
	v->len = 1;
	v->flags = SC_RECV_MORE;
	b = (uint8_t *)sc_arena_alloc(&d.rx, sizeof(three), &off, &err);
	ASSERT_NE(b, nullptr);
	ASSERT_EQ(off % 2, 1u);
	memcpy(b, three, sizeof(three));
	v = evt_slot(&d, 1, SC_EVT_STREAM_RESET);
	v->flags = SC_RESET_OUTGOING_SSN;
	v->off = off;
	v->len = sizeof(three);
	v = evt_slot(&d, 2, SC_EVT_STREAM_RESET);
	v->flags = SC_RESET_INCOMING_SSN | SC_RESET_DENIED; // every stream: no list
	v = evt_slot(&d, 3, SC_EVT_ASSOC_RESET);
	v->ppid = 0x01020304;
	v->mid = 0xfffffff0;
	v = evt_slot(&d, 4, SC_EVT_STREAM_CHANGE);
	v->sid = 70;
	v->ssn = 66;
	v = evt_slot(&d, 5, SC_EVT_RECV);
	v->flags = SC_RECV_CONT | SC_RECV_ABORTED;
	v->mid = 9;
	sc_arena_publish(&d.rx);
	sc_ring_commit(&d.evt, 6);

	struct dpsctp_client_event ev[16];
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 16), 11);
	for (int k = 0; k < 5; k++) {
		EXPECT_EQ(ev[k].kind, DPSCTP_CLIENT_COMPLETION) << k;
		EXPECT_EQ(ev[k].completion.op, want[k].api) << k;
		EXPECT_EQ(ev[k].completion.status, status[k]) << k;
	}
	EXPECT_EQ(ev[5].kind, DPSCTP_CLIENT_RECV);
	EXPECT_EQ(ev[6].kind, DPSCTP_CLIENT_STREAM_RESET);
	EXPECT_EQ(ev[6].assoc, 77u);
	EXPECT_EQ(ev[6].stream_reset.flags, DPSCTP_CLIENT_RESET_OUTGOING_SSN);
	ASSERT_EQ(ev[6].stream_reset.n, 3);
	EXPECT_EQ((uintptr_t)ev[6].stream_reset.streams % alignof(uint16_t), 0u);
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(ev[6].stream_reset.streams[i], three[i]) << i;
	EXPECT_EQ(ev[7].kind, DPSCTP_CLIENT_STREAM_RESET);
	EXPECT_EQ(ev[7].stream_reset.flags,
		  DPSCTP_CLIENT_RESET_INCOMING_SSN | DPSCTP_CLIENT_RESET_DENIED);
	EXPECT_EQ(ev[7].stream_reset.n, 0);
	EXPECT_EQ(ev[7].stream_reset.streams, nullptr);
	EXPECT_EQ(ev[8].kind, DPSCTP_CLIENT_ASSOC_RESET);
	EXPECT_EQ(ev[8].assoc_reset.flags, 0u);
	EXPECT_EQ(ev[8].assoc_reset.local_tsn, 0x01020304u);
	EXPECT_EQ(ev[8].assoc_reset.remote_tsn, 0xfffffff0u);
	EXPECT_EQ(ev[9].kind, DPSCTP_CLIENT_STREAM_CHANGE);
	EXPECT_EQ(ev[9].stream_change.outbound_streams, 70);
	EXPECT_EQ(ev[9].stream_change.inbound_streams, 66);
	EXPECT_EQ(ev[10].kind, DPSCTP_CLIENT_RECV);
	EXPECT_EQ(ev[10].recv.flags, DPSCTP_CLIENT_CONT | DPSCTP_CLIENT_ABORTED);
	EXPECT_EQ(ev[10].recv.len, 0u);
	EXPECT_EQ(ev[10].recv.data, nullptr);
	EXPECT_EQ(ev[10].recv.mid, 9u);

	// Six lists of 32: four in one poll, each its own, then the rest.
	for (uint32_t k = 0; k < 6; k++) {
		b = (uint8_t *)sc_arena_alloc(&d.rx, 64, &off, &err);
		ASSERT_NE(b, nullptr) << k;
		for (uint16_t i = 0; i < 32; i++) {
			uint16_t sid = (uint16_t)(k * 100 + i);
			memcpy(b + 2 * i, &sid, 2);
		}
		v = evt_slot(&d, k, SC_EVT_STREAM_RESET);
		v->flags = SC_RESET_INCOMING_SSN;
		v->off = off;
		v->len = 64;
	}
	sc_arena_publish(&d.rx);
	sc_ring_commit(&d.evt, 6);
	auto lists = [&](int n, uint32_t first) {
		for (int k = 0; k < n; k++) {
			ASSERT_EQ(ev[k].kind, DPSCTP_CLIENT_STREAM_RESET) << k;
			ASSERT_EQ(ev[k].stream_reset.n, 32) << k;
			for (uint16_t i = 0; i < 32; i++)
				EXPECT_EQ(ev[k].stream_reset.streams[i], (first + k) * 100 + i)
					<< k << " " << i;
		}
	};
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 16), 4);
	lists(4, 0);
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 16), 2);
	lists(2, 4);
	dpsctp_client_detach(c);
}

// A completion of the daemon's, zeroed.
struct sc_cpl *
cpl_slot(struct sc_thread *d, uint32_t k, uint8_t op, uint64_t cookie, int32_t status)
{
	struct sc_cpl *p = (struct sc_cpl *)sc_ring_reserve(&d->cpl, k);
	memset(p, 0, sizeof(*p));
	p->op = op;
	p->cookie = cookie;
	p->status = status;
	return p;
}

// A GETOPT's answer, len bytes of pattern `seed`, in the raw slots after its completion at k.
void
answer_slots(struct sc_thread *d, uint32_t k, uint32_t len, uint8_t seed)
{
	for (uint32_t i = 0; i < SC_OPT_SLOTS(len); i++) {
		uint8_t *slot = (uint8_t *)sc_ring_reserve(&d->cpl, k + 1 + i);
		for (uint32_t b = 0; b < SC_SLOT_BYTES; b++)
			slot[b] = (uint8_t)(seed + i * SC_SLOT_BYTES + b);
	}
}

bool
answer_is(const struct dpsctp_client_event &e, uint32_t len, uint8_t seed)
{
	if (e.completion.data == nullptr || e.completion.len != len ||
	    (uintptr_t)e.completion.data % alignof(uint64_t) != 0)
		return false;
	const uint8_t *p = (const uint8_t *)e.completion.data;
	for (uint32_t b = 0; b < len; b++)
		if (p[b] != (uint8_t)(seed + b))
			return false;
	return true;
}

// The per-association options (protocol version 7) through the library:
// what dpsctp_opt_check() refuses is -EINVAL with the option's message
// before anything is posted; SETOPT and GETOPT carry the option and its
// struct (GETOPT's question) in the tx arena, a CONNECT its INITMSG after
// the addresses, a SEND its context; a GETOPT's answer comes out of the
// completion slots after its completion, whole, aligned, across the ring's
// end, at most four per poll (the rest in the next); SEND_FAILED carries
// the context back. An answer the ring does not hold, or an answer where
// none belongs, is -EPROTO.
TEST(ScClient, OptsThroughTheRings)
{
	Server srv(10);
	static std::atomic<struct sc_app *> app{ nullptr };
	srv.s_.on_attach = [](struct sc_server *, struct sc_app *a, void *arg) {
		((Server *)arg)->attached_.fetch_add(1);
		app.store(a);
	};
	int err;
	struct dpsctp_client_opts o = { 1, 64, 1 << 16, "opts", 0 };
	struct dpsctp_client *c = dpsctp_client_attach(srv.path(), &o, &err);
	ASSERT_NE(c, nullptr) << err;
	ASSERT_TRUE(srv.wait_apps(1));
	struct sc_app *a = app.load();
	struct sc_thread d;
	ASSERT_EQ(sc_region_thread(a->base, &a->layout, 0, true, &d), 0);

	// Refused here, each with its reason, nothing posted.
	char why[160];
	struct dpsctp_rtoinfo rto = { 0, 500000, 100000 }; // min above max
	EXPECT_EQ(dpsctp_client_setopt(c, 0, 77, DPSCTP_OPT_RTOINFO, &rto, sizeof(rto), 1, why,
				       sizeof(why)),
		  -EINVAL);
	EXPECT_NE(strstr(why, "RTOINFO.min_us 500000"), nullptr) << why;
	EXPECT_EQ(dpsctp_client_setopt(c, 0, 77, DPSCTP_OPT_RTOINFO, &rto, 8, 1, why, sizeof(why)),
		  -EINVAL)
		<< "not the struct's size";
	EXPECT_NE(strstr(why, "expected a struct of 12"), nullptr) << why;
	struct dpsctp_sack_info sack = { 600000, 2 };
	EXPECT_EQ(dpsctp_client_setopt(c, 0, 0, DPSCTP_OPT_DELAYED_SACK, &sack, sizeof(sack), 1,
				       why, sizeof(why)),
		  -EINVAL)
		<< "a default is checked the same";
	EXPECT_NE(strstr(why, "DELAYED_SACK.delay_us 600000"), nullptr) << why;
	struct dpsctp_status st;
	memset(&st, 0, sizeof(st));
	EXPECT_EQ(dpsctp_client_setopt(c, 0, 77, DPSCTP_OPT_STATUS, &st, sizeof(st), 1, why,
				       sizeof(why)),
		  -ENOPROTOOPT);
	EXPECT_NE(strstr(why, "STATUS: read only"), nullptr) << why;
	EXPECT_EQ(dpsctp_client_setopt(c, 0, 77, 99, &rto, sizeof(rto), 1, why, sizeof(why)),
		  -ENOPROTOOPT);
	EXPECT_NE(strstr(why, "option 99"), nullptr) << why;
	struct dpsctp_primary_addr pa;
	memset(&pa, 0, sizeof(pa));
	pa.addr = { 4, { 192, 0, 2, 2 } };
	EXPECT_EQ(dpsctp_client_setopt(c, 0, 0, DPSCTP_OPT_PRIMARY_ADDR, &pa, sizeof(pa), 1, why,
				       sizeof(why)),
		  -ENOPROTOOPT)
		<< "no default primary address";
	EXPECT_EQ(dpsctp_client_setopt(c, 1, 77, DPSCTP_OPT_RTOINFO, &rto, sizeof(rto), 1, why,
				       sizeof(why)),
		  -EINVAL)
		<< "thread 1";
	EXPECT_EQ(dpsctp_client_getopt(c, 0, 77, DPSCTP_OPT_STATUS, &st, 8, 1), -EINVAL);
	EXPECT_EQ(dpsctp_client_getopt(c, 0, 77, DPSCTP_OPT_STATUS, nullptr, 64, 1), -EINVAL);
	EXPECT_EQ(dpsctp_client_getopt(c, 0, 77, 0, nullptr, 0, 1), -ENOPROTOOPT);
	EXPECT_EQ(dpsctp_client_getopt(c, 0, 77, DPSCTP_OPT_END, nullptr, 0, 1), -ENOPROTOOPT);
	struct sctp_addr peer = { 4, { 192, 0, 2, 2 } };
	struct dpsctp_initmsg im = { 8, 8, 3, 1, 0 }; // reserved 1
	EXPECT_EQ(dpsctp_client_connect_opts(c, 0, &peer, 1, 5001, &im, 1, why, sizeof(why)),
		  -EINVAL);
	EXPECT_NE(strstr(why, "INITMSG.reserved"), nullptr) << why;
	ASSERT_EQ(sc_ring_count(&d.req), 0) << "the refused ones posted nothing";

	// Posted: the option and its bytes.
	rto = { 20000, 10000, 400000 };
	ASSERT_EQ(dpsctp_client_setopt(c, 0, 77, DPSCTP_OPT_RTOINFO, &rto, sizeof(rto), 10, why,
				       sizeof(why)),
		  0);
	EXPECT_STREQ(why, "") << "no reason when posted";
	sack = { 2000, 1 };
	ASSERT_EQ(dpsctp_client_setopt(c, 0, 0, DPSCTP_OPT_DELAYED_SACK, &sack, sizeof(sack), 11,
				       nullptr, 0),
		  0);
	ASSERT_EQ(dpsctp_client_getopt(c, 0, 77, DPSCTP_OPT_STATUS, nullptr, 0, 12), 0);
	struct dpsctp_paddrinfo q;
	memset(&q, 0, sizeof(q));
	q.addr = peer;
	ASSERT_EQ(dpsctp_client_getopt(c, 0, 77, DPSCTP_OPT_PEER_ADDR_INFO, &q, sizeof(q), 13), 0);
	im = { 100, 200, 5, 0, 250000 };
	struct sctp_addr two[2] = { peer, { 4, { 198, 51, 100, 2 } } };
	ASSERT_EQ(dpsctp_client_connect_opts(c, 0, two, 2, 38412, &im, 14, nullptr, 0), 0);
	ASSERT_EQ(dpsctp_client_connect_opts(c, 0, &peer, 1, 38412, nullptr, 15, nullptr, 0), 0);
	struct dpsctp_client_sndinfo si = { 77, 1, 0, 0, 0, 0, 0xc0ffee };
	ASSERT_EQ(dpsctp_client_send(c, 0, &si, "x", 1, 16), 0);
	const struct {
		uint8_t op;
		uint64_t assoc;
		uint32_t value, len;
		const void *bytes;
	} want[] = {
		{ SC_OP_SETOPT, 77, DPSCTP_OPT_RTOINFO, sizeof(rto), &rto },
		{ SC_OP_SETOPT, 0, DPSCTP_OPT_DELAYED_SACK, sizeof(sack), &sack },
		{ SC_OP_GETOPT, 77, DPSCTP_OPT_STATUS, 0, nullptr },
		{ SC_OP_GETOPT, 77, DPSCTP_OPT_PEER_ADDR_INFO, sizeof(q), &q },
		{ SC_OP_CONNECT, 0, sizeof(im), 2 * sizeof(struct sc_addr) + sizeof(im), nullptr },
		{ SC_OP_CONNECT, 0, 0, sizeof(struct sc_addr), nullptr },
		{ SC_OP_SEND, 77, 0, 1, "x" },
	};
	const uint32_t nw = sizeof(want) / sizeof(want[0]);
	ASSERT_EQ(sc_ring_count(&d.req), (int)nw);
	for (uint32_t k = 0; k < nw; k++) {
		const struct sc_req *r = (const struct sc_req *)sc_ring_peek(&d.req, k);
		EXPECT_EQ(sc_req_check(r, a->layout.arena_bytes), 0) << k;
		EXPECT_EQ(r->op, want[k].op) << k;
		EXPECT_EQ(r->assoc, want[k].assoc) << k;
		EXPECT_EQ(r->value, want[k].value) << k;
		EXPECT_EQ(r->len, want[k].len) << k;
		EXPECT_EQ(r->cookie, 10u + k) << k;
		EXPECT_EQ(r->context, r->op == SC_OP_SEND ? 0xc0ffeeu : 0u) << k;
		if (r->len == 0)
			continue;
		const uint8_t *p = (const uint8_t *)sc_arena_take(&d.tx, r->off, r->len, &err);
		ASSERT_NE(p, nullptr) << k;
		if (want[k].bytes != nullptr) {
			EXPECT_EQ(memcmp(p, want[k].bytes, r->len), 0) << k;
		}
		if (k == 4) { // two addresses, then the INITMSG as it was given
			struct sc_addr a1;
			memcpy(&a1, p + sizeof(a1), sizeof(a1));
			EXPECT_EQ(a1.family, 4);
			EXPECT_EQ(memcmp(a1.bytes, two[1].bytes, 4), 0);
			EXPECT_EQ(memcmp(p + 2 * sizeof(struct sc_addr), &im, sizeof(im)), 0);
		}
	}
	sc_ring_release(&d.req, nw);
	sc_arena_release(&d.tx);

	// The answers: a refusal, STATUS (one slot), PEER_ADDR_INFO refused, and a longer
	// answer (the wire allows up to SC_OPT_MAX_BYTES) that ends across the ring's end.
	uint32_t k = 0;
	cpl_slot(&d, k++, SC_OP_SETOPT, 10, -EINVAL);
	cpl_slot(&d, k++, SC_OP_SETOPT, 11, 0);
	cpl_slot(&d, k, SC_OP_GETOPT, 12, 0)->value = sizeof(st);
	answer_slots(&d, k, sizeof(st), 1);
	k += 2;
	cpl_slot(&d, k++, SC_OP_GETOPT, 13, -ENOENT);
	sc_ring_commit(&d.cpl, k);
	struct dpsctp_client_event ev[16];
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 16), 4);
	EXPECT_EQ(ev[0].completion.op, DPSCTP_CLIENT_OP_SETOPT);
	EXPECT_EQ(ev[0].completion.status, -EINVAL);
	EXPECT_EQ(ev[0].completion.data, nullptr);
	EXPECT_EQ(ev[1].completion.status, 0);
	EXPECT_EQ(ev[2].completion.op, DPSCTP_CLIENT_OP_GETOPT);
	EXPECT_EQ(ev[2].completion.cookie, 12u);
	EXPECT_EQ(ev[2].completion.value, 0u);
	EXPECT_TRUE(answer_is(ev[2], sizeof(st), 1));
	EXPECT_EQ(ev[3].completion.op, DPSCTP_CLIENT_OP_GETOPT);
	EXPECT_EQ(ev[3].completion.status, -ENOENT);
	EXPECT_EQ(ev[3].completion.data, nullptr);
	EXPECT_EQ(ev[3].completion.len, 0u);

	// Five slots so far: 57 barriers take the ring to slot 62, where a GETOPT's answer
	// of 100 bytes takes slots 63 and 0, past the ring's end.
	for (uint32_t i = 0; i < 57; i++)
		cpl_slot(&d, i, SC_OP_RELEASE, 1000 + i, 0);
	sc_ring_commit(&d.cpl, 57);
	for (int got = 0; got < 57;) {
		int n = dpsctp_client_poll(c, 0, ev, 16);
		ASSERT_GT(n, 0);
		got += n;
	}
	cpl_slot(&d, 0, SC_OP_GETOPT, 20, 0)->value = 100;
	answer_slots(&d, 0, 100, 7);
	sc_ring_commit(&d.cpl, 3);
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 16), 1);
	EXPECT_TRUE(answer_is(ev[0], 100, 7)) << "two slots, the second past the ring's end";

	// Five answers: four in one poll, each its own, then the fifth.
	for (uint32_t i = 0; i < 5; i++) {
		cpl_slot(&d, 2 * i, SC_OP_GETOPT, 30 + i, 0)->value = 40;
		answer_slots(&d, 2 * i, 40, (uint8_t)(50 * i));
	}
	sc_ring_commit(&d.cpl, 10);
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 16), 4);
	for (int i = 0; i < 4; i++)
		EXPECT_TRUE(answer_is(ev[i], 40, (uint8_t)(50 * i))) << i;
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 16), 1);
	EXPECT_TRUE(answer_is(ev[0], 40, 200));

	// SEND_FAILED brings the context back.
	struct sc_evt *v = evt_slot(&d, 0, SC_EVT_SEND_FAILED);
	v->len = 1;
	v->sid = 1;
	v->mid = 0xc0ffee;
	sc_ring_commit(&d.evt, 1);
	ASSERT_EQ(dpsctp_client_poll(c, 0, ev, 16), 1);
	EXPECT_EQ(ev[0].kind, DPSCTP_CLIENT_SEND_FAILED);
	EXPECT_EQ(ev[0].send_failed.context, 0xc0ffeeu);

	// An answer longer than what the daemon committed: the library says so.
	cpl_slot(&d, 0, SC_OP_GETOPT, 40, 0)->value = 64;
	sc_ring_commit(&d.cpl, 1);
	EXPECT_EQ(dpsctp_client_poll(c, 0, ev, 16), -EPROTO);
	dpsctp_client_detach(c);

	// A success without an answer, and an answer to a SETOPT: -EPROTO each.
	for (uint8_t op : { (uint8_t)SC_OP_GETOPT, (uint8_t)SC_OP_SETOPT }) {
		int before = srv.attached_.load();
		c = dpsctp_client_attach(srv.path(), &o, &err);
		ASSERT_NE(c, nullptr) << err;
		for (int i = 0; i < 500 && srv.attached_.load() == before; i++)
			usleep(10000);
		ASSERT_GT(srv.attached_.load(), before);
		a = app.load();
		ASSERT_EQ(sc_region_thread(a->base, &a->layout, 0, true, &d), 0);
		cpl_slot(&d, 0, op, 50, 0)->value = op == SC_OP_GETOPT ? 0 : 12;
		sc_ring_commit(&d.cpl, 1);
		EXPECT_EQ(dpsctp_client_poll(c, 0, ev, 16), -EPROTO) << (int)op;
		dpsctp_client_detach(c);
	}
}

} // namespace

namespace {

void
on_alarm(int)
{
}

// A signal during dpsctp_client_check()'s look at the socket (poll() -1,
// EINTR) is not the daemon leaving: no -ECONNRESET while it serves us.
TEST(ScClient, SignalsAreNotTheDaemonLeaving)
{
	Server srv(41);
	int err;
	struct dpsctp_client *c = dpsctp_client_attach(srv.path(), nullptr, &err);
	ASSERT_NE(c, nullptr) << err;
	struct sigaction sa = {}, old = {};
	sa.sa_handler = on_alarm; // no SA_RESTART: interrupted calls fail with EINTR
	ASSERT_EQ(sigaction(SIGALRM, &sa, &old), 0);
	struct itimerval every = { { 0, 20 }, { 0, 20 } }, off = {};
	ASSERT_EQ(setitimer(ITIMER_REAL, &every, nullptr), 0);
	int resets = 0;
	for (int i = 0; i < 300000 && resets == 0; i++)
		resets += dpsctp_client_check(c) != 0;
	setitimer(ITIMER_REAL, &off, nullptr);
	sigaction(SIGALRM, &old, nullptr);
	EXPECT_EQ(resets, 0);
	EXPECT_EQ(dpsctp_client_check(c), 0);
	dpsctp_client_detach(c);
}

} // namespace

namespace {

// A client that speaks the handshake itself, so the test decides what it
// sends and when. Every wait is bounded: against a server that blocks on a
// silent client these tests fail, they do not hang (the silent sockets,
// declared after the Server, close first and so unblock its thread).
class Raw {
      public:
	explicit Raw(const char *path)
	{
		fd_ = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		struct sockaddr_un sa = {};
		sa.sun_family = AF_UNIX;
		strcpy(sa.sun_path, path);
		connected_ = connect(fd_, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	}
	~Raw()
	{
		if (fd_ >= 0)
			close(fd_);
	}
	Raw(const Raw &) = delete;
	Raw &operator=(const Raw &) = delete;
	bool connected() const
	{
		return connected_;
	}
	int fd() const
	{
		return fd_;
	}
	static struct sc_hello good_hello()
	{
		struct sc_hello h = {};
		h.magic = SC_MAGIC;
		h.version = SC_VERSION;
		h.n_threads = 1;
		strcpy(h.name, "raw");
		return h;
	}
	// The first len bytes of a good hello followed by extra bytes, with
	// fd as SCM_RIGHTS when fd >= 0. Whether send() took it whole.
	bool hello(size_t len = sizeof(struct sc_hello), int fd = -1)
	{
		uint8_t buf[sizeof(struct sc_hello) + 64] = {};
		struct sc_hello h = good_hello();
		memcpy(buf, &h, sizeof(h));
		struct iovec iov = { buf, len };
		struct msghdr mh = {};
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		union {
			struct cmsghdr c;
			char b[CMSG_SPACE(sizeof(int))];
		} ctl;
		if (fd >= 0) {
			memset(&ctl, 0, sizeof(ctl));
			mh.msg_control = ctl.b;
			mh.msg_controllen = sizeof(ctl.b);
			struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
			c->cmsg_level = SOL_SOCKET;
			c->cmsg_type = SCM_RIGHTS;
			c->cmsg_len = CMSG_LEN(sizeof(int));
			memcpy(CMSG_DATA(c), &fd, sizeof(int));
		}
		return sendmsg(fd_, &mh, MSG_NOSIGNAL) == (ssize_t)len;
	}
	// The server's answer within timeout_ms: the welcome's status (0:
	// attached; the descriptors that came with it are closed), EOF for the
	// socket closed without one, NONE for nothing yet.
	static constexpr int EOF_ = 1, NONE = 2;
	int answer(int timeout_ms)
	{
		struct pollfd pf = { fd_, POLLIN, 0 };
		if (poll(&pf, 1, timeout_ms) != 1)
			return NONE;
		struct sc_welcome w;
		union {
			struct cmsghdr c;
			char b[CMSG_SPACE(sizeof(int) * 32)];
		} ctl;
		struct iovec iov = { &w, sizeof(w) };
		struct msghdr mh = {};
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = ctl.b;
		mh.msg_controllen = sizeof(ctl.b);
		ssize_t n = recvmsg(fd_, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); n > 0 && c != nullptr;
		     c = CMSG_NXTHDR(&mh, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
				for (size_t i = 0; i < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
				     i++) {
					int f;
					memcpy(&f, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
					close(f);
				}
		if (n <= 0)
			return EOF_;
		EXPECT_EQ(n, (ssize_t)sizeof(w));
		return w.status;
	}
	// After a refusal: EOF within timeout_ms.
	bool closed(int timeout_ms)
	{
		return answer(timeout_ms) == EOF_;
	}
	void hang_up()
	{
		if (fd_ >= 0)
			close(fd_);
		fd_ = -1;
	}

      private:
	int fd_ = -1;
	bool connected_ = false;
};

unsigned
open_fds()
{
	unsigned n = 0;
	DIR *d = opendir("/proc/self/fd");
	while (d != nullptr && readdir(d) != nullptr)
		n++;
	if (d != nullptr)
		closedir(d);
	return n;
}

// The server's thread must never wait for a client: a connection that says
// nothing is kept aside with a deadline while others attach, then refused
// with -ETIMEDOUT.
TEST(ScServerNoWait, ASilentClientHoldsUpNobody)
{
	Server srv(20);
	Raw silent(srv.path());
	ASSERT_TRUE(silent.connected());
	usleep(50000); // accepted first, surely
	Raw good(srv.path());
	ASSERT_TRUE(good.hello());
	EXPECT_EQ(good.answer(5000), 0) << "a silent client held the server up";
	// The default deadline is a second.
	EXPECT_EQ(silent.answer(5000), -ETIMEDOUT);
	EXPECT_TRUE(silent.closed(1000));
	EXPECT_TRUE(srv.wait_apps(1));
	silent.hang_up(); // before stop(): a server stuck on it would never return
	srv.stop();
	EXPECT_EQ(srv.s_.ctr.hello_timeouts, 1u);
	EXPECT_EQ(srv.s_.ctr.refused, 1u);
	EXPECT_EQ(srv.s_.ctr.attached, 1u);
	EXPECT_EQ(srv.s_.n_pending, 0u);
}

// More silent connections than the table holds: the oldest are turned away
// (-EBUSY), the table never grows, and a client that speaks still attaches
// (its hello is read as it is accepted: it needs no room in the table).
TEST(ScServerNoWait, SilentClientsBeyondTheBoundTurnAwayTheOldest)
{
	Server srv(21, 4, 4, 30000);
	std::vector<std::unique_ptr<Raw>> silent;
	for (int i = 0; i < 10; i++) {
		silent.emplace_back(new Raw(srv.path()));
		ASSERT_TRUE(silent.back()->connected());
		usleep(5000); // arrival order is the order of connect()
	}
	for (int i = 0; i < 6; i++) {
		EXPECT_EQ(silent[i]->answer(5000), -EBUSY) << "silent client " << i;
		EXPECT_TRUE(silent[i]->closed(1000));
	}
	for (int i = 6; i < 10; i++)
		EXPECT_EQ(silent[i]->answer(0), Raw::NONE) << "silent client " << i;
	Raw good(srv.path());
	ASSERT_TRUE(good.hello());
	EXPECT_EQ(good.answer(5000), 0);
	EXPECT_TRUE(srv.wait_apps(1));
	// One more silent one: the oldest left makes room for it.
	Raw late(srv.path());
	EXPECT_EQ(silent[6]->answer(5000), -EBUSY);
	for (auto &r : silent)
		r->hang_up();
	late.hang_up();
	srv.stop();
	EXPECT_EQ(srv.s_.ctr.pending_evicted, 7u);
	EXPECT_EQ(srv.s_.ctr.refused, 7u);
	EXPECT_EQ(srv.s_.ctr.hello_timeouts, 0u);
	EXPECT_EQ(srv.s_.ctr.attached, 1u);
	EXPECT_EQ(srv.s_.n_pending, 0u); // closed by sc_server_close()
}

// A hello that comes late but in time is welcome, and others attach while
// it is awaited; half a hello, a hello with more after it and one with a
// descriptor attached are refused (no descriptor reaches the server).
TEST(ScServerNoWait, SlowPartialAndOversizedHellos)
{
	Server srv(22, 8, 0, 5000);
	Raw slow(srv.path());
	ASSERT_TRUE(slow.connected());
	usleep(50000);
	Raw good(srv.path());
	ASSERT_TRUE(good.hello());
	EXPECT_EQ(good.answer(5000), 0) << "a slow client held the server up";
	ASSERT_TRUE(slow.hello());
	EXPECT_EQ(slow.answer(5000), 0);

	Raw half(srv.path());
	ASSERT_TRUE(half.hello(sizeof(struct sc_hello) / 2));
	EXPECT_EQ(half.answer(5000), -EPROTO);
	EXPECT_TRUE(half.closed(1000));
	Raw big(srv.path());
	ASSERT_TRUE(big.hello(sizeof(struct sc_hello) + 64));
	EXPECT_EQ(big.answer(5000), -EPROTO);
	Raw empty(srv.path());
	ASSERT_TRUE(empty.hello(0));
	EXPECT_EQ(empty.answer(5000), Raw::EOF_); // a record of 0 bytes reads as EOF

	// The server's descriptors before and after, its end of with_fd closed
	// (the refusal's EOF): one received with the hello would remain.
	unsigned before = open_fds();
	int efd = eventfd(0, EFD_CLOEXEC);
	ASSERT_GE(efd, 0);
	{
		Raw with_fd(srv.path());
		ASSERT_TRUE(with_fd.hello(sizeof(struct sc_hello), efd));
		EXPECT_EQ(with_fd.answer(5000), -EPROTO);
		EXPECT_TRUE(with_fd.closed(1000));
	}
	close(efd);
	EXPECT_EQ(open_fds(), before) << "a descriptor sent with a hello stayed open";
	EXPECT_TRUE(srv.wait_apps(2));
	srv.stop();
	EXPECT_EQ(srv.s_.ctr.bad_hello, 3u); // half, big, with_fd
	EXPECT_EQ(srv.s_.ctr.refused, 3u);
	EXPECT_EQ(srv.s_.ctr.attached, 2u);
	EXPECT_EQ(srv.s_.ctr.hello_timeouts, 0u);
}

// The welcome is sent without waiting for the client to read it.
TEST(ScServerNoWait, AClientThatNeverReadsItsWelcomeHoldsUpNobody)
{
	Server srv(23);
	Raw lazy(srv.path());
	ASSERT_TRUE(lazy.hello());
	Raw good(srv.path());
	ASSERT_TRUE(good.hello());
	EXPECT_EQ(good.answer(5000), 0);
	EXPECT_TRUE(srv.wait_apps(2));
	EXPECT_EQ(lazy.answer(0), 0); // it was there all along
}

// The daemon takes an application on (on_attach: its rings read and
// checked) before the welcome tells the application where they are, so
// nothing the application writes can be there yet; an application that is
// gone before its welcome is undone with on_detach and never counted.
TEST(ScServerNoWait, TheDaemonAttachesBeforeTheWelcomeGoesOut)
{
	Server srv(24);
	Raw client(srv.path());
	static std::atomic<int> client_fd{ -1 };
	static std::atomic<int> welcome_seen_in_attach{ -1 };
	client_fd = client.fd();
	srv.s_.on_attach = [](struct sc_server *, struct sc_app *, void *arg) {
		struct pollfd pf = { client_fd.load(), POLLIN, 0 };
		welcome_seen_in_attach = poll(&pf, 1, 0);
		((Server *)arg)->attached_.fetch_add(1);
	};
	ASSERT_TRUE(client.hello());
	EXPECT_EQ(client.answer(5000), 0);
	ASSERT_TRUE(srv.wait_apps(1));
	EXPECT_EQ(welcome_seen_in_attach.load(), 0) << "the welcome went out before on_attach";

	// Hellos from clients that hang up at once: whichever way each one
	// goes, every on_attach has its on_detach once they are all gone.
	for (int i = 0; i < 20; i++) {
		Raw gone(srv.path());
		ASSERT_TRUE(gone.hello());
		gone.hang_up();
	}
	client.hang_up();
	for (int i = 0; i < 500 && srv.detached_.load() < srv.attached_.load(); i++)
		usleep(10000);
	EXPECT_EQ(srv.detached_.load(), srv.attached_.load());
	EXPECT_EQ(sc_server_apps(&srv.s_), 0u);
}

// A child that becomes uid:gid (no supplementary groups) and attaches:
// 0, the attach's negative errno, or -1000 when it could not become them.
int
attach_as(const char *path, uid_t uid, gid_t gid)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (setgroups(0, nullptr) != 0 || setgid(gid) != 0 || setuid(uid) != 0)
			_exit(255);
		int err = 0;
		struct dpsctp_client *c = dpsctp_client_attach(path, nullptr, &err);
		dpsctp_client_detach(c);
		_exit(c != nullptr ? 0 : -err & 0x7f);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1000;
	return WEXITSTATUS(st) == 255 ? -1000 : -WEXITSTATUS(st);
}

// The allow lists: a user in --allow-uid or a primary group in --allow-gid
// attaches, anyone else is refused -EACCES and counted, though the socket
// file (0666 here) lets everyone connect.
TEST(ScServerAccess, TheListsDecideWhoAttaches)
{
	if (geteuid() != 0)
		GTEST_SKIP() << "needs root (to attach as other users)";
	struct sc_server_access acc = {};
	acc.mode = 0666;
	acc.n_uids = 1;
	acc.uids[0] = 4242;
	acc.n_gids = 1;
	acc.gids[0] = 4343;
	Server srv(40, 4, 0, 0, 0, &acc);
	EXPECT_EQ(attach_as(srv.path(), 4242, 5000), 0) << "a listed user";
	EXPECT_EQ(attach_as(srv.path(), 5001, 4343), 0) << "a listed group";
	EXPECT_EQ(attach_as(srv.path(), 5002, 5002), -EACCES) << "neither";
	int err = 0;
	struct dpsctp_client *c = dpsctp_client_attach(srv.path(), nullptr, &err);
	EXPECT_NE(c, nullptr) << "root, whatever the lists say: " << err;
	dpsctp_client_detach(c);
	ASSERT_TRUE(srv.wait_apps(0));
	EXPECT_EQ(srv.attached_.load(), 3);
	EXPECT_EQ(srv.s_.ctr.refused_cred, 1u);
	EXPECT_EQ(srv.s_.ctr.refused, 1u);
}

// Without lists the socket file decides: its mode and group as asked, a
// user it keeps out refused by the kernel (nothing for the server to
// count), and with 0666 anyone attaches.
TEST(ScServerAccess, TheSocketFilesModeAndGroup)
{
	if (geteuid() != 0)
		GTEST_SKIP() << "needs root (to attach as other users)";
	struct sc_server_access acc = {};
	acc.mode = 0660;
	acc.set_gid = true;
	acc.gid = 4343;
	{
		Server srv(41, 4, 0, 0, 0, &acc);
		struct stat st;
		ASSERT_EQ(stat(srv.path(), &st), 0);
		EXPECT_EQ(st.st_mode & 07777, 0660u);
		EXPECT_EQ(st.st_gid, 4343u);
		EXPECT_EQ(attach_as(srv.path(), 5002, 4343), 0) << "the socket's group";
		EXPECT_EQ(attach_as(srv.path(), 5002, 5002), -EACCES) << "others";
		ASSERT_TRUE(srv.wait_apps(0));
		EXPECT_EQ(srv.attached_.load(), 1);
		EXPECT_EQ(srv.s_.ctr.refused_cred, 0u);
	}
	acc = {};
	acc.mode = 0666;
	Server srv(42, 4, 0, 0, 0, &acc);
	EXPECT_EQ(attach_as(srv.path(), 5002, 5002), 0) << "0666, no lists: anyone";
	acc.mode = 010000; // not permission bits
	struct sc_server bad;
	struct sc_server_limits lim = { 4, 4, 256, 1 << 16, 0, 0, 0, {} };
	lim.access = acc;
	EXPECT_EQ(sc_server_open(&bad, "/tmp/dpsctp-sc-never.sock", &lim, 43), -EINVAL);
}

} // namespace

namespace {

const struct sc_server_limits kLim = { 4, 4, 256, 1 << 16, 0, 0, 0, {} };

std::string
test_path(const char *what)
{
	return "/tmp/dpsctp-sc-test-" + std::to_string(getpid()) + "-" + what + ".sock";
}

// A second server on the path of a live one is refused and changes
// nothing: the first keeps its socket and serves.
TEST(ScServerPath, ASecondServerOnALiveSocketIsRefused)
{
	Server srv(30);
	EXPECT_EQ(sc_server_probe(srv.path()), -EADDRINUSE);
	struct sc_server second;
	EXPECT_EQ(sc_server_open(&second, srv.path(), &kLim, 31), -EADDRINUSE);
	Raw good(srv.path());
	ASSERT_TRUE(good.hello());
	EXPECT_EQ(good.answer(5000), 0) << "the first server lost its socket";
	EXPECT_TRUE(srv.wait_apps(1));
}

// A live server that is not polling (its backlog full: connect() says
// EAGAIN) is alive all the same.
TEST(ScServerPath, ABusyServerIsAliveToo)
{
	std::string path = test_path("busy");
	unlink(path.c_str());
	struct sc_server first, second;
	struct sc_server_limits lim = kLim;
	lim.max_pending = 1; // the listen backlog
	ASSERT_EQ(sc_server_open(&first, path.c_str(), &lim, 32), 0);
	std::vector<int> fds;
	struct sockaddr_un sa = {};
	sa.sun_family = AF_UNIX;
	strcpy(sa.sun_path, path.c_str());
	for (int i = 0; i < 8; i++) {
		int f = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		fds.push_back(f);
		if (connect(f, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
			EXPECT_EQ(errno, EAGAIN);
		}
	}
	EXPECT_EQ(sc_server_open(&second, path.c_str(), &kLim, 33), -EADDRINUSE);
	for (int f : fds)
		close(f);
	sc_server_close(&first, path.c_str());
	EXPECT_NE(access(path.c_str(), F_OK), 0);
}

// A socket nobody accepts on (its daemon died) is replaced; a file that is
// not a socket is not touched.
TEST(ScServerPath, AStaleSocketIsReplacedAndNothingElse)
{
	std::string path = test_path("stale");
	unlink(path.c_str());
	int dead = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	struct sockaddr_un sa = {};
	sa.sun_family = AF_UNIX;
	strcpy(sa.sun_path, path.c_str());
	ASSERT_EQ(bind(dead, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(dead); // the file stays, nobody listens: what a killed daemon leaves
	EXPECT_EQ(sc_server_probe(path.c_str()), 0);
	struct sc_server s;
	ASSERT_EQ(sc_server_open(&s, path.c_str(), &kLim, 34), 0);
	EXPECT_EQ(sc_server_probe(path.c_str()), -EADDRINUSE);
	sc_server_close(&s, path.c_str());
	EXPECT_NE(access(path.c_str(), F_OK), 0);

	int f = open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	ASSERT_GE(f, 0);
	ASSERT_EQ(write(f, "mine", 4), 4);
	close(f);
	EXPECT_EQ(sc_server_open(&s, path.c_str(), &kLim, 35), -EEXIST);
	struct stat st;
	ASSERT_EQ(stat(path.c_str(), &st), 0);
	EXPECT_EQ(st.st_size, 4);
	unlink(path.c_str());
}

// A server that exits removes its socket only if the path is still its
// own: not the socket of a server started after someone removed it.
TEST(ScServerPath, AServerLeavesAnothersSocketAlone)
{
	std::string path = test_path("own");
	unlink(path.c_str());
	struct sc_server a, b;
	ASSERT_EQ(sc_server_open(&a, path.c_str(), &kLim, 36), 0);
	ASSERT_EQ(unlink(path.c_str()), 0); // an operator's mistake, or a cleanup script
	ASSERT_EQ(sc_server_open(&b, path.c_str(), &kLim, 37), 0);
	sc_server_close(&a, path.c_str());
	EXPECT_EQ(sc_server_probe(path.c_str()), -EADDRINUSE) << "a removed b's socket";
	sc_server_close(&b, path.c_str());
	EXPECT_NE(access(path.c_str(), F_OK), 0);
}

} // namespace
