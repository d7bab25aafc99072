// SPDX-License-Identifier: BSD-3-Clause
// I-DATA reassembly (sctp/ireasm.c; RFC 8260 §2.1, §2.3.1, RFC 6458
// §8.1.20). By hand: every verdict, FSN order, MID wrap, interleaved
// messages on two streams and ordered + unordered on one, partial delivery
// (several at once), caps and NO_ROOM, I-FORWARD TSN. Then a randomized
// model: a round-robin sender's interleaved chunks delivered in random
// order with losses, abandoned messages and I-FORWARD TSNs, under small
// caps. sctp_ireasm_check() runs after every step; at the end of every
// test each hold has had exactly one release.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

extern "C" {
#include "sctp/ireasm.h"
#include "sctp/tsn.h"
#include "sctp/wire.h"
}

namespace {

constexpr uint8_t B = SCTP_DATA_FLAG_B;
constexpr uint8_t E = SCTP_DATA_FLAG_E;
constexpr uint8_t U = SCTP_DATA_FLAG_U;
constexpr uint8_t BE = B | E;
constexpr uint8_t M = 0;

struct Block {
	std::string data;
	long refs = 0;
};

struct Bufs {
	std::deque<Block> blocks;
	long holds = 0, releases = 0;
	struct sctp_buf_ops ops;
	Bufs()
	{
		ops.hold = [](void *ctx, void *h) {
			auto *b = static_cast<Block *>(h);
			EXPECT_GT(b->refs, 0);
			b->refs++;
			static_cast<Bufs *>(ctx)->holds++;
		};
		ops.release = [](void *ctx, void *h) {
			auto *b = static_cast<Block *>(h);
			EXPECT_GT(b->refs, 0);
			b->refs--;
			static_cast<Bufs *>(ctx)->releases++;
		};
		ops.ctx = this;
	}
	Block *make(const std::string &s)
	{
		blocks.push_back(Block{ s, 1 });
		return &blocks.back();
	}
	void expect_clean() const
	{
		EXPECT_EQ(holds, releases);
		for (const Block &b : blocks)
			EXPECT_EQ(b.refs, 0);
	}
};

struct Delivery {
	uint16_t sid;
	uint32_t mid;
	uint32_t ppid;
	uint8_t flags;
	std::string bytes;
};

struct Fixture {
	Bufs bufs;
	std::vector<union sctp_ireasm_node> nodes;
	struct sctp_ireasm_pool pool;
	std::vector<struct sctp_ireasm_stream> streams;
	struct sctp_ireasm r;
	struct sctp_ireasm_env env;
	std::vector<Delivery> out;

