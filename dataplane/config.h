/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The data plane's configuration: what an app passes to dpsctp_create()
 * (<dpsctp/dpsctp.h>; installed beside it as <dpsctp/config.h>), filled from defaults, a
 * configuration file and the application part of the command line (every app takes
 * "[EAL args] -- [app args]"; rte_eal_init() consumes the EAL part, this
 * module the rest). docs/CONFIG.md lists every option with its default and
 * range, the file syntax and the precedence rules.
 *
 * Pure C11 and libc (inet_pton, stdio for files): no DPDK, no allocation.
 * Everything lives in struct dpsctp_config, about 2.5 KB of fixed arrays,
 * so a configuration is copied with "=" and compared field by field. A
 * program starts from dpsctp_config_defaults() and changes it with the
 * parsers or dpsctp_config_set() (which check every value); it may read
 * every documented field and write them directly, and then
 * dpsctp_config_validate() (or dpsctp_create(), which calls it) checks
 * the ranges. Every field is a setting: the parsers keep their own
 * bookkeeping (which source built a list) for the length of one call.
 *
 * Sources and precedence. Options apply in the order they are read; a later
 * value of a single-valued option replaces an earlier one. "config FILE"
 * applies the file where it appears, so command-line options after it
 * override the file and options before it are overridden by it. The three
 * lists (port, ip, route) are per source: the first entry a source gives (the
 * command line, or one file) replaces the list the sources before it built;
 * further entries of the same source append. Calls to dpsctp_config_set()
 * outside a parse always append.
 *
 * Errors are returned, never asserted: every function that reads text
 * returns 0 or a negative errno and writes a one-line message naming the
 * option, the value and what is allowed into the caller's err buffer
 * (truncated to errlen, always NUL-terminated when errlen > 0; err may be
 * NULL).
 */
#ifndef DPSCTP_DATAPLANE_CONFIG_H
#define DPSCTP_DATAPLANE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The same directory in the source tree and installed (include/dpsctp/). */
#include "dpsctp.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DPSCTP_CONFIG_MAX_PORTS	    4u	       /**< --port, repeatable: ports of one instance */
#define DPSCTP_CONFIG_MAX_IPS	    8u	       /**< --ip, repeatable (multi-homing), all ports */
#define DPSCTP_CONFIG_MAX_ROUTES    16u	       /**< --route, repeatable */
#define DPSCTP_CONFIG_DEVARGS_LEN   256u       /**< bytes of one --port string, NUL included */
#define DPSCTP_CONFIG_IMPAIR_LEN    256u       /**< bytes of an --impair(-rx) spec, NUL included */
#define DPSCTP_CONFIG_LINE_MAX	    1024u      /**< bytes of one configuration file line */
#define DPSCTP_CONFIG_DEPTH_MAX	    4u	       /**< files a file may include, nested */
#define DPSCTP_CONFIG_UDP_PORT	    9899u      /**< RFC 6951 §5: the IANA port for SCTP over UDP */
#define DPSCTP_CONFIG_COPY_MAX_AUTO UINT32_MAX /**< --copy-max auto: the library's threshold */
#define DPSCTP_CONFIG_PF_PROFILE    UINT32_MAX /**< --pf-threshold profile: the profile's */
#define DPSCTP_CONFIG_PF_OFF	    (UINT32_MAX - 1u) /**< --pf-threshold off: no PF state */
/** --extensions: the DPSCTP_EXT_* bits this build implements (the others are refused). */
#define DPSCTP_CONFIG_EXTENSIONS (DPSCTP_EXT_PR_SCTP | DPSCTP_EXT_I_DATA | DPSCTP_EXT_RECONFIG)

/** --profile: the RFC 9260 defaults or the data-center set (docs/PROFILES.md). */
enum dpsctp_config_profile {
	DPSCTP_CONFIG_PROFILE_DC = 0,
	DPSCTP_CONFIG_PROFILE_RFC,
};

/** --icmp-unreach: what ICMP protocol unreachable does to an established
 * association (docs/CONFIG.md). */
enum dpsctp_config_icmp_unreach {
	DPSCTP_CONFIG_ICMP_UNREACH_PROFILE = 0, /**< the profile's choice */
	DPSCTP_CONFIG_ICMP_UNREACH_ABORT,
	DPSCTP_CONFIG_ICMP_UNREACH_IGNORE,
};

/** --init-queue: where INITs (verification tag 0) are received (docs/PORTS.md
 * "A queue for handshakes"). */
