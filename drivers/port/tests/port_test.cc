// SPDX-License-Identifier: BSD-3-Clause
// Port bring-up (drivers/port) on the PMDs a machine without a NIC has:
// a net_ring pair (one and two queues), net_af_packet on a veth whose peer
// sits in a network namespace this test creates, and net_tap. Frames carry
// a marker, a sequence number and a pattern derived from both, so every
// byte received is checked against a model of what was sent; every test
// ends with the pool's in-use count back at its start value and checks
// that the recorded offloads are a subset of what the port reports.
//
// The EAL runs with --no-huge --no-pci --no-shconf. If it cannot start the tests FAIL with the
// reason (a sandbox that forbids it must be visible). The veth and tap cases need root and skip
// without it; everything they create has the pid in its name and is
// removed by a guard, also when an assertion fails.
#include <gtest/gtest.h>

#include "tests/prereq.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "drivers/crc32c/crc32c_offload.h"
#include "drivers/port/port.h"

namespace {

constexpr uint16_t kEtherType = 0x88b5; // IEEE 802 local experimental
constexpr uint16_t kMinFrame = 60;
constexpr uint16_t kMaxFrame = 1514;
constexpr unsigned kBurst = 32;

struct Eal {
	bool ok = false;
	std::string error;
};

Eal
eal_start()
{
	Eal e;
	// Not --in-memory: --no-huge implies --legacy-mem, which DPDK 22.11
	// refuses with it ("Option --legacy-mem is not compatible with
	// --in-memory"). --no-shconf keeps the config out of shared files as
	// well, so parallel runs do not collide.
	std::string prefix = "port_test_" + std::to_string(getpid());
	std::vector<std::string> args = {
		"port_test",
		"--no-huge",
		"--no-pci",
		"--no-shconf",
		"-m",
		"256",
		"--log-level=error",
		"-l",
		"0-1",
		"--file-prefix=" + prefix,
	};
	std::string joined;
	std::vector<char *> argv;
	for (auto &a : args) {
		argv.push_back(a.data());
		joined += " " + a;
	}
	argv.push_back(nullptr);
	if (rte_eal_init(static_cast<int>(args.size()), argv.data()) < 0) {
		e.error = std::string("rte_eal_init failed (") + rte_strerror(rte_errno) +
			  ") with args:" + joined;
		return e;
	}
	e.ok = true;
	return e;
}

Eal &
eal()
{
	static Eal e = eal_start();
	return e;
}

#define REQUIRE_EAL() ASSERT_TRUE(eal().ok) << eal().error

/* The EAL, root and /dev/net/tun: what a net_tap port needs (else skipped). */
#define REQUIRE_TAP()                                                                              \
	do {                                                                                       \
		REQUIRE_EAL();                                                                     \
		DPSCTP_PREREQ(geteuid() == 0, "needs root to create a tap interface");             \
		int tun_fd_ = open("/dev/net/tun", O_RDWR);                                        \
		DPSCTP_PREREQ(tun_fd_ >= 0,                                                        \
			      "/dev/net/tun cannot be opened: " << std::strerror(errno));          \
		close(tun_fd_);                                                                    \
	} while (0)

uint32_t
seed_from_env()
{
	const char *s = std::getenv("PORT_TEST_SEED");
	return s != nullptr ? static_cast<uint32_t>(std::strtoul(s, nullptr, 0)) : 20261122u;
}

// The model of a frame: everything after the source MAC is a function of
// (marker, seq, size). The Python peer computes the same.
uint8_t
pattern(uint32_t seq, size_t i)
{
	return static_cast<uint8_t>(seq * 31u + i * 7u);
}

uint16_t
peer_size(uint32_t seq)
{
	return static_cast<uint16_t>(kMinFrame + (seq * 97u) % (kMaxFrame - kMinFrame + 1));
}

rte_mbuf *
make_frame(rte_mempool *pool, const char marker[4], uint32_t seq, uint16_t size)
{
	rte_mbuf *m = rte_pktmbuf_alloc(pool);
	if (m == nullptr)
		return nullptr;
	auto *p = reinterpret_cast<uint8_t *>(rte_pktmbuf_append(m, size));
	if (p == nullptr) {
		rte_pktmbuf_free(m);
		return nullptr;
	}
	std::memset(p, 0xff, 6);
	const uint8_t src[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	std::memcpy(p + 6, src, 6);
	p[12] = kEtherType >> 8;
	p[13] = kEtherType & 0xff;
	std::memcpy(p + 14, marker, 4);
	p[18] = static_cast<uint8_t>(seq >> 24);
	p[19] = static_cast<uint8_t>(seq >> 16);
	p[20] = static_cast<uint8_t>(seq >> 8);
	p[21] = static_cast<uint8_t>(seq);
	for (size_t i = 22; i < size; i++)
		p[i] = pattern(seq, i - 14);
	return m;
}

// The sequence number of a frame carrying marker whose every byte after the
// source MAC matches the model, or -1.
int64_t
check_frame(const rte_mbuf *m, const char marker[4])
{
	uint8_t buf[kMaxFrame];
	uint32_t len = rte_pktmbuf_pkt_len(m);
	if (len < 22 || len > kMaxFrame)
		return -1;
	auto *p = static_cast<const uint8_t *>(rte_pktmbuf_read(m, 0, len, buf));
	if (p == nullptr || p[12] != (kEtherType >> 8) || p[13] != (kEtherType & 0xff) ||
	    std::memcmp(p + 14, marker, 4) != 0)
		return -1;
	uint32_t seq = (uint32_t)p[18] << 24 | (uint32_t)p[19] << 16 | (uint32_t)p[20] << 8 | p[21];
	for (size_t i = 22; i < len; i++)
		if (p[i] != pattern(seq, i - 14))
			return -1;
	return seq;
}

// (5): what the port recorded is what it has and what is configured.
void
expect_offloads_consistent(const dpsctp_port &p)
{
	rte_eth_dev_info info;
	ASSERT_EQ(rte_eth_dev_info_get(p.port_id, &info), 0);
	const dpsctp_port_offloads &o = p.offloads;
	EXPECT_EQ(o.rx_capa, info.rx_offload_capa) << p.driver;
	EXPECT_EQ(o.tx_capa, info.tx_offload_capa) << p.driver;
	EXPECT_EQ(o.rx & ~info.rx_offload_capa, 0u) << p.driver;
	EXPECT_EQ(o.tx & ~info.tx_offload_capa, 0u) << p.driver;
	EXPECT_EQ(o.rss_hf & ~info.flow_type_rss_offloads, 0u) << p.driver;
	struct crc32c_offload d = crc32c_offload_decide(&info);
	EXPECT_EQ(o.crc.rx, d.rx) << p.driver;
	EXPECT_EQ(o.crc.tx, d.tx) << p.driver;
	EXPECT_EQ((o.rx & RTE_ETH_RX_OFFLOAD_SCTP_CKSUM) != 0, d.rx == CRC32C_WHERE_NIC);
	EXPECT_EQ((o.tx & RTE_ETH_TX_OFFLOAD_SCTP_CKSUM) != 0, d.tx == CRC32C_WHERE_NIC);
	// Fast free only on request (it breaks refcounted retransmission).
	EXPECT_EQ(o.tx & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE, 0u) << p.driver;
	std::printf("%s: rx offloads 0x%llx of 0x%llx, tx 0x%llx of 0x%llx, rss 0x%llx, "
		    "crc rx %s tx %s\n",
		    p.driver, (unsigned long long)o.rx, (unsigned long long)o.rx_capa,
		    (unsigned long long)o.tx, (unsigned long long)o.tx_capa,
		    (unsigned long long)o.rss_hf, crc32c_where_name(o.crc.rx),
		    crc32c_where_name(o.crc.tx));
	rte_eth_conf c;
	ASSERT_EQ(rte_eth_dev_conf_get(p.port_id, &c), 0);
	EXPECT_EQ(c.rxmode.offloads, o.rx) << p.driver;
	EXPECT_EQ(c.txmode.offloads, o.tx) << p.driver;
	if (o.rss_hf != 0) {
		EXPECT_EQ(c.rxmode.mq_mode, RTE_ETH_MQ_RX_RSS);
		EXPECT_EQ(c.rx_adv_conf.rss_conf.rss_hf, o.rss_hf);
	}
}

unsigned
count_mempools()
{
	unsigned n = 0;
	rte_mempool_walk([](rte_mempool *, void *arg) { ++*static_cast<unsigned *>(arg); }, &n);
	return n;
}

// Two ethdev ports wired back to back through rte_rings: what A sends on
// queue q, B receives on queue q, and the other way round.
struct RingPair {
	std::vector<rte_ring *> rings;
	int a = -1;
	int b = -1;
	std::string error;

	explicit RingPair(unsigned nq)
	{
		static unsigned serial;
		std::string tag = std::to_string(getpid()) + "_" + std::to_string(serial++);
		std::vector<rte_ring *> ab, ba;
		for (unsigned q = 0; q < nq; q++) {
			for (auto *dir : { &ab, &ba }) {
				std::string name = "pt" + std::to_string(rings.size()) + "_" + tag;
				rte_ring *r = rte_ring_create(name.c_str(), 1024, SOCKET_ID_ANY,
							      RING_F_SP_ENQ | RING_F_SC_DEQ);
				if (r == nullptr) {
					error = "rte_ring_create: " +
						std::string(rte_strerror(rte_errno));
					return;
				}
				rings.push_back(r);
				dir->push_back(r);
			}
		}
		a = rte_eth_from_rings(("net_ring_a" + tag).c_str(), ba.data(), nq, ab.data(), nq,
				       SOCKET_ID_ANY);
		b = rte_eth_from_rings(("net_ring_b" + tag).c_str(), ab.data(), nq, ba.data(), nq,
				       SOCKET_ID_ANY);
		if (a < 0 || b < 0)
			error = "rte_eth_from_rings: " + std::string(rte_strerror(rte_errno));
	}
	~RingPair()
	{
		// The ports are closed by dpsctp_port_close; release any that a
		// failed test left, then the rings (draining what they hold).
		for (int id : { a, b })
			if (id >= 0 && rte_eth_dev_is_valid_port(id))
				rte_eth_dev_close(id);
		for (rte_ring *r : rings) {
			void *m;
			while (rte_ring_dequeue(r, &m) == 0)
				rte_pktmbuf_free(static_cast<rte_mbuf *>(m));
			rte_ring_free(r);
		}
	}
};

dpsctp_port_conf
conf_for_port(uint16_t id, uint16_t nq)
{
	dpsctp_port_conf c{};
	c.port_id = id;
	c.nb_queues = nq;
	c.rx_ring_size = 512;
	c.tx_ring_size = 512;
	c.promiscuous = true;
	c.link_timeout_ms = 2000;
	return c;
}

// Closes the port when the test leaves early.
struct PortGuard {
	dpsctp_port port{};
	bool open = false;
	~PortGuard()
	{
		if (open)
			dpsctp_port_close(&port);
	}
	int close()
	{
		open = false;
		return dpsctp_port_close(&port);
	}
};

// Send burst to (port, q), retrying what the PMD did not take until the
// deadline; what it never takes is freed. Returns how many were sent.
unsigned
send_all(uint16_t port, uint16_t q, rte_mbuf **pkts, unsigned n)
{
	auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
	unsigned sent = 0;
	while (sent < n && std::chrono::steady_clock::now() < deadline) {
		sent += rte_eth_tx_burst(port, q, pkts + sent, static_cast<uint16_t>(n - sent));
		if (sent < n)
			std::this_thread::sleep_for(std::chrono::microseconds(100));
	}
	for (unsigned i = sent; i < n; i++)
		rte_pktmbuf_free(pkts[i]);
	return sent;
}

// total frames of random sizes in random bursts A -> B, each echoed back
// B -> A as it arrives; a model queue per direction says what must arrive
// next. Counters are reset first and must agree at the end.
void
round_trip(dpsctp_port &A, dpsctp_port &B, uint32_t seed, uint32_t total)
{
	SCOPED_TRACE("seed " + std::to_string(seed) + " (PORT_TEST_SEED to replay)");
	ASSERT_EQ(dpsctp_port_stats_reset(&A), 0);
	ASSERT_EQ(dpsctp_port_stats_reset(&B), 0);

	unsigned in_use_a = rte_mempool_in_use_count(A.pool);
	unsigned in_use_b = rte_mempool_in_use_count(B.pool);
	std::mt19937 rng(seed);
	std::uniform_int_distribution<unsigned> size_dist(kMinFrame, kMaxFrame);
	std::deque<std::pair<uint32_t, uint16_t>> to_b, to_a; // the model: in flight, in order
	uint64_t bytes = 0;
	uint32_t next = 0, back = 0, bad = 0;
	rte_mbuf *pkts[kBurst];
	auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);

	while (back < total) {
		unsigned n = 0;
		unsigned burst = 1 + rng() % kBurst;
		while (n < burst && next < total) {
			uint16_t size = static_cast<uint16_t>(size_dist(rng));
			pkts[n] = make_frame(A.pool, "A2B_", next, size);
			ASSERT_NE(pkts[n], nullptr) << "pool ran dry at frame " << next;
			to_b.emplace_back(next, size);
			bytes += size;
			next++;
			n++;
		}
		ASSERT_EQ(send_all(A.port_id, 0, pkts, n), n)
			<< "at frame " << next << ", " << back << " back";
		uint16_t got = rte_eth_rx_burst(B.port_id, 0, pkts, kBurst);
		for (uint16_t i = 0; i < got; i++) {
			ASSERT_FALSE(to_b.empty()) << "B received a frame nobody sent";
			int64_t seq = check_frame(pkts[i], "A2B_");
			if (seq != to_b.front().first ||
			    rte_pktmbuf_pkt_len(pkts[i]) != to_b.front().second)
				bad++;
			to_a.push_back(to_b.front());
			to_b.pop_front();
		}
		ASSERT_EQ(send_all(B.port_id, 0, pkts, got), got);
		got = rte_eth_rx_burst(A.port_id, 0, pkts, kBurst);
		for (uint16_t i = 0; i < got; i++) {
			ASSERT_FALSE(to_a.empty()) << "A received a frame nobody sent";
			int64_t seq = check_frame(pkts[i], "A2B_");
			if (seq != to_a.front().first ||
			    rte_pktmbuf_pkt_len(pkts[i]) != to_a.front().second)
				bad++;
			to_a.pop_front();
			rte_pktmbuf_free(pkts[i]);
			back++;
		}
		// A bound on waiting, not a timing assertion: lost frames never come.
		ASSERT_LT(std::chrono::steady_clock::now(), deadline)
			<< "frames lost: " << back << " of " << total << " came back";
	}
	EXPECT_EQ(bad, 0u) << "frames out of order or altered";
	EXPECT_EQ(rte_mempool_in_use_count(A.pool), in_use_a);
	EXPECT_EQ(rte_mempool_in_use_count(B.pool), in_use_b);

	dpsctp_port_stats sa, sb;
	ASSERT_EQ(dpsctp_port_stats_get(&A, &sa), 0) << A.error;
	ASSERT_EQ(dpsctp_port_stats_get(&B, &sb), 0) << B.error;
	EXPECT_EQ(sa.tx_packets, total);
	EXPECT_EQ(sb.rx_packets, total);
	EXPECT_EQ(sb.tx_packets, total);
	EXPECT_EQ(sa.rx_packets, total);
	EXPECT_EQ(sa.queue[0].tx_packets, total);
	EXPECT_EQ(sb.queue[0].rx_packets, total);
	EXPECT_EQ(sa.tx_errors + sb.tx_errors + sa.rx_errors + sb.rx_errors, 0u);
	EXPECT_EQ(sa.rx_missed + sb.rx_missed, 0u);
	// net_ring counts no bytes in DPDK 22.11; where a PMD does, they agree.
	if (sa.tx_bytes != 0) {
		EXPECT_EQ(sa.tx_bytes, bytes);
	}
	if (sb.rx_bytes != 0) {
		EXPECT_EQ(sb.rx_bytes, bytes);
	}
}

// (1) 10,000 frames of assorted sizes A -> B and back, in order, intact.
TEST(PortRing, TenThousandFramesThereAndBack)
{
	REQUIRE_EAL();
	RingPair pair(1);
	ASSERT_TRUE(pair.error.empty()) << pair.error;
	PortGuard A, B;
	dpsctp_port_conf ca = conf_for_port(pair.a, 1), cb = conf_for_port(pair.b, 1);
	ASSERT_EQ(dpsctp_port_open(&ca, &A.port), 0) << A.port.error;
	A.open = true;
	ASSERT_EQ(dpsctp_port_open(&cb, &B.port), 0) << B.port.error;
	B.open = true;
	EXPECT_STREQ(A.port.driver, "net_ring");
	EXPECT_TRUE(A.port.link_up);
	EXPECT_EQ(A.port.nb_queues, 1);
	EXPECT_EQ(A.port.offloads.rss_hf, 0u); // one queue: no RSS
	expect_offloads_consistent(A.port);
	expect_offloads_consistent(B.port);
	uint32_t seed = seed_from_env();
	round_trip(A.port, B.port, seed, 10000);
	// More seeds, shorter runs: other sizes and burst patterns.
	for (uint32_t k = 1; k <= 8 && !HasFailure(); k++)
		round_trip(A.port, B.port, seed + k * 7919, 1000);
	EXPECT_EQ(B.close(), 0) << B.port.error;
	EXPECT_EQ(A.close(), 0) << A.port.error;
}

// (2) two queue pairs: queue q of A talks to queue q of B; counted per queue.
TEST(PortRing, TwoQueues)
{
	REQUIRE_EAL();
	uint32_t seed = seed_from_env() + 1;
	SCOPED_TRACE("seed " + std::to_string(seed) + " (PORT_TEST_SEED to replay)");
	RingPair pair(2);
	ASSERT_TRUE(pair.error.empty()) << pair.error;
	rte_eth_dev_info info;
	ASSERT_EQ(rte_eth_dev_info_get(pair.a, &info), 0);
	DPSCTP_PREREQ(info.max_rx_queues >= 2 && info.max_tx_queues >= 2,
		      "net_ring offers " << info.max_rx_queues << " rx queues here");
	PortGuard A, B;
	dpsctp_port_conf ca = conf_for_port(pair.a, 2), cb = conf_for_port(pair.b, 2);
	ASSERT_EQ(dpsctp_port_open(&ca, &A.port), 0) << A.port.error;
	A.open = true;
	ASSERT_EQ(dpsctp_port_open(&cb, &B.port), 0) << B.port.error;
	B.open = true;
	EXPECT_EQ(A.port.nb_queues, 2);
	// net_ring has no hash: several queues, RSS off, and no failure for it.
	EXPECT_EQ(A.port.offloads.rss_hf & ~A.port.offloads.rss_capa, 0u);
	if (A.port.offloads.rss_capa == 0) {
		EXPECT_EQ(A.port.offloads.rss_hf, 0u);
	}
	expect_offloads_consistent(A.port);
	expect_offloads_consistent(B.port);
	ASSERT_EQ(dpsctp_port_stats_reset(&A.port), 0);
	ASSERT_EQ(dpsctp_port_stats_reset(&B.port), 0);
	unsigned in_use = rte_mempool_in_use_count(A.port.pool);

	std::mt19937 rng(seed);
	const uint32_t total = 2000;
	std::deque<uint32_t> expect[2];
	uint64_t sent_q[2] = { 0, 0 };
	uint32_t received = 0, bad = 0;
	for (uint32_t seq = 0; seq < total;) {
		uint16_t q = rng() & 1;
		unsigned n = 1 + rng() % kBurst;
		rte_mbuf *pkts[kBurst];
		unsigned k = 0;
		for (; k < n && seq < total; k++, seq++) {
			pkts[k] = make_frame(A.port.pool, "Q2Q_", seq, peer_size(seq));
			ASSERT_NE(pkts[k], nullptr);
			expect[q].push_back(seq);
		}
		ASSERT_EQ(send_all(A.port.port_id, q, pkts, k), k);
		sent_q[q] += k;
		for (uint16_t rq = 0; rq < 2; rq++) {
			uint16_t got;
			while ((got = rte_eth_rx_burst(B.port.port_id, rq, pkts, kBurst)) > 0) {
				for (uint16_t i = 0; i < got; i++) {
					if (expect[rq].empty() ||
					    check_frame(pkts[i], "Q2Q_") != expect[rq].front())
						bad++;
					if (!expect[rq].empty())
						expect[rq].pop_front();
					rte_pktmbuf_free(pkts[i]);
					received++;
				}
			}
		}
	}
	EXPECT_EQ(received, total);
	EXPECT_EQ(bad, 0u);
	EXPECT_TRUE(expect[0].empty() && expect[1].empty());
	EXPECT_EQ(rte_mempool_in_use_count(A.port.pool), in_use);
	dpsctp_port_stats sa, sb;
	ASSERT_EQ(dpsctp_port_stats_get(&A.port, &sa), 0);
	ASSERT_EQ(dpsctp_port_stats_get(&B.port, &sb), 0);
	ASSERT_EQ(sa.nb_queues, 2);
	for (int q = 0; q < 2; q++) {
		EXPECT_EQ(sa.queue[q].tx_packets, sent_q[q]) << "queue " << q;
		EXPECT_EQ(sb.queue[q].rx_packets, sent_q[q]) << "queue " << q;
	}
	EXPECT_EQ(sa.tx_packets, total);
	EXPECT_EQ(sb.rx_packets, total);
	EXPECT_EQ(B.close(), 0) << B.port.error;
	EXPECT_EQ(A.close(), 0) << A.port.error;
}

// The peer side of the veth and tap tests: a raw AF_PACKET socket in
// Python, run in the namespace (or on the host for tap). "send IF N" sends
// frames 0..N-1 marked NS2P; "recv IF N SECONDS" prints "ready", then the
// number of distinct P2NS frames that matched the model.
const char *kPeerPy = R"PY(
import socket, struct, sys, time
ETH_P = 0x88B5
def frame(marker, seq):
    size = 60 + (seq * 97) % 1455
    body = bytearray(size)
    body[0:6] = b'\xff' * 6
    body[6:12] = b'\x02\x00\x00\x00\x00\x02'
    body[12:14] = struct.pack('>H', ETH_P)
    body[14:18] = marker
    body[18:22] = struct.pack('>I', seq)
    for i in range(22, size):
        body[i] = (seq * 31 + (i - 14) * 7) & 0xff
    return bytes(body)
mode, ifname, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P))
s.bind((ifname, ETH_P))
if mode == 'send':
    for seq in range(n):
        s.send(frame(b'NS2P', seq))
    print('sent', n, flush=True)
    sys.exit(0)
