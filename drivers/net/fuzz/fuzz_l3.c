/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the L2/L3 layer (drivers/net/l3.c) as a data plane
 * lcore drives it, on a virtual clock: received frames (Ethernet, VLAN,
 * ARP, IPv4 with options and fragments, IPv6 with extension headers and
 * fragments, ICMP and ICMPv6 errors quoting SCTP, RFC 6951 UDP), packets
 * to send (which resolve, park and release neighbours, and fragment at the
 * source), pins, confirmations and timer ticks. The layer's identity comes
 * from the input, so a seed made from a captured frame is addressed to us:
 *
 *   bytes 0-5    our MAC
 *   bytes 6-9    our IPv4 address (a /24); bytes 10-25 our IPv6 (a /64)
 *   byte 26      bit 0: default gateways (.254 and ::fe of our prefixes);
 *                bit 1: an IPv6 link-local address; bit 2: a neighbour
 *                table of 4 entries and 2 resolving slots (eviction and
 *                preemption), else the built-in 32 and 16
 *   then         records: 1 byte op, 2 bytes length (big-endian), bytes:
 *     op % 4 == 0  a received frame; a completed datagram is fed back as
 *                  the data plane does
 *     op % 4 == 1  a packet to send: byte 0 family (bit 0: IPv6), bytes
 *                  1-16 destination, 17-18 UDP port (0: SCTP over IP),
 *                  19-20 frag_mtu, the rest the SCTP packet
 *     op % 4 == 2  the clock moves by the first 4 bytes in microseconds,
 *                  then the neighbour timers run
 *     op % 4 == 3  pin, unpin or confirm (byte 0) the address in bytes
 *                  1-17 (as for op 1), confirm from the MAC in 18-23
 *
 * Properties beyond "no crash, no UB, no leak": a received frame is never
 * written; every verdict's offsets and lengths lie inside its frame;
 * replies fit the room the header promises (request + 64); headers and
 * fragment headers fit their documented maxima; every packet the layer
 * parks is given back exactly once (released for output, or through the
 * release callback), and never one it does not hold.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/net/l3.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HDR_LEN	    27u
#define MAX_OPS	    64u
#define HANDLES	    (MAX_OPS * 2u + 1u)
#define REPLY_SLACK 64u

static void
check(int cond)
{
	if (!cond)
		abort();
}

/* Every handle the layer may hold: 1 while it holds it. */
static uint8_t held[HANDLES];
static uint32_t next_handle;

/* Pins taken (dpsctp_l3_unpin() undoes one that returned 0, nothing else). */
#define PINS 16u
static struct {
	struct sctp_addr a;
	uint32_t n;
} pins[PINS];

static void
on_release(void *ctx, uintptr_t h)
{
	(void)ctx;
	check(h != 0 && h < HANDLES && held[h] == 1);
	held[h] = 0;
}

static struct sctp_addr
addr_of(const uint8_t *p, size_t len)
{
	struct sctp_addr a;

	memset(&a, 0, sizeof(a));
	if (len < 17)
		return a;
	if (p[0] & 1) {
		a.family = SCTP_ADDR_V6;
		memcpy(a.bytes, p + 1, 16);
	} else {
		a.family = SCTP_ADDR_V4;
		memcpy(a.bytes, p + 1, 4);
	}
	return a;
}

static uint8_t frame_copy[65536];
static uint8_t reply[65536 + REPLY_SLACK];
static uint8_t hdr[DPSCTP_L3_HDR_MAX];
static uint8_t probe[DPSCTP_L3_PROBE_MAX];
static uint8_t frag[DPSCTP_L3_FRAG_HDR_MAX];
static uint8_t sctp_bytes[65536];
static uint64_t nbr_mem[(1u << 16) / 8];

static void send_one(struct dpsctp_l3 *l3, const struct dpsctp_l3_tx *tx, uint64_t now);

/* Parked packets a verdict released: out now, as the data plane sends them. */
static void
send_released(struct dpsctp_l3 *l3, const struct dpsctp_l3_tx *rel, unsigned n, uint64_t now)
{
	check(n <= DPSCTP_L3_PARK_MAX);
	for (unsigned i = 0; i < n; i++) {
		check(rel[i].handle != 0 && rel[i].handle < HANDLES && held[rel[i].handle] == 1);
		held[rel[i].handle] = 0;
		send_one(l3, &rel[i], now);
	}
}

