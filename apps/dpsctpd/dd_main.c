/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctpd: the sidecar daemon (docs/SIDECAR.md). It owns the
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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_pause.h>
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
	struct dd_access_opts access; /* into srv.access (dd_access.c) */
	struct dd_limits lim;
	uint32_t idle_sleep_us;
	bool zero_copy;
	bool check;	   /* --check: validate the options, print them, exit */
	int loopback_peer; /* 0 none, 1 sink, 2 echo (dd_peer_kinds) */
	const char *file;  /* -f: applied before the rest of the command line */
};

static const char *const dd_peer_kinds[] = { "sink", "echo", NULL };

#define DO(m) APP_OPT_FIELD(struct dd_opts, m)

/* The daemon's options, on the command line and in the file (but -f, --check, -h). */
static const struct app_opt dd_opt_table[] = {
	{ .kind = APP_OPT_STRING,
	  .name = "file",
	  .short_name = 'f',
	  DO(file),
	  .arg = "FILE",
	  .help = "options as \"name = value\" lines (daemon and data plane); the command line "
		  "overrides them",
	  .flags = APP_OPT_CLI },
	{ .kind = APP_OPT_BUF,
	  .name = "socket",
	  DO(socket),
	  .arg = "PATH",
	  .help = "the control socket",
	  .dflt = "$DPSCTPD_SOCKET, else " DPSCTP_CLIENT_DEFAULT_SOCKET },
	{ .kind = APP_OPT_BUF,
	  .name = "socket-mode",
	  DO(access.mode),
	  .arg = "OCTAL",
	  .help = "the control socket's permission bits (connecting needs write)",
	  .dflt = "0660" },
	{ .kind = APP_OPT_BUF,
	  .name = "socket-group",
	  DO(access.group),
	  .arg = "GROUP",
	  .help = "the control socket's group, by name or number",
	  .dflt = "the daemon's" },
	{ .kind = APP_OPT_BUF,
	  .name = "allow-uid",
	  DO(access.uids),
	  .arg = "LIST",
	  .help = "users (names or numbers, comma-separated) that may attach: given this "
		  "or --allow-gid, a process neither names is refused EACCES (root and the "
		  "daemon's user always may)",
	  .dflt = "anyone the socket lets in" },
	{ .kind = APP_OPT_BUF,
	  .name = "allow-gid",
	  DO(access.gids),
	  .arg = "LIST",
	  .help = "groups (the connecting process's primary group) that may attach",
	  .dflt = "anyone the socket lets in" },
	{ .kind = APP_OPT_SIZE,
	  .name = "max-apps",
	  DO(srv.max_apps),
	  .arg = "N",
	  .help = "applications attached at once",
	  .min = 1,
	  .max = SC_SERVER_MAX_APPS },
	{ .kind = APP_OPT_SIZE,
	  .name = "app-threads",
	  DO(srv.max_threads),
	  .arg = "N",
	  .help = "threads (ring sets) per application",
	  .min = 1,
	  .max = SC_MAX_THREADS },
	{ .kind = APP_OPT_SIZE,
	  .name = "ring-slots",
	  DO(srv.ring_slots),
	  .arg = "N",
	  .help = "slots per ring",
	  .min = SC_RING_SLOTS_MIN,
	  .max = SC_RING_SLOTS_MAX,
	  .flags = APP_OPT_POW2 },
	{ .kind = APP_OPT_SIZE,
	  .name = "arena-bytes",
	  DO(srv.arena_bytes),
	  .arg = "N",
	  .help = "payload bytes per arena",
	  .min = SC_ARENA_BYTES_MIN,
	  .max = SC_ARENA_BYTES_MAX,
	  .flags = APP_OPT_POW2 },
	{ .kind = APP_OPT_SIZE,
	  .name = "app-assocs",
	  DO(lim.app_assocs),
	  .arg = "N",
	  .help = "associations per application, accepted ones included",
	  .min = 1,
	  .max = 1u << 24,
	  .dflt = "--max-assocs / --max-apps" },
	{ .kind = APP_OPT_SIZE,
	  .name = "app-listens",
	  DO(lim.app_listens),
	  .arg = "N",
	  .help = "listening ports per application; neither limit may let one application "
		  "take all while others can attach",
	  .min = 1,
	  .max = 1024, /* the data plane's --listeners range */
	  .dflt = "--listeners / --max-apps" },
	{ .kind = APP_OPT_SIZE,
	  .name = "backlog",
	  DO(lim.backlog),
	  .arg = "N",
	  .help = "events held per application thread when its rings are full; beyond, the "
		  "association is aborted",
	  .min = 16,
	  .max = 1u << 20 },
	{ .kind = APP_OPT_SIZE,
	  .name = "max-pending",
	  DO(srv.max_pending),
	  .arg = "N",
	  .help = "connections that have not said hello yet; a newer one turns the oldest "
		  "away",
	  .min = 1,
	  .max = SC_SERVER_MAX_PENDING },
	{ .kind = APP_OPT_SIZE,
	  .name = "hello-timeout-ms",
	  DO(srv.hello_timeout_ms),
	  .arg = "N",
	  .help = "time a connection has to say hello",
	  .min = 1,
	  .max = SC_SERVER_HELLO_MS_MAX },
	{ .kind = APP_OPT_SIZE,
	  .name = "idle-sleep-us",
	  DO(idle_sleep_us),
	  .arg = "N",
	  .help = "sleep N us when a loop found nothing to do (0: busy-poll, the lowest "
		  "latency)",
	  .max = 1000000 },
	{ .kind = APP_OPT_FLAG,
	  .name = "zero-copy",
	  DO(zero_copy),
	  .help = "packet buffers on a memfd that applications asking for zero copy map "
		  "read-only (they see every packet: run it for applications that trust each "
		  "other); --mbufs sizes it" },
	{ .kind = APP_OPT_CHOICE,
	  .name = "loopback-peer",
	  DO(loopback_peer),
	  .arg = "KIND",
	  .help = "no NIC: the port is a net_ring pair with a peer in this process at " DD_PEER_IP
		  " port 5001 that drops (sink) or echoes every message (demo, benchmark; we "
		  "are " DD_PEER_DAEMON_IP ")",
	  .choices = dd_peer_kinds },
	{ .kind = APP_OPT_FLAG,
	  .name = "check",
	  DO(check),
	  .help = "check the options (file included) and print the data plane's, then exit: 0 "
		  "valid, 2 not",
	  .flags = APP_OPT_CLI },
	{ .kind = APP_OPT_HELP, .name = "help", .short_name = 'h', .help = "this help" },
	{ 0 },
};

