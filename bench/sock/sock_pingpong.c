/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sock-pingpong: SCTP ping-pong latency through the plain socket API, for
 * running under LD_PRELOAD=libdpsctp-sock.so (docs/SOCKETS.md) or on any
 * kernel with SCTP. Nothing here knows dpsctp: socket(AF_INET, SOCK_STREAM,
 * IPPROTO_SCTP), bind/listen/accept or connect, send/recv, clock_gettime.
 * No lksctp header either: IPPROTO_SCTP is in <netinet/in.h>, and
 * SCTP_NODELAY's value is Linux's (linux/sctp.h).
 *
 *   server: sock-pingpong -s [-p PORT] [-1]
 *           accepts an association, echoes every message until the peer
 *           closes; -1: exit after that association, else accept the next
 *   client: sock-pingpong -c ADDR [-p PORT] [-l BYTES] [-n COUNT] [-w WARMUP]
 *           [--timeout S] [--json]
 *           sends one message of -l bytes, waits for its echo (checked byte
 *           for byte), WARMUP times unmeasured, then COUNT times measured on
 *           CLOCK_MONOTONIC; prints RTT and RTT/2 quantiles in microseconds
 *
 * Exit status: 0 success; 1 a failure (connect, send, recv, timeout, an
 * echo not what was sent); 2 bad usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef SCTP_NODELAY
#define SCTP_NODELAY 3 /* Linux's value (linux/sctp.h); RFC 6458 section 8.1.5 */
#endif

static size_t len = 64;

static uint64_t
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Read one message of exactly n bytes (SCTP keeps message boundaries; a
 * message may still come in parts if the buffer were smaller). */
static bool
recv_all(int fd, uint8_t *p, size_t n)
{
	while (n != 0) {
		ssize_t r = recv(fd, p, n, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			perror("sock-pingpong: recv");
			return false;
		}
		if (r == 0) {
			if (n != len)
				fprintf(stderr, "sock-pingpong: the peer closed mid-message\n");
			return false;
		}
		p += r;
		n -= (size_t)r;
	}
	return true;
}

static bool
send_all(int fd, const uint8_t *p, size_t n)
{
	while (n != 0) {
		ssize_t r = send(fd, p, n, MSG_NOSIGNAL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			perror("sock-pingpong: send");
			return false;
		}
		p += r;
		n -= (size_t)r;
	}
	return true;
}

static void
nodelay(int fd)
{
	int one = 1;
	if (setsockopt(fd, IPPROTO_SCTP, SCTP_NODELAY, &one, sizeof(one)) != 0)
		perror("sock-pingpong: setsockopt(SCTP_NODELAY) (going on)");
}

static int
serve(uint16_t port, bool once)
{
	int lfd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	if (lfd < 0) {
		perror("sock-pingpong: socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP)");
		return 1;
	}
	int one = 1;
	(void)setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(lfd, 4) != 0) {
		perror("sock-pingpong: bind/listen");
		return 1;
	}
	printf("sock-pingpong: listening on port %u\n", port);
	fflush(stdout);
	uint8_t *b = malloc(1u << 16);
	if (b == NULL)
		return 1;
	for (;;) {
		int fd = accept(lfd, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			perror("sock-pingpong: accept");
			free(b);
			return 1;
		}
		nodelay(fd);
		uint64_t n = 0;
		for (;;) {
			/* Echo whatever arrives, message by message, at its size. */
			ssize_t r = recv(fd, b, 1u << 16, 0);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0 || !send_all(fd, b, (size_t)r))
				break;
			n++;
		}
		close(fd);
		printf("sock-pingpong: association ended, %llu messages echoed\n",
		       (unsigned long long)n);
		fflush(stdout);
		if (once)
			break;
	}
	free(b);
	close(lfd);
	return 0;
}

static int
cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The q-quantile of n sorted samples, in microseconds. */
static double
quant(const uint64_t *s, size_t n, double q)
{
	return n ? (double)s[(size_t)(q * (double)(n - 1))] / 1e3 : 0;
}

