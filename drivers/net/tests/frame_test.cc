// SPDX-License-Identifier: BSD-3-Clause
// drivers/net/frame.c: link, IP and UDP headers down to the SCTP span.
// Frames are assembled from hand-written headers so each test shows the bytes
// it is about.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "drivers/net/frame.h"
}

namespace {

using Bytes = std::vector<uint8_t>;

void
put16(Bytes &b, uint16_t v)
{
	b.push_back(static_cast<uint8_t>(v >> 8));
	b.push_back(static_cast<uint8_t>(v));
}

void
append(Bytes &b, const Bytes &more)
{
	b.insert(b.end(), more.begin(), more.end());
}

// A 16-byte SCTP packet: common header (ports 5000 > 80, vtag 0x01020304,
// checksum zero) and a COOKIE ACK chunk.
Bytes
sctp_packet()
{
	return Bytes{ 0x13, 0x88, 0x00, 0x50, 0x01, 0x02, 0x03, 0x04,
		      0x00, 0x00, 0x00, 0x00, 0x0b, 0x00, 0x00, 0x04 };
}

// IPv4 header (no options) from 10.0.0.1 to 10.0.0.2 around payload.
Bytes
ipv4(uint8_t proto, const Bytes &payload, uint16_t frag = 0, uint8_t ihl = 5,
     const Bytes &options = {})
{
	Bytes b;
	b.push_back(static_cast<uint8_t>(0x40 | ihl));
	b.push_back(0x02); // ECT(0): ECN bits must not confuse anything
	put16(b, static_cast<uint16_t>(ihl * 4 + payload.size()));
	put16(b, 0x1234); // identification
	put16(b, frag);
	b.push_back(64);
	b.push_back(proto);
	put16(b, 0); // header checksum: not checked, as in every capture tool
	append(b, { 10, 0, 0, 1, 10, 0, 0, 2 });
	append(b, options);
	append(b, payload);
	return b;
}

const Bytes v6_src = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
const Bytes v6_dst = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 };

// IPv6 header; ext is the extension-header chain that precedes payload.
Bytes
ipv6(uint8_t next_header, const Bytes &ext, const Bytes &payload)
{
	Bytes b = { 0x60, 0x00, 0x00, 0x00 };
	put16(b, static_cast<uint16_t>(ext.size() + payload.size()));
	b.push_back(next_header);
	b.push_back(64);
	append(b, v6_src);
	append(b, v6_dst);
	append(b, ext);
	append(b, payload);
	return b;
}

// An 8-byte option-type extension header (hop-by-hop, routing, dest-opts).
Bytes
ext8(uint8_t next_header)
{
	return Bytes{ next_header, 0, 1, 4, 0, 0, 0, 0 }; // PadN option
}

Bytes
udp(uint16_t sport, uint16_t dport, const Bytes &payload)
{
	Bytes b;
	put16(b, sport);
	put16(b, dport);
	put16(b, static_cast<uint16_t>(8 + payload.size()));
	put16(b, 0);
	append(b, payload);
	return b;
}

Bytes
ether(uint16_t ethertype, const Bytes &payload, std::initializer_list<uint16_t> tags = {})
{
	Bytes b = { 0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1 };
	uint16_t vid = 100;
	for (uint16_t tpid : tags) {
		put16(b, tpid);
		put16(b, vid++);
	}
	put16(b, ethertype);
	append(b, payload);
	return b;
}

struct Parsed {
	net_frame f;
	net_frame_err err;
};

Parsed
parse(net_frame_link link, const Bytes &b, size_t caplen)
{
	Parsed p;
	std::memset(&p.f, 0xa5, sizeof(p.f)); // every field must be written
	p.err = net_frame_parse(&p.f, link, b.data(), caplen);
	return p;
}

Parsed
parse(net_frame_link link, const Bytes &b)
{
	return parse(link, b, b.size());
}

// The span must be the SCTP packet built by sctp_packet().
void
expect_sctp_span(const Parsed &p, const Bytes &frame)
{
	ASSERT_EQ(p.err, NET_FRAME_OK) << net_frame_err_name(p.err);
	EXPECT_TRUE(p.f.is_sctp);
	Bytes want = sctp_packet();
	ASSERT_EQ(p.f.sctp_len, want.size());
	ASSERT_LE(p.f.sctp_offset + p.f.sctp_len, frame.size());
	EXPECT_EQ(Bytes(frame.begin() + p.f.sctp_offset,
			frame.begin() + p.f.sctp_offset + p.f.sctp_len),
		  want);
	EXPECT_EQ(p.f.src_port, 5000);
	EXPECT_EQ(p.f.dst_port, 80);
}

