/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Protocol parameters (RFC 9260 §16 and the extensions we implement) and the
 * two profiles that set them: the RFC defaults, for peers across a WAN, and a
 * data-center profile (docs/ARCHITECTURE.md decision 5) for peers a few microseconds
 * away. docs/PROFILES.md gives the reason for every value.
 *
 * A profile is plain data copied into an endpoint at creation; associations
 * read it from there. sctp_profile_check() refuses combinations the RFC
 * forbids or that would break the timer arithmetic.
 */
#ifndef SCTP_PROFILE_H
#define SCTP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sctp/time.h"

/*
 * Paths an association may have per-path values for: SCTP_MAX_PATHS
 * (sctp/path.h, which checks that the two agree; it includes this file).
 */
#define SCTP_PROFILE_PATHS 8

/* struct sctp_path_params.own: the fields a path has its own value of. */
#define SCTP_PROFILE_OWN_HB_INTERVAL 0x1u /* hb_interval_ns */
#define SCTP_PROFILE_OWN_MAX_RETRANS 0x2u /* path_max_retrans */
#define SCTP_PROFILE_OWN_PF	     0x4u /* pf_enabled and pf_max_retrans */

/* One path's own failure detection and heartbeat values (struct sctp_profile.path). */
struct sctp_path_params {
	uint64_t hb_interval_ns;
	uint16_t path_max_retrans;
	uint16_t pf_max_retrans;
	bool pf_enabled;
	uint8_t own; /* SCTP_PROFILE_OWN_*: the fields that are the path's */
};

enum sctp_profile_id {
	SCTP_PROFILE_RFC = 0, /* RFC 9260 §16 defaults */
	SCTP_PROFILE_DC = 1,  /* data center: microsecond timers, fast failover */
};

struct sctp_profile {
	/* Retransmission timeout, RFC 9260 §6.3.1 and §16. */
	uint64_t rto_initial_ns;
	uint64_t rto_min_ns;
	uint64_t rto_max_ns;
	uint8_t rto_alpha_shift;       /* RTO.Alpha = 1 / 2^shift (1/8: shift 3) */
	uint8_t rto_beta_shift;	       /* RTO.Beta = 1 / 2^shift (1/4: shift 2) */
	uint64_t clock_granularity_ns; /* G of §6.3.1, the timer wheel's tick */

	/* Handshake, RFC 9260 §5.1 and §16. */
	uint64_t valid_cookie_life_ns;
	uint64_t cookie_preservative_cap_ns; /* most extra life granted on request */
	uint16_t max_init_retransmits;

	/* Failure detection, RFC 9260 §8.1, §8.2, §8.3 and RFC 7829. */
	uint16_t assoc_max_retrans;
	uint16_t path_max_retrans;
	bool pf_enabled;	 /* RFC 7829 potentially-failed state */
	uint16_t pf_max_retrans; /* PFMR: errors before a path is PF */
	bool primary_return;	 /* go back to the primary once it answers */
	uint64_t hb_interval_ns;
	uint16_t hb_max_burst;
	/*
	 * An ICMP protocol unreachable (or, over UDP, port unreachable) quoting
	 * a packet of an established association: true ends it as the peer's
	 * ABORT would (RFC 9260 appendix C, ICMP8; FreeBSD and usrsctp do so);
	 * false counts it in icmp_ignored and leaves a dead peer to heartbeats
	 * and T3-rtx, as Linux does. A handshake in COOKIE-WAIT fails on one
	 * either way. Linux hosts have been seen to send stray ones while a
	 * raw-socket SCTP stack listens (docs/INTEROP.md).
	 */
	bool proto_unreach_aborts;

	/* Sending, RFC 9260 §6.1 and §7.2. */
	uint16_t max_burst; /* packets per send opportunity; 0 = no cap */
	/* RFC 6458 SCTP_MAXSEG: most DATA payload bytes per fragment; 0 = the PMTU's */
	uint32_t max_seg;
	/* RFC 6458 sinit_max_init_timeo: most T1-init/T1-cookie backs off to; 0 = rto_max_ns */
	uint64_t max_init_timeo_ns;
	/* Heartbeats off on paths made from now on (RFC 6458 SPP_HB_DISABLE); false: on */
	bool hb_off;

	/* Acknowledging, RFC 9260 §6.2. */
	uint64_t sack_delay_ns; /* at most 500 ms (§6.2) */
	uint16_t sack_every;	/* SACK at least every N packets with DATA */
	bool sack_immediate_on_gap_or_dup;

	/* Streams offered in our INIT / INIT ACK. */
	uint16_t out_streams;
	uint16_t max_in_streams;
	/*
	 * The most outbound streams RE-CONFIG (RFC 6525 §5.1.5) may add up
	 * to; 0: 65,535. Inbound ones grow at most to max_in_streams. A
	 * request past either is refused (our call: -EINVAL; the peer's:
	 * "Denied"), whatever memory the association could find.
	 */
	uint16_t max_out_streams;

