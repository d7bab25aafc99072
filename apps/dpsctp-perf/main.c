/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctp-perf: roles and the phases of a run (perf.h has the map).
 *
 *   client / --loopback:  connect -P associations; when all are up the
 *       test runs -t seconds (the first --omit not measured); then DRAIN
 *       (no new messages; wait until everything sent is acknowledged, so
 *       "sent" means received), CLOSE (SHUTDOWN every association), EXIT.
 *   server: accept associations; a test is from the first COMM_UP until
 *       every association has ended; print its summary; -1 exits then.
 *   --handshakes N: connect N associations, keeping at most
 *       --max-handshakes - 8 in flight, and time them; then --idle (the
 *       heartbeats of the idle population), --busy (round trips on a
 *       random share of them, perf_busy.c), and CLOSE: each phase timed,
 *       with the memory held at its end.
 *   --sidecar SOCKET: -s or -c through dpsctpd (perf_sidecar.c); main()
 *       sees it before anything else and starts no EAL.
 *
 * Figures are taken between two snapshots of the ends' counters (start of
 * the measured window, end of it): rates over the window, cycles per
 * message as busy cycles over messages in the window.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "apps/common/app_common.h"
#include "apps/dpsctp-perf/perf.h"

static volatile int phase = PERF_RUN;
static volatile sig_atomic_t interrupted;

static void
on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static size_t
heap_bytes(void)
{
	struct rte_malloc_socket_stats st;
	size_t sum = 0;
	for (unsigned s = 0; s < rte_socket_count(); s++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(s), &st) == 0)
			sum += st.heap_allocsz_bytes;
	return sum;
}

/* The process's resident memory (the pages it touched), 0 if unknown. */
static size_t
rss_bytes(void)
{
	unsigned long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f == NULL)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

/* The client's connect targets (--handshakes spreads over a port per PERF_HS_PORT_SPAN). */
struct target {
	struct sctp_addr peers[DPSCTP_CONFIG_MAX_IPS];
	unsigned n_peers;
	uint16_t port;
	unsigned n_ports;
	uint32_t window; /* handshakes in flight at most */
	uint64_t first_tsc;
	int rc;
};

/* --handshakes: keep the window of handshakes full until N were started. */
static void
handshake_pump(struct perf_side *s, struct target *t)
{
	/* The first association alone, untimed: it resolves the neighbour
	 * (INITs sent before that wait in a park queue of four, the rest are
	 * dropped and retransmitted an RTO later). */
	if (s->n_flows == 1 && s->flows_up + s->flows_lost == 0)
		return;
	if (s->n_flows == 1 && t->first_tsc == 0)
		t->first_tsc = rte_rdtsc();
	while (s->n_flows < s->o->handshakes &&
	       s->n_flows - s->flows_up - s->flows_lost < t->window) {
		uint16_t port = (uint16_t)(t->port + s->n_flows % t->n_ports);
		int rc = perf_side_connect(s, t->peers, t->n_peers, port, 1);
		if (rc == -ENOMEM || rc == -EAGAIN)
			return; /* blocks come back as handshakes finish */
		if (rc != 0) {
			t->rc = rc;
			return;
		}
		if (s->n_flows == 1)
			return;
	}
}

/* The client's lcore: connect, then iterate through the phases. */
struct client_run {
	struct perf_side *s;
	struct target *t;
	volatile bool drained, closed;
	uint32_t next_shut;		 /* CLOSE: the next flow to shut down */
	uint32_t shut_sent, shut_ended0; /* CLOSE: SHUTDOWNs asked; flows ended before */
	bool shut_begun;
	struct perf_busy busy;
};

static void
client_step(struct client_run *r, bool *shut)
{
	struct perf_side *s = r->s;
	if (s->o->handshakes != 0 && phase == PERF_RUN) {
		handshake_pump(s, r->t);
		perf_busy_step(&r->busy, s);
	}
	perf_side_iterate(s);
	if (phase == PERF_DRAIN && !r->drained && (s->c.polls & 255) == 0) {
		bool all = true;
		for (uint32_t i = 0; i < s->n_flows && all; i++)
			all = perf_flow_drained(&s->flows[i]);
		r->drained = all;
	}
	if (phase >= PERF_CLOSE && !*shut) {
		/* 64 SHUTDOWNs an iteration, and no more under way than the
		 * handshake window: a million at once would overflow the port's
		 * ring (and a NIC's) before the peer can answer, and the
		 * retransmissions would not all make it in time either. */
		if (!r->shut_begun) {
			r->shut_begun = true;
			r->shut_ended0 = s->flows_ended;
		}
		/* Under way: asked less ended since (some ended otherwise). */
		uint32_t ended = s->flows_ended - r->shut_ended0;
		uint32_t busy = r->shut_sent > ended ? r->shut_sent - ended : 0;
		unsigned k = 0;
		for (; r->next_shut < s->n_flows && k < 64 && busy + k < r->t->window;
		     r->next_shut++)
			if (s->flows[r->next_shut].a != NULL && !s->flows[r->next_shut].ended) {
				(void)dpsctp_shutdown(s->flows[r->next_shut].a);
				r->shut_sent++;
				k++;
			}
		*shut = r->next_shut == s->n_flows;
	}
	if (*shut && !r->closed && s->flows_ended == s->n_flows)
		r->closed = true;
}

static int
client_lcore(void *arg)
{
	struct client_run *r = arg;
	bool shut = false;
	if (r->s->o->handshakes == 0) {
		r->t->rc = perf_side_connect(r->s, r->t->peers, r->t->n_peers, r->t->port,
					     r->s->o->assocs);
		r->t->first_tsc = rte_rdtsc();
	}
	while (phase != PERF_EXIT)
		client_step(r, &shut);
	return 0;
}

