// SPDX-License-Identifier: BSD-3-Clause
// The association state machine (sctp/assoc.h): every table cell is a
// handler or a named discard; two associations on a virtual clock (a client
// association against a server endpoint whose cookie creates the server
// association) through handshake, shutdown from either side or both,
// abort, lost INITs, COOKIE ECHOs and SHUTDOWN ACKs, Stale Cookie restarts,
// for both profiles with the virtual times asserted; and one association
// fed crafted packets for the verification-tag rules of RFC 9260 §8.5 and
// §8.5.1, the INIT ACK checks, and every wrong-state chunk of every row.
#include "assoc_harness.h"

namespace {

class Pair : public ::testing::TestWithParam<const struct sctp_profile *> {
      protected:
	const struct sctp_profile *prof() const
	{
		return GetParam();
	}
	uint64_t d() const
	{
		return one_way_delay(prof());
	}
	// The client's RTO after the handshake: RTT samples of 2d (INIT / INIT
	// ACK and COOKIE ECHO / COOKIE ACK) give 5d, below RTO.Min in both
	// profiles (250 ms < 1 s; 100 us < 500 us).
	uint64_t client_rto() const
	{
		return std::max(prof()->rto_min_ns, 5 * d());
	}
};

INSTANTIATE_TEST_SUITE_P(Profiles, Pair, ::testing::Values(&sctp_profile_rfc, &sctp_profile_dc),
			 [](const ::testing::TestParamInfo<const struct sctp_profile *> &info) {
				 return std::string(info.param == &sctp_profile_rfc ? "Rfc" : "Dc");
			 });

TEST_P(Pair, HandshakeEstablishesBothSides)
{
	Sim sim(prof(), prof(), d());
	sim.handshake();
	auto &c = sim.c, &s = sim.s;
	// RFC 9260 §5.1: INIT, INIT ACK, COOKIE ECHO, COOKIE ACK, one each.
	EXPECT_EQ(c.firsts(), (std::vector<uint8_t>{ SCTP_CHUNK_INIT, SCTP_CHUNK_COOKIE_ECHO }));
	EXPECT_EQ(s.firsts(), (std::vector<uint8_t>{ SCTP_CHUNK_INIT_ACK, SCTP_CHUNK_COOKIE_ACK }));
	EXPECT_EQ(c.times_of(SCTP_CHUNK_COOKIE_ECHO), std::vector<uint64_t>{ kT0 + 2 * d() });
	ASSERT_EQ(c.notes.size(), 1u);
	ASSERT_EQ(s.notes.size(), 1u);
	EXPECT_EQ(c.notes[0].n.type, SCTP_NOTIFY_COMM_UP);
	EXPECT_EQ(s.notes[0].n.type, SCTP_NOTIFY_COMM_UP);
	EXPECT_EQ(s.notes[0].at, kT0 + 3 * d()); // the COOKIE ECHO arrives
	EXPECT_EQ(c.notes[0].at, kT0 + 4 * d()); // the COOKIE ACK arrives
	// Tags, TSNs and streams agree crosswise (§5.1.1: min of offer and limit).
	EXPECT_EQ(c.a.local_vtag, kClientTag);
	EXPECT_EQ(s.a.local_vtag, kServerTag);
	EXPECT_EQ(c.a.peer_vtag, kServerTag);
	EXPECT_EQ(s.a.peer_vtag, kClientTag);
	EXPECT_EQ(c.a.peer_initial_tsn, s.a.local_initial_tsn);
	EXPECT_EQ(s.a.peer_initial_tsn, c.a.local_initial_tsn);
	EXPECT_EQ(c.a.outbound_streams, prof()->out_streams);
	EXPECT_EQ(c.a.inbound_streams, prof()->out_streams);
	EXPECT_EQ(c.notes[0].n.outbound_streams, c.a.outbound_streams);
	EXPECT_EQ(c.a.extensions & SCTP_COOKIE_EXT_FORWARD_TSN, SCTP_COOKIE_EXT_FORWARD_TSN);
	EXPECT_EQ(s.a.extensions, c.a.extensions);
	EXPECT_EQ(c.notes[0].n.extensions, c.a.extensions);
	// Only the heartbeat timer runs in ESTABLISHED (§8.3), due one period
	// (RTO + HB.interval, jittered by up to RTO / 2) after an idle start
	// placed at random within the interval before COMM_UP (sctp/path.c
	// path_start()); the client measured its RTT.
	for (const Side *x : { &c, &s }) {
		for (unsigned t = 0; t < SCTP_ASSOC_TIMER_COUNT; t++) {
			if (t != SCTP_ASSOC_T_HEARTBEAT) {
				EXPECT_EQ(x->a.timer_at[t], SCTP_TIME_NEVER) << x->name << " " << t;
			}
		}
		uint64_t rto = x->a.paths.first.rto.rto_ns, up = x->notes[0].at;
		uint64_t hb = sctp_assoc_next_wakeup(&x->a);
		EXPECT_EQ(hb, x->a.timer_at[SCTP_ASSOC_T_HEARTBEAT]);
		EXPECT_GE(hb, up + rto / 2) << x->name;
		EXPECT_LT(hb, up + prof()->hb_interval_ns + rto + rto / 2) << x->name;
	}
	EXPECT_EQ(c.a.paths.first.rto.rto_ns, client_rto());
	EXPECT_EQ(s.a.paths.first.rto.rto_ns, prof()->rto_initial_ns);
	expect_no_drops(c);
	expect_no_drops(s);
}

// §9.2, the side that calls shutdown first: SHUTDOWN, SHUTDOWN ACK,
// SHUTDOWN COMPLETE; both notified, both CLOSED and freeable.
void
check_graceful_shutdown(Sim &sim, Side &x, Side &y, uint64_t d)
{
	uint64_t t1 = sim.now;
	ASSERT_EQ(sctp_assoc_shutdown(&x.a, t1), 0);
	EXPECT_EQ(x.a.state, SCTP_ASSOC_SHUTDOWN_SENT);
	sim.run();
	for (Side *z : { &x, &y }) {
		EXPECT_EQ(z->a.state, SCTP_ASSOC_CLOSED) << z->name;
		EXPECT_TRUE(sctp_assoc_freeable(&z->a)) << z->name;
		ASSERT_EQ(z->notes.size(), 2u) << z->name;
		EXPECT_EQ(z->notes[1].n.type, SCTP_NOTIFY_SHUTDOWN_COMPLETE) << z->name;
		EXPECT_EQ(z->notes[1].n.reason, SCTP_ASSOC_REASON_SHUTDOWN) << z->name;
		EXPECT_EQ(sctp_assoc_next_wakeup(&z->a), SCTP_TIME_NEVER);
		expect_no_drops(*z);
	}
	EXPECT_EQ(x.notes[1].at, t1 + 2 * d);
	EXPECT_EQ(y.notes[1].at, t1 + 3 * d);
	Packet sd = decode(x.last_of(SCTP_CHUNK_SHUTDOWN).bytes);
	EXPECT_EQ(sd.vtag, y.a.local_vtag);
	ASSERT_EQ(sd.chunks.size(), 1u);
	// No DATA yet: the cumulative TSN ack is the peer's Initial TSN - 1.
	EXPECT_EQ(sctp_load_be32(sd.chunks[0].value.data()), y.a.local_initial_tsn - 1);
	Packet ack = decode(y.last_of(SCTP_CHUNK_SHUTDOWN_ACK).bytes);
	EXPECT_EQ(ack.vtag, x.a.local_vtag);
	Packet done = decode(x.last_of(SCTP_CHUNK_SHUTDOWN_COMPLETE).bytes);
	EXPECT_EQ(done.vtag, y.a.local_vtag);
	EXPECT_EQ(done.chunks[0].flags & SCTP_FLAG_T, 0); // §8.5.1 C: we have a TCB
}

TEST_P(Pair, ClientShutsDown)
{
	Sim sim(prof(), prof(), d());
	sim.handshake();
	check_graceful_shutdown(sim, sim.c, sim.s, d());
}

TEST_P(Pair, ServerShutsDown)
{
	Sim sim(prof(), prof(), d());
	sim.handshake();
	check_graceful_shutdown(sim, sim.s, sim.c, d());
}

// §9.2: SHUTDOWN received in SHUTDOWN-SENT (the simultaneous shutdown of
// pkts__sctp_init_collision.cap): both answer SHUTDOWN ACK, both answer the
// other's SHUTDOWN ACK with SHUTDOWN COMPLETE, which then meets no TCB and
// is dropped by the endpoint (§8.4 rule 6).
TEST_P(Pair, BothShutDownAtOnce)
{
	Sim sim(prof(), prof(), d());
	sim.handshake();
	uint64_t t1 = sim.now;
	ASSERT_EQ(sctp_assoc_shutdown(&sim.c.a, t1), 0);
	ASSERT_EQ(sctp_assoc_shutdown(&sim.s.a, t1), 0);
	sim.run();
	for (Side *z : { &sim.c, &sim.s }) {
		EXPECT_EQ(z->firsts().size(), 5u)
			<< z->name; // handshake 2, SHUTDOWN, ACK, COMPLETE
		EXPECT_EQ(z->times_of(SCTP_CHUNK_SHUTDOWN_ACK), std::vector<uint64_t>{ t1 + d() });
		EXPECT_EQ(z->times_of(SCTP_CHUNK_SHUTDOWN_COMPLETE),
			  std::vector<uint64_t>{ t1 + 2 * d() });
		ASSERT_EQ(z->notes.size(), 2u);
		EXPECT_EQ(z->notes[1].n.type, SCTP_NOTIFY_SHUTDOWN_COMPLETE);
		EXPECT_EQ(z->notes[1].at, t1 + 2 * d());
		EXPECT_TRUE(sctp_assoc_freeable(&z->a));
		EXPECT_EQ(z->ep.drops[SCTP_EP_DROP_OOTB_SHUTDOWN_COMPLETE], 1u) << z->name;
		expect_no_drops(*z);
	}
}

void
check_abort(Sim &sim, Side &x, Side &y, uint64_t d)
{
	uint64_t t1 = sim.now;
	const uint8_t reason[] = { 'b', 'y', 'e' };
	ASSERT_EQ(sctp_assoc_abort(&x.a, t1, reason, sizeof(reason)), 0);
	// The aborting side is closed at once.
	EXPECT_TRUE(sctp_assoc_freeable(&x.a));
	ASSERT_EQ(x.notes.size(), 2u);
	EXPECT_EQ(x.notes[1].n.type, SCTP_NOTIFY_COMM_LOST);
	EXPECT_EQ(x.notes[1].n.reason, SCTP_ASSOC_REASON_USER_ABORT);
	sim.run();
	Packet ab = decode(x.last_of(SCTP_CHUNK_ABORT).bytes);
	EXPECT_EQ(ab.vtag, y.a.local_vtag);
	EXPECT_EQ(ab.chunks[0].flags & SCTP_FLAG_T, 0);
	// RFC 9260 §9.1: the peer is told, with the User-Initiated Abort cause.
	ASSERT_EQ(y.notes.size(), 2u);
	const Note &n = y.notes[1];
	EXPECT_EQ(n.at, t1 + d);
	EXPECT_EQ(n.n.type, SCTP_NOTIFY_COMM_LOST);
	EXPECT_EQ(n.n.reason, SCTP_ASSOC_REASON_PEER_ABORT);
	EXPECT_EQ(n.n.error, SCTP_CAUSE_USER_INITIATED_ABORT);
	auto causes = causes_of(n.causes);
	ASSERT_EQ(causes.size(), 1u);
	EXPECT_EQ(causes[0].second, Bytes(reason, reason + sizeof(reason)));
	EXPECT_TRUE(sctp_assoc_freeable(&y.a));
	EXPECT_EQ(sctp_assoc_abort(&x.a, sim.now, nullptr, 0), -ENOTCONN);
	expect_no_drops(x, { SCTP_ASSOC_DROP_USER_NOT_CONNECTED });
	expect_no_drops(y);
}

TEST_P(Pair, ClientAborts)
{
	Sim sim(prof(), prof(), d());
	sim.handshake();
	check_abort(sim, sim.c, sim.s, d());
}

TEST_P(Pair, ServerAborts)
{
	Sim sim(prof(), prof(), d());
	sim.handshake();
	check_abort(sim, sim.s, sim.c, d());
}

// §5.1 A, §6.3.3: a lost INIT is sent again when T1-init expires, at
// RTO.Initial, then twice that.
TEST_P(Pair, LostInitsAreRetransmittedWithBackoff)
{
	Sim sim(prof(), prof(), d());
	int inits = 0;
	sim.lose = [&](const Side &, const Bytes &, uint8_t t) {
		return t == SCTP_CHUNK_INIT && inits++ < 2;
	};
	sim.handshake();
	uint64_t r = prof()->rto_initial_ns;
	EXPECT_EQ(sim.c.times_of(SCTP_CHUNK_INIT),
		  (std::vector<uint64_t>{ kT0, kT0 + r, kT0 + r + 2 * r }));
	EXPECT_EQ(sim.c.notes[0].at, kT0 + 3 * r + 4 * d());
	// Karn: the INIT ACK answered a retransmitted INIT, so no sample from
	// it; the COOKIE ECHO / COOKIE ACK exchange gave the first one.
	EXPECT_EQ(sim.c.a.paths.first.rto.srtt_ns, 2 * d());
	expect_no_drops(sim.c);
}

// §5.1 A: "up to Max.Init.Retransmits times" — the INIT goes out 1 + 8
// times, and the expiry after the last one reports CANT_START.
TEST_P(Pair, InitRetransmitsExhaustedGiveCantStart)
{
	Sim sim(prof(), prof(), d());
	sim.lose = [](const Side &, const Bytes &, uint8_t t) { return t == SCTP_CHUNK_INIT; };
	sim.connect();
	sim.run();
	unsigned sends = prof()->max_init_retransmits + 1u;
	EXPECT_EQ(sim.c.times_of(SCTP_CHUNK_INIT).size(), sends);
	ASSERT_EQ(sim.c.notes.size(), 1u);
	EXPECT_EQ(sim.c.notes[0].n.type, SCTP_NOTIFY_CANT_START);
	EXPECT_EQ(sim.c.notes[0].n.reason, SCTP_ASSOC_REASON_T1_INIT);
	uint64_t total = backoff_sum(prof()->rto_initial_ns, prof()->rto_max_ns, sends);
	EXPECT_EQ(sim.c.notes[0].at, kT0 + total);
	// 1+2+4+8+16+32+60+60+60 s; 10+20+40+80+160+200+200+200+200 ms.
	EXPECT_EQ(total, prof() == &sctp_profile_rfc ? SCTP_S(243) : SCTP_MS(1110));
	EXPECT_EQ(sim.c.a.state, SCTP_ASSOC_CLOSED);
	EXPECT_TRUE(sctp_assoc_freeable(&sim.c.a));
	EXPECT_EQ(sctp_assoc_next_wakeup(&sim.c.a), SCTP_TIME_NEVER);
	expect_no_drops(sim.c);
}

// §5.1 C: a lost COOKIE ECHO is sent again when T1-cookie expires. The
// client measured 2d from the INIT ACK, so T1-cookie runs for RTO.Min.
TEST_P(Pair, LostCookieEchoIsRetransmittedByT1Cookie)
{
	Sim sim(prof(), prof(), d());
	bool lost = false;
	sim.lose = [&](const Side &, const Bytes &, uint8_t t) {
		if (t != SCTP_CHUNK_COOKIE_ECHO || lost)
			return false;
		return lost = true;
	};
	sim.handshake();
	uint64_t first = kT0 + 2 * d();
	EXPECT_EQ(sim.c.times_of(SCTP_CHUNK_COOKIE_ECHO),
		  (std::vector<uint64_t>{ first, first + prof()->rto_min_ns }));
	EXPECT_EQ(sim.c.notes[0].at, first + prof()->rto_min_ns + 2 * d());
	expect_no_drops(sim.c);
	expect_no_drops(sim.s);
}

// §5.2.4 case D: the server's COOKIE ACK is lost. The client's T1-cookie
// retransmits the COOKIE ECHO; it reaches the server's ESTABLISHED
// association, whose tags the cookie carries, and is answered with a second
// COOKIE ACK — not discarded as a collision, and no second association.
TEST_P(Pair, LostCookieAckIsAnsweredAgainPerCaseD)
{
	Sim sim(prof(), prof(), d());
	bool lost = false;
	sim.lose = [&](const Side &, const Bytes &, uint8_t t) {
		if (t != SCTP_CHUNK_COOKIE_ACK || lost)
			return false;
		return lost = true;
	};
	sim.handshake();
	uint64_t first = kT0 + 2 * d();
	EXPECT_EQ(sim.c.times_of(SCTP_CHUNK_COOKIE_ECHO),
		  (std::vector<uint64_t>{ first, first + prof()->rto_min_ns }));
	EXPECT_EQ(sim.s.times_of(SCTP_CHUNK_COOKIE_ACK),
		  (std::vector<uint64_t>{ first + d(), first + prof()->rto_min_ns + d() }));
	EXPECT_EQ(sim.c.a.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_EQ(sim.s.a.state, SCTP_ASSOC_ESTABLISHED);
	ASSERT_EQ(sim.c.notes.size(), 1u);
	ASSERT_EQ(sim.s.notes.size(), 1u); // COMM_UP once: nothing was re-created
	EXPECT_EQ(sim.c.notes[0].at, first + prof()->rto_min_ns + 2 * d());
	expect_no_drops(sim.c);
	expect_no_drops(sim.s);
}

// §9.2: the SHUTDOWN ACK is lost; the SHUTDOWN sender's T2-shutdown
// retransmits the SHUTDOWN after its RTO, the SHUTDOWN-ACK-SENT side
// answers it again, and both close.
TEST_P(Pair, LostShutdownAckIsRecoveredByT2)
{
	Sim sim(prof(), prof(), d());
	sim.handshake();
	bool lost = false;
	sim.lose = [&](const Side &, const Bytes &, uint8_t t) {
		if (t != SCTP_CHUNK_SHUTDOWN_ACK || lost)
			return false;
		return lost = true;
	};
	uint64_t t1 = sim.now;
	ASSERT_EQ(sctp_assoc_shutdown(&sim.c.a, t1), 0);
	sim.run();
	uint64_t rto = client_rto();
	EXPECT_EQ(sim.c.times_of(SCTP_CHUNK_SHUTDOWN), (std::vector<uint64_t>{ t1, t1 + rto }));
	// The second SHUTDOWN ACK answers the retransmitted SHUTDOWN. Under the
	// RFC profile the server's own T2 (RTO.Initial = 1 s from t1 + d) falls
	// due at that same instant and sends one more; the client, CLOSED by
	// then, meets it as out of the blue (§8.4 rule 5).
	auto acks = sim.s.times_of(SCTP_CHUNK_SHUTDOWN_ACK);
	acks.erase(std::unique(acks.begin(), acks.end()), acks.end());
	EXPECT_EQ(acks, (std::vector<uint64_t>{ t1 + d(), t1 + rto + d() }));
	EXPECT_EQ(sim.c.notes.back().n.type, SCTP_NOTIFY_SHUTDOWN_COMPLETE);
	EXPECT_EQ(sim.c.notes.back().at, t1 + rto + 2 * d());
	EXPECT_EQ(sim.s.notes.back().n.type, SCTP_NOTIFY_SHUTDOWN_COMPLETE);
	expect_no_drops(sim.c);
	expect_no_drops(sim.s);
}

// §9.2: the peer vanishes after our SHUTDOWN reached it. Its SHUTDOWN ACK
// is retransmitted by T2 1 + Association.Max.Retrans times, then it
// reports COMM_LOST; our side gives up when T5-shutdown-guard (5 x
// RTO.Max) expires, with an ABORT.
TEST_P(Pair, ShutdownTimersExhausted)
{
	Sim sim(prof(), prof(), d());
	sim.handshake();
	bool first_shutdown = true;
	sim.lose = [&](const Side &from, const Bytes &, uint8_t t) {
		if (&from == &sim.c && t == SCTP_CHUNK_SHUTDOWN && first_shutdown) {
			first_shutdown = false;
			return false;
		}
		return true;
	};
	uint64_t t1 = sim.now;
	ASSERT_EQ(sctp_assoc_shutdown(&sim.c.a, t1), 0);
	sim.run();
	// The server: SHUTDOWN ACK 1 + Association.Max.Retrans times, backing
	// off from RTO.Initial (it never measured an RTT).
	unsigned sends = prof()->assoc_max_retrans + 1u;
	EXPECT_EQ(sim.s.times_of(SCTP_CHUNK_SHUTDOWN_ACK).size(), sends);
	uint64_t total = backoff_sum(prof()->rto_initial_ns, prof()->rto_max_ns, sends);
	EXPECT_EQ(total, prof() == &sctp_profile_rfc ? SCTP_S(363) : SCTP_MS(3510));
	ASSERT_EQ(sim.s.notes.size(), 2u);
	EXPECT_EQ(sim.s.notes[1].n.type, SCTP_NOTIFY_COMM_LOST);
	EXPECT_EQ(sim.s.notes[1].n.reason, SCTP_ASSOC_REASON_T2_SHUTDOWN);
	EXPECT_EQ(sim.s.notes[1].at, t1 + d() + total);
	// The client: T5 at 5 x RTO.Max (300 s; 1 s), before its T2 gives up.
	ASSERT_EQ(sim.c.notes.size(), 2u);
	EXPECT_EQ(sim.c.notes[1].n.reason, SCTP_ASSOC_REASON_T5_GUARD);
	EXPECT_EQ(sim.c.notes[1].at, t1 + 5 * prof()->rto_max_ns);
	EXPECT_EQ(sim.c.times_of(SCTP_CHUNK_ABORT),
		  std::vector<uint64_t>{ t1 + 5 * prof()->rto_max_ns });
	EXPECT_GT(sim.c.times_of(SCTP_CHUNK_SHUTDOWN).size(), 2u);
	EXPECT_TRUE(sctp_assoc_freeable(&sim.c.a));
	EXPECT_TRUE(sctp_assoc_freeable(&sim.s.a));
	expect_no_drops(sim.c);
	expect_no_drops(sim.s);
}

// The cookie life used by StaleCookie: short enough that every cookie is
// stale after one round trip of 1 ms each way.
struct sctp_profile
short_cookie_profile(uint64_t preservative_cap)
{
	struct sctp_profile p = sctp_profile_dc;
	p.valid_cookie_life_ns = SCTP_US(100);
	p.cookie_preservative_cap_ns = preservative_cap;
	return p;
}

// §5.2.6 option 3: a Stale Cookie ERROR in COOKIE-ECHOED restarts with an
// INIT carrying a Cookie Preservative of the staleness plus the round trip;
// the server honours it and the second cookie arrives in time.
TEST(AssocStale, StaleCookieRestartsWithPreservative)
{
	struct sctp_profile server = short_cookie_profile(SCTP_S(1));
	Sim sim(&sctp_profile_dc, &server, SCTP_MS(1));
	sim.handshake();
	// INIT at 0, INIT ACK made at 1 ms (life 100 us), COOKIE ECHO sent at
	// 2 ms arrives at 3 ms: 1.9 ms stale. ERROR arrives at 4 ms; the
	// COOKIE ECHO / ERROR round trip was 2 ms: 2 + 2 = 4 ms asked for.
	auto inits = sim.c.times_of(SCTP_CHUNK_INIT);
	ASSERT_EQ(inits, (std::vector<uint64_t>{ kT0, kT0 + SCTP_MS(4) }));
	Packet init = decode(sim.c.last_of(SCTP_CHUNK_INIT).bytes);
	struct sctp_init_params p;
	const Bytes &v = init.chunks[0].value;
	ASSERT_EQ(sctp_init_params_decode(v.data() + SCTP_INIT_FIXED_LEN,
					  v.size() - SCTP_INIT_FIXED_LEN, &p),
		  SCTP_PERR_OK);
	ASSERT_TRUE(p.has_cookie_preservative);
	EXPECT_EQ(p.cookie_preservative_ms, 4u);
	EXPECT_EQ(sim.s.ep.drops[SCTP_EP_DROP_COOKIE_STALE], 1u);
	EXPECT_EQ(sim.c.counters.stale_cookie_restarts, 1u);
	EXPECT_EQ(sim.c.notes[0].at, kT0 + SCTP_MS(8));
	expect_no_drops(sim.c);
}

// §5.2.6: a server that grants no extension keeps answering Stale Cookie;
// after Max.Init.Retransmits restarts the attempt fails (option 2).
TEST(AssocStale, StaleCookieRestartsAreBounded)
{
	struct sctp_profile server = short_cookie_profile(0);
	Sim sim(&sctp_profile_dc, &server, SCTP_MS(1));
	sim.connect();
	sim.run();
	EXPECT_EQ(sim.c.times_of(SCTP_CHUNK_INIT).size(),
		  sctp_profile_dc.max_init_retransmits + 1u);
	ASSERT_EQ(sim.c.notes.size(), 1u);
	EXPECT_EQ(sim.c.notes[0].n.type, SCTP_NOTIFY_CANT_START);
	EXPECT_EQ(sim.c.notes[0].n.reason, SCTP_ASSOC_REASON_STALE_COOKIE);
	EXPECT_EQ(sim.c.counters.stale_cookie_restarts, sctp_profile_dc.max_init_retransmits);
	EXPECT_TRUE(sctp_assoc_freeable(&sim.c.a));
}

// ---- The tables --------------------------------------------------------

TEST(AssocTables, EveryCellIsAHandlerOrANamedDiscard)
{
	struct sctp_assoc_cell_info ci;
	auto check = [](const struct sctp_assoc_cell_info &i, const std::string &where) {
		ASSERT_NE(i.handler, nullptr) << where << ": empty cell";
		bool discard = std::string(i.handler) == "discard" ||
			       std::string(i.handler) == "discard_packet" ||
			       std::string(i.handler) == "refuse";
		if (discard) {
			EXPECT_NE(i.drop, SCTP_ASSOC_DROP_NONE)
				<< where << ": a discard without a name";
			EXPECT_LT(i.drop, SCTP_ASSOC_DROP_COUNT) << where;
		} else {
			EXPECT_EQ(i.drop, SCTP_ASSOC_DROP_NONE) << where;
		}
		EXPECT_NE(i.vtag, SCTP_ASSOC_VTAG_UNSET) << where << ": no tag rule";
	};
	unsigned cells = 0;
	for (unsigned s = 0; s < SCTP_ASSOC_STATE_COUNT; s++) {
		auto st = static_cast<enum sctp_assoc_state>(s);
		for (unsigned r = 0; r < SCTP_ASSOC_ROW_COUNT; r++, cells++) {
			auto row = static_cast<enum sctp_assoc_row>(r);
			ASSERT_EQ(sctp_assoc_chunk_cell(row, st, &ci), 0);
			check(ci, std::string(sctp_assoc_row_name(row)) + " in " +
					  sctp_assoc_state_name(st));
		}
		for (unsigned t = 0; t < SCTP_ASSOC_TIMER_COUNT; t++, cells++) {
			auto tm = static_cast<enum sctp_assoc_timer>(t);
			ASSERT_EQ(sctp_assoc_timer_cell(tm, st, &ci), 0);
			check(ci, std::string(sctp_assoc_timer_name(tm)) + " in " +
					  sctp_assoc_state_name(st));
		}
		for (unsigned u = 0; u < SCTP_ASSOC_USER_COUNT; u++, cells++) {
			auto uc = static_cast<enum sctp_assoc_user_call>(u);
			ASSERT_EQ(sctp_assoc_user_cell(uc, st, &ci), 0);
			check(ci, std::string("user ") + sctp_assoc_user_call_name(uc) + " in " +
					  sctp_assoc_state_name(st));
		}
	}
	EXPECT_EQ(cells,
		  8u * (SCTP_ASSOC_ROW_COUNT + SCTP_ASSOC_TIMER_COUNT + SCTP_ASSOC_USER_COUNT));
	EXPECT_EQ(sctp_assoc_chunk_cell(SCTP_ASSOC_ROW_COUNT, SCTP_ASSOC_CLOSED, &ci), -EINVAL);
	EXPECT_EQ(sctp_assoc_timer_cell(SCTP_ASSOC_T1_INIT, SCTP_ASSOC_STATE_COUNT, &ci), -EINVAL);
	// Every drop has a counter name and a reason.
	for (unsigned d = 1; d < SCTP_ASSOC_DROP_COUNT; d++) {
		auto dr = static_cast<enum sctp_assoc_drop>(d);
		EXPECT_STRNE(sctp_assoc_drop_name(dr), "unknown");
		EXPECT_GT(std::strlen(sctp_assoc_drop_describe(dr)), 10u);
	}
}

// The tag rules of the cells, against RFC 9260 §8.5.1.
TEST(AssocTables, VerificationTagRulesFollowSection8_5_1)
{
	struct sctp_assoc_cell_info ci;
	auto rule = [&](enum sctp_assoc_row r, enum sctp_assoc_state s) {
		EXPECT_EQ(sctp_assoc_chunk_cell(r, s, &ci), 0);
		return ci.vtag;
	};
	for (unsigned s = SCTP_ASSOC_COOKIE_WAIT; s < SCTP_ASSOC_STATE_COUNT; s++) {
		auto st = static_cast<enum sctp_assoc_state>(s);
		EXPECT_EQ(rule(SCTP_ASSOC_ROW_INIT, st), SCTP_ASSOC_VTAG_ZERO);		      // A
		EXPECT_EQ(rule(SCTP_ASSOC_ROW_ABORT, st), SCTP_ASSOC_VTAG_T_BIT);	      // B
		EXPECT_EQ(rule(SCTP_ASSOC_ROW_SHUTDOWN_COMPLETE, st), SCTP_ASSOC_VTAG_T_BIT); // C
		EXPECT_EQ(rule(SCTP_ASSOC_ROW_COOKIE_ECHO, st), SCTP_ASSOC_VTAG_ANY);	      // D
		bool ootb = st == SCTP_ASSOC_COOKIE_WAIT || st == SCTP_ASSOC_COOKIE_ECHOED;
		EXPECT_EQ(rule(SCTP_ASSOC_ROW_SHUTDOWN_ACK, st),
			  ootb ? SCTP_ASSOC_VTAG_ANY : SCTP_ASSOC_VTAG_OURS); // E
		for (auto r :
		     { SCTP_ASSOC_ROW_DATA, SCTP_ASSOC_ROW_INIT_ACK, SCTP_ASSOC_ROW_SACK,
		       SCTP_ASSOC_ROW_HEARTBEAT, SCTP_ASSOC_ROW_SHUTDOWN, SCTP_ASSOC_ROW_ERROR,
		       SCTP_ASSOC_ROW_COOKIE_ACK, SCTP_ASSOC_ROW_UNKNOWN })
			EXPECT_EQ(rule(r, st), SCTP_ASSOC_VTAG_OURS); // §8.5
	}
}

TEST(AssocTables, ChunkTypesMapToRows)
{
	EXPECT_EQ(sctp_assoc_row_of(SCTP_CHUNK_DATA, 0), SCTP_ASSOC_ROW_DATA);
	EXPECT_EQ(sctp_assoc_row_of(SCTP_CHUNK_SHUTDOWN_COMPLETE, 0),
		  SCTP_ASSOC_ROW_SHUTDOWN_COMPLETE);
	// An extension chunk is unrecognized unless both sides negotiated it.
	EXPECT_EQ(sctp_assoc_row_of(SCTP_CHUNK_FORWARD_TSN, 0), SCTP_ASSOC_ROW_UNKNOWN);
	EXPECT_EQ(sctp_assoc_row_of(SCTP_CHUNK_FORWARD_TSN, SCTP_COOKIE_EXT_FORWARD_TSN),
		  SCTP_ASSOC_ROW_FORWARD_TSN);
	EXPECT_EQ(sctp_assoc_row_of(SCTP_CHUNK_ECNE, SCTP_COOKIE_EXT_ECN),
		  SCTP_ASSOC_ROW_EXTENSION);
	EXPECT_EQ(sctp_assoc_row_of(SCTP_CHUNK_I_FORWARD_TSN, SCTP_COOKIE_EXT_FORWARD_TSN),
		  SCTP_ASSOC_ROW_UNKNOWN);
	// I-DATA takes DATA's row, I-FORWARD TSN FORWARD TSN's, once negotiated (RFC 8260).
	EXPECT_EQ(sctp_assoc_row_of(SCTP_CHUNK_I_DATA, 0), SCTP_ASSOC_ROW_UNKNOWN);
	EXPECT_EQ(sctp_assoc_row_of(SCTP_CHUNK_I_DATA, SCTP_COOKIE_EXT_I_DATA),
		  SCTP_ASSOC_ROW_DATA);
	EXPECT_EQ(sctp_assoc_row_of(SCTP_CHUNK_I_FORWARD_TSN,
				    SCTP_COOKIE_EXT_FORWARD_TSN | SCTP_COOKIE_EXT_I_DATA),
		  SCTP_ASSOC_ROW_FORWARD_TSN);
	EXPECT_EQ(sctp_assoc_row_of(SCTP_CHUNK_RECONFIG, 0), SCTP_ASSOC_ROW_UNKNOWN);
	EXPECT_EQ(sctp_assoc_row_of(SCTP_CHUNK_RECONFIG, SCTP_COOKIE_EXT_RECONFIG),
		  SCTP_ASSOC_ROW_RECONFIG);
	EXPECT_EQ(sctp_assoc_row_of(SCTP_CHUNK_AUTH, ~0u), SCTP_ASSOC_ROW_UNKNOWN);
	EXPECT_EQ(sctp_assoc_row_of(0x3f, ~0u), SCTP_ASSOC_ROW_UNKNOWN);
}

TEST_F(One, ConnectSendsInitAndArmsT1Init)
{
	connect();
	ASSERT_EQ(sent_.size(), 1u);
	Packet p = decode(last().bytes);
	EXPECT_EQ(p.vtag, 0u); // §8.5.1 A
	EXPECT_EQ(p.src_port, kClientPort);
	EXPECT_EQ(p.dst_port, kServerPort);
	ASSERT_EQ(p.chunks.size(), 1u);
	EXPECT_EQ(p.chunks[0].type, SCTP_CHUNK_INIT);
	EXPECT_EQ(sctp_load_be32(p.chunks[0].value.data()), kClientTag);
	EXPECT_EQ(sctp_load_be16(p.chunks[0].value.data() + 8), prof_.out_streams);
	EXPECT_EQ(sctp_load_be32(p.chunks[0].value.data() + 12), 1000u);
	EXPECT_TRUE(sctp_addr_eq(&last().dst, &peer_addr_));
	EXPECT_EQ(sctp_assoc_next_wakeup(&a_), now_ + prof_.rto_initial_ns);
	struct sctp_addr bad;
	std::memset(&bad, 0, sizeof(bad));
	EXPECT_EQ(sctp_assoc_connect(&a_, &ep_, &peer_addr_, &local_addr_, 1, 2, now_), -EISCONN);
	EXPECT_EQ(sctp_assoc_connect(&a_, &ep_, &bad, &local_addr_, 1, 2, now_), -EINVAL);
	EXPECT_EQ(sctp_assoc_connect(&a_, &ep_, &peer_addr_, &local_addr_, 0, 2, now_), -EINVAL);
}

TEST_F(One, InitAckIsAnsweredWithCookieEcho)
{
	connect();
	now_ += SCTP_MS(30);
	input(kClientTag, init_ack(kServerTag, 7, 3));
	ASSERT_EQ(a_.state, SCTP_ASSOC_COOKIE_ECHOED);
	Packet p = decode(last().bytes);
	EXPECT_EQ(p.vtag, kServerTag);
	ASSERT_EQ(p.chunks.size(), 1u);
	EXPECT_EQ(p.chunks[0].type, SCTP_CHUNK_COOKIE_ECHO);
	EXPECT_EQ(std::string(p.chunks[0].value.begin(), p.chunks[0].value.begin() + 6), "cookie");
	// §5.1.1: outbound min(our 10, its MIS 3), inbound min(its OS 7, our MIS).
	EXPECT_EQ(a_.outbound_streams, 3);
	EXPECT_EQ(a_.inbound_streams, 7);
	EXPECT_EQ(a_.peer_initial_tsn, 5000u);
	EXPECT_EQ(a_.peer_a_rwnd, 32768u);
	// T1-init stopped, T1-cookie at the RTO the 30 ms sample gave (RTO.Min).
	EXPECT_EQ(a_.timer_at[SCTP_ASSOC_T1_INIT], SCTP_TIME_NEVER);
	EXPECT_EQ(a_.timer_at[SCTP_ASSOC_T1_COOKIE], now_ + prof_.rto_min_ns);
	EXPECT_EQ(a_.paths.first.rto.srtt_ns, SCTP_MS(30));
}

// §3.2.2: unrecognized INIT ACK parameters marked "report" go back in an
// ERROR bundled after the COOKIE ECHO; "skip" ones are only skipped.
TEST_F(One, UnrecognizedInitAckParametersAreReportedWithTheCookieEcho)
{
	connect();
	input(kClientTag, init_ack(kServerTag, 5, 5, [](struct sctp_writer *w) {
		      sctp_tlv_build(w, 0xc123, "\x01\x02\x03", 3); // 11: skip, report
		      sctp_tlv_build(w, 0x8124, "\x09", 1);	    // 10: skip
	      }));
	ASSERT_EQ(a_.state, SCTP_ASSOC_COOKIE_ECHOED);
	Packet p = decode(last().bytes);
	ASSERT_EQ(p.chunks.size(), 2u);
	EXPECT_EQ(p.chunks[0].type, SCTP_CHUNK_COOKIE_ECHO); // §6.10: COOKIE ECHO first
	EXPECT_EQ(p.chunks[1].type, SCTP_CHUNK_ERROR);
	auto causes = causes_of(p.chunks[1].value);
	ASSERT_EQ(causes.size(), 1u);
	EXPECT_EQ(causes[0].first, SCTP_CAUSE_UNRECOGNIZED_PARAMS);
	EXPECT_EQ(causes[0].second, hex::bytes("c123 0007 010203"));
	// A T1-cookie retransmission carries the report again.
	now_ = sctp_assoc_next_wakeup(&a_);
	sctp_assoc_timeout(&a_, now_);
	EXPECT_EQ(decode(last().bytes).chunks.size(), 2u);
}

// §3.3.3, §5.1.2, §5.1 C: INIT ACKs that end the attempt.
TEST_F(One, InvalidInitAcksEndTheAttempt)
{
	struct Case {
		const char *what;
		Bytes chunk;
		uint16_t cause; // 0: nothing sent
	};
	std::vector<Case> cases = {
		{ "tag 0", init_ack(0, 5, 5), 0 },
		{ "OS 0", init_ack(kServerTag, 0, 5), SCTP_CAUSE_INVALID_MANDATORY_PARAM },
		{ "MIS 0", init_ack(kServerTag, 5, 0), SCTP_CAUSE_INVALID_MANDATORY_PARAM },
		{ "no cookie", init_ack(kServerTag, 5, 5, nullptr, false),
		  SCTP_CAUSE_MISSING_MANDATORY_PARAM },
		{ "host name",
		  init_ack(kServerTag, 5, 5,
			   [](struct sctp_writer *w) {
				   sctp_tlv_build(w, SCTP_PARAM_HOST_NAME_ADDR, "peer\0", 5);
			   }),
		  SCTP_CAUSE_UNRESOLVABLE_ADDR },
	};
	for (const auto &k : cases) {
		SCOPED_TRACE(k.what);
		sent_.clear();
		notes_.clear();
		fresh();
		connect();
		input(kClientTag, k.chunk);
		EXPECT_TRUE(sctp_assoc_freeable(&a_));
		ASSERT_EQ(notes_.size(), 1u);
		EXPECT_EQ(notes_[0].n.type, SCTP_NOTIFY_CANT_START);
		EXPECT_EQ(notes_[0].n.reason, SCTP_ASSOC_REASON_INIT_ACK_INVALID);
		if (k.cause == 0) {
			EXPECT_EQ(sent_.size(), 1u); // the INIT only
			continue;
		}
		ASSERT_EQ(sent_.size(), 2u);
		Packet p = decode(last().bytes);
		EXPECT_EQ(p.vtag, kServerTag);
		ASSERT_EQ(p.chunks[0].type, SCTP_CHUNK_ABORT);
		EXPECT_EQ(p.chunks[0].flags & SCTP_FLAG_T, 0);
		auto causes = causes_of(p.chunks[0].value);
		ASSERT_EQ(causes.size(), 1u);
		EXPECT_EQ(causes[0].first, k.cause);
		if (k.cause == SCTP_CAUSE_MISSING_MANDATORY_PARAM) {
			EXPECT_EQ(causes[0].second, hex::bytes("00000001 0007"));
		}
	}
}

// §5.1.1: a peer whose OS exceeds our MIS gets our MIS; counted.
TEST_F(One, InitAckOutboundStreamsAboveOurMisAreClamped)
{
	sctp_endpoint_fini(&ep_);
	prof_.max_in_streams = 10;
	make_endpoint();
	connect();
	input(kClientTag, init_ack(kServerTag, 20, 5));
	ASSERT_EQ(a_.state, SCTP_ASSOC_COOKIE_ECHOED);
	EXPECT_EQ(a_.inbound_streams, 10);
	EXPECT_EQ(counters_.init_ack_os_clamped, 1u);
}

// §8.5 and §8.5.1 B, C: packets whose tag fails the rule are discarded and
// counted, and nothing changes.
TEST_F(One, BadTagsAreDiscardedAndCounted)
{
	to_established();
	size_t sends = sent_.size();
	input_hex(kClientTag + 1, "07000008 00000000"); // SHUTDOWN, not our tag
	input_hex(kClientTag, "06010004");		// ABORT, T set, but our tag
	input_hex(kServerTag, "06000004");		// ABORT, T clear, the peer's tag
	input_hex(kServerTag, "07000008 00000000");	// SHUTDOWN with the peer's tag
	input_hex(0, "0b000004");			// tag 0 without INIT (§8.5.1 A)
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_BAD_VTAG], 5u);
	EXPECT_EQ(a_.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_EQ(sent_.size(), sends);
	EXPECT_TRUE(notes_.size() == 1u);
	// A chunk that fails discards the rest of its packet, not the chunks
	// before it: HEARTBEAT answered, the T-bit ABORT with our tag refused.
	input_hex(kClientTag, "04000008 00010004 06010004");
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_BAD_VTAG], 6u);
	EXPECT_EQ(sent_.size(), sends + 1);
	EXPECT_EQ(a_.state, SCTP_ASSOC_ESTABLISHED);
	// §8.5.1 B: the peer's tag with T set is accepted.
	input_hex(kServerTag, "06010004");
	EXPECT_TRUE(sctp_assoc_freeable(&a_));
	EXPECT_EQ(notes_.back().n.type, SCTP_NOTIFY_COMM_LOST);
	EXPECT_EQ(notes_.back().n.error, 0);
}

