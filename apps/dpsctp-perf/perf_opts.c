/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctp-perf's own options (the data plane's — --port, --ip, --profile,
 * --udp-encap, --impair, --sctp-port ... — are taken by
 * dpsctp_config_parse_args() first). Defaults follow iperf3 where it has
 * the same option: 10 s tests, 1 s intervals, port 5001 (iperf2's: iperf3's
 * 5201 is often taken by a running iperf3).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apps/dpsctp-perf/perf.h"

void
perf_opts_usage(FILE *f)
{
	fprintf(f,
		"usage: dpsctp-perf [EAL args] -- [options] (-s | -c PEER[,PEER] | --loopback)\n"
		"       dpsctp-perf --sidecar SOCKET [options] (-s | -c PEER[,PEER])\n"
		"Roles:\n"
		"  -s, --server        accept associations on --sctp-port; sink the data (any "
		"SCTP\n"
		"                      client can drive it: usrsctp's tsctp, iperf3 --sctp, ...)\n"
		"  -c, --client PEERS  send to PEER (several comma-separated addresses: "
		"multi-homing)\n"
		"  --loopback          both ends in this process over a net_ring pair (no NIC, no\n"
		"                      hugepages); one lcore each when the EAL has two (-l 0-1),\n"
		"                      else one lcore polls both\n"
		"  --sidecar SOCKET    this end through dpsctpd at SOCKET (libdpsctp-client): no\n"
		"                      EAL, no port of our own; busy-polls its rings; with -s or\n"
		"                      -c (not --loopback, --handshakes, --memory, --rate, --pps,\n"
		"                      --stats); data-plane options other than --sctp-port are\n"
		"                      dpsctpd's\n"
		"  --zero-copy         with --sidecar: receive by reference into dpsctpd's packet\n"
		"                      buffers (dpsctpd --zero-copy); the JSON says if granted\n"
		"Server:\n"
		"  --echo              send back one message of the same size for each received\n"
		"  -1, --one-off       exit after the first association ends\n"
		"Client (and --loopback):\n"
		"  -t, --time SECONDS  how long to send (default 10; --loopback alone: 3)\n"
		"  -l, --length BYTES  message size, %u..%u (default 1452)\n"
		"  -S, --streams N     outbound streams the messages rotate over (default 1)\n"
		"  -u, --unordered     send unordered (U bit)\n"
		"  -P, --parallel N    associations (default 1, at most %u)\n"
		"  --bidir             the server sends back at the same size (asked in the\n"
		"                      messages' header: no side channel)\n"
		"  --ping              ping-pong: one message in flight per association, echoed\n"
		"                      by the server; latency = round trip / 2 on the client's "
		"TSC\n"
		"                      (with --rate: pings on stream 0 beside paced bulk data)\n"
		"  --rate R            pace at R wire bits/s: 10g, 2.5g, 500m, 1e9; the wire "
		"counts\n"
		"                      Ethernet preamble, IFG, FCS and every header; prints "
		"whether\n"
		"                      the rate was sustained\n"
		"  --pps N             pace at N DATA packets/s (messages bundled as they fit)\n"
		"  --handshakes N      open N associations as fast as possible and report\n"
		"                      handshakes/s and memory per association (no data)\n"
		"  --memory            with --loopback: create the server end alone, sized by\n"
		"                      --max-assocs, report its memory per association, exit\n"
		"  --omit SECONDS      not measured at the start (default 0.2: warm-up)\n"
		"  --burst N           messages a flow sends per loop iteration (default 32)\n"
		"Output:\n"
		"  -i, --interval S    a line every S seconds (default 1; 0 = none)\n"
		"  -J, --json          one JSON document at the end (iperf3-like keys,\n"
		"                      docs/PERF_TOOL.md); interval lines are kept in it\n"
		"  --stats             at exit, every non-zero counter of each end (stderr;\n"
		"                      names in docs/COUNTERS.md)\n"
		"  -h, --help          this text\n"
		"The SCTP port is --sctp-port (default %d; --port is the DPDK port).\n"
		"Two machines with real NICs (docs/PERF_TOOL.md has every figure's command):\n"
		"  server: dpsctp-perf -l 2 -a PCI -- --port PCI --ip 192.0.2.2/24 -s --json\n"
		"  client: dpsctp-perf -l 2 -a PCI -- --port PCI --ip 192.0.2.1/24 -c 192.0.2.2 "
		"\\\n"
		"          -t 10 -l 1452 [-S 8] [-P 64] [--ping] [--rate 10g] --json\n"
		"Exit status: 0 success; 1 the test failed (no association, association lost,\n"
		"order errors, data missing); 2 bad usage; 3 the data plane would not start.\n"
		"\nData-plane options:\n",
		PERF_MIN_LEN, PERF_MAX_LEN, PERF_MAX_ASSOCS, PERF_PORT_DEFAULT);
	dpsctp_config_usage(f);
}