static void
send_one(struct dpsctp_l3 *l3, const struct dpsctp_l3_tx *tx, uint64_t now)
{
	struct dpsctp_l3_out out;
	enum dpsctp_l3_tx_verdict v =
		dpsctp_l3_output(l3, tx, now, hdr, sizeof(hdr), probe, sizeof(probe), &out);

	check(out.probe_len <= sizeof(probe));
	if (v == DPSCTP_L3_TX_PARKED) {
		held[tx->handle] = 1; /* the layer's until released or given back */
		return;
	}
	if (v != DPSCTP_L3_TX_READY)
		return;
	check(out.hdr_len <= sizeof(hdr) && out.l2_len + out.l3_len <= out.hdr_len);
	if (out.frag_size == 0)
		return;
	check(out.frag_size % 8 == 0 && out.frag_count >= 2);
	check((uint64_t)out.frag_size * (out.frag_count - 1) < out.ip_payload);
	for (uint32_t k = 0; k < out.frag_count; k++) {
		uint32_t off = k * out.frag_size;
		uint32_t len = k + 1 == out.frag_count ? out.ip_payload - off : out.frag_size;
		uint32_t n = dpsctp_l3_fragment(l3, hdr, &out, off, len, frag, sizeof(frag));
		check(n != 0 && n <= sizeof(frag));
	}
	/* Not a fragment of this packet: refused. */
	check(dpsctp_l3_fragment(l3, hdr, &out, 3, 8, frag, sizeof(frag)) == 0);
}

