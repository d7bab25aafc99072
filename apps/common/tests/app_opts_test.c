/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_opts (apps/common/app_opts.h): one table parses, refuses and prints
 * --help. Each case runs the parser on an argv and checks the fields, the
 * return value and the sentence of the error. Exit 0 when every check
 * holds; each failure is printed with its line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/common/app_opts.h"

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);   \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

#define CHECK_ERR(err, want)                                                                       \
	do {                                                                                       \
		if (strcmp((err), (want)) != 0) {                                                  \
			fprintf(stderr, "%s:%d: error \"%s\", want \"%s\"\n", __FILE__, __LINE__,  \
				(err), (want));                                                    \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

struct t_opts {
	bool server, verbose, help;
	uint8_t guard_a;
	uint16_t streams;
	uint8_t guard_b;
	uint32_t count;
	uint64_t arena;
	uint32_t slots;
	double seconds, rate;
	const char *peer, *name;
	char socket[16];
	int peer_kind;
};

static const char *const t_kinds[] = { "sink", "echo", NULL };

static const struct app_opt t_table[] = {
	{ .kind = APP_OPT_SECTION, .help = "Roles:" },
	{ .kind = APP_OPT_FLAG,
	  .name = "server",
	  .short_name = 's',
	  APP_OPT_FIELD(struct t_opts, server),
	  .help = "serve" },
	{ .kind = APP_OPT_ADDRS,
	  .name = "client",
	  .short_name = 'c',
	  APP_OPT_FIELD(struct t_opts, peer),
	  .arg = "PEERS",
	  .help = "connect",
	  .max = 8 },
	{ .kind = APP_OPT_FLAG,
	  .name = "verbose",
	  APP_OPT_FIELD(struct t_opts, verbose),
	  .help = "say more",
	  .flags = APP_OPT_CLI },
	{ .kind = APP_OPT_UINT,
	  .name = "streams",
	  .short_name = 'S',
	  APP_OPT_FIELD(struct t_opts, streams),
	  .arg = "N",
	  .help = "streams",
	  .min = 1,
	  .max = 65535 },
	{ .kind = APP_OPT_UINT,
	  .short_name = 'n',
	  APP_OPT_FIELD(struct t_opts, count),
	  .arg = "N",
	  .help = "messages",
	  .max = UINT32_MAX - 1 },
	{ .kind = APP_OPT_SIZE,
	  .name = "arena-bytes",
	  APP_OPT_FIELD(struct t_opts, arena),
	  .arg = "N",
	  .help = "payload bytes in the arena of each thread of an application",
	  .min = 1u << 16,
	  .max = 1ull << 30,
	  .flags = APP_OPT_POW2 },
	{ .kind = APP_OPT_UINT,
	  .name = "ring-slots",
	  APP_OPT_FIELD(struct t_opts, slots),
	  .arg = "N",
	  .help = "slots",
	  .min = 64,
	  .max = 65536,
	  .flags = APP_OPT_POW2 },
	{ .kind = APP_OPT_DOUBLE,
	  .name = "time",
	  .short_name = 't',
	  APP_OPT_FIELD(struct t_opts, seconds),
	  .arg = "SECONDS",
	  .help = "how long",
	  .dmin = 0.1,
	  .dmax = 86400,
	  .dflt = "10; 3 with --loopback" },
	{ .kind = APP_OPT_SI,
	  .name = "rate",
	  APP_OPT_FIELD(struct t_opts, rate),
	  .arg = "R",
	  .help = "pace",
	  .dmin = 1,
	  .dmax = 1e15,
	  .dflt = "" },
	{ .kind = APP_OPT_STRING,
	  .name = "name",
	  APP_OPT_FIELD(struct t_opts, name),
	  .arg = "NAME",
	  .help = "a name",
	  .max = 5 },
	{ .kind = APP_OPT_BUF,
	  .name = "socket",
	  APP_OPT_FIELD(struct t_opts, socket),
	  .arg = "PATH",
	  .help = "the socket" },
	{ .kind = APP_OPT_CHOICE,
	  .name = "loopback-peer",
	  APP_OPT_FIELD(struct t_opts, peer_kind),
	  .arg = "KIND",
	  .help = "a peer",
	  .choices = t_kinds },
	{ .kind = APP_OPT_HELP,
	  .name = "help",
	  .short_name = 'h',
	  APP_OPT_FIELD(struct t_opts, help),
	  .help = "this text" },
	{ 0 },
};

static const struct t_opts t_defaults = { .streams = 4,
					  .count = 1000,
					  .arena = 4u << 20,
					  .slots = 1024,
					  .seconds = 10,
					  .guard_a = 0xaa,
					  .guard_b = 0xbb,
					  .name = "me",
					  .socket = "/tmp/s" };

static char err[256];

/* Parse words (NULL last) after a program name into *o from the defaults. */
static int
parse(struct t_opts *o, int *next, const char *first, ...)
{
	char *argv[32] = { (char *)"prog" };
	int argc = 1;
	va_list ap;
	va_start(ap, first);
	for (const char *w = first; w != NULL && argc < 31; w = va_arg(ap, const char *))
		argv[argc++] = (char *)w;
	va_end(ap);
	argv[argc] = NULL;
	*o = t_defaults;
	err[0] = '\0';
	return app_opts_parse(t_table, o, argc, argv, next, err, sizeof(err));
}

static void
test_numbers(void)
{
	struct t_opts o;
	CHECK(parse(&o, NULL, "-S", "8", "-n", "0x10", "--time", "2.5", NULL) == 0);
	CHECK(o.streams == 8 && o.count == 16 && o.seconds == 2.5);
	CHECK(o.guard_a == 0xaa && o.guard_b == 0xbb); /* a 2-byte field stays 2 bytes */
	CHECK(parse(&o, NULL, "--streams=65535", NULL) == 0 && o.streams == 65535);

	/* Refused, never wrapped or clamped: the field keeps its default. */
	CHECK(parse(&o, NULL, "--streams", "70000", NULL) == -EINVAL && o.streams == 4);
	CHECK_ERR(err, "--streams 70000: out of range (want 1..65535)");
	CHECK(parse(&o, NULL, "-S", "0", NULL) == -EINVAL);
	CHECK_ERR(err, "--streams 0: out of range (want 1..65535)");
	CHECK(parse(&o, NULL, "-n", "abc", NULL) == -EINVAL && o.count == 1000);
	CHECK_ERR(err, "-n abc: not a number (want 0..4294967294)");
	CHECK(parse(&o, NULL, "-n", "-1", NULL) == -EINVAL);
	CHECK_ERR(err, "-n -1: not a number (want 0..4294967294)");
	CHECK(parse(&o, NULL, "-n", "4294967295", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "-n", "99999999999999999999999", NULL) == -EINVAL);
	CHECK_ERR(err, "-n 99999999999999999999999: not a number (want 0..4294967294)");
	CHECK(parse(&o, NULL, "-n", "12x", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "-n", "", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "-n", " 5", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "-n", "+5", NULL) == -EINVAL);

	CHECK(parse(&o, NULL, "-t", "0.05", NULL) == -EINVAL && o.seconds == 10);
	CHECK_ERR(err, "--time 0.05: out of range (want 0.1..86400)");
	CHECK(parse(&o, NULL, "-t", "nan", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "-t", "inf", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "-t", "1s", NULL) == -EINVAL);

	CHECK(parse(&o, NULL, "--rate", "2.5g", NULL) == 0 && o.rate == 2.5e9);
	CHECK(parse(&o, NULL, "--rate", "500M", NULL) == 0 && o.rate == 5e8);
	CHECK(parse(&o, NULL, "--rate", "1e9", NULL) == 0 && o.rate == 1e9);
	CHECK(parse(&o, NULL, "--rate", "0", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "--rate", "10x", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "--rate", "1e300g", NULL) == -EINVAL);
}

static void
test_sizes(void)
{
	struct t_opts o;
	CHECK(parse(&o, NULL, "--arena-bytes", "4m", NULL) == 0 && o.arena == 4u << 20);
	CHECK(parse(&o, NULL, "--arena-bytes", "1G", NULL) == 0 && o.arena == 1u << 30);
	CHECK(parse(&o, NULL, "--arena-bytes", "65536", NULL) == 0 && o.arena == 65536);
	CHECK(parse(&o, NULL, "--arena-bytes", "2g", NULL) == -EINVAL);
	CHECK_ERR(err, "--arena-bytes 2g: out of range (want a power of two, 64k..1g)");
	CHECK(parse(&o, NULL, "--arena-bytes", "3m", NULL) == -EINVAL);
	CHECK_ERR(err, "--arena-bytes 3m: not a power of two (want a power of two, 64k..1g)");
	CHECK(parse(&o, NULL, "--arena-bytes", "17179869184g", NULL) == -EINVAL); /* 2^64 */
	CHECK(parse(&o, NULL, "--arena-bytes", "4mb", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "--ring-slots", "1000", NULL) == -EINVAL && o.slots == 1024);
	CHECK_ERR(err, "--ring-slots 1000: not a power of two (want a power of two, 64..65536)");
}

static void
test_text(void)
{
	struct t_opts o;
	CHECK(parse(&o, NULL, "-c", "10.0.0.2,::1", "--name", "abcde", NULL) == 0);
	CHECK(o.peer != NULL && strcmp(o.peer, "10.0.0.2,::1") == 0 &&
	      strcmp(o.name, "abcde") == 0);
	CHECK(parse(&o, NULL, "-c", "10.0.0.2,bogus", NULL) == -EINVAL && o.peer == NULL);
	CHECK_ERR(err, "--client \"10.0.0.2,bogus\": want 1..8 IPv4 or IPv6 addresses, "
		       "comma-separated");
	CHECK(parse(&o, NULL, "-c",
		    "1.1.1.1,2.2.2.2,3.3.3.3,4.4.4.4,5.5.5.5,6.6.6.6,7.7.7.7,8.8.8.8", NULL) == 0);
	CHECK(parse(&o, NULL, "-c",
		    "1.1.1.1,2.2.2.2,3.3.3.3,4.4.4.4,5.5.5.5,6.6.6.6,7.7.7.7,8.8.8.8,9.9.9.9",
		    NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "-c", "", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "-c", ",", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "--name", "abcdef", NULL) == -EINVAL);
	CHECK_ERR(err, "--name \"abcdef\": want 1..5 bytes");
	CHECK(parse(&o, NULL, "--name", "", NULL) == -EINVAL);

	CHECK(parse(&o, NULL, "--socket", "/run/x.sock", NULL) == 0);
	CHECK(strcmp(o.socket, "/run/x.sock") == 0);
	CHECK(parse(&o, NULL, "--socket", "/a/path/of/16/by", NULL) == -EINVAL);
	CHECK_ERR(err, "--socket \"/a/path/of/16/by\": want 1..15 bytes");
	CHECK(strcmp(o.socket, "/tmp/s") == 0);

	CHECK(parse(&o, NULL, "--loopback-peer", "echo", NULL) == 0 && o.peer_kind == 2);
	CHECK(parse(&o, NULL, "--loopback-peer", "sink", NULL) == 0 && o.peer_kind == 1);
	CHECK(parse(&o, NULL, "--loopback-peer", "none", NULL) == -EINVAL && o.peer_kind == 0);
	CHECK_ERR(err, "--loopback-peer none: want sink or echo");

	/* A long list is refused, not cut short into another list. */
	char longlist[300];
	memset(longlist, 0, sizeof(longlist));
	for (size_t i = 0; i + 9 < sizeof(longlist) - 1; i += 9)
		memcpy(longlist + i, "10.0.0.1,", 9);
	struct sctp_addr a[64];
	CHECK(app_parse_peers(longlist, a, 64) == -1);
	CHECK(app_parse_peers("10.0.0.1,fe80::1", a, 2) == 2 && a[0].family == SCTP_ADDR_V4 &&
	      a[1].family == SCTP_ADDR_V6 && a[0].bytes[0] == 10 && a[1].bytes[0] == 0xfe);
	CHECK(app_parse_peers("10.0.0.1,10.0.0.2", a, 1) == -1);
}

static void
test_words(void)
{
	struct t_opts o;
	int next = -1;
	CHECK(parse(&o, NULL, "-s", NULL) == 0 && o.server && !o.verbose);
	CHECK(parse(&o, NULL, "-s", "--help", "-S", "0", NULL) == 1 && o.help);
	CHECK(parse(&o, NULL, "-h", NULL) == 1);
	CHECK(parse(&o, NULL, "--frobnicate", NULL) == -EINVAL);
	CHECK_ERR(err, "unknown option \"--frobnicate\" (try -h)");
	CHECK(parse(&o, NULL, "-x", NULL) == -EINVAL);
	CHECK_ERR(err, "unknown option -x (try -h)");
	CHECK(parse(&o, NULL, "--streams", NULL) == -EINVAL);
	CHECK_ERR(err, "--streams needs a value (try -h)");
	CHECK(parse(&o, NULL, "-S", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "--server=yes", NULL) == -EINVAL);
	CHECK_ERR(err, "--server takes no value");
	CHECK(parse(&o, NULL, "-s", "file", NULL) == -EINVAL);
	CHECK_ERR(err, "unexpected argument \"file\" (try -h)");
	CHECK(parse(&o, &next, "file", "-s", NULL) == 0 && next == 2 && o.server);
	/* A parse that stopped inside a cluster of short options leaves no state behind. */
	CHECK(parse(&o, NULL, "-sxS", "3", NULL) == -EINVAL);
	CHECK(parse(&o, NULL, "-S", "8", NULL) == 0 && o.streams == 8 && !o.server);
	CHECK(parse(&o, NULL, "-sS8", NULL) == 0 && o.server && o.streams == 8);
}

static void
test_set(void)
{
	struct t_opts o = t_defaults;
	CHECK(app_opts_set(t_table, &o, "ring-slots", "128", err, sizeof(err)) == 0 &&
	      o.slots == 128);
	CHECK(app_opts_set(t_table, &o, "ring-slots", "100", err, sizeof(err)) == -EINVAL &&
	      o.slots == 128);
	CHECK_ERR(err, "--ring-slots 100: not a power of two (want a power of two, 64..65536)");
	CHECK(app_opts_set(t_table, &o, "ring-slots", NULL, err, sizeof(err)) == -EINVAL);
	CHECK_ERR(err, "--ring-slots needs a value (N)");
	CHECK(app_opts_set(t_table, &o, "server", NULL, err, sizeof(err)) == 0 && o.server);
	CHECK(app_opts_set(t_table, &o, "server", "1", err, sizeof(err)) == -EINVAL);
	CHECK(app_opts_set(t_table, &o, "verbose", NULL, err, sizeof(err)) == -ENOENT);
	CHECK(app_opts_set(t_table, &o, "help", NULL, err, sizeof(err)) == -ENOENT);
	CHECK(app_opts_set(t_table, &o, "max-assocs", "8", err, sizeof(err)) == -ENOENT);
	/* A file's value lives in a line buffer: BUF copies it. */
	char line[] = "/tmp/y";
	CHECK(app_opts_set(t_table, &o, "socket", line, err, sizeof(err)) == 0);
	line[1] = 'X';
	CHECK(strcmp(o.socket, "/tmp/y") == 0);
}

static void
test_usage(void)
{
	char *text = NULL;
	size_t len = 0;
	int before = failures;
	FILE *f = open_memstream(&text, &len);
	app_opts_usage(f, t_table, &t_defaults);
	fclose(f);
	/* Bounds and defaults come from the table and the defaults. */
	CHECK(strstr(text, "Roles:\n") != NULL);
	CHECK(strstr(text, "  -S, --streams N") != NULL);
	CHECK(strstr(text, "streams (1..65535; default 4)") != NULL);
	CHECK(strstr(text, "  -n N") != NULL);
	CHECK(strstr(text, "messages (0..4294967294; default 1000)") != NULL);
	CHECK(strstr(text, "64k..1g;") != NULL && strstr(text, "4m)\n") != NULL);
	/* Wrapped under the help column (the longest option's, "--loopback-peer KIND"). */
	CHECK(strstr(text, "an\n                        application (a power of two") != NULL);
	CHECK(strstr(text, "how long (0.1..86400; default 10; 3 with --loopback)") != NULL);
	CHECK(strstr(text, "(sink or echo)") != NULL);
	CHECK(strstr(text, "(1..15 bytes; default /tmp/s)") != NULL);
	CHECK(strstr(text, "(1..5 bytes; default me)") != NULL);
	CHECK(strstr(text, "  -h, --help") != NULL);
	for (const char *l = text; *l != '\0';) { /* wrapped at 79 */
		size_t n = strcspn(l, "\n");
		CHECK(n <= 79);
		l += n + (l[n] == '\n');
	}
	if (failures != before)
		fprintf(stderr, "--help was:\n%s", text);
	free(text);
}

static void
test_bad_table(void)
{
	struct t_opts o = t_defaults;
	/* A 2-byte field cannot hold 70000: the table is refused, not the user. */
	static const struct app_opt bad[] = {
		{ .kind = APP_OPT_UINT,
		  .name = "streams",
		  APP_OPT_FIELD(struct t_opts, streams),
		  .min = 1,
		  .max = 70000 },
		{ 0 },
	};
	char *argv[] = { (char *)"prog", NULL };
	CHECK(app_opts_parse(bad, &o, 1, argv, NULL, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "option table") != NULL);
	/* Two entries for one option: which one wins would be the table's order. */
	static const struct app_opt twice_long[] = {
		{ .kind = APP_OPT_FLAG, .name = "server", APP_OPT_FIELD(struct t_opts, server) },
		{ .kind = APP_OPT_FLAG, .name = "server", APP_OPT_FIELD(struct t_opts, verbose) },
		{ 0 },
	};
	static const struct app_opt twice_short[] = {
		{ .kind = APP_OPT_FLAG, .short_name = 's', APP_OPT_FIELD(struct t_opts, server) },
		{ .kind = APP_OPT_FLAG,
		  .name = "verbose",
		  .short_name = 's',
		  APP_OPT_FIELD(struct t_opts, verbose) },
		{ 0 },
	};
	CHECK(app_opts_parse(twice_long, &o, 1, argv, NULL, err, sizeof(err)) == -EINVAL);
	CHECK_ERR(err, "option table: entry 1 (server) is malformed");
	CHECK(app_opts_parse(twice_short, &o, 1, argv, NULL, err, sizeof(err)) == -EINVAL);
	CHECK_ERR(err, "option table: entry 1 (verbose) is malformed");
}

int
main(void)
{
	test_numbers();
	test_sizes();
	test_text();
	test_words();
	test_set();
	test_usage();
	test_bad_table();
	if (failures != 0) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("app_opts: every check passed\n");
	return 0;
}
