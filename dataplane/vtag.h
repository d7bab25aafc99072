/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Our verification tags name the lcore that owns the association
 * (docs/ARCHITECTURE.md decision 1, docs/DEMUX.md): the Initiate Tag we put in an INIT
 * or INIT ACK (RFC 9260 §3.3.2, §3.3.3) is made here from the owner's
 * index and 32 random bits, and every later packet of the association
 * carries it in its common header (RFC 9260 §8.5), so whichever lcore
 * receives a packet learns the owner from the tag alone, in O(1), without a
 * shared table.
 *
 * Encoding. The plain word is (owner << (32 - b)) | r: b owner bits on top
 * (0 to 8; 6 for 64 lcores) and 32 - b random bits r from the caller's
 * random32. The tag is the plain word itself ("clear" scheme) or its image
 * under a keyed permutation of the 32-bit space ("mixed" scheme: a 4-round
 * Feistel network on 16-bit halves, key per process); the owner is the top
 * b bits of the plain word, recovered by the inverse permutation.
 *
 * Properties (tested in dataplane/tests/vtag_test.cc):
 *   - never 0 (RFC 9260 §3.3.2: the Initiate Tag MUST NOT be 0): a plain
 *     word mapping to 0 is replaced by the same word with r's lowest bit
 *     flipped, which maps elsewhere (same owner);
 *   - dpsctp_vtag_owner(dpsctp_vtag_make(l, x)) == l for every running l
 *     and every x;
 *   - a tag whose owner bits name no running lcore (owner >= n_lcores) is
 *     reported as such: a forged or corrupted tag, counted and dropped by
 *     the receiving lcore without a hand-off. With the mixed scheme any
 *     change to a tag gives a pseudo-random owner, caught with probability
 *     1 - n_lcores / 2^b;
 *   - entropy: 32 - b random bits per tag (26 with 6 bits): a blind guess
 *     at a known association's tag (RFC 9260 §8.5 is all that stands
 *     between an off-path attacker and injection) succeeds with
 *     probability 2^-(32 - b) when the owner is known, 2^-26 per guess with
 *     6 bits. With the mixed scheme and the key secret, the owner's tags
 *     are a key-dependent subset and a guess succeeds with 2^-32; the
 *     guarantee we count on is the 2^-(32 - b) floor. docs/DEMUX.md has the
 *     trade-off (hardware steering on masked tag bits needs the clear
 *     scheme).
 *
 * Costs: make and owner are a few shifts (clear, 2.7 cycles per tag) or 4
 * rounds of xor-multiply-shift (mixed, 7.3 cycles per tag), measured over a
 * burst of 1024 tags (bench/timer_wheel_bench.cc BM_VtagOwner). No DPDK, no allocation, no clock,
 * no randomness of its own: the key and random32 come from the caller (OpenSSL RAND_bytes in the
 * runtime). The scheme is read-only after init and shared by every lcore.
 */
#ifndef DPSCTP_DATAPLANE_VTAG_H
#define DPSCTP_DATAPLANE_VTAG_H

#include <stdint.h>

#define DPSCTP_VTAG_MAX_LCORE_BITS 8u  /* 256 lcores, 24 random bits left */
#define DPSCTP_VTAG_KEY_BYTES	   32u /* 4 rounds x (32-bit xor, 32-bit multiplier) */

struct dpsctp_vtag_scheme {
	uint8_t lcore_bits; /* b */
	uint8_t mixed;	    /* 1: keyed permutation, 0: owner bits in clear */
	uint16_t n_lcores;  /* owners 0 .. n_lcores - 1 are running */
	uint32_t xor_key[4];
	uint32_t mul_key[4]; /* odd */
};

/*
 * Set up a scheme: @lcore_bits owner bits (0 .. DPSCTP_VTAG_MAX_LCORE_BITS),
 * @n_lcores running lcores (1 .. 2^lcore_bits), @key DPSCTP_VTAG_KEY_BYTES
 * secret random bytes for the mixed scheme or NULL for the clear scheme.
 * Returns 0, or -EINVAL for a bit count above the maximum or an lcore count
 * of 0 or above 2^lcore_bits.
 */
int dpsctp_vtag_scheme_init(struct dpsctp_vtag_scheme *s, unsigned lcore_bits, unsigned n_lcores,
			    const uint8_t *key);

/*
 * A tag owned by @lcore_index, from 32 fresh random bits (the top
 * @lcore_bits of @random32 are not used). Never 0; returns 0 only when
 * @lcore_index is not a running lcore (>= n_lcores).
 */
uint32_t dpsctp_vtag_make(const struct dpsctp_vtag_scheme *s, unsigned lcore_index,
			  uint32_t random32);

/*
 * The owning lcore of @vtag, in [0, n_lcores); -ENOENT when its owner bits
 * name no running lcore (forged, corrupted, or from before a restart with
 * more lcores), -EINVAL for tag 0 (only INIT carries it, RFC 9260 §8.5.1,
 * and INIT is answered by the lcore that receives it).
 */
int dpsctp_vtag_owner(const struct dpsctp_vtag_scheme *s, uint32_t vtag);

/*
 * The plain word of @vtag: owner bits on top, random bits below (the
 * inverse permutation for the mixed scheme, @vtag itself for the clear
 * one). For decoders and tests.
 */
uint32_t dpsctp_vtag_plain(const struct dpsctp_vtag_scheme *s, uint32_t vtag);

/* Random bits per tag: 32 - lcore_bits. */
unsigned dpsctp_vtag_entropy_bits(const struct dpsctp_vtag_scheme *s);

#endif /* DPSCTP_DATAPLANE_VTAG_H */
