// SPDX-License-Identifier: BSD-3-Clause
// Attaching to the daemon (dataplane/sidecar/sc_server.h) through the
// client library (dpsctp_client.h), both in this process with the server
// polled on its own thread: two applications get their own regions; one
// that dies is detached; garbage on the socket is refused without touching
// the attached ones; limits answer -E2BIG and -EBUSY; when the daemon goes
// the client sees -ECONNRESET and attaches to the next one.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>

#include "dataplane/sidecar/dpsctp_client.h"
#include "dataplane/sidecar/sc_server.h"

namespace {

class Server {
      public:
	explicit Server(uint64_t generation, uint32_t max_apps = 4)
	{
		path_ = "/tmp/dpsctp-sc-test-" + std::to_string(getpid()) + ".sock";
		struct sc_server_limits lim = { max_apps, 4, 256, 1 << 16 };
		EXPECT_EQ(sc_server_open(&s_, path_.c_str(), &lim, generation), 0);
		// The table belongs to the poll thread; the test counts through callbacks.
		s_.on_attach = [](struct sc_server *, struct sc_app *, void *arg) {
			((Server *)arg)->attached_.fetch_add(1);
		};
		s_.on_detach = [](struct sc_server *, struct sc_app *, void *arg) {
			((Server *)arg)->detached_.fetch_add(1);
		};
		s_.arg = this;
		t_ = std::thread([this] {
			while (!stop_)
				sc_server_poll(&s_, 20);
		});
	}
	~Server()
	{
		stop();
	}
	void stop()
	{
		if (t_.joinable()) {
			stop_ = true;
			t_.join();
			sc_server_close(&s_, path_.c_str());
		}
	}
	const char *path() const
	{
		return path_.c_str();
	}
	bool wait_apps(int n)
	{
		for (int i = 0; i < 500; i++) {
			if (attached_.load() - detached_.load() == n)
				return true;
			usleep(10000);
		}
		return false;
	}
	struct sc_server s_;
	std::atomic<int> attached_{ 0 }, detached_{ 0 };

      private:
	std::string path_;
	std::thread t_;
	std::atomic<bool> stop_{ false };
};

TEST(ScServer, TwoApplicationsGetTheirOwnRegions)
{
	Server srv(1);
	struct dpsctp_client_opts o = { 2, 0, 0, "app-a" };
	int err;
	struct dpsctp_client *a = dpsctp_client_attach(srv.path(), &o, &err);
	ASSERT_NE(a, nullptr) << err;
	o.name = "app-b";
	o.threads = 1;
	struct dpsctp_client *b = dpsctp_client_attach(srv.path(), &o, &err);
	ASSERT_NE(b, nullptr) << err;
	EXPECT_NE(dpsctp_client_id(a), dpsctp_client_id(b));
	EXPECT_GE(dpsctp_client_fd(a, 1), 0);
	EXPECT_EQ(dpsctp_client_fd(b, 1), -EINVAL); // b has one thread
	EXPECT_NE(dpsctp_client_fd(a, 0), dpsctp_client_fd(b, 0));
	ASSERT_TRUE(srv.wait_apps(2));
	EXPECT_EQ(dpsctp_client_check(a), 0);
	dpsctp_client_detach(a);
	ASSERT_TRUE(srv.wait_apps(1));
	EXPECT_EQ(srv.detached_.load(), 1);
	dpsctp_client_detach(b);
	ASSERT_TRUE(srv.wait_apps(0));
}

TEST(ScServer, AnApplicationThatDiesIsDetached)
{
	Server srv(2);
	pid_t pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int err;
		struct dpsctp_client *c = dpsctp_client_attach(srv.path(), nullptr, &err);
		_exit(c != nullptr ? 0 : 1); // dies attached: no detach
	}
	int st;
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ASSERT_TRUE(srv.wait_apps(0));
	EXPECT_EQ(srv.attached_.load(), 1);
	EXPECT_EQ(srv.detached_.load(), 1);
}

TEST(ScServer, GarbageIsRefusedAndTheOthersAreUntouched)
{
	Server srv(3);
	int err;
	struct dpsctp_client *good = dpsctp_client_attach(srv.path(), nullptr, &err);
	ASSERT_NE(good, nullptr) << err;
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	struct sockaddr_un sa = {};
	sa.sun_family = AF_UNIX;
	strcpy(sa.sun_path, srv.path());
	ASSERT_EQ(connect(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	const char junk[] = "GET / HTTP/1.0\r\n\r\n";
	ASSERT_EQ(send(s, junk, sizeof(junk), 0), (ssize_t)sizeof(junk));
	char buf[256];
	EXPECT_GT(recv(s, buf, sizeof(buf), 0), 0); // a refusal, then EOF
	EXPECT_EQ(recv(s, buf, sizeof(buf), 0), 0);
	close(s);
	EXPECT_EQ(dpsctp_client_check(good), 0);
	ASSERT_TRUE(srv.wait_apps(1));
	srv.stop(); // the counters belong to the poll thread
	EXPECT_EQ(srv.s_.ctr.bad_hello, 1u);
	EXPECT_EQ(srv.s_.ctr.refused, 1u);
	dpsctp_client_detach(good);
}

TEST(ScServer, LimitsAreAnsweredWithTheirReason)
{
	Server srv(4, 1);
	int err;
	struct dpsctp_client_opts o = { 5, 0, 0, "greedy" }; // the daemon allows 4 threads
	EXPECT_EQ(dpsctp_client_attach(srv.path(), &o, &err), nullptr);
	EXPECT_EQ(err, -E2BIG);
	o = { 1, 0, 1 << 20, "greedy" }; // and 64 KiB arenas
	EXPECT_EQ(dpsctp_client_attach(srv.path(), &o, &err), nullptr);
	EXPECT_EQ(err, -E2BIG);
	struct dpsctp_client *one = dpsctp_client_attach(srv.path(), nullptr, &err);
	ASSERT_NE(one, nullptr) << err;
	EXPECT_EQ(dpsctp_client_attach(srv.path(), nullptr, &err), nullptr); // one app at most
	EXPECT_EQ(err, -EBUSY);
	o = { 1, 0, 0, "a name longer than thirty-one bytes" };
	EXPECT_EQ(dpsctp_client_attach(srv.path(), &o, &err), nullptr);
	EXPECT_EQ(err, -EINVAL);
	dpsctp_client_detach(one);
}

TEST(ScServer, WhenTheDaemonGoesTheClientSeesItAndAttachesAgain)
{
	int err;
	EXPECT_EQ(dpsctp_client_attach("/tmp/dpsctp-no-daemon-here.sock", nullptr, &err), nullptr);
	EXPECT_EQ(err, -ENOENT);
	auto *srv = new Server(5);
	std::string path = srv->path();
	struct dpsctp_client *c = dpsctp_client_attach(path.c_str(), nullptr, &err);
	ASSERT_NE(c, nullptr) << err;
	EXPECT_EQ(dpsctp_client_check(c), 0);
	delete srv; // the daemon stops
	EXPECT_EQ(dpsctp_client_check(c), -ECONNRESET);
	dpsctp_client_detach(c);
	Server again(6);
	c = dpsctp_client_attach(again.path(), nullptr, &err);
	ASSERT_NE(c, nullptr) << err;
	EXPECT_EQ(dpsctp_client_check(c), 0);
	dpsctp_client_detach(c);
}

} // namespace
