// SPDX-License-Identifier: BSD-3-Clause
// The data plane's configuration (dataplane/config.h, docs/CONFIG.md):
// defaults; every option through dpsctp_config_set() and through argv in
// both syntaxes; errors naming the option, the value and what is allowed;
// unknown options and positional words left in argv for the app in order;
// files with comments, flags, includes and errors with line numbers; the
// command line overriding a file (and a file overriding earlier options),
// lists replaced per source; cross checks; usage; print -> parse round
// trips. Two randomized model tests (argv parsing, and print round trips of
// random configurations) run many seeds and print the failing seed.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include <arpa/inet.h>

extern "C" {
#include "dataplane/config.h"
}

namespace {

struct Cfg {
	struct dpsctp_config c;
	Cfg()
	{
		dpsctp_config_defaults(&c);
	}
};

// A private directory under /tmp, removed with everything in it.
class TempDir {
      public:
	TempDir()
	{
		std::string tmpl =
			"/tmp/dpsctp_config_test." + std::to_string(getpid()) + ".XXXXXX";
		std::vector<char> buf(tmpl.begin(), tmpl.end());
		buf.push_back('\0');
		if (mkdtemp(buf.data()) == nullptr)
			ADD_FAILURE() << "mkdtemp: " << strerror(errno);
		dir_ = buf.data();
	}
	~TempDir()
	{
		for (const auto &f : files_)
			unlink(f.c_str());
		rmdir(dir_.c_str());
	}
	TempDir(const TempDir &) = delete;
	TempDir &operator=(const TempDir &) = delete;

	std::string write(const std::string &name, const std::string &text)
	{
		std::string path = dir_ + "/" + name;
		std::ofstream(path, std::ios::binary) << text;
		files_.push_back(path);
		return path;
	}
	const std::string &dir() const
	{
		return dir_;
	}

