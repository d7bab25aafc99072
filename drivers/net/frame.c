/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Link, IP and UDP headers down to the SCTP packet.
 *
 * Ethernet II (IEEE 802.3 §3.2.6 Length/Type >= 0x0600), 802.1Q/802.1ad tags
 * (IEEE 802.1Q §9.5: TPID 0x8100, 0x88a8, and the pre-standard 0x9100),
 * Linux cooked captures (pcap-linktype(7): SLL 16 bytes with the protocol at
 * offset 14, SLL2 20 bytes with it at offset 0), BSD loopback (a 4-byte
 * address family), IPv4 (RFC 791 §3.1), IPv6 (RFC 8200 §3, §4) and UDP
 * (RFC 768; SCTP over UDP per RFC 6951 §5).
 *
 * Every read is preceded by a check against the captured length; the IP
 * datagram's own length then bounds everything after the IP header.
 */
#include "drivers/net/frame.h"

#include "sctp/byteorder.h"

#define ETHERTYPE_IPV4	   0x0800u
#define ETHERTYPE_IPV6	   0x86DDu
#define ETHERTYPE_VLAN	   0x8100u /* 802.1Q C-tag */
#define ETHERTYPE_QINQ	   0x88A8u /* 802.1ad S-tag */
#define ETHERTYPE_QINQ_OLD 0x9100u /* pre-802.1ad S-tag, still seen */
#define ETH_HDR_LEN	   14u
#define VLAN_TAG_LEN	   4u
#define SLL_HDR_LEN	   16u
#define SLL_PROTO_OFF	   14u
#define SLL2_HDR_LEN	   20u
#define SLL2_PROTO_OFF	   0u
#define LOOP_HDR_LEN	   4u
#define IPV4_MIN_HDR_LEN   20u
#define IPV4_MF		   0x2000u /* more fragments */
#define IPV4_FRAG_OFF_MASK 0x1FFFu
#define IPV6_HDR_LEN	   40u
#define IPV6_EXT_MIN_LEN   8u
#define IPV6_FRAG_OFF_MASK 0xFFF8u
#define IPV6_FRAG_M	   0x0001u
#define UDP_HDR_LEN	   8u
/* RFC 6951 §5: IANA-assigned port for SCTP over UDP. */
#define SCTP_UDP_PORT 9899u

/* IANA protocol numbers (also IPv6 next-header values). */
#define IPPROTO_NUM_HOPOPTS  0u
#define IPPROTO_NUM_SCTP     132u
#define IPPROTO_NUM_UDP	     17u
#define IPPROTO_NUM_ROUTING  43u
#define IPPROTO_NUM_FRAGMENT 44u
#define IPPROTO_NUM_DSTOPTS  60u

/*
 * Loopback address families: AF_INET is 2 everywhere; AF_INET6 is 10 on
 * Linux, 24 on NetBSD/OpenBSD, 28 on FreeBSD, 30 on Darwin.
 */
#define LOOP_AF_INET 2u

static const struct sctp_def_row frame_err_rows[NET_FRAME_ERR_COUNT] = {
	[NET_FRAME_OK] = { "ok", "no error" },
#define NET_FRAME_ERR(name, str, why) SCTP_DEF_ROW(NET_FRAME_ERR_##name, str, why)
#include "drivers/net/frame_err.def"
#undef NET_FRAME_ERR
};

const char *
net_frame_err_name(enum net_frame_err err)
{
	return sctp_def_name(frame_err_rows, NET_FRAME_ERR_COUNT, err);
}

const char *
net_frame_err_describe(enum net_frame_err err)
{
	return sctp_def_describe(frame_err_rows, NET_FRAME_ERR_COUNT, err, "unknown error");
}

