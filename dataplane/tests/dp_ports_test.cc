/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] Several ports in one instance (docs/PORTS.md "Several ports"):
//
//   - the routing table (dataplane/dp_route.c, rte_lpm/rte_lpm6): connected
//     prefixes per port, the longest prefix, routes via a gateway, each
//     port's default gateway, the source chosen per egress port;
//   - two instances, each with two ports on two networks (10.1.0.0/24 over
//     one net_ring link, 10.2.0.0/24 over another), one association
//     multi-homed across both: messages flow on network A (the primary);
//     network A is cut (the test drops every frame on that link) and the
//     association fails over to network B; network A comes back and the
//     traffic returns to it (the core's primary return). Every message is
//     checked: none lost, none duplicated, none out of order.
//
// Each port answers ARP on its own link: neither instance is told a MAC.
#include <arpa/inet.h>

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "dp_env.h"

extern "C" {
#include "dataplane/dp_route.h"
}

namespace {

sctp_addr
addr(const char *s)
{
	sctp_addr a;
	memset(&a, 0, sizeof(a));
	if (inet_pton(AF_INET, s, a.bytes) == 1) {
		a.family = 4;
	} else {
		EXPECT_EQ(inet_pton(AF_INET6, s, a.bytes), 1) << s;
		a.family = 6;
	}
	return a;
}

std::string
text(const sctp_addr &a)
{
	char b[INET6_ADDRSTRLEN] = "";
	inet_ntop(a.family == 4 ? AF_INET : AF_INET6, a.bytes, b, sizeof(b));
	return b;
}

void
set(dpsctp_config *c, const char *name, const char *value)
{
	char err[256] = "";
	ASSERT_EQ(dpsctp_config_set(c, name, value, err, sizeof(err)), 0)
		<< name << " " << value << ": " << err;
}

// A table built from options, as dpsctp_create() builds it.
struct Table {
	dp_routes r;
	bool ok = false;
	explicit Table(const std::vector<std::pair<const char *, const char *>> &opts)
	{
		static unsigned seq;
		dpsctp_config c;
		char err[256] = "";
		dpsctp_config_defaults(&c);
		for (auto &o : opts)
			set(&c, o.first, o.second);
		EXPECT_EQ(dpsctp_config_validate(&c, err, sizeof(err)), 0) << err;
		std::string name = "rt" + std::to_string(seq++);
		ok = dp_routes_build(&r, &c, name.c_str(), 0, err, sizeof(err)) == 0;
		EXPECT_TRUE(ok) << err;
	}
	~Table()
	{
		if (ok)
			dp_routes_free(&r);
	}
	// "port via" for dst from src ("" src: none), or "none".
	std::string hop(const char *dst, const char *src = "")
	{
		sctp_addr d = addr(dst), s = src[0] != '\0' ? addr(src) : sctp_addr{};
		dp_route_hop h;
		if (dp_route_lookup(&r, &d, src[0] != '\0' ? &s : nullptr, &h) != 0)
			return "none";
		return std::to_string(h.port) + " " + (h.via.family != 0 ? text(h.via) : "on-link");
	}
	std::string src(unsigned port, const char *dst, const char *src = "")
	{
		sctp_addr d = addr(dst), s = src[0] != '\0' ? addr(src) : sctp_addr{}, out;
		if (!dp_route_src(&r, port, &d, src[0] != '\0' ? &s : nullptr, &out))
			return "none";
		return text(out);
	}
};

const std::vector<std::pair<const char *, const char *>> kTwoPorts = {
	{ "port", "net_null0" },
	{ "port", "net_null1" },
	{ "ip", "10.1.0.1/24" },
	{ "ip", "10.1.0.9/24" },
	{ "ip", "10.2.0.1/24,port=1" },
	{ "ip", "fd00:b::1/64,port=1" },
	{ "gw", "10.1.0.254" },
	{ "gw", "10.2.0.254,port=1" },
	{ "gw", "fd00:b::fe,port=1" },
	{ "route", "192.168.0.0/16,via=10.2.0.253" },
	{ "route", "192.168.7.0/24,via=10.1.0.253" },
	{ "route", "fd00:77::/32,via=fd00:b::fd" },
};

TEST(DpRoute, ConnectedPrefixesPickTheirPort)
{
	Table t(kTwoPorts);
	EXPECT_EQ(t.hop("10.1.0.77"), "0 on-link");
	EXPECT_EQ(t.hop("10.2.0.77"), "1 on-link");
	EXPECT_EQ(t.hop("fd00:b::1234"), "1 on-link");
}

TEST(DpRoute, LongestPrefixWinsAndRoutesLeaveByTheirGatewaysPort)
{
	Table t(kTwoPorts);
	EXPECT_EQ(t.hop("192.168.1.1"), "1 10.2.0.253");
	EXPECT_EQ(t.hop("192.168.7.1"), "0 10.1.0.253"); // the /24 inside the /16
	EXPECT_EQ(t.hop("fd00:77:1::1"), "1 fd00:b::fd");
}

TEST(DpRoute, DefaultGatewayOfTheSourcesPortElseTheFirstPortWithOne)
{
	Table t(kTwoPorts);
	EXPECT_EQ(t.hop("172.16.0.1"), "0 10.1.0.254");		    // no source: port 0 first
	EXPECT_EQ(t.hop("172.16.0.1", "10.2.0.1"), "1 10.2.0.254"); // from port 1's address
	EXPECT_EQ(t.hop("172.16.0.1", "10.1.0.9"), "0 10.1.0.254");
	EXPECT_EQ(t.hop("2001:db8::1"), "1 fd00:b::fe"); // port 1 alone has an IPv6 gateway
	EXPECT_EQ(t.hop("2001:db8::1", "10.1.0.1"), "1 fd00:b::fe");
}

TEST(DpRoute, NoGatewayNoRoute)
{
	Table t({ { "port", "net_null0" },
		  { "port", "net_null1" },
		  { "ip", "10.1.0.1/24" },
		  { "ip", "10.2.0.1/24,port=1" } });
	EXPECT_EQ(t.hop("10.3.0.1"), "none");
	EXPECT_EQ(t.hop("2001:db8::1"), "none");
	EXPECT_EQ(t.hop("fe80::1", "10.2.0.1"), "1 on-link"); // link-local: the source's port
}

TEST(DpRoute, DefaultRouteInTheListOverridesThePortsGateways)
{
	Table t({ { "port", "net_null0" },
		  { "port", "net_null1" },
		  { "ip", "10.1.0.1/24" },
		  { "ip", "10.2.0.1/24,port=1" },
		  { "gw", "10.1.0.254" },
		  { "route", "0.0.0.0/0,via=10.2.0.254" } });
	EXPECT_EQ(t.hop("8.8.8.8", "10.1.0.1"), "1 10.2.0.254");
	EXPECT_EQ(t.hop("10.1.0.5"), "0 on-link");
}

TEST(DpRoute, SourceIsAnAddressOfTheEgressPort)
{
	Table t(kTwoPorts);
	EXPECT_EQ(t.src(0, "10.1.0.77", "10.1.0.9"), "10.1.0.9"); // the core's, on the port
	EXPECT_EQ(t.src(1, "10.2.0.77", "10.1.0.1"), "10.2.0.1"); // the port's instead
	EXPECT_EQ(t.src(0, "10.1.0.10"), "10.1.0.9");		  // longest prefix: .9 ~ .10
	EXPECT_EQ(t.src(1, "fd00:b::9"), "fd00:b::1");
	EXPECT_EQ(t.src(0, "fd00:b::9"), "none"); // port 0 has no IPv6 address
}

// ---- two instances, two networks ----------------------------------------

constexpr uint16_t kPort = 3868; // Diameter's
constexpr uint32_t kLen = 1200;	 // one DATA chunk per packet at MTU 1500

uint8_t
byte_of(uint32_t k, uint32_t i)
{
	return (uint8_t)(k * 37u + i * 11u + (i >> 7));
}

struct Peer {
	dpsctp *d = nullptr;
	dpsctp_assoc *a = nullptr;
	bool up = false, lost = false, done = false;
	uint32_t next = 0; // the next message expected
	uint32_t bad = 0;  // wrong size or bytes, out of order, duplicated
	std::vector<std::pair<std::string, int>> addr_events;
};

void
on_recv(dpsctp_assoc *, const dpsctp_msg *m, void *arg)
{
	Peer *p = static_cast<Peer *>(arg);
	std::vector<uint8_t> b(m->len);
	EXPECT_EQ(dpsctp_msg_copy(m, b.data(), b.size()), m->len);
	bool ok = m->ppid == p->next && m->len == kLen && (m->flags & DPSCTP_MSG_MORE) == 0;
	for (uint32_t i = 0; ok && i < m->len; i++)
		ok = b[i] == byte_of(m->ppid, i);
	if (!ok) {
		p->bad++;
		ADD_FAILURE() << "message " << m->ppid << " (" << m->len << " bytes) where "
			      << p->next << " was due";
	}
	p->next = m->ppid + 1;
}

void
on_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	Peer *p = static_cast<Peer *>(arg);
	switch (ev->type) {
	case DPSCTP_EV_COMM_UP:
		p->a = a;
		p->up = true;
		break;
	case DPSCTP_EV_PEER_ADDR_CHANGE:
		p->addr_events.emplace_back(text(ev->addr), ev->addr_state);
		break;
	case DPSCTP_EV_SHUTDOWN_COMPLETE:
		p->done = true;
		break;
	case DPSCTP_EV_COMM_LOST:
	case DPSCTP_EV_CANT_START:
		p->lost = true;
		break;
	default:
		break;
	}
}

