// SPDX-License-Identifier: BSD-3-Clause
// PR-SCTP, sender side, in the retransmission queue (sctp/rtxq.c): RFC 3758
// §3.5 (abandonment A2/A3, the Advanced.Peer.Ack.Point C1-C3, the FORWARD
// TSN entries of §3.2), RFC 7496 (limited retransmissions, priority) and
// RFC 8260 §2.3.1 (I-FORWARD TSN). Hand cases for each rule: lifetime at the
// boundary, the retransmission limit (0 and 1), whole messages with
// fragments, eviction order, FORWARD TSN bytes built with the codec, the TSN
// wrap, SSN dedup in serial order, the entry limit, the point acknowledged.
// Then a randomized model over hundreds of seeds: a sender and a lossy peer;
// every message ends exactly once, acknowledged or abandoned, every buffer
// is released exactly once, and the FORWARD TSN matches a reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "sctp/chunk_forward_tsn.h"
#include "sctp/rtxq.h"
#include "sctp/tsn.h"
#include "sctp/writer.h"
}

namespace {

constexpr uint8_t B = SCTP_DATA_FLAG_B;
constexpr uint8_t E = SCTP_DATA_FLAG_E;
constexpr uint8_t U = SCTP_DATA_FLAG_U;
constexpr uint8_t BE = B | E;

// Refcounted fake buffers, one per chunk: a release of a buffer nobody holds
// is an error; at the end every buffer must have been released exactly once.
struct Bufs {
	std::map<uint32_t, long> refs; // by TSN (the handle is 2 TSN + 1)
	long releases = 0;
	std::string error;
	std::vector<uint32_t> released; // TSNs, in order
	struct sctp_buf_ops ops;

	Bufs()
	{
		ops.hold = nullptr;
		ops.release = &Bufs::release;
		ops.ctx = this;
	}
	Bufs(const Bufs &) = delete;
	static void release(void *ctx, void *h)
	{
		Bufs *self = static_cast<Bufs *>(ctx);
		uint32_t tsn = (uint32_t)((uintptr_t)h >> 1);
		auto it = self->refs.find(tsn);
		if (it == self->refs.end() || it->second != 1)
			self->error += "bad release of TSN " + std::to_string(tsn) + "; ";
		else
			it->second = 0;
		self->releases++;
		self->released.push_back(tsn);
	}
	void *make(uint32_t tsn)
	{
		refs[tsn] = 1;
		return (void *)(((uintptr_t)tsn << 1) | 1u); // never NULL, even for TSN 2^32 - 1
	}
	long held() const
	{
		long n = 0;
		for (auto &r : refs)
			n += r.second;
		return n;
	}
};

struct Abandoned {
	struct sctp_rtxq_msg m;
	enum sctp_rtxq_pr_policy policy;
};

struct Harness {
	Bufs bufs;
	std::vector<struct sctp_rtxq_node> nodes;
	std::vector<struct sctp_rtxq_pr_slot> slots;
	struct sctp_rtxq_pool pool;
	struct sctp_rtxq_env env = {};
	struct sctp_rtxq q;
	struct sctp_rtxq_pr_stats stats;
	struct sctp_rtxq_pr_result res;
	std::vector<Abandoned> out;
	uint32_t next_tsn;
	uint8_t buf[16] = { 0 };

	explicit Harness(uint32_t initial_tsn = 1, uint32_t n_nodes = 256)
	    : nodes(n_nodes), slots(n_nodes), next_tsn(initial_tsn)
	{
		EXPECT_EQ(0, sctp_rtxq_pool_init(&pool, nodes.data(), n_nodes));
		EXPECT_EQ(0, sctp_rtxq_pool_attach_pr(&pool, slots.data(), n_nodes));
		env.pool = &pool;
		env.buf = &bufs.ops;
		env.max_chunks = 0;
		sctp_rtxq_init(&q, initial_tsn, 1u << 20);
		memset(&stats, 0, sizeof(stats));
		memset(&res, 0, sizeof(res));
	}

	static void on_abandon(void *arg, const struct sctp_rtxq_msg *m,
			       enum sctp_rtxq_pr_policy policy)
	{
		static_cast<Harness *>(arg)->out.push_back(Abandoned{ *m, policy });
	}

