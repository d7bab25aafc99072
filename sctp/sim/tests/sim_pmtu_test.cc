// SPDX-License-Identifier: BSD-3-Clause
// Path MTU discovery in the pair simulation (suite sim, docs/PMTU.md):
// the hop between the two associations drops from 1500 to 1280 bytes in
// the middle of a transfer of 64 KiB messages both ways (sctp/sim/pmtu_run.h).
//
//   IcmpRecovers       the hop answers with ICMP: PMTUD lowers the MTU, the
//                      DATA already sent too large is resent IP-fragmented,
//                      everything arrives, nothing fails.
//   SilentFoundByPlpmtud  the hop drops silently: PLPMTUD's black-hole check
//                      and search find 1280 (within its 4-byte step).
//   SilentWithoutPlpmtudFails  the same without PLPMTUD: the messages after
//                      the drop never arrive (what the two above are
//                      measured against).
//   RaiseTimerFindsGrowth  the hop grows back to 1500: the raise timer's
//                      search finds it.
//   IcmpLoweredMtuExpires  with ICMP only, a lowered MTU is tried at the
//                      interface MTU again after the raise timer.
//   BogusIcmpIgnored   a wrong tag, a TSN not outstanding, an MTU not lower
//                      and a tiny one: each counted, none obeyed past the floor.
//   ProbeLossNoErrors  probes lost on an idle association move no error
//                      counter and cause no T3-rtx.
//   DcFewProbesAfterDiscovery  with the dc profile on a lossy link, T3-rtx
//                      confirming the PLPMTU do not keep a failing size probed.
#include <gtest/gtest.h>

#include "sctp/sim/pmtu_run.h"

namespace {

using pmtu_sim::Config;
using pmtu_sim::Result;
using PmtuRun = pmtu_sim::Run;

void
expect_ok(const Result &r)
{
	EXPECT_TRUE(r.ok) << r.why;
	EXPECT_EQ(r.lost_notes, 0u);
	EXPECT_EQ(r.bytes[0], uint64_t(r.bytes[1]));
}

TEST(SimPmtu, IcmpRecovers)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		Config c;
		c.seed = seed;
		c.plpmtud = false;
		c.steps = { { SCTP_MS(500), 1280, true } };
		PmtuRun run(c);
		Result r = run.go();
		expect_ok(r);
		for (unsigned i = 0; i < 2; i++) {
			EXPECT_GE(r.counters[i].icmp_pmtu_applied, 1u) << "side " << i;
			EXPECT_EQ(r.counters[i].icmp_pmtu_bad_tsn, 0u);
			EXPECT_EQ(r.final_mtu[i], 1280) << "side " << i;
			EXPECT_GE(r.mtu_notes[i], 1u);
			EXPECT_GE(r.counters[i].pmtu_rtx_marked, 1u);
			// Only the chunks cut before the drop ever go fragmented.
			EXPECT_GE(r.counters[i].pmtu_frag_rtx, 1u);
		}
		EXPECT_GE(r.icmp, 2u);
		EXPECT_GE(r.fragmented, 1u);
		// Recovery in a few round trips (25 ms one way), not at a backed-off T3-rtx.
		EXPECT_LT(r.recover_ns[0], SCTP_S(2)) << r.recover_ns[0];
	}
}

TEST(SimPmtu, SilentFoundByPlpmtud)
{
	for (uint64_t seed = 1; seed <= 2; seed++) {
		Config c;
		c.seed = seed;
		c.steps = { { SCTP_MS(500), 1280, false } };
		c.linger_ns = SCTP_S(30); // the search goes on after the data: see it end
		PmtuRun run(c);
		Result r = run.go();
		expect_ok(r);
		EXPECT_EQ(r.icmp, 0u);
		EXPECT_GE(r.dropped, 1u);
		for (unsigned i = 0; i < 2; i++) {
			EXPECT_LE(r.final_mtu[i], 1280) << "side " << i;
			EXPECT_GT(r.final_mtu[i], 1280 - 4) << "side " << i;
			EXPECT_GE(r.counters[i].plpmtud_black_holes, 1u);
			EXPECT_GE(r.counters[i].plpmtud_probes_lost, 3u);
		}
	}
}

TEST(SimPmtu, SilentWithoutPlpmtudFails)
{
	Config c;
	c.plpmtud = false;
	c.messages = 20;
	c.steps = { { SCTP_MS(500), 1280, false } };
	PmtuRun run(c);
	Result r = run.go();
	// The classic black hole: retransmissions too large for the hop, forever
	// (the heartbeats' small packets keep the path alive), until the harness's
	// deadline; nothing after the drop is delivered.
	EXPECT_FALSE(r.ok);
	EXPECT_EQ(r.t_done, 0u) << r.why;
	EXPECT_EQ(r.recover_ns[0], 0u);
}