TEST(NetFrame, EthernetIpv4)
{
	Bytes fr = ether(0x0800, ipv4(132, sctp_packet()));
	Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr);
	expect_sctp_span(p, fr);
	EXPECT_EQ(p.f.l3_offset, 14u);
	EXPECT_EQ(p.f.l4_offset, 34u);
	EXPECT_EQ(p.f.sctp_offset, 34u);
	EXPECT_EQ(p.f.ip_len, 36u);
	EXPECT_EQ(p.f.ip_version, 4);
	EXPECT_EQ(p.f.ip_proto, 132);
	EXPECT_EQ(p.f.vlan_count, 0);
	EXPECT_FALSE(p.f.udp_encap);
	EXPECT_EQ(p.f.udp_src_port, 0);
	const uint8_t src[16] = { 10, 0, 0, 1 };
	const uint8_t dst[16] = { 10, 0, 0, 2 };
	EXPECT_EQ(0, std::memcmp(p.f.src_addr, src, 16));
	EXPECT_EQ(0, std::memcmp(p.f.dst_addr, dst, 16));
}

// Ethernet pads a 50-byte frame to 60: the padding is not SCTP.
TEST(NetFrame, EthernetPaddingIsNotSctp)
{
	Bytes fr = ether(0x0800, ipv4(132, sctp_packet()));
	fr.resize(60, 0xee);
	Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr);
	expect_sctp_span(p, fr);
	EXPECT_EQ(p.f.sctp_len, 16u);
}

TEST(NetFrame, Ipv4Options)
{
	Bytes opts = { 0x01, 0x01, 0x01, 0x00 }; // NOP NOP NOP EOL
	Bytes fr = ether(0x0800, ipv4(132, sctp_packet(), 0, 6, opts));
	Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr);
	expect_sctp_span(p, fr);
	EXPECT_EQ(p.f.sctp_offset, 38u);
}

TEST(NetFrame, Ipv4DontFragmentIsNotAFragment)
{
	Bytes fr = ether(0x0800, ipv4(132, sctp_packet(), 0x4000));
	expect_sctp_span(parse(NET_FRAME_LINK_ETHERNET, fr), fr);
}

TEST(NetFrame, SingleVlan)
{
	Bytes fr = ether(0x0800, ipv4(132, sctp_packet()), { 0x8100 });
	Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr);
	expect_sctp_span(p, fr);
	EXPECT_EQ(p.f.vlan_count, 1);
	EXPECT_EQ(p.f.vlan_tci[0], 100);
	EXPECT_EQ(p.f.l3_offset, 18u);
}

TEST(NetFrame, QinQ)
{
	for (uint16_t outer : { 0x88a8, 0x9100, 0x8100 }) {
		Bytes fr = ether(0x86dd, ipv6(132, {}, sctp_packet()), { outer, 0x8100 });
		Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr);
		expect_sctp_span(p, fr);
		EXPECT_EQ(p.f.vlan_count, 2);
		EXPECT_EQ(p.f.vlan_tci[0], 100);
		EXPECT_EQ(p.f.vlan_tci[1], 101);
		EXPECT_EQ(p.f.l3_offset, 22u);
	}
}

TEST(NetFrame, TooManyVlanTags)
{
	Bytes fr = ether(0x0800, ipv4(132, sctp_packet()), { 0x88a8, 0x8100, 0x8100 });
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, fr).err, NET_FRAME_ERR_VLAN_TOO_DEEP);
}

TEST(NetFrame, VlanTagCutShort)
{
	Bytes fr = ether(0x0800, {}, { 0x8100 });
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, fr, 16).err, NET_FRAME_ERR_LINK_TRUNCATED);
}

TEST(NetFrame, EthernetIpv6)
{
	Bytes fr = ether(0x86dd, ipv6(132, {}, sctp_packet()));
	Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr);
	expect_sctp_span(p, fr);
	EXPECT_EQ(p.f.ip_version, 6);
	EXPECT_EQ(p.f.sctp_offset, 54u);
	EXPECT_EQ(p.f.ip_len, 56u);
	EXPECT_EQ(0, std::memcmp(p.f.src_addr, v6_src.data(), 16));
	EXPECT_EQ(0, std::memcmp(p.f.dst_addr, v6_dst.data(), 16));
}