static int
client(const char *addr, uint16_t port, uint64_t count, uint64_t warmup, double timeout, bool json)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		fprintf(stderr, "sock-pingpong: not an IPv4 address: %s\n", addr);
		return 2;
	}
	int fd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	if (fd < 0) {
		perror("sock-pingpong: socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP)");
		return 1;
	}
	struct timeval tv = { .tv_sec = (time_t)timeout,
			      .tv_usec = (suseconds_t)((timeout - (double)(time_t)timeout) * 1e6) };
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		perror("sock-pingpong: connect");
		return 1;
	}
	nodelay(fd);
	uint8_t *out = malloc(len), *in = malloc(len);
	uint64_t *s = malloc((count ? count : 1) * sizeof(*s));
	if (out == NULL || in == NULL || s == NULL)
		return 1;
	for (size_t i = 0; i < len; i++)
		out[i] = (uint8_t)(i * 7 + 1);
	uint64_t done = 0, bad = 0, t_start = 0;
	int rc = 0;
	for (uint64_t i = 0; i < warmup + count; i++) {
		/* A sequence number in the first bytes: an echo of another message
		 * (or of nothing) is told from the right one. */
		memcpy(out, &i, len < sizeof(i) ? len : sizeof(i));
		if (i == warmup)
			t_start = now_ns();
		uint64_t a = now_ns();
		if (!send_all(fd, out, len) || !recv_all(fd, in, len)) {
			rc = 1;
			break;
		}
		uint64_t rtt = now_ns() - a;
		if (memcmp(in, out, len) != 0)
			bad++;
		if (i >= warmup)
			s[done++] = rtt;
	}
	double secs = (double)(now_ns() - t_start) / 1e9;
	close(fd);
	if (bad)
		rc = 1;
	qsort(s, done, sizeof(*s), cmp);
	uint64_t *h = malloc((done ? done : 1) * sizeof(*h));
	if (h == NULL)
		return 1;
	for (size_t i = 0; i < done; i++)
		h[i] = s[i] / 2;
	if (json)
		printf("{\"tool\": \"sock-pingpong\", \"message_bytes\": %zu, \"warmup\": %llu, "
		       "\"round_trips\": %llu, \"bad_echoes\": %llu, \"seconds\": %.3f, "
		       "\"rtt_us\": {\"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, \"max\": %.3f}, "
		       "\"latency_us\": {\"one_way\": \"rtt/2\", \"p50\": %.3f, \"p90\": %.3f, "
		       "\"p99\": %.3f, \"max\": %.3f}}\n",
		       len, (unsigned long long)warmup, (unsigned long long)done,
		       (unsigned long long)bad, secs, quant(s, done, 0.5), quant(s, done, 0.9),
		       quant(s, done, 0.99), quant(s, done, 1.0), quant(h, done, 0.5),
		       quant(h, done, 0.9), quant(h, done, 0.99), quant(h, done, 1.0));
	else
		printf("SCTP ping-pong %zu bytes: %llu round trips (%llu bad) in %.2f s; RTT us "
		       "p50 "
		       "%.2f p90 %.2f p99 %.2f max %.2f; one way (RTT/2) p50 %.2f p99 %.2f\n",
		       len, (unsigned long long)done, (unsigned long long)bad, secs,
		       quant(s, done, 0.5), quant(s, done, 0.9), quant(s, done, 0.99),
		       quant(s, done, 1.0), quant(h, done, 0.5), quant(h, done, 0.99));
	free(h);
	free(s);
	free(in);
	free(out);
	return done == count ? rc : 1;
}

static int
usage(void)
{
	fprintf(stderr, "usage: sock-pingpong -s [-p PORT] [-1]\n"
			"       sock-pingpong -c ADDR [-p PORT] [-l BYTES] [-n COUNT] [-w WARMUP] "
			"[--timeout S] [--json]\n"
			"  -p PORT (default 5002), -l 1..65536 (default 64), -n COUNT (default "
			"20000),\n"
			"  -w WARMUP round trips not measured (default 1000), --timeout S for any "
			"one call (default 10)\n");
	return 2;
}

int
main(int argc, char **argv)
{
	static const struct option lo[] = { { "json", no_argument, NULL, 'j' },
					    { "timeout", required_argument, NULL, 'T' },
					    { "help", no_argument, NULL, 'h' },
					    { NULL, 0, NULL, 0 } };
	const char *peer = NULL;
	bool server = false, once = false, json = false;
	unsigned long port = 5002;
	uint64_t count = 20000, warmup = 1000;
	double timeout = 10;
	int c;
	while ((c = getopt_long(argc, argv, "sc:p:l:n:w:1h", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			server = true;
			break;
		case 'c':
			peer = optarg;
			break;
		case 'p':
			port = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			len = (size_t)strtoul(optarg, NULL, 0);
			break;
		case 'n':
			count = strtoull(optarg, NULL, 0);
			break;
		case 'w':
			warmup = strtoull(optarg, NULL, 0);
			break;
		case '1':
			once = true;
			break;
		case 'T':
			timeout = strtod(optarg, NULL);
			break;
		case 'j':
			json = true;
			break;
		default:
			return usage();
		}
	}
	if (optind != argc || server == (peer != NULL) || port == 0 || port > 65535 || len == 0 ||
	    len > 1u << 16 || count == 0 || count > 100000000u || !(timeout > 0))
		return usage();
	return server ? serve((uint16_t)port, once)
		      : client(peer, (uint16_t)port, count, warmup, timeout, json);
}