TEST(SimPmtu, RaiseTimerFindsGrowth)
{
	Config c;
	c.raise_ns = SCTP_S(20);
	c.messages = 40;
	c.steps = { { SCTP_MS(500), 1280, false }, { SCTP_S(30), 1500, false } };
	c.linger_ns = SCTP_S(120);
	PmtuRun run(c);
	Result r = run.go();
	expect_ok(r);
	for (unsigned i = 0; i < 2; i++) {
		EXPECT_EQ(r.final_mtu[i], 1500) << "side " << i;
		EXPECT_GE(r.counters[i].pmtu_increases, 1u);
	}
}

// ICMP only: the MTU an ICMP lowered goes back up after the raise timer
// (RFC 8201 §4), and stays there once the hop grew.
TEST(SimPmtu, IcmpLoweredMtuExpires)
{
	Config c;
	c.plpmtud = false;
	c.raise_ns = SCTP_S(30);
	c.messages = 40;
	c.steps = { { SCTP_MS(500), 1280, true }, { SCTP_S(10), 1500, true } };
	c.linger_ns = SCTP_S(60);
	PmtuRun run(c);
	Result r = run.go();
	expect_ok(r);
	for (unsigned i = 0; i < 2; i++) {
		EXPECT_GE(r.counters[i].icmp_pmtu_applied, 1u);
		EXPECT_EQ(r.counters[i].pmtu_increases, 1u);
		EXPECT_EQ(r.final_mtu[i], 1500) << "side " << i;
	}
}

// An ICMP Fragmentation Needed for side 0's association, quoting `chunk`.
struct sctp_icmp
frag_needed(uint32_t vtag, uint32_t mtu, std::vector<uint8_t> &q)
{
	struct sctp_icmp e = {};
	e.kind = SCTP_ICMP_FRAG_NEEDED;
	e.mtu = mtu;
	e.vtag = vtag;
	e.quote = q.data();
	e.quote_len = (uint32_t)q.size();
	const uint8_t peer[4] = { 10, 0, 0, 2 };
	e.peer = sctp_addr_v4(peer);
	return e;
}

TEST(SimPmtu, BogusIcmpIgnored)
{
	Config c;
	c.plpmtud = false;
	c.messages = 4;
	PmtuRun run(c);
	struct sctp_assoc *a = run.assoc(0);
	const uint32_t tag = a->peer_vtag;
	// Common header with the peer's tag, then a DATA chunk with TSN 5 (never sent).
	std::vector<uint8_t> data_q = { 0x13,
					0x89,
					0x13,
					0x89,
					uint8_t(tag >> 24),
					uint8_t(tag >> 16),
					uint8_t(tag >> 8),
					uint8_t(tag),
					0,
					0,
					0,
					0,
					0,
					3,
					0,
					32,
					0,
					0,
					0,
					5 };
	std::vector<uint8_t> hb_q = { 0x13,
				      0x89,
				      0x13,
				      0x89,
				      uint8_t(tag >> 24),
				      uint8_t(tag >> 16),
				      uint8_t(tag >> 8),
				      uint8_t(tag),
				      0,
				      0,
				      0,
				      0,
				      4,
				      0,
				      0,
				      28 };
	const struct sctp_assoc_counters &k = *a->counters;
	struct sctp_icmp e = frag_needed(0xdeadbeef, 1280, hb_q);
	EXPECT_EQ(sctp_assoc_icmp(a, &e, run.now()), -EINVAL);
	EXPECT_EQ(k.icmp_bad_tag, 1u);
	e = frag_needed(tag, 1280, data_q);
	EXPECT_EQ(sctp_assoc_icmp(a, &e, run.now()), -EINVAL);
	EXPECT_EQ(k.icmp_pmtu_bad_tsn, 1u);
	e = frag_needed(tag, 1600, hb_q);
	EXPECT_EQ(sctp_assoc_icmp(a, &e, run.now()), 0);
	EXPECT_EQ(k.icmp_pmtu_not_lower, 1u);
	EXPECT_EQ(sctp_assoc_path_mtu(a, 0, nullptr), 1500);
	EXPECT_EQ(k.icmp_pmtu_applied, 0u);
	// Tiny: the IPv4 floor (576), never below.
	e = frag_needed(tag, 68, hb_q);
	EXPECT_EQ(sctp_assoc_icmp(a, &e, run.now()), 0);
	EXPECT_EQ(k.icmp_pmtu_too_small, 1u);
	EXPECT_EQ(k.icmp_pmtu_applied, 1u);
	EXPECT_EQ(sctp_assoc_path_mtu(a, 0, nullptr), 576);
	// Never raised by ICMP.
	e = frag_needed(tag, 1400, hb_q);
	EXPECT_EQ(sctp_assoc_icmp(a, &e, run.now()), 0);
	EXPECT_EQ(k.icmp_pmtu_not_lower, 2u);
	EXPECT_EQ(sctp_assoc_path_mtu(a, 0, nullptr), 576);
	// The user's fixed MTU: ICMP no longer touches it; 0 gives discovery back.
	EXPECT_EQ(sctp_assoc_set_path_mtu(a, 0, 1400), 0);
	bool fixed = false;
	EXPECT_EQ(sctp_assoc_path_mtu(a, 0, &fixed), 1400);
	EXPECT_TRUE(fixed);
	e = frag_needed(tag, 1280, hb_q);
	uint64_t ignored = k.icmp_ignored;
	EXPECT_EQ(sctp_assoc_icmp(a, &e, run.now()), 0);
	EXPECT_EQ(k.icmp_ignored, ignored + 1);
	EXPECT_EQ(sctp_assoc_path_mtu(a, 0, nullptr), 1400);
	EXPECT_EQ(sctp_assoc_set_path_mtu(a, 0, 100), -EINVAL);
	EXPECT_EQ(sctp_assoc_set_path_mtu(a, 0, 1600), -EINVAL);
	EXPECT_EQ(sctp_assoc_set_path_mtu(a, 3, 1400), -EINVAL);
	EXPECT_EQ(sctp_assoc_set_path_mtu(a, 0, 0), 0);
	EXPECT_EQ(sctp_assoc_path_mtu(a, 0, &fixed), 1500);
	EXPECT_FALSE(fixed);
	// Data still flows at the MTU left.
	Result r = run.go();
	expect_ok(r);
}

