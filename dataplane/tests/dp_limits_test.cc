/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] A full instance refuses explicitly and keeps serving (docs/MEMORY.md
// "The limits"): a server sized for kMax associations that is asked for
// more answers each COOKIE ECHO beyond them with ABORT, Out of Resource
// (counted drop_no_conn_memory), so the peers' handshakes end at once with
// that cause instead of retransmitting into silence; the associations it
// has carry messages both ways as before; and once one of them ends its
// block serves the next peer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dataplane/tests/dp_pair.h"

namespace {

constexpr uint16_t kPort = 7121;
constexpr unsigned kMax = 8;		    // the server's --max-assocs
constexpr unsigned kExtra = 5;		    // peers beyond them
constexpr uint16_t kCauseOutOfResource = 4; // RFC 9260 §3.3.10.4

// One end's associations and what happened to them.
struct Ends {
	std::vector<dpsctp_assoc *> up;
	unsigned cant_start = 0, out_of_resource = 0, ended = 0;
	uint64_t msgs = 0;

	static dpsctp_callbacks callbacks()
	{
		dpsctp_callbacks cb = {};
		cb.on_recv = [](dpsctp_assoc *, const dpsctp_msg *, void *arg) {
			static_cast<Ends *>(arg)->msgs++;
		};
		cb.on_event = [](dpsctp_assoc *a, const dpsctp_event *ev, void *arg) {
			Ends *e = static_cast<Ends *>(arg);
			if (ev->type == DPSCTP_EV_COMM_UP)
				e->up.push_back(a);
			if (ev->type == DPSCTP_EV_CANT_START) {
				e->cant_start++;
				if (ev->reason == DPSCTP_REASON_PEER_ABORT &&
				    ev->error == kCauseOutOfResource)
					e->out_of_resource++;
			}
			if (ev->type == DPSCTP_EV_COMM_LOST ||
			    ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE)
				e->ended++;
		};
		return cb;
	}
};

class DpLimits : public DpPair {};

TEST_F(DpLimits, AFullServerRefusesWithOutOfResourceAndKeepsServing)
{
	open_pair("lim", { { "max-assocs", "64" } }, { { "max-assocs", std::to_string(kMax) } });
	Ends cli, srv;
	const dpsctp_callbacks cb = Ends::callbacks();
	ASSERT_EQ(dpsctp_listen(s_, kPort, &cb, &srv), 0);

	// kMax + kExtra peers at once: kMax get a block, the rest an ABORT.
	for (unsigned i = 0; i < kMax + kExtra; i++)
		ASSERT_NE(connect_to(kPort, &cb, &cli), nullptr) << i;
	ASSERT_TRUE(until([&] { return cli.up.size() + cli.cant_start == kMax + kExtra; }))
		<< cli.up.size() << " up, " << cli.cant_start << " refused; "
		<< dp_test_counters(s_);
	EXPECT_EQ(cli.up.size(), kMax);
	EXPECT_EQ(srv.up.size(), kMax);
	EXPECT_EQ(cli.cant_start, kExtra);
	EXPECT_EQ(cli.out_of_resource, kExtra) << "the refusal names its cause";
	// At once: each refused peer sent its COOKIE ECHO once (a retransmitted
	// one would be refused and counted again).
	EXPECT_EQ(counter(s_, "drop_no_conn_memory"), kExtra) << dp_test_counters(s_);

	// The associations the server has carry a message each way.
	const dpsctp_sndinfo si = {};
	for (dpsctp_assoc *a : cli.up)
		ASSERT_EQ(dpsctp_send_bytes(a, &si, "in", 2), 0);
	for (dpsctp_assoc *a : srv.up)
		ASSERT_EQ(dpsctp_send_bytes(a, &si, "out", 3), 0);
	ASSERT_TRUE(until([&] { return srv.msgs == kMax && cli.msgs == kMax; }))
		<< srv.msgs << " " << cli.msgs;
	EXPECT_EQ(cli.ended + srv.ended, 0u);

	// One ends; its block takes the next peer.
	ASSERT_EQ(dpsctp_shutdown(cli.up[0]), 0);
	ASSERT_TRUE(until([&] { return cli.ended == 1 && srv.ended == 1; }));
	ASSERT_NE(connect_to(kPort, &cb, &cli), nullptr);
	ASSERT_TRUE(until([&] { return cli.up.size() == kMax + 1 || cli.cant_start > kExtra; }));
	EXPECT_EQ(cli.up.size(), kMax + 1);
	EXPECT_EQ(srv.up.size(), kMax + 1);
	EXPECT_EQ(counter(s_, "drop_no_conn_memory"), kExtra);

	for (size_t i = 1; i < cli.up.size(); i++)
		ASSERT_EQ(dpsctp_shutdown(cli.up[i]), 0);
	ASSERT_TRUE(until([&] { return cli.ended == kMax + 1 && srv.ended == kMax + 1; }))
		<< cli.ended << " " << srv.ended;
}

} // namespace
