// SPDX-License-Identifier: BSD-3-Clause
// ERROR, RFC 9260 §3.3.10: raw flags, cause lists walked with the cause
// walker, building from cause builders, round trips, and malformed causes.
#include <gtest/gtest.h>

#include "codec_util.h"

extern "C" {
#include "sctp/cause.h"
#include "sctp/chunk_error.h"
}

using namespace codec_test;

namespace {

Tlvs
causes_of(const struct sctp_error *e)
{
	return tlvs_of(sctp_error_cause_iter_init, e);
}

} // namespace

TEST(ChunkError, StaleCookieFields)
{
	Bytes pkt = packet("0900 000c 0003 0008 000f4240");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_error e;
	ASSERT_EQ(sctp_error_parse(&c, &e), SCTP_PERR_OK);
	EXPECT_EQ(e.flags, 0);
	EXPECT_EQ(e.causes_len, 8);
	Tlvs cs = causes_of(&e);
	ASSERT_EQ(cs.err, SCTP_PERR_OK);
	ASSERT_EQ(cs.list.size(), 1u);
	EXPECT_EQ(cs.list[0].type, SCTP_CAUSE_STALE_COOKIE);
	struct sctp_cause_stale_cookie sc;
	ASSERT_EQ(sctp_cause_stale_cookie_parse(&cs.list[0], &sc), SCTP_PERR_OK);
	EXPECT_EQ(sc.staleness_us, 1000000u);
	EXPECT_EQ(hex::dump(build(sctp_error_build, &e)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkError, UnrecognizedParamsAfterInitAck)
{
	// RFC 9260 §3.2.2: unknown INIT ACK parameters with the report bit
	// come back in an ERROR. Odd last cause: pad outside the length (13).
	Bytes pkt = packet("0900 000d 0008 0009 c123 0005 aa 000000");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_error e;
	ASSERT_EQ(sctp_error_parse(&c, &e), SCTP_PERR_OK);
	Tlvs cs = causes_of(&e);
	ASSERT_EQ(cs.list.size(), 1u);
	struct sctp_cause_unrecognized_params up;
	ASSERT_EQ(sctp_cause_unrecognized_params_parse(&cs.list[0], &up), SCTP_PERR_OK);
	EXPECT_EQ(hex::dump(up.params, up.len), "c1230005 aa");
	EXPECT_EQ(hex::dump(build(sctp_error_build, &e)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkError, SeveralCausesAndRawFlags)
{
	Bytes pkt = packet("0981 001a 0001 0008 0003 0000 0006 0008 ff00 0004 0105 0006 0002 0000");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_error e;
	ASSERT_EQ(sctp_error_parse(&c, &e), SCTP_PERR_OK);
	EXPECT_EQ(e.flags, 0x81);
	Tlvs cs = causes_of(&e);
	ASSERT_EQ(cs.err, SCTP_PERR_OK);
	ASSERT_EQ(cs.list.size(), 3u);
	EXPECT_EQ(cs.list[0].type, SCTP_CAUSE_INVALID_STREAM);
	EXPECT_EQ(cs.list[1].type, SCTP_CAUSE_UNRECOGNIZED_CHUNK);
	EXPECT_EQ(cs.list[2].type, SCTP_CAUSE_UNSUPPORTED_HMAC_ID);
	struct sctp_cause_unrecognized_chunk uc;
	ASSERT_EQ(sctp_cause_unrecognized_chunk_parse(&cs.list[1], &uc), SCTP_PERR_OK);
	EXPECT_EQ(sctp_cause_unrecognized_chunk_type(&uc), 0xff);
	struct sctp_cause_unsupported_hmac uh;
	ASSERT_EQ(sctp_cause_unsupported_hmac_parse(&cs.list[2], &uh), SCTP_PERR_OK);
	EXPECT_EQ(uh.hmac_id, 2);
	EXPECT_EQ(hex::dump(build(sctp_error_build, &e)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkError, EmptyIsAccepted)
{
	Bytes pkt = packet("0900 0004");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_error e;
	ASSERT_EQ(sctp_error_parse(&c, &e), SCTP_PERR_OK);
	EXPECT_EQ(e.causes_len, 0);
	EXPECT_TRUE(causes_of(&e).list.empty());
	EXPECT_EQ(hex::dump(build(sctp_error_build, &e)), "09000004");
}

TEST(ChunkError, BuildFromCauseBuilders)
{
	struct sctp_error e = { 0, nullptr, 0 };
	struct sctp_cause_invalid_stream is = { 3, 0 };
	const uint16_t missing[] = { SCTP_PARAM_STATE_COOKIE };
	struct sctp_cause_missing_param mp = { { nullptr, missing, 1 } };
	Bytes out = build([&](struct sctp_writer *w) {
		size_t off = sctp_error_build_begin(w, &e);
		sctp_cause_invalid_stream_build(w, &is);
		sctp_cause_missing_param_build(w, &mp);
		sctp_error_build_end(w, off);
	});
	EXPECT_EQ(hex::dump(out), "09000016 00010008 00030000 0002000a 00000001 00070000");
}

TEST(ChunkError, MalformedCauses)
{
	struct {
		const char *chunk;
		enum sctp_parse_err err;
		size_t good;
	} cases[] = {
		{ "0900 0007 000c 00 00", SCTP_PERR_CAUSE_TRUNCATED, 0 },
		{ "0900 0008 0003 0000", SCTP_PERR_CAUSE_LEN_SHORT, 0 },
		{ "0900 0008 0003 0002", SCTP_PERR_CAUSE_LEN_SHORT, 0 },
		{ "0900 000c 0003 000c 000f4240", SCTP_PERR_CAUSE_LEN_OVERRUN, 0 },
		{ "0900 000e 0004 0004 0009 0008 0000 0000", SCTP_PERR_CAUSE_LEN_OVERRUN, 1 },
	};
	for (const auto &tc : cases) {
		SCOPED_TRACE(tc.chunk);
		Bytes pkt = packet(tc.chunk);
		struct sctp_chunk c = first_chunk(pkt);
		struct sctp_error e;
		ASSERT_EQ(sctp_error_parse(&c, &e), SCTP_PERR_OK);
		Tlvs cs = causes_of(&e);
		EXPECT_EQ(cs.err, tc.err);
		EXPECT_EQ(cs.list.size(), tc.good);
	}
}

TEST(ChunkError, MissingParamAbsurdCount)
{
	// A Missing Mandatory Parameter cause claiming 2^32 - 1 types: the
	// ERROR walks, the cause codec refuses the count.
	Bytes pkt = packet("0900 000e 0002 000a ffffffff 0007 0000");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_error e;
	ASSERT_EQ(sctp_error_parse(&c, &e), SCTP_PERR_OK);
	Tlvs cs = causes_of(&e);
	ASSERT_EQ(cs.list.size(), 1u);
	struct sctp_cause_missing_param mp;
	EXPECT_EQ(sctp_cause_missing_param_parse(&cs.list[0], &mp), SCTP_PERR_CAUSE_LEN_INVALID);
}

TEST(ChunkError, BuilderOverflow)
{
	Bytes causes = hex::bytes("0003 0008 000f4240");
	struct sctp_error e = { 0, causes.data(), 8 };
	uint8_t buf[10];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_error_build(&w, &e);
	EXPECT_FALSE(sctp_writer_ok(&w));
}