      private:
	std::string dir_;
	std::vector<std::string> files_;
};

// argv for parse_args: owns its strings, keeps the NULL after the last.
struct Argv {
	std::vector<std::string> s;
	std::vector<char *> p;
	explicit Argv(std::vector<std::string> words) : s(std::move(words))
	{
		s.insert(s.begin(), "prog");
		for (auto &w : s)
			p.push_back(&w[0]);
		p.push_back(nullptr);
	}
	int argc() const
	{
		return (int)s.size();
	}
	std::vector<std::string> rest(int n) const
	{
		std::vector<std::string> out;
		for (int i = 1; i < n; i++)
			out.emplace_back(p[i]);
		return out;
	}
};

std::string
addr_str(const struct sctp_addr &a)
{
	char buf[64];
	if (a.family == 0)
		return "none";
	inet_ntop(a.family == 6 ? AF_INET6 : AF_INET, a.bytes, buf, sizeof(buf));
	return buf;
}

// Every public field equal (the private bookkeeping is not compared).
void
expect_same(const struct dpsctp_config &a, const struct dpsctp_config &b)
{
	ASSERT_EQ(a.n_ports, b.n_ports);
	for (unsigned i = 0; i < a.n_ports; i++)
		EXPECT_STREQ(a.ports[i], b.ports[i]) << "port " << i;
	ASSERT_EQ(a.n_ips, b.n_ips);
	for (unsigned i = 0; i < a.n_ips; i++) {
		EXPECT_EQ(addr_str(a.ips[i].addr), addr_str(b.ips[i].addr)) << "ip " << i;
		EXPECT_EQ(a.ips[i].prefix, b.ips[i].prefix) << "ip " << i;
	}
	EXPECT_EQ(addr_str(a.gw4), addr_str(b.gw4));
	EXPECT_EQ(addr_str(a.gw6), addr_str(b.gw6));
	EXPECT_EQ(a.has_mac, b.has_mac);
	if (a.has_mac && b.has_mac) {
		EXPECT_EQ(0, memcmp(a.mac, b.mac, 6));
	}
	EXPECT_EQ(a.sctp_port, b.sctp_port);
	EXPECT_EQ(a.profile, b.profile);
	EXPECT_EQ(a.udp_encap, b.udp_encap);
	EXPECT_EQ(a.udp_port, b.udp_port);
	EXPECT_EQ(a.queues, b.queues);
	EXPECT_EQ(a.mtu, b.mtu);
	EXPECT_EQ(a.max_assocs, b.max_assocs);
	EXPECT_EQ(a.max_handshakes, b.max_handshakes);
	EXPECT_EQ(a.max_streams, b.max_streams);
	EXPECT_EQ(a.stream_mem, b.stream_mem);
	EXPECT_EQ(a.max_paths, b.max_paths);
	EXPECT_EQ(a.rcvbuf, b.rcvbuf);
	EXPECT_EQ(a.sndbuf, b.sndbuf);
	EXPECT_EQ(a.mbufs, b.mbufs);
	EXPECT_EQ(a.copy_max, b.copy_max);
	EXPECT_STREQ(a.impair, b.impair);
	EXPECT_STREQ(a.impair_rx, b.impair_rx);
	EXPECT_EQ(a.telemetry, b.telemetry);
	EXPECT_EQ(a.frto, b.frto);
	EXPECT_EQ(a.log_level, b.log_level);
}

std::string
print_to_string(const struct dpsctp_config &c)
{
	char *buf = nullptr;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	EXPECT_NE(f, nullptr);
	EXPECT_EQ(dpsctp_config_print(&c, f), 0);
	fclose(f);
	std::string s(buf, len);
	free(buf);
	return s;
}

std::string
usage_text()
{
	char *buf = nullptr;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	dpsctp_config_usage(f);
	fclose(f);
	std::string s(buf, len);
	free(buf);
	return s;
}

int
set(struct dpsctp_config *c, const char *name, const char *value, std::string *msg = nullptr)
{
	char err[256] = "";
	int rc = dpsctp_config_set(c, name, value, err, sizeof(err));
	if (msg != nullptr)
		*msg = err;
	return rc;
}

TEST(ConfigTest, Defaults)
{
	Cfg d;
	EXPECT_EQ(d.c.n_ports, 0u);
	EXPECT_EQ(d.c.n_ips, 0u);
	EXPECT_EQ(d.c.gw4.family, 0);
	EXPECT_EQ(d.c.gw6.family, 0);
	EXPECT_FALSE(d.c.has_mac);
	EXPECT_EQ(d.c.sctp_port, 0);
	EXPECT_EQ(d.c.profile, DPSCTP_CONFIG_PROFILE_DC);
	EXPECT_FALSE(d.c.udp_encap);
	EXPECT_EQ(d.c.udp_port, 9899);
	EXPECT_EQ(d.c.queues, 0);
	EXPECT_EQ(d.c.mtu, 1500);
	EXPECT_EQ(d.c.max_assocs, 1024u);
	EXPECT_EQ(d.c.max_handshakes, 256u);
	EXPECT_EQ(d.c.max_streams, 64u);
	EXPECT_EQ(d.c.max_paths, 4u);
	EXPECT_EQ(d.c.rcvbuf, 256u * 1024u);
	EXPECT_EQ(d.c.sndbuf, 256u * 1024u);
	EXPECT_EQ(d.c.mbufs, 0u);
	EXPECT_EQ(d.c.copy_max, DPSCTP_CONFIG_COPY_MAX_AUTO);
	EXPECT_STREQ(d.c.impair, "");
	EXPECT_TRUE(d.c.telemetry);
	EXPECT_TRUE(d.c.frto);
	EXPECT_EQ(d.c.log_level, DPSCTP_CONFIG_LOG_INFO);
	char err[128];
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
	// Fixed arrays only: a configuration is small enough to copy (the route list
	// and the ports' gateways took it past 2 KiB).
	EXPECT_LE(sizeof(struct dpsctp_config), 3072u);
}

TEST(ConfigTest, EveryOptionBySet)
{
	Cfg d;
	struct dpsctp_config *c = &d.c;
	ASSERT_EQ(set(c, "port", "net_ring0"), 0);
	ASSERT_EQ(set(c, "port", "net_tap0,iface=dp0"), 0);
	EXPECT_EQ(c->n_ports, 2u);
	EXPECT_STREQ(c->ports[1], "net_tap0,iface=dp0");
	ASSERT_EQ(set(c, "ip", "10.0.0.1/24"), 0);
	ASSERT_EQ(set(c, "ip", "2001:db8::1/64"), 0);
	ASSERT_EQ(c->n_ips, 2u);
	EXPECT_EQ(c->ips[0].addr.family, 4);
	EXPECT_EQ(c->ips[0].prefix, 24);
	EXPECT_EQ(addr_str(c->ips[0].addr), "10.0.0.1");
	EXPECT_EQ(c->ips[1].addr.family, 6);
	EXPECT_EQ(c->ips[1].prefix, 64);
	EXPECT_EQ(addr_str(c->ips[1].addr), "2001:db8::1");
	ASSERT_EQ(set(c, "gw", "10.0.0.254"), 0);
	ASSERT_EQ(set(c, "gw", "2001:db8::fe"), 0);
	EXPECT_EQ(addr_str(c->gw4), "10.0.0.254");
	EXPECT_EQ(addr_str(c->gw6), "2001:db8::fe");
	ASSERT_EQ(set(c, "gw", "10.0.0.253"), 0); // one per family: replaced
	EXPECT_EQ(addr_str(c->gw4), "10.0.0.253");
	EXPECT_EQ(addr_str(c->gw6), "2001:db8::fe");
	ASSERT_EQ(set(c, "mac", "02:00:5E:10:aa:ff"), 0);
	const uint8_t mac[6] = { 0x02, 0x00, 0x5e, 0x10, 0xaa, 0xff };
	EXPECT_TRUE(c->has_mac);
	EXPECT_EQ(0, memcmp(c->mac, mac, 6));
	ASSERT_EQ(set(c, "sctp-port", "36412"), 0);
	EXPECT_EQ(c->sctp_port, 36412);
	ASSERT_EQ(set(c, "sctp-port", "0"), 0); // 0 = none
	EXPECT_EQ(c->sctp_port, 0);
	ASSERT_EQ(set(c, "profile", "rfc"), 0);
	EXPECT_EQ(c->profile, DPSCTP_CONFIG_PROFILE_RFC);
	ASSERT_EQ(set(c, "profile", "dc"), 0);
	EXPECT_EQ(c->profile, DPSCTP_CONFIG_PROFILE_DC);
	EXPECT_EQ(c->icmp_unreach, DPSCTP_CONFIG_ICMP_UNREACH_PROFILE); // the default
	ASSERT_EQ(set(c, "icmp-unreach", "abort"), 0);
	EXPECT_EQ(c->icmp_unreach, DPSCTP_CONFIG_ICMP_UNREACH_ABORT);
	ASSERT_EQ(set(c, "icmp-unreach", "ignore"), 0);
	EXPECT_EQ(c->icmp_unreach, DPSCTP_CONFIG_ICMP_UNREACH_IGNORE);
	ASSERT_EQ(set(c, "icmp-unreach", "profile"), 0);
	EXPECT_EQ(c->icmp_unreach, DPSCTP_CONFIG_ICMP_UNREACH_PROFILE);
	ASSERT_EQ(set(c, "udp-encap", nullptr), 0);
	EXPECT_TRUE(c->udp_encap);
	EXPECT_EQ(c->udp_port, 9899);
	ASSERT_EQ(set(c, "udp-encap", "10000"), 0);
	EXPECT_TRUE(c->udp_encap);
	EXPECT_EQ(c->udp_port, 10000);
	ASSERT_EQ(set(c, "no-udp-encap", nullptr), 0);
	EXPECT_FALSE(c->udp_encap);
	EXPECT_EQ(c->udp_port, 10000);
	ASSERT_EQ(set(c, "udp-port", "9900"), 0);
	EXPECT_EQ(c->udp_port, 9900);
	EXPECT_FALSE(c->udp_encap);
	ASSERT_EQ(set(c, "queues", "4"), 0);
	EXPECT_EQ(c->queues, 4);
	ASSERT_EQ(set(c, "mtu", "9000"), 0);
	EXPECT_EQ(c->mtu, 9000);
	ASSERT_EQ(set(c, "max-assocs", "100000"), 0);
	EXPECT_EQ(c->max_assocs, 100000u);
	ASSERT_EQ(set(c, "max-handshakes", "512"), 0);
	EXPECT_EQ(c->max_handshakes, 512u);
	ASSERT_EQ(set(c, "max-streams", "65535"), 0);
	EXPECT_EQ(c->max_streams, 65535u);
	ASSERT_EQ(set(c, "max-paths", "8"), 0);
	EXPECT_EQ(c->max_paths, 8u);
	ASSERT_EQ(set(c, "rcvbuf", "4m"), 0);
	EXPECT_EQ(c->rcvbuf, 4u << 20);
	ASSERT_EQ(set(c, "sndbuf", "512K"), 0);
	EXPECT_EQ(c->sndbuf, 512u << 10);
	ASSERT_EQ(set(c, "sndbuf", "1G"), 0);
	EXPECT_EQ(c->sndbuf, 1u << 30);
	ASSERT_EQ(set(c, "rcvbuf", "65536"), 0);
	EXPECT_EQ(c->rcvbuf, 65536u);
	ASSERT_EQ(set(c, "mbufs", "65535"), 0);
	EXPECT_EQ(c->mbufs, 65535u);
	ASSERT_EQ(set(c, "mbufs", "0"), 0);
	EXPECT_EQ(c->mbufs, 0u);
	ASSERT_EQ(set(c, "copy-max", "512"), 0);
	EXPECT_EQ(c->copy_max, 512u);
	ASSERT_EQ(set(c, "copy-max", "1k"), 0);
	EXPECT_EQ(c->copy_max, 1024u);
	ASSERT_EQ(set(c, "copy-max", "auto"), 0);
	EXPECT_EQ(c->copy_max, DPSCTP_CONFIG_COPY_MAX_AUTO);
	ASSERT_EQ(set(c, "impair", "loss=1%,delay=100us,seed=42"), 0);
	EXPECT_STREQ(c->impair, "loss=1%,delay=100us,seed=42");
	ASSERT_EQ(set(c, "impair", ""), 0);
	EXPECT_STREQ(c->impair, "");
	// The receive stage's spec is its own field: --impair is left alone.
	ASSERT_EQ(set(c, "impair-rx", "loss=5%,reorder=1%,seed=3"), 0);
	EXPECT_STREQ(c->impair_rx, "loss=5%,reorder=1%,seed=3");
	EXPECT_STREQ(c->impair, "");
	ASSERT_EQ(set(c, "impair-rx", ""), 0);
	EXPECT_STREQ(c->impair_rx, "");
	ASSERT_EQ(set(c, "frto", "off"), 0);
	EXPECT_FALSE(c->frto);
	ASSERT_EQ(set(c, "frto", "on"), 0);
	EXPECT_TRUE(c->frto);
	EXPECT_NE(set(c, "frto", "maybe"), 0);
	ASSERT_EQ(set(c, "no-telemetry", nullptr), 0);
	EXPECT_FALSE(c->telemetry);
	ASSERT_EQ(set(c, "telemetry", nullptr), 0);
	EXPECT_TRUE(c->telemetry);
	const char *levels[] = { "error", "warning", "info", "debug" };
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(set(c, "log-level", levels[i]), 0);
		EXPECT_EQ((int)c->log_level, i);
		EXPECT_STREQ(dpsctp_config_log_level_name(c->log_level), levels[i]);
	}
	EXPECT_STREQ(dpsctp_config_profile_name(DPSCTP_CONFIG_PROFILE_RFC), "rfc");
	EXPECT_EQ(dpsctp_config_profile_name((enum dpsctp_config_profile)7), nullptr);
	EXPECT_EQ(dpsctp_config_log_level_name((enum dpsctp_config_log_level)9), nullptr);
}

