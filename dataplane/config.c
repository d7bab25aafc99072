/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The data plane's configuration: defaults, one option by name, the
 * command line, files, cross checks, printing (config.h has the contract,
 * docs/CONFIG.md the option list for users).
 *
 * One table (options[] below) names every option once: its argument, how
 * its value is read, its range and its help line. set(), the argv loop, the
 * file reader, print() and usage() all walk it, so an option added there is
 * parsed, printed, round-tripped and documented in --help at once; the
 * default in the help text is printed from dpsctp_config_defaults(), so it
 * cannot drift from the code.
 *
 * Invariants: n_ports <= DPSCTP_CONFIG_MAX_PORTS, n_ips <=
 * DPSCTP_CONFIG_MAX_IPS, no two equal ports or addresses, every stored
 * string NUL-terminated and printable as one file value (no blank, not
 * starting with '#'), so print() output always parses back; a refused
 * value leaves the configuration as it was (a file keeps its earlier lines).
 *
 * Costs: set() is a linear search over the option table (a few dozen
 * names) and a parse of one value; files are read a line at a time into a
 * DPSCTP_CONFIG_LINE_MAX stack buffer. Nothing is allocated; the only
 * libc state touched is the FILE.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "dataplane/config.h"

/* Ranges, with the reason for each bound. */
#define MTU_MIN		  576u	     /* RFC 791: every IPv4 host takes 576-byte datagrams */
#define MTU_MIN_IPV6	  1280u	     /* RFC 8200 §5 */
#define MTU_MAX		  9216u	     /* the common jumbo frame limit of switches and NICs */
#define QUEUES_MAX	  128u	     /* RTE_MAX_LCORE of Debian's DPDK 22.11 build */
#define ASSOCS_MAX	  1048576u   /* 2^20 per lcore: 512 MiB of 512-byte idle associations */
#define HANDSHAKES_MAX	  65536u     /* INITs in flight per lcore; far above any connect burst */
#define STREAMS_MAX	  65535u     /* RFC 9260 §3.3.2: 16-bit stream counts */
#define PATHS_MAX	  8u	     /* a peer's addresses one association tracks (docs/PATHS.md) */
#define NBRS_MIN	  16u	     /* gateways and the resolving pool (drivers/net/l3.h) */
#define NBRS_MAX	  (1u << 20) /* 72 MiB of 72-byte neighbour entries per lcore */
#define LISTENERS_MAX	  1024u	     /* an out-of-the-blue packet looks its port up among them */
#define BUF_MIN		  4096u	     /* one page: two full-sized packets at MTU 1500 */
#define BUF_MAX		  (1u << 30) /* rwnd is 32 bits; 1 GiB keeps 2x of it in uint32_t */
#define MBUFS_MIN	  256u	     /* two rx rings of 128 descriptors */
#define MBUFS_MAX	  (1u << 24) /* 32 GiB of 2 KiB buffers: more than a host gives one port */
#define COPY_MAX_MAX	  MTU_MAX    /* a copied payload fits in one packet */
#define DEFAULT_MTU	  1500u
#define DEFAULT_ASSOCS	  1024u
#define DEFAULT_HS	  256u
#define DEFAULT_BUSY_INIT 10000u /* INITs a second under load: ~0.5 % of a core at 1,300 cycles */
#define BUSY_INIT_MAX	  100000000u
/*
 * Idle-path heartbeats a second per worker. Among tens of thousands of
 * associations each one touches cold memory: `dpsctp-perf --loopback
 * --handshakes 20000 --idle 3` measured 8,600 cycles of both ends per
 * heartbeat sent, answered and acknowledged with the ends saturated
 * (docs/PERFORMANCE.md "Heartbeats at scale"); 20,000 a second kept 14-24 %
 * of each end's polls busy on the 2-vCPU test VM. The default --max-assocs
 * (1,024) single-homed at the data-center profile's 50 ms fits under it
 * unslowed.
 */
#define DEFAULT_HB_RATE 20000u
#define DEFAULT_STREAMS 64u
#define DEFAULT_PATHS	4u
#define DEFAULT_LISTEN	64u
#define DEFAULT_BUF	(256u * 1024u)
#define ADDR_TEXT_MAX	64u /* longer than any IPv6 text form (45) */
/* --stream-mem: ~2.5 MiB an association of 65,535 streams both ways takes (I-DATA) */
#define DEFAULT_STREAM_MEM (64u << 20)
#define STREAM_MEM_MIN	   4096u      /* one page */
#define STREAM_MEM_MAX	   (1u << 31) /* 2 GiB per lcore, within the uint32_t field */

enum kind {
	K_PORT,
	K_IP,
	K_GW,
	K_ROUTE,
	K_MAC,
	K_UINT,
	K_SIZE,
	K_COPY_MAX,
	K_PF,
	K_PROFILE,
	K_UDP_ENCAP,
	K_NO_UDP_ENCAP,
	K_TELEMETRY,
	K_NO_TELEMETRY,
	K_IMPAIR,
	K_IMPAIR_RX,
	K_LOG,
	K_ICMP_UNREACH,
	K_INIT_QUEUE,
	K_ONOFF, /* a bool field at off: "on" or "off" */
	K_EXTENSIONS,
	K_SCHED,
	K_CONFIG,
};

enum value_rule {
	V_NONE,	    /* a flag */
	V_REQUIRED, /* "--name value" or "--name=value" */
	V_OPTIONAL, /* "--name" or "--name=value" */
};

struct opt {
	const char *name;
	const char *arg; /* shown in help; NULL for a flag */
	enum kind kind;
	enum value_rule value;
	size_t off;	   /* K_UINT, K_SIZE: the field */
	unsigned width;	   /* its size: 2 or 4 bytes */
	uint32_t min, max; /* range of a non-zero value */
	const char *zero;  /* meaning of 0 when 0 is allowed outside min..max, else NULL */
	const char *help;
};

#define UINT_OPT(n, a, field, lo, hi, z, h)                                                        \
	{                                                                                          \
		.name = n, .arg = a, .kind = K_UINT, .value = V_REQUIRED,                          \
		.off = offsetof(struct dpsctp_config, field),                                      \
		.width = sizeof(((struct dpsctp_config *)0)->field), .min = lo, .max = hi,         \
		.zero = z, .help = h                                                               \
	}
#define SIZE_OPT(n, field, lo, hi, h)                                                              \
	{                                                                                          \
		.name = n, .arg = "BYTES", .kind = K_SIZE, .value = V_REQUIRED,                    \
		.off = offsetof(struct dpsctp_config, field),                                      \
		.width = sizeof(((struct dpsctp_config *)0)->field), .min = lo, .max = hi,         \
		.help = h                                                                          \
	}

