// SPDX-License-Identifier: BSD-3-Clause
// FORWARD TSN (RFC 3758 §3.2) and I-FORWARD TSN (RFC 8260 §2.3.1): parse,
// entry accessors, build from host entries, round trip, malformed lengths.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk_forward_tsn.h"
}

using namespace codec_test;

// New cum TSN 0x100; skipped (SID 1, SSN 5) and (SID 3, SSN 0xffff).
const std::string kFwd = "c000 0010 00000100 0001 0005 0003 ffff";
// New cum TSN 0xb87452ec; skipped (SID 1, ordered, MID 2) and (SID 4, U, MID 16).
const std::string kIFwd = "c200 0018 b87452ec 0001 0000 00000002 0004 0001 00000010";

TEST(ForwardTsnChunk, ParsesForwardTsn)
{
	Bytes pkt;
	struct sctp_chunk c;
	struct sctp_forward_tsn f;
	ASSERT_EQ(walk_chunk(pkt, kFwd, &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_forward_tsn_parse(&c, &f), SCTP_PERR_OK);
	EXPECT_EQ(f.type, SCTP_CHUNK_FORWARD_TSN);
	EXPECT_EQ(f.flags, 0);
	EXPECT_EQ(f.new_cum_tsn, 0x100u);
	ASSERT_EQ(f.n_entries, 2);
	EXPECT_EQ(f.entries, pkt.data() + 12 + 8);
	EXPECT_EQ(sctp_forward_tsn_entry(&f, 0).sid, 1);
	EXPECT_EQ(sctp_forward_tsn_entry(&f, 0).ssn, 5);
	EXPECT_EQ(sctp_forward_tsn_entry(&f, 1).sid, 3);
	EXPECT_EQ(sctp_forward_tsn_entry(&f, 1).ssn, 0xffff);
}

TEST(ForwardTsnChunk, ParsesIForwardTsn)
{
	Bytes pkt;
	struct sctp_chunk c;
	struct sctp_forward_tsn f;
	ASSERT_EQ(walk_chunk(pkt, kIFwd, &c), SCTP_PERR_OK);
	ASSERT_EQ(sctp_forward_tsn_parse(&c, &f), SCTP_PERR_OK);
	EXPECT_EQ(f.type, SCTP_CHUNK_I_FORWARD_TSN);
	EXPECT_EQ(f.new_cum_tsn, 3094631148u);
	ASSERT_EQ(f.n_entries, 2);
	struct sctp_forward_tsn_ientry e0 = sctp_forward_tsn_ientry(&f, 0);
	struct sctp_forward_tsn_ientry e1 = sctp_forward_tsn_ientry(&f, 1);
	EXPECT_EQ(e0.sid, 1);
	EXPECT_EQ(e0.flags & SCTP_I_FORWARD_TSN_FLAG_U, 0u);
	EXPECT_EQ(e0.mid, 2u);
	EXPECT_EQ(e1.sid, 4);
	EXPECT_EQ(e1.flags, SCTP_I_FORWARD_TSN_FLAG_U);
	EXPECT_EQ(e1.mid, 16u);
}

TEST(ForwardTsnChunk, ParsesWithoutEntries)
{
	Bytes pkt;
	struct sctp_chunk c;
	struct sctp_forward_tsn f;
	for (const char *v : { "c000 0008 00000007", "c200 0008 00000007" }) {
		ASSERT_EQ(walk_chunk(pkt, v, &c), SCTP_PERR_OK);
		ASSERT_EQ(sctp_forward_tsn_parse(&c, &f), SCTP_PERR_OK);
		EXPECT_EQ(f.new_cum_tsn, 7u);
		EXPECT_EQ(f.n_entries, 0);
	}
}

TEST(ForwardTsnChunk, BuildsFromHostEntries)
{
	const struct sctp_forward_tsn_entry e[] = { { 1, 5 }, { 3, 0xffff } };
	auto out = build(
		[&](struct sctp_writer *w) { sctp_forward_tsn_build_entries(w, 0, 0x100, e, 2); });
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(kFwd)));

	const struct sctp_forward_tsn_ientry ie[] = { { 1, 0, 2 },
						      { 4, SCTP_I_FORWARD_TSN_FLAG_U, 16 } };
	out = build([&](struct sctp_writer *w) {
		sctp_forward_tsn_build_ientries(w, 0, 0xb87452ec, ie, 2);
	});
	EXPECT_EQ(hex::dump(out), hex::dump(hex::bytes(kIFwd)));

	out = build([&](struct sctp_writer *w) {
		sctp_forward_tsn_build_entries(w, 0, 1, nullptr, 0);
	});
	EXPECT_EQ(hex::dump(out), "c0000008 00000001");
}

