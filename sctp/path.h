/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Destination transport addresses of one association and their management:
 * RFC 9260 §5.4 (path verification), §6.4 and §6.4.1 (which path carries
 * new data and retransmissions), §8.1 (association error counter), §8.2
 * (path error counter, active / inactive), §8.3 (heartbeats) and RFC 7829
 * (the potentially-failed state). docs/PATHS.md has the state diagram, the
 * rules and the failover times of both profiles.
 *
 * Sans-I/O: every call takes the profile and `now_ns` where time matters,
 * random values come from the caller as arguments, and nothing allocates:
 * struct sctp_paths lives inside the association with path 0 in it, and
 * room for more paths is a block the caller attaches (sctp_paths_attach(),
 * docs/PATHS.md "Storage"). Each call that can change something returns
 * what happened as an event mask (SCTP_PATH_EV_* per path, SCTP_PATHS_EV_*
 * for the association), from which the association raises RFC 6458-style
 * notifications:
 *
 *   SCTP_PATH_EV_ACTIVE     -> SCTP_PEER_ADDR_CHANGE, SCTP_ADDR_AVAILABLE
 *   SCTP_PATH_EV_PF         -> SCTP_PEER_ADDR_CHANGE, SCTP_ADDR_POTENTIALLY_FAILED (Linux)
 *   SCTP_PATH_EV_INACTIVE   -> SCTP_PEER_ADDR_CHANGE, SCTP_ADDR_UNREACHABLE
 *   SCTP_PATH_EV_CONFIRMED  -> SCTP_PEER_ADDR_CHANGE, SCTP_ADDR_CONFIRMED
 *   SCTP_PATHS_EV_PRIMARY_CHANGED -> SCTP_ADDR_MADE_PRIM for the new primary
 *   SCTP_PATHS_EV_COMM_LOST -> SCTP_ASSOC_CHANGE, SCTP_COMM_LOST (and close)
 *
 * What the association does with this module:
 *
 *   new DATA             send on sctp_paths_data_path(); then
 *                        sctp_paths_on_data_sent() (first transmissions only)
 *   retransmission       send on sctp_paths_rtx_path(ps, last path used)
 *   T3-rtx expiry        sctp_paths_on_t3_expiry() (counts, backs off, fails over);
 *                        sctp_paths_on_probe_expiry() (backs off only) for a
 *                        zero window probe the peer answers (§6.1 A)
 *   SACK of new data     sctp_paths_on_data_acked() for the path the acked
 *                        TSNs were last sent to; an RTT sample, under Karn's
 *                        rule (sctp/rto.h), with sctp_rto_sample() on
 *                        sctp_paths_get(ps, i)->rto
 *   several addresses    (INIT or INIT ACK) a block of paths from the
 *                        caller's pool, sctp_paths_attach(), then
 *                        sctp_paths_add() each; one path needs no block
 *   wake-up              at sctp_paths_next_wakeup(): sctp_paths_on_wakeup()
 *                        counts unanswered heartbeats and names the paths to
 *                        send a HEARTBEAT to; for each, sctp_paths_hb_info()
 *                        writes the Heartbeat Info value
 *   HEARTBEAT ACK        sctp_paths_on_hb_ack() with the parsed info value
 *
 * After any call the association re-reads sctp_paths_next_wakeup() for its
 * timer: it moves when a path changes state or a HEARTBEAT is sent, never
 * because DATA was sent (that is checked lazily at the wake-up). A path
 * named in an on_wakeup() mask stays due until its HEARTBEAT is written.
 */
#ifndef SCTP_PATH_H
#define SCTP_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sctp/addr.h"
#include "sctp/profile.h"
#include "sctp/rto.h"
#include "sctp/time.h"
#include "sctp/writer.h"

/*
 * Most destination addresses of the peer we keep. RFC 9260 sets no limit.
 * Deployments multi-home with two addresses (two NICs or two networks:
 * SIGTRAN, 3GPP S1/NG/X2, Diameter), four with dual-stack IPv4 + IPv6; eight
 * leaves room for that and bounds what a peer's INIT can make us keep. The
 * association uses the first addresses it is given, as many as the block it
 * attached has room for and never more than eight (further ones are
 * ignored, never an error: RFC 9260 does not oblige us to use every address).
 * Eight also fits the event mask below: 4 bits per path in 32 bits.
 */
