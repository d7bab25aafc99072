// SPDX-License-Identifier: BSD-3-Clause
// Congestion control (sctp/cc.h, sctp/cc_rfc9260.c; RFC 9260 §6.1 B and D,
// §7.2.1 to §7.2.4, §6.2.1 D iv). One test per rule with cwnd, ssthresh and
// partial_bytes_acked computed by hand in the comments; a sender/receiver
// loop checked against the worked growth of slow start; the parameter sets
// and their check; the dispatch table, cell by cell, and each entry point
// against a direct call of its ops; a randomized run of every event against
// a reference model written from the RFC text in 64-bit arithmetic, with
// the invariants of cc.h checked after each step (seed printed on failure).
//
// PMDCS values used: 1468 (IPv4, 1500-byte MTU: 1500 - 20 IP - 12 SCTP
// common header), 1448 (IPv6: 1500 - 40 - 12), 1228 (IPv6 minimum MTU 1280).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "sctp/cc.h"
}

namespace {

const struct sctp_cc_params &RFC = sctp_cc_params_rfc;
const struct sctp_cc_params &DC = sctp_cc_params_dc;

constexpr uint32_t P = 1468; // PMDCS of an IPv4 path at MTU 1500

struct sctp_cc_path
fresh(const struct sctp_cc_params &p = RFC, uint16_t pmdcs = P, uint8_t family = SCTP_ADDR_V4)
{
	struct sctp_cc_path s;
	std::memset(&s, 0xa5, sizeof(s)); // init must write every field
	sctp_cc_init(&s, &p, pmdcs, family);
	return s;
}

// A state in the middle of a transfer, for rules that need one.
struct sctp_cc_path
state(uint32_t cwnd, uint32_t ssthresh, uint32_t pba = 0, uint16_t pmdcs = P)
{
	struct sctp_cc_path s = fresh(RFC, pmdcs);
	s.cwnd = cwnd;
	s.ssthresh = ssthresh;
	s.partial_bytes_acked = pba;
	return s;
}

struct sctp_cc_sack
sack(uint32_t acked, uint32_t flight_before, uint32_t flight_after, bool in_fr = false,
     uint32_t dup = 0, bool cum_advanced = true)
{
	struct sctp_cc_sack ev = {};
	ev.bytes_acked = acked;
	ev.bytes_dup = dup;
	ev.flight_before = flight_before;
	ev.flight_after = flight_after;
	ev.cum_tsn_advanced = cum_advanced;
	ev.in_fast_recovery = in_fr;
	return ev;
}

void
on_sack(struct sctp_cc_path *s, const struct sctp_cc_sack &ev, const struct sctp_cc_params &p = RFC)
{
	sctp_cc_on_sack(s, &p, &ev);
}

} // namespace

// ---------------------------------------------------------------------------
// §7.2.1 initial values

TEST(CcInit, Ipv4InitialCwnd)
{
	// min(4 * 1468, max(2 * 1468, 4404)) = min(5872, max(2936, 4404)) = 4404
	struct sctp_cc_path s = fresh(RFC, 1468, SCTP_ADDR_V4);
	EXPECT_EQ(s.cwnd, 4404u);
	EXPECT_EQ(s.ssthresh, UINT32_MAX); // "arbitrarily high"
	EXPECT_EQ(s.partial_bytes_acked, 0u);
	EXPECT_EQ(s.pmdcs, 1468u);
	EXPECT_EQ(s.flags, 0u);
	EXPECT_EQ(s.reserved, 0u);
}

TEST(CcInit, Ipv6InitialCwnd)
{
	// min(4 * 1448, max(2 * 1448, 4344)) = min(5792, max(2896, 4344)) = 4344
	struct sctp_cc_path s = fresh(RFC, 1448, SCTP_ADDR_V6);
	EXPECT_EQ(s.cwnd, 4344u);
	// The IPv6 constant differs: at PMDCS 1448 on IPv4 it would be
	// min(5792, max(2896, 4404)) = 4404.
	EXPECT_EQ(fresh(RFC, 1448, SCTP_ADDR_V4).cwnd, 4404u);
}

TEST(CcInit, SmallPmdcsTakesFourPackets)
{
	// 1000: min(4000, max(2000, 4404)) = 4000; IPv6 minimum MTU, 1228:
	// min(4912, max(2456, 4344)) = 4344.
	EXPECT_EQ(fresh(RFC, 1000).cwnd, 4000u);
	EXPECT_EQ(fresh(RFC, 1228, SCTP_ADDR_V6).cwnd, 4344u);
}

TEST(CcInit, LargePmdcsTakesTwoPackets)
{
	// Jumbo frame, IPv4 MTU 9000: PMDCS 8968.
	// min(35872, max(17936, 4404)) = 17936 = 2 * 8968.
	EXPECT_EQ(fresh(RFC, 8968).cwnd, 17936u);
	// Largest PMDCS: min(262140, max(131070, 4404)) = 131070.
	EXPECT_EQ(fresh(RFC, 65535).cwnd, 131070u);
}

TEST(CcInit, DataCenterOverride)
{
	// 10 * 1468 = 14680, whatever the family.
	EXPECT_EQ(fresh(DC, 1468).cwnd, 14680u);
	EXPECT_EQ(fresh(DC, 1448, SCTP_ADDR_V6).cwnd, 14480u);
	EXPECT_EQ(fresh(DC, 1468).ssthresh, UINT32_MAX);
}

TEST(CcInit, ZeroPmdcsIsOne)
{
	// min(4, max(2, 4404)) = 4: degenerate, but cwnd >= pmdcs holds.
	struct sctp_cc_path s = fresh(RFC, 0);
	EXPECT_EQ(s.pmdcs, 1u);
	EXPECT_EQ(s.cwnd, 4u);
}

// ---------------------------------------------------------------------------
// §7.2.1 slow start

TEST(CcSlowStart, GrowsByBytesAckedBelowTheLimit)
{
	// cwnd 4404 <= ssthresh, flight 4404 >= cwnd, 1000 acked < 1 * 1468:
	// cwnd = 4404 + 1000 = 5404.
	struct sctp_cc_path s = fresh();
	on_sack(&s, sack(1000, 4404, 3404));
	EXPECT_EQ(s.cwnd, 5404u);
	EXPECT_EQ(s.ssthresh, UINT32_MAX);
	EXPECT_EQ(s.partial_bytes_acked, 0u);
}

TEST(CcSlowStart, GrowthLimitedToLTimesPmdcs)
{
	// L = 1: 2936 acked (two chunks), cwnd = 4404 + min(2936, 1468) = 5872.
	struct sctp_cc_path s = fresh();
	on_sack(&s, sack(2936, 4404, 1468));
	EXPECT_EQ(s.cwnd, 5872u);

	// L = 4 (DC): cwnd 14680, 4 chunks acked: + min(5872, 4 * 1468) = 20552;
	// then 6 chunks: + min(8808, 5872) = 26424.
	struct sctp_cc_path d = fresh(DC);
	on_sack(&d, sack(5872, 14680, 8808), DC);
	EXPECT_EQ(d.cwnd, 20552u);
	on_sack(&d, sack(8808, 20552, 11744), DC);
	EXPECT_EQ(d.cwnd, 26424u);
}

