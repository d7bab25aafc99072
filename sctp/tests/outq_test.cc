// SPDX-License-Identifier: BSD-3-Clause
// Outbound message queue (sctp/outq.c; RFC 9260 §6.1, §6.5, §6.6, §6.9,
// RFC 7053, RFC 8260 §2.1, §3.1, §3.2): hand cases for every rule (SSN
// sequence and wrap, unordered, fragment boundaries, the I bit, round robin
// and FCFS order, DATA fragments back to back, I-DATA interleaving, limits
// and errors taking nothing, bundling, abandon), every one over a
// refcounting fake buffer that checks each hold is released exactly once;
// then a randomized model test (two queues sharing one pool, random
// messages, random max_payload per call, random acks and abandons) against
// a reference scheduler, the seed printed on failure.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "sctp/outq.h"
}

namespace {

// A caller's buffer: refs counts every reference, the caller's own included.
struct FakeBuf {
	int refs = 1;
	uint32_t id = 0;
	std::vector<uint8_t> bytes;
};

// The buffer ops' ledger: core holds, releases (core and chunk owners), misuse.
struct Ledger {
	uint64_t holds = 0;
	uint64_t releases = 0;
	uint64_t bad = 0; // hold of a dead buffer, release of one with no reference
};

void
fake_hold(void *ctx, void *handle)
{
	auto *l = static_cast<Ledger *>(ctx);
	auto *b = static_cast<FakeBuf *>(handle);
	if (b->refs <= 0)
		l->bad++;
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

uint8_t
pattern(uint32_t id, uint32_t i)
{
	return (uint8_t)(id * 131u + i * 7u + (i >> 8));
}

constexpr uint32_t kLead = 3; // payload starts 3 bytes into each buffer

// One queue over its own pool, streams and fake buffers; finish() (also run
// by the destructor) acks every chunk handed out, abandons what is left and
// checks that no reference leaked.
struct Env {
	Ledger led;
	struct sctp_buf_ops ops;
	std::deque<FakeBuf> bufs;
	std::vector<struct sctp_outq_msg> nodes;
	struct sctp_outq_pool pool;
	std::vector<struct sctp_outq_stream> streams;
	struct sctp_outq q;
	std::vector<void *> chunk_refs; // one per chunk handed out, not yet acked
	bool finished = false;

	explicit Env(uint16_t n_streams = 4, uint8_t sched = SCTP_OUTQ_SCHED_RR, bool idata = false,
		     uint32_t pool_n = 256, uint32_t max_bytes = 1u << 20, uint32_t max_msgs = 1024)
	    : nodes(pool_n), streams(n_streams)
	{
		ops.hold = fake_hold;
		ops.release = fake_release;
		ops.ctx = &led;
		EXPECT_EQ(0, sctp_outq_pool_init(&pool, nodes.data(), pool_n, &ops));
		struct sctp_outq_config cfg = {};
		cfg.max_bytes = max_bytes;
		cfg.max_msgs = max_msgs;
		cfg.n_streams = n_streams;
		cfg.sched = sched;
		cfg.idata = idata;
		EXPECT_EQ(0, sctp_outq_init(&q, &pool, streams.data(), &cfg));
	}

	~Env()
	{
		if (!finished)
			finish();
	}

	FakeBuf *buf(uint32_t len)
	{
		bufs.emplace_back();
		FakeBuf *b = &bufs.back();
		b->id = (uint32_t)bufs.size();
		b->bytes.resize(len + kLead + 1);
		for (uint32_t i = 0; i < len; i++)
			b->bytes[kLead + i] = pattern(b->id, i);
		return b;
	}

	// Push a fresh buffer's len bytes; the caller drops its own reference
	// right after, as a real caller may.
	int push(uint16_t sid, uint32_t len, uint8_t flags = 0, uint32_t ppid = 0,
		 FakeBuf **out = nullptr)
	{
		FakeBuf *b = buf(len);
		struct sctp_slice s = { b, b->bytes.data() + kLead, len };
		int rc = sctp_outq_push(&q, sid, ppid, flags, &s);
		b->refs--;
		if (out)
			*out = b;
		return rc;
	}

	int next(uint32_t max_payload, struct sctp_outq_chunk *c)
	{
		int rc = sctp_outq_next(&q, max_payload, c);
		if (rc == 0)
			chunk_refs.push_back(c->slice.handle);
		return rc;
	}

	struct sctp_outq_chunk next_ok(uint32_t max_payload)
	{
		struct sctp_outq_chunk c;
		memset(&c, 0xee, sizeof(c));
		EXPECT_EQ(0, next(max_payload, &c));
		return c;
	}

	void ack_all()
	{
		for (void *h : chunk_refs)
			fake_release(&led, h);
		chunk_refs.clear();
	}

	void finish()
	{
		finished = true;
		ack_all();
		sctp_outq_abandon(&q, nullptr, nullptr);
		EXPECT_EQ(led.bad, 0u) << "a hold or release of a buffer with no reference";
		EXPECT_EQ(led.holds, led.releases) << "holds and releases do not pair";
		for (const FakeBuf &b : bufs)
			EXPECT_EQ(b.refs, 0) << "buffer " << b.id << " leaked or over-released";
		EXPECT_EQ(sctp_outq_pool_free(&pool), pool.n) << "pool nodes not returned";
		EXPECT_TRUE(sctp_outq_empty(&q));
	}

	// The chunk's bytes are the message's bytes from offset off.
	bool bytes_match(const struct sctp_outq_chunk &c, const FakeBuf *b, uint32_t off)
	{
		return c.slice.handle == b && c.slice.data == b->bytes.data() + kLead + off &&
		       memcmp(c.slice.data, b->bytes.data() + kLead + off, c.slice.len) == 0;
	}
};

constexpr uint8_t B = SCTP_DATA_FLAG_B;
constexpr uint8_t E = SCTP_DATA_FLAG_E;
constexpr uint8_t U = SCTP_DATA_FLAG_U;
constexpr uint8_t I = SCTP_DATA_FLAG_I;

} // namespace

TEST(Outq, SizesStaySmall)
{
	EXPECT_LE(sizeof(struct sctp_outq), 48u);
	EXPECT_EQ(sizeof(struct sctp_outq_stream), 16u);
	EXPECT_LE(sizeof(struct sctp_outq_msg), 48u);
}

TEST(Outq, InitRejectsBadConfig)
{
	std::vector<struct sctp_outq_msg> nodes(4);
	std::vector<struct sctp_outq_stream> st(2);
	struct sctp_buf_ops ops = { fake_hold, fake_release, nullptr };
	struct sctp_outq_pool pool;
	EXPECT_EQ(-EINVAL, sctp_outq_pool_init(&pool, nodes.data(), 0, &ops));
	EXPECT_EQ(-EINVAL, sctp_outq_pool_init(&pool, nullptr, 4, &ops));
	EXPECT_EQ(-EINVAL, sctp_outq_pool_init(&pool, nodes.data(), 4, nullptr));
	ASSERT_EQ(0, sctp_outq_pool_init(&pool, nodes.data(), 4, &ops));
	EXPECT_EQ(sctp_outq_pool_free(&pool), 4u);

	struct sctp_outq q;
	struct sctp_outq_config good = { 1000, 10, 2, SCTP_OUTQ_SCHED_RR, false };
	EXPECT_EQ(0, sctp_outq_init(&q, &pool, st.data(), &good));
	auto bad = good;
	bad.n_streams = 0;
	EXPECT_EQ(-EINVAL, sctp_outq_init(&q, &pool, st.data(), &bad));
	bad = good;
	bad.max_bytes = 0;
	EXPECT_EQ(-EINVAL, sctp_outq_init(&q, &pool, st.data(), &bad));
	bad.max_bytes = SCTP_OUTQ_MAX_BYTES + 1;
	EXPECT_EQ(-EINVAL, sctp_outq_init(&q, &pool, st.data(), &bad));
	bad = good;
	bad.max_msgs = 0;
	EXPECT_EQ(-EINVAL, sctp_outq_init(&q, &pool, st.data(), &bad));
	bad.max_msgs = SCTP_OUTQ_MAX_MSGS + 1;
	EXPECT_EQ(-EINVAL, sctp_outq_init(&q, &pool, st.data(), &bad));
	bad = good;
	bad.sched = SCTP_OUTQ_SCHED_COUNT;
	EXPECT_EQ(-EINVAL, sctp_outq_init(&q, &pool, st.data(), &bad));
	EXPECT_EQ(-EINVAL, sctp_outq_init(&q, &pool, nullptr, &good));

	EXPECT_STREQ(sctp_outq_sched_name(SCTP_OUTQ_SCHED_RR), "rr");
	EXPECT_STREQ(sctp_outq_sched_name(SCTP_OUTQ_SCHED_FCFS), "fcfs");
	EXPECT_EQ(sctp_outq_sched_name(SCTP_OUTQ_SCHED_COUNT), nullptr);
}

// RFC 9260 §6.5: SSNs per stream from 0, in the order first fragments go out.
TEST(Outq, SsnPerStreamInTransmissionOrder)
{
	Env e(3);
	struct sctp_outq_chunk c;
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(0, e.push(0, 10));
		ASSERT_EQ(0, e.push(2, 10));
	}
	EXPECT_EQ(sctp_outq_next_ssn(&e.q, 0), 0u); // not numbered while queued
	uint16_t want[3] = { 0, 0, 0 };
	for (int i = 0; i < 6; i++) {
		c = e.next_ok(1000);
		EXPECT_EQ(c.ssn, want[c.sid]) << "stream " << c.sid;
		EXPECT_EQ(c.mid, want[c.sid]);
		want[c.sid]++;
		EXPECT_EQ(c.flags, B | E);
	}
	EXPECT_EQ(want[0], 3);
	EXPECT_EQ(want[1], 0);
	EXPECT_EQ(want[2], 3);
	EXPECT_EQ(-ENOENT, e.next(1000, &c));
	EXPECT_EQ(sctp_outq_next_ssn(&e.q, 0), 3u);
	EXPECT_EQ(sctp_outq_next_ssn(&e.q, 1), 0u);
}

