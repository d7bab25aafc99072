// SPDX-License-Identifier: BSD-3-Clause
// PR-SCTP through the association (RFC 3758 §3.5-§3.6, RFC 7496): two
// associations on a virtual clock (assoc_harness.h Sim), both profiles.
// A message lost for good is abandoned under its policy (lifetime,
// retransmission limit, priority), the sender says so with a FORWARD TSN
// and the application with SEND FAILED (sent or unsent), the receiver moves
// its cumulative TSN and delivers what follows on the stream; a message
// whose lifetime ends before it is sent never reaches the wire and uses no
// SSN; a peer without PR-SCTP gets everything reliably; and under random
// loss every message is delivered at most once, in order per stream, and
// either delivered or reported abandoned, with nothing held afterwards.
#include <map>
#include <random>

#include "assoc_harness.h"

extern "C" {
#include "sctp/chunk_data.h"
#include "sctp/chunk_forward_tsn.h"
#include "sctp/chunk_sack.h"
}

namespace {

Bytes
pattern(size_t len, uint32_t seed)
{
	Bytes b(len);
	uint32_t x = seed * 2654435761u + 7;
	for (auto &c : b) {
		x = x * 1103515245u + 12345u;
		c = static_cast<uint8_t>(x >> 16);
	}
	return b;
}

// The TSNs of the DATA chunks in a packet.
std::vector<uint32_t>
tsns_of(const Bytes &b)
{
	std::vector<uint32_t> out;
	Packet p = decode(b);
	for (const auto &c : p.chunks)
		if (c.type == SCTP_CHUNK_DATA)
			out.push_back(sctp_load_be32(c.value.data()));
	return out;
}

// How many packets x sent that carry TSN tsn.
unsigned
times_sent(const Side &x, uint32_t tsn)
{
	unsigned n = 0;
	for (const auto &s : x.sent)
		for (uint32_t t : tsns_of(s.bytes))
			n += t == tsn;
	return n;
}

// A loss model: every client packet carrying TSN tsn vanishes, every time.
std::function<bool(const Side &, const Bytes &, uint8_t)>
client_loses(uint32_t tsn)
{
	return [tsn](const Side &from, const Bytes &b, uint8_t) {
		if (from.name != std::string("client"))
			return false;
		for (uint32_t t : tsns_of(b))
			if (t == tsn)
				return true;
		return false;
	};
}

class Pr : public ::testing::TestWithParam<const struct sctp_profile *> {
      protected:
	const struct sctp_profile *prof() const
	{
		return GetParam();
	}
	std::unique_ptr<Sim> make(uint32_t outq_max_bytes = 1u << 20, bool server_pr = true)
	{
		auto sim = std::make_unique<Sim>(prof(), prof(), one_way_delay(prof()));
		sim->enable_data(65536, 1024, outq_max_bytes);
		sim->enable_pr();
		if (!server_pr)
			sim->s.ep.cfg.extensions = 0;
		return sim;
	}
	// A lifetime that ends before the first T3-rtx expiry, in ms.
	uint32_t short_ttl() const
	{
		uint64_t ms = prof()->rto_initial_ns / SCTP_MS(1) / 2;
		return ms == 0 ? 1u : static_cast<uint32_t>(ms);
	}
	// Nothing left anywhere once the association is quiet.
	static void expect_empty(Sim &sim)
	{
		for (Side *x : { &sim.c, &sim.s }) {
			ASSERT_NE(x->a.tx, nullptr);
			EXPECT_TRUE(sctp_rtxq_empty(&x->a.tx->rtxq)) << x->name;
			EXPECT_TRUE(sctp_outq_empty(&x->a.tx->outq)) << x->name;
			EXPECT_EQ(x->data->reasm_pool.n_free, x->data->reasm_pool.n) << x->name;
		}
	}
	static void finish(Sim &sim)
	{
		for (Side *x : { &sim.c, &sim.s }) {
			if (x->has_assoc && x->a.state != SCTP_ASSOC_CLOSED) {
				EXPECT_EQ(sctp_assoc_abort(&x->a, sim.now, nullptr, 0), 0);
			}
		}
		sim.queue.clear();
		EXPECT_EQ(sim.held(), 0) << "every hold released";
		for (Side *x : { &sim.c, &sim.s }) {
			EXPECT_EQ(x->data->rtxq_pool.n_free, x->data->rtxq_pool.n);
			EXPECT_EQ(x->data->outq_pool.n_free, x->data->outq_pool.n);
			EXPECT_EQ(x->data->reasm_pool.n_free, x->data->reasm_pool.n);
		}
	}
};

TEST_P(Pr, NegotiatedByDefaultInTheHarness)
{
	auto sim = make();
	sim->handshake();
	EXPECT_TRUE(sim->c.a.extensions & SCTP_COOKIE_EXT_FORWARD_TSN);
	EXPECT_TRUE(sim->s.a.extensions & SCTP_COOKIE_EXT_FORWARD_TSN);
	finish(*sim);
}

// RFC 3758 §3.5 A2, C1-C3, §3.6: a message lost for good is abandoned when
// its lifetime is over; the FORWARD TSN names its stream and SSN, and the
// messages after it on the stream are delivered.
TEST_P(Pr, LifetimeAbandonsALostMessageAndTheStreamGoesOn)
{
	auto sim = make();
	sim->handshake();
	uint32_t tsn0 = sim->c.a.tx->next_tsn;
	sim->lose = client_loses(tsn0);
	Bytes m1 = pattern(100, 1), m2 = pattern(200, 2), m3 = pattern(300, 3);
	ASSERT_EQ(sim->send_pr(sim->c, 0, m1, SCTP_PR_TTL, short_ttl()), 0);
	ASSERT_EQ(sim->send(sim->c, 0, m2), 0);
	ASSERT_EQ(sim->send(sim->c, 0, m3), 0);
	sim->run();
	const auto &got = sim->s.data->delivered;
	ASSERT_EQ(got.size(), 2u);
	EXPECT_EQ(got[0].bytes, m2);
	EXPECT_EQ(got[1].bytes, m3);
	ASSERT_EQ(sim->c.data->failed.size(), 1u);
	const auto &f = sim->c.data->failed[0];
	EXPECT_TRUE(f.sent);
	EXPECT_EQ(f.pr_policy, SCTP_PR_TTL);
	EXPECT_EQ(f.length, 100u);
	EXPECT_EQ(f.sid, 0u);
	EXPECT_EQ(sim->c.stats.pr_abandoned.msgs[SCTP_PR_TTL], 1u);
	EXPECT_EQ(sim->c.stats.pr_abandoned.bytes[SCTP_PR_TTL], 100u);
	EXPECT_GE(sim->c.stats.fwd_tsn_sent, 1u);
	EXPECT_GE(sim->s.stats.fwd_tsn_in, 1u);
	// The FORWARD TSN: New Cumulative TSN tsn0, stream 0 SSN 0.
	bool seen = false;
	for (const auto &s : sim->c.sent)
		for (const auto &c : decode(s.bytes).chunks)
			if (c.type == SCTP_CHUNK_FORWARD_TSN) {
				seen = true;
				ASSERT_EQ(c.value.size(), 8u);
				EXPECT_EQ(sctp_load_be32(c.value.data()), tsn0);
				EXPECT_EQ(sctp_load_be16(c.value.data() + 4), 0u);
				EXPECT_EQ(sctp_load_be16(c.value.data() + 6), 0u);
			}
	EXPECT_TRUE(seen);
	expect_empty(*sim);
	expect_no_drops(sim->c);
	expect_no_drops(sim->s);
	finish(*sim);
}

// RFC 7496 §4: a limit of 0 retransmissions sends the message once, and
// the first loss abandons it.
TEST_P(Pr, RetransmissionLimitZeroSendsOnce)
{
	auto sim = make();
	sim->handshake();
	uint32_t tsn0 = sim->c.a.tx->next_tsn;
	sim->lose = client_loses(tsn0);
	ASSERT_EQ(sim->send_pr(sim->c, 2, pattern(500, 1), SCTP_PR_RTX, 0), 0);
	ASSERT_EQ(sim->send(sim->c, 2, pattern(50, 2)), 0);
	sim->run();
	EXPECT_EQ(times_sent(sim->c, tsn0), 1u);
	ASSERT_EQ(sim->s.data->delivered.size(), 1u);
	EXPECT_EQ(sim->s.data->delivered[0].bytes, pattern(50, 2));
	ASSERT_EQ(sim->c.data->failed.size(), 1u);
	EXPECT_EQ(sim->c.data->failed[0].pr_policy, SCTP_PR_RTX);
	EXPECT_EQ(sim->c.stats.pr_abandoned.msgs[SCTP_PR_RTX], 1u);
	expect_empty(*sim);
	finish(*sim);
}

// RFC 3758 §3.5 A3: a fragmented message given up part way goes whole: the
// fragments sent are abandoned, those still queued dropped, and the last
// fragment, never sent, takes one TSN of its own (as usrsctp does), so the
// FORWARD TSN moves the peer past it and names its SSN, and the next
// message's B follows a gap, never a fragment that is not an E.
TEST_P(Pr, AMessageGivenUpPartWayGoesWhole)
{
	auto sim = make();
	sim->handshake();
	uint32_t tsn0 = sim->c.a.tx->next_tsn;
	bool drop = true;
	sim->lose = [&drop](const Side &from, const Bytes &b, uint8_t) {
		return drop && from.name == std::string("client") && !tsns_of(b).empty();
	};
	Bytes big = pattern(20000, 1);
	ASSERT_EQ(sim->send_pr(sim->c, 0, big, SCTP_PR_TTL, short_ttl()), 0);
	sim->run();
	uint32_t last_sent = tsn0;
	for (const auto &s : sim->c.sent)
		for (uint32_t t : tsns_of(s.bytes))
			last_sent = std::max(last_sent, t);
	ASSERT_LT(last_sent, tsn0 + 13) << "the cwnd kept some fragments back";
	ASSERT_EQ(sim->c.data->failed.size(), 1u);
	EXPECT_TRUE(sim->c.data->failed[0].sent);
	EXPECT_EQ(sim->c.data->failed[0].length, 20000u);
	EXPECT_EQ(sim->c.stats.pr_abandoned.bytes[SCTP_PR_TTL], 20000u);
	uint32_t fwd_cum = 0;
	for (const auto &s : sim->c.sent)
		for (const auto &c : decode(s.bytes).chunks)
			if (c.type == SCTP_CHUNK_FORWARD_TSN) {
				fwd_cum = sctp_load_be32(c.value.data());
				ASSERT_EQ(c.value.size(), 8u);
				EXPECT_EQ(sctp_load_be16(c.value.data() + 6), 0u) << "its SSN";
			}
	EXPECT_EQ(fwd_cum, last_sent + 1) << "one TSN for the fragment never sent";
	EXPECT_EQ(sctp_tsn_map_cum(&sim->s.a.rx_tsn), last_sent + 1);
	drop = false;
	Bytes next = pattern(300, 2);
	ASSERT_EQ(sim->send(sim->c, 0, next), 0);
	EXPECT_EQ(tsns_of(sim->c.sent.back().bytes), std::vector<uint32_t>{ last_sent + 2 });
	sim->run();
	ASSERT_EQ(sim->s.data->delivered.size(), 1u);
	EXPECT_EQ(sim->s.data->delivered[0].bytes, next);
	expect_empty(*sim);
	expect_no_drops(sim->c);
	expect_no_drops(sim->s);
	finish(*sim);
}

// §6.1 A with RFC 7496 §4: a chunk sent with a retransmission limit of 0
// is the only one in flight when the peer's window closes, so it counts as
// a zero window probe, and a SACK then reopens the window without acking
// it (it was still on its way; the SACK that acks it is lost). It may not
// go again, so it stays in flight, under T3-rtx, and new data goes at once.
// Marked to go again instead, it was never resent nor abandoned (nothing
// asked the policy), T3-rtx stopped with the flight, and with DATA no new
// chunk goes while one is marked: the association sent no DATA again (the
// interop case pr-rtx against usrsctp, a 1-in-10 stall).
TEST_P(Pr, ADeadProbeTheWindowReopenedOnDoesNotStallNewData)
{
	auto sim = make();
	sim->handshake();
	struct sctp_assoc_tx *tx = sim->c.a.tx;
	uint32_t tsn0 = tx->next_tsn;
	bool mute = true; // the server's packets vanish: its SACK of the chunk with them
	sim->lose = [&mute](const Side &from, const Bytes &, uint8_t) {
		return mute && from.name == std::string("server");
	};
	Bytes x = pattern(1000, 1), y = pattern(100, 2);
	ASSERT_EQ(sim->send_pr(sim->c, 0, x, SCTP_PR_RTX, 0), 0);
	ASSERT_EQ(times_sent(sim->c, tsn0), 1u);
	size_t sacks = chunks_of_type(sim->s, SCTP_CHUNK_SACK);
	for (int i = 0; i < 1000 && chunks_of_type(sim->s, SCTP_CHUNK_SACK) == sacks; i++)
		ASSERT_TRUE(sim->step(SCTP_TIME_NEVER - 1));
	ASSERT_EQ(sim->s.data->delivered.size(), 1u) << "the server has it";
	ASSERT_EQ(sim->c.stats.t3_expiries, 0u);
	// The peer's window closes, then opens, neither SACK acking the chunk.
	auto sack = [&sim](uint32_t cum, uint32_t a_rwnd) {
		Bytes pkt(SCTP_COMMON_HDR_LEN + 16);
		struct sctp_writer w = sctp_writer_make(pkt.data(), pkt.size());
		sctp_packet_build_header(&w, sim->s.a.local_port, sim->s.a.peer_port,
					 sim->s.a.peer_vtag);
		sctp_sack_build_from(&w, 0, cum, a_rwnd, nullptr, 0, nullptr, 0);
		ASSERT_TRUE(sctp_writer_ok(&w));
		pkt.resize(w.off);
		sim->deliver(sim->c, Sim::InFlight{ &sim->c, pkt, sim->s.addr, sim->c.addr });
	};
	sack(tsn0 - 1, 1);
	uint32_t probe = 0;
	ASSERT_EQ(sctp_rtxq_window_probe(&tx->rtxq, &sim->c.data->rtxq_pool, &probe), 0);
	ASSERT_EQ(probe, tsn0);
	sack(tsn0 - 1, 65536);
	EXPECT_EQ(sctp_rtxq_flight(&tx->rtxq), sctp_rtxq_chunk_bytes(1000)) << "still in flight";
	EXPECT_NE(sim->c.a.timer_at[SCTP_ASSOC_T3_RTX], SCTP_TIME_NEVER) << "and timed";
	mute = false;
	ASSERT_EQ(sim->send(sim->c, 1, y), 0);
	EXPECT_EQ(times_sent(sim->c, tsn0 + 1), 1u) << "new data goes at once";
	sim->run();
	ASSERT_EQ(sim->s.data->delivered.size(), 2u);
	EXPECT_EQ(sim->s.data->delivered[0].bytes, x);
	EXPECT_EQ(sim->s.data->delivered[1].bytes, y);
	EXPECT_EQ(times_sent(sim->c, tsn0), 1u) << "never sent again";
	EXPECT_TRUE(sim->c.data->failed.empty()) << "the peer had it: no SEND FAILED";
	expect_empty(*sim);
	finish(*sim);
}

// The class of the stall above: with DATA no new chunk goes while one is
// marked, so a marked chunk whose retransmissions are used up must not stay
// marked. The flush that finds only such chunks abandons their messages,
// whatever marked them (here the retransmission queue directly, with no
// T3-rtx expiry or fast retransmit to ask the policy), and new data goes.
TEST_P(Pr, AMarkedChunkWithNoRetransmissionLeftIsAbandonedAtTheNextFlush)
{
	auto sim = make();
	sim->handshake();
	struct sctp_assoc_tx *tx = sim->c.a.tx;
	uint32_t tsn0 = tx->next_tsn;
	sim->lose = client_loses(tsn0);
	ASSERT_EQ(sim->send_pr(sim->c, 0, pattern(1000, 1), SCTP_PR_RTX, 0), 0);
	ASSERT_EQ(sctp_rtxq_on_t3_expiry(&tx->rtxq, &tx->env, 0, nullptr), 1u);
	Bytes y = pattern(100, 2);
	ASSERT_EQ(sim->send(sim->c, 1, y), 0);
	EXPECT_EQ(times_sent(sim->c, tsn0 + 1), 1u) << "new data goes at once";
	ASSERT_EQ(sim->c.data->failed.size(), 1u);
	EXPECT_TRUE(sim->c.data->failed[0].sent);
	EXPECT_EQ(sim->c.data->failed[0].pr_policy, SCTP_PR_RTX);
	EXPECT_EQ(sim->c.stats.fwd_tsn_sent, 1u);
	EXPECT_EQ(times_sent(sim->c, tsn0), 1u) << "never sent again";
	sim->run();
	ASSERT_EQ(sim->s.data->delivered.size(), 1u);
	EXPECT_EQ(sim->s.data->delivered[0].bytes, y);
	expect_empty(*sim);
	finish(*sim);
}

// A limit of 2: the chunk goes three times, never a fourth.
TEST_P(Pr, RetransmissionLimitIsNeverExceeded)
{
	auto sim = make();
	sim->handshake();
	uint32_t tsn0 = sim->c.a.tx->next_tsn;
	sim->lose = client_loses(tsn0);
	ASSERT_EQ(sim->send_pr(sim->c, 0, pattern(100, 1), SCTP_PR_RTX, 2), 0);
	sim->run();
	EXPECT_EQ(times_sent(sim->c, tsn0), 3u);
	ASSERT_EQ(sim->c.data->failed.size(), 1u);
	EXPECT_TRUE(sim->c.data->failed[0].sent);
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED);
	expect_empty(*sim);
	finish(*sim);
}

