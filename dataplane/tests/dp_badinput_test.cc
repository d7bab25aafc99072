/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] Bad input at the port: hand-made frames written straight into a
// listening instance's receive ring (a net_ring pair; the test plays the
// other end). Each case checks the counter named for it moved by exactly
// one and what the instance answered (RFC 9260 §8.4 for out-of-the-blue
// packets); then 10,000 seeded garbage frames; at the end every mbuf is back
// in the pool.
#include <gtest/gtest.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "dataplane/tests/dp_env.h"

extern "C" {
#include "drivers/crc32c/crc32c.h"
}

namespace {

using Bytes = std::vector<uint8_t>;

class DpBadInput : public ::testing::Test {
      protected:
	void SetUp() override
	{
		link_ = std::make_unique<RingLink>("bad" + std::to_string(serial_++), 1);
		ASSERT_GE(link_->b, 0);
		char err[256];
		dpsctp_config sc = dp_test_config(link_->name_b, "10.0.0.2/24", 1, 5001);
		s_ = dpsctp_create(&sc, err, sizeof(err));
		ASSERT_NE(s_, nullptr) << err;
		dpsctp_mac(s_, mac_.addr_bytes);
		pool_ = dpsctp_pktmbuf_pool(s_);
		free_ = rte_mempool_avail_count(pool_);
		// Our peer's address in the instance's neighbour cache (an ARP request
		// from 10.0.0.9 teaches it, RFC 826), so replies leave at once.
		Bytes arp(42, 0);
		memset(arp.data(), 0xff, 6);
		const uint8_t src[6] = { 0x02, 0, 0, 0, 0, 9 };
		memcpy(arp.data() + 6, src, 6);
		const uint8_t hdr[] = { 0x08, 0x06, 0, 1, 0x08, 0, 6, 4, 0, 1 };
		memcpy(arp.data() + 12, hdr, sizeof(hdr));
		memcpy(arp.data() + 22, src, 6);
		const uint8_t spa[4] = { 10, 0, 0, 9 }, tpa[4] = { 10, 0, 0, 2 };
		memcpy(arp.data() + 28, spa, 4);
		memcpy(arp.data() + 38, tpa, 4);
		arp.resize(60, 0);
		auto r = inject(arp, false);
		ASSERT_EQ(r.size(), 1u) << "no ARP reply";
	}
	void TearDown() override
	{
		EXPECT_EQ(dpsctp_stop(s_, 50), 0);
		link_->drain(); // what the server sent last: not a leak, and not the next test's
		EXPECT_EQ(rte_mempool_avail_count(pool_), free_) << "mbufs leaked";
		dpsctp_destroy(s_);
		link_.reset();
	}
	std::map<std::string, uint64_t> counters()
	{
		std::map<std::string, uint64_t> m;
		const char *name;
		for (unsigned i = 0;; i++) {
			uint64_t v = dpsctp_worker_counter(s_, 0, i, &name);
			if (name == nullptr)
				break;
			m[name] = v;
		}
		return m;
	}
	// Write one frame into the instance's receive ring, poll, collect replies
	// (IP only with ip_only: the instance re-probes a stale neighbour by ARP).
	std::vector<Bytes> inject(const Bytes &f, bool ip_only = true)
	{
		rte_mbuf *m = rte_pktmbuf_alloc(pool_);
		EXPECT_NE(m, nullptr);
		memcpy(rte_pktmbuf_append(m, (uint16_t)f.size()), f.data(), f.size());
		EXPECT_EQ(rte_ring_enqueue(link_->ab[0], m), 0);
		for (int i = 0; i < 4; i++)
			dpsctp_poll(s_, 0);
		std::vector<Bytes> out;
		void *p;
		while (rte_ring_dequeue(link_->ba[0], &p) == 0) {
			rte_mbuf *r = (rte_mbuf *)p;
			Bytes b(r->pkt_len);
			const void *d = rte_pktmbuf_read(r, 0, r->pkt_len, b.data());
			if (d != b.data())
				memcpy(b.data(), d, r->pkt_len);
			if (!ip_only || (b.size() > 13 && b[12] == 0x08 && b[13] == 0x00))
				out.push_back(b);
			rte_pktmbuf_free(r);
		}
		return out;
	}
	// Ethernet + IPv4 (10.0.0.9 -> 10.0.0.2) + the SCTP bytes, CRC32c filled.
	Bytes frame(Bytes sctp, bool fill_crc = true)
	{
		if (fill_crc && sctp.size() >= 12)
			crc32c_sctp_fill(sctp.data(), sctp.size());
		Bytes f(14 + 20 + sctp.size());
		memcpy(f.data(), mac_.addr_bytes, 6);
		const uint8_t src[6] = { 0x02, 0, 0, 0, 0, 9 };
		memcpy(f.data() + 6, src, 6);
		f[12] = 0x08;
		f[13] = 0x00;
		uint8_t *ip = f.data() + 14;
		size_t tot = 20 + sctp.size();
		ip[0] = 0x45;
		ip[2] = (uint8_t)(tot >> 8);
		ip[3] = (uint8_t)tot;
		ip[8] = 64;
		ip[9] = 132;
		const uint8_t s[4] = { 10, 0, 0, 9 }, d[4] = { 10, 0, 0, 2 };
		memcpy(ip + 12, s, 4);
		memcpy(ip + 16, d, 4);
		uint16_t c = ip_csum(ip, 20);
		ip[10] = (uint8_t)(c >> 8);
		ip[11] = (uint8_t)c;
		if (!sctp.empty())
			memcpy(f.data() + 34, sctp.data(), sctp.size());
		return f;
	}
	static Bytes common(uint16_t sport, uint16_t dport, uint32_t vtag)
	{
		return { (uint8_t)(sport >> 8),
			 (uint8_t)sport,
			 (uint8_t)(dport >> 8),
			 (uint8_t)dport,
			 (uint8_t)(vtag >> 24),
			 (uint8_t)(vtag >> 16),
			 (uint8_t)(vtag >> 8),
			 (uint8_t)vtag,
			 0,
			 0,
			 0,
			 0 };
	}
	static void chunk(Bytes &p, uint8_t type, uint8_t flags, const Bytes &value)
	{
		size_t len = 4 + value.size();
		p.insert(p.end(), { type, flags, (uint8_t)(len >> 8), (uint8_t)len });
		p.insert(p.end(), value.begin(), value.end());
		while (p.size() % 4)
			p.push_back(0);
	}
	// Delta of counter `name` across one injection; every other drop counter still.
	uint64_t moved(const std::map<std::string, uint64_t> &a,
		       const std::map<std::string, uint64_t> &b, const std::string &name)
	{
		return b.at(name) - a.at(name);
	}
	static uint8_t sctp_type(const Bytes &reply)
	{
		return reply.size() > 46 ? reply[46] : 0;
	}
	static uint8_t sctp_flags(const Bytes &reply)
	{
		return reply.size() > 47 ? reply[47] : 0;
	}

