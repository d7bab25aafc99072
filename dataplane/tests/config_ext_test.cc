// SPDX-License-Identifier: BSD-3-Clause
// --extensions and --sched of the data plane's configuration
// (dataplane/config.h, docs/CONFIG.md): the default (PR-SCTP and I-DATA
// offered, round robin), names on the command line in both syntaxes and in
// a file, "none", errors naming the bad word and the accepted names, bits
// and schedulers this build does not have refused by
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

constexpr uint32_t kBoth = DPSCTP_EXT_PR_SCTP | DPSCTP_EXT_I_DATA;
constexpr uint32_t kAll = kBoth | DPSCTP_EXT_RECONFIG;

TEST(ConfigExtensions, DefaultOffersAllThree)
{
	Cfg d;
	EXPECT_EQ(d.c.extensions, kAll) << "PR-SCTP, I-DATA and RE-CONFIG offered by default";
	EXPECT_EQ(DPSCTP_EXT_PR_SCTP, 0x02u);
	EXPECT_EQ(DPSCTP_EXT_I_DATA, 0x04u) << "the core's SCTP_COOKIE_EXT_I_DATA";
	EXPECT_EQ(DPSCTP_CONFIG_EXTENSIONS, kBoth | DPSCTP_EXT_RECONFIG)
		<< "PR-SCTP, I-DATA and RE-CONFIG are implemented";
	EXPECT_EQ(DPSCTP_EXT_RECONFIG, 0x08u) << "the core's SCTP_COOKIE_EXT_RECONFIG";
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
	ASSERT_EQ(dpsctp_config_set(&d.c, "extensions", "i-data", err, sizeof(err)), 0) << err;
	EXPECT_EQ(d.c.extensions, DPSCTP_EXT_I_DATA) << "a list replaces, it does not add";
	ASSERT_EQ(dpsctp_config_set(&d.c, "extensions", "i-data,pr-sctp", err, sizeof(err)), 0)
		<< err;
	EXPECT_EQ(d.c.extensions, kBoth) << "in any order";
	// The same name twice is the same set.
	d.c.extensions = 0;
	ASSERT_EQ(dpsctp_config_set(&d.c, "extensions", "pr-sctp,pr-sctp", err, sizeof(err)), 0)
		<< err;
	EXPECT_EQ(d.c.extensions, DPSCTP_EXT_PR_SCTP);
	ASSERT_EQ(dpsctp_config_set(&d.c, "extensions", "i-data,pr-sctp,i-data", err, sizeof(err)),
		  0)
		<< err;
	EXPECT_EQ(d.c.extensions, kBoth);
	ASSERT_EQ(dpsctp_config_set(&d.c, "extensions", "reconfig", err, sizeof(err)), 0) << err;
	EXPECT_EQ(d.c.extensions, DPSCTP_EXT_RECONFIG);
	ASSERT_EQ(
		dpsctp_config_set(&d.c, "extensions", "reconfig,i-data,pr-sctp", err, sizeof(err)),
		0)
		<< err;
	EXPECT_EQ(d.c.extensions, kAll);
	EXPECT_NE(dpsctp_config_set(&d.c, "extensions", "reconf", err, sizeof(err)), 0)
		<< "the name is reconfig";

	// Both command-line syntaxes; the later one wins.
	Cfg a;
	Argv v({ "--extensions", "none", "-s", "--extensions=pr-sctp", "--json" });
	ASSERT_EQ(dpsctp_config_parse_args(&a.c, v.argc(), v.p.data(), err, sizeof(err)), 3) << err;
	EXPECT_EQ(a.c.extensions, DPSCTP_EXT_PR_SCTP) << "pr-sctp without i-data";
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
#define ACCEPTED "(a comma list of pr-sctp, i-data, reconfig, or none)"
	const struct {
		const char *value, *message;
	} bad[] = {
		{ "re-config",
		  "--extensions 're-config': unknown extension 're-config' " ACCEPTED },
		{ "pr-sctp,bogus",
		  "--extensions 'pr-sctp,bogus': unknown extension 'bogus' " ACCEPTED },
		{ "PR-SCTP", "--extensions 'PR-SCTP': unknown extension 'PR-SCTP' " ACCEPTED },
		{ "I-DATA", "--extensions 'I-DATA': unknown extension 'I-DATA' " ACCEPTED },
		{ "idata", "--extensions 'idata': unknown extension 'idata' " ACCEPTED },
		{ "i-data ", "--extensions 'i-data ': unknown extension 'i-data ' " ACCEPTED },
		{ "pr-sctp,none",
		  "--extensions 'pr-sctp,none': unknown extension 'none' " ACCEPTED },
		{ "pr-sctp,", "--extensions 'pr-sctp,': empty name " ACCEPTED },
		{ ",i-data", "--extensions ',i-data': empty name " ACCEPTED },
		{ "", "--extensions '': empty name " ACCEPTED },
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
	EXPECT_EQ(std::string(err),
		  f.path + ":3: extensions 'pr-sctp,x': unknown extension 'x' " ACCEPTED);
#undef ACCEPTED
	EXPECT_EQ(e.c.extensions, 0u) << "line 2 stays applied";
}

// Bits that name no extension this build implements are refused before
// anything is offered; RE-CONFIG (0x08) is one and may be asked for.
TEST(ConfigExtensions, UnimplementedBitsRefused)
{
	char err[256];
	Cfg d;
	d.c.extensions = kBoth | 0x10u;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
	EXPECT_STREQ(err, "--extensions 0x16: bits 0x10 are not extensions this build implements "
			  "(DPSCTP_EXT_*: pr-sctp,i-data,reconfig)");
	d.c.extensions = 0x01u;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
	d.c.extensions = 0x80000000u;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
	for (uint32_t ok : { 0u, (uint32_t)DPSCTP_EXT_PR_SCTP, (uint32_t)DPSCTP_EXT_I_DATA, kBoth,
			     kBoth | (uint32_t)DPSCTP_EXT_RECONFIG }) {
		d.c.extensions = ok;
		EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
	}
}

TEST(ConfigExtensions, HelpAndPrintRoundTrip)
{
	Cfg d;
	std::string u = to_text(usage_fn, &d.c);
	EXPECT_NE(u.find("  --extensions LIST "), std::string::npos) << u;
	EXPECT_NE(u.find("i-data (RFC 8260"), std::string::npos) << u;
	EXPECT_NE(u.find("(default pr-sctp,i-data,reconfig)"), std::string::npos) << u;

	char err[256] = "";
	const struct {
		uint32_t ext;
		const char *line;
	} sets[] = {
		{ kAll, "\nextensions = pr-sctp,i-data,reconfig\n" },
		{ kBoth, "\nextensions = pr-sctp,i-data\n" },
		{ DPSCTP_EXT_RECONFIG, "\nextensions = reconfig\n" },
		{ DPSCTP_EXT_PR_SCTP, "\nextensions = pr-sctp\n" },
		{ DPSCTP_EXT_I_DATA, "\nextensions = i-data\n" },
		{ 0, "\nextensions = none\n" },
	};
	for (const auto &x : sets) {
		uint32_t ext = x.ext;
		Cfg c;
		c.c.extensions = ext;
		std::string text = to_text(print_fn, &c.c);
		EXPECT_NE(text.find(x.line), std::string::npos) << text;
		TempFile f(text);
		Cfg back;
		back.c.extensions = ext ^ kAll; // the file must set it
		ASSERT_EQ(dpsctp_config_parse_file(&back.c, f.path.c_str(), err, sizeof(err)), 0)
			<< err << "\n"
			<< text;
		EXPECT_EQ(back.c.extensions, ext);
		EXPECT_EQ(to_text(print_fn, &back.c), text);
	}
}

// --sched: every scheduler by name (RFC 8260 §3), round robin by default.
TEST(ConfigSched, NamesAndDefault)
{
	const struct {
		const char *name;
		unsigned sched;
	} names[] = {
		{ "rr", DPSCTP_SCHED_RR },	   { "fcfs", DPSCTP_SCHED_FCFS },
		{ "rr_pkt", DPSCTP_SCHED_RR_PKT }, { "prio", DPSCTP_SCHED_PRIO },
		{ "fc", DPSCTP_SCHED_FC },	   { "wfq", DPSCTP_SCHED_WFQ },
	};
	Cfg d;
	EXPECT_EQ(d.c.sched, DPSCTP_SCHED_RR);
	EXPECT_EQ(DPSCTP_SCHED_RR, 0u) << "a zeroed configuration field is round robin too";
	char err[256] = "";
	for (const auto &x : names) {
		Cfg c;
		ASSERT_EQ(dpsctp_config_set(&c.c, "sched", x.name, err, sizeof(err)), 0) << err;
		EXPECT_EQ(c.c.sched, x.sched) << x.name;
		EXPECT_STREQ(dpsctp_config_sched_name(x.sched), x.name);
		EXPECT_EQ(dpsctp_config_validate(&c.c, err, sizeof(err)), 0) << err;
	}
	EXPECT_EQ(dpsctp_config_sched_name(DPSCTP_SCHED_WFQ + 1), nullptr);
	EXPECT_EQ(dpsctp_config_sched_name(UINT32_MAX), nullptr);

	// Both command-line syntaxes; the later one wins; the rest stays.
	Cfg a;
	Argv v({ "--sched", "prio", "-s", "--sched=wfq", "--json" });
	ASSERT_EQ(dpsctp_config_parse_args(&a.c, v.argc(), v.p.data(), err, sizeof(err)), 3) << err;
	EXPECT_EQ(a.c.sched, DPSCTP_SCHED_WFQ);
	EXPECT_STREQ(v.p[1], "-s");
	EXPECT_STREQ(v.p[2], "--json");
	// A file.
	TempFile f("sched = fc   # fair capacity\n");
	Cfg b;
	ASSERT_EQ(dpsctp_config_parse_file(&b.c, f.path.c_str(), err, sizeof(err)), 0) << err;
	EXPECT_EQ(b.c.sched, DPSCTP_SCHED_FC);
}

TEST(ConfigSched, BadNamesListTheSchedulers)
{
	char err[256];
	for (const char *v : { "RR", "priority", "fifo", "rr-pkt", "", "wfq,prio", "3" }) {
		Cfg d;
		d.c.sched = DPSCTP_SCHED_FC;
		err[0] = '\0';
		EXPECT_EQ(dpsctp_config_set(&d.c, "sched", v, err, sizeof(err)), -EINVAL) << v;
		EXPECT_EQ(std::string(err),
			  std::string("--sched '") + v +
				  "': unknown (rr, fcfs, rr_pkt, prio, fc or wfq)");
		EXPECT_EQ(d.c.sched, DPSCTP_SCHED_FC) << "a refused value leaves the configuration";
	}
	Cfg d;
	Argv v({ "--sched" });
	EXPECT_EQ(dpsctp_config_parse_args(&d.c, v.argc(), v.p.data(), err, sizeof(err)), -EINVAL);
	EXPECT_STREQ(err, "--sched: missing value (rr|fcfs|rr_pkt|prio|fc|wfq)");
	TempFile f("sched = prio\nsched = lottery\n");
	Cfg e;
	EXPECT_EQ(dpsctp_config_parse_file(&e.c, f.path.c_str(), err, sizeof(err)), -EINVAL);
	EXPECT_EQ(std::string(err), f.path + ":2: sched 'lottery': unknown (rr, fcfs, rr_pkt, "
					     "prio, fc or wfq)");
	EXPECT_EQ(e.c.sched, DPSCTP_SCHED_PRIO) << "line 1 stays applied";
	// A program that writes a number the build does not have.
	Cfg p;
	p.c.sched = DPSCTP_SCHED_WFQ + 1;
	EXPECT_EQ(dpsctp_config_validate(&p.c, err, sizeof(err)), -EINVAL);
	EXPECT_STREQ(err, "--sched 6: not a scheduler (DPSCTP_SCHED_*: rr, fcfs, rr_pkt, prio, fc "
			  "or wfq)");
}

TEST(ConfigSched, HelpAndPrintRoundTrip)
{
	Cfg d;
	std::string u = to_text(usage_fn, &d.c);
	EXPECT_NE(u.find("  --sched rr|fcfs|rr_pkt|prio|fc|wfq "), std::string::npos) << u;
	EXPECT_NE(u.find("stream scheduler (RFC 8260 §3)"), std::string::npos) << u;
	char err[256] = "";
	for (unsigned sched = DPSCTP_SCHED_RR; sched <= DPSCTP_SCHED_WFQ; sched++) {
		Cfg c;
		c.c.sched = sched;
		std::string text = to_text(print_fn, &c.c);
		std::string line =
			std::string("\nsched = ") + dpsctp_config_sched_name(sched) + "\n";
		EXPECT_NE(text.find(line), std::string::npos) << text;
		TempFile f(text);
		Cfg back;
		back.c.sched = (sched + 1) % (DPSCTP_SCHED_WFQ + 1); // the file must set it
		ASSERT_EQ(dpsctp_config_parse_file(&back.c, f.path.c_str(), err, sizeof(err)), 0)
			<< err << "\n"
			<< text;
		EXPECT_EQ(back.c.sched, sched);
		EXPECT_EQ(to_text(print_fn, &back.c), text);
	}
}

} // namespace

