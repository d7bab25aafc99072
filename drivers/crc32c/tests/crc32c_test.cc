// SPDX-License-Identifier: BSD-3-Clause
// CRC32c engines, policy, fused copy and the SCTP checksum helpers.
// Known answers: RFC 3720 §B.4 (iSCSI) and two captured SCTP packets from
// tests/corpus/pcap, cut out by hand (see the comments at each vector).
#include <gtest/gtest.h>

#include "tests/prereq.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "drivers/crc32c/crc32c.h"
#include "drivers/crc32c/crc32c_table.h"

namespace {

std::vector<uint8_t>
from_hex(const char *s)
{
	std::vector<uint8_t> out;
	int hi = -1;
	for (; *s; s++) {
		int v;
		if (*s >= '0' && *s <= '9')
			v = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			v = *s - 'a' + 10;
		else
			continue; // spaces and newlines
		if (hi < 0) {
			hi = v;
		} else {
			out.push_back(static_cast<uint8_t>(hi << 4 | v));
			hi = -1;
		}
	}
	EXPECT_EQ(hi, -1) << "odd number of hex digits";
	return out;
}

// pypacker__packets_diameter.pcap, frame 1: 294-byte Ethernet frame; the
// SCTP packet is bytes 34..293 (after Ethernet 14 and IPv4 20; IP total
// length 280). Ports 3868 -> 35132, one DATA chunk carrying Diameter.
// Checksum field 69 13 df c2 = CRC32c 0xc2df1369 (tshark: "0x6913dfc2
// [correct]" with sctp.checksum:CRC-32c).
const char kDiameterSctp[] =
	"0f1c893c 03251921 6913dfc2 000300f8 8dbf6fc4 00000000 00000000 010000e8"
	"00000101 00000000 00204a16 67700000 0000010c 4000000c 000007d1 00000108"
	"4000001a 67772e65 61702e74 65737462 65642e61 61610000 00000128 40000017"
	"6561702e 74657374 6265642e 61616100 00000116 4000000c 4bed163e 00000101"
	"4000000e 0001c0a8 691e0000 00000101 4000001a 0002fde4 2c6e55c4 01050a00"
	"27fffef0 a1700000 0000010a 4000000c 00000000 0000010d 00000014 66726565"
	"4469616d 65746572 0000010b 0000000c 00000064 0000012b 4000000c 00000000"
	"00000102 4000000c 00000001 00000103 4000000c 00000003 00000102 4000000c"
	"00000005";
const uint32_t kDiameterCrc = 0xc2df1369;

// pkts__sctp.cap (a big-endian pcap), frame 3: 70-byte Ethernet frame, SCTP
// bytes 34..69 (IP total length 56). Ports 2905 -> 2905, one HEARTBEAT
// chunk. Checksum field 53 c3 05 5f: the RFC 2960 Adler-32, big-endian.
const char kAdlerSctp[] = "0b590b59 00000e50 53c3055f 04000018 00010014 40e44b92 0a1c062c 1b66af7e"
			  "00000000";

std::vector<uint8_t>
random_bytes(size_t n, uint32_t seed)
{
	std::mt19937 rng(seed);
	std::vector<uint8_t> v(n);
	for (auto &b : v)
		b = static_cast<uint8_t>(rng());
	return v;
}

// Bit at a time, straight from the definition: the reference's reference.
uint32_t
bitwise_crc32c(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffff;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (CRC32C_POLY_REFLECTED & (0u - (c & 1)));
	}
	return ~c;
}

struct Engine {
	const char *name;
	uint32_t (*fn)(uint32_t, const void *, size_t);
	bool (*available)();
};

bool
always()
{
	return true;
}

const Engine kEngines[] = {
	{ "table", crc32c_table_update, always },
	{ "sse42", crc32c_sse42_update, crc32c_sse42_available },
	{ "isal", crc32c_isal_update, crc32c_isal_available },
	{ "policy", crc32c_update, always },
};

class CRC32cEngine : public ::testing::TestWithParam<Engine> {
      protected:
	void SetUp() override
	{
		DPSCTP_PREREQ(GetParam().available(),
			      GetParam().name << " not available on this machine/build");
	}
	uint32_t crc(uint32_t c, const void *p, size_t n)
	{
		return GetParam().fn(c, p, n);
	}
	uint32_t crc(const std::vector<uint8_t> &v)
	{
		return crc(0, v.data(), v.size());
	}
};

INSTANTIATE_TEST_SUITE_P(All, CRC32cEngine, ::testing::ValuesIn(kEngines),
			 [](const ::testing::TestParamInfo<Engine> &i) {
				 return std::string(i.param.name);
			 });

} // namespace

