/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] Two workers (queue pairs) a side over a net_ring link whose return
// direction is crossed: what the server sends on queue q arrives on the
// client's queue 1 - q. The client's associations are spread over both of
// its workers; every packet the server sends them lands on the other
// worker, which must hand it to the owner named by the tag (docs/DEMUX.md).
// Eight associations exchange messages both ways; every delivery is
// checked, and the hand-off counters are above zero.
#include <gtest/gtest.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dataplane/tests/dp_env.h"

namespace {

constexpr uint16_t kPort = 5001;
constexpr unsigned kAssocs = 8;
constexpr uint32_t kMsgs = 3000;

uint32_t
msg_size(uint32_t k)
{
	static const uint32_t sizes[] = { 1, 64, 300, 1452, 2000, 5000 };
	return sizes[k % 6];
}

uint8_t
msg_byte(uint32_t k, uint32_t off)
{
	return (uint8_t)(k * 37u + off * 11u);
}

struct Peer {
	dpsctp_assoc *a = nullptr;
	bool up = false, done = false, lost = false;
	uint32_t sent = 0, recv = 0, bad = 0;
	std::vector<uint8_t> seen = std::vector<uint8_t>(kMsgs);
	uint32_t last[4] = {};
	bool any[4] = {};
	unsigned worker = 0;
	std::vector<uint8_t> buf = std::vector<uint8_t>(8192);
};

void
pump(Peer *p)
{
	while (p->sent < kMsgs) {
		uint32_t len = msg_size(p->sent);
		for (uint32_t i = 0; i < len; i++)
			p->buf[i] = msg_byte(p->sent, i);
		dpsctp_sndinfo si = { (uint16_t)(p->sent % 4), p->sent, 0, DPSCTP_PR_NONE, 0, 0 };
		int r = dpsctp_send_bytes(p->a, &si, p->buf.data(), len);
		if (r == -EAGAIN || r == -ENOMEM)
			return;
		ASSERT_EQ(r, 0);
		p->sent++;
	}
}

std::vector<std::unique_ptr<Peer>> g_server_peers;
void on_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg);
void on_recv(dpsctp_assoc *a, const dpsctp_msg *m, void *arg);
void on_space(dpsctp_assoc *, uint32_t, void *arg);
const dpsctp_callbacks kCb = { on_recv, on_event, on_space };

void
on_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	Peer *p = static_cast<Peer *>(arg);
	if (ev->type == DPSCTP_EV_COMM_UP) {
		if (p == nullptr) { // accepted by the listener: a receiver of its own
			g_server_peers.push_back(std::make_unique<Peer>());
			p = g_server_peers.back().get();
			dpsctp_assoc_set_callbacks(a, &kCb, p);
		}
		p->a = a;
		p->up = true;
		p->worker = dpsctp_assoc_worker(a);
		pump(p);
	}
	if (p == nullptr)
		return;
	if (ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE)
		p->done = true;
	if (ev->type == DPSCTP_EV_COMM_LOST || ev->type == DPSCTP_EV_CANT_START)
		p->lost = true;
}

void
on_recv(dpsctp_assoc *, const dpsctp_msg *m, void *arg)
{
	Peer *p = static_cast<Peer *>(arg);
	std::vector<uint8_t> b(m->len);
	dpsctp_msg_copy(m, b.data(), b.size());
	uint32_t k = m->ppid;
	bool ok = k < kMsgs && b.size() == msg_size(k) && m->sid == k % 4 && !p->seen[k] &&
		  (!p->any[m->sid] || k > p->last[m->sid]); // ordered per stream
	for (uint32_t i = 0; ok && i < b.size(); i++)
		ok = b[i] == msg_byte(k, i);
	if (!ok) {
		p->bad++;
	} else {
		p->seen[k] = 1;
		p->last[m->sid] = k;
		p->any[m->sid] = true;
	}
	p->recv++;
}

void
on_space(dpsctp_assoc *, uint32_t, void *arg)
{
	pump(static_cast<Peer *>(arg));
}

