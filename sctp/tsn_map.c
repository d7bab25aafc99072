/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive-side TSN map, RFC 9260 §6.2, §6.7, §3.3.4 and RFC 3758 §3.6: see
 * tsn_map.h for the state, the ring layout and the costs.
 *
 * Positions: relative index r stands for TSN cum + 1 + r, r in [0, W); its
 * ring bit is (base + r) mod W. Invariants kept by every call:
 *   - bits of TSNs not held are 0 (so the words leaving the window at cum
 *     are clean for the TSNs entering it at cum + W);
 *   - relative 0 is never held (cum would have moved over it);
 *   - above = number of bits set, highest_off = 1 + the highest r set, both
 *     0 together; nothing is set at r >= highest_off.
 * W is a multiple of 64, so the 64 ring bits of a word are 64 consecutive
 * relative indices: every scan below handles a word (or the tail of one)
 * per step.
 */
#include <stddef.h>
#include <string.h>

#include "sctp/tsn_map.h"

_Static_assert(sizeof(struct sctp_tsn_map) <= 32, "struct sctp_tsn_map must stay 32 bytes");
_Static_assert(64u * SCTP_TSN_MAP_MAX_WORDS <= 0xffffu,
	       "window offsets must fit the 16-bit gap block fields and counters");

const char *
sctp_tsn_map_verdict_name(enum sctp_tsn_map_verdict v)
{
	switch (v) {
	case SCTP_TSN_MAP_NEW_IN_ORDER:
		return "new_in_order";
	case SCTP_TSN_MAP_NEW_OUT_OF_ORDER:
		return "new_out_of_order";
	case SCTP_TSN_MAP_DUPLICATE:
		return "duplicate";
	case SCTP_TSN_MAP_OUT_OF_WINDOW:
		return "out_of_window";
	}
	return "unknown";
}

/* The n low bits set, n in [0, 64]. */
static uint64_t
low_mask(uint32_t n)
{
	return n >= 64u ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1u;
}

/* Ring bit of relative index r, r <= W (r == W only as the new base after a full shift). */
static uint32_t
ring_pos(const struct sctp_tsn_map *m, uint32_t r)
{
	uint32_t w = 64u * m->n_words;
	uint32_t p = m->base + r;

	return p >= w ? p - w : p;
}

/* First held relative index in [r, limit), or limit. */
static uint32_t
next_held(const struct sctp_tsn_map *m, uint32_t r, uint32_t limit)
{
	while (r < limit) {
		uint32_t p = ring_pos(m, r);
		uint64_t x = m->bits[p >> 6] >> (p & 63u);

		if (x != 0) {
			r += (uint32_t)__builtin_ctzll(x);
			return r < limit ? r : limit;
		}
		r += 64u - (p & 63u);
	}
	return limit;
}

/* First relative index in [r, limit) not held, or limit. */
static uint32_t
next_missing(const struct sctp_tsn_map *m, uint32_t r, uint32_t limit)
{
	while (r < limit) {
		uint32_t p = ring_pos(m, r);
		/* Complement first: the bits shifted in at the top stay 0, i.e. "not a
		 * miss in this word", and the next word is looked at next. */
		uint64_t x = ~m->bits[p >> 6] >> (p & 63u);

		if (x != 0) {
			r += (uint32_t)__builtin_ctzll(x);
			return r < limit ? r : limit;
		}
		r += 64u - (p & 63u);
	}
	return limit;
}

/* Clear relative indices [r, r + len), r + len <= W; returns how many were held. */
static uint32_t
clear_range(struct sctp_tsn_map *m, uint32_t r, uint32_t len)
{
	uint32_t held = 0;

	while (len > 0) {
		uint32_t p = ring_pos(m, r);
		uint32_t b = p & 63u;
		uint32_t n = 64u - b < len ? 64u - b : len;
		uint64_t mask = low_mask(n) << b;
		uint64_t *word = &m->bits[p >> 6];

		held += (uint32_t)__builtin_popcountll(*word & mask);
		*word &= ~mask;
		r += n;
		len -= n;
	}
	return held;
}

/*
 * Move cum forward by k <= highest_off TSNs whose bits are already clear,
 * keeping the counters in step.
 */
