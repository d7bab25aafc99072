/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An IP address as the sans-I/O core keeps it: a family (4 or 6, not the
 * socket API's AF_* values, which sctp/ has no business including) and 16
 * bytes in network order. An IPv4 address fills bytes[0..3] and leaves the
 * other twelve zero, so two addresses built by the helpers below compare
 * equal byte for byte; sctp_addr_eq() compares only the family's bytes all
 * the same, so a caller that filled the struct by hand is not caught out.
 *
 * Shared by the state cookie (sctp/cookie.h) and the association's path
 * list: the addresses of an INIT (RFC 9260 §3.3.2.1.1-2) and the addresses
 * the packets of an association came from and went to (RFC 9260 §6.4).
 */
#ifndef SCTP_ADDR_H
#define SCTP_ADDR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define SCTP_ADDR_NONE 0u /* an empty slot */
#define SCTP_ADDR_V4   4u
#define SCTP_ADDR_V6   6u

struct sctp_addr {
	uint8_t family;	   /* SCTP_ADDR_V4, SCTP_ADDR_V6 or SCTP_ADDR_NONE */
	uint8_t bytes[16]; /* network order; IPv4 in bytes[0..3], the rest zero */
};

/* Bytes of address the family uses: 4, 16, or 0 for anything else. */
static inline uint8_t
sctp_addr_len(const struct sctp_addr *a)
{
	if (a->family == SCTP_ADDR_V4)
		return 4;
	if (a->family == SCTP_ADDR_V6)
		return 16;
	return 0;
}

static inline bool
sctp_addr_eq(const struct sctp_addr *a, const struct sctp_addr *b)
{
	return a->family == b->family && memcmp(a->bytes, b->bytes, sctp_addr_len(a)) == 0;
}

/*
 * Leading bits a and b share; 0 across families. Source selection picks the
 * local address sharing the longest prefix with the destination (RFC 9260
 * §6.4 leaves the choice to the implementation; RFC 6724 rule 8 is this).
 */
static inline unsigned
sctp_addr_common_prefix(const struct sctp_addr *a, const struct sctp_addr *b)
{
	unsigned len = a->family == b->family ? sctp_addr_len(a) : 0u, bits = 0;

	for (unsigned i = 0; i < len; i++) {
		uint8_t d = (uint8_t)(a->bytes[i] ^ b->bytes[i]);
		if (d != 0)
			return bits + (unsigned)__builtin_clz((unsigned)d << 24);
		bits += 8;
	}
	return bits;
}

/* From 4 bytes in network order (an IPv4 Address parameter's value). */
static inline struct sctp_addr
sctp_addr_v4(const uint8_t *be4)
{
	struct sctp_addr a;

	memset(&a, 0, sizeof(a));
	a.family = SCTP_ADDR_V4;
	memcpy(a.bytes, be4, 4);
	return a;
}

/* From 16 bytes in network order (an IPv6 Address parameter's value). */
static inline struct sctp_addr
sctp_addr_v6(const uint8_t *be16)
{
	struct sctp_addr a;

	memset(&a, 0, sizeof(a));
	a.family = SCTP_ADDR_V6;
	memcpy(a.bytes, be16, 16);
	return a;
}

#endif /* SCTP_ADDR_H */