static const struct opt options[] = {
	{ .name = "port",
	  .arg = "DEVARGS",
	  .kind = K_PORT,
	  .value = V_REQUIRED,
	  .help = "a DPDK port: vdev or PCI address with its arguments (repeatable, up to 4)" },
	{ .name = "ip",
	  .arg = "ADDR/PREFIX",
	  .kind = K_IP,
	  .value = V_REQUIRED,
	  .help = "a local IPv4 or IPv6 address and its on-link prefix; ADDR/PREFIX,port=N puts it "
		  "on the N-th --port (0-based, default 0) (repeatable, up to 8: multi-homing)" },
	{ .name = "gw",
	  .arg = "ADDR",
	  .kind = K_GW,
	  .value = V_REQUIRED,
	  .help = "the gateway for off-link destinations, one per family; ADDR,port=N: the "
		  "N-th --port's (default 0)" },
	{ .name = "route",
	  .arg = "PREFIX/LEN,via=ADDR",
	  .kind = K_ROUTE,
	  .value = V_REQUIRED,
	  .help = "a route: PREFIX/LEN through the gateway ADDR, out of the port ADDR is on-link "
		  "for (repeatable, up to 16)" },
	{ .name = "mac",
	  .arg = "MAC",
	  .kind = K_MAC,
	  .value = V_REQUIRED,
	  .help = "use this unicast Ethernet address (xx:xx:xx:xx:xx:xx) instead of the port's" },
	UINT_OPT("sctp-port", "N", sctp_port, 1, 65535, "none",
		 "the local SCTP port (apps usually set it)"),
	{ .name = "profile",
	  .arg = "rfc|dc",
	  .kind = K_PROFILE,
	  .value = V_REQUIRED,
	  .help = "protocol timers and acknowledgement policy: RFC 9260 defaults or data center" },
	{ .name = "icmp-unreach",
	  .arg = "profile|abort|ignore",
	  .kind = K_ICMP_UNREACH,
	  .value = V_REQUIRED,
	  .help = "ICMP protocol unreachable on an established association: end it (RFC 9260 "
		  "ICMP8) or count it (as Linux); default: the profile's (rfc abort, dc ignore)" },
	{ .name = "extensions",
	  .arg = "LIST",
	  .kind = K_EXTENSIONS,
	  .value = V_REQUIRED,
	  .help = "SCTP extensions offered to and accepted from peers, a comma list of pr-sctp "
		  "(RFC 3758 partial reliability), i-data (RFC 8260 interleaving) and reconfig "
		  "(RFC 6525 stream reconfiguration), or none" },
	{ .name = "sched",
	  .arg = "rr|fcfs|rr_pkt|prio|fc|wfq",
	  .kind = K_SCHED,
	  .value = V_REQUIRED,
	  .help = "every association's stream scheduler (RFC 8260 §3), until the application "
		  "changes it (dpsctp_set_sched())" },
	{ .name = "udp-encap",
	  .arg = "[=PORT]",
	  .kind = K_UDP_ENCAP,
	  .value = V_OPTIONAL,
	  .help = "SCTP over UDP (RFC 6951) to the peers we connect to; =PORT sets udp-port" },
	{ .name = "no-udp-encap",
	  .kind = K_NO_UDP_ENCAP,
	  .value = V_NONE,
	  .help = "SCTP directly over IP (protocol 132) to the peers we connect to" },
	UINT_OPT("udp-port", "PORT", udp_port, 1, 65535, NULL,
		 "our UDP encapsulation port, and the peer's when we connect over UDP"),
	UINT_OPT("queues", "N", queues, 1, QUEUES_MAX, "one",
		 "rx/tx queue pairs per port, one worker lcore each"),
	UINT_OPT("mtu", "N", mtu, MTU_MIN, MTU_MAX, NULL,
		 "the IP MTU of the ports: where every path's MTU starts (docs/PMTU.md)"),
	{ .name = "stage-cycles",
	  .arg = "on|off",
	  .kind = K_ONOFF,
	  .value = V_REQUIRED,
	  .off = offsetof(struct dpsctp_config, stage_cycles),
	  .help = "count each worker's cycles by stage of its poll (receive, L3, CRC32c, "
		  "lookup, core, delivery, transmit, timers): dpsctp_worker_stage(), "
		  "dpsctp-perf --stages; a TSC read at every stage boundary" },
	{ .name = "frto",
	  .arg = "on|off",
	  .kind = K_ONOFF,
	  .value = V_REQUIRED,
	  .off = offsetof(struct dpsctp_config, frto),
	  .help = "F-RTO (RFC 5682) after a T3-rtx expiry: new data instead of the rest of the "
		  "window until the next SACK tells a stall from a loss; off: the window goes "
		  "again at once" },
	{ .name = "pmtud",
	  .arg = "on|off",
	  .kind = K_ONOFF,
	  .value = V_REQUIRED,
	  .off = offsetof(struct dpsctp_config, pmtud),
	  .help = "ICMP Fragmentation Needed / Packet Too Big lowers the path's MTU (RFC 9260 "
		  "appendix C, validated)" },
	{ .name = "plpmtud",
	  .arg = "on|off",
	  .kind = K_ONOFF,
	  .value = V_REQUIRED,
	  .off = offsetof(struct dpsctp_config, plpmtud),
	  .help = "RFC 8899 path MTU probing with HEARTBEAT and PAD chunks: finds the MTU when "
		  "ICMP is filtered, raises it when the path grows" },
	UINT_OPT("pmtu-raise", "SECONDS", pmtu_raise, 1, 86400, NULL,
		 "PLPMTUD's PMTU_RAISE_TIMER: how long a found MTU stands before probing for "
		 "more; without PLPMTUD, how long an MTU an ICMP lowered stands"),
	UINT_OPT("max-assocs", "N", max_assocs, 1, ASSOCS_MAX, NULL,
		 "associations per lcore (preallocated)"),
	UINT_OPT("active-assocs", "N", active_assocs, 1, ASSOCS_MAX, "min(--max-assocs, 4096)",
		 "associations per lcore expected to have data queued or in flight at once: the "
		 "shared reassembly, send and retransmission pools hold 16 entries for each "
		 "(and full windows for 64); more at once find them empty, counted "
		 "(docs/MEMORY.md)"),
	UINT_OPT("multihomed", "N", multihomed, 1, ASSOCS_MAX, "--max-assocs",
		 "associations per lcore that may use more than one of the peer's addresses "
		 "(a block of 7 further paths each, taken only for a multi-homed peer); past "
		 "it a peer's further addresses are not used, counted (paths_no_block); "
		 "--max-paths 1: none"),
	UINT_OPT("max-handshakes", "N", max_handshakes, 1, HANDSHAKES_MAX, NULL,
		 "associations being set up per lcore"),
	UINT_OPT("busy-init-rate", "N", busy_init_rate, 1, BUSY_INIT_MAX,
		 "every INIT answered, however backed up",
		 "INITs per second a worker still answers while its receive queue is backed up "
		 "(a full burst): the rest are dropped before their CRC32c is checked "
		 "(drop_init_busy), so a flood cannot take the cycles established associations "
		 "need (docs/SECURITY.md)"),
	UINT_OPT("hb-rate", "N", hb_rate, 1, BUSY_INIT_MAX, "no limit",
		 "idle-path HEARTBEATs per second a worker sends at most (RFC 9260 §8.3): past "
		 "it each waits for a later slot (hb_deferred), so idle paths are probed less "
		 "often when there are more than N x HB.interval of them; probes of "
		 "unconfirmed and potentially-failed paths are never held (docs/PATHS.md)"),
	{ .name = "init-queue",
	  .arg = "off|flow|external",
	  .kind = K_INIT_QUEUE,
	  .value = V_REQUIRED,
	  .help = "receive INITs (tag 0) on an rx queue of their own, one more per port, read "
		  "at --busy-init-rate while associations have traffic: flow asks the port "
		  "for the rte_flow rule, external trusts the NIC or switch to steer "
		  "(docs/PORTS.md)" },
	UINT_OPT("max-streams", "N", max_streams, 1, STREAMS_MAX, NULL,
		 "streams offered and accepted per direction of an association, and the most "
		 "RE-CONFIG (RFC 6525) can add up to"),
	UINT_OPT("out-streams", "N", out_streams, 1, STREAMS_MAX, "max-streams",
		 "outbound streams asked for when an association starts (INIT's OS, at most "
		 "--max-streams): below it, RE-CONFIG can add streams up to --max-streams"),
	{ .name = "stream-mem",
	  .arg = "BYTES",
	  .kind = K_SIZE,
	  .value = V_REQUIRED,
	  .off = offsetof(struct dpsctp_config, stream_mem),
	  .width = sizeof(((struct dpsctp_config *)0)->stream_mem),
	  .min = STREAM_MEM_MIN,
	  .max = STREAM_MEM_MAX,
	  .zero = "none: associations negotiate at most 64 streams a way",
	  .help = "bytes per lcore for the data blocks of associations with more than 64 "
		  "streams a way (the pool holds those up to 64; docs/DATAPATH.md)" },
	UINT_OPT("rto-initial", "US", rto_initial_us, 1u, 3600000000u, "the profile's",
		 "RFC 6458 RTOINFO srto_initial: RTO.Initial in microseconds (docs/OPTIONS.md)"),
	UINT_OPT("rto-min", "US", rto_min_us, 1u, 3600000000u, "the profile's",
		 "RTOINFO srto_min: RTO.Min in microseconds (docs/OPTIONS.md)"),
	UINT_OPT("rto-max", "US", rto_max_us, 1u, 3600000000u, "the profile's",
		 "RTOINFO srto_max: RTO.Max in microseconds (docs/OPTIONS.md)"),
	UINT_OPT("assoc-max-retrans", "N", assoc_max_retrans, 1u, 65535u, "the profile's",
		 "ASSOCINFO sasoc_asocmaxrxt: Association.Max.Retrans (docs/OPTIONS.md)"),
	UINT_OPT("path-max-retrans", "N", path_max_retrans, 1u, 65535u, "the profile's",
		 "PEER_ADDR_PARAMS spp_pathmaxrxt: Path.Max.Retrans (docs/OPTIONS.md)"),
	UINT_OPT("hb-interval", "US", hb_interval_us, 1000u, 3600000000u, "the profile's",
		 "PEER_ADDR_PARAMS spp_hbinterval: HB.interval in microseconds (docs/OPTIONS.md)"),
	UINT_OPT("sack-delay", "US", sack_delay_us, 1u, 500000u, "the profile's",
		 "DELAYED_SACK sack_delay in microseconds (at most 500 ms) (docs/OPTIONS.md)"),
	UINT_OPT("sack-freq", "N", sack_freq, 1u, 65535u, "the profile's",
		 "DELAYED_SACK sack_freq: a SACK at least every N packets with DATA "
		 "(docs/OPTIONS.md)"),
	UINT_OPT("max-burst", "N", max_burst, 1u, 65535u, "the profile's",
		 "MAX_BURST: packets per send opportunity (docs/OPTIONS.md)"),
	UINT_OPT("maxseg", "BYTES", maxseg, 256u, 65535u, "the path MTU's",
		 "MAXSEG: most DATA payload bytes per fragment (docs/OPTIONS.md)"),
	UINT_OPT("max-init-retrans", "N", max_init_retrans, 1u, 65535u, "the profile's",
		 "INITMSG sinit_max_attempts: Max.Init.Retransmits (docs/OPTIONS.md)"),
	UINT_OPT("max-init-timeout", "US", max_init_timeout_us, 1u, 3600000000u, "the profile's",
		 "INITMSG sinit_max_init_timeo: the T1 timers' back-off cap in microseconds "
		 "(docs/OPTIONS.md)"),
	UINT_OPT(
		"cookie-life", "MS", cookie_life_ms, 1u, 3600000u, "the profile's",
		"ASSOCINFO sasoc_cookie_life: Valid.Cookie.Life in milliseconds (docs/OPTIONS.md)"),
	UINT_OPT("max-paths", "N", max_paths, 1, PATHS_MAX, NULL,
		 "peer addresses (paths) kept per association"),
	UINT_OPT("neighbours", "N", neighbours, NBRS_MIN, NBRS_MAX, "max-assocs x max-paths + 64",
		 "ARP/ND entries per lcore; those associations use are never evicted"),
	UINT_OPT("listeners", "N", listeners, 1, LISTENERS_MAX, NULL,
		 "SCTP ports listened on at once per instance (dpsctp_listen())"),
	SIZE_OPT("rcvbuf", rcvbuf, BUF_MIN, BUF_MAX,
		 "receive window and reassembly bytes per association"),
	SIZE_OPT("sndbuf", sndbuf, BUF_MIN, BUF_MAX, "queued send bytes per association"),
	UINT_OPT("mbufs", "N", mbufs, MBUFS_MIN, MBUFS_MAX, "computed from the limits",
		 "packet buffers in the pool of each port"),
	{ .name = "copy-max",
	  .arg = "BYTES|auto",
	  .kind = K_COPY_MAX,
	  .value = V_REQUIRED,
	  .min = 0,
	  .max = COPY_MAX_MAX,
	  .help = "payloads up to this size are copied into the packet, larger ones referenced" },
	{ .name = "pf-threshold",
	  .arg = "N|off|profile",
	  .kind = K_PF,
	  .value = V_REQUIRED,
	  .min = 0,
	  .max = 65534,
	  .help = "RFC 7829 potentially-failed threshold (PEER_ADDR_THLDS spt_pathpfthld, "
		  "docs/OPTIONS.md): a path with more errors is PF; off: no PF state; profile: the "
		  "profile's" },
	{ .name = "impair",
	  .arg = "SPEC",
	  .kind = K_IMPAIR,
	  .value = V_REQUIRED,
	  .help = "test impairment, e.g. loss=1%,delay=100us,seed=42 (docs/IMPAIR.md)" },
	{ .name = "impair-rx",
	  .arg = "SPEC",
	  .kind = K_IMPAIR_RX,
	  .value = V_REQUIRED,
	  .help = "test impairment of received frames, same syntax as --impair" },
	{ .name = "telemetry",
	  .kind = K_TELEMETRY,
	  .value = V_NONE,
	  .help = "serve counters over DPDK telemetry" },
	{ .name = "no-telemetry",
	  .kind = K_NO_TELEMETRY,
	  .value = V_NONE,
	  .help = "do not serve them" },
	{ .name = "log-level",
	  .arg = "LEVEL",
	  .kind = K_LOG,
	  .value = V_REQUIRED,
	  .help = "error|warning|info|debug" },
	{ .name = "config",
	  .arg = "FILE",
	  .kind = K_CONFIG,
	  .value = V_REQUIRED,
	  .help = "apply a configuration file here (later options override it)" },
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

static const char *const profile_names[] = {
	[DPSCTP_CONFIG_PROFILE_DC] = "dc",
	[DPSCTP_CONFIG_PROFILE_RFC] = "rfc",
};

static const char *const icmp_unreach_names[] = { "profile", "abort", "ignore" };
static const char *const onoff_names[] = { "off", "on" };
static const char *const init_queue_names[] = { "off", "flow", "external" };

/*
 * --extensions: the names of the DPSCTP_EXT_* bits this build implements
 * (DPSCTP_CONFIG_EXTENSIONS), in the order print() writes them. A name is
 * added here when the data plane implements its extension, and not before:
 * a peer must never be offered what we cannot do.
 */
static const struct {
	const char *name;
	uint32_t bit;
} ext_names[] = {
	{ "pr-sctp", DPSCTP_EXT_PR_SCTP },
	{ "i-data", DPSCTP_EXT_I_DATA },
	{ "reconfig", DPSCTP_EXT_RECONFIG },
};

#define N_EXT_NAMES	   (sizeof(ext_names) / sizeof(ext_names[0]))
#define EXT_WORD_MAX	   32u /* longer than any name */
#define EXT_TEXT_MAX	   64u /* every name, comma-separated */
#define DEFAULT_EXTENSIONS (DPSCTP_EXT_PR_SCTP | DPSCTP_EXT_I_DATA | DPSCTP_EXT_RECONFIG)

/* --sched: by DPSCTP_SCHED_* number, RFC 8260 §3's SCTP_SS_* names in lower case. */
static const char *const sched_names[] = {
	[DPSCTP_SCHED_RR] = "rr",	  [DPSCTP_SCHED_FCFS] = "fcfs",
	[DPSCTP_SCHED_RR_PKT] = "rr_pkt", [DPSCTP_SCHED_PRIO] = "prio",
	[DPSCTP_SCHED_FC] = "fc",	  [DPSCTP_SCHED_WFQ] = "wfq",
};

#define N_SCHED_NAMES (sizeof(sched_names) / sizeof(sched_names[0]))
#define SCHED_LIST    "rr, fcfs, rr_pkt, prio, fc or wfq"

static const char *const log_names[] = {
	[DPSCTP_CONFIG_LOG_ERROR] = "error",
	[DPSCTP_CONFIG_LOG_WARNING] = "warning",
	[DPSCTP_CONFIG_LOG_INFO] = "info",
	[DPSCTP_CONFIG_LOG_DEBUG] = "debug",
};

/*
 * One call's bookkeeping (dpsctp_config_set(), _parse_args(), _parse_file()),
 * for the rules of config.h: the source being read (the command line, or
 * one file; 0 outside a parse, where list entries always append), which
 * source built each list (0: an earlier call, so the first entry of this
 * one replaces it), and how deep the includes go. Nothing of it outlives
 * the call: every call is a new source.
 */
struct parse {
	struct dpsctp_config *c;
	unsigned src, next_src;
	unsigned ports_src, ips_src, routes_src;
	unsigned depth;
};

static int parse_file(struct parse *p, const char *path, const char *dir, char *err, size_t errlen);

__attribute__((format(printf, 3, 4))) static void
seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* "--" on the command line, nothing in a file (the message then starts "FILE:LINE: "). */
static const char *
dashes(const struct parse *p)
{
	return p->depth > 0 ? "" : "--";
}

static const struct opt *
find_opt(const char *name, size_t len)
{
	for (size_t i = 0; i < N_OPTIONS; i++)
		if (strlen(options[i].name) == len && memcmp(options[i].name, name, len) == 0)
			return &options[i];
	return NULL;
}

static uint32_t
get_field(const struct dpsctp_config *c, const struct opt *o)
{
	const char *p = (const char *)c + o->off;

	if (o->width == sizeof(uint16_t)) {
		uint16_t v;
		memcpy(&v, p, sizeof(v));
		return v;
	}
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static void
put_field(struct dpsctp_config *c, const struct opt *o, uint32_t v)
{
	char *p = (char *)c + o->off;

	if (o->width == sizeof(uint16_t)) {
		uint16_t v16 = (uint16_t)v;
		memcpy(p, &v16, sizeof(v16));
	} else {
		memcpy(p, &v, sizeof(v));
	}
}

/* The allowed values of an integer option, for messages and help. */
static void
range_text(const struct opt *o, char *buf, size_t len)
{
	if (o->zero != NULL)
		snprintf(buf, len, "0 = %s, or %u..%u", o->zero, o->min, o->max);
	else
		snprintf(buf, len, "%u..%u", o->min, o->max);
}

/*
 * A whole decimal number, with one k/K/m/M/g/G suffix (powers of 1024)
 * when @suffix; no sign, no blanks. Returns 0, -EINVAL for anything else,
 * or -ERANGE for a number above UINT32_MAX before its suffix (above every
 * range; *out is then above UINT32_MAX too).
 */
static int
parse_number(const char *s, bool suffix, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;
	bool range = false;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10u + (uint64_t)(*p - '0');
		if (v > UINT32_MAX)
			range = true; /* keeps v <= 2^36 + 9, so a suffix cannot overflow */
		if (range)
			v = UINT32_MAX + UINT64_C(1);
	}
	if (suffix && *p != '\0' && p[1] == '\0') {
		switch (*p) {
		case 'k':
		case 'K':
			v <<= 10;
			p++;
			break;
		case 'm':
		case 'M':
			v <<= 20;
			p++;
			break;
		case 'g':
		case 'G':
			v <<= 30;
			p++;
			break;
		default:
			break;
		}
	}
	if (*p != '\0')
		return -EINVAL;
	*out = v;
	return range ? -ERANGE : 0;
}

static int
set_uint(struct parse *p, const struct opt *o, const char *v, char *err, size_t errlen)
{
	struct dpsctp_config *c = p->c;
	char range[96];
	uint64_t n;
	int rc;

	range_text(o, range, sizeof(range));
	rc = parse_number(v, o->kind == K_SIZE, &n);
	if (rc == -EINVAL) {
		if (o->kind == K_SIZE)
			seterr(err, errlen,
			       "%s%s '%s': not a size (bytes, optional suffix k, m or g for "
			       "powers of 1024; %s)",
			       dashes(p), o->name, v, range);
		else
			seterr(err, errlen, "%s%s '%s': not a whole number (%s)", dashes(p),
			       o->name, v, range);
		return -EINVAL;
	}
	if (rc != 0 || (!(n == 0 && o->zero != NULL) && (n < o->min || n > o->max))) {
		seterr(err, errlen, "%s%s '%s': out of range (%s)", dashes(p), o->name, v, range);
		return -EINVAL;
	}
	put_field(c, o, (uint32_t)n);
	return 0;
}

/*
 * Text print() can write as a file value and read back as is: not empty, no
 * blank (the reader trims them, and a blank before '#' starts a comment),
 * not starting with '#' (a comment after "name = ").
 */
static bool
plain_word(const char *s)
{
	if (*s == '\0' || *s == '#')
		return false;
	for (; *s != '\0'; s++)
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			return false;
	return true;
}

static bool
addr_usable(const struct sctp_addr *a)
{
	static const uint8_t zero[16];

	if (a->family == 4) {
		if (memcmp(a->bytes, zero, 4) == 0)
			return false; /* 0.0.0.0 */
		if ((a->bytes[0] & 0xf0u) == 0xe0u)
			return false; /* 224.0.0.0/4 multicast */
		return !(a->bytes[0] == 255 && a->bytes[1] == 255 && a->bytes[2] == 255 &&
			 a->bytes[3] == 255);
	}
	return memcmp(a->bytes, zero, 16) != 0 && a->bytes[0] != 0xffu; /* ::, ff00::/8 */
}

/* An address as text ("10.0.0.1", "2001:db8::1"); -EINVAL when it is none. */
static int
parse_addr(const char *s, size_t len, struct sctp_addr *a)
{
	char buf[ADDR_TEXT_MAX];

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	memset(a, 0, sizeof(*a));
	if (memchr(buf, ':', len) != NULL) {
		if (inet_pton(AF_INET6, buf, a->bytes) != 1)
			return -EINVAL;
		a->family = 6;
	} else {
		if (inet_pton(AF_INET, buf, a->bytes) != 1)
			return -EINVAL;
		a->family = 4;
	}
	return 0;
}

static void
addr_text(const struct sctp_addr *a, char *buf, size_t len)
{
	if (inet_ntop(a->family == 6 ? AF_INET6 : AF_INET, a->bytes, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
}

/* Whether @a is inside @ip's prefix (same family). */
static bool
on_link(const struct dpsctp_config_ip *ip, const struct sctp_addr *a)
{
	unsigned bits = ip->prefix;

	if (ip->addr.family != a->family)
		return false;
	for (unsigned i = 0; bits > 0; i++) {
		unsigned take = bits < 8 ? bits : 8;
		uint8_t mask = (uint8_t)(0xffu << (8 - take));

		if ((ip->addr.bytes[i] & mask) != (a->bytes[i] & mask))
			return false;
		bits -= take;
	}
	return true;
}

/* The first entry of a new source replaces the list earlier sources built (config.h). */
static bool
list_replaced(const struct parse *p, unsigned list_src)
{
	return p->src != 0 && list_src != p->src;
}

/*
 * An optional ",port=N" at the end of v (--ip, --gw): *len is the length of
 * what comes before it, *port N (0 without one). 0, or -EINVAL with err.
 */
static int
port_suffix(const struct parse *p, const char *name, const char *v, size_t *len, uint8_t *port,
	    char *err, size_t errlen)
{
	const char *s = strstr(v, ",port=");
	uint64_t n;

	*len = strlen(v);
	*port = 0;
	if (s == NULL)
		return 0;
	if (parse_number(s + 6, false, &n) != 0 || n >= DPSCTP_CONFIG_MAX_PORTS) {
		seterr(err, errlen, "%s%s '%s': port= must be 0..%u (a --port, in the order given)",
		       dashes(p), name, v, DPSCTP_CONFIG_MAX_PORTS - 1);
		return -EINVAL;
	}
	*len = (size_t)(s - v);
	*port = (uint8_t)n;
	return 0;
}

static int
set_port(struct parse *p, const char *v, char *err, size_t errlen)
{
	struct dpsctp_config *c = p->c;
	bool replace = list_replaced(p, p->ports_src);
	unsigned n = replace ? 0 : c->n_ports;

	if (!plain_word(v)) {
		seterr(err, errlen, "%sport '%s': empty, contains a blank or starts with '#'",
		       dashes(p), v);
		return -EINVAL;
	}
	if (strlen(v) >= DPSCTP_CONFIG_DEVARGS_LEN) {
		seterr(err, errlen, "%sport '%.40s...': longer than %u bytes", dashes(p), v,
		       DPSCTP_CONFIG_DEVARGS_LEN - 1);
		return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++) {
		if (strcmp(c->ports[i], v) == 0) {
			seterr(err, errlen, "%sport '%s': given twice", dashes(p), v);
			return -EINVAL;
		}
	}
	if (n == DPSCTP_CONFIG_MAX_PORTS) {
		seterr(err, errlen, "%sport '%s': at most %u ports", dashes(p), v,
		       DPSCTP_CONFIG_MAX_PORTS);
		return -EINVAL;
	}
	snprintf(c->ports[n], DPSCTP_CONFIG_DEVARGS_LEN, "%s", v);
	c->n_ports = n + 1;
	p->ports_src = p->src;
	return 0;
}

static int
set_ip(struct parse *p, const char *v, char *err, size_t errlen)
{
	struct dpsctp_config *c = p->c;
	bool replace = list_replaced(p, p->ips_src);
	unsigned n = replace ? 0 : c->n_ips;
	const char *slash = strchr(v, '/');
	struct dpsctp_config_ip ip;
	uint64_t prefix;
	unsigned max;

	memset(&ip, 0, sizeof(ip));
	size_t vlen;
	if (port_suffix(p, "ip", v, &vlen, &ip.port, err, errlen) != 0)
		return -EINVAL;
	if (slash == NULL || (size_t)(slash - v) >= vlen) {
		seterr(err, errlen,
		       "%sip '%s': missing /PREFIX (ADDR/PREFIX, prefix 0..32 for IPv4, 0..128 for "
		       "IPv6)",
		       dashes(p), v);
		return -EINVAL;
	}
	if (parse_addr(v, (size_t)(slash - v), &ip.addr) != 0) {
		seterr(err, errlen, "%sip '%s': not an IPv4 or IPv6 address (ADDR/PREFIX)",
		       dashes(p), v);
		return -EINVAL;
	}
	max = ip.addr.family == 4 ? 32u : 128u;
	char plen[8];
	size_t plen_n = vlen - (size_t)(slash + 1 - v);
	snprintf(plen, sizeof(plen), "%.*s", (int)(plen_n < sizeof(plen) ? plen_n : 0), slash + 1);
	if (parse_number(plen, false, &prefix) != 0 || prefix > max) {
		seterr(err, errlen, "%sip '%s': bad prefix length (0..%u for IPv%u)", dashes(p), v,
		       max, ip.addr.family);
		return -EINVAL;
	}
	ip.prefix = (uint8_t)prefix;
	if (!addr_usable(&ip.addr)) {
		seterr(err, errlen,
		       "%sip '%s': not a unicast address (unspecified, multicast or broadcast)",
		       dashes(p), v);
		return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++) {
		if (c->ips[i].addr.family == ip.addr.family &&
		    memcmp(c->ips[i].addr.bytes, ip.addr.bytes, 16) == 0) {
			seterr(err, errlen, "%sip '%s': address given twice", dashes(p), v);
			return -EINVAL;
		}
	}
	if (n == DPSCTP_CONFIG_MAX_IPS) {
		seterr(err, errlen, "%sip '%s': at most %u local addresses", dashes(p), v,
		       DPSCTP_CONFIG_MAX_IPS);
		return -EINVAL;
	}
	c->ips[n] = ip;
	c->n_ips = n + 1;
	p->ips_src = p->src;
	return 0;
}

static int
set_gw(struct parse *p, const char *v, char *err, size_t errlen)
{
	struct dpsctp_config *c = p->c;
	struct sctp_addr a;
	size_t vlen;
	uint8_t port;

	if (port_suffix(p, "gw", v, &vlen, &port, err, errlen) != 0)
		return -EINVAL;
	if (parse_addr(v, vlen, &a) != 0 || !addr_usable(&a)) {
		seterr(err, errlen, "%sgw '%s': not a unicast IPv4 or IPv6 address", dashes(p), v);
		return -EINVAL;
	}
	if (port == 0)
		*(a.family == 4 ? &c->gw4 : &c->gw6) = a;
	else
		*(a.family == 4 ? &c->port_gw4[port - 1] : &c->port_gw6[port - 1]) = a;
	return 0;
}

/* Whether bits past the first len of a are zero (a network address). */
static bool
host_bits_zero(const struct sctp_addr *a, unsigned len)
{
	unsigned total = a->family == 4 ? 32u : 128u;
	for (unsigned b = len; b < total; b++)
		if ((a->bytes[b / 8u] & (0x80u >> (b % 8u))) != 0)
			return false;
	return true;
}

/* --route PREFIX/LEN,via=ADDR. */
static int
set_route(struct parse *p, const char *v, char *err, size_t errlen)
{
	struct dpsctp_config *c = p->c;
	bool replace = list_replaced(p, p->routes_src);
	unsigned n = replace ? 0 : c->n_routes;
	const char *slash = strchr(v, '/');
	const char *via = strstr(v, ",via=");
	struct dpsctp_config_route r;
	char plen[8];
	uint64_t len;

	memset(&r, 0, sizeof(r));
	if (slash == NULL || via == NULL || slash > via) {
		seterr(err, errlen, "%sroute '%s': not PREFIX/LEN,via=ADDR", dashes(p), v);
		return -EINVAL;
	}
	if (parse_addr(v, (size_t)(slash - v), &r.prefix) != 0) {
		seterr(err, errlen, "%sroute '%s': the prefix is not an IPv4 or IPv6 address",
		       dashes(p), v);
		return -EINVAL;
	}
	unsigned max = r.prefix.family == 4 ? 32u : 128u;
	size_t plen_n = (size_t)(via - slash - 1);
	snprintf(plen, sizeof(plen), "%.*s", (int)(plen_n < sizeof(plen) ? plen_n : 0), slash + 1);
	if (parse_number(plen, false, &len) != 0 || len > max) {
		seterr(err, errlen, "%sroute '%s': bad prefix length (0..%u for IPv%u)", dashes(p),
		       v, max, r.prefix.family);
		return -EINVAL;
	}
	r.len = (uint8_t)len;
	if (!host_bits_zero(&r.prefix, r.len)) {
		seterr(err, errlen, "%sroute '%s': host bits set past /%u (give the network)",
		       dashes(p), v, r.len);
		return -EINVAL;
	}
	const char *gw = via + 5;
	if (parse_addr(gw, strlen(gw), &r.via) != 0 || !addr_usable(&r.via) ||
	    r.via.family != r.prefix.family) {
		seterr(err, errlen,
		       "%sroute '%s': via= is not a unicast address of the prefix's family",
		       dashes(p), v);
		return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++) {
		if (c->routes[i].len == r.len && c->routes[i].prefix.family == r.prefix.family &&
		    memcmp(c->routes[i].prefix.bytes, r.prefix.bytes, 16) == 0) {
			seterr(err, errlen, "%sroute '%s': prefix given twice", dashes(p), v);
			return -EINVAL;
		}
	}
	if (n == DPSCTP_CONFIG_MAX_ROUTES) {
		seterr(err, errlen, "%sroute '%s': at most %u routes", dashes(p), v,
		       DPSCTP_CONFIG_MAX_ROUTES);
		return -EINVAL;
	}
	c->routes[n] = r;
	c->n_routes = n + 1;
	p->routes_src = p->src;
	return 0;
}

static int
hex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static int
set_mac(struct parse *p, const char *v, char *err, size_t errlen)
{
	struct dpsctp_config *c = p->c;
	uint8_t mac[6];
	bool ok = strlen(v) == 17;

	for (unsigned i = 0; ok && i < 6; i++) {
		int hi = hex_digit(v[3 * i]);
		int lo = hex_digit(v[3 * i + 1]);

		if (hi < 0 || lo < 0 || (i < 5 && v[3 * i + 2] != ':'))
			ok = false;
		else
			mac[i] = (uint8_t)(hi << 4 | lo);
	}
	if (!ok) {
		seterr(err, errlen, "%smac '%s': not an Ethernet address (xx:xx:xx:xx:xx:xx)",
		       dashes(p), v);
		return -EINVAL;
	}
	if ((mac[0] & 1u) != 0 || (mac[0] | mac[1] | mac[2] | mac[3] | mac[4] | mac[5]) == 0) {
		seterr(err, errlen, "%smac '%s': not a unicast address (multicast bit or all zero)",
		       dashes(p), v);
		return -EINVAL;
	}
	memcpy(c->mac, mac, sizeof(mac));
	c->has_mac = true;
	return 0;
}

static int
set_named(struct parse *p, const struct opt *o, const char *v, const char *const *names, unsigned n,
	  unsigned *out, char *err, size_t errlen)
{
	for (unsigned i = 0; i < n; i++) {
		if (strcmp(names[i], v) == 0) {
			*out = i;
			return 0;
		}
	}
	seterr(err, errlen, "%s%s '%s': unknown (%s)", dashes(p), o->name, v,
	       o->kind == K_PROFILE	   ? "rfc or dc"
	       : o->kind == K_ICMP_UNREACH ? "profile, abort or ignore"
	       : o->kind == K_INIT_QUEUE   ? "off, flow or external"
	       : o->kind == K_SCHED	   ? SCHED_LIST
	       : o->kind == K_ONOFF	   ? "on or off"
					   : "error, warning, info or debug");
	return -EINVAL;
}

/*
 * "pr-sctp,i-data", "none": the DPSCTP_EXT_* bits of a comma list of names.
 * Every word must be a name (no empty word, no blank); "none" stands alone.
 * The same name twice is the same set.
 */
/* What --extensions takes, for messages: "a comma list of pr-sctp, i-data, or none". */
static void
extensions_accepted(char *buf, size_t len)
{
	size_t k = (size_t)snprintf(buf, len, "a comma list of");

	for (size_t i = 0; i < N_EXT_NAMES && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s %s", i != 0 ? "," : "",
				      ext_names[i].name);
	if (k < len)
		snprintf(buf + k, len - k, ", or none");
}

static int
set_extensions(struct parse *p, const char *v, char *err, size_t errlen)
{
	char accepted[EXT_TEXT_MAX + 32];
	uint32_t bits = 0;
	const char *w = v;

	if (strcmp(v, "none") == 0) {
		p->c->extensions = 0;
		return 0;
	}
	for (;;) {
		const char *end = strchr(w, ',');
		size_t len = end != NULL ? (size_t)(end - w) : strlen(w);
		bool found = false;

		for (size_t i = 0; i < N_EXT_NAMES && !found; i++) {
			if (strlen(ext_names[i].name) == len &&
			    memcmp(ext_names[i].name, w, len) == 0) {
				bits |= ext_names[i].bit;
				found = true;
			}
		}
		if (!found) {
			extensions_accepted(accepted, sizeof(accepted));
			if (len == 0)
				seterr(err, errlen, "%sextensions '%s': empty name (%s)", dashes(p),
				       v, accepted);
			else
				seterr(err, errlen,
				       "%sextensions '%s': unknown extension '%.*s' (%s)",
				       dashes(p), v, (int)(len < EXT_WORD_MAX ? len : EXT_WORD_MAX),
				       w, accepted);
			return -EINVAL;
		}
		if (end == NULL)
			break;
		w = end + 1;
	}
	p->c->extensions = bits;
	return 0;
}

/* The names of @bits as --extensions takes them: "pr-sctp,i-data", "none". */
static void
extensions_text(uint32_t bits, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_EXT_NAMES; i++)
		if ((bits & ext_names[i].bit) != 0 && k < len)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k != 0 ? "," : "",
					      ext_names[i].name);
	if (k == 0)
		snprintf(buf, len, "none");
}

/* Apply @v to option @o; the flags and value rules are checked by the caller. */
static int
apply(struct parse *p, const struct opt *o, const char *v, char *err, size_t errlen)
{
	struct dpsctp_config *c = p->c;
	unsigned idx;
	uint64_t n;
	int rc;

	switch (o->kind) {
	case K_PORT:
		return set_port(p, v, err, errlen);
	case K_IP:
		return set_ip(p, v, err, errlen);
	case K_GW:
		return set_gw(p, v, err, errlen);
	case K_ROUTE:
		return set_route(p, v, err, errlen);
	case K_MAC:
		return set_mac(p, v, err, errlen);
	case K_UINT:
	case K_SIZE:
		return set_uint(p, o, v, err, errlen);
	case K_PF:
		if (strcmp(v, "profile") == 0 || strcmp(v, "off") == 0) {
			c->pf_threshold =
				v[0] == 'p' ? DPSCTP_CONFIG_PF_PROFILE : DPSCTP_CONFIG_PF_OFF;
			return 0;
		}
		if (parse_number(v, false, &n) != 0 || n > o->max) {
			seterr(err, errlen, "%spf-threshold '%s': not off, profile or 0..%u",
			       dashes(p), v, o->max);
			return -EINVAL;
		}
		c->pf_threshold = (uint32_t)n;
		return 0;
	case K_COPY_MAX:
		if (strcmp(v, "auto") == 0) {
			c->copy_max = DPSCTP_CONFIG_COPY_MAX_AUTO;
			return 0;
		}
		if (parse_number(v, true, &n) != 0 || n > COPY_MAX_MAX) {
			seterr(err, errlen, "%scopy-max '%s': not auto or a size 0..%u", dashes(p),
			       v, COPY_MAX_MAX);
			return -EINVAL;
		}
		c->copy_max = (uint32_t)n;
		return 0;
	case K_PROFILE:
		rc = set_named(p, o, v, profile_names, 2, &idx, err, errlen);
		if (rc == 0)
			c->profile = (enum dpsctp_config_profile)idx;
		return rc;
	case K_ICMP_UNREACH:
		rc = set_named(p, o, v, icmp_unreach_names, 3, &idx, err, errlen);
		if (rc == 0)
			c->icmp_unreach = (enum dpsctp_config_icmp_unreach)idx;
		return rc;
	case K_INIT_QUEUE:
		rc = set_named(p, o, v, init_queue_names, 3, &idx, err, errlen);
		if (rc == 0)
			c->init_queue = (enum dpsctp_config_init_queue)idx;
		return rc;
	case K_ONOFF:
		rc = set_named(p, o, v, onoff_names, 2, &idx, err, errlen);
		if (rc == 0)
			*(bool *)(void *)((char *)c + o->off) = idx == 1;
		return rc;
	case K_LOG:
		rc = set_named(p, o, v, log_names, 4, &idx, err, errlen);
		if (rc == 0)
			c->log_level = (enum dpsctp_config_log_level)idx;
		return rc;
	case K_EXTENSIONS:
		return set_extensions(p, v, err, errlen);
	case K_SCHED:
		rc = set_named(p, o, v, sched_names, N_SCHED_NAMES, &idx, err, errlen);
		if (rc == 0)
			c->sched = idx;
		return rc;
	case K_UDP_ENCAP:
		if (v != NULL) {
			/* udp-port's range, named as given. */
			struct opt port = *find_opt("udp-port", strlen("udp-port"));

			port.name = o->name;
			rc = set_uint(p, &port, v, err, errlen);
			if (rc != 0)
				return rc;
		}
		c->udp_encap = true;
		return 0;
	case K_NO_UDP_ENCAP:
		c->udp_encap = false;
		return 0;
	case K_TELEMETRY:
		c->telemetry = true;
		return 0;
	case K_NO_TELEMETRY:
		c->telemetry = false;
		return 0;
	case K_IMPAIR:
	case K_IMPAIR_RX: {
		char *dst = o->kind == K_IMPAIR ? c->impair : c->impair_rx;
		if (*v != '\0' && !plain_word(v)) {
			seterr(err, errlen, "%s%s '%s': contains a blank or starts with '#'",
			       dashes(p), o->name, v);
			return -EINVAL;
		}
		if (strlen(v) >= DPSCTP_CONFIG_IMPAIR_LEN) {
			seterr(err, errlen, "%s%s: spec longer than %u bytes", dashes(p), o->name,
			       DPSCTP_CONFIG_IMPAIR_LEN - 1);
			return -EINVAL;
		}
		snprintf(dst, DPSCTP_CONFIG_IMPAIR_LEN, "%s", v);
		return 0;
	}
	case K_CONFIG:
		return parse_file(p, v, NULL, err, errlen);
	}
	return -EINVAL;
}

/* Checks the value rule of @o, then applies it. */
static int
set_opt(struct parse *p, const struct opt *o, const char *v, char *err, size_t errlen)
{
	if (o->value == V_NONE && v != NULL) {
		seterr(err, errlen, "%s%s '%s': takes no value", dashes(p), o->name, v);
		return -EINVAL;
	}
	if (o->value == V_REQUIRED && v == NULL) {
		seterr(err, errlen, "%s%s: missing value (%s)", dashes(p), o->name, o->arg);
		return -EINVAL;
	}
	return apply(p, o, v, err, errlen);
}

void
dpsctp_config_defaults(struct dpsctp_config *c)
{
	memset(c, 0, sizeof(*c));
	c->profile = DPSCTP_CONFIG_PROFILE_DC;
	c->udp_port = DPSCTP_CONFIG_UDP_PORT;
	c->mtu = DEFAULT_MTU;
	c->max_assocs = DEFAULT_ASSOCS;
	c->max_handshakes = DEFAULT_HS;
	c->busy_init_rate = DEFAULT_BUSY_INIT;
	c->hb_rate = DEFAULT_HB_RATE;
	c->max_streams = DEFAULT_STREAMS;
	c->stream_mem = DEFAULT_STREAM_MEM;
	c->max_paths = DEFAULT_PATHS;
	c->listeners = DEFAULT_LISTEN;
	c->rcvbuf = DEFAULT_BUF;
	c->sndbuf = DEFAULT_BUF;
	c->copy_max = DPSCTP_CONFIG_COPY_MAX_AUTO;
	c->pf_threshold = DPSCTP_CONFIG_PF_PROFILE;
	c->telemetry = true;
	c->frto = true;
	c->pmtud = true;
	c->pmtu_raise = 600;
	c->extensions = DEFAULT_EXTENSIONS;
	c->sched = DPSCTP_SCHED_RR;
	c->log_level = DPSCTP_CONFIG_LOG_INFO;
}

int
dpsctp_config_set(struct dpsctp_config *c, const char *name, const char *value, char *err,
		  size_t errlen)
{
	const struct opt *o = find_opt(name, strlen(name));

	struct parse ps = { .c = c, .next_src = 1 };

	if (o == NULL)
		return -ENOENT;
	return set_opt(&ps, o, value, err, errlen);
}

int
dpsctp_config_parse_args(struct dpsctp_config *c, int argc, char **argv, char *err, size_t errlen)
{
	struct parse ps = { .c = c, .next_src = 1 };
	int w = 1;
	int rc = 0;
	int i;

	if (argc < 1)
		return argc < 0 ? -EINVAL : 0;
	ps.src = ps.next_src++;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *eq;
		const char *v = NULL;
		const struct opt *o;

		if (strcmp(a, "--") == 0)
			break;
		if (strncmp(a, "--", 2) != 0) {
			argv[w++] = argv[i];
			continue;
		}
		eq = strchr(a + 2, '=');
		o = find_opt(a + 2, eq != NULL ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (o == NULL) {
			argv[w++] = argv[i];
			continue;
		}
		if (eq != NULL) {
			v = eq + 1;
		} else if (o->value == V_REQUIRED && i + 1 < argc &&
			   strncmp(argv[i + 1], "--", 2) != 0) {
			v = argv[++i];
		}
		rc = set_opt(&ps, o, v, err, errlen);
		if (rc != 0)
			break;
	}
	if (rc != 0)
		return rc;
	for (; i < argc; i++)
		argv[w++] = argv[i];
	if (w < argc)
		argv[w] = NULL;
	return w;
}

/* Blank: space, tab, CR (files written on Windows). */
static bool
blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

/*
 * One line of a file into @line: 1 when a line was read, 0 at the end, -1
 * when it does not fit (the rest of it is skipped).
 */
static int
read_line(FILE *f, char *line, size_t size)
{
	size_t n = 0;
	bool fits = true;
	int ch;

	while ((ch = getc(f)) != EOF && ch != '\n') {
		if (n + 1 < size)
			line[n++] = (char)ch;
		else
			fits = false;
	}
	line[n] = '\0';
	if (ch == EOF && n == 0 && fits)
		return 0;
	return fits ? 1 : -1;
}

/* The directory part of @path ("" when it has none), with its slash. */
static void
dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash != NULL ? (size_t)(slash - path) + 1 : 0;

	if (n >= len)
		n = 0;
	memcpy(buf, path, n);
	buf[n] = '\0';
}

