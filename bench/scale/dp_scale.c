/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctp-scale: the embedded data plane with N workers, each measured by
 * its own thread (docs/PERFORMANCE.md, "Workers and ports: scaling").
 *
 * Worker w is polled by EAL lcore w (the main lcore is worker 0) and owns
 * --assocs associations of its own, connected on it. Each thread reads the
 * TSC around every loop iteration and keeps its own figures in cache lines
 * that no other thread writes (struct wstat): cycles, busy cycles, messages,
 * and iterations that took longer than --stall-us (1000 by default: the
 * thread was descheduled; on a machine with fewer cores than busy threads
 * those carry the time slices of other threads, and are reported apart).
 *
 *   --role loopback  two instances in this process over a net_ring pair with
 *                    N queue pairs (queue q to queue q); thread w polls
 *                    worker w of both, so it carries both ends of its own
 *                    associations: nothing crosses between threads.
 *   --split yes      with --role loopback: an instance pair of one worker per
 *                    thread instead (the threads share the process, no
 *                    instance): the control for what one instance shares.
 *   --role server    one instance on --port with N queues; sinks; per worker
 *                    figures from the first to the last message received.
 *   --role client    one instance on --port with N queues; sends to --peer for
 *                    -t seconds after --omit.
 *
 * A frame on the wrong queue is handed to the owning worker (docs/DEMUX.md):
 * the rx_handoff_in/out counters of every worker are in the JSON, so a run
 * whose data path crossed workers shows it.
 *
 * usage: dpsctp-scale [EAL] -- [--role loopback|server|client] [--workers N]
 *        [-l BYTES] [-t SECONDS] [--omit SECONDS] [--assocs N] [--port PORT]
 *        [--ip ADDR/PFX] [--peer ADDR] [--stall-us US] [--split yes|no]
 * One JSON document on stdout.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_ring.h>

#include "dataplane/config.h"
#include "dataplane/dpsctp.h"

#define MAX_WORKERS 8
#define MAX_ASSOCS  64
#define SCTP_PORT   5001
#define BURST	    32

enum role { ROLE_LOOPBACK, ROLE_SERVER, ROLE_CLIENT };

/* One worker's figures: written by its thread only, read by main after join. */
struct wstat {
	uint64_t rx_msgs;			     /* delivered to this worker's server ends */
	uint64_t tx_msgs;			     /* accepted by dpsctp_send_bytes() */
	uint64_t rx0, tx0, rx1, tx1;		     /* at the start and end of the window */
	uint64_t cycles, busy, stalls, stall_cycles; /* in the window */
	uint64_t first_rx, last_rx;		     /* TSC (server) */
	uint64_t iters;
	struct dpsctp_assoc *ca[MAX_ASSOCS]; /* client ends, up */
	unsigned n_ca;
	unsigned n_sa;	 /* server ends accepted on this worker */
	unsigned closed; /* ends closed gracefully */
	bool lost;
	const char *lost_why; /* which end, which event */
} __rte_cache_aligned;

static struct {
	enum role role;
	unsigned workers, assocs, len;
	double seconds, omit, stall_us;
	const char *port, *ip, *peer;
	bool split;
	struct dpsctp *c[MAX_WORKERS], *s[MAX_WORKERS]; /* [0] unless --split */
	uint64_t t_meas, t_end, stall;
	uint8_t buf[65536];
	struct wstat ws[MAX_WORKERS];
} g = { .workers = 1, .assocs = 1, .len = 64, .seconds = 2, .omit = 0.2, .stall_us = 1000 };

static void on_recv(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg);
static void on_event_c(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg);
static void on_event_s(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg);
static const struct dpsctp_callbacks cb_c = { on_recv, on_event_c, NULL };
static const struct dpsctp_callbacks cb_s = { on_recv, on_event_s, NULL };

/* Worker wi's instance (of g.c or g.s) and its worker index there. */
static struct dpsctp *
inst(struct dpsctp *const *v, unsigned wi)
{
	return v[g.split ? wi : 0];
}

static unsigned
qi(unsigned wi)
{
	return g.split ? 0 : wi;
}

static void
on_recv(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg)
{
	(void)a;
	(void)m;
	struct wstat *w = arg;
	w->rx_msgs++;
	if (g.role == ROLE_SERVER) {
		uint64_t t = rte_rdtsc();
		if (w->first_rx == 0)
			w->first_rx = t;
		w->last_rx = t;
	}
}

