/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The interop peers' message format, shared by usrsctp-peer and dpsctp-peer
 * so that either can check the other's messages (docs/INTEROP.md).
 *
 * A message carries no header (sizes start at one byte): message number
 * `seq` travels as the PPID (network order) on stream seq % streams,
 * unordered when seq is odd; its size is interop_size(seq, max, big) and
 * byte i is interop_byte(seq, i). The receiver recomputes both from the PPID,
 * so a wrong, truncated, duplicated or misrouted message is always seen.
 */
#ifndef DPSCTP_INTEROP_MSG_H
#define DPSCTP_INTEROP_MSG_H

#include <stdbool.h>
#include <stdint.h>

#define INTEROP_STEP_MAX  (64u * 1024u)	  /* the largest of the size steps: 64 KiB */
#define INTEROP_MAX_LEN	  (1024u * 1024u) /* the largest message (--big): 1 MiB */
#define INTEROP_BIG_EVERY 5u		  /* with --big, every fifth message is large */

static inline uint8_t
interop_byte(uint32_t seq, uint32_t i)
{
	return (uint8_t)(seq * 131u + i * 7u + (i >> 8));
}

/*
 * 1, 2, 3 bytes ... then every size class: one chunk, just over one packet
 * (1452 is the payload of a 1500-byte IPv4 packet), several, 64 KiB; none
 * over max. With big (non-zero, --big), every INTEROP_BIG_EVERY-th message is
 * large instead: big, big / 2 or big / 4 bytes in turn, less seq % 13. Five
 * is odd and prime to the stream counts the cases use, so the large ones
 * come ordered and unordered, on every stream, between small ones.
 */
static inline uint32_t
interop_size(uint32_t seq, uint32_t max, uint32_t big)
{
	static const uint32_t steps[] = { 1,	2,    3,    7,	  64,	500,
					  1000, 1452, 1453, 4000, 9000, INTEROP_STEP_MAX };
	if (big != 0 && seq % INTEROP_BIG_EVERY == INTEROP_BIG_EVERY - 1)
		return (big >> (seq / INTEROP_BIG_EVERY % 3u)) - seq % 13u;
	uint32_t v = steps[seq % (sizeof(steps) / sizeof(steps[0]))];
	if (v < INTEROP_STEP_MAX)
		v += seq % 13u; /* odd lengths: padding */
	return v > max ? max : v;
}

static inline bool
interop_unordered(uint32_t seq)
{
	return (seq & 1u) != 0;
}

/* True when bytes[0..len) is exactly message seq. */
static inline bool
interop_check(uint32_t seq, uint32_t max, uint32_t big, const uint8_t *bytes, uint32_t len)
{
	if (len != interop_size(seq, max, big))
		return false;
	for (uint32_t i = 0; i < len; i++)
		if (bytes[i] != interop_byte(seq, i))
			return false;
	return true;
}

static inline void
interop_fill(uint32_t seq, uint8_t *bytes, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		bytes[i] = interop_byte(seq, i);
}

#endif /* DPSCTP_INTEROP_MSG_H */