// §8.5.1 B in COOKIE-WAIT: the peer's tag is not known yet, so only our
// own tag with T clear is an ABORT of this attempt.
TEST_F(One, AbortInCookieWait)
{
	connect();
	input_hex(0, "06010004");
	EXPECT_EQ(a_.state, SCTP_ASSOC_COOKIE_WAIT);
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_BAD_VTAG], 1u);
	input_hex(kClientTag, "0600000c 000c0008 6e6f7065"); // User-Initiated Abort "nope"
	EXPECT_TRUE(sctp_assoc_freeable(&a_));
	ASSERT_EQ(notes_.size(), 1u);
	EXPECT_EQ(notes_[0].n.type, SCTP_NOTIFY_CANT_START);
	EXPECT_EQ(notes_[0].n.reason, SCTP_ASSOC_REASON_PEER_ABORT);
	EXPECT_EQ(notes_[0].n.error, SCTP_CAUSE_USER_INITIATED_ABORT);
	EXPECT_EQ(notes_[0].causes, hex::bytes("000c0008 6e6f7065"));
}

// §8.5.1 C in SHUTDOWN-ACK-SENT: SHUTDOWN COMPLETE with the peer's tag
// and T set is accepted; with our tag and T set it is not.
TEST_F(One, ShutdownCompleteTagRules)
{
	to_state(SCTP_ASSOC_SHUTDOWN_ACK_SENT);
	input_hex(kClientTag, "0e010004");
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_BAD_VTAG], 1u);
	EXPECT_EQ(a_.state, SCTP_ASSOC_SHUTDOWN_ACK_SENT);
	input_hex(kServerTag, "0e010004");
	EXPECT_TRUE(sctp_assoc_freeable(&a_));
	EXPECT_EQ(notes_.back().n.type, SCTP_NOTIFY_SHUTDOWN_COMPLETE);
}

