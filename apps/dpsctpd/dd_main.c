/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctpd: the sidecar daemon (issue 8, docs/SIDECAR.md). It owns the
 * port; applications attach over its Unix socket with libdpsctp-client and
 * talk to it through shared-memory rings (dd.h says who does what).
 *
 *   dpsctpd [EAL args] -- [-f FILE] [daemon options] [data-plane options]
 *
 * Options come from the file first, then the command line (which wins).
 * SIGTERM and SIGINT stop it in order: every application hears
 * DAEMON_STOPPING, associations are shut down (ABORTed after 2 s), the
 * applications' sockets close, the EAL is cleaned up.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_log.h>
#include <rte_mempool.h>

#include "apps/common/app_common.h"
#include "apps/dpsctpd/dd.h"
#include "dataplane/config.h"
#include "dataplane/sidecar/dpsctp_client.h" /* the default socket path */

static volatile sig_atomic_t dd_stop;

static void
dd_on_signal(int sig)
{
	(void)sig;
	dd_stop = 1;
}

/* The daemon's own options (the data plane's are dpsctp_config's). */
struct dd_opts {
	char socket[108];
	struct sc_server_limits srv;
	struct dd_limits lim;
	uint32_t idle_sleep_us;
	bool zero_copy;
	bool check;	   /* --check: validate the options, print them, exit */
	int loopback_peer; /* 0 none, 1 sink, 2 echo */
};

