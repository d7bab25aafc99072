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
 * Pure C11: no allocation (struct dpsctp_l3 is the caller's storage, one per
 * lcore, with a built-in neighbour table of DPSCTP_L3_NBR_BUILTIN entries;
 * a larger table lives in memory the caller gives, dpsctp_l3_nbr_mem_size()
 * bytes), no clock reads (now_ns is passed in), no I/O, no locks (one lcore
 * owns one struct dpsctp_l3). Received frames are only read, never written;
 * every read is checked against the frame length and against the IP
 * datagram's own length. Every drop has a name (drivers/net/l3_drop.def) and
 * one counter. docs/NET.md has the policy.
 *
 * Neighbours a peer can make us allocate (an INIT ACK, ABORT or any other
 * answer to a stranger's packet needs its next hop resolved) never push out
 * the ones associations use: the data plane pins the next hops of its
 * associations' paths (dpsctp_l3_pin()), a pinned entry is never evicted,
 * resolutions run in a small pool of their own (resolving_max) where a new
 * one may only preempt an older unpinned one, and packets that passed an
 * association's verification-tag check confirm their sender's entry when
 * they come from the MAC ARP or ND gave it (dpsctp_l3_confirm()), which ARP
 * and ND may then not overwrite while that evidence is recent; from another
 * MAC they only make the entry verify itself (a weak-host peer sends from
 * any address out of any interface).
 */
#ifndef DRIVERS_NET_L3_H
#define DRIVERS_NET_L3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sctp/addr.h"
#include "sctp/def_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Our addresses (both families together), link-local IPv6 included. */
#define DPSCTP_L3_ADDR_MAX 8
/*
 * The neighbour table inside struct dpsctp_l3 (IPv4 and IPv6 in one table),
 * used when the configuration gives no memory of its own (tests, small
 * tools): 32 entries, 16 resolving slots. The data plane sizes its own for
 * its associations (--neighbours).
 */
#define DPSCTP_L3_NBR_BUILTIN	    32
#define DPSCTP_L3_RESOLVING_BUILTIN 16
/* Resolving slots at most: a new resolution looks at each (dpsctp_l3_output()). */
#define DPSCTP_L3_RESOLVING_LIMIT 4096
/*
 * Resolutions under way at once when the configuration says 0: enough for the
 * new peers of a burst of handshakes (an answer comes within a millisecond on
 * a LAN), and it bounds what a flood of packets to unresolvable addresses
 * holds: 16 x DPSCTP_L3_PARK_MAX buffers.
 */
#define DPSCTP_L3_RESOLVING_DEFAULT 16
/* Packets waiting per unresolved neighbour (RFC 1122 §2.3.2.2 asks for >= 1). */
#define DPSCTP_L3_PARK_MAX 4
/* Bytes dpsctp_l3_output() prepends at most: Ethernet 14 + IPv6 40 + UDP 8. */
#define DPSCTP_L3_HDR_MAX 62
/* Bytes dpsctp_l3_fragment() writes at most: Ethernet 14 + IPv6 40 + Fragment header 8. */
#define DPSCTP_L3_FRAG_HDR_MAX 62
/*
 * Smallest frag_mtu honoured, per family: IPv4's 68 (RFC 791, a 20-byte
 * header and 48 bytes of payload, a multiple of 8) and IPv6's 1280
 * (RFC 8200 §5); a smaller one is raised to it.
 */
#define DPSCTP_L3_FRAG_MTU_MIN4 68
#define DPSCTP_L3_FRAG_MTU_MIN6 1280
/*
 * Reassembly of IP fragments addressed to us (SCTP, or UDP for RFC 6951):
 * a peer that IP-fragments at the source a DATA chunk cut for a larger path
 * MTU (RFC 9260 §7.3) must still be heard. Datagrams under way at once:
 * DPSCTP_L3_REASM_SLOTS (a new one takes a free slot, an expired one, else
 * the oldest, counted reasm_evicted), each at most DPSCTP_L3_REASM_MAX
 * bytes of IP payload (the largest MTU the data plane takes: a fragmented
 * SCTP packet was sized for some path's MTU), held at most reasm_ns.
 */
#define DPSCTP_L3_REASM_SLOTS 4
#define DPSCTP_L3_REASM_MAX   9216
/* Ethernet, two VLAN tags and an IPv4 header with options: 14 + 8 + 60, rounded up. */
#define DPSCTP_L3_REASM_HDR_MAX 88
/* Bytes of an ARP request (padded to the 60-byte Ethernet minimum) or NS (86). */
#define DPSCTP_L3_PROBE_MAX 86
/* Default RFC 6951 encapsulation port (IANA). */
#define DPSCTP_L3_UDP_PORT 9899

/* Named reasons for a drop (list: l3_drop.def). */
enum dpsctp_l3_drop {
	DPSCTP_L3_DROP_NONE = 0,
#define DPSCTP_L3_DROP(name, str, why) SCTP_DEF_ENUM(DPSCTP_L3_DROP_##name)
#include "drivers/net/l3_drop.def"
#undef DPSCTP_L3_DROP
	DPSCTP_L3_DROP_COUNT
};

/* "none", the counter name of a drop, or "unknown". */
const char *dpsctp_l3_drop_name(enum dpsctp_l3_drop d);
/* One-line explanation, for logs and --help. */
const char *dpsctp_l3_drop_describe(enum dpsctp_l3_drop d);

/* Counters since dpsctp_l3_init(). */
struct dpsctp_l3_counters {
	uint64_t drops[DPSCTP_L3_DROP_COUNT]; /* per reason; [NONE] unused */
	uint64_t frames_in;		      /* dpsctp_l3_input() calls */
	uint64_t sctp_in;		      /* SCTP verdicts (sctp_udp_in of them over UDP) */
	uint64_t sctp_udp_in;
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
	uint64_t nbr_auth_learnt;   /* entries made REACHABLE by dpsctp_l3_confirm() */
	uint64_t nbr_mac_kept; /* ARP/ND refused: would change a MAC an association confirmed */
	uint64_t nbr_auth_other_mac; /* an authenticated packet from another MAC: verify */
	uint64_t nbr_pin_failed;     /* dpsctp_l3_pin() found every entry pinned */
	uint64_t tx_fragmented;	     /* packets sent as IP fragments (tx->frag_mtu) */
	uint64_t tx_fragments;	     /* fragments dpsctp_l3_fragment() wrote */
	uint64_t frags_held;	     /* fragments kept for reassembly */
	uint64_t reasm_done;	     /* datagrams reassembled (REASSEMBLED verdicts) */
	uint64_t reasm_timeout;	     /* partial datagrams dropped after reasm_ns */
	uint64_t reasm_evicted;	     /* partial datagrams pushed out by a new one */
};

/* Counters as name/value pairs, for telemetry: i in [0, dpsctp_l3_counter_count()). */
#define DPSCTP_L3_COUNTERS_MAX 96 /* dpsctp_l3_counter_count() never exceeds it */
unsigned dpsctp_l3_counter_count(void);
const char *dpsctp_l3_counter_name(unsigned i);
uint64_t dpsctp_l3_counter_value(const struct dpsctp_l3_counters *c, unsigned i);

/* What dpsctp_l3_output() sends; also what a parked packet carries. */
struct dpsctp_l3_tx {
	struct sctp_addr src; /* one of ours */
	struct sctp_addr dst;
	/*
	 * The next hop when the caller routed the packet itself (a route's
	 * gateway, on-link); family 0: dst when on-link, else the family's
	 * gateway (struct dpsctp_l3_config).
	 */
	struct sctp_addr via;
	/* Remote UDP port for RFC 6951 encapsulation; 0 sends SCTP over IP. */
	uint16_t udp_dst_port;
	uint8_t tclass; /* IPv4 TOS / IPv6 traffic class (DSCP and ECN) */
	/*
	 * 0: DF set, never fragment; else the packet may be IP-fragmented to this size.
	 * RFC 9260 §6.9/§7.3: DATA once sent is never re-fragmented by SCTP, so
	 * after a path MTU decrease the core retransmits it in one packet that
	 * IP fragments at the source (IPv4 with DF clear, RFC 791; IPv6 with a
	 * Fragment header, RFC 8200 §4.5). Frames of at most frag_mtu IP bytes.
	 */
	uint16_t frag_mtu;
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
	/*
	 * Pinned, no link address and no resolution under way (a pin of a new
	 * next hop, or a pinned entry whose probes went unanswered): the next
	 * packet starts one. Unpinned entries are removed instead.
	 */
	DPSCTP_L3_NBR_UNRESOLVED,
};

struct dpsctp_l3_nbr {
	struct sctp_addr ip;
	uint8_t mac[6];
	uint8_t state;	    /* enum dpsctp_l3_nbr_state */
	uint8_t probes;	    /* probes sent in INCOMPLETE, or since going STALE */
	uint8_t parked;	    /* packets waiting in its resolving slot */
	uint16_t slot;	    /* 1 + its resolving slot while INCOMPLETE, else 0 */
	uint32_t pins;	    /* associations' paths using it: never evicted while > 0 */
	uint32_t hnext;	    /* next entry of its hash chain (UINT32_MAX: none) */
	uint64_t confirmed; /* last confirmation (now_ns) */
	uint64_t probed;    /* last probe sent */
	uint64_t used;	    /* last output through this entry (eviction order) */
	uint64_t auth;	    /* last dpsctp_l3_confirm() (0: never) */
};

/* A datagram being reassembled (private: dpsctp_l3_input() keeps them). */
struct dpsctp_l3_reasm {
	uint64_t started; /* now_ns of its first fragment; 0: free */
	uint8_t src[16], dst[16];
	uint32_t id;
	uint8_t family, proto;
	uint16_t hdr_len; /* bytes of hdr: link header and IP header (IPv6: without the Fragment
			     header) */
	bool hdr_first;	  /* hdr is the offset-0 fragment's (IPv4 options: RFC 791) */
	uint32_t total;	  /* payload bytes, known once the last fragment came; else 0 */
	uint32_t have;	  /* payload bytes held */
	uint8_t units[DPSCTP_L3_REASM_MAX / 64]; /* one bit per 8 bytes held */
	uint8_t hdr[DPSCTP_L3_REASM_HDR_MAX];
	uint8_t buf[DPSCTP_L3_REASM_HDR_MAX +
		    DPSCTP_L3_REASM_MAX]; /* header placed before the payload */
};

/* A resolution under way: the packets parked for one INCOMPLETE entry. */
struct dpsctp_l3_resolving {
	uint32_t nbr; /* index of the entry it serves (UINT32_MAX: free) */
	struct dpsctp_l3_tx park[DPSCTP_L3_PARK_MAX];
};

struct dpsctp_l3_config {
	uint8_t mac[6];
	/* Our addresses with prefix lengths; on-link = inside one of the prefixes. */
	struct sctp_addr addr[DPSCTP_L3_ADDR_MAX];
	uint8_t prefix[DPSCTP_L3_ADDR_MAX];
	unsigned addr_count;
	/* Default gateways; family 0 when none. */
	struct sctp_addr gw4;
	struct sctp_addr gw6;
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
	/*
	 * Neighbour table: nbr_max entries (0 -> DPSCTP_L3_NBR_BUILTIN), at most
	 * resolving_max (0 -> DPSCTP_L3_RESOLVING_DEFAULT, cut to nbr_max) of
	 * them being resolved at once. nbr_mem NULL: the table inside struct
	 * dpsctp_l3 (nbr_max <= DPSCTP_L3_NBR_BUILTIN, resolving_max <=
	 * DPSCTP_L3_RESOLVING_BUILTIN); else dpsctp_l3_nbr_mem_size() bytes,
	 * 8-byte aligned, the caller's until it stops using l3.
	 */
	unsigned nbr_max;
	unsigned resolving_max;
	void *nbr_mem;
	size_t nbr_mem_len;
	/* Keys the table's hash, so that a peer cannot pick addresses that share a chain. */
	uint32_t hash_seed;
	/*
	 * Reassembly: datagrams at once (0 -> DPSCTP_L3_REASM_SLOTS, at most
	 * that) and how long a partial one is kept (0 -> 3 s: a lost fragment
	 * is not sent again, the SCTP retransmission is a new datagram, so a
	 * partial one older than a few round trips only holds a slot).
	 */
	unsigned reasm_slots;
	uint64_t reasm_ns;
};

/* The layer's state, one per lcore. Fields are private: use the functions. */
struct dpsctp_l3 {
	struct dpsctp_l3_config cfg;
	struct dpsctp_l3_counters ctr;
	unsigned nbr_count; /* entries [0, nbr_count) are in use */
	unsigned nbr_max;
	struct dpsctp_l3_nbr *nbr;
	uint32_t *bucket; /* hash heads: bucket_mask + 1 entry indices (UINT32_MAX: empty) */
	uint32_t bucket_mask;
	struct dpsctp_l3_resolving *res;
	unsigned res_max;
	unsigned res_used;
	unsigned evict_cursor; /* where the next search for an eviction victim starts */
	/*
	 * Identification of the next fragmentable packet (IPv4: its low 16
	 * bits): starts at a value derived from hash_seed, one per packet
	 * (RFC 6864 §4.1, RFC 7739 §5).
	 */
	uint32_t frag_id;
	/* dpsctp_l3_tick() has no work before these: resolutions, resolved entries. */
	uint64_t res_due, tbl_due;
	/* Gives parked packets back on timeout or flush; may be NULL (leak is the caller's). */
	void (*release)(void *ctx, uintptr_t handle);
	void *release_ctx;
	struct dpsctp_l3_nbr nbr_builtin[DPSCTP_L3_NBR_BUILTIN];
	uint32_t bucket_builtin[DPSCTP_L3_NBR_BUILTIN];
	struct dpsctp_l3_resolving res_builtin[DPSCTP_L3_RESOLVING_BUILTIN];
	struct dpsctp_l3_reasm reasm[DPSCTP_L3_REASM_SLOTS];
};

/* Bytes of cfg.nbr_mem a table of nbr_max entries and resolving_max resolutions needs. */
size_t dpsctp_l3_nbr_mem_size(unsigned nbr_max, unsigned resolving_max);

/*
 * Set up l3 from cfg. Returns 0, or -EINVAL when an address has another
 * family than 4 or 6, a prefix is too long, addr_count (with the derived
 * link-local address) exceeds DPSCTP_L3_ADDR_MAX, or the neighbour table
 * does not fit its storage (nbr_mem_len too small, more than the built-in
 * table without nbr_mem, nbr_max above 2^30, resolving_max above
 * DPSCTP_L3_RESOLVING_LIMIT). release gives parked packets
 * back (timeout, flush, preemption).
 */
int dpsctp_l3_init(struct dpsctp_l3 *l3, const struct dpsctp_l3_config *cfg,
		   void (*release)(void *ctx, uintptr_t handle), void *release_ctx);

/* What a received frame is. */
enum dpsctp_l3_verdict {
	DPSCTP_L3_IN_DROP = 0,	 /* counted under in->drop; free the frame */
	DPSCTP_L3_IN_SCTP,	 /* in->sctp describes the packet: to the core */
	DPSCTP_L3_IN_ICMP_ERROR, /* in->icmp describes the error: to the core */
	DPSCTP_L3_IN_REPLY,	 /* in->reply_len bytes of reply to transmit; free the frame */
	DPSCTP_L3_IN_CONSUMED,	 /* the cache learnt from it, or a fragment was kept; free the frame
				  */
	/*
	 * The frame completed a datagram: in->reasm_len bytes at in->reasm,
	 * a whole frame (the link header, the IP header without fragmentation,
	 * the payload), valid until the next dpsctp_l3_input(). Free the frame,
	 * and give the datagram to dpsctp_l3_input() as a frame of its own.
	 */
	DPSCTP_L3_IN_REASSEMBLED,
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
	struct sctp_addr src, dst;
	uint16_t src_port, dst_port; /* SCTP ports */
	bool udp_encap;
	/* RFC 6951 §5.4: the peer's UDP source port, remembered per path by the core. */
	uint16_t udp_src_port;
	uint8_t tclass; /* TOS or traffic class, for ECN */
};

struct dpsctp_l3_icmp_in {
	enum dpsctp_l3_icmp_kind kind;
	uint8_t type, code;	   /* as received */
	uint32_t mtu;		   /* next-hop MTU for FRAG_NEEDED (may be 0: RFC 1191 §5) */
	struct sctp_addr reporter; /* who sent the ICMP message */
	/* The quoted packet we sent: local is our address, peer the destination. */
	struct sctp_addr local, peer;
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
	const uint8_t *reasm;	  /* for REASSEMBLED */
	uint32_t reasm_len;
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
 * plus the VLAN tags). A fragment addressed to us (IPv4, or IPv6 with the
 * Fragment header first) of SCTP or UDP is kept (CONSUMED, frags_held)
 * until its datagram is whole (REASSEMBLED); overlaps abandon the datagram
 * (RFC 5722). Returns in->verdict.
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
	/*
	 * READY with tx->frag_mtu set and an IP packet longer than frag_mtu:
	 * the IP payload (ip_payload bytes: the UDP header, if any, and the
	 * SCTP packet) goes out in frag_count fragments of frag_size bytes (a
	 * multiple of 8; the last one shorter), each behind the headers
	 * dpsctp_l3_fragment() writes; hdr then serves only as their template.
	 * frag_size 0: send hdr and the packet as one frame.
	 */
	uint32_t ip_payload;
	uint32_t frag_size;
	uint32_t frag_count;
	uint32_t frag_id; /* the packet's identification (IPv4: 16 bits; 0 with DF set) */
};

