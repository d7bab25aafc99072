// SPDX-License-Identifier: BSD-3-Clause
// The sender's retransmission queue and SACK processing (sctp/rtxq.c),
// RFC 9260 §6.1 A, §6.2.1, §6.3.1 C5, §6.3.2, §6.3.3 E3, §7.2.4, §12.4.
// Hand cases for every rule with byte-exact flight sizes and rwnd: the
// cumulative ack and its releases, gap acks out of flight, old SACKs
// (a_rwnd included), miss indications by the HTNA rule and in Fast Recovery,
// fast retransmit on exactly the third and at most once, reneging, T3-rtx
// marking, retransmission budget, Karn's rule, the T3 timer masks, every
// refused SACK, the 2^32 wrap, abandon, the shared pool. Then a randomized
// model: a sender and a receiver over a lossy, reordering network, checked
// after every step against a reference written from the RFC sentences with
// std::map; a failure prints the seed and step.
//
// Buffers are refcounted fakes: the caller's reference passes to the queue;
// a release is checked against the cumulative TSN of the SACK being
// processed (nothing may be released before it is acked), and at the end of
// every test every buffer has been released exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "sctp/cc.h"
#include "sctp/rtxq.h"
}

namespace {

using Gaps = std::vector<std::pair<uint16_t, uint16_t>>;

constexpr uint8_t BE = SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E;

struct Block {
	uint32_t tsn = 0;
	long refs = 0;
	long released = 0;
	uint8_t bytes[8] = { 0 };
};

// Refcounted fake buffers. While a SACK is processed, a release is allowed
// only for a TSN at or below its cumulative TSN (limit); elsewhere (abandon)
// releases are allowed when `any` is set; otherwise a release is an error.
struct Bufs {
	std::deque<Block> blocks;
	struct sctp_buf_ops ops;
	bool limit_on = false;
	bool any = false;
	uint32_t limit = 0;
	long holds = 0;
	long releases = 0;
	std::string error;

	Bufs()
	{
		ops.hold = &Bufs::hold;
		ops.release = &Bufs::release;
		ops.ctx = this;
	}
	Bufs(const Bufs &) = delete;
	static void hold(void *ctx, void *h)
	{
		Bufs *self = static_cast<Bufs *>(ctx);
		Block *b = static_cast<Block *>(h);
		if (b->refs <= 0)
			self->fail("hold on a buffer nobody holds", b);
		b->refs++;
		self->holds++;
	}
	static void release(void *ctx, void *h)
	{
		Bufs *self = static_cast<Bufs *>(ctx);
		Block *b = static_cast<Block *>(h);
		if (b->refs <= 0)
			self->fail("release without a reference", b);
		if (!self->any && !(self->limit_on && sctp_tsn_le(b->tsn, self->limit)))
			self->fail("released before it was cumulatively acked", b);
		b->refs--;
		b->released++;
		self->releases++;
	}
	void fail(const char *what, const Block *b)
	{
		if (error.empty()) {
			std::ostringstream os;
			os << what << " (TSN " << b->tsn << ")";
			error = os.str();
		}
	}
	Block *make(uint32_t tsn)
	{
		blocks.emplace_back();
		Block *b = &blocks.back();
		b->tsn = tsn;
		b->refs = 1;
		return b;
	}
	// Every reference the queue got was released, exactly once.
	std::string clean() const
	{
		if (!error.empty())
			return error;
		for (const Block &b : blocks) {
			if (b.refs != 0 || b.released != 1) {
				std::ostringstream os;
				os << "buffer of TSN " << b.tsn << ": refs " << b.refs
				   << ", released " << b.released << " times";
				return os.str();
			}
		}
		return "";
	}
};

// A SACK in wire form for sctp_rtxq_on_sack(): gap blocks big-endian.
struct WireSack {
	std::vector<uint8_t> gap_bytes;
	struct sctp_sack s;

	WireSack(uint32_t cum, uint32_t a_rwnd, const Gaps &gaps)
	{
		for (auto &g : gaps) {
			gap_bytes.push_back((uint8_t)(g.first >> 8));
			gap_bytes.push_back((uint8_t)g.first);
			gap_bytes.push_back((uint8_t)(g.second >> 8));
			gap_bytes.push_back((uint8_t)g.second);
		}
		memset(&s, 0, sizeof(s));
		s.type = SCTP_CHUNK_SACK;
		s.cum_tsn = cum;
		s.a_rwnd = a_rwnd;
		s.n_gaps = (uint16_t)gaps.size();
		s.gaps = gap_bytes.empty() ? nullptr : gap_bytes.data();
	}
};

// One association's queue with its own pool.
struct Harness {
	Bufs bufs;
	std::vector<struct sctp_rtxq_node> nodes;
	struct sctp_rtxq_pool pool;
	struct sctp_rtxq_env env = {};
	struct sctp_rtxq q;
	struct sctp_rtxq_sack_result res;
	uint32_t next_tsn;
	uint32_t context = 0; // the next chunks' message context

	explicit Harness(uint32_t initial_tsn = 1, uint32_t a_rwnd = 100000,
			 uint32_t n_nodes = 4096, uint32_t max_chunks = 0)
	    : nodes(n_nodes), next_tsn(initial_tsn)
	{
		EXPECT_EQ(0, sctp_rtxq_pool_init(&pool, nodes.data(), n_nodes));
		env.pool = &pool;
		env.buf = &bufs.ops;
		env.max_chunks = max_chunks;
		sctp_rtxq_init(&q, initial_tsn, a_rwnd);
		memset(&res, 0, sizeof(res));
	}

	enum sctp_rtxq_add_verdict try_send(uint16_t len, uint8_t path, uint64_t now = 0,
					    uint8_t flags = BE, uint16_t sid = 0, uint32_t ppid = 0,
					    uint16_t ssn = 0)
	{
		Block *b = bufs.make(next_tsn);
		struct sctp_rtxq_chunk c = {};
		c.tsn = next_tsn;
		c.ppid = ppid;
		c.sid = sid;
		c.ssn = ssn;
		c.flags = flags;
		c.path = path;
		c.payload.handle = b;
		c.payload.data = b->bytes;
		c.payload.len = len;
		c.context = context;
		enum sctp_rtxq_add_verdict v = sctp_rtxq_add(&q, &env, &c, now);
		if (v == SCTP_RTXQ_ADD_OK) {
			next_tsn++;
		} else {
			// Refused: the reference is still ours; drop it as a caller would.
			bufs.blocks.pop_back();
		}
		return v;
	}
	void send(uint16_t len, uint8_t path, uint64_t now = 0, uint8_t flags = BE,
		  uint16_t sid = 0, uint32_t ppid = 0)
	{
		ASSERT_EQ(SCTP_RTXQ_ADD_OK, try_send(len, path, now, flags, sid, ppid));
	}

	enum sctp_rtxq_sack_verdict sack(uint32_t cum, uint32_t a_rwnd, const Gaps &gaps = {},
					 bool fr = false, uint64_t now = 0)
	{
		WireSack w(cum, a_rwnd, gaps);
		bufs.limit_on = true;
		bufs.limit = cum;
		enum sctp_rtxq_sack_verdict v = sctp_rtxq_on_sack(&q, &env, &w.s, fr, now, &res);
		bufs.limit_on = false;
		const char *bad = sctp_rtxq_check(&q, &pool);
		EXPECT_EQ(nullptr, bad) << bad;
		return v;
	}

	const struct sctp_rtxq_node *node(uint32_t tsn) const
	{
		for (uint32_t x = q.head; x != SCTP_RTXQ_NIL; x = nodes[x].next)
			if (nodes[x].tsn == tsn)
				return &nodes[x];
		return nullptr;
	}
	uint8_t phase(uint32_t tsn) const
	{
		const struct sctp_rtxq_node *n = node(tsn);
		return n ? (uint8_t)(n->state & SCTP_RTXQ_S_PHASE) : 0;
	}
	unsigned misses(uint32_t tsn) const
	{
		const struct sctp_rtxq_node *n = node(tsn);
		return n ? n->misses : 99;
	}
	long refs(uint32_t tsn) const
	{
		for (const Block &b : bufs.blocks)
			if (b.tsn == tsn)
				return b.refs;
		return -1;
	}

