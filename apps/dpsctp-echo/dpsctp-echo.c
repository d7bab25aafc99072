/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctp-echo: the smallest complete program on the embedded API
 * (dataplane/dpsctp.h), written to be read (docs/API.md walks through it).
 *
 *   server: accept associations, send every message back on its stream
 *           with its PPID, without copying it (dpsctp_msg_to_mbuf());
 *   client: send N messages with a CRC32c of their bytes in their first
 *           8 bytes, check every echo, exit 0 when all came back intact;
 *   --loopback: both in one process over a net_ring pair (no NIC, no
 *           hugepages), the demo ./dev.sh run shows.
 *
 * The main thread polls the instances itself (dpsctp_poll()): an instance
 * that is never started belongs to the thread that polls it, so every call
 * here runs at once. SIGINT and SIGTERM stop it cleanly: associations shut
 * down, every mbuf back, the EAL cleaned up.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "apps/common/app_common.h"
#include "dataplane/config.h"
#include "dataplane/dpsctp.h"

#define ECHO_PORT_DEFAULT 5001
#define ECHO_HDR	  8u	     /* sequence number, CRC32c of the rest: both big-endian */
#define ECHO_PENDING	  256u	     /* server: first room for echoes waiting for send space */
#define ECHO_COPY_MAX	  512u	     /* server: echoes up to this size are copied */
#define ECHO_PARTS	  64u	     /* server: messages being put back together at once */
#define ECHO_MSG_MAX	  (1u << 20) /* server: the longest of them */

static volatile sig_atomic_t stop_requested;

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* One side's state; the callbacks get it as their argument. */
struct side {
	const char *name;
	bool server;
	struct dpsctp_assoc *a;
	bool up, done, failed;
	uint32_t to_send, sent, echoed, bad;
	/*
	 * Client, --abort-after: abort once this many echoes are in (0: never),
	 * with messages still in flight; what the abort reported failed
	 * (SEND_FAILED), and whether it happened and how the association ended.
	 */
	uint32_t abort_after, send_failed;
	bool aborted, abort_seen;
	uint32_t len;
	uint16_t streams;
	uint8_t *buf;
	/*
	 * Server: echoes the send buffer had no room for, oldest first, copied
	 * out of the received mbufs: holding those would pin receive buffers the
	 * data plane needs to read the client's SACKs. The server runs with
	 * receive flow control (dpsctp_rx_flow_control()): a message counts
	 * against its association's receive window until its echo is sent, so a
	 * client faster than the echoes can go back (a loaded machine, a lossy
	 * return path) is held back by the window instead of answered with
	 * drops, and the queue holds at most a window of messages per
	 * association (it grows, by doubling, to what the windows allow).
	 */
	struct pending {
		struct dpsctp_assoc *a; /* the association it goes back on; NULL: it ended */
		uint8_t *bytes;
		uint32_t len;
		uint32_t owed; /* bytes the window gets back once it is sent */
		struct dpsctp_sndinfo si;
	} * pending;
	uint32_t p_head, p_count, p_room;
	bool draining; /* drain() runs: a call from inside it returns at once */
	/*
	 * Messages delivered in parts (DPSCTP_MSG_MORE, then DPSCTP_MSG_CONT),
	 * one per association at a time: the server copies the parts together
	 * and echoes the whole message (part by part it would go back as
	 * several); the client checks the whole echo. A part's bytes go back to
	 * the window at once while no echo waits (a message longer than the
	 * window could not complete otherwise), else once none does (owed).
	 */
	/*
	 * A message arriving in parts, told apart by (association, stream, U
	 * bit, mid): with I-DATA the parts of several messages interleave
	 * (dpsctp_msg.mid).
	 */
	struct part {
		struct dpsctp_assoc *a; /* NULL: a free slot */
		uint32_t mid;
		uint32_t unordered; /* DPSCTP_MSG_UNORDERED or 0 */
		uint8_t *bytes;
		uint32_t len, owed;
		bool dropped; /* too long, or no memory: the rest is dropped too */
		struct dpsctp_sndinfo si;
	} parts[ECHO_PARTS];
};

