// SPDX-License-Identifier: BSD-3-Clause
// Stream reconfiguration through the association (RFC 6525): two
// associations on a virtual clock (assoc_harness.h Sim), both profiles.
// Negotiated only when both sides offer it; an outgoing and an incoming
// stream reset, alone and together, with DATA and with I-DATA; a reset
// asked while data is in flight waits at the receiver ("deferred reset
// processing") until every TSN sent before it arrived, so the messages sent
// before the reset go up with the old numbers and those after start at 0;
// a stream being reset takes no message until the answer; lost requests and
// answers are sent again; the peer's requests are checked by number.
#include <map>
#include <random>

#include "assoc_harness.h"

extern "C" {
#include "sctp/chunk_data.h"
#include "sctp/chunk_reconfig.h"
}

namespace {

Bytes
payload(uint32_t index, size_t len)
{
	Bytes b(len < 4 ? 4 : len, static_cast<uint8_t>(index * 7 + 1));
	std::memcpy(b.data(), &index, 4);
	return b;
}

// The SSNs of the DATA chunks x sent on stream sid, in order.
std::vector<uint16_t>
ssns_on(const Side &x, uint16_t sid)
{
	std::vector<uint16_t> out;
	for (const auto &s : x.sent)
		for (const auto &c : decode(s.bytes).chunks)
			if (c.type == SCTP_CHUNK_DATA && sctp_load_be16(c.value.data() + 4) == sid)
				out.push_back(sctp_load_be16(c.value.data() + 6));
	return out;
}

// The Re-configuration Responses x sent: (sequence number, result).
std::vector<std::pair<uint32_t, uint32_t>>
responses_of(const Side &x)
{
	std::vector<std::pair<uint32_t, uint32_t>> out;
	for (const auto &s : x.sent)
		for (const auto &c : decode(s.bytes).chunks) {
			if (c.type != SCTP_CHUNK_RECONFIG)
				continue;
			for (size_t off = 0; off + 12 <= c.value.size();) {
				uint16_t t = sctp_load_be16(c.value.data() + off);
				uint16_t l = sctp_load_be16(c.value.data() + off + 2);
				if (t == SCTP_PARAM_RECONFIG_RESPONSE)
					out.emplace_back(sctp_load_be32(c.value.data() + off + 4),
							 sctp_load_be32(c.value.data() + off + 8));
				off += (l + 3u) & ~3u;
				if (l < 4)
					break;
			}
		}
	return out;
}

std::vector<const Note *>
resets(const Side &x)
{
	std::vector<const Note *> out;
	for (const auto &n : x.notes)
		if (n.n.type == SCTP_NOTIFY_STREAM_RESET)
			out.push_back(&n);
	return out;
}

class Reconf : public ::testing::TestWithParam<const struct sctp_profile *> {
      protected:
	const struct sctp_profile *prof() const
	{
		return GetParam();
	}
	std::unique_ptr<Sim> make(bool client = true, bool server = true, bool idata = false)
	{
		auto sim = std::make_unique<Sim>(prof(), prof(), one_way_delay(prof()));
		sim->enable_data(1u << 20, 1024, 4u << 20);
		sim->enable_reconf(client, server);
		if (idata)
			sim->enable_idata();
		return sim;
	}
	static void finish(Sim &sim)
	{
		for (Side *x : { &sim.c, &sim.s })
			if (x->has_assoc && x->a.state != SCTP_ASSOC_CLOSED) {
				EXPECT_EQ(sctp_assoc_abort(&x->a, sim.now, nullptr, 0), 0);
			}
		sim.queue.clear();
		EXPECT_EQ(sim.held(), 0) << "every hold released";
	}
	// Messages k .. k + n - 1 on stream sid, each delivered before the next is sent.
	static void send_some(Sim &sim, uint16_t sid, uint32_t k, unsigned n)
	{
		for (unsigned i = 0; i < n; i++)
			ASSERT_EQ(sim.send(sim.c, sid, payload(k + i, 100)), 0);
		sim.run();
	}
};

TEST_P(Reconf, NegotiatedWhenBothOfferIt)
{
	for (int who = 0; who < 3; who++) {
		auto sim = make(who != 1, who != 2);
		sim->handshake();
		bool both = who == 0;
		EXPECT_EQ((sim->c.a.extensions & SCTP_COOKIE_EXT_RECONFIG) != 0, both);
		EXPECT_EQ((sim->s.a.extensions & SCTP_COOKIE_EXT_RECONFIG) != 0, both);
		uint16_t sid = 1;
		EXPECT_EQ(sctp_assoc_reset_streams(&sim->c.a, SCTP_STREAM_RESET_OUTGOING, &sid, 1,
						   sim->now),
			  both ? 0 : -EOPNOTSUPP);
		sim->run();
		finish(*sim);
	}
}

// §5.1.2, §5.2.2: the next message on a reset stream is SSN 0 again, on both sides.
TEST_P(Reconf, OutgoingResetStartsTheStreamAtZero)
{
	for (bool idata : { false, true }) {
		auto sim = make(true, true, idata);
		sim->handshake();
		send_some(*sim, 1, 0, 3);
		send_some(*sim, 2, 3, 2);
		uint16_t sid = 1;
		ASSERT_EQ(sctp_assoc_reset_streams(&sim->c.a, SCTP_STREAM_RESET_OUTGOING, &sid, 1,
						   sim->now),
			  0);
		EXPECT_EQ(sim->send(sim->c, 1, payload(99, 10)), -EAGAIN)
			<< "closed until answered";
		EXPECT_EQ(sctp_assoc_reset_streams(&sim->c.a, SCTP_STREAM_RESET_OUTGOING, &sid, 1,
						   sim->now),
			  -EINPROGRESS);
		sim->run();
		auto c_resets = resets(sim->c), s_resets = resets(sim->s);
		ASSERT_EQ(c_resets.size(), 1u);
		EXPECT_EQ(c_resets[0]->n.reset_flags, SCTP_RESET_OUTGOING_SSN);
		EXPECT_EQ(c_resets[0]->streams, std::vector<uint16_t>{ 1 });
		ASSERT_EQ(s_resets.size(), 1u);
		EXPECT_EQ(s_resets[0]->n.reset_flags, SCTP_RESET_INCOMING_SSN);
		EXPECT_EQ(s_resets[0]->streams, std::vector<uint16_t>{ 1 });
		send_some(*sim, 1, 5, 2);
		send_some(*sim, 2, 7, 1);
		const auto &got = sim->s.data->delivered;
		ASSERT_EQ(got.size(), 8u) << (idata ? "I-DATA" : "DATA");
		for (uint32_t k = 0; k < 8; k++)
			EXPECT_EQ(index_of(got[k].bytes), k);
		if (!idata) {
			EXPECT_EQ(ssns_on(sim->c, 1), (std::vector<uint16_t>{ 0, 1, 2, 0, 1 }));
			EXPECT_EQ(ssns_on(sim->c, 2), (std::vector<uint16_t>{ 0, 1, 2 }));
		}
		EXPECT_EQ(sim->c.stats.reconf_requests, 1u);
		EXPECT_EQ(sim->s.stats.reconf_peer_requests, 1u);
		expect_no_drops(sim->c);
		expect_no_drops(sim->s);
		finish(*sim);
	}
}

// §5.1.3, §5.2.3: we ask the peer to reset its outgoing streams; it answers
// with its own Outgoing SSN Reset Request, and its next message is SSN 0.
TEST_P(Reconf, IncomingResetIsAnsweredByThePeersOutgoingReset)
{
	auto sim = make();
	sim->handshake();
	for (uint32_t k = 0; k < 3; k++)
		ASSERT_EQ(sim->send(sim->s, 2, payload(k, 50)), 0);
	sim->run();
	uint16_t sid = 2;
	ASSERT_EQ(
		sctp_assoc_reset_streams(&sim->c.a, SCTP_STREAM_RESET_INCOMING, &sid, 1, sim->now),
		0);
	sim->run();
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T_RECONF], SCTP_TIME_NEVER) << "answered";
	auto c_resets = resets(sim->c), s_resets = resets(sim->s);
	ASSERT_EQ(c_resets.size(), 1u);
	EXPECT_EQ(c_resets[0]->n.reset_flags, SCTP_RESET_INCOMING_SSN);
	// The answer to the peer's request left before the application heard of
	// the reset (it may send at once; the peer waits for the answer first).
	size_t answer = SIZE_MAX;
	for (size_t i = 0; i < sim->c.sent.size() && answer == SIZE_MAX; i++)
		for (const auto &ch : decode(sim->c.sent[i].bytes).chunks)
			if (ch.type == SCTP_CHUNK_RECONFIG && ch.value.size() >= 2 &&
			    sctp_load_be16(ch.value.data()) == SCTP_PARAM_RECONFIG_RESPONSE)
				answer = i;
	ASSERT_NE(answer, SIZE_MAX);
	EXPECT_LT(answer, c_resets[0]->sent_before);
	ASSERT_EQ(s_resets.size(), 1u);
	EXPECT_EQ(s_resets[0]->n.reset_flags, SCTP_RESET_OUTGOING_SSN);
	EXPECT_EQ(s_resets[0]->streams, std::vector<uint16_t>{ 2 });
	ASSERT_EQ(sim->send(sim->s, 2, payload(3, 50)), 0);
	sim->run();
	ASSERT_EQ(sim->c.data->delivered.size(), 4u);
	EXPECT_EQ(index_of(sim->c.data->delivered[3].bytes), 3u);
	EXPECT_EQ(ssns_on(sim->s, 2), (std::vector<uint16_t>{ 0, 1, 2, 0 }));
	finish(*sim);
}