static void
snap(struct perf_snap *sn, const struct perf_result *r, unsigned rx_idx)
{
	const struct perf_side *sides[2] = { r->tx, r->rx };
	sn->tsc = rte_rdtsc();
	for (int i = 0; i < 2; i++) {
		const struct perf_side *s = sides[i];
		if (s == NULL) {
			memset(&sn->c[i], 0, sizeof(sn->c[i]));
			sn->rx_packets[i] = 0;
			continue;
		}
		sn->c[i].msgs_sent = perf_load(&s->c.msgs_sent);
		sn->c[i].bytes_sent = perf_load(&s->c.bytes_sent);
		sn->c[i].msgs_recv = perf_load(&s->c.msgs_recv);
		sn->c[i].bytes_recv = perf_load(&s->c.bytes_recv);
		sn->c[i].busy_cycles = perf_load(&s->c.busy_cycles);
		sn->c[i].loop_cycles = perf_load(&s->c.loop_cycles);
		sn->c[i].polls = perf_load(&s->c.polls);
		sn->c[i].idle_polls = perf_load(&s->c.idle_polls);
		sn->c[i].pings = perf_load(&s->c.pings);
		sn->c[i].abandoned_msgs = perf_load(&s->c.abandoned_msgs);
		sn->c[i].abandoned_bytes = perf_load(&s->c.abandoned_bytes);
		sn->c[i].abandoned_sent = perf_load(&s->c.abandoned_sent);
		const char *name;
		sn->rx_packets[i] = dpsctp_worker_counter(s->d, 0, rx_idx, &name);
	}
}

/* An interval line when one is due (-i), from the previous one's snapshot. */
static void
interval_tick(const struct perf_result *r, struct perf_snap *prev, uint64_t *next, uint64_t now,
	      unsigned rx_idx)
{
	if (r->o->interval <= 0 || now < *next)
		return;
	struct perf_snap cur;
	snap(&cur, r, rx_idx);
	perf_report_interval(stdout, r, prev, &cur, r->o->json);
	*prev = cur;
	*next += (uint64_t)(r->o->interval * (double)r->hz);
}

static unsigned
counter_index(const struct dpsctp *d, const char *want)
{
	const char *name;
	for (unsigned i = 0; dpsctp_worker_counter(d, 0, i, &name) != UINT64_MAX || name != NULL;
	     i++)
		if (name != NULL && strcmp(name, want) == 0)
			return i;
	return 0;
}

/*
 * --memory: what an instance sized for n associations holds, then exit.
 * The total has a fixed part (the mbuf pool, the port, the listeners), so
 * the figure per association is also given at the margin: the same
 * instance sized for n / 2 is created and measured, and the difference
 * divided by n / 2 is what each association adds (from 128 up: below, both
 * pools' fixed shares are not yet the same).
 */
static int
report_memory(const struct perf_opts *o, struct dpsctp *d, size_t bytes,
	      const struct dpsctp_config *cfg)
{
	if (d == NULL)
		return 3;
	uint32_t n = cfg->max_assocs;
	double per = (double)bytes / (double)n, marginal = 0.0;
	dpsctp_destroy(d);
	if (n >= 128) {
		struct dpsctp_config half = *cfg;
		half.max_assocs = n / 2u;
		/* A ring pair of its own: the first instance's port went with it. */
		if (app_ring_pair("perfhalf") != 0)
			return 3;
		size_t heap0 = heap_bytes();
		struct dpsctp *h = app_create(&half, "ethdev:net_ring_perfhalf_b", "10.0.0.2/24",
					      "dpsctp-perf");
		size_t hb = heap_bytes() - heap0;
		if (h == NULL)
			return 3;
		dpsctp_destroy(h);
		marginal = bytes > hb ? (double)(bytes - hb) / (double)(n - n / 2u) : 0.0;
	}
	if (o->json)
		printf("{\n  \"start\": {\"version\": \"%s\", \"role\": \"memory\"},\n"
		       "  \"end\": {\"memory_total_bytes\": %zu, \"memory_sized_for_assocs\": %u, "
		       "\"memory_bytes_per_assoc\": %.1f, \"memory_marginal_bytes_per_assoc\": "
		       "%.1f}\n}\n",
		       dpsctp_version(), bytes, n, per, marginal);
	else
		printf("memory: an instance sized for %u associations holds %zu bytes: %.0f per "
		       "association, %.0f at the margin (blocks are reserved at create: an idle "
		       "association adds nothing)\n",
		       n, bytes, per, marginal);
	rte_eal_cleanup();
	return 0;
}

/* --stats: every non-zero counter of an end's worker. */
static void
print_counters(FILE *f, const char *who, const struct dpsctp *d)
{
	const char *name;
	uint64_t v;
	if (d == NULL)
		return;
	for (unsigned i = 0; (v = dpsctp_worker_counter(d, 0, i, &name)) != UINT64_MAX || name; i++)
		if (name != NULL && v != 0)
			fprintf(f, "%s: %s %" PRIu64 "\n", who, name, v);
}

/* --sidecar anywhere on the command line: this process starts no EAL. */
static bool
sidecar_wanted(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--sidecar") == 0 || strncmp(argv[i], "--sidecar=", 10) == 0)
			return true;
	return false;
}