uint64_t
counter(const dpsctp *d, unsigned w, const char *want)
{
	const char *name;
	for (unsigned i = 0;; i++) {
		uint64_t v = dpsctp_worker_counter(d, w, i, &name);
		if (name == nullptr)
			return UINT64_MAX;
		if (strcmp(name, want) == 0)
			return v;
	}
}

// pred holds for every peer on both sides, and the server has all of them.
template <typename Pred>
bool
all_peers(std::vector<std::unique_ptr<Peer>> &peers, Pred pred)
{
	for (auto &p : peers)
		if (!pred(*p))
			return false;
	for (auto &p : g_server_peers)
		if (!pred(*p))
			return false;
	return g_server_peers.size() == kAssocs;
}

// kAssocs associations from the client's workers in turn, kMsgs checked
// messages each way on each, every one of which must arrive on both sides.
void
exchange(dpsctp *c, dpsctp *s, const std::function<void()> &poll,
	 std::vector<std::unique_ptr<Peer>> &peers)
{
	sctp_addr dst = { 4, { 10, 0, 1, 2 } };
	for (unsigned i = 0; i < kAssocs; i++) {
		peers.push_back(std::make_unique<Peer>());
		int rc;
		ASSERT_NE(
			dpsctp_connect(c, i % 2, &dst, 1, kPort, 0, &kCb, peers.back().get(), &rc),
			nullptr)
			<< rc;
	}
	for (uint64_t i = 0;
	     i < 50000000 && !all_peers(peers, [](Peer &p) { return p.recv == kMsgs; }); i++) {
		poll();
		if ((i & 1023) == 0)
			for (auto &p : peers)
				if (p->up)
					pump(p.get());
	}
	ASSERT_EQ(g_server_peers.size(), kAssocs)
		<< "client:" << dp_test_counters(c) << " server:" << dp_test_counters(s);
	for (auto *v : { &peers, &g_server_peers })
		for (auto &p : *v) {
			EXPECT_FALSE(p->lost);
			EXPECT_EQ(p->sent, kMsgs);
			EXPECT_EQ(p->recv, kMsgs);
			EXPECT_EQ(p->bad, 0u);
		}
}

// Every association shut down, on both sides.
void
shut_down(const std::function<void()> &poll, std::vector<std::unique_ptr<Peer>> &peers)
{
	for (auto &p : peers)
		ASSERT_EQ(dpsctp_shutdown(p->a), 0);
	for (uint64_t i = 0; i < 10000000 && !all_peers(peers, [](Peer &p) { return p.done; }); i++)
		poll();
	EXPECT_TRUE(all_peers(peers, [](Peer &p) { return p.done; }));
}

