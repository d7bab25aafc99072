/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CRC32c policy (which engine for which span), the fused copy, and the
 * SCTP checksum helpers of RFC 9260 §6.8 and Appendix B. See crc32c.h.
 */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include "drivers/crc32c/crc32c.h"

typedef uint32_t (*crc32c_fn)(uint32_t crc, const void *buf, size_t len);
typedef uint32_t (*crc32c_copy_fn)(uint32_t crc, void *dst, const void *src, size_t len);

#ifdef CRC32C_HAVE_ISAL
#define CRC32C_POLICY_HAS_ISAL 1
#else
#define CRC32C_POLICY_HAS_ISAL 0
#endif

static uint32_t crc32c_short_first(uint32_t crc, const void *buf, size_t len);
static uint32_t crc32c_short_copy_first(uint32_t crc, void *dst, const void *src, size_t len);

/*
 * The engine for spans below CRC32C_ISAL_MIN_LEN. It starts as a stub that
 * selects and then forwards, so a call that comes before the constructor
 * (another library's constructor, say) is still right. Selection stores the
 * same values whoever runs it, and relaxed atomics make that race benign; on
 * x86 the load is a plain mov.
 */
static _Atomic(crc32c_fn) crc32c_short = crc32c_short_first;
static _Atomic(crc32c_copy_fn) crc32c_short_copy = crc32c_short_copy_first;

static void
crc32c_select(void)
{
	bool sse42 = crc32c_sse42_available();

	atomic_store_explicit(&crc32c_short, sse42 ? crc32c_sse42_update : crc32c_table_update,
			      memory_order_relaxed);
	atomic_store_explicit(&crc32c_short_copy,
			      sse42 ? crc32c_sse42_copy_update : crc32c_table_copy_update,
			      memory_order_relaxed);
}

__attribute__((constructor)) static void
crc32c_policy_init(void)
{
	crc32c_select();
}

static uint32_t
crc32c_short_first(uint32_t crc, const void *buf, size_t len)
{
	crc32c_select();
	return atomic_load_explicit(&crc32c_short, memory_order_relaxed)(crc, buf, len);
}

static uint32_t
crc32c_short_copy_first(uint32_t crc, void *dst, const void *src, size_t len)
{
	crc32c_select();
	return atomic_load_explicit(&crc32c_short_copy, memory_order_relaxed)(crc, dst, src, len);
}

uint32_t
crc32c_update(uint32_t crc, const void *buf, size_t len)
{
	if (CRC32C_POLICY_HAS_ISAL && len >= CRC32C_ISAL_MIN_LEN) {
		/* Whole blocks to ISA-L, the remainder inline (crc32c.h). */
		size_t head = len - len % CRC32C_ISAL_BLOCK;

		crc = crc32c_isal_update(crc, buf, head);
		if (head == len)
			return crc;
		buf = (const uint8_t *)buf + head;
		len -= head;
	}
	return atomic_load_explicit(&crc32c_short, memory_order_relaxed)(crc, buf, len);
}

uint32_t
crc32c_copy_update(uint32_t crc, void *dst, const void *src, size_t len)
{
	if (!CRC32C_POLICY_HAS_ISAL || len < CRC32C_ISAL_MIN_LEN)
		return atomic_load_explicit(&crc32c_short_copy, memory_order_relaxed)(crc, dst, src,
										      len);
	/*
	 * Long spans are not fused into one loop: the inline engine's chain of
	 * crc32 instructions (4 B/cycle) is slower than memcpy plus ISA-L.
	 * The CRC rereads the source, which the copy just brought into L1;
	 * summing the destination instead cost up to 20% more when it was
	 * misaligned (1500 B: 152 vs 127 cycles), and cutting the span into
	 * L1-sized blocks bought nothing up to 9000 B while the bounded memcpy
	 * it let the compiler inline (rep movsq) was slower.
	 */
	memcpy(dst, src, len);
	return crc32c_update(crc, src, len);
}

static crc32c_fn
crc32c_short_selected(void)
{
	crc32c_fn e = atomic_load_explicit(&crc32c_short, memory_order_relaxed);

	if (e == crc32c_short_first) {
		crc32c_select();
		e = atomic_load_explicit(&crc32c_short, memory_order_relaxed);
	}
	return e;
}

const char *
crc32c_engine_name(void)
{
	if (crc32c_short_selected() == crc32c_sse42_update)
		return CRC32C_POLICY_HAS_ISAL ? "sse42+isal" : "sse42";
	return CRC32C_POLICY_HAS_ISAL ? "table+isal" : "table";
}

const char *
crc32c_engine_for(size_t len)
{
	if (CRC32C_POLICY_HAS_ISAL && len >= CRC32C_ISAL_MIN_LEN)
		return "isal";
	return crc32c_short_selected() == crc32c_sse42_update ? "sse42" : "table";
}

