/* SPDX-License-Identifier: BSD-3-Clause */
// Shared set-up for the runtime's [dp] tests: one EAL per process (no
// hugepages, no PCI, in memory) and net_ring port pairs made with
// rte_eth_from_rings(), whose rings a test may also write to directly (bad
// input) or cross between queues (hand-off).
#ifndef DPSCTP_DATAPLANE_TESTS_DP_ENV_H
#define DPSCTP_DATAPLANE_TESTS_DP_ENV_H

#include <gtest/gtest.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include <string>
#include <vector>

extern "C" {
#include "dataplane/config.h"
#include "dataplane/dpsctp.h"
}

class DpEal : public ::testing::Environment {
      public:
	void SetUp() override
	{
		// --in-memory is refused with --no-huge in DPDK 22.11; --no-shconf
		// keeps the runtime files away.
		static const char *args[] = {
			"dp_test",	 "--no-huge", "--no-pci", "--no-shconf", "-m",
			"1024",		 "-l",	      "0-1",	  "--log-level", "lib.eal:error",
			"--no-telemetry"
		};
		std::vector<char *> argv;
		for (const char *a : args)
			argv.push_back(const_cast<char *>(a));
		ASSERT_GE(dpsctp_eal_init((int)argv.size(), argv.data()), 0)
			<< "EAL did not start: " << rte_strerror(rte_errno);
	}
	void TearDown() override
	{
		rte_eal_cleanup();
	}
};

// Two ethdevs joined by rings: what a sends on queue q, b receives on
// queue map_ab[q] (and the reverse with map_ba). The identity maps make a
// plain pair; a crossed map sends one side's packets to the other's other
// worker.
struct RingLink {
	std::string name_a, name_b;
	std::vector<rte_ring *> ab, ba; // ab[q]: a's tx queue q == b's rx queue map(q)
	int a = -1, b = -1;

	RingLink(const std::string &tag, unsigned nq, const std::vector<unsigned> &map_ab = {},
		 const std::vector<unsigned> &map_ba = {})
	{
		name_a = "dpa" + tag;
		name_b = "dpb" + tag;
		std::vector<rte_ring *> a_rx(nq), a_tx(nq), b_rx(nq), b_tx(nq);
		for (unsigned q = 0; q < nq; q++) {
			ab.push_back(rte_ring_create(("ab" + tag + std::to_string(q)).c_str(), 4096,
						     SOCKET_ID_ANY, 0));
			ba.push_back(rte_ring_create(("ba" + tag + std::to_string(q)).c_str(), 4096,
						     SOCKET_ID_ANY, 0));
		}
		for (unsigned q = 0; q < nq; q++) {
			a_tx[q] = ab[q];
			b_rx[map_ab.empty() ? q : map_ab[q]] = ab[q];
			b_tx[q] = ba[q];
			a_rx[map_ba.empty() ? q : map_ba[q]] = ba[q];
		}
		a = rte_eth_from_rings(name_a.c_str(), a_rx.data(), nq, a_tx.data(), nq,
				       SOCKET_ID_ANY);
		b = rte_eth_from_rings(name_b.c_str(), b_rx.data(), nq, b_tx.data(), nq,
				       SOCKET_ID_ANY);
		// The ethdevs are named "net_ring_<name>": keep those names.
		char n[RTE_ETH_NAME_MAX_LEN];
		if (a >= 0 && rte_eth_dev_get_name_by_port((uint16_t)a, n) == 0)
			name_a = n;
		if (b >= 0 && rte_eth_dev_get_name_by_port((uint16_t)b, n) == 0)
			name_b = n;
	}
	// Free the frames still on the wire. A test calls it before it destroys
	// the instances: an instance whose pool still has mbufs out (a test that
	// failed half way left them in a ring) keeps the pool, and its name,
	// which the next test's instance on the same port id then cannot take.
	void drain()
	{
		for (auto *v : { &ab, &ba })
			for (rte_ring *r : *v) {
				void *m;
				while (r != nullptr && rte_ring_dequeue(r, &m) == 0)
					rte_pktmbuf_free((rte_mbuf *)m);
			}
	}
	~RingLink()
	{
		for (int id : { a, b })
			if (id >= 0 && rte_eth_dev_is_valid_port((uint16_t)id))
				rte_eth_dev_close((uint16_t)id);
		drain();
		for (auto *v : { &ab, &ba })
			for (rte_ring *r : *v)
				rte_ring_free(r);
	}
};

// A small configuration for one side of a test.
// The IPv4 header checksum (RFC 791) of n bytes, for frames a test builds.
static inline uint16_t
ip_csum(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static inline dpsctp_config
dp_test_config(const std::string &ethdev, const char *ip, unsigned queues, uint16_t sctp_port)
{
	dpsctp_config c;
	char err[256];
	dpsctp_config_defaults(&c);
	EXPECT_EQ(dpsctp_config_set(&c, "port", ("ethdev:" + ethdev).c_str(), err, sizeof(err)), 0)
		<< err;
	EXPECT_EQ(dpsctp_config_set(&c, "ip", ip, err, sizeof(err)), 0) << err;
	EXPECT_EQ(dpsctp_config_set(&c, "queues", std::to_string(queues).c_str(), err, sizeof(err)),
		  0)
		<< err;
	EXPECT_EQ(dpsctp_config_set(&c, "max-assocs", "64", err, sizeof(err)), 0) << err;
	EXPECT_EQ(dpsctp_config_set(&c, "max-handshakes", "64", err, sizeof(err)), 0) << err;
	EXPECT_EQ(dpsctp_config_set(&c, "mbufs", "16384", err, sizeof(err)), 0) << err;
	if (sctp_port != 0) {
		EXPECT_EQ(dpsctp_config_set(&c, "sctp-port", std::to_string(sctp_port).c_str(), err,
					    sizeof(err)),
			  0)
			<< err;
	}
	return c;
}

// Every non-zero counter of every worker, for failure messages.
static inline std::string
dp_test_counters(const dpsctp *d)
{
	std::string out;
	for (unsigned w = 0; w < dpsctp_workers(d); w++)
		for (unsigned i = 0;; i++) {
			const char *name;
			uint64_t v = dpsctp_worker_counter(d, w, i, &name);
			if (name == nullptr)
				break;
			if (v != 0)
				out += " w" + std::to_string(w) + "." + name + "=" +
				       std::to_string(v);
		}
	return out;
}

#endif