# Room for every frame even if this loop is slow (root may force it).
s.setsockopt(socket.SOL_SOCKET, 33, 16 << 20)  # SO_RCVBUFFORCE
want = {seq: frame(b'P2NS', seq)[12:] for seq in range(n)}
print('ready', flush=True)
deadline = time.monotonic() + float(sys.argv[4])
seen = set()
while len(seen) < n:
    left = deadline - time.monotonic()
    if left <= 0:
        break
    s.settimeout(left)
    try:
        data, addr = s.recvfrom(65535)
    except socket.timeout:
        break
    if addr[2] == socket.PACKET_OUTGOING or len(data) < 22 or data[14:18] != b'P2NS':
        continue
    seq = struct.unpack('>I', data[18:22])[0]
    if seq < n and data[12:] == want[seq]:
        seen.add(seq)
print('got', len(seen), flush=True)
)PY";

int
run(const std::string &cmd)
{
	return std::system((cmd + " >/dev/null 2>&1").c_str());
}

// Writes the peer script; removes it and every named link or namespace at
// the end, whatever happened in between.
struct Scratch {
	std::string script;
	std::vector<std::string> links;
	std::vector<std::string> netns;
	Scratch()
	{
		script = "/tmp/dpsctp_port_peer_" + std::to_string(getpid()) + ".py";
		FILE *f = std::fopen(script.c_str(), "w");
		if (f != nullptr) {
			std::fputs(kPeerPy, f);
			std::fclose(f);
		}
	}
	~Scratch()
	{
		for (auto &n : netns)
			run("ip netns del " + n);
		for (auto &l : links)
			run("ip link del " + l);
		std::remove(script.c_str());
	}
};

