// SPDX-License-Identifier: BSD-3-Clause
// CRC32c over multi-segment mbufs and the NIC offload decision.
//
// The mbuf tests start a DPDK EAL without hugepages or PCI, without shared
// config files, on one lcore. If the EAL cannot start
// here those tests FAIL with the reason: a sandbox that forbids it must be
// visible, not a silent pass. The decision tests need no EAL.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "drivers/crc32c/crc32c.h"
#include "drivers/crc32c/crc32c_mbuf.h"
#include "drivers/crc32c/crc32c_offload.h"

namespace {

struct Eal {
	bool ok = false;
	std::string error;
	rte_mempool *pool = nullptr;
};

Eal
eal_start()
{
	Eal e;
	// --in-memory would be the natural choice but conflicts with the
	// legacy memory mode --no-huge implies; --no-shconf likewise keeps
	// the config out of shared files (and disables multi-process IPC), so
	// concurrent runs from several build directories do not collide.
	std::vector<std::string> args = {
		"crc32c_mbuf_test",
		"--no-huge",
		"--no-pci",
		"-m",
		"64",
		"--log-level=error",
		"--no-shconf",
		"--file-prefix=crc32c_test",
		"--no-telemetry",
		"-l",
		"0",
	};
	std::string joined;
	std::vector<char *> argv;
	for (auto &a : args) {
		argv.push_back(a.data());
		joined += " " + a;
	}
	argv.push_back(nullptr);
	if (rte_eal_init(static_cast<int>(args.size()), argv.data()) < 0) {
		e.error = std::string("rte_eal_init failed (") + rte_strerror(rte_errno) +
			  ") with args:" + joined;
		return e;
	}
	e.pool = rte_pktmbuf_pool_create("crc32c_test", 512, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
					 SOCKET_ID_ANY);
	if (e.pool == nullptr) {
		e.error = std::string("rte_pktmbuf_pool_create failed: ") + rte_strerror(rte_errno);
		return e;
	}
	e.ok = true;
	return e;
}

Eal &
eal()
{
	static Eal e = eal_start();
	return e;
}

std::vector<uint8_t>
random_bytes(size_t n, std::mt19937 &rng)
{
	std::vector<uint8_t> v(n);
	for (auto &b : v)
		b = static_cast<uint8_t>(rng());
	return v;
}

// A chain holding data, cut into segments of the given sizes (0 allowed),
// each segment's data starting at an odd offset so no load is aligned.
rte_mbuf *
make_chain(const std::vector<uint8_t> &data, const std::vector<size_t> &sizes)
{
	rte_mbuf *head = nullptr;
	size_t off = 0;
	for (size_t i = 0; i < sizes.size(); i++) {
		rte_mbuf *m = rte_pktmbuf_alloc(eal().pool);
		if (m == nullptr)
			break;
		m->data_off = static_cast<uint16_t>(RTE_PKTMBUF_HEADROOM + 1 + 2 * (i % 4));
		char *p = rte_pktmbuf_append(m, static_cast<uint16_t>(sizes[i]));
		if (p == nullptr && sizes[i] != 0) {
			rte_pktmbuf_free(m);
			break;
		}
		if (sizes[i] != 0)
			std::memcpy(p, data.data() + off, sizes[i]);
		off += sizes[i];
		if (head == nullptr) {
			head = m;
		} else if (rte_pktmbuf_chain(head, m) != 0) {
			rte_pktmbuf_free(m);
			break;
		}
	}
	if (head != nullptr && off != data.size()) {
		rte_pktmbuf_free(head);
		return nullptr;
	}
	return head;
}

std::vector<uint8_t>
chain_bytes(const rte_mbuf *m)
{
	std::vector<uint8_t> out(m->pkt_len);
	const void *p = rte_pktmbuf_read(m, 0, m->pkt_len, out.data());
	if (p != out.data())
		std::memcpy(out.data(), p, m->pkt_len);
	return out;
}

// pypacker__packets_diameter.pcap frame 1, the SCTP packet (see
// crc32c_test.cc for how it was cut out); valid CRC32c.
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
// pkts__sctp.cap frame 3, HEARTBEAT with an RFC 2960 Adler-32.
const char kAdlerSctp[] = "0b590b59 00000e50 53c3055f 04000018 00010014 40e44b92 0a1c062c 1b66af7e"
			  "00000000";

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
			continue;
		if (hi < 0) {
			hi = v;
		} else {
			out.push_back(static_cast<uint8_t>(hi << 4 | v));
			hi = -1;
		}
	}
	return out;
}