TEST(CRC32cTable, EntriesMatchPolynomial)
{
	for (unsigned n = 0; n < 256; n++) {
		uint32_t c = n;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (CRC32C_POLY_REFLECTED & (0u - (c & 1)));
		ASSERT_EQ(crc32c_tables[0][n], c) << "table 0 entry " << n;
		for (int t = 1; t < 8; t++) {
			// One more zero byte shifted through the register.
			for (int k = 0; k < 8; k++)
				c = (c >> 1) ^ (CRC32C_POLY_REFLECTED & (0u - (c & 1)));
			ASSERT_EQ(crc32c_tables[t][n], c) << "table " << t << " entry " << n;
		}
	}
}

TEST_P(CRC32cEngine, Rfc3720B4Vectors)
{
	std::vector<uint8_t> v(32);

	std::fill(v.begin(), v.end(), 0x00);
	EXPECT_EQ(crc(v), 0x8a9136aau) << "32 bytes of zeros";
	std::fill(v.begin(), v.end(), 0xff);
	EXPECT_EQ(crc(v), 0x62a8ab43u) << "32 bytes of ones";
	for (int i = 0; i < 32; i++)
		v[i] = static_cast<uint8_t>(i);
	EXPECT_EQ(crc(v), 0x46dd794eu) << "incrementing 0..31";
	for (int i = 0; i < 32; i++)
		v[i] = static_cast<uint8_t>(31 - i);
	EXPECT_EQ(crc(v), 0x113fdb5cu) << "decrementing 31..0";
	// An iSCSI SCSI Read (10) command PDU.
	auto pdu = from_hex("01c00000 00000000 00000000 00000000 14000000 00000400"
			    "00000014 00000018 28000000 00000000 02000000 00000000");
	ASSERT_EQ(pdu.size(), 48u);
	EXPECT_EQ(crc(pdu), 0xd9963a56u) << "iSCSI read PDU";
}

TEST_P(CRC32cEngine, CheckValueAndEmpty)
{
	const char check[] = "123456789";
	EXPECT_EQ(crc(0, check, 9), 0xe3069283u);
	EXPECT_EQ(crc(0, check, 0), 0u);
	EXPECT_EQ(crc(0x12345678, nullptr, 0), 0x12345678u) << "empty span leaves the CRC";
}

TEST_P(CRC32cEngine, AgreesWithTableAllLengthsAndAlignments)
{
	const uint32_t seed = 20240601;
	SCOPED_TRACE("seed " + std::to_string(seed));
	auto buf = random_bytes(1024 + 16, seed);
	for (size_t align = 0; align < 8; align++) {
		for (size_t len = 0; len <= 1024; len++) {
			const uint8_t *p = buf.data() + align;
			ASSERT_EQ(crc(0, p, len), crc32c_table_update(0, p, len))
				<< "len " << len << " misaligned by " << align;
		}
	}
}

TEST_P(CRC32cEngine, AgreesWithBitwiseOnLongSpans)
{
	auto buf = random_bytes(70001, 7);
	for (size_t len : { 2047u, 4096u, 9000u, 65536u, 70001u })
		EXPECT_EQ(crc(0, buf.data(), len), bitwise_crc32c(buf.data(), len))
			<< "len " << len;
}

TEST_P(CRC32cEngine, SplitEqualsOneShot)
{
	auto buf = random_bytes(3000, 11);
	for (size_t len : { 0u, 1u, 7u, 63u, 64u, 100u, 257u, 1500u, 3000u }) {
		uint32_t whole = crc(0, buf.data(), len);
		for (size_t cut = 0; cut <= len; cut++) {
			uint32_t c = crc(0, buf.data(), cut);
			c = crc(c, buf.data() + cut, len - cut);
			ASSERT_EQ(c, whole) << "len " << len << " cut at " << cut;
		}
	}
	// Many small pieces of uneven sizes.
	uint32_t c = 0;
	size_t off = 0;
	for (size_t piece = 1; off < buf.size(); piece = piece * 3 % 97 + 1) {
		size_t n = std::min(piece, buf.size() - off);
		c = crc(c, buf.data() + off, n);
		off += n;
	}
	EXPECT_EQ(c, crc(0, buf.data(), buf.size()));
}

TEST(CRC32cPolicy, MixesEnginesAcrossCalls)
{
	// Pieces on both sides of CRC32C_ISAL_MIN_LEN chain correctly.
	auto buf = random_bytes(4000, 3);
	uint32_t c = crc32c_update(0, buf.data(), CRC32C_ISAL_MIN_LEN - 1);
	c = crc32c_update(c, buf.data() + CRC32C_ISAL_MIN_LEN - 1, 2000);
	c = crc32c_update(c, buf.data() + CRC32C_ISAL_MIN_LEN - 1 + 2000,
			  buf.size() - (CRC32C_ISAL_MIN_LEN - 1 + 2000));
	EXPECT_EQ(c, crc32c_table_update(0, buf.data(), buf.size()));
}