// Both ways in one request, every stream (the empty list).
TEST_P(Reconf, BothWaysEveryStream)
{
	auto sim = make();
	sim->handshake();
	send_some(*sim, 0, 0, 2);
	ASSERT_EQ(sim->send(sim->s, 3, payload(50, 30)), 0);
	sim->run();
	ASSERT_EQ(sctp_assoc_reset_streams(&sim->c.a,
					   SCTP_STREAM_RESET_OUTGOING | SCTP_STREAM_RESET_INCOMING,
					   nullptr, 0, sim->now),
		  0);
	sim->run();
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T_RECONF], SCTP_TIME_NEVER);
	EXPECT_EQ(resets(sim->c).size(), 2u); // our outgoing, then our incoming
	EXPECT_EQ(resets(sim->s).size(), 2u);
	send_some(*sim, 0, 2, 1);
	ASSERT_EQ(sim->send(sim->s, 3, payload(51, 30)), 0);
	sim->run();
	EXPECT_EQ(ssns_on(sim->c, 0), (std::vector<uint16_t>{ 0, 1, 0 }));
	EXPECT_EQ(ssns_on(sim->s, 3), (std::vector<uint16_t>{ 0, 0 }));
	EXPECT_EQ(sim->s.data->delivered.size(), 3u);
	EXPECT_EQ(sim->c.data->delivered.size(), 2u);
	finish(*sim);
}

