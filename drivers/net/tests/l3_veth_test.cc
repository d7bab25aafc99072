// SPDX-License-Identifier: BSD-3-Clause
// drivers/net/l3.c against the Linux stack, through a real port: a veth
// pair whose host end is opened as a DPDK port (net_af_packet) and whose
// other end sits in a fresh network namespace with 192.0.2.2/24 and
// 2001:db8::2/64. A poll thread plays the lcore: rx burst ->
// dpsctp_l3_input() -> transmit the reply (ARP reply, NA, echo reply) and
// the packets resolution released; dpsctp_l3_tick() for probes.
//
// What must hold:
//   - from the namespace, `ping` and `ping -6` to 192.0.2.1 and 2001:db8::1
//     succeed, 3 echoes each, and the namespace's neighbour table lists
//     our MAC for both (ARP and ND resolved by the kernel against us);
//   - the layer's counters agree: >= 6 echo replies, >= 1 ARP reply,
//     >= 1 NA;
//   - the other way: dpsctp_l3_output() to 192.0.2.2 and to 2001:db8::2
//     parks an SCTP packet and writes an ARP request / NS; once the kernel
//     answers, the packet is released, sent, and seen by a raw SCTP socket
//     in the namespace (the kernel's SCTP module is not needed);
//   - every mbuf is back in the pool at the end.
//
// Needs root (namespaces, veth) and ping (Debian: iputils-ping); skips
// with a message without them. The namespace and the veth carry the pid
// and are removed by a NetnsGuard also when an ASSERT fails or the test is
// interrupted. The EAL runs with --no-huge --no-pci --no-shconf -l 0 (see
// eal_start() for why not --in-memory). Waits are bounded (a lost answer fails, it never hangs);
// nothing is gated on how long anything took.
#include <gtest/gtest.h>

#include "tests/prereq.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "drivers/crc32c/crc32c_mbuf.h"
#include "drivers/net/l3.h"
#include "drivers/net/tests/netns_guard.h"
#include "drivers/port/port.h"

namespace {

using dpsctp_test::netns_run;
using dpsctp_test::NetnsGuard;

constexpr unsigned kBurst = 32;
// Verification tags of the two packets sent the other way, to find them.
constexpr uint32_t kTag4 = 0x5ca1ab14u;
constexpr uint32_t kTag6 = 0x5ca1ab16u;

struct Eal {
	bool ok = false;
	std::string error;
};

Eal
eal_start()
{
	Eal e;
	// --in-memory would do, but DPDK 22.11 refuses it with --no-huge
	// ("Option --legacy-mem is not compatible with --in-memory");
	// --no-shconf keeps the run out of shared files instead.
	std::vector<std::string> args = {
		"l3_veth_test",
		"--no-huge",
		"--no-pci",
		"--no-shconf",
		"-m",
		"256",
		"--log-level=error",
		"-l",
		"0",
		"--file-prefix=l3_veth_test_" + std::to_string(getpid()),
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

// rte_eal_cleanup() once every test is done, if the EAL was started.
class EalCleanup : public ::testing::Environment {
      public:
	void TearDown() override
	{
		if (eal().ok)
			rte_eal_cleanup();
	}
};

const ::testing::Environment *const eal_cleanup =
	::testing::AddGlobalTestEnvironment(new EalCleanup);

#define REQUIRE_EAL() ASSERT_TRUE(eal().ok) << eal().error

uint64_t
now_ns()
{
	return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
					     std::chrono::steady_clock::now().time_since_epoch())
					     .count());
}

sctp_addr
ip4(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	sctp_addr ip{};
	ip.family = 4;
	ip.bytes[0] = a;
	ip.bytes[1] = b;
	ip.bytes[2] = c;
	ip.bytes[3] = d;
	return ip;
}

// 2001:db8::last
sctp_addr
ip6_doc(uint8_t last)
{
	sctp_addr ip{};
	ip.family = 6;
	ip.bytes[0] = 0x20;
	ip.bytes[1] = 0x01;
	ip.bytes[2] = 0x0d;
	ip.bytes[3] = 0xb8;
	ip.bytes[15] = last;
	return ip;
}

std::string
mac_str(const uint8_t m[6])
{
	char s[18];
	std::snprintf(s, sizeof(s), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4],
		      m[5]);
	return s;
}

