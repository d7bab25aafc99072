/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CRC32c (Castagnoli, reflected polynomial 0x82F63B78) for SCTP — the policy
 * in one place (docs/ARCHITECTURE.md decision 4).
 *
 * Engines:
 *  - table:  portable slicing-by-8, the reference every other engine is
 *            tested against (crc32c_table.c);
 *  - sse42:  the SSE4.2 crc32 instruction, 8 bytes per step, inline and
 *            cheap to start, used for short spans (crc32c_sse42.c);
 *  - isal:   ISA-L crc32_iscsi, folding with carry-less multiplies, fast on
 *            long spans but with a higher fixed cost (crc32c_isal.c).
 * crc32c_update() picks sse42 (or table where the CPU lacks SSE4.2) below
 * CRC32C_ISAL_MIN_LEN and ISA-L for the whole blocks of longer spans (see
 * below). The CPU is inspected once, at load time (or on the first call if
 * that comes earlier); the hot path is a length compare and a call.
 *
 * Value convention (all functions here, every engine): the CRC is passed and
 * returned finished — pre- and post-inversion are done inside, as zlib's
 * crc32() does. Start with 0; feed the result back in to continue:
 *   crc32c_update(crc32c_update(0, a, n), b, m) == CRC32c of a||b.
 * With this convention the RFC 3720 §B.4 check values read directly
 * (32 zero bytes -> 0x8A9136AA).
 *
 * NIC offload and mbuf chains: crc32c_offload.h and crc32c_mbuf.h (DPDK).
 */
#ifndef DRIVERS_CRC32C_CRC32C_H
#define DRIVERS_CRC32C_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Spans of at least CRC32C_ISAL_MIN_LEN bytes go to ISA-L in whole
 * CRC32C_ISAL_BLOCK-byte blocks, the remainder (less than a block) to the
 * inline engine; shorter spans are inline only.
 *
 * Measured with
 *   bench_crc32c --benchmark_format=json --benchmark_repetitions=5
 * (bench/crc32c_bench.cc) on the project machine: AMD EPYC, 2 vCPU, TSC
 * 2.596 GHz, ISA-L 2.30, gcc 12 -O2. TSC cycles per call, best of 5, each
 * call's CRC fed into the next:
 *   bytes      64     128    256    512    1500   9000
 *   table      67.5   133.5  267.0  546.8  1602   9578   (0.95 B/cycle)
 *   sse42      16.8   32.4   62.4   123.6  360.6  2131   (3.8-4.2 B/cycle)
 *   isal       48.7   71.8   49.8   54.9   161.1  363.5  (1.3-24.8 B/cycle)
 *   policy     16.3   31.4   50.9   56.1   128.5  366.0
 * Crossover: ISA-L alone loses at every length below 256 (248 B: 127.5
 * cycles against 60.1 inline; its short path costs about 30 + 0.4 per byte)
 * and wins at 256 (52.7 against 62.2), where its 256-byte folding loop
 * starts. Bytes past the last whole 256 it sums at about 0.4 cycle per byte,
 * slower than the inline loop (0.24), so that alone it loses again at
 * 328..376 B and takes 161 cycles for 1500 B against 75 for 1280 B. Hence
 * the split: ISA-L for the whole blocks, inline for the rest, which beats
 * the inline engine at every length from 256 on (328 B: 70.0 against 80.8)
 * and does 1500 B in 128.5. Only between 384 and 511 bytes is ISA-L alone
 * still faster than the split, by up to 20 cycles (a quirk of its sub-512
 * path, left alone).
 * Against the goal (ISA-L at 1500 B at least 8x the table):
 * 1602 / 161.1 = 9.9x for ISA-L alone, 12.5x for the policy.
 */
#define CRC32C_ISAL_MIN_LEN 256
#define CRC32C_ISAL_BLOCK   256

/* The policy: one engine per length, chosen as described above. */
uint32_t crc32c_update(uint32_t crc, const void *buf, size_t len);

/*
 * Fused copy + CRC: copies len bytes from src to dst (they must not
 * overlap) and returns the CRC of those bytes continued from crc. Below
 * CRC32C_ISAL_MIN_LEN each 8-byte word is loaded once, stored and summed
 * (no more than the CRC alone: 64 B in 16.6 cycles); longer spans are
 * copied, then summed by crc32c_update() from the source, now in L1
 * (1500 B: 124 cycles, the cost of the CRC alone within noise).
 */
uint32_t crc32c_copy_update(uint32_t crc, void *dst, const void *src, size_t len);