// 34 bytes standing in for Ethernet + IPv4, the SCTP packet, then 6 bytes of
// trailer as Ethernet padding would leave: l4_len must bound the sum.
const uint32_t kL4Off = 34;

std::vector<uint8_t>
frame_around(const std::vector<uint8_t> &sctp)
{
	std::vector<uint8_t> f(kL4Off + sctp.size() + 6, 0xee);
	std::fill(f.begin(), f.begin() + kL4Off, 0x45);
	std::copy(sctp.begin(), sctp.end(), f.begin() + kL4Off);
	return f;
}

// Overwrite the four checksum bytes of the SCTP packet at l4_off.
void
set_field(std::vector<uint8_t> &f, size_t l4_off, const uint8_t (&v)[4])
{
	for (size_t i = 0; i < 4; i++)
		f.at(l4_off + 8 + i) = v[i];
}

class CRC32cMbuf : public ::testing::Test {
      protected:
	void SetUp() override
	{
		ASSERT_TRUE(eal().ok) << eal().error;
	}
};

} // namespace

TEST_F(CRC32cMbuf, ChainsEqualFlat)
{
	const uint32_t seed = 9260;
	SCOPED_TRACE("seed " + std::to_string(seed));
	std::mt19937 rng(seed);
	for (size_t nseg = 1; nseg <= 5; nseg++) {
		for (int trial = 0; trial < 12; trial++) {
			std::vector<size_t> sizes;
			for (size_t i = 0; i < nseg; i++) {
				size_t n = (rng() % 700) | 1; // odd sizes
				if (nseg > 2 && trial % 4 == 3 && i == 1)
					n = 0; // an empty segment in the middle
				sizes.push_back(n);
			}
			size_t total = 0;
			for (size_t n : sizes)
				total += n;
			auto data = random_bytes(total, rng);
			rte_mbuf *m = make_chain(data, sizes);
			ASSERT_NE(m, nullptr) << "could not build chain";
			ASSERT_EQ(m->pkt_len, total);
			ASSERT_EQ(m->nb_segs, nseg);

			auto check = [&](uint32_t off, uint32_t len) {
				uint32_t c = 0x5eed;
				ASSERT_EQ(crc32c_mbuf_update(m, off, len, &c), 0);
				ASSERT_EQ(c, crc32c_table_update(0x5eed, data.data() + off, len))
					<< nseg << " segs, off " << off << " len " << len;
			};
			for (uint32_t off = 0; off <= total; off++)
				check(off, static_cast<uint32_t>(total - off));
			for (int k = 0; k < 200; k++) {
				uint32_t off = static_cast<uint32_t>(rng() % (total + 1));
				uint32_t len = static_cast<uint32_t>(rng() % (total - off + 1));
				check(off, len);
			}
			// Spans that start and end around every segment boundary.
			size_t edge = 0;
			for (size_t n : sizes) {
				edge += n;
				for (size_t a = edge >= 3 ? edge - 3 : 0; a <= edge && a <= total;
				     a++)
					for (size_t b = a; b <= std::min(edge + 3, total); b++)
						check(static_cast<uint32_t>(a),
						      static_cast<uint32_t>(b - a));
			}
			rte_pktmbuf_free(m);
		}
	}
}

TEST_F(CRC32cMbuf, SpanOutsideChain)
{
	std::mt19937 rng(1);
	auto data = random_bytes(301, rng);
	rte_mbuf *m = make_chain(data, { 101, 99, 101 });
	ASSERT_NE(m, nullptr);
	uint32_t c = 0x1234;
	EXPECT_EQ(crc32c_mbuf_update(m, 302, 0, &c), -EINVAL);
	EXPECT_EQ(crc32c_mbuf_update(m, 300, 2, &c), -EINVAL);
	EXPECT_EQ(crc32c_mbuf_update(m, 0, 302, &c), -EINVAL);
	EXPECT_EQ(crc32c_mbuf_update(m, 1, UINT32_MAX, &c), -EINVAL);
	EXPECT_EQ(c, 0x1234u) << "crc changed on error";
	EXPECT_EQ(crc32c_mbuf_update(m, 301, 0, &c), 0);
	EXPECT_EQ(c, 0x1234u);
	rte_pktmbuf_free(m);
}

