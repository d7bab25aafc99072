// SPDX-License-Identifier: BSD-3-Clause
// The RFC 8899 state machine of one path (sctp/plpmtud.h), driven by hand:
// which size is probed, what a loss or an acknowledgment does.
#include <gtest/gtest.h>

extern "C" {
#include "sctp/plpmtud.h"
}

namespace {

const struct sctp_plpmtud_params kP = { 576, 1500, SCTP_S(1), SCTP_S(600) };

// Send the wanted probe at `now`; true if one was wanted.
bool
send(struct sctp_plpmtud *s, uint64_t now, uint64_t nonce = 7)
{
	if (sctp_plpmtud_want(s) == 0)
		return false;
	sctp_plpmtud_sent(s, nonce, now, SCTP_S(1));
	return true;
}

enum sctp_plpmtud_change
ack(struct sctp_plpmtud *s, uint64_t now, uint64_t nonce = 7)
{
	enum sctp_plpmtud_change ch;
	EXPECT_EQ(sctp_plpmtud_on_ack(s, &kP, s->probe_size, nonce, now, &ch), 0);
	return ch;
}

// MAX_PROBES probes of the wanted size, all lost.
enum sctp_plpmtud_change
lose(struct sctp_plpmtud *s, uint64_t *now)
{
	enum sctp_plpmtud_change ch = SCTP_PLPMTUD_SAME;
	uint16_t size = sctp_plpmtud_want(s);
	for (unsigned k = 0; k < SCTP_PLPMTUD_MAX_PROBES; k++) {
		EXPECT_EQ(sctp_plpmtud_want(s), size);
		EXPECT_TRUE(send(s, *now));
		*now += SCTP_S(1);
		unsigned lost = 0;
		ch = sctp_plpmtud_on_timer(s, &kP, *now, &lost);
		EXPECT_EQ(lost, 1u);
	}
	return ch;
}

TEST(Plpmtud, Clamp)
{
	EXPECT_EQ(sctp_plpmtud_clamp(&kP, 1283), 1280);
	EXPECT_EQ(sctp_plpmtud_clamp(&kP, 9000), 1500);
	EXPECT_EQ(sctp_plpmtud_clamp(&kP, 100), 576);
	const struct sctp_plpmtud_params odd = { 577, 1500, SCTP_S(1), SCTP_S(600) };
	EXPECT_EQ(sctp_plpmtud_clamp(&odd, 100), 580);
}

TEST(Plpmtud, StartConfirmsInterfaceMtu)
{
	struct sctp_plpmtud s;
	sctp_plpmtud_start(&s, &kP, 1500);
	EXPECT_EQ(s.plpmtu, 1500);
	EXPECT_EQ(sctp_plpmtud_want(&s), 1500);
	EXPECT_TRUE(send(&s, 0));
	EXPECT_EQ(sctp_plpmtud_want(&s), 0); // outstanding: not wanted twice
	EXPECT_EQ(sctp_plpmtud_next(&s), SCTP_S(1));
	EXPECT_EQ(ack(&s, 100), SCTP_PLPMTUD_SAME);
	EXPECT_EQ(s.state, SCTP_PLPMTUD_SEARCH_COMPLETE);
	EXPECT_EQ(sctp_plpmtud_want(&s), 0);
	EXPECT_EQ(sctp_plpmtud_next(&s), 100 + SCTP_S(600));
}

TEST(Plpmtud, WrongNonceOrSizeRefused)
{
	struct sctp_plpmtud s;
	enum sctp_plpmtud_change ch;
	sctp_plpmtud_start(&s, &kP, 1500);
	EXPECT_EQ(sctp_plpmtud_on_ack(&s, &kP, 1500, 7, 0, &ch), -1); // nothing sent yet
	send(&s, 0, 42);
	EXPECT_EQ(sctp_plpmtud_on_ack(&s, &kP, 1500, 7, 0, &ch), -1);
	EXPECT_EQ(sctp_plpmtud_on_ack(&s, &kP, 1496, 42, 0, &ch), -1);
	EXPECT_EQ(sctp_plpmtud_on_ack(&s, &kP, 1500, 42, 0, &ch), 0);
	// A replay of the same ACK is refused.
	EXPECT_EQ(sctp_plpmtud_on_ack(&s, &kP, 1500, 42, 0, &ch), -1);
}

// The path is 1280: the confirmation of 1500 fails (black hole), BASE 1200
// is confirmed, the search climbs by 32 then by 4 and ends at 1280.
TEST(Plpmtud, BlackHoleThenSearchFinds1280)
{
	struct sctp_plpmtud s;
	uint64_t now = 0;
	const uint16_t path = 1280;
	sctp_plpmtud_start(&s, &kP, 1500);
	EXPECT_EQ(lose(&s, &now), SCTP_PLPMTUD_LOWER);
	EXPECT_EQ(s.state, SCTP_PLPMTUD_BASE);
	EXPECT_EQ(s.plpmtu, SCTP_PLPMTUD_BASE_PLPMTU);
	unsigned rounds = 0;
	while (s.state != SCTP_PLPMTUD_SEARCH_COMPLETE && rounds++ < 100) {
		if (sctp_plpmtud_want(&s) <= path) {
			send(&s, now);
			now += SCTP_MS(50);
			ack(&s, now);
		} else {
			lose(&s, &now);
		}
	}
	EXPECT_EQ(s.state, SCTP_PLPMTUD_SEARCH_COMPLETE);
	EXPECT_EQ(s.plpmtu, path);
	EXPECT_LT(rounds, 20u);
}

TEST(Plpmtud, BaseFailsToError)
{
	struct sctp_plpmtud s;
	uint64_t now = 0;
	sctp_plpmtud_start(&s, &kP, 1500);
	lose(&s, &now); // black hole: BASE
	EXPECT_EQ(lose(&s, &now), SCTP_PLPMTUD_LOWER);
	EXPECT_EQ(s.state, SCTP_PLPMTUD_ERROR);
	EXPECT_EQ(s.plpmtu, 576);
	// BASE_PLPMTU is still probed, and confirmed, the search goes on.
	EXPECT_EQ(sctp_plpmtud_want(&s), SCTP_PLPMTUD_BASE_PLPMTU);
	send(&s, now);
	EXPECT_EQ(ack(&s, now), SCTP_PLPMTUD_HIGHER);
	EXPECT_EQ(s.state, SCTP_PLPMTUD_SEARCHING);
	// Out of ERROR the path was more likely down than narrow: the top first.
	EXPECT_EQ(sctp_plpmtud_want(&s), 1500);
}

TEST(Plpmtud, RaiseTimerTriesTopFirst)
{
	struct sctp_plpmtud s;
	struct sctp_plpmtud_params p = kP;
	p.raise_ns = SCTP_S(10);
	enum sctp_plpmtud_change ch;
	sctp_plpmtud_start(&s, &p, 1500);
	EXPECT_EQ(sctp_plpmtud_on_ptb(&s, &p, 1280, 0), SCTP_PLPMTUD_LOWER);
	EXPECT_EQ(s.plpmtu, 1280);
	// The PTB's size is confirmed by a probe.
	EXPECT_EQ(sctp_plpmtud_want(&s), 1280);
	send(&s, 0);
	EXPECT_EQ(sctp_plpmtud_on_ack(&s, &p, 1280, 7, 0, &ch), 0);
	EXPECT_EQ(s.state, SCTP_PLPMTUD_SEARCH_COMPLETE);
	EXPECT_EQ(sctp_plpmtud_on_timer(&s, &p, SCTP_S(10), nullptr), SCTP_PLPMTUD_SAME);
	EXPECT_EQ(s.state, SCTP_PLPMTUD_SEARCHING);
	EXPECT_EQ(sctp_plpmtud_want(&s), 1500);
	send(&s, SCTP_S(10));
	EXPECT_EQ(sctp_plpmtud_on_ack(&s, &p, 1500, 7, SCTP_S(10), &ch), 0);
	EXPECT_EQ(ch, SCTP_PLPMTUD_HIGHER);
	EXPECT_EQ(s.plpmtu, 1500);
	EXPECT_EQ(s.state, SCTP_PLPMTUD_SEARCH_COMPLETE);
}

TEST(Plpmtud, PtbNotLowerIgnored)
{
	struct sctp_plpmtud s;
	sctp_plpmtud_start(&s, &kP, 1280);
	EXPECT_EQ(sctp_plpmtud_on_ptb(&s, &kP, 1400, 0), SCTP_PLPMTUD_SAME);
	EXPECT_EQ(sctp_plpmtud_on_ptb(&s, &kP, 1280, 0), SCTP_PLPMTUD_SAME);
	EXPECT_EQ(s.plpmtu, 1280);
	// Below the floor: the floor.
	EXPECT_EQ(sctp_plpmtud_on_ptb(&s, &kP, 68, 0), SCTP_PLPMTUD_LOWER);
	EXPECT_EQ(s.plpmtu, 576);
}

TEST(Plpmtud, LossSignalConfirmsOnce)
{
	struct sctp_plpmtud s;
	sctp_plpmtud_start(&s, &kP, 1500);
	send(&s, 0);
	ack(&s, 0);
	ASSERT_EQ(s.state, SCTP_PLPMTUD_SEARCH_COMPLETE);
	sctp_plpmtud_on_loss(&s);
	EXPECT_EQ(sctp_plpmtud_want(&s), 1500);
	send(&s, 0);
	sctp_plpmtud_on_loss(&s); // already confirming: nothing new
	EXPECT_TRUE(s.out);
	ack(&s, 0);
	EXPECT_EQ(s.state, SCTP_PLPMTUD_SEARCH_COMPLETE);
	EXPECT_EQ(s.plpmtu, 1500);
}

TEST(Plpmtud, LossSignalsDoNotRestartAFailingSize)
{
	// A path of 1280 whose T3-rtx expires at every search probe too large
	// for it (a loaded path): each loss signal confirms the PLPMTU, but the
	// search size keeps its lost probes, so each size above 1280 costs
	// MAX_PROBES probes (1500, 1312, 1284: nine) and the search ends.
	struct sctp_plpmtud s;
	uint64_t now = 0;
	const uint16_t path = 1280;
	unsigned over = 0, rounds = 0;
	sctp_plpmtud_start(&s, &kP, path);
	while (s.state != SCTP_PLPMTUD_SEARCH_COMPLETE && rounds++ < 100) {
		uint16_t size = sctp_plpmtud_want(&s);
		ASSERT_NE(size, 0);
		send(&s, now);
		if (size <= path) {
			now += SCTP_MS(50);
			ack(&s, now);
			continue;
		}
		over++;
		sctp_plpmtud_on_loss(&s); // T3-rtx while the probe is out
		EXPECT_TRUE(s.out);
		now += SCTP_S(1);
		unsigned lost = 0;
		sctp_plpmtud_on_timer(&s, &kP, now, &lost);
		EXPECT_EQ(lost, 1u);
	}
	EXPECT_EQ(s.state, SCTP_PLPMTUD_SEARCH_COMPLETE);
	EXPECT_EQ(s.plpmtu, path);
	EXPECT_EQ(over, 3 * SCTP_PLPMTUD_MAX_PROBES);
}

TEST(Plpmtud, StopAndNames)
{
	struct sctp_plpmtud s;
	sctp_plpmtud_start(&s, &kP, 1500);
	sctp_plpmtud_stop(&s);
	EXPECT_EQ(sctp_plpmtud_want(&s), 0);
	EXPECT_EQ(sctp_plpmtud_next(&s), SCTP_TIME_NEVER);
	EXPECT_STREQ(sctp_plpmtud_state_name(SCTP_PLPMTUD_SEARCH_COMPLETE), "search_complete");
	EXPECT_STREQ(sctp_plpmtud_state_name((enum sctp_plpmtud_state)99), "unknown");
}

} // namespace
