/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] PR-SCTP (RFC 3758, RFC 7496) through the embedded runtime: the
// extension negotiated from the configuration (--extensions) both ways,
// dpsctp_assoc_stats.extensions on each side; a peer or an instance
// without it still delivers a message sent with a policy (reliably); the
// policies of dpsctp_sndinfo checked (-EINVAL); RTX 0 over a lossy link
// (--impair) abandons messages end to end: SEND_FAILED with the policy,
// FORWARD TSN each way in the statistics, the rest delivered in order;
// SEND_FAILED of an abort carries pr_policy 0. Two instances over a net_ring pair, polled by the
// test thread.
#include <gtest/gtest.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <cstring>
#include <string>
#include <vector>

#include "dataplane/tests/dp_pair.h"

namespace {

constexpr uint16_t kPort = 7101;

struct App {
	dpsctp_assoc *a = nullptr;
	bool up = false, ended = false;
	std::vector<std::string> got;
	std::vector<uint32_t> ppid;	  // of each message in got
	std::vector<dpsctp_event> failed; // SEND_FAILED events
};

void
on_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	App *p = static_cast<App *>(arg);
	if (ev->type == DPSCTP_EV_COMM_UP) {
		p->a = a;
		p->up = true;
	}
	if (ev->type == DPSCTP_EV_SEND_FAILED)
		p->failed.push_back(*ev);
	if (ev->type == DPSCTP_EV_COMM_LOST || ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE ||
	    ev->type == DPSCTP_EV_CANT_START) {
		p->ended = true;
		p->a = nullptr;
	}
}

void
on_recv(dpsctp_assoc *, const dpsctp_msg *m, void *arg)
{
	std::string s(m->len, '\0');
	dpsctp_msg_copy(m, s.data(), s.size());
	static_cast<App *>(arg)->got.push_back(s);
	static_cast<App *>(arg)->ppid.push_back(m->ppid);
}

const dpsctp_callbacks kCb = { on_recv, on_event, nullptr };

// The extensions of each side: "" keeps the default (pr-sctp); and the
// client's transmit impairment ("" none).
struct Sides {
	const char *client, *server;
	const char *client_impair = "";
};

class DpPrSctp : public DpPair {
      protected:
	void start(Sides ext)
	{
		open_pair("pr", { { "extensions", ext.client }, { "impair", ext.client_impair } },
			  { { "extensions", ext.server } }, [](dpsctp_config &cc, dpsctp_config &) {
				  EXPECT_EQ(cc.extensions & DPSCTP_EXT_PR_SCTP, DPSCTP_EXT_PR_SCTP)
					  << "the default offers PR-SCTP";
			  });
		ASSERT_EQ(dpsctp_listen(s_, kPort, &kCb, &server_), 0);
		ASSERT_NE(connect_to(kPort, &kCb, &client_), nullptr);
		ASSERT_TRUE(until([&] { return client_.up && server_.up; }))
			<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
	}
	// A graceful close: every message delivered or abandoned, every mbuf back.
	void finish()
	{
		close_pair(client_, server_);
	}
	uint32_t extensions(dpsctp_assoc *a)
	{
		dpsctp_assoc_stats st;
		EXPECT_EQ(dpsctp_assoc_get_stats(a, &st), 0);
		return st.extensions;
	}
	// One message of each policy from @from, then every one arrived at @to, in order.
	void send_each_policy(App &from, App &to, dpsctp *from_d)
	{
		const struct {
			uint32_t policy, value;
		} sends[] = {
			{ DPSCTP_PR_NONE, 0 },	 { DPSCTP_PR_TTL, 60000 }, { DPSCTP_PR_RTX, 0 },
			{ DPSCTP_PR_RTX, 5 },	 { DPSCTP_PR_PRIO, 0 },	   { DPSCTP_PR_PRIO, 7 },
			{ DPSCTP_PR_NONE, 123 }, // the value of NONE is ignored
		};
		// A lossless link abandons nothing, but with the profile's RTO of a
		// millisecond a polling thread descheduled that long (a loaded
		// machine) lets T3-rtx expire and abandon the RTX 0 message: a
		// second's RTO keeps the question to the link.
		dpsctp_rtoinfo rto{};
		rto.initial_us = 1000000;
		rto.min_us = 1000000;
		rto.max_us = 2000000;
		char err[200];
		ASSERT_EQ(dpsctp_assoc_setopt(from.a, DPSCTP_OPT_RTOINFO, &rto, sizeof(rto), err,
					      sizeof(err)),
			  0)
			<< err;
		std::vector<std::string> want;
		size_t before = to.got.size();
		for (const auto &x : sends) {
			std::string m = "policy " + std::to_string(x.policy) + " value " +
					std::to_string(x.value);
			dpsctp_sndinfo si{};
			si.sid = 1;
			si.pr_policy = x.policy;
			si.pr_value = x.value;
			ASSERT_EQ(dpsctp_send_bytes(from.a, &si, m.data(), m.size()), 0) << m;
			want.push_back(m);
		}
		// An mbuf send with a policy, too (dpsctp_send()).
		std::string big(3000, 'x');
		rte_mbuf *mb = rte_pktmbuf_alloc(dpsctp_pktmbuf_pool(from_d));
		ASSERT_NE(mb, nullptr);
		memcpy(rte_pktmbuf_append(mb, 1000), big.data(), 1000);
		dpsctp_sndinfo si{};
		si.sid = 1;
		si.pr_policy = DPSCTP_PR_RTX;
		si.pr_value = 2;
		ASSERT_EQ(dpsctp_send(from.a, &si, mb), 0);
		want.push_back(big.substr(0, 1000));
		ASSERT_TRUE(until([&] { return to.got.size() == before + want.size(); }))
			<< to.got.size() - before << " of " << want.size() << " arrived; "
			<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
		for (size_t i = 0; i < want.size(); i++)
			EXPECT_EQ(to.got[before + i], want[i]) << i;
		dpsctp_assoc_stats st;
		ASSERT_EQ(dpsctp_assoc_get_stats(from.a, &st), 0);
		EXPECT_EQ(st.abandoned_msgs, 0u) << "a lossless link abandons nothing";
		EXPECT_EQ(st.abandoned_bytes, 0u);
		EXPECT_EQ(st.fwd_tsn_out, 0u);
		ASSERT_EQ(dpsctp_assoc_get_stats(to.a, &st), 0);
		EXPECT_EQ(st.fwd_tsn_in, 0u);
		EXPECT_TRUE(from.failed.empty());
	}

