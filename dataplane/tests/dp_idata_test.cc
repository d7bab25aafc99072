/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] I-DATA (RFC 8260 §2) and the stream schedulers (§3) through the
// embedded runtime: I-DATA negotiated from the configuration (--extensions)
// only when both sides offer it, dpsctp_assoc_stats.extensions on each side;
// messages of 64 B to 300 KB, ordered and unordered, interleaved over
// several streams both ways, delivered byte for byte and in order per
// stream, with I-DATA and with DATA (--extensions pr-sctp); the scheduler
// per association (dpsctp_set_sched(), dpsctp_set_stream_param(), their
// getters and errors; --sched for every association), the priority
// scheduler serving a high-priority stream's queued messages before a
// low-priority one's where first come first served does not, and the
// difference I-DATA makes: a high-priority message overtakes a large
// low-priority one already on the wire with I-DATA, and waits for its end
// with DATA. Two instances over a net_ring pair, polled by the test thread.
#include <gtest/gtest.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "dataplane/tests/dp_pair.h"

namespace {

constexpr uint16_t kPort = 7102;
constexpr uint32_t kBoth = DPSCTP_EXT_PR_SCTP | DPSCTP_EXT_I_DATA;

// A message: sid and number in its first 8 bytes, then a pattern of both,
// so a byte out of place or a message of another stream shows.
std::string
make_msg(uint16_t sid, uint32_t seq, uint32_t len)
{
	std::string s(len, '\0');
	uint8_t hdr[8] = {
		(uint8_t)(sid >> 8),  (uint8_t)sid,	   0,		0, (uint8_t)(seq >> 24),
		(uint8_t)(seq >> 16), (uint8_t)(seq >> 8), (uint8_t)seq
	};
	for (uint32_t i = 0; i < len; i++)
		s[i] = i < 8 ? (char)hdr[i] : (char)(uint8_t)(seq * 131u + i * 7u + sid * 29u);
	return s;
}

uint32_t
msg_seq(const std::string &s)
{
	if (s.size() < 8)
		return UINT32_MAX;
	const uint8_t *p = (const uint8_t *)s.data();
	return (uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 | (uint32_t)p[6] << 8 | p[7];
}

struct App {
	dpsctp_assoc *a = nullptr;
	bool up = false, ended = false;
	int sched_at_up = -1; // dpsctp_sched() inside COMM_UP
	// Messages put back together from their parts: a part continues the
	// message of its stream, U bit and identifier (dpsctp_msg.mid), as
	// several may be in parts at once with I-DATA (RFC 8260 §2).
	std::map<std::tuple<uint16_t, bool, uint32_t>, std::string> partial;
	std::map<uint16_t, std::vector<std::string>> got; // whole messages by stream
	std::vector<std::pair<uint16_t, uint32_t>> order; // (sid, number) as each completed
	size_t whole = 0, bad_parts = 0, bad_ssn = 0;
	std::map<uint16_t, std::vector<uint16_t>> ssns; // ordered messages' SSNs by stream
	// RE-CONFIG events (RFC 6525): (type, reset_flags), the streams of the last
	// stream reset and the counts of the last stream change.
	std::vector<std::pair<int, uint32_t>> reconf;
	std::vector<uint16_t> reset_streams;
	uint16_t out_streams = 0, in_streams = 0;
};

void
on_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	App *p = static_cast<App *>(arg);
	if (ev->type == DPSCTP_EV_COMM_UP) {
		p->a = a;
		p->up = true;
		p->sched_at_up = dpsctp_sched(a);
	}
	if (ev->type == DPSCTP_EV_STREAM_RESET || ev->type == DPSCTP_EV_ASSOC_RESET ||
	    ev->type == DPSCTP_EV_STREAM_CHANGE) {
		p->reconf.emplace_back(ev->type, ev->reset_flags);
		if (ev->type == DPSCTP_EV_STREAM_RESET)
			p->reset_streams.assign(ev->streams, ev->streams + ev->n_streams);
		p->out_streams = ev->outbound_streams;
		p->in_streams = ev->inbound_streams;
	}
	if (ev->type == DPSCTP_EV_COMM_LOST || ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE ||
	    ev->type == DPSCTP_EV_CANT_START) {
		p->ended = true;
		p->a = nullptr;
	}
}

void
on_recv(dpsctp_assoc *, const dpsctp_msg *m, void *arg)
{
	App *p = static_cast<App *>(arg);
	std::string s(m->len, '\0');
	dpsctp_msg_copy(m, s.data(), s.size());
	bool unordered = (m->flags & DPSCTP_MSG_UNORDERED) != 0;
	// ssn is mid's low 16 bits (I-DATA) or mid is the SSN (DATA; 0 unordered).
	p->bad_ssn += m->ssn != (uint16_t)m->mid;
	auto key = std::make_tuple(m->sid, unordered, m->mid);
	auto it = p->partial.find(key);
	if (m->flags & DPSCTP_MSG_CONT) {
		if (it == p->partial.end()) {
			p->bad_parts++; // a continuation of nothing
			return;
		}
		it->second += s;
	} else {
		if (it != p->partial.end())
			p->bad_parts++; // a new message where one was in parts
		it = p->partial.insert_or_assign(key, std::move(s)).first;
	}
	if (m->flags & DPSCTP_MSG_MORE)
		return;
	p->order.emplace_back(m->sid, msg_seq(it->second));
	if (!unordered)
		p->ssns[m->sid].push_back(m->ssn);
	p->got[m->sid].push_back(std::move(it->second));
	p->partial.erase(it);
	p->whole++;
}

const dpsctp_callbacks kCb = { on_recv, on_event, nullptr };

// One side's options: --extensions ("" the default) and --sched ("" the default).
struct Side {
	const char *ext = "";
	const char *sched = "";
	const char *max_streams = ""; // room to add streams (RFC 6525)
};

class DpIData : public DpPair {
      protected:
	void start(Side client, Side server)
	{
		// 300 KB messages need a send buffer above the 256 KiB default.
		auto opts = [](const Side &x) -> Opts {
			return { { "sndbuf", "1m" },
				 { "rcvbuf", "1m" },
				 { "extensions", x.ext },
				 { "max-streams", x.max_streams },
				 { "sched", x.sched } };
		};
		open_pair("id", opts(client), opts(server), [](dpsctp_config &cc, dpsctp_config &) {
			EXPECT_EQ(cc.extensions, kBoth | DPSCTP_EXT_RECONFIG)
				<< "the default offers PR-SCTP, I-DATA and RE-CONFIG";
			EXPECT_EQ(cc.sched, DPSCTP_SCHED_RR) << "the default scheduler";
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
	uint32_t extensions(dpsctp_assoc *a)
	{
		dpsctp_assoc_stats st;
		EXPECT_EQ(dpsctp_assoc_get_stats(a, &st), 0);
		return st.extensions;
	}
	uint32_t send_queued(dpsctp_assoc *a)
	{
		dpsctp_assoc_stats st;
		EXPECT_EQ(dpsctp_assoc_get_stats(a, &st), 0);
		return st.send_queued;
	}
	// One message, retried while the send buffer is full (polling both ends).
	void send(App &from, uint16_t sid, uint32_t flags, const std::string &m)
	{
		dpsctp_sndinfo si{};
		si.sid = sid;
		si.flags = flags;
		int rc = -EAGAIN;
		for (uint64_t i = 0; i < 20000000 && rc == -EAGAIN; i++) {
			rc = dpsctp_send_bytes(from.a, &si, m.data(), m.size());
			if (rc == -EAGAIN)
				poll();
		}
		ASSERT_EQ(rc, 0) << "stream " << sid << ", " << m.size() << " B";
	}

	// Large and small messages, ordered and unordered, interleaved over five
	// streams from @from to @to: every one arrives whole, byte for byte, the
	// ordered ones in the order sent on their stream.
	void interleaved(App &from, App &to)
	{
		struct Stream {
			uint16_t sid;
			bool unordered;
			std::vector<uint32_t> sizes;
		};
		std::vector<Stream> plan = {
			{ 0, false, { 300000, 300000, 300000 } },
			{ 1, false, std::vector<uint32_t>(300, 64) },
			{ 2, true, {} },
			{ 3, false, {} },
			{ 4, true, { 300000, 64, 150000, 64 } },
		};
		for (uint32_t k = 0; k < 40; k++) {
			plan[2].sizes.push_back(1 + (k * 4099u) % 20000u);
			plan[3].sizes.push_back(k % 10 == 9 ? 120000u : 1 + (k * 1237u) % 3000u);
		}
		std::map<uint16_t, std::vector<std::string>> want;
		size_t total = 0, before = to.whole;
		for (size_t k = 0;; k++) {
			bool any = false;
			for (const Stream &st : plan) {
				if (k >= st.sizes.size())
					continue;
				std::string m = make_msg(st.sid, (uint32_t)k, st.sizes[k]);
				send(from, st.sid, st.unordered ? DPSCTP_SEND_UNORDERED : 0, m);
				want[st.sid].push_back(std::move(m));
				total++;
				any = true;
			}
			if (!any)
				break;
		}
		ASSERT_TRUE(until([&] { return to.whole - before == total; }))
			<< to.whole - before << " of " << total << " arrived; "
			<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
		EXPECT_EQ(to.bad_parts, 0u);
		EXPECT_EQ(to.bad_ssn, 0u);
		EXPECT_TRUE(to.partial.empty());
		for (const Stream &st : plan) {
			std::vector<std::string> w = want[st.sid], g = to.got[st.sid];
			ASSERT_EQ(g.size(), w.size()) << "stream " << st.sid;
			if (st.unordered) { // whole and intact; the order is the network's
				std::sort(w.begin(), w.end());
				std::sort(g.begin(), g.end());
			}
			for (size_t i = 0; i < w.size(); i++)
				EXPECT_TRUE(g[i] == w[i])
					<< "stream " << st.sid << " message " << i << ": "
					<< g[i].size() << " B, sent " << w[i].size() << " B"
					<< (st.unordered ? "" : " (or out of order)");
		}
		to.got.clear();
		to.order.clear();
	}

	App client_, server_;
};

TEST_F(DpIData, NegotiatedByDefaultAndCarriesEverything)
{
	start({}, {});
	EXPECT_EQ(extensions(client_.a), kBoth | DPSCTP_EXT_RECONFIG);
	EXPECT_EQ(extensions(server_.a), kBoth | DPSCTP_EXT_RECONFIG);
	interleaved(client_, server_);
	interleaved(server_, client_);
	finish();
}

// The same traffic over DATA: one side offers PR-SCTP alone.
TEST_F(DpIData, DataWhenTheServerHasNoIData)
{
	start({}, { "pr-sctp" });
	EXPECT_EQ(extensions(client_.a), (uint32_t)DPSCTP_EXT_PR_SCTP);
	EXPECT_EQ(extensions(server_.a), (uint32_t)DPSCTP_EXT_PR_SCTP);
	interleaved(client_, server_);
	interleaved(server_, client_);
	finish();
}

TEST_F(DpIData, DataWhenTheClientHasNoIData)
{
	start({ "pr-sctp" }, {});
	EXPECT_EQ(extensions(client_.a), (uint32_t)DPSCTP_EXT_PR_SCTP);
	EXPECT_EQ(extensions(server_.a), (uint32_t)DPSCTP_EXT_PR_SCTP);
	interleaved(client_, server_);
	finish();
}

// I-DATA without PR-SCTP, and neither.
TEST_F(DpIData, IDataAlone)
{
	start({ "i-data" }, {});
	EXPECT_EQ(extensions(client_.a), (uint32_t)DPSCTP_EXT_I_DATA);
	EXPECT_EQ(extensions(server_.a), (uint32_t)DPSCTP_EXT_I_DATA);
	interleaved(client_, server_);
	finish();
}

TEST_F(DpIData, NoExtensions)
{
	start({ "none" }, { "none" });
	EXPECT_EQ(extensions(client_.a), 0u);
	interleaved(server_, client_);
	finish();
}

// The calls and their errors; --sched sets every association's scheduler.
TEST_F(DpIData, SchedulerCalls)
{
	start({ "", "wfq" }, { "", "fcfs" });
	EXPECT_EQ(client_.sched_at_up, (int)DPSCTP_SCHED_WFQ) << "--sched wfq, at COMM_UP";
	EXPECT_EQ(server_.sched_at_up, (int)DPSCTP_SCHED_FCFS);
	dpsctp_assoc *a = client_.a;
	for (unsigned s = DPSCTP_SCHED_RR; s <= DPSCTP_SCHED_WFQ; s++) {
		ASSERT_EQ(dpsctp_set_sched(a, s), 0) << s;
		EXPECT_EQ(dpsctp_sched(a), (int)s);
	}
	EXPECT_EQ(dpsctp_set_sched(a, DPSCTP_SCHED_WFQ + 1), -EINVAL);
	EXPECT_EQ(dpsctp_set_sched(a, UINT32_MAX), -EINVAL);
	EXPECT_EQ(dpsctp_sched(a), (int)DPSCTP_SCHED_WFQ) << "a refused change changes nothing";
	EXPECT_EQ(dpsctp_set_sched(nullptr, DPSCTP_SCHED_RR), -EINVAL);
	EXPECT_EQ(dpsctp_sched(nullptr), -EINVAL);

	// Stream parameters: every stream starts at 0; 64 streams (--max-streams).
	EXPECT_EQ(dpsctp_stream_param(a, 0), 0);
	EXPECT_EQ(dpsctp_stream_param(a, 63), 0);
	EXPECT_EQ(dpsctp_stream_param(a, 64), -EINVAL);
	EXPECT_EQ(dpsctp_set_stream_param(a, 64, 1), -EINVAL);
	EXPECT_EQ(dpsctp_set_stream_param(a, 3, 0), -EINVAL) << "a weight of 0 under wfq";
	ASSERT_EQ(dpsctp_set_stream_param(a, 3, 65535), 0);
	EXPECT_EQ(dpsctp_stream_param(a, 3), 65535);
	ASSERT_EQ(dpsctp_set_sched(a, DPSCTP_SCHED_PRIO), 0);
	EXPECT_EQ(dpsctp_stream_param(a, 3), 65535) << "kept across a change of scheduler";
	ASSERT_EQ(dpsctp_set_stream_param(a, 3, 0), 0) << "priority 0 is fine under prio";
	EXPECT_EQ(dpsctp_set_stream_param(nullptr, 0, 0), -EINVAL);
	EXPECT_EQ(dpsctp_stream_param(nullptr, 0), -EINVAL);

	// While messages are queued: the scheduler stays, parameters change.
	dpsctp_sndinfo si{};
	si.sid = 1;
	si.flags = DPSCTP_SEND_MORE;
	const std::string m = make_msg(1, 0, 1000);
	ASSERT_EQ(dpsctp_send_bytes(a, &si, m.data(), m.size()), 0);
	EXPECT_GT(send_queued(a), 0u);
	EXPECT_EQ(dpsctp_set_sched(a, DPSCTP_SCHED_RR), -EBUSY);
	EXPECT_EQ(dpsctp_sched(a), (int)DPSCTP_SCHED_PRIO);
	EXPECT_EQ(dpsctp_set_stream_param(a, 1, 9), 0);
	EXPECT_EQ(dpsctp_stream_param(a, 1), 9);
	ASSERT_EQ(dpsctp_flush(a), 0);
	ASSERT_TRUE(until([&] { return server_.whole == 1; }));
	EXPECT_EQ(send_queued(a), 0u);
	EXPECT_EQ(dpsctp_set_sched(a, DPSCTP_SCHED_RR), 0) << "nothing queued any more";
	finish();
}

// From a thread that does not own the association (the client started on
// its own lcore, this thread polling the server): the setters are requests
// on the worker's ring, taken at its next iteration; an unknown scheduler
// is refused on the calling thread.
TEST_F(DpIData, SchedulerFromAnotherThread)
{
	start({}, {});
	dpsctp_assoc *a = client_.a;
	ASSERT_EQ(dpsctp_start(c_), 0);
	EXPECT_EQ(dpsctp_set_sched(a, DPSCTP_SCHED_WFQ + 1), -EINVAL);
	ASSERT_EQ(dpsctp_set_sched(a, DPSCTP_SCHED_PRIO), 0);
	ASSERT_EQ(dpsctp_set_stream_param(a, 2, 9), 0);
	auto settled = [&] {
		return dpsctp_sched(a) == (int)DPSCTP_SCHED_PRIO && dpsctp_stream_param(a, 2) == 9;
	};
	for (int i = 0; i < 2000000 && !settled(); i++)
		dpsctp_poll(s_, 0);
	EXPECT_TRUE(settled()) << "scheduler " << dpsctp_sched(a) << ", stream 2's parameter "
			       << dpsctp_stream_param(a, 2);
	// A graceful close, requested from here too, before the fixture stops both.
	ASSERT_EQ(dpsctp_shutdown(a), 0);
	for (int i = 0; i < 20000000 && (!server_.ended || dpsctp_assoc_count(c_) != 0); i++)
		dpsctp_poll(s_, 0);
	EXPECT_TRUE(server_.ended);
	EXPECT_EQ(dpsctp_assoc_count(c_), 0u);
}

// Before COMM_UP there is no send queue yet.
TEST_F(DpIData, SchedulerBeforeTheAssociationIsUp)
{
	link_ = std::make_unique<RingLink>("idx" + std::to_string(serial_++), 1);
	char err[256];
	dpsctp_config cc = dp_test_config(link_->name_a, "10.0.0.1/24", 1, 0);
	c_ = dpsctp_create(&cc, err, sizeof(err));
	ASSERT_NE(c_, nullptr) << err;
	cfree_ = rte_mempool_avail_count(dpsctp_pktmbuf_pool(c_));
	sctp_addr peer = { 4, { 10, 0, 0, 2 } };
	int rc = 0;
	dpsctp_assoc *a = dpsctp_connect(c_, 0, &peer, 1, kPort, 0, &kCb, &client_, &rc);
	ASSERT_NE(a, nullptr) << rc;
	EXPECT_EQ(dpsctp_set_sched(a, DPSCTP_SCHED_PRIO), -ENOTCONN);
	EXPECT_EQ(dpsctp_sched(a), -ENOTCONN);
	EXPECT_EQ(dpsctp_set_stream_param(a, 0, 1), -ENOTCONN);
	EXPECT_EQ(dpsctp_stream_param(a, 0), -ENOTCONN);
	EXPECT_EQ(dpsctp_set_sched(a, DPSCTP_SCHED_WFQ + 1), -EINVAL) << "checked first";
	EXPECT_EQ(dpsctp_abort(a), 0);
	EXPECT_TRUE(client_.ended);
	// What went towards the missing peer (ARP, INIT, ABORT) back to the pool.
	for (int i = 0; i < 100; i++)
		dpsctp_poll(c_, 0);
	void *m;
	while (rte_ring_dequeue(link_->ab[0], &m) == 0)
		rte_pktmbuf_free((rte_mbuf *)m);
}

// Low-priority messages queued first, high-priority ones after, then one
// flush: the priority scheduler sends (and the peer completes) every
// high-priority message first, with DATA as with I-DATA; first come first
// served keeps the order of the send calls.
class DpIDataPrio : public DpIData, public ::testing::WithParamInterface<const char *> {};

TEST_P(DpIDataPrio, QueuedHighPriorityGoesFirst)
{
	start({ GetParam() }, {});
	dpsctp_assoc *a = client_.a;
	constexpr uint32_t kEach = 20;
	for (unsigned sched : { DPSCTP_SCHED_PRIO, DPSCTP_SCHED_FCFS }) {
		ASSERT_EQ(dpsctp_set_sched(a, sched), 0);
		ASSERT_EQ(dpsctp_set_stream_param(a, 1, 10), 0); // low
		ASSERT_EQ(dpsctp_set_stream_param(a, 0, 0), 0);	 // high
		size_t before = server_.whole;
		server_.order.clear();
		for (uint16_t sid : { 1, 0 })
			for (uint32_t k = 0; k < kEach; k++) {
				// Two chunks each: a scheduler that switched inside a message would
				// show.
				std::string m = make_msg(sid, k, 2000);
				dpsctp_sndinfo si{};
				si.sid = sid;
				si.flags = DPSCTP_SEND_MORE;
				ASSERT_EQ(dpsctp_send_bytes(a, &si, m.data(), m.size()), 0);
			}
		ASSERT_EQ(dpsctp_flush(a), 0);
		ASSERT_TRUE(until([&] { return server_.whole - before == 2 * kEach; }))
			<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
		std::string seen;
		for (const auto &x : server_.order)
			seen += std::to_string(x.first);
		uint16_t first = sched == DPSCTP_SCHED_PRIO ? 0 : 1;
		EXPECT_EQ(seen, std::string(kEach, (char)('0' + first)) +
					std::string(kEach, (char)('0' + (1 - first))))
			<< (sched == DPSCTP_SCHED_PRIO ? "prio: stream 0 (priority 0) first"
						       : "fcfs: in the order of the send calls");
		for (uint32_t k = 0; k < 2 * kEach; k++)
			EXPECT_EQ(server_.order[k].second, k % kEach) << "in order per stream";
		ASSERT_TRUE(until([&] { return send_queued(a) == 0; }));
	}
	EXPECT_EQ(server_.bad_parts, 0u);
	finish();
}

INSTANTIATE_TEST_SUITE_P(DataAndIData, DpIDataPrio, ::testing::Values("pr-sctp", ""),
			 [](const ::testing::TestParamInfo<const char *> &p) {
				 return std::string(p.param[0] != '\0' ? "Data" : "IData");
			 });

// A 300 KB low-priority message is on the wire (its first window sent)
// when 20 small high-priority messages are queued. With I-DATA the
// scheduler switches streams between chunks: the small messages overtake
// the rest of the large one and complete first. With DATA it switches only
// between messages: they wait until the large one has been sent whole.
TEST_F(DpIData, HighPriorityOvertakesALargeMessageOnlyWithIData)
{
	for (const char *ext : { "", "pr-sctp" }) {
		SCOPED_TRACE(ext[0] != '\0' ? "DATA" : "I-DATA");
		client_ = App();
		server_ = App();
		start({ ext }, {});
		bool idata = (extensions(client_.a) & DPSCTP_EXT_I_DATA) != 0;
		EXPECT_EQ(idata, ext[0] == '\0');
		dpsctp_assoc *a = client_.a;
		ASSERT_EQ(dpsctp_set_sched(a, DPSCTP_SCHED_PRIO), 0);
		ASSERT_EQ(dpsctp_set_stream_param(a, 1, 10), 0);
		std::string big = make_msg(1, 0, 300000);
		dpsctp_sndinfo si{};
		si.sid = 1;
		ASSERT_EQ(dpsctp_send_bytes(a, &si, big.data(), big.size()), 0);
		// No poll yet: only the initial window of it left, the rest is queued.
		ASSERT_GT(send_queued(a), 200000u);
		for (uint32_t k = 0; k < 20; k++) {
			std::string m = make_msg(0, k, 64);
			dpsctp_sndinfo hi{};
			hi.flags = DPSCTP_SEND_MORE;
			ASSERT_EQ(dpsctp_send_bytes(a, &hi, m.data(), m.size()), 0);
		}
		ASSERT_EQ(dpsctp_flush(a), 0);
		ASSERT_TRUE(until([&] { return server_.whole == 21; }))
			<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
		std::string seen;
		for (const auto &x : server_.order)
			seen += x.first == 0 ? "h" : "L";
		EXPECT_EQ(seen, idata ? std::string(20, 'h') + "L" : "L" + std::string(20, 'h'));
		ASSERT_EQ(server_.got[1].size(), 1u);
		EXPECT_TRUE(server_.got[1][0] == big);
		EXPECT_EQ(server_.bad_parts, 0u);
		finish();
		TearDown();
		c_ = s_ = nullptr;
	}
}

// RFC 6525 through the embedded API (dp_reconf_test has more): an
// outgoing stream reset (the next message's SSN is 0 again on the
// receiver), streams asked for beyond --max-streams refused, an association
// reset, the events on both sides, and the refusals.
TEST_F(DpIData, StreamReconfiguration)
{
	const char *ext = "pr-sctp,i-data,reconfig";
	start({ ext, "" }, { ext, "" });
	ASSERT_EQ(extensions(client_.a), kBoth | DPSCTP_EXT_RECONFIG);
	uint16_t sid = 1;
	for (uint32_t k = 0; k < 3; k++)
		send(client_, sid, 0, make_msg(sid, k, 100));
	ASSERT_TRUE(until([&] { return server_.whole == 3; }));
	EXPECT_EQ(dpsctp_reset_streams(client_.a, 0, &sid, 1), -EINVAL);
	ASSERT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_OUTGOING, &sid, 1), 0);
	EXPECT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_OUTGOING, &sid, 1), -EINPROGRESS);
	ASSERT_TRUE(until([&] { return !client_.reconf.empty() && !server_.reconf.empty(); }));
	EXPECT_EQ(client_.reconf[0],
		  std::make_pair((int)DPSCTP_EV_STREAM_RESET, (uint32_t)DPSCTP_RESET_OUTGOING_SSN));
	EXPECT_EQ(server_.reconf[0],
		  std::make_pair((int)DPSCTP_EV_STREAM_RESET, (uint32_t)DPSCTP_RESET_INCOMING_SSN));
	EXPECT_EQ(server_.reset_streams, std::vector<uint16_t>{ 1 });
	send(client_, sid, 0, make_msg(sid, 3, 100));
	ASSERT_TRUE(until([&] { return server_.whole == 4; }));
	EXPECT_EQ(server_.ssns[1], (std::vector<uint16_t>{ 0, 1, 2, 0 }))
		<< "numbered from 0 again";