/*
 * Server: send queued echoes, oldest first, each on its own association,
 * until one has no room (its on_space calls us again).
 */
static void
drain(struct side *s)
{
	/*
	 * dpsctp_consumed() may hand over the next message at once (on_recv(),
	 * which queues it and calls drain() again): one drain at a time, and an
	 * echo leaves the queue before its window hears of it.
	 */
	if (s->draining)
		return;
	s->draining = true;
	do {
		while (s->p_count != 0) {
			struct pending p = s->pending[s->p_head];
			int rc = p.a != NULL ? dpsctp_send_bytes(p.a, &p.si, p.bytes, p.len) : 0;
			if (rc == -EAGAIN || rc == -ENOMEM) {
				s->draining = false;
				return; /* on_space again */
			}
			if (rc != 0)
				s->bad++;
			s->p_head = (s->p_head + 1) % s->p_room;
			s->p_count--;
			free(p.bytes);
			if (p.a != NULL && p.owed != 0)
				(void)dpsctp_consumed(p.a, p.owed); /* the window reopens by it */
		}
		/* No echo waits: what messages in parts held back reopens the windows. */
		for (unsigned i = 0; i < ECHO_PARTS; i++)
			if (s->parts[i].a != NULL && s->parts[i].owed != 0) {
				uint32_t owed = s->parts[i].owed;
				s->parts[i].owed = 0;
				(void)dpsctp_consumed(s->parts[i].a, owed);
			}
	} while (s->p_count != 0); /* echoes queued meanwhile */
	s->draining = false;
}

/* Server: room for one more waiting echo (the windows bound how many). */
static bool
pending_room(struct side *s)
{
	if (s->p_count < s->p_room)
		return true;
	uint32_t room = s->p_room != 0 ? 2u * s->p_room : ECHO_PENDING;
	struct pending *p = malloc((size_t)room * sizeof(*p));
	if (p == NULL)
		return false;
	for (uint32_t i = 0; i < s->p_count; i++)
		p[i] = s->pending[(s->p_head + i) % s->p_room];
	free(s->pending);
	s->pending = p;
	s->p_head = 0;
	s->p_room = room;
	return true;
}

/* Client: fill message k and send it; false when the buffer is full. */
static bool
send_one(struct side *s)
{
	uint32_t k = s->sent;
	for (uint32_t i = ECHO_HDR; i < s->len; i++)
		s->buf[i] = (uint8_t)(k * 7u + i);
	uint32_t crc = dpsctp_crc32c(0, s->buf + ECHO_HDR, s->len - ECHO_HDR);
	uint32_t be[2] = { htonl(k), htonl(crc) };
	memcpy(s->buf, be, sizeof(be));
	struct dpsctp_sndinfo si = {
		(uint16_t)(k % s->streams), htonl(k), 0, DPSCTP_PR_NONE, 0, 0
	};
	int rc = dpsctp_send_bytes(s->a, &si, s->buf, s->len);
	if (rc == -EAGAIN || rc == -ENOMEM)
		return false; /* on_space calls us again */
	if (rc != 0) {
		fprintf(stderr, "%s: send %u: %s\n", s->name, k, strerror(-rc));
		s->failed = true;
		return false;
	}
	s->sent++;
	return true;
}

/* An association ended: its queued echoes have nowhere to go. */
static void
drop_pending(struct side *s, const struct dpsctp_assoc *a)
{
	for (unsigned i = 0; i < ECHO_PARTS; i++)
		if (s->parts[i].a == a) {
			free(s->parts[i].bytes);
			s->parts[i] = (struct part){ 0 };
		}
	for (uint32_t i = 0; i < s->p_count; i++) {
		struct pending *p = &s->pending[(s->p_head + i) % s->p_room];
		if (p->a == a)
			p->a = NULL;
	}
	drain(s);
}

static void
pump(struct side *s)
{
	while (s->a != NULL && s->sent < s->to_send && send_one(s))
		;
}

