// SPDX-License-Identifier: BSD-3-Clause
// The association's paths (sctp/assoc_path.c and the path set inside the
// association): addresses learned in the handshake and confirmed by
// heartbeats (RFC 9260 §5.1.2, §5.4), idle heartbeats and their ACKs (§8.3),
// failover from a black-holed primary and the return to it (§6.4.1, §8.2,
// RFC 7829), communication lost when every path fails (§8.1), SET PRIMARY
// (§11.1), on two associations on a virtual clock for both profiles; forged
// and replayed HEARTBEAT ACKs on one association fed crafted packets.
#include "assoc_harness.h"

namespace {

class PairPaths : public ::testing::TestWithParam<const struct sctp_profile *> {
      protected:
	const struct sctp_profile *prof() const
	{
		return GetParam();
	}
	uint64_t d() const
	{
		return one_way_delay(prof());
	}
	// Long enough for the heartbeats of every path to come round twice.
	uint64_t two_periods() const
	{
		return 2 * (prof()->hb_interval_ns + 2 * prof()->rto_max_ns);
	}
};

INSTANTIATE_TEST_SUITE_P(Profiles, PairPaths,
			 ::testing::Values(&sctp_profile_rfc, &sctp_profile_dc),
			 [](const ::testing::TestParamInfo<const struct sctp_profile *> &info) {
				 return std::string(info.param == &sctp_profile_rfc ? "Rfc" : "Dc");
			 });

// The idle-heartbeat budget through the association (sctp_assoc_ops.hb_admit,
// docs/PATHS.md "Heartbeats at scale"): every idle heartbeat asks once and
// goes exactly at the slot the budget gave it, without asking again; the
// timer follows the deferred deadline (the checked core verifies it after
// every call); nothing is counted as an error and the path stays active.
struct Budget {
	static inline std::vector<uint64_t> asks;
	static inline unsigned probes = 0;
	static inline uint64_t wait = 0;
	static uint64_t admit(void *, uint64_t now_ns, bool probe)
	{
		if (probe) {
			probes++;
			return 0;
		}
		asks.push_back(now_ns);
		return wait;
	}
};

TEST_P(PairPaths, IdleHeartbeatsGoAtTheSlotTheBudgetGives)
{
	Sim sim(prof(), prof(), d());
	sim.handshake();
	Budget::asks.clear();
	Budget::probes = 0;
	Budget::wait = prof()->hb_interval_ns / 2 + 12345;
	sim.ops.hb_admit = Budget::admit;
	size_t before = sim.c.sent.size();
	sim.run(sim.now + two_periods());
	std::vector<uint64_t> hbs;
	for (size_t k = before; k < sim.c.sent.size(); k++)
		if (sim.c.sent[k].first == SCTP_CHUNK_HEARTBEAT)
			hbs.push_back(sim.c.sent[k].at);
	// Both sides ask (the server's asks are in the same list): the client's
	// heartbeats are each one of the asks plus the wait.
	ASSERT_GE(hbs.size(), 1u);
	EXPECT_GE(Budget::asks.size(), hbs.size());
	for (uint64_t t : hbs) {
		bool at_a_slot = false;
		for (uint64_t a : Budget::asks)
			at_a_slot |= a + Budget::wait == t;
		EXPECT_TRUE(at_a_slot) << "a HEARTBEAT at " << t << " is at no granted slot";
	}
	EXPECT_EQ(Budget::probes, 0u);
	EXPECT_EQ(sctp_paths_get_const(&sim.c.a.paths, 0)->state, SCTP_PATH_ACTIVE);
	EXPECT_EQ(sctp_paths_get_const(&sim.c.a.paths, 0)->errors, 0u);
	expect_no_drops(sim.c);
	expect_no_drops(sim.s);
	sim.ops.hb_admit = nullptr;
}

uint8_t
path_flags(const struct sctp_assoc &a, unsigned i)
{
	return sctp_paths_get_const(&a.paths, i)->flags;
}

// §5.1.2 and §5.4: the client gave both server addresses (rule 1:
// confirmed); the server learns the client's second address from the INIT
// (rule 3: unconfirmed) and confirms it with a HEARTBEAT sent as soon as
// it is ESTABLISHED (§5.4: probe unconfirmed addresses right away).
TEST_P(PairPaths, MultihomedHandshakeLearnsAndConfirmsEveryAddress)
{
	Sim sim(prof(), prof(), d(), true);
	sim.handshake();
	auto &c = sim.c, &s = sim.s;
	ASSERT_EQ(c.a.paths.n, 2u);
	ASSERT_EQ(s.a.paths.n, 2u);
	EXPECT_TRUE(path_flags(c.a, 0) & SCTP_PATH_F_CONFIRMED);
	EXPECT_TRUE(path_flags(c.a, 1) & SCTP_PATH_F_CONFIRMED);
	EXPECT_TRUE(path_flags(s.a, 0) & SCTP_PATH_F_CONFIRMED); // the INIT ACK went there
	struct sctp_addr a1 = sctp_path_addr(sctp_paths_get_const(&s.a.paths, 1));
	EXPECT_TRUE(sctp_addr_eq(&a1, &c.addr2));
	EXPECT_TRUE(c.paths_lent && s.paths_lent);
	// Confirmed by the probe: one HEARTBEAT round trip after COMM_UP.
	EXPECT_TRUE(path_flags(s.a, 1) & SCTP_PATH_F_CONFIRMED);
	auto confirmed = s.addr_changes(c.addr2, SCTP_ADDR_CHANGE_CONFIRMED);
	ASSERT_EQ(confirmed.size(), 1u);
	EXPECT_EQ(confirmed[0], s.notes[0].at + 2 * d());
	const Sent &probe = s.last_of(SCTP_CHUNK_HEARTBEAT);
	EXPECT_TRUE(sctp_addr_eq(&probe.dst, &c.addr2));
	EXPECT_TRUE(sctp_addr_eq(&probe.src, &s.addr2)) << "the source on the same network";

	sim.run(sim.now + two_periods());
	EXPECT_GT(c.stats.heartbeats_sent, 0u);
	EXPECT_GT(s.stats.heartbeats_sent, 0u);
	expect_no_drops(c);
	expect_no_drops(s);

	// The path blocks go back when the associations close.
	ASSERT_EQ(sctp_assoc_shutdown(&c.a, sim.now), 0);
	sim.run();
	EXPECT_EQ(c.a.state, SCTP_ASSOC_CLOSED);
	EXPECT_EQ(s.a.state, SCTP_ASSOC_CLOSED);
	EXPECT_FALSE(c.paths_lent);
	EXPECT_FALSE(s.paths_lent);
}

// §8.3: an idle path is heartbeated every RTO + HB.interval ± RTO/2, and
// the ACK gives the path an RTT sample: the server, which had none after
// the handshake, measures its first one.
TEST_P(PairPaths, IdleHeartbeatsAreSentAndAnswered)
{
	Sim sim(prof(), prof(), d());
	sim.handshake();
	EXPECT_EQ(sim.s.a.paths.first.rto.srtt_ns, 0u);
	uint64_t up = sim.now;
	sim.run(up + 3 * prof()->hb_interval_ns + 4 * prof()->rto_max_ns);
	for (Side *x : { &sim.c, &sim.s }) {
		SCOPED_TRACE(x->name);
		auto t = x->times_of(SCTP_CHUNK_HEARTBEAT);
		ASSERT_GE(t.size(), 2u);
		uint64_t rto_max = prof()->rto_max_ns;
		for (size_t i = 1; i < t.size(); i++) {
			EXPECT_GE(t[i] - t[i - 1], prof()->hb_interval_ns) << i;
			EXPECT_LE(t[i] - t[i - 1], prof()->hb_interval_ns + rto_max + rto_max / 2)
				<< i;
		}
		EXPECT_EQ(x->times_of(SCTP_CHUNK_HEARTBEAT_ACK).size(),
			  sim.peer_of(*x).times_of(SCTP_CHUNK_HEARTBEAT).size());
		EXPECT_EQ(x->a.state, SCTP_ASSOC_ESTABLISHED);
		expect_no_drops(*x);
	}
	EXPECT_EQ(sim.s.a.paths.first.rto.srtt_ns, 2 * d());
}

// §6.4.1, §8.2, RFC 7829: the client's primary (server address 1) goes
// dark; unanswered heartbeats make it PF (DC) and inactive, new data moves
// to the alternate; once repaired, a HEARTBEAT ACK brings it back.
TEST_P(PairPaths, BlackHoledPrimaryFailsOverAndReturns)
{
	Sim sim(prof(), prof(), d(), true);
	sim.handshake();
	auto &c = sim.c;
	sim.run(sim.now + two_periods());
	ASSERT_EQ(c.a.paths.current, 0u);
	uint64_t t_hole = sim.now;
	sim.blackhole.push_back(sim.s.addr);
	sim.run(t_hole + 4 * two_periods() + 16 * prof()->rto_max_ns);
	auto unreachable = c.addr_changes(sim.s.addr, SCTP_ADDR_CHANGE_UNREACHABLE);
	ASSERT_EQ(unreachable.size(), 1u);
	EXPECT_EQ(c.a.paths.current, 1u);
	EXPECT_EQ(c.counters.failovers, 1u);
	auto pf = c.addr_changes(sim.s.addr, SCTP_ADDR_CHANGE_POTENTIALLY_FAILED);
	if (prof()->pf_enabled) {
		ASSERT_EQ(pf.size(), 1u);
		EXPECT_LT(pf[0], unreachable[0]);
	} else {
		EXPECT_TRUE(pf.empty());
	}
	EXPECT_EQ(c.a.state, SCTP_ASSOC_ESTABLISHED);
	::testing::Test::RecordProperty(
		"failover_ns", std::to_string((pf.empty() ? unreachable[0] : pf[0]) - t_hole));

	uint64_t t_repair = sim.now;
	sim.blackhole.clear();
	sim.run(t_repair + 2 * two_periods() + 8 * prof()->rto_max_ns);
	auto available = c.addr_changes(sim.s.addr, SCTP_ADDR_CHANGE_AVAILABLE);
	ASSERT_EQ(available.size(), 1u);
	EXPECT_GT(available[0], t_repair);
	EXPECT_EQ(c.a.paths.current, 0u);
	EXPECT_EQ(c.counters.primary_returns, 1u);
	for (Side *x : { &sim.c, &sim.s }) {
		for (const auto &n : x->notes)
			EXPECT_NE(n.n.type, SCTP_NOTIFY_COMM_LOST) << x->name;
	}
}

// §8.1: a peer that answers nothing on its only path ends the
// association after Association.Max.Retrans + 1 unanswered heartbeats:
// COMMUNICATION LOST, nothing more sent, the association freeable.
TEST_P(PairPaths, SilentPeerEndsTheAssociation)
{
	Sim sim(prof(), prof(), d());
	sim.handshake();
	sim.blackhole.push_back(sim.s.addr);
	size_t hb_before = sim.c.times_of(SCTP_CHUNK_HEARTBEAT).size();
	sim.run(sim.now + (prof()->assoc_max_retrans + 2u) *
				  (prof()->hb_interval_ns + 2 * prof()->rto_max_ns));
	ASSERT_FALSE(sim.c.notes.empty());
	const Note &last = sim.c.notes.back();
	EXPECT_EQ(last.n.type, SCTP_NOTIFY_COMM_LOST);
	EXPECT_EQ(last.n.reason, SCTP_ASSOC_REASON_PATHS_FAILED);
	EXPECT_EQ(sim.c.a.state, SCTP_ASSOC_CLOSED);
	EXPECT_TRUE(sctp_assoc_freeable(&sim.c.a));
	EXPECT_EQ(sctp_assoc_next_wakeup(&sim.c.a), SCTP_TIME_NEVER);
	// Association.Max.Retrans errors are allowed; the next one ends it.
	EXPECT_EQ(sim.c.times_of(SCTP_CHUNK_HEARTBEAT).size() - hb_before,
		  prof()->assoc_max_retrans + 1u);
	EXPECT_EQ(sim.c.times_of(SCTP_CHUNK_HEARTBEAT).back() <= last.at, true);
}

// §11.1 SET PRIMARY: only a confirmed address of the peer.
TEST_P(PairPaths, SetPrimaryTakesOnlyConfirmedPeerAddresses)
{
	Sim sim(prof(), prof(), d(), true);
	auto &c = sim.c, &s = sim.s;
	sim.blackhole.push_back(c.addr2); // so the server cannot confirm it
	sim.handshake();
	EXPECT_EQ(sctp_assoc_set_primary(&s.a, &c.addr2, sim.now), -EINVAL);
	struct sctp_addr stranger = v4(10, 9, 9, 9);
	EXPECT_EQ(sctp_assoc_set_primary(&c.a, &stranger, sim.now), -EADDRNOTAVAIL);
	EXPECT_EQ(c.counters.drops[SCTP_ASSOC_DROP_USER_SET_PRIMARY_REFUSED], 1u);
	ASSERT_EQ(sctp_assoc_set_primary(&c.a, &s.addr2, sim.now), 0);
	EXPECT_EQ(c.a.paths.primary, 1u);
	EXPECT_EQ(c.a.paths.current, 1u); // active, so new data moves at once
	EXPECT_EQ(c.addr_changes(s.addr2, SCTP_ADDR_CHANGE_MADE_PRIMARY).size(), 1u);
	ASSERT_EQ(sctp_assoc_abort(&c.a, sim.now, nullptr, 0), 0);
	EXPECT_EQ(sctp_assoc_set_primary(&c.a, &s.addr2, sim.now), -ENOTCONN);
}

// ---- One association, crafted HEARTBEAT ACKs ---------------------------

// §8.3, §5.4: a HEARTBEAT ACK counts only with the info of a HEARTBEAT we
// sent and have not seen answered; anything else changes nothing.
TEST_F(One, HeartbeatAcksAreVerified)
{
	to_established();
	// Made up: right length, wrong nonce.
	input_hex(kClientTag, "05000018 00010014 01000000 1122334455667788 0000000000000001");
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_HB_ACK_REFUSED], 1u);
	// A real one: let the heartbeat timer fire and echo its info.
	now_ = sctp_assoc_next_wakeup(&a_);
	ASSERT_EQ(now_, a_.timer_at[SCTP_ASSOC_T_HEARTBEAT]);
	sctp_assoc_timeout(&a_, now_);
	ASSERT_EQ(last().first, SCTP_CHUNK_HEARTBEAT);
	Packet hb = decode(last().bytes);
	EXPECT_EQ(hb.vtag, kServerTag);
	EXPECT_TRUE(sctp_addr_eq(&last().dst, &peer_addr_));
	Bytes ack = { SCTP_CHUNK_HEARTBEAT_ACK, 0, 0,
		      static_cast<uint8_t>(SCTP_CHUNK_HDR_LEN + hb.chunks[0].value.size()) };
	ack.insert(ack.end(), hb.chunks[0].value.begin(), hb.chunks[0].value.end());
	now_ += SCTP_MS(7);
	input(kClientTag, ack);
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_HB_ACK_REFUSED], 1u);
	// One more RTT sample, 7 ms (§6.3.1 C3): SRTT was 0 (the handshake's
	// samples took no time here), so it becomes 7 ms / 8.
	EXPECT_EQ(a_.paths.first.rto.srtt_ns, SCTP_MS(7) / 8);
	// The same ACK again is a replay.
	input(kClientTag, ack);
	EXPECT_EQ(counters_.drops[SCTP_ASSOC_DROP_HB_ACK_REFUSED], 2u);
}

// Without path storage (ops.paths_get NULL) the association keeps one path
// and counts the peer's other addresses.
TEST_F(One, AddressesBeyondThePathStorageAreCounted)
{
	connect();
	input(kClientTag, init_ack(kServerTag, 10, 10, [](struct sctp_writer *w) {
		      for (uint8_t i = 5; i < 8; i++) {
			      struct sctp_param_addr pa;
			      std::memset(&pa, 0, sizeof(pa));
			      pa.type = SCTP_PARAM_IPV4_ADDR;
			      pa.addr[0] = 10;
			      pa.addr[3] = i;
			      sctp_param_addr_build(w, &pa);
		      }
	      }));
	ASSERT_EQ(a_.state, SCTP_ASSOC_COOKIE_ECHOED);
	EXPECT_EQ(a_.paths.n, 1u);
	EXPECT_EQ(counters_.peer_addrs_ignored, 3u);
}

} // namespace