bool
net_frame_link_from_linktype(int linktype, enum net_frame_link *link)
{
	switch (linktype) {
	case 0: /* LINKTYPE_NULL */
		*link = NET_FRAME_LINK_NULL;
		return true;
	case 1: /* LINKTYPE_ETHERNET */
		*link = NET_FRAME_LINK_ETHERNET;
		return true;
	case 12:  /* DLT_RAW as Linux libpcap reports it */
	case 101: /* LINKTYPE_RAW */
		*link = NET_FRAME_LINK_RAW;
		return true;
	case 108: /* LINKTYPE_LOOP */
		*link = NET_FRAME_LINK_LOOP;
		return true;
	case 113: /* LINKTYPE_LINUX_SLL */
		*link = NET_FRAME_LINK_SLL;
		return true;
	case 228: /* LINKTYPE_IPV4 */
		*link = NET_FRAME_LINK_IPV4;
		return true;
	case 229: /* LINKTYPE_IPV6 */
		*link = NET_FRAME_LINK_IPV6;
		return true;
	case 276: /* LINKTYPE_LINUX_SLL2 */
		*link = NET_FRAME_LINK_SLL2;
		return true;
	default:
		return false;
	}
}

static inline bool
has(size_t caplen, size_t off, size_t n)
{
	return off <= caplen && caplen - off >= n;
}

/*
 * The transport header at l4 inside a datagram ending at ip_end (already
 * checked: l4 <= ip_end). fragment is true for any IP fragment; first is true
 * when it is the fragment at offset 0, whose transport header is present.
 */
static enum net_frame_err
frame_transport(struct net_frame *f, const uint8_t *buf, size_t caplen, uint32_t l4,
		uint32_t ip_end, uint8_t proto, bool fragment, bool first)
{
	f->ip_proto = proto;
	f->l4_offset = l4;
	if (proto == IPPROTO_NUM_SCTP) {
		f->is_sctp = true;
		f->sctp_offset = l4;
		f->sctp_len = ip_end - l4;
	} else if (proto == IPPROTO_NUM_UDP) {
		if (fragment && !first)
			return NET_FRAME_ERR_NOT_SCTP; /* the ports are elsewhere */
		if (!has(caplen, l4, UDP_HDR_LEN)) {
			/* Within the datagram but not captured, or not there at all. */
			return ip_end - l4 >= UDP_HDR_LEN ? NET_FRAME_ERR_CAPTURE_TRUNCATED
							  : NET_FRAME_ERR_UDP_LEN;
		}
		uint16_t sport = sctp_load_be16(buf + l4);
		uint16_t dport = sctp_load_be16(buf + l4 + 2);
		if (sport != SCTP_UDP_PORT && dport != SCTP_UDP_PORT)
			return NET_FRAME_ERR_NOT_SCTP;
		f->is_sctp = true;
		f->udp_encap = true;
		f->udp_src_port = sport;
		f->udp_dst_port = dport;
		if (!fragment) {
			uint16_t udp_len = sctp_load_be16(buf + l4 + 4);
			if (udp_len < UDP_HDR_LEN || udp_len > ip_end - l4)
				return NET_FRAME_ERR_UDP_LEN;
			f->sctp_offset = l4 + UDP_HDR_LEN;
			f->sctp_len = udp_len - UDP_HDR_LEN;
		}
	} else {
		return NET_FRAME_ERR_NOT_SCTP;
	}
	if (fragment)
		return NET_FRAME_ERR_IP_FRAGMENT;
	if (f->sctp_len >= 4 && has(caplen, f->sctp_offset, 4)) {
		f->src_port = sctp_load_be16(buf + f->sctp_offset);
		f->dst_port = sctp_load_be16(buf + f->sctp_offset + 2);
	}
	if (ip_end > caplen)
		return NET_FRAME_ERR_CAPTURE_TRUNCATED;
	return NET_FRAME_OK;
}

static enum net_frame_err
frame_ipv4(struct net_frame *f, const uint8_t *buf, size_t caplen, uint32_t off)
{
	if (!has(caplen, off, 1))
		return NET_FRAME_ERR_IP_TRUNCATED;
	if (buf[off] >> 4 != 4)
		return NET_FRAME_ERR_IP_VERSION;
	if (!has(caplen, off, IPV4_MIN_HDR_LEN))
		return NET_FRAME_ERR_IP_TRUNCATED;

	const uint8_t *ip = buf + off;
	uint32_t hlen = (uint32_t)(ip[0] & 0x0Fu) * 4u;
	if (hlen < IPV4_MIN_HDR_LEN)
		return NET_FRAME_ERR_IPV4_IHL;
	uint16_t total_len = sctp_load_be16(ip + 2);
	if (total_len < hlen)
		return NET_FRAME_ERR_IPV4_TOTAL_LEN;
	if (!has(caplen, off, hlen))
		return NET_FRAME_ERR_IP_TRUNCATED;

	f->l3_offset = off;
	f->ip_version = 4;
	f->ip_len = total_len;
	for (int i = 0; i < 4; i++) {
		f->src_addr[i] = ip[12 + i];
		f->dst_addr[i] = ip[16 + i];
	}
	uint16_t frag = sctp_load_be16(ip + 6);
	bool first = (frag & IPV4_FRAG_OFF_MASK) == 0;
	bool fragment = (frag & IPV4_MF) != 0 || !first;
	return frame_transport(f, buf, caplen, off + hlen, off + total_len, ip[9], fragment, first);
}

