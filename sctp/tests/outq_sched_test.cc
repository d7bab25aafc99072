// SPDX-License-Identifier: BSD-3-Clause
// The stream schedulers of the outbound queue (sctp/outq.c, RFC 8260 §3):
// round robin per packet (§3.3), priority (§3.4), fair capacity (§3.5) and
// weighted fair queueing (§3.6), with DATA and with I-DATA. Hand cases for
// the exact order of each, run-time priority and weight changes and the
// parameter API; then a randomized model test per scheduler and chunk type
// (hundreds of seeds: random messages on random streams, random parameters
// changed while data is queued, random packet sizes) checking what must
// hold whatever the order: every byte taken exactly once, in order per
// stream, DATA fragments back to back (RFC 9260 §6.9), priority never
// serving a lower priority while a higher one has data (but to finish a
// DATA message), round robin per packet never mixing streams in a packet,
// the ring linking exactly the streams with data; and a long run of WFQ
// with every stream backlogged whose byte shares must follow the weights
// within the bound outq.c states. Every buffer reference is checked to be
// released exactly once. The seed is printed on failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include "sctp/outq.h"
}

namespace {

struct FakeBuf {
	int refs = 1;
	uint32_t id = 0;
	uint16_t sid = 0;
	std::vector<uint8_t> bytes;
};

struct Ledger {
	uint64_t holds = 0;
	uint64_t releases = 0;
	uint64_t bad = 0;
};

void
fake_hold(void *ctx, void *handle)
{
	auto *l = static_cast<Ledger *>(ctx);
	auto *b = static_cast<FakeBuf *>(handle);
	l->bad += b->refs <= 0;
	b->refs++;
	l->holds++;
}

void
fake_release(void *ctx, void *handle)
{
	auto *l = static_cast<Ledger *>(ctx);
	auto *b = static_cast<FakeBuf *>(handle);
	if (b->refs <= 0)
		l->bad++;
	else
		b->refs--;
	l->releases++;
}

constexpr uint8_t B = SCTP_DATA_FLAG_B;
constexpr uint8_t E = SCTP_DATA_FLAG_E;

// One queue over its own pool and fake buffers; chunks are acked at once.
struct Env {
	Ledger led;
	struct sctp_buf_ops ops;
	std::deque<FakeBuf> bufs;
	std::vector<struct sctp_outq_msg> nodes;
	struct sctp_outq_pool pool;
	std::vector<struct sctp_outq_stream> streams;
	struct sctp_outq q;

	Env(uint16_t n_streams, uint8_t sched, bool idata, uint32_t pool_n = 4096)
	    : nodes(pool_n), streams(n_streams)
	{
		ops.hold = fake_hold;
		ops.release = fake_release;
		ops.ctx = &led;
		EXPECT_EQ(0, sctp_outq_pool_init(&pool, nodes.data(), pool_n, &ops));
		struct sctp_outq_config cfg = {};
		cfg.max_bytes = SCTP_OUTQ_MAX_BYTES;
		cfg.max_msgs = pool_n;
		cfg.n_streams = n_streams;
		cfg.sched = sched;
		cfg.idata = idata;
		EXPECT_EQ(0, sctp_outq_init(&q, &pool, streams.data(), &cfg));
	}

	~Env()
	{
		sctp_outq_abandon(&q, nullptr, nullptr);
		EXPECT_EQ(led.bad, 0u);
		EXPECT_EQ(led.holds, led.releases);
		for (const FakeBuf &b : bufs)
			EXPECT_EQ(b.refs, 0) << "buffer " << b.id;
		EXPECT_EQ(sctp_outq_pool_free(&pool), pool.n);
	}

	FakeBuf *push(uint16_t sid, uint32_t len)
	{
		bufs.emplace_back();
		FakeBuf *b = &bufs.back();
		b->id = (uint32_t)bufs.size();
		b->sid = sid;
		b->bytes.resize(len);
		for (uint32_t i = 0; i < len; i++)
			b->bytes[i] = (uint8_t)(b->id * 31u + i);
		struct sctp_slice s = { b, b->bytes.data(), len };
		EXPECT_EQ(0, sctp_outq_push(&q, sid, b->id, 0, &s));
		b->refs--;
		return b;
	}

	// Take one chunk and ack it: returns its stream, or -1 for -ENOENT.
	int next(uint32_t max_payload = 1452, struct sctp_outq_chunk *out = nullptr)
	{
		struct sctp_outq_chunk c;
		int rc = sctp_outq_next(&q, max_payload, &c);
		if (rc != 0) {
			EXPECT_EQ(rc, -ENOENT);
			return -1;
		}
		fake_release(&led, c.slice.handle);
		if (out)
			*out = c;
		return c.sid;
	}

