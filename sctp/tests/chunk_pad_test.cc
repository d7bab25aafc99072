// SPDX-License-Identifier: BSD-3-Clause
// PAD chunk, RFC 4820 §3: parse, build (copied or zero padding), round trip,
// malformed lengths.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk_pad.h"
}

using namespace codec_test;

TEST(PadChunk, ParsesEveryField)
{
	Bytes pkt;
	struct sctp_chunk c;
	struct sctp_pad p;
	ASSERT_EQ(walk_chunk(pkt, "8400 000a 000102030405 0000", &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_pad_parse(&c, &p), SCTP_PERR_OK);
	EXPECT_EQ(p.flags, 0);
	ASSERT_EQ(p.len, 6);
	EXPECT_EQ(p.data, pkt.data() + 12 + 4);
	EXPECT_EQ(hex::dump(p.data, p.len), "00010203 0405");

	ASSERT_EQ(walk_chunk(pkt, "8400 0004", &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_pad_parse(&c, &p), SCTP_PERR_OK);
	EXPECT_EQ(p.len, 0);
}

TEST(PadChunk, BuildsZeroPadding)
{
	struct sctp_pad p {};
	p.len = 5;
	auto out = build(sctp_pad_build, &p);
	EXPECT_EQ(hex::dump(out), "84000009 00000000 00000000");
}

TEST(PadChunk, BuildsGivenBytes)
{
	const uint8_t data[] = { 0xde, 0xad, 0xbe, 0xef };
	struct sctp_pad p {};
	p.data = data;
	p.len = 4;
	auto out = build(sctp_pad_build, &p);
	EXPECT_EQ(hex::dump(out), "84000008 deadbeef");
}

TEST(PadChunk, RoundTrip)
{
	const std::string vectors[] = {
		"8400 000a 000102030405 0000",
		"8400 0004",
		"84ff 0005 ff 000000",
	};
	for (const auto &v : vectors)
		expect_chunk_round_trip(sctp_pad_parse, sctp_pad_build, v);
}

TEST(PadChunk, BuildOverflowIsStickyAndBounded)
{
	struct sctp_pad p {};
	p.len = 100;
	std::vector<uint8_t> buf(64, 0xee);
	struct sctp_writer w = sctp_writer_make(buf.data(), 32);
	sctp_pad_build(&w, &p);
	EXPECT_FALSE(sctp_writer_ok(&w));
	for (size_t i = 32; i < buf.size(); i++)
		EXPECT_EQ(buf[i], 0xee);
}

TEST(PadChunk, LengthBelowHeader)
{
	EXPECT_EQ(walker_verdict("8400 0003 00000000"), SCTP_PERR_CHUNK_LEN_SHORT);
	EXPECT_EQ(raw_verdict(sctp_pad_parse, "8400 0000"), SCTP_PERR_CHUNK_LEN_SHORT);
}

TEST(PadChunk, TruncatedAndPastEnd)
{
	EXPECT_EQ(walker_verdict("8400 0010 00000000"), SCTP_PERR_CHUNK_LEN_OVERRUN);
	EXPECT_EQ(walker_verdict("8400 00"), SCTP_PERR_CHUNK_TRUNCATED);
	EXPECT_EQ(walker_verdict("8400 0006 0000"), SCTP_PERR_CHUNK_PAD_MISSING);
}