// §6.5: 65535 is followed by 0, for every fragment of the message that
// gets it; the other streams are not affected.
TEST(Outq, SsnWrapsAt65535)
{
	Env e(2);
	for (uint32_t i = 0; i < 65535; i++) {
		ASSERT_EQ(0, e.push(1, 1));
		ASSERT_EQ(e.next_ok(100).ssn, (uint16_t)i);
		if (e.chunk_refs.size() > 1000)
			e.ack_all();
	}
	EXPECT_EQ(sctp_outq_next_ssn(&e.q, 1), 65535u);
	EXPECT_EQ(sctp_outq_next_ssn(&e.q, 0), 0u);
	ASSERT_EQ(0, e.push(1, 1, 0, 1));
	ASSERT_EQ(0, e.push(1, 2500, 0, 2)); // three fragments of 1000
	ASSERT_EQ(0, e.push(1, 1, 0, 3));
	ASSERT_EQ(0, e.push(0, 1, 0, 4));
	const struct {
		uint32_t ppid;
		uint16_t sid, ssn;
		uint8_t flags;
	} want[] = {
		{ 1, 1, 65535, B | E }, { 4, 0, 0, B | E }, { 2, 1, 0, B },
		{ 2, 1, 0, 0 },		{ 2, 1, 0, E },	    { 3, 1, 1, B | E },
	};
	for (auto &w : want) {
		struct sctp_outq_chunk c = e.next_ok(1000);
		EXPECT_EQ(c.ppid, w.ppid);
		EXPECT_EQ(c.sid, w.sid);
		EXPECT_EQ(c.ssn, w.ssn) << "ppid " << w.ppid;
		EXPECT_EQ(c.mid, w.ssn) << "DATA: mid repeats the 16-bit SSN";
		EXPECT_EQ(c.flags, w.flags);
	}
	EXPECT_EQ(sctp_outq_next_ssn(&e.q, 1), 2u);
}

// §6.6 / §3.3.1: unordered messages carry U and SSN 0 and consume no SSN.
TEST(Outq, UnorderedCarriesUAndSsnZero)
{
	Env e(1);
	ASSERT_EQ(0, e.push(0, 10));
	ASSERT_EQ(0, e.push(0, 2500, SCTP_OUTQ_UNORDERED));
	ASSERT_EQ(0, e.push(0, 10));
	struct sctp_outq_chunk c = e.next_ok(1000);
	EXPECT_EQ(c.ssn, 0u);
	EXPECT_EQ(c.flags, B | E);
	c = e.next_ok(1000);
	EXPECT_EQ(c.flags, U | B);
	EXPECT_EQ(c.ssn, 0u);
	c = e.next_ok(1000);
	EXPECT_EQ(c.flags, U);
	EXPECT_EQ(c.ssn, 0u);
	c = e.next_ok(1000);
	EXPECT_EQ(c.flags, U | E);
	EXPECT_EQ(c.ssn, 0u);
	c = e.next_ok(1000);
	EXPECT_EQ(c.flags, B | E);
	EXPECT_EQ(c.ssn, 1u) << "the unordered message took an SSN";
}