TEST(DpMultiQueue, HandOffAcrossWorkers)
{
	RingLink link("mq", 2, { 0, 1 }, { 1, 0 });
	ASSERT_GE(link.a, 0) << rte_strerror(rte_errno);
	ASSERT_GE(link.b, 0) << rte_strerror(rte_errno);
	char err[256] = "";
	dpsctp_config cc = dp_test_config(link.name_a, "10.0.1.1/24", 2, 0);
	dpsctp_config sc = dp_test_config(link.name_b, "10.0.1.2/24", 2, kPort);
	dpsctp *c = dpsctp_create(&cc, err, sizeof(err));
	ASSERT_NE(c, nullptr) << err;
	dpsctp *s = dpsctp_create(&sc, err, sizeof(err));
	ASSERT_NE(s, nullptr) << err;
	ASSERT_EQ(dpsctp_workers(c), 2u);
	rte_mempool *cpool = dpsctp_pktmbuf_pool(c), *spool = dpsctp_pktmbuf_pool(s);
	unsigned cfree = rte_mempool_avail_count(cpool), sfree = rte_mempool_avail_count(spool);
	g_server_peers.clear();
	ASSERT_EQ(dpsctp_listen(s, kPort, &kCb, nullptr), 0);

	auto poll = [&] {
		for (unsigned w = 0; w < 2; w++) {
			dpsctp_poll(c, w);
			dpsctp_poll(s, w);
		}
	};
	std::vector<std::unique_ptr<Peer>> peers;
	exchange(c, s, poll, peers);
	if (HasFatalFailure())
		return;
	// Both client workers own associations, and the crossed return path made
	// each hand the other's packets over.
	EXPECT_EQ(peers[0]->worker, 0u);
	EXPECT_EQ(peers[1]->worker, 1u);
	EXPECT_GT(counter(c, 0, "rx_handoff_out"), 0u);
	EXPECT_GT(counter(c, 1, "rx_handoff_out"), 0u);
	EXPECT_GT(counter(c, 0, "rx_handoff_in"), 0u);
	EXPECT_GT(counter(c, 1, "rx_handoff_in"), 0u);
	EXPECT_EQ(counter(c, 0, "drop_tag_no_owner") + counter(c, 1, "drop_tag_no_owner"), 0u);
	printf("hand-off: worker 0 out %llu in %llu, worker 1 out %llu in %llu\n",
	       (unsigned long long)counter(c, 0, "rx_handoff_out"),
	       (unsigned long long)counter(c, 0, "rx_handoff_in"),
	       (unsigned long long)counter(c, 1, "rx_handoff_out"),
	       (unsigned long long)counter(c, 1, "rx_handoff_in"));

	shut_down(poll, peers);
	EXPECT_EQ(dpsctp_stop(c, 100), 0);
	EXPECT_EQ(dpsctp_stop(s, 100), 0);
	EXPECT_EQ(rte_mempool_avail_count(cpool), cfree);
	EXPECT_EQ(rte_mempool_avail_count(spool), sfree);
	dpsctp_destroy(c);
	dpsctp_destroy(s);
}

