// SPDX-License-Identifier: BSD-3-Clause
// Reassembly and per-stream delivery (sctp/reasm.c; RFC 9260 §6.5, §6.6,
// §6.9, RFC 3758 §3.6, RFC 6458 §8.1.20). Every rule by hand: ordered and
// unordered delivery, the fast path, fragments in every order, streams
// that do not block each other, SSN and TSN wrap, each §6.9 violation, the
// caps and NO_ROOM, partial delivery by threshold and by a full queue,
// FORWARD TSN and abandon. Then two randomized models against a reference:
// reordered, bundled, fragmented traffic on several streams under small
// caps, with two associations sharing one pool; and the same with messages
// the sender abandons and FORWARD TSNs. Buffers are refcounted fakes: at
// the end of every test each hold has had exactly one release.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "sctp/reasm.h"
#include "sctp/tsn.h"
#include "sctp/wire.h"
}

namespace {

constexpr uint8_t B = SCTP_DATA_FLAG_B;
constexpr uint8_t E = SCTP_DATA_FLAG_E;
constexpr uint8_t U = SCTP_DATA_FLAG_U;
constexpr uint8_t BE = B | E;
constexpr uint8_t M = 0; // a middle fragment

// A refcounted packet buffer. refs counts the caller's reference (during
// the input call) plus every hold not yet released.
struct Block {
	std::vector<uint8_t> data;
	long refs = 0;
};

struct Bufs {
	std::deque<Block> blocks; // deque: stable addresses
	long holds = 0;
	long releases = 0;
	struct sctp_buf_ops ops;

	Bufs()
	{
		ops.hold = &Bufs::hold;
		ops.release = &Bufs::release;
		ops.ctx = this;
	}
	static void hold(void *ctx, void *h)
	{
		Bufs *self = static_cast<Bufs *>(ctx);
		Block *b = static_cast<Block *>(h);
		EXPECT_GT(b->refs, 0) << "hold on a buffer nobody holds";
		b->refs++;
		self->holds++;
	}
	static void release(void *ctx, void *h)
	{
		Bufs *self = static_cast<Bufs *>(ctx);
		Block *b = static_cast<Block *>(h);
		EXPECT_GT(b->refs, 0) << "release without a hold";
		b->refs--;
		self->releases++;
	}
	Block *make(const std::string &bytes)
	{
		blocks.emplace_back();
		Block *b = &blocks.back();
		b->data.assign(bytes.begin(), bytes.end());
		b->refs = 1;
		return b;
	}
	// Every hold released, and the callers dropped their own references.
	void expect_clean() const
	{
		EXPECT_EQ(holds, releases);
		long live = 0;
		for (const Block &b : blocks)
			live += b.refs != 0;
		EXPECT_EQ(live, 0) << "buffers still referenced";
	}
};

struct Delivery {
	uint16_t sid;
	uint16_t ssn;
	uint32_t ppid;
	uint8_t flags;
	uint32_t len;
	uint32_t nfrags;
	std::string bytes;
};

// Reads a delivery's slices, checks they are whole and referenced, and
// releases them as a receiver would once it has consumed them.
Delivery
consume(Bufs &bufs, const struct sctp_reasm_msg *m)
{
	Delivery d{ m->sid, m->ssn, m->ppid, m->flags, m->len, m->nfrags, {} };
	struct sctp_reasm_iter it;
	struct sctp_slice s;
	uint32_t n = 0;
	sctp_reasm_iter_init(&it, m);
	while (sctp_reasm_iter_next(&it, &s)) {
		n++;
		if (s.handle == nullptr) {
			d.bytes.append(reinterpret_cast<const char *>(s.data), s.len);
			continue;
		}
		Block *b = static_cast<Block *>(s.handle);
		EXPECT_GT(b->refs, 0) << "delivered slice without a reference";
		EXPECT_GE(s.data, b->data.data());
		EXPECT_LE(s.data + s.len, b->data.data() + b->data.size());
		d.bytes.append(reinterpret_cast<const char *>(s.data), s.len);
		bufs.ops.release(bufs.ops.ctx, s.handle);
	}
	EXPECT_EQ(n, m->nfrags);
	EXPECT_EQ(d.bytes.size(), m->len);
	return d;
}

// One association with its own pool and streams, for the hand-written
// tests. It keeps the TSN map the association would: the cumulative TSN
// (cum, settable before the first chunk) and the TSNs received above it.
struct H {
	Bufs bufs;
	std::vector<struct sctp_reasm_node> nodes;
	struct sctp_reasm_pool pool;
	std::vector<struct sctp_reasm_stream> streams;
	struct sctp_reasm r;
	struct sctp_reasm_env env;
	std::vector<Delivery> out;
	uint32_t cum = 0;
	std::set<uint32_t> above;

	explicit H(uint16_t max_chunks = 64, uint32_t max_bytes = 1u << 20, uint32_t pd_point = 0,
		   uint32_t n_nodes = 256, uint32_t n_streams = 4)
	    : nodes(n_nodes), streams(n_streams)
	{
		EXPECT_EQ(sctp_reasm_pool_init(&pool, nodes.data(), n_nodes), 0);
		sctp_reasm_streams_init(streams.data(), n_streams);
		sctp_reasm_init(&r);
		env.pool = &pool;
		env.streams = streams.data();
		env.n_streams = n_streams;
		env.lim.max_bytes = max_bytes;
		env.lim.max_chunks = max_chunks;
		env.lim.pd_point = pd_point;
		env.buf = &bufs.ops;
		env.deliver = [](void *arg, const struct sctp_reasm_msg *m) {
			H *h = static_cast<H *>(arg);
			h->out.push_back(consume(h->bufs, m));
		};
		env.arg = this;
		env.pr_cut = false;
	}
	~H()
	{
		sctp_reasm_abandon(&r, &env);
		EXPECT_EQ(pool.n_free, pool.n) << "nodes not returned";
		EXPECT_EQ(sctp_reasm_queued_bytes(&r), 0u);
		EXPECT_EQ(sctp_reasm_queued_chunks(&r), 0u);
		for (const auto &s : streams)
			EXPECT_EQ(s.held, 0u);
		bufs.expect_clean();
	}
	enum sctp_reasm_verdict in(uint32_t tsn, uint16_t sid, uint16_t ssn, uint8_t flags,
				   const std::string &payload, uint32_t ppid = 0)
	{
		Block *b = bufs.make(payload);
		struct sctp_reasm_chunk c = {};
		c.tsn = tsn;
		c.ppid = ppid;
		c.sid = sid;
		c.ssn = ssn;
		c.flags = flags;
		c.payload.handle = b;
		c.payload.data = b->data.data();
		c.payload.len = (uint32_t)b->data.size();
		enum sctp_reasm_verdict v = sctp_reasm_input(&r, &env, &c, cum);
		b->refs--; // the caller frees its packet after the call
		if (sctp_reasm_verdict_marks_tsn(v))
			mark(tsn);
		return v;
	}
	void mark(uint32_t tsn)
	{
		uint32_t old = cum;
		above.insert(tsn);
		while (above.count(cum + 1)) {
			above.erase(cum + 1);
			cum++;
		}
		if (cum != old)
			sctp_reasm_cum_moved(&r, &env, cum);
	}
	// A FORWARD TSN: the map moves to new_cum, then over what it holds.
	void fwd_tsn(uint32_t new_cum)
	{
		if (sctp_tsn_gt(new_cum, cum))
			cum = new_cum;
		while (above.count(cum + 1))
			cum++;
		sctp_reasm_forward_tsn(&r, &env, cum);
	}
	int fwd_ssn(uint16_t sid, uint16_t ssn)
	{
		return sctp_reasm_forward_ssn(&r, &env, sid, ssn, cum);
	}
	std::string joined() const
	{
		std::string s;
		for (const Delivery &d : out)
			s += d.bytes;
		return s;
	}
};

// Everything a refused chunk must leave alone.
struct Snap {
	uint32_t chunks, bytes, n_free;
	long holds, releases;
	size_t delivered;
	std::vector<uint16_t> next_ssn, held;

