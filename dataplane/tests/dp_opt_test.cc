/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] Per-association options (dpsctp_opt.h, docs/OPTIONS.md) through the
// embedded runtime, two instances over a net_ring pair polled by the test
// thread. The configuration's keys set the instance's defaults (--maxseg,
// --sack-freq) and a combination the profile refuses fails the instance
// with a message; two associations to one server, options set on one of
// them: it fragments at its MAXSEG and runs its RTOINFO while the other
// keeps the defaults, and holds a small message behind unacknowledged data
// with NODELAY off; STATUS and PEER_ADDR_INFO read back what the
// associations are; dpsctp_setopt() changes the defaults of associations
// made afterwards only; a DEFAULT_SNDINFO serves dpsctp_send_bytes() with
// no sndinfo; an EVENTS mask leaves out what it does not name but never
// the end of the association; a fixed path MTU on one association only;
// PEER_ADDR_PARAMS' heartbeat interval and thresholds on one path; bad
// values are refused with the option's name.
#include <gtest/gtest.h>

#include <rte_mempool.h>

#include <atomic>
#include <cstring>
#include <string>

#include "dataplane/tests/dp_pair.h"

namespace {

constexpr uint16_t kPort = 7107;

struct App {
	dpsctp_assoc *a = nullptr;
	std::atomic<bool> up{ false }, ended{ false };
	size_t msgs = 0, bytes = 0;
	uint16_t last_sid = 0;
	uint32_t last_ppid = 0;
	unsigned events = 0; // events other than COMM_UP and the end
	unsigned ends = 0;
};

void
on_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	App *p = static_cast<App *>(arg);
	switch (ev->type) {
	case DPSCTP_EV_COMM_UP:
		p->a = a;
		p->up = true;
		break;
	case DPSCTP_EV_COMM_LOST:
	case DPSCTP_EV_SHUTDOWN_COMPLETE:
	case DPSCTP_EV_CANT_START:
		p->ends++;
		p->ended = true;
		break;
	default:
		p->events++;
		break;
	}
}

void
on_recv(dpsctp_assoc *, const dpsctp_msg *m, void *arg)
{
	App *p = static_cast<App *>(arg);
	p->msgs++;
	p->bytes += m->len;
	p->last_sid = m->sid;
	p->last_ppid = m->ppid;
}

const dpsctp_callbacks kCb = { on_recv, on_event, nullptr };

class DpOpt : public DpPair {
      protected:
	void start(const char *client_maxseg = "")
	{
		open_pair("op", { { "maxseg", client_maxseg } }, { { "sack-freq", "1" } });
		ASSERT_EQ(dpsctp_listen(s_, kPort, &kCb, &server_), 0);
	}
	dpsctp_assoc *connect(App &app, const dpsctp_initmsg *init = nullptr)
	{
		dpsctp_assoc *a = connect_to(kPort, &kCb, &app, init);
		EXPECT_TRUE(until([&] { return app.up.load(); })) << dp_test_counters(c_);
		return a;
	}
	void send(dpsctp_assoc *a, size_t len)
	{
		std::string b(len, 'x');
		dpsctp_sndinfo si = {};
		ASSERT_EQ(dpsctp_send_bytes(a, &si, b.data(), b.size()), 0);
		size_t want = server_.bytes + len;
		ASSERT_TRUE(until([&] { return server_.bytes >= want; }));
	}
	uint64_t chunks_out(dpsctp_assoc *a)
	{
		dpsctp_assoc_stats st;
		EXPECT_EQ(dpsctp_assoc_get_stats(a, &st), 0);
		return st.data_chunks_out;
	}
	template <typename T> T get(dpsctp_assoc *a, enum dpsctp_opt opt, T v = T())
	{
		size_t len = sizeof(v);
		EXPECT_EQ(dpsctp_assoc_getopt(a, opt, &v, &len), 0) << dpsctp_opt_name(opt);
		EXPECT_EQ(len, sizeof(v));
		return v;
	}
	App server_;
};