// §8.5.1 E: SHUTDOWN ACK in COOKIE-WAIT or COOKIE-ECHOED is out of the
// blue: SHUTDOWN COMPLETE with its tag reflected and T set; nothing else.
TEST_F(One, ShutdownAckBeforeEstablishedIsOutOfTheBlue)
{
	for (auto st : { SCTP_ASSOC_COOKIE_WAIT, SCTP_ASSOC_COOKIE_ECHOED }) {
		fresh();
		to_state(st);
		uint64_t t1 = sctp_assoc_next_wakeup(&a_);
		input_hex(0x12345678, "08000004 0b000004");
		Packet p = decode(last().bytes);
		EXPECT_EQ(p.vtag, 0x12345678u);
		ASSERT_EQ(p.chunks.size(), 1u);
		EXPECT_EQ(p.chunks[0].type, SCTP_CHUNK_SHUTDOWN_COMPLETE);
		EXPECT_EQ(p.chunks[0].flags, SCTP_FLAG_T);
		EXPECT_EQ(a_.state, st); // the COOKIE ACK after it was not looked at
		EXPECT_EQ(sctp_assoc_next_wakeup(&a_), t1);
	}
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_SHUTDOWN_ACK_OOTB], 2u);
}

// §8.3: HEARTBEAT is answered with the same info, to where it came from.
TEST_F(One, HeartbeatIsAnswered)
{
	to_established();
	struct sctp_addr other = v4(10, 9, 9, 2);
	input(kClientTag, hex::bytes("0400000c 00010008 deadbeef"), other);
	Packet p = decode(last().bytes);
	EXPECT_EQ(p.vtag, kServerTag);
	ASSERT_EQ(p.chunks.size(), 1u);
	EXPECT_EQ(p.chunks[0].type, SCTP_CHUNK_HEARTBEAT_ACK);
	EXPECT_EQ(p.chunks[0].value, hex::bytes("00010008 deadbeef"));
	EXPECT_TRUE(sctp_addr_eq(&last().dst, &other));
}

