/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ARP (RFC 826), IPv4 (RFC 791), ICMP (RFC 792, RFC 1191), IPv6 (RFC 8200),
 * ICMPv6 (RFC 4443), Neighbor Discovery (RFC 4861 §7), UDP (RFC 768) and
 * SCTP over UDP (RFC 6951 §5) for one lcore, without I/O.
 *
 * Receive: the shared parser (drivers/net/frame.c) walks Ethernet, VLAN, IP
 * and its extension headers; this file adds what a host must check that a
 * capture decoder need not (IPv4 header checksum, ICMP and UDP checksums,
 * destination addresses, fragments) and what it must answer. ICMP errors are
 * parsed by running the same parser over the quoted datagram.
 *
 * Neighbours: one table for both families, entries [0, nbr_count) in use,
 * removal moves the last entry into the hole; a keyed hash with chains
 * through the entries finds one in a compare or two however large the
 * table (the data plane sizes it for its associations). States follow
 * RFC 4861 §7.3.2 without DELAY/PROBE as separate states: a STALE entry is
 * used at once and re-probed by unicast, at most max_probes times
 * retrans_ns apart, then removed, or UNRESOLVED when pinned.
 *
 * Who may take whose place (docs/NET.md): entries pinned by associations
 * never go; an INCOMPLETE entry holds one of the few resolving slots, and a
 * new resolution may only preempt the least recently used unpinned one; a
 * new entry may evict the least recently used resolved unpinned entry
 * (among a bounded sample, so that a full table costs a few compares, not
 * a pass); ARP and ND learn only into free entries. So a flood of packets
 * that need answers from addresses nobody answers for churns the resolving
 * pool and never reaches what associations use.
 *
 * Costs: input of an SCTP frame is the parser plus one IPv4 header checksum
 * (20 bytes) and, over UDP, one pass of the one's-complement sum over the
 * datagram when its checksum is non-zero; output writes at most 62 bytes.
 */
#include "drivers/net/l3.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "drivers/net/frame.h"
#include "sctp/byteorder.h"

#define ETH_HDR_LEN	14u
#define ETH_MIN_FRAME	60u /* without FCS: shorter frames are padded */
#define ETHERTYPE_IPV4	0x0800u
#define ETHERTYPE_IPV6	0x86DDu
#define ETHERTYPE_ARP	0x0806u
#define ARP_LEN		28u
#define ARP_OP_REQUEST	1u
#define ARP_OP_REPLY	2u
#define IPV4_HDR_LEN	20u
#define IPV6_HDR_LEN	40u
#define UDP_HDR_LEN	8u
#define SCTP_COMMON_LEN 12u
#define ICMP_HDR_LEN	8u
#define ND_MSG_LEN	24u /* NS and NA without options */
#define ND_OPT_SLLA	1u
#define ND_OPT_TLLA	2u
#define NA_FLAG_S	0x40u
#define NA_FLAG_O	0x20u
#define ND_HOP_LIMIT	255u
#define IPV4_DF		0x4000u
#define IPV4_MF		0x2000u
#define IPV6_FRAGH_LEN	8u
#define PROTO_IPV6_FRAG 44u
#define IPV4_FRAG_MASK	0x3FFFu /* MF and the offset */

#define PROTO_ICMP   1u
#define PROTO_UDP    17u
#define PROTO_ICMPV6 58u
#define PROTO_SCTP   132u

#define ICMP_ECHO_REPLY	   0u
#define ICMP_UNREACH	   3u
#define ICMP_ECHO_REQUEST  8u
#define ICMP_CODE_PROTO	   2u
#define ICMP_CODE_PORT	   3u
#define ICMP_CODE_FRAG	   4u
#define ICMP6_UNREACH	   1u
#define ICMP6_PTB	   2u
#define ICMP6_PARAM	   4u
#define ICMP6_CODE_PORT	   4u
#define ICMP6_CODE_NEXTHDR 1u
#define ICMP6_ECHO_REQUEST 128u
#define ICMP6_ECHO_REPLY   129u
#define ICMP6_NS	   135u
#define ICMP6_NA	   136u

/* RFC 4861 §10 defaults; stale entries go after 10 minutes unused. */
#define DEFAULT_REACHABLE_NS (30ull * 1000000000ull)
#define DEFAULT_RETRANS_NS   (1ull * 1000000000ull)
#define DEFAULT_STALE_NS     (600ull * 1000000000ull)
#define DEFAULT_MAX_PROBES   3u
#define DEFAULT_TTL	     64u
#define DEFAULT_REASM_NS     (3ull * 1000000000ull)

#define NBR_NONE  UINT32_MAX
#define NBR_LIMIT (1u << 30) /* entries: indices and the bucket count stay in 32 bits */
/*
 * Candidates an eviction compares: the oldest of the next 8 resolved unpinned
 * entries from a rotating cursor, an approximation of LRU whose cost does
 * not grow with the table (Redis samples the same way).
 */
#define NBR_EVICT_SAMPLE 8u
/*
 * A pass over the resolved entries (REACHABLE and STALE timers, 30 s and
 * 10 min) runs at most this often: entries that fall due within 10 ms of a
 * pass wait for the next, so a burst of new entries costs one pass, not one
 * each.
 */
#define TABLE_PASS_GAP_NS 10000000ull

static const struct sctp_def_row drop_rows[DPSCTP_L3_DROP_COUNT] = {
	[DPSCTP_L3_DROP_NONE] = { "none", "not dropped" },
#define DPSCTP_L3_DROP(name, str, why) SCTP_DEF_ROW(DPSCTP_L3_DROP_##name, str, why)
#include "drivers/net/l3_drop.def"
#undef DPSCTP_L3_DROP
};

const char *
dpsctp_l3_drop_name(enum dpsctp_l3_drop d)
{
	return sctp_def_name(drop_rows, DPSCTP_L3_DROP_COUNT, d);
}

const char *
dpsctp_l3_drop_describe(enum dpsctp_l3_drop d)
{
	return sctp_def_describe(drop_rows, DPSCTP_L3_DROP_COUNT, d, "unknown drop");
}

static const struct {
	const char *name;
	size_t off;
} event_counters[] = {
	{ "frames_in", offsetof(struct dpsctp_l3_counters, frames_in) },
	{ "sctp_in", offsetof(struct dpsctp_l3_counters, sctp_in) },
	{ "sctp_udp_in", offsetof(struct dpsctp_l3_counters, sctp_udp_in) },
	{ "icmp_errors_in", offsetof(struct dpsctp_l3_counters, icmp_errors_in) },
	{ "arp_replies_sent", offsetof(struct dpsctp_l3_counters, arp_replies_sent) },
	{ "na_sent", offsetof(struct dpsctp_l3_counters, na_sent) },
	{ "echo_replies_sent", offsetof(struct dpsctp_l3_counters, echo_replies_sent) },
	{ "nbr_updates", offsetof(struct dpsctp_l3_counters, nbr_updates) },
	{ "tx_ready", offsetof(struct dpsctp_l3_counters, tx_ready) },
	{ "tx_parked", offsetof(struct dpsctp_l3_counters, tx_parked) },
	{ "parked_released", offsetof(struct dpsctp_l3_counters, parked_released) },
	{ "probes_sent", offsetof(struct dpsctp_l3_counters, probes_sent) },
	{ "nbr_evicted", offsetof(struct dpsctp_l3_counters, nbr_evicted) },
	{ "nbr_auth_learnt", offsetof(struct dpsctp_l3_counters, nbr_auth_learnt) },
	{ "nbr_mac_kept", offsetof(struct dpsctp_l3_counters, nbr_mac_kept) },
	{ "nbr_auth_other_mac", offsetof(struct dpsctp_l3_counters, nbr_auth_other_mac) },
	{ "nbr_pin_failed", offsetof(struct dpsctp_l3_counters, nbr_pin_failed) },
	{ "tx_fragmented", offsetof(struct dpsctp_l3_counters, tx_fragmented) },
	{ "tx_fragments", offsetof(struct dpsctp_l3_counters, tx_fragments) },
	{ "frags_held", offsetof(struct dpsctp_l3_counters, frags_held) },
	{ "reasm_done", offsetof(struct dpsctp_l3_counters, reasm_done) },
	{ "reasm_timeout", offsetof(struct dpsctp_l3_counters, reasm_timeout) },
	{ "reasm_evicted", offsetof(struct dpsctp_l3_counters, reasm_evicted) },
};
#define EVENT_COUNTERS (sizeof(event_counters) / sizeof(event_counters[0]))

_Static_assert(EVENT_COUNTERS + DPSCTP_L3_DROP_COUNT - 1u <= DPSCTP_L3_COUNTERS_MAX,
	       "DPSCTP_L3_COUNTERS_MAX (l3.h) bounds the counter list");

unsigned
dpsctp_l3_counter_count(void)
{
	return (unsigned)EVENT_COUNTERS + DPSCTP_L3_DROP_COUNT - 1u;
}

const char *
dpsctp_l3_counter_name(unsigned i)
{
	if (i < EVENT_COUNTERS)
		return event_counters[i].name;
	return dpsctp_l3_drop_name((enum dpsctp_l3_drop)(i - EVENT_COUNTERS + 1u));
}

uint64_t
dpsctp_l3_counter_value(const struct dpsctp_l3_counters *c, unsigned i)
{
	if (i < EVENT_COUNTERS) {
		uint64_t v;
		memcpy(&v, (const uint8_t *)c + event_counters[i].off, sizeof(v));
		return v;
	}
	i = i - (unsigned)EVENT_COUNTERS + 1u;
	return i < DPSCTP_L3_DROP_COUNT ? c->drops[i] : 0;
}

uint32_t
dpsctp_l3_csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	/* 64-bit accumulator: no carry is lost before the fold (RFC 1071 §2(B)). */
	uint64_t s = sum;
	size_t i = 0;
	for (; i + 1 < len; i += 2)
		s += (uint32_t)sctp_load_be16(p + i);
	if (i < len)
		s += (uint32_t)p[i] << 8;
	while (s >> 32)
		s = (s & 0xFFFFFFFFu) + (s >> 32);
	return (uint32_t)s;
}

uint16_t
dpsctp_l3_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xFFFFu) + (sum >> 16);
	return (uint16_t)~sum;
}

/* RFC 768 / RFC 8200 §8.1 pseudo-header sum (not folded). */
static uint32_t
pseudo_sum(uint8_t family, const uint8_t *src, const uint8_t *dst, uint8_t proto, uint32_t len)
{
	uint8_t tail[8] = { 0 };
	uint32_t s;
	if (family == 4) {
		s = dpsctp_l3_csum_add(0, src, 4);
		s = dpsctp_l3_csum_add(s, dst, 4);
		tail[1] = proto;
		sctp_store_be16(tail + 2, (uint16_t)len);
		return dpsctp_l3_csum_add(s, tail, 4);
	}
	s = dpsctp_l3_csum_add(0, src, 16);
	s = dpsctp_l3_csum_add(s, dst, 16);
	sctp_store_be32(tail, len);
	tail[7] = proto;
	return dpsctp_l3_csum_add(s, tail, 8);
}

static inline size_t
addr_len(uint8_t family)
{
	return family == 4 ? 4u : 16u;
}

static bool
ip_eq(const struct sctp_addr *a, const struct sctp_addr *b)
{
	return a->family == b->family && memcmp(a->bytes, b->bytes, addr_len(a->family)) == 0;
}

static void
ip_set(struct sctp_addr *ip, uint8_t family, const uint8_t *bytes)
{
	memset(ip, 0, sizeof(*ip));
	ip->family = family;
	memcpy(ip->bytes, bytes, addr_len(family));
}

static bool
prefix_match(const uint8_t *a, const uint8_t *b, unsigned bits)
{
	unsigned full = bits / 8u;
	if (memcmp(a, b, full) != 0)
		return false;
	unsigned rest = bits % 8u;
	if (rest == 0)
		return true;
	uint8_t mask = (uint8_t)(0xFFu << (8u - rest));
	return ((a[full] ^ b[full]) & mask) == 0;
}

static inline bool
v6_link_local(const uint8_t *a)
{
	return a[0] == 0xFE && (a[1] & 0xC0) == 0x80;
}

static inline bool
v6_multicast(const uint8_t *a)
{
	return a[0] == 0xFF;
}

static bool
v6_unspecified(const uint8_t *a)
{
	static const uint8_t zero[16];
	return memcmp(a, zero, 16) == 0;
}

