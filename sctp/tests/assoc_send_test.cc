// SPDX-License-Identifier: BSD-3-Clause
// The association's send path (sctp/assoc_send.c) end to end: two
// associations on a virtual clock (assoc_harness.h Sim) with the send and
// receive paths on, both profiles. Messages go both ways and are checked
// byte for byte, exactly once and in order per ordered stream; losses are
// recovered by fast retransmit and by T3-rtx at the asserted times; slow
// start shows in the packets per round trip; shutdown waits for the data;
// SEND FAILED reports what an abort strands; the send API's errors; a SACK
// of a TSN never sent aborts (RFC 9260 §12.4); zero window probing (§6.1
// A): a window held closed for many RTO.Max costs no error and reopens at
// once, a peer gone silent is still given up. Every buffer hold is
// released at the end of every test (zero copy, sctp/buf.h).
#include <cstdio>
#include <random>
#include <set>

#include "assoc_harness.h"

extern "C" {
#include "sctp/chunk_data.h"
#include "sctp/chunk_sack.h"
}

namespace {

class Send : public ::testing::TestWithParam<const struct sctp_profile *> {
      protected:
	const struct sctp_profile *prof() const
	{
		return GetParam();
	}
	std::unique_ptr<Sim> make(uint32_t rwnd = 65536, uint32_t rtxq_nodes = 1024,
				  uint32_t outq_max_bytes = 1u << 20)
	{
		auto sim = std::make_unique<Sim>(prof(), prof(), one_way_delay(prof()));
		sim->enable_data(rwnd, rtxq_nodes, outq_max_bytes);
		return sim;
	}
	// Close what is open, then check that nothing is held or lent.
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
			EXPECT_FALSE(x->data->lent) << x->name << ": data storage given back";
			EXPECT_EQ(x->data->rtxq_pool.n_free, x->data->rtxq_pool.n);
			EXPECT_EQ(x->data->outq_pool.n_free, x->data->outq_pool.n);
			EXPECT_EQ(x->data->reasm_pool.n_free, x->data->reasm_pool.n);
		}
	}
};

// A message whose bytes tell where it came from: checkable byte for byte.
Bytes
pattern(size_t len, uint32_t seed)
{
	Bytes b(len);
	uint32_t x = seed * 2654435761u + 1;
	for (auto &c : b) {
		x = x * 1103515245u + 12345u;
		c = static_cast<uint8_t>(x >> 16);
	}
	return b;
}

struct Expect {
	uint16_t sid;
	bool unordered;
	Bytes bytes;
};

// Every expected message delivered exactly once; ordered ones in order per stream.
void
check_delivery(const std::vector<Expect> &want, const std::vector<RxMsg> &got, const char *who)
{
	ASSERT_EQ(got.size(), want.size()) << who;
	std::map<uint16_t, std::vector<Bytes>> want_ordered, got_ordered;
	std::multiset<Bytes> want_unordered, got_unordered;
	for (const auto &w : want) {
		if (w.unordered)
			want_unordered.insert(w.bytes);
		else
			want_ordered[w.sid].push_back(w.bytes);
	}
	for (const auto &g : got) {
		EXPECT_EQ(g.flags & (SCTP_REASM_MSG_MORE | SCTP_REASM_MSG_CONT), 0u);
		if (g.flags & SCTP_REASM_MSG_UNORDERED)
			got_unordered.insert(g.bytes);
		else
			got_ordered[g.sid].push_back(g.bytes);
	}
	EXPECT_TRUE(want_ordered == got_ordered) << who << ": ordered streams differ";
	EXPECT_TRUE(want_unordered == got_unordered) << who << ": unordered messages differ";
}

TEST_P(Send, MessagesBothWaysExactlyOnceInOrder)
{
	auto sim = make();
	sim->handshake();
	std::mt19937 rng(7);
	std::vector<Expect> to_s, to_c;
	for (int i = 0; i < 60; i++) {
		for (Side *x : { &sim->c, &sim->s }) {
			size_t len = (i % 7 == 0) ? 1 + rng() % 9000 : 1 + rng() % 300;
			uint16_t sid = static_cast<uint16_t>(rng() % 4);
			bool u = rng() % 5 == 0;
			Bytes b = pattern(len, static_cast<uint32_t>(i * 2 + (x == &sim->s)));
			ASSERT_EQ(sim->send(*x, sid, b, u ? SCTP_SEND_UNORDERED : 0), 0);
			(x == &sim->c ? to_s : to_c).push_back({ sid, u, b });
		}
		if (i % 10 == 9)
			sim->run();
	}
	sim->run();
	check_delivery(to_s, sim->s.data->delivered, "server");
	check_delivery(to_c, sim->c.data->delivered, "client");
	EXPECT_EQ(sim->c.stats.data_rtx, 0u);
	EXPECT_GT(sim->c.stats.sacks_in, 0u);
	EXPECT_TRUE(sctp_rtxq_empty(&sim->c.a.tx->rtxq));
	// With the RFC's 200 ms SACK delay, delayed SACKs ride on DATA going
	// the other way (the DC profile's 100 µs delay mostly expires first).
	if (prof() == &sctp_profile_rfc) {
		EXPECT_GT(sim->c.counters.sacks_bundled + sim->s.counters.sacks_bundled, 0u);
	}
	expect_no_drops(sim->c);
	expect_no_drops(sim->s);
	finish(*sim);
}

TEST_P(Send, SmallMessagesAreBundled)
{
	auto sim = make();
	sim->handshake();
	std::vector<Expect> want;
	for (int i = 0; i < 20; i++) {
		Bytes b = pattern(40, i);
		ASSERT_EQ(sim->send(sim->c, 0, b), 0);
		want.push_back({ 0, false, b });
	}
	// The first message left alone (nothing was waiting); the other 19
	// waited for cwnd only if the first flight was full, else each left
	// at once: in all cases no packet carries less than it could.
	sim->run();
	check_delivery(want, sim->s.data->delivered, "server");
	EXPECT_LE(sim->c.data->data_packets, 20u);
	finish(*sim);
}

// RFC 7053: SCTP_SEND_SACK_NOW sets the I bit; the receiver answers at
// once instead of after its SACK delay.
TEST_P(Send, SackNowIsAnsweredAtOnce)
{
	auto sim = make();
	sim->handshake();
	uint64_t t0 = sim->now;
	ASSERT_EQ(sim->send(sim->c, 0, pattern(10, 1), SCTP_SEND_SACK_NOW), 0);
	Packet p = decode(sim->c.sent.back().bytes);
	ASSERT_EQ(p.chunks.size(), 1u);
	EXPECT_EQ(p.chunks[0].type, SCTP_CHUNK_DATA);
	EXPECT_TRUE(p.chunks[0].flags & SCTP_DATA_FLAG_I);
	sim->run();
	auto sacks = sim->s.times_of(SCTP_CHUNK_SACK);
	ASSERT_EQ(sacks.size(), 1u);
	EXPECT_EQ(sacks[0], t0 + sim->delay);
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T3_RTX], SCTP_TIME_NEVER) << "§6.3.2 R2";
	finish(*sim);
}

TEST_P(Send, LargeMessageIsFragmentedAtThePmdcs)
{
	auto sim = make();
	sim->handshake();
	Bytes b = pattern(20000, 3);
	ASSERT_EQ(sim->send(sim->c, 1, b, 0, 99), 0);
	sim->run();
	ASSERT_EQ(sim->s.data->delivered.size(), 1u);
	EXPECT_EQ(sim->s.data->delivered[0].bytes, b);
	EXPECT_EQ(sim->s.data->delivered[0].ppid, 99u);
	// 1452 payload bytes per DATA chunk on IPv4 at MTU 1500: 14 chunks.
	EXPECT_EQ(sim->c.stats.data_sent, 14u);
	for (const auto &p : sim->c.sent)
		EXPECT_LE(p.bytes.size(), 1480u) << "an IPv4 packet of at most 1500 bytes";
	finish(*sim);
}

// The DATA packets x sent, in order, as (time, first TSN).
std::vector<std::pair<uint64_t, uint32_t>>
data_packets(const Side &x)
{
	std::vector<std::pair<uint64_t, uint32_t>> out;
	for (const auto &s : x.sent) {
		Packet p = decode(s.bytes);
		for (const auto &c : p.chunks)
			if (c.type == SCTP_CHUNK_DATA) {
				out.push_back({ s.at, sctp_load_be32(c.value.data()) });
				break;
			}
	}
	return out;
}