// --out-streams: the streams asked for at the start, below --max-streams so
// that RE-CONFIG can add the rest; 0 (unset) is --max-streams; above it is
// refused by name; printed and read back.
TEST(ConfigOutStreams, BelowMaxStreams)
{
	Cfg d;
	char err[256] = "";
	EXPECT_EQ(d.c.out_streams, 0u) << "unset: --max-streams";
	ASSERT_EQ(dpsctp_config_set(&d.c, "out-streams", "4", err, sizeof(err)), 0) << err;
	EXPECT_EQ(d.c.out_streams, 4u);
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << err;
	ASSERT_EQ(dpsctp_config_set(&d.c, "out-streams", "70", err, sizeof(err)), 0) << err;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), -EINVAL);
	EXPECT_STREQ(err, "--out-streams 70: above --max-streams 64");
	ASSERT_EQ(dpsctp_config_set(&d.c, "out-streams", "0", err, sizeof(err)), 0) << err;
	EXPECT_EQ(dpsctp_config_validate(&d.c, err, sizeof(err)), 0) << "0: back to --max-streams";

	ASSERT_EQ(dpsctp_config_set(&d.c, "out-streams", "5", err, sizeof(err)), 0) << err;
	std::string text = to_text(print_fn, &d.c);
	EXPECT_NE(text.find("\nout-streams = 5\n"), std::string::npos) << text;
	TempFile f(text);
	Cfg back;
	ASSERT_EQ(dpsctp_config_parse_file(&back.c, f.path.c_str(), err, sizeof(err)), 0) << err;
	EXPECT_EQ(back.c.out_streams, 5u);
	EXPECT_NE(to_text(usage_fn, &d.c).find("  --out-streams N "), std::string::npos);
}
