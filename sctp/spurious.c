/* SPDX-License-Identifier: BSD-3-Clause */
/* Spurious T3-rtx detection and its undo (sctp/spurious.h says why and how). */
#include "sctp/spurious.h"

#include <string.h>

#include "sctp/tsn.h"

_Static_assert(sizeof(struct sctp_spurious) <= 120, "kept small: it lives in every send state");

void
sctp_spurious_on_t3(struct sctp_spurious *s, unsigned path, const struct sctp_cc_path *cc,
		    const struct sctp_rto *rto, bool clean)
{
	if (s->state == SCTP_SPURIOUS_OPEN) {
		/*
		 * The same stall firing the timer again: keep the state from
		 * before the first; this expiry's copies are counted too.
		 */
		if (s->path == path) {
			s->tracking = true;
			return;
		}
		/* Two paths timing out: more than one stall explains; no undo. */
		s->state = SCTP_SPURIOUS_IDLE;
		return;
	}
	if (!clean)
		return;
	s->cc = *cc;
	s->rto = *rto;
	s->path = (uint8_t)path;
	s->n_slots = 0;
	s->wait_until_ns = 0;
	s->tracking = true;
	memset(s->rtx, 0, sizeof(s->rtx));
	memset(s->dup, 0, sizeof(s->dup));
	s->state = SCTP_SPURIOUS_OPEN;
}

static inline uint8_t
inc_sat(uint8_t v)
{
	return v == UINT8_MAX ? v : (uint8_t)(v + 1);
}

void
sctp_spurious_on_rtx(struct sctp_spurious *s, uint32_t tsn, uint64_t now_ns, uint64_t rto_ns)
{
	if (s->state != SCTP_SPURIOUS_OPEN || !s->tracking)
		return;
	if (s->n_slots == 0) {
		/*
		 * Retransmissions go in TSN order (§6.3.3 E3: "the earliest
		 * outstanding"), so the first one is the lowest of the episode.
		 */
		s->base = tsn;
	} else if (sctp_tsn_lt(tsn, s->base)) {
		s->state = SCTP_SPURIOUS_IDLE; /* not this episode's chunk */
		return;
	}
	uint32_t off = tsn - s->base;
	if (off >= SCTP_SPURIOUS_SLOTS) {
		s->state = SCTP_SPURIOUS_IDLE;
		return;
	}
	s->rtx[off] = inc_sat(s->rtx[off]);
	if (off + 1 > s->n_slots)
		s->n_slots = (uint8_t)(off + 1);
	/* A new copy in flight: its duplicate is still to come. */
	uint64_t until = now_ns + rto_ns + s->rto.rto_ns;
	if (until < now_ns)
		until = UINT64_MAX;
	if (until > s->wait_until_ns)
		s->wait_until_ns = until;
}

void
sctp_spurious_on_dup(struct sctp_spurious *s, uint32_t tsn)
{
	if (s->state != SCTP_SPURIOUS_OPEN || s->n_slots == 0)
		return;
	uint32_t off = tsn - s->base; /* a TSN below base wraps past the slots */
	if (off < s->n_slots)
		s->dup[off] = inc_sat(s->dup[off]);
}

enum sctp_spurious_verdict
sctp_spurious_on_sack(struct sctp_spurious *s, uint32_t cum_tsn, uint64_t now_ns)
{
	if (s->state != SCTP_SPURIOUS_OPEN || s->n_slots == 0)
		return SCTP_SPURIOUS_NONE;
	s->tracking = false; /* what goes now is the rest the expiry marked */
	/* Until every chunk retransmitted is acknowledged, a copy may still be on its way. */
	if (sctp_tsn_lt(cum_tsn, s->base + s->n_slots - 1))
		return SCTP_SPURIOUS_NONE;
	bool all = true;
	for (unsigned i = 0; i < s->n_slots && all; i++)
		all = s->dup[i] >= s->rtx[i];
	if (all) {
		s->state = SCTP_SPURIOUS_IDLE;
		return SCTP_SPURIOUS_UNDO;
	}
	if (now_ns > s->wait_until_ns) {
		s->state = SCTP_SPURIOUS_IDLE;
		return SCTP_SPURIOUS_GAVE_UP;
	}
	return SCTP_SPURIOUS_NONE;
}

void
sctp_spurious_undo(const struct sctp_spurious *s, struct sctp_cc_path *cc, struct sctp_rto *rto)
{
	uint32_t cwnd = cc->cwnd > s->cc.cwnd ? cc->cwnd : s->cc.cwnd;

	/*
	 * RFC 4015 §4 restores cwnd and ssthresh to what they were before the
	 * timeout. Slow start since may have taken cwnd higher: keep that.
	 * Max.Burst (§6.1 D) still caps what leaves at once.
	 */
	cc->ssthresh = s->cc.ssthresh;
	cc->partial_bytes_acked = s->cc.partial_bytes_acked;
	cc->cwnd = cwnd;
	cc->flags &= (uint8_t)~SCTP_CC_F_ONE_PACKET;
	/*
	 * The back-off (§6.3.3 E2) answered a loss there was not. A sample taken
	 * since has recomputed the RTO from SRTT already (the note after E3).
	 */
	if (rto->srtt_ns == s->rto.srtt_ns && rto->rttvar_ns == s->rto.rttvar_ns)
		rto->rto_ns = s->rto.rto_ns;
}
