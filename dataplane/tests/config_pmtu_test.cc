// SPDX-License-Identifier: BSD-3-Clause
// --pmtud, --plpmtud and --pmtu-raise (dataplane/config.h, docs/CONFIG.md,
// docs/PMTU.md): defaults, both syntaxes, errors naming the option and what
// it takes, and print -> parse round trips.
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

TEST(ConfigPmtu, Defaults)
{
	struct dpsctp_config c;
	dpsctp_config_defaults(&c);
	EXPECT_TRUE(c.pmtud);
	EXPECT_FALSE(c.plpmtud) << "off, as in Linux";
	EXPECT_EQ(c.pmtu_raise, 600u) << "RFC 8899 §5.1.1 PMTU_RAISE_TIMER";
}

TEST(ConfigPmtu, SetAndRefuse)
{
	struct dpsctp_config c;
	std::string err;
	dpsctp_config_defaults(&c);
	ASSERT_GE(parse(&c, { "--pmtud", "off", "--plpmtud=on", "--pmtu-raise", "30" }, &err), 0)
		<< err;
	EXPECT_FALSE(c.pmtud);
	EXPECT_TRUE(c.plpmtud);
	EXPECT_EQ(c.pmtu_raise, 30u);
	EXPECT_EQ(parse(&c, { "--plpmtud", "yes" }, &err), -EINVAL);
	EXPECT_NE(err.find("plpmtud"), std::string::npos) << err;
	EXPECT_NE(err.find("on or off"), std::string::npos) << err;
	EXPECT_EQ(parse(&c, { "--pmtu-raise", "0" }, &err), -EINVAL);
	EXPECT_NE(err.find("pmtu-raise"), std::string::npos) << err;
	EXPECT_EQ(dpsctp_config_set(&c, "pmtud", "on", nullptr, 0), 0);
	EXPECT_TRUE(c.pmtud);
}

TEST(ConfigPmtu, PrintParsesBack)
{
	struct dpsctp_config c, back;
	dpsctp_config_defaults(&c);
	c.pmtud = false;
	c.plpmtud = true;
	c.pmtu_raise = 45;
	char *buf = nullptr;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ASSERT_EQ(dpsctp_config_print(&c, f), 0);
	fclose(f);
	std::string text(buf, len);
	free(buf);
	EXPECT_NE(text.find("pmtud = off"), std::string::npos) << text;
	EXPECT_NE(text.find("plpmtud = on"), std::string::npos) << text;
	EXPECT_NE(text.find("pmtu-raise = 45"), std::string::npos) << text;
	char path[] = "/tmp/dpsctp_config_pmtu_test.XXXXXX";
	int fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	FILE *w = fdopen(fd, "w");
	fputs(text.c_str(), w);
	fclose(w);
	dpsctp_config_defaults(&back);
	char err[256] = "";
	int r = dpsctp_config_parse_file(&back, path, err, sizeof(err));
	unlink(path);
	ASSERT_EQ(r, 0) << err;
	EXPECT_EQ(back.pmtud, c.pmtud);
	EXPECT_EQ(back.plpmtud, c.plpmtud);
	EXPECT_EQ(back.pmtu_raise, c.pmtu_raise);
}

} // namespace
