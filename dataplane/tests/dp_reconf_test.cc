/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] Stream reconfiguration (RFC 6525) through the embedded runtime, two
// instances over a net_ring pair polled by the test thread: RE-CONFIG
// negotiated by default; an outgoing and an incoming stream reset while
// messages flow on the reset streams and the others (every message
// delivered once and in order per stream, the events on both sides with
// their stream lists, the SSN of the next message on a reset stream 0
// again); streams added both ways below --max-streams (--out-streams asks
// for fewer) and messages on the new streams delivered, more than
// --max-streams refused and counted; an association reset (both sides'
// TSNs in the events, SSNs from 0); the refusals (-EINPROGRESS, -EAGAIN,
// -EINVAL, -EOPNOTSUPP with a peer that does not offer it); the calls from
// a thread that does not own the association (the request ring).
#include <gtest/gtest.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <atomic>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "dataplane/tests/dp_pair.h"

namespace {

constexpr uint16_t kPort = 7106;
constexpr uint32_t kAll = DPSCTP_EXT_PR_SCTP | DPSCTP_EXT_I_DATA | DPSCTP_EXT_RECONFIG;

// A message: its stream and number in the first 6 bytes, then filler.
std::string
make_msg(uint16_t sid, uint32_t seq, uint32_t len = 200)
{
	std::string s(len, (char)(seq * 7u + sid));
	uint8_t h[6] = { (uint8_t)(sid >> 8),  (uint8_t)sid,	    (uint8_t)(seq >> 24),
			 (uint8_t)(seq >> 16), (uint8_t)(seq >> 8), (uint8_t)seq };
	memcpy(s.data(), h, sizeof(h));
	return s;
}

struct Got {
	uint16_t sid;
	uint32_t seq; // the number make_msg() wrote
	uint16_t ssn;
	bool bad; // the stream in the bytes is not the one it came on
};

struct Ev {
	int type;
	uint32_t flags;
	std::vector<uint16_t> streams;
	uint16_t out, in;
	uint32_t local_tsn, remote_tsn;
};

struct App {
	dpsctp_assoc *a = nullptr;
	std::atomic<bool> up{ false }, ended{ false };
	uint16_t out_streams = 0, in_streams = 0; // COMM_UP
	std::map<uint16_t, std::vector<Got>> got; // whole messages by stream
	size_t whole = 0;
	std::vector<Ev> reconf;
	std::atomic<size_t> n_reconf{ 0 };
};

void
on_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	App *p = static_cast<App *>(arg);
	switch (ev->type) {
	case DPSCTP_EV_COMM_UP:
		p->a = a;
		p->out_streams = ev->outbound_streams;
		p->in_streams = ev->inbound_streams;
		p->up = true;
		break;
	case DPSCTP_EV_STREAM_RESET:
	case DPSCTP_EV_ASSOC_RESET:
	case DPSCTP_EV_STREAM_CHANGE:
		p->reconf.push_back(
			{ ev->type, ev->reset_flags,
			  ev->type == DPSCTP_EV_STREAM_RESET
				  ? std::vector<uint16_t>(ev->streams, ev->streams + ev->n_streams)
				  : std::vector<uint16_t>(),
			  ev->outbound_streams, ev->inbound_streams, ev->local_tsn,
			  ev->remote_tsn });
		p->n_reconf++;
		break;
	case DPSCTP_EV_COMM_LOST:
	case DPSCTP_EV_SHUTDOWN_COMPLETE:
	case DPSCTP_EV_CANT_START:
		p->a = nullptr;
		p->ended = true;
		break;
	default:
		break;
	}
}

void
on_recv(dpsctp_assoc *, const dpsctp_msg *m, void *arg)
{
	App *p = static_cast<App *>(arg);
	std::string s(m->len, '\0');
	dpsctp_msg_copy(m, s.data(), s.size());
	if (s.size() < 6 || (m->flags & (DPSCTP_MSG_MORE | DPSCTP_MSG_CONT)))
		ADD_FAILURE() << "a message of " << s.size() << " B in parts";
	const uint8_t *b = (const uint8_t *)s.data();
	uint16_t sid = (uint16_t)(b[0] << 8 | b[1]);
	uint32_t seq = (uint32_t)b[2] << 24 | (uint32_t)b[3] << 16 | (uint32_t)b[4] << 8 | b[5];
	p->got[m->sid].push_back({ m->sid, seq, m->ssn, sid != m->sid });
	p->whole++;
}

