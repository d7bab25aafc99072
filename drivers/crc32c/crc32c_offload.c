/* SPDX-License-Identifier: BSD-3-Clause */
/* The NIC-or-software decision for the SCTP checksum. See crc32c_offload.h. */
#include <errno.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "drivers/crc32c/crc32c_mbuf.h"
#include "drivers/crc32c/crc32c_offload.h"

struct crc32c_offload
crc32c_offload_decide(const struct rte_eth_dev_info *info)
{
	struct crc32c_offload o = {
		.rx = (info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCTP_CKSUM)
			      ? CRC32C_WHERE_NIC
			      : CRC32C_WHERE_SOFTWARE,
		.tx = (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_SCTP_CKSUM)
			      ? CRC32C_WHERE_NIC
			      : CRC32C_WHERE_SOFTWARE,
	};

	return o;
}

uint64_t
crc32c_offload_rx_offloads(const struct crc32c_offload *o)
{
	return o->rx == CRC32C_WHERE_NIC ? RTE_ETH_RX_OFFLOAD_SCTP_CKSUM : 0;
}

uint64_t
crc32c_offload_tx_offloads(const struct crc32c_offload *o)
{
	return o->tx == CRC32C_WHERE_NIC ? RTE_ETH_TX_OFFLOAD_SCTP_CKSUM : 0;
}

const char *
crc32c_where_name(enum crc32c_where w)
{
	switch (w) {
	case CRC32C_WHERE_SOFTWARE:
		return "software";
	case CRC32C_WHERE_NIC:
		return "nic";
	}
	return "unknown";
}

enum crc32c_rx_action
crc32c_offload_rx_check(const struct crc32c_offload *o, const struct rte_mbuf *m, bool udp_encap)
{
	/* Flags are only trusted when we asked the port for them. */
	if (o->rx != CRC32C_WHERE_NIC || udp_encap)
		return CRC32C_RX_VERIFY;
	switch (m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) {
	case RTE_MBUF_F_RX_L4_CKSUM_GOOD:
	case RTE_MBUF_F_RX_L4_CKSUM_NONE:
		return CRC32C_RX_ACCEPT;
	default:
		return CRC32C_RX_VERIFY;
	}
}

int
crc32c_offload_tx_fill(const struct crc32c_offload *o, struct rte_mbuf *m, uint32_t l4_off,
		       uint32_t l4_len)
{
	bool described = (uint32_t)m->l2_len + m->l3_len == l4_off &&
			 (m->ol_flags & (RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IPV6)) != 0;

	if (l4_len < CRC32C_SCTP_COMMON_HDR_LEN || l4_off > m->pkt_len ||
	    l4_len > m->pkt_len - l4_off)
		return -EINVAL;
	if (o->tx == CRC32C_WHERE_NIC && described) {
		/*
		 * Zeroed so that the result is right whether a NIC sums the
		 * field as found or as zero.
		 */
		if (crc32c_mbuf_sctp_store(m, l4_off, 0) != 0)
			return -EINVAL;
		m->ol_flags = (m->ol_flags & ~RTE_MBUF_F_TX_L4_MASK) | RTE_MBUF_F_TX_SCTP_CKSUM;
		return 0;
	}
	m->ol_flags &= ~RTE_MBUF_F_TX_L4_MASK;
	return crc32c_mbuf_sctp_fill(m, l4_off, l4_len);
}
