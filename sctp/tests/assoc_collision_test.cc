// SPDX-License-Identifier: BSD-3-Clause
// RFC 9260 §5.2: INIT and COOKIE ECHO reaching an association that exists
// (sctp/assoc_collision.c). Byte-level cases on one association fed crafted
// INITs and COOKIE ECHOs whose cookies are made with the association's own
// endpoint keys, one test per row of §5.2.4 Table 2 and per §5.2.1 / §5.2.2
// rule; then two associations on a virtual clock: both ends connecting at
// once with every offset between their INITs, and a peer that restarts.
#include "assoc_harness.h"

extern "C" {
#include "sctp/assoc_opt.h"
#include "sctp/endpoint.h"
}

namespace {

constexpr uint32_t kNewPeerTag = 0x9ee70003;  // the peer's tag after its restart
constexpr uint32_t kNewLocalTag = 0x10ca0004; // a tag of ours the association never had

// An INIT chunk from the peer, with optional IPv4 address parameters.
Bytes
init_chunk(uint32_t tag, uint16_t os = 10, uint16_t mis = 10,
	   std::vector<struct sctp_addr> addrs = {})
{
	Bytes b(512);
	struct sctp_writer w = sctp_writer_make(b.data(), b.size());
	struct sctp_init init;
	std::memset(&init, 0, sizeof(init));
	init.type = SCTP_CHUNK_INIT;
	init.init_tag = tag;
	init.a_rwnd = 50000;
	init.os = os;
	init.mis = mis;
	init.initial_tsn = 7000;
	size_t off = sctp_init_build_begin(&w, &init);
	for (const auto &x : addrs) {
		struct sctp_param_addr pa;
		std::memset(&pa, 0, sizeof(pa));
		pa.type = SCTP_PARAM_IPV4_ADDR;
		std::memcpy(pa.addr, x.bytes, 4);
		sctp_param_addr_build(&w, &pa);
	}
	sctp_init_build_end(&w, off);
	EXPECT_TRUE(sctp_writer_ok(&w));
	b.resize(w.off);
	return b;
}

// The INIT ACK in a packet we sent, and the state in its cookie.
struct InitAck {
	uint32_t vtag; // of the packet
	struct sctp_init ack;
	struct sctp_cookie_state st;
};

InitAck
open_init_ack(const Bytes &pkt, struct sctp_endpoint *ep, uint64_t now)
{
	InitAck out;
	std::memset(&out, 0, sizeof(out));
	struct sctp_packet p;
	EXPECT_EQ(sctp_packet_parse(&p, pkt.data(), pkt.size()), SCTP_PERR_OK);
	out.vtag = p.vtag;
	struct sctp_chunk_iter it;
	struct sctp_chunk c;
	sctp_chunk_iter_init(&it, &p);
	EXPECT_TRUE(sctp_chunk_iter_next(&it, &c));
	EXPECT_EQ(c.type, SCTP_CHUNK_INIT_ACK);
	EXPECT_EQ(sctp_init_parse(&c, &out.ack), SCTP_PERR_OK);
	struct sctp_init_params prm;
	EXPECT_EQ(sctp_init_params_decode(out.ack.params, out.ack.params_len, &prm), SCTP_PERR_OK);
	EXPECT_TRUE(prm.has_cookie);
	EXPECT_EQ(sctp_cookie_decode(&ep->keys, prm.cookie, prm.cookie_len, now, &out.st, nullptr),
		  SCTP_COOKIE_OK);
	return out;
}

class Collision : public One {
      protected:
	// The state a cookie of ours would carry for this association's peer.
	struct sctp_cookie_state cookie_state(uint32_t local, uint32_t peer, uint32_t local_tie,
					      uint32_t peer_tie)
	{
		struct sctp_cookie_state st;
		std::memset(&st, 0, sizeof(st));
		st.local_vtag = local;
		st.local_initial_tsn = 900;
		st.peer_vtag = peer;
		st.peer_initial_tsn = 7000;
		st.peer_a_rwnd = 50000;
		st.outbound_streams = 7;
		st.inbound_streams = 9;
		st.local_port = kClientPort;
		st.peer_port = kServerPort;
		st.local_tie_tag = local_tie;
		st.peer_tie_tag = peer_tie;
		st.extensions = SCTP_COOKIE_EXT_FORWARD_TSN;
		st.created_ns = now_;
		st.lifespan_ns = SCTP_S(60);
		st.peer_src = peer_addr_;
		st.local_addr = local_addr_;
		return st;
	}
	Bytes cookie_echo(const struct sctp_cookie_state &st)
	{
		uint8_t ck[SCTP_COOKIE_MAX_LEN];
		size_t n = sctp_cookie_encode(&ep_.keys, &st, ck, sizeof(ck));
		EXPECT_GT(n, 0u);
		Bytes b(n + 8);
		struct sctp_writer w = sctp_writer_make(b.data(), b.size());
		struct sctp_cookie ce = { SCTP_CHUNK_COOKIE_ECHO, 0, ck, static_cast<uint16_t>(n) };
		sctp_cookie_build(&w, &ce);
		EXPECT_TRUE(sctp_writer_ok(&w));
		b.resize(w.off);
		return b;
	}
	// A COOKIE ECHO carrying st, in a packet with the cookie's own tag.
	void echo(const struct sctp_cookie_state &st)
	{
		input(st.local_vtag, cookie_echo(st));
	}
	size_t drops(enum sctp_assoc_drop d) const
	{
		return counters_.drops[d];
	}
};

// ---- §5.2.1: INIT in COOKIE-WAIT and COOKIE-ECHOED ---------------------

TEST_F(Collision, InitInCookieWaitIsAnsweredWithOurOwnTagAndNoTieTags)
{
	connect();
	uint64_t t1 = a_.timer_at[SCTP_ASSOC_T1_INIT];
	now_ += SCTP_MS(10);
	input(0, init_chunk(0xabcd0001));
	ASSERT_EQ(sent_.size(), 2u);
	InitAck ia = open_init_ack(last().bytes, &ep_, now_);
	EXPECT_EQ(ia.vtag, 0xabcd0001u);	// to the INIT's Initiate Tag
	EXPECT_EQ(ia.ack.init_tag, kClientTag); // "including its Initiate Tag, unchanged"
	EXPECT_EQ(ia.ack.initial_tsn, a_.local_initial_tsn);
	EXPECT_EQ(ia.st.local_vtag, kClientTag);
	EXPECT_EQ(ia.st.peer_vtag, 0xabcd0001u);
	EXPECT_EQ(ia.st.local_tie_tag, 0u); // §5.2.2 note: none in COOKIE-WAIT
	EXPECT_EQ(ia.st.peer_tie_tag, 0u);
	EXPECT_TRUE(sctp_addr_eq(&last().dst, &peer_addr_)); // rule 3: to the source
	// "MUST NOT change its state, and the T1-init timer shall be left running".
	EXPECT_EQ(a_.state, SCTP_ASSOC_COOKIE_WAIT);
	EXPECT_EQ(a_.timer_at[SCTP_ASSOC_T1_INIT], t1);
	EXPECT_EQ(a_.peer_vtag, 0u);
	EXPECT_TRUE(notes_.empty());
}

TEST_F(Collision, InitInCookieWaitGoesOnlyToAnAddressTheUserGave)
{
	connect();
	// From an address the user did not give, naming none it gave: rules 1, 2.
	input(0, init_chunk(0xabcd0001), v4(10, 9, 9, 9));
	EXPECT_EQ(sent_.size(), 1u);
	EXPECT_EQ(drops(SCTP_ASSOC_DROP_INIT_NO_ROUTE), 1u);
	// From elsewhere, but listing the address the user gave: the INIT ACK
	// goes to that address (rule 1), not to the source.
	input(0, init_chunk(0xabcd0002, 10, 10, { peer_addr_ }), v4(10, 9, 9, 9));
	ASSERT_EQ(sent_.size(), 2u);
	EXPECT_EQ(last().first, SCTP_CHUNK_INIT_ACK);
	EXPECT_TRUE(sctp_addr_eq(&last().dst, &peer_addr_));
}

TEST_F(Collision, InitInCookieEchoedCarriesBothTagsAsTieTags)
{
	to_cookie_echoed();
	uint64_t t1 = a_.timer_at[SCTP_ASSOC_T1_COOKIE];
	input(0, init_chunk(0xabcd0001));
	InitAck ia = open_init_ack(last().bytes, &ep_, now_);
	EXPECT_EQ(ia.vtag, 0xabcd0001u);
	EXPECT_EQ(ia.ack.init_tag, kClientTag);
	EXPECT_EQ(ia.st.local_tie_tag, kClientTag);
	EXPECT_EQ(ia.st.peer_tie_tag, kServerTag);
	EXPECT_EQ(a_.state, SCTP_ASSOC_COOKIE_ECHOED);
	EXPECT_EQ(a_.timer_at[SCTP_ASSOC_T1_COOKIE], t1);
	EXPECT_EQ(a_.peer_vtag, kServerTag);
}

TEST_F(Collision, InitAddingAnAddressIsAbortedWithTheNewAddresses)
{
	to_cookie_echoed();
	struct sctp_assoc before;
	std::memcpy(&before, &a_, sizeof(a_));
	size_t n = sent_.size();
	input(0, init_chunk(0xabcd0001, 10, 10, { peer_addr_, v4(10, 0, 0, 7) }));
	ASSERT_EQ(sent_.size(), n + 1);
	Packet p = decode(last().bytes);
	EXPECT_EQ(p.vtag, 0xabcd0001u); // "copying the Initiate Tag of the unexpected INIT"
	ASSERT_EQ(p.chunks.size(), 1u);
	EXPECT_EQ(p.chunks[0].type, SCTP_CHUNK_ABORT);
	EXPECT_EQ(p.chunks[0].flags & SCTP_FLAG_T, 0);
	auto causes = causes_of(p.chunks[0].value);
	ASSERT_EQ(causes.size(), 1u);
	EXPECT_EQ(causes[0].first, SCTP_CAUSE_RESTART_WITH_NEW_ADDRS);
	EXPECT_EQ(causes[0].second, hex::bytes("0005 0008 0a000007")); // only the new one
	EXPECT_EQ(drops(SCTP_ASSOC_DROP_INIT_NEW_ADDRS), 1u);
	EXPECT_EQ(std::memcmp(&before, &a_, sizeof(a_)), 0)
		<< "NO changes should be made to the existing association";
}

// ---- §5.2.2: INIT in the established states ----------------------------

TEST_F(Collision, UnexpectedInitGetsANewTagAndTieTagsAndChangesNothing)
{
	for (auto s : { SCTP_ASSOC_ESTABLISHED, SCTP_ASSOC_SHUTDOWN_PENDING,
			SCTP_ASSOC_SHUTDOWN_SENT, SCTP_ASSOC_SHUTDOWN_RECEIVED }) {
		SCOPED_TRACE(sctp_assoc_state_name(s));
		TearDown();
		make_endpoint();
		sent_.clear();
		next_tag_ = 0;
		to_state(s);
		next_tag_ = kNewLocalTag;
		struct sctp_assoc before;
		std::memcpy(&before, &a_, sizeof(a_));
		input(0, init_chunk(kNewPeerTag));
		InitAck ia = open_init_ack(last().bytes, &ep_, now_);
		EXPECT_EQ(ia.vtag, kNewPeerTag);
		EXPECT_EQ(ia.ack.init_tag, kNewLocalTag); // "a new Initiate Tag"
		EXPECT_EQ(ia.st.local_vtag, kNewLocalTag);
		EXPECT_EQ(ia.st.local_tie_tag, kClientTag);
		EXPECT_EQ(ia.st.peer_tie_tag, kServerTag);
		EXPECT_TRUE(sctp_addr_eq(&last().dst, &peer_addr_));
		EXPECT_EQ(std::memcmp(&before, &a_, sizeof(a_)), 0);
	}
}

// RFC 6458 ASSOCINFO sasoc_cookie_life set on the association: the cookie
// its own INIT ACK carries lives that long; without its own value, the
// endpoint's.
TEST_F(Collision, AnAssociationsInitAckCookieHasItsOwnLife)
{
	to_state(SCTP_ASSOC_ESTABLISHED);
	next_tag_ = kNewLocalTag;
	input(0, init_chunk(kNewPeerTag));
	InitAck ia = open_init_ack(last().bytes, &ep_, now_);
	EXPECT_EQ(ia.st.lifespan_ns, ep_.cfg.profile->valid_cookie_life_ns);
	EXPECT_NE(ep_.cfg.profile->valid_cookie_life_ns, SCTP_S(5));

	struct sctp_assoc_opts o;
	sctp_assoc_opts_init(&o, &a_);
	o.profile.valid_cookie_life_ns = SCTP_S(5);
	const char *why = nullptr;
	ASSERT_EQ(sctp_assoc_set_opts(&a_, &o, now_, &why), 0) << why;
	input(0, init_chunk(kNewPeerTag));
	ia = open_init_ack(last().bytes, &ep_, now_);
	EXPECT_EQ(ia.st.lifespan_ns, SCTP_S(5));
	sctp_assoc_clear_opts(&a_);
}

TEST_F(Collision, InvalidInitsAreRefusedAsInClosed)
{
	to_established();
	size_t n = sent_.size();
	input(0, init_chunk(0)); // §3.3.2: Initiate Tag 0, silently discarded
	EXPECT_EQ(sent_.size(), n);
	input(0, init_chunk(0xabcd0001, 0, 10)); // OS 0: ABORT, Invalid Mandatory Parameter
	ASSERT_EQ(sent_.size(), n + 1);
	Packet p = decode(last().bytes);
	EXPECT_EQ(p.vtag, 0xabcd0001u);
	EXPECT_EQ(p.chunks[0].type, SCTP_CHUNK_ABORT);
	EXPECT_EQ(causes_of(p.chunks[0].value)[0].first, SCTP_CAUSE_INVALID_MANDATORY_PARAM);
	EXPECT_EQ(drops(SCTP_ASSOC_DROP_INIT_INVALID), 2u);
	EXPECT_EQ(a_.state, SCTP_ASSOC_ESTABLISHED);
	// An INIT needs tag 0 (§8.5.1 A): in a packet with our tag it is dropped.
	input(kClientTag, init_chunk(0xabcd0002));
	EXPECT_EQ(drops(SCTP_ASSOC_DROP_BAD_VTAG), 1u);
}

// ---- §5.2.4: the four COOKIE ECHO cases --------------------------------

TEST_F(Collision, CaseARestartsTheAssociation)
{
	to_established();
	now_ += SCTP_S(5);
	echo(cookie_state(kNewLocalTag, kNewPeerTag, kClientTag, kServerTag));
	EXPECT_EQ(a_.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_EQ(a_.local_vtag, kNewLocalTag);
	EXPECT_EQ(a_.peer_vtag, kNewPeerTag);
	EXPECT_EQ(a_.local_initial_tsn, 900u);
	EXPECT_EQ(a_.peer_initial_tsn, 7000u);
	EXPECT_EQ(a_.outbound_streams, 7u);
	EXPECT_EQ(a_.inbound_streams, 9u);
	EXPECT_EQ(a_.paths.first.rto.rto_ns,
		  prof_.rto_initial_ns); // §6.2.1: back to initial values
	EXPECT_EQ(counters_.restarts, 1u);
	ASSERT_EQ(notes_.size(), 2u);
	EXPECT_EQ(notes_[1].n.type, SCTP_NOTIFY_RESTART);
	EXPECT_EQ(notes_[1].n.outbound_streams, 7u);
	Packet p = decode(last().bytes);
	EXPECT_EQ(p.vtag, kNewPeerTag);
	ASSERT_EQ(p.chunks.size(), 1u);
	EXPECT_EQ(p.chunks[0].type, SCTP_CHUNK_COOKIE_ACK);
	// The new tags hold from now on: a HEARTBEAT with the old one is dropped.
	input_hex(kClientTag, "04000008 00010004");
	EXPECT_EQ(drops(SCTP_ASSOC_DROP_BAD_VTAG), 1u);
	input_hex(kNewLocalTag, "04000008 00010004");
	EXPECT_EQ(decode(last().bytes).chunks[0].type, SCTP_CHUNK_HEARTBEAT_ACK);
}

TEST_F(Collision, CaseAWhileShuttingDownOnlyRepeatsTheShutdownAck)
{
	to_state(SCTP_ASSOC_SHUTDOWN_ACK_SENT);
	struct sctp_assoc before;
	std::memcpy(&before, &a_, sizeof(a_));
	echo(cookie_state(kNewLocalTag, kNewPeerTag, kClientTag, kServerTag));
	Packet p = decode(last().bytes);
	EXPECT_EQ(p.vtag, kNewPeerTag);
	ASSERT_EQ(p.chunks.size(), 2u);
	EXPECT_EQ(p.chunks[0].type, SCTP_CHUNK_SHUTDOWN_ACK);
	EXPECT_EQ(p.chunks[1].type, SCTP_CHUNK_ERROR);
	EXPECT_EQ(causes_of(p.chunks[1].value)[0].first, SCTP_CAUSE_COOKIE_WHILE_SHUTTING_DOWN);
	EXPECT_EQ(drops(SCTP_ASSOC_DROP_COOKIE_WHILE_SHUTTING_DOWN), 1u);
	EXPECT_EQ(counters_.restarts, 0u);
	EXPECT_EQ(std::memcmp(&before, &a_, sizeof(a_)), 0);
}

TEST_F(Collision, CaseAWithAShutdownUnderWayRestartsThenShutsDown)
{
	to_state(SCTP_ASSOC_SHUTDOWN_SENT);
	echo(cookie_state(kNewLocalTag, kNewPeerTag, kClientTag, kServerTag));
	EXPECT_EQ(a_.state, SCTP_ASSOC_SHUTDOWN_SENT);
	EXPECT_EQ(a_.local_vtag, kNewLocalTag);
	Packet p = decode(last().bytes);
	EXPECT_EQ(p.vtag, kNewPeerTag);
	EXPECT_EQ(p.chunks[0].type, SCTP_CHUNK_SHUTDOWN);
	EXPECT_EQ(notes_.back().n.type, SCTP_NOTIFY_RESTART);
}

TEST_F(Collision, CaseBInCookieWaitEstablishesWithThePeersCookie)
{
	connect();
	echo(cookie_state(kClientTag, kNewPeerTag, 0, 0));
	EXPECT_EQ(a_.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_EQ(a_.peer_vtag, kNewPeerTag);
	EXPECT_EQ(a_.peer_initial_tsn, 7000u);
	EXPECT_EQ(a_.peer_a_rwnd, 50000u);
	EXPECT_EQ(a_.outbound_streams, 7u);
	// Our Initial TSN is the one the peer got with this cookie (here a
	// stateless INIT ACK of the endpoint made it, before our INIT left).
	EXPECT_EQ(a_.local_initial_tsn, 900u);
	EXPECT_EQ(a_.timer_at[SCTP_ASSOC_T1_INIT], SCTP_TIME_NEVER);
	ASSERT_EQ(notes_.size(), 1u);
	EXPECT_EQ(notes_[0].n.type, SCTP_NOTIFY_COMM_UP);
	Packet p = decode(last().bytes);
	EXPECT_EQ(p.vtag, kNewPeerTag);
	EXPECT_EQ(p.chunks[0].type, SCTP_CHUNK_COOKIE_ACK);
}

TEST_F(Collision, CaseBInCookieEchoedAndEstablishedTakesThePeersNewTag)
{
	to_cookie_echoed();
	echo(cookie_state(kClientTag, kNewPeerTag, kClientTag, kServerTag));
	EXPECT_EQ(a_.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_EQ(a_.peer_vtag, kNewPeerTag);
	EXPECT_EQ(a_.timer_at[SCTP_ASSOC_T1_COOKIE], SCTP_TIME_NEVER);
	EXPECT_EQ(notes_.size(), 1u);
	// Once established only the tag moves ("MUST update its peer's
	// Verification Tag"); the user hears nothing new.
	uint32_t tsn = a_.peer_initial_tsn;
	echo(cookie_state(kClientTag, kServerTag + 7, 0, 0));
	EXPECT_EQ(a_.peer_vtag, kServerTag + 7);
	EXPECT_EQ(a_.peer_initial_tsn, tsn);
	EXPECT_EQ(notes_.size(), 1u);
	EXPECT_EQ(decode(last().bytes).chunks[0].type, SCTP_CHUNK_COOKIE_ACK);
	EXPECT_EQ(decode(last().bytes).vtag, kServerTag + 7);
}

TEST_F(Collision, CaseCIsALateCookieAndChangesNothing)
{
	to_established();
	struct sctp_assoc before;
	std::memcpy(&before, &a_, sizeof(a_));
	size_t n = sent_.size();
	// Our own tag is new (our INIT was answered afresh), the peer's the same.
	Bytes chunks = cookie_echo(cookie_state(kNewLocalTag, kServerTag, 0, 0));
	Bytes hb = hex::bytes("04000008 00010004");
	chunks.insert(chunks.end(), hb.begin(), hb.end());
	input(kNewLocalTag, chunks);
	EXPECT_EQ(sent_.size(), n);
	EXPECT_EQ(drops(SCTP_ASSOC_DROP_COOKIE_LATE), 1u);
	EXPECT_EQ(std::memcmp(&before, &a_, sizeof(a_)), 0);
}

TEST_F(Collision, CaseDRepeatsTheCookieAck)
{
	to_established();
	echo(cookie_state(kClientTag, kServerTag, 0, 0));
	EXPECT_EQ(decode(last().bytes).chunks[0].type, SCTP_CHUNK_COOKIE_ACK);
	EXPECT_EQ(a_.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_EQ(notes_.size(), 1u);
}

TEST_F(Collision, CookiesOfNoCaseAreDiscarded)
{
	to_established();
	size_t n = sent_.size();
	// Both tags new and tie-tags that are not ours: no row of Table 2.
	echo(cookie_state(kNewLocalTag, kNewPeerTag, 0x1111, 0x2222));
	// Both tags new and zero tie-tags: not case C either (the peer's differs).
	echo(cookie_state(kNewLocalTag, kNewPeerTag, 0, 0));
	EXPECT_EQ(sent_.size(), n);
	EXPECT_EQ(drops(SCTP_ASSOC_DROP_COOKIE_NO_CASE), 2u);
	EXPECT_EQ(a_.local_vtag, kClientTag);
}

TEST_F(Collision, StaleCookiesCountOnlyForCaseD)
{
	to_established();
	struct sctp_cookie_state a =
		cookie_state(kNewLocalTag, kNewPeerTag, kClientTag, kServerTag);
	struct sctp_cookie_state d = cookie_state(kClientTag, kServerTag, 0, 0);
	now_ += SCTP_S(61); // both expired a second ago
	echo(a);
	Packet p = decode(last().bytes);
	EXPECT_EQ(p.vtag, kNewPeerTag);
	ASSERT_EQ(p.chunks[0].type, SCTP_CHUNK_ERROR);
	auto causes = causes_of(p.chunks[0].value);
	EXPECT_EQ(causes[0].first, SCTP_CAUSE_STALE_COOKIE);
	EXPECT_EQ(causes[0].second, hex::bytes("000f4240")); // 1 s late, in µs
	EXPECT_EQ(drops(SCTP_ASSOC_DROP_COOKIE_STALE), 1u);
	EXPECT_EQ(counters_.restarts, 0u);
	echo(d);
	EXPECT_EQ(decode(last().bytes).chunks[0].type, SCTP_CHUNK_COOKIE_ACK);
}

TEST_F(Collision, ForgedAndMisaddressedCookiesAreRefused)
{
	to_established();
	Bytes ce = cookie_echo(cookie_state(kNewLocalTag, kNewPeerTag, kClientTag, kServerTag));
	// The packet's tag must be the cookie's own (§5.1.5-like).
	input(kClientTag, ce);
	EXPECT_EQ(drops(SCTP_ASSOC_DROP_COOKIE_TAG_OR_PORT_MISMATCH), 1u);
	// One bit of the cookie's creation time flipped: the MAC no longer holds.
	Bytes bad = ce;
	bad[4 + 4] ^= 1;
	input(kNewLocalTag, bad);
	EXPECT_EQ(drops(SCTP_ASSOC_DROP_COOKIE_REFUSED), 1u);
	EXPECT_EQ(counters_.restarts, 0u);
	EXPECT_EQ(a_.local_vtag, kClientTag);
}

// ---- Two associations on a virtual clock -------------------------------

class PairCollision : public ::testing::TestWithParam<const struct sctp_profile *> {};

INSTANTIATE_TEST_SUITE_P(Profiles, PairCollision,
			 ::testing::Values(&sctp_profile_rfc, &sctp_profile_dc),
			 [](const ::testing::TestParamInfo<const struct sctp_profile *> &info) {
				 return std::string(info.param == &sctp_profile_rfc ? "Rfc" : "Dc");
			 });

// §5.2.1 + §5.2.4: both ends connect to each other, the second INIT leaving
// at every offset from 0 to past the first handshake's COOKIE ECHO. Each
// end ends with one association, ESTABLISHED, tags crosswise, COMM_UP once.
TEST_P(PairCollision, BothEndsConnectingAtOnceMakeOneAssociation)
{
	const struct sctp_profile *prof = GetParam();
	uint64_t d = one_way_delay(prof);
	for (uint64_t off = 0; off <= 5 * d; off += d / 4) {
		SCOPED_TRACE("second INIT " + std::to_string(off) + " ns after the first");
		Sim sim(prof, prof, d);
		sim.connect_from(sim.c);
		sim.run(sim.now + off);
		sim.now = kT0 + off;
		if (sim.s.has_assoc)
			continue; // the first handshake already reached the server
		sim.connect_from(sim.s);
		sim.run();
		for (Side *x : { &sim.c, &sim.s }) {
			SCOPED_TRACE(x->name);
			EXPECT_EQ(x->a.state, SCTP_ASSOC_ESTABLISHED);
			ASSERT_EQ(x->notes.size(), 1u);
			EXPECT_EQ(x->notes[0].n.type, SCTP_NOTIFY_COMM_UP);
			// Answers to the handshake that lost: §5.2.3, §5.2.5 discards.
			expect_no_drops(*x, { SCTP_ASSOC_DROP_COOKIE_ACK_UNEXPECTED,
					      SCTP_ASSOC_DROP_INIT_ACK_UNEXPECTED });
		}
		EXPECT_EQ(sim.c.a.peer_vtag, sim.s.a.local_vtag);
		EXPECT_EQ(sim.s.a.peer_vtag, sim.c.a.local_vtag);
		EXPECT_EQ(sim.c.a.peer_initial_tsn, sim.s.a.local_initial_tsn);
		EXPECT_EQ(sim.s.a.peer_initial_tsn, sim.c.a.local_initial_tsn);
		// Then they close cleanly, as one association.
		ASSERT_EQ(sctp_assoc_shutdown(&sim.c.a, sim.now), 0);
		sim.run();
		EXPECT_EQ(sim.c.a.state, SCTP_ASSOC_CLOSED);
		EXPECT_EQ(sim.s.a.state, SCTP_ASSOC_CLOSED);
		EXPECT_EQ(sim.s.notes.back().n.type, SCTP_NOTIFY_SHUTDOWN_COMPLETE);
	}
}

// §5.2.2 + §5.2.4 A: the client loses its association (a crash) and
// connects again with a new tag; the server's established association
// answers the INIT with tie-tags and restarts on the COOKIE ECHO.
TEST_P(PairCollision, PeerRestartIsRecognisedAndNotified)
{
	const struct sctp_profile *prof = GetParam();
	Sim sim(prof, prof, one_way_delay(prof));
	sim.s.fresh_tags = true;
	sim.handshake();
	uint32_t old_server_tag = sim.s.a.local_vtag;
	// The client forgets everything and starts again with a new tag.
	sim.c.tag = kClientTag + 100;
	sctp_assoc_init(&sim.c.a, &sim.ops, &sim.c, &sim.c.counters, &sim.c.stats);
	sim.connect();
	sim.run();
	EXPECT_EQ(sim.c.a.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_EQ(sim.s.a.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_NE(sim.s.a.local_vtag, old_server_tag);
	EXPECT_EQ(sim.s.a.peer_vtag, kClientTag + 100);
	EXPECT_EQ(sim.c.a.peer_vtag, sim.s.a.local_vtag);
	EXPECT_EQ(sim.s.a.peer_initial_tsn, sim.c.a.local_initial_tsn);
	EXPECT_EQ(sim.s.counters.restarts, 1u);
	ASSERT_EQ(sim.s.notes.size(), 2u);
	EXPECT_EQ(sim.s.notes[1].n.type, SCTP_NOTIFY_RESTART);
	EXPECT_EQ(sim.c.notes.back().n.type, SCTP_NOTIFY_COMM_UP);
	expect_no_drops(sim.s);
	// The restarted association closes normally.
	ASSERT_EQ(sctp_assoc_shutdown(&sim.s.a, sim.now), 0);
	sim.run();
	EXPECT_EQ(sim.c.a.state, SCTP_ASSOC_CLOSED);
	EXPECT_EQ(sim.s.a.state, SCTP_ASSOC_CLOSED);
}

} // namespace
