// SPDX-License-Identifier: BSD-3-Clause
// ICMP errors quoting our packets, RFC 9260 appendix C (sctp/assoc_icmp.c),
// on both profiles: the quoted tag decides (ICMP6), protocol unreachable
// ends the association like an ABORT (ICMP8) when the profile says so and
// is only counted otherwise (proto_unreach_aborts), an INIT quoted in COOKIE-WAIT
// fails the handshake, UDP port unreachable counts only over UDP
// encapsulation, other unreachables are counted and left alone, and PMTU
// (ICMP7) lowers the path's MTU once the send side runs (docs/PMTU.md).
#include <gtest/gtest.h>

#include "sctp/tests/assoc_harness.h"

namespace {

class Icmp : public ::testing::TestWithParam<const struct sctp_profile *> {
      protected:
	const struct sctp_profile *prof() const
	{
		return GetParam();
	}
	// The parameter profile with ICMP8 after the handshake set as asked.
	const struct sctp_profile *with_unreach_aborts(bool aborts)
	{
		own_ = *GetParam();
		own_.proto_unreach_aborts = aborts;
		return &own_;
	}
	struct sctp_profile own_;
	static struct sctp_icmp icmp(uint8_t kind, uint32_t vtag, const Side &peer)
	{
		struct sctp_icmp e = {};
		e.kind = kind;
		e.vtag = vtag;
		e.peer = peer.addr;
		return e;
	}
	static bool lost(const Side &x, uint8_t type)
	{
		for (const auto &n : x.notes)
			if (n.n.type == type)
				return true;
		return false;
	}
};

INSTANTIATE_TEST_SUITE_P(Profiles, Icmp, ::testing::Values(&sctp_profile_rfc, &sctp_profile_dc),
			 [](const ::testing::TestParamInfo<const struct sctp_profile *> &info) {
				 return std::string(info.param == &sctp_profile_rfc ? "Rfc" : "Dc");
			 });

TEST_P(Icmp, ProtocolUnreachableEndsTheAssociationLikeAnAbort)
{
	const struct sctp_profile *p = with_unreach_aborts(true);
	Sim sim(p, p, one_way_delay(p));
	sim.handshake();
	auto &c = sim.c;
	struct sctp_icmp e = icmp(SCTP_ICMP_PROTO_UNREACH, c.a.peer_vtag, sim.s);
	ASSERT_EQ(sctp_assoc_icmp(&c.a, &e, sim.now), 0);
	EXPECT_EQ(c.counters.icmp_aborts, 1u);
	EXPECT_EQ(c.a.state, SCTP_ASSOC_CLOSED);
	ASSERT_TRUE(lost(c, SCTP_NOTIFY_COMM_LOST));
	EXPECT_EQ(c.notes.back().n.reason, SCTP_ASSOC_REASON_PEER_ABORT);
}

// Linux's choice, the data-center profile's default: a stray protocol
// unreachable does not end an established association; it is counted.
TEST_P(Icmp, ProtocolUnreachableIsOnlyCountedWhenTheProfileSaysNotToAbort)
{
	const struct sctp_profile *p = with_unreach_aborts(false);
	Sim sim(p, p, one_way_delay(p));
	sim.handshake();
	auto &c = sim.c;
	struct sctp_icmp e = icmp(SCTP_ICMP_PROTO_UNREACH, c.a.peer_vtag, sim.s);
	ASSERT_EQ(sctp_assoc_icmp(&c.a, &e, sim.now), 0);
	e.kind = SCTP_ICMP_PORT_UNREACH;
	e.udp_encap = true;
	ASSERT_EQ(sctp_assoc_icmp(&c.a, &e, sim.now), 0);
	EXPECT_EQ(c.counters.icmp_aborts, 0u);
	EXPECT_EQ(c.counters.icmp_ignored, 2u);
	EXPECT_EQ(c.a.state, SCTP_ASSOC_ESTABLISHED);
	EXPECT_FALSE(lost(c, SCTP_NOTIFY_COMM_LOST));
}

TEST(IcmpProfiles, RfcAbortsDataCenterCounts)
{
	EXPECT_TRUE(sctp_profile_rfc.proto_unreach_aborts);
	EXPECT_FALSE(sctp_profile_dc.proto_unreach_aborts);
}

TEST_P(Icmp, AForeignTagIsDiscarded)
{
	Sim sim(prof(), prof(), one_way_delay(prof()));
	sim.handshake();
	auto &c = sim.c;
	struct sctp_icmp e = icmp(SCTP_ICMP_PROTO_UNREACH, c.a.peer_vtag ^ 0x10u, sim.s);
	EXPECT_EQ(sctp_assoc_icmp(&c.a, &e, sim.now), -EINVAL);
	e.vtag = 0; // tag 0 without a quoted INIT of ours
	EXPECT_EQ(sctp_assoc_icmp(&c.a, &e, sim.now), -EINVAL);
	EXPECT_EQ(c.counters.icmp_bad_tag, 2u);
	EXPECT_EQ(c.counters.icmp_aborts, 0u);
	EXPECT_EQ(c.a.state, SCTP_ASSOC_ESTABLISHED);
}

TEST_P(Icmp, PmtuOtherUnreachablesAndPlainPortUnreachableAreOnlyCounted)
{
	const struct sctp_profile *p = with_unreach_aborts(true);
	Sim sim(p, p, one_way_delay(p));
	sim.handshake();
	auto &c = sim.c;
	for (uint8_t kind : { SCTP_ICMP_FRAG_NEEDED, SCTP_ICMP_UNREACH, SCTP_ICMP_PORT_UNREACH }) {
		struct sctp_icmp e = icmp(kind, c.a.peer_vtag, sim.s);
		e.mtu = 1280;
		EXPECT_EQ(sctp_assoc_icmp(&c.a, &e, sim.now), 0);
	}
	EXPECT_EQ(c.counters.icmp_ignored, 3u);
	EXPECT_EQ(c.a.state, SCTP_ASSOC_ESTABLISHED);
	// Over UDP encapsulation port unreachable means the peer's SCTP is gone.
	struct sctp_icmp e = icmp(SCTP_ICMP_PORT_UNREACH, c.a.peer_vtag, sim.s);
	e.udp_encap = true;
	EXPECT_EQ(sctp_assoc_icmp(&c.a, &e, sim.now), 0);
	EXPECT_EQ(c.a.state, SCTP_ASSOC_CLOSED);
	EXPECT_TRUE(lost(c, SCTP_NOTIFY_COMM_LOST));
}

// ICMP7 with a send side (docs/PMTU.md): the quoted path's MTU falls, the
// user hears of it, and a quote of a DATA chunk must name a TSN in flight.
TEST_P(Icmp, FragNeededLowersThePathMtu)
{
	Sim sim(prof(), prof(), one_way_delay(prof()));
	sim.enable_data();
	sim.handshake();
	auto &c = sim.c;
	ASSERT_NE(c.a.tx, nullptr);
	EXPECT_EQ(sctp_assoc_path_mtu(&c.a, 0, nullptr), 1500);
	// A quote of a DATA chunk whose TSN was never sent: discarded.
	uint32_t tag = c.a.peer_vtag;
	uint8_t q[20] = {
		0, 0, 0, 0, uint8_t(tag >> 24), uint8_t(tag >> 16), uint8_t(tag >> 8), uint8_t(tag)
	};
	q[12] = SCTP_CHUNK_DATA;
	uint32_t tsn = c.a.tx->next_tsn + 100;
	q[16] = uint8_t(tsn >> 24);
	q[17] = uint8_t(tsn >> 16);
	q[18] = uint8_t(tsn >> 8);
	q[19] = uint8_t(tsn);
	struct sctp_icmp e = icmp(SCTP_ICMP_FRAG_NEEDED, tag, sim.s);
	e.mtu = 1280;
	e.quote = q;
	e.quote_len = sizeof(q);
	EXPECT_EQ(sctp_assoc_icmp(&c.a, &e, sim.now), -EINVAL);
	EXPECT_EQ(c.counters.icmp_pmtu_bad_tsn, 1u);
	EXPECT_EQ(sctp_assoc_path_mtu(&c.a, 0, nullptr), 1500);
	// No DATA quoted: the tag suffices.
	e.quote = nullptr;
	e.quote_len = 0;
	EXPECT_EQ(sctp_assoc_icmp(&c.a, &e, sim.now), 0);
	EXPECT_EQ(c.counters.icmp_pmtu_applied, 1u);
	EXPECT_EQ(c.counters.pmtu_decreases, 1u);
	EXPECT_EQ(sctp_assoc_path_mtu(&c.a, 0, nullptr), 1280);
	EXPECT_TRUE(lost(c, SCTP_NOTIFY_PATH_MTU));
	EXPECT_EQ(c.notes.back().n.mtu, 1280);
	// With discovery off in the profile: counted, ignored.
	own_ = *prof();
	own_.pmtud = false;
	Sim off(&own_, &own_, one_way_delay(prof()));
	off.enable_data();
	off.handshake();
	e = icmp(SCTP_ICMP_FRAG_NEEDED, off.c.a.peer_vtag, off.s);
	e.mtu = 1280;
	EXPECT_EQ(sctp_assoc_icmp(&off.c.a, &e, off.now), 0);
	EXPECT_EQ(off.c.counters.icmp_ignored, 1u);
	EXPECT_EQ(sctp_assoc_path_mtu(&off.c.a, 0, nullptr), 1500);
}

TEST_P(Icmp, QuotedInitInCookieWaitFailsTheHandshake)
{
	Sim sim(prof(), prof(), one_way_delay(prof()));
	sim.connect(); // the INIT is in flight: COOKIE-WAIT
	auto &c = sim.c;
	ASSERT_EQ(c.a.state, SCTP_ASSOC_COOKIE_WAIT);
	// The quoted INIT: common header (tag 0), then type 1 and our Initiate Tag.
	uint8_t q[20] = {};
	q[12] = SCTP_CHUNK_INIT;
	uint32_t t = c.a.local_vtag;
	q[16] = (uint8_t)(t >> 24);
	q[17] = (uint8_t)(t >> 16);
	q[18] = (uint8_t)(t >> 8);
	q[19] = (uint8_t)t;
	struct sctp_icmp e = icmp(SCTP_ICMP_PROTO_UNREACH, 0, sim.s);
	e.quote = q;
	e.quote_len = sizeof(q);
	q[19] ^= 1; // someone else's INIT
	EXPECT_EQ(sctp_assoc_icmp(&c.a, &e, sim.now), -EINVAL);
	EXPECT_EQ(c.a.state, SCTP_ASSOC_COOKIE_WAIT);
	q[19] ^= 1;
	ASSERT_EQ(sctp_assoc_icmp(&c.a, &e, sim.now), 0);
	EXPECT_EQ(c.a.state, SCTP_ASSOC_CLOSED);
	EXPECT_TRUE(lost(c, SCTP_NOTIFY_CANT_START));
}

} // namespace
