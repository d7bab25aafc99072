/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctp-perf's own options (the data plane's — --port, --ip, --profile,
 * --udp-encap, --impair, --sctp-port ... — are taken by
 * dpsctp_config_parse_args() first). Defaults follow iperf3 where it has
 * the same option: 10 s tests, 1 s intervals, port 5001 (iperf2's: iperf3's
 * 5201 is often taken by a running iperf3).
 *
 * One table (app_opts.h) parses them, bounds them and prints them in
 * --help; perf_opts_parse() then refuses the combinations that make no
 * sense: the role, what --sidecar rules out, the traffic's.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "apps/common/app_opts.h"
#include "apps/dpsctp-perf/perf.h"

#define PO(m) APP_OPT_FIELD(struct perf_opts, m)

/* --pr-policy's words, in DPSCTP_PR_* order from TTL (APP_OPT_CHOICE: 1 + the index). */
static const char *const perf_pr_words[] = { "ttl", "rtx", "prio", NULL };
_Static_assert(DPSCTP_PR_TTL == 1 && DPSCTP_PR_RTX == 2 && DPSCTP_PR_PRIO == 3,
	       "--pr-policy's words are DPSCTP_PR_* in order");

const char *
perf_pr_name(int policy)
{
	return policy >= (int)DPSCTP_PR_TTL && policy <= (int)DPSCTP_PR_PRIO
		       ? perf_pr_words[policy - 1]
		       : "none";
}

void
perf_ext_names(uint32_t ext, char *buf, size_t len)
{
	/* The words --extensions takes (docs/CONFIG.md). */
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = { { DPSCTP_EXT_PR_SCTP, "pr-sctp" },
		      { DPSCTP_EXT_I_DATA, "i-data" },
		      { DPSCTP_EXT_RECONFIG, "reconfig" } };
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((ext & names[i].bit) != 0 && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at != 0 ? "," : "",
					       names[i].name);
	if (at == 0)
		snprintf(buf, len, "none");
}