/*
 * Build the headers for tx into hdr (hdr_cap bytes, DPSCTP_L3_HDR_MAX
 * suffices): next hop = tx->via when it has a family, else tx->dst when
 * on-link (inside one of our prefixes, or IPv6 link-local), else the
 * family's gateway. An unresolved next hop
 * parks tx (at most DPSCTP_L3_PARK_MAX per neighbour) and writes an ARP
 * request or NS into probe (probe_cap, DPSCTP_L3_PROBE_MAX suffices; NULL
 * means no probe is sent) when one is due; so may a STALE entry, whose
 * packet still goes out. A new resolution needs a resolving slot: a free
 * one, else the least recently used one of an unpinned neighbour (its
 * packets given back, nbr_preempted); none left is nbr_resolving_full. A
 * new entry takes a free one, else evicts the least recently used resolved
 * unpinned one; pinned entries are never evicted. Returns out->verdict.
 */
enum dpsctp_l3_tx_verdict dpsctp_l3_output(struct dpsctp_l3 *l3, const struct dpsctp_l3_tx *tx,
					   uint64_t now_ns, uint8_t *hdr, size_t hdr_cap,
					   uint8_t *probe, size_t probe_cap,
					   struct dpsctp_l3_out *out);

/*
 * The headers of one fragment of a packet dpsctp_l3_output() gave a
 * frag_size: hdr and out as output wrote them, offset the fragment's place
 * in the IP payload (a multiple of 8) and len its bytes (frag_size, or what
 * is left for the last one). Writes Ethernet and IPv4 (total length, MF,
 * fragment offset, checksum: RFC 791) or Ethernet, IPv6 and a Fragment
 * header (RFC 8200 §4.5) into frag (frag_cap bytes, DPSCTP_L3_FRAG_HDR_MAX
 * suffices); the payload bytes [offset, offset + len) follow them. Returns
 * the header length, counted in tx_fragments, or 0 when out has no
 * fragmentation, offset or len do not describe a fragment of it, or frag_cap
 * is short.
 */
