// SPDX-License-Identifier: BSD-3-Clause
// Corpus replay: every SCTP packet of tests/corpus/pcap (DPSCTP_CORPUS_DIR)
// goes through the frame parser, the checksum verdict, the chunk walker, each
// chunk's parser (sctp_chunk_validate) and its builder (sctp_chunk_rebuild).
//
// Each capture has a row in kCaptures with what SOURCES.md in the corpus
// says about it: the number of packets and the checksum verdicts. A capture
// in the directory without a row fails the test (give it one), as does a
// row without its capture. Every chunk must rebuild to the bytes it was
// parsed from; the chunks of real captures that are not in canonical form
// are listed in kNonCanonical with the reason, and nowhere else.
#include <gtest/gtest.h>

#include <pcap/pcap.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "drivers/crc32c/crc32c.h"
#include "drivers/net/frame.h"
#include "sctp/chunk.h"
}

#ifndef DPSCTP_CORPUS_DIR
#error "build with -DDPSCTP_CORPUS_DIR=\"...\""
#endif

namespace {

namespace fs = std::filesystem;

struct Expect {
	const char *file;
	unsigned packets; // every frame of these captures is SCTP
	unsigned ok, zero, adler32, bad;
};

// From the corpus's SOURCES.md ("Content" and "Checksum status" columns).
const Expect kCaptures[] = {
	{ "pkts__sctp-www.cap", 84, 84, 0, 0, 0 },
	{ "pkts__sctp-test.cap", 74, 74, 0, 0, 0 },
	{ "pkts__sctp-addip.cap", 38, 38, 0, 0, 0 },
	{ "pkts__sctp_init_collision.cap", 34, 34, 0, 0, 0 },
	// iperf3 over loopback with checksum offload: the field is 0 everywhere.
	{ "pkts__sctp001.pcap", 12, 0, 12, 0, 0 },
	// RFC 2960 Adler-32 from before RFC 3309.
	{ "pkts__sctp.cap", 4, 0, 0, 4, 0 },
	{ "tcpdump__forces1.pcap", 20, 20, 0, 0, 0 },
	{ "tcpdump__forces2.pcap", 75, 75, 0, 0, 0 },
	{ "tcpdump__forces3.pcap", 154, 154, 0, 0, 0 },
	{ "tcpdump__isup.pcap", 6, 0, 0, 6, 0 },
	{ "pypacker__packets_diameter.pcap", 1, 1, 0, 0, 0 },
	// Hand-built: "12 of 15 valid" and "all 10 invalid".
	{ "pcapplusplus-pr__SctpExamplePackets.pcap", 15, 12, 0, 0, 3 },
	{ "pcapplusplus-pr__SctpAllPackets.pcap", 10, 0, 0, 0, 10 },
};

struct NonCanonical {
	const char *file;
	uint64_t frame; // 1-based, as tshark and dpsctp-decode number them
	unsigned chunk; // 1-based position in the packet
	const char *why;
};

const std::vector<NonCanonical> kNonCanonical = {
	// DATA of length 91: the one byte of padding after it is 0x67 ('g',
	// left over from the sender's buffer), not zero. RFC 9260 §3.2 makes the
	// sender pad with zeros and the receiver ignore the content; our builder
	// writes the zero.
	{ "pkts__sctp.cap", 1, 1, "padding byte 0x67 instead of zero (RFC 9260 §3.2)" },
};

const NonCanonical *
find_exception(const std::string &file, uint64_t frame, unsigned chunk)
{
	for (const auto &e : kNonCanonical)
		if (file == e.file && frame == e.frame && chunk == e.chunk)
			return &e;
	return nullptr;
}

struct Counts {
	unsigned packets = 0;
	unsigned sctp = 0;
	unsigned verdict[4] = {};
	std::set<std::pair<uint64_t, unsigned>> exceptions_hit;
};

std::string
hexdump(const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	std::string s;
	for (size_t i = 0; i < n; i++) {
		if (i && i % 4 == 0)
			s += ' ';
		s += digits[p[i] >> 4];
		s += digits[p[i] & 15];
	}
	return s;
}

// One SCTP packet: parse, walk, validate and rebuild every chunk, then the
// whole packet (header, rebuilt chunks, checksum) when all its chunks are
// canonical.
void
replay_packet(const std::string &file, uint64_t frame, const uint8_t *sctp, size_t len,
	      enum crc32c_verdict verdict, Counts &counts)
{
	SCOPED_TRACE(file + " frame " + std::to_string(frame));
	struct sctp_packet pkt;
	ASSERT_EQ(sctp_packet_parse(&pkt, sctp, len), SCTP_PERR_OK);