static const struct option dd_longopts[] = {
	{ "file", required_argument, NULL, 'f' },
	{ "socket", required_argument, NULL, 's' },
	{ "max-apps", required_argument, NULL, 'A' },
	{ "app-threads", required_argument, NULL, 'T' },
	{ "ring-slots", required_argument, NULL, 'R' },
	{ "arena-bytes", required_argument, NULL, 'B' },
	{ "app-assocs", required_argument, NULL, 'a' },
	{ "app-listens", required_argument, NULL, 'L' },
	{ "backlog", required_argument, NULL, 'b' },
	{ "idle-sleep-us", required_argument, NULL, 'i' },
	{ "max-pending", required_argument, NULL, 'p' },
	{ "hello-timeout-ms", required_argument, NULL, 'H' },
	{ "zero-copy", no_argument, NULL, 'Z' },
	{ "check", no_argument, NULL, 'C' },
	{ "loopback-peer", required_argument, NULL, 'P' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void
dd_usage(FILE *f)
{
	fprintf(f,
		"usage: dpsctpd [EAL args] -- [-f FILE] [options] [data-plane options]\n"
		"  -f, --file FILE       options as \"name = value\" lines (daemon and data "
		"plane);\n"
		"                        the command line overrides them\n"
		"  --socket PATH         the control socket (default %s)\n"
		"  --max-apps N          applications attached at once, 1..%u (default 16)\n"
		"  --app-threads N       threads (ring sets) per application, 1..%u (default 4)\n"
		"  --ring-slots N        slots per ring, a power of two %u..%u (default 1024)\n"
		"  --arena-bytes N       payload bytes per arena, a power of two (default 4m)\n"
		"  --app-assocs N        associations per application, accepted ones included\n"
		"                        (default: --max-assocs / --max-apps)\n"
		"  --app-listens N       listening ports per application (default: --listeners /\n"
		"                        --max-apps); neither may let one application take all\n"
		"                        while others can attach\n"
		"  --backlog N           events held per application thread when its rings are\n"
		"                        full (default 4096); beyond, the association is aborted\n"
		"  --max-pending N       connections that have not said hello yet, 1..%u\n"
		"                        (default %u); a newer one turns the oldest away\n"
		"  --hello-timeout-ms N  time a connection has to say hello, 1..%u (default %u)\n"
		"  --idle-sleep-us N     sleep N us when a loop found nothing to do (default 0:\n"
		"                        busy-poll, the lowest latency)\n"
		"  --zero-copy           packet buffers on a memfd that applications asking for\n"
		"                        zero copy map read-only (they see every packet: run it\n"
		"                        for applications that trust each other); --mbufs sizes "
		"it\n"
		"  --loopback-peer sink|echo\n"
		"                        no NIC: the port is a net_ring pair with a peer in this\n"
		"                        process at " DD_PEER_IP " port 5001 that drops or echoes\n"
		"                        every message (demo, benchmark; we are " DD_PEER_DAEMON_IP
		")\n"
		"  --check               check the options (file included) and print the data\n"
		"                        plane's, then exit: 0 valid, 2 not\n"
		"  -h, --help            this help\n"
		"Exit status: 0 stopped by a signal, 2 bad usage, 3 the data plane or the socket\n"
		"would not start.\n\nData-plane options:\n",
		DPSCTP_CLIENT_DEFAULT_SOCKET, SC_SERVER_MAX_APPS, SC_MAX_THREADS, SC_RING_SLOTS_MIN,
		SC_RING_SLOTS_MAX, SC_SERVER_MAX_PENDING, SC_SERVER_PENDING_DEFAULT,
		SC_SERVER_HELLO_MS_MAX, SC_SERVER_HELLO_MS_DEFAULT);
	dpsctp_config_usage(f);
}

/* A number with an optional k/m/g suffix (powers of 1024) in [lo, hi]. */
static int
dd_number(const char *name, const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 0);
	unsigned shift = 0;
	if (*end == 'k' || *end == 'K')
		shift = 10;
	else if (*end == 'm' || *end == 'M')
		shift = 20;
	else if (*end == 'g' || *end == 'G')
		shift = 30;
	if (shift != 0)
		end++;
	if (errno != 0 || end == v || *end != '\0' || v[0] == '-' || n > (hi >> shift) ||
	    (n << shift) < lo) {
		fprintf(stderr, "dpsctpd: --%s %s: want a number in %llu..%llu\n", name, v,
			(unsigned long long)lo, (unsigned long long)hi);
		return -EINVAL;
	}
	*out = (uint64_t)n << shift;
	return 0;
}

static bool
dd_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/* One daemon option by its short code. 0, -EINVAL (said why), -ENOENT not ours. */
static int
dd_apply(struct dd_opts *o, int code, const char *name, const char *v)
{
	uint64_t n;
	switch (code) {
	case 's':
		if (strlen(v) >= sizeof(o->socket)) {
			fprintf(stderr, "dpsctpd: --socket: at most %zu bytes\n",
				sizeof(o->socket) - 1);
			return -EINVAL;
		}
		snprintf(o->socket, sizeof(o->socket), "%s", v);
		return 0;
	case 'A':
		if (dd_number(name, v, 1, SC_SERVER_MAX_APPS, &n) != 0)
			return -EINVAL;
		o->srv.max_apps = (uint32_t)n;
		return 0;
	case 'T':
		if (dd_number(name, v, 1, SC_MAX_THREADS, &n) != 0)
			return -EINVAL;
		o->srv.max_threads = (uint32_t)n;
		return 0;
	case 'R':
		if (dd_number(name, v, SC_RING_SLOTS_MIN, SC_RING_SLOTS_MAX, &n) != 0)
			return -EINVAL;
		if (!dd_pow2(n)) {
			fprintf(stderr, "dpsctpd: --ring-slots %s: not a power of two\n", v);
			return -EINVAL;
		}
		o->srv.ring_slots = (uint32_t)n;
		return 0;
	case 'B':
		if (dd_number(name, v, SC_ARENA_BYTES_MIN, SC_ARENA_BYTES_MAX, &n) != 0)
			return -EINVAL;
		if (!dd_pow2(n)) {
			fprintf(stderr, "dpsctpd: --arena-bytes %s: not a power of two\n", v);
			return -EINVAL;
		}
		o->srv.arena_bytes = n;
		return 0;
	case 'a':
		if (dd_number(name, v, 1, 1u << 24, &n) != 0)
			return -EINVAL;
		o->lim.app_assocs = (uint32_t)n;
		return 0;
	case 'L':
		if (dd_number(name, v, 1, 1024, &n) != 0) /* the data plane's --listeners range */
			return -EINVAL;
		o->lim.app_listens = (uint32_t)n;
		return 0;
	case 'b':
		if (dd_number(name, v, 16, 1u << 20, &n) != 0)
			return -EINVAL;
		o->lim.backlog = (uint32_t)n;
		return 0;
	case 'P':
		if (strcmp(v, "sink") != 0 && strcmp(v, "echo") != 0) {
			fprintf(stderr, "dpsctpd: --loopback-peer %s: sink or echo\n", v);
			return -EINVAL;
		}
		o->loopback_peer = strcmp(v, "sink") == 0 ? 1 : 2;
		return 0;
	case 'p':
		if (dd_number(name, v, 1, SC_SERVER_MAX_PENDING, &n) != 0)
			return -EINVAL;
		o->srv.max_pending = (uint32_t)n;
		return 0;
	case 'H':
		if (dd_number(name, v, 1, SC_SERVER_HELLO_MS_MAX, &n) != 0)
			return -EINVAL;
		o->srv.hello_timeout_ms = (uint32_t)n;
		return 0;
	case 'i':
		if (dd_number(name, v, 0, 1000000, &n) != 0)
			return -EINVAL;
		o->idle_sleep_us = (uint32_t)n;
		return 0;
	default:
		return -ENOENT;
	}
}

static int
dd_code(const char *name)
{
	for (const struct option *p = dd_longopts; p->name != NULL; p++)
		if (strcmp(p->name, name) == 0 && p->has_arg == required_argument)
			return p->val;
	return 0;
}

static const char *
dd_name(int code)
{
	for (const struct option *p = dd_longopts; p->name != NULL; p++)
		if (p->val == code)
			return p->name;
	return "?";
}

static char *
dd_trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n > 0 &&
	       (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		s[--n] = '\0';
	return s;
}

/* The file: daemon options here, the rest to the data plane's configuration. */
static int
dd_file(struct dd_opts *o, struct dpsctp_config *cfg, const char *path)
{
	FILE *f = fopen(path, "r");
	if (f == NULL) {
		fprintf(stderr, "dpsctpd: %s: %s\n", path, strerror(errno));
		return -EIO;
	}
	char line[DPSCTP_CONFIG_LINE_MAX];
	unsigned no = 0;
	int rc = 0;
	while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
		no++;
		char *s = dd_trim(line);
		if (*s == '\0' || *s == '#')
			continue;
		char *eq = strchr(s, '=');
		char *v = NULL;
		if (eq != NULL) {
			*eq = '\0';
			v = dd_trim(eq + 1);
		}
		char *name = dd_trim(s);
		if (strcmp(name, "zero-copy") == 0 && v == NULL) {
			o->zero_copy = true;
			continue;
		}
		int code = dd_code(name);
		if (code != 0) {
			if (v == NULL) {
				fprintf(stderr, "dpsctpd: %s:%u: %s needs a value\n", path, no,
					name);
				rc = -EINVAL;
			} else if (dd_apply(o, code, name, v) != 0) {
				fprintf(stderr, "dpsctpd: %s:%u: see above\n", path, no);
				rc = -EINVAL;
			}
			continue;
		}
		char err[256];
		if (dpsctp_config_set(cfg, name, v, err, sizeof(err)) != 0) {
			fprintf(stderr, "dpsctpd: %s:%u: %s\n", path, no,
				err[0] != '\0' ? err : "unknown option");
			rc = -EINVAL;
		}
	}
	fclose(f);
	return rc;
}