TEST_F(CRC32cMbuf, SctpVerifyAtEverySplit)
{
	auto frame = frame_around(from_hex(kDiameterSctp));
	const uint32_t l4_len = 260;
	// Two segments split at every byte, so the common header and the
	// checksum field itself are cut in every possible place.
	for (size_t s = 1; s < frame.size(); s++) {
		rte_mbuf *m = make_chain(frame, { s, frame.size() - s });
		ASSERT_NE(m, nullptr);
		ASSERT_EQ(crc32c_mbuf_sctp_verify(m, kL4Off, l4_len), CRC32C_VERDICT_OK)
			<< "split at " << s;
		ASSERT_EQ(chain_bytes(m), frame) << "verify wrote into the chain";
		rte_pktmbuf_free(m);
	}
	// Three and five segments with the field spread over several.
	for (size_t a = kL4Off + 6; a < kL4Off + 12; a++) {
		for (size_t b = a + 1; b <= kL4Off + 13; b++) {
			rte_mbuf *m = make_chain(frame, { a, b - a, frame.size() - b });
			ASSERT_NE(m, nullptr);
			EXPECT_EQ(crc32c_mbuf_sctp_verify(m, kL4Off, l4_len), CRC32C_VERDICT_OK)
				<< a << "," << b;
			rte_pktmbuf_free(m);
		}
	}
	rte_mbuf *m = make_chain(frame, { kL4Off + 9, 1, 1, 1, frame.size() - kL4Off - 12 });
	ASSERT_NE(m, nullptr);
	EXPECT_EQ(crc32c_mbuf_sctp_verify(m, kL4Off, l4_len), CRC32C_VERDICT_OK);
	rte_pktmbuf_free(m);
}

TEST_F(CRC32cMbuf, SctpFillAcrossSegments)
{
	auto frame = frame_around(from_hex(kDiameterSctp));
	auto broken = frame;
	set_field(broken, kL4Off, { 0xde, 0xad, 0xbe, 0xef });
	for (size_t s = kL4Off; s <= kL4Off + 13; s++) {
		rte_mbuf *m = make_chain(broken, { s, 3, broken.size() - s - 3 });
		ASSERT_NE(m, nullptr);
		ASSERT_EQ(crc32c_mbuf_sctp_verify(m, kL4Off, 260), CRC32C_VERDICT_BAD);
		ASSERT_EQ(crc32c_mbuf_sctp_fill(m, kL4Off, 260), 0);
		EXPECT_EQ(chain_bytes(m), frame) << "split at " << s;
		rte_pktmbuf_free(m);
	}
}

TEST_F(CRC32cMbuf, SctpVerdictsOverChain)
{
	auto adler = frame_around(from_hex(kAdlerSctp));
	rte_mbuf *m = make_chain(adler, { kL4Off + 10, 5, adler.size() - kL4Off - 15 });
	ASSERT_NE(m, nullptr);
	EXPECT_EQ(crc32c_mbuf_sctp_verify(m, kL4Off, 36), CRC32C_VERDICT_ADLER32);
	rte_pktmbuf_free(m);

	auto zero = frame_around(from_hex(kDiameterSctp));
	set_field(zero, kL4Off, { 0, 0, 0, 0 });
	m = make_chain(zero, { 100, 101, zero.size() - 201 });
	ASSERT_NE(m, nullptr);
	EXPECT_EQ(crc32c_mbuf_sctp_verify(m, kL4Off, 260), CRC32C_VERDICT_ZERO);
	rte_pktmbuf_free(m);

	auto flipped = frame_around(from_hex(kDiameterSctp));
	flipped[kL4Off + 200] ^= 0x01;
	m = make_chain(flipped, { 150, flipped.size() - 150 });
	ASSERT_NE(m, nullptr);
	EXPECT_EQ(crc32c_mbuf_sctp_verify(m, kL4Off, 260), CRC32C_VERDICT_BAD);
	// The padding after l4_len is not summed: including it breaks the CRC.
	flipped[kL4Off + 200] ^= 0x01;
	rte_pktmbuf_free(m);
	m = make_chain(flipped, { 150, flipped.size() - 150 });
	ASSERT_NE(m, nullptr);
	EXPECT_EQ(crc32c_mbuf_sctp_verify(m, kL4Off, 260), CRC32C_VERDICT_OK);
	EXPECT_EQ(crc32c_mbuf_sctp_verify(m, kL4Off, 266), CRC32C_VERDICT_BAD);
	// Spans that are not an SCTP packet inside the chain.
	EXPECT_EQ(crc32c_mbuf_sctp_verify(m, kL4Off, 11), CRC32C_VERDICT_BAD);
	EXPECT_EQ(crc32c_mbuf_sctp_verify(m, kL4Off, 267), CRC32C_VERDICT_BAD);
	EXPECT_EQ(crc32c_mbuf_sctp_verify(m, m->pkt_len + 1, 12), CRC32C_VERDICT_BAD);
	EXPECT_EQ(crc32c_mbuf_sctp_fill(m, kL4Off, 267), -EINVAL);
	EXPECT_EQ(crc32c_mbuf_sctp_fill(m, m->pkt_len - 11, 11), -EINVAL);
	EXPECT_EQ(crc32c_mbuf_sctp_store(m, m->pkt_len - 11, 0), -EINVAL);
	EXPECT_EQ(chain_bytes(m), flipped);
	rte_pktmbuf_free(m);
}

