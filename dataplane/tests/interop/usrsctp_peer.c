/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * usrsctp-peer: a real SCTP peer for the interop harness (issue 7), on
 * Debian's libusrsctp — the FreeBSD stack in user space, over raw IP (the
 * kernel here has no SCTP; usrsctp reads protocol 132 from a raw socket) or
 * over UDP encapsulation (RFC 6951, port 9899).
 *
 *   client: connect to PEER:PORT, send -n messages of sizes cycling from
 *           1 byte to -l bytes over -S streams, every other one unordered;
 *           with --echo wait for every message to come back and check it;
 *           then close gracefully (or --abort).
 *   server: accept one association, echo every message back on its
 *           stream with its PPID (--echo) or sink it; exit when the peer
 *           closes.
 *
 * A message carries no header (sizes start at one byte): its PPID is its
 * sequence number and its bytes are a function of (sequence, offset), so
 * the receiving side recomputes them. Exit status 0 when every message
 * came back intact exactly once, 1 otherwise, 2 bad usage, 3 set-up.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <usrsctp.h>

#define MAX_LEN (64u * 1024u)

static uint8_t
pattern(uint32_t seq, uint32_t i)
{
	return (uint8_t)(seq * 131u + i * 7u + (i >> 8));
}

static uint32_t
size_of(uint32_t seq, uint32_t max)
{
	/* 1, 2, 3 ... then larger steps: every size class, and fragments. */
	static const uint32_t steps[] = {
		1, 2, 3, 7, 64, 500, 1000, 1452, 1453, 4000, 9000, 65536
	};
	uint32_t v = steps[seq % (sizeof(steps) / sizeof(steps[0]))] + seq % 13u;
	return v > max ? max : v;
}

static void
usage(FILE *f)
{
	fprintf(f, "usage: usrsctp-peer (-s | -c PEER) [--port P] [--local ADDR] [--udp]\n"
		   "                    [-n MSGS] [-l MAXBYTES] [-S STREAMS] [--echo] [--abort]\n");
}

static struct socket *
make_socket(bool udp)
{
	struct socket *so = usrsctp_socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP, NULL, NULL, 0, NULL);
	if (so == NULL)
		return NULL;
	const int on = 1;
	(void)usrsctp_setsockopt(so, IPPROTO_SCTP, SCTP_RECVRCVINFO, &on, sizeof(on));
	struct sctp_initmsg im = { 64, 64, 8, 0 };
	(void)usrsctp_setsockopt(so, IPPROTO_SCTP, SCTP_INITMSG, &im, sizeof(im));
	if (udp) {
		struct sctp_udpencaps ue;
		memset(&ue, 0, sizeof(ue));
		ue.sue_address.ss_family = AF_INET;
		ue.sue_port = htons(9899);
		if (usrsctp_setsockopt(so, IPPROTO_SCTP, SCTP_REMOTE_UDP_ENCAPS_PORT, &ue,
				       sizeof(ue)) < 0)
			fprintf(stderr, "usrsctp-peer: UDP encapsulation: %s\n", strerror(errno));
	}
	return so;
}

/* Read one whole message; its length, 0 at EOF, -1 on error. */
static ssize_t
read_msg(struct socket *so, uint8_t *buf, struct sctp_rcvinfo *ri)
{
	size_t got = 0;
	for (;;) {
		socklen_t il = sizeof(*ri);
		unsigned type = 0;
		int flags = 0;
		ssize_t n = usrsctp_recvv(so, buf + got, MAX_LEN - got, NULL, NULL, ri, &il, &type,
					  &flags);
		if (n <= 0)
			return n;
		got += (size_t)n;
		if ((flags & MSG_EOR) || got == MAX_LEN)
			return (ssize_t)got;
	}
}