static void
receive(struct dpsctp_l3 *l3, const uint8_t *frame, size_t len, uint64_t now, unsigned depth)
{
	struct dpsctp_l3_in in;

	check(len <= sizeof(frame_copy));
	memcpy(frame_copy, frame, len);
	enum dpsctp_l3_verdict v =
		dpsctp_l3_input(l3, frame, len, now, reply, len + REPLY_SLACK, &in);
	check(memcmp(frame_copy, frame, len) == 0);
	switch (v) {
	case DPSCTP_L3_IN_SCTP:
		check(in.sctp.len >= 12 && (uint64_t)in.sctp.offset + in.sctp.len <= len);
		check(in.sctp.src.family == in.sctp.dst.family);
		break;
	case DPSCTP_L3_IN_ICMP_ERROR:
		check((uint64_t)in.icmp.quote_offset + in.icmp.quote_len <= len);
		check(in.icmp.local.family == in.icmp.peer.family);
		break;
	case DPSCTP_L3_IN_REPLY:
		check(in.reply_len != 0 && in.reply_len <= len + REPLY_SLACK);
		break;
	case DPSCTP_L3_IN_REASSEMBLED:
		check(in.reasm != NULL && in.reasm_len != 0 && in.reasm_len <= sizeof(frame_copy));
		check(depth == 0); /* a reassembled datagram is whole: never a fragment again */
		break;
	default:
		break;
	}
	send_released(l3, in.released, in.released_count, now);
	if (v == DPSCTP_L3_IN_REASSEMBLED) {
		/* Valid until the next input: the data plane copies it first. */
		static uint8_t whole[sizeof(frame_copy)];
		uint32_t n = in.reasm_len;
		memcpy(whole, in.reasm, n);
		receive(l3, whole, n, now, depth + 1);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dpsctp_l3 l3;
	struct dpsctp_l3_config cfg;
	uint64_t now = 1000000000ull;

	if (size < HDR_LEN)
		return 0;
	memset(&cfg, 0, sizeof(cfg));
	memcpy(cfg.mac, data, 6);
	cfg.addr[0].family = SCTP_ADDR_V4;
	memcpy(cfg.addr[0].bytes, data + 6, 4);
	cfg.prefix[0] = 24;
	cfg.addr[1].family = SCTP_ADDR_V6;
	memcpy(cfg.addr[1].bytes, data + 10, 16);
	cfg.prefix[1] = 64;
	cfg.addr_count = 2;
	if (data[26] & 1) {
		cfg.gw4 = cfg.addr[0];
		cfg.gw4.bytes[3] = 254;
		cfg.gw6 = cfg.addr[1];
		cfg.gw6.bytes[15] = 0xfe;
	}
	cfg.ipv6_link_local = (data[26] & 2) != 0;
	if (data[26] & 4) {
		cfg.nbr_max = 4;
		cfg.resolving_max = 2;
		check(dpsctp_l3_nbr_mem_size(4, 2) <= sizeof(nbr_mem));
		cfg.nbr_mem = nbr_mem;
		cfg.nbr_mem_len = sizeof(nbr_mem);
	}
	cfg.hash_seed = 0x5eed;
	memset(held, 0, sizeof(held));
	memset(pins, 0, sizeof(pins));
	next_handle = 1;
	if (dpsctp_l3_init(&l3, &cfg, on_release, NULL) != 0)
		return 0; /* e.g. an address the layer refuses to be */

	size_t off = HDR_LEN;
	for (unsigned ops = 0; ops < MAX_OPS && off + 3 <= size; ops++) {
		uint8_t op = data[off];
		size_t len = (size_t)data[off + 1] << 8 | data[off + 2];
		off += 3;
		if (len > size - off)
			len = size - off;
		const uint8_t *p = data + off;
		off += len;

		switch (op % 4) {
		case 0:
			receive(&l3, p, len, now, 0);
			break;
		case 1: {
			if (len < 21)
				break;
			struct dpsctp_l3_tx tx;
			memset(&tx, 0, sizeof(tx));
			tx.dst = addr_of(p, len);
			tx.src = tx.dst.family == SCTP_ADDR_V6 ? cfg.addr[1] : cfg.addr[0];
			tx.udp_dst_port = (uint16_t)(p[17] << 8 | p[18]);
			tx.frag_mtu = (uint16_t)(p[19] << 8 | p[20]);
			tx.sctp_len = (uint32_t)(len - 21);
			memcpy(sctp_bytes, p + 21, tx.sctp_len);
			tx.sctp = sctp_bytes;
			tx.handle = next_handle++;
			send_one(&l3, &tx, now);
			break;
		}
		case 2: {
			uint32_t us = 0;
			for (size_t i = 0; i < 4 && i < len; i++)
				us = us << 8 | p[i];
			now += (uint64_t)us * 1000u;
			uint32_t plen = 0;
			unsigned rounds = 0;
			do {
				(void)dpsctp_l3_tick(&l3, now, probe, sizeof(probe), &plen);
				check(plen <= sizeof(probe));
			} while (plen != 0 && ++rounds < 64);
			break;
		}
		case 3: {
			struct sctp_addr a = addr_of(p, len);
			if (a.family == SCTP_ADDR_NONE)
				break;
			if (len >= 24 && (p[0] & 6) == 4) {
				struct dpsctp_l3_tx rel[DPSCTP_L3_PARK_MAX];
				unsigned n = dpsctp_l3_confirm(&l3, &a, p + 18, now, rel);
				send_released(&l3, rel, n, now);
				break;
			}
			unsigned k = PINS;
			for (unsigned i = 0; i < PINS; i++)
				if (pins[i].n != 0 && sctp_addr_eq(&pins[i].a, &a))
					k = i;
			if (p[0] & 2) {
				if (k < PINS) {
					dpsctp_l3_unpin(&l3, &a);
					pins[k].n--;
				}
				break;
			}
			if (k == PINS)
				for (unsigned i = 0; i < PINS && k == PINS; i++)
					if (pins[i].n == 0)
						k = i;
			if (k < PINS && dpsctp_l3_pin(&l3, &a, now) == 0) {
				pins[k].a = a;
				pins[k].n++;
			}
			break;
		}
		}
	}
	/* Every parked packet comes back, once; every pin is undone. */
	dpsctp_l3_flush(&l3);
	for (unsigned i = 0; i < PINS; i++)
		for (; pins[i].n != 0; pins[i].n--)
			dpsctp_l3_unpin(&l3, &pins[i].a);
	for (uint32_t h = 1; h < next_handle; h++)
		check(held[h] == 0);
	return 0;
}