/* A data-plane option other than --sctp-port (dpsctpd's to take): said, true. */
static bool
sidecar_dp_option(int argc, char **argv, const struct dpsctp_config *cfg)
{
	for (int i = 1; i < argc; i++) {
		char name[64];
		if (strncmp(argv[i], "--", 2) != 0 || argv[i][2] == '\0')
			continue;
		snprintf(name, sizeof(name), "%s", argv[i] + 2);
		name[strcspn(name, "=")] = '\0';
		struct dpsctp_config scratch = *cfg;
		if (strcmp(name, "sctp-port") != 0 && !perf_sidecar_key(name) &&
		    dpsctp_config_set(&scratch, name, NULL, NULL, 0) != -ENOENT) {
			fprintf(stderr,
				"dpsctp-perf: --%s is a data-plane option: with --sidecar it is "
				"dpsctpd's to take (only --sctp-port and the per-association "
				"options apply here)\n",
				name);
			return true;
		}
	}
	return false;
}

/*
 * --sidecar: every argument is ours (a leading "--" is allowed, EAL
 * arguments before it are not); of the data plane's options only
 * --sctp-port means something here, the rest configure dpsctpd.
 */
static int
sidecar_main(int argc, char **argv)
{
	struct dpsctp_config cfg;
	struct perf_opts o;
	char err[256];

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") != 0)
			continue;
		if (i != 1) {
			fprintf(stderr,
				"dpsctp-perf: --sidecar takes no EAL arguments (\"%s\" before "
				"--): this process starts no DPDK, dpsctpd owns the port\n",
				argv[1]);
			return 2;
		}
		argv[1] = argv[0];
		argv++;
		argc--;
		break;
	}
	dpsctp_config_defaults(&cfg);
	if (sidecar_dp_option(argc, argv, &cfg))
		return 2;
	int left = dpsctp_config_parse_args(&cfg, argc, argv, err, sizeof(err));
	if (left < 0) {
		fprintf(stderr, "dpsctp-perf: %s\n", err);
		return 2;
	}
	int prc = perf_opts_parse(&o, left, argv, err, sizeof(err));
	if (prc == 1) {
		perf_opts_usage(stdout);
		return 0;
	}
	if (prc != 0) {
		fprintf(stderr, "dpsctp-perf: %s\n", err);
		return 2;
	}
	perf_sidecar_opts(&cfg);
	return perf_sidecar_run(&o, cfg.sctp_port != 0 ? cfg.sctp_port : PERF_PORT_DEFAULT);
}

/*
 * One run of the embedded roles: the options, the two ends (either may be
 * absent: a server has no client, a client's server is remote), the
 * client's targets and the main lcore's clock. main() goes through it job
 * by job: options, ends, flows, start, loop, finish.
 */
struct perf_run {
	struct perf_opts o;
	struct dpsctp_config cfg;
	uint16_t port; /* --sctp-port, or PERF_PORT_DEFAULT */
	struct dpsctp *dc, *ds;
	size_t heap_srv; /* the server instance's heap (--memory, --handshakes) */
	struct perf_side cli, srv;
	struct target tgt;
	struct client_run cr;
	unsigned client_lcore_id; /* RTE_MAX_LCORE: the main lcore polls the client */
	unsigned rx_idx;	  /* the worker counter rx_packets */
	struct perf_result res;
	/* The main lcore's clock (TSC). */
	uint64_t t_up, t_end, next_iv, deadline;
	struct perf_snap iv_prev;
	bool measuring, shut, done;
	int rc;
	/* --handshakes: when the phase under way began; the handshakes' figures taken. */
	uint64_t phase_t0;
	uint32_t phase_lost0; /* the client's lost associations when it began */
	bool hs_taken;
	/* --busy: the window's end, then the time the last pings have to come back. */
	uint64_t busy_end;
	uint64_t busy0_tsc, busy0[4];
	/* CLOSE: the client's ended and lost flows when it began. */
	uint32_t close_ended0, close_lost0;
	/* --idle: the window's end (TSC, 0 before it starts), whether it is over, and its first
	 * snapshot. */
	uint64_t idle_end;
	bool idle_done;
	struct idle_snap {
		uint64_t tsc, hb[2], acks[2], deferred[2], probes[2], busy[2], loop[2];
	} idle0;
};

/*
 * Enough association blocks for the test unless the user sized them. A
 * client or a --loopback run opens -P of them and no more, so unless
 * --max-assocs says otherwise its ends are sized for those: their tables
 * come out of the EAL's memory, which without hugepages is -m (64 MiB
 * without it) and must also hold the mbuf pools. A --max-assocs too small
 * for the test is raised, and said so.
 */
static void
size_assocs(struct perf_run *r, bool assocs_given)
{
	const struct perf_opts *o = &r->o;
	uint32_t need = (o->handshakes != 0 ? o->handshakes : o->assocs) + 16u;
	if (assocs_given && r->cfg.max_assocs < need)
		fprintf(stderr,
			"dpsctp-perf: --max-assocs %u raised to %u: %s %u + 16 associations\n",
			r->cfg.max_assocs, need, o->handshakes != 0 ? "--handshakes" : "-P",
			need - 16u);
	if (r->cfg.max_assocs < need ||
	    (!assocs_given && !o->server && o->handshakes == 0 && !o->memory))
		r->cfg.max_assocs = need;
	/* --handshakes listens on a port per PERF_HS_PORT_SPAN associations. */
	uint32_t ports = (o->handshakes + PERF_HS_PORT_SPAN - 1u) / PERF_HS_PORT_SPAN;
	if (r->cfg.listeners < ports)
		r->cfg.listeners = ports;
}