// §5.2.2: data sent before the reset but not yet arrived (lost once) holds
// the reset back at the receiver ("In progress"), which performs it and
// says so once its cumulative TSN reaches the Sender's Last Assigned TSN.
TEST_P(Reconf, ResetWithDataInFlightWaitsForIt)
{
	auto sim = make();
	sim->handshake();
	bool lost = false;
	sim->lose = [&lost](const Side &from, const Bytes &b, uint8_t first) {
		if (from.name != std::string("client") || first != SCTP_CHUNK_DATA || lost)
			return false;
		(void)b;
		lost = true;
		return true;
	};
	for (uint32_t k = 0; k < 3; k++)
		ASSERT_EQ(sim->send(sim->c, 1, payload(k, 100)), 0);
	uint16_t sid = 1;
	ASSERT_EQ(
		sctp_assoc_reset_streams(&sim->c.a, SCTP_STREAM_RESET_OUTGOING, &sid, 1, sim->now),
		0);
	sim->run();
	auto rs = responses_of(sim->s);
	ASSERT_GE(rs.size(), 2u);
	EXPECT_EQ(rs.front().second, (uint32_t)SCTP_RECONFIG_IN_PROGRESS);
	EXPECT_EQ(rs.back().second, (uint32_t)SCTP_RECONFIG_SUCCESS_PERFORMED);
	ASSERT_EQ(resets(sim->c).size(), 1u);
	EXPECT_EQ(resets(sim->c)[0]->n.reset_flags, SCTP_RESET_OUTGOING_SSN);
	send_some(*sim, 1, 3, 1);
	const auto &got = sim->s.data->delivered;
	ASSERT_EQ(got.size(), 4u);
	for (uint32_t k = 0; k < 4; k++)
		EXPECT_EQ(index_of(got[k].bytes), k) << "the old numbering first, then 0";
	finish(*sim);
}

