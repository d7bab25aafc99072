// SPDX-License-Identifier: BSD-3-Clause
// The endpoint: packets that match no association. RFC 9260 §5.1 (INIT and
// COOKIE ECHO answered without state), §8.4 (the out-of-the-blue rules) and
// §8.5.1 rule A, each checked on the bytes the endpoint writes; and the INIT
// flood: a million INITs allocate nothing while a real handshake
// in the middle of them completes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "codec_util.h"

extern "C" {
#include "sctp/chunk.h"
#include "sctp/endpoint.h"
}

// Allocation counting for the flood test: this binary interposes malloc and
// friends over glibc's (which still does the work) and counts while armed.
extern "C" {
void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void __libc_free(void *);
}
static bool g_count_allocs;
static uint64_t g_allocs;
extern "C" void *
malloc(size_t n)
{
	if (g_count_allocs)
		g_allocs++;
	return __libc_malloc(n);
}
extern "C" void *
calloc(size_t n, size_t m)
{
	if (g_count_allocs)
		g_allocs++;
	return __libc_calloc(n, m);
}
extern "C" void *
realloc(void *p, size_t n)
{
	if (g_count_allocs)
		g_allocs++;
	return __libc_realloc(p, n);
}
extern "C" void
free(void *p)
{
	__libc_free(p);
}

namespace {

using codec_test::Bytes;

constexpr uint16_t kServerPort = 5001;
constexpr uint16_t kClientPort = 40000;
constexpr uint64_t kNow = SCTP_S(1000);

struct sctp_addr
v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	const uint8_t be[4] = { a, b, c, d };
	return sctp_addr_v4(be);
}

class Endpoint : public ::testing::Test {
      protected:
	void SetUp() override
	{
		tag_ = 0xabcd0001;
		struct sctp_endpoint_config cfg = {};
		cfg.port = kServerPort;
		cfg.profile = &sctp_profile_rfc;
		cfg.a_rwnd = 131072;
		cfg.listening = true;
		cfg.extensions = SCTP_COOKIE_EXT_FORWARD_TSN;
		cfg.choose_tag = [](void *ctx, const struct sctp_rx *) {
			return static_cast<Endpoint *>(ctx)->tag_;
		};
		cfg.random32 = [](void *ctx) { return static_cast<Endpoint *>(ctx)->rnd_++; };
		cfg.ctx = this;
		uint8_t key[SCTP_COOKIE_KEY_LEN];
		for (unsigned i = 0; i < sizeof(key); i++)
			key[i] = static_cast<uint8_t>(i * 7 + 1);
		ASSERT_EQ(sctp_endpoint_init(&ep_, &cfg, key, kNow), 0);
	}
	void TearDown() override
	{
		sctp_endpoint_fini(&ep_);
	}

	// Feed one SCTP packet from the client (10.0.0.1) to us (10.0.0.2).
	enum sctp_ootb_result input(const Bytes &pkt, uint64_t now = kNow,
				    struct sctp_addr src = v4(10, 0, 0, 1),
				    struct sctp_addr dst = v4(10, 0, 0, 2))
	{
		pkt_ = pkt;
		struct sctp_rx rx = {};
		EXPECT_EQ(sctp_packet_parse(&rx.pkt, pkt_.data(), pkt_.size()), SCTP_PERR_OK);
		rx.src = src;
		rx.dst = dst;
		tx_.buf = out_;
		tx_.cap = sizeof(out_);
		drop_ = SCTP_EP_DROP_COUNT;
		return sctp_endpoint_input(&ep_, &rx, now, &tx_, &cookie_, &drop_);
	}

	Bytes reply() const
	{
		return Bytes(out_, out_ + tx_.len);
	}