#define SCTP_MAX_PATHS 8

enum sctp_path_state {
	SCTP_PATH_ACTIVE = 0,	/* usable (for data once confirmed, §5.4) */
	SCTP_PATH_PF = 1,	/* RFC 7829: probed; no data while another path is active */
	SCTP_PATH_INACTIVE = 2, /* errors above Path.Max.Retrans (§8.2) */
};

/*
 * struct sctp_path.flags. CONFIRMED: §5.4, our nonce came back in a
 * HEARTBEAT ACK (or rule 1 or 2 applies). HB_ENABLED: §8.3 A and C, idle
 * heartbeats on (the default). HB_OUTSTANDING: a HEARTBEAT awaits its ACK
 * and hb_due_ns is its deadline. NONCE_VALID: a round of heartbeats is
 * open: an ACK of any of its HEARTBEATs counts, even after its deadline. V4, V6: the family of
 * addr_bytes (neither: an empty address, possible only for path 0); kept here rather than in a
 * struct sctp_addr because its 17th byte would cost the path 8 bytes of padding. HB_ADMITTED: the
 * caller's heartbeat budget granted this path's idle heartbeat a later slot
 * (sctp_paths_hb_defer()); it goes without asking again when the slot comes, and the grant lapses
 * if the path stops being idle first.
 */
#define SCTP_PATH_F_CONFIRMED	   0x01u
#define SCTP_PATH_F_HB_ENABLED	   0x02u
#define SCTP_PATH_F_HB_OUTSTANDING 0x04u
#define SCTP_PATH_F_NONCE_VALID	   0x08u
#define SCTP_PATH_F_V4		   0x10u
#define SCTP_PATH_F_V6		   0x20u
#define SCTP_PATH_F_HB_ADMITTED	   0x40u

/*
 * One destination transport address, 88 bytes (static_assert in path.c).
 * Hot fields first: what choosing a path, a SACK and a T3 expiry read fits
 * in the first 40 bytes; next the heartbeat deadline, which every
 * sctp_paths_next_wakeup() scans; then the rest of the heartbeat fields,
 * touched at heartbeat pace; last the address and the path MTU, read when
 * a packet is built (sctp_path_addr(); the MTU is one load beside it). The
 * MTU grew the path from 80 to 88 bytes: 2 bytes and their padding.
 */
struct sctp_path {
	uint8_t state;	    /* enum sctp_path_state */
	uint8_t flags;	    /* SCTP_PATH_F_* */
	uint16_t errors;    /* §8.2 error counter; stops growing once inactive (§8.3) */
	uint32_t hb_jitter; /* the caller's random value for this heartbeat period */
	struct sctp_rto rto;
	uint64_t last_tx_ns; /* last new DATA sent here; idle without one (§8.3) */

	uint64_t hb_due_ns;  /* outstanding: the ACK deadline; else the next heartbeat, or NEVER */
	uint64_t hb_sent_ns; /* when the last HEARTBEAT was sent (its info carries the same) */
	uint64_t hb_nonce;   /* the open round's secret (sctp_paths_hb_info()) */
	uint8_t addr_bytes[16]; /* network order; IPv4 in [0..3], the rest zero */
	/*
	 * Path MTU, IP header included (docs/PMTU.md): every packet the
	 * association builds for this path fits it. Starts at the paths'
	 * mtu_start; lowered by ICMP PMTUD, moved both ways by PLPMTUD, or
	 * fixed by the user (SCTP_PATH_PMTU_FIXED).
	 */
	uint16_t mtu;
	uint8_t pmtu_flags; /* SCTP_PATH_PMTU_* */
};

/*
 * struct sctp_path.pmtu_flags. FIXED: the user set the MTU
 * (sctp_assoc_set_path_mtu(), RFC 6458 SPP_PMTUD_DISABLE): neither ICMP
 * nor PLPMTUD changes it.
 */
#define SCTP_PATH_PMTU_FIXED 0x01u

/* MTU of a path before anyone says otherwise: Ethernet's. */
#define SCTP_PATH_MTU_DEFAULT 1500u