	explicit Snap(const H &h)
	    : chunks(sctp_reasm_queued_chunks(&h.r)), bytes(sctp_reasm_queued_bytes(&h.r)),
	      n_free(h.pool.n_free), holds(h.bufs.holds), releases(h.bufs.releases),
	      delivered(h.out.size())
	{
		for (const auto &s : h.streams) {
			next_ssn.push_back(s.next_ssn);
			held.push_back(s.held);
		}
	}
	bool operator==(const Snap &o) const
	{
		return chunks == o.chunks && bytes == o.bytes && n_free == o.n_free &&
		       holds == o.holds && releases == o.releases && delivered == o.delivered &&
		       next_ssn == o.next_ssn && held == o.held;
	}
};

TEST(Reasm, Sizes)
{
	EXPECT_LE(sizeof(struct sctp_reasm), 32u);
	EXPECT_EQ(sizeof(struct sctp_reasm_node), 40u);
	EXPECT_EQ(sizeof(struct sctp_reasm_stream), 4u);
}

TEST(Reasm, VerdictNames)
{
	EXPECT_STREQ(sctp_reasm_verdict_name(SCTP_REASM_DELIVERED), "delivered");
	EXPECT_STREQ(sctp_reasm_verdict_name(SCTP_REASM_NO_ROOM), "no_room");
	EXPECT_STREQ(sctp_reasm_verdict_name(SCTP_REASM_BAD_FRAGMENT), "bad_fragment");
	EXPECT_STREQ(sctp_reasm_verdict_name(SCTP_REASM_BAD_LEN), "bad_len");
	EXPECT_STREQ(sctp_reasm_verdict_name((enum sctp_reasm_verdict)99), "unknown");
	EXPECT_TRUE(sctp_reasm_verdict_marks_tsn(SCTP_REASM_QUEUED));
	EXPECT_TRUE(sctp_reasm_verdict_marks_tsn(SCTP_REASM_STALE));
	EXPECT_TRUE(sctp_reasm_verdict_marks_tsn(SCTP_REASM_BAD_STREAM));
	EXPECT_FALSE(sctp_reasm_verdict_marks_tsn(SCTP_REASM_NO_ROOM));
	EXPECT_FALSE(sctp_reasm_verdict_marks_tsn(SCTP_REASM_BAD_FRAGMENT));
	EXPECT_FALSE(sctp_reasm_verdict_marks_tsn(SCTP_REASM_DUPLICATE));
}

TEST(Reasm, PoolInit)
{
	std::vector<struct sctp_reasm_node> n(3);
	struct sctp_reasm_pool p;
	EXPECT_EQ(sctp_reasm_pool_init(&p, n.data(), 0), -1);
	EXPECT_EQ(sctp_reasm_pool_init(&p, n.data(), SCTP_REASM_NIL), -1);
	ASSERT_EQ(sctp_reasm_pool_init(&p, n.data(), 3), 0);
	EXPECT_EQ(p.n_free, 3u);
}

// §6.6: a whole in-sequence message goes up at once, without taking a node.
TEST(Reasm, FastPathTakesNoNode)
{
	H h;
	EXPECT_EQ(h.in(1, 2, 0, BE, "hello", 77), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 1u);
	EXPECT_EQ(h.out[0].sid, 2);
	EXPECT_EQ(h.out[0].ssn, 0);
	EXPECT_EQ(h.out[0].ppid, 77u);
	EXPECT_EQ(h.out[0].flags, 0);
	EXPECT_EQ(h.out[0].nfrags, 1u);
	EXPECT_EQ(h.out[0].bytes, "hello");
	EXPECT_EQ(h.pool.n_free, h.pool.n);
	EXPECT_EQ(h.bufs.holds, 1); // held for the receiver, who released it
	EXPECT_EQ(h.streams[2].next_ssn, 1);
	EXPECT_EQ(sctp_reasm_queued_bytes(&h.r), 0u);
}

// §6.5: ordered messages wait for the SSNs before them.
TEST(Reasm, OrderedWaitsForEarlierSsn)
{
	H h;
	EXPECT_EQ(h.in(2, 0, 1, BE, "b"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(3, 0, 2, BE, "c"), SCTP_REASM_QUEUED);
	EXPECT_TRUE(h.out.empty());
	EXPECT_EQ(sctp_reasm_queued_bytes(&h.r), 2u);
	EXPECT_EQ(h.streams[0].held, 2);
	EXPECT_EQ(h.in(1, 0, 0, BE, "a"), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 3u);
	EXPECT_EQ(h.joined(), "abc");
	EXPECT_EQ(h.out[2].ssn, 2);
	EXPECT_EQ(h.streams[0].next_ssn, 3);
	EXPECT_EQ(h.streams[0].held, 0);
	EXPECT_EQ(sctp_reasm_queued_bytes(&h.r), 0u);
}

// §6.6: the U bit bypasses ordering, whatever the stream waits for.
TEST(Reasm, UnorderedGoesUpAtOnce)
{
	H h;
	EXPECT_EQ(h.in(5, 0, 3, BE, "later"), SCTP_REASM_QUEUED); // ordered, waits for SSN 0
	EXPECT_EQ(h.in(7, 0, 9, BE | U, "u"), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 1u);
	EXPECT_EQ(h.out[0].flags, SCTP_REASM_MSG_UNORDERED);
	EXPECT_EQ(h.streams[0].next_ssn, 0);
	// Unordered fragments: delivered as soon as whole, in any arrival order.
	EXPECT_EQ(h.in(10, 0, 0, U | E, "3"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(8, 0, 0, U | B, "1"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.streams[0].held, 1); // unordered fragments are not the stream's
	EXPECT_EQ(h.in(9, 0, 0, U, "2"), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 2u);
	EXPECT_EQ(h.out[1].bytes, "123");
	EXPECT_EQ(h.out[1].nfrags, 3u);
}

// §6.9: B, middle, E in TSN order: one delivery of three slices.
TEST(Reasm, FragmentsInOrder)
{
	H h;
	EXPECT_EQ(h.in(100, 1, 0, B, "ab", 5), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(101, 1, 0, M, "cd", 6), SCTP_REASM_QUEUED);
	EXPECT_EQ(sctp_reasm_queued_bytes(&h.r), 4u);
	EXPECT_EQ(h.in(102, 1, 0, E, "e", 7), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 1u);
	EXPECT_EQ(h.out[0].bytes, "abcde");
	EXPECT_EQ(h.out[0].nfrags, 3u);
	EXPECT_EQ(h.out[0].len, 5u);
	EXPECT_EQ(h.out[0].ppid, 5u); // the first fragment's
	EXPECT_EQ(h.streams[1].next_ssn, 1);
	EXPECT_EQ(h.pool.n_free, h.pool.n);
}

// §6.9: every arrival order of a four-fragment message, ordered and not.
TEST(Reasm, FragmentsInEveryOrder)
{
	for (uint8_t uf : { (uint8_t)0, U }) {
		std::vector<int> perm = { 0, 1, 2, 3 };
		do {
			H h;
			const uint8_t fl[4] = { B, M, M, E };
			const char *pl[4] = { "w", "xx", "yyy", "z" };
			for (int k = 0; k < 4; k++) {
				int i = perm[k];
				auto v = h.in(50 + i, 3, 0, (uint8_t)(fl[i] | uf), pl[i]);
				EXPECT_EQ(v, k == 3 ? SCTP_REASM_DELIVERED : SCTP_REASM_QUEUED)
					<< "step " << k;
			}
			ASSERT_EQ(h.out.size(), 1u);
			EXPECT_EQ(h.out[0].bytes, "wxxyyyz");
			EXPECT_EQ(h.out[0].nfrags, 4u);
		} while (std::next_permutation(perm.begin(), perm.end()));
	}
}

// Streams do not block each other (RFC 9260 §1.5.2 head-of-line blocking).
TEST(Reasm, StreamsAreIndependent)
{
	H h;
	EXPECT_EQ(h.in(2, 0, 1, BE, "s0m1"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(3, 1, 0, BE, "s1m0"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.in(5, 2, 0, E, "-b"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(4, 2, 0, B, "s2a"), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 2u);
	EXPECT_EQ(h.out[0].bytes, "s1m0");
	EXPECT_EQ(h.out[1].bytes, "s2a-b");
	// Stream 0's first message, in two fragments, releases the second.
	EXPECT_EQ(h.in(1, 0, 0, E, "0b"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.out.size(), 2u);
	EXPECT_EQ(h.in(0, 0, 0, B, "0a"), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 4u);
	EXPECT_EQ(h.out[2].bytes, "0a0b");
	EXPECT_EQ(h.out[3].bytes, "s0m1");
}

// The previous test's last step, spelt out: a non-B fragment right before a
// queued B must end its message (§6.9), so E is accepted, a middle is not.
TEST(Reasm, FragmentBeforeQueuedStart)
{
	H h;
	EXPECT_EQ(h.in(2, 0, 1, BE, "next"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(1, 0, 0, M, "mid"), SCTP_REASM_BAD_FRAGMENT);
	EXPECT_EQ(h.in(1, 0, 0, E, "0b"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(0, 0, 0, B, "0a"), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 2u);
	EXPECT_EQ(h.out[0].bytes, "0a0b");
	EXPECT_EQ(h.out[1].bytes, "next");
}

// RFC 3758 §3.5 A3 with PR-SCTP: the sender abandoned message 0 after two
// of its fragments; the next message's B takes the next TSN. The prefix
// left behind goes at once (holds released), the new message is delivered,
// and without PR-SCTP the same pair is a violation.
TEST(Reasm, PrCutDropsThePrefixLeftBehind)
{
	H h;
	h.env.pr_cut = true;
	EXPECT_EQ(h.in(0, 1, 0, B, "a0"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(1, 1, 0, M, "a1"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(2, 2, 0, BE, "next"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.r.chunks, 0u) << "the cut prefix is gone";
	ASSERT_EQ(h.out.size(), 1u);
	EXPECT_EQ(h.out[0].bytes, "next");
	// The last fragment sent of a cut message, late, in front of the next B.
	EXPECT_EQ(h.in(4, 0, 0, B, "b0"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(6, 0, 1, BE, "c"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(5, 0, 0, M, "b1"), SCTP_REASM_STALE);
	EXPECT_EQ(h.r.chunks, 1u) << "b0 went with it, c waits for its SSN";
	H strict;
	EXPECT_EQ(strict.in(0, 1, 0, B, "a0"), SCTP_REASM_QUEUED);
	EXPECT_EQ(strict.in(1, 1, 0, BE, "x"), SCTP_REASM_BAD_FRAGMENT);
}

// With PR-SCTP, a partial delivery whose next TSN turns out to be the B of
// another message ends ABORTED, and the new message goes on.
TEST(Reasm, PrCutEndsAPartialDelivery)
{
	H h(64, 1u << 20, 4);
	h.env.pr_cut = true;
	EXPECT_EQ(h.in(0, 0, 0, B, "aaaa"), SCTP_REASM_DELIVERED); // past the PD point
	ASSERT_EQ(h.out.size(), 1u);
	EXPECT_EQ(h.in(1, 0, 1, BE, "next"), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 3u);
	EXPECT_TRUE(h.out[1].flags & SCTP_REASM_MSG_ABORTED);
	EXPECT_EQ(h.out[2].bytes, "next");
}

// §6.5 with RFC 1982 arithmetic: 65534, 65535, 0, 1 are in sequence.
TEST(Reasm, SsnWraps)
{
	H h;
	h.streams[1].next_ssn = 65534;
	EXPECT_EQ(h.in(11, 1, 0, BE, "c"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(10, 1, 65535, BE, "b"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(9, 1, 65534, BE, "a"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.in(12, 1, 1, BE, "d"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.joined(), "abcd");
	EXPECT_EQ(h.streams[1].next_ssn, 2);
	// 65530 is now behind (2 - 65530 mod 2^16 = 8): stale.
	EXPECT_EQ(h.in(13, 1, 65530, BE, "old"), SCTP_REASM_STALE);
	EXPECT_EQ(h.out.size(), 4u);
}

// §6.9 with RFC 1982 arithmetic on TSNs: a message across 2^32.
TEST(Reasm, TsnWraps)
{
	H h;
	EXPECT_EQ(h.in(1, 0, 0, E, "4"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(0xfffffffeu, 0, 0, B, "1"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(0, 0, 0, M, "3"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(0xffffffffu, 0, 0, M, "2"), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 1u);
	EXPECT_EQ(h.out[0].bytes, "1234");
	// In order across the wrap: the tail cache (reasm.c I4) survives it.
	EXPECT_EQ(h.in(0xfffffffeu + 10, 0, 1, B, "a"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(0xfffffffeu + 11, 0, 1, M, "b"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(0xfffffffeu + 12, 0, 1, E, "c"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.out.back().bytes, "abc");
}

// Each §6.9 contradiction is refused with nothing taken.
TEST(Reasm, ViolationsTakeNothing)
{
	struct Case {
		const char *what;
		uint8_t q_flags; // queued at TSN 10, stream 0, SSN 1 (so it waits)
		uint16_t sid;
		uint16_t ssn;
		uint8_t flags;
		uint32_t tsn;
	};
	const Case cases[] = {
		{ "B after a B", B, 0, 1, B, 11 },
		{ "B|E after a B", B, 0, 1, BE, 11 },
		{ "middle after an E", BE, 0, 2, M, 11 },
		{ "E after an E", BE, 0, 2, E, 11 },
		{ "other stream in the middle", B, 1, 1, M, 11 },
		{ "other SSN in the middle", B, 0, 2, E, 11 },
		{ "U bit changes in the middle", B, 0, 1, U | E, 11 },
		{ "B before a middle", M, 0, 1, B | E, 9 },
		{ "E before a middle", M, 0, 1, E, 9 },
		{ "other stream before a middle", M, 2, 1, B, 9 },
		{ "ordered B|E before a middle", E, 0, 1, BE, 9 },
	};
	for (const Case &c : cases) {
		SCOPED_TRACE(c.what);
		H h;
		ASSERT_EQ(h.in(10, 0, 1, c.q_flags, "q"), SCTP_REASM_QUEUED);
		Snap before(h);
		EXPECT_EQ(h.in(c.tsn, c.sid, c.ssn, c.flags, "x"), SCTP_REASM_BAD_FRAGMENT);
		EXPECT_TRUE(Snap(h) == before);
	}
}

// Unordered fragments of one message may carry any SSN (§6.6: ignored).
TEST(Reasm, UnorderedSsnIgnored)
{
	H h;
	EXPECT_EQ(h.in(1, 0, 4, U | B, "a"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(2, 0, 9, U | E, "b"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.out[0].bytes, "ab");
}

TEST(Reasm, OtherRefusals)
{
	H h;
	ASSERT_EQ(h.in(10, 0, 1, B, "q"), SCTP_REASM_QUEUED);
	Snap before(h);
	EXPECT_EQ(h.in(11, 4, 0, E, "x"), SCTP_REASM_BAD_STREAM); // 4 streams: 0..3
	EXPECT_EQ(h.in(10, 0, 1, B, "q"), SCTP_REASM_DUPLICATE);
	EXPECT_TRUE(Snap(h) == before);
	struct sctp_reasm_chunk c = {};
	static const uint8_t big[70000] = {};
	c.tsn = 20;
	c.flags = BE;
	c.payload.data = big;
	c.payload.len = sizeof(big);
	EXPECT_EQ(sctp_reasm_input(&h.r, &h.env, &c, h.cum), SCTP_REASM_BAD_LEN);
	EXPECT_TRUE(Snap(h) == before);
	EXPECT_EQ(h.fwd_ssn(4, 0), -1);
}

// A slice nobody owns (NULL handle) is never held nor released.
TEST(Reasm, NullHandle)
{
	H h;
	static const uint8_t bytes[] = { 'n', 'o' };
	struct sctp_reasm_chunk c = {};
	c.tsn = 2;
	c.ssn = 1;
	c.flags = BE;
	c.payload.data = bytes;
	c.payload.len = 2;
	EXPECT_EQ(sctp_reasm_input(&h.r, &h.env, &c, 0), SCTP_REASM_QUEUED);
	c.tsn = 1;
	c.ssn = 0;
	EXPECT_EQ(sctp_reasm_input(&h.r, &h.env, &c, 0), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.joined(), "nono");
	EXPECT_EQ(h.bufs.holds, 0);
}

// The chunk cap: NO_ROOM before anything is taken; what goes up at once
// still does; room comes back with the deliveries.
TEST(Reasm, ChunkCap)
{
	H h(/*max_chunks=*/2);
	EXPECT_EQ(h.in(2, 0, 1, BE, "1"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(3, 0, 2, BE, "2"), SCTP_REASM_QUEUED);
	Snap before(h);
	EXPECT_EQ(h.in(4, 0, 3, BE, "3"), SCTP_REASM_NO_ROOM);
	EXPECT_EQ(h.in(6, 1, 0, E, "e"), SCTP_REASM_NO_ROOM); // no B: cannot start anything
	EXPECT_TRUE(Snap(h) == before);
	EXPECT_EQ(h.in(5, 1, 0, BE, "s1"), SCTP_REASM_DELIVERED); // fast path needs no room
	EXPECT_EQ(h.in(1, 0, 0, BE, "0"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.joined(), "s1012");
	EXPECT_EQ(h.in(4, 0, 3, BE, "3"), SCTP_REASM_DELIVERED); // the retransmission
}

TEST(Reasm, ByteCap)
{
	H h(64, /*max_bytes=*/10);
	EXPECT_EQ(h.in(2, 0, 1, BE, "123456"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(3, 0, 2, BE, "1234"), SCTP_REASM_QUEUED); // exactly 10
	Snap before(h);
	EXPECT_EQ(h.in(4, 0, 3, BE, "x"), SCTP_REASM_NO_ROOM);
	EXPECT_TRUE(Snap(h) == before);
	EXPECT_EQ(sctp_reasm_queued_bytes(&h.r), 10u);
	EXPECT_EQ(h.in(1, 0, 0, BE, "0"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(sctp_reasm_queued_bytes(&h.r), 0u);
}

// One pool, two associations: the pool running dry is NO_ROOM for the
// other one too, except for what goes up at once.
TEST(Reasm, SharedPoolEmpty)
{
	H a(64, 1u << 20, 0, /*n_nodes=*/2);
	H b(64, 1u << 20, 0, 256);
	b.env.pool = &a.pool;
	EXPECT_EQ(a.in(2, 0, 1, BE, "a1"), SCTP_REASM_QUEUED);
	EXPECT_EQ(a.in(3, 0, 2, BE, "a2"), SCTP_REASM_QUEUED);
	EXPECT_EQ(a.pool.n_free, 0u);
	Snap before(b);
	EXPECT_EQ(b.in(8, 0, 1, BE, "b1"), SCTP_REASM_NO_ROOM);
	EXPECT_TRUE(Snap(b) == before);
	EXPECT_EQ(b.in(7, 0, 0, BE, "b0"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(a.in(1, 0, 0, BE, "a0"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(a.pool.n_free, 2u);
	EXPECT_EQ(b.in(8, 0, 1, BE, "b1"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(a.joined(), "a0a1a2");
	EXPECT_EQ(b.joined(), "b0b1");
	sctp_reasm_abandon(&b.r, &b.env);
	b.env.pool = &b.pool; // b's destructor checks its own pool
}

// RFC 6458 §8.1.20: past the partial delivery point the message goes up in
// parts: MORE, then CONT|MORE, then CONT. Its stream waits; others do not.
TEST(Reasm, PartialDeliveryPoint)
{
	H h(64, 1u << 20, /*pd_point=*/8);
	EXPECT_EQ(h.in(1, 0, 0, B, "aaaa", 42), SCTP_REASM_QUEUED);
	EXPECT_FALSE(sctp_reasm_in_partial_delivery(&h.r));
	EXPECT_EQ(h.in(2, 0, 0, M, "bbbb"), SCTP_REASM_DELIVERED);
	EXPECT_TRUE(sctp_reasm_in_partial_delivery(&h.r));
	ASSERT_EQ(h.out.size(), 1u);
	EXPECT_EQ(h.out[0].flags, SCTP_REASM_MSG_MORE);
	EXPECT_EQ(h.out[0].bytes, "aaaabbbb");
	EXPECT_EQ(h.out[0].nfrags, 2u);
	EXPECT_EQ(h.pool.n_free, h.pool.n);
	// The next message of stream 0 waits; stream 1 does not.
	EXPECT_EQ(h.in(10, 0, 1, BE, "next"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(11, 1, 0, BE, "other"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.in(3, 0, 0, M, "cc", 999), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.out[2].flags, SCTP_REASM_MSG_CONT | SCTP_REASM_MSG_MORE);
	EXPECT_EQ(h.out[2].ppid, 42u); // the message's, not the fragment's
	// A gap, then the fragment after it is queued, then the gap fills.
	EXPECT_EQ(h.in(5, 0, 0, M, "ee"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(6, 0, 0, E, "f"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(4, 0, 0, M, "dd"), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 5u);
	EXPECT_EQ(h.out[3].flags, SCTP_REASM_MSG_CONT);
	EXPECT_EQ(h.out[3].bytes, "ddeef");
	EXPECT_EQ(h.out[3].nfrags, 3u);
	EXPECT_EQ(h.out[4].bytes, "next");
	EXPECT_FALSE(sctp_reasm_in_partial_delivery(&h.r));
	EXPECT_EQ(h.streams[0].next_ssn, 2);
}

// The fragment partial delivery waits for is checked (§6.9), and a second
// B for the message in partial delivery is refused.
TEST(Reasm, PartialDeliveryViolations)
{
	H h(64, 1u << 20, 4);
	EXPECT_EQ(h.in(1, 0, 0, B, "aaaa"), SCTP_REASM_DELIVERED);
	Snap before(h);
	EXPECT_EQ(h.in(2, 0, 1, M, "x"), SCTP_REASM_BAD_FRAGMENT);     // other SSN
	EXPECT_EQ(h.in(2, 1, 0, M, "x"), SCTP_REASM_BAD_FRAGMENT);     // other stream
	EXPECT_EQ(h.in(2, 0, 0, U | M, "x"), SCTP_REASM_BAD_FRAGMENT); // U bit
	EXPECT_EQ(h.in(2, 0, 0, B, "x"), SCTP_REASM_BAD_FRAGMENT);     // B in the middle
	EXPECT_EQ(h.in(7, 0, 0, B, "x"), SCTP_REASM_BAD_FRAGMENT);     // restarts SSN 0
	EXPECT_TRUE(Snap(h) == before);
	EXPECT_EQ(h.in(3, 0, 0, E, "c"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(2, 0, 0, B, "x"), SCTP_REASM_BAD_FRAGMENT);
	EXPECT_EQ(h.in(2, 0, 0, E, "x"), SCTP_REASM_BAD_FRAGMENT); // E then E
	EXPECT_EQ(h.in(2, 0, 0, M, "b"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.joined(), "aaaabc");
}

// An unordered message in partial delivery does not hold up its stream.
TEST(Reasm, UnorderedPartialDelivery)
{
	H h(64, 1u << 20, 2);
	EXPECT_EQ(h.in(1, 0, 0, U | B, "uu"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.out[0].flags, SCTP_REASM_MSG_UNORDERED | SCTP_REASM_MSG_MORE);
	EXPECT_EQ(h.in(5, 0, 0, BE, "o"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.in(2, 0, 0, U | E, "v"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.out[2].flags, SCTP_REASM_MSG_UNORDERED | SCTP_REASM_MSG_CONT);
}

// With no partial delivery point, a message whose own fragments fill the
// cap would deadlock: it goes up in part as soon as the cap is reached.
TEST(Reasm, PartialDeliveryWhenFull)
{
	H h(/*max_chunks=*/3, 1u << 20, /*pd_point=*/0);
	EXPECT_EQ(h.in(1, 0, 0, B, "1"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(2, 0, 0, M, "2"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(3, 0, 0, M, "3"), SCTP_REASM_DELIVERED); // reaches the cap
	ASSERT_EQ(h.out.size(), 1u);
	EXPECT_EQ(h.out[0].flags, SCTP_REASM_MSG_MORE);
	EXPECT_EQ(h.out[0].bytes, "123");
	EXPECT_EQ(h.in(4, 0, 0, M, "4"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.in(5, 0, 0, E, "5"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.out.back().flags, SCTP_REASM_MSG_CONT);
	EXPECT_EQ(h.joined(), "12345");
}

// The cap filled by a message's later fragments: its B still gets in and
// takes them up with it.
TEST(Reasm, FullOfLaterFragmentsThenB)
{
	H h(/*max_chunks=*/3);
	EXPECT_EQ(h.in(2, 0, 0, M, "2"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(3, 0, 0, M, "3"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(4, 0, 0, M, "4"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(6, 0, 0, E, "6"), SCTP_REASM_NO_ROOM);
	EXPECT_EQ(h.in(1, 0, 0, B, "1"), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 1u);
	EXPECT_EQ(h.out[0].flags, SCTP_REASM_MSG_MORE);
	EXPECT_EQ(h.out[0].bytes, "1234");
	EXPECT_EQ(h.out[0].nfrags, 4u);
	EXPECT_EQ(h.pool.n_free, h.pool.n);
	EXPECT_EQ(h.in(6, 0, 0, E, "6"), SCTP_REASM_QUEUED); // now there is room
	EXPECT_EQ(h.in(5, 0, 0, M, "5"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.joined(), "123456");
	EXPECT_EQ(h.streams[0].next_ssn, 1);
}

// Full with the B and a prefix of a deliverable message queued, and a gap:
// the prefix goes up in part to make room, then the gap's chunk continues.
TEST(Reasm, FullPrefixThenGap)
{
	H h(/*max_chunks=*/3, 1u << 20, 0);
	EXPECT_EQ(h.in(10, 0, 5, BE, "w"), SCTP_REASM_QUEUED); // waits: not full yet
	EXPECT_EQ(h.in(1, 1, 0, B, "1"), SCTP_REASM_QUEUED);
	// The third node fills the cap: stream 1's prefix goes up at once.
	EXPECT_EQ(h.in(2, 1, 0, M, "2"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.out.back().flags, SCTP_REASM_MSG_MORE);
	EXPECT_EQ(h.in(4, 1, 0, E, "4"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(3, 1, 0, M, "3"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.out.back().flags, SCTP_REASM_MSG_CONT);
	EXPECT_EQ(h.out.back().bytes, "34");
}

// Full of a message that must wait for an earlier SSN: when the earlier one
// goes up, the waiting message becomes the head and goes up in part.
TEST(Reasm, FullWaitingMessageBecomesHead)
{
	H h(/*max_chunks=*/3);
	EXPECT_EQ(h.in(2, 0, 1, B, "b"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(3, 0, 1, M, "c"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(4, 0, 1, M, "d"), SCTP_REASM_QUEUED);
	EXPECT_TRUE(h.out.empty());
	EXPECT_EQ(h.in(5, 0, 1, E, "e"), SCTP_REASM_NO_ROOM);
	EXPECT_EQ(h.in(1, 0, 0, BE, "a"), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 2u);
	EXPECT_EQ(h.out[1].flags, SCTP_REASM_MSG_MORE);
	EXPECT_EQ(h.out[1].bytes, "bcd");
	EXPECT_EQ(h.in(5, 0, 1, E, "e"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.joined(), "abcde");
	EXPECT_EQ(h.streams[0].next_ssn, 2);
}

// Only one partial delivery at a time: another message over the point waits
// for the first to finish, then starts.
TEST(Reasm, OnePartialDeliveryAtATime)
{
	H h(64, 1u << 20, 2);
	EXPECT_EQ(h.in(1, 0, 0, B, "aa"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.in(3, 1, 0, B, "xx"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(4, 1, 0, M, "yy"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(2, 0, 0, E, "b"), SCTP_REASM_DELIVERED);
	ASSERT_EQ(h.out.size(), 3u);
	EXPECT_EQ(h.out[2].flags, SCTP_REASM_MSG_MORE);
	EXPECT_EQ(h.out[2].bytes, "xxyy");
	EXPECT_EQ(h.in(5, 1, 0, E, "z"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.joined(), "aabxxyyz");
}

// RFC 3758 §3.6: a partly reassembled message missing a TSN at or below
// the new cumulative TSN is dropped (holds released); whole ones stay.
TEST(Reasm, ForwardTsnDropsPartialMessages)
{
	H h;
	EXPECT_EQ(h.in(3, 0, 1, B, "b"), SCTP_REASM_QUEUED);  // missing 4
	EXPECT_EQ(h.in(6, 1, 0, E, "e"), SCTP_REASM_QUEUED);  // missing 5
	EXPECT_EQ(h.in(7, 1, 3, BE, "w"), SCTP_REASM_QUEUED); // whole, waits
	EXPECT_EQ(h.in(20, 2, 0, E, "x"), SCTP_REASM_QUEUED); // missing 19 > cum: stays
	EXPECT_EQ(h.in(30, 2, 2, B, "y"), SCTP_REASM_QUEUED); // missing 31 > cum: stays
	long rel = h.bufs.releases;
	h.fwd_tsn(10);
	EXPECT_EQ(h.bufs.releases, rel + 2);
	EXPECT_EQ(sctp_reasm_queued_chunks(&h.r), 3u);
	EXPECT_EQ(h.streams[0].held, 0);
	EXPECT_EQ(h.streams[1].held, 1);
	EXPECT_TRUE(h.out.empty());
}

// RFC 3758 §3.6: stranded whole messages up to the listed SSN go up in SSN
// order, the stream skips to the SSN after it, and what follows goes up.
TEST(Reasm, ForwardSsnReleasesStranded)
{
	H h;
	// SSN 0 (TSN 1) and SSN 3 (TSN 4) abandoned by the sender.
	EXPECT_EQ(h.in(2, 0, 1, BE, "m1"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(3, 0, 2, BE, "m2"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(5, 0, 4, BE, "m4"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(6, 0, 5, B, "m5"), SCTP_REASM_QUEUED);
	h.fwd_tsn(1);
	EXPECT_EQ(h.fwd_ssn(0, 0), 0);
	ASSERT_EQ(h.out.size(), 2u);
	EXPECT_EQ(h.joined(), "m1m2");
	EXPECT_EQ(h.streams[0].next_ssn, 3);
	h.fwd_tsn(4);
	EXPECT_EQ(h.fwd_ssn(0, 3), 0);
	EXPECT_EQ(h.joined(), "m1m2m4");
	EXPECT_EQ(h.streams[0].next_ssn, 5);
	EXPECT_EQ(h.in(7, 0, 5, E, "!"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.out.back().bytes, "m5!");
	// An old listing changes nothing.
	EXPECT_EQ(h.fwd_ssn(0, 2), 0);
	EXPECT_EQ(h.streams[0].next_ssn, 6);
}

// Stranded messages go up in SSN order even when queued out of TSN order,
// and leftovers of the stream up to the listed SSN are dropped.
TEST(Reasm, ForwardSsnOrderAndLeftovers)
{
	H h;
	EXPECT_EQ(h.in(9, 0, 2, BE, "two"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(5, 0, 1, BE, "one"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(12, 0, 3, B, "3-"), SCTP_REASM_QUEUED); // never completes
	EXPECT_EQ(h.in(20, 0, 7, BE, "seven"), SCTP_REASM_QUEUED);
	long rel = h.bufs.releases;
	EXPECT_EQ(h.fwd_ssn(0, 5), 0);
	ASSERT_EQ(h.out.size(), 2u);
	EXPECT_EQ(h.out[0].bytes, "one");
	EXPECT_EQ(h.out[1].bytes, "two");
	EXPECT_EQ(h.bufs.releases, rel + 2 + 1); // two delivered, "3-" dropped
	EXPECT_EQ(h.streams[0].next_ssn, 6);
	EXPECT_EQ(h.streams[0].held, 1);
	// Later chunks of skipped SSNs are stale: acknowledged, discarded.
	Snap before(h);
	EXPECT_EQ(h.in(13, 0, 3, E, "x"), SCTP_REASM_STALE);
	EXPECT_TRUE(Snap(h) == before);
	EXPECT_EQ(h.in(19, 0, 6, BE, "six"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.joined(), "onetwosixseven");
}

// RFC 3758 §3.6: the message in partial delivery is abandoned: the receiver
// gets ABORTED, the stream moves on, its queued remainder is dropped.
TEST(Reasm, ForwardTsnAbortsPartialDelivery)
{
	H h(64, 1u << 20, 2);
	EXPECT_EQ(h.in(1, 0, 0, B, "aa", 9), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.in(4, 0, 0, M, "dd"), SCTP_REASM_QUEUED); // after a gap at 2, 3
	EXPECT_EQ(h.in(6, 0, 1, BE, "next"), SCTP_REASM_QUEUED);
	h.fwd_tsn(5);
	ASSERT_EQ(h.out.size(), 3u);
	EXPECT_EQ(h.out[1].flags, SCTP_REASM_MSG_CONT | SCTP_REASM_MSG_ABORTED);
	EXPECT_EQ(h.out[1].nfrags, 0u);
	EXPECT_EQ(h.out[1].ppid, 9u);
	EXPECT_EQ(h.out[2].bytes, "next");
	EXPECT_FALSE(sctp_reasm_in_partial_delivery(&h.r));
	EXPECT_EQ(h.streams[0].next_ssn, 2);
	EXPECT_EQ(sctp_reasm_queued_chunks(&h.r), 0u);
}

// The same through the listed SSN (the cumulative TSN left it alone).
TEST(Reasm, ForwardSsnAbortsPartialDelivery)
{
	H h(64, 1u << 20, 2);
	h.streams[3].next_ssn = 7;
	EXPECT_EQ(h.in(1, 3, 7, B, "aa"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.fwd_ssn(3, 7), 0);
	ASSERT_EQ(h.out.size(), 2u);
	EXPECT_EQ(h.out[1].flags, SCTP_REASM_MSG_CONT | SCTP_REASM_MSG_ABORTED);
	EXPECT_EQ(h.streams[3].next_ssn, 8);
	EXPECT_EQ(h.in(2, 3, 7, E, "late"), SCTP_REASM_STALE);
}

// RFC 6525 §5.2.2 from a peer that broke it: what is held of the old
// numbering at the reset (a partial delivery, a whole message past a gap,
// the furthest SSN still held, one never completed) must not meet the new
// numbering's SSNs. Whole ones go up, the rest goes; unordered DATA stays.
TEST(Reasm, StreamResetDeliversWholeDropsTheRestAndStartsAtZero)
{
	H h(64, 1u << 20, 2);
	EXPECT_EQ(h.in(1, 0, 0, B, "pd"), SCTP_REASM_DELIVERED); // partial delivery
	EXPECT_EQ(h.in(4, 0, 2, BE, "two"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(6, 0, 0x8000, BE, "far"), SCTP_REASM_QUEUED); // held: 2^15 ahead
	EXPECT_EQ(h.in(8, 0, 3, B, "3-"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(10, 0, 9, B | U, "u-"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(12, 1, 0, B, "other"), SCTP_REASM_QUEUED);
	h.out.clear();
	EXPECT_EQ(sctp_reasm_stream_reset(&h.r, &h.env, 0, h.cum), 0);
	ASSERT_EQ(h.out.size(), 3u);
	EXPECT_EQ(h.out[0].flags, SCTP_REASM_MSG_CONT | SCTP_REASM_MSG_ABORTED);
	EXPECT_EQ(h.out[1].bytes, "two");
	EXPECT_EQ(h.out[2].bytes, "far");
	EXPECT_FALSE(sctp_reasm_in_partial_delivery(&h.r));
	EXPECT_EQ(h.streams[0].next_ssn, 0);
	EXPECT_EQ(h.streams[0].held, 0);
	EXPECT_EQ(sctp_reasm_queued_chunks(&h.r), 2u); // "u-" and stream 1's
	h.out.clear();
	EXPECT_EQ(h.in(20, 0, 0, BE, "new0"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.in(21, 0, 1, BE, "new1"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.in(11, 0, 9, E | U, "end"), SCTP_REASM_DELIVERED);
	EXPECT_EQ(h.joined(), "new0new1u-end");
	EXPECT_EQ(sctp_reasm_stream_reset(&h.r, &h.env, 4, h.cum), -1);
}

// Close: every hold released, every node back, no delivery.
TEST(Reasm, Abandon)
{
	H h(64, 1u << 20, 3);
	EXPECT_EQ(h.in(1, 0, 0, B, "abc"), SCTP_REASM_DELIVERED); // partial delivery open
	EXPECT_EQ(h.in(5, 0, 0, M, "x"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(9, 1, 2, BE, "y"), SCTP_REASM_QUEUED);
	EXPECT_EQ(h.in(12, 2, 0, U | E, "z"), SCTP_REASM_QUEUED);
	EXPECT_EQ(sctp_reasm_queued_bytes(&h.r), 3u);
	size_t n = h.out.size();
	sctp_reasm_abandon(&h.r, &h.env);
	EXPECT_EQ(h.out.size(), n);
	EXPECT_FALSE(sctp_reasm_in_partial_delivery(&h.r));
	EXPECT_EQ(h.pool.n_free, h.pool.n);
	h.bufs.expect_clean();
	// Usable again afterwards.
	EXPECT_EQ(h.in(20, 1, 2, BE, "again"), SCTP_REASM_QUEUED);
}

// ---------------------------------------------------------------------
// Randomized models.

struct Msg {
	uint16_t sid;
	uint16_t ssn;
	bool unordered;
	bool abandoned;
	std::string bytes;
	uint32_t first_tsn;
	uint32_t n_frags;
};

struct Chunk {
	uint32_t tsn;
	uint32_t msg;
	uint8_t flags;
	uint32_t off;
	uint32_t len;
};

// The peer's traffic: messages cut into fragments with consecutive TSNs.
struct Traffic {
	std::vector<Msg> msgs;
	std::vector<Chunk> chunks; // in TSN order
	uint32_t tsn0;
	std::vector<uint16_t> ssn0;
	std::map<std::pair<uint16_t, uint16_t>, uint32_t> ordered_at; // (sid, ssn) -> message
};

Traffic
make_traffic(std::mt19937 &rng, uint32_t n_streams, uint32_t n_msgs, uint32_t max_len,
	     uint32_t frag, double p_unordered, double p_abandon)
{
	Traffic t;
	auto u = [&](uint32_t lo, uint32_t hi) {
		return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
	};
	std::bernoulli_distribution unord(p_unordered), aband(p_abandon);
	// Near the wraps half the time.
	t.tsn0 = u(0, 1) ? 0xffffffffu - u(0, 300) : u(0, 0xffffffffu);
	for (uint32_t s = 0; s < n_streams; s++)
		t.ssn0.push_back(u(0, 1) ? (uint16_t)(65535 - u(0, 40)) : (uint16_t)u(0, 65535));
	std::vector<uint16_t> next = t.ssn0;
	uint32_t tsn = t.tsn0;
	for (uint32_t i = 0; i < n_msgs; i++) {
		Msg m;
		m.sid = (uint16_t)u(0, n_streams - 1);
		m.unordered = unord(rng);
		m.abandoned = aband(rng);
		m.ssn = m.unordered ? (uint16_t)u(0, 65535) : next[m.sid]++;
		uint32_t len = u(1, max_len);
		for (uint32_t k = 0; k < len; k++)
			m.bytes.push_back((char)u(0, 255));
		m.first_tsn = tsn;
		m.n_frags = 0;
		if (!m.unordered)
			t.ordered_at[{ m.sid, m.ssn }] = i;
		for (uint32_t off = 0; off < len; off += frag) {
			Chunk c;
			c.tsn = tsn++;
			c.msg = i;
			c.off = off;
			c.len = std::min(frag, len - off);
			c.flags = (uint8_t)((off == 0 ? B : 0) | (off + frag >= len ? E : 0) |
					    (m.unordered ? U : 0));
			t.chunks.push_back(c);
			m.n_frags++;
		}
		t.msgs.push_back(m);
	}
	return t;
}

// Arrival order: each chunk moved back by up to `window` places.
std::vector<uint32_t>
shuffled(std::mt19937 &rng, size_t n, uint32_t window)
{
	std::vector<std::pair<uint64_t, uint32_t>> key;
	for (uint32_t i = 0; i < n; i++)
		key.push_back(
			{ (uint64_t)i + std::uniform_int_distribution<uint32_t>(0, window)(rng),
			  i });
	std::stable_sort(key.begin(), key.end());
	std::vector<uint32_t> order;
	for (auto &k : key)
		order.push_back(k.second);
	return order;
}

// One receiving association: its queue, streams and reference model.
struct Receiver {
	const Traffic *t;
	Bufs *bufs;
	struct sctp_reasm r;
	std::vector<struct sctp_reasm_stream> streams;
	struct sctp_reasm_env env;
	std::vector<int> delivered; // per message: 0 never, 1 whole, 2 aborted
	std::vector<bool> accepted; // per chunk index
	// The TSN map, by chunk index: everything below cum_idx is received or
	// covered by a FORWARD TSN (below floor_idx).
	uint32_t cum_idx = 0;
	uint32_t floor_idx = 0;
	std::vector<uint16_t> next_check;
	// The message in partial delivery, from the receiver's point of view.
	bool pd_open = false;
	uint32_t pd_msg = 0;
	std::string pd_bytes;
	std::string failure;

	Receiver(const Traffic *traffic, Bufs *b, struct sctp_reasm_pool *pool,
		 const struct sctp_reasm_limits &lim)
	    : t(traffic), bufs(b), streams(traffic->ssn0.size())
	{
		sctp_reasm_init(&r);
		sctp_reasm_streams_init(streams.data(), (uint32_t)streams.size());
		for (size_t s = 0; s < streams.size(); s++)
			streams[s].next_ssn = t->ssn0[s];
		next_check = t->ssn0;
		delivered.assign(t->msgs.size(), 0);
		accepted.assign(t->chunks.size(), false);
		env.pool = pool;
		env.streams = streams.data();
		env.n_streams = (uint32_t)streams.size();
		env.lim = lim;
		env.buf = &bufs->ops;
		env.deliver = [](void *arg, const struct sctp_reasm_msg *m) {
			static_cast<Receiver *>(arg)->on_deliver(m);
		};
		env.arg = this;
		env.pr_cut = false;
	}

	uint32_t cum_tsn() const
	{
		return t->tsn0 + cum_idx - 1;
	}
	bool advance()
	{
		uint32_t old = cum_idx;
		while (cum_idx < accepted.size() && (accepted[cum_idx] || cum_idx < floor_idx))
			cum_idx++;
		return cum_idx != old;
	}
	void fail(const std::string &why)
	{
		if (failure.empty())
			failure = why;
	}

	// The receiver's rules: parts in order, messages once, ordered ones
	// in SSN order per stream (skipping abandoned SSNs), bytes identical.
	void on_deliver(const struct sctp_reasm_msg *m)
	{
		Delivery d = consume(*bufs, m);
		if (d.ppid >= t->msgs.size())
			return fail("unknown ppid");
		const Msg &msg = t->msgs[d.ppid];
		if (d.sid != msg.sid ||
		    ((d.flags & SCTP_REASM_MSG_UNORDERED) != 0) != msg.unordered)
			return fail("stream or U flag wrong");
		if (!msg.unordered && d.ssn != msg.ssn)
			return fail("ssn wrong");
		if (d.flags & SCTP_REASM_MSG_CONT) {
			if (!pd_open || pd_msg != d.ppid)
				return fail("continuation without its start");
			if (d.flags & SCTP_REASM_MSG_ABORTED) {
				if (!msg.abandoned)
					return fail("aborted a message that was not abandoned");
				if (msg.bytes.compare(0, pd_bytes.size(), pd_bytes) != 0)
					return fail("aborted prefix differs");
				pd_open = false;
				delivered[d.ppid] = 2;
				return;
			}
			pd_bytes += d.bytes;
			if (!(d.flags & SCTP_REASM_MSG_MORE)) {
				pd_open = false;
				finish(d.ppid, pd_bytes);
			}
			return;
		}
		if (d.flags & SCTP_REASM_MSG_ABORTED)
			return fail("ABORTED without CONT");
		if (pd_open && (d.flags & SCTP_REASM_MSG_MORE))
			return fail("two partial deliveries at once");
		if (delivered[d.ppid] || (pd_open && pd_msg == d.ppid))
			return fail("message delivered twice");
		if (!msg.unordered) {
			// In SSN order, skipping only messages the sender abandoned.
			for (uint16_t k = next_check[msg.sid]; k != msg.ssn; k++) {
				auto it = t->ordered_at.find({ msg.sid, k });
				if (it == t->ordered_at.end() || !t->msgs[it->second].abandoned)
					return fail("ordered message out of SSN order");
			}
			next_check[msg.sid] = (uint16_t)(msg.ssn + 1);
		}
		if (d.flags & SCTP_REASM_MSG_MORE) {
			pd_open = true;
			pd_msg = d.ppid;
			pd_bytes = d.bytes;
			return;
		}
		finish(d.ppid, d.bytes);
	}
	void finish(uint32_t id, const std::string &bytes)
	{
		if (bytes != t->msgs[id].bytes)
			return fail("bytes differ");
		delivered[id] = 1;
	}

	// The chunk at index i arrives in a packet bundling others (blk).
	enum sctp_reasm_verdict feed(uint32_t i, Block *blk, uint32_t off_in_block)
	{
		const Chunk &c = t->chunks[i];
		const Msg &m = t->msgs[c.msg];
		struct sctp_reasm_chunk rc = {};
		rc.tsn = c.tsn;
		rc.ppid = c.msg;
		rc.sid = m.sid;
		rc.ssn = m.ssn;
		rc.flags = c.flags;
		rc.payload.handle = blk;
		rc.payload.data = blk->data.data() + off_in_block;
		rc.payload.len = c.len;
		enum sctp_reasm_verdict v = sctp_reasm_input(&r, &env, &rc, cum_tsn());
		if (v == SCTP_REASM_DELIVERED || v == SCTP_REASM_QUEUED) {
			accepted[i] = true;
			if (advance())
				sctp_reasm_cum_moved(&r, &env, cum_tsn());
		} else if (v != SCTP_REASM_NO_ROOM)
			fail(std::string("unexpected verdict ") + sctp_reasm_verdict_name(v));
		if (sctp_reasm_queued_chunks(&r) > env.lim.max_chunks ||
		    sctp_reasm_queued_bytes(&r) > env.lim.max_bytes)
			fail("over a cap");
		return v;
	}

	// Packs chunks (indices) into one packet buffer and feeds each.
	uint32_t feed_packet(const std::vector<uint32_t> &idx)
	{
		std::string payload;
		std::vector<uint32_t> offs;
		for (uint32_t i : idx) {
			const Chunk &c = t->chunks[i];
			offs.push_back((uint32_t)payload.size());
			payload += t->msgs[c.msg].bytes.substr(c.off, c.len);
		}
		Block *blk = bufs->make(payload);
		uint32_t taken = 0;
		for (size_t k = 0; k < idx.size(); k++)
			taken += feed(idx[k], blk, offs[k]) != SCTP_REASM_NO_ROOM;
		blk->refs--;
		return taken;
	}
};

struct ModelParams {
	uint32_t n_streams, n_msgs, max_len, frag, window;
	double p_unordered, p_abandon;
	struct sctp_reasm_limits lim;
	uint32_t pool_nodes;
};

ModelParams
random_params(std::mt19937 &rng, bool abandon)
{
	auto u = [&](uint32_t lo, uint32_t hi) {
		return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
	};
	ModelParams p;
	p.n_streams = u(1, 6);
	p.n_msgs = u(20, 250);
	p.max_len = u(1, 4) == 1 ? u(1, 8) : u(1, 300);
	p.frag = u(1, 64);
	p.window = u(0, 3) == 0 ? 0 : u(1, 60);
	p.p_unordered = u(0, 2) == 0 ? 0.0 : 0.3;
	p.p_abandon = abandon ? 0.05 * u(1, 6) : 0.0;
	p.lim.max_chunks = (uint16_t)(u(0, 3) == 0 ? 65535 : u(1, 48));
	p.lim.max_bytes = u(0, 3) == 0 ? 1u << 30 : u(1, 2000);
	p.lim.pd_point = u(0, 2) == 0 ? 0 : u(1, 400);
	p.pool_nodes = u(0, 2) == 0 ? u(1, 40) : 4096;
	return p;
}

std::string
describe(uint32_t seed, const ModelParams &p)
{
	char b[256];
	snprintf(b, sizeof(b),
		 "seed %u: streams %u msgs %u max_len %u frag %u window %u unord %.1f aband %.2f "
		 "max_chunks %u max_bytes %u pd_point %u pool %u",
		 seed, p.n_streams, p.n_msgs, p.max_len, p.frag, p.window, p.p_unordered,
		 p.p_abandon, p.lim.max_chunks, p.lim.max_bytes, p.lim.pd_point, p.pool_nodes);
	return b;
}

// Two associations on one pool, each receiving its own reordered, bundled
// traffic; chunks refused with NO_ROOM come back later (retransmissions).
// Every message goes up exactly once, in SSN order, byte for byte, and
// nothing leaks. Returns "" or what failed.
std::string
run_plain_model(uint32_t seed)
{
	std::mt19937 rng(seed);
	ModelParams p = random_params(rng, false);
	Bufs bufs;
	std::vector<struct sctp_reasm_node> nodes(p.pool_nodes);
	struct sctp_reasm_pool pool;
	sctp_reasm_pool_init(&pool, nodes.data(), p.pool_nodes);
	Traffic t[2];
	std::deque<Receiver> rx;
	std::vector<uint32_t> order[2];
	for (int a = 0; a < 2; a++) {
		t[a] = make_traffic(rng, p.n_streams, p.n_msgs, p.max_len, p.frag, p.p_unordered,
				    0);
		rx.emplace_back(&t[a], &bufs, &pool, p.lim);
		order[a] = shuffled(rng, t[a].chunks.size(), p.window);
	}
	size_t pos[2] = { 0, 0 };
	std::vector<uint32_t> pending[2];
	auto retransmit = [&](int a) {
		std::vector<uint32_t> again;
		std::sort(pending[a].begin(), pending[a].end());
		uint32_t taken = 0;
		for (uint32_t i : pending[a]) {
			if (rx[a].feed_packet({ i }) == 0)
				again.push_back(i);
			else
				taken++;
		}
		pending[a] = again;
		return taken;
	};
	while (pos[0] < order[0].size() || pos[1] < order[1].size()) {
		int a = (pos[0] < order[0].size() && (pos[1] >= order[1].size() || rng() % 2)) ? 0
											       : 1;
		std::vector<uint32_t> pkt;
		uint32_t n = std::uniform_int_distribution<uint32_t>(1, 4)(rng);
		while (n-- > 0 && pos[a] < order[a].size())
			pkt.push_back(order[a][pos[a]++]);
		rx[a].feed_packet(pkt);
		for (uint32_t i : pkt)
			if (!rx[a].accepted[i])
				pending[a].push_back(i);
		if (rng() % 8 == 0)
			retransmit(a);
	}
	for (int round = 0; !pending[0].empty() || !pending[1].empty(); round++) {
		uint32_t taken = retransmit(0) + retransmit(1);
		if (taken == 0)
			return describe(seed, p) + ": no progress with chunks pending";
	}
	for (int a = 0; a < 2; a++) {
		if (!rx[a].failure.empty())
			return describe(seed, p) + ": " + rx[a].failure;
		for (size_t m = 0; m < t[a].msgs.size(); m++)
			if (rx[a].delivered[m] != 1)
				return describe(seed, p) + ": message not delivered";
		if (sctp_reasm_queued_chunks(&rx[a].r) != 0 ||
		    sctp_reasm_in_partial_delivery(&rx[a].r))
			return describe(seed, p) + ": queue not empty at the end";
		for (const auto &s : rx[a].streams)
			if (s.held != 0)
				return describe(seed, p) + ": held count not zero";
	}
	if (pool.n_free != pool.n)
		return describe(seed, p) + ": pool nodes lost";
	if (bufs.holds != bufs.releases)
		return describe(seed, p) + ": holds and releases differ";
	for (const Block &b : bufs.blocks)
		if (b.refs != 0)
			return describe(seed, p) + ": buffer still referenced";
	return "";
}

TEST(ReasmModel, ReorderedFragmentedStreams)
{
	for (uint32_t seed = 1; seed <= 400; seed++) {
		std::string f = run_plain_model(seed);
		ASSERT_EQ(f, "") << "replay with run_plain_model(" << seed << ")";
	}
}

// PR-SCTP (RFC 3758): the sender abandons some messages (some of their
// fragments are never sent) and tells the receiver with FORWARD TSNs, as a
// conforming sender would: the new cumulative TSN is the highest TSN below
// which everything was received or abandoned, with the highest abandoned
// SSN of each ordered stream. Every message not abandoned goes up exactly
// once, in SSN order per stream; an abandoned one goes up whole, or not at
// all, or in part followed by ABORTED; nothing leaks.
std::string
run_forward_model(uint32_t seed)
{
	std::mt19937 rng(seed);
	ModelParams p = random_params(rng, true);
	Bufs bufs;
	std::vector<struct sctp_reasm_node> nodes(p.pool_nodes);
	struct sctp_reasm_pool pool;
	sctp_reasm_pool_init(&pool, nodes.data(), p.pool_nodes);
	Traffic t = make_traffic(rng, p.n_streams, p.n_msgs, p.max_len, p.frag, p.p_unordered,
				 p.p_abandon);
	Receiver rx(&t, &bufs, &pool, p.lim);
	const size_t n = t.chunks.size();
	// An abandoned message loses a random non-empty subset of its chunks.
	std::vector<bool> sent(n, true);
	for (const Msg &m : t.msgs) {
		if (!m.abandoned)
			continue;
		uint32_t i0 = m.first_tsn - t.tsn0;
		uint32_t lost = 0;
		for (uint32_t k = 0; k < m.n_frags; k++)
			if (rng() % 2)
				sent[i0 + k] = false, lost++;
		if (lost == 0)
			sent[i0 + rng() % m.n_frags] = false;
	}
	uint32_t &fwd = rx.floor_idx; // chunks below it are covered by a FORWARD TSN
	auto forward = [&]() {
		uint32_t adv = fwd;
		while (adv < n && (rx.accepted[adv] || t.msgs[t.chunks[adv].msg].abandoned))
			adv++;
		bool any = false;
		for (uint32_t i = fwd; i < adv; i++)
			any |= !rx.accepted[i];
		if (adv == fwd || !any)
			return false;
		fwd = adv;
		rx.advance(); // RFC 3758 §3.6: then further over what was received
		sctp_reasm_forward_tsn(&rx.r, &rx.env, rx.cum_tsn());
		std::map<uint16_t, uint16_t> top; // highest abandoned SSN per stream, in order
		for (uint32_t i = 0; i < adv; i++) {
			const Msg &m = t.msgs[t.chunks[i].msg];
			if (m.abandoned && !m.unordered)
				top[m.sid] = m.ssn;
		}
		for (auto &kv : top)
			sctp_reasm_forward_ssn(&rx.r, &rx.env, kv.first, kv.second, rx.cum_tsn());
		return true;
	};
	std::vector<uint32_t> order = shuffled(rng, n, p.window);
	std::vector<uint32_t> pending;
	auto live = [&](uint32_t i) { return sent[i] && !rx.accepted[i] && i >= fwd; };
	auto retransmit = [&]() {
		std::sort(pending.begin(), pending.end());
		std::vector<uint32_t> again;
		uint32_t taken = 0;
		for (uint32_t i : pending) {
			if (!live(i))
				continue; // covered by a FORWARD TSN: a duplicate now
			if (rx.feed_packet({ i }) == 0)
				again.push_back(i);
			else
				taken++;
		}
		pending = again;
		return taken;
	};
	for (size_t k = 0; k < order.size();) {
		std::vector<uint32_t> pkt;
		uint32_t m = std::uniform_int_distribution<uint32_t>(1, 4)(rng);
		for (; m > 0 && k < order.size(); k++)
			if (live(order[k]))
				pkt.push_back(order[k]), m--;
		if (pkt.empty())
			continue;
		rx.feed_packet(pkt);
		for (uint32_t i : pkt)
			if (!rx.accepted[i])
				pending.push_back(i);
		if (rng() % 8 == 0)
			retransmit();
		if (rng() % 16 == 0)
			forward();
	}
	for (;;) {
		uint32_t taken = retransmit();
		bool moved = forward();
		if (pending.empty() && !moved)
			break;
		if (taken == 0 && !moved)
			return describe(seed, p) + ": no progress";
	}
	if (!rx.failure.empty())
		return describe(seed, p) + ": " + rx.failure;
	for (size_t m = 0; m < t.msgs.size(); m++)
		if (!t.msgs[m].abandoned && rx.delivered[m] != 1)
			return describe(seed, p) + ": message not delivered";
	if (rx.pd_open)
		return describe(seed, p) + ": partial delivery left open";
	if (sctp_reasm_queued_chunks(&rx.r) != 0)
		return describe(seed, p) + ": fragments left after the last FORWARD TSN";
	for (const auto &s : rx.streams)
		if (s.held != 0)
			return describe(seed, p) + ": held count not zero";
	if (pool.n_free != pool.n)
		return describe(seed, p) + ": pool nodes lost";
	if (bufs.holds != bufs.releases)
		return describe(seed, p) + ": holds and releases differ";
	for (const Block &b : bufs.blocks)
		if (b.refs != 0)
			return describe(seed, p) + ": buffer still referenced";
	return "";
}

TEST(ReasmModel, AbandonedMessagesAndForwardTsn)
{
	for (uint32_t seed = 1; seed <= 400; seed++) {
		std::string f = run_forward_model(seed);
		ASSERT_EQ(f, "") << "replay with run_forward_model(" << seed << ")";
	}
}

} // namespace