	// End of every test: invariants, then abandon, then no leak.
	void finish()
	{
		const char *bad = sctp_rtxq_check(&q, &pool);
		EXPECT_EQ(nullptr, bad) << bad;
		bufs.any = true;
		sctp_rtxq_abandon(&q, &env, nullptr, nullptr);
		bufs.any = false;
		EXPECT_EQ("", bufs.clean());
		EXPECT_EQ(pool.n_free, pool.n);
		EXPECT_TRUE(sctp_rtxq_empty(&q));
		EXPECT_EQ(0u, sctp_rtxq_flight(&q));
	}
};

constexpr uint8_t F = SCTP_RTXQ_S_IN_FLIGHT;
constexpr uint8_t G = SCTP_RTXQ_S_GAP_ACKED;
constexpr uint8_t MK = SCTP_RTXQ_S_MARKED;

// ---------------------------------------------------------------- sizes

TEST(RtxqSizes, NodeAndHeader)
{
	EXPECT_EQ(48u, sizeof(struct sctp_rtxq_node));
	EXPECT_EQ(64u, sizeof(struct sctp_rtxq));
	EXPECT_EQ(20u, sctp_rtxq_chunk_bytes(1));
	EXPECT_EQ(116u, sctp_rtxq_chunk_bytes(100));
	EXPECT_EQ(120u, sctp_rtxq_chunk_bytes(101));
	EXPECT_EQ(1468u, sctp_rtxq_chunk_bytes(1452));
	EXPECT_EQ(65536u, sctp_rtxq_chunk_bytes(SCTP_RTXQ_MAX_PAYLOAD));
}

TEST(RtxqPool, InitRefusesEmptyAndHuge)
{
	struct sctp_rtxq_pool p;
	struct sctp_rtxq_node n[1];
	EXPECT_EQ(-1, sctp_rtxq_pool_init(&p, n, 0));
	EXPECT_EQ(-1, sctp_rtxq_pool_init(&p, nullptr, 1));
	EXPECT_EQ(-1, sctp_rtxq_pool_init(&p, n, SCTP_RTXQ_NIL));
	EXPECT_EQ(0, sctp_rtxq_pool_init(&p, n, 1));
	EXPECT_EQ(1u, p.n_free);
}

// ---------------------------------------------------------------- add

// §6.2.1 A and B: rwnd starts at the INIT's a_rwnd and shrinks by each
// chunk's payload; flight grows by chunk bytes (header and padding).
TEST(RtxqAdd, FlightAndRwndByteExact)
{
	Harness h(1, 10000);
	EXPECT_EQ(10000u, sctp_rtxq_rwnd(&h.q));
	EXPECT_EQ(0u, sctp_rtxq_highest_sent(&h.q, &h.pool));
	h.send(100, 0);
	EXPECT_EQ(116u, sctp_rtxq_path_flight(&h.q, 0));
	EXPECT_EQ(9900u, sctp_rtxq_rwnd(&h.q));
	h.send(101, 1);
	EXPECT_EQ(120u, sctp_rtxq_path_flight(&h.q, 1));
	EXPECT_EQ(236u, sctp_rtxq_flight(&h.q));
	EXPECT_EQ(9799u, sctp_rtxq_rwnd(&h.q));
	h.send(1, 0);
	EXPECT_EQ(136u, sctp_rtxq_path_flight(&h.q, 0));
	EXPECT_EQ(256u, sctp_rtxq_flight(&h.q));
	EXPECT_EQ(9798u, sctp_rtxq_rwnd(&h.q));
	EXPECT_EQ(3u, sctp_rtxq_highest_sent(&h.q, &h.pool));
	EXPECT_EQ(3u, sctp_rtxq_count(&h.q, &h.pool));
	EXPECT_EQ(0u, sctp_rtxq_path_flight(&h.q, 2));
	EXPECT_EQ(0u, sctp_rtxq_path_flight(&h.q, SCTP_MAX_PATHS));
	EXPECT_EQ(F, h.phase(2));
	EXPECT_EQ(1, h.refs(1)); // the queue holds the caller's reference, no hold of its own
	EXPECT_EQ(0, h.bufs.holds);
	h.finish();
}

TEST(RtxqAdd, RefusalsTakeNothing)
{
	Harness h(1, 10000, 2);
	EXPECT_EQ(SCTP_RTXQ_ADD_BAD_PATH, h.try_send(10, SCTP_MAX_PATHS));
	EXPECT_EQ(SCTP_RTXQ_ADD_OK, h.try_send(10, 0));
	// Not the next TSN.
	Block *b = h.bufs.make(7);
	struct sctp_rtxq_chunk c = {};
	c.tsn = 7;
	c.path = 0;
	c.payload.handle = b;
	c.payload.data = b->bytes;
	c.payload.len = 10;
	EXPECT_EQ(SCTP_RTXQ_ADD_BAD_TSN, sctp_rtxq_add(&h.q, &h.env, &c, 0));
	c.tsn = 1; // already queued
	EXPECT_EQ(SCTP_RTXQ_ADD_BAD_TSN, sctp_rtxq_add(&h.q, &h.env, &c, 0));
	c.tsn = 2;
	c.payload.len = SCTP_RTXQ_MAX_PAYLOAD + 1;
	EXPECT_EQ(SCTP_RTXQ_ADD_BAD_LEN, sctp_rtxq_add(&h.q, &h.env, &c, 0));
	EXPECT_EQ(1, b->refs); // still ours
	b->refs = 0;
	b->released = 1; // dropped by its owner
	EXPECT_EQ(SCTP_RTXQ_ADD_OK, h.try_send(SCTP_RTXQ_MAX_PAYLOAD, 1));
	EXPECT_EQ(65536u, sctp_rtxq_path_flight(&h.q, 1));
	// Pool of two: empty now.
	EXPECT_EQ(SCTP_RTXQ_ADD_NO_ROOM, h.try_send(10, 0));
	EXPECT_EQ(2u, sctp_rtxq_count(&h.q, &h.pool));
	EXPECT_EQ(nullptr, sctp_rtxq_check(&h.q, &h.pool));
	h.finish();
}

TEST(RtxqAdd, MaxChunksCapsOneAssociation)
{
	Harness h(1, 100000, 64, 3);
	h.send(10, 0);
	h.send(10, 0);
	h.send(10, 0);
	EXPECT_EQ(SCTP_RTXQ_ADD_NO_ROOM, h.try_send(10, 0));
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000));
	EXPECT_EQ(SCTP_RTXQ_ADD_OK, h.try_send(10, 0));
	h.finish();
}

// Two associations share one lcore's pool.
TEST(RtxqPool, SharedByTwoQueues)
{
	Harness h(1, 100000, 4);
	struct sctp_rtxq q2;
	sctp_rtxq_init(&q2, 500, 100000);
	h.send(10, 0);
	h.send(10, 0);
	h.send(10, 0);
	Block *b = h.bufs.make(500);
	struct sctp_rtxq_chunk c = {};
	c.tsn = 500;
	c.payload.handle = b;
	c.payload.data = b->bytes;
	c.payload.len = 10;
	EXPECT_EQ(SCTP_RTXQ_ADD_OK, sctp_rtxq_add(&q2, &h.env, &c, 0));
	Block *b2 = h.bufs.make(501);
	c.tsn = 501;
	c.payload.handle = b2;
	EXPECT_EQ(SCTP_RTXQ_ADD_NO_ROOM, sctp_rtxq_add(&q2, &h.env, &c, 0));
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(2, 100000)); // frees two nodes
	EXPECT_EQ(SCTP_RTXQ_ADD_OK, sctp_rtxq_add(&q2, &h.env, &c, 0));
	EXPECT_EQ(nullptr, sctp_rtxq_check(&q2, &h.pool));
	h.bufs.any = true;
	sctp_rtxq_abandon(&q2, &h.env, nullptr, nullptr);
	h.bufs.any = false;
	h.finish();
}

// ---------------------------------------------------------------- SACK

// §6.2.1 D ii, §6.3.2 R3: the cumulative ack releases each reference once,
// credits its path, restarts T3 when the path's earliest chunk was acked
// and data remains; R2 stops it when nothing remains.
TEST(RtxqSack, CumAckReleasesOnceAndDrivesT3)
{
	Harness h(1, 10000);
	for (int i = 0; i < 4; i++)
		h.send(100, 0, 1000 + i);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(2, 5000, {}, false, 5000));
	EXPECT_EQ(0, h.refs(1));
	EXPECT_EQ(0, h.refs(2));
	EXPECT_EQ(1, h.refs(3));
	EXPECT_EQ(232u, h.res.path[0].bytes_acked);
	EXPECT_EQ(232u, h.res.bytes_acked);
	EXPECT_EQ(464u, h.res.path[0].flight_before);
	EXPECT_EQ(232u, h.res.path[0].flight_after);
	EXPECT_EQ(464u, h.res.flight_before);
	EXPECT_EQ(232u, h.res.flight_after);
	EXPECT_TRUE(h.res.cum_advanced);
	EXPECT_EQ(2u, h.res.chunks_released);
	EXPECT_EQ(2u, h.res.cum_tsn);
	EXPECT_EQ(4u, h.res.highest_sent);
	EXPECT_EQ(0x01u, h.res.acked_mask);
	EXPECT_EQ(0x01u, h.res.t3_restart_mask);
	EXPECT_EQ(0xfeu, h.res.t3_stop_mask);
	EXPECT_EQ(0u, h.res.t3_start_mask);
	EXPECT_EQ(0x01u, h.res.rtt_mask);
	EXPECT_EQ(3999u, h.res.path[0].rtt_ns); // TSN 2, the newest acked, sent at 1001
	EXPECT_FALSE(h.res.all_acked);
	EXPECT_EQ(4800u, sctp_rtxq_rwnd(&h.q)); // 5000 - two 100-byte payloads
	EXPECT_EQ(2u, sctp_rtxq_cum_point(&h.q));

	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(4, 5000, {}, false, 6000));
	EXPECT_TRUE(h.res.all_acked);
	EXPECT_EQ(0xffu, h.res.t3_stop_mask);
	EXPECT_EQ(0u, h.res.t3_restart_mask);
	EXPECT_TRUE(sctp_rtxq_empty(&h.q));
	EXPECT_EQ(5000u, sctp_rtxq_rwnd(&h.q));
	EXPECT_EQ(4u, sctp_rtxq_highest_sent(&h.q, &h.pool));
	// A SACK that acknowledges nothing new: accepted, nothing moves.
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(4, 7000));
	EXPECT_FALSE(h.res.cum_advanced);
	EXPECT_EQ(0u, h.res.acked_mask);
	EXPECT_EQ(7000u, sctp_rtxq_rwnd(&h.q));
	h.send(100, 0);
	EXPECT_EQ(5u, sctp_rtxq_highest_sent(&h.q, &h.pool));
	h.finish();
}

// §6.2.1: rwnd = a_rwnd - bytes outstanding, never below zero; marking for
// retransmission gives the bytes back (C).
TEST(RtxqSack, RwndFormula)
{
	Harness h(1, 1000);
	h.send(400, 0);
	h.send(400, 0);
	h.send(400, 1);
	EXPECT_EQ(0u, sctp_rtxq_rwnd(&h.q)); // 1000 - 1200, floored
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 500));
	EXPECT_EQ(0u, sctp_rtxq_rwnd(&h.q)); // 500 - 800
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 2000));
	EXPECT_EQ(1200u, sctp_rtxq_rwnd(&h.q)); // 2000 - 800
	uint32_t bytes = 0;
	EXPECT_EQ(1u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, &bytes));
	EXPECT_EQ(416u, bytes);
	EXPECT_EQ(1600u, sctp_rtxq_rwnd(&h.q));			     // 2000 - 400 (path 1's chunk)
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 2000, { { 2, 2 } })); // TSN 3 gap-acked
	EXPECT_EQ(2000u, sctp_rtxq_rwnd(&h.q));
	EXPECT_EQ(0u, sctp_rtxq_flight(&h.q));
	EXPECT_TRUE(h.res.all_acked == false); // TSN 2 is marked, not acked
	h.finish();
}

// §6.2.1 D i: a SACK whose cum TSN is behind the point is dropped whole,
// its a_rwnd with it; one with the same cum TSN is a window update.
TEST(RtxqSack, OldSackDroppedWithItsArwnd)
{
	Harness h(1, 10000);
	for (int i = 0; i < 5; i++)
		h.send(100, 0);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(3, 1000));
	EXPECT_EQ(800u, sctp_rtxq_rwnd(&h.q));
	struct sctp_rtxq before = h.q;
	EXPECT_EQ(SCTP_RTXQ_SACK_OLD, h.sack(2, 999999, { { 1, 3 } }));
	EXPECT_EQ(0, memcmp(&before, &h.q, sizeof(before)));
	EXPECT_EQ(800u, sctp_rtxq_rwnd(&h.q));
	EXPECT_EQ(0u, h.res.acked_mask);
	EXPECT_EQ(232u, h.res.flight_before);
	EXPECT_EQ(232u, h.res.flight_after);
	EXPECT_FALSE(sctp_rtxq_sack_verdict_aborts(SCTP_RTXQ_SACK_OLD));
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(3, 50000));
	EXPECT_EQ(49800u, sctp_rtxq_rwnd(&h.q));
	h.finish();
}