/* Client ends: arg is the connecting worker's wstat. */
static void
on_event_c(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	struct wstat *w = arg;
	if (ev->type == DPSCTP_EV_COMM_UP && w->n_ca < MAX_ASSOCS)
		w->ca[w->n_ca++] = a;
	else if (ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE)
		w->closed++;
	else if (ev->type == DPSCTP_EV_COMM_LOST || ev->type == DPSCTP_EV_CANT_START) {
		w->lost = true;
		w->lost_why = ev->type == DPSCTP_EV_COMM_LOST ? "client: COMM_LOST"
							      : "client: CANT_START";
	}
}

/* Server ends: counted on the worker that owns them (--split: the
 * listening instance's thread, the listener's arg). */
static void
on_event_s(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	struct wstat *w = arg != NULL ? arg : &g.ws[dpsctp_assoc_worker(a)];
	if (ev->type == DPSCTP_EV_COMM_UP) {
		w->n_sa++;
		dpsctp_assoc_set_callbacks(a, &cb_s, w);
	} else if (ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE) {
		w->closed++;
	} else if (ev->type == DPSCTP_EV_COMM_LOST) {
		w->lost = true;
		w->lost_why = "server: COMM_LOST";
	}
}

/* Fill every client association of worker wi up to BURST messages. */
static int
pump(struct wstat *w)
{
	struct dpsctp_sndinfo si = { 0, 0, DPSCTP_SEND_MORE, DPSCTP_PR_NONE, 0, 0 };
	int sent = 0;
	for (unsigned i = 0; i < w->n_ca; i++) {
		for (unsigned k = 0; k < BURST; k++) {
			si.flags = k + 1 < BURST ? DPSCTP_SEND_MORE : 0;
			int r = dpsctp_send_bytes(w->ca[i], &si, g.buf, g.len);
			if (r != 0) {
				if (k > 0)
					dpsctp_flush(w->ca[i]);
				break;
			}
			sent++;
			w->tx_msgs++;
		}
	}
	return sent;
}

static int
poll_all(unsigned wi)
{
	int n = 0;
	if (inst(g.c, wi) != NULL)
		n += dpsctp_poll(inst(g.c, wi), qi(wi));
	if (inst(g.s, wi) != NULL)
		n += dpsctp_poll(inst(g.s, wi), qi(wi));
	return n;
}

/* Worker wi's loop, on its own lcore: nothing it writes is another's. */
static int
run_worker(void *arg)
{
	unsigned wi = (unsigned)(uintptr_t)arg;
	struct wstat *w = &g.ws[wi];
	bool in = false;
	for (;;) {
		uint64_t t = rte_rdtsc();
		if (t >= g.t_end)
			break;
		w->rx1 = w->rx_msgs;
		w->tx1 = w->tx_msgs;
		int n = poll_all(wi);
		if (g.role != ROLE_SERVER)
			n += pump(w);
		else if (w->n_sa > 0 && w->closed == w->n_sa)
			break; /* the client closed every association of this worker */
		uint64_t t2 = rte_rdtsc();
		if (t < g.t_meas)
			continue;
		if (!in) {
			in = true;
			w->rx0 = w->rx_msgs;
			w->tx0 = w->tx_msgs;
			continue;
		}
		uint64_t d = t2 - t;
		w->iters++;
		w->cycles += d;
		if (n > 0)
			w->busy += d;
		if (d > g.stall && (n > 0 || g.role != ROLE_SERVER)) {
			w->stalls++;
			w->stall_cycles += d;
		}
	}
	return 0;
}

static uint64_t
counter(struct dpsctp *d, unsigned wi, const char *want)
{
	const char *name = NULL;
	uint64_t v;
	for (unsigned i = 0; (v = dpsctp_worker_counter(d, wi, i, &name)) != UINT64_MAX || name;
	     i++)
		if (name != NULL && strcmp(name, want) == 0)
			return v;
	return 0;
}

static struct dpsctp *
make(const char *port, const char *ip, unsigned queues, char *err, size_t errlen)
{
	struct dpsctp_config cfg;
	char q[16], n[16];
	snprintf(q, sizeof(q), "%u", queues);
	snprintf(n, sizeof(n), "%u", queues * g.assocs + 16);
	dpsctp_config_defaults(&cfg);
	/* DATA, not I-DATA: a 1452-byte message is one chunk in one packet. */
	const char *kv[][2] = { { "port", port },	    { "ip", ip },	{ "queues", q },
				{ "max-assocs", n },	    { "sndbuf", "1m" }, { "rcvbuf", "1m" },
				{ "extensions", "pr-sctp" } };
	for (size_t i = 0; i < RTE_DIM(kv); i++)
		if (dpsctp_config_set(&cfg, kv[i][0], kv[i][1], err, errlen) != 0)
			return NULL;
	return dpsctp_create(&cfg, err, errlen);
}