	// One chunk, returning its TSN.
	uint32_t send(uint16_t len, uint8_t flags, uint16_t sid, uint16_t ssn, uint8_t policy,
		      uint64_t value, uint8_t path = 0, uint32_t mid = 0)
	{
		struct sctp_rtxq_chunk c = {};
		struct sctp_rtxq_pr pr;
		memset(&c, 0, sizeof(c));
		c.tsn = next_tsn;
		c.sid = sid;
		c.ssn = mid != 0 ? (uint16_t)mid : ssn; // I-DATA: the MID in two halves
		c.mid_hi = (uint16_t)(mid >> 16);
		c.flags = flags;
		c.path = path;
		c.payload.handle = bufs.make(next_tsn);
		c.payload.data = buf;
		c.payload.len = len;
		pr.policy = policy;
		pr.value = value;
		pr.ppid = 0;
		EXPECT_EQ(SCTP_RTXQ_ADD_OK, sctp_rtxq_add_pr(&q, &env, &c, 0, &pr));
		return next_tsn++;
	}
	// A message of `frags` chunks of len bytes each.
	uint32_t send_msg(unsigned frags, uint16_t len, uint16_t sid, uint16_t ssn, uint8_t policy,
			  uint64_t value, bool unordered = false, uint32_t mid = 0)
	{
		uint32_t first = next_tsn;
		for (unsigned i = 0; i < frags; i++) {
			uint8_t f = (uint8_t)((i == 0 ? B : 0) | (i + 1 == frags ? E : 0) |
					      (unordered ? U : 0));
			send(len, f, sid, ssn, policy, value, 0, mid);
		}
		return first;
	}
	void check()
	{
		const char *bad = sctp_rtxq_check(&q, &pool);
		EXPECT_EQ(nullptr, bad) << bad;
	}
	uint32_t expire(uint64_t now)
	{
		uint32_t n = sctp_rtxq_pr_expire(&q, &env, now, on_abandon, this, &stats, &res);
		check();
		return n;
	}
	uint32_t evict(uint64_t prio, uint32_t need)
	{
		uint32_t n =
			sctp_rtxq_pr_evict(&q, &env, prio, need, on_abandon, this, &stats, &res);
		check();
		return n;
	}
	enum sctp_rtxq_sack_verdict sack(uint32_t cum,
					 std::vector<std::pair<uint16_t, uint16_t>> gaps = {},
					 uint32_t a_rwnd = 1u << 20)
	{
		std::vector<uint8_t> g;
		for (auto &p : gaps) {
			g.push_back((uint8_t)(p.first >> 8));
			g.push_back((uint8_t)p.first);
			g.push_back((uint8_t)(p.second >> 8));
			g.push_back((uint8_t)p.second);
		}
		struct sctp_sack s;
		struct sctp_rtxq_sack_result r;
		memset(&s, 0, sizeof(s));
		s.type = SCTP_CHUNK_SACK;
		s.cum_tsn = cum;
		s.a_rwnd = a_rwnd;
		s.n_gaps = (uint16_t)gaps.size();
		s.gaps = g.empty() ? nullptr : g.data();
		enum sctp_rtxq_sack_verdict v = sctp_rtxq_on_sack(&q, &env, &s, false, 0, &r);
		last_sack = r;
		check();
		return v;
	}
	uint8_t phase(uint32_t tsn) const
	{
		for (uint32_t x = q.head; x != SCTP_RTXQ_NIL; x = nodes[x].next)
			if (nodes[x].tsn == tsn)
				return (uint8_t)(nodes[x].state & SCTP_RTXQ_S_PHASE);
		return 0;
	}
	unsigned take(unsigned max = 64)
	{
		std::vector<struct sctp_rtxq_rtx> r(max);
		unsigned k = sctp_rtxq_take_rtx(&q, &env, 0, 1u << 20, r.data(), max, nullptr);
		check();
		return k;
	}
	bool fwd(bool idata, uint16_t max, struct sctp_rtxq_fwd *f,
		 std::vector<struct sctp_forward_tsn_ientry> *e)
	{
		struct sctp_forward_tsn_ientry zero;
		memset(&zero, 0, sizeof(zero));
		e->assign(max, zero);
		bool due = sctp_rtxq_fwd_tsn(&q, &pool, idata, e->data(), max, f);
		e->resize(f->n_entries);
		return due;
	}
	// Close: everything left is released; nothing leaks, nothing twice.
	void finish()
	{
		check();
		sctp_rtxq_abandon(&q, &env, nullptr, nullptr);
		EXPECT_EQ("", bufs.error);
		EXPECT_EQ(0, bufs.held());
		EXPECT_EQ(pool.n, pool.n_free);
	}
	struct sctp_rtxq_sack_result last_sack;
};

std::string
hex(const uint8_t *p, size_t n)
{
	std::string s;
	char b[3];
	for (size_t i = 0; i < n; i++) {
		snprintf(b, sizeof(b), "%02x", p[i]);
		s += b;
	}
	return s;
}

TEST(Prsctp, NodeStaysFortyEightBytes)
{
	// The reliable chunk pays nothing: the policy lives in a slot beside the node.
	EXPECT_EQ(48u, sizeof(struct sctp_rtxq_node));
	EXPECT_EQ(16u, sizeof(struct sctp_rtxq_pr_slot));
	EXPECT_LE(sizeof(struct sctp_rtxq), 64u);
}

TEST(Prsctp, AddRefusesAPolicyWithoutSlots)
{
	std::vector<struct sctp_rtxq_node> nodes(4);
	struct sctp_rtxq_pool pool;
	struct sctp_rtxq_env env = {};
	struct sctp_rtxq q;
	Bufs bufs;
	ASSERT_EQ(0, sctp_rtxq_pool_init(&pool, nodes.data(), 4));
	env.pool = &pool;
	env.buf = &bufs.ops;
	env.max_chunks = 0;
	sctp_rtxq_init(&q, 1, 1000);
	struct sctp_rtxq_chunk c = {};
	memset(&c, 0, sizeof(c));
	c.tsn = 1;
	c.flags = BE;
	c.payload.len = 4;
	struct sctp_rtxq_pr pr = { SCTP_RTXQ_PR_TTL, 5, 0 };
	EXPECT_EQ(SCTP_RTXQ_ADD_BAD_PR, sctp_rtxq_add_pr(&q, &env, &c, 0, &pr));
	EXPECT_TRUE(sctp_rtxq_empty(&q));
	std::vector<struct sctp_rtxq_pr_slot> slots(3);
	EXPECT_EQ(-1, sctp_rtxq_pool_attach_pr(&pool, slots.data(), 3));
	EXPECT_EQ(-1, sctp_rtxq_pool_attach_pr(&pool, nullptr, 4));
	slots.resize(4);
	ASSERT_EQ(0, sctp_rtxq_pool_attach_pr(&pool, slots.data(), 4));
	pr.policy = 7;
	EXPECT_EQ(SCTP_RTXQ_ADD_BAD_PR, sctp_rtxq_add_pr(&q, &env, &c, 0, &pr));
	pr.policy = SCTP_RTXQ_PR_NONE; // reliable: the plain add, no policy bit
	EXPECT_EQ(SCTP_RTXQ_ADD_OK, sctp_rtxq_add_pr(&q, &env, &c, 0, &pr));
	EXPECT_EQ(0, nodes[q.head].state & SCTP_RTXQ_S_PR);
}

TEST(Prsctp, LifetimeExpiresAfterTheDeadlineNotAtIt)
{
	Harness h;
	uint32_t t = h.send_msg(1, 100, 1, 0, SCTP_RTXQ_PR_TTL, 1000);
	h.send_msg(1, 100, 1, 1, SCTP_RTXQ_PR_NONE, 0); // reliable: never abandoned
	EXPECT_EQ(0u, h.expire(999));
	EXPECT_EQ(0u, h.expire(1000)); // alive at the deadline itself
	EXPECT_EQ(1u, h.expire(1001));
	EXPECT_EQ(SCTP_RTXQ_S_ABANDONED, h.phase(t));
	EXPECT_EQ(SCTP_RTXQ_S_IN_FLIGHT, h.phase(t + 1));
	ASSERT_EQ(1u, h.out.size());
	EXPECT_EQ(t, h.out[0].m.first_tsn);
	EXPECT_EQ(SCTP_RTXQ_PR_TTL, h.out[0].policy);
	EXPECT_TRUE(h.out[0].m.has_first);
	EXPECT_TRUE(h.out[0].m.has_last);
	EXPECT_EQ(100u, h.out[0].m.len);
	// Its buffer is released now, and it left the flight (116 chunk bytes).
	EXPECT_EQ(0, h.bufs.refs[t]);
	EXPECT_EQ(116u, h.res.flight_bytes);
	EXPECT_EQ(1u, h.res.flight_mask);
	EXPECT_EQ(116u, sctp_rtxq_flight(&h.q));
	EXPECT_EQ(100u, h.q.data_flight);
	EXPECT_EQ(1u, h.stats.msgs[SCTP_RTXQ_PR_TTL]);
	EXPECT_EQ(100u, h.stats.bytes[SCTP_RTXQ_PR_TTL]);
	// Once only.
	EXPECT_EQ(0u, h.expire(5000));
	EXPECT_EQ(1u, h.out.size());
	h.finish();
	EXPECT_EQ(1u, h.out.size()); // close does not report it again
}

TEST(Prsctp, RetransmissionLimitOne)
{
	Harness h;
	uint32_t t = h.send_msg(1, 40, 2, 0, SCTP_RTXQ_PR_RTX, 1);
	EXPECT_EQ(0u, h.expire(0)); // in flight: nothing to decide
	EXPECT_EQ(1u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, nullptr));
	EXPECT_EQ(0u, h.expire(0)); // marked, 0 retransmissions of 1 allowed
	EXPECT_EQ(1u, h.take());
	EXPECT_EQ(1u, h.slots[h.q.head].rtx);
	EXPECT_EQ(1u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, nullptr));
	// The limit is used up: take_rtx passes over it, expire abandons it.
	EXPECT_EQ(0u, h.take());
	EXPECT_EQ(1u, h.expire(0));
	EXPECT_EQ(SCTP_RTXQ_S_ABANDONED, h.phase(t));
	EXPECT_EQ(0u, sctp_rtxq_marked(&h.q));
	EXPECT_EQ(SCTP_RTXQ_PR_RTX, h.out[0].policy);
	EXPECT_EQ(1u, h.stats.msgs[SCTP_RTXQ_PR_RTX]);
	h.finish();
}