	std::vector<uint8_t> rebuilt(len + 64);
	struct sctp_writer whole = sctp_writer_make(rebuilt.data(), rebuilt.size());
	sctp_packet_build_header(&whole, pkt.src_port, pkt.dst_port, pkt.vtag);
	bool canonical = true;

	struct sctp_chunk_iter it;
	struct sctp_chunk c;
	unsigned n = 0;
	sctp_chunk_iter_init(&it, &pkt);
	while (sctp_chunk_iter_next(&it, &c)) {
		n++;
		SCOPED_TRACE(std::string("chunk ") + std::to_string(n) + " " +
			     sctp_chunk_type_name(c.type));
		EXPECT_EQ(sctp_chunk_validate(&c), SCTP_PERR_OK)
			<< sctp_parse_err_name(sctp_chunk_validate(&c));

		std::vector<uint8_t> out(SCTP_PAD4(c.length) + 64);
		struct sctp_writer w = sctp_writer_make(out.data(), out.size());
		sctp_chunk_rebuild(&w, &c);
		ASSERT_TRUE(sctp_writer_ok(&w));
		const uint8_t *orig = sctp + c.offset;
		size_t orig_len = SCTP_PAD4(c.length);
		bool same = w.off == orig_len && std::memcmp(out.data(), orig, orig_len) == 0;
		const NonCanonical *ex = find_exception(file, frame, n);
		if (ex != nullptr) {
			EXPECT_FALSE(same)
				<< "listed as non-canonical (" << ex->why
				<< ") but rebuilds exactly: remove it from kNonCanonical";
			counts.exceptions_hit.insert({ frame, n });
			canonical = false;
		} else {
			EXPECT_TRUE(same) << "parsed:  " << hexdump(orig, orig_len)
					  << "\nrebuilt: " << hexdump(out.data(), w.off);
		}
		sctp_chunk_rebuild(&whole, &c);
	}
	EXPECT_EQ(it.err, SCTP_PERR_OK) << sctp_parse_err_name(it.err);
	EXPECT_GE(n, 1u);
	ASSERT_TRUE(sctp_writer_ok(&whole));

	// The whole packet: header and rebuilt chunks are the captured packet
	// apart from the checksum field; for a CRC32c-valid packet, filling in
	// the checksum makes them equal byte for byte.
	if (!canonical)
		return;
	ASSERT_EQ(whole.off, len);
	EXPECT_EQ(0, std::memcmp(rebuilt.data(), sctp, CRC32C_SCTP_CKSUM_OFF));
	EXPECT_EQ(0, std::memcmp(rebuilt.data() + SCTP_COMMON_HDR_LEN, sctp + SCTP_COMMON_HDR_LEN,
				 len - SCTP_COMMON_HDR_LEN))
		<< "captured: " << hexdump(sctp, len)
		<< "\nrebuilt:  " << hexdump(rebuilt.data(), whole.off);
	if (verdict == CRC32C_VERDICT_OK) {
		ASSERT_EQ(crc32c_sctp_fill(rebuilt.data(), whole.off), 0);
		EXPECT_EQ(0, std::memcmp(rebuilt.data(), sctp, len));
	}
}

Counts
replay_file(const fs::path &path)
{
	Counts counts;
	const std::string file = path.filename().string();
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path.c_str(), errbuf);
	EXPECT_NE(p, nullptr) << errbuf;
	if (p == nullptr)
		return counts;