TEST_P(Send, LostPacketRecoveredByFastRetransmit)
{
	auto sim = make();
	sim->handshake();
	bool lost = false;
	sim->lose = [&](const Side &from, const Bytes &, uint8_t) {
		// The first DATA packet of the client that carries only DATA.
		if (&from == &sim->c && !lost && from.data->data_packets == 1) {
			lost = true;
			return true;
		}
		return false;
	};
	std::vector<Expect> want;
	for (int i = 0; i < 40; i++) {
		Bytes b = pattern(1000, i);
		ASSERT_EQ(sim->send(sim->c, 0, b), 0);
		want.push_back({ 0, false, b });
	}
	sim->run();
	ASSERT_TRUE(lost);
	check_delivery(want, sim->s.data->delivered, "server");
	EXPECT_GE(sim->c.stats.fast_retransmits, 1u);
	EXPECT_EQ(sim->c.stats.t3_expiries, 0u);
	EXPECT_GE(sim->c.stats.data_rtx, 1u);
	finish(*sim);
}

TEST_P(Send, LostPacketRecoveredByT3AfterOneRto)
{
	auto sim = make();
	sim->handshake();
	unsigned drops = 0;
	sim->lose = [&](const Side &from, const Bytes &, uint8_t first) {
		if (&from == &sim->c && first == SCTP_CHUNK_DATA && drops == 0) {
			drops++;
			return true;
		}
		return false;
	};
	uint64_t rto = sim->c.a.paths.first.rto.rto_ns;
	uint64_t t0 = sim->now;
	Bytes b = pattern(100, 1);
	ASSERT_EQ(sim->send(sim->c, 0, b), 0);
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T3_RTX], t0 + rto);
	sim->run(t0 + rto);
	// §6.3.3 E2: the RTO doubled (up to RTO.Max) as T3-rtx expired.
	EXPECT_EQ(sim->c.a.paths.first.rto.rto_ns, std::min<uint64_t>(2 * rto, prof()->rto_max_ns));
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T3_RTX], t0 + rto + sim->c.a.paths.first.rto.rto_ns)
		<< "T3-rtx restarted with the backed-off RTO";
	sim->run();
	auto pk = data_packets(sim->c);
	ASSERT_EQ(pk.size(), 2u);
	EXPECT_EQ(pk[0].first, t0);
	EXPECT_EQ(pk[1].first, t0 + rto) << "§6.3.3: retransmitted when T3-rtx expires";
	EXPECT_EQ(pk[0].second, pk[1].second) << "the same TSN";
	EXPECT_EQ(sim->c.stats.t3_expiries, 1u);
	EXPECT_EQ(sim->c.stats.t3_spurious, 0u) << "a real loss: no duplicate, no undo";
	ASSERT_EQ(sim->s.data->delivered.size(), 1u);
	EXPECT_EQ(sim->s.data->delivered[0].bytes, b);
	finish(*sim);
}

// The receiver stops polling for three RTOs in the middle of a transfer
// (a descheduled thread): T3-rtx expires although nothing is lost. The
// retransmissions reach the receiver after the originals and come back as
// duplicate TSNs, so the sender judges the timeout spurious and puts back
// the cwnd and ssthresh it had before the expiry (sctp/spurious.h).
TEST_P(Send, ReceiverStallIsJudgedSpuriousAndUndone)
{
	auto sim = make();
	sim->handshake();
	std::vector<Expect> want;
	for (int i = 0; i < 60; i++) {
		Bytes b = pattern(1000, i);
		ASSERT_EQ(sim->send(sim->c, 0, b), 0);
		want.push_back({ 0, false, b });
	}
	uint64_t rto = sim->c.a.paths.first.rto.rto_ns;
	sim->stalled = &sim->s;
	sim->stall_from = sim->now + 3 * sim->delay;
	sim->stall_until = sim->stall_from + 3 * rto;
	struct sctp_cc_path before = {};
	for (int i = 0; i < 100000 && !sim->quiet(); i++) {
		struct sctp_cc_path cc = sim->c.a.tx->path[0].cc;
		uint64_t t3 = sim->c.stats.t3_expiries;
		if (!sim->step(SCTP_TIME_NEVER - 1))
			break;
		if (t3 == 0 && sim->c.stats.t3_expiries == 1)
			before = cc; // the state the first expiry cut
	}
	check_delivery(want, sim->s.data->delivered, "server");
	ASSERT_GE(sim->c.stats.t3_expiries, 1u) << "the stall outlasted the RTO";
	EXPECT_EQ(sim->c.stats.fast_retransmits, 0u);
	EXPECT_GE(sim->s.stats.data_dups, 1u) << "the copies arrived after the originals";
	EXPECT_EQ(sim->c.stats.t3_spurious, 1u);
	const struct sctp_cc_path &after = sim->c.a.tx->path[0].cc;
	EXPECT_EQ(after.ssthresh, before.ssthresh) << "the expiry's ssthresh cut undone";
	EXPECT_GE(after.cwnd, before.cwnd) << "cwnd back to at least its value before";
	EXPECT_EQ(after.flags & SCTP_CC_F_ONE_PACKET, 0u);
	finish(*sim);
}

// A steady stream of 64-byte messages, a message every 1/64 RTO, one packet
// each, through a receiver that stops for three RTOs after five (a
// descheduled thread); lose(), when set, drops packets. What the client's
// counters say at the end, every message checked delivered.
struct StallRun {
	uint64_t msgs, t3, rtx, saved, spurious, fast, mtu;
};

StallRun
stream_through_stall(const struct sctp_profile *client, const struct sctp_profile *server,
		     bool stall)
{
	Sim sim(client, server, one_way_delay(client));
	sim.enable_data(1u << 20, 4096, 1u << 20);
	sim.handshake();
	std::vector<Expect> want;
	uint64_t rto = sim.c.a.paths.first.rto.rto_ns;
	uint64_t gap = rto / 64;
	uint64_t t0 = sim.now;
	uint64_t end = t0 + 20 * rto;
	if (stall) {
		sim.stalled = &sim.s;
		sim.stall_from = t0 + 5 * rto;
		sim.stall_until = sim.stall_from + 3 * rto;
	}
	uint64_t next = t0;
	uint32_t i = 0;
	for (int k = 0; k < 1000000 && (sim.now < end || !sim.quiet()); k++) {
		if (sim.now < end && sim.now >= next) {
			Bytes b = pattern(64, i++);
			EXPECT_EQ(sim.send(sim.c, 0, b), 0);
			want.push_back({ 0, false, b });
			next += gap;
		}
		uint64_t limit = sim.now < end ? next : SCTP_TIME_NEVER - 1;
		if (sim.step(limit))
			continue;
		if (sim.now >= end)
			break;
		sim.now = next; // nothing happens before the next message
	}
	check_delivery(want, sim.s.data->delivered, "server");
	const auto &ctr = sim.c.stats;
	StallRun r = {
		want.size(),	 ctr.t3_expiries,      ctr.data_rtx,	       ctr.t3_rtx_saved,
		ctr.t3_spurious, ctr.fast_retransmits, sim.c.a.paths.first.mtu
	};
	EXPECT_EQ(sctp_assoc_abort(&sim.c.a, sim.now, nullptr, 0), 0);
	sim.queue.clear();
	EXPECT_EQ(sim.held(), 0) << "every hold released";
	return r;
}

// The same stall under a steady stream of small messages, as signalling
// sends them: F-RTO (sctp/spurious.h) holds what the expiry marked once the
// first SACK after the stall acknowledges originals, sends new messages in
// its place, and when the next SACKs acknowledge originals past the
// expiry's own packet puts the held chunks back in flight. Only the
// expiry's packets go twice, not the whole window (go-back-N), which is
// what the same run with F-RTO off (--frto off) sends.
TEST_P(Send, ReceiverStallResendsOnlyTheExpirysPacket)
{
	struct sctp_profile off = *prof();
	off.frto = false;
	StallRun with = stream_through_stall(prof(), prof(), true);
	StallRun without = stream_through_stall(&off, prof(), true);
	for (const StallRun *r : { &with, &without })
		std::printf("stall, F-RTO %s: %llu messages, %llu T3-rtx expiries (%llu undone), "
			    "%llu chunks resent, %llu held and not resent\n",
			    r == &with ? "on" : "off", (unsigned long long)r->msgs,
			    (unsigned long long)r->t3, (unsigned long long)r->spurious,
			    (unsigned long long)r->rtx, (unsigned long long)r->saved);
	for (const StallRun *r : { &with, &without }) {
		ASSERT_GE(r->t3, 1u) << "the stall outlasted the RTO";
		EXPECT_EQ(r->fast, 0u);
	}
	EXPECT_EQ(with.spurious, 1u);
	// Chunks of one packet at the path MTU (IPv4 and SCTP common headers off
	// it): what each expiry's packet carries.
	uint64_t per_packet = (with.mtu - 32u) / (16u + 64u);
	EXPECT_GE(with.saved, 2 * per_packet) << "more than a packet's worth held, then waited for";
	EXPECT_LE(with.rtx, with.t3 * per_packet) << "one packet per expiry went again, no more";
	EXPECT_EQ(without.saved, 0u);
	EXPECT_GT(without.rtx, with.rtx + per_packet) << "off: the window goes twice";
}

