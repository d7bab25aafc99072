/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sidecar client's smallest round trip (docs/SIDECAR.md): attach to a
 * running dpsctpd, connect to a peer that echoes, send one message, read
 * the echo, close gracefully, detach. No DPDK here: libdpsctp-client speaks
 * to the daemon over its socket and shared memory. Written against the
 * installed headers only:
 *
 *   cc -o client_hello client_hello.c $(pkg-config --cflags --libs libdpsctp-client)
 *   ./client_hello /tmp/dd.sock 10.255.0.2 5001
 *
 * Arguments: the daemon's socket, the peer's IPv4 address and SCTP port
 * (the defaults are those of `dpsctpd --loopback-peer echo`). Exit status
 * 0 when the echo came back intact and the association closed gracefully.
 */
#define _GNU_SOURCE /* POSIX: inet_pton() */

#include <arpa/inet.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpsctp/dpsctp_client.h>

#define HELLO_TEXT "hello through dpsctpd"

int
main(int argc, char **argv)
{
	const char *sock = argc > 1 ? argv[1] : DPSCTP_CLIENT_DEFAULT_SOCKET;
	const char *ip = argc > 2 ? argv[2] : "10.255.0.2";
	uint16_t port = (uint16_t)(argc > 3 ? atoi(argv[3]) : 5001);
	struct sctp_addr peer = { .family = SCTP_ADDR_V4 };
	if (inet_pton(AF_INET, ip, peer.bytes) != 1 || port == 0) {
		fprintf(stderr, "usage: client_hello [SOCKET [IPV4 [PORT]]]\n");
		return 2;
	}

	struct dpsctp_client_opts opts = { .threads = 1, .name = "client_hello" };
	int err = 0;
	struct dpsctp_client *c = dpsctp_client_attach(sock, &opts, &err);
	if (c == NULL) {
		fprintf(stderr, "client_hello: attach to %s: %s\n", sock, strerror(-err));
		return 1;
	}
	int rc = dpsctp_client_connect(c, 0, &peer, 1, port, 1);
	bool echoed = false, closed = false, failed = rc != 0;
	if (rc != 0)
		fprintf(stderr, "client_hello: connect: %s\n", strerror(-rc));
	/* Every completion and event in turn; wait() blocks (at most 10 s) when none is there. */
	while (!failed && !closed) {
		struct dpsctp_client_event ev[8];
		int n = dpsctp_client_poll(c, 0, ev, 8);
		if (n < 0) {
			fprintf(stderr, "client_hello: poll: %s\n", strerror(-n));
			failed = true;
			break;
		}
		if (n == 0 && dpsctp_client_wait(c, 0, 10000) <= 0) {
			fprintf(stderr, "client_hello: nothing from dpsctpd for 10 s\n");
			failed = true;
			break;
		}
		for (int i = 0; i < n; i++) {
			const struct dpsctp_client_event *e = &ev[i];
			switch (e->kind) {
			case DPSCTP_CLIENT_COMPLETION:
				if (e->completion.status != 0) {
					fprintf(stderr, "client_hello: request %d: %s\n",
						(int)e->completion.op,
						strerror(-e->completion.status));
					failed = true;
				}
				break;
			case DPSCTP_CLIENT_COMM_UP: {
				printf("client_hello: association up, %u streams out, %u in\n",
				       e->assoc_change.outbound_streams,
				       e->assoc_change.inbound_streams);
				struct dpsctp_client_sndinfo si = { .assoc = e->assoc, .sid = 0 };
				rc = dpsctp_client_send(c, 0, &si, HELLO_TEXT, strlen(HELLO_TEXT),
							2);
				if (rc != 0) {
					fprintf(stderr, "client_hello: send: %s\n", strerror(-rc));
					failed = true;
				}
				break;
			}
			case DPSCTP_CLIENT_RECV:
				echoed = e->recv.len == strlen(HELLO_TEXT) &&
					 memcmp(e->recv.data, HELLO_TEXT, e->recv.len) == 0;
				printf("client_hello: echo of %u bytes, %s\n", e->recv.len,
				       echoed ? "intact" : "NOT what was sent");
				rc = dpsctp_client_shutdown(c, 0, e->assoc, 3);
				failed = !echoed || rc != 0;
				break;
			case DPSCTP_CLIENT_SHUTDOWN_COMPLETE:
				printf("client_hello: association closed\n");
				closed = true;
				break;
			case DPSCTP_CLIENT_COMM_LOST:
			case DPSCTP_CLIENT_CANT_START:
				fprintf(stderr,
					"client_hello: association %s: reason %u, cause %u\n",
					e->kind == DPSCTP_CLIENT_CANT_START ? "did not start"
									    : "lost",
					(unsigned)e->assoc_change.reason, e->assoc_change.error);
				failed = true;
				break;
			case DPSCTP_CLIENT_DAEMON_STOPPING:
				fprintf(stderr, "client_hello: dpsctpd is stopping\n");
				failed = true;
				break;
			default:
				break;
			}
		}
	}
	dpsctp_client_detach(c);
	bool ok = echoed && closed && !failed;
	printf("client_hello: %s\n", ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}
