// SPDX-License-Identifier: BSD-3-Clause
// I-DATA through the association (RFC 8260): two associations on a virtual
// clock (assoc_harness.h Sim), both profiles. Negotiated only when both
// sides offer it, and then the only user data chunk both ways; a small
// message on one stream overtakes a large one on another (the head-of-line
// blocking DATA cannot avoid); DATA on an association that negotiated
// I-DATA is a protocol violation; the schedulers and stream parameters are
// set per association; PR-SCTP abandons whole interleaved messages with
// I-FORWARD TSN; and under random loss, duplication-free delivery of every
// message, byte-identical and in order per stream, with nothing held after.
#include <map>
#include <random>

#include "assoc_harness.h"

extern "C" {
#include "sctp/chunk_data.h"
#include "sctp/chunk_forward_tsn.h"
#include "sctp/chunk_idata.h"
}

namespace {

// The message's index in its first four bytes, then a pattern of it.
Bytes
message(uint32_t index, size_t len)
{
	Bytes b(len < 4 ? 4 : len);
	uint32_t x = index * 2654435761u + 7;
	for (auto &c : b) {
		x = x * 1103515245u + 12345u;
		c = static_cast<uint8_t>(x >> 16);
	}
	std::memcpy(b.data(), &index, 4);
	return b;
}

// A packet from the server to the client with the server's tag.
Bytes
server_packet(const Sim &sim, const Bytes &chunk)
{
	Bytes pkt(SCTP_COMMON_HDR_LEN + chunk.size(), 0);
	sctp_store_be16(pkt.data(), kServerPort);
	sctp_store_be16(pkt.data() + 2, kClientPort);
	sctp_store_be32(pkt.data() + 4, sim.s.a.peer_vtag);
	std::copy(chunk.begin(), chunk.end(), pkt.begin() + SCTP_COMMON_HDR_LEN);
	return pkt;
}

class IData : public ::testing::TestWithParam<const struct sctp_profile *> {
      protected:
	const struct sctp_profile *prof() const
	{
		return GetParam();
	}
	std::unique_ptr<Sim> make(bool client = true, bool server = true, uint32_t rwnd = 65536)
	{
		auto sim = std::make_unique<Sim>(prof(), prof(), one_way_delay(prof()));
		sim->enable_data(rwnd, 1024, 4u << 20);
		sim->enable_pr();
		sim->enable_idata(client, server);
		return sim;
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
			EXPECT_EQ(x->data->ireasm_pool.n_free, x->data->ireasm_pool.n);
		}
	}
};

TEST_P(IData, NegotiatedWhenBothOfferIt)
{
	auto sim = make();
	sim->handshake();
	EXPECT_TRUE(sim->c.a.extensions & SCTP_COOKIE_EXT_I_DATA);
	EXPECT_TRUE(sim->s.a.extensions & SCTP_COOKIE_EXT_I_DATA);
	// The INIT and the INIT ACK list I-DATA and I-FORWARD TSN (PR-SCTP is on too).
	for (const Side *x : { &sim->c, &sim->s }) {
		bool listed = false;
		for (const auto &s : x->sent) {
			if (s.first != SCTP_CHUNK_INIT && s.first != SCTP_CHUNK_INIT_ACK)
				continue;
			const Bytes &b = s.bytes;
			for (size_t i = SCTP_COMMON_HDR_LEN + 20; i + 6 <= b.size(); i++)
				if (b[i] == 0x80 && b[i + 1] == 0x08 &&
				    b[i + 4] == SCTP_CHUNK_I_DATA &&
				    b[i + 5] == SCTP_CHUNK_I_FORWARD_TSN)
					listed = true;
		}
		EXPECT_TRUE(listed) << x->name;
	}
	ASSERT_EQ(sim->send(sim->c, 1, message(1, 3000)), 0);
	sim->run();
	ASSERT_EQ(sim->s.data->delivered.size(), 1u);
	EXPECT_EQ(sim->s.data->delivered[0].bytes, message(1, 3000));
	EXPECT_EQ(sim->s.data->delivered[0].ppid, 51u);
	EXPECT_GE(chunks_of_type(sim->c, SCTP_CHUNK_I_DATA), 3u);
	EXPECT_EQ(chunks_of_type(sim->c, SCTP_CHUNK_DATA), 0u);
	expect_no_drops(sim->c);
	expect_no_drops(sim->s);
	finish(*sim);
}