	// Both sides negotiated --max-streams, the most RE-CONFIG adds up to:
	// the call is refused and nothing changes (dp_reconf_test adds streams
	// below it, and has a peer answer "Denied").
	uint16_t out0 = client_.out_streams;
	EXPECT_EQ(dpsctp_add_streams(client_.a, 2, 0), -EINVAL);
	EXPECT_EQ(client_.out_streams, out0);
	send(client_, 2, 0, make_msg(2, 4, 2000));
	ASSERT_TRUE(until([&] { return server_.whole == 5; }));

	// The association reset, once nothing of ours is outstanding.
	int rc = -EAGAIN;
	for (int i = 0; i < 2000000 && rc == -EAGAIN; i++) {
		rc = dpsctp_reset_assoc(client_.a);
		if (rc == -EAGAIN)
			poll();
	}
	ASSERT_EQ(rc, 0);
	ASSERT_TRUE(until([&] { return client_.reconf.size() == 2; }));
	EXPECT_EQ(client_.reconf[1], std::make_pair((int)DPSCTP_EV_ASSOC_RESET, (uint32_t)0));
	send(client_, sid, 0, make_msg(sid, 5, 100));
	send(server_, 0, 0, make_msg(0, 6, 100));
	ASSERT_TRUE(until([&] { return server_.whole == 6 && client_.whole == 1; }));
	EXPECT_EQ(server_.ssns[1].back(), 0u);
	finish();
}

TEST_F(DpIData, StreamReconfigurationNotOfferedByOneSide)
{
	start({}, { "pr-sctp,i-data", "" });
	EXPECT_EQ(extensions(client_.a), kBoth);
	uint16_t sid = 0;
	EXPECT_EQ(dpsctp_reset_streams(client_.a, DPSCTP_RESET_OUTGOING, &sid, 1), -EOPNOTSUPP);
	EXPECT_EQ(dpsctp_add_streams(server_.a, 1, 0), -EOPNOTSUPP);
	finish();
}

} // namespace
