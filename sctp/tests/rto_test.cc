// SPDX-License-Identifier: BSD-3-Clause
// RTO estimator (RFC 9260 §6.3.1, §6.3.3 E2): worked examples computed by
// hand from the RFC formulas with each profile's values, clamping, the G1
// rule, back-off to the cap, and samples no 64-bit arithmetic should choke on.
#include <gtest/gtest.h>

#include <cstdint>

extern "C" {
#include "sctp/rto.h"
}

namespace {

// The hand computations below use these profile values; if a profile
// changes, the examples (and docs/PATHS.md) must be recomputed.
void
assume_rfc(const struct sctp_profile &p)
{
	ASSERT_EQ(p.rto_initial_ns, SCTP_S(1));
	ASSERT_EQ(p.rto_min_ns, SCTP_S(1));
	ASSERT_EQ(p.rto_max_ns, SCTP_S(60));
	ASSERT_EQ(p.rto_alpha_shift, 3); // 1/8
	ASSERT_EQ(p.rto_beta_shift, 2);	 // 1/4
	ASSERT_EQ(p.clock_granularity_ns, SCTP_MS(1));
}

void
assume_dc(const struct sctp_profile &p)
{
	ASSERT_EQ(p.rto_initial_ns, SCTP_MS(10));
	ASSERT_EQ(p.rto_min_ns, SCTP_US(500)) << "DC profile changed: recompute these examples";
	ASSERT_EQ(p.rto_max_ns, SCTP_MS(200));
	ASSERT_EQ(p.rto_alpha_shift, 3);
	ASSERT_EQ(p.rto_beta_shift, 2);
	ASSERT_EQ(p.clock_granularity_ns, SCTP_US(1));
}

struct sctp_rto
fresh(const struct sctp_profile &p)
{
	struct sctp_rto r;
	sctp_rto_init(&r, &p);
	return r;
}

} // namespace

TEST(Rto, C1StartsAtRtoInitialUnmeasured)
{
	struct sctp_rto r = fresh(sctp_profile_rfc);
	EXPECT_EQ(r.rto_ns, SCTP_S(1));
	EXPECT_FALSE(sctp_rto_measured(&r));
	r = fresh(sctp_profile_dc);
	EXPECT_EQ(r.rto_ns, SCTP_MS(10));
	EXPECT_FALSE(sctp_rto_measured(&r));
}

// C2: SRTT = R, RTTVAR = R/2, RTO = SRTT + 4 RTTVAR.
TEST(Rto, C2FirstSampleRfc)
{
	const struct sctp_profile &p = sctp_profile_rfc;
	assume_rfc(p);
	struct sctp_rto r = fresh(p);
	sctp_rto_sample(&r, &p, SCTP_S(2)); // SRTT 2 s, RTTVAR 1 s, RTO 2 + 4 = 6 s
	EXPECT_TRUE(sctp_rto_measured(&r));
	EXPECT_EQ(r.srtt_ns, SCTP_S(2));
	EXPECT_EQ(r.rttvar_ns, SCTP_S(1));
	EXPECT_EQ(r.rto_ns, SCTP_S(6));
}

TEST(Rto, C2FirstSampleDc)
{
	const struct sctp_profile &p = sctp_profile_dc;
	assume_dc(p);
	struct sctp_rto r = fresh(p);
	sctp_rto_sample(&r, &p, SCTP_US(200)); // SRTT 200 us, RTTVAR 100 us, RTO 600 us
	EXPECT_EQ(r.srtt_ns, SCTP_US(200));
	EXPECT_EQ(r.rttvar_ns, SCTP_US(100));
	EXPECT_EQ(r.rto_ns, SCTP_US(600));
}

