// SPDX-License-Identifier: BSD-3-Clause
// The sidecar's region and attach handshake (dataplane/sidecar/sc_region.h):
// layouts that fit and are checked, the handshake over a SOCK_SEQPACKET
// socket pair with the memfd and eventfds passed as SCM_RIGHTS, a slot each
// way through the mapped rings with the eventfd wake-up, and every
// malformed message or mismatching region refused with an error.
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <thread>

#include "dataplane/sidecar/sc_region.h"

namespace {

TEST(ScRegion, LayoutsFitAndAreChecked)
{
	struct sc_layout l;
	EXPECT_EQ(sc_layout_compute(&l, 0, 1024, 1 << 20), -EINVAL);
	EXPECT_EQ(sc_layout_compute(&l, SC_MAX_THREADS + 1, 1024, 1 << 20), -EINVAL);
	EXPECT_EQ(sc_layout_compute(&l, 2, 1000, 1 << 20), -EINVAL);
	EXPECT_EQ(sc_layout_compute(&l, 2, 1024, 100000), -EINVAL);
	ASSERT_EQ(sc_layout_compute(&l, 3, 1024, 1 << 20), 0);
	uint64_t end = 0;
	for (uint32_t t = 0; t < l.n_threads; t++) {
		const struct sc_layout_thread &lt = l.t[t];
		for (uint64_t off : { lt.req_off, lt.cpl_off, lt.evt_off, lt.tx_off, lt.rx_off })
			EXPECT_EQ(off % SC_REGION_ALIGN, 0u);
		EXPECT_GE(lt.req_off, sizeof(struct sc_region_hdr));
		EXPECT_GE(lt.req_off, end); // after the previous thread's
		EXPECT_GE(lt.cpl_off - lt.req_off, sc_ring_bytes(1024, SC_SLOT_BYTES));
		EXPECT_EQ(lt.rx_off - lt.tx_off, SC_ARENA_HDR + (1u << 20));
		end = lt.rx_off + SC_ARENA_HDR + (1u << 20);
	}
	EXPECT_EQ(l.region_bytes, end);
	EXPECT_EQ(sc_layout_check(&l, l.region_bytes), 0);
	EXPECT_EQ(sc_layout_check(&l, l.region_bytes + 4096), -EPROTO);
	struct sc_layout bad = l;
	bad.t[1].tx_off -= 4096; // overlaps the event ring
	EXPECT_EQ(sc_layout_check(&bad, bad.region_bytes), -EPROTO);
}

// Protocol 8: a ring set per (thread, worker). Every set has its own rings and
// arenas, none overlapping; each side attaches exactly the sets that exist;
// what one side writes into set (t, w) the other reads from (t, w) alone.
TEST(ScRegion, RingSetPerThreadAndWorker)
{
	struct sc_layout l;
	EXPECT_EQ(sc_layout_compute_workers(&l, 2, 0, 256, 1 << 16), -EINVAL);
	EXPECT_EQ(sc_layout_compute_workers(&l, 2, SC_MAX_WORKERS + 1, 256, 1 << 16), -EINVAL);
	ASSERT_EQ(sc_layout_compute_workers(&l, 3, 2, 256, 1 << 16), 0);
	EXPECT_EQ(l.n_workers, 2u);
	// The header (and its layout) no longer fits a page: the first set starts after it.
	EXPECT_GE(l.t[0].req_off, sizeof(struct sc_region_hdr));
	uint64_t end = 0;
	for (uint32_t i = 0; i < 3u * 2u; i++) {
		EXPECT_GE(l.t[i].req_off, end) << "set " << i;
		end = l.t[i].rx_off + SC_ARENA_HDR + (1u << 16);
	}
	EXPECT_EQ(l.region_bytes, end);
	EXPECT_EQ(sc_layout_set(&l, 2, 1), 5u);
	EXPECT_EQ(sc_layout_check(&l, l.region_bytes), 0);
	struct sc_layout bad = l;
	bad.n_workers = 1; // the same offsets under another worker count
	EXPECT_EQ(sc_layout_check(&bad, bad.region_bytes), -EPROTO);
	// One worker is the layout of before: sc_layout_compute()'s.
	struct sc_layout one, plain;
	ASSERT_EQ(sc_layout_compute_workers(&one, 3, 1, 256, 1 << 16), 0);
	ASSERT_EQ(sc_layout_compute(&plain, 3, 256, 1 << 16), 0);
	EXPECT_EQ(memcmp(&one, &plain, sizeof(one)), 0);

	int fd;
	void *base;
	ASSERT_EQ(sc_region_create(&l, 42, &fd, &base), 0);
	struct sc_thread d[3][2], a[3][2];
	for (uint32_t t = 0; t < 3; t++)
		for (uint32_t w = 0; w < 2; w++) {
			ASSERT_EQ(sc_region_set(base, &l, t, w, true, &d[t][w]), 0);
			ASSERT_EQ(sc_region_set(base, &l, t, w, false, &a[t][w]), 0);
		}
	struct sc_thread x;
	EXPECT_EQ(sc_region_set(base, &l, 0, 2, true, &x), -EINVAL);
	EXPECT_EQ(sc_region_set(base, &l, 3, 0, true, &x), -EINVAL);
	// A request into set (1, 1) reaches the daemon's (1, 1) and no other.
	uint8_t *slot = static_cast<uint8_t *>(sc_ring_reserve(&a[1][1].req, 0));
	memset(slot, 0x5a, SC_SLOT_BYTES);
	(void)sc_ring_commit(&a[1][1].req, 1);
	for (uint32_t t = 0; t < 3; t++)
		for (uint32_t w = 0; w < 2; w++)
			EXPECT_EQ(sc_ring_count(&d[t][w].req), t == 1 && w == 1 ? 1 : 0)
				<< "set " << t << "," << w;
	EXPECT_EQ(static_cast<const uint8_t *>(sc_ring_peek(&d[1][1].req, 0))[7], 0x5a);
	munmap(base, l.region_bytes);
	close(fd);
}

struct Pair {
	int s[2];
	Pair()
	{
		EXPECT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, s), 0);
	}
	~Pair()
	{
		close(s[0]);
		close(s[1]);
	}
};