TEST(SimPmtu, ProbeLossNoErrors)
{
	// Found at 1280, then the raise timer probes 1500 and up from 1280 on an
	// idle association whose hop drops them: every probe lost, no error.
	Config c;
	c.raise_ns = SCTP_S(10);
	c.messages = 8;
	c.steps = { { SCTP_MS(300), 1280, false } };
	c.linger_ns = SCTP_S(60);
	PmtuRun run(c);
	Result r = run.go();
	expect_ok(r);
	EXPECT_GE(r.probes_lost_after_done, 3u);
	EXPECT_EQ(r.errors_after_done, 0u);
	EXPECT_EQ(r.t3_after_done, 0u);
	for (unsigned i = 0; i < 2; i++)
		EXPECT_LE(r.final_mtu[i], 1280);
}

TEST(SimPmtu, DcFewProbesAfterDiscovery)
{
	// The dc profile (500 us RTO.min, 10 ms PROBE_TIMER): a silent drop to
	// 1280 in a transfer over a link losing 20 % of its packets, so T3-rtx
	// expire every few round trips. Each asks for a confirmation of the
	// PLPMTU (RFC 8899 §4.3); once the PLPMTU reached the hop, the probes
	// the hop refuses are the rest of the search: at most MAX_PROBES of the
	// one size left to fail, however many T3-rtx come (the raise timer, 600
	// s, does not). A confirmation that restarted the failing size's count
	// kept it probed every PROBE_TIMER for as long as T3-rtx came (10 to 29
	// probes in these runs; 165 in 1.9 s on a loaded namespace link).
	// A side whose confirmations were all lost three times in a row took the
	// loss for a black hole and searched again (from BASE_PLPMTU, or from the
	// top after BASE too went unanswered): the count stops at a black hole.
	unsigned found = 0;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		Config c;
		c.profile = &sctp_profile_dc;
		c.seed = seed;
		c.messages = 60;
		c.loss_ppb = 200000000;
		c.steps = { { SCTP_MS(20), 1280, false } };
		c.linger_ns = SCTP_S(2);
		PmtuRun run(c);
		Result r = run.go();
		expect_ok(r);
		for (unsigned i = 0; i < 2; i++) {
			if (r.t_found[i] == 0)
				continue;
			found++;
			EXPECT_LE(r.over_probes_after_found[i], SCTP_PLPMTUD_MAX_PROBES)
				<< "seed " << seed << " side " << i;
		}
	}
	EXPECT_GE(found, 2u);
}

} // namespace