	// The reply's common header and its single chunk.
	struct sctp_packet reply_packet(struct sctp_chunk *c)
	{
		reply_ = reply();
		struct sctp_packet p = {};
		EXPECT_EQ(sctp_packet_parse(&p, reply_.data(), reply_.size()), SCTP_PERR_OK);
		struct sctp_chunk_iter it;
		sctp_chunk_iter_init(&it, &p);
		EXPECT_TRUE(sctp_chunk_iter_next(&it, c));
		struct sctp_chunk extra;
		EXPECT_FALSE(sctp_chunk_iter_next(&it, &extra)) << "one chunk expected";
		EXPECT_EQ(it.err, SCTP_PERR_OK);
		return p;
	}

	uint32_t tag_;
	uint32_t rnd_ = 0x5000;
	struct sctp_endpoint ep_;
	Bytes pkt_, reply_;
	uint8_t out_[4096] __attribute__((aligned(8)));
	struct sctp_tx tx_ = {};
	struct sctp_cookie_state cookie_ = {};
	enum sctp_ep_drop drop_ = SCTP_EP_DROP_COUNT;
};

// An INIT packet built with our own builders.
Bytes
init_packet(uint32_t vtag, uint32_t init_tag, uint16_t os, uint16_t mis,
	    const std::function<void(struct sctp_writer *)> &params = nullptr,
	    uint16_t sport = kClientPort)
{
	uint8_t buf[1500];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_packet_build_header(&w, sport, kServerPort, vtag);
	struct sctp_init init = {};
	init.type = SCTP_CHUNK_INIT;
	init.init_tag = init_tag;
	init.a_rwnd = 65536;
	init.os = os;
	init.mis = mis;
	init.initial_tsn = 777;
	size_t off = sctp_init_build_begin(&w, &init);
	if (params)
		params(&w);
	sctp_init_build_end(&w, off);
	EXPECT_TRUE(sctp_writer_ok(&w));
	return Bytes(buf, buf + w.off);
}

// A packet with the given chunks (hex), tag and our ports.
Bytes
packet_with(uint32_t vtag, const std::string &chunks_hex)
{
	Bytes p(12);
	struct sctp_writer w = sctp_writer_make(p.data(), p.size());
	sctp_packet_build_header(&w, kClientPort, kServerPort, vtag);
	Bytes c = hex::bytes(chunks_hex);
	p.insert(p.end(), c.begin(), c.end());
	return p;
}

Bytes
cookie_echo_packet(uint32_t vtag, const uint8_t *cookie, size_t len)
{
	uint8_t buf[1500];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	sctp_packet_build_header(&w, kClientPort, kServerPort, vtag);
	struct sctp_cookie ce = {};
	ce.type = SCTP_CHUNK_COOKIE_ECHO;
	ce.cookie = cookie;
	ce.cookie_len = static_cast<uint16_t>(len);
	sctp_cookie_build(&w, &ce);
	EXPECT_TRUE(sctp_writer_ok(&w));
	return Bytes(buf, buf + w.off);
}

// The State Cookie of an INIT ACK chunk.
Bytes
cookie_of(const struct sctp_chunk &c)
{
	struct sctp_init ack;
	struct sctp_init_params p;
	EXPECT_EQ(sctp_init_parse(&c, &ack), SCTP_PERR_OK);
	EXPECT_EQ(sctp_init_params_decode(ack.params, ack.params_len, &p), SCTP_PERR_OK);
	EXPECT_TRUE(p.has_cookie);
	return Bytes(p.cookie, p.cookie + p.cookie_len);
}

} // namespace

