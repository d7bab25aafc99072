// SPDX-License-Identifier: BSD-3-Clause
// drivers/net/l3.c: every frame here is assembled by hand from its fields,
// with checksums computed by this file's own RFC 1071 sum, so a test shows
// the bytes it is about and does not trust the code under test to check
// itself. Every frame the layer writes is also saved and, when tshark is
// installed, dissected with checksum validation on.
#include <gtest/gtest.h>

#include "tests/prereq.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" {
#include "drivers/net/l3.h"
}

namespace {

using Bytes = std::vector<uint8_t>;

// Every frame the layer produced, for the tshark pass at the end.
std::vector<Bytes> &
written()
{
	static std::vector<Bytes> w;
	return w;
}

void
put16(Bytes &b, uint16_t v)
{
	b.push_back(static_cast<uint8_t>(v >> 8));
	b.push_back(static_cast<uint8_t>(v));
}

void
put32(Bytes &b, uint32_t v)
{
	put16(b, static_cast<uint16_t>(v >> 16));
	put16(b, static_cast<uint16_t>(v));
}

void
append(Bytes &b, const Bytes &more)
{
	b.insert(b.end(), more.begin(), more.end());
}

uint16_t
get16(const uint8_t *p)
{
	return static_cast<uint16_t>(p[0] << 8 | p[1]);
}

// The test's own one's-complement checksum (RFC 1071), over a list of spans.
uint16_t
inet_csum(const std::vector<Bytes> &parts)
{
	Bytes all;
	for (const auto &p : parts)
		append(all, p);
	uint64_t s = 0;
	for (size_t i = 0; i < all.size(); i += 2)
		s += static_cast<uint64_t>(all[i]) << 8 | (i + 1 < all.size() ? all[i + 1] : 0);
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return static_cast<uint16_t>(~s);
}

Bytes
pseudo4(const Bytes &src, const Bytes &dst, uint8_t proto, size_t len)
{
	Bytes p = src;
	append(p, dst);
	p.push_back(0);
	p.push_back(proto);
	put16(p, static_cast<uint16_t>(len));
	return p;
}

Bytes
pseudo6(const Bytes &src, const Bytes &dst, uint8_t nh, size_t len)
{
	Bytes p = src;
	append(p, dst);
	put32(p, static_cast<uint32_t>(len));
	append(p, { 0, 0, 0, nh });
	return p;
}

const Bytes kOurMac = { 0x02, 0, 0, 0, 0, 0x01 };
const Bytes kPeerMac = { 0x02, 0, 0, 0, 0, 0x02 };
const Bytes kGwMac = { 0x02, 0, 0, 0, 0, 0xFE };
const Bytes kBcast = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
const Bytes kOur4 = { 10, 0, 0, 1 };
const Bytes kOur4b = { 10, 0, 1, 1 }; // second address (multi-homing)
const Bytes kPeer4 = { 10, 0, 0, 2 };
const Bytes kGw4 = { 10, 0, 0, 254 };
const Bytes kFar4 = { 192, 0, 2, 7 };
const Bytes kOur6 = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
const Bytes kPeer6 = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 };
const Bytes kGw6 = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFE };
const Bytes kFar6 = { 0x20, 0x01, 0x0d, 0xb9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7 };
// fe80::ff:fe00:1 from 02:00:00:00:00:01 (modified EUI-64, U/L bit flipped).
const Bytes kOurLL = { 0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFE, 0, 0, 0x01 };
const Bytes kUnspec6(16, 0);

sctp_addr
ip_of(const Bytes &b)
{
	sctp_addr ip{};
	ip.family = b.size() == 4 ? 4 : 6;
	memcpy(ip.bytes, b.data(), b.size());
	return ip;
}

Bytes
eth(const Bytes &dst, const Bytes &src, uint16_t type, const Bytes &payload,
    const std::vector<uint16_t> &vlans = {})
{
	Bytes b = dst;
	append(b, src);
	for (uint16_t tci : vlans) {
		put16(b, 0x8100);
		put16(b, tci);
	}
	put16(b, type);
	append(b, payload);
	return b;
}

Bytes
ipv4(const Bytes &src, const Bytes &dst, uint8_t proto, const Bytes &payload, uint8_t ttl = 64,
     uint16_t frag = 0x4000)
{
	Bytes h = { 0x45, 0 };
	put16(h, static_cast<uint16_t>(20 + payload.size()));
	put16(h, 0x1234);
	put16(h, frag);
	h.push_back(ttl);
	h.push_back(proto);
	put16(h, 0);
	append(h, src);
	append(h, dst);
	uint16_t c = inet_csum({ h });
	h[10] = static_cast<uint8_t>(c >> 8);
	h[11] = static_cast<uint8_t>(c);
	append(h, payload);
	return h;
}

Bytes
ipv6(const Bytes &src, const Bytes &dst, uint8_t nh, const Bytes &payload, uint8_t hops = 64)
{
	Bytes h = { 0x60, 0, 0, 0 };
	put16(h, static_cast<uint16_t>(payload.size()));
	h.push_back(nh);
	h.push_back(hops);
	append(h, src);
	append(h, dst);
	append(h, payload);
	return h;
}

// ICMP message with its checksum; body is everything after the checksum.
Bytes
icmp4(uint8_t type, uint8_t code, const Bytes &body)
{
	Bytes m = { type, code, 0, 0 };
	append(m, body);
	uint16_t c = inet_csum({ m });
	m[2] = static_cast<uint8_t>(c >> 8);
	m[3] = static_cast<uint8_t>(c);
	return m;
}

Bytes
icmp6(const Bytes &src, const Bytes &dst, uint8_t type, uint8_t code, const Bytes &body)
{
	Bytes m = { type, code, 0, 0 };
	append(m, body);
	uint16_t c = inet_csum({ pseudo6(src, dst, 58, m.size()), m });
	m[2] = static_cast<uint8_t>(c >> 8);
	m[3] = static_cast<uint8_t>(c);
	return m;
}

// A 16-byte SCTP packet: ports sport > dport, vtag, zero CRC, COOKIE ACK.
Bytes
sctp(uint16_t sport = 5000, uint16_t dport = 80, uint32_t vtag = 0x01020304)
{
	Bytes b;
	put16(b, sport);
	put16(b, dport);
	put32(b, vtag);
	append(b, { 0, 0, 0, 0, 0x0b, 0x00, 0x00, 0x04 });
	return b;
}

Bytes
udp(const Bytes &src, const Bytes &dst, uint16_t sport, uint16_t dport, const Bytes &payload,
    bool checksum = true)
{
	Bytes u;
	put16(u, sport);
	put16(u, dport);
	put16(u, static_cast<uint16_t>(8 + payload.size()));
	put16(u, 0);
	append(u, payload);
	if (checksum) {
		Bytes ph = src.size() == 4 ? pseudo4(src, dst, 17, u.size())
					   : pseudo6(src, dst, 17, u.size());
		uint16_t c = inet_csum({ ph, u });
		if (c == 0)
			c = 0xFFFF;
		u[6] = static_cast<uint8_t>(c >> 8);
		u[7] = static_cast<uint8_t>(c);
	}
	return u;
}

Bytes
arp(uint16_t op, const Bytes &sha, const Bytes &spa, const Bytes &tha, const Bytes &tpa)
{
	Bytes a = { 0, 1, 0x08, 0x00, 6, 4 };
	put16(a, op);
	append(a, sha);
	append(a, spa);
	append(a, tha);
	append(a, tpa);
	return a;
}

Bytes
solicited(const Bytes &target)
{
	Bytes g = { 0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xFF };
	g.insert(g.end(), target.end() - 3, target.end());
	return g;
}

Bytes
mcast_mac(const Bytes &group)
{
	Bytes m = { 0x33, 0x33 };
	m.insert(m.end(), group.end() - 4, group.end());
	return m;
}

// NS or NA body after the checksum: flags/reserved, target, one LLA option.
Bytes
nd_body(uint8_t flags, const Bytes &target, uint8_t opt_type, const Bytes &mac)
{
	Bytes b = { flags, 0, 0, 0 };
	append(b, target);
	if (!mac.empty()) {
		b.push_back(opt_type);
		b.push_back(1);
		append(b, mac);
	}
	return b;
}

// The NS a peer sends to resolve one of our addresses.
Bytes
ns_frame(const Bytes &src, const Bytes &target, bool with_slla = true, uint8_t hops = 255)
{
	Bytes dst = solicited(target);
	Bytes body = nd_body(0, target, 1, with_slla ? kPeerMac : Bytes{});
	return eth(mcast_mac(dst), kPeerMac, 0x86DD,
		   ipv6(src, dst, 58, icmp6(src, dst, 135, 0, body), hops));
}

Bytes
na_frame(const Bytes &target, uint8_t flags, const Bytes &mac, const Bytes &dst = kOur6)
{
	Bytes body = nd_body(flags, target, 2, mac);
	return eth(kOurMac, mac.empty() ? kPeerMac : mac, 0x86DD,
		   ipv6(target, dst, 58, icmp6(target, dst, 136, 0, body), 255));
}

struct Released {
	std::vector<uintptr_t> handles;
	static void cb(void *ctx, uintptr_t h)
	{
		static_cast<Released *>(ctx)->handles.push_back(h);
	}
};

// Fixture: 10.0.0.1/24 and 10.0.1.1/24, 2001:db8::1/64 (+ link-local), gateways .254 and ::fe.
class L3 : public ::testing::Test {
      protected:
	dpsctp_l3 l3_{};
	dpsctp_l3_config cfg_{};
	Released rel_;
	uint8_t reply_[2048];
	dpsctp_l3_in in_{};

	void SetUp() override
	{
		memcpy(cfg_.mac, kOurMac.data(), 6);
		cfg_.addr[0] = ip_of(kOur4);
		cfg_.prefix[0] = 24;
		cfg_.addr[1] = ip_of(kOur4b);
		cfg_.prefix[1] = 24;
		cfg_.addr[2] = ip_of(kOur6);
		cfg_.prefix[2] = 64;
		cfg_.addr_count = 3;
		cfg_.gw4 = ip_of(kGw4);
		cfg_.gw6 = ip_of(kGw6);
		cfg_.ipv6_link_local = true;
		ASSERT_EQ(dpsctp_l3_init(&l3_, &cfg_, Released::cb, &rel_), 0);
	}

	dpsctp_l3_verdict input(const Bytes &f, uint64_t now = 1000)
	{
		auto v = dpsctp_l3_input(&l3_, f.data(), f.size(), now, reply_, sizeof(reply_),
					 &in_);
		if (v == DPSCTP_L3_IN_REPLY)
			written().emplace_back(reply_, reply_ + in_.reply_len);
		return v;
	}

	Bytes reply() const
	{
		return Bytes(reply_, reply_ + in_.reply_len);
	}

	uint64_t drops(dpsctp_l3_drop d) const
	{
		return l3_.ctr.drops[d];
	}

	uint64_t total_drops() const
	{
		uint64_t n = 0;
		for (unsigned i = 1; i < DPSCTP_L3_DROP_COUNT; i++)
			n += l3_.ctr.drops[i];
		return n;
	}

	// Expect frame f dropped under d (and only that counter moving).
	void expect_drop(const Bytes &f, dpsctp_l3_drop d)
	{
		uint64_t before = drops(d), all = total_drops();
		EXPECT_EQ(input(f), DPSCTP_L3_IN_DROP) << dpsctp_l3_drop_name(in_.drop);
		EXPECT_EQ(in_.drop, d) << "got " << dpsctp_l3_drop_name(in_.drop) << ", want "
				       << dpsctp_l3_drop_name(d);
		EXPECT_EQ(drops(d), before + 1);
		EXPECT_EQ(total_drops(), all + 1);
	}

	dpsctp_l3_tx tx(const Bytes &src, const Bytes &dst, uintptr_t handle, uint16_t udp_port = 0,
			const Bytes *payload = nullptr)
	{
		dpsctp_l3_tx t{};
		t.src = ip_of(src);
		t.dst = ip_of(dst);
		t.udp_dst_port = udp_port;
		t.sctp = payload ? payload->data() : nullptr;
		t.sctp_len = payload ? static_cast<uint32_t>(payload->size()) : 100;
		t.handle = handle;
		return t;
	}

	// Output; a written probe and a READY frame (headers + payload) are saved for tshark.
	dpsctp_l3_tx_verdict output(const dpsctp_l3_tx &t, uint64_t now, dpsctp_l3_out *out,
				    Bytes *hdr_out = nullptr, Bytes *probe_out = nullptr)
	{
		uint8_t hdr[DPSCTP_L3_HDR_MAX];
		uint8_t probe[DPSCTP_L3_PROBE_MAX];
		auto v = dpsctp_l3_output(&l3_, &t, now, hdr, sizeof(hdr), probe, sizeof(probe),
					  out);
		if (out->probe_len > 0) {
			written().emplace_back(probe, probe + out->probe_len);
			if (probe_out)
				*probe_out = written().back();
		}
		if (v == DPSCTP_L3_TX_READY) {
			Bytes f(hdr, hdr + out->hdr_len);
			if (hdr_out)
				*hdr_out = f;
			if (t.sctp) {
				f.insert(f.end(), t.sctp, t.sctp + t.sctp_len);
				written().push_back(f);
			}
		}
		return v;
	}

	// Resolve ip to mac with an ARP reply or a solicited NA.
	// Replies are only taken for neighbours being resolved: an unknown one
	// is first asked for by sending a packet (handle 0, released again).
	void resolve(const Bytes &ip, const Bytes &mac, uint64_t now = 1000)
	{
		auto key = ip_of(ip);
		if (dpsctp_l3_nbr_find(&l3_, &key) == nullptr) {
			dpsctp_l3_out out;
			ASSERT_EQ(output(tx(ip.size() == 4 ? kOur4 : kOur6, ip, 0), now, &out),
				  DPSCTP_L3_TX_PARKED);
		}
		if (ip.size() == 4)
			ASSERT_EQ(input(eth(kOurMac, mac, 0x0806, arp(2, mac, ip, kOurMac, kOur4)),
					now),
				  DPSCTP_L3_IN_CONSUMED);
		else
			ASSERT_EQ(input(na_frame(ip, 0x60, mac), now), DPSCTP_L3_IN_CONSUMED);
	}
};

TEST_F(L3, InitRejectsBadConfig)
{
	dpsctp_l3_config c = cfg_;
	c.addr[0].family = 5;
	EXPECT_EQ(dpsctp_l3_init(&l3_, &c, nullptr, nullptr), -EINVAL);
	c = cfg_;
	c.prefix[2] = 129;
	EXPECT_EQ(dpsctp_l3_init(&l3_, &c, nullptr, nullptr), -EINVAL);
	c = cfg_;
	c.addr_count = DPSCTP_L3_ADDR_MAX; // no room for the link-local address
	for (unsigned i = 3; i < DPSCTP_L3_ADDR_MAX; i++) {
		c.addr[i] = ip_of(kOur6);
		c.addr[i].bytes[15] = static_cast<uint8_t>(i);
		c.prefix[i] = 64;
	}
	EXPECT_EQ(dpsctp_l3_init(&l3_, &c, nullptr, nullptr), -EINVAL);
	c.ipv6_link_local = false;
	EXPECT_EQ(dpsctp_l3_init(&l3_, &c, nullptr, nullptr), 0);
	// Defaults and the derived link-local address.
	ASSERT_EQ(dpsctp_l3_init(&l3_, &cfg_, nullptr, nullptr), 0);
	EXPECT_EQ(l3_.cfg.addr_count, 4u);
	EXPECT_EQ(Bytes(l3_.cfg.addr[3].bytes, l3_.cfg.addr[3].bytes + 16), kOurLL);
	EXPECT_EQ(l3_.cfg.udp_port, 9899);
	EXPECT_EQ(l3_.cfg.ttl, 64);
}

TEST_F(L3, NamesAndCounters)
{
	std::set<std::string> names;
	for (unsigned i = 0; i < dpsctp_l3_counter_count(); i++) {
		std::string n = dpsctp_l3_counter_name(i);
		EXPECT_FALSE(n.empty());
		EXPECT_TRUE(names.insert(n).second) << "duplicate counter " << n;
		EXPECT_EQ(dpsctp_l3_counter_value(&l3_.ctr, i), 0u);
	}
	for (unsigned d = 1; d < DPSCTP_L3_DROP_COUNT; d++)
		EXPECT_STRNE(dpsctp_l3_drop_describe(static_cast<dpsctp_l3_drop>(d)), "");
	EXPECT_STREQ(dpsctp_l3_drop_name(DPSCTP_L3_DROP_COUNT), "unknown");
	EXPECT_STREQ(dpsctp_l3_drop_name(DPSCTP_L3_DROP_IPV4_CHECKSUM), "ipv4_checksum");
}