const dpsctp_callbacks kCb = { on_recv, on_event, nullptr };

// One side's options ("": the default).
struct Side {
	const char *ext = "";
	const char *out_streams = "";
	const char *max_streams = "";
};

class DpReconf : public DpPair {
      protected:
	void start(Side client, Side server)
	{
		auto opts = [](const Side &x) -> Opts {
			return { { "extensions", x.ext },
				 { "out-streams", x.out_streams },
				 { "max-streams", x.max_streams } };
		};
		open_pair("rc", opts(client), opts(server), [](dpsctp_config &cc, dpsctp_config &) {
			EXPECT_EQ(cc.extensions, kAll) << "RE-CONFIG offered by default";
		});
		ASSERT_EQ(dpsctp_listen(s_, kPort, &kCb, &server_), 0);
		ASSERT_NE(connect_to(kPort, &kCb, &client_), nullptr);
		ASSERT_TRUE(until([&] { return client_.up && server_.up; }))
			<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
	}
	void finish()
	{
		close_pair(client_, server_);
	}
	// The next message of stream sid from one side, retried (polling both
	// ends) while refused for room or for the stream's reset in progress.
	void send(App &from, uint16_t sid, uint32_t flags = 0)
	{
		uint32_t seq = next_[&from][sid]++;
		std::string m = make_msg(sid, seq);
		dpsctp_sndinfo si{};
		si.sid = sid;
		si.flags = flags;
		int rc = -EAGAIN;
		for (uint64_t i = 0; i < 5000000 && rc == -EAGAIN; i++) {
			rc = dpsctp_send_bytes(from.a, &si, m.data(), m.size());
			if (rc == -EAGAIN)
				poll();
		}
		ASSERT_EQ(rc, 0) << "stream " << sid;
	}
	size_t sent(App &from)
	{
		size_t n = 0;
		for (const auto &x : next_[&from])
			n += x.second;
		return n;
	}
	// Every message from -> to arrived once, in the order sent on its stream.
	void all_in_order(App &from, App &to)
	{
		ASSERT_TRUE(until([&] { return to.whole == sent(from); }))
			<< to.whole << " of " << sent(from) << "; " << dp_test_counters(c_) << " / "
			<< dp_test_counters(s_);
		for (const auto &x : next_[&from]) {
			const std::vector<Got> &g = to.got[x.first];
			ASSERT_EQ(g.size(), x.second) << "stream " << x.first;
			for (uint32_t k = 0; k < g.size(); k++) {
				EXPECT_EQ(g[k].seq, k) << "stream " << x.first;
				EXPECT_FALSE(g[k].bad) << "stream " << x.first;
			}
		}
	}
	// The SSNs stream sid's messages arrived with.
	std::vector<uint16_t> ssns(App &to, uint16_t sid)
	{
		std::vector<uint16_t> v;
		for (const Got &g : to.got[sid])
			v.push_back(g.ssn);
		return v;
	}
	static std::vector<uint16_t> count(uint16_t from, uint16_t n)
	{
		std::vector<uint16_t> v;
		for (uint16_t i = 0; i < n; i++)
			v.push_back((uint16_t)(from + i));
		return v;
	}
	static std::vector<uint16_t> cat(std::vector<uint16_t> a, const std::vector<uint16_t> &b)
	{
		a.insert(a.end(), b.begin(), b.end());
		return a;
	}

	App client_, server_;
	std::map<App *, std::map<uint16_t, uint32_t>> next_; // messages sent, by side and stream
};