static const struct app_opt perf_opt_table[] = {
	{ .kind = APP_OPT_SECTION, .help = "Roles:" },
	{ .kind = APP_OPT_FLAG,
	  .name = "server",
	  .short_name = 's',
	  PO(server),
	  .help = "accept associations on --sctp-port; sink the data (any SCTP client can "
		  "drive it: usrsctp's tsctp, iperf3 --sctp, ...)" },
	{ .kind = APP_OPT_ADDRS,
	  .name = "client",
	  .short_name = 'c',
	  PO(peer),
	  .arg = "PEERS",
	  .help = "send to PEER; several addresses: multi-homing",
	  .max = DPSCTP_CONFIG_MAX_IPS },
	{ .kind = APP_OPT_FLAG,
	  .name = "loopback",
	  PO(loopback),
	  .help = "both ends in this process over a net_ring pair (no NIC, no hugepages); one "
		  "lcore each when the EAL has two (-l 0-1), else one lcore polls both" },
	{ .kind = APP_OPT_STRING,
	  .name = "sidecar",
	  PO(sidecar),
	  .arg = "SOCKET",
	  .help = "this end through dpsctpd at SOCKET (libdpsctp-client): no EAL, no port of "
		  "our own; busy-polls its rings; with -s or -c (not --loopback, --handshakes, "
		  "--memory, --rate, --pps, --stats); data-plane options other than "
		  "--sctp-port are dpsctpd's" },
	{ .kind = APP_OPT_FLAG,
	  .name = "zero-copy",
	  PO(zero_copy),
	  .help = "with --sidecar: receive by reference into dpsctpd's packet buffers "
		  "(dpsctpd --zero-copy); the JSON says if granted" },
	{ .kind = APP_OPT_SECTION, .help = "Server:" },
	{ .kind = APP_OPT_FLAG,
	  .name = "echo",
	  PO(echo),
	  .help = "send back one message of the same size for each received" },
	{ .kind = APP_OPT_FLAG,
	  .name = "one-off",
	  .short_name = '1',
	  PO(one_off),
	  .help = "exit after the first association ends" },
	{ .kind = APP_OPT_SECTION, .help = "Client (and --loopback):" },
	{ .kind = APP_OPT_DOUBLE,
	  .name = "time",
	  .short_name = 't',
	  PO(seconds),
	  .arg = "SECONDS",
	  .help = "how long to send",
	  .dmin = 0.1,
	  .dmax = 86400,
	  .dflt = "10; --loopback alone: 3" },
	{ .kind = APP_OPT_UINT,
	  .name = "length",
	  .short_name = 'l',
	  PO(len),
	  .arg = "BYTES",
	  .help = "message size; at most --sndbuf, above 65000 sent as an mbuf chain",
	  .min = PERF_MIN_LEN,
	  .max = PERF_MAX_LEN },
	{ .kind = APP_OPT_UINT,
	  .name = "streams",
	  .short_name = 'S',
	  PO(streams),
	  .arg = "N",
	  .help = "outbound streams the messages rotate over",
	  .min = 1,
	  .max = PERF_MAX_STREAMS },
	{ .kind = APP_OPT_FLAG,
	  .name = "unordered",
	  .short_name = 'u',
	  PO(unordered),
	  .help = "send unordered (U bit)" },
	{ .kind = APP_OPT_UINT,
	  .name = "parallel",
	  .short_name = 'P',
	  PO(assocs),
	  .arg = "N",
	  .help = "associations",
	  .min = 1,
	  .max = PERF_MAX_ASSOCS },
	{ .kind = APP_OPT_FLAG,
	  .name = "bidir",
	  PO(bidir),
	  .help = "the server sends back at the same size (asked in the messages' header: no "
		  "side channel)" },
	{ .kind = APP_OPT_FLAG,
	  .name = "ping",
	  PO(ping),
	  .help = "ping-pong: one message in flight per association, echoed by the server; "
		  "latency = round trip / 2 on the client's TSC (with --rate: pings on stream 0 "
		  "beside paced bulk data; with --loopback also the way out alone, one clock)" },
	{ .kind = APP_OPT_UINT,
	  .name = "ping-length",
	  PO(ping_len),
	  .arg = "BYTES",
	  .help = "with --ping: the pings' size, apart from the bulk data's -l (64-byte pings "
		  "beside 1 MiB messages: head-of-line blocking, DATA against I-DATA)",
	  .min = PERF_MIN_LEN,
	  .max = PERF_SEG_MAX,
	  .dflt = "-l, at most 65000" },
	{ .kind = APP_OPT_DOUBLE,
	  .name = "ping-interval",
	  PO(ping_us),
	  .arg = "US",
	  .help = "with --ping: a ping every US microseconds, each stamped with the time it was "
		  "due, however many are in flight (pings that wait behind data are all counted); "
		  "without it one ping is in flight at a time",
	  .dmin = 1,
	  .dmax = 1e6,
	  .dflt = "" },
	{ .kind = APP_OPT_SI,
	  .name = "rate",
	  PO(rate_bps),
	  .arg = "R",
	  .help = "pace at R wire bits/s: 10g, 2.5g, 500m, 1e9; the wire counts Ethernet "
		  "preamble, IFG, FCS and every header; prints whether the rate was sustained",
	  .dmin = 1,
	  .dmax = 1e15,
	  .dflt = "" },
	{ .kind = APP_OPT_DOUBLE,
	  .name = "pps",
	  PO(pps),
	  .arg = "N",
	  .help = "pace at N DATA packets/s (messages bundled as they fit)",
	  .dmin = 1,
	  .dmax = 1e9,
	  .dflt = "" },
	{ .kind = APP_OPT_UINT,
	  .name = "handshakes",
	  PO(handshakes),
	  .arg = "N",
	  .help = "open N associations as fast as possible and report handshakes/s and memory "
		  "per association (no data)",
	  .min = 1,
	  .max = PERF_MAX_HANDSHAKES,
	  .dflt = "" },
	{ .kind = APP_OPT_DOUBLE,
	  .name = "idle",
	  PO(idle_s),
	  .arg = "SECONDS",
	  .help = "with --handshakes: keep the associations up idle this long once all are "
		  "established and report each end's heartbeats per second (sent, answered, "
		  "held by --hb-rate) and the cycles one takes",
	  .dmin = 0.1,
	  .dmax = 86400,
	  .dflt = "" },
	{ .kind = APP_OPT_DOUBLE,
	  .name = "busy",
	  PO(busy_s),
	  .arg = "SECONDS",
	  .help = "with --handshakes: then this long, round trips on a random --busy-share of "
		  "the associations at a time, 8 each before another association takes its "
		  "place, every message checked at both ends (order and every byte)",
	  .dmin = 0.1,
	  .dmax = 86400,
	  .dflt = "" },
	{ .kind = APP_OPT_DOUBLE,
	  .name = "busy-share",
	  PO(busy_share),
	  .arg = "PERCENT",
	  .help = "with --busy: the associations busy at once, per cent of --handshakes (one "
		  "at least)",
	  .dmin = 0.001,
	  .dmax = 100,
	  .dflt = "1" },
	{ .kind = APP_OPT_FLAG,
	  .name = "memory",
	  PO(memory),
	  .help = "with --loopback: create the server end alone, sized by --max-assocs, report "
		  "its memory per association, exit" },
	{ .kind = APP_OPT_DOUBLE,
	  .name = "omit",
	  PO(omit),
	  .arg = "SECONDS",
	  .help = "not measured at the start (warm-up)",
	  .dmin = 0,
	  .dmax = 60 },
	{ .kind = APP_OPT_CHOICE,
	  .name = "pr-policy",
	  PO(pr_policy),
	  .arg = "POLICY",
	  .choices = perf_pr_words,
	  .help = "PR-SCTP (RFC 3758, RFC 7496) on every data message sent, pings and their echoes "
		  "excepted: ttl (a lifetime), rtx (a retransmission limit), prio (a priority); "
		  "the report shows what was abandoned; reliable without it",
	  .dflt = "" },
	{ .kind = APP_OPT_UINT,
	  .name = "pr-value",
	  PO(pr_value),
	  .arg = "N",
	  .help = "the policy's value: ttl ms (1 or more), rtx retransmissions (0: sent once), "
		  "prio priority (0 highest)",
	  .min = 0,
	  .max = UINT32_MAX },
	{ .kind = APP_OPT_DOUBLE,
	  .name = "reset-every",
	  PO(reset_ms),
	  .arg = "MS",
	  .help = "stream reconfiguration (RFC 6525): every MS ms, reset the numbering of one of "
		  "the bulk streams (in turn), sending on the others meanwhile; the report counts "
		  "the resets and their round trips",
	  .dmin = 1,
	  .dmax = 3.6e6,
	  .dflt = "" },
	{ .kind = APP_OPT_UINT,
	  .name = "burst",
	  PO(burst),
	  .arg = "N",
	  .help = "messages a flow sends per loop iteration",
	  .min = 1,
	  .max = 1024 },
	{ .kind = APP_OPT_SECTION, .help = "Output:" },
	{ .kind = APP_OPT_DOUBLE,
	  .name = "interval",
	  .short_name = 'i',
	  PO(interval),
	  .arg = "S",
	  .help = "a line every S seconds, 0 for none",
	  .dmin = 0,
	  .dmax = 3600 },
	{ .kind = APP_OPT_FLAG,
	  .name = "json",
	  .short_name = 'J',
	  PO(json),
	  .help = "one JSON document at the end (iperf3-like keys, docs/PERF_TOOL.md); "
		  "interval lines are kept in it" },
	{ .kind = APP_OPT_FLAG,
	  .name = "stats",
	  PO(stats),
	  .help = "at exit, every non-zero counter of each end (stderr; names in "
		  "docs/COUNTERS.md)" },
	{ .kind = APP_OPT_FLAG,
	  .name = "stages",
	  PO(stages),
	  .help = "count each end's cycles by stage of its polls (--stage-cycles on) and "
		  "report them per packet at the end (docs/PERF_TOOL.md)" },
	{ .kind = APP_OPT_HELP, .name = "help", .short_name = 'h', .help = "this text" },
	{ 0 },
};

