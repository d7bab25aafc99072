// SPDX-License-Identifier: BSD-3-Clause
// INIT and INIT ACK, RFC 9260 §3.3.2 and §3.3.3: realistic vectors (IPv4
// addresses, Supported Address Types, ECN, Forward-TSN, Supported
// Extensions with an odd count, a state cookie of odd length), a capture,
// building from parameter builders, round trips and malformed chunks.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk_init.h"
#include "sctp/param.h"
}

using namespace codec_test;

namespace {

// An INIT as a Linux or FreeBSD endpoint with two IPv4 addresses sends it;
// Supported Extensions lists three types, so it ends one byte short of a
// multiple of 4 and its pad is not in the chunk length (59).
const char *const kInit = "0100 003b"
			  "a1b2c3d4 00010000 000a ffff 12345678"
			  "0005 0008 c0a80001"
			  "0005 0008 0a000001"
			  "000c 0006 0005 0000"
			  "8000 0004"
			  "c000 0004"
			  "8008 0007 c0820f 00";

// The answer: a 7-byte state cookie (padded, pad counted: not last), one
// address, ECN, Forward-TSN, Supported Extensions {FORWARD TSN} (length 5,
// last, three pad bytes outside the chunk length of 53).
const char *const kInitAck = "0200 0035"
			     "5e6f7081 00020000 0800 000a deadbeef"
			     "0007 000b 01020304 050607 00"
			     "0005 0008 c0a80002"
			     "8000 0004"
			     "c000 0004"
			     "8008 0005 c0 000000";

const char *const kFixed = "a1b2c3d4 00010000 000a ffff 12345678";

} // namespace

TEST(ChunkInit, RealisticInitFields)
{
	Bytes pkt = packet(kInit);
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_init init;
	ASSERT_EQ(sctp_init_parse(&c, &init), SCTP_PERR_OK);
	EXPECT_EQ(init.type, SCTP_CHUNK_INIT);
	EXPECT_EQ(init.flags, 0);
	EXPECT_EQ(init.init_tag, 0xa1b2c3d4u);
	EXPECT_EQ(init.a_rwnd, 65536u);
	EXPECT_EQ(init.os, 10);
	EXPECT_EQ(init.mis, 65535);
	EXPECT_EQ(init.initial_tsn, 0x12345678u);
	EXPECT_EQ(init.params_len, 39);
	EXPECT_EQ(init.params, pkt.data() + SCTP_COMMON_HDR_LEN + 20);

	struct sctp_init_params ip;
	ASSERT_EQ(sctp_init_params_decode(init.params, init.params_len, &ip), SCTP_PERR_OK);
	ASSERT_EQ(ip.n_addrs, 2);
	EXPECT_EQ(hex::dump(ip.addrs[0].addr, 4), "c0a80001");
	EXPECT_EQ(hex::dump(ip.addrs[1].addr, 4), "0a000001");
	EXPECT_TRUE(ip.supports_ipv4);
	EXPECT_FALSE(ip.supports_ipv6);
	EXPECT_TRUE(ip.ecn);
	EXPECT_TRUE(ip.forward_tsn);
	ASSERT_EQ(ip.n_ext_chunks, 3);
	EXPECT_EQ(ip.ext_chunks[0], SCTP_CHUNK_FORWARD_TSN);
	EXPECT_EQ(ip.ext_chunks[1], SCTP_CHUNK_RECONFIG);
	EXPECT_EQ(ip.ext_chunks[2], SCTP_CHUNK_AUTH);
	EXPECT_FALSE(ip.has_cookie);
	EXPECT_EQ(ip.n_unknown, 0);
}

TEST(ChunkInit, RealisticInitRoundTrip)
{
	Bytes pkt = packet(kInit);
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_init init;
	ASSERT_EQ(sctp_init_parse(&c, &init), SCTP_PERR_OK);
	EXPECT_EQ(hex::dump(build(sctp_init_build, &init)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkInit, RealisticInitFromParamBuilders)
{
	struct sctp_init init = {};
	init.type = SCTP_CHUNK_INIT;
	init.init_tag = 0xa1b2c3d4;
	init.a_rwnd = 65536;
	init.os = 10;
	init.mis = 65535;
	init.initial_tsn = 0x12345678;
	struct sctp_param_addr a1 = {}, a2 = {};
	a1.type = a2.type = SCTP_PARAM_IPV4_ADDR;
	std::memcpy(a1.addr, "\xc0\xa8\x00\x01", 4);
	std::memcpy(a2.addr, "\x0a\x00\x00\x01", 4);
	const uint16_t types[] = { SCTP_PARAM_IPV4_ADDR };
	struct sctp_param_supported_addr_types sat = { { nullptr, types, 1 } };
	const uint8_t ext[] = { SCTP_CHUNK_FORWARD_TSN, SCTP_CHUNK_RECONFIG, SCTP_CHUNK_AUTH };
	struct sctp_param_supported_ext se = { ext, 3 };

	Bytes out = build([&](struct sctp_writer *w) {
		size_t off = sctp_init_build_begin(w, &init);
		sctp_param_addr_build(w, &a1);
		sctp_param_addr_build(w, &a2);
		sctp_param_supported_addr_types_build(w, &sat);
		sctp_param_ecn_capable_build(w);
		sctp_param_forward_tsn_supported_build(w);
		sctp_param_supported_ext_build(w, &se);
		sctp_init_build_end(w, off);
	});
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(kInit)));
}