/* Index of our address equal to ip, or -1. */
static int
ours(const struct dpsctp_l3 *l3, uint8_t family, const uint8_t *b)
{
	for (unsigned i = 0; i < l3->cfg.addr_count; i++) {
		const struct sctp_addr *a = &l3->cfg.addr[i];
		if (a->family == family && memcmp(a->bytes, b, addr_len(family)) == 0)
			return (int)i;
	}
	return -1;
}

/* Our address on the same link as target (prefix match, link-local for link-local), or -1. */
static int
our_src_for(const struct dpsctp_l3 *l3, const struct sctp_addr *target)
{
	int any = -1;
	for (unsigned i = 0; i < l3->cfg.addr_count; i++) {
		const struct sctp_addr *a = &l3->cfg.addr[i];
		if (a->family != target->family)
			continue;
		if (target->family == 6 && v6_link_local(target->bytes)) {
			if (v6_link_local(a->bytes))
				return (int)i;
			continue;
		}
		if (prefix_match(a->bytes, target->bytes, l3->cfg.prefix[i]))
			return (int)i;
		if (any < 0)
			any = (int)i;
	}
	return any;
}

static bool
on_link(const struct dpsctp_l3 *l3, const struct sctp_addr *dst)
{
	if (dst->family == 6 && v6_link_local(dst->bytes))
		return true;
	for (unsigned i = 0; i < l3->cfg.addr_count; i++) {
		const struct sctp_addr *a = &l3->cfg.addr[i];
		if (a->family == dst->family && !(a->family == 6 && v6_link_local(a->bytes)) &&
		    prefix_match(a->bytes, dst->bytes, l3->cfg.prefix[i]))
			return true;
	}
	return false;
}

/* A source a unicast peer may have (RFC 1122 §3.2.1.3, RFC 4291 §2.5.2-2.7). */
static bool
source_ok(uint8_t family, const uint8_t *a)
{
	if (family == 4) {
		uint32_t v = sctp_load_be32(a);
		return v != 0 && v != 0xFFFFFFFFu && (v >> 24) != 127u && (v >> 28) != 0xEu;
	}
	static const uint8_t loop[16] = { [15] = 1 };
	return !v6_unspecified(a) && !v6_multicast(a) && memcmp(a, loop, 16) != 0;
}

static inline bool
mac_is_group(const uint8_t *m)
{
	return (m[0] & 1u) != 0;
}

static unsigned
nbr_buckets(unsigned nbr_max)
{
	unsigned b = 1;
	while (b < nbr_max)
		b <<= 1;
	return b;
}

size_t
dpsctp_l3_nbr_mem_size(unsigned nbr_max, unsigned resolving_max)
{
	if (nbr_max == 0)
		nbr_max = DPSCTP_L3_NBR_BUILTIN;
	if (nbr_max > NBR_LIMIT)
		return SIZE_MAX;
	if (resolving_max == 0)
		resolving_max = DPSCTP_L3_RESOLVING_DEFAULT;
	if (resolving_max > nbr_max)
		resolving_max = nbr_max;
	return (size_t)nbr_max * sizeof(struct dpsctp_l3_nbr) +
	       (size_t)resolving_max * sizeof(struct dpsctp_l3_resolving) +
	       (size_t)nbr_buckets(nbr_max) * sizeof(uint32_t);
}

/* Entries, resolving slots and hash heads in cfg.nbr_mem (in that order) or the built-ins. */
static void
nbr_table_init(struct dpsctp_l3 *l3, unsigned nmax, unsigned rmax)
{
	if (l3->cfg.nbr_mem != NULL) {
		l3->nbr = l3->cfg.nbr_mem;
		l3->res = (struct dpsctp_l3_resolving *)(void *)(l3->nbr + nmax);
		l3->bucket = (uint32_t *)(void *)(l3->res + rmax);
		memset(l3->nbr, 0, (size_t)nmax * sizeof(l3->nbr[0]));
	} else {
		l3->nbr = l3->nbr_builtin;
		l3->res = l3->res_builtin;
		l3->bucket = l3->bucket_builtin;
	}
	l3->nbr_max = nmax;
	l3->res_max = rmax;
	l3->bucket_mask = nbr_buckets(nmax) - 1u;
	memset(l3->bucket, 0xFF, (size_t)(l3->bucket_mask + 1u) * sizeof(uint32_t));
	for (unsigned i = 0; i < rmax; i++)
		l3->res[i].nbr = NBR_NONE;
	l3->res_due = UINT64_MAX;
	l3->tbl_due = UINT64_MAX;
}

int
dpsctp_l3_init(struct dpsctp_l3 *l3, const struct dpsctp_l3_config *cfg,
	       void (*release)(void *ctx, uintptr_t handle), void *release_ctx)
{
	if (cfg->addr_count > DPSCTP_L3_ADDR_MAX)
		return -EINVAL;
	bool any_v6 = false;
	bool have_ll = false;
	for (unsigned i = 0; i < cfg->addr_count; i++) {
		uint8_t fam = cfg->addr[i].family;
		if ((fam != 4 && fam != 6) || cfg->prefix[i] > (fam == 4 ? 32u : 128u))
			return -EINVAL;
		if (fam == 6) {
			any_v6 = true;
			have_ll = have_ll || v6_link_local(cfg->addr[i].bytes);
		}
	}
	if ((cfg->gw4.family != 0 && cfg->gw4.family != 4) ||
	    (cfg->gw6.family != 0 && cfg->gw6.family != 6))
		return -EINVAL;
	bool add_ll = cfg->ipv6_link_local && any_v6 && !have_ll;
	if (add_ll && cfg->addr_count == DPSCTP_L3_ADDR_MAX)
		return -EINVAL;
	unsigned nmax = cfg->nbr_max != 0 ? cfg->nbr_max : DPSCTP_L3_NBR_BUILTIN;
	unsigned rmax = cfg->resolving_max != 0 ? cfg->resolving_max : DPSCTP_L3_RESOLVING_DEFAULT;
	if (rmax > nmax)
		rmax = nmax;
	if (nmax > NBR_LIMIT || rmax > DPSCTP_L3_RESOLVING_LIMIT)
		return -EINVAL;
	if (cfg->reasm_slots > DPSCTP_L3_REASM_SLOTS)
		return -EINVAL;
	if (cfg->nbr_mem == NULL
		    ? nmax > DPSCTP_L3_NBR_BUILTIN || rmax > DPSCTP_L3_RESOLVING_BUILTIN
		    : cfg->nbr_mem_len < dpsctp_l3_nbr_mem_size(nmax, rmax) ||
			      ((uintptr_t)cfg->nbr_mem & 7u) != 0)
		return -EINVAL;

	memset(l3, 0, sizeof(*l3));
	l3->cfg = *cfg;
	nbr_table_init(l3, nmax, rmax);
	struct dpsctp_l3_config *c = &l3->cfg;
	if (add_ll) {
		/* RFC 4291 §2.5.1 and appendix A: modified EUI-64 from the MAC. */
		struct sctp_addr *ll = &c->addr[c->addr_count];
		memset(ll, 0, sizeof(*ll));
		ll->family = 6;
		ll->bytes[0] = 0xFE;
		ll->bytes[1] = 0x80;
		ll->bytes[8] = (uint8_t)(c->mac[0] ^ 0x02u);
		ll->bytes[9] = c->mac[1];
		ll->bytes[10] = c->mac[2];
		ll->bytes[11] = 0xFF;
		ll->bytes[12] = 0xFE;
		ll->bytes[13] = c->mac[3];
		ll->bytes[14] = c->mac[4];
		ll->bytes[15] = c->mac[5];
		c->prefix[c->addr_count] = 64;
		c->addr_count++;
	}
	if (c->udp_port == 0)
		c->udp_port = DPSCTP_L3_UDP_PORT;
	if (c->ttl == 0)
		c->ttl = DEFAULT_TTL;
	if (c->reachable_ns == 0)
		c->reachable_ns = DEFAULT_REACHABLE_NS;
	if (c->retrans_ns == 0)
		c->retrans_ns = DEFAULT_RETRANS_NS;
	if (c->stale_ns == 0)
		c->stale_ns = DEFAULT_STALE_NS;
	if (c->max_probes == 0)
		c->max_probes = DEFAULT_MAX_PROBES;
	if (c->reasm_slots == 0)
		c->reasm_slots = DPSCTP_L3_REASM_SLOTS;
	if (c->reasm_ns == 0)
		c->reasm_ns = DEFAULT_REASM_NS;
	l3->release = release;
	l3->release_ctx = release_ctx;
	/* Not guessable from outside when the seed is random (RFC 7739 §5). */
	l3->frag_id = (uint32_t)((c->hash_seed ^ 0x5bd1e995u) * 0x9E3779B1u);
	return 0;
}

/* Neighbour table ------------------------------------------------------- */

static uint32_t
nbr_hash(const struct dpsctp_l3 *l3, const struct sctp_addr *ip)
{
	/* Multiply-xorshift over the address words, keyed by the seed. */
	uint64_t h = ((uint64_t)l3->cfg.hash_seed << 8) ^ ip->family;
	size_t n = addr_len(ip->family);
	for (size_t i = 0; i < n; i += 4) {
		h = (h ^ sctp_load_be32(ip->bytes + i)) * 0x9E3779B97F4A7C15ull;
		h ^= h >> 32;
	}
	return (uint32_t)h & l3->bucket_mask;
}

static struct dpsctp_l3_nbr *
nbr_find(struct dpsctp_l3 *l3, const struct sctp_addr *ip)
{
	for (uint32_t i = l3->bucket[nbr_hash(l3, ip)]; i != NBR_NONE; i = l3->nbr[i].hnext)
		if (ip_eq(&l3->nbr[i].ip, ip))
			return &l3->nbr[i];
	return NULL;
}

const struct dpsctp_l3_nbr *
dpsctp_l3_nbr_find(const struct dpsctp_l3 *l3, const struct sctp_addr *ip)
{
	return nbr_find((struct dpsctp_l3 *)(uintptr_t)l3, ip);
}

/* Work for tick: the resolving pool's soonest, or the resolved entries'. */
static inline void
res_due(struct dpsctp_l3 *l3, uint64_t t)
{
	if (t < l3->res_due)
		l3->res_due = t;
}

static inline void
tbl_due(struct dpsctp_l3 *l3, uint64_t t)
{
	if (t < l3->tbl_due)
		l3->tbl_due = t;
}

/* The link (a bucket head or an entry's hnext) that points at entry i. */
static uint32_t *
nbr_link_to(struct dpsctp_l3 *l3, uint32_t i)
{
	uint32_t *p = &l3->bucket[nbr_hash(l3, &l3->nbr[i].ip)];
	while (*p != i) /* i is in its chain: the table's invariant */
		p = &l3->nbr[*p].hnext;
	return p;
}

/* Give n's resolving slot back (its packets were released or given back). */
static void
res_free(struct dpsctp_l3 *l3, struct dpsctp_l3_nbr *n)
{
	if (n->slot == 0)
		return;
	l3->res[n->slot - 1u].nbr = NBR_NONE;
	n->slot = 0;
	n->parked = 0;
	l3->res_used--;
}

static void
nbr_remove(struct dpsctp_l3 *l3, struct dpsctp_l3_nbr *n)
{
	uint32_t i = (uint32_t)(n - l3->nbr);
	res_free(l3, n);
	*nbr_link_to(l3, i) = n->hnext;
	uint32_t last = --l3->nbr_count;
	if (i != last) {
		*nbr_link_to(l3, last) = i;
		l3->nbr[i] = l3->nbr[last];
		if (l3->nbr[i].slot != 0)
			l3->res[l3->nbr[i].slot - 1u].nbr = i;
	}
	memset(&l3->nbr[last], 0, sizeof(l3->nbr[0]));
	if (l3->evict_cursor >= l3->nbr_count)
		l3->evict_cursor = 0;
}

/* Give every parked packet of n back, counted under reason. */
static void
nbr_give_back(struct dpsctp_l3 *l3, struct dpsctp_l3_nbr *n, enum dpsctp_l3_drop reason)
{
	if (n->slot == 0)
		return;
	const struct dpsctp_l3_resolving *r = &l3->res[n->slot - 1u];
	for (unsigned k = 0; k < n->parked; k++) {
		l3->ctr.drops[reason]++;
		if (l3->release != NULL)
			l3->release(l3->release_ctx, r->park[k].handle);
	}
	n->parked = 0;
}