// The other side of F-RTO: a real outage of two RTOs under the same
// stream. The expiry's packet after the outage is answered, F-RTO holds the
// rest and sends new data, which arrives above the hole: the peer's SACK
// does not move the Cumulative TSN Ack, so the timeout is a loss and what
// was held goes (RFC 5682 §2.1 3a). Nothing is undone and every message
// arrives.
TEST_P(Send, OutageUnderFrtoIsRecoveredAsALoss)
{
	auto sim = make(1u << 20, 4096);
	sim->handshake();
	std::vector<Expect> want;
	uint64_t rto = sim->c.a.paths.first.rto.rto_ns;
	uint64_t gap = rto / 64;
	uint64_t t0 = sim->now;
	uint64_t end = t0 + 20 * rto;
	uint64_t out_from = t0 + 5 * rto, out_until = out_from + 2 * rto;
	uint64_t dropped = 0;
	sim->lose = [&](const Side &from, const Bytes &, uint8_t first) {
		bool drop = &from == &sim->c && first == SCTP_CHUNK_DATA && sim->now >= out_from &&
			    sim->now < out_until;
		dropped += drop;
		return drop;
	};
	uint64_t next = t0;
	int i = 0;
	for (int k = 0; k < 1000000 && (sim->now < end || !sim->quiet()); k++) {
		if (sim->now < end && sim->now >= next) {
			Bytes b = pattern(64, (uint32_t)i++);
			ASSERT_EQ(sim->send(sim->c, 0, b), 0);
			want.push_back({ 0, false, b });
			next += gap;
		}
		uint64_t limit = sim->now < end ? next : SCTP_TIME_NEVER - 1;
		if (sim->step(limit))
			continue;
		if (sim->now >= end)
			break;
		sim->now = next;
	}
	check_delivery(want, sim->s.data->delivered, "server");
	ASSERT_GE(dropped, 2u);
	EXPECT_GE(sim->c.stats.t3_expiries, 1u);
	EXPECT_EQ(sim->c.stats.t3_spurious, 0u) << "a loss: nothing undone";
	EXPECT_EQ(sim->c.stats.t3_rtx_saved, 0u) << "nothing held was taken for in flight";
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED);
	finish(*sim);
}

// §6.4, §8.2: T3-rtx expiries on a black-holed primary count as path
// errors; retransmissions go to the other address, and new data follows
// once the primary is no longer active.
TEST_P(Send, T3RetransmitsToTheAlternateAndFailsOver)
{
	auto sim = std::make_unique<Sim>(prof(), prof(), one_way_delay(prof()), true);
	sim->enable_data();
	sim->handshake();
	sim->run(sim->now + SCTP_S(30)); // heartbeats confirm the second addresses
	ASSERT_EQ(sim->c.a.paths.n, 2u);
	sim->blackhole.push_back(sim->s.addr);
	std::vector<Expect> want;
	for (int i = 0; i < 30; i++) {
		Bytes b = pattern(900, i);
		ASSERT_EQ(sim->send(sim->c, 0, b), 0);
		want.push_back({ 0, false, b });
	}
	sim->run(sim->now + SCTP_S(120));
	check_delivery(want, sim->s.data->delivered, "server");
	EXPECT_GE(sim->c.stats.t3_expiries, 1u);
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED);
	// Retransmissions reached the server by its second address.
	bool via_alternate = false;
	for (const auto &sent : sim->c.sent)
		via_alternate = via_alternate || sctp_addr_eq(&sent.dst, &sim->s.addr2);
	EXPECT_TRUE(via_alternate);
	EXPECT_GE(sim->c.counters.failovers, 1u) << "new data moved off the primary";
	finish(*sim);
}

TEST_P(Send, SlowStartGrowsThePacketsPerRoundTrip)
{
	auto sim = make(1u << 20);
	sim->handshake();
	for (int i = 0; i < 200; i++)
		ASSERT_EQ(sim->send(sim->c, 0, pattern(1452, i)), 0);
	sim->run();
	// Packets per round trip: group the DATA packets by the time they left
	// (a flight leaves at one instant or within one RTT of the last).
	auto pk = data_packets(sim->c);
	ASSERT_FALSE(pk.empty());
	uint64_t rtt = 2 * one_way_delay(prof());
	std::vector<unsigned> per_rtt;
	uint64_t start = pk[0].first;
	for (const auto &p : pk) {
		if (per_rtt.empty() || p.first >= start + rtt) {
			per_rtt.push_back(0);
			start = p.first;
		}
		per_rtt.back()++;
	}
	ASSERT_GE(per_rtt.size(), 3u);
	// RFC: initial cwnd 4404 = 3 full chunks; DC: 10.
	EXPECT_EQ(per_rtt[0], prof() == &sctp_profile_dc ? 10u : 3u);
	std::string seq;
	for (unsigned n : per_rtt)
		seq += std::to_string(n) + " ";
	// Slow start: each round trip's SACKs open cwnd by up to L * PMDCS each,
	// so the flights grow until the 200 messages run out.
	unsigned best = *std::max_element(per_rtt.begin(), per_rtt.end());
	EXPECT_GE(best, 3 * per_rtt[0]) << seq;
	EXPECT_GE(per_rtt[2], per_rtt[0]) << seq;
	EXPECT_GT(sim->c.a.tx->path[0].cc.cwnd, per_rtt[0] * 1468u) << seq;
	EXPECT_EQ(sim->s.data->delivered.size(), 200u);
	finish(*sim);
}

TEST_P(Send, SmallWindowBoundsWhatIsInFlight)
{
	auto sim = make(4000);
	sim->handshake();
	std::vector<Expect> want;
	for (int i = 0; i < 30; i++) {
		Bytes b = pattern(1000, i);
		ASSERT_EQ(sim->send(sim->c, 0, b), 0);
		want.push_back({ 0, false, b });
		EXPECT_LE(sim->c.a.tx->rtxq.data_flight, 4000u);
	}
	for (int i = 0; i < 10000 && sim->step(SCTP_TIME_NEVER - 1); i++) {
		EXPECT_LE(sim->c.a.tx->rtxq.data_flight, 4000u + 1000u);
		if (sim->quiet())
			break;
	}
	check_delivery(want, sim->s.data->delivered, "server");
	finish(*sim);
}

// The a_rwnd of every SACK x sent, in order.
std::vector<uint32_t>
sack_windows(const Side &x)
{
	std::vector<uint32_t> out;
	for (const auto &sent : x.sent) {
		Packet p = decode(sent.bytes);
		for (const auto &c : p.chunks)
			if (c.type == SCTP_CHUNK_SACK)
				out.push_back(sctp_load_be32(c.value.data() + 4));
	}
	return out;
}

// The receiver's window closes when reassembly holds what a lost first
// fragment keeps from delivery; the sender stops at it, and the window
// reopens once the retransmission fills the hole.
TEST_P(Send, ZeroWindowClosesAndReopens)
{
	const uint32_t rwnd = 4 * 1452;
	auto sim = make(rwnd);
	sim->handshake();
	bool lost = false;
	sim->lose = [&](const Side &from, const Bytes &, uint8_t first) {
		if (&from == &sim->c && first == SCTP_CHUNK_DATA && !lost) {
			lost = true;
			return true;
		}
		return false;
	};
	Bytes big = pattern(30000, 9);
	ASSERT_EQ(sim->send(sim->c, 0, big), 0);
	bool zero = false;
	for (int i = 0; i < 100000 && sim->step(SCTP_TIME_NEVER - 1) && !sim->quiet(); i++) {
		ASSERT_LE(sim->c.a.tx->rtxq.data_flight, rwnd);
		zero = zero || sctp_rtxq_rwnd(&sim->c.a.tx->rtxq) == 0;
	}
	EXPECT_TRUE(zero) << "the sender saw the peer's window closed";
	// A message above the receive buffer comes in parts (partial delivery,
	// sctp/reasm.h): MORE on all but the last.
	Bytes got;
	const auto &d = sim->s.data->delivered;
	ASSERT_FALSE(d.empty());
	for (size_t i = 0; i < d.size(); i++) {
		got.insert(got.end(), d[i].bytes.begin(), d[i].bytes.end());
		EXPECT_EQ((d[i].flags & SCTP_REASM_MSG_MORE) != 0, i + 1 < d.size());
	}
	EXPECT_EQ(got, big);
	auto w = sack_windows(sim->s);
	ASSERT_FALSE(w.empty());
	// Three chunks held behind the hole: one chunk of room advertised,
	// which the lost chunk, still in flight, takes.
	auto low = std::min_element(w.begin(), w.end());
	EXPECT_LE(*low, rwnd - 3 * 1452u);
	EXPECT_NE(std::find(low, w.end(), rwnd), w.end()) << "the window reopened";
	finish(*sim);
}

