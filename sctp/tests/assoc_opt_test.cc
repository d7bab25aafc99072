// SPDX-License-Identifier: BSD-3-Clause
// Per-association parameters (sctp/assoc_opt.h): an association given a
// block of its own runs on it, the peer keeps the endpoint's profile. Each
// option's effect on what goes on the wire: MAXSEG caps the fragments,
// RTO.Min holds after a sample, SACK frequency 1 acknowledges every
// packet, Association.Max.Retrans ends the association at the set count,
// Max.Init.Timeout caps the INIT back-off, heartbeats follow the interval
// and stop when turned off, Max.Burst caps a send opportunity. Both
// profiles.
#include "assoc_harness.h"

extern "C" {
#include "sctp/assoc_opt.h"
#include "sctp/chunk_data.h"
}

namespace {

class Opt : public ::testing::TestWithParam<const struct sctp_profile *> {
      protected:
	const struct sctp_profile *prof() const
	{
		return GetParam();
	}
	std::unique_ptr<Sim> make()
	{
		auto sim = std::make_unique<Sim>(prof(), prof(), one_way_delay(prof()));
		sim->enable_data();
		return sim;
	}
	// Give x the block o (changed by the caller) as its parameters.
	static void set(Sim &sim, Side &x, struct sctp_assoc_opts &o)
	{
		const char *why = nullptr;
		ASSERT_EQ(sctp_assoc_set_opts(&x.a, &o, sim.now, &why), 0) << why;
	}
	static void finish(Sim &sim)
	{
		for (Side *x : { &sim.c, &sim.s }) {
			if (x->has_assoc && x->a.state != SCTP_ASSOC_CLOSED) {
				EXPECT_EQ(sctp_assoc_abort(&x->a, sim.now, nullptr, 0), 0);
			}
		}
		sim.queue.clear();
		EXPECT_EQ(sim.held(), 0);
	}
};

// DATA chunks x sent, as their payload lengths.
std::vector<size_t>
data_lens(const Side &x)
{
	std::vector<size_t> out;
	for (const auto &s : x.sent)
		for (const auto &c : decode(s.bytes).chunks)
			if (c.type == SCTP_CHUNK_DATA)
				out.push_back(c.value.size() - 12); // TSN, SID, SSN, PPID
	return out;
}

TEST_P(Opt, BlockStartsAsTheProfileAndIsRefusedWhenBroken)
{
	auto sim = make();
	sim->handshake();
	struct sctp_assoc_opts o;
	sctp_assoc_opts_init(&o, &sim->c.a);
	EXPECT_EQ(o.profile.rto_min_ns, prof()->rto_min_ns);
	EXPECT_EQ(sctp_assoc_opts(&sim->c.a), nullptr);
	o.profile.rto_min_ns = o.profile.rto_max_ns + 1;
	const char *why = nullptr;
	EXPECT_EQ(sctp_assoc_set_opts(&sim->c.a, &o, sim->now, &why), -EINVAL);
	ASSERT_NE(why, nullptr);
	EXPECT_EQ(sctp_assoc_opts(&sim->c.a), nullptr) << "nothing changed";
	o.profile.rto_min_ns = prof()->rto_min_ns;
	set(*sim, sim->c, o);
	EXPECT_EQ(sctp_assoc_opts(&sim->c.a), &o);
	EXPECT_EQ(sctp_assoc_profile(&sim->s.a), prof()) << "the peer keeps the endpoint's";
	sctp_assoc_clear_opts(&sim->c.a);
	EXPECT_EQ(sctp_assoc_profile(&sim->c.a), prof());
	finish(*sim);
}

TEST_P(Opt, MaxsegCapsTheFragments)
{
	auto sim = make();
	sim->handshake();
	struct sctp_assoc_opts o;
	sctp_assoc_opts_init(&o, &sim->c.a);
	o.profile.max_seg = 500;
	set(*sim, sim->c, o);
	Bytes b(2100, 0x5a);
	ASSERT_EQ(sim->send(sim->c, 0, b), 0);
	sim->run();
	ASSERT_EQ(sim->s.data->delivered.size(), 1u);
	EXPECT_EQ(sim->s.data->delivered[0].bytes, b);
	std::vector<size_t> want{ 500, 500, 500, 500, 100 };
	EXPECT_EQ(data_lens(sim->c), want);
	// The server, on the profile, fragments at the PMDCS (1452 bytes on IPv4).
	ASSERT_EQ(sim->send(sim->s, 0, b), 0);
	sim->run();
	std::vector<size_t> want_s{ 1452, 648 };
	EXPECT_EQ(data_lens(sim->s), want_s);
	finish(*sim);
}

TEST_P(Opt, RtoMinHoldsAfterASample)
{
	auto sim = make();
	sim->handshake();
	struct sctp_assoc_opts o;
	sctp_assoc_opts_init(&o, &sim->c.a);
	uint64_t floor = prof()->rto_max_ns / 2;
	o.profile.rto_min_ns = floor;
	o.profile.rto_initial_ns = floor;
	set(*sim, sim->c, o);
	EXPECT_GE(sctp_assoc_data_path(&sim->c.a)->rto.rto_ns, floor) << "clamped at once";
	ASSERT_EQ(sim->send(sim->c, 0, Bytes(100, 1)), 0);
	sim->run();
	const struct sctp_rto &r = sctp_assoc_data_path(&sim->c.a)->rto;
	EXPECT_NE(r.srtt_ns, 0u) << "a sample was taken";
	EXPECT_EQ(r.rto_ns, floor) << "a few-ms RTT, the RTO at the new floor";
	EXPECT_LT(sctp_assoc_data_path(&sim->s.a)->rto.rto_ns, floor) << "the peer's own";
	finish(*sim);
}

TEST_P(Opt, SackFrequencyOneAcknowledgesEveryPacket)
{
	auto sim = make();
	sim->handshake();
	struct sctp_assoc_opts o;
	sctp_assoc_opts_init(&o, &sim->s.a);
	o.profile.sack_every = 1;
	set(*sim, sim->s, o);
	// Packets one at a time, each acknowledged before the next: at once, not after the delay.
	for (int i = 0; i < 4; i++) {
		uint64_t sent = sim->now;
		ASSERT_EQ(sim->send(sim->c, 0, Bytes(100, (uint8_t)i)), 0);
		sim->run();
		const Sent &sack = sim->s.last_of(SCTP_CHUNK_SACK);
		EXPECT_LT(sack.at - sent, prof()->sack_delay_ns) << "packet " << i;
	}
	EXPECT_EQ(chunks_of_type(sim->s, SCTP_CHUNK_SACK), 4u);
	finish(*sim);
}

TEST_P(Opt, SackDelayIsTheBlocks)
{
	auto sim = make();
	sim->handshake();
	struct sctp_assoc_opts o;
	sctp_assoc_opts_init(&o, &sim->s.a);
	o.profile.sack_delay_ns = o.profile.rto_min_ns / 2;
	set(*sim, sim->s, o);
	uint64_t sent = sim->now;
	ASSERT_EQ(sim->send(sim->c, 0, Bytes(100, 1)), 0);
	sim->run();
	const Sent &sack = sim->s.last_of(SCTP_CHUNK_SACK);
	EXPECT_GE(sack.at - sent, o.profile.sack_delay_ns) << "one packet waits the delay";
	EXPECT_LE(sack.at - sent, o.profile.sack_delay_ns + 2 * one_way_delay(prof()));
	finish(*sim);
}

TEST_P(Opt, AssocMaxRetransEndsTheAssociationAtTheCount)
{
	auto sim = make();
	sim->handshake();
	struct sctp_assoc_opts o;
	sctp_assoc_opts_init(&o, &sim->c.a);
	o.profile.assoc_max_retrans = 2;
	o.profile.path_max_retrans = 2;
	o.profile.pf_enabled = false;
	set(*sim, sim->c, o);
	sim->lose = [&](const Side &from, const Bytes &, uint8_t) { return &from == &sim->c; };
	ASSERT_EQ(sim->send(sim->c, 0, Bytes(100, 1)), 0);
	sim->run();
	EXPECT_EQ(sim->c.a.state, SCTP_ASSOC_CLOSED);
	// Errors above 2: the third T3 expiry ends it (RFC 9260 §8.1).
	EXPECT_EQ(sim->c.stats.t3_expiries, 3u);
	finish(*sim);
}

TEST_P(Opt, MaxInitTimeoutCapsTheInitBackoff)
{
	auto sim = make();
	struct sctp_assoc_opts o;
	o.profile = *prof();
	o.cc = sctp_cc_params_rfc;
	o.profile.max_init_timeo_ns = prof()->rto_initial_ns * 2;
	o.profile.max_init_retransmits = 5;
	// Before connect: the association starts on the block (assoc_reset() keeps it).
	const char *why = nullptr;
	ASSERT_EQ(sctp_assoc_set_opts(&sim->c.a, &o, sim->now, &why), 0) << why;
	sim->lose = [](const Side &, const Bytes &, uint8_t) { return true; };
	sim->connect();
	sim->run();
	std::vector<uint64_t> t = sim->c.times_of(SCTP_CHUNK_INIT);
	ASSERT_EQ(t.size(), 6u) << "the first INIT and 5 retransmissions";
	EXPECT_EQ(t[1] - t[0], prof()->rto_initial_ns);
	for (size_t i = 2; i < t.size(); i++)
		EXPECT_EQ(t[i] - t[i - 1], o.profile.max_init_timeo_ns) << "capped, INIT " << i;
	finish(*sim);
}

TEST_P(Opt, HeartbeatsFollowTheIntervalAndStopWhenOff)
{
	auto sim = make();
	sim->handshake();
	struct sctp_assoc_opts o;
	sctp_assoc_opts_init(&o, &sim->c.a);
	o.profile.hb_interval_ns = prof()->hb_interval_ns * 4;
	set(*sim, sim->c, o);
	// HB.interval + RTO (+ jitter up to RTO/2) between two heartbeats of an idle path.
	sim->run(sim->now + 20 * o.profile.hb_interval_ns);
	std::vector<uint64_t> t = sim->c.times_of(SCTP_CHUNK_HEARTBEAT);
	ASSERT_GE(t.size(), 5u);
	for (size_t i = 2; i < t.size(); i++)
		EXPECT_GE(t[i] - t[i - 1], o.profile.hb_interval_ns) << i;
	std::vector<uint64_t> ts = sim->s.times_of(SCTP_CHUNK_HEARTBEAT);
	EXPECT_GT(ts.size(), t.size() * 2) << "the peer keeps the profile's shorter interval";
	ASSERT_EQ(sctp_paths_set_hb_enabled(&sim->c.a.paths, &o.profile, 0, false, sim->now), 0);
	set(*sim, sim->c, o);
	size_t before = sim->c.times_of(SCTP_CHUNK_HEARTBEAT).size();
	sim->run(sim->now + 20 * o.profile.hb_interval_ns);
	EXPECT_LE(sim->c.times_of(SCTP_CHUNK_HEARTBEAT).size(), before + 1) << "off";
	finish(*sim);
}

TEST_P(Opt, MaxBurstCapsPacketsPerOpportunity)
{
	auto sim = make();
	sim->handshake();
	struct sctp_assoc_opts o;
	sctp_assoc_opts_init(&o, &sim->c.a);
	o.profile.max_burst = 1;
	set(*sim, sim->c, o);
	EXPECT_EQ(sim->c.a.tx->cc->max_burst, 1u);
	for (int i = 0; i < 8; i++)
		ASSERT_EQ(sim->send(sim->c, 0, Bytes(1400, (uint8_t)i), SCTP_SEND_MORE), 0);
	ASSERT_EQ(sctp_assoc_flush(&sim->c.a, sim->now), 0);
	// One packet leaves at the flush; the rest wait for the SACKs.
	size_t at_once = 0;
	for (const auto &s : sim->c.sent)
		at_once += s.at == sim->now && s.first == SCTP_CHUNK_DATA;
	EXPECT_EQ(at_once, 1u);
	sim->run();
	EXPECT_EQ(sim->s.data->delivered.size(), 8u);
	finish(*sim);
}

INSTANTIATE_TEST_SUITE_P(Profiles, Opt, ::testing::Values(&sctp_profile_rfc, &sctp_profile_dc),
			 [](const auto &info) {
				 return std::string(info.param == &sctp_profile_rfc ? "rfc" : "dc");
			 });

} // namespace