// Gap-acked chunks leave the flight (§1.3 outstanding) but stay held: the
// peer may renege; their bytes are credited once, when first acked.
TEST(RtxqSack, GapAckedLeaveFlightButStayHeld)
{
	Harness h(1, 10000);
	for (int i = 0; i < 6; i++)
		h.send(100, 0);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 10000, { { 2, 3 } }));
	EXPECT_EQ(0, h.refs(1));
	EXPECT_EQ(1, h.refs(3));
	EXPECT_EQ(1, h.refs(4));
	EXPECT_EQ(G, h.phase(3));
	EXPECT_EQ(G, h.phase(4));
	EXPECT_EQ(F, h.phase(2));
	EXPECT_EQ(348u, h.res.path[0].bytes_acked); // TSNs 1, 3, 4
	EXPECT_EQ(696u, h.res.flight_before);
	EXPECT_EQ(348u, h.res.flight_after); // TSNs 2, 5, 6
	EXPECT_EQ(9700u, sctp_rtxq_rwnd(&h.q));
	EXPECT_EQ(1u, h.misses(2)); // below the HTNA (4)
	EXPECT_EQ(0u, h.misses(5));
	EXPECT_FALSE(h.res.all_acked);
	// The cum ack now covers the gap-acked chunks: only TSN 2 is new.
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(4, 10000));
	EXPECT_EQ(116u, h.res.path[0].bytes_acked);
	EXPECT_EQ(3u, h.res.chunks_released);
	EXPECT_EQ(0, h.refs(3));
	EXPECT_EQ(232u, h.res.flight_after);
	EXPECT_EQ(0u, h.q.n_gap_acked);
	h.finish();
}

// Adjacent blocks (not isolated, §3.3.4 only says SHOULD) are accepted.
TEST(RtxqSack, AdjacentBlocksAccepted)
{
	Harness h(1, 10000);
	for (int i = 0; i < 6; i++)
		h.send(100, 0);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 10000, { { 2, 2 }, { 3, 4 } }));
	EXPECT_EQ(G, h.phase(3));
	EXPECT_EQ(G, h.phase(5));
	EXPECT_EQ(F, h.phase(6));
	h.finish();
}

// §3.3.8, §9.2: a SHUTDOWN's cum TSN acknowledges cumulatively, and its
// lack of gap blocks is not a renege; no a_rwnd, no miss indication.
TEST(RtxqShutdown, CumAckWithoutRenege)
{
	Harness h(1, 10000);
	for (int i = 0; i < 6; i++)
		h.send(100, 0, 0);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 8000, { { 2, 3 } })); // TSNs 3, 4 gap-acked
	EXPECT_EQ(1u, h.misses(2));
	h.bufs.limit_on = true;
	h.bufs.limit = 2;
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, sctp_rtxq_on_shutdown_cum(&h.q, &h.env, 2, 50, &h.res));
	h.bufs.limit_on = false;
	EXPECT_EQ(nullptr, sctp_rtxq_check(&h.q, &h.pool));
	EXPECT_EQ(0, h.refs(2));
	EXPECT_EQ(G, h.phase(3));
	EXPECT_EQ(G, h.phase(4));
	EXPECT_EQ(0u, h.res.reneged);
	EXPECT_EQ(0u, h.res.t3_start_mask);
	EXPECT_EQ(116u, h.res.path[0].bytes_acked);
	EXPECT_TRUE(h.res.cum_advanced);
	EXPECT_EQ(0x01u, h.res.rtt_mask);
	EXPECT_EQ(50u, h.res.path[0].rtt_ns);
	EXPECT_EQ(232u, h.res.flight_after);
	EXPECT_EQ(0x01u, h.res.t3_restart_mask); // TSN 2 was path 0's earliest; 5, 6 remain
	EXPECT_EQ(0u, h.misses(5));
	EXPECT_EQ(8000u - 200u, sctp_rtxq_rwnd(&h.q)); // a_rwnd of the last SACK kept
	EXPECT_EQ(SCTP_RTXQ_SACK_OLD, sctp_rtxq_on_shutdown_cum(&h.q, &h.env, 1, 60, &h.res));
	EXPECT_EQ(SCTP_RTXQ_SACK_CUM_NOT_SENT,
		  sctp_rtxq_on_shutdown_cum(&h.q, &h.env, 7, 60, &h.res));
	h.bufs.limit_on = true;
	h.bufs.limit = 6;
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, sctp_rtxq_on_shutdown_cum(&h.q, &h.env, 6, 70, &h.res));
	h.bufs.limit_on = false;
	EXPECT_EQ(232u, h.res.bytes_acked); // 5 and 6; 3 and 4 were acked before
	EXPECT_TRUE(h.res.all_acked);
	EXPECT_TRUE(sctp_rtxq_empty(&h.q));
	h.finish();
}

// ---------------------------------------------------------------- §7.2.4

// Fast retransmit on exactly the third miss indication; a SACK that newly
// acknowledges nothing (no HTNA) counts no miss.
TEST(RtxqFastRtx, ThirdMissIndicationAndNotBefore)
{
	Harness h(1, 100000);
	for (int i = 0; i < 10; i++)
		h.send(100, 0);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000, { { 2, 2 } })); // TSN 3
	EXPECT_EQ(1u, h.misses(2));
	EXPECT_EQ(0u, h.res.fast_rtx_mask);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000, { { 2, 3 } })); // TSN 4 new
	EXPECT_EQ(2u, h.misses(2));
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000, { { 2, 3 } })); // nothing new
	EXPECT_EQ(2u, h.misses(2));
	EXPECT_EQ(0u, h.res.fast_rtx_mask);
	EXPECT_EQ(F, h.phase(2));
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000, { { 2, 4 } })); // TSN 5 new
	EXPECT_EQ(MK, h.phase(2));
	EXPECT_TRUE(h.node(2)->state & SCTP_RTXQ_S_FAST_RTX);
	EXPECT_EQ(0x01u, h.res.fast_rtx_mask);
	EXPECT_EQ(1u, h.res.fast_rtx_chunks);
	EXPECT_EQ(116u, h.res.fast_rtx_bytes);
	// Before: TSNs 2, 5..10 in flight (812); after: 6..10 (580).
	EXPECT_EQ(812u, h.res.flight_before);
	EXPECT_EQ(580u, h.res.flight_after);
	EXPECT_EQ(1u, sctp_rtxq_marked(&h.q));
	EXPECT_EQ(10u, h.res.highest_sent); // the Fast Recovery exit point
	h.finish();
}

// HTNA: only TSNs below the highest TSN newly acknowledged count, not those
// between it and the end of the last block.
TEST(RtxqFastRtx, HtnaOnlyBelowHighestNewlyAcked)
{
	Harness h(1, 100000);
	for (int i = 0; i < 10; i++)
		h.send(100, 0);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000, { { 5, 5 } })); // TSN 6, HTNA 6
	for (uint32_t t = 2; t <= 5; t++)
		EXPECT_EQ(1u, h.misses(t)) << t;
	EXPECT_EQ(0u, h.misses(7));
	// TSN 3 newly acked, TSN 6 again: HTNA 3; only TSN 2 counts.
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000, { { 2, 2 }, { 5, 5 } }));
	EXPECT_EQ(2u, h.misses(2));
	EXPECT_EQ(1u, h.misses(4));
	EXPECT_EQ(1u, h.misses(5));
	EXPECT_EQ(0u, h.misses(7));
	h.finish();
}

// In Fast Recovery, a SACK that advances the cum TSN counts a miss for
// every TSN it reports missing; without the advance, HTNA applies.
TEST(RtxqFastRtx, FastRecoveryCumAdvanceCountsAllReported)
{
	for (int fr = 0; fr < 2; fr++) {
		Harness h(1, 100000);
		for (int i = 0; i < 10; i++)
			h.send(100, 0);
		EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000, { { 7, 7 } })); // TSN 8
		for (uint32_t t = 2; t <= 7; t++)
			EXPECT_EQ(1u, h.misses(t)) << t;
		// cum 2, TSN 4 newly acked (HTNA 4), TSN 8 again; 3, 5, 6, 7 missing.
		EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(2, 100000, { { 2, 2 }, { 6, 6 } }, fr != 0));
		EXPECT_EQ(2u, h.misses(3));
		for (uint32_t t = 5; t <= 7; t++)
			EXPECT_EQ(fr ? 2u : 1u, h.misses(t)) << "fr " << fr << " TSN " << t;
		EXPECT_EQ(0u, h.misses(9)); // above the last block: not reported missing
		// In Fast Recovery without a cum advance: HTNA (5) again; 6 and 7
		// lie between the HTNA and the last block and do not count.
		EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(2, 100000, { { 2, 3 }, { 6, 6 } }, true));
		EXPECT_EQ(MK, h.phase(3));
		EXPECT_EQ(0x01u, h.res.fast_rtx_mask);
		EXPECT_EQ(fr ? 2u : 1u, h.misses(6));
		EXPECT_EQ(fr ? 2u : 1u, h.misses(7));
		h.finish();
	}
}

// §7.2.4 rule 5: a chunk is fast-retransmitted once; after its resend it
// counts no more miss indications (T3-rtx may still mark it).
TEST(RtxqFastRtx, AtMostOncePerChunk)
{
	Harness h(1, 100000);
	for (int i = 0; i < 12; i++)
		h.send(100, 0);
	for (uint16_t e = 2; e <= 4; e++)
		EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000, { { 2, e } }));
	EXPECT_EQ(MK, h.phase(2));
	struct sctp_rtxq_rtx out[4];
	uint32_t bytes = 0;
	EXPECT_EQ(1u, sctp_rtxq_take_rtx(&h.q, &h.env, 0, 1468, out, 4, &bytes));
	EXPECT_EQ(2u, out[0].tsn);
	EXPECT_EQ(116u, bytes);
	const struct sctp_rtxq_node *n = h.node(2);
	EXPECT_EQ(F | SCTP_RTXQ_S_FAST_RTX | SCTP_RTXQ_S_RETRANSMITTED, n->state);
	EXPECT_EQ(0u, n->misses);
	for (uint16_t e = 5; e <= 9; e++) {
		EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000, { { 2, e } }));
		EXPECT_EQ(0u, h.res.fast_rtx_mask) << e;
		EXPECT_EQ(F, h.phase(2));
		EXPECT_EQ(0u, h.misses(2));
	}
	EXPECT_EQ(3u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, nullptr)); // TSNs 2, 11, 12
	EXPECT_EQ(MK, h.phase(2));
	EXPECT_TRUE(h.node(2)->state & SCTP_RTXQ_S_FAST_RTX);
	h.finish();
}

