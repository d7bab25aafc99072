// SPDX-License-Identifier: BSD-3-Clause
// RFC 9260 §3, §3.2, §6.10: the common header, the chunk walker and the TLV
// walker, including every way a peer can get lengths and padding wrong.
#include <gtest/gtest.h>

#include <vector>

#include "codec_util.h"

extern "C" {
#include "sctp/packet.h"
}

using namespace codec_test;

namespace {

struct Walk {
	std::vector<struct sctp_chunk> chunks;
	enum sctp_parse_err err;
};

Walk
walk(const std::vector<uint8_t> &pkt_bytes)
{
	struct sctp_packet pkt;
	Walk w{ {}, sctp_packet_parse(&pkt, pkt_bytes.data(), pkt_bytes.size()) };
	if (w.err != SCTP_PERR_OK)
		return w;
	struct sctp_chunk_iter it;
	struct sctp_chunk c;
	sctp_chunk_iter_init(&it, &pkt);
	while (sctp_chunk_iter_next(&it, &c))
		w.chunks.push_back(c);
	w.err = it.err;
	return w;
}

const char *const kHeader = "1389 0bb8 01020304 a1b2c3d4"; // 5001 -> 3000

} // namespace

TEST(Packet, CommonHeaderFields)
{
	auto b = hex::bytes(std::string(kHeader) + "0b00 0004");
	struct sctp_packet pkt;
	ASSERT_EQ(sctp_packet_parse(&pkt, b.data(), b.size()), SCTP_PERR_OK);
	EXPECT_EQ(pkt.src_port, 5001);
	EXPECT_EQ(pkt.dst_port, 3000);
	EXPECT_EQ(pkt.vtag, 0x01020304u);
	EXPECT_EQ(pkt.checksum, 0xa1b2c3d4u);
	EXPECT_EQ(pkt.len, b.size());
}

TEST(Packet, ShorterThanCommonHeader)
{
	auto b = hex::bytes("1389 0bb8 01020304 a1b2c3");
	struct sctp_packet pkt;
	EXPECT_EQ(sctp_packet_parse(&pkt, b.data(), b.size()), SCTP_PERR_PACKET_TOO_SHORT);
	EXPECT_EQ(sctp_packet_parse(&pkt, b.data(), 0), SCTP_PERR_PACKET_TOO_SHORT);
}

TEST(Packet, NoChunks)
{
	auto w = walk(hex::bytes(kHeader));
	EXPECT_EQ(w.err, SCTP_PERR_PACKET_NO_CHUNKS);
	EXPECT_TRUE(w.chunks.empty());
}

TEST(Packet, BundledChunksWithPadding)
{
	// DATA with a 5-byte payload (length 21, 3 bytes of padding), then SACK.
	auto b = hex::bytes(std::string(kHeader) +
			    "0003 0015 00000001 0000 0000 00000000 68656c6c6f 000000"
			    "0300 0010 00000000 00010000 0000 0000");
	auto w = walk(b);
	ASSERT_EQ(w.err, SCTP_PERR_OK);
	ASSERT_EQ(w.chunks.size(), 2u);
	EXPECT_EQ(w.chunks[0].type, SCTP_CHUNK_DATA);
	EXPECT_EQ(w.chunks[0].flags, 3);
	EXPECT_EQ(w.chunks[0].length, 21);
	EXPECT_EQ(w.chunks[0].offset, 12u);
	EXPECT_EQ(sctp_chunk_value_len(&w.chunks[0]), 17);
	EXPECT_EQ(w.chunks[0].value, b.data() + 16);
	EXPECT_EQ(w.chunks[1].type, SCTP_CHUNK_SACK);
	EXPECT_EQ(w.chunks[1].offset, 36u);
}

TEST(Packet, NonZeroPaddingIsIgnored)
{
	// RFC 9260 §3.2: "The receiver MUST ignore the padding."
	auto w = walk(hex::bytes(std::string(kHeader) +
				 "0003 0011 00000001 0000 0000 00000000 68 ffffff"));
	EXPECT_EQ(w.err, SCTP_PERR_OK);
	EXPECT_EQ(w.chunks.size(), 1u);
}