TEST(Prsctp, RetransmissionLimitZeroIsSentOnce)
{
	Harness h;
	uint32_t t = h.send_msg(1, 40, 2, 0, SCTP_RTXQ_PR_RTX, 0);
	h.send_msg(1, 40, 2, 1, SCTP_RTXQ_PR_NONE, 0);
	EXPECT_EQ(2u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, nullptr));
	// Without the expire call first, the reliable one still goes; the limited one never.
	EXPECT_EQ(1u, h.take());
	EXPECT_EQ(SCTP_RTXQ_S_MARKED, h.phase(t));
	EXPECT_EQ(1u, h.expire(0));
	EXPECT_EQ(SCTP_RTXQ_S_ABANDONED, h.phase(t));
	EXPECT_EQ(SCTP_RTXQ_S_IN_FLIGHT, h.phase(t + 1));
	h.finish();
}

// §6.1 A: a zero window probe the reopened window did not ack is marked to
// go again at once, unless its retransmissions are used up. It may not go
// again, and marked it would leave the flight (T3-rtx with it) to wait for
// an expiry to ask the policy, with nothing left to time one: it stays in
// flight instead, under T3-rtx, and a SACK may still ack it.
TEST(Prsctp, ReopenedWindowLeavesAProbeWithNoRetransmissionLeftInFlight)
{
	for (uint64_t limit : { 0u, 1u }) {
		SCOPED_TRACE(limit);
		Harness h;
		uint32_t t = h.send_msg(1, 400, 2, 0, SCTP_RTXQ_PR_RTX, limit);
		EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(t - 1, {}, 0)); // closed: t is a probe
		EXPECT_EQ(0, sctp_rtxq_window_probe(&h.q, &h.pool, nullptr));
		EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(t - 1, {}, 4000)); // open, t not acked
		if (limit == 0) {
			EXPECT_EQ(-1, sctp_rtxq_window_reopened(&h.q, &h.env, t));
			EXPECT_EQ(SCTP_RTXQ_S_IN_FLIGHT, h.phase(t));
			EXPECT_EQ(0u, sctp_rtxq_marked(&h.q));
			EXPECT_EQ(416u, sctp_rtxq_flight(&h.q));
		} else {
			EXPECT_EQ(0, sctp_rtxq_window_reopened(&h.q, &h.env, t));
			EXPECT_EQ(SCTP_RTXQ_S_MARKED, h.phase(t));
			EXPECT_EQ(1u, h.take());
		}
		h.finish();
	}
}

