// SPDX-License-Identifier: BSD-3-Clause
// Receive-side TSN map (RFC 9260 §6.2, §6.7, §3.3.4; RFC 3758 §3.6): hand
// cases for every verdict, the 2^32 wrap, the window edges and the ring's
// seam, Gap Ack Blocks against offsets computed by hand, the duplicate list
// bound, FORWARD TSN, moving and dropping the storage; then two randomized
// model tests against a std::set reference, comparing cum, highest, the
// count held, the gap blocks and the duplicate list after every step. A
// failure prints the seed and step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "sctp/tsn_map.h"
}

namespace {

using Gaps = std::vector<std::pair<uint16_t, uint16_t>>;

Gaps
gaps_of(const struct sctp_tsn_map *m, unsigned max = 1u << 16, bool *more = nullptr)
{
	// At most `above` blocks exist: a buffer of above + 1 answers like one of max.
	unsigned cap = max < sctp_tsn_map_above(m) + 1 ? max : sctp_tsn_map_above(m) + 1;
	std::vector<struct sctp_sack_gap> out(cap ? cap : 1);
	unsigned n = sctp_tsn_map_gaps(m, out.data(), cap, more);
	Gaps g;
	for (unsigned i = 0; i < n; i++)
		g.emplace_back(out[i].start, out[i].end);
	return g;
}

std::vector<uint32_t>
dups_of(const struct sctp_tsn_map *m)
{
	const uint32_t *list;
	unsigned n = sctp_tsn_map_dups(m, &list);
	return std::vector<uint32_t>(list, list + n);
}

constexpr uint64_t kGarbage = 0xa5a5a5a5a5a5a5a5ull;

// A map with its own storage, garbage-filled so init must clear it.
struct Fixture {
	std::vector<uint64_t> bits;
	std::vector<uint32_t> dups;
	struct sctp_tsn_map m;

	Fixture(uint32_t initial, unsigned n_words, unsigned max_dups = 16)
	    : bits(n_words ? n_words : 1, kGarbage), dups(max_dups ? max_dups : 1, 0xdeadbeef)
	{
		sctp_tsn_map_init(&m, initial, n_words ? bits.data() : nullptr, n_words,
				  max_dups ? dups.data() : nullptr, max_dups);
	}
};

// check() must agree with mark() and must not change the map.
enum sctp_tsn_map_verdict
checked_mark(struct sctp_tsn_map *m, uint32_t tsn)
{
	struct sctp_tsn_map before = *m;
	enum sctp_tsn_map_verdict c = sctp_tsn_map_check(m, tsn);
	EXPECT_EQ(0, memcmp(&before, m, sizeof(before))) << "check() modified the map";
	enum sctp_tsn_map_verdict v = sctp_tsn_map_mark(m, tsn);
	EXPECT_EQ(c, v) << "tsn " << tsn;
	return v;
}

constexpr auto IN = SCTP_TSN_MAP_NEW_IN_ORDER;
constexpr auto OOO = SCTP_TSN_MAP_NEW_OUT_OF_ORDER;
constexpr auto DUP = SCTP_TSN_MAP_DUPLICATE;
constexpr auto OOW = SCTP_TSN_MAP_OUT_OF_WINDOW;

} // namespace

TEST(TsnMap, StructStaysSmall)
{
	EXPECT_LE(sizeof(struct sctp_tsn_map), 32u);
}

TEST(TsnMap, InitFromInitialTsn)
{
	Fixture f(1000, 2);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 999u);
	EXPECT_EQ(sctp_tsn_map_highest(&f.m), 999u);
	EXPECT_FALSE(sctp_tsn_map_has_gaps(&f.m));
	EXPECT_EQ(sctp_tsn_map_above(&f.m), 0u);
	EXPECT_EQ(sctp_tsn_map_window(&f.m), 128u);
	EXPECT_EQ(f.bits[0], 0u);
	EXPECT_EQ(f.bits[1], 0u);
	EXPECT_TRUE(dups_of(&f.m).empty());

	Fixture z(0, 1);
	EXPECT_EQ(sctp_tsn_map_cum(&z.m), 0xffffffffu);
	EXPECT_EQ(checked_mark(&z.m, 0), IN);
	EXPECT_EQ(sctp_tsn_map_cum(&z.m), 0u);
}