TEST_P(Send, ShutdownWaitsForOutstandingData)
{
	auto sim = make();
	sim->handshake();
	std::vector<Expect> want;
	for (int i = 0; i < 30; i++) {
		Bytes b = pattern(1200, i);
		ASSERT_EQ(sim->send(sim->c, 0, b), 0);
		want.push_back({ 0, false, b });
	}
	ASSERT_EQ(sctp_assoc_shutdown(&sim->c.a, sim->now), 0);
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_SHUTDOWN_PENDING);
	EXPECT_TRUE(sim->c.times_of(SCTP_CHUNK_SHUTDOWN).empty());
	EXPECT_EQ(sim->send(sim->c, 0, pattern(10, 1)), -ESHUTDOWN);
	sim->run();
	check_delivery(want, sim->s.data->delivered, "server");
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_CLOSED);
	EXPECT_EQ(sim->s.a.state, SCTP_ASSOC_CLOSED);
	auto sd = sim->c.times_of(SCTP_CHUNK_SHUTDOWN);
	ASSERT_EQ(sd.size(), 1u);
	auto pk = data_packets(sim->c);
	EXPECT_GT(sd[0], pk.back().first) << "SHUTDOWN only after the last DATA was acked";
	EXPECT_EQ(sim->c.data->failed.size(), 0u);
	finish(*sim);
}

TEST_P(Send, AbortWithQueuedDataReportsSendFailed)
{
	auto sim = make();
	sim->handshake();
	for (int i = 0; i < 20; i++)
		ASSERT_EQ(sim->send(sim->c, static_cast<uint16_t>(i % 3), pattern(1400, i), 0,
				    static_cast<uint32_t>(100 + i)),
			  0);
	ASSERT_EQ(sctp_assoc_abort(&sim->c.a, sim->now, nullptr, 0), 0);
	const auto &f = sim->c.data->failed;
	ASSERT_EQ(f.size(), 20u) << "one SEND FAILED per message";
	unsigned sent = 0;
	for (unsigned i = 0; i < f.size(); i++) {
		EXPECT_EQ(f[i].length, 1400u);
		sent += f[i].sent;
	}
	EXPECT_EQ(sent, sim->c.stats.data_sent) << "sent: the messages that went out";
	EXPECT_EQ(sim->c.counters.send_failed, 20u);
	finish(*sim);
}

TEST_P(Send, ApiErrors)
{
	auto sim = make(65536, 1024, 4096);
	Bytes b = pattern(10, 1);
	EXPECT_EQ(sim->send(sim->c, 0, b), -ENOTCONN);
	sim->connect();
	EXPECT_EQ(sim->send(sim->c, 0, b), -ENOTCONN) << "COOKIE-WAIT";
	sim->run();
	ASSERT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_EQ(sim->send(sim->c, sim->c.a.outbound_streams, b), -EINVAL);
	EXPECT_EQ(sim->send(sim->c, 0, Bytes()), -EINVAL);
	EXPECT_EQ(sim->send(sim->c, 0, b, 0x80), -EINVAL);
	EXPECT_EQ(sim->send(sim->c, 0, pattern(5000, 2)), -EMSGSIZE);
	EXPECT_EQ(sctp_assoc_send(&sim->c.a, 0, 0, 0, nullptr, sim->now), -EINVAL);
	int r = 0;
	for (int i = 0; i < 100 && r == 0; i++)
		r = sim->send(sim->c, 0, pattern(1000, i));
	EXPECT_EQ(r, -ENOBUFS);
	sim->run();
	EXPECT_EQ(sim->send(sim->c, 0, b), 0) << "room again once sent";
	sim->run();
	finish(*sim);
}

TEST_P(Send, SackOfATsnNeverSentAborts)
{
	auto sim = make();
	sim->handshake();
	sim->lose = [](const Side &, const Bytes &, uint8_t) { return true; };
	ASSERT_EQ(sim->send(sim->c, 0, pattern(100, 1)), 0);
	uint32_t tsn0 = sim->c.a.local_initial_tsn;
	// Cum TSN before our first, a gap block reaching 5 past it: never sent.
	Bytes pkt(64);
	struct sctp_writer w = sctp_writer_make(pkt.data(), pkt.size());
	sctp_packet_build_header(&w, kServerPort, kClientPort, sim->c.a.local_vtag);
	struct sctp_sack_gap g = { 1, 5 };
	sctp_sack_build_from(&w, 0, tsn0 - 1, 65536, &g, 1, nullptr, 0);
	ASSERT_TRUE(sctp_writer_ok(&w));
	pkt.resize(w.off);
	sim->lose = nullptr;
	sim->deliver(sim->c, Sim::InFlight{ &sim->c, pkt, sim->s.addr, sim->c.addr });
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_CLOSED);
	Packet ab = decode(sim->c.sent.back().bytes);
	ASSERT_EQ(ab.chunks.size(), 1u);
	EXPECT_EQ(ab.chunks[0].type, SCTP_CHUNK_ABORT);
	auto cs = causes_of(ab.chunks[0].value);
	ASSERT_EQ(cs.size(), 1u);
	EXPECT_EQ(cs[0].first, SCTP_CAUSE_PROTOCOL_VIOLATION);
	ASSERT_EQ(sim->c.data->failed.size(), 1u);
	EXPECT_TRUE(sim->c.data->failed[0].sent);
	finish(*sim);
}

// Model-based: random messages both ways over a lossy, duplicating link,
// many seeds. The model is the list of messages each side queued; every
// one must arrive once, byte for byte, in order per ordered stream.
TEST_P(Send, RandomLossManySeeds)
{
	uint64_t rtx = 0, t3 = 0, fast = 0;
	for (uint32_t seed = 1; seed <= 40; seed++) {
		SCOPED_TRACE("seed " + std::to_string(seed));
		auto sim = make();
		sim->handshake();
		std::mt19937 rng(seed);
		unsigned loss_pct = seed % 4 == 0 ? 20 : seed % 5; // 0 .. 4 %, or 20 %
		sim->lose = [&](const Side &, const Bytes &, uint8_t first) {
			// The handshake is over; shutdown chunks are kept so that the
			// run ends within T5.
			if (first == SCTP_CHUNK_SHUTDOWN || first == SCTP_CHUNK_SHUTDOWN_ACK ||
			    first == SCTP_CHUNK_SHUTDOWN_COMPLETE)
				return false;
			return rng() % 100 < loss_pct;
		};
		std::vector<Expect> to_s, to_c;
		for (int i = 0; i < 80; i++) {
			Side &x = rng() % 2 ? sim->c : sim->s;
			size_t len = rng() % 8 == 0 ? 1 + rng() % 6000 : 1 + rng() % 200;
			uint16_t sid = static_cast<uint16_t>(rng() % 3);
			bool u = rng() % 6 == 0;
			Bytes b = pattern(len, seed * 1000 + static_cast<uint32_t>(i));
			ASSERT_EQ(sim->send(x, sid, b, u ? SCTP_SEND_UNORDERED : 0), 0);
			(&x == &sim->c ? to_s : to_c).push_back({ sid, u, b });
			if (rng() % 8 == 0)
				sim->run(sim->now + rng() % (4 * one_way_delay(prof())));
		}
		// Odd seeds: the client shuts down with data outstanding both ways
		// (§9.2: SHUTDOWN-PENDING here, SHUTDOWN-RECEIVED there).
		bool shut = seed % 2 == 1;
		if (shut) {
			ASSERT_EQ(sctp_assoc_shutdown(&sim->c.a, sim->now), 0);
		}
		sim->run(sim->now + SCTP_S(600));
		if (shut) {
			ASSERT_EQ(sim->c.a.state, SCTP_ASSOC_CLOSED) << "loss " << loss_pct << "%";
			ASSERT_EQ(sim->s.a.state, SCTP_ASSOC_CLOSED);
			EXPECT_EQ(sim->c.notes.back().n.type, SCTP_NOTIFY_SHUTDOWN_COMPLETE);
			EXPECT_TRUE(sim->c.data->failed.empty());
			EXPECT_TRUE(sim->s.data->failed.empty());
		} else {
			ASSERT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED)
				<< "loss " << loss_pct << "%: the association survived";
			for (Side *x : { &sim->c, &sim->s }) {
				EXPECT_TRUE(sctp_rtxq_empty(&x->a.tx->rtxq));
				EXPECT_EQ(sctp_rtxq_check(&x->a.tx->rtxq, &x->data->rtxq_pool),
					  nullptr);
			}
		}
		check_delivery(to_s, sim->s.data->delivered, "server");
		check_delivery(to_c, sim->c.data->delivered, "client");
		for (Side *x : { &sim->c, &sim->s }) {
			rtx += x->stats.data_rtx;
			t3 += x->stats.t3_expiries;
			fast += x->stats.fast_retransmits;
		}
		finish(*sim);
		if (HasFailure())
			break;
	}
	// The losses were recovered both ways.
	EXPECT_GT(rtx, 0u);
	EXPECT_GT(t3, 0u);
	EXPECT_GT(fast, 0u);
	std::printf("retransmitted %llu chunks, %llu T3-rtx expiries, %llu fast retransmits\n",
		    static_cast<unsigned long long>(rtx), static_cast<unsigned long long>(t3),
		    static_cast<unsigned long long>(fast));
}