	// Fill one packet, ack the chunks, and return their streams.
	std::vector<int> fill(uint32_t max_payload, uint32_t room)
	{
		struct sctp_outq_chunk ch[64];
		unsigned n = sctp_outq_fill(&q, max_payload, room, ch, 64, nullptr);
		std::vector<int> sids;
		for (unsigned k = 0; k < n; k++) {
			fake_release(&led, ch[k].slice.handle);
			sids.push_back(ch[k].sid);
		}
		return sids;
	}

	std::vector<int> drain(uint32_t max_payload = 1452)
	{
		std::vector<int> order;
		for (int s; (s = next(max_payload)) >= 0;)
			order.push_back(s);
		return order;
	}
};

using V = std::vector<int>;

} // namespace

TEST(OutqSched, NamesAndParams)
{
	EXPECT_STREQ(sctp_outq_sched_name(SCTP_OUTQ_SCHED_RR_PKT), "rr_pkt");
	EXPECT_STREQ(sctp_outq_sched_name(SCTP_OUTQ_SCHED_PRIO), "prio");
	EXPECT_STREQ(sctp_outq_sched_name(SCTP_OUTQ_SCHED_FC), "fc");
	EXPECT_STREQ(sctp_outq_sched_name(SCTP_OUTQ_SCHED_WFQ), "wfq");
	EXPECT_EQ(sctp_outq_sched_name(SCTP_OUTQ_SCHED_COUNT), nullptr);

	Env e(3, SCTP_OUTQ_SCHED_WFQ, false);
	EXPECT_EQ(0, sctp_outq_stream_param(&e.q, 2));
	EXPECT_EQ(-EINVAL, sctp_outq_stream_param(&e.q, 3));
	EXPECT_EQ(-EINVAL, sctp_outq_set_stream_param(&e.q, 3, 1));
	EXPECT_EQ(-EINVAL, sctp_outq_set_stream_param(&e.q, 0, 0)) << "WFQ weight 0";
	EXPECT_EQ(0, sctp_outq_set_stream_param(&e.q, 0, 65535));
	EXPECT_EQ(65535, sctp_outq_stream_param(&e.q, 0));
	// Kept across a scheduler change; priority 0 is valid.
	EXPECT_EQ(0, sctp_outq_set_sched(&e.q, SCTP_OUTQ_SCHED_PRIO));
	EXPECT_EQ(65535, sctp_outq_stream_param(&e.q, 0));
	EXPECT_EQ(0, sctp_outq_set_stream_param(&e.q, 0, 0));
	EXPECT_EQ(0, sctp_outq_stream_param(&e.q, 0));
	// Still only while empty.
	e.push(1, 10);
	EXPECT_EQ(-EBUSY, sctp_outq_set_sched(&e.q, SCTP_OUTQ_SCHED_RR));
	EXPECT_EQ(0, sctp_outq_set_stream_param(&e.q, 1, 7)) << "while queued";
	EXPECT_EQ(7, sctp_outq_stream_param(&e.q, 1));
}

TEST(OutqSched, RoundRobinPerPacketData)
{
	Env e(3, SCTP_OUTQ_SCHED_RR_PKT, false);
	for (int i = 0; i < 3; i++)
		for (uint16_t s = 0; s < 3; s++)
			e.push(s, 100);
	// Each packet carries one stream only, all it has that fits.
	EXPECT_EQ(e.fill(1452, 1468), (V{ 0, 0, 0 }));
	EXPECT_EQ(e.fill(1452, 1468), (V{ 1, 1, 1 }));
	EXPECT_EQ(e.fill(1452, 1468), (V{ 2, 2, 2 }));
	EXPECT_TRUE(sctp_outq_empty(&e.q));

	// With next(): -ENOENT once the packet's stream is out of data.
	e.push(0, 10);
	e.push(1, 10);
	e.push(1, 10);
	EXPECT_EQ(e.next(), 0);
	EXPECT_EQ(e.next(), -1);
	EXPECT_FALSE(sctp_outq_empty(&e.q));
	sctp_outq_packet_end(&e.q);
	EXPECT_EQ(e.next(), 1);
	EXPECT_EQ(e.next(), 1);
	sctp_outq_packet_end(&e.q);

	// A DATA message longer than a packet goes on, back to back, in the
	// next packets; when it ends the turn passes, even if the packet has room.
	e.push(0, 2500);
	e.push(0, 10);
	e.push(1, 10);
	EXPECT_EQ(e.fill(1000, 1016), (V{ 0 }));
	EXPECT_EQ(e.fill(1000, 1016), (V{ 0 }));
	EXPECT_EQ(e.fill(1000, 1468), (V{ 0 })) << "the 500-byte end, then the turn passes";
	EXPECT_EQ(e.fill(1000, 1468), (V{ 1 }));
	EXPECT_EQ(e.fill(1000, 1468), (V{ 0 }));
	EXPECT_TRUE(sctp_outq_empty(&e.q));
}