/* seconds 0: not given (-t is at least 0.1), so --loopback's shorter default applies. */
static const struct perf_opts perf_opt_defaults = {
	.interval = 1,
	.omit = 0.2,
	.len = 1452,
	.streams = 1,
	.assocs = 1,
	.burst = 32,
	.busy_share = 1,
};

void
perf_opts_usage(FILE *f)
{
	fprintf(f, "usage: dpsctp-perf [EAL args] -- [options] (-s | -c PEER[,PEER] | --loopback)\n"
		   "       dpsctp-perf --sidecar SOCKET [options] (-s | -c PEER[,PEER])\n");
	app_opts_usage(f, perf_opt_table, &perf_opt_defaults);
	fprintf(f,
		"The SCTP port is --sctp-port (default %d; --port is the DPDK port).\n"
		"--max-assocs: a client or --loopback run without it is sized for -P + 16\n"
		"associations (--handshakes N: N + 16); a smaller --max-assocs is raised to\n"
		"that, and a line on stderr says so.\n"
		"Two machines with real NICs (docs/PERF_TOOL.md has every figure's command):\n"
		"  server: dpsctp-perf -l 2 -a PCI -- --port PCI --ip 192.0.2.2/24 -s --json\n"
		"  client: dpsctp-perf -l 2 -a PCI -- --port PCI --ip 192.0.2.1/24 -c 192.0.2.2 "
		"\\\n"
		"          -t 10 -l 1452 [-S 8] [-P 64] [--ping] [--rate 10g] --json\n"
		"Exit status: 0 success; 1 the test failed (no association, association lost,\n"
		"order errors, data missing); 2 bad usage; 3 the data plane would not start.\n"
		"\nData-plane options:\n",
		PERF_PORT_DEFAULT);
	dpsctp_config_usage(f);
}