// ---- Bundling: SCTP_SEND_MORE, the bundling delay, the scheduler ------

// The DATA chunks of one packet as (sid, ssn, payload length).
struct DataChunk {
	uint16_t sid, ssn;
	uint32_t tsn, len;
	uint8_t flags;
};

std::vector<DataChunk>
data_chunks(const Bytes &pkt)
{
	std::vector<DataChunk> out;
	for (const auto &c : decode(pkt).chunks)
		if (c.type == SCTP_CHUNK_DATA)
			out.push_back({ sctp_load_be16(c.value.data() + 4),
					sctp_load_be16(c.value.data() + 6),
					sctp_load_be32(c.value.data()),
					static_cast<uint32_t>(c.value.size() - 12), c.flags });
	return out;
}

// The packets x sent from index `from` on.
std::vector<Packet>
packets_since(const Side &x, size_t from)
{
	std::vector<Packet> out;
	for (size_t i = from; i < x.sent.size(); i++)
		out.push_back(decode(x.sent[i].bytes));
	return out;
}

// 20 messages of 64 bytes with SCTP_SEND_MORE leave only at the flush,
// bundled: 80 bytes of chunk each, 18 fit the 1468 bytes of an IPv4 packet
// at MTU 1500, so 2 packets. Without the flag each send is one packet.
TEST_P(Send, MoreQueuesAndTheFlushBundles)
{
	auto sim = make();
	sim->handshake();
	EXPECT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), 0) << "nothing queued: nothing to do";
	EXPECT_EQ(sim->c.data->data_packets, 0u);
	std::vector<Expect> want;
	for (int i = 0; i < 20; i++) {
		Bytes b = pattern(64, i);
		ASSERT_EQ(sim->send(sim->c, 0, b, SCTP_SEND_MORE), 0);
		want.push_back({ 0, false, b });
	}
	EXPECT_EQ(sim->c.data->data_packets, 0u) << "MORE: queued, not sent";
	EXPECT_EQ(sctp_outq_queued_msgs(&sim->c.a.tx->outq), 20u);
	size_t first = sim->c.sent.size();
	EXPECT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), 0);
	EXPECT_EQ(sim->c.data->data_packets, 2u);
	auto pk = packets_since(sim->c, first);
	ASSERT_EQ(pk.size(), 2u);
	EXPECT_EQ(data_chunks(sim->c.sent[first].bytes).size(), 18u);
	EXPECT_EQ(data_chunks(sim->c.sent[first + 1].bytes).size(), 2u);
	sim->run();
	check_delivery(want, sim->s.data->delivered, "server");

	// The same without the flag: one packet per send (cwnd allows 20 x 80 bytes).
	unsigned before = sim->c.data->data_packets;
	for (int i = 0; i < 20; i++) {
		Bytes b = pattern(64, 100 + i);
		ASSERT_EQ(sim->send(sim->c, 0, b), 0);
		want.push_back({ 0, false, b });
		EXPECT_EQ(sim->c.data->data_packets, before + i + 1) << "send " << i;
	}
	// A last send without MORE flushes what the earlier ones queued.
	before = sim->c.data->data_packets;
	for (int i = 0; i < 5; i++) {
		Bytes b = pattern(64, 200 + i);
		ASSERT_EQ(sim->send(sim->c, 0, b, i < 4 ? SCTP_SEND_MORE : 0), 0);
		want.push_back({ 0, false, b });
	}
	EXPECT_EQ(sim->c.data->data_packets, before + 1);
	sim->run();
	check_delivery(want, sim->s.data->delivered, "server");
	expect_no_drops(sim->c);
	finish(*sim);
}

TEST_P(Send, FlushBeforeEstablishedIsRefused)
{
	auto sim = make();
	EXPECT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), -ENOTCONN);
	sim->connect();
	EXPECT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), -ENOTCONN) << "COOKIE-WAIT";
	sim->run();
	ASSERT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), 0);
	EXPECT_EQ(sim->c.counters.drops[SCTP_ASSOC_DROP_USER_NOT_CONNECTED], 2u);
	finish(*sim);
}

// Bundling delay 100 µs: three small sends at t0 wait, then leave together
// in one packet at t0 + 100 µs, when SCTP_ASSOC_T_BUNDLE fires.
TEST_P(Send, BundleDelayHoldsAPartialPacket)
{
	auto sim = make();
	sim->c.data->cfg.bundle_delay_us = 100;
	sim->handshake();
	uint64_t t0 = sim->now;
	std::vector<Expect> want;
	for (int i = 0; i < 3; i++) {
		Bytes b = pattern(64, i);
		ASSERT_EQ(sim->send(sim->c, 0, b), 0);
		want.push_back({ 0, false, b });
	}
	EXPECT_EQ(sim->c.data->data_packets, 0u);
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T_BUNDLE], t0 + SCTP_US(100));
	sim->now = t0 + SCTP_US(50);
	EXPECT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), 0);
	EXPECT_EQ(sim->c.data->data_packets, 0u) << "a flush within the delay holds too";
	sim->run(t0 + SCTP_US(100) - 1);
	EXPECT_EQ(sim->c.data->data_packets, 0u);
	sim->run(t0 + SCTP_US(100));
	ASSERT_EQ(sim->c.data->data_packets, 1u);
	EXPECT_EQ(sim->c.data->data_times[0], t0 + SCTP_US(100));
	EXPECT_EQ(data_chunks(sim->c.last_of(SCTP_CHUNK_DATA).bytes).size(), 3u);
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T_BUNDLE], SCTP_TIME_NEVER);
	sim->run();
	check_delivery(want, sim->s.data->delivered, "server");
	expect_no_drops(sim->c);
	finish(*sim);
}

// Enough queued for a full packet: it leaves at once; only the tail waits.
// 200-byte messages are 216 bytes of chunk: 6 fit in 1468, the 7th makes
// 1512, so the 7th send releases a packet of 6 and the 7th waits.
TEST_P(Send, BundleDelaySendsAFullPacketAtOnce)
{
	auto sim = make();
	sim->c.data->cfg.bundle_delay_us = 100;
	sim->handshake();
	uint64_t t0 = sim->now;
	std::vector<Expect> want;
	for (int i = 0; i < 7; i++) {
		Bytes b = pattern(200, i);
		ASSERT_EQ(sim->send(sim->c, 0, b), 0);
		want.push_back({ 0, false, b });
		EXPECT_EQ(sim->c.data->data_packets, i < 6 ? 0u : 1u) << "send " << i;
	}
	EXPECT_EQ(data_chunks(sim->c.last_of(SCTP_CHUNK_DATA).bytes).size(), 6u);
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T_BUNDLE], t0 + SCTP_US(100));
	sim->run(t0 + SCTP_US(100));
	ASSERT_EQ(sim->c.data->data_packets, 2u);
	EXPECT_EQ(sim->c.data->data_times[1], t0 + SCTP_US(100));
	// A message longer than a packet: its full first fragment goes at once.
	sim->run();
	unsigned before = sim->c.data->data_packets;
	Bytes big = pattern(1500, 9);
	ASSERT_EQ(sim->send(sim->c, 1, big), 0);
	want.push_back({ 1, false, big });
	EXPECT_EQ(sim->c.data->data_packets, before + 1);
	sim->run();
	EXPECT_EQ(sim->c.data->data_packets, before + 2) << "the 48-byte tail after its wait";
	check_delivery(want, sim->s.data->delivered, "server");
	finish(*sim);
}

// Delay 0, the default: every send leaves at once, no timer.
TEST_P(Send, BundleDelayZeroNeverWaits)
{
	auto sim = make();
	sim->handshake();
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(sim->send(sim->c, 0, pattern(64, i)), 0);
		EXPECT_EQ(sim->c.data->data_packets, i + 1u);
		EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T_BUNDLE], SCTP_TIME_NEVER);
	}
	sim->run();
	EXPECT_EQ(sim->s.data->delivered.size(), 3u);
	finish(*sim);
}