TEST_P(IData, OneSideWithoutItMeansData)
{
	for (int who = 0; who < 2; who++) {
		auto sim = make(who == 0, who == 1);
		sim->handshake();
		EXPECT_FALSE(sim->c.a.extensions & SCTP_COOKIE_EXT_I_DATA);
		EXPECT_FALSE(sim->s.a.extensions & SCTP_COOKIE_EXT_I_DATA);
		ASSERT_EQ(sim->send(sim->c, 0, message(7, 5000)), 0);
		sim->run();
		ASSERT_EQ(sim->s.data->delivered.size(), 1u);
		EXPECT_EQ(sim->s.data->delivered[0].bytes, message(7, 5000));
		EXPECT_EQ(chunks_of_type(sim->c, SCTP_CHUNK_I_DATA), 0u);
		EXPECT_GE(chunks_of_type(sim->c, SCTP_CHUNK_DATA), 4u);
		finish(*sim);
	}
}

// RFC 8260 §1: with DATA a large message holds back a small one queued
// after it on another stream until its last fragment went; with I-DATA
// round robin takes turns per chunk and the small one goes up first.
TEST_P(IData, SmallMessageOvertakesALargeOneOnAnotherStream)
{
	for (bool idata : { false, true }) {
		auto sim = make(idata, idata, 1u << 20);
		sim->handshake();
		ASSERT_EQ(sim->send(sim->c, 1, message(1, 200000), SCTP_SEND_MORE), 0);
		ASSERT_EQ(sim->send(sim->c, 2, message(2, 64)), 0);
		sim->run();
		const auto &got = sim->s.data->delivered;
		ASSERT_EQ(got.size(), 2u) << (idata ? "I-DATA" : "DATA");
		EXPECT_EQ(index_of(got[0].bytes), idata ? 2u : 1u) << (idata ? "I-DATA" : "DATA");
		for (const auto &m : got)
			EXPECT_EQ(m.bytes, message(index_of(m.bytes), m.sid == 1 ? 200000 : 64));
		finish(*sim);
	}
}

// RFC 8260 §2.2: DATA where I-DATA was negotiated aborts the association.
TEST_P(IData, DataChunkAfterNegotiationIsAProtocolViolation)
{
	auto sim = make();
	sim->handshake();
	// A DATA chunk the server cannot have sent, in a packet with its tag.
	Bytes chunk = {
		SCTP_CHUNK_DATA, 0x03, 0, 20, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4
	};
	sctp_store_be32(chunk.data() + 4, sim->s.a.peer_initial_tsn);
	sim->queue.emplace(sim->now, Sim::InFlight{ &sim->c, server_packet(*sim, chunk),
						    sim->s.addr, sim->c.addr });
	sim->run();
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_CLOSED);
	EXPECT_EQ(chunks_of_type(sim->c, SCTP_CHUNK_ABORT), 1u);
	EXPECT_TRUE(sim->c.data->delivered.empty());
	finish(*sim);
}

// §2.1 with RFC 9260 §6.2: an I-DATA chunk without user data, as DATA's.
TEST_P(IData, IDataWithoutUserDataIsAbortedWithNoUserData)
{
	auto sim = make();
	sim->handshake();
	Bytes chunk = {
		SCTP_CHUNK_I_DATA, 0x03, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
	};
	sctp_store_be32(chunk.data() + 4, sim->s.a.peer_initial_tsn);
	sim->queue.emplace(sim->now, Sim::InFlight{ &sim->c, server_packet(*sim, chunk),
						    sim->s.addr, sim->c.addr });
	sim->run();
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_CLOSED);
	bool no_user_data = false;
	for (const auto &x : sim->c.sent)
		for (const auto &c : decode(x.bytes).chunks)
			if (c.type == SCTP_CHUNK_ABORT && c.value.size() >= 2 &&
			    sctp_load_be16(c.value.data()) == SCTP_CAUSE_NO_USER_DATA)
				no_user_data = true;
	EXPECT_TRUE(no_user_data);
	finish(*sim);
}

