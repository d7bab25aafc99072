/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] --stage-cycles (dataplane/dp_stage.h, dpsctp_worker_stage()): a server
// counting its stages receives 200 messages from a client that does not.
// The client answers -ENOTSUP; the server names every stage once, in the
// order of a poll, and the entries of the stages that run once per
// packet match the counters that count those packets (CRC32c checked in
// software, packets parsed, messages delivered, chains copied; the frames
// freed once per burst): the boundaries are where the documentation says. Cycles are only required
// to be there, not to be any size (a speed belongs in a benchmark: dpsctp-perf --stages).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "dataplane/tests/dp_pair.h"

namespace {

constexpr uint16_t kPort = 5001;

using App = DpPairApp;
const dpsctp_callbacks kCb = DpPairApp::callbacks();

class DpStage : public DpPair {};

TEST_F(DpStage, StagesAreCountedWhereTheDocumentationSays)
{
	open_pair("stage", {}, { { "stage-cycles", "on" }, { "sctp-port", "0" } });
	App client, server;
	ASSERT_EQ(dpsctp_listen(s_, kPort, &kCb, &server), 0);
	client.a = connect_to(kPort, &kCb, &client);
	ASSERT_TRUE(until([&] { return client.up && server.up; }));
	for (uint32_t k = 0; k < 200; k++) {
		dpsctp_sndinfo si = { 0, k, 0, DPSCTP_PR_NONE, 0, 0 };
		int rc;
		for (int tries = 0;
		     (rc = dpsctp_send_bytes(client.a, &si, "stage", 5)) != 0 && tries < 100000;
		     tries++)
			poll();
		ASSERT_EQ(rc, 0);
	}
	ASSERT_TRUE(until([&] { return server.msgs >= 200; }));
	EXPECT_EQ(server.msgs, 200u);
	for (int i = 0; i < 1000; i++)
		poll();

	const char *name = "x";
	uint64_t cycles = 0, events = 0;
	EXPECT_EQ(dpsctp_worker_stage(c_, 0, 0, &name, &cycles, &events), -ENOTSUP);
	EXPECT_EQ(name, nullptr);
	EXPECT_EQ(dpsctp_worker_stage(s_, 1, 0, &name, &cycles, &events), -EINVAL);

	std::map<std::string, std::pair<uint64_t, uint64_t>> st;
	std::vector<std::string> order;
	unsigned i = 0;
	for (; dpsctp_worker_stage(s_, 0, i, &name, &cycles, &events) == 0; i++) {
		ASSERT_NE(name, nullptr);
		order.push_back(name);
		st[name] = { cycles, events };
	}
	EXPECT_EQ(dpsctp_worker_stage(s_, 0, i, &name, &cycles, &events), -ENOENT);
	EXPECT_EQ(name, nullptr);
	const std::vector<std::string> want = { "rx_burst", "rx_copy",	"l3",	    "crc",
						"parse",    "lookup",	"core",	    "deliver",
						"app",	    "rearm",	"tx_build", "tx_burst",
						"timers",   "requests", "rx_free",  "idle",
						"other" };
	EXPECT_EQ(order, want);
	for (const auto &kv : st)
		printf("%-9s %12lu cycles %8lu entries\n", kv.first.c_str(),
		       (unsigned long)kv.second.first, (unsigned long)kv.second.second);

	// One entry per packet checked, parsed, per message delivered.
	uint64_t crc = counter(s_, "rx_crc_software"), bad = counter(s_, "drop_bad_crc");
	EXPECT_GT(crc, 0u);
	EXPECT_EQ(st["crc"].second, crc);
	EXPECT_EQ(st["parse"].second, crc - bad);
	EXPECT_EQ(st["deliver"].second, 200u);
	EXPECT_EQ(st["rx_copy"].second, counter(s_, "rx_linearized"));
	// The handled frames go back in bulk, once per receive phase of a poll.
	EXPECT_GT(st["rx_free"].second, 0u);
	EXPECT_LE(st["rx_free"].second, st["rx_burst"].second);
	// Every SCTP packet parsed reached an association or the endpoint.
	EXPECT_EQ(st["core"].second, st["parse"].second - counter(s_, "drop_malformed"));
	EXPECT_GE(st["tx_build"].second, 1u) << "SACKs";
	EXPECT_GT(st["idle"].second, 0u) << "polls with nothing to do";
	for (const char *s : { "rx_burst", "l3", "crc", "core", "deliver", "idle" })
		EXPECT_GT(st[s].first, 0u) << s;
	close_pair(client, server);
}

} // namespace
