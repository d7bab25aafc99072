// SPDX-License-Identifier: BSD-3-Clause
// Parameters of RFC 9260 §3.3.2.1 / §3.3.3.1, RFC 3758, RFC 4820, RFC 4895,
// RFC 5061, RFC 6525 and RFC 9653, and the INIT / INIT ACK summary decoder:
// hand-written vectors, builders from host values, round trips, and every
// way a peer can get a parameter's length wrong.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "codec_util.h"

extern "C" {
#include "sctp/param.h"
}

using namespace codec_test;

namespace {

// The first parameter in b as the walker yields it.
struct sctp_tlv
tlv(const Bytes &b)
{
	return first_tlv(SCTP_TLV_PARAM, b);
}

const std::vector<TlvCase> &
cases()
{
	static const std::vector<TlvCase> all = {
		{ "IPV4_ADDR",
		  { "0005 0008 c0a80001" },
		  TLV_PARSE_BUILD(sctp_param_addr),
		  { { "0005 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "0005 0007 c0a800", SCTP_PERR_PARAM_LEN_INVALID },
		    { "0005 000c c0a80001 00000000", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "IPV6_ADDR",
		  { "0006 0014 20010db8 00000000 00000000 00000001" },
		  TLV_PARSE_BUILD(sctp_param_addr),
		  { { "0006 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "0006 0008 c0a80001", SCTP_PERR_PARAM_LEN_INVALID },
		    { "0006 0018 20010db8 00000000 00000000 00000001 00000000",
		      SCTP_PERR_PARAM_LEN_INVALID },
		    { "0007 0008 c0a80001", SCTP_PERR_PARAM_ADDR_TYPE } } },
		{ "STATE_COOKIE",
		  { "0007 000b 01020304 050607 00", "0007 0005 ff 000000", "0007 0008 deadbeef" },
		  TLV_PARSE_BUILD(sctp_param_state_cookie),
		  { { "0007 0004", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "UNRECOGNIZED_PARAM",
		  { "0008 0008 c123 0004", "0008 0010 c123 0005 aa000000 8123 0004" },
		  TLV_PARSE_BUILD(sctp_param_unrecognized),
		  { { "0008 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "0008 0007 c12300", SCTP_PERR_PARAM_TRUNCATED },
		    { "0008 0008 c123 0002", SCTP_PERR_PARAM_LEN_SHORT },
		    { "0008 0008 c123 0008", SCTP_PERR_PARAM_LEN_OVERRUN } } },
		{ "COOKIE_PRESERVATIVE",
		  { "0009 0008 0000ea60" },
		  TLV_PARSE_BUILD(sctp_param_cookie_preservative),
		  { { "0009 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "0009 0006 0000 0000", SCTP_PERR_PARAM_LEN_INVALID },
		    { "0009 000c 0000ea60 00000000", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "HOST_NAME_ADDR",
		  { "000b 0010 6578616d 706c652e 6f726700", "000b 0006 6100 0000" },
		  TLV_PARSE_BUILD(sctp_param_host_name),
		  { { "000b 0004", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "SUPPORTED_ADDR_TYPES",
		  { "000c 0006 0005 0000", "000c 0008 0005 0006", "000c 000a 0005 0006 000b 0000" },
		  TLV_PARSE_BUILD(sctp_param_supported_addr_types),
		  { { "000c 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "000c 0005 00 000000", SCTP_PERR_PARAM_LEN_INVALID },
		    { "000c 0007 0005 00 00", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "ECN_CAPABLE",
		  { "8000 0004" },
		  TLV_PARSE_BUILD(sctp_param_ecn_capable),
		  { { "8000 0008 00000000", SCTP_PERR_PARAM_LEN_INVALID },
		    { "8000 0005 00 000000", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "FORWARD_TSN_SUPPORTED",
		  { "c000 0004" },
		  TLV_PARSE_BUILD(sctp_param_forward_tsn_supported),
		  { { "c000 0008 00000000", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "ZERO_CHECKSUM_ACCEPTABLE",
		  { "8001 0008 00000001" },
		  TLV_PARSE_BUILD(sctp_param_zero_checksum),
		  { { "8001 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "8001 0006 0000 0000", SCTP_PERR_PARAM_LEN_INVALID },
		    { "8001 000c 00000001 00000000", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "RANDOM",
		  { "8002 0024 00010203 04050607 08090a0b 0c0d0e0f 10111213 14151617 18191a1b "
		    "1c1d1e1f",
		    "8002 0005 42 000000" },
		  TLV_PARSE_BUILD(sctp_param_random),
		  { { "8002 0004", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "CHUNK_LIST",
		  { "8003 0008 0003c180", "8003 0005 c1 000000", "8003 0004" },
		  TLV_PARSE_BUILD(sctp_param_chunk_list),
		  {} },
		{ "HMAC_ALGO",
		  { "8004 0006 0001 0000", "8004 0008 0003 0001" },
		  TLV_PARSE_BUILD(sctp_param_hmac_algo),
		  { { "8004 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "8004 0007 000300 00", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "PADDING",
		  { "8005 0008 00000000", "8005 0004", "8005 0006 abcd 0000" },
		  TLV_PARSE_BUILD(sctp_param_padding),
		  {} },
		{ "SUPPORTED_EXTENSIONS",
		  { "8008 0007 c0820f 00", "8008 0004", "8008 0008 c0820fc1" },
		  TLV_PARSE_BUILD(sctp_param_supported_ext),
		  {} },
		{ "ADAPTATION_LAYER_IND",
		  { "c006 0008 01020304" },
		  TLV_PARSE_BUILD(sctp_param_adaptation),
		  { { "c006 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "c006 0007 010203 00", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "ADD_IP / DEL_IP / SET_PRIMARY",
		  { "c001 0010 00000001 0005 0008 c0a80066",
		    "c002 0010 00000002 0005 0008 c0a80065",
		    "c004 0010 00000003 0005 0008 c0a80066",
		    "c001 001c 00000004 0006 0014 20010db8 00000000 00000000 00000002" },
		  TLV_PARSE_BUILD(sctp_param_asconf_addr),
		  { { "c001 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "c001 0008 00000001", SCTP_PERR_PARAM_LEN_INVALID },
		    { "c001 000a 00000001 0005", SCTP_PERR_PARAM_LEN_INVALID },
		    { "c001 000c 00000001 0005 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "c001 0010 00000001 0005 000c c0a80066", SCTP_PERR_PARAM_LEN_INVALID },
		    { "c001 0010 00000001 0005 0004 c0a80066", SCTP_PERR_PARAM_LEN_INVALID },
		    { "c001 0014 00000001 0005 0008 c0a80066 00000000",
		      SCTP_PERR_PARAM_LEN_INVALID },
		    { "c001 0010 00000001 0006 0008 c0a80066", SCTP_PERR_PARAM_LEN_INVALID },
		    { "c001 0010 00000001 0007 0008 c0a80066", SCTP_PERR_PARAM_ADDR_TYPE } } },
		{ "ERROR_CAUSE_IND",
		  { "c003 0010 00000005 0001 0008 0007 0000",
		    "c003 0014 00000006 000c 0006 6279 0000 000d 0004" },
		  TLV_PARSE_BUILD(sctp_param_error_cause_ind),
		  { { "c003 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "c003 0008 00000005", SCTP_PERR_PARAM_LEN_INVALID },
		    { "c003 0006 0000 0000", SCTP_PERR_PARAM_LEN_INVALID },
		    { "c003 000a 00000005 0001", SCTP_PERR_CAUSE_TRUNCATED },
		    { "c003 000c 00000005 0001 0003", SCTP_PERR_CAUSE_LEN_SHORT },
		    { "c003 000c 00000005 0001 0008", SCTP_PERR_CAUSE_LEN_OVERRUN } } },
		{ "SUCCESS_IND",
		  { "c005 0008 00000007" },
		  TLV_PARSE_BUILD(sctp_param_success_ind),
		  { { "c005 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "c005 000c 00000007 00000000", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "OUT_SSN_RESET_REQ",
		  { "000d 0016 01020304 0a0b0c0d 11223344 0001 0002 0003 0000",
		    "000d 0010 01020304 0a0b0c0d 11223344" },
		  TLV_PARSE_BUILD(sctp_param_out_reset_req),
		  { { "000d 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "000d 000c 01020304 0a0b0c0d", SCTP_PERR_PARAM_LEN_INVALID },
		    { "000d 0011 01020304 0a0b0c0d 11223344 00 000000",
		      SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "IN_SSN_RESET_REQ",
		  { "000e 000a 00000009 0005 0000", "000e 0008 00000009" },
		  TLV_PARSE_BUILD(sctp_param_in_reset_req),
		  { { "000e 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "000e 0006 0000 0000", SCTP_PERR_PARAM_LEN_INVALID },
		    { "000e 0009 00000009 00 000000", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "SSN_TSN_RESET_REQ",
		  { "000f 0008 00000009" },
		  TLV_PARSE_BUILD(sctp_param_tsn_reset_req),
		  { { "000f 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "000f 000c 00000009 00000000", SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "RECONFIG_RESPONSE",
		  { "0010 000c 00000009 00000001",
		    "0010 0014 00000009 00000001 11111111 22222222" },
		  TLV_PARSE_BUILD(sctp_param_reconfig_resp),
		  { { "0010 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "0010 0008 00000009", SCTP_PERR_PARAM_LEN_INVALID },
		    { "0010 0010 00000009 00000001 11111111", SCTP_PERR_PARAM_LEN_INVALID },
		    { "0010 0018 00000009 00000001 11111111 22222222 33333333",
		      SCTP_PERR_PARAM_LEN_INVALID } } },
		{ "ADD_OUT/IN_STREAMS_REQ",
		  { "0011 000c 00000003 0010 0000", "0012 000c 00000004 0020 0000",
		    "0011 000c 00000003 0010 abcd" },
		  TLV_PARSE_BUILD(sctp_param_add_streams_req),
		  { { "0011 0004", SCTP_PERR_PARAM_LEN_INVALID },
		    { "0011 0008 00000003", SCTP_PERR_PARAM_LEN_INVALID },
		    { "0012 0010 00000004 0020 0000 00000000", SCTP_PERR_PARAM_LEN_INVALID } } },
	};
	return all;
}

} // namespace

// build(parse(x)) == x for every canonical vector, padding left to the
// next TLV (the builder writes exactly Length bytes).
TEST(Param, RoundTripEveryType)
{
	expect_tlv_round_trips(SCTP_TLV_PARAM, cases());
}

// Well framed but wrong for the type: wrong fixed length, empty where a
// value is required, odd list lengths, bad embedded TLVs.
TEST(Param, WrongLengthsForType)
{
	expect_tlv_wrong_lengths(SCTP_TLV_PARAM, cases());
}

// Framing errors the walker catches before any parameter parser runs.
TEST(Param, FramingErrorsOfEveryVector)
{
	expect_tlv_framing_errors(SCTP_TLV_PARAM, cases(), "8000 0004");
}

TEST(Param, Ipv4Fields)
{
	Bytes b = hex::bytes("0005 0008 c0a80001");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_addr a;
	ASSERT_EQ(sctp_param_addr_parse(&t, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.type, SCTP_PARAM_IPV4_ADDR);
	EXPECT_EQ(sctp_param_addr_len(&a), 4);
	EXPECT_EQ(hex::dump(a.addr, 16),
		  hex::dump(hex::bytes("c0a80001 00000000 00000000 00000000")));
}

TEST(Param, Ipv6Fields)
{
	Bytes b = hex::bytes("0006 0014 20010db8 00000000 00000000 00000001");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_addr a;
	ASSERT_EQ(sctp_param_addr_parse(&t, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.type, SCTP_PARAM_IPV6_ADDR);
	EXPECT_EQ(sctp_param_addr_len(&a), 16);
	EXPECT_EQ(a.addr[0], 0x20);
	EXPECT_EQ(a.addr[15], 0x01);
}

TEST(Param, AddrBuildFromHost)
{
	struct sctp_param_addr a = {};
	a.type = SCTP_PARAM_IPV4_ADDR;
	a.addr[0] = 10;
	a.addr[3] = 7;
	EXPECT_EQ(hex::dump(build(sctp_param_addr_build, &a)), "00050008 0a000007");
	a.type = SCTP_PARAM_IPV6_ADDR;
	EXPECT_EQ(hex::dump(build(sctp_param_addr_build, &a)),
		  "00060014 0a000007 00000000 00000000 00000000");
}

TEST(Param, AddrBuildRejectsBadType)
{
	struct sctp_param_addr a = {};
	a.type = SCTP_PARAM_STATE_COOKIE;
	uint8_t buf[32];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_param_addr_build(&w, &a);
	EXPECT_FALSE(sctp_writer_ok(&w));
}

TEST(Param, StateCookieOddLengthFields)
{
	Bytes b = hex::bytes("0007 000b 01020304 050607 00");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_state_cookie c;
	ASSERT_EQ(sctp_param_state_cookie_parse(&t, &c), SCTP_PERR_OK);
	EXPECT_EQ(c.len, 7);
	EXPECT_EQ(hex::dump(c.cookie, c.len), "01020304 050607");
	EXPECT_EQ(c.cookie, b.data() + 4); // a view, not a copy

	const uint8_t cookie[] = { 0xaa, 0xbb, 0xcc };
	struct sctp_param_state_cookie in = { cookie, 3 };
	EXPECT_EQ(hex::dump(build(sctp_param_state_cookie_build, &in)), "00070007 aabbcc");
}

TEST(Param, ParamsPadBeforeTheNextOne)
{
	// RFC 9260 §3.2: an odd-length parameter is padded before the next;
	// the last one's padding is left to the chunk.
	const uint8_t cookie[] = { 0xaa, 0xbb, 0xcc };
	struct sctp_param_state_cookie c = { cookie, 3 };
	const uint16_t types[] = { SCTP_PARAM_IPV4_ADDR };
	struct sctp_param_supported_addr_types s = { { nullptr, types, 1 } };
	Bytes out = build([&](struct sctp_writer *w) {
		sctp_param_state_cookie_build(w, &c);
		sctp_param_ecn_capable_build(w);
		sctp_param_supported_addr_types_build(w, &s);
	});
	EXPECT_EQ(hex::dump(out), "00070007 aabbcc00 80000004 000c0006 0005");
}

TEST(Param, UnrecognizedFields)
{
	Bytes b = hex::bytes("0008 0010 c123 0005 aa000000 8123 0004");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_unrecognized u;
	ASSERT_EQ(sctp_param_unrecognized_parse(&t, &u), SCTP_PERR_OK);
	EXPECT_EQ(u.len, 12);
	uint32_t n;
	EXPECT_EQ(sctp_param_walk_check(SCTP_TLV_PARAM, u.params, u.len, &n), SCTP_PERR_OK);
	EXPECT_EQ(n, 2u);
}

TEST(Param, UnrecognizedBuildFromReport)
{
	// The INIT ACK answer to an unknown INIT parameter: a copy of it, whole.
	Bytes unknown = hex::bytes("c123 0005 aa 000000");
	struct sctp_tlv t = tlv(unknown);
	struct sctp_param_unrecognized u = { sctp_param_tlv_bytes(&t), t.length };
	EXPECT_EQ(hex::dump(build(sctp_param_unrecognized_build, &u)), "00080009 c1230005 aa");
}

TEST(Param, CookiePreservativeFields)
{
	Bytes b = hex::bytes("0009 0008 0000ea60");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_cookie_preservative p;
	ASSERT_EQ(sctp_param_cookie_preservative_parse(&t, &p), SCTP_PERR_OK);
	EXPECT_EQ(p.increment_ms, 60000u);
	struct sctp_param_cookie_preservative in = { 1000 };
	EXPECT_EQ(hex::dump(build(sctp_param_cookie_preservative_build, &in)), "00090008 000003e8");
}

TEST(Param, HostNameFields)
{
	Bytes b = hex::bytes("000b 0010 6578616d 706c652e 6f726700");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_host_name h;
	ASSERT_EQ(sctp_param_host_name_parse(&t, &h), SCTP_PERR_OK);
	EXPECT_EQ(h.len, 12);
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(h.name)), "example.org");
	const uint8_t name[] = { 'a', 0 };
	struct sctp_param_host_name in = { name, 2 };
	EXPECT_EQ(hex::dump(build(sctp_param_host_name_build, &in)), "000b0006 6100");
}

TEST(Param, SupportedAddrTypesFields)
{
	Bytes b = hex::bytes("000c 000a 0005 0006 000b 0000");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_supported_addr_types s;
	ASSERT_EQ(sctp_param_supported_addr_types_parse(&t, &s), SCTP_PERR_OK);
	ASSERT_EQ(s.types.count, 3);
	EXPECT_EQ(sctp_param_u16_list_at(&s.types, 0), 5);
	EXPECT_EQ(sctp_param_u16_list_at(&s.types, 1), 6);
	EXPECT_EQ(sctp_param_u16_list_at(&s.types, 2), 11);
	const uint16_t types[] = { 6, 5 };
	struct sctp_param_supported_addr_types in = { { nullptr, types, 2 } };
	EXPECT_EQ(hex::dump(build(sctp_param_supported_addr_types_build, &in)),
		  "000c0008 00060005");
}

TEST(Param, U16ListWithCountButNoValuesIsABuilderError)
{
	struct sctp_param_supported_addr_types in = { { nullptr, nullptr, 2 } };
	uint8_t buf[32];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_param_supported_addr_types_build(&w, &in);
	EXPECT_FALSE(sctp_writer_ok(&w));
}

TEST(Param, EcnAndForwardTsnBuild)
{
	EXPECT_EQ(hex::dump(build(sctp_param_ecn_capable_build)), "80000004");
	EXPECT_EQ(hex::dump(build(sctp_param_forward_tsn_supported_build)), "c0000004");
}

TEST(Param, ZeroChecksumFields)
{
	Bytes b = hex::bytes("8001 0008 00000001");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_zero_checksum z;
	ASSERT_EQ(sctp_param_zero_checksum_parse(&t, &z), SCTP_PERR_OK);
	EXPECT_EQ(z.edmid, SCTP_EDMID_DTLS);
	struct sctp_param_zero_checksum in = { 0x01020304 };
	EXPECT_EQ(hex::dump(build(sctp_param_zero_checksum_build, &in)), "80010008 01020304");
}

TEST(Param, AuthParamsFields)
{
	Bytes r = hex::bytes("8002 0024 00010203 04050607 08090a0b 0c0d0e0f 10111213 14151617 "
			     "18191a1b 1c1d1e1f");
	struct sctp_tlv t = tlv(r);
	struct sctp_param_random rnd;
	ASSERT_EQ(sctp_param_random_parse(&t, &rnd), SCTP_PERR_OK);
	EXPECT_EQ(rnd.len, 32);
	EXPECT_EQ(rnd.random[31], 0x1f);

	Bytes cl = hex::bytes("8003 0008 0003c180");
	t = tlv(cl);
	struct sctp_param_chunk_list list;
	ASSERT_EQ(sctp_param_chunk_list_parse(&t, &list), SCTP_PERR_OK);
	ASSERT_EQ(list.count, 4);
	EXPECT_EQ(list.types[2], SCTP_CHUNK_ASCONF);

	Bytes h = hex::bytes("8004 0008 0003 0001");
	t = tlv(h);
	struct sctp_param_hmac_algo algo;
	ASSERT_EQ(sctp_param_hmac_algo_parse(&t, &algo), SCTP_PERR_OK);
	ASSERT_EQ(algo.ids.count, 2);
	EXPECT_EQ(sctp_param_u16_list_at(&algo.ids, 0), SCTP_HMAC_SHA256);
	EXPECT_EQ(sctp_param_u16_list_at(&algo.ids, 1), SCTP_HMAC_SHA1);

	const uint8_t rb[] = { 1, 2, 3 };
	struct sctp_param_random rin = { rb, 3 };
	const uint8_t types[] = { SCTP_CHUNK_ASCONF, SCTP_CHUNK_ASCONF_ACK };
	struct sctp_param_chunk_list lin = { types, 2 };
	const uint16_t ids[] = { SCTP_HMAC_SHA1 };
	struct sctp_param_hmac_algo hin = { { nullptr, ids, 1 } };
	EXPECT_EQ(hex::dump(build([&](struct sctp_writer *w) {
			  sctp_param_random_build(w, &rin);
			  sctp_param_chunk_list_build(w, &lin);
			  sctp_param_hmac_algo_build(w, &hin);
		  })),
		  "80020007 01020300 80030006 c1800000 80040006 0001");
}

TEST(Param, PaddingFields)
{
	Bytes b = hex::bytes("8005 0006 abcd 0000");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_padding p;
	ASSERT_EQ(sctp_param_padding_parse(&t, &p), SCTP_PERR_OK);
	EXPECT_EQ(p.len, 2);
	struct sctp_param_padding zeros = { nullptr, 5 };
	EXPECT_EQ(hex::dump(build(sctp_param_padding_build, &zeros)), "80050009 00000000 00");
}

TEST(Param, SupportedExtensionsFields)
{
	Bytes b = hex::bytes("8008 0007 c0820f 00");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_supported_ext e;
	ASSERT_EQ(sctp_param_supported_ext_parse(&t, &e), SCTP_PERR_OK);
	ASSERT_EQ(e.count, 3);
	EXPECT_EQ(e.types[0], SCTP_CHUNK_FORWARD_TSN);
	EXPECT_EQ(e.types[1], SCTP_CHUNK_RECONFIG);
	EXPECT_EQ(e.types[2], SCTP_CHUNK_AUTH);
	const uint8_t types[] = { SCTP_CHUNK_I_DATA, SCTP_CHUNK_I_FORWARD_TSN };
	struct sctp_param_supported_ext in = { types, 2 };
	EXPECT_EQ(hex::dump(build(sctp_param_supported_ext_build, &in)), "80080006 40c2");
}

TEST(Param, AdaptationFields)
{
	Bytes b = hex::bytes("c006 0008 01020304");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_adaptation a;
	ASSERT_EQ(sctp_param_adaptation_parse(&t, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.indication, 0x01020304u);
	struct sctp_param_adaptation in = { 0xdeadbeef };
	EXPECT_EQ(hex::dump(build(sctp_param_adaptation_build, &in)), "c0060008 deadbeef");
}

TEST(Param, AsconfAddrFields)
{
	// From the sctp-addip capture: Add IP Address 192.168.0.102.
	Bytes b = hex::bytes("c001 0010 00000000 0005 0008 c0a80066");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_asconf_addr a;
	ASSERT_EQ(sctp_param_asconf_addr_parse(&t, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.type, SCTP_PARAM_ADD_IP);
	EXPECT_EQ(a.correlation_id, 0u);
	EXPECT_EQ(a.addr.type, SCTP_PARAM_IPV4_ADDR);
	EXPECT_EQ(hex::dump(a.addr.addr, 4), "c0a80066");

	struct sctp_param_asconf_addr in = {};
	in.type = SCTP_PARAM_DEL_IP;
	in.correlation_id = 0x11223344;
	in.addr.type = SCTP_PARAM_IPV4_ADDR;
	std::memcpy(in.addr.addr, "\x0a\x00\x00\x01", 4);
	EXPECT_EQ(hex::dump(build(sctp_param_asconf_addr_build, &in)),
		  "c0020010 11223344 00050008 0a000001");
	in.type = SCTP_PARAM_SET_PRIMARY;
	EXPECT_EQ(hex::dump(build(sctp_param_asconf_addr_build, &in)),
		  "c0040010 11223344 00050008 0a000001");
}

TEST(Param, ErrorCauseIndFields)
{
	Bytes b = hex::bytes("c003 0014 00000006 000c 0006 6279 0000 000d 0004");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_error_cause_ind e;
	ASSERT_EQ(sctp_param_error_cause_ind_parse(&t, &e), SCTP_PERR_OK);
	EXPECT_EQ(e.correlation_id, 6u);
	EXPECT_EQ(e.causes_len, 12);
	uint32_t n;
	EXPECT_EQ(sctp_param_walk_check(SCTP_TLV_CAUSE, e.causes, e.causes_len, &n), SCTP_PERR_OK);
	EXPECT_EQ(n, 2u);

	Bytes cause = hex::bytes("00a1 0004"); // resource shortage, no TLV copy
	struct sctp_param_error_cause_ind in = { 9, cause.data(), 4 };
	EXPECT_EQ(hex::dump(build(sctp_param_error_cause_ind_build, &in)),
		  "c003000c 00000009 00a10004");
}

TEST(Param, SuccessIndFields)
{
	Bytes b = hex::bytes("c005 0008 00000007");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_success_ind s;
	ASSERT_EQ(sctp_param_success_ind_parse(&t, &s), SCTP_PERR_OK);
	EXPECT_EQ(s.correlation_id, 7u);
	struct sctp_param_success_ind in = { 0x0a0b0c0d };
	EXPECT_EQ(hex::dump(build(sctp_param_success_ind_build, &in)), "c0050008 0a0b0c0d");
}

TEST(Param, OutResetReqFields)
{
	Bytes b = hex::bytes("000d 0016 01020304 0a0b0c0d 11223344 0001 0002 0003 0000");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_out_reset_req r;
	ASSERT_EQ(sctp_param_out_reset_req_parse(&t, &r), SCTP_PERR_OK);
	EXPECT_EQ(r.req_seq, 0x01020304u);
	EXPECT_EQ(r.resp_seq, 0x0a0b0c0du);
	EXPECT_EQ(r.last_tsn, 0x11223344u);
	ASSERT_EQ(r.streams.count, 3);
	EXPECT_EQ(sctp_param_u16_list_at(&r.streams, 0), 1);
	EXPECT_EQ(sctp_param_u16_list_at(&r.streams, 2), 3);

	const uint16_t streams[] = { 7 };
	struct sctp_param_out_reset_req in = { 1, 2, 3, { nullptr, streams, 1 } };
	EXPECT_EQ(hex::dump(build(sctp_param_out_reset_req_build, &in)),
		  "000d0012 00000001 00000002 00000003 0007");
}

TEST(Param, InResetReqFields)
{
	Bytes b = hex::bytes("000e 000a 00000009 0005 0000");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_in_reset_req r;
	ASSERT_EQ(sctp_param_in_reset_req_parse(&t, &r), SCTP_PERR_OK);
	EXPECT_EQ(r.req_seq, 9u);
	ASSERT_EQ(r.streams.count, 1);
	EXPECT_EQ(sctp_param_u16_list_at(&r.streams, 0), 5);

	struct sctp_param_in_reset_req in = { 0xffffffff, { nullptr, nullptr, 0 } };
	EXPECT_EQ(hex::dump(build(sctp_param_in_reset_req_build, &in)), "000e0008 ffffffff");
}

TEST(Param, TsnResetReqFields)
{
	Bytes b = hex::bytes("000f 0008 00000009");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_tsn_reset_req r;
	ASSERT_EQ(sctp_param_tsn_reset_req_parse(&t, &r), SCTP_PERR_OK);
	EXPECT_EQ(r.req_seq, 9u);
	struct sctp_param_tsn_reset_req in = { 0x100 };
	EXPECT_EQ(hex::dump(build(sctp_param_tsn_reset_req_build, &in)), "000f0008 00000100");
}

TEST(Param, ReconfigRespFields)
{
	Bytes b = hex::bytes("0010 0014 00000009 00000001 11111111 22222222");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_reconfig_resp r;
	ASSERT_EQ(sctp_param_reconfig_resp_parse(&t, &r), SCTP_PERR_OK);
	EXPECT_EQ(r.resp_seq, 9u);
	EXPECT_EQ(r.result, (uint32_t)SCTP_RECONFIG_SUCCESS_PERFORMED);
	EXPECT_TRUE(r.has_tsns);
	EXPECT_EQ(r.sender_next_tsn, 0x11111111u);
	EXPECT_EQ(r.receiver_next_tsn, 0x22222222u);

	Bytes s = hex::bytes("0010 000c 00000009 00000002");
	t = tlv(s);
	ASSERT_EQ(sctp_param_reconfig_resp_parse(&t, &r), SCTP_PERR_OK);
	EXPECT_EQ(r.result, (uint32_t)SCTP_RECONFIG_DENIED);
	EXPECT_FALSE(r.has_tsns);

	struct sctp_param_reconfig_resp in = { 5, SCTP_RECONFIG_IN_PROGRESS, false, 0, 0 };
	EXPECT_EQ(hex::dump(build(sctp_param_reconfig_resp_build, &in)),
		  "0010000c 00000005 00000006");
}

TEST(Param, AddStreamsReqFields)
{
	Bytes b = hex::bytes("0012 000c 00000004 0020 abcd");
	struct sctp_tlv t = tlv(b);
	struct sctp_param_add_streams_req r;
	ASSERT_EQ(sctp_param_add_streams_req_parse(&t, &r), SCTP_PERR_OK);
	EXPECT_EQ(r.type, SCTP_PARAM_ADD_IN_STREAMS_REQ);
	EXPECT_EQ(r.req_seq, 4u);
	EXPECT_EQ(r.n_streams, 32);
	EXPECT_EQ(r.reserved, 0xabcd);
	struct sctp_param_add_streams_req in = { SCTP_PARAM_ADD_OUT_STREAMS_REQ, 1, 2, 0 };
	EXPECT_EQ(hex::dump(build(sctp_param_add_streams_req_build, &in)),
		  "0011000c 00000001 00020000");
}

TEST(Param, BuildersReportOverflow)
{
	uint8_t buf[6];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	struct sctp_param_cookie_preservative in = { 1 };
	sctp_param_cookie_preservative_build(&w, &in);
	EXPECT_FALSE(sctp_writer_ok(&w));
}

TEST(Param, TypeNames)
{
	EXPECT_STREQ(sctp_param_type_name(SCTP_PARAM_IPV4_ADDR), "IPV4_ADDR");
	EXPECT_STREQ(sctp_param_type_name(SCTP_PARAM_IPV6_ADDR), "IPV6_ADDR");
	EXPECT_STREQ(sctp_param_type_name(SCTP_PARAM_STATE_COOKIE), "STATE_COOKIE");
	EXPECT_STREQ(sctp_param_type_name(SCTP_PARAM_UNRECOGNIZED), "UNRECOGNIZED_PARAM");
	EXPECT_STREQ(sctp_param_type_name(SCTP_PARAM_SUPPORTED_EXTENSIONS), "SUPPORTED_EXTENSIONS");
	EXPECT_STREQ(sctp_param_type_name(SCTP_PARAM_FORWARD_TSN_SUPPORTED),
		     "FORWARD_TSN_SUPPORTED");
	EXPECT_STREQ(sctp_param_type_name(SCTP_PARAM_ZERO_CHECKSUM_ACCEPTABLE),
		     "ZERO_CHECKSUM_ACCEPTABLE");
	EXPECT_STREQ(sctp_param_type_name(SCTP_PARAM_ADD_IN_STREAMS_REQ), "ADD_IN_STREAMS_REQ");
	EXPECT_STREQ(sctp_param_type_name(SCTP_PARAM_ADAPTATION_LAYER_IND), "ADAPTATION_LAYER_IND");
	EXPECT_STREQ(sctp_param_type_name(0x1234), "UNKNOWN");
	EXPECT_STREQ(sctp_param_type_name(0xffff), "UNKNOWN");
	// Every type wire.h names has a name of its own.
	for (uint32_t ty = 0; ty <= 0xffff; ty++) {
		const char *n = sctp_param_type_name(static_cast<uint16_t>(ty));
		ASSERT_NE(n, nullptr);
		EXPECT_FALSE(std::string(n).empty());
	}
}

// ---- sctp_init_params_decode --------------------------------------------

TEST(InitParams, RealisticInitParams)
{
	// Two IPv4 addresses, Supported Address Types {IPv4} (padded),
	// ECN, Forward-TSN, Adaptation, Supported Extensions with an odd
	// count (last: its padding is not there).
	Bytes p = hex::bytes("0005 0008 c0a80001"
			     "0005 0008 0a000001"
			     "000c 0006 0005 0000"
			     "8000 0004"
			     "c000 0004"
			     "c006 0008 00000001"
			     "8008 0007 c0820f");
	struct sctp_init_params ip;
	ASSERT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK);
	ASSERT_EQ(ip.n_addrs, 2);
	EXPECT_EQ(ip.n_addrs_dropped, 0);
	EXPECT_EQ(hex::dump(ip.addrs[0].addr, 4), "c0a80001");
	EXPECT_EQ(hex::dump(ip.addrs[1].addr, 4), "0a000001");
	EXPECT_TRUE(ip.has_supported_addr_types);
	EXPECT_TRUE(ip.supports_ipv4);
	EXPECT_FALSE(ip.supports_ipv6);
	EXPECT_FALSE(ip.supports_host_name);
	EXPECT_TRUE(ip.ecn);
	EXPECT_TRUE(ip.forward_tsn);
	EXPECT_FALSE(ip.zero_checksum);
	EXPECT_TRUE(ip.has_adaptation);
	EXPECT_EQ(ip.adaptation_ind, 1u);
	ASSERT_TRUE(ip.has_supported_ext);
	ASSERT_EQ(ip.n_ext_chunks, 3);
	EXPECT_EQ(ip.ext_chunks[1], SCTP_CHUNK_RECONFIG);
	EXPECT_FALSE(ip.has_cookie);
	EXPECT_FALSE(ip.host_name_seen);
	EXPECT_EQ(ip.n_unknown, 0);
	EXPECT_FALSE(ip.stopped);
	EXPECT_EQ(ip.n_report, 0);
}

TEST(InitParams, InitAckParamsWithCookieAndExtensions)
{
	Bytes p = hex::bytes("0007 000b 01020304 050607 00"
			     "0006 0014 20010db8 00000000 00000000 00000001"
			     "0009 0008 00002710"
			     "8001 0008 00000001"
			     "8002 0008 01020304"
			     "8003 0006 c180 0000"
			     "8004 0006 0003 0000"
			     "8005 0008 00000000"
			     "0008 0008 c123 0004");
	struct sctp_init_params ip;
	ASSERT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK);
	ASSERT_TRUE(ip.has_cookie);
	EXPECT_EQ(ip.cookie_len, 7);
	EXPECT_EQ(ip.cookie, p.data() + 4);
	ASSERT_EQ(ip.n_addrs, 1);
	EXPECT_EQ(ip.addrs[0].type, SCTP_PARAM_IPV6_ADDR);
	EXPECT_TRUE(ip.has_cookie_preservative);
	EXPECT_EQ(ip.cookie_preservative_ms, 10000u);
	EXPECT_TRUE(ip.zero_checksum);
	EXPECT_EQ(ip.zero_checksum_edmid, SCTP_EDMID_DTLS);
	EXPECT_TRUE(ip.has_random);
	EXPECT_EQ(ip.random_len, 4);
	EXPECT_TRUE(ip.has_chunk_list);
	EXPECT_EQ(ip.n_auth_chunks, 2);
	EXPECT_TRUE(ip.has_hmac_algo);
	EXPECT_EQ(sctp_param_u16_list_at(&ip.hmac_ids, 0), SCTP_HMAC_SHA256);
	ASSERT_EQ(ip.n_peer_unrecognized, 1);
	EXPECT_EQ(ip.peer_unrecognized[0].type, SCTP_PARAM_UNRECOGNIZED);
	EXPECT_FALSE(ip.has_supported_addr_types);
	EXPECT_EQ(ip.n_unknown, 0);
}

TEST(InitParams, CapturedInitFromSctpWww)
{
	// pkts__sctp-www.cap frame 1 (FreeBSD): the parameters of its INIT.
	Bytes p = hex::bytes("0005 0008 9be6189b 0005 0008 9be6189c 000c 0006 0005 0000"
			     "8000 0004 c000 0004 c006 0008 00000000");
	struct sctp_init_params ip;
	ASSERT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK);
	EXPECT_EQ(ip.n_addrs, 2);
	EXPECT_TRUE(ip.supports_ipv4);
	EXPECT_TRUE(ip.ecn);
	EXPECT_TRUE(ip.forward_tsn);
	EXPECT_TRUE(ip.has_adaptation);
	EXPECT_EQ(ip.adaptation_ind, 0u);
}

TEST(InitParams, EmptyIsFine)
{
	struct sctp_init_params ip;
	EXPECT_EQ(sctp_init_params_decode(nullptr, 0, &ip), SCTP_PERR_OK);
	EXPECT_EQ(ip.n_addrs, 0);
	EXPECT_FALSE(ip.stopped);
}

TEST(InitParams, UnknownSkip)
{
	// 0x8123: upper bits 10, skip silently and go on.
	Bytes p = hex::bytes("8123 0005 aa000000 8000 0004");
	struct sctp_init_params ip;
	ASSERT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK);
	EXPECT_EQ(ip.n_unknown, 1);
	EXPECT_EQ(ip.n_report, 0);
	EXPECT_FALSE(ip.stopped);
	EXPECT_TRUE(ip.ecn);
}

TEST(InitParams, UnknownSkipReport)
{
	// 0xC123: upper bits 11, skip, go on, report.
	Bytes p = hex::bytes("c123 0006 abcd 0000 8000 0004");
	struct sctp_init_params ip;
	ASSERT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK);
	EXPECT_EQ(ip.n_unknown, 1);
	ASSERT_EQ(ip.n_report, 1);
	EXPECT_EQ(ip.report[0].type, 0xc123);
	EXPECT_EQ(ip.report[0].length, 6);
	EXPECT_EQ(ip.report[0].offset, 0u);
	EXPECT_EQ(hex::dump(sctp_param_tlv_bytes(&ip.report[0]), ip.report[0].length),
		  "c1230006 abcd");
	EXPECT_FALSE(ip.stopped);
	EXPECT_TRUE(ip.ecn);
}

TEST(InitParams, UnknownStopReport)
{
	// 0x4123: upper bits 01, report and process no further parameter.
	Bytes p = hex::bytes("0005 0008 c0a80001 4123 0004 8000 0004");
	struct sctp_init_params ip;
	ASSERT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK);
	EXPECT_EQ(ip.n_addrs, 1); // before the stop: processed
	EXPECT_TRUE(ip.stopped);
	EXPECT_EQ(ip.stop_offset, 8u);
	ASSERT_EQ(ip.n_report, 1);
	EXPECT_EQ(ip.report[0].type, 0x4123);
	EXPECT_FALSE(ip.ecn); // after the stop: not processed
}

TEST(InitParams, UnknownStopSilently)
{
	// 0x0123: upper bits 00, stop without reporting. Heartbeat Info (1)
	// has no business in an INIT and is treated the same way.
	for (const char *h : { "0123 0004 8000 0004", "0001 0008 01020304 8000 0004" }) {
		Bytes p = hex::bytes(h);
		struct sctp_init_params ip;
		ASSERT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK);
		EXPECT_TRUE(ip.stopped);
		EXPECT_EQ(ip.stop_offset, 0u);
		EXPECT_EQ(ip.n_report, 0);
		EXPECT_FALSE(ip.ecn);
	}
}

TEST(InitParams, StopHidesLaterGarbage)
{
	// What follows a "stop" parameter is not looked at.
	Bytes p = hex::bytes("0123 0004 ffff 0002");
	struct sctp_init_params ip;
	EXPECT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK);
	EXPECT_TRUE(ip.stopped);
}

TEST(InitParams, ReportsAreBounded)
{
	std::string h;
	for (int i = 0; i < SCTP_INIT_MAX_REPORTS + 3; i++)
		h += "c123 0004 ";
	Bytes p = hex::bytes(h);
	struct sctp_init_params ip;
	ASSERT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK);
	EXPECT_EQ(ip.n_unknown, SCTP_INIT_MAX_REPORTS + 3);
	EXPECT_EQ(ip.n_report, SCTP_INIT_MAX_REPORTS);
	EXPECT_EQ(ip.n_report_dropped, 3);
}

TEST(InitParams, AddressesAreBounded)
{
	std::string h;
	for (int i = 0; i < SCTP_INIT_MAX_ADDRS + 2; i++) {
		char a[32];
		std::snprintf(a, sizeof(a), "0005 0008 0a0000%02x ", i);
		h += a;
	}
	Bytes p = hex::bytes(h);
	struct sctp_init_params ip;
	ASSERT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK);
	EXPECT_EQ(ip.n_addrs, SCTP_INIT_MAX_ADDRS);
	EXPECT_EQ(ip.n_addrs_dropped, 2);
	EXPECT_EQ(ip.addrs[SCTP_INIT_MAX_ADDRS - 1].addr[3], SCTP_INIT_MAX_ADDRS - 1);
}

TEST(InitParams, HostNameIsReported)
{
	Bytes p = hex::bytes("000b 0010 6578616d 706c652e 6f726700 8000 0004");
	struct sctp_init_params ip;
	ASSERT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK);
	EXPECT_TRUE(ip.host_name_seen);
	EXPECT_EQ(ip.host_name.type, SCTP_PARAM_HOST_NAME_ADDR);
	EXPECT_EQ(ip.host_name.length, 16);
	EXPECT_EQ(ip.host_name.offset, 0u);
	EXPECT_TRUE(ip.ecn);
}

TEST(InitParams, SupportedAddrTypesAllKinds)
{
	Bytes p = hex::bytes("000c 000c 0006 000b 0005 0063");
	struct sctp_init_params ip;
	ASSERT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK);
	EXPECT_TRUE(ip.supports_ipv4);
	EXPECT_TRUE(ip.supports_ipv6);
	EXPECT_TRUE(ip.supports_host_name);
}

TEST(InitParams, BadKnownParamNamesItself)
{
	Bytes p = hex::bytes("8000 0004 0005 0006 c0a8 0000");
	struct sctp_init_params ip;
	EXPECT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_PARAM_LEN_INVALID);
	EXPECT_EQ(ip.err_type, SCTP_PARAM_IPV4_ADDR);
	EXPECT_EQ(ip.err_offset, 4u);
	EXPECT_TRUE(ip.ecn); // what came before is kept
}

TEST(InitParams, ZeroLengthParams)
{
	struct sctp_init_params ip;
	struct {
		const char *hex;
		enum sctp_parse_err err;
		uint16_t type;
	} cases[] = {
		{ "8000 0004 0007 0004", SCTP_PERR_PARAM_LEN_INVALID, SCTP_PARAM_STATE_COOKIE },
		{ "000c 0004", SCTP_PERR_PARAM_LEN_INVALID, SCTP_PARAM_SUPPORTED_ADDR_TYPES },
		{ "0005 0004", SCTP_PERR_PARAM_LEN_INVALID, SCTP_PARAM_IPV4_ADDR },
		{ "8004 0004", SCTP_PERR_PARAM_LEN_INVALID, SCTP_PARAM_HMAC_ALGO },
		{ "0008 0004", SCTP_PERR_PARAM_LEN_INVALID, SCTP_PARAM_UNRECOGNIZED },
		{ "8000 0004 0005 0000", SCTP_PERR_PARAM_LEN_SHORT, SCTP_PARAM_IPV4_ADDR },
	};
	for (const auto &c : cases) {
		SCOPED_TRACE(c.hex);
		Bytes p = hex::bytes(c.hex);
		EXPECT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), c.err);
		EXPECT_EQ(ip.err_type, c.type);
	}
	// Empty lists that are allowed.
	Bytes ok = hex::bytes("8008 0004 8003 0004 8005 0004");
	ASSERT_EQ(sctp_init_params_decode(ok.data(), ok.size(), &ip), SCTP_PERR_OK);
	EXPECT_TRUE(ip.has_supported_ext);
	EXPECT_EQ(ip.n_ext_chunks, 0);
}

TEST(InitParams, FramingErrors)
{
	struct sctp_init_params ip;
	struct {
		const char *hex;
		enum sctp_parse_err err;
		uint32_t off;
	} cases[] = {
		{ "8000 0004 c0", SCTP_PERR_PARAM_TRUNCATED, 4 },
		{ "8000 0004 c000 0003", SCTP_PERR_PARAM_LEN_SHORT, 4 },
		{ "8000 0004 0007 0010 aabbccdd", SCTP_PERR_PARAM_LEN_OVERRUN, 4 },
		// Padding missing before the next parameter: its header is
		// read two bytes late.
		{ "000c 0006 0005 8000 0004", SCTP_PERR_PARAM_TRUNCATED, 8 },
		{ "000c 0006 0005 c000 0004 8000 0004", SCTP_PERR_PARAM_LEN_OVERRUN, 8 },
	};
	for (const auto &c : cases) {
		SCOPED_TRACE(c.hex);
		Bytes p = hex::bytes(c.hex);
		EXPECT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), c.err);
		EXPECT_EQ(ip.err_offset, c.off);
	}
}

TEST(InitParams, LastParamPaddingOptional)
{
	// RFC 9260 §3.2: the last parameter's padding may or may not be there.
	for (const char *h : { "8008 0005 c0", "8008 0005 c0 000000" }) {
		Bytes p = hex::bytes(h);
		struct sctp_init_params ip;
		ASSERT_EQ(sctp_init_params_decode(p.data(), p.size(), &ip), SCTP_PERR_OK) << h;
		EXPECT_EQ(ip.n_ext_chunks, 1);
	}
}