const dpsctp_callbacks kCb = { on_recv, on_event, nullptr };

rte_eth_stats
eth_stats(int port)
{
	rte_eth_stats st{};
	EXPECT_EQ(rte_eth_stats_get((uint16_t)port, &st), 0);
	return st;
}

uint64_t
ipackets(int port)
{
	return eth_stats(port).ipackets;
}

// A worker-0 counter by name (UINT64_MAX when none).
uint64_t
counter(const dpsctp *d, const char *want)
{
	const char *name;
	for (unsigned i = 0;; i++) {
		uint64_t v = dpsctp_worker_counter(d, 0, i, &name);
		if (name == nullptr)
			return UINT64_MAX;
		if (std::string(name) == want)
			return v;
	}
}

// A name no earlier test's link has taken (ethdev and ring names live on).
std::string
fresh(const char *tag)
{
	static unsigned serial;
	return tag + std::to_string(serial++);
}

class DpPorts : public ::testing::Test {
      protected:
	RingLink net_a{ fresh("pa"), 1 }, net_b{ fresh("pb"), 1 };
	Peer client, server;
	bool cut_a = false;
	uint32_t sent = 0;

	using Opts = std::vector<std::pair<const char *, const char *>>;

	dpsctp *make(const char *ip_a, const char *ip_b, bool is_a, const Opts &extra)
	{
		dpsctp_config c = dp_test_config(is_a ? net_a.name_a : net_a.name_b, ip_a, 1,
						 is_a ? 0 : kPort);
		set(&c, "port", ("ethdev:" + (is_a ? net_b.name_a : net_b.name_b)).c_str());
		set(&c, "ip", (std::string(ip_b) + ",port=1").c_str());
		// Failure found within a few hundred milliseconds: a heartbeat every
		// 20 ms, RTOs of 10..80 ms, two retransmissions per path.
		set(&c, "rto-initial", "20000");
		set(&c, "rto-min", "10000");
		set(&c, "rto-max", "80000");
		set(&c, "hb-interval", "20000");
		set(&c, "path-max-retrans", "2");
		set(&c, "assoc-max-retrans", "30");
		set(&c, "max-paths", "4");
		for (auto &o : extra)
			set(&c, o.first, o.second);
		char err[256] = "";
		EXPECT_EQ(dpsctp_config_validate(&c, err, sizeof(err)), 0) << err;
		dpsctp *d = dpsctp_create(&c, err, sizeof(err));
		EXPECT_NE(d, nullptr) << err;
		return d;
	}