/* Applies one line already stripped of its comment and outer blanks. */
static int
file_line(struct parse *p, char *s, const char *dir, char *err, size_t errlen)
{
	char *eq = strchr(s, '=');
	char *name_end = eq != NULL ? eq : s + strlen(s);
	char *v = NULL;
	const struct opt *o;

	while (name_end > s && blank(name_end[-1]))
		name_end--;
	*name_end = '\0';
	if (eq != NULL) {
		v = eq + 1;
		while (blank(*v))
			v++;
	}
	o = find_opt(s, strlen(s));
	if (o == NULL) {
		seterr(err, errlen, "unknown option '%s'%s", s,
		       s[0] == '-' ? " (write names without dashes)" : "");
		return -EINVAL;
	}
	if (o->kind == K_CONFIG && v != NULL)
		return parse_file(p, v, dir, err, errlen);
	return set_opt(p, o, v, err, errlen);
}

static int
parse_file(struct parse *p, const char *path, const char *dir, char *err, size_t errlen)
{
	char full[4096];
	char here[4096];
	char line[DPSCTP_CONFIG_LINE_MAX];
	char msg[512];
	unsigned saved_src = p->src;
	unsigned lineno = 0;
	int rc = 0;
	FILE *f;

	if (dir != NULL && path[0] != '/' && dir[0] != '\0') {
		if ((size_t)snprintf(full, sizeof(full), "%s%s", dir, path) >= sizeof(full)) {
			seterr(err, errlen, "%s: path too long", path);
			return -EINVAL;
		}
		path = full;
	}
	if (p->depth >= DPSCTP_CONFIG_DEPTH_MAX) {
		seterr(err, errlen, "%s: configuration files nested more than %u deep", path,
		       DPSCTP_CONFIG_DEPTH_MAX);
		return -EINVAL;
	}
	f = fopen(path, "r");
	if (f == NULL) {
		seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -EIO;
	}
	dir_of(path, here, sizeof(here));
	p->depth++;
	p->src = p->next_src++;
	for (;;) {
		int got = read_line(f, line, sizeof(line));
		char *s = line;
		char *end;

		if (got == 0)
			break;
		lineno++;
		if (got < 0) {
			seterr(err, errlen, "%s:%u: line longer than %u bytes", path, lineno,
			       DPSCTP_CONFIG_LINE_MAX - 1);
			rc = -EINVAL;
			break;
		}
		for (end = s; *end != '\0'; end++) {
			if (*end == '#' && (end == s || blank(end[-1]))) {
				*end = '\0';
				break;
			}
		}
		while (end > s && blank(end[-1]))
			*--end = '\0';
		while (blank(*s))
			s++;
		if (*s == '\0')
			continue;
		msg[0] = '\0';
		rc = file_line(p, s, here, msg, sizeof(msg));
		if (rc != 0) {
			/* An include's message names its own line: "a.conf:3: b.conf:5: ...". */
			seterr(err, errlen, "%s:%u: %s", path, lineno, msg);
			break;
		}
	}
	if (rc == 0 && ferror(f)) {
		seterr(err, errlen, "%s: read error", path);
		rc = -EIO;
	}
	fclose(f);
	p->depth--;
	p->src = saved_src;
	return rc;
}

