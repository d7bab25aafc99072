// SPDX-License-Identifier: BSD-3-Clause
// ECNE and CWR (RFC 9260 Appendix A), with the 12-byte ECNE that FreeBSD and
// usrsctp send: parse, build, round trip, wrong lengths.
#include <gtest/gtest.h>

#include <string>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk_ecn.h"
}

using namespace codec_test;

TEST(EcnChunk, ParsesEveryField)
{
	Bytes pkt;
	struct sctp_chunk c;
	struct sctp_ecn e;

	ASSERT_EQ(walk_chunk(pkt, "0c00 0008 0000abcd", &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_ecn_parse(&c, &e), SCTP_PERR_OK);
	EXPECT_EQ(e.type, SCTP_CHUNK_ECNE);
	EXPECT_EQ(e.flags, 0);
	EXPECT_EQ(e.lowest_tsn, 0xabcdu);
	EXPECT_FALSE(e.has_pkt_count);
	EXPECT_EQ(e.pkts_since_cwr, 0u);

	ASSERT_EQ(walk_chunk(pkt, "0c00 000c 0000abcd 00000003", &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_ecn_parse(&c, &e), SCTP_PERR_OK);
	EXPECT_EQ(e.lowest_tsn, 0xabcdu);
	EXPECT_TRUE(e.has_pkt_count);
	EXPECT_EQ(e.pkts_since_cwr, 3u);

	ASSERT_EQ(walk_chunk(pkt, "0d00 0008 fffffffe", &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_ecn_parse(&c, &e), SCTP_PERR_OK);
	EXPECT_EQ(e.type, SCTP_CHUNK_CWR);
	EXPECT_EQ(e.lowest_tsn, 0xfffffffeu);
	EXPECT_FALSE(e.has_pkt_count);
}

TEST(EcnChunk, BuildsFromHostValues)
{
	struct sctp_ecn e {};
	e.type = SCTP_CHUNK_ECNE;
	e.lowest_tsn = 0x11223344;
	auto out = build(sctp_ecn_build, &e);
	EXPECT_EQ(hex::dump(out), "0c000008 11223344");

	e.has_pkt_count = true;
	e.pkts_since_cwr = 9;
	out = build(sctp_ecn_build, &e);
	EXPECT_EQ(hex::dump(out), "0c00000c 11223344 00000009");

	e.type = SCTP_CHUNK_CWR; // CWR never carries the count
	out = build(sctp_ecn_build, &e);
	EXPECT_EQ(hex::dump(out), "0d000008 11223344");
}

TEST(EcnChunk, RoundTrip)
{
	const std::string vectors[] = {
		"0c00 0008 0000abcd", "0c00 000c 0000abcd 00000003", "0d00 0008 fffffffe",
		"0dff 0008 00000001", "0c80 000c 00000001 ffffffff",
	};
	for (const auto &v : vectors)
		expect_chunk_round_trip(sctp_ecn_parse, sctp_ecn_build, v);
}

TEST(EcnChunk, WrongExactLength)
{
	const std::string bad[] = {
		"0c00 0004",
		"0c00 0007 000000 00",
		"0c00 000a 00000000 0000 0000",
		"0c00 0010 00000000 00000000 00000000",
		"0d00 0004",
		"0d00 000c 00000000 00000000", // only ECNE has the long form
	};
	for (const auto &v : bad)
		EXPECT_EQ(chunk_verdict(sctp_ecn_parse, v), SCTP_PERR_CHUNK_LEN_EXACT) << v;
}

TEST(EcnChunk, LengthBelowHeader)
{
	EXPECT_EQ(walker_verdict("0c00 0001 00000000"), SCTP_PERR_CHUNK_LEN_SHORT);
	EXPECT_EQ(raw_verdict(sctp_ecn_parse, "0d00 0001"), SCTP_PERR_CHUNK_LEN_EXACT);
}

TEST(EcnChunk, TruncatedAndPastEnd)
{
	EXPECT_EQ(walker_verdict("0c00 0008 0000"), SCTP_PERR_CHUNK_LEN_OVERRUN);
	EXPECT_EQ(walker_verdict("0c00 000c 0000abcd"), SCTP_PERR_CHUNK_LEN_OVERRUN);
	EXPECT_EQ(walker_verdict("0d"), SCTP_PERR_CHUNK_TRUNCATED);
}