/* "10g", "2.5G", "500m", "100k", "1e9": bits per second. */
static int
parse_rate(const char *s, double *out)
{
	char *end = NULL;
	errno = 0;
	double v = strtod(s, &end);
	if (errno != 0 || end == s || !(v > 0) || !isfinite(v))
		return -EINVAL;
	switch (*end) {
	case 'k':
	case 'K':
		v *= 1e3;
		end++;
		break;
	case 'm':
	case 'M':
		v *= 1e6;
		end++;
		break;
	case 'g':
	case 'G':
		v *= 1e9;
		end++;
		break;
	default:
		break;
	}
	if (*end != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

static int
parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
	char *end = NULL;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

static int
parse_secs(const char *s, double lo, double hi, double *out)
{
	char *end = NULL;
	errno = 0;
	double v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(v >= lo && v <= hi))
		return -EINVAL;
	*out = v;
	return 0;
}

#define BAD(...)                                                                                   \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		return -EINVAL;                                                                    \
	} while (0)

int
perf_opts_parse(struct perf_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "server", no_argument, NULL, 's' },
		{ "client", required_argument, NULL, 'c' },
		{ "loopback", no_argument, NULL, 'L' },
		{ "echo", no_argument, NULL, 'E' },
		{ "one-off", no_argument, NULL, '1' },
		{ "time", required_argument, NULL, 't' },
		{ "length", required_argument, NULL, 'l' },
		{ "streams", required_argument, NULL, 'S' },
		{ "unordered", no_argument, NULL, 'u' },
		{ "parallel", required_argument, NULL, 'P' },
		{ "bidir", no_argument, NULL, 'B' },
		{ "ping", no_argument, NULL, 'p' },
		{ "rate", required_argument, NULL, 'R' },
		{ "pps", required_argument, NULL, 'Q' },
		{ "handshakes", required_argument, NULL, 'H' },
		{ "memory", no_argument, NULL, 'M' },
		{ "omit", required_argument, NULL, 'O' },
		{ "burst", required_argument, NULL, 'b' },
		{ "interval", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'J' },
		{ "stats", no_argument, NULL, 'C' },
		{ "sidecar", required_argument, NULL, 'X' },
		{ "zero-copy", no_argument, NULL, 'Z' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool time_given = false;
	uint32_t v;
	int c;

	memset(o, 0, sizeof(*o));
	o->seconds = 10;
	o->interval = 1;
	o->omit = 0.2;
	o->len = 1452;
	o->streams = 1;
	o->assocs = 1;
	o->burst = 32;
	optind = 1;
	while ((c = getopt_long(argc, argv, "sc:1t:l:S:uP:i:Jh", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->server = true;
			break;
		case 'c':
			o->peer = optarg;
			break;
		case 'L':
			o->loopback = true;
			break;
		case 'E':
			o->echo = true;
			break;
		case '1':
			o->one_off = true;
			break;
		case 't':
			if (parse_secs(optarg, 0.1, 86400, &o->seconds) != 0)
				BAD("-t %s: seconds from 0.1 to 86400", optarg);
			time_given = true;
			break;
		case 'l':
			if (parse_u32(optarg, PERF_MIN_LEN, PERF_MAX_LEN, &o->len) != 0)
				BAD("-l %s: message bytes from %u to %u", optarg, PERF_MIN_LEN,
				    PERF_MAX_LEN);
			break;
		case 'S':
			if (parse_u32(optarg, 1, PERF_MAX_STREAMS, &v) != 0)
				BAD("-S %s: streams from 1 to %u", optarg, PERF_MAX_STREAMS);
			o->streams = (uint16_t)v;
			break;
		case 'u':
			o->unordered = true;
			break;
		case 'P':
			if (parse_u32(optarg, 1, PERF_MAX_ASSOCS, &o->assocs) != 0)
				BAD("-P %s: associations from 1 to %u", optarg, PERF_MAX_ASSOCS);
			break;
		case 'B':
			o->bidir = true;
			break;
		case 'p':
			o->ping = true;
			break;
		case 'R':
			if (parse_rate(optarg, &o->rate_bps) != 0)
				BAD("--rate %s: bits/s as 10g, 500m, 100k or a number", optarg);
			o->line_rate_10g = o->rate_bps == 10e9;
			break;
		case 'Q':
			if (parse_secs(optarg, 1, 1e9, &o->pps) != 0)
				BAD("--pps %s: packets/s from 1 to 1e9", optarg);
			break;
		case 'H':
			if (parse_u32(optarg, 1, PERF_MAX_HANDSHAKES, &o->handshakes) != 0)
				BAD("--handshakes %s: from 1 to %u", optarg, PERF_MAX_HANDSHAKES);
			break;
		case 'M':
			o->memory = true;
			break;
		case 'O':
			if (parse_secs(optarg, 0, 60, &o->omit) != 0)
				BAD("--omit %s: seconds from 0 to 60", optarg);
			break;
		case 'b':
			if (parse_u32(optarg, 1, 1024, &v) != 0)
				BAD("--burst %s: from 1 to 1024", optarg);
			o->burst = v;
			break;
		case 'i':
			if (parse_secs(optarg, 0, 3600, &o->interval) != 0)
				BAD("-i %s: seconds from 0 (none) to 3600", optarg);
			break;
		case 'J':
			o->json = true;
			break;
		case 'C':
			o->stats = true;
			break;
		case 'Z':
			o->zero_copy = true;
			break;
		case 'X':
			if (optarg[0] == '\0')
				BAD("--sidecar: the path of dpsctpd's socket");
			o->sidecar = optarg;
			break;
		case 'h':
			return 1;
		default:
			BAD("unknown option (try -h)");
		}
	}
	if (optind < argc)
		BAD("unexpected argument \"%s\" (try -h)", argv[optind]);
	if (o->server + (o->peer != NULL) + o->loopback != 1)
		BAD("choose one of -s, -c PEER and --loopback");
	if (o->zero_copy && o->sidecar == NULL)
		BAD("--zero-copy asks dpsctpd for received messages by reference: with "
		    "--sidecar");
	if (o->sidecar != NULL) {
		/* Options that need an instance of this process's own. */
		if (o->loopback)
			BAD("--sidecar runs one end through dpsctpd: -s or -c, not --loopback");
		if (o->memory || o->handshakes != 0)
			BAD("--memory and --handshakes measure this process's own instance: not "
			    "with --sidecar");
		if (o->rate_bps > 0 || o->pps > 0)
			BAD("--rate and --pps pace by a wire model of this process's port (MTU, "
			    "encapsulation): not with --sidecar (dpsctpd owns the port)");
		if (o->stats)
			BAD("--stats prints this process's data-plane counters: with --sidecar "
			    "they "
			    "are dpsctpd's (its telemetry: /dpsctpd/stats)");
	}
	if (o->loopback && !time_given)
		o->seconds = 3;
	if (o->rate_bps > 0 && o->pps > 0)
		BAD("--rate and --pps both pace: choose one");
	if (o->server && (o->ping || o->bidir || o->handshakes || o->rate_bps > 0 || o->pps > 0))
		BAD("--ping, --bidir, --rate, --pps and --handshakes are client options");
	if (o->memory && !o->loopback)
		BAD("--memory measures a --loopback server end");
	if (o->handshakes != 0 && (o->ping || o->bidir))
		BAD("--handshakes opens associations only: no --ping or --bidir");
	if (o->omit >= o->seconds)
		BAD("--omit %.3g must be shorter than the test (-t %.3g)", o->omit, o->seconds);
	return 0;
}