TEST(Prsctp, WholeMessageWithFragments)
{
	Harness h;
	h.send_msg(1, 10, 1, 0, SCTP_RTXQ_PR_NONE, 0);
	uint32_t t = h.send_msg(4, 100, 1, 1, SCTP_RTXQ_PR_TTL, 50);
	uint32_t after = h.send_msg(1, 10, 1, 2, SCTP_RTXQ_PR_TTL, 500);
	// Fragment 2 of 4 gap-acked, the rest in flight.
	ASSERT_EQ(SCTP_RTXQ_SACK_OK, h.sack(t - 2, { { 3, 3 } }));
	EXPECT_EQ(SCTP_RTXQ_S_GAP_ACKED, h.phase(t + 1));
	EXPECT_EQ(1u, h.expire(51));
	for (uint32_t i = 0; i < 4; i++)
		EXPECT_EQ(SCTP_RTXQ_S_ABANDONED, h.phase(t + i)) << i;
	EXPECT_EQ(SCTP_RTXQ_S_IN_FLIGHT, h.phase(after));
	EXPECT_EQ(SCTP_RTXQ_S_IN_FLIGHT, h.phase(t - 1));
	ASSERT_EQ(1u, h.out.size());
	EXPECT_EQ(4u, h.out[0].m.chunks);
	EXPECT_EQ(400u, h.out[0].m.len);
	EXPECT_EQ(100u, h.out[0].m.gap_acked_len);
	EXPECT_EQ(0u, h.q.n_gap_acked);
	EXPECT_EQ(4u, h.res.chunks);
	EXPECT_EQ(3u * 116u, h.res.flight_bytes);
	for (uint32_t i = 0; i < 4; i++)
		EXPECT_EQ(0, h.bufs.refs[t + i]);
	h.finish();
}

TEST(Prsctp, MessageThePeerHasWholeIsNotAbandoned)
{
	Harness h;
	h.send_msg(1, 10, 1, 0, SCTP_RTXQ_PR_NONE, 0);
	uint32_t t = h.send_msg(2, 100, 1, 1, SCTP_RTXQ_PR_TTL, 50);
	ASSERT_EQ(SCTP_RTXQ_SACK_OK, h.sack(t - 2, { { 2, 3 } }));
	EXPECT_EQ(0u, h.expire(100));
	EXPECT_EQ(SCTP_RTXQ_S_GAP_ACKED, h.phase(t));
	// Reneged: missing again, so now it is abandoned.
	ASSERT_EQ(SCTP_RTXQ_SACK_OK, h.sack(t - 2));
	EXPECT_EQ(1u, h.expire(100));
	h.finish();
}

TEST(Prsctp, MessageNotAllSentReportsNoLast)
{
	Harness h;
	uint32_t t = h.send(100, B, 3, 9, SCTP_RTXQ_PR_TTL, 10);
	h.send(100, 0, 3, 9, SCTP_RTXQ_PR_TTL, 10);
	EXPECT_EQ(1u, h.expire(11));
	ASSERT_EQ(1u, h.out.size());
	EXPECT_EQ(t, h.out[0].m.first_tsn);
	EXPECT_TRUE(h.out[0].m.has_first);
	EXPECT_FALSE(h.out[0].m.has_last); // the rest waits in the send queue: abandon it there
	EXPECT_EQ(2u, h.out[0].m.chunks);
	h.finish();
}

TEST(Prsctp, EvictionLowestPriorityFirstOldestAmongEquals)
{
	Harness h;
	uint32_t p5 = h.send_msg(1, 100, 0, 0, SCTP_RTXQ_PR_PRIO, 5);
	uint32_t p9a = h.send_msg(2, 100, 0, 1, SCTP_RTXQ_PR_PRIO, 9);
	uint32_t p9b = h.send_msg(1, 100, 0, 2, SCTP_RTXQ_PR_PRIO, 9);
	uint32_t p3 = h.send_msg(1, 100, 0, 3, SCTP_RTXQ_PR_PRIO, 3);
	uint32_t rel = h.send_msg(1, 100, 0, 4, SCTP_RTXQ_PR_NONE, 0);
	uint32_t ttl = h.send_msg(1, 100, 0, 5, SCTP_RTXQ_PR_TTL, 1);
	// 150 bytes: the oldest priority-9 message (200 bytes) is enough.
	EXPECT_EQ(200u, h.evict(4, 150));
	ASSERT_EQ(1u, h.out.size());
	EXPECT_EQ(p9a, h.out[0].m.first_tsn);
	EXPECT_EQ(SCTP_RTXQ_PR_PRIO, h.out[0].policy);
	// 150 more: the other 9, then the 5.
	EXPECT_EQ(200u, h.evict(4, 150));
	ASSERT_EQ(3u, h.out.size());
	EXPECT_EQ(p9b, h.out[1].m.first_tsn);
	EXPECT_EQ(p5, h.out[2].m.first_tsn);
	// Nothing of priority 4 or higher (3), nothing reliable, no other policy.
	EXPECT_EQ(0u, h.evict(4, 1000));
	EXPECT_EQ(0u, h.evict(3, 1000)); // equal priority is not lower
	EXPECT_EQ(100u, h.evict(2, 1000));
	EXPECT_EQ(p3, h.out[3].m.first_tsn);
	EXPECT_EQ(SCTP_RTXQ_S_IN_FLIGHT, h.phase(rel));
	EXPECT_EQ(SCTP_RTXQ_S_IN_FLIGHT, h.phase(ttl));
	EXPECT_EQ(4u, h.stats.msgs[SCTP_RTXQ_PR_PRIO]);
	EXPECT_EQ(500u, h.stats.bytes[SCTP_RTXQ_PR_PRIO]);
	EXPECT_EQ(0u, h.evict(0, 0)); // nothing needed: nothing done
	h.finish();
}