// Marked chunks (waiting for their resend) count no miss indications.
TEST(RtxqFastRtx, MarkedChunksCountNoMisses)
{
	Harness h(1, 100000);
	for (int i = 0; i < 8; i++)
		h.send(100, 0);
	EXPECT_EQ(8u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, nullptr));
	for (uint16_t e = 2; e <= 6; e++)
		EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(0, 100000, { { 2, e } }));
	EXPECT_EQ(MK, h.phase(1));
	EXPECT_EQ(0u, h.misses(1));
	EXPECT_EQ(0u, h.res.fast_rtx_mask);
	// A marked chunk acked by a gap block: newly acked, no longer marked.
	EXPECT_EQ(G, h.phase(2));
	EXPECT_EQ(3u, sctp_rtxq_marked(&h.q)); // 1, 7, 8
	h.finish();
}

// ---------------------------------------------------------------- reneging

// §6.2.1 D iii: a gap-acked TSN missing from a later SACK is outstanding
// again, counts one miss indication, and T3-rtx starts on its path.
TEST(RtxqRenege, GapAckedThenMissingReturnsToFlight)
{
	Harness h(1, 10000);
	for (int i = 0; i < 6; i++)
		h.send(100, i == 3 ? 1 : 0);			      // TSN 4 on path 1
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 10000, { { 2, 3 } })); // TSNs 3, 4
	EXPECT_EQ(348u, h.res.flight_after);			      // TSNs 2, 5, 6 on path 0
	EXPECT_EQ(0u, sctp_rtxq_path_flight(&h.q, 1));
	EXPECT_EQ(1u, h.misses(2));
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 9000));
	EXPECT_EQ(2u, h.res.reneged);
	EXPECT_EQ(F, h.phase(3));
	EXPECT_EQ(F, h.phase(4));
	EXPECT_EQ(464u, sctp_rtxq_path_flight(&h.q, 0)); // 2, 3, 5, 6
	EXPECT_EQ(116u, sctp_rtxq_path_flight(&h.q, 1)); // 4
	EXPECT_EQ(348u, h.res.path[0].flight_before);
	EXPECT_EQ(464u, h.res.path[0].flight_after);
	EXPECT_EQ(0x03u, h.res.t3_start_mask);
	EXPECT_EQ(0u, h.res.acked_mask);
	EXPECT_EQ(1u, h.misses(3));
	EXPECT_EQ(1u, h.misses(4));
	EXPECT_EQ(1u, h.misses(2)); // no HTNA: not reneged, no count
	EXPECT_EQ(9000u - 500u, sctp_rtxq_rwnd(&h.q));
	EXPECT_EQ(1, h.refs(3)); // never released by a renege
	// Acked again later: newly acked again (back in flight, now out again).
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 9000, { { 2, 2 } }));
	EXPECT_EQ(116u, h.res.path[0].bytes_acked);
	EXPECT_EQ(G, h.phase(3));
	h.finish();
}

// A renege that brings a chunk to its third miss marks it at once.
TEST(RtxqRenege, RenegedChunkCanReachFastRetransmit)
{
	Harness h(1, 10000);
	for (int i = 0; i < 8; i++)
		h.send(100, 0);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 10000, { { 3, 3 } })); // TSN 4; 2, 3 miss 1
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 10000, { { 3, 4 } })); // TSN 5; 2, 3 miss 2
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 10000, { { 2, 2 } })); // TSN 3 new; 4, 5 reneged
	EXPECT_EQ(3u, h.misses(2));
	EXPECT_EQ(MK, h.phase(2));
	EXPECT_EQ(1u, h.misses(4));
	EXPECT_EQ(F, h.phase(4));
	EXPECT_EQ(2u, h.res.reneged);
	h.finish();
}

// ---------------------------------------------------------------- T3-rtx

// §6.3.3 E3: only the expired path's outstanding chunks are marked (not
// gap-acked ones, not another path's); they leave the flight and are
// retransmitted from the same buffers, possibly to another path.
TEST(RtxqT3, MarksThatPathsOutstandingOnly)
{
	Harness h(1, 10000);
	h.send(100, 0); // 1
	h.send(100, 1); // 2
	h.send(100, 0); // 3
	h.send(200, 0); // 4
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(0, 10000, { { 3, 3 } }));
	EXPECT_EQ(G, h.phase(3));
	uint32_t bytes = 0;
	EXPECT_EQ(2u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, &bytes));
	EXPECT_EQ(332u, bytes);
	EXPECT_EQ(0u, sctp_rtxq_path_flight(&h.q, 0));
	EXPECT_EQ(116u, sctp_rtxq_path_flight(&h.q, 1));
	EXPECT_EQ(9900u, sctp_rtxq_rwnd(&h.q));
	EXPECT_EQ(MK, h.phase(1));
	EXPECT_EQ(F, h.phase(2));
	EXPECT_EQ(G, h.phase(3));
	EXPECT_EQ(MK, h.phase(4));
	EXPECT_EQ(0u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, &bytes)); // nothing left
	EXPECT_EQ(0u, bytes);
	EXPECT_EQ(0u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, SCTP_MAX_PATHS, &bytes));

	// Budget: one chunk of 116 fits in 200, the next (216) does not.
	struct sctp_rtxq_rtx out[4];
	EXPECT_EQ(1u, sctp_rtxq_take_rtx(&h.q, &h.env, 1, 200, out, 4, &bytes));
	EXPECT_EQ(1u, out[0].tsn);
	EXPECT_EQ(116u, bytes);
	EXPECT_EQ(h.node(1)->handle, out[0].payload.handle); // the same buffer goes out
	EXPECT_EQ(h.node(1)->data, out[0].payload.data);
	EXPECT_EQ(100u, out[0].payload.len);
	EXPECT_EQ(1u, h.node(1)->path);
	EXPECT_EQ(232u, sctp_rtxq_path_flight(&h.q, 1));
	EXPECT_EQ(1, h.refs(1)); // lent, not released, not held
	EXPECT_EQ(1u, sctp_rtxq_marked(&h.q));
	// max_out 0 and a bad path take nothing.
	EXPECT_EQ(0u, sctp_rtxq_take_rtx(&h.q, &h.env, 1, 10000, out, 0, &bytes));
	EXPECT_EQ(0u, sctp_rtxq_take_rtx(&h.q, &h.env, SCTP_MAX_PATHS, 10000, out, 4, &bytes));
	EXPECT_EQ(1u, sctp_rtxq_take_rtx(&h.q, &h.env, 1, 10000, out, 4, &bytes));
	EXPECT_EQ(4u, out[0].tsn);
	EXPECT_EQ(216u, bytes);
	EXPECT_EQ(0u, sctp_rtxq_take_rtx(&h.q, &h.env, 1, 10000, out, 4, &bytes));
	EXPECT_EQ(448u, sctp_rtxq_path_flight(&h.q, 1));
	EXPECT_EQ(9600u, sctp_rtxq_rwnd(&h.q));
	h.finish();
}

// F-RTO's undo of a T3-rtx expiry: the chunks it marked that did not go
// again are in flight on their path as sent; the one retransmitted stays
// retransmitted, a fast retransmit's mark stays, another path is untouched.
TEST(RtxqT3, UnmarkPutsWhatDidNotGoAgainBackInFlight)
{
	Harness h(1, 10000);
	h.send(100, 0); // 1
	h.send(100, 1); // 2
	h.send(100, 0); // 3
	h.send(200, 0); // 4
	h.send(100, 0); // 5
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(0, 10000, { { 3, 3 } }));
	EXPECT_EQ(3u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, nullptr)); // 1, 4, 5
	struct sctp_rtxq_rtx out[4];
	EXPECT_EQ(1u, sctp_rtxq_take_rtx(&h.q, &h.env, 0, 200, out, 4, nullptr));
	EXPECT_EQ(1u, out[0].tsn);
	EXPECT_EQ(116u, sctp_rtxq_path_flight(&h.q, 0));
	EXPECT_EQ(2u, sctp_rtxq_marked(&h.q));
	uint32_t bytes = 0;
	EXPECT_EQ(0u, sctp_rtxq_unmark_t3(&h.q, &h.env, 1, &bytes)); // nothing marked there
	EXPECT_EQ(0u, sctp_rtxq_unmark_t3(&h.q, &h.env, SCTP_MAX_PATHS, &bytes));
	EXPECT_EQ(2u, sctp_rtxq_unmark_t3(&h.q, &h.env, 0, &bytes));
	EXPECT_EQ(216u + 116u, bytes);
	EXPECT_EQ(F, h.phase(4));
	EXPECT_EQ(F, h.phase(5));
	EXPECT_EQ(0u, h.node(4)->state & SCTP_RTXQ_S_RETRANSMITTED);
	EXPECT_NE(0u, h.node(1)->state & SCTP_RTXQ_S_RETRANSMITTED);
	EXPECT_EQ(0u, sctp_rtxq_marked(&h.q));
	EXPECT_EQ(116u + 216u + 116u, sctp_rtxq_path_flight(&h.q, 0));
	EXPECT_EQ(116u, sctp_rtxq_path_flight(&h.q, 1));
	EXPECT_EQ(10000u - 500u, sctp_rtxq_rwnd(&h.q)); // 1, 2, 4, 5 in flight
	// The originals' SACK: all of them acknowledged once.
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(5, 10000, {}));
	EXPECT_EQ(0u, sctp_rtxq_flight(&h.q));
	h.finish();
}

TEST(RtxqT3, TakeRtxInTsnOrderUpToMaxOut)
{
	Harness h(1, 100000);
	for (int i = 0; i < 6; i++)
		h.send(100, 0);
	EXPECT_EQ(6u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, nullptr));
	struct sctp_rtxq_rtx out[8];
	uint32_t bytes;
	EXPECT_EQ(4u, sctp_rtxq_take_rtx(&h.q, &h.env, 0, 1468, out, 4, &bytes));
	for (unsigned i = 0; i < 4; i++)
		EXPECT_EQ(i + 1, out[i].tsn);
	EXPECT_EQ(464u, bytes);
	EXPECT_EQ(2u, sctp_rtxq_take_rtx(&h.q, &h.env, 0, 1468, out, 8, &bytes));
	EXPECT_EQ(5u, out[0].tsn);
	EXPECT_EQ(6u, out[1].tsn);
	h.finish();
}