// In SHUTDOWN-ACK-SENT a HEARTBEAT goes unanswered, counted: the peer
// deletes its association when our SHUTDOWN ACK arrives, and an answer that
// reached it after (on another path, say) would be out of the blue there
// and draw an ABORT (§8.4 rule 8) that ends our graceful close as an abort;
// seen between two dpsctp ends over two networks. The shutdown goes on.
TEST_F(One, HeartbeatInShutdownAckSentIsNotAnswered)
{
	to_state(SCTP_ASSOC_SHUTDOWN_ACK_SENT);
	sent_.clear();
	input(kClientTag, hex::bytes("0400000c 00010008 deadbeef"), v4(10, 9, 9, 2));
	EXPECT_TRUE(sent_.empty());
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_HB_AFTER_SHUTDOWN_ACK], 1u);
	EXPECT_EQ(a_.state, SCTP_ASSOC_SHUTDOWN_ACK_SENT);
	input_hex(kClientTag, "0e000004"); // SHUTDOWN COMPLETE
	EXPECT_EQ(a_.state, SCTP_ASSOC_CLOSED);
}

// §3.2: unrecognized chunks by their two high bits.
TEST_F(One, UnrecognizedChunksFollowTheirActionBits)
{
	to_established();
	const std::string hb = " 04000008 00010004";
	struct Case {
		const char *chunk;
		bool report, go_on;
	} cases[] = {
		{ "3f000004", false, false },	      // 00
		{ "7f000008 01020304", true, false }, // 01
		{ "bf000004", false, true },	      // 10
		{ "ff000004", true, true },	      // 11
	};
	for (const auto &k : cases) {
		SCOPED_TRACE(k.chunk);
		sent_.clear();
		input_hex(kClientTag, k.chunk + hb);
		std::vector<uint8_t> firsts;
		for (const auto &s : sent_)
			firsts.push_back(s.first);
		std::vector<uint8_t> want;
		if (k.report)
			want.push_back(SCTP_CHUNK_ERROR);
		if (k.go_on)
			want.push_back(SCTP_CHUNK_HEARTBEAT_ACK);
		EXPECT_EQ(firsts, want);
		if (k.report) {
			auto causes = causes_of(decode(sent_[0].bytes).chunks[0].value);
			ASSERT_EQ(causes.size(), 1u);
			EXPECT_EQ(causes[0].first, SCTP_CAUSE_UNRECOGNIZED_CHUNK);
			EXPECT_EQ(causes[0].second, hex::bytes(k.chunk));
		}
	}
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_UNKNOWN_CHUNK], 4u);
	EXPECT_EQ(a_.state, SCTP_ASSOC_ESTABLISHED);
}

