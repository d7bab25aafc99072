/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bring-up of one DPDK ethdev port for the data plane:
 * probe it (any PMD: net_ring, net_memif, net_tap, net_af_packet or a NIC),
 * configure one rx/tx queue pair per lcore that uses it, spread receive
 * over the queues with RSS when there are several, switch on the offloads
 * the port has and record which, start it and wait (bounded) for its link.
 *
 * Offloads follow one rule: enable what the port advertises, record what
 * was enabled, never fail because one is missing. The SCTP checksum choice
 * is crc32c_offload_decide()'s (drivers/crc32c/crc32c_offload.h), kept in
 * the port so that the receive and transmit paths ask the same decision.
 *
 * Errors are -errno with a sentence in port->error that names the step
 * ("rte_eth_dev_configure: Invalid argument (port 0, 4 queues)"). A failed
 * open undoes every step it took: no port left probed or started, no pool.
 *
 * Costs: open and close are control-path calls (milliseconds; up to
 * link_timeout_ms waiting for the link). dpsctp_port_stats_get() reads the
 * PMD's counters (a few hundred nanoseconds on software PMDs); call it from
 * the control path, not per burst.
 */
#ifndef DRIVERS_PORT_PORT_H
#define DRIVERS_PORT_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mempool.h>

#include "drivers/crc32c/crc32c_offload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per-queue counters exist for this many queues (RTE_ETHDEV_QUEUE_STAT_CNTRS). */
#define DPSCTP_PORT_MAX_QUEUES RTE_ETHDEV_QUEUE_STAT_CNTRS

/* Room for one error sentence, NUL included. */
#define DPSCTP_PORT_ERROR_LEN 192

/* Defaults taken when a conf field is 0. */
#define DPSCTP_PORT_RING_DEFAULT    1024
#define DPSCTP_PORT_LINK_TIMEOUT_MS 3000
/* A burst the lcores hold in flight per queue, counted into computed pools. */
#define DPSCTP_PORT_BURST 64

struct dpsctp_port_conf {
	/* Used when devargs is NULL: an already probed port. */
	uint16_t port_id;
	/*
	 * A device to probe, e.g. "net_tap0,iface=dp0" or "0000:01:00.0";
	 * the port is the ethdev named by the part before the first ','.
	 * Close removes what open probed.
	 */
	const char *devargs;
	/* rx/tx queue pairs, one per lcore using the port; 0 means 1. */
	uint16_t nb_queues;
	/*
	 * RSS spreads over the first rss_queues rx queues only (0: all of
	 * them): the ones after take what rte_flow rules send them and nothing
	 * else (the data plane's queue for handshakes, dpsctp_port_flow_vtag()
	 * with tag 0). Below 2 RSS is off. The RETA is programmed after start;
	 * a port that cannot program it fails open (-ENOTSUP, error written).
	 */
	uint16_t rss_queues;
	/* Descriptors per queue; 0 means DPSCTP_PORT_RING_DEFAULT. Adjusted to
	 * the PMD's limits; the port records the sizes in force. */
	uint16_t rx_ring_size;
	uint16_t tx_ring_size;
	/* 0 keeps the PMD's MTU (1500 on every software PMD). */
	uint16_t mtu;
	/*
	 * The caller's pool for the port's NUMA socket (one pool per socket
	 * shared by its ports), or NULL: open creates a pool on the port's
	 * socket with pool_size mbufs and a per-lcore cache of pool_cache,
	 * each computed from the queue counts when 0 (see
	 * dpsctp_port_pool_size), and close frees it.
	 */
	struct rte_mempool *pool;
	uint32_t pool_size;
	uint32_t pool_cache;
	bool promiscuous;
	/*
	 * RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE lets the PMD free sent mbufs
	 * without refcount checks. It is only correct when every mbuf sent
	 * comes from one pool with refcount 1; the SCTP path keeps references
	 * for retransmission (docs/ARCHITECTURE.md decision 3), so it is off unless the
	 * caller promises that here.
	 */
	bool tx_fast_free;
	/* How long open waits for link up; 0 means DPSCTP_PORT_LINK_TIMEOUT_MS.
	 * A link still down is recorded (link_up false), not an error. */
	uint32_t link_timeout_ms;
};