TEST(NetFrame, Ipv6ExtensionChain)
{
	// hop-by-hop -> routing -> destination options -> atomic fragment -> SCTP
	Bytes ext = ext8(43);
	append(ext, Bytes{ 60, 0, 0, 0, 0, 0, 0, 0 }); // routing type 0, segments left 0
	Bytes dst16 = { 44, 1, 1, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }; // 16 bytes
	append(ext, dst16);
	append(ext, Bytes{ 132, 0, 0x00, 0x00, 0, 0, 0, 7 }); // offset 0, M clear
	Bytes fr = ether(0x86dd, ipv6(0, ext, sctp_packet()));
	Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr);
	expect_sctp_span(p, fr);
	EXPECT_EQ(p.f.sctp_offset, 14u + 40u + 40u);
	EXPECT_EQ(p.f.ip_proto, 132);
}

TEST(NetFrame, Ipv6ExtensionPastPayload)
{
	Bytes ext = { 132, 4, 0, 0, 0, 0, 0, 0 }; // claims 40 bytes
	Bytes fr = ether(0x86dd, ipv6(60, ext, sctp_packet()));
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, fr).err, NET_FRAME_ERR_IPV6_EXT_LEN);
	// Fewer than 8 bytes left for an extension header at all.
	Bytes fr2 = ether(0x86dd, ipv6(60, {}, { 132, 0, 0, 0 }));
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, fr2).err, NET_FRAME_ERR_IPV6_EXT_LEN);
}

TEST(NetFrame, Ipv6Fragments)
{
	// First fragment (offset 0, M set) and a later one (offset 8, M clear).
	for (uint16_t fo : { 0x0001, 0x0040 }) {
		Bytes ext = { 132, 0, static_cast<uint8_t>(fo >> 8), static_cast<uint8_t>(fo), 0, 0,
			      0,   9 };
		Bytes fr = ether(0x86dd, ipv6(44, ext, sctp_packet()));
		Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr);
		EXPECT_EQ(p.err, NET_FRAME_ERR_IP_FRAGMENT);
		EXPECT_TRUE(p.f.is_sctp);
		EXPECT_EQ(p.f.ip_version, 6);
	}
}

TEST(NetFrame, Ipv6Jumbogram)
{
	Bytes fr = ether(0x86dd, ipv6(0, {}, {}));
	fr[14 + 4] = 0;
	fr[14 + 5] = 0;
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, fr).err, NET_FRAME_ERR_IPV6_JUMBOGRAM);
}

TEST(NetFrame, Ipv4Fragments)
{
	for (uint16_t frag : { 0x2000, 0x0001, 0x2010 }) {
		Bytes fr = ether(0x0800, ipv4(132, sctp_packet(), frag));
		Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr);
		EXPECT_EQ(p.err, NET_FRAME_ERR_IP_FRAGMENT) << frag;
		EXPECT_TRUE(p.f.is_sctp);
		EXPECT_EQ(p.f.src_addr[0], 10);
	}
	// A later fragment of a UDP datagram: the ports are not in it.
	Bytes fr = ether(0x0800, ipv4(17, udp(9899, 9899, sctp_packet()), 0x0003));
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, fr).err, NET_FRAME_ERR_NOT_SCTP);
	// The first fragment of UDP-encapsulated SCTP is named.
	Bytes fr2 = ether(0x0800, ipv4(17, udp(9899, 9899, sctp_packet()), 0x2000));
	Parsed p2 = parse(NET_FRAME_LINK_ETHERNET, fr2);
	EXPECT_EQ(p2.err, NET_FRAME_ERR_IP_FRAGMENT);
	EXPECT_TRUE(p2.f.is_sctp);
	EXPECT_TRUE(p2.f.udp_encap);
}

TEST(NetFrame, UdpEncapsulation)
{
	for (auto ports : { std::make_pair(9899, 40000), std::make_pair(40000, 9899) }) {
		Bytes fr = ether(0x0800,
				 ipv4(17, udp(static_cast<uint16_t>(ports.first),
					      static_cast<uint16_t>(ports.second), sctp_packet())));
		Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr);
		expect_sctp_span(p, fr);
		EXPECT_TRUE(p.f.udp_encap);
		EXPECT_EQ(p.f.l4_offset, 34u);
		EXPECT_EQ(p.f.sctp_offset, 42u);
		EXPECT_EQ(p.f.udp_src_port, ports.first);
		EXPECT_EQ(p.f.udp_dst_port, ports.second);
	}
	Bytes v6 = ether(0x86dd, ipv6(17, {}, udp(9899, 9899, sctp_packet())));
	expect_sctp_span(parse(NET_FRAME_LINK_ETHERNET, v6), v6);
}