TEST(CRC32cPolicy, EngineName)
{
	std::string name = crc32c_engine_name();
	std::string want = crc32c_sse42_available() ? "sse42" : "table";
	if (crc32c_isal_available())
		want += "+isal";
	EXPECT_EQ(name, want);
	std::string short_name = crc32c_sse42_available() ? "sse42" : "table";
	EXPECT_EQ(crc32c_engine_for(0), short_name);
	EXPECT_EQ(crc32c_engine_for(CRC32C_ISAL_MIN_LEN - 1), short_name);
	EXPECT_EQ(crc32c_engine_for(CRC32C_ISAL_MIN_LEN),
		  crc32c_isal_available() ? std::string("isal") : short_name);
#if defined(__x86_64__)
	// Every x86-64 this project targets has SSE4.2; say so if one does not.
	EXPECT_TRUE(crc32c_sse42_available()) << "CPU without SSE4.2?";
#endif
}

namespace {

struct CopyEngine {
	const char *name;
	uint32_t (*fn)(uint32_t, void *, const void *, size_t);
	bool (*available)();
};

const CopyEngine kCopyEngines[] = {
	{ "table", crc32c_table_copy_update, always },
	{ "sse42", crc32c_sse42_copy_update, crc32c_sse42_available },
	{ "policy", crc32c_copy_update, always },
};

class CRC32cCopy : public ::testing::TestWithParam<CopyEngine> {
      protected:
	void SetUp() override
	{
		DPSCTP_PREREQ(GetParam().available(), GetParam().name << " not available");
	}
};

INSTANTIATE_TEST_SUITE_P(All, CRC32cCopy, ::testing::ValuesIn(kCopyEngines),
			 [](const ::testing::TestParamInfo<CopyEngine> &i) {
				 return std::string(i.param.name);
			 });

} // namespace

TEST_P(CRC32cCopy, EqualsCopyThenCrc)
{
	const size_t guard = 16;
	auto src = random_bytes(20000 + 8, 5);
	std::vector<size_t> lens;
	for (size_t n = 0; n <= 1100; n++)
		lens.push_back(n);
	for (size_t n : { 1500u, 4095u, 4096u, 4097u, 9000u, 12289u, 20000u })
		lens.push_back(n);
	for (size_t len : lens) {
		size_t sa = len % 8, da = (len / 8) % 8; // vary both alignments
		std::vector<uint8_t> dst(len + 2 * guard + 8, 0xa5);
		uint8_t *d = dst.data() + guard + da;
		uint32_t seed_crc = static_cast<uint32_t>(len * 2654435761u);
		uint32_t got = GetParam().fn(seed_crc, d, src.data() + sa, len);
		ASSERT_EQ(got, crc32c_table_update(seed_crc, src.data() + sa, len))
			<< "len " << len;
		ASSERT_EQ(0, std::memcmp(d, src.data() + sa, len)) << "copy differs, len " << len;
		for (uint8_t *g = dst.data(); g < d; g++)
			ASSERT_EQ(*g, 0xa5) << "wrote before dst, len " << len;
		for (uint8_t *g = d + len; g < dst.data() + dst.size(); g++)
			ASSERT_EQ(*g, 0xa5) << "wrote past dst + len, len " << len;
	}
}

TEST(CRC32cAdler32, KnownValuesAndChaining)
{
	const char w[] = "Wikipedia";
	EXPECT_EQ(crc32c_adler32_update(CRC32C_ADLER32_INIT, w, 9), 0x11e60398u);
	EXPECT_EQ(crc32c_adler32_update(CRC32C_ADLER32_INIT, w, 0), 1u);

	// Long runs of 0xff stress the deferred modulo; compare with a modulo
	// after every byte, and chain in uneven pieces.
	std::vector<uint8_t> ff(100000, 0xff);
	uint32_t a = 1, b = 0;
	for (uint8_t x : ff) {
		a = (a + x) % 65521;
		b = (b + a) % 65521;
	}
	EXPECT_EQ(crc32c_adler32_update(CRC32C_ADLER32_INIT, ff.data(), ff.size()), b << 16 | a);
	uint32_t ad = CRC32C_ADLER32_INIT;
	for (size_t off = 0, n = 1; off < ff.size(); off += n, n = n * 7 % 9001 + 1)
		ad = crc32c_adler32_update(ad, ff.data() + off, std::min(n, ff.size() - off));
	EXPECT_EQ(ad, b << 16 | a);
}