TEST(TsnMap, EveryVerdict)
{
	Fixture f(100, 1);
	EXPECT_EQ(sctp_tsn_map_check(&f.m, 100), IN);
	EXPECT_EQ(sctp_tsn_map_check(&f.m, 99), DUP);  // == cum
	EXPECT_EQ(sctp_tsn_map_check(&f.m, 50), DUP);  // behind cum
	EXPECT_EQ(sctp_tsn_map_check(&f.m, 101), OOO); // cum + 2
	EXPECT_EQ(sctp_tsn_map_check(&f.m, 163), OOO); // cum + 64, last in window
	EXPECT_EQ(sctp_tsn_map_check(&f.m, 164), OOW); // cum + 65
	EXPECT_EQ(sctp_tsn_map_check(&f.m, 99u + 0x80000000u), OOW);
	EXPECT_EQ(sctp_tsn_map_check(&f.m, 99u + 0x80000001u), DUP); // serially behind
	EXPECT_TRUE(dups_of(&f.m).empty()) << "check() must not record";

	EXPECT_EQ(checked_mark(&f.m, 105), OOO);
	EXPECT_EQ(checked_mark(&f.m, 105), DUP); // held above cum
	EXPECT_EQ(checked_mark(&f.m, 164), OOW);
	EXPECT_EQ(checked_mark(&f.m, 99), DUP);
	EXPECT_EQ(checked_mark(&f.m, 100), IN);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 100u);
	EXPECT_EQ(sctp_tsn_map_highest(&f.m), 105u);
	EXPECT_EQ(sctp_tsn_map_above(&f.m), 1u);
	EXPECT_EQ(dups_of(&f.m), (std::vector<uint32_t>{ 105, 99 }));
	EXPECT_EQ(sctp_tsn_map_dups_seen(&f.m), 2u);
	// OUT_OF_WINDOW changes nothing and records nothing.
	EXPECT_EQ(checked_mark(&f.m, 100 + 65), OOW);
	EXPECT_EQ(sctp_tsn_map_dups_seen(&f.m), 2u);
	EXPECT_EQ(sctp_tsn_map_above(&f.m), 1u);
}

TEST(TsnMap, VerdictNames)
{
	EXPECT_STREQ(sctp_tsn_map_verdict_name(IN), "new_in_order");
	EXPECT_STREQ(sctp_tsn_map_verdict_name(OOO), "new_out_of_order");
	EXPECT_STREQ(sctp_tsn_map_verdict_name(DUP), "duplicate");
	EXPECT_STREQ(sctp_tsn_map_verdict_name(OOW), "out_of_window");
	EXPECT_STREQ(sctp_tsn_map_verdict_name((enum sctp_tsn_map_verdict)42), "unknown");
}

TEST(TsnMap, NoBitmapAcceptsOnlyInSequence)
{
	Fixture f(7, 0);
	EXPECT_EQ(sctp_tsn_map_window(&f.m), 1u);
	for (uint32_t t = 7; t < 1007; t++)
		ASSERT_EQ(checked_mark(&f.m, t), IN);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 1006u);
	EXPECT_EQ(checked_mark(&f.m, 1008), OOW);
	EXPECT_EQ(checked_mark(&f.m, 1006), DUP);
	EXPECT_EQ(dups_of(&f.m), (std::vector<uint32_t>{ 1006 }));
	EXPECT_TRUE(gaps_of(&f.m).empty());
}

TEST(TsnMap, FillingTheHoleAdvancesOverTheRun)
{
	Fixture f(100, 1);
	EXPECT_EQ(checked_mark(&f.m, 102), OOO);
	EXPECT_EQ(checked_mark(&f.m, 103), OOO);
	EXPECT_EQ(checked_mark(&f.m, 104), OOO);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 99u);
	EXPECT_EQ(sctp_tsn_map_highest(&f.m), 104u);
	EXPECT_EQ(sctp_tsn_map_above(&f.m), 3u);
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 3, 5 } }));
	EXPECT_EQ(checked_mark(&f.m, 100), IN);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 100u);
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 2, 4 } }));
	EXPECT_EQ(checked_mark(&f.m, 101), IN);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 104u);
	EXPECT_EQ(sctp_tsn_map_highest(&f.m), 104u);
	EXPECT_EQ(sctp_tsn_map_above(&f.m), 0u);
	EXPECT_FALSE(sctp_tsn_map_has_gaps(&f.m));
	EXPECT_TRUE(gaps_of(&f.m).empty());
	EXPECT_EQ(f.bits[0], 0u) << "bits passed by cum must be cleared";
}

TEST(TsnMap, WrapAround)
{
	Fixture f(0xfffffffeu, 1); // cum 0xfffffffd
	EXPECT_EQ(checked_mark(&f.m, 0xffffffffu), OOO);
	EXPECT_EQ(checked_mark(&f.m, 0), OOO);
	EXPECT_EQ(checked_mark(&f.m, 1), OOO);
	EXPECT_EQ(checked_mark(&f.m, 3), OOO);
	EXPECT_EQ(sctp_tsn_map_highest(&f.m), 3u);
	// Offsets from 0xfffffffd: 0xffffffff = 2, 0 = 3, 1 = 4, 3 = 6.
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 2, 4 }, { 6, 6 } }));
	EXPECT_EQ(checked_mark(&f.m, 0xfffffffeu), IN);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 1u);
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 2, 2 } }));
	EXPECT_EQ(checked_mark(&f.m, 0xfffffffdu), DUP);
	EXPECT_EQ(checked_mark(&f.m, 0), DUP);
	EXPECT_EQ(checked_mark(&f.m, 3), DUP);
	EXPECT_EQ(checked_mark(&f.m, 2), IN);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 3u);
	EXPECT_EQ(dups_of(&f.m), (std::vector<uint32_t>{ 0xfffffffdu, 0, 3 }));

	// In-sequence through the wrap with no bitmap at all.
	Fixture g(0xfffffff0u, 0);
	for (uint32_t i = 0; i < 0x20; i++)
		ASSERT_EQ(checked_mark(&g.m, 0xfffffff0u + i), IN);
	EXPECT_EQ(sctp_tsn_map_cum(&g.m), 0xfu);
}