// A lifetime over before the message could go: never on the wire, SEND
// FAILED unsent, no FORWARD TSN (nothing to skip), no SSN used.
TEST_P(Pr, LifetimeOverBeforeSendingNeverReachesTheWire)
{
	auto sim = make();
	sim->handshake();
	size_t sent_before = sim->c.sent.size();
	for (uint32_t i = 0; i < 5; i++)
		ASSERT_EQ(sim->send_pr(sim->c, 1, pattern(80, i), SCTP_PR_TTL, 1, SCTP_SEND_MORE),
			  0);
	sim->now += SCTP_MS(1) + 1;
	ASSERT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), 0);
	EXPECT_EQ(sim->c.sent.size(), sent_before);
	ASSERT_EQ(sim->c.data->failed.size(), 5u);
	for (const auto &f : sim->c.data->failed) {
		EXPECT_FALSE(f.sent);
		EXPECT_EQ(f.pr_policy, SCTP_PR_TTL);
	}
	EXPECT_EQ(sim->c.stats.pr_abandoned.msgs[SCTP_PR_TTL], 5u);
	Bytes m = pattern(64, 9);
	ASSERT_EQ(sim->send(sim->c, 1, m), 0);
	sim->run();
	ASSERT_EQ(sim->s.data->delivered.size(), 1u);
	EXPECT_EQ(sim->s.data->delivered[0].bytes, m);
	EXPECT_EQ(sim->c.stats.fwd_tsn_sent, 0u);
	// The message went with SSN 0: the abandoned ones took none.
	bool found = false;
	for (const auto &s : sim->c.sent)
		for (const auto &c : decode(s.bytes).chunks)
			if (c.type == SCTP_CHUNK_DATA) {
				found = true;
				EXPECT_EQ(sctp_load_be16(c.value.data() + 6), 0u);
			}
	EXPECT_TRUE(found);
	finish(*sim);
}

