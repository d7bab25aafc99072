/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * raw-ceiling: the I/O ceiling of the path dpsctp-perf --loopback uses — a
 * net_ring port pair, one lcore sending and one receiving (or one lcore
 * doing both with --one-core) — with no protocol: what a bare loop moves.
 *
 * The sender builds the frames dpsctp would send for messages of -l bytes:
 * Ethernet 14, IPv4 20 (checksummed), SCTP common header 12, then DATA
 * chunks (16-byte header, payload padded to 4); --bundle N puts N messages
 * in a frame (as SCTP bundling does); payloads up to 512 bytes are copied
 * into the frame, larger ones attached by reference (an indirect mbuf on a
 * payload buffer, as dpsctp's zero-copy send). --crc computes the SCTP
 * CRC32c with the engine dpsctp uses (dpsctp_crc32c()) and the receiver
 * checks it. The receiver checks each frame's lengths and frees it. That is
 * the least any SCTP stack on this path must do: the ratio of dpsctp's rate
 * to this one says what the protocol costs on top.
 *
 * Busy cycles per packet are measured as in dpsctp-perf (TSC around loop
 * iterations that moved something).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "apps/common/app_common.h"
#include "dataplane/dpsctp.h"

#define BURST	 32u
#define COPY_MAX 512u
#define HDRS	 (14u + 20u + 12u)

static uint32_t msg_len = 1452, bundle = 1;
static uint32_t frag;		    /* payload bytes per frame: min(msg_len, 1452) */
static uint32_t frames_per_msg = 1; /* fragments of a message above 1452 bytes */
static struct rte_mbuf *pay_m;	    /* the payload large messages refer to */
static bool crc, one_core;
static uint16_t port_a, port_b;
static struct rte_mempool *pool, *ind_pool;
static uint8_t *payload;
static volatile int running = 1, measuring;

struct side {
	uint64_t busy, loop, pkts, bytes, bad;
};
static struct side tx, rx;

static uint32_t
frame_len(void)
{
	return HDRS + bundle * (16u + ((frag + 3u) & ~3u));
}

/* One frame: headers written for real, payload copied or referred to. */
static struct rte_mbuf *
build(uint32_t tsn)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	if (m == NULL)
		return NULL;
	bool refer = frag > COPY_MAX; /* then bundle is 1 */
	uint32_t pad = ((frag + 3u) & ~3u) - frag;
	uint32_t head = refer ? HDRS + 16u : frame_len();
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)head);
	memset(p, 0, 12);
	p[12] = 0x08;
	p[13] = 0x00;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + 14);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->time_to_live = 64;
	ip->next_proto_id = 132;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(frame_len() - 14u));
	ip->src_addr = rte_cpu_to_be_32(0x0a000001);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000002);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	uint8_t *s = p + 34;
	memset(s, 0, 12);
	s[0] = 0xc3, s[1] = 0x50, s[2] = 0x13, s[3] = 0x89;
	uint8_t *c = s + 12;
	for (uint32_t k = 0; k < bundle; k++) {
		uint32_t be;
		c[0] = 0, c[1] = 3;
		uint16_t clen = rte_cpu_to_be_16((uint16_t)(16u + frag));
		memcpy(c + 2, &clen, 2);
		be = rte_cpu_to_be_32(tsn + k);
		memcpy(c + 4, &be, 4);
		memset(c + 8, 0, 8);
		if (!refer) {
			memcpy(c + 16, payload, frag);
			memset(c + 16 + frag, 0, pad);
		}
		c += 16u + frag + pad;
	}
	if (refer) {
		struct rte_mbuf *ind = rte_pktmbuf_alloc(ind_pool);
		if (ind == NULL) {
			rte_pktmbuf_free(m);
			return NULL;
		}
		rte_pktmbuf_attach(ind, pay_m);
		ind->data_len = (uint16_t)(frag + pad);
		ind->pkt_len = ind->data_len;
		if (rte_pktmbuf_chain(m, ind) != 0) {
			rte_pktmbuf_free(ind);
			rte_pktmbuf_free(m);
			return NULL;
		}
	}
	if (crc) {
		uint32_t v = 0;
		const struct rte_mbuf *seg = m;
		uint32_t off = 34;
		for (; seg != NULL; seg = seg->next, off = 0)
			v = dpsctp_crc32c(v, rte_pktmbuf_mtod_offset(seg, uint8_t *, off),
					  seg->data_len - off);
		memcpy(s + 8, &v, 4); /* little-endian, as RFC 9260 appendix B */
	}
	return m;
}

