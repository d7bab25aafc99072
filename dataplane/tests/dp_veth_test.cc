/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] The data plane on a veth into a network namespace, through
// net_af_packet: `ping` and `ping -6` of its addresses from the namespace
// are answered and the kernel's neighbour table learns our MAC (ARP, ND) —
// the whole runtime this time (dpsctp_create(), its worker polled by a
// thread), not the L3 layer alone (drivers/net/tests/l3_veth_test.cc).
// Needs root; the namespace and veth go away even when the test fails.
#include <gtest/gtest.h>

#include "tests/prereq.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>

#include "dataplane/tests/dp_env.h"
#include "drivers/net/tests/netns_guard.h"

namespace {

using dpsctp_test::NetnsGuard;

std::string
mac_str(const uint8_t m[6])
{
	char b[18];
	snprintf(b, sizeof(b), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
	return b;
}

TEST(DpVeth, PingBothFamiliesThroughTheRuntime)
{
	DPSCTP_PREREQ(NetnsGuard::is_root(),
		      "needs root to create a network namespace and a veth pair");
	DPSCTP_PREREQ(NetnsGuard::have("ip") && NetnsGuard::have("ping"),
		      "needs `ip` (iproute2) and `ping` (iputils-ping)");
	NetnsGuard::sweep_stale("dpsctp-rt-");
	NetnsGuard::sweep_stale("dprth");
	NetnsGuard g;
	std::string ns = NetnsGuard::with_pid("dpsctp-rt-");
	std::string host_if = NetnsGuard::with_pid("dprth");
	std::string ns_if = NetnsGuard::with_pid("dprtn");
	ASSERT_TRUE(g.netns_with_veth(ns, host_if, ns_if)) << g.error();
	std::string out;
	(void)dpsctp_test::netns_run("sysctl -w net.ipv6.conf." + host_if + ".disable_ipv6=1",
				     &out);
	g.exec_in(ns, "sysctl -w net.ipv6.conf." + ns_if + ".accept_dad=0");
	ASSERT_EQ(g.ip_in(ns, "addr add 192.0.2.2/24 dev " + ns_if), 0) << g.error();
	ASSERT_EQ(g.ip_in(ns, "-6 addr add 2001:db8::2/64 dev " + ns_if + " nodad"), 0)
		<< g.error();

	dpsctp_config c;
	char err[256];
	dpsctp_config_defaults(&c);
	std::string port = "net_af_packet_rt" + std::to_string(getpid()) + ",iface=" + host_if;
	ASSERT_EQ(dpsctp_config_set(&c, "port", port.c_str(), err, sizeof(err)), 0) << err;
	ASSERT_EQ(dpsctp_config_set(&c, "ip", "192.0.2.1/24", err, sizeof(err)), 0) << err;
	ASSERT_EQ(dpsctp_config_set(&c, "ip", "2001:db8::1/64", err, sizeof(err)), 0) << err;
	ASSERT_EQ(dpsctp_config_set(&c, "max-assocs", "16", err, sizeof(err)), 0) << err;
	ASSERT_EQ(dpsctp_config_set(&c, "sctp-port", "5001", err, sizeof(err)), 0) << err;
	dpsctp *d = dpsctp_create(&c, err, sizeof(err));
	ASSERT_NE(d, nullptr) << err;
	uint8_t mac[6];
	dpsctp_mac(d, mac);

	// The worker runs on its own thread while ping runs here.
	std::atomic<bool> stop{ false };
	std::thread poller([&] {
		while (!stop) {
			if (dpsctp_poll(d, 0) == 0)
				usleep(50); // two vCPUs: leave room for ping and the kernel
		}
	});
	std::string ping4, ping6, neigh;
	int r4 = g.exec_in(ns, "ping -c 3 -W 2 192.0.2.1", &ping4);
	int r6 = g.exec_in(ns, "ping -6 -c 3 -W 2 2001:db8::1", &ping6);
	g.ip_in(ns, "neigh show dev " + ns_if, &neigh);
	stop = true;
	poller.join();

	EXPECT_EQ(r4, 0) << ping4;
	EXPECT_EQ(r6, 0) << ping6;
	std::string m = mac_str(mac);
	EXPECT_NE(neigh.find("192.0.2.1 lladdr " + m), std::string::npos) << neigh;
	EXPECT_NE(neigh.find("2001:db8::1 lladdr " + m), std::string::npos) << neigh;
	uint64_t echo = 0, arp = 0, na = 0;
	const char *name;
	for (unsigned i = 0;; i++) {
		uint64_t v = dpsctp_worker_counter(d, 0, i, &name);
		if (name == nullptr)
			break;
		if (std::string(name) == "l3.echo_replies_sent")
			echo = v;
		if (std::string(name) == "l3.arp_replies_sent")
			arp = v;
		if (std::string(name) == "l3.na_sent")
			na = v;
	}
	EXPECT_GE(echo, 6u);
	EXPECT_GE(arp, 1u);
	EXPECT_GE(na, 1u);
	EXPECT_EQ(dpsctp_stop(d, 100), 0);
	dpsctp_destroy(d);
}

} // namespace
