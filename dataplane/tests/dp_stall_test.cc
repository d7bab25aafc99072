/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] A worker descheduled while its queue fills: after the gap, the poll
// reads what came meanwhile (up to DP_RX_CATCHUP bursts) before the timers
// run (dataplane/dp_worker.c). The client has two associations to the
// server; one message on B is sent, then the server sends 64 packets on A
// and only after them B's SACK, and the client sleeps past B's T3-rtx
// deadline. Its first poll after the sleep must see the SACK behind the 64
// frames before T3-rtx fires: B counts no expiry and retransmits nothing.
// With one burst per poll (32 frames) before the timers, B's T3-rtx expired
// although its data had long been acknowledged.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "dataplane/tests/dp_pair.h"

namespace {

constexpr uint16_t kPortA = 5001, kPortB = 5002;

using App = DpPairApp;
const dpsctp_callbacks kCb = DpPairApp::callbacks();

class DpStall : public DpPair {};

TEST_F(DpStall, ASackBehindAFullBurstIsReadBeforeTheTimers)
{
	// The server holds a lone packet's SACK 50 ms (its RTO.Min above that, as
	// the configuration requires): B's comes after A's 64.
	open_pair("stall", {},
		  { { "sack-delay", "50000" },
		    { "rto-min", "100000" },
		    { "rto-initial", "100000" } });
	App ca, cb, sa, sb;
	ASSERT_EQ(dpsctp_listen(s_, kPortA, &kCb, &sa), 0);
	ASSERT_EQ(dpsctp_listen(s_, kPortB, &kCb, &sb), 0);
	ca.a = connect_to(kPortA, &kCb, &ca);
	cb.a = connect_to(kPortB, &kCb, &cb);
	ASSERT_TRUE(until([&] { return ca.up && cb.up && sa.up && sb.up; }));
	for (int i = 0; i < 20000; i++) // both idle: SACKs and heartbeats answered
		poll();

	// One message on B: the client's poll sends it, the server's takes it
	// and owes a SACK (delayed: one packet, not the four it waits for).
	dpsctp_sndinfo si = { 0, 0, 0, DPSCTP_PR_NONE, 0, 0 };
	ASSERT_EQ(dpsctp_send_bytes(cb.a, &si, "b", 1), 0);
	ASSERT_EQ(dpsctp_flush(cb.a), 0);
	dpsctp_poll(c_, 0);
	dpsctp_poll(s_, 0);
	ASSERT_EQ(sb.msgs, 1u);
	// 64 packets on A into the client's queue, then the delayed SACK on B.
	for (uint32_t k = 0; k < 64; k++) {
		ASSERT_EQ(dpsctp_send_bytes(sa.a, &si, "a", 1), 0);
		ASSERT_EQ(dpsctp_flush(sa.a), 0);
		dpsctp_poll(s_, 0);
	}
	uint64_t sacks = stats(sb.a).sacks_out;
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
	while (stats(sb.a).sacks_out == sacks && std::chrono::steady_clock::now() < end)
		dpsctp_poll(s_, 0);
	ASSERT_GT(stats(sb.a).sacks_out, sacks) << "the server's delayed SACK went";
	ASSERT_EQ(stats(ca.a).data_chunks_in, 0u) << "the client has not read a frame";

	// The client's thread "descheduled" past B's RTO (at most RTO.Max, 200 ms).
	std::this_thread::sleep_for(std::chrono::milliseconds(250));
	uint64_t rx0 = counter(c_, "rx_packets");
	dpsctp_poll(c_, 0);
	EXPECT_GE(counter(c_, "rx_packets") - rx0, 65u) << "the queue read to the SACK";
	EXPECT_GE(counter(c_, "rx_catchup"), 33u);
	EXPECT_EQ(stats(ca.a).data_chunks_in, 64u);
	EXPECT_EQ(stats(cb.a).t3_expiries, 0u) << "B's data was acknowledged all along";
	EXPECT_EQ(stats(cb.a).data_chunks_rtx, 0u);

	ASSERT_TRUE(until([&] { return ca.msgs == 64; }));
	ASSERT_EQ(dpsctp_shutdown(cb.a), 0);
	close_pair(ca, sa);
	ASSERT_TRUE(until([&] { return cb.ended && sb.ended; }));
}

} // namespace