/* Last use or confirmation: the eviction order. */
static inline uint64_t
nbr_last_seen(const struct dpsctp_l3_nbr *n)
{
	return n->used > n->confirmed ? n->used : n->confirmed;
}

static inline bool
nbr_resolved(const struct dpsctp_l3_nbr *n)
{
	return n->state == DPSCTP_L3_NBR_REACHABLE || n->state == DPSCTP_L3_NBR_STALE;
}

/* A resolved unpinned entry to evict, or NULL: the oldest of a bounded sample. */
static struct dpsctp_l3_nbr *
nbr_victim(struct dpsctp_l3 *l3)
{
	struct dpsctp_l3_nbr *victim = NULL;
	unsigned seen = 0;
	for (unsigned k = 0; k < l3->nbr_count && seen < NBR_EVICT_SAMPLE; k++) {
		unsigned i = l3->evict_cursor + k;
		if (i >= l3->nbr_count)
			i -= l3->nbr_count;
		struct dpsctp_l3_nbr *n = &l3->nbr[i];
		if (n->pins != 0 || !nbr_resolved(n))
			continue;
		seen++;
		if (victim == NULL || nbr_last_seen(n) < nbr_last_seen(victim))
			victim = n;
	}
	if (victim != NULL)
		l3->evict_cursor = (unsigned)(victim - l3->nbr) + 1u;
	return victim;
}

/* The least recently used INCOMPLETE entry nobody pinned, or NULL. */
static struct dpsctp_l3_nbr *
res_victim(struct dpsctp_l3 *l3)
{
	struct dpsctp_l3_nbr *victim = NULL;
	for (unsigned s = 0; s < l3->res_max; s++) {
		uint32_t i = l3->res[s].nbr;
		if (i == NBR_NONE)
			continue;
		struct dpsctp_l3_nbr *n = &l3->nbr[i];
		if (n->pins == 0 && (victim == NULL || n->used < victim->used))
			victim = n;
	}
	return victim;
}

/* victim (from res_victim()) goes: its packets given back, counted nbr_preempted. */
static void
res_preempt(struct dpsctp_l3 *l3, struct dpsctp_l3_nbr *victim)
{
	nbr_give_back(l3, victim, DPSCTP_L3_DROP_NBR_PREEMPTED);
	nbr_remove(l3, victim);
}

/*
 * A resolving slot: a free one, else the one of the least recently used
 * unpinned INCOMPLETE entry, which goes. Entries may move: callers find
 * theirs again. -1 when every slot serves a pinned entry.
 */
static int
res_reserve(struct dpsctp_l3 *l3)
{
	if (l3->res_used < l3->res_max) {
		for (unsigned s = 0; s < l3->res_max; s++)
			if (l3->res[s].nbr == NBR_NONE)
				return (int)s;
	}
	struct dpsctp_l3_nbr *victim = res_victim(l3);
	if (victim == NULL)
		return -1;
	int s = victim->slot - 1;
	res_preempt(l3, victim);
	return s;
}

/* n starts resolving in slot s (reserved by res_reserve()). */
static void
res_attach(struct dpsctp_l3 *l3, struct dpsctp_l3_nbr *n, int s, uint64_t now)
{
	l3->res[s].nbr = (uint32_t)(n - l3->nbr);
	l3->res_used++;
	n->slot = (uint16_t)(s + 1);
	n->state = DPSCTP_L3_NBR_INCOMPLETE;
	n->probes = 0;
	n->parked = 0;
	n->used = now;
	memset(n->mac, 0, 6);
	res_due(l3, now);
}

enum nbr_alloc_kind {
	NBR_ALLOC_LEARN, /* ARP request or NS for us: a free entry only */
	NBR_ALLOC_SEND,	 /* a packet to send: may evict a resolved unpinned entry */
	NBR_ALLOC_PIN,	 /* an association: may also preempt an unpinned resolution */
};

/*
 * A new entry for ip (state FREE: the caller sets it). A full table gives up
 * its least recently used resolved unpinned entry when kind allows; learning
 * from a peer's ARP request or NS never evicts, so a flood of them cannot
 * push anything out.
 */
static struct dpsctp_l3_nbr *
nbr_alloc(struct dpsctp_l3 *l3, const struct sctp_addr *ip, enum nbr_alloc_kind kind)
{
	if (l3->nbr_count == l3->nbr_max) {
		if (kind == NBR_ALLOC_LEARN)
			return NULL;
		struct dpsctp_l3_nbr *victim = nbr_victim(l3);
		if (victim != NULL) {
			nbr_remove(l3, victim);
			l3->ctr.nbr_evicted++;
		} else if (kind == NBR_ALLOC_PIN && (victim = res_victim(l3)) != NULL) {
			/* Only resolutions of unpinned entries are left to take. */
			res_preempt(l3, victim);
		} else {
			return NULL;
		}
	}
	uint32_t i = l3->nbr_count++;
	struct dpsctp_l3_nbr *n = &l3->nbr[i];
	memset(n, 0, sizeof(*n));
	n->ip = *ip;
	uint32_t *head = &l3->bucket[nbr_hash(l3, ip)];
	n->hnext = *head;
	*head = i;
	return n;
}

/* Hand n's parked packets over (released[], *count) to be sent now. */
static void
nbr_release(struct dpsctp_l3 *l3, struct dpsctp_l3_nbr *n, struct dpsctp_l3_tx *released,
	    unsigned *count)
{
	if (n->slot == 0)
		return;
	const struct dpsctp_l3_resolving *r = &l3->res[n->slot - 1u];
	for (unsigned k = 0; k < n->parked; k++) {
		released[(*count)++] = r->park[k];
		l3->ctr.parked_released++;
	}
	res_free(l3, n);
}

/*
 * Learn mac for n. reachable: the frame confirms two-way reachability (ARP
 * reply, solicited NA, an association's authenticated packet); otherwise a
 * new or changed address is STALE (RFC 4861 §7.2.3, §7.2.5). An INCOMPLETE
 * entry releases its packets.
 */
static void
nbr_learn(struct dpsctp_l3 *l3, struct dpsctp_l3_nbr *n, const uint8_t *mac, bool reachable,
	  uint64_t now, struct dpsctp_l3_tx *released, unsigned *count)
{
	bool changed = !nbr_resolved(n) || memcmp(n->mac, mac, 6) != 0;
	memcpy(n->mac, mac, 6);
	if (reachable) {
		n->state = DPSCTP_L3_NBR_REACHABLE;
		n->confirmed = now;
		n->probes = 0;
		tbl_due(l3, now + l3->cfg.reachable_ns);
	} else if (changed) {
		n->state = DPSCTP_L3_NBR_STALE;
		n->probes = 0;
		n->used = now;
		tbl_due(l3, now + l3->cfg.stale_ns);
	}
	nbr_release(l3, n, released, count);
}

/*
 * ARP or ND would give n another MAC while an association's authenticated
 * packets confirmed the one it has within reachable_ns: refused (ARP
 * spoofing cannot take a live association's peer; the peer's own packets
 * teach its new MAC at once, and ARP may again once they stop).
 */
static bool
nbr_guarded(struct dpsctp_l3 *l3, const struct dpsctp_l3_nbr *n, const uint8_t *mac, uint64_t now)
{
	if (!nbr_resolved(n) || n->auth == 0 || now - n->auth >= l3->cfg.reachable_ns ||
	    memcmp(n->mac, mac, 6) == 0)
		return false;
	l3->ctr.nbr_mac_kept++;
	return true;
}

/* ARP or ND taught mac for n: learnt unless guarded; parked packets go to in. */
static void
nbr_learn_in(struct dpsctp_l3 *l3, struct dpsctp_l3_nbr *n, const uint8_t *mac, bool reachable,
	     uint64_t now, struct dpsctp_l3_in *in)
{
	if (nbr_guarded(l3, n, mac, now))
		return;
	nbr_learn(l3, n, mac, reachable, now, in->released, &in->released_count);
	l3->ctr.nbr_updates++;
}

/* The next hop for dst, or NULL without a route. */
static const struct sctp_addr *
next_hop(const struct dpsctp_l3 *l3, const struct sctp_addr *dst)
{
	if (on_link(l3, dst))
		return dst;
	const struct sctp_addr *gw = dst->family == 4 ? &l3->cfg.gw4 : &l3->cfg.gw6;
	return gw->family == dst->family ? gw : NULL;
}

int
dpsctp_l3_pin(struct dpsctp_l3 *l3, const struct sctp_addr *dst, uint64_t now_ns)
{
	if (dst->family != 4 && dst->family != 6)
		return -EINVAL;
	const struct sctp_addr *nh = next_hop(l3, dst);
	if (nh == NULL)
		return -EINVAL;
	struct dpsctp_l3_nbr *n = nbr_find(l3, nh);
	if (n == NULL) {
		n = nbr_alloc(l3, nh, NBR_ALLOC_PIN);
		if (n == NULL) {
			l3->ctr.nbr_pin_failed++;
			return -ENOSPC;
		}
		n->state = DPSCTP_L3_NBR_UNRESOLVED;
		n->used = now_ns;
	}
	n->pins++;
	return 0;
}

void
dpsctp_l3_unpin(struct dpsctp_l3 *l3, const struct sctp_addr *dst)
{
	const struct sctp_addr *nh =
		dst->family == 4 || dst->family == 6 ? next_hop(l3, dst) : NULL;
	struct dpsctp_l3_nbr *n = nh != NULL ? nbr_find(l3, nh) : NULL;
	if (n == NULL || n->pins == 0)
		return;
	if (--n->pins != 0)
		return;
	if (n->state == DPSCTP_L3_NBR_UNRESOLVED)
		nbr_remove(l3, n);
	else if (n->state == DPSCTP_L3_NBR_STALE)
		tbl_due(l3, n->used + l3->cfg.stale_ns); /* pinned, it did not age */
}

unsigned
dpsctp_l3_confirm(struct dpsctp_l3 *l3, const struct sctp_addr *src, const uint8_t *src_mac,
		  uint64_t now_ns, struct dpsctp_l3_tx *released)
{
	static const uint8_t zero_mac[6];
	if ((src->family != 4 && src->family != 6) || mac_is_group(src_mac) ||
	    memcmp(src_mac, zero_mac, 6) == 0)
		return 0;
	unsigned count = 0;
	if (!on_link(l3, src)) {
		/* Through a router: confirms our gateway if from its MAC, teaches nothing. */
		const struct sctp_addr *gw = next_hop(l3, src);
		struct dpsctp_l3_nbr *n = gw != NULL ? nbr_find(l3, gw) : NULL;
		if (n == NULL || !nbr_resolved(n) || memcmp(n->mac, src_mac, 6) != 0)
			return 0;
		n->auth = now_ns;
		if (n->state == DPSCTP_L3_NBR_REACHABLE) {
			n->confirmed = now_ns;
			return 0;
		}
		nbr_learn(l3, n, src_mac, true, now_ns, released, &count);
		l3->ctr.nbr_auth_learnt++;
		return count;
	}
	struct dpsctp_l3_nbr *n = nbr_find(l3, src);
	if (n == NULL)
		return 0;
	/*
	 * Only ARP and ND say which MAC an address is reached at: a weak-host
	 * peer (Linux's default) sends from any of its addresses out of any of
	 * its interfaces, so the MAC a packet came from is no evidence for its
	 * source address (in the multi-homing interop case the packets of
	 * 198.51.100.2 came out of the interface of 192.0.2.2, and a path taught
	 * that MAC died with the other link). A packet from the MAC ARP or ND
	 * gave confirms it and guards it.
	 */
	if (!nbr_resolved(n))
		return 0;
	if (memcmp(n->mac, src_mac, 6) == 0) {
		n->auth = now_ns;
		if (n->state == DPSCTP_L3_NBR_REACHABLE) {
			n->confirmed = now_ns; /* the common case: one compare, nothing else */
			return 0;
		}
		nbr_learn(l3, n, src_mac, true, now_ns, released, &count);
		l3->ctr.nbr_auth_learnt++;
		return count;
	}
	/*
	 * From another MAC: a weak-host peer's other interface, or the peer
	 * moved. The entry loses its guard and verifies its MAC (REACHABLE
	 * becomes STALE: the next packet probes it), so ARP or ND settle it
	 * either way.
	 */
	n->auth = 0;
	if (n->state == DPSCTP_L3_NBR_REACHABLE) {
		n->state = DPSCTP_L3_NBR_STALE;
		n->probes = 0;
		if (n->used < n->confirmed)
			n->used = n->confirmed;
	}
	l3->ctr.nbr_auth_other_mac++;
	return 0;
}