TEST(ConfigTest, RangeEdges)
{
	struct Edge {
		const char *name;
		const char *lo_ok, *hi_ok, *lo_bad, *hi_bad;
	};
	const Edge edges[] = {
		{ "sctp-port", "0", "65535", nullptr, "65536" },
		{ "udp-port", "1", "65535", "0", "65536" },
		{ "queues", "0", "128", nullptr, "129" },
		{ "mtu", "576", "9216", "575", "9217" },
		{ "max-assocs", "1", "1048576", "0", "1048577" },
		{ "max-handshakes", "1", "65536", "0", "65537" },
		{ "max-streams", "1", "65535", "0", "65536" },
		{ "stream-mem", "0", "2g", "4095", "2049m" },
		{ "max-paths", "1", "8", "0", "9" },
		{ "rcvbuf", "4k", "1g", "4095", "1073741825" },
		{ "sndbuf", "4096", "1024m", "3k", "2g" },
		{ "mbufs", "256", "16777216", "255", "16777217" },
		{ "copy-max", "0", "9216", nullptr, "9217" },
	};
	for (const auto &e : edges) {
		SCOPED_TRACE(e.name);
		Cfg d;
		std::string msg;
		EXPECT_EQ(set(&d.c, e.name, e.lo_ok, &msg), 0) << msg;
		EXPECT_EQ(set(&d.c, e.name, e.hi_ok, &msg), 0) << msg;
		Cfg before = d;
		if (e.lo_bad != nullptr) {
			EXPECT_EQ(set(&d.c, e.name, e.lo_bad, &msg), -EINVAL);
			EXPECT_NE(msg.find(std::string("--") + e.name), std::string::npos) << msg;
			EXPECT_NE(msg.find(e.lo_bad), std::string::npos) << msg;
		}
		EXPECT_EQ(set(&d.c, e.name, e.hi_bad, &msg), -EINVAL);
		EXPECT_NE(msg.find(e.hi_bad), std::string::npos) << msg;
		expect_same(d.c, before.c); // unchanged by the refused values
	}
	// The range itself is in the message.
	Cfg d;
	std::string msg;
	EXPECT_EQ(set(&d.c, "mtu", "100", &msg), -EINVAL);
	EXPECT_EQ(msg, "--mtu '100': out of range (576..9216)");
	EXPECT_EQ(set(&d.c, "queues", "1000", &msg), -EINVAL);
	EXPECT_NE(msg.find("0 = one, or 1..128"), std::string::npos) << msg;
}

TEST(ConfigTest, BadNumbers)
{
	const char *bad[] = { "",	   "-1",  "+5",
			      " 5",	   "5 ",  "0x10",
			      "1.5",	   "12a", "99999999999999999999",
			      "4294967296" };
	for (const char *v : bad) {
		SCOPED_TRACE(v);
		Cfg d;
		std::string msg;
		EXPECT_EQ(set(&d.c, "max-assocs", v, &msg), -EINVAL);
		EXPECT_NE(msg.find("--max-assocs"), std::string::npos) << msg;
		EXPECT_EQ(d.c.max_assocs, 1024u);
	}
	// Suffixes are for sizes only, one letter, and cannot overflow.
	Cfg d;
	EXPECT_EQ(set(&d.c, "max-assocs", "1k"), -EINVAL);
	EXPECT_EQ(set(&d.c, "rcvbuf", "1kb"), -EINVAL);
	EXPECT_EQ(set(&d.c, "rcvbuf", "1t"), -EINVAL);
	EXPECT_EQ(set(&d.c, "rcvbuf", "k"), -EINVAL);
	EXPECT_EQ(set(&d.c, "rcvbuf", "4294967295g"), -EINVAL);
	EXPECT_EQ(set(&d.c, "rcvbuf", "17179869184g"), -EINVAL);
	std::string msg;
	EXPECT_EQ(set(&d.c, "rcvbuf", "12x", &msg), -EINVAL);
	EXPECT_NE(msg.find("not a size"), std::string::npos) << msg;
	EXPECT_EQ(d.c.rcvbuf, 256u * 1024u);
}

TEST(ConfigTest, AddressErrors)
{
	struct Bad {
		const char *name, *value, *says;
	};
	const Bad bad[] = {
		{ "ip", "10.0.0.1", "missing /PREFIX" },
		{ "ip", "10.0.0.1/33", "0..32 for IPv4" },
		{ "ip", "2001:db8::1/129", "0..128 for IPv6" },
		{ "ip", "10.0.0.1/", "bad prefix" },
		{ "ip", "10.0.0.1/2x", "bad prefix" },
		{ "ip", "10.0.0.1/-1", "bad prefix" },
		{ "ip", "10.0.0.256/24", "not an IPv4 or IPv6 address" },
		{ "ip", "2001:db8:::1/64", "not an IPv4 or IPv6 address" },
		{ "ip", "host/24", "not an IPv4 or IPv6 address" },
		{ "ip", "/24", "not an IPv4 or IPv6 address" },
		{ "ip", "0.0.0.0/0", "not a unicast address" },
		{ "ip", "224.0.0.1/4", "not a unicast address" },
		{ "ip", "255.255.255.255/32", "not a unicast address" },
		{ "ip", "::/0", "not a unicast address" },
		{ "ip", "ff02::1/16", "not a unicast address" },
		{ "gw", "10.0.0.1/24", "not a unicast IPv4 or IPv6 address" },
		{ "gw", "239.1.1.1", "not a unicast" },
		{ "gw", "", "not a unicast" },
		{ "mac", "02:00:00:00:00", "not an Ethernet address" },
		{ "mac", "02:00:00:00:00:0g", "not an Ethernet address" },
		{ "mac", "02-00-00-00-00-01", "not an Ethernet address" },
		{ "mac", "01:00:5e:00:00:01", "not a unicast address" },
		{ "mac", "00:00:00:00:00:00", "not a unicast address" },
		{ "profile", "wan", "rfc or dc" },
		{ "profile", "", "rfc or dc" },
		{ "icmp-unreach", "drop", "profile, abort or ignore" },
		{ "log-level", "verbose", "error, warning, info or debug" },
		{ "port", "", "empty" },
		{ "port", "net_tap0, iface=x", "blank" },
		{ "impair", "loss=1% #", "contains a blank" },
		{ "impair", "#loss=1%", "starts with '#'" },
		{ "impair-rx", "loss=1% #", "contains a blank" },
		{ "impair-rx", "#loss=1%", "starts with '#'" },
		{ "port", "#net_ring0", "starts with '#'" },
		{ "copy-max", "big", "not auto or a size 0..9216" },
		{ "udp-encap", "0", "out of range (1..65535)" },
	};
	for (const auto &b : bad) {
		SCOPED_TRACE(std::string(b.name) + " " + b.value);
		Cfg d;
		std::string msg;
		EXPECT_EQ(set(&d.c, b.name, b.value, &msg), -EINVAL);
		EXPECT_NE(msg.find(std::string("--") + b.name), std::string::npos) << msg;
		EXPECT_NE(msg.find(b.says), std::string::npos) << msg;
		expect_same(d.c, Cfg().c);
	}
	// An over-long devargs string is refused, not truncated.
	Cfg d;
	std::string lng(DPSCTP_CONFIG_DEVARGS_LEN, 'a');
	EXPECT_EQ(set(&d.c, "port", lng.c_str()), -EINVAL);
	lng.pop_back();
	EXPECT_EQ(set(&d.c, "port", lng.c_str()), 0);
	EXPECT_EQ(std::string(d.c.ports[0]), lng);
	std::string spec(DPSCTP_CONFIG_IMPAIR_LEN, 'x');
	EXPECT_EQ(set(&d.c, "impair", spec.c_str()), -EINVAL);
	EXPECT_EQ(set(&d.c, "impair-rx", spec.c_str()), -EINVAL);
	EXPECT_STREQ(d.c.impair_rx, "");
}