// §5.1.1: a lost request goes again after the RTO, with the same number.
TEST_P(Reconf, LostRequestIsSentAgain)
{
	auto sim = make();
	sim->handshake();
	unsigned dropped = 0;
	sim->lose = [&dropped](const Side &from, const Bytes &, uint8_t first) {
		if (from.name == std::string("client") && first == SCTP_CHUNK_RECONFIG &&
		    dropped == 0) {
			dropped++;
			return true;
		}
		return false;
	};
	uint16_t sid = 0;
	ASSERT_EQ(
		sctp_assoc_reset_streams(&sim->c.a, SCTP_STREAM_RESET_OUTGOING, &sid, 1, sim->now),
		0);
	sim->run();
	EXPECT_EQ(sim->c.stats.reconf_rtx, 1u);
	EXPECT_EQ(sim->s.stats.reconf_peer_requests, 1u);
	EXPECT_EQ(resets(sim->c).size(), 1u);
	EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T_RECONF], SCTP_TIME_NEVER);
	finish(*sim);
}

// §5.2.1: a lost answer: the request comes again and gets the same answer,
// the streams are not reset twice.
TEST_P(Reconf, LostAnswerIsRepeatedNotRedone)
{
	auto sim = make();
	sim->handshake();
	unsigned dropped = 0;
	sim->lose = [&dropped](const Side &from, const Bytes &, uint8_t first) {
		if (from.name == std::string("server") && first == SCTP_CHUNK_RECONFIG &&
		    dropped == 0) {
			dropped++;
			return true;
		}
		return false;
	};
	uint16_t sid = 0;
	ASSERT_EQ(
		sctp_assoc_reset_streams(&sim->c.a, SCTP_STREAM_RESET_OUTGOING, &sid, 1, sim->now),
		0);
	sim->run();
	auto rs = responses_of(sim->s);
	ASSERT_EQ(rs.size(), 2u);
	EXPECT_EQ(rs[0], rs[1]);
	EXPECT_EQ(resets(sim->s).size(), 1u) << "reset once";
	EXPECT_EQ(resets(sim->c).size(), 1u);
	finish(*sim);
}