int
dpsctp_config_parse_file(struct dpsctp_config *c, const char *path, char *err, size_t errlen)
{
	struct parse ps = { .c = c, .next_src = 1 };

	return parse_file(&ps, path, NULL, err, errlen);
}

/* Two connected prefixes overlap: one holds the other's network. */
static bool
prefixes_overlap(const struct dpsctp_config_ip *a, const struct dpsctp_config_ip *b)
{
	return on_link(a->prefix <= b->prefix ? a : b, &(a->prefix <= b->prefix ? b : a)->addr);
}

/*
 * The port list's cross checks (config.h, dpsctp_config_validate()): every
 * --ip and --gw of an existing port, each port with an address, no
 * connected prefix on two ports (a destination in both would have no one
 * port), every gateway on-link on its own port, every --route's gateway
 * on-link on some port.
 */
static int
validate_ports(const struct dpsctp_config *c, char *err, size_t errlen)
{
	char text[ADDR_TEXT_MAX];
	unsigned ports = c->n_ports > 0 ? c->n_ports : 1u;

	for (unsigned i = 0; i < c->n_ips; i++) {
		addr_text(&c->ips[i].addr, text, sizeof(text));
		if (c->ips[i].port >= ports) {
			seterr(err, errlen, "--ip %s/%u,port=%u: there %s only %u --port", text,
			       c->ips[i].prefix, c->ips[i].port, ports == 1 ? "is" : "are", ports);
			return -EINVAL;
		}
		for (unsigned j = 0; j < i; j++) {
			if (c->ips[j].port == c->ips[i].port ||
			    !prefixes_overlap(&c->ips[i], &c->ips[j]))
				continue;
			char other[ADDR_TEXT_MAX];
			addr_text(&c->ips[j].addr, other, sizeof(other));
			seterr(err, errlen,
			       "--ip %s/%u,port=%u: its prefix overlaps %s/%u of port %u (a "
			       "destination would be on-link on two ports)",
			       text, c->ips[i].prefix, c->ips[i].port, other, c->ips[j].prefix,
			       c->ips[j].port);
			return -EINVAL;
		}
	}
	for (unsigned port = 0; port < c->n_ports; port++) {
		bool has_ip = false;
		for (unsigned i = 0; i < c->n_ips; i++)
			has_ip |= c->ips[i].port == port;
		if (!has_ip) {
			seterr(err, errlen,
			       "--port %s: needs at least one --ip ADDR/PREFIX,port=%u",
			       c->ports[port], port);
			return -EINVAL;
		}
	}
	for (unsigned port = 1; port < DPSCTP_CONFIG_MAX_PORTS; port++) {
		const struct sctp_addr *g[2] = { &c->port_gw4[port - 1], &c->port_gw6[port - 1] };
		for (unsigned k = 0; k < 2; k++) {
			bool found = false;
			if (g[k]->family == 0)
				continue;
			addr_text(g[k], text, sizeof(text));
			if (port >= ports) {
				seterr(err, errlen, "--gw %s,port=%u: there %s only %u --port",
				       text, port, ports == 1 ? "is" : "are", ports);
				return -EINVAL;
			}
			for (unsigned i = 0; i < c->n_ips && !found; i++)
				found = c->ips[i].port == port && on_link(&c->ips[i], g[k]);
			if (!found) {
				seterr(err, errlen,
				       "--gw %s,port=%u: not on-link for any --ip of its family on "
				       "port %u",
				       text, port, port);
				return -EINVAL;
			}
		}
	}
	for (unsigned r = 0; r < c->n_routes; r++) {
		const struct dpsctp_config_route *rt = &c->routes[r];
		char via[ADDR_TEXT_MAX];
		bool found = false;
		addr_text(&rt->prefix, text, sizeof(text));
		addr_text(&rt->via, via, sizeof(via));
		for (unsigned i = 0; i < c->n_ips && !found; i++)
			found = on_link(&c->ips[i], &rt->via);
		if (!found || rt->via.family != rt->prefix.family ||
		    rt->len > (rt->prefix.family == 4 ? 32u : 128u) ||
		    !host_bits_zero(&rt->prefix, rt->len)) {
			seterr(err, errlen, "--route %s/%u,via=%s: %s", text, rt->len, via,
			       found ? "not a network of the gateway's family"
				     : "the gateway is on-link for no --ip of any port");
			return -EINVAL;
		}
		for (unsigned q = 0; q < r; q++)
			if (c->routes[q].len == rt->len &&
			    c->routes[q].prefix.family == rt->prefix.family &&
			    memcmp(c->routes[q].prefix.bytes, rt->prefix.bytes, 16) == 0) {
				seterr(err, errlen, "--route %s/%u,via=%s: prefix given twice",
				       text, rt->len, via);
				return -EINVAL;
			}
	}
	return 0;
}

