// SPDX-License-Identifier: BSD-3-Clause
// The chunk umbrella (sctp/chunk.h): type names, validation by dispatch to
// every type's parser, parse-then-build through the dispatch, verbatim copy
// of what has no parser, and the unknown-type action bits (RFC 9260 §3.2).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk.h"
}

using namespace codec_test;

namespace {

// Stands for "some error": the codecs of another file own the exact name.
constexpr enum sctp_parse_err kAnyError = SCTP_PERR_COUNT;

struct TypeCase {
	uint8_t type;
	const char *name;
	const char *valid;     // canonical: rebuilds byte for byte
	const char *malformed; // nullptr when every length is acceptable
	enum sctp_parse_err err;
};

// One case per chunk type the stack knows. The expected error of each
// malformed vector is specific to its type's parser, so a dispatch to the
// wrong parser shows up.
const TypeCase kCases[] = {
	{ SCTP_CHUNK_DATA, "DATA", "0003 0011 00000001 0001 0002 00000003 aa000000",
	  "0003 0010 00000001 0001 0002 00000003", SCTP_PERR_DATA_NO_USER_DATA },
	{ SCTP_CHUNK_INIT, "INIT", "0100 0014 01020304 00010000 000a 000a 00000001",
	  "0100 0008 01020304", kAnyError },
	{ SCTP_CHUNK_INIT_ACK, "INIT_ACK",
	  "0200 001c 01020304 00010000 000a 000a 00000001 0007 0008 c0c0c0c0", "0200 0008 01020304",
	  kAnyError },
	{ SCTP_CHUNK_SACK, "SACK", "0300 0014 00000001 00001000 0001 0000 0002 0002",
	  "0300 0010 00000001 00001000 0001 0000", SCTP_PERR_SACK_LEN_MISMATCH },
	{ SCTP_CHUNK_HEARTBEAT, "HEARTBEAT", "0400 000c 0001 0008 01020304",
	  "0400 000c 0002 0008 01020304", SCTP_PERR_HEARTBEAT_INFO },
	{ SCTP_CHUNK_HEARTBEAT_ACK, "HEARTBEAT_ACK", "0500 0009 0001 0005 aa000000", "0500 0004",
	  SCTP_PERR_CHUNK_LEN_FIXED },
	{ SCTP_CHUNK_ABORT, "ABORT", "0601 0004", nullptr, SCTP_PERR_OK },
	{ SCTP_CHUNK_SHUTDOWN, "SHUTDOWN", "0700 0008 00000001", "0700 0004",
	  SCTP_PERR_CHUNK_LEN_EXACT },
	{ SCTP_CHUNK_SHUTDOWN_ACK, "SHUTDOWN_ACK", "0800 0004", "0800 0008 00000000",
	  SCTP_PERR_CHUNK_LEN_EXACT },
	{ SCTP_CHUNK_ERROR, "ERROR", "0900 000c 0003 0008 00001000", nullptr, SCTP_PERR_OK },
	{ SCTP_CHUNK_COOKIE_ECHO, "COOKIE_ECHO", "0a00 0007 010203 00", nullptr, SCTP_PERR_OK },
	{ SCTP_CHUNK_COOKIE_ACK, "COOKIE_ACK", "0b00 0004", "0b00 0008 00000000",
	  SCTP_PERR_CHUNK_LEN_EXACT },
	{ SCTP_CHUNK_ECNE, "ECNE", "0c00 0008 00000001", "0c00 0004", SCTP_PERR_CHUNK_LEN_EXACT },
	{ SCTP_CHUNK_CWR, "CWR", "0d00 0008 00000001", "0d00 000c 00000001 00000000",
	  SCTP_PERR_CHUNK_LEN_EXACT },
	{ SCTP_CHUNK_SHUTDOWN_COMPLETE, "SHUTDOWN_COMPLETE", "0e01 0004", "0e00 0008 00000000",
	  SCTP_PERR_CHUNK_LEN_EXACT },
	{ SCTP_CHUNK_AUTH, "AUTH", "0f00 000c 0000 0001 01020304", "0f00 0006 0000 0000",
	  SCTP_PERR_CHUNK_LEN_FIXED },
	{ SCTP_CHUNK_NR_SACK, "NR_SACK", "1000 0014 00000001 00001000 0000 0000 0000 0000",
	  "1000 0010 00000001 00001000 0000 0000", SCTP_PERR_CHUNK_LEN_FIXED },
	{ SCTP_CHUNK_I_DATA, "I_DATA", "4000 0015 00000001 0001 0000 00000002 00000003 aa000000",
	  "4000 0014 00000001 0001 0000 00000002 00000003", SCTP_PERR_DATA_NO_USER_DATA },
	{ SCTP_CHUNK_ASCONF_ACK, "ASCONF_ACK", "8000 0008 00000001", "8000 0004", kAnyError },
	{ SCTP_CHUNK_PKTDROP, "PKTDROP", "8100 0008 00000000", nullptr, SCTP_PERR_OK },
	{ SCTP_CHUNK_RECONFIG, "RE_CONFIG", "8200 0014 000d 0010 00000001 00000000 00000005",
	  "8200 0004", kAnyError },
	{ SCTP_CHUNK_PAD, "PAD", "8400 0006 0000 0000", nullptr, SCTP_PERR_OK },
	{ SCTP_CHUNK_FORWARD_TSN, "FORWARD_TSN", "c000 000c 00000001 0001 0002",
	  "c000 000a 00000001 0001 0000", SCTP_PERR_FORWARD_TSN_LEN },
	{ SCTP_CHUNK_ASCONF, "ASCONF",
	  "c100 0020 00000001 0005 0008 0a000001 c001 0010 00000001 0005 0008 0a000002",
	  "c100 0008 00000001", kAnyError },
	{ SCTP_CHUNK_I_FORWARD_TSN, "I_FORWARD_TSN", "c200 0010 00000001 0001 0000 00000002",
	  "c200 000c 00000001 0001 0000", SCTP_PERR_FORWARD_TSN_LEN },
};

} // namespace