/* The EAL, the data plane's options, ours. -1 to go on, else the exit status. */
static int
parse_options(struct perf_run *r, int argc, char **argv)
{
	char err[256];
	bool assocs_given = app_option_given(argc, argv, "max-assocs");
	int st = app_init(&argc, &argv, &r->cfg, "dpsctp-perf");
	if (st == 0)
		st = app_one_worker(&r->cfg, "dpsctp-perf");
	if (st != 0)
		return st;
	int prc = perf_opts_parse(&r->o, argc, argv, err, sizeof(err));
	if (prc == 1) {
		perf_opts_usage(stdout);
		return 0;
	}
	if (prc != 0) {
		fprintf(stderr, "dpsctp-perf: %s\n", err);
		return 2;
	}
	if (r->o.stages)
		r->cfg.stage_cycles = true; /* both ends are made from it */
	r->port = r->cfg.sctp_port != 0 ? r->cfg.sctp_port : PERF_PORT_DEFAULT;
	/* A message longer than the send buffer is refused (-EMSGSIZE) on every
	 * try: say so now rather than send nothing for -t seconds. */
	if (!r->o.server && r->o.handshakes == 0 && !r->o.memory && r->o.len > r->cfg.sndbuf) {
		fprintf(stderr,
			"dpsctp-perf: -l %u is longer than the send buffer (--sndbuf %u): a "
			"message must fit in it (docs/API.md)\n",
			r->o.len, r->cfg.sndbuf);
		return 2;
	}
	size_assocs(r, assocs_given);
	return -1;
}

/* The instances the role needs. -1 to go on, else the exit status. */
static int
create_ends(struct perf_run *r)
{
	const struct perf_opts *o = &r->o;
	size_t heap0 = heap_bytes();
	if (o->loopback) {
		if (app_ring_pair("perf") != 0) {
			fprintf(stderr, "dpsctp-perf: cannot make the net_ring pair\n");
			return 3;
		}
		struct dpsctp_config sc = r->cfg;
		/* Half the memory for each end (without hugepages, app_common.h). */
		void *hold = o->memory ? NULL : app_hold_half();
		heap0 = heap_bytes();
		r->ds = app_create(&sc, "ethdev:net_ring_perf_b", "10.0.0.2/24", "dpsctp-perf");
		r->heap_srv = heap_bytes() - heap0;
		app_release(hold);
		if (r->ds == NULL)
			return 3; /* its line said why, and which -m would do */
		if (o->memory)
			return report_memory(o, r->ds, r->heap_srv, &sc);
		r->dc = app_create(&r->cfg, "ethdev:net_ring_perf_a", "10.0.0.1/24", "dpsctp-perf");
	} else if (o->server) {
		r->ds = app_create(&r->cfg, NULL, NULL, "dpsctp-perf");
		r->heap_srv = heap_bytes() - heap0;
	} else {
		r->dc = app_create(&r->cfg, NULL, NULL, "dpsctp-perf");
	}
	if ((o->loopback || o->server) && r->ds == NULL)
		return 3;
	if ((o->loopback || !o->server) && r->dc == NULL)
		return 3;
	return -1;
}

static int set_up_targets(struct perf_run *r, unsigned n_listen);

/* Each end's flows, the server's ports, then the client's targets. */
static int
set_up_flows(struct perf_run *r)
{
	const struct perf_opts *o = &r->o;
	const struct dpsctp_config *cfg = &r->cfg;
	uint32_t copy_max = cfg->copy_max == DPSCTP_CONFIG_COPY_MAX_AUTO ? 512u : cfg->copy_max;
	uint32_t srv_flows = o->handshakes != 0 ? o->handshakes : o->loopback ? o->assocs : 4096u;
	if (r->ds != NULL && perf_side_init(&r->srv, "server", r->ds, o, false, srv_flows, &phase,
					    copy_max, cfg->sndbuf) != 0) {
		fprintf(stderr, "dpsctp-perf: no memory for the server's flows\n");
		return 3;
	}
	if (r->dc != NULL && perf_side_init(&r->cli, "client", r->dc, o, true,
					    o->handshakes != 0 ? o->handshakes : o->assocs, &phase,
					    copy_max, cfg->sndbuf) != 0) {
		fprintf(stderr, "dpsctp-perf: no memory for the client's flows\n");
		return 3;
	}
	unsigned n_listen = o->handshakes != 0
				    ? (o->handshakes + PERF_HS_PORT_SPAN - 1u) / PERF_HS_PORT_SPAN
				    : 1u;
	for (unsigned i = 0; r->ds != NULL && i < n_listen; i++)
		if (dpsctp_listen(r->ds, (uint16_t)(r->port + i), &perf_listen_callbacks,
				  &r->srv) != 0) {
			fprintf(stderr, "dpsctp-perf: cannot listen on SCTP port %u\n",
				r->port + i);
			return 3;
		}
	/* A script starts its client on this line: an INIT that arrives
	 * before the listen is answered with an ABORT (RFC 9260 8.4). */
	if (r->ds != NULL && r->dc == NULL)
		fprintf(stderr, "server: listening on SCTP port %u\n", r->port);
	return set_up_targets(r, n_listen);
}