TEST(ConfigTest, ListLimitsAndDuplicates)
{
	Cfg d;
	std::string msg;
	for (unsigned i = 0; i < DPSCTP_CONFIG_MAX_IPS; i++) {
		std::string ip = "10.0.0." + std::to_string(i + 1) + "/24";
		ASSERT_EQ(set(&d.c, "ip", ip.c_str(), &msg), 0) << msg;
	}
	EXPECT_EQ(set(&d.c, "ip", "10.0.1.1/24", &msg), -EINVAL);
	EXPECT_NE(msg.find("at most 8"), std::string::npos) << msg;
	EXPECT_EQ(d.c.n_ips, DPSCTP_CONFIG_MAX_IPS);

	Cfg e;
	ASSERT_EQ(set(&e.c, "ip", "10.0.0.1/24"), 0);
	EXPECT_EQ(set(&e.c, "ip", "10.0.0.1/16", &msg), -EINVAL); // same address, other prefix
	EXPECT_NE(msg.find("twice"), std::string::npos) << msg;
	ASSERT_EQ(set(&e.c, "ip", "2001:db8::1/64"), 0);
	EXPECT_EQ(set(&e.c, "ip", "2001:DB8:0::1/48"), -EINVAL); // same address, other spelling
	EXPECT_EQ(e.c.n_ips, 2u);

	Cfg p;
	for (unsigned i = 0; i < DPSCTP_CONFIG_MAX_PORTS; i++) {
		std::string port = "net_ring" + std::to_string(i);
		ASSERT_EQ(set(&p.c, "port", port.c_str()), 0);
	}
	EXPECT_EQ(set(&p.c, "port", "net_ring9", &msg), -EINVAL);
	EXPECT_NE(msg.find("at most 4"), std::string::npos) << msg;
	Cfg q;
	ASSERT_EQ(set(&q.c, "port", "net_ring0"), 0);
	EXPECT_EQ(set(&q.c, "port", "net_ring0", &msg), -EINVAL);
	EXPECT_NE(msg.find("twice"), std::string::npos) << msg;
}

TEST(ConfigTest, FlagsAndValueRules)
{
	Cfg d;
	std::string msg;
	EXPECT_EQ(set(&d.c, "telemetry", "yes", &msg), -EINVAL);
	EXPECT_NE(msg.find("takes no value"), std::string::npos) << msg;
	EXPECT_EQ(set(&d.c, "no-udp-encap", "1"), -EINVAL);
	EXPECT_EQ(set(&d.c, "mtu", nullptr, &msg), -EINVAL);
	EXPECT_EQ(msg, "--mtu: missing value (N)");
	EXPECT_EQ(set(&d.c, "ip", nullptr, &msg), -EINVAL);
	EXPECT_EQ(msg, "--ip: missing value (ADDR/PREFIX)");
	// Unknown names are the caller's: -ENOENT and err untouched.
	char err[32] = "untouched";
	EXPECT_EQ(dpsctp_config_set(&d.c, "server", "x", err, sizeof(err)), -ENOENT);
	EXPECT_STREQ(err, "untouched");
	EXPECT_EQ(dpsctp_config_set(&d.c, "--mtu", "1500", err, sizeof(err)), -ENOENT);
	EXPECT_EQ(dpsctp_config_set(&d.c, "mt", "1500", err, sizeof(err)), -ENOENT);
	// err may be NULL or short; short messages are cut and terminated.
	EXPECT_EQ(dpsctp_config_set(&d.c, "mtu", "1", nullptr, 0), -EINVAL);
	char small[8];
	memset(small, 'z', sizeof(small));
	EXPECT_EQ(dpsctp_config_set(&d.c, "mtu", "1", small, sizeof(small)), -EINVAL);
	EXPECT_STREQ(small, "--mtu '");
}

TEST(ConfigTest, ArgsBothSyntaxes)
{
	Cfg a, b;
	char err[256] = "";
	Argv sep({ "--port",	  "net_ring0",
		   "--ip",	  "10.0.0.1/24",
		   "--gw",	  "10.0.0.254",
		   "--mac",	  "02:00:00:00:00:01",
		   "--sctp-port", "5001",
		   "--profile",	  "rfc",
		   "--udp-encap", "--udp-port",
		   "9900",	  "--queues",
		   "2",		  "--mtu",
		   "9000",	  "--max-assocs",
		   "10",	  "--max-handshakes",
		   "20",	  "--max-streams",
		   "30",	  "--max-paths",
		   "2",		  "--rcvbuf",
		   "1m",	  "--sndbuf",
		   "2m",	  "--mbufs",
		   "8192",	  "--copy-max",
		   "256",	  "--impair",
		   "loss=1%",	  "--no-telemetry",
		   "--log-level", "debug" });
	Argv eq({ "--port=net_ring0",	 "--ip=10.0.0.1/24",
		  "--gw=10.0.0.254",	 "--mac=02:00:00:00:00:01",
		  "--sctp-port=5001",	 "--profile=rfc",
		  "--udp-encap=9900",	 "--queues=2",
		  "--mtu=9000",		 "--max-assocs=10",
		  "--max-handshakes=20", "--max-streams=30",
		  "--max-paths=2",	 "--rcvbuf=1m",
		  "--sndbuf=2m",	 "--mbufs=8192",
		  "--copy-max=256",	 "--impair=loss=1%",
		  "--telemetry",	 "--no-telemetry",
		  "--log-level=debug" });
	ASSERT_EQ(dpsctp_config_parse_args(&a.c, sep.argc(), sep.p.data(), err, sizeof(err)), 1)
		<< err;
	ASSERT_EQ(dpsctp_config_parse_args(&b.c, eq.argc(), eq.p.data(), err, sizeof(err)), 1)
		<< err;
	EXPECT_EQ(sep.p[1], nullptr);
	expect_same(a.c, b.c);
	EXPECT_STREQ(a.c.ports[0], "net_ring0");
	EXPECT_EQ(a.c.sctp_port, 5001);
	EXPECT_EQ(a.c.profile, DPSCTP_CONFIG_PROFILE_RFC);
	EXPECT_TRUE(a.c.udp_encap);
	EXPECT_EQ(a.c.udp_port, 9900);
	EXPECT_EQ(a.c.rcvbuf, 1u << 20);
	EXPECT_EQ(a.c.sndbuf, 2u << 20);
	EXPECT_EQ(a.c.copy_max, 256u);
	EXPECT_STREQ(a.c.impair, "loss=1%");
	EXPECT_FALSE(a.c.telemetry);
	EXPECT_EQ(a.c.log_level, DPSCTP_CONFIG_LOG_DEBUG);
	EXPECT_EQ(dpsctp_config_validate(&a.c, err, sizeof(err)), 0) << err;
}

TEST(ConfigTest, ArgsLeaveUnknownToTheApp)
{
	Cfg d;
	char err[256] = "";
	Argv v({ "-s", "--mtu", "9000", "-t", "10", "--json", "--bitrate=1G", "server.example",
		 "--ip", "10.0.0.1/24", "-", "--", "--ip", "10.0.0.2/24", "--mtu=1400" });
	int n = dpsctp_config_parse_args(&d.c, v.argc(), v.p.data(), err, sizeof(err));
	ASSERT_GT(n, 0) << err;
	std::vector<std::string> want = { "-s",		 "-t",		 "10",
					  "--json",	 "--bitrate=1G", "server.example",
					  "-",		 "--",		 "--ip",
					  "10.0.0.2/24", "--mtu=1400" };
	EXPECT_EQ(v.rest(n), want);
	EXPECT_EQ(v.p[n], nullptr);
	EXPECT_EQ(d.c.mtu, 9000); // before "--"
	EXPECT_EQ(d.c.n_ips, 1u); // the one after "--" is the app's
}