	enum net_frame_link link;
	EXPECT_TRUE(net_frame_link_from_linktype(pcap_datalink(p), &link))
		<< "link type " << pcap_datalink(p);

	struct pcap_pkthdr *hdr;
	const u_char *data;
	int r;
	uint64_t frame = 0;
	while ((r = pcap_next_ex(p, &hdr, &data)) == 1) {
		frame++;
		counts.packets++;
		struct net_frame f;
		enum net_frame_err err = net_frame_parse(&f, link, data, hdr->caplen);
		EXPECT_EQ(err, NET_FRAME_OK)
			<< file << " frame " << frame << ": " << net_frame_err_name(err);
		if (err != NET_FRAME_OK)
			continue;
		counts.sctp++;
		const uint8_t *sctp = data + f.sctp_offset;
		enum crc32c_verdict v = crc32c_sctp_verify(sctp, f.sctp_len);
		if ((unsigned)v < 4)
			counts.verdict[v]++;
		replay_packet(file, frame, sctp, f.sctp_len, v, counts);
	}
	EXPECT_EQ(r, PCAP_ERROR_BREAK) << file << ": " << pcap_geterr(p);
	pcap_close(p);
	return counts;
}

bool
is_capture(const fs::path &p)
{
	std::string ext = p.extension().string();
	return ext == ".pcap" || ext == ".cap" || ext == ".pcapng";
}

class CorpusReplay : public ::testing::Test {
      protected:
	void SetUp() override
	{
		// In the repository (tests/corpus/pcap): missing is a broken checkout.
		if (!fs::is_directory(DPSCTP_CORPUS_DIR))
			GTEST_FAIL() << "no corpus directory " << DPSCTP_CORPUS_DIR;
	}
};

TEST_F(CorpusReplay, EveryCaptureHasExpectations)
{
	std::set<std::string> known;
	for (const auto &e : kCaptures)
		known.insert(e.file);
	std::set<std::string> present;
	for (const auto &entry : fs::directory_iterator(DPSCTP_CORPUS_DIR))
		if (entry.is_regular_file() && is_capture(entry.path()))
			present.insert(entry.path().filename().string());
	for (const auto &f : present)
		EXPECT_TRUE(known.count(f)) << f << ": add a row to kCaptures (see SOURCES.md)";
	for (const auto &f : known)
		EXPECT_TRUE(present.count(f)) << f << ": listed in kCaptures but not in the corpus";
}

TEST_F(CorpusReplay, EveryPacketParsesVerifiesAndRebuilds)
{
	for (const auto &e : kCaptures) {
		fs::path path = fs::path(DPSCTP_CORPUS_DIR) / e.file;
		if (!fs::exists(path))
			continue; // reported by EveryCaptureHasExpectations
		SCOPED_TRACE(e.file);
		Counts c = replay_file(path);
		EXPECT_EQ(c.packets, e.packets);
		EXPECT_EQ(c.sctp, e.packets);
		EXPECT_EQ(c.verdict[CRC32C_VERDICT_OK], e.ok);
		EXPECT_EQ(c.verdict[CRC32C_VERDICT_ZERO], e.zero);
		EXPECT_EQ(c.verdict[CRC32C_VERDICT_ADLER32], e.adler32);
		EXPECT_EQ(c.verdict[CRC32C_VERDICT_BAD], e.bad);
		// Every listed exception must be met, so the list cannot go stale.
		for (const auto &x : kNonCanonical) {
			if (std::string(x.file) != e.file)
				continue;
			EXPECT_TRUE(c.exceptions_hit.count({ x.frame, x.chunk }))
				<< "kNonCanonical entry frame " << x.frame << " chunk " << x.chunk
				<< " was not met";
		}
	}
}

} // namespace