// The lifetime is alive at its deadline and over one nanosecond after.
TEST_P(Pr, LifetimeBoundary)
{
	auto sim = make();
	sim->handshake();
	ASSERT_EQ(sim->send_pr(sim->c, 0, pattern(10, 1), SCTP_PR_TTL, 3, SCTP_SEND_MORE), 0);
	uint64_t t0 = sim->now;
	sim->now = t0 + SCTP_MS(3);
	ASSERT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), 0);
	EXPECT_TRUE(sim->c.data->failed.empty()) << "alive at the deadline: sent";
	ASSERT_EQ(sim->send_pr(sim->c, 0, pattern(10, 2), SCTP_PR_TTL, 3, SCTP_SEND_MORE), 0);
	sim->now += SCTP_MS(3) + 1;
	ASSERT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), 0);
	// Both are over now: the first in flight (sent), the second queued (unsent).
	ASSERT_EQ(sim->c.data->failed.size(), 2u);
	EXPECT_TRUE(sim->c.data->failed[0].sent);
	EXPECT_FALSE(sim->c.data->failed[1].sent);
	sim->run();
	// The first was on its way and arrives anyway (RFC 3758 §3.6 lets the
	// receiver deliver what it has); the second never left.
	ASSERT_EQ(sim->s.data->delivered.size(), 1u);
	EXPECT_EQ(sim->s.data->delivered[0].bytes, pattern(10, 1));
	finish(*sim);
}