struct sc_hello
hello(uint32_t threads)
{
	struct sc_hello h;
	memset(&h, 0, sizeof(h));
	h.magic = SC_MAGIC;
	h.version = SC_VERSION;
	h.n_threads = threads;
	strcpy(h.name, "test-app");
	return h;
}

TEST(ScRegion, HandshakeMapsOneRegionOnBothSidesAndWakesTheApplication)
{
	Pair p;
	const uint64_t gen = 0x1234;
	std::thread daemon([&] {
		struct sc_hello h;
		ASSERT_EQ(sc_hello_recv(p.s[0], &h), 0);
		EXPECT_STREQ(h.name, "test-app");
		struct sc_welcome w;
		memset(&w, 0, sizeof(w));
		w.magic = SC_MAGIC;
		w.version = SC_VERSION;
		w.generation = gen;
		w.app_id = 7;
		ASSERT_EQ(sc_layout_compute(&w.layout, h.n_threads, 256, 1 << 16), 0);
		int fds[1 + SC_MAX_THREADS];
		void *base;
		ASSERT_EQ(sc_region_create(&w.layout, gen, &fds[0], &base), 0);
		for (uint32_t t = 0; t < h.n_threads; t++)
			fds[1 + t] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		w.n_fds = 1 + h.n_threads;
		ASSERT_EQ(sc_welcome_send(p.s[0], &w, fds), 0);
		// Thread 1's request, then a completion for it with a wake-up.
		struct sc_ring req, cpl, evt;
		ASSERT_EQ(sc_region_rings(base, &w.layout, 1, true, &req, &cpl, &evt), 0);
		int n;
		while ((n = sc_ring_count(&req)) == 0)
			std::this_thread::yield();
		ASSERT_EQ(n, 1);
		EXPECT_STREQ((const char *)sc_ring_peek(&req, 0), "connect, please");
		sc_ring_release(&req, 1);
		while (sc_ring_free(&cpl) <= 0)
			std::this_thread::yield();
		strcpy((char *)sc_ring_reserve(&cpl, 0), "connected");
		while (!sc_ring_commit(&cpl, 0)) // wait until the app sleeps, then wake it
			std::this_thread::yield();
		sc_ring_commit(&cpl, 1);
		uint64_t one = 1;
		ASSERT_EQ(write(fds[2], &one, 8), 8);
		for (uint32_t i = 0; i < w.n_fds; i++)
			close(fds[i]);
		munmap(base, w.layout.region_bytes);
	});
	struct sc_hello h = hello(2);
	ASSERT_EQ(sc_hello_send(p.s[1], &h), 0);
	struct sc_welcome w;
	int fds[1 + SC_MAX_THREADS];
	ASSERT_EQ(sc_welcome_recv(p.s[1], &w, fds, 1 + SC_MAX_THREADS), 0);
	ASSERT_EQ(w.status, 0);
	ASSERT_EQ(w.n_fds, 3u);
	EXPECT_EQ(w.app_id, 7u);
	void *base;
	ASSERT_EQ(sc_region_map(fds[0], &w.layout, gen, &base), 0);
	EXPECT_EQ(sc_region_map(fds[0], &w.layout, gen + 1, &base), -EPROTO); // another daemon's
	struct sc_ring req, cpl, evt;
	ASSERT_EQ(sc_region_rings(base, &w.layout, 1, false, &req, &cpl, &evt), 0);
	ASSERT_GT(sc_ring_free(&req), 0);
	strcpy((char *)sc_ring_reserve(&req, 0), "connect, please");
	sc_ring_commit(&req, 1);
	// Nothing yet: go to sleep on the thread's eventfd until the completion.
	ASSERT_TRUE(sc_ring_prepare_sleep(&cpl));
	struct pollfd pf = { fds[2], POLLIN, 0 };
	ASSERT_EQ(poll(&pf, 1, 10000), 1);
	ASSERT_EQ(sc_ring_count(&cpl), 1);
	EXPECT_STREQ((const char *)sc_ring_peek(&cpl, 0), "connected");
	daemon.join();
	for (uint32_t i = 0; i < w.n_fds; i++)
		close(fds[i]);
	munmap(base, w.layout.region_bytes);
}

