// SPDX-License-Identifier: BSD-3-Clause
// netns_guard.h — network namespaces and veth pairs for tests, removed
// whatever happens to the test.
//
// A test that talks to the kernel's stack (ping, the kernel's SCTP for
// interoperability) needs a namespace and a veth pair, made with `ip`, and
// must leave nothing behind: not when an ASSERT returns early, not when
// meson's timeout sends SIGTERM, not when the test is interrupted with ^C.
// Three layers see to it:
//
//   - NetnsGuard's destructor deletes what the guard made, newest first
//     (stack unwinding after a failed ASSERT runs it);
//   - a handler for SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGABRT, SIGSEGV and
//     SIGBUS, and an atexit hook (std::exit skips the destructors of live
//     stack objects) delete every namespace and link still registered by
//     any guard, then the signal takes its previous course. The handler
//     only forks and execs `ip` with arguments prepared at registration
//     (async-signal-safe, no allocation); signals the process ignores stay
//     ignored;
//   - names carry the pid (NetnsGuard::with_pid), and sweep_stale()
//     deletes namespaces and veths of a prefix whose pid no longer runs,
//     which is all a SIGKILL can leave.
//
// Interface names are at most 15 bytes (IFNAMSIZ 16): "dpl3h" + a 7-digit
// pid fits. Everything here needs root; is_root() lets a test GTEST_SKIP
// first. Commands run through /bin/sh with their output captured; a guard
// is used from one thread (the handler may run on any).
//
// Usage:
//   dpsctp_test::NetnsGuard g;
//   std::string ns = g.with_pid("dpsctp-l3-");          // dpsctp-l3-12345
//   ASSERT_TRUE(g.netns_with_veth(ns, "dpl3h" + pid, "dpl3n" + pid)) << g.error();
//   ASSERT_EQ(g.ip_in(ns, "addr add 192.0.2.2/24 dev dpl3n" + pid), 0) << g.error();
//   std::string out;
//   EXPECT_EQ(g.exec_in(ns, "ping -c 1 192.0.2.1", &out), 0) << out;
#ifndef DRIVERS_NET_TESTS_NETNS_GUARD_H
#define DRIVERS_NET_TESTS_NETNS_GUARD_H

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace dpsctp_test {

// Exit status of a shell command (0 is success), -1 when it could not be
// run. With out, stdout and stderr are captured there.
inline int
netns_run(const std::string &cmd, std::string *out = nullptr)
{
	FILE *f = popen((cmd + " 2>&1").c_str(), "r");
	if (f == nullptr)
		return -1;
	char buf[512];
	size_t n;
	std::string text;
	while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
		text.append(buf, n);
	int st = pclose(f);
	if (out != nullptr)
		*out = text;
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

// Full path of an executable found in PATH, or "".
inline std::string
netns_which(const std::string &prog)
{
	const char *path = std::getenv("PATH");
	std::string dirs = path != nullptr ? path : "/usr/sbin:/usr/bin:/sbin:/bin";
	dirs += ":/usr/sbin:/sbin";
	std::stringstream ss(dirs);
	std::string d;
	while (std::getline(ss, d, ':')) {
		if (d.empty())
			continue;
		std::string p = d + "/" + prog;
		if (access(p.c_str(), X_OK) == 0)
			return p;
	}
	return "";
}

namespace netns_detail {

// What the signal and exit hooks delete. Plain data, constant-initialized,
// so the handler reads it without any initialization guard.
constexpr int kSlots = 64;
constexpr int kNameMax = 64;
enum Kind : char { kFree = 0, kNetns = 'n', kLink = 'l' };

struct Slot {
	volatile sig_atomic_t live;
	char kind;
	char name[kNameMax];
};

constexpr int kSignals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGABRT, SIGSEGV, SIGBUS };
constexpr int kNumSignals = sizeof(kSignals) / sizeof(kSignals[0]);

struct Registry {
	Slot slot[kSlots];
	char ip_path[256];
	struct sigaction old[kNumSignals];
	bool hooked[kNumSignals];
	bool installed;
};

inline Registry registry{};
inline std::mutex registry_mutex;

// Runs `ip <a> <b> del <name>` (netns) or `ip link del <name>` with its
// output discarded. Async-signal-safe: fork, open, dup2, execv, waitpid.
inline void
exec_ip_del(const Slot &s)
{
	const char *ip = registry.ip_path;
	if (ip[0] == '\0')
		return;
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		char *argv[] = { const_cast<char *>("ip"),
				 const_cast<char *>(s.kind == kNetns ? "netns" : "link"),
				 const_cast<char *>("del"), const_cast<char *>(s.name), nullptr };
		execv(ip, argv);
		_exit(127);
	}
	if (pid > 0) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
		}
	}
}

