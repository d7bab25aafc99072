// SPDX-License-Identifier: BSD-3-Clause
// SHUTDOWN (RFC 9260 §3.3.8), SHUTDOWN ACK (§3.3.9), SHUTDOWN COMPLETE
// (§3.3.13): parse, build, round trip, and every length but the right one.
#include <gtest/gtest.h>

#include <string>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk_shutdown.h"
}

using namespace codec_test;

TEST(ShutdownChunk, ParsesEveryField)
{
	Bytes pkt;
	struct sctp_chunk c;
	struct sctp_shutdown s;

	ASSERT_EQ(walk_chunk(pkt, "0700 0008 deadbeef", &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_shutdown_parse(&c, &s), SCTP_PERR_OK);
	EXPECT_EQ(s.type, SCTP_CHUNK_SHUTDOWN);
	EXPECT_EQ(s.flags, 0);
	EXPECT_EQ(s.cum_tsn, 0xdeadbeefu);

	ASSERT_EQ(walk_chunk(pkt, "0800 0004", &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_shutdown_parse(&c, &s), SCTP_PERR_OK);
	EXPECT_EQ(s.type, SCTP_CHUNK_SHUTDOWN_ACK);
	EXPECT_EQ(s.cum_tsn, 0u);

	ASSERT_EQ(walk_chunk(pkt, "0e01 0004", &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_shutdown_parse(&c, &s), SCTP_PERR_OK);
	EXPECT_EQ(s.type, SCTP_CHUNK_SHUTDOWN_COMPLETE);
	EXPECT_EQ(s.flags, SCTP_FLAG_T);
}

TEST(ShutdownChunk, BuildsFromHostValues)
{
	struct sctp_shutdown s {};
	s.type = SCTP_CHUNK_SHUTDOWN;
	s.cum_tsn = 0x01020304;
	auto out = build(sctp_shutdown_build, &s);
	EXPECT_EQ(hex::dump(out), "07000008 01020304");

	s.type = SCTP_CHUNK_SHUTDOWN_ACK; // cum_tsn is not written
	out = build(sctp_shutdown_build, &s);
	EXPECT_EQ(hex::dump(out), "08000004");

	s.type = SCTP_CHUNK_SHUTDOWN_COMPLETE;
	s.flags = SCTP_FLAG_T;
	out = build(sctp_shutdown_build, &s);
	EXPECT_EQ(hex::dump(out), "0e010004");
}

TEST(ShutdownChunk, RoundTrip)
{
	const std::string vectors[] = {
		"0700 0008 deadbeef", "07ff 0008 00000000", "0800 0004",
		"08a5 0004",	      "0e00 0004",	    "0e01 0004",
		"0efe 0004", // reserved bits kept
	};
	for (const auto &v : vectors)
		expect_chunk_round_trip(sctp_shutdown_parse, sctp_shutdown_build, v);
}

TEST(ShutdownChunk, WrongExactLength)
{
	const std::string bad[] = {
		"0700 0004",		       // SHUTDOWN below its fixed part
		"0700 0007 deadbe 00",	       // one byte short
		"0700 000c deadbeef 00000000", // trailing word
		"0800 0008 00000000",	       // SHUTDOWN ACK with a value
		"0800 0005 00 000000",
		"0e01 0008 00000000", // SHUTDOWN COMPLETE with a value
	};
	for (const auto &v : bad)
		EXPECT_EQ(chunk_verdict(sctp_shutdown_parse, v), SCTP_PERR_CHUNK_LEN_EXACT) << v;
}

TEST(ShutdownChunk, LengthBelowHeader)
{
	EXPECT_EQ(walker_verdict("0700 0002 00000000"), SCTP_PERR_CHUNK_LEN_SHORT);
	for (const char *h : { "0700 0002", "0800 0000", "0e01 0003" })
		EXPECT_EQ(raw_verdict(sctp_shutdown_parse, h), SCTP_PERR_CHUNK_LEN_EXACT) << h;
}

TEST(ShutdownChunk, TruncatedAndPastEnd)
{
	EXPECT_EQ(walker_verdict("0700 0008 dead"), SCTP_PERR_CHUNK_LEN_OVERRUN);
	EXPECT_EQ(walker_verdict("0700 00"), SCTP_PERR_CHUNK_TRUNCATED);
	EXPECT_EQ(walker_verdict("0800 0010"), SCTP_PERR_CHUNK_LEN_OVERRUN);
	// SHUTDOWN COMPLETE travels alone (RFC 9260 §6.10).
	EXPECT_EQ(walker_verdict("0e00 0004 0800 0004"), SCTP_PERR_CHUNK_NOT_ALONE);
}