TEST_F(L3, ArpRequestForUsIsAnsweredAndTeaches)
{
	Bytes req = eth(kBcast, kPeerMac, 0x0806, arp(1, kPeerMac, kPeer4, Bytes(6, 0), kOur4b));
	ASSERT_EQ(input(req), DPSCTP_L3_IN_REPLY);
	Bytes want = eth(kPeerMac, kOurMac, 0x0806, arp(2, kOurMac, kOur4b, kPeerMac, kPeer4));
	want.resize(60, 0);
	EXPECT_EQ(reply(), want);
	EXPECT_EQ(l3_.ctr.arp_replies_sent, 1u);
	auto ip = ip_of(kPeer4);
	const dpsctp_l3_nbr *n = dpsctp_l3_nbr_find(&l3_, &ip);
	ASSERT_NE(n, nullptr);
	EXPECT_EQ(n->state, DPSCTP_L3_NBR_STALE);
	EXPECT_EQ(Bytes(n->mac, n->mac + 6), kPeerMac);

	// Tagged: the reply keeps the VLAN tag.
	Bytes tagged = eth(kBcast, kPeerMac, 0x0806, arp(1, kPeerMac, kPeer4, Bytes(6, 0), kOur4),
			   { 0x0064 });
	ASSERT_EQ(input(tagged), DPSCTP_L3_IN_REPLY);
	Bytes want2 = eth(kPeerMac, kOurMac, 0x0806, arp(2, kOurMac, kOur4, kPeerMac, kPeer4),
			  { 0x0064 });
	want2.resize(64, 0);
	EXPECT_EQ(reply(), want2);
}

TEST_F(L3, ArpRefusals)
{
	Bytes other = { 10, 0, 0, 9 };
	expect_drop(eth(kBcast, kPeerMac, 0x0806, arp(1, kPeerMac, kPeer4, Bytes(6, 0), other)),
		    DPSCTP_L3_DROP_ARP_NOT_FOR_US);
	auto ip = ip_of(kPeer4);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &ip), nullptr) << "learnt from a request not for us";
	expect_drop(eth(kOurMac, kPeerMac, 0x0806, arp(2, kPeerMac, kPeer4, kOurMac, kOur4)),
		    DPSCTP_L3_DROP_ARP_UNSOLICITED);
	expect_drop(eth(kBcast, kPeerMac, 0x0806, arp(3, kPeerMac, kPeer4, Bytes(6, 0), kOur4)),
		    DPSCTP_L3_DROP_ARP_OPCODE);
	Bytes bad = arp(1, kPeerMac, kPeer4, Bytes(6, 0), kOur4);
	bad[4] = 8;
	expect_drop(eth(kBcast, kPeerMac, 0x0806, bad), DPSCTP_L3_DROP_ARP_FORMAT);
	expect_drop(eth(kBcast, kPeerMac, 0x0806, arp(1, kBcast, kPeer4, Bytes(6, 0), kOur4)),
		    DPSCTP_L3_DROP_ARP_BAD_SENDER);
	expect_drop(eth(kBcast, kPeerMac, 0x0806, arp(1, kPeerMac, kOur4, Bytes(6, 0), kOur4)),
		    DPSCTP_L3_DROP_ARP_BAD_SENDER);
	Bytes shortarp =
		eth(kBcast, kPeerMac, 0x0806, arp(1, kPeerMac, kPeer4, Bytes(6, 0), kOur4));
	shortarp.resize(14 + 27);
	expect_drop(shortarp, DPSCTP_L3_DROP_ARP_TRUNCATED);
	expect_drop(eth(kOurMac, kPeerMac, 0x88CC, Bytes(46, 0)), DPSCTP_L3_DROP_ETHERTYPE);
	Bytes stranger = { 0x02, 9, 9, 9, 9, 9 };
	expect_drop(eth(stranger, kPeerMac, 0x0806, arp(1, kPeerMac, kPeer4, Bytes(6, 0), kOur4)),
		    DPSCTP_L3_DROP_L2_NOT_OURS);
	// An RFC 5227 probe for our address is answered and teaches nothing.
	Bytes zero4(4, 0);
	ASSERT_EQ(input(eth(kBcast, kPeerMac, 0x0806, arp(1, kPeerMac, zero4, Bytes(6, 0), kOur4))),
		  DPSCTP_L3_IN_REPLY);
	EXPECT_EQ(l3_.nbr_count, 0u);
}

TEST_F(L3, ArpResolvesParkedPackets)
{
	dpsctp_l3_out out;
	Bytes probe;
	ASSERT_EQ(output(tx(kOur4, kPeer4, 11), 1000, &out, nullptr, &probe), DPSCTP_L3_TX_PARKED);
	Bytes want = eth(kBcast, kOurMac, 0x0806, arp(1, kOurMac, kOur4, Bytes(6, 0), kPeer4));
	want.resize(60, 0);
	EXPECT_EQ(probe, want);
	// Within the retransmission interval: parked, no second probe.
	ASSERT_EQ(output(tx(kOur4, kPeer4, 12), 2000, &out), DPSCTP_L3_TX_PARKED);
	EXPECT_EQ(out.probe_len, 0u);
	EXPECT_EQ(l3_.ctr.tx_parked, 2u);

	ASSERT_EQ(input(eth(kOurMac, kPeerMac, 0x0806, arp(2, kPeerMac, kPeer4, kOurMac, kOur4))),
		  DPSCTP_L3_IN_CONSUMED);
	ASSERT_EQ(in_.released_count, 2u);
	EXPECT_EQ(in_.released[0].handle, 11u);
	EXPECT_EQ(in_.released[1].handle, 12u);
	Bytes hdr;
	ASSERT_EQ(output(in_.released[0], 3000, &out, &hdr), DPSCTP_L3_TX_READY);
	EXPECT_EQ(Bytes(hdr.begin(), hdr.begin() + 6), kPeerMac);
	auto ip = ip_of(kPeer4);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &ip)->state, DPSCTP_L3_NBR_REACHABLE);
	EXPECT_EQ(l3_.ctr.parked_released, 2u);
	EXPECT_TRUE(rel_.handles.empty());
}

TEST_F(L3, NeighborSolicitationIsAnswered)
{
	ASSERT_EQ(input(ns_frame(kPeer6, kOur6)), DPSCTP_L3_IN_REPLY);
	Bytes na = icmp6(kOur6, kPeer6, 136, 0, nd_body(0x60, kOur6, 2, kOurMac));
	Bytes want = eth(kPeerMac, kOurMac, 0x86DD, ipv6(kOur6, kPeer6, 58, na, 255));
	EXPECT_EQ(reply(), want);
	auto ip = ip_of(kPeer6);
	const dpsctp_l3_nbr *n = dpsctp_l3_nbr_find(&l3_, &ip);
	ASSERT_NE(n, nullptr);
	EXPECT_EQ(n->state, DPSCTP_L3_NBR_STALE);

	// Our link-local address, solicited from a link-local source.
	Bytes peer_ll = kOurLL;
	peer_ll[15] = 0x02;
	ASSERT_EQ(input(ns_frame(peer_ll, kOurLL)), DPSCTP_L3_IN_REPLY);
	EXPECT_EQ(Bytes(reply_ + 14 + 8, reply_ + 14 + 24), kOurLL);

	// Duplicate address detection: defended to all-nodes, S clear.
	ASSERT_EQ(input(ns_frame(kUnspec6, kOur6, false)), DPSCTP_L3_IN_REPLY);
	Bytes all_nodes = { 0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	Bytes na2 = icmp6(kOur6, all_nodes, 136, 0, nd_body(0x20, kOur6, 2, kOurMac));
	EXPECT_EQ(reply(),
		  eth(mcast_mac(all_nodes), kOurMac, 0x86DD, ipv6(kOur6, all_nodes, 58, na2, 255)));
	EXPECT_EQ(l3_.ctr.na_sent, 3u);
}

TEST_F(L3, NeighborDiscoveryRefusals)
{
	expect_drop(ns_frame(kPeer6, kOur6, true, 64), DPSCTP_L3_DROP_ND_HOP_LIMIT);
	expect_drop(ns_frame(kPeer6, kPeer6), DPSCTP_L3_DROP_NS_NOT_FOR_US);
	expect_drop(ns_frame(kUnspec6, kOur6, true), DPSCTP_L3_DROP_ND_INVALID);
	// Option of length zero.
	Bytes dst = solicited(kOur6);
	Bytes body = nd_body(0, kOur6, 1, kPeerMac);
	body[21] = 0;
	expect_drop(eth(mcast_mac(dst), kPeerMac, 0x86DD,
			ipv6(kPeer6, dst, 58, icmp6(kPeer6, dst, 135, 0, body), 255)),
		    DPSCTP_L3_DROP_ND_OPTION);
	// Multicast target.
	expect_drop(eth(mcast_mac(dst), kPeerMac, 0x86DD,
			ipv6(kPeer6, dst, 58,
			     icmp6(kPeer6, dst, 135, 0, nd_body(0, dst, 1, kPeerMac)), 255)),
		    DPSCTP_L3_DROP_ND_INVALID);
	// NA for nobody we know, and an NA without the address an incomplete entry needs.
	expect_drop(na_frame(kPeer6, 0x60, kPeerMac), DPSCTP_L3_DROP_NA_UNSOLICITED);
	dpsctp_l3_out out;
	ASSERT_EQ(output(tx(kOur6, kPeer6, 1), 1000, &out), DPSCTP_L3_TX_PARKED);
	expect_drop(na_frame(kPeer6, 0x60, {}), DPSCTP_L3_DROP_NA_UNSOLICITED);
	// Solicited NA to a multicast destination.
	Bytes all_nodes = { 0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	expect_drop(na_frame(kPeer6, 0x60, kPeerMac, all_nodes), DPSCTP_L3_DROP_ND_INVALID);
	// Bad ICMPv6 checksum.
	Bytes f = ns_frame(kPeer6, kOur6);
	f[14 + 40 + 2] ^= 0x01;
	expect_drop(f, DPSCTP_L3_DROP_ICMP_CHECKSUM);
	dpsctp_l3_flush(&l3_);
	EXPECT_EQ(rel_.handles, std::vector<uintptr_t>{ 1 });
}

TEST_F(L3, NeighborAdvertisementResolvesAndOverrides)
{
	dpsctp_l3_out out;
	Bytes probe;
	ASSERT_EQ(output(tx(kOur6, kFar6, 21), 1000, &out, nullptr, &probe), DPSCTP_L3_TX_PARKED);
	// Off-link: the gateway is solicited, at its solicited-node group.
	Bytes sn = solicited(kGw6);
	Bytes ns = icmp6(kOur6, sn, 135, 0, nd_body(0, kGw6, 1, kOurMac));
	EXPECT_EQ(probe, eth(mcast_mac(sn), kOurMac, 0x86DD, ipv6(kOur6, sn, 58, ns, 255)));
	resolve(kGw6, kGwMac);
	ASSERT_EQ(in_.released_count, 1u);
	Bytes hdr;
	ASSERT_EQ(output(in_.released[0], 2000, &out, &hdr), DPSCTP_L3_TX_READY);
	EXPECT_EQ(Bytes(hdr.begin(), hdr.begin() + 6), kGwMac);

	auto gw = ip_of(kGw6);
	Bytes other = { 0x02, 0, 0, 0, 0, 0x77 };
	// O clear with another address: the entry is doubted, not changed.
	ASSERT_EQ(input(na_frame(kGw6, 0x40, other)), DPSCTP_L3_IN_CONSUMED);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &gw)->state, DPSCTP_L3_NBR_STALE);
	EXPECT_EQ(Bytes(dpsctp_l3_nbr_find(&l3_, &gw)->mac, dpsctp_l3_nbr_find(&l3_, &gw)->mac + 6),
		  kGwMac);
	// O set: overridden, and reachable again since S is set.
	ASSERT_EQ(input(na_frame(kGw6, 0x60, other)), DPSCTP_L3_IN_CONSUMED);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &gw)->state, DPSCTP_L3_NBR_REACHABLE);
	EXPECT_EQ(Bytes(dpsctp_l3_nbr_find(&l3_, &gw)->mac, dpsctp_l3_nbr_find(&l3_, &gw)->mac + 6),
		  other);
}

TEST_F(L3, EchoRequestsAreAnswered)
{
	Bytes body = { 0x12, 0x34, 0x00, 0x07 };
	for (int i = 0; i < 37; i++)
		body.push_back(static_cast<uint8_t>(i * 7));
	Bytes req = eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kOur4b, 1, icmp4(8, 0, body)));
	ASSERT_EQ(input(req), DPSCTP_L3_IN_REPLY);
	Bytes r = reply();
	ASSERT_EQ(r.size(), 14u + 20 + 4 + body.size());
	EXPECT_EQ(Bytes(r.begin(), r.begin() + 12), Bytes({ 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 }));
	EXPECT_EQ(inet_csum({ Bytes(r.begin() + 14, r.begin() + 34) }), 0)
		<< "IPv4 header checksum";
	EXPECT_EQ(Bytes(r.begin() + 26, r.begin() + 30), kOur4b);
	EXPECT_EQ(Bytes(r.begin() + 30, r.begin() + 34), kPeer4);
	Bytes m(r.begin() + 34, r.end());
	EXPECT_EQ(m[0], 0);
	EXPECT_EQ(inet_csum({ m }), 0) << "ICMP checksum";
	EXPECT_EQ(Bytes(m.begin() + 4, m.end()), body);

	Bytes req6 = eth(kOurMac, kPeerMac, 0x86DD,
			 ipv6(kPeer6, kOur6, 58, icmp6(kPeer6, kOur6, 128, 0, body)));
	ASSERT_EQ(input(req6), DPSCTP_L3_IN_REPLY);
	Bytes r6 = reply();
	ASSERT_EQ(r6.size(), 14u + 40 + 4 + body.size());
	Bytes m6(r6.begin() + 54, r6.end());
	EXPECT_EQ(m6[0], 129);
	EXPECT_EQ(inet_csum({ pseudo6(kOur6, kPeer6, 58, m6.size()), m6 }), 0);
	EXPECT_EQ(Bytes(m6.begin() + 4, m6.end()), body);
	EXPECT_EQ(l3_.ctr.echo_replies_sent, 2u);

	// Bad checksums, no room, multicast, not ours.
	Bytes bad = req;
	bad[14 + 20 + 5] ^= 0x40;
	expect_drop(bad, DPSCTP_L3_DROP_ICMP_CHECKSUM);
	bad = req;
	bad[14 + 8] = 63; // TTL changed, header checksum not
	expect_drop(bad, DPSCTP_L3_DROP_IPV4_CHECKSUM);
	uint8_t small[40];
	EXPECT_EQ(dpsctp_l3_input(&l3_, req.data(), req.size(), 0, small, sizeof(small), &in_),
		  DPSCTP_L3_IN_DROP);
	EXPECT_EQ(in_.drop, DPSCTP_L3_DROP_REPLY_NO_ROOM);
	Bytes all_nodes = { 0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	expect_drop(eth(mcast_mac(all_nodes), kPeerMac, 0x86DD,
			ipv6(kPeer6, all_nodes, 58, icmp6(kPeer6, all_nodes, 128, 0, body))),
		    DPSCTP_L3_DROP_ECHO_MULTICAST);
	expect_drop(eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kFar4, 1, icmp4(8, 0, body))),
		    DPSCTP_L3_DROP_IP_NOT_OURS);
	expect_drop(eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kOur4, 1, icmp4(13, 0, body))),
		    DPSCTP_L3_DROP_ICMP_TYPE);
	expect_drop(eth(kOurMac, kPeerMac, 0x0800,
			ipv4(kPeer4, kOur4, 1, icmp4(8, 0, body), 64, 0x2000)),
		    DPSCTP_L3_DROP_IP_FRAGMENT);
	Bytes mc4 = { 224, 0, 0, 1 };
	expect_drop(eth(kOurMac, kPeerMac, 0x0800, ipv4(mc4, kOur4, 1, icmp4(8, 0, body))),
		    DPSCTP_L3_DROP_IP_BAD_SOURCE);
}

