/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CRC32c over rte_mbuf chains, in place: each segment's bytes are summed
 * where they lie, with the engine crc32c_update() picks for that piece.
 * Nothing is copied except the 12-byte SCTP common header, whose checksum
 * field must be read as zero without writing into a received packet.
 *
 * Offsets and lengths count packet bytes from the start of the first
 * segment's data (as rte_pktmbuf_read does). l4_off is where the SCTP
 * common header starts; l4_len is the SCTP packet's length as the IP header
 * gives it — not pkt_len - l4_off, which would include Ethernet padding of
 * short frames.
 */
#ifndef DRIVERS_CRC32C_CRC32C_MBUF_H
#define DRIVERS_CRC32C_CRC32C_MBUF_H

#include <stdint.h>

#include <rte_mbuf.h>

#include "drivers/crc32c/crc32c.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Continue *crc (crc32c.h convention) over len bytes of the chain starting
 * at off. 0, or -EINVAL if the span is not inside pkt_len or the chain holds
 * fewer bytes than pkt_len says (then *crc is unchanged).
 */
int crc32c_mbuf_update(const struct rte_mbuf *m, uint32_t off, uint32_t len, uint32_t *crc);

/*
 * Classify the SCTP packet at [l4_off, l4_off + l4_len) like
 * crc32c_sctp_verify(); the chain is not written. A span shorter than the
 * common header or outside the chain is CRC32C_VERDICT_BAD.
 */
enum crc32c_verdict crc32c_mbuf_sctp_verify(const struct rte_mbuf *m, uint32_t l4_off,
					    uint32_t l4_len);

/*
 * Compute the SCTP checksum of [l4_off, l4_off + l4_len) and store it in the
 * packet's checksum field (which may straddle segments). 0 or -EINVAL.
 */
int crc32c_mbuf_sctp_fill(struct rte_mbuf *m, uint32_t l4_off, uint32_t l4_len);

/* Store crc in wire order into the checksum field at l4_off + 8. 0 or -EINVAL. */
int crc32c_mbuf_sctp_store(struct rte_mbuf *m, uint32_t l4_off, uint32_t crc);

#ifdef __cplusplus
}
#endif

#endif /* DRIVERS_CRC32C_CRC32C_MBUF_H */
