// SPDX-License-Identifier: BSD-3-Clause
// I-DATA chunk, RFC 8260 §2.1: parse, build, round trip, malformed lengths.
#include <gtest/gtest.h>

#include <string>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk_idata.h"
}

using namespace codec_test;

// First fragment (B) of an unordered message: TSN 0x01020304, SID 9, reserved 0,
// MID 0xa0b0c0d0, PPID 51, payload "abcdef", 2 bytes of padding.
const std::string kFirst = "4006 001a 01020304 0009 0000 a0b0c0d0 00000033 616263646566 0000";
// A later fragment (E only): the fifth word is the FSN, 2.
const std::string kLast = "4001 0015 01020305 0009 0000 a0b0c0d0 00000002 7a 000000";

TEST(IDataChunk, ParsesFirstFragment)
{
	Bytes pkt;
	struct sctp_chunk c;
	ASSERT_EQ(walk_chunk(pkt, kFirst, &c), SCTP_PERR_OK);
	struct sctp_idata d;
	ASSERT_EQ(sctp_idata_parse(&c, &d), SCTP_PERR_OK);
	EXPECT_EQ(d.flags, SCTP_DATA_FLAG_U | SCTP_DATA_FLAG_B);
	EXPECT_EQ(d.tsn, 0x01020304u);
	EXPECT_EQ(d.sid, 9);
	EXPECT_EQ(d.reserved, 0);
	EXPECT_EQ(d.mid, 0xa0b0c0d0u);
	EXPECT_EQ(d.ppid_fsn, 51u);
	EXPECT_EQ(sctp_idata_ppid(&d), 51u);
	EXPECT_EQ(sctp_idata_fsn(&d), 0u);
	ASSERT_EQ(d.payload_len, 6);
	EXPECT_EQ(d.payload, pkt.data() + 12 + 20);
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(d.payload), d.payload_len), "abcdef");
}

TEST(IDataChunk, ParsesLaterFragment)
{
	Bytes pkt;
	struct sctp_chunk c;
	ASSERT_EQ(walk_chunk(pkt, kLast, &c), SCTP_PERR_OK);
	struct sctp_idata d;
	ASSERT_EQ(sctp_idata_parse(&c, &d), SCTP_PERR_OK);
	EXPECT_EQ(d.flags, SCTP_DATA_FLAG_E);
	EXPECT_EQ(sctp_idata_fsn(&d), 2u);
	EXPECT_EQ(sctp_idata_ppid(&d), 0u);
	EXPECT_EQ(d.payload_len, 1);
	EXPECT_EQ(d.payload[0], 'z');
}

TEST(IDataChunk, BuildsFromHostValues)
{
	const char payload[] = "abcdef";
	struct sctp_idata d {};
	d.flags = SCTP_DATA_FLAG_U | SCTP_DATA_FLAG_B;
	d.tsn = 0x01020304;
	d.sid = 9;
	d.mid = 0xa0b0c0d0;
	d.ppid_fsn = 51;
	d.payload = reinterpret_cast<const uint8_t *>(payload);
	d.payload_len = 6;
	auto out = build(sctp_idata_build, &d);
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(kFirst)));
}

TEST(IDataChunk, RoundTrip)
{
	const std::string vectors[] = {
		kFirst,
		kLast,
		// Reserved field and reserved flag bits survive.
		"40ff 0018 ffffffff ffff ffff ffffffff ffffffff 01020304",
	};
	for (const auto &v : vectors)
		expect_chunk_round_trip(sctp_idata_parse, sctp_idata_build, v);
}

TEST(IDataChunk, HeaderOnlyCountsTheExternalPayload)
{
	struct sctp_idata d {};
	d.flags = SCTP_DATA_FLAG_B;
	d.tsn = 1;
	d.sid = 2;
	d.mid = 3;
	d.ppid_fsn = 4;
	d.payload_len = 1000;
	auto out = build(sctp_idata_build_header, &d);
	EXPECT_EQ(hex::dump(out),
		  hex::dump(hex::bytes("4002 03fc 00000001 0002 0000 00000003 00000004")));

	uint8_t buf[64];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	d.payload_len = 65535 - 19;
	sctp_idata_build_header(&w, &d);
	EXPECT_FALSE(sctp_writer_ok(&w));
}

TEST(IDataChunk, NoUserData)
{
	EXPECT_EQ(chunk_verdict(sctp_idata_parse, "4003 0014 00000001 0000 0000 00000000 00000000"),
		  SCTP_PERR_DATA_NO_USER_DATA);
}

TEST(IDataChunk, LengthBelowFixedPart)
{
	// A DATA-sized chunk (16 bytes) is too short for I-DATA.
	EXPECT_EQ(chunk_verdict(sctp_idata_parse, "4003 0010 00000001 0000 0000 00000000"),
		  SCTP_PERR_CHUNK_LEN_FIXED);
	EXPECT_EQ(
		chunk_verdict(sctp_idata_parse, "4003 0013 00000001 0000 0000 00000000 000000 00"),
		SCTP_PERR_CHUNK_LEN_FIXED);
}

TEST(IDataChunk, LengthBelowHeader)
{
	EXPECT_EQ(walker_verdict("4003 0002 00000000"), SCTP_PERR_CHUNK_LEN_SHORT);
	EXPECT_EQ(raw_verdict(sctp_idata_parse, "4003 0002"), SCTP_PERR_CHUNK_LEN_FIXED);
}

TEST(IDataChunk, TruncatedAndPastEnd)
{
	EXPECT_EQ(walker_verdict("4006 001a 01020304 0009 0000 a0b0c0d0 00000033 6162"),
		  SCTP_PERR_CHUNK_LEN_OVERRUN);
	EXPECT_EQ(walker_verdict("4006 00"), SCTP_PERR_CHUNK_TRUNCATED);
	EXPECT_EQ(walker_verdict("4006 0400 01020304 0009 0000 a0b0c0d0 00000033 61626364"),
		  SCTP_PERR_CHUNK_LEN_OVERRUN);
}