/* The client's peers and ports, the wire model and the pace. */
static int
set_up_targets(struct perf_run *r, unsigned n_listen)
{
	const struct perf_opts *o = &r->o;
	const struct dpsctp_config *cfg = &r->cfg;
	struct target *t = &r->tgt;
	t->port = r->port;
	t->n_ports = n_listen;
	t->window = cfg->max_handshakes > 16 ? cfg->max_handshakes - 8u : 8u;
	if (r->dc != NULL) {
		/* -c was checked when parsed (app_opts.h). */
		int np = app_parse_peers(o->loopback ? "10.0.0.2" : o->peer, t->peers,
					 DPSCTP_CONFIG_MAX_IPS);
		if (np <= 0) {
			fprintf(stderr, "dpsctp-perf: bad peer address list \"%s\"\n", o->peer);
			return 2;
		}
		t->n_peers = (unsigned)np;
	}
	r->res.tx = r->dc != NULL ? &r->cli : NULL;
	r->res.rx = r->ds != NULL ? &r->srv : NULL;
	struct perf_wire *wm = &r->res.wire;
	perf_wire_model(wm, o->len, cfg->mtu, t->peers[0].family == SCTP_ADDR_V6, cfg->udp_encap,
			(cfg->extensions & DPSCTP_EXT_I_DATA) != 0);
	double pace = 0;
	if (o->rate_bps > 0)
		pace = o->rate_bps / 8.0 / wm->wire_bytes_per_msg;
	else if (o->pps > 0)
		pace = o->pps * wm->msgs_per_pkt / wm->pkts_per_msg;
	if (r->dc != NULL)
		perf_side_pace(&r->cli, pace);
	r->res.pace_mps = pace;
	return -1;
}

/* Who polls what (the client on its own lcore when there is one), and go. */
static int
start_ends(struct perf_run *r)
{
	const struct perf_opts *o = &r->o;
	r->client_lcore_id = RTE_MAX_LCORE;
	if (r->dc != NULL && r->ds != NULL) {
		unsigned l = rte_get_next_lcore(-1, 1, 0);
		if (l < RTE_MAX_LCORE)
			r->client_lcore_id = l;
	}
	snprintf(r->res.lcores, sizeof(r->res.lcores), "%s",
		 r->client_lcore_id < RTE_MAX_LCORE ? "one lcore per end"
		 : r->dc != NULL && r->ds != NULL   ? "one lcore polls both ends"
						    : "one lcore");
	if (!o->json && o->ping && o->ping_len != o->len)
		printf("dpsctp-perf %s: %s, %u-byte messages, %u-byte pings, %u stream%s, %u "
		       "association%s, %s\n",
		       dpsctp_version(), r->res.role, o->len, o->ping_len, o->streams,
		       o->streams == 1 ? "" : "s", o->assocs, o->assocs == 1 ? "" : "s",
		       r->res.lcores);
	else if (!o->json)
		printf("dpsctp-perf %s: %s, %u-byte messages, %u stream%s, %u association%s, %s\n",
		       dpsctp_version(), r->res.role, o->len, o->streams,
		       o->streams == 1 ? "" : "s", o->assocs, o->assocs == 1 ? "" : "s",
		       r->res.lcores);
	r->cr = (struct client_run){ .s = &r->cli, .t = &r->tgt };
	if (o->busy_s > 0 && perf_busy_init(&r->cr.busy, o->handshakes, o->busy_share) != 0) {
		fprintf(stderr, "dpsctp-perf: no memory for --busy's slots\n");
		return 3;
	}
	if (r->client_lcore_id < RTE_MAX_LCORE) {
		if (rte_eal_remote_launch(client_lcore, &r->cr, r->client_lcore_id) != 0) {
			fprintf(stderr, "dpsctp-perf: lcore %u is busy\n", r->client_lcore_id);
			return 3;
		}
	} else if (r->dc != NULL && o->handshakes == 0) {
		r->tgt.rc = perf_side_connect(&r->cli, r->tgt.peers, r->tgt.n_peers, r->tgt.port,
					      o->assocs);
		r->tgt.first_tsc = rte_rdtsc();
	}
	r->rx_idx = counter_index(r->dc != NULL ? r->dc : r->ds, "rx_packets");
	return -1;
}

/* A phase ends with a failure: say why, close within 2 s. */
static void
fail_to_close(struct perf_run *r, uint64_t now)
{
	r->rc = 1;
	phase = PERF_CLOSE;
	r->deadline = now + 2 * r->res.hz;
}

/* The server: a test per burst of associations, from the first COMM_UP to the last end. */
static void
server_tick(struct perf_run *r, uint64_t now)
{
	struct perf_side *srv = &r->srv;
	struct perf_result *res = &r->res;
	if (!r->measuring && srv->flows_up > srv->flows_ended) {
		r->measuring = true;
		snap(&res->start, res, r->rx_idx);
		r->iv_prev = res->start;
		r->next_iv = now + (uint64_t)(r->o.interval * (double)res->hz);
	}
	if (r->measuring)
		interval_tick(res, &r->iv_prev, &r->next_iv, now, r->rx_idx);
	if (!r->measuring || srv->flows_ended != srv->n_flows)
		return;
	snap(&res->end, res, r->rx_idx);
	res->rx_packets_total = res->end.rx_packets[1];
	perf_report_end(stdout, res);
	if (r->o.json)
		perf_report_json(stdout, res);
	r->measuring = false;
	if (r->o.one_off)
		r->done = true;
	/* The next test's totals are its own (the rates are between
	 * snapshots, the totals are not). */
	srv->n_flows = srv->flows_up = srv->flows_ended = srv->flows_lost = 0;
	srv->errors = srv->refused = srv->restarts = srv->skipped = 0;
	srv->extensions = srv->ext_flows = 0;
	srv->sched = PERF_SCHED_UNKNOWN;
	memset(&srv->sum, 0, sizeof(srv->sum));
	memset(&srv->c, 0, sizeof(srv->c));
	memset(&srv->lat, 0, sizeof(srv->lat));
	perf_report_reset();
}

