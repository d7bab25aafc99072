// SPDX-License-Identifier: BSD-3-Clause
// Several ports in one configuration (dataplane/config.h, docs/CONFIG.md
// "Several ports"): --ip ADDR/PREFIX,port=N, --gw ADDR,port=N, --route
// PREFIX/LEN,via=ADDR; the cross checks of dpsctp_config_validate() (what
// --check runs), each error naming the option and its value; print -> parse
// round trips; a single-port configuration reads as before.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" {
#include "dataplane/config.h"
}

namespace {

int
parse(struct dpsctp_config *c, std::vector<std::string> args, std::string *err)
{
	args.insert(args.begin(), "prog");
	std::vector<char *> p;
	for (auto &x : args)
		p.push_back(x.data());
	p.push_back(nullptr);
	char e[256] = "";
	int r = dpsctp_config_parse_args(c, (int)args.size(), p.data(), e, sizeof(e));
	*err = e;
	return r;
}

// Parse, then validate: "" when both accept, else the message.
std::string
check(std::vector<std::string> args)
{
	struct dpsctp_config c;
	std::string err;
	dpsctp_config_defaults(&c);
	if (parse(&c, args, &err) < 0)
		return err.empty() ? "parse failed without a message" : err;
	char e[256] = "";
	if (dpsctp_config_validate(&c, e, sizeof(e)) != 0)
		return e[0] != '\0' ? e : "validate failed without a message";
	return "";
}

const std::vector<std::string> kTwo = { "--port", "net_null0",	 "--port", "net_null1",
					"--ip",	  "10.1.0.1/24", "--ip",   "10.2.0.1/24,port=1" };

std::vector<std::string>
two(std::vector<std::string> more)
{
	std::vector<std::string> a = kTwo;
	a.insert(a.end(), more.begin(), more.end());
	return a;
}

TEST(ConfigPorts, PortListAddressesGatewaysRoutes)
{
	struct dpsctp_config c;
	std::string err;
	dpsctp_config_defaults(&c);
	ASSERT_GE(parse(&c,
			two({ "--gw", "10.1.0.254", "--gw", "10.2.0.254,port=1", "--ip",
			      "fd00:b::1/64,port=1", "--gw=fd00:b::fe,port=1", "--route",
			      "192.168.0.0/16,via=10.2.0.253", "--route",
			      "fd00:77::/32,via=fd00:b::fd" }),
			&err),
		  0)
		<< err;
	EXPECT_EQ(c.n_ports, 2u);
	ASSERT_EQ(c.n_ips, 3u);
	EXPECT_EQ(c.ips[0].port, 0u);
	EXPECT_EQ(c.ips[1].port, 1u);
	EXPECT_EQ(c.ips[1].prefix, 24u);
	EXPECT_EQ(c.ips[2].port, 1u);
	EXPECT_EQ(c.ips[2].prefix, 64u);
	EXPECT_EQ(c.gw4.family, 4u);
	EXPECT_EQ(c.gw4.bytes[3], 254u);
	EXPECT_EQ(c.port_gw4[0].family, 4u);
	EXPECT_EQ(c.port_gw4[0].bytes[1], 2u);
	EXPECT_EQ(c.port_gw6[0].family, 6u);
	EXPECT_EQ(c.gw6.family, 0u) << "port 0 has no IPv6 gateway";
	ASSERT_EQ(c.n_routes, 2u);
	EXPECT_EQ(c.routes[0].len, 16u);
	EXPECT_EQ(c.routes[0].via.bytes[3], 253u);
	EXPECT_EQ(c.routes[1].len, 32u);
	char e[256] = "";
	EXPECT_EQ(dpsctp_config_validate(&c, e, sizeof(e)), 0) << e;
}

TEST(ConfigPorts, PrintParsesBack)
{
	struct dpsctp_config c, back;
	std::string err;
	dpsctp_config_defaults(&c);
	ASSERT_GE(parse(&c,
			two({ "--gw", "10.2.0.254,port=1", "--route",
			      "192.168.0.0/16,via=10.2.0.253" }),
			&err),
		  0)
		<< err;
	char path[] = "/tmp/dpsctp_config_ports_XXXXXX";
	int fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	FILE *f = fdopen(fd, "w");
	ASSERT_EQ(dpsctp_config_print(&c, f), 0);
	fclose(f);
	dpsctp_config_defaults(&back);
	char e[256] = "";
	int rc = dpsctp_config_parse_file(&back, path, e, sizeof(e));
	unlink(path);
	ASSERT_EQ(rc, 0) << e;
	ASSERT_EQ(back.n_ips, 2u);
	EXPECT_EQ(back.ips[1].port, 1u);
	EXPECT_EQ(back.port_gw4[0].bytes[3], 254u);
	ASSERT_EQ(back.n_routes, 1u);
	EXPECT_EQ(back.routes[0].len, 16u);
	EXPECT_EQ(back.routes[0].via.bytes[3], 253u);
}

TEST(ConfigPorts, OnePortReadsAsBefore)
{
	EXPECT_EQ(check({ "--port", "net_null0", "--ip", "10.1.0.1/24", "--gw", "10.1.0.254" }),
		  "");
	EXPECT_EQ(check({ "--port", "net_null0", "--ip", "10.1.0.1/24", "--ip", "10.9.0.1/16" }),
		  "")
		<< "overlapping prefixes on one port stay allowed";
}

// Each refusal names the option and its value.
TEST(ConfigPorts, CheckRefusals)
{
	struct Case {
		std::vector<std::string> args;
		const char *says;
	} cases[] = {
		{ two({ "--ip", "10.1.0.7/16,port=1" }),
		  "--ip 10.1.0.7/16,port=1: its prefix overlaps" },
		{ two({ "--ip", "10.1.0.1/24,port=1" }), "address given twice" },
		{ two({ "--ip", "10.3.0.1/24,port=2" }),
		  "--ip 10.3.0.1/24,port=2: there are only 2" },
		{ two({ "--ip", "10.3.0.1/24,port=9" }), "port= must be 0..3" },
		{ { "--port", "net_null0", "--port", "net_null1", "--ip", "10.1.0.1/24" },
		  "--port net_null1: needs at least one --ip" },
		{ two({ "--gw", "10.1.0.254,port=1" }),
		  "--gw 10.1.0.254,port=1: not on-link for any --ip of its family on port 1" },
		{ two({ "--gw", "10.2.0.254" }), "--gw 10.2.0.254: not on-link" },
		{ two({ "--gw", "10.2.0.254,port=2" }),
		  "--gw 10.2.0.254,port=2: there are only 2" },
		{ two({ "--route", "192.168.0.0/16,via=10.9.0.1" }),
		  "--route 192.168.0.0/16,via=10.9.0.1: the gateway is on-link for no --ip" },
		{ two({ "--route", "192.168.0.1/16,via=10.1.0.9" }), "host bits set" },
		{ two({ "--route", "192.168.0.0/16" }), "not PREFIX/LEN,via=ADDR" },
		{ two({ "--route", "192.168.0.0/33,via=10.1.0.9" }), "bad prefix length" },
		{ two({ "--route", "192.168.0.0/16,via=fd00::1" }),
		  "not a unicast address of the" },
		{ two({ "--route", "192.168.0.0/16,via=10.1.0.9", "--route",
			"192.168.0.0/16,via=10.2.0.9" }),
		  "--route '192.168.0.0/16,via=10.2.0.9': prefix given twice" },
		{ { "--port", "a0", "--port", "a1", "--port", "a2", "--port", "a3", "--port",
		    "a4" },
		  "--port 'a4': at most 4 ports" },
	};
	for (const Case &t : cases) {
		std::string msg = check(t.args);
		EXPECT_NE(msg.find(t.says), std::string::npos)
			<< "got \"" << msg << "\", want \"" << t.says << "\"";
	}
	// Routes: at most DPSCTP_CONFIG_MAX_ROUTES.
	std::vector<std::string> many = kTwo;
	for (unsigned i = 0; i <= DPSCTP_CONFIG_MAX_ROUTES; i++) {
		many.push_back("--route");
		many.push_back("172." + std::to_string(16 + i) + ".0.0/16,via=10.1.0.9");
	}
	EXPECT_NE(check(many).find("at most 16 routes"), std::string::npos) << check(many);
}

} // namespace