static int
bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Exactly one role. */
static int
check_role(const struct perf_opts *o, char *err, size_t errlen)
{
	if (o->server + (o->peer != NULL) + o->loopback != 1)
		return bad(err, errlen, "choose one of -s, -c PEER and --loopback");
	return 0;
}

/* --sidecar: options that need an instance of this process's own are refused. */
static int
check_sidecar(const struct perf_opts *o, char *err, size_t errlen)
{
	if (o->zero_copy && o->sidecar == NULL)
		return bad(err, errlen,
			   "--zero-copy asks dpsctpd for received messages by reference: with "
			   "--sidecar");
	if (o->sidecar == NULL)
		return 0;
	if (o->loopback)
		return bad(err, errlen,
			   "--sidecar runs one end through dpsctpd: -s or -c, not --loopback");
	if (o->memory || o->handshakes != 0)
		return bad(err, errlen,
			   "--memory and --handshakes measure this process's own instance: not "
			   "with --sidecar");
	if (o->rate_bps > 0 || o->pps > 0)
		return bad(err, errlen,
			   "--rate and --pps pace by a wire model of this process's port (MTU, "
			   "encapsulation): not with --sidecar (dpsctpd owns the port)");
	if (o->ping_us > 0)
		return bad(err, errlen,
			   "--ping-interval: not with --sidecar (one ping in flight at a time "
			   "there)");
	if (o->stats)
		return bad(err, errlen,
			   "--stats prints this process's data-plane counters: with --sidecar they "
			   "are dpsctpd's (its telemetry: /dpsctpd/stats)");
	if (o->stages)
		return bad(err, errlen,
			   "--stages counts this process's data plane: with --sidecar run dpsctpd "
			   "with --stage-cycles on");
	return 0;
}