// Never held: a SACK_NOW message (RFC 7053: the sender wants an answer
// now), and anything once the user shuts down (§9.2: the shutdown must
// not wait on the delay).
TEST_P(Send, BundleDelayNeverHoldsSackNowOrShutdown)
{
	auto sim = make();
	sim->c.data->cfg.bundle_delay_us = 100;
	sim->handshake();
	uint64_t t0 = sim->now;
	ASSERT_EQ(sim->send(sim->c, 0, pattern(64, 1), SCTP_SEND_SACK_NOW), 0);
	EXPECT_EQ(sim->c.data->data_packets, 1u);
	sim->run();
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T_BUNDLE], SCTP_TIME_NEVER);

	t0 = sim->now;
	ASSERT_EQ(sim->send(sim->c, 0, pattern(64, 2)), 0);
	EXPECT_EQ(sim->c.data->data_packets, 1u) << "held";
	sim->now = t0 + SCTP_US(10);
	ASSERT_EQ(sctp_assoc_shutdown(&sim->c.a, sim->now), 0);
	EXPECT_EQ(sim->c.data->data_packets, 2u) << "the shutdown sends it at once";
	EXPECT_EQ(sim->c.data->data_times[1], t0 + SCTP_US(10));
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T_BUNDLE], SCTP_TIME_NEVER);
	sim->run();
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_CLOSED);
	EXPECT_EQ(sim->s.data->delivered.size(), 2u);
	finish(*sim);
}

// The scheduler from the config: three messages on stream 0, then three on
// stream 1, bundled into one packet. Round robin alternates, FCFS keeps the
// order of the sends (RFC 8260 §3.1, §3.2). An unknown one turns the send
// side off.
TEST_P(Send, SchedulerFromTheConfig)
{
	for (uint8_t sched : { (uint8_t)SCTP_OUTQ_SCHED_RR, (uint8_t)SCTP_OUTQ_SCHED_FCFS }) {
		SCOPED_TRACE(sctp_outq_sched_name(sched));
		auto sim = make();
		sim->c.data->cfg.sched = sched;
		sim->handshake();
		for (int i = 0; i < 6; i++)
			ASSERT_EQ(sim->send(sim->c, i < 3 ? 0 : 1, pattern(32, i), SCTP_SEND_MORE),
				  0);
		ASSERT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), 0);
		ASSERT_EQ(sim->c.data->data_packets, 1u);
		std::vector<std::pair<uint16_t, uint16_t>> order;
		for (const auto &d : data_chunks(sim->c.last_of(SCTP_CHUNK_DATA).bytes))
			order.push_back({ d.sid, d.ssn });
		std::vector<std::pair<uint16_t, uint16_t>> rr = { { 0, 0 }, { 1, 0 }, { 0, 1 },
								  { 1, 1 }, { 0, 2 }, { 1, 2 } };
		std::vector<std::pair<uint16_t, uint16_t>> fcfs = { { 0, 0 }, { 0, 1 }, { 0, 2 },
								    { 1, 0 }, { 1, 1 }, { 1, 2 } };
		EXPECT_EQ(order, sched == SCTP_OUTQ_SCHED_FCFS ? fcfs : rr);
		sim->run();
		EXPECT_EQ(sim->s.data->delivered.size(), 6u);
		finish(*sim);
	}
	auto sim = make();
	sim->c.data->cfg.sched = SCTP_OUTQ_SCHED_COUNT;
	sim->handshake();
	EXPECT_EQ(sim->send(sim->c, 0, pattern(32, 1)), -EOPNOTSUPP);
	finish(*sim);
}

// A packet from the server to the client: a SACK of everything the client
// sent and, when data_tsn is set, a DATA chunk with the I bit.
Bytes
sack_and_data(Sim &sim, uint32_t cum, bool with_data, uint32_t data_tsn)
{
	Bytes pkt(256);
	struct sctp_writer w = sctp_writer_make(pkt.data(), pkt.size());
	sctp_packet_build_header(&w, kServerPort, kClientPort, sim.c.a.local_vtag);
	sctp_sack_build_from(&w, 0, cum, 65536, nullptr, 0, nullptr, 0);
	if (with_data) {
		static const uint8_t hello[5] = { 'h', 'e', 'l', 'l', 'o' };
		struct sctp_data d;
		std::memset(&d, 0, sizeof(d));
		d.flags = SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E | SCTP_DATA_FLAG_I;
		d.tsn = data_tsn;
		d.ssn = static_cast<uint16_t>(data_tsn - sim.c.a.peer_initial_tsn);
		d.ppid = 51;
		d.payload = hello;
		d.payload_len = sizeof(hello);
		sctp_data_build(&w, &d);
	}
	EXPECT_TRUE(sctp_writer_ok(&w));
	pkt.resize(w.off);
	return pkt;
}

// The SACK a received packet asks for at once rides ahead of the DATA the
// same packet releases (its SACK opened cwnd): one packet, not two, and
// never a second SACK in the later packets of the same flush.
TEST_P(Send, SackAtOnceRidesOnTheDataItReleases)
{
	auto sim = make();
	sim->handshake();
	// The server sees nothing: its answers are crafted here.
	sim->lose = [&](const Side &from, const Bytes &, uint8_t) { return &from == &sim->c; };
	uint32_t tsn = sim->c.a.peer_initial_tsn;

	// Nothing to release: the SACK leaves alone, as before.
	size_t first = sim->c.sent.size();
	sim->deliver(sim->c,
		     Sim::InFlight{ &sim->c,
				    sack_and_data(*sim, sim->c.a.tx->next_tsn - 1, true, tsn++),
				    sim->s.addr, sim->c.addr });
	auto pk = packets_since(sim->c, first);
	ASSERT_EQ(pk.size(), 1u);
	ASSERT_EQ(pk[0].chunks.size(), 1u);
	EXPECT_EQ(pk[0].chunks[0].type, SCTP_CHUNK_SACK);
	EXPECT_EQ(sim->c.counters.sacks_bundled, 0u);

	// Fill cwnd, then queue more behind it.
	int n = 0;
	while (sctp_outq_empty(&sim->c.a.tx->outq)) {
		ASSERT_EQ(sim->send(sim->c, 0, pattern(1400, n)), 0);
		ASSERT_LT(++n, 100);
	}
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(sim->send(sim->c, 1, pattern(64, 1000 + i)), 0);
	uint64_t sacks = sim->c.stats.sacks_sent, bundled = sim->c.counters.sacks_bundled;
	unsigned data_pk = sim->c.data->data_packets;
	first = sim->c.sent.size();
	sim->deliver(sim->c,
		     Sim::InFlight{ &sim->c,
				    sack_and_data(*sim, sim->c.a.tx->next_tsn - 1, true, tsn++),
				    sim->s.addr, sim->c.addr });
	pk = packets_since(sim->c, first);
	ASSERT_GE(pk.size(), 1u);
	EXPECT_EQ(sim->c.data->data_packets - data_pk, pk.size()) << "no packet without DATA";
	ASSERT_GE(pk[0].chunks.size(), 2u);
	EXPECT_EQ(pk[0].chunks[0].type, SCTP_CHUNK_SACK);
	EXPECT_EQ(pk[0].chunks[1].type, SCTP_CHUNK_DATA);
	unsigned n_sacks = 0;
	for (const auto &p : pk)
		for (const auto &c : p.chunks)
			n_sacks += c.type == SCTP_CHUNK_SACK;
	EXPECT_EQ(n_sacks, 1u) << "one SACK per received packet";
	EXPECT_EQ(sim->c.stats.sacks_sent, sacks + 1);
	EXPECT_EQ(sim->c.counters.sacks_bundled, bundled + 1);
	EXPECT_TRUE(sctp_outq_empty(&sim->c.a.tx->outq));
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T_SACK], SCTP_TIME_NEVER);
	EXPECT_EQ(sim->c.data->delivered.size(), 2u);
	finish(*sim);
}

// A delayed SACK and a full-sized DATA chunk do not fit one packet. The
// SACK leaves alone at once and the DATA right behind it; holding the SACK
// for its timer held the DATA too (a ping-pong of 1452-byte messages took a
// delayed-SACK interval per message: 52 us one way instead of 1.2 us).
TEST_P(Send, DelayedSackLeavesAloneWhenFullSizedDataCannotCarryIt)
{
	auto sim = make();
	sim->handshake();
	ASSERT_EQ(sim->send(sim->s, 0, pattern(64, 1)), 0);
	for (int i = 0; i < 100 && sim->c.data->delivered.empty(); i++)
		ASSERT_TRUE(sim->step(SCTP_TIME_NEVER - 1));
	ASSERT_EQ(sim->c.data->delivered.size(), 1u);
	ASSERT_NE(sim->c.a.timer_at[SCTP_ASSOC_T_SACK], SCTP_TIME_NEVER) << "one packet: delayed";

	size_t first = sim->c.sent.size();
	ASSERT_EQ(sim->send(sim->c, 0, pattern(3000, 2)), 0); // its first fragment fills a packet
	auto pk = packets_since(sim->c, first);
	ASSERT_GE(pk.size(), 2u) << "nothing waits for the SACK timer";
	ASSERT_EQ(pk[0].chunks.size(), 1u);
	EXPECT_EQ(pk[0].chunks[0].type, SCTP_CHUNK_SACK);
	EXPECT_EQ(pk[1].chunks[0].type, SCTP_CHUNK_DATA);
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T_SACK], SCTP_TIME_NEVER);
	unsigned n_sacks = 0;
	for (const auto &p : pk)
		for (const auto &c : p.chunks)
			n_sacks += c.type == SCTP_CHUNK_SACK;
	EXPECT_EQ(n_sacks, 1u);

	// A small message still carries the next delayed SACK in its packet.
	ASSERT_EQ(sim->send(sim->s, 0, pattern(64, 3)), 0);
	for (int i = 0; i < 100 && sim->c.data->delivered.size() < 2; i++)
		ASSERT_TRUE(sim->step(SCTP_TIME_NEVER - 1));
	if (sim->c.a.timer_at[SCTP_ASSOC_T_SACK] != SCTP_TIME_NEVER) {
		first = sim->c.sent.size();
		ASSERT_EQ(sim->send(sim->c, 0, pattern(64, 4)), 0);
		pk = packets_since(sim->c, first);
		ASSERT_EQ(pk.size(), 1u);
		ASSERT_EQ(pk[0].chunks.size(), 2u);
		EXPECT_EQ(pk[0].chunks[0].type, SCTP_CHUNK_SACK);
		EXPECT_EQ(pk[0].chunks[1].type, SCTP_CHUNK_DATA);
	}
	sim->run();
	EXPECT_EQ(sim->s.data->delivered.size(), 2u);
	finish(*sim);
}