TEST(ConfigTest, ArgsErrors)
{
	struct Case {
		std::vector<std::string> args;
		const char *says;
	};
	const Case cases[] = {
		{ { "--ip" }, "--ip: missing value (ADDR/PREFIX)" },
		{ { "--ip", "--mtu", "1500" }, "--ip: missing value" },
		{ { "--mtu", "--", "1500" }, "--mtu: missing value" },
		{ { "--ip", "10.0.0.1/33" },
		  "--ip '10.0.0.1/33': bad prefix length (0..32 for IPv4)" },
		{ { "--profile=wan" }, "--profile 'wan': unknown (rfc or dc)" },
		{ { "--max-streams", "70000" }, "--max-streams '70000': out of range (1..65535)" },
		{ { "--telemetry=on" }, "--telemetry 'on': takes no value" },
		{ { "-x", "--mtu", "9000", "--queues", "x" }, "--queues 'x': not a whole number" },
		{ { "--config" }, "--config: missing value (FILE)" },
		{ { "--config", "/nonexistent/dpsctp.conf" },
		  "/nonexistent/dpsctp.conf: No such file" },
	};
	for (const auto &t : cases) {
		SCOPED_TRACE(t.says);
		Cfg d;
		Argv v(t.args);
		char err[256] = "";
		int n = dpsctp_config_parse_args(&d.c, v.argc(), v.p.data(), err, sizeof(err));
		EXPECT_LT(n, 0);
		EXPECT_NE(std::string(err).find(t.says), std::string::npos) << err;
	}
	// A value starting with "--" needs the = syntax.
	Cfg d;
	Argv v({ "--impair", "--x" });
	char err[256] = "";
	EXPECT_EQ(dpsctp_config_parse_args(&d.c, v.argc(), v.p.data(), err, sizeof(err)), -EINVAL);
	Argv w({ "--port=--vdev" });
	EXPECT_EQ(dpsctp_config_parse_args(&d.c, w.argc(), w.p.data(), err, sizeof(err)), 1) << err;
	EXPECT_STREQ(d.c.ports[0], "--vdev");
}

TEST(ConfigTest, File)
{
	TempDir t;
	std::string path = t.write("a.conf", "# dpsctp test\n"
					     "\n"
					     "port = net_ring0\n"
					     "   ip=10.0.0.1/24    # primary\n"
					     "ip = 10.0.1.1/24\t\n"
					     "gw = 10.0.0.254\n"
					     "profile = rfc\r\n"
					     "udp-encap = 9900\n"
					     "no-telemetry\n"
					     "\t# indented comment\n"
					     "impair = loss=1%,seed=7#not-a-comment\n"
					     "rcvbuf = 1m\n"
					     "max-assocs = 50");
	Cfg d;
	char err[256] = "";
	ASSERT_EQ(dpsctp_config_parse_file(&d.c, path.c_str(), err, sizeof(err)), 0) << err;
	EXPECT_STREQ(d.c.ports[0], "net_ring0");
	ASSERT_EQ(d.c.n_ips, 2u);
	EXPECT_EQ(addr_str(d.c.ips[1].addr), "10.0.1.1");
	EXPECT_EQ(addr_str(d.c.gw4), "10.0.0.254");
	EXPECT_EQ(d.c.profile, DPSCTP_CONFIG_PROFILE_RFC);
	EXPECT_TRUE(d.c.udp_encap);
	EXPECT_EQ(d.c.udp_port, 9900);
	EXPECT_FALSE(d.c.telemetry);
	EXPECT_STREQ(d.c.impair, "loss=1%,seed=7#not-a-comment");
	EXPECT_EQ(d.c.rcvbuf, 1u << 20);
	EXPECT_EQ(d.c.max_assocs, 50u); // last line without a newline
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
}

TEST(ConfigTest, FileErrorsNameTheLine)
{
	struct Case {
		std::string text;
		std::string says; // after "PATH:"
	};
	const std::vector<Case> cases = {
		{ "mtu = 9000\n\n# c\nmtu = 100\n", "4: mtu '100': out of range (576..9216)" },
		{ "ip = 10.0.0.1/24\nip = 10.0.0.2\n", "2: ip '10.0.0.2': missing /PREFIX" },
		{ "bogus = 1\n", "1: unknown option 'bogus'" },
		{ "--mtu = 1500\n", "1: unknown option '--mtu' (write names without dashes)" },
		{ "mtu\n", "1: mtu: missing value (N)" },
		{ "mtu =\n", "1: mtu '': not a whole number" },
		{ "telemetry = yes\n", "1: telemetry 'yes': takes no value" },
		{ "profile = dc\nprofile = wan # nope\n", "2: profile 'wan': unknown (rfc or dc)" },
		{ "= 5\n", "1: unknown option ''" },
		{ "mtu = 1500\n" + std::string(DPSCTP_CONFIG_LINE_MAX, '#') + "\n",
		  "2: line longer than 1023 bytes" },
	};
	TempDir t;
	for (size_t i = 0; i < cases.size(); i++) {
		SCOPED_TRACE(cases[i].says);
		std::string path = t.write("e" + std::to_string(i) + ".conf", cases[i].text);
		Cfg d;
		char err[256] = "";
		EXPECT_EQ(dpsctp_config_parse_file(&d.c, path.c_str(), err, sizeof(err)), -EINVAL);
		EXPECT_EQ(std::string(err).rfind(path + ":" + cases[i].says, 0), 0u) << err;
	}
	// The longest line that fits is accepted.
	std::string fits = "impair = " + std::string(DPSCTP_CONFIG_LINE_MAX - 1 - 9 - 1, ' ') + "x";
	std::string path = t.write("fits.conf", fits + "\n");
	Cfg d;
	char err[256] = "";
	EXPECT_EQ(dpsctp_config_parse_file(&d.c, path.c_str(), err, sizeof(err)), 0) << err;
	EXPECT_STREQ(d.c.impair, "x");
	// A missing file.
	EXPECT_EQ(
		dpsctp_config_parse_file(&d.c, (t.dir() + "/none.conf").c_str(), err, sizeof(err)),
		-EIO);
	EXPECT_NE(std::string(err).find("No such file"), std::string::npos) << err;
}

TEST(ConfigTest, FileIncludes)
{
	TempDir t;
	t.write("base.conf", "mtu = 9000\nip = 10.0.0.1/24\n");
	std::string top = t.write("top.conf", "config = base.conf\nmax-streams = 16\n");
	Cfg d;
	char err[256] = "";
	// Relative to the including file, not to the current directory.
	ASSERT_EQ(dpsctp_config_parse_file(&d.c, top.c_str(), err, sizeof(err)), 0) << err;
	EXPECT_EQ(d.c.mtu, 9000);
	EXPECT_EQ(d.c.max_streams, 16u);
	EXPECT_EQ(d.c.n_ips, 1u);

	std::string bad = t.write("bad.conf", "mtu = 1500\nmax-paths = 99\n");
	std::string inc = t.write("inc.conf", "# includes\nconfig = bad.conf\n");
	EXPECT_EQ(dpsctp_config_parse_file(&d.c, inc.c_str(), err, sizeof(err)), -EINVAL);
	EXPECT_EQ(std::string(err), inc + ":2: " + bad + ":2: max-paths '99': out of range (1..8)");

	std::string loop = t.write("loop.conf", "config = loop.conf\n");
	char long_err[1024];
	EXPECT_EQ(dpsctp_config_parse_file(&d.c, loop.c_str(), long_err, sizeof(long_err)),
		  -EINVAL);
	EXPECT_NE(std::string(long_err).find("nested more than 4 deep"), std::string::npos)
		<< long_err;

	std::string gone = t.write("gone.conf", "config = missing.conf\n");
	EXPECT_EQ(dpsctp_config_parse_file(&d.c, gone.c_str(), err, sizeof(err)), -EIO);
	EXPECT_NE(std::string(err).find(gone + ":1: "), std::string::npos) << err;
}