TEST_F(L3, SctpOverIpAndUdp)
{
	Bytes s = sctp(5000, 80, 0xA1B2C3D4);
	Bytes f = eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kOur4, 132, s));
	f.resize(60, 0); // Ethernet padding is not SCTP
	ASSERT_EQ(input(f), DPSCTP_L3_IN_SCTP);
	EXPECT_EQ(in_.sctp.offset, 34u);
	EXPECT_EQ(in_.sctp.len, 16u);
	EXPECT_EQ(in_.sctp.src_port, 5000);
	EXPECT_EQ(in_.sctp.dst_port, 80);
	EXPECT_FALSE(in_.sctp.udp_encap);
	EXPECT_EQ(Bytes(in_.sctp.src.bytes, in_.sctp.src.bytes + 4), kPeer4);
	EXPECT_EQ(Bytes(in_.sctp.dst.bytes, in_.sctp.dst.bytes + 4), kOur4);

	Bytes u = eth(kOurMac, kPeerMac, 0x0800,
		      ipv4(kPeer4, kOur4, 17, udp(kPeer4, kOur4, 40000, 9899, s)));
	ASSERT_EQ(input(u), DPSCTP_L3_IN_SCTP);
	EXPECT_TRUE(in_.sctp.udp_encap);
	EXPECT_EQ(in_.sctp.udp_src_port, 40000);
	EXPECT_EQ(in_.sctp.offset, 42u);
	EXPECT_EQ(in_.sctp.len, 16u);
	// Zero checksum over IPv4 is accepted.
	ASSERT_EQ(input(eth(kOurMac, kPeerMac, 0x0800,
			    ipv4(kPeer4, kOur4, 17, udp(kPeer4, kOur4, 40000, 9899, s, false)))),
		  DPSCTP_L3_IN_SCTP);
	Bytes u6 = eth(kOurMac, kPeerMac, 0x86DD,
		       ipv6(kPeer6, kOur6, 17, udp(kPeer6, kOur6, 9899, 9899, s)));
	ASSERT_EQ(input(u6), DPSCTP_L3_IN_SCTP);
	EXPECT_EQ(in_.sctp.offset, 62u);
	EXPECT_EQ(l3_.ctr.sctp_udp_in, 3u);
	EXPECT_EQ(l3_.ctr.sctp_in, 4u);

	expect_drop(eth(kOurMac, kPeerMac, 0x86DD,
			ipv6(kPeer6, kOur6, 17, udp(kPeer6, kOur6, 9899, 9899, s, false))),
		    DPSCTP_L3_DROP_UDP6_ZERO_CHECKSUM);
	Bytes bad = u;
	bad.back() ^= 1;
	expect_drop(bad, DPSCTP_L3_DROP_UDP_CHECKSUM);
	expect_drop(eth(kOurMac, kPeerMac, 0x0800,
			ipv4(kPeer4, kOur4, 17, udp(kPeer4, kOur4, 9899, 40000, s))),
		    DPSCTP_L3_DROP_UDP_PORT);
	expect_drop(eth(kOurMac, kPeerMac, 0x0800,
			ipv4(kPeer4, kOur4, 17, udp(kPeer4, kOur4, 1, 53, s))),
		    DPSCTP_L3_DROP_UDP_PORT);
	expect_drop(eth(kOurMac, kPeerMac, 0x0800,
			ipv4(kPeer4, kOur4, 132, Bytes(s.begin(), s.begin() + 8))),
		    DPSCTP_L3_DROP_SCTP_TRUNCATED);
	expect_drop(eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kFar4, 132, s)),
		    DPSCTP_L3_DROP_IP_NOT_OURS);
	expect_drop(eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kOur4, 6, s)),
		    DPSCTP_L3_DROP_IP_PROTO);
	Bytes bc = { 255, 255, 255, 255 };
	expect_drop(eth(kOurMac, kPeerMac, 0x0800, ipv4(bc, kOur4, 132, s)),
		    DPSCTP_L3_DROP_IP_BAD_SOURCE);
	// A first fragment (MF) of SCTP is kept for reassembly (L3Frag tests).
	EXPECT_EQ(input(eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kOur4, 132, s, 64, 0x2000))),
		  DPSCTP_L3_IN_CONSUMED);
	EXPECT_EQ(l3_.ctr.frags_held, 1u);
}

TEST_F(L3, UdpOnAnotherPort)
{
	cfg_.udp_port = 7777;
	ASSERT_EQ(dpsctp_l3_init(&l3_, &cfg_, Released::cb, &rel_), 0);
	Bytes s = sctp();
	ASSERT_EQ(input(eth(kOurMac, kPeerMac, 0x0800,
			    ipv4(kPeer4, kOur4, 17, udp(kPeer4, kOur4, 1234, 7777, s)))),
		  DPSCTP_L3_IN_SCTP);
	EXPECT_EQ(in_.sctp.udp_src_port, 1234);
	expect_drop(eth(kOurMac, kPeerMac, 0x0800,
			ipv4(kPeer4, kOur4, 17, udp(kPeer4, kOur4, 1234, 9899, s))),
		    DPSCTP_L3_DROP_UDP_PORT);
}

// An ICMP error about a packet we sent from local to peer.
TEST_F(L3, IcmpErrorsReachTheCore)
{
	Bytes s = sctp(80, 5000, 0xCAFEF00D);
	Bytes quoted = ipv4(kOur4, kFar4, 132, s);
	Bytes frag_needed = { 0, 0, 0x05, 0xDC }; // unused, next-hop MTU 1500
	append(frag_needed, quoted);
	Bytes f = eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, icmp4(3, 4, frag_needed)));
	ASSERT_EQ(input(f), DPSCTP_L3_IN_ICMP_ERROR);
	const auto &e = in_.icmp;
	EXPECT_EQ(e.kind, DPSCTP_L3_ICMP_FRAG_NEEDED);
	EXPECT_EQ(e.mtu, 1500u);
	EXPECT_EQ(e.local_port, 80);
	EXPECT_EQ(e.peer_port, 5000);
	EXPECT_EQ(e.vtag, 0xCAFEF00Du);
	EXPECT_FALSE(e.udp_encap);
	EXPECT_EQ(Bytes(e.local.bytes, e.local.bytes + 4), kOur4);
	EXPECT_EQ(Bytes(e.peer.bytes, e.peer.bytes + 4), kFar4);
	EXPECT_EQ(Bytes(e.reporter.bytes, e.reporter.bytes + 4), kGw4);
	EXPECT_EQ(e.quote_len, 16u);
	EXPECT_EQ(Bytes(f.begin() + e.quote_offset, f.begin() + e.quote_offset + 16), s);

	// Port unreachable about UDP-encapsulated SCTP, quoting only 8 bytes of SCTP.
	Bytes uq = ipv4(kOur4, kFar4, 17, udp(kOur4, kFar4, 9899, 9899, s));
	uq.resize(20 + 8 + 8);
	Bytes body = { 0, 0, 0, 0 };
	append(body, uq);
	ASSERT_EQ(input(eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, icmp4(3, 3, body)))),
		  DPSCTP_L3_IN_ICMP_ERROR);
	EXPECT_EQ(in_.icmp.kind, DPSCTP_L3_ICMP_PORT_UNREACH);
	EXPECT_TRUE(in_.icmp.udp_encap);
	EXPECT_EQ(in_.icmp.udp_peer_port, 9899);
	EXPECT_EQ(in_.icmp.vtag, 0xCAFEF00Du);
	// ... and quoting only the UDP header: too short to name the association.
	uq.resize(20 + 8);
	body = { 0, 0, 0, 0 };
	append(body, uq);
	expect_drop(eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, icmp4(3, 3, body))),
		    DPSCTP_L3_DROP_ICMP_QUOTE_SHORT);

	// Protocol unreachable and host unreachable.
	body = { 0, 0, 0, 0 };
	append(body, quoted);
	ASSERT_EQ(input(eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, icmp4(3, 2, body)))),
		  DPSCTP_L3_IN_ICMP_ERROR);
	EXPECT_EQ(in_.icmp.kind, DPSCTP_L3_ICMP_PROTO_UNREACH);
	ASSERT_EQ(input(eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, icmp4(3, 1, body)))),
		  DPSCTP_L3_IN_ICMP_ERROR);
	EXPECT_EQ(in_.icmp.kind, DPSCTP_L3_ICMP_UNREACH);
	EXPECT_EQ(in_.icmp.code, 1);

	// ICMPv6 Packet Too Big, Destination Unreachable (port), Parameter Problem (next header).
	Bytes q6 = ipv6(kOur6, kFar6, 132, s);
	Bytes ptb = { 0, 0, 0x05, 0x00 };
	append(ptb, q6);
	ASSERT_EQ(input(eth(kOurMac, kGwMac, 0x86DD,
			    ipv6(kGw6, kOur6, 58, icmp6(kGw6, kOur6, 2, 0, ptb)))),
		  DPSCTP_L3_IN_ICMP_ERROR);
	EXPECT_EQ(in_.icmp.kind, DPSCTP_L3_ICMP_FRAG_NEEDED);
	EXPECT_EQ(in_.icmp.mtu, 1280u);
	EXPECT_EQ(in_.icmp.vtag, 0xCAFEF00Du);
	EXPECT_EQ(Bytes(in_.icmp.peer.bytes, in_.icmp.peer.bytes + 16), kFar6);
	Bytes un6 = { 0, 0, 0, 0 };
	append(un6, ipv6(kOur6, kFar6, 17, udp(kOur6, kFar6, 9899, 9899, s)));
	ASSERT_EQ(input(eth(kOurMac, kGwMac, 0x86DD,
			    ipv6(kGw6, kOur6, 58, icmp6(kGw6, kOur6, 1, 4, un6)))),
		  DPSCTP_L3_IN_ICMP_ERROR);
	EXPECT_EQ(in_.icmp.kind, DPSCTP_L3_ICMP_PORT_UNREACH);
	EXPECT_TRUE(in_.icmp.udp_encap);
	Bytes pp = { 0, 0, 0, 6 };
	append(pp, q6);
	ASSERT_EQ(input(eth(kOurMac, kGwMac, 0x86DD,
			    ipv6(kGw6, kOur6, 58, icmp6(kGw6, kOur6, 4, 1, pp)))),
		  DPSCTP_L3_IN_ICMP_ERROR);
	EXPECT_EQ(in_.icmp.kind, DPSCTP_L3_ICMP_PROTO_UNREACH);
	EXPECT_EQ(l3_.ctr.icmp_errors_in, 7u);

	// Not ours, not SCTP, a fragment, bad checksum.
	body = { 0, 0, 0, 0 };
	append(body, ipv4(kPeer4, kFar4, 132, s));
	expect_drop(eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, icmp4(3, 4, body))),
		    DPSCTP_L3_DROP_ICMP_QUOTE_NOT_OURS);
	body = { 0, 0, 0, 0 };
	append(body, ipv4(kOur4, kFar4, 6, s));
	expect_drop(eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, icmp4(3, 4, body))),
		    DPSCTP_L3_DROP_ICMP_QUOTE_NOT_SCTP);
	body = { 0, 0, 0, 0 };
	append(body, ipv4(kOur4, kFar4, 132, s, 64, 0x0010));
	expect_drop(eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, icmp4(3, 4, body))),
		    DPSCTP_L3_DROP_ICMP_QUOTE_FRAGMENT);
	body = { 0, 0, 0, 0 };
	append(body, Bytes(quoted.begin(), quoted.begin() + 12));
	expect_drop(eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, icmp4(3, 4, body))),
		    DPSCTP_L3_DROP_ICMP_QUOTE_SHORT);
	Bytes badsum = f;
	badsum[14 + 20 + 7] ^= 1;
	expect_drop(badsum, DPSCTP_L3_DROP_ICMP_CHECKSUM);
	expect_drop(eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, { 3, 4, 0 })),
		    DPSCTP_L3_DROP_ICMP_TRUNCATED);
	expect_drop(eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, icmp4(11, 0, body))),
		    DPSCTP_L3_DROP_ICMP_TYPE);
}

// Every prefix of every valid frame is dropped under a name, never read past.
TEST_F(L3, TruncatedFramesAreCountedDrops)
{
	Bytes s = sctp();
	Bytes echo = { 0, 1, 0, 1, 'p', 'i', 'n', 'g' };
	Bytes quoted = { 0, 0, 0x05, 0xDC };
	append(quoted, ipv4(kOur4, kFar4, 132, s));
	const std::vector<Bytes> frames = {
		eth(kBcast, kPeerMac, 0x0806, arp(1, kPeerMac, kPeer4, Bytes(6, 0), kOur4)),
		eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kOur4, 132, s)),
		eth(kOurMac, kPeerMac, 0x0800,
		    ipv4(kPeer4, kOur4, 17, udp(kPeer4, kOur4, 1, 9899, s))),
		eth(kOurMac, kPeerMac, 0x86DD, ipv6(kPeer6, kOur6, 132, s)),
		eth(kOurMac, kPeerMac, 0x86DD,
		    ipv6(kPeer6, kOur6, 17, udp(kPeer6, kOur6, 1, 9899, s))),
		eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kOur4, 1, icmp4(8, 0, echo))),
		eth(kOurMac, kPeerMac, 0x86DD,
		    ipv6(kPeer6, kOur6, 58, icmp6(kPeer6, kOur6, 128, 0, echo))),
		eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, icmp4(3, 4, quoted))),
		ns_frame(kPeer6, kOur6),
		eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kOur4, 132, s), { 5, 6 }),
	};
	for (size_t fi = 0; fi < frames.size(); fi++) {
		const Bytes &full = frames[fi];
		ASSERT_NE(input(full), DPSCTP_L3_IN_DROP)
			<< "frame " << fi << ": " << dpsctp_l3_drop_name(in_.drop);
		for (size_t n = 0; n < full.size(); n++) {
			// A copy of exactly n bytes, so a sanitizer sees any overread.
			std::vector<uint8_t> cut(full.begin(), full.begin() + n);
			uint64_t before = total_drops();
			auto v = dpsctp_l3_input(&l3_, cut.data(), cut.size(), 1000, reply_,
						 sizeof(reply_), &in_);
			EXPECT_EQ(v, DPSCTP_L3_IN_DROP) << "frame " << fi << " cut at " << n;
			EXPECT_EQ(total_drops(), before + 1);
			EXPECT_NE(in_.drop, DPSCTP_L3_DROP_NONE);
		}
	}
	// Lengths that lie.
	Bytes f = eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kOur4, 1, icmp4(8, 0, echo)));
	Bytes g = f;
	g[14 + 3] += 20; // total length past the frame (checksum fixed below)
	g[14 + 10] = g[14 + 11] = 0;
	uint16_t c = inet_csum({ Bytes(g.begin() + 14, g.begin() + 34) });
	g[24] = static_cast<uint8_t>(c >> 8);
	g[25] = static_cast<uint8_t>(c);
	expect_drop(g, DPSCTP_L3_DROP_IP_FRAME_SHORT);
	g = f;
	g[14] = 0x44;
	expect_drop(g, DPSCTP_L3_DROP_FRAME_IPV4_IHL);
	g = f;
	g[14] = 0x65;
	expect_drop(g, DPSCTP_L3_DROP_FRAME_IP_VERSION);
	Bytes u = eth(kOurMac, kPeerMac, 0x0800,
		      ipv4(kPeer4, kOur4, 17, udp(kPeer4, kOur4, 1, 9899, s, false)));
	u[14 + 20 + 5] = 4; // UDP length below 8
	expect_drop(u, DPSCTP_L3_DROP_FRAME_UDP_LEN);
	Bytes v6 = eth(kOurMac, kPeerMac, 0x86DD, ipv6(kPeer6, kOur6, 132, s));
	v6[14 + 5] += 8;
	expect_drop(v6, DPSCTP_L3_DROP_IP_FRAME_SHORT);
	Bytes deep = eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kOur4, 132, s), { 1, 2, 3 });
	expect_drop(deep, DPSCTP_L3_DROP_FRAME_VLAN_TOO_DEEP);
	// IPv6 with a hop-by-hop header before ICMPv6: not handled here.
	Bytes hbh = { 58, 0, 1, 4, 0, 0, 0, 0 };
	append(hbh, icmp6(kPeer6, kOur6, 128, 0, echo));
	expect_drop(eth(kOurMac, kPeerMac, 0x86DD, ipv6(kPeer6, kOur6, 0, hbh)),
		    DPSCTP_L3_DROP_IPV6_EXT_HEADERS);
}