// §6.9: cut at exactly max_payload; B first, E last, one SSN, no copy.
TEST(Outq, FragmentBoundaries)
{
	Env e(1);
	FakeBuf *b;
	// Exactly max_payload: one chunk.
	ASSERT_EQ(0, e.push(0, 1200, 0, 7, &b));
	struct sctp_outq_chunk c = e.next_ok(1200);
	EXPECT_EQ(c.flags, B | E);
	EXPECT_EQ(c.slice.len, 1200u);
	EXPECT_TRUE(e.bytes_match(c, b, 0));
	EXPECT_EQ(c.ppid, 7u);
	EXPECT_EQ(b->refs, 1) << "the single chunk carries the queue's reference, no more";

	// max_payload + 1: two chunks, the second of 1 byte.
	ASSERT_EQ(0, e.push(0, 1201, 0, 8, &b));
	EXPECT_EQ(b->refs, 1);
	c = e.next_ok(1200);
	EXPECT_EQ(c.flags, B);
	EXPECT_EQ(c.slice.len, 1200u);
	EXPECT_EQ(c.ssn, 1u);
	EXPECT_TRUE(e.bytes_match(c, b, 0));
	EXPECT_EQ(b->refs, 2) << "queue + first chunk";
	c = e.next_ok(1200);
	EXPECT_EQ(c.flags, E);
	EXPECT_EQ(c.slice.len, 1u);
	EXPECT_EQ(c.ssn, 1u);
	EXPECT_EQ(c.ppid, 8u);
	EXPECT_EQ(c.fsn, 1u);
	EXPECT_TRUE(e.bytes_match(c, b, 1200));
	EXPECT_EQ(b->refs, 2) << "one per chunk, the queue's passed to the last";

	// A 1-byte message.
	ASSERT_EQ(0, e.push(0, 1, 0, 9, &b));
	c = e.next_ok(1);
	EXPECT_EQ(c.flags, B | E);
	EXPECT_EQ(c.slice.len, 1u);
	EXPECT_TRUE(e.bytes_match(c, b, 0));

	// 1-byte fragments, and a different max_payload on every call.
	ASSERT_EQ(0, e.push(0, 10, 0, 10, &b));
	uint32_t off = 0;
	for (uint32_t mp : { 1u, 1u, 3u, 2u, 100u }) {
		c = e.next_ok(mp);
		EXPECT_EQ(c.slice.len, std::min<uint32_t>(mp, 10 - off));
		EXPECT_TRUE(e.bytes_match(c, b, off));
		EXPECT_EQ((c.flags & B) != 0, off == 0);
		off += c.slice.len;
		EXPECT_EQ((c.flags & E) != 0, off == 10);
		EXPECT_EQ(c.ssn, 3u);
	}
	EXPECT_EQ(off, 10u);
	EXPECT_TRUE(sctp_outq_empty(&e.q));
	EXPECT_EQ(b->refs, 5);

	struct sctp_outq_chunk z;
	EXPECT_EQ(-EINVAL, e.next(0, &z));
}

// Chunk Length is 16 bits: a huge max_payload is cut to 65519 (DATA).
TEST(Outq, MaxPayloadCappedByChunkLength)
{
	Env e(1);
	ASSERT_EQ(0, e.push(0, 70000));
	// Length 16 + 65519 = 65535, padded to 65536 in the packet.
	EXPECT_EQ(sctp_outq_peek_len(&e.q, 1u << 20), 65536u);
	EXPECT_EQ(e.next_ok(1u << 20).slice.len, 65519u);
	EXPECT_EQ(e.next_ok(1u << 20).slice.len, 70000u - 65519u);

	Env d(1, SCTP_OUTQ_SCHED_RR, true);
	ASSERT_EQ(0, d.push(0, 70000));
	EXPECT_EQ(d.next_ok(UINT32_MAX).slice.len, 65515u);
}

// RFC 7053: the I bit on the last fragment of a message that asked for it, only.
TEST(Outq, IBitOnLastFragmentOnly)
{
	Env e(1);
	ASSERT_EQ(0, e.push(0, 30, SCTP_OUTQ_SACK_NOW));
	ASSERT_EQ(0, e.push(0, 30));
	ASSERT_EQ(0, e.push(0, 5, SCTP_OUTQ_SACK_NOW | SCTP_OUTQ_UNORDERED));
	EXPECT_EQ(e.next_ok(10).flags, B);
	EXPECT_EQ(e.next_ok(10).flags, 0);
	EXPECT_EQ(e.next_ok(10).flags, E | I);
	EXPECT_EQ(e.next_ok(10).flags, B);
	EXPECT_EQ(e.next_ok(10).flags, 0);
	EXPECT_EQ(e.next_ok(10).flags, E);
	EXPECT_EQ(e.next_ok(10).flags, B | E | U | I);
}

// RFC 8260 §3.2: one message per turn, streams in the order they became
// active, a stream leaving the round when it runs dry.
TEST(Outq, RoundRobinFairUnevenLoads)
{
	Env e(3);
	for (int i = 0; i < 6; i++)
		ASSERT_EQ(0, e.push(0, 8, 0, 100 + i));
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(0, e.push(1, 8, 0, 200 + i));
	ASSERT_EQ(0, e.push(2, 8, 0, 300));
	const uint32_t want[] = { 100, 200, 300, 101, 201, 102, 202, 103, 104, 105 };
	for (uint32_t ppid : want) {
		struct sctp_outq_chunk c = e.next_ok(100);
		EXPECT_EQ(c.ppid, ppid);
		EXPECT_EQ(c.sid, ppid / 100 - 1);
	}
	EXPECT_TRUE(sctp_outq_empty(&e.q));

	// A stream that becomes active mid-round joins at its end.
	ASSERT_EQ(0, e.push(0, 8, 0, 1));
	ASSERT_EQ(0, e.push(0, 8, 0, 2));
	ASSERT_EQ(0, e.push(1, 8, 0, 3));
	EXPECT_EQ(e.next_ok(100).ppid, 1u);
	ASSERT_EQ(0, e.push(2, 8, 0, 4)); // after 1 (current) and 0 (served, at the end)
	EXPECT_EQ(e.next_ok(100).ppid, 3u);
	EXPECT_EQ(e.next_ok(100).ppid, 2u);
	EXPECT_EQ(e.next_ok(100).ppid, 4u);
}

// RFC 9260 §6.9 (TSNs of a message's fragments strictly sequential): with
// DATA a started message is finished before another stream's turn.
TEST(Outq, DataFinishesFragmentedMessageBeforeSwitching)
{
	Env e(3);
	ASSERT_EQ(0, e.push(0, 25, 0, 1));
	ASSERT_EQ(0, e.push(1, 5, 0, 2));
	ASSERT_EQ(0, e.push(2, 5, 0, 3));
	ASSERT_EQ(0, e.push(0, 5, 0, 4));
	struct sctp_outq_chunk c = e.next_ok(10);
	EXPECT_EQ(c.ppid, 1u);
	EXPECT_EQ(c.flags, B);
	ASSERT_EQ(0, e.push(1, 5, 0, 5)); // new data elsewhere does not cut in
	c = e.next_ok(10);
	EXPECT_EQ(c.ppid, 1u);
	EXPECT_EQ(c.flags, 0);
	c = e.next_ok(10);
	EXPECT_EQ(c.ppid, 1u);
	EXPECT_EQ(c.flags, E);
	const uint32_t rest[] = { 2, 3, 4, 5 };
	for (uint32_t p : rest)
		EXPECT_EQ(e.next_ok(10).ppid, p);
}