TEST(CRC32cSctp, FieldByteOrder)
{
	uint8_t f[4];
	crc32c_sctp_store(f, 0xc2df1369);
	EXPECT_EQ(f[0], 0x69);
	EXPECT_EQ(f[1], 0x13);
	EXPECT_EQ(f[2], 0xdf);
	EXPECT_EQ(f[3], 0xc2);
	EXPECT_EQ(crc32c_sctp_load(f), 0xc2df1369u);
}

TEST(CRC32cSctp, CapturedPacketVerifiesAndRefills)
{
	auto pkt = from_hex(kDiameterSctp);
	ASSERT_EQ(pkt.size(), 260u);
	const auto orig = pkt;

	EXPECT_EQ(crc32c_sctp_compute(pkt.data(), pkt.size()), kDiameterCrc);
	EXPECT_EQ(crc32c_sctp_verify(pkt.data(), pkt.size()), CRC32C_VERDICT_OK);
	EXPECT_EQ(pkt, orig) << "verify wrote into the packet";

	// Fill from a garbage field and from a zero field: the same wire bytes.
	for (uint32_t junk : { 0x00000000u, 0xdeadbeefu }) {
		auto p = orig;
		crc32c_sctp_store(p.data() + CRC32C_SCTP_CKSUM_OFF, junk);
		ASSERT_EQ(crc32c_sctp_fill(p.data(), p.size()), 0);
		EXPECT_EQ(p, orig) << "fill from field " << std::hex << junk;
	}
}

TEST(CRC32cSctp, FlippedBitIsBad)
{
	const auto orig = from_hex(kDiameterSctp);
	// Every bit of the packet, the checksum field included.
	for (size_t bit = 0; bit < orig.size() * 8; bit++) {
		auto p = orig;
		p[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
		ASSERT_EQ(crc32c_sctp_verify(p.data(), p.size()), CRC32C_VERDICT_BAD)
			<< "bit " << bit;
	}
}

TEST(CRC32cSctp, ZeroField)
{
	auto p = from_hex(kDiameterSctp);
	std::memset(p.data() + CRC32C_SCTP_CKSUM_OFF, 0, 4);
	EXPECT_EQ(crc32c_sctp_verify(p.data(), p.size()), CRC32C_VERDICT_ZERO);
	auto a = from_hex(kAdlerSctp);
	std::memset(a.data() + CRC32C_SCTP_CKSUM_OFF, 0, 4);
	EXPECT_EQ(crc32c_sctp_verify(a.data(), a.size()), CRC32C_VERDICT_ZERO);
}

TEST(CRC32cSctp, LegacyAdler32)
{
	auto p = from_hex(kAdlerSctp);
	ASSERT_EQ(p.size(), 36u);
	const auto orig = p;
	EXPECT_EQ(crc32c_sctp_verify(p.data(), p.size()), CRC32C_VERDICT_ADLER32);
	EXPECT_EQ(p, orig);
	p[20] ^= 0x10;
	EXPECT_EQ(crc32c_sctp_verify(p.data(), p.size()), CRC32C_VERDICT_BAD);
	// Refilled with CRC32c, the same packet is OK.
	p = orig;
	ASSERT_EQ(crc32c_sctp_fill(p.data(), p.size()), 0);
	EXPECT_EQ(crc32c_sctp_verify(p.data(), p.size()), CRC32C_VERDICT_OK);
}

TEST(CRC32cSctp, ShorterThanCommonHeader)
{
	auto p = from_hex(kDiameterSctp);
	for (size_t n = 0; n < CRC32C_SCTP_COMMON_HDR_LEN; n++) {
		EXPECT_EQ(crc32c_sctp_verify(p.data(), n), CRC32C_VERDICT_BAD) << n;
		EXPECT_EQ(crc32c_sctp_fill(p.data(), n), -EINVAL) << n;
	}
	// A bare common header is summable (a packet without chunks is the
	// walker's business, not the checksum's).
	ASSERT_EQ(crc32c_sctp_fill(p.data(), CRC32C_SCTP_COMMON_HDR_LEN), 0);
	EXPECT_EQ(crc32c_sctp_verify(p.data(), CRC32C_SCTP_COMMON_HDR_LEN), CRC32C_VERDICT_OK);
}

TEST(CRC32cSctp, VerdictNames)
{
	EXPECT_STREQ(crc32c_verdict_name(CRC32C_VERDICT_OK), "ok");
	EXPECT_STREQ(crc32c_verdict_name(CRC32C_VERDICT_BAD), "bad");
	EXPECT_STREQ(crc32c_verdict_name(CRC32C_VERDICT_ZERO), "zero");
	EXPECT_STREQ(crc32c_verdict_name(CRC32C_VERDICT_ADLER32), "adler32");
	EXPECT_STREQ(crc32c_verdict_name(static_cast<crc32c_verdict>(42)), "unknown");
}