TEST_F(DpOpt, ConfigurationErrorsNameTheKey)
{
	dpsctp_config c;
	char err[256] = "";
	dpsctp_config_defaults(&c);
	EXPECT_NE(dpsctp_config_set(&c, "sack-delay", "600000", err, sizeof(err)), 0);
	EXPECT_NE(std::string(err).find("sack-delay"), std::string::npos) << err;
	EXPECT_NE(dpsctp_config_set(&c, "maxseg", "100", err, sizeof(err)), 0);
	EXPECT_NE(std::string(err).find("maxseg"), std::string::npos) << err;
	EXPECT_EQ(c.pf_threshold, DPSCTP_CONFIG_PF_PROFILE);
	EXPECT_EQ(dpsctp_config_set(&c, "pf-threshold", "off", err, sizeof(err)), 0) << err;
	EXPECT_EQ(c.pf_threshold, DPSCTP_CONFIG_PF_OFF);
	EXPECT_EQ(dpsctp_config_set(&c, "pf-threshold", "2", err, sizeof(err)), 0) << err;
	EXPECT_EQ(c.pf_threshold, 2u);
	EXPECT_NE(dpsctp_config_set(&c, "pf-threshold", "65535", err, sizeof(err)), 0);
	EXPECT_NE(std::string(err).find("pf-threshold '65535'"), std::string::npos) << err;
	// PFMR at Path.Max.Retrans or above: the instance is refused (RFC 7829).
	{
		RingLink l("op" + std::to_string(serial_++), 1);
		dpsctp_config pf = dp_test_config(l.name_a, "10.0.0.1/24", 1, 0);
		ASSERT_EQ(dpsctp_config_set(&pf, "pf-threshold", "3", err, sizeof(err)), 0) << err;
		EXPECT_EQ(dpsctp_create(&pf, err, sizeof(err)), nullptr)
			<< "dc: Path.Max.Retrans 3";
		EXPECT_NE(std::string(err).find("pf_max_retrans"), std::string::npos) << err;
	}
	// A combination the profile refuses: RTO.Min above RTO.Max.
	link_ = std::make_unique<RingLink>("op" + std::to_string(serial_++), 1);
	dpsctp_config bad = dp_test_config(link_->name_a, "10.0.0.1/24", 1, 0);
	ASSERT_EQ(dpsctp_config_set(&bad, "rto-min", "300000", err, sizeof(err)), 0) << err;
	ASSERT_EQ(dpsctp_config_set(&bad, "rto-max", "200000", err, sizeof(err)), 0) << err;
	EXPECT_EQ(dpsctp_create(&bad, err, sizeof(err)), nullptr);
	EXPECT_NE(std::string(err).find("--rto-"), std::string::npos) << err;
}

