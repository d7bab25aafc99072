// SPDX-License-Identifier: BSD-3-Clause
// ABORT, RFC 9260 §3.3.7: the T bit, raw reserved flags, cause lists walked
// with the cause walker, building from cause builders, round trips, and
// causes that are malformed (which never stop the ABORT itself).
#include <gtest/gtest.h>

#include <string>

#include "codec_util.h"

extern "C" {
#include "sctp/cause.h"
#include "sctp/chunk_abort.h"
}

using namespace codec_test;

namespace {

Tlvs
causes_of(const struct sctp_abort *a)
{
	return tlvs_of(sctp_abort_cause_iter_init, a);
}

} // namespace

TEST(ChunkAbort, EmptyFromCapture)
{
	// pkts__sctp_init_collision.cap frame 2.
	Bytes pkt = packet("0600 0004");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_abort a;
	ASSERT_EQ(sctp_abort_parse(&c, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.flags, 0);
	EXPECT_FALSE(sctp_abort_t_bit(&a));
	EXPECT_EQ(a.causes_len, 0);
	Tlvs cs = causes_of(&a);
	EXPECT_TRUE(cs.list.empty());
	EXPECT_EQ(cs.err, SCTP_PERR_OK);
	EXPECT_EQ(hex::dump(build(sctp_abort_build, &a)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkAbort, TBitAndReservedFlags)
{
	Bytes pkt = packet("0601 0004");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_abort a;
	ASSERT_EQ(sctp_abort_parse(&c, &a), SCTP_PERR_OK);
	EXPECT_TRUE(sctp_abort_t_bit(&a));

	Bytes raw = packet("06fe 0004");
	c = first_chunk(raw);
	ASSERT_EQ(sctp_abort_parse(&c, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.flags, 0xfe);
	EXPECT_FALSE(sctp_abort_t_bit(&a));
	EXPECT_EQ(hex::dump(build(sctp_abort_build, &a)), hex::dump(chunk_bytes(raw)));
}

TEST(ChunkAbort, TwoCausesFields)
{
	// User-Initiated Abort "hello" (padded, pad counted: not last), then
	// Invalid Stream Identifier 7.
	Bytes pkt = packet("0600 0018 000c 0009 68656c6c 6f000000 0001 0008 0007 0000");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_abort a;
	ASSERT_EQ(sctp_abort_parse(&c, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.causes_len, 20);
	EXPECT_EQ(a.causes, pkt.data() + SCTP_COMMON_HDR_LEN + 4);
	Tlvs cs = causes_of(&a);
	ASSERT_EQ(cs.err, SCTP_PERR_OK);
	ASSERT_EQ(cs.list.size(), 2u);
	EXPECT_EQ(cs.list[0].type, SCTP_CAUSE_USER_INITIATED_ABORT);
	EXPECT_EQ(cs.list[1].type, SCTP_CAUSE_INVALID_STREAM);
	EXPECT_STREQ(sctp_cause_code_name(cs.list[1].type), "INVALID_STREAM");

	struct sctp_cause_user_abort u;
	ASSERT_EQ(sctp_cause_user_abort_parse(&cs.list[0], &u), SCTP_PERR_OK);
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(u.reason), u.len), "hello");
	struct sctp_cause_invalid_stream is;
	ASSERT_EQ(sctp_cause_invalid_stream_parse(&cs.list[1], &is), SCTP_PERR_OK);
	EXPECT_EQ(is.sid, 7);

	EXPECT_EQ(hex::dump(build(sctp_abort_build, &a)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkAbort, OddLastCauseRoundTrip)
{
	// The last cause's padding is outside the chunk length (13).
	Bytes pkt = packet("0600 000d 000c 0009 68656c6c 6f000000");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_abort a;
	ASSERT_EQ(sctp_abort_parse(&c, &a), SCTP_PERR_OK);
	EXPECT_EQ(a.causes_len, 9);
	Tlvs cs = causes_of(&a);
	ASSERT_EQ(cs.list.size(), 1u);
	EXPECT_EQ(hex::dump(build(sctp_abort_build, &a)), hex::dump(chunk_bytes(pkt)));
}

TEST(ChunkAbort, BuildFromCauseBuilders)
{
	struct sctp_abort a = { SCTP_FLAG_T, nullptr, 0 };
	const char bye[] = "bye";
	struct sctp_cause_user_abort u = { reinterpret_cast<const uint8_t *>(bye), 3 };
	struct sctp_cause_no_user_data nud = { 0x01020304 };
	Bytes out = build([&](struct sctp_writer *w) {
		size_t off = sctp_abort_build_begin(w, &a);
		sctp_cause_user_abort_build(w, &u);
		sctp_cause_no_user_data_build(w, &nud);
		sctp_abort_build_end(w, off);
	});
	EXPECT_EQ(hex::dump(out), "06010014 000c0007 62796500 00090008 01020304");

	// Odd last cause: the chunk length stops before the pad, the chunk is
	// still padded.
	out = build([&](struct sctp_writer *w) {
		size_t off = sctp_abort_build_begin(w, &a);
		sctp_cause_user_abort_build(w, &u);
		sctp_abort_build_end(w, off);
	});
	EXPECT_EQ(hex::dump(out), "0601000b 000c0007 62796500");
}

TEST(ChunkAbort, BuildFromView)
{
	Bytes causes = hex::bytes("000d 0004");
	struct sctp_abort a = { 0, causes.data(), 4 };
	EXPECT_EQ(hex::dump(build(sctp_abort_build, &a)), "06000008 000d0004");
}

TEST(ChunkAbort, MalformedCausesDoNotStopTheAbort)
{
	struct {
		const char *chunk;
		enum sctp_parse_err err;
		size_t good; // causes yielded before the error
	} cases[] = {
		{ "0600 0006 000c 0000", SCTP_PERR_CAUSE_TRUNCATED, 0 },
		{ "0600 0008 000c 0000", SCTP_PERR_CAUSE_LEN_SHORT, 0 },   // zero-length cause
		{ "0600 0008 000c 0003", SCTP_PERR_CAUSE_LEN_SHORT, 0 },   // below the header
		{ "0600 0008 000c 0009", SCTP_PERR_CAUSE_LEN_OVERRUN, 0 }, // past the chunk end
		{ "0600 000c 0004 0004 000d 0010", SCTP_PERR_CAUSE_LEN_OVERRUN, 1 },
		// Padding missing after an odd cause: the next header is read late.
		{ "0600 0010 000c 0005 aa 0004 0004 000000", SCTP_PERR_CAUSE_LEN_SHORT, 1 },
	};
	for (const auto &tc : cases) {
		SCOPED_TRACE(tc.chunk);
		Bytes pkt = packet(tc.chunk);
		struct sctp_chunk c = first_chunk(pkt);
		struct sctp_abort a;
		ASSERT_EQ(sctp_abort_parse(&c, &a), SCTP_PERR_OK);
		Tlvs cs = causes_of(&a);
		EXPECT_EQ(cs.err, tc.err);
		EXPECT_EQ(cs.list.size(), tc.good);
		EXPECT_EQ(hex::dump(build(sctp_abort_build, &a)), hex::dump(chunk_bytes(pkt)));
	}
}

TEST(ChunkAbort, WrongCauseLengthIsTheCauseCodecsVerdict)
{
	Bytes pkt = packet("0600 000c 0003 0008 0000 0001 ");
	struct sctp_chunk c = first_chunk(pkt);
	struct sctp_abort a;
	ASSERT_EQ(sctp_abort_parse(&c, &a), SCTP_PERR_OK);
	Tlvs cs = causes_of(&a);
	ASSERT_EQ(cs.list.size(), 1u);
	struct sctp_cause_stale_cookie sc;
	EXPECT_EQ(sctp_cause_stale_cookie_parse(&cs.list[0], &sc), SCTP_PERR_OK);

	Bytes bad = packet("0600 000a 0003 0006 0000 0000");
	c = first_chunk(bad);
	ASSERT_EQ(sctp_abort_parse(&c, &a), SCTP_PERR_OK);
	cs = causes_of(&a);
	ASSERT_EQ(cs.list.size(), 1u);
	EXPECT_EQ(sctp_cause_stale_cookie_parse(&cs.list[0], &sc), SCTP_PERR_CAUSE_LEN_INVALID);
}

TEST(ChunkAbort, BuilderOverflow)
{
	Bytes causes = hex::bytes("000d 0004");
	struct sctp_abort a = { 0, causes.data(), 4 };
	uint8_t buf[6];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_abort_build(&w, &a);
	EXPECT_FALSE(sctp_writer_ok(&w));
}