/* Before the file and the command line; the socket is DPSCTPD_SOCKET's when set. */
static const struct dd_opts dd_opt_defaults = {
	.srv = { .max_apps = 16,
		 .max_threads = 4,
		 .ring_slots = 1024,
		 .arena_bytes = 4u << 20,
		 .max_pending = SC_SERVER_PENDING_DEFAULT,
		 .hello_timeout_ms = SC_SERVER_HELLO_MS_DEFAULT },
	.lim = { 0, 0, 4096 }, /* 0: a share (dd_limits_check()) */
};

static void
dd_usage(FILE *f)
{
	fprintf(f, "usage: dpsctpd [EAL args] -- [-f FILE] [options] [data-plane options]\n");
	app_opts_usage(f, dd_opt_table, &dd_opt_defaults);
	fprintf(f, "Numbers take a k, m or g suffix (powers of 1024): --arena-bytes 4m.\n"
		   "Exit status: 0 stopped by a signal, 2 bad usage, 3 the data plane or the "
		   "socket\nwould not start.\n\nData-plane options:\n");
	dpsctp_config_usage(f);
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
		char err[256];
		int ours = app_opts_set(dd_opt_table, o, name, v, err, sizeof(err));
		if (ours != -ENOENT) { /* the daemon's: taken, or refused with a reason */
			if (ours != 0) {
				fprintf(stderr, "dpsctpd: %s:%u: %s\n", path, no, err);
				rc = -EINVAL;
			}
			continue;
		}
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
	for (int i = 1; i < argc; i++) {
		const char *path = NULL;
		if ((strcmp(argv[i], "-f") == 0 || strcmp(argv[i], "--file") == 0) && i + 1 < argc)
			path = argv[i + 1];
		else if (strncmp(argv[i], "--file=", 7) == 0)
			path = argv[i] + 7;
		if (path != NULL && dd_file(o, cfg, path) != 0)
			return 2;
	}
	char err[256];
	int left = dpsctp_config_parse_args(cfg, argc, argv, err, sizeof(err));
	if (left < 0) {
		fprintf(stderr, "dpsctpd: %s\n", err);
		return 2;
	}
	int rc = app_opts_parse(dd_opt_table, o, left, argv, NULL, err, sizeof(err));
	if (rc == 1) {
		dd_usage(stdout);
		return 1;
	}
	if (rc != 0) {
		fprintf(stderr, "dpsctpd: %s\n", err);
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
 * stdout and stderr must not stall the loop either: a pipe or a
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
 * Worker w > 0 (--queues N) on an EAL worker lcore: its worker of the data
 * plane, then its ring set of every application the main thread
 * published, until the main thread says quit. At each loop boundary it
 * parks when the main thread asks (dd_world_stop()): nothing else it does
 * waits, and nothing it touches is another worker's.
 */
struct dd_worker_arg {
	struct dd *d;
	unsigned w;
	uint32_t idle_sleep_us;
};

static int
dd_worker_main(void *arg)
{
	const struct dd_worker_arg *wa = arg;
	struct dd *d = wa->d;
	unsigned w = wa->w;
	uint64_t seen = 0, iterations = 0;
	dd_w = w;
	while (!atomic_load_explicit(&d->quit, memory_order_relaxed)) {
		uint64_t stop = atomic_load_explicit(&d->stop_seq, memory_order_acquire);
		if (stop != seen) {
			atomic_store_explicit(&d->wk[w].parked, stop, memory_order_release);
			while (atomic_load_explicit(&d->go_seq, memory_order_acquire) != stop)
				rte_pause();
			seen = stop;
			continue;
		}
		atomic_store_explicit(&d->wk[w].iterations, ++iterations, memory_order_relaxed);
		int polled = dpsctp_poll(d->dp, w);
		unsigned work = polled > 0 ? (unsigned)polled : 0;
		struct dd_app *apps[SC_SERVER_MAX_APPS];
		unsigned n = 0;
		for (unsigned i = 0; i < SC_SERVER_MAX_APPS; i++) {
			struct dd_app *app =
				atomic_load_explicit(&d->live[i], memory_order_acquire);
			if (app != NULL && !__atomic_load_n(&app->broken, __ATOMIC_ACQUIRE))
				apps[n++] = app;
		}
		/* Those seen above stay until we park: a departure waits for it. */
		for (unsigned i = 0; i < n; i++)
			work += dd_app_serve(d, apps[i]);
		for (unsigned i = 0; i < n; i++)
			dd_app_wake(apps[i]);
		if (work == 0 && wa->idle_sleep_us != 0)
			usleep(wa->idle_sleep_us);
	}
	return 0;
}

/* Workers 1 .. N-1 on the EAL's worker lcores, in order. 0, or -1 said why. */
static int
dd_launch_workers(struct dd *d, uint32_t idle_sleep_us)
{
	static struct dd_worker_arg args[SC_MAX_WORKERS];
	unsigned w = 1, lcore;
	RTE_LCORE_FOREACH_WORKER(lcore)
	{
		if (w == d->n_workers)
			break;
		args[w] = (struct dd_worker_arg){ d, w, idle_sleep_us };
		if (rte_eal_remote_launch(dd_worker_main, &args[w], lcore) != 0) {
			fprintf(stderr, "dpsctpd: worker %u: lcore %u would not start\n", w, lcore);
			return -1;
		}
		w++;
	}
	return w == d->n_workers ? 0 : -1;
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
	dd_w = 0;
	if (d->n_workers > 1 && dd_launch_workers(d, idle_sleep_us) != 0) {
		fprintf(stderr, "dpsctpd: %u workers need %u lcores (-l)\n", d->n_workers,
			d->n_workers);
		dd_stop = 1;
	}
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
		/* The loopback peer has as many workers as we do, all on this thread. */
		for (unsigned w = 0; d->peer != NULL && w < d->n_workers; w++)
			if ((polled = dpsctp_poll(d->peer, w)) > 0)
				work += (unsigned)polled;
		for (unsigned i = 0; i < SC_SERVER_MAX_APPS; i++) {
			struct sc_app *sa = d->srv.apps[i];
			if (sa == NULL)
				continue;
			struct dd_app *app = sa->user;
			if (app == NULL || __atomic_load_n(&app->broken, __ATOMIC_ACQUIRE)) {
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
	/* The other workers stop at their next loop boundary; from here this
	 * thread alone runs every worker (dd_stop_all()). */
	atomic_store_explicit(&d->quit, true, memory_order_relaxed);
	if (d->n_workers > 1)
		rte_eal_mp_wait_lcore();
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

/* The EAL, the file, the command line, the limits: -1 to go on, else the exit status. */
static int
dd_parse(int *argc, char ***argv, struct dd_opts *o, struct dpsctp_config *cfg)
{
	int n = dpsctp_eal_init(*argc, *argv);
	if (n < 0) {
		fprintf(stderr, "dpsctpd: the EAL did not start (see its messages above)\n");
		return 3;
	}
	*argc -= n;
	*argv += n;
	dpsctp_config_defaults(cfg);
	*o = dd_opt_defaults;
	const char *env = getenv("DPSCTPD_SOCKET");
	if (snprintf(o->socket, sizeof(o->socket), "%s",
		     env != NULL ? env : DPSCTP_CLIENT_DEFAULT_SOCKET) >= (int)sizeof(o->socket)) {
		fprintf(stderr, "dpsctpd: DPSCTPD_SOCKET: at most %zu bytes\n",
			sizeof(o->socket) - 1);
		return 2;
	}
	int st = dd_options(*argc, *argv, o, cfg);
	if (st != 0)
		return st == 1 ? 0 : st;
	if (dd_limits_check(o, cfg) != 0 || dd_access_parse(&o->access, &o->srv.access) != 0)
		return 2;
	return -1;
}

/* --check: the options valid (0) or not (2), the data plane's printed. */
static int
dd_check(const struct dd_opts *o, const struct dpsctp_config *cfg)
{
	char err[256];
	if (dpsctp_config_validate(cfg, err, sizeof(err)) != 0) {
		fprintf(stderr, "dpsctpd: %s\n", err);
		return 2;
	}
	dpsctp_config_print(cfg, stdout);
	printf("# dpsctpd: socket %s, %u applications x %u threads, rings of %u, arenas of "
	       "%llu bytes, %u associations and %u ports each, backlog %u, %u pending "
	       "hellos of %u ms at most%s\n",
	       o->socket, o->srv.max_apps, o->srv.max_threads, o->srv.ring_slots,
	       (unsigned long long)o->srv.arena_bytes, o->lim.app_assocs, o->lim.app_listens,
	       o->lim.backlog, o->srv.max_pending, o->srv.hello_timeout_ms,
	       o->zero_copy ? ", zero copy" : "");
	dd_access_print(&o->srv.access, stdout);
	return 0;
}

/* The loopback peer, then the daemon's instance (on a memfd pool with --zero-copy). */
static int
dd_start_dataplane(struct dd *d, const struct dd_opts *o, struct dpsctp_config *cfg, int *zc_fd,
		   struct rte_mempool **zc_pool)
{
	char err[256];
	if (cfg->queues == 0)
		cfg->queues = 1; /* one worker unless asked: docs/SIDECAR.md */
	if (cfg->queues > SC_MAX_WORKERS || cfg->queues > rte_lcore_count()) {
		fprintf(stderr,
			"dpsctpd: --queues %u: one lcore per worker (-l gives %u), at most %u "
			"workers\n",
			cfg->queues, rte_lcore_count(), SC_MAX_WORKERS);
		return 2;
	}
	if (o->loopback_peer != 0) {
		void *hold = app_hold_half(); /* the daemon's instance gets the rest */
		d->peer = dd_peer_create(cfg, o->loopback_peer == 2);
		app_release(hold);
		if (d->peer == NULL)
			return 3;
	}
	if (o->zero_copy) {
		uint8_t *zc_base;
		if (dd_zc_pool(cfg, zc_fd, &zc_base, &d->zc_bytes, zc_pool) != 0)
			return 3;
		d->zc_base = zc_base;
		d->dp = dpsctp_create_with_pool(cfg, *zc_pool, err, sizeof(err));
	} else {
		d->dp = dpsctp_create(cfg, err, sizeof(err));
	}
	if (d->dp == NULL) {
		fprintf(stderr, "dpsctpd: %s\n", err);
		return 3;
	}
	d->n_workers = dpsctp_workers(d->dp);
	(void)dpsctp_rx_flow_control(d->dp, 1);
	return -1;
}

/* The handle tables the applications' associations and ports go in. */
static int
dd_handles(struct dd *d, const struct dd_opts *o, const struct dpsctp_config *cfg)
{
	/* A slice per worker, each as large as the whole was with one: an application's
	 * associations may all land on one worker (accepted ones go where their tag
	 * says). Slot + 1 must fit the handle's 24 bits (sc_proto.h). */
	d->per_worker = o->lim.app_assocs * o->srv.max_apps;
	if (d->per_worker > (SC_HANDLE_SLOTS - 1u) / d->n_workers)
		d->per_worker = (SC_HANDLE_SLOTS - 1u) / d->n_workers;
	if (d->per_worker > 1u << 20)
		d->per_worker = 1u << 20;
	d->n_assocs = d->per_worker * d->n_workers;
	d->assocs = calloc(d->n_assocs, sizeof(*d->assocs));
	d->n_listeners = cfg->listeners;
	d->listeners = calloc(d->n_listeners, sizeof(*d->listeners));
	if (d->assocs == NULL || d->listeners == NULL) {
		fprintf(stderr, "dpsctpd: no memory for %u association handles\n", d->n_assocs);
		return 3;
	}
	for (uint32_t i = 0; i < d->n_listeners; i++)
		d->listeners[i].tag = DD_TAG_LISTENER; /* free slots too (dd.h) */
	for (uint32_t i = 0; i < d->n_assocs; i++)
		d->assocs[i].gen = 1;
	return -1;
}

/* The control socket open, the signals taken: serving. */
static int
dd_open(struct dd *d, const struct dd_opts *o, int zc_fd)
{
	dd_app_init(d);
	/* A ring set per application thread and worker (sc_region.h). */
	struct sc_server_limits lim = o->srv;
	lim.workers = dpsctp_workers(d->dp);
	int rc = sc_server_open(&d->srv, o->socket, &lim, dd_generation());
	if (rc != 0) {
		dpsctp_destroy(d->dp);
		return dd_socket_error(o->socket, rc);
	}
	d->srv.on_attach = dd_on_attach;
	d->srv.on_detach = dd_on_detach;
	d->srv.arg = d;
	d->srv.zc_fd = zc_fd;
	d->srv.zc_bytes = d->zc_bytes;
	dd_telemetry_register(d);
	signal(SIGINT, dd_on_signal);
	signal(SIGTERM, dd_on_signal);
	signal(SIGPIPE, SIG_IGN);
	printf("dpsctpd: serving %s (up to %u applications, %s)\n", o->socket, o->srv.max_apps,
	       o->zero_copy ? "zero copy on request" : "one copy");
	return -1;
}

/* Stopping in order: applications told, associations shut down, the socket closed. */
static int
dd_stop_all(struct dd *d, const struct dd_opts *o, struct rte_mempool *zc_pool)
{
	printf("dpsctpd: stopping\n");
	dd_app_say_stopping(d);
	if (d->peer != NULL)
		(void)dpsctp_stop(d->peer, 0); /* its ABORTs end ours at once */
	int aborted = dpsctp_stop(d->dp, 2000);
	sc_server_close(&d->srv, o->socket);
	dpsctp_destroy(d->dp);
	if (d->peer != NULL) {
		uint64_t m, b, dropped;
		dd_peer_stats(&m, &b, &dropped);
		printf("dpsctpd: the loopback peer received %llu messages, %llu bytes; %llu echoes "
		       "dropped\n",
		       (unsigned long long)m, (unsigned long long)b, (unsigned long long)dropped);
		dd_peer_destroy(d->peer);
	}
	rte_mempool_free(zc_pool); /* after the port: it held the pool's mbufs */
	free(d->assocs);
	free(d->listeners);
	rte_eal_cleanup();
	printf("dpsctpd: stopped (%d associations aborted at the end)\n", aborted);
	return 0;
}

int
main(int argc, char **argv)
{
	static struct dd d;
	struct dpsctp_config cfg;
	struct dd_opts o;
	int zc_fd = -1, st;
	struct rte_mempool *zc_pool = NULL;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (app_help_wanted(argc, argv)) { /* before the EAL, which may not start */
		dd_usage(stdout);
		return 0;
	}
	if ((st = dd_parse(&argc, &argv, &o, &cfg)) >= 0)
		return st;
	if (o.check)
		return dd_check(&o, &cfg);
	/* Before the port: a second daemon must not touch the first's port,
	 * nor take its socket (a stale one is replaced by sc_server_open()). */
	int in_use = sc_server_probe(o.socket);
	if (in_use != 0)
		return dd_socket_error(o.socket, in_use);
	d.lim = o.lim;
	if ((st = dd_start_dataplane(&d, &o, &cfg, &zc_fd, &zc_pool)) >= 0 ||
	    (st = dd_handles(&d, &o, &cfg)) >= 0 || (st = dd_open(&d, &o, zc_fd)) >= 0)
		return st;
	dd_run(&d, o.idle_sleep_us);
	return dd_stop_all(&d, &o, zc_pool);
}
