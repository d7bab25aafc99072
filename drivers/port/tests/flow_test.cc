// SPDX-License-Identifier: BSD-3-Clause
// Steering on the SCTP tag (drivers/port/flow.c) on the PMDs a machine
// without a NIC has: net_ring (no rte_flow at all) and net_tap (rte_flow
// without an SCTP item). Neither is expected to accept the rule; what is
// checked is the contract around the verdict: 0 or -ENOTSUP, never a
// crash; on refusal a non-empty sentence that starts with the rte_flow
// step, no handle written, steering recorded as software; on success both
// handles and steering recorded as hardware; flush works after either and
// clears the record. A randomized sequence of calls, valid and invalid,
// is checked against a model of the record (many seeds, printed on
// failure; FLOW_TEST_SEED replays one).
//
// The EAL runs with --no-huge --no-pci --no-shconf (not --in-memory: with
// --no-huge DPDK 22.11 refuses it, see docs/PORTS.md). The tap case needs
// root and /dev/net/tun and skips without them.
#include <gtest/gtest.h>

#include "tests/prereq.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>

#include "drivers/port/flow.h"
#include "drivers/port/port.h"

namespace {

struct Eal {
	bool ok = false;
	std::string error;
};

Eal
eal_start()
{
	Eal e;
	std::string prefix = "flow_test_" + std::to_string(getpid());
	std::vector<std::string> args = {
		"flow_test",
		"--no-huge",
		"--no-pci",
		"--no-shconf",
		"-m",
		"256",
		"--log-level=error",
		"-l",
		"0",
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

// Flushes and closes the port when the test leaves early.
struct PortGuard {
	dpsctp_port port{};
	bool open = false;
	~PortGuard()
	{
		if (open) {
			dpsctp_port_flow_flush(&port);
			dpsctp_port_close(&port);
		}
	}
	int close()
	{
		open = false;
		return dpsctp_port_close(&port);
	}
};

dpsctp_port_conf
conf_for(const std::string &devargs, uint16_t nq)
{
	dpsctp_port_conf c{};
	c.devargs = devargs.c_str();
	c.nb_queues = nq;
	c.rx_ring_size = 256;
	c.tx_ring_size = 256;
	c.link_timeout_ms = 1000;
	return c;
}

// Six owner bits on top, as dataplane/vtag.h uses for 64 lcores.
constexpr uint32_t kOwnerMask = 0xfc000000u;

uint32_t
owner_value(unsigned lcore)
{
	return static_cast<uint32_t>(lcore) << 26;
}

// One call on a valid rule: 0 or -ENOTSUP and everything that goes with
// it. Returns what the PMD said.
int
check_vtag(dpsctp_port &p, uint32_t mask, uint32_t value, uint16_t queue)
{
	rte_flow *sentinel = reinterpret_cast<rte_flow *>(uintptr_t{ 0x5a5a });
	rte_flow *out[DPSCTP_PORT_FLOW_VTAG_RULES] = { sentinel, sentinel };
	p.error[0] = '\0';
	int ret = dpsctp_port_flow_vtag(&p, mask, value, queue, out);
	std::printf("%s: dpsctp_port_flow_vtag(mask 0x%08x, value 0x%08x, queue %u) = %d%s%s\n",
		    p.driver, mask, value, queue, ret, ret != 0 ? ": " : "",
		    ret != 0 ? p.error : "");
	EXPECT_TRUE(ret == 0 || ret == -ENOTSUP) << ret << " " << p.error;
	if (ret == -ENOTSUP) {
		EXPECT_GT(std::strlen(p.error), 0u);
		EXPECT_EQ(std::string(p.error).rfind("rte_flow_", 0), 0u) << p.error;
		EXPECT_NE(std::string(p.error).find(p.driver), std::string::npos) << p.error;
		EXPECT_EQ(out[0], sentinel) << "a refused call wrote a handle";
		EXPECT_EQ(out[1], sentinel);
		EXPECT_FALSE(dpsctp_port_flow_hw(&p));
	} else if (ret == 0) {
		EXPECT_NE(out[0], nullptr);
		EXPECT_NE(out[1], nullptr);
		EXPECT_NE(out[0], sentinel);
		EXPECT_NE(out[1], sentinel);
		EXPECT_GE(dpsctp_port_flow_rules(&p), 2u);
	}
	return ret;
}

// The data plane's sequence on a port: one rule per lcore, read the
// record, flush; then again, to see the record is fresh after a flush.
void
steer_then_flush(dpsctp_port &p, unsigned lcores)
{
	for (int round = 0; round < 2; round++) {
		EXPECT_FALSE(dpsctp_port_flow_hw(&p));
		EXPECT_EQ(dpsctp_port_flow_rules(&p), 0u);
		int first = 0;
		unsigned ok = 0;
		for (unsigned l = 0; l < lcores; l++) {
			int ret = check_vtag(p, kOwnerMask, owner_value(l),
					     static_cast<uint16_t>(l % p.nb_queues));
			if (l == 0)
				first = ret;
			// A PMD that refuses the shape refuses it for every owner.
			EXPECT_EQ(ret, first) << "owner " << l;
			ok += ret == 0;
		}
		EXPECT_EQ(dpsctp_port_flow_rules(&p), ok * DPSCTP_PORT_FLOW_VTAG_RULES);
		EXPECT_EQ(dpsctp_port_flow_hw(&p), first == 0 && ok == lcores);
		std::printf("%s: steering in %s\n", p.driver,
			    dpsctp_port_flow_hw(&p) ? "hardware" : "software (hand-off)");
		EXPECT_EQ(dpsctp_port_flow_flush(&p), 0) << p.error;
		EXPECT_FALSE(dpsctp_port_flow_hw(&p));
		EXPECT_EQ(dpsctp_port_flow_rules(&p), 0u);
	}
	// Flushing twice is harmless.
	EXPECT_EQ(dpsctp_port_flow_flush(&p), 0) << p.error;
}

TEST(FlowRing, TagRuleInstalledOrRefused)
{
	REQUIRE_EAL();
	std::string devargs = "net_ring_f" + std::to_string(getpid());
	dpsctp_port_conf c = conf_for(devargs, 1);
	PortGuard P;
	ASSERT_EQ(dpsctp_port_open(&c, &P.port), 0) << P.port.error;
	P.open = true;
	EXPECT_STREQ(P.port.driver, "net_ring");
	steer_then_flush(P.port, 4);
	// net_ring has no rte_flow at all: the refusal is certain here.
	EXPECT_EQ(check_vtag(P.port, kOwnerMask, owner_value(1), 0), -ENOTSUP);
	EXPECT_EQ(dpsctp_port_flow_flush(&P.port), 0) << P.port.error;
	EXPECT_EQ(P.close(), 0) << P.port.error;
}

TEST(FlowRing, BadArguments)
{
	REQUIRE_EAL();
	std::string devargs = "net_ring_b" + std::to_string(getpid());
	dpsctp_port_conf c = conf_for(devargs, 1);
	PortGuard P;
	ASSERT_EQ(dpsctp_port_open(&c, &P.port), 0) << P.port.error;
	P.open = true;
	dpsctp_port &p = P.port;
	rte_flow *out[DPSCTP_PORT_FLOW_VTAG_RULES] = { nullptr, nullptr };

	EXPECT_EQ(dpsctp_port_flow_vtag(&p, kOwnerMask, 0, 1, out), -EINVAL);
	EXPECT_NE(std::string(p.error).find("queue 1"), std::string::npos) << p.error;
	EXPECT_EQ(dpsctp_port_flow_vtag(&p, 0, 0, 0, out), -EINVAL);
	EXPECT_NE(std::string(p.error).find("mask"), std::string::npos) << p.error;
	EXPECT_EQ(dpsctp_port_flow_vtag(&p, kOwnerMask, 0x00000001u, 0, out), -EINVAL);
	EXPECT_NE(std::string(p.error).find("outside mask"), std::string::npos) << p.error;
	EXPECT_EQ(dpsctp_port_flow_vtag(nullptr, kOwnerMask, 0, 0, out), -EINVAL);
	EXPECT_EQ(dpsctp_port_flow_flush(nullptr), -EINVAL);
	EXPECT_FALSE(dpsctp_port_flow_hw(nullptr));
	EXPECT_EQ(out[0], nullptr);
	// Invalid calls leave no trace in the record.
	EXPECT_FALSE(dpsctp_port_flow_hw(&p));
	EXPECT_EQ(dpsctp_port_flow_rules(&p), 0u);

	// A port that is not open.
	dpsctp_port closed{};
	EXPECT_EQ(dpsctp_port_flow_vtag(&closed, kOwnerMask, 0, 0, out), -EINVAL);
	EXPECT_NE(std::string(closed.error).find("not open"), std::string::npos) << closed.error;
	EXPECT_EQ(dpsctp_port_flow_flush(&closed), -EINVAL);
	EXPECT_FALSE(dpsctp_port_flow_hw(&closed));

	// The record belongs to the struct it was made through: a copy of
	// the port struct does not inherit it.
	dpsctp_port copy = p;
	EXPECT_FALSE(dpsctp_port_flow_hw(&copy));
	EXPECT_EQ(dpsctp_port_flow_rules(&copy), 0u);
	EXPECT_EQ(P.close(), 0) << p.error;
	EXPECT_FALSE(dpsctp_port_flow_hw(&p)) << "a closed port steers nothing";
}

uint32_t
seed_from_env()
{
	const char *s = std::getenv("FLOW_TEST_SEED");
	return s != nullptr ? static_cast<uint32_t>(std::strtoul(s, nullptr, 0)) : 20261122u;
}

// Random sequences of vtag (valid or not) and flush against a model of the
// record: rules counted per successful call, one refusal sticks until a
// flush, invalid arguments change nothing; the PMD's verdict on a valid
// rule is the same every time.
TEST(FlowRing, RandomCallsAgainstModel)
{
	REQUIRE_EAL();
	std::string devargs = "net_ring_m" + std::to_string(getpid());
	dpsctp_port_conf c = conf_for(devargs, 1);
	PortGuard P;
	ASSERT_EQ(dpsctp_port_open(&c, &P.port), 0) << P.port.error;
	P.open = true;
	dpsctp_port &p = P.port;
	uint32_t base = seed_from_env();
	int verdict = 1; // unknown until the first valid call

	for (uint32_t k = 0; k < 50 && !HasFailure(); k++) {
		uint32_t seed = base + k * 7919u;
		SCOPED_TRACE("seed " + std::to_string(seed) + " (FLOW_TEST_SEED to replay)");
		std::mt19937 rng(seed);
		ASSERT_EQ(dpsctp_port_flow_flush(&p), 0) << p.error;
		uint32_t rules = 0;
		bool refused = false;
		for (int step = 0; step < 200; step++) {
			unsigned op = rng() % 8;
			if (op == 0) {
				ASSERT_EQ(dpsctp_port_flow_flush(&p), 0) << p.error;
				rules = 0;
				refused = false;
			} else {
				uint32_t mask = (rng() % 4 == 0) ? rng() : kOwnerMask;
				uint32_t value = (rng() % 4 == 0) ? rng() : (rng() & mask);
				uint16_t queue =
					static_cast<uint16_t>(rng() % 4 == 0 ? rng() % 3 : 0);
				bool valid =
					mask != 0 && (value & ~mask) == 0 && queue < p.nb_queues;
				int ret = dpsctp_port_flow_vtag(&p, mask, value, queue, nullptr);
				if (!valid) {
					ASSERT_EQ(ret, -EINVAL) << "step " << step;
				} else {
					ASSERT_TRUE(ret == 0 || ret == -ENOTSUP) << ret;
					if (verdict == 1)
						verdict = ret;
					ASSERT_EQ(ret, verdict) << "step " << step;
					if (ret == 0)
						rules += DPSCTP_PORT_FLOW_VTAG_RULES;
					else
						refused = true;
				}
			}
			ASSERT_EQ(dpsctp_port_flow_rules(&p), rules) << "step " << step;
			ASSERT_EQ(dpsctp_port_flow_hw(&p), rules > 0 && !refused)
				<< "step " << step;
		}
	}
	EXPECT_EQ(dpsctp_port_flow_flush(&p), 0) << p.error;
	EXPECT_EQ(P.close(), 0) << p.error;
}

TEST(FlowTap, TagRuleInstalledOrRefused)
{
	REQUIRE_EAL();
	DPSCTP_PREREQ(geteuid() == 0, "needs root to create a tap interface");
	int fd = open("/dev/net/tun", O_RDWR);
	DPSCTP_PREREQ(fd >= 0, "/dev/net/tun cannot be opened: " << std::strerror(errno));
	close(fd);
	std::string pid = std::to_string(getpid());
	std::string ifname = "dpft" + pid;
	std::string devargs = "net_tap_f" + pid + ",iface=" + ifname;
	PortGuard P;
	// Two queues when the tap gives them, so that a rule to queue 1 is tried.
	dpsctp_port_conf c = conf_for(devargs, 2);
	ASSERT_EQ(dpsctp_port_open(&c, &P.port), 0) << P.port.error;
	P.open = true;
	EXPECT_STREQ(P.port.driver, "net_tap");
	steer_then_flush(P.port, 4);
	EXPECT_EQ(P.close(), 0) << P.port.error;
	std::string cmd = "ip link show " + ifname + " >/dev/null 2>&1";
	EXPECT_NE(std::system(cmd.c_str()), 0) << "the tap interface outlived the port";
}

} // namespace