TEST(TsnMap, WindowEdgesBeforeAndAfterTheRingTurns)
{
	Fixture f(1, 1); // cum 0, W 64
	EXPECT_EQ(checked_mark(&f.m, 64), OOO);
	EXPECT_EQ(checked_mark(&f.m, 65), OOW);
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 64, 64 } }));
	// Hold 2..37, then 1: cum runs to 37 and the ring base moves to bit 37.
	for (uint32_t t = 2; t <= 37; t++)
		ASSERT_EQ(checked_mark(&f.m, t), OOO);
	EXPECT_EQ(checked_mark(&f.m, 1), IN);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 37u);
	EXPECT_EQ(f.m.base, 37u);
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 27, 27 } }));
	// The window is again cum+1 .. cum+64 = 38 .. 101, now across the seam.
	EXPECT_EQ(checked_mark(&f.m, 101), OOO);
	EXPECT_EQ(checked_mark(&f.m, 102), OOW);
	EXPECT_EQ(checked_mark(&f.m, 64), DUP);
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 27, 27 }, { 64, 64 } }));
	for (uint32_t t = 39; t <= 100; t++) {
		if (t == 64)
			continue;
		ASSERT_EQ(checked_mark(&f.m, t), OOO) << t;
	}
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 2, 64 } }));
	EXPECT_EQ(sctp_tsn_map_above(&f.m), 63u);
	EXPECT_EQ(checked_mark(&f.m, 38), IN);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 101u);
	EXPECT_EQ(sctp_tsn_map_above(&f.m), 0u);
	EXPECT_EQ(f.bits[0], 0u);
}

TEST(TsnMap, AdvanceOverManyWords)
{
	Fixture f(1000, 16); // W 1024
	for (uint32_t t = 1001; t < 1000 + 1024; t++)
		ASSERT_EQ(checked_mark(&f.m, t), OOO);
	EXPECT_EQ(checked_mark(&f.m, 1000 + 1024), OOW);
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 2, 1024 } }));
	EXPECT_EQ(checked_mark(&f.m, 1000), IN);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 1000u + 1023u);
	EXPECT_FALSE(sctp_tsn_map_has_gaps(&f.m));
	for (uint64_t w : f.bits)
		EXPECT_EQ(w, 0u);
}

TEST(TsnMap, GapBlocksByHand)
{
	Fixture f(1001, 2); // cum 1000, W 128
	for (uint32_t t : { 1002u, 1003u, 1005u, 1010u, 1011u, 1012u, 1064u, 1128u })
		ASSERT_EQ(checked_mark(&f.m, t), OOO);
	bool more = false;
	EXPECT_EQ(gaps_of(&f.m, 8, &more),
		  (Gaps{ { 2, 3 }, { 5, 5 }, { 10, 12 }, { 64, 64 }, { 128, 128 } }));
	EXPECT_FALSE(more);
	EXPECT_EQ(gaps_of(&f.m, 5, &more),
		  (Gaps{ { 2, 3 }, { 5, 5 }, { 10, 12 }, { 64, 64 }, { 128, 128 } }));
	EXPECT_FALSE(more);
	EXPECT_EQ(gaps_of(&f.m, 2, &more), (Gaps{ { 2, 3 }, { 5, 5 } }));
	EXPECT_TRUE(more);
	EXPECT_EQ(gaps_of(&f.m, 0, &more), Gaps{});
	EXPECT_TRUE(more);
	struct sctp_sack_gap g[1];
	EXPECT_EQ(sctp_tsn_map_gaps(&f.m, g, 1, nullptr), 1u); // more may be NULL
	EXPECT_EQ(g[0].start, 2u);
	EXPECT_EQ(g[0].end, 3u);
	// 1001 arrives: cum runs to 1003 and every offset shrinks by 3.
	EXPECT_EQ(checked_mark(&f.m, 1001), IN);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 1003u);
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 2, 2 }, { 7, 9 }, { 61, 61 }, { 125, 125 } }));
	EXPECT_EQ(sctp_tsn_map_above(&f.m), 6u);
}

TEST(TsnMap, GapBlockAcrossTheSeam)
{
	Fixture f(1, 2); // cum 0, W 128
	for (uint32_t t = 2; t <= 101; t++)
		ASSERT_EQ(checked_mark(&f.m, t), OOO);
	ASSERT_EQ(checked_mark(&f.m, 1), IN);
	ASSERT_EQ(sctp_tsn_map_cum(&f.m), 101u);
	ASSERT_EQ(f.m.base, 101u);
	// cum + 22 .. cum + 42 sit at ring bits 122..127 and 0..14.
	for (uint32_t t = 101 + 22; t <= 101 + 42; t++)
		ASSERT_EQ(checked_mark(&f.m, t), OOO);
	ASSERT_EQ(checked_mark(&f.m, 101 + 128), OOO); // last of the window, ring bit 100
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 22, 42 }, { 128, 128 } }));
	EXPECT_EQ(f.bits[1] >> 58, 0x3fu);
	EXPECT_EQ(f.bits[0] & 0x7fffu, 0x7fffu);
}