int
main(int argc, char **argv)
{
	static const struct option lo[] = { { "port", required_argument, NULL, 'p' },
					    { "local", required_argument, NULL, 'L' },
					    { "udp", no_argument, NULL, 'u' },
					    { "echo", no_argument, NULL, 'e' },
					    { "abort", no_argument, NULL, 'a' },
					    { "help", no_argument, NULL, 'h' },
					    { NULL, 0, NULL, 0 } };
	const char *peer = NULL, *local = NULL;
	bool server = false, udp = false, echo = false, do_abort = false;
	uint16_t port = 5001;
	uint32_t n = 1000, max = 9000, streams = 16;
	int c;
	while ((c = getopt_long(argc, argv, "sc:n:l:S:h", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			server = true;
			break;
		case 'c':
			peer = optarg;
			break;
		case 'p':
			port = (uint16_t)atoi(optarg);
			break;
		case 'L':
			local = optarg;
			break;
		case 'u':
			udp = true;
			break;
		case 'e':
			echo = true;
			break;
		case 'a':
			do_abort = true;
			break;
		case 'n':
			n = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'l':
			max = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'S':
			streams = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (server == (peer != NULL) || max == 0 || max > MAX_LEN || streams == 0 || streams > 64) {
		usage(stderr);
		return 2;
	}
	usrsctp_init(udp ? 9899 : 0, NULL, NULL);
	usrsctp_sysctl_set_sctp_blackhole(0);
	struct socket *so = make_socket(udp);
	if (so == NULL) {
		fprintf(stderr, "usrsctp-peer: socket: %s\n", strerror(errno));
		return 3;
	}
	struct sockaddr_in sa;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	uint8_t *buf = malloc(MAX_LEN), *want = malloc(MAX_LEN);
	if (buf == NULL || want == NULL)
		return 3;
	int rc = 0;
	if (server) {
		sa.sin_port = htons(port);
		if (local != NULL)
			inet_pton(AF_INET, local, &sa.sin_addr);
		if (usrsctp_bind(so, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
		    usrsctp_listen(so, 1) < 0) {
			fprintf(stderr, "usrsctp-peer: bind/listen: %s\n", strerror(errno));
			return 3;
		}
		struct socket *a = usrsctp_accept(so, NULL, NULL);
		if (a == NULL) {
			fprintf(stderr, "usrsctp-peer: accept: %s\n", strerror(errno));
			return 3;
		}
		printf("server: association up\n");
		fflush(stdout);
		uint64_t msgs = 0;
		struct sctp_rcvinfo ri;
		ssize_t len;
		while ((len = read_msg(a, buf, &ri)) > 0) {
			msgs++;
			if (!echo)
				continue;
			struct sctp_sndinfo si;
			memset(&si, 0, sizeof(si));
			si.snd_sid = ri.rcv_sid;
			si.snd_ppid = ri.rcv_ppid;
			si.snd_flags = (ri.rcv_flags & SCTP_UNORDERED) ? SCTP_UNORDERED : 0;
			if (usrsctp_sendv(a, buf, (size_t)len, NULL, 0, &si, sizeof(si),
					  SCTP_SENDV_SNDINFO, 0) < 0) {
				fprintf(stderr, "usrsctp-peer: echo: %s\n", strerror(errno));
				rc = 1;
				break;
			}
		}
		printf("server: %llu messages, peer closed (%s)\n", (unsigned long long)msgs,
		       len == 0 ? "shutdown" : strerror(errno));
		usrsctp_close(a);
	} else {
		if (local != NULL) {
			struct sockaddr_in la = sa;
			inet_pton(AF_INET, local, &la.sin_addr);
			(void)usrsctp_bind(so, (struct sockaddr *)&la, sizeof(la));
		}
		sa.sin_port = htons(port);
		if (inet_pton(AF_INET, peer, &sa.sin_addr) != 1) {
			usage(stderr);
			return 2;
		}
		if (usrsctp_connect(so, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			fprintf(stderr, "usrsctp-peer: connect: %s\n", strerror(errno));
			return 1;
		}
		printf("client: association up\n");
		fflush(stdout);
		uint8_t *seen = calloc(n, 1);
		uint32_t back = 0, bad = 0;
		for (uint32_t k = 0; k < n; k++) {
			uint32_t len = size_of(k, max);
			for (uint32_t i = 0; i < len; i++)
				buf[i] = pattern(k, i);
			struct sctp_sndinfo si;
			memset(&si, 0, sizeof(si));
			si.snd_sid = (uint16_t)(k % streams);
			si.snd_ppid = htonl(k);
			si.snd_flags = (k & 1u) ? SCTP_UNORDERED : 0;
			if (usrsctp_sendv(so, buf, len, NULL, 0, &si, sizeof(si),
					  SCTP_SENDV_SNDINFO, 0) < 0) {
				fprintf(stderr, "usrsctp-peer: send %u: %s\n", k, strerror(errno));
				rc = 1;
				break;
			}
			/* Echoes are read as they come, one per message sent. */
			while (echo && back + 4 < k + 1) {
				struct sctp_rcvinfo ri;
				ssize_t got = read_msg(so, want, &ri);
				if (got <= 0)
					break;
				uint32_t seq = ntohl(ri.rcv_ppid);
				bool ok =
					seq < n && !seen[seq] && (uint32_t)got == size_of(seq, max);
				for (uint32_t i = 0; ok && i < (uint32_t)got; i++)
					ok = want[i] == pattern(seq, i);
				if (ok)
					seen[seq] = 1;
				else
					bad++;
				back++;
			}
		}
		while (echo && rc == 0 && back < n) {
			struct sctp_rcvinfo ri;
			ssize_t got = read_msg(so, want, &ri);
			if (got <= 0)
				break;
			uint32_t seq = ntohl(ri.rcv_ppid);
			bool ok = seq < n && !seen[seq] && (uint32_t)got == size_of(seq, max);
			for (uint32_t i = 0; ok && i < (uint32_t)got; i++)
				ok = want[i] == pattern(seq, i);
			if (ok)
				seen[seq] = 1;
			else
				bad++;
			back++;
		}
		printf("client: %u sent, %u echoed, %u bad\n", n, back, bad);
		if (echo && (back != n || bad != 0))
			rc = 1;
		if (do_abort) {
			struct linger l = { 1, 0 };
			(void)usrsctp_setsockopt(so, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
		}
		free(seen);
	}
	usrsctp_close(so);
	for (int i = 0; i < 300 && usrsctp_finish() != 0; i++) {
		struct timespec d = { 0, 10000000 };
		nanosleep(&d, NULL);
	}
	free(buf);
	free(want);
	return rc;
}