TEST_F(Endpoint, InitIsAnsweredWithInitAckAndNothingIsKept)
{
	auto pkt = init_packet(0, 0x11223344, 20, 3, [](struct sctp_writer *w) {
		sctp_param_forward_tsn_supported_build(w);
	});
	ASSERT_EQ(input(pkt), SCTP_OOTB_REPLY);
	EXPECT_EQ(tx_.src.bytes[3], 2); // answered from the address it came to
	EXPECT_EQ(tx_.dst.bytes[3], 1);
	struct sctp_chunk c;
	struct sctp_packet p = reply_packet(&c);
	// RFC 9260 §8.5.1 rule B: the INIT ACK carries the INIT's Initiate Tag.
	EXPECT_EQ(p.vtag, 0x11223344u);
	EXPECT_EQ(p.src_port, kServerPort);
	EXPECT_EQ(p.dst_port, kClientPort);
	EXPECT_EQ(p.checksum, 0u); // the caller's CRC policy fills it
	ASSERT_EQ(c.type, SCTP_CHUNK_INIT_ACK);
	struct sctp_init ack;
	ASSERT_EQ(sctp_init_parse(&c, &ack), SCTP_PERR_OK);
	EXPECT_EQ(ack.init_tag, 0xabcd0001u);
	EXPECT_EQ(ack.a_rwnd, 131072u);
	EXPECT_EQ(ack.os, 3); // min(our 10, its MIS 3), RFC 9260 §5.1.1
	EXPECT_EQ(ack.mis, 65535);
	EXPECT_EQ(ack.initial_tsn, 0x5000u);
	struct sctp_init_params prm;
	ASSERT_EQ(sctp_init_params_decode(ack.params, ack.params_len, &prm), SCTP_PERR_OK);
	EXPECT_TRUE(prm.has_cookie);
	EXPECT_TRUE(prm.forward_tsn); // offered by both, so echoed
	EXPECT_FALSE(prm.ecn);	      // offered by neither
	EXPECT_EQ(ep_.init_acks_sent, 1u);
	// Stateless: the cookie decodes to everything the association needs.
	struct sctp_cookie_state st;
	ASSERT_EQ(sctp_cookie_decode(&ep_.keys, prm.cookie, prm.cookie_len, kNow, &st, nullptr),
		  SCTP_COOKIE_OK);
	EXPECT_EQ(st.local_vtag, 0xabcd0001u);
	EXPECT_EQ(st.peer_vtag, 0x11223344u);
	EXPECT_EQ(st.peer_initial_tsn, 777u);
	EXPECT_EQ(st.local_initial_tsn, 0x5000u);
	EXPECT_EQ(st.outbound_streams, 3);
	EXPECT_EQ(st.inbound_streams, 20);
	EXPECT_EQ(st.peer_port, kClientPort);
	EXPECT_EQ(st.local_port, kServerPort);
	EXPECT_TRUE(st.extensions & SCTP_COOKIE_EXT_FORWARD_TSN);
	EXPECT_EQ(st.lifespan_ns, sctp_profile_rfc.valid_cookie_life_ns);
}

TEST_F(Endpoint, HandshakeCompletesWithCookieAck)
{
	auto init = init_packet(0, 0x11223344, 5, 5, [](struct sctp_writer *w) {
		const uint8_t a1[4] = { 10, 0, 0, 1 }, a2[4] = { 10, 0, 1, 1 };
		struct sctp_param_addr pa = { SCTP_PARAM_IPV4_ADDR, {} };
		memcpy(pa.addr, a1, 4);
		sctp_param_addr_build(w, &pa);
		memcpy(pa.addr, a2, 4);
		sctp_param_addr_build(w, &pa);
	});
	ASSERT_EQ(input(init), SCTP_OOTB_REPLY);
	struct sctp_chunk c;
	reply_packet(&c);
	Bytes cookie = cookie_of(c);

	ASSERT_EQ(input(cookie_echo_packet(0xabcd0001, cookie.data(), cookie.size()), kNow + 5),
		  SCTP_OOTB_NEW_ASSOC);
	struct sctp_packet p = reply_packet(&c);
	EXPECT_EQ(c.type, SCTP_CHUNK_COOKIE_ACK);
	EXPECT_EQ(p.vtag, 0x11223344u);
	EXPECT_EQ(cookie_.peer_vtag, 0x11223344u);
	EXPECT_EQ(cookie_.local_vtag, 0xabcd0001u);
	ASSERT_EQ(cookie_.n_peer_addrs, 2);
	EXPECT_EQ(cookie_.peer_addrs[1].bytes[2], 1);
	EXPECT_EQ(cookie_.peer_src.bytes[3], 1);
	EXPECT_EQ(ep_.cookies_accepted, 1u);
}