TEST(Prsctp, ForwardTsnEntriesAndBytes)
{
	Harness h(100);
	h.send_msg(1, 10, 1, 4, SCTP_RTXQ_PR_TTL, 5);	    // 100
	h.send_msg(2, 10, 1, 5, SCTP_RTXQ_PR_TTL, 5);	    // 101-102
	h.send_msg(1, 10, 3, 0, SCTP_RTXQ_PR_TTL, 5, true); // 103 unordered
	h.send_msg(1, 10, 2, 7, SCTP_RTXQ_PR_TTL, 5);	    // 104
	h.send_msg(1, 10, 2, 8, SCTP_RTXQ_PR_NONE, 0);	    // 105 reliable
	h.send_msg(1, 10, 4, 1, SCTP_RTXQ_PR_TTL, 5);	    // 106: behind the reliable one
	struct sctp_rtxq_fwd f;
	std::vector<struct sctp_forward_tsn_ientry> e;
	EXPECT_FALSE(h.fwd(false, 16, &f, &e)); // nothing abandoned: nothing due
	EXPECT_EQ(99u, f.new_cum_tsn);
	EXPECT_EQ(5u, h.expire(6));
	ASSERT_TRUE(h.fwd(false, 16, &f, &e));
	EXPECT_EQ(104u, f.new_cum_tsn); // C2: stops at the reliable 105
	EXPECT_FALSE(f.limited);
	ASSERT_EQ(2u, e.size()); // stream 1 deduplicated to SSN 5; unordered stream 3 left out
	EXPECT_EQ(1, e[0].sid);
	EXPECT_EQ(5u, e[0].mid);
	EXPECT_EQ(2, e[1].sid);
	EXPECT_EQ(7u, e[1].mid);
	struct sctp_forward_tsn_entry we[2] = { sctp_rtxq_fwd_entry(&e[0]),
						sctp_rtxq_fwd_entry(&e[1]) };
	uint8_t buf[64];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_forward_tsn_build_entries(&w, 0, f.new_cum_tsn, we, 2);
	ASSERT_TRUE(sctp_writer_ok(&w));
	EXPECT_EQ("c0000010"
		  "00000068"
		  "00010005"
		  "00020007",
		  hex(buf, w.off));
	// The peer acknowledges the point: the abandoned chunks leave, no second release.
	long before = h.bufs.releases;
	ASSERT_EQ(SCTP_RTXQ_SACK_OK, h.sack(104));
	EXPECT_EQ(before, h.bufs.releases);
	EXPECT_EQ(0u, h.last_sack.bytes_acked); // abandoned bytes were out of the flight already
	EXPECT_EQ(5u, h.last_sack.chunks_released);
	EXPECT_EQ(2u, sctp_rtxq_count(&h.q, &h.pool));
	EXPECT_FALSE(h.fwd(false, 16, &f, &e)); // 105 is outstanding
	// 105 acked: the point moves over 106.
	ASSERT_EQ(SCTP_RTXQ_SACK_OK, h.sack(105));
	ASSERT_TRUE(h.fwd(false, 16, &f, &e));
	EXPECT_EQ(106u, f.new_cum_tsn);
	ASSERT_EQ(1u, e.size());
	EXPECT_EQ(4, e[0].sid);
	EXPECT_EQ(1u, e[0].mid);
	ASSERT_EQ(SCTP_RTXQ_SACK_OK, h.sack(106));
	EXPECT_TRUE(sctp_rtxq_empty(&h.q));
	h.finish();
}

TEST(Prsctp, ForwardTsnAcrossTheTsnAndSsnWrap)
{
	Harness h(0xfffffffeu);
	h.send_msg(1, 10, 1, 0xfffe, SCTP_RTXQ_PR_TTL, 5);  // 0xfffffffe
	h.send_msg(1, 10, 1, 0xffff, SCTP_RTXQ_PR_TTL, 5);  // 0xffffffff
	h.send_msg(2, 10, 1, 0x0000, SCTP_RTXQ_PR_TTL, 5);  // 0, 1: SSN wrapped
	h.send_msg(1, 10, 1, 0x0001, SCTP_RTXQ_PR_NONE, 0); // 2
	EXPECT_EQ(3u, h.expire(6));
	struct sctp_rtxq_fwd f;
	std::vector<struct sctp_forward_tsn_ientry> e;
	ASSERT_TRUE(h.fwd(false, 4, &f, &e));
	EXPECT_EQ(1u, f.new_cum_tsn);
	ASSERT_EQ(1u, e.size());
	EXPECT_EQ(0u, e[0].mid); // 0x0000 is after 0xffff in serial order
	// A gap block covering abandoned chunks acknowledges nothing new.
	ASSERT_EQ(SCTP_RTXQ_SACK_OK, h.sack(0xfffffffdu, { { 1, 5 } }));
	EXPECT_EQ(28u, h.last_sack.bytes_acked); // only TSN 2: 16 + 12
	ASSERT_EQ(SCTP_RTXQ_SACK_OK, h.sack(2));
	EXPECT_TRUE(sctp_rtxq_empty(&h.q));
	h.finish();
}

