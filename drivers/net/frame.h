/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Find the SCTP packet inside a captured or received frame.
 *
 * Given the bytes of one frame and its link type, net_frame_parse() walks the
 * link header (Ethernet with up to NET_FRAME_MAX_VLANS 802.1Q/802.1ad tags,
 * Linux cooked SLL and SLL2, BSD loopback, or none for raw IP), the IPv4
 * header or the IPv6 header with its extension headers (hop-by-hop, routing,
 * destination options, fragment), and an optional UDP header when SCTP is
 * carried over UDP on port 9899 (RFC 6951). It reports the addresses and the
 * span of the SCTP packet (common header first).
 *
 * The span is what IP (or UDP) says the datagram holds, never the bytes that
 * happen to follow: Ethernet pads short frames to 60 bytes and that padding
 * is not SCTP. A frame whose capture is shorter than its IP datagram is
 * reported as NET_FRAME_ERR_CAPTURE_TRUNCATED; an IP fragment as
 * NET_FRAME_ERR_IP_FRAGMENT (SCTP's checksum and chunks need the whole
 * datagram).
 *
 * Pure C11 over a byte span: no allocation, no DPDK, no I/O, the buffer is
 * only read. The data plane runs it on the first segment of an mbuf, so the
 * common path (Ethernet, IPv4, SCTP) is a handful of bounds checks.
 */
#ifndef DRIVERS_NET_FRAME_H
#define DRIVERS_NET_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sctp/def_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Named reasons a frame is not a usable SCTP packet (list: frame_err.def). */
enum net_frame_err {
	NET_FRAME_OK = 0,
#define NET_FRAME_ERR(name, str, why) SCTP_DEF_ENUM(NET_FRAME_ERR_##name)
#include "drivers/net/frame_err.def"
#undef NET_FRAME_ERR
	NET_FRAME_ERR_COUNT
};

/* "ok" for NET_FRAME_OK, the wire name otherwise, "unknown" if out of range. */
const char *net_frame_err_name(enum net_frame_err err);
/* One-line explanation, for logs and --help. */
const char *net_frame_err_describe(enum net_frame_err err);

/* What precedes the IP header. */
enum net_frame_link {
	NET_FRAME_LINK_ETHERNET, /* DIX Ethernet II, optional VLAN tags */
	NET_FRAME_LINK_RAW,	 /* no link header; IP version from the first nibble */
	NET_FRAME_LINK_IPV4,	 /* no link header; IPv4 only */
	NET_FRAME_LINK_IPV6,	 /* no link header; IPv6 only */
	NET_FRAME_LINK_SLL,	 /* Linux cooked capture v1, 16-byte header */
	NET_FRAME_LINK_SLL2,	 /* Linux cooked capture v2, 20-byte header */
	NET_FRAME_LINK_NULL,	 /* BSD loopback: 4-byte family, capturing host's order */
	NET_FRAME_LINK_LOOP,	 /* OpenBSD loopback: 4-byte family, network order */
};

/*
 * Map a pcap LINKTYPE_ value (as in a pcap file header, or as returned by
 * pcap_datalink()) to a link. Returns false for link types not decoded here.
 * LINKTYPE_RAW is accepted both as 101 (the file value) and 12 (Linux DLT_RAW).
 */
bool net_frame_link_from_linktype(int linktype, enum net_frame_link *link);

/* Outer and inner tag of a QinQ frame. */
#define NET_FRAME_MAX_VLANS 2

struct net_frame {
	/* Offsets from the start of the frame. */
	uint32_t l3_offset;   /* IP header */
	uint32_t l4_offset;   /* SCTP common header, or UDP header when udp_encap */
	uint32_t sctp_offset; /* SCTP common header */
	uint32_t sctp_len;    /* SCTP packet length, as IP (or UDP) declares it */
	uint32_t ip_len;      /* IP datagram length, header included */
	uint16_t src_port;    /* SCTP ports, when sctp_len >= 4 and captured */
	uint16_t dst_port;
	uint16_t udp_src_port; /* RFC 6951 outer ports; 0 unless udp_encap */
	uint16_t udp_dst_port;
	uint16_t vlan_tci[NET_FRAME_MAX_VLANS]; /* outermost first */
	uint8_t vlan_count;
	uint8_t ip_version;   /* 4 or 6; 0 before the IP header is reached */
	uint8_t ip_proto;     /* IPv4 protocol or last IPv6 next header */
	bool is_sctp;	      /* the IP (or UDP) header says SCTP follows */
	bool udp_encap;	      /* SCTP over UDP, RFC 6951 */
	uint8_t src_addr[16]; /* IPv4: first 4 bytes, rest zero */
	uint8_t dst_addr[16];
};

/*
 * Parse one frame of caplen bytes. On NET_FRAME_OK every field is set and
 * [sctp_offset, sctp_offset + sctp_len) lies inside the frame.
 *
 * On an error the fields reached before it stay valid: once is_sctp is true
 * (the IP or UDP header named SCTP), the addresses, ip_version and ip_proto
 * are set, so a caller can report a malformed SCTP frame (fragment,
 * truncated capture, bad UDP length) rather than a frame that is not SCTP.
 * With NET_FRAME_ERR_CAPTURE_TRUNCATED the span fields describe the declared
 * datagram, which extends past caplen. Errors NET_FRAME_ERR_NOT_IP and
 * NET_FRAME_ERR_NOT_SCTP are the normal answer for other traffic.
 */
enum net_frame_err net_frame_parse(struct net_frame *f, enum net_frame_link link,
				   const uint8_t *buf, size_t caplen);

#ifdef __cplusplus
}
#endif

#endif /* DRIVERS_NET_FRAME_H */
