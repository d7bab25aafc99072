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
#include <stdlib.h>
#include <string.h>

#include <rte_eth_ring.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "apps/common/app_common.h"
#include "apps/dpsctpd/dd.h"

/*
 * Echoes waiting for send space, one queue for all; an association's go
 * out in order, and only behind its own (one that stopped reading holds
 * up nobody else: dpsctpd_slow_reader). The peer's receive window counts them
 * (dpsctp_rx_flow_control(): a message is "consumed" once its echo is
 * sent), so a sender faster than the echoes can go back is slowed by the
 * window, not answered with drops; the queue holds at most a window of
 * messages (256 KiB of 64-byte ones by default).
 */
#define DD_PEER_QUEUE 65536u

/*
 * A message the data plane hands over in parts (DPSCTP_MSG_MORE: more
 * packets than one delivery takes, or more than half the receive window)
 * is put back together before it is echoed: echoed part by part it would
 * reach the application as several messages (100,000 bytes came
 * back as 92,928 + 7,072). The parts are kept by reference (indirect
 * mbufs), at most the send buffer (--sndbuf, the longest message
 * dpsctp_send() takes): a longer one could never be echoed, so its parts
 * are taken and dropped, counted (echo_dropped) and said once.
 *
 * Several messages of an association may be in parts at once: with DATA
 * one, with I-DATA (RFC 8260) one ordered message per stream and any
 * number of unordered ones, their parts interleaved. A part belongs to the
 * message of its stream, U bit and identifier (dpsctp_msg.mid: with
 * I-DATA the MID, with DATA the SSN). An association keeps up to
 * DD_PEER_PARTS of them at once; a message beyond that is dropped, its
 * window given back, and counted (echo_dropped): an echo client on 4
 * streams (dpsctp-sidecar-echo) has at most 4.
 *
 * The window: a part is given back at once while no echo of its
 * association waits (else a message longer than the window could never
 * complete); while some wait it stays counted (owed) until they are sent,
 * as a whole message stays counted until its echo is sent.
 */
#define DD_PEER_PARTS 16u

struct dd_peer_part {
	bool used;		  /* a message in parts: the record below */
	bool unordered;		  /* with sid and mid: which message */
	uint16_t sid;		  /* (the U bit is DPSCTP_MSG_UNORDERED's) */
	uint32_t mid;		  /* dpsctp_msg.mid */
	struct rte_mbuf *m;	  /* the parts so far, or NULL */
	struct dpsctp_sndinfo si; /* the message's stream, PPID and U bit */
	uint32_t len;		  /* bytes so far */
	uint32_t owed;		  /* of them, not yet given back to the window */
	bool dropping;		  /* the message is dropped: its later parts too */
};

/* One association's messages in parts: the callbacks' argument. */
struct dd_peer_slot {
	struct dpsctp_assoc *a; /* NULL: free */
	struct dd_peer_part msg[DD_PEER_PARTS];
	uint32_t queued; /* its echoes in the queue: a new one goes behind them */
};

static struct {
	bool echo;
	bool too_big_said;
	uint64_t msgs, bytes, echo_dropped;
	uint32_t msg_max; /* the longest echo: --sndbuf */
	/* One slot per association (--max-assocs): its callbacks' argument. */
	struct dd_peer_slot *slots;
	uint32_t n_slots;
	uint64_t owed; /* bytes the parts owe the windows, all slots */
	/* Echoes the send buffer had no room for, oldest first (references). */
	struct {
		struct dpsctp_assoc *a;
		struct dd_peer_slot *sl; /* its slot, or NULL */
		struct rte_mbuf *m;
		struct dpsctp_sndinfo si;
		uint32_t len; /* bytes the window gets back once it is sent */
	} q[DD_PEER_QUEUE];
	uint32_t head, n;
} dd_peer;

/* No echo of the slot's association waits any more: the bytes its parts
 * held for that reopen its window. */
static void
dd_peer_pay_owed(struct dd_peer_slot *sl)
{
	for (uint32_t k = 0; sl->a != NULL && k < DD_PEER_PARTS; k++) {
		struct dd_peer_part *p = &sl->msg[k];
		if (p->owed == 0)
			continue;
		(void)dpsctp_consumed(sl->a, p->owed);
		dd_peer.owed -= p->owed;
		p->owed = 0;
	}
}

/*
 * Send what waits, oldest first. An association whose echo finds no room
 * (its peer, an application that stopped reading, closed its window) has
 * the rest of its echoes moved behind the others, in their order, so one
 * slow reader holds up only itself: the queue is every association's.
 * Up to DD_PEER_BLOCKED associations are passed over in one go; beyond,
 * the rest waits for the next.
 */