TEST(NetFrame, UdpOtherPortIsNotSctp)
{
	Bytes fr = ether(0x0800, ipv4(17, udp(53, 40000, sctp_packet())));
	Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr);
	EXPECT_EQ(p.err, NET_FRAME_ERR_NOT_SCTP);
	EXPECT_FALSE(p.f.is_sctp);
}

TEST(NetFrame, UdpBadLength)
{
	Bytes fr = ether(0x0800, ipv4(17, udp(9899, 9899, sctp_packet())));
	fr[34 + 4] = 0;
	fr[34 + 5] = 7; // below the UDP header
	Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr);
	EXPECT_EQ(p.err, NET_FRAME_ERR_UDP_LEN);
	EXPECT_TRUE(p.f.is_sctp);
	fr[34 + 5] = 25; // one past the IP payload
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, fr).err, NET_FRAME_ERR_UDP_LEN);
	fr[34 + 5] = 20; // shorter than the IP payload: the UDP length rules
	Parsed p2 = parse(NET_FRAME_LINK_ETHERNET, fr);
	EXPECT_EQ(p2.err, NET_FRAME_OK);
	EXPECT_EQ(p2.f.sctp_len, 12u);
}

TEST(NetFrame, UdpHeaderShorterThanEight)
{
	Bytes fr = ether(0x0800, ipv4(17, { 0x26, 0xab, 0x26, 0xab }));
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, fr).err, NET_FRAME_ERR_UDP_LEN);
}

TEST(NetFrame, OtherTrafficIsNamed)
{
	Bytes arp = ether(0x0806, Bytes(28, 0));
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, arp).err, NET_FRAME_ERR_NOT_IP);
	Bytes tcp = ether(0x0800, ipv4(6, Bytes(20, 0)));
	Parsed p = parse(NET_FRAME_LINK_ETHERNET, tcp);
	EXPECT_EQ(p.err, NET_FRAME_ERR_NOT_SCTP);
	EXPECT_FALSE(p.f.is_sctp);
	EXPECT_EQ(p.f.ip_proto, 6);
	Bytes llc = ether(0x0026, Bytes(38, 0)); // 802.3 length field, not an EtherType
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, llc).err, NET_FRAME_ERR_NOT_IP);
	Bytes nonext = ether(0x86dd, ipv6(59, {}, {}));
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, nonext).err, NET_FRAME_ERR_NOT_SCTP);
}

TEST(NetFrame, BadIpv4Headers)
{
	Bytes fr = ether(0x0800, ipv4(132, sctp_packet()));
	Bytes ihl = fr;
	ihl[14] = 0x44;
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, ihl).err, NET_FRAME_ERR_IPV4_IHL);
	Bytes tl = fr;
	tl[16] = 0;
	tl[17] = 19;
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, tl).err, NET_FRAME_ERR_IPV4_TOTAL_LEN);
	Bytes ver = fr;
	ver[14] = 0x65;
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, ver).err, NET_FRAME_ERR_IP_VERSION);
	Bytes opts = fr;
	opts[14] = 0x4f; // 60-byte header in a 50-byte frame
	opts[17] = 60;
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, opts).err, NET_FRAME_ERR_IP_TRUNCATED);
	Bytes v6 = ether(0x86dd, ipv6(132, {}, sctp_packet()));
	v6[14] = 0x45;
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, v6).err, NET_FRAME_ERR_IP_VERSION);
}

TEST(NetFrame, CaptureShorterThanDatagram)
{
	Bytes fr = ether(0x0800, ipv4(132, sctp_packet()));
	Parsed p = parse(NET_FRAME_LINK_ETHERNET, fr, fr.size() - 1);
	EXPECT_EQ(p.err, NET_FRAME_ERR_CAPTURE_TRUNCATED);
	EXPECT_TRUE(p.f.is_sctp);
	EXPECT_EQ(p.f.sctp_offset, 34u);
	EXPECT_EQ(p.f.sctp_len, 16u); // as declared, past the capture
	EXPECT_EQ(p.f.src_port, 5000);
	Bytes v6 = ether(0x86dd, ipv6(0, ext8(132), sctp_packet()));
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, v6, 14 + 40 + 4).err,
		  NET_FRAME_ERR_CAPTURE_TRUNCATED);
	Bytes u = ether(0x0800, ipv4(17, udp(9899, 9899, sctp_packet())));
	EXPECT_EQ(parse(NET_FRAME_LINK_ETHERNET, u, 34 + 4).err, NET_FRAME_ERR_CAPTURE_TRUNCATED);
}