// The lcore of this test: owns the port's queue 0 and the l3 state. The
// main thread takes the same mutex to read counters or send on its own.
struct Poller {
	dpsctp_port *port;
	dpsctp_l3 l3{};
	std::mutex mu;
	std::atomic<bool> stop{ false };
	std::thread thread;
	// Counted under mu.
	uint64_t sent = 0;	  // frames the PMD took
	uint64_t tx_failed = 0;	  // frames it refused (freed)
	uint64_t sctp_in = 0;	  // SCTP verdicts (the kernel answering our packet)
	uint64_t icmp_err_in = 0; // ICMP error verdicts
	uint64_t released_tx = 0; // released packets sent
	uint64_t given_back = 0;  // parked packets given back by the layer
	uint64_t no_mbuf = 0;	  // allocation failures

	// The layer gives back a parked packet (timeout, flush): free it.
	static void give_back(void *ctx, uintptr_t handle)
	{
		static_cast<Poller *>(ctx)->given_back++;
		rte_pktmbuf_free(reinterpret_cast<rte_mbuf *>(handle));
	}

	explicit Poller(dpsctp_port *p) : port(p)
	{
	}
	~Poller()
	{
		halt();
	}

	int init(const dpsctp_l3_config &cfg)
	{
		return dpsctp_l3_init(&l3, &cfg, give_back, this);
	}

	void start()
	{
		thread = std::thread([this] { loop(); });
	}

	void halt()
	{
		stop = true;
		if (thread.joinable())
			thread.join();
	}

	// Send one mbuf on queue 0; freed if the PMD does not take it. Under mu.
	void send(rte_mbuf *m)
	{
		if (rte_eth_tx_burst(port->port_id, 0, &m, 1) == 1) {
			sent++;
		} else {
			tx_failed++;
			rte_pktmbuf_free(m);
		}
	}

	// Copy bytes into a fresh mbuf and send it. Under mu.
	void send_bytes(const uint8_t *b, uint32_t len)
	{
		rte_mbuf *m = rte_pktmbuf_alloc(port->pool);
		if (m == nullptr) {
			no_mbuf++;
			return;
		}
		char *p = rte_pktmbuf_append(m, static_cast<uint16_t>(len));
		if (p == nullptr) {
			rte_pktmbuf_free(m);
			no_mbuf++;
			return;
		}
		std::memcpy(p, b, len);
		send(m);
	}

	// dpsctp_l3_output() for an mbuf holding an SCTP packet (tx.handle):
	// READY prepends the headers and sends; PARKED leaves it with the
	// layer; DROP frees it. The probe, if any, is sent too. Under mu.
	dpsctp_l3_out output(const dpsctp_l3_tx &tx)
	{
		uint8_t hdr[DPSCTP_L3_HDR_MAX];
		uint8_t probe[DPSCTP_L3_PROBE_MAX];
		dpsctp_l3_out out{};
		auto *m = reinterpret_cast<rte_mbuf *>(tx.handle);
		dpsctp_l3_output(&l3, &tx, now_ns(), hdr, sizeof(hdr), probe, sizeof(probe), &out);
		if (out.probe_len > 0)
			send_bytes(probe, out.probe_len);
		if (out.verdict == DPSCTP_L3_TX_READY) {
			char *p = rte_pktmbuf_prepend(m, static_cast<uint16_t>(out.hdr_len));
			if (p == nullptr) {
				rte_pktmbuf_free(m);
				no_mbuf++;
			} else {
				std::memcpy(p, hdr, out.hdr_len);
				send(m);
			}
		} else if (out.verdict == DPSCTP_L3_TX_DROP) {
			rte_pktmbuf_free(m);
		}
		return out;
	}