#define DD_PEER_BLOCKED 64u

static void
dd_peer_drain(void)
{
	struct dpsctp_assoc *blocked[DD_PEER_BLOCKED];
	unsigned n_blocked = 0;
	for (uint32_t left = dd_peer.n; left != 0; left--) {
		typeof(dd_peer.q[0]) *e = &dd_peer.q[dd_peer.head];
		bool pass = false;
		for (unsigned k = 0; k < n_blocked && !pass; k++)
			pass = blocked[k] == e->a;
		int rc = pass		? -EAGAIN
			 : e->a != NULL ? dpsctp_send(e->a, &e->si, e->m)
					: -ENOTCONN;
		if (rc == -EAGAIN) {
			if (!pass && n_blocked == DD_PEER_BLOCKED)
				return;
			if (!pass)
				blocked[n_blocked++] = e->a;
			/* To the back (the slot after the last; itself when full). */
			dd_peer.q[(dd_peer.head + dd_peer.n) % DD_PEER_QUEUE] = *e;
			dd_peer.head = (dd_peer.head + 1) % DD_PEER_QUEUE;
			continue;
		}
		if (rc != 0) {
			rte_pktmbuf_free(e->m);
			dd_peer.echo_dropped++;
		}
		if (e->a != NULL && e->len != 0)
			(void)dpsctp_consumed(e->a, e->len); /* the window reopens by it */
		if (e->sl != NULL && --e->sl->queued == 0)
			dd_peer_pay_owed(e->sl);
		dd_peer.head = (dd_peer.head + 1) % DD_PEER_QUEUE;
		dd_peer.n--;
	}
}

/*
 * One whole message back by reference, after what of its association
 * already waits (after everything, for an association without a slot);
 * `owed` is what the window gets back once it is sent. Another
 * association's echoes waiting for room do not hold this one up.
 */
static void
dd_peer_echo(struct dpsctp_assoc *a, struct dd_peer_slot *sl, const struct dpsctp_sndinfo *si,
	     struct rte_mbuf *r, uint32_t owed)
{
	bool behind = sl != NULL ? sl->queued != 0 : dd_peer.n != 0;
	if (!behind && dpsctp_send(a, si, r) == 0) {
		if (owed != 0)
			(void)dpsctp_consumed(a, owed);
		return;
	}
	if (dd_peer.n == DD_PEER_QUEUE) {
		rte_pktmbuf_free(r);
		dd_peer.echo_dropped++;
		if (owed != 0)
			(void)dpsctp_consumed(a, owed);
		return;
	}
	typeof(dd_peer.q[0]) *e = &dd_peer.q[(dd_peer.head + dd_peer.n) % DD_PEER_QUEUE];
	e->a = a;
	e->sl = sl;
	if (sl != NULL)
		sl->queued++;
	e->m = r;
	e->si = *si;
	e->len = owed;
	dd_peer.n++;
}

/* The message being put back together in p is dropped; its later parts go too. */
static void
dd_peer_part_drop(struct dpsctp_assoc *a, struct dd_peer_part *p, bool too_big)
{
	rte_pktmbuf_free(p->m);
	p->m = NULL;
	if (p->owed != 0)
		(void)dpsctp_consumed(a, p->owed);
	dd_peer.owed -= p->owed;
	p->owed = 0;
	p->len = 0;
	p->dropping = true;
	dd_peer.echo_dropped++;
	if (too_big && !dd_peer.too_big_said) {
		fprintf(stderr,
			"dpsctpd: --loopback-peer: a message longer than %u bytes (--sndbuf) "
			"cannot be echoed: dropped, counted in echoes dropped\n",
			dd_peer.msg_max);
		dd_peer.too_big_said = true;
	}
}

/*
 * The record of the message m is a part of in slot sl: its own (same
 * stream, U bit and identifier), or for a first part a free one; NULL when there
 * is none.
 */
static struct dd_peer_part *
dd_peer_part_find(struct dd_peer_slot *sl, const struct dpsctp_msg *m)
{
	bool unordered = (m->flags & DPSCTP_MSG_UNORDERED) != 0;
	struct dd_peer_part *free_p = NULL;
	for (uint32_t k = 0; k < DD_PEER_PARTS; k++) {
		struct dd_peer_part *p = &sl->msg[k];
		if (p->used && p->sid == m->sid && p->mid == m->mid && p->unordered == unordered)
			return p;
		if (!p->used && free_p == NULL)
			free_p = p;
	}
	if (free_p == NULL || (m->flags & DPSCTP_MSG_CONT))
		return NULL; /* a continuation of nothing kept, or no room */
	*free_p = (struct dd_peer_part){
		.used = true, .unordered = unordered, .sid = m->sid, .mid = m->mid
	};
	return free_p;
}

