/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive-side TSN map: which of the peer's TSNs we hold, for the
 * cumulative TSN ack, the Gap Ack Blocks and the Duplicate TSNs of a SACK
 * (RFC 9260 §6.2, §6.7, §3.3.4) and for FORWARD TSN (RFC 3758 §3.6).
 *
 * State:
 *   cum          the peer's cumulative TSN ("Last Rcvd TSN", RFC 9260
 *                §14.2): every TSN up to it was received (or skipped by
 *                FORWARD TSN), cum + 1 was not. Starts at the peer's Initial
 *                TSN - 1.
 *   bitmap       ("Mapping Array", §14.2) one bit per TSN cum+1 .. cum+W,
 *                set when received; W = 64 * n_words is the window. Bits of
 *                TSNs not received are 0, and the bit of cum + 1 is always 0
 *                (else cum would have moved over it).
 *   highest      the highest TSN received, cum when nothing is held above.
 *   above        how many TSNs above cum are held (popcount of the bitmap),
 *                for a_rwnd accounting: no gaps <=> above == 0.
 *   dups         the duplicate TSNs seen since the last SACK, in arrival
 *                order, one entry per duplicate arrival (§3.3.4: a TSN
 *                received three times is listed twice); beyond max_dups they
 *                are counted but not listed, so that SACK lists fewer than
 *                were seen: a SACK has to fit one packet anyway, and the
 *                sender reads the list only as a hint (RFC 3708).
 *
 * Storage is the caller's: the bitmap words and the duplicate array are
 * handed in at init and may be replaced later (sctp_tsn_map_attach(),
 * sctp_tsn_map_attach_dups()); the struct itself is 32 bytes (asserted in
 * tsn_map.c), so an idle association pays for two pointers and a few
 * counters. With n_words 0 only the next in-sequence TSN is accepted; the
 * data plane attaches a bitmap once a TSN arrives out of order and may
 * detach it when the gaps are filled.
 *
 * The bitmap is a ring: bit (base + k - 1) mod W stands for TSN cum + k.
 * Advancing cum moves base instead of shifting the words, and clears the
 * bits it passes so they are free for the TSNs that enter the window at the
 * far end. While above == 0 every bit is 0, so base is meaningless and the
 * in-sequence fast path only stores cum. W is a multiple of 64, so a word
 * never straddles the ring's seam and every scan (advancing cum, gap
 * blocks, forward TSN, attach) goes a 64-bit word at a time with ctz /
 * popcount: advancing cum over a run of n held TSNs costs about n/64 + 1
 * word operations, building the gap blocks about (highest - cum)/64 + 2 per
 * block.
 *
 * Serial arithmetic (RFC 9260 §1.6, sctp/tsn.h) throughout: the map works
 * across the 2^32 wrap. A TSN exactly 2^31 from cum is neither behind nor
 * ahead and is OUT_OF_WINDOW.
 *
 * Peer input (a TSN) is never a precondition: every TSN gets a verdict.
 */
#ifndef SCTP_TSN_MAP_H
#define SCTP_TSN_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "sctp/chunk_sack.h"
#include "sctp/tsn.h"

/*
 * Most bitmap words used: 1023 words = 65472 TSNs, so every offset from cum
 * into the window fits the 16-bit Gap Ack Block fields of RFC 9260 §3.3.4
 * (and the struct's 16-bit counters). More storage than that is left unused.
 * For scale: a 4 MiB receive window of 1452-byte chunks is 2889 TSNs, 46
 * words; of 64-byte messages bundled 20 to a packet, 65536 TSNs.
 */
#define SCTP_TSN_MAP_MAX_WORDS 1023u
#define SCTP_TSN_MAP_MAX_DUPS  0xffffu /* larger dup arrays are used up to this */

enum sctp_tsn_map_verdict {
	SCTP_TSN_MAP_NEW_IN_ORDER = 0, /* tsn == cum + 1: marking advances cum */
	SCTP_TSN_MAP_NEW_OUT_OF_ORDER, /* in cum+2 .. cum+W, not held: marking opens or extends a
					  gap */
	SCTP_TSN_MAP_DUPLICATE,	       /* at or behind cum, or already held (§6.2: report it) */
	SCTP_TSN_MAP_OUT_OF_WINDOW,    /* beyond cum + W (or 2^31 away): no room to record it;
					  the caller drops the chunk and counts it, the peer
					  retransmits it (§6.2) */
};