TEST(TsnMap, LargestWindowOffsetsFit16Bits)
{
	std::vector<uint64_t> bits(2000, kGarbage);
	struct sctp_tsn_map m;
	sctp_tsn_map_init(&m, 5, bits.data(), 2000, nullptr, 0);
	EXPECT_EQ(m.n_words, SCTP_TSN_MAP_MAX_WORDS);
	EXPECT_EQ(bits[SCTP_TSN_MAP_MAX_WORDS], kGarbage) << "storage past the cap untouched";
	const uint32_t w = 64 * SCTP_TSN_MAP_MAX_WORDS;
	EXPECT_EQ(sctp_tsn_map_window(&m), w);
	EXPECT_EQ(checked_mark(&m, 4 + w), OOO);
	EXPECT_EQ(checked_mark(&m, 5 + w), OOW);
	EXPECT_EQ(gaps_of(&m), (Gaps{ { (uint16_t)w, (uint16_t)w } }));
	EXPECT_EQ(sctp_tsn_map_highest(&m), 4 + w);
}

TEST(TsnMap, DuplicateListBound)
{
	Fixture f(10, 1, 3);
	for (uint32_t t = 10; t < 20; t++)
		ASSERT_EQ(checked_mark(&f.m, t), IN);
	// 19 arrives twice more: listed twice (§3.3.4); the fourth and fifth
	// duplicates are beyond the bound, counted only.
	for (uint32_t t : { 19u, 19u, 12u, 15u, 11u })
		ASSERT_EQ(checked_mark(&f.m, t), DUP);
	EXPECT_EQ(dups_of(&f.m), (std::vector<uint32_t>{ 19, 19, 12 }));
	EXPECT_EQ(sctp_tsn_map_dups_seen(&f.m), 5u);
	EXPECT_EQ(f.dups.size(), 3u);
	sctp_tsn_map_clear_dups(&f.m);
	EXPECT_TRUE(dups_of(&f.m).empty());
	EXPECT_EQ(sctp_tsn_map_dups_seen(&f.m), 0u);
	ASSERT_EQ(checked_mark(&f.m, 18), DUP);
	EXPECT_EQ(dups_of(&f.m), (std::vector<uint32_t>{ 18 }));

	// No list at all: counted only.
	Fixture z(10, 1, 0);
	ASSERT_EQ(checked_mark(&z.m, 9), DUP);
	EXPECT_EQ(sctp_tsn_map_dups_seen(&z.m), 1u);
	EXPECT_TRUE(dups_of(&z.m).empty());

	// The count saturates rather than wrapping.
	for (unsigned i = 0; i < 70000; i++)
		sctp_tsn_map_mark(&z.m, 9);
	EXPECT_EQ(sctp_tsn_map_dups_seen(&z.m), 0xffffu);
	EXPECT_TRUE(dups_of(&z.m).empty());
}

TEST(TsnMap, AttachDups)
{
	Fixture f(10, 1, 2);
	for (uint32_t t : { 9u, 8u, 7u })
		ASSERT_EQ(checked_mark(&f.m, t), DUP);
	ASSERT_EQ(dups_of(&f.m), (std::vector<uint32_t>{ 9, 8 }));
	// Larger array: the unlisted third duplicate is forgotten, never shown as garbage.
	std::vector<uint32_t> big(8, 0xdeadbeef);
	sctp_tsn_map_attach_dups(&f.m, big.data(), (unsigned)big.size());
	EXPECT_EQ(dups_of(&f.m), (std::vector<uint32_t>{ 9, 8 }));
	EXPECT_EQ(sctp_tsn_map_dups_seen(&f.m), 2u);
	ASSERT_EQ(checked_mark(&f.m, 6), DUP);
	EXPECT_EQ(dups_of(&f.m), (std::vector<uint32_t>{ 9, 8, 6 }));
	// Smaller array: the first entries are kept, the count stays.
	std::vector<uint32_t> one(1);
	sctp_tsn_map_attach_dups(&f.m, one.data(), 1);
	EXPECT_EQ(dups_of(&f.m), (std::vector<uint32_t>{ 9 }));
	EXPECT_EQ(sctp_tsn_map_dups_seen(&f.m), 3u);
	sctp_tsn_map_attach_dups(&f.m, nullptr, 0);
	EXPECT_TRUE(dups_of(&f.m).empty());
	EXPECT_EQ(sctp_tsn_map_dups_seen(&f.m), 3u);
}

