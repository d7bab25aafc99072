/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] DPDK telemetry: two instances over a net_ring pair with an
// association moving messages; a second thread connects to the EAL's
// telemetry socket (what dpdk-telemetry.py does) and asks /dpsctp/stats,
// /dpsctp/lcores and /dpsctp/assocs while the test thread keeps polling.
// The paging case walks 64 associations on two workers page by page: every
// association exactly once, and no reply larger than the 16 KiB DPDK 22.11
// writes (larger replies lose entries silently).
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
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
		// The runtime dir (config, fbarrays: about 1 MB) outlives the EAL:
		// remove ours, named by our pid.
		std::string dir = rte_eal_get_runtime_dir();
		rte_eal_cleanup();
		if (dir.size() > prefix_.size() &&
		    dir.compare(dir.size() - prefix_.size(), prefix_.size(), prefix_) == 0)
			std::filesystem::remove_all(dir);
	}

      private:
	std::string prefix_ = "/dpsctp_tel_" + std::to_string(getpid());
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

// The unsigned or negative number after "key": in a reply, or `missing`.
long long
json_num(const std::string &reply, const std::string &key, long long missing = -999)
{
	size_t at = reply.find("\"" + key + "\":");
	if (at == std::string::npos)
		return missing;
	return std::strtoll(reply.c_str() + at + key.size() + 3, nullptr, 10);
}

// The association ids of an /dpsctp/assocs reply: its keys whose value is an object.
std::vector<std::string>
row_ids(const std::string &reply)
{
	std::vector<std::string> ids;
	static const std::regex row("\"([0-9]+)\":\\{");
	for (std::sregex_iterator it(reply.begin(), reply.end(), row), end; it != end; ++it)
		ids.push_back((*it)[1]);
	return ids;
}

// dpdk-telemetry.py fed one command on stdin (non-interactive), pointed at
// our runtime directory: <RUNTIME_DIRECTORY>/dpdk/<file prefix>. Its output,
// or "" when the script is not installed.
std::string
run_telemetry_py(const std::string &cmd)
{
	const char *script = "/usr/bin/dpdk-telemetry.py";
	if (access(script, X_OK) != 0)
		return "";
	std::string dir = rte_eal_get_runtime_dir(); // <base>/dpdk/<prefix>
	std::string prefix = dir.substr(dir.rfind('/') + 1);
	std::string base = dir.substr(0, dir.rfind('/'));
	base = base.substr(0, base.rfind('/'));
	std::string line = "echo '" + cmd + "' | RUNTIME_DIRECTORY='" + base + "' python3 " +
			   script + " -f '" + prefix + "' 2>&1";
	std::string out;
	FILE *f = popen(line.c_str(), "r");
	if (f == nullptr)
		return "popen failed";
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		out.append(buf, n);
	pclose(f);
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
	sctp_addr peer = { 4, { 10, 0, 0, 2 } };
	int rc;
	ASSERT_NE(dpsctp_connect(c, 0, &peer, 1, 6001, 0, &kC, &on_up_c, &rc), nullptr);
	for (int i = 0; i < 1000000 && !(on_up_c && on_up_s); i++) {
		dpsctp_poll(c, 0);
		dpsctp_poll(s, 0);
	}
	ASSERT_TRUE(on_up_c && on_up_s);
	dpsctp_sndinfo si = { 0, 0, 0, DPSCTP_PR_NONE, 0, 0 };
	for (int i = 0; i < 100; i++) {
		ASSERT_EQ(dpsctp_send_bytes(client_assoc, &si, "hello", 5), 0);
		dpsctp_poll(c, 0);
		dpsctp_poll(s, 0);
	}

	std::atomic<bool> done{ false };
	std::string stats, lcores, assocs, page2, bad, script;
	std::thread q([&] {
		stats = ask("/dpsctp/stats");
		lcores = ask("/dpsctp/lcores");
		assocs = ask("/dpsctp/assocs,0,8");
		page2 = ask("/dpsctp/assocs,5,8");
		bad = ask("/dpsctp/stats,7");
		script = run_telemetry_py("/dpsctp/assocs");
		done = true;
	});
	while (!done) { // the workers answer /dpsctp/assocs from their loops
		dpsctp_poll(c, 0);
		dpsctp_poll(s, 0);
	}
	q.join();
	ASSERT_NE(stats, "") << "no telemetry socket under " << rte_eal_get_runtime_dir();
	// Instance 0 is the client (created first).
	EXPECT_GT(json_num(stats, "rx_packets"), 0) << stats;
	EXPECT_GT(json_num(stats, "rx_sctp"), 0) << stats;
	EXPECT_EQ(json_num(stats, "msgs_sent"), 100) << stats;
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
	// Both ends offer PR-SCTP, I-DATA and RE-CONFIG by default (--extensions):
	// negotiated, named; RE-CONFIG's counters beside.
	EXPECT_NE(assocs.find("\"extensions\":\"pr-sctp,i-data,reconfig\""), std::string::npos)
		<< assocs;
	EXPECT_NE(assocs.find("\"reconf_requests\":0"), std::string::npos) << assocs;
	EXPECT_NE(assocs.find("\"reconf_denied\":0"), std::string::npos) << assocs;
	EXPECT_NE(assocs.find("\"abandoned_msgs\":0"), std::string::npos) << assocs;
	EXPECT_NE(assocs.find("\"next\":-1"), std::string::npos) << assocs;
	EXPECT_EQ(page2.find("ESTABLISHED"), std::string::npos) << page2; // past the end
	EXPECT_NE(page2.find("\"next\":-1"), std::string::npos) << page2;
	EXPECT_NE(bad.find("no such dpsctp instance"), std::string::npos) << bad;
	if (script.empty()) {
		std::printf("dpdk-telemetry.py not installed: its run is skipped\n");
	} else {
		EXPECT_NE(script.find("\"/dpsctp/assocs\""), std::string::npos) << script;
		EXPECT_NE(script.find("ESTABLISHED"), std::string::npos) << script;
	}

	ASSERT_EQ(dpsctp_shutdown(client_assoc), 0);
	for (int i = 0; i < 1000000 && dpsctp_assoc_count(c) + dpsctp_assoc_count(s) != 0; i++) {
		dpsctp_poll(c, 0);
		dpsctp_poll(s, 0);
	}
	EXPECT_EQ(dpsctp_stop(c, 100) + dpsctp_stop(s, 100), 0);
	dpsctp_destroy(c);
	dpsctp_destroy(s);
}