/*
 * The peer's destination addresses: paths 0 .. n-1 are in use, path i is
 * sctp_paths_get(ps, i). Path 0 is `first`, inside the set; paths
 * 1 .. cap-1 are the caller's block `more` (docs/PATHS.md "Storage"). No
 * pointer into the set itself, so it moves with memcpy (the copy shares the
 * block: use one of the two afterwards). primary and current
 * index paths in use and always name confirmed paths. current is the path
 * new data goes to: the primary while it is active, else an alternate
 * (sctp_paths_data_path()).
 *
 * 120 bytes on LP64 (static_assert in path.c): 8 bytes read by every call,
 * the block pointer, path 0, then the §5.4 probe window and the refusal
 * counter, which only probing and refused ACKs touch, and the MTU new
 * paths start with (in what was padding).
 */
struct sctp_paths {
	uint8_t n;   /* paths in use, 1 .. cap */
	uint8_t cap; /* 1 + the block's length, at most SCTP_MAX_PATHS */
	uint8_t primary;
	uint8_t current;
	bool running;		/* heartbeats on: ESTABLISHED until SHUTDOWN sent (§8.3) */
	uint8_t probe_last;	/* path probed last: §5.4 probes go round robin from the next */
	uint16_t assoc_errors;	/* §8.1 association error counter */
	struct sctp_path *more; /* paths 1 .. cap-1; NULL while cap is 1 */
	struct sctp_path first; /* path 0 */
	uint64_t probe_window_end_ns;
	uint16_t probes;    /* §5.4 probes in the window ending at probe_window_end_ns */
	uint16_t mtu_start; /* struct sctp_path.mtu of a path added (sctp_paths_set_mtu_start()) */
	uint32_t hb_ack_rejects; /* HEARTBEAT ACKs refused by sctp_paths_on_hb_ack() */
};

/*
 * Path i, for i < ps->cap (in use for i < ps->n). Unchecked: the callers in
 * path.c compare i with n first, and an index from the peer (the Heartbeat
 * Info) is checked before it gets here.
 */
static inline struct sctp_path *
sctp_paths_get(struct sctp_paths *ps, unsigned i)
{
	return i == 0 ? &ps->first : &ps->more[i - 1];
}

static inline const struct sctp_path *
sctp_paths_get_const(const struct sctp_paths *ps, unsigned i)
{
	return i == 0 ? &ps->first : &ps->more[i - 1];
}

/* The path's destination address; family SCTP_ADDR_NONE for an empty one. */
static inline struct sctp_addr
sctp_path_addr(const struct sctp_path *pa)
{
	struct sctp_addr a;

	if (pa->flags & SCTP_PATH_F_V4)
		return sctp_addr_v4(pa->addr_bytes);
	if (pa->flags & SCTP_PATH_F_V6)
		return sctp_addr_v6(pa->addr_bytes);
	memset(&a, 0, sizeof(a));
	return a;
}

/*
 * Event masks. Bits 0..31: four per path, path i at bits 4i..4i+3
 * (SCTP_PATH_EV(i, ev), sctp_path_events(mask, i)). Bits 32 and up: the
 * association.
 */
#define SCTP_PATH_EV_PF	       0x1u /* became potentially failed (RFC 7829) */
#define SCTP_PATH_EV_INACTIVE  0x2u /* became inactive (§8.2) */
#define SCTP_PATH_EV_ACTIVE    0x4u /* PF or inactive became active (§8.2, §8.3, RFC 7829) */
#define SCTP_PATH_EV_CONFIRMED 0x8u /* unconfirmed became confirmed (§5.4) */
#define SCTP_PATH_EV_BITS      4u
#define SCTP_PATH_EV(i, ev)    ((uint64_t)(ev) << (SCTP_PATH_EV_BITS * (unsigned)(i)))

/*
 * FAILOVER: new data moved to a path other than the primary.
 * PRIMARY_RETURN: new data moved (back) to the primary.
 * PRIMARY_CHANGED: with profile.primary_return off, the failover target
 * became the primary (RFC 7829 "Primary Path Switchover").
 * COMM_LOST: §8.1, the association error counter exceeds
 * Association.Max.Retrans; the association must close.
 */