TEST(OutqSched, RoundRobinPerPacketIData)
{
	Env e(2, SCTP_OUTQ_SCHED_RR_PKT, true);
	e.push(0, 3000);
	e.push(1, 100);
	e.push(1, 100);
	// I-DATA: a long message yields at every packet end.
	EXPECT_EQ(e.fill(1000, 1020), (V{ 0 }));
	EXPECT_EQ(e.fill(1000, 1020), (V{ 1, 1 }));
	EXPECT_EQ(e.fill(1000, 1020), (V{ 0 }));
	EXPECT_EQ(e.fill(1000, 1020), (V{ 0 }));
	EXPECT_TRUE(sctp_outq_empty(&e.q));
}

TEST(OutqSched, PriorityOrder)
{
	for (bool idata : { false, true }) {
		SCOPED_TRACE(idata ? "idata" : "data");
		Env e(4, SCTP_OUTQ_SCHED_PRIO, idata);
		const uint16_t prio[4] = { 2, 1, 1, 0 };
		for (uint16_t s = 0; s < 4; s++)
			ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, s, prio[s]));
		for (int i = 0; i < 2; i++)
			for (uint16_t s = 0; s < 4; s++)
				e.push(s, 100);
		// Highest first; equal priorities take turns.
		EXPECT_EQ(e.drain(), (V{ 3, 3, 1, 2, 1, 2, 0, 0 }));
	}
}

TEST(OutqSched, PriorityPreemptsAtTheRightBoundary)
{
	for (bool idata : { false, true }) {
		SCOPED_TRACE(idata ? "idata" : "data");
		Env e(2, SCTP_OUTQ_SCHED_PRIO, idata);
		ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, 0, 5));
		e.push(0, 3000);
		EXPECT_EQ(e.next(1000), 0);
		e.push(1, 10); // priority 0: higher
		// DATA: the message's fragments stay back to back (RFC 9260 §6.9);
		// I-DATA: the higher priority goes at the next chunk (RFC 8260 §3.4).
		EXPECT_EQ(e.drain(1000), idata ? (V{ 1, 0, 0 }) : (V{ 0, 0, 1 }));
	}
}

TEST(OutqSched, PriorityChangesWhileQueued)
{
	Env e(3, SCTP_OUTQ_SCHED_PRIO, false);
	for (int i = 0; i < 3; i++)
		for (uint16_t s = 0; s < 3; s++)
			e.push(s, 100);
	// All priority 0: round robin.
	EXPECT_EQ(e.next(), 0);
	EXPECT_EQ(e.next(), 1);
	// Stream 2 (current) drops to 3, stream 0 to 1: stream 1 alone on top.
	ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, 2, 3));
	ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, 0, 1));
	EXPECT_EQ(e.next(), 1);
	EXPECT_EQ(e.next(), 1);
	// Stream 2 raised above stream 0.
	ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, 2, 0));
	EXPECT_EQ(e.drain(), (V{ 2, 2, 2, 0, 0 }));

	// Lowering the current stream in the middle of a DATA message: the
	// message ends first.
	e.push(0, 3000);
	e.push(0, 10);
	e.push(1, 10);
	ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, 0, 0));
	ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, 1, 1));
	EXPECT_EQ(e.next(1000), 0);
	ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, 0, 9));
	EXPECT_EQ(e.drain(1000), (V{ 0, 0, 1, 0 }));
}