TEST(CcSlowStart, OnlyWhenTheWindowIsFullyUsed)
{
	// flight before 4403 < cwnd 4404: "only if the current congestion
	// window is being fully utilized"; cwnd stays 4404.
	struct sctp_cc_path s = fresh();
	on_sack(&s, sack(1468, 4403, 2935));
	EXPECT_EQ(s.cwnd, 4404u);
	// Rule B overbooking: flight 5871 = cwnd + PMDCS - 1 counts as full:
	// 4404 + 1468 = 5872.
	on_sack(&s, sack(1468, 5871, 4403));
	EXPECT_EQ(s.cwnd, 5872u);
}

TEST(CcSlowStart, NotInFastRecovery)
{
	// "and the data sender is not in Fast Recovery": cwnd stays 4404.
	struct sctp_cc_path s = fresh();
	on_sack(&s, sack(1468, 4404, 2936, true));
	EXPECT_EQ(s.cwnd, 4404u);
}

TEST(CcSlowStart, GapAcksGrowWithoutCumulativeAdvance)
{
	// RFC 9260 has two conditions, not RFC 4960's three: a SACK that only
	// gap-acks 1468 bytes still grows cwnd 4404 -> 5872.
	struct sctp_cc_path s = fresh();
	on_sack(&s, sack(1468, 4404, 2936, false, 0, false));
	EXPECT_EQ(s.cwnd, 5872u);
}

TEST(CcSlowStart, AtSsthreshStillSlowStart)
{
	// cwnd == ssthresh is slow start ("less than or equal"): 5872 + min(1000,
	// 1468) = 6872, pba untouched at 0.
	struct sctp_cc_path s = state(5872, 5872);
	on_sack(&s, sack(1000, 5872, 4872));
	EXPECT_EQ(s.cwnd, 6872u);
	EXPECT_EQ(s.partial_bytes_acked, 0u);
}

TEST(CcSlowStart, DuplicatesDoNotCount)
{
	// Slow start counts "previously outstanding DATA chunk(s) acknowledged":
	// 500 acked + 3000 duplicate bytes -> cwnd 4404 + 500 = 4904.
	struct sctp_cc_path s = fresh();
	on_sack(&s, sack(500, 4404, 3904, false, 3000));
	EXPECT_EQ(s.cwnd, 4904u);
}

// A sender that refills the window after every SACK, the receiver SACKing
// every packet, full 1468-byte chunks, no loss, RFC parameters. Round 0:
// window 4404 (Max.Burst 4 * 1468 = 5872 does not bind) -> 3 packets.
// Every SACK then acks 1468 with flight == cwnd before it, so cwnd grows by
// 1468 and two packets go out: cwnd after k SACKs = 4404 + 1468 k, and the
// flight after the refill equals cwnd again. One RTT (3 SACKs) doubles
// 4404 to 8808: slow start.
TEST(CcSlowStart, WorkedExampleDoublesPerRoundTrip)
{
	struct sctp_cc_path s = fresh();
	uint32_t flight = 0;
	auto refill = [&]() {
		struct sctp_cc_window w = sctp_cc_window(&s, &RFC, flight, true);
		uint32_t sent = 0, pkts = 0;
		while (sctp_cc_window_allows(&w, sent, pkts)) {
			sent += P;
			pkts++;
		}
		flight += sent;
		return pkts;
	};
	EXPECT_EQ(refill(), 3u);
	EXPECT_EQ(flight, 4404u);
	for (uint32_t k = 1; k <= 20; k++) {
		on_sack(&s, sack(P, flight, flight - P));
		flight -= P;
		ASSERT_EQ(s.cwnd, 4404u + P * k) << "after SACK " << k;
		ASSERT_EQ(refill(), 2u) << "after SACK " << k;
		ASSERT_EQ(flight, s.cwnd);
	}
	// 3 SACKs: 4404 + 3 * 1468 = 8808 = 2 * 4404.
	EXPECT_EQ(4404u + 3 * P, 2 * 4404u);
}

// ---------------------------------------------------------------------------
// §7.2.2 congestion avoidance

// cwnd 7340 = 5 * 1468 above ssthresh 5872.
TEST(CcAvoidance, PartialBytesAckedThenOnePmdcs)
{
	struct sctp_cc_path s = state(7340, 5872);
	// pba 0 + 2936 = 2936 < 7340: no change.
	on_sack(&s, sack(2936, 7340, 4404));
	EXPECT_EQ(s.cwnd, 7340u);
	EXPECT_EQ(s.partial_bytes_acked, 2936u);
	// 2936 + 2936 = 5872 < 7340.
	on_sack(&s, sack(2936, 7340, 4404));
	EXPECT_EQ(s.partial_bytes_acked, 5872u);
	// 5872 + 2936 = 8808 >= 7340, flight 7340 >= 7340:
	// pba = 8808 - 7340 = 1468, then cwnd = 7340 + 1468 = 8808.
	on_sack(&s, sack(2936, 7340, 4404));
	EXPECT_EQ(s.partial_bytes_acked, 1468u);
	EXPECT_EQ(s.cwnd, 8808u);
	EXPECT_EQ(s.ssthresh, 5872u);
}

TEST(CcAvoidance, ExactlyCwndCounts)
{
	// pba 4404 + 2936 = 7340 == cwnd, flight 7340: "equal to or greater":
	// pba 0, cwnd 8808.
	struct sctp_cc_path s = state(7340, 5872, 4404);
	on_sack(&s, sack(2936, 7340, 4404));
	EXPECT_EQ(s.partial_bytes_acked, 0u);
	EXPECT_EQ(s.cwnd, 8808u);
}

TEST(CcAvoidance, NotFullyUsedResetsToCwnd)
{
	// pba 5872 + 2936 = 8808 > 7340 but flight 7000 < 7340: pba = cwnd =
	// 7340, cwnd unchanged.
	struct sctp_cc_path s = state(7340, 5872, 5872);
	on_sack(&s, sack(2936, 7000, 4064));
	EXPECT_EQ(s.partial_bytes_acked, 7340u);
	EXPECT_EQ(s.cwnd, 7340u);
	// The next SACK with a full window: 7340 + 100 >= 7340, flight 7340:
	// pba = 7440 - 7340 = 100, cwnd 8808.
	on_sack(&s, sack(100, 7340, 7240));
	EXPECT_EQ(s.partial_bytes_acked, 100u);
	EXPECT_EQ(s.cwnd, 8808u);
}

TEST(CcAvoidance, NotFullyUsedBelowCwndAccumulates)
{
	// pba 1000 + 2936 = 3936 <= 7340 with flight 5000: kept, no growth.
	struct sctp_cc_path s = state(7340, 5872, 1000);
	on_sack(&s, sack(2936, 5000, 2064));
	EXPECT_EQ(s.partial_bytes_acked, 3936u);
	EXPECT_EQ(s.cwnd, 7340u);
}

TEST(CcAvoidance, GapAcksAndDuplicatesCount)
{
	// No cumulative advance, 1468 gap-acked + 1468 duplicate: pba 0 + 2936.
	struct sctp_cc_path s = state(7340, 5872);
	on_sack(&s, sack(1468, 7340, 5872, false, 1468, false));
	EXPECT_EQ(s.partial_bytes_acked, 2936u);
}

