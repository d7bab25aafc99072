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
#include <getopt.h>
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
#define ECHO_HDR	  8u	/* sequence number, CRC32c of the rest: both big-endian */
#define ECHO_PENDING	  4096u /* server: echoes waiting for send space */
#define ECHO_COPY_MAX	  512u	/* server: echoes up to this size are copied */

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
	uint32_t len;
	uint16_t streams;
	uint8_t *buf;
	/*
	 * Server: echoes the send buffer had no room for, oldest first, copied
	 * out of the received mbufs: holding those would pin receive buffers the
	 * data plane needs to read the client's SACKs.
	 */
	struct pending {
		struct dpsctp_assoc *a; /* the association it goes back on; NULL: it ended */
		uint8_t *bytes;
		uint32_t len;
		struct dpsctp_sndinfo si;
	} pending[ECHO_PENDING];
	uint32_t p_head, p_count;
};

/*
 * Server: send queued echoes, oldest first, each on its own association,
 * until one has no room (its on_space calls us again).
 */
static void
drain(struct side *s)
{
	while (s->p_count != 0) {
		struct pending *p = &s->pending[s->p_head];
		int rc = p->a != NULL ? dpsctp_send_bytes(p->a, &p->si, p->bytes, p->len) : 0;
		if (rc == -EAGAIN || rc == -ENOMEM)
			return; /* on_space again */
		if (rc != 0)
			s->bad++;
		free(p->bytes);
		s->p_head = (s->p_head + 1) % ECHO_PENDING;
		s->p_count--;
	}
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
	struct dpsctp_sndinfo si = { (uint16_t)(k % s->streams), htonl(k), 0 };
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
	for (uint32_t i = 0; i < s->p_count; i++) {
		struct pending *p = &s->pending[(s->p_head + i) % ECHO_PENDING];
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
	case DPSCTP_EV_COMM_LOST:
	case DPSCTP_EV_CANT_START:
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

static void
on_recv(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg)
{
	struct side *s = arg;
	if (s->server) {
		struct dpsctp_sndinfo si = { m->sid, m->ppid, 0 };
		/* A large message in one packet goes back without a copy: the reply
		 * refers to the received packet. Small ones are copied (a few dozen
		 * share one mbuf) rather than pin a received packet each. */
		if (m->nsegs == 1 && m->len > ECHO_COPY_MAX && s->p_count == 0) {
			struct rte_mbuf *reply = dpsctp_msg_to_mbuf(a, m);
			if (reply != NULL && dpsctp_send(a, &si, reply) == 0)
				return;
			rte_pktmbuf_free(reply);
		}
		if (m->len <= ECHO_COPY_MAX && s->p_count == 0) {
			uint8_t small[ECHO_COPY_MAX];
			size_t n = dpsctp_msg_copy(m, small, sizeof(small));
			if (dpsctp_send_bytes(a, &si, small, n) == 0)
				return;
		}
		/* Otherwise (no room now, or several packets: sending a chain copies
		 * it anyway) the echo waits in order, in our own memory. */
		uint8_t *copy = malloc(m->len);
		if (copy == NULL || s->p_count == ECHO_PENDING) {
			free(copy);
			s->bad++; /* the client will see it missing */
			return;
		}
		struct pending *p = &s->pending[(s->p_head + s->p_count) % ECHO_PENDING];
		p->len = (uint32_t)dpsctp_msg_copy(m, copy, m->len);
		p->a = a;
		p->bytes = copy;
		p->si = si;
		s->p_count++;
		drain(s);
		return;
	}
	uint8_t *b = s->buf + s->len; /* second half of the client's buffer */
	size_t n = dpsctp_msg_copy(m, b, s->len);
	uint32_t be[2];
	memcpy(be, b, sizeof(be));
	if (n != s->len || ntohl(be[1]) != dpsctp_crc32c(0, b + ECHO_HDR, n - ECHO_HDR))
		s->bad++;
	else
		s->echoed++;
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

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: dpsctp-echo [EAL args] -- [options] (-s | -c PEER[,PEER...] | --loopback)\n"
		"  -s               server: echo every message back\n"
		"  -c PEER[,PEER]   client: connect to the peer's address(es) (multi-homing)\n"
		"  --loopback       client and server in one process over net_ring\n"
		"  -n N             client: messages to send (default 1000)\n"
		"  -l BYTES         client: message size, 8..65000 (default 64)\n"
		"  --streams S      client: streams to spread the messages over (default 4)\n"
		"  -h               this help\n"
		"The SCTP port is --sctp-port (default %d). Exit status: 0 every echo\n"
		"intact, 1 a failure (association lost, bad echo), 2 bad usage, 3 the\n"
		"data plane would not start.\n\nData-plane options:\n",
		ECHO_PORT_DEFAULT);
	dpsctp_config_usage(f);
}

int
main(int argc, char **argv)
{
	struct dpsctp_config cfg;
	int st = app_init(&argc, &argv, &cfg, "dpsctp-echo");
	if (st != 0)
		return st;

	static const struct option longopts[] = { { "loopback", no_argument, NULL, 'L' },
						  { "streams", required_argument, NULL, 'S' },
						  { "help", no_argument, NULL, 'h' },
						  { NULL, 0, NULL, 0 } };
	bool server = false, loopback = false;
	const char *peers = NULL;
	static struct side cli = { .name = "client", .to_send = 1000, .len = 64, .streams = 4 };
	static struct side srv = { .name = "server", .server = true };
	int c;
	while ((c = getopt_long(argc, argv, "sc:n:l:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			server = true;
			break;
		case 'c':
			peers = optarg;
			break;
		case 'L':
			loopback = true;
			break;
		case 'n':
			cli.to_send = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'l':
			cli.len = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'S':
			cli.streams = (uint16_t)strtoul(optarg, NULL, 0);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if ((server + (peers != NULL) + loopback) != 1 || cli.len < ECHO_HDR || cli.len > 65000 ||
	    cli.streams == 0) {
		usage(stderr);
		return 2;
	}
	uint16_t port = cfg.sctp_port != 0 ? cfg.sctp_port : ECHO_PORT_DEFAULT;
	cli.buf = malloc(2u * cli.len);
	if (cli.buf == NULL)
		return 3;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	struct dpsctp *dc = NULL, *ds = NULL;
	if (loopback) {
		if (app_ring_pair("dpecho") != 0) {
			fprintf(stderr, "dpsctp-echo: cannot make the net_ring pair\n");
			return 3;
		}
		dc = app_create(&cfg, "ethdev:net_ring_dpecho_a", "10.0.0.1/24", "dpsctp-echo");
		ds = app_create(&cfg, "ethdev:net_ring_dpecho_b", "10.0.0.2/24", "dpsctp-echo");
	} else if (server) {
		ds = app_create(&cfg, NULL, NULL, "dpsctp-echo");
	} else {
		dc = app_create(&cfg, NULL, NULL, "dpsctp-echo");
	}
	if ((loopback || server) && ds == NULL)
		return 3;
	if ((loopback || !server) && dc == NULL)
		return 3;
	if (ds != NULL && dpsctp_listen(ds, port, &callbacks, &srv) != 0) {
		fprintf(stderr, "dpsctp-echo: cannot listen on port %u\n", port);
		return 3;
	}
	if (dc != NULL) {
		struct dpsctp_addr addr[4];
		int na = loopback ? app_parse_peers("10.0.0.2", addr, 4)
				  : app_parse_peers(peers, addr, 4);
		int rc;
		if (na <= 0) {
			fprintf(stderr, "dpsctp-echo: bad peer address list \"%s\"\n", peers);
			return 2;
		}
		if (dpsctp_connect(dc, 0, addr, (unsigned)na, port, 0, &callbacks, &cli, &rc) ==
		    NULL) {
			fprintf(stderr, "dpsctp-echo: connect: %s\n", strerror(-rc));
			return 1;
		}
	}

	/* The loop: poll until the client has every echo (or a signal). */
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
		if (cli.echoed + cli.bad == cli.to_send && closing == 0) {
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
	if (dc != NULL)
		printf("client: %u sent, %u echoed intact, %u bad, %.3f s\n", cli.sent, cli.echoed,
		       cli.bad, secs);
	if (ds != NULL && srv.bad != 0)
		printf("server: %u echoes could not be sent\n", srv.bad);
	int aborted = 0;
	if (dc != NULL)
		aborted += dpsctp_stop(dc, 1000);
	if (ds != NULL)
		aborted += dpsctp_stop(ds, 1000);
	dpsctp_destroy(dc);
	dpsctp_destroy(ds);
	rte_eal_cleanup();
	free(cli.buf);
	if (dc == NULL)
		return 0;
	return cli.failed || cli.bad != 0 || cli.echoed != cli.to_send || aborted != 0 ? 1 : 0;
}
