/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] Heartbeats at scale (docs/PATHS.md "Heartbeats at scale"): a worker
// sends idle-path HEARTBEATs at most at --hb-rate, whatever the number of
// idle associations and their HB.interval. 400 idle associations with a
// 1 ms HB.interval want ~250,000 heartbeats a second each way; with
// --hb-rate 5000 on both instances each sends at most 5,000 a second (plus
// the millisecond's worth that goes at once), the rest wait for their
// slots (hb_deferred), and no association suffers for it: none ends, every
// path stays active and a message still crosses each of them afterwards.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "dataplane/tests/dp_pair.h"

namespace {

constexpr uint16_t kPort = 7111;
constexpr unsigned kAssocs = 400;
constexpr uint64_t kRate = 5000;

// One end's associations: how many came up and ended, and messages received.
struct Many {
	std::vector<dpsctp_assoc *> up;
	unsigned ended = 0;
	uint64_t msgs = 0;

	static dpsctp_callbacks callbacks()
	{
		dpsctp_callbacks cb = {};
		cb.on_recv = [](dpsctp_assoc *, const dpsctp_msg *, void *arg) {
			static_cast<Many *>(arg)->msgs++;
		};
		cb.on_event = [](dpsctp_assoc *a, const dpsctp_event *ev, void *arg) {
			Many *m = static_cast<Many *>(arg);
			if (ev->type == DPSCTP_EV_COMM_UP)
				m->up.push_back(a);
			if (ev->type == DPSCTP_EV_COMM_LOST || ev->type == DPSCTP_EV_CANT_START ||
			    ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE)
				m->ended++;
		};
		return cb;
	}
	uint64_t heartbeats() const
	{
		uint64_t n = 0;
		for (dpsctp_assoc *a : up) {
			dpsctp_assoc_stats st = {};
			EXPECT_EQ(dpsctp_assoc_get_stats(a, &st), 0);
			n += st.heartbeats_out;
		}
		return n;
	}
};

class DpHeartbeat : public DpPair {};

double
seconds_since(std::chrono::steady_clock::time_point t0)
{
	return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST_F(DpHeartbeat, IdleHeartbeatsKeepToTheRate)
{
	// PLPMTUD off: its probes are HEARTBEATs too, and not idle ones.
	const Opts o = { { "max-assocs", "512" },
			 { "hb-interval", "1000" },
			 { "plpmtud", "off" },
			 { "hb-rate", std::to_string(kRate) } };
	open_pair("hb", o, o);
	Many cli, srv;
	const dpsctp_callbacks cb = Many::callbacks();
	ASSERT_EQ(dpsctp_listen(s_, kPort, &cb, &srv), 0);
	sctp_addr peer = { 4, { 10, 0, 0, 2 } };
	for (unsigned started = 0; started < kAssocs;) {
		int rc = 0;
		if (dpsctp_connect_opts(c_, 0, &peer, 1, kPort, 0, nullptr, &cb, &cli, &rc) !=
		    nullptr) {
			started++;
			continue;
		}
		ASSERT_TRUE(rc == -ENOBUFS || rc == -ENOMEM)
			<< rc; // handshakes full: let some finish
		poll();
	}
	ASSERT_TRUE(until([&] { return cli.up.size() == kAssocs && srv.up.size() == kAssocs; }))
		<< cli.up.size() << " " << srv.up.size() << " " << dp_test_counters(c_);

	// Half a second of idleness, by the clock the workers read. Idle
	// heartbeats: every HEARTBEAT sent but the probes of suspect paths (a
	// descheduled poller's heartbeats time out), which go whatever the
	// budget.
	auto idle_hbs = [this](dpsctp *d) {
		return counter(d, "tx_heartbeats") - counter(d, "hb_probes");
	};
	const uint64_t c0 = idle_hbs(c_), s0 = idle_hbs(s_);
	const uint64_t cdef0 = counter(c_, "hb_deferred"), sdef0 = counter(s_, "hb_deferred");
	const auto t0 = std::chrono::steady_clock::now();
	while (seconds_since(t0) < 0.5)
		poll();
	const double dt = seconds_since(t0);
	const uint64_t csent = idle_hbs(c_) - c0, ssent = idle_hbs(s_) - s0;
	// The worker's count of HEARTBEAT chunks and the associations' own agree.
	EXPECT_EQ(cli.heartbeats(), counter(c_, "tx_heartbeats"));
	EXPECT_EQ(srv.heartbeats(), counter(s_, "tx_heartbeats"));
	std::printf("over %.3f s: client sent %lu heartbeats (%lu deferred), server %lu (%lu)\n",
		    dt, (unsigned long)csent, (unsigned long)(counter(c_, "hb_deferred") - cdef0),
		    (unsigned long)ssent, (unsigned long)(counter(s_, "hb_deferred") - sdef0));
	// At most the rate, and the millisecond that goes at once, plus one slot
	// either side of the window.
	const double most = kRate * dt + kRate / 1000.0 + 2;
	EXPECT_LE(csent, most);
	EXPECT_LE(ssent, most);
	// The budget is used, not starved: slots are granted on the clock, so
	// even a descheduled poller sends what fell due when it comes back.
	EXPECT_GE(csent, kRate * dt / 4);
	EXPECT_GE(ssent, kRate * dt / 4);
	EXPECT_GT(counter(c_, "hb_deferred"), cdef0);
	EXPECT_GT(counter(s_, "hb_deferred"), sdef0);

	// Nobody suffered: no association ended, every path is active, and a
	// message crosses each association.
	EXPECT_EQ(cli.ended + srv.ended, 0u);
	for (dpsctp_assoc *a : cli.up) {
		dpsctp_path_stats ps = {};
		ASSERT_EQ(dpsctp_path_get_stats(a, 0, &ps), 0);
		EXPECT_EQ(ps.state, (uint32_t)DPSCTP_PATH_ACTIVE);
		const dpsctp_sndinfo si = {};
		ASSERT_EQ(dpsctp_send_bytes(a, &si, "hb", 2), 0);
	}
	ASSERT_TRUE(until([&] { return srv.msgs == kAssocs; }))
		<< srv.msgs << " " << dp_test_counters(s_);
	EXPECT_EQ(cli.ended + srv.ended, 0u);
	for (dpsctp_assoc *a : cli.up)
		ASSERT_EQ(dpsctp_shutdown(a), 0);
	ASSERT_TRUE(until([&] { return cli.ended == kAssocs && srv.ended == kAssocs; }))
		<< cli.ended << " " << srv.ended;
}

} // namespace