// Frames from the kernel side arrive at the port; frames from the port
// arrive at the kernel side. prefix runs a command on the kernel side.
void
exchange_with_kernel(dpsctp_port &p, const Scratch &s, const std::string &prefix,
		     const std::string &peer_if)
{
	const uint32_t n = 200; // under the 512 frames af_packet and tap buffer
	unsigned in_use = rte_mempool_in_use_count(p.pool);

	// Kernel side -> port.
	ASSERT_EQ(
		run(prefix + "python3 " + s.script + " send " + peer_if + " " + std::to_string(n)),
		0)
		<< "the peer could not send on " << peer_if;
	std::set<int64_t> seen;
	uint32_t bad = 0;
	auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
	while (seen.size() < n && std::chrono::steady_clock::now() < deadline) {
		rte_mbuf *pkts[kBurst];
		uint16_t got = rte_eth_rx_burst(p.port_id, 0, pkts, kBurst);
		for (uint16_t i = 0; i < got; i++) {
			int64_t seq = check_frame(pkts[i], "NS2P");
			if (seq >= 0 && rte_pktmbuf_pkt_len(pkts[i]) == peer_size(seq))
				seen.insert(seq);
			else if (seq >= 0)
				bad++;
			rte_pktmbuf_free(pkts[i]); // other traffic (IPv6 ND) too
		}
		if (got == 0)
			std::this_thread::sleep_for(std::chrono::milliseconds(1));
	}
	EXPECT_EQ(seen.size(), n) << "frames from " << peer_if << " that reached the port";
	EXPECT_EQ(bad, 0u);

	// Port -> kernel side.
	std::string cmd = prefix + "python3 " + s.script + " recv " + peer_if + " " +
			  std::to_string(n) + " 5";
	FILE *peer = popen(cmd.c_str(), "r");
	ASSERT_NE(peer, nullptr);
	char line[64] = "";
	bool ready = std::fgets(line, sizeof(line), peer) != nullptr &&
		     std::strncmp(line, "ready", 5) == 0;
	if (ready) {
		for (uint32_t seq = 0; seq < n; seq += kBurst) {
			rte_mbuf *pkts[kBurst];
			unsigned k = 0;
			for (; k < kBurst && seq + k < n; k++) {
				pkts[k] = make_frame(p.pool, "P2NS", seq + k, peer_size(seq + k));
				ASSERT_NE(pkts[k], nullptr);
			}
			EXPECT_EQ(send_all(p.port_id, 0, pkts, k), k);
		}
		line[0] = '\0';
		if (std::fgets(line, sizeof(line), peer) == nullptr)
			line[0] = '\0';
	}
	pclose(peer);
	ASSERT_TRUE(ready) << "peer did not start: " << cmd;
	EXPECT_EQ(std::string(line), "got " + std::to_string(n) + "\n")
		<< "frames from the port seen on " << peer_if;

	// Drain what else arrived so that the pool count can be compared.
	rte_mbuf *pkts[kBurst];
	uint16_t got;
	while ((got = rte_eth_rx_burst(p.port_id, 0, pkts, kBurst)) > 0)
		rte_pktmbuf_free_bulk(pkts, got);
	EXPECT_EQ(rte_mempool_in_use_count(p.pool), in_use);
	dpsctp_port_stats st;
	ASSERT_EQ(dpsctp_port_stats_get(&p, &st), 0) << p.error;
	EXPECT_GE(st.rx_packets, n);
	EXPECT_GE(st.tx_packets, n);
}

