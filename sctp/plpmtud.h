/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packetization Layer Path MTU Discovery, RFC 8899, for one path: the
 * state machine of §5.2, sans-I/O. The association (sctp/assoc_pmtu.c)
 * sends the probes (RFC 8899 §6.2: a HEARTBEAT padded with a PAD chunk,
 * RFC 4820, to the probe size), tells this module when one went, was
 * acknowledged (its HEARTBEAT ACK) or timed out, and applies the PLPMTU it
 * reports to the path. Sizes are IP packet sizes, IP header included, the
 * unit of struct sctp_path.mtu; every size is a multiple of 4, so a probe
 * fills its packet exactly (SCTP chunks are 4-byte aligned).
 *
 *              probe acked                      probe acked, size < high
 *   BASE ------------------> SEARCHING <----------------------+
 *    ^  \                   |    |   \__________________________|
 *    |   \ MAX_PROBES lost  |    | size >= high (nothing left to try)
 *    |    v                 |    v
 *    |   ERROR              |  SEARCH_COMPLETE --(PMTU_RAISE_TIMER)--> SEARCHING
 *    |  (MIN_PLPMTU,        |    |
 *    |   BASE re-probed)    |    | loss signal (T3-rtx) or PTB: probe the PLPMTU itself
 *    +----------------------+----+ MAX_PROBES of the PLPMTU lost: black hole
 *
 * Where the search starts (RFC 8899 §5.3 leaves it open): as Linux does,
 * at the interface MTU, taken as the PLPMTU at once and confirmed by one
 * probe of that size: most paths carry it, so data goes in full-sized
 * packets from the first and a path that does not is found by the failed
 * confirmation (MAX_PROBES probes) rather than by searching up from
 * BASE_PLPMTU on every path. A search (after a black hole, or when the
 * raise timer fires) tries the top size (the interface MTU, or below the
 * smallest size seen to fail) first, then climbs from the PLPMTU in big
 * steps, and after a big step fails in small ones; a small step that fails
 * ends it. A lost probe never counts against the path or the association
 * (RFC 8899 §4.4, §6.2.1): the caller keeps probes out of its error
 * counters and its congestion window.
 */
#ifndef SCTP_PLPMTUD_H
#define SCTP_PLPMTUD_H

#include <stdbool.h>
#include <stdint.h>

#include "sctp/time.h"

/* RFC 8899 §5.1.2: BASE_PLPMTU for IPv4 and IPv6 alike. */
#define SCTP_PLPMTUD_BASE_PLPMTU 1200u
/* RFC 8899 §5.1.2 MAX_PROBES. */
#define SCTP_PLPMTUD_MAX_PROBES 3u
/*
 * Search steps: 32 bytes while climbing (Linux's SCTP_PL_BIG_STEP), 4 once
 * a big step failed (one SCTP chunk alignment unit, Linux's
 * SCTP_PL_MIN_STEP): from 1200, a 1280-byte hop is found within 4 bytes
 * after two failed sizes, 1200 to 1500 in ten acknowledged probes.
 */
#define SCTP_PLPMTUD_BIG_STEP	32u
#define SCTP_PLPMTUD_SMALL_STEP 4u

enum sctp_plpmtud_state {
	SCTP_PLPMTUD_DISABLED = 0,
	SCTP_PLPMTUD_BASE,	      /* confirming BASE_PLPMTU */
	SCTP_PLPMTUD_SEARCHING,	      /* probing sizes above the PLPMTU */
	SCTP_PLPMTUD_SEARCH_COMPLETE, /* until the raise timer, or a loss signal */
	SCTP_PLPMTUD_ERROR,	      /* BASE_PLPMTU unconfirmed: MIN_PLPMTU in use */
};

struct sctp_plpmtud_params {
	uint16_t min;		 /* MIN_PLPMTU: the family's floor */
	uint16_t max;		 /* MAX_PLPMTU: the interface MTU */
	uint64_t probe_timer_ns; /* PROBE_TIMER: a probe unanswered this long is lost */
	uint64_t raise_ns;	 /* PMTU_RAISE_TIMER, from SEARCH_COMPLETE */
};

/*
 * One path's state, 40 bytes. A probe is "wanted" (probe_size != 0, not
 * out): the caller sends it at its next opportunity (sctp_plpmtud_want()),
 * then calls sctp_plpmtud_sent().
 */