/* Options: the file named by -f first, then the rest of the command line. */
static int
dd_options(int argc, char **argv, struct dd_opts *o, struct dpsctp_config *cfg)
{
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "-f") == 0 || strcmp(argv[i], "--file") == 0)
			if (dd_file(o, cfg, argv[i + 1]) != 0)
				return 2;
	char err[256];
	int left = dpsctp_config_parse_args(cfg, argc, argv, err, sizeof(err));
	if (left < 0) {
		fprintf(stderr, "dpsctpd: %s\n", err);
		return 2;
	}
	optind = 1;
	int c;
	while ((c = getopt_long(left, argv, "f:h", dd_longopts, NULL)) != -1) {
		if (c == 'f')
			continue; /* applied first */
		if (c == 'Z') {
			o->zero_copy = true;
			continue;
		}
		if (c == 'C') {
			o->check = true;
			continue;
		}
		if (c == 'h') {
			dd_usage(stdout);
			return 1;
		}
		int rc = c == '?' ? -ENOENT : dd_apply(o, c, dd_name(c), optarg);
		if (rc == -ENOENT)
			dd_usage(stderr);
		if (rc != 0)
			return 2; /* dd_apply() said why */
	}
	if (optind < left) {
		fprintf(stderr, "dpsctpd: unexpected argument \"%s\"\n", argv[optind]);
		return 2;
	}
	return 0;
}