TEST(ForwardTsnChunk, RoundTrip)
{
	const std::string vectors[] = {
		kFwd, kIFwd, "c000 0008 00000000",
		"c2ff 0010 00000001 ffff fffe ffffffff", // flags and reserved bits kept
	};
	for (const auto &v : vectors)
		expect_chunk_round_trip(sctp_forward_tsn_parse, sctp_forward_tsn_build, v);
}

TEST(ForwardTsnChunk, LargestChunk)
{
	// 8 + 4 * 16381 = 65532: the most entries a FORWARD TSN can carry.
	std::vector<struct sctp_forward_tsn_entry> e(16381, { 2, 9 });
	auto out = build([&](struct sctp_writer *w) {
		sctp_forward_tsn_build_entries(w, 0, 42, e.data(), static_cast<uint16_t>(e.size()));
	});
	ASSERT_EQ(out.size(), 65532u);
	Bytes pkt = packet(out);
	struct sctp_chunk c;
	ASSERT_EQ(walk_first_chunk(pkt, &c), SCTP_PERR_OK);
	struct sctp_forward_tsn f;
	ASSERT_EQ(sctp_forward_tsn_parse(&c, &f), SCTP_PERR_OK);
	EXPECT_EQ(f.n_entries, 16381);
	EXPECT_EQ(sctp_forward_tsn_entry(&f, 16380).ssn, 9);

	// One more entry does not fit the 16-bit Length.
	e.push_back({ 2, 9 });
	std::vector<uint8_t> buf(1 << 17);
	struct sctp_writer w = sctp_writer_make(buf.data(), buf.size());
	sctp_forward_tsn_build_entries(&w, 0, 42, e.data(), static_cast<uint16_t>(e.size()));
	EXPECT_FALSE(sctp_writer_ok(&w));
}

TEST(ForwardTsnChunk, NotWholeEntries)
{
	const std::string bad[] = {
		"c000 000a 00000001 0001 0000", // half an entry
		"c000 000b 00000001 000100 00", // odd length
		"c200 000c 00000001 0001 0005", // a FORWARD TSN entry in an I-FORWARD TSN
		"c200 0014 00000001 0001 0000 00000002 0003 0000", // 1.5 entries
	};
	for (const auto &v : bad)
		EXPECT_EQ(chunk_verdict(sctp_forward_tsn_parse, v), SCTP_PERR_FORWARD_TSN_LEN) << v;
}

TEST(ForwardTsnChunk, LengthBelowFixedPart)
{
	EXPECT_EQ(chunk_verdict(sctp_forward_tsn_parse, "c000 0004"), SCTP_PERR_CHUNK_LEN_FIXED);
	EXPECT_EQ(chunk_verdict(sctp_forward_tsn_parse, "c200 0007 000000 00"),
		  SCTP_PERR_CHUNK_LEN_FIXED);
}

TEST(ForwardTsnChunk, LengthBelowHeader)
{
	EXPECT_EQ(walker_verdict("c000 0002 00000000"), SCTP_PERR_CHUNK_LEN_SHORT);
	EXPECT_EQ(raw_verdict(sctp_forward_tsn_parse, "c200 0002"), SCTP_PERR_CHUNK_LEN_FIXED);
}

TEST(ForwardTsnChunk, TruncatedAndPastEnd)
{
	EXPECT_EQ(walker_verdict("c000 0010 00000100 0001 0005"), SCTP_PERR_CHUNK_LEN_OVERRUN);
	EXPECT_EQ(walker_verdict("c0"), SCTP_PERR_CHUNK_TRUNCATED);
	EXPECT_EQ(walker_verdict("c200 fff8 00000100 0001 0000 00000002"),
		  SCTP_PERR_CHUNK_LEN_OVERRUN);
}