	Fixture(uint32_t n_streams = 4, uint32_t n_nodes = 256,
		struct sctp_reasm_limits lim = { 1u << 20, 0, 1000 })
	    : nodes(n_nodes), streams(n_streams)
	{
		EXPECT_EQ(sctp_ireasm_pool_init(&pool, nodes.data(), n_nodes), 0);
		sctp_ireasm_streams_init(streams.data(), n_streams);
		sctp_ireasm_init(&r);
		env.pool = &pool;
		env.streams = streams.data();
		env.n_streams = n_streams;
		env.lim = lim;
		env.buf = &bufs.ops;
		env.deliver = &Fixture::deliver;
		env.arg = this;
	}
	static void deliver(void *arg, const struct sctp_ireasm_msg *m)
	{
		auto *f = static_cast<Fixture *>(arg);
		Delivery d{ m->sid, m->mid, m->ppid, m->flags, {} };
		struct sctp_ireasm_iter it;
		struct sctp_slice s;
		uint32_t n = 0;
		sctp_ireasm_iter_init(&it, m);
		while (sctp_ireasm_iter_next(&it, &s)) {
			n++;
			d.bytes.append(reinterpret_cast<const char *>(s.data), s.len);
			f->bufs.ops.release(f, s.handle); // the receiver consumed it
		}
		EXPECT_EQ(n, m->nfrags);
		EXPECT_EQ(d.bytes.size(), m->len);
		f->out.push_back(d);
	}
	enum sctp_ireasm_verdict feed(uint32_t tsn, uint16_t sid, uint32_t mid, uint32_t fsn,
				      uint8_t flags, const std::string &bytes, uint32_t ppid = 7)
	{
		Block *b = bufs.make(bytes);
		struct sctp_ireasm_chunk c;
		c.tsn = tsn;
		c.mid = mid;
		c.fsn = (flags & B) ? 0 : fsn;
		c.ppid = (flags & B) ? ppid : 0;
		c.sid = sid;
		c.flags = flags;
		c.payload.handle = b;
		c.payload.data = reinterpret_cast<const uint8_t *>(b->data.data());
		c.payload.len = (uint32_t)b->data.size();
		enum sctp_ireasm_verdict v = sctp_ireasm_input(&r, &env, &c);
		b->refs--; // the caller's reference ends with the call
		EXPECT_EQ(sctp_ireasm_check(&r, &env), 0);
		return v;
	}
	void done()
	{
		sctp_ireasm_abandon(&r, &env);
		EXPECT_EQ(sctp_ireasm_check(&r, &env), 0);
		EXPECT_EQ(pool.n_free, pool.n);
		bufs.expect_clean();
	}
};

#define V(x) SCTP_IREASM_##x

TEST(IReasm, SingleFragmentOrderedAndUnorderedGoUpAtOnce)
{
	Fixture f;
	EXPECT_EQ(f.feed(1, 0, 0, 0, BE, "a", 9), V(DELIVERED));
	EXPECT_EQ(f.feed(2, 0, 5, 0, BE | U, "u"), V(DELIVERED));
	EXPECT_EQ(f.feed(3, 0, 2, 0, BE, "c"), V(QUEUED)); // MID 1 missing
	EXPECT_EQ(f.feed(4, 0, 1, 0, BE, "b"), V(DELIVERED));
	ASSERT_EQ(f.out.size(), 4u);
	EXPECT_EQ(f.out[0].ppid, 9u);
	EXPECT_EQ(f.out[1].flags, SCTP_REASM_MSG_UNORDERED);
	EXPECT_EQ(f.out[2].bytes + f.out[3].bytes, "bc");
	EXPECT_EQ(f.streams[0].next_mid, 3u);
	EXPECT_EQ(f.pool.n_free, f.pool.n);
	f.done();
}

TEST(IReasm, FragmentsInAnyFsnOrder)
{
	Fixture f;
	EXPECT_EQ(f.feed(13, 1, 0, 3, E, "D"), V(QUEUED));
	EXPECT_EQ(f.feed(11, 1, 0, 1, M, "B"), V(QUEUED));
	EXPECT_EQ(f.feed(10, 1, 0, 0, B, "A", 42), V(QUEUED));
	EXPECT_TRUE(f.out.empty());
	EXPECT_EQ(f.feed(12, 1, 0, 2, M, "C"), V(DELIVERED));
	ASSERT_EQ(f.out.size(), 1u);
	EXPECT_EQ(f.out[0].bytes, "ABCD");
	EXPECT_EQ(f.out[0].ppid, 42u);
	EXPECT_EQ(f.out[0].flags, 0);
	f.done();
}

TEST(IReasm, TwoLargeMessagesInterleaveOnTwoStreams)
{
	Fixture f;
	uint32_t tsn = 100;
	for (uint32_t i = 0; i < 50; i++) {
		uint8_t fl = (i == 0 ? B : 0) | (i == 49 ? E : 0);
		std::string a(1, (char)('a' + i % 26)), b(1, (char)('A' + i % 26));
		EXPECT_EQ(f.feed(tsn++, 0, 0, i, fl, a), i == 49 ? V(DELIVERED) : V(QUEUED));
		EXPECT_EQ(f.feed(tsn++, 2, 0, i, fl, b), i == 49 ? V(DELIVERED) : V(QUEUED));
	}
	ASSERT_EQ(f.out.size(), 2u);
	EXPECT_EQ(f.out[0].sid, 0);
	EXPECT_EQ(f.out[0].bytes.size(), 50u);
	EXPECT_EQ(f.out[1].bytes[25], 'Z');
	f.done();
}

TEST(IReasm, OrderedAndUnorderedInterleaveOnOneStream)
{
	// Same MID 0 in both spaces: distinct messages.
	Fixture f;
	EXPECT_EQ(f.feed(1, 3, 0, 0, B, "o0"), V(QUEUED));
	EXPECT_EQ(f.feed(2, 3, 0, 0, B | U, "u0"), V(QUEUED));
	EXPECT_EQ(f.feed(3, 3, 0, 1, M, "o1"), V(QUEUED));
	EXPECT_EQ(f.feed(4, 3, 0, 1, E | U, "u1"), V(DELIVERED));
	EXPECT_EQ(f.feed(5, 3, 0, 2, E, "o2"), V(DELIVERED));
	ASSERT_EQ(f.out.size(), 2u);
	EXPECT_EQ(f.out[0].bytes, "u0u1");
	EXPECT_EQ(f.out[1].bytes, "o0o1o2");
	f.done();
}

TEST(IReasm, MidWrapsAt2To32)
{
	Fixture f;
	f.streams[0].next_mid = 0xFFFFFFFEu;
	EXPECT_EQ(f.feed(1, 0, 0, 0, BE, "c"), V(QUEUED)); // after 0xFFFFFFFF
	EXPECT_EQ(f.feed(2, 0, 0xFFFFFFFFu, 0, BE, "b"), V(QUEUED));
	EXPECT_EQ(f.feed(3, 0, 0xFFFFFFFEu, 0, BE, "a"), V(DELIVERED));
	ASSERT_EQ(f.out.size(), 3u);
	EXPECT_EQ(f.out[0].bytes + f.out[1].bytes + f.out[2].bytes, "abc");
	EXPECT_EQ(f.streams[0].next_mid, 1u);
	EXPECT_EQ(f.feed(4, 0, 0xFFFFFFF0u, 0, BE, "old"), V(STALE));
	// Half the MID space ahead cannot be ordered against the others: stale too.
	EXPECT_EQ(f.feed(5, 0, 1u + 0x80000000u, 0, B, "far"), V(STALE));
	EXPECT_EQ(f.feed(6, 0, 1u + 0x7fffffffu, 0, B, "near"), V(QUEUED));
	f.done();
}

TEST(IReasm, Violations)
{
	Fixture f;
	EXPECT_EQ(f.feed(1, 9, 0, 0, BE, "x"), V(BAD_STREAM));
	EXPECT_EQ(f.feed(2, 0, 0, 0, M, "x"), V(BAD_FRAGMENT)); // FSN 0 without B
	EXPECT_EQ(f.feed(3, 0, 0, 0, B, "b"), V(QUEUED));
	EXPECT_EQ(f.feed(4, 0, 0, 0, B, "b"), V(BAD_FRAGMENT)); // a second B
	EXPECT_EQ(f.feed(3, 0, 0, 0, B, "b"), V(DUPLICATE));
	EXPECT_EQ(f.feed(5, 0, 0, 3, E, "e"), V(QUEUED));
	EXPECT_EQ(f.feed(6, 0, 0, 4, M, "x"), V(BAD_FRAGMENT)); // beyond the E
	EXPECT_EQ(f.feed(7, 0, 0, 2, E, "x"), V(BAD_FRAGMENT)); // a second E, lower
	EXPECT_EQ(f.feed(8, 0, 0, 3, E, "x"), V(BAD_FRAGMENT)); // same FSN, new TSN
	EXPECT_EQ(f.feed(9, 0, 1, 5, M, "m"), V(QUEUED));
	EXPECT_EQ(f.feed(10, 0, 1, 2, E, "x"), V(BAD_FRAGMENT)); // an E below FSN 5
	// A new message's first fragment 2^31 FSNs on: no message has that many.
	EXPECT_EQ(f.feed(12, 0, 2, 0x80000000u, E, "x"), V(BAD_FRAGMENT));
	EXPECT_EQ(f.feed(13, 0, 2, 0xC9FF0000u, M, "x"), V(BAD_FRAGMENT));
	// A B with an FSN: only a caller can build one.
	Block *b = f.bufs.make("x");
	struct sctp_ireasm_chunk c = {};
	c.tsn = 11;
	c.fsn = 1;
	c.flags = B;
	c.payload = { b, reinterpret_cast<const uint8_t *>(b->data.data()), 1 };
	EXPECT_EQ(sctp_ireasm_input(&f.r, &f.env, &c), V(BAD_FRAGMENT));
	c.fsn = 0;
	c.payload.len = 70000;
	EXPECT_EQ(sctp_ireasm_input(&f.r, &f.env, &c), V(BAD_LEN));
	b->refs--;
	EXPECT_TRUE(f.out.empty());
	EXPECT_EQ(sctp_ireasm_queued_chunks(&f.r), 3u);
	f.done();
}

TEST(IReasm, PartialDeliveryAtThePointSeveralAtOnce)
{
	Fixture f(4, 256, { 1u << 20, 4, 1000 });
	EXPECT_EQ(f.feed(1, 0, 0, 0, B, "ab", 1), V(QUEUED));
	EXPECT_EQ(f.feed(2, 1, 0, 0, B | U, "AB", 2), V(QUEUED));
	EXPECT_EQ(f.feed(3, 0, 0, 1, M, "cd"), V(DELIVERED)); // 4 bytes: first part
	EXPECT_EQ(f.feed(4, 1, 0, 1, M | U, "CD"), V(DELIVERED));
	EXPECT_EQ(f.feed(6, 0, 0, 3, E, "g"), V(QUEUED));	 // FSN 2 missing
	EXPECT_EQ(f.feed(7, 1, 0, 2, M | U, "E"), V(DELIVERED)); // continues at once
	EXPECT_EQ(f.feed(5, 0, 0, 2, M, "ef"), V(DELIVERED));	 // ends stream 0's
	ASSERT_EQ(f.out.size(), 4u);
	EXPECT_EQ(f.out[0].flags, SCTP_REASM_MSG_MORE);
	EXPECT_EQ(f.out[0].ppid, 1u);
	EXPECT_EQ(f.out[1].flags, SCTP_REASM_MSG_MORE | SCTP_REASM_MSG_UNORDERED);
	EXPECT_EQ(f.out[2].flags,
		  SCTP_REASM_MSG_MORE | SCTP_REASM_MSG_CONT | SCTP_REASM_MSG_UNORDERED);
	EXPECT_EQ(f.out[3].flags, SCTP_REASM_MSG_CONT);
	EXPECT_EQ(f.out[3].bytes, "efg");
	EXPECT_EQ(f.out[3].ppid, 1u);
	EXPECT_EQ(f.streams[0].next_mid, 1u);
	// The unordered one is ended by the peer skipping it.
	EXPECT_EQ(sctp_ireasm_forward(&f.r, &f.env, 1, true, 0), 0);
	ASSERT_EQ(f.out.size(), 5u);
	EXPECT_EQ(f.out[4].flags,
		  SCTP_REASM_MSG_CONT | SCTP_REASM_MSG_ABORTED | SCTP_REASM_MSG_UNORDERED);
	EXPECT_EQ(sctp_ireasm_check(&f.r, &f.env), 0);
	f.done();
}

TEST(IReasm, CapsRefuseThenTheFrontGoesUp)
{
	// 4 nodes per association: a record and three fragments.
	Fixture f(2, 64, { 1u << 20, 0, 4 });
	EXPECT_EQ(f.feed(2, 0, 1, 1, M, "1"), V(QUEUED)); // MID 1 waits for MID 0
	EXPECT_EQ(f.feed(3, 0, 1, 2, M, "2"), V(QUEUED));
	EXPECT_EQ(f.feed(4, 0, 1, 3, M, "3"), V(QUEUED));
	EXPECT_EQ(f.feed(5, 0, 1, 4, E, "4"), V(NO_ROOM));
	EXPECT_EQ(f.feed(6, 1, 0, 1, E | U, "x"), V(NO_ROOM)); // needs a record too
	// The front of a deliverable message always goes up.
	EXPECT_EQ(f.feed(1, 0, 0, 0, B, "m0"), V(DELIVERED));
	ASSERT_EQ(f.out.size(), 1u);
	EXPECT_EQ(f.out[0].flags, SCTP_REASM_MSG_MORE);
	EXPECT_EQ(f.feed(7, 0, 0, 1, E, "!"), V(DELIVERED)); // ends MID 0 in hand
	// MID 1 is next but misses its B: still full.
	EXPECT_EQ(f.feed(5, 0, 1, 4, E, "4"), V(NO_ROOM));
	EXPECT_EQ(f.feed(8, 0, 1, 0, B, "0"), V(DELIVERED)); // at the front: up with 1..3
	EXPECT_EQ(f.feed(5, 0, 1, 4, E, "4"), V(DELIVERED));
	ASSERT_EQ(f.out.size(), 4u);
	EXPECT_EQ(f.out[2].bytes, "0123");
	EXPECT_EQ(f.out[3].flags, SCTP_REASM_MSG_CONT);
	// Bytes cap.
	Fixture g(1, 64, { 3, 0, 100 });
	EXPECT_EQ(g.feed(1, 0, 1, 0, B, "ab"), V(QUEUED));
	EXPECT_EQ(g.feed(2, 0, 1, 1, M, "cd"), V(NO_ROOM));
	// Shared pool empty: a B without E needs a record and there is none.
	Fixture h(1, 2, { 1u << 20, 0, 100 });
	EXPECT_EQ(h.feed(1, 0, 1, 0, B, "ab"), V(QUEUED));
	EXPECT_EQ(h.feed(2, 0, 0, 0, B, "cd"), V(NO_ROOM));
	EXPECT_EQ(h.feed(3, 0, 0, 0, BE, "ef"), V(DELIVERED)); // no node needed
	f.done();
	g.done();
	h.done();
}

TEST(IReasm, ForwardOrderedDeliversStrandedAndSkips)
{
	Fixture f;
	EXPECT_EQ(f.feed(2, 0, 1, 0, BE, "one"), V(QUEUED));
	EXPECT_EQ(f.feed(3, 0, 2, 0, B, "two"), V(QUEUED));
	EXPECT_EQ(f.feed(5, 0, 4, 0, BE, "four"), V(QUEUED));
	EXPECT_EQ(f.feed(6, 0, 5, 0, B, "five"), V(QUEUED));
	EXPECT_EQ(f.feed(7, 0, 5, 1, E, "!"), V(QUEUED));
	// MID 0 (TSN 1) and 3 (TSN 4) abandoned, and MID 2's tail.
	sctp_ireasm_forward_tsn(&f.r, &f.env, 4);
	EXPECT_EQ(sctp_ireasm_check(&f.r, &f.env), 0);
	EXPECT_EQ(sctp_ireasm_forward(&f.r, &f.env, 0, false, 3), 0);
	EXPECT_EQ(sctp_ireasm_check(&f.r, &f.env), 0);
	ASSERT_EQ(f.out.size(), 3u);
	EXPECT_EQ(f.out[0].bytes, "one");
	EXPECT_EQ(f.out[1].bytes, "four");
	EXPECT_EQ(f.out[2].bytes, "five!");
	EXPECT_EQ(f.streams[0].next_mid, 6u);
	EXPECT_EQ(f.feed(8, 0, 2, 1, E, "late"), V(STALE));
	EXPECT_EQ(sctp_ireasm_forward(&f.r, &f.env, 9, false, 3), -1);
	f.done();
}

TEST(IReasm, ForwardEndsAnOrderedPartialDeliveryAborted)
{
	Fixture f(2, 64, { 1u << 20, 2, 100 });
	EXPECT_EQ(f.feed(1, 0, 0, 0, B, "ab"), V(DELIVERED));
	EXPECT_EQ(f.feed(3, 0, 1, 0, BE, "next"), V(QUEUED));
	EXPECT_EQ(sctp_ireasm_forward(&f.r, &f.env, 0, false, 0), 0);
	ASSERT_EQ(f.out.size(), 3u);
	EXPECT_EQ(f.out[1].flags, SCTP_REASM_MSG_CONT | SCTP_REASM_MSG_ABORTED);
	EXPECT_EQ(f.out[2].bytes, "next");
	f.done();
}

TEST(IReasm, ForwardTsnDropsALateFragment)
{
	// The unordered message was dropped by an entry; a late fragment of it
	// is queued again, and the next cumulative TSN shows it can never be whole.
	Fixture f;
	EXPECT_EQ(f.feed(1, 0, 7, 0, B | U, "b"), V(QUEUED));
	EXPECT_EQ(sctp_ireasm_forward(&f.r, &f.env, 0, true, 7), 0);
	EXPECT_EQ(sctp_ireasm_queued_chunks(&f.r), 0u);
	EXPECT_EQ(f.feed(5, 0, 7, 3, M | U, "late"), V(QUEUED));
	sctp_ireasm_forward_tsn(&f.r, &f.env, 3);
	EXPECT_EQ(sctp_ireasm_queued_chunks(&f.r), 1u); // FSN 0..2 may still be above 3
	sctp_ireasm_forward_tsn(&f.r, &f.env, 4);
	EXPECT_EQ(sctp_ireasm_queued_chunks(&f.r), 0u);
	EXPECT_TRUE(f.out.empty());
	f.done();
}

TEST(IReasm, ForwardHalfTheMidSpaceAwayIsPastAndChangesNothing)
{
	// Found by fuzz_assoc: an entry exactly 2^31 past next_mid was neither
	// behind nor ahead of it by sctp_tsn_lt(), so next_mid moved past the
	// records still held (I2). Such a MID is one the stream went past.
	Fixture f;
	EXPECT_EQ(f.feed(1, 0, 0, 0, B, "zero"), V(QUEUED));
	EXPECT_EQ(f.feed(2, 0, 0x1656667, 0, BE, "ahead"), V(QUEUED));
	EXPECT_EQ(sctp_ireasm_forward(&f.r, &f.env, 0, false, 0x80000000u), 0);
	EXPECT_EQ(sctp_ireasm_check(&f.r, &f.env), 0);
	EXPECT_EQ(f.streams[0].next_mid, 0u);
	EXPECT_EQ(sctp_ireasm_queued_chunks(&f.r), 2u);
	EXPECT_TRUE(f.out.empty());
	// One short of half is ahead: MID 0 goes, the whole one goes up.
	EXPECT_EQ(sctp_ireasm_forward(&f.r, &f.env, 0, false, 0x7fffffffu), 0);
	EXPECT_EQ(sctp_ireasm_check(&f.r, &f.env), 0);
	ASSERT_EQ(f.out.size(), 1u);
	EXPECT_EQ(f.out[0].bytes, "ahead");
	EXPECT_EQ(f.streams[0].next_mid, 0x80000000u);
	f.done();
}

TEST(IReasm, StreamResetDeliversWholeDropsTheRestAndStartsAtZero)
{
	// What a peer that broke RFC 6525 left held of the old numbering: an
	// ordered partial delivery, a whole message ahead of a gap, a message
	// never completed, an unordered fragment. Nothing of it may join the
	// new numbering's MIDs 0 and 1.
	Fixture f(2, 64, { 1u << 20, 2, 100 });
	EXPECT_EQ(f.feed(1, 0, 0, 0, BE, "m0"), V(DELIVERED));
	EXPECT_EQ(f.feed(2, 0, 1, 0, B, "pd"), V(DELIVERED)); // partial delivery
	EXPECT_EQ(f.feed(4, 0, 3, 0, BE, "three"), V(QUEUED));
	EXPECT_EQ(f.feed(5, 0, 5, 0, B, "five"), V(QUEUED));
	EXPECT_EQ(f.feed(6, 0, 0, 0, B | U, "u"), V(QUEUED));
	EXPECT_EQ(f.feed(7, 1, 0, 0, B, "o"), V(QUEUED)); // below pd_point
	f.out.clear();
	EXPECT_EQ(sctp_ireasm_stream_reset(&f.r, &f.env, 0), 0);
	EXPECT_EQ(sctp_ireasm_check(&f.r, &f.env), 0);
	ASSERT_EQ(f.out.size(), 2u);
	EXPECT_EQ(f.out[0].flags, SCTP_REASM_MSG_CONT | SCTP_REASM_MSG_ABORTED);
	EXPECT_EQ(f.out[0].mid, 1u);
	EXPECT_EQ(f.out[1].bytes, "three");
	EXPECT_EQ(f.streams[0].next_mid, 0u);
	EXPECT_EQ(f.streams[0].ord, SCTP_IREASM_NIL);
	EXPECT_EQ(f.streams[0].uo, SCTP_IREASM_NIL);
	EXPECT_EQ(sctp_ireasm_queued_chunks(&f.r), 1u); // stream 1's
	f.out.clear();
	EXPECT_EQ(f.feed(8, 0, 0, 1, E | U, "-new"), V(QUEUED)); // not the old "u"
	EXPECT_EQ(f.feed(9, 0, 0, 0, BE, "new0"), V(DELIVERED));
	EXPECT_EQ(f.feed(10, 0, 1, 0, BE, "new1"), V(DELIVERED));
	ASSERT_EQ(f.out.size(), 2u);
	EXPECT_EQ(f.out[0].bytes, "new0");
	EXPECT_EQ(f.out[1].bytes, "new1");
	EXPECT_EQ(sctp_ireasm_stream_reset(&f.r, &f.env, 2), -1);
	f.done();
}

TEST(IReasm, AbandonReleasesEverything)
{
	Fixture f(2, 64, { 1u << 20, 1, 100 });
	EXPECT_EQ(f.feed(1, 0, 0, 0, B, "a"), V(DELIVERED));
	EXPECT_EQ(f.feed(3, 0, 0, 2, M, "c"), V(QUEUED));
	EXPECT_EQ(f.feed(4, 1, 3, 1, E | U, "z"), V(QUEUED));
	f.done();
	EXPECT_EQ(f.r.msgs, 0u);
	EXPECT_EQ(f.streams[0].ord, SCTP_IREASM_NIL);
}

TEST(IReasm, VerdictNames)
{
	EXPECT_STREQ(sctp_ireasm_verdict_name(V(NO_ROOM)), "no_room");
	EXPECT_STREQ(sctp_ireasm_verdict_name(V(BAD_LEN)), "bad_len");
	EXPECT_STREQ(sctp_ireasm_verdict_name((enum sctp_ireasm_verdict)99), "unknown");
}

// ---- the randomized model ----

struct Msg {
	uint16_t sid;
	bool uo;
	uint32_t mid;
	uint32_t ppid;
	std::string bytes;
	bool abandoned;
	std::vector<uint32_t> tsns;
	std::vector<std::string> frags;
};

struct Chunk {
	uint32_t tsn;
	size_t msg;
	uint32_t fsn;
	bool lost;
};

void
run_model(uint32_t seed)
{
	std::mt19937 rng(seed);
	auto rnd = [&](uint32_t n) { return (uint32_t)(rng() % n); };
	const uint16_t n_streams = (uint16_t)(1 + rnd(4));
	const uint32_t mid0 = rnd(2) ? 0 : 0xFFFFFFF0u; // wrap the MIDs in half the seeds
	struct sctp_reasm_limits lim = { 2000u + rnd(8000), rnd(3) == 0 ? 0u : 300u + rnd(2000),
					 (uint16_t)(6 + rnd(40)) };
	Fixture f(n_streams, 4096, lim);
	for (auto &s : f.streams)
		s.next_mid = mid0;

	// Messages, per stream and U bit in MID order.
	std::vector<Msg> msgs;
	std::map<std::pair<uint16_t, bool>, uint32_t> next_mid;
	const uint32_t n_msgs = 20 + rnd(40);
	for (uint32_t i = 0; i < n_msgs; i++) {
		Msg m;
		m.sid = (uint16_t)rnd(n_streams);
		m.uo = rnd(3) == 0;
		auto key = std::make_pair(m.sid, m.uo);
		if (!next_mid.count(key))
			next_mid[key] = mid0;
		m.mid = next_mid[key]++;
		m.ppid = rng();
		m.abandoned = rnd(6) == 0;
		size_t len = 1 + rnd(3000);
		for (size_t j = 0; j < len; j++)
			m.bytes.push_back((char)rng());
		size_t frag = 40 + rnd(500);
		for (size_t o = 0; o < len; o += frag)
			m.frags.push_back(m.bytes.substr(o, frag));
		msgs.push_back(m);
	}
	// A round-robin sender: each stream sends its messages one after another,
	// one chunk per stream per turn.
	std::vector<std::deque<size_t>> q(n_streams);
	for (size_t i = 0; i < msgs.size(); i++)
		q[msgs[i].sid].push_back(i);
	std::vector<size_t> sent(n_streams, 0);
	std::vector<Chunk> chunks;
	uint32_t tsn0 = rnd(2) ? rng() : 0xFFFFFF00u;
	uint32_t tsn = tsn0;
	for (bool any = true; any;) {
		any = false;
		for (uint16_t s = 0; s < n_streams; s++) {
			if (q[s].empty())
				continue;
			any = true;
			Msg &m = msgs[q[s].front()];
			uint32_t fsn = (uint32_t)sent[s];
			m.tsns.push_back(tsn);
			chunks.push_back({ tsn++, q[s].front(), fsn, m.abandoned && rnd(2) == 0 });
			if (++sent[s] == m.frags.size()) {
				sent[s] = 0;
				q[s].pop_front();
			}
		}
	}
	// The receiver: a TSN map (taken), the cumulative TSN, I-FORWARD TSNs.
	std::set<uint32_t> taken; // offsets from tsn0
	uint32_t cum = 0;	  // offsets taken or skipped: [0, cum)
	std::vector<size_t> pending;
	for (size_t i = 0; i < chunks.size(); i++)
		if (!chunks[i].lost)
			pending.push_back(i);
	auto feed = [&](size_t ci) {
		const Chunk &c = chunks[ci];
		const Msg &m = msgs[c.msg];
		uint8_t fl = (uint8_t)((c.fsn == 0 ? B : 0) |
				       (c.fsn + 1 == m.frags.size() ? E : 0) | (m.uo ? U : 0));
		return f.feed(c.tsn, m.sid, m.mid, c.fsn, fl, m.frags[c.fsn], m.ppid);
	};
	size_t steps = 0;
	while (!pending.empty() || cum < chunks.size()) {
		ASSERT_LT(++steps, 100000u) << "no progress";
		size_t pick;
		auto low = std::find_if(pending.begin(), pending.end(),
					[&](size_t i) { return i == cum; });
		bool at_cum = low != pending.end() && rnd(4) == 0;
		if (pending.empty()) {
			pick = SIZE_MAX;
		} else if (at_cum) {
			pick = (size_t)(low - pending.begin());
		} else {
			pick = rnd((uint32_t)std::min<size_t>(pending.size(), 12));
		}
		if (pick != SIZE_MAX) {
			size_t ci = pending[pick];
			enum sctp_ireasm_verdict v = feed(ci);
			ASSERT_TRUE(v != V(BAD_FRAGMENT) && v != V(DUPLICATE) && v != V(BAD_STREAM))
				<< sctp_ireasm_verdict_name(v);
			if (ci == cum && !msgs[chunks[ci].msg].abandoned) { // always taken
				ASSERT_NE(v, V(NO_ROOM))
					<< "seed " << seed << " tsn " << ci << " sid "
					<< msgs[chunks[ci].msg].sid << " uo "
					<< msgs[chunks[ci].msg].uo << " mid "
					<< msgs[chunks[ci].msg].mid << " fsn " << chunks[ci].fsn
					<< " of " << msgs[chunks[ci].msg].frags.size()
					<< " next_mid "
					<< f.streams[msgs[chunks[ci].msg].sid].next_mid
					<< " chunks " << f.r.chunks << " msgs " << f.r.msgs
					<< " bytes " << f.r.bytes << " lim " << lim.max_chunks
					<< "/" << lim.max_bytes;
			}
			if (sctp_ireasm_verdict_marks_tsn(v)) {
				taken.insert((uint32_t)ci);
				pending.erase(pending.begin() + (long)pick);
			}
			while (taken.count(cum))
				cum++;
		}
		// The sender's Advanced.Peer.Ack.Point: over taken and lost chunks.
		uint32_t fwd = cum;
		while (fwd < chunks.size() && (taken.count(fwd) || msgs[chunks[fwd].msg].abandoned))
			fwd++;
		if (fwd > cum && (pending.empty() || rnd(6) == 0 || pick == SIZE_MAX)) {
			std::map<std::pair<uint16_t, bool>, uint32_t> ent;
			for (uint32_t i = cum; i < fwd; i++) {
				if (taken.count(i) || !msgs[chunks[i].msg].abandoned)
					continue;
				const Msg &m = msgs[chunks[i].msg];
				auto key = std::make_pair(m.sid, m.uo);
				if (!ent.count(key) || sctp_tsn_lt(ent[key], m.mid))
					ent[key] = m.mid;
			}
			cum = fwd;
			// Abandoned chunks still on their way: below the point the TSN
			// map drops them; above it they arrive late.
			pending.erase(std::remove_if(pending.begin(), pending.end(),
						     [&](size_t i) { return i < cum; }),
				      pending.end());
			sctp_ireasm_forward_tsn(&f.r, &f.env, tsn0 + cum - 1);
			ASSERT_EQ(sctp_ireasm_check(&f.r, &f.env), 0);
			for (auto &e : ent) {
				ASSERT_EQ(sctp_ireasm_forward(&f.r, &f.env, e.first.first,
							      e.first.second, e.second),
					  0);
				ASSERT_EQ(sctp_ireasm_check(&f.r, &f.env), 0);
			}
			while (taken.count(cum))
				cum++;
		}
	}
	// Every delivery against the messages.
	std::map<std::tuple<uint16_t, bool, uint32_t>, size_t> idx;
	for (size_t i = 0; i < msgs.size(); i++)
		idx[{ msgs[i].sid, msgs[i].uo, msgs[i].mid }] = i;
	std::map<size_t, std::string> got;
	std::set<size_t> ended, aborted;
	std::map<uint16_t, uint32_t> last_ordered;
	for (const Delivery &d : f.out) {
		bool uo = d.flags & SCTP_REASM_MSG_UNORDERED;
		auto it = idx.find({ d.sid, uo, d.mid });
		ASSERT_NE(it, idx.end());
		size_t i = it->second;
		const Msg &m = msgs[i];
		ASSERT_FALSE(ended.count(i)) << "delivered twice";
		ASSERT_EQ(got.count(i) != 0, (d.flags & SCTP_REASM_MSG_CONT) != 0);
		if (!uo && !got.count(i)) {
			if (last_ordered.count(d.sid)) {
				ASSERT_TRUE(sctp_tsn_lt(last_ordered[d.sid], d.mid)) << "MID order";
			}
			last_ordered[d.sid] = d.mid;
		}
		got[i] += d.bytes;
		ASSERT_EQ(d.ppid, m.ppid);
		if (d.flags & SCTP_REASM_MSG_ABORTED) {
			ASSERT_TRUE(m.abandoned);
			aborted.insert(i);
		}
		if (!(d.flags & SCTP_REASM_MSG_MORE))
			ended.insert(i);
		ASSERT_EQ(got[i], m.bytes.substr(0, got[i].size()));
	}
	for (size_t i = 0; i < msgs.size(); i++) {
		if (msgs[i].abandoned) {
			if (got.count(i)) {
				ASSERT_TRUE(ended.count(i)) << "abandoned and left open";
			}
			if (ended.count(i) && !aborted.count(i)) {
				ASSERT_EQ(got[i], msgs[i].bytes);
			}
			continue;
		}
		ASSERT_TRUE(ended.count(i)) << "seed " << seed << " message " << i << " lost";
		ASSERT_EQ(got[i], msgs[i].bytes);
	}
	f.done();
}

TEST(IReasm, RandomModelManySeeds)
{
	for (uint32_t seed = 1; seed <= 400; seed++) {
		SCOPED_TRACE(seed);
		run_model(seed);
		if (HasFatalFailure())
			return;
	}
}

} // namespace
