// SPDX-License-Identifier: BSD-3-Clause
// COOKIE ECHO (RFC 9260 §3.3.11) and COOKIE ACK (§3.3.12): parse, build, round
// trip, malformed lengths.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk_cookie.h"
}

using namespace codec_test;

// A 7-byte cookie: chunk length 11, one byte of padding.
const std::string kEcho = "0a00 000b 636f6f6b696521 00";

TEST(CookieChunk, ParsesEveryField)
{
	Bytes pkt;
	struct sctp_chunk c;
	struct sctp_cookie k;

	ASSERT_EQ(walk_chunk(pkt, kEcho, &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_cookie_parse(&c, &k), SCTP_PERR_OK);
	EXPECT_EQ(k.type, SCTP_CHUNK_COOKIE_ECHO);
	EXPECT_EQ(k.flags, 0);
	ASSERT_EQ(k.cookie_len, 7);
	EXPECT_EQ(k.cookie, pkt.data() + 12 + 4);
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(k.cookie), k.cookie_len), "cookie!");

	ASSERT_EQ(walk_chunk(pkt, "0b00 0004", &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_cookie_parse(&c, &k), SCTP_PERR_OK);
	EXPECT_EQ(k.type, SCTP_CHUNK_COOKIE_ACK);
	EXPECT_EQ(k.cookie_len, 0);
	EXPECT_EQ(k.cookie, nullptr);
}

TEST(CookieChunk, BuildsFromHostValues)
{
	const char cookie[] = "cookie!";
	struct sctp_cookie k {};
	k.type = SCTP_CHUNK_COOKIE_ECHO;
	k.cookie = reinterpret_cast<const uint8_t *>(cookie);
	k.cookie_len = 7;
	auto out = build(sctp_cookie_build, &k);
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(kEcho)));

	k.type = SCTP_CHUNK_COOKIE_ACK; // the cookie is not written
	out = build(sctp_cookie_build, &k);
	EXPECT_EQ(hex::dump(out), "0b000004");
}

TEST(CookieChunk, RoundTrip)
{
	const std::string vectors[] = {
		kEcho,
		"0a00 0004",	      // empty cookie: the cookie's owner judges it
		"0aff 0008 00010203", // flags kept
		"0b00 0004",
		"0b5a 0004",
	};
	for (const auto &v : vectors)
		expect_chunk_round_trip(sctp_cookie_parse, sctp_cookie_build, v);
}

TEST(CookieChunk, LargeCookie)
{
	std::vector<uint8_t> cookie(65531, 0x42);
	struct sctp_cookie k {};
	k.type = SCTP_CHUNK_COOKIE_ECHO;
	k.cookie = cookie.data();
	k.cookie_len = static_cast<uint16_t>(cookie.size());
	auto out = build(sctp_cookie_build, &k);
	ASSERT_EQ(out.size(), 65536u);
	EXPECT_EQ(out[2], 0xff);
	EXPECT_EQ(out[3], 0xff);

	std::vector<uint8_t> buf(1 << 17);
	struct sctp_writer w = sctp_writer_make(buf.data(), buf.size());
	cookie.push_back(0);
	k.cookie = cookie.data();
	k.cookie_len = static_cast<uint16_t>(cookie.size());
	sctp_cookie_build(&w, &k);
	EXPECT_FALSE(sctp_writer_ok(&w)); // length 65536 does not fit the field
}

TEST(CookieChunk, CookieAckWrongExactLength)
{
	EXPECT_EQ(chunk_verdict(sctp_cookie_parse, "0b00 0008 00000000"),
		  SCTP_PERR_CHUNK_LEN_EXACT);
	EXPECT_EQ(chunk_verdict(sctp_cookie_parse, "0b00 0005 00000000"),
		  SCTP_PERR_CHUNK_LEN_EXACT);
}

TEST(CookieChunk, LengthBelowHeader)
{
	EXPECT_EQ(walker_verdict("0a00 0002 00000000"), SCTP_PERR_CHUNK_LEN_SHORT);
	EXPECT_EQ(raw_verdict(sctp_cookie_parse, "0a00 0002"), SCTP_PERR_CHUNK_LEN_SHORT);
	EXPECT_EQ(raw_verdict(sctp_cookie_parse, "0b00 0003"), SCTP_PERR_CHUNK_LEN_EXACT);
}

TEST(CookieChunk, TruncatedAndPastEnd)
{
	EXPECT_EQ(walker_verdict("0a00 000b 636f6f6b"), SCTP_PERR_CHUNK_LEN_OVERRUN);
	EXPECT_EQ(walker_verdict("0a"), SCTP_PERR_CHUNK_TRUNCATED);
	EXPECT_EQ(walker_verdict("0a00 000b 636f6f6b696521"), SCTP_PERR_CHUNK_PAD_MISSING);
}