// Our outgoing streams 1 and 2 reset while every stream carries messages
// both ways: the streams being reset refuse a message until the answer,
// the others go on; the peer's next message on them is SSN 0.
TEST_F(DpReconf, OutgoingResetWhileMessagesFlow)
{
	start({}, {});
	EXPECT_EQ(stats(client_.a).extensions, kAll);
	EXPECT_EQ(stats(server_.a).extensions, kAll);
	for (uint32_t k = 0; k < 30; k++)
		for (uint16_t sid = 0; sid < 4; sid++) {
			send(client_, sid);
			send(server_, sid);
		}
	// Nothing of the streams left in the send queue (in flight is allowed).
	ASSERT_TRUE(until([&] { return stats(client_.a).send_queued == 0; }));
	const uint16_t sids[] = { 1, 2 };
	ASSERT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_OUTGOING, sids, 2), 0);
	EXPECT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_OUTGOING, sids, 1), -EINPROGRESS);
	EXPECT_EQ(dpsctp_add_streams(client_.a, 1, 0), -EINPROGRESS);
	EXPECT_EQ(dpsctp_reset_assoc(client_.a), -EINPROGRESS);
	dpsctp_sndinfo si{};
	si.sid = 1;
	EXPECT_EQ(dpsctp_send_bytes(client_.a, &si, "x", 1), -EAGAIN)
		<< "a stream being reset takes no message until the answer";
	// The other streams go on meanwhile, both ways.
	for (uint32_t k = 0; k < 10; k++) {
		send(client_, 0);
		send(client_, 3);
		send(server_, 1);
	}
	ASSERT_TRUE(until([&] { return client_.n_reconf == 1 && server_.n_reconf == 1; }))
		<< client_.n_reconf << " / " << server_.n_reconf;
	EXPECT_EQ(client_.reconf[0].type, DPSCTP_EV_STREAM_RESET);
	EXPECT_EQ(client_.reconf[0].flags, DPSCTP_RESET_OUTGOING_SSN);
	EXPECT_EQ(client_.reconf[0].streams, (std::vector<uint16_t>{ 1, 2 }));
	EXPECT_EQ(server_.reconf[0].type, DPSCTP_EV_STREAM_RESET);
	EXPECT_EQ(server_.reconf[0].flags, DPSCTP_RESET_INCOMING_SSN);
	EXPECT_EQ(server_.reconf[0].streams, (std::vector<uint16_t>{ 1, 2 }));
	for (uint32_t k = 0; k < 20; k++)
		for (uint16_t sid = 0; sid < 4; sid++)
			send(client_, sid);
	all_in_order(client_, server_);
	all_in_order(server_, client_);
	EXPECT_EQ(ssns(server_, 1), cat(count(0, 30), count(0, 20))) << "numbered from 0 again";
	EXPECT_EQ(ssns(server_, 2), cat(count(0, 30), count(0, 20)));
	EXPECT_EQ(ssns(server_, 0), count(0, 60)) << "a stream not reset keeps its numbers";
	EXPECT_EQ(ssns(client_, 1), count(0, 40)) << "the peer's own outgoing streams too";
	EXPECT_EQ(stats(client_.a).reconf_requests, 1u);
	EXPECT_EQ(stats(server_.a).reconf_peer_requests, 1u);
	EXPECT_EQ(stats(server_.a).reconf_denied, 0u);
	finish();
}

// We ask the peer to reset its outgoing stream 2 while it sends on it: it
// resets it once what it queued there has gone (answering "in progress"
// meanwhile), and our next message from it on stream 2 is SSN 0.
TEST_F(DpReconf, IncomingResetWhileMessagesFlow)
{
	start({}, {});
	for (uint32_t k = 0; k < 40; k++)
		for (uint16_t sid = 1; sid < 4; sid++)
			send(server_, sid);
	const uint16_t sid = 2;
	ASSERT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_INCOMING, &sid, 1), 0);
	for (uint32_t k = 0; k < 20; k++) // the stream may wait for the reset: send() retries
		for (uint16_t s = 1; s < 4; s++)
			send(server_, s);
	ASSERT_TRUE(until([&] { return client_.n_reconf >= 1 && server_.n_reconf >= 1; }))
		<< client_.n_reconf << " / " << server_.n_reconf;
	EXPECT_EQ(client_.reconf[0].type, DPSCTP_EV_STREAM_RESET);
	EXPECT_EQ(client_.reconf[0].flags, DPSCTP_RESET_INCOMING_SSN);
	EXPECT_EQ(client_.reconf[0].streams, std::vector<uint16_t>{ 2 });
	EXPECT_EQ(server_.reconf[0].type, DPSCTP_EV_STREAM_RESET);
	EXPECT_EQ(server_.reconf[0].flags, DPSCTP_RESET_OUTGOING_SSN);
	EXPECT_EQ(server_.reconf[0].streams, std::vector<uint16_t>{ 2 });
	for (uint32_t k = 0; k < 5; k++)
		send(server_, sid);
	all_in_order(server_, client_);
	// Where the reset fell among the 60 is the senders' timing; the numbers
	// restart once, at 0, and count up on both sides of it.
	std::vector<uint16_t> got = ssns(client_, sid);
	ASSERT_EQ(got.size(), 65u);
	size_t at = 1;
	while (at < got.size() && got[at] != 0)
		at++;
	ASSERT_LT(at, got.size()) << "no SSN 0 after the first message";
	EXPECT_GE(at, 40u) << "the 40 queued before the request went first";
	EXPECT_EQ(got, cat(count(0, (uint16_t)at), count(0, (uint16_t)(got.size() - at))));
	EXPECT_EQ(ssns(client_, 1), count(0, 60));
	finish();
}