TEST(ScRegion, MalformedMessagesAndRegionsAreRefused)
{
	{ // a short datagram, a wrong magic, a name without its NUL, too many threads
		Pair p;
		struct sc_hello h = hello(1);
		ASSERT_EQ(send(p.s[1], &h, sizeof(h) - 1, 0), (ssize_t)sizeof(h) - 1);
		EXPECT_EQ(sc_hello_recv(p.s[0], &h), -EPROTO);
		h = hello(1);
		h.magic ^= 1;
		ASSERT_EQ(sc_hello_send(p.s[1], &h), 0);
		EXPECT_EQ(sc_hello_recv(p.s[0], &h), -EPROTO);
		h = hello(1);
		memset(h.name, 'x', sizeof(h.name));
		ASSERT_EQ(sc_hello_send(p.s[1], &h), 0);
		EXPECT_EQ(sc_hello_recv(p.s[0], &h), -EPROTO);
		h = hello(SC_MAX_THREADS + 1);
		ASSERT_EQ(sc_hello_send(p.s[1], &h), 0);
		EXPECT_EQ(sc_hello_recv(p.s[0], &h), -EPROTO);
		close(p.s[1]);
		p.s[1] = -1;
		EXPECT_EQ(sc_hello_recv(p.s[0], &h), -ECONNRESET); // the peer left
	}
	{ // a welcome with more fds than the caller can take: refused, what came is closed
		Pair p;
		struct sc_welcome w;
		memset(&w, 0, sizeof(w));
		w.magic = SC_MAGIC;
		w.version = SC_VERSION;
		w.n_fds = 1;
		int fd = eventfd(0, EFD_CLOEXEC);
		ASSERT_EQ(sc_welcome_send(p.s[0], &w, &fd), 0);
		int got[4];
		struct sc_welcome r;
		ASSERT_EQ(sc_welcome_recv(p.s[1], &r, got, 4), 0); // one announced, one came
		close(got[0]);
		w.n_fds = 2; // two announced and sent; the caller takes at most one
		int two[2] = { fd, fd };
		ASSERT_EQ(sc_welcome_send(p.s[0], &w, two), 0);
		ASSERT_EQ(sc_welcome_recv(p.s[1], &r, got, 1), -EPROTO); // more than max_fds
		close(fd);
	}
	{ // a memfd of another size than the layout says
		struct sc_layout l;
		ASSERT_EQ(sc_layout_compute(&l, 1, 64, 1 << 16), 0);
		int fd;
		void *base;
		ASSERT_EQ(sc_region_create(&l, 1, &fd, &base), 0);
		struct sc_layout big;
		ASSERT_EQ(sc_layout_compute(&big, 2, 64, 1 << 16), 0);
		EXPECT_EQ(sc_region_map(fd, &big, 1, &base), -EPROTO);
		// The application cannot resize it under the daemon (sealed).
		EXPECT_NE(ftruncate(fd, 4096), 0);
		munmap(base, l.region_bytes);
		close(fd);
	}
}

} // namespace