// No room for the association the cookie describes: the COOKIE ECHO is
// answered with ABORT, Out of Resource, to the peer's tag, from the address
// it came to, in place of the COOKIE ACK.
TEST_F(Endpoint, CookieRefusedForWantOfResourcesIsAnsweredWithAbort)
{
	ASSERT_EQ(input(init_packet(0, 0x11223344, 5, 5)), SCTP_OOTB_REPLY);
	struct sctp_chunk c;
	reply_packet(&c);
	Bytes cookie = cookie_of(c);
	Bytes echo = cookie_echo_packet(0xabcd0001, cookie.data(), cookie.size());
	ASSERT_EQ(input(echo, kNow + 5, v4(10, 0, 0, 1), v4(10, 0, 0, 3)), SCTP_OOTB_NEW_ASSOC);
	uint64_t aborts = ep_.aborts_sent;

	struct sctp_rx rx = {};
	ASSERT_EQ(sctp_packet_parse(&rx.pkt, pkt_.data(), pkt_.size()), SCTP_PERR_OK);
	rx.src = v4(10, 0, 0, 1);
	rx.dst = v4(10, 0, 0, 3);
	ASSERT_EQ(sctp_endpoint_refuse_cookie(&ep_, &rx, &cookie_, &tx_), SCTP_OOTB_REPLY);
	struct sctp_packet p = reply_packet(&c);
	EXPECT_EQ(p.vtag, 0x11223344u);
	EXPECT_EQ(p.src_port, kServerPort);
	EXPECT_EQ(p.dst_port, kClientPort);
	ASSERT_EQ(c.type, SCTP_CHUNK_ABORT);
	EXPECT_EQ(c.flags & SCTP_FLAG_T, 0);
	Bytes body(c.value, c.value + sctp_chunk_value_len(&c));
	auto causes = codec_test::tlvs_in(SCTP_TLV_CAUSE, body);
	ASSERT_EQ(causes.list.size(), 1u);
	EXPECT_EQ(causes.list[0].type, SCTP_CAUSE_OUT_OF_RESOURCE);
	EXPECT_EQ(tx_.src.bytes[3], 3); // answered from the address it came to
	EXPECT_EQ(tx_.dst.bytes[3], 1);
	EXPECT_EQ(ep_.aborts_sent, aborts + 1);

	// A buffer too small for it: nothing to send, counted.
	uint8_t small[8];
	tx_.buf = small;
	tx_.cap = sizeof(small);
	EXPECT_EQ(sctp_endpoint_refuse_cookie(&ep_, &rx, &cookie_, &tx_), SCTP_OOTB_DISCARD);
	EXPECT_EQ(tx_.len, 0u);
	EXPECT_EQ(ep_.drops[SCTP_EP_DROP_REPLY_TOO_BIG], 1u);
}

TEST_F(Endpoint, InitRulesOfSection3_3_2And8_5_1)
{
	// Rule A of §8.5.1: an INIT in a packet whose tag is not 0.
	EXPECT_EQ(input(init_packet(7, 0x11223344, 5, 5)), SCTP_OOTB_DISCARD);
	EXPECT_EQ(drop_, SCTP_EP_DROP_INIT_NONZERO_VTAG);
	// §3.3.2: Initiate Tag 0 is silently discarded.
	EXPECT_EQ(input(init_packet(0, 0, 5, 5)), SCTP_OOTB_DISCARD);
	EXPECT_EQ(drop_, SCTP_EP_DROP_INIT_INITIATE_TAG_ZERO);
	EXPECT_EQ(tx_.len, 0u);
	// §3.3.2: OS or MIS 0: ABORT to the Initiate Tag, T bit clear,
	// Invalid Mandatory Parameter.
	for (auto streams : { std::pair<uint16_t, uint16_t>{ 0, 5 }, { 5, 0 } }) {
		ASSERT_EQ(input(init_packet(0, 0x55, streams.first, streams.second)),
			  SCTP_OOTB_REPLY);
		EXPECT_EQ(drop_, SCTP_EP_DROP_INIT_STREAMS_ZERO);
		struct sctp_chunk c;
		struct sctp_packet p = reply_packet(&c);
		EXPECT_EQ(p.vtag, 0x55u);
		ASSERT_EQ(c.type, SCTP_CHUNK_ABORT);
		EXPECT_EQ(c.flags & SCTP_FLAG_T, 0);
		Bytes body(c.value, c.value + sctp_chunk_value_len(&c));
		auto causes = codec_test::tlvs_in(SCTP_TLV_CAUSE, body);
		ASSERT_EQ(causes.list.size(), 1u);
		EXPECT_EQ(causes.list[0].type, SCTP_CAUSE_INVALID_MANDATORY_PARAM);
	}
	EXPECT_EQ(ep_.drops[SCTP_EP_DROP_INIT_STREAMS_ZERO], 2u);
	EXPECT_EQ(ep_.init_acks_sent, 0u);
}