TEST(Chunk, TypeNames)
{
	for (const auto &k : kCases)
		EXPECT_STREQ(sctp_chunk_type_name(k.type), k.name) << int(k.type);
	EXPECT_STREQ(sctp_chunk_type_name(255), "IETF_EXTENSION");
	for (int t : { 17, 63, 65, 127, 131, 133, 191, 195, 254 })
		EXPECT_STREQ(sctp_chunk_type_name(static_cast<uint8_t>(t)), "UNKNOWN") << t;
	// Every type has a name, and names are upper case with underscores.
	for (int t = 0; t < 256; t++) {
		const char *n = sctp_chunk_type_name(static_cast<uint8_t>(t));
		ASSERT_NE(n, nullptr) << t;
		for (const char *p = n; *p; p++)
			EXPECT_TRUE((*p >= 'A' && *p <= 'Z') || *p == '_') << n;
	}
}

TEST(Chunk, ValidatesEveryTypeThroughItsParser)
{
	for (const auto &k : kCases) {
		Bytes pkt;
		struct sctp_chunk c;
		ASSERT_EQ(walk_chunk(pkt, k.valid, &c), SCTP_PERR_OK) << k.name;
		ASSERT_EQ(c.type, k.type) << k.name;
		EXPECT_EQ(sctp_chunk_validate(&c), SCTP_PERR_OK)
			<< k.name << ": " << sctp_parse_err_name(sctp_chunk_validate(&c));
		if (k.malformed == nullptr)
			continue;
		ASSERT_EQ(walk_chunk(pkt, k.malformed, &c), SCTP_PERR_OK) << k.name;
		if (k.err == kAnyError)
			EXPECT_NE(sctp_chunk_validate(&c), SCTP_PERR_OK) << k.name;
		else
			EXPECT_EQ(sctp_chunk_validate(&c), k.err)
				<< k.name << ": " << sctp_parse_err_name(sctp_chunk_validate(&c));
	}
}

TEST(Chunk, RebuildsEveryTypeByteForByte)
{
	for (const auto &k : kCases) {
		Bytes pkt;
		struct sctp_chunk c;
		ASSERT_EQ(walk_chunk(pkt, k.valid, &c), SCTP_PERR_OK) << k.name;
		EXPECT_EQ(hex::dump(build(sctp_chunk_rebuild, &c)), hex::dump(hex::bytes(k.valid)))
			<< k.name;
	}
}

TEST(Chunk, UnknownTypesValidateAndCopyVerbatim)
{
	for (const char *v : { "3f00 0004", "41ab 0005 01 000000", "bf01 0008 01020304",
			       "fe7f 000f 0102030405060708090a0b 00" }) {
		Bytes pkt;
		struct sctp_chunk c;
		ASSERT_EQ(walk_chunk(pkt, v, &c), SCTP_PERR_OK) << v;
		EXPECT_STREQ(sctp_chunk_type_name(c.type), "UNKNOWN");
		EXPECT_EQ(sctp_chunk_validate(&c), SCTP_PERR_OK) << v;
		EXPECT_EQ(hex::dump(build(sctp_chunk_rebuild, &c)), hex::dump(hex::bytes(v))) << v;
	}
}