static void
shift(struct sctp_tsn_map *m, uint32_t k)
{
	m->cum += k;
	m->base = (uint16_t)ring_pos(m, k);
	m->highest_off = (uint16_t)(m->highest_off - k);
}

/*
 * cum moves over the run of held TSNs right after it: per word, the count
 * of trailing ones (ctz of the complement) from the run's position, and
 * those bits cleared.
 */
static void
advance(struct sctp_tsn_map *m)
{
	uint32_t limit = m->highest_off;
	uint32_t r = 0;

	while (r < limit) {
		uint32_t p = ring_pos(m, r);
		uint32_t b = p & 63u;
		uint64_t *word = &m->bits[p >> 6];
		uint64_t x = ~(*word >> b);
		/* x has its top b bits set, so it is 0 only for a full word (b == 0). */
		uint32_t n = x == 0 ? 64u : (uint32_t)__builtin_ctzll(x);

		if (n > limit - r)
			n = limit - r;
		*word &= ~(low_mask(n) << b);
		r += n;
		if (n < 64u - b)
			break;
	}
	if (r == 0)
		return;
	m->above = (uint16_t)(m->above - r);
	shift(m, r);
}

static void
record_dup(struct sctp_tsn_map *m, uint32_t tsn)
{
	if (m->n_dups < m->max_dups)
		m->dups[m->n_dups] = tsn;
	if (m->n_dups < 0xffffu)
		m->n_dups++;
}

static unsigned
cut(unsigned v, unsigned max)
{
	return v < max ? v : max;
}

void
sctp_tsn_map_init(struct sctp_tsn_map *m, uint32_t initial_tsn, uint64_t *bits, unsigned n_words,
		  uint32_t *dups, unsigned max_dups)
{
	n_words = cut(n_words, SCTP_TSN_MAP_MAX_WORDS);
	max_dups = cut(max_dups, SCTP_TSN_MAP_MAX_DUPS);
	memset(m, 0, sizeof(*m));
	m->bits = n_words ? bits : NULL;
	m->n_words = (uint16_t)n_words;
	m->dups = max_dups ? dups : NULL;
	m->max_dups = (uint16_t)max_dups;
	m->cum = initial_tsn - 1u;
	if (n_words)
		memset(bits, 0, n_words * sizeof(*bits));
}

void
sctp_tsn_map_move(struct sctp_tsn_map *m, uint64_t *bits, uint32_t *dups)
{
	if (m->n_words != 0) {
		memmove(bits, m->bits, m->n_words * sizeof(*bits));
		m->bits = bits;
	}
	if (m->max_dups != 0) {
		memmove(dups, m->dups, m->max_dups * sizeof(*dups));
		m->dups = dups;
	}
}

enum sctp_tsn_map_verdict
sctp_tsn_map_mark_slow(struct sctp_tsn_map *m, uint32_t tsn)
{
	uint32_t k = tsn - m->cum;
	uint32_t p;

	if (k == 1u) {
		if (m->above == 0) {
			m->cum = tsn;
			return SCTP_TSN_MAP_NEW_IN_ORDER;
		}
		/* Relative 0 is clear by the invariant: step over it, then the run. */
		shift(m, 1);
		advance(m);
		return SCTP_TSN_MAP_NEW_IN_ORDER;
	}
	if (sctp_tsn_le(tsn, m->cum)) {
		record_dup(m, tsn);
		return SCTP_TSN_MAP_DUPLICATE;
	}
	if (k > 64u * m->n_words)
		return SCTP_TSN_MAP_OUT_OF_WINDOW;
	p = ring_pos(m, k - 1u);
	if ((m->bits[p >> 6] >> (p & 63u)) & 1u) {
		record_dup(m, tsn);
		return SCTP_TSN_MAP_DUPLICATE;
	}
	m->bits[p >> 6] |= (uint64_t)1 << (p & 63u);
	m->above++;
	if (k > m->highest_off)
		m->highest_off = (uint16_t)k;
	return SCTP_TSN_MAP_NEW_OUT_OF_ORDER;
}