TEST(CcAvoidance, AllAcknowledgedResetsPba)
{
	// pba 3000 + 2936 = 5936 < 7340, then flight after 0: pba 0.
	struct sctp_cc_path s = state(7340, 5872, 3000);
	on_sack(&s, sack(2936, 2936, 0));
	EXPECT_EQ(s.partial_bytes_acked, 0u);
	EXPECT_EQ(s.cwnd, 7340u);
	// The increase is earned before the reset: pba 6000 + 7340 = 13340,
	// flight 7340: pba 6000, cwnd 8808, then all acked: pba 0.
	s = state(7340, 5872, 6000);
	on_sack(&s, sack(7340, 7340, 0));
	EXPECT_EQ(s.cwnd, 8808u);
	EXPECT_EQ(s.partial_bytes_acked, 0u);
}

TEST(CcAvoidance, LeftoverBoundedByNewCwnd)
{
	// A retransmitted chunk reported both acked and duplicate can push the
	// leftover past the new cwnd: pba 7000 + 7340 + 7340 = 21680 - 7340 =
	// 14340 > new cwnd 8808: kept at 8808 (ours, cc_rfc9260.c).
	struct sctp_cc_path s = state(7340, 5872, 7000);
	on_sack(&s, sack(7340, 7340, 1, false, 7340));
	EXPECT_EQ(s.cwnd, 8808u);
	EXPECT_EQ(s.partial_bytes_acked, 8808u);
}

TEST(CcAvoidance, FastRecoveryDoesNotFreezeAvoidance)
{
	// §7.2.1 forbids slow start in Fast Recovery; §7.2.2 has no such
	// condition: pba 6000 + 2936 = 8936 >= 7340, flight 7340 -> pba 1596,
	// cwnd 8808.
	struct sctp_cc_path s = state(7340, 5872, 6000);
	on_sack(&s, sack(2936, 7340, 4404, true));
	EXPECT_EQ(s.partial_bytes_acked, 1596u);
	EXPECT_EQ(s.cwnd, 8808u);
}

// ---------------------------------------------------------------------------
// §7.2.3 and §7.2.4 loss

TEST(CcLoss, FastRetransmitHalves)
{
	// cwnd 20000: ssthresh = max(10000, 5872) = 10000, cwnd = 10000, pba 0.
	struct sctp_cc_path s = state(20000, 15000, 4000);
	sctp_cc_on_fast_retransmit(&s, &RFC, false);
	EXPECT_EQ(s.ssthresh, 10000u);
	EXPECT_EQ(s.cwnd, 10000u);
	EXPECT_EQ(s.partial_bytes_acked, 0u);
}

TEST(CcLoss, FastRetransmitFloorIsFourPmdcs)
{
	// Initial cwnd 4404: ssthresh = max(2202, 5872) = 5872 and cwnd =
	// ssthresh = 5872, above the 4404 it had (the formula's result).
	struct sctp_cc_path s = fresh();
	sctp_cc_on_fast_retransmit(&s, &RFC, false);
	EXPECT_EQ(s.ssthresh, 5872u);
	EXPECT_EQ(s.cwnd, 5872u);
	// Odd cwnd: 20001 / 2 = 10000 (rounded down).
	s = state(20001, UINT32_MAX);
	sctp_cc_on_fast_retransmit(&s, &RFC, false);
	EXPECT_EQ(s.cwnd, 10000u);
}

TEST(CcLoss, NoFurtherReductionInFastRecovery)
{
	// Rule 6: in Fast Recovery nothing changes: 20000 / 15000 / 4000 stay.
	struct sctp_cc_path s = state(20000, 15000, 4000);
	sctp_cc_on_fast_retransmit(&s, &RFC, true);
	EXPECT_EQ(s.cwnd, 20000u);
	EXPECT_EQ(s.ssthresh, 15000u);
	EXPECT_EQ(s.partial_bytes_acked, 4000u);
}

TEST(CcLoss, T3ExpiryRestartsFromOnePmdcs)
{
	// cwnd 20000: ssthresh = max(10000, 5872) = 10000, cwnd = 1468, pba 0.
	struct sctp_cc_path s = state(20000, 15000, 4000);
	sctp_cc_on_t3_expiry(&s, &RFC);
	EXPECT_EQ(s.ssthresh, 10000u);
	EXPECT_EQ(s.cwnd, 1468u);
	EXPECT_EQ(s.partial_bytes_acked, 0u);
	EXPECT_TRUE(s.flags & SCTP_CC_F_ONE_PACKET);
	// Small cwnd: 4404 -> ssthresh max(2202, 5872) = 5872, cwnd 1468.
	s = fresh();
	sctp_cc_on_t3_expiry(&s, &RFC);
	EXPECT_EQ(s.ssthresh, 5872u);
	EXPECT_EQ(s.cwnd, 1468u);
}

TEST(CcLoss, OnePacketInFlightAfterT3)
{
	struct sctp_cc_path s = state(20000, 15000);
	sctp_cc_on_t3_expiry(&s, &RFC);
	// Nothing outstanding: one packet of up to 1468.
	struct sctp_cc_window w = sctp_cc_window(&s, &RFC, 0, false);
	EXPECT_EQ(w.bytes, 1468u);
	EXPECT_EQ(w.packets, 1u);
	// A 100-byte chunk went out: no second packet, although 100 < cwnd.
	w = sctp_cc_window(&s, &DC, 100, true);
	EXPECT_EQ(w.bytes, 0u);
	EXPECT_EQ(w.packets, 0u);
	// A SACK that acknowledges nothing of this path keeps the limit.
	on_sack(&s, sack(0, 100, 100, false, 100));
	EXPECT_TRUE(s.flags & SCTP_CC_F_ONE_PACKET);
	// Its acknowledgement lifts it. Slow start: flight 100 < cwnd 1468, no
	// growth; window 1468 - 0 = 1468 bytes, packets unlimited (DC).
	on_sack(&s, sack(100, 100, 0));
	EXPECT_FALSE(s.flags & SCTP_CC_F_ONE_PACKET);
	EXPECT_EQ(s.cwnd, 1468u);
	w = sctp_cc_window(&s, &DC, 0, true);
	EXPECT_EQ(w.bytes, 1468u);
	EXPECT_EQ(w.packets, UINT32_MAX);
}

TEST(CcLoss, SackThenLossOrder)
{
	// §7.2.4 note: a SACK that acks new data and reports the third miss
	// applies §7.2.1 first. cwnd 8808 in slow start, flight 8808, 1468 acked:
	// 10276; then the loss: ssthresh = max(5138, 5872) = 5872 = cwnd.
	struct sctp_cc_path s = state(8808, UINT32_MAX);
	on_sack(&s, sack(1468, 8808, 7340));
	EXPECT_EQ(s.cwnd, 10276u);
	sctp_cc_on_fast_retransmit(&s, &RFC, false);
	EXPECT_EQ(s.ssthresh, 5872u);
	EXPECT_EQ(s.cwnd, 5872u);
}

// ---------------------------------------------------------------------------
// §7.2.4 rule 6 and §6.2.1 D iv: Fast Recovery, per association

