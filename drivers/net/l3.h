/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The data plane's L2/L3 layer, sans I/O: what an lcore answers itself
 * (ARP, Neighbor Discovery, echo), what it hands to the SCTP core (SCTP
 * packets, over IP or over UDP, and ICMP errors about them), and the headers
 * it prepends to the SCTP packets the core sends.
 *
 *   dpsctp_l3_input()   one received Ethernet frame -> a verdict: SCTP (with
 *                       offsets and addresses), ICMP error (for RFC 9260
 *                       appendix C / RFC 8899), a reply frame to transmit
 *                       (ARP reply, NA, echo reply), or a named drop.
 *   dpsctp_l3_output()  one SCTP packet to send -> Ethernet + IPv4/IPv6
 *                       (+ UDP, RFC 6951) headers, or "parked" while the
 *                       next hop is resolved (with the ARP request or NS
 *                       to send), or a named drop.
 *   dpsctp_l3_tick()    expiry: resolutions that timed out give their parked
 *                       packets back; returns the next time it has work.
 *
 * RFCs: Ethernet II, ARP (RFC 826), IPv4 (RFC 791, RFC 1122 §3.2.2 for
 * ICMP), ICMP (RFC 792, RFC 1191 for "fragmentation needed"), IPv6
 * (RFC 8200), ICMPv6 (RFC 4443), Neighbor Discovery (RFC 4861 §7), UDP
 * (RFC 768), SCTP over UDP (RFC 6951 §5). The receive side reuses the shared
 * frame parser (drivers/net/frame.h) for Ethernet, VLAN, IP and UDP.
 *
 * Pure C11: no allocation (struct dpsctp_l3 is the caller's storage, 10,744
 * bytes on x86-64, one per lcore), no clock reads (now_ns is passed in), no I/O, no
 * locks (one lcore owns one struct dpsctp_l3). Received frames are only
 * read, never written; every read is checked against the frame length and
 * against the IP datagram's own length. Every drop has a name
 * (drivers/net/l3_drop.def) and one counter. docs/NET.md has the policy.
 */
#ifndef DRIVERS_NET_L3_H
#define DRIVERS_NET_L3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Our addresses (both families together), link-local IPv6 included. */
#define DPSCTP_L3_ADDR_MAX 8
/*
 * Neighbour entries (IPv4 and IPv6 in one table). An lcore in a data center
 * talks to its gateways and a few on-link peers; lookups scan the used
 * entries, so the common case (one gateway) is one 16-byte compare.
 */
#define DPSCTP_L3_NBR_MAX 32
/* Packets waiting per unresolved neighbour (RFC 1122 §2.3.2.2 asks for >= 1). */
#define DPSCTP_L3_PARK_MAX 4
/* Bytes dpsctp_l3_output() prepends at most: Ethernet 14 + IPv6 40 + UDP 8. */
#define DPSCTP_L3_HDR_MAX 62
/* Bytes of an ARP request (padded to the 60-byte Ethernet minimum) or NS (86). */
#define DPSCTP_L3_PROBE_MAX 86
/* Default RFC 6951 encapsulation port (IANA). */
#define DPSCTP_L3_UDP_PORT 9899

/* Named reasons for a drop (list: l3_drop.def). */
enum dpsctp_l3_drop {
	DPSCTP_L3_DROP_NONE = 0,
#define DPSCTP_L3_DROP(name, str, why) DPSCTP_L3_DROP_##name,
#include "drivers/net/l3_drop.def"
#undef DPSCTP_L3_DROP
	DPSCTP_L3_DROP_COUNT
};

/* "none", the counter name of a drop, or "unknown". */
const char *dpsctp_l3_drop_name(enum dpsctp_l3_drop d);
/* One-line explanation, for logs and --help. */
const char *dpsctp_l3_drop_describe(enum dpsctp_l3_drop d);

/* An IPv4 (first 4 bytes, rest zero) or IPv6 address. */
struct dpsctp_l3_ip {
	uint8_t family; /* 4 or 6 */
	uint8_t b[16];
};