/* A net_ring pair "sca<tag>"/"scb<tag>" with nq queue pairs, queue q to queue q. */
static int
ring_pair(unsigned tag, unsigned nq)
{
	struct rte_ring *ab[MAX_WORKERS], *ba[MAX_WORKERS];
	char n[32];
	for (unsigned q = 0; q < nq; q++) {
		snprintf(n, sizeof(n), "scab%u_%u", tag, q);
		ab[q] = rte_ring_create(n, 4096, (int)rte_socket_id(), 0);
		snprintf(n, sizeof(n), "scba%u_%u", tag, q);
		ba[q] = rte_ring_create(n, 4096, (int)rte_socket_id(), 0);
		if (ab[q] == NULL || ba[q] == NULL)
			return -1;
	}
	snprintf(n, sizeof(n), "sca%u", tag);
	if (rte_eth_from_rings(n, ba, nq, ab, nq, (unsigned)rte_socket_id()) < 0)
		return -1;
	snprintf(n, sizeof(n), "scb%u", tag);
	if (rte_eth_from_rings(n, ab, nq, ba, nq, (unsigned)rte_socket_id()) < 0)
		return -1;
	return 0;
}

static int
usage(const char *why)
{
	fprintf(stderr,
		"dpsctp-scale: %s\nusage: dpsctp-scale [EAL] -- [--role loopback|server|client] "
		"[--workers 1..%d] [-l 16..65536] [-t SECONDS] [--omit SECONDS] [--assocs 1..%d] "
		"[--port PORT] [--ip ADDR/PFX] [--peer ADDR] [--stall-us US] [--split yes|no]\n",
		why, MAX_WORKERS, MAX_ASSOCS);
	return 2;
}

static int
parse(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(o, "--") == 0)
			continue;
		if (v == NULL)
			return usage("an option without its value");
		i++;
		if (strcmp(o, "--role") == 0)
			g.role = strcmp(v, "server") == 0   ? ROLE_SERVER
				 : strcmp(v, "client") == 0 ? ROLE_CLIENT
							    : ROLE_LOOPBACK;
		else if (strcmp(o, "--workers") == 0)
			g.workers = (unsigned)atoi(v);
		else if (strcmp(o, "-l") == 0)
			g.len = (unsigned)atoi(v);
		else if (strcmp(o, "-t") == 0)
			g.seconds = atof(v);
		else if (strcmp(o, "--omit") == 0)
			g.omit = atof(v);
		else if (strcmp(o, "--assocs") == 0)
			g.assocs = (unsigned)atoi(v);
		else if (strcmp(o, "--port") == 0)
			g.port = v;
		else if (strcmp(o, "--ip") == 0)
			g.ip = v;
		else if (strcmp(o, "--peer") == 0)
			g.peer = v;
		else if (strcmp(o, "--split") == 0)
			g.split = strcmp(v, "1") == 0 || strcmp(v, "yes") == 0;
		else if (strcmp(o, "--stall-us") == 0)
			g.stall_us = atof(v);
		else
			return usage(o);
	}
	if (g.workers < 1 || g.workers > MAX_WORKERS || g.assocs < 1 || g.assocs > MAX_ASSOCS ||
	    g.len < 16 || g.len > sizeof(g.buf) || g.seconds <= 0 || g.omit < 0)
		return usage("a value out of range");
	if (g.split && g.role != ROLE_LOOPBACK)
		return usage("--split is for --role loopback");
	if (g.role != ROLE_LOOPBACK && (g.port == NULL || g.ip == NULL))
		return usage("--port and --ip are needed with --role server|client");
	if (g.role == ROLE_CLIENT && g.peer == NULL)
		return usage("--peer is needed with --role client");
	if (rte_lcore_count() < g.workers)
		return usage("fewer EAL lcores (-l) than --workers");
	return 0;
}