TEST(CcRecovery, EnterOnceExitAtExitPoint)
{
	struct sctp_cc_recovery r;
	sctp_cc_recovery_init(&r);
	EXPECT_FALSE(sctp_cc_recovery_active(&r));
	EXPECT_FALSE(sctp_cc_recovery_on_sack(&r, 1000)); // not in recovery
	EXPECT_TRUE(sctp_cc_recovery_enter(&r, 100));
	EXPECT_TRUE(sctp_cc_recovery_active(&r));
	// A second loss while in recovery keeps the exit point 100.
	EXPECT_FALSE(sctp_cc_recovery_enter(&r, 150));
	EXPECT_EQ(r.exit_tsn, 100u);
	EXPECT_FALSE(sctp_cc_recovery_on_sack(&r, 99));
	EXPECT_TRUE(sctp_cc_recovery_active(&r));
	// "matches or exceeds": 100 exits.
	EXPECT_TRUE(sctp_cc_recovery_on_sack(&r, 100));
	EXPECT_FALSE(sctp_cc_recovery_active(&r));
	// Exceeding also exits.
	EXPECT_TRUE(sctp_cc_recovery_enter(&r, 200));
	EXPECT_TRUE(sctp_cc_recovery_on_sack(&r, 250));
}

TEST(CcRecovery, ExitPointAcrossTheWrap)
{
	struct sctp_cc_recovery r;
	sctp_cc_recovery_init(&r);
	EXPECT_TRUE(sctp_cc_recovery_enter(&r, 0xfffffffeu));
	EXPECT_FALSE(sctp_cc_recovery_on_sack(&r, 0xfffffff0u));
	EXPECT_FALSE(sctp_cc_recovery_on_sack(&r, 0xfffffffdu));
	EXPECT_TRUE(sctp_cc_recovery_on_sack(&r, 1)); // 1 is after 0xfffffffe
	EXPECT_FALSE(sctp_cc_recovery_active(&r));
}

TEST(CcRecovery, T3EndsRecovery)
{
	struct sctp_cc_recovery r;
	sctp_cc_recovery_init(&r);
	sctp_cc_recovery_enter(&r, 100);
	sctp_cc_recovery_on_t3(&r);
	EXPECT_FALSE(sctp_cc_recovery_active(&r));
	EXPECT_TRUE(sctp_cc_recovery_enter(&r, 300));
	EXPECT_EQ(r.exit_tsn, 300u);
}

// Two paths, one association: the second path's loss during recovery does
// not cut its cwnd (rule 6 "for any destinations").
TEST(CcRecovery, SecondPathNotCutDuringRecovery)
{
	struct sctp_cc_recovery r;
	sctp_cc_recovery_init(&r);
	struct sctp_cc_path a = state(20000, UINT32_MAX);
	struct sctp_cc_path b = state(30000, UINT32_MAX);
	sctp_cc_on_fast_retransmit(&a, &RFC, sctp_cc_recovery_active(&r));
	sctp_cc_recovery_enter(&r, 500);
	sctp_cc_on_fast_retransmit(&b, &RFC, sctp_cc_recovery_active(&r));
	EXPECT_EQ(a.cwnd, 10000u); // max(10000, 5872)
	EXPECT_EQ(b.cwnd, 30000u); // unchanged
	// Slow start of either path is frozen until the exit point (a: cwnd
	// 10000 == ssthresh 10000 is slow start).
	on_sack(&a, sack(1468, 10000, 8532, sctp_cc_recovery_active(&r)));
	EXPECT_EQ(a.cwnd, 10000u);
	EXPECT_TRUE(sctp_cc_recovery_on_sack(&r, 500));
	on_sack(&a, sack(1468, 10000, 8532, sctp_cc_recovery_active(&r)));
	EXPECT_EQ(a.cwnd, 11468u);
}

// ---------------------------------------------------------------------------
// §7.2.1 idle decay

TEST(CcIdle, HalvesOncePerRto)
{
	// cwnd 50000: ssthresh = 50000 first; then 1 RTO: max(25000, 5872).
	struct sctp_cc_path s = state(50000, 20000);
	sctp_cc_on_idle(&s, &RFC, 1);
	EXPECT_EQ(s.ssthresh, 50000u);
	EXPECT_EQ(s.cwnd, 25000u);
	// 3 RTOs: 50000 -> 25000 -> 12500 -> 6250.
	s = state(50000, 20000);
	sctp_cc_on_idle(&s, &RFC, 3);
	EXPECT_EQ(s.ssthresh, 50000u);
	EXPECT_EQ(s.cwnd, 6250u);
	// 4 RTOs: ... 6250 -> max(3125, 5872) = 5872; 1000 RTOs: still 5872.
	s = state(50000, 20000);
	sctp_cc_on_idle(&s, &RFC, 4);
	EXPECT_EQ(s.cwnd, 5872u);
	s = state(50000, 20000);
	sctp_cc_on_idle(&s, &RFC, 1000);
	EXPECT_EQ(s.cwnd, 5872u);
	EXPECT_EQ(s.ssthresh, 50000u);
}

TEST(CcIdle, NeverRaisesASmallWindow)
{
	// cwnd 1468 after T3 (ssthresh 10000): max(734, 5872) would raise it;
	// left alone, ssthresh too (ours, cc_rfc9260.c).
	struct sctp_cc_path s = state(20000, 15000);
	sctp_cc_on_t3_expiry(&s, &RFC);
	sctp_cc_on_idle(&s, &RFC, 5);
	EXPECT_EQ(s.cwnd, 1468u);
	EXPECT_EQ(s.ssthresh, 10000u);
	// Exactly 4 * PMDCS: nothing to do.
	s = state(5872, 9000);
	sctp_cc_on_idle(&s, &RFC, 2);
	EXPECT_EQ(s.cwnd, 5872u);
	EXPECT_EQ(s.ssthresh, 9000u);
}

TEST(CcIdle, ZeroRtosIsNoIdle)
{
	struct sctp_cc_path s = state(50000, 20000, 100);
	sctp_cc_on_idle(&s, &RFC, 0);
	EXPECT_EQ(s.cwnd, 50000u);
	EXPECT_EQ(s.ssthresh, 20000u);
	EXPECT_EQ(s.partial_bytes_acked, 100u);
}

TEST(CcIdle, PbaFollowsCwndDown)
{
	// CA with pba 40000 of cwnd 50000; 2 RTOs -> cwnd 12500, pba 12500.
	struct sctp_cc_path s = state(50000, 20000, 40000);
	sctp_cc_on_idle(&s, &RFC, 2);
	EXPECT_EQ(s.cwnd, 12500u);
	EXPECT_EQ(s.partial_bytes_acked, 12500u);
}

// ---------------------------------------------------------------------------
// PMTU changes

TEST(CcPmtu, SmallerKeepsCwndLargerRaisesToOnePacket)
{
	// 1468 -> 1228: cwnd 4404 kept in bytes; the loss floor now 4 * 1228.
	struct sctp_cc_path s = fresh();
	sctp_cc_on_pmtu_change(&s, &RFC, 1228);
	EXPECT_EQ(s.pmdcs, 1228u);
	EXPECT_EQ(s.cwnd, 4404u);
	sctp_cc_on_fast_retransmit(&s, &RFC, false); // max(2202, 4912)
	EXPECT_EQ(s.ssthresh, 4912u);
	// After T3 (cwnd 1228), PMDCS 8968: cwnd raised to 8968.
	sctp_cc_on_t3_expiry(&s, &RFC);
	EXPECT_EQ(s.cwnd, 1228u);
	sctp_cc_on_pmtu_change(&s, &RFC, 8968);
	EXPECT_EQ(s.cwnd, 8968u);
	sctp_cc_on_pmtu_change(&s, &RFC, 0);
	EXPECT_EQ(s.pmdcs, 1u);
	EXPECT_EQ(s.cwnd, 8968u);
}

