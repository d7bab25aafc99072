// SPDX-License-Identifier: BSD-3-Clause
// AUTH chunk, RFC 4895 §4.1: parse, build (with the HMAC or zeroed for the
// HMAC computation), round trip, malformed lengths.
#include <gtest/gtest.h>

#include <string>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk_auth.h"
}

using namespace codec_test;

// Key 0, HMAC-SHA-1 (1), 20 bytes of HMAC.
const std::string kAuth = "0f00 001c 0000 0001 000102030405060708090a0b0c0d0e0f10111213";

TEST(AuthChunk, ParsesEveryField)
{
	Bytes pkt;
	struct sctp_chunk c;
	struct sctp_auth a;
	ASSERT_EQ(walk_chunk(pkt, kAuth, &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_auth_parse(&c, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.flags, 0);
	EXPECT_EQ(a.key_id, 0);
	EXPECT_EQ(a.hmac_id, 1);
	ASSERT_EQ(a.hmac_len, 20);
	EXPECT_EQ(a.hmac, pkt.data() + 12 + 8);
	EXPECT_EQ(a.hmac[19], 0x13);
}

TEST(AuthChunk, BuildsFromHostValues)
{
	uint8_t hmac[32];
	for (int i = 0; i < 32; i++)
		hmac[i] = static_cast<uint8_t>(0xa0 + i);
	struct sctp_auth a {};
	a.key_id = 0x1234;
	a.hmac_id = 3; // SHA-256
	a.hmac = hmac;
	a.hmac_len = 32;
	auto out = build(sctp_auth_build, &a);
	std::string want = "0f000028 12340003";
	for (int i = 0; i < 32; i += 4)
		want += " " + hex::dump(hmac + i, 4);
	EXPECT_EQ(hex::dump(out), want);
}

TEST(AuthChunk, BuildsZeroedHmacForTheComputation)
{
	struct sctp_auth a {};
	a.key_id = 1;
	a.hmac_id = 1;
	a.hmac = nullptr;
	a.hmac_len = 20;
	auto out = build(sctp_auth_build, &a);
	EXPECT_EQ(hex::dump(out), "0f00001c 00010001 00000000 00000000 00000000 00000000 00000000");
}

TEST(AuthChunk, RoundTrip)
{
	const std::string vectors[] = {
		kAuth,
		"0f00 0008 0005 0002",		 // empty HMAC: judged by the auth code
		"0fff 000b ffff ffff 010203 00", // odd HMAC length, flags kept
	};
	for (const auto &v : vectors)
		expect_chunk_round_trip(sctp_auth_parse, sctp_auth_build, v);
}

TEST(AuthChunk, LengthBelowFixedPart)
{
	EXPECT_EQ(chunk_verdict(sctp_auth_parse, "0f00 0004"), SCTP_PERR_CHUNK_LEN_FIXED);
	EXPECT_EQ(chunk_verdict(sctp_auth_parse, "0f00 0006 0001 0000"), SCTP_PERR_CHUNK_LEN_FIXED);
}

TEST(AuthChunk, LengthBelowHeader)
{
	EXPECT_EQ(walker_verdict("0f00 0003 00000000"), SCTP_PERR_CHUNK_LEN_SHORT);
	EXPECT_EQ(raw_verdict(sctp_auth_parse, "0f00 0003"), SCTP_PERR_CHUNK_LEN_FIXED);
}

TEST(AuthChunk, TruncatedAndPastEnd)
{
	EXPECT_EQ(walker_verdict("0f00 001c 0000 0001 00010203"), SCTP_PERR_CHUNK_LEN_OVERRUN);
	EXPECT_EQ(walker_verdict("0f00"), SCTP_PERR_CHUNK_TRUNCATED);
}