TEST(TsnMap, ForwardTsn)
{
	Fixture f(101, 2); // cum 100, W 128
	for (uint32_t t : { 103u, 104u, 106u, 107u, 110u })
		ASSERT_EQ(checked_mark(&f.m, t), OOO);
	// At or behind cum: ignored.
	EXPECT_FALSE(sctp_tsn_map_forward(&f.m, 100));
	EXPECT_FALSE(sctp_tsn_map_forward(&f.m, 50));
	EXPECT_FALSE(sctp_tsn_map_forward(&f.m, 100u + 0x80000000u)); // unordered: ignored
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 100u);
	EXPECT_EQ(sctp_tsn_map_above(&f.m), 5u);
	// Skip 101..104 (103 and 104 were held): cum 104 then on to 104; 105 missing.
	EXPECT_TRUE(sctp_tsn_map_forward(&f.m, 104));
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 104u);
	EXPECT_EQ(sctp_tsn_map_above(&f.m), 3u);
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 2, 3 }, { 6, 6 } }));
	// Skip 105: cum continues over 106, 107.
	EXPECT_TRUE(sctp_tsn_map_forward(&f.m, 105));
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 107u);
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 3, 3 } }));
	EXPECT_EQ(sctp_tsn_map_highest(&f.m), 110u);
	// Far beyond the window: everything held is dropped, the bits are clean.
	EXPECT_TRUE(sctp_tsn_map_forward(&f.m, 107 + 100000));
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 100107u);
	EXPECT_EQ(sctp_tsn_map_highest(&f.m), 100107u);
	EXPECT_FALSE(sctp_tsn_map_has_gaps(&f.m));
	EXPECT_EQ(f.bits[0], 0u);
	EXPECT_EQ(f.bits[1], 0u);
	for (uint32_t k = 2; k <= 128; k++)
		ASSERT_EQ(sctp_tsn_map_check(&f.m, 100107 + k), OOO) << k;
	EXPECT_EQ(checked_mark(&f.m, 100107), DUP);
	EXPECT_EQ(checked_mark(&f.m, 100108), IN);
	EXPECT_TRUE(dups_of(&f.m) == std::vector<uint32_t>{ 100107 });
}

TEST(TsnMap, ForwardTsnExactlyToHighestAndAcrossTheWrap)
{
	Fixture f(0xfffffff0u, 1); // cum 0xffffffef
	for (uint32_t t : { 0xfffffff5u, 0xfffffffeu, 2u })
		ASSERT_EQ(checked_mark(&f.m, t), OOO);
	EXPECT_TRUE(sctp_tsn_map_forward(&f.m, 0xfffffffcu));
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 0xfffffffcu);
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 2, 2 }, { 6, 6 } }));
	EXPECT_EQ(sctp_tsn_map_above(&f.m), 2u);
	EXPECT_TRUE(sctp_tsn_map_forward(&f.m, 2)); // == highest
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 2u);
	EXPECT_FALSE(sctp_tsn_map_has_gaps(&f.m));
	EXPECT_EQ(f.bits[0], 0u);
	// Without a bitmap, forward only moves cum.
	Fixture g(5, 0);
	EXPECT_TRUE(sctp_tsn_map_forward(&g.m, 0x7000));
	EXPECT_EQ(sctp_tsn_map_cum(&g.m), 0x7000u);
	EXPECT_EQ(checked_mark(&g.m, 0x7001), IN);
}

TEST(TsnMap, AttachAndDetach)
{
	Fixture f(1, 0); // cum 0, no bitmap: the data plane's idle association
	EXPECT_EQ(checked_mark(&f.m, 1), IN);
	EXPECT_EQ(checked_mark(&f.m, 3), OOW);
	EXPECT_EQ(sctp_tsn_map_detach(&f.m), 0) << "nothing held: detach is a no-op success";

	std::vector<uint64_t> one(1, kGarbage);
	ASSERT_EQ(sctp_tsn_map_attach(&f.m, one.data(), 1), 0);
	EXPECT_EQ(one[0], 0u) << "attach must clear the new storage";
	EXPECT_EQ(checked_mark(&f.m, 3), OOO);
	for (uint32_t t = 5; t <= 40; t++)
		ASSERT_EQ(checked_mark(&f.m, t), OOO);
	EXPECT_EQ(checked_mark(&f.m, 2), IN); // cum 3, base 2
	EXPECT_EQ(checked_mark(&f.m, 60), OOO);
	EXPECT_EQ(checked_mark(&f.m, 67), OOO); // across the ring seam
	const Gaps held = { { 2, 37 }, { 57, 57 }, { 64, 64 } };
	ASSERT_EQ(gaps_of(&f.m), held);
	EXPECT_EQ(sctp_tsn_map_detach(&f.m), -1) << "gaps remain";
	EXPECT_EQ(sctp_tsn_map_attach(&f.m, nullptr, 0), -1) << "what is held does not fit";

	// Grow to four words: content kept, base back to 0.
	std::vector<uint64_t> four(4, kGarbage);
	ASSERT_EQ(sctp_tsn_map_attach(&f.m, four.data(), 4), 0);
	EXPECT_EQ(f.m.base, 0u);
	EXPECT_EQ(gaps_of(&f.m), held);
	EXPECT_EQ(sctp_tsn_map_above(&f.m), 38u);
	EXPECT_EQ(sctp_tsn_map_highest(&f.m), 67u);
	EXPECT_EQ(four[1] | four[2] | four[3], 0u);
	EXPECT_EQ(checked_mark(&f.m, 3 + 256), OOO);
	EXPECT_EQ(checked_mark(&f.m, 3 + 257), OOW);

	// Overlapping storage and a window too small are refused, nothing changes.
	EXPECT_EQ(sctp_tsn_map_attach(&f.m, four.data(), 4), -1);
	std::vector<uint64_t> small(1, kGarbage);
	EXPECT_EQ(sctp_tsn_map_attach(&f.m, small.data(), 1), -1);
	EXPECT_EQ(small[0], kGarbage);
	EXPECT_EQ(f.m.bits, four.data());

	// Fill every hole; then the bitmap can go.
	for (uint32_t t = 4; t <= 3 + 256; t++)
		sctp_tsn_map_mark(&f.m, t);
	EXPECT_EQ(sctp_tsn_map_cum(&f.m), 259u);
	EXPECT_FALSE(sctp_tsn_map_has_gaps(&f.m));
	EXPECT_EQ(sctp_tsn_map_detach(&f.m), 0);
	EXPECT_EQ(f.m.n_words, 0u);
	EXPECT_EQ(checked_mark(&f.m, 261), OOW);
	EXPECT_EQ(checked_mark(&f.m, 260), IN);
	EXPECT_EQ(checked_mark(&f.m, 259), DUP);
}