// --out-streams 4 on both sides, --max-streams 8 on the client and 16 on
// the server: 4 streams each way at COMM_UP, streams added each way,
// messages on the new streams delivered both ways. Past --max-streams our
// own call is refused (-EINVAL), and the peer's request is answered
// "Denied" (counted); nothing changes, and no data block was asked beyond
// its size.
TEST_F(DpReconf, AddStreams)
{
	start({ "", "4", "8" }, { "", "4", "16" });
	EXPECT_EQ(client_.out_streams, 4u);
	EXPECT_EQ(client_.in_streams, 4u);
	dpsctp_sndinfo si{};
	si.sid = 5;
	EXPECT_EQ(dpsctp_send_bytes(client_.a, &si, "x", 1), -EINVAL) << "no stream 5 yet";
	ASSERT_EQ(dpsctp_add_streams(client_.a, 2, 3), 0);
	ASSERT_TRUE(until([&] {
		return !client_.reconf.empty() && client_.reconf.back().out == 6 &&
		       client_.reconf.back().in == 7;
	})) << client_.n_reconf;
	for (const Ev &e : client_.reconf) {
		EXPECT_EQ(e.type, DPSCTP_EV_STREAM_CHANGE);
		EXPECT_EQ(e.flags & (DPSCTP_RESET_DENIED | DPSCTP_RESET_FAILED), 0u);
	}
	ASSERT_TRUE(until([&] {
		return !server_.reconf.empty() && server_.reconf.back().out == 7 &&
		       server_.reconf.back().in == 6;
	})) << server_.n_reconf;
	for (uint32_t k = 0; k < 10; k++) {
		send(client_, 5);
		send(client_, 0);
		send(server_, 6);
	}
	all_in_order(client_, server_);
	all_in_order(server_, client_);
	EXPECT_EQ(ssns(server_, 5), count(0, 10));
	EXPECT_EQ(ssns(client_, 6), count(0, 10));

	// Past the client's --max-streams 8: its own call refused at once.
	EXPECT_EQ(dpsctp_add_streams(client_.a, 3, 0), -EINVAL) << "6 + 3 outbound";
	EXPECT_EQ(dpsctp_add_streams(client_.a, 0, 2), -EINVAL) << "7 + 2 inbound";
	// The server may have 16, but the client takes no more than 8 in: denied.
	size_t n = server_.reconf.size();
	ASSERT_EQ(dpsctp_add_streams(server_.a, 2, 0), 0);
	ASSERT_TRUE(until([&] { return server_.reconf.size() > n; }));
	EXPECT_EQ(server_.reconf.back().type, DPSCTP_EV_STREAM_CHANGE);
	EXPECT_EQ(server_.reconf.back().flags & DPSCTP_RESET_DENIED, DPSCTP_RESET_DENIED)
		<< server_.reconf.back().flags;
	EXPECT_EQ(server_.reconf.back().out, 7u) << "unchanged";
	EXPECT_EQ(stats(client_.a).reconf_denied, 1u);
	EXPECT_EQ(counter(c_, "data_heap_refused") + counter(s_, "data_heap_refused"), 0u);
	EXPECT_EQ(counter(c_, "data_block_empty") + counter(s_, "data_block_empty"), 0u);
	send(client_, 5);
	all_in_order(client_, server_);
	finish();
}