// §9.2: INIT in SHUTDOWN-ACK-SENT from the peer: SHUTDOWN ACK again. In
// ESTABLISHED an INIT is a §5.2 collision: counted, not handled yet.
TEST_F(One, InitInShutdownAckSentRetransmitsShutdownAck)
{
	to_state(SCTP_ASSOC_SHUTDOWN_ACK_SENT);
	sent_.clear();
	input_hex(0, "01000014 0a0b0c0d 00010000 00050005 00000001");
	ASSERT_EQ(sent_.size(), 1u);
	EXPECT_EQ(last().first, SCTP_CHUNK_SHUTDOWN_ACK);
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_INIT_IN_SHUTDOWN_ACK_SENT], 1u);
	EXPECT_EQ(a_.state, SCTP_ASSOC_SHUTDOWN_ACK_SENT);
}

// §5.2.6 on one association: the new INIT, the counters, the tag forgotten.
TEST_F(One, StaleCookieErrorRestartsTheHandshake)
{
	to_cookie_echoed();
	now_ += SCTP_MS(20); // COOKIE ECHO sent at kT0: the round trip is 20 ms
	input_hex(kClientTag, "0900000c 00030008 0000076c"); // 1900 us stale
	ASSERT_EQ(a_.state, SCTP_ASSOC_COOKIE_WAIT);
	EXPECT_EQ(a_.peer_vtag, 0u);
	EXPECT_EQ(a_.stale_restarts, 1u);
	EXPECT_EQ(a_.timer_at[SCTP_ASSOC_T1_COOKIE], SCTP_TIME_NEVER);
	EXPECT_NE(a_.timer_at[SCTP_ASSOC_T1_INIT], SCTP_TIME_NEVER);
	Packet p = decode(last().bytes);
	ASSERT_EQ(p.chunks[0].type, SCTP_CHUNK_INIT);
	struct sctp_init_params ip;
	const Bytes &v = p.chunks[0].value;
	ASSERT_EQ(sctp_init_params_decode(v.data() + 16, v.size() - 16, &ip), SCTP_PERR_OK);
	EXPECT_EQ(ip.cookie_preservative_ms, 2u + 20u);
	// An ERROR without Stale Cookie changes nothing; the user hears of it
	// (RFC 6458 SCTP_REMOTE_ERROR) with its causes. A Stale Cookie once
	// established is only counted (§5.2.6).
	fresh();
	to_state(SCTP_ASSOC_ESTABLISHED);
	size_t n = notes_.size();
	input_hex(kClientTag, "09000008 00040004");
	EXPECT_EQ(a_.state, SCTP_ASSOC_ESTABLISHED);
	ASSERT_EQ(notes_.size(), n + 1);
	EXPECT_EQ(notes_.back().n.type, SCTP_NOTIFY_REMOTE_ERROR);
	EXPECT_EQ(notes_.back().n.error, SCTP_CAUSE_OUT_OF_RESOURCE);
	EXPECT_EQ(notes_.back().causes, hex::bytes("00040004"));
	input_hex(kClientTag, "0900000c 00030008 00000001");
	EXPECT_EQ(notes_.size(), n + 1);
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_ERROR_IGNORED], 1u);
}