TEST_F(Endpoint, InitWithHostNameGetsUnresolvableAddress)
{
	auto pkt = init_packet(0, 0x66, 5, 5, [](struct sctp_writer *w) {
		sctp_tlv_build(w, SCTP_PARAM_HOST_NAME_ADDR, "peer.example\0", 13);
	});
	ASSERT_EQ(input(pkt), SCTP_OOTB_REPLY);
	EXPECT_EQ(drop_, SCTP_EP_DROP_INIT_HOST_NAME);
	struct sctp_chunk c;
	struct sctp_packet p = reply_packet(&c);
	EXPECT_EQ(p.vtag, 0x66u);
	ASSERT_EQ(c.type, SCTP_CHUNK_ABORT);
	Bytes body(c.value, c.value + sctp_chunk_value_len(&c));
	auto causes = codec_test::tlvs_in(SCTP_TLV_CAUSE, body);
	ASSERT_EQ(causes.list.size(), 1u);
	EXPECT_EQ(causes.list[0].type, SCTP_CAUSE_UNRESOLVABLE_ADDR);
	// The cause carries the Host Name Address parameter itself.
	EXPECT_EQ(sctp_load_be16(causes.list[0].value), SCTP_PARAM_HOST_NAME_ADDR);
}

TEST_F(Endpoint, NotListeningAnswersInitWithAbort)
{
	ep_.cfg.listening = false;
	ASSERT_EQ(input(init_packet(0, 0x77, 5, 5)), SCTP_OOTB_REPLY);
	EXPECT_EQ(drop_, SCTP_EP_DROP_INIT_NOT_LISTENING);
	struct sctp_chunk c;
	struct sctp_packet p = reply_packet(&c);
	EXPECT_EQ(c.type, SCTP_CHUNK_ABORT);
	EXPECT_EQ(p.vtag, 0x77u);
	EXPECT_EQ(c.flags & SCTP_FLAG_T, 0); // §8.4 rule 3: tag not reflected
}

TEST_F(Endpoint, UnknownInitParametersAreReportedOrNot)
{
	// 0x4001 (01: stop, report) after 0xc0ff (11: skip, report) and 0x80ff
	// (10: skip silently); parameters after the stop are not processed.
	auto pkt = init_packet(0, 0x88, 5, 5, [](struct sctp_writer *w) {
		sctp_tlv_build(w, 0x80ff, "a", 1);
		sctp_tlv_build(w, 0xc0ff, "bb", 2);
		sctp_tlv_build(w, 0x4001, "ccc", 3);
		sctp_param_forward_tsn_supported_build(w);
	});
	ASSERT_EQ(input(pkt), SCTP_OOTB_REPLY);
	struct sctp_chunk c;
	reply_packet(&c);
	struct sctp_init ack;
	ASSERT_EQ(sctp_init_parse(&c, &ack), SCTP_PERR_OK);
	std::vector<uint16_t> reported;
	bool fwd_tsn = false;
	struct sctp_tlv_iter it;
	struct sctp_tlv t;
	sctp_tlv_iter_init(&it, SCTP_TLV_PARAM, ack.params, ack.params_len);
	while (sctp_tlv_iter_next(&it, &t)) {
		if (t.type == SCTP_PARAM_UNRECOGNIZED)
			reported.push_back(sctp_load_be16(t.value));
		fwd_tsn |= t.type == SCTP_PARAM_FORWARD_TSN_SUPPORTED;
	}
	EXPECT_EQ(reported, (std::vector<uint16_t>{ 0xc0ff, 0x4001 }));
	EXPECT_FALSE(fwd_tsn); // it came after the stop
}

