/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internal to drivers/crc32c: the slicing-by-8 tables of the reference
 * engine, visible so that a test can rebuild every entry from the polynomial.
 */
#ifndef DRIVERS_CRC32C_CRC32C_TABLE_H
#define DRIVERS_CRC32C_CRC32C_TABLE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reflected Castagnoli polynomial (x^32 + x^28 + x^27 + ... + 1, 0x1EDC6F41). */
#define CRC32C_POLY_REFLECTED 0x82F63B78u

/*
 * crc32c_tables[0][n]: the CRC register after shifting byte n through it
 * (no inversion). crc32c_tables[k][n]: the same followed by k zero bytes,
 * so eight table lookups advance the register by eight bytes at once.
 */
extern const uint32_t crc32c_tables[8][256];

#ifdef __cplusplus
}
#endif

#endif /* DRIVERS_CRC32C_CRC32C_TABLE_H */
