/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Congestion control of one association's destination addresses behind a
 * small interface: RFC 9260 §6.1 rules B and D (how much may be sent now,
 * Max.Burst), §7.2.1 slow start, §7.2.2 congestion avoidance, §7.2.3 the
 * reaction to loss and to T3-rtx expiry, §7.2.4 fast recovery (entry and
 * exit, association-wide) and §6.2.1 D iv (its exit). RFC 9260 is the first
 * algorithm (sctp/cc_rfc9260.c); others plug into struct sctp_cc_ops.
 * docs/CC.md has the rules with their RFC sentences, the order of calls in
 * SACK processing, the data-center parameters and the dispatch measurement.
 *
 * Units are RFC 9260's: bytes of DATA chunks, header and padding included
 * (§7.2 "the length of the DATA chunk, including the padding, SHOULD be
 * used"), and PMDCS, the Path Maximum DATA Chunk Size (§1.3: the largest
 * DATA chunk that fits a packet within the path's PMTU; 1468 for an IPv4
 * path with a 1500-byte MTU, 1448 for IPv6). Flight size is the caller's:
 * §1.3 "outstanding data" of one destination, a chunk marked for
 * retransmission but not yet resent excluded.
 *
 * What lives where. Per destination (§7.2 "MUST keep a set of the control
 * variables cwnd, ssthresh, and partial_bytes_acked for EACH destination"):
 * struct sctp_cc_path, 16 bytes, inside the association's path. Per
 * association: struct sctp_cc_recovery, the Fast Recovery flag and exit
 * point; §7.2.4 rule 6 says "If not in Fast Recovery, enter Fast Recovery
 * and mark the highest outstanding TSN as the Fast Recovery exit point",
 * one TSN space, one exit point, and "the ssthresh and cwnd SHOULD NOT
 * change for any destinations" while in it: one flag for all paths.
 *
 * Sans-I/O: no clock (idle time arrives as a count of RTOs), no allocation,
 * every call O(1) except sctp_cc_on_idle(), at most 32 halvings. All
 * arithmetic saturates at UINT32_MAX bytes; nothing here can overflow
 * whatever the caller passes.
 */
#ifndef SCTP_CC_H
#define SCTP_CC_H

#include <stdbool.h>
#include <stdint.h>

#include "sctp/addr.h"
#include "sctp/tsn.h"

enum sctp_cc_algo {
	SCTP_CC_RFC9260 = 0, /* RFC 9260 §7.2, sctp/cc_rfc9260.c */
	SCTP_CC_ALGO_COUNT,
};

/*
 * Parameters shared by every path of an endpoint (docs/CC.md gives the
 * reason for each value of both sets).
 */
struct sctp_cc_params {
	uint8_t algo;		     /* enum sctp_cc_algo */
	uint8_t ss_l;		     /* L of §7.2.1: slow start grows at most L * PMDCS per SACK */
	uint16_t max_burst;	     /* §6.1 D Max.Burst in packets; 0 = no cap */
	uint16_t initial_cwnd_pmdcs; /* 0: §7.2.1's initial cwnd; n: n * PMDCS */
};

/* RFC 9260 exactly: L = 1, Max.Burst = 4 (§16), §7.2.1's initial window. */
extern const struct sctp_cc_params sctp_cc_params_rfc;
/* Data center: L = 4, no Max.Burst, initial window 10 * PMDCS. */
extern const struct sctp_cc_params sctp_cc_params_dc;

/*
 * Bounds sctp_cc_params_check() enforces: no SACK policy here acknowledges
 * more than 16 packets at once, and an initial window above 64 packets
 * (94 KB at PMDCS 1468) is a misconfiguration, not a tuning (docs/CC.md).
 */
#define SCTP_CC_SS_L_MAX	  16u
#define SCTP_CC_INITIAL_PMDCS_MAX 64u

/*
 * NULL when the values can be used; otherwise a static string naming the
 * first broken rule (e.g. "ss_l == 0"). Every other call trusts params that
 * passed this check (an unknown algo would index past the ops table).
 */
const char *sctp_cc_params_check(const struct sctp_cc_params *p);

/*
 * struct sctp_cc_path.flags. ONE_PACKET: §7.2.1 "The initial cwnd after a
 * retransmission timeout MUST be no more than PMDCS, and only one packet is
 * allowed to be in flight until successful acknowledgement"; set by a T3-rtx
 * expiry, cleared by the next SACK that acknowledges data of this path.
 */
#define SCTP_CC_F_ONE_PACKET 0x01u

/*
 * One destination's state. Invariants after every call (cc_test checks them
 * over random event sequences):
 *   pmdcs >= 1 and cwnd >= pmdcs      (a path can always send one packet)
 *   partial_bytes_acked <= cwnd       (equal by §7.2.2's "reset
 *                                      partial_bytes_acked to cwnd" or by
 *                                      our caps, docs/CC.md)
 *   ssthresh >= 4 * pmdcs             (from the first loss or idle decay
 *                                      on, while pmdcs does not grow)
 * 16 bytes (static_assert in cc.c): four paths' state in a cache line.
 */
struct sctp_cc_path {
	uint32_t cwnd;		      /* bytes */
	uint32_t ssthresh;	      /* bytes; UINT32_MAX until a loss or idle decay */
	uint32_t partial_bytes_acked; /* bytes, §7.2.2 */
	uint16_t pmdcs;		      /* this path's PMDCS, bytes */
	uint8_t flags;		      /* SCTP_CC_F_* */
	uint8_t reserved;	      /* zero; room for an algorithm's own bits */
};

/*
 * What one SACK did to one destination: the association adds up, per path
 * the chunks were last sent to, what the Cumulative TSN Ack and the Gap Ack
 * Blocks newly acknowledged (§7.2.1: "update its cwnd (or cwnds) apportioned
 * to the destination addresses to which it transmitted the acknowledged
 * data") and calls sctp_cc_on_sack() for each path with bytes_acked or
 * bytes_dup above zero.
 */
struct sctp_cc_sack {
	uint32_t bytes_acked;	/* DATA chunks newly acknowledged (cum ack and gap blocks) */
	uint32_t bytes_dup;	/* DATA chunks named in the SACK's Duplicate TSNs (§7.2.2) */
	uint32_t flight_before; /* this path's flight size before the SACK */
	uint32_t flight_after;	/* after it (acknowledged and newly lost chunks removed) */
	bool cum_tsn_advanced;	/* the SACK moved the Cumulative TSN Ack Point */
	bool in_fast_recovery;	/* sctp_cc_recovery_active() after sctp_cc_recovery_on_sack() */
};

/*
 * How much may be sent to a path now. The caller starts packets while it
 * has sent fewer than `bytes` bytes and fewer than `packets` packets since
 * it asked; each packet carries at most PMDCS bytes of DATA chunks, so the
 * last one may end above `bytes` (§6.1 rule B, see sctp_cc_window()).
 * packets is UINT32_MAX when only bytes limit; both are 0 when nothing may
 * be sent.
 */
struct sctp_cc_window {
	uint32_t bytes;
	uint32_t packets;
};

/* Whether one more packet may start after sent_bytes in sent_packets. */
static inline bool
sctp_cc_window_allows(const struct sctp_cc_window *w, uint32_t sent_bytes, uint32_t sent_packets)
{
	return sent_bytes < w->bytes && sent_packets < w->packets;
}

/*
 * One algorithm: what each entry point below does for it. Every function
 * gets the path's state and the endpoint's params; none may fail.
 */
struct sctp_cc_ops {
	const char *name;
	void (*init)(struct sctp_cc_path *s, const struct sctp_cc_params *p, uint16_t pmdcs,
		     uint8_t family);
	void (*on_sack)(struct sctp_cc_path *s, const struct sctp_cc_params *p,
			const struct sctp_cc_sack *ev);
	void (*on_fast_retransmit)(struct sctp_cc_path *s, const struct sctp_cc_params *p,
				   bool in_fast_recovery);
	void (*on_t3_expiry)(struct sctp_cc_path *s, const struct sctp_cc_params *p);
	void (*on_idle)(struct sctp_cc_path *s, const struct sctp_cc_params *p, uint32_t rtos);
	void (*on_pmtu_change)(struct sctp_cc_path *s, const struct sctp_cc_params *p,
			       uint16_t pmdcs);
	struct sctp_cc_window (*window)(const struct sctp_cc_path *s,
					const struct sctp_cc_params *p, uint32_t flight,
					bool new_data);
};

/* The algorithms, indexed by enum sctp_cc_algo (checked params only). */
extern const struct sctp_cc_ops *const sctp_cc_algos[SCTP_CC_ALGO_COUNT];
extern const struct sctp_cc_ops sctp_cc_rfc9260_ops;

/* The ops of algo, or NULL for an unknown value. */
const struct sctp_cc_ops *sctp_cc_ops_get(unsigned algo);

/*
 * A path's state before its first DATA (and again on a route or DSCP
 * change, §7.2.5: "the congestion control parameters ... MUST be reset to
 * their initial values"). pmdcs: the path's PMDCS (0 is taken as 1);
 * family: SCTP_ADDR_V4 or SCTP_ADDR_V6 (§7.2.1 has one constant for each).
 */
static inline void
sctp_cc_init(struct sctp_cc_path *s, const struct sctp_cc_params *p, uint16_t pmdcs, uint8_t family)
{
	sctp_cc_algos[p->algo]->init(s, p, pmdcs, family);
}

/*
 * A SACK acknowledged data of this path (§7.2.1 slow start, §7.2.2
 * congestion avoidance). Call it after sctp_cc_recovery_on_sack() and
 * before any sctp_cc_on_fast_retransmit() for the same SACK (§7.2.4 note:
 * the §7.2.1 and §7.2.2 adjustments "MUST be applied first").
 */
static inline void
sctp_cc_on_sack(struct sctp_cc_path *s, const struct sctp_cc_params *p,
		const struct sctp_cc_sack *ev)
{
	sctp_cc_algos[p->algo]->on_sack(s, p, ev);
}

/*
 * §7.2.4 rule 2: chunks last sent to this path got their third miss
 * indication. Call once per such path, with the association's Fast Recovery
 * state before this SACK's sctp_cc_recovery_enter(); nothing changes when
 * in_fast_recovery is true (rule 6: no further reduction).
 */
static inline void
sctp_cc_on_fast_retransmit(struct sctp_cc_path *s, const struct sctp_cc_params *p,
			   bool in_fast_recovery)
{
	sctp_cc_algos[p->algo]->on_fast_retransmit(s, p, in_fast_recovery);
}

/* §6.3.3 E1 and §7.2.3: T3-rtx expired on this path. */
static inline void
sctp_cc_on_t3_expiry(struct sctp_cc_path *s, const struct sctp_cc_params *p)
{
	sctp_cc_algos[p->algo]->on_t3_expiry(s, p);
}

/*
 * §7.2.1: nothing was sent to this path for `rtos` whole RTOs. Call once per
 * idle period, when sending to the path resumes, with the whole count
 * (e.g. (now - last DATA sent) / RTO); calling it once per RTO instead would
 * apply "Before the first cwnd adjustment, the ssthresh ... SHOULD be set
 * to the cwnd" at every call.
 */
static inline void
sctp_cc_on_idle(struct sctp_cc_path *s, const struct sctp_cc_params *p, uint32_t rtos)
{
	sctp_cc_algos[p->algo]->on_idle(s, p, rtos);
}

/* The path's PMTU changed; pmdcs is the new PMDCS (0 is taken as 1). */
static inline void
sctp_cc_on_pmtu_change(struct sctp_cc_path *s, const struct sctp_cc_params *p, uint16_t pmdcs)
{
	sctp_cc_algos[p->algo]->on_pmtu_change(s, p, pmdcs);
}

/*
 * How much may go to this path now, with `flight` bytes outstanding on it.
 * new_data: false for retransmissions (§6.1 C, "limited by the current
 * cwnd"), true for new DATA (§6.1 D, Max.Burst applies). Ask again between
 * the two: Max.Burst's formula uses the flight size after retransmission.
 * The single packet of a fast retransmit (§7.2.4 rule 3, "SHOULD ignore the
 * value of cwnd") does not ask.
 */
static inline struct sctp_cc_window
sctp_cc_window(const struct sctp_cc_path *s, const struct sctp_cc_params *p, uint32_t flight,
	       bool new_data)
{
	return sctp_cc_algos[p->algo]->window(s, p, flight, new_data);
}

/*
 * Fast Recovery, §7.2.4 rule 6 and §6.2.1 D iv; one per association.
 * exit_tsn is meaningful while active.
 */
struct sctp_cc_recovery {
	uint32_t exit_tsn;
	bool active;
};

static inline void
sctp_cc_recovery_init(struct sctp_cc_recovery *r)
{
	r->exit_tsn = 0;
	r->active = false;
}

static inline bool
sctp_cc_recovery_active(const struct sctp_cc_recovery *r)
{
	return r->active;
}

/*
 * §7.2.4 rule 6: "If not in Fast Recovery, enter Fast Recovery and mark the
 * highest outstanding TSN as the Fast Recovery exit point." Returns true if
 * it entered, false if already in Fast Recovery (exit point kept).
 */
static inline bool
sctp_cc_recovery_enter(struct sctp_cc_recovery *r, uint32_t highest_outstanding_tsn)
{
	if (r->active)
		return false;
	r->active = true;
	r->exit_tsn = highest_outstanding_tsn;
	return true;
}

/*
 * §6.2.1 D iv: "If the Cumulative TSN Ack matches or exceeds the Fast
 * Recovery exit point ..., Fast Recovery is exited." Call for every SACK
 * accepted (not dropped by D i), before sctp_cc_on_sack(). Returns true if
 * it exited.
 */
static inline bool
sctp_cc_recovery_on_sack(struct sctp_cc_recovery *r, uint32_t cum_tsn_ack)
{
	if (!r->active || !sctp_tsn_ge(cum_tsn_ack, r->exit_tsn))
		return false;
	r->active = false;
	return true;
}

/*
 * A T3-rtx expiry ends Fast Recovery. RFC 9260 does not say; our choice,
 * as in Linux and FreeBSD: the timeout shows the recovery failed, the path
 * restarts from one PMDCS (§7.2.3), and §7.2.1 forbids slow start "in Fast
 * Recovery", which would hold cwnd at one PMDCS until the old exit point is
 * acknowledged. docs/CC.md "Fast Recovery".
 */
static inline void
sctp_cc_recovery_on_t3(struct sctp_cc_recovery *r)
{
	r->active = false;
}

#endif /* SCTP_CC_H */
