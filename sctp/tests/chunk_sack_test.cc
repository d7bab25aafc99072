// SPDX-License-Identifier: BSD-3-Clause
// SACK (RFC 9260 §3.3.4) and NR-SACK chunks: parse, accessors, build from host
// values, round trip, and counts that do not match the length.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk_sack.h"
}

using namespace codec_test;

// Cum TSN 0x100, a_rwnd 65536, gap blocks 2-3 and 5-5, duplicate TSN 0xfe.
const std::string kSack = "0300 001c 00000100 00010000 0002 0001 0002 0003 0005 0005 000000fe";
// NR-SACK, A flag: one R gap block 2-4, one NR gap block 6-6, duplicate TSN 10.
const std::string kNrSack =
	"1001 0020 00000010 00001000 0001 0001 0001 0000 0002 0004 0006 0006 0000000a";

TEST(SackChunk, ParsesEveryField)
{
	Bytes pkt;
	struct sctp_chunk c;
	ASSERT_EQ(walk_chunk(pkt, kSack, &c), SCTP_PERR_OK);
	struct sctp_sack s;
	ASSERT_EQ(sctp_sack_parse(&c, &s), SCTP_PERR_OK);
	EXPECT_EQ(s.type, SCTP_CHUNK_SACK);
	EXPECT_EQ(s.flags, 0);
	EXPECT_EQ(s.cum_tsn, 0x100u);
	EXPECT_EQ(s.a_rwnd, 65536u);
	ASSERT_EQ(s.n_gaps, 2);
	EXPECT_EQ(s.n_nr_gaps, 0);
	ASSERT_EQ(s.n_dups, 1);
	EXPECT_EQ(sctp_sack_gap_block(&s, 0).start, 2);
	EXPECT_EQ(sctp_sack_gap_block(&s, 0).end, 3);
	EXPECT_EQ(sctp_sack_gap_block(&s, 1).start, 5);
	EXPECT_EQ(sctp_sack_gap_block(&s, 1).end, 5);
	EXPECT_EQ(sctp_sack_dup_tsn(&s, 0), 0xfeu);
	EXPECT_EQ(s.gaps, pkt.data() + 12 + 16);
	EXPECT_EQ(s.dups, pkt.data() + 12 + 24);
}

TEST(SackChunk, ParsesNrSack)
{
	Bytes pkt;
	struct sctp_chunk c;
	ASSERT_EQ(walk_chunk(pkt, kNrSack, &c), SCTP_PERR_OK);
	struct sctp_sack s;
	ASSERT_EQ(sctp_sack_parse(&c, &s), SCTP_PERR_OK);
	EXPECT_EQ(s.type, SCTP_CHUNK_NR_SACK);
	EXPECT_EQ(s.flags, 1);
	EXPECT_EQ(s.cum_tsn, 0x10u);
	EXPECT_EQ(s.a_rwnd, 0x1000u);
	ASSERT_EQ(s.n_gaps, 1);
	ASSERT_EQ(s.n_nr_gaps, 1);
	ASSERT_EQ(s.n_dups, 1);
	EXPECT_EQ(s.reserved, 0);
	EXPECT_EQ(sctp_sack_gap_block(&s, 0).start, 2);
	EXPECT_EQ(sctp_sack_gap_block(&s, 0).end, 4);
	EXPECT_EQ(sctp_sack_nr_gap_block(&s, 0).start, 6);
	EXPECT_EQ(sctp_sack_nr_gap_block(&s, 0).end, 6);
	EXPECT_EQ(sctp_sack_dup_tsn(&s, 0), 10u);
}

TEST(SackChunk, BuildsFromHostValues)
{
	const struct sctp_sack_gap gaps[] = { { 2, 3 }, { 5, 5 } };
	const uint32_t dups[] = { 0xfe };
	auto out = build([&](struct sctp_writer *w) {
		sctp_sack_build_from(w, 0, 0x100, 65536, gaps, 2, dups, 1);
	});
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(kSack)));

	auto empty = build([&](struct sctp_writer *w) {
		sctp_sack_build_from(w, 0, 7, 1500, nullptr, 0, nullptr, 0);
	});
	EXPECT_EQ(hex::dump(empty), hex::dump(hex::bytes("0300 0010 00000007 000005dc 0000 0000")));
}