// Model-based: random bursts with and without SCTP_SEND_MORE, random
// flushes, a random bundling delay (0 for some seeds), over a lossy link,
// many seeds. Whatever the batching, every message arrives once, byte for
// byte, in order per ordered stream, and nothing waits once the run is
// quiet (the bundling timer is stopped).
TEST_P(Send, RandomBundlingManySeeds)
{
	size_t msgs = 0, pkts = 0;
	for (uint32_t seed = 1; seed <= 30; seed++) {
		SCOPED_TRACE("seed " + std::to_string(seed));
		auto sim = make();
		std::mt19937 rng(seed);
		static const uint32_t delays[] = { 0, 10, 100, 5000 };
		for (Side *x : { &sim->c, &sim->s }) {
			x->data->cfg.bundle_delay_us = delays[rng() % 4];
			x->data->cfg.sched = static_cast<uint8_t>(rng() % 2);
		}
		sim->handshake();
		unsigned loss_pct = seed % 3 == 0 ? 5 : 0;
		sim->lose = [&](const Side &, const Bytes &, uint8_t first) {
			if (first == SCTP_CHUNK_SHUTDOWN || first == SCTP_CHUNK_SHUTDOWN_ACK ||
			    first == SCTP_CHUNK_SHUTDOWN_COMPLETE)
				return false;
			return rng() % 100 < loss_pct;
		};
		std::vector<Expect> to_s, to_c;
		bool pending[2] = { false, false };
		for (int i = 0; i < 120; i++) {
			int who = rng() % 2;
			Side &x = who ? sim->s : sim->c;
			size_t len = rng() % 10 == 0 ? 1 + rng() % 4000 : 1 + rng() % 150;
			uint16_t sid = static_cast<uint16_t>(rng() % 3);
			uint8_t flags = rng() % 6 == 0 ? SCTP_SEND_UNORDERED : 0;
			if (rng() % 3 != 0)
				flags |= SCTP_SEND_MORE;
			if (rng() % 25 == 0)
				flags |= SCTP_SEND_SACK_NOW;
			Bytes b = pattern(len, seed * 1000 + static_cast<uint32_t>(i));
			ASSERT_EQ(sim->send(x, sid, b, flags), 0);
			(who ? to_c : to_s)
				.push_back({ sid, (flags & SCTP_SEND_UNORDERED) != 0, b });
			pending[who] = (flags & SCTP_SEND_MORE) != 0;
			if (pending[who] && rng() % 4 == 0) {
				ASSERT_EQ(sctp_assoc_flush(&x.a, sim->now), 0);
				pending[who] = false;
			}
			if (rng() % 6 == 0) {
				// The promise of SCTP_SEND_MORE: flush before time moves on.
				for (int k = 0; k < 2; k++) {
					if (!pending[k])
						continue;
					Side &y = k ? sim->s : sim->c;
					ASSERT_EQ(sctp_assoc_flush(&y.a, sim->now), 0);
					pending[k] = false;
				}
				sim->run(sim->now + rng() % (4 * one_way_delay(prof())));
			}
		}
		for (int k = 0; k < 2; k++) {
			if (pending[k]) {
				ASSERT_EQ(sctp_assoc_flush(&(k ? sim->s : sim->c).a, sim->now), 0);
			}
		}
		bool shut = seed % 2 == 1;
		if (shut) {
			ASSERT_EQ(sctp_assoc_shutdown(&sim->c.a, sim->now), 0);
		}
		sim->run(sim->now + SCTP_S(600));
		if (shut) {
			ASSERT_EQ(sim->c.a.state, SCTP_ASSOC_CLOSED);
			ASSERT_EQ(sim->s.a.state, SCTP_ASSOC_CLOSED);
		} else {
			ASSERT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED);
			for (Side *x : { &sim->c, &sim->s }) {
				EXPECT_TRUE(sctp_outq_empty(&x->a.tx->outq));
				EXPECT_TRUE(sctp_rtxq_empty(&x->a.tx->rtxq));
				EXPECT_EQ(x->a.timer_at[SCTP_ASSOC_T_BUNDLE], SCTP_TIME_NEVER);
			}
		}
		check_delivery(to_s, sim->s.data->delivered, "server");
		check_delivery(to_c, sim->c.data->delivered, "client");
		expect_no_drops(sim->c, { SCTP_ASSOC_DROP_BAD_VTAG });
		msgs += to_s.size() + to_c.size();
		pkts += sim->c.data->data_packets + sim->s.data->data_packets;
		finish(*sim);
		if (HasFailure()) {
			std::printf("failing seed %u\n", seed);
			break;
		}
	}
	// Bundling happened: fewer DATA packets than messages.
	EXPECT_LT(pkts, msgs);
	std::printf("%zu messages in %zu DATA packets\n", msgs, pkts);
}

// ---- Zero window probing (RFC 9260 §6.1 A) ----------------------------

// The server's application is slow: delivered bytes count against its
// window (rwnd_counts_delivered) and it consumes nothing until told. Its
// buffer takes five 1000-byte messages; the sixth goes as rule A's one
// chunk into a window of 808 and is taken; the seventh finds the window at
// 0: the server drops it and says so in a SACK at once (§6.2), and the
// client probes with it from then on. The eighth waits in the queue.
constexpr uint32_t kZwpBuf = 4 * 1452;
constexpr uint32_t kZwpMsgs = 8;
// Payload of a full DATA chunk on IPv4 at MTU 1500: 1500 - 20 - 12 - 16.
constexpr uint32_t kFullChunk = 1452;

// The client's DATA packets from time t on that start with the given TSN.
std::vector<uint64_t>
times_of_tsn(const Side &x, uint64_t t, uint32_t tsn)
{
	std::vector<uint64_t> out;
	for (const auto &p : data_packets(x))
		if (p.first >= t && p.second == tsn)
			out.push_back(p.first);
	return out;
}

// The server's unconsumed bytes stay within its buffer plus the one chunk
// rule A lets into a window too small for it (§6.2: beyond that, new TSNs
// are dropped at zero window).
::testing::AssertionResult
receiver_bounded(const Sim &sim)
{
	if (sim.s.a.rx_unconsumed > kZwpBuf + kFullChunk)
		return ::testing::AssertionFailure()
		       << "server holds " << sim.s.a.rx_unconsumed << " unconsumed bytes";
	return ::testing::AssertionSuccess();
}

// The client's association, error counters and path state: untouched.
::testing::AssertionResult
no_errors(const Sim &sim)
{
	const struct sctp_assoc &a = sim.c.a;
	if (a.state != SCTP_ASSOC_ESTABLISHED || a.paths.assoc_errors != 0 ||
	    a.paths.first.errors != 0 || a.paths.first.state != SCTP_PATH_ACTIVE)
		return ::testing::AssertionFailure()
		       << "at " << sim.now << " ns: state " << int(a.state)
		       << ", association errors " << a.paths.assoc_errors << ", path errors "
		       << a.paths.first.errors << ", path state " << int(a.paths.first.state);
	return ::testing::AssertionSuccess();
}

