// SPDX-License-Identifier: BSD-3-Clause
// RE-CONFIG, RFC 6525 §3.1: one or two re-configuration parameters
// (RFC 6525 §4), building from parameter builders, round trips, and chunks
// with no, three, or badly framed parameters.
#include <gtest/gtest.h>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk_reconfig.h"
#include "sctp/param.h"
}

using namespace codec_test;

namespace {

// Outgoing SSN Reset Request for streams 5 (length 18, padded: not last),
// then Incoming SSN Reset Request for stream 5 (length 10, last: its pad is
// chunk padding).
const char *const kTwo = "8200 0022"
			 "000d 0012 00000001 00000000 00000063 0005 0000"
			 "000e 000a 00000002 0005 0000";

} // namespace

TEST(ChunkReconfig, OneParamFields)
{
	Bytes pkt = packet("8200 001a 000d 0016 01020304 0a0b0c0d 11223344 0001 0002 0003 0000");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_reconfig r;
	ASSERT_EQ(sctp_reconfig_parse(&c, &r), SCTP_PERR_OK);
	EXPECT_EQ(r.flags, 0);
	EXPECT_EQ(r.params_len, 22);
	ASSERT_EQ(r.n_params, 1);
	EXPECT_EQ(r.param[0].type, SCTP_PARAM_OUT_SSN_RESET_REQ);
	struct sctp_param_out_reset_req o;
	ASSERT_EQ(sctp_param_out_reset_req_parse(&r.param[0], &o), SCTP_PERR_OK);
	EXPECT_EQ(o.req_seq, 0x01020304u);
	EXPECT_EQ(o.resp_seq, 0x0a0b0c0du);
	EXPECT_EQ(o.last_tsn, 0x11223344u);
	ASSERT_EQ(o.streams.count, 3);
	EXPECT_EQ(sctp_param_u16_list_at(&o.streams, 1), 2);
	EXPECT_EQ(hex::dump(build(sctp_reconfig_build, &r)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkReconfig, TwoParamsFields)
{
	Bytes pkt = packet(kTwo);
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_reconfig r;
	ASSERT_EQ(sctp_reconfig_parse(&c, &r), SCTP_PERR_OK);
	ASSERT_EQ(r.n_params, 2);
	EXPECT_EQ(r.param[0].type, SCTP_PARAM_OUT_SSN_RESET_REQ);
	EXPECT_EQ(r.param[1].type, SCTP_PARAM_IN_SSN_RESET_REQ);
	EXPECT_EQ(r.param[1].offset, 20u);
	struct sctp_param_in_reset_req in;
	ASSERT_EQ(sctp_param_in_reset_req_parse(&r.param[1], &in), SCTP_PERR_OK);
	EXPECT_EQ(in.req_seq, 2u);
	ASSERT_EQ(in.streams.count, 1);
	EXPECT_EQ(sctp_param_u16_list_at(&in.streams, 0), 5);
	EXPECT_EQ(hex::dump(build(sctp_reconfig_build, &r)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkReconfig, TwoParamsFromBuilders)
{
	struct sctp_reconfig r = {};
	const uint16_t s5[] = { 5 };
	struct sctp_param_out_reset_req o = { 1, 0, 0x63, { nullptr, s5, 1 } };
	struct sctp_param_in_reset_req in = { 2, { nullptr, s5, 1 } };
	Bytes out = build([&](struct sctp_writer *w) {
		size_t off = sctp_reconfig_build_begin(w, &r);
		sctp_param_out_reset_req_build(w, &o);
		sctp_param_in_reset_req_build(w, &in);
		sctp_reconfig_build_end(w, off);
	});
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(kTwo)));
}

TEST(ChunkReconfig, ResponseAndAddStreams)
{
	Bytes pkt = packet("8200 001c 0010 000c 00000001 00000001 0011 000c 00000002 0004 0000");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_reconfig r;
	ASSERT_EQ(sctp_reconfig_parse(&c, &r), SCTP_PERR_OK);
	ASSERT_EQ(r.n_params, 2);
	struct sctp_param_reconfig_resp resp;
	ASSERT_EQ(sctp_param_reconfig_resp_parse(&r.param[0], &resp), SCTP_PERR_OK);
	EXPECT_EQ(resp.result, (uint32_t)SCTP_RECONFIG_SUCCESS_PERFORMED);
	struct sctp_param_add_streams_req add;
	ASSERT_EQ(sctp_param_add_streams_req_parse(&r.param[1], &add), SCTP_PERR_OK);
	EXPECT_EQ(add.type, SCTP_PARAM_ADD_OUT_STREAMS_REQ);
	EXPECT_EQ(add.n_streams, 4);
	EXPECT_EQ(hex::dump(build(sctp_reconfig_build, &r)), hex::dump(chunk_bytes(pkt)));

	Bytes tsn = packet("8200 000c 000f 0008 00000009");
	c = first_chunk(tsn);
	ASSERT_EQ(sctp_reconfig_parse(&c, &r), SCTP_PERR_OK);
	ASSERT_EQ(r.n_params, 1);
	EXPECT_EQ(r.param[0].type, SCTP_PARAM_SSN_TSN_RESET_REQ);
}

TEST(ChunkReconfig, RawFlags)
{
	Bytes pkt = packet("8233 000c 000f 0008 00000009");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_reconfig r;
	ASSERT_EQ(sctp_reconfig_parse(&c, &r), SCTP_PERR_OK);
	EXPECT_EQ(r.flags, 0x33);
	EXPECT_EQ(hex::dump(build(sctp_reconfig_build, &r)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkReconfig, ParamCount)
{
	for (const char *h : {
		     "8200 0004",
		     "8200 001c 000f 0008 00000001 000f 0008 00000002 000f 0008 00000003",
	     })
		EXPECT_EQ(chunk_verdict(sctp_reconfig_parse, h), SCTP_PERR_RECONFIG_PARAM_COUNT)
			<< h;
}

TEST(ChunkReconfig, MalformedParams)
{
	struct {
		const char *chunk;
		enum sctp_parse_err err;
	} cases[] = {
		{ "8200 0006 000f 0000", SCTP_PERR_PARAM_TRUNCATED },
		{ "8200 0008 000f 0000", SCTP_PERR_PARAM_LEN_SHORT }, // zero-length parameter
		{ "8200 0008 000f 0009", SCTP_PERR_PARAM_LEN_OVERRUN },
		{ "8200 0010 000f 0008 00000001 000e 000c", SCTP_PERR_PARAM_LEN_OVERRUN },
		// Missing padding after the odd-length first parameter.
		{ "8200 0016 000e 000a 00000002 0005 000f 0008 00000009 0000",
		  SCTP_PERR_PARAM_LEN_SHORT },
	};
	for (const auto &tc : cases)
		EXPECT_EQ(chunk_verdict(sctp_reconfig_parse, tc.chunk), tc.err) << tc.chunk;
}

TEST(ChunkReconfig, BuilderOverflow)
{
	Bytes pkt = packet(kTwo);
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_reconfig r;
	ASSERT_EQ(sctp_reconfig_parse(&c, &r), SCTP_PERR_OK);
	uint8_t buf[20];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_reconfig_build(&w, &r);
	EXPECT_FALSE(sctp_writer_ok(&w));
}