int
dpsctp_config_validate(const struct dpsctp_config *c, char *err, size_t errlen)
{
	const struct sctp_addr *gws[2] = { &c->gw4, &c->gw6 };
	bool has6 = false;
	char text[ADDR_TEXT_MAX];
	char range[96];

	/*
	 * Numbers a program wrote into the structure itself, not through
	 * dpsctp_config_set(), meet the same ranges: the runtime would otherwise
	 * cut them to what it can hold without a word.
	 */
	for (size_t k = 0; k < N_OPTIONS; k++) {
		const struct opt *o = &options[k];
		uint32_t v;

		if (o->kind == K_COPY_MAX) {
			if (c->copy_max == DPSCTP_CONFIG_COPY_MAX_AUTO || c->copy_max <= o->max)
				continue;
			seterr(err, errlen, "--%s %u: out of range (auto or 0..%u)", o->name,
			       c->copy_max, o->max);
			return -EINVAL;
		}
		if (o->kind == K_PF) {
			if (c->pf_threshold >= DPSCTP_CONFIG_PF_OFF || c->pf_threshold <= o->max)
				continue;
			seterr(err, errlen, "--%s %u: out of range (off, profile or 0..%u)",
			       o->name, c->pf_threshold, o->max);
			return -EINVAL;
		}
		if (o->kind != K_UINT && o->kind != K_SIZE)
			continue;
		v = get_field(c, o);
		if ((v == 0 && o->zero != NULL) || (v >= o->min && v <= o->max))
			continue;
		range_text(o, range, sizeof(range));
		seterr(err, errlen, "--%s %u: out of range (%s)", o->name, v, range);
		return -EINVAL;
	}
	if ((c->extensions & ~(uint32_t)DPSCTP_CONFIG_EXTENSIONS) != 0) {
		char names[EXT_TEXT_MAX];

		extensions_text(DPSCTP_CONFIG_EXTENSIONS, names, sizeof(names));
		seterr(err, errlen,
		       "--extensions 0x%x: bits 0x%x are not extensions this build implements "
		       "(DPSCTP_EXT_*: %s)",
		       c->extensions, c->extensions & ~(uint32_t)DPSCTP_CONFIG_EXTENSIONS, names);
		return -EINVAL;
	}
	if (c->out_streams > c->max_streams) {
		seterr(err, errlen, "--out-streams %u: above --max-streams %u", c->out_streams,
		       c->max_streams);
		return -EINVAL;
	}
	if (c->sched >= N_SCHED_NAMES) {
		seterr(err, errlen, "--sched %u: not a scheduler (DPSCTP_SCHED_*: %s)", c->sched,
		       SCHED_LIST);
		return -EINVAL;
	}
	if (c->n_ports > 0 && c->n_ips == 0) {
		seterr(err, errlen, "--port %s: needs at least one --ip ADDR/PREFIX", c->ports[0]);
		return -EINVAL;
	}
	for (unsigned i = 0; i < c->n_ips; i++)
		has6 |= c->ips[i].addr.family == 6;
	if (validate_ports(c, err, errlen) != 0)
		return -EINVAL;
	for (unsigned g = 0; g < 2; g++) {
		bool found = false;

		if (gws[g]->family == 0)
			continue;
		for (unsigned i = 0; i < c->n_ips && !found; i++)
			found = c->ips[i].port == 0 && on_link(&c->ips[i], gws[g]);
		if (!found) {
			addr_text(gws[g], text, sizeof(text));
			seterr(err, errlen, "--gw %s: not on-link for any --ip of its family%s",
			       text, c->n_ports > 1 ? " on port 0" : "");
			return -EINVAL;
		}
	}
	if (has6 && c->mtu < MTU_MIN_IPV6) {
		seterr(err, errlen, "--mtu %u: IPv6 needs at least %u (RFC 8200 §5)", c->mtu,
		       MTU_MIN_IPV6);
		return -EINVAL;
	}
	if (c->rcvbuf < c->mtu || c->sndbuf < c->mtu) {
		seterr(err, errlen, "--%s %u: below --mtu %u, no full-sized packet fits",
		       c->rcvbuf < c->mtu ? "rcvbuf" : "sndbuf",
		       c->rcvbuf < c->mtu ? c->rcvbuf : c->sndbuf, c->mtu);
		return -EINVAL;
	}
	return 0;
}

