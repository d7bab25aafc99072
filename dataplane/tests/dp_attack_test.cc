/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] Every attack of dp_attack.h against a server (or, for the forged
// SACKs, a client) that carries a legitimate association, and what each
// achieves: nothing. Each test writes its attack's packets into the
// victim's receive ring while the client sends 400 checked messages, the
// i-th attack packet once i * 400 / N messages have arrived (so the attack
// and the traffic overlap however slow the machine is: measured in packets,
// never in time), then asserts that
//   - the legitimate association is still ESTABLISHED on both sides and
//     every message arrived exactly once with its bytes;
//   - the victim created no association (assocs_created, dpsctp_assoc_count)
//     and, once both instances stop, every mbuf of every pool (client,
//     server, attacker) is back;
//   - the counter named for the attack moved by the number of attack
//     packets (or at least by it where the victim's own traffic moves it
//     too), and what the attack aims at did not change (path MTU, queued
//     bytes, reassembly held).
// docs/SECURITY.md ("Attacks, with figures") has the table and the figures
// of bench/attack_bench.cc, which runs the same attacks.
#include <gtest/gtest.h>

#include <rte_mempool.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "dataplane/tests/dp_attack.h"
#include "dataplane/tests/dp_env.h"

namespace {

using namespace dp_attack;

constexpr unsigned kMsgs = 400;

class DpAttack : public ::testing::Test {
      protected:
	// Opens the bench with the attack's options, brings the association up
	// and runs the attack's set-up.
	void open(const char *name)
	{
		at_ = find_attack(name);
		ASSERT_NE(at_, nullptr) << name;
		bed_ = std::make_unique<AttackBed>();
		bed_->msg_limit = kMsgs;
		std::string err = bed_->open(std::to_string(serial_++), at_->client, at_->server);
		ASSERT_EQ(err, "");
		victim_ = at_->victim_client ? bed_->c : bed_->s;
		bed_->victim_is_client = at_->victim_client;
		ASSERT_TRUE(bed_->connect())
			<< dp_test_counters(bed_->c) << " / " << dp_test_counters(bed_->s);
		if (at_->setup) {
			ASSERT_TRUE(at_->setup(*bed_))
				<< name << ": set-up failed; server:" << dp_test_counters(bed_->s);
		}
		before_ = AttackBed::counters(victim_);
		assocs_ = dpsctp_assoc_count(victim_);
		in_use_ = AttackBed::in_use(victim_);
	}
	// n attack packets spread over the legitimate messages, then every
	// common check.
	void run(unsigned n)
	{
		AttackBed &b = *bed_;
		unsigned i = 0;
		for (uint64_t step = 0; step < 20000000; step++) {
			while (i < n && (uint64_t)i * kMsgs <= (b.received + 1) * n) {
				ASSERT_TRUE(b.inject_attack(*at_, i))
					<< "attack packet " << i << " refused";
				i++;
			}
			b.pump(kMsgs);
			b.step();
			if (i == n && b.received >= kMsgs)
				break;
		}
		// The last attack packets handled too.
		for (int k = 0; k < 2000; k++)
			b.step();
		after_ = AttackBed::counters(victim_);
		printf("%s: %u packets; victim counters moved:", at_->name, n);
		for (const auto &kv : after_)
			if (kv.second != before_[kv.first] && kv.first != "polls" &&
			    kv.first != "idle_polls")
				printf(" %s +%lu", kv.first.c_str(),
				       (unsigned long)(kv.second - before_[kv.first]));
		printf("\n");

		EXPECT_EQ(i, n) << "attack packets injected";
		EXPECT_EQ(b.received, kMsgs) << "messages delivered";
		EXPECT_EQ(b.bad, 0u) << "messages with wrong bytes, ppid or flags";
		unsigned once = 0;
		for (unsigned k = 0; k < kMsgs; k++)
			once += b.got[k] == 1;
		EXPECT_EQ(once, kMsgs) << "messages that arrived exactly once";
		EXPECT_TRUE(b.client_up && !b.client_lost) << "the client lost its association";
		ASSERT_FALSE(b.sa.empty());
		EXPECT_FALSE(b.sa[0].ended) << "the server lost the legitimate association";
		if (b.ca != nullptr && b.sa[0].a != nullptr) {
			dpsctp_assoc_stats cs = {}, ss = {};
			EXPECT_EQ(dpsctp_assoc_get_stats(b.ca, &cs), 0);
			EXPECT_EQ(dpsctp_assoc_get_stats(b.sa[0].a, &ss), 0);
			EXPECT_EQ(cs.state, (uint32_t)DPSCTP_ASSOC_ESTABLISHED);
			EXPECT_EQ(ss.state, (uint32_t)DPSCTP_ASSOC_ESTABLISHED);
		}
		EXPECT_EQ(moved("assocs_created"), 0u) << "the attack created an association";
		EXPECT_EQ(dpsctp_assoc_count(victim_), assocs_);
	}
	uint64_t moved(const std::string &name)
	{
		return after_.at(name) - before_.at(name);
	}
	void TearDown() override
	{
		if (bed_ == nullptr)
			return;
		AttackBed &b = *bed_;
		b.stop();
		// Every mbuf home: the attacker's (freed by the victim) and both pools.
		if (b.c != nullptr) {
			EXPECT_EQ(AttackBed::in_use(b.c), 0u) << "client mbufs held";
			EXPECT_EQ(AttackBed::in_use(b.s), 0u) << "server mbufs held";
		}
		if (b.apool != nullptr) {
			EXPECT_EQ(rte_mempool_in_use_count(b.apool), 0u) << "attacker mbufs held";
		}
		bed_.reset();
	}

	const Attack *at_ = nullptr;
	std::unique_ptr<AttackBed> bed_;
	dpsctp *victim_ = nullptr;
	std::map<std::string, uint64_t> before_, after_;
	unsigned assocs_ = 0, in_use_ = 0;
	static inline unsigned serial_ = 0;
};

// Zero state per INIT: each is answered (an INIT ACK whose next hop never
// resolves) and forgotten; nothing else is allocated.
TEST_F(DpAttack, InitFloodFromManySources)
{
	open("init_flood");
	run(4000);
	EXPECT_GE(moved("ootb"), 4000u);
	EXPECT_GT(moved("l3.nbr_preempted"), 0u) << "the INIT ACKs were not even built";
	EXPECT_EQ(moved("tx_l3_drop"), 0u) << "the association's packets found no neighbour";
	EXPECT_EQ(dpsctp_assoc_count(bed_->s), 1u);
}

// The same flood with the default --busy-init-rate: what arrives while the
// queue is backed up beyond the rate is dropped unread, every other INIT is
// answered as above; each one is one or the other.
TEST_F(DpAttack, InitFloodShedWhileTheQueueIsBackedUp)
{
	open("init_flood_shed");
	run(4000);
	EXPECT_EQ(moved("ootb") + moved("drop_init_busy"), 4000u);
	EXPECT_GT(moved("drop_init_busy"), 0u) << "no full burst: nothing to shed";
	EXPECT_EQ(moved("tx_l3_drop"), 0u) << "the association's packets found no neighbour";
	EXPECT_EQ(dpsctp_assoc_count(bed_->s), 1u);
}

// The same flood steered by the NIC to the server's queue for handshakes
// (--init-queue): the server reads it at --busy-init-rate while the
// association talks and answers every INIT it reads; the rest wait in that
// queue (the NIC's to drop when it fills). None is shed unread, none is lost
// on the way: read and left add up to the flood.
TEST_F(DpAttack, InitFloodSteeredToTheQueueForHandshakes)
{
	open("init_flood_queue");
	run(4000);
	uint64_t left = rte_ring_count(bed_->s_rx_init);
	printf("read %lu, left in the queue for handshakes %lu\n",
	       (unsigned long)moved("rx_init_queue"), (unsigned long)left);
	EXPECT_EQ(moved("rx_init_queue") + left, 4000u);
	EXPECT_EQ(moved("ootb"), moved("rx_init_queue")) << "each INIT read is answered";
	EXPECT_EQ(moved("drop_init_busy"), 0u);
	EXPECT_EQ(moved("tx_l3_drop"), 0u) << "the association's packets found no neighbour";
	EXPECT_EQ(dpsctp_assoc_count(bed_->s), 1u);
}

TEST_F(DpAttack, CookieEchoWithAWrongMac)
{
	open("cookie_bad_mac");
	run(800);
	EXPECT_EQ(moved("ep.cookie_bad_mac"), 800u);
	EXPECT_EQ(bed_->raw_cookie_acks, 0u);
}

TEST_F(DpAttack, CookieEchoPastItsLife)
{
	open("cookie_stale");
	run(800);
	EXPECT_EQ(moved("ep.cookie_stale"), 800u);
	EXPECT_EQ(bed_->raw_stale_errors, 800u) << "Stale Cookie ERRORs (RFC 9260 §5.1.5)";
	EXPECT_EQ(bed_->raw_cookie_acks, 0u);
}

// RFC 9260 §5.2.4 D: both tags are the association's, so the server only
// answers with a COOKIE ACK, which the client discards.
TEST_F(DpAttack, CookieEchoReplayedOnceUp)
{
	open("cookie_replay");
	run(800);
	EXPECT_EQ(dpsctp_assoc_count(bed_->s), 1u);
	EXPECT_EQ(bed_->sa.size(), 1u) << "a second association from the replay";
	EXPECT_EQ(AttackBed::counter(bed_->c, "assoc.cookie_ack_unexpected"), 800u)
		<< "the COOKIE ACKs the replays drew, discarded by the client";
	dpsctp_assoc_stats st = {};
	ASSERT_EQ(dpsctp_assoc_get_stats(bed_->sa[0].a, &st), 0);
	EXPECT_EQ(st.msgs_recv, (uint64_t)kMsgs) << "the association was restarted";
}

TEST_F(DpAttack, BlindAbortWithAWrongTag)
{
	open("blind_abort");
	run(800);
	EXPECT_EQ(moved("assoc.bad_vtag"), 800u);
}

TEST_F(DpAttack, ReflectedAbortWithTheServersOwnTag)
{
	open("blind_abort_reflected");
	run(800);
	EXPECT_EQ(moved("assoc.bad_vtag"), 800u);
}

TEST_F(DpAttack, BlindShutdownWithAWrongTag)
{
	open("blind_shutdown");
	run(800);
	EXPECT_EQ(moved("assoc.bad_vtag"), 800u);
}

TEST_F(DpAttack, ReflectedShutdownCompleteWithTheServersOwnTag)
{
	open("blind_shutdown_complete_reflected");
	run(800);
	// RFC 9260 §8.5.1 C: with the T bit only the peer's tag is taken, so
	// every one is dropped on the tag, none reaches the state machine.
	EXPECT_EQ(moved("assoc.bad_vtag"), 800u);
	EXPECT_EQ(moved("assoc.shutdown_complete_unexpected"), 0u);
}

TEST_F(DpAttack, BlindSackWithAWrongTag)
{
	open("blind_sack");
	run(800);
	EXPECT_EQ(moved("assoc.bad_vtag"), 800u);
}

TEST_F(DpAttack, BlindDataWithAWrongTag)
{
	open("blind_data");
	run(800);
	EXPECT_EQ(moved("assoc.bad_vtag"), 800u);
}

// The server holds at most its receive buffer (--rcvbuf 64 KiB) of an
// association's unfinished message; the rest is dropped unacknowledged.
TEST_F(DpAttack, FragmentsNeverCompleted)
{
	open("frag_never_complete");
	run(800);
	ASSERT_GE(bed_->sa.size(), 2u);
	ASSERT_NE(bed_->sa[1].a, nullptr) << "the attacker's association ended";
	dpsctp_assoc_stats st = {};
	ASSERT_EQ(dpsctp_assoc_get_stats(bed_->sa[1].a, &st), 0);
	printf("attacker's association: %lu DATA chunks taken, %lu messages delivered\n",
	       (unsigned long)st.data_chunks_in, (unsigned long)st.msgs_recv);
	EXPECT_LE(st.data_chunks_in, 65536u / 1000u + 2u) << "taken past --rcvbuf";
	EXPECT_GE(st.data_chunks_in, 32u) << "the fragments were not even taken";
	EXPECT_LE(AttackBed::in_use(bed_->s), in_use_ + 65536u / 1000u + 2u)
		<< "server mbufs held for the attacker";
	// Its end gives everything back.
	ASSERT_EQ(dpsctp_abort(bed_->sa[1].a), 0);
	for (int k = 0; k < 2000; k++)
		bed_->step();
	EXPECT_LE(AttackBed::in_use(bed_->s), in_use_);
}

// The server's application may queue --sndbuf (64 KiB) for a peer that
// never opens its window, and is then told to wait; the other association
// carries on.
TEST_F(DpAttack, ZeroWindowNeverOpened)
{
	open("zero_window");
	EXPECT_EQ(bed_->hostile_send_rc, -EAGAIN);
	// A message is taken while any room is left: at most one beyond.
	EXPECT_LE(bed_->hostile_sent_bytes, 65536u + 1000u);
	EXPECT_GE(bed_->hostile_sent_bytes, 32768u);
	run(800);
	ASSERT_GE(bed_->sa.size(), 2u);
	ASSERT_NE(bed_->sa[1].a, nullptr) << "the attacker's association ended";
	dpsctp_assoc_stats st = {};
	ASSERT_EQ(dpsctp_assoc_get_stats(bed_->sa[1].a, &st), 0);
	printf("attacker's association: %lu bytes queued, window %u, %lu DATA sent\n",
	       (unsigned long)st.send_queued, st.peer_rwnd, (unsigned long)st.data_chunks_out);
	EXPECT_LE(st.send_queued, 65536u + 1000u);
	EXPECT_EQ(st.peer_rwnd, 0u);
	EXPECT_LE(AttackBed::in_use(bed_->s), in_use_ + 65536u / 1000u + 2u);
	ASSERT_EQ(dpsctp_abort(bed_->sa[1].a), 0);
	for (int k = 0; k < 2000; k++)
		bed_->step();
	EXPECT_LT(AttackBed::in_use(bed_->s), in_use_);
}

// SACKs with the client's own tag (an on-path attacker, or the peer):
// thousands of gap blocks and duplicate TSNs each, every block valid. The
// client takes them and its data still arrives once.
TEST_F(DpAttack, SacksWithThousandsOfGapBlocksAndDuplicates)
{
	open("sack_gaps");
	dpsctp_assoc_stats st0 = {}, st1 = {};
	ASSERT_EQ(dpsctp_assoc_get_stats(bed_->ca, &st0), 0);
	run(400);
	ASSERT_NE(bed_->ca, nullptr);
	ASSERT_EQ(dpsctp_assoc_get_stats(bed_->ca, &st1), 0);
	printf("forged SACKs: %lu gap blocks, %lu duplicate TSNs; client sacks_in +%lu\n",
	       (unsigned long)bed_->forged_gap_blocks, (unsigned long)bed_->forged_dup_tsns,
	       (unsigned long)(st1.sacks_in - st0.sacks_in));
	EXPECT_GE(bed_->forged_dup_tsns, 400u * 2000u);
	EXPECT_GT(bed_->forged_gap_blocks, 0u);
}

// ICMP that does not quote the association's tag, or quotes a TSN not in
// flight, changes nothing (RFC 9260 appendix C; docs/PMTU.md); a genuine
// one afterwards does, so the frames are right.
class DpAttackIcmp : public DpAttack {
      protected:
	void check(const char *name)
	{
		open(name);
		run(800);
		EXPECT_EQ(moved("icmp_errors"), 800u);
		EXPECT_EQ(moved("icmp_no_assoc"), 0u);
		dpsctp_path_stats ps = {};
		ASSERT_NE(bed_->sa[0].a, nullptr);
		ASSERT_EQ(dpsctp_path_get_stats(bed_->sa[0].a, 0, &ps), 0);
		EXPECT_EQ(ps.mtu, 1500u) << "path MTU changed by unauthenticated ICMP";
		EXPECT_EQ(bed_->sa[0].mtu_events, 0u);
		ASSERT_TRUE(bed_->inject(icmp_to_server(*bed_, 4, 1400, bed_->tag_c, false, 0)));
		for (int k = 0; k < 100; k++)
			bed_->step();
		ASSERT_EQ(dpsctp_path_get_stats(bed_->sa[0].a, 0, &ps), 0);
		EXPECT_EQ(ps.mtu, 1400u)
			<< "the genuine ICMP was not taken: the test proves nothing";
		EXPECT_EQ(bed_->sa[0].mtu_events, 1u);
	}
};

TEST_F(DpAttackIcmp, FragNeededWithAWrongTag)
{
	check("icmp_frag_needed_bad_tag");
}

TEST_F(DpAttackIcmp, FragNeededQuotingATsnNotOutstanding)
{
	check("icmp_frag_needed_bad_tsn");
}

TEST_F(DpAttackIcmp, ProtocolUnreachableWithAWrongTag)
{
	check("icmp_proto_unreach_bad_tag");
}

} // namespace
