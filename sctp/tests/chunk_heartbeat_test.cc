// SPDX-License-Identifier: BSD-3-Clause
// HEARTBEAT (RFC 9260 §3.3.5) and HEARTBEAT ACK (§3.3.6): parse, build, round
// trip, and values that are not exactly one Heartbeat Info parameter.
#include <gtest/gtest.h>

#include <string>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk_heartbeat.h"
}

using namespace codec_test;

// 6 bytes of info: parameter length 10, chunk length 14, 2 bytes of padding.
const std::string kHeartbeat = "0400 000e 0001 000a 010203040506 0000";
const std::string kHeartbeatAck = "0500 0010 0001 000c 1122334455667788";

TEST(HeartbeatChunk, ParsesEveryField)
{
	Bytes pkt;
	struct sctp_chunk c;
	struct sctp_heartbeat hb;
	ASSERT_EQ(walk_chunk(pkt, kHeartbeat, &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_heartbeat_parse(&c, &hb), SCTP_PERR_OK);
	EXPECT_EQ(hb.type, SCTP_CHUNK_HEARTBEAT);
	EXPECT_EQ(hb.flags, 0);
	ASSERT_EQ(hb.info_len, 6);
	EXPECT_EQ(hb.info, pkt.data() + 12 + 8);
	EXPECT_EQ(hex::dump(hb.info, hb.info_len), "01020304 0506");

	ASSERT_EQ(walk_chunk(pkt, kHeartbeatAck, &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_heartbeat_parse(&c, &hb), SCTP_PERR_OK);
	EXPECT_EQ(hb.type, SCTP_CHUNK_HEARTBEAT_ACK);
	EXPECT_EQ(hex::dump(hb.info, hb.info_len), "11223344 55667788");
}

TEST(HeartbeatChunk, BuildsFromHostValues)
{
	const uint8_t info[] = { 1, 2, 3, 4, 5, 6 };
	struct sctp_heartbeat hb {};
	hb.type = SCTP_CHUNK_HEARTBEAT;
	hb.info = info;
	hb.info_len = sizeof(info);
	auto out = build(sctp_heartbeat_build, &hb);
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(kHeartbeat)));
}

TEST(HeartbeatChunk, AckEchoesTheInfo)
{
	Bytes pkt;
	struct sctp_chunk c;
	struct sctp_heartbeat hb;
	ASSERT_EQ(walk_chunk(pkt, kHeartbeat, &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_heartbeat_parse(&c, &hb), SCTP_PERR_OK);
	hb.type = SCTP_CHUNK_HEARTBEAT_ACK;
	auto out = build(sctp_heartbeat_build, &hb);
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes("0500 000e 0001 000a 010203040506 0000")));
}

TEST(HeartbeatChunk, RoundTrip)
{
	const std::string vectors[] = {
		kHeartbeat,
		kHeartbeatAck,
		"04ff 0008 0001 0004", // empty info, flags kept
		"0400 0009 0001 0005 aa 000000",
	};
	for (const auto &v : vectors)
		expect_chunk_round_trip(sctp_heartbeat_parse, sctp_heartbeat_build, v);
}

TEST(HeartbeatChunk, AcceptsPaddingCountedInTheChunkLength)
{
	// Not canonical (RFC 9260 §3.2 says the last parameter's padding is not
	// counted) but harmless; it is rebuilt in the canonical form.
	Bytes pkt;
	struct sctp_chunk c;
	struct sctp_heartbeat hb;
	ASSERT_EQ(walk_chunk(pkt, "0400 0010 0001 000a 010203040506 0000", &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_heartbeat_parse(&c, &hb), SCTP_PERR_OK);
	EXPECT_EQ(hb.info_len, 6);
	auto out = build(sctp_heartbeat_build, &hb);
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(kHeartbeat)));
}

TEST(HeartbeatChunk, NotOneHeartbeatInfo)
{
	struct {
		const char *hex;
		enum sctp_parse_err err;
	} cases[] = {
		// Parameter type 2 instead of 1.
		{ "0400 000c 0002 0008 01020304", SCTP_PERR_HEARTBEAT_INFO },
		// Bytes after the parameter.
		{ "0400 0014 0001 0008 01020304 aabbccdd 00000000", SCTP_PERR_HEARTBEAT_INFO },
		// Parameter length below its header.
		{ "0400 000c 0001 0003 01020304", SCTP_PERR_PARAM_LEN_SHORT },
		{ "0400 0008 0001 0000", SCTP_PERR_PARAM_LEN_SHORT },
		// Parameter length past the chunk.
		{ "0400 000c 0001 000c 01020304", SCTP_PERR_PARAM_LEN_OVERRUN },
		{ "0400 0008 0001 ffff", SCTP_PERR_PARAM_LEN_OVERRUN },
	};
	for (const auto &k : cases)
		EXPECT_EQ(chunk_verdict(sctp_heartbeat_parse, k.hex), k.err) << k.hex;
}

TEST(HeartbeatChunk, LengthBelowFixedPart)
{
	EXPECT_EQ(chunk_verdict(sctp_heartbeat_parse, "0400 0004"), SCTP_PERR_CHUNK_LEN_FIXED);
	EXPECT_EQ(chunk_verdict(sctp_heartbeat_parse, "0500 0007 000100 00"),
		  SCTP_PERR_CHUNK_LEN_FIXED);
}

TEST(HeartbeatChunk, LengthBelowHeader)
{
	EXPECT_EQ(walker_verdict("0400 0003 00000000"), SCTP_PERR_CHUNK_LEN_SHORT);
	EXPECT_EQ(raw_verdict(sctp_heartbeat_parse, "0400 0003"), SCTP_PERR_CHUNK_LEN_FIXED);
}

TEST(HeartbeatChunk, TruncatedAndPastEnd)
{
	EXPECT_EQ(walker_verdict("0400 000e 0001 000a 0102"), SCTP_PERR_CHUNK_LEN_OVERRUN);
	EXPECT_EQ(walker_verdict("04"), SCTP_PERR_CHUNK_TRUNCATED);
	EXPECT_EQ(walker_verdict("0400 0100 0001 00fc 01020304"), SCTP_PERR_CHUNK_LEN_OVERRUN);
}