uint32_t dpsctp_l3_fragment(struct dpsctp_l3 *l3, const uint8_t *hdr,
			    const struct dpsctp_l3_out *out, uint32_t offset, uint32_t len,
			    uint8_t *frag, size_t frag_cap);

/*
 * Expire neighbours at now_ns: an INCOMPLETE entry that sent max_probes
 * probes retrans_ns apart without an answer gives its parked packets back
 * through release (counted nbr_resolve_timeout) and is removed (UNRESOLVED
 * when pinned); a STALE entry whose max_probes unicast probes went
 * unanswered likewise, and one unused for stale_ns is removed unless
 * pinned. When probe is not NULL and an INCOMPLETE entry is due another
 * probe, one probe is written there and *probe_len set (call again until
 * it is 0). Returns a time no later than the next at which tick has work
 * (UINT64_MAX: none); a call before it does nothing. Cost:
 * nothing before that time; then a pass over the resolving slots, and over
 * the used entries at most every 10 ms (the resolved entries' timers are
 * seconds and minutes).
 */
uint64_t dpsctp_l3_tick(struct dpsctp_l3 *l3, uint64_t now_ns, uint8_t *probe, size_t probe_cap,
			uint32_t *probe_len);

/*
 * Forget every neighbour: parked packets are given back (counted
 * nbr_flushed); unpinned entries go, pinned ones stay UNRESOLVED with their
 * pins (dpsctp_l3_unpin() still balances dpsctp_l3_pin()).
 */