// RFC 7496 §4: a full send queue makes room for a message of higher
// priority by abandoning queued ones of lower priority, never of higher.
TEST_P(Pr, PriorityEvictsLowerPriorityOnly)
{
	auto sim = make(4000);
	sim->handshake();
	for (uint32_t i = 0; i < 3; i++)
		ASSERT_EQ(
			sim->send_pr(sim->c, 0, pattern(1000, i), SCTP_PR_PRIO, 5, SCTP_SEND_MORE),
			0);
	Bytes hi = pattern(2000, 10);
	// 3000 of 4000 bytes queued: the 2000-byte message needs 1000 more, one
	// message of priority 5 (the youngest) goes.
	ASSERT_EQ(sim->send_pr(sim->c, 1, hi, SCTP_PR_PRIO, 1, SCTP_SEND_MORE), 0);
	ASSERT_EQ(sim->c.data->failed.size(), 1u);
	for (const auto &f : sim->c.data->failed) {
		EXPECT_FALSE(f.sent);
		EXPECT_EQ(f.pr_policy, SCTP_PR_PRIO);
		EXPECT_EQ(f.length, 1000u);
	}
	// Nothing of lower priority than 9 is queued: no room.
	EXPECT_EQ(sim->send_pr(sim->c, 0, pattern(1500, 11), SCTP_PR_PRIO, 9, SCTP_SEND_MORE),
		  -ENOBUFS);
	EXPECT_EQ(sim->c.stats.pr_abandoned.msgs[SCTP_PR_PRIO], 1u);
	EXPECT_EQ(sim->c.stats.pr_abandoned.bytes[SCTP_PR_PRIO], 1000u);
	ASSERT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), 0);
	sim->run();
	ASSERT_EQ(sim->s.data->delivered.size(), 3u);
	EXPECT_EQ(sim->s.data->delivered.back().bytes.size() +
			  sim->s.data->delivered[0].bytes.size() +
			  sim->s.data->delivered[1].bytes.size(),
		  4000u);
	size_t hi_seen = 0;
	for (const auto &m : sim->s.data->delivered)
		hi_seen += m.bytes == hi;
	EXPECT_EQ(hi_seen, 1u);
	finish(*sim);
}