static enum net_frame_err
frame_ipv6(struct net_frame *f, const uint8_t *buf, size_t caplen, uint32_t off)
{
	if (!has(caplen, off, 1))
		return NET_FRAME_ERR_IP_TRUNCATED;
	if (buf[off] >> 4 != 6)
		return NET_FRAME_ERR_IP_VERSION;
	if (!has(caplen, off, IPV6_HDR_LEN))
		return NET_FRAME_ERR_IP_TRUNCATED;

	const uint8_t *ip = buf + off;
	uint16_t payload_len = sctp_load_be16(ip + 4);
	uint8_t nh = ip[6];

	f->l3_offset = off;
	f->ip_version = 6;
	for (int i = 0; i < 16; i++) {
		f->src_addr[i] = ip[8 + i];
		f->dst_addr[i] = ip[24 + i];
	}
	/* RFC 2675 §3: a zero payload length with a hop-by-hop header is a jumbogram. */
	if (payload_len == 0 && nh == IPPROTO_NUM_HOPOPTS)
		return NET_FRAME_ERR_IPV6_JUMBOGRAM;
	f->ip_len = IPV6_HDR_LEN + payload_len;

	uint32_t ip_end = off + IPV6_HDR_LEN + payload_len;
	uint32_t pos = off + IPV6_HDR_LEN;
	bool fragment = false;
	bool first = true;

	/* Every extension header is at least 8 bytes, so this loop ends. */
	for (;;) {
		bool ext = nh == IPPROTO_NUM_HOPOPTS || nh == IPPROTO_NUM_ROUTING ||
			   nh == IPPROTO_NUM_DSTOPTS || nh == IPPROTO_NUM_FRAGMENT;
		if (!ext || fragment)
			break;
		if (ip_end - pos < IPV6_EXT_MIN_LEN)
			return NET_FRAME_ERR_IPV6_EXT_LEN;
		if (!has(caplen, pos, IPV6_EXT_MIN_LEN))
			return NET_FRAME_ERR_CAPTURE_TRUNCATED;
		const uint8_t *eh = buf + pos;
		uint32_t elen;
		if (nh == IPPROTO_NUM_FRAGMENT) {
			/* RFC 8200 §4.5; offset 0 with M clear is an atomic fragment. */
			uint16_t fo = sctp_load_be16(eh + 2);
			first = (fo & IPV6_FRAG_OFF_MASK) == 0;
			fragment = !first || (fo & IPV6_FRAG_M) != 0;
			elen = IPV6_EXT_MIN_LEN;
		} else {
			/* RFC 8200 §4.3-4.6: length in 8-octet units, not counting the first 8. */
			elen = ((uint32_t)eh[1] + 1u) * 8u;
			if (ip_end - pos < elen)
				return NET_FRAME_ERR_IPV6_EXT_LEN;
		}
		nh = eh[0];
		pos += elen;
	}
	return frame_transport(f, buf, caplen, pos, ip_end, nh, fragment, first);
}

static enum net_frame_err
frame_ip_by_ethertype(struct net_frame *f, const uint8_t *buf, size_t caplen, uint32_t off,
		      uint16_t ethertype)
{
	if (ethertype == ETHERTYPE_IPV4)
		return frame_ipv4(f, buf, caplen, off);
	if (ethertype == ETHERTYPE_IPV6)
		return frame_ipv6(f, buf, caplen, off);
	return NET_FRAME_ERR_NOT_IP;
}

static inline bool
is_vlan_tpid(uint16_t t)
{
	return t == ETHERTYPE_VLAN || t == ETHERTYPE_QINQ || t == ETHERTYPE_QINQ_OLD;
}