static void
on_event(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	struct side *s = arg;
	switch (ev->type) {
	case DPSCTP_EV_COMM_UP:
		printf("%s: association up, %u streams out, %u in\n", s->name, ev->outbound_streams,
		       ev->inbound_streams);
		s->a = a;
		s->up = true;
		if (!s->server)
			pump(s);
		break;
	case DPSCTP_EV_SHUTDOWN_COMPLETE:
		printf("%s: association closed\n", s->name);
		drop_pending(s, a);
		s->done = true;
		s->a = NULL;
		break;
	case DPSCTP_EV_SEND_FAILED:
		s->send_failed++;
		break;
	case DPSCTP_EV_COMM_LOST:
	case DPSCTP_EV_CANT_START:
		if (ev->type == DPSCTP_EV_COMM_LOST && s->aborted &&
		    ev->reason == DPSCTP_REASON_USER_ABORT) {
			/* --abort-after: the end asked for, not a failure. */
			printf("%s: association aborted\n", s->name);
			s->abort_seen = s->done = true;
			s->a = NULL;
			break;
		}
		fprintf(stderr, "%s: association lost (reason %u, cause %u)\n", s->name, ev->reason,
			ev->error);
		drop_pending(s, a);
		s->failed = s->done = true;
		s->a = NULL;
		break;
	default:
		break;
	}
}

/*
 * Server: one part of a message delivered in parts. The whole message goes
 * back once its last part is in, through the queue of echoes (in order).
 * One that cannot be put back together (more than ECHO_PARTS at once,
 * longer than ECHO_MSG_MAX, no memory) is dropped whole and counted.
 */
/* The slot of the message m is a part of: its own, or a free one for a first part; NULL: none. */
static struct part *
part_slot(struct side *s, struct dpsctp_assoc *a, const struct dpsctp_msg *m)
{
	uint32_t u = m->flags & DPSCTP_MSG_UNORDERED;
	struct part *free_p = NULL;
	for (unsigned i = 0; i < ECHO_PARTS; i++) {
		struct part *q = &s->parts[i];
		if (q->a == a && q->si.sid == m->sid && q->mid == m->mid && q->unordered == u)
			return (m->flags & DPSCTP_MSG_CONT) ? q : NULL;
		if (q->a == NULL && free_p == NULL)
			free_p = q;
	}
	if (free_p == NULL || (m->flags & DPSCTP_MSG_CONT))
		return NULL;
	*free_p = (struct part){
		.a = a, .mid = m->mid, .unordered = u, .si = { .sid = m->sid, .ppid = m->ppid }
	};
	return free_p;
}

/* Client: an echo of s->len bytes whose checksum holds. */
static void
echo_check(struct side *s, const uint8_t *b, size_t n)
{
	uint32_t be[2];
	if (n < ECHO_HDR) {
		s->bad++;
		return;
	}
	memcpy(be, b, sizeof(be));
	if (n != s->len || ntohl(be[1]) != dpsctp_crc32c(0, b + ECHO_HDR, n - ECHO_HDR))
		s->bad++;
	else
		s->echoed++;
}