TEST_F(L3, OutputHeaders)
{
	resolve(kPeer4, kPeerMac);
	resolve(kPeer6, kPeerMac);
	resolve(kGw4, kGwMac);
	// COOKIE ACK bundled with a 40-byte DATA chunk (TSN 1, stream 0, 24 bytes).
	Bytes s = sctp(80, 5000);
	append(s, { 0x00, 0x03, 0x00, 0x28, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0 });
	for (int i = 0; i < 24; i++)
		s.push_back(static_cast<uint8_t>(i));
	dpsctp_l3_out out;
	Bytes h;

	// SCTP over IPv4 from the second address: DF, TTL 64, checksum.
	auto t = tx(kOur4b, kPeer4, 1, 0, &s);
	t.tclass = 0x02; // ECT(0)
	ASSERT_EQ(output(t, 1000, &out, &h), DPSCTP_L3_TX_READY);
	ASSERT_EQ(out.hdr_len, 34u);
	EXPECT_EQ(out.l2_len, 14u);
	EXPECT_EQ(out.l3_len, 20u);
	EXPECT_EQ(Bytes(h.begin(), h.begin() + 14),
		  Bytes({ 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00 }));
	EXPECT_EQ(h[14], 0x45);
	EXPECT_EQ(h[15], 0x02);
	EXPECT_EQ(get16(&h[16]), 20 + s.size());
	EXPECT_EQ(get16(&h[20]), 0x4000);
	EXPECT_EQ(h[22], 64);
	EXPECT_EQ(h[23], 132);
	EXPECT_EQ(inet_csum({ Bytes(h.begin() + 14, h.begin() + 34) }), 0);
	EXPECT_EQ(Bytes(h.begin() + 26, h.begin() + 30), kOur4b);

	// Over UDP with the bytes: a full checksum.
	ASSERT_EQ(output(tx(kOur4, kPeer4, 2, 40000, &s), 1000, &out, &h), DPSCTP_L3_TX_READY);
	ASSERT_EQ(out.hdr_len, 42u);
	EXPECT_EQ(out.udp_csum, DPSCTP_L3_UDP_CSUM_FULL);
	Bytes ud(h.begin() + 34, h.end());
	append(ud, s);
	EXPECT_EQ(get16(&ud[0]), 9899);
	EXPECT_EQ(get16(&ud[2]), 40000);
	EXPECT_EQ(get16(&ud[4]), 8 + s.size());
	EXPECT_EQ(inet_csum({ pseudo4(kOur4, kPeer4, 17, ud.size()), ud }), 0);
	// Without the bytes: zero over IPv4, the pseudo-header sum over IPv6.
	ASSERT_EQ(output(tx(kOur4, kPeer4, 3, 40000), 1000, &out, &h), DPSCTP_L3_TX_READY);
	EXPECT_EQ(out.udp_csum, DPSCTP_L3_UDP_CSUM_ZERO);
	EXPECT_EQ(get16(&h[40]), 0);
	ASSERT_EQ(output(tx(kOur6, kPeer6, 4, 9899), 1000, &out, &h), DPSCTP_L3_TX_READY);
	EXPECT_EQ(out.udp_csum, DPSCTP_L3_UDP_CSUM_PSEUDO);
	ASSERT_EQ(out.hdr_len, 62u);
	uint16_t ps = static_cast<uint16_t>(~inet_csum({ pseudo6(kOur6, kPeer6, 17, 108) }));
	EXPECT_EQ(get16(&h[60]), ps);
	// IPv6 with the bytes.
	ASSERT_EQ(output(tx(kOur6, kPeer6, 5, 9899, &s), 1000, &out, &h), DPSCTP_L3_TX_READY);
	EXPECT_EQ(h[14] >> 4, 6);
	EXPECT_EQ(get16(&h[18]), 8 + s.size());
	EXPECT_EQ(h[20], 17);
	Bytes ud6(h.begin() + 54, h.end());
	append(ud6, s);
	EXPECT_EQ(inet_csum({ pseudo6(kOur6, kPeer6, 17, ud6.size()), ud6 }), 0);
	ASSERT_EQ(output(tx(kOur6, kPeer6, 6, 0, &s), 1000, &out, &h), DPSCTP_L3_TX_READY);
	EXPECT_EQ(out.hdr_len, 54u);
	EXPECT_EQ(h[20], 132);

	// Off-link through the gateway; no IPv6 route once the gateway is gone.
	ASSERT_EQ(output(tx(kOur4, kFar4, 7, 0, &s), 1000, &out, &h), DPSCTP_L3_TX_READY);
	EXPECT_EQ(Bytes(h.begin(), h.begin() + 6), kGwMac);
	EXPECT_EQ(Bytes(h.begin() + 30, h.begin() + 34), kFar4);
	cfg_.gw6 = {};
	ASSERT_EQ(dpsctp_l3_init(&l3_, &cfg_, Released::cb, &rel_), 0);
	EXPECT_EQ(output(tx(kOur6, kFar6, 8), 1000, &out), DPSCTP_L3_TX_DROP);
	EXPECT_EQ(out.drop, DPSCTP_L3_DROP_TX_NO_ROUTE);
	// Refused requests.
	EXPECT_EQ(output(tx(kPeer4, kOur4, 9), 1000, &out), DPSCTP_L3_TX_DROP);
	EXPECT_EQ(out.drop, DPSCTP_L3_DROP_TX_BAD_REQUEST);
	EXPECT_EQ(output(tx(kOur4, kPeer6, 9), 1000, &out), DPSCTP_L3_TX_DROP);
	EXPECT_EQ(out.drop, DPSCTP_L3_DROP_TX_BAD_REQUEST);
	auto big = tx(kOur4, kPeer4, 9);
	big.sctp_len = 65535 - 20 + 1;
	EXPECT_EQ(output(big, 1000, &out), DPSCTP_L3_TX_DROP);
	EXPECT_EQ(out.drop, DPSCTP_L3_DROP_TX_BAD_REQUEST);
	uint8_t tiny[20];
	auto small = tx(kOur4, kPeer4, 9);
	EXPECT_EQ(dpsctp_l3_output(&l3_, &small, 0, tiny, sizeof(tiny), nullptr, 0, &out),
		  DPSCTP_L3_TX_DROP);
	EXPECT_EQ(out.drop, DPSCTP_L3_DROP_TX_NO_ROOM);
}

// An SCTP packet of n bytes: common header, one DATA chunk, a counting payload.
Bytes
sctp_data(size_t n)
{
	Bytes s = sctp(80, 5000);
	size_t chunk = n - s.size();
	append(s, { 0x00, 0x03 });
	put16(s, static_cast<uint16_t>(chunk));
	append(s, { 0, 0, 0, 7, 0, 1, 0, 0, 0, 0, 0, 51 });
	for (size_t i = 16; i < chunk; i++)
		s.push_back(static_cast<uint8_t>(i * 7));
	return s;
}

// The fragments output and dpsctp_l3_fragment() write for t, parsed back by
// the test's own reading of RFC 791 / RFC 8200 §4.5: each frame's header
// fields checked, the IP payload put back together by offset.
struct Fragmented {
	dpsctp_l3_out out{};
	Bytes hdr;
	std::vector<Bytes> frames;
	Bytes payload; // reassembled IP payload
	std::vector<uint32_t> ids;
};

class L3Frag : public L3 {
      protected:
	void SetUp() override
	{
		L3::SetUp();
		resolve(kPeer4, kPeerMac);
		resolve(kPeer6, kPeerMac);
	}

	Fragmented fragment(const dpsctp_l3_tx &t)
	{
		Fragmented r;
		uint8_t hdr[DPSCTP_L3_HDR_MAX];
		EXPECT_EQ(dpsctp_l3_output(&l3_, &t, 2000, hdr, sizeof(hdr), nullptr, 0, &r.out),
			  DPSCTP_L3_TX_READY);
		r.hdr.assign(hdr, hdr + r.out.hdr_len);
		Bytes ip_payload(r.hdr.begin() + r.out.l2_len + r.out.l3_len, r.hdr.end());
		ip_payload.insert(ip_payload.end(), t.sctp, t.sctp + t.sctp_len);
		EXPECT_EQ(r.out.ip_payload, ip_payload.size());
		if (r.out.frag_size == 0)
			return r;
		std::vector<bool> have(ip_payload.size(), false);
		r.payload.assign(ip_payload.size(), 0);
		bool v4 = t.src.family == 4;
		for (uint32_t off = 0; off < r.out.ip_payload; off += r.out.frag_size) {
			uint32_t len = std::min(r.out.frag_size, r.out.ip_payload - off);
			uint8_t fh[DPSCTP_L3_FRAG_HDR_MAX];
			uint32_t flen =
				dpsctp_l3_fragment(&l3_, hdr, &r.out, off, len, fh, sizeof(fh));
			EXPECT_EQ(flen, v4 ? 34u : 62u);
			if (flen == 0)
				return r;
			Bytes f(fh, fh + flen);
			f.insert(f.end(), ip_payload.begin() + off, ip_payload.begin() + off + len);
			EXPECT_EQ(Bytes(f.begin(), f.begin() + 14), Bytes(hdr, hdr + 14));
			const uint8_t *ip = &f[14];
			uint32_t foff;
			bool more;
			const uint8_t *data;
			uint32_t dlen;
			if (v4) {
				EXPECT_EQ(inet_csum({ Bytes(ip, ip + 20) }), 0);
				EXPECT_EQ(get16(ip + 2), f.size() - 14);
				uint16_t fl = get16(ip + 6);
				EXPECT_EQ(fl & 0x4000, 0) << "DF set on a fragment";
				more = (fl & 0x2000) != 0;
				foff = (fl & 0x1FFFu) * 8u;
				r.ids.push_back(get16(ip + 4));
				EXPECT_EQ(ip[9], hdr[14 + 9]);
				data = ip + 20;
				dlen = get16(ip + 2) - 20u;
			} else {
				EXPECT_EQ(get16(ip + 4), f.size() - 54);
				EXPECT_EQ(ip[6], 44) << "next header: Fragment";
				const uint8_t *x = ip + 40;
				EXPECT_EQ(x[0], hdr[14 + 6]) << "Fragment header's next header";
				EXPECT_EQ(x[1], 0);
				uint16_t fl = get16(x + 2);
				EXPECT_EQ(fl & 6u, 0u) << "reserved bits";
				more = (fl & 1u) != 0;
				foff = fl & 0xFFF8u;
				r.ids.push_back(static_cast<uint32_t>(get16(x + 4)) << 16 |
						get16(x + 6));
				data = x + 8;
				dlen = get16(ip + 4) - 8u;
			}
			EXPECT_EQ(foff, off);
			EXPECT_EQ(dlen, len);
			EXPECT_EQ(more, off + len < r.out.ip_payload);
			EXPECT_LE(f.size() - 14,
				  t.frag_mtu < (v4 ? 68u : 1280u) ? (v4 ? 68u : 1280u) : t.frag_mtu)
				<< "fragment over frag_mtu";
			for (uint32_t i = 0; i < dlen && foff + i < have.size(); i++) {
				EXPECT_FALSE(have[foff + i]) << "overlap at " << foff + i;
				have[foff + i] = true;
				r.payload[foff + i] = data[i];
			}
			r.frames.push_back(f);
			written().push_back(f);
		}
		EXPECT_EQ(r.frames.size(), r.out.frag_count);
		EXPECT_TRUE(std::all_of(have.begin(), have.end(), [](bool b) { return b; }))
			<< "a hole in the fragments";
		EXPECT_EQ(r.payload, ip_payload);
		return r;
	}
};

TEST_F(L3Frag, DontFragmentUnlessAsked)
{
	Bytes s = sctp_data(1400);
	Bytes h;
	dpsctp_l3_out out;
	// frag_mtu 0: DF set, identification 0, never split (the caller's MTU check stands).
	auto t = tx(kOur4, kPeer4, 1, 0, &s);
	ASSERT_EQ(output(t, 2000, &out, &h), DPSCTP_L3_TX_READY);
	EXPECT_EQ(get16(&h[20]), 0x4000);
	EXPECT_EQ(get16(&h[18]), 0);
	EXPECT_EQ(out.frag_size, 0u);
	// frag_mtu set, packet fits: DF clear with an identification of its own,
	// a new one per packet; one frame.
	t.frag_mtu = 1500;
	ASSERT_EQ(output(t, 2000, &out, &h), DPSCTP_L3_TX_READY);
	EXPECT_EQ(get16(&h[20]), 0);
	uint16_t id1 = get16(&h[18]);
	EXPECT_EQ(out.frag_size, 0u);
	EXPECT_EQ(out.frag_id, id1);
	ASSERT_EQ(output(t, 2000, &out, &h), DPSCTP_L3_TX_READY);
	EXPECT_NE(get16(&h[18]), id1);
	EXPECT_EQ(inet_csum({ Bytes(h.begin() + 14, h.begin() + 34) }), 0);
	// IPv6 that fits: no Fragment header (RFC 8021: no atomic fragments).
	auto t6 = tx(kOur6, kPeer6, 2, 0, &s);
	t6.frag_mtu = 1500;
	ASSERT_EQ(output(t6, 2000, &out, &h), DPSCTP_L3_TX_READY);
	EXPECT_EQ(out.hdr_len, 54u);
	EXPECT_EQ(h[20], 132);
	EXPECT_EQ(out.frag_size, 0u);
	EXPECT_EQ(l3_.ctr.tx_fragmented, 0u);
	EXPECT_EQ(l3_.ctr.tx_fragments, 0u);
	// Nothing to fragment: dpsctp_l3_fragment() writes nothing.
	uint8_t fh[DPSCTP_L3_FRAG_HDR_MAX];
	EXPECT_EQ(dpsctp_l3_fragment(&l3_, h.data(), &out, 0, 8, fh, sizeof(fh)), 0u);
}

TEST_F(L3Frag, Ipv4FragmentsAtTheSource)
{
	// A 4000-byte packet to 1280: 1256-byte fragments (1260 rounded down to 8s).
	Bytes s = sctp_data(4000);
	auto t = tx(kOur4, kPeer4, 1, 0, &s);
	t.frag_mtu = 1280;
	t.tclass = 0x02;
	Fragmented r = fragment(t);
	ASSERT_EQ(r.out.frag_size, 1256u);
	ASSERT_EQ(r.out.frag_count, 4u);
	ASSERT_EQ(r.frames.size(), 4u);
	EXPECT_EQ(r.frames[3].size(), 14u + 20u + (4000u - 3u * 1256u));
	for (const Bytes &f : r.frames) {
		EXPECT_EQ(f[15], 0x02) << "TOS kept";
		EXPECT_EQ(f[22], 64) << "TTL kept";
	}
	for (uint32_t id : r.ids)
		EXPECT_EQ(id, r.out.frag_id);
	EXPECT_EQ(l3_.ctr.tx_fragmented, 1u);
	EXPECT_EQ(l3_.ctr.tx_fragments, 4u);
	// The next packet has another identification.
	Fragmented r2 = fragment(t);
	EXPECT_NE(r2.out.frag_id, r.out.frag_id);
	// Over UDP (RFC 6951): the UDP header travels in the first fragment, and
	// its checksum covers the whole datagram.
	auto tu = tx(kOur4, kPeer4, 2, 40000, &s);
	tu.frag_mtu = 1000;
	Fragmented ru = fragment(tu);
	ASSERT_EQ(ru.out.frag_size, 976u);
	ASSERT_EQ(ru.out.frag_count, 5u); // 4008 bytes
	EXPECT_EQ(get16(&ru.payload[0]), 9899);
	EXPECT_EQ(get16(&ru.payload[4]), 4008);
	EXPECT_EQ(inet_csum({ pseudo4(kOur4, kPeer4, 17, ru.payload.size()), ru.payload }), 0);
	// A frag_mtu under RFC 791's 68 counts as 68: 48-byte fragments.
	Bytes small = sctp_data(200);
	auto tm = tx(kOur4, kPeer4, 3, 0, &small);
	tm.frag_mtu = 20;
	Fragmented rm = fragment(tm);
	EXPECT_EQ(rm.out.frag_size, 48u);
	EXPECT_EQ(rm.out.frag_count, 5u);
}

TEST_F(L3Frag, Ipv6FragmentHeader)
{
	Bytes s = sctp_data(3000);
	auto t = tx(kOur6, kPeer6, 1, 0, &s);
	t.frag_mtu = 1280;
	Fragmented r = fragment(t);
	// 1280 - 40 - 8 = 1232, a multiple of 8.
	ASSERT_EQ(r.out.frag_size, 1232u);
	ASSERT_EQ(r.out.frag_count, 3u);
	EXPECT_EQ(r.frames[0].size(), 14u + 1280u);
	for (uint32_t id : r.ids)
		EXPECT_EQ(id, r.out.frag_id);
	// Below IPv6's minimum MTU the fragments stay at 1280 (RFC 8200 §5).
	t.frag_mtu = 600;
	Fragmented r2 = fragment(t);
	EXPECT_EQ(r2.out.frag_size, 1232u);
	EXPECT_NE(r2.out.frag_id, r.out.frag_id);
	// Over UDP, from an odd size: the last fragment is short.
	Bytes odd = sctp_data(2999);
	auto tu = tx(kOur6, kPeer6, 2, 9899, &odd);
	tu.frag_mtu = 1400;
	Fragmented ru = fragment(tu);
	EXPECT_EQ(ru.out.frag_size, 1352u);
	EXPECT_EQ(ru.out.frag_count, 3u);
	EXPECT_EQ(ru.frames.back()[14 + 40 + 1], 0);
	EXPECT_EQ(inet_csum({ pseudo6(kOur6, kPeer6, 17, ru.payload.size()), ru.payload }), 0);
	EXPECT_EQ(l3_.ctr.tx_fragmented, 3u);
	EXPECT_EQ(l3_.ctr.tx_fragments, 9u);
}

TEST_F(L3Frag, FragmentRefusesWhatIsNotAFragment)
{
	Bytes s = sctp_data(3000);
	auto t = tx(kOur4, kPeer4, 1, 0, &s);
	t.frag_mtu = 1280;
	dpsctp_l3_out out;
	Bytes h;
	ASSERT_EQ(output(t, 2000, &out, &h), DPSCTP_L3_TX_READY);
	ASSERT_EQ(out.frag_size, 1256u);
	uint8_t fh[DPSCTP_L3_FRAG_HDR_MAX];
	auto frag = [&](uint32_t off, uint32_t len, size_t cap = DPSCTP_L3_FRAG_HDR_MAX) {
		return dpsctp_l3_fragment(&l3_, h.data(), &out, off, len, fh, cap);
	};
	EXPECT_EQ(frag(4, 1256), 0u) << "offset not a multiple of 8";
	EXPECT_EQ(frag(0, 1264), 0u) << "longer than frag_size";
	EXPECT_EQ(frag(0, 1000), 0u) << "a short fragment that is not the last";
	EXPECT_EQ(frag(3000, 8), 0u) << "offset past the end";
	EXPECT_EQ(frag(2512, 496), 0u) << "past the end";
	EXPECT_EQ(frag(0, 0), 0u);
	EXPECT_EQ(frag(0, 1256, 33), 0u) << "header room";
	EXPECT_EQ(l3_.ctr.tx_fragments, 0u);
	EXPECT_EQ(frag(2512, 488), 34u) << "the last one";
	EXPECT_EQ(l3_.ctr.tx_fragments, 1u);
}