enum dpsctp_config_init_queue {
	DPSCTP_CONFIG_INIT_QUEUE_OFF = 0,  /**< with the associations' packets */
	DPSCTP_CONFIG_INIT_QUEUE_FLOW,	   /**< an rx queue of their own, steered by rte_flow */
	DPSCTP_CONFIG_INIT_QUEUE_EXTERNAL, /**< an rx queue of their own, steered outside us */
};

/** --log-level, most severe first. */
enum dpsctp_config_log_level {
	DPSCTP_CONFIG_LOG_ERROR = 0,
	DPSCTP_CONFIG_LOG_WARNING,
	DPSCTP_CONFIG_LOG_INFO,
	DPSCTP_CONFIG_LOG_DEBUG,
};

/** A local address with its on-link prefix length (--ip ADDR/PREFIX[,port=N]). */
struct dpsctp_config_ip {
	struct sctp_addr addr;
	uint8_t prefix; /**< 0..32 (IPv4), 0..128 (IPv6) */
	uint8_t port;	/**< the --port (0-based, in the order given) it is on; default 0 */
};

/** A route (--route PREFIX/LEN,via=ADDR): its port is the one @p via is on-link for. */
struct dpsctp_config_route {
	struct sctp_addr prefix; /**< the destination network, host bits zero */
	uint8_t len;		 /**< 0..32 (IPv4), 0..128 (IPv6) */
	struct sctp_addr via;	 /**< the gateway, same family */
};

/**
 * A configuration: one field per option (docs/CONFIG.md names each with its
 * default and range). Fill it with dpsctp_config_defaults() first.
 */
struct dpsctp_config {
	/** --port DEVARGS: "net_ring0", "net_tap0,iface=dp0", a PCI address. */
	unsigned n_ports;
	char ports[DPSCTP_CONFIG_MAX_PORTS][DPSCTP_CONFIG_DEVARGS_LEN];
	/** --ip ADDR/PREFIX, in the order given; distinct addresses. */
	unsigned n_ips;
	struct dpsctp_config_ip ips[DPSCTP_CONFIG_MAX_IPS];
	/** --gw ADDR: port 0's default gateways, at most one per family; family 0 = none. */
	struct sctp_addr gw4, gw6;
	/** --gw ADDR,port=N: port N's (N >= 1) are port_gw4[N - 1], port_gw6[N - 1]. */
	struct sctp_addr port_gw4[DPSCTP_CONFIG_MAX_PORTS - 1],
		port_gw6[DPSCTP_CONFIG_MAX_PORTS - 1];
	/** --route PREFIX/LEN,via=ADDR, in the order given; distinct prefixes. */
	unsigned n_routes;
	struct dpsctp_config_route routes[DPSCTP_CONFIG_MAX_ROUTES];
	/** --mac: replaces the port's own address when has_mac. */
	bool has_mac;
	uint8_t mac[6];

	uint16_t sctp_port;		    /**< --sctp-port, 0 = none (the app sets it) */
	enum dpsctp_config_profile profile; /**< --profile, default dc */
	enum dpsctp_config_icmp_unreach icmp_unreach; /**< --icmp-unreach, default profile */
	bool udp_encap;				      /**< --udp-encap: SCTP over UDP, RFC 6951 */
	uint16_t udp_port;			      /**< --udp-port / --udp-encap=PORT, 9899 */
	uint16_t queues;			      /**< --queues, 0 = one */
	uint16_t mtu;				      /**< --mtu, 1500 */
	uint32_t max_assocs;			      /**< --max-assocs, per lcore, 1024 */
	uint32_t max_handshakes;		      /**< --max-handshakes, per lcore, 256 */
	uint32_t busy_init_rate; /**< --busy-init-rate: INITs/s a worker answers while its
				    receive queue is backed up, 10000; 0: every INIT */
	uint32_t hb_rate;	 /**< --hb-rate: idle-path HEARTBEATs/s a worker sends, 20000; 0: no
				    limit */
	enum dpsctp_config_init_queue init_queue; /**< --init-queue, default off */
	uint32_t max_streams;			  /**< --max-streams, 64 */
	uint32_t out_streams;	/**< --out-streams asked for at the start, 0 = --max-streams */
	uint32_t stream_mem;	/**< --stream-mem bytes per lcore, 64 MiB */
	uint32_t max_paths;	/**< --max-paths, per association, 4 */
	uint32_t neighbours;	/**< --neighbours per lcore, 0 = derived */
	uint32_t active_assocs; /**< --active-assocs per lcore, 0 = min(--max-assocs, 4096) */
	uint32_t multihomed;	/**< --multihomed per lcore, 0 = --max-assocs */
	uint32_t listeners;	/**< --listeners, ports per instance, 64 */
	uint32_t rcvbuf;	/**< --rcvbuf bytes per association, 256 KiB */
	uint32_t sndbuf;	/**< --sndbuf bytes per association, 256 KiB */
	uint32_t mbufs;		/**< --mbufs pool size, 0 = computed */
	uint32_t copy_max;	/**< --copy-max bytes, or _COPY_MAX_AUTO */
	char impair[DPSCTP_CONFIG_IMPAIR_LEN];	  /**< --impair spec, "" = none */
	char impair_rx[DPSCTP_CONFIG_IMPAIR_LEN]; /**< --impair-rx spec, "" = none */
	bool telemetry;				  /**< --telemetry / --no-telemetry, on */
	bool stage_cycles; /**< --stage-cycles on|off, off: cycles per stage of a poll */