TEST(CRC32cOffload, DecideFromDevInfo)
{
	struct rte_eth_dev_info info;
	std::memset(&info, 0, sizeof(info));

	auto o = crc32c_offload_decide(&info);
	EXPECT_EQ(o.rx, CRC32C_WHERE_SOFTWARE);
	EXPECT_EQ(o.tx, CRC32C_WHERE_SOFTWARE);
	EXPECT_EQ(crc32c_offload_rx_offloads(&o), 0u);
	EXPECT_EQ(crc32c_offload_tx_offloads(&o), 0u);

	// Other checksum offloads do not count.
	info.rx_offload_capa = RTE_ETH_RX_OFFLOAD_UDP_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM;
	info.tx_offload_capa = RTE_ETH_TX_OFFLOAD_UDP_CKSUM | RTE_ETH_TX_OFFLOAD_IPV4_CKSUM;
	o = crc32c_offload_decide(&info);
	EXPECT_EQ(o.rx, CRC32C_WHERE_SOFTWARE);
	EXPECT_EQ(o.tx, CRC32C_WHERE_SOFTWARE);

	info.tx_offload_capa |= RTE_ETH_TX_OFFLOAD_SCTP_CKSUM;
	o = crc32c_offload_decide(&info);
	EXPECT_EQ(o.rx, CRC32C_WHERE_SOFTWARE);
	EXPECT_EQ(o.tx, CRC32C_WHERE_NIC);
	EXPECT_EQ(crc32c_offload_tx_offloads(&o), RTE_ETH_TX_OFFLOAD_SCTP_CKSUM);

	info.tx_offload_capa = 0;
	info.rx_offload_capa = RTE_ETH_RX_OFFLOAD_SCTP_CKSUM;
	o = crc32c_offload_decide(&info);
	EXPECT_EQ(o.rx, CRC32C_WHERE_NIC);
	EXPECT_EQ(o.tx, CRC32C_WHERE_SOFTWARE);
	EXPECT_EQ(crc32c_offload_rx_offloads(&o), RTE_ETH_RX_OFFLOAD_SCTP_CKSUM);

	info.tx_offload_capa = ~0ull;
	info.rx_offload_capa = ~0ull;
	o = crc32c_offload_decide(&info);
	EXPECT_EQ(o.rx, CRC32C_WHERE_NIC);
	EXPECT_EQ(o.tx, CRC32C_WHERE_NIC);

	EXPECT_STREQ(crc32c_where_name(CRC32C_WHERE_NIC), "nic");
	EXPECT_STREQ(crc32c_where_name(CRC32C_WHERE_SOFTWARE), "software");
}

TEST(CRC32cOffload, RxFlags)
{
	struct rte_mbuf m;
	std::memset(&m, 0, sizeof(m));
	const crc32c_offload nic = { CRC32C_WHERE_NIC, CRC32C_WHERE_NIC };
	const crc32c_offload sw = { CRC32C_WHERE_SOFTWARE, CRC32C_WHERE_SOFTWARE };
	const struct {
		uint64_t flags;
		crc32c_rx_action with_nic;
	} cases[] = {
		{ RTE_MBUF_F_RX_L4_CKSUM_GOOD, CRC32C_RX_ACCEPT },
		{ RTE_MBUF_F_RX_L4_CKSUM_NONE, CRC32C_RX_ACCEPT },
		{ RTE_MBUF_F_RX_L4_CKSUM_BAD, CRC32C_RX_VERIFY },
		{ RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN, CRC32C_RX_VERIFY },
	};
	for (const auto &c : cases) {
		// Unrelated bits around the L4 field must not matter.
		m.ol_flags = c.flags | RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_RSS_HASH;
		EXPECT_EQ(crc32c_offload_rx_check(&nic, &m, false), c.with_nic) << c.flags;
		EXPECT_EQ(crc32c_offload_rx_check(&nic, &m, true), CRC32C_RX_VERIFY)
			<< "UDP-encapsulated " << c.flags;
		EXPECT_EQ(crc32c_offload_rx_check(&sw, &m, false), CRC32C_RX_VERIFY)
			<< "offload off " << c.flags;
	}
}

