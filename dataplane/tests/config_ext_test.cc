// SPDX-License-Identifier: BSD-3-Clause
// --extensions of the data plane's configuration (dataplane/config.h,
// docs/CONFIG.md): the default (PR-SCTP offered), names on the command line
// in both syntaxes and in a file, "none", errors naming the bad word and the
// accepted names, bits this build does not implement refused by
// dpsctp_config_validate(), help and print -> parse round trips.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

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

// argv for parse_args: owns its strings.
struct Argv {
	std::vector<std::string> s;
	std::vector<char *> p;
	explicit Argv(std::vector<std::string> args) : s(std::move(args))
	{
		s.insert(s.begin(), "prog");
		for (auto &x : s)
			p.push_back(x.data());
		p.push_back(nullptr);
	}
	int argc() const
	{
		return (int)s.size();
	}
};

std::string
to_text(void (*fn)(const struct dpsctp_config *, FILE *), const struct dpsctp_config *c)
{
	char *buf = nullptr;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fn(c, f);
	fclose(f);
	std::string s(buf, len);
	free(buf);
	return s;
}

void
print_fn(const struct dpsctp_config *c, FILE *f)
{
	EXPECT_EQ(dpsctp_config_print(c, f), 0);
}

void
usage_fn(const struct dpsctp_config *, FILE *f)
{
	dpsctp_config_usage(f);
}

// A file under /tmp, removed at the end.
struct TempFile {
	std::string path;
	explicit TempFile(const std::string &text)
	{
		char tmpl[] = "/tmp/dpsctp_config_ext_test.XXXXXX";
		int fd = mkstemp(tmpl);
		EXPECT_GE(fd, 0) << strerror(errno);
		if (fd >= 0)
			close(fd);
		path = tmpl;
		std::ofstream(path, std::ios::binary) << text;
	}
	~TempFile()
	{
		unlink(path.c_str());
	}
};

TEST(ConfigExtensions, DefaultOffersPrSctp)
{
	Cfg d;
	EXPECT_EQ(d.c.extensions, DPSCTP_EXT_PR_SCTP);
	EXPECT_EQ(DPSCTP_EXT_PR_SCTP, 0x02u);
	EXPECT_EQ(DPSCTP_CONFIG_EXTENSIONS, DPSCTP_EXT_PR_SCTP) << "only PR-SCTP is implemented";
	char err[256] = "";
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
}

TEST(ConfigExtensions, NamesAndNone)
{
	char err[256] = "";
	Cfg d;
	ASSERT_EQ(dpsctp_config_set(&d.c, "extensions", "none", err, sizeof(err)), 0) << err;
	EXPECT_EQ(d.c.extensions, 0u);
	ASSERT_EQ(dpsctp_config_set(&d.c, "extensions", "pr-sctp", err, sizeof(err)), 0) << err;
	EXPECT_EQ(d.c.extensions, DPSCTP_EXT_PR_SCTP);
	// The same name twice is the same set.
	d.c.extensions = 0;
	ASSERT_EQ(dpsctp_config_set(&d.c, "extensions", "pr-sctp,pr-sctp", err, sizeof(err)), 0)
		<< err;
	EXPECT_EQ(d.c.extensions, DPSCTP_EXT_PR_SCTP);

	// Both command-line syntaxes; the later one wins.
	Cfg a;
	Argv v({ "--extensions", "none", "-s", "--extensions=pr-sctp", "--json" });
	ASSERT_EQ(dpsctp_config_parse_args(&a.c, v.argc(), v.p.data(), err, sizeof(err)), 3) << err;
	EXPECT_EQ(a.c.extensions, DPSCTP_EXT_PR_SCTP);
	EXPECT_STREQ(v.p[1], "-s");
	EXPECT_STREQ(v.p[2], "--json");
	Cfg b;
	Argv w({ "--extensions=none" });
	ASSERT_EQ(dpsctp_config_parse_args(&b.c, w.argc(), w.p.data(), err, sizeof(err)), 1) << err;
	EXPECT_EQ(b.c.extensions, 0u);
}