/* VLAN tags may follow any header that ends in an EtherType (SLL carries them too). */
static enum net_frame_err
frame_after_ethertype(struct net_frame *f, const uint8_t *buf, size_t caplen, uint32_t off,
		      uint16_t ethertype)
{
	while (is_vlan_tpid(ethertype)) {
		if (f->vlan_count == NET_FRAME_MAX_VLANS)
			return NET_FRAME_ERR_VLAN_TOO_DEEP;
		if (!has(caplen, off, VLAN_TAG_LEN))
			return NET_FRAME_ERR_LINK_TRUNCATED;
		f->vlan_tci[f->vlan_count++] = sctp_load_be16(buf + off);
		ethertype = sctp_load_be16(buf + off + 2);
		off += VLAN_TAG_LEN;
	}
	return frame_ip_by_ethertype(f, buf, caplen, off, ethertype);
}

static enum net_frame_err
frame_raw(struct net_frame *f, const uint8_t *buf, size_t caplen, uint32_t off)
{
	if (!has(caplen, off, 1))
		return NET_FRAME_ERR_IP_TRUNCATED;
	switch (buf[off] >> 4) {
	case 4:
		return frame_ipv4(f, buf, caplen, off);
	case 6:
		return frame_ipv6(f, buf, caplen, off);
	default:
		return NET_FRAME_ERR_IP_VERSION;
	}
}

static enum net_frame_err
frame_loopback(struct net_frame *f, const uint8_t *buf, size_t caplen, bool host_order)
{
	if (!has(caplen, 0, LOOP_HDR_LEN))
		return NET_FRAME_ERR_LINK_TRUNCATED;
	uint32_t family = sctp_load_be32(buf);
	/* DLT_NULL is in the capturing host's order: families are small numbers. */
	if (host_order && family > 0xFFFFu)
		family = (uint32_t)buf[0] | (uint32_t)buf[1] << 8 | (uint32_t)buf[2] << 16 |
			 (uint32_t)buf[3] << 24;
	switch (family) {
	case LOOP_AF_INET:
		return frame_ipv4(f, buf, caplen, LOOP_HDR_LEN);
	case 10:
	case 24:
	case 28:
	case 30:
		return frame_ipv6(f, buf, caplen, LOOP_HDR_LEN);
	default:
		return NET_FRAME_ERR_NOT_IP;
	}
}

enum net_frame_err
net_frame_parse(struct net_frame *f, enum net_frame_link link, const uint8_t *buf, size_t caplen)
{
	*f = (struct net_frame){ 0 };
	/* Offsets are 32-bit; no link delivers a frame anywhere near 4 GiB. */
	if (caplen > UINT32_MAX)
		caplen = UINT32_MAX;

	switch (link) {
	case NET_FRAME_LINK_ETHERNET:
		if (!has(caplen, 0, ETH_HDR_LEN))
			return NET_FRAME_ERR_LINK_TRUNCATED;
		return frame_after_ethertype(f, buf, caplen, ETH_HDR_LEN, sctp_load_be16(buf + 12));
	case NET_FRAME_LINK_SLL:
		if (!has(caplen, 0, SLL_HDR_LEN))
			return NET_FRAME_ERR_LINK_TRUNCATED;
		return frame_after_ethertype(f, buf, caplen, SLL_HDR_LEN,
					     sctp_load_be16(buf + SLL_PROTO_OFF));
	case NET_FRAME_LINK_SLL2:
		if (!has(caplen, 0, SLL2_HDR_LEN))
			return NET_FRAME_ERR_LINK_TRUNCATED;
		return frame_after_ethertype(f, buf, caplen, SLL2_HDR_LEN,
					     sctp_load_be16(buf + SLL2_PROTO_OFF));
	case NET_FRAME_LINK_RAW:
		return frame_raw(f, buf, caplen, 0);
	case NET_FRAME_LINK_IPV4:
		return frame_ipv4(f, buf, caplen, 0);
	case NET_FRAME_LINK_IPV6:
		return frame_ipv6(f, buf, caplen, 0);
	case NET_FRAME_LINK_NULL:
		return frame_loopback(f, buf, caplen, true);
	case NET_FRAME_LINK_LOOP:
		return frame_loopback(f, buf, caplen, false);
	}
	return NET_FRAME_ERR_LINK_UNSUPPORTED;
}