/* Counters since dpsctp_l3_init(). */
struct dpsctp_l3_counters {
	uint64_t drops[DPSCTP_L3_DROP_COUNT]; /* per reason; [NONE] unused */
	uint64_t frames_in;		      /* dpsctp_l3_input() calls */
	uint64_t sctp_in;		      /* SCTP verdicts (udp_in of them over UDP) */
	uint64_t udp_in;
	uint64_t icmp_errors_in; /* ICMP error verdicts handed to the core */
	uint64_t arp_replies_sent;
	uint64_t na_sent;
	uint64_t echo_replies_sent; /* ICMP and ICMPv6 */
	uint64_t nbr_updates;	    /* entries learnt or refreshed from ARP or ND */
	uint64_t tx_ready;	    /* dpsctp_l3_output() wrote headers */
	uint64_t tx_parked;	    /* packets parked while resolving */
	uint64_t parked_released;   /* parked packets handed back to be sent */
	uint64_t probes_sent;	    /* ARP requests and NS written */
	uint64_t nbr_evicted;	    /* resolved entries evicted for room (no packets lost) */
};

/* Counters as name/value pairs, for telemetry: i in [0, dpsctp_l3_counter_count()). */
unsigned dpsctp_l3_counter_count(void);
const char *dpsctp_l3_counter_name(unsigned i);
uint64_t dpsctp_l3_counter_value(const struct dpsctp_l3_counters *c, unsigned i);

/* What dpsctp_l3_output() sends; also what a parked packet carries. */
struct dpsctp_l3_tx {
	struct dpsctp_l3_ip src; /* one of ours */
	struct dpsctp_l3_ip dst;
	/* Remote UDP port for RFC 6951 encapsulation; 0 sends SCTP over IP. */
	uint16_t udp_dst_port;
	uint8_t tclass; /* IPv4 TOS / IPv6 traffic class (DSCP and ECN) */
	/*
	 * The SCTP packet's bytes when contiguous, for the UDP checksum; NULL
	 * when only sctp_len is known (headers prepended in mbuf headroom).
	 * Kept as given while the packet is parked.
	 */
	const uint8_t *sctp;
	uint32_t sctp_len;
	uintptr_t handle; /* the caller's buffer (an mbuf), parked if unresolved */
};

/* Neighbour states (RFC 4861 §7.3.2, used for ARP too). */
enum dpsctp_l3_nbr_state {
	DPSCTP_L3_NBR_FREE = 0,
	DPSCTP_L3_NBR_INCOMPLETE, /* probing, packets may be parked */
	DPSCTP_L3_NBR_REACHABLE,  /* confirmed within reachable_ns */
	DPSCTP_L3_NBR_STALE,	  /* usable; re-probed when used, removed after stale_ns */
};

struct dpsctp_l3_nbr {
	struct dpsctp_l3_ip ip;
	uint8_t mac[6];
	uint8_t state;	    /* enum dpsctp_l3_nbr_state */
	uint8_t probes;	    /* probes sent in INCOMPLETE, or since going STALE */
	uint8_t parked;	    /* packets in park[] */
	uint64_t confirmed; /* last confirmation (now_ns) */
	uint64_t probed;    /* last probe sent */
	uint64_t used;	    /* last output through this entry (eviction order) */
	struct dpsctp_l3_tx park[DPSCTP_L3_PARK_MAX];
};

struct dpsctp_l3_config {
	uint8_t mac[6];
	/* Our addresses with prefix lengths; on-link = inside one of the prefixes. */
	struct dpsctp_l3_ip addr[DPSCTP_L3_ADDR_MAX];
	uint8_t prefix[DPSCTP_L3_ADDR_MAX];
	unsigned addr_count;
	/* Default gateways; family 0 when none. */
	struct dpsctp_l3_ip gw4;
	struct dpsctp_l3_ip gw6;
	uint16_t udp_port; /* our RFC 6951 port; 0 -> DPSCTP_L3_UDP_PORT */
	uint8_t ttl;	   /* IPv4 TTL and IPv6 hop limit of what we send; 0 -> 64 */
	/* Add fe80::/64 with the modified EUI-64 of mac (RFC 4291 §2.5.1) when IPv6 is used. */
	bool ipv6_link_local;
	/*
	 * Timers (0 -> default): RFC 4861 §10 REACHABLE_TIME 30 s and
	 * RETRANS_TIMER 1 s, MAX_MULTICAST_SOLICIT 3; stale entries are removed
	 * after stale_ns (default 10 min) without use.
	 */
	uint64_t reachable_ns;
	uint64_t retrans_ns;
	uint64_t stale_ns;
	uint8_t max_probes;
};