static void
server_part(struct side *s, struct dpsctp_assoc *a, const struct dpsctp_msg *m)
{
	struct part *p = NULL, *free_p = NULL;
	uint32_t u = m->flags & DPSCTP_MSG_UNORDERED;
	for (unsigned i = 0; i < ECHO_PARTS && p == NULL; i++) {
		const struct part *q = &s->parts[i];
		if (q->a == a && q->si.sid == m->sid && q->mid == m->mid && q->unordered == u)
			p = &s->parts[i];
		else if (s->parts[i].a == NULL && free_p == NULL)
			free_p = &s->parts[i];
	}
	bool last = !(m->flags & DPSCTP_MSG_MORE);
	if (p == NULL && ((m->flags & DPSCTP_MSG_CONT) || free_p == NULL)) {
		(void)dpsctp_consumed(a, m->len); /* its start found no slot */
		if (last)
			s->bad++;
		return;
	}
	if (p != NULL && !(m->flags & DPSCTP_MSG_CONT)) {
		/* A new message while the last one never ended: that one cannot be whole. */
		free(p->bytes);
		(void)dpsctp_consumed(a, p->owed);
		s->bad++;
		*p = (struct part){ 0 };
		free_p = p;
		p = NULL;
	}
	if (p == NULL) {
		p = free_p;
		*p = (struct part){ .a = a,
				    .mid = m->mid,
				    .unordered = u,
				    .si = { .sid = m->sid, .ppid = m->ppid } };
	}
	uint8_t *b = !p->dropped && m->len <= ECHO_MSG_MAX - p->len
			     ? realloc(p->bytes, (size_t)p->len + m->len)
			     : NULL;
	if (b == NULL) {
		free(p->bytes);
		p->bytes = NULL;
		p->dropped = true;
		(void)dpsctp_consumed(a, m->len + p->owed);
		p->owed = 0;
	} else {
		p->bytes = b;
		p->len += (uint32_t)dpsctp_msg_copy(m, b + p->len, m->len);
		if (s->p_count == 0)
			(void)dpsctp_consumed(a, m->len);
		else
			p->owed += m->len;
	}
	if (!last)
		return;
	if (m->flags & DPSCTP_MSG_ABORTED)
		p->dropped = true; /* its sender gave it up: not a message */
	if (p->dropped || !pending_room(s)) {
		free(p->bytes);
		(void)dpsctp_consumed(a, p->owed);
		s->bad++; /* the client will see it missing */
	} else {
		struct pending *q = &s->pending[(s->p_head + s->p_count) % s->p_room];
		*q = (struct pending){ a, p->bytes, p->len, p->owed, p->si };
		s->p_count++;
	}
	*p = (struct part){ 0 };
	drain(s);
}

static void
on_recv(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg)
{
	struct side *s = arg;
	if (s->server && (m->flags & (DPSCTP_MSG_MORE | DPSCTP_MSG_CONT))) {
		server_part(s, a, m);
		return;
	}
	if (s->server) {
		struct dpsctp_sndinfo si = { m->sid, m->ppid, 0, DPSCTP_PR_NONE, 0, 0 };
		/* A large message in one packet goes back without a copy: the reply
		 * refers to the received packet. Small ones are copied (a few dozen
		 * share one mbuf) rather than pin a received packet each. */
		if (m->nsegs == 1 && m->len > ECHO_COPY_MAX && s->p_count == 0) {
			struct rte_mbuf *reply = dpsctp_msg_to_mbuf(a, m);
			if (reply != NULL && dpsctp_send(a, &si, reply) == 0) {
				(void)dpsctp_consumed(a, m->len);
				return;
			}
			rte_pktmbuf_free(reply);
		}
		if (m->len <= ECHO_COPY_MAX && s->p_count == 0) {
			uint8_t small[ECHO_COPY_MAX];
			size_t n = dpsctp_msg_copy(m, small, sizeof(small));
			if (dpsctp_send_bytes(a, &si, small, n) == 0) {
				(void)dpsctp_consumed(a, m->len);
				return;
			}
		}
		/* Otherwise (no room now, or several packets: sending a chain copies
		 * it anyway) the echo waits in order, in our own memory, and its
		 * bytes stay counted in the window until it is sent (drain()). */
		uint8_t *copy = malloc(m->len);
		if (copy == NULL || !pending_room(s)) {
			free(copy);
			s->bad++; /* the client will see it missing */
			(void)dpsctp_consumed(a, m->len);
			return;
		}
		struct pending *p = &s->pending[(s->p_head + s->p_count) % s->p_room];
		p->len = (uint32_t)dpsctp_msg_copy(m, copy, m->len);
		p->owed = p->len;
		p->a = a;
		p->bytes = copy;
		p->si = si;
		s->p_count++;
		drain(s);
		return;
	}
	/* A whole echo is checked in the second third of the client's buffer;
	 * one in parts is put together in a part slot first, as the server does
	 * (other messages' parts may come between its own: with I-DATA, those
	 * of other echoes in parts too). */
	if (m->flags & (DPSCTP_MSG_MORE | DPSCTP_MSG_CONT)) {
		struct part *p = part_slot(s, a, m);
		if (p == NULL) {
			s->bad += !(m->flags & DPSCTP_MSG_MORE);
			return;
		}
		uint8_t *nb = m->len <= ECHO_MSG_MAX - p->len
				      ? realloc(p->bytes, (size_t)p->len + m->len)
				      : NULL;
		if (nb != NULL) {
			p->bytes = nb;
			p->len += (uint32_t)dpsctp_msg_copy(m, nb + p->len, m->len);
		} else {
			p->dropped = true;
		}
		if (m->flags & DPSCTP_MSG_MORE)
			return;
		if (p->dropped || (m->flags & DPSCTP_MSG_ABORTED))
			s->bad++;
		else
			echo_check(s, p->bytes, p->len);
		free(p->bytes);
		*p = (struct part){ 0 };
		return;
	}
	uint8_t *b = s->buf + s->len;
	(void)dpsctp_msg_copy(m, b, s->len);
	echo_check(s, b, m->len);
}