// (3) net_af_packet on a veth whose peer is in a fresh network namespace.
TEST(PortKernel, AfPacketVethIntoNamespace)
{
	REQUIRE_EAL();
	DPSCTP_PREREQ(geteuid() == 0, "needs root to create a network namespace and a veth");
	Scratch s;
	std::string pid = std::to_string(getpid());
	std::string ns = "dpsctp_pt" + pid, va = "dpva" + pid, vb = "dpvb" + pid;
	s.netns.push_back(ns);
	s.links.push_back(va);
	ASSERT_EQ(run("ip netns add " + ns), 0) << "ip netns add " << ns;
	ASSERT_EQ(run("ip link add " + va + " type veth peer name " + vb), 0);
	ASSERT_EQ(run("ip link set " + vb + " netns " + ns), 0);
	ASSERT_EQ(run("ip link set " + va + " up"), 0);
	ASSERT_EQ(run("ip -n " + ns + " link set " + vb + " up"), 0);

	PortGuard P;
	dpsctp_port_conf c = conf_for_port(0, 1);
	std::string devargs = "net_af_packet" + pid + ",iface=" + va;
	c.devargs = devargs.c_str();
	ASSERT_EQ(dpsctp_port_open(&c, &P.port), 0) << P.port.error;
	P.open = true;
	EXPECT_STREQ(P.port.driver, "net_af_packet");
	EXPECT_TRUE(P.port.link_up);
	expect_offloads_consistent(P.port);
	exchange_with_kernel(P.port, s, "ip netns exec " + ns + " ", vb);
	EXPECT_EQ(P.close(), 0) << P.port.error;
	uint16_t id;
	EXPECT_NE(rte_eth_dev_get_port_by_name(devargs.substr(0, devargs.find(',')).c_str(), &id),
		  0)
		<< "close left the probed device behind";
}

