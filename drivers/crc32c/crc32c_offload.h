/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where the SCTP CRC32c is computed for a port: on the NIC when the port
 * advertises SCTP checksum offload (RTE_ETH_RX_OFFLOAD_SCTP_CKSUM,
 * RTE_ETH_TX_OFFLOAD_SCTP_CKSUM), in software (crc32c.h's policy) otherwise.
 * Decided once per port from rte_eth_dev_info; the same decision then
 * configures the port (crc32c_offload_*_offloads) and guides each packet
 * (crc32c_offload_rx_check, crc32c_offload_tx_fill).
 *
 * The NIC only ever checks or fills the checksum of SCTP carried directly
 * in IP. Over UDP (RFC 6951) its L4 flag speaks of the UDP checksum, so
 * encapsulated packets are always summed in software.
 */
#ifndef DRIVERS_CRC32C_CRC32C_OFFLOAD_H
#define DRIVERS_CRC32C_CRC32C_OFFLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

enum crc32c_where {
	CRC32C_WHERE_SOFTWARE = 0,
	CRC32C_WHERE_NIC,
};

struct crc32c_offload {
	enum crc32c_where rx;
	enum crc32c_where tx;
};

/* NIC for each direction whose SCTP checksum offload the port advertises. */
struct crc32c_offload crc32c_offload_decide(const struct rte_eth_dev_info *info);

/* Bits to OR into rte_eth_conf rxmode.offloads / txmode.offloads. */
uint64_t crc32c_offload_rx_offloads(const struct crc32c_offload *o);
uint64_t crc32c_offload_tx_offloads(const struct crc32c_offload *o);

/* "nic" or "software". */
const char *crc32c_where_name(enum crc32c_where w);

/* What the receive path does with one packet's checksum. */
enum crc32c_rx_action {
	CRC32C_RX_ACCEPT, /* the NIC verified it: no software pass */
	CRC32C_RX_VERIFY, /* run crc32c_mbuf_sctp_verify() */
};

/*
 * From the mbuf's RTE_MBUF_F_RX_L4_CKSUM_* bits, when the port's RX offload
 * is on and the packet is SCTP over IP (udp_encap false):
 *   GOOD -> ACCEPT;
 *   NONE -> ACCEPT (the PMD vouches for the data though the field is not
 *           valid, as virtio does for packets that never left the host);
 *   BAD  -> VERIFY: the packet is dropped either way, but software names
 *           why (zero checksum, Adler-32, or bad) for the counters;
 *   UNKNOWN -> VERIFY.
 * With RX offload off, or for UDP-encapsulated SCTP, always VERIFY.
 */
enum crc32c_rx_action crc32c_offload_rx_check(const struct crc32c_offload *o,
					      const struct rte_mbuf *m, bool udp_encap);

/*
 * Make the SCTP packet at [l4_off, l4_off + l4_len) leave with a correct
 * checksum. With TX offload on and the mbuf described for the NIC (l2_len +
 * l3_len == l4_off and RTE_MBUF_F_TX_IPV4 or _IPV6 set by the caller), the
 * field is zeroed and RTE_MBUF_F_TX_SCTP_CKSUM requested; otherwise the CRC
 * is computed and stored here. An l4_off that does not match l2_len +
 * l3_len is how UDP encapsulation shows, and is summed in software.
 * 0 or -EINVAL (span outside the chain).
 */
int crc32c_offload_tx_fill(const struct crc32c_offload *o, struct rte_mbuf *m, uint32_t l4_off,
			   uint32_t l4_len);

#ifdef __cplusplus
}
#endif

#endif /* DRIVERS_CRC32C_CRC32C_OFFLOAD_H */