TEST(ConfigTest, CommandLineOverridesFile)
{
	TempDir t;
	std::string f = t.write("f.conf", "mtu = 9000\nmax-assocs = 7\nip = 10.0.0.1/24\n"
					  "ip = 10.0.0.2/24\nport = net_ring0\n");
	char err[256] = "";
	{
		// Before the file: the file wins; after: the command line wins.
		Cfg d;
		Argv v({ "--mtu", "1400", "--config", f, "--max-assocs", "9" });
		ASSERT_EQ(dpsctp_config_parse_args(&d.c, v.argc(), v.p.data(), err, sizeof(err)), 1)
			<< err;
		EXPECT_EQ(d.c.mtu, 9000);
		EXPECT_EQ(d.c.max_assocs, 9u);
	}
	{
		// A list given after the file replaces the file's list; entries of one
		// source append.
		Cfg d;
		Argv v({ "--config=" + f, "--ip", "10.9.0.1/16", "--ip", "10.9.0.2/16", "--port",
			 "net_tap0" });
		ASSERT_EQ(dpsctp_config_parse_args(&d.c, v.argc(), v.p.data(), err, sizeof(err)), 1)
			<< err;
		ASSERT_EQ(d.c.n_ips, 2u);
		EXPECT_EQ(addr_str(d.c.ips[0].addr), "10.9.0.1");
		EXPECT_EQ(addr_str(d.c.ips[1].addr), "10.9.0.2");
		ASSERT_EQ(d.c.n_ports, 1u);
		EXPECT_STREQ(d.c.ports[0], "net_tap0");
	}
	{
		// A list given before the file is replaced by the file's.
		Cfg d;
		Argv v({ "--ip", "10.9.0.1/16", "--config", f });
		ASSERT_EQ(dpsctp_config_parse_args(&d.c, v.argc(), v.p.data(), err, sizeof(err)), 1)
			<< err;
		ASSERT_EQ(d.c.n_ips, 2u);
		EXPECT_EQ(addr_str(d.c.ips[0].addr), "10.0.0.1");
	}
	{
		// A file without the list leaves the command line's alone.
		std::string g = t.write("g.conf", "mtu = 1280\n");
		Cfg d;
		Argv v({ "--ip", "10.9.0.1/16", "--config", g, "--ip", "10.9.0.2/16" });
		ASSERT_EQ(dpsctp_config_parse_args(&d.c, v.argc(), v.p.data(), err, sizeof(err)), 1)
			<< err;
		EXPECT_EQ(d.c.n_ips, 2u);
	}
	{
		// The app's own set() calls append; a later parse replaces them.
		Cfg d;
		ASSERT_EQ(set(&d.c, "ip", "192.168.0.1/24"), 0);
		ASSERT_EQ(set(&d.c, "ip", "192.168.0.2/24"), 0);
		EXPECT_EQ(d.c.n_ips, 2u);
		Argv v({ "--ip", "10.9.0.1/16" });
		ASSERT_EQ(dpsctp_config_parse_args(&d.c, v.argc(), v.p.data(), err, sizeof(err)), 1)
			<< err;
		ASSERT_EQ(d.c.n_ips, 1u);
		EXPECT_EQ(addr_str(d.c.ips[0].addr), "10.9.0.1");
		ASSERT_EQ(set(&d.c, "ip", "192.168.0.3/24"), 0);
		EXPECT_EQ(d.c.n_ips, 2u);
	}
}

TEST(ConfigTest, Validate)
{
	char err[256] = "";
	{
		Cfg d;
		ASSERT_EQ(set(&d.c, "port", "net_ring0"), 0);
		EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
		EXPECT_STREQ(err, "--port net_ring0: needs at least one --ip ADDR/PREFIX");
		ASSERT_EQ(set(&d.c, "ip", "10.0.0.1/24"), 0);
		EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
	}
	{
		Cfg d;
		ASSERT_EQ(set(&d.c, "ip", "10.0.0.1/24"), 0);
		ASSERT_EQ(set(&d.c, "gw", "10.0.1.1"), 0);
		EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
		EXPECT_STREQ(err, "--gw 10.0.1.1: not on-link for any --ip of its family");
		ASSERT_EQ(set(&d.c, "ip", "10.0.1.2/30"), 0);
		EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
		ASSERT_EQ(set(&d.c, "gw", "fe80::1"), 0);
		EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
		ASSERT_EQ(set(&d.c, "ip", "fe80::2/64"), 0);
		EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
		ASSERT_EQ(set(&d.c, "mtu", "1000"), 0);
		EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
		EXPECT_NE(std::string(err).find("IPv6 needs at least 1280"), std::string::npos);
	}
	{
		// Prefix edges: /0 covers everything, /32 only itself; odd prefixes mask bits.
		Cfg d;
		ASSERT_EQ(set(&d.c, "ip", "10.0.0.1/0"), 0);
		ASSERT_EQ(set(&d.c, "gw", "192.0.2.1"), 0);
		EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
		Cfg e;
		ASSERT_EQ(set(&e.c, "ip", "10.0.0.1/32"), 0);
		ASSERT_EQ(set(&e.c, "gw", "10.0.0.2"), 0);
		EXPECT_EQ(dpsctp_config_validate(&e.c, err, sizeof(err)), -EINVAL);
		Cfg f;
		ASSERT_EQ(set(&f.c, "ip", "10.0.0.1/21"), 0);
		ASSERT_EQ(set(&f.c, "gw", "10.0.7.254"), 0);
		EXPECT_EQ(dpsctp_config_validate(&f.c, err, sizeof(err)), 0) << err;
		ASSERT_EQ(set(&f.c, "gw", "10.0.8.1"), 0);
		EXPECT_EQ(dpsctp_config_validate(&f.c, err, sizeof(err)), -EINVAL);
	}
	{
		Cfg d;
		ASSERT_EQ(set(&d.c, "mtu", "9000"), 0);
		ASSERT_EQ(set(&d.c, "sndbuf", "8k"), 0);
		EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
		EXPECT_STREQ(err, "--sndbuf 8192: below --mtu 9000, no full-sized packet fits");
	}
}

// A number a program wrote into the structure itself (not through
// dpsctp_config_set()) meets its option's range in validate, instead of being
// cut silently by the runtime (--max-streams 70000 became 65535).
TEST(ConfigTest, ValidateRangesOfAStructureFilledInByCode)
{
	char err[256] = "";
	Cfg d;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
	d.c.max_streams = 70000;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
	EXPECT_STREQ(err, "--max-streams 70000: out of range (1..65535)");
	d.c.max_streams = 0;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
	EXPECT_STREQ(err, "--max-streams 0: out of range (1..65535)");
	d.c.max_streams = 100;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
	// Zero where zero means something (queues: one per lcore) passes.
	d.c.queues = 0;
	d.c.mbufs = 0;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
	d.c.max_paths = 9;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
	EXPECT_STREQ(err, "--max-paths 9: out of range (1..8)");
	d.c.max_paths = 4;
	d.c.copy_max = 10000;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
	EXPECT_STREQ(err, "--copy-max 10000: out of range (auto or 0..9216)");
	d.c.copy_max = DPSCTP_CONFIG_COPY_MAX_AUTO;
	d.c.rcvbuf = 1u << 31;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
	EXPECT_STREQ(err, "--rcvbuf 2147483648: out of range (4096..1073741824)");
}