// (4) net_tap: the kernel side of the tap is the peer.
TEST(PortKernel, Tap)
{
	REQUIRE_TAP();
	Scratch s;
	std::string pid = std::to_string(getpid());
	std::string ifname = "dpt" + pid;
	s.links.push_back(ifname);
	PortGuard P;
	dpsctp_port_conf c = conf_for_port(0, 1);
	std::string devargs = "net_tap" + pid + ",iface=" + ifname;
	c.devargs = devargs.c_str();
	ASSERT_EQ(dpsctp_port_open(&c, &P.port), 0) << P.port.error;
	P.open = true;
	EXPECT_STREQ(P.port.driver, "net_tap");
	expect_offloads_consistent(P.port);
	// Keep the kernel's own traffic (IPv6 ND, MLD) off the interface.
	run("sysctl -w net.ipv6.conf." + ifname + ".disable_ipv6=1");
	exchange_with_kernel(P.port, s, "", ifname);
	EXPECT_EQ(P.close(), 0) << P.port.error;
	EXPECT_NE(run("ip link show " + ifname), 0) << "the tap interface outlived the port";
}

// RSS over fewer queues than the port has (rss_queues, the data plane's
// --init-queue): net_tap with three queues and RSS over two. Either the
// PMD takes the redirection table (open succeeds, RSS in force over two
// queues) or open fails naming the RETA step; never an RSS spreading
// frames into the reserved queue unasked. One queue of RSS is no RSS.
TEST(PortKernel, TapRssOverFewerQueues)
{
	REQUIRE_TAP();
	Scratch s;
	std::string pid = std::to_string(getpid());
	for (uint16_t rss : { 2, 1 }) {
		std::string ifname = "dpr" + std::to_string(rss) + pid;
		s.links.push_back(ifname);
		PortGuard P;
		dpsctp_port_conf c = conf_for_port(0, 3);
		c.rss_queues = rss;
		std::string devargs = "net_tap_r" + std::to_string(rss) + pid + ",iface=" + ifname;
		c.devargs = devargs.c_str();
		int rc = dpsctp_port_open(&c, &P.port);
		printf("net_tap, 3 queues, RSS over %u: %d %s (rss_hf 0x%llx)\n", rss, rc,
		       P.port.error, (unsigned long long)P.port.offloads.rss_hf);
		if (rc == 0) {
			P.open = true;
			EXPECT_EQ(P.port.nb_queues, 3u);
			EXPECT_EQ(P.port.rss_queues, rss);
			if (rss == 1) {
				EXPECT_EQ(P.port.offloads.rss_hf, 0u) << "RSS over one queue";
			}
			EXPECT_EQ(P.close(), 0) << P.port.error;
		} else {
			EXPECT_EQ(rss, 2) << "RSS off needs no RETA: " << P.port.error;
			EXPECT_NE(std::string(P.port.error).find("RSS over 2 of 3 queues"),
				  std::string::npos)
				<< P.port.error;
		}
		EXPECT_NE(run("ip link show " + ifname), 0)
			<< "the tap interface outlived the port";
	}
}