	// One pass of the loop: rx burst, classify, answer, free; probes. Under mu.
	void poll_once()
	{
		rte_mbuf *pkts[kBurst];
		uint8_t copy[RTE_MBUF_DEFAULT_BUF_SIZE];
		uint8_t reply[RTE_MBUF_DEFAULT_BUF_SIZE + 64];
		uint16_t n = rte_eth_rx_burst(port->port_id, 0, pkts, kBurst);
		for (uint16_t i = 0; i < n; i++) {
			uint32_t len = rte_pktmbuf_pkt_len(pkts[i]);
			const uint8_t *f = nullptr;
			if (len <= sizeof(copy))
				f = static_cast<const uint8_t *>(
					rte_pktmbuf_read(pkts[i], 0, len, copy));
			if (f != nullptr) {
				dpsctp_l3_in in{};
				dpsctp_l3_verdict v = dpsctp_l3_input(&l3, f, len, now_ns(), reply,
								      sizeof(reply), &in);
				if (v == DPSCTP_L3_IN_REPLY)
					send_bytes(reply, in.reply_len);
				else if (v == DPSCTP_L3_IN_SCTP)
					sctp_in++;
				else if (v == DPSCTP_L3_IN_ICMP_ERROR)
					icmp_err_in++;
				for (unsigned k = 0; k < in.released_count; k++) {
					dpsctp_l3_out out = output(in.released[k]);
					released_tx += out.verdict == DPSCTP_L3_TX_READY;
				}
			}
			rte_pktmbuf_free(pkts[i]);
		}
		uint8_t probe[DPSCTP_L3_PROBE_MAX];
		uint32_t probe_len = 0;
		do {
			dpsctp_l3_tick(&l3, now_ns(), probe, sizeof(probe), &probe_len);
			if (probe_len > 0)
				send_bytes(probe, probe_len);
		} while (probe_len > 0);
	}

	void loop()
	{
		while (!stop) {
			{
				std::lock_guard<std::mutex> lock(mu);
				poll_once();
			}
			// Two vCPUs here: do not starve ping and the kernel.
			std::this_thread::sleep_for(std::chrono::microseconds(200));
		}
	}

	dpsctp_l3_counters counters()
	{
		std::lock_guard<std::mutex> lock(mu);
		return l3.ctr;
	}
};

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

// An mbuf holding an SCTP packet (common header + SHUTDOWN COMPLETE, a
// chunk an out-of-the-blue receiver discards silently: RFC 9260 §8.4
// item 6) with a valid CRC32c, headroom left for the headers.
rte_mbuf *
sctp_packet(rte_mempool *pool, uint32_t vtag)
{
	rte_mbuf *m = rte_pktmbuf_alloc(pool);
	if (m == nullptr)
		return nullptr;
	auto *p = reinterpret_cast<uint8_t *>(rte_pktmbuf_append(m, 16));
	if (p == nullptr) {
		rte_pktmbuf_free(m);
		return nullptr;
	}
	const uint8_t pkt[16] = {
		0x13,
		0x88,
		0x13,
		0x89, // ports 5000 -> 5001
		static_cast<uint8_t>(vtag >> 24),
		static_cast<uint8_t>(vtag >> 16),
		static_cast<uint8_t>(vtag >> 8),
		static_cast<uint8_t>(vtag),
		0,
		0,
		0,
		0, // checksum, filled below
		14,
		0,
		0,
		4, // SHUTDOWN COMPLETE, flags 0, length 4
	};
	std::memcpy(p, pkt, sizeof(pkt));
	if (crc32c_mbuf_sctp_fill(m, 0, 16) != 0) {
		rte_pktmbuf_free(m);
		return nullptr;
	}
	return m;
}