// A reference reassembler: tshark (Wireshark's IP defragmentation) reads the
// fragments and must find the whole SCTP packet in them, every one of its
// DATA chunk's bytes.
TEST_F(L3Frag, TsharkReassembles)
{
	const char *tshark = getenv("TSHARK");
	DPSCTP_PREREQ(tshark != nullptr && *tshark != '\0',
		      "tshark not found at configure time: reassembly not cross-checked");
	Bytes s4 = sctp_data(3000), s6 = sctp_data(2777);
	auto t4 = tx(kOur4, kPeer4, 1, 0, &s4);
	t4.frag_mtu = 1280;
	auto t6 = tx(kOur6, kPeer6, 2, 9899, &s6);
	t6.frag_mtu = 1280;
	std::vector<Bytes> frames = fragment(t4).frames;
	for (const Bytes &f : fragment(t6).frames)
		frames.push_back(f);
	ASSERT_EQ(frames.size(), 6u);
	char path[] = "/tmp/dpsctp_l3_frag_XXXXXX.pcap";
	int fd = mkstemps(path, 5);
	ASSERT_GE(fd, 0);
	FILE *fp = fdopen(fd, "wb");
	ASSERT_NE(fp, nullptr);
	auto w32 = [&](uint32_t v) { fwrite(&v, 4, 1, fp); };
	auto w16 = [&](uint16_t v) { fwrite(&v, 2, 1, fp); };
	w32(0xa1b2c3d4);
	w16(2);
	w16(4);
	w32(0);
	w32(0);
	w32(65535);
	w32(1);
	uint32_t n = 0;
	for (const Bytes &f : frames) {
		w32(++n);
		w32(0);
		w32(static_cast<uint32_t>(f.size()));
		w32(static_cast<uint32_t>(f.size()));
		fwrite(f.data(), 1, f.size(), fp);
	}
	fclose(fp);
	std::string cmd =
		std::string(tshark) + " -n -r " + path +
		" -o ip.defragment:TRUE -o ipv6.defragment:TRUE -o udp.check_checksum:TRUE"
		" -Y sctp -T fields -e frame.number"
		" -e sctp.chunk_length -e sctp.data_payload_proto_id -e udp.checksum.status"
		" 2>&1";
	FILE *p = popen(cmd.c_str(), "r");
	ASSERT_NE(p, nullptr);
	std::string got;
	char buf[512];
	while (fgets(buf, sizeof(buf), p) != nullptr)
		if (strstr(buf, "Running as user") == nullptr)
			got += buf;
	int rc = pclose(p);
	unlink(path);
	EXPECT_EQ(rc, 0) << got;
	// One SCTP packet per datagram, dissected at its last fragment: its
	// COOKIE ACK (4) and its whole DATA chunk; the UDP checksum over the
	// reassembled datagram is good (status 1).
	EXPECT_EQ(got, "3\t4," + std::to_string(3000 - 16) + "\t51\t\n6\t4," +
			       std::to_string(2777 - 16) + "\t51\t1\n")
		<< cmd;
}

// Receive: fragments from a peer to us, assembled by hand (RFC 791 fields;
// RFC 8200 §4.5 Fragment header), reassembled by the layer into one frame
// that it then takes as any other.
Bytes
frag4(const Bytes &payload, uint32_t off, uint32_t len, bool more, uint16_t id = 0x4242,
      uint8_t proto = 132, const Bytes &src = kPeer4)
{
	Bytes h = { 0x45, 0 };
	put16(h, static_cast<uint16_t>(20 + len));
	put16(h, id);
	put16(h, static_cast<uint16_t>((more ? 0x2000 : 0) | off / 8));
	append(h, { 64, proto, 0, 0 });
	append(h, src);
	append(h, kOur4);
	uint16_t c = inet_csum({ h });
	h[10] = static_cast<uint8_t>(c >> 8);
	h[11] = static_cast<uint8_t>(c);
	h.insert(h.end(), payload.begin() + off, payload.begin() + off + len);
	return eth(kOurMac, kPeerMac, 0x0800, h);
}

Bytes
frag6(const Bytes &payload, uint32_t off, uint32_t len, bool more, uint32_t id = 0x01020304,
      uint8_t nh = 132)
{
	Bytes fh = { nh, 0 };
	put16(fh, static_cast<uint16_t>(off | (more ? 1 : 0)));
	put32(fh, id);
	fh.insert(fh.end(), payload.begin() + off, payload.begin() + off + len);
	return eth(kOurMac, kPeerMac, 0x86DD, ipv6(kPeer6, kOur6, 44, fh));
}

class L3Reasm : public L3 {
      protected:
	// The reassembled frame, given back to the layer: what it must now be.
	void expect_whole(const Bytes &sctp_bytes, uint8_t family)
	{
		ASSERT_EQ(in_.verdict, DPSCTP_L3_IN_REASSEMBLED);
		Bytes whole(in_.reasm, in_.reasm + in_.reasm_len);
		written().push_back(whole);
		ASSERT_EQ(input(whole), DPSCTP_L3_IN_SCTP) << dpsctp_l3_drop_name(in_.drop);
		EXPECT_EQ(in_.sctp.len, sctp_bytes.size());
		EXPECT_EQ(Bytes(whole.begin() + in_.sctp.offset,
				whole.begin() + in_.sctp.offset + in_.sctp.len),
			  sctp_bytes);
		EXPECT_EQ(in_.sctp.src.family, family);
		if (family == 4) {
			EXPECT_EQ(get16(&whole[20]), 0) << "no MF, no offset";
			EXPECT_EQ(get16(&whole[16]), 20 + sctp_bytes.size());
		} else {
			EXPECT_EQ(whole[20], 132) << "no Fragment header";
			EXPECT_EQ(get16(&whole[18]), sctp_bytes.size());
		}
	}
};

TEST_F(L3Reasm, Ipv4OutOfOrder)
{
	Bytes s = sctp_data(3000);
	// Last, middle, first: each held until the datagram is whole.
	EXPECT_EQ(input(frag4(s, 2400, 600, false)), DPSCTP_L3_IN_CONSUMED);
	EXPECT_EQ(input(frag4(s, 1200, 1200, true)), DPSCTP_L3_IN_CONSUMED);
	EXPECT_EQ(l3_.ctr.frags_held, 2u);
	input(frag4(s, 0, 1200, true));
	expect_whole(s, 4);
	EXPECT_EQ(l3_.ctr.reasm_done, 1u);
	// The slot is free again: the same identification starts a new datagram.
	EXPECT_EQ(input(frag4(s, 0, 1200, true)), DPSCTP_L3_IN_CONSUMED);
}

TEST_F(L3Reasm, Ipv6AndUdp)
{
	Bytes s = sctp_data(2000);
	input(frag6(s, 0, 1232, true));
	EXPECT_EQ(in_.verdict, DPSCTP_L3_IN_CONSUMED);
	input(frag6(s, 1232, 768, false));
	expect_whole(s, 6);
	// SCTP over UDP (RFC 6951) fragmented: the UDP header in the first
	// fragment, its checksum over the whole datagram.
	Bytes u = udp(kPeer6, kOur6, 9899, 9899, s);
	input(frag6(u, 1232, static_cast<uint32_t>(u.size()) - 1232, false, 7, 17));
	input(frag6(u, 0, 1232, true, 7, 17));
	ASSERT_EQ(in_.verdict, DPSCTP_L3_IN_REASSEMBLED);
	Bytes whole(in_.reasm, in_.reasm + in_.reasm_len);
	ASSERT_EQ(input(whole), DPSCTP_L3_IN_SCTP) << dpsctp_l3_drop_name(in_.drop);
	EXPECT_TRUE(in_.sctp.udp_encap);
	EXPECT_EQ(in_.sctp.len, s.size());
}

TEST_F(L3Reasm, OverlapsDuplicatesAndNonsense)
{
	Bytes s = sctp_data(3000);
	// An overlap abandons the datagram (RFC 5722): its completion is no completion.
	EXPECT_EQ(input(frag4(s, 0, 1200, true)), DPSCTP_L3_IN_CONSUMED);
	expect_drop(frag4(s, 1192, 1208, true), DPSCTP_L3_DROP_FRAG_OVERLAP);
	EXPECT_EQ(input(frag4(s, 1200, 1800, false)), DPSCTP_L3_IN_CONSUMED);
	EXPECT_EQ(l3_.ctr.reasm_done, 0u);
	// An exact duplicate is dropped alone; the datagram completes.
	EXPECT_EQ(input(frag4(s, 0, 1200, true, 9)), DPSCTP_L3_IN_CONSUMED);
	expect_drop(frag4(s, 0, 1200, true, 9), DPSCTP_L3_DROP_FRAG_DUPLICATE);
	input(frag4(s, 1200, 1800, false, 9));
	expect_whole(s, 4);
	// A non-last fragment not a multiple of 8, one past DPSCTP_L3_REASM_MAX,
	// a last one that ends before data already held.
	expect_drop(frag4(s, 0, 1201, true, 10), DPSCTP_L3_DROP_FRAG_INVALID);
	Bytes big(DPSCTP_L3_REASM_MAX + 8, 0);
	expect_drop(frag4(big, DPSCTP_L3_REASM_MAX - 8, 16, true, 11), DPSCTP_L3_DROP_FRAG_INVALID);
	EXPECT_EQ(input(frag4(s, 1200, 1200, true, 12)), DPSCTP_L3_IN_CONSUMED);
	expect_drop(frag4(s, 8, 992, false, 12), DPSCTP_L3_DROP_FRAG_INVALID);
	// Not ours, not SCTP or UDP: dropped as before.
	Bytes far = frag4(s, 0, 1200, true, 13);
	far[14 + 19] ^= 1; // destination 10.0.0.0 (header checksum fixed below)
	far[14 + 10] = far[14 + 11] = 0;
	uint16_t c = inet_csum({ Bytes(far.begin() + 14, far.begin() + 34) });
	far[24] = static_cast<uint8_t>(c >> 8);
	far[25] = static_cast<uint8_t>(c);
	expect_drop(far, DPSCTP_L3_DROP_IP_NOT_OURS);
	expect_drop(frag4(s, 0, 1200, true, 14, 6), DPSCTP_L3_DROP_IP_FRAGMENT);
}

TEST_F(L3Reasm, SlotsAreBoundedAndExpire)
{
	Bytes s = sctp_data(3000);
	// One more datagram than there are slots: the oldest goes.
	for (uint16_t id = 1; id <= DPSCTP_L3_REASM_SLOTS + 1; id++)
		EXPECT_EQ(input(frag4(s, 0, 1200, true, id), 1000 + id), DPSCTP_L3_IN_CONSUMED);
	EXPECT_EQ(l3_.ctr.reasm_evicted, 1u);
	EXPECT_EQ(input(frag4(s, 1200, 1800, false, 1), 2000), DPSCTP_L3_IN_CONSUMED)
		<< "datagram 1 was evicted: this starts another";
	EXPECT_EQ(l3_.ctr.reasm_evicted, 2u);
	input(frag4(s, 1200, 1800, false, DPSCTP_L3_REASM_SLOTS + 1), 3000);
	expect_whole(s, 4);
	// Partial datagrams older than reasm_ns (3 s by default) are dropped.
	uint64_t later = 3000 + 3000000000ull;
	EXPECT_EQ(input(frag4(s, 1200, 1800, false, 3), later), DPSCTP_L3_IN_CONSUMED);
	EXPECT_GE(l3_.ctr.reasm_timeout, 3u);
	EXPECT_EQ(l3_.ctr.reasm_done, 1u);
	// Fewer slots by configuration; more than built in is refused.
	cfg_.reasm_slots = DPSCTP_L3_REASM_SLOTS + 1;
	EXPECT_EQ(dpsctp_l3_init(&l3_, &cfg_, Released::cb, &rel_), -EINVAL);
	cfg_.reasm_slots = 1;
	ASSERT_EQ(dpsctp_l3_init(&l3_, &cfg_, Released::cb, &rel_), 0);
	EXPECT_EQ(input(frag4(s, 0, 1200, true, 1)), DPSCTP_L3_IN_CONSUMED);
	EXPECT_EQ(input(frag4(s, 0, 1200, true, 2)), DPSCTP_L3_IN_CONSUMED);
	EXPECT_EQ(l3_.ctr.reasm_evicted, 1u);
}

// What dpsctp_l3_fragment() writes, a dpsctp peer reassembles: the
// fragments of L3Frag's packets into a second layer that has the peer's
// addresses.
TEST_F(L3Frag, ReassembledByAPeer)
{
	dpsctp_l3_config pc{};
	memcpy(pc.mac, kPeerMac.data(), 6);
	pc.addr[0] = ip_of(kPeer4);
	pc.prefix[0] = 24;
	pc.addr[1] = ip_of(kPeer6);
	pc.prefix[1] = 64;
	pc.addr_count = 2;
	auto *peer = new dpsctp_l3{};
	ASSERT_EQ(dpsctp_l3_init(peer, &pc, nullptr, nullptr), 0);
	uint8_t reply[2048];
	for (int udp = 0; udp < 2; udp++)
		for (const Bytes *src : { &kOur4, &kOur6 }) {
			Bytes s = sctp_data(4000 - udp * 3);
			auto t = tx(*src, src->size() == 4 ? kPeer4 : kPeer6, 1,
				    static_cast<uint16_t>(udp ? 9899 : 0), &s);
			t.frag_mtu = 1280;
			Fragmented r = fragment(t);
			ASSERT_GT(r.frames.size(), 2u);
			dpsctp_l3_in pin;
			// Last first, to be sure order does not matter.
			std::vector<Bytes> order(r.frames.rbegin(), r.frames.rend());
			for (size_t i = 0; i < order.size(); i++) {
				auto v = dpsctp_l3_input(peer, order[i].data(), order[i].size(),
							 5000, reply, sizeof(reply), &pin);
				ASSERT_EQ(v, i + 1 < order.size() ? DPSCTP_L3_IN_CONSUMED
								  : DPSCTP_L3_IN_REASSEMBLED)
					<< dpsctp_l3_drop_name(pin.drop);
			}
			Bytes whole(pin.reasm, pin.reasm + pin.reasm_len);
			ASSERT_EQ(dpsctp_l3_input(peer, whole.data(), whole.size(), 5000, reply,
						  sizeof(reply), &pin),
				  DPSCTP_L3_IN_SCTP)
				<< dpsctp_l3_drop_name(pin.drop);
			EXPECT_EQ(Bytes(whole.begin() + pin.sctp.offset,
					whole.begin() + pin.sctp.offset + pin.sctp.len),
				  s);
			EXPECT_EQ(pin.sctp.udp_encap, udp == 1);
		}
	EXPECT_EQ(peer->ctr.reasm_done, 4u);
	delete peer;
}

TEST_F(L3, ParkBoundsAndTimeout)
{
	dpsctp_l3_out out;
	const uint64_t sec = 1000000000ull;
	for (uintptr_t h = 1; h <= DPSCTP_L3_PARK_MAX; h++)
		ASSERT_EQ(output(tx(kOur4, kPeer4, h), 1000, &out), DPSCTP_L3_TX_PARKED);
	EXPECT_EQ(output(tx(kOur4, kPeer4, 99), 1000, &out), DPSCTP_L3_TX_DROP);
	EXPECT_EQ(out.drop, DPSCTP_L3_DROP_NBR_PARK_FULL);

	// tick retransmits the ARP request every second, three in all, then gives up.
	uint8_t probe[DPSCTP_L3_PROBE_MAX];
	uint32_t plen = 0;
	uint64_t next = dpsctp_l3_tick(&l3_, 1000 + sec / 2, probe, sizeof(probe), &plen);
	EXPECT_EQ(plen, 0u);
	EXPECT_EQ(next, 1000 + sec);
	next = dpsctp_l3_tick(&l3_, 1000 + sec, probe, sizeof(probe), &plen);
	EXPECT_EQ(plen, 60u);
	EXPECT_EQ(next, 1000 + 2 * sec);
	dpsctp_l3_tick(&l3_, 1000 + 2 * sec, probe, sizeof(probe), &plen);
	EXPECT_EQ(plen, 60u);
	EXPECT_EQ(l3_.ctr.probes_sent, 3u);
	EXPECT_TRUE(rel_.handles.empty());
	next = dpsctp_l3_tick(&l3_, 1000 + 3 * sec, probe, sizeof(probe), &plen);
	EXPECT_EQ(plen, 0u);
	EXPECT_EQ(next, UINT64_MAX);
	EXPECT_EQ(rel_.handles, (std::vector<uintptr_t>{ 1, 2, 3, 4 }));
	EXPECT_EQ(drops(DPSCTP_L3_DROP_NBR_RESOLVE_TIMEOUT), 4u);
	EXPECT_EQ(l3_.nbr_count, 0u);
}