	App client_, server_;
};

TEST_F(DpPrSctp, NegotiatedWhenBothOffer)
{
	start({ "", "pr-sctp" });
	EXPECT_EQ(extensions(client_.a), DPSCTP_EXT_PR_SCTP);
	EXPECT_EQ(extensions(server_.a), DPSCTP_EXT_PR_SCTP);
	send_each_policy(client_, server_, c_);
	send_each_policy(server_, client_, s_);
	finish();
}

// The side without PR-SCTP (no PR slots, nothing offered) and the side with
// it (its peer refused) both send with policies: delivered, reliably.
TEST_F(DpPrSctp, ServerWithoutIt)
{
	start({ "", "none" });
	EXPECT_EQ(extensions(client_.a), 0u);
	EXPECT_EQ(extensions(server_.a), 0u);
	send_each_policy(client_, server_, c_);
	send_each_policy(server_, client_, s_);
	finish();
}

TEST_F(DpPrSctp, ClientWithoutIt)
{
	start({ "none", "" });
	EXPECT_EQ(extensions(client_.a), 0u);
	EXPECT_EQ(extensions(server_.a), 0u);
	send_each_policy(client_, server_, c_);
	send_each_policy(server_, client_, s_);
	finish();
}

TEST_F(DpPrSctp, BadPolicyIsRefused)
{
	start({ "", "" });
	dpsctp_sndinfo si{};
	const char msg[] = "never sent";
	si.pr_policy = DPSCTP_PR_PRIO + 1;
	EXPECT_EQ(dpsctp_send_bytes(client_.a, &si, msg, sizeof(msg)), -EINVAL);
	si.pr_policy = UINT32_MAX;
	EXPECT_EQ(dpsctp_send_bytes(client_.a, &si, msg, sizeof(msg)), -EINVAL);
	si.pr_policy = DPSCTP_PR_TTL; // a lifetime of 0 ms
	si.pr_value = 0;
	EXPECT_EQ(dpsctp_send_bytes(client_.a, &si, msg, sizeof(msg)), -EINVAL);
	// dpsctp_send(): refused, and the mbuf stays the caller's.
	rte_mbuf *m = rte_pktmbuf_alloc(dpsctp_pktmbuf_pool(c_));
	ASSERT_NE(m, nullptr);
	memcpy(rte_pktmbuf_append(m, sizeof(msg)), msg, sizeof(msg));
	si.pr_policy = 4;
	EXPECT_EQ(dpsctp_send(client_.a, &si, m), -EINVAL);
	EXPECT_EQ(rte_mbuf_refcnt_read(m), 1);
	rte_pktmbuf_free(m);
	for (int i = 0; i < 1000; i++)
		poll();
	EXPECT_TRUE(server_.got.empty());
	dpsctp_assoc_stats st;
	ASSERT_EQ(dpsctp_assoc_get_stats(client_.a, &st), 0);
	EXPECT_EQ(st.msgs_sent, 0u);
	// The same sndinfo with a good policy goes.
	si.pr_policy = DPSCTP_PR_TTL;
	si.pr_value = 1000;
	EXPECT_EQ(dpsctp_send_bytes(client_.a, &si, msg, sizeof(msg)), 0);
	ASSERT_TRUE(until([&] { return server_.got.size() == 1; }));
	finish();
}