// ---------------------------------------------------------------------------
// §6.1 rules B and D

TEST(CcWindow, RuleBCwndMinusFlight)
{
	// DC (no Max.Burst): cwnd 4404.
	struct sctp_cc_path s = fresh();
	struct sctp_cc_window w = sctp_cc_window(&s, &DC, 0, true);
	EXPECT_EQ(w.bytes, 4404u);
	EXPECT_EQ(w.packets, UINT32_MAX);
	w = sctp_cc_window(&s, &DC, 4403, true);
	EXPECT_EQ(w.bytes, 1u); // one packet, up to 1468: ends at 5871 = cwnd + PMDCS - 1
	w = sctp_cc_window(&s, &DC, 4404, true);
	EXPECT_EQ(w.bytes, 0u);
	EXPECT_EQ(w.packets, 0u);
	w = sctp_cc_window(&s, &DC, 5871, false);
	EXPECT_EQ(w.bytes, 0u);
}

TEST(CcWindow, RuleBOverbookingIsOnePacket)
{
	// cwnd 4404, one 1000-byte chunk per packet: packets start at 0, 1000,
	// 2000, 3000, 4000 (< 4404): 5 packets, 5000 bytes, 596 over cwnd,
	// below PMDCS - 1 = 1467; only the fifth crosses cwnd.
	struct sctp_cc_path s = fresh();
	struct sctp_cc_window w = sctp_cc_window(&s, &DC, 0, true);
	uint32_t sent = 0, pkts = 0;
	while (sctp_cc_window_allows(&w, sent, pkts)) {
		sent += 1000;
		pkts++;
	}
	EXPECT_EQ(pkts, 5u);
	EXPECT_EQ(sent, 5000u);
	// Full packets: 0, 1468, 2936 -> 3 packets, exactly cwnd.
	sent = pkts = 0;
	while (sctp_cc_window_allows(&w, sent, pkts)) {
		sent += P;
		pkts++;
	}
	EXPECT_EQ(pkts, 3u);
	EXPECT_EQ(sent, 4404u);
}

TEST(CcWindow, MaxBurstIsTemporary)
{
	// cwnd 20000, flight 2000, Max.Burst 4: 2000 + 4 * 1468 = 7872 < 20000,
	// so the window is 7872 - 2000 = 5872 bytes and 4 packets; cwnd stays.
	struct sctp_cc_path s = state(20000, UINT32_MAX);
	struct sctp_cc_window w = sctp_cc_window(&s, &RFC, 2000, true);
	EXPECT_EQ(w.bytes, 5872u);
	EXPECT_EQ(w.packets, 4u);
	EXPECT_EQ(s.cwnd, 20000u);
	// Retransmissions (rule C) are limited by cwnd only: 18000.
	w = sctp_cc_window(&s, &RFC, 2000, false);
	EXPECT_EQ(w.bytes, 18000u);
	EXPECT_EQ(w.packets, UINT32_MAX);
	// The next opportunity has the full cwnd again: 20000 - 7872 = 12128 >
	// 5872, so Max.Burst binds again at 5872.
	w = sctp_cc_window(&s, &RFC, 7872, true);
	EXPECT_EQ(w.bytes, 5872u);
	// Flight 18000: 18000 + 5872 >= 20000, the formula leaves cwnd: 2000.
	w = sctp_cc_window(&s, &RFC, 18000, true);
	EXPECT_EQ(w.bytes, 2000u);
	EXPECT_EQ(w.packets, 4u);
}

TEST(CcWindow, MaxBurstCountsPackets)
{
	// 100-byte packets: the byte form alone would let 59 start within 5872;
	// Max.Burst 4 allows 4.
	struct sctp_cc_path s = state(20000, UINT32_MAX);
	struct sctp_cc_window w = sctp_cc_window(&s, &RFC, 0, true);
	uint32_t sent = 0, pkts = 0;
	while (sctp_cc_window_allows(&w, sent, pkts)) {
		sent += 100;
		pkts++;
	}
	EXPECT_EQ(pkts, 4u);
}

// Why the data-center parameters have no Max.Burst (docs/CC.md). A sender
// clocked by SACKs only (a send opportunity at the start and after each
// SACK), full 1468-byte packets, the receiver SACKing every 4 packets
// (sctp_profile_dc.sack_every), L = 4, initial window 10 * 1468 = 14680.
// Returns cwnd after `sacks` SACKs.
static uint32_t
sack_clocked_cwnd(const struct sctp_cc_params &p, int sacks)
{
	struct sctp_cc_path s = fresh(p);
	uint32_t flight = 0;
	auto send = [&]() {
		struct sctp_cc_window w = sctp_cc_window(&s, &p, flight, true);
		uint32_t sent = 0, pkts = 0;
		while (sctp_cc_window_allows(&w, sent, pkts)) {
			sent += P;
			pkts++;
		}
		flight += sent;
	};
	send();
	for (int k = 0; k < sacks && flight != 0; k++) {
		uint32_t acked = std::min(flight, 4 * P);
		on_sack(&s, sack(acked, flight, flight - acked), p);
		flight -= acked;
		send();
	}
	return s.cwnd;
}

TEST(CcWindow, MaxBurstWouldStallDataCenterSlowStart)
{
	// No Max.Burst: 10 packets out; each SACK acks 4 with flight == cwnd,
	// so cwnd += min(5872, 4 * 1468) and 8 packets go out: after k SACKs
	// cwnd = (10 + 4k) * 1468; k = 20: 90 * 1468 = 132120. One RTT
	// (cwnd / 4 SACKs) doubles it.
	EXPECT_EQ(sack_clocked_cwnd(DC, 20), 132120u);
	// Max.Burst 4: only 4 packets start; their SACK finds flight 5872 <
	// cwnd 14680, "not fully utilized", and the window never grows: 4
	// packets per round trip for good.
	struct sctp_cc_params capped = DC;
	capped.max_burst = 4;
	EXPECT_EQ(sack_clocked_cwnd(capped, 20), 14680u);
}

TEST(CcWindow, NoMaxBurstInTheDataCenter)
{
	// DC: cwnd 1000000, flight 0: the whole window, any number of packets.
	struct sctp_cc_path s = state(1000000, UINT32_MAX);
	struct sctp_cc_window w = sctp_cc_window(&s, &DC, 0, true);
	EXPECT_EQ(w.bytes, 1000000u);
	EXPECT_EQ(w.packets, UINT32_MAX);
}

TEST(CcWindow, HugeFlightAndBurstDoNotWrap)
{
	// flight near 2^32 with Max.Burst: 64-bit sum, no wrap to a small limit.
	struct sctp_cc_params p = RFC;
	p.max_burst = 65535;
	struct sctp_cc_path s = state(UINT32_MAX, UINT32_MAX, 0, 65535);
	struct sctp_cc_window w = sctp_cc_window(&s, &p, UINT32_MAX - 10, true);
	EXPECT_EQ(w.bytes, 10u);
	w = sctp_cc_window(&s, &p, 0, true); // 65535 * 65535 = 4294836225
	EXPECT_EQ(w.bytes, 4294836225u);
	EXPECT_EQ(w.packets, 65535u);
}