TEST(Chunk, MalformedChunksCopyVerbatim)
{
	// Rebuild never loses bytes: what fails to parse is copied as it came.
	Bytes pkt;
	struct sctp_chunk c;
	const char *v = "0300 0010 00000001 00001000 ffff ffff";
	ASSERT_EQ(walk_chunk(pkt, v, &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_chunk_validate(&c), SCTP_PERR_SACK_LEN_MISMATCH);
	EXPECT_EQ(hex::dump(build(sctp_chunk_rebuild, &c)), hex::dump(hex::bytes(v)));
}

TEST(Chunk, ValidateRefusesLengthBelowHeaderForEveryType)
{
	// A caller-made chunk with a length the walker would refuse: every
	// parser must answer without reading a value it was not given.
	for (int t = 0; t < 256; t++) {
		for (uint16_t len = 0; len < SCTP_CHUNK_HDR_LEN; len++) {
			struct sctp_chunk c {};
			c.type = static_cast<uint8_t>(t);
			c.length = len;
			c.value = nullptr;
			EXPECT_EQ(sctp_chunk_validate(&c), SCTP_PERR_CHUNK_LEN_SHORT) << t;
		}
	}
}

TEST(Chunk, UnknownActionBits)
{
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(0x3f), SCTP_UNKNOWN_STOP);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(0x40), SCTP_UNKNOWN_STOP_REPORT);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(0x7f), SCTP_UNKNOWN_STOP_REPORT);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(0x80), SCTP_UNKNOWN_SKIP);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(0xbf), SCTP_UNKNOWN_SKIP);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(0xc0), SCTP_UNKNOWN_SKIP_REPORT);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(0xff), SCTP_UNKNOWN_SKIP_REPORT);
	// The extensions were numbered so that a peer without them does the
	// right thing: I-DATA stops and reports, PAD and RE-CONFIG are skipped,
	// FORWARD TSN and ASCONF are skipped and reported.
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(SCTP_CHUNK_I_DATA), SCTP_UNKNOWN_STOP_REPORT);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(SCTP_CHUNK_PAD), SCTP_UNKNOWN_SKIP);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(SCTP_CHUNK_RECONFIG), SCTP_UNKNOWN_SKIP);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(SCTP_CHUNK_FORWARD_TSN), SCTP_UNKNOWN_SKIP_REPORT);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(SCTP_CHUNK_ASCONF), SCTP_UNKNOWN_SKIP_REPORT);
	EXPECT_EQ(SCTP_UNKNOWN_ACTION_OF_CHUNK(SCTP_CHUNK_DATA), SCTP_UNKNOWN_STOP);
}

TEST(Chunk, BundleWalksValidatesAndRebuilds)
{
	// Every bundleable case in one packet; the rebuilt packet equals the input.
	std::string chunks;
	for (const auto &k : kCases) {
		if (k.type == SCTP_CHUNK_INIT || k.type == SCTP_CHUNK_INIT_ACK ||
		    k.type == SCTP_CHUNK_SHUTDOWN_COMPLETE)
			continue;
		chunks += k.valid;
	}
	chunks += "bf01 0008 01020304"; // unknown, skip
	Bytes pkt = packet(chunks);
	struct sctp_packet p;
	struct sctp_chunk_iter it;
	struct sctp_chunk c;
	ASSERT_EQ(sctp_packet_parse(&p, pkt.data(), pkt.size()), SCTP_PERR_OK);
	sctp_chunk_iter_init(&it, &p);

	std::vector<uint8_t> out(pkt.size() + 64, 0xee);
	struct sctp_writer w = sctp_writer_make(out.data(), out.size());
	sctp_packet_build_header(&w, p.src_port, p.dst_port, p.vtag);
	size_t n = 0;
	while (sctp_chunk_iter_next(&it, &c)) {
		EXPECT_EQ(sctp_chunk_validate(&c), SCTP_PERR_OK) << sctp_chunk_type_name(c.type);
		sctp_chunk_rebuild(&w, &c);
		n++;
	}
	ASSERT_EQ(it.err, SCTP_PERR_OK);
	EXPECT_EQ(n, sizeof(kCases) / sizeof(kCases[0]) - 3 + 1);
	ASSERT_TRUE(sctp_writer_ok(&w));
	out.resize(w.off);
	EXPECT_EQ(hex::dump(out), hex::dump(pkt));
}

TEST(Chunk, RebuildOverflowIsStickyAndBounded)
{
	Bytes pkt;
	struct sctp_chunk c;
	for (const auto &k : kCases) {
		ASSERT_EQ(walk_chunk(pkt, k.valid, &c), SCTP_PERR_OK);
		size_t need = pkt.size() - 12;
		std::vector<uint8_t> buf(need + 16, 0xee);
		struct sctp_writer w = sctp_writer_make(buf.data(), need - 1);
		sctp_chunk_rebuild(&w, &c);
		EXPECT_FALSE(sctp_writer_ok(&w)) << k.name;
		for (size_t i = need - 1; i < buf.size(); i++)
			ASSERT_EQ(buf[i], 0xee) << k.name << " wrote past the end";
	}
}