// Hop-by-hop, then a fragment header with offset 0 and M clear (RFC 8200 §4.5).
Bytes
hbh_then_atomic_fragment(uint8_t next_header)
{
	Bytes b = ext8(44);
	append(b, Bytes{ next_header, 0, 0, 0, 0, 0, 0, 1 });
	return b;
}

// Every prefix of every well-formed frame is refused with a name, and never
// read past (ASan builds check the "never").
TEST(NetFrame, EveryPrefixIsRefused)
{
	std::vector<std::pair<net_frame_link, Bytes>> frames = {
		{ NET_FRAME_LINK_ETHERNET, ether(0x0800, ipv4(132, sctp_packet())) },
		{ NET_FRAME_LINK_ETHERNET,
		  ether(0x86dd, ipv6(0, hbh_then_atomic_fragment(17), udp(9899, 1, sctp_packet())),
			{ 0x8100 }) },
		{ NET_FRAME_LINK_ETHERNET,
		  ether(0x86dd, ipv6(60, ext8(17), udp(9899, 1, sctp_packet()))) },
		{ NET_FRAME_LINK_RAW, ipv4(17, udp(1, 9899, sctp_packet())) },
	};
	for (auto &lf : frames) {
		Bytes &fr = lf.second;
		ASSERT_EQ(parse(lf.first, fr).err, NET_FRAME_OK);
		for (size_t n = 0; n < fr.size(); n++) {
			Bytes cut(fr.begin(), fr.begin() + static_cast<ptrdiff_t>(n));
			EXPECT_NE(parse(lf.first, cut).err, NET_FRAME_OK) << n;
		}
	}
}

TEST(NetFrame, RawIp)
{
	Bytes v4 = ipv4(132, sctp_packet());
	Parsed p = parse(NET_FRAME_LINK_RAW, v4);
	expect_sctp_span(p, v4);
	EXPECT_EQ(p.f.l3_offset, 0u);
	Bytes v6 = ipv6(132, {}, sctp_packet());
	expect_sctp_span(parse(NET_FRAME_LINK_RAW, v6), v6);
	expect_sctp_span(parse(NET_FRAME_LINK_IPV4, v4), v4);
	expect_sctp_span(parse(NET_FRAME_LINK_IPV6, v6), v6);
	EXPECT_EQ(parse(NET_FRAME_LINK_IPV4, v6).err, NET_FRAME_ERR_IP_VERSION);
	EXPECT_EQ(parse(NET_FRAME_LINK_IPV6, v4).err, NET_FRAME_ERR_IP_VERSION);
	Bytes junk = { 0x50, 0, 0, 0 };
	EXPECT_EQ(parse(NET_FRAME_LINK_RAW, junk).err, NET_FRAME_ERR_IP_VERSION);
	EXPECT_EQ(parse(NET_FRAME_LINK_RAW, Bytes{}).err, NET_FRAME_ERR_IP_TRUNCATED);
}

TEST(NetFrame, LinuxCooked)
{
	// SLL: packet type, ARPHRD_ETHER, address length 6, address (8), protocol.
	Bytes sll = { 0, 0, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0 };
	put16(sll, 0x0800);
	append(sll, ipv4(132, sctp_packet()));
	Parsed p = parse(NET_FRAME_LINK_SLL, sll);
	expect_sctp_span(p, sll);
	EXPECT_EQ(p.f.l3_offset, 16u);

	// SLL2: protocol, reserved, ifindex, ARPHRD, packet type, addr len, addr.
	Bytes sll2;
	put16(sll2, 0x86dd);
	append(sll2, { 0, 0, 0, 0, 0, 3, 0, 1, 4, 6, 2, 0, 0, 0, 0, 1, 0, 0 });
	append(sll2, ipv6(132, {}, sctp_packet()));
	Parsed p2 = parse(NET_FRAME_LINK_SLL2, sll2);
	expect_sctp_span(p2, sll2);
	EXPECT_EQ(p2.f.l3_offset, 20u);

	EXPECT_EQ(parse(NET_FRAME_LINK_SLL, sll, 15).err, NET_FRAME_ERR_LINK_TRUNCATED);
	EXPECT_EQ(parse(NET_FRAME_LINK_SLL2, sll2, 19).err, NET_FRAME_ERR_LINK_TRUNCATED);
	Bytes other = sll;
	other[14] = 0x00;
	other[15] = 0x04; // ETH_P_802_2: not an EtherType
	EXPECT_EQ(parse(NET_FRAME_LINK_SLL, other).err, NET_FRAME_ERR_NOT_IP);
}