/* What the port can do (capa) and what open switched on. */
struct dpsctp_port_offloads {
	uint64_t rx_capa;  /* rte_eth_dev_info rx_offload_capa */
	uint64_t tx_capa;  /* tx_offload_capa */
	uint64_t rx;	   /* rxmode.offloads in force, a subset of rx_capa */
	uint64_t tx;	   /* txmode.offloads in force, a subset of tx_capa */
	uint64_t rss_capa; /* flow_type_rss_offloads */
	uint64_t rss_hf;   /* hash types in force, 0 when RSS is off */
	/* Where the SCTP CRC32c is checked and filled for this port. */
	struct crc32c_offload crc;
};

struct dpsctp_port {
	uint16_t port_id;
	int socket_id; /* the port's NUMA socket, SOCKET_ID_ANY if unknown */
	uint16_t nb_queues;
	uint16_t rss_queues; /* RSS spreads over queues 0..rss_queues-1 */
	uint16_t rx_ring_size;
	uint16_t tx_ring_size;
	uint16_t mtu;
	struct rte_mempool *pool;
	struct rte_ether_addr mac;
	bool link_up;
	uint32_t link_speed; /* Mb/s, RTE_ETH_SPEED_NUM_* */
	struct dpsctp_port_offloads offloads;
	char name[RTE_ETH_NAME_MAX_LEN];
	char driver[32];
	char error[DPSCTP_PORT_ERROR_LEN];
	/* Bookkeeping for close: the device, removed if open probed it. */
	struct rte_device *device;
	bool own_pool;
	bool probed;
	bool started;
	bool open;
};

struct dpsctp_port_queue_stats {
	uint64_t rx_packets;
	uint64_t rx_bytes;
	uint64_t rx_errors; /* q_errors: packets the PMD dropped on this queue */
	uint64_t tx_packets;
	uint64_t tx_bytes;
};

struct dpsctp_port_stats {
	uint64_t rx_packets;
	uint64_t rx_bytes;
	uint64_t rx_missed; /* imissed: dropped by the port, rings full */
	uint64_t rx_errors; /* ierrors: bad frames */
	uint64_t rx_nombuf; /* no mbuf to receive into */
	uint64_t tx_packets;
	uint64_t tx_bytes;
	uint64_t tx_errors; /* oerrors */
	uint16_t nb_queues; /* entries of queue[] filled */
	struct dpsctp_port_queue_stats queue[DPSCTP_PORT_MAX_QUEUES];
};

/*
 * Mbufs a pool needs for nb_queues queue pairs: every rx and tx descriptor
 * full, a burst in flight and a cache per queue, plus 1024 for the
 * application to hold (reassembly, retransmission).
 */
uint32_t dpsctp_port_pool_size(uint16_t nb_queues, uint16_t rx_ring_size, uint16_t tx_ring_size,
			       uint32_t cache);

/*
 * Bring the port up as conf says, filling *out. 0, or -errno with
 * out->error naming the failed step:
 *   -EINVAL  conf out of range (queues, ring sizes) or a bad devargs;
 *   -ENODEV  no such port, or the probed device made no ethdev port;
 *   -ENOMEM  pool creation failed;
 *   other    what the named rte_* call returned.
 * On failure nothing stays probed, configured or allocated.
 */
int dpsctp_port_open(const struct dpsctp_port_conf *conf, struct dpsctp_port *out);

/*
 * Stop and close the port, remove the device if open probed it, free the
 * pool if open created it. 0, or -EBUSY when mbufs of the port's own pool
 * are still held elsewhere: the port is closed but the pool is kept, and a
 * later call (after those mbufs are freed) frees it.
 */
int dpsctp_port_close(struct dpsctp_port *port);

/* Port and per-queue counters. 0 or -errno (port->error says why). */
int dpsctp_port_stats_get(struct dpsctp_port *port, struct dpsctp_port_stats *stats);

/* Zero the port's counters (basic and extended). 0 or -errno. */
int dpsctp_port_stats_reset(struct dpsctp_port *port);

/*
 * One extended counter by its PMD name ("rx_q0_errors", "rx_missed_errors",
 * ...): 0, or -ENOENT when the PMD has no counter of that name.
 */
int dpsctp_port_xstat(struct dpsctp_port *port, const char *name, uint64_t *value);

#ifdef __cplusplus
}
#endif

#endif /* DRIVERS_PORT_PORT_H */