TEST(ChunkInit, RealisticInitAckFields)
{
	Bytes pkt = packet(kInitAck);
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_init ack;
	ASSERT_EQ(sctp_init_parse(&c, &ack), SCTP_PERR_OK);
	EXPECT_EQ(ack.type, SCTP_CHUNK_INIT_ACK);
	EXPECT_EQ(ack.init_tag, 0x5e6f7081u);
	EXPECT_EQ(ack.a_rwnd, 0x20000u);
	EXPECT_EQ(ack.os, 0x800);
	EXPECT_EQ(ack.mis, 10);
	EXPECT_EQ(ack.initial_tsn, 0xdeadbeefu);
	EXPECT_EQ(ack.params_len, 33);

	struct sctp_init_params ip;
	ASSERT_EQ(sctp_init_params_decode(ack.params, ack.params_len, &ip), SCTP_PERR_OK);
	ASSERT_TRUE(ip.has_cookie);
	EXPECT_EQ(hex::dump(ip.cookie, ip.cookie_len), "01020304 050607");
	ASSERT_EQ(ip.n_addrs, 1);
	EXPECT_EQ(hex::dump(ip.addrs[0].addr, 4), "c0a80002");
	EXPECT_TRUE(ip.ecn);
	EXPECT_TRUE(ip.forward_tsn);
	ASSERT_EQ(ip.n_ext_chunks, 1);
	EXPECT_EQ(ip.ext_chunks[0], SCTP_CHUNK_FORWARD_TSN);

	EXPECT_EQ(hex::dump(build(sctp_init_build, &ack)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkInit, RealisticInitAckFromParamBuilders)
{
	struct sctp_init ack = {};
	ack.type = SCTP_CHUNK_INIT_ACK;
	ack.init_tag = 0x5e6f7081;
	ack.a_rwnd = 0x20000;
	ack.os = 0x800;
	ack.mis = 10;
	ack.initial_tsn = 0xdeadbeef;
	const uint8_t cookie[] = { 1, 2, 3, 4, 5, 6, 7 };
	struct sctp_param_state_cookie sc = { cookie, 7 };
	struct sctp_param_addr a = {};
	a.type = SCTP_PARAM_IPV4_ADDR;
	std::memcpy(a.addr, "\xc0\xa8\x00\x02", 4);
	const uint8_t ext[] = { SCTP_CHUNK_FORWARD_TSN };
	struct sctp_param_supported_ext se = { ext, 1 };

	Bytes out = build([&](struct sctp_writer *w) {
		size_t off = sctp_init_build_begin(w, &ack);
		sctp_param_state_cookie_build(w, &sc);
		sctp_param_addr_build(w, &a);
		sctp_param_ecn_capable_build(w);
		sctp_param_forward_tsn_supported_build(w);
		sctp_param_supported_ext_build(w, &se);
		sctp_init_build_end(w, off);
	});
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(kInitAck)));
}

TEST(ChunkInit, CapturedInitFromSctpWww)
{
	// pkts__sctp-www.cap frame 1.
	Bytes pkt = packet("0100 003c 3bb99c46 0001a000 000a ffff 2b2d7eb2"
			   "0005 0008 9be6189b 0005 0008 9be6189c 000c 0006 0005 0000"
			   "8000 0004 c000 0004 c006 0008 00000000");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_init init;
	ASSERT_EQ(sctp_init_parse(&c, &init), SCTP_PERR_OK);
	EXPECT_EQ(init.init_tag, 0x3bb99c46u);
	EXPECT_EQ(init.a_rwnd, 106496u);
	EXPECT_EQ(init.os, 10);
	EXPECT_EQ(init.mis, 65535);
	EXPECT_EQ(init.initial_tsn, 0x2b2d7eb2u);
	EXPECT_EQ(init.params_len, 40);
	EXPECT_EQ(hex::dump(build(sctp_init_build, &init)), hex::dump(chunk_bytes(pkt)));

	Tlvs ps = tlvs_of(sctp_init_params_iter_init, &init);
	EXPECT_EQ(ps.err, SCTP_PERR_OK);
	std::vector<uint16_t> types;
	for (const struct sctp_tlv &t : ps.list)
		types.push_back(t.type);
	EXPECT_EQ(types, (std::vector<uint16_t>{ 5, 5, 12, 0x8000, 0xc000, 0xc006 }));
}