// C3: RTTVAR first, with the old SRTT.
TEST(Rto, C3SecondSampleRfc)
{
	const struct sctp_profile &p = sctp_profile_rfc;
	assume_rfc(p);
	struct sctp_rto r = fresh(p);
	sctp_rto_sample(&r, &p, SCTP_S(2));
	// |SRTT - R'| = |2 - 3.6| = 1.6 s
	// RTTVAR = 3/4 * 1 + 1/4 * 1.6 = 1.15 s
	// SRTT   = 7/8 * 2 + 1/8 * 3.6 = 2.2 s
	// RTO    = 2.2 + 4 * 1.15 = 6.8 s
	sctp_rto_sample(&r, &p, SCTP_MS(3600));
	EXPECT_EQ(r.rttvar_ns, SCTP_MS(1150));
	EXPECT_EQ(r.srtt_ns, SCTP_MS(2200));
	EXPECT_EQ(r.rto_ns, SCTP_MS(6800));
}

TEST(Rto, C3SecondSampleDc)
{
	const struct sctp_profile &p = sctp_profile_dc;
	assume_dc(p);
	struct sctp_rto r = fresh(p);
	sctp_rto_sample(&r, &p, SCTP_US(200));
	// |200 - 40| = 160 us
	// RTTVAR = 3/4 * 100 + 1/4 * 160 = 115 us
	// SRTT   = 7/8 * 200 + 1/8 * 40 = 180 us
	// RTO    = 180 + 460 = 640 us
	sctp_rto_sample(&r, &p, SCTP_US(40));
	EXPECT_EQ(r.rttvar_ns, SCTP_US(115));
	EXPECT_EQ(r.srtt_ns, SCTP_US(180));
	EXPECT_EQ(r.rto_ns, SCTP_US(640));
}

TEST(Rto, AveragesRoundDownOnce)
{
	const struct sctp_profile &p = sctp_profile_dc;
	struct sctp_rto r = fresh(p);
	sctp_rto_sample(&r, &p, 1001); // SRTT 1001, RTTVAR 500 ns
	// RTTVAR = (3 * 500 + |1001 - 2000|) / 4 = 2499 / 4 = 624.75 -> 624
	// SRTT   = (7 * 1001 + 2000) / 8 = 9007 / 8 = 1125.875 -> 1125
	sctp_rto_sample(&r, &p, 2000);
	EXPECT_EQ(r.rttvar_ns, 624u);
	EXPECT_EQ(r.srtt_ns, 1125u);
}

// C6: an RTO below RTO.Min is raised to it; SRTT and RTTVAR keep their values.
TEST(Rto, C6ClampsAtRtoMin)
{
	struct sctp_rto r = fresh(sctp_profile_rfc);
	assume_rfc(sctp_profile_rfc);
	sctp_rto_sample(&r, &sctp_profile_rfc, SCTP_MS(100)); // 0.1 + 4 * 0.05 = 0.3 s
	EXPECT_EQ(r.srtt_ns, SCTP_MS(100));
	EXPECT_EQ(r.rttvar_ns, SCTP_MS(50));
	EXPECT_EQ(r.rto_ns, SCTP_S(1));

	r = fresh(sctp_profile_dc);
	assume_dc(sctp_profile_dc);
	sctp_rto_sample(&r, &sctp_profile_dc, SCTP_US(100)); // 100 + 200 = 300 us
	EXPECT_EQ(r.rto_ns, SCTP_US(500));
}

// C7: an RTO above RTO.Max is lowered to it.
TEST(Rto, C7ClampsAtRtoMax)
{
	struct sctp_rto r = fresh(sctp_profile_rfc);
	sctp_rto_sample(&r, &sctp_profile_rfc, SCTP_S(30)); // 30 + 60 = 90 s
	EXPECT_EQ(r.srtt_ns, SCTP_S(30));
	EXPECT_EQ(r.rto_ns, SCTP_S(60));

	r = fresh(sctp_profile_dc);
	sctp_rto_sample(&r, &sctp_profile_dc, SCTP_MS(100)); // 100 + 200 = 300 ms
	EXPECT_EQ(r.rto_ns, SCTP_MS(200));
}