TEST(ConfigExtensions, BadWordsAreNamed)
{
	char err[256];
	const struct {
		const char *value, *message;
	} bad[] = {
		{ "i-data", "--extensions 'i-data': unknown extension 'i-data' (a comma list of "
			    "pr-sctp, or none)" },
		{ "re-config", "--extensions 're-config': unknown extension 're-config' (a comma "
			       "list of pr-sctp, or none)" },
		{ "pr-sctp,bogus", "--extensions 'pr-sctp,bogus': unknown extension 'bogus' (a "
				   "comma list of pr-sctp, or none)" },
		{ "PR-SCTP", "--extensions 'PR-SCTP': unknown extension 'PR-SCTP' (a comma list "
			     "of pr-sctp, or none)" },
		{ "pr-sctp,none", "--extensions 'pr-sctp,none': unknown extension 'none' (a comma "
				  "list of pr-sctp, or none)" },
		{ "pr-sctp,", "--extensions 'pr-sctp,': empty name (a comma list of pr-sctp, or "
			      "none)" },
		{ "", "--extensions '': empty name (a comma list of pr-sctp, or none)" },
	};
	for (const auto &x : bad) {
		Cfg d;
		d.c.extensions = 0;
		err[0] = '\0';
		EXPECT_EQ(dpsctp_config_set(&d.c, "extensions", x.value, err, sizeof(err)), -EINVAL)
			<< x.value;
		EXPECT_STREQ(err, x.message);
		EXPECT_EQ(d.c.extensions, 0u) << "a refused value leaves the configuration";
	}
	// Missing value on the command line.
	Cfg d;
	Argv v({ "--extensions" });
	EXPECT_EQ(dpsctp_config_parse_args(&d.c, v.argc(), v.p.data(), err, sizeof(err)), -EINVAL);
	EXPECT_STREQ(err, "--extensions: missing value (LIST)");
	// In a file: the line, no dashes.
	TempFile f("# extensions\nextensions = none\nextensions = pr-sctp,x\n");
	Cfg e;
	EXPECT_EQ(dpsctp_config_parse_file(&e.c, f.path.c_str(), err, sizeof(err)), -EINVAL);
	EXPECT_EQ(std::string(err), f.path + ":3: extensions 'pr-sctp,x': unknown extension 'x' "
					     "(a comma list of pr-sctp, or none)");
	EXPECT_EQ(e.c.extensions, 0u) << "line 2 stays applied";
}

// I-DATA (0x04) and RE-CONFIG (0x08) are reserved, not implemented: a
// program that writes the bits itself is refused before anything is offered.
TEST(ConfigExtensions, UnimplementedBitsRefused)
{
	char err[256];
	Cfg d;
	d.c.extensions = DPSCTP_EXT_PR_SCTP | 0x04u;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
	EXPECT_STREQ(err, "--extensions 0x6: bits 0x4 are not extensions this build implements "
			  "(DPSCTP_EXT_*: pr-sctp)");
	d.c.extensions = 0x08u;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
	d.c.extensions = 0x80000000u;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
	d.c.extensions = 0;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
}

TEST(ConfigExtensions, HelpAndPrintRoundTrip)
{
	Cfg d;
	std::string u = to_text(usage_fn, &d.c);
	EXPECT_NE(u.find("  --extensions LIST "), std::string::npos) << u;
	EXPECT_NE(u.find("pr-sctp"), std::string::npos) << u;
	EXPECT_NE(u.find("(default pr-sctp)"), std::string::npos) << u;

	char err[256] = "";
	for (uint32_t ext : { (uint32_t)DPSCTP_EXT_PR_SCTP, 0u }) {
		Cfg c;
		c.c.extensions = ext;
		std::string text = to_text(print_fn, &c.c);
		EXPECT_NE(
			text.find(ext != 0 ? "\nextensions = pr-sctp\n" : "\nextensions = none\n"),
			std::string::npos)
			<< text;
		TempFile f(text);
		Cfg back;
		back.c.extensions = ext ^ DPSCTP_EXT_PR_SCTP; // the file must set it
		ASSERT_EQ(dpsctp_config_parse_file(&back.c, f.path.c_str(), err, sizeof(err)), 0)
			<< err << "\n"
			<< text;
		EXPECT_EQ(back.c.extensions, ext);
		EXPECT_EQ(to_text(print_fn, &back.c), text);
	}
}

} // namespace