static void
on_space(struct dpsctp_assoc *a, uint32_t free_bytes, void *arg)
{
	struct side *s = arg;
	(void)free_bytes;
	(void)a;
	if (s->server)
		drain(s);
	else
		pump(s);
}

static const struct dpsctp_callbacks callbacks = { on_recv, on_event, on_space };

/* The program's own options (the data plane's are dpsctp_config's). */
struct echo_opts {
	bool server, loopback;
	const char *peers;    /* -c */
	uint32_t count;	      /* -n */
	uint32_t len;	      /* -l */
	uint16_t streams;     /* --streams */
	bool hold;	      /* --hold */
	uint32_t abort_after; /* --abort-after */
};

#define EO(m) APP_OPT_FIELD(struct echo_opts, m)

static const struct app_opt echo_opt_table[] = {
	{ .kind = APP_OPT_FLAG,
	  .short_name = 's',
	  EO(server),
	  .help = "server: echo every message back" },
	{ .kind = APP_OPT_ADDRS,
	  .short_name = 'c',
	  EO(peers),
	  .arg = "PEER[,PEER]",
	  .help = "client: connect to the peer's address(es) (multi-homing)",
	  .max = 4 },
	{ .kind = APP_OPT_FLAG,
	  .name = "loopback",
	  EO(loopback),
	  .help = "client and server in one process over net_ring" },
	{ .kind = APP_OPT_UINT,
	  .short_name = 'n',
	  EO(count),
	  .arg = "N",
	  .help = "client: messages to send",
	  .max = UINT32_MAX - 1 },
	{ .kind = APP_OPT_UINT,
	  .short_name = 'l',
	  EO(len),
	  .arg = "BYTES",
	  .help = "client: message size",
	  .min = ECHO_HDR,
	  .max = 65000 },
	{ .kind = APP_OPT_UINT,
	  .name = "streams",
	  EO(streams),
	  .arg = "S",
	  .help = "client: streams to spread the messages over",
	  .min = 1,
	  .max = UINT16_MAX },
	{ .kind = APP_OPT_FLAG,
	  .name = "hold",
	  EO(hold),
	  .help = "client: after the run, keep the port open without polling it until its "
		  "link goes down (the peer left) or a signal, at most 30 s" },
	{ .kind = APP_OPT_UINT,
	  .name = "abort-after",
	  EO(abort_after),
	  .arg = "N",
	  .help = "client: abort the association (RFC 9260 §9.1) once N echoes are in, with "
		  "messages in flight, instead of shutting it down; every echo that came is "
		  "checked, the rest were failed by the abort (0: never)",
	  .max = UINT32_MAX - 1 },
	{ .kind = APP_OPT_HELP, .name = "help", .short_name = 'h', .help = "this help" },
	{ 0 },
};