TEST(NetFrame, Loopback)
{
	Bytes le4 = { 2, 0, 0, 0 }; // AF_INET written by a little-endian host
	append(le4, ipv4(132, sctp_packet()));
	expect_sctp_span(parse(NET_FRAME_LINK_NULL, le4), le4);
	Bytes be4 = { 0, 0, 0, 2 };
	append(be4, ipv4(132, sctp_packet()));
	expect_sctp_span(parse(NET_FRAME_LINK_NULL, be4), be4);
	expect_sctp_span(parse(NET_FRAME_LINK_LOOP, be4), be4);
	EXPECT_EQ(parse(NET_FRAME_LINK_LOOP, le4).err, NET_FRAME_ERR_NOT_IP);
	for (uint8_t af6 : { 10, 24, 28, 30 }) {
		Bytes le6 = { af6, 0, 0, 0 };
		append(le6, ipv6(132, {}, sctp_packet()));
		expect_sctp_span(parse(NET_FRAME_LINK_NULL, le6), le6);
	}
	Bytes other = { 7, 0, 0, 0, 0x45 };
	EXPECT_EQ(parse(NET_FRAME_LINK_NULL, other).err, NET_FRAME_ERR_NOT_IP);
	EXPECT_EQ(parse(NET_FRAME_LINK_NULL, other, 3).err, NET_FRAME_ERR_LINK_TRUNCATED);
}

TEST(NetFrame, UnknownLinkValue)
{
	Bytes fr = ipv4(132, sctp_packet());
	EXPECT_EQ(parse(static_cast<net_frame_link>(99), fr).err, NET_FRAME_ERR_LINK_UNSUPPORTED);
}

TEST(NetFrame, LinkTypes)
{
	struct {
		int linktype;
		net_frame_link link;
	} map[] = {
		{ 0, NET_FRAME_LINK_NULL },   { 1, NET_FRAME_LINK_ETHERNET },
		{ 12, NET_FRAME_LINK_RAW },   { 101, NET_FRAME_LINK_RAW },
		{ 108, NET_FRAME_LINK_LOOP }, { 113, NET_FRAME_LINK_SLL },
		{ 228, NET_FRAME_LINK_IPV4 }, { 229, NET_FRAME_LINK_IPV6 },
		{ 276, NET_FRAME_LINK_SLL2 },
	};
	for (auto &m : map) {
		net_frame_link l;
		ASSERT_TRUE(net_frame_link_from_linktype(m.linktype, &l)) << m.linktype;
		EXPECT_EQ(l, m.link) << m.linktype;
	}
	net_frame_link l;
	EXPECT_FALSE(net_frame_link_from_linktype(105, &l)); // 802.11
	EXPECT_FALSE(net_frame_link_from_linktype(-1, &l));
}

TEST(NetFrame, ErrorNames)
{
	EXPECT_STREQ(net_frame_err_name(NET_FRAME_OK), "ok");
	EXPECT_STREQ(net_frame_err_name(NET_FRAME_ERR_IP_FRAGMENT), "ip_fragment");
	EXPECT_STREQ(net_frame_err_name(NET_FRAME_ERR_COUNT), "unknown");
	std::set<std::string> seen;
	for (int e = 0; e < NET_FRAME_ERR_COUNT; e++) {
		std::string name = net_frame_err_name(static_cast<net_frame_err>(e));
		EXPECT_FALSE(name.empty());
		EXPECT_EQ(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_"),
			  std::string::npos)
			<< name;
		EXPECT_TRUE(seen.insert(name).second) << name;
		EXPECT_NE(std::string(net_frame_err_describe(static_cast<net_frame_err>(e))), "");
	}
}

} // namespace