TEST_F(One, UserCallsInEveryState)
{
	EXPECT_EQ(sctp_assoc_shutdown(&a_, now_), -ENOTCONN);
	EXPECT_EQ(sctp_assoc_abort(&a_, now_, nullptr, 0), -ENOTCONN);
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_USER_NOT_CONNECTED], 2u);

	// COOKIE-WAIT: the peer holds nothing; close without a packet.
	connect();
	EXPECT_EQ(sctp_assoc_shutdown(&a_, now_), 0);
	EXPECT_EQ(sent_.size(), 1u);
	EXPECT_TRUE(sctp_assoc_freeable(&a_));
	EXPECT_EQ(notes_.back().n.type, SCTP_NOTIFY_SHUTDOWN_COMPLETE);
	fresh();
	connect();
	EXPECT_EQ(sctp_assoc_abort(&a_, now_, nullptr, 0), 0);
	EXPECT_EQ(sent_.size(), 2u);
	EXPECT_EQ(notes_.back().n.type, SCTP_NOTIFY_CANT_START);
	EXPECT_EQ(notes_.back().n.reason, SCTP_ASSOC_REASON_USER_ABORT);

	// COOKIE-ECHOED: shut down once established.
	fresh();
	to_cookie_echoed();
	EXPECT_EQ(sctp_assoc_shutdown(&a_, now_), 0);
	EXPECT_EQ(sctp_assoc_shutdown(&a_, now_), -EALREADY);
	EXPECT_EQ(a_.state, SCTP_ASSOC_COOKIE_ECHOED);
	input_hex(kClientTag, "0b000004");
	EXPECT_EQ(a_.state, SCTP_ASSOC_SHUTDOWN_SENT);
	EXPECT_EQ(notes_.back().n.type, SCTP_NOTIFY_COMM_UP);
	EXPECT_EQ(last().first, SCTP_CHUNK_SHUTDOWN);
	EXPECT_EQ(a_.timer_at[SCTP_ASSOC_T5_GUARD], now_ + 5 * prof_.rto_max_ns);
	EXPECT_EQ(sctp_assoc_shutdown(&a_, now_), -EALREADY);
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_USER_SHUTDOWN_IN_PROGRESS], 2u);

	// COOKIE-ECHOED abort: the peer may have a TCB, so it is told.
	fresh();
	to_cookie_echoed();
	EXPECT_EQ(sctp_assoc_abort(&a_, now_, nullptr, 0), 0);
	EXPECT_EQ(last().first, SCTP_CHUNK_ABORT);
	EXPECT_EQ(decode(last().bytes).vtag, kServerTag);
	EXPECT_EQ(notes_.back().n.type, SCTP_NOTIFY_CANT_START);
}