TEST_F(DpOpt, OneAssociationsOptionsLeaveTheOtherAlone)
{
	start();
	App one, two;
	dpsctp_assoc *a1 = connect(one), *a2 = connect(two);
	ASSERT_NE(a1, nullptr);
	ASSERT_NE(a2, nullptr);
	char err[256] = "";
	dpsctp_assoc_value seg = { 500 };
	ASSERT_EQ(dpsctp_assoc_setopt(a1, DPSCTP_OPT_MAXSEG, &seg, sizeof(seg), err, sizeof(err)),
		  0)
		<< err;
	dpsctp_rtoinfo rto = { 0, 20000, 0 }; // RTO.Min 20 ms (RTO.Initial is 10 ms: refused)
	EXPECT_EQ(dpsctp_assoc_setopt(a1, DPSCTP_OPT_RTOINFO, &rto, sizeof(rto), err, sizeof(err)),
		  -EINVAL);
	EXPECT_NE(std::string(err).find("RTOINFO"), std::string::npos) << err;
	rto = { 20000, 20000, 0 };
	ASSERT_EQ(dpsctp_assoc_setopt(a1, DPSCTP_OPT_RTOINFO, &rto, sizeof(rto), err, sizeof(err)),
		  0)
		<< err;

	uint64_t before1 = chunks_out(a1), before2 = chunks_out(a2);
	send(a1, 2000);
	send(a2, 2000);
	EXPECT_EQ(chunks_out(a1) - before1, 4u) << "500-byte fragments";
	EXPECT_EQ(chunks_out(a2) - before2, 2u) << "1448-byte fragments";

	EXPECT_EQ(get<dpsctp_assoc_value>(a1, DPSCTP_OPT_MAXSEG).value, 500u);
	EXPECT_EQ(get<dpsctp_assoc_value>(a2, DPSCTP_OPT_MAXSEG).value, 0u);
	EXPECT_EQ(get<dpsctp_rtoinfo>(a1, DPSCTP_OPT_RTOINFO).min_us, 20000u);
	EXPECT_EQ(get<dpsctp_rtoinfo>(a2, DPSCTP_OPT_RTOINFO).min_us, 500u) << "the dc profile's";

	// Until the SACKs are in (the server acknowledges every packet, --sack-freq 1).
	ASSERT_TRUE(until([&] {
		return get<dpsctp_status>(a1, DPSCTP_OPT_STATUS).unacked == 0 &&
		       get<dpsctp_status>(a2, DPSCTP_OPT_STATUS).unacked == 0;
	}));
	dpsctp_status s1 = get<dpsctp_status>(a1, DPSCTP_OPT_STATUS);
	dpsctp_status s2 = get<dpsctp_status>(a2, DPSCTP_OPT_STATUS);
	EXPECT_EQ(s1.state, (uint32_t)DPSCTP_ASSOC_ESTABLISHED);
	EXPECT_EQ(s1.fragmentation_point, 500u);
	EXPECT_EQ(s2.fragmentation_point, 1448u) << "1500 - IPv4 20 - common 12 - I-DATA 20";
	EXPECT_EQ(s2.outstrms, 64u);
	EXPECT_EQ(s2.instrms, 64u);
	EXPECT_EQ(s2.unacked, 0u);
	EXPECT_GT(s2.rwnd, 0u);
	EXPECT_EQ(s1.primary.addr.family, 4u);
	EXPECT_EQ(s1.primary.addr.bytes[3], 2u);
	EXPECT_GE(s1.primary.rto_us, 20000u) << "RTO.Min in force";
	EXPECT_LT(s2.primary.rto_us, 20000u);

	dpsctp_paddrinfo want = {};
	want.addr = { 4, { 10, 0, 0, 2 } };
	dpsctp_paddrinfo pi = get<dpsctp_paddrinfo>(a2, DPSCTP_OPT_PEER_ADDR_INFO, want);
	EXPECT_EQ(pi.state, (uint32_t)DPSCTP_PATH_ACTIVE);
	EXPECT_EQ(pi.mtu, 1500u);
	EXPECT_GT(pi.cwnd, 0u);
	EXPECT_GT(pi.srtt_us, 0u);
	EXPECT_GT(pi.rto_us, 0u);
	want.addr = { 4, { 10, 0, 0, 9 } };
	size_t len = sizeof(want);
	EXPECT_EQ(dpsctp_assoc_getopt(a2, DPSCTP_OPT_PEER_ADDR_INFO, &want, &len), -ENOENT);

	// NODELAY off on a1 (Nagle): a small message waits while data is unacknowledged,
	// and leaves with the acknowledgement; a2 (the default, on) sends it at once.
	dpsctp_assoc_value nodelay = { 0 };
	ASSERT_EQ(dpsctp_assoc_setopt(a1, DPSCTP_OPT_NODELAY, &nodelay, sizeof(nodelay), err,
				      sizeof(err)),
		  0)
		<< err;
	for (dpsctp_assoc *a : { a1, a2 }) {
		std::string big(400, 'b'), small(100, 's');
		dpsctp_sndinfo si = {};
		uint64_t before = chunks_out(a);
		size_t want = server_.msgs + 2;
		ASSERT_EQ(dpsctp_send_bytes(a, &si, big.data(), big.size()), 0);
		ASSERT_EQ(dpsctp_send_bytes(a, &si, small.data(), small.size()), 0);
		EXPECT_EQ(chunks_out(a) - before, a == a1 ? 1u : 2u)
			<< (a == a1 ? "held behind the unacknowledged one" : "sent at once");
		ASSERT_TRUE(until([&] { return server_.msgs >= want; }));
		EXPECT_EQ(chunks_out(a) - before, 2u);
	}

	// A fixed path MTU on one association (SPP_PMTUD_DISABLE + pathmtu), read
	// back, refused past the interface MTU, then handed back to discovery.
	dpsctp_paddrparams pp = {};
	pp.flags = DPSCTP_SPP_PMTUD_DISABLE;
	pp.pathmtu = 1400;
	ASSERT_EQ(dpsctp_assoc_setopt(a2, DPSCTP_OPT_PEER_ADDR_PARAMS, &pp, sizeof(pp), err,
				      sizeof(err)),
		  0)
		<< err;
	dpsctp_path_stats ps{};
	ASSERT_EQ(dpsctp_path_get_stats(a2, 0, &ps), 0);
	dpsctp_paddrparams got = {};
	got.addr = ps.addr;
	size_t glen = sizeof(got);
	ASSERT_EQ(dpsctp_assoc_getopt(a2, DPSCTP_OPT_PEER_ADDR_PARAMS, &got, &glen), 0);
	EXPECT_EQ(got.pathmtu, 1400u);
	EXPECT_NE(got.flags & DPSCTP_SPP_PMTUD_DISABLE, 0u);
	ASSERT_EQ(dpsctp_path_get_stats(a2, 0, &ps), 0);
	EXPECT_EQ(ps.mtu, 1400u);
	ASSERT_EQ(dpsctp_path_get_stats(a1, 0, &ps), 0);
	EXPECT_EQ(ps.mtu, 1500u) << "the other association keeps the interface MTU";
	pp.pathmtu = 9000;
	EXPECT_EQ(dpsctp_assoc_setopt(a2, DPSCTP_OPT_PEER_ADDR_PARAMS, &pp, sizeof(pp), err,
				      sizeof(err)),
		  -EINVAL);
	EXPECT_NE(std::string(err).find("pathmtu"), std::string::npos) << err;
	pp.flags = DPSCTP_SPP_PMTUD_ENABLE;
	pp.pathmtu = 0;
	ASSERT_EQ(dpsctp_assoc_setopt(a2, DPSCTP_OPT_PEER_ADDR_PARAMS, &pp, sizeof(pp), err,
				      sizeof(err)),
		  0)
		<< err;
	ASSERT_EQ(dpsctp_path_get_stats(a2, 0, &ps), 0);
	EXPECT_EQ(ps.mtu, 1500u);

	ASSERT_EQ(dpsctp_shutdown(a1), 0);
	ASSERT_EQ(dpsctp_shutdown(a2), 0);
	ASSERT_TRUE(until([&] { return one.ended && two.ended; }));
}