TEST(OutqSched, WeightedFairOrder)
{
	for (bool idata : { false, true }) {
		SCOPED_TRACE(idata ? "idata" : "data");
		Env e(2, SCTP_OUTQ_SCHED_WFQ, idata);
		ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, 0, 3));
		for (int i = 0; i < 12; i++) {
			e.push(0, SCTP_OUTQ_WFQ_QUANTUM);
			e.push(1, SCTP_OUTQ_WFQ_QUANTUM);
		}
		// Weight 3 against 1 (the default): three quanta for one.
		V got;
		for (int i = 0; i < 8; i++)
			got.push_back(e.next());
		EXPECT_EQ(got, (V{ 0, 0, 0, 1, 0, 0, 0, 1 }));
		// Stream 1 raised to 3, stream 0 down to 1: stream 0's turn has
		// begun with weight 3, the new weights count from the next turns.
		ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, 1, 3));
		ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, 0, 1));
		got.clear();
		for (int i = 0; i < 8; i++)
			got.push_back(e.next());
		EXPECT_EQ(got, (V{ 0, 0, 0, 1, 1, 1, 0, 1 }));
	}
}

TEST(OutqSched, FairCapacityIgnoresWeights)
{
	Env e(2, SCTP_OUTQ_SCHED_FC, true);
	ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, 0, 9));
	e.push(0, 4 * SCTP_OUTQ_WFQ_QUANTUM);
	e.push(1, SCTP_OUTQ_WFQ_QUANTUM / 2);
	e.push(1, SCTP_OUTQ_WFQ_QUANTUM / 2);
	e.push(1, SCTP_OUTQ_WFQ_QUANTUM);
	// Equal bytes per turn: one 1024-byte chunk of stream 0 against two
	// 512-byte messages of stream 1.
	EXPECT_EQ(e.drain(SCTP_OUTQ_WFQ_QUANTUM), (V{ 0, 1, 1, 0, 1, 0, 0 }));
}

TEST(OutqSched, WeightedFairDebtOfALongDataMessage)
{
	// A 1 MiB DATA message overdraws stream 0 by about a thousand quanta;
	// stream 1 then gets as many bytes before stream 0 goes again, and a
	// lone stream in debt is served at once (no loop of empty rounds).
	Env e(2, SCTP_OUTQ_SCHED_WFQ, false);
	e.push(0, 1u << 20);
	for (int i = 0; i < 1100; i++)
		e.push(1, SCTP_OUTQ_WFQ_QUANTUM);
	e.push(0, 10);
	uint32_t s1 = 0;
	for (;;) {
		struct sctp_outq_chunk c = {};
		ASSERT_GE(e.next(1452, &c), 0);
		if (c.sid == 0 && (c.flags & B) && c.slice.len == 10)
			break;
		if (c.sid == 1)
			s1 += c.slice.len;
	}
	EXPECT_GE(s1, (1u << 20) - 2 * SCTP_OUTQ_WFQ_QUANTUM);
	EXPECT_LE(s1, (1u << 20) + 2 * SCTP_OUTQ_WFQ_QUANTUM);
	e.drain();
	e.push(0, 1u << 20);
	e.push(0, 10);
	EXPECT_EQ(e.drain().size(), 724u) << "723 fragments, then the small one";
}

namespace {

struct Msg {
	FakeBuf *buf;
	uint32_t len;
	uint32_t got = 0;
};

// One randomized run of a scheduler against the invariants of the file comment.
struct SchedRun {
	std::mt19937_64 rng;
	uint8_t sched;
	bool idata;
	uint16_t n_streams;
	Env env;
	std::vector<std::deque<Msg>> pending; // per stream, push order
	std::vector<uint16_t> param;
	const Msg *partial = nullptr; // DATA: the message begun and not ended
	uint64_t pushed_bytes = 0, taken_bytes = 0;

	SchedRun(uint64_t seed, uint8_t s, bool i, uint16_t n)
	    : rng(seed), sched(s), idata(i), n_streams(n), env(n, s, i), pending(n), param(n, 0)
	{
	}

	uint32_t rand(uint32_t n)
	{
		return (uint32_t)(rng() % n);
	}

	void push()
	{
		uint16_t sid = (uint16_t)rand(n_streams);
		uint32_t len = rand(4) == 0 ? 1 + rand(6000) : 1 + rand(300);
		pending[sid].push_back(Msg{ env.push(sid, len), len });
		pushed_bytes += len;
	}

	void set_param()
	{
		uint16_t sid = (uint16_t)rand(n_streams);
		uint16_t v = (uint16_t)(sched == SCTP_OUTQ_SCHED_WFQ ? 1 + rand(8) : rand(4));
		ASSERT_EQ(0, sctp_outq_set_stream_param(&env.q, sid, v));
		param[sid] = v;
		ASSERT_EQ(v, sctp_outq_stream_param(&env.q, sid));
	}