/* Frame builders -------------------------------------------------------- */

static uint8_t *
put_eth(uint8_t *p, const uint8_t *dst, const uint8_t *src, uint16_t type)
{
	memcpy(p, dst, 6);
	memcpy(p + 6, src, 6);
	sctp_store_be16(p + 12, type);
	return p + ETH_HDR_LEN;
}

/* IPv4 header without options; the checksum is filled. */
static void
put_ipv4(uint8_t *p, uint8_t tos, uint16_t total, uint16_t id, uint16_t frag, uint8_t ttl,
	 uint8_t proto, const uint8_t *src, const uint8_t *dst)
{
	p[0] = 0x45;
	p[1] = tos;
	sctp_store_be16(p + 2, total);
	sctp_store_be16(p + 4, id);
	sctp_store_be16(p + 6, frag);
	p[8] = ttl;
	p[9] = proto;
	sctp_store_be16(p + 10, 0);
	memcpy(p + 12, src, 4);
	memcpy(p + 16, dst, 4);
	sctp_store_be16(p + 10, dpsctp_l3_csum_fold(dpsctp_l3_csum_add(0, p, IPV4_HDR_LEN)));
}

static void
put_ipv6(uint8_t *p, uint8_t tclass, uint16_t payload, uint8_t nh, uint8_t hops, const uint8_t *src,
	 const uint8_t *dst)
{
	p[0] = (uint8_t)(0x60u | (tclass >> 4));
	p[1] = (uint8_t)(tclass << 4);
	p[2] = 0;
	p[3] = 0;
	sctp_store_be16(p + 4, payload);
	p[6] = nh;
	p[7] = hops;
	memcpy(p + 8, src, 16);
	memcpy(p + 24, dst, 16);
}

static void
solicited_node(uint8_t *out, const uint8_t *target)
{
	static const uint8_t pfx[13] = { 0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xFF };
	memcpy(out, pfx, 13);
	memcpy(out + 13, target + 13, 3);
}

/* RFC 2464 §7: IPv6 multicast to 33:33 and the low 32 bits of the group. */
static void
v6_multicast_mac(uint8_t *mac, const uint8_t *group)
{
	mac[0] = 0x33;
	mac[1] = 0x33;
	memcpy(mac + 2, group + 12, 4);
}

/*
 * An ARP request or NS for n->ip, broadcast/multicast while INCOMPLETE,
 * unicast to the cached MAC while STALE. Returns the length, 0 when the
 * buffer is too small or no address of ours can be the source.
 */
static uint32_t
build_probe(struct dpsctp_l3 *l3, const struct dpsctp_l3_nbr *n, uint8_t *buf, size_t cap)
{
	static const uint8_t bcast[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	bool unicast = n->state == DPSCTP_L3_NBR_STALE;
	int si = our_src_for(l3, &n->ip);
	if (buf == NULL || si < 0)
		return 0;
	const uint8_t *src = l3->cfg.addr[si].bytes;
	if (n->ip.family == 4) {
		if (cap < ETH_MIN_FRAME)
			return 0;
		memset(buf, 0, ETH_MIN_FRAME);
		uint8_t *a = put_eth(buf, unicast ? n->mac : bcast, l3->cfg.mac, ETHERTYPE_ARP);
		sctp_store_be16(a, 1);
		sctp_store_be16(a + 2, ETHERTYPE_IPV4);
		a[4] = 6;
		a[5] = 4;
		sctp_store_be16(a + 6, ARP_OP_REQUEST);
		memcpy(a + 8, l3->cfg.mac, 6);
		memcpy(a + 14, src, 4);
		memcpy(a + 24, n->ip.bytes, 4);
		return ETH_MIN_FRAME;
	}
	uint32_t len = ETH_HDR_LEN + IPV6_HDR_LEN + ND_MSG_LEN + 8u;
	if (cap < len)
		return 0;
	uint8_t dst[16];
	uint8_t mac[6];
	if (unicast) {
		memcpy(dst, n->ip.bytes, 16);
		memcpy(mac, n->mac, 6);
	} else {
		solicited_node(dst, n->ip.bytes);
		v6_multicast_mac(mac, dst);
	}
	uint8_t *ip = put_eth(buf, mac, l3->cfg.mac, ETHERTYPE_IPV6);
	put_ipv6(ip, 0, ND_MSG_LEN + 8u, PROTO_ICMPV6, ND_HOP_LIMIT, src, dst);
	uint8_t *m = ip + IPV6_HDR_LEN;
	memset(m, 0, ND_MSG_LEN + 8u);
	m[0] = ICMP6_NS;
	memcpy(m + 8, n->ip.bytes, 16);
	m[24] = ND_OPT_SLLA;
	m[25] = 1;
	memcpy(m + 26, l3->cfg.mac, 6);
	uint32_t s = pseudo_sum(6, src, dst, PROTO_ICMPV6, ND_MSG_LEN + 8u);
	sctp_store_be16(m + 2, dpsctp_l3_csum_fold(dpsctp_l3_csum_add(s, m, ND_MSG_LEN + 8u)));
	return len;
}

/* Write a probe for n if one is due and room was given; returns its length. */
static uint32_t
maybe_probe(struct dpsctp_l3 *l3, struct dpsctp_l3_nbr *n, uint64_t now, uint8_t *buf, size_t cap)
{
	if (buf == NULL || n->probes >= l3->cfg.max_probes)
		return 0;
	if (n->probes > 0 && now - n->probed < l3->cfg.retrans_ns)
		return 0;
	/*
	 * A probe that cannot be built (no address of ours in the family, too
	 * small a buffer) still counts as an attempt, so the entry times out
	 * and its packets come back rather than waiting forever.
	 */
	uint32_t len = build_probe(l3, n, buf, cap);
	n->probes++;
	n->probed = now;
	if (len > 0)
		l3->ctr.probes_sent++;
	return len;
}

/* Receive --------------------------------------------------------------- */

static enum dpsctp_l3_verdict
drop(struct dpsctp_l3 *l3, struct dpsctp_l3_in *in, enum dpsctp_l3_drop why)
{
	l3->ctr.drops[why]++;
	in->verdict = DPSCTP_L3_IN_DROP;
	in->drop = why;
	return in->verdict;
}

/* Start a reply: Ethernet back to the frame's sender, VLAN tags mirrored. */
static uint8_t *
reply_l2(const struct dpsctp_l3 *l3, const uint8_t *frame, uint32_t l2_len, uint8_t *reply)
{
	memcpy(reply, frame + 6, 6);
	memcpy(reply + 6, l3->cfg.mac, 6);
	memcpy(reply + 12, frame + 12, l2_len - 12u);
	return reply + l2_len;
}

static enum dpsctp_l3_verdict
arp_input(struct dpsctp_l3 *l3, const uint8_t *frame, size_t len, uint32_t l2_len, uint64_t now,
	  uint8_t *reply, size_t reply_cap, struct dpsctp_l3_in *in)
{
	if (len < l2_len || len - l2_len < ARP_LEN)
		return drop(l3, in, DPSCTP_L3_DROP_ARP_TRUNCATED);
	const uint8_t *a = frame + l2_len;
	if (sctp_load_be16(a) != 1 || sctp_load_be16(a + 2) != ETHERTYPE_IPV4 || a[4] != 6 ||
	    a[5] != 4)
		return drop(l3, in, DPSCTP_L3_DROP_ARP_FORMAT);
	uint16_t op = sctp_load_be16(a + 6);
	if (op != ARP_OP_REQUEST && op != ARP_OP_REPLY)
		return drop(l3, in, DPSCTP_L3_DROP_ARP_OPCODE);
	const uint8_t *sha = a + 8, *spa = a + 14, *tpa = a + 24;
	static const uint8_t zero_mac[6];
	if (mac_is_group(sha) || memcmp(sha, zero_mac, 6) == 0 || ours(l3, 4, spa) >= 0)
		return drop(l3, in, DPSCTP_L3_DROP_ARP_BAD_SENDER);
	/* RFC 5227 §2.1.1: an ARP probe (sender 0.0.0.0) teaches nothing. */
	bool probe = sctp_load_be32(spa) == 0;
	if (!probe && !source_ok(4, spa))
		return drop(l3, in, DPSCTP_L3_DROP_ARP_BAD_SENDER);

	struct sctp_addr sip;
	ip_set(&sip, 4, spa);
	bool for_us = ours(l3, 4, tpa) >= 0;
	/*
	 * RFC 826 "merge": update an entry we have; add one in a free entry
	 * when the request is for us. A MAC an association's packets confirm
	 * stays (nbr_guarded()).
	 */
	struct dpsctp_l3_nbr *n = probe ? NULL : nbr_find(l3, &sip);
	if (n == NULL && !probe && op == ARP_OP_REQUEST && for_us)
		n = nbr_alloc(l3, &sip, NBR_ALLOC_LEARN);
	if (n != NULL)
		nbr_learn_in(l3, n, sha, op == ARP_OP_REPLY, now, in);

	if (op == ARP_OP_REPLY) {
		if (n == NULL)
			return drop(l3, in, DPSCTP_L3_DROP_ARP_UNSOLICITED);
		in->verdict = DPSCTP_L3_IN_CONSUMED;
		return in->verdict;
	}
	if (!for_us)
		return drop(l3, in, DPSCTP_L3_DROP_ARP_NOT_FOR_US);
	/* Padded to the Ethernet minimum, counted without the VLAN tags (802.1Q §6.9). */
	uint32_t rlen = l2_len + ARP_LEN;
	if (rlen < ETH_MIN_FRAME + (l2_len - ETH_HDR_LEN))
		rlen = ETH_MIN_FRAME + (l2_len - ETH_HDR_LEN);
	if (reply == NULL || reply_cap < rlen)
		return drop(l3, in, DPSCTP_L3_DROP_REPLY_NO_ROOM);
	memset(reply, 0, rlen);
	uint8_t *r = reply_l2(l3, frame, l2_len, reply);
	memcpy(r, a, 6); /* htype, ptype, hlen, plen */
	sctp_store_be16(r + 6, ARP_OP_REPLY);
	memcpy(r + 8, l3->cfg.mac, 6);
	memcpy(r + 14, tpa, 4);
	memcpy(r + 18, sha, 6);
	memcpy(r + 24, spa, 4);
	in->reply_len = rlen;
	in->verdict = DPSCTP_L3_IN_REPLY;
	l3->ctr.arp_replies_sent++;
	return in->verdict;
}

/* The IP header of the frame, as the parser found it. */
struct ipview {
	const uint8_t *frame;
	uint32_t l2_len; /* Ethernet + VLAN tags */
	uint32_t l3;	 /* IP header offset (== l2_len) */
	uint32_t l4;	 /* transport header offset */
	uint32_t end;	 /* end of the IP datagram, <= frame length */
	uint8_t family;
	const uint8_t *src, *dst;
};

/*
 * SCTP over UDP (RFC 6951 §5.4): the UDP header at v->l4, inside the
 * datagram. The destination port must be ours; a non-zero checksum must
 * verify; IPv6 forbids a zero one (RFC 8200 §8.1).
 */
static enum dpsctp_l3_verdict
udp_input(struct dpsctp_l3 *l3, const struct ipview *v, struct dpsctp_l3_in *in)
{
	if (v->end - v->l4 < UDP_HDR_LEN)
		return drop(l3, in, DPSCTP_L3_DROP_FRAME_UDP_LEN);
	const uint8_t *u = v->frame + v->l4;
	uint16_t ulen = sctp_load_be16(u + 4);
	if (ulen < UDP_HDR_LEN || ulen > v->end - v->l4)
		return drop(l3, in, DPSCTP_L3_DROP_FRAME_UDP_LEN);
	if (sctp_load_be16(u + 2) != l3->cfg.udp_port)
		return drop(l3, in, DPSCTP_L3_DROP_UDP_PORT);
	uint16_t csum = sctp_load_be16(u + 6);
	if (csum == 0 && v->family == 6)
		return drop(l3, in, DPSCTP_L3_DROP_UDP6_ZERO_CHECKSUM);
	if (csum != 0) {
		uint32_t s = pseudo_sum(v->family, v->src, v->dst, PROTO_UDP, ulen);
		if (dpsctp_l3_csum_fold(dpsctp_l3_csum_add(s, u, ulen)) != 0)
			return drop(l3, in, DPSCTP_L3_DROP_UDP_CHECKSUM);
	}
	if (ulen - UDP_HDR_LEN < SCTP_COMMON_LEN)
		return drop(l3, in, DPSCTP_L3_DROP_SCTP_TRUNCATED);
	in->sctp.offset = v->l4 + UDP_HDR_LEN;
	in->sctp.len = ulen - UDP_HDR_LEN;
	in->sctp.udp_encap = true;
	in->sctp.udp_src_port = sctp_load_be16(u);
	l3->ctr.sctp_udp_in++;
	return DPSCTP_L3_IN_SCTP;
}

static enum dpsctp_l3_verdict
sctp_result(struct dpsctp_l3 *l3, const struct ipview *v, struct dpsctp_l3_in *in)
{
	const uint8_t *s = v->frame + in->sctp.offset;
	ip_set(&in->sctp.src, v->family, v->src);
	ip_set(&in->sctp.dst, v->family, v->dst);
	in->sctp.src_port = sctp_load_be16(s);
	in->sctp.dst_port = sctp_load_be16(s + 2);
	const uint8_t *ip = v->frame + v->l3;
	in->sctp.tclass = v->family == 4 ? ip[1] : (uint8_t)((ip[0] << 4) | (ip[1] >> 4));
	l3->ctr.sctp_in++;
	in->verdict = DPSCTP_L3_IN_SCTP;
	return in->verdict;
}

/*
 * The packet an ICMP error quotes (RFC 792, RFC 4443 §3): its IP header,
 * then SCTP or UDP + SCTP, cut wherever the reporter stopped. We need the
 * ports and the verification tag: 8 bytes of the SCTP common header.
 */
static enum dpsctp_l3_verdict
icmp_error(struct dpsctp_l3 *l3, const struct ipview *v, enum dpsctp_l3_icmp_kind kind,
	   uint32_t mtu, struct dpsctp_l3_in *in)
{
	const uint8_t *m = v->frame + v->l4;
	uint32_t qoff = v->l4 + ICMP_HDR_LEN;
	uint32_t qlen = v->end - qoff;
	const uint8_t *q = v->frame + qoff;
	struct net_frame f;
	enum net_frame_err e = net_frame_parse(
		&f, v->family == 4 ? NET_FRAME_LINK_IPV4 : NET_FRAME_LINK_IPV6, q, qlen);
	if (e == NET_FRAME_ERR_IP_TRUNCATED || e == NET_FRAME_ERR_IP_VERSION)
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_QUOTE_SHORT);
	if (f.ip_version == 0)
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_QUOTE_NOT_SCTP);
	/* What we send has no IPv4 fragments and no IPv6 extension headers. */
	if ((v->family == 4 && (sctp_load_be16(q + 6) & IPV4_FRAG_MASK) != 0) ||
	    e == NET_FRAME_ERR_IP_FRAGMENT)
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_QUOTE_FRAGMENT);
	if (v->family == 6 && f.l4_offset != IPV6_HDR_LEN)
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_QUOTE_NOT_SCTP);
	bool ok_err = e == NET_FRAME_OK || e == NET_FRAME_ERR_CAPTURE_TRUNCATED ||
		      e == NET_FRAME_ERR_NOT_SCTP || e == NET_FRAME_ERR_UDP_LEN;
	if (!ok_err || (f.ip_proto != PROTO_SCTP && f.ip_proto != PROTO_UDP))
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_QUOTE_NOT_SCTP);

	struct dpsctp_l3_icmp_in *r = &in->icmp;
	uint32_t s = f.l4_offset;
	if (f.ip_proto == PROTO_UDP) {
		if (qlen - f.l4_offset < UDP_HDR_LEN)
			return drop(l3, in, DPSCTP_L3_DROP_ICMP_QUOTE_SHORT);
		r->udp_local_port = sctp_load_be16(q + s);
		r->udp_peer_port = sctp_load_be16(q + s + 2);
		if (r->udp_local_port != l3->cfg.udp_port)
			return drop(l3, in, DPSCTP_L3_DROP_ICMP_QUOTE_NOT_SCTP);
		r->udp_encap = true;
		s += UDP_HDR_LEN;
	}
	if (qlen < s || qlen - s < 8u)
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_QUOTE_SHORT);
	if (ours(l3, v->family, f.src_addr) < 0)
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_QUOTE_NOT_OURS);
	r->kind = kind;
	r->type = m[0];
	r->code = m[1];
	r->mtu = mtu;
	ip_set(&r->reporter, v->family, v->src);
	ip_set(&r->local, v->family, f.src_addr);
	ip_set(&r->peer, v->family, f.dst_addr);
	r->local_port = sctp_load_be16(q + s);
	r->peer_port = sctp_load_be16(q + s + 2);
	r->vtag = sctp_load_be32(q + s + 4);
	r->quote_offset = qoff + s;
	r->quote_len = qlen - s;
	l3->ctr.icmp_errors_in++;
	in->verdict = DPSCTP_L3_IN_ICMP_ERROR;
	return in->verdict;
}