/* One burst out. */
static void
tx_once(void)
{
	static uint32_t tsn;
	struct rte_mbuf *b[BURST];
	{
		uint64_t t0 = rte_rdtsc();
		unsigned n = 0;
		for (; n < BURST; n++)
			if ((b[n] = build(tsn += bundle)) == NULL)
				break;
		uint16_t sent = rte_eth_tx_burst(port_a, 0, b, (uint16_t)n);
		if (sent < n)
			rte_pktmbuf_free_bulk(b + sent, n - sent);
		uint64_t t1 = rte_rdtsc();
		if (measuring) {
			tx.loop += t1 - t0;
			if (sent != 0)
				tx.busy += t1 - t0;
			tx.pkts += sent;
		}
	}
}

static int
tx_lcore(void *arg)
{
	(void)arg;
	while (running)
		tx_once();
	return 0;
}

/* One burst in, checked. */
static void
rx_once(void)
{
	struct rte_mbuf *b[BURST];
	{
		uint64_t t0 = rte_rdtsc();
		uint16_t n = rte_eth_rx_burst(port_b, 0, b, BURST);
		for (uint16_t i = 0; i < n; i++) {
			struct rte_mbuf *m = b[i];
			const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
			uint16_t ipl = (uint16_t)(p[16] << 8 | p[17]);
			if (m->pkt_len != frame_len() || ipl + 14u != m->pkt_len || p[23] != 132)
				rx.bad++;
			if (crc) {
				uint32_t want, v = 0;
				memcpy(&want, p + 42, 4);
				memset((uint8_t *)p + 42, 0, 4);
				const struct rte_mbuf *seg = m;
				uint32_t off = 34;
				for (; seg != NULL; seg = seg->next, off = 0)
					v = dpsctp_crc32c(
						v, rte_pktmbuf_mtod_offset(seg, uint8_t *, off),
						seg->data_len - off);
				if (v != want)
					rx.bad++;
			}
			if (measuring)
				rx.bytes += m->pkt_len;
		}
		rte_pktmbuf_free_bulk(b, n);
		uint64_t t1 = rte_rdtsc();
		if (measuring) {
			rx.loop += t1 - t0;
			if (n != 0)
				rx.busy += t1 - t0;
			rx.pkts += n;
		}
	}
}

static int
port_start(uint16_t port)
{
	struct rte_eth_conf conf;
	memset(&conf, 0, sizeof(conf));
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 1024, (unsigned)rte_socket_id(), NULL, pool) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 1024, (unsigned)rte_socket_id(), NULL) != 0)
		return -1;
	return rte_eth_dev_start(port);
}

static void
usage(FILE *f)
{
	fprintf(f, "usage: raw-ceiling [EAL args] -- [-l BYTES] [-t SECONDS] [--bundle N] [--crc]\n"
		   "                   [--one-core] [--json]\n"
		   "  two lcores (-l 0-1): sender on the second, receiver on the first;\n"
		   "  --one-core: one lcore alternates (EAL -l 0)\n");
}

