/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] An application may end an association from inside any of its own
// callbacks: dpsctp_abort() or dpsctp_shutdown() called from on_recv (with
// more messages of the same packet still to deliver), from on_event and
// from on_space. The call returns at once and takes effect when the core is
// done with the packet or timer that called back; the association ends once
// (one end event), its block is freed once (the association counts come
// back to 0, never below) and every mbuf goes back (DpPair's teardown).
// dpsctpd aborts an association from inside on_recv when an application's
// backlog is full: before the fix that freed the block in the middle of
// the delivery and again after it.
#include <gtest/gtest.h>

#include <string>

#include "dataplane/tests/dp_pair.h"

namespace {

constexpr uint16_t kPort = 7108;

enum class End { none, abort, shutdown };

struct App {
	dpsctp_assoc *a = nullptr;
	bool up = false, ended = false;
	unsigned ends = 0, recvs = 0, space_calls = 0;
	End on_recv = End::none, on_up = End::none, on_space = End::none;
	int first_rc = 1; // what the first call from inside a callback returned
	dpsctp_event end_ev{};
};

void
end_it(App *p, dpsctp_assoc *a, End how)
{
	if (how == End::none)
		return;
	int rc = how == End::abort ? dpsctp_abort(a) : dpsctp_shutdown(a);
	if (p->first_rc == 1)
		p->first_rc = rc;
}

void
on_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	App *p = static_cast<App *>(arg);
	if (ev->type == DPSCTP_EV_COMM_UP) {
		p->a = a;
		p->up = true;
		end_it(p, a, p->on_up);
	}
	if (ev->type == DPSCTP_EV_COMM_LOST || ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE ||
	    ev->type == DPSCTP_EV_CANT_START) {
		p->ended = true;
		p->ends++;
		p->end_ev = *ev;
		p->a = nullptr;
	}
}

void
on_recv(dpsctp_assoc *a, const dpsctp_msg *, void *arg)
{
	App *p = static_cast<App *>(arg);
	p->recvs++;
	end_it(p, a, p->on_recv); // every time, as dpsctpd's full backlog does
}

void
on_space(dpsctp_assoc *a, uint32_t, void *arg)
{
	App *p = static_cast<App *>(arg);
	p->space_calls++;
	end_it(p, a, p->on_space);
}

const dpsctp_callbacks kCb = { on_recv, on_event, on_space };

class DpReentry : public DpPair {
      protected:
	void SetUp() override
	{
		open_pair("re", {}, {});
		ASSERT_EQ(dpsctp_listen(s_, kPort, &kCb, &server_), 0);
	}
	void connect()
	{
		ASSERT_NE(connect_to(kPort, &kCb, &client_), nullptr);
		ASSERT_TRUE(until([&] { return client_.ended || (client_.up && server_.up); }))
			<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
	}
	// n small messages in one packet (DPSCTP_SEND_MORE, then a flush).
	void send_bundle(unsigned n)
	{
		for (unsigned i = 0; i < n; i++) {
			std::string m = "message " + std::to_string(i);
			dpsctp_sndinfo si{};
			si.flags = i + 1 < n ? DPSCTP_SEND_MORE : 0;
			ASSERT_EQ(dpsctp_send_bytes(client_.a, &si, m.data(), m.size()), 0) << i;
		}
	}
	void both_ended()
	{
		ASSERT_TRUE(until([&] { return client_.ended && server_.ended; }))
			<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
		for (int i = 0; i < 1000; i++)
			poll();
		EXPECT_EQ(client_.ends, 1u);
		EXPECT_EQ(server_.ends, 1u) << "one end event, however often it was asked";
		EXPECT_EQ(dpsctp_assoc_count(c_), 0u);
		EXPECT_EQ(dpsctp_assoc_count(s_), 0u) << "the block freed once, never twice";
	}
	App client_, server_;
};

TEST_F(DpReentry, AbortFromOnRecvWithMoreOfThePacketToDeliver)
{
	connect();
	server_.on_recv = End::abort;
	send_bundle(40);
	both_ended();
	EXPECT_EQ(server_.first_rc, 0);
	EXPECT_GE(server_.recvs, 1u);
	EXPECT_EQ(server_.end_ev.type, DPSCTP_EV_COMM_LOST);
	EXPECT_EQ(client_.end_ev.type, DPSCTP_EV_COMM_LOST) << "the peer got the ABORT";
	EXPECT_EQ(counter(s_, "assocs_created"), counter(s_, "assocs_freed"));
}

TEST_F(DpReentry, ShutdownFromOnRecvDeliversTheRestOfThePacket)
{
	connect();
	server_.on_recv = End::shutdown;
	send_bundle(40);
	both_ended();
	EXPECT_EQ(server_.first_rc, 0);
	EXPECT_EQ(server_.recvs, 40u) << "a graceful close loses nothing already received";
	EXPECT_EQ(server_.end_ev.type, DPSCTP_EV_SHUTDOWN_COMPLETE);
	EXPECT_EQ(client_.end_ev.type, DPSCTP_EV_SHUTDOWN_COMPLETE);
}

TEST_F(DpReentry, AbortFromCommUp)
{
	server_.on_up = End::abort;
	connect();
	both_ended();
	EXPECT_EQ(server_.first_rc, 0);
	EXPECT_EQ(client_.end_ev.type, DPSCTP_EV_COMM_LOST);
}

TEST_F(DpReentry, AbortFromOnSpace)
{
	connect();
	client_.on_space = End::abort;
	// Fill the send buffer until a send is refused for room: on_space
	// follows when SACKs free it.
	std::string big(8000, 'x');
	dpsctp_sndinfo si{};
	int rc = 0;
	for (int i = 0; i < 10000 && rc == 0; i++)
		rc = dpsctp_send_bytes(client_.a, &si, big.data(), big.size());
	ASSERT_EQ(rc, -EAGAIN);
	both_ended();
	EXPECT_GE(client_.space_calls, 1u);
	EXPECT_EQ(client_.first_rc, 0);
	EXPECT_EQ(server_.end_ev.type, DPSCTP_EV_COMM_LOST);
}

} // namespace