	bool frto; /**< --frto on|off, on: F-RTO after a T3-rtx expiry (docs/CC.md) */

	/* Path MTU discovery (docs/PMTU.md). */
	bool pmtud;	     /**< --pmtud on|off, on: ICMP lowers a path's MTU */
	bool plpmtud;	     /**< --plpmtud on|off, off: RFC 8899 probing */
	uint32_t pmtu_raise; /**< --pmtu-raise SECONDS, 600: PLPMTUD's PMTU_RAISE_TIMER */

	/** --extensions, DPSCTP_EXT_*; default all three: DPSCTP_EXT_PR_SCTP | DPSCTP_EXT_I_DATA |
	 * DPSCTP_EXT_RECONFIG */
	uint32_t extensions;
	uint32_t sched; /**< --sched, every association's stream scheduler, DPSCTP_SCHED_RR */
	enum dpsctp_config_log_level log_level; /**< --log-level, info */
	/* The per-association options' instance defaults over the profile's (docs/OPTIONS.md). */
	/** --pf-threshold: 0..65534, DPSCTP_CONFIG_PF_OFF or DPSCTP_CONFIG_PF_PROFILE (default) */
	uint32_t pf_threshold;
	uint32_t rto_initial_us;      /**< --rto-initial, 0 = the profile's */
	uint32_t rto_min_us;	      /**< --rto-min, 0 = the profile's */
	uint32_t rto_max_us;	      /**< --rto-max, 0 = the profile's */
	uint32_t assoc_max_retrans;   /**< --assoc-max-retrans, 0 = the profile's */
	uint32_t path_max_retrans;    /**< --path-max-retrans, 0 = the profile's */
	uint32_t hb_interval_us;      /**< --hb-interval, 0 = the profile's */
	uint32_t sack_delay_us;	      /**< --sack-delay, 0 = the profile's */
	uint32_t sack_freq;	      /**< --sack-freq, 0 = the profile's */
	uint32_t max_burst;	      /**< --max-burst, 0 = the profile's */
	uint32_t maxseg;	      /**< --maxseg, 0 = the path MTU's */
	uint32_t max_init_retrans;    /**< --max-init-retrans, 0 = the profile's */
	uint32_t max_init_timeout_us; /**< --max-init-timeout, 0 = the profile's */
	uint32_t cookie_life_ms;      /**< --cookie-life, 0 = the profile's */
};

/**
 * Fill a configuration with the defaults listed in docs/CONFIG.md (no
 * port, no address): the start of every configuration.
 *
 * @param c  the configuration.
 */
DPSCTP_EXPORT void dpsctp_config_defaults(struct dpsctp_config *c);

/**
 * Apply one option by its long name without the dashes ("ip", "max-assocs").
 * @p c is unchanged on error except for "config", which leaves the lines
 * before the bad one applied.
 *
 * @param c       the configuration.
 * @param name    the option's name.
 * @param value   its value; NULL for a flag ("telemetry") or an option given
 *                without one.
 * @param err     room for a one-line message on error; may be NULL.
 * @param errlen  bytes at @p err.
 * @return 0; -ENOENT for a name this module does not know (nothing is
 *         written to err: the caller may know it); -EINVAL for a bad or
 *         missing value, a flag given a value, a full list, with a message;
 *         for "config", what dpsctp_config_parse_file() returns (never
 *         -ENOENT).
 */
DPSCTP_EXPORT int dpsctp_config_set(struct dpsctp_config *c, const char *name, const char *value,
				    char *err, size_t errlen);

