// SPDX-License-Identifier: BSD-3-Clause
// Verification tags naming their owning lcore (dataplane/vtag.h, RFC 9260
// §3.3.2, §8.5): every lcore index round-trips for every bit width in both
// schemes; tag 0 is never made, also for the one plain word the permutation
// maps to 0; the random part is uniform (chi-square, fixed seeds so the
// bound cannot flake); the mixed scheme hides the owner and diffuses a
// one-bit change; a corrupted tag is reported foreign at the rate the
// design predicts. Every statistical bound is about 6 standard deviations
// from its mean, with fixed seeds: deterministic, yet a real bias fails.
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

extern "C" {
#include "dataplane/vtag.h"
}

namespace {

std::vector<uint8_t>
key_from(uint64_t seed)
{
	std::mt19937_64 rng(seed);
	std::vector<uint8_t> k(DPSCTP_VTAG_KEY_BYTES);
	for (auto &b : k)
		b = (uint8_t)rng();
	return k;
}

struct dpsctp_vtag_scheme
scheme(unsigned bits, unsigned n, bool mixed, uint64_t key_seed = 42)
{
	struct dpsctp_vtag_scheme s;
	auto key = key_from(key_seed);
	EXPECT_EQ(dpsctp_vtag_scheme_init(&s, bits, n, mixed ? key.data() : nullptr), 0);
	return s;
}

// Chi-square statistic of counts against a uniform expectation.
double
chi_square(const std::vector<uint64_t> &counts, uint64_t total)
{
	double expect = (double)total / (double)counts.size();
	double x = 0;
	for (uint64_t c : counts)
		x += ((double)c - expect) * ((double)c - expect) / expect;
	return x;
}

// Mean + 6 sigma of a chi-square with k - 1 degrees of freedom.
double
chi_bound(size_t k)
{
	double dof = (double)k - 1.0;
	return dof + 6.0 * std::sqrt(2.0 * dof);
}

TEST(Vtag, InitRejectsBadParameters)
{
	struct dpsctp_vtag_scheme s;
	EXPECT_EQ(dpsctp_vtag_scheme_init(&s, DPSCTP_VTAG_MAX_LCORE_BITS + 1, 1, nullptr), -EINVAL);
	EXPECT_EQ(dpsctp_vtag_scheme_init(&s, 6, 0, nullptr), -EINVAL);
	EXPECT_EQ(dpsctp_vtag_scheme_init(&s, 6, 65, nullptr), -EINVAL);
	EXPECT_EQ(dpsctp_vtag_scheme_init(&s, 0, 2, nullptr), -EINVAL);
	ASSERT_EQ(dpsctp_vtag_scheme_init(&s, 6, 64, nullptr), 0);
	EXPECT_EQ(dpsctp_vtag_entropy_bits(&s), 26u);
	ASSERT_EQ(dpsctp_vtag_scheme_init(&s, 0, 1, nullptr), 0);
	EXPECT_EQ(dpsctp_vtag_entropy_bits(&s), 32u);
}

TEST(Vtag, EveryLcoreRoundTripsForEveryWidth)
{
	std::mt19937 rng(1);
	for (bool mixed : { false, true }) {
		for (unsigned bits = 0; bits <= DPSCTP_VTAG_MAX_LCORE_BITS; bits++) {
			unsigned n = 1u << bits;
			auto s = scheme(bits, n, mixed, 100 + bits);
			for (unsigned l = 0; l < n; l++) {
				for (int i = 0; i < 66; i++) {
					uint32_t r = i == 0 ? 0u : i == 1 ? UINT32_MAX : rng();
					uint32_t tag = dpsctp_vtag_make(&s, l, r);
					ASSERT_NE(tag, 0u) << "bits " << bits << " lcore " << l;
					ASSERT_EQ(dpsctp_vtag_owner(&s, tag), (int)l)
						<< "bits " << bits << " mixed " << mixed << " r "
						<< r;
					uint32_t rmask = bits ? UINT32_MAX >> bits : UINT32_MAX;
					uint32_t plain = dpsctp_vtag_plain(&s, tag);
					// the random bits go through unchanged (but for the
					// zero-avoiding flip of the lowest one)
					EXPECT_EQ((plain ^ r) & rmask & ~1u, 0u);
					if (!mixed) {
						EXPECT_EQ(tag, plain);
					}
				}
			}
			EXPECT_EQ(dpsctp_vtag_make(&s, n, 1234), 0u); // not a running lcore
		}
	}
}

TEST(Vtag, OwnersBeyondTheRunningLcoresAreForeign)
{
	auto s = scheme(6, 40, false);
	EXPECT_EQ(dpsctp_vtag_make(&s, 40, 5), 0u);
	EXPECT_EQ(dpsctp_vtag_owner(&s, 39u << 26 | 5u), 39);
	EXPECT_EQ(dpsctp_vtag_owner(&s, 40u << 26 | 5u), -ENOENT);
	EXPECT_EQ(dpsctp_vtag_owner(&s, 63u << 26), -ENOENT);
	EXPECT_EQ(dpsctp_vtag_owner(&s, 0), -EINVAL);
	auto m = scheme(6, 40, true);
	EXPECT_EQ(dpsctp_vtag_owner(&m, 0), -EINVAL);
}

TEST(Vtag, TagZeroIsNeverMade)
{
	for (bool mixed : { false, true }) {
		for (unsigned bits = 0; bits <= DPSCTP_VTAG_MAX_LCORE_BITS; bits++) {
			for (uint64_t key = 1; key <= 20; key++) {
				auto s = scheme(bits, 1u << bits, mixed, key);
				// the plain word that the encoding maps to 0
				uint32_t p0 = dpsctp_vtag_plain(&s, 0);
				unsigned owner = bits ? p0 >> (32 - bits) : 0;
				uint32_t tag = dpsctp_vtag_make(&s, owner, p0);
				EXPECT_NE(tag, 0u) << "bits " << bits << " key " << key;
				EXPECT_EQ(dpsctp_vtag_owner(&s, tag), (int)owner);
			}
		}
	}
	// and a long run of random draws, both schemes, 6 bits
	std::mt19937 rng(7);
	for (bool mixed : { false, true }) {
		auto s = scheme(6, 64, mixed);
		for (int i = 0; i < 1 << 20; i++)
			ASSERT_NE(dpsctp_vtag_make(&s, (unsigned)i & 63u, rng()), 0u);
	}
}

// The random part of tags made for one lcore, in 256 buckets of 8 bits at
// the bottom and at the top of the random field (clear scheme), and of the
// whole tag (mixed scheme: the owner must not show).
TEST(Vtag, RandomPartIsUniform)
{
	const uint64_t n = 1 << 20;
	for (unsigned bits : { 0u, 1u, 6u, 8u }) {
		for (bool mixed : { false, true }) {
			auto s = scheme(bits, 1u << bits, mixed);
			std::mt19937 rng(1000 + bits);
			std::vector<uint64_t> low(256), high(256);
			unsigned lcore = (1u << bits) - 1u;
			unsigned top_shift = 32 - bits - 8;
			for (uint64_t i = 0; i < n; i++) {
				uint32_t tag = dpsctp_vtag_make(&s, lcore, rng());
				low[tag & 0xffu]++;
				high[mixed ? tag >> 24 : (tag >> top_shift) & 0xffu]++;
			}
			SCOPED_TRACE(testing::Message() << "bits " << bits << " mixed " << mixed);
			EXPECT_LT(chi_square(low, n), chi_bound(256));
			EXPECT_LT(chi_square(high, n), chi_bound(256));
		}
	}
}

// Mixed scheme: tags of one lcore spread evenly over the owner field's
// values (an observer cannot read the owner), and a one-bit change of the
// plain word changes about half of the tag's bits.
TEST(Vtag, MixedSchemeHidesTheOwnerAndDiffuses)
{
	auto s = scheme(6, 64, true);
	std::mt19937 rng(99);
	const uint64_t n = 1 << 18;
	std::vector<uint64_t> top(64);
	for (uint64_t i = 0; i < n; i++)
		top[dpsctp_vtag_make(&s, 5, rng()) >> 26]++;
	EXPECT_LT(chi_square(top, n), chi_bound(64));

	// flip each plain bit in turn: mean Hamming distance of the tags
	double total = 0;
	unsigned samples = 0;
	for (int i = 0; i < 20000; i++) {
		uint32_t r = rng();
		unsigned l = rng() % 64;
		uint32_t a = dpsctp_vtag_make(&s, l, r);
		for (unsigned b = 1; b < 26; b++) { // bit 0 is the zero-avoiding flip
			uint32_t c = dpsctp_vtag_make(&s, l, r ^ (1u << b));
			total += __builtin_popcount(a ^ c);
			samples++;
		}
	}
	double mean = total / samples;
	// 500k samples: the mean's standard error is about 0.004 bits
	EXPECT_GT(mean, 15.7);
	EXPECT_LT(mean, 16.3);
}

// A corrupted tag (one random bit flipped, or 32 random bits) with 40 of 64
// possible owners running: in the mixed scheme the owner of any changed tag
// is pseudo-random, so 24/64 are caught as foreign; in the clear scheme only
// flips of the owner bits change the owner, and exactly those landing on
// 40..63 are caught.
TEST(Vtag, CorruptedTagsAreForeignAtTheExpectedRate)
{
	const unsigned bits = 6, running = 40;
	const double p_foreign = (double)((1u << bits) - running) / (double)(1u << bits);
	const uint64_t n = 200000;
	const double tol = 6.0 * std::sqrt(p_foreign * (1 - p_foreign) / (double)n);

	for (uint64_t key = 1; key <= 3; key++) {
		auto m = scheme(bits, running, true, key);
		std::mt19937 rng((uint32_t)key);
		uint64_t foreign_flip = 0, foreign_random = 0;
		for (uint64_t i = 0; i < n; i++) {
			unsigned l = rng() % running;
			uint32_t tag = dpsctp_vtag_make(&m, l, rng());
			uint32_t bad = tag ^ (1u << (rng() % 32));
			int o = dpsctp_vtag_owner(&m, bad);
			if (o == -ENOENT)
				foreign_flip++;
			else
				ASSERT_TRUE(o >= 0 && o < (int)running);
			uint32_t guess = rng() | 1u;
			foreign_random += dpsctp_vtag_owner(&m, guess) == -ENOENT;
		}
		EXPECT_NEAR((double)foreign_flip / n, p_foreign, tol) << "key " << key;
		EXPECT_NEAR((double)foreign_random / n, p_foreign, tol) << "key " << key;
	}

	auto c = scheme(bits, running, false);
	std::mt19937 rng(5);
	for (uint64_t i = 0; i < n; i++) {
		unsigned l = rng() % running;
		uint32_t tag = dpsctp_vtag_make(&c, l, rng());
		unsigned bit = rng() % 32;
		uint32_t bad = tag ^ (1u << bit);
		if (bad == 0)
			continue;
		int expect = (int)l;
		if (bit >= 32 - bits) {
			unsigned o = l ^ (1u << (bit - (32 - bits)));
			expect = o < running ? (int)o : -ENOENT;
		}
		ASSERT_EQ(dpsctp_vtag_owner(&c, bad), expect) << "tag " << tag << " bit " << bit;
	}
}

} // namespace