// 64 associations on two client workers, listed page by page.
TEST(DpTelemetry, AssocPagesListEveryAssociationOnce)
{
	const unsigned kAssocs = 64;
	RingLink link("telp", 2);
	ASSERT_GE(link.a, 0);
	char err[256];
	dpsctp_config cc = dp_test_config(link.name_a, "10.0.1.1/24", 2, 0);
	dpsctp_config sc = dp_test_config(link.name_b, "10.0.1.2/24", 2, 0);
	dpsctp *c = dpsctp_create(&cc, err, sizeof(err));
	ASSERT_NE(c, nullptr) << err;
	dpsctp *s = dpsctp_create(&sc, err, sizeof(err));
	ASSERT_NE(s, nullptr) << err;
	ASSERT_EQ(dpsctp_workers(c), 2u);
	static unsigned ups;
	ups = 0;
	static const dpsctp_callbacks cb = { on_recv,
					     [](dpsctp_assoc *, const dpsctp_event *ev, void *) {
						     if (ev->type == DPSCTP_EV_COMM_UP)
							     ups++;
					     },
					     nullptr };
	ASSERT_EQ(dpsctp_listen(s, 6002, &cb, nullptr), 0);
	sctp_addr peer = { 4, { 10, 0, 1, 2 } };
	std::vector<dpsctp_assoc *> mine;
	auto poll_all = [&] {
		for (unsigned w = 0; w < 2; w++) {
			dpsctp_poll(c, w);
			dpsctp_poll(s, w);
		}
	};
	// One association per worker first: its handshake resolves the
	// neighbours (each worker has its own table), so the other 62 INITs are
	// not parked behind ARP (a full park drops them until T1-init fires).
	// Local ports are given: two workers' random ephemeral ports may meet.
	for (unsigned i = 0; i < kAssocs; i++) {
		int rc = 0;
		dpsctp_assoc *a = dpsctp_connect(c, i % 2, &peer, 1, 6002, (uint16_t)(40000 + i),
						 &cb, nullptr, &rc);
		ASSERT_NE(a, nullptr) << "connect " << i << ": " << rc;
		mine.push_back(a);
		if (i == 1) {
			for (int k = 0; k < 1000000 && ups < 4; k++)
				poll_all();
			ASSERT_EQ(ups, 4u) << dp_test_counters(c) << dp_test_counters(s);
		}
	}
	for (int i = 0; i < 1000000 && ups < 2 * kAssocs; i++)
		poll_all();
	ASSERT_EQ(ups, 2 * kAssocs) << dp_test_counters(c) << dp_test_counters(s);
	ASSERT_EQ(dpsctp_assoc_count(c), kAssocs);

	std::atomic<bool> done{ false };
	std::vector<std::string> small, dflt;
	std::string info, beyond, lcores, lcore1, nowk;
	std::thread q([&] {
		info = ask("/info");
		// COUNT 7: the pages follow "next" to the end.
		for (long long start = 0; start >= 0 && small.size() < 100;) {
			small.push_back(ask("/dpsctp/assocs," + std::to_string(start) + ",7"));
			start = json_num(small.back(), "next");
		}
		// The default COUNT (64): as many as fit in one reply, then "next".
		for (long long start = 0; start >= 0 && dflt.size() < 100;) {
			dflt.push_back(ask("/dpsctp/assocs," + std::to_string(start)));
			start = json_num(dflt.back(), "next");
		}
		beyond = ask("/dpsctp/assocs,64,256");
		lcores = ask("/dpsctp/lcores");
		lcore1 = ask("/dpsctp/lcores,0,1");
		nowk = ask("/dpsctp/lcores,0,2");
		done = true;
	});
	while (!done)
		poll_all();
	q.join();

	long long max_out = json_num(info, "max_output_len");
	ASSERT_GT(max_out, 0) << info;
	for (const auto *pages : { &small, &dflt }) {
		std::set<std::string> seen;
		for (size_t p = 0; p < pages->size(); p++) {
			const std::string &r = (*pages)[p];
			EXPECT_LT((long long)r.size(), max_out)
				<< "page " << p << " was cut: " << r;
			EXPECT_EQ(r.substr(r.size() - 2), "}}") << r;
			EXPECT_EQ(r.find("\"error\""), std::string::npos) << r;
			auto ids = row_ids(r);
			EXPECT_FALSE(ids.empty()) << "page " << p << ": " << r;
			if (pages == &small) {
				EXPECT_EQ(ids.size(), p + 1 < pages->size() ? 7u : kAssocs % 7)
					<< r;
			}
			for (const auto &id : ids)
				EXPECT_TRUE(seen.insert(id).second)
					<< "association " << id << " twice";
			EXPECT_NE(json_num(r, "next", -999), -999) << "no \"next\": " << r;
		}
		EXPECT_EQ(seen.size(), kAssocs);
	}
	EXPECT_EQ(small.size(), (kAssocs + 6) / 7);
	EXPECT_TRUE(row_ids(beyond).empty()) << beyond;
	EXPECT_EQ(json_num(beyond, "next"), -1) << beyond;
	EXPECT_NE(lcores.find("\"worker0\""), std::string::npos) << lcores;
	EXPECT_NE(lcores.find("\"worker1\""), std::string::npos) << lcores;
	EXPECT_EQ(lcores.find("not_shown"), std::string::npos) << lcores;
	EXPECT_EQ(lcore1.find("\"worker0\""), std::string::npos) << lcore1;
	EXPECT_EQ(json_num(lcore1, "associations"), kAssocs / 2) << lcore1;
	EXPECT_NE(nowk.find("no such worker"), std::string::npos) << nowk;

	for (dpsctp_assoc *a : mine)
		ASSERT_EQ(dpsctp_abort(a), 0);
	for (int i = 0; i < 1000000 && dpsctp_assoc_count(c) + dpsctp_assoc_count(s) != 0; i++)
		poll_all();
	EXPECT_EQ(dpsctp_assoc_count(c) + dpsctp_assoc_count(s), 0u);
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
