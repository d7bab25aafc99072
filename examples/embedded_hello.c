/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The embedded API's smallest round trip (docs/API.md): two instances in
 * one process, joined by a net_ring pair (no NIC, no root), polled by the
 * main thread. The client connects to the server, sends one message, sees
 * it delivered, and closes gracefully. Written against the installed
 * headers only:
 *
 *   cc -o embedded_hello embedded_hello.c \
 *       $(pkg-config --cflags --libs libdpsctp) -lrte_net_ring
 *   ./embedded_hello --no-huge --no-pci --no-shconf -l 0 -m 512
 *
 * The arguments are DPDK's (the EAL's); rte_eth_from_rings() is DPDK's ring
 * PMD, hence -lrte_net_ring. Exit status 0 when the message arrived intact
 * and both ends saw SHUTDOWN_COMPLETE.
 */
#define _GNU_SOURCE /* DPDK's headers use POSIX types (ssize_t) */

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ring.h>

#include <dpsctp/config.h>
#include <dpsctp/dpsctp.h>

#define HELLO_PORT 5001
#define HELLO_TEXT "hello, dpsctp"

/* What one end has seen, written by its callbacks. */
struct end {
	const char *name;
	struct dpsctp_assoc *a;
	bool up, closed;
	enum dpsctp_reason reason;
	char got[64];
	size_t got_len;
};

static void
on_recv(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg)
{
	struct end *e = arg;

	(void)a;
	e->got_len = dpsctp_msg_copy(m, e->got, sizeof(e->got) - 1);
	e->got[e->got_len] = '\0';
}

static void
on_event(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	struct end *e = arg;

	switch (ev->type) {
	case DPSCTP_EV_COMM_UP:
		e->a = a;
		e->up = true;
		printf("%s: association up, %u streams out, %u in\n", e->name, ev->outbound_streams,
		       ev->inbound_streams);
		break;
	case DPSCTP_EV_SHUTDOWN_COMPLETE:
	case DPSCTP_EV_COMM_LOST:
	case DPSCTP_EV_CANT_START:
		/* The handle is gone once this callback returns. */
		e->a = NULL;
		e->closed = true;
		e->reason = (enum dpsctp_reason)ev->reason;
		printf("%s: association %s (reason %u)\n", e->name,
		       ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE ? "closed" : "failed",
		       (unsigned)ev->reason);
		break;
	default:
		break;
	}
}

static const struct dpsctp_callbacks callbacks = { on_recv, on_event, NULL };

/* One end on an existing ethdev, with a local address; NULL when it would not start. */
static struct dpsctp *
make(const char *ethdev, const char *ip)
{
	struct dpsctp_config c;
	char err[256];

	dpsctp_config_defaults(&c);
	/* Small limits: two instances share the EAL's -m without hugepages. */
	if (dpsctp_config_set(&c, "port", ethdev, err, sizeof(err)) != 0 ||
	    dpsctp_config_set(&c, "ip", ip, err, sizeof(err)) != 0 ||
	    dpsctp_config_set(&c, "max-assocs", "16", err, sizeof(err)) != 0 ||
	    dpsctp_config_set(&c, "max-handshakes", "16", err, sizeof(err)) != 0 ||
	    dpsctp_config_set(&c, "mbufs", "4096", err, sizeof(err)) != 0 ||
	    dpsctp_config_validate(&c, err, sizeof(err)) != 0) {
		fprintf(stderr, "embedded_hello: %s\n", err);
		return NULL;
	}
	struct dpsctp *d = dpsctp_create(&c, err, sizeof(err));
	if (d == NULL)
		fprintf(stderr, "embedded_hello: %s: %s\n", ethdev, err);
	return d;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Poll both ends until *flag is set; false after 10 s (a hang guard). */
static bool
poll_until(struct dpsctp *x, struct dpsctp *y, const bool *flag)
{
	for (double end = now_s() + 10; !*flag;) {
		if (now_s() > end)
			return false;
		(void)dpsctp_poll(x, 0);
		(void)dpsctp_poll(y, 0);
	}
	return true;
}

int
main(int argc, char **argv)
{
	if (dpsctp_eal_init(argc, argv) < 0) {
		fprintf(stderr, "embedded_hello: the EAL did not start\n");
		return 1;
	}
	/* A cable made of two rings: what one port sends, the other receives. */
	struct rte_ring *ab = rte_ring_create("hello_ab", 1024, SOCKET_ID_ANY, 0);
	struct rte_ring *ba = rte_ring_create("hello_ba", 1024, SOCKET_ID_ANY, 0);
	if (ab == NULL || ba == NULL ||
	    rte_eth_from_rings("hello_a", &ba, 1, &ab, 1, SOCKET_ID_ANY) < 0 ||
	    rte_eth_from_rings("hello_b", &ab, 1, &ba, 1, SOCKET_ID_ANY) < 0) {
		fprintf(stderr, "embedded_hello: cannot make the net_ring pair\n");
		return 1;
	}
	struct dpsctp *client = make("ethdev:net_ring_hello_a", "10.0.0.1/24");
	struct dpsctp *server = make("ethdev:net_ring_hello_b", "10.0.0.2/24");
	if (client == NULL || server == NULL)
		return 1;

	struct end c = { .name = "client" }, s = { .name = "server" };
	int rc = dpsctp_listen(server, HELLO_PORT, &callbacks, &s);
	if (rc != 0) {
		fprintf(stderr, "embedded_hello: listen: %s\n", strerror(-rc));
		return 1;
	}
	struct sctp_addr peer = { .family = SCTP_ADDR_V4, .bytes = { 10, 0, 0, 2 } };
	if (dpsctp_connect(client, 0, &peer, 1, HELLO_PORT, 0, &callbacks, &c, &rc) == NULL) {
		fprintf(stderr, "embedded_hello: connect: %s\n", strerror(-rc));
		return 1;
	}
	bool ok = poll_until(client, server, &c.up) && c.a != NULL;
	if (ok) {
		struct dpsctp_sndinfo si = { .sid = 0, .ppid = 0, .flags = 0 };
		rc = dpsctp_send_bytes(c.a, &si, HELLO_TEXT, strlen(HELLO_TEXT));
		ok = rc == 0;
		if (!ok)
			fprintf(stderr, "embedded_hello: send: %s\n", strerror(-rc));
	}
	bool got = false;
	for (double end = now_s() + 10; ok && !got && now_s() < end;) {
		(void)dpsctp_poll(client, 0);
		(void)dpsctp_poll(server, 0);
		got = s.got_len != 0;
	}
	if (got)
		printf("server: received \"%s\"\n", s.got);
	ok = ok && got && strcmp(s.got, HELLO_TEXT) == 0;
	if (c.a != NULL)
		(void)dpsctp_shutdown(c.a);
	bool both_closed = false;
	for (double end = now_s() + 10; !both_closed && now_s() < end;) {
		(void)dpsctp_poll(client, 0);
		(void)dpsctp_poll(server, 0);
		both_closed = c.closed && s.closed;
	}
	ok = ok && both_closed && c.reason == DPSCTP_REASON_SHUTDOWN &&
	     s.reason == DPSCTP_REASON_SHUTDOWN;
	dpsctp_destroy(client);
	dpsctp_destroy(server);
	rte_eal_cleanup();
	printf("embedded_hello: %s\n", ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}