TEST_F(Endpoint, CookieEchoFailures)
{
	ASSERT_EQ(input(init_packet(0, 0x99, 5, 5)), SCTP_OOTB_REPLY);
	struct sctp_chunk c;
	reply_packet(&c);
	Bytes cookie = cookie_of(c);

	// A flipped bit anywhere in the cookie: never accepted, never answered.
	for (size_t i = 0; i < cookie.size(); i++) {
		Bytes bad = cookie;
		bad[i] ^= 0x10;
		EXPECT_EQ(input(cookie_echo_packet(0xabcd0001, bad.data(), bad.size())),
			  SCTP_OOTB_DISCARD)
			<< i;
		EXPECT_TRUE(drop_ == SCTP_EP_DROP_COOKIE_BAD_MAC ||
			    drop_ == SCTP_EP_DROP_COOKIE_MALFORMED ||
			    drop_ == SCTP_EP_DROP_COOKIE_UNKNOWN_KEY)
			<< i << " " << sctp_ep_drop_name(drop_);
	}
	EXPECT_EQ(ep_.cookies_accepted, 0u);
	// Authentic cookie, wrong packet tag: RFC 9260 §5.1.5.
	EXPECT_EQ(input(cookie_echo_packet(0xabcd0002, cookie.data(), cookie.size())),
		  SCTP_OOTB_DISCARD);
	EXPECT_EQ(drop_, SCTP_EP_DROP_COOKIE_TAG_OR_PORT_MISMATCH);
	// Stale: an ERROR with Stale Cookie to the peer's tag, staleness in µs.
	uint64_t late = kNow + sctp_profile_rfc.valid_cookie_life_ns + SCTP_US(1500);
	ASSERT_EQ(input(cookie_echo_packet(0xabcd0001, cookie.data(), cookie.size()), late),
		  SCTP_OOTB_REPLY);
	EXPECT_EQ(drop_, SCTP_EP_DROP_COOKIE_STALE);
	struct sctp_packet p = reply_packet(&c);
	EXPECT_EQ(p.vtag, 0x99u);
	ASSERT_EQ(c.type, SCTP_CHUNK_ERROR);
	Bytes body(c.value, c.value + sctp_chunk_value_len(&c));
	auto causes = codec_test::tlvs_in(SCTP_TLV_CAUSE, body);
	ASSERT_EQ(causes.list.size(), 1u);
	struct sctp_cause_stale_cookie sc;
	ASSERT_EQ(sctp_cause_stale_cookie_parse(&causes.list[0], &sc), SCTP_PERR_OK);
	EXPECT_EQ(sc.staleness_us, 1500u);
	// Exactly at the end of its life it is still good.
	EXPECT_EQ(input(cookie_echo_packet(0xabcd0001, cookie.data(), cookie.size()),
			kNow + sctp_profile_rfc.valid_cookie_life_ns),
		  SCTP_OOTB_NEW_ASSOC);
}

