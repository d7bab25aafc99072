/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Serial number arithmetic for TSNs (32 bits) and SSNs / MIDs (16 and 32
 * bits), RFC 9260 §1.6 after RFC 1982: a is before b when b - a, taken
 * modulo 2^n, lies in (0, 2^(n-1)). Two values exactly 2^(n-1) apart are
 * not ordered; RFC 9260 keeps every window far below that, so here such a
 * pair compares as "not before" both ways, which is what a receiver that
 * must drop it wants.
 */
#ifndef SCTP_TSN_H
#define SCTP_TSN_H

#include <stdbool.h>
#include <stdint.h>

static inline bool
sctp_tsn_lt(uint32_t a, uint32_t b)
{
	uint32_t d = b - a;

	return d != 0 && d < 0x80000000u;
}

static inline bool
sctp_tsn_le(uint32_t a, uint32_t b)
{
	return a == b || sctp_tsn_lt(a, b);
}

static inline bool
sctp_tsn_gt(uint32_t a, uint32_t b)
{
	return sctp_tsn_lt(b, a);
}

static inline bool
sctp_tsn_ge(uint32_t a, uint32_t b)
{
	return a == b || sctp_tsn_lt(b, a);
}

static inline bool
sctp_ssn_lt(uint16_t a, uint16_t b)
{
	uint16_t d = (uint16_t)(b - a);

	return d != 0 && d < 0x8000u;
}

#endif /* SCTP_TSN_H */
