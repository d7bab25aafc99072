/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dd_wpeer: a peer with several workers that opens associations to a
 * listening application of dpsctpd (dpsctpd_test.py, case workers-accept).
 *
 *   dd_wpeer [EAL args] -- [data-plane options, --queues W] PEER PORT N M [MAXLEN]
 *
 * An embedded instance (the data-plane options: --port, --ip, --queues)
 * whose W workers are all polled by the main thread. Association i is
 * connected on worker i mod W: its INIT leaves by that worker's queue and
 * arrives on the same queue of the peer's port (net_memif with W queues),
 * so a multi-worker dpsctpd answers it from its worker of that queue, whose
 * index the INIT ACK's tag carries (docs/DEMUX.md): the accepted
 * associations land on every worker of the daemon. dpsctp-perf and
 * dpsctp-echo connect and poll on worker 0 alone: every INIT of theirs
 * arrives on the daemon's queue 0.
 *
 * Once all N are up, M messages of 8 .. MAXLEN bytes (1407 by default, one
 * packet each; up to 65536, several packets each) on each, 8 in flight per
 * association, each named by (association, sequence) and filled from both;
 * every echo must come back on its association, on stream 0, in order,
 * intact, exactly once. Then each association shuts down gracefully. The
 * last line says how many associations each worker owned and the echoes:
 *
 *   dd_wpeer: 16 associations on 2 workers (8 8), 3200 of 3200 echoed intact, 0 bad: PASS
 *
 * Exit 0 on PASS, 1 on a failure (each said on stderr), 2 bad usage, 3 the
 * data plane would not start.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include "apps/common/app_common.h"

#define WP_IN_FLIGHT 8u
#define WP_MAX_LEN   65536u /* MAXLEN at most */
#define WP_MAX_N     1024u

struct wp_flow {
	struct dpsctp_assoc *a;
	uint32_t idx, worker;
	uint32_t sent, echoed, bad;
	bool up, ended, failed;
};

static struct wp_flow flows[WP_MAX_N];
static uint32_t n_flows, n_msgs, n_up, n_ended, failures;
static uint32_t max_len = 1407u;

/* Message seq of association idx: its length and bytes. */
static uint32_t
wp_len(uint32_t idx, uint32_t seq)
{
	return 8u + (seq * 131u + idx * 17u) % (max_len - 7u);
}

static void
wp_fill(uint8_t *b, uint32_t idx, uint32_t seq, uint32_t len)
{
	memcpy(b, &idx, 4);
	memcpy(b + 4, &seq, 4);
	for (uint32_t i = 8; i < len; i++)
		b[i] = (uint8_t)(idx * 7u + seq * 31u + i * 13u);
}

static void
wp_recv(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg)
{
	struct wp_flow *f = arg;
	static uint8_t got[WP_MAX_LEN + 1], want[WP_MAX_LEN]; /* one thread */
	(void)a;
	uint32_t seq = f->echoed + f->bad;
	uint32_t len = wp_len(f->idx, seq);
	size_t n = dpsctp_msg_copy(m, got, sizeof(got));
	wp_fill(want, f->idx, seq, len);
	bool ok = (m->flags & (DPSCTP_MSG_MORE | DPSCTP_MSG_CONT)) == 0 && m->sid == 0 &&
		  seq < f->sent && n == len && m->len == len && memcmp(got, want, len) == 0;
	if (ok) {
		f->echoed++;
		return;
	}
	if (f->bad++ < 3) {
		uint32_t gi = 0, gs = 0;
		if (n >= 8) {
			memcpy(&gi, got, 4);
			memcpy(&gs, got + 4, 4);
		}
		fprintf(stderr,
			"dd_wpeer: association %u: echo %u bad: %u bytes (want %u) on stream %u, "
			"names association %u message %u\n",
			f->idx, seq, m->len, len, m->sid, gi, gs);
	}
}

static void
wp_event(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	struct wp_flow *f = arg;
	(void)a;
	switch (ev->type) {
	case DPSCTP_EV_COMM_UP:
		f->up = true;
		n_up++;
		break;
	case DPSCTP_EV_SHUTDOWN_COMPLETE:
		f->ended = true;
		n_ended++;
		break;
	case DPSCTP_EV_COMM_LOST:
	case DPSCTP_EV_CANT_START:
		fprintf(stderr, "dd_wpeer: association %u (worker %u) %s (reason %u, cause %u)\n",
			f->idx, f->worker,
			ev->type == DPSCTP_EV_COMM_LOST ? "lost" : "could not start", ev->reason,
			ev->error);
		f->ended = f->failed = true;
		n_ended++;
		break;
	default:
		break;
	}
}

static const struct dpsctp_callbacks wp_cb = { wp_recv, wp_event, NULL };

/* Up to WP_IN_FLIGHT unanswered messages on f. */
static void
wp_pump(struct wp_flow *f)
{
	static uint8_t b[WP_MAX_LEN];
	while (!f->ended && f->sent < n_msgs && f->sent - f->echoed - f->bad < WP_IN_FLIGHT) {
		uint32_t len = wp_len(f->idx, f->sent);
		struct dpsctp_sndinfo si = { .sid = 0, .ppid = 0x5750 };
		wp_fill(b, f->idx, f->sent, len);
		if (dpsctp_send_bytes(f->a, &si, b, len) != 0)
			return; /* the send buffer is full: next iteration */
		f->sent++;
	}
}