TEST(Prsctp, ForwardTsnStopsAtTheEntryLimit)
{
	Harness h(10);
	h.send_msg(1, 10, 1, 0, SCTP_RTXQ_PR_TTL, 5); // 10
	h.send_msg(1, 10, 2, 0, SCTP_RTXQ_PR_TTL, 5); // 11
	h.send_msg(1, 10, 1, 1, SCTP_RTXQ_PR_TTL, 5); // 12: stream 1 again, no new entry
	h.send_msg(2, 10, 3, 0, SCTP_RTXQ_PR_TTL, 5); // 13-14: a third stream
	EXPECT_EQ(4u, h.expire(6));
	struct sctp_rtxq_fwd f;
	std::vector<struct sctp_forward_tsn_ientry> e;
	ASSERT_TRUE(h.fwd(false, 2, &f, &e));
	EXPECT_EQ(12u, f.new_cum_tsn); // before the message that needs a third entry
	EXPECT_TRUE(f.limited);
	ASSERT_EQ(2u, e.size());
	EXPECT_EQ(1u, e[0].mid);
	EXPECT_FALSE(h.fwd(false, 0, &f, &e)); // not even the first: nothing due
	EXPECT_EQ(9u, f.new_cum_tsn);
	EXPECT_TRUE(f.limited);
	ASSERT_TRUE(h.fwd(false, 3, &f, &e));
	EXPECT_EQ(14u, f.new_cum_tsn);
	EXPECT_FALSE(f.limited);
	EXPECT_EQ(2u, sctp_rtxq_fwd_max_entries(16, false));
	EXPECT_EQ(1u, sctp_rtxq_fwd_max_entries(16, true));
	EXPECT_EQ(0u, sctp_rtxq_fwd_max_entries(7, false));
	h.finish();
}

TEST(Prsctp, IForwardTsnEntries)
{
	Harness h(0xb87452e8u);
	h.send_msg(1, 10, 1, 0, SCTP_RTXQ_PR_TTL, 5, false, 1);	  // ordered MID 1
	h.send_msg(1, 10, 4, 0, SCTP_RTXQ_PR_TTL, 5, true, 0x10); // unordered MID 16
	h.send_msg(1, 10, 1, 0, SCTP_RTXQ_PR_TTL, 5, false, 2);	  // ordered MID 2
	h.send_msg(2, 10, 1, 0, SCTP_RTXQ_PR_TTL, 5, true, 0x0f); // stream 1 unordered
	h.send_msg(1, 10, 4, 0, SCTP_RTXQ_PR_TTL, 5, true, 0x0f); // lower MID: no change
	EXPECT_EQ(5u, h.expire(6));
	struct sctp_rtxq_fwd f;
	std::vector<struct sctp_forward_tsn_ientry> e;
	ASSERT_TRUE(h.fwd(true, 8, &f, &e));
	EXPECT_EQ(0xb87452edu, f.new_cum_tsn);
	ASSERT_EQ(3u, e.size());
	uint8_t buf[64];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_forward_tsn_build_ientries(&w, 0, f.new_cum_tsn, e.data(), (uint16_t)e.size());
	ASSERT_TRUE(sctp_writer_ok(&w));
	EXPECT_EQ("c2000020"
		  "b87452ed"
		  "00010000"
		  "00000002"
		  "00040001"
		  "00000010"
		  "00010001"
		  "0000000f",
		  hex(buf, w.off));
	h.finish();
}

TEST(Prsctp, CheckCatchesAPartlyAbandonedMessage)
{
	Harness h;
	uint32_t t = h.send_msg(2, 10, 1, 0, SCTP_RTXQ_PR_TTL, 5);
	h.check();
	// Abandon one fragment by hand, as a broken implementation would.
	struct sctp_rtxq_node *n = &h.nodes[h.q.head];
	ASSERT_EQ(t, n->tsn);
	h.q.path_flight[0] -= sctp_rtxq_chunk_bytes(n->len);
	h.q.data_flight -= n->len;
	h.bufs.ops.release(h.bufs.ops.ctx, n->handle);
	n->handle = nullptr;
	n->state = SCTP_RTXQ_S_ABANDONED | SCTP_RTXQ_S_PR;
	const char *bad = sctp_rtxq_check(&h.q, &h.pool);
	ASSERT_NE(nullptr, bad);
	EXPECT_STREQ("a message partly abandoned", bad);
	// An abandoned node still holding its buffer is caught too.
	n->handle = (void *)(uintptr_t)1;
	bad = sctp_rtxq_check(&h.q, &h.pool);
	ASSERT_NE(nullptr, bad);
	EXPECT_STREQ("abandoned node without a policy or still holding its buffer", bad);
	n->handle = nullptr;
	// Repair: abandon the second by hand too, then close.
	struct sctp_rtxq_node *n2 = &h.nodes[n->next];
	h.q.path_flight[0] -= sctp_rtxq_chunk_bytes(n2->len);
	h.q.data_flight -= n2->len;
	h.bufs.ops.release(h.bufs.ops.ctx, n2->handle);
	n2->handle = nullptr;
	n2->state = SCTP_RTXQ_S_ABANDONED | SCTP_RTXQ_S_PR;
	h.finish();
}

// ---------------------------------------------------------------------------
// Randomized model. The sender sends whole messages (1-3 fragments) with a
// random policy, the network loses 25 % of every transmission, the peer
// SACKs with gap blocks and follows FORWARD TSNs; T3 expiries, retransmissions,
// lifetime checks and evictions come in random order. After every step the
// queue's invariants hold, the FORWARD TSN equals a reference computed from
// the model, and at the end every message has ended exactly once, acked or
// abandoned, and every buffer was released exactly once.

struct MsgModel {
	uint32_t first;
	unsigned frags;
	uint16_t sid;
	uint16_t ssn;
	bool unordered;
	uint8_t policy;
	uint64_t value;
	int abandoned = 0;
};

// What the seeds reached, so a model that stopped exercising a rule fails.
struct Coverage {
	uint64_t abandoned[SCTP_RTXQ_PR_N] = { 0 };
	uint64_t partly_acked = 0; // abandoned with its first fragments cum-acked
	uint64_t fwd_due = 0;
	uint64_t fwd_limited = 0;
	uint64_t fwd_entries = 0;
	uint64_t wrapped = 0; // seeds whose TSNs crossed 2^32
};
Coverage cov;