static void
report(uint64_t hz)
{
	const char *roles[] = { "loopback", "server", "client" };
	double total = 0, window = g.seconds;
	printf("{\"role\": \"%s\", \"workers\": %u, \"message_bytes\": %u, \"assocs_per_worker\": "
	       "%u, \"split\": %s, \"seconds\": %.3f, \"tsc_hz\": %" PRIu64 ", \"stall_us\": %.1f, "
	       "\"per_worker\": [",
	       roles[g.role], g.workers, g.len, g.assocs, g.split ? "true" : "false", g.seconds, hz,
	       g.stall_us);
	for (unsigned wi = 0; wi < g.workers; wi++) {
		struct wstat *w = &g.ws[wi];
		struct dpsctp *d = inst(g.s, wi) != NULL ? inst(g.s, wi) : inst(g.c, wi);
		struct dpsctp *d2 = d == inst(g.s, wi) ? inst(g.c, wi) : NULL;
		uint64_t msgs = g.role == ROLE_CLIENT ? w->tx1 - w->tx0 : w->rx1 - w->rx0;
		double secs = window;
		if (g.role == ROLE_SERVER) { /* from the first message to the last */
			msgs = w->rx_msgs;
			secs = w->last_rx > w->first_rx ? (double)(w->last_rx - w->first_rx) / hz
							: 0;
		}
		double mps = secs > 0 ? msgs / secs : 0;
		total += mps;
		uint64_t cyc = g.role == ROLE_SERVER ? w->busy : w->cycles;
		printf("%s{\"worker\": %u, \"assocs\": %u, \"messages\": %" PRIu64
		       ", \"messages_per_second\": %.0f, \"cycles\": %" PRIu64
		       ", \"busy_cycles\": %" PRIu64 ", \"iterations\": %" PRIu64
		       ", \"stalled_iterations\": %" PRIu64 ", \"stalled_cycles\": %" PRIu64
		       ", \"cycles_per_message\": %.1f, \"cycles_per_message_unstalled\": %.1f, "
		       "\"rx_handoff_in\": %" PRIu64 ", \"rx_handoff_out\": %" PRIu64
		       ", \"lost\": %s}",
		       wi ? ", " : "", wi, g.role == ROLE_CLIENT ? w->n_ca : w->n_sa, msgs, mps,
		       w->cycles, w->busy, w->iters, w->stalls, w->stall_cycles,
		       msgs ? (double)cyc / msgs : 0,
		       msgs && cyc > w->stall_cycles ? (double)(cyc - w->stall_cycles) / msgs : 0,
		       counter(d, qi(wi), "rx_handoff_in") +
			       (d2 != NULL ? counter(d2, qi(wi), "rx_handoff_in") : 0),
		       counter(d, qi(wi), "rx_handoff_out") +
			       (d2 != NULL ? counter(d2, qi(wi), "rx_handoff_out") : 0),
		       w->lost ? "true" : "false");
	}
	printf("], \"total_messages_per_second\": %.0f}\n", total);
}

