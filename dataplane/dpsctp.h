/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * dpsctp public API.
 *
 * Every exported symbol carries the dpsctp_ prefix (DESIGN.md decision 9:
 * programs link usrsctp, which exports about 300 sctp_* symbols, beside us).
 * Everything else in libdpsctp is built with hidden visibility.
 *
 * The embedded API (endpoints, associations, callbacks) arrives with the data
 * plane (issue 5); this header starts with what exists.
 */
#ifndef DPSCTP_H
#define DPSCTP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DPSCTP_EXPORT __attribute__((visibility("default")))

/**
 * The library version as "MAJOR.MINOR.PATCH".
 *
 * @return a static string; never NULL.
 */
DPSCTP_EXPORT const char *dpsctp_version(void);

/**
 * CRC32c (Castagnoli) of a byte span, with the engine the library chose for
 * this CPU and span length (inline SSE4.2 for short spans, ISA-L for long
 * ones, a table otherwise).
 *
 * @param crc  the CRC of the bytes before @p buf, or 0 to start.
 * @param buf  the bytes; may be NULL when @p len is 0.
 * @param len  number of bytes.
 * @return the CRC32c of everything so far (final XOR applied), so that
 *         dpsctp_crc32c(dpsctp_crc32c(0, a, n), b, m) is the CRC of a then b.
 */
DPSCTP_EXPORT uint32_t dpsctp_crc32c(uint32_t crc, const void *buf, size_t len);

/**
 * The CRC32c policy in force on this CPU: "<short-span engine>+<long-span
 * engine>", e.g. "sse42+isal", or one name when one engine does everything
 * ("table" on a CPU without SSE4.2 in a build without ISA-L).
 *
 * @return a static string; never NULL.
 */
DPSCTP_EXPORT const char *dpsctp_crc32c_engine(void);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_H */