void
run_model(uint32_t seed)
{
	std::mt19937 rng(seed);
	auto pick = [&](uint32_t n) { return (uint32_t)(rng() % n); };
	uint32_t initial = pick(4) == 0 ? 0xffffff00u + pick(200) : rng();
	Harness h(initial, 128);
	std::vector<MsgModel> msgs;
	std::map<uint32_t, size_t> msg_of; // TSN -> message
	std::set<uint32_t> peer_has;	   // TSNs above the peer's cum received
	uint32_t peer_cum = initial - 1;
	uint64_t now = 0;
	uint16_t ssn[4] = { 0, 0, 0, 0 };
	std::string where = "seed " + std::to_string(seed);

	auto deliver = [&](uint32_t tsn) {
		if (pick(4) != 0 && sctp_tsn_gt(tsn, peer_cum))
			peer_has.insert(tsn);
	};
	auto peer_advance = [&]() {
		while (peer_has.count(peer_cum + 1)) {
			peer_has.erase(peer_cum + 1);
			peer_cum++;
		}
	};
	auto sack = [&]() {
		// Offsets from the cum TSN, ascending (the set's order breaks at the wrap).
		std::vector<uint32_t> offs;
		for (uint32_t t : peer_has)
			offs.push_back(t - peer_cum);
		std::sort(offs.begin(), offs.end());
		std::vector<std::pair<uint16_t, uint16_t>> merged;
		for (uint32_t off : offs) {
			if (off > 0xffff)
				break;
			if (!merged.empty() && off == merged.back().second + 1u)
				merged.back().second = (uint16_t)off;
			else if (merged.size() < 8)
				merged.push_back({ (uint16_t)off, (uint16_t)off });
			else
				break;
		}
		uint32_t before = h.q.cum_point;
		size_t rel_before = h.bufs.released.size();
		ASSERT_EQ(SCTP_RTXQ_SACK_OK, h.sack(peer_cum, merged)) << where;
		// Released by the cum ack: chunks of messages not abandoned.
		for (size_t i = rel_before; i < h.bufs.released.size(); i++) {
			uint32_t t = h.bufs.released[i];
			ASSERT_TRUE(sctp_tsn_gt(t, before) && sctp_tsn_le(t, peer_cum)) << where;
			ASSERT_EQ(0, msgs[msg_of[t]].abandoned) << where;
		}
	};
	auto check_fwd = [&]() {
		uint16_t max = (uint16_t)pick(4);
		bool idata = false;
		struct sctp_rtxq_fwd f;
		std::vector<struct sctp_forward_tsn_ientry> e;
		bool due = h.fwd(idata, max, &f, &e);
		// Reference: walk from the cum point over abandoned TSNs.
		uint32_t point = h.q.cum_point;
		std::map<uint16_t, uint16_t> want;
		bool limited = false;
		for (uint32_t t = h.q.cum_point + 1; msg_of.count(t); t++) {
			const MsgModel &m = msgs[msg_of[t]];
			if (!m.abandoned)
				break;
			if (!m.unordered) {
				auto it = want.find(m.sid);
				if (it == want.end()) {
					if (want.size() == max) {
						limited = true;
						break;
					}
					want[m.sid] = m.ssn;
				} else if ((int16_t)(uint16_t)(m.ssn - it->second) > 0) {
					it->second = m.ssn;
				}
			}
			point = t;
		}
		ASSERT_EQ(point, f.new_cum_tsn) << where;
		ASSERT_EQ(point != h.q.cum_point, due) << where;
		ASSERT_EQ(limited, f.limited) << where;
		std::map<uint16_t, uint16_t> got;
		for (auto &x : e)
			got[x.sid] = (uint16_t)x.mid;
		ASSERT_EQ(want, got) << where;
		ASSERT_EQ(want.size(), e.size()) << where;
		cov.fwd_due += due;
		cov.fwd_limited += f.limited;
		cov.fwd_entries += e.size();
		if (due && pick(2) == 0) {
			// The FORWARD TSN reaches the peer (RFC 3758 §3.6).
			if (sctp_tsn_gt(f.new_cum_tsn, peer_cum)) {
				peer_cum = f.new_cum_tsn;
				for (auto it = peer_has.begin(); it != peer_has.end();)
					it = sctp_tsn_le(*it, peer_cum) ? peer_has.erase(it)
									: std::next(it);
				peer_advance();
			}
		}
	};

	size_t abandoned_before = 0;
	auto account = [&]() {
		for (size_t i = abandoned_before; i < h.out.size(); i++) {
			auto it = msg_of.find(h.out[i].m.first_tsn);
			ASSERT_TRUE(it != msg_of.end()) << where;
			MsgModel &m = msgs[it->second];
			// The rest of the message from the first chunk not yet cumulatively acked.
			ASSERT_EQ(m.first + m.frags, h.out[i].m.first_tsn + h.out[i].m.chunks)
				<< where;
			ASSERT_EQ(h.out[i].m.first_tsn == m.first, h.out[i].m.has_first) << where;
			cov.abandoned[m.policy]++;
			cov.partly_acked += h.out[i].m.first_tsn != m.first;
			ASSERT_EQ(m.policy, h.out[i].policy) << where;
			ASSERT_TRUE(h.out[i].m.has_last) << where;
			m.abandoned++;
		}
		abandoned_before = h.out.size();
	};

	for (int step = 0; step < 400; step++) {
		where = "seed " + std::to_string(seed) + " step " + std::to_string(step);
		now += pick(50);
		switch (pick(8)) {
		case 0:
		case 1: {
			unsigned frags = 1 + pick(3);
			if (h.pool.n_free < frags)
				break;
			MsgModel m;
			m.first = h.next_tsn;
			m.frags = frags;
			m.sid = (uint16_t)pick(4);
			m.unordered = pick(5) == 0;
			m.ssn = m.unordered ? 0 : ssn[m.sid]++;
			m.policy = (uint8_t)pick(SCTP_RTXQ_PR_N);
			m.value = m.policy == SCTP_RTXQ_PR_TTL	 ? now + pick(400)
				  : m.policy == SCTP_RTXQ_PR_RTX ? pick(3)
								 : pick(10);
			msgs.push_back(m);
			h.send_msg(frags, (uint16_t)(1 + pick(200)), m.sid, m.ssn, m.policy,
				   m.value, m.unordered);
			for (unsigned i = 0; i < frags; i++) {
				msg_of[m.first + i] = msgs.size() - 1;
				deliver(m.first + i);
			}
			peer_advance();
			break;
		}
		case 2:
			sack();
			break;
		case 3:
			sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, nullptr);
			h.check();
			break;
		case 4: {
			h.expire(now);
			account();
			std::vector<struct sctp_rtxq_rtx> r(8);
			unsigned k =
				sctp_rtxq_take_rtx(&h.q, &h.env, 0, 1u << 20, r.data(), 8, nullptr);
			h.check();
			for (unsigned i = 0; i < k; i++) {
				const MsgModel &m = msgs[msg_of[r[i].tsn]];
				ASSERT_EQ(0, m.abandoned) << where;
				deliver(r[i].tsn);
			}
			peer_advance();
			break;
		}
		case 5:
			h.expire(now);
			break;
		case 6:
			h.evict(pick(10), pick(500));
			break;
		case 7:
			check_fwd();
			break;
		}
		account();
		if (::testing::Test::HasFatalFailure())
			return;
	}
	// Drain: no more abandonment; everything unabandoned is resent until
	// delivered, the peer follows every FORWARD TSN.
	for (int round = 0; round < 200 && !sctp_rtxq_empty(&h.q); round++) {
		sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, nullptr);
		std::vector<struct sctp_rtxq_rtx> r(128);
		// The limit of exhausted RTX chunks: abandon them first, as the association would.
		h.expire(0);
		account();
		unsigned k = sctp_rtxq_take_rtx(&h.q, &h.env, 0, 1u << 20, r.data(), 128, nullptr);
		for (unsigned i = 0; i < k; i++)
			deliver(r[i].tsn);
		peer_advance();
		struct sctp_rtxq_fwd f;
		std::vector<struct sctp_forward_tsn_ientry> e;
		if (h.fwd(false, 64, &f, &e) && sctp_tsn_gt(f.new_cum_tsn, peer_cum)) {
			peer_cum = f.new_cum_tsn;
			for (auto it = peer_has.begin(); it != peer_has.end();)
				it = sctp_tsn_le(*it, peer_cum) ? peer_has.erase(it)
								: std::next(it);
			peer_advance();
		}
		sack();
		if (::testing::Test::HasFatalFailure())
			return;
	}
	ASSERT_TRUE(sctp_rtxq_empty(&h.q)) << where;
	cov.wrapped += h.next_tsn < initial;
	// Every message ended exactly once: acked (all its buffers released by a
	// cum ack) or abandoned (reported once, buffers released at abandonment).
	std::map<uint32_t, int> rel;
	for (uint32_t t : h.bufs.released)
		rel[t]++;
	uint64_t ab_msgs = 0;
	for (const MsgModel &m : msgs) {
		ASSERT_LE(m.abandoned, 1) << where;
		ab_msgs += m.abandoned;
		for (unsigned i = 0; i < m.frags; i++) {
			ASSERT_EQ(1, rel[m.first + i]) << where << " TSN " << m.first + i;
		}
		if (m.policy == SCTP_RTXQ_PR_NONE) {
			ASSERT_EQ(0, m.abandoned) << where;
		}
	}
	uint64_t st = 0;
	for (unsigned p = 0; p < SCTP_RTXQ_PR_N; p++)
		st += h.stats.msgs[p];
	EXPECT_EQ(ab_msgs, st) << where;
	EXPECT_EQ(0u, h.stats.msgs[SCTP_RTXQ_PR_NONE]) << where;
	h.finish();
}