/* The layer's state, one per lcore. Fields are private: use the functions. */
struct dpsctp_l3 {
	struct dpsctp_l3_config cfg;
	struct dpsctp_l3_counters ctr;
	unsigned nbr_count; /* entries [0, nbr_count) are in use */
	struct dpsctp_l3_nbr nbr[DPSCTP_L3_NBR_MAX];
	/* Gives parked packets back on timeout or flush; may be NULL (leak is the caller's). */
	void (*release)(void *ctx, uintptr_t handle);
	void *release_ctx;
};

/*
 * Set up l3 from cfg. Returns 0, or -EINVAL when an address has another
 * family than 4 or 6, a prefix is too long, or addr_count (with the derived
 * link-local address) exceeds DPSCTP_L3_ADDR_MAX. release gives parked
 * packets back (timeout, flush).
 */
int dpsctp_l3_init(struct dpsctp_l3 *l3, const struct dpsctp_l3_config *cfg,
		   void (*release)(void *ctx, uintptr_t handle), void *release_ctx);

/* What a received frame is. */
enum dpsctp_l3_verdict {
	DPSCTP_L3_IN_DROP = 0,	 /* counted under in->drop; free the frame */
	DPSCTP_L3_IN_SCTP,	 /* in->sctp describes the packet: to the core */
	DPSCTP_L3_IN_ICMP_ERROR, /* in->icmp describes the error: to the core */
	DPSCTP_L3_IN_REPLY,	 /* in->reply_len bytes of reply to transmit; free the frame */
	DPSCTP_L3_IN_CONSUMED,	 /* the cache learnt from it; free the frame */
};

/* ICMP errors the core acts on (RFC 9260 appendix C, RFC 8899 §4.6). */
enum dpsctp_l3_icmp_kind {
	DPSCTP_L3_ICMP_FRAG_NEEDED,   /* ICMP 3/4 or ICMPv6 Packet Too Big: mtu is set */
	DPSCTP_L3_ICMP_PROTO_UNREACH, /* ICMP 3/2, ICMPv6 Parameter Problem code 1 */
	DPSCTP_L3_ICMP_PORT_UNREACH,  /* ICMP 3/3, ICMPv6 1/4 (over UDP: no listener on the port) */
	DPSCTP_L3_ICMP_UNREACH,	      /* other destination unreachable codes (net, host, admin) */
};

struct dpsctp_l3_sctp_in {
	uint32_t offset; /* SCTP common header, from the frame start */
	uint32_t len;	 /* SCTP packet length (>= 12), as IP or UDP declares it */
	struct dpsctp_l3_ip src, dst;
	uint16_t src_port, dst_port; /* SCTP ports */
	bool udp_encap;
	/* RFC 6951 §5.4: the peer's UDP source port, remembered per path by the core. */
	uint16_t udp_src_port;
	uint8_t tclass; /* TOS or traffic class, for ECN */
};

struct dpsctp_l3_icmp_in {
	enum dpsctp_l3_icmp_kind kind;
	uint8_t type, code;	      /* as received */
	uint32_t mtu;		      /* next-hop MTU for FRAG_NEEDED (may be 0: RFC 1191 §5) */
	struct dpsctp_l3_ip reporter; /* who sent the ICMP message */
	/* The quoted packet we sent: local is our address, peer the destination. */
	struct dpsctp_l3_ip local, peer;
	uint16_t local_port, peer_port;
	uint32_t vtag; /* quoted verification tag: must be the peer's (appendix C) */
	bool udp_encap;
	uint16_t udp_local_port, udp_peer_port;
	/* Quoted SCTP bytes from the common header on (INIT's Initiate Tag for vtag 0). */
	uint32_t quote_offset;
	uint32_t quote_len;
};

struct dpsctp_l3_in {
	enum dpsctp_l3_verdict verdict;
	enum dpsctp_l3_drop drop; /* set when verdict is DROP */
	uint32_t reply_len;	  /* for REPLY */
	struct dpsctp_l3_sctp_in sctp;
	struct dpsctp_l3_icmp_in icmp;
	/*
	 * Independent of the verdict: packets parked for a neighbour this
	 * frame resolved. Send each with dpsctp_l3_output(l3, &released[i]).
	 */
	unsigned released_count;
	struct dpsctp_l3_tx released[DPSCTP_L3_PARK_MAX];
};