// PEER_ADDR_PARAMS naming a path (RFC 6458 §8.1.12 spp_address, RFC 7829
// SCTP_PEER_ADDR_THLDS): HB.interval, Path.Max.Retrans and the PF threshold
// become that path's own; a get with the address reads them, a get without
// reads the association's (the dc profile's); a set for the whole
// association replaces the paths' values of the fields it names; refusals
// name the option and the field, change nothing, and an address that is
// not the peer's is -ENOENT.
TEST_F(DpOpt, PeerAddrParamsPerPath)
{
	start();
	App one;
	dpsctp_assoc *a = connect(one);
	ASSERT_NE(a, nullptr);
	char err[256] = "";
	const struct sctp_addr peer = { 4, { 10, 0, 0, 2 } }, other = { 4, { 10, 0, 0, 9 } };
	auto set = [&](const dpsctp_paddrparams &pp) {
		err[0] = 0;
		return dpsctp_assoc_setopt(a, DPSCTP_OPT_PEER_ADDR_PARAMS, &pp, sizeof(pp), err,
					   sizeof(err));
	};
	auto path_get = [&](const struct sctp_addr &addr) {
		dpsctp_paddrparams want = {};
		want.addr = addr;
		return get<dpsctp_paddrparams>(a, DPSCTP_OPT_PEER_ADDR_PARAMS, want);
	};
	const dpsctp_paddrparams assoc = get<dpsctp_paddrparams>(a, DPSCTP_OPT_PEER_ADDR_PARAMS);
	ASSERT_EQ(assoc.path_max_retrans, 3u) << "the dc profile's";
	ASSERT_EQ(assoc.hb_interval_us, 50000u);
	ASSERT_EQ(assoc.flags & DPSCTP_SPP_PF_ENABLE, DPSCTP_SPP_PF_ENABLE);
	ASSERT_EQ(assoc.pf_threshold, 0u);

	dpsctp_paddrparams pp = {};
	pp.addr = peer;
	pp.hb_interval_us = 200000;
	pp.path_max_retrans = 2;
	pp.flags = DPSCTP_SPP_PF_ENABLE;
	pp.pf_threshold = 1;
	ASSERT_EQ(set(pp), 0) << err;
	dpsctp_paddrparams got = path_get(peer);
	EXPECT_EQ(got.hb_interval_us, 200000u);
	EXPECT_EQ(got.path_max_retrans, 2u);
	EXPECT_EQ(got.pf_threshold, 1u);
	EXPECT_EQ(got.flags & (DPSCTP_SPP_PF_ENABLE | DPSCTP_SPP_PF_DISABLE), DPSCTP_SPP_PF_ENABLE);
	EXPECT_TRUE(sctp_addr_eq(&got.addr, &peer));
	got = get<dpsctp_paddrparams>(a, DPSCTP_OPT_PEER_ADDR_PARAMS);
	EXPECT_EQ(got.hb_interval_us, assoc.hb_interval_us) << "the association's stay";
	EXPECT_EQ(got.path_max_retrans, assoc.path_max_retrans);
	EXPECT_EQ(got.pf_threshold, assoc.pf_threshold);

	// PF off on the path alone.
	pp = {};
	pp.addr = peer;
	pp.flags = DPSCTP_SPP_PF_DISABLE;
	ASSERT_EQ(set(pp), 0) << err;
	got = path_get(peer);
	EXPECT_EQ(got.flags & (DPSCTP_SPP_PF_ENABLE | DPSCTP_SPP_PF_DISABLE),
		  DPSCTP_SPP_PF_DISABLE);
	EXPECT_EQ(got.pf_threshold, 0u);
	EXPECT_EQ(got.path_max_retrans, 2u) << "the other fields stay the path's";
	EXPECT_NE(get<dpsctp_paddrparams>(a, DPSCTP_OPT_PEER_ADDR_PARAMS).flags &
			  DPSCTP_SPP_PF_ENABLE,
		  0u);

	// Refused: the threshold at the path's Path.Max.Retrans, an interval out of range.
	pp.flags = DPSCTP_SPP_PF_ENABLE;
	pp.pf_threshold = 2;
	EXPECT_EQ(set(pp), -EINVAL);
	EXPECT_NE(std::string(err).find("PEER_ADDR_PARAMS"), std::string::npos) << err;
	EXPECT_NE(std::string(err).find("pf_max_retrans >= its path_max_retrans"),
		  std::string::npos)
		<< err;
	pp = {};
	pp.addr = peer;
	pp.hb_interval_us = 999;
	EXPECT_EQ(set(pp), -EINVAL);
	EXPECT_NE(std::string(err).find("PEER_ADDR_PARAMS.hb_interval_us 999: outside 1000 us"),
		  std::string::npos)
		<< err;
	got = path_get(peer);
	EXPECT_EQ(got.hb_interval_us, 200000u) << "nothing changed";
	EXPECT_EQ(got.flags & DPSCTP_SPP_PF_DISABLE, DPSCTP_SPP_PF_DISABLE);

	// Not one of the peer's addresses: set and get.
	pp = {};
	pp.addr = other;
	pp.path_max_retrans = 4;
	EXPECT_EQ(set(pp), -ENOENT);
	EXPECT_NE(std::string(err).find("PEER_ADDR_PARAMS.addr"), std::string::npos) << err;
	dpsctp_paddrparams want = {};
	want.addr = other;
	size_t len = sizeof(want);
	EXPECT_EQ(dpsctp_assoc_getopt(a, DPSCTP_OPT_PEER_ADDR_PARAMS, &want, &len), -ENOENT);

	// The whole association: Path.Max.Retrans 5 on every path; the path keeps
	// its own interval and PF setting, which the set did not name.
	pp = {};
	pp.path_max_retrans = 5;
	ASSERT_EQ(set(pp), 0) << err;
	got = path_get(peer);
	EXPECT_EQ(got.path_max_retrans, 5u);
	EXPECT_EQ(got.hb_interval_us, 200000u);
	EXPECT_EQ(got.flags & DPSCTP_SPP_PF_DISABLE, DPSCTP_SPP_PF_DISABLE);
	pp = {};
	pp.hb_interval_us = 60000;
	pp.flags = DPSCTP_SPP_PF_ENABLE;
	pp.pf_threshold = 1;
	ASSERT_EQ(set(pp), 0) << err;
	got = path_get(peer);
	EXPECT_EQ(got.hb_interval_us, 60000u);
	EXPECT_EQ(got.pf_threshold, 1u);
	EXPECT_EQ(got.flags & DPSCTP_SPP_PF_ENABLE, DPSCTP_SPP_PF_ENABLE);

	ASSERT_EQ(dpsctp_shutdown(a), 0);
	ASSERT_TRUE(until([&] { return one.ended.load(); }));
}

