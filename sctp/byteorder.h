/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Big-endian loads and stores on byte pointers: the one set of byte-order
 * helpers for the core's codecs (sctp/reader.h, sctp/writer.h), the L2/L3
 * layer (drivers/net) and the tools. Byte at a time, so they take any
 * alignment (chunks and parameters sit at 4-byte offsets in a packet whose
 * start has none the compiler can rely on); GCC and clang fold each into
 * one load and a bswap. The caller has checked the span.
 *
 * Header-only and dependency-free, like sctp/addr.h, so a layer that links
 * nothing of the core may still share its vocabulary.
 */
#ifndef SCTP_BYTEORDER_H
#define SCTP_BYTEORDER_H

#include <stdint.h>

static inline uint16_t
sctp_load_be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t
sctp_load_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static inline void
sctp_store_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
sctp_store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#endif /* SCTP_BYTEORDER_H */