/*
 * Name of the policy in force: "<short engine>+<long engine>", e.g.
 * "sse42+isal", or a single name when one engine does everything.
 */
const char *crc32c_engine_name(void);

/* The engine crc32c_update() uses for a span of len bytes: "sse42", "isal" or "table". */
const char *crc32c_engine_for(size_t len);

/* Each engine on its own, for tests and benchmarks. Same convention. */
uint32_t crc32c_table_update(uint32_t crc, const void *buf, size_t len);
/* Call only when crc32c_sse42_available(); elsewhere it faults (SIGILL). */
uint32_t crc32c_sse42_update(uint32_t crc, const void *buf, size_t len);
/* Without ISA-L in the build this is the policy's short engine. */
uint32_t crc32c_isal_update(uint32_t crc, const void *buf, size_t len);

uint32_t crc32c_table_copy_update(uint32_t crc, void *dst, const void *src, size_t len);
/* Call only when crc32c_sse42_available(). */
uint32_t crc32c_sse42_copy_update(uint32_t crc, void *dst, const void *src, size_t len);

/* True on x86-64 CPUs with SSE4.2 (checked with cpuid, not at build time). */
bool crc32c_sse42_available(void);
/* True when the build found ISA-L. */
bool crc32c_isal_available(void);

/*
 * Adler-32 (RFC 1950 §8.2, start value 1), only to recognise packets of
 * peers still using the checksum of RFC 2960 Appendix B, which RFC 3309
 * replaced by CRC32c. Chains like the CRC: pass the result back in.
 */
#define CRC32C_ADLER32_INIT 1u
uint32_t crc32c_adler32_update(uint32_t adler, const void *buf, size_t len);

/*
 * SCTP (RFC 9260 §6.8 and Appendix B): the checksum covers the whole SCTP
 * packet, common header included, with the 32-bit checksum field taken as
 * zero. The CRC is stored least significant byte first: the byte at offset 8
 * of the common header is (crc & 0xff) — which is what RFC 9260 Appendix B's
 * reference code produces when it reverses the bytes and then stores with
 * network byte order. (tshark shows the field as a big-endian number, so a
 * CRC of 0xc2df1369 appears there as 0x6913dfc2.) The legacy Adler-32 was
 * stored in network byte order.
 */
#define CRC32C_SCTP_COMMON_HDR_LEN 12u
#define CRC32C_SCTP_CKSUM_OFF	   8u

/* The stored checksum field as a CRC value (little-endian load). */
static inline uint32_t
crc32c_sctp_load(const void *field)
{
	const uint8_t *p = (const uint8_t *)field;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Store a CRC value into the checksum field, wire order. */
static inline void
crc32c_sctp_store(void *field, uint32_t crc)
{
	uint8_t *p = (uint8_t *)field;

	p[0] = (uint8_t)crc;
	p[1] = (uint8_t)(crc >> 8);
	p[2] = (uint8_t)(crc >> 16);
	p[3] = (uint8_t)(crc >> 24);
}

/*
 * CRC32c of an SCTP packet (common header first, len bytes) with the
 * checksum field taken as zero, whatever it holds; the buffer is only read.
 * Needs len >= CRC32C_SCTP_COMMON_HDR_LEN; shorter input returns 0 (it is
 * not an SCTP packet, and verify/fill refuse it before getting here).
 */
uint32_t crc32c_sctp_compute(const void *pkt, size_t len);

/* Compute and store the checksum. 0, or -EINVAL if len < 12. */
int crc32c_sctp_fill(void *pkt, size_t len);

/*
 * How a received packet's checksum field reads. Order of the tests: a
 * matching CRC32c is OK; otherwise a zero field is ZERO (acceptable only when
 * RFC 9653 zero checksum was negotiated; the caller decides); otherwise a
 * matching RFC 2960 Adler-32 is ADLER32; otherwise BAD. A packet shorter
 * than the common header is BAD.
 */
enum crc32c_verdict {
	CRC32C_VERDICT_OK = 0,
	CRC32C_VERDICT_BAD,
	CRC32C_VERDICT_ZERO,
	CRC32C_VERDICT_ADLER32,
};

/* Classify a received SCTP packet; the buffer is never written. */
enum crc32c_verdict crc32c_sctp_verify(const void *pkt, size_t len);

/* "ok", "bad", "zero", "adler32"; "unknown" out of range. */
const char *crc32c_verdict_name(enum crc32c_verdict v);

#ifdef __cplusplus
}
#endif

#endif /* DRIVERS_CRC32C_CRC32C_H */