// G1: RTTVAR computed as 0 becomes G, in C2 and in C3.
TEST(Rto, G1ZeroRttvarBecomesClockGranularity)
{
	for (const struct sctp_profile *p : { &sctp_profile_rfc, &sctp_profile_dc }) {
		struct sctp_rto r = fresh(*p);
		sctp_rto_sample(&r, p, 1); // C2: RTTVAR = 1 / 2 = 0 -> G
		EXPECT_EQ(r.srtt_ns, 1u);
		EXPECT_EQ(r.rttvar_ns, p->clock_granularity_ns);
		EXPECT_TRUE(sctp_rto_measured(&r));
		EXPECT_EQ(r.rto_ns, p->rto_min_ns);

		r = fresh(*p);
		sctp_rto_sample(&r, p, 0); // a zero RTT (virtual clock) is a sample too
		EXPECT_TRUE(sctp_rto_measured(&r));
		EXPECT_EQ(r.rttvar_ns, p->clock_granularity_ns);
	}

	// C3 with a steady RTT: RTTVAR = (3 * 1 + 0) / 4 = 0 -> G, where G shows in the RTO.
	struct sctp_rto r = { 0, SCTP_S(2), 1 };
	sctp_rto_sample(&r, &sctp_profile_rfc, SCTP_S(2));
	EXPECT_EQ(r.rttvar_ns, SCTP_MS(1));
	EXPECT_EQ(r.rto_ns, SCTP_S(2) + SCTP_MS(4)); // 2.004 s

	r = { 0, SCTP_MS(1), 1 };
	sctp_rto_sample(&r, &sctp_profile_dc, SCTP_MS(1));
	EXPECT_EQ(r.rttvar_ns, SCTP_US(1));
	EXPECT_EQ(r.rto_ns, SCTP_US(1004)); // 1.004 ms
}

// E2: double on each expiry, capped at RTO.Max.
TEST(Rto, E2BackoffDoublesToTheCapRfc)
{
	const struct sctp_profile &p = sctp_profile_rfc;
	assume_rfc(p);
	struct sctp_rto r = fresh(p);
	const uint64_t want[] = { 2, 4, 8, 16, 32, 60, 60, 60 };
	for (uint64_t s : want) {
		sctp_rto_backoff(&r, &p);
		EXPECT_EQ(r.rto_ns, SCTP_S(s));
	}
	EXPECT_FALSE(sctp_rto_measured(&r)); // back-off is not a sample
}

TEST(Rto, E2BackoffDoublesToTheCapDc)
{
	const struct sctp_profile &p = sctp_profile_dc;
	assume_dc(p);
	struct sctp_rto r = fresh(p); // 10 ms
	const uint64_t from_initial_ms[] = { 20, 40, 80, 160, 200, 200 };
	for (uint64_t ms : from_initial_ms) {
		sctp_rto_backoff(&r, &p);
		EXPECT_EQ(r.rto_ns, SCTP_MS(ms));
	}

	r = fresh(p);
	sctp_rto_sample(&r, &p, SCTP_US(10)); // measured path, RTO at RTO.Min = 500 us
	ASSERT_EQ(r.rto_ns, SCTP_US(500));
	const uint64_t from_min_us[] = { 1000,	2000,  4000,   8000,   16000,
					 32000, 64000, 128000, 200000, 200000 };
	for (uint64_t us : from_min_us) {
		sctp_rto_backoff(&r, &p);
		EXPECT_EQ(r.rto_ns, SCTP_US(us));
	}
}

TEST(Rto, CapIsExactForAnOddRtoMax)
{
	struct sctp_profile p = sctp_profile_rfc;
	p.rto_max_ns = 1001;
	struct sctp_rto r = { 500, 0, 0 };
	sctp_rto_backoff(&r, &p);
	EXPECT_EQ(r.rto_ns, 1000u);
	sctp_rto_backoff(&r, &p);
	EXPECT_EQ(r.rto_ns, 1001u);
}

// RFC 9260 §6.3.3: a new sample after back-off recomputes from SRTT/RTTVAR.
TEST(Rto, SampleAfterBackoffCollapsesTheRto)
{
	const struct sctp_profile &p = sctp_profile_rfc;
	struct sctp_rto r = fresh(p);
	sctp_rto_sample(&r, &p, SCTP_S(2)); // 6 s
	sctp_rto_backoff(&r, &p);
	sctp_rto_backoff(&r, &p);
	ASSERT_EQ(r.rto_ns, SCTP_S(24));
	// RTTVAR = 3/4 * 1 + 0 = 0.75 s, SRTT = 2 s, RTO = 2 + 3 = 5 s
	sctp_rto_sample(&r, &p, SCTP_S(2));
	EXPECT_EQ(r.rto_ns, SCTP_S(5));
}