/* Echo reply: the request's identifier, sequence and data, back to its sender. */
static enum dpsctp_l3_verdict
echo_reply(struct dpsctp_l3 *l3, const struct ipview *v, uint8_t *reply, size_t reply_cap,
	   struct dpsctp_l3_in *in)
{
	uint32_t mlen = v->end - v->l4;
	uint32_t iphl = v->family == 4 ? IPV4_HDR_LEN : IPV6_HDR_LEN;
	uint32_t rlen = v->l2_len + iphl + mlen;
	if (v->family == 4 && iphl + mlen > 0xFFFFu)
		return drop(l3, in, DPSCTP_L3_DROP_REPLY_NO_ROOM);
	if (reply == NULL || reply_cap < rlen)
		return drop(l3, in, DPSCTP_L3_DROP_REPLY_NO_ROOM);
	uint8_t *ip = reply_l2(l3, v->frame, v->l2_len, reply);
	uint8_t *m = ip + iphl;
	memcpy(m, v->frame + v->l4, mlen);
	m[1] = 0;
	sctp_store_be16(m + 2, 0);
	if (v->family == 4) {
		put_ipv4(ip, 0, (uint16_t)(iphl + mlen), sctp_load_be16(v->frame + v->l3 + 4), 0,
			 l3->cfg.ttl, PROTO_ICMP, v->dst, v->src);
		m[0] = ICMP_ECHO_REPLY;
		sctp_store_be16(m + 2, dpsctp_l3_csum_fold(dpsctp_l3_csum_add(0, m, mlen)));
	} else {
		put_ipv6(ip, 0, (uint16_t)mlen, PROTO_ICMPV6, l3->cfg.ttl, v->dst, v->src);
		m[0] = ICMP6_ECHO_REPLY;
		uint32_t s = pseudo_sum(6, v->dst, v->src, PROTO_ICMPV6, mlen);
		sctp_store_be16(m + 2, dpsctp_l3_csum_fold(dpsctp_l3_csum_add(s, m, mlen)));
	}
	in->reply_len = rlen;
	in->verdict = DPSCTP_L3_IN_REPLY;
	l3->ctr.echo_replies_sent++;
	return in->verdict;
}

static enum dpsctp_l3_verdict
icmp4_input(struct dpsctp_l3 *l3, const struct ipview *v, uint8_t *reply, size_t reply_cap,
	    struct dpsctp_l3_in *in)
{
	uint32_t mlen = v->end - v->l4;
	const uint8_t *m = v->frame + v->l4;
	if (mlen < ICMP_HDR_LEN)
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_TRUNCATED);
	if (dpsctp_l3_csum_fold(dpsctp_l3_csum_add(0, m, mlen)) != 0)
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_CHECKSUM);
	if (m[0] == ICMP_ECHO_REQUEST && m[1] == 0)
		return echo_reply(l3, v, reply, reply_cap, in);
	if (m[0] != ICMP_UNREACH)
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_TYPE);
	switch (m[1]) {
	case ICMP_CODE_FRAG:
		/* RFC 1191 §4: next-hop MTU in the low 16 bits of the second word. */
		return icmp_error(l3, v, DPSCTP_L3_ICMP_FRAG_NEEDED, sctp_load_be16(m + 6), in);
	case ICMP_CODE_PROTO:
		return icmp_error(l3, v, DPSCTP_L3_ICMP_PROTO_UNREACH, 0, in);
	case ICMP_CODE_PORT:
		return icmp_error(l3, v, DPSCTP_L3_ICMP_PORT_UNREACH, 0, in);
	default:
		return icmp_error(l3, v, DPSCTP_L3_ICMP_UNREACH, 0, in);
	}
}

/*
 * ND options (RFC 4861 §4.6) after the fixed part: finds the link-layer
 * address option of type want. Returns false on a malformed option.
 */
static bool
nd_options(const uint8_t *o, uint32_t len, uint8_t want, const uint8_t **lla)
{
	*lla = NULL;
	while (len > 0) {
		if (len < 2u || o[1] == 0 || (uint32_t)o[1] * 8u > len)
			return false;
		uint32_t olen = (uint32_t)o[1] * 8u;
		if (o[0] == want && olen >= 8u)
			*lla = o + 2;
		o += olen;
		len -= olen;
	}
	return true;
}

static enum dpsctp_l3_verdict
ns_input(struct dpsctp_l3 *l3, const struct ipview *v, uint64_t now, uint8_t *reply,
	 size_t reply_cap, struct dpsctp_l3_in *in)
{
	const uint8_t *m = v->frame + v->l4;
	uint32_t mlen = v->end - v->l4;
	const uint8_t *target = m + 8;
	if (m[1] != 0 || mlen < ND_MSG_LEN || v6_multicast(target))
		return drop(l3, in, DPSCTP_L3_DROP_ND_INVALID);
	const uint8_t *slla;
	if (!nd_options(m + ND_MSG_LEN, mlen - ND_MSG_LEN, ND_OPT_SLLA, &slla))
		return drop(l3, in, DPSCTP_L3_DROP_ND_OPTION);
	bool dad = v6_unspecified(v->src);
	uint8_t sn[16];
	solicited_node(sn, target);
	/* RFC 4861 §7.1.1: DAD goes to the solicited-node group, without SLLA. */
	if (dad && (memcmp(v->dst, sn, 16) != 0 || slla != NULL))
		return drop(l3, in, DPSCTP_L3_DROP_ND_INVALID);
	if (v6_multicast(v->dst) && memcmp(v->dst, sn, 16) != 0)
		return drop(l3, in, DPSCTP_L3_DROP_NS_NOT_FOR_US);
	if (ours(l3, 6, target) < 0)
		return drop(l3, in, DPSCTP_L3_DROP_NS_NOT_FOR_US);

	struct dpsctp_l3_nbr *n = NULL;
	if (!dad && slla != NULL) {
		struct sctp_addr sip;
		ip_set(&sip, 6, v->src);
		n = nbr_find(l3, &sip);
		if (n == NULL)
			n = nbr_alloc(l3, &sip, NBR_ALLOC_LEARN);
		if (n != NULL)
			nbr_learn_in(l3, n, slla, false, now, in);
	}

	uint32_t rlen = v->l2_len + IPV6_HDR_LEN + ND_MSG_LEN + 8u;
	if (reply == NULL || reply_cap < rlen)
		return drop(l3, in, DPSCTP_L3_DROP_REPLY_NO_ROOM);
	/* §7.2.4: to the soliciter; after DAD to all-nodes, S clear. */
	static const uint8_t all_nodes[16] = { 0xFF, 0x02, [15] = 1 };
	const uint8_t *dst = dad ? all_nodes : v->src;
	uint8_t *ip = reply_l2(l3, v->frame, v->l2_len, reply);
	if (dad)
		v6_multicast_mac(reply, all_nodes);
	else if (slla != NULL)
		memcpy(reply, slla, 6);
	put_ipv6(ip, 0, ND_MSG_LEN + 8u, PROTO_ICMPV6, ND_HOP_LIMIT, target, dst);
	uint8_t *a = ip + IPV6_HDR_LEN;
	memset(a, 0, ND_MSG_LEN + 8u);
	a[0] = ICMP6_NA;
	a[4] = (uint8_t)(NA_FLAG_O | (dad ? 0u : NA_FLAG_S));
	memcpy(a + 8, target, 16);
	a[24] = ND_OPT_TLLA;
	a[25] = 1;
	memcpy(a + 26, l3->cfg.mac, 6);
	uint32_t s = pseudo_sum(6, target, dst, PROTO_ICMPV6, ND_MSG_LEN + 8u);
	sctp_store_be16(a + 2, dpsctp_l3_csum_fold(dpsctp_l3_csum_add(s, a, ND_MSG_LEN + 8u)));
	in->reply_len = rlen;
	in->verdict = DPSCTP_L3_IN_REPLY;
	l3->ctr.na_sent++;
	return in->verdict;
}