/* --handshakes: a phase ended now: its seconds and the memory held at its end. */
static void
mark_phase(struct perf_run *r, const char *name, uint64_t now)
{
	struct perf_result *res = &r->res;
	if (res->n_phases == sizeof(res->phases) / sizeof(res->phases[0]))
		return;
	struct perf_phase_mark *m = &res->phases[res->n_phases++];
	m->name = name;
	m->seconds = (double)(now - r->phase_t0) / (double)res->hz;
	m->heap_bytes = heap_bytes();
	m->rss_bytes = rss_bytes();
	r->phase_t0 = now;
	r->phase_lost0 = r->cli.flows_lost;
}

/* --idle: what the heartbeat figures are made of, both ends at once. */
static void
idle_snap(const struct perf_run *r, struct idle_snap *sn)
{
	const struct perf_side *ends[2] = { &r->cli, &r->srv };
	sn->tsc = rte_rdtsc();
	for (int i = 0; i < 2; i++) {
		const char *name;
		const struct dpsctp *d = ends[i]->d;
		sn->hb[i] = dpsctp_worker_counter(d, 0, counter_index(d, "tx_heartbeats"), &name);
		sn->acks[i] =
			dpsctp_worker_counter(d, 0, counter_index(d, "tx_heartbeat_acks"), &name);
		sn->deferred[i] =
			dpsctp_worker_counter(d, 0, counter_index(d, "hb_deferred"), &name);
		sn->probes[i] = dpsctp_worker_counter(d, 0, counter_index(d, "hb_probes"), &name);
		sn->busy[i] = perf_load(&ends[i]->c.busy_cycles);
		sn->loop[i] = perf_load(&ends[i]->c.loop_cycles);
	}
}

/*
 * --idle, once every handshake is done: the window starts; at its end the
 * heartbeat figures (struct perf_result) from the two snapshots. Returns
 * true while the window runs.
 */
static bool
idle_tick(struct perf_run *r, uint64_t now)
{
	struct perf_result *res = &r->res;
	if (r->o.idle_s <= 0 || r->idle_done)
		return false;
	if (r->idle_end == 0) {
		idle_snap(r, &r->idle0);
		r->idle_end = now + (uint64_t)(r->o.idle_s * (double)res->hz);
		return true;
	}
	if (now < r->idle_end && r->cli.flows_lost == r->phase_lost0)
		return true;
	struct idle_snap b;
	idle_snap(r, &b);
	const struct idle_snap *a = &r->idle0;
	double t = (double)(b.tsc - a->tsc) / (double)res->hz;
	uint64_t hbs = 0, busy = 0;
	res->idle_s = t;
	res->idle_cut = now < r->idle_end;
	for (int i = 0; i < 2; i++) {
		res->hb_per_s[i] = (double)(b.hb[i] - a->hb[i]) / t;
		res->hb_acks_per_s[i] = (double)(b.acks[i] - a->acks[i]) / t;
		res->hb_deferred_per_s[i] = (double)(b.deferred[i] - a->deferred[i]) / t;
		res->hb_probes_per_s[i] = (double)(b.probes[i] - a->probes[i]) / t;
		res->busy_share[i] = b.loop[i] > a->loop[i]
					     ? (double)(b.busy[i] - a->busy[i]) /
						       (double)(b.loop[i] - a->loop[i])
					     : 0;
		hbs += b.hb[i] - a->hb[i];
		busy += b.busy[i] - a->busy[i];
	}
	res->cycles_per_hb = hbs != 0 ? (double)busy / (double)hbs : 0;
	r->idle_done = true;
	mark_phase(r, "idle", now);
	return false;
}

/*
 * --handshakes: seconds granted after the first 5 once the first association
 * is up: 15, and one per 10,000 associations (a million at 10,000 a second
 * on the slowest machine that runs it).
 */
static unsigned
hs_grace_s(const struct perf_opts *o)
{
	return 15u + o->handshakes / 10000u;
}

/* The four counts --busy checks: the client's pings and answers, the server's receipts and echoes.
 */
static void
busy_counts(const struct perf_run *r, uint64_t c[4])
{
	c[0] = perf_load(&r->cli.c.msgs_sent);
	c[1] = perf_load(&r->cli.c.pings);
	c[2] = perf_load(&r->srv.c.msgs_recv);
	c[3] = perf_load(&r->srv.c.msgs_sent);
}

/*
 * --busy, once the idle window is over: the slots turn ON, at the window's
 * end STOP, and once the client's lcore says DONE (every ping answered, or
 * 10 s later) the figures. True while it runs.
 */