struct sctp_tsn_map {
	uint64_t *bits;	      /* n_words ring words, see above; NULL when n_words == 0 */
	uint32_t *dups;	      /* max_dups entries; may be NULL when max_dups == 0 */
	uint32_t cum;	      /* cumulative TSN */
	uint16_t base;	      /* ring bit of TSN cum + 1 (meaningful while above > 0) */
	uint16_t n_words;     /* window W = 64 * n_words TSNs above cum */
	uint16_t above;	      /* TSNs held above cum */
	uint16_t highest_off; /* highest received - cum; 0 <=> above == 0 */
	uint16_t n_dups;      /* duplicates since the last SACK, saturating at 0xffff */
	uint16_t max_dups;    /* entries of dups; the first max_dups duplicates are listed */
};

/*
 * The map's bitmap and duplicate list move to new storage of the same sizes
 * (their contents copied): the caller's block was reallocated. Nothing
 * else changes.
 */
void sctp_tsn_map_move(struct sctp_tsn_map *m, uint64_t *bits, uint32_t *dups);

/* "new_in_order", "new_out_of_order", "duplicate", "out_of_window"; "unknown" otherwise. */
const char *sctp_tsn_map_verdict_name(enum sctp_tsn_map_verdict v);

/*
 * Start from the peer's Initial TSN (INIT or INIT ACK, RFC 9260 §5.1): cum =
 * initial_tsn - 1, nothing held, no duplicates. The n_words bitmap words are
 * zeroed (n_words stores); n_words above SCTP_TSN_MAP_MAX_WORDS and max_dups
 * above SCTP_TSN_MAP_MAX_DUPS are cut to those. bits may be NULL when n_words
 * is 0, dups when max_dups is 0.
 */
void sctp_tsn_map_init(struct sctp_tsn_map *m, uint32_t initial_tsn, uint64_t *bits,
		       unsigned n_words, uint32_t *dups, unsigned max_dups);

/* TSNs accepted above cum: W, but at least 1 (cum + 1 needs no bitmap). */
static inline uint32_t
sctp_tsn_map_window(const struct sctp_tsn_map *m)
{
	return m->n_words ? 64u * m->n_words : 1u;
}

/* For sctp_tsn_map_check(): whether TSN cum + k is held, 2 <= k <= W. */
static inline bool
sctp_tsn_map_held_bit(const struct sctp_tsn_map *m, uint32_t k)
{
	uint32_t p = m->base + k - 1u;

	if (p >= 64u * m->n_words)
		p -= 64u * m->n_words;
	return (m->bits[p >> 6] >> (p & 63u)) & 1u;
}

/*
 * What marking tsn would do, without changing anything, so the association
 * can first make sure reassembly has room for a NEW chunk and only then mark
 * it (a TSN dropped for lack of room must not be acknowledged, §6.2). A
 * handful of instructions for the in-sequence case; one bit test otherwise.
 */
static inline enum sctp_tsn_map_verdict
sctp_tsn_map_check(const struct sctp_tsn_map *m, uint32_t tsn)
{
	uint32_t k = tsn - m->cum;

	if (k == 1u)
		return SCTP_TSN_MAP_NEW_IN_ORDER;
	if (sctp_tsn_le(tsn, m->cum))
		return SCTP_TSN_MAP_DUPLICATE;
	if (k > 64u * m->n_words)
		return SCTP_TSN_MAP_OUT_OF_WINDOW;
	return sctp_tsn_map_held_bit(m, k) ? SCTP_TSN_MAP_DUPLICATE : SCTP_TSN_MAP_NEW_OUT_OF_ORDER;
}

/* sctp_tsn_map_mark() for everything but the in-sequence, no-gap case. */
enum sctp_tsn_map_verdict sctp_tsn_map_mark_slow(struct sctp_tsn_map *m, uint32_t tsn);

/*
 * Record tsn and return the verdict sctp_tsn_map_check() gives for it:
 *   NEW_IN_ORDER      cum moves to tsn, then on over every TSN held right
 *                     after it (word at a time);
 *   NEW_OUT_OF_ORDER  tsn is held; highest and above grow;
 *   DUPLICATE         tsn is appended to the duplicate list (or only counted
 *                     once the list is full) — the duplicate is recorded here,
 *                     by mark, so the caller calls mark for every DATA chunk
 *                     it does not drop for lack of room;
 *   OUT_OF_WINDOW     nothing changes.
 * Any TSN is valid input. tsn == cum + 1 with nothing held above is the fast
 * path: a compare, a test and a store.
 */