int
main(int argc, char **argv)
{
	if (app_help_wanted(argc, argv)) {
		usage(stdout);
		return 0;
	}
	int n = rte_eal_init(argc, argv);
	if (n < 0) {
		fprintf(stderr, "raw-ceiling: the EAL did not start\n");
		return 3;
	}
	argc -= n;
	argv += n;
	static const struct option lo[] = {
		{ "bundle", required_argument, NULL, 'b' }, { "crc", no_argument, NULL, 'c' },
		{ "one-core", no_argument, NULL, 'o' },	    { "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },	    { NULL, 0, NULL, 0 }
	};
	double seconds = 2, omit = 0.2;
	bool json = false;
	int c;
	while ((c = getopt_long(argc, argv, "l:t:h", lo, NULL)) != -1) {
		switch (c) {
		case 'l':
			msg_len = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 't':
			seconds = strtod(optarg, NULL);
			break;
		case 'b':
			bundle = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'c':
			crc = true;
			break;
		case 'o':
			one_core = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	frag = msg_len < 1452u ? msg_len : 1452u;
	frames_per_msg = (msg_len + frag - 1u) / frag;
	if (msg_len < 1 || msg_len > 65000 || bundle == 0 || frame_len() > 1514u ||
	    (bundle > 1 && frag > COPY_MAX) || !(seconds > omit)) {
		fprintf(stderr, "raw-ceiling: a frame of %u bytes does not fit 1514\n",
			frame_len());
		usage(stderr);
		return 2;
	}
	unsigned tx_lcore_id = rte_get_next_lcore(-1, 1, 0);
	if (!one_core && tx_lcore_id >= RTE_MAX_LCORE) {
		fprintf(stderr, "raw-ceiling: two lcores needed (-l 0-1), or --one-core\n");
		return 2;
	}
	pool = rte_pktmbuf_pool_create("raw_pool", 16384, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       (int)rte_socket_id());
	ind_pool = rte_pktmbuf_pool_create("raw_ind", 16384, 256, 0, 0, (int)rte_socket_id());
	struct rte_ring *ab =
		rte_ring_create("raw_ab", 4096, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	struct rte_ring *ba =
		rte_ring_create("raw_ba", 4096, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	int pa = ab && ba ? rte_eth_from_rings("raw_a", &ba, 1, &ab, 1, SOCKET_ID_ANY) : -1;
	int pb = ab && ba ? rte_eth_from_rings("raw_b", &ab, 1, &ba, 1, SOCKET_ID_ANY) : -1;
	if (pool == NULL || ind_pool == NULL || pa < 0 || pb < 0) {
		fprintf(stderr, "raw-ceiling: pools or the net_ring pair could not be made\n");
		return 3;
	}
	port_a = (uint16_t)pa;
	port_b = (uint16_t)pb;
	if (port_start(port_a) != 0 || port_start(port_b) != 0) {
		fprintf(stderr, "raw-ceiling: the net_ring ports would not start\n");
		return 3;
	}
	payload = malloc(65536);
	pay_m = rte_pktmbuf_alloc(pool);
	if (payload == NULL || pay_m == NULL)
		return 3;
	for (unsigned i = 0; i < 65536; i++)
		payload[i] = (uint8_t)(i * 131u + 7u);
	memcpy(rte_pktmbuf_append(pay_m, (uint16_t)(frag + 3u)), payload, frag + 3u);

	uint64_t hz = rte_get_tsc_hz();
	uint64_t start = rte_rdtsc(), t_meas = 0, t_end = start + (uint64_t)(seconds * (double)hz);
	if (!one_core)
		rte_eal_remote_launch(tx_lcore, NULL, tx_lcore_id);
	for (;;) {
		uint64_t now = rte_rdtsc();
		if (!measuring && t_meas == 0 && now >= start + (uint64_t)(omit * (double)hz)) {
			t_meas = now;
			measuring = 1;
		}
		if (now >= t_end)
			break;
		if (one_core)
			tx_once();
		rx_once();
	}
	measuring = 0;
	running = 0;
	if (!one_core)
		rte_eal_wait_lcore(tx_lcore_id);
	double secs = (double)(rte_rdtsc() - t_meas) / (double)hz;
	double pps = (double)rx.pkts / secs;
	double mps = pps * bundle / frames_per_msg;
	double bps = mps * msg_len * 8;
	double cpp_tx = tx.pkts ? (double)tx.busy / (double)tx.pkts : 0;
	double cpp_rx = rx.pkts ? (double)rx.busy / (double)rx.pkts : 0;
	if (json) {
		printf("{\n  \"tool\": \"raw-ceiling\", \"message_bytes\": %u, \"bundle\": %u, "
		       "\"frame_bytes\": %u, \"frames_per_message\": %u, \"crc32c\": %s, "
		       "\"one_core\": %s, \"seconds\": %.3f,\n",
		       msg_len, bundle, frame_len(), frames_per_msg, crc ? "true" : "false",
		       one_core ? "true" : "false", secs);
		printf("  \"end\": {\"sum_received\": {\"packets\": %" PRIu64
		       ", \"packets_per_second\": %.0f, \"messages_per_second\": %.0f, "
		       "\"bits_per_second\": %.0f},\n",
		       rx.pkts, pps, mps, bps);
		printf("    \"cycles_per_packet\": {\"sender\": %.1f, \"receiver\": %.1f},\n",
		       cpp_tx, cpp_rx);
		printf("    \"cycles_per_message\": {\"sender\": %.1f, \"receiver\": %.1f},\n",
		       cpp_tx * frames_per_msg / bundle, cpp_rx * frames_per_msg / bundle);
		printf("    \"idle_fraction\": {\"sender\": %.4f, \"receiver\": %.4f},\n",
		       tx.loop ? 1 - (double)tx.busy / (double)tx.loop : 0,
		       rx.loop ? 1 - (double)rx.busy / (double)rx.loop : 0);
		printf("    \"errors\": %" PRIu64 "}\n}\n", rx.bad);
	} else {
		printf("raw ceiling: %u-byte messages, %u per frame (%u bytes), crc %s, %s\n",
		       msg_len, bundle, frame_len(), crc ? "on" : "off",
		       one_core ? "one core" : "two cores");
		printf("%.2f s: %.0f packets/s, %.0f msg/s, %.3f Gbit/s payload; cycles/packet "
		       "sender %.0f receiver %.0f; errors %" PRIu64 "\n",
		       secs, pps, mps, bps / 1e9, cpp_tx, cpp_rx, rx.bad);
	}
	rte_pktmbuf_free(pay_m);
	rte_eal_cleanup();
	return rx.bad != 0 || rx.pkts == 0 ? 1 : 0;
}
