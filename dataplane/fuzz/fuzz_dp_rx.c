/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the whole data-plane receive path — L2/L3, CRC, demux,
 * the association table, the core, the timer wheel, the transmit side — of
 * one running instance, on a virtual clock (dp_worker_clock_set()) and a
 * fixed seed (dp_worker_seed_set()), so that the same input does the same
 * thing every run and timers fire when the input says.
 *
 * One instance, made once: worker 0 on a net_ring port (rte_eth_from_rings)
 * whose rings the harness holds: it writes frames into the receive ring,
 * polls, and reads what the instance sent. It listens on SCTP port 5001 at
 * 10.0.0.2/24, MTU 1500, with small limits (4 associations, 2 handshakes,
 * 4 KB windows, 2 paths) so that tables and pools fill, and offers PR-SCTP,
 * I-DATA and RE-CONFIG. The harness plays up to FZ_SLOTS peers at 10.0.0.9
 * (ports 4000 + slot): from every frame the instance sends it learns a
 * slot's tags, TSNs, state cookie, heartbeat information and RE-CONFIG
 * sequence number, so that the chunks it builds can complete a handshake
 * and talk inside the windows. It answers ARP requests for any 10.0.0.x
 * but 10.0.0.2 (unless the input turns that off), so paths resolve.
 *
 * Input: byte 0 is options (bit 0: no ARP answers), then records until the
 * input ends (at most FZ_MAX_OPS): an opcode byte, a u16 length (little
 * endian) and that many bytes of body, which the operation reads with
 * fz_input.h (what runs out reads as zeros, and an operation never reads
 * the next one's bytes). LLVMFuzzerCustomMutator() works on whole records.
 *
 *   0 frame     u16 split, bytes: a raw frame (split != 0: in two mbuf
 *               segments at that offset)
 *   1 packet    a structure-aware SCTP packet (fz_packet())
 *   2 clock     u8 shift, u8 mult: now += (mult + 1) << (shift % 40) ns
 *   3 send      u8 slot, u8 sid, u8 length, u8 flags: dpsctp_send_bytes()
 *   4 shutdown  u8 slot: dpsctp_shutdown()
 *   5 abort     u8 slot: dpsctp_abort()
 *   6 connect   u8 slot: dpsctp_connect() to 10.0.0.9, port 4000 + slot
 *
 * After each operation the instance is polled and its frames read; each
 * must have a good IPv4 header and checksum and CRC32c and fit the MTU.
 * At the end: every association aborted, the clock run on two hours in doubling
 * steps, and then the checks — no association left, every mbuf back in the
 * pool (the worker's packing mbuf aside, held by nobody else) — abort()
 * otherwise, which libFuzzer reports: a leak is a finding.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "dataplane/config.h"
#include "dataplane/dp_types.h"
#include "dataplane/dp_worker.h"
#include "dataplane/dpsctp.h"
#include "dataplane/sidecar/fuzz/fz_input.h"
#include "drivers/crc32c/crc32c.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_NAME	      "fuzz_dp_rx"
#define FZ_SLOTS      4u
#define FZ_MAX_OPS    256u
#define FZ_FRAME_MAX  2048u
#define FZ_PKT_MAX    1800u /* SCTP bytes of a built packet */
#define FZ_COOKIE_MAX 512u
#define FZ_HB_MAX     128u
#define FZ_HANDLES    32u
#define FZ_LPORT      5001u
#define FZ_CLOSED     5002u /* nobody listens: RFC 9260 §8.4 answers */
#define FZ_PPORT      4000u
#define FZ_SEED	      0x6470727866757a7aull

static const uint8_t fz_our_ip[4] = { 10, 0, 0, 2 };
static const uint8_t fz_peer_ip[4] = { 10, 0, 0, 9 };

/* What the harness knows of one peer it plays (FZ_PPORT + slot). */
struct fz_slot {
	uint32_t my_tag;     /* the tag the harness offered (the instance sends it) */
	uint32_t my_tsn;     /* the next TSN the harness sends */
	uint32_t srv_tag;    /* the instance's tag, from its INIT or INIT ACK */
	uint32_t srv_tsn;    /* the highest TSN the instance sent (its initial - 1 at first) */
	uint32_t srv_reconf; /* the instance's last RE-CONFIG request sequence number */
	uint32_t my_reconf;  /* the harness's next one */
	uint16_t srv_port;   /* the instance's port: FZ_LPORT, or the one it connected from */
	uint16_t cookie_len; /* the instance's state cookie, from its INIT ACK */
	uint8_t cookie[FZ_COOKIE_MAX];
	uint16_t hb_len; /* the instance's last heartbeat information */
	uint8_t hb[FZ_HB_MAX];
	uint16_t ssn[4], mid;	/* the next stream sequence and message numbers */
	struct dpsctp_assoc *a; /* the instance's handle, while it lives */
};

static struct {
	struct dpsctp *d;
	struct dp_worker *w;
	struct rte_ring *rx, *tx; /* the instance's receive and transmit rings */
	struct rte_mempool *pool;
	uint8_t mac[6];
	unsigned baseline; /* mbufs free between inputs */
	uint64_t now;	   /* the virtual clock (ns) */
	bool arp;	   /* answer ARP requests */
	struct fz_slot slot[FZ_SLOTS];
	struct dpsctp_assoc *h[FZ_HANDLES]; /* every live association's handle */
	unsigned n_h;
	uint64_t frames_out;
	uint64_t events[DPSCTP_EV_PATH_MTU + 1]; /* by type, for FUZZ_DP_RX_STATS */
	bool stats;				 /* FUZZ_DP_RX_STATS set: print after each input */
} fz;

static uint64_t
fz_clock(void *ctx)
{
	(void)ctx;
	return fz.now;
}

static void
fz_fail(bool cond, const char *what)
{
	fz_check(FZ_NAME, cond, what);
}

/* ---- handles ------------------------------------------------------------ */

static int
fz_slot_of(struct dpsctp_assoc *a)
{
	unsigned p = a->a.peer_port;
	return p >= FZ_PPORT && p < FZ_PPORT + FZ_SLOTS ? (int)(p - FZ_PPORT) : -1;
}

static void
fz_handle_add(struct dpsctp_assoc *a)
{
	for (unsigned i = 0; i < fz.n_h; i++)
		if (fz.h[i] == a)
			return;
	fz_fail(fz.n_h < FZ_HANDLES, "more live associations than the limits allow");
	fz.h[fz.n_h++] = a;
	int s = fz_slot_of(a);
	if (s >= 0)
		fz.slot[s].a = a;
}

static void
fz_handle_del(struct dpsctp_assoc *a)
{
	for (unsigned i = 0; i < fz.n_h; i++)
		if (fz.h[i] == a) {
			fz.h[i] = fz.h[--fz.n_h];
			break;
		}
	for (unsigned s = 0; s < FZ_SLOTS; s++)
		if (fz.slot[s].a == a)
			fz.slot[s].a = NULL;
}

static void
fz_on_recv(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg)
{
	(void)a;
	(void)m;
	(void)arg;
}

static void
fz_on_event(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	(void)arg;
	if ((unsigned)ev->type < sizeof(fz.events) / sizeof(fz.events[0]))
		fz.events[ev->type]++;
	switch (ev->type) {
	case DPSCTP_EV_COMM_UP:
	case DPSCTP_EV_RESTART:
		fz_handle_add(a);
		break;
	case DPSCTP_EV_COMM_LOST:
	case DPSCTP_EV_SHUTDOWN_COMPLETE:
	case DPSCTP_EV_CANT_START:
		fz_handle_del(a);
		break;
	default:
		break;
	}
}

static const struct dpsctp_callbacks fz_cb = {
	.on_recv = fz_on_recv,
	.on_event = fz_on_event,
};

/* ---- bytes -------------------------------------------------------------- */

static void
fz_put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
fz_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint16_t
fz_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t
fz_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* RFC 791 header checksum. */
static uint16_t
fz_ip_csum(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* ---- the wire ----------------------------------------------------------- */

/* One frame into the instance's receive ring: in two segments when split is inside it. */
static void
fz_inject(const uint8_t *f, size_t len, size_t split)
{
	if (len == 0 || len > FZ_FRAME_MAX)
		return;
	if (split == 0 || split >= len)
		split = len;
	struct rte_mbuf *m = rte_pktmbuf_alloc(fz.pool);
	fz_fail(m != NULL, "no mbuf for a frame");
	memcpy(rte_pktmbuf_append(m, (uint16_t)split), f, split);
	if (split < len) {
		struct rte_mbuf *t = rte_pktmbuf_alloc(fz.pool);
		fz_fail(t != NULL, "no mbuf for a frame's tail");
		memcpy(rte_pktmbuf_append(t, (uint16_t)(len - split)), f + split, len - split);
		fz_fail(rte_pktmbuf_chain(m, t) == 0, "chain");
	}
	if (rte_ring_enqueue(fz.rx, m) != 0)
		rte_pktmbuf_free(m);
}

/* Ethernet + IPv4 from src (10.0.0.x) to the instance around an SCTP packet. */
static size_t
fz_frame_ip(uint8_t *f, uint8_t src_host, const uint8_t *sctp, size_t len)
{
	memcpy(f, fz.mac, 6);
	const uint8_t smac[6] = { 0x02, 0, 0, 0, 0, src_host };
	memcpy(f + 6, smac, 6);
	f[12] = 0x08;
	f[13] = 0x00;
	uint8_t *ip = f + 14;
	memset(ip, 0, 20);
	ip[0] = 0x45;
	fz_put16(ip + 2, (uint32_t)(20 + len));
	ip[6] = 0x40; /* DF */
	ip[8] = 64;
	ip[9] = 132;
	const uint8_t src[4] = { 10, 0, 0, src_host };
	memcpy(ip + 12, src, 4);
	memcpy(ip + 16, fz_our_ip, 4);
	fz_put16(ip + 10, fz_ip_csum(ip, 20));
	memcpy(f + 34, sctp, len);
	return 34 + len;
}

/*
 * ARP (RFC 826) to the instance: 10.0.0.host is at 02:00:00:00:00:host, as
 * a reply (to its request) or a request for its address (which it learns
 * from: it keeps no unsolicited reply).
 */
static void
fz_arp(uint8_t host, bool request)
{
	uint8_t f[60];
	memset(f, 0, sizeof(f));
	memcpy(f, fz.mac, 6);
	const uint8_t smac[6] = { 0x02, 0, 0, 0, 0, host };
	memcpy(f + 6, smac, 6);
	const uint8_t hdr[] = { 0x08, 0x06, 0, 1, 0x08, 0, 6, 4, 0, request ? 1 : 2 };
	memcpy(f + 12, hdr, sizeof(hdr));
	memcpy(f + 22, smac, 6);
	const uint8_t spa[4] = { 10, 0, 0, host };
	memcpy(f + 28, spa, 4);
	if (request)
		memset(f, 0xff, 6);
	else
		memcpy(f + 32, fz.mac, 6);
	memcpy(f + 38, fz_our_ip, 4);
	fz_inject(f, sizeof(f), 0);
}

/* What the instance sent in one SCTP packet to a slot: learn from its chunks. */
static void
fz_learn(struct fz_slot *s, const uint8_t *p, size_t len)
{
	size_t off = 12;
	while (off + 4 <= len) {
		const uint8_t *c = p + off;
		uint8_t type = c[0];
		size_t clen = fz_get16(c + 2);
		if (clen < 4 || off + clen > len)
			break;
		switch (type) {
		case 0:	 /* DATA: its TSN, for SACKs */
		case 64: /* I-DATA */
			if (clen >= 8 && (int32_t)(fz_get32(c + 4) - s->srv_tsn) > 0)
				s->srv_tsn = fz_get32(c + 4);
			break;
		case 1: /* INIT: the instance connects */
		case 2: /* INIT ACK */
			if (clen < 20)
				break;
			s->srv_tag = fz_get32(c + 4);
			s->srv_port = fz_get16(p);
			s->srv_tsn = fz_get32(c + 16) - 1u;
			s->srv_reconf = fz_get32(c + 16) - 1u;
			for (size_t q = 20; q + 4 <= clen;) {
				size_t plen = fz_get16(c + q + 2);
				if (plen < 4 || q + plen > clen)
					break;
				if (fz_get16(c + q) == 7 && plen - 4 <= FZ_COOKIE_MAX) {
					s->cookie_len = (uint16_t)(plen - 4);
					memcpy(s->cookie, c + q + 4, plen - 4);
				}
				q += (plen + 3) & ~(size_t)3;
			}
			break;
		case 4: /* HEARTBEAT: its information, for the HEARTBEAT ACK */
			if (clen >= 8 && clen - 4 <= FZ_HB_MAX) {
				s->hb_len = (uint16_t)(clen - 4);
				memcpy(s->hb, c + 4, clen - 4);
			}
			break;
		case 130: /* RE-CONFIG: a request's sequence number, for the response */
			if (clen >= 12)
				s->srv_reconf = fz_get32(c + 8);
			break;
		default:
			break;
		}
		off += (clen + 3) & ~(size_t)3;
	}
}

/* One frame the instance sent: ARP requests answered, SCTP to our slots learnt. */
static void
fz_read_frame(struct rte_mbuf *m)
{
	uint8_t buf[FZ_FRAME_MAX];
	uint32_t len = rte_pktmbuf_pkt_len(m);
	fz_fail(len >= 14, "the instance sent a runt frame");
	/* Nothing above the port's MTU (--mtu 1500) leaves, probes and fragments included. */
	fz_fail(len <= 14 + 1500, "the instance sent a frame above its MTU");
	if (len > sizeof(buf))
		len = sizeof(buf);
	const uint8_t *f = rte_pktmbuf_read(m, 0, len, buf);
	fz_fail(f != NULL, "unreadable frame");
	uint16_t et = fz_get16(f + 12);
	if (et == 0x0806 && len >= 42 && fz_get16(f + 20) == 1 && f[38] == 10 && f[39] == 0 &&
	    f[40] == 0 && f[41] != 2 && f[41] != 0 && f[41] != 255) {
		if (fz.arp)
			fz_arp(f[41], false);
		return;
	}
	if (et != 0x0800 || len < 34 || (f[14] >> 4) != 4)
		return;
	size_t ihl = (size_t)(f[14] & 15) * 4;
	size_t tot = fz_get16(f + 16);
	fz_fail(tot <= len - 14 && ihl >= 20 && tot >= ihl, "the instance sent a bad IPv4 header");
	fz_fail(fz_ip_csum(f + 14, ihl) == 0, "the instance sent a bad IPv4 checksum");
	if (f[14 + 9] != 132 || tot < ihl + 12)
		return;
	const uint8_t *p = f + 14 + ihl;
	size_t plen = tot - ihl;
	/* Everything the instance sends carries a good CRC32c (RFC 9260 §6.8). */
	fz_fail(crc32c_sctp_verify(p, plen) == CRC32C_VERDICT_OK, "the instance sent a bad CRC32c");
	uint16_t dport = fz_get16(p + 2);
	if (dport >= FZ_PPORT && dport < FZ_PPORT + FZ_SLOTS)
		fz_learn(&fz.slot[dport - FZ_PPORT], p, plen);
}

/* Poll the instance, then read and free everything it sent (answers go in next poll). */
static void
fz_poll(void)
{
	for (int round = 0; round < 3; round++) {
		(void)dpsctp_poll(fz.d, 0);
		void *m;
		unsigned n = 0;
		while (rte_ring_dequeue(fz.tx, &m) == 0) {
			fz_read_frame(m);
			rte_pktmbuf_free(m);
			n++;
		}
		fz.frames_out += n;
		if (n == 0 && rte_ring_count(fz.rx) == 0)
			break;
	}
}

/* ---- the structure-aware packet ---------------------------------------- */

struct fz_pkt {
	uint8_t b[FZ_PKT_MAX];
	size_t n;
};

/* A chunk header and room for len value bytes (0-padded); NULL when it does not fit. */
static uint8_t *
fz_chunk(struct fz_pkt *k, uint8_t type, uint8_t flags, size_t len)
{
	size_t padded = (4 + len + 3) & ~(size_t)3;
	if (k->n + padded > sizeof(k->b))
		return NULL;
	uint8_t *c = k->b + k->n;
	memset(c, 0, padded);
	c[0] = type;
	c[1] = flags;
	fz_put16(c + 2, (uint32_t)(4 + len));
	k->n += padded;
	return c + 4;
}

/* INIT or INIT ACK from the harness: its tag and TSN, parameters the input picks. */
static void
fz_chunk_init(struct fz_input *in, struct fz_pkt *k, struct fz_slot *s, uint8_t type)
{
	uint8_t opts = fz_take8(in);
	if (opts & 1) { /* a new tag and TSN: a restart, or a new association */
		s->my_tag = fz_take32(in) | 1u;
		s->my_tsn = fz_take32(in);
	}
	uint8_t par[256];
	size_t n = 0;
	if (opts & 2) { /* Supported Extensions: RE-CONFIG, FORWARD TSN, I-DATA with bit 5 */
		const uint8_t v[] = { 0x80, 0x08, 0, 6, 130, 192, 0, 0 };
		memcpy(par + n, v, sizeof(v));
		if (opts & 32) {
			par[n + 3] = 7;
			par[n + 6] = 64;
		}
		n += sizeof(v);
	}
	if (opts & 4) { /* Forward-TSN-Supported */
		const uint8_t v[] = { 0xc0, 0x00, 0, 4 };
		memcpy(par + n, v, sizeof(v));
		n += sizeof(v);
	}
	if (opts & 8) { /* two IPv4 addresses: 10.0.0.9 and 10.0.0.(input) */
		const uint8_t v[] = { 0, 5, 0, 8, 10, 0, 0, 9, 0, 5, 0, 8, 10, 0, 0, 0 };
		memcpy(par + n, v, sizeof(v));
		par[n + 15] = fz_take8(in);
		n += sizeof(v);
	}
	if (opts & 16) { /* a parameter of the input's making */
		uint8_t plen = fz_take8(in) % 64;
		fz_put16(par + n, fz_take8(in) | (uint32_t)fz_take8(in) << 8);
		fz_put16(par + n + 2, 4u + plen);
		fz_take_bytes(in, par + n + 4, plen);
		n += (4u + plen + 3u) & ~3u;
	}
	size_t cookie = 0;
	uint8_t ck[64];
	if (type == 2) { /* INIT ACK: a cookie the instance echoes back */
		cookie = 8 + fz_take8(in) % 56;
		fz_take_bytes(in, ck, cookie);
	}
	size_t len = 16 + n + (cookie ? 4 + ((cookie + 3) & ~(size_t)3) : 0);
	uint8_t *v = fz_chunk(k, type, 0, len);
	if (v == NULL)
		return;
	uint8_t streams = fz_take8(in);
	fz_put32(v, s->my_tag);
	fz_put32(v + 4, 4096u + 512u * fz_take8(in)); /* a_rwnd */
	fz_put16(v + 8, 1u + (streams & 15));
	fz_put16(v + 10, 1u + (streams >> 4));
	fz_put32(v + 12, s->my_tsn);
	memcpy(v + 16, par, n);
	if (cookie) {
		fz_put16(v + 16 + n, 7);
		fz_put16(v + 16 + n + 2, (uint32_t)(4 + cookie));
		memcpy(v + 20 + n, ck, cookie);
	}
	memset(s->ssn, 0, sizeof(s->ssn));
	s->mid = 0;
	s->my_reconf = s->my_tsn;
}

/* DATA or I-DATA near the harness's next TSN; delta 0 takes the next one. */
static void
fz_chunk_data(struct fz_input *in, struct fz_pkt *k, struct fz_slot *s, bool idata)
{
	uint8_t flags = fz_take8(in) & 0x0f;
	uint8_t sid = fz_take8(in) & 3;
	int8_t delta = (int8_t)fz_take8(in);
	size_t len = fz_take8(in);
	uint32_t tsn = s->my_tsn + (uint32_t)(int32_t)delta;
	if (delta == 0)
		s->my_tsn++;
	size_t hdr = idata ? 16 : 12;
	uint8_t *v = fz_chunk(k, idata ? 64 : 0, flags, hdr + len);
	if (v == NULL)
		return;
	fz_put32(v, tsn);
	fz_put16(v + 4, sid);
	if (idata) {
		fz_put32(v + 8, (flags & 2) ? s->mid++ : s->mid); /* MID */
		fz_put32(v + 12, (flags & 2) ? 0 : fz_take8(in)); /* PPID or FSN */
	} else {
		fz_put16(v + 6, (flags & 4) ? 0 : s->ssn[sid]);
		if ((flags & 1) && !(flags & 4))
			s->ssn[sid]++;
		fz_put32(v + 8, fz_take8(in)); /* PPID */
	}
	for (size_t i = 0; i < len; i++)
		v[hdr + i] = (uint8_t)(i * 7u + len);
}

/* SACK of what the instance sent: cumulative ack near its highest TSN, gaps and dups. */
static void
fz_chunk_sack(struct fz_input *in, struct fz_pkt *k, struct fz_slot *s)
{
	int8_t delta = (int8_t)fz_take8(in);
	uint8_t shape = fz_take8(in);
	unsigned gaps = shape & 3, dups = (shape >> 2) & 3;
	uint8_t *v = fz_chunk(k, 3, 0, 12 + 4 * gaps + 4 * dups);
	if (v == NULL)
		return;
	fz_put32(v, s->srv_tsn - (delta < 0 ? 0u : (uint32_t)delta % 16u) +
			    (delta < 0 ? (uint32_t)(-(int)delta) % 4u : 0u));
	fz_put32(v + 4, (shape & 0x80) ? fz_take8(in) : 65536u);
	fz_put16(v + 8, gaps);
	fz_put16(v + 10, dups);
	for (unsigned i = 0; i < gaps; i++) {
		uint8_t a = fz_take8(in), b = fz_take8(in);
		fz_put16(v + 12 + 4 * i, a);
		fz_put16(v + 14 + 4 * i, (uint32_t)a + b % 8u);
	}
	for (unsigned i = 0; i < dups; i++)
		fz_put32(v + 12 + 4 * gaps + 4 * i, s->srv_tsn - fz_take8(in) % 8u);
}

/* RE-CONFIG: one request or response parameter (RFC 6525 §4), numbers near the live ones. */
static void
fz_chunk_reconf(struct fz_input *in, struct fz_pkt *k, struct fz_slot *s)
{
	uint8_t kind = fz_take8(in) % 6;
	uint8_t nsid = fz_take8(in) % 3;
	uint8_t *v;
	switch (kind) {
	case 0: /* Outgoing SSN Reset Request */
		if ((v = fz_chunk(k, 130, 0, 16 + 2 * nsid)) == NULL)
			return;
		fz_put16(v, 13);
		fz_put16(v + 2, 16u + 2u * nsid);
		fz_put32(v + 4, s->my_reconf++);
		fz_put32(v + 8, s->srv_reconf);
		fz_put32(v + 12, s->my_tsn - 1u);
		for (unsigned i = 0; i < nsid; i++)
			fz_put16(v + 16 + 2 * i, fz_take8(in) % 5u);
		break;
	case 1: /* Incoming SSN Reset Request */
		if ((v = fz_chunk(k, 130, 0, 8 + 2 * nsid)) == NULL)
			return;
		fz_put16(v, 14);
		fz_put16(v + 2, 8u + 2u * nsid);
		fz_put32(v + 4, s->my_reconf++);
		for (unsigned i = 0; i < nsid; i++)
			fz_put16(v + 8 + 2 * i, fz_take8(in) % 5u);
		break;
	case 2: /* SSN/TSN Reset Request */
		if ((v = fz_chunk(k, 130, 0, 8)) == NULL)
			return;
		fz_put16(v, 15);
		fz_put16(v + 2, 8);
		fz_put32(v + 4, s->my_reconf++);
		break;
	case 3: /* Re-configuration Response to the instance's last request */
		if ((v = fz_chunk(k, 130, 0, 12)) == NULL)
			return;
		fz_put16(v, 16);
		fz_put16(v + 2, 12);
		fz_put32(v + 4, s->srv_reconf);
		fz_put32(v + 8, fz_take8(in) % 7u);
		break;
	default: /* Add Outgoing / Incoming Streams Request */
		if ((v = fz_chunk(k, 130, 0, 12)) == NULL)
			return;
		fz_put16(v, kind == 4 ? 17 : 18);
		fz_put16(v + 2, 12);
		fz_put32(v + 4, s->my_reconf++);
		fz_put16(v + 8, fz_take8(in) % 8u);
		break;
	}
}

/* One chunk of the input's choosing: kinds the handshake and the data need, then any bytes. */
static void
fz_chunk_any(struct fz_input *in, struct fz_pkt *k, struct fz_slot *s)
{
	uint8_t kind = fz_take8(in) % 17;
	uint8_t *v;
	switch (kind) {
	case 0:
		fz_chunk_data(in, k, s, false);
		break;
	case 1:
		fz_chunk_sack(in, k, s);
		break;
	case 2: { /* HEARTBEAT with the input's information */
		uint8_t n = fz_take8(in) % 48;
		if ((v = fz_chunk(k, 4, 0, 4u + n)) == NULL)
			return;
		fz_put16(v, 1);
		fz_put16(v + 2, 4u + n);
		fz_take_bytes(in, v + 4, n);
		break;
	}
	case 3: { /* HEARTBEAT ACK echoing the instance's, a byte changed when the input says */
		uint8_t flip = fz_take8(in);
		if ((v = fz_chunk(k, 5, 0, s->hb_len)) == NULL)
			return;
		memcpy(v, s->hb, s->hb_len);
		if (flip && s->hb_len)
			v[flip % s->hb_len] ^= flip;
		break;
	}
	case 4: /* SHUTDOWN: the cumulative ack of what the instance sent */
		if ((v = fz_chunk(k, 7, 0, 4)) == NULL)
			return;
		fz_put32(v, s->srv_tsn - fz_take8(in) % 2u);
		break;
	case 5: /* SHUTDOWN ACK */
		(void)fz_chunk(k, 8, 0, 0);
		break;
	case 6: /* SHUTDOWN COMPLETE, T bit from the input */
		(void)fz_chunk(k, 14, fz_take8(in) & 1, 0);
		break;
	case 7: { /* ABORT, T bit and an optional cause */
		uint8_t f = fz_take8(in);
		if ((v = fz_chunk(k, 6, f & 1, (f & 2) ? 4 : 0)) == NULL)
			return;
		if (f & 2) {
			fz_put16(v, f >> 2);
			fz_put16(v + 2, 4);
		}
		break;
	}
	case 8:
		fz_chunk_init(in, k, s, 1);
		break;
	case 9:
		fz_chunk_init(in, k, s, 2);
		break;
	case 10: { /* COOKIE ECHO of the instance's cookie, a byte changed when the input says */
		uint8_t flip = fz_take8(in);
		if ((v = fz_chunk(k, 10, 0, s->cookie_len)) == NULL)
			return;
		memcpy(v, s->cookie, s->cookie_len);
		if (flip && s->cookie_len)
			v[flip % s->cookie_len] ^= flip;
		break;
	}
	case 11: /* COOKIE ACK */
		(void)fz_chunk(k, 11, 0, 0);
		break;
	case 12: { /* ERROR with one cause */
		uint8_t c = fz_take8(in);
		if ((v = fz_chunk(k, 9, 0, 4)) == NULL)
			return;
		fz_put16(v, c % 16u);
		fz_put16(v + 2, 4);
		break;
	}
	case 13: { /* FORWARD TSN (RFC 3758) or I-FORWARD TSN (RFC 8260) */
		uint8_t f = fz_take8(in);
		unsigned n = f & 3;
		bool ifwd = (f & 4) != 0;
		if ((v = fz_chunk(k, ifwd ? 194 : 192, 0, 4 + n * (ifwd ? 8 : 4))) == NULL)
			return;
		uint32_t adv = f >> 3;
		fz_put32(v, s->my_tsn - 1u + adv % 8u);
		if (adv % 8u)
			s->my_tsn += adv % 8u;
		for (unsigned i = 0; i < n; i++) {
			uint8_t sid = fz_take8(in);
			fz_put16(v + 4 + i * (ifwd ? 8 : 4), sid % 5u);
			if (ifwd)
				fz_put32(v + 8 + i * 8, fz_take8(in));
			else
				fz_put16(v + 6 + i * 4, fz_take8(in));
		}
		break;
	}
	case 14:
		fz_chunk_data(in, k, s, true);
		break;
	case 15:
		fz_chunk_reconf(in, k, s);
		break;
	default: { /* any chunk: type, flags, declared length and value bytes */
		uint8_t type = fz_take8(in), flags = fz_take8(in), n = fz_take8(in) % 96;
		if ((v = fz_chunk(k, type, flags, n)) == NULL)
			return;
		fz_take_bytes(in, v, n);
		if (fz_take8(in) & 1) /* a declared length that lies */
			fz_put16(v - 2, fz_take8(in));
		break;
	}
	}
}

/*
 * A structure-aware SCTP packet: u8 slot (peer port), u8 how (bits 0-1: the
 * tag — the slot's right one, 0, another slot's, or right ^ input; bit 2: a
 * bad CRC32c; bit 3: to the closed port; bit 4: from 10.0.0.(input) instead
 * of 10.0.0.9; bits 5-7: chunks - 1), the chunks, u8 split.
 */
static void
fz_packet(struct fz_input *in)
{
	uint8_t si = fz_take8(in) % FZ_SLOTS, how = fz_take8(in);
	struct fz_slot *s = &fz.slot[si];
	struct fz_pkt k;
	memset(k.b, 0, 12);
	k.n = 12;
	fz_put16(k.b, FZ_PPORT + si);
	fz_put16(k.b + 2, (how & 8) ? FZ_CLOSED : s->srv_port);
	uint32_t tag = s->srv_tag;
	switch (how & 3) {
	case 1:
		tag = 0;
		break;
	case 2:
		tag = fz.slot[(si + 1) % FZ_SLOTS].srv_tag;
		break;
	case 3:
		tag ^= fz_take32(in);
		break;
	default:
		break;
	}
	uint8_t host = 9;
	if (how & 16)
		host = fz_take8(in);
	unsigned chunks = 1u + (how >> 5);
	for (unsigned i = 0; i < chunks; i++)
		fz_chunk_any(in, &k, s);
	/* INIT goes with tag 0 (RFC 9260 §8.5.1) unless the input says otherwise. */
	if (k.b[12] == 1 && (how & 3) == 0)
		tag = 0;
	fz_put32(k.b + 4, tag);
	crc32c_sctp_fill(k.b, k.n);
	if (how & 4)
		k.b[8] ^= 0x5a;
	uint8_t f[FZ_FRAME_MAX];
	size_t len = fz_frame_ip(f, host, k.b, k.n);
	fz_inject(f, len, fz_take8(in));
}

/* ---- operations --------------------------------------------------------- */

static void
fz_raw(struct fz_input *in)
{
	uint8_t f[FZ_FRAME_MAX];
	size_t split = fz_take8(in) | (size_t)fz_take8(in) << 8;
	size_t len = in->n < FZ_FRAME_MAX ? in->n : FZ_FRAME_MAX;
	fz_take_bytes(in, f, len);
	/* Our MAC as the destination when the input left it zero: the frame gets past L2. */
	if (len >= 6 && memcmp(f, "\0\0\0\0\0\0", 6) == 0)
		memcpy(f, fz.mac, 6);
	fz_inject(f, len, split);
}

static void
fz_advance(struct fz_input *in)
{
	uint8_t shift = fz_take8(in) % 40, mult = fz_take8(in);
	fz.now += ((uint64_t)mult + 1u) << shift;
}

static void
fz_send(struct fz_input *in)
{
	struct fz_slot *s = &fz.slot[fz_take8(in) % FZ_SLOTS];
	uint8_t sid = fz_take8(in), len = fz_take8(in), flags = fz_take8(in);
	if (s->a == NULL)
		return;
	uint8_t buf[256];
	for (unsigned i = 0; i < len; i++)
		buf[i] = (uint8_t)(i ^ sid);
	struct dpsctp_sndinfo si = {
		.sid = (uint16_t)(sid % 5u),
		.ppid = 60,
		.flags = (flags & 1) ? DPSCTP_SEND_UNORDERED : 0,
		.pr_policy = (flags >> 1) % 4u,
		.pr_value = (flags >> 3),
	};
	(void)dpsctp_send_bytes(s->a, &si, buf, (size_t)len + 1u); /* 1 to 256 bytes */
}

static void
fz_connect(struct fz_input *in)
{
	unsigned si = fz_take8(in) % FZ_SLOTS;
	if (fz.slot[si].a != NULL)
		return;
	struct sctp_addr peer = { .family = SCTP_ADDR_V4 };
	memcpy(peer.bytes, fz_peer_ip, 4);
	int rc = 0;
	struct dpsctp_assoc *a =
		dpsctp_connect(fz.d, 0, &peer, 1, (uint16_t)(FZ_PPORT + si), 0, &fz_cb, NULL, &rc);
	if (a != NULL) {
		fz_handle_add(a);
		fz.slot[si].a = a;
	}
}

/* ---- the instance ------------------------------------------------------- */

static void
fz_set(struct dpsctp_config *c, const char *name, const char *value)
{
	char err[256];
	if (dpsctp_config_set(c, name, value, err, sizeof(err)) != 0) {
		fprintf(stderr, FZ_NAME ": --%s %s: %s\n", name, value ? value : "", err);
		abort();
	}
}

/*
 * At exit: the instance destroyed, so that LeakSanitizer's check at exit
 * sees what it allocated with malloc (the cookie's HMAC contexts), which
 * only DPDK's memory refers to and LeakSanitizer does not scan, given back.
 */
static void
fz_fini(void)
{
	dpsctp_destroy(fz.d);
	fz.d = NULL;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	static char *eal[] = {
		FZ_NAME, "--no-huge",	"--no-pci",   "--no-shconf",	"-m", "256", "-l",
		"0",	 "--log-level", "*:critical", "--no-telemetry", NULL
	};
	if (dpsctp_eal_init((int)(sizeof(eal) / sizeof(eal[0])) - 1, eal) < 0) {
		fprintf(stderr, FZ_NAME ": EAL did not start\n");
		abort();
	}
	/* Before the instance: its keys, tags and hash seeds come from the seed. */
	dp_worker_clock_set(fz_clock, NULL);
	dp_worker_seed_set(FZ_SEED);
	fz.now = 1000000000ull;

	struct rte_ring *rx = rte_ring_create("fzrx", 1024, SOCKET_ID_ANY, 0);
	struct rte_ring *tx = rte_ring_create("fztx", 1024, SOCKET_ID_ANY, 0);
	fz_fail(rx != NULL && tx != NULL, "rings");
	int port = rte_eth_from_rings("fzdp", &rx, 1, &tx, 1, SOCKET_ID_ANY);
	fz_fail(port >= 0, "rte_eth_from_rings");
	char name[RTE_ETH_NAME_MAX_LEN], spec[RTE_ETH_NAME_MAX_LEN + 16];
	fz_fail(rte_eth_dev_get_name_by_port((uint16_t)port, name) == 0, "ethdev name");
	snprintf(spec, sizeof(spec), "ethdev:%s", name);

	struct dpsctp_config c;
	dpsctp_config_defaults(&c);
	fz_set(&c, "port", spec);
	fz_set(&c, "ip", "10.0.0.2/24");
	fz_set(&c, "sctp-port", "5001");
	fz_set(&c, "mtu", "1500");
	fz_set(&c, "max-assocs", "4");
	fz_set(&c, "max-handshakes", "2");
	fz_set(&c, "max-paths", "2");
	fz_set(&c, "max-streams", "4");
	fz_set(&c, "rcvbuf", "4096");
	fz_set(&c, "sndbuf", "4096");
	fz_set(&c, "mbufs", "1024");
	fz_set(&c, "extensions", "pr-sctp,i-data,reconfig");
	fz_set(&c, "no-telemetry", NULL);
	char err[256];
	fz.d = dpsctp_create(&c, err, sizeof(err));
	if (fz.d == NULL) {
		fprintf(stderr, FZ_NAME ": dpsctp_create: %s\n", err);
		abort();
	}
	fz_fail(dpsctp_listen(fz.d, FZ_LPORT, &fz_cb, NULL) == 0, "dpsctp_listen");
	fz.w = fz.d->w[0];
	fz.rx = rx;
	fz.tx = tx;
	fz.pool = dpsctp_pktmbuf_pool(fz.d);
	dpsctp_mac(fz.d, fz.mac);
	fz_poll();
	fz.baseline = rte_mempool_avail_count(fz.pool);
	fz.stats = getenv("FUZZ_DP_RX_STATS") != NULL;
	atexit(fz_fini);
	return 0;
}

/* One operation of the input (the table at the top), its bytes in body. */
static void
fz_op(uint8_t op, struct fz_input *body)
{
	struct fz_slot *s;
	switch (op % 7) {
	case 0:
		fz_raw(body);
		break;
	case 1:
		fz_packet(body);
		break;
	case 2:
		fz_advance(body);
		break;
	case 3:
		fz_send(body);
		break;
	case 4:
		s = &fz.slot[fz_take8(body) % FZ_SLOTS];
		if (s->a != NULL)
			(void)dpsctp_shutdown(s->a);
		break;
	case 5:
		s = &fz.slot[fz_take8(body) % FZ_SLOTS];
		if (s->a != NULL)
			(void)dpsctp_abort(s->a);
		break;
	default:
		fz_connect(body);
		break;
	}
}

/*
 * With FUZZ_DP_RX_STATS in the environment: how deep the inputs got so far
 * (events by type, every counter of the worker not 0), after each input.
 */
static void
fz_print_stats(void)
{
	static const char *const ev[] = {
		[DPSCTP_EV_COMM_UP] = "comm_up",
		[DPSCTP_EV_COMM_LOST] = "comm_lost",
		[DPSCTP_EV_SHUTDOWN_COMPLETE] = "shutdown_complete",
		[DPSCTP_EV_CANT_START] = "cant_start",
		[DPSCTP_EV_RESTART] = "restart",
		[DPSCTP_EV_PEER_ADDR_CHANGE] = "peer_addr_change",
		[DPSCTP_EV_REMOTE_ERROR] = "remote_error",
		[DPSCTP_EV_SEND_FAILED] = "send_failed",
		[DPSCTP_EV_STREAM_RESET] = "stream_reset",
		[DPSCTP_EV_ASSOC_RESET] = "assoc_reset",
		[DPSCTP_EV_STREAM_CHANGE] = "stream_change",
		[DPSCTP_EV_PATH_MTU] = "path_mtu",
	};
	fprintf(stderr, FZ_NAME ": frames_out=%" PRIu64, fz.frames_out);
	for (unsigned i = 1; i < sizeof(ev) / sizeof(ev[0]); i++)
		if (fz.events[i] != 0)
			fprintf(stderr, " ev.%s=%" PRIu64, ev[i], fz.events[i]);
	for (unsigned i = 0;; i++) {
		const char *name;
		uint64_t v = dpsctp_worker_counter(fz.d, 0, i, &name);
		if (name == NULL)
			break;
		if (v != 0)
			fprintf(stderr, " %s=%" PRIu64, name, v);
	}
	fprintf(stderr, "\n");
}

/* Every association ended and every timer run out; then nothing may be left. */
static void
fz_end(void)
{
	while (fz.n_h != 0) {
		struct dpsctp_assoc *a = fz.h[fz.n_h - 1];
		fz_handle_del(a);
		(void)dpsctp_abort(a);
		fz_poll();
	}
	/* Two hours in doubling steps: T1, T3, heartbeats, neighbour probes and ageing run out. */
	for (unsigned i = 0; i < 44; i++) {
		fz.now += 1000000ull << (i / 2);
		fz_poll();
	}
	fz_fail(dpsctp_assoc_count(fz.d) == 0, "associations left after every abort");
	fz_fail(fz.n_h == 0, "a handle came back after the aborts");
	struct rte_mbuf *pack = fz.w->pack;
	unsigned held = 0;
	if (pack != NULL) {
		fz_fail(rte_mbuf_refcnt_read(pack) == 1, "the packing mbuf still referenced");
		held = 1;
	}
	if (rte_mempool_avail_count(fz.pool) + held != fz.baseline) {
		fprintf(stderr, FZ_NAME ": %u mbufs free of %u at the start\n",
			rte_mempool_avail_count(fz.pool) + held, fz.baseline);
		abort();
	}
	if (fz.stats)
		fz_print_stats();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_input in = { data, size };
	if (fz.d == NULL) /* the replay build's main() does not call it */
		(void)LLVMFuzzerInitialize(NULL, NULL);
	fz.arp = (fz_take8(&in) & 1) == 0;
	/* Each input starts from the same draws and from slots the instance never saw. */
	fz.w->rnd = 0x2545f491u;
	for (unsigned i = 0; i < FZ_SLOTS; i++) {
		struct fz_slot *s = &fz.slot[i];
		memset(s, 0, sizeof(*s));
		s->my_tag = 0x10203040u + i;
		s->my_tsn = 1000u * (i + 1);
		s->srv_port = FZ_LPORT;
	}
	/* The peer's MAC known, as after any exchange. */
	if (fz.arp)
		fz_arp(9, true);
	fz_poll();
	for (unsigned n = 0; n < FZ_MAX_OPS && in.n != 0; n++) {
		uint8_t op = fz_take8(&in);
		size_t len = fz_take8(&in) | (size_t)fz_take8(&in) << 8;
		/* The operation reads its own bytes only: zeros past them. */
		struct fz_input body = { in.in, len < in.n ? len : in.n };
		in.in += body.n;
		in.n -= body.n;
		fz_op(op, &body);
		fz_poll();
	}
	fz_end();
	return 0;
}

#ifdef FZ_CUSTOM_MUTATOR
/*
 * The structure-aware mutator: byte mutations rarely keep a sequence of
 * operations whole (a length byte changed swallows the rest), and rarely
 * make the step the sequence needs next (a COOKIE ECHO after the INIT, a
 * clock step after a send). So most mutations work on whole records —
 * insert one of fz_templates, duplicate, delete or swap records, mutate the
 * bytes of one record and fix its length — and the rest are libFuzzer's own
 * on the whole input. Crossover splices the records of two inputs.
 */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
				 uint8_t *out, size_t max_out, unsigned int seed);

#define FZ_REC_MAX 256u
/*
 * Inputs the mutator makes stay below this many bytes (libFuzzer's own
 * length control does not apply to a custom mutator): every record costs
 * polls, and a 4 KB input of records runs ten times slower than the
 * sequences that matter, which are short.
 */
#define FZ_SOFT_MAX 1024u

/* The records of an input: start offsets and total lengths (header included). */
static unsigned
fz_records(const uint8_t *d, size_t n, size_t *off, size_t *len)
{
	unsigned k = 0;
	size_t p = n != 0 ? 1 : 0;
	while (p < n && k < FZ_REC_MAX) {
		size_t body = p + 3 <= n ? (size_t)(d[p + 1] | d[p + 2] << 8) : 0;
		size_t l = 3 + body;
		if (p + l > n)
			l = n - p;
		off[k] = p;
		len[k++] = l;
		p += l;
	}
	return k;
}

/* Records a sequence often needs next: op, then the body (gen_dp_rx_seeds.py's vocabulary). */
static const uint8_t fz_templates[][20] = {
	{ 1, 0, 0, 8, 6, 0x33, 8, 0 },	     /* INIT (slot 0), extensions offered */
	{ 1, 0, 0, 8, 0x26, 0x33, 8, 0 },    /* INIT offering I-DATA */
	{ 1, 0, 0, 10, 0, 0 },		     /* COOKIE ECHO */
	{ 1, 0, 0, 0, 3, 0, 0, 100, 60, 0 }, /* DATA, the next TSN */
	{ 1, 0, 0, 14, 3, 0, 0, 60, 0 },     /* I-DATA */
	{ 1, 0, 0, 1, 0, 0, 0 },	     /* SACK of everything */
	{ 1, 0, 0, 3, 0, 0 },		     /* HEARTBEAT ACK */
	{ 1, 0, 0, 4, 0, 0 },		     /* SHUTDOWN */
	{ 1, 0, 0, 11, 0 },		     /* COOKIE ACK */
	{ 1, 0, 0, 9, 6, 0, 'h', 'a', 'r', 'n', 'e', 's', 's', '!', 0x33, 8, 0 }, /* INIT ACK */
	{ 2, 30, 0 },								  /* a second */
	{ 2, 20, 200 },								  /* 200 ms */
	{ 3, 0, 0, 200, 0 },							  /* send */
	{ 6, 1 },								  /* connect */
	{ 4, 0 },								  /* shutdown */
};
static const uint8_t fz_template_len[] = { 8, 8, 6, 10, 9, 7, 6, 6, 5, 17, 3, 3, 5, 2, 2 };
_Static_assert(sizeof(fz_template_len) == sizeof(fz_templates) / sizeof(fz_templates[0]),
	       "a length for every template");

static uint32_t
fz_rand(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* One record (op, u16 length, body) written at dst; its size. */
static size_t
fz_put_record(uint8_t *dst, uint8_t op, const uint8_t *body, size_t n)
{
	dst[0] = op;
	dst[1] = (uint8_t)n;
	dst[2] = (uint8_t)(n >> 8);
	memcpy(dst + 3, body, n);
	return 3 + n;
}

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	static uint8_t tmp[1u << 16];
	size_t off[FZ_REC_MAX], len[FZ_REC_MAX];
	uint32_t r = seed | 1u;
	if (max_size > FZ_SOFT_MAX)
		max_size = size > FZ_SOFT_MAX ? size : FZ_SOFT_MAX;
	if (size == 0 || max_size > sizeof(tmp) || fz_rand(&r) % 4 == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	unsigned k = fz_records(data, size, off, len);
	unsigned a = k ? fz_rand(&r) % k : 0, b = k ? fz_rand(&r) % k : 0;
	size_t n = 0;
	switch (fz_rand(&r) % 5) {
	case 0: { /* insert a template before record a (or at the end) */
		unsigned t = fz_rand(&r) % (sizeof(fz_template_len) / sizeof(fz_template_len[0]));
		size_t at = k ? off[a] : size, tl = fz_template_len[t];
		const uint8_t *tp = fz_templates[t];
		if (size + 3 + tl - 1 > max_size)
			return LLVMFuzzerMutate(data, size, max_size);
		memcpy(tmp, data, at);
		n = at;
		if (tp[0] == 1 && tl > 2) { /* a packet: its slot from the input's choice */
			uint8_t body[sizeof(fz_templates[0])];
			memcpy(body, tp + 1, tl - 1);
			body[0] = (uint8_t)(fz_rand(&r) % FZ_SLOTS);
			n += fz_put_record(tmp + n, tp[0], body, tl - 1);
		} else {
			n += fz_put_record(tmp + n, tp[0], tp + 1, tl - 1);
		}
		memcpy(tmp + n, data + at, size - at);
		n += size - at;
		break;
	}
	case 1: /* duplicate record a after record b */
		if (k == 0 || size + len[a] > max_size)
			return LLVMFuzzerMutate(data, size, max_size);
		memcpy(tmp, data, off[b] + len[b]);
		n = off[b] + len[b];
		memcpy(tmp + n, data + off[a], len[a]);
		n += len[a];
		memcpy(tmp + n, data + off[b] + len[b], size - off[b] - len[b]);
		n += size - off[b] - len[b];
		break;
	case 2: /* delete record a */
		if (k < 2)
			return LLVMFuzzerMutate(data, size, max_size);
		memcpy(tmp, data, off[a]);
		memcpy(tmp + off[a], data + off[a] + len[a], size - off[a] - len[a]);
		n = size - len[a];
		break;
	case 3: { /* swap records a < b */
		if (k < 2 || a == b)
			return LLVMFuzzerMutate(data, size, max_size);
		if (a > b) {
			unsigned t = a;
			a = b;
			b = t;
		}
		memcpy(tmp, data, off[a]);
		n = off[a];
		memcpy(tmp + n, data + off[b], len[b]);
		n += len[b];
		memcpy(tmp + n, data + off[a] + len[a], off[b] - off[a] - len[a]);
		n += off[b] - off[a] - len[a];
		memcpy(tmp + n, data + off[a], len[a]);
		n += len[a];
		memcpy(tmp + n, data + off[b] + len[b], size - off[b] - len[b]);
		n += size - off[b] - len[b];
		break;
	}
	default: { /* mutate record a's body, its length fixed */
		if (k == 0 || len[a] < 3)
			return LLVMFuzzerMutate(data, size, max_size);
		size_t body = len[a] - 3, room = max_size - (size - body);
		if (room > 4096)
			room = 4096;
		uint8_t buf[4096];
		memcpy(buf, data + off[a] + 3, body);
		size_t nb = LLVMFuzzerMutate(buf, body, room);
		memcpy(tmp, data, off[a]);
		n = off[a];
		n += fz_put_record(tmp + n, data[off[a]], buf, nb);
		memcpy(tmp + n, data + off[a] + len[a], size - off[a] - len[a]);
		n += size - off[a] - len[a];
		break;
	}
	}
	if (n > max_size)
		return LLVMFuzzerMutate(data, size, max_size);
	memcpy(data, tmp, n);
	return n;
}

size_t
LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
			  size_t max_out, unsigned int seed)
{
	size_t o1[FZ_REC_MAX], l1[FZ_REC_MAX], o2[FZ_REC_MAX], l2[FZ_REC_MAX];
	uint32_t r = seed | 1u;
	unsigned k1 = fz_records(d1, s1, o1, l1), k2 = fz_records(d2, s2, o2, l2);
	if (max_out > FZ_SOFT_MAX)
		max_out = FZ_SOFT_MAX;
	if (k1 == 0 || k2 == 0)
		return 0;
	/* The first records of one input, then the last ones of the other. */
	size_t cut1 = o1[fz_rand(&r) % k1], cut2 = o2[fz_rand(&r) % k2];
	size_t n = cut1 < max_out ? cut1 : max_out;
	memcpy(out, d1, n);
	size_t rest = s2 - cut2 < max_out - n ? s2 - cut2 : max_out - n;
	memcpy(out + n, d2 + cut2, rest);
	return n + rest;
}
#endif