TEST(TsnMap, ShrinkKeepsContentWhenItFits)
{
	Fixture f(1, 4); // cum 0, W 256
	for (uint32_t t : { 2u, 3u, 50u })
		ASSERT_EQ(checked_mark(&f.m, t), OOO);
	EXPECT_EQ(checked_mark(&f.m, 1), IN); // cum 3, base 3
	std::vector<uint64_t> one(1, kGarbage);
	ASSERT_EQ(sctp_tsn_map_attach(&f.m, one.data(), 1), 0);
	EXPECT_EQ(gaps_of(&f.m), (Gaps{ { 47, 47 } }));
	EXPECT_EQ(one[0], (uint64_t)1 << 46);
	EXPECT_EQ(checked_mark(&f.m, 3 + 65), OOW);
}

// ---------------------------------------------------------------------------
// Randomized model tests.

namespace {

// The reference: TSNs as unwrapped 64-bit numbers, a std::set of those held
// above cum, the duplicate list as a plain vector.
struct Model {
	uint64_t cum;
	std::set<uint64_t> held;
	std::vector<uint32_t> dups;
	unsigned seen = 0;
	unsigned max_dups;
	uint32_t words;

	enum sctp_tsn_map_verdict verdict(uint64_t u) const
	{
		uint32_t d = (uint32_t)(u - cum); // serial arithmetic on the wire value
		if (d == 1)
			return IN;
		if (d == 0 || d > 0x80000000u)
			return DUP;
		if (d > 64u * words)
			return OOW;
		return held.count(cum + d) ? DUP : OOO;
	}

	void run()
	{
		while (!held.empty() && *held.begin() == cum + 1) {
			held.erase(held.begin());
			cum++;
		}
	}

	enum sctp_tsn_map_verdict mark(uint64_t u)
	{
		enum sctp_tsn_map_verdict v = verdict(u);
		uint32_t d = (uint32_t)(u - cum);
		switch (v) {
		case IN:
			cum++;
			run();
			break;
		case OOO:
			held.insert(cum + d);
			break;
		case DUP:
			if (dups.size() < max_dups)
				dups.push_back((uint32_t)u);
			if (seen < 0xffff)
				seen++;
			break;
		case OOW:
			break;
		}
		return v;
	}

	bool forward(uint64_t u)
	{
		uint32_t d = (uint32_t)(u - cum);
		if (d == 0 || d >= 0x80000000u)
			return false;
		cum += d;
		held.erase(held.begin(), held.upper_bound(cum));
		run();
		return true;
	}

	uint64_t highest() const
	{
		return held.empty() ? cum : *held.rbegin();
	}

	Gaps gaps() const
	{
		Gaps g;
		for (uint64_t t : held) {
			uint16_t off = (uint16_t)(t - cum);
			if (!g.empty() && g.back().second + 1 == off)
				g.back().second = off;
			else
				g.emplace_back(off, off);
		}
		return g;
	}
};

::testing::AssertionResult
same(const struct sctp_tsn_map *m, const Model &ref)
{
	if (sctp_tsn_map_cum(m) != (uint32_t)ref.cum)
		return ::testing::AssertionFailure()
		       << "cum " << sctp_tsn_map_cum(m) << " want " << (uint32_t)ref.cum;
	if (sctp_tsn_map_highest(m) != (uint32_t)ref.highest())
		return ::testing::AssertionFailure() << "highest " << sctp_tsn_map_highest(m)
						     << " want " << (uint32_t)ref.highest();
	if (sctp_tsn_map_above(m) != ref.held.size())
		return ::testing::AssertionFailure()
		       << "above " << sctp_tsn_map_above(m) << " want " << ref.held.size();
	if (sctp_tsn_map_has_gaps(m) != !ref.held.empty())
		return ::testing::AssertionFailure() << "has_gaps";
	Gaps want = ref.gaps();
	bool more = true;
	if (gaps_of(m, 1u << 16, &more) != want || more)
		return ::testing::AssertionFailure()
		       << "gap blocks differ (" << want.size() << " expected)";
	// A bounded request returns the lowest blocks and says that more exist.
	for (unsigned max : { 0u, 1u, 3u }) {
		Gaps got = gaps_of(m, max, &more);
		size_t n = want.size() < max ? want.size() : max;
		if (got != Gaps(want.begin(), want.begin() + (long)n) ||
		    more != (want.size() > max))
			return ::testing::AssertionFailure() << "bounded gap blocks, max " << max;
	}
	if (dups_of(m) != ref.dups)
		return ::testing::AssertionFailure() << "dup list differs";
	if (sctp_tsn_map_dups_seen(m) != ref.seen)
		return ::testing::AssertionFailure()
		       << "dups seen " << sctp_tsn_map_dups_seen(m) << " want " << ref.seen;
	if (sctp_tsn_map_window(m) != (ref.words ? 64u * ref.words : 1u))
		return ::testing::AssertionFailure() << "window";
	return ::testing::AssertionSuccess();
}

// Storage the random test moves the map between: two bitmaps, two dup arrays.
struct Storage {
	std::vector<uint64_t> bits[2];
	std::vector<uint32_t> dups[2];
	int cur_bits = 0;
	int cur_dups = 0;