TEST_P(Reconf, BadCallsAreRefused)
{
	auto sim = make();
	uint16_t sid = 0;
	EXPECT_EQ(
		sctp_assoc_reset_streams(&sim->c.a, SCTP_STREAM_RESET_OUTGOING, &sid, 1, sim->now),
		-ENOTCONN);
	sim->handshake();
	EXPECT_EQ(sctp_assoc_reset_streams(&sim->c.a, 0, &sid, 1, sim->now), -EINVAL);
	EXPECT_EQ(sctp_assoc_reset_streams(&sim->c.a, 8, &sid, 1, sim->now), -EINVAL);
	uint16_t bad = sim->c.a.outbound_streams;
	EXPECT_EQ(
		sctp_assoc_reset_streams(&sim->c.a, SCTP_STREAM_RESET_OUTGOING, &bad, 1, sim->now),
		-EINVAL);
	std::vector<uint16_t> many(SCTP_RECONF_MAX_STREAMS + 1, 0);
	EXPECT_EQ(sctp_assoc_reset_streams(&sim->c.a, SCTP_STREAM_RESET_OUTGOING, many.data(),
					   static_cast<uint16_t>(many.size()), sim->now),
		  -EINVAL);
	ASSERT_EQ(sim->send(sim->c, 0, payload(0, 10), SCTP_SEND_MORE), 0);
	EXPECT_EQ(
		sctp_assoc_reset_streams(&sim->c.a, SCTP_STREAM_RESET_OUTGOING, &sid, 1, sim->now),
		-EAGAIN)
		<< "a message queued on it";
	EXPECT_EQ(
		sctp_assoc_reset_streams(&sim->c.a, SCTP_STREAM_RESET_INCOMING, &sid, 1, sim->now),
		0)
		<< "the incoming side does not care";
	sim->run();
	// Our request, then our answer to the peer's Outgoing SSN Reset Request.
	EXPECT_EQ(chunks_of_type(sim->c, SCTP_CHUNK_RECONFIG), 2u);
	EXPECT_EQ(resets(sim->c).size(), 1u);
	finish(*sim);
}

// The peer's requests we do not carry out, and numbers out of line.
TEST_P(Reconf, PeerRequestsAreCheckedByNumber)
{
	auto sim = make();
	sim->handshake();
	auto inject = [&](const Bytes &chunk) {
		Bytes pkt(SCTP_COMMON_HDR_LEN + chunk.size(), 0);
		sctp_store_be16(pkt.data(), kServerPort);
		sctp_store_be16(pkt.data() + 2, kClientPort);
		sctp_store_be32(pkt.data() + 4, sim->s.a.peer_vtag);
		std::copy(chunk.begin(), chunk.end(), pkt.begin() + SCTP_COMMON_HDR_LEN);
		sim->queue.emplace(sim->now,
				   Sim::InFlight{ &sim->c, pkt, sim->s.addr, sim->c.addr });
		sim->run();
	};
	uint32_t seq = sim->s.a.local_initial_tsn; // the server's requests start there (§4.1)
	// Add Outgoing Streams, number seq, with no room for a larger data block: Denied.
	sim->c.data->data_cap = sim->c.data->asked;
	Bytes add = { SCTP_CHUNK_RECONFIG, 0, 0, 16, 0, 17, 0, 12, 0, 0, 0, 0, 0, 4, 0, 0 };
	sctp_store_be32(add.data() + 8, seq);
	inject(add);
	// A number too far ahead: Bad Sequence Number, and the next one still expected.
	Bytes tsn = { SCTP_CHUNK_RECONFIG, 0, 0, 12, 0, 15, 0, 8, 0, 0, 0, 0 };
	sctp_store_be32(tsn.data() + 8, seq + 5);
	inject(tsn);
	// The first one again: the same answer.
	inject(add);
	// A pair RFC 6525 §3.1 does not allow: counted, not answered.
	Bytes pair = {
		SCTP_CHUNK_RECONFIG, 0, 0, 24, 0, 15, 0, 8, 0, 0, 0, 9, 0, 15, 0, 8, 0, 0, 0, 10
	};
	pair.resize(20);
	pair[3] = 20;
	inject(pair);
	auto rs = responses_of(sim->c);
	ASSERT_EQ(rs.size(), 3u);
	EXPECT_EQ(rs[0], std::make_pair(seq, (uint32_t)SCTP_RECONFIG_DENIED));
	EXPECT_EQ(rs[1], std::make_pair(seq + 5, (uint32_t)SCTP_RECONFIG_ERROR_BAD_SEQ));
	EXPECT_EQ(rs[2], std::make_pair(seq, (uint32_t)SCTP_RECONFIG_DENIED));
	EXPECT_EQ(sim->c.stats.reconf_malformed, 1u);
	EXPECT_EQ(sim->c.stats.reconf_denied, 1u);
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_EQ(sim->c.a.inbound_streams, sim->s.a.outbound_streams) << "nothing added";
	finish(*sim);
}