#define SCTP_PATHS_EV_FAILOVER	      (1ull << 32)
#define SCTP_PATHS_EV_PRIMARY_RETURN  (1ull << 33)
#define SCTP_PATHS_EV_PRIMARY_CHANGED (1ull << 34)
#define SCTP_PATHS_EV_COMM_LOST	      (1ull << 35)

/* The SCTP_PATH_EV_* bits of path i in an event mask. */
static inline unsigned
sctp_path_events(uint64_t events, unsigned i)
{
	return (unsigned)(events >> (SCTP_PATH_EV_BITS * i)) & 0xfu;
}

/*
 * Heartbeat Info value (RFC 9260 §3.3.5, opaque to the peer), 20 bytes:
 *
 *   0       1       2               4                               12
 *   +-------+-------+---------------+-------------------------------+----
 *   |format | path  |   reserved    |        nonce (64 bits)        | send
 *   |  = 1  | index |      = 0      |                               | time
 *   +-------+-------+---------------+-------------------------------+----
 *   12                              20
 *   ---------------------------------+
 *   send time, ns of our clock (64)  |
 *   ---------------------------------+
 *
 * All big-endian. The nonce is what authenticates the ACK (§5.4, §8.3); the
 * send time is checked against ours too, and the RTT is measured from our
 * own copy, so a peer that edits the value gains nothing.
 */
#define SCTP_PATH_HB_INFO_LEN	 20u
#define SCTP_PATH_HB_INFO_FORMAT 1u

/* Why sctp_paths_on_hb_ack() refused an ACK. */
enum sctp_hb_ack_verdict {
	SCTP_HB_ACK_OK = 0,
	SCTP_HB_ACK_BAD_LEN,	/* info is not SCTP_PATH_HB_INFO_LEN bytes */
	SCTP_HB_ACK_BAD_FORMAT, /* format byte or reserved bytes are not ours */
	SCTP_HB_ACK_BAD_PATH,	/* path index not in use */
	SCTP_HB_ACK_BAD_NONCE, /* no open round of heartbeats on that path gives that nonce for that
				  time: forged, stale, or a replay of one already accepted */
};

/* "ok", "bad_len", "bad_format", "bad_path", "bad_nonce"; "unknown" otherwise. */
const char *sctp_hb_ack_verdict_name(enum sctp_hb_ack_verdict v);

/*
 * One path, to `primary`: confirmed (RFC 9260 §5.4 rules 1 and 2: the
 * address the INIT went to, or the one the INIT ACK went to), active,
 * primary and current. Heartbeats are off until sctp_paths_hb_start().
 * Capacity 1, no block: a block attached before is forgotten, so take it
 * back first (sctp_paths_block()).
 */
void sctp_paths_init(struct sctp_paths *ps, const struct sctp_profile *p,
		     const struct sctp_addr *primary);

/*
 * Room for paths 1 .. n_more: the caller's block more[0 .. n_more-1], which
 * must stay valid and untouched by anyone else until it is detached or
 * replaced. Capacity becomes 1 + n_more, at most SCTP_MAX_PATHS (elements
 * past that stay unused). The paths 1 .. n-1 in use are copied into the new
 * block (memmove, so the blocks may overlap), with all their state; the old
 * block is then the caller's again: read it with sctp_paths_block() before
 * the call. Cost: one copy of (n - 1) * 80 bytes. Returns 0, or -1 with
 * nothing changed when more is NULL, n_more is 0, or the block is too short
 * for the n - 1 paths in use.
 */
int sctp_paths_attach(struct sctp_paths *ps, struct sctp_path *more, unsigned n_more);

/*
 * Give the block back: capacity returns to 1. Refused while a path other
 * than 0 is in use (n > 1): returns NULL and changes nothing. Paths are
 * never removed, so a set that used its block keeps it; when the
 * association is freed, give back sctp_paths_block() instead. Returns the
 * block, or NULL when none was attached or on refusal.
 */
struct sctp_path *sctp_paths_detach(struct sctp_paths *ps);

/* The attached block, NULL when none: what to give back to the pool. */
static inline struct sctp_path *
sctp_paths_block(const struct sctp_paths *ps)
{
	return ps->more;
}

