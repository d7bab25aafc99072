// SPDX-License-Identifier: BSD-3-Clause
// The daemon's event side of a ring set (dataplane/sidecar/sc_post.h): a
// message copied in pieces of a quarter arena with MORE and CONT, continued
// after a full ring where it stopped; events invisible until published; a
// record reaped only once the application's tail passed its bytes, oldest
// first, the owner handed back once; all or nothing when the arena or the
// records are full; an impossible tail refused; the drain at detach.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "dataplane/sidecar/sc_post.h"

namespace {

constexpr uint32_t kSlots = 8;
constexpr uint64_t kArena = 4096;

struct Set {
	std::vector<uint64_t> mem;
	size_t evt_off = 0, rx_off = 0, len = 0;
	struct sc_thread d = {}, a = {}; // the daemon's views, the application's
	struct sc_unread unread[2 * kSlots];
	struct sc_post p;

	Set()
	{
		evt_off = 0;
		rx_off = sc_ring_bytes(kSlots, SC_SLOT_BYTES);
		len = rx_off + SC_ARENA_HDR + kArena;
		mem.assign(len / 8 + 1, 0);
		uint8_t *b = base();
		EXPECT_EQ(sc_ring_create(b, len, evt_off, kSlots, SC_SLOT_BYTES), 0);
		EXPECT_EQ(sc_arena_create(b, len, rx_off, kArena), 0);
		EXPECT_EQ(sc_ring_attach(&d.evt, b, len, evt_off, kSlots, SC_SLOT_BYTES, true), 0);
		EXPECT_EQ(sc_ring_attach(&a.evt, b, len, evt_off, kSlots, SC_SLOT_BYTES, false), 0);
		EXPECT_EQ(sc_arena_attach(&d.rx, b, len, rx_off, kArena, true), 0);
		EXPECT_EQ(sc_arena_attach(&a.rx, b, len, rx_off, kArena, false), 0);
		sc_post_init(&p, &d, unread, 2 * kSlots);
	}
	uint8_t *base()
	{
		return reinterpret_cast<uint8_t *>(mem.data());
	}
	// The application reads up to n events: their bytes, and gives them back.
	std::vector<std::pair<struct sc_evt, std::vector<uint8_t>>> read(uint32_t n)
	{
		std::vector<std::pair<struct sc_evt, std::vector<uint8_t>>> out;
		int have = sc_ring_count(&a.evt);
		EXPECT_GE(have, 0);
		uint32_t k = 0;
		for (; k < (uint32_t)have && k < n; k++) {
			struct sc_evt e;
			memcpy(&e, sc_ring_peek(&a.evt, k), sizeof(e));
			EXPECT_EQ(sc_evt_check(&e, kArena), 0);
			std::vector<uint8_t> bytes;
			if (e.len != 0) {
				int err;
				auto *q = static_cast<const uint8_t *>(
					sc_arena_take(&a.rx, e.off, e.len, &err));
				EXPECT_NE(q, nullptr);
				if (q != nullptr)
					bytes.assign(q, q + e.len);
			}
			out.push_back({ e, bytes });
		}
		sc_arena_release(&a.rx);
		sc_ring_release(&a.evt, k);
		return out;
	}
};

void
pattern(void *arg, uint8_t *dst, uint32_t off, uint32_t len)
{
	(void)arg;
	for (uint32_t i = 0; i < len; i++)
		dst[i] = static_cast<uint8_t>(off + i);
}

struct sc_evt
recv_evt(uint32_t len)
{
	struct sc_evt e;
	memset(&e, 0, sizeof(e));
	e.type = SC_EVT_RECV;
	e.assoc = 1ull << 32 | 7;
	e.len = len;
	return e;
}

std::vector<struct sc_unread> reaped;

void
collect(void *arg, const struct sc_unread *u)
{
	(void)arg;
	reaped.push_back(*u);
}

TEST(ScPost, AMessageGoesInPiecesOfAQuarterArena)
{
	Set s;
	struct sc_evt e = recv_evt(2500); // three pieces: 1024, 1024, 452
	uint32_t done = 0;
	ASSERT_TRUE(sc_post_recv(&s.p, &e, 7, 1, pattern, nullptr, &done));
	EXPECT_EQ(done, 2500u);
	EXPECT_TRUE(s.read(8).empty()) << "nothing visible before the round's publish";
	(void)sc_post_publish(&s.p);
	auto got = s.read(8);
	ASSERT_EQ(got.size(), 3u);
	uint32_t off = 0;
	for (size_t i = 0; i < got.size(); i++) {
		const auto &[ev, bytes] = got[i];
		EXPECT_EQ(!!(ev.flags & SC_RECV_MORE), i + 1 < got.size());
		EXPECT_EQ(!!(ev.flags & SC_RECV_CONT), i != 0);
		for (size_t j = 0; j < bytes.size(); j++)
			ASSERT_EQ(bytes[j], static_cast<uint8_t>(off + j));
		off += static_cast<uint32_t>(bytes.size());
	}
	EXPECT_EQ(off, 2500u);
	reaped.clear();
	ASSERT_EQ(sc_post_reap(&s.p, collect, nullptr), 0);
	ASSERT_EQ(reaped.size(), 3u);
	uint32_t bytes = 0;
	for (const auto &u : reaped) {
		EXPECT_EQ(u.slot, 7u);
		EXPECT_EQ(u.gen, 1u);
		bytes += u.bytes;
	}
	EXPECT_EQ(bytes, 2500u) << "the window gets every byte back, once";
	EXPECT_EQ(s.p.n, 0u);
}

TEST(ScPost, AFullRingStopsAMessageWhereItContinuesLater)
{
	Set s;
	uint32_t done = 0;
	for (uint32_t i = 0; i < kSlots - 1; i++) { // all slots but one
		struct sc_evt e = recv_evt(10);
		done = 0;
		ASSERT_TRUE(sc_post_recv(&s.p, &e, 7, 1, pattern, nullptr, &done));
	}
	struct sc_evt big = recv_evt(2000);
	done = 0;
	EXPECT_FALSE(sc_post_recv(&s.p, &big, 7, 1, pattern, nullptr, &done));
	EXPECT_EQ(done, 1024u) << "the first piece went, the second found no slot";
	(void)sc_post_publish(&s.p);
	auto got = s.read(kSlots);
	ASSERT_EQ(got.size(), kSlots);
	EXPECT_TRUE(got.back().first.flags & SC_RECV_MORE);
	ASSERT_TRUE(sc_post_recv(&s.p, &big, 7, 1, pattern, nullptr, &done));
	(void)sc_post_publish(&s.p);
	got = s.read(kSlots);
	ASSERT_EQ(got.size(), 1u);
	EXPECT_TRUE(got[0].first.flags & SC_RECV_CONT);
	EXPECT_FALSE(got[0].first.flags & SC_RECV_MORE);
	ASSERT_EQ(got[0].second.size(), 976u);
	EXPECT_EQ(got[0].second[0], static_cast<uint8_t>(1024));
}

TEST(ScPost, ARecordIsReapedOnlyOnceTheApplicationReadPastIt)
{
	Set s;
	int owners[3] = { 0, 0, 0 };
	for (int i = 0; i < 3; i++) {
		struct sc_unread rec = { 7, 1, 100, 0, &owners[i] };
		struct sc_evt e = recv_evt(0);
		e.flags = SC_RECV_ZC;
		uint8_t *b;
		struct sc_evt *slot = sc_post_bytes(&s.p, &e, sizeof(struct sc_zc_ref), &rec, &b);
		ASSERT_NE(slot, nullptr);
		EXPECT_EQ(slot->len, sizeof(struct sc_zc_ref));
		struct sc_zc_ref z = { 0, 100, 0 };
		memcpy(b, &z, sizeof(z));
	}
	(void)sc_post_publish(&s.p);
	reaped.clear();
	ASSERT_EQ(sc_post_reap(&s.p, collect, nullptr), 0);
	EXPECT_TRUE(reaped.empty()) << "unread: nothing goes back";
	ASSERT_EQ(s.read(2).size(), 2u);
	ASSERT_EQ(sc_post_reap(&s.p, collect, nullptr), 0);
	ASSERT_EQ(reaped.size(), 2u) << "the two read, oldest first";
	EXPECT_EQ(reaped[0].owner, &owners[0]);
	EXPECT_EQ(reaped[1].owner, &owners[1]);
	ASSERT_EQ(sc_post_reap(&s.p, collect, nullptr), 0);
	EXPECT_EQ(reaped.size(), 2u) << "each once";
	// The application goes: the last record's owner goes back unread.
	sc_post_drain(&s.p, collect, nullptr);
	ASSERT_EQ(reaped.size(), 3u);
	EXPECT_EQ(reaped[2].owner, &owners[2]);
	EXPECT_EQ(s.p.n, 0u);
	EXPECT_EQ(sc_post_last(&s.p), nullptr);
}

TEST(ScPost, NoRoomTakesNothing)
{
	Set s;
	// The arena: two allocations of 2000 do not fit a 4096-byte arena with a third.
	static const struct sc_unread none = { 0, 0, 0, 0, nullptr };
	struct sc_evt e = recv_evt(0);
	uint8_t *b;
	ASSERT_NE(sc_post_bytes(&s.p, &e, 2000, &none, &b), nullptr);
	ASSERT_NE(sc_post_bytes(&s.p, &e, 2000, &none, &b), nullptr);
	uint32_t pending = s.p.pending, n = s.p.n;
	EXPECT_EQ(sc_post_bytes(&s.p, &e, 200, &none, &b), nullptr);
	EXPECT_EQ(s.p.pending, pending) << "no event slot taken";
	EXPECT_EQ(s.p.n, n) << "no record taken";
	// Plain events need a slot only.
	e.type = SC_EVT_SHUTDOWN_EVENT;
	e.len = 0;
	for (uint32_t i = 2; i < kSlots; i++)
		EXPECT_NE(sc_post_plain(&s.p, &e), nullptr);
	EXPECT_EQ(sc_post_plain(&s.p, &e), nullptr) << "the ring is full";
	EXPECT_FALSE(sc_post_publish(&s.p)) << "the application did not ask to be woken";
	EXPECT_EQ(s.read(kSlots).size(), kSlots);
}

// The consumer index turns impossible between two events of a round: no
// room from then on, and the room never wraps around to 2^32 (it did; the
// next rounds then posted without bound).
TEST(ScPost, ABrokenConsumerIndexLeavesNoRoom)
{
	Set s;
	struct sc_evt e = recv_evt(0);
	e.type = SC_EVT_SHUTDOWN_EVENT;
	for (uint32_t i = 0; i < kSlots - 2; i++) // the room read once, then used
		ASSERT_NE(sc_post_plain(&s.p, &e), nullptr);
	(void)sc_post_publish(&s.p);
	ASSERT_EQ(s.read(kSlots).size(), kSlots - 2);
	ASSERT_NE(sc_post_plain(&s.p, &e), nullptr);
	ASSERT_NE(sc_post_plain(&s.p, &e), nullptr);
	uint32_t bogus = 1000; // past the producer's head: impossible
	memcpy(s.base() + s.evt_off + SC_RING_TAIL_OFF, &bogus, sizeof(bogus));
	EXPECT_EQ(sc_post_plain(&s.p, &e), nullptr);
	(void)sc_post_publish(&s.p);
	EXPECT_EQ(s.p.room, 0u);
	for (int round = 0; round < 3; round++) {
		EXPECT_EQ(sc_post_plain(&s.p, &e), nullptr) << "round " << round;
		(void)sc_post_publish(&s.p);
	}
}

TEST(ScPost, AnImpossibleTailIsRefused)
{
	Set s;
	struct sc_evt e = recv_evt(100);
	uint32_t done = 0;
	ASSERT_TRUE(sc_post_recv(&s.p, &e, 7, 1, pattern, nullptr, &done));
	(void)sc_post_publish(&s.p);
	// The application claims to have read far beyond what was ever written.
	uint64_t bogus = 1u << 20;
	memcpy(s.base() + s.rx_off + 64, &bogus, sizeof(bogus));
	reaped.clear();
	EXPECT_EQ(sc_post_reap(&s.p, collect, nullptr), -EPROTO);
	EXPECT_TRUE(reaped.empty()) << "nothing given back on a broken tail";
	EXPECT_EQ(s.p.n, 1u);
}

} // namespace