int
main(int argc, char **argv)
{
	int n = dpsctp_eal_init(argc, argv);
	if (n < 0)
		return 3;
	argc -= n;
	argv += n;
	int rc = parse(argc, argv);
	if (rc != 0)
		return rc;
	for (size_t i = 0; i < sizeof(g.buf); i++)
		g.buf[i] = (uint8_t)i;
	char err[256] = "";
	/* --split: an instance pair of one worker per thread, sharing only the
	 * process; else one pair of instances with --workers workers each. */
	unsigned pairs = g.split ? g.workers : 1, nq = g.split ? 1 : g.workers;
	for (unsigned i = 0; i < pairs; i++) {
		char pa[64], pb[64];
		snprintf(pa, sizeof(pa), "ethdev:net_ring_sca%u", i);
		snprintf(pb, sizeof(pb), "ethdev:net_ring_scb%u", i);
		if (g.role == ROLE_LOOPBACK) {
			if (ring_pair(i, nq) != 0) {
				fprintf(stderr, "dpsctp-scale: net_ring pair: %s\n",
					rte_strerror(rte_errno));
				return 3;
			}
			g.c[i] = make(pa, "10.0.0.1/24", nq, err, sizeof(err));
			g.s[i] = g.c[i] ? make(pb, "10.0.0.2/24", nq, err, sizeof(err)) : NULL;
			g.peer = "10.0.0.2";
		} else if (g.role == ROLE_CLIENT) {
			g.c[i] = make(g.port, g.ip, nq, err, sizeof(err));
		} else {
			g.s[i] = make(g.port, g.ip, nq, err, sizeof(err));
		}
		if ((g.role == ROLE_SERVER ? g.s[i] : g.c[i]) == NULL ||
		    (g.role == ROLE_LOOPBACK && g.s[i] == NULL)) {
			fprintf(stderr, "dpsctp-scale: %s\n", err);
			return 3;
		}
		if (g.s[i] != NULL &&
		    dpsctp_listen(g.s[i], SCTP_PORT, &cb_s, g.split ? &g.ws[i] : NULL) != 0) {
			fprintf(stderr, "dpsctp-scale: listen failed\n");
			return 3;
		}
	}
	uint64_t hz = rte_get_tsc_hz();
	if (g.role == ROLE_SERVER) { /* run.py starts the client on this line */
		fprintf(stderr, "dpsctp-scale: listening on %u\n", SCTP_PORT);
		fflush(stderr);
	}
	/* Connect and wait for every association, one thread polling all. */
	if (g.c[0] != NULL) {
		struct sctp_addr peer = { SCTP_ADDR_V4, { 0 } };
		unsigned a, b, c, d;
		if (sscanf(g.peer, "%u.%u.%u.%u", &a, &b, &c, &d) != 4)
			return usage("--peer takes an IPv4 address");
		peer.bytes[0] = (uint8_t)a, peer.bytes[1] = (uint8_t)b, peer.bytes[2] = (uint8_t)c,
		peer.bytes[3] = (uint8_t)d;
		for (unsigned wi = 0; wi < g.workers; wi++)
			for (unsigned k = 0; k < g.assocs; k++) {
				int e = 0;
				if (dpsctp_connect(inst(g.c, wi), qi(wi), &peer, 1, SCTP_PORT, 0,
						   &cb_c, &g.ws[wi], &e) == NULL) {
					fprintf(stderr, "dpsctp-scale: connect: %s\n",
						strerror(-e));
					return 1;
				}
			}
		uint64_t until = rte_rdtsc() + 10 * hz;
		for (;;) {
			unsigned up = 0;
			bool lost = false;
			for (unsigned wi = 0; wi < g.workers; wi++) {
				poll_all(wi);
				up += g.ws[wi].n_ca;
				lost |= g.ws[wi].lost;
			}
			if (up == g.workers * g.assocs)
				break;
			if (lost || rte_rdtsc() > until) {
				fprintf(stderr, "dpsctp-scale: %u of %u associations up\n", up,
					g.workers * g.assocs);
				return 1;
			}
		}
	}
	uint64_t now = rte_rdtsc();
	g.stall = (uint64_t)(g.stall_us * 1e-6 * hz);
	/* A server counts from its first message to its last, and its busy
	 * cycles all along: it does not know when the client's window starts. */
	g.t_meas = now + (g.role == ROLE_SERVER ? 0 : (uint64_t)(g.omit * hz));
	g.t_end = g.t_meas + (uint64_t)(g.seconds * hz);
	unsigned lc = rte_get_next_lcore(-1, 1, 0);
	for (unsigned wi = 1; wi < g.workers; wi++, lc = rte_get_next_lcore(lc, 1, 0))
		if (rte_eal_remote_launch(run_worker, (void *)(uintptr_t)wi, lc) != 0) {
			fprintf(stderr, "dpsctp-scale: no lcore for worker %u\n", wi);
			return 3;
		}
	run_worker((void *)0);
	rte_eal_mp_wait_lcore();
	if (g.role == ROLE_SERVER)
		g.seconds = 0;
	/* Close gracefully, so a server process sees SHUTDOWN COMPLETE. */
	unsigned want = 0, closed = 0;
	for (unsigned wi = 0; wi < g.workers; wi++)
		for (unsigned k = 0; k < g.ws[wi].n_ca; k++, want++)
			dpsctp_shutdown(g.ws[wi].ca[k]);
	for (uint64_t until = rte_rdtsc() + 2 * hz; closed < want && rte_rdtsc() < until;) {
		closed = 0;
		for (unsigned wi = 0; wi < g.workers; wi++) {
			poll_all(wi);
			closed += g.ws[wi].closed;
		}
	}
	report(hz);
	bool lost = false;
	for (unsigned wi = 0; wi < g.workers; wi++) {
		lost |= g.ws[wi].lost;
		if (g.ws[wi].lost)
			fprintf(stderr, "dpsctp-scale: worker %u lost an association (%s)\n", wi,
				g.ws[wi].lost_why);
	}
	/* Not dpsctp_stop(): the peer of a two-process run may be gone already. */
	return lost ? 1 : 0;
}