// The association's SSNs and TSNs reset: refused while anything of ours is
// queued or unacknowledged, then both sides' events carry the new TSNs (our
// next is the peer's next of us), and every stream starts at SSN 0.
TEST_F(DpReconf, AssocReset)
{
	start({}, {});
	for (uint32_t k = 0; k < 20; k++) {
		send(client_, 1);
		send(server_, 1);
	}
	EXPECT_EQ(dpsctp_reset_assoc(client_.a), -EAGAIN) << "sent, not yet acknowledged";
	all_in_order(client_, server_);
	all_in_order(server_, client_);
	int rc = -EAGAIN;
	for (int i = 0; i < 2000000 && rc == -EAGAIN; i++) {
		rc = dpsctp_reset_assoc(client_.a);
		if (rc == -EAGAIN)
			poll();
	}
	ASSERT_EQ(rc, 0);
	ASSERT_TRUE(until([&] { return client_.n_reconf == 1 && server_.n_reconf == 1; }))
		<< client_.n_reconf << " / " << server_.n_reconf;
	const Ev &c = client_.reconf[0], &s = server_.reconf[0];
	EXPECT_EQ(c.type, DPSCTP_EV_ASSOC_RESET);
	EXPECT_EQ(s.type, DPSCTP_EV_ASSOC_RESET);
	EXPECT_EQ(c.flags, 0u);
	EXPECT_EQ(s.flags, 0u);
	EXPECT_EQ(c.local_tsn, s.remote_tsn) << "our next TSN is what the peer expects of us";
	EXPECT_EQ(c.remote_tsn, s.local_tsn);
	for (uint32_t k = 0; k < 5; k++) {
		send(client_, 1);
		send(server_, 1);
	}
	all_in_order(client_, server_);
	all_in_order(server_, client_);
	EXPECT_EQ(ssns(server_, 1), cat(count(0, 20), count(0, 5)));
	EXPECT_EQ(ssns(client_, 1), cat(count(0, 20), count(0, 5)));
	finish();
}

// What is refused, and why.
TEST_F(DpReconf, Refusals)
{
	start({}, {});
	uint16_t sid = 3;
	// A message held in the send queue (DPSCTP_SEND_MORE) on a stream to reset.
	dpsctp_sndinfo si{};
	si.sid = sid;
	si.flags = DPSCTP_SEND_MORE;
	const std::string held = make_msg(sid, 0);
	ASSERT_EQ(dpsctp_send_bytes(client_.a, &si, held.data(), held.size()), 0);
	EXPECT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_OUTGOING, &sid, 1), -EAGAIN);
	EXPECT_EQ(dpsctp_reset_assoc(client_.a), -EAGAIN);
	ASSERT_EQ(dpsctp_flush(client_.a), 0);
	ASSERT_TRUE(until([&] { return server_.whole == 1; }));
	// Bad arguments, on the calling thread.
	std::vector<uint16_t> many(33, 0);
	EXPECT_EQ(dpsctp_reset_streams(client_.a, 0, &sid, 1), -EINVAL) << "no direction";
	EXPECT_EQ(dpsctp_reset_streams(client_.a, 0x04, &sid, 1), -EINVAL) << "unknown flag";
	EXPECT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_OUTGOING, many.data(), 33), -EINVAL)
		<< "more than SCTP_RECONF_MAX_STREAMS";
	EXPECT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_OUTGOING, nullptr, 1), -EINVAL);
	uint16_t far = client_.out_streams;
	EXPECT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_OUTGOING, &far, 1), -EINVAL);
	EXPECT_EQ(dpsctp_add_streams(client_.a, 0, 0), -EINVAL);
	EXPECT_EQ(dpsctp_reset_streams(nullptr, DPSCTP_RESET_OUTGOING, &sid, 1), -EINVAL);
	EXPECT_EQ(dpsctp_add_streams(nullptr, 1, 0), -EINVAL);
	EXPECT_EQ(dpsctp_reset_assoc(nullptr), -EINVAL);
	// One request at a time (RFC 6525 §5.1.1), whichever kind.
	ASSERT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_INCOMING, nullptr, 0), 0);
	EXPECT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_OUTGOING, &sid, 1), -EINPROGRESS);
	EXPECT_EQ(dpsctp_add_streams(client_.a, 1, 1), -EINPROGRESS);
	EXPECT_EQ(dpsctp_reset_assoc(client_.a), -EINPROGRESS);
	ASSERT_TRUE(until([&] { return client_.n_reconf == 1 && server_.n_reconf == 1; }));
	EXPECT_EQ(client_.reconf[0].flags, DPSCTP_RESET_INCOMING_SSN);
	EXPECT_TRUE(client_.reconf[0].streams.empty()) << "n 0: every stream";
	EXPECT_EQ(server_.reconf[0].flags, DPSCTP_RESET_OUTGOING_SSN);
	// Closing: nothing more to reset.
	ASSERT_EQ(dpsctp_shutdown(client_.a), 0);
	EXPECT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_OUTGOING, &sid, 1), -ENOTCONN);
	ASSERT_TRUE(until([&] { return client_.ended && server_.ended; }));
}

