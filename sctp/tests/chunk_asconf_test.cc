// SPDX-License-Identifier: BSD-3-Clause
// ASCONF and ASCONF-ACK, RFC 5061 §4.1.1 and §4.1.2: vectors from the
// sctp-addip capture, IPv6, building from parameter builders, round trips,
// and a missing, mistyped or malformed address parameter.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "codec_util.h"

extern "C" {
#include "sctp/cause.h"
#include "sctp/chunk_asconf.h"
#include "sctp/param.h"
}

using namespace codec_test;

namespace {

std::vector<struct sctp_tlv>
params_of(const struct sctp_asconf *a)
{
	Tlvs ps = tlvs_of(sctp_asconf_params_iter_init, a);
	EXPECT_EQ(ps.err, SCTP_PERR_OK);
	return ps.list;
}

// pkts__sctp-addip.cap frame 6: from 192.168.0.101, add 192.168.0.102.
const char *const kAsconf = "c100 0020 a1104d8a 0005 0008 c0a80065"
			    "c001 0010 00000000 0005 0008 c0a80066";
// Frame 8: the ASCONF-ACK, no parameters (everything succeeded).
const char *const kAsconfAck = "8000 0008 a1104d8a";

} // namespace

TEST(ChunkAsconf, CapturedAsconfFields)
{
	Bytes pkt = packet(kAsconf);
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_asconf a;
	ASSERT_EQ(sctp_asconf_parse(&c, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.type, SCTP_CHUNK_ASCONF);
	EXPECT_EQ(a.flags, 0);
	EXPECT_EQ(a.serial, 0xa1104d8au);
	EXPECT_EQ(a.addr.type, SCTP_PARAM_IPV4_ADDR);
	EXPECT_EQ(hex::dump(a.addr.addr, 4), "c0a80065");
	EXPECT_EQ(a.params_len, 16);
	EXPECT_EQ(a.params, pkt.data() + SCTP_COMMON_HDR_LEN + 16);
	auto ps = params_of(&a);
	ASSERT_EQ(ps.size(), 1u);
	struct sctp_param_asconf_addr add;
	ASSERT_EQ(sctp_param_asconf_addr_parse(&ps[0], &add), SCTP_PERR_OK);
	EXPECT_EQ(add.type, SCTP_PARAM_ADD_IP);
	EXPECT_EQ(add.correlation_id, 0u);
	EXPECT_EQ(hex::dump(add.addr.addr, 4), "c0a80066");
	EXPECT_EQ(hex::dump(build(sctp_asconf_build, &a)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkAsconf, CapturedAsconfAckFields)
{
	Bytes pkt = packet(kAsconfAck);
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_asconf a;
	ASSERT_EQ(sctp_asconf_parse(&c, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.type, SCTP_CHUNK_ASCONF_ACK);
	EXPECT_EQ(a.serial, 0xa1104d8au);
	EXPECT_EQ(a.params_len, 0);
	EXPECT_TRUE(params_of(&a).empty());
	EXPECT_EQ(hex::dump(build(sctp_asconf_build, &a)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkAsconf, AsconfFromBuilders)
{
	struct sctp_asconf a = {};
	a.type = SCTP_CHUNK_ASCONF;
	a.serial = 0xa1104d8a;
	a.addr.type = SCTP_PARAM_IPV4_ADDR;
	std::memcpy(a.addr.addr, "\xc0\xa8\x00\x65", 4);
	struct sctp_param_asconf_addr add = {};
	add.type = SCTP_PARAM_ADD_IP;
	add.addr.type = SCTP_PARAM_IPV4_ADDR;
	std::memcpy(add.addr.addr, "\xc0\xa8\x00\x66", 4);
	Bytes out = build([&](struct sctp_writer *w) {
		size_t off = sctp_asconf_build_begin(w, &a);
		sctp_param_asconf_addr_build(w, &add);
		sctp_asconf_build_end(w, off);
	});
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(kAsconf)));
}

TEST(ChunkAsconf, AckWithResponsesFromBuilders)
{
	struct sctp_asconf a = {};
	a.type = SCTP_CHUNK_ASCONF_ACK;
	a.serial = 1;
	struct sctp_param_success_ind ok = { 1 };
	Bytes cause = hex::bytes("00a1 0004");
	struct sctp_param_error_cause_ind err = { 2, cause.data(), 4 };
	const char *want = "8000 001c 00000001 c005 0008 00000001 c003 000c 00000002 00a1 0004";
	Bytes out = build([&](struct sctp_writer *w) {
		size_t off = sctp_asconf_build_begin(w, &a);
		sctp_param_success_ind_build(w, &ok);
		sctp_param_error_cause_ind_build(w, &err);
		sctp_asconf_build_end(w, off);
	});
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(want)));

	Bytes pkt = packet(want);
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_asconf back;
	ASSERT_EQ(sctp_asconf_parse(&c, &back), SCTP_PERR_OK);
	auto ps = params_of(&back);
	ASSERT_EQ(ps.size(), 2u);
	struct sctp_param_error_cause_ind e;
	ASSERT_EQ(sctp_param_error_cause_ind_parse(&ps[1], &e), SCTP_PERR_OK);
	EXPECT_EQ(e.correlation_id, 2u);
	EXPECT_EQ(hex::dump(build(sctp_asconf_build, &back)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkAsconf, Ipv6AndRawFlags)
{
	Bytes pkt = packet("c1a5 002c 00000007 0006 0014 20010db8 00000000 00000000 00000001"
			   "c004 0010 00000009 0005 0008 0a000001");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_asconf a;
	ASSERT_EQ(sctp_asconf_parse(&c, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.flags, 0xa5);
	EXPECT_EQ(a.addr.type, SCTP_PARAM_IPV6_ADDR);
	EXPECT_EQ(a.addr.addr[15], 1);
	auto ps = params_of(&a);
	ASSERT_EQ(ps.size(), 1u);
	EXPECT_EQ(ps[0].type, SCTP_PARAM_SET_PRIMARY);
	EXPECT_EQ(hex::dump(build(sctp_asconf_build, &a)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkAsconf, Malformed)
{
	struct {
		const char *chunk;
		enum sctp_parse_err err;
	} cases[] = {
		{ "c100 0004", SCTP_PERR_CHUNK_LEN_FIXED },
		{ "c100 0006 0000 0000", SCTP_PERR_CHUNK_LEN_FIXED },
		{ "c100 0008 00000001", SCTP_PERR_CHUNK_LEN_FIXED }, // no address parameter
		{ "c100 000a 00000001 0005 0000", SCTP_PERR_CHUNK_LEN_FIXED },
		{ "c100 000c 00000001 0005 0000", SCTP_PERR_PARAM_LEN_SHORT },
		{ "c100 000c 00000001 0005 0004", SCTP_PERR_PARAM_LEN_INVALID },
		{ "c100 0010 00000001 0005 0010 c0a80001", SCTP_PERR_PARAM_LEN_OVERRUN },
		{ "c100 0010 00000001 0006 0008 c0a80001", SCTP_PERR_PARAM_LEN_INVALID },
		{ "c100 0010 00000001 0007 0008 c0a80001", SCTP_PERR_PARAM_ADDR_TYPE },
		{ "c100 0014 00000001 0005 0008 c0a80001 c001 0003", SCTP_PERR_PARAM_LEN_SHORT },
		{ "c100 0014 00000001 0005 0008 c0a80001 c001 0010", SCTP_PERR_PARAM_LEN_OVERRUN },
		{ "c100 0012 00000001 0005 0008 c0a80001 c001 0000", SCTP_PERR_PARAM_TRUNCATED },
		{ "8000 0004", SCTP_PERR_CHUNK_LEN_FIXED },
		{ "8000 0006 0000 0000", SCTP_PERR_CHUNK_LEN_FIXED },
		{ "8000 000c 00000001 c005 0000", SCTP_PERR_PARAM_LEN_SHORT }, // zero-length
		{ "8000 000c 00000001 c005 0008", SCTP_PERR_PARAM_LEN_OVERRUN },
	};
	for (const auto &tc : cases)
		EXPECT_EQ(chunk_verdict(sctp_asconf_parse, tc.chunk), tc.err) << tc.chunk;
}

TEST(ChunkAsconf, BuilderOverflow)
{
	Bytes pkt = packet(kAsconf);
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_asconf a;
	ASSERT_EQ(sctp_asconf_parse(&c, &a), SCTP_PERR_OK);
	uint8_t buf[16];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_asconf_build(&w, &a);
	EXPECT_FALSE(sctp_writer_ok(&w));
}

TEST(ChunkAsconf, BadAddressTypeIsABuilderError)
{
	struct sctp_asconf a = {};
	a.type = SCTP_CHUNK_ASCONF;
	uint8_t buf[64];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_asconf_build(&w, &a);
	EXPECT_FALSE(sctp_writer_ok(&w));
}