// RFC 8260: with I-DATA, round robin takes turns per chunk; MID per stream,
// a separate MID space for unordered messages, FSN from 0 per message.
TEST(Outq, IDataInterleavesPerChunk)
{
	Env e(2, SCTP_OUTQ_SCHED_RR, true);
	ASSERT_EQ(0, e.push(0, 30, 0, 1));
	ASSERT_EQ(0, e.push(1, 5, SCTP_OUTQ_UNORDERED, 2));
	ASSERT_EQ(0, e.push(1, 5, 0, 3));
	ASSERT_EQ(0, e.push(1, 5, SCTP_OUTQ_UNORDERED, 4));
	struct {
		uint16_t sid;
		uint32_t ppid, mid, fsn;
		uint8_t flags;
	} want[] = {
		{ 0, 1, 0, 0, B },     { 1, 2, 0, 0, U | B | E }, { 0, 1, 0, 1, 0 },
		{ 1, 3, 0, 0, B | E }, { 0, 1, 0, 2, E },	  { 1, 4, 1, 0, U | B | E },
	};
	for (auto &w : want) {
		struct sctp_outq_chunk c = e.next_ok(10);
		EXPECT_EQ(c.sid, w.sid);
		EXPECT_EQ(c.ppid, w.ppid);
		EXPECT_EQ(c.mid, w.mid) << "ppid " << w.ppid;
		EXPECT_EQ(c.fsn, w.fsn);
		EXPECT_EQ(c.flags, w.flags);
		EXPECT_EQ(c.ssn, 0u);
	}
	EXPECT_EQ(sctp_outq_peek_len(&e.q, 10), 0u);
	ASSERT_EQ(0, e.push(0, 5));
	EXPECT_EQ(sctp_outq_peek_len(&e.q, 10), 20u + 8u) << "I-DATA header is 20 bytes";
}

// RFC 8260 §3.1: the order messages were queued, across streams, fragments
// back to back even with I-DATA.
TEST(Outq, FcfsOrderAcrossStreams)
{
	for (bool idata : { false, true }) {
		Env e(4, SCTP_OUTQ_SCHED_FCFS, idata);
		const uint16_t sids[] = { 2, 0, 0, 3, 1, 2 };
		for (uint32_t ppid = 0; ppid < 6; ppid++)
			ASSERT_EQ(0, e.push(sids[ppid], ppid == 1 ? 25 : 5, 0, ppid));
		uint16_t ssn[4] = {};
		for (uint32_t i = 0; i < 6; i++) {
			struct sctp_outq_chunk c = e.next_ok(10);
			EXPECT_EQ(c.ppid, i);
			EXPECT_EQ(c.sid, sids[i]);
			EXPECT_EQ(idata ? c.mid : c.ssn, ssn[c.sid]++);
			while (!(c.flags & E)) {
				c = e.next_ok(10);
				EXPECT_EQ(c.ppid, i);
			}
		}
	}
}

// The handshake says whether I-DATA is on after messages may be queued:
// switching is free until the first chunk goes out.
TEST(Outq, IDataDecidedBeforeFirstChunk)
{
	Env e(2);
	ASSERT_EQ(0, e.push(0, 30, 0, 1));
	ASSERT_EQ(0, e.push(1, 5, 0, 2));
	EXPECT_EQ(sctp_outq_wire_bytes(&e.q), (16u + 32) + (16 + 8));
	EXPECT_EQ(0, sctp_outq_set_idata(&e.q, true));
	EXPECT_EQ(sctp_outq_wire_bytes(&e.q), (20u + 32) + (20 + 8));
	EXPECT_EQ(0, sctp_outq_set_idata(&e.q, true)); // no change
	EXPECT_EQ(sctp_outq_wire_bytes(&e.q), (20u + 32) + (20 + 8));
	EXPECT_EQ(0, sctp_outq_set_idata(&e.q, false));
	EXPECT_EQ(0, sctp_outq_set_idata(&e.q, true));
	EXPECT_EQ(sctp_outq_peek_len(&e.q, 10), 20u + 12);
	struct sctp_outq_chunk c = e.next_ok(10);
	EXPECT_EQ(c.flags, B);
	EXPECT_EQ(-EBUSY, sctp_outq_set_idata(&e.q, false));
	c = e.next_ok(10); // I-DATA: the other stream's turn
	EXPECT_EQ(c.ppid, 2u);
	EXPECT_EQ(sctp_outq_wire_bytes(&e.q), 20u + 20);
}

TEST(Outq, SwitchSchedulerOnlyWhenEmpty)
{
	Env e(2);
	ASSERT_EQ(0, e.push(1, 5, 0, 1));
	EXPECT_EQ(-EBUSY, sctp_outq_set_sched(&e.q, SCTP_OUTQ_SCHED_FCFS));
	EXPECT_EQ(-EINVAL, sctp_outq_set_sched(&e.q, SCTP_OUTQ_SCHED_COUNT));
	e.next_ok(10);
	EXPECT_EQ(0, sctp_outq_set_sched(&e.q, SCTP_OUTQ_SCHED_FCFS));
	ASSERT_EQ(0, e.push(1, 5, 0, 2));
	ASSERT_EQ(0, e.push(1, 5, 0, 3));
	ASSERT_EQ(0, e.push(0, 5, 0, 4));
	EXPECT_EQ(e.next_ok(10).ppid, 2u);
	EXPECT_EQ(e.next_ok(10).ppid, 3u);
	EXPECT_EQ(e.next_ok(10).ppid, 4u);
	EXPECT_EQ(0, sctp_outq_set_sched(&e.q, SCTP_OUTQ_SCHED_RR));
}