/*
 * Add a destination address; `confirmed` per §5.4 (true for addresses our
 * user gave, false for ones learned from the peer's INIT or INIT ACK).
 * Returns its index; the existing index if the address is already a path;
 * -1 if the set is full (n == cap: attach a longer block; never more than
 * SCTP_MAX_PATHS) or the address has no family. rnd: random value for its
 * first heartbeat's jitter, used if heartbeats are running.
 */
int sctp_paths_add(struct sctp_paths *ps, const struct sctp_profile *p,
		   const struct sctp_addr *addr, bool confirmed, uint64_t now_ns, uint32_t rnd);

/*
 * The MTU every path starts with (the interface MTU, docs/PMTU.md): paths
 * in use that the user did not fix take it now, paths added later take it
 * too. SCTP_PATH_MTU_DEFAULT until set.
 */
void sctp_paths_set_mtu_start(struct sctp_paths *ps, uint16_t mtu);

/* Index of the path to addr, or -1. */
int sctp_paths_find(const struct sctp_paths *ps, const struct sctp_addr *addr);

/*
 * Heartbeats and §5.4 probing on (on entering ESTABLISHED) or off (on
 * sending SHUTDOWN or SHUTDOWN ACK; outstanding heartbeats are forgotten,
 * though a late ACK is still accepted). rnd seeds the first jitter of every
 * path (rotated per path so they do not beat in step).
 */
void sctp_paths_hb_start(struct sctp_paths *ps, const struct sctp_profile *p, uint64_t now_ns,
			 uint32_t rnd);
void sctp_paths_hb_stop(struct sctp_paths *ps);

/* §8.3 A and C: idle heartbeats on or off for path i (PF probing stays on). -1 if no such path. */
int sctp_paths_set_hb_enabled(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i,
			      bool on, uint64_t now_ns);

/*
 * The user's SETPRIMARY (RFC 9260 §11.1). Refused (-1) for an index not in
 * use or an unconfirmed path. *events gets what moved (new data goes to the
 * new primary at once if it is active).
 */
int sctp_paths_set_primary(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i,
			   uint64_t *events);

/* The path for new data: see docs/PATHS.md "Choosing a path". */
static inline unsigned
sctp_paths_data_path(const struct sctp_paths *ps)
{
	return ps->current;
}

/*
 * The path for retransmitting chunks last sent on path `last` (§6.4, §6.4.1):
 * an active confirmed path other than `last` when there is one (the data
 * path first, else the best alternate), otherwise the data path.
 */
unsigned sctp_paths_rtx_path(const struct sctp_paths *ps, unsigned last);

/*
 * A first transmission (new DATA) went out on path i: the path is not idle,
 * so its next heartbeat slides (checked lazily at its wake-up, so this stays
 * one store on the send path). Retransmissions do not count (§8.3 "idle").
 */
static inline void
sctp_paths_on_data_sent(struct sctp_paths *ps, unsigned i, uint64_t now_ns)
{
	if (i < ps->n)
		sctp_paths_get(ps, i)->last_tx_ns = now_ns;
}

/*
 * T3-rtx expired on path i (§6.3.3): RTO back-off (E2), one error on the
 * path (§8.2) and on the association (§8.1), state changes, failover.
 */
uint64_t sctp_paths_on_t3_expiry(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i,
				 uint64_t now_ns);

/*
 * T3-rtx expired on path i for a zero window probe the peer keeps answering
 * with SACKs (§6.1 A: such probes "SHOULD NOT increment the error counter
 * for the association or any destination transport address"): the RTO
 * backs off (E2), so the probes go at exponentially growing intervals up
 * to RTO.Max, and nothing else changes: no error, no state, no failover.
 */
void sctp_paths_on_probe_expiry(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i);

/*
 * A SACK acknowledged new data last sent on path i: both error counters
 * cleared (§8.1, §8.2); a PF or inactive path becomes active (RFC 7829,
 * §8.2); new data may return to the primary. Per §8.2 the caller may skip
 * this when the acknowledged chunk had been retransmitted to another path.
 */
uint64_t sctp_paths_on_data_acked(struct sctp_paths *ps, const struct sctp_profile *p, unsigned i,
				  uint64_t now_ns);