TEST_F(Endpoint, OutOfTheBlueRulesOfSection8_4)
{
	struct sctp_chunk c;
	// Rule 2: ABORT anywhere in the packet: silent, even after a SHUTDOWN
	// ACK that alone would be answered (rule 5).
	EXPECT_EQ(input(packet_with(0x1234, "0800 0004 0600 0004")), SCTP_OOTB_DISCARD);
	EXPECT_EQ(drop_, SCTP_EP_DROP_OOTB_ABORT);
	// Rule 6: SHUTDOWN COMPLETE: silent.
	EXPECT_EQ(input(packet_with(0x1234, "0e00 0004")), SCTP_OOTB_DISCARD);
	EXPECT_EQ(drop_, SCTP_EP_DROP_OOTB_SHUTDOWN_COMPLETE);
	// Rule 7: COOKIE ACK, or an ERROR with a Stale Cookie cause: silent.
	EXPECT_EQ(input(packet_with(0x1234, "0b00 0004")), SCTP_OOTB_DISCARD);
	EXPECT_EQ(drop_, SCTP_EP_DROP_OOTB_COOKIE_ACK_OR_STALE_ERROR);
	EXPECT_EQ(input(packet_with(0x1234, "0900 000c 0003 0008 00000064")), SCTP_OOTB_DISCARD);
	EXPECT_EQ(drop_, SCTP_EP_DROP_OOTB_COOKIE_ACK_OR_STALE_ERROR);
	// Rule 5: SHUTDOWN ACK: SHUTDOWN COMPLETE, tag reflected, T bit set.
	ASSERT_EQ(input(packet_with(0x1234, "0800 0004")), SCTP_OOTB_REPLY);
	struct sctp_packet p = reply_packet(&c);
	EXPECT_EQ(c.type, SCTP_CHUNK_SHUTDOWN_COMPLETE);
	EXPECT_EQ(c.flags, SCTP_FLAG_T);
	EXPECT_EQ(p.vtag, 0x1234u);
	// Rule 8: anything else (here DATA, and an ERROR without Stale
	// Cookie): ABORT, tag reflected, T bit set.
	for (const char *chunks :
	     { "0003 0011 00000001 0000 0000 00000000 68 000000", "0900 0008 000c 0004" }) {
		ASSERT_EQ(input(packet_with(0x1234, chunks)), SCTP_OOTB_REPLY) << chunks;
		p = reply_packet(&c);
		EXPECT_EQ(c.type, SCTP_CHUNK_ABORT);
		EXPECT_EQ(c.flags, SCTP_FLAG_T);
		EXPECT_EQ(c.length, 4);
		EXPECT_EQ(p.vtag, 0x1234u);
	}
	EXPECT_EQ(ep_.aborts_sent, 2u);
	// §8.5.1 rule A: tag 0 without an INIT.
	EXPECT_EQ(input(packet_with(0, "0800 0004")), SCTP_OOTB_DISCARD);
	EXPECT_EQ(drop_, SCTP_EP_DROP_OOTB_ZERO_VTAG);
	// A malformed chunk: counted, never answered.
	EXPECT_EQ(input(packet_with(0x1234, "0300 0008 00000000")), SCTP_OOTB_DISCARD);
	EXPECT_EQ(drop_, SCTP_EP_DROP_OOTB_MALFORMED);
	EXPECT_EQ(input(packet_with(0x1234, "0000 0010 00000001 00000000 00000000")),
		  SCTP_OOTB_DISCARD);
	EXPECT_EQ(drop_, SCTP_EP_DROP_OOTB_MALFORMED);
}

TEST_F(Endpoint, NonUnicastAddressesAreIgnored)
{
	// Rule 1 of §8.4, from a multicast source or to a broadcast address.
	EXPECT_EQ(input(init_packet(0, 1, 5, 5), kNow, v4(224, 0, 0, 5)), SCTP_OOTB_DISCARD);
	EXPECT_EQ(drop_, SCTP_EP_DROP_OOTB_NON_UNICAST);
	EXPECT_EQ(input(init_packet(0, 1, 5, 5), kNow, v4(10, 0, 0, 1), v4(255, 255, 255, 255)),
		  SCTP_OOTB_DISCARD);
	uint8_t mc6[16] = { 0xff, 0x02 };
	mc6[15] = 1;
	EXPECT_EQ(input(packet_with(0x1234, "0800 0004"), kNow, sctp_addr_v6(mc6)),
		  SCTP_OOTB_DISCARD);
	EXPECT_EQ(drop_, SCTP_EP_DROP_OOTB_NON_UNICAST);
}