// Every refusal has its own errno and takes nothing: no hold, no node, no count.
TEST(Outq, LimitsAndErrorsTakeNothing)
{
	Env e(2, SCTP_OUTQ_SCHED_RR, false, /*pool*/ 4, /*bytes*/ 100, /*msgs*/ 3);
	auto snapshot = [&e]() {
		return std::vector<uint64_t>{ e.led.holds,
					      e.led.releases,
					      sctp_outq_queued_bytes(&e.q),
					      sctp_outq_queued_msgs(&e.q),
					      sctp_outq_wire_bytes(&e.q),
					      sctp_outq_pool_free(&e.pool) };
	};
	ASSERT_EQ(0, e.push(0, 60));
	auto before = snapshot();
	FakeBuf *b;
	EXPECT_EQ(-EINVAL, e.push(2, 10, 0, 0, &b)); // stream id == n_streams
	EXPECT_EQ(b->refs, 0);
	EXPECT_EQ(-EINVAL, e.push(0, 0)); // §3.3.1: no user data
	EXPECT_EQ(-EINVAL, e.push(0, 10, SCTP_DATA_FLAG_B));
	EXPECT_EQ(-EMSGSIZE, e.push(0, 101)); // could never fit
	EXPECT_EQ(-ENOBUFS, e.push(1, 41));   // 60 + 41 > 100
	struct sctp_slice nodata = { nullptr, nullptr, 5 };
	EXPECT_EQ(-EINVAL, sctp_outq_push(&e.q, 0, 0, 0, &nodata));
	EXPECT_EQ(-EINVAL, sctp_outq_push(&e.q, 0, 0, 0, nullptr));
	EXPECT_EQ(before, snapshot());

	ASSERT_EQ(0, e.push(1, 40)); // exactly 100 bytes
	EXPECT_EQ(-ENOBUFS, e.push(1, 1));
	e.next_ok(10); // 10 bytes out: room for 10
	EXPECT_EQ(-ENOBUFS, e.push(1, 11));
	ASSERT_EQ(0, e.push(1, 10)); // third message
	before = snapshot();
	EXPECT_EQ(-ENOBUFS, e.push(0, 1)) << "message limit";
	EXPECT_EQ(before, snapshot());

	// The pool is shared: another association uses the last node.
	std::vector<struct sctp_outq_stream> st2(1);
	struct sctp_outq q2;
	struct sctp_outq_config cfg2 = { 1000, 10, 1, SCTP_OUTQ_SCHED_RR, false };
	ASSERT_EQ(0, sctp_outq_init(&q2, &e.pool, st2.data(), &cfg2));
	FakeBuf *b2 = e.buf(5);
	struct sctp_slice s2 = { b2, b2->bytes.data() + kLead, 5 };
	ASSERT_EQ(0, sctp_outq_push(&q2, 0, 0, 0, &s2));
	EXPECT_EQ(-ENOMEM, sctp_outq_push(&q2, 0, 0, 0, &s2)) << "pool empty";
	b2->refs--;
	EXPECT_EQ(sctp_outq_pool_free(&e.pool), 0u);
	EXPECT_EQ(1u, sctp_outq_abandon(&q2, nullptr, nullptr));

	// Lowered limits refuse, drop nothing.
	EXPECT_EQ(-EINVAL, sctp_outq_set_limits(&e.q, 0, 3));
	EXPECT_EQ(0, sctp_outq_set_limits(&e.q, 20, 3));
	EXPECT_EQ(-ENOBUFS, e.push(0, 1));
	EXPECT_EQ(sctp_outq_queued_bytes(&e.q), 100u);
	uint32_t out = 0;
	struct sctp_outq_chunk c;
	while (e.next(1000, &c) == 0)
		out += c.slice.len;
	EXPECT_EQ(out, 100u);
	EXPECT_EQ(0, e.push(0, 20));
}

// A NULL handle is bytes the core does not hold (buf.h): no hold, no release.
TEST(Outq, NullHandleIsNeverHeld)
{
	Env e(1);
	static const uint8_t bytes[40] = { 1, 2, 3 };
	struct sctp_slice s = { nullptr, bytes, 40 };
	ASSERT_EQ(0, sctp_outq_push(&e.q, 0, 0, 0, &s));
	ASSERT_EQ(0, sctp_outq_push(&e.q, 0, 0, 0, &s));
	struct sctp_outq_chunk c;
	ASSERT_EQ(0, sctp_outq_next(&e.q, 16, &c));
	EXPECT_EQ(c.slice.handle, nullptr);
	EXPECT_EQ(c.slice.data, bytes);
	ASSERT_EQ(0, sctp_outq_next(&e.q, 16, &c));
	EXPECT_EQ(c.slice.data, bytes + 16);
	EXPECT_EQ(2u, sctp_outq_abandon(&e.q, nullptr, nullptr));
	EXPECT_EQ(e.led.holds, 0u);
	EXPECT_EQ(e.led.releases, 0u);
}

// Bundling: chunk sizes with header and padding, fill stops at the first
// chunk that does not fit, wire_bytes follows.
TEST(Outq, PeekLenAndFillAPacket)
{
	Env e(2);
	EXPECT_EQ(sctp_outq_peek_len(&e.q, 1452), 0u);
	EXPECT_EQ(sctp_outq_wire_bytes(&e.q), 0u);
	ASSERT_EQ(0, e.push(0, 64));
	ASSERT_EQ(0, e.push(1, 61));
	ASSERT_EQ(0, e.push(0, 1));
	ASSERT_EQ(0, e.push(1, 3000));
	EXPECT_EQ(sctp_outq_wire_bytes(&e.q), (16u + 64) + (16 + 64) + (16 + 4) + (16 + 3000));
	EXPECT_EQ(sctp_outq_peek_len(&e.q, 1452), 16u + 64);
	EXPECT_EQ(sctp_outq_peek_len(&e.q, 10), 16u + 12) << "a fragment of 10, padded";
	EXPECT_EQ(sctp_outq_peek_len(&e.q, 0), 0u);

	struct sctp_outq_chunk out[8];
	uint32_t used = 0;
	// 80 + 80 + 20 = 180; the 3000-byte message's 1452 fragment needs 1468 more.
	unsigned n = sctp_outq_fill(&e.q, 1452, 1200, out, 8, &used);
	ASSERT_EQ(n, 3u);
	EXPECT_EQ(used, 180u);
	EXPECT_EQ(out[0].slice.len, 64u);
	EXPECT_EQ(out[1].slice.len, 61u);
	EXPECT_EQ(out[2].slice.len, 1u);
	for (unsigned i = 0; i < n; i++)
		e.chunk_refs.push_back(out[i].slice.handle);
	EXPECT_EQ(sctp_outq_wire_bytes(&e.q), 16u + 3000);

	n = sctp_outq_fill(&e.q, 1452, 1468 * 2, out, 8, &used);
	ASSERT_EQ(n, 2u);
	EXPECT_EQ(used, 1468u * 2);
	for (unsigned i = 0; i < n; i++)
		e.chunk_refs.push_back(out[i].slice.handle);
	EXPECT_EQ(sctp_outq_wire_bytes(&e.q), 16u + 96);
	n = sctp_outq_fill(&e.q, 1452, 111, out, 8, &used);
	EXPECT_EQ(n, 0u) << "112 bytes do not fit in 111";
	EXPECT_EQ(used, 0u);
	n = sctp_outq_fill(&e.q, 1452, 112, out, 0, nullptr);
	EXPECT_EQ(n, 0u) << "max 0";
	n = sctp_outq_fill(&e.q, 1452, 112, out, 8, &used);
	ASSERT_EQ(n, 1u);
	e.chunk_refs.push_back(out[0].slice.handle);
	EXPECT_EQ(out[0].flags, E);
	EXPECT_EQ(sctp_outq_wire_bytes(&e.q), 0u);
	EXPECT_EQ(sctp_outq_fill(&e.q, 1452, 1000, out, 8, &used), 0u);
}