/* A byte count with the largest suffix that keeps it exact: 262144 -> "256k". */
static void
size_text(uint32_t v, char *buf, size_t len)
{
	if (v != 0 && v % (1u << 30) == 0)
		snprintf(buf, len, "%ug", v >> 30);
	else if (v != 0 && v % (1u << 20) == 0)
		snprintf(buf, len, "%um", v >> 20);
	else if (v != 0 && v % 1024u == 0)
		snprintf(buf, len, "%uk", v >> 10);
	else
		snprintf(buf, len, "%u", v);
}

/* The value of a single-valued option as the file syntax writes it. */
static void
format_value(const struct dpsctp_config *c, const struct opt *o, char *buf, size_t len)
{
	switch (o->kind) {
	case K_UINT:
		snprintf(buf, len, "%u", get_field(c, o));
		break;
	case K_SIZE:
		size_text(get_field(c, o), buf, len);
		break;
	case K_PF:
		if (c->pf_threshold == DPSCTP_CONFIG_PF_PROFILE)
			snprintf(buf, len, "profile");
		else if (c->pf_threshold == DPSCTP_CONFIG_PF_OFF)
			snprintf(buf, len, "off");
		else
			snprintf(buf, len, "%u", c->pf_threshold);
		break;
	case K_COPY_MAX:
		if (c->copy_max == DPSCTP_CONFIG_COPY_MAX_AUTO)
			snprintf(buf, len, "auto");
		else
			snprintf(buf, len, "%u", c->copy_max);
		break;
	case K_PROFILE:
		snprintf(buf, len, "%s", dpsctp_config_profile_name(c->profile));
		break;
	case K_ICMP_UNREACH:
		snprintf(buf, len, "%s", icmp_unreach_names[(unsigned)c->icmp_unreach % 3u]);
		break;
	case K_INIT_QUEUE:
		snprintf(buf, len, "%s", init_queue_names[(unsigned)c->init_queue % 3u]);
		break;
	case K_ONOFF:
		snprintf(buf, len, "%s",
			 *(const bool *)(const void *)((const char *)c + o->off) ? "on" : "off");
		break;
	case K_LOG:
		snprintf(buf, len, "%s", dpsctp_config_log_level_name(c->log_level));
		break;
	case K_EXTENSIONS:
		extensions_text(c->extensions, buf, len);
		break;
	case K_SCHED:
		snprintf(buf, len, "%s", c->sched < N_SCHED_NAMES ? sched_names[c->sched] : "?");
		break;
	case K_UDP_ENCAP:
	case K_NO_UDP_ENCAP:
		snprintf(buf, len, "%s", c->udp_encap ? "on" : "off");
		break;
	case K_TELEMETRY:
	case K_NO_TELEMETRY:
		snprintf(buf, len, "%s", c->telemetry ? "on" : "off");
		break;
	case K_MAC:
		if (c->has_mac)
			snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", c->mac[0], c->mac[1],
				 c->mac[2], c->mac[3], c->mac[4], c->mac[5]);
		else
			snprintf(buf, len, "the port's");
		break;
	case K_PORT:
	case K_IP:
	case K_GW:
	case K_ROUTE:
	case K_IMPAIR:
	case K_IMPAIR_RX:
	case K_CONFIG:
		/* Lists and strings are printed whole by print(); for usage, the default. */
		snprintf(buf, len, "none");
		break;
	}
}