// §2.3.1: a FORWARD TSN where I-FORWARD TSN is the kind: counted, nothing moves.
TEST_P(IData, ForwardTsnOfTheWrongKindIsDiscarded)
{
	auto sim = make();
	sim->handshake();
	uint32_t cum = sctp_tsn_map_cum(&sim->c.a.rx_tsn);
	Bytes chunk = { SCTP_CHUNK_FORWARD_TSN, 0, 0, 8, 0, 0, 0, 0 };
	sctp_store_be32(chunk.data() + 4, cum + 5);
	sim->queue.emplace(sim->now, Sim::InFlight{ &sim->c, server_packet(*sim, chunk),
						    sim->s.addr, sim->c.addr });
	sim->run();
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_EQ(sim->c.counters.drops[SCTP_ASSOC_DROP_FWD_TSN_WRONG_KIND], 1u);
	EXPECT_EQ(sctp_tsn_map_cum(&sim->c.a.rx_tsn), cum);
	EXPECT_EQ(sim->c.stats.fwd_tsn_in, 0u);
	finish(*sim);
}

TEST_P(IData, SchedulerAndStreamPriorityPerAssociation)
{
	auto sim = make(true, true, 1u << 20);
	EXPECT_EQ(sctp_assoc_set_sched(&sim->c.a, SCTP_OUTQ_SCHED_PRIO), -ENOTCONN);
	sim->handshake();
	EXPECT_EQ(sctp_assoc_sched(&sim->c.a), SCTP_OUTQ_SCHED_RR);
	EXPECT_EQ(sctp_assoc_set_sched(&sim->c.a, 99), -EINVAL);
	ASSERT_EQ(sctp_assoc_set_sched(&sim->c.a, SCTP_OUTQ_SCHED_PRIO), 0);
	EXPECT_EQ(sctp_assoc_sched(&sim->c.a), SCTP_OUTQ_SCHED_PRIO);
	ASSERT_EQ(sctp_assoc_set_stream_param(&sim->c.a, 1, 5), 0); // low priority
	ASSERT_EQ(sctp_assoc_set_stream_param(&sim->c.a, 2, 1), 0);
	EXPECT_EQ(sctp_assoc_stream_param(&sim->c.a, 1), 5);
	EXPECT_EQ(sctp_assoc_set_stream_param(&sim->c.a, sim->c.a.outbound_streams, 1), -EINVAL);
	for (uint32_t i = 0; i < 6; i++)
		ASSERT_EQ(sim->send(sim->c, 1, message(i, 3000), SCTP_SEND_MORE), 0);
	EXPECT_EQ(sctp_assoc_set_sched(&sim->c.a, SCTP_OUTQ_SCHED_RR), -EBUSY);
	for (uint32_t i = 6; i < 12; i++)
		ASSERT_EQ(sim->send(sim->c, 2, message(i, 3000), SCTP_SEND_MORE), 0);
	ASSERT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), 0);
	sim->run();
	const auto &got = sim->s.data->delivered;
	ASSERT_EQ(got.size(), 12u);
	// Stream 2 (priority 1) went first, although stream 1 was queued first.
	for (size_t k = 0; k < 6; k++)
		EXPECT_EQ(got[k].sid, 2u) << k;
	finish(*sim);
}