static const struct echo_opts echo_opt_defaults = { .count = 1000, .len = 64, .streams = 4 };

static void
usage(FILE *f)
{
	fprintf(f, "usage: dpsctp-echo [EAL args] -- [options] (-s | -c PEER[,PEER...] | "
		   "--loopback)\n");
	app_opts_usage(f, echo_opt_table, &echo_opt_defaults);
	fprintf(f,
		"The SCTP port is --sctp-port (default %d). Exit status: 0 every echo\n"
		"intact, 1 a failure (association lost, bad echo), 2 bad usage, 3 the\n"
		"data plane would not start.\n\nData-plane options:\n",
		ECHO_PORT_DEFAULT);
	dpsctp_config_usage(f);
}

/* The program's options after the data plane's: 0, 1 help shown, 2 bad usage (said why). */
static int
parse_options(struct echo_opts *o, int argc, char **argv)
{
	char err[256];
	*o = echo_opt_defaults;
	int rc = app_opts_parse(echo_opt_table, o, argc, argv, NULL, err, sizeof(err));
	if (rc == 1) {
		usage(stdout);
		return 1;
	}
	if (rc == 0 && o->server + (o->peers != NULL) + o->loopback != 1) {
		snprintf(err, sizeof(err), "choose one of -s, -c PEER and --loopback (try -h)");
		rc = -EINVAL;
	}
	if (rc == 0 && o->abort_after != 0 && o->abort_after >= o->count) {
		snprintf(err, sizeof(err),
			 "--abort-after %u: not below -n %u (the abort must find messages in "
			 "flight)",
			 o->abort_after, o->count);
		rc = -EINVAL;
	}
	if (rc != 0) {
		fprintf(stderr, "dpsctp-echo: %s\n", err);
		return 2;
	}
	return 0;
}

/* One side each; the callbacks get theirs as their argument. */
static struct side cli = { .name = "client" };
static struct side srv = { .name = "server", .server = true };

/* The instances: both ends over a net_ring pair (--loopback), or one. -1, or the exit status. */
static int
create_ends(const struct echo_opts *o, struct dpsctp_config *cfg, struct dpsctp **dc,
	    struct dpsctp **ds)
{
	if (o->loopback) {
		if (app_ring_pair("dpecho") != 0) {
			fprintf(stderr, "dpsctp-echo: cannot make the net_ring pair\n");
			return 3;
		}
		/* Half the memory for each end (without hugepages, app_common.h). */
		void *hold = app_hold_half();
		*dc = app_create(cfg, "ethdev:net_ring_dpecho_a", "10.0.0.1/24", "dpsctp-echo");
		app_release(hold);
		if (*dc == NULL)
			return 3; /* its line said why, and which -m would do */
		*ds = app_create(cfg, "ethdev:net_ring_dpecho_b", "10.0.0.2/24", "dpsctp-echo");
	} else if (o->server) {
		*ds = app_create(cfg, NULL, NULL, "dpsctp-echo");
	} else {
		*dc = app_create(cfg, NULL, NULL, "dpsctp-echo");
	}
	if ((o->loopback || o->server) && *ds == NULL)
		return 3;
	if ((o->loopback || !o->server) && *dc == NULL)
		return 3;
	return -1;
}

/* The server listens, the client connects. -1, or the exit status. */
static int
start(const struct echo_opts *o, uint16_t port, struct dpsctp *dc, struct dpsctp *ds)
{
	/* The server's windows count the echoes it still owes (struct side). */
	if (ds != NULL && dpsctp_rx_flow_control(ds, 1) != 0) {
		fprintf(stderr, "dpsctp-echo: cannot turn on receive flow control\n");
		return 3;
	}
	if (ds != NULL && dpsctp_listen(ds, port, &callbacks, &srv) != 0) {
		fprintf(stderr, "dpsctp-echo: cannot listen on port %u\n", port);
		return 3;
	}
	if (ds != NULL && !o->loopback) /* a script knows when to start its client */
		printf("server: listening on SCTP port %u\n", port);
	if (dc == NULL)
		return -1;
	struct sctp_addr addr[4];
	int na = app_parse_peers(o->loopback ? "10.0.0.2" : o->peers, addr, 4);
	int rc;
	if (na <= 0) {
		fprintf(stderr, "dpsctp-echo: bad peer address list \"%s\"\n", o->peers);
		return 2;
	}
	if (dpsctp_connect(dc, 0, addr, (unsigned)na, port, 0, &callbacks, &cli, &rc) == NULL) {
		fprintf(stderr, "dpsctp-echo: connect: %s\n", strerror(-rc));
		return 1;
	}
	return -1;
}