TEST(Packet, ChunkHeaderTruncated)
{
	auto w = walk(hex::bytes(std::string(kHeader) + "0b00 0004 0b00"));
	EXPECT_EQ(w.err, SCTP_PERR_CHUNK_TRUNCATED);
	EXPECT_EQ(w.chunks.size(), 1u); // the good one before it was yielded
}

TEST(Packet, ChunkLengthBelowHeader)
{
	for (const char *len : { "0000", "0001", "0003" }) {
		auto w = walk(hex::bytes(std::string(kHeader) + "0b00" + len + "00000000"));
		EXPECT_EQ(w.err, SCTP_PERR_CHUNK_LEN_SHORT) << len;
		EXPECT_TRUE(w.chunks.empty());
	}
}

TEST(Packet, ChunkLengthPastEnd)
{
	auto w = walk(hex::bytes(std::string(kHeader) + "0a00 0010 01020304"));
	EXPECT_EQ(w.err, SCTP_PERR_CHUNK_LEN_OVERRUN);
	w = walk(hex::bytes(std::string(kHeader) + "0a00 ffff 01020304"));
	EXPECT_EQ(w.err, SCTP_PERR_CHUNK_LEN_OVERRUN);
}

TEST(Packet, MissingPaddingAfterLastChunk)
{
	// Length 5 needs 3 bytes of padding; the packet ends after 1 of them.
	auto w = walk(hex::bytes(std::string(kHeader) + "0a00 0005 01 00"));
	EXPECT_EQ(w.err, SCTP_PERR_CHUNK_PAD_MISSING);
	EXPECT_TRUE(w.chunks.empty());
}

TEST(Packet, TrailingBytesAfterPaddedChunk)
{
	// Three stray bytes after a complete chunk are not a chunk header.
	auto w = walk(hex::bytes(std::string(kHeader) + "0b00 0004 000000"));
	EXPECT_EQ(w.err, SCTP_PERR_CHUNK_TRUNCATED);
}

TEST(Packet, InitMustBeAlone)
{
	const std::string init = "0100 0014 00000001 00010000 000a 000a 00000001";
	auto w = walk(hex::bytes(std::string(kHeader) + init));
	EXPECT_EQ(w.err, SCTP_PERR_OK);
	EXPECT_EQ(w.chunks.size(), 1u);
	// INIT followed by anything: refused before the INIT is yielded.
	w = walk(hex::bytes(std::string(kHeader) + init + "0b00 0004"));
	EXPECT_EQ(w.err, SCTP_PERR_CHUNK_NOT_ALONE);
	EXPECT_TRUE(w.chunks.empty());
	// Anything followed by INIT.
	w = walk(hex::bytes(std::string(kHeader) + "0b00 0004" + init));
	EXPECT_EQ(w.err, SCTP_PERR_CHUNK_NOT_ALONE);
	EXPECT_EQ(w.chunks.size(), 1u);
}

TEST(Packet, ShutdownCompleteAndInitAckMustBeAlone)
{
	auto w = walk(hex::bytes(std::string(kHeader) + "0e01 0004 0b00 0004"));
	EXPECT_EQ(w.err, SCTP_PERR_CHUNK_NOT_ALONE);
	w = walk(hex::bytes(std::string(kHeader) +
			    "0b00 0004 0200 0014 00000001 00010000 000a 000a 00000001"));
	EXPECT_EQ(w.err, SCTP_PERR_CHUNK_NOT_ALONE);
	w = walk(hex::bytes(std::string(kHeader) + "0e01 0004"));
	EXPECT_EQ(w.err, SCTP_PERR_OK);
}