// (6) errors name their step, do not crash, and leave nothing behind.
TEST(PortErrors, BadPortAndDevargs)
{
	REQUIRE_EAL();
	unsigned pools = count_mempools();
	uint16_t ports = rte_eth_dev_count_avail();
	dpsctp_port p;

	dpsctp_port_conf c = conf_for_port(RTE_MAX_ETHPORTS - 1, 1);
	EXPECT_EQ(dpsctp_port_open(&c, &p), -ENODEV);
	EXPECT_NE(std::string(p.error).find("rte_eth_dev_is_valid_port: port"), std::string::npos)
		<< p.error;

	c.devargs = "net_no_such_pmd0";
	EXPECT_LT(dpsctp_port_open(&c, &p), 0);
	EXPECT_EQ(std::string(p.error).rfind("rte_dev", 0), 0u) << p.error;
	EXPECT_NE(std::string(p.error).find("net_no_such_pmd0"), std::string::npos) << p.error;

	// A missing interface is named as such, not "Operation not
	// permitted" (the PMD's bare -1 read as an errno); nothing is probed.
	std::string bad_if = "net_af_packet_e" + std::to_string(getpid()) + ",iface=nosuchif";
	c.devargs = bad_if.c_str();
	EXPECT_EQ(dpsctp_port_open(&c, &p), -ENODEV);
	EXPECT_EQ(std::string(p.error).rfind("no such interface nosuchif (devargs", 0), 0u)
		<< p.error;
	std::string bad_pcap =
		"net_pcap_e" + std::to_string(getpid()) + ",rx_iface=lo,tx_iface=eth9x";
	c.devargs = bad_pcap.c_str();
	EXPECT_EQ(dpsctp_port_open(&c, &p), -ENODEV);
	EXPECT_EQ(std::string(p.error).rfind("no such interface eth9x (devargs", 0), 0u) << p.error;
	// net_tap creates its iface=; the interface it mirrors (remote=) must exist.
	std::string bad_tap = "net_tap_e" + std::to_string(getpid()) + ",iface=dpt" +
			      std::to_string(getpid() % 10000) + ",remote=nosuchif";
	c.devargs = bad_tap.c_str();
	EXPECT_EQ(dpsctp_port_open(&c, &p), -ENODEV);
	EXPECT_EQ(std::string(p.error).rfind("no such interface nosuchif (devargs", 0), 0u)
		<< p.error;
	std::string long_if =
		"net_af_packet_e" + std::to_string(getpid()) + ",iface=an_interface_name_too_long";
	c.devargs = long_if.c_str();
	EXPECT_EQ(dpsctp_port_open(&c, &p), -EINVAL);
	EXPECT_NE(std::string(p.error).find("not an interface name"), std::string::npos) << p.error;

	c.devargs = nullptr;
	EXPECT_EQ(dpsctp_port_open(nullptr, &p), -EINVAL);
	EXPECT_EQ(dpsctp_port_open(&c, nullptr), -EINVAL);
	c.nb_queues = DPSCTP_PORT_MAX_QUEUES + 1;
	EXPECT_EQ(dpsctp_port_open(&c, &p), -EINVAL);
	EXPECT_EQ(std::string(p.error).rfind("nb_queues: ", 0), 0u) << p.error;

	EXPECT_EQ(count_mempools(), pools);
	EXPECT_EQ(rte_eth_dev_count_avail(), ports);
}