	// The client on 10.1.0.1 (port 0, network A) and 10.2.0.1 (port 1,
	// network B); the server on server_b and, by default, 10.1.0.2.
	void start(const char *server_b = "10.2.0.2/24", const Opts &client_extra = {},
		   const Opts &server_extra = {})
	{
		ASSERT_GE(net_a.a, 0);
		ASSERT_GE(net_b.a, 0);
		client.d = make("10.1.0.1/24", "10.2.0.1/24", true, client_extra);
		server.d = make("10.1.0.2/24", server_b, false, server_extra);
		ASSERT_NE(client.d, nullptr);
		ASSERT_NE(server.d, nullptr);
		ASSERT_EQ(dpsctp_listen(server.d, kPort, &kCb, &server), 0);
	}
	void TearDown() override
	{
		net_a.drain();
		net_b.drain();
		dpsctp_destroy(client.d);
		dpsctp_destroy(server.d);
		net_a.drain();
		net_b.drain();
	}

	void poll()
	{
		// Network A is down: nothing crosses it, either way. (Drained only
		// before the client's poll, what the client sent reached the server
		// in the same round: DATA crossed, SACKs did not; the sender's
		// spurious-timeout detection then kept using network A.)
		if (cut_a)
			net_a.drain();
		(void)dpsctp_poll(client.d, 0);
		if (cut_a)
			net_a.drain();
		(void)dpsctp_poll(server.d, 0);
	}