TEST_P(Pr, BadPoliciesAreRefused)
{
	auto sim = make();
	sim->handshake();
	EXPECT_EQ(sim->send_pr(sim->c, 0, pattern(10, 1), 4, 1), -EINVAL);
	EXPECT_EQ(sim->send_pr(sim->c, 0, pattern(10, 1), SCTP_PR_TTL, 0), -EINVAL);
	EXPECT_EQ(sim->held(), 0);
	finish(*sim);
}

// A peer without PR-SCTP: nothing may be abandoned (no FORWARD TSN could
// say so), so the message goes reliably, counted.
TEST_P(Pr, WithoutPrSctpThePolicyIsIgnored)
{
	auto sim = make(1u << 20, false);
	sim->handshake();
	EXPECT_FALSE(sim->c.a.extensions & SCTP_COOKIE_EXT_FORWARD_TSN);
	uint32_t tsn0 = sim->c.a.tx->next_tsn;
	bool lost = false;
	sim->lose = [tsn0, &lost](const Side &from, const Bytes &b, uint8_t) {
		if (from.name != std::string("client") || lost)
			return false;
		for (uint32_t t : tsns_of(b))
			if (t == tsn0)
				return lost = true;
		return false;
	};
	Bytes m = pattern(100, 1);
	ASSERT_EQ(sim->send_pr(sim->c, 0, m, SCTP_PR_TTL, 1), 0);
	sim->run();
	ASSERT_EQ(sim->s.data->delivered.size(), 1u);
	EXPECT_EQ(sim->s.data->delivered[0].bytes, m);
	EXPECT_TRUE(sim->c.data->failed.empty());
	EXPECT_EQ(sim->c.counters.pr_unsupported, 1u);
	EXPECT_EQ(chunks_of_type(sim->c, SCTP_CHUNK_FORWARD_TSN), 0u);
	finish(*sim);
}

