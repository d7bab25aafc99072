/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * usrsctp-perf: the usrsctp side of the comparison in docs/PERFORMANCE.md
 * ("two endpoints in one process over AF_CONN, one thread each,
 * checksum on and off").
 *
 * Debian's libusrsctp (the FreeBSD stack in user space) with its own timer
 * thread; two sockets, a sender (client, port 5002) and a receiver
 * (server, port 5001), joined by AF_CONN: usrsctp hands every packet it
 * sends to conn_output(), which copies it into a bounded single-producer
 * single-consumer queue towards the other end (full: dropped and counted,
 * as a NIC ring would); each end's thread feeds its queue to
 * usrsctp_conninput(). Both sockets share one AF_CONN address; the SCTP
 * destination port in the packet picks the queue.
 *
 * The threads busy-poll, like dpsctp's lcores, and are measured the same
 * way: TSC around each loop iteration, busy when it moved a packet or a
 * message, so cycles per message are busy cycles over messages. Threads
 * are pinned (--cpu-sender, --cpu-receiver). The path MTU is 1500, as for
 * dpsctp, SCTP_NODELAY is on, send and receive buffers are 1 MiB.
 *
 * --no-crc calls usrsctp_enable_crc32c_offload(): usrsctp then neither
 * computes the CRC32c of what it sends nor checks what it receives (the
 * setting is global: both ends).
 *
 * Output: a summary, or with --json one document with the keys of
 * dpsctp-perf's (end.sum_received.*, end.cycles_per_message.*,
 * end.latency_us.* with --ping).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include <usrsctp.h>

#define Q_SLOTS	   4096u /* per direction, a power of two */
#define SLOT_BYTES 2048u /* one packet: MTU 1500 */
#define SRV_PORT   5001
#define CLI_PORT   5002
#define MAX_LEN	   65000u

struct pkt_q {
	_Atomic uint32_t head, tail; /* head: producer, tail: consumer */
	uint32_t len[Q_SLOTS];
	uint8_t (*buf)[SLOT_BYTES];
	_Atomic uint64_t drops;
};

struct end {
	struct socket *so;
	struct pkt_q in; /* packets for this end */
	uint64_t busy, loop;
	_Atomic uint64_t msgs, bytes;
	int cpu;
};

static struct end cli, srv;
static int conn_token;
static size_t max_pkt; /* the largest packet usrsctp wrote: the MTU in effect */
static _Atomic int running = 1, measuring;
static uint32_t msg_len = 1452, streams = 1;
static bool ping;
static uint64_t errors;
static _Atomic uint64_t pings;
/* RTT/2 samples in ns, bounded */
#define MAX_SAMPLES 4000000u
static uint64_t *samples;
static uint64_t n_samples;

static uint64_t
rdtsc(void)
{
	return __rdtsc();
}

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tsc_hz;

static void
measure_tsc(void)
{
	double t0 = now_s();
	uint64_t c0 = rdtsc();
	while (now_s() - t0 < 0.1)
		;
	tsc_hz = (double)(rdtsc() - c0) / (now_s() - t0);
}

/* usrsctp's output: the destination port picks the other end's queue. */
static int
conn_output(void *addr, void *buffer, size_t length, uint8_t tos, uint8_t set_df)
{
	(void)addr;
	(void)tos;
	(void)set_df;
	if (length < 12 || length > SLOT_BYTES)
		return 0;
	const uint8_t *p = buffer;
	uint16_t dport = (uint16_t)(p[2] << 8 | p[3]);
	struct pkt_q *q = dport == SRV_PORT ? &srv.in : &cli.in;
	uint32_t h = atomic_load_explicit(&q->head, memory_order_relaxed);
	uint32_t t = atomic_load_explicit(&q->tail, memory_order_acquire);
	if (h - t == Q_SLOTS) {
		atomic_fetch_add(&q->drops, 1);
		return 0;
	}
	if (length > max_pkt)
		max_pkt = length;
	memcpy(q->buf[h % Q_SLOTS], buffer, length);
	q->len[h % Q_SLOTS] = (uint32_t)length;
	atomic_store_explicit(&q->head, h + 1, memory_order_release);
	return 0;
}

