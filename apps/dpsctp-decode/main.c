/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctp-decode [--json] [--no-verify] FILE
 *
 * Prints every SCTP packet of a pcap or pcapng capture (FILE, or - for
 * standard input): one line each, or one JSON object each with --json. The
 * reading is capture.c's and the decoding decode.c's; this file parses the
 * command line and prints the reasons and the counts.
 *
 * Exit status: 0 when the whole file was read (malformed packets included),
 * 1 when it could not be read, 2 on bad usage.
 */
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/common/app_opts.h"
#include "apps/dpsctp-decode/capture.h"
#include "apps/dpsctp-decode/decode.h"

#ifndef DPSCTP_VERSION
#define DPSCTP_VERSION "unknown"
#endif

enum exit_code {
	EXIT_READ_FAILED = 1,
	EXIT_USAGE = 2,
};

/* The command line: two switches, two answers, one FILE. */
struct decode_cli {
	bool json, no_verify, help, version;
};

#define DO(m) APP_OPT_FIELD(struct decode_cli, m)

static const struct app_opt decode_opt_table[] = {
	{ .kind = APP_OPT_FLAG,
	  .name = "json",
	  DO(json),
	  .help = "one JSON object per packet (JSON Lines)" },
	{ .kind = APP_OPT_FLAG,
	  .name = "no-verify",
	  DO(no_verify),
	  .help = "do not compute checksums (\"checksum\": null)" },
	{ .kind = APP_OPT_HELP, .name = "help", DO(help), .help = "this text" },
	{ .kind = APP_OPT_HELP, .name = "version", DO(version), .help = "print the version" },
	{ 0 },
};

static void
usage(FILE *out)
{
	fprintf(out, "usage: dpsctp-decode [--json] [--no-verify] FILE\n"
		     "\n"
		     "Print each SCTP packet of a pcap/pcapng capture (FILE, or - for stdin):\n"
		     "frame number, addresses and ports, verification tag, checksum verdict\n"
		     "(ok | bad | zero | adler32) and every chunk with its key fields.\n"
		     "Link types: Ethernet (with VLAN tags), raw IPv4/IPv6, Linux cooked\n"
		     "(SLL, SLL2), BSD loopback; SCTP over IP or over UDP port 9899.\n"
		     "\n");
	app_opts_usage(out, decode_opt_table, NULL);
	fprintf(out, "\n"
		     "Malformed packets are printed with \"error\" naming the reason; frames\n"
		     "that are not SCTP are skipped and counted in the summary on stderr.\n"
		     "Exit status: 0 file read, 1 file unreadable, 2 bad usage.\n");
}

static void
print_summary(const struct decode_stats *st)
{
	fprintf(stderr,
		"dpsctp-decode: %" PRIu64 " packets, %" PRIu64 " SCTP, %" PRIu64
		" malformed; checksum ok=%" PRIu64 " bad=%" PRIu64 " zero=%" PRIu64
		" adler32=%" PRIu64 " unverified=%" PRIu64 "\n",
		st->frames, st->sctp, st->malformed, st->verdict_ok, st->verdict_bad,
		st->verdict_zero, st->verdict_adler32, st->unverified);
}

static int
decode_file(const char *path, const struct decode_options *opt, const struct decode_sink *sink,
	    struct decode_stats *st)
{
	char err[PCAP_ERRBUF_SIZE + 64];
	enum decode_capture_result r = decode_capture_path(path, opt, sink, st, err, sizeof(err));

	if (r == DECODE_CAPTURE_UNREADABLE) {
		fprintf(stderr, "dpsctp-decode: %s: %s\n", path, err);
		return EXIT_READ_FAILED;
	}
	/* The file was opened: the summary is printed whatever happened. */
	int rc = 0;
	if (r == DECODE_CAPTURE_DAMAGED) {
		fprintf(stderr, "dpsctp-decode: %s: %s\n", path, err);
		rc = EXIT_READ_FAILED;
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "dpsctp-decode: writing the output failed\n");
		rc = EXIT_READ_FAILED;
	}
	print_summary(st);
	return rc;
}

int
main(int argc, char **argv)
{
	struct decode_cli cli = { 0 };
	struct decode_options opt = { .verify = true };
	char err[256];
	int file;

	int rc = app_opts_parse(decode_opt_table, &cli, argc, argv, &file, err, sizeof(err));
	if (rc == 1 && cli.help) {
		usage(stdout);
		return EXIT_SUCCESS;
	}
	if (rc == 1) {
		printf("dpsctp-decode %s (%s)\n", DPSCTP_VERSION, pcap_lib_version());
		return EXIT_SUCCESS;
	}
	if (rc != 0 || file != argc - 1) {
		fprintf(stderr, "dpsctp-decode: %s\n",
			rc != 0 ? err : "one FILE to read (try --help)");
		return EXIT_USAGE;
	}
	opt.verify = !cli.no_verify;
	bool json = cli.json;

	struct decode_text_ctx text_ctx;
	struct decode_json_ctx json_ctx;
	struct decode_sink sink =
		json ? decode_json_sink(&json_ctx, stdout) : decode_text_sink(&text_ctx, stdout);
	struct decode_stats st = { 0 };
	return decode_file(argv[file], &opt, &sink, &st);
}