// A FORWARD TSN at or behind our cum (a duplicate, or one that crossed our
// SACK) changes nothing and is answered by a SACK at once.
TEST_P(Pr, StaleForwardTsnIsAnsweredWithASack)
{
	auto sim = make();
	sim->handshake();
	ASSERT_EQ(sim->send(sim->c, 0, pattern(10, 1)), 0);
	sim->run();
	size_t sacks = chunks_of_type(sim->s, SCTP_CHUNK_SACK);
	Bytes pkt(SCTP_COMMON_HDR_LEN + 8);
	struct sctp_writer w = sctp_writer_make(pkt.data(), pkt.size());
	sctp_packet_build_header(&w, sim->c.a.local_port, sim->c.a.peer_port, sim->c.a.peer_vtag);
	sctp_forward_tsn_build_entries(&w, 0, sctp_tsn_map_cum(&sim->s.a.rx_tsn), nullptr, 0);
	ASSERT_TRUE(sctp_writer_ok(&w));
	pkt.resize(w.off);
	sim->transmit(sim->c, pkt, sim->c.addr, sim->s.addr);
	sim->run();
	EXPECT_EQ(sim->s.counters.fwd_tsn_stale, 1u);
	EXPECT_EQ(chunks_of_type(sim->s, SCTP_CHUNK_SACK), sacks + 1);
	EXPECT_EQ(sim->s.data->delivered.size(), 1u);
	finish(*sim);
}