// §6.3.2 R3 per path: restart only when the path's earliest outstanding
// chunk is acknowledged and data remains; R2 stops it when none remains.
TEST(RtxqT3, RestartOnlyWhenEarliestOfThePathIsAcked)
{
	Harness h(1, 100000);
	h.send(100, 0);						       // 1
	h.send(100, 1);						       // 2
	h.send(100, 0);						       // 3
	h.send(100, 1);						       // 4
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(0, 100000, { { 2, 2 } })); // TSN 2
	EXPECT_EQ(0x02u, h.res.t3_restart_mask);
	EXPECT_EQ(0xfcu, h.res.t3_stop_mask);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(0, 100000, { { 2, 3 } })); // TSN 3: not 0's first
	EXPECT_EQ(0u, h.res.t3_restart_mask);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000, { { 1, 2 } })); // TSN 1, path 0 empties
	EXPECT_EQ(0u, h.res.t3_restart_mask);
	EXPECT_EQ(0xfdu, h.res.t3_stop_mask);
	EXPECT_EQ(116u, sctp_rtxq_path_flight(&h.q, 1));
	h.finish();
}

// ---------------------------------------------------------------- §6.1 A

// The zero window probe: the highest TSN sent, alone in flight, nothing
// marked, more payload than the peer's last a_rwnd. A window that takes it,
// another chunk in flight, a marked or gap-acked tail: no probe.
TEST(RtxqWindowProbe, OnlyTheLoneChunkAboveTheWindow)
{
	Harness h(1, 1000);
	uint32_t tsn = 0;
	EXPECT_EQ(-1, sctp_rtxq_window_probe(&h.q, &h.pool, &tsn)); // empty
	h.send(800, 0);						    // 1: the window takes it
	EXPECT_EQ(-1, sctp_rtxq_window_probe(&h.q, &h.pool, &tsn));
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 0)); // acked, the window closed
	EXPECT_EQ(-1, sctp_rtxq_window_probe(&h.q, &h.pool, &tsn));
	h.send(300, 1); // 2: rule A's one chunk
	EXPECT_EQ(1, sctp_rtxq_window_probe(&h.q, &h.pool, &tsn));
	EXPECT_EQ(2u, tsn);
	EXPECT_EQ(1, sctp_rtxq_window_probe(&h.q, &h.pool, nullptr));
	// Dropped by the receiver, which says so: still the probe.
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 0));
	EXPECT_EQ(1, sctp_rtxq_window_probe(&h.q, &h.pool, &tsn));
	// A window of 300 takes it: no probe (unacknowledged, it is a loss).
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 300));
	EXPECT_EQ(-1, sctp_rtxq_window_probe(&h.q, &h.pool, &tsn));
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 299));
	EXPECT_EQ(1, sctp_rtxq_window_probe(&h.q, &h.pool, &tsn));
	// Marked by T3-rtx: not in flight until it goes again, then on its new path.
	EXPECT_EQ(1u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, 1, nullptr));
	EXPECT_EQ(-1, sctp_rtxq_window_probe(&h.q, &h.pool, &tsn));
	struct sctp_rtxq_rtx out[2];
	EXPECT_EQ(1u, sctp_rtxq_take_rtx(&h.q, &h.env, 0, 1468, out, 2, nullptr));
	EXPECT_EQ(0, sctp_rtxq_window_probe(&h.q, &h.pool, &tsn));
	EXPECT_EQ(2u, tsn);
	// Another chunk in flight behind it: no probe, nor with the tail gap-acked.
	h.send(400, 0); // 3
	EXPECT_EQ(-1, sctp_rtxq_window_probe(&h.q, &h.pool, &tsn));
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 0, { { 2, 2 } }));
	EXPECT_EQ(G, h.phase(3));
	EXPECT_EQ(-1, sctp_rtxq_window_probe(&h.q, &h.pool, &tsn));
	h.finish();

	// Two chunks in flight at a closed window: neither is a probe.
	Harness two(1, 0);
	two.send(100, 0);
	EXPECT_EQ(0, sctp_rtxq_window_probe(&two.q, &two.pool, &tsn));
	two.send(100, 0);
	EXPECT_EQ(-1, sctp_rtxq_window_probe(&two.q, &two.pool, &tsn));
	two.finish();
}

// The window reopened and the probe, still in flight, was not acked: the
// receiver dropped it. It is marked to go again at once (flight and rwnd
// as for T3-rtx); refused, with nothing changed, for another TSN, a window
// still too small, or a probe no longer alone.
TEST(RtxqWindowProbe, ReopenedMarksTheDroppedProbe)
{
	Harness h(1, 0);
	h.send(300, 2); // 1: the probe (a_rwnd 0 since the INIT)
	EXPECT_EQ(2, sctp_rtxq_window_probe(&h.q, &h.pool, nullptr));
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(0, 0)); // dropped
	EXPECT_EQ(-1, sctp_rtxq_window_reopened(&h.q, &h.env, 1)) << "still closed";
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(0, 4000)); // the window update
	EXPECT_EQ(-1, sctp_rtxq_window_probe(&h.q, &h.pool, nullptr));
	EXPECT_EQ(-1, sctp_rtxq_window_reopened(&h.q, &h.env, 2)) << "not that TSN";
	EXPECT_EQ(F, h.phase(1));
	EXPECT_EQ(316u, sctp_rtxq_path_flight(&h.q, 2));
	EXPECT_EQ(2, sctp_rtxq_window_reopened(&h.q, &h.env, 1));
	EXPECT_EQ(MK, h.phase(1));
	EXPECT_EQ(1u, sctp_rtxq_marked(&h.q));
	EXPECT_EQ(0u, sctp_rtxq_flight(&h.q));
	EXPECT_EQ(4000u, sctp_rtxq_rwnd(&h.q));
	EXPECT_EQ(-1, sctp_rtxq_window_reopened(&h.q, &h.env, 1)) << "marked already";
	struct sctp_rtxq_rtx out[2];
	EXPECT_EQ(1u, sctp_rtxq_take_rtx(&h.q, &h.env, 0, 1468, out, 2, nullptr));
	EXPECT_EQ(1u, out[0].tsn);
	h.send(100, 0); // 2
	EXPECT_EQ(-1, sctp_rtxq_window_reopened(&h.q, &h.env, 1)) << "not alone";
	EXPECT_EQ(-1, sctp_rtxq_window_reopened(&h.q, &h.env, 2)) << "not alone";
	const char *bad = sctp_rtxq_check(&h.q, &h.pool);
	EXPECT_EQ(nullptr, bad) << bad;
	h.finish();
}

// ---------------------------------------------------------------- Karn

// §6.3.1 C5: no RTT sample from a retransmitted chunk, nor from one sent
// before the last retransmission; one from a chunk sent after it.
TEST(RtxqKarn, NoSampleFromRetransmittedOrFencedChunks)
{
	Harness h(1, 100000);
	h.send(100, 0, 0);  // 1
	h.send(100, 0, 10); // 2
	EXPECT_EQ(2u, sctp_rtxq_on_t3_expiry(&h.q, &h.env, 0, nullptr));
	struct sctp_rtxq_rtx out[2];
	EXPECT_EQ(1u, sctp_rtxq_take_rtx(&h.q, &h.env, 0, 116, out, 2, nullptr)); // TSN 1
	EXPECT_TRUE(h.node(1)->state & SCTP_RTXQ_S_RETRANSMITTED);
	EXPECT_EQ(2u, h.q.karn_fence);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(2, 100000, {}, false, 500));
	EXPECT_EQ(0u, h.res.rtt_mask); // 1 retransmitted, 2 sent before the retransmission
	EXPECT_EQ(232u, h.res.path[0].bytes_acked);
	h.send(100, 0, 600); // 3
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(3, 100000, {}, false, 700));
	EXPECT_EQ(0x01u, h.res.rtt_mask);
	EXPECT_EQ(100u, h.res.path[0].rtt_ns);
	h.finish();
}

TEST(RtxqKarn, OneSamplePerPathFromItsNewestChunk)
{
	Harness h(1, 100000);
	h.send(100, 0, 0);  // 1
	h.send(100, 1, 5);  // 2
	h.send(100, 0, 10); // 3
	h.send(100, 2, 20); // 4, stays outstanding
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000, { { 1, 2 } }, false, 50));
	EXPECT_EQ(0x03u, h.res.rtt_mask);
	EXPECT_EQ(40u, h.res.path[0].rtt_ns);
	EXPECT_EQ(45u, h.res.path[1].rtt_ns);
	EXPECT_EQ(0x03u, h.res.acked_mask);
	// Gap-acked chunks acked again by the cum TSN: not new, no sample.
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(3, 100000, {}, false, 60));
	EXPECT_EQ(0u, h.res.rtt_mask);
	EXPECT_EQ(0u, h.res.acked_mask);
	EXPECT_TRUE(h.res.cum_advanced);
	EXPECT_EQ(0u, h.res.t3_restart_mask); // path 2's chunk was not acked
	h.finish();
}

// ---------------------------------------------------------------- refusals

// §12.4 and the malformed blocks: verdicts, never a crash, and nothing
// changes (queue, a_rwnd, references).
TEST(RtxqViolations, RefusedSacksChangeNothing)
{
	struct Case {
		const char *what;
		uint32_t cum; // relative to the cum point (0 here)
		Gaps gaps;
		enum sctp_rtxq_sack_verdict v;
	};
	const Case cases[] = {
		{ "cum above highest sent", 7, {}, SCTP_RTXQ_SACK_CUM_NOT_SENT },
		{ "cum 2^31 away", 0x80000000u, {}, SCTP_RTXQ_SACK_CUM_NOT_SENT },
		{ "cum far ahead", 0x7fffffffu, {}, SCTP_RTXQ_SACK_CUM_NOT_SENT },
		{ "block ends above highest", 1, { { 2, 6 } }, SCTP_RTXQ_SACK_GAP_NOT_SENT },
		{ "second block above highest",
		  1,
		  { { 2, 2 }, { 4, 9 } },
		  SCTP_RTXQ_SACK_GAP_NOT_SENT },
		{ "start > end", 1, { { 3, 2 } }, SCTP_RTXQ_SACK_BAD_GAP },
		{ "start 0", 1, { { 0, 2 } }, SCTP_RTXQ_SACK_BAD_GAP },
		{ "descending", 1, { { 4, 4 }, { 2, 2 } }, SCTP_RTXQ_SACK_GAP_ORDER },
		{ "overlapping", 1, { { 2, 3 }, { 3, 4 } }, SCTP_RTXQ_SACK_GAP_ORDER },
		{ "duplicate", 1, { { 2, 2 }, { 2, 2 } }, SCTP_RTXQ_SACK_GAP_ORDER },
		{ "malformed after good", 0, { { 2, 2 }, { 5, 4 } }, SCTP_RTXQ_SACK_BAD_GAP },
	};
	for (const Case &c : cases) {
		Harness h(1, 10000);
		for (int i = 0; i < 6; i++)
			h.send(100, 0);
		EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(0, 10000, { { 5, 5 } })); // TSN 5 gap-acked
		struct sctp_rtxq before = h.q;
		std::vector<struct sctp_rtxq_node> nodes_before = h.nodes;
		EXPECT_EQ(c.v, h.sack(c.cum, 1, c.gaps)) << c.what;
		EXPECT_EQ(0, memcmp(&before, &h.q, sizeof(before))) << c.what;
		EXPECT_EQ(0, memcmp(nodes_before.data(), h.nodes.data(),
				    nodes_before.size() * sizeof(nodes_before[0])))
			<< c.what;
		EXPECT_EQ(0u, h.res.acked_mask);
		EXPECT_EQ(h.res.flight_before, h.res.flight_after);
		EXPECT_EQ(580u, h.res.flight_after);
		EXPECT_EQ(sctp_rtxq_sack_verdict_aborts(c.v), c.v != SCTP_RTXQ_SACK_GAP_ORDER)
			<< c.what;
		h.finish();
	}
}