/*
 * The loop: poll until the client has every echo (or a signal); a server
 * runs until signalled. Then the last packets out. The seconds it took.
 */
static double
poll_until_done(struct dpsctp *dc, struct dpsctp *ds, bool loopback)
{
	uint64_t t0 = rte_get_tsc_cycles(), closing = 0;
	/* A client that sees no echo for 10 s gives up (a lost echo never comes). */
	uint64_t hz = rte_get_tsc_hz(), progress_at = t0;
	uint32_t last_echoed = 0;
	while (!stop_requested) {
		if (dc != NULL)
			(void)dpsctp_poll(dc, 0);
		if (ds != NULL)
			(void)dpsctp_poll(ds, 0);
		if (dc == NULL)
			continue; /* a server runs until signalled */
		if (cli.done || cli.failed)
			break;
		if (cli.echoed != last_echoed) {
			last_echoed = cli.echoed;
			progress_at = rte_get_tsc_cycles();
		} else if (rte_get_tsc_cycles() - progress_at > 10 * hz) {
			fprintf(stderr, "client: no echo for 10 s; giving up\n");
			cli.failed = true;
			break;
		}
		if (cli.abort_after != 0 && cli.echoed >= cli.abort_after && !cli.aborted) {
			cli.aborted = true;
			(void)dpsctp_abort(cli.a);
		}
		if (cli.echoed + cli.bad == cli.to_send && closing == 0 && !cli.aborted) {
			closing = 1;
			(void)dpsctp_shutdown(cli.a);
		}
	}
	double secs = (double)(rte_get_tsc_cycles() - t0) / (double)rte_get_tsc_hz();
	/* The last packet (our SHUTDOWN COMPLETE) must leave before the port
	 * closes: a few more milliseconds of polling. */
	for (uint64_t until = rte_get_tsc_cycles() + rte_get_tsc_hz() / 50;
	     dc != NULL && rte_get_tsc_cycles() < until;)
		(void)dpsctp_poll(dc, 0);
	/* Loopback: the server's side of the shutdown needs the client polled too. */
	for (uint64_t until = rte_get_tsc_cycles() + 2 * rte_get_tsc_hz();
	     loopback && dpsctp_assoc_count(ds) != 0 && rte_get_tsc_cycles() < until;) {
		(void)dpsctp_poll(dc, 0);
		(void)dpsctp_poll(ds, 0);
	}
	return secs;
}
/*
 * --hold: the client's port stays open, and unpolled, until the peer has
 * left. net_memif (DPDK 22.11) tears a link down on EAL's interrupt thread,
 * unmapping the shared rings while the polling thread may be inside
 * rte_eth_rx_burst() on them: the process still polling when its memif peer
 * leaves can fault. The side that leaves last must not be polling; a test
 * (dp_memif_test.py) stops the server first and lets the client leave after.
 */
static void
hold_port(void)
{
	uint64_t until = rte_get_tsc_cycles() + 30 * rte_get_tsc_hz();
	while (!stop_requested && rte_get_tsc_cycles() < until) {
		uint16_t port, up = 0;
		RTE_ETH_FOREACH_DEV(port)
		{
			struct rte_eth_link link;
			if (rte_eth_link_get_nowait(port, &link) == 0 &&
			    link.link_status == RTE_ETH_LINK_UP)
				up++;
		}
		if (up == 0)
			return;
		rte_delay_ms(10);
	}
}