// §5.1.5, §5.2.5, §5.1.6, §5.2.6: streams added both ways on a live
// association, with data flowing on the old and the new ones after.
TEST_P(Reconf, AddStreamsBothWays)
{
	for (bool idata : { false, true }) {
		auto sim = make(true, true, idata);
		sim->handshake();
		uint16_t out0 = sim->c.a.outbound_streams, in0 = sim->c.a.inbound_streams;
		send_some(*sim, 0, 0, 2);
		ASSERT_EQ(sim->send(sim->s, 1, payload(100, 20)), 0);
		sim->run();
		EXPECT_EQ(sim->send(sim->c, out0, payload(9, 10)), -EINVAL) << "not yet";
		ASSERT_EQ(sctp_assoc_add_streams(&sim->c.a, 3, 5, sim->now), 0);
		EXPECT_EQ(sctp_assoc_add_streams(&sim->c.a, 1, 0, sim->now), -EINPROGRESS);
		sim->run();
		EXPECT_EQ(sim->c.a.timer_at[SCTP_ASSOC_T_RECONF], SCTP_TIME_NEVER);
		EXPECT_EQ(sim->c.a.outbound_streams, out0 + 3);
		EXPECT_EQ(sim->c.a.inbound_streams, in0 + 5);
		EXPECT_EQ(sim->s.a.inbound_streams, out0 + 3);
		EXPECT_EQ(sim->s.a.outbound_streams, in0 + 5);
		unsigned changes = 0;
		for (const Side *x : { &sim->c, &sim->s })
			for (const auto &n : x->notes)
				if (n.n.type == SCTP_NOTIFY_STREAM_CHANGE) {
					changes++;
					EXPECT_EQ(n.n.reset_flags, 0u);
				}
		EXPECT_EQ(changes, 4u) << "each side: its outbound, then its inbound";
		send_some(*sim, static_cast<uint16_t>(out0 + 2), 2, 2); // a new stream
		send_some(*sim, 0, 4, 1);				// an old one, SSN 2
		ASSERT_EQ(sim->send(sim->s, static_cast<uint16_t>(in0 + 4), payload(101, 20)), 0);
		sim->run();
		ASSERT_EQ(sim->s.data->delivered.size(), 5u);
		for (uint32_t k = 0; k < 5; k++)
			EXPECT_EQ(index_of(sim->s.data->delivered[k].bytes), k);
		ASSERT_EQ(sim->c.data->delivered.size(), 2u);
		EXPECT_EQ(sim->c.data->delivered[1].sid, in0 + 4);
		EXPECT_EQ(sim->c.counters.data_bad_stream + sim->s.counters.data_bad_stream, 0u);
		expect_no_drops(sim->c);
		expect_no_drops(sim->s);
		finish(*sim);
	}
}

// A side without room for the larger block says so: Denied, and nothing changes.
TEST_P(Reconf, AddStreamsDeniedWithoutRoom)
{
	auto sim = make();
	sim->handshake();
	uint16_t out0 = sim->c.a.outbound_streams;
	sim->s.data->data_cap = sim->s.data->asked;
	ASSERT_EQ(sctp_assoc_add_streams(&sim->c.a, 2, 0, sim->now), 0);
	sim->run();
	EXPECT_EQ(sim->c.a.outbound_streams, out0);
	EXPECT_EQ(sim->s.a.inbound_streams, out0);
	bool denied = false;
	for (const auto &n : sim->c.notes)
		denied |= n.n.type == SCTP_NOTIFY_STREAM_CHANGE &&
			  (n.n.reset_flags & SCTP_STREAM_CHANGE_DENIED);
	EXPECT_TRUE(denied);
	send_some(*sim, 1, 0, 1);
	EXPECT_EQ(sim->s.data->delivered.size(), 1u);
	finish(*sim);
}