TEST_F(L3, CacheExpiryAndStaleProbing)
{
	const uint64_t sec = 1000000000ull;
	resolve(kPeer4, kPeerMac, sec);
	auto ip = ip_of(kPeer4);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &ip)->state, DPSCTP_L3_NBR_REACHABLE);
	EXPECT_EQ(dpsctp_l3_tick(&l3_, 2 * sec, nullptr, 0, nullptr), 31 * sec);
	dpsctp_l3_tick(&l3_, 31 * sec, nullptr, 0, nullptr);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &ip)->state, DPSCTP_L3_NBR_STALE);
	// Used while STALE: the packet goes, with a unicast ARP request.
	dpsctp_l3_out out;
	Bytes probe, hdr;
	ASSERT_EQ(output(tx(kOur4, kPeer4, 1), 32 * sec, &out, &hdr, &probe), DPSCTP_L3_TX_READY);
	Bytes want = eth(kPeerMac, kOurMac, 0x0806, arp(1, kOurMac, kOur4, Bytes(6, 0), kPeer4));
	want.resize(60, 0);
	EXPECT_EQ(probe, want);
	// Answered: reachable again.
	resolve(kPeer4, kPeerMac, 32 * sec + 1000);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &ip)->state, DPSCTP_L3_NBR_REACHABLE);
	// Not answered: three probes, then the entry goes.
	dpsctp_l3_tick(&l3_, 63 * sec, nullptr, 0, nullptr);
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(output(tx(kOur4, kPeer4, 1), (63 + i) * sec, &out, &hdr, &probe),
			  DPSCTP_L3_TX_READY);
		EXPECT_EQ(out.probe_len, 60u) << i;
	}
	dpsctp_l3_tick(&l3_, 65 * sec + sec / 2, nullptr, 0, nullptr);
	EXPECT_NE(dpsctp_l3_nbr_find(&l3_, &ip), nullptr);
	dpsctp_l3_tick(&l3_, 66 * sec, nullptr, 0, nullptr);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &ip), nullptr);

	// A STALE entry nobody uses goes after stale_ns.
	resolve(kPeer6, kPeerMac, 100 * sec);
	auto ip6 = ip_of(kPeer6);
	dpsctp_l3_tick(&l3_, 200 * sec, nullptr, 0, nullptr);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &ip6)->state, DPSCTP_L3_NBR_STALE);
	dpsctp_l3_tick(&l3_, 100 * sec + 600 * sec - 1, nullptr, 0, nullptr);
	EXPECT_NE(dpsctp_l3_nbr_find(&l3_, &ip6), nullptr);
	dpsctp_l3_tick(&l3_, 100 * sec + 600 * sec, nullptr, 0, nullptr);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &ip6), nullptr);
}

Bytes
peer_addr(unsigned i)
{
	return Bytes{ 10, 0, 0, static_cast<uint8_t>(10 + i) };
}

TEST_F(L3, TableBoundsAndEviction)
{
	dpsctp_l3_out out;
	// Unsolicited learning never evicts: fill with ARP requests for us.
	for (unsigned i = 0; i < DPSCTP_L3_NBR_BUILTIN + 5; i++)
		input(eth(kBcast, kPeerMac, 0x0806,
			  arp(1, kPeerMac, peer_addr(i), Bytes(6, 0), kOur4)),
		      1000 + i);
	EXPECT_EQ(l3_.nbr_count, static_cast<unsigned>(DPSCTP_L3_NBR_BUILTIN));
	EXPECT_EQ(l3_.ctr.arp_replies_sent, DPSCTP_L3_NBR_BUILTIN + 5u);
	// Sending evicts the least recently used resolved entry.
	ASSERT_EQ(output(tx(kOur4, kGw4, 1), 5000, &out), DPSCTP_L3_TX_PARKED);
	EXPECT_EQ(l3_.ctr.nbr_evicted, 1u);
	auto first = ip_of(peer_addr(0));
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &first), nullptr);
	dpsctp_l3_flush(&l3_);
	EXPECT_EQ(rel_.handles, std::vector<uintptr_t>{ 1 });
	EXPECT_EQ(drops(DPSCTP_L3_DROP_NBR_FLUSHED), 1u);
	EXPECT_EQ(l3_.nbr_count, 0u);
	rel_.handles.clear();
	// Resolutions have a pool of their own: a new one preempts the least
	// recently used, whose packets come back; never more are INCOMPLETE.
	const unsigned pool = DPSCTP_L3_RESOLVING_DEFAULT;
	for (unsigned i = 0; i < 2 * pool; i++) {
		ASSERT_EQ(output(tx(kOur4, peer_addr(i), 100 + i), 6000 + i, &out),
			  DPSCTP_L3_TX_PARKED);
		EXPECT_LE(l3_.nbr_count, pool);
	}
	EXPECT_EQ(drops(DPSCTP_L3_DROP_NBR_PREEMPTED), pool);
	std::vector<uintptr_t> want;
	for (unsigned i = 0; i < pool; i++)
		want.push_back(100 + i);
	EXPECT_EQ(rel_.handles, want);
	for (unsigned i = 0; i < 2 * pool; i++) {
		auto ip = ip_of(peer_addr(i));
		EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &ip) != nullptr, i >= pool) << i;
	}
	dpsctp_l3_flush(&l3_);
	EXPECT_EQ(rel_.handles.size(), 2u * pool);
	EXPECT_EQ(l3_.ctr.tx_parked, 1u + 2u * pool);
	EXPECT_EQ(l3_.ctr.tx_parked,
		  drops(DPSCTP_L3_DROP_NBR_FLUSHED) + drops(DPSCTP_L3_DROP_NBR_PREEMPTED));
}

Bytes
v6_addr(unsigned i)
{
	Bytes b = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 1 };
	put32(b, i);
	return b;
}

Bytes
mac_of_index(unsigned i)
{
	return Bytes{ 0x02,
		      0x55,
		      static_cast<uint8_t>(i >> 24),
		      static_cast<uint8_t>(i >> 16),
		      static_cast<uint8_t>(i >> 8),
		      static_cast<uint8_t>(i) };
}

// A table in memory of the test's own, as the data plane gives one.
class L3Table : public L3 {
      protected:
	std::vector<uint64_t> mem_;

	void init_table(unsigned nbr_max, unsigned resolving_max)
	{
		size_t n = dpsctp_l3_nbr_mem_size(nbr_max, resolving_max);
		mem_.assign(n / 8 + 1, 0xAAAAAAAAAAAAAAAAull); // garbage: init must clear it
		dpsctp_l3_config c = cfg_;
		c.nbr_max = nbr_max;
		c.resolving_max = resolving_max;
		c.nbr_mem = mem_.data();
		c.nbr_mem_len = n;
		c.hash_seed = 0x5eed;
		ASSERT_EQ(dpsctp_l3_init(&l3_, &c, Released::cb, &rel_), 0);
		rel_.handles.clear();
	}

	unsigned incomplete() const
	{
		unsigned k = 0;
		for (unsigned i = 0; i < l3_.nbr_count; i++)
			k += l3_.nbr[i].state == DPSCTP_L3_NBR_INCOMPLETE;
		return k;
	}

	// Every entry in use is found by its address (the hash chains are whole).
	void expect_chains_whole()
	{
		for (unsigned i = 0; i < l3_.nbr_count; i++)
			ASSERT_EQ(dpsctp_l3_nbr_find(&l3_, &l3_.nbr[i].ip), &l3_.nbr[i]) << i;
	}

	void expect_ready_to(const Bytes &dst, const Bytes &mac, uint64_t now)
	{
		dpsctp_l3_out out;
		Bytes hdr;
		ASSERT_EQ(output(tx(dst.size() == 4 ? kOur4 : kOur6, dst, 7), now, &out, &hdr),
			  DPSCTP_L3_TX_READY)
			<< dpsctp_l3_drop_name(out.drop);
		EXPECT_EQ(Bytes(hdr.begin(), hdr.begin() + 6), mac);
	}
};

TEST_F(L3Table, InitChecksTheStorage)
{
	dpsctp_l3_config c = cfg_;
	c.nbr_max = DPSCTP_L3_NBR_BUILTIN + 1; // more than the built-in table
	EXPECT_EQ(dpsctp_l3_init(&l3_, &c, nullptr, nullptr), -EINVAL);
	c = cfg_;
	c.resolving_max = DPSCTP_L3_RESOLVING_BUILTIN + 1;
	EXPECT_EQ(dpsctp_l3_init(&l3_, &c, nullptr, nullptr), -EINVAL);
	std::vector<uint64_t> mem(dpsctp_l3_nbr_mem_size(1000, 20) / 8 + 1);
	c = cfg_;
	c.nbr_max = 1000;
	c.resolving_max = 20;
	c.nbr_mem = mem.data();
	c.nbr_mem_len = dpsctp_l3_nbr_mem_size(1000, 20) - 1;
	EXPECT_EQ(dpsctp_l3_init(&l3_, &c, nullptr, nullptr), -EINVAL);
	c.nbr_mem_len += 1;
	EXPECT_EQ(dpsctp_l3_init(&l3_, &c, nullptr, nullptr), 0);
	c.nbr_mem = reinterpret_cast<uint8_t *>(mem.data()) + 4; // misaligned
	EXPECT_EQ(dpsctp_l3_init(&l3_, &c, nullptr, nullptr), -EINVAL);
	c.nbr_mem = mem.data();
	c.nbr_max = (1u << 30) + 1;
	EXPECT_EQ(dpsctp_l3_init(&l3_, &c, nullptr, nullptr), -EINVAL);
	std::vector<uint64_t> big(dpsctp_l3_nbr_mem_size(5000, 4097) / 8 + 1);
	c.nbr_max = 5000;
	c.resolving_max = DPSCTP_L3_RESOLVING_LIMIT + 1;
	c.nbr_mem = big.data();
	c.nbr_mem_len = big.size() * 8;
	EXPECT_EQ(dpsctp_l3_init(&l3_, &c, nullptr, nullptr), -EINVAL);
	c.resolving_max = DPSCTP_L3_RESOLVING_LIMIT;
	EXPECT_EQ(dpsctp_l3_init(&l3_, &c, nullptr, nullptr), 0);
	EXPECT_EQ(dpsctp_l3_nbr_mem_size((1u << 30) + 1, 0), SIZE_MAX);
	// A pool larger than the table is cut to it.
	EXPECT_EQ(dpsctp_l3_nbr_mem_size(4, 16), dpsctp_l3_nbr_mem_size(4, 4));
}

// Answers to strangers (INIT ACK to a spoofed on-link
// source, an ABORT, anything stateless) each need a new neighbour. However
// many, and whether or not the strangers answer ARP and ND, the neighbours
// of associations (pinned, resolved) stay, and packets to them leave at
// once with the right MAC; never more than resolving_max entries resolve at
// once; every parked packet comes back exactly once.
TEST_F(L3Table, StatelessFloodNeverEvictsPinnedNeighbours)
{
	init_table(64, 8);
	const Bytes kPeer6Mac = { 0x02, 0, 0, 0, 0, 0x66 };
	auto peer4 = ip_of(kPeer4), peer6 = ip_of(kPeer6), far4 = ip_of(kFar4), gw4 = ip_of(kGw4);
	ASSERT_EQ(dpsctp_l3_pin(&l3_, &peer4, 1000), 0);
	ASSERT_EQ(dpsctp_l3_pin(&l3_, &peer6, 1000), 0);
	ASSERT_EQ(dpsctp_l3_pin(&l3_, &far4, 1000), 0); // an off-link peer: its gateway
	resolve(kPeer4, kPeerMac, 1000);
	resolve(kPeer6, kPeer6Mac, 1000);
	resolve(kGw4, kGwMac, 1000);
	rel_.handles.clear();

	std::set<uintptr_t> outstanding;
	uint64_t now = 2000;
	const uint64_t ms = 1000000;
	for (unsigned i = 0; i < 10000; i++) {
		now += ms;
		// v4 strangers inside both our /24s, v6 strangers in our /64.
		Bytes dst = i % 4 == 0 ? Bytes{ 10, 0, static_cast<uint8_t>(i / 4 % 2),
						static_cast<uint8_t>(3 + i / 8 % 250) }
				       : v6_addr(1000 + i);
		dpsctp_l3_out out;
		uintptr_t h = 1000000 + i;
		auto v = output(tx(dst.size() == 4 ? kOur4 : kOur6, dst, h), now, &out);
		ASSERT_NE(v, DPSCTP_L3_TX_READY) << i;
		if (v == DPSCTP_L3_TX_PARKED)
			outstanding.insert(h);
		else
			ASSERT_EQ(out.drop, DPSCTP_L3_DROP_NBR_PARK_FULL)
				<< i; // a repeated v4 stranger
		// A third of them answer (an attacker that answers for its spoofed addresses).
		if (i % 3 == 0) {
			Bytes mac = mac_of_index(i);
			if (dst.size() == 4)
				input(eth(kOurMac, mac, 0x0806, arp(2, mac, dst, kOurMac, kOur4)),
				      now);
			else
				input(na_frame(dst, 0x60, mac), now);
			for (unsigned k = 0; k < in_.released_count; k++)
				ASSERT_EQ(outstanding.erase(in_.released[k].handle), 1u);
		}
		uint8_t probe[DPSCTP_L3_PROBE_MAX];
		uint32_t plen;
		do
			dpsctp_l3_tick(&l3_, now, probe, sizeof(probe), &plen);
		while (plen != 0);
		for (uintptr_t r : rel_.handles)
			ASSERT_EQ(outstanding.erase(r), 1u) << "handle " << r;
		rel_.handles.clear();
		ASSERT_LE(incomplete(), 8u);
		ASSERT_LE(l3_.nbr_count, 64u);
		// Quiet associations are the oldest entries of all: still there.
		for (auto *ip : { &peer4, &peer6, &gw4 }) {
			const dpsctp_l3_nbr *n = dpsctp_l3_nbr_find(&l3_, ip);
			ASSERT_NE(n, nullptr) << "evicted after " << i << " strangers";
			ASSERT_NE(n->state, DPSCTP_L3_NBR_INCOMPLETE);
		}
		if (i % 2000 == 1999) {
			// The associations' own packets leave at once, to the MACs they had.
			expect_ready_to(kPeer4, kPeerMac, now);
			expect_ready_to(kPeer6, kPeer6Mac, now);
			expect_ready_to(kFar4, kGwMac, now);
			resolve(kPeer4, kPeerMac, now); // the peers answer our probes
			resolve(kPeer6, kPeer6Mac, now);
			resolve(kGw4, kGwMac, now);
			expect_chains_whole();
		}
	}
	EXPECT_GT(drops(DPSCTP_L3_DROP_NBR_PREEMPTED), 1000u);
	EXPECT_GT(l3_.ctr.nbr_evicted, 100u) << "strangers that answered were evicted in turn";
	EXPECT_EQ(drops(DPSCTP_L3_DROP_NBR_TABLE_FULL), 0u);
	EXPECT_EQ(drops(DPSCTP_L3_DROP_NBR_RESOLVING_FULL), 0u);
	for (auto *ip : { &peer4, &peer6 })
		EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, ip)->pins, 1u);
	dpsctp_l3_flush(&l3_);
	for (uintptr_t r : rel_.handles)
		ASSERT_EQ(outstanding.erase(r), 1u);
	EXPECT_TRUE(outstanding.empty()) << outstanding.size() << " parked packets lost";
	EXPECT_EQ(l3_.ctr.tx_parked,
		  l3_.ctr.parked_released + drops(DPSCTP_L3_DROP_NBR_RESOLVE_TIMEOUT) +
			  drops(DPSCTP_L3_DROP_NBR_FLUSHED) + drops(DPSCTP_L3_DROP_NBR_PREEMPTED));
	// Pins survive a flush (UNRESOLVED), and the next packet resolves again.
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer4)->state, DPSCTP_L3_NBR_UNRESOLVED);
	EXPECT_EQ(l3_.nbr_count, 3u);
}

// The same with a table whose every entry an association uses: strangers
// get the resolving pool only, and a new resolution preempts an older
// stranger's, never an association's.
TEST_F(L3Table, PinnedResolutionsTakeSlotsFromStrangersOnly)
{
	init_table(16, 4);
	const uint64_t sec = 1000000000ull;
	dpsctp_l3_out out;
	// Four strangers resolving.
	for (unsigned i = 0; i < 4; i++)
		ASSERT_EQ(output(tx(kOur6, v6_addr(i), 10 + i), 1000 + i, &out),
			  DPSCTP_L3_TX_PARKED);
	// Associations pin three addresses and send: their resolutions push out
	// the oldest strangers, whose packets come back.
	for (unsigned i = 0; i < 3; i++) {
		auto ip = ip_of(v6_addr(100 + i));
		ASSERT_EQ(dpsctp_l3_pin(&l3_, &ip, 2000), 0);
		EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &ip)->state, DPSCTP_L3_NBR_UNRESOLVED);
		ASSERT_EQ(output(tx(kOur6, v6_addr(100 + i), 20 + i), 2000 + i, &out),
			  DPSCTP_L3_TX_PARKED);
	}
	EXPECT_EQ(rel_.handles, (std::vector<uintptr_t>{ 10, 11, 12 }));
	EXPECT_EQ(drops(DPSCTP_L3_DROP_NBR_PREEMPTED), 3u);
	// A new stranger preempts the last stranger, not an association.
	ASSERT_EQ(output(tx(kOur6, v6_addr(50), 30), 3000, &out), DPSCTP_L3_TX_PARKED);
	EXPECT_EQ(rel_.handles.back(), 13u);
	auto ip3 = ip_of(v6_addr(103));
	ASSERT_EQ(dpsctp_l3_pin(&l3_, &ip3, 3000), 0);
	ASSERT_EQ(output(tx(kOur6, v6_addr(103), 23), 3001, &out), DPSCTP_L3_TX_PARKED);
	EXPECT_EQ(rel_.handles.back(), 30u);
	// Every slot serves an association: strangers wait their turn.
	EXPECT_EQ(output(tx(kOur6, v6_addr(51), 31), 3002, &out), DPSCTP_L3_TX_DROP);
	EXPECT_EQ(out.drop, DPSCTP_L3_DROP_NBR_RESOLVING_FULL);
	// Unanswered, the associations' entries stay, UNRESOLVED, their packets back.
	rel_.handles.clear();
	for (uint64_t t = 1; t <= 4; t++) {
		uint8_t probe[DPSCTP_L3_PROBE_MAX];
		uint32_t plen;
		do
			dpsctp_l3_tick(&l3_, 2000 + t * sec, probe, sizeof(probe), &plen);
		while (plen != 0);
	}
	EXPECT_EQ(rel_.handles.size(), 4u);
	EXPECT_EQ(drops(DPSCTP_L3_DROP_NBR_RESOLVE_TIMEOUT), 4u);
	EXPECT_EQ(l3_.nbr_count, 4u);
	for (unsigned i = 100; i < 104; i++) {
		auto ip = ip_of(v6_addr(i));
		ASSERT_NE(dpsctp_l3_nbr_find(&l3_, &ip), nullptr);
		EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &ip)->state, DPSCTP_L3_NBR_UNRESOLVED);
	}
	// The next packet starts again, and an answer delivers it.
	ASSERT_EQ(output(tx(kOur6, v6_addr(101), 40), 10 * sec, &out), DPSCTP_L3_TX_PARKED);
	ASSERT_EQ(input(na_frame(v6_addr(101), 0x60, kPeerMac), 10 * sec), DPSCTP_L3_IN_CONSUMED);
	ASSERT_EQ(in_.released_count, 1u);
	EXPECT_EQ(in_.released[0].handle, 40u);
}