TEST_F(DpOpt, InstanceDefaultsApplyToAssociationsMadeAfterwards)
{
	start("600");
	App one, two;
	dpsctp_assoc *a1 = connect(one);
	ASSERT_NE(a1, nullptr);
	EXPECT_EQ(get<dpsctp_assoc_value>(a1, DPSCTP_OPT_MAXSEG).value, 600u) << "--maxseg";
	char err[256] = "";
	dpsctp_sack_info sack = { 0, 3 };
	ASSERT_EQ(dpsctp_setopt(c_, DPSCTP_OPT_DELAYED_SACK, &sack, sizeof(sack), err, sizeof(err)),
		  0)
		<< err;
	dpsctp_initmsg init = { 8, 8, 0, 0, 0 };
	dpsctp_assoc *a2 = connect(two, &init);
	ASSERT_NE(a2, nullptr);
	EXPECT_EQ(get<dpsctp_sack_info>(a1, DPSCTP_OPT_DELAYED_SACK).freq, 4u) << "kept";
	EXPECT_EQ(get<dpsctp_sack_info>(a2, DPSCTP_OPT_DELAYED_SACK).freq, 3u);
	dpsctp_status s2 = get<dpsctp_status>(a2, DPSCTP_OPT_STATUS);
	EXPECT_EQ(s2.outstrms, 8u) << "the INITMSG of dpsctp_connect_opts()";
	EXPECT_EQ(s2.instrms, 8u);
	EXPECT_EQ(get<dpsctp_status>(a1, DPSCTP_OPT_STATUS).outstrms, 64u);

	// The instance's PRIMARY_ADDR and a read-only option are refused.
	dpsctp_primary_addr pa = {};
	pa.addr = { 4, { 10, 0, 0, 2 } };
	EXPECT_EQ(dpsctp_setopt(c_, DPSCTP_OPT_PRIMARY_ADDR, &pa, sizeof(pa), err, sizeof(err)),
		  -ENOPROTOOPT);
	EXPECT_EQ(
		dpsctp_assoc_setopt(a1, DPSCTP_OPT_PRIMARY_ADDR, &pa, sizeof(pa), err, sizeof(err)),
		0)
		<< err;

	// DEFAULT_SNDINFO serves a send without sndinfo.
	dpsctp_default_sndinfo ds = {};
	ds.sid = 5;
	ds.ppid = 46;
	ASSERT_EQ(dpsctp_assoc_setopt(a2, DPSCTP_OPT_DEFAULT_SNDINFO, &ds, sizeof(ds), err,
				      sizeof(err)),
		  0)
		<< err;
	size_t want = server_.msgs + 1;
	ASSERT_EQ(dpsctp_send_bytes(a2, nullptr, "hello", 5), 0);
	ASSERT_TRUE(until([&] { return server_.msgs >= want; }));
	EXPECT_EQ(server_.last_sid, 5u);
	EXPECT_EQ(server_.last_ppid, 46u);

	// EVENTS: none named; the end still comes.
	dpsctp_events ev = { 0 };
	ASSERT_EQ(dpsctp_assoc_setopt(a2, DPSCTP_OPT_EVENTS, &ev, sizeof(ev), err, sizeof(err)), 0)
		<< err;
	EXPECT_EQ(get<dpsctp_events>(a2, DPSCTP_OPT_EVENTS).mask, 0u);
	// PRIMARY_ADDR on a1 made a MADE_PRIMARY event; a2 masks the same one.
	EXPECT_EQ(
		dpsctp_assoc_setopt(a2, DPSCTP_OPT_PRIMARY_ADDR, &pa, sizeof(pa), err, sizeof(err)),
		0)
		<< err;
	ASSERT_EQ(dpsctp_shutdown(a1), 0);
	ASSERT_EQ(dpsctp_shutdown(a2), 0);
	ASSERT_TRUE(until([&] { return one.ended && two.ended; }));
	EXPECT_GE(one.events, 1u) << "PEER_ADDR_CHANGE (made primary)";
	EXPECT_EQ(two.events, 0u) << "masked";
	EXPECT_EQ(two.ends, 1u) << "the end is always delivered";
}

} // namespace