// Streams grow only up to the profile's limits each way (max_out_streams,
// max_in_streams), whatever memory there is: our call past them is
// -EINVAL, the peer's request past them "Denied". The client may have at
// most 6 each way; the server 10.
TEST_P(Reconf, AddStreamsStopAtTheLimits)
{
	struct sctp_profile cp = *prof(), sp = *prof();
	cp.out_streams = sp.out_streams = 4;
	cp.max_in_streams = cp.max_out_streams = 6;
	sp.max_in_streams = sp.max_out_streams = 10;
	Sim sim(&cp, &sp, one_way_delay(prof()));
	sim.enable_data(1u << 20, 1024, 4u << 20);
	sim.enable_reconf(true, true);
	sim.handshake();
	ASSERT_EQ(sim.c.a.outbound_streams, 4u);
	ASSERT_EQ(sim.c.a.inbound_streams, 4u);
	auto changes = [](const Side &x) {
		std::vector<uint16_t> f;
		for (const auto &n : x.notes)
			if (n.n.type == SCTP_NOTIFY_STREAM_CHANGE)
				f.push_back(n.n.reset_flags);
		return f;
	};

	// Ours: past 6 refused at the call, up to 6 done.
	EXPECT_EQ(sctp_assoc_add_streams(&sim.c.a, 3, 0, sim.now), -EINVAL);
	EXPECT_EQ(sctp_assoc_add_streams(&sim.c.a, 0, 3, sim.now), -EINVAL);
	ASSERT_EQ(sctp_assoc_add_streams(&sim.c.a, 2, 0, sim.now), 0);
	sim.run();
	EXPECT_EQ(sim.c.a.outbound_streams, 6u);
	EXPECT_EQ(sim.s.a.inbound_streams, 6u);
	EXPECT_EQ(changes(sim.c), std::vector<uint16_t>{ 0 });

	// The server's, past the client's 6 inbound: denied by the client.
	ASSERT_EQ(sctp_assoc_add_streams(&sim.s.a, 3, 0, sim.now), 0);
	sim.run();
	EXPECT_EQ(sim.s.a.outbound_streams, 4u);
	EXPECT_EQ(sim.c.a.inbound_streams, 4u);
	// (The first: the client's streams added, which the server hears of too.)
	EXPECT_EQ(changes(sim.s), (std::vector<uint16_t>{ 0, SCTP_STREAM_CHANGE_DENIED }));

	// The server asks the client for more of its outbound, past its 6: denied.
	ASSERT_EQ(sctp_assoc_add_streams(&sim.s.a, 0, 2, sim.now), 0);
	sim.run();
	EXPECT_EQ(sim.c.a.outbound_streams, 6u);
	EXPECT_EQ(sim.s.a.inbound_streams, 6u);
	EXPECT_EQ(changes(sim.s), (std::vector<uint16_t>{ 0, SCTP_STREAM_CHANGE_DENIED,
							  SCTP_STREAM_CHANGE_DENIED }));
	send_some(sim, 5, 0, 1);
	EXPECT_EQ(sim.s.data->delivered.size(), 1u);
	finish(sim);
}