/*
 * The per-application limits are the isolation boundary between
 * applications (docs/SIDECAR.md): by default each may hold an equal share
 * of the data plane's associations (--max-assocs, accepted ones included)
 * and listening ports (--listeners), and while more than one application
 * may attach, no limit may let one of them hold all of either: the others
 * would be refused with -ENOMEM until it lets go. 0, or -EINVAL said why.
 */
static int
dd_limits_check(struct dd_opts *o, const struct dpsctp_config *cfg)
{
	uint32_t apps = o->srv.max_apps;
	uint64_t assocs = (uint64_t)cfg->max_assocs * (cfg->queues > 1 ? cfg->queues : 1);
	uint32_t ports = cfg->listeners - (cfg->sctp_port != 0); /* --sctp-port has one */
	if (o->lim.app_assocs == 0)
		o->lim.app_assocs = assocs / apps > 0 ? (uint32_t)(assocs / apps) : 1;
	if (o->lim.app_listens == 0)
		o->lim.app_listens = ports / apps > 0 ? ports / apps : 1;
	if (apps == 1)
		return 0; /* nobody to leave room for */
	if (o->lim.app_assocs >= assocs) {
		fprintf(stderr,
			"dpsctpd: --app-assocs %u lets one application take all %llu associations "
			"of the data plane (--max-assocs) while %u may attach (--max-apps): "
			"give it fewer (default: %llu each)\n",
			o->lim.app_assocs, (unsigned long long)assocs, apps,
			(unsigned long long)(assocs / apps > 0 ? assocs / apps : 1));
		return -EINVAL;
	}
	if (o->lim.app_listens >= ports) {
		fprintf(stderr,
			"dpsctpd: --app-listens %u lets one application take all %u listening "
			"ports of the data plane (--listeners%s) while %u may attach (--max-apps): "
			"give it fewer, or raise --listeners\n",
			o->lim.app_listens, ports, cfg->sctp_port != 0 ? " less --sctp-port" : "",
			apps);
		return -EINVAL;
	}
	return 0;
}

static uint64_t
dd_generation(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 40);
}

/*
 * stdout and stderr must not stall the loop either (issue 16): a pipe or a
 * socket whose reader stopped reading makes a blocking write of one log
 * line stop the data plane. A pipe is reopened as a non-blocking
 * description of our own (the one we inherited, shared with whoever
 * started us, keeps its flags); a socket (systemd's journal stream) is
 * made non-blocking. A line that finds no room is dropped by stdio, whose
 * error flag the loop counts (log_lost). DPDK's own messages go to stdout,
 * not also to syslog(), whose send() to /dev/log blocks while the journal
 * is stalled. A terminal or a file is left as it is.
 */
