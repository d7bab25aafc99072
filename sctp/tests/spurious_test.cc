// SPDX-License-Identifier: BSD-3-Clause
// Spurious T3-rtx detection (sctp/spurious.c): an episode is judged spurious
// only when every retransmission of every TSN came back as a duplicate, per
// TSN; a real loss (a retransmission that is no duplicate), a fast
// retransmit, a second path, a chunk retransmitted before the episode, too
// many TSNs, or a peer that reports no duplicates never undoes anything;
// the undo restores cwnd, ssthresh and the RTO before the back-off.
#include <gtest/gtest.h>

#include <cstdint>

extern "C" {
#include "sctp/spurious.h"
}

namespace {

struct sctp_cc_path
cc_before()
{
	struct sctp_cc_path c = {};
	c.cwnd = 40000;
	c.ssthresh = 30000;
	c.partial_bytes_acked = 1200;
	c.pmdcs = 1452;
	return c;
}

struct sctp_rto
rto_before()
{
	struct sctp_rto r = {};
	r.rto_ns = 500000;
	r.srtt_ns = 40000;
	r.rttvar_ns = 20000;
	return r;
}

class Spurious : public ::testing::Test {
      protected:
	struct sctp_spurious s = {};
	struct sctp_cc_path cc = cc_before();
	struct sctp_rto rto = rto_before();
	uint64_t now = 1000000000; // the virtual clock, ns

