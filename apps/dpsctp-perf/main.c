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
 *       --max-handshakes - 8 in flight, and time them.
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

/* The client's connect targets (--handshakes spreads over PERF_HS_PORTS ports). */
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
	uint32_t next_shut; /* CLOSE: the next flow to shut down */
};

static void
client_step(struct client_run *r, bool *shut)
{
	struct perf_side *s = r->s;
	if (s->o->handshakes != 0 && phase == PERF_RUN)
		handshake_pump(s, r->t);
	perf_side_iterate(s);
	if (phase == PERF_DRAIN && !r->drained && (s->c.polls & 255) == 0) {
		bool all = true;
		for (uint32_t i = 0; i < s->n_flows && all; i++)
			all = perf_flow_drained(&s->flows[i]);
		r->drained = all;
	}
	if (phase >= PERF_CLOSE && !*shut) {
		/* 64 SHUTDOWNs an iteration: thousands at once would overflow the
		 * port's ring (and a NIC's) before the peer can answer. */
		unsigned k = 0;
		for (; r->next_shut < s->n_flows && k < 64; r->next_shut++)
			if (s->flows[r->next_shut].a != NULL && !s->flows[r->next_shut].ended) {
				(void)dpsctp_shutdown(s->flows[r->next_shut].a);
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

/* --memory: what an instance sized for n associations holds, then exit. */
static int
report_memory(const struct perf_opts *o, struct dpsctp *d, size_t bytes, uint32_t n)
{
	if (d == NULL)
		return 3;
	double per = (double)bytes / (double)n;
	if (o->json)
		printf("{\n  \"start\": {\"version\": \"%s\", \"role\": \"memory\"},\n"
		       "  \"end\": {\"memory_total_bytes\": %zu, \"memory_sized_for_assocs\": %u, "
		       "\"memory_bytes_per_assoc\": %.1f}\n}\n",
		       dpsctp_version(), bytes, n, per);
	else
		printf("memory: an instance sized for %u associations holds %zu bytes: %.0f per "
		       "association (blocks are reserved at create: an idle association adds "
		       "nothing)\n",
		       n, bytes, per);
	dpsctp_destroy(d);
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
	for (int i = 1; i < argc; i++) {
		char name[64];
		if (strncmp(argv[i], "--", 2) != 0 || argv[i][2] == '\0')
			continue;
		snprintf(name, sizeof(name), "%s", argv[i] + 2);
		name[strcspn(name, "=")] = '\0';
		struct dpsctp_config scratch = cfg;
		if (strcmp(name, "sctp-port") != 0 &&
		    dpsctp_config_set(&scratch, name, NULL, NULL, 0) != -ENOENT) {
			fprintf(stderr,
				"dpsctp-perf: --%s is a data-plane option: with --sidecar it is "
				"dpsctpd's to take (only --sctp-port applies here)\n",
				name);
			return 2;
		}
	}
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
	return perf_sidecar_run(&o, cfg.sctp_port != 0 ? cfg.sctp_port : PERF_PORT_DEFAULT);
}

int
main(int argc, char **argv)
{
	struct dpsctp_config cfg;
	struct perf_opts o;
	char err[256];

	setvbuf(stdout, NULL, _IOLBF, 0); /* lines as they happen, also into a pipe */
	if (sidecar_wanted(argc, argv))
		return sidecar_main(argc, argv);
	if (app_help_wanted(argc, argv)) { /* before the EAL, which may not start */
		perf_opts_usage(stdout);
		return 0;
	}
	bool assocs_given = app_option_given(argc, argv, "max-assocs");
	int st = app_init(&argc, &argv, &cfg, "dpsctp-perf");
	if (st != 0)
		return st;
	int prc = perf_opts_parse(&o, argc, argv, err, sizeof(err));
	if (prc == 1) {
		perf_opts_usage(stdout);
		return 0;
	}
	if (prc != 0) {
		fprintf(stderr, "dpsctp-perf: %s\n", err);
		return 2;
	}
	uint16_t port = cfg.sctp_port != 0 ? cfg.sctp_port : PERF_PORT_DEFAULT;
	/*
	 * Enough association blocks for the test unless the user sized them.
	 * A client or a --loopback run opens -P of them and no more, so unless
	 * --max-assocs says otherwise its ends are sized for those: their
	 * tables come out of the EAL's memory, which without hugepages is -m
	 * (64 MiB without it) and must also hold the mbuf pools.
	 */
	uint32_t need = (o.handshakes != 0 ? o.handshakes : o.assocs) + 16u;
	if (cfg.max_assocs < need || (!assocs_given && !o.server && o.handshakes == 0 && !o.memory))
		cfg.max_assocs = need;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	struct perf_result res;
	memset(&res, 0, sizeof(res));
	res.o = &o;
	res.hz = rte_get_tsc_hz();
	res.role = o.loopback ? "loopback" : o.server ? "server" : "client";
	static struct perf_side cli, srv;
	struct dpsctp *dc = NULL, *ds = NULL;
	size_t heap0 = heap_bytes(), heap_srv = 0;
	if (o.loopback) {
		if (app_ring_pair("perf") != 0) {
			fprintf(stderr, "dpsctp-perf: cannot make the net_ring pair\n");
			return 3;
		}
		struct dpsctp_config sc = cfg;
		/* Half the memory for each end (without hugepages, app_common.h). */
		void *hold = o.memory ? NULL : app_hold_half();
		heap0 = heap_bytes();
		ds = app_create(&sc, "ethdev:net_ring_perf_b", "10.0.0.2/24", "dpsctp-perf");
		heap_srv = heap_bytes() - heap0;
		app_release(hold);
		if (ds == NULL)
			return 3; /* its line said why, and which -m would do */
		if (o.memory)
			return report_memory(&o, ds, heap_srv, sc.max_assocs);
		dc = app_create(&cfg, "ethdev:net_ring_perf_a", "10.0.0.1/24", "dpsctp-perf");
	} else if (o.server) {
		ds = app_create(&cfg, NULL, NULL, "dpsctp-perf");
		heap_srv = heap_bytes() - heap0;
	} else {
		dc = app_create(&cfg, NULL, NULL, "dpsctp-perf");
	}
	if ((o.loopback || o.server) && ds == NULL)
		return 3;
	if ((o.loopback || !o.server) && dc == NULL)
		return 3;
	uint32_t copy_max = cfg.copy_max == DPSCTP_CONFIG_COPY_MAX_AUTO ? 512u : cfg.copy_max;
	uint32_t srv_flows = o.handshakes != 0 ? o.handshakes : o.loopback ? o.assocs : 4096u;
	if (ds != NULL && perf_side_init(&srv, "server", ds, &o, false, srv_flows, &phase, copy_max,
					 cfg.sndbuf) != 0) {
		fprintf(stderr, "dpsctp-perf: no memory for the server's flows\n");
		return 3;
	}
	if (dc != NULL && perf_side_init(&cli, "client", dc, &o, true,
					 o.handshakes != 0 ? o.handshakes : o.assocs, &phase,
					 copy_max, cfg.sndbuf) != 0) {
		fprintf(stderr, "dpsctp-perf: no memory for the client's flows\n");
		return 3;
	}
	unsigned n_listen = o.handshakes != 0 ? (o.handshakes + 16383u) / 16384u : 1u;
	for (unsigned i = 0; ds != NULL && i < n_listen; i++)
		if (dpsctp_listen(ds, (uint16_t)(port + i), &perf_listen_callbacks, &srv) != 0) {
			fprintf(stderr, "dpsctp-perf: cannot listen on SCTP port %u\n", port + i);
			return 3;
		}

	struct target tgt;
	memset(&tgt, 0, sizeof(tgt));
	tgt.port = port;
	tgt.n_ports = n_listen;
	tgt.window = cfg.max_handshakes > 16 ? cfg.max_handshakes - 8u : 8u;
	if (dc != NULL) {
		int np = app_parse_peers(o.loopback ? "10.0.0.2" : o.peer, tgt.peers,
					 DPSCTP_CONFIG_MAX_IPS);
		if (np <= 0) {
			fprintf(stderr, "dpsctp-perf: bad peer address list \"%s\"\n", o.peer);
			return 2;
		}
		tgt.n_peers = (unsigned)np;
	}
	res.tx = dc != NULL ? &cli : NULL;
	res.rx = ds != NULL ? &srv : NULL;
	struct perf_wire *wm = &res.wire;
	perf_wire_model(wm, o.len, cfg.mtu, tgt.peers[0].family == 6, cfg.udp_encap);
	double pace = 0;
	if (o.rate_bps > 0)
		pace = o.rate_bps / 8.0 / wm->wire_bytes_per_msg;
	else if (o.pps > 0)
		pace = o.pps * wm->msgs_per_pkt / wm->pkts_per_msg;
	if (dc != NULL)
		perf_side_pace(&cli, pace);
	res.pace_mps = pace;

	/* Who polls what: the client on its own lcore when there is one. */
	unsigned client_lcore_id = RTE_MAX_LCORE;
	if (dc != NULL && ds != NULL) {
		unsigned l = rte_get_next_lcore(-1, 1, 0);
		if (l < RTE_MAX_LCORE)
			client_lcore_id = l;
	}
	snprintf(res.lcores, sizeof(res.lcores), "%s",
		 client_lcore_id < RTE_MAX_LCORE ? "one lcore per end"
		 : dc != NULL && ds != NULL	 ? "one lcore polls both ends"
						 : "one lcore");
	if (!o.json)
		printf("dpsctp-perf %s: %s, %u-byte messages, %u stream%s, %u association%s, %s\n",
		       dpsctp_version(), res.role, o.len, o.streams, o.streams == 1 ? "" : "s",
		       o.assocs, o.assocs == 1 ? "" : "s", res.lcores);
	struct client_run cr = { &cli, &tgt, false, false, 0 };
	bool shut = false;
	if (client_lcore_id < RTE_MAX_LCORE) {
		if (rte_eal_remote_launch(client_lcore, &cr, client_lcore_id) != 0) {
			fprintf(stderr, "dpsctp-perf: lcore %u is busy\n", client_lcore_id);
			return 3;
		}
	} else if (dc != NULL && o.handshakes == 0) {
		tgt.rc = perf_side_connect(&cli, tgt.peers, tgt.n_peers, tgt.port, o.assocs);
		tgt.first_tsc = rte_rdtsc();
	}
	unsigned rx_idx = counter_index(dc != NULL ? dc : ds, "rx_packets");

	/* The main lcore: its end(s), and the clock. */
	const uint64_t hz = res.hz;
	uint64_t t_up = 0, t_end = 0, next_iv = 0, deadline = rte_rdtsc() + 5 * hz;
	struct perf_snap iv_prev;
	int rc = 0;
	bool measuring = false, done = false;
	while (!done) {
		if (ds != NULL)
			perf_side_iterate(&srv);
		if (dc != NULL && client_lcore_id == RTE_MAX_LCORE)
			client_step(&cr, &shut);
		uint64_t now = rte_rdtsc();
		if (interrupted && phase < PERF_DRAIN) {
			if (dc == NULL) {
				break; /* a server: stop below */
			}
			if (t_end == 0)
				t_end = now;
			snap(&res.end, &res, rx_idx);
			phase = PERF_DRAIN;
			deadline = now + 10 * hz;
		}
		if (dc == NULL) {
			/* The server: a test per burst of associations. */
			if (!measuring && srv.flows_up > srv.flows_ended) {
				measuring = true;
				snap(&res.start, &res, rx_idx);
				iv_prev = res.start;
				next_iv = now + (uint64_t)(o.interval * (double)hz);
			}
			if (measuring)
				interval_tick(&res, &iv_prev, &next_iv, now, rx_idx);
			if (measuring && srv.flows_ended == srv.n_flows) {
				snap(&res.end, &res, rx_idx);
				res.rx_packets_total = res.end.rx_packets[1];
				perf_report_end(stdout, &res);
				if (o.json)
					perf_report_json(stdout, &res);
				measuring = false;
				if (o.one_off)
					done = true;
				/* The next test's totals are its own (the rates are
				 * between snapshots, the totals are not). */
				srv.n_flows = srv.flows_up = srv.flows_ended = srv.flows_lost = 0;
				srv.errors = srv.refused = srv.restarts = 0;
				memset(&srv.sum, 0, sizeof(srv.sum));
				memset(&srv.c, 0, sizeof(srv.c));
				memset(&srv.lat, 0, sizeof(srv.lat));
				perf_report_reset();
			}
			continue;
		}
		if (tgt.rc != 0) {
			fprintf(stderr, "dpsctp-perf: connect: %s\n", strerror(-tgt.rc));
			rc = 1;
			phase = PERF_CLOSE;
			deadline = now + 2 * hz;
			tgt.rc = 0;
		}
		switch (phase) {
		case PERF_RUN:
			if (o.handshakes != 0) {
				if (cli.flows_up + cli.flows_lost >= o.handshakes) {
					uint64_t dt = cli.established_tsc - tgt.first_tsc;
					res.handshakes_done = cli.flows_up;
					/* The first one, untimed, resolved the neighbour. */
					res.handshakes_per_s =
						dt && cli.flows_up > 1
							? (double)(cli.flows_up - 1) * (double)hz /
								  (double)dt
							: 0;
					size_t used = heap_srv;
					res.mem_bytes_per_assoc =
						(double)used / (double)cfg.max_assocs;
					res.mem_total = used;
					res.mem_sized_for = cfg.max_assocs;
					phase = PERF_CLOSE;
					deadline = now + 30 * hz;
				} else if (now > deadline + (cli.flows_up ? 15 * hz : 0)) {
					fprintf(stderr,
						"dpsctp-perf: %u of %u associations up after %s\n",
						cli.flows_up, o.handshakes,
						cli.flows_up ? "20 s" : "5 s");
					rc = 1;
					phase = PERF_CLOSE;
					deadline = now + 2 * hz;
				}
				break;
			}
			if (t_up == 0) {
				if (cli.flows_up == o.assocs) {
					t_up = now;
					t_end = t_up + (uint64_t)(o.seconds * (double)hz);
				} else if (now > deadline || cli.flows_lost != 0) {
					fprintf(stderr, "dpsctp-perf: %u of %u associations up\n",
						cli.flows_up, o.assocs);
					rc = 1;
					phase = PERF_CLOSE;
					deadline = now + 2 * hz;
				}
				break;
			}
			if (!measuring && now >= t_up + (uint64_t)(o.omit * (double)hz)) {
				measuring = true;
				snap(&res.start, &res, rx_idx);
				iv_prev = res.start;
				next_iv = res.start.tsc + (uint64_t)(o.interval * (double)hz);
			}
			if (measuring)
				interval_tick(&res, &iv_prev, &next_iv, now, rx_idx);
			if (cli.flows_lost != 0 || now >= t_end) {
				snap(&res.end, &res, rx_idx);
				phase = PERF_DRAIN;
				deadline = now + 10 * hz;
			}
			break;
		case PERF_DRAIN:
			if (cr.drained || now > deadline) {
				if (!cr.drained) {
					fprintf(stderr, "dpsctp-perf: data still unacknowledged "
							"after 10 s\n");
					rc = 1;
				}
				phase = PERF_CLOSE;
				deadline = now + 10 * hz;
			}
			break;
		case PERF_CLOSE:
			if ((cr.closed && (ds == NULL || srv.flows_ended == srv.n_flows)) ||
			    now > deadline) {
				phase = PERF_EXIT;
				done = true;
			}
			break;
		default:
			done = true;
			break;
		}
	}
	phase = PERF_EXIT;
	if (client_lcore_id < RTE_MAX_LCORE)
		rte_eal_wait_lcore(client_lcore_id);
	const char *cname;
	if (ds != NULL)
		res.rx_packets_total = dpsctp_worker_counter(ds, 0, rx_idx, &cname);
	if (dc != NULL)
		res.tx_packets_total =
			dpsctp_worker_counter(dc, 0, counter_index(dc, "tx_packets"), &cname);
	if (dc != NULL) {
		if (o.handshakes == 0 && res.end.tsc != 0) {
			perf_report_end(stdout, &res);
			if (o.json)
				perf_report_json(stdout, &res);
		} else if (o.handshakes != 0) {
			perf_report_end(stdout, &res);
			if (o.json)
				perf_report_json(stdout, &res);
		}
		if (cli.flows_lost != 0 || cli.errors != 0 || (ds != NULL && srv.errors != 0))
			rc = 1;
		if (o.handshakes != 0 && res.handshakes_done != o.handshakes)
			rc = 1;
	}
	if (o.stats) {
		print_counters(stderr, "client", dc);
		print_counters(stderr, "server", ds);
	}
	int aborted = 0;
	if (dc != NULL)
		aborted += dpsctp_stop(dc, 2000);
	if (ds != NULL)
		aborted += dpsctp_stop(ds, 2000);
	if (aborted != 0 && o.handshakes == 0 && dc != NULL) {
		fprintf(stderr, "dpsctp-perf: %d association%s had to be aborted at exit\n",
			aborted, aborted == 1 ? "" : "s");
		rc = 1;
	}
	dpsctp_destroy(dc);
	dpsctp_destroy(ds);
	if (dc != NULL)
		perf_side_fini(&cli);
	if (ds != NULL)
		perf_side_fini(&srv);
	rte_eal_cleanup();
	return rc;
}