// A timer firing in a state that does not run it is a counted discard.
TEST_F(One, TimerInTheWrongStateIsCounted)
{
	to_established();
	a_.timer_at[SCTP_ASSOC_T1_INIT] = now_;
	size_t sends = sent_.size();
	sctp_assoc_timeout(&a_, now_);
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_TIMER_UNEXPECTED], 1u);
	EXPECT_EQ(sent_.size(), sends);
	EXPECT_EQ(a_.state, SCTP_ASSOC_ESTABLISHED);
}

// Every discard cell of the chunk table, reached with a chunk of its row
// in its state and a tag that passes its rule: exactly its counter moves,
// nothing is sent, nobody is told, the state stays.
TEST_F(One, EveryWrongStateChunkIsDiscardedUnderItsName)
{
	const std::map<enum sctp_assoc_row, std::string> sample = {
		{ SCTP_ASSOC_ROW_DATA, "00030014 00000001 00000000 00000000 61626364" },
		{ SCTP_ASSOC_ROW_INIT, "01000014 0a0b0c0d 00010000 00050005 00000001" },
		{ SCTP_ASSOC_ROW_INIT_ACK, "02000014 0a0b0c0d 00010000 00050005 00000001" },
		{ SCTP_ASSOC_ROW_SACK, "03000010 00000000 00010000 00000000" },
		{ SCTP_ASSOC_ROW_HEARTBEAT, "04000008 00010004" },
		{ SCTP_ASSOC_ROW_HEARTBEAT_ACK, "05000008 00010004" },
		{ SCTP_ASSOC_ROW_ABORT, "06000004" },
		{ SCTP_ASSOC_ROW_SHUTDOWN, "07000008 00000000" },
		{ SCTP_ASSOC_ROW_SHUTDOWN_ACK, "08000004" },
		{ SCTP_ASSOC_ROW_ERROR, "09000008 00040004" },
		{ SCTP_ASSOC_ROW_COOKIE_ECHO, "0a000008 01020304" },
		{ SCTP_ASSOC_ROW_COOKIE_ACK, "0b000004" },
		{ SCTP_ASSOC_ROW_SHUTDOWN_COMPLETE, "0e000004" },
		{ SCTP_ASSOC_ROW_FORWARD_TSN, "c0000008 00000005" },
		/* an answer (Response, Success - Performed) to a request never sent */
		{ SCTP_ASSOC_ROW_RECONFIG, "82000010 0010000c 00000001 00000001" },
		{ SCTP_ASSOC_ROW_EXTENSION, "0c000008 00000005" }, /* ECNE */
		{ SCTP_ASSOC_ROW_UNKNOWN, "bf000004" },
	};
	unsigned tried = 0;
	for (unsigned s = 0; s < SCTP_ASSOC_STATE_COUNT; s++) {
		auto st = static_cast<enum sctp_assoc_state>(s);
		for (unsigned r = 0; r < SCTP_ASSOC_ROW_COUNT; r++) {
			auto row = static_cast<enum sctp_assoc_row>(r);
			struct sctp_assoc_cell_info ci;
			ASSERT_EQ(sctp_assoc_chunk_cell(row, st, &ci), 0);
			if (ci.drop == SCTP_ASSOC_DROP_NONE)
				continue;
			SCOPED_TRACE(std::string(sctp_assoc_row_name(row)) + " in " +
				     sctp_assoc_state_name(st));
			fresh();
			to_state(st);
			a_.extensions |= SCTP_COOKIE_EXT_FORWARD_TSN | SCTP_COOKIE_EXT_ECN |
					 SCTP_COOKIE_EXT_RECONFIG;
			std::memset(&counters_, 0, sizeof(counters_));
			size_t sends = sent_.size(), notes = notes_.size();
			uint32_t vtag = ci.vtag == SCTP_ASSOC_VTAG_ZERO ? 0 : a_.local_vtag;
			input_hex(vtag, sample.at(row));
			EXPECT_EQ(counters_.drops[ci.drop], 1u) << sctp_assoc_drop_name(ci.drop);
			for (unsigned d = 0; d < SCTP_ASSOC_DROP_COUNT; d++) {
				if (d != ci.drop) {
					EXPECT_EQ(counters_.drops[d], 0u) << sctp_assoc_drop_name(
						static_cast<enum sctp_assoc_drop>(d));
				}
			}
			EXPECT_EQ(sent_.size(), sends);
			EXPECT_EQ(notes_.size(), notes);
			EXPECT_EQ(a_.state, st);
			tried++;
		}
	}
	EXPECT_GT(tried, 60u); // 62 of the 128 cells are discards today
}