// §5.1.4, §5.2.4: SSN/TSN reset: new TSNs both ways, every stream at 0.
TEST_P(Reconf, AssociationResetStartsEverythingOver)
{
	for (bool idata : { false, true }) {
		auto sim = make(true, true, idata);
		sim->handshake();
		send_some(*sim, 0, 0, 2);
		ASSERT_EQ(sim->send(sim->s, 0, payload(100, 20)), 0);
		sim->run();
		ASSERT_EQ(sim->send(sim->c, 1, payload(2, 10), SCTP_SEND_MORE), 0);
		EXPECT_EQ(sctp_assoc_reset_assoc(&sim->c.a, sim->now), -EAGAIN) << "data queued";
		ASSERT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), 0);
		sim->run();
		uint32_t c_next = sim->c.a.tx->next_tsn;
		ASSERT_EQ(sctp_assoc_reset_assoc(&sim->c.a, sim->now), 0);
		EXPECT_EQ(sim->send(sim->c, 0, payload(99, 10)), -EAGAIN) << "every stream waits";
		sim->run();
		const Note *cn = nullptr, *sn = nullptr;
		for (const auto &n : sim->c.notes)
			if (n.n.type == SCTP_NOTIFY_ASSOC_RESET)
				cn = &n;
		for (const auto &n : sim->s.notes)
			if (n.n.type == SCTP_NOTIFY_ASSOC_RESET)
				sn = &n;
		ASSERT_NE(cn, nullptr);
		ASSERT_NE(sn, nullptr);
		EXPECT_EQ(cn->n.reset_flags, 0u);
		EXPECT_EQ(cn->n.local_tsn, sn->n.remote_tsn);
		EXPECT_EQ(cn->n.remote_tsn, sn->n.local_tsn);
		EXPECT_NE(sim->c.a.tx->next_tsn, c_next) << "a new TSN space";
		EXPECT_EQ(sim->c.a.tx->next_tsn, cn->n.local_tsn);
		send_some(*sim, 0, 3, 2);
		ASSERT_EQ(sim->send(sim->s, 0, payload(101, 20)), 0);
		sim->run();
		ASSERT_EQ(sim->s.data->delivered.size(), 5u);
		for (uint32_t k = 0; k < 3; k++)
			EXPECT_EQ(index_of(sim->s.data->delivered[k].bytes), k);
		EXPECT_EQ(index_of(sim->s.data->delivered[3].bytes), 3u);
		EXPECT_EQ(index_of(sim->s.data->delivered[4].bytes), 4u);
		ASSERT_EQ(sim->c.data->delivered.size(), 2u);
		if (!idata) {
			EXPECT_EQ(ssns_on(sim->c, 0), (std::vector<uint16_t>{ 0, 1, 0, 1 }));
		}
		expect_no_drops(sim->c);
		expect_no_drops(sim->s);
		finish(*sim);
	}
}

// Under loss: resets of random streams both ways while messages flow;
// every message delivered once, in order per stream, byte-identical.
TEST_P(Reconf, RandomLossResetsWhileDataFlows)
{
	for (unsigned seed = 1; seed <= 3; seed++) {
		auto sim = make(true, true, seed == 2);
		sim->handshake();
		std::mt19937 rng(seed);
		sim->lose = [&rng](const Side &, const Bytes &, uint8_t first) {
			return first != SCTP_CHUNK_ABORT && rng() % 100 < 8;
		};
		std::map<uint16_t, uint32_t> last;
		uint32_t k = 0, resets_done = 0;
		for (unsigned round = 0; round < 40; round++) {
			uint16_t sid = static_cast<uint16_t>(rng() % 4);
			if (rng() % 3 == 0) {
				int r = sctp_assoc_reset_streams(
					&sim->c.a, SCTP_STREAM_RESET_OUTGOING, &sid, 1, sim->now);
				EXPECT_TRUE(r == 0 || r == -EINPROGRESS || r == -EAGAIN) << r;
				resets_done += r == 0;
			}
			int r = sim->send(sim->c, sid, payload(k, 10 + rng() % 3000));
			EXPECT_TRUE(r == 0 || r == -EAGAIN) << r;
			k += r == 0;
			sim->run(sim->now + prof()->rto_initial_ns / 8);
		}
		sim->run();
		EXPECT_GT(resets_done, 3u);
		EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_ESTABLISHED);
		const auto &got = sim->s.data->delivered;
		ASSERT_EQ(got.size(), k) << "seed " << seed;
		for (const auto &m : got) {
			uint32_t i = index_of(m.bytes);
			auto it = last.find(m.sid);
			if (it != last.end()) {
				EXPECT_LT(it->second, i) << "out of order on stream " << m.sid;
			}
			last[m.sid] = i;
		}
		EXPECT_EQ(resets(sim->c).size(), resets_done);
		finish(*sim);
	}
}

INSTANTIATE_TEST_SUITE_P(Profiles, Reconf, ::testing::Values(&sctp_profile_rfc, &sctp_profile_dc),
			 [](const ::testing::TestParamInfo<const struct sctp_profile *> &i) {
				 return std::string(i.param == &sctp_profile_rfc ? "Rfc" : "Dc");
			 });

} // namespace