// RFC 8260 §2.3.1: a message abandoned under its policy goes whole, named
// by (stream, U, MID) in an I-FORWARD TSN; the stream goes on.
TEST_P(IData, RetransmissionLimitAbandonsWithIForwardTsn)
{
	auto sim = make(true, true, 1u << 20);
	sim->handshake();
	// Every client packet with a chunk of message 0 vanishes once.
	std::map<uint32_t, unsigned> seen;
	sim->lose = [&seen](const Side &from, const Bytes &b, uint8_t) {
		if (from.name != std::string("client"))
			return false;
		for (const auto &c : decode(b).chunks)
			if (c.type == SCTP_CHUNK_I_DATA &&
			    sctp_load_be32(c.value.data() + 8) == 0 &&
			    sctp_load_be16(c.value.data() + 4) == 1 &&
			    seen[sctp_load_be32(c.value.data())]++ == 0)
				return true;
		return false;
	};
	ASSERT_EQ(sim->send_pr(sim->c, 1, message(0, 6000), SCTP_PR_RTX, 0, SCTP_SEND_MORE), 0);
	ASSERT_EQ(sim->send(sim->c, 2, message(1, 6000), SCTP_SEND_MORE), 0);
	ASSERT_EQ(sim->send(sim->c, 1, message(2, 100)), 0);
	sim->run();
	const auto &got = sim->s.data->delivered;
	ASSERT_EQ(got.size(), 2u);
	for (const auto &m : got)
		EXPECT_NE(index_of(m.bytes), 0u);
	EXPECT_GE(chunks_of_type(sim->c, SCTP_CHUNK_I_FORWARD_TSN), 1u);
	EXPECT_EQ(chunks_of_type(sim->c, SCTP_CHUNK_FORWARD_TSN), 0u);
	EXPECT_EQ(sim->c.stats.pr_abandoned.msgs[SCTP_PR_RTX], 1u);
	ASSERT_EQ(sim->c.data->failed.size(), 1u);
	EXPECT_TRUE(sim->c.data->failed[0].sent);
	EXPECT_EQ(sim->c.data->failed[0].sid, 1u);
	EXPECT_GE(sim->s.stats.fwd_tsn_in, 1u);
	finish(*sim);
}

// RFC 7496 §4 with RFC 8260, the flush's "spent" path: the first fragment
// of a message sent with a retransmission limit of 0 is lost while its E is
// still queued (the cwnd holds it back). Fast retransmit marks it, used up;
// the message may not be abandoned before its E goes (sctp/rtxq.h,
// "PR-SCTP"), so new data sends the E and the expiry looks again at the
// next event. The peer gap-acks every other fragment and the flight, T3-rtx
// with it, is gone: had nothing looked again, the message would stay
// marked, never resent nor abandoned, the peer's stream blocked for good.
TEST_P(IData, AMessageWhoseFirstFragmentIsLostIsAbandonedOnceItsLastIsSent)
{
	auto sim = make(true, true, 1u << 20);
	sim->handshake();
	uint32_t tsn0 = sim->c.a.tx->next_tsn;
	bool lost = false;
	sim->lose = [&lost, tsn0](const Side &from, const Bytes &b, uint8_t) {
		if (lost || from.name != std::string("client"))
			return false;
		for (const auto &c : decode(b).chunks)
			if (c.type == SCTP_CHUNK_I_DATA && sctp_load_be32(c.value.data()) == tsn0)
				return lost = true;
		return false;
	};
	Bytes big = message(0, 30000);
	ASSERT_EQ(sim->send_pr(sim->c, 1, big, SCTP_PR_RTX, 0), 0);
	ASSERT_FALSE(sctp_outq_empty(&sim->c.a.tx->outq)) << "the cwnd kept its E back";
	sim->run();
	ASSERT_TRUE(lost);
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_TRUE(sim->s.data->delivered.empty());
	ASSERT_EQ(sim->c.data->failed.size(), 1u) << "abandoned and reported";
	EXPECT_EQ(sim->c.data->failed[0].pr_policy, SCTP_PR_RTX);
	EXPECT_EQ(sim->c.data->failed[0].length, 30000u);
	EXPECT_GE(chunks_of_type(sim->c, SCTP_CHUNK_I_FORWARD_TSN), 1u);
	EXPECT_TRUE(sctp_rtxq_empty(&sim->c.a.tx->rtxq));
	// The stream goes on.
	Bytes next = message(1, 300);
	ASSERT_EQ(sim->send(sim->c, 1, next), 0);
	sim->run();
	ASSERT_EQ(sim->s.data->delivered.size(), 1u);
	EXPECT_EQ(sim->s.data->delivered[0].bytes, next);
	EXPECT_TRUE(sctp_rtxq_empty(&sim->c.a.tx->rtxq));
	EXPECT_EQ(sim->s.data->ireasm_pool.n_free, sim->s.data->ireasm_pool.n);
	finish(*sim);
}