	void SetUp() override
	{
		sctp_spurious_init(&s);
	}
	void expire(unsigned path = 0, bool clean = true)
	{
		sctp_spurious_on_t3(&s, path, &cc, &rto, clean);
		// What the caller does next: §7.2.3 and §6.3.3 E2.
		cc.ssthresh = cc.cwnd / 2;
		cc.cwnd = cc.pmdcs;
		cc.partial_bytes_acked = 0;
		cc.flags |= SCTP_CC_F_ONE_PACKET;
		rto.rto_ns *= 2;
	}
	// TSNs from, from + 1, ... (n of them, serial arithmetic).
	void rtx(uint32_t from, uint32_t n)
	{
		for (uint32_t k = 0; k < n; k++)
			sctp_spurious_on_rtx(&s, from + k, now, rto.rto_ns);
	}
	void dup(uint32_t from, uint32_t n)
	{
		for (uint32_t k = 0; k < n; k++)
			sctp_spurious_on_dup(&s, from + k);
	}
	enum sctp_spurious_verdict sack(uint32_t cum)
	{
		return sctp_spurious_on_sack(&s, cum, now);
	}
};

TEST_F(Spurious, EveryRetransmissionADuplicateUndoes)
{
	expire();
	ASSERT_TRUE(sctp_spurious_open(&s));
	rtx(100, 3);
	// The originals are acknowledged first; the copies are still on their way.
	EXPECT_EQ(sack(102), SCTP_SPURIOUS_NONE);
	dup(100, 3);
	EXPECT_EQ(sack(102), SCTP_SPURIOUS_UNDO);
	EXPECT_FALSE(sctp_spurious_open(&s));
	cc.cwnd = 3000; // slow start since the expiry
	sctp_spurious_undo(&s, &cc, &rto);
	EXPECT_EQ(cc.cwnd, 40000u);
	EXPECT_EQ(cc.ssthresh, 30000u);
	EXPECT_EQ(cc.partial_bytes_acked, 1200u);
	EXPECT_EQ(cc.flags & SCTP_CC_F_ONE_PACKET, 0u);
	EXPECT_EQ(rto.rto_ns, 500000u) << "the back-off undone";
}

TEST_F(Spurious, UndoKeepsALargerCwndAndAFreshRttSample)
{
	expire();
	rtx(100, 1);
	dup(100, 1);
	ASSERT_EQ(sack(100), SCTP_SPURIOUS_UNDO);
	cc.cwnd = 50000;
	rto.srtt_ns = 45000; // a sample since: the RTO it computed stands
	rto.rto_ns = 600000;
	sctp_spurious_undo(&s, &cc, &rto);
	EXPECT_EQ(cc.cwnd, 50000u);
	EXPECT_EQ(rto.rto_ns, 600000u);
}

TEST_F(Spurious, ALostOriginalIsNoDuplicate)
{
	expire();
	rtx(100, 3); // under the doubled RTO: 1 ms
	dup(101, 2); // 100's original was lost: its retransmission was the first copy
	// SACKs of other chunks keep coming while the last copy's duplicate may be on its way.
	for (int i = 0; i < 10; i++) {
		now += 100000;
		EXPECT_EQ(sack(102), SCTP_SPURIOUS_NONE);
	}
	now += 1500000 - 10 * 100000; // the copy's T3-rtx (1 ms) and the RTO before (0.5 ms)
	EXPECT_EQ(sack(102), SCTP_SPURIOUS_NONE) << "not later than that";
	now += 1;
	EXPECT_EQ(sack(102), SCTP_SPURIOUS_GAVE_UP);
	EXPECT_FALSE(sctp_spurious_open(&s));
}

TEST_F(Spurious, CountsArePerTsn)
{
	// A long stall: the timer fires twice, the first packet goes twice.
	expire();
	rtx(100, 2);
	expire();
	EXPECT_TRUE(sctp_spurious_open(&s)) << "the same path: the same episode";
	rtx(100, 2);
	// 100 lost, its two copies arrive: one duplicate. 101's original and
	// both copies arrive: two, and a network duplicate: three. The total (4)
	// equals the retransmissions, but 100 has fewer than it was resent.
	dup(100, 1);
	dup(101, 1);
	dup(101, 1);
	dup(101, 1);
	EXPECT_NE(sack(101), SCTP_SPURIOUS_UNDO);
	dup(100, 1); // the second duplicate of 100 after all: its original had arrived
	EXPECT_EQ(sack(101), SCTP_SPURIOUS_UNDO);
	sctp_spurious_undo(&s, &cc, &rto);
	EXPECT_EQ(cc.cwnd, 40000u) << "the state before the first expiry";
	EXPECT_EQ(rto.rto_ns, 500000u) << "both back-offs undone";
}

TEST_F(Spurious, NotJudgedBeforeEveryRetransmittedChunkIsAcked)
{
	expire();
	rtx(100, 3);
	dup(100, 3);
	EXPECT_EQ(sack(101), SCTP_SPURIOUS_NONE);
	EXPECT_EQ(sack(102), SCTP_SPURIOUS_UNDO);
}

TEST_F(Spurious, NoRetransmissionYetIsNoVerdict)
{
	expire();
	for (int i = 0; i < 8; i++) {
		now += SCTP_S(1);
		EXPECT_EQ(sack(500), SCTP_SPURIOUS_NONE);
	}
	EXPECT_TRUE(sctp_spurious_open(&s));
}

TEST_F(Spurious, AnotherPathDropsTheEpisode)
{
	expire(0);
	rtx(100, 1);
	expire(1);
	EXPECT_FALSE(sctp_spurious_open(&s));
	dup(100, 1);
	EXPECT_EQ(sack(100), SCTP_SPURIOUS_NONE);
}

TEST_F(Spurious, FastRetransmitDropsTheEpisode)
{
	expire();
	rtx(100, 1);
	sctp_spurious_cancel(&s);
	dup(100, 1);
	EXPECT_EQ(sack(100), SCTP_SPURIOUS_NONE);
}

TEST_F(Spurious, AnEarlierRetransmissionOutstandingOpensNothing)
{
	expire(0, false);
	EXPECT_FALSE(sctp_spurious_open(&s));
}

TEST_F(Spurious, TooManyTsnsDropTheEpisode)
{
	expire();
	rtx(100, SCTP_SPURIOUS_SLOTS);
	EXPECT_TRUE(sctp_spurious_open(&s));
	rtx(100 + SCTP_SPURIOUS_SLOTS, 1);
	EXPECT_FALSE(sctp_spurious_open(&s));
}

TEST_F(Spurious, CopiesAfterTheFirstSackAreTheRestNotJudged)
{
	expire();
	rtx(100, 2);				 // the expiry's own packet
	EXPECT_EQ(sack(99), SCTP_SPURIOUS_NONE); // a SACK of the originals, cum not there yet
	rtx(102, 300); // the rest of what the expiry marked, as the window opens
	EXPECT_TRUE(sctp_spurious_open(&s)) << "not counted: no slot overflow";
	dup(100, 2);
	EXPECT_EQ(sack(101), SCTP_SPURIOUS_UNDO);
}

TEST_F(Spurious, AFurtherExpiryCountsItsCopiesAgain)
{
	expire();
	rtx(100, 1);
	EXPECT_EQ(sack(99), SCTP_SPURIOUS_NONE);
	expire(); // the stall goes on: the same packet again
	rtx(100, 1);
	dup(100, 1);
	EXPECT_NE(sack(100), SCTP_SPURIOUS_UNDO) << "two copies, one duplicate";
	dup(100, 1);
	EXPECT_EQ(sack(100), SCTP_SPURIOUS_UNDO);
}

TEST_F(Spurious, ALowerTsnThanTheFirstDropsTheEpisode)
{
	expire();
	rtx(100, 1);
	rtx(99, 1);
	EXPECT_FALSE(sctp_spurious_open(&s));
}

TEST_F(Spurious, DuplicatesOutsideTheEpisodeAreIgnored)
{
	expire();
	rtx(100, 2);
	dup(90, 10);  // below: earlier duplicates (the TSN wraps past the slots)
	dup(102, 40); // above: chunks this episode never resent
	EXPECT_NE(sack(101), SCTP_SPURIOUS_UNDO);
}

TEST_F(Spurious, WorksAcrossTheTsnWrap)
{
	expire();
	rtx(0xfffffffeu, 4); // ...fe, ...ff, 0, 1
	dup(0xfffffffeu, 4);
	EXPECT_EQ(sack(0), SCTP_SPURIOUS_NONE);
	EXPECT_EQ(sack(1), SCTP_SPURIOUS_UNDO);
}

TEST_F(Spurious, ANewCopyMovesTheWaitOn)
{
	expire();
	rtx(100, 1);
	now += 1400000;
	EXPECT_EQ(sack(100), SCTP_SPURIOUS_NONE);
	expire();
	rtx(100, 1); // sent again: its duplicates are still to come
	now += 1400000;
	EXPECT_EQ(sack(100), SCTP_SPURIOUS_NONE) << "within the new copy's wait";
	dup(100, 1);
	dup(100, 1);
	EXPECT_EQ(sack(100), SCTP_SPURIOUS_UNDO);
}

} // namespace