static bool
busy_tick(struct perf_run *r, uint64_t now)
{
	struct perf_result *res = &r->res;
	struct perf_busy *b = &r->cr.busy;
	const uint64_t hz = res->hz;
	if (r->o.busy_s <= 0)
		return false;
	switch (__atomic_load_n(&b->state, __ATOMIC_ACQUIRE)) {
	case PERF_BUSY_OFF:
		busy_counts(r, r->busy0);
		r->busy0_tsc = now;
		r->busy_end = now + (uint64_t)(r->o.busy_s * (double)hz);
		__atomic_store_n(&b->state, PERF_BUSY_ON, __ATOMIC_RELEASE);
		return true;
	case PERF_BUSY_ON:
		if (now < r->busy_end && r->cli.flows_lost == r->phase_lost0)
			return true;
		res->busy_s = (double)(now - r->busy0_tsc) / (double)hz;
		res->busy_cut = now < r->busy_end;
		r->busy_end = now + 10 * hz;
		__atomic_store_n(&b->state, PERF_BUSY_STOP, __ATOMIC_RELEASE);
		return true;
	case PERF_BUSY_STOP:
		if (now < r->busy_end)
			return true;
		fprintf(stderr, "dpsctp-perf: --busy: pings not answered 10 s after the window\n");
		res->busy_cut = true;
		break;
	default:
		break;
	}
	uint64_t c[4];
	busy_counts(r, c);
	res->busy_slots = b->n;
	res->busy_turns = b->turns;
	res->busy_touched = b->touched;
	res->busy_sent = c[0] - r->busy0[0];
	res->busy_answered = c[1] - r->busy0[1];
	res->busy_srv_recv = c[2] - r->busy0[2];
	res->busy_srv_sent = c[3] - r->busy0[3];
	res->busy_errors = r->cli.errors + r->srv.errors;
	res->busy_p50_us = (double)perf_hist_quantile(&r->cli.lat, 0.5) / 1e3;
	res->busy_p99_us = (double)perf_hist_quantile(&r->cli.lat, 0.99) / 1e3;
	if (res->busy_errors != 0 || res->busy_cut || res->busy_sent != res->busy_answered ||
	    res->busy_srv_recv != res->busy_sent || res->busy_srv_sent != res->busy_sent) {
		fprintf(stderr,
			"dpsctp-perf: --busy: %" PRIu64 " pings sent, %" PRIu64
			" received and %" PRIu64 " echoed by the server, %" PRIu64
			" echoes back; %" PRIu64 " messages failed a check\n",
			res->busy_sent, res->busy_srv_recv, res->busy_srv_sent, res->busy_answered,
			res->busy_errors);
		r->rc = 1;
	}
	mark_phase(r, "busy", now);
	return false;
}

/* --handshakes, PERF_RUN: all up (or lost), or the time is out; then --idle, --busy. */
static void
handshakes_tick(struct perf_run *r, uint64_t now)
{
	const struct perf_side *cli = &r->cli;
	struct perf_result *res = &r->res;
	const uint64_t hz = res->hz;
	if (cli->flows_up + cli->flows_lost >= r->o.handshakes) {
		if (!r->hs_taken) {
			uint64_t dt = cli->established_tsc - r->tgt.first_tsc;
			r->hs_taken = true;
			res->handshakes_done = cli->flows_up;
			/* The first one, untimed, resolved the neighbour. */
			res->handshakes_per_s =
				dt && cli->flows_up > 1
					? (double)(cli->flows_up - 1) * (double)hz / (double)dt
					: 0;
			res->mem_bytes_per_assoc = (double)r->heap_srv / (double)r->cfg.max_assocs;
			res->mem_total = r->heap_srv;
			res->mem_sized_for = r->cfg.max_assocs;
			mark_phase(r, "handshakes", now);
		}
		if (idle_tick(r, now))
			return;
		if (busy_tick(r, now))
			return;
		phase = PERF_CLOSE;
		r->close_ended0 = cli->flows_ended;
		r->close_lost0 = cli->flows_lost;
		/* Shutting a million down takes a while too: 30 s and 1 s per 20,000. */
		r->deadline = now + (30 + r->o.handshakes / 20000u) * hz;
	} else if (now > r->deadline + (cli->flows_up ? hs_grace_s(&r->o) * hz : 0)) {
		fprintf(stderr, "dpsctp-perf: %u of %u associations up after %u s\n", cli->flows_up,
			r->o.handshakes, cli->flows_up ? 5 + hs_grace_s(&r->o) : 5);
		fail_to_close(r, now);
	}
}

/*
 * --handshakes, the end of CLOSE: every association that was open when it
 * began shut down with SHUTDOWN COMPLETE, or the run fails.
 */
static void
close_taken(struct perf_run *r, uint64_t now)
{
	const struct perf_side *cli = &r->cli;
	struct perf_result *res = &r->res;
	uint32_t clean = (cli->flows_ended - cli->flows_lost) - (r->close_ended0 - r->close_lost0);
	res->close_of = cli->n_flows - r->close_ended0;
	res->closed_clean = clean;
	mark_phase(r, "close", now);
	if (clean != res->close_of) {
		fprintf(stderr, "dpsctp-perf: %u of %u associations shut down cleanly\n", clean,
			res->close_of);
		r->rc = 1;
	}
}

/* A traffic test, PERF_RUN: wait for -P up, skip --omit, measure until -t. */
static void
traffic_tick(struct perf_run *r, uint64_t now)
{
	const struct perf_opts *o = &r->o;
	const struct perf_side *cli = &r->cli;
	struct perf_result *res = &r->res;
	const uint64_t hz = res->hz;
	if (r->t_up == 0) {
		if (cli->flows_up == o->assocs) {
			r->t_up = now;
			r->t_end = r->t_up + (uint64_t)(o->seconds * (double)hz);
		} else if (now > r->deadline || cli->flows_lost != 0) {
			fprintf(stderr, "dpsctp-perf: %u of %u associations up\n", cli->flows_up,
				o->assocs);
			fail_to_close(r, now);
		}
		return;
	}
	if (!r->measuring && now >= r->t_up + (uint64_t)(o->omit * (double)hz)) {
		r->measuring = true;
		snap(&res->start, res, r->rx_idx);
		r->iv_prev = res->start;
		r->next_iv = res->start.tsc + (uint64_t)(o->interval * (double)hz);
	}
	if (r->measuring)
		interval_tick(res, &r->iv_prev, &r->next_iv, now, r->rx_idx);
	if (cli->flows_lost != 0 || now >= r->t_end) {
		snap(&res->end, res, r->rx_idx);
		phase = PERF_DRAIN;
		r->deadline = now + 10 * hz;
	}
}

