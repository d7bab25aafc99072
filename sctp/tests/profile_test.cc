// SPDX-License-Identifier: BSD-3-Clause
// The two profiles are valid, keep the RFC 9260 §16 values where they claim
// to, and sctp_profile_check() refuses each broken rule it documents.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

extern "C" {
#include "sctp/profile.h"
}

TEST(Profile, BothProfilesPassTheirOwnCheck)
{
	EXPECT_EQ(sctp_profile_check(&sctp_profile_rfc), nullptr);
	EXPECT_EQ(sctp_profile_check(&sctp_profile_dc), nullptr);
}

TEST(Profile, RfcProfileIsRfc9260Section16)
{
	const struct sctp_profile &p = sctp_profile_rfc;
	EXPECT_EQ(p.rto_initial_ns, SCTP_S(1));
	EXPECT_EQ(p.rto_min_ns, SCTP_S(1));
	EXPECT_EQ(p.rto_max_ns, SCTP_S(60));
	EXPECT_EQ(p.max_burst, 4);
	EXPECT_EQ(p.rto_alpha_shift, 3); // 1/8
	EXPECT_EQ(p.rto_beta_shift, 2);	 // 1/4
	EXPECT_EQ(p.valid_cookie_life_ns, SCTP_S(60));
	EXPECT_EQ(p.assoc_max_retrans, 10);
	EXPECT_EQ(p.path_max_retrans, 5);
	EXPECT_EQ(p.max_init_retransmits, 8);
	EXPECT_EQ(p.hb_interval_ns, SCTP_S(30));
	EXPECT_EQ(p.hb_max_burst, 1);
	EXPECT_EQ(p.sack_delay_ns, SCTP_MS(200));
	EXPECT_EQ(p.sack_every, 2);
}

TEST(Profile, DcProfileIsFasterAndUncapped)
{
	const struct sctp_profile &r = sctp_profile_rfc, &d = sctp_profile_dc;
	EXPECT_LT(d.rto_min_ns, r.rto_min_ns);
	EXPECT_LT(d.rto_max_ns, r.rto_max_ns);
	EXPECT_LT(d.hb_interval_ns, r.hb_interval_ns);
	EXPECT_LT(d.path_max_retrans, r.path_max_retrans);
	EXPECT_TRUE(d.pf_enabled);
	EXPECT_EQ(d.max_burst, 0);
	EXPECT_GT(d.sack_every, r.sack_every);
}

TEST(Profile, LookupByIdAndName)
{
	enum sctp_profile_id id;
	ASSERT_EQ(sctp_profile_from_name("dc", &id), 0);
	EXPECT_EQ(id, SCTP_PROFILE_DC);
	EXPECT_EQ(sctp_profile_get(id), &sctp_profile_dc);
	ASSERT_EQ(sctp_profile_from_name("rfc", &id), 0);
	EXPECT_STREQ(sctp_profile_name(id), "rfc");
	EXPECT_EQ(sctp_profile_from_name("wan", &id), -1);
	EXPECT_EQ(sctp_profile_get((enum sctp_profile_id)7), nullptr);
	EXPECT_EQ(sctp_profile_name((enum sctp_profile_id)7), nullptr);
}

TEST(Profile, CheckRefusesEachBrokenRule)
{
	const std::vector<std::pair<std::string, std::function<void(struct sctp_profile &)>>>
		cases = {
			{ "clock_granularity_ns is 0",
			  [](auto &p) { p.clock_granularity_ns = 0; } },
			{ "rto_min_ns < clock_granularity_ns",
			  [](auto &p) { p.rto_min_ns = p.clock_granularity_ns - 1; } },
			{ "rto_min_ns > rto_initial_ns",
			  [](auto &p) { p.rto_min_ns = p.rto_initial_ns + 1; } },
			{ "rto_initial_ns > rto_max_ns",
			  [](auto &p) { p.rto_initial_ns = p.rto_max_ns + 1; } },
			{ "rto_max_ns above one hour",
			  [](auto &p) { p.rto_max_ns = SCTP_S(3601); } },
			{ "rto_alpha_shift / rto_beta_shift outside 1..8",
			  [](auto &p) { p.rto_beta_shift = 0; } },
			{ "valid_cookie_life_ns is 0",
			  [](auto &p) { p.valid_cookie_life_ns = 0; } },
			{ "sack_delay_ns above 500 ms (RFC 9260 §6.2)",
			  [](auto &p) { p.sack_delay_ns = SCTP_MS(501); } },
			{ "sack_delay_ns >= rto_min_ns",
			  [](auto &p) { p.rto_min_ns = p.sack_delay_ns; } },
			{ "sack_every is 0", [](auto &p) { p.sack_every = 0; } },
			{ "assoc_max_retrans / path_max_retrans is 0",
			  [](auto &p) { p.path_max_retrans = 0; } },
			{ "pf_max_retrans >= path_max_retrans (RFC 7829)",
			  [](auto &p) {
				  p.pf_enabled = true;
				  p.pf_max_retrans = p.path_max_retrans;
			  } },
			{ "hb_max_burst is 0", [](auto &p) { p.hb_max_burst = 0; } },
			{ "hb_interval_ns is 0", [](auto &p) { p.hb_interval_ns = 0; } },
			{ "out_streams / max_in_streams is 0 (RFC 9260 §3.3.2)",
			  [](auto &p) { p.out_streams = 0; } },
			{ "a path's path_max_retrans is 0",
			  [](auto &p) { sctp_profile_path_set_max_retrans(&p, 3, 0); } },
			{ "a path's hb_interval_ns is 0",
			  [](auto &p) { sctp_profile_path_set_hb_interval(&p, 7, 0); } },
			{ "a path's pf_max_retrans >= its path_max_retrans (RFC 7829)",
			  [](auto &p) {
				  sctp_profile_path_set_pf(&p, 1, true, 2);
				  sctp_profile_path_set_max_retrans(&p, 1, 2);
			  } },
			// The path's own threshold against the association's PMR, too.
			{ "a path's pf_max_retrans >= its path_max_retrans (RFC 7829)",
			  [](auto &p) {
				  sctp_profile_path_set_pf(&p, 0, true, p.path_max_retrans);
			  } },
			{ "path_own does not match the per-path values",
			  [](auto &p) { p.path_own = 1; } },
		};
	for (const auto &c : cases) {
		for (const struct sctp_profile *base : { &sctp_profile_rfc, &sctp_profile_dc }) {
			struct sctp_profile p = *base;
			c.second(p);
			const char *why = sctp_profile_check(&p);
			ASSERT_NE(why, nullptr) << c.first;
			EXPECT_EQ(std::string(why), c.first);
		}
	}
}