TEST(RtxqViolations, EmptyQueue)
{
	Harness h(100, 10000);
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(99, 20000)); // nothing sent, nothing acked
	EXPECT_EQ(20000u, sctp_rtxq_rwnd(&h.q));
	EXPECT_TRUE(h.res.all_acked);
	EXPECT_EQ(SCTP_RTXQ_SACK_CUM_NOT_SENT, h.sack(100, 20000));
	EXPECT_EQ(SCTP_RTXQ_SACK_GAP_NOT_SENT, h.sack(99, 20000, { { 1, 1 } }));
	EXPECT_EQ(SCTP_RTXQ_SACK_OLD, h.sack(98, 20000));
	h.finish();
}

TEST(RtxqVerdict, Names)
{
	EXPECT_STREQ("ok", sctp_rtxq_sack_verdict_name(SCTP_RTXQ_SACK_OK));
	EXPECT_STREQ("old", sctp_rtxq_sack_verdict_name(SCTP_RTXQ_SACK_OLD));
	EXPECT_STREQ("cum_not_sent", sctp_rtxq_sack_verdict_name(SCTP_RTXQ_SACK_CUM_NOT_SENT));
	EXPECT_STREQ("gap_not_sent", sctp_rtxq_sack_verdict_name(SCTP_RTXQ_SACK_GAP_NOT_SENT));
	EXPECT_STREQ("bad_gap", sctp_rtxq_sack_verdict_name(SCTP_RTXQ_SACK_BAD_GAP));
	EXPECT_STREQ("gap_order", sctp_rtxq_sack_verdict_name(SCTP_RTXQ_SACK_GAP_ORDER));
	EXPECT_STREQ("unknown", sctp_rtxq_sack_verdict_name((enum sctp_rtxq_sack_verdict)99));
}

// ---------------------------------------------------------------- wrap

TEST(RtxqWrap, AcrossTheTsnWrap)
{
	Harness h(0xfffffffdu, 100000);
	for (int i = 0; i < 6; i++)
		h.send(100, 0); // 0xfffffffd .. 2
	EXPECT_EQ(2u, sctp_rtxq_highest_sent(&h.q, &h.pool));
	EXPECT_EQ(6u, sctp_rtxq_count(&h.q, &h.pool));
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(0xffffffffu, 100000, { { 2, 3 } })); // TSNs 1, 2
	EXPECT_EQ(G, h.phase(1));
	EXPECT_EQ(G, h.phase(2));
	EXPECT_EQ(F, h.phase(0));
	EXPECT_EQ(1u, h.misses(0));
	EXPECT_EQ(116u, h.res.flight_after);
	EXPECT_EQ(SCTP_RTXQ_SACK_OLD, h.sack(0xfffffffdu, 100000));
	EXPECT_EQ(SCTP_RTXQ_SACK_CUM_NOT_SENT, h.sack(3, 100000));
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(2, 100000));
	EXPECT_TRUE(sctp_rtxq_empty(&h.q));
	h.finish();
}

// ---------------------------------------------------------------- abandon

struct Reported {
	std::vector<struct sctp_rtxq_msg> msgs;
	static void fn(void *arg, const struct sctp_rtxq_msg *m)
	{
		static_cast<Reported *>(arg)->msgs.push_back(*m);
	}
};

TEST(RtxqAbandon, ReportsEachMessageAndReleasesAll)
{
	Harness h(1, 100000);
	h.send(100, 0, 0, SCTP_DATA_FLAG_B, 1, 7);     // 1  message A
	h.send(100, 0, 0, 0, 1, 7);		       // 2
	h.send(50, 0, 0, SCTP_DATA_FLAG_E, 1, 7);      // 3
	h.send(10, 1, 0, BE | SCTP_DATA_FLAG_U, 2, 8); // 4  message B
	h.send(30, 0, 0, SCTP_DATA_FLAG_B, 3, 9);      // 5  message C, rest not sent
	h.send(30, 0, 0, 0, 3, 9);		       // 6
	EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000, { { 3, 3 } })); // 1 acked, 4 gap-acked
	Reported r;
	h.bufs.any = true;
	sctp_rtxq_abandon(&h.q, &h.env, &Reported::fn, &r);
	h.bufs.any = false;
	ASSERT_EQ(3u, r.msgs.size());
	EXPECT_EQ(2u, r.msgs[0].first_tsn);
	EXPECT_EQ(1u, r.msgs[0].sid);
	EXPECT_EQ(7u, r.msgs[0].ppid);
	EXPECT_EQ(150u, r.msgs[0].len);
	EXPECT_EQ(2u, r.msgs[0].chunks);
	EXPECT_FALSE(r.msgs[0].has_first);
	EXPECT_TRUE(r.msgs[0].has_last);
	EXPECT_EQ(4u, r.msgs[1].first_tsn);
	EXPECT_EQ(10u, r.msgs[1].len);
	EXPECT_EQ(10u, r.msgs[1].gap_acked_len);
	EXPECT_TRUE(r.msgs[1].flags & SCTP_DATA_FLAG_U);
	EXPECT_TRUE(r.msgs[1].has_first && r.msgs[1].has_last);
	EXPECT_EQ(3u, r.msgs[2].sid);
	EXPECT_EQ(60u, r.msgs[2].len);
	EXPECT_TRUE(r.msgs[2].has_first);
	EXPECT_FALSE(r.msgs[2].has_last);
	EXPECT_EQ("", h.bufs.clean());
	EXPECT_TRUE(sctp_rtxq_empty(&h.q));
	EXPECT_EQ(6u, sctp_rtxq_cum_point(&h.q));
	EXPECT_EQ(0u, sctp_rtxq_flight(&h.q));
	EXPECT_EQ(100000u, sctp_rtxq_rwnd(&h.q));
	EXPECT_EQ(h.pool.n, h.pool.n_free);
	EXPECT_EQ(nullptr, sctp_rtxq_check(&h.q, &h.pool));
	h.send(10, 0); // TSN 7 continues the sequence
	EXPECT_EQ(7u, sctp_rtxq_highest_sent(&h.q, &h.pool));
	h.finish();
}

// Each message's context comes back with it (RFC 6458 SEND FAILED's
// snd_context), from the pool's context slots; without slots it reads 0.
TEST(RtxqAbandon, ReportsEachMessagesContext)
{
	for (bool slots : { false, true }) {
		SCOPED_TRACE(slots ? "slots" : "no slots");
		Harness h(1, 100000);
		std::vector<uint32_t> ctx(h.pool.n, 0xa5a5a5a5u);
		EXPECT_EQ(-1, sctp_rtxq_pool_attach_ctx(&h.pool, ctx.data(), h.pool.n + 1));
		if (slots) {
			ASSERT_EQ(0, sctp_rtxq_pool_attach_ctx(&h.pool, ctx.data(), h.pool.n));
		}
		h.context = 11;
		h.send(100, 0, 0, SCTP_DATA_FLAG_B, 1, 7); // 1  message A
		h.send(50, 0, 0, SCTP_DATA_FLAG_E, 1, 7);  // 2
		h.context = 22;
		h.send(10, 1, 0, BE, 2, 8); // 3  message B
		h.context = 33;
		h.send(30, 0, 0, SCTP_DATA_FLAG_B, 3, 9);	 // 4  message C, rest not sent
		EXPECT_EQ(SCTP_RTXQ_SACK_OK, h.sack(1, 100000)); // A's first chunk acked
		Reported r;
		h.bufs.any = true;
		sctp_rtxq_abandon(&h.q, &h.env, &Reported::fn, &r);
		h.bufs.any = false;
		ASSERT_EQ(3u, r.msgs.size());
		EXPECT_EQ(r.msgs[0].context, slots ? 11u : 0u);
		EXPECT_EQ(r.msgs[1].context, slots ? 22u : 0u);
		EXPECT_EQ(r.msgs[2].context, slots ? 33u : 0u);
		h.finish();
	}
}

TEST(RtxqAbandon, EmptyAndNullCallback)
{
	Harness h(1, 100000);
	Reported r;
	sctp_rtxq_abandon(&h.q, &h.env, &Reported::fn, &r);
	EXPECT_TRUE(r.msgs.empty());
	h.send(10, 0, 0, SCTP_DATA_FLAG_B);
	h.send(10, 0, 0, SCTP_DATA_FLAG_B); // a B before any E: two messages
	h.bufs.any = true;
	sctp_rtxq_abandon(&h.q, &h.env, &Reported::fn, &r);
	h.bufs.any = false;
	EXPECT_EQ(2u, r.msgs.size());
	h.finish();
}

// ---------------------------------------------------------------- model

// The reference: per TSN (as a 64-bit sequence number, so ordering is
// plain <), what RFC 9260 says the sender knows, kept in a std::map and
// updated by straightforward loops over it.
struct MChunk {
	uint16_t len;
	uint8_t path;
	uint8_t phase; // F, G or MK
	bool fast_rtx;
	bool rtx;
	unsigned misses;
	uint64_t sent_ns;
};

struct Model {
	std::map<uint64_t, MChunk> q; // seq -> chunk, all sent and not cum-acked
	uint64_t cum;		      // seq of the cum point
	uint64_t highest;	      // highest seq sent
	uint64_t fence;		      // Karn fence (seq)
	uint32_t a_rwnd;