/*
 * Classify one received Ethernet frame of len bytes (VLAN tags allowed).
 * Answers are written into reply (reply_cap bytes; the request's length plus
 * 64 always suffices: an echo reply is never longer than its request, an NA
 * is at most 8 bytes longer than the NS, an ARP reply is padded to 60 bytes
 * plus the VLAN tags). Returns in->verdict.
 */
enum dpsctp_l3_verdict dpsctp_l3_input(struct dpsctp_l3 *l3, const uint8_t *frame, size_t len,
				       uint64_t now_ns, uint8_t *reply, size_t reply_cap,
				       struct dpsctp_l3_in *in);

enum dpsctp_l3_tx_verdict {
	DPSCTP_L3_TX_DROP = 0, /* counted under out->drop; the caller frees the packet */
	DPSCTP_L3_TX_READY,    /* out->hdr_len header bytes written: prepend and send */
	DPSCTP_L3_TX_PARKED,   /* the layer keeps tx->handle until released or given back */
};

/* How the UDP checksum was filled (RFC 6951 encapsulation only). */
enum dpsctp_l3_udp_csum {
	DPSCTP_L3_UDP_CSUM_NONE = 0, /* not UDP */
	DPSCTP_L3_UDP_CSUM_FULL,     /* computed over tx->sctp */
	DPSCTP_L3_UDP_CSUM_ZERO,     /* IPv4 without bytes: zero, allowed by RFC 768 */
	DPSCTP_L3_UDP_CSUM_PSEUDO,   /* IPv6 without bytes: pseudo-header sum, for TX offload */
};

struct dpsctp_l3_out {
	enum dpsctp_l3_tx_verdict verdict;
	enum dpsctp_l3_drop drop;
	uint32_t hdr_len;	 /* READY: Ethernet + IP (+ UDP) bytes written */
	uint32_t l2_len, l3_len; /* READY: for checksum offload flags */
	enum dpsctp_l3_udp_csum udp_csum;
	/* A probe (ARP request or NS) written into the probe buffer: send it too. */
	uint32_t probe_len;
};

/*
 * Build the headers for tx into hdr (hdr_cap bytes, DPSCTP_L3_HDR_MAX
 * suffices): next hop = tx->dst when on-link (inside one of our prefixes,
 * or IPv6 link-local), else the family's gateway. An unresolved next hop
 * parks tx (at most DPSCTP_L3_PARK_MAX per neighbour) and writes an ARP
 * request or NS into probe (probe_cap, DPSCTP_L3_PROBE_MAX suffices; NULL
 * means no probe is sent) when one is due; so may a STALE entry, whose
 * packet still goes out. Returns out->verdict.
 */
enum dpsctp_l3_tx_verdict dpsctp_l3_output(struct dpsctp_l3 *l3, const struct dpsctp_l3_tx *tx,
					   uint64_t now_ns, uint8_t *hdr, size_t hdr_cap,
					   uint8_t *probe, size_t probe_cap,
					   struct dpsctp_l3_out *out);

/*
 * Expire neighbours at now_ns: an INCOMPLETE entry that sent max_probes
 * probes retrans_ns apart without an answer is removed and its parked
 * packets given back through release (counted nbr_resolve_timeout); a
 * STALE entry unused for stale_ns is removed. When probe is not NULL and an
 * INCOMPLETE entry is due another probe, one probe is written there and
 * *probe_len set (call again until it is 0). Returns the next time tick
 * has work (UINT64_MAX: none). Cost: one pass over the used entries.
 */
uint64_t dpsctp_l3_tick(struct dpsctp_l3 *l3, uint64_t now_ns, uint8_t *probe, size_t probe_cap,
			uint32_t *probe_len);

/* Remove every neighbour; parked packets are given back (counted nbr_flushed). */
void dpsctp_l3_flush(struct dpsctp_l3 *l3);

/* The entry for ip, or NULL (for tests and telemetry). */
const struct dpsctp_l3_nbr *dpsctp_l3_nbr_find(const struct dpsctp_l3 *l3,
					       const struct dpsctp_l3_ip *ip);

/* Checksums, exposed for the tests and the data plane's software fallback. */
/* RFC 1071 one's-complement sum of len bytes added to sum (not folded). */
uint32_t dpsctp_l3_csum_add(uint32_t sum, const uint8_t *p, size_t len);
/* Fold and complement. */
uint16_t dpsctp_l3_csum_fold(uint32_t sum);

#ifdef __cplusplus
}
#endif

#endif /* DRIVERS_NET_L3_H */