/* The traffic: the client's options, one pacing, a test longer than its warm-up. */
static int
check_traffic(const struct perf_opts *o, char *err, size_t errlen)
{
	if (o->server && (o->ping || o->bidir || o->handshakes || o->rate_bps > 0 || o->pps > 0))
		return bad(err, errlen,
			   "--ping, --bidir, --rate, --pps and --handshakes are client options");
	if (o->memory && !o->loopback)
		return bad(err, errlen, "--memory measures a --loopback server end");
	if (o->rate_bps > 0 && o->pps > 0)
		return bad(err, errlen, "--rate and --pps both pace: choose one");
	if (o->idle_s > 0 && (o->handshakes == 0 || !o->loopback))
		return bad(err, errlen, "--idle needs --handshakes and --loopback");
	if (o->busy_s > 0 && (o->handshakes == 0 || !o->loopback))
		return bad(err, errlen, "--busy needs --handshakes and --loopback");
	if (o->busy_share != 1 && o->busy_s == 0)
		return bad(err, errlen, "--busy-share is the share --busy keeps busy: with --busy");
	if (o->handshakes != 0 && (o->ping || o->bidir))
		return bad(err, errlen,
			   "--handshakes opens associations only: no --ping or --bidir");
	if (o->ping_len != 0 && !o->ping)
		return bad(err, errlen,
			   "--ping-length %u is the size of --ping's messages: with --ping",
			   o->ping_len);
	if (o->ping_us > 0 && !o->ping)
		return bad(err, errlen, "--ping-interval paces --ping's messages: with --ping");
	if (o->pr_value != 0 && o->pr_policy == 0)
		return bad(err, errlen,
			   "--pr-value %u is a PR-SCTP policy's value: with --pr-policy",
			   o->pr_value);
	if (o->pr_policy == (int)DPSCTP_PR_TTL && o->pr_value == 0)
		return bad(err, errlen,
			   "--pr-policy ttl needs --pr-value MS, the lifetime (1 or more)");
	if (o->pr_policy != 0 && (o->handshakes != 0 || o->memory))
		return bad(err, errlen,
			   "--pr-policy applies to data: not with --handshakes or "
			   "--memory");
	if (o->reset_ms > 0 && (o->server || o->handshakes != 0 || o->memory))
		return bad(err, errlen,
			   "--reset-every resets the client's data streams: a client option, not "
			   "with --handshakes or --memory");
	if (o->reset_ms > 0 && o->ping && o->streams < 2)
		return bad(err, errlen,
			   "--reset-every with --ping needs -S 2 or more (pings own stream 0; "
			   "the resets take the bulk streams)");
	if (o->omit >= o->seconds)
		return bad(err, errlen, "--omit %.3g must be shorter than the test (-t %.3g)",
			   o->omit, o->seconds);
	return 0;
}

int
perf_opts_parse(struct perf_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	*o = perf_opt_defaults;
	int rc = app_opts_parse(perf_opt_table, o, argc, argv, NULL, err, errlen);
	if (rc != 0)
		return rc;
	if (o->seconds == 0)
		o->seconds = o->loopback ? 3 : 10;
	o->line_rate_10g = o->rate_bps == 10e9;
	if ((rc = check_role(o, err, errlen)) != 0 || (rc = check_sidecar(o, err, errlen)) != 0 ||
	    (rc = check_traffic(o, err, errlen)) != 0)
		return rc;
	if (o->ping_len == 0)
		o->ping_len = o->len < PERF_SEG_MAX ? o->len : PERF_SEG_MAX;
	return 0;
}