TEST(Packet, UnknownChunkTypesAreYieldedWithTheirAction)
{
	auto w = walk(hex::bytes(std::string(kHeader) +
				 "3f00 0004 7f00 0004 bf00 0004 ff00 0008 01020304"));
	ASSERT_EQ(w.err, SCTP_PERR_OK);
	ASSERT_EQ(w.chunks.size(), 4u);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(w.chunks[0].type), SCTP_UNKNOWN_STOP);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(w.chunks[1].type), SCTP_UNKNOWN_STOP_REPORT);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(w.chunks[2].type), SCTP_UNKNOWN_SKIP);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(w.chunks[3].type), SCTP_UNKNOWN_SKIP_REPORT);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_PARAM(0x3fff), SCTP_UNKNOWN_STOP);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_PARAM(0x4001), SCTP_UNKNOWN_STOP_REPORT);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_PARAM(0x8000), SCTP_UNKNOWN_SKIP);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_PARAM(0xc000), SCTP_UNKNOWN_SKIP_REPORT);
}

TEST(Packet, WalkerStopsForGoodAfterAnError)
{
	auto b = hex::bytes(std::string(kHeader) + "0b00 0002");
	struct sctp_packet pkt;
	ASSERT_EQ(sctp_packet_parse(&pkt, b.data(), b.size()), SCTP_PERR_OK);
	struct sctp_chunk_iter it;
	struct sctp_chunk c;
	sctp_chunk_iter_init(&it, &pkt);
	EXPECT_FALSE(sctp_chunk_iter_next(&it, &c));
	EXPECT_FALSE(sctp_chunk_iter_next(&it, &c));
	EXPECT_EQ(it.err, SCTP_PERR_CHUNK_LEN_SHORT);
}

TEST(Packet, EveryOffsetOfTruncationIsSafe)
{
	// Cut a valid bundle at every length: the walker never reads past the
	// cut (ASan in the fuzz build checks the same property at random).
	auto full = hex::bytes(std::string(kHeader) +
			       "0003 0015 00000001 0000 0000 00000000 68656c6c6f 000000"
			       "0300 0010 00000000 00010000 0000 0000");
	for (size_t n = 0; n <= full.size(); n++) {
		std::vector<uint8_t> cut(full.begin(), full.begin() + n);
		auto w = walk(cut);
		if (n == full.size() || n == 36)
			EXPECT_EQ(w.err, SCTP_PERR_OK) << n;
		else
			EXPECT_NE(w.err, SCTP_PERR_OK) << n;
		for (auto &c : w.chunks)
			EXPECT_LE(c.offset + c.length, n);
	}
}

TEST(Tlv, ParamsWithPaddingAndUnpaddedLast)
{
	// Supported Address Types (6 bytes, padded) then Supported Extensions
	// with 1 byte and no padding (it is the last parameter).
	auto b = hex::bytes("000c 0006 0005 0000 8008 0005 c0");
	Tlvs t = tlvs_in(SCTP_TLV_PARAM, b);
	ASSERT_EQ(t.err, SCTP_PERR_OK);
	ASSERT_EQ(t.list.size(), 2u);
	EXPECT_EQ(t.list[0].type, SCTP_PARAM_SUPPORTED_ADDR_TYPES);
	EXPECT_EQ(t.list[0].length, 6);
	EXPECT_EQ(sctp_tlv_value_len(&t.list[0]), 2);
	EXPECT_EQ(t.list[1].type, SCTP_PARAM_SUPPORTED_EXTENSIONS);
	EXPECT_EQ(t.list[1].offset, 8u);
	EXPECT_EQ(t.list[1].value[0], 0xc0);
}