	/*
	 * F-RTO (RFC 5682, sctp/spurious.h): after a T3-rtx expiry whose first
	 * SACK acknowledges originals, hold what the expiry marked and send new
	 * data until the next SACK tells a stall from a loss. Off: the rest of
	 * the window goes again at once, as RFC 9260 §6.3.3 has it.
	 */
	bool frto;
	/*
	 * Path MTU discovery, per path (docs/PMTU.md). pmtud: ICMP
	 * Fragmentation Needed / Packet Too Big quoting our packet, validated
	 * (RFC 9260 appendix C), lowers the path's MTU. plpmtud: RFC 8899
	 * probing with HEARTBEAT and PAD chunks, which needs no ICMP and
	 * raises the MTU again after plpmtud_raise_ns (without PLPMTUD, an MTU
	 * an ICMP lowered goes back to the interface MTU after it, RFC 8201
	 * §4). pmtu_min_v4: the lowest
	 * MTU either may set on an IPv4 path (576 at least, RFC 791; 0 is 576); IPv6
	 * paths never go below 1280 (RFC 8200 §5). plpmtud_probe_ns: the least
	 * time a probe is waited for (PROBE_TIMER; SRTT + 4 RTTVAR when longer).
	 */
	bool pmtud;
	bool plpmtud;
	uint16_t pmtu_min_v4;
	uint64_t plpmtud_probe_ns;
	uint64_t plpmtud_raise_ns;

	/*
	 * Per-path values (RFC 6458 §8.1.12 with spp_address naming one
	 * path, RFC 7829 SCTP_PEER_ADDR_THLDS): path[i] holds what path i
	 * (sctp_paths_get()) uses instead of the fields above, for the
	 * fields its own bits name. Paths are only ever appended while an
	 * association lives, so an index keeps naming one address. Zero in
	 * every endpoint profile: only an association's own block
	 * (sctp/assoc_opt.h) has any, so an association without one pays
	 * nothing, and struct sctp_path does not grow. path_own has bit i set
	 * while path[i].own is not 0: the one byte every read tests first.
	 * Read through sctp_profile_hb_interval() and its siblings; written
	 * through sctp_profile_path_set_*().
	 */
	uint8_t path_own;
	struct sctp_path_params path[SCTP_PROFILE_PATHS];
};

/* RFC 791 §3.1: every IPv4 host takes 576-byte datagrams; RFC 8200 §5: IPv6 links 1280. */
#define SCTP_PMTU_MIN_V4 576u
#define SCTP_PMTU_MIN_V6 1280u

extern const struct sctp_profile sctp_profile_rfc;
extern const struct sctp_profile sctp_profile_dc;

/* The profile of that id, or NULL for an unknown id. */
const struct sctp_profile *sctp_profile_get(enum sctp_profile_id id);
/* "rfc", "dc"; NULL for an unknown id. */
const char *sctp_profile_name(enum sctp_profile_id id);
/* Look a profile up by name ("rfc", "dc"); -1 when unknown. */
int sctp_profile_from_name(const char *name, enum sctp_profile_id *id);

/* Path i's own values of the fields in `own` (0: none), else the association's. */
static inline const struct sctp_path_params *
sctp_profile_path(const struct sctp_profile *p, unsigned i, unsigned own)
{
	if (i < SCTP_PROFILE_PATHS && ((p->path_own >> i) & 1u) && (p->path[i].own & own))
		return &p->path[i];
	return NULL;
}

/* HB.interval of path i (§8.3). */
static inline uint64_t
sctp_profile_hb_interval(const struct sctp_profile *p, unsigned i)
{
	const struct sctp_path_params *o = sctp_profile_path(p, i, SCTP_PROFILE_OWN_HB_INTERVAL);

	return o != NULL ? o->hb_interval_ns : p->hb_interval_ns;
}

/* Path.Max.Retrans of path i (§8.2). */
static inline uint16_t
sctp_profile_path_max_retrans(const struct sctp_profile *p, unsigned i)
{
	const struct sctp_path_params *o = sctp_profile_path(p, i, SCTP_PROFILE_OWN_MAX_RETRANS);

	return o != NULL ? o->path_max_retrans : p->path_max_retrans;
}

/* RFC 7829 on path i: true with *pfmr its threshold, or false (PF off there). */
static inline bool
sctp_profile_pf(const struct sctp_profile *p, unsigned i, uint16_t *pfmr)
{
	const struct sctp_path_params *o = sctp_profile_path(p, i, SCTP_PROFILE_OWN_PF);
	bool on = o != NULL ? o->pf_enabled : p->pf_enabled;

	*pfmr = o != NULL ? o->pf_max_retrans : p->pf_max_retrans;
	return on;
}

/*
 * Path i's own value of one field (i < SCTP_PROFILE_PATHS; a bad index
 * changes nothing). The other fields keep following the association's.
 */
void sctp_profile_path_set_hb_interval(struct sctp_profile *p, unsigned i, uint64_t ns);
void sctp_profile_path_set_max_retrans(struct sctp_profile *p, unsigned i, uint16_t n);
void sctp_profile_path_set_pf(struct sctp_profile *p, unsigned i, bool on, uint16_t pfmr);

/*
 * Every path back to the association's values of the fields in `own`
 * (SCTP_PROFILE_OWN_*): what a set of those fields for the whole
 * association does (RFC 6458 §8.1.12, no spp_address; Linux writes the
 * association's value into every transport).
 */
void sctp_profile_paths_follow(struct sctp_profile *p, unsigned own);

/*
 * NULL when the values can be used; otherwise a static string naming the
 * first broken rule (e.g. "rto_min_ns > rto_initial_ns").
 */
const char *sctp_profile_check(const struct sctp_profile *p);

#endif /* SCTP_PROFILE_H */