	Storage()
	{
		for (int i = 0; i < 2; i++) {
			bits[i].assign(SCTP_TSN_MAP_MAX_WORDS, kGarbage);
			dups[i].assign(64, 0xdeadbeef);
		}
	}
};

unsigned
pick_words(std::mt19937_64 &rng)
{
	static const unsigned choices[] = { 0, 1, 1, 2, 2, 3, 4, 8, 17, SCTP_TSN_MAP_MAX_WORDS };
	return choices[rng() % (sizeof(choices) / sizeof(choices[0]))];
}

std::string
where(uint64_t seed, int step, const char *what)
{
	std::ostringstream s;
	s << "seed " << seed << " step " << step << " after " << what;
	return s.str();
}

} // namespace

// Random operations: arrivals of every kind (in sequence, reordered within
// and just beyond the window, held again, behind cum, far away and half the
// space away), SACKs clearing the duplicate list, FORWARD TSN behind, inside
// and far beyond the window, storage moved, grown, shrunk, dropped.
TEST(TsnMapModel, RandomOperations)
{
	for (uint64_t seed = 1; seed <= 400; seed++) {
		std::mt19937_64 rng(seed);
		Storage st;
		Model ref;
		// Half the seeds start just below the 2^32 wrap.
		uint32_t initial =
			(seed & 1) ? 0xffffffffu - (uint32_t)(rng() % 3000) : (uint32_t)rng();
		ref.cum = (5ull << 32) + initial - 1;
		ref.words = pick_words(rng);
		ref.max_dups = (unsigned)(rng() % 9);
		struct sctp_tsn_map m;
		sctp_tsn_map_init(&m, initial, st.bits[0].data(), ref.words, st.dups[0].data(),
				  ref.max_dups);
		ASSERT_TRUE(same(&m, ref)) << where(seed, -1, "init");

		for (int step = 0; step < 3000; step++) {
			unsigned op = (unsigned)(rng() % 100);
			uint32_t w = ref.words ? 64u * ref.words : 1u;
			const char *what = "arrival";
			if (op < 80) {
				uint64_t u;
				unsigned kind = (unsigned)(rng() % 100);
				if (kind < 35)
					u = ref.cum + 1;
				else if (kind < 70)
					u = ref.cum + 1 + rng() % (w + 3);
				else if (kind < 80 && !ref.held.empty())
					u = *std::next(ref.held.begin(),
						       (long)(rng() % ref.held.size()));
				else if (kind < 90)
					u = ref.cum - rng() % 60;
				else if (kind < 95)
					u = ref.cum + w + (rng() % 2);
				else {
					static const uint64_t far[] = { 0x7fffffffull,
									0x80000000ull,
									0x80000001ull,
									0xffffffffull, 100000ull };
					u = ref.cum + far[rng() % 5];
				}
				enum sctp_tsn_map_verdict want = ref.verdict(u);
				struct sctp_tsn_map before = m;
				ASSERT_EQ(sctp_tsn_map_check(&m, (uint32_t)u), want)
					<< where(seed, step, "check") << " tsn " << (uint32_t)u;
				ASSERT_EQ(0, memcmp(&before, &m, sizeof(m)))
					<< where(seed, step, "check");
				ASSERT_EQ(sctp_tsn_map_mark(&m, (uint32_t)u), ref.mark(u))
					<< where(seed, step, "mark");
			} else if (op < 86) {
				what = "sack";
				ASSERT_TRUE(same(&m, ref)) << where(seed, step, what);
				sctp_tsn_map_clear_dups(&m);
				ref.dups.clear();
				ref.seen = 0;
			} else if (op < 90) {
				what = "forward";
				uint64_t u;
				unsigned kind = (unsigned)(rng() % 4);
				if (kind == 0)
					u = ref.cum - rng() % 10;
				else if (kind == 3)
					u = ref.cum + 1 + rng() % 200000;
				else
					u = ref.cum + 1 + rng() % (ref.highest() - ref.cum + 3);
				ASSERT_EQ(sctp_tsn_map_forward(&m, (uint32_t)u), ref.forward(u))
					<< where(seed, step, what);
			} else if (op < 95) {
				what = "attach";
				unsigned nw = pick_words(rng);
				int next = 1 - st.cur_bits;
				std::fill(st.bits[next].begin(), st.bits[next].end(), kGarbage);
				bool fits = ref.highest() - ref.cum <= 64u * nw;
				int rc = sctp_tsn_map_attach(
					&m, nw ? st.bits[next].data() : nullptr, nw);
				ASSERT_EQ(rc, fits ? 0 : -1)
					<< where(seed, step, what) << " words " << nw;
				if (rc == 0) {
					st.cur_bits = next;
					ref.words = nw;
					for (unsigned i = nw; i < SCTP_TSN_MAP_MAX_WORDS; i++)
						ASSERT_EQ(st.bits[next][i], kGarbage)
							<< where(seed, step,
								 "attach wrote past its storage");
				}
			} else if (op < 97) {
				what = "detach";
				int rc = sctp_tsn_map_detach(&m);
				ASSERT_EQ(rc, ref.held.empty() ? 0 : -1) << where(seed, step, what);
				if (rc == 0)
					ref.words = 0;
			} else {
				what = "attach_dups";
				unsigned nd = (unsigned)(rng() % 9);
				int next = 1 - st.cur_dups;
				sctp_tsn_map_attach_dups(&m, nd ? st.dups[next].data() : nullptr,
							 nd);
				st.cur_dups = next;
				if (ref.seen > ref.max_dups && nd > ref.max_dups)
					ref.seen = ref.max_dups;
				if (ref.dups.size() > nd)
					ref.dups.resize(nd);
				ref.max_dups = nd;
			}
			ASSERT_TRUE(same(&m, ref)) << where(seed, step, what);
		}
	}
}