TEST(PortErrors, TooManyQueuesThenRecover)
{
	REQUIRE_EAL();
	RingPair pair(1);
	ASSERT_TRUE(pair.error.empty()) << pair.error;
	unsigned pools = count_mempools();
	dpsctp_port p;
	dpsctp_port_conf c = conf_for_port(pair.a, 4);
	EXPECT_EQ(dpsctp_port_open(&c, &p), -EINVAL);
	EXPECT_NE(std::string(p.error).find("at most 1 rx"), std::string::npos) << p.error;
	EXPECT_EQ(count_mempools(), pools) << "a failed open left its pool";

	// A pool larger than the EAL's 256 MB fails after configure; the pool
	// count is unchanged and the port opens afterwards.
	c.nb_queues = 1;
	c.pool_size = 4u << 20;
	EXPECT_EQ(dpsctp_port_open(&c, &p), -ENOMEM);
	EXPECT_EQ(std::string(p.error).rfind("rte_pktmbuf_pool_create: ", 0), 0u) << p.error;
	EXPECT_EQ(count_mempools(), pools);
	c.pool_size = 0;
	PortGuard P;
	ASSERT_EQ(dpsctp_port_open(&c, &P.port), 0) << P.port.error;
	P.open = true;
	EXPECT_EQ(count_mempools(), pools + 1);

	uint64_t v = 0;
	EXPECT_EQ(dpsctp_port_xstat(&P.port, "no_such_counter", &v), -ENOENT);
	EXPECT_NE(std::string(P.port.error).find("no_such_counter"), std::string::npos);
	EXPECT_EQ(dpsctp_port_xstat(&P.port, "rx_good_packets", &v), 0) << P.port.error;

	// Closing while an mbuf of the port's pool is held keeps the pool.
	rte_mbuf *held = rte_pktmbuf_alloc(P.port.pool);
	ASSERT_NE(held, nullptr);
	EXPECT_EQ(P.close(), -EBUSY);
	EXPECT_NE(std::string(P.port.error).find("still in use"), std::string::npos)
		<< P.port.error;
	EXPECT_EQ(count_mempools(), pools + 1);
	rte_pktmbuf_free(held);
	EXPECT_EQ(dpsctp_port_close(&P.port), 0) << P.port.error;
	EXPECT_EQ(count_mempools(), pools);
}