int
dpsctp_config_print(const struct dpsctp_config *c, FILE *f)
{
	char text[ADDR_TEXT_MAX];
	char value[96];

	fprintf(f, "# dpsctp configuration (docs/CONFIG.md)\n");
	for (size_t k = 0; k < N_OPTIONS; k++) {
		const struct opt *o = &options[k];

		switch (o->kind) {
		case K_PORT:
			for (unsigned i = 0; i < c->n_ports; i++)
				fprintf(f, "port = %s\n", c->ports[i]);
			break;
		case K_IP:
			for (unsigned i = 0; i < c->n_ips; i++) {
				addr_text(&c->ips[i].addr, text, sizeof(text));
				if (c->ips[i].port != 0)
					fprintf(f, "ip = %s/%u,port=%u\n", text, c->ips[i].prefix,
						c->ips[i].port);
				else
					fprintf(f, "ip = %s/%u\n", text, c->ips[i].prefix);
			}
			break;
		case K_GW:
			for (unsigned port = 0; port < DPSCTP_CONFIG_MAX_PORTS; port++) {
				const struct sctp_addr *g[2] = {
					port == 0 ? &c->gw4 : &c->port_gw4[port - 1],
					port == 0 ? &c->gw6 : &c->port_gw6[port - 1],
				};
				for (unsigned j = 0; j < 2; j++) {
					if (g[j]->family == 0)
						continue;
					addr_text(g[j], text, sizeof(text));
					if (port != 0)
						fprintf(f, "gw = %s,port=%u\n", text, port);
					else
						fprintf(f, "gw = %s\n", text);
				}
			}
			break;
		case K_ROUTE:
			for (unsigned i = 0; i < c->n_routes; i++) {
				char via[ADDR_TEXT_MAX];
				addr_text(&c->routes[i].prefix, text, sizeof(text));
				addr_text(&c->routes[i].via, via, sizeof(via));
				fprintf(f, "route = %s/%u,via=%s\n", text, c->routes[i].len, via);
			}
			break;
		case K_MAC:
			if (c->has_mac) {
				format_value(c, o, value, sizeof(value));
				fprintf(f, "mac = %s\n", value);
			}
			break;
		case K_IMPAIR:
			if (c->impair[0] != '\0')
				fprintf(f, "impair = %s\n", c->impair);
			break;
		case K_IMPAIR_RX:
			if (c->impair_rx[0] != '\0')
				fprintf(f, "impair-rx = %s\n", c->impair_rx);
			break;
		case K_UDP_ENCAP:
			fprintf(f, "%s\n", c->udp_encap ? "udp-encap" : "no-udp-encap");
			break;
		case K_TELEMETRY:
			fprintf(f, "%s\n", c->telemetry ? "telemetry" : "no-telemetry");
			break;
		case K_NO_UDP_ENCAP:
		case K_NO_TELEMETRY:
		case K_CONFIG:
			break;
		case K_UINT:
		case K_SIZE:
		case K_COPY_MAX:
		case K_PF:
		case K_PROFILE:
		case K_ICMP_UNREACH:
		case K_INIT_QUEUE:
		case K_ONOFF:
		case K_LOG:
		case K_EXTENSIONS:
		case K_SCHED:
			format_value(c, o, value, sizeof(value));
			fprintf(f, "%s = %s\n", o->name, value);
			break;
		}
	}
	return ferror(f) ? -EIO : 0;
}