// Raw SCTP sockets in the namespace: prints "ready", then "got4 1" /
// "got6 1" as the packets with kTag4 / kTag6 arrive, "done" at the end.
// A raw socket sees a copy of every SCTP packet for the host, whether or
// not the kernel runs SCTP itself.
const char *kListenPy = R"PY(
import select, socket, struct, sys, time
tag4, tag6, secs = int(sys.argv[1], 0), int(sys.argv[2], 0), float(sys.argv[3])
s4 = socket.socket(socket.AF_INET, socket.SOCK_RAW, 132)
s6 = socket.socket(socket.AF_INET6, socket.SOCK_RAW, 132)
print('ready', flush=True)
seen = set()
deadline = time.monotonic() + secs
while len(seen) < 2:
    left = deadline - time.monotonic()
    if left <= 0:
        break
    r, _, _ = select.select([s4, s6], [], [], left)
    for s in r:
        data = s.recv(65535)
        if s is s4:
            data = data[(data[0] & 0xf) * 4:]  # IPv4 raw sockets include the IP header
        if len(data) >= 8:
            tag = struct.unpack('>I', data[4:8])[0]
            if s is s4 and tag == tag4 and 4 not in seen:
                seen.add(4)
                print('got4 1', flush=True)
            if s is s6 and tag == tag6 and 6 not in seen:
                seen.add(6)
                print('got6 1', flush=True)
print('done', flush=True)
)PY";

// Whether `ip neigh show` output lists addr with lladdr mac.
bool
neigh_has(const std::string &table, const std::string &addr, const std::string &mac)
{
	size_t pos = 0;
	while (pos < table.size()) {
		size_t end = table.find('\n', pos);
		if (end == std::string::npos)
			end = table.size();
		std::string line = table.substr(pos, end - pos);
		if (line.rfind(addr + " ", 0) == 0 &&
		    line.find("lladdr " + mac) != std::string::npos)
			return true;
		pos = end + 1;
	}
	return false;
}

// Wait (bounded) until pred() holds; pred runs without the poller's lock.
template <typename Pred>
bool
wait_for(Pred pred, std::chrono::milliseconds limit)
{
	auto deadline = std::chrono::steady_clock::now() + limit;
	while (!pred()) {
		if (std::chrono::steady_clock::now() >= deadline)
			return false;
		std::this_thread::sleep_for(std::chrono::milliseconds(5));
	}
	return true;
}

