/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tcp-pingpong: Linux TCP's ping-pong latency over loopback, the kernel
 * reference beside dpsctp-perf --ping and usrsctp-perf --ping. One process,
 * two threads pinned to two CPUs (--cpu-a, --cpu-b), TCP_NODELAY, messages
 * of -l bytes; the client sends one, the server echoes it, the client takes
 * the round trip on the TSC and halves it (one way = RTT/2, as the other
 * tools report). Reads block (what a TCP application does; --busy polls
 * with non-blocking reads instead).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

static uint32_t len = 64;
static int cpu_a = 0, cpu_b = 1;
static bool busy;
static volatile int running = 1;
static int lfd;

static void
pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Read exactly n bytes; false on EOF or error. */
static bool
read_all(int fd, uint8_t *p, size_t n)
{
	while (n != 0) {
		ssize_t r = recv(fd, p, n, busy ? MSG_DONTWAIT : 0);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r <= 0)
			return false;
		p += r;
		n -= (size_t)r;
	}
	return true;
}

static bool
write_all(int fd, const uint8_t *p, size_t n)
{
	while (n != 0) {
		ssize_t r = send(fd, p, n, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		n -= (size_t)r;
	}
	return true;
}

static void *
server(void *arg)
{
	(void)arg;
	pin(cpu_b);
	int fd = accept(lfd, NULL, NULL);
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	uint8_t *b = malloc(len);
	while (read_all(fd, b, len) && write_all(fd, b, len))
		;
	free(b);
	close(fd);
	return NULL;
}

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	static const struct option lo[] = { { "cpu-a", required_argument, NULL, 'a' },
					    { "cpu-b", required_argument, NULL, 'b' },
					    { "busy", no_argument, NULL, 'B' },
					    { "json", no_argument, NULL, 'j' },
					    { NULL, 0, NULL, 0 } };
	double seconds = 2;
	bool json = false;
	int c;
	while ((c = getopt_long(argc, argv, "l:t:", lo, NULL)) != -1) {
		switch (c) {
		case 'l':
			len = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 't':
			seconds = strtod(optarg, NULL);
			break;
		case 'a':
			cpu_a = atoi(optarg);
			break;
		case 'b':
			cpu_b = atoi(optarg);
			break;
		case 'B':
			busy = true;
			break;
		case 'j':
			json = true;
			break;
		default:
			fprintf(stderr, "usage: tcp-pingpong [-l BYTES] [-t SECONDS] [--busy] "
					"[--cpu-a N] [--cpu-b N] [--json]\n");
			return 2;
		}
	}
	if (len == 0 || len > 1 << 20 || !(seconds > 0.3))
		return 2;
	/* TSC frequency against the monotonic clock. */
	double t0 = now_s();
	uint64_t c0 = __rdtsc();
	while (now_s() - t0 < 0.1)
		;
	double hz = (double)(__rdtsc() - c0) / (now_s() - t0);

	struct sockaddr_in sa;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	socklen_t sl = sizeof(sa);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(lfd, 1) != 0 ||
	    getsockname(lfd, (struct sockaddr *)&sa, &sl) != 0) {
		perror("tcp-pingpong: listen");
		return 3;
	}
	pthread_t th;
	pthread_create(&th, NULL, server, NULL);
	pin(cpu_a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	int one = 1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		perror("tcp-pingpong: connect");
		return 3;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	uint8_t *b = calloc(1, len);
	size_t cap = 1 << 22, n = 0;
	uint64_t *s = malloc(cap * sizeof(*s));
	double start = now_s();
	while (now_s() - start < seconds) {
		uint64_t a = __rdtsc();
		if (!write_all(fd, b, len) || !read_all(fd, b, len))
			break;
		uint64_t ns = (uint64_t)((double)(__rdtsc() - a) / hz * 1e9 / 2);
		if (now_s() - start > 0.2 && n < cap)
			s[n++] = ns;
	}
	running = 0;
	shutdown(fd, SHUT_RDWR);
	close(fd);
	pthread_join(th, NULL);
	qsort(s, n, sizeof(*s), cmp);
#define Q(q) (n ? (double)s[(size_t)((q) * (double)(n - 1))] / 1e3 : 0)
	if (json)
		printf("{\"tool\": \"tcp-pingpong\", \"message_bytes\": %u, \"busy_poll\": %s, "
		       "\"end\": {\"round_trips\": %zu, \"latency_us\": {\"one_way\": \"rtt/2\", "
		       "\"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, \"p999\": %.3f, \"max\": "
		       "%.3f}}}\n",
		       len, busy ? "true" : "false", n, Q(0.5), Q(0.9), Q(0.99), Q(0.999), Q(1.0));
	else
		printf("TCP ping-pong %u bytes (%s reads): %zu round trips; one way (RTT/2) us p50 "
		       "%.2f "
		       "p90 %.2f p99 %.2f p99.9 %.2f max %.2f\n",
		       len, busy ? "busy" : "blocking", n, Q(0.5), Q(0.9), Q(0.99), Q(0.999),
		       Q(1.0));
	return n == 0 ? 1 : 0;
}