TEST_F(L3Table, PinsCountAndEndWithTheLastAssociation)
{
	init_table(8, 2);
	const uint64_t sec = 1000000000ull;
	auto far4 = ip_of(kFar4), far4b = ip_of(Bytes{ 198, 51, 100, 1 }), gw4 = ip_of(kGw4);
	auto peer = ip_of(kPeer4);
	ASSERT_EQ(dpsctp_l3_pin(&l3_, &far4, 0), 0);
	ASSERT_EQ(dpsctp_l3_pin(&l3_, &far4b, 0), 0);
	ASSERT_NE(dpsctp_l3_nbr_find(&l3_, &gw4), nullptr);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &gw4)->pins, 2u) << "both behind the gateway";
	dpsctp_l3_unpin(&l3_, &far4);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &gw4)->pins, 1u);
	dpsctp_l3_unpin(&l3_, &far4b);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &gw4), nullptr) << "UNRESOLVED goes with its last pin";
	dpsctp_l3_unpin(&l3_, &far4b); // unbalanced: nothing happens
	EXPECT_EQ(l3_.nbr_count, 0u);

	// A pinned STALE entry neither ages out nor goes when its probes fail.
	ASSERT_EQ(dpsctp_l3_pin(&l3_, &peer, sec), 0);
	resolve(kPeer4, kPeerMac, sec);
	dpsctp_l3_tick(&l3_, 40 * sec, nullptr, 0, nullptr);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer)->state, DPSCTP_L3_NBR_STALE);
	dpsctp_l3_tick(&l3_, 2000 * sec, nullptr, 0, nullptr);
	ASSERT_NE(dpsctp_l3_nbr_find(&l3_, &peer), nullptr) << "pinned entries do not age";
	dpsctp_l3_out out;
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(output(tx(kOur4, kPeer4, 1), (2001 + i) * sec, &out), DPSCTP_L3_TX_READY);
	dpsctp_l3_tick(&l3_, 2004 * sec, nullptr, 0, nullptr);
	ASSERT_NE(dpsctp_l3_nbr_find(&l3_, &peer), nullptr);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer)->state, DPSCTP_L3_NBR_UNRESOLVED);
	// Unpinned, a STALE entry unused for stale_ns goes at the next tick.
	resolve(kPeer4, kPeerMac, 2005 * sec);
	dpsctp_l3_tick(&l3_, 2100 * sec, nullptr, 0, nullptr);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer)->state, DPSCTP_L3_NBR_STALE);
	dpsctp_l3_unpin(&l3_, &peer);
	EXPECT_LE(dpsctp_l3_tick(&l3_, 2100 * sec, nullptr, 0, nullptr), 2605 * sec);
	dpsctp_l3_tick(&l3_, 2606 * sec, nullptr, 0, nullptr);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer), nullptr);

	// A full table: a pin evicts a resolved stranger, then a resolving one,
	// then refuses (the table is too small for the associations).
	for (unsigned i = 0; i < 6; i++)
		input(eth(kBcast, kPeerMac, 0x0806,
			  arp(1, kPeerMac, peer_addr(i), Bytes(6, 0), kOur4)),
		      3000 * sec + i);
	for (unsigned i = 0; i < 2; i++)
		ASSERT_EQ(output(tx(kOur6, v6_addr(i), 50 + i), 3000 * sec, &out),
			  DPSCTP_L3_TX_PARKED);
	ASSERT_EQ(l3_.nbr_count, 8u);
	rel_.handles.clear();
	for (unsigned i = 0; i < 8; i++) {
		auto ip = ip_of(v6_addr(100 + i));
		ASSERT_EQ(dpsctp_l3_pin(&l3_, &ip, 3001 * sec), 0) << i;
		ASSERT_EQ(l3_.nbr_count, 8u);
	}
	EXPECT_EQ(l3_.ctr.nbr_evicted, 6u);
	EXPECT_EQ(drops(DPSCTP_L3_DROP_NBR_PREEMPTED), 2u);
	EXPECT_EQ(rel_.handles, (std::vector<uintptr_t>{ 50, 51 }));
	auto more = ip_of(v6_addr(200));
	EXPECT_EQ(dpsctp_l3_pin(&l3_, &more, 3002 * sec), -ENOSPC);
	EXPECT_EQ(l3_.ctr.nbr_pin_failed, 1u);
	// And a stranger finds no entry at all.
	EXPECT_EQ(output(tx(kOur6, v6_addr(300), 60), 3002 * sec, &out), DPSCTP_L3_TX_DROP);
	EXPECT_EQ(out.drop, DPSCTP_L3_DROP_NBR_TABLE_FULL);
	// No route, no pin.
	cfg_.gw6.family = 0;
	init_table(8, 2);
	auto far6 = ip_of(kFar6);
	sctp_addr none{};
	EXPECT_EQ(dpsctp_l3_pin(&l3_, &far6, 0), -EINVAL);
	EXPECT_EQ(dpsctp_l3_pin(&l3_, &none, 0), -EINVAL);
	EXPECT_EQ(l3_.nbr_count, 0u);
}

// Packets that passed an association's tag check confirm the MAC ARP or ND
// gave their sender's entry, and for reachable_ns after such a confirmation
// ARP and ND may not replace it: a spoofed gratuitous ARP, reply or NA is
// counted, not learnt. They never teach a MAC (a weak-host peer sends from
// any address out of any interface): from another MAC the entry loses its
// guard and verifies the MAC it has.
TEST_F(L3Table, AuthenticatedPacketsTeachAndGuardTheMac)
{
	init_table(16, 4);
	const uint64_t sec = 1000000000ull;
	const Bytes kEvil = { 0x02, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE };
	const Bytes kNewMac = { 0x02, 0, 0, 0, 0, 0x22 };
	auto peer = ip_of(kPeer4), peer6 = ip_of(kPeer6), far = ip_of(kFar4), gw = ip_of(kGw4);
	dpsctp_l3_tx rel[DPSCTP_L3_PARK_MAX];
	dpsctp_l3_out out;
	ASSERT_EQ(dpsctp_l3_pin(&l3_, &peer, sec), 0);
	// Nothing is created for a stranger.
	auto stranger = ip_of(peer_addr(9));
	EXPECT_EQ(dpsctp_l3_confirm(&l3_, &stranger, kPeerMac.data(), sec, rel), 0u);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &stranger), nullptr);
	// A packet of the peer's while resolving teaches no MAC: ARP does.
	ASSERT_EQ(output(tx(kOur4, kPeer4, 5), sec, &out), DPSCTP_L3_TX_PARKED);
	EXPECT_EQ(dpsctp_l3_confirm(&l3_, &peer, kPeerMac.data(), sec + 1, rel), 0u);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer)->state, DPSCTP_L3_NBR_INCOMPLETE);
	resolve(kPeer4, kPeerMac, sec + 1);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer)->state, DPSCTP_L3_NBR_REACHABLE);
	expect_ready_to(kPeer4, kPeerMac, sec + 2);
	// The common case changes nothing but the confirmation time.
	EXPECT_EQ(dpsctp_l3_confirm(&l3_, &peer, kPeerMac.data(), 20 * sec, rel), 0u);
	EXPECT_EQ(l3_.ctr.nbr_auth_learnt, 0u);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer)->confirmed, 20 * sec);
	dpsctp_l3_tick(&l3_, 49 * sec, nullptr, 0, nullptr);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer)->state, DPSCTP_L3_NBR_REACHABLE)
		<< "REACHABLE for reachable_ns after the last packet";
	// Spoofed ARP: a reply, a gratuitous request, a request for us.
	input(eth(kOurMac, kEvil, 0x0806, arp(2, kEvil, kPeer4, kOurMac, kOur4)), 49 * sec);
	input(eth(kBcast, kEvil, 0x0806, arp(1, kEvil, kPeer4, Bytes(6, 0), kPeer4)), 49 * sec);
	ASSERT_EQ(input(eth(kBcast, kEvil, 0x0806, arp(1, kEvil, kPeer4, Bytes(6, 0), kOur4)),
			49 * sec),
		  DPSCTP_L3_IN_REPLY);
	EXPECT_EQ(l3_.ctr.nbr_mac_kept, 3u);
	expect_ready_to(kPeer4, kPeerMac, 49 * sec);
	dpsctp_l3_tick(&l3_, 50 * sec, nullptr, 0, nullptr);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer)->state, DPSCTP_L3_NBR_STALE);
	// The same MAC is confirmation, as always.
	resolve(kPeer4, kPeerMac, 51 * sec);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer)->state, DPSCTP_L3_NBR_REACHABLE);
	EXPECT_EQ(l3_.ctr.nbr_mac_kept, 3u);
	// Its packets from another MAC teach nothing: the entry keeps its MAC,
	// STALE (the next packet probes it), and unguarded, so the peer's ARP
	// for its new MAC is learnt.
	EXPECT_EQ(dpsctp_l3_confirm(&l3_, &peer, kNewMac.data(), 52 * sec, rel), 0u);
	EXPECT_EQ(l3_.ctr.nbr_auth_learnt, 0u);
	EXPECT_EQ(l3_.ctr.nbr_auth_other_mac, 1u);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer)->state, DPSCTP_L3_NBR_STALE);
	expect_ready_to(kPeer4, kPeerMac, 52 * sec);
	input(eth(kBcast, kNewMac, 0x0806, arp(1, kNewMac, kPeer4, Bytes(6, 0), kPeer4)), 52 * sec);
	EXPECT_EQ(l3_.ctr.nbr_mac_kept, 3u);
	expect_ready_to(kPeer4, kNewMac, 52 * sec);
	// Once they stop for reachable_ns, ARP teaches again (a peer that moved).
	input(eth(kBcast, kEvil, 0x0806, arp(1, kEvil, kPeer4, Bytes(6, 0), kOur4)), 82 * sec);
	EXPECT_EQ(l3_.ctr.nbr_mac_kept, 3u);
	EXPECT_EQ(Bytes(dpsctp_l3_nbr_find(&l3_, &peer)->mac,
			dpsctp_l3_nbr_find(&l3_, &peer)->mac + 6),
		  kEvil);
	// ND likewise: an overriding NA and an NA without override are both refused.
	ASSERT_EQ(dpsctp_l3_pin(&l3_, &peer6, 90 * sec), 0);
	ASSERT_EQ(output(tx(kOur6, kPeer6, 6), 90 * sec, &out), DPSCTP_L3_TX_PARKED);
	EXPECT_EQ(dpsctp_l3_confirm(&l3_, &peer6, kPeerMac.data(), 90 * sec, rel), 0u);
	resolve(kPeer6, kPeerMac, 90 * sec);
	EXPECT_EQ(dpsctp_l3_confirm(&l3_, &peer6, kPeerMac.data(), 90 * sec, rel), 0u);
	ASSERT_EQ(input(na_frame(kPeer6, 0x60, kEvil), 91 * sec), DPSCTP_L3_IN_CONSUMED);
	ASSERT_EQ(input(na_frame(kPeer6, 0x00, kEvil), 91 * sec), DPSCTP_L3_IN_CONSUMED);
	EXPECT_EQ(l3_.ctr.nbr_mac_kept, 5u);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer6)->state, DPSCTP_L3_NBR_REACHABLE);
	expect_ready_to(kPeer6, kPeerMac, 91 * sec);
	// Off-link peers: a packet through the gateway's MAC confirms the gateway
	// (and guards it); through another MAC, or as multicast, nothing.
	ASSERT_EQ(dpsctp_l3_pin(&l3_, &far, 100 * sec), 0);
	resolve(kGw4, kGwMac, 100 * sec);
	dpsctp_l3_tick(&l3_, 131 * sec, nullptr, 0, nullptr);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &gw)->state, DPSCTP_L3_NBR_STALE);
	EXPECT_EQ(dpsctp_l3_confirm(&l3_, &far, kEvil.data(), 132 * sec, rel), 0u);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &gw)->state, DPSCTP_L3_NBR_STALE);
	EXPECT_EQ(dpsctp_l3_confirm(&l3_, &far, kBcast.data(), 132 * sec, rel), 0u);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &gw)->state, DPSCTP_L3_NBR_STALE);
	EXPECT_EQ(dpsctp_l3_confirm(&l3_, &far, kGwMac.data(), 133 * sec, rel), 0u);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &gw)->state, DPSCTP_L3_NBR_REACHABLE);
	input(eth(kBcast, kEvil, 0x0806, arp(1, kEvil, kGw4, Bytes(6, 0), kGw4)), 134 * sec);
	expect_ready_to(kFar4, kGwMac, 134 * sec);
	EXPECT_EQ(l3_.ctr.nbr_mac_kept, 6u);
}

// ARP requests for us from thousands of spoofed senders fill free entries
// only (RFC 826 merge) and are answered; none of them evicts an
// association's neighbour, and the answers need no entry of their own.
TEST_F(L3Table, ArpFloodFromSpoofedSendersEvictsNothing)
{
	init_table(32, 4);
	auto peer = ip_of(kPeer4);
	ASSERT_EQ(dpsctp_l3_pin(&l3_, &peer, 1000), 0);
	resolve(kPeer4, kPeerMac, 1000);
	for (unsigned i = 0; i < 5000; i++) {
		Bytes spa = { 10, 0, static_cast<uint8_t>(i % 2),
			      static_cast<uint8_t>(3 + i % 250) };
		Bytes sha = mac_of_index(i);
		ASSERT_EQ(input(eth(kBcast, sha, 0x0806, arp(1, sha, spa, Bytes(6, 0), kOur4)),
				2000 + i),
			  DPSCTP_L3_IN_REPLY);
		ASSERT_EQ(input(ns_frame(v6_addr(i), kOur6), 2000 + i), DPSCTP_L3_IN_REPLY);
	}
	EXPECT_EQ(l3_.nbr_count, 32u);
	EXPECT_EQ(l3_.ctr.nbr_evicted, 0u);
	EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &peer)->pins, 1u);
	expect_ready_to(kPeer4, kPeerMac, 10000);
	expect_chains_whole();
}