	// Check a chunk against the model and account for it.
	void check(const struct sctp_outq_chunk &c)
	{
		ASSERT_LT(c.sid, n_streams);
		ASSERT_FALSE(pending[c.sid].empty()) << "a chunk of a stream with nothing queued";
		// DATA: a begun message's fragments back to back.
		if (!idata && partial != nullptr) {
			ASSERT_EQ(c.slice.handle, partial->buf) << "DATA fragments interleaved";
		}
		Msg &m = pending[c.sid].front();
		ASSERT_EQ(c.slice.handle, m.buf) << "stream order broken";
		ASSERT_EQ(c.slice.data, m.buf->bytes.data() + m.got) << "bytes skipped or repeated";
		ASSERT_EQ((c.flags & B) != 0, m.got == 0);
		// Priority: nothing of a higher priority waits, but to end a DATA message.
		if (sched == SCTP_OUTQ_SCHED_PRIO && (idata || m.got == 0)) {
			for (uint16_t s = 0; s < n_streams; s++) {
				ASSERT_FALSE(!pending[s].empty() && param[s] < param[c.sid])
					<< "priority " << param[c.sid] << " on " << c.sid
					<< " while " << s << " has " << param[s];
			}
		}
		m.got += c.slice.len;
		taken_bytes += c.slice.len;
		ASSERT_LE(m.got, m.len);
		ASSERT_EQ((c.flags & E) != 0, m.got == m.len);
		partial = &m;
		if (m.got == m.len) {
			partial = nullptr;
			pending[c.sid].pop_front();
		}
	}

	// A packet: fill (one call), or next() and packet_end() for RR_PKT.
	void packet()
	{
		uint32_t mp = 4 * (1 + rand(400));
		uint32_t room = 20 + rand(3000);
		std::vector<struct sctp_outq_chunk> got;
		if (sched == SCTP_OUTQ_SCHED_RR_PKT && rand(2) == 0) {
			uint32_t k = 1 + rand(6);
			struct sctp_outq_chunk c;
			while (k-- > 0 && sctp_outq_next(&env.q, mp, &c) == 0)
				got.push_back(c);
			sctp_outq_packet_end(&env.q);
		} else {
			struct sctp_outq_chunk ch[32];
			unsigned n = sctp_outq_fill(&env.q, mp, room, ch, 1 + rand(32), nullptr);
			got.assign(ch, ch + n);
		}
		for (const auto &c : got) {
			fake_release(&env.led, c.slice.handle);
			check(c);
			if (::testing::Test::HasFatalFailure())
				return;
			if (sched == SCTP_OUTQ_SCHED_RR_PKT) {
				ASSERT_EQ(c.sid, got[0].sid) << "two streams in one packet";
			}
		}
	}

	// The ring links exactly the streams with data; priority keeps it sorted.
	void check_structure()
	{
		uint32_t active = 0;
		for (uint16_t s = 0; s < n_streams; s++) {
			bool a = !pending[s].empty();
			active += a;
			ASSERT_EQ(env.streams[s].tail != 0, a) << "stream " << s;
			ASSERT_EQ(env.streams[s].sched_next != 0, a) << "stream " << s;
		}
		ASSERT_EQ(env.q.head != 0, active != 0);
		if (sched != SCTP_OUTQ_SCHED_RR_PKT) { // which may wait for the packet's end
			ASSERT_EQ(sctp_outq_peek_len(&env.q, 1000) != 0, active != 0);
		}
		if (sched != SCTP_OUTQ_SCHED_PRIO || active == 0)
			return;
		uint32_t s1 = env.streams[env.q.tail - 1].sched_next, n = 0;
		for (;;) {
			n++;
			if (s1 == env.q.tail)
				break;
			uint32_t nx = env.streams[s1 - 1].sched_next;
			ASSERT_LE(param[s1 - 1], param[nx - 1]) << "ring not sorted";
			s1 = nx;
		}
		ASSERT_EQ(n, active);
	}