void
dpsctp_config_usage(FILE *f)
{
	struct dpsctp_config d;
	char value[96];
	char range[96];
	char arg[64];

	dpsctp_config_defaults(&d);
	fprintf(f, "dpsctp options (after \"--\"; also \"name = value\" lines in a --config "
		   "file):\n");
	for (size_t k = 0; k < N_OPTIONS; k++) {
		const struct opt *o = &options[k];

		if (o->arg == NULL)
			snprintf(arg, sizeof(arg), "--%s", o->name);
		else if (o->value == V_OPTIONAL)
			snprintf(arg, sizeof(arg), "--%s%s", o->name, o->arg);
		else
			snprintf(arg, sizeof(arg), "--%s %s", o->name, o->arg);
		fprintf(f, "  %-28s %s", arg, o->help);
		if (o->kind == K_UINT || o->kind == K_SIZE) {
			range_text(o, range, sizeof(range));
			format_value(&d, o, value, sizeof(value));
			fprintf(f, " (%s; default %s)\n", range, value);
		} else if (o->kind == K_COPY_MAX) {
			format_value(&d, o, value, sizeof(value));
			fprintf(f, " (auto or 0..%u; default %s)\n", o->max, value);
		} else if (o->kind == K_NO_UDP_ENCAP || o->kind == K_NO_TELEMETRY ||
			   o->kind == K_CONFIG) {
			fprintf(f, "\n");
		} else {
			format_value(&d, o, value, sizeof(value));
			fprintf(f, " (default %s)\n", value);
		}
	}
	fprintf(f, "  sizes take a k, m or g suffix (powers of 1024): --rcvbuf 4m\n");
}

const char *
dpsctp_config_profile_name(enum dpsctp_config_profile p)
{
	return (unsigned)p < 2u ? profile_names[p] : NULL;
}

const char *
dpsctp_config_sched_name(unsigned sched)
{
	return sched < N_SCHED_NAMES ? sched_names[sched] : NULL;
}

const char *
dpsctp_config_log_level_name(enum dpsctp_config_log_level l)
{
	return (unsigned)l < 4u ? log_names[l] : NULL;
}