/* Feed up to 32 queued packets to usrsctp; the number fed. */
static unsigned
drain(struct pkt_q *q)
{
	unsigned n = 0;
	uint32_t t = atomic_load_explicit(&q->tail, memory_order_relaxed);
	uint32_t h = atomic_load_explicit(&q->head, memory_order_acquire);
	for (; t != h && n < 32; t++, n++) {
		usrsctp_conninput(&conn_token, q->buf[t % Q_SLOTS], q->len[t % Q_SLOTS], 0);
		atomic_store_explicit(&q->tail, t + 1, memory_order_release);
	}
	return n;
}

static void
pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static struct socket *
make_socket(void)
{
	struct socket *so = usrsctp_socket(AF_CONN, SOCK_STREAM, IPPROTO_SCTP, NULL, NULL, 0, NULL);
	if (so == NULL)
		return NULL;
	int one = 1, buf = 1 << 20;
	(void)usrsctp_setsockopt(so, IPPROTO_SCTP, SCTP_NODELAY, &one, sizeof(one));
	(void)usrsctp_setsockopt(so, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	(void)usrsctp_setsockopt(so, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	return so;
}

/*
 * Path MTU 1500 as dpsctp's: set on the sockets before the association
 * exists (usrsctp only lowers the fragmentation point of a live one), for
 * future associations, PMTU discovery off. For AF_CONN usrsctp adds its
 * 12-byte common header to spp_pathmtu, so 1468 gives SCTP packets of at most
 * 1480 bytes: what fits a 1500-byte IPv4 MTU (a 1452-byte message is one
 * packet, as for dpsctp). Without it usrsctp uses 1280 for AF_CONN.
 */
static int
set_mtu(struct socket *so)
{
	struct sctp_paddrparams pp;
	memset(&pp, 0, sizeof(pp));
	pp.spp_address.ss_family = AF_CONN;
	pp.spp_assoc_id = SCTP_FUTURE_ASSOC;
	pp.spp_flags = SPP_PMTUD_DISABLE;
	pp.spp_pathmtu = 1500 - 20 - 12;
	return usrsctp_setsockopt(so, IPPROTO_SCTP, SCTP_PEER_ADDR_PARAMS, &pp, sizeof(pp));
}

/* One message in, as many as there are; true when anything was read. */
static bool
receive_some(struct end *e, uint8_t *rbuf, bool echo)
{
	bool any = false;
	for (int k = 0; k < 64; k++) {
		struct sctp_rcvinfo ri;
		socklen_t il = sizeof(ri);
		unsigned type = 0;
		int flags = 0;
		ssize_t n =
			usrsctp_recvv(e->so, rbuf, MAX_LEN, NULL, NULL, &ri, &il, &type, &flags);
		if (n <= 0)
			break;
		any = true;
		if (!(flags & MSG_EOR))
			continue; /* a part: the rest follows */
		if (atomic_load_explicit(&measuring, memory_order_relaxed)) {
			atomic_fetch_add_explicit(&e->msgs, 1, memory_order_relaxed);
			atomic_fetch_add_explicit(&e->bytes, (uint64_t)n, memory_order_relaxed);
		}
		if (e == &srv && !ping && streams == 1) {
			static uint32_t expect;
			uint32_t seq;
			memcpy(&seq, rbuf, sizeof(seq));
			if (seq != expect)
				errors++;
			expect = seq + 1;
		}
		if (echo) {
			struct sctp_sndinfo si = { 0 }; /* stream 0: pings use only it */
			while (usrsctp_sendv(e->so, rbuf, (size_t)n, NULL, 0, &si, sizeof(si),
					     SCTP_SENDV_SNDINFO, 0) < 0 &&
			       errno == EWOULDBLOCK && atomic_load(&running))
				(void)drain(&e->in);
		}
		if (e == &cli && ping) {
			uint64_t t0;
			memcpy(&t0, rbuf + 8, sizeof(t0));
			uint64_t ns = (uint64_t)((double)(rdtsc() - t0) / tsc_hz * 1e9 / 2);
			if (atomic_load(&measuring) && n_samples < MAX_SAMPLES)
				samples[n_samples++] = ns;
			atomic_fetch_add(&pings, 1);
			return true; /* the next ping may go */
		}
	}
	return any;
}

static void *
server_thread(void *arg)
{
	(void)arg;
	pin(srv.cpu);
	uint8_t *rbuf = malloc(MAX_LEN);
	while (atomic_load_explicit(&running, memory_order_relaxed)) {
		uint64_t t0 = rdtsc();
		bool work = drain(&srv.in) != 0;
		work |= receive_some(&srv, rbuf, ping);
		uint64_t t1 = rdtsc();
		if (atomic_load_explicit(&measuring, memory_order_relaxed)) {
			srv.loop += t1 - t0;
			if (work)
				srv.busy += t1 - t0;
		}
	}
	free(rbuf);
	return NULL;
}

static void *
client_thread(void *arg)
{
	(void)arg;
	pin(cli.cpu);
	uint8_t *msg = malloc(MAX_LEN), *rbuf = malloc(MAX_LEN);
	for (uint32_t i = 0; i < MAX_LEN; i++)
		msg[i] = (uint8_t)(i * 131u + 7u);
	uint32_t seq = 0;
	bool outstanding = false;
	uint16_t sid = 0;
	while (atomic_load_explicit(&running, memory_order_relaxed)) {
		uint64_t t0 = rdtsc();
		bool work = drain(&cli.in) != 0;
		if (ping) {
			if (outstanding && receive_some(&cli, rbuf, false))
				outstanding = false, work = true;
			if (!outstanding) {
				uint64_t now = rdtsc();
				memcpy(msg, &seq, sizeof(seq));
				memcpy(msg + 8, &now, sizeof(now));
				struct sctp_sndinfo si = { 0 };
				if (usrsctp_sendv(cli.so, msg, msg_len, NULL, 0, &si, sizeof(si),
						  SCTP_SENDV_SNDINFO, 0) >= 0)
					outstanding = true, seq++, work = true;
			}
		} else {
			for (int k = 0; k < 32; k++) {
				struct sctp_sndinfo si = { 0 };
				si.snd_sid = sid;
				memcpy(msg, &seq, sizeof(seq));
				if (usrsctp_sendv(cli.so, msg, msg_len, NULL, 0, &si, sizeof(si),
						  SCTP_SENDV_SNDINFO, 0) < 0)
					break;
				seq++;
				sid = (uint16_t)((sid + 1) % streams);
				work = true;
			}
		}
		uint64_t t1 = rdtsc();
		if (atomic_load_explicit(&measuring, memory_order_relaxed)) {
			cli.loop += t1 - t0;
			if (work)
				cli.busy += t1 - t0;
		}
	}
	free(msg);
	free(rbuf);
	return NULL;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static double
quant(double q)
{
	if (n_samples == 0)
		return 0;
	uint64_t i = (uint64_t)(q * (double)n_samples);
	if (i >= n_samples)
		i = n_samples - 1;
	return (double)samples[i] / 1e3;
}

static void
usage(FILE *f)
{
	fprintf(f, "usage: usrsctp-perf [-l BYTES] [-t SECONDS] [-S STREAMS] [--no-crc] [--ping]\n"
		   "                    [--cpu-sender N] [--cpu-receiver N] [--json]\n");
}

int
main(int argc, char **argv)
{
	static const struct option lo[] = { { "no-crc", no_argument, NULL, 'n' },
					    { "ping", no_argument, NULL, 'p' },
					    { "json", no_argument, NULL, 'j' },
					    { "cpu-sender", required_argument, NULL, 'a' },
					    { "cpu-receiver", required_argument, NULL, 'b' },
					    { "help", no_argument, NULL, 'h' },
					    { NULL, 0, NULL, 0 } };
	double seconds = 3, omit = 0.2;
	bool no_crc = false, json = false;
	int c;
	cli.cpu = 0;
	srv.cpu = 1;
	while ((c = getopt_long(argc, argv, "l:t:S:h", lo, NULL)) != -1) {
		switch (c) {
		case 'l':
			msg_len = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 't':
			seconds = strtod(optarg, NULL);
			break;
		case 'S':
			streams = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'n':
			no_crc = true;
			break;
		case 'p':
			ping = true;
			break;
		case 'j':
			json = true;
			break;
		case 'a':
			cli.cpu = atoi(optarg);
			break;
		case 'b':
			srv.cpu = atoi(optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (msg_len < 16 || msg_len > MAX_LEN || streams == 0 || streams > 1024 ||
	    !(seconds > omit)) {
		usage(stderr);
		return 2;
	}
	measure_tsc();
	samples = ping ? calloc(MAX_SAMPLES, sizeof(*samples)) : NULL;
	cli.in.buf = calloc(Q_SLOTS, SLOT_BYTES);
	srv.in.buf = calloc(Q_SLOTS, SLOT_BYTES);
	if (cli.in.buf == NULL || srv.in.buf == NULL || (ping && samples == NULL))
		return 3;

	usrsctp_init(0, conn_output, NULL);
	if (no_crc)
		usrsctp_enable_crc32c_offload();
	usrsctp_sysctl_set_sctp_ecn_enable(0);
	usrsctp_register_address(&conn_token);

	struct socket *lsn = make_socket(), *s = NULL;
	cli.so = make_socket();
	if (lsn == NULL || cli.so == NULL) {
		fprintf(stderr, "usrsctp-perf: usrsctp_socket: %s\n", strerror(errno));
		return 3;
	}
	if (set_mtu(lsn) < 0 || set_mtu(cli.so) < 0) {
		fprintf(stderr, "usrsctp-perf: path MTU: %s\n", strerror(errno));
		return 3;
	}
	struct sockaddr_conn a;
	memset(&a, 0, sizeof(a));
	a.sconn_family = AF_CONN;
	a.sconn_addr = &conn_token;
	a.sconn_port = htons(SRV_PORT);
	if (usrsctp_bind(lsn, (struct sockaddr *)&a, sizeof(a)) < 0 || usrsctp_listen(lsn, 1) < 0) {
		fprintf(stderr, "usrsctp-perf: bind/listen: %s\n", strerror(errno));
		return 3;
	}
	a.sconn_port = htons(CLI_PORT);
	if (usrsctp_bind(cli.so, (struct sockaddr *)&a, sizeof(a)) < 0) {
		fprintf(stderr, "usrsctp-perf: bind: %s\n", strerror(errno));
		return 3;
	}
	usrsctp_set_non_blocking(cli.so, 1);
	a.sconn_port = htons(SRV_PORT);
	if (usrsctp_connect(cli.so, (struct sockaddr *)&a, sizeof(a)) < 0 && errno != EINPROGRESS) {
		fprintf(stderr, "usrsctp-perf: connect: %s\n", strerror(errno));
		return 3;
	}
	/* The handshake: this thread moves the packets until accept() returns. */
	usrsctp_set_non_blocking(lsn, 1);
	for (double t0 = now_s(); s == NULL;) {
		(void)drain(&srv.in);
		(void)drain(&cli.in);
		s = usrsctp_accept(lsn, NULL, NULL);
		if (s == NULL && now_s() - t0 > 5) {
			fprintf(stderr, "usrsctp-perf: no association in 5 s\n");
			return 1;
		}
	}
	for (int i = 0; i < 1000; i++) { /* the COOKIE ACK reaches the client */
		(void)drain(&srv.in);
		(void)drain(&cli.in);
	}
	srv.so = s;
	usrsctp_set_non_blocking(srv.so, 1);

	pthread_t tc, ts;
	pthread_create(&ts, NULL, server_thread, NULL);
	pthread_create(&tc, NULL, client_thread, NULL);
	double start = now_s();
	while (now_s() - start < omit)
		;
	atomic_store(&measuring, 1);
	uint64_t c0 = rdtsc();
	double m0 = now_s();
	while (now_s() - m0 < seconds - omit) {
		struct timespec d = { 0, 1000000 };
		nanosleep(&d, NULL);
	}
	atomic_store(&measuring, 0);
	double secs = (double)(rdtsc() - c0) / tsc_hz;
	atomic_store(&running, 0);
	pthread_join(tc, NULL);
	pthread_join(ts, NULL);

	uint64_t msgs = atomic_load(&srv.msgs), bytes = atomic_load(&srv.bytes);
	if (ping) {
		msgs = atomic_load(&cli.msgs); /* echoes received */
		bytes = atomic_load(&cli.bytes);
	}
	double cpm_s = msgs ? (double)cli.busy / (double)msgs : 0;
	double cpm_r = msgs ? (double)srv.busy / (double)msgs : 0;
	uint64_t drops = atomic_load(&cli.in.drops) + atomic_load(&srv.in.drops);
	if (ping)
		qsort(samples, n_samples, sizeof(*samples), cmp_u64);
	if (json) {
		printf("{\n  \"tool\": \"usrsctp-perf\", \"usrsctp\": \"0.9.5 (Debian "
		       "libusrsctp2)\", "
		       "\"crc32c\": %s, \"message_bytes\": %u, \"streams\": %u, \"seconds\": "
		       "%.3f,\n",
		       no_crc ? "false" : "true", msg_len, streams, secs);
		printf("  \"end\": {\n    \"sum_received\": {\"bytes\": %" PRIu64
		       ", \"messages\": %" PRIu64 ", \"bits_per_second\": %.0f, "
		       "\"messages_per_second\": %.0f},\n",
		       bytes, msgs, (double)bytes * 8 / secs, (double)msgs / secs);
		printf("    \"cycles_per_message\": {\"sender\": %.1f, \"receiver\": %.1f},\n",
		       cpm_s, cpm_r);
		printf("    \"idle_fraction\": {\"sender\": %.4f, \"receiver\": %.4f},\n",
		       cli.loop ? 1 - (double)cli.busy / (double)cli.loop : 0,
		       srv.loop ? 1 - (double)srv.busy / (double)srv.loop : 0);
		if (ping)
			printf("    \"latency_us\": {\"one_way\": \"rtt/2\", \"samples\": %" PRIu64
			       ", \"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, \"p999\": %.3f, "
			       "\"max\": %.3f},\n",
			       n_samples, quant(0.5), quant(0.9), quant(0.99), quant(0.999),
			       quant(1.0));
		printf("    \"largest_packet\": %zu, \"queue_drops\": %" PRIu64
		       ", \"errors\": %" PRIu64 "\n  }\n}\n",
		       max_pkt, drops, errors);
	} else {
		printf("usrsctp %s, %u-byte messages, %u stream(s), crc32c %s\n",
		       ping ? "ping-pong" : "bulk", msg_len, streams, no_crc ? "off" : "on");
		printf("%.2f s: %.3f Gbit/s, %.0f msg/s; cycles/message sender %.0f receiver %.0f; "
		       "largest packet %zu; queue drops %" PRIu64 ", order errors %" PRIu64 "\n",
		       secs, (double)bytes * 8 / secs / 1e9, (double)msgs / secs, cpm_s, cpm_r,
		       max_pkt, drops, errors);
		if (ping)
			printf("latency (RTT/2) us: p50 %.2f p90 %.2f p99 %.2f p99.9 %.2f max "
			       "%.2f\n",
			       quant(0.5), quant(0.9), quant(0.99), quant(0.999), quant(1.0));
	}
	/* No usrsctp_finish(): closing associations needs the threads we stopped. */
	return msgs == 0 || errors != 0 ? 1 : 0;
}