/**
 * Parse the application part of a command line: argv[1 .. argc-1] (argv[0]
 * is the program name, as after rte_eal_init()). Options this module knows,
 * as "--name value" or "--name=value" (flags and the optional value of
 * --udp-encap only as "--name" / "--name=value"), are applied in order and
 * removed; everything else (other options with their values, positional
 * words, and "--" with everything after it, which is never looked at) is
 * moved to argv[1 ..] in its original order, so the app parses its own
 * options (getopt or a loop) from the same argv afterwards. A value that
 * starts with "--" counts as missing: write "--name=--x" for such a value.
 *
 * @param c       the configuration.
 * @param argc    entries of @p argv.
 * @param argv    the arguments; reordered as above.
 * @param err     room for a one-line message on error; may be NULL.
 * @param errlen  bytes at @p err.
 * @return the new argc (1 or more when argc >= 1; argv[new argc] is set to
 *         NULL when new argc < argc), or -EINVAL (a bad option) or -EIO (a
 *         config file that cannot be read) with a message; on error @p c
 *         holds the options before the bad one and the order of argv[1 ..]
 *         is unspecified (the app reports the message and exits).
 */
DPSCTP_EXPORT int dpsctp_config_parse_args(struct dpsctp_config *c, int argc, char **argv,
					   char *err, size_t errlen);

/**
 * Apply a configuration file: one option per line, "name = value" or
 * "name" (a flag), names as on the command line without the dashes; blank
 * lines and comments ("#" as the first non-blank character, or after a
 * blank) are ignored; lines are at most DPSCTP_CONFIG_LINE_MAX - 1 bytes.
 * "config = FILE" includes another file, at most DPSCTP_CONFIG_DEPTH_MAX
 * deep; a relative include path is taken from the including file's
 * directory. The lines before a bad one stay applied.
 *
 * @param c       the configuration.
 * @param path    the file.
 * @param err     room for a one-line message on error; may be NULL.
 * @param errlen  bytes at @p err.
 * @return 0; -EIO when a file cannot be opened or read (the message has
 *         strerror), or -EINVAL for an unknown name, a bad value, a too long
 *         line or too deep an include, with a message "FILE:LINE: ..."
 *         ("A:3: B:5: ..." for a line of B included from line 3 of A).
 */
DPSCTP_EXPORT int dpsctp_config_parse_file(struct dpsctp_config *c, const char *path, char *err,
					   size_t errlen);

/**
 * Cross checks a single option cannot make: a port needs at least one --ip;
 * an --ip or --gw names a port that exists (port=N below n_ports); the
 * connected prefixes of two ports do not overlap; a gateway is on-link for
 * an --ip of its own port; a --route's gateway is on-link for an --ip of
 * some port (which the route then leaves by) and its prefix has no host
 * bits set;
 * extensions holds only DPSCTP_CONFIG_EXTENSIONS bits; sched is a
 * DPSCTP_SCHED_* value;
 * a gateway must be on-link for a local address of its family (inside
 * its prefix); an IPv6 address needs --mtu >= 1280 (RFC 8200 §5); the send
 * and receive buffers hold at least one full-sized packet (>= --mtu).
 * Also every number against its option's range, for a structure a
 * program filled in itself. dpsctp_create() makes the same checks.
 *
 * @param c       the configuration.
 * @param err     room for a one-line message on error; may be NULL.
 * @param errlen  bytes at @p err.
 * @return 0, or -EINVAL with a message.
 */
DPSCTP_EXPORT int dpsctp_config_validate(const struct dpsctp_config *c, char *err, size_t errlen);

/**
 * Write a configuration in the file syntax, every option, so that
 * dpsctp_config_parse_file() of the output onto dpsctp_config_defaults()
 * gives it back (lists and all).
 *
 * @param c  the configuration.
 * @param f  where to write.
 * @return 0, or -EIO when writing to @p f failed.
 */
DPSCTP_EXPORT int dpsctp_config_print(const struct dpsctp_config *c, FILE *f);

/**
 * Help text: every option, its argument, default and range; one per line.
 *
 * @param f  where to write.
 */
DPSCTP_EXPORT void dpsctp_config_usage(FILE *f);

/**
 * The name of a profile, as --profile takes it.
 *
 * @param p  the profile.
 * @return "dc" or "rfc"; NULL when out of range.
 */
DPSCTP_EXPORT const char *dpsctp_config_profile_name(enum dpsctp_config_profile p);

/**
 * The name of a stream scheduler, as --sched takes it.
 *
 * @param sched  DPSCTP_SCHED_RR .. DPSCTP_SCHED_WFQ.
 * @return "rr", "fcfs", "rr_pkt", "prio", "fc" or "wfq"; NULL when out of
 *         range.
 */
DPSCTP_EXPORT const char *dpsctp_config_sched_name(unsigned sched);

/**
 * The name of a log level, as --log-level takes it.
 *
 * @param l  the level.
 * @return "error", "warning", "info" or "debug"; NULL when out of range.
 */
DPSCTP_EXPORT const char *dpsctp_config_log_level_name(enum dpsctp_config_log_level l);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_DATAPLANE_CONFIG_H */
