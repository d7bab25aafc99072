// SPDX-License-Identifier: BSD-3-Clause
// DATA chunk, RFC 9260 §3.3.1: parse, build, round trip, malformed lengths.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk_data.h"
}

using namespace codec_test;

// I, B and E set; TSN 0x12345678, SID 7, SSN 0x0102, PPID 46, "hello", 3 bytes of padding.
const std::string kData = "000b 0015 12345678 0007 0102 0000002e 68656c6c6f 000000";

TEST(DataChunk, ParsesEveryField)
{
	Bytes pkt;
	struct sctp_chunk c;
	ASSERT_EQ(walk_chunk(pkt, kData, &c), SCTP_PERR_OK);
	struct sctp_data d;
	ASSERT_EQ(sctp_data_parse(&c, &d), SCTP_PERR_OK);
	EXPECT_EQ(d.flags, SCTP_DATA_FLAG_I | SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E);
	EXPECT_EQ(d.tsn, 0x12345678u);
	EXPECT_EQ(d.sid, 7);
	EXPECT_EQ(d.ssn, 0x0102);
	EXPECT_EQ(d.ppid, 46u);
	ASSERT_EQ(d.payload_len, 5);
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(d.payload), d.payload_len), "hello");
	// The payload is a view into the packet, not a copy.
	EXPECT_EQ(d.payload, pkt.data() + 12 + 16);
}

TEST(DataChunk, BuildsFromHostValues)
{
	const char payload[] = "hello";
	struct sctp_data d {};
	d.flags = SCTP_DATA_FLAG_I | SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E;
	d.tsn = 0x12345678;
	d.sid = 7;
	d.ssn = 0x0102;
	d.ppid = 46;
	d.payload = reinterpret_cast<const uint8_t *>(payload);
	d.payload_len = 5;
	auto out = build(sctp_data_build, &d);
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(kData)));
}

TEST(DataChunk, RoundTrip)
{
	const std::string vectors[] = {
		kData,
		// Reserved flag bits and U survive; payload of 4 bytes needs no padding.
		"00f4 0014 ffffffff ffff ffff ffffffff 01020304",
		// One-byte payload, middle fragment.
		"0000 0011 00000000 0000 0000 00000000 aa 000000",
	};
	for (const auto &v : vectors)
		expect_chunk_round_trip(sctp_data_parse, sctp_data_build, v);
}

TEST(DataChunk, HeaderOnlyCountsTheExternalPayload)
{
	struct sctp_data d {};
	d.flags = SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E;
	d.tsn = 1;
	d.sid = 2;
	d.ssn = 3;
	d.ppid = 4;
	d.payload = nullptr; // not read
	d.payload_len = 1400;
	auto out = build(sctp_data_build_header, &d);
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes("0003 0588 00000001 0002 0003 00000004")));
}

TEST(DataChunk, LargestPayload)
{
	std::vector<uint8_t> payload(65535 - 16, 0x5a);
	struct sctp_data d {};
	d.payload = payload.data();
	d.payload_len = static_cast<uint16_t>(payload.size());
	auto out = build(sctp_data_build, &d);
	ASSERT_EQ(out.size(), 65536u); // 65535 + 1 byte of padding
	EXPECT_EQ(out[2], 0xff);
	EXPECT_EQ(out[3], 0xff);
	EXPECT_EQ(out.back(), 0);
}

TEST(DataChunk, HeaderOnlyRefusesAnIndescribableLength)
{
	uint8_t buf[64];
	struct sctp_data d {};
	d.payload_len = 65535 - 15;
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_data_build_header(&w, &d);
	EXPECT_FALSE(sctp_writer_ok(&w));
}

TEST(DataChunk, BuildOverflowIsStickyAndBounded)
{
	const uint8_t payload[8] = {};
	struct sctp_data d {};
	d.payload = payload;
	d.payload_len = sizeof(payload);
	for (size_t cap = 0; cap < 24; cap++) {
		std::vector<uint8_t> buf(cap + 8, 0xee);
		struct sctp_writer w = sctp_writer_make(buf.data(), cap);
		sctp_data_build(&w, &d);
		EXPECT_FALSE(sctp_writer_ok(&w)) << cap;
		for (size_t i = cap; i < buf.size(); i++)
			EXPECT_EQ(buf[i], 0xee) << "wrote past cap " << cap;
	}
}

TEST(DataChunk, NoUserData)
{
	EXPECT_EQ(chunk_verdict(sctp_data_parse, "0003 0010 00000001 0000 0000 00000000"),
		  SCTP_PERR_DATA_NO_USER_DATA);
}

TEST(DataChunk, LengthBelowFixedPart)
{
	EXPECT_EQ(chunk_verdict(sctp_data_parse, "0003 000f 00000001 0000 0000 000000 00"),
		  SCTP_PERR_CHUNK_LEN_FIXED);
	EXPECT_EQ(chunk_verdict(sctp_data_parse, "0003 0004"), SCTP_PERR_CHUNK_LEN_FIXED);
}

TEST(DataChunk, LengthBelowHeader)
{
	EXPECT_EQ(walker_verdict("0003 0003 00000000"), SCTP_PERR_CHUNK_LEN_SHORT);
	// Handed to the parser anyway, it refuses without reading the value.
	EXPECT_EQ(raw_verdict(sctp_data_parse, "0003 0003"), SCTP_PERR_CHUNK_LEN_FIXED);
	EXPECT_EQ(raw_verdict(sctp_data_parse, "0003 0000"), SCTP_PERR_CHUNK_LEN_FIXED);
}

TEST(DataChunk, TruncatedAndPastEnd)
{
	// Length says 21, the packet stops after 18 bytes of the chunk.
	EXPECT_EQ(walker_verdict("000b 0015 12345678 0007 0102 0000002e 6865"),
		  SCTP_PERR_CHUNK_LEN_OVERRUN);
	// Only part of a chunk header.
	EXPECT_EQ(walker_verdict("000b"), SCTP_PERR_CHUNK_TRUNCATED);
	// Length 0xffff in a short packet.
	EXPECT_EQ(walker_verdict("0003 ffff 00000001 0000 0000 00000000 aa000000"),
		  SCTP_PERR_CHUNK_LEN_OVERRUN);
	// Padding missing after the last chunk.
	EXPECT_EQ(walker_verdict("000b 0015 12345678 0007 0102 0000002e 68656c6c6f"),
		  SCTP_PERR_CHUNK_PAD_MISSING);
}
