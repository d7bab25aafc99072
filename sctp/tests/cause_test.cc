// SPDX-License-Identifier: BSD-3-Clause
// Error causes, RFC 9260 §3.3.10.1-13, RFC 5061 §4.3, RFC 4895 §4.1:
// hand-written vectors, builders from host values, round trips, wrong
// lengths, absurd counts, and the framing errors of the cause walker.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec_util.h"

extern "C" {
#include "sctp/cause.h"
}

using namespace codec_test;

namespace {

// The first cause in b as the walker yields it.
struct sctp_tlv
tlv(const Bytes &b)
{
	return first_tlv(SCTP_TLV_CAUSE, b);
}

const std::vector<TlvCase> &
cases()
{
	static const std::vector<TlvCase> all = {
		{ "INVALID_STREAM",
		  { "0001 0008 0007 0000", "0001 0008 ffff abcd" },
		  TLV_PARSE_BUILD(sctp_cause_invalid_stream),
		  { { "0001 0004", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0001 0006 0007 0000", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0001 000c 0007 0000 00000000", SCTP_PERR_CAUSE_LEN_INVALID } } },
		{ "MISSING_MANDATORY_PARAM",
		  { "0002 000a 00000001 0007 0000", "0002 000c 00000002 0007 0005",
		    "0002 0008 00000000" },
		  TLV_PARSE_BUILD(sctp_cause_missing_param),
		  { { "0002 0004", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0002 0006 0000 0000", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0002 000a 00000002 0007 0000", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0002 000c 00000001 0007 0005", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0002 000b 00000001 0007 00 00", SCTP_PERR_CAUSE_LEN_INVALID },
		    // Absurd counts: 2^32 - 1 types in a 10-byte cause, and a
		    // count whose 4 + 2n wraps to the real length in 32 bits.
		    { "0002 000a ffffffff 0007 0000", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0002 000a 80000001 0007 0000", SCTP_PERR_CAUSE_LEN_INVALID } } },
		{ "STALE_COOKIE",
		  { "0003 0008 000f4240" },
		  TLV_PARSE_BUILD(sctp_cause_stale_cookie),
		  { { "0003 0004", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0003 0007 000f42 00", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0003 000c 000f4240 00000000", SCTP_PERR_CAUSE_LEN_INVALID } } },
		{ "OUT_OF_RESOURCE",
		  { "0004 0004" },
		  TLV_PARSE_BUILD(sctp_cause_out_of_resource),
		  { { "0004 0008 00000000", SCTP_PERR_CAUSE_LEN_INVALID } } },
		{ "UNRESOLVABLE_ADDR",
		  { "0005 000c 0005 0008 c0a80001",
		    "0005 0014 000b 0010 6578616d 706c652e 6f726700",
		    "0005 000a 000b 0006 6100 0000", "0005 000c 000b 0006 6100 0000" },
		  TLV_PARSE_BUILD(sctp_cause_unresolvable_addr),
		  { { "0005 0004", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0005 0006 0005 0000", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0005 000c 0005 0010 c0a80001", SCTP_PERR_PARAM_LEN_OVERRUN },
		    { "0005 000c 0005 0002 c0a80001", SCTP_PERR_PARAM_LEN_SHORT },
		    { "0005 0010 0005 0008 c0a80001 8000 0004", SCTP_PERR_CAUSE_LEN_INVALID } } },
		{ "UNRECOGNIZED_CHUNK",
		  { "0006 0008 4a01 0004", "0006 000b 4a00 0007 aabbcc 00" },
		  TLV_PARSE_BUILD(sctp_cause_unrecognized_chunk),
		  { { "0006 0004", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0006 0007 4a0100 00", SCTP_PERR_CAUSE_LEN_INVALID } } },
		{ "INVALID_MANDATORY_PARAM",
		  { "0007 0004" },
		  TLV_PARSE_BUILD(sctp_cause_invalid_mandatory_param),
		  { { "0007 0008 00000000", SCTP_PERR_CAUSE_LEN_INVALID } } },
		{ "UNRECOGNIZED_PARAMS",
		  { "0008 0008 c123 0004", "0008 0010 c123 0005 aa000000 8123 0004" },
		  TLV_PARSE_BUILD(sctp_cause_unrecognized_params),
		  { { "0008 0004", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0008 0007 c12300 00", SCTP_PERR_PARAM_TRUNCATED },
		    { "0008 0008 c123 0000", SCTP_PERR_PARAM_LEN_SHORT },
		    { "0008 0008 c123 0008", SCTP_PERR_PARAM_LEN_OVERRUN } } },
		{ "NO_USER_DATA",
		  { "0009 0008 12345678" },
		  TLV_PARSE_BUILD(sctp_cause_no_user_data),
		  { { "0009 0004", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0009 000c 12345678 00000000", SCTP_PERR_CAUSE_LEN_INVALID } } },
		{ "COOKIE_WHILE_SHUTTING_DOWN",
		  { "000a 0004" },
		  TLV_PARSE_BUILD(sctp_cause_cookie_while_shutting_down),
		  { { "000a 0005 00 000000", SCTP_PERR_CAUSE_LEN_INVALID } } },
		{ "RESTART_WITH_NEW_ADDRS",
		  { "000b 000c 0005 0008 c0a80002",
		    "000b 0020 0005 0008 c0a80002 0006 0014 20010db8 00000000 00000000 00000003" },
		  TLV_PARSE_BUILD(sctp_cause_restart_new_addrs),
		  { { "000b 0004", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "000b 0008 0005 0008", SCTP_PERR_PARAM_LEN_OVERRUN } } },
		{ "USER_INITIATED_ABORT",
		  { "000c 0004", "000c 0009 68656c6c 6f 000000" },
		  TLV_PARSE_BUILD(sctp_cause_user_abort),
		  {} },
		{ "PROTOCOL_VIOLATION",
		  { "000d 0004", "000d 0006 abcd 0000" },
		  TLV_PARSE_BUILD(sctp_cause_protocol_violation),
		  {} },
		{ "RFC 5061 ASCONF causes",
		  { "00a0 0014 c002 0010 00000001 0005 0008 c0a80065", "00a1 0004",
		    "00a2 0014 c002 0010 00000002 0005 0008 c0a80066", "00a3 0004",
		    "00a4 0014 c001 0010 00000003 0005 0008 c0a80067" },
		  TLV_PARSE_BUILD(sctp_cause_asconf),
		  { { "00a0 0008 c002 0010", SCTP_PERR_PARAM_LEN_OVERRUN },
		    { "00a0 0006 c002 0000", SCTP_PERR_PARAM_TRUNCATED },
		    { "00a4 0008 c001 0001", SCTP_PERR_PARAM_LEN_SHORT } } },
		{ "UNSUPPORTED_HMAC_ID",
		  { "0105 0006 0002 0000" },
		  TLV_PARSE_BUILD(sctp_cause_unsupported_hmac),
		  { { "0105 0004", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0105 0005 00 000000", SCTP_PERR_CAUSE_LEN_INVALID },
		    { "0105 000c 0002 0000 00000000", SCTP_PERR_CAUSE_LEN_INVALID } } },
	};
	return all;
}

} // namespace

TEST(Cause, RoundTripEveryCode)
{
	expect_tlv_round_trips(SCTP_TLV_CAUSE, cases());
}

TEST(Cause, WrongLengthsForCode)
{
	expect_tlv_wrong_lengths(SCTP_TLV_CAUSE, cases());
}

TEST(Cause, FramingErrorsOfEveryVector)
{
	expect_tlv_framing_errors(SCTP_TLV_CAUSE, cases(), "0004 0004");
}

TEST(Cause, InvalidStreamFields)
{
	Bytes b = hex::bytes("0001 0008 0007 abcd");
	struct sctp_tlv t = tlv(b);
	struct sctp_cause_invalid_stream c;
	ASSERT_EQ(sctp_cause_invalid_stream_parse(&t, &c), SCTP_PERR_OK);
	EXPECT_EQ(c.sid, 7);
	EXPECT_EQ(c.reserved, 0xabcd);
	struct sctp_cause_invalid_stream in = { 0x1234, 0 };
	EXPECT_EQ(hex::dump(build(sctp_cause_invalid_stream_build, &in)), "00010008 12340000");
}

TEST(Cause, MissingParamFields)
{
	Bytes b = hex::bytes("0002 000c 00000002 0007 0005");
	struct sctp_tlv t = tlv(b);
	struct sctp_cause_missing_param c;
	ASSERT_EQ(sctp_cause_missing_param_parse(&t, &c), SCTP_PERR_OK);
	ASSERT_EQ(c.types.count, 2);
	EXPECT_EQ(sctp_param_u16_list_at(&c.types, 0), SCTP_PARAM_STATE_COOKIE);
	EXPECT_EQ(sctp_param_u16_list_at(&c.types, 1), SCTP_PARAM_IPV4_ADDR);

	const uint16_t types[] = { SCTP_PARAM_STATE_COOKIE };
	struct sctp_cause_missing_param in = { { nullptr, types, 1 } };
	EXPECT_EQ(hex::dump(build(sctp_cause_missing_param_build, &in)), "0002000a 00000001 0007");
}

TEST(Cause, StaleCookieFields)
{
	Bytes b = hex::bytes("0003 0008 000f4240");
	struct sctp_tlv t = tlv(b);
	struct sctp_cause_stale_cookie c;
	ASSERT_EQ(sctp_cause_stale_cookie_parse(&t, &c), SCTP_PERR_OK);
	EXPECT_EQ(c.staleness_us, 1000000u);
	struct sctp_cause_stale_cookie in = { 250 };
	EXPECT_EQ(hex::dump(build(sctp_cause_stale_cookie_build, &in)), "00030008 000000fa");
}

TEST(Cause, EmptyCausesBuild)
{
	EXPECT_EQ(hex::dump(build([](struct sctp_writer *w) {
			  sctp_cause_out_of_resource_build(w);
			  sctp_cause_invalid_mandatory_param_build(w);
			  sctp_cause_cookie_while_shutting_down_build(w);
		  })),
		  "00040004 00070004 000a0004");
}

TEST(Cause, UnresolvableAddrFields)
{
	Bytes b = hex::bytes("0005 000c 0005 0008 c0a80001");
	struct sctp_tlv t = tlv(b);
	struct sctp_cause_unresolvable_addr c;
	ASSERT_EQ(sctp_cause_unresolvable_addr_parse(&t, &c), SCTP_PERR_OK);
	ASSERT_EQ(c.addr_len, 8);
	EXPECT_EQ(c.addr, b.data() + 4);
	// The embedded parameter reads with the parameter codec.
	struct sctp_tlv inner = first_tlv(SCTP_TLV_PARAM, c.addr, c.addr_len);
	struct sctp_param_addr a;
	ASSERT_EQ(sctp_param_addr_parse(&inner, &a), SCTP_PERR_OK);
	EXPECT_EQ(hex::dump(a.addr, 4), "c0a80001");
}

TEST(Cause, UnresolvableAddrFromFreshParam)
{
	// Building a cause around a parameter builder, as sctp/cause.h says.
	struct sctp_param_host_name h = { reinterpret_cast<const uint8_t *>("a"), 2 };
	Bytes out = build([&](struct sctp_writer *w) {
		size_t off = sctp_tlv_build_begin(w, SCTP_CAUSE_UNRESOLVABLE_ADDR);
		sctp_param_host_name_build(w, &h);
		sctp_tlv_build_end(w, off);
		sctp_cause_out_of_resource_build(w);
	});
	EXPECT_EQ(hex::dump(out), "0005000a 000b0006 61000000 00040004");
}

TEST(Cause, UnrecognizedChunkFields)
{
	Bytes b = hex::bytes("0006 000b 4a00 0007 aabbcc 00");
	struct sctp_tlv t = tlv(b);
	struct sctp_cause_unrecognized_chunk c;
	ASSERT_EQ(sctp_cause_unrecognized_chunk_parse(&t, &c), SCTP_PERR_OK);
	EXPECT_EQ(sctp_cause_unrecognized_chunk_type(&c), 0x4a);
	EXPECT_EQ(c.chunk_len, 7);

	Bytes chunk = hex::bytes("ff03 0004");
	struct sctp_cause_unrecognized_chunk in = { chunk.data(), 4 };
	EXPECT_EQ(hex::dump(build(sctp_cause_unrecognized_chunk_build, &in)), "00060008 ff030004");
}

TEST(Cause, UnrecognizedChunkLengthIsNotTrusted)
{
	// A sender may cut a big unrecognized chunk short: its inner length
	// field (here 0x0400) is reported, never followed.
	Bytes b = hex::bytes("0006 000c 4a00 0400 aabbccdd");
	struct sctp_tlv t = tlv(b);
	struct sctp_cause_unrecognized_chunk c;
	ASSERT_EQ(sctp_cause_unrecognized_chunk_parse(&t, &c), SCTP_PERR_OK);
	EXPECT_EQ(c.chunk_len, 8);
}

TEST(Cause, UnrecognizedParamsFields)
{
	Bytes b = hex::bytes("0008 0010 c123 0005 aa000000 8123 0004");
	struct sctp_tlv t = tlv(b);
	struct sctp_cause_unrecognized_params c;
	ASSERT_EQ(sctp_cause_unrecognized_params_parse(&t, &c), SCTP_PERR_OK);
	EXPECT_EQ(c.len, 12);
	EXPECT_EQ(c.params, b.data() + 4);
}

TEST(Cause, NoUserDataFields)
{
	Bytes b = hex::bytes("0009 0008 12345678");
	struct sctp_tlv t = tlv(b);
	struct sctp_cause_no_user_data c;
	ASSERT_EQ(sctp_cause_no_user_data_parse(&t, &c), SCTP_PERR_OK);
	EXPECT_EQ(c.tsn, 0x12345678u);
	struct sctp_cause_no_user_data in = { 0xfffffffe };
	EXPECT_EQ(hex::dump(build(sctp_cause_no_user_data_build, &in)), "00090008 fffffffe");
}

TEST(Cause, RestartNewAddrsFields)
{
	Bytes b = hex::bytes(
		"000b 0020 0005 0008 c0a80002 0006 0014 20010db8 00000000 00000000 00000003");
	struct sctp_tlv t = tlv(b);
	struct sctp_cause_restart_new_addrs c;
	ASSERT_EQ(sctp_cause_restart_new_addrs_parse(&t, &c), SCTP_PERR_OK);
	EXPECT_EQ(c.len, 28);
	uint32_t n;
	EXPECT_EQ(sctp_param_walk_check(SCTP_TLV_PARAM, c.addrs, c.len, &n), SCTP_PERR_OK);
	EXPECT_EQ(n, 2u);
}

TEST(Cause, UserAbortAndProtocolViolationFields)
{
	Bytes b = hex::bytes("000c 0009 68656c6c 6f 000000");
	struct sctp_tlv t = tlv(b);
	struct sctp_cause_user_abort u;
	ASSERT_EQ(sctp_cause_user_abort_parse(&t, &u), SCTP_PERR_OK);
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(u.reason), u.len), "hello");

	Bytes e = hex::bytes("000c 0004");
	t = tlv(e);
	ASSERT_EQ(sctp_cause_user_abort_parse(&t, &u), SCTP_PERR_OK);
	EXPECT_EQ(u.len, 0);

	const char why[] = "tsn";
	struct sctp_cause_protocol_violation in = { reinterpret_cast<const uint8_t *>(why), 3 };
	EXPECT_EQ(hex::dump(build([&](struct sctp_writer *w) {
			  sctp_cause_protocol_violation_build(w, &in);
			  sctp_cause_out_of_resource_build(w);
		  })),
		  "000d0007 74736e00 00040004");

	Bytes p = hex::bytes("000d 0006 abcd 0000");
	t = tlv(p);
	struct sctp_cause_protocol_violation v;
	ASSERT_EQ(sctp_cause_protocol_violation_parse(&t, &v), SCTP_PERR_OK);
	EXPECT_EQ(hex::dump(v.info, v.len), "abcd");
}

TEST(Cause, AsconfCausesFields)
{
	Bytes b = hex::bytes("00a0 0014 c002 0010 00000001 0005 0008 c0a80065");
	struct sctp_tlv t = tlv(b);
	struct sctp_cause_asconf c;
	ASSERT_EQ(sctp_cause_asconf_parse(&t, &c), SCTP_PERR_OK);
	EXPECT_EQ(c.code, SCTP_CAUSE_DELETE_LAST_ADDR);
	ASSERT_EQ(c.len, 16);
	struct sctp_tlv inner = first_tlv(SCTP_TLV_PARAM, c.params, c.len);
	struct sctp_param_asconf_addr a;
	ASSERT_EQ(sctp_param_asconf_addr_parse(&inner, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.type, SCTP_PARAM_DEL_IP);
	EXPECT_EQ(a.correlation_id, 1u);

	Bytes e = hex::bytes("00a3 0004");
	t = tlv(e);
	ASSERT_EQ(sctp_cause_asconf_parse(&t, &c), SCTP_PERR_OK);
	EXPECT_EQ(c.code, SCTP_CAUSE_ILLEGAL_ASCONF_ACK);
	EXPECT_EQ(c.len, 0);

	struct sctp_cause_asconf in = { SCTP_CAUSE_RESOURCE_SHORTAGE, nullptr, 0 };
	EXPECT_EQ(hex::dump(build(sctp_cause_asconf_build, &in)), "00a10004");
}

TEST(Cause, UnsupportedHmacFields)
{
	Bytes b = hex::bytes("0105 0006 0002 0000");
	struct sctp_tlv t = tlv(b);
	struct sctp_cause_unsupported_hmac c;
	ASSERT_EQ(sctp_cause_unsupported_hmac_parse(&t, &c), SCTP_PERR_OK);
	EXPECT_EQ(c.hmac_id, 2);

	// Some senders count the padding: accepted, rebuilt in canonical form.
	Bytes p = hex::bytes("0105 0008 0002 0000");
	t = tlv(p);
	ASSERT_EQ(sctp_cause_unsupported_hmac_parse(&t, &c), SCTP_PERR_OK);
	EXPECT_EQ(c.hmac_id, 2);
	EXPECT_EQ(hex::dump(build(sctp_cause_unsupported_hmac_build, &c)), "01050006 0002");
}

TEST(Cause, BuildersReportOverflow)
{
	uint8_t buf[7];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	struct sctp_cause_no_user_data in = { 1 };
	sctp_cause_no_user_data_build(&w, &in);
	EXPECT_FALSE(sctp_writer_ok(&w));
}

TEST(Cause, CodeNames)
{
	EXPECT_STREQ(sctp_cause_code_name(SCTP_CAUSE_INVALID_STREAM), "INVALID_STREAM");
	EXPECT_STREQ(sctp_cause_code_name(SCTP_CAUSE_MISSING_MANDATORY_PARAM),
		     "MISSING_MANDATORY_PARAM");
	EXPECT_STREQ(sctp_cause_code_name(SCTP_CAUSE_STALE_COOKIE), "STALE_COOKIE");
	EXPECT_STREQ(sctp_cause_code_name(SCTP_CAUSE_USER_INITIATED_ABORT), "USER_INITIATED_ABORT");
	EXPECT_STREQ(sctp_cause_code_name(SCTP_CAUSE_PROTOCOL_VIOLATION), "PROTOCOL_VIOLATION");
	EXPECT_STREQ(sctp_cause_code_name(SCTP_CAUSE_ILLEGAL_ASCONF_ACK), "ILLEGAL_ASCONF_ACK");
	EXPECT_STREQ(sctp_cause_code_name(SCTP_CAUSE_UNSUPPORTED_HMAC_ID), "UNSUPPORTED_HMAC_ID");
	EXPECT_STREQ(sctp_cause_code_name(0), "UNKNOWN");
	EXPECT_STREQ(sctp_cause_code_name(14), "UNKNOWN");
	// 1..13 all have names of their own.
	for (uint16_t c = 1; c <= 13; c++)
		EXPECT_STRNE(sctp_cause_code_name(c), "UNKNOWN") << c;
	for (uint16_t c = 0xa0; c <= 0xa4; c++)
		EXPECT_STRNE(sctp_cause_code_name(c), "UNKNOWN") << c;
}