// Model-based, over a table large enough to need its hash: random pins and
// unpins, sends, answers, confirmations, floods of strangers, time and
// flushes. After every step: the chains are whole, every pinned next hop
// has its entry with the model's pin count, no more entries than nbr_max
// and no more resolving than resolving_max, and every handle comes back
// exactly once.
TEST_F(L3Table, RandomizedPinsAgainstModel)
{
	uint64_t evicted = 0, preempted = 0, timeouts = 0, pinned_fails = 0;
	for (uint32_t seed = 1; seed <= 40; seed++) {
		SCOPED_TRACE("seed " + std::to_string(seed));
		init_table(64, 8);
		std::mt19937 rng(seed);
		std::map<unsigned, unsigned> pins; // v6 index -> pin count
		std::set<uintptr_t> outstanding;
		std::vector<unsigned> recent(16, 0); // addresses sent to lately: answers go there
		uintptr_t next_handle = 1;
		uint64_t now = 1;
		for (int step = 0; step < 3000; step++) {
			now += rng() % 20000000u;
			unsigned a = rng() % (rng() % 4 == 0 ? 5000 : 120);
			unsigned op = rng() % 100;
			if (op >= 65 && op < 88 && rng() % 4 != 0)
				a = recent[rng() % recent.size()];
			Bytes addr = v6_addr(a);
			auto ip = ip_of(addr);
			dpsctp_l3_out out;
			if (op < 10) {
				if (dpsctp_l3_pin(&l3_, &ip, now) == 0)
					pins[a]++;
			} else if (op < 18 && !pins.empty()) {
				auto it = pins.begin();
				std::advance(it, rng() % pins.size());
				auto pip = ip_of(v6_addr(it->first));
				dpsctp_l3_unpin(&l3_, &pip);
				if (--it->second == 0)
					pins.erase(it);
			} else if (op < 65) {
				uintptr_t h = next_handle++;
				uint8_t hdr[DPSCTP_L3_HDR_MAX];
				auto t = tx(kOur6, addr, h);
				auto v = dpsctp_l3_output(&l3_, &t, now, hdr, sizeof(hdr), nullptr,
							  0, &out);
				if (v == DPSCTP_L3_TX_PARKED)
					outstanding.insert(h);
				recent[step % recent.size()] = a;
			} else if (op < 80) {
				Bytes mac = mac_of_index(a);
				input(na_frame(addr, 0x60, mac), now);
				for (unsigned k = 0; k < in_.released_count; k++)
					ASSERT_EQ(outstanding.erase(in_.released[k].handle), 1u);
			} else if (op < 88) {
				dpsctp_l3_tx rel[DPSCTP_L3_PARK_MAX];
				unsigned n = dpsctp_l3_confirm(
					&l3_, &ip, mac_of_index(a + 1).data(), now, rel);
				for (unsigned k = 0; k < n; k++)
					ASSERT_EQ(outstanding.erase(rel[k].handle), 1u);
			} else if (op < 99) {
				uint8_t probe[DPSCTP_L3_PROBE_MAX];
				uint32_t plen;
				now += rng() % 2000000000u;
				do
					dpsctp_l3_tick(&l3_, now, probe, sizeof(probe), &plen);
				while (plen != 0);
			} else {
				dpsctp_l3_flush(&l3_);
			}
			for (uintptr_t h : rel_.handles)
				ASSERT_EQ(outstanding.erase(h), 1u) << "handle " << h;
			rel_.handles.clear();
			ASSERT_LE(l3_.nbr_count, 64u);
			ASSERT_LE(incomplete(), 8u);
			ASSERT_EQ(incomplete(), l3_.res_used);
			expect_chains_whole();
			for (auto &[k, n] : pins) {
				auto pip = ip_of(v6_addr(k));
				const dpsctp_l3_nbr *e = dpsctp_l3_nbr_find(&l3_, &pip);
				ASSERT_NE(e, nullptr) << "pinned " << k << " gone at step " << step;
				ASSERT_EQ(e->pins, n);
			}
		}
		dpsctp_l3_flush(&l3_);
		for (uintptr_t h : rel_.handles)
			ASSERT_EQ(outstanding.erase(h), 1u);
		EXPECT_TRUE(outstanding.empty());
		for (auto &[k, n] : pins)
			for (unsigned j = 0; j < n; j++) {
				auto pip = ip_of(v6_addr(k));
				dpsctp_l3_unpin(&l3_, &pip);
			}
		EXPECT_EQ(l3_.nbr_count, 0u) << "every UNRESOLVED entry went with its last pin";
		evicted += l3_.ctr.nbr_evicted;
		preempted += drops(DPSCTP_L3_DROP_NBR_PREEMPTED);
		timeouts += drops(DPSCTP_L3_DROP_NBR_RESOLVE_TIMEOUT);
		pinned_fails += l3_.ctr.nbr_pin_failed;
	}
	// The walk reached every corner it is about.
	EXPECT_GT(evicted, 0u);
	EXPECT_GT(preempted, 0u);
	EXPECT_GT(timeouts, 0u);
	printf("evicted %lu, preempted %lu, resolve timeouts %lu, pins refused %lu\n",
	       (unsigned long)evicted, (unsigned long)preempted, (unsigned long)timeouts,
	       (unsigned long)pinned_fails);
}

// Model-based: random sends, answers, silence and time over a few neighbours.
// The model tracks which handles are outstanding and each neighbour's MAC;
// every handle must come back exactly once (sent, given back or flushed),
// no neighbour ever holds more than DPSCTP_L3_PARK_MAX, and every READY
// frame goes to the MAC the model last taught.
TEST_F(L3, RandomizedAgainstModel)
{
	for (uint32_t seed = 1; seed <= 300; seed++) {
		SCOPED_TRACE("seed " + std::to_string(seed));
		ASSERT_EQ(dpsctp_l3_init(&l3_, &cfg_, Released::cb, &rel_), 0);
		rel_.handles.clear();
		std::mt19937 rng(seed);
		std::map<unsigned, Bytes> mac_of; // learnt MAC per peer index
		std::set<uintptr_t> outstanding;
		std::vector<dpsctp_l3_tx> to_send;
		uintptr_t next_handle = 1;
		uint64_t now = 1;
		const unsigned peers = 6;
		auto finish = [&](uintptr_t h) {
			ASSERT_EQ(outstanding.erase(h), 1u) << "handle " << h << " came back twice";
		};
		for (int step = 0; step < 400; step++) {
			now += rng() % 400000000u;
			unsigned p = rng() % peers;
			Bytes pip = peer_addr(p);
			unsigned op = rng() % 10;
			dpsctp_l3_out out;
			if (op < 5 || !to_send.empty()) {
				dpsctp_l3_tx t;
				if (!to_send.empty()) {
					t = to_send.back();
					to_send.pop_back();
				} else {
					t = tx(kOur4, pip, next_handle++);
					outstanding.insert(t.handle);
				}
				uint8_t hdr[DPSCTP_L3_HDR_MAX];
				auto v = dpsctp_l3_output(&l3_, &t, now, hdr, sizeof(hdr), nullptr,
							  0, &out);
				unsigned tp = t.dst.bytes[3] - 10u;
				if (v == DPSCTP_L3_TX_READY) {
					ASSERT_TRUE(mac_of.count(tp));
					EXPECT_EQ(Bytes(hdr, hdr + 6), mac_of[tp]);
					finish(t.handle);
				} else if (v == DPSCTP_L3_TX_DROP) {
					EXPECT_EQ(out.drop, DPSCTP_L3_DROP_NBR_PARK_FULL);
					finish(t.handle);
				}
			} else if (op < 7) {
				Bytes mac = { 0x02,
					      0x10,
					      0,
					      0,
					      static_cast<uint8_t>(p),
					      static_cast<uint8_t>(rng() % 2) };
				auto v = input(
					eth(kOurMac, mac, 0x0806, arp(2, mac, pip, kOurMac, kOur4)),
					now);
				auto ip = ip_of(pip);
				if (v == DPSCTP_L3_IN_CONSUMED)
					mac_of[p] = mac;
				else
					EXPECT_EQ(dpsctp_l3_nbr_find(&l3_, &ip), nullptr);
				for (unsigned k = 0; k < in_.released_count; k++)
					to_send.push_back(in_.released[k]);
			} else {
				uint8_t probe[DPSCTP_L3_PROBE_MAX];
				uint32_t plen;
				dpsctp_l3_tick(&l3_, now, probe, sizeof(probe), &plen);
			}
			for (uintptr_t h : rel_.handles)
				finish(h);
			rel_.handles.clear();
			for (unsigned i = 0; i < l3_.nbr_count; i++)
				ASSERT_LE(l3_.nbr[i].parked, DPSCTP_L3_PARK_MAX);
			// A neighbour the layer forgot must be learnt again.
			for (unsigned q = 0; q < peers; q++) {
				auto ip = ip_of(peer_addr(q));
				const dpsctp_l3_nbr *n = dpsctp_l3_nbr_find(&l3_, &ip);
				if (n == nullptr || n->state == DPSCTP_L3_NBR_INCOMPLETE)
					mac_of.erase(q);
			}
		}
		for (auto &t : to_send)
			finish(t.handle);
		dpsctp_l3_flush(&l3_);
		for (uintptr_t h : rel_.handles)
			finish(h);
		rel_.handles.clear();
		EXPECT_TRUE(outstanding.empty()) << outstanding.size() << " handles leaked";
		EXPECT_EQ(l3_.ctr.tx_parked, l3_.ctr.parked_released +
						     drops(DPSCTP_L3_DROP_NBR_RESOLVE_TIMEOUT) +
						     drops(DPSCTP_L3_DROP_NBR_FLUSHED) +
						     drops(DPSCTP_L3_DROP_NBR_PREEMPTED));
	}
}

// Random byte flips and cuts of valid frames: never a crash, always a
// verdict; a reply is well formed (checksums verified here); SCTP spans lie
// inside the frame.
TEST_F(L3, RandomMutations)
{
	Bytes s = sctp();
	Bytes echo = { 0, 1, 0, 1, 'p', 'i', 'n', 'g' };
	Bytes quoted = { 0, 0, 0x05, 0xDC };
	append(quoted, ipv4(kOur4, kFar4, 132, s));
	const std::vector<Bytes> seeds = {
		eth(kBcast, kPeerMac, 0x0806, arp(1, kPeerMac, kPeer4, Bytes(6, 0), kOur4)),
		eth(kOurMac, kPeerMac, 0x0800,
		    ipv4(kPeer4, kOur4, 17, udp(kPeer4, kOur4, 1, 9899, s))),
		eth(kOurMac, kPeerMac, 0x86DD, ipv6(kPeer6, kOur6, 132, s)),
		eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kOur4, 1, icmp4(8, 0, echo))),
		eth(kOurMac, kPeerMac, 0x86DD,
		    ipv6(kPeer6, kOur6, 58, icmp6(kPeer6, kOur6, 128, 0, echo))),
		eth(kOurMac, kGwMac, 0x0800, ipv4(kGw4, kOur4, 1, icmp4(3, 4, quoted))),
		ns_frame(kPeer6, kOur6),
	};
	for (uint32_t seed = 1; seed <= 2000; seed++) {
		std::mt19937 rng(seed);
		Bytes f = seeds[rng() % seeds.size()];
		unsigned flips = 1 + rng() % 3;
		for (unsigned k = 0; k < flips; k++)
			f[rng() % f.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
		if (rng() % 4 == 0)
			f.resize(rng() % f.size());
		std::vector<uint8_t> exact(f.begin(), f.end());
		auto v = dpsctp_l3_input(&l3_, exact.data(), exact.size(), seed, reply_,
					 sizeof(reply_), &in_);
		SCOPED_TRACE("seed " + std::to_string(seed));
		if (v == DPSCTP_L3_IN_DROP) {
			EXPECT_NE(in_.drop, DPSCTP_L3_DROP_NONE);
		} else if (v == DPSCTP_L3_IN_SCTP) {
			EXPECT_LE(in_.sctp.offset + in_.sctp.len, exact.size());
			EXPECT_GE(in_.sctp.len, 12u);
		} else if (v == DPSCTP_L3_IN_REPLY) {
			Bytes r = reply();
			uint16_t type = get16(&r[12]);
			if (type == 0x0800) {
				EXPECT_EQ(inet_csum({ Bytes(r.begin() + 14, r.begin() + 34) }), 0);
				EXPECT_EQ(inet_csum({ Bytes(r.begin() + 34, r.end()) }), 0);
			} else if (type == 0x86DD) {
				Bytes m(r.begin() + 54, r.end());
				Bytes src(r.begin() + 22, r.begin() + 38),
					dst(r.begin() + 38, r.begin() + 54);
				EXPECT_EQ(inet_csum({ pseudo6(src, dst, 58, m.size()), m }), 0);
			} else {
				EXPECT_EQ(type, 0x0806);
			}
		}
	}
	EXPECT_EQ(l3_.ctr.frames_in, 2000u);
}

// Every frame this file made the layer write, dissected by tshark with
// checksum validation on: no malformed packet, no bad checksum, no
// expert warning or error.
TEST_F(L3, WrittenFramesDissectCleanly)
{
	const char *tshark = getenv("TSHARK");
	DPSCTP_PREREQ(tshark != nullptr && *tshark != '\0',
		      "tshark not found at configure time: frames not cross-checked");
	// Frames of its own, so the test stands alone under --gtest_filter or
	// --gtest_shuffle; when it runs last it also sees every earlier test's.
	Bytes echo = { 0, 9, 0, 1, 'd', 'p', 's', 'c', 't', 'p' };
	ASSERT_EQ(input(eth(kBcast, kPeerMac, 0x0806, arp(1, kPeerMac, kPeer4, Bytes(6, 0), kOur4),
			    { 7 })),
		  DPSCTP_L3_IN_REPLY);
	ASSERT_EQ(input(ns_frame(kPeer6, kOur6)), DPSCTP_L3_IN_REPLY);
	ASSERT_EQ(input(eth(kOurMac, kPeerMac, 0x0800, ipv4(kPeer4, kOur4, 1, icmp4(8, 0, echo)))),
		  DPSCTP_L3_IN_REPLY);
	ASSERT_EQ(input(eth(kOurMac, kPeerMac, 0x86DD,
			    ipv6(kPeer6, kOur6, 58, icmp6(kPeer6, kOur6, 128, 0, echo)))),
		  DPSCTP_L3_IN_REPLY);
	Bytes s = sctp(80, 5000);
	dpsctp_l3_out out;
	ASSERT_EQ(output(tx(kOur4, kFar4, 1, 9899, &s), 1000, &out), DPSCTP_L3_TX_PARKED);
	ASSERT_EQ(output(tx(kOur6, kFar6, 2, 0, &s), 1000, &out), DPSCTP_L3_TX_PARKED);
	resolve(kGw4, kGwMac);
	resolve(kGw6, kGwMac);
	ASSERT_EQ(output(tx(kOur4, kFar4, 3, 9899, &s), 2000, &out), DPSCTP_L3_TX_READY);
	ASSERT_EQ(output(tx(kOur6, kFar6, 4, 9899, &s), 2000, &out), DPSCTP_L3_TX_READY);
	ASSERT_EQ(output(tx(kOur6, kFar6, 5, 0, &s), 2000, &out), DPSCTP_L3_TX_READY);
	char path[] = "/tmp/dpsctp_l3_test_XXXXXX.pcap";
	int fd = mkstemps(path, 5);
	ASSERT_GE(fd, 0);
	FILE *fp = fdopen(fd, "wb");
	ASSERT_NE(fp, nullptr);
	auto w32 = [&](uint32_t v) { fwrite(&v, 4, 1, fp); };
	auto w16 = [&](uint16_t v) { fwrite(&v, 2, 1, fp); };
	w32(0xa1b2c3d4); // host order: readers detect it
	w16(2);
	w16(4);
	w32(0);
	w32(0);
	w32(65535);
	w32(1); // LINKTYPE_ETHERNET
	// The control: a copy of the first IPv4 frame with its header checksum
	// broken, which tshark must flag, so a silent tshark cannot pass.
	std::vector<Bytes> frames = written();
	for (const Bytes &f : written())
		if (f.size() >= 34 && get16(&f[12]) == 0x0800) {
			frames.push_back(f);
			frames.back()[24] ^= 0x01;
			break;
		}
	ASSERT_GT(frames.size(), written().size());
	uint32_t t = 0;
	for (const Bytes &f : frames) {
		w32(++t);
		w32(0);
		w32(static_cast<uint32_t>(f.size()));
		w32(static_cast<uint32_t>(f.size()));
		fwrite(f.data(), 1, f.size(), fp);
	}
	fclose(fp);
	std::string cmd = std::string(tshark) + " -n -r " + path +
			  " -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE"
			  /* ICMP and ICMPv6 checksums are always verified */
			  " -T fields -e frame.number -e _ws.col.Protocol"
			  " -e _ws.expert.severity -e _ws.expert.message 2>&1";
	FILE *p = popen(cmd.c_str(), "r");
	ASSERT_NE(p, nullptr);
	std::string outp;
	char buf[512];
	while (fgets(buf, sizeof(buf), p) != nullptr)
		outp += buf;
	int rc = pclose(p);
	unlink(path);
	EXPECT_EQ(rc, 0) << outp;
	// Lines: number, protocol, expert severities (comma-separated), messages.
	// Severities: 2097152 chat, 4194304 note, 6291456 warning, 8388608 error.
	size_t lines = 0;
	size_t pos = 0;
	while (pos < outp.size()) {
		size_t nl = outp.find('\n', pos);
		std::string line =
			outp.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
		pos = nl == std::string::npos ? outp.size() : nl + 1;
		if (line.empty() || line.find("Running as user") != std::string::npos)
			continue;
		lines++;
		std::vector<std::string> col;
		size_t a = 0;
		for (;;) {
			size_t tab = line.find('\t', a);
			col.push_back(line.substr(a, tab == std::string::npos ? tab : tab - a));
			if (tab == std::string::npos)
				break;
			a = tab + 1;
		}
		ASSERT_GE(col.size(), 2u) << line;
		bool control = std::stoul(col[0]) == frames.size();
		unsigned long worst = 0;
		if (col.size() > 2 && !col[2].empty()) {
			size_t b = 0;
			while (b < col[2].size()) {
				size_t comma = col[2].find(',', b);
				worst = std::max(worst, std::stoul(col[2].substr(b, comma - b)));
				b = comma == std::string::npos ? col[2].size() : comma + 1;
			}
		}
		if (control) {
			EXPECT_NE(line.find("Bad checksum"), std::string::npos)
				<< "tshark did not flag the broken control frame: " << line;
			continue;
		}
		EXPECT_LT(worst, 6291456ul) << "expert warning or error: " << line;
		EXPECT_EQ(line.find("Malformed"), std::string::npos) << line;
		EXPECT_EQ(line.find("Bad checksum"), std::string::npos) << line;
	}
	EXPECT_EQ(lines, frames.size()) << outp;
}

} // namespace