TEST(AssocSize, ReportSizes)
{
	::testing::Test::RecordProperty("sizeof_sctp_assoc",
					static_cast<int>(sizeof(struct sctp_assoc)));
	::testing::Test::RecordProperty("sizeof_assoc_tx",
					static_cast<int>(sizeof(struct sctp_assoc_tx)));
	::testing::Test::RecordProperty("sizeof_handshake",
					static_cast<int>(sizeof(struct sctp_assoc_handshake)));
	EXPECT_LE(sizeof(struct sctp_assoc), 512u); // docs/ARCHITECTURE.md decision 6
}

// The handshake scratch is lent for COOKIE-WAIT and COOKIE-ECHOED only.
TEST_F(One, HandshakeScratchIsLentForTheHandshakeOnly)
{
	hs_refuse_ = true;
	struct sctp_addr peer = peer_addr_, local = local_addr_;
	EXPECT_EQ(sctp_assoc_connect(&a_, &ep_, &peer, &local, kClientPort, kServerPort, now_),
		  -ENOBUFS);
	EXPECT_EQ(a_.state, SCTP_ASSOC_CLOSED);
	EXPECT_TRUE(sent_.empty());
	hs_refuse_ = false;
	connect();
	EXPECT_TRUE(hs_lent_);
	EXPECT_EQ(a_.hs, &hs_store_);
	input(kClientTag, init_ack(kServerTag, 10, 10));
	EXPECT_TRUE(hs_lent_);
	input_hex(kClientTag, "0b000004");
	ASSERT_EQ(a_.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_FALSE(hs_lent_);
	EXPECT_EQ(a_.hs, nullptr);
}

TEST_F(One, HandshakeScratchComesBackWhenTheHandshakeFails)
{
	connect();
	for (int i = 0; i <= prof_.max_init_retransmits && a_.state != SCTP_ASSOC_CLOSED; i++) {
		now_ = sctp_assoc_next_wakeup(&a_);
		sctp_assoc_timeout(&a_, now_);
	}
	ASSERT_EQ(a_.state, SCTP_ASSOC_CLOSED);
	EXPECT_FALSE(hs_lent_);
	connect(); // and can be lent again
	ASSERT_EQ(sctp_assoc_abort(&a_, now_, nullptr, 0), 0);
	EXPECT_FALSE(hs_lent_);
}

} // namespace