/* RFC 4861 §7.2.5: what an NA does to the entry of its target. */
static enum dpsctp_l3_verdict
na_input(struct dpsctp_l3 *l3, const struct ipview *v, uint64_t now, struct dpsctp_l3_in *in)
{
	const uint8_t *m = v->frame + v->l4;
	uint32_t mlen = v->end - v->l4;
	if (m[1] != 0 || mlen < ND_MSG_LEN || v6_multicast(m + 8))
		return drop(l3, in, DPSCTP_L3_DROP_ND_INVALID);
	bool solicited = (m[4] & NA_FLAG_S) != 0;
	bool override = (m[4] & NA_FLAG_O) != 0;
	if (solicited && v6_multicast(v->dst))
		return drop(l3, in, DPSCTP_L3_DROP_ND_INVALID);
	const uint8_t *tlla;
	if (!nd_options(m + ND_MSG_LEN, mlen - ND_MSG_LEN, ND_OPT_TLLA, &tlla))
		return drop(l3, in, DPSCTP_L3_DROP_ND_OPTION);
	struct sctp_addr tip;
	ip_set(&tip, 6, m + 8);
	struct dpsctp_l3_nbr *n = nbr_find(l3, &tip);
	if (n == NULL || (!nbr_resolved(n) && tlla == NULL))
		return drop(l3, in, DPSCTP_L3_DROP_NA_UNSOLICITED);
	if (!nbr_resolved(n)) {
		nbr_learn_in(l3, n, tlla, solicited, now, in);
	} else if (!override && tlla != NULL && memcmp(tlla, n->mac, 6) != 0) {
		/* Not overriding a different address: only doubt the one we have. */
		if (n->state == DPSCTP_L3_NBR_REACHABLE && !nbr_guarded(l3, n, tlla, now)) {
			n->state = DPSCTP_L3_NBR_STALE;
			n->probes = 0;
			n->used = now;
			tbl_due(l3, now);
		}
	} else if (tlla != NULL) {
		nbr_learn_in(l3, n, tlla, solicited, now, in);
	} else if (solicited) {
		nbr_learn_in(l3, n, n->mac, true, now, in);
	}
	in->verdict = DPSCTP_L3_IN_CONSUMED;
	return in->verdict;
}

static enum dpsctp_l3_verdict
icmp6_input(struct dpsctp_l3 *l3, const struct ipview *v, uint64_t now, uint8_t *reply,
	    size_t reply_cap, struct dpsctp_l3_in *in)
{
	if (v->l4 != v->l3 + IPV6_HDR_LEN)
		return drop(l3, in, DPSCTP_L3_DROP_IPV6_EXT_HEADERS);
	uint32_t mlen = v->end - v->l4;
	const uint8_t *m = v->frame + v->l4;
	if (mlen < ICMP_HDR_LEN)
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_TRUNCATED);
	uint32_t s = pseudo_sum(6, v->src, v->dst, PROTO_ICMPV6, mlen);
	if (dpsctp_l3_csum_fold(dpsctp_l3_csum_add(s, m, mlen)) != 0)
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_CHECKSUM);
	uint8_t hops = v->frame[v->l3 + 7];
	if (m[0] == ICMP6_NS || m[0] == ICMP6_NA) {
		if (hops != ND_HOP_LIMIT)
			return drop(l3, in, DPSCTP_L3_DROP_ND_HOP_LIMIT);
		return m[0] == ICMP6_NS ? ns_input(l3, v, now, reply, reply_cap, in)
					: na_input(l3, v, now, in);
	}
	if (v6_multicast(v->dst))
		return drop(l3, in,
			    m[0] == ICMP6_ECHO_REQUEST ? DPSCTP_L3_DROP_ECHO_MULTICAST
						       : DPSCTP_L3_DROP_IP_NOT_OURS);
	if (!source_ok(6, v->src))
		return drop(l3, in, DPSCTP_L3_DROP_IP_BAD_SOURCE);
	switch (m[0]) {
	case ICMP6_ECHO_REQUEST:
		if (m[1] != 0)
			return drop(l3, in, DPSCTP_L3_DROP_ICMP_TYPE);
		return echo_reply(l3, v, reply, reply_cap, in);
	case ICMP6_PTB:
		return icmp_error(l3, v, DPSCTP_L3_ICMP_FRAG_NEEDED, sctp_load_be32(m + 4), in);
	case ICMP6_UNREACH:
		return icmp_error(l3, v,
				  m[1] == ICMP6_CODE_PORT ? DPSCTP_L3_ICMP_PORT_UNREACH
							  : DPSCTP_L3_ICMP_UNREACH,
				  0, in);
	case ICMP6_PARAM:
		if (m[1] == ICMP6_CODE_NEXTHDR)
			return icmp_error(l3, v, DPSCTP_L3_ICMP_PROTO_UNREACH, 0, in);
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_TYPE);
	default:
		return drop(l3, in, DPSCTP_L3_DROP_ICMP_TYPE);
	}
}

/* Reassembly -------------------------------------------------------------- */

static bool
units_any(const uint8_t *u, uint32_t a, uint32_t b)
{
	for (uint32_t i = a; i < b; i++)
		if ((u[i / 8u] >> (i % 8u)) & 1u)
			return true;
	return false;
}

static bool
units_all(const uint8_t *u, uint32_t a, uint32_t b)
{
	for (uint32_t i = a; i < b; i++)
		if (!((u[i / 8u] >> (i % 8u)) & 1u))
			return false;
	return true;
}

static void
reasm_free(struct dpsctp_l3_reasm *r)
{
	r->started = 0;
}

/*
 * The slot of (family, src, dst, proto, id), or a new one: free, expired
 * (reasm_timeout), else the oldest partial datagram's (reasm_evicted). A
 * flood of fragments from strangers can push out a peer's, whose sender
 * then retransmits: the pool is bounded, the cost a lost datagram.
 */
static struct dpsctp_l3_reasm *
reasm_slot(struct dpsctp_l3 *l3, uint8_t family, const uint8_t *src, const uint8_t *dst,
	   uint8_t proto, uint32_t id, uint64_t now)
{
	size_t n = addr_len(family);
	struct dpsctp_l3_reasm *pick = NULL;
	for (unsigned i = 0; i < l3->cfg.reasm_slots; i++) {
		struct dpsctp_l3_reasm *r = &l3->reasm[i];
		if (r->started != 0 && now - r->started >= l3->cfg.reasm_ns) {
			reasm_free(r);
			l3->ctr.reasm_timeout++;
		}
		if (r->started != 0 && r->family == family && r->proto == proto && r->id == id &&
		    memcmp(r->src, src, n) == 0 && memcmp(r->dst, dst, n) == 0)
			return r;
		if (pick == NULL || (pick->started != 0 && r->started < pick->started))
			pick = r;
	}
	if (pick->started != 0)
		l3->ctr.reasm_evicted++;
	memset(pick, 0, offsetof(struct dpsctp_l3_reasm, hdr));
	pick->started = now != 0 ? now : 1;
	pick->family = family;
	pick->proto = proto;
	pick->id = id;
	memcpy(pick->src, src, n);
	memcpy(pick->dst, dst, n);
	return pick;
}

/*
 * One fragment addressed to us (RFC 791 §3.2, RFC 8200 §4.5): its payload
 * into its datagram's slot at its offset, and the datagram out as a whole
 * frame when every byte up to the last fragment's end is there. hl is the
 * IP header's length up to the payload (IPv6: 40 + the Fragment header).
 */
static enum dpsctp_l3_verdict
reasm_input(struct dpsctp_l3 *l3, const struct ipview *v, uint32_t hl, uint64_t now,
	    struct dpsctp_l3_in *in)
{
	const uint8_t *ip = v->frame + v->l3;
	uint32_t off, id;
	bool more;
	uint8_t proto;
	if (v->family == 4) {
		uint16_t fr = sctp_load_be16(ip + 6);
		off = (uint32_t)(fr & 0x1FFFu) * 8u;
		more = (fr & IPV4_MF) != 0;
		id = sctp_load_be16(ip + 4);
		proto = ip[9];
	} else {
		const uint8_t *fh = ip + IPV6_HDR_LEN;
		uint16_t fo = sctp_load_be16(fh + 2);
		off = fo & 0xFFF8u;
		more = (fo & 1u) != 0;
		id = sctp_load_be32(fh + 4);
		proto = fh[0];
	}
	if (proto != PROTO_SCTP && proto != PROTO_UDP)
		return drop(l3, in, DPSCTP_L3_DROP_IP_FRAGMENT);
	uint32_t data = v->l3 + hl;
	uint32_t len = v->end - data;
	struct dpsctp_l3_reasm *r = reasm_slot(l3, v->family, v->src, v->dst, proto, id, now);
	uint32_t end = off + len;
	if (len == 0 || (more && len % 8u != 0) || end > DPSCTP_L3_REASM_MAX ||
	    (r->total != 0 && (end > r->total || (!more && end != r->total))) ||
	    (!more && units_any(r->units, (end + 7u) / 8u, DPSCTP_L3_REASM_MAX / 8u))) {
		reasm_free(r);
		return drop(l3, in, DPSCTP_L3_DROP_FRAG_INVALID);
	}
	uint32_t u0 = off / 8u, u1 = (end + 7u) / 8u;
	if (units_any(r->units, u0, u1)) {
		/* RFC 5722 §4: an exact duplicate may be dropped alone; any other overlap ends it
		 * all. */
		if (units_all(r->units, u0, u1) &&
		    memcmp(r->buf + DPSCTP_L3_REASM_HDR_MAX + off, v->frame + data, len) == 0)
			return drop(l3, in, DPSCTP_L3_DROP_FRAG_DUPLICATE);
		reasm_free(r);
		return drop(l3, in, DPSCTP_L3_DROP_FRAG_OVERLAP);
	}
	memcpy(r->buf + DPSCTP_L3_REASM_HDR_MAX + off, v->frame + data, len);
	for (uint32_t i = u0; i < u1; i++)
		r->units[i / 8u] |= (uint8_t)(1u << (i % 8u));
	r->have += len;
	if (!more)
		r->total = end;
	/* The link header and the IP header without fragmentation: the first
	 * fragment's when it comes (IPv4 options are copied only there). */
	uint32_t iphl = v->family == 4 ? hl : IPV6_HDR_LEN;
	if (r->hdr_len == 0 || (off == 0 && !r->hdr_first)) {
		r->hdr_len = (uint16_t)(v->l3 + iphl);
		memcpy(r->hdr, v->frame, r->hdr_len);
		r->hdr_first = off == 0;
	}
	l3->ctr.frags_held++;
	if (r->total == 0 || r->have != r->total) {
		in->verdict = DPSCTP_L3_IN_CONSUMED;
		return in->verdict;
	}
	uint8_t *f = r->buf + DPSCTP_L3_REASM_HDR_MAX - r->hdr_len;
	memcpy(f, r->hdr, r->hdr_len);
	uint8_t *nip = f + v->l3;
	if (v->family == 4) {
		sctp_store_be16(nip + 2, (uint16_t)(iphl + r->total));
		sctp_store_be16(nip + 6, 0);
		sctp_store_be16(nip + 10, 0);
		sctp_store_be16(nip + 10, dpsctp_l3_csum_fold(dpsctp_l3_csum_add(0, nip, iphl)));
	} else {
		sctp_store_be16(nip + 4, (uint16_t)r->total);
		nip[6] = proto;
	}
	in->reasm = f;
	in->reasm_len = r->hdr_len + r->total;
	reasm_free(r); /* the bytes stay until the next input */
	l3->ctr.reasm_done++;
	in->verdict = DPSCTP_L3_IN_REASSEMBLED;
	return in->verdict;
}

/*
 * A fragment the parser met: IPv4 (any protocol), or IPv6 whose Fragment
 * header comes first. Checked as any datagram to us is, then reassembled.
 */