	std::vector<uint32_t> flights() const
	{
		std::vector<uint32_t> f(SCTP_MAX_PATHS, 0);
		for (auto &kv : q)
			if (kv.second.phase == F)
				f[kv.second.path] += sctp_rtxq_chunk_bytes(kv.second.len);
		return f;
	}
	uint32_t rwnd() const
	{
		uint32_t d = 0;
		for (auto &kv : q)
			if (kv.second.phase == F)
				d += kv.second.len;
		return a_rwnd > d ? a_rwnd - d : 0;
	}
};

// What the runs exercised, summed over seeds: each must be nonzero, or the
// model test is not testing what it claims.
struct Coverage {
	uint64_t sacks_ok = 0, sacks_old = 0, sacks_bad = 0, gap_sacks = 0;
	uint64_t fast_rtx = 0, fr_all_missing = 0, reneged = 0, t3_marked = 0;
	uint64_t retransmitted = 0, rtt_samples = 0, restarts = 0, wraps = 0;
};

struct Sim {
	Coverage *cov;
	uint32_t seed;
	std::mt19937 rng;
	uint32_t base; // TSN of seq 0
	Harness h;
	Model m;
	struct sctp_cc_recovery fr;
	// The receiver: seqs it holds above its cum, its cum.
	std::map<uint64_t, bool> rcv;
	uint64_t rcum;
	std::vector<Block *> blk; // by seq
	std::vector<uint64_t> data_wire;
	std::vector<std::pair<uint64_t, Gaps>> sack_wire; // cum seq, gaps
	uint64_t now = 0;
	int step = 0;
	std::string err;

	Sim(uint32_t s, Coverage *c)
	    : cov(c), seed(s), rng(s), base(pick_base(s)), h(base, 20000, 512, 0)
	{
		m.cum = 0; // seq 0 is the cum point, seq 1 the first TSN
		m.highest = 0;
		m.fence = 0;
		m.a_rwnd = 20000;
		rcum = 0;
		sctp_cc_recovery_init(&fr);
	}
	static uint32_t pick_base(uint32_t s)
	{
		// Seq 1 is TSN base; half the seeds cross the 2^32 wrap.
		return (s & 1) ? 0xffffff00u + (s % 200) : 1000u + s;
	}
	uint32_t tsn(uint64_t seq) const
	{
		return (uint32_t)(base - 1u + (uint32_t)seq);
	}
	unsigned rnd(unsigned n)
	{
		return (unsigned)(rng() % n);
	}
	static std::string what(const char *w, uint64_t v)
	{
		return std::string(w) + " " + std::to_string(v);
	}
	bool fail(const std::string &what)
	{
		if (err.empty()) {
			std::ostringstream os;
			os << "seed " << seed << " step " << step << ": " << what;
			err = os.str();
		}
		return false;
	}

	Gaps receiver_gaps() const
	{
		Gaps g;
		uint64_t start = 0, end = 0;
		for (auto &kv : rcv) {
			uint64_t s = kv.first;
			if (start != 0 && s == end + 1) {
				end = s;
				continue;
			}
			if (start != 0)
				g.emplace_back((uint16_t)(start - rcum), (uint16_t)(end - rcum));
			start = end = s;
		}
		if (start != 0)
			g.emplace_back((uint16_t)(start - rcum), (uint16_t)(end - rcum));
		return g;
	}
	// Every arrival, duplicate or not, makes a SACK (§6.2 asks for one on
	// each packet while there are gaps, and at once for a duplicate).
	void receive(uint64_t s)
	{
		if (s > rcum && !rcv.count(s)) {
			rcv[s] = true;
			while (rcv.count(rcum + 1)) {
				rcv.erase(rcum + 1);
				rcum++;
			}
		}
		push_sack();
	}
	// The return path holds a few SACKs; a new one past that pushes the
	// oldest out (lost), as a short queue would.
	void push_sack()
	{
		if (sack_wire.size() >= 6)
			sack_wire.erase(sack_wire.begin());
		sack_wire.emplace_back(rcum, receiver_gaps());
	}

	void send_new()
	{
		uint16_t len = (uint16_t)(1 + rnd(300));
		uint8_t path = (uint8_t)rnd(3);
		if (h.try_send(len, path, now) != SCTP_RTXQ_ADD_OK)
			return;
		m.highest++;
		m.q[m.highest] = MChunk{ len, path, F, false, false, 0, now };
		if (blk.size() <= m.highest)
			blk.resize(m.highest + 1);
		blk[m.highest] = &h.bufs.blocks.back();
		if (rnd(100) >= 15)
			data_wire.push_back(m.highest);
	}

	// The model's SACK processing, straight from the RFC sentences.
	void model_sack(uint64_t c, const Gaps &gaps, bool in_fr, struct sctp_rtxq_sack_result &e)
	{
		memset(&e, 0, sizeof(e));
		std::vector<uint32_t> fb = m.flights();
		for (unsigned p = 0; p < SCTP_MAX_PATHS; p++)
			e.path[p].flight_before = fb[p];
		// The blocks an honest receiver sends are ascending: binary search.
		auto covered = [&](uint64_t s) {
			auto it = std::upper_bound(
				gaps.begin(), gaps.end(), s,
				[&](uint64_t v, const std::pair<uint16_t, uint16_t> &g) {
					return v < c + g.first;
				});
			return it != gaps.begin() && s <= c + std::prev(it)->second;
		};
		// R3: each path's earliest outstanding chunk, reneged ones included.
		std::map<unsigned, uint64_t> earliest;
		for (auto &kv : m.q) {
			bool out = kv.second.phase == F ||
				   (kv.second.phase == G && kv.first > c && !covered(kv.first));
			if (out && !earliest.count(kv.second.path))
				earliest[kv.second.path] = kv.first;
		}
		uint64_t htna = 0;
		bool have_htna = false;
		std::vector<uint64_t> reneged;
		for (auto it = m.q.begin(); it != m.q.end();) {
			uint64_t s = it->first;
			MChunk &ch = it->second;
			bool acked = s <= c || covered(s);
			if (acked && ch.phase != G) {
				uint32_t cb = sctp_rtxq_chunk_bytes(ch.len);
				e.path[ch.path].bytes_acked += cb;
				e.acked_mask |= (uint8_t)(1u << ch.path);
				if (!ch.rtx && s > m.fence) {
					e.path[ch.path].rtt_ns = now - ch.sent_ns;
					e.rtt_mask |= (uint8_t)(1u << ch.path);
				}
				if (ch.phase == F && earliest.count(ch.path) &&
				    earliest[ch.path] == s)
					e.t3_restart_mask |= (uint8_t)(1u << ch.path);
				htna = s;
				have_htna = true;
			}
			if (s <= c) {
				e.chunks_released++;
				it = m.q.erase(it);
				continue;
			}
			if (acked) {
				ch.phase = G;
			} else if (ch.phase == G) {
				ch.phase = F;
				reneged.push_back(s);
				e.reneged++;
				e.t3_start_mask |= (uint8_t)(1u << ch.path);
			}
			++it;
		}
		e.cum_advanced = c != m.cum;
		m.cum = c;
		if (m.fence < c)
			m.fence = c;
		// §7.2.4 miss indications.
		uint64_t limit = 0;
		if (in_fr && e.cum_advanced && !gaps.empty())
			limit = c + gaps.back().second;
		else if (have_htna && htna > c)
			limit = htna;
		for (auto &kv : m.q) {
			MChunk &ch = kv.second;
			bool count = kv.first < limit;
			for (uint64_t r : reneged)
				count = count || r == kv.first;
			if (!count || ch.phase != F || ch.fast_rtx)
				continue;
			if (++ch.misses >= 3) {
				ch.phase = MK;
				ch.fast_rtx = true;
				e.fast_rtx_mask |= (uint8_t)(1u << ch.path);
				e.fast_rtx_chunks++;
				e.fast_rtx_bytes += sctp_rtxq_chunk_bytes(ch.len);
			}
		}
		bool any_marked = false;
		for (auto &kv : m.q)
			any_marked = any_marked || kv.second.phase == MK;
		std::vector<uint32_t> fa = m.flights();
		for (unsigned p = 0; p < SCTP_MAX_PATHS; p++) {
			uint32_t f = fa[p];
			e.path[p].flight_after = f;
			e.flight_before += e.path[p].flight_before;
			e.flight_after += f;
			e.bytes_acked += e.path[p].bytes_acked;
			if (f == 0)
				e.t3_stop_mask |= (uint8_t)(1u << p);
		}
		e.t3_restart_mask &= (uint8_t)~e.t3_stop_mask;
		e.t3_start_mask &= (uint8_t)~e.t3_stop_mask;
		e.all_acked = e.flight_after == 0 && !any_marked;
	}

	bool compare_result(const struct sctp_rtxq_sack_result &e)
	{
		const struct sctp_rtxq_sack_result &r = h.res;
		for (unsigned p = 0; p < SCTP_MAX_PATHS; p++) {
			if (r.path[p].bytes_acked != e.path[p].bytes_acked)
				return fail(what("bytes_acked of path", p));
			if (r.path[p].flight_before != e.path[p].flight_before)
				return fail(what("flight_before of path", p));
			if (r.path[p].flight_after != e.path[p].flight_after)
				return fail(what("flight_after of path", p));
			if ((e.rtt_mask & (1u << p)) && r.path[p].rtt_ns != e.path[p].rtt_ns)
				return fail(what("rtt of path", p));
		}
		if (r.flight_before != e.flight_before || r.flight_after != e.flight_after)
			return fail("total flight");
		if (r.bytes_acked != e.bytes_acked)
			return fail("total bytes acked");
		if (r.acked_mask != e.acked_mask)
			return fail("acked_mask");
		if (r.rtt_mask != e.rtt_mask)
			return fail("rtt_mask");
		if (r.fast_rtx_mask != e.fast_rtx_mask || r.fast_rtx_chunks != e.fast_rtx_chunks ||
		    r.fast_rtx_bytes != e.fast_rtx_bytes)
			return fail("fast retransmit");
		if (r.t3_stop_mask != e.t3_stop_mask)
			return fail("t3_stop_mask");
		if (r.t3_restart_mask != e.t3_restart_mask)
			return fail("t3_restart_mask");
		if (r.t3_start_mask != e.t3_start_mask)
			return fail("t3_start_mask");
		if (r.cum_advanced != e.cum_advanced || r.chunks_released != e.chunks_released)
			return fail("cum advance / released");
		if (r.reneged != e.reneged)
			return fail("reneged");
		if (r.all_acked != e.all_acked)
			return fail("all_acked");
		return true;
	}