TEST(ConfigTest, UsageListsEveryOptionWithItsDefault)
{
	std::string u = usage_text();
	const char *names[] = { "--port DEVARGS",
				"--ip ADDR/PREFIX",
				"--gw ADDR",
				"--mac MAC",
				"--sctp-port N",
				"--profile rfc|dc",
				"--udp-encap[=PORT]",
				"--no-udp-encap",
				"--udp-port PORT",
				"--queues N",
				"--mtu N",
				"--max-assocs N",
				"--max-handshakes N",
				"--max-streams N",
				"--max-paths N",
				"--rcvbuf BYTES",
				"--sndbuf BYTES",
				"--mbufs N",
				"--copy-max BYTES|auto",
				"--impair SPEC",
				"--impair-rx SPEC",
				"--telemetry",
				"--no-telemetry",
				"--log-level LEVEL",
				"--config FILE" };
	for (const char *n : names)
		EXPECT_NE(u.find(std::string("  ") + n + " "), std::string::npos) << n << "\n" << u;
	const char *defaults[] = { "(1..1048576; default 1024)",
				   "(576..9216; default 1500)",
				   "default 256k",
				   "(default dc)",
				   "(default info)",
				   "(default on)",
				   "default auto",
				   "0 = computed from the limits" };
	for (const char *d : defaults)
		EXPECT_NE(u.find(d), std::string::npos) << d << "\n" << u;
}

TEST(ConfigTest, PrintRoundTrip)
{
	TempDir t;
	char err[256] = "";
	Cfg d;
	std::string text = print_to_string(d.c);
	Cfg back;
	std::string p = t.write("defaults.conf", text);
	ASSERT_EQ(dpsctp_config_parse_file(&back.c, p.c_str(), err, sizeof(err)), 0) << err << "\n"
										     << text;
	expect_same(back.c, d.c);

	Cfg full;
	Argv v({ "--port",
		 "net_ring0",
		 "--port",
		 "net_af_packet0,iface=veth0",
		 "--ip",
		 "10.0.0.1/24",
		 "--ip",
		 "2001:db8::1/64",
		 "--ip",
		 "10.0.1.1/24",
		 "--gw",
		 "10.0.0.254",
		 "--gw",
		 "2001:db8::fe",
		 "--mac",
		 "02:00:00:00:00:01",
		 "--sctp-port",
		 "36412",
		 "--profile",
		 "rfc",
		 "--udp-encap=10000",
		 "--queues",
		 "4",
		 "--mtu",
		 "9000",
		 "--max-assocs",
		 "4096",
		 "--max-handshakes",
		 "64",
		 "--max-streams",
		 "10",
		 "--max-paths",
		 "3",
		 "--rcvbuf",
		 "3m",
		 "--sndbuf",
		 "5m",
		 "--mbufs",
		 "65536",
		 "--copy-max",
		 "0",
		 "--impair",
		 "loss=0.5%,seed=9",
		 "--impair-rx",
		 "loss=2%,reorder=1%,seed=10",
		 "--no-telemetry",
		 "--log-level",
		 "warning" });
	ASSERT_EQ(dpsctp_config_parse_args(&full.c, v.argc(), v.p.data(), err, sizeof(err)), 1)
		<< err;
	text = print_to_string(full.c);
	EXPECT_NE(text.find("ip = 2001:db8::1/64\n"), std::string::npos) << text;
	EXPECT_NE(text.find("rcvbuf = 3m\n"), std::string::npos) << text;
	EXPECT_NE(text.find("impair-rx = loss=2%,reorder=1%,seed=10\n"), std::string::npos) << text;
	EXPECT_NE(text.find("\nno-telemetry\n"), std::string::npos) << text;
	Cfg back2;
	p = t.write("full.conf", text);
	ASSERT_EQ(dpsctp_config_parse_file(&back2.c, p.c_str(), err, sizeof(err)), 0) << err << "\n"
										      << text;
	expect_same(back2.c, full.c);
	// Printing is a fixed point.
	EXPECT_EQ(print_to_string(back2.c), text);
}

// ---------------------------------------------------------------------------
// Randomized model tests. The model is a plain record of what each option
// should leave behind; the generators draw valid and invalid values.

struct Model {
	std::vector<std::string> ports;
	std::vector<std::string> ips; // canonical text "addr/prefix"
	std::string gw4 = "none", gw6 = "none";
	std::string mac; // "" = unset
	unsigned sctp_port = 0, udp_port = 9899, queues = 0, mtu = 1500;
	unsigned max_assocs = 1024, max_handshakes = 256, max_streams = 64, max_paths = 4;
	uint32_t rcvbuf = 256 * 1024, sndbuf = 256 * 1024, mbufs = 0;
	uint32_t copy_max = DPSCTP_CONFIG_COPY_MAX_AUTO;
	std::string profile = "dc", log = "info", impair;
	bool udp_encap = false, telemetry = true;
};

void
expect_model(const Model &m, const struct dpsctp_config &c)
{
	ASSERT_EQ(c.n_ports, m.ports.size());
	for (size_t i = 0; i < m.ports.size(); i++)
		EXPECT_EQ(m.ports[i], c.ports[i]);
	ASSERT_EQ(c.n_ips, m.ips.size());
	for (size_t i = 0; i < m.ips.size(); i++)
		EXPECT_EQ(m.ips[i],
			  addr_str(c.ips[i].addr) + "/" + std::to_string(c.ips[i].prefix));
	EXPECT_EQ(m.gw4, addr_str(c.gw4));
	EXPECT_EQ(m.gw6, addr_str(c.gw6));
	EXPECT_EQ(!m.mac.empty(), c.has_mac);
	if (c.has_mac) {
		char buf[32];
		snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x", c.mac[0], c.mac[1],
			 c.mac[2], c.mac[3], c.mac[4], c.mac[5]);
		EXPECT_EQ(m.mac, buf);
	}
	EXPECT_EQ(m.sctp_port, c.sctp_port);
	EXPECT_EQ(m.udp_port, c.udp_port);
	EXPECT_EQ(m.queues, c.queues);
	EXPECT_EQ(m.mtu, c.mtu);
	EXPECT_EQ(m.max_assocs, c.max_assocs);
	EXPECT_EQ(m.max_handshakes, c.max_handshakes);
	EXPECT_EQ(m.max_streams, c.max_streams);
	EXPECT_EQ(m.max_paths, c.max_paths);
	EXPECT_EQ(m.rcvbuf, c.rcvbuf);
	EXPECT_EQ(m.sndbuf, c.sndbuf);
	EXPECT_EQ(m.mbufs, c.mbufs);
	EXPECT_EQ(m.copy_max, c.copy_max);
	EXPECT_EQ(m.profile, dpsctp_config_profile_name(c.profile));
	EXPECT_EQ(m.log, dpsctp_config_log_level_name(c.log_level));
	EXPECT_EQ(m.impair, c.impair);
	EXPECT_EQ(m.udp_encap, c.udp_encap);
	EXPECT_EQ(m.telemetry, c.telemetry);
}

struct Gen {
	std::mt19937_64 rng;
	explicit Gen(uint64_t seed) : rng(seed)
	{
	}
	uint64_t below(uint64_t n)
	{
		return rng() % n;
	}
	uint64_t in(uint64_t lo, uint64_t hi)
	{
		return lo + below(hi - lo + 1);
	}

	// A size as text in one of its spellings, and its value.
	std::string size_text(uint32_t lo, uint32_t hi, uint32_t *out)
	{
		switch (below(3)) {
		case 0: {
			uint32_t k = (uint32_t)in((lo + 1023) / 1024, hi / 1024);
			*out = k * 1024u;
			return std::to_string(k) + (below(2) ? "k" : "K");
		}
		case 1: {
			uint32_t mm = (uint32_t)in((lo + (1u << 20) - 1) >> 20, hi >> 20);
			*out = mm << 20;
			return std::to_string(mm) + (below(2) ? "m" : "M");
		}
		default:
			*out = (uint32_t)in(lo, hi);
			return std::to_string(*out);
		}
	}

