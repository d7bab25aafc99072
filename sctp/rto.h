/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The retransmission-timeout estimator of one destination transport address,
 * RFC 9260 §6.3.1, and its back-off on expiry, §6.3.3 E2. Integer
 * nanoseconds throughout; RTO.Alpha and RTO.Beta are the profile's shifts.
 *
 *   C1  no sample yet:   RTO = RTO.Initial
 *   C2  first sample R:  SRTT = R, RTTVAR = R / 2
 *   C3  next sample R:   RTTVAR = (1 - Beta) * RTTVAR + Beta * |SRTT - R|
 *                        SRTT   = (1 - Alpha) * SRTT + Alpha * R
 *                        (RTTVAR first, with the old SRTT)
 *   G1  RTTVAR computed as 0 becomes G, the clock granularity
 *       then             RTO = SRTT + 4 * RTTVAR
 *   C6  RTO below RTO.Min becomes RTO.Min
 *   C7  RTO above RTO.Max becomes RTO.Max
 *   E2  on T3-rtx (or heartbeat) expiry: RTO = min(2 * RTO, RTO.Max)
 *
 * Each weighted average is computed as one multiply-add and one shift, e.g.
 * SRTT = ((2^a - 1) * SRTT + R) >> a, so it rounds down once. A sample
 * longer than RTO.Max is taken as RTO.Max: the RTO could not exceed that
 * value anyway (C7), and the clamp bounds every intermediate below 2^51 for
 * any profile sctp_profile_check() accepts (RTO.Max at most one hour, below
 * 2^42 ns; shifts at most 8), so nothing here can overflow whatever the
 * caller passes as a sample.
 *
 * Karn's rule (RFC 9260 §6.3.1 C5) is the CALLER's: take samples only from
 * chunks that were never retransmitted (a SACK for a retransmitted TSN is
 * ambiguous), from a HEARTBEAT ACK whose nonce matched (sctp/path.h), and
 * at most once per round trip (C4). The estimator cannot tell; it trusts
 * every sample it is given.
 *
 * After a back-off, the next sample recomputes RTO from SRTT and RTTVAR, so
 * the doubled value collapses back (RFC 9260 §6.3.3, note after E3).
 */
#ifndef SCTP_RTO_H
#define SCTP_RTO_H

#include <stdbool.h>
#include <stdint.h>

#include "sctp/profile.h"

/*
 * Invariant: rttvar_ns == 0 exactly when no sample has been taken, because
 * G1 lifts a computed 0 to G, and G >= 1 in a checked profile.
 */
struct sctp_rto {
	uint64_t rto_ns;    /* the current RTO, back-off included */
	uint64_t srtt_ns;   /* smoothed RTT; 0 before the first sample */
	uint64_t rttvar_ns; /* RTT variation; 0 before the first sample */
};

/* C1: no measurement, RTO = RTO.Initial. */
void sctp_rto_init(struct sctp_rto *r, const struct sctp_profile *p);

/* C2 or C3 with G1, C6 and C7 for one RTT sample of rtt_ns (any value). */
void sctp_rto_sample(struct sctp_rto *r, const struct sctp_profile *p, uint64_t rtt_ns);

/* E2: double the RTO, capped at RTO.Max. SRTT and RTTVAR are kept. */
void sctp_rto_backoff(struct sctp_rto *r, const struct sctp_profile *p);

/* Whether at least one sample has been taken (C2 has run). */
static inline bool
sctp_rto_measured(const struct sctp_rto *r)
{
	return r->rttvar_ns != 0;
}

#endif /* SCTP_RTO_H */