// Close or restart: every message reported (partly sent ones too) in
// scheduler order, every queue reference released, SSNs kept.
TEST(Outq, AbandonReleasesEverything)
{
	Env e(3);
	FakeBuf *big, *b1, *b2, *b3;
	ASSERT_EQ(0, e.push(0, 3000, 0, 10, &big));
	ASSERT_EQ(0, e.push(1, 20, SCTP_OUTQ_UNORDERED, 11, &b1));
	ASSERT_EQ(0, e.push(0, 30, 0, 12, &b2));
	ASSERT_EQ(0, e.push(2, 40, SCTP_OUTQ_SACK_NOW, 13, &b3));
	e.next_ok(1000); // first fragment of the big one
	EXPECT_EQ(big->refs, 2);

	std::vector<struct sctp_outq_unsent> seen;
	auto cb = [](void *arg, const struct sctp_outq_unsent *u) {
		auto *v = static_cast<std::vector<struct sctp_outq_unsent> *>(arg);
		// The reference is still held while the callback runs.
		EXPECT_GT(static_cast<FakeBuf *>(u->msg.handle)->refs, 0);
		v->push_back(*u);
	};
	EXPECT_EQ(4u, sctp_outq_abandon(&e.q, cb, &seen));
	ASSERT_EQ(seen.size(), 4u);
	EXPECT_EQ(seen[0].ppid, 10u);
	EXPECT_EQ(seen[0].taken, 1000u);
	EXPECT_EQ(seen[0].msg.len, 3000u);
	EXPECT_EQ(seen[0].msg.handle, big);
	EXPECT_EQ(seen[1].ppid, 11u);
	EXPECT_EQ(seen[1].sid, 1u);
	EXPECT_EQ(seen[1].flags, SCTP_OUTQ_UNORDERED);
	EXPECT_EQ(seen[1].taken, 0u);
	EXPECT_EQ(seen[2].ppid, 13u);
	EXPECT_EQ(seen[2].msg.len, 40u);
	EXPECT_EQ(seen[3].ppid, 12u);
	EXPECT_EQ(seen[3].msg.data, b2->bytes.data() + kLead);

	EXPECT_EQ(big->refs, 1) << "only the sent fragment's reference is left";
	EXPECT_EQ(b1->refs, 0);
	EXPECT_EQ(b2->refs, 0);
	EXPECT_EQ(b3->refs, 0);
	EXPECT_TRUE(sctp_outq_empty(&e.q));
	EXPECT_EQ(sctp_outq_queued_bytes(&e.q), 0u);
	EXPECT_EQ(sctp_outq_wire_bytes(&e.q), 0u);
	EXPECT_EQ(sctp_outq_pool_free(&e.pool), e.pool.n);
	EXPECT_EQ(sctp_outq_next_ssn(&e.q, 0), 1u) << "abandon keeps the SSNs";
	struct sctp_outq_chunk c;
	EXPECT_EQ(-ENOENT, e.next(1000, &c));
	EXPECT_EQ(0u, sctp_outq_abandon(&e.q, nullptr, nullptr));

	// The queue works on: a new message after abandon.
	ASSERT_EQ(0, e.push(2, 5));
	EXPECT_EQ(e.next_ok(100).ssn, 0u);
}

// ---------------------------------------------------------------------------
// Randomized model test.

namespace {

struct ModelMsg {
	uint32_t id = 0;
	FakeBuf *buf = nullptr;
	uint32_t len = 0;
	uint32_t ppid = 0;
	uint16_t sid = 0;
	uint8_t flags = 0;
	uint32_t got = 0; // bytes seen in chunks
	uint32_t frags = 0;
	uint32_t mid = 0; // SSN / MID seen on the first fragment
	std::vector<uint8_t> rebuilt;
};

struct ModelQueue {
	Env *env;
	struct sctp_outq *q;
	bool idata;
	uint8_t sched;
	uint32_t max_bytes, max_msgs;
	uint16_t n_streams;
	std::vector<std::deque<ModelMsg *>> pending; // per stream, push order
	std::deque<ModelMsg *> fcfs;		     // push order across streams
	std::deque<uint16_t> ring;		     // RR: front is served next
	std::vector<uint32_t> next_mid, next_umid;
	uint32_t bytes = 0, msgs = 0;
	ModelMsg *partial = nullptr; // DATA: the only message allowed to be partly sent
	bool any_taken = false;	     // a first fragment went out: I-DATA can no longer change
	std::vector<ModelMsg *> done;
	std::vector<ModelMsg *> dropped;

	uint32_t hdr() const
	{
		return idata ? 20u : 16u;
	}

	uint32_t wire(uint32_t n) const
	{
		return hdr() + ((n + 3u) & ~3u);
	}

	uint32_t wire_total() const
	{
		uint32_t w = 0;
		for (auto &d : pending)
			for (ModelMsg *m : d)
				w += wire(m->len - m->got);
		return w;
	}

	ModelMsg *head() const
	{
		if (sched == SCTP_OUTQ_SCHED_FCFS)
			return fcfs.empty() ? nullptr : fcfs.front();
		return ring.empty() ? nullptr : pending[ring.front()].front();
	}

	void pushed(ModelMsg *m)
	{
		if (pending[m->sid].empty())
			ring.push_back(m->sid);
		pending[m->sid].push_back(m);
		fcfs.push_back(m);
		bytes += m->len;
		msgs++;
	}

	// The reference scheduler after a chunk of m, the head, went out.
	void advance(ModelMsg *m, bool last)
	{
		if (sched == SCTP_OUTQ_SCHED_FCFS) {
			if (last)
				fcfs.pop_front();
		} else if (last || idata) {
			ring.pop_front();
			if (last)
				pending[m->sid].pop_front();
			if (!pending[m->sid].empty())
				ring.push_back(m->sid);
		}
		if (last) {
			if (sched == SCTP_OUTQ_SCHED_FCFS)
				pending[m->sid].pop_front();
			msgs--;
		}
	}
};

std::string
describe(const ModelMsg *m)
{
	return "msg " + std::to_string(m->id) + " sid " + std::to_string(m->sid) + " len " +
	       std::to_string(m->len) + " got " + std::to_string(m->got);
}

// One chunk against the model; false (after a failure) ends the seed.
bool
check_chunk(ModelQueue &mq, const struct sctp_outq_chunk &c, uint32_t max_payload)
{
	ModelMsg *m = mq.head();
	if (m == nullptr) {
		ADD_FAILURE() << "a chunk from an empty queue";
		return false;
	}
	uint32_t cap = mq.idata ? 65515u : 65519u;
	uint32_t mp = max_payload < cap ? max_payload : cap;
	uint32_t want_len = std::min(m->len - m->got, mp);
	bool first = m->got == 0;
	bool last = want_len == m->len - m->got;
	if (c.sid != m->sid || c.slice.handle != m->buf || c.slice.len != want_len) {
		ADD_FAILURE() << "scheduler picked sid " << c.sid << " len " << c.slice.len
			      << ", model wants " << describe(m) << " len " << want_len;
		return false;
	}
	if (!mq.idata && mq.partial != nullptr && mq.partial != m) {
		ADD_FAILURE() << "DATA fragments of " << describe(mq.partial) << " interrupted";
		return false;
	}
	if (c.slice.data != m->buf->bytes.data() + kLead + m->got) {
		ADD_FAILURE() << "slice does not point at offset " << m->got << " of "
			      << describe(m);
		return false;
	}
	uint8_t want_flags = (uint8_t)((m->flags & U) | (first ? B : 0) | (last ? E : 0) |
				       (last ? (m->flags & I) : 0));
	EXPECT_EQ(c.flags, want_flags) << describe(m);
	EXPECT_EQ(c.ppid, m->ppid);
	EXPECT_EQ(c.fsn, m->frags);
	if (first) {
		bool unordered = (m->flags & U) != 0;
		mq.any_taken = true;
		if (mq.idata) {
			uint32_t &ctr = unordered ? mq.next_umid[m->sid] : mq.next_mid[m->sid];
			m->mid = ctr++;
		} else if (!unordered) {
			m->mid = mq.next_mid[m->sid];
			mq.next_mid[m->sid] = (uint16_t)(mq.next_mid[m->sid] + 1);
		}
	}
	EXPECT_EQ(c.mid, m->mid) << describe(m) << " SSN/MID not consecutive on its stream";
	EXPECT_EQ(c.ssn, mq.idata ? 0u : m->mid);
	m->rebuilt.insert(m->rebuilt.end(), c.slice.data, c.slice.data + c.slice.len);
	m->got += c.slice.len;
	m->frags++;
	mq.bytes -= c.slice.len;
	mq.partial = last ? nullptr : m;
	if (last)
		mq.done.push_back(m);
	mq.advance(m, last);
	return !::testing::Test::HasFailure();
}

struct ModelRun {
	std::mt19937_64 rng;
	Env env;
	ModelQueue mq;
	// A second association on the same pool: it takes nodes, so -ENOMEM is
	// about the lcore, not the association.
	std::vector<struct sctp_outq_stream> other_streams;
	struct sctp_outq other;
	std::deque<ModelMsg> store;
	uint32_t next_id = 0;