	// One random valid option applied to the model; returns {name, value or empty for
	// a flag, has_value}.
	struct Op {
		std::string name, value;
		bool has_value;
	};
	Op option(Model &m, bool allow_lists)
	{
		for (;;) {
			switch (below(22)) {
			case 0: {
				if (!allow_lists || m.ports.size() == DPSCTP_CONFIG_MAX_PORTS)
					continue;
				std::string p = "net_ring" + std::to_string(below(1000000));
				bool dup = false;
				for (auto &x : m.ports)
					dup |= x == p;
				if (dup)
					continue;
				m.ports.push_back(p);
				return { "port", p, true };
			}
			case 1: {
				if (!allow_lists || m.ips.size() == DPSCTP_CONFIG_MAX_IPS)
					continue;
				char buf[80];
				std::string canon;
				if (below(2)) {
					snprintf(buf, sizeof(buf), "10.%u.%u.%u/%u",
						 (unsigned)below(256), (unsigned)below(256),
						 (unsigned)in(1, 254), (unsigned)below(33));
					canon = buf;
				} else {
					unsigned a = (unsigned)in(1, 0xffff),
						 b = (unsigned)below(0x10000);
					unsigned pre = (unsigned)below(129);
					snprintf(buf, sizeof(buf), "2001:db8:%x::%x/%u", a, b, pre);
					canon = buf;
					if (b == 0) {
						snprintf(buf, sizeof(buf), "2001:db8:%x::/%u", a,
							 pre);
						canon = buf;
					}
				}
				std::string addr = canon.substr(0, canon.find('/'));
				bool dup = false;
				for (auto &x : m.ips)
					dup |= x.substr(0, x.find('/')) == addr;
				if (dup)
					continue;
				m.ips.push_back(canon);
				return { "ip", canon, true };
			}
			case 2: {
				char buf[64];
				if (below(2)) {
					snprintf(buf, sizeof(buf), "192.0.2.%u",
						 (unsigned)in(1, 254));
					m.gw4 = buf;
				} else {
					snprintf(buf, sizeof(buf), "fe80::%x",
						 (unsigned)in(1, 0xffff));
					m.gw6 = buf;
				}
				return { "gw", buf, true };
			}
			case 3: {
				char buf[32];
				snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x",
					 (unsigned)(below(128) * 2), (unsigned)below(256),
					 (unsigned)below(256), (unsigned)below(256),
					 (unsigned)below(256), (unsigned)in(1, 255));
				m.mac = buf;
				return { "mac", buf, true };
			}
			case 4:
				m.sctp_port = (unsigned)below(65536);
				return { "sctp-port", std::to_string(m.sctp_port), true };
			case 5:
				m.profile = below(2) ? "rfc" : "dc";
				return { "profile", m.profile, true };
			case 6:
				m.udp_encap = true;
				if (below(2))
					return { "udp-encap", "", false };
				m.udp_port = (unsigned)in(1, 65535);
				return { "udp-encap", std::to_string(m.udp_port), true };
			case 7:
				m.udp_encap = false;
				return { "no-udp-encap", "", false };
			case 8:
				m.udp_port = (unsigned)in(1, 65535);
				return { "udp-port", std::to_string(m.udp_port), true };
			case 9:
				m.queues = (unsigned)below(129);
				return { "queues", std::to_string(m.queues), true };
			case 10:
				m.mtu = (unsigned)in(576, 9216);
				return { "mtu", std::to_string(m.mtu), true };
			case 11:
				m.max_assocs = (unsigned)in(1, 1048576);
				return { "max-assocs", std::to_string(m.max_assocs), true };
			case 12:
				m.max_handshakes = (unsigned)in(1, 65536);
				return { "max-handshakes", std::to_string(m.max_handshakes), true };
			case 13:
				m.max_streams = (unsigned)in(1, 65535);
				return { "max-streams", std::to_string(m.max_streams), true };
			case 14:
				m.max_paths = (unsigned)in(1, 8);
				return { "max-paths", std::to_string(m.max_paths), true };
			case 15:
				return { "rcvbuf", size_text(4096, 1u << 30, &m.rcvbuf), true };
			case 16:
				return { "sndbuf", size_text(4096, 1u << 30, &m.sndbuf), true };
			case 17:
				m.mbufs = below(4) == 0 ? 0 : (uint32_t)in(256, 1u << 24);
				return { "mbufs", std::to_string(m.mbufs), true };
			case 18:
				if (below(3) == 0) {
					m.copy_max = DPSCTP_CONFIG_COPY_MAX_AUTO;
					return { "copy-max", "auto", true };
				}
				m.copy_max = (uint32_t)below(9217);
				return { "copy-max", std::to_string(m.copy_max), true };
			case 19:
				m.impair = below(4) == 0
						   ? ""
						   : "loss=" + std::to_string(below(50)) +
							     "%,seed=" + std::to_string(rng());
				return { "impair", m.impair, true };
			case 20:
				m.telemetry = below(2);
				return { m.telemetry ? "telemetry" : "no-telemetry", "", false };
			default: {
				const char *l[] = { "error", "warning", "info", "debug" };
				m.log = l[below(4)];
				return { "log-level", m.log, true };
			}
			}
		}
	}
};

// Random command lines: known options in random syntax, interleaved with the
// app's own options and words, occasionally a "--" tail. The model predicts
// the configuration and the argv left for the app.
TEST(ConfigTest, RandomArgsAgainstModel)
{
	for (uint64_t seed = 1; seed <= 500; seed++) {
		SCOPED_TRACE("seed " + std::to_string(seed));
		Gen g(seed);
		Model m;
		std::vector<std::string> args, left;
		unsigned n_ops = (unsigned)g.in(0, 40);
		for (unsigned i = 0; i < n_ops; i++) {
			switch (g.below(6)) {
			case 0: {
				// The app's: short options, long ones, values, positional words.
				const char *app[] = {
					"-s", "-c",	      "--json", "--time=10",
					"-",  "host.example", "7",	"--bitrate=1G"
				};
				std::string w = app[g.below(8)];
				args.push_back(w);
				left.push_back(w);
				break;
			}
			default: {
				Gen::Op op = g.option(m, true);
				if (!op.has_value)
					args.push_back("--" + op.name);
				else if (op.name == "udp-encap" || op.value.empty() || g.below(2))
					args.push_back("--" + op.name + "=" + op.value);
				else {
					args.push_back("--" + op.name);
					args.push_back(op.value);
				}
				break;
			}
			}
		}
		if (g.below(4) == 0) {
			std::vector<std::string> tail = { "--", "--mtu", "1280", "-x" };
			args.insert(args.end(), tail.begin(), tail.end());
			left.insert(left.end(), tail.begin(), tail.end());
		}
		Cfg d;
		Argv v(args);
		char err[256] = "";
		int n = dpsctp_config_parse_args(&d.c, v.argc(), v.p.data(), err, sizeof(err));
		ASSERT_EQ(n, (int)left.size() + 1) << err;
		EXPECT_EQ(v.rest(n), left);
		expect_model(m, d.c);
		if (HasFailure())
			return;
	}
}

// Random configurations through set(): the model agrees after every call, and
// print -> parse_file gives the same configuration back.
TEST(ConfigTest, RandomPrintRoundTrip)
{
	TempDir t;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		SCOPED_TRACE("seed " + std::to_string(seed));
		Gen g(seed);
		Model m;
		Cfg d;
		unsigned n_ops = (unsigned)g.in(0, 60);
		for (unsigned i = 0; i < n_ops; i++) {
			Gen::Op op = g.option(m, true);
			std::string msg;
			ASSERT_EQ(set(&d.c, op.name.c_str(),
				      op.has_value ? op.value.c_str() : nullptr, &msg),
				  0)
				<< op.name << " " << op.value << ": " << msg;
		}
		expect_model(m, d.c);
		std::string text = print_to_string(d.c);
		std::string path = t.write("rt.conf", text);
		Cfg back;
		char err[256] = "";
		ASSERT_EQ(dpsctp_config_parse_file(&back.c, path.c_str(), err, sizeof(err)), 0)
			<< err << "\n"
			<< text;
		expect_same(back.c, d.c);
		if (HasFailure())
			return;
	}
}

} // namespace
