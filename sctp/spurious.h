/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Spurious T3-rtx detection: telling a retransmission timeout that a
 * stall caused from one that a loss caused, and undoing what the stall
 * cost. RFC 3708 §3-§4 (Experimental) for SCTP's Duplicate TSN reports,
 * the response after RFC 4015 (the Eifel response, written for TCP).
 *
 * Why: a data plane polled by one thread per core is only as prompt as
 * that thread. When the peer's thread is descheduled for longer than our
 * RTO (a shared vCPU, a page fault, a co-tenant), T3-rtx expires although
 * nothing was lost: §7.2.3 drops cwnd to one PMDCS, §6.3.3 E2 doubles the
 * RTO, §8.2 counts a path error (with RFC 7829's threshold 0, the path goes
 * POTENTIALLY FAILED). docs/PERFORMANCE.md measured it: every retransmission
 * of the loopback demo on a lossless link was such an expiry, and each went
 * with a poll gap of the receiver longer than RTO.Min.
 *
 * How it is told. The peer lists in its next SACK every TSN it received
 * twice (RFC 9260 §6.2 "The duplicate TSN number(s) SHOULD be reported in
 * the SACK chunk as duplicate"). If the original of a chunk arrived, each of
 * its retransmissions arrives as a duplicate; if the original was lost, the
 * first copy to arrive is not one. The expiry was spurious when every copy
 * the expiry itself sent (the packet the one-packet rule lets go, §7.2.3,
 * until a SACK arrives) comes back as a duplicate: per TSN, duplicates
 * reported >= times retransmitted. Counting per TSN (not in total) keeps a
 * chunk retransmitted twice after a real loss (one duplicate) from passing;
 * a chunk the network duplicated can only add a duplicate to a TSN whose
 * original arrived anyway. The copies sent after a SACK came are the rest
 * of what the expiry marked, resent as the window reopens while the
 * receiver works through the originals (after a stall, hundreds of 64-byte
 * chunks): they follow from the verdict on the first packet, as in the
 * Eifel algorithm (RFC 3522), which judges by the first retransmission.
 *
 * An episode starts at a T3-rtx expiry and collects while only that path's
 * timer expires (a long stall fires it several times, each retransmitting
 * the same first packet). It is dropped, and nothing is undone, when:
 *   - a fast retransmit happens (a real loss signal),
 *   - T3-rtx expires on another path,
 *   - a chunk it retransmits is SCTP_SPURIOUS_SLOTS or more TSNs past the
 *     first (more is being resent than a stall explains),
 *   - a chunk retransmitted before the episode is still outstanding when
 *     it starts (its duplicates could not be told from this episode's),
 *   - every chunk it retransmitted is cumulatively acknowledged, and the
 *     duplicates are not all in by the time the last copy's would have come
 *     back: its T3-rtx interval plus the RTO from before the episode (the
 *     peer does not report them, or a SACK carrying them was lost). A stall
 *     ends before the timer that would send the next copy, and the peer
 *     answers a packet of duplicates at once (RFC 9260 §6.2), so a stall's
 *     duplicates come back within that time; SACKs of the originals, which
 *     keep arriving meanwhile, do not count against it.
 * A peer that lists no duplicates never gets an undo: the detection can
 * only err towards the RFC's own behaviour.
 *
 * The response: the path's congestion state goes back to what it was
 * before the first expiry (cwnd at least that, ssthresh and
 * partial_bytes_acked as they were: RFC 4015 §4 restores ssthresh and
 * cwnd), and its RTO back to its value before the back-off if no RTT sample
 * came since. The path and association error counters need no undo: the
 * acknowledgement of the originals cleared them (§8.1, §8.2), and took a
 * POTENTIALLY FAILED path back (RFC 7829). What cannot be undone is counted:
 * the chunks sent twice.
 *
 * F-RTO (RFC 5682 §2.1, Experimental) is the second detector, and the one
 * that saves the copies. The duplicates prove a stall only after the
 * originals and the expiry's own packet have reached the peer; until then,
 * every SACK of the originals reopens the window and the rest of what the
 * expiry marked goes again, go-back-N. F-RTO judges earlier, from the
 * Cumulative TSN Ack alone, by sending new data instead of the rest:
 *   step 1  the expiry's one packet goes (phase RTX);
 *   step 2  the first SACK after it: if it advances the Cumulative TSN Ack
 *           Point but not to the highest TSN sent at the expiry ("recover")
 *           and there is new data to send, the chunks still marked are held
 *           and new data goes in their place (phase NEW); anything else
 *           ends F-RTO and the recovery is RFC 9260's;
 *   step 3  the next SACK that moves the Cumulative TSN Ack Point: past
 *           the last TSN the expiry retransmitted, it acknowledges an
 *           original that never went twice, so the originals were in flight
 *           all along: spurious. The held chunks go back in flight
 *           (sctp_rtxq_unmark_t3()) and the response below applies. A SACK
 *           that moves it nowhere and reports no duplicate was sent for
 *           data that arrived above a hole (the new data, past held chunks
 *           that are missing): a loss, and the held chunks go now.
 * SCTP adaptations of the TCP text: the retransmission in step 1 is one
 * packet of several chunks, which arrives whole or not at all, so a SACK
 * acknowledging part of it acknowledges originals; and a SACK that
 * only reports duplicates (the expiry's copy arriving after its original)
 * is evidence for a stall, not against it, so it is let pass in steps 2
 * and 3. A hold never outlives what could answer it: with nothing in
 * flight after the flush (no new data could go), the held chunks go at
 * once; a further T3-rtx expiry, a fast retransmit, or the episode ending
 * any other way releases them too.
 *
 * Sans-I/O, O(1) per call except the check after a SACK (the slots) and
 * the duplicates of a SACK (one look each). 128 bytes, inside the
 * association's send state.
 */
#ifndef SCTP_SPURIOUS_H
#define SCTP_SPURIOUS_H

#include <stdbool.h>
#include <stdint.h>

#include "sctp/cc.h"
#include "sctp/rto.h"

/* TSNs an episode can follow from its first retransmitted chunk. */
#define SCTP_SPURIOUS_SLOTS 32u

enum sctp_spurious_state {
	SCTP_SPURIOUS_IDLE = 0, /* no episode */
	SCTP_SPURIOUS_OPEN,	/* collecting: retransmissions and their duplicates */
};

/* Where F-RTO stands in an open episode. */
enum sctp_frto_phase {
	SCTP_FRTO_OFF = 0, /* not running: the recovery is RFC 9260's */
	SCTP_FRTO_RTX,	   /* step 1: waiting for the first SACK after the expiry's packet */
	SCTP_FRTO_NEW,	   /* step 2b: marked chunks held, new data sent; waiting for step 3 */
};

struct sctp_spurious {
	struct sctp_cc_path cc; /* the path's congestion state before the first expiry */
	struct sctp_rto rto;	/* its RTO estimator before the first back-off */
	uint32_t base;		/* TSN of slot 0: the first chunk retransmitted */
	uint8_t state;		/* enum sctp_spurious_state */
	uint8_t path;		/* the path whose T3-rtx expired */
	uint8_t n_slots;	/* 0 until a chunk is retransmitted; then highest offset + 1 */
	bool tracking;		/* copies sent now are the expiry's own: counted in the slots */
	uint64_t wait_until_ns; /* the last copy's duplicate is due by then */
	uint32_t recover;	/* F-RTO: the highest TSN sent when the episode opened */
	uint8_t frto;		/* enum sctp_frto_phase */
	uint8_t rtx[SCTP_SPURIOUS_SLOTS]; /* retransmissions of base + i, saturating */
	uint8_t dup[SCTP_SPURIOUS_SLOTS]; /* duplicates of base + i reported, saturating */
};

/* What sctp_spurious_on_sack() decided. */
enum sctp_spurious_verdict {
	SCTP_SPURIOUS_NONE = 0, /* no episode, or still collecting */
	SCTP_SPURIOUS_UNDO,	/* the episode was spurious: apply sctp_spurious_undo() */
	SCTP_SPURIOUS_GAVE_UP,	/* the episode ended without proof; nothing to undo */
};

static inline void
sctp_spurious_init(struct sctp_spurious *s)
{
	s->state = SCTP_SPURIOUS_IDLE;
}

static inline bool
sctp_spurious_open(const struct sctp_spurious *s)
{
	return s->state == SCTP_SPURIOUS_OPEN;
}

/*
 * T3-rtx expired on `path`; cc and rto are the path's state BEFORE this
 * expiry's cwnd cut and back-off. clean: no chunk retransmitted before is
 * outstanding (the retransmission queue's Karn fence is at or below its
 * Cumulative TSN Ack Point); highest: the highest TSN sent. Opens an
 * episode (F-RTO at step 1), continues the one open on the same path (an
 * expiry after F-RTO's step 2 ends F-RTO: RFC 5682 §2.1 counts one timeout),
 * or drops one open on another path.
 */
void sctp_spurious_on_t3(struct sctp_spurious *s, unsigned path, const struct sctp_cc_path *cc,
			 const struct sctp_rto *rto, bool clean, uint32_t highest);

/* Fast retransmit (or anything else that marks chunks): the episode is dropped. */
static inline void
sctp_spurious_cancel(struct sctp_spurious *s)
{
	s->state = SCTP_SPURIOUS_IDLE;
}

/*
 * A chunk with this TSN was retransmitted at now_ns while the episode is
 * open; rto_ns: the path's RTO now (the T3-rtx the copy runs under).
 * Counted while the expiry's own copies go (from the expiry to the first
 * SACK after a copy), ignored after that.
 */
void sctp_spurious_on_rtx(struct sctp_spurious *s, uint32_t tsn, uint64_t now_ns, uint64_t rto_ns);

/* One Duplicate TSN of a SACK accepted while the episode is open. */
void sctp_spurious_on_dup(struct sctp_spurious *s, uint32_t tsn);

/* What sctp_frto_on_sack() decided. */
enum sctp_frto_verdict {
	SCTP_FRTO_NONE = 0, /* nothing changed, or F-RTO ended (the recovery is RFC 9260's) */
	SCTP_FRTO_HOLD,	    /* step 2b: hold the marked chunks, send new data */
	SCTP_FRTO_SPURIOUS, /* step 3: spurious; unmark the held chunks, apply the undo */
	SCTP_FRTO_LOSS,	    /* step 3: a loss; the held chunks go now */
};

/* F-RTO's step 2b: the chunks still marked wait instead of going again. */
static inline bool
sctp_frto_holding(const struct sctp_spurious *s)
{
	return s->state == SCTP_SPURIOUS_OPEN && s->frto == SCTP_FRTO_NEW;
}

/* End F-RTO (nothing in flight could bring step 3's SACK): what it held goes. */
static inline void
sctp_frto_release(struct sctp_spurious *s)
{
	s->frto = SCTP_FRTO_OFF;
}

/*
 * F-RTO's steps 2 and 3 for a SACK accepted while the episode is open,
 * before sctp_spurious_on_sack(): cum_tsn the Cumulative TSN Ack Point it
 * left, advanced whether it moved it, dups whether it reported duplicate
 * TSNs, can_send_new whether new data is queued and the peer's window has
 * room for some. SPURIOUS ends the episode (the state is IDLE after it).
 */
enum sctp_frto_verdict sctp_frto_on_sack(struct sctp_spurious *s, uint32_t cum_tsn, bool advanced,
					 bool dups, bool can_send_new);

/*
 * After a SACK accepted (its duplicates given to sctp_spurious_on_dup()),
 * with the Cumulative TSN Ack Point it left. UNDO and GAVE_UP end the
 * episode (the state is IDLE after them).
 */
enum sctp_spurious_verdict sctp_spurious_on_sack(struct sctp_spurious *s, uint32_t cum_tsn,
						 uint64_t now_ns);

/*
 * The response to UNDO, on the path's state now: cwnd back to at least its
 * value before the episode, ssthresh and partial_bytes_acked as they were,
 * one-packet rule off; the RTO as before the back-off unless an RTT sample
 * was taken since (SRTT or RTTVAR moved).
 */
void sctp_spurious_undo(const struct sctp_spurious *s, struct sctp_cc_path *cc,
			struct sctp_rto *rto);

#endif