TEST_P(Send, ZeroWindowHeldLongCountsNoErrorsAndReopensAtOnce)
{
	for (bool hb : { false, true }) {
		SCOPED_TRACE(hb ? "client heartbeats on" : "client heartbeats off");
		auto sim = make(kZwpBuf);
		sim->s.data->cfg.rwnd_counts_delivered = true;
		sim->handshake();
		// Off, nothing but T3-rtx touches the client's RTO: the schedule is exact.
		if (!hb) {
			ASSERT_EQ(sctp_paths_set_hb_enabled(&sim->c.a.paths, prof(), 0, false,
							    sim->now),
				  0);
		}
		std::vector<Expect> want;
		for (uint32_t i = 0; i < kZwpMsgs; i++) {
			Bytes b = pattern(1000, i);
			ASSERT_EQ(sim->send(sim->c, 0, b), 0);
			want.push_back({ 0, false, b });
		}
		// Until the client hears that its probe was dropped.
		struct sctp_assoc_tx *tx = sim->c.a.tx;
		for (int i = 0; i < 1000 && sim->s.counters.data_no_room == 0; i++)
			ASSERT_TRUE(sim->step(SCTP_TIME_NEVER - 1));
		for (int i = 0; i < 1000 && !tx->sack_since_data; i++)
			ASSERT_TRUE(sim->step(SCTP_TIME_NEVER - 1));
		uint32_t probe = 0;
		ASSERT_EQ(sctp_rtxq_window_probe(&tx->rtxq, &sim->c.data->rtxq_pool, &probe), 0);
		EXPECT_EQ(probe, sim->c.a.local_initial_tsn + 6) << "the seventh message";
		EXPECT_EQ(tx->rtxq.a_rwnd, 0u);
		EXPECT_EQ(sim->s.data->delivered.size(), 6u);
		EXPECT_EQ(sim->s.a.rx_unconsumed, 6000u) << "the buffer and part of a chunk";
		uint64_t t0 = sim->now, t3_0 = sim->c.stats.t3_expiries;
		uint32_t cwnd = tx->path[0].cc.cwnd;
		uint64_t rto0 = sim->c.a.paths.first.rto.rto_ns;

		// The window stays closed for many RTO.Max: ten minutes (RFC), a
		// minute (DC, RTO.Max 200 ms). Every probe is dropped and answered.
		uint64_t hold = prof() == &sctp_profile_rfc ? SCTP_S(600) : SCTP_S(60);
		for (int i = 0; i < 1000000 && sim->step(t0 + hold); i++) {
			ASSERT_TRUE(no_errors(*sim));
			ASSERT_TRUE(receiver_bounded(*sim));
		}
		auto probes = times_of_tsn(sim->c, t0, probe);
		uint64_t expiries = sim->c.stats.t3_expiries - t3_0;
		EXPECT_GE(expiries, 10u);
		EXPECT_EQ(sim->c.counters.zwp_expiries, expiries) << "every one a probe's";
		EXPECT_EQ(probes.size(), expiries) << "one probe per expiry";
		EXPECT_EQ(tx->path[0].cc.cwnd, cwnd) << "probing does not affect cwnd";
		EXPECT_EQ(tx->rtxq.data_flight, 1000u);
		EXPECT_EQ(sim->s.data->delivered.size(), 6u);
		for (const auto &n : sim->c.notes)
			EXPECT_NE(n.n.type, SCTP_NOTIFY_PEER_ADDR_CHANGE);
		if (!hb) {
			// E2: each probe one RTO after the previous one, the RTO
			// doubling up to RTO.Max, from the RTO the first went with.
			auto all = times_of_tsn(sim->c, 0, probe);
			ASSERT_EQ(all.size(), probes.size() + 1);
			uint64_t rto = rto0;
			for (size_t k = 1; k < all.size(); k++) {
				EXPECT_EQ(all[k] - all[k - 1], rto) << "probe " << k;
				rto = std::min<uint64_t>(2 * rto, prof()->rto_max_ns);
			}
			EXPECT_EQ(all.back() - all[all.size() - 2], prof()->rto_max_ns);
		}

		// The application catches up: one window update, and the probe
		// goes again with the eighth message as soon as it arrives.
		uint64_t t_open = sim->now;
		uint64_t updates = sim->s.counters.window_updates;
		ASSERT_EQ(sctp_assoc_consumed(&sim->s.a, sim->s.a.rx_unconsumed, t_open), 0);
		EXPECT_EQ(sim->s.counters.window_updates, updates + 1);
		size_t before = data_packets(sim->c).size();
		for (int i = 0; i < 100 && data_packets(sim->c).size() == before; i++)
			ASSERT_TRUE(sim->step(SCTP_TIME_NEVER - 1));
		auto pk = data_packets(sim->c);
		ASSERT_GT(pk.size(), before);
		EXPECT_EQ(pk[before].first, t_open + sim->delay) << "at once, not at T3-rtx";
		EXPECT_EQ(pk[before].second, probe);
		auto last = data_chunks(sim->c.last_of(SCTP_CHUNK_DATA).bytes);
		ASSERT_FALSE(last.empty());
		EXPECT_EQ(last.back().tsn, probe + 1) << "the eighth message right behind it";
		uint64_t t3_open = sim->c.stats.t3_expiries;
		sim->run();
		check_delivery(want, sim->s.data->delivered, "server");
		EXPECT_EQ(sim->c.stats.t3_expiries, t3_open);
		EXPECT_TRUE(no_errors(*sim));
		EXPECT_TRUE(sctp_rtxq_empty(&tx->rtxq));
		expect_no_drops(sim->c);
		finish(*sim);
	}
}

// A peer that stops answering while we probe is not alive: from the first
// probe it leaves unanswered, every T3-rtx expiry counts as before, the
// path goes inactive after Path.Max.Retrans and the association is lost
// after Association.Max.Retrans, on the RTO back-off schedule. (With RFC
// 7829 on, the DC profile's PF path is also probed by HEARTBEATs each RTO,
// whose silence counts too: the end comes sooner than T3-rtx alone makes it.)
TEST_P(Send, ZeroWindowProbeIntoSilenceStillAborts)
{
	auto sim = make(kZwpBuf);
	sim->s.data->cfg.rwnd_counts_delivered = true;
	sim->handshake();
	ASSERT_EQ(sctp_paths_set_hb_enabled(&sim->c.a.paths, prof(), 0, false, sim->now), 0);
	for (uint32_t i = 0; i < kZwpMsgs; i++)
		ASSERT_EQ(sim->send(sim->c, 0, pattern(1000, i)), 0);
	// Two probes answered, then the server falls silent just after the
	// client sent the third.
	for (int i = 0; i < 100000 && sim->c.counters.zwp_expiries < 2; i++)
		ASSERT_TRUE(sim->step(SCTP_TIME_NEVER - 1));
	ASSERT_EQ(sim->c.counters.zwp_expiries, 2u);
	ASSERT_EQ(sim->c.data->data_times.back(), sim->now) << "the probe went again";
	ASSERT_TRUE(no_errors(*sim));
	sim->lose = [&](const Side &from, const Bytes &, uint8_t) { return &from == &sim->s; };
	uint64_t t_s = sim->now, t3_s = sim->c.stats.t3_expiries;
	uint64_t rto_s = sim->c.a.paths.first.rto.rto_ns;
	sim->run(t_s + SCTP_S(3600));
	ASSERT_EQ(sim->c.a.state, SCTP_ASSOC_CLOSED);
	unsigned amr = prof()->assoc_max_retrans, pmr = prof()->path_max_retrans;
	uint64_t t3 = sim->c.stats.t3_expiries - t3_s;
	EXPECT_EQ(sim->c.counters.zwp_expiries, 2u) << "no unanswered probe is excused";
	const Note *lost = nullptr;
	for (const auto &n : sim->c.notes)
		if (n.n.type == SCTP_NOTIFY_COMM_LOST)
			lost = &n;
	ASSERT_NE(lost, nullptr);
	auto down = sim->c.addr_changes(sim->s.addr, SCTP_ADDR_CHANGE_UNREACHABLE);
	ASSERT_EQ(down.size(), 1u) << "the path went inactive first (§8.2)";
	uint64_t t_lost = t_s + backoff_sum(rto_s, prof()->rto_max_ns, amr + 1);
	uint64_t t_down = t_s + backoff_sum(rto_s, prof()->rto_max_ns, pmr + 1);
	if (!prof()->pf_enabled) {
		EXPECT_EQ(t3, amr + 1u);
		EXPECT_EQ(lost->at, t_lost);
		EXPECT_EQ(down[0], t_down);
	} else {
		EXPECT_GE(t3, 1u);
		EXPECT_LE(t3, amr + 1u);
		EXPECT_LE(lost->at, t_lost);
		EXPECT_LE(down[0], t_down);
		EXPECT_EQ(
			sim->c.addr_changes(sim->s.addr, SCTP_ADDR_CHANGE_POTENTIALLY_FAILED).at(0),
			t_s + rto_s)
			<< "PF at the first unanswered expiry (PFMR 0)";
	}
	finish(*sim);
}

INSTANTIATE_TEST_SUITE_P(Profiles, Send, ::testing::Values(&sctp_profile_rfc, &sctp_profile_dc),
			 [](const ::testing::TestParamInfo<const struct sctp_profile *> &i) {
				 return std::string(i.param == &sctp_profile_rfc ? "rfc" : "dc");
			 });

} // namespace