TEST(ChunkInit, NoParamsAndRawFlags)
{
	// Reserved flag bits survive the round trip; an INIT without
	// parameters is well formed.
	Bytes pkt = packet(std::string("01a5 0014 ") + kFixed);
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_init init;
	ASSERT_EQ(sctp_init_parse(&c, &init), SCTP_PERR_OK);
	EXPECT_EQ(init.flags, 0xa5);
	EXPECT_EQ(init.params_len, 0);
	EXPECT_EQ(hex::dump(build(sctp_init_build, &init)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkInit, LastPadCountedIsKept)
{
	// A sender that counts the last parameter's padding: accepted, and
	// copied back as it came.
	Bytes pkt = packet(std::string("0100 001c ") + kFixed + "8008 0005 c0 000000");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_init init;
	ASSERT_EQ(sctp_init_parse(&c, &init), SCTP_PERR_OK);
	EXPECT_EQ(init.params_len, 8);
	EXPECT_EQ(hex::dump(build(sctp_init_build, &init)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkInit, FixedPartShort)
{
	for (const char *h : { "0100 0004", "0100 0008 a1b2c3d4",
			       "0100 0013 a1b2c3d4 00010000 000a ffff 123456 00" })
		EXPECT_EQ(chunk_verdict(sctp_init_parse, h), SCTP_PERR_CHUNK_LEN_FIXED) << h;
}

TEST(ChunkInit, MalformedParams)
{
	struct {
		const char *params; // after the fixed part, chunk padding included
		uint16_t chunk_len;
		enum sctp_parse_err err;
	} cases[] = {
		{ "8000 0000", 24, SCTP_PERR_PARAM_LEN_SHORT },	  // zero-length parameter
		{ "8000 0003", 24, SCTP_PERR_PARAM_LEN_SHORT },	  // below the header
		{ "0005 0008", 24, SCTP_PERR_PARAM_LEN_OVERRUN }, // past the end of the chunk
		{ "8000 0000", 22, SCTP_PERR_PARAM_TRUNCATED },	  // 2 bytes: no header
		{ "8000 0004 0005 000c c0a80001", 32, SCTP_PERR_PARAM_LEN_OVERRUN },
		// Missing padding: the next parameter's header is read late.
		{ "0007 0005 aa 8000 0004 000000", 29, SCTP_PERR_PARAM_TRUNCATED },
	};
	for (const auto &tc : cases) {
		char len[8];
		std::snprintf(len, sizeof(len), "%04x", tc.chunk_len);
		std::string chunk = std::string("0100 ") + len + kFixed + tc.params;
		EXPECT_EQ(chunk_verdict(sctp_init_parse, chunk), tc.err) << tc.params;
	}
}

TEST(ChunkInit, WrongParamLengthIsTheDecodersVerdict)
{
	// Framing is fine, the parameter is not: the chunk parses, the
	// parameter decoder names the problem.
	Bytes pkt = packet(std::string("0100 0018 ") + kFixed + "c000 0004");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_init init;
	ASSERT_EQ(sctp_init_parse(&c, &init), SCTP_PERR_OK);

	Bytes pkt2 = packet(std::string("0100 001a ") + kFixed + "8001 0006 0000 0000");
	c = first_chunk(pkt2);
	ASSERT_EQ(sctp_init_parse(&c, &init), SCTP_PERR_OK);
	struct sctp_init_params ip;
	EXPECT_EQ(sctp_init_params_decode(init.params, init.params_len, &ip),
		  SCTP_PERR_PARAM_LEN_INVALID);
	EXPECT_EQ(ip.err_type, SCTP_PARAM_ZERO_CHECKSUM_ACCEPTABLE);
	EXPECT_EQ(ip.err_offset, 0u);
}

TEST(ChunkInit, BuilderOverflow)
{
	Bytes pkt = packet(kInit);
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_init init;
	ASSERT_EQ(sctp_init_parse(&c, &init), SCTP_PERR_OK);
	uint8_t buf[40];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_init_build(&w, &init);
	EXPECT_FALSE(sctp_writer_ok(&w));
}
