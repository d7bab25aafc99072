/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctpd --loopback-peer sink|echo: the daemon's port is one end of a
 * net_ring pair and a peer lives on the other end, in this process, polled
 * by the same thread — a second dpsctp instance that accepts associations
 * on DD_PEER_PORT and drops (sink) or echoes (echo) every message.
 *
 * What it is for: a sidecar with no NIC, no root and no second process —
 * the demo `./dev.sh run` shows, and the benchmark that compares the
 * sidecar with embedded mode (bench/sidecar/): dpsctp-perf --loopback polls
 * both of its ends on one lcore; here dpsctpd polls its own instance and
 * the peer on one lcore, and the application has its own core, as it does
 * in any sidecar deployment.
 *
 * The daemon's instance has DD_PEER_DAEMON_IP, the peer DD_PEER_IP (both
 * /24 on the ring); applications connect to DD_PEER_IP port DD_PEER_PORT.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_mbuf.h>

#include "apps/common/app_common.h"
#include "apps/dpsctpd/dd.h"

/*
 * Echoes waiting for send space. The peer's receive window counts them
 * (dpsctp_rx_flow_control(): a message is "consumed" once its echo is
 * sent), so a sender faster than the echoes can go back is slowed by the
 * window, not answered with drops; the queue holds at most a window of
 * messages (256 KiB of 64-byte ones by default).
 */
#define DD_PEER_QUEUE 65536u

static struct {
	bool echo;
	uint64_t msgs, bytes, echo_dropped;
	/* Echoes the send buffer had no room for, oldest first (references). */
	struct {
		struct dpsctp_assoc *a;
		struct rte_mbuf *m;
		struct dpsctp_sndinfo si;
		uint32_t len;
	} q[DD_PEER_QUEUE];
	uint32_t head, n;
} dd_peer;

static void
dd_peer_drain(void)
{
	while (dd_peer.n != 0) {
		typeof(dd_peer.q[0]) *e = &dd_peer.q[dd_peer.head];
		int rc = e->a != NULL ? dpsctp_send(e->a, &e->si, e->m) : -ENOTCONN;
		if (rc == -EAGAIN)
			return;
		if (rc != 0) {
			rte_pktmbuf_free(e->m);
			dd_peer.echo_dropped++;
		}
		if (e->a != NULL)
			(void)dpsctp_consumed(e->a, e->len); /* the window reopens by it */
		dd_peer.head = (dd_peer.head + 1) % DD_PEER_QUEUE;
		dd_peer.n--;
	}
}

static void
dd_peer_recv(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg)
{
	(void)arg;
	dd_peer.msgs++;
	dd_peer.bytes += m->len;
	if (!dd_peer.echo)
		return; /* a sink: reassembly's window alone, as dpsctp-perf's sink */
	/* Back by reference to the received packet, after what already waits. */
	struct dpsctp_sndinfo si = { m->sid, m->ppid,
				     (m->flags & DPSCTP_MSG_UNORDERED) ? DPSCTP_SEND_UNORDERED
								       : 0 };
	struct rte_mbuf *r = dpsctp_msg_to_mbuf(a, m);
	if (r == NULL) {
		dd_peer.echo_dropped++;
		(void)dpsctp_consumed(a, m->len);
		return;
	}
	if (dd_peer.n == 0 && dpsctp_send(a, &si, r) == 0) {
		(void)dpsctp_consumed(a, m->len);
		return;
	}
	if (dd_peer.n == DD_PEER_QUEUE) {
		rte_pktmbuf_free(r);
		dd_peer.echo_dropped++;
		(void)dpsctp_consumed(a, m->len);
		return;
	}
	typeof(dd_peer.q[0]) *e = &dd_peer.q[(dd_peer.head + dd_peer.n) % DD_PEER_QUEUE];
	e->a = a;
	e->m = r;
	e->si = si;
	e->len = m->len;
	dd_peer.n++;
}

static void
dd_peer_event(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	(void)arg;
	if (ev->type == DPSCTP_EV_COMM_LOST || ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE)
		for (uint32_t i = 0; i < dd_peer.n; i++) {
			typeof(dd_peer.q[0]) *e = &dd_peer.q[(dd_peer.head + i) % DD_PEER_QUEUE];
			if (e->a == a)
				e->a = NULL; /* dropped when its turn comes */
		}
}

static void
dd_peer_space(struct dpsctp_assoc *a, uint32_t free_bytes, void *arg)
{
	(void)a;
	(void)free_bytes;
	(void)arg;
	dd_peer_drain();
}

static const struct dpsctp_callbacks dd_peer_cb = { dd_peer_recv, dd_peer_event, dd_peer_space };

struct dpsctp *
dd_peer_create(struct dpsctp_config *cfg, bool echo)
{
	char err[256];
	if (app_ring_pair("ddlo") != 0) {
		fprintf(stderr, "dpsctpd: --loopback-peer: cannot make the net_ring pair\n");
		return NULL;
	}
	/* The daemon's own instance goes on the other end (dd_main.c). */
	cfg->n_ports = 0; /* the ring replaces any --port and --ip */
	cfg->n_ips = 0;
	struct dpsctp_config pc = *cfg;
	pc.n_ports = 0;
	pc.n_ips = 0;
	if (dpsctp_config_set(&pc, "port", "ethdev:net_ring_ddlo_b", err, sizeof(err)) != 0 ||
	    dpsctp_config_set(&pc, "ip", DD_PEER_IP "/24", err, sizeof(err)) != 0 ||
	    dpsctp_config_set(cfg, "port", "ethdev:net_ring_ddlo_a", err, sizeof(err)) != 0 ||
	    dpsctp_config_set(cfg, "ip", DD_PEER_DAEMON_IP "/24", err, sizeof(err)) != 0) {
		fprintf(stderr, "dpsctpd: --loopback-peer: %s\n", err);
		return NULL;
	}
	pc.telemetry = false; /* /dpsctp/ describes the daemon's instance */
	struct dpsctp *p = dpsctp_create(&pc, err, sizeof(err));
	if (p == NULL) {
		fprintf(stderr, "dpsctpd: --loopback-peer: %s\n", err);
		return NULL;
	}
	dd_peer.echo = echo;
	if (echo) /* queued echoes count against the window (see DD_PEER_QUEUE) */
		(void)dpsctp_rx_flow_control(p, 1);
	if (dpsctp_listen(p, DD_PEER_PORT, &dd_peer_cb, NULL) != 0) {
		fprintf(stderr, "dpsctpd: --loopback-peer: cannot listen on %u\n", DD_PEER_PORT);
		dpsctp_destroy(p);
		return NULL;
	}
	return p;
}

void
dd_peer_stats(uint64_t *msgs, uint64_t *bytes, uint64_t *echo_dropped)
{
	*msgs = dd_peer.msgs;
	*bytes = dd_peer.bytes;
	*echo_dropped = dd_peer.echo_dropped;
}

void
dd_peer_destroy(struct dpsctp *p)
{
	for (; dd_peer.n != 0; dd_peer.n--, dd_peer.head = (dd_peer.head + 1) % DD_PEER_QUEUE)
		rte_pktmbuf_free(dd_peer.q[dd_peer.head].m);
	dpsctp_destroy(p);
}
