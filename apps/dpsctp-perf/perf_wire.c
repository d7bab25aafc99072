/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What one message costs on an Ethernet wire, for --rate (pacing in wire
 * bits per second, so "10g" means 10G line rate) and for the verdict
 * whether a rate was sustained. Per frame: preamble and start delimiter 8,
 * Ethernet header 14, FCS 4, inter-frame gap 12 bytes, the IP header (20 or
 * 40), UDP 8 with --udp-encap, the SCTP common header 12; per DATA chunk 16
 * bytes of header (I-DATA's, RFC 8260: 20) and the payload padded to 4.
 * With I-DATA a message fits one packet 4 bytes sooner: at MTU 1500 over
 * IPv4, 1448 bytes, where a 1452-byte one takes two. Small messages are counted
 * as the sender bundles them (as many DATA chunks as fit the MTU); large
 * ones as fragments of the largest size the MTU allows. SACKs going the
 * other way are not counted (they use the other direction of the link).
 */
#include "apps/dpsctp-perf/perf.h"

#define ETH_OVERHEAD (8u + 14u + 4u + 12u)
#define SCTP_COMMON  12u
#define DATA_HDR     16u
#define IDATA_HDR    20u

void
perf_wire_model(struct perf_wire *w, uint32_t len, uint16_t mtu, bool ipv6, bool udp, bool idata)
{
	const uint32_t hdr = idata ? IDATA_HDR : DATA_HDR; /* per chunk */
	uint32_t ip = (ipv6 ? 40u : 20u) + (udp ? 8u : 0u);
	uint32_t room = (uint32_t)mtu - ip - SCTP_COMMON; /* bytes for chunks in one packet */
	uint32_t chunk = hdr + ((len + 3u) & ~3u);
	double frame_overhead = (double)(ETH_OVERHEAD + ip + SCTP_COMMON);

	if (chunk <= room) {
		w->msgs_per_pkt = room / chunk;
		w->pkts_per_msg = 1;
		w->wire_bytes_per_msg = chunk + frame_overhead / (double)w->msgs_per_pkt;
		return;
	}
	uint32_t frag = (room - hdr) & ~3u; /* payload per fragment */
	w->msgs_per_pkt = 1;
	w->pkts_per_msg = (len + frag - 1u) / frag;
	w->wire_bytes_per_msg =
		(double)len + (double)w->pkts_per_msg * (hdr + frame_overhead) + 3.0;
}