TEST_F(CRC32cMbuf, TxFill)
{
	auto frame = frame_around(from_hex(kDiameterSctp));
	auto broken = frame;
	set_field(broken, kL4Off, { 0x01, 0x02, 0x03, 0x04 });
	auto zeroed = frame;
	set_field(zeroed, kL4Off, { 0, 0, 0, 0 });
	const crc32c_offload nic = { CRC32C_WHERE_SOFTWARE, CRC32C_WHERE_NIC };
	const crc32c_offload sw = { CRC32C_WHERE_SOFTWARE, CRC32C_WHERE_SOFTWARE };

	// Described for the NIC: field zeroed, SCTP checksum requested.
	rte_mbuf *m = make_chain(broken, { kL4Off + 10, broken.size() - kL4Off - 10 });
	ASSERT_NE(m, nullptr);
	m->l2_len = 14;
	m->l3_len = 20;
	m->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
	ASSERT_EQ(crc32c_offload_tx_fill(&nic, m, kL4Off, 260), 0);
	EXPECT_EQ(m->ol_flags & RTE_MBUF_F_TX_L4_MASK, RTE_MBUF_F_TX_SCTP_CKSUM);
	EXPECT_NE(m->ol_flags & RTE_MBUF_F_TX_IPV4, 0u);
	EXPECT_EQ(chain_bytes(m), zeroed);

	// Same port, but the SCTP header sits after a UDP header (RFC 6951):
	// l2_len + l3_len no longer reach it, so software fills the field.
	std::vector<uint8_t> udp_frame(broken.size() + 8, 0x99);
	std::copy(broken.begin(), broken.begin() + kL4Off, udp_frame.begin());
	std::copy(broken.begin() + kL4Off, broken.end(), udp_frame.begin() + kL4Off + 8);
	rte_pktmbuf_free(m);
	m = make_chain(udp_frame, { udp_frame.size() });
	ASSERT_NE(m, nullptr);
	m->l2_len = 14;
	m->l3_len = 20;
	m->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_UDP_CKSUM;
	ASSERT_EQ(crc32c_offload_tx_fill(&nic, m, kL4Off + 8, 260), 0);
	EXPECT_EQ(m->ol_flags & RTE_MBUF_F_TX_L4_MASK, 0u) << "no SCTP request for encapsulated";
	EXPECT_EQ(crc32c_mbuf_sctp_verify(m, kL4Off + 8, 260), CRC32C_VERDICT_OK);

	// Without the IP version flag the NIC cannot be asked either.
	rte_pktmbuf_free(m);
	m = make_chain(broken, { broken.size() });
	ASSERT_NE(m, nullptr);
	m->l2_len = 14;
	m->l3_len = 20;
	ASSERT_EQ(crc32c_offload_tx_fill(&nic, m, kL4Off, 260), 0);
	EXPECT_EQ(m->ol_flags & RTE_MBUF_F_TX_L4_MASK, 0u);
	EXPECT_EQ(chain_bytes(m), frame);

	// Software TX: computed here, any stale request cleared.
	rte_pktmbuf_free(m);
	m = make_chain(broken, { 50, 50, broken.size() - 100 });
	ASSERT_NE(m, nullptr);
	m->l2_len = 14;
	m->l3_len = 20;
	m->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_SCTP_CKSUM;
	ASSERT_EQ(crc32c_offload_tx_fill(&sw, m, kL4Off, 260), 0);
	EXPECT_EQ(m->ol_flags & RTE_MBUF_F_TX_L4_MASK, 0u);
	EXPECT_EQ(chain_bytes(m), frame);
	EXPECT_EQ(crc32c_offload_tx_fill(&sw, m, kL4Off, 11), -EINVAL);
	EXPECT_EQ(crc32c_offload_tx_fill(&nic, m, kL4Off, 300), -EINVAL);
	rte_pktmbuf_free(m);
}
