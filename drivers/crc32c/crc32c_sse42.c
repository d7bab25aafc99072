/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The inline engine: the SSE4.2 crc32 instruction, which computes exactly
 * CRC32c (Intel SDM, "CRC32 — Accumulate CRC32 Value"), 8 bytes per step and
 * then 4, 2, 1 for the tail.
 *
 * One dependent chain of crc32 instructions runs at its latency (3 cycles
 * per 8 bytes on current x86 cores), so long spans go to ISA-L, which folds
 * several streams with carry-less multiplies. What this engine has is a
 * start-up cost of a few cycles, which is what short chunks and headers need.
 *
 * Only these functions carry target("sse4.2"): the rest of the build stays
 * baseline x86-64, and crc32c_sse42_available() asks the CPU at run time.
 * Outside x86-64 the engine does not exist; the entry points then fall back to
 * the table engine so that callers still link and compute correctly.
 */
#include <string.h>

#include "drivers/crc32c/crc32c.h"

#if defined(__x86_64__)

#include <nmmintrin.h>

bool
crc32c_sse42_available(void)
{
	/* Needed before __builtin_cpu_supports when run from a constructor. */
	__builtin_cpu_init();
	return __builtin_cpu_supports("sse4.2");
}

__attribute__((target("sse4.2"))) uint32_t
crc32c_sse42_update(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = (const uint8_t *)buf;
	uint64_t c = (uint32_t)~crc;
	uint32_t c32;

	while (len >= 8) {
		uint64_t w;

		memcpy(&w, p, sizeof(w)); /* unaligned load; x86 is little-endian */
		c = _mm_crc32_u64(c, w);
		p += 8;
		len -= 8;
	}
	c32 = (uint32_t)c;
	if (len & 4) {
		uint32_t w;

		memcpy(&w, p, sizeof(w));
		c32 = _mm_crc32_u32(c32, w);
		p += 4;
	}
	if (len & 2) {
		uint16_t w;

		memcpy(&w, p, sizeof(w));
		c32 = _mm_crc32_u16(c32, w);
		p += 2;
	}
	if (len & 1)
		c32 = _mm_crc32_u8(c32, *p);
	return ~c32;
}

__attribute__((target("sse4.2"))) uint32_t
crc32c_sse42_copy_update(uint32_t crc, void *dst, const void *src, size_t len)
{
	const uint8_t *s = (const uint8_t *)src;
	uint8_t *d = (uint8_t *)dst;
	uint64_t c = (uint32_t)~crc;
	uint32_t c32;

	/* Each word is loaded once, stored once and summed from the register. */
	while (len >= 8) {
		uint64_t w;

		memcpy(&w, s, sizeof(w));
		memcpy(d, &w, sizeof(w));
		c = _mm_crc32_u64(c, w);
		s += 8;
		d += 8;
		len -= 8;
	}
	c32 = (uint32_t)c;
	if (len & 4) {
		uint32_t w;

		memcpy(&w, s, sizeof(w));
		memcpy(d, &w, sizeof(w));
		c32 = _mm_crc32_u32(c32, w);
		s += 4;
		d += 4;
	}
	if (len & 2) {
		uint16_t w;

		memcpy(&w, s, sizeof(w));
		memcpy(d, &w, sizeof(w));
		c32 = _mm_crc32_u16(c32, w);
		s += 2;
		d += 2;
	}
	if (len & 1) {
		*d = *s;
		c32 = _mm_crc32_u8(c32, *s);
	}
	return ~c32;
}

#else /* !__x86_64__ */

bool
crc32c_sse42_available(void)
{
	return false;
}

uint32_t
crc32c_sse42_update(uint32_t crc, const void *buf, size_t len)
{
	return crc32c_table_update(crc, buf, len);
}

uint32_t
crc32c_sse42_copy_update(uint32_t crc, void *dst, const void *src, size_t len)
{
	return crc32c_table_copy_update(crc, dst, src, len);
}

#endif /* __x86_64__ */