// Thousands of whole transfers: N TSNs, each arriving displaced by up to D
// places, some duplicated, some starting near the 2^32 wrap. The bitmap is
// attached lazily the way the data plane does it (none until a TSN arrives
// out of order, detached once the gaps close); a TSN refused for lack of
// window is "retransmitted" later. At the end every TSN is acknowledged.
TEST(TsnMapModel, ReorderedTransfers)
{
	for (uint64_t seed = 1; seed <= 2000; seed++) {
		std::mt19937_64 rng(seed * 7919);
		unsigned n = 50 + (unsigned)(rng() % 1000);
		unsigned disp = (unsigned)(rng() % 200);
		unsigned dup_pct = (unsigned)(rng() % 20);
		unsigned words = 1 + (unsigned)(rng() % 4);
		uint32_t initial = (seed % 3 == 0) ? 0xffffffffu - (uint32_t)(rng() % (2 * n))
						   : (uint32_t)rng();
		uint64_t first = (5ull << 32) + initial;

		// Arrival schedule: (time, tsn); time = index + displacement.
		std::multimap<uint64_t, uint64_t> sched;
		for (unsigned i = 0; i < n; i++) {
			uint64_t t = i + (disp ? rng() % disp : 0);
			sched.emplace(t, first + i);
			if (rng() % 100 < dup_pct)
				sched.emplace(t + rng() % (disp + 5), first + i);
		}

		std::vector<uint64_t> bits(words, kGarbage);
		std::vector<uint32_t> dups(4, 0xdeadbeef);
		struct sctp_tsn_map m;
		sctp_tsn_map_init(&m, initial, nullptr, 0, dups.data(), 4);
		Model ref;
		ref.cum = first - 1;
		ref.words = 0;
		ref.max_dups = 4;

		int step = 0;
		while (!sched.empty()) {
			auto it = sched.begin();
			uint64_t now = it->first;
			uint64_t u = it->second;
			sched.erase(it);
			enum sctp_tsn_map_verdict v = sctp_tsn_map_check(&m, (uint32_t)u);
			if (v == OOW && m.n_words == 0) {
				// The data plane's lazy attach: a bitmap once one is needed.
				ASSERT_EQ(sctp_tsn_map_attach(&m, bits.data(), words), 0)
					<< where(seed, step, "lazy attach");
				ref.words = words;
				v = sctp_tsn_map_check(&m, (uint32_t)u);
			}
			ASSERT_EQ(v, ref.verdict(u)) << where(seed, step, "check");
			ASSERT_EQ(sctp_tsn_map_mark(&m, (uint32_t)u), ref.mark(u))
				<< where(seed, step, "mark");
			if (v == OOW)
				sched.emplace(now + 1 + rng() % (disp + 10), u); // retransmission
			if (m.n_words != 0 && !sctp_tsn_map_has_gaps(&m) && rng() % 4 == 0) {
				ASSERT_EQ(sctp_tsn_map_detach(&m), 0)
					<< where(seed, step, "detach");
				ref.words = 0;
			}
			if (rng() % 16 == 0) {
				ASSERT_TRUE(same(&m, ref)) << where(seed, step, "arrival");
				sctp_tsn_map_clear_dups(&m);
				ref.dups.clear();
				ref.seen = 0;
			}
			ASSERT_TRUE(same(&m, ref)) << where(seed, step, "arrival");
			step++;
		}
		ASSERT_EQ(sctp_tsn_map_cum(&m), (uint32_t)(first + n - 1)) << "seed " << seed;
		ASSERT_FALSE(sctp_tsn_map_has_gaps(&m)) << "seed " << seed;
	}
}
