// SPDX-License-Identifier: BSD-3-Clause
// Spurious T3-rtx detection (sctp/spurious.c): an episode is judged spurious
// only when every retransmission of every TSN came back as a duplicate, per
// TSN; a real loss (a retransmission that is no duplicate), a fast
// retransmit, a second path, a chunk retransmitted before the episode, too
// many TSNs, or a peer that reports no duplicates never undoes anything;
// the undo restores cwnd, ssthresh and the RTO before the back-off. F-RTO
// (RFC 5682 §2.1, the SCTP reading in sctp/spurious.h) holds the rest of
// what the expiry marked when the first SACK after its packet acknowledges
// originals and new data can go; the next SACK that moves the Cumulative
// TSN Ack past what was retransmitted calls the timeout spurious, one that
// reports data above a hole calls it a loss.
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
	uint32_t highest = 1099; // the highest TSN sent when T3-rtx expires

	void expire(unsigned path = 0, bool clean = true)
	{
		sctp_spurious_on_t3(&s, path, &cc, &rto, clean, highest);
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

namespace {

// A SACK for F-RTO, then for the duplicate detector, as the association does.
struct Frto : Spurious {
	enum sctp_frto_verdict fsack(uint32_t cum, bool advanced, bool dups = false,
				     bool can_new = true)
	{
		return sctp_frto_on_sack(&s, cum, advanced, dups, can_new);
	}
};

} // namespace

// The stall: originals 1000..1099 in flight, the expiry resends 1000..1017
// in one packet, the peer's SACKs of the originals come in order.
TEST_F(Frto, OriginalsAcknowledgedPastTheCopiesAreASpuriousTimeout)
{
	expire();
	rtx(1000, 18);
	EXPECT_FALSE(sctp_frto_holding(&s));
	EXPECT_EQ(fsack(1001, true), SCTP_FRTO_HOLD) << "step 2b: part of the window acknowledged";
	EXPECT_TRUE(sctp_frto_holding(&s));
	EXPECT_EQ(sack(1001), SCTP_SPURIOUS_NONE);
	EXPECT_EQ(fsack(1010, true), SCTP_FRTO_NONE) << "within what was resent: ambiguous";
	EXPECT_TRUE(sctp_frto_holding(&s));
	EXPECT_EQ(fsack(1017, true), SCTP_FRTO_NONE) << "up to the last copy: still ambiguous";
	EXPECT_EQ(fsack(1018, true), SCTP_FRTO_SPURIOUS) << "an original never resent";
	EXPECT_FALSE(sctp_spurious_open(&s));
	EXPECT_FALSE(sctp_frto_holding(&s));
}

TEST_F(Frto, ASackWithoutProgressOrDuplicatesAfterTheHoldIsALoss)
{
	expire();
	rtx(1000, 18);
	ASSERT_EQ(fsack(1017, true), SCTP_FRTO_HOLD);
	EXPECT_EQ(fsack(1017, false, false), SCTP_FRTO_LOSS) << "3a: new data above a hole";
	EXPECT_FALSE(sctp_frto_holding(&s));
	EXPECT_TRUE(sctp_spurious_open(&s)) << "the duplicate detector still judges the copies";
}

TEST_F(Frto, DuplicatesAloneNeitherEndNorDecide)
{
	expire();
	rtx(1000, 18);
	EXPECT_EQ(fsack(999, false, true), SCTP_FRTO_NONE);
	EXPECT_EQ(fsack(1003, true), SCTP_FRTO_HOLD) << "still at step 2 after the duplicates";
	EXPECT_EQ(fsack(1003, false, true), SCTP_FRTO_NONE)
		<< "the copy arrived after its original";
	EXPECT_TRUE(sctp_frto_holding(&s));
	EXPECT_EQ(fsack(1030, true), SCTP_FRTO_SPURIOUS);
}

TEST_F(Frto, AFirstSackWithoutProgressFallsBackToTheRfc)
{
	expire();
	rtx(1000, 18);
	EXPECT_EQ(fsack(999, false), SCTP_FRTO_NONE) << "2a: a SACK for data above a hole";
	EXPECT_FALSE(sctp_frto_holding(&s));
	EXPECT_EQ(fsack(1050, true), SCTP_FRTO_NONE) << "F-RTO ended; nothing holds";
	EXPECT_FALSE(sctp_frto_holding(&s));
}

TEST_F(Frto, NothingNewToSendOrEverythingAcknowledgedHoldsNothing)
{
	expire();
	rtx(1000, 18);
	EXPECT_EQ(fsack(1005, true, false, false), SCTP_FRTO_NONE) << "no new data: 2a";
	EXPECT_FALSE(sctp_frto_holding(&s));

	SetUp();
	expire();
	rtx(1000, 18);
	EXPECT_EQ(fsack(highest, true), SCTP_FRTO_NONE) << "up to recover: nothing left marked";
	EXPECT_FALSE(sctp_frto_holding(&s));
}

TEST_F(Frto, NoVerdictBeforeTheExpirysPacketWent)
{
	expire();
	EXPECT_EQ(fsack(1005, true), SCTP_FRTO_NONE);
	rtx(1000, 18);
	EXPECT_EQ(fsack(1006, true), SCTP_FRTO_HOLD) << "the first SACK after the packet";
}

TEST_F(Frto, AnotherExpiryAfterTheHoldEndsFrto)
{
	expire();
	rtx(1000, 18);
	expire(); // the stall outlasts the backed-off RTO: still step 1
	rtx(1000, 18);
	ASSERT_EQ(fsack(1001, true), SCTP_FRTO_HOLD);
	expire(); // neither the held chunks nor the new data answered
	EXPECT_FALSE(sctp_frto_holding(&s));
	EXPECT_EQ(fsack(1050, true), SCTP_FRTO_NONE);
}

TEST_F(Frto, EndsWithTheEpisode)
{
	expire();
	rtx(1000, 18);
	ASSERT_EQ(fsack(1001, true), SCTP_FRTO_HOLD);
	sctp_spurious_cancel(&s); // a fast retransmit
	EXPECT_FALSE(sctp_frto_holding(&s));
	highest = 2100;
	expire(1); // a fresh episode on another path starts at step 1 again
	rtx(2000, 2);
	EXPECT_EQ(fsack(2000, true), SCTP_FRTO_HOLD);
	sctp_frto_release(&s);
	EXPECT_FALSE(sctp_frto_holding(&s));
	EXPECT_TRUE(sctp_spurious_open(&s));
}

TEST_F(Frto, WorksAcrossTheTsnWrap)
{
	highest = 20;
	expire();
	rtx(0xfffffff0u, 18); // up to 1
	ASSERT_EQ(fsack(0xfffffff5u, true), SCTP_FRTO_HOLD);
	EXPECT_EQ(fsack(1, true), SCTP_FRTO_NONE);
	EXPECT_EQ(fsack(2, true), SCTP_FRTO_SPURIOUS);
}