TEST(Tlv, MalformedParamsAndCauses)
{
	EXPECT_EQ(tlvs_in(SCTP_TLV_PARAM, hex::bytes("0005 00")).err, SCTP_PERR_PARAM_TRUNCATED);
	EXPECT_EQ(tlvs_in(SCTP_TLV_PARAM, hex::bytes("0005 0002 0000")).err,
		  SCTP_PERR_PARAM_LEN_SHORT);
	EXPECT_EQ(tlvs_in(SCTP_TLV_PARAM, hex::bytes("0005 000c 0a000001")).err,
		  SCTP_PERR_PARAM_LEN_OVERRUN);
	EXPECT_EQ(tlvs_in(SCTP_TLV_CAUSE, hex::bytes("0001 00")).err, SCTP_PERR_CAUSE_TRUNCATED);
	EXPECT_EQ(tlvs_in(SCTP_TLV_CAUSE, hex::bytes("000c 0000")).err, SCTP_PERR_CAUSE_LEN_SHORT);
	EXPECT_EQ(tlvs_in(SCTP_TLV_CAUSE, hex::bytes("000d 0100 00")).err,
		  SCTP_PERR_CAUSE_LEN_OVERRUN);
}

TEST(Tlv, ZeroLengthValueIsFine)
{
	// ECN Capable and Forward-TSN-Supported have no value.
	Tlvs t = tlvs_in(SCTP_TLV_PARAM, hex::bytes("8000 0004 c000 0004"));
	EXPECT_EQ(t.err, SCTP_PERR_OK);
	EXPECT_EQ(t.list.size(), 2u);
}

TEST(Build, ChunkAndTlvPaddingFollowRfc9260Section3_2)
{
	uint8_t buf[64];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_packet_build_header(&w, 5001, 3000, 0x01020304);
	size_t c = sctp_chunk_build_begin(&w, SCTP_CHUNK_INIT, 0);
	sctp_writer_u32(&w, 1);
	sctp_writer_u32(&w, 0x10000);
	sctp_writer_u16(&w, 10);
	sctp_writer_u16(&w, 10);
	sctp_writer_u32(&w, 1);
	const uint8_t types[] = { 0x00, 0x05 };
	sctp_tlv_build(&w, SCTP_PARAM_SUPPORTED_ADDR_TYPES, types, sizeof(types));
	const uint8_t ext[] = { 0xc0 };
	sctp_tlv_build(&w, SCTP_PARAM_SUPPORTED_EXTENSIONS, ext, sizeof(ext));
	sctp_chunk_build_end(&w, c);
	ASSERT_TRUE(sctp_writer_ok(&w));
	// Chunk length 20 + 8 + 5 = 33: the first TLV's padding counts, the
	// last one's does not; the chunk itself is then padded to 36.
	auto want = hex::bytes("1389 0bb8 01020304 00000000"
			       "0100 0021 00000001 00010000 000a 000a 00000001"
			       "000c 0006 0005 0000 8008 0005 c0 000000");
	ASSERT_EQ(w.off, want.size());
	EXPECT_EQ(hex::dump(buf, w.off), hex::dump(want));
}

TEST(Build, OverflowIsStickyAndNeverWritesPastCapacity)
{
	uint8_t buf[16 + 4];
	memset(buf, 0xee, sizeof(buf));
	struct sctp_writer w = sctp_writer_make(buf, 16);
	sctp_packet_build_header(&w, 1, 2, 3);
	size_t c = sctp_chunk_build_begin(&w, SCTP_CHUNK_COOKIE_ECHO, 0);
	const uint8_t cookie[8] = {};
	sctp_writer_bytes(&w, cookie, sizeof(cookie));
	sctp_chunk_build_end(&w, c);
	EXPECT_FALSE(sctp_writer_ok(&w));
	for (size_t i = 16; i < sizeof(buf); i++)
		EXPECT_EQ(buf[i], 0xee);
}

TEST(ParseErr, EveryNameIsDistinctAndDescribed)
{
	for (int i = 0; i < SCTP_PERR_COUNT; i++) {
		const char *name = sctp_parse_err_name((enum sctp_parse_err)i);
		ASSERT_NE(name, nullptr);
		EXPECT_STRNE(name, "unknown");
		EXPECT_STRNE(sctp_parse_err_describe((enum sctp_parse_err)i), "unknown error");
		for (int j = 0; j < i; j++)
			EXPECT_STRNE(name, sctp_parse_err_name((enum sctp_parse_err)j));
	}
	EXPECT_STREQ(sctp_parse_err_name(SCTP_PERR_COUNT), "unknown");
}