struct sctp_plpmtud {
	uint8_t state;	     /* enum sctp_plpmtud_state */
	uint8_t probe_count; /* probes of probe_size lost in a row */
	uint8_t phase;	     /* search: 0 the top size, 1 big steps, 2 small steps */
	bool confirming;     /* probing the PLPMTU itself (black hole check) */
	bool out;	     /* the probe of probe_size is outstanding */
	bool confirm_next;   /* a loss signal came while a search probe was out */
	uint8_t search_lost; /* the search size's lost probes, kept across a confirmation */
	uint16_t plpmtu;     /* the size in use: the path's MTU follows it */
	uint16_t probe_size; /* 0: no probe wanted or outstanding */
	uint16_t high;	     /* largest size not known to fail */
	uint64_t nonce;	     /* the outstanding probe's (the caller's random value) */
	uint64_t probe_due;  /* the outstanding probe's deadline; SCTP_TIME_NEVER: none */
	uint64_t raise_at;   /* SEARCH_COMPLETE: when to search again; else NEVER */
};

/* What a call did to the PLPMTU (the caller applies it to the path). */
enum sctp_plpmtud_change {
	SCTP_PLPMTUD_SAME = 0,
	SCTP_PLPMTUD_LOWER,
	SCTP_PLPMTUD_HIGHER,
};

/* Round down to a multiple of 4 within [p->min, p->max]. */
uint16_t sctp_plpmtud_clamp(const struct sctp_plpmtud_params *p, uint32_t size);

/*
 * Start on a path: the PLPMTU is `start` (clamped), confirmed by a probe
 * of that size wanted now (SEARCHING, top size first).
 */
void sctp_plpmtud_start(struct sctp_plpmtud *s, const struct sctp_plpmtud_params *p,
			uint16_t start);

/* Off: nothing wanted, no deadline; the PLPMTU is left as it was. */
void sctp_plpmtud_stop(struct sctp_plpmtud *s);

/* The size of the probe to send now, 0 when none is wanted. */
static inline uint16_t
sctp_plpmtud_want(const struct sctp_plpmtud *s)
{
	return s->state != SCTP_PLPMTUD_DISABLED && !s->out ? s->probe_size : 0;
}

/*
 * The wanted probe went, with this nonce; it is lost unless acknowledged
 * within timeout_ns (the caller's PROBE_TIMER for the path: at least
 * p->probe_timer_ns).
 */
void sctp_plpmtud_sent(struct sctp_plpmtud *s, uint64_t nonce, uint64_t now_ns,
		       uint64_t timeout_ns);

/*
 * A probe's HEARTBEAT ACK: its size and nonce as our Heartbeat Info says.
 * -1 (nothing changed) unless they are the outstanding probe's; else 0
 * with *change set.
 */
int sctp_plpmtud_on_ack(struct sctp_plpmtud *s, const struct sctp_plpmtud_params *p, uint16_t size,
			uint64_t nonce, uint64_t now_ns, enum sctp_plpmtud_change *change);

/*
 * Deadlines at or before now_ns: a lost probe (counted in *lost when not
 * NULL; after MAX_PROBES of one size the size fails, and a failed PLPMTU
 * is a black hole), the raise timer. Returns the change to the PLPMTU.
 */
enum sctp_plpmtud_change sctp_plpmtud_on_timer(struct sctp_plpmtud *s,
					       const struct sctp_plpmtud_params *p, uint64_t now_ns,
					       unsigned *lost);

/*
 * A sign that packets of the PLPMTU may be disappearing (T3-rtx expired on
 * the path, RFC 8899 §4.3): the PLPMTU itself is probed, unless it is
 * being already or the state has nothing to confirm. A search probe out
 * is not abandoned: the confirmation follows once it is answered or lost
 * (answered, a larger size carried: nothing to confirm). The search then
 * goes on where it was: the probes its size lost still count towards
 * MAX_PROBES, so T3-rtx expiring every few round trips (a loaded path)
 * cannot keep a failing size probed forever.
 */
void sctp_plpmtud_on_loss(struct sctp_plpmtud *s);

/*
 * A validated ICMP PTB (RFC 8899 §4.6.2) reporting `mtu`: below the
 * PLPMTU, the PLPMTU drops to it (clamped) at once, the search is over up
 * to it (raise timer started) and the new size is confirmed by a probe;
 * otherwise nothing. Returns the change.
 */
enum sctp_plpmtud_change sctp_plpmtud_on_ptb(struct sctp_plpmtud *s,
					     const struct sctp_plpmtud_params *p, uint32_t mtu,
					     uint64_t now_ns);

/*
 * The earliest deadline; SCTP_TIME_NEVER when none (a wanted probe is not
 * one). The raise timer waits while the PLPMTU is being confirmed: it is
 * due (in the past, so at once) when the confirmation is over.
 */
static inline uint64_t
sctp_plpmtud_next(const struct sctp_plpmtud *s)
{
	if (s->out)
		return s->probe_due;
	return s->confirming ? SCTP_TIME_NEVER : s->raise_at;
}

/* "disabled", "base", "searching", "search_complete", "error"; "unknown" otherwise. */
const char *sctp_plpmtud_state_name(enum sctp_plpmtud_state st);

#endif /* SCTP_PLPMTUD_H */