// Delete everything still registered: links first (a veth whose peer is in
// a namespace goes with either), then namespaces, newest first.
inline void
cleanup_all()
{
	for (char kind : { kLink, kNetns })
		for (int i = kSlots - 1; i >= 0; i--) {
			Slot &s = registry.slot[i];
			if (s.live && s.kind == kind) {
				exec_ip_del(s);
				s.live = 0;
			}
		}
}

inline void
on_signal(int sig)
{
	int saved = errno;
	cleanup_all();
	for (int i = 0; i < kNumSignals; i++)
		if (kSignals[i] == sig && registry.hooked[i])
			sigaction(sig, &registry.old[i], nullptr);
	errno = saved;
	raise(sig);
}

inline void
at_exit_hook()
{
	cleanup_all();
}

// Once per process, under registry_mutex.
inline void
install_hooks()
{
	if (registry.installed)
		return;
	registry.installed = true;
	std::string ip = netns_which("ip");
	std::snprintf(registry.ip_path, sizeof(registry.ip_path), "%s", ip.c_str());
	std::atexit(at_exit_hook);
	for (int i = 0; i < kNumSignals; i++) {
		struct sigaction cur;
		if (sigaction(kSignals[i], nullptr, &cur) != 0 || cur.sa_handler == SIG_IGN)
			continue;
		struct sigaction sa;
		std::memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESETHAND | SA_NODEFER;
		registry.old[i] = cur;
		registry.hooked[i] = sigaction(kSignals[i], &sa, nullptr) == 0;
	}
}

// A slot for name, or -1 when all are taken or the name is too long.
inline int
add(Kind kind, const std::string &name)
{
	std::lock_guard<std::mutex> lock(registry_mutex);
	install_hooks();
	if (name.size() >= static_cast<size_t>(kNameMax))
		return -1;
	for (int i = 0; i < kSlots; i++) {
		Slot &s = registry.slot[i];
		if (!s.live) {
			s.kind = kind;
			std::snprintf(s.name, sizeof(s.name), "%s", name.c_str());
			s.live = 1;
			return i;
		}
	}
	return -1;
}

inline void
drop(int i)
{
	std::lock_guard<std::mutex> lock(registry_mutex);
	if (i >= 0 && i < kSlots)
		registry.slot[i].live = 0;
}

} // namespace netns_detail

class NetnsGuard {
      public:
	NetnsGuard() = default;
	NetnsGuard(const NetnsGuard &) = delete;
	NetnsGuard &operator=(const NetnsGuard &) = delete;

	// Deletes what this guard made, newest first; failures are ignored
	// (a veth deleted with its namespace is already gone).
	~NetnsGuard()
	{
		for (auto it = made_.rbegin(); it != made_.rend(); ++it) {
			if (it->kind == netns_detail::kNetns)
				netns_run("ip netns del " + it->name);
			else
				netns_run("ip link del " + it->name);
			netns_detail::drop(it->slot);
		}
	}

	static bool is_root()
	{
		return geteuid() == 0;
	}
	static bool have(const std::string &prog)
	{
		return !netns_which(prog).empty();
	}

	// base followed by this process's pid: unique among concurrent runs.
	static std::string with_pid(const std::string &base)
	{
		return base + std::to_string(getpid());
	}

	// Delete namespaces and veth links named <prefix><pid> whose pid is
	// not a running process: leftovers of a run killed by SIGKILL.
	// Returns how many were deleted.
	static int sweep_stale(const std::string &prefix)
	{
		int n = 0;
		std::string out;
		if (netns_run("ip netns list", &out) == 0)
			for (const std::string &name : names_in(out, prefix, false))
				if (stale(name, prefix))
					n += netns_run("ip netns del " + name) == 0;
		if (netns_run("ip -o link show type veth", &out) == 0)
			for (const std::string &name : names_in(out, prefix, true))
				if (stale(name, prefix))
					n += netns_run("ip link del " + name) == 0;
		return n;
	}