	ModelRun(uint64_t seed, uint16_t n_streams, uint8_t sched, bool idata, uint32_t pool_n,
		 uint32_t max_bytes, uint32_t max_msgs)
	    : rng(seed), env(n_streams, sched, idata, pool_n, max_bytes, max_msgs), other_streams(2)
	{
		mq.env = &env;
		mq.q = &env.q;
		mq.idata = idata;
		mq.sched = sched;
		mq.max_bytes = max_bytes;
		mq.max_msgs = max_msgs;
		mq.n_streams = n_streams;
		mq.pending.resize(n_streams);
		mq.next_mid.assign(n_streams, 0);
		mq.next_umid.assign(n_streams, 0);
		struct sctp_outq_config cfg = { 1u << 20, 1000, 2, SCTP_OUTQ_SCHED_RR, false };
		EXPECT_EQ(0, sctp_outq_init(&other, &env.pool, other_streams.data(), &cfg));
	}

	uint32_t rand(uint32_t n)
	{
		return (uint32_t)(rng() % n);
	}

	uint32_t random_len()
	{
		switch (rand(10)) {
		case 0:
			return 0; // refused
		case 1:
		case 2:
		case 3:
			return 1 + rand(8);
		case 4:
		case 5:
		case 6:
			return 1 + rand(300);
		case 7:
		case 8:
			return 1 + rand(4000);
		default:
			return 1 + rand(rand(4) == 0 ? 70000 : 20000);
		}
	}

	uint32_t random_max_payload()
	{
		switch (rand(6)) {
		case 0:
			return 1 + rand(8);
		case 1:
			return 1452;
		case 2:
			return rand(50) == 0 ? 0 : 1 + rand(2000);
		case 3:
			return rand(3) == 0 ? UINT32_MAX : 60000 + rand(10000);
		default:
			return 4 * (1 + rand(400));
		}
	}

	bool op_push()
	{
		uint16_t sid =
			(uint16_t)(rand(20) == 0 ? mq.n_streams + rand(3) : rand(mq.n_streams));
		uint32_t len = random_len();
		uint8_t flags = (uint8_t)((rand(3) == 0 ? SCTP_OUTQ_UNORDERED : 0) |
					  (rand(4) == 0 ? SCTP_OUTQ_SACK_NOW : 0));
		if (rand(40) == 0)
			flags |= SCTP_DATA_FLAG_B;
		uint32_t ppid = (uint32_t)rng();
		int want;
		if (sid >= mq.n_streams || len == 0 || (flags & ~SCTP_OUTQ_FLAGS))
			want = -EINVAL;
		else if (len > mq.max_bytes)
			want = -EMSGSIZE;
		else if (mq.bytes + (uint64_t)len > mq.max_bytes || mq.msgs >= mq.max_msgs)
			want = -ENOBUFS;
		else if (sctp_outq_pool_free(&env.pool) == 0)
			want = -ENOMEM;
		else
			want = 0;
		uint64_t holds = env.led.holds;
		FakeBuf *b;
		int rc = env.push(sid, len, flags, ppid, &b);
		if (rc != want) {
			ADD_FAILURE() << "push sid " << sid << " len " << len << " flags "
				      << (int)flags << ": got " << rc << " want " << want;
			return false;
		}
		if (rc != 0) {
			EXPECT_EQ(env.led.holds, holds) << "a refused push held the buffer";
			EXPECT_EQ(b->refs, 0);
			return !::testing::Test::HasFailure();
		}
		EXPECT_EQ(b->refs, 1);
		store.emplace_back();
		ModelMsg &m = store.back();
		m.id = next_id++;
		m.buf = b;
		m.len = len;
		m.ppid = ppid;
		m.sid = sid;
		m.flags = flags;
		mq.pushed(&m);
		return !::testing::Test::HasFailure();
	}

	bool op_next()
	{
		uint32_t mp = random_max_payload();
		uint32_t peek = sctp_outq_peek_len(&env.q, mp);
		struct sctp_outq_chunk c;
		int rc = env.next(mp, &c);
		if (mp == 0) {
			EXPECT_EQ(rc, -EINVAL);
			EXPECT_EQ(peek, 0u);
			return !::testing::Test::HasFailure();
		}
		if (mq.head() == nullptr) {
			EXPECT_EQ(rc, -ENOENT);
			EXPECT_EQ(peek, 0u);
			return !::testing::Test::HasFailure();
		}
		if (rc != 0) {
			ADD_FAILURE() << "next: " << rc << " with data queued";
			return false;
		}
		EXPECT_EQ(peek, mq.wire(c.slice.len)) << "peek_len disagrees with next";
		return check_chunk(mq, c, mp);
	}

	bool op_fill()
	{
		uint32_t mp = random_max_payload();
		if (mp == 0)
			mp = 1;
		uint32_t room = rand(4) == 0 ? rand(100) : rand(9000);
		unsigned max = 1 + rand(40);
		std::vector<struct sctp_outq_chunk> out(max);
		uint32_t used = 0;
		unsigned n = sctp_outq_fill(&env.q, mp, room, out.data(), max, &used);
		uint32_t sum = 0;
		for (unsigned i = 0; i < n; i++) {
			env.chunk_refs.push_back(out[i].slice.handle);
			sum += mq.wire(out[i].slice.len);
			if (!check_chunk(mq, out[i], mp))
				return false;
		}
		EXPECT_EQ(used, sum);
		EXPECT_LE(used, room);
		// It stopped for a reason: max reached, queue empty, or the next does not fit.
		if (n < max && mq.head() != nullptr) {
			EXPECT_GT(sctp_outq_peek_len(&env.q, mp), room - used);
		}
		return !::testing::Test::HasFailure();
	}