static enum dpsctp_l3_verdict
fragment_input(struct dpsctp_l3 *l3, const uint8_t *frame, size_t len, const struct net_frame *f,
	       uint32_t l2_len, uint64_t now, struct dpsctp_l3_in *in)
{
	struct ipview v = {
		.frame = frame,
		.l2_len = l2_len,
		.l3 = f->l3_offset,
		.end = f->l3_offset + f->ip_len,
		.family = f->ip_version,
		.src = frame + f->l3_offset + (f->ip_version == 4 ? 12u : 8u),
		.dst = frame + f->l3_offset + (f->ip_version == 4 ? 16u : 24u),
	};
	if (v.end > len)
		return drop(l3, in, DPSCTP_L3_DROP_IP_FRAME_SHORT);
	uint32_t hl;
	if (v.family == 4) {
		hl = (uint32_t)(frame[v.l3] & 0x0Fu) * 4u;
		if (dpsctp_l3_csum_fold(dpsctp_l3_csum_add(0, frame + v.l3, hl)) != 0)
			return drop(l3, in, DPSCTP_L3_DROP_IPV4_CHECKSUM);
	} else {
		hl = IPV6_HDR_LEN + IPV6_FRAGH_LEN;
		if (frame[v.l3 + 6] != PROTO_IPV6_FRAG || v.end - v.l3 < hl)
			return drop(l3, in, DPSCTP_L3_DROP_IP_FRAGMENT);
	}
	if (v.l3 + hl > v.end)
		return drop(l3, in, DPSCTP_L3_DROP_IP_FRAME_SHORT);
	if (ours(l3, v.family, v.dst) < 0)
		return drop(l3, in, DPSCTP_L3_DROP_IP_NOT_OURS);
	if (!source_ok(v.family, v.src))
		return drop(l3, in, DPSCTP_L3_DROP_IP_BAD_SOURCE);
	return reasm_input(l3, &v, hl, now, in);
}

/* An IPv4 fragment (MF or an offset), or an IPv6 datagram with a Fragment header first. */
static bool
is_fragment(const uint8_t *frame, size_t len, const struct net_frame *f)
{
	const uint8_t *ip = frame + f->l3_offset;
	if (f->ip_version == 4)
		return f->l3_offset + 8u <= len && (sctp_load_be16(ip + 6) & IPV4_FRAG_MASK) != 0;
	if (f->ip_version != 6 || f->l3_offset + IPV6_HDR_LEN + IPV6_FRAGH_LEN > len ||
	    ip[6] != PROTO_IPV6_FRAG)
		return false;
	uint16_t fo = sctp_load_be16(ip + IPV6_HDR_LEN + 2);
	return (fo & 0xFFF9u) != 0; /* an offset or M: not an atomic fragment */
}

static enum dpsctp_l3_drop
frame_drop(enum net_frame_err e)
{
	switch (e) {
	case NET_FRAME_ERR_VLAN_TOO_DEEP:
		return DPSCTP_L3_DROP_FRAME_VLAN_TOO_DEEP;
	case NET_FRAME_ERR_IP_VERSION:
		return DPSCTP_L3_DROP_FRAME_IP_VERSION;
	case NET_FRAME_ERR_IP_TRUNCATED:
		return DPSCTP_L3_DROP_FRAME_IP_TRUNCATED;
	case NET_FRAME_ERR_IPV4_IHL:
		return DPSCTP_L3_DROP_FRAME_IPV4_IHL;
	case NET_FRAME_ERR_IPV4_TOTAL_LEN:
		return DPSCTP_L3_DROP_FRAME_IPV4_TOTAL_LEN;
	case NET_FRAME_ERR_IPV6_EXT_LEN:
		return DPSCTP_L3_DROP_FRAME_IPV6_EXT_LEN;
	case NET_FRAME_ERR_IPV6_JUMBOGRAM:
		return DPSCTP_L3_DROP_FRAME_IPV6_JUMBOGRAM;
	case NET_FRAME_ERR_IP_FRAGMENT:
		return DPSCTP_L3_DROP_IP_FRAGMENT;
	case NET_FRAME_ERR_UDP_LEN:
		return DPSCTP_L3_DROP_FRAME_UDP_LEN;
	case NET_FRAME_ERR_CAPTURE_TRUNCATED:
		return DPSCTP_L3_DROP_IP_FRAME_SHORT;
	default:
		return DPSCTP_L3_DROP_FRAME_LINK_TRUNCATED;
	}
}