/*
 * Timers due at now_ns: every HEARTBEAT unanswered for an RTO counts as an
 * error (§8.3; not on the association for an unconfirmed path, §5.4) and
 * backs its path's RTO off. *hb_mask gets bit i set for each path that must
 * be sent a HEARTBEAT now (build its info with sctp_paths_hb_info()); an
 * unconfirmed path's probe counts against HB.Max.Burst when it is named.
 */
uint64_t sctp_paths_on_wakeup(struct sctp_paths *ps, const struct sctp_profile *p, uint64_t now_ns,
			      uint32_t *hb_mask);

/*
 * A budget for idle heartbeats (docs/PATHS.md "Heartbeats at scale"): the
 * caller may hold back the HEARTBEAT that sctp_paths_on_wakeup() named for
 * path i when sctp_paths_hb_budgeted() says it is an idle one (§8.3, at the
 * normal rate) not yet granted a slot. sctp_paths_hb_defer() then moves the
 * path's deadline to until_ns, its granted slot: at that wake-up the path is
 * named again (if still idle) and budgeted() is false. Probes of
 * unconfirmed and potentially-failed paths and the deadlines of outstanding
 * heartbeats are never budgeted: failure detection does not wait.
 */
bool sctp_paths_hb_budgeted(const struct sctp_paths *ps, unsigned i);
/* Path i is probed each RTO (unconfirmed, §5.4, or potentially failed, RFC 7829). */
bool sctp_paths_hb_probing(const struct sctp_paths *ps, unsigned i);
void sctp_paths_hb_defer(struct sctp_paths *ps, unsigned i, uint64_t until_ns);

/*
 * Write the Heartbeat Info value for a HEARTBEAT to path i into w and record
 * it as outstanding: send time now_ns, ACK deadline now + RTO, and a nonce
 * from the round's secret and the send time. A round opens with the first
 * HEARTBEAT after an ACK (nonce, the caller's 64-bit random value, is its
 * secret) and stays open until an ACK of any of its HEARTBEATs comes back:
 * the probes of a path that went potentially failed belong to the round of
 * the heartbeat that timed out, so the ACK of an earlier probe that comes
 * late still counts. jitter_rnd: the caller's random value for the next
 * heartbeat period. Also an on-demand heartbeat (§8.3 D) at any time.
 * Returns 0, or -1 (nothing recorded) for a bad index or a full writer.
 */
int sctp_paths_hb_info(struct sctp_paths *ps, unsigned i, uint64_t now_ns, uint64_t nonce,
		       uint32_t jitter_rnd, struct sctp_writer *w);

/*
 * A HEARTBEAT ACK arrived with this info value (sctp_heartbeat_parse()'s
 * info/info_len). Accepted only if it names a path in use whose pending
 * nonce and send time it repeats; then the nonce is retired (a replay is
 * refused), the path yields an RTT sample (now - send time), both error
 * counters clear (§8.3), the path is confirmed (§5.4) and active, and new
 * data may return to it. A refusal changes nothing but hb_ack_rejects.
 * *path gets the index on success; *events what happened.
 */
enum sctp_hb_ack_verdict sctp_paths_on_hb_ack(struct sctp_paths *ps, const struct sctp_profile *p,
					      const uint8_t *info, size_t info_len, uint64_t now_ns,
					      unsigned *path, uint64_t *events);

/* Earliest heartbeat deadline over all paths; SCTP_TIME_NEVER when none. */
uint64_t sctp_paths_next_wakeup(const struct sctp_paths *ps);

/*
 * One heartbeat period of an idle path (§8.3): RTO + HB.interval + j, with
 * j = RTO * rnd / 2^32 - RTO / 2, so j runs from -RTO/2 (rnd 0) to just
 * under +RTO/2 (rnd UINT32_MAX). Saturates at SCTP_TIME_NEVER. Path i's
 * HB.interval is sctp_profile_hb_interval(p, i): its own, else the
 * association's.
 */
uint64_t sctp_path_hb_period(const struct sctp_path *pa, uint64_t hb_interval_ns, uint32_t rnd);

#endif /* SCTP_PATH_H */