/* The client's phases, on the main lcore's clock. */
static void
client_tick(struct perf_run *r, uint64_t now)
{
	const uint64_t hz = r->res.hz;
	if (r->tgt.rc != 0) {
		fprintf(stderr, "dpsctp-perf: connect: %s\n", strerror(-r->tgt.rc));
		fail_to_close(r, now);
		r->tgt.rc = 0;
	}
	switch (phase) {
	case PERF_RUN:
		if (r->o.handshakes != 0)
			handshakes_tick(r, now);
		else
			traffic_tick(r, now);
		break;
	case PERF_DRAIN:
		if (r->cr.drained || now > r->deadline) {
			if (!r->cr.drained) {
				fprintf(stderr,
					"dpsctp-perf: data still unacknowledged after 10 s\n");
				r->rc = 1;
			}
			phase = PERF_CLOSE;
			r->deadline = now + 10 * hz;
		}
		break;
	case PERF_CLOSE:
		if ((r->cr.closed && (r->ds == NULL || r->srv.flows_ended == r->srv.n_flows)) ||
		    now > r->deadline) {
			if (r->o.handshakes != 0 && r->hs_taken)
				close_taken(r, now);
			phase = PERF_EXIT;
			r->done = true;
		}
		break;
	default:
		r->done = true;
		break;
	}
}

/* The main lcore: its end(s), and the clock, until the run is over. */
static void
run_loop(struct perf_run *r)
{
	const uint64_t hz = r->res.hz;
	r->deadline = rte_rdtsc() + 5 * hz;
	r->phase_t0 = rte_rdtsc();
	while (!r->done) {
		if (r->ds != NULL)
			perf_side_iterate(&r->srv);
		if (r->dc != NULL && r->client_lcore_id == RTE_MAX_LCORE)
			client_step(&r->cr, &r->shut);
		uint64_t now = rte_rdtsc();
		if (interrupted && phase < PERF_DRAIN) {
			if (r->dc == NULL)
				break; /* a server: stop below */
			if (r->t_end == 0)
				r->t_end = now;
			snap(&r->res.end, &r->res, r->rx_idx);
			phase = PERF_DRAIN;
			r->deadline = now + 10 * hz;
		}
		if (r->dc == NULL)
			server_tick(r, now);
		else
			client_tick(r, now);
	}
	phase = PERF_EXIT;
	if (r->client_lcore_id < RTE_MAX_LCORE)
		rte_eal_wait_lcore(r->client_lcore_id);
}

/* The client's summary and verdict, the counters, the ends stopped and freed. */
static int
finish(struct perf_run *r)
{
	const struct perf_opts *o = &r->o;
	struct perf_result *res = &r->res;
	const char *cname;
	if (r->ds != NULL)
		res->rx_packets_total = dpsctp_worker_counter(r->ds, 0, r->rx_idx, &cname);
	if (o->stages) {
		/* The workers still poll: each figure is at most a poll old. */
		perf_stages_snap(&res->stages, r->dc, r->ds);
		res->stages_on = true;
	}
	if (r->dc != NULL) {
		res->tx_packets_total =
			dpsctp_worker_counter(r->dc, 0, counter_index(r->dc, "tx_packets"), &cname);
		if (o->handshakes != 0 || res->end.tsc != 0) {
			perf_report_end(stdout, res);
			if (o->json)
				perf_report_json(stdout, res);
		}
		if (r->cli.flows_lost != 0 || r->cli.errors != 0 ||
		    (r->ds != NULL && r->srv.errors != 0))
			r->rc = 1;
		if (o->handshakes != 0 && res->handshakes_done != o->handshakes)
			r->rc = 1;
	}
	if (o->stats) {
		print_counters(stderr, "client", r->dc);
		print_counters(stderr, "server", r->ds);
	}
	int aborted = 0;
	if (r->dc != NULL)
		aborted += dpsctp_stop(r->dc, 2000);
	if (r->ds != NULL)
		aborted += dpsctp_stop(r->ds, 2000);
	if (aborted != 0 && o->handshakes == 0 && r->dc != NULL) {
		fprintf(stderr, "dpsctp-perf: %d association%s had to be aborted at exit\n",
			aborted, aborted == 1 ? "" : "s");
		r->rc = 1;
	}
	dpsctp_destroy(r->dc);
	dpsctp_destroy(r->ds);
	perf_busy_fini(&r->cr.busy);
	if (r->dc != NULL)
		perf_side_fini(&r->cli);
	if (r->ds != NULL)
		perf_side_fini(&r->srv);
	rte_eal_cleanup();
	return r->rc;
}

int
main(int argc, char **argv)
{
	static struct perf_run run; /* the sides' histograms: not on the stack */
	struct perf_run *r = &run;
	int st;

	setvbuf(stdout, NULL, _IOLBF, 0); /* lines as they happen, also into a pipe */
	if (sidecar_wanted(argc, argv))
		return sidecar_main(argc, argv);
	if (app_help_wanted(argc, argv)) { /* before the EAL, which may not start */
		perf_opts_usage(stdout);
		return 0;
	}
	if ((st = parse_options(r, argc, argv)) >= 0)
		return st;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	r->res.o = &r->o;
	r->res.hz = rte_get_tsc_hz();
	r->res.role = r->o.loopback ? "loopback" : r->o.server ? "server" : "client";
	if ((st = create_ends(r)) >= 0 || (st = set_up_flows(r)) >= 0 || (st = start_ends(r)) >= 0)
		return st;
	run_loop(r);
	return finish(r);
}