TEST(Prsctp, RandomizedModel)
{
	for (uint32_t seed = 1; seed <= 300; seed++) {
		run_model(seed);
		if (::testing::Test::HasFailure()) {
			fprintf(stderr, "failed with seed %u\n", seed);
			return;
		}
	}
	printf("abandoned ttl %llu rtx %llu prio %llu (partly acked %llu); forward tsn due %llu, "
	       "limited %llu, entries %llu; seeds across the wrap %llu\n",
	       (unsigned long long)cov.abandoned[SCTP_RTXQ_PR_TTL],
	       (unsigned long long)cov.abandoned[SCTP_RTXQ_PR_RTX],
	       (unsigned long long)cov.abandoned[SCTP_RTXQ_PR_PRIO],
	       (unsigned long long)cov.partly_acked, (unsigned long long)cov.fwd_due,
	       (unsigned long long)cov.fwd_limited, (unsigned long long)cov.fwd_entries,
	       (unsigned long long)cov.wrapped);
	EXPECT_EQ(0u, cov.abandoned[SCTP_RTXQ_PR_NONE]);
	EXPECT_GT(cov.abandoned[SCTP_RTXQ_PR_TTL], 100u);
	EXPECT_GT(cov.abandoned[SCTP_RTXQ_PR_RTX], 100u);
	EXPECT_GT(cov.abandoned[SCTP_RTXQ_PR_PRIO], 100u);
	EXPECT_GT(cov.partly_acked, 10u);
	EXPECT_GT(cov.fwd_due, 100u);
	EXPECT_GT(cov.fwd_limited, 10u);
	EXPECT_GT(cov.wrapped, 10u);
}

} // namespace