// ---------------------------------------------------------------------------
// Saturation

TEST(CcOverflow, HugeAcksSaturate)
{
	// Slow start at UINT32_MAX - 100 with L = 16 and PMDCS 65535: saturates.
	struct sctp_cc_params p = RFC;
	p.ss_l = SCTP_CC_SS_L_MAX;
	struct sctp_cc_path s = state(UINT32_MAX - 100, UINT32_MAX, 0, 65535);
	on_sack(&s, sack(UINT32_MAX, UINT32_MAX, 0), p);
	EXPECT_EQ(s.cwnd, UINT32_MAX);
	// Avoidance with pba near the top: UINT32_MAX - 1 ssthresh.
	s = state(UINT32_MAX - 1, UINT32_MAX - 2, UINT32_MAX - 5, 65535);
	on_sack(&s, sack(UINT32_MAX, UINT32_MAX, 1, false, UINT32_MAX), p);
	// pba saturates at UINT32_MAX, - cwnd = 1; cwnd + 65535 saturates.
	EXPECT_EQ(s.cwnd, UINT32_MAX);
	EXPECT_EQ(s.partial_bytes_acked, 1u);
	// Loss at the top: max(2147483647, 262140).
	sctp_cc_on_fast_retransmit(&s, &p, false);
	EXPECT_EQ(s.cwnd, 2147483647u);
}

// ---------------------------------------------------------------------------
// Parameters

TEST(CcParams, RfcValues)
{
	EXPECT_EQ(RFC.algo, SCTP_CC_RFC9260);
	EXPECT_EQ(RFC.ss_l, 1u);	       // §7.2.1 "L SHOULD be 1"
	EXPECT_EQ(RFC.max_burst, 4u);	       // §16
	EXPECT_EQ(RFC.initial_cwnd_pmdcs, 0u); // §7.2.1's formula
	EXPECT_EQ(sctp_cc_params_check(&RFC), nullptr);
}

TEST(CcParams, DataCenterValues)
{
	EXPECT_EQ(DC.algo, SCTP_CC_RFC9260);
	EXPECT_EQ(DC.ss_l, 4u);
	EXPECT_EQ(DC.max_burst, 0u);
	EXPECT_EQ(DC.initial_cwnd_pmdcs, 10u);
	EXPECT_EQ(sctp_cc_params_check(&DC), nullptr);
}

TEST(CcParams, CheckRefusesEachBrokenRule)
{
	struct sctp_cc_params p = RFC;
	p.algo = SCTP_CC_ALGO_COUNT;
	EXPECT_STREQ(sctp_cc_params_check(&p), "algo unknown");
	p = RFC;
	p.ss_l = 0;
	EXPECT_STREQ(sctp_cc_params_check(&p), "ss_l == 0");
	p.ss_l = SCTP_CC_SS_L_MAX;
	EXPECT_EQ(sctp_cc_params_check(&p), nullptr);
	p.ss_l = SCTP_CC_SS_L_MAX + 1;
	EXPECT_STREQ(sctp_cc_params_check(&p), "ss_l > SCTP_CC_SS_L_MAX");
	p = RFC;
	p.initial_cwnd_pmdcs = SCTP_CC_INITIAL_PMDCS_MAX;
	EXPECT_EQ(sctp_cc_params_check(&p), nullptr);
	p.initial_cwnd_pmdcs = SCTP_CC_INITIAL_PMDCS_MAX + 1;
	EXPECT_STREQ(sctp_cc_params_check(&p), "initial_cwnd_pmdcs > SCTP_CC_INITIAL_PMDCS_MAX");
	p = RFC;
	p.max_burst = 0; // no cap is a valid choice
	EXPECT_EQ(sctp_cc_params_check(&p), nullptr);
}

// ---------------------------------------------------------------------------
// The interface

TEST(CcDispatch, EveryAlgorithmCellFilled)
{
	std::set<std::string> names;
	for (unsigned a = 0; a < SCTP_CC_ALGO_COUNT; a++) {
		const struct sctp_cc_ops *o = sctp_cc_ops_get(a);
		ASSERT_NE(o, nullptr) << a;
		EXPECT_EQ(o, sctp_cc_algos[a]);
		ASSERT_NE(o->name, nullptr);
		EXPECT_TRUE(names.insert(o->name).second) << o->name;
		EXPECT_NE(o->init, nullptr);
		EXPECT_NE(o->on_sack, nullptr);
		EXPECT_NE(o->on_fast_retransmit, nullptr);
		EXPECT_NE(o->on_t3_expiry, nullptr);
		EXPECT_NE(o->on_idle, nullptr);
		EXPECT_NE(o->on_pmtu_change, nullptr);
		EXPECT_NE(o->window, nullptr);
	}
	EXPECT_EQ(sctp_cc_ops_get(SCTP_CC_RFC9260), &sctp_cc_rfc9260_ops);
	EXPECT_STREQ(sctp_cc_rfc9260_ops.name, "rfc9260");
	EXPECT_EQ(sctp_cc_ops_get(SCTP_CC_ALGO_COUNT), nullptr);
	EXPECT_EQ(sctp_cc_ops_get(~0u), nullptr);
}

// Every entry point reaches its own op with its own arguments: the same
// random events applied once through sctp_cc_*() and once through the ops
// table by hand give the same state and the same windows; and each entry
// point changes the state the way only its op does (a swapped pointer
// would make T3 look like a fast retransmit, say).
TEST(CcDispatch, EntryPointsCallTheirOps)
{
	for (uint64_t seed = 1; seed <= 50; seed++) {
		std::mt19937_64 rng(seed);
		const struct sctp_cc_params &p = (seed & 1) ? RFC : DC;
		const struct sctp_cc_ops *o = sctp_cc_algos[p.algo];
		struct sctp_cc_path a, b;
		sctp_cc_init(&a, &p, 1468, SCTP_ADDR_V4);
		o->init(&b, &p, 1468, SCTP_ADDR_V4);
		for (int step = 0; step < 200; step++) {
			uint32_t flight = (uint32_t)(rng() % 40000);
			uint32_t acked = (uint32_t)(rng() % (flight + 1));
			struct sctp_cc_sack ev = sack(acked, flight, flight - acked, rng() & 1,
						      (uint32_t)(rng() % 3000), rng() & 1);
			bool nd = rng() & 1;
			switch (rng() % 6) {
			case 0:
			case 1:
				sctp_cc_on_sack(&a, &p, &ev);
				o->on_sack(&b, &p, &ev);
				break;
			case 2: {
				bool fr = rng() & 1;
				sctp_cc_on_fast_retransmit(&a, &p, fr);
				o->on_fast_retransmit(&b, &p, fr);
				break;
			}
			case 3:
				sctp_cc_on_t3_expiry(&a, &p);
				o->on_t3_expiry(&b, &p);
				break;
			case 4: {
				uint32_t n = (uint32_t)(rng() % 4);
				sctp_cc_on_idle(&a, &p, n);
				o->on_idle(&b, &p, n);
				break;
			}
			default: {
				uint16_t m = (uint16_t)(1200 + rng() % 300);
				sctp_cc_on_pmtu_change(&a, &p, m);
				o->on_pmtu_change(&b, &p, m);
				break;
			}
			}
			ASSERT_EQ(std::memcmp(&a, &b, sizeof(a)), 0)
				<< "seed " << seed << " step " << step;
			struct sctp_cc_window wa = sctp_cc_window(&a, &p, flight, nd);
			struct sctp_cc_window wb = o->window(&b, &p, flight, nd);
			ASSERT_EQ(wa.bytes, wb.bytes) << "seed " << seed << " step " << step;
			ASSERT_EQ(wa.packets, wb.packets) << "seed " << seed << " step " << step;
		}
	}
	// Distinguishing effects from one known state (cwnd 20000, pba 4000).
	struct sctp_cc_path s = state(20000, 15000, 4000);
	sctp_cc_on_t3_expiry(&s, &RFC);
	EXPECT_EQ(s.cwnd, 1468u); // T3, not fast retransmit (10000)
	s = state(20000, 15000, 4000);
	sctp_cc_on_fast_retransmit(&s, &RFC, false);
	EXPECT_EQ(s.cwnd, 10000u);
	s = state(20000, 15000, 4000);
	sctp_cc_on_idle(&s, &RFC, 1);
	EXPECT_EQ(s.cwnd, 10000u);
	EXPECT_EQ(s.ssthresh, 20000u); // idle sets ssthresh = cwnd, a loss would not
	s = state(20000, 15000, 4000);
	sctp_cc_on_pmtu_change(&s, &RFC, 1228);
	EXPECT_EQ(s.pmdcs, 1228u);
	EXPECT_EQ(s.cwnd, 20000u);
}