	// Poll until done() or 20 s (a bound for a stuck test, not a speed limit).
	template <class F> bool run(F done)
	{
		auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
		while (!done()) {
			if (std::chrono::steady_clock::now() > end)
				return false;
			poll();
		}
		return true;
	}

	// n more messages from the client, in order on stream 0, all delivered.
	void send(uint32_t n)
	{
		uint32_t last = sent + n;
		std::vector<uint8_t> b(kLen);
		bool ok = run([&] {
			while (sent < last) {
				for (uint32_t i = 0; i < kLen; i++)
					b[i] = byte_of(sent, i);
				dpsctp_sndinfo si = { 0, sent, 0, DPSCTP_PR_NONE, 0, 0 };
				int rc = dpsctp_send_bytes(client.a, &si, b.data(), b.size());
				if (rc == -EAGAIN || rc == -ENOMEM)
					break;
				EXPECT_EQ(rc, 0);
				if (rc != 0)
					return true;
				sent++;
			}
			return server.next == last || client.lost;
		});
		ASSERT_TRUE(ok) << "delivered " << server.next << " of " << last
				<< dp_test_counters(client.d);
		ASSERT_FALSE(client.lost);
		ASSERT_EQ(server.next, last);
	}

	int path_state(unsigned i)
	{
		dpsctp_path_stats st;
		EXPECT_EQ(dpsctp_path_get_stats(client.a, i, &st), 0);
		return (int)st.state;
	}
};