static inline enum sctp_tsn_map_verdict
sctp_tsn_map_mark(struct sctp_tsn_map *m, uint32_t tsn)
{
	if (tsn - m->cum == 1u && m->above == 0) {
		m->cum = tsn;
		return SCTP_TSN_MAP_NEW_IN_ORDER;
	}
	return sctp_tsn_map_mark_slow(m, tsn);
}

/* The cumulative TSN ack of our next SACK. */
static inline uint32_t
sctp_tsn_map_cum(const struct sctp_tsn_map *m)
{
	return m->cum;
}

/* Highest TSN received; cum when nothing is held above it. */
static inline uint32_t
sctp_tsn_map_highest(const struct sctp_tsn_map *m)
{
	return m->cum + m->highest_off;
}

/* Whether a TSN above cum is held, i.e. the next SACK has a Gap Ack Block (§6.7). */
static inline bool
sctp_tsn_map_has_gaps(const struct sctp_tsn_map *m)
{
	return m->above != 0;
}

/* TSNs held above cum: received, not yet covered by the cumulative ack (a_rwnd accounting). */
static inline unsigned
sctp_tsn_map_above(const struct sctp_tsn_map *m)
{
	return m->above;
}

/*
 * Gap Ack Blocks for a SACK (RFC 9260 §3.3.4): each run of held TSNs above
 * cum as {start, end} offsets from cum (TSN cum + start .. cum + end), lowest
 * TSNs first, at most max of them into out. Returns how many were written;
 * *more (may be NULL) says whether further blocks were left out. Offsets fit
 * 16 bits because the window does (SCTP_TSN_MAP_MAX_WORDS). Cost: one word
 * operation per 64 TSNs between cum and the last block reported, plus two
 * per block.
 */
unsigned sctp_tsn_map_gaps(const struct sctp_tsn_map *m, struct sctp_sack_gap *out, unsigned max,
			   bool *more);

/*
 * The duplicate TSNs to report: *list gets the array (arrival order) and the
 * return value is how many of its entries are valid, min(seen, max_dups).
 */
static inline unsigned
sctp_tsn_map_dups(const struct sctp_tsn_map *m, const uint32_t **list)
{
	*list = m->dups;
	return m->n_dups < m->max_dups ? m->n_dups : m->max_dups;
}

/* Duplicates seen since the last SACK, listed or not (saturates at 0xffff). */
static inline unsigned
sctp_tsn_map_dups_seen(const struct sctp_tsn_map *m)
{
	return m->n_dups;
}

/* A SACK carrying the duplicate list went out: §3.3.4, the count restarts at zero. */
static inline void
sctp_tsn_map_clear_dups(struct sctp_tsn_map *m)
{
	m->n_dups = 0;
}

/*
 * FORWARD TSN (RFC 3758 §3.6): the peer abandoned every TSN up to new_cum.
 * If new_cum is ahead of cum (serial arithmetic), cum moves to it, the bits
 * of TSNs at or below it are cleared (those held leave `above`), and cum
 * then moves on over the TSNs held right after new_cum. A new_cum beyond
 * the window works too: everything held below it is dropped. A new_cum at or
 * behind cum (a stale or duplicate FORWARD TSN) changes nothing. Returns
 * whether cum moved. Cost: (min(new_cum, highest) - cum)/64 + 1 word
 * operations, plus the advance.
 */
bool sctp_tsn_map_forward(struct sctp_tsn_map *m, uint32_t new_cum);

/*
 * Move the bitmap to new storage of n_words words (0 with bits NULL: no
 * bitmap), keeping what is held. The new words are written in full (n_words
 * stores) and must not overlap the old ones; the old storage is the caller's
 * again on success. Fails (-1, nothing changed) when what is held does not
 * fit the new window (highest - cum > 64 * n_words) or the storage overlaps.
 * Returns 0 on success. n_words above SCTP_TSN_MAP_MAX_WORDS is cut.
 */
int sctp_tsn_map_attach(struct sctp_tsn_map *m, uint64_t *bits, unsigned n_words);

/*
 * Give the bitmap storage back when nothing is held above cum: n_words
 * becomes 0 (only cum + 1 accepted until the next attach). Returns 0, or -1
 * (nothing changed) while gaps remain.
 */
int sctp_tsn_map_detach(struct sctp_tsn_map *m);

/*
 * Move the duplicate list to dups[max_dups] (may be NULL with 0), keeping
 * the listed entries that fit; the count of duplicates seen is kept.
 * The arrays must not overlap.
 */
void sctp_tsn_map_attach_dups(struct sctp_tsn_map *m, uint32_t *dups, unsigned max_dups);

#endif /* SCTP_TSN_MAP_H */