	// ip netns add name, registered for removal.
	bool add_netns(const std::string &name)
	{
		if (!ok("ip netns add " + name))
			return false;
		remember(netns_detail::kNetns, name);
		return true;
	}

	// A veth pair a <-> b, registered by a (deleting one end deletes both).
	bool add_veth(const std::string &a, const std::string &b)
	{
		if (a.size() > 15 || b.size() > 15) {
			error_ = "interface names are at most 15 bytes: " + a + ", " + b;
			return false;
		}
		if (!ok("ip link add " + a + " type veth peer name " + b))
			return false;
		remember(netns_detail::kLink, a);
		return true;
	}

	// A namespace ns holding the b end of a fresh veth pair a <-> b, with
	// a up on the host, b and lo up in ns. The namespace is created first
	// so that the pair is deleted with it should the guard die in between.
	bool netns_with_veth(const std::string &ns, const std::string &a, const std::string &b)
	{
		return add_netns(ns) && add_veth(a, b) && ok("ip link set " + b + " netns " + ns) &&
		       ok("ip link set " + a + " up") && ip_in(ns, "link set lo up") == 0 &&
		       ip_in(ns, "link set " + b + " up") == 0;
	}

	// `ip <args>` on the host; exit status, output in *out (and error()).
	int ip(const std::string &args, std::string *out = nullptr)
	{
		return run("ip " + args, out);
	}

	// `ip -n ns <args>`.
	int ip_in(const std::string &ns, const std::string &args, std::string *out = nullptr)
	{
		return run("ip -n " + ns + " " + args, out);
	}

	// A shell command inside ns (ip netns exec ns sh -c '...'; quotes in
	// cmd are escaped).
	int exec_in(const std::string &ns, const std::string &cmd, std::string *out = nullptr)
	{
		std::string quoted;
		for (char c : cmd)
			quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
		return run("ip netns exec " + ns + " sh -c '" + quoted + "'", out);
	}

	// The last failed command and its output.
	const std::string &error() const
	{
		return error_;
	}

      private:
	struct Made {
		netns_detail::Kind kind;
		std::string name;
		int slot;
	};

	std::vector<Made> made_;
	std::string error_;

	int run(const std::string &cmd, std::string *out)
	{
		std::string text;
		int rc = netns_run(cmd, &text);
		if (rc != 0)
			error_ = cmd + " -> " + std::to_string(rc) + ": " + text;
		if (out != nullptr)
			*out = text;
		return rc;
	}

	bool ok(const std::string &cmd)
	{
		return run(cmd, nullptr) == 0;
	}

	void remember(netns_detail::Kind kind, const std::string &name)
	{
		made_.push_back({ kind, name, netns_detail::add(kind, name) });
	}

	// Names starting with prefix in `ip netns list` (first word of a line)
	// or `ip -o link show` ("N: name@peer: ...") output.
	static std::vector<std::string> names_in(const std::string &text, const std::string &prefix,
						 bool link)
	{
		std::vector<std::string> names;
		std::stringstream ss(text);
		std::string line;
		while (std::getline(ss, line)) {
			std::string name;
			if (link) {
				size_t c = line.find(": ");
				if (c == std::string::npos)
					continue;
				name = line.substr(c + 2);
				name = name.substr(0, name.find_first_of("@: "));
			} else {
				name = line.substr(0, line.find(' '));
			}
			if (name.rfind(prefix, 0) == 0)
				names.push_back(name);
		}
		return names;
	}

	// prefix followed by a pid that no process has.
	static bool stale(const std::string &name, const std::string &prefix)
	{
		std::string digits = name.substr(prefix.size());
		if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
			return false;
		long pid = std::strtol(digits.c_str(), nullptr, 10);
		return pid > 0 && pid != getpid() && kill(static_cast<pid_t>(pid), 0) != 0 &&
		       errno == ESRCH;
	}
};

} // namespace dpsctp_test

#endif // DRIVERS_NET_TESTS_NETNS_GUARD_H
