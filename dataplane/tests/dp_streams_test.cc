/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] Memory that follows the streams negotiated (docs/DATAPATH.md, "Data
// block memory"): two instances with --max-streams 65535 over a net_ring
// pair polled by the test thread. An association that asks 8 streams each
// way (INITMSG, dpsctp_connect_opts()) takes a pool block, one that asks
// 65,535 a heap block of exactly its size (data_heap_bytes), and a message
// on its stream 65534 goes both ways; everything is given back at the
// close. --stream-mem exhausted: the next large association is aborted with
// Out of Resource and counted (data_heap_refused), the others carry on.
// RE-CONFIG adding streams past the pool's size moves the association to a
// heap block.
#include <gtest/gtest.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "dataplane/tests/dp_pair.h"

namespace {

constexpr uint16_t kPort = 7107;
// Bytes per stream each way of a data block with I-DATA negotiated (the
// default): 12 of reassembly state in, 16 of queue entry out
// (docs/DATAPATH.md); the fixed part (TSN map, duplicates, the send side's
// struct) is under 2 KiB.
constexpr uint64_t kPerStream = 12 + 16;
constexpr uint64_t kFixedMax = 2048;

struct App {
	dpsctp_assoc *a = nullptr;
	std::atomic<bool> up{ false }, ended{ false };
	uint16_t out_streams = 0, in_streams = 0, reason = 0, error = 0;
	std::vector<std::pair<uint16_t, std::string>> got;
	size_t n_change = 0;
	uint16_t change_out = 0;
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
	case DPSCTP_EV_STREAM_CHANGE:
		p->n_change++;
		p->change_out = ev->outbound_streams;
		break;
	case DPSCTP_EV_COMM_LOST:
	case DPSCTP_EV_SHUTDOWN_COMPLETE:
	case DPSCTP_EV_CANT_START:
		p->a = nullptr;
		p->reason = ev->reason;
		p->error = ev->error;
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
	p->got.emplace_back(m->sid, s);
}

const dpsctp_callbacks kCb = { on_recv, on_event, nullptr };

// The server's listener hands every association to a fresh App.
struct Server {
	std::vector<std::unique_ptr<App>> apps;
};

// A new association on the listener gets its own App and the plain callbacks.
void
on_accept_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	Server *s = static_cast<Server *>(arg);
	if (ev->type != DPSCTP_EV_COMM_UP)
		return;
	s->apps.push_back(std::make_unique<App>());
	dpsctp_assoc_set_callbacks(a, &kCb, s->apps.back().get());
	on_event(a, ev, s->apps.back().get());
}

class DpStreams : public DpPair {
      protected:
	void start(const char *server_stream_mem)
	{
		open_pair("st", { { "max-streams", "65535" } },
			  { { "max-streams", "65535" }, { "stream-mem", server_stream_mem } });
		ASSERT_EQ(dpsctp_listen(s_, kPort, &kAcceptCb, &server_), 0);
	}
	// Heap bytes the worker's data blocks hold now.
	uint64_t heap_in_use(dpsctp *d)
	{
		return counter(d, "data_heap_bytes") - counter(d, "data_heap_freed");
	}
	// A client association asking out streams and allowing in; up or ended.
	void connect(App &app, uint16_t out, uint16_t in)
	{
		dpsctp_initmsg im{};
		im.num_ostreams = out;
		im.max_instreams = in;
		sctp_addr peer = { 4, { 10, 0, 0, 2 } };
		int rc = 0;
		ASSERT_NE(dpsctp_connect_opts(c_, 0, &peer, 1, kPort, 0, &im, &kCb, &app, &rc),
			  nullptr)
			<< rc;
		ASSERT_TRUE(until([&] { return app.up || app.ended; }))
			<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
	}
	App *server_side(size_t i)
	{
		return i < server_.apps.size() ? server_.apps[i].get() : nullptr;
	}
	void send(dpsctp_assoc *a, uint16_t sid, const std::string &m)
	{
		dpsctp_sndinfo si{};
		si.sid = sid;
		int rc = -EAGAIN;
		for (uint64_t i = 0; i < 5000000 && rc == -EAGAIN; i++) {
			rc = dpsctp_send_bytes(a, &si, m.data(), m.size());
			if (rc == -EAGAIN)
				poll();
		}
		ASSERT_EQ(rc, 0) << "stream " << sid;
	}
	// One message each way on stream sid, delivered on that stream.
	void exchange(App &client, App &server, uint16_t sid)
	{
		size_t cn = client.got.size(), sn = server.got.size();
		std::string m = "stream " + std::to_string(sid);
		send(client.a, sid, m + " up");
		send(server.a, sid, m + " down");
		ASSERT_TRUE(until([&] { return client.got.size() > cn && server.got.size() > sn; }))
			<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
		EXPECT_EQ(server.got.back(), std::make_pair(sid, m + " up"));
		EXPECT_EQ(client.got.back(), std::make_pair(sid, m + " down"));
	}
	void close(App &client, App &server)
	{
		ASSERT_EQ(dpsctp_shutdown(client.a), 0);
		ASSERT_TRUE(until([&] { return client.ended && server.ended; }))
			<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
	}

	static const dpsctp_callbacks kAcceptCb;
	Server server_;
};

const dpsctp_callbacks DpStreams::kAcceptCb = { on_recv, on_accept_event, nullptr };

// 8 streams each way: the pool's block, no heap; 65,535 each way: a heap
// block of the size the streams need, stream 65534 carries messages both
// ways, and the close gives every byte back.
TEST_F(DpStreams, MemoryFollowsTheStreamsNegotiated)
{
	start("64m");
	App small;
	connect(small, 8, 8);
	ASSERT_TRUE(small.up);
	EXPECT_EQ(small.out_streams, 8u);
	EXPECT_EQ(small.in_streams, 8u);
	ASSERT_NE(server_side(0), nullptr);
	exchange(small, *server_side(0), 7);
	for (dpsctp *d : { c_, s_ }) {
		EXPECT_EQ(counter(d, "data_heap_blocks"), 0u) << "8 streams: the pool's block";
		EXPECT_EQ(heap_in_use(d), 0u);
	}

	App big;
	connect(big, 65535, 65535);
	ASSERT_TRUE(big.up) << big.reason;
	EXPECT_EQ(big.out_streams, 65535u);
	EXPECT_EQ(big.in_streams, 65535u);
	ASSERT_NE(server_side(1), nullptr);
	EXPECT_EQ(server_side(1)->out_streams, 65535u);
	exchange(big, *server_side(1), 65534);
	exchange(small, *server_side(0), 0);
	for (dpsctp *d : { c_, s_ }) {
		EXPECT_EQ(counter(d, "data_heap_blocks"), 1u);
		uint64_t bytes = heap_in_use(d);
		EXPECT_GE(bytes, 65535u * kPerStream);
		EXPECT_LE(bytes, 65535u * kPerStream + kFixedMax);
		EXPECT_EQ(counter(d, "data_heap_refused"), 0u);
	}

	close(big, *server_side(1));
	for (dpsctp *d : { c_, s_ }) {
		EXPECT_EQ(heap_in_use(d), 0u) << "the heap block given back";
	}
	close(small, *server_side(0));
	EXPECT_EQ(dpsctp_assoc_count(c_) + dpsctp_assoc_count(s_), 0u);
}

// --stream-mem 3m on the server holds one association of 65,535 streams
// (1.8 MiB) and not two: the second is aborted with Out of Resource at
// the cookie (nothing was allocated for its INIT), counted, and the first
// and a small one go on.
TEST_F(DpStreams, BudgetExhaustedRefusesCleanly)
{
	start("3m");
	App big1, big2, small;
	connect(big1, 65535, 65535);
	ASSERT_TRUE(big1.up);
	connect(big2, 65535, 65535);
	// Our side may see COMM_UP first (COOKIE ACK and ABORT can cross); then the end.
	ASSERT_TRUE(until([&] { return big2.ended.load(); }))
		<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
	EXPECT_EQ(big2.reason, DPSCTP_REASON_PEER_ABORT);
	EXPECT_EQ(big2.error, 4u) << "RFC 9260 §3.3.10.4 Out of Resource";
	EXPECT_EQ(counter(s_, "data_heap_refused"), 1u);
	EXPECT_EQ(counter(s_, "data_heap_blocks"), 1u);
	EXPECT_EQ(counter(c_, "data_heap_refused"), 0u);
	// The client's block for big2 went back with its abort.
	EXPECT_EQ(heap_in_use(c_), heap_in_use(s_));
	connect(small, 8, 8);
	ASSERT_TRUE(small.up);
	ASSERT_EQ(server_.apps.size(), 2u) << "the refused one never came up";
	exchange(big1, *server_side(0), 65534);
	exchange(small, *server_side(1), 3);
	close(big1, *server_side(0));
	close(small, *server_side(1));
	EXPECT_EQ(heap_in_use(c_) + heap_in_use(s_), 0u);
	EXPECT_EQ(dpsctp_assoc_count(c_) + dpsctp_assoc_count(s_), 0u);
}

// RE-CONFIG adds streams past the pool's 64 (RFC 6525 §5.2.5): the
// association moves from its pool block to a heap block on both sides, and
// the new last stream carries a message.
TEST_F(DpStreams, AddStreamsRegrowsToTheHeap)
{
	start("64m");
	App a;
	connect(a, 8, 8);
	ASSERT_TRUE(a.up);
	App *s = server_side(0);
	ASSERT_NE(s, nullptr);
	ASSERT_EQ(dpsctp_add_streams(a.a, 992, 0), 0);
	ASSERT_TRUE(until([&] { return a.n_change > 0; }));
	EXPECT_EQ(a.change_out, 1000u);
	exchange(a, *s, 7);
	size_t n = s->got.size();
	send(a.a, 999, "stream 999");
	ASSERT_TRUE(until([&] { return s->got.size() > n; }));
	EXPECT_EQ(s->got.back(), std::make_pair(uint16_t(999), std::string("stream 999")));
	for (dpsctp *d : { c_, s_ }) {
		EXPECT_EQ(counter(d, "data_heap_blocks"), 1u) << "1000 streams out: the heap";
		EXPECT_GE(heap_in_use(d), 1000u * 12u);
	}
	close(a, *s);
	EXPECT_EQ(heap_in_use(c_) + heap_in_use(s_), 0u);
}

} // namespace