TEST_F(DpPorts, FailoverToNetworkBAndBackWithEveryMessageOnce)
{
	ASSERT_NO_FATAL_FAILURE(start());
	sctp_addr peers[2] = { addr("10.1.0.2"), addr("10.2.0.2") };
	int rc = 0;
	ASSERT_NE(dpsctp_connect(client.d, 0, peers, 2, kPort, 0, &kCb, &client, &rc), nullptr)
		<< rc;
	ASSERT_TRUE(run([&] { return client.up && server.up; })) << dp_test_counters(client.d);
	dpsctp_assoc_stats as;
	ASSERT_EQ(dpsctp_assoc_get_stats(client.a, &as), 0);
	ASSERT_EQ(as.paths, 2u) << "the server's second address (network B) is a path";

	// Network A carries the data; network B only heartbeats.
	uint64_t a0 = ipackets(net_a.b), b0 = ipackets(net_b.b);
	send(300);
	uint64_t on_a = ipackets(net_a.b) - a0, on_b = ipackets(net_b.b) - b0;
	EXPECT_GE(on_a, 300u) << "one message per packet at least, on the primary network";
	EXPECT_LT(on_b, 60u) << "network B: heartbeats only";

	// Network A goes down: the primary path fails, the data goes by B.
	cut_a = true;
	b0 = ipackets(net_b.b);
	send(300);
	ASSERT_TRUE(run([&] { return path_state(0) == DPSCTP_PATH_INACTIVE; }))
		<< "the path over network A stays " << path_state(0);
	EXPECT_GE(ipackets(net_b.b) - b0, 300u) << "the messages crossed network B";
	EXPECT_EQ(path_state(1), DPSCTP_PATH_ACTIVE);
	bool unreachable = false;
	for (auto &e : client.addr_events)
		unreachable |= e.first == "10.1.0.2" && e.second == DPSCTP_ADDR_UNREACHABLE;
	EXPECT_TRUE(unreachable) << "PEER_ADDR_CHANGE UNREACHABLE for 10.1.0.2";
	// The worker's view of it (the core's owner-wide events, exported;
	// UINT64_MAX: no such counter).
	const uint64_t failovers = counter(client.d, "assoc.failovers");
	const uint64_t data_packets = counter(client.d, "assoc.data_packets");
	EXPECT_TRUE(failovers >= 1 && failovers != UINT64_MAX) << failovers;
	EXPECT_TRUE(data_packets > 600 && data_packets != UINT64_MAX) << data_packets;

	// Network A comes back: its heartbeat is answered, the traffic returns.
	cut_a = false;
	ASSERT_TRUE(run([&] { return path_state(0) == DPSCTP_PATH_ACTIVE; }));
	a0 = ipackets(net_a.b);
	b0 = ipackets(net_b.b);
	send(300);
	EXPECT_GE(ipackets(net_a.b) - a0, 300u) << "back on the primary network";
	const uint64_t returns = counter(client.d, "assoc.primary_returns");
	EXPECT_TRUE(returns >= 1 && returns != UINT64_MAX) << returns;
	EXPECT_LT(ipackets(net_b.b) - b0, 60u);

	EXPECT_EQ(server.bad, 0u);
	EXPECT_EQ(server.next, 900u);
	ASSERT_EQ(dpsctp_shutdown(client.a), 0);
	ASSERT_TRUE(run([&] { return client.done && server.done; }));
	// Each instance's count of frames by port (dpsctp_port_frames()) is the
	// ethdev's: the client's port 1 carried the failover, port 0 the rest.
	const std::pair<dpsctp *, int> ports[2][2] = {
		{ { client.d, net_a.a }, { client.d, net_b.a } },
		{ { server.d, net_a.b }, { server.d, net_b.b } }
	};
	for (const auto &inst : ports)
		for (unsigned p = 0; p < 2; p++) {
			struct dpsctp_port_frames pf;
			ASSERT_EQ(dpsctp_port_frames(inst[p].first, p, &pf), 0);
			rte_eth_stats st = eth_stats(inst[p].second);
			EXPECT_EQ(pf.tx_packets, st.opackets) << "port " << p;
			EXPECT_EQ(pf.rx_packets, st.ipackets) << "port " << p;
			if (inst[p].first == client.d) {
				EXPECT_GE(pf.tx_packets, 300u)
					<< "port " << p << " carried a third of it";
			}
		}
	struct dpsctp_port_frames none;
	EXPECT_EQ(dpsctp_port_frames(client.d, 2, &none), -EINVAL) << "two ports, not three";
	// The packets the client sent left by the port the route gave, from that port's address.
	const char *name;
	for (unsigned i = 0;; i++) {
		uint64_t v = dpsctp_worker_counter(client.d, 0, i, &name);
		if (name == nullptr)
			break;
		if (std::string(name) == "tx_l3_drop") {
			EXPECT_EQ(v, 0u) << "no packet without a route or neighbour";
		}
	}
}