	void deliver_sack()
	{
		if (sack_wire.empty())
			return;
		unsigned i = rnd(4) == 0 ? rnd((unsigned)sack_wire.size()) : 0; // mostly in order
		auto sk = sack_wire[i];
		sack_wire.erase(sack_wire.begin() + i);
		if (rnd(100) < 10)
			return; // lost
		uint32_t a_rwnd = 5000 + rnd(40000);
		bool in_fr = sctp_cc_recovery_active(&fr);
		enum sctp_rtxq_sack_verdict v =
			h.sack(tsn(sk.first), a_rwnd, sk.second, in_fr, now);
		if (sk.first < m.cum) {
			if (v != SCTP_RTXQ_SACK_OLD)
				fail("old SACK not refused");
			cov->sacks_old++;
			return;
		}
		if (v != SCTP_RTXQ_SACK_OK) {
			fail(std::string("honest SACK refused: ") + sctp_rtxq_sack_verdict_name(v));
			return;
		}
		struct sctp_rtxq_sack_result e;
		uint64_t old_cum = m.cum;
		model_sack(sk.first, sk.second, in_fr, e);
		for (uint64_t q = old_cum + 1; q <= m.cum; q++)
			if (blk[q]->refs != 0 || blk[q]->released != 1)
				return (void)fail("a cum-acked chunk's buffer not released once");
		if (sk.first > rcum)
			return (void)fail("model error: SACK beyond the receiver");
		m.a_rwnd = a_rwnd;
		if (!compare_result(e))
			return;
		cov->sacks_ok++;
		cov->gap_sacks += !sk.second.empty();
		cov->fast_rtx += h.res.fast_rtx_chunks;
		cov->fr_all_missing += in_fr && h.res.cum_advanced && !sk.second.empty();
		cov->reneged += h.res.reneged;
		cov->rtt_samples += __builtin_popcount(h.res.rtt_mask);
		cov->restarts += __builtin_popcount(h.res.t3_restart_mask);
		cov->wraps += h.res.cum_tsn < tsn(old_cum);
		sctp_cc_recovery_on_sack(&fr, h.res.cum_tsn);
		if (h.res.fast_rtx_mask)
			sctp_cc_recovery_enter(&fr, h.res.highest_sent);
	}

	// A SACK no honest receiver sends: refused, nothing changes.
	void bad_sack()
	{
		uint64_t c = m.cum + rnd((unsigned)(m.highest - m.cum + 1));
		Gaps g;
		enum sctp_rtxq_sack_verdict want;
		switch (rnd(4)) {
		case 0:
			c = m.highest + 1 + rnd(1000);
			want = SCTP_RTXQ_SACK_CUM_NOT_SENT;
			break;
		case 1:
			g.emplace_back((uint16_t)(m.highest - c + 1),
				       (uint16_t)(m.highest - c + 1));
			want = SCTP_RTXQ_SACK_GAP_NOT_SENT;
			break;
		case 2:
			g.emplace_back(5, 4);
			want = SCTP_RTXQ_SACK_BAD_GAP;
			break;
		default:
			if (m.highest - c < 4)
				return;
			g.emplace_back(3, 4);
			g.emplace_back(2, 2);
			want = SCTP_RTXQ_SACK_GAP_ORDER;
			break;
		}
		struct sctp_rtxq before = h.q;
		cov->sacks_bad++;
		if (h.sack(tsn(c), 1, g, false, now) != want)
			fail("bad SACK: wrong verdict");
		else if (memcmp(&before, &h.q, sizeof(before)) != 0)
			fail("bad SACK changed the queue");
	}

	void t3()
	{
		unsigned p = rnd(3);
		uint32_t bytes = 0;
		uint32_t n = sctp_rtxq_on_t3_expiry(&h.q, &h.env, p, &bytes);
		uint32_t en = 0, eb = 0;
		for (auto &kv : m.q) {
			MChunk &ch = kv.second;
			if (ch.phase == F && ch.path == p) {
				ch.phase = MK;
				en++;
				eb += sctp_rtxq_chunk_bytes(ch.len);
			}
		}
		if (n != en || bytes != eb)
			fail("T3 marked count or bytes");
		cov->t3_marked += n;
		sctp_cc_recovery_on_t3(&fr);
	}

	void retransmit()
	{
		unsigned p = rnd(3);
		uint32_t budget = 100 + rnd(2000);
		unsigned max_out = 1 + rnd(6);
		struct sctp_rtxq_rtx out[8];
		uint32_t bytes = 0;
		unsigned k = sctp_rtxq_take_rtx(&h.q, &h.env, p, budget, out, max_out, &bytes);
		unsigned ek = 0;
		uint32_t eb = 0;
		for (auto &kv : m.q) {
			MChunk &ch = kv.second;
			if (ch.phase != MK)
				continue;
			uint32_t cb = sctp_rtxq_chunk_bytes(ch.len);
			if (ek == max_out || eb + cb > budget)
				break;
			if (ek >= k || out[ek].tsn != tsn(kv.first))
				return (void)fail("retransmission order");
			ch.phase = F;
			ch.path = (uint8_t)p;
			ch.rtx = true;
			ch.misses = 0;
			eb += cb;
			ek++;
			if (rnd(100) >= 15)
				data_wire.push_back(kv.first);
		}
		if (k != ek || bytes != eb)
			return (void)fail("retransmission count or bytes");
		cov->retransmitted += k;
		if (k > 0)
			m.fence = m.highest;
	}

	bool compare_state()
	{
		const char *bad = sctp_rtxq_check(&h.q, &h.pool);
		if (bad != nullptr)
			return fail(bad);
		if (!h.bufs.error.empty())
			return fail(h.bufs.error);
		if (sctp_rtxq_cum_point(&h.q) != tsn(m.cum))
			return fail("cum point");
		if (sctp_rtxq_highest_sent(&h.q, &h.pool) != tsn(m.highest))
			return fail("highest sent");
		if (sctp_rtxq_count(&h.q, &h.pool) != m.q.size())
			return fail("count");
		std::vector<uint32_t> f = m.flights();
		for (unsigned p = 0; p < SCTP_MAX_PATHS; p++)
			if (sctp_rtxq_path_flight(&h.q, p) != f[p])
				return fail("path flight differs from the model");
		if (sctp_rtxq_rwnd(&h.q) != m.rwnd())
			return fail("rwnd");
		auto it = m.q.begin();
		for (uint32_t x = h.q.head; x != SCTP_RTXQ_NIL; x = h.nodes[x].next, ++it) {
			const struct sctp_rtxq_node &n = h.nodes[x];
			const MChunk &ch = it->second;
			if (n.tsn != tsn(it->first))
				return fail(what("tsn at", n.tsn));
			if ((n.state & SCTP_RTXQ_S_PHASE) != ch.phase)
				return fail(what("phase of TSN", n.tsn));
			if (!!(n.state & SCTP_RTXQ_S_FAST_RTX) != ch.fast_rtx)
				return fail(what("fast_rtx of TSN", n.tsn));
			if (!!(n.state & SCTP_RTXQ_S_RETRANSMITTED) != ch.rtx)
				return fail(what("retransmitted of TSN", n.tsn));
			if (n.path != ch.path)
				return fail(what("path of TSN", n.tsn));
			if (ch.phase == F && n.misses != ch.misses)
				return fail(what("misses of TSN", n.tsn));
		}
		// Released exactly the cum-acked ones: the chunks still queued keep
		// their reference; those up to cum were released once (checked as
		// the cum point passes them, in deliver_sack()).
		for (auto &kv : m.q) {
			const Block *b = blk[kv.first];
			if (b->refs != 1 || b->released != 0)
				return fail("a queued chunk's buffer lost its reference");
		}
		return true;
	}

	std::string run(int steps)
	{
		for (step = 0; step < steps && err.empty(); step++) {
			now += 1 + rnd(50);
			unsigned r = rnd(100);
			if (r < 30) {
				if (m.highest - m.cum < 200)
					send_new();
			} else if (r < 62) {
				if (!data_wire.empty()) {
					unsigned i =
						rnd(3) == 0 ? rnd((unsigned)data_wire.size()) : 0;
					uint64_t s = data_wire[i];
					data_wire.erase(data_wire.begin() + i);
					receive(s);
				}
			} else if (r < 84) {
				deliver_sack();
			} else if (r < 87) {
				t3();
			} else if (r < 95) {
				retransmit();
			} else if (r < 97) {
				// Receiver reneges: drops a TSN it holds above its cum.
				if (!rcv.empty()) {
					auto it = rcv.begin();
					std::advance(it, rnd((unsigned)rcv.size()));
					rcv.erase(it);
					push_sack();
				}
			} else {
				bad_sack();
			}
			if (err.empty())
				compare_state();
		}
		if (!err.empty())
			return err;
		// Close: everything left is released once.
		h.bufs.any = true;
		sctp_rtxq_abandon(&h.q, &h.env, nullptr, nullptr);
		h.bufs.any = false;
		std::string c = h.bufs.clean();
		if (!c.empty())
			return "seed " + std::to_string(seed) + " at close: " + c;
		if (h.pool.n_free != h.pool.n)
			return "seed " + std::to_string(seed) + " at close: nodes not returned";
		return "";
	}
};

TEST(RtxqRandomized, SenderReceiverAgainstModel)
{
	Coverage c;
	for (uint32_t seed = 1; seed <= 300; seed++) {
		Sim sim(seed, &c);
		std::string err = sim.run(2000);
		ASSERT_EQ("", err);
	}
	std::ostringstream os;
	os << "sacks ok " << c.sacks_ok << " old " << c.sacks_old << " refused " << c.sacks_bad
	   << " with gaps " << c.gap_sacks << "; fast rtx " << c.fast_rtx << " (FR all-missing "
	   << c.fr_all_missing << "); reneged " << c.reneged << "; T3 marked " << c.t3_marked
	   << "; retransmitted " << c.retransmitted << "; RTT samples " << c.rtt_samples
	   << "; T3 restarts " << c.restarts << "; cum wraps " << c.wraps;
	RecordProperty("coverage", os.str());
	printf("%s\n", os.str().c_str());
	EXPECT_GT(c.sacks_ok, 0u);
	EXPECT_GT(c.sacks_old, 0u);
	EXPECT_GT(c.sacks_bad, 0u);
	EXPECT_GT(c.gap_sacks, 0u);
	EXPECT_GT(c.fast_rtx, 0u);
	EXPECT_GT(c.fr_all_missing, 0u);
	EXPECT_GT(c.reneged, 0u);
	EXPECT_GT(c.t3_marked, 0u);
	EXPECT_GT(c.retransmitted, 0u);
	EXPECT_GT(c.rtt_samples, 0u);
	EXPECT_GT(c.restarts, 0u);
	EXPECT_GT(c.wraps, 0u);
}

} // namespace
