// SPDX-License-Identifier: BSD-3-Clause
// The options' validation alone (dataplane/opt_check.c, docs/OPTIONS.md):
// each field's bounds, each message naming its option and field, without
// DPDK (what the sidecar's client library links).
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "dataplane/dpsctp.h"

namespace {

struct Res {
	int rc;
	std::string err;
};

template <typename T>
Res
check(enum dpsctp_opt opt, const T &v)
{
	char err[256] = "";
	int rc = dpsctp_opt_check(opt, &v, sizeof(v), err, sizeof(err));
	return { rc, err };
}

#define EXPECT_REFUSED(res, text)                                                                  \
	do {                                                                                       \
		Res r_ = (res);                                                                    \
		EXPECT_EQ(r_.rc, -EINVAL);                                                         \
		EXPECT_NE(r_.err.find(text), std::string::npos) << r_.err;                         \
	} while (0)

TEST(OptCheck, NamesAndSizes)
{
	EXPECT_STREQ(dpsctp_opt_name(DPSCTP_OPT_RTOINFO), "RTOINFO");
	EXPECT_STREQ(dpsctp_opt_name(DPSCTP_OPT_PEER_ADDR_INFO), "PEER_ADDR_INFO");
	EXPECT_EQ(dpsctp_opt_name((enum dpsctp_opt)0), nullptr);
	EXPECT_EQ(dpsctp_opt_size(DPSCTP_OPT_STATUS), sizeof(struct dpsctp_status));
	EXPECT_EQ(dpsctp_opt_size((enum dpsctp_opt)DPSCTP_OPT_END), 0u);
}

TEST(OptCheck, WrongLenNullUnknownAndReadOnly)
{
	struct dpsctp_rtoinfo r = {};
	char err[128];
	EXPECT_EQ(dpsctp_opt_check(DPSCTP_OPT_RTOINFO, &r, sizeof(r) - 1, err, sizeof(err)),
		  -EINVAL);
	EXPECT_NE(std::string(err).find("RTOINFO"), std::string::npos);
	EXPECT_EQ(dpsctp_opt_check(DPSCTP_OPT_RTOINFO, nullptr, sizeof(r), err, sizeof(err)),
		  -EINVAL);
	EXPECT_EQ(dpsctp_opt_check((enum dpsctp_opt)99, &r, sizeof(r), err, sizeof(err)),
		  -ENOPROTOOPT);
	struct dpsctp_status st = {};
	EXPECT_EQ(dpsctp_opt_check(DPSCTP_OPT_STATUS, &st, sizeof(st), err, sizeof(err)),
		  -ENOPROTOOPT);
	EXPECT_NE(std::string(err).find("STATUS"), std::string::npos);
}

TEST(OptCheck, Rtoinfo)
{
	EXPECT_EQ(check(DPSCTP_OPT_RTOINFO, dpsctp_rtoinfo{ 0, 0, 0 }).rc, 0); // all kept
	EXPECT_EQ(check(DPSCTP_OPT_RTOINFO, dpsctp_rtoinfo{ 1000, 1, 3600000000u }).rc, 0);
	EXPECT_REFUSED(check(DPSCTP_OPT_RTOINFO, dpsctp_rtoinfo{ 0, 0, 3600000001u }),
		       "RTOINFO.max_us 3600000001");
	EXPECT_REFUSED(check(DPSCTP_OPT_RTOINFO, dpsctp_rtoinfo{ 3600000001u, 0, 0 }),
		       "RTOINFO.initial_us");
	EXPECT_REFUSED(check(DPSCTP_OPT_RTOINFO, dpsctp_rtoinfo{ 0, 2000, 1000 }),
		       "RTOINFO.min_us 2000: above max_us 1000");
	EXPECT_REFUSED(check(DPSCTP_OPT_RTOINFO, dpsctp_rtoinfo{ 500, 1000, 2000 }),
		       "RTOINFO.initial_us 500");
}

TEST(OptCheck, AssocinfoInitmsg)
{
	EXPECT_EQ(check(DPSCTP_OPT_ASSOCINFO, dpsctp_associnfo{ 5, 0, 0, 0, 3600000 }).rc, 0);
	EXPECT_REFUSED(check(DPSCTP_OPT_ASSOCINFO, dpsctp_associnfo{ 5, 0, 0, 0, 3600001 }),
		       "ASSOCINFO.cookie_life_ms 3600001");
	EXPECT_EQ(check(DPSCTP_OPT_INITMSG, dpsctp_initmsg{ 65535, 65535, 3, 0, 1000 }).rc, 0);
	EXPECT_REFUSED(check(DPSCTP_OPT_INITMSG, dpsctp_initmsg{ 1, 1, 1, 0, 3600000001u }),
		       "INITMSG.max_init_timeo_us");
	EXPECT_REFUSED(check(DPSCTP_OPT_INITMSG, dpsctp_initmsg{ 1, 1, 1, 7, 0 }),
		       "INITMSG.reserved");
}

TEST(OptCheck, PeerAddrParams)
{
	dpsctp_paddrparams p = {};
	p.flags = DPSCTP_SPP_HB_DISABLE | DPSCTP_SPP_PF_ENABLE;
	p.hb_interval_us = 1000;
	EXPECT_EQ(check(DPSCTP_OPT_PEER_ADDR_PARAMS, p).rc, 0);
	p.hb_interval_us = 999;
	EXPECT_REFUSED(check(DPSCTP_OPT_PEER_ADDR_PARAMS, p),
		       "PEER_ADDR_PARAMS.hb_interval_us 999");
	p.hb_interval_us = 0;
	p.flags = DPSCTP_SPP_HB_ENABLE | DPSCTP_SPP_HB_DISABLE;
	EXPECT_REFUSED(check(DPSCTP_OPT_PEER_ADDR_PARAMS, p), "PEER_ADDR_PARAMS.flags");
	p.flags = 0x4000;
	EXPECT_REFUSED(check(DPSCTP_OPT_PEER_ADDR_PARAMS, p), "unknown bits");
	p.flags = DPSCTP_SPP_PMTUD_DISABLE;
	p.pathmtu = 575;
	EXPECT_REFUSED(check(DPSCTP_OPT_PEER_ADDR_PARAMS, p), "PEER_ADDR_PARAMS.pathmtu 575");
	p.pathmtu = 9216;
	EXPECT_EQ(check(DPSCTP_OPT_PEER_ADDR_PARAMS, p).rc, 0);
	p.flags = 0;
	EXPECT_REFUSED(check(DPSCTP_OPT_PEER_ADDR_PARAMS, p), "only with DPSCTP_SPP_PMTUD_DISABLE");
	p.pathmtu = 0;
	p.pf_threshold = 2;
	EXPECT_REFUSED(check(DPSCTP_OPT_PEER_ADDR_PARAMS, p), "PEER_ADDR_PARAMS.pf_threshold 2");
	p.pf_threshold = 0;
	// One path's interval and thresholds (RFC 6458 §8.1.12 spp_address).
	p.addr = { 4, { 10, 0, 0, 2 } };
	p.path_max_retrans = 3;
	p.hb_interval_us = 2000;
	p.flags = DPSCTP_SPP_PF_ENABLE;
	p.pf_threshold = 1;
	EXPECT_EQ(check(DPSCTP_OPT_PEER_ADDR_PARAMS, p).rc, 0);
	p.hb_interval_us = 999;
	EXPECT_REFUSED(check(DPSCTP_OPT_PEER_ADDR_PARAMS, p),
		       "PEER_ADDR_PARAMS.hb_interval_us 999");
	p = {};
	p.addr.family = 5;
	EXPECT_REFUSED(check(DPSCTP_OPT_PEER_ADDR_PARAMS, p), "PEER_ADDR_PARAMS.addr");
}

TEST(OptCheck, SackMaxsegBurstNodelay)
{
	EXPECT_EQ(check(DPSCTP_OPT_DELAYED_SACK, dpsctp_sack_info{ 500000, 65535 }).rc, 0);
	EXPECT_REFUSED(check(DPSCTP_OPT_DELAYED_SACK, dpsctp_sack_info{ 500001, 1 }),
		       "DELAYED_SACK.delay_us 500001");
	EXPECT_REFUSED(check(DPSCTP_OPT_DELAYED_SACK, dpsctp_sack_info{ 1, 65536 }),
		       "DELAYED_SACK.freq 65536");
	EXPECT_EQ(check(DPSCTP_OPT_MAXSEG, dpsctp_assoc_value{ 0 }).rc, 0);
	EXPECT_EQ(check(DPSCTP_OPT_MAXSEG, dpsctp_assoc_value{ 256 }).rc, 0);
	EXPECT_REFUSED(check(DPSCTP_OPT_MAXSEG, dpsctp_assoc_value{ 255 }), "MAXSEG.value 255");
	EXPECT_REFUSED(check(DPSCTP_OPT_MAXSEG, dpsctp_assoc_value{ 65536 }), "MAXSEG.value 65536");
	EXPECT_EQ(check(DPSCTP_OPT_MAX_BURST, dpsctp_assoc_value{ 0 }).rc, 0);
	EXPECT_REFUSED(check(DPSCTP_OPT_MAX_BURST, dpsctp_assoc_value{ 65536 }), "MAX_BURST.value");
	EXPECT_EQ(check(DPSCTP_OPT_NODELAY, dpsctp_assoc_value{ 1 }).rc, 0);
	EXPECT_REFUSED(check(DPSCTP_OPT_NODELAY, dpsctp_assoc_value{ 2 }), "NODELAY.value 2");
}

TEST(OptCheck, SndinfoEventsPrimary)
{
	dpsctp_default_sndinfo s = {};
	s.flags = DPSCTP_SEND_UNORDERED;
	EXPECT_EQ(check(DPSCTP_OPT_DEFAULT_SNDINFO, s).rc, 0);
	s.flags = DPSCTP_SEND_MORE;
	EXPECT_REFUSED(check(DPSCTP_OPT_DEFAULT_SNDINFO, s), "DEFAULT_SNDINFO.flags");
	s.flags = 0;
	s.pr_policy = 4;
	EXPECT_REFUSED(check(DPSCTP_OPT_DEFAULT_SNDINFO, s), "DEFAULT_SNDINFO.pr_policy 4");
	s.pr_policy = DPSCTP_PR_TTL;
	EXPECT_REFUSED(check(DPSCTP_OPT_DEFAULT_SNDINFO, s), "DEFAULT_SNDINFO.pr_value 0");
	EXPECT_EQ(check(DPSCTP_OPT_EVENTS, dpsctp_events{ DPSCTP_EV_BIT(DPSCTP_EV_STREAM_CHANGE) |
							  DPSCTP_EV_BIT(DPSCTP_EV_COMM_UP) })
			  .rc,
		  0);
	EXPECT_REFUSED(check(DPSCTP_OPT_EVENTS, dpsctp_events{ 1u }), "EVENTS.mask");
	EXPECT_REFUSED(check(DPSCTP_OPT_EVENTS,
			     dpsctp_events{ DPSCTP_EV_BIT(DPSCTP_EV_STREAM_CHANGE + 1) }),
		       "EVENTS.mask");
	dpsctp_primary_addr pa = {};
	EXPECT_REFUSED(check(DPSCTP_OPT_PRIMARY_ADDR, pa), "PRIMARY_ADDR.addr");
	pa.addr.family = 6;
	EXPECT_EQ(check(DPSCTP_OPT_PRIMARY_ADDR, pa).rc, 0);
}

} // namespace