// Blocks of further paths (--multihomed, --max-paths): the client is on two
// networks, so the server's association wants a second path. With one
// block per worker, each association in turn gets it and gives it back
// when it ends (the second association is as multi-homed as the first);
// with --max-paths 1 no block exists, the server's association keeps the
// one path, counts what it left out, and carries every message all the same.
class DpPortsBlocks : public DpPorts {
      protected:
	void rounds(const char *max_paths)
	{
		ASSERT_NO_FATAL_FAILURE(start(
			"10.2.0.2/24", {}, { { "multihomed", "1" }, { "max-paths", max_paths } }));
		bool multi = std::string(max_paths) != "1";
		for (int round = 0; round < 2; round++) {
			sctp_addr peer = addr("10.1.0.2");
			int rc = 0;
			client.up = server.up = client.done = server.done = false;
			ASSERT_NE(
				dpsctp_connect(client.d, 0, &peer, 1, kPort, 0, &kCb, &client, &rc),
				nullptr)
				<< rc;
			ASSERT_TRUE(run([&] { return client.up && server.up; }))
				<< dp_test_counters(server.d);
			dpsctp_assoc_stats as;
			ASSERT_EQ(dpsctp_assoc_get_stats(server.a, &as), 0);
			EXPECT_EQ(as.paths, multi ? 2u : 1u) << "round " << round;
			server.next = sent = 0;
			send(50);
			ASSERT_EQ(dpsctp_shutdown(client.a), 0);
			ASSERT_TRUE(run([&] { return client.done && server.done; }));
		}
		EXPECT_EQ(counter(server.d, "paths_no_block"), multi ? 0u : 2u);
		EXPECT_EQ(server.bad, 0u);
	}
};

TEST_F(DpPortsBlocks, OneBlockServesEachAssociationInTurn)
{
	rounds("4");
}

TEST_F(DpPortsBlocks, MaxPathsOneKeepsEveryAssociationOnOnePath)
{
	rounds("1");
}

TEST_F(DpPorts, EachPortAnswersArpForItsOwnAddressesOnly)
{
	// The association comes up over both networks: each port resolved its
	// peer by ARP on its own link. An INIT to network B's address alone
	// proves port 1 answers there.
	ASSERT_NO_FATAL_FAILURE(start());
	sctp_addr peer = addr("10.2.0.2");
	int rc = 0;
	ASSERT_NE(dpsctp_connect(client.d, 0, &peer, 1, kPort, 0, &kCb, &client, &rc), nullptr)
		<< rc;
	ASSERT_TRUE(run([&] { return client.up && server.up; })) << dp_test_counters(client.d);
	uint64_t a0 = ipackets(net_a.b), b0 = ipackets(net_b.b);
	send(200);
	EXPECT_GE(ipackets(net_b.b) - b0, 200u) << "the messages crossed network B";
	EXPECT_LT(ipackets(net_a.b) - a0, 40u) << "network A: the server's heartbeats only";
	ASSERT_EQ(dpsctp_shutdown(client.a), 0);
	ASSERT_TRUE(run([&] { return client.done && server.done; }));
}

TEST_F(DpPorts, RouteThroughAGatewayLeavesByItsPortFromThatPortsAddress)
{
	// 10.1.5.0/24 lies behind 10.2.0.254 on network B (the server stands in
	// for the router: 10.2.0.254 and 10.1.5.2 are both its port 1's). The
	// core picks 10.1.0.1 as the source for 10.1.5.2 (the longer common
	// prefix); the route says port 1, so the packets carry 10.2.0.1.
	ASSERT_NO_FATAL_FAILURE(start("10.2.0.254/24",
				      { { "route", "10.1.5.0/24,via=10.2.0.254" } },
				      { { "ip", "10.1.5.2/24,port=1" } }));
	sctp_addr peer = addr("10.1.5.2");
	int rc = 0;
	ASSERT_NE(dpsctp_connect(client.d, 0, &peer, 1, kPort, 0, &kCb, &client, &rc), nullptr)
		<< rc;
	ASSERT_TRUE(run([&] { return client.up && server.up; })) << dp_test_counters(client.d);
	uint64_t a0 = ipackets(net_a.b), b0 = ipackets(net_b.b);
	send(200);
	EXPECT_GE(ipackets(net_b.b) - b0, 200u) << "the route's port: network B";
	EXPECT_LT(ipackets(net_a.b) - a0, 40u) << "network A: heartbeats only";
	EXPECT_GT(counter(client.d, "tx_src_port"), 200u)
		<< "the source was replaced by port 1's address";
	EXPECT_EQ(counter(client.d, "tx_l3_drop"), 0u);
	ASSERT_EQ(dpsctp_shutdown(client.a), 0);
	ASSERT_TRUE(run([&] { return client.done && server.done; }));
}

} // namespace