TEST(L3Veth, PingArpNdAndResolveBack)
{
	REQUIRE_EAL();
	DPSCTP_PREREQ(NetnsGuard::is_root(),
		      "needs root to create a network namespace and a veth pair");
	DPSCTP_PREREQ(NetnsGuard::have("ip"), "no `ip` command: install iproute2");
	DPSCTP_PREREQ(NetnsGuard::have("ping"), "no `ping` command: install iputils-ping");
	DPSCTP_PREREQ(NetnsGuard::have("python3"), "no python3 for the raw-socket listener");

	// Leftovers of runs killed with SIGKILL, then ours.
	NetnsGuard::sweep_stale("dpsctp-l3-");
	NetnsGuard::sweep_stale("dpl3h");
	NetnsGuard g;
	std::string pid = std::to_string(getpid());
	std::string ns = NetnsGuard::with_pid("dpsctp-l3-");
	std::string host_if = NetnsGuard::with_pid("dpl3h");
	std::string ns_if = NetnsGuard::with_pid("dpl3n");
	ASSERT_TRUE(g.netns_with_veth(ns, host_if, ns_if)) << g.error();
	// The host end belongs to DPDK: keep the host kernel's IPv6 (RS, MLD,
	// DAD) off it. The namespace end: addresses without DAD, so they are
	// usable at once.
	std::string out;
	if (netns_run("sysctl -w net.ipv6.conf." + host_if + ".disable_ipv6=1", &out) != 0)
		std::printf("note: could not disable IPv6 on %s: %s\n", host_if.c_str(),
			    out.c_str());
	g.exec_in(ns, "sysctl -w net.ipv6.conf." + ns_if + ".accept_dad=0");
	ASSERT_EQ(g.ip_in(ns, "addr add 192.0.2.2/24 dev " + ns_if), 0) << g.error();
	ASSERT_EQ(g.ip_in(ns, "-6 addr add 2001:db8::2/64 dev " + ns_if + " nodad"), 0)
		<< g.error();
	std::string ns_mac_out;
	ASSERT_EQ(g.exec_in(ns, "cat /sys/class/net/" + ns_if + "/address", &ns_mac_out), 0);
	std::string ns_mac = ns_mac_out.substr(0, 17);

	PortGuard P;
	dpsctp_port_conf c{};
	std::string devargs = "net_af_packet" + pid + ",iface=" + host_if;
	c.devargs = devargs.c_str();
	c.nb_queues = 1;
	c.rx_ring_size = 512;
	c.tx_ring_size = 512;
	c.promiscuous = true;
	c.link_timeout_ms = 2000;
	ASSERT_EQ(dpsctp_port_open(&c, &P.port), 0) << P.port.error;
	P.open = true;
	ASSERT_STREQ(P.port.driver, "net_af_packet");
	unsigned avail_start = rte_mempool_avail_count(P.port.pool);
	std::string our_mac = mac_str(P.port.mac.addr_bytes);
	std::printf("port %u on %s, MAC %s; namespace %s, %s MAC %s\n", P.port.port_id,
		    host_if.c_str(), our_mac.c_str(), ns.c_str(), ns_if.c_str(), ns_mac.c_str());

	dpsctp_l3_config cfg{};
	std::memcpy(cfg.mac, P.port.mac.addr_bytes, 6);
	cfg.addr[0] = ip4(192, 0, 2, 1);
	cfg.prefix[0] = 24;
	cfg.addr[1] = ip6_doc(1);
	cfg.prefix[1] = 64;
	cfg.addr_count = 2;
	cfg.ipv6_link_local = true;
	Poller poller(&P.port);
	ASSERT_EQ(poller.init(cfg), 0);
	poller.start();

	// (1) The kernel resolves us and pings us, both families.
	std::string ping4, ping6;
	EXPECT_EQ(g.exec_in(ns, "ping -c 3 -W 2 192.0.2.1", &ping4), 0) << ping4;
	EXPECT_EQ(g.exec_in(ns, "ping -6 -c 3 -W 2 2001:db8::1", &ping6), 0) << ping6;
	std::string neigh;
	ASSERT_EQ(g.ip_in(ns, "neigh show dev " + ns_if, &neigh), 0) << g.error();
	std::printf("neighbours in %s:\n%s", ns.c_str(), neigh.c_str());
	EXPECT_TRUE(neigh_has(neigh, "192.0.2.1", our_mac)) << neigh;
	EXPECT_TRUE(neigh_has(neigh, "2001:db8::1", our_mac)) << neigh;
	dpsctp_l3_counters ctr = poller.counters();
	EXPECT_GE(ctr.echo_replies_sent, 6u);
	EXPECT_GE(ctr.arp_replies_sent, 1u);
	EXPECT_GE(ctr.na_sent, 1u);

	// (2) We resolve the kernel: forget what its requests taught us, then
	// send one SCTP packet per family; each parks behind a probe and must
	// be released by the answer and reach the namespace.
	std::string script = "/tmp/dpsctp_l3_veth_" + pid + ".py";
	struct ScriptFile {
		std::string path;
		~ScriptFile()
		{
			std::remove(path.c_str());
		}
	} script_file{ script };
	{
		FILE *f = std::fopen(script.c_str(), "w");
		ASSERT_NE(f, nullptr);
		std::fputs(kListenPy, f);
		std::fclose(f);
	}
	char tags[64];
	std::snprintf(tags, sizeof(tags), " 0x%08x 0x%08x 5", kTag4, kTag6);
	std::string cmd = "ip netns exec " + ns + " python3 " + script + tags + " 2>&1";
	FILE *listener = popen(cmd.c_str(), "r");
	ASSERT_NE(listener, nullptr);
	struct PipeCloser {
		FILE *f;
		~PipeCloser()
		{
			if (f != nullptr)
				pclose(f);
		}
	} listener_closer{ listener };
	char line[128] = "";
	ASSERT_NE(std::fgets(line, sizeof(line), listener), nullptr) << cmd;
	ASSERT_STREQ(line, "ready\n") << cmd;

	uint64_t parked_before;
	{
		std::lock_guard<std::mutex> lock(poller.mu);
		dpsctp_l3_flush(&poller.l3);
		parked_before = poller.l3.ctr.tx_parked;
		const struct {
			sctp_addr src, dst;
			uint32_t tag;
		} sends[] = {
			{ ip4(192, 0, 2, 1), ip4(192, 0, 2, 2), kTag4 },
			{ ip6_doc(1), ip6_doc(2), kTag6 },
		};
		for (const auto &s : sends) {
			rte_mbuf *m = sctp_packet(P.port.pool, s.tag);
			ASSERT_NE(m, nullptr);
			dpsctp_l3_tx tx{};
			tx.src = s.src;
			tx.dst = s.dst;
			tx.sctp = rte_pktmbuf_mtod(m, const uint8_t *);
			tx.sctp_len = 16;
			tx.handle = reinterpret_cast<uintptr_t>(m);
			dpsctp_l3_out o = poller.output(tx);
			EXPECT_EQ(o.verdict, DPSCTP_L3_TX_PARKED) << "family " << int(s.dst.family);
			EXPECT_GT(o.probe_len, 0u) << "no ARP request / NS written";
		}
		EXPECT_EQ(poller.l3.ctr.tx_parked, parked_before + 2);
	}
	EXPECT_TRUE(wait_for([&] { return poller.counters().parked_released >= 2; },
			     std::chrono::milliseconds(5000)))
		<< "parked packets released: " << poller.counters().parked_released;
	bool got4 = false, got6 = false;
	while (std::fgets(line, sizeof(line), listener) != nullptr) {
		std::string l(line);
		got4 |= l == "got4 1\n";
		got6 |= l == "got6 1\n";
		if (l == "done\n")
			break;
	}
	EXPECT_TRUE(got4) << "the released IPv4 packet did not reach the namespace";
	EXPECT_TRUE(got6) << "the released IPv6 packet did not reach the namespace";

	poller.halt();
	ctr = poller.l3.ctr;
	EXPECT_EQ(ctr.parked_released, 2u);
	EXPECT_EQ(poller.released_tx, 2u);
	for (const sctp_addr &peer : { ip4(192, 0, 2, 2), ip6_doc(2) }) {
		const dpsctp_l3_nbr *nb = dpsctp_l3_nbr_find(&poller.l3, &peer);
		ASSERT_NE(nb, nullptr) << "family " << int(peer.family);
		EXPECT_EQ(nb->state, DPSCTP_L3_NBR_REACHABLE) << "family " << int(peer.family);
		EXPECT_EQ(mac_str(nb->mac), ns_mac) << "family " << int(peer.family);
	}
	EXPECT_EQ(poller.tx_failed, 0u);
	EXPECT_EQ(poller.no_mbuf, 0u);
	std::printf("l3 counters:");
	for (unsigned i = 0; i < dpsctp_l3_counter_count(); i++) {
		uint64_t v = dpsctp_l3_counter_value(&ctr, i);
		if (v != 0)
			std::printf(" %s=%llu", dpsctp_l3_counter_name(i), (unsigned long long)v);
	}
	std::printf("\nframes sent %llu, SCTP in %llu, ICMP errors in %llu\n",
		    (unsigned long long)poller.sent, (unsigned long long)poller.sctp_in,
		    (unsigned long long)poller.icmp_err_in);

	// (3) Every mbuf back: drain what arrived after the loop stopped, give
	// back anything still parked.
	dpsctp_l3_flush(&poller.l3);
	rte_mbuf *pkts[kBurst];
	uint16_t n;
	while ((n = rte_eth_rx_burst(P.port.port_id, 0, pkts, kBurst)) > 0)
		rte_pktmbuf_free_bulk(pkts, n);
	EXPECT_EQ(rte_mempool_avail_count(P.port.pool), avail_start);
	EXPECT_EQ(P.close(), 0) << P.port.error;
}

} // namespace