	std::unique_ptr<RingLink> link_;
	dpsctp *s_ = nullptr;
	rte_ether_addr mac_;
	rte_mempool *pool_ = nullptr;
	unsigned free_ = 0;
	static unsigned serial_;
};

unsigned DpBadInput::serial_ = 0;

TEST_F(DpBadInput, BrokenFramesAreCountedUnderTheirNames)
{
	struct Case {
		const char *what;
		const char *counter;
		Bytes f;
	};
	Bytes init = common(4000, 5001, 0);
	chunk(init, 1, 0, { 0, 0, 0, 1, 0, 1, 0, 0, 0, 10, 0, 10, 0, 0, 0, 1 });
	Bytes good = frame(init);
	std::vector<Case> cases;
	cases.push_back({ "truncated Ethernet header", "l3.frame_link_truncated", Bytes(10, 0) });
	Bytes long_ip = good;
	long_ip[14 + 3] += 40; // total length past the frame
	long_ip[14 + 10] = long_ip[14 + 11] = 0;
	uint16_t c = ip_csum(long_ip.data() + 14, 20);
	long_ip[14 + 10] = (uint8_t)(c >> 8);
	long_ip[14 + 11] = (uint8_t)c;
	cases.push_back({ "IPv4 total length beyond the frame", "l3.ip_frame_short", long_ip });
	Bytes bad_sum = good;
	bad_sum[14 + 10] ^= 0x55;
	cases.push_back({ "IPv4 header checksum", "l3.ipv4_checksum", bad_sum });
	Bytes frag = good;
	// More fragments, at offset 9216: past what reassembly takes (DPSCTP_L3_REASM_MAX).
	frag[14 + 6] = 0x20 | (9216 / 8) >> 8;
	frag[14 + 7] = (uint8_t)(9216 / 8);
	frag[14 + 10] = frag[14 + 11] = 0;
	c = ip_csum(frag.data() + 14, 20);
	frag[14 + 10] = (uint8_t)(c >> 8);
	frag[14 + 11] = (uint8_t)c;
	cases.push_back({ "IPv4 fragment past the reassembly limit", "l3.frag_invalid", frag });
	Bytes bad_crc = good;
	bad_crc[14 + 20 + 8] ^= 1;
	cases.push_back({ "SCTP CRC32c", "drop_bad_crc", bad_crc });
	cases.push_back({ "SCTP shorter than its common header", "l3.sctp_truncated",
			  frame(Bytes{ 1, 2, 3, 4, 5, 6 }, false) });
	Bytes bad_chunk = common(4000, 5001, 0x1234);
	bad_chunk.insert(bad_chunk.end(), { 0, 0, 0, 2 }); // chunk length 2 < 4
	cases.push_back({ "chunk length below its header", "ep.ootb_malformed", frame(bad_chunk) });
	Bytes cookie = common(4000, 5001, 0x1234);
	chunk(cookie, 10, 0, Bytes(40, 0xab));
	cases.push_back({ "COOKIE ECHO with a forged cookie", nullptr, frame(cookie) });

	for (const Case &k : cases) {
		auto before = counters();
		auto replies = inject(k.f);
		auto after = counters();
		if (k.counter != nullptr) {
			EXPECT_EQ(moved(before, after, k.counter), 1u) << k.what;
		}
		EXPECT_TRUE(replies.empty()) << k.what << ": answered";
		EXPECT_EQ(moved(before, after, "assocs_created"), 0u) << k.what;
	}
	// The forged cookie was refused by the endpoint under one of its cookie names.
	auto m = counters();
	EXPECT_EQ(m["ep.cookie_malformed"] + m["ep.cookie_unknown_key"] + m["ep.cookie_bad_mac"],
		  1u);
}

TEST_F(DpBadInput, OutOfTheBlueIsAnsweredAsSection84Says)
{
	// An INIT to a port nobody listens on: ABORT.
	Bytes init = common(4000, 9999, 0);
	chunk(init, 1, 0, { 0xca, 0xfe, 0, 1, 0, 1, 0, 0, 0, 10, 0, 10, 0, 0, 0, 1 });
	auto before = counters();
	auto r = inject(frame(init));
	auto after = counters();
	ASSERT_EQ(r.size(), 1u);
	EXPECT_EQ(sctp_type(r[0]), 6) << "ABORT";
	EXPECT_EQ(moved(before, after, "ep.init_not_listening"), 1u);

	// An ABORT for no association: discarded silently (§8.4 rule 2).
	Bytes abort = common(4000, 5001, 0x77);
	chunk(abort, 6, 0, {});
	before = counters();
	r = inject(frame(abort));
	after = counters();
	EXPECT_TRUE(r.empty());
	EXPECT_EQ(moved(before, after, "ep.ootb_abort"), 1u);

	// A SHUTDOWN ACK: SHUTDOWN COMPLETE with the T bit (§8.4 rule 5).
	Bytes sack = common(4000, 5001, 0x88);
	chunk(sack, 8, 0, {});
	r = inject(frame(sack));
	ASSERT_EQ(r.size(), 1u);
	EXPECT_EQ(sctp_type(r[0]), 14);
	EXPECT_EQ(sctp_flags(r[0]) & 1, 1) << "T bit";

	// DATA with a tag of no association: ABORT with the T bit (§8.4 rule 8).
	Bytes data = common(4000, 5001, 0x99);
	chunk(data, 0, 3, { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 'h', 'i' });
	before = counters();
	r = inject(frame(data));
	after = counters();
	ASSERT_EQ(r.size(), 1u);
	EXPECT_EQ(sctp_type(r[0]), 6);
	EXPECT_EQ(sctp_flags(r[0]) & 1, 1) << "T bit";
	EXPECT_EQ(moved(before, after, "ootb"), 1u);
}

TEST_F(DpBadInput, TenThousandGarbageFrames)
{
	unsigned seed = 20261122;
	std::mt19937 rng(seed);
	Bytes init = common(4000, 5001, 0);
	chunk(init, 1, 0, { 0, 0, 0, 1, 0, 1, 0, 0, 0, 10, 0, 10, 0, 0, 0, 1 });
	Bytes base = frame(init);
	for (int i = 0; i < 10000; i++) {
		Bytes f;
		switch (rng() % 3) {
		case 0: // random bytes
			f.resize(rng() % 200);
			for (auto &b : f)
				b = (uint8_t)rng();
			break;
		case 1: // a good frame with a few bytes changed
			f = base;
			for (int k = 0; k < 1 + (int)(rng() % 4); k++)
				f[rng() % f.size()] = (uint8_t)rng();
			break;
		default: // a good frame cut short or grown
			f = base;
			f.resize(rng() % (base.size() + 40));
			break;
		}
		if (f.empty())
			f.push_back(0);
		(void)inject(f);
	}
	SCOPED_TRACE("seed " + std::to_string(seed));
	auto m = counters();
	EXPECT_GE(m["rx_packets"], 10000u);
}

} // namespace