// RTX 0 over a link that loses a tenth of the client's packets: every
// message is delivered once, in order, or abandoned: the sender hears of
// each abandoned one (SEND_FAILED, policy RTX, its PPID), the receiver
// skips them (FORWARD TSN), and the counters of both sides agree. A message
// may be both: RFC 3758 lets the sender give up on one that arrived after
// all, when its SACK is late (a T3-rtx expiry, with the DC profile's RTO of
// a millisecond or less, whenever the polling thread is descheduled) or
// lost. So the test waits for every message to be accounted for, by its
// PPID, not for the two counts to add up to the messages sent.
TEST_F(DpPrSctp, RtxZeroOverALossyLinkAbandons)
{
	start({ "", "", "loss=10%,seed=5" });
	constexpr unsigned kMsgs = 300;
	unsigned sent = 0;
	char buf[100];
	std::vector<bool> accounted(kMsgs, false);
	unsigned n_accounted = 0;
	size_t seen_got = 0, seen_failed = 0;
	auto account = [&](uint32_t k) {
		if (k < kMsgs && !accounted[k]) {
			accounted[k] = true;
			n_accounted++;
		}
	};
	auto settled = [&] {
		for (; seen_got < server_.got.size(); seen_got++)
			account((uint32_t)strtoul(server_.got[seen_got].c_str(), nullptr, 10));
		for (; seen_failed < client_.failed.size(); seen_failed++)
			account(client_.failed[seen_failed].ppid);
		return sent == kMsgs && n_accounted == kMsgs;
	};
	// Bounded by progress, not by speed: while anything is outstanding the
	// association changes one of these at least once per RTO.Max (200 ms in
	// the DC profile: T3-rtx), so 20 million polls in a row without a change
	// (far more than 200 ms however fast a poll) mean a stall.
	auto progress = [&] {
		dpsctp_assoc_stats c{}, s{};
		if (client_.a != nullptr)
			dpsctp_assoc_get_stats(client_.a, &c);
		if (server_.a != nullptr)
			dpsctp_assoc_get_stats(server_.a, &s);
		return sent + n_accounted + c.data_chunks_out + c.data_chunks_rtx + c.sacks_in +
		       c.t3_expiries + c.fwd_tsn_out + s.data_chunks_in + s.sacks_out;
	};
	uint64_t last = progress(), still = 0;
	while (!settled() && !client_.ended && !server_.ended && still < 20000000) {
		if (sent < kMsgs) {
			dpsctp_sndinfo si{};
			si.sid = 1;
			si.ppid = sent;		     // names the message in its SEND_FAILED
			si.context = 0x5000u + sent; // comes back with it too
			si.pr_policy = DPSCTP_PR_RTX;
			si.pr_value = 0;
			memset(buf, 0, sizeof(buf));
			snprintf(buf, sizeof(buf), "%u", sent);
			int rc = dpsctp_send_bytes(client_.a, &si, buf, sizeof(buf));
			ASSERT_TRUE(rc == 0 || rc == -EAGAIN) << rc;
			sent += rc == 0;
		}
		poll();
		uint64_t now = progress();
		still = now == last ? still + 1 : 0;
		last = now;
	}
	ASSERT_FALSE(client_.ended || server_.ended) << "the association ended";
	ASSERT_TRUE(settled()) << n_accounted << " of " << sent << " accounted for ("
			       << server_.got.size() << " delivered, " << client_.failed.size()
			       << " abandoned); " << dp_test_counters(c_) << " / "
			       << dp_test_counters(s_);
	dpsctp_assoc_stats cs, ss;
	ASSERT_EQ(dpsctp_assoc_get_stats(client_.a, &cs), 0);
	ASSERT_EQ(dpsctp_assoc_get_stats(server_.a, &ss), 0);
	EXPECT_EQ(cs.send_queued, 0u);
	EXPECT_GT(cs.abandoned_msgs, 0u) << "a tenth of the packets lost, none abandoned";
	EXPECT_EQ(cs.abandoned_bytes, cs.abandoned_msgs * sizeof(buf));
	EXPECT_GT(cs.fwd_tsn_out, 0u);
	EXPECT_GT(ss.fwd_tsn_in, 0u);
	EXPECT_EQ(client_.failed.size(), cs.abandoned_msgs);
	std::vector<bool> failed(kMsgs, false);
	for (const dpsctp_event &ev : client_.failed) {
		EXPECT_EQ(ev.pr_policy, DPSCTP_PR_RTX);
		EXPECT_EQ(ev.sid, 1);
		EXPECT_EQ(ev.length, sizeof(buf));
		ASSERT_LT(ev.ppid, kMsgs);
		EXPECT_EQ(ev.context, 0x5000u + ev.ppid) << "the message's own context";
		EXPECT_FALSE(failed[ev.ppid]) << "message " << ev.ppid << " abandoned twice";
		failed[ev.ppid] = true;
	}
	// Delivered in order, each once, with its own PPID.
	ASSERT_EQ(server_.got.size(), server_.ppid.size());
	long prev = -1;
	for (size_t i = 0; i < server_.got.size(); i++) {
		long k = strtol(server_.got[i].c_str(), nullptr, 10);
		EXPECT_GT(k, prev) << "out of order or twice";
		EXPECT_EQ(server_.ppid[i], (uint32_t)k);
		prev = k;
	}
	finish();
}