TEST_F(Endpoint, CookiePreservativeIsHonouredUpToTheCap)
{
	auto pkt = init_packet(0, 0x31, 5, 5, [](struct sctp_writer *w) {
		struct sctp_param_cookie_preservative cp = { 5000 }; // +5 s
		sctp_param_cookie_preservative_build(w, &cp);
	});
	ep_.cfg.profile = &sctp_profile_dc; // life 10 s, cap 10 s: no extra
	ASSERT_EQ(input(pkt), SCTP_OOTB_REPLY);
	struct sctp_chunk c;
	reply_packet(&c);
	Bytes cookie = cookie_of(c);
	struct sctp_cookie_state st;
	ASSERT_EQ(sctp_cookie_decode(&ep_.keys, cookie.data(), cookie.size(), kNow, &st, nullptr),
		  SCTP_COOKIE_OK);
	EXPECT_EQ(st.lifespan_ns, SCTP_S(10));
}

TEST_F(Endpoint, DropNamesAreDistinct)
{
	for (int i = 0; i < SCTP_EP_DROP_COUNT; i++) {
		const char *name = sctp_ep_drop_name(static_cast<enum sctp_ep_drop>(i));
		EXPECT_STRNE(name, "unknown");
		for (int j = 0; j < i; j++)
			EXPECT_STRNE(name, sctp_ep_drop_name(static_cast<enum sctp_ep_drop>(j)));
	}
}

TEST_F(Endpoint, InitFloodAllocatesNothingAndAHandshakeStillCompletes)
{
	// One million INITs from random addresses and ports. Each is
	// answered with an INIT ACK; not one allocation happens; a legitimate
	// handshake started halfway through completes.
	constexpr int kInits = 1000000;
	std::mt19937 rng(12345);
	Bytes legit_cookie;
	uint64_t now = kNow;

	// Warm the path once so lazy one-time set-up inside OpenSSL is not
	// counted as a per-INIT allocation.
	ASSERT_EQ(input(init_packet(0, 0x42, 5, 5)), SCTP_OOTB_REPLY);

	auto flood_pkt = init_packet(0, 1, 10, 10);
	g_allocs = 0;
	g_count_allocs = true;
	for (int i = 0; i < kInits; i++) {
		uint32_t r = rng();
		// Vary the Initiate Tag (bytes 16..19 of the packet) and source
		// port; the source address varies below.
		sctp_store_be32(flood_pkt.data() + 16, r | 1);
		sctp_store_be16(flood_pkt.data(), static_cast<uint16_t>(1024 + (r >> 20)));
		struct sctp_rx rx = {};
		sctp_packet_parse(&rx.pkt, flood_pkt.data(), flood_pkt.size());
		rx.src = v4(10, static_cast<uint8_t>(r >> 8), static_cast<uint8_t>(r >> 16),
			    static_cast<uint8_t>(1 + (r & 0x7f)));
		rx.dst = v4(10, 0, 0, 2);
		struct sctp_tx tx = { out_, sizeof(out_), 0, {}, {} };
		enum sctp_ep_drop drop;
		struct sctp_cookie_state st;
		now += 1000;
		if (sctp_endpoint_input(&ep_, &rx, now, &tx, &st, &drop) != SCTP_OOTB_REPLY)
			FAIL() << "INIT " << i << " not answered: " << sctp_ep_drop_name(drop);
		if (i == kInits / 2) {
			g_count_allocs = false;
			ASSERT_EQ(input(init_packet(0, 0x1e617, 5, 5), now), SCTP_OOTB_REPLY);
			struct sctp_chunk c;
			reply_packet(&c);
			legit_cookie = cookie_of(c);
			g_count_allocs = true;
		}
	}
	g_count_allocs = false;
	EXPECT_EQ(g_allocs, 0u);
	EXPECT_EQ(ep_.init_acks_sent, static_cast<uint64_t>(kInits) + 2);
	// The legitimate peer echoes its cookie after the flood.
	ASSERT_EQ(input(cookie_echo_packet(0xabcd0001, legit_cookie.data(), legit_cookie.size()),
			now),
		  SCTP_OOTB_NEW_ASSOC);
	EXPECT_EQ(cookie_.peer_vtag, 0x1e617u);
}