	void run(int steps)
	{
		for (int i = 0; i < steps; i++) {
			uint32_t op = rand(100);
			if (op < 45)
				push();
			else if (op < 90)
				packet();
			else
				set_param();
			if (::testing::Test::HasFatalFailure())
				return;
			check_structure();
			if (::testing::Test::HasFatalFailure())
				return;
		}
		if (rand(4) == 0) {
			// Abandon: every queued message reported once, per stream in order.
			std::vector<const void *> seen;
			auto cb = [](void *arg, const struct sctp_outq_unsent *u) {
				static_cast<std::vector<const void *> *>(arg)->push_back(
					u->msg.handle);
			};
			uint32_t n = sctp_outq_abandon(&env.q, cb, &seen);
			ASSERT_EQ(n, seen.size());
			std::vector<size_t> pos(n_streams, 0);
			for (const void *h : seen) {
				uint16_t sid = static_cast<const FakeBuf *>(h)->sid;
				ASSERT_LT(pos[sid], pending[sid].size());
				ASSERT_EQ(h, pending[sid][pos[sid]++].buf);
			}
			for (uint16_t sid = 0; sid < n_streams; sid++)
				ASSERT_EQ(pos[sid], pending[sid].size()) << "not abandoned";
			ASSERT_TRUE(sctp_outq_empty(&env.q));
			return;
		}
		// Drain: every byte exactly once.
		for (int guard = 0; !sctp_outq_empty(&env.q) && guard < 100000; guard++) {
			packet();
			if (::testing::Test::HasFatalFailure())
				return;
		}
		ASSERT_TRUE(sctp_outq_empty(&env.q));
		ASSERT_EQ(taken_bytes, pushed_bytes);
		for (auto &d : pending)
			ASSERT_TRUE(d.empty());
	}
};

} // namespace

TEST(OutqSchedModel, RandomInvariants)
{
	const uint8_t scheds[] = { SCTP_OUTQ_SCHED_RR_PKT, SCTP_OUTQ_SCHED_PRIO, SCTP_OUTQ_SCHED_FC,
				   SCTP_OUTQ_SCHED_WFQ };
	for (uint8_t sched : scheds)
		for (bool idata : { false, true })
			for (uint64_t seed = 1; seed <= 250; seed++) {
				uint16_t n = (uint16_t)(1 + seed % 9);
				SCOPED_TRACE(std::string(sctp_outq_sched_name(sched)) +
					     (idata ? " idata" : " data") + " seed " +
					     std::to_string(seed));
				SchedRun r(seed * 104729u + sched, sched, idata, n);
				r.run(300);
				if (::testing::Test::HasFailure())
					return; // the first failing seed is the one to debug
			}
}

// Every stream backlogged throughout: bytes per unit of weight of any two
// streams differ by at most 2 quanta and the largest unit (a message with
// DATA, a chunk with I-DATA), as outq.c derives for its deficit round robin.
TEST(OutqSchedModel, WeightedSharesFollowWeights)
{
	for (uint8_t sched : { SCTP_OUTQ_SCHED_WFQ, SCTP_OUTQ_SCHED_FC })
		for (bool idata : { false, true })
			for (uint64_t seed = 1; seed <= 40; seed++) {
				SCOPED_TRACE(std::string(sctp_outq_sched_name(sched)) +
					     (idata ? " idata" : " data") + " seed " +
					     std::to_string(seed));
				std::mt19937_64 rng(seed);
				uint16_t n = (uint16_t)(2 + rng() % 6);
				const uint32_t max_len = 100 + (uint32_t)(rng() % 5000);
				const uint32_t mp = 4 * (1 + (uint32_t)(rng() % 400));
				Env e(n, sched, idata, 8192);
				std::vector<double> w(n, 1);
				std::vector<uint32_t> left(n, 0);
				for (uint16_t s = 0; s < n; s++) {
					uint16_t v = (uint16_t)(1 + rng() % 8);
					ASSERT_EQ(0, sctp_outq_set_stream_param(&e.q, s, v));
					if (sched == SCTP_OUTQ_SCHED_WFQ)
						w[s] = v;
				}
				for (int i = 0; i < 600; i++)
					for (uint16_t s = 0; s < n; s++) {
						e.push(s, 1 + (uint32_t)(rng() % max_len));
						left[s]++;
					}
				std::vector<uint64_t> got(n, 0);
				// Take until some stream is down to its last message.
				for (;;) {
					struct sctp_outq_chunk c = {};
					ASSERT_GE(e.next(mp, &c), 0);
					got[c.sid] += c.slice.len;
					if ((c.flags & E) && --left[c.sid] == 1)
						break;
				}
				double lo = 1e18, hi = 0;
				for (uint16_t s = 0; s < n; s++) {
					lo = std::min(lo, got[s] / w[s]);
					hi = std::max(hi, got[s] / w[s]);
				}
				double unit = idata ? std::min(mp, max_len) : max_len;
				EXPECT_LE(hi - lo, 2.0 * SCTP_OUTQ_WFQ_QUANTUM + unit)
					<< "per-weight bytes from " << lo << " to " << hi;
			}
}