static void
dd_stdio_nonblocking(void)
{
	for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
		struct stat st;
		if (fstat(fd, &st) != 0)
			continue;
		if (S_ISFIFO(st.st_mode)) {
			char proc[32];
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
			int nfd = open(proc, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
			if (nfd >= 0) {
				(void)dup2(nfd, fd);
				close(nfd);
			}
		} else if (S_ISSOCK(st.st_mode)) {
			int fl = fcntl(fd, F_GETFL);
			if (fl >= 0)
				(void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
		}
	}
	(void)rte_openlog_stream(stdout);
}

/*
 * The loop: data plane, applications, control socket; until a signal.
 * Nothing in it may wait for an application or a peer (docs/SIDECAR.md,
 * "What the loop thread may wait on").
 */
static void
dd_run(struct dd *d, uint32_t idle_sleep_us)
{
	uint64_t hz = rte_get_tsc_hz(), ctl_at = 0, tel_at = 0;
	uint64_t iterations = 0, longest = 0, prev = rte_get_tsc_cycles();
	dd_stdio_nonblocking();
	while (!dd_stop) {
		/* The heartbeat, read by the telemetry thread itself (not from the
		 * 100 ms copy): a loop stuck inside an iteration shows there as an
		 * age that grows. Two relaxed stores to a line only telemetry reads. */
		uint64_t now = rte_get_tsc_cycles();
		if (now - prev > longest) {
			longest = now - prev;
			atomic_store_explicit(&dd_loop.longest_tsc, longest, memory_order_relaxed);
		}
		prev = now;
		atomic_store_explicit(&dd_loop.last_tsc, now, memory_order_relaxed);
		atomic_store_explicit(&dd_loop.iterations, ++iterations, memory_order_relaxed);

		int polled = dpsctp_poll(d->dp, 0);
		unsigned work = polled > 0 ? (unsigned)polled : 0;
		if (d->peer != NULL && (polled = dpsctp_poll(d->peer, 0)) > 0)
			work += (unsigned)polled;
		for (unsigned i = 0; i < SC_SERVER_MAX_APPS; i++) {
			struct sc_app *sa = d->srv.apps[i];
			if (sa == NULL)
				continue;
			struct dd_app *app = sa->user;
			if (app == NULL || app->broken) {
				sc_server_drop(&d->srv, sa);
				continue;
			}
			work += dd_app_serve(d, app);
		}
		/* Callbacks inside dpsctp_poll() posted events too: wake whoever sleeps. */
		for (unsigned i = 0; i < SC_SERVER_MAX_APPS; i++)
			if (d->srv.apps[i] != NULL && d->srv.apps[i]->user != NULL)
				dd_app_wake(d->srv.apps[i]->user);
		if (now - ctl_at > hz / 1000) { /* attach and departure: every millisecond */
			ctl_at = now;
			if (sc_server_poll(&d->srv, 0) > 0) /* never waits (sc_server.h) */
				work++;
		}
		if (now - tel_at > hz / 10) {
			tel_at = now;
			if (ferror(stdout) || ferror(stderr)) { /* a line found no room */
				clearerr(stdout);
				clearerr(stderr);
				atomic_fetch_add_explicit(&dd_loop.log_lost, 1,
							  memory_order_relaxed);
			}
			dd_telemetry_refresh(d);
		}
		if (work == 0 && idle_sleep_us != 0)
			usleep(idle_sleep_us);
	}
}

/* Why the control socket cannot be ours; exit status 3. */
static int
dd_socket_error(const char *path, int rc)
{
	if (rc == -EADDRINUSE)
		fprintf(stderr,
			"dpsctpd: %s: another dpsctpd is serving this socket (it accepts "
			"connections): stop it first, or give this one another --socket\n",
			path);
	else if (rc == -EEXIST)
		fprintf(stderr, "dpsctpd: %s: exists and is not a socket: not replaced\n", path);
	else
		fprintf(stderr, "dpsctpd: %s: %s\n", path, strerror(-rc));
	return 3;
}

int
main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (app_help_wanted(argc, argv)) { /* before the EAL, which may not start */
		dd_usage(stdout);
		return 0;
	}
	int n = dpsctp_eal_init(argc, argv);
	if (n < 0) {
		fprintf(stderr, "dpsctpd: the EAL did not start (see its messages above)\n");
		return 3;
	}
	argc -= n;
	argv += n;
	struct dpsctp_config cfg;
	dpsctp_config_defaults(&cfg);
	struct dd_opts o;
	memset(&o, 0, sizeof(o));
	const char *env = getenv("DPSCTPD_SOCKET");
	snprintf(o.socket, sizeof(o.socket), "%s",
		 env != NULL ? env : DPSCTP_CLIENT_DEFAULT_SOCKET);
	o.srv = (struct sc_server_limits){
		16, 4, 1024, 4u << 20, SC_SERVER_PENDING_DEFAULT, SC_SERVER_HELLO_MS_DEFAULT
	};
	o.lim = (struct dd_limits){ 0, 0, 4096 }; /* 0: a share (dd_limits_check()) */
	int st = dd_options(argc, argv, &o, &cfg);
	if (st != 0)
		return st == 1 ? 0 : st;
	if (dd_limits_check(&o, &cfg) != 0)
		return 2;

	static struct dd d;
	char err[256];
	if (o.check) {
		if (dpsctp_config_validate(&cfg, err, sizeof(err)) != 0) {
			fprintf(stderr, "dpsctpd: %s\n", err);
			return 2;
		}
		dpsctp_config_print(&cfg, stdout);
		printf("# dpsctpd: socket %s, %u applications x %u threads, rings of %u, arenas of "
		       "%llu bytes, %u associations and %u ports each, backlog %u, %u pending "
		       "hellos of %u ms at most%s\n",
		       o.socket, o.srv.max_apps, o.srv.max_threads, o.srv.ring_slots,
		       (unsigned long long)o.srv.arena_bytes, o.lim.app_assocs, o.lim.app_listens,
		       o.lim.backlog, o.srv.max_pending, o.srv.hello_timeout_ms,
		       o.zero_copy ? ", zero copy" : "");
		return 0;
	}
	/* Before the port: a second daemon must not touch the first's port,
	 * nor take its socket (a stale one is replaced by sc_server_open()). */
	int in_use = sc_server_probe(o.socket);
	if (in_use != 0)
		return dd_socket_error(o.socket, in_use);
	d.lim = o.lim;
	if (cfg.queues == 0)
		cfg.queues = 1; /* one worker: docs/SIDECAR.md */
	if (o.loopback_peer != 0) {
		void *hold = app_hold_half(); /* the daemon's instance gets the rest */
		d.peer = dd_peer_create(&cfg, o.loopback_peer == 2);
		app_release(hold);
		if (d.peer == NULL)
			return 3;
	}
	int zc_fd = -1;
	struct rte_mempool *zc_pool = NULL;
	if (o.zero_copy) {
		uint8_t *zc_base;
		if (dd_zc_pool(&cfg, &zc_fd, &zc_base, &d.zc_bytes, &zc_pool) != 0)
			return 3;
		d.zc_base = zc_base;
		d.dp = dpsctp_create_with_pool(&cfg, zc_pool, err, sizeof(err));
	} else {
		d.dp = dpsctp_create(&cfg, err, sizeof(err));
	}
	if (d.dp == NULL) {
		fprintf(stderr, "dpsctpd: %s\n", err);
		return 3;
	}
	if (dpsctp_workers(d.dp) != 1) {
		fprintf(stderr, "dpsctpd: one worker (--queues 1) for now; docs/SIDECAR.md\n");
		dpsctp_destroy(d.dp);
		return 2;
	}
	(void)dpsctp_rx_flow_control(d.dp, 1);
	d.n_assocs = o.lim.app_assocs * o.srv.max_apps;
	if (d.n_assocs > 1u << 20)
		d.n_assocs = 1u << 20;
	d.assocs = calloc(d.n_assocs, sizeof(*d.assocs));
	d.n_listeners = cfg.listeners;
	d.listeners = calloc(d.n_listeners, sizeof(*d.listeners));
	if (d.assocs == NULL || d.listeners == NULL) {
		fprintf(stderr, "dpsctpd: no memory for %u association handles\n", d.n_assocs);
		return 3;
	}
	for (uint32_t i = 0; i < d.n_listeners; i++)
		d.listeners[i].tag = DD_TAG_LISTENER; /* free slots too (dd.h) */
	for (uint32_t i = 0; i < d.n_assocs; i++)
		d.assocs[i].gen = 1;
	dd_app_init(&d);
	int rc = sc_server_open(&d.srv, o.socket, &o.srv, dd_generation());
	if (rc != 0) {
		dpsctp_destroy(d.dp);
		return dd_socket_error(o.socket, rc);
	}
	d.srv.on_attach = dd_on_attach;
	d.srv.on_detach = dd_on_detach;
	d.srv.arg = &d;
	d.srv.zc_fd = zc_fd;
	d.srv.zc_bytes = d.zc_bytes;
	dd_telemetry_register(&d);
	signal(SIGINT, dd_on_signal);
	signal(SIGTERM, dd_on_signal);
	signal(SIGPIPE, SIG_IGN);
	printf("dpsctpd: serving %s (up to %u applications, %s)\n", o.socket, o.srv.max_apps,
	       o.zero_copy ? "zero copy on request" : "one copy");

	dd_run(&d, o.idle_sleep_us);

	printf("dpsctpd: stopping\n");
	dd_app_say_stopping(&d);
	if (d.peer != NULL)
		(void)dpsctp_stop(d.peer, 0); /* its ABORTs end ours at once */
	int aborted = dpsctp_stop(d.dp, 2000);
	sc_server_close(&d.srv, o.socket);
	dpsctp_destroy(d.dp);
	if (d.peer != NULL) {
		uint64_t m, b, dropped;
		dd_peer_stats(&m, &b, &dropped);
		printf("dpsctpd: the loopback peer received %llu messages, %llu bytes; %llu echoes "
		       "dropped\n",
		       (unsigned long long)m, (unsigned long long)b, (unsigned long long)dropped);
		dd_peer_destroy(d.peer);
	}
	rte_mempool_free(zc_pool); /* after the port: it held the pool's mbufs */
	free(d.assocs);
	free(d.listeners);
	rte_eal_cleanup();
	printf("dpsctpd: stopped (%d associations aborted at the end)\n", aborted);
	return 0;
}