// Under random loss both ways: reliable messages arrive exactly once;
// messages with a policy arrive at most once or are reported abandoned;
// ordered streams keep their order; nothing is held once it is over.
TEST_P(Pr, RandomLossExactlyOnceOrAbandoned)
{
	for (unsigned seed = 1; seed <= 4; seed++) {
		auto sim = make();
		sim->handshake();
		std::mt19937 rng(seed);
		unsigned loss_pct = 5 * seed; // 5 to 20 %
		sim->lose = [&rng, loss_pct](const Side &, const Bytes &, uint8_t first) {
			return first != SCTP_CHUNK_ABORT && rng() % 100 < loss_pct;
		};
		struct Msg {
			uint16_t sid;
			bool unordered;
			uint8_t policy;
			Bytes bytes;
		};
		std::vector<Msg> msgs;
		std::map<uint32_t, size_t> by_ppid;
		for (uint32_t i = 0; i < 300; i++) {
			uint16_t sid = static_cast<uint16_t>(rng() % 4);
			bool u = rng() % 4 == 0;
			uint8_t pol = static_cast<uint8_t>(rng() % 3); // none, TTL, RTX
			uint32_t val = pol == SCTP_PR_TTL ? 1 + rng() % (3 * short_ttl())
							  : static_cast<uint32_t>(rng() % 3);
			size_t len = 1 + rng() % (rng() % 8 == 0 ? 4000 : 300);
			Bytes b = pattern(len, 1000 + i);
			ASSERT_EQ(sim->send_pr(sim->c, sid, b, pol, val,
					       u ? SCTP_SEND_UNORDERED : 0, i + 1),
				  0);
			msgs.push_back({ sid, u, pol, b });
			by_ppid[i + 1] = msgs.size() - 1;
			if (i % 8 == 7)
				sim->run(sim->now + prof()->rto_initial_ns / 4);
		}
		sim->run();
		ASSERT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED) << "seed " << seed;
		std::vector<unsigned> delivered(msgs.size(), 0);
		std::map<uint16_t, size_t> last_ordered;
		for (const auto &g : sim->s.data->delivered) {
			ASSERT_EQ(g.flags & (SCTP_REASM_MSG_MORE | SCTP_REASM_MSG_CONT), 0u);
			ASSERT_TRUE(by_ppid.count(g.ppid)) << "a message never sent";
			size_t k = by_ppid[g.ppid];
			EXPECT_EQ(g.bytes, msgs[k].bytes) << "message " << k;
			EXPECT_EQ(g.sid, msgs[k].sid);
			delivered[k]++;
			if (!msgs[k].unordered) {
				auto it = last_ordered.find(g.sid);
				if (it != last_ordered.end()) {
					EXPECT_LT(it->second, k)
						<< "out of order on stream " << g.sid;
				}
				last_ordered[g.sid] = k;
			}
		}
		std::map<uint32_t, unsigned> reported;
		for (const auto &f : sim->c.data->failed) {
			EXPECT_NE(f.pr_policy, 0u);
			reported[f.ppid]++;
		}
		unsigned abandoned = 0;
		for (size_t k = 0; k < msgs.size(); k++) {
			EXPECT_LE(delivered[k], 1u) << "message " << k << " delivered twice";
			unsigned rep = reported[static_cast<uint32_t>(k + 1)];
			EXPECT_LE(rep, 1u) << "message " << k << " reported twice";
			if (msgs[k].policy == SCTP_PR_NONE) {
				EXPECT_EQ(delivered[k], 1u) << "reliable message " << k;
				EXPECT_EQ(rep, 0u);
			} else if (delivered[k] == 0) {
				EXPECT_EQ(rep, 1u)
					<< "message " << k << " neither delivered nor reported";
			}
			abandoned += rep;
		}
		EXPECT_EQ(abandoned, sim->c.stats.pr_abandoned.msgs[SCTP_PR_TTL] +
					     sim->c.stats.pr_abandoned.msgs[SCTP_PR_RTX]);
		expect_empty(*sim);
		finish(*sim);
	}
}

INSTANTIATE_TEST_SUITE_P(Profiles, Pr, ::testing::Values(&sctp_profile_rfc, &sctp_profile_dc),
			 [](const ::testing::TestParamInfo<const struct sctp_profile *> &i) {
				 return std::string(i.param == &sctp_profile_rfc ? "Rfc" : "Dc");
			 });

} // namespace