// Samples past RTO.Max count as RTO.Max; nothing wraps.
TEST(Rto, HugeSamplesRfc)
{
	const struct sctp_profile &p = sctp_profile_rfc;
	struct sctp_rto r = fresh(p);
	sctp_rto_sample(&r, &p, UINT64_MAX); // as 60 s: SRTT 60, RTTVAR 30, RTO 180 -> 60
	EXPECT_EQ(r.srtt_ns, SCTP_S(60));
	EXPECT_EQ(r.rttvar_ns, SCTP_S(30));
	EXPECT_EQ(r.rto_ns, SCTP_S(60));
	// R' = 0: RTTVAR = (3 * 30 + 60) / 4 = 37.5 s, SRTT = 7/8 * 60 = 52.5 s
	sctp_rto_sample(&r, &p, 0);
	EXPECT_EQ(r.rttvar_ns, SCTP_MS(37500));
	EXPECT_EQ(r.srtt_ns, SCTP_MS(52500));
	EXPECT_EQ(r.rto_ns, SCTP_S(60));

	r = fresh(p);
	sctp_rto_sample(&r, &p, SCTP_S(1)); // SRTT 1, RTTVAR 0.5
	// R' = 60: RTTVAR = (1.5 + 59) / 4 = 15.125 s, SRTT = (7 + 60) / 8 = 8.375 s
	sctp_rto_sample(&r, &p, UINT64_MAX - 1);
	EXPECT_EQ(r.rttvar_ns, SCTP_MS(15125));
	EXPECT_EQ(r.srtt_ns, SCTP_MS(8375));
	EXPECT_EQ(r.rto_ns, SCTP_S(60));
}

TEST(Rto, HugeSamplesDc)
{
	const struct sctp_profile &p = sctp_profile_dc;
	struct sctp_rto r = fresh(p);
	sctp_rto_sample(&r, &p, UINT64_MAX); // as 200 ms: RTO 600 -> 200 ms
	EXPECT_EQ(r.srtt_ns, SCTP_MS(200));
	EXPECT_EQ(r.rttvar_ns, SCTP_MS(100));
	EXPECT_EQ(r.rto_ns, SCTP_MS(200));
}

// The widest profile sctp_profile_check() accepts, hammered with extremes:
// every value stays inside its bounds.
TEST(Rto, NoOverflowAtTheProfileLimits)
{
	struct sctp_profile p = sctp_profile_rfc;
	p.rto_max_ns = SCTP_S(3600);
	p.rto_initial_ns = SCTP_S(3600);
	p.rto_alpha_shift = 8;
	p.rto_beta_shift = 8;
	ASSERT_EQ(sctp_profile_check(&p), nullptr);
	p.rto_alpha_shift = 1;
	p.rto_beta_shift = 1;
	ASSERT_EQ(sctp_profile_check(&p), nullptr);

	for (uint8_t shift : { 1, 8 }) {
		p.rto_alpha_shift = shift;
		p.rto_beta_shift = shift;
		struct sctp_rto r = fresh(p);
		const uint64_t samples[] = { UINT64_MAX,   0, UINT64_MAX, UINT64_MAX - 1, 1,
					     SCTP_S(3600), 0, UINT64_MAX };
		for (int round = 0; round < 100; round++) {
			for (uint64_t s : samples) {
				sctp_rto_sample(&r, &p, s);
				EXPECT_LE(r.srtt_ns, p.rto_max_ns);
				EXPECT_LE(r.rttvar_ns, p.rto_max_ns);
				EXPECT_GE(r.rto_ns, p.rto_min_ns);
				EXPECT_LE(r.rto_ns, p.rto_max_ns);
				sctp_rto_backoff(&r, &p);
				EXPECT_LE(r.rto_ns, p.rto_max_ns);
			}
		}
	}
}