/* A part of a message (MORE or CONT): into its record in the association's slot. */
static void
dd_peer_part(struct dpsctp_assoc *a, const struct dpsctp_msg *m, struct dd_peer_slot *sl)
{
	bool last = !(m->flags & DPSCTP_MSG_MORE);
	struct dd_peer_part *p = sl != NULL ? dd_peer_part_find(sl, m) : NULL;
	if (p == NULL) {
		/* No slot (see dd_peer_event), or DD_PEER_PARTS messages in parts
		 * already: the message cannot be put back together. */
		if (last)
			dd_peer.echo_dropped++;
		(void)dpsctp_consumed(a, m->len);
		return;
	}
	if (!(m->flags & DPSCTP_MSG_CONT)) { /* the first part: a new message */
		if (p->m != NULL)	     /* the last one never ended: it cannot be whole */
			dd_peer_part_drop(a, p, false);
		p->si = (struct dpsctp_sndinfo){ .sid = m->sid,
						 .ppid = m->ppid,
						 .flags = (m->flags & DPSCTP_MSG_UNORDERED)
								  ? DPSCTP_SEND_UNORDERED
								  : 0 };
		p->dropping = false;
	}
	if (p->dropping) {
		(void)dpsctp_consumed(a, m->len);
	} else if (m->len > dd_peer.msg_max - p->len) {
		(void)dpsctp_consumed(a, m->len);
		dd_peer_part_drop(a, p, true);
	} else if (m->len != 0) {
		struct rte_mbuf *r = dpsctp_msg_to_mbuf(a, m);
		/* A chain's segment count is 16 bits (RTE_MBUF_MAX_NB_SEGS). */
		if (r == NULL || (p->m != NULL && rte_pktmbuf_chain(p->m, r) != 0)) {
			rte_pktmbuf_free(r);
			(void)dpsctp_consumed(a, m->len);
			dd_peer_part_drop(a, p, false);
		} else {
			if (p->m == NULL)
				p->m = r;
			p->len += m->len;
			if (sl->queued == 0) {
				(void)dpsctp_consumed(a, m->len);
			} else {
				p->owed += m->len;
				dd_peer.owed += m->len;
			}
		}
	}
	if (!last)
		return;
	if (p->m != NULL) {
		struct rte_mbuf *whole = p->m;
		uint32_t owed = p->owed;
		dd_peer.owed -= owed;
		p->m = NULL;
		p->owed = 0;
		p->len = 0;
		dd_peer_echo(a, sl, &p->si, whole, owed);
	}
	*p = (struct dd_peer_part){ 0 }; /* the record is free again */
}

static void
dd_peer_recv(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg)
{
	dd_peer.bytes += m->len;
	if (!(m->flags & DPSCTP_MSG_MORE))
		dd_peer.msgs++; /* messages, not the parts of one */
	if (!dd_peer.echo)
		return; /* a sink: reassembly's window alone, as dpsctp-perf's sink */
	if (m->flags & (DPSCTP_MSG_MORE | DPSCTP_MSG_CONT)) {
		dd_peer_part(a, m, arg);
		return;
	}
	/* Back by reference to the received packet, after what already waits. */
	struct dpsctp_sndinfo si = { .sid = m->sid,
				     .ppid = m->ppid,
				     .flags = (m->flags & DPSCTP_MSG_UNORDERED)
						      ? DPSCTP_SEND_UNORDERED
						      : 0 };
	struct rte_mbuf *r = dpsctp_msg_to_mbuf(a, m);
	if (r == NULL) {
		dd_peer.echo_dropped++;
		(void)dpsctp_consumed(a, m->len);
		return;
	}
	dd_peer_echo(a, arg, &si, r, m->len);
}

static const struct dpsctp_callbacks dd_peer_cb;

/*
 * The association's messages in parts, dropped (counted, their window
 * given back) and their records freed: a RESTART (reassembly starts again,
 * the rest never comes).
 */
static void
dd_peer_parts_drop(struct dpsctp_assoc *a, struct dd_peer_slot *sl)
{
	for (uint32_t k = 0; k < DD_PEER_PARTS; k++) {
		struct dd_peer_part *p = &sl->msg[k];
		if (p->used && p->m != NULL)
			dd_peer_part_drop(a, p, false);
		*p = (struct dd_peer_part){ 0 };
	}
}

