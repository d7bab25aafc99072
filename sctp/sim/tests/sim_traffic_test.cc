// SPDX-License-Identifier: BSD-3-Clause
// The data simulations' traffic model and judge (sctp/sim/sim_traffic.c):
// messages are reproducible from (seed, side, k), lengths cover 1 byte to
// 64 KiB, and the judge refuses every kind of wrong delivery — a judge
// that let one through would make every data simulation meaningless.
#include <gtest/gtest.h>

#include <map>
#include <vector>

extern "C" {
#include "sctp/sim/sim_traffic.h"
}

namespace {

struct Fixture {
	struct sim_traffic_config cfg = { 42, 2000, 1, SIM_TRAFFIC_MAX_LEN, 8, 25, 0, 0, 0, 0, 0 };
	std::vector<uint8_t> seen = std::vector<uint8_t>(2000 / 8 + 1);
	std::vector<int64_t> last = std::vector<int64_t>(8);
	std::vector<uint8_t> scratch = std::vector<uint8_t>(SIM_TRAFFIC_MAX_LEN);
	struct sim_traffic_judge j;
	Fixture()
	{
		sim_traffic_judge_init(&j, &cfg, 1, seen.data(), last.data());
	}
	std::vector<uint8_t> bytes(uint32_t k)
	{
		struct sim_traffic_msg m = sim_traffic_msg(&cfg, 1, k);
		std::vector<uint8_t> b(m.len);
		sim_traffic_fill(&cfg, 1, &m, b.data());
		return b;
	}
	// Deliver message k as the association would, in `parts` slices.
	enum sim_traffic_verdict deliver(uint32_t k, const std::vector<uint8_t> &b,
					 unsigned parts = 1)
	{
		struct sim_traffic_msg m = sim_traffic_msg(&cfg, 1, k);
		std::vector<const uint8_t *> d;
		std::vector<uint32_t> l;
		uint32_t step = (uint32_t)b.size() / parts + 1;
		for (uint32_t at = 0; at < b.size(); at += step) {
			d.push_back(b.data() + at);
			l.push_back(std::min<uint32_t>(step, (uint32_t)b.size() - at));
		}
		return sim_traffic_judge(&j, k, m.sid, m.unordered, d.data(), l.data(),
					 (unsigned)d.size(), scratch.data());
	}
};

TEST(SimTraffic, MessagesAreReproducibleAndSpreadOut)
{
	Fixture f;
	std::map<uint16_t, unsigned> per_stream;
	unsigned unordered = 0, tiny = 0, big = 0;
	for (uint32_t k = 0; k < f.cfg.messages; k++) {
		struct sim_traffic_msg a = sim_traffic_msg(&f.cfg, 1, k),
				       b = sim_traffic_msg(&f.cfg, 1, k);
		EXPECT_EQ(a.len, b.len);
		EXPECT_EQ(a.sid, b.sid);
		ASSERT_GE(a.len, 1u);
		ASSERT_LE(a.len, SIM_TRAFFIC_MAX_LEN);
		ASSERT_LT(a.sid, 8u);
		per_stream[a.sid]++;
		unordered += a.unordered;
		tiny += a.len <= 2;
		big += a.len > 32768;
	}
	EXPECT_EQ(per_stream.size(), 8u);
	EXPECT_GT(unordered, 400u);
	EXPECT_LT(unordered, 600u);
	EXPECT_GT(tiny, 50u) << "1-2 byte messages occur";
	EXPECT_GT(big, 50u) << "32-64 KiB messages occur";
	EXPECT_EQ(f.bytes(7), f.bytes(7));
	EXPECT_NE(f.bytes(7), f.bytes(8));
}

TEST(SimTraffic, TheJudgeAcceptsEachMessageOnceInOrder)
{
	Fixture f;
	for (uint32_t k = 0; k < f.cfg.messages; k++)
		ASSERT_EQ(f.deliver(k, f.bytes(k), 1 + k % 5), SIM_TRAFFIC_OK) << k;
	EXPECT_EQ(sim_traffic_missing(&f.j), 0u);
	EXPECT_EQ(f.j.bad, 0u);
}

TEST(SimTraffic, TheJudgeRefusesEveryWrongDelivery)
{
	Fixture f;
	// Find two ordered messages of one stream, k1 < k2.
	uint32_t k1 = 0, k2 = 0;
	for (uint32_t k = 0; k < f.cfg.messages && !k2; k++) {
		struct sim_traffic_msg m = sim_traffic_msg(&f.cfg, 1, k);
		if (m.unordered || m.len < 4)
			continue;
		if (!k1 && (k1 = k))
			continue;
		if (sim_traffic_msg(&f.cfg, 1, k1).sid == m.sid)
			k2 = k;
	}
	ASSERT_NE(k2, 0u);
	auto b2 = f.bytes(k2);
	auto bad = b2;
	bad[bad.size() / 2] ^= 1;
	EXPECT_EQ(f.deliver(k2, bad), SIM_TRAFFIC_WRONG) << "one bit flipped";
	auto shorter = b2;
	shorter.pop_back();
	EXPECT_EQ(f.deliver(k2, shorter), SIM_TRAFFIC_WRONG) << "a byte missing";
	EXPECT_EQ(f.deliver(k2, b2, 3), SIM_TRAFFIC_OK);
	EXPECT_EQ(f.deliver(k2, b2), SIM_TRAFFIC_TWICE);
	EXPECT_EQ(f.deliver(k1, f.bytes(k1)), SIM_TRAFFIC_REORDERED);
	EXPECT_EQ(f.deliver(f.cfg.messages, b2), SIM_TRAFFIC_UNKNOWN);
	EXPECT_EQ(f.j.bad, 5u);
	EXPECT_EQ(f.j.first_bad, SIM_TRAFFIC_WRONG);
	EXPECT_EQ(sim_traffic_missing(&f.j), f.cfg.messages - 1u);
}

// PR-SCTP: the policy mix is reproducible, leaves the messages as they were
// without it, and the judge settles a message by delivery or by one
// abandonment report, refusing every report that cannot be right.
TEST(SimTraffic, PolicyMixAndAbandonmentReports)
{
	Fixture plain;
	Fixture f;
	f.cfg.ttl_pct = 30;
	f.cfg.rtx_pct = 30;
	f.cfg.rtx_max = 3;
	f.cfg.ttl_min_ms = 5;
	f.cfg.ttl_max_ms = 500;
	std::vector<uint8_t> ab(f.cfg.messages / 8 + 1), un(f.cfg.messages / 8 + 1);
	sim_traffic_judge_pr(&f.j, ab.data(), un.data());
	unsigned n[4] = {};
	uint32_t reliable = 0, ttl = 0, rtx = 0, rtx_sent_k = 0;
	for (uint32_t k = 0; k < f.cfg.messages; k++) {
		struct sim_traffic_msg a = sim_traffic_msg(&f.cfg, 1, k),
				       p = sim_traffic_msg(&plain.cfg, 1, k);
		EXPECT_EQ(a.len, p.len);
		EXPECT_EQ(a.sid, p.sid);
		EXPECT_EQ(a.unordered, p.unordered);
		EXPECT_EQ(p.pr_policy, 0u);
		ASSERT_LT(a.pr_policy, 3u);
		n[a.pr_policy]++;
		if (a.pr_policy == 1) {
			EXPECT_GE(a.pr_value, 5u);
			EXPECT_LE(a.pr_value, 500u);
			ttl = k;
		} else if (a.pr_policy == 2) {
			EXPECT_LE(a.pr_value, 3u);
			rtx_sent_k = rtx;
			rtx = k;
		} else {
			reliable = k;
		}
	}
	EXPECT_GT(n[1], 500u);
	EXPECT_LT(n[1], 700u);
	EXPECT_GT(n[2], 500u);
	EXPECT_LT(n[2], 700u);
	auto report = [&f](uint32_t k, bool sent) {
		struct sim_traffic_msg m = sim_traffic_msg(&f.cfg, 1, k);
		return sim_traffic_judge_abandoned(&f.j, k, m.sid, m.len, m.pr_policy, sent);
	};
	uint32_t missing = sim_traffic_missing(&f.j);
	EXPECT_EQ(report(reliable, true), SIM_TRAFFIC_RELIABLE_ABANDONED);
	struct sim_traffic_msg t = sim_traffic_msg(&f.cfg, 1, ttl);
	EXPECT_EQ(sim_traffic_judge_abandoned(&f.j, ttl, t.sid, t.len + 1, t.pr_policy, false),
		  SIM_TRAFFIC_WRONG_REPORT);
	EXPECT_EQ(sim_traffic_judge_abandoned(&f.j, ttl, t.sid, t.len, 2, false),
		  SIM_TRAFFIC_WRONG_REPORT);
	EXPECT_EQ(report(f.cfg.messages, true), SIM_TRAFFIC_UNKNOWN);
	// Unsent: settled, and never to be delivered.
	EXPECT_EQ(report(ttl, false), SIM_TRAFFIC_OK);
	EXPECT_EQ(sim_traffic_missing(&f.j), missing - 1);
	EXPECT_EQ(report(ttl, false), SIM_TRAFFIC_ABANDONED_TWICE);
	EXPECT_EQ(f.deliver(ttl, f.bytes(ttl)), SIM_TRAFFIC_UNSENT_DELIVERED);
	// Sent, then delivered all the same (the peer had it): settled once.
	EXPECT_EQ(report(rtx, true), SIM_TRAFFIC_OK);
	EXPECT_EQ(f.deliver(rtx, f.bytes(rtx)), SIM_TRAFFIC_OK);
	EXPECT_EQ(sim_traffic_missing(&f.j), missing - 2);
	// Delivered, then reported unsent: impossible.
	ASSERT_NE(rtx_sent_k, rtx);
	struct sim_traffic_msg r = sim_traffic_msg(&f.cfg, 1, rtx_sent_k);
	if (r.unordered || r.sid != sim_traffic_msg(&f.cfg, 1, rtx).sid) {
		EXPECT_EQ(f.deliver(rtx_sent_k, f.bytes(rtx_sent_k)), SIM_TRAFFIC_OK);
		EXPECT_EQ(report(rtx_sent_k, false), SIM_TRAFFIC_UNSENT_DELIVERED);
	}
	EXPECT_EQ(f.j.reported, 2u);
	EXPECT_EQ(f.j.reported_unsent, 1u);
	EXPECT_EQ(f.j.reported_delivered, 1u);
}

TEST(SimTraffic, AppBuffersCountEveryReference)
{
	std::vector<struct sim_appbuf> bufs(2);
	std::vector<uint8_t> storage(2 * SIM_TRAFFIC_MAX_LEN);
	struct sim_appbuf_pool p;
	sim_appbuf_pool_init(&p, bufs.data(), storage.data(), 2);
	struct sim_appbuf *a = sim_appbuf_get(&p), *b = sim_appbuf_get(&p);
	ASSERT_NE(a, nullptr);
	ASSERT_NE(b, nullptr);
	EXPECT_EQ(sim_appbuf_get(&p), nullptr);
	sim_appbuf_hold(&p, a);
	sim_appbuf_release(&p, a);
	sim_appbuf_release(&p, a);
	EXPECT_EQ(p.in_use, 1u);
	sim_appbuf_release(&p, a);
	EXPECT_EQ(p.bad_releases, 1u);
	sim_appbuf_release(&p, b);
	EXPECT_EQ(p.in_use, 0u);
	EXPECT_EQ(p.holds, p.releases);
}

} // namespace