// Messages with a policy still queued when the application aborts fail with
// SEND_FAILED and pr_policy 0: the association closed, no policy abandoned them.
TEST_F(DpPrSctp, SendFailedOfAnAbortHasNoPolicy)
{
	start({ "", "" });
	dpsctp_sndinfo si{};
	si.flags = DPSCTP_SEND_MORE; // queued, not sent
	si.pr_policy = DPSCTP_PR_RTX;
	si.pr_value = 3;
	const char msg[] = "queued";
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(dpsctp_send_bytes(client_.a, &si, msg, sizeof(msg)), 0);
	ASSERT_EQ(dpsctp_abort(client_.a), 0);
	ASSERT_TRUE(until([&] { return client_.ended && server_.ended; }));
	ASSERT_EQ(client_.failed.size(), 3u);
	for (const dpsctp_event &ev : client_.failed) {
		EXPECT_EQ(ev.pr_policy, 0u);
		EXPECT_EQ(ev.length, sizeof(msg));
	}
}

// RFC 6458 snd_context: each message's SEND_FAILED carries the context it
// was sent with, whether the abort found it sent and unacknowledged (the
// retransmission queue's) or still queued (the send queue's), with and
// without a policy.
TEST_F(DpPrSctp, SendFailedCarriesEachMessagesContext)
{
	start({ "", "" });
	const char msg[] = "ctx";
	dpsctp_sndinfo si{};
	si.context = 0xc0de0001u; // sent at once, reliable
	ASSERT_EQ(dpsctp_send_bytes(client_.a, &si, msg, sizeof(msg)), 0);
	si.context = 0xc0de0002u; // sent at once, with a policy
	si.pr_policy = DPSCTP_PR_RTX;
	si.pr_value = 3;
	ASSERT_EQ(dpsctp_send_bytes(client_.a, &si, msg, sizeof(msg)), 0);
	si.flags = DPSCTP_SEND_MORE; // these two wait in the send queue
	si.context = 0xc0de0003u;
	ASSERT_EQ(dpsctp_send_bytes(client_.a, &si, msg, sizeof(msg)), 0);
	si.pr_policy = DPSCTP_PR_NONE;
	si.pr_value = 0;
	si.context = 0xc0de0004u;
	ASSERT_EQ(dpsctp_send_bytes(client_.a, &si, msg, sizeof(msg)), 0);
	ASSERT_EQ(dpsctp_abort(client_.a), 0); // before the peer's SACK can arrive
	ASSERT_TRUE(until([&] { return client_.ended && server_.ended; }));
	ASSERT_EQ(client_.failed.size(), 4u);
	for (uint32_t i = 0; i < 4; i++) {
		EXPECT_EQ(client_.failed[i].context, 0xc0de0001u + i) << i;
		EXPECT_EQ(client_.failed[i].sent != 0, i < 2) << i;
	}
}

} // namespace
