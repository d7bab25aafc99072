/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] DPDK telemetry: two instances over a net_ring pair with an
// association moving messages; a second thread connects to the EAL's
// telemetry socket (what dpdk-telemetry.py does) and asks /dpsctp/stats,
// /dpsctp/lcores and /dpsctp/assocs while the test thread keeps polling.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "dataplane/tests/dp_env.h"

namespace {

class TelemetryEal : public ::testing::Environment {
      public:
	void SetUp() override
	{
		std::string prefix = "dpsctp_tel_" + std::to_string(getpid());
		static std::string fp = "--file-prefix=" + prefix;
		static const char *args[] = {
			"dp_telemetry_test", "--no-huge",   "--no-pci",	    "-m", "1024", "-l", "0",
			fp.c_str(),	     "--log-level", "lib.eal:error"
		};
		std::vector<char *> argv;
		for (const char *a : args)
			argv.push_back(const_cast<char *>(a));
		ASSERT_GE(dpsctp_eal_init((int)argv.size(), argv.data()), 0);
	}
	void TearDown() override
	{
		rte_eal_cleanup();
	}
};

// One request on the telemetry socket; the reply (a JSON object), or "" on error.
std::string
ask(const std::string &cmd)
{
	std::string path = std::string(rte_eal_get_runtime_dir()) + "/dpdk_telemetry.v2";
	int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return "";
	sockaddr_un sun = {};
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path.c_str());
	std::string out;
	char buf[65536];
	if (connect(fd, (sockaddr *)&sun, sizeof(sun)) == 0 &&
	    read(fd, buf, sizeof(buf)) > 0 /* the greeting */ &&
	    write(fd, cmd.data(), cmd.size()) == (ssize_t)cmd.size()) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n > 0)
			out.assign(buf, (size_t)n);
	}
	close(fd);
	return out;
}

bool on_up_c = false, on_up_s = false;
dpsctp_assoc *client_assoc = nullptr;

void
on_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	if (ev->type == DPSCTP_EV_COMM_UP) {
		*(bool *)arg = true;
		if (arg == &on_up_c)
			client_assoc = a;
	}
}

void
on_recv(dpsctp_assoc *, const dpsctp_msg *, void *)
{
}

const dpsctp_callbacks kC = { on_recv, on_event, nullptr };

TEST(DpTelemetry, StatsLcoresAndAssocsWhileRunning)
{
	RingLink link("tel", 1);
	ASSERT_GE(link.a, 0);
	char err[256];
	dpsctp_config cc = dp_test_config(link.name_a, "10.0.0.1/24", 1, 0);
	dpsctp_config sc = dp_test_config(link.name_b, "10.0.0.2/24", 1, 0);
	dpsctp *c = dpsctp_create(&cc, err, sizeof(err));
	ASSERT_NE(c, nullptr) << err;
	dpsctp *s = dpsctp_create(&sc, err, sizeof(err));
	ASSERT_NE(s, nullptr) << err;
	ASSERT_EQ(dpsctp_listen(s, 6001, &kC, &on_up_s), 0);
	dpsctp_addr peer = { 4, { 10, 0, 0, 2 } };
	int rc;
	ASSERT_NE(dpsctp_connect(c, 0, &peer, 1, 6001, 0, &kC, &on_up_c, &rc), nullptr);
	for (int i = 0; i < 1000000 && !(on_up_c && on_up_s); i++) {
		dpsctp_poll(c, 0);
		dpsctp_poll(s, 0);
	}
	ASSERT_TRUE(on_up_c && on_up_s);
	dpsctp_sndinfo si = { 0, 0, 0 };
	for (int i = 0; i < 100; i++) {
		ASSERT_EQ(dpsctp_send_bytes(client_assoc, &si, "hello", 5), 0);
		dpsctp_poll(c, 0);
		dpsctp_poll(s, 0);
	}

	std::atomic<bool> done{ false };
	std::string stats, lcores, assocs, page2, bad;
	std::thread q([&] {
		stats = ask("/dpsctp/stats");
		lcores = ask("/dpsctp/lcores");
		assocs = ask("/dpsctp/assocs,0,8");
		page2 = ask("/dpsctp/assocs,5,8");
		bad = ask("/dpsctp/stats,7");
		done = true;
	});
	while (!done) { // the workers answer /dpsctp/assocs from their loops
		dpsctp_poll(c, 0);
		dpsctp_poll(s, 0);
	}
	q.join();
	ASSERT_NE(stats, "") << "no telemetry socket under " << rte_eal_get_runtime_dir();
	// Instance 0 is the client (created first).
	EXPECT_NE(stats.find("\"rx_sctp\":"), std::string::npos) << stats;
	EXPECT_NE(stats.find("\"drop_bad_crc\":0"), std::string::npos) << stats;
	EXPECT_NE(stats.find("\"l3\":{"), std::string::npos) << stats;
	EXPECT_NE(stats.find("\"arp_bad_sender\":"), std::string::npos) << stats;
	EXPECT_NE(stats.find("\"ep\":{"), std::string::npos) << stats;
	EXPECT_NE(stats.find("\"assoc\":{"), std::string::npos) << stats;
	EXPECT_NE(stats.find("\"associations\":1"), std::string::npos) << stats;
	EXPECT_NE(lcores.find("\"worker0\""), std::string::npos) << lcores;
	EXPECT_NE(lcores.find("polled by the application"), std::string::npos) << lcores;
	EXPECT_NE(assocs.find("\"state\":\"ESTABLISHED\""), std::string::npos) << assocs;
	EXPECT_NE(assocs.find("\"peer\":\"10.0.0.2\""), std::string::npos) << assocs;
	EXPECT_NE(assocs.find("\"peer_port\":6001"), std::string::npos) << assocs;
	EXPECT_NE(assocs.find("\"msgs_sent\":100"), std::string::npos) << assocs;
	EXPECT_NE(assocs.find("\"next\":-1"), std::string::npos) << assocs;
	EXPECT_EQ(page2.find("ESTABLISHED"), std::string::npos) << page2; // past the end
	EXPECT_NE(page2.find("\"next\":-1"), std::string::npos) << page2;
	EXPECT_NE(bad.find("no such dpsctp instance"), std::string::npos) << bad;

	ASSERT_EQ(dpsctp_shutdown(client_assoc), 0);
	for (int i = 0; i < 1000000 && dpsctp_assoc_count(c) + dpsctp_assoc_count(s) != 0; i++) {
		dpsctp_poll(c, 0);
		dpsctp_poll(s, 0);
	}
	EXPECT_EQ(dpsctp_stop(c, 100) + dpsctp_stop(s, 100), 0);
	dpsctp_destroy(c);
	dpsctp_destroy(s);
}

} // namespace

int
main(int argc, char **argv)
{
	::testing::InitGoogleTest(&argc, argv);
	::testing::AddGlobalTestEnvironment(new TelemetryEal);
	return RUN_ALL_TESTS();
}