unsigned
sctp_tsn_map_gaps(const struct sctp_tsn_map *m, struct sctp_sack_gap *out, unsigned max, bool *more)
{
	uint32_t limit = m->highest_off;
	uint32_t r = 0;
	unsigned n = 0;
	bool left = false;

	while (r < limit) {
		uint32_t s = next_held(m, r, limit);
		uint32_t e;

		if (s >= limit)
			break;
		if (n == max) {
			left = true;
			break;
		}
		e = next_missing(m, s, limit);
		/* Held relative [s, e) are TSNs cum + s + 1 .. cum + e. */
		out[n].start = (uint16_t)(s + 1u);
		out[n].end = (uint16_t)e;
		n++;
		r = e;
	}
	if (more != NULL)
		*more = left;
	return n;
}

bool
sctp_tsn_map_forward(struct sctp_tsn_map *m, uint32_t new_cum)
{
	uint32_t k;

	if (!sctp_tsn_gt(new_cum, m->cum))
		return false;
	k = new_cum - m->cum;
	if (m->above == 0) {
		m->cum = new_cum;
		return true;
	}
	if (k >= m->highest_off) {
		/* Everything held lies at or below new_cum. */
		clear_range(m, 0, m->highest_off);
		m->above = 0;
		m->highest_off = 0;
		m->cum = new_cum;
		return true;
	}
	m->above = (uint16_t)(m->above - clear_range(m, 0, k));
	shift(m, k);
	advance(m);
	return true;
}

/* n <= 64 bits from relative index r on, r + n <= highest_off. */
static uint64_t
read_bits(const struct sctp_tsn_map *m, uint32_t r, uint32_t n)
{
	uint32_t p = ring_pos(m, r);
	uint32_t b = p & 63u;
	uint32_t w = p >> 6;
	uint64_t x = m->bits[w] >> b;

	if (b != 0 && n > 64u - b) {
		uint32_t w2 = w + 1u == m->n_words ? 0 : w + 1u;

		x |= m->bits[w2] << (64u - b);
	}
	return x & low_mask(n);
}

static bool
overlaps(const void *a, size_t a_len, const void *b, size_t b_len)
{
	uintptr_t pa = (uintptr_t)a;
	uintptr_t pb = (uintptr_t)b;

	return a_len != 0 && b_len != 0 && pa < pb + b_len && pb < pa + a_len;
}

int
sctp_tsn_map_attach(struct sctp_tsn_map *m, uint64_t *bits, unsigned n_words)
{
	uint32_t limit = m->highest_off;
	unsigned i;

	n_words = cut(n_words, SCTP_TSN_MAP_MAX_WORDS);
	if (limit > 64u * n_words || (n_words != 0 && bits == NULL))
		return -1;
	if (overlaps(bits, n_words * sizeof(*bits), m->bits, m->n_words * sizeof(*m->bits)))
		return -1;
	/* Relative index r goes to bit r of the new ring: base 0. */
	for (i = 0; i < n_words; i++) {
		uint32_t r = 64u * i;

		bits[i] = r < limit ? read_bits(m, r, cut(limit - r, 64u)) : 0;
	}
	m->bits = n_words ? bits : NULL;
	m->n_words = (uint16_t)n_words;
	m->base = 0;
	return 0;
}

int
sctp_tsn_map_detach(struct sctp_tsn_map *m)
{
	if (m->above != 0)
		return -1;
	m->bits = NULL;
	m->n_words = 0;
	m->base = 0;
	return 0;
}

void
sctp_tsn_map_attach_dups(struct sctp_tsn_map *m, uint32_t *dups, unsigned max_dups)
{
	unsigned listed = cut(m->n_dups, m->max_dups);

	max_dups = cut(max_dups, SCTP_TSN_MAP_MAX_DUPS);
	/* Duplicates counted but never listed must not surface as entries of a
	 * larger array: the count drops to what was listed. */
	if (m->n_dups > m->max_dups && max_dups > m->max_dups)
		m->n_dups = m->max_dups;
	if (listed > max_dups)
		listed = max_dups;
	if (listed)
		memmove(dups, m->dups, listed * sizeof(*dups));
	m->dups = max_dups ? dups : NULL;
	m->max_dups = (uint16_t)max_dups;
}
