// SPDX-License-Identifier: BSD-3-Clause
// The association's invariants (sctp/assoc_check.c) and the size of its
// data block (sctp_assoc_data_bytes()). This binary links the core built
// with SCTP_ASSOC_CHECK, as every unit, sim and fuzz test does: each entry
// point ends with the check. Here the check is shown to hold on a live
// association, to name each invariant a corrupted field breaks, and to
// abort the entry point that finds one broken.
#include <algorithm>
#include <vector>

#include "assoc_harness.h"

namespace {

class Check : public ::testing::TestWithParam<const struct sctp_profile *> {
      protected:
	// Both sides ESTABLISHED with a data path; the client has two messages
	// in flight (unacknowledged) and one queued behind SCTP_SEND_MORE.
	void SetUp() override
	{
		sim_ = std::make_unique<Sim>(GetParam(), GetParam(), one_way_delay(GetParam()));
		sim_->enable_data();
		sim_->handshake();
		ASSERT_EQ(sim_->send(sim_->c, 0, Bytes(300, 1)), 0);
		ASSERT_EQ(sim_->send(sim_->c, 1, Bytes(200, 2)), 0);
		ASSERT_EQ(sim_->send(sim_->c, 1, Bytes(100, 3), SCTP_SEND_MORE), 0);
		ASSERT_NE(sctp_rtxq_flight(&a().tx->rtxq), 0u);
		ASSERT_EQ(a().tx->outq.queued_msgs, 1u);
	}
	void TearDown() override
	{
		for (Side *x : { &sim_->c, &sim_->s }) {
			if (x->has_assoc && x->a.state != SCTP_ASSOC_CLOSED) {
				EXPECT_EQ(sctp_assoc_abort(&x->a, sim_->now, nullptr, 0), 0);
			}
		}
		sim_->queue.clear();
	}
	struct sctp_assoc &a()
	{
		return sim_->c.a;
	}
	std::unique_ptr<Sim> sim_;
};

TEST_P(Check, HoldsOnALiveAssociation)
{
	EXPECT_EQ(sctp_assoc_check(&a()), nullptr);
	EXPECT_EQ(sctp_assoc_check(&sim_->s.a), nullptr);
	sim_->run();
	EXPECT_EQ(sctp_assoc_check(&a()), nullptr);
	EXPECT_EQ(sctp_assoc_check(&sim_->s.a), nullptr);
	EXPECT_EQ(sim_->s.data->delivered.size(),
		  3u); // the one behind SEND_MORE too, on the next flush
}

// One field of the live association set wrong, the name the check gives,
// then the field put back (the association and its send side copied whole).
struct Corruption {
	const char *what;
	std::function<void(struct sctp_assoc &, struct sctp_assoc_counters &)> corrupt;
	const char *want;
};

TEST_P(Check, NamesTheInvariantACorruptedFieldBreaks)
{
	static struct sctp_assoc_handshake stray;
	const std::vector<Corruption> cases = {
		{ "state out of range", [](auto &x, auto &) { x.state = SCTP_ASSOC_STATE_COUNT; },
		  "state: one of the eight" },
		{ "freeable while ESTABLISHED", [](auto &x, auto &) { x.freeable = true; },
		  "freeable: only when CLOSED" },
		{ "a command list overflowed",
		  [](auto &, auto &c) { c.drops[SCTP_ASSOC_DROP_CMD_OVERFLOW] = 1; },
		  "commands: a command list overflowed (cmd_overflow)" },
		{ "handshake scratch kept", [](auto &x, auto &) { x.hs = &stray; },
		  "hs: lent exactly in COOKIE-WAIT and COOKIE-ECHOED" },
		{ "peer tag lost", [](auto &x, auto &) { x.peer_vtag = 0; },
		  "tags: the peer's tag and both stream counts from ESTABLISHED on" },
		{ "T1-init running", [](auto &x, auto &) { x.timer_at[SCTP_ASSOC_T1_INIT] = 1; },
		  "timers: T1-init runs only in COOKIE-WAIT" },
		{ "T2 running", [](auto &x, auto &) { x.timer_at[SCTP_ASSOC_T2_SHUTDOWN] = 1; },
		  "timers: T2-shutdown runs only in SHUTDOWN-SENT and SHUTDOWN-ACK-SENT" },
		{ "heartbeat timer off",
		  [](auto &x, auto &) { x.timer_at[SCTP_ASSOC_T_HEARTBEAT] = SCTP_TIME_NEVER; },
		  "timers: the heartbeat timer is not the path set's next wakeup" },
		{ "T3-rtx off",
		  [](auto &x, auto &) { x.timer_at[SCTP_ASSOC_T3_RTX] = SCTP_TIME_NEVER; },
		  "timers: T3-rtx is not the earliest path deadline" },
		{ "current path out of range", [](auto &x, auto &) { x.paths.current = x.paths.n; },
		  "paths: primary and current are paths in use" },
		{ "heartbeats stopped", [](auto &x, auto &) { x.paths.running = false; },
		  "timers: the heartbeat timer is not the path set's next wakeup" },
		{ "unknown SACK policy bit", [](auto &x, auto &) { x.rx_sack_now = 0x80; },
		  "rx: unknown SACK policy bits" },
		{ "TSN map: held above cum, highest not",
		  [](auto &x, auto &) { x.rx_tsn.above = 1; },
		  "rx: TSN map: TSNs held above cum against the highest received" },
		{ "next TSN skips one", [](auto &x, auto &) { x.tx->next_tsn++; },
		  "tx: the next TSN follows the highest sent" },
		{ "path flight", [](auto &x, auto &) { x.tx->rtxq.path_flight[0] += 4; },
		  "path flight differs from a recount" },
		{ "T3-rtx of a path with flight off",
		  [](auto &x, auto &) {
			  for (unsigned i = 0; i < x.tx->n_paths; i++)
				  x.tx->path[i].t3_at = SCTP_TIME_NEVER;
			  x.timer_at[SCTP_ASSOC_T3_RTX] = SCTP_TIME_NEVER;
		  },
		  "tx: T3-rtx runs on every path with data in flight (§6.3.2 R1)" },
		{ "send queue bytes", [](auto &x, auto &) { x.tx->outq.queued_bytes++; },
		  "outq: queued messages and bytes differ from a recount" },
		{ "send queue wire bytes", [](auto &x, auto &) { x.tx->outq.wire_bytes += 4; },
		  "outq: wire bytes differ from a recount" },
		{ "send queue ring lost", [](auto &x, auto &) { x.tx->outq.head = 0; },
		  "outq: the ring's head is 0 iff no stream is active" },
		{ "per-path send state moved", [](auto &x, auto &) { x.tx->path++; },
		  "tx: a send state per path, behind the send side's struct" },
		{ "fewer per-path send states than paths",
		  [](auto &x, auto &) { x.tx->n_paths = 0; },
		  "tx: a send state per path, behind the send side's struct" },
		{ "send side off the data block", [](auto &x, auto &) { x.tx = nullptr; },
		  "timers: T3-rtx is not the earliest path deadline" },
		{ "data block lost while ESTABLISHED",
		  [](auto &x, auto &) {
			  x.data_mem = nullptr;
			  x.rx_streams = nullptr;
			  x.tx = nullptr;
			  x.timer_at[SCTP_ASSOC_T3_RTX] = SCTP_TIME_NEVER;
		  },
		  "data: the data block is held from ESTABLISHED on" },
	};
	ASSERT_EQ(sctp_assoc_check(&a()), nullptr);
	for (const auto &k : cases) {
		struct sctp_assoc saved = a();
		struct sctp_assoc_tx saved_tx = *a().tx;
		std::vector<struct sctp_tx_path> saved_paths(a().tx->path,
							     a().tx->path + a().tx->n_paths);
		struct sctp_assoc_counters saved_counters = sim_->c.counters;
		k.corrupt(a(), sim_->c.counters);
		const char *got = sctp_assoc_check(&a());
		EXPECT_STREQ(got, k.want) << k.what;
		a() = saved;
		*a().tx = saved_tx;
		std::copy(saved_paths.begin(), saved_paths.end(), a().tx->path);
		sim_->c.counters = saved_counters;
		ASSERT_EQ(sctp_assoc_check(&a()), nullptr) << k.what << ": restored";
	}
}

// The entry point that finds an invariant broken aborts, naming it and
// itself: a test fails at the input where the damage is, not later.
TEST_P(Check, EveryEntryPointAbortsOnABrokenInvariant)
{
	GTEST_FLAG_SET(death_test_style, "threadsafe");
	EXPECT_DEATH(
		{
			a().tx->next_tsn++;
			sctp_assoc_timeout(&a(), sim_->now);
		},
		"sctp_assoc_check: after sctp_assoc_timeout, in ESTABLISHED: tx: the next TSN "
		"follows the highest sent");
	EXPECT_DEATH(
		{
			a().timer_at[SCTP_ASSOC_T1_COOKIE] = SCTP_TIME_NEVER - 1;
			(void)sctp_assoc_flush(&a(), sim_->now);
		},
		"after sctp_assoc_flush.*T1-cookie runs only in COOKIE-ECHOED");
	EXPECT_DEATH(
		{
			a().tx->outq.queued_bytes++;
			(void)sctp_assoc_send(&a(), 0, 51, SCTP_SEND_MORE, nullptr, sim_->now);
		},
		"after sctp_assoc_send.*outq: queued messages and bytes differ");
	// Unharmed, the same calls return.
	sctp_assoc_timeout(&a(), sim_->now);
	EXPECT_EQ(sctp_assoc_flush(&a(), sim_->now), 0);
}

// The size the core exports is exactly what ops->data_get() is asked for:
// with the send side, and without it (no send-side pools configured).
TEST_P(Check, DataBytesIsWhatDataGetIsAskedFor)
{
	for (Side *x : { &sim_->c, &sim_->s }) {
		const struct sctp_data_config *d = &x->data->cfg;
		size_t want = sctp_assoc_data_bytes(d, x->a.inbound_streams, x->a.outbound_streams);
		EXPECT_EQ(x->data->asked, want) << x->name;
		EXPECT_EQ(want % 8, 0u);
		EXPECT_GE(want, sizeof(struct sctp_assoc_tx) +
					x->a.outbound_streams * sizeof(struct sctp_outq_stream) +
					x->a.inbound_streams * sizeof(struct sctp_reasm_stream) +
					d->tsn_map_words * 8u + d->max_dups * 4u)
			<< x->name << ": every part counted";
	}
	EXPECT_EQ(sctp_assoc_data_bytes(nullptr, 10, 10), 0u);

	Sim rx_only(GetParam(), GetParam(), one_way_delay(GetParam()));
	rx_only.enable_data();
	for (Side *x : { &rx_only.c, &rx_only.s }) {
		x->data->cfg.outq_pool = nullptr;
		x->data->cfg.rtxq_pool = nullptr;
	}
	rx_only.handshake();
	for (Side *x : { &rx_only.c, &rx_only.s }) {
		ASSERT_EQ(x->a.tx, nullptr);
		const struct sctp_data_config *d = &x->data->cfg;
		EXPECT_EQ(x->data->asked,
			  sctp_assoc_data_bytes(d, x->a.inbound_streams, x->a.outbound_streams))
			<< x->name;
		EXPECT_LT(x->data->asked, sim_->c.data->asked) << "no send side's share";
		EXPECT_EQ(sctp_assoc_abort(&x->a, rx_only.now, nullptr, 0), 0);
	}
}

INSTANTIATE_TEST_SUITE_P(Profiles, Check, ::testing::Values(&sctp_profile_rfc, &sctp_profile_dc),
			 [](const ::testing::TestParamInfo<const struct sctp_profile *> &i) {
				 return std::string(i.param == &sctp_profile_rfc ? "rfc" : "dc");
			 });

} // namespace
