/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The long-span engine: ISA-L's crc32_iscsi (<isa-l/crc.h>), which picks its
 * own implementation for the CPU (crc32 instruction streams merged with
 * PCLMULQDQ, or VPCLMULQDQ folding on AVX-512 parts).
 *
 * Convention: crc32_iscsi(buf, len, init) takes and returns the raw CRC
 * register — no inversion on entry or exit. The CRC32c of a buffer is
 * therefore ~crc32_iscsi(buf, len, ~0), and our finished-value convention
 * (crc32c.h) maps to it by inverting on both sides:
 *   crc32c_isal_update(crc, b, n) == ~crc32_iscsi(b, n, ~crc).
 * Checked with ISA-L 2.30: ~crc32_iscsi("123456789", 9, ~0) == 0xE3069283.
 * Its length is an int, so spans above INT_MAX are fed in pieces.
 *
 * Without ISA-L in the build (meson found no libisal) this file keeps the
 * entry point and routes it to the policy, which is then inline-only.
 */
#include <limits.h>

#include "drivers/crc32c/crc32c.h"

#ifdef CRC32C_HAVE_ISAL

#include <isa-l/crc.h>

bool
crc32c_isal_available(void)
{
	return true;
}

uint32_t
crc32c_isal_update(uint32_t crc, const void *buf, size_t len)
{
	/* ISA-L only reads the buffer; its prototype just lacks the const. */
	unsigned char *p = (unsigned char *)(uintptr_t)buf;
	unsigned int c = ~crc;

	while (len > (size_t)INT_MAX) {
		c = crc32_iscsi(p, INT_MAX, c);
		p += INT_MAX;
		len -= (size_t)INT_MAX;
	}
	return ~crc32_iscsi(p, (int)len, c);
}

#else /* !CRC32C_HAVE_ISAL */

bool
crc32c_isal_available(void)
{
	return false;
}

uint32_t
crc32c_isal_update(uint32_t crc, const void *buf, size_t len)
{
	/* The policy without ISA-L sends every length to the inline engine. */
	return crc32c_update(crc, buf, len);
}

#endif /* CRC32C_HAVE_ISAL */