// A peer that does not offer RE-CONFIG (--extensions pr-sctp): not
// negotiated, every call -EOPNOTSUPP on both sides, messages unaffected.
TEST_F(DpReconf, NotNegotiatedWithAPeerWithoutIt)
{
	start({}, { "pr-sctp", "", "" });
	EXPECT_EQ(stats(client_.a).extensions, (uint32_t)DPSCTP_EXT_PR_SCTP);
	EXPECT_EQ(stats(server_.a).extensions, (uint32_t)DPSCTP_EXT_PR_SCTP);
	uint16_t sid = 0;
	for (App *p : { &client_, &server_ }) {
		EXPECT_EQ(dpsctp_reset_streams(p->a, DPSCTP_RESET_OUTGOING, &sid, 1), -EOPNOTSUPP);
		EXPECT_EQ(dpsctp_add_streams(p->a, 1, 0), -EOPNOTSUPP);
		EXPECT_EQ(dpsctp_reset_assoc(p->a), -EOPNOTSUPP);
	}
	for (uint32_t k = 0; k < 10; k++)
		send(client_, 0);
	all_in_order(client_, server_);
	EXPECT_EQ(stats(client_.a).reconf_requests, 0u);
	finish();
}

// From a thread that does not own the association (the client started on
// its own lcore, this thread polling the server): each call is a request
// on the worker's ring with its stream list, its arguments checked here;
// the peer's events show each took effect.
TEST_F(DpReconf, FromAnotherThread)
{
	start({ "", "4", "8" }, { "", "4", "8" });
	dpsctp_assoc *a = client_.a;
	ASSERT_EQ(dpsctp_start(c_), 0);
	std::vector<uint16_t> many(33, 0);
	EXPECT_EQ(dpsctp_reset_streams(a, DPSCTP_RESET_OUTGOING, many.data(), 33), -EINVAL);
	EXPECT_EQ(dpsctp_add_streams(a, 0, 0), -EINVAL);
	auto serve = [&](size_t n) {
		for (int i = 0; i < 5000000 && server_.n_reconf < n; i++)
			dpsctp_poll(s_, 0);
		return server_.n_reconf >= n;
	};
	const uint16_t sids[] = { 0, 3 };
	ASSERT_EQ(dpsctp_reset_streams(a, DPSCTP_RESET_OUTGOING, sids, 2), 0);
	ASSERT_TRUE(serve(1));
	EXPECT_EQ(server_.reconf[0].type, DPSCTP_EV_STREAM_RESET);
	EXPECT_EQ(server_.reconf[0].streams, (std::vector<uint16_t>{ 0, 3 }));
	// The next request once the client has the answer (its own event).
	for (int i = 0; i < 5000000 && client_.n_reconf < 1; i++)
		dpsctp_poll(s_, 0);
	ASSERT_EQ(client_.n_reconf, 1u);
	ASSERT_EQ(dpsctp_add_streams(a, 0, 2), 0);
	ASSERT_TRUE(serve(2));
	EXPECT_EQ(server_.reconf.back().type, DPSCTP_EV_STREAM_CHANGE);
	EXPECT_EQ(server_.reconf.back().out, 6u) << "the peer added its outgoing streams";
	for (int i = 0; i < 5000000 && client_.n_reconf < 2; i++)
		dpsctp_poll(s_, 0);
	ASSERT_EQ(client_.n_reconf, 2u);
	ASSERT_EQ(dpsctp_reset_assoc(a), 0);
	ASSERT_TRUE(serve(3));
	EXPECT_EQ(server_.reconf.back().type, DPSCTP_EV_ASSOC_RESET);
	ASSERT_EQ(dpsctp_shutdown(a), 0);
	for (int i = 0; i < 20000000 && (!server_.ended || dpsctp_assoc_count(c_) != 0); i++)
		dpsctp_poll(s_, 0);
	EXPECT_TRUE(server_.ended);
	EXPECT_EQ(dpsctp_assoc_count(c_), 0u);
}

} // namespace
