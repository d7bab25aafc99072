/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Verification tags that name their owning lcore (RFC 9260 §3.3.2, §8.5;
 * docs/ARCHITECTURE.md decision 1): see vtag.h for the encoding and its properties,
 * docs/DEMUX.md for how the data plane uses it.
 *
 * The mixed scheme's permutation is a balanced Feistel network on the two
 * 16-bit halves (L, R) of the plain word, 4 rounds:
 *   (L, R) -> (R, L ^ F_i(R)),  F_i(x) = bits 16..31 of ((x ^ a_i) * m_i mod 2^32)
 * with a_i and m_i (odd) from the key. A Feistel network is a permutation
 * whatever F is, and is inverted by running the rounds backwards; 4 rounds
 * are the fewest after which every output bit depends on every input bit
 * through two round functions in each direction (Luby-Rackoff: 3 rounds
 * resist forward queries, 4 resist an inverse oracle too, here the owner a
 * timing probe might reveal). F is a multiply-shift hash, not a PRF: the
 * permutation hides the owner from an observer without the key and spreads
 * forged tags evenly over the lcores, it is not a cipher, and nothing rests
 * on it beyond that (the 2^-(32 - b) guess floor holds without it).
 */
#include <errno.h>
#include <stddef.h>

#include "dataplane/vtag.h"

#define ROUNDS 4u

_Static_assert(DPSCTP_VTAG_KEY_BYTES == ROUNDS * 8u, "a xor and a multiplier word per round");

static uint32_t
round_fn(const struct dpsctp_vtag_scheme *s, unsigned i, uint32_t half)
{
	return (((half ^ s->xor_key[i]) * s->mul_key[i]) >> 16) & 0xffffu;
}

static uint32_t
mix(const struct dpsctp_vtag_scheme *s, uint32_t x)
{
	uint32_t l = x >> 16;
	uint32_t r = x & 0xffffu;

	for (unsigned i = 0; i < ROUNDS; i++) {
		uint32_t t = l ^ round_fn(s, i, r);
		l = r;
		r = t;
	}
	return l << 16 | r;
}

static uint32_t
unmix(const struct dpsctp_vtag_scheme *s, uint32_t y)
{
	uint32_t l = y >> 16;
	uint32_t r = y & 0xffffu;

	for (unsigned i = ROUNDS; i-- > 0;) {
		uint32_t t = r ^ round_fn(s, i, l);
		r = l;
		l = t;
	}
	return l << 16 | r;
}

static uint32_t
load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int
dpsctp_vtag_scheme_init(struct dpsctp_vtag_scheme *s, unsigned lcore_bits, unsigned n_lcores,
			const uint8_t *key)
{
	if (lcore_bits > DPSCTP_VTAG_MAX_LCORE_BITS || n_lcores == 0 ||
	    n_lcores > (1u << lcore_bits))
		return -EINVAL;
	s->lcore_bits = (uint8_t)lcore_bits;
	s->n_lcores = (uint16_t)n_lcores;
	s->mixed = key != NULL;
	for (unsigned i = 0; i < ROUNDS; i++) {
		s->xor_key[i] = key != NULL ? load_le32(key + 8u * i) : 0;
		s->mul_key[i] = key != NULL ? load_le32(key + 8u * i + 4u) | 1u : 1u;
	}
	return 0;
}

static uint32_t
encode(const struct dpsctp_vtag_scheme *s, uint32_t plain)
{
	return s->mixed ? mix(s, plain) : plain;
}

uint32_t
dpsctp_vtag_make(const struct dpsctp_vtag_scheme *s, unsigned lcore_index, uint32_t random32)
{
	uint32_t plain;
	uint32_t tag;

	if (lcore_index >= s->n_lcores)
		return 0;
	if (s->lcore_bits == 0)
		plain = random32;
	else
		plain = (uint32_t)lcore_index << (32u - s->lcore_bits) |
			(random32 & (UINT32_MAX >> s->lcore_bits));
	tag = encode(s, plain);
	if (tag == 0)
		tag = encode(s, plain ^ 1u); /* a permutation: not 0 again, same owner */
	return tag;
}

uint32_t
dpsctp_vtag_plain(const struct dpsctp_vtag_scheme *s, uint32_t vtag)
{
	return s->mixed ? unmix(s, vtag) : vtag;
}

int
dpsctp_vtag_owner(const struct dpsctp_vtag_scheme *s, uint32_t vtag)
{
	unsigned owner;

	if (vtag == 0)
		return -EINVAL;
	if (s->lcore_bits == 0)
		return 0;
	owner = dpsctp_vtag_plain(s, vtag) >> (32u - s->lcore_bits);
	return owner < s->n_lcores ? (int)owner : -ENOENT;
}

unsigned
dpsctp_vtag_entropy_bits(const struct dpsctp_vtag_scheme *s)
{
	return 32u - s->lcore_bits;
}