void dpsctp_l3_flush(struct dpsctp_l3 *l3);

/*
 * An association uses dst (one of its peer's addresses): pin the entry of its
 * next hop (dst when on-link, else the gateway), created UNRESOLVED when there
 * is none. A pinned entry is never evicted, preempted or expired; pins count,
 * so a gateway many associations use is unpinned by the last of them. A new
 * entry takes a free one, else evicts an unpinned one (a resolved one first).
 * Returns 0; -EINVAL when dst has no family or no route (counted nowhere:
 * its packets will be tx_no_route); -ENOSPC when every entry is pinned
 * (nbr_pin_failed): the table is too small for the associations.
 */
int dpsctp_l3_pin(struct dpsctp_l3 *l3, const struct sctp_addr *dst, uint64_t now_ns);

/* Undo one dpsctp_l3_pin(dst) that returned 0. The last unpin of an UNRESOLVED entry removes it. */
void dpsctp_l3_unpin(struct dpsctp_l3 *l3, const struct sctp_addr *dst);

/*
 * Upper-layer confirmation (RFC 4861 §7.3.1): a packet from src, in a frame
 * whose source MAC was src_mac, passed an association's verification-tag
 * check (RFC 9260 §8.5) and src is one of that association's peer
 * addresses. On-link src, an entry whose MAC (from ARP or ND) is src_mac:
 * REACHABLE (its parked packets, if it was resolving again, are written to
 * released[], at most DPSCTP_L3_PARK_MAX, to be sent with
 * dpsctp_l3_output()), and for reachable_ns ARP and ND may not give it
 * another MAC (nbr_mac_kept); an entry with another MAC keeps it,
 * unguarded, and a REACHABLE one becomes STALE (nbr_auth_other_mac); an
 * entry with no MAC learns nothing. A frame's MAC is never learnt: a
 * weak-host peer sends from any of its addresses out of any interface.
 * Off-link src: the gateway's entry is confirmed when src_mac is its MAC.
 * Nothing is created. Returns the number of released packets. Cost: one
 * lookup, and a compare when nothing changes.
 */
unsigned dpsctp_l3_confirm(struct dpsctp_l3 *l3, const struct sctp_addr *src,
			   const uint8_t *src_mac, uint64_t now_ns, struct dpsctp_l3_tx *released);

/* The entry for ip, or NULL (for tests and telemetry). */
const struct dpsctp_l3_nbr *dpsctp_l3_nbr_find(const struct dpsctp_l3 *l3,
					       const struct sctp_addr *ip);

/* Checksums, exposed for the tests and the data plane's software fallback. */
/* RFC 1071 one's-complement sum of len bytes added to sum (not folded). */
uint32_t dpsctp_l3_csum_add(uint32_t sum, const uint8_t *p, size_t len);
/* Fold and complement. */
uint16_t dpsctp_l3_csum_fold(uint32_t sum);

#ifdef __cplusplus
}
#endif

#endif /* DRIVERS_NET_L3_H */