static void
wp_poll(struct dpsctp *d, unsigned nw)
{
	for (unsigned w = 0; w < nw; w++)
		(void)dpsctp_poll(d, w);
}

/* Poll until done() or secs have gone by; whether done() held. */
static bool
wp_run(struct dpsctp *d, unsigned nw, double secs, bool (*done)(void), bool pump)
{
	uint64_t end = rte_get_tsc_cycles() + (uint64_t)(secs * (double)rte_get_tsc_hz());
	while (!done()) {
		if (rte_get_tsc_cycles() > end)
			return false;
		wp_poll(d, nw);
		for (uint32_t i = 0; pump && i < n_flows; i++)
			wp_pump(&flows[i]);
	}
	return true;
}

static bool
all_up(void)
{
	return n_up + n_ended == n_flows;
}

static bool
all_echoed(void)
{
	for (uint32_t i = 0; i < n_flows; i++)
		if (!flows[i].ended && flows[i].echoed + flows[i].bad < n_msgs)
			return false;
	return true;
}

static bool
all_ended(void)
{
	return n_ended == n_flows;
}

int
main(int argc, char **argv)
{
	struct dpsctp_config cfg;
	setvbuf(stdout, NULL, _IOLBF, 0);
	int st = app_init(&argc, &argv, &cfg, "dd_wpeer");
	if (st != 0)
		return st;
	struct sctp_addr pa[1];
	if (argc == 6)
		max_len = (uint32_t)atoi(argv[5]);
	if ((argc != 5 && argc != 6) || app_parse_peers(argv[1], pa, 1) != 1 ||
	    atoi(argv[2]) <= 0 || atoi(argv[2]) > 65535 || atoi(argv[3]) <= 0 ||
	    (uint32_t)atoi(argv[3]) > WP_MAX_N || atoi(argv[4]) <= 0 || max_len < 8 ||
	    max_len > WP_MAX_LEN) {
		fprintf(stderr, "usage: dd_wpeer [EAL args] -- [data-plane options] PEER PORT N M "
				"[MAXLEN] (N at most 1024, MAXLEN 8 .. 65536)\n");
		return 2;
	}
	uint16_t port = (uint16_t)atoi(argv[2]);
	n_flows = (uint32_t)atoi(argv[3]);
	n_msgs = (uint32_t)atoi(argv[4]);
	struct dpsctp *d = app_create(&cfg, NULL, NULL, "dd_wpeer");
	if (d == NULL)
		return 3;
	unsigned nw = dpsctp_workers(d);
	uint32_t per[64] = { 0 };
	for (uint32_t i = 0; i < n_flows; i++) {
		struct wp_flow *f = &flows[i];
		int rc = 0;
		f->idx = i;
		f->worker = i % nw;
		f->a = dpsctp_connect(d, f->worker, pa, 1, port, 0, &wp_cb, f, &rc);
		if (f->a == NULL) {
			fprintf(stderr, "dd_wpeer: connect %u on worker %u: %s\n", i, f->worker,
				strerror(-rc));
			f->ended = f->failed = true;
			n_ended++;
			failures++;
			continue;
		}
		per[f->worker % 64]++;
	}
	/* RFC timers (the INIT's 1 s) cover the first ARP's queue: 30 s is plenty. */
	if (!wp_run(d, nw, 30, all_up, false)) {
		fprintf(stderr, "dd_wpeer: %u of %u associations up after 30 s\n", n_up, n_flows);
		failures++;
	}
	if (!wp_run(d, nw, 60, all_echoed, true)) {
		fprintf(stderr, "dd_wpeer: not every echo came back within 60 s\n");
		failures++;
	}
	uint64_t total = (uint64_t)n_flows * n_msgs, good = 0, bad = 0;
	for (uint32_t i = 0; i < n_flows; i++) {
		struct wp_flow *f = &flows[i];
		good += f->echoed;
		bad += f->bad;
		failures += f->failed;
		if (!f->ended)
			(void)dpsctp_shutdown(f->a);
	}
	if (!wp_run(d, nw, 10, all_ended, false)) {
		fprintf(stderr, "dd_wpeer: %u of %u associations shut down after 10 s\n", n_ended,
			n_flows);
		failures++;
	}
	/* The last SHUTDOWN COMPLETE leaves before the port closes. */
	for (uint64_t until = rte_get_tsc_cycles() + rte_get_tsc_hz() / 50;
	     rte_get_tsc_cycles() < until;)
		wp_poll(d, nw);
	bool pass = failures == 0 && bad == 0 && good == total;
	printf("dd_wpeer: %u associations on %u workers (", n_flows, nw);
	for (unsigned w = 0; w < nw && w < 64; w++)
		printf("%s%u", w ? " " : "", per[w]);
	printf("), %" PRIu64 " of %" PRIu64 " echoed intact, %" PRIu64 " bad: %s\n", good, total,
	       bad, pass ? "PASS" : "FAIL");
	dpsctp_destroy(d);
	rte_eal_cleanup();
	return pass ? 0 : 1;
}