// --init-queue external with two workers a side. The server's port has a
// third rx queue for handshakes; the test moves the client's frames as a NIC
// with the rte_flow rule would: tag 0 (INITs) to that queue, every other
// frame to the queue of the same number it was sent on. Server worker 0
// reads the queue for handshakes and answers every INIT, yet the
// associations are spread over both server workers (the INIT ACK's tag
// names the next worker in turn, and the COOKIE ECHO goes where its tag
// says), and every message arrives.
TEST(DpMultiQueue, InitsFromTheQueueForHandshakesSpreadAssociationsOverWorkers)
{
	std::vector<rte_ring *> rings;
	auto ring = [&](const char *n) {
		rings.push_back(
			rte_ring_create((std::string("iqmq") + n).c_str(), 4096, SOCKET_ID_ANY, 0));
		return rings.back();
	};
	rte_ring *c_tx[2] = { ring("ct0"), ring("ct1") }, *c_rx[2] = { ring("cr0"), ring("cr1") };
	rte_ring *s_rx[3] = { ring("sr0"), ring("sr1"), ring("sr2") };
	rte_ring *s_tx[3] = { c_rx[0], c_rx[1], ring("st2") }; // queue 2 sends nothing
	for (rte_ring *r : rings)
		ASSERT_NE(r, nullptr) << rte_strerror(rte_errno);
	int cid = rte_eth_from_rings("iqmqc", c_rx, 2, c_tx, 2, SOCKET_ID_ANY);
	int sid = rte_eth_from_rings("iqmqs", s_rx, 3, s_tx, 3, SOCKET_ID_ANY);
	ASSERT_GE(cid, 0) << rte_strerror(rte_errno);
	ASSERT_GE(sid, 0) << rte_strerror(rte_errno);
	char cname[RTE_ETH_NAME_MAX_LEN], sname[RTE_ETH_NAME_MAX_LEN], err[256] = "";
	ASSERT_EQ(rte_eth_dev_get_name_by_port((uint16_t)cid, cname), 0);
	ASSERT_EQ(rte_eth_dev_get_name_by_port((uint16_t)sid, sname), 0);
	dpsctp_config cc = dp_test_config(cname, "10.0.1.1/24", 2, 0);
	dpsctp_config sc = dp_test_config(sname, "10.0.1.2/24", 2, kPort);
	ASSERT_EQ(dpsctp_config_set(&sc, "init-queue", "external", err, sizeof(err)), 0) << err;
	dpsctp *c = dpsctp_create(&cc, err, sizeof(err));
	ASSERT_NE(c, nullptr) << err;
	dpsctp *s = dpsctp_create(&sc, err, sizeof(err));
	ASSERT_NE(s, nullptr) << err;
	rte_mempool *cpool = dpsctp_pktmbuf_pool(c), *spool = dpsctp_pktmbuf_pool(s);
	unsigned cfree = rte_mempool_avail_count(cpool), sfree = rte_mempool_avail_count(spool);
	g_server_peers.clear();
	ASSERT_EQ(dpsctp_listen(s, kPort, &kCb, nullptr), 0);

	uint64_t steered = 0;
	auto nic = [&] {
		void *burst[64];
		for (unsigned q = 0; q < 2; q++) {
			unsigned n = rte_ring_dequeue_burst(c_tx[q], burst, 64, nullptr);
			for (unsigned i = 0; i < n; i++) {
				rte_mbuf *m = (rte_mbuf *)burst[i];
				const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
				// Ethernet, IPv4 without options, SCTP: the tag at 14 + 20 + 4.
				bool init = m->data_len >= 42 && f[12] == 0x08 && f[13] == 0x00 &&
					    f[14] == 0x45 && f[23] == 132 &&
					    (f[38] | f[39] | f[40] | f[41]) == 0;
				steered += init;
				if (rte_ring_enqueue(s_rx[init ? 2 : q], m) != 0)
					rte_pktmbuf_free(m);
			}
		}
	};
	auto poll = [&] {
		for (unsigned w = 0; w < 2; w++) {
			dpsctp_poll(c, w);
			nic();
			dpsctp_poll(s, w);
		}
	};
	std::vector<std::unique_ptr<Peer>> peers;
	exchange(c, s, poll, peers);
	if (HasFatalFailure())
		return;
	unsigned on[2] = { 0, 0 };
	for (auto &p : g_server_peers)
		on[p->worker % 2]++;
	printf("INITs steered %llu, read from the queue for handshakes by worker 0: %llu, by "
	       "worker 1: %llu; server associations on worker 0: %u, worker 1: %u\n",
	       (unsigned long long)steered, (unsigned long long)counter(s, 0, "rx_init_queue"),
	       (unsigned long long)counter(s, 1, "rx_init_queue"), on[0], on[1]);
	EXPECT_GE(steered, (uint64_t)kAssocs);
	EXPECT_EQ(counter(s, 0, "rx_init_queue"), steered);
	EXPECT_EQ(counter(s, 1, "rx_init_queue"), 0u);
	EXPECT_GE(on[0], 2u);
	EXPECT_GE(on[1], 2u);
	EXPECT_EQ(counter(s, 0, "drop_tag_no_owner") + counter(s, 1, "drop_tag_no_owner"), 0u);

	shut_down(poll, peers);
	EXPECT_EQ(dpsctp_stop(c, 100), 0);
	EXPECT_EQ(dpsctp_stop(s, 100), 0);
	for (rte_ring *r : rings) {
		void *m;
		while (rte_ring_dequeue(r, &m) == 0)
			rte_pktmbuf_free((rte_mbuf *)m);
	}
	EXPECT_EQ(rte_mempool_avail_count(cpool), cfree);
	EXPECT_EQ(rte_mempool_avail_count(spool), sfree);
	dpsctp_destroy(c);
	dpsctp_destroy(s);
	rte_eth_dev_close((uint16_t)cid);
	rte_eth_dev_close((uint16_t)sid);
	for (rte_ring *r : rings)
		rte_ring_free(r);
}

} // namespace
