/* SPDX-License-Identifier: BSD-3-Clause */
/* Spurious T3-rtx detection and its undo (sctp/spurious.h says why and how). */
#include "sctp/spurious.h"

#include <string.h>

#include "sctp/tsn.h"

_Static_assert(sizeof(struct sctp_spurious) <= 128, "kept small: it lives in every send state");

void
sctp_spurious_on_t3(struct sctp_spurious *s, unsigned path, const struct sctp_cc_path *cc,
		    const struct sctp_rto *rto, bool clean, uint32_t highest)
{
	if (s->state == SCTP_SPURIOUS_OPEN) {
		/*
		 * The same stall firing the timer again: keep the state from
		 * before the first; this expiry's copies are counted too. F-RTO
		 * waits through repeated expiries at step 1 (no SACK came at
		 * all); after step 2 an expiry means what it held and what it
		 * sent are both unanswered: RFC 9260's recovery from here.
		 */
		if (s->path == path) {
			s->tracking = true;
			if (s->frto != SCTP_FRTO_RTX)
				s->frto = SCTP_FRTO_OFF;
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
	s->recover = highest;
	s->frto = SCTP_FRTO_RTX;
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

enum sctp_frto_verdict
sctp_frto_on_sack(struct sctp_spurious *s, uint32_t cum_tsn, bool advanced, bool dups,
		  bool can_send_new)
{
	/* Step 1 is the expiry's packet: a SACK before it went answers nothing of it. */
	if (s->state != SCTP_SPURIOUS_OPEN || s->frto == SCTP_FRTO_OFF || s->n_slots == 0)
		return SCTP_FRTO_NONE;
	if (!advanced) {
		/*
		 * Duplicates only: the expiry's copy arrived after its original,
		 * which is what a stall looks like; wait for the next SACK.
		 * Otherwise the peer answered data above a hole (2a, 3a).
		 */
		if (dups)
			return SCTP_FRTO_NONE;
		enum sctp_frto_phase was = (enum sctp_frto_phase)s->frto;
		s->frto = SCTP_FRTO_OFF;
		return was == SCTP_FRTO_NEW ? SCTP_FRTO_LOSS : SCTP_FRTO_NONE;
	}
	if (s->frto == SCTP_FRTO_RTX) {
		/*
		 * 2b: part of the window acknowledged, and something new to send
		 * in place of the rest. 2a otherwise: all up to recover is
		 * acknowledged (nothing is left marked), or nothing new would
		 * bring step 3's SACK.
		 */
		if (sctp_tsn_lt(cum_tsn, s->recover) && can_send_new) {
			s->frto = SCTP_FRTO_NEW;
			return SCTP_FRTO_HOLD;
		}
		s->frto = SCTP_FRTO_OFF;
		return SCTP_FRTO_NONE;
	}
	/*
	 * 3b: an original the expiry never sent again is acknowledged. Up to
	 * the last TSN it retransmitted, the SACK may answer that packet:
	 * ambiguous, wait for the next.
	 */
	if (!sctp_tsn_gt(cum_tsn, s->base + s->n_slots - 1))
		return SCTP_FRTO_NONE;
	s->frto = SCTP_FRTO_OFF;
	s->state = SCTP_SPURIOUS_IDLE;
	return SCTP_FRTO_SPURIOUS;
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