// ---------------------------------------------------------------------------
// Randomized: the implementation against a reference model written from the
// RFC text with 64-bit values and clamps applied once, on random sequences
// of every event with arguments from ordinary to absurd; the invariants of
// cc.h after every step.

namespace {

constexpr uint64_t CAP = UINT32_MAX;

struct Model {
	uint64_t cwnd, ssthresh, pba, pmdcs;
	bool one_packet;

	void init(const struct sctp_cc_params &p, uint64_t m, bool v6)
	{
		pmdcs = m ? m : 1;
		if (p.initial_cwnd_pmdcs)
			cwnd = std::min<uint64_t>(CAP, p.initial_cwnd_pmdcs * pmdcs);
		else
			cwnd = std::min<uint64_t>(4 * pmdcs,
						  std::max<uint64_t>(2 * pmdcs, v6 ? 4344 : 4404));
		ssthresh = CAP;
		pba = 0;
		one_packet = false;
	}
	void sack(const struct sctp_cc_params &p, const struct sctp_cc_sack &e)
	{
		if (e.bytes_acked)
			one_packet = false;
		if (cwnd <= ssthresh) {
			if (!e.in_fast_recovery && e.flight_before >= cwnd)
				cwnd = std::min(CAP, cwnd + std::min<uint64_t>(e.bytes_acked,
									       p.ss_l * pmdcs));
		} else {
			pba = std::min(CAP, pba + e.bytes_acked + e.bytes_dup);
			if (pba >= cwnd && e.flight_before >= cwnd) {
				pba -= cwnd;
				cwnd = std::min(CAP, cwnd + pmdcs);
				pba = std::min(pba, cwnd);
			} else if (pba > cwnd && e.flight_before < cwnd) {
				pba = cwnd;
			}
		}
		if (e.flight_after == 0)
			pba = 0;
	}
	void loss(bool in_fr)
	{
		if (in_fr)
			return;
		ssthresh = std::max(cwnd / 2, 4 * pmdcs);
		cwnd = ssthresh;
		pba = 0;
	}
	void t3()
	{
		ssthresh = std::max(cwnd / 2, 4 * pmdcs);
		cwnd = pmdcs;
		pba = 0;
		one_packet = true;
	}
	void idle(uint64_t rtos)
	{
		if (rtos == 0 || cwnd <= 4 * pmdcs)
			return;
		ssthresh = cwnd;
		for (uint64_t i = 0; i < rtos && i < 64; i++)
			cwnd = std::max(cwnd / 2, 4 * pmdcs);
		pba = std::min(pba, cwnd);
	}
	void pmtu(uint64_t m)
	{
		pmdcs = m ? m : 1;
		cwnd = std::max(cwnd, pmdcs);
	}
	// Bytes and packets per §6.1 B and D.
	std::pair<uint64_t, uint64_t> window(const struct sctp_cc_params &p, uint64_t flight,
					     bool nd) const
	{
		if (one_packet)
			return flight == 0 ? std::make_pair(cwnd, (uint64_t)1)
					   : std::make_pair((uint64_t)0, (uint64_t)0);
		uint64_t c = cwnd, pk = UINT32_MAX;
		if (nd && p.max_burst) {
			if (flight + p.max_burst * pmdcs < c)
				c = flight + p.max_burst * pmdcs;
			pk = p.max_burst;
		}
		return flight < c ? std::make_pair(c - flight, pk)
				  : std::make_pair((uint64_t)0, (uint64_t)0);
	}
};

uint32_t
pick_bytes(std::mt19937_64 &rng, uint64_t around)
{
	switch (rng() % 8) {
	case 0:
		return 0;
	case 1:
		return UINT32_MAX - (uint32_t)(rng() % 4);
	case 2:
		return (uint32_t)rng();
	default:
		return (uint32_t)std::min<uint64_t>(UINT32_MAX, rng() % (2 * around + 2));
	}
}

uint16_t
pick_pmdcs(std::mt19937_64 &rng)
{
	static const uint16_t v[] = { 1, 16, 536, 1228, 1448, 1468, 8968, 65535 };
	return rng() % 5 == 0 ? (uint16_t)rng() : v[rng() % (sizeof(v) / sizeof(v[0]))];
}

} // namespace