/*
 * Adler-32 as RFC 1950 §8.2 defines it: two sums modulo 65521, the first
 * of the bytes plus one, the second of the running first sums. The modulo
 * is deferred for as long as the 32-bit sums cannot overflow: after n bytes
 * of 0xff starting from sums just below the modulus, the second sum is at
 * most 255 n (n + 1) / 2 + (n + 1) 65520, which stays below 2^32 up to
 * n = 5552.
 */
#define CRC32C_ADLER32_MOD 65521u
#define CRC32C_ADLER32_RUN 5552u

uint32_t
crc32c_adler32_update(uint32_t adler, const void *buf, size_t len)
{
	const uint8_t *p = (const uint8_t *)buf;
	uint32_t a = adler & 0xffff;
	uint32_t b = adler >> 16;

	while (len > 0) {
		size_t n = len < CRC32C_ADLER32_RUN ? len : CRC32C_ADLER32_RUN;

		len -= n;
		while (n-- > 0) {
			a += *p++;
			b += a;
		}
		a %= CRC32C_ADLER32_MOD;
		b %= CRC32C_ADLER32_MOD;
	}
	return b << 16 | a;
}

/*
 * The common header with its checksum field zeroed, in a local copy: the
 * received buffer is never written (STYLE.md), and one 12-byte span is
 * cheaper than three calls for 8, 4 and the rest.
 */
static void
crc32c_sctp_zeroed_header(uint8_t hdr[CRC32C_SCTP_COMMON_HDR_LEN], const uint8_t *pkt)
{
	memcpy(hdr, pkt, CRC32C_SCTP_CKSUM_OFF);
	memset(hdr + CRC32C_SCTP_CKSUM_OFF, 0, 4);
}

uint32_t
crc32c_sctp_compute(const void *pkt, size_t len)
{
	const uint8_t *p = (const uint8_t *)pkt;
	uint8_t hdr[CRC32C_SCTP_COMMON_HDR_LEN];
	uint32_t crc;

	if (len < CRC32C_SCTP_COMMON_HDR_LEN)
		return 0;
	crc32c_sctp_zeroed_header(hdr, p);
	crc = crc32c_update(0, hdr, sizeof(hdr));
	return crc32c_update(crc, p + CRC32C_SCTP_COMMON_HDR_LEN, len - CRC32C_SCTP_COMMON_HDR_LEN);
}

int
crc32c_sctp_fill(void *pkt, size_t len)
{
	uint8_t *p = (uint8_t *)pkt;

	if (len < CRC32C_SCTP_COMMON_HDR_LEN)
		return -EINVAL;
	crc32c_sctp_store(p + CRC32C_SCTP_CKSUM_OFF, crc32c_sctp_compute(p, len));
	return 0;
}

/* RFC 2960 Appendix B: Adler-32 over the packet with the field zeroed. */
static uint32_t
crc32c_sctp_adler32(const uint8_t *p, size_t len)
{
	uint8_t hdr[CRC32C_SCTP_COMMON_HDR_LEN];
	uint32_t adler;

	crc32c_sctp_zeroed_header(hdr, p);
	adler = crc32c_adler32_update(CRC32C_ADLER32_INIT, hdr, sizeof(hdr));
	return crc32c_adler32_update(adler, p + CRC32C_SCTP_COMMON_HDR_LEN,
				     len - CRC32C_SCTP_COMMON_HDR_LEN);
}

enum crc32c_verdict
crc32c_sctp_verify(const void *pkt, size_t len)
{
	const uint8_t *p = (const uint8_t *)pkt;
	const uint8_t *field = p + CRC32C_SCTP_CKSUM_OFF;
	uint32_t stored;

	if (len < CRC32C_SCTP_COMMON_HDR_LEN)
		return CRC32C_VERDICT_BAD;
	stored = crc32c_sctp_load(field);
	if (crc32c_sctp_compute(p, len) == stored)
		return CRC32C_VERDICT_OK;
	if (stored == 0)
		return CRC32C_VERDICT_ZERO;
	/* Adler-32 went on the wire in network byte order. */
	if (crc32c_sctp_adler32(p, len) == ((uint32_t)field[0] << 24 | (uint32_t)field[1] << 16 |
					    (uint32_t)field[2] << 8 | (uint32_t)field[3]))
		return CRC32C_VERDICT_ADLER32;
	return CRC32C_VERDICT_BAD;
}

const char *
crc32c_verdict_name(enum crc32c_verdict v)
{
	static const char *const names[] = {
		[CRC32C_VERDICT_OK] = "ok",
		[CRC32C_VERDICT_BAD] = "bad",
		[CRC32C_VERDICT_ZERO] = "zero",
		[CRC32C_VERDICT_ADLER32] = "adler32",
	};

	if ((unsigned int)v >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[v];
}