TEST(SackChunk, BuildFromRefusesMoreThanTheLengthCanSay)
{
	// 16 + 4 * 16380 > 65535.
	std::vector<struct sctp_sack_gap> gaps(16380, { 1, 1 });
	std::vector<uint8_t> buf(1 << 17);
	struct sctp_writer w = sctp_writer_make(buf.data(), buf.size());
	sctp_sack_build_from(&w, 0, 0, 0, gaps.data(), static_cast<uint16_t>(gaps.size()), nullptr,
			     0);
	EXPECT_FALSE(sctp_writer_ok(&w));
	// 16379 fits exactly: 16 + 4 * 16379 = 65532.
	w = sctp_writer_make(buf.data(), buf.size());
	sctp_sack_build_from(&w, 0, 0, 0, gaps.data(), 16379, nullptr, 0);
	EXPECT_TRUE(sctp_writer_ok(&w));
	EXPECT_EQ(w.off, 65532u);
}

TEST(SackChunk, RoundTrip)
{
	const std::string vectors[] = {
		kSack,
		kNrSack,
		"0300 0010 ffffffff 00000000 0000 0000",	   // nothing to report
		"03ff 0014 00000001 00000002 0000 0001 00000003",  // flags kept, dups only
		"1000 0014 00000001 00000002 0000 0000 0000 ffff", // NR-SACK reserved kept
	};
	for (const auto &v : vectors)
		expect_chunk_round_trip(sctp_sack_parse, sctp_sack_build, v);
}

TEST(SackChunk, CountsMustMatchLength)
{
	const std::string bad[] = {
		// One gap block announced, none present.
		"0300 0010 00000001 00000000 0001 0000",
		// 65535 gap blocks claimed in a 16-byte chunk.
		"0300 0010 00000001 00000000 ffff 0000",
		// 65535 of each.
		"0300 0014 00000001 00000000 ffff ffff 00000000",
		// One block too many on the wire.
		"0300 0018 00000001 00000000 0001 0000 0001 0001 0002 0002",
		// Two bytes of trailing junk.
		"0300 0012 00000001 00000000 0000 0000 0000 0000",
		// NR-SACK: the NR count is not covered.
		"1000 0018 00000001 00000000 0001 0001 0000 0000 0001 0001",
		"1000 0014 00000001 00000000 0000 0000 ffff 0000",
	};
	for (const auto &v : bad)
		EXPECT_EQ(chunk_verdict(sctp_sack_parse, v), SCTP_PERR_SACK_LEN_MISMATCH) << v;
}

TEST(SackChunk, LengthBelowFixedPart)
{
	EXPECT_EQ(chunk_verdict(sctp_sack_parse, "0300 000c 00000001 00000000"),
		  SCTP_PERR_CHUNK_LEN_FIXED);
	EXPECT_EQ(chunk_verdict(sctp_sack_parse, "0300 0004"), SCTP_PERR_CHUNK_LEN_FIXED);
	// A SACK-sized NR-SACK lacks the second counts word.
	EXPECT_EQ(chunk_verdict(sctp_sack_parse, "1000 0010 00000001 00000000 0000 0000"),
		  SCTP_PERR_CHUNK_LEN_FIXED);
}

TEST(SackChunk, LengthBelowHeader)
{
	EXPECT_EQ(walker_verdict("0300 0000 00000000"), SCTP_PERR_CHUNK_LEN_SHORT);
	EXPECT_EQ(raw_verdict(sctp_sack_parse, "0300 0001"), SCTP_PERR_CHUNK_LEN_FIXED);
}

TEST(SackChunk, TruncatedAndPastEnd)
{
	EXPECT_EQ(walker_verdict("0300 001c 00000100 00010000 0002 0001 0002 0003"),
		  SCTP_PERR_CHUNK_LEN_OVERRUN);
	EXPECT_EQ(walker_verdict("0300"), SCTP_PERR_CHUNK_TRUNCATED);
	EXPECT_EQ(walker_verdict("0300 fffc 00000100 00010000 ffff 0000"),
		  SCTP_PERR_CHUNK_LEN_OVERRUN);
}