	void op_ack()
	{
		auto &refs = env.chunk_refs;
		unsigned k = rand((unsigned)refs.size() + 1);
		for (unsigned i = 0; i < k; i++) {
			size_t j = rand((unsigned)refs.size());
			fake_release(&env.led, refs[j]);
			refs[j] = refs.back();
			refs.pop_back();
		}
	}

	void op_other()
	{
		// The neighbour association queues a few or drops all it has.
		if (rand(3) == 0) {
			sctp_outq_abandon(&other, nullptr, nullptr);
			return;
		}
		FakeBuf *b = env.buf(10);
		struct sctp_slice s = { b, b->bytes.data() + kLead, 10 };
		int rc = sctp_outq_push(&other, (uint16_t)rand(2), 0, 0, &s);
		EXPECT_TRUE(rc == 0 || rc == -ENOMEM || rc == -ENOBUFS) << rc;
		b->refs--;
	}

	bool op_abandon()
	{
		std::vector<struct sctp_outq_unsent> seen;
		auto cb = [](void *arg, const struct sctp_outq_unsent *u) {
			static_cast<std::vector<struct sctp_outq_unsent> *>(arg)->push_back(*u);
		};
		uint32_t n = sctp_outq_abandon(&env.q, cb, &seen);
		EXPECT_EQ(n, mq.msgs);
		EXPECT_EQ(seen.size(), (size_t)n);
		// Per stream, the order they were queued; every queued message exactly once.
		std::vector<size_t> pos(mq.n_streams, 0);
		for (auto &u : seen) {
			if (u.sid >= mq.n_streams || pos[u.sid] >= mq.pending[u.sid].size()) {
				ADD_FAILURE() << "abandon reported an unknown message on " << u.sid;
				return false;
			}
			ModelMsg *m = mq.pending[u.sid][pos[u.sid]++];
			EXPECT_EQ(u.msg.handle, m->buf);
			EXPECT_EQ(u.msg.len, m->len);
			EXPECT_EQ(u.taken, m->got);
			EXPECT_EQ(u.ppid, m->ppid);
			EXPECT_EQ(u.flags, m->flags);
			mq.dropped.push_back(m);
		}
		for (auto &d : mq.pending)
			d.clear();
		mq.fcfs.clear();
		mq.ring.clear();
		mq.bytes = 0;
		mq.msgs = 0;
		mq.partial = nullptr;
		return !::testing::Test::HasFailure();
	}

	bool op_set_idata()
	{
		bool on = rand(2) == 0;
		int rc = sctp_outq_set_idata(&env.q, on);
		EXPECT_EQ(rc, mq.any_taken ? -EBUSY : 0);
		if (rc == 0)
			mq.idata = on;
		return !::testing::Test::HasFailure();
	}

	bool sched_is_rr() const
	{
		return mq.sched == SCTP_OUTQ_SCHED_RR;
	}

	bool check_counters()
	{
		EXPECT_EQ(sctp_outq_queued_bytes(&env.q), mq.bytes);
		EXPECT_EQ(sctp_outq_queued_msgs(&env.q), mq.msgs);
		EXPECT_EQ(sctp_outq_wire_bytes(&env.q), mq.wire_total());
		for (uint16_t s = 0; s < mq.n_streams; s++) {
			EXPECT_EQ(sctp_outq_next_ssn(&env.q, s), (uint16_t)mq.next_mid[s]);
			// outq.c's invariant: round robin links exactly the streams with
			// data; FCFS uses no stream links at all.
			const struct sctp_outq_stream &st = env.streams[s];
			bool active = sched_is_rr() && !mq.pending[s].empty();
			EXPECT_EQ(st.tail != 0, active) << "stream " << s;
			EXPECT_EQ(st.sched_next != 0, active) << "stream " << s;
		}
		return !::testing::Test::HasFailure();
	}

	// Everything taken out, every message rebuilt byte for byte exactly once.
	void final_check()
	{
		struct sctp_outq_chunk c;
		for (;;) {
			uint32_t mp = 1 + rand(3000);
			if (env.next(mp, &c) != 0)
				break;
			if (!check_chunk(mq, c, mp))
				return;
		}
		EXPECT_TRUE(sctp_outq_empty(&env.q));
		EXPECT_EQ(mq.done.size() + mq.dropped.size(), store.size())
			<< "messages lost or duplicated";
		for (ModelMsg *m : mq.done) {
			EXPECT_EQ(m->got, m->len) << describe(m);
			bool same = m->rebuilt.size() == m->len &&
				    memcmp(m->rebuilt.data(), m->buf->bytes.data() + kLead,
					   m->len) == 0;
			EXPECT_TRUE(same) << describe(m) << " not rebuilt byte for byte";
		}
	}
};

} // namespace

TEST(OutqModel, RandomAgainstReference)
{
	const int kSeeds = 400;
	for (int seed = 1; seed <= kSeeds; seed++) {
		std::mt19937_64 pick(seed * 7919ull);
		uint16_t n_streams = (uint16_t)(1 + pick() % (pick() % 4 == 0 ? 300 : 6));
		uint8_t sched = (uint8_t)(pick() % 2);
		bool idata = pick() % 2 == 0;
		uint32_t pool_n = pick() % 3 == 0 ? 4 + pick() % 20 : 512;
		uint32_t max_bytes = pick() % 3 == 0 ? 500 + pick() % 5000 : 200000;
		uint32_t max_msgs = pick() % 3 == 0 ? 1 + pick() % 30 : 400;
		SCOPED_TRACE("seed " + std::to_string(seed) + " streams " +
			     std::to_string(n_streams) + " sched " + sctp_outq_sched_name(sched) +
			     (idata ? " idata" : " data") + " pool " + std::to_string(pool_n) +
			     " max_bytes " + std::to_string(max_bytes) + " max_msgs " +
			     std::to_string(max_msgs));
		ModelRun r(seed, n_streams, sched, idata, pool_n, max_bytes, max_msgs);
		bool ok = true;
		for (int step = 0; step < 1500 && ok; step++) {
			uint32_t op = r.rand(100);
			if (op < 40)
				ok = r.op_push();
			else if (op < 70)
				ok = r.op_next();
			else if (op < 82)
				ok = r.op_fill();
			else if (op < 92)
				r.op_ack();
			else if (op < 97)
				r.op_other();
			else if (op < 99)
				ok = r.op_set_idata();
			else
				ok = r.op_abandon();
			if (ok)
				ok = r.check_counters();
			if (!ok)
				ADD_FAILURE() << "at step " << step;
		}
		if (ok)
			r.final_check();
		sctp_outq_abandon(&r.other, nullptr, nullptr);
		r.env.finish();
		if (::testing::Test::HasFailure())
			break; // the first failing seed is the one to debug
	}
}