// A device open probed is removed again when a later step fails, and
// after close: the vdev name is free for the next open.
TEST(PortErrors, ProbedDeviceRemovedOnFailureAndClose)
{
	REQUIRE_EAL();
	unsigned pools = count_mempools();
	uint16_t ports = rte_eth_dev_count_avail();
	std::string devargs = "net_ring_u" + std::to_string(getpid());
	uint16_t id;
	dpsctp_port p;
	dpsctp_port_conf c = conf_for_port(0, 1);
	c.devargs = devargs.c_str();
	c.pool_size = 4u << 20;
	EXPECT_EQ(dpsctp_port_open(&c, &p), -ENOMEM);
	EXPECT_EQ(std::string(p.error).rfind("rte_pktmbuf_pool_create: ", 0), 0u) << p.error;
	EXPECT_NE(rte_eth_dev_get_port_by_name(devargs.c_str(), &id), 0)
		<< "a failed open left the device it probed";
	EXPECT_EQ(count_mempools(), pools);
	EXPECT_EQ(rte_eth_dev_count_avail(), ports);

	c.pool_size = 0;
	for (int round = 0; round < 2; round++) {
		PortGuard P;
		ASSERT_EQ(dpsctp_port_open(&c, &P.port), 0) << P.port.error;
		P.open = true;
		EXPECT_STREQ(P.port.name, devargs.c_str());
		expect_offloads_consistent(P.port);
		EXPECT_EQ(P.close(), 0) << P.port.error;
		EXPECT_NE(rte_eth_dev_get_port_by_name(devargs.c_str(), &id), 0);
	}
	EXPECT_EQ(count_mempools(), pools);
	EXPECT_EQ(rte_eth_dev_count_avail(), ports);
}

// A caller's pool is used, not freed; a computed pool fits the rings.
TEST(PortPool, CallerPoolAndComputedSize)
{
	REQUIRE_EAL();
	EXPECT_EQ(dpsctp_port_pool_size(1, 512, 512, 256),
		  512u + 512 + DPSCTP_PORT_BURST + 256 + 1024);
	EXPECT_EQ(dpsctp_port_pool_size(0, 512, 512, 0), dpsctp_port_pool_size(1, 512, 512, 0));
	EXPECT_EQ(dpsctp_port_pool_size(4, 1024, 1024, 256),
		  4u * (1024 + 1024 + DPSCTP_PORT_BURST + 256) + 1024);
	rte_mempool *mp =
		rte_pktmbuf_pool_create(("pt_caller" + std::to_string(getpid())).c_str(), 4096, 64,
					0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	ASSERT_NE(mp, nullptr) << rte_strerror(rte_errno);
	RingPair pair(1);
	ASSERT_TRUE(pair.error.empty()) << pair.error;
	PortGuard P;
	dpsctp_port_conf c = conf_for_port(pair.a, 1);
	c.pool = mp;
	ASSERT_EQ(dpsctp_port_open(&c, &P.port), 0) << P.port.error;
	P.open = true;
	EXPECT_EQ(P.port.pool, mp);
	EXPECT_FALSE(P.port.own_pool);
	EXPECT_EQ(P.close(), 0);
	EXPECT_EQ(rte_mempool_lookup(mp->name), mp) << "close freed the caller's pool";
	rte_mempool_free(mp);
}

} // namespace