enum dpsctp_l3_verdict
dpsctp_l3_input(struct dpsctp_l3 *l3, const uint8_t *frame, size_t len, uint64_t now_ns,
		uint8_t *reply, size_t reply_cap, struct dpsctp_l3_in *in)
{
	static const uint8_t bcast[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	memset(in, 0, offsetof(struct dpsctp_l3_in, released));
	in->released_count = 0;
	l3->ctr.frames_in++;
	if (len < ETH_HDR_LEN)
		return drop(l3, in, DPSCTP_L3_DROP_FRAME_LINK_TRUNCATED);
	if (memcmp(frame, l3->cfg.mac, 6) != 0 && memcmp(frame, bcast, 6) != 0 &&
	    !mac_is_group(frame))
		return drop(l3, in, DPSCTP_L3_DROP_L2_NOT_OURS);

	struct net_frame f;
	enum net_frame_err e = net_frame_parse(&f, NET_FRAME_LINK_ETHERNET, frame, len);
	uint32_t l2_len = ETH_HDR_LEN + 4u * f.vlan_count;
	if (e == NET_FRAME_ERR_NOT_IP) {
		if (sctp_load_be16(frame + l2_len - 2u) == ETHERTYPE_ARP)
			return arp_input(l3, frame, len, l2_len, now_ns, reply, reply_cap, in);
		return drop(l3, in, DPSCTP_L3_DROP_ETHERTYPE);
	}
	if ((e == NET_FRAME_ERR_IP_FRAGMENT || e == NET_FRAME_ERR_NOT_SCTP) &&
	    is_fragment(frame, len, &f))
		return fragment_input(l3, frame, len, &f, l2_len, now_ns, in);
	if (e != NET_FRAME_OK && e != NET_FRAME_ERR_NOT_SCTP)
		return drop(l3, in, frame_drop(e));

	/* The parser bounds the SCTP span, not other protocols: check the datagram here. */
	struct ipview v = {
		.frame = frame,
		.l2_len = l2_len,
		.l3 = f.l3_offset,
		.l4 = f.l4_offset,
		.end = f.l3_offset + f.ip_len,
		.family = f.ip_version,
		.src = frame + f.l3_offset + (f.ip_version == 4 ? 12u : 8u),
		.dst = frame + f.l3_offset + (f.ip_version == 4 ? 16u : 24u),
	};
	if (v.end > len || v.l4 > v.end)
		return drop(l3, in, DPSCTP_L3_DROP_IP_FRAME_SHORT);
	if (v.family == 4) {
		const uint8_t *ip = frame + v.l3;
		uint32_t hl = (uint32_t)(ip[0] & 0x0Fu) * 4u;
		if (dpsctp_l3_csum_fold(dpsctp_l3_csum_add(0, ip, hl)) != 0)
			return drop(l3, in, DPSCTP_L3_DROP_IPV4_CHECKSUM);
		if ((sctp_load_be16(ip + 6) & IPV4_FRAG_MASK) != 0)
			return drop(l3, in, DPSCTP_L3_DROP_IP_FRAGMENT);
	}
	bool icmp6 = v.family == 6 && f.ip_proto == PROTO_ICMPV6;
	if (ours(l3, v.family, v.dst) < 0 && !(icmp6 && v6_multicast(v.dst)))
		return drop(l3, in, DPSCTP_L3_DROP_IP_NOT_OURS);
	if (icmp6)
		return icmp6_input(l3, &v, now_ns, reply, reply_cap, in);
	if (!source_ok(v.family, v.src))
		return drop(l3, in, DPSCTP_L3_DROP_IP_BAD_SOURCE);

	switch (f.ip_proto) {
	case PROTO_ICMP:
		if (v.family != 4)
			return drop(l3, in, DPSCTP_L3_DROP_IP_PROTO);
		return icmp4_input(l3, &v, reply, reply_cap, in);
	case PROTO_SCTP:
		if (f.sctp_len < SCTP_COMMON_LEN)
			return drop(l3, in, DPSCTP_L3_DROP_SCTP_TRUNCATED);
		in->sctp.offset = f.sctp_offset;
		in->sctp.len = f.sctp_len;
		return sctp_result(l3, &v, in);
	case PROTO_UDP:
		/* The parser skips IPv6 fragments only for port 9899: ours may differ. */
		if (v.family == 6 && v.l4 != v.l3 + IPV6_HDR_LEN && !f.udp_encap)
			return drop(l3, in, DPSCTP_L3_DROP_IPV6_EXT_HEADERS);
		if (udp_input(l3, &v, in) != DPSCTP_L3_IN_SCTP)
			return in->verdict;
		return sctp_result(l3, &v, in);
	default:
		return drop(l3, in, DPSCTP_L3_DROP_IP_PROTO);
	}
}

/* Transmit -------------------------------------------------------------- */

static enum dpsctp_l3_tx_verdict
tx_drop(struct dpsctp_l3 *l3, struct dpsctp_l3_out *out, enum dpsctp_l3_drop why)
{
	l3->ctr.drops[why]++;
	out->verdict = DPSCTP_L3_TX_DROP;
	out->drop = why;
	return out->verdict;
}

/*
 * Source fragmentation on request (tx->frag_mtu, RFC 9260 §6.9 and §7.3):
 * an identification for every IPv4 packet with DF clear, and for a packet
 * longer than frag_mtu the fragment size. IPv6 gets no Fragment header
 * when the packet fits (RFC 8021: no atomic fragments).
 */
static void
frag_plan(struct dpsctp_l3 *l3, const struct dpsctp_l3_tx *tx, struct dpsctp_l3_out *out)
{
	bool v4 = tx->src.family == 4;
	uint32_t iphl = v4 ? IPV4_HDR_LEN : IPV6_HDR_LEN;
	out->ip_payload = tx->sctp_len + (tx->udp_dst_port != 0 ? UDP_HDR_LEN : 0u);
	if (tx->frag_mtu == 0)
		return;
	uint32_t mtu = tx->frag_mtu;
	uint32_t min = v4 ? DPSCTP_L3_FRAG_MTU_MIN4 : DPSCTP_L3_FRAG_MTU_MIN6;
	if (mtu < min)
		mtu = min;
	bool split = iphl + out->ip_payload > mtu;
	if (!v4 && !split)
		return;
	out->frag_id = v4 ? (uint16_t)l3->frag_id : l3->frag_id;
	l3->frag_id++;
	if (!split)
		return;
	/* RFC 791 / RFC 8200 §4.5: offsets count 8-byte units. */
	out->frag_size = (mtu - iphl - (v4 ? 0u : IPV6_FRAGH_LEN)) & ~7u;
	out->frag_count = (out->ip_payload + out->frag_size - 1u) / out->frag_size;
	l3->ctr.tx_fragmented++;
}

uint32_t
dpsctp_l3_fragment(struct dpsctp_l3 *l3, const uint8_t *hdr, const struct dpsctp_l3_out *out,
		   uint32_t offset, uint32_t len, uint8_t *frag, size_t frag_cap)
{
	if (out->verdict != DPSCTP_L3_TX_READY || out->frag_size == 0 || len == 0 ||
	    len > out->frag_size || offset % 8u != 0 || offset >= out->ip_payload ||
	    len > out->ip_payload - offset)
		return 0;
	bool more = offset + len < out->ip_payload;
	if (more && len != out->frag_size)
		return 0; /* only the last fragment may be shorter */
	bool v4 = out->l3_len == IPV4_HDR_LEN;
	uint32_t flen = out->l2_len + out->l3_len + (v4 ? 0u : IPV6_FRAGH_LEN);
	if (frag == NULL || frag_cap < flen)
		return 0;
	memcpy(frag, hdr, out->l2_len + out->l3_len);
	uint8_t *ip = frag + out->l2_len;
	if (v4) {
		/* The same header as the whole packet's (DF already clear), resized. */
		sctp_store_be16(ip + 2, (uint16_t)(IPV4_HDR_LEN + len));
		sctp_store_be16(ip + 6, (uint16_t)((more ? IPV4_MF : 0u) | (offset / 8u)));
		sctp_store_be16(ip + 10, 0);
		sctp_store_be16(ip + 10,
				dpsctp_l3_csum_fold(dpsctp_l3_csum_add(0, ip, IPV4_HDR_LEN)));
	} else {
		uint8_t *fh = ip + IPV6_HDR_LEN;
		fh[0] = ip[6]; /* the Fragment header's next header: UDP or SCTP */
		fh[1] = 0;
		sctp_store_be16(fh + 2, (uint16_t)(offset | (more ? 1u : 0u)));
		sctp_store_be32(fh + 4, out->frag_id);
		ip[6] = PROTO_IPV6_FRAG;
		sctp_store_be16(ip + 4, (uint16_t)(IPV6_FRAGH_LEN + len));
	}
	l3->ctr.tx_fragments++;
	return flen;
}

static void
write_headers(const struct dpsctp_l3 *l3, const struct dpsctp_l3_tx *tx, const uint8_t *mac,
	      uint8_t *hdr, struct dpsctp_l3_out *out)
{
	bool v4 = tx->src.family == 4;
	bool udp = tx->udp_dst_port != 0;
	uint32_t iphl = v4 ? IPV4_HDR_LEN : IPV6_HDR_LEN;
	uint32_t l4len = tx->sctp_len + (udp ? UDP_HDR_LEN : 0u);
	uint8_t proto = udp ? PROTO_UDP : PROTO_SCTP;
	uint8_t *ip = put_eth(hdr, mac, l3->cfg.mac, v4 ? ETHERTYPE_IPV4 : ETHERTYPE_IPV6);
	if (v4 && tx->frag_mtu == 0)
		/* RFC 6864 §4.1: DF set, so the identification may be 0 (PMTUD, RFC 8899). */
		put_ipv4(ip, tx->tclass, (uint16_t)(iphl + l4len), 0, IPV4_DF, l3->cfg.ttl, proto,
			 tx->src.bytes, tx->dst.bytes);
	else if (v4)
		/* DF clear: routers may fragment it too, so it needs an identification
		 * of its own (RFC 6864 §4.2), whether or not we fragment it here. */
		put_ipv4(ip, tx->tclass, (uint16_t)(iphl + l4len), (uint16_t)out->frag_id, 0,
			 l3->cfg.ttl, proto, tx->src.bytes, tx->dst.bytes);
	else
		put_ipv6(ip, tx->tclass, (uint16_t)l4len, proto, l3->cfg.ttl, tx->src.bytes,
			 tx->dst.bytes);
	out->l2_len = ETH_HDR_LEN;
	out->l3_len = iphl;
	out->hdr_len = ETH_HDR_LEN + iphl;
	out->udp_csum = DPSCTP_L3_UDP_CSUM_NONE;
	if (!udp)
		return;
	uint8_t *u = ip + iphl;
	sctp_store_be16(u, l3->cfg.udp_port);
	sctp_store_be16(u + 2, tx->udp_dst_port);
	sctp_store_be16(u + 4, (uint16_t)l4len);
	sctp_store_be16(u + 6, 0);
	out->hdr_len += UDP_HDR_LEN;
	uint32_t s = pseudo_sum(tx->src.family, tx->src.bytes, tx->dst.bytes, PROTO_UDP, l4len);
	if (tx->sctp != NULL) {
		s = dpsctp_l3_csum_add(s, u, UDP_HDR_LEN);
		uint16_t c = dpsctp_l3_csum_fold(dpsctp_l3_csum_add(s, tx->sctp, tx->sctp_len));
		/* RFC 768: a computed zero is sent as all ones. */
		sctp_store_be16(u + 6, c == 0 ? 0xFFFFu : c);
		out->udp_csum = DPSCTP_L3_UDP_CSUM_FULL;
	} else if (v4) {
		out->udp_csum = DPSCTP_L3_UDP_CSUM_ZERO;
	} else {
		/* Offload convention: the field holds the folded pseudo-header sum. */
		sctp_store_be16(u + 6, (uint16_t)~dpsctp_l3_csum_fold(s));
		out->udp_csum = DPSCTP_L3_UDP_CSUM_PSEUDO;
	}
}

enum dpsctp_l3_tx_verdict
dpsctp_l3_output(struct dpsctp_l3 *l3, const struct dpsctp_l3_tx *tx, uint64_t now_ns, uint8_t *hdr,
		 size_t hdr_cap, uint8_t *probe, size_t probe_cap, struct dpsctp_l3_out *out)
{
	memset(out, 0, sizeof(*out));
	uint8_t fam = tx->src.family;
	if ((fam != 4 && fam != 6) || tx->dst.family != fam || ours(l3, fam, tx->src.bytes) < 0)
		return tx_drop(l3, out, DPSCTP_L3_DROP_TX_BAD_REQUEST);
	bool udp = tx->udp_dst_port != 0;
	uint32_t l4len = tx->sctp_len + (udp ? UDP_HDR_LEN : 0u);
	if (tx->sctp_len > 0xFFFFu || l4len + (fam == 4 ? IPV4_HDR_LEN : 0u) > 0xFFFFu)
		return tx_drop(l3, out, DPSCTP_L3_DROP_TX_BAD_REQUEST);
	uint32_t need =
		ETH_HDR_LEN + (fam == 4 ? IPV4_HDR_LEN : IPV6_HDR_LEN) + (udp ? UDP_HDR_LEN : 0u);
	if (hdr == NULL || hdr_cap < need)
		return tx_drop(l3, out, DPSCTP_L3_DROP_TX_NO_ROOM);

	const struct sctp_addr *nh = tx->via.family == fam ? &tx->via : next_hop(l3, &tx->dst);
	if (nh == NULL)
		return tx_drop(l3, out, DPSCTP_L3_DROP_TX_NO_ROUTE);
	struct dpsctp_l3_nbr *n = nbr_find(l3, nh);
	if (n == NULL || n->state == DPSCTP_L3_NBR_UNRESOLVED) {
		/* A resolution starts: a slot first (it may free an entry), then the entry. */
		int slot = res_reserve(l3);
		if (slot < 0)
			return tx_drop(l3, out, DPSCTP_L3_DROP_NBR_RESOLVING_FULL);
		n = n == NULL ? nbr_alloc(l3, nh, NBR_ALLOC_SEND) : nbr_find(l3, nh);
		if (n == NULL)
			return tx_drop(l3, out, DPSCTP_L3_DROP_NBR_TABLE_FULL);
		res_attach(l3, n, slot, now_ns);
	}
	if (n->state == DPSCTP_L3_NBR_INCOMPLETE) {
		if (n->parked == DPSCTP_L3_PARK_MAX)
			return tx_drop(l3, out, DPSCTP_L3_DROP_NBR_PARK_FULL);
		l3->res[n->slot - 1u].park[n->parked++] = *tx;
		n->used = now_ns;
		l3->ctr.tx_parked++;
		out->probe_len = maybe_probe(l3, n, now_ns, probe, probe_cap);
		res_due(l3, n->probes == 0 ? now_ns : n->probed + l3->cfg.retrans_ns);
		out->verdict = DPSCTP_L3_TX_PARKED;
		return out->verdict;
	}
	if (n->state == DPSCTP_L3_NBR_REACHABLE && now_ns - n->confirmed >= l3->cfg.reachable_ns) {
		n->state = DPSCTP_L3_NBR_STALE;
		n->probes = 0;
	}
	if (n->state == DPSCTP_L3_NBR_STALE) {
		out->probe_len = maybe_probe(l3, n, now_ns, probe, probe_cap);
		if (n->probes >= l3->cfg.max_probes)
			tbl_due(l3, n->probed + l3->cfg.retrans_ns);
	}
	n->used = now_ns;
	frag_plan(l3, tx, out);
	write_headers(l3, tx, n->mac, hdr, out);
	l3->ctr.tx_ready++;
	out->verdict = DPSCTP_L3_TX_READY;
	return out->verdict;
}

static inline uint64_t
min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* A pinned entry stays, UNRESOLVED: no address, no resolution, no timer. */
static void
nbr_forget(struct dpsctp_l3 *l3, struct dpsctp_l3_nbr *n)
{
	res_free(l3, n);
	n->state = DPSCTP_L3_NBR_UNRESOLVED;
	memset(n->mac, 0, 6);
	n->probes = 0;
	n->auth = 0;
}

/*
 * Resolutions: a probe every retrans_ns; after max_probes unanswered ones the
 * parked packets come back (nbr_resolve_timeout) and the entry goes, or
 * stays UNRESOLVED when pinned. Returns when the pool next has work.
 */
static uint64_t
tick_resolving(struct dpsctp_l3 *l3, uint64_t now, uint8_t *probe, size_t probe_cap,
	       uint32_t *probe_len)
{
	const struct dpsctp_l3_config *c = &l3->cfg;
	uint64_t next = UINT64_MAX;
	for (unsigned s = 0; s < l3->res_max; s++) {
		uint32_t i = l3->res[s].nbr;
		if (i == NBR_NONE)
			continue;
		struct dpsctp_l3_nbr *n = &l3->nbr[i];
		bool retrans_due = n->probes > 0 && now - n->probed >= c->retrans_ns;
		if (n->probes >= c->max_probes && retrans_due) {
			nbr_give_back(l3, n, DPSCTP_L3_DROP_NBR_RESOLVE_TIMEOUT);
			if (n->pins != 0)
				nbr_forget(l3, n);
			else
				nbr_remove(l3, n); /* slots stay put: the walk goes on */
			continue;
		}
		if ((n->probes == 0 || retrans_due) && probe != NULL && probe_len != NULL &&
		    *probe_len == 0)
			*probe_len = maybe_probe(l3, n, now, probe, probe_cap);
		next = min_u64(next, n->probes == 0 ? now : n->probed + c->retrans_ns);
	}
	return next;
}

/*
 * Resolved entries: REACHABLE turns STALE after reachable_ns; a STALE entry
 * goes after max_probes unanswered unicast probes (UNRESOLVED when pinned)
 * or, unpinned, after stale_ns unused. Returns when the table next has work.
 */
static uint64_t
tick_table(struct dpsctp_l3 *l3, uint64_t now)
{
	const struct dpsctp_l3_config *c = &l3->cfg;
	uint64_t next = UINT64_MAX;
	unsigned i = 0;
	while (i < l3->nbr_count) {
		struct dpsctp_l3_nbr *n = &l3->nbr[i];
		if (!nbr_resolved(n)) {
			i++;
			continue;
		}
		if (n->state == DPSCTP_L3_NBR_REACHABLE && now - n->confirmed >= c->reachable_ns) {
			n->state = DPSCTP_L3_NBR_STALE;
			n->probes = 0;
			if (n->used < n->confirmed)
				n->used = n->confirmed;
		}
		if (n->state == DPSCTP_L3_NBR_REACHABLE) {
			next = min_u64(next, n->confirmed + c->reachable_ns);
			i++;
			continue;
		}
		if (n->probes >= c->max_probes) {
			if (now - n->probed >= c->retrans_ns) {
				if (n->pins != 0) {
					nbr_forget(l3, n);
					i++;
				} else {
					nbr_remove(l3, n); /* the last entry moved into slot i */
				}
				continue;
			}
			next = min_u64(next, n->probed + c->retrans_ns);
		}
		if (n->pins == 0) {
			if (now - n->used >= c->stale_ns) {
				nbr_remove(l3, n);
				continue;
			}
			next = min_u64(next, n->used + c->stale_ns);
		}
		i++;
	}
	return next;
}

uint64_t
dpsctp_l3_tick(struct dpsctp_l3 *l3, uint64_t now_ns, uint8_t *probe, size_t probe_cap,
	       uint32_t *probe_len)
{
	if (probe_len != NULL)
		*probe_len = 0;
	if (now_ns >= l3->res_due)
		l3->res_due = tick_resolving(l3, now_ns, probe, probe_cap, probe_len);
	if (now_ns >= l3->tbl_due) {
		uint64_t next = tick_table(l3, now_ns);
		l3->tbl_due = next != UINT64_MAX && next < now_ns + TABLE_PASS_GAP_NS
				      ? now_ns + TABLE_PASS_GAP_NS
				      : next;
	}
	return min_u64(l3->res_due, l3->tbl_due);
}

void
dpsctp_l3_flush(struct dpsctp_l3 *l3)
{
	/* From the end: a removal moves the last entry, one already seen, into the hole. */
	unsigned i = l3->nbr_count;
	while (i-- > 0) {
		struct dpsctp_l3_nbr *n = &l3->nbr[i];
		nbr_give_back(l3, n, DPSCTP_L3_DROP_NBR_FLUSHED);
		if (n->pins != 0)
			nbr_forget(l3, n);
		else
			nbr_remove(l3, n);
	}
}