static void
dd_peer_event(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	struct dd_peer_slot *sl = arg;
	if (ev->type == DPSCTP_EV_COMM_UP && dd_peer.echo && sl == NULL) {
		/* Its slot for messages in parts; without one (more associations
		 * than --max-assocs cannot be) such messages are dropped, counted. */
		for (uint32_t i = 0; i < dd_peer.n_slots; i++)
			if (dd_peer.slots[i].a == NULL) {
				memset(&dd_peer.slots[i], 0, sizeof(dd_peer.slots[i]));
				dd_peer.slots[i].a = a;
				dpsctp_assoc_set_callbacks(a, &dd_peer_cb, &dd_peer.slots[i]);
				break;
			}
	}
	if (ev->type == DPSCTP_EV_RESTART && sl != NULL)
		dd_peer_parts_drop(a, sl);
	if (ev->type != DPSCTP_EV_COMM_LOST && ev->type != DPSCTP_EV_SHUTDOWN_COMPLETE)
		return;
	for (uint32_t i = 0; i < dd_peer.n; i++) {
		typeof(dd_peer.q[0]) *e = &dd_peer.q[(dd_peer.head + i) % DD_PEER_QUEUE];
		if (e->a == a) {
			e->a = NULL;  /* dropped when its turn comes */
			e->sl = NULL; /* the slot is freed below */
		}
	}
	if (sl != NULL) { /* its messages in parts go with the association */
		for (uint32_t k = 0; k < DD_PEER_PARTS; k++) {
			rte_pktmbuf_free(sl->msg[k].m);
			dd_peer.owed -= sl->msg[k].owed;
		}
		memset(sl, 0, sizeof(*sl));
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

/*
 * The net_ring pair, a queue pair per worker (--queues): what the peer's
 * worker q sends arrives on the daemon's queue q, whichever worker owns
 * the association, so with several workers the daemon hands packets over
 * by tag (docs/DEMUX.md) as it would behind a NIC's RSS.
 */
static int
dd_peer_ring_pair(const char *prefix, unsigned queues)
{
	if (queues == 1)
		return app_ring_pair(prefix);
	struct rte_ring *ab[RTE_MAX_QUEUES_PER_PORT], *ba[RTE_MAX_QUEUES_PER_PORT];
	char name[RTE_RING_NAMESIZE];
	for (unsigned q = 0; q < queues; q++) {
		snprintf(name, sizeof(name), "%s_ab%u", prefix, q);
		ab[q] = rte_ring_create(name, 4096, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(name, sizeof(name), "%s_ba%u", prefix, q);
		ba[q] = rte_ring_create(name, 4096, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (ab[q] == NULL || ba[q] == NULL)
			return -1;
	}
	char a[64], b[64];
	snprintf(a, sizeof(a), "%s_a", prefix);
	snprintf(b, sizeof(b), "%s_b", prefix);
	if (rte_eth_from_rings(a, ba, queues, ab, queues, SOCKET_ID_ANY) < 0 ||
	    rte_eth_from_rings(b, ab, queues, ba, queues, SOCKET_ID_ANY) < 0)
		return -1;
	return 0;
}

struct dpsctp *
dd_peer_create(struct dpsctp_config *cfg, bool echo)
{
	char err[256];
	if (dd_peer_ring_pair("ddlo", cfg->queues) != 0) {
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
	dd_peer.msg_max = pc.sndbuf;
	if (echo) {
		dd_peer.n_slots = pc.max_assocs;
		dd_peer.slots = calloc(dd_peer.n_slots, sizeof(*dd_peer.slots));
		if (dd_peer.slots == NULL) {
			fprintf(stderr, "dpsctpd: --loopback-peer: no memory\n");
			dpsctp_destroy(p);
			return NULL;
		}
		/* queued echoes count against the window (see DD_PEER_QUEUE) */
		(void)dpsctp_rx_flow_control(p, 1);
	}
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
	(void)dpsctp_stop(p, 0); /* its associations end first: their slots are freed */
	for (; dd_peer.n != 0; dd_peer.n--, dd_peer.head = (dd_peer.head + 1) % DD_PEER_QUEUE)
		rte_pktmbuf_free(dd_peer.q[dd_peer.head].m);
	for (uint32_t i = 0; i < dd_peer.n_slots; i++)
		for (uint32_t k = 0; k < DD_PEER_PARTS; k++)
			rte_pktmbuf_free(dd_peer.slots[i].msg[k].m);
	free(dd_peer.slots);
	dd_peer.slots = NULL;
	dd_peer.n_slots = 0;
	dpsctp_destroy(p);
}
