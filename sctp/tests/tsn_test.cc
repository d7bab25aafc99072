// SPDX-License-Identifier: BSD-3-Clause
// Serial number arithmetic (sctp/tsn.h, RFC 9260 §1.6 after RFC 1982):
// hand cases on both sides of the 2^32 and 2^16 wraps, the unordered pair
// exactly half the space apart, and a randomized check of every relation
// against 64-bit arithmetic on unwrapped values.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

extern "C" {
#include "sctp/tsn.h"
}

TEST(Tsn, OrdinaryValues)
{
	EXPECT_TRUE(sctp_tsn_lt(1, 2));
	EXPECT_FALSE(sctp_tsn_lt(2, 1));
	EXPECT_FALSE(sctp_tsn_lt(5, 5));
	EXPECT_TRUE(sctp_tsn_le(5, 5));
	EXPECT_TRUE(sctp_tsn_le(4, 5));
	EXPECT_FALSE(sctp_tsn_le(6, 5));
	EXPECT_TRUE(sctp_tsn_gt(6, 5));
	EXPECT_FALSE(sctp_tsn_gt(5, 5));
	EXPECT_TRUE(sctp_tsn_ge(5, 5));
	EXPECT_TRUE(sctp_tsn_ge(6, 5));
	EXPECT_FALSE(sctp_tsn_ge(4, 5));
}

TEST(Tsn, AcrossTheWrap)
{
	// 0xFFFFFFFF is one before 0, and 0x7FFFFFFF after it is still ahead.
	EXPECT_TRUE(sctp_tsn_lt(0xffffffffu, 0));
	EXPECT_TRUE(sctp_tsn_gt(0, 0xffffffffu));
	EXPECT_TRUE(sctp_tsn_lt(0xfffffff0u, 0x10u));
	EXPECT_FALSE(sctp_tsn_lt(0x10u, 0xfffffff0u));
	EXPECT_TRUE(sctp_tsn_le(0xffffffffu, 0));
	EXPECT_TRUE(sctp_tsn_ge(0, 0xffffffffu));
	EXPECT_TRUE(sctp_tsn_lt(0xffffffffu, 0x7ffffffeu));
	// 2^31 - 1 ahead: the farthest value still "after".
	EXPECT_TRUE(sctp_tsn_lt(0, 0x7fffffffu));
	EXPECT_TRUE(sctp_tsn_gt(0x80000001u, 0x00000002u));
	EXPECT_TRUE(sctp_tsn_lt(0x80000000u, 0xffffffffu));
}

TEST(Tsn, HalfTheSpaceApartIsUnordered)
{
	// RFC 1982 leaves the pair undefined; tsn.h says "not before" both ways.
	const uint32_t pairs[][2] = { { 0, 0x80000000u },
				      { 0x80000000u, 0 },
				      { 0xffffffffu, 0x7fffffffu },
				      { 12345u, 12345u + 0x80000000u } };
	for (const auto &p : pairs) {
		EXPECT_FALSE(sctp_tsn_lt(p[0], p[1])) << p[0] << " " << p[1];
		EXPECT_FALSE(sctp_tsn_gt(p[0], p[1])) << p[0] << " " << p[1];
		EXPECT_FALSE(sctp_tsn_le(p[0], p[1])) << p[0] << " " << p[1];
		EXPECT_FALSE(sctp_tsn_ge(p[0], p[1])) << p[0] << " " << p[1];
	}
}

TEST(Tsn, SsnWrap)
{
	EXPECT_TRUE(sctp_ssn_lt(0, 1));
	EXPECT_FALSE(sctp_ssn_lt(1, 0));
	EXPECT_FALSE(sctp_ssn_lt(7, 7));
	EXPECT_TRUE(sctp_ssn_lt(0xffff, 0));
	EXPECT_TRUE(sctp_ssn_lt(0xfff0, 0x000f));
	EXPECT_TRUE(sctp_ssn_lt(0, 0x7fff));
	EXPECT_FALSE(sctp_ssn_lt(0, 0x8000));
	EXPECT_FALSE(sctp_ssn_lt(0x8000, 0));
	EXPECT_TRUE(sctp_ssn_lt(0x8001, 0));
}

// For a in any place of the space and b = a + d with |d| < 2^31, every
// relation must agree with plain comparison of the unwrapped values.
TEST(Tsn, RandomizedAgainstUnwrapped)
{
	for (uint32_t seed = 1; seed <= 20; seed++) {
		std::mt19937_64 rng(seed);
		for (int i = 0; i < 5000; i++) {
			uint32_t a = (uint32_t)rng();
			int64_t d = (int64_t)(rng() % 0xfffffffeu) - 0x7ffffffe; // |d| < 2^31
			uint32_t b = (uint32_t)((int64_t)a + d);
			ASSERT_EQ(sctp_tsn_lt(a, b), d > 0)
				<< "seed " << seed << " a " << a << " d " << d;
			ASSERT_EQ(sctp_tsn_le(a, b), d >= 0) << "seed " << seed;
			ASSERT_EQ(sctp_tsn_gt(a, b), d < 0) << "seed " << seed;
			ASSERT_EQ(sctp_tsn_ge(a, b), d <= 0) << "seed " << seed;
			// SSNs: the same over 16 bits, |e| < 2^15.
			uint16_t s = (uint16_t)a;
			int32_t e = (int32_t)(rng() % 0xfffeu) - 0x7ffe;
			uint16_t t = (uint16_t)(s + e);
			ASSERT_EQ(sctp_ssn_lt(s, t), e > 0)
				<< "seed " << seed << " s " << s << " e " << e;
		}
	}
}