TEST(CcRandomized, ModelAndInvariants)
{
	for (uint64_t seed = 1; seed <= 3000; seed++) {
		std::mt19937_64 rng(seed);
		struct sctp_cc_params p = (seed % 3 == 0) ? DC : RFC;
		if (seed % 5 == 0) {
			p.ss_l = (uint8_t)(1 + rng() % SCTP_CC_SS_L_MAX);
			p.max_burst = (uint16_t)(rng() % 3 ? rng() % 9 : rng());
			p.initial_cwnd_pmdcs = (uint16_t)(rng() % (SCTP_CC_INITIAL_PMDCS_MAX + 1));
		}
		ASSERT_EQ(sctp_cc_params_check(&p), nullptr) << "seed " << seed;
		uint16_t m = pick_pmdcs(rng);
		bool v6 = rng() & 1;
		struct sctp_cc_path s;
		sctp_cc_init(&s, &p, m, v6 ? SCTP_ADDR_V6 : SCTP_ADDR_V4);
		Model ref;
		ref.init(p, m, v6);
		for (int step = 0; step < 400; step++) {
			std::ostringstream where;
			where << "seed " << seed << " step " << step;
			const char *what = "";
			bool check_floor = false;
			uint32_t flight = pick_bytes(rng, s.cwnd);
			switch (rng() % 10) {
			case 0:
			case 1:
			case 2:
			case 3: {
				uint32_t acked =
					rng() % 4 ? (uint32_t)(rng() % ((uint64_t)flight + 1))
						  : pick_bytes(rng, s.cwnd);
				uint32_t after = flight >= acked ? flight - acked : 0;
				if (rng() % 6 == 0)
					after = 0;
				struct sctp_cc_sack ev =
					sack(acked, flight, after, rng() % 4 == 0,
					     rng() % 4 ? 0 : pick_bytes(rng, s.pmdcs), rng() & 1);
				sctp_cc_on_sack(&s, &p, &ev);
				ref.sack(p, ev);
				what = "sack";
				break;
			}
			case 4:
			case 5: {
				bool fr = rng() % 3 == 0;
				sctp_cc_on_fast_retransmit(&s, &p, fr);
				ref.loss(fr);
				what = "fast retransmit";
				check_floor = !fr;
				break;
			}
			case 6:
				sctp_cc_on_t3_expiry(&s, &p);
				ref.t3();
				what = "t3";
				check_floor = true;
				break;
			case 7: {
				uint32_t n = rng() % 8 ? (uint32_t)(rng() % 6) : (uint32_t)rng();
				bool decays = n != 0 && s.cwnd > 4u * s.pmdcs;
				sctp_cc_on_idle(&s, &p, n);
				ref.idle(n);
				what = "idle";
				check_floor = decays;
				break;
			}
			case 8: {
				uint16_t nm = pick_pmdcs(rng);
				sctp_cc_on_pmtu_change(&s, &p, nm);
				ref.pmtu(nm);
				what = "pmtu";
				break;
			}
			default:
				what = "window only";
				break;
			}
			where << " after " << what;
			ASSERT_EQ(s.cwnd, ref.cwnd) << where.str();
			ASSERT_EQ(s.ssthresh, ref.ssthresh) << where.str();
			ASSERT_EQ(s.partial_bytes_acked, ref.pba) << where.str();
			ASSERT_EQ(s.pmdcs, ref.pmdcs) << where.str();
			ASSERT_EQ((s.flags & SCTP_CC_F_ONE_PACKET) != 0, ref.one_packet)
				<< where.str();
			// Invariants (cc.h).
			ASSERT_GE(s.pmdcs, 1u) << where.str();
			ASSERT_GE(s.cwnd, s.pmdcs) << where.str();
			ASSERT_LE(s.partial_bytes_acked, s.cwnd) << where.str();
			if (check_floor) {
				ASSERT_GE((uint64_t)s.ssthresh, 4ull * s.pmdcs) << where.str();
			}
			// Windows: against the model, within cwnd, Max.Burst honoured.
			for (int nd = 0; nd < 2; nd++) {
				uint32_t f = rng() & 1 ? flight : pick_bytes(rng, s.cwnd);
				struct sctp_cc_window w = sctp_cc_window(&s, &p, f, nd);
				auto want = ref.window(p, f, nd);
				ASSERT_EQ(w.bytes, want.first) << where.str() << " flight " << f;
				ASSERT_EQ(w.packets, want.second) << where.str() << " flight " << f;
				if (w.bytes != 0) {
					ASSERT_LE((uint64_t)f + w.bytes, (uint64_t)s.cwnd)
						<< where.str();
				}
				ASSERT_EQ(w.bytes == 0, w.packets == 0) << where.str();
				if (nd && p.max_burst) {
					ASSERT_LE(w.packets, p.max_burst) << where.str();
				}
				if (s.flags & SCTP_CC_F_ONE_PACKET) {
					ASSERT_LE(w.packets, 1u) << where.str();
				}
			}
		}
	}
}

// A flow: sender and receiver on one path with random losses, the
// association's calls in §6.2.1 / §7.2.4 order, flight accounted from
// packets. Checks the invariants and that cwnd is never above the value a
// loss-free run would reach in the same number of SACKs.
TEST(CcRandomized, LossyFlowStaysWithinBounds)
{
	for (uint64_t seed = 1; seed <= 300; seed++) {
		std::mt19937_64 rng(seed);
		const struct sctp_cc_params &p = (seed & 1) ? RFC : DC;
		struct sctp_cc_path s;
		sctp_cc_init(&s, &p, P, SCTP_ADDR_V4);
		struct sctp_cc_recovery r;
		sctp_cc_recovery_init(&r);
		uint32_t tsn = 1000, cum = 999, flight = 0;
		uint64_t bound = s.cwnd;     // loss-free growth: at most L*P per SACK
		std::vector<uint32_t> sizes; // outstanding packet sizes, oldest first
		unsigned loss_pct = 1 + (unsigned)(seed % 20);
		for (int step = 0; step < 2000; step++) {
			struct sctp_cc_window w = sctp_cc_window(&s, &p, flight, true);
			uint32_t sent = 0, pkts = 0;
			while (sctp_cc_window_allows(&w, sent, pkts) && pkts < 1000) {
				uint32_t sz = 16 + (uint32_t)(rng() % (P - 15));
				sizes.push_back(sz);
				sent += sz;
				pkts++;
				tsn++;
			}
			flight += sent;
			// Rule B: a send ends below cwnd + PMDCS (a loss may leave the
			// flight above a cwnd it just cut; then nothing is sent).
			if (pkts != 0) {
				ASSERT_LE((uint64_t)flight, (uint64_t)s.cwnd + P - 1)
					<< "seed " << seed << " step " << step;
			}
			if (sizes.empty())
				continue;
			if (rng() % 100 < loss_pct) {
				// Loss: every outstanding packet is lost (T3) or the
				// oldest got three miss indications.
				if (rng() & 1) {
					sctp_cc_on_t3_expiry(&s, &p);
					sctp_cc_recovery_on_t3(&r);
					flight = 0;
					sizes.clear();
					cum = tsn - 1;
				} else {
					sctp_cc_on_fast_retransmit(&s, &p,
								   sctp_cc_recovery_active(&r));
					sctp_cc_recovery_enter(&r, tsn - 1);
					flight -= sizes.front();
					sizes.erase(sizes.begin());
				}
			} else {
				// A SACK for the oldest 1..4 packets.
				size_t n = std::min(sizes.size(), (size_t)(1 + rng() % 4));
				uint32_t acked = 0;
				for (size_t i = 0; i < n; i++)
					acked += sizes[i];
				sizes.erase(sizes.begin(), sizes.begin() + (long)n);
				cum += (uint32_t)n;
				sctp_cc_recovery_on_sack(&r, cum);
				struct sctp_cc_sack ev = sack(acked, flight, flight - acked,
							      sctp_cc_recovery_active(&r));
				flight -= acked;
				sctp_cc_on_sack(&s, &p, &ev);
				bound = std::min<uint64_t>(CAP, bound + (uint64_t)p.ss_l * P);
			}
			ASSERT_GE(s.cwnd, (uint32_t)P) << "seed " << seed << " step " << step;
			ASSERT_LE(s.partial_bytes_acked, s.cwnd)
				<< "seed " << seed << " step " << step;
			ASSERT_LE((uint64_t)s.cwnd, std::max<uint64_t>(bound, 4ull * P))
				<< "seed " << seed << " step " << step;
			if (s.ssthresh != UINT32_MAX) {
				ASSERT_GE(s.ssthresh, 4u * P)
					<< "seed " << seed << " step " << step;
			}
		}
	}
}