int
main(int argc, char **argv)
{
	struct dpsctp_config cfg;
	struct echo_opts o;
	setvbuf(stdout, NULL, _IOLBF, 0);  /* lines as they happen, also into a pipe */
	if (app_help_wanted(argc, argv)) { /* before the EAL, which may not start */
		usage(stdout);
		return 0;
	}
	bool assocs_given = app_option_given(argc, argv, "max-assocs");
	int st = app_init(&argc, &argv, &cfg, "dpsctp-echo");
	if (st == 0)
		st = app_one_worker(&cfg, "dpsctp-echo");
	if (st != 0)
		return st;
	if ((st = parse_options(&o, argc, argv)) != 0)
		return st == 1 ? 0 : st;
	cli.to_send = o.count;
	cli.len = o.len;
	cli.streams = o.streams;
	cli.abort_after = o.abort_after;
	uint16_t port = cfg.sctp_port != 0 ? cfg.sctp_port : ECHO_PORT_DEFAULT;
	/* The client and --loopback open one association: unless --max-assocs
	 * says otherwise, tables for a few leave the EAL's memory (without
	 * hugepages: -m, 64 MiB without it) to the mbuf pools. */
	if (!o.server && !assocs_given)
		cfg.max_assocs = 16;
	cli.buf = malloc(3u * cli.len); /* to send, a whole echo, an echo in parts */
	if (cli.buf == NULL)
		return 3;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	struct dpsctp *dc = NULL, *ds = NULL;
	if ((st = create_ends(&o, &cfg, &dc, &ds)) >= 0 || (st = start(&o, port, dc, ds)) >= 0)
		return st;
	double secs = poll_until_done(dc, ds, o.loopback);
	if (dc != NULL)
		printf("client: %u sent, %u echoed intact, %u bad, %.3f s\n", cli.sent, cli.echoed,
		       cli.bad, secs);
	if (dc != NULL && cli.aborted)
		printf("client: aborted after %u echoes: %u messages unanswered; %u reported "
		       "failed (SEND_FAILED: not acknowledged when the abort came, delivered or "
		       "not)\n",
		       cli.echoed, cli.sent - cli.echoed, cli.send_failed);
	bool server_gone = true;
	if (o.loopback && cli.aborted) {
		/* The server heard the ABORT: its association is gone, its echoes with it. */
		for (uint64_t until = rte_get_tsc_cycles() + 2 * rte_get_tsc_hz();
		     dpsctp_assoc_count(ds) != 0 && rte_get_tsc_cycles() < until;) {
			(void)dpsctp_poll(dc, 0);
			(void)dpsctp_poll(ds, 0);
		}
		server_gone = dpsctp_assoc_count(ds) == 0 && srv.done;
		if (!server_gone)
			fprintf(stderr, "server: the association outlived the client's ABORT\n");
	}
	if (ds != NULL && srv.bad != 0)
		printf("server: %u echoes could not be sent\n", srv.bad);
	int aborted = 0;
	if (dc != NULL)
		aborted += dpsctp_stop(dc, 1000);
	if (o.hold && dc != NULL)
		hold_port();
	if (ds != NULL)
		aborted += dpsctp_stop(ds, 1000);
	dpsctp_destroy(dc);
	dpsctp_destroy(ds);
	rte_eal_cleanup();
	free(cli.buf);
	for (uint32_t i = 0; i < srv.p_count; i++) /* echoes a signal left unsent */
		free(srv.pending[(srv.p_head + i) % srv.p_room].bytes);
	free(srv.pending);
	if (dc == NULL)
		return 0;
	if (cli.aborted) /* every echo that came intact, the ABORT taken by both ends */
		return cli.failed || cli.bad != 0 || !cli.abort_seen || !server_gone ||
				       cli.echoed < cli.abort_after || aborted != 0
			       ? 1
			       : 0;
	return cli.failed || cli.bad != 0 || cli.echoed != cli.to_send || aborted != 0 ? 1 : 0;
}