TEST_P(IData, RandomLossEveryMessageOnceInOrderOrAbandoned)
{
	for (unsigned seed = 1; seed <= 4; seed++) {
		auto sim = make(true, true, 1u << 18);
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
			size_t len;
		};
		std::vector<Msg> msgs;
		for (uint32_t i = 0; i < 200; i++) {
			uint16_t sid = static_cast<uint16_t>(rng() % 4);
			bool u = rng() % 4 == 0;
			uint8_t pol = rng() % 3 == 0 ? SCTP_PR_RTX : SCTP_PR_NONE;
			size_t len = 4 + rng() % (rng() % 6 == 0 ? 20000 : 300);
			ASSERT_EQ(sim->send_pr(sim->c, sid, message(i, len), pol, rng() % 3,
					       u ? SCTP_SEND_UNORDERED : 0, 100 + sid),
				  0);
			msgs.push_back({ sid, u, pol, len });
			if (i % 8 == 7)
				sim->run(sim->now + prof()->rto_initial_ns / 4);
		}
		sim->run();
		ASSERT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED) << "seed " << seed;
		std::vector<unsigned> delivered(msgs.size(), 0);
		std::map<uint16_t, uint32_t> last_ordered;
		for (const auto &g : sim->s.data->delivered) {
			ASSERT_EQ(g.flags & (SCTP_REASM_MSG_MORE | SCTP_REASM_MSG_CONT), 0u);
			uint32_t k = index_of(g.bytes);
			ASSERT_LT(k, msgs.size());
			EXPECT_EQ(g.bytes, message(k, msgs[k].len)) << "message " << k;
			EXPECT_EQ(g.sid, msgs[k].sid);
			EXPECT_EQ(g.ppid, 100u + g.sid);
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
		unsigned lost = 0;
		for (size_t k = 0; k < msgs.size(); k++) {
			EXPECT_LE(delivered[k], 1u) << "message " << k << " delivered twice";
			if (msgs[k].policy == SCTP_PR_NONE)
				EXPECT_EQ(delivered[k], 1u) << "reliable message " << k;
			else
				lost += delivered[k] == 0;
		}
		// Every message not delivered was reported (some delivered ones may be too).
		EXPECT_GE(sim->c.data->failed.size(), lost);
		EXPECT_EQ(sim->c.data->failed.size(), sim->c.stats.pr_abandoned.msgs[SCTP_PR_RTX]);
		for (const auto &f : sim->c.data->failed)
			EXPECT_EQ(f.ppid, 100u + f.sid) << "SEND FAILED names the message's PPID";
		for (Side *x : { &sim->c, &sim->s }) {
			EXPECT_TRUE(sctp_rtxq_empty(&x->a.tx->rtxq)) << x->name;
			EXPECT_TRUE(sctp_outq_empty(&x->a.tx->outq)) << x->name;
			EXPECT_EQ(x->data->ireasm_pool.n_free, x->data->ireasm_pool.n) << x->name;
		}
		EXPECT_EQ(chunks_of_type(sim->c, SCTP_CHUNK_DATA), 0u);
		// Every packet within the MTU (1500, IPv4), retransmissions bundled too.
		for (const auto &x : sim->c.sent)
			EXPECT_LE(x.bytes.size(), 1500u - 20u);
		EXPECT_GT(sim->c.stats.data_rtx, 0u);
		finish(*sim);
	}
}

INSTANTIATE_TEST_SUITE_P(Profiles, IData, ::testing::Values(&sctp_profile_rfc, &sctp_profile_dc),
			 [](const ::testing::TestParamInfo<const struct sctp_profile *> &i) {
				 return std::string(i.param == &sctp_profile_rfc ? "Rfc" : "Dc");
			 });

} // namespace
