/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port bring-up: probe, configure (queues, RSS, offloads, MTU), pool,
 * queues, start, promiscuous mode, link wait; and close, counters. See
 * port.h for the contract. Every step that can fail writes one sentence
 * naming itself into port->error and unwinds what came before, in reverse.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>

#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "drivers/crc32c/crc32c_offload.h"
#include "drivers/port/port.h"

/*
 * Hash on addresses and ports of IP, SCTP and UDP (RFC 6951 encapsulation)
 * packets. Whether a NIC also hashes the SCTP verification tag under the
 * SCTP types is its own business: ethdev has no bit that asks for it.
 */
#define PORT_RSS_WANTED (RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_SCTP)

/* Slack in computed pools for mbufs the application holds (reassembly,
 * retransmission queues) beyond what the rings can hold. */
#define PORT_POOL_APP_SLACK 1024

/* Largest per-lcore cache of a computed pool (RTE_MEMPOOL_CACHE_MAX_SIZE is 512). */
#define PORT_POOL_CACHE_MAX 256

/* Link polling period while waiting for link up. */
#define PORT_LINK_POLL_US 10000

static void port_err(struct dpsctp_port *p, const char *fmt, ...) __rte_format_printf(2, 3);

static void
port_err(struct dpsctp_port *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->error, sizeof(p->error), fmt, ap);
	va_end(ap);
}

uint32_t
dpsctp_port_pool_size(uint16_t nb_queues, uint16_t rx_ring_size, uint16_t tx_ring_size,
		      uint32_t cache)
{
	uint32_t per_queue = (uint32_t)rx_ring_size + tx_ring_size + DPSCTP_PORT_BURST + cache;

	return (nb_queues == 0 ? 1u : nb_queues) * per_queue + PORT_POOL_APP_SLACK;
}

/*
 * Kernel interfaces a vdev's arguments name, which must exist before the
 * probe: a PMD that cannot open one fails with a bare -1, which reads as
 * "Operation not permitted". net_tap creates its iface= and
 * needs only its remote= to exist. Drivers match by name prefix, as the
 * vdev bus matches them (with their eth_ aliases).
 */
static const struct {
	const char *driver;
	const char *keys[4];
} port_iface_args[] = {
	{ "net_af_packet", { "iface" } },
	{ "eth_af_packet", { "iface" } },
	{ "net_af_xdp", { "iface" } },
	{ "net_pcap", { "iface", "rx_iface", "rx_iface_in", "tx_iface" } },
	{ "eth_pcap", { "iface", "rx_iface", "rx_iface_in", "tx_iface" } },
	{ "net_tap", { "remote" } },
};

/* Every interface conf->devargs names exists. 0, or -ENODEV with the error written. */
static int
port_check_ifaces(const struct dpsctp_port_conf *conf, struct dpsctp_port *p)
{
	const char *args = strchr(conf->devargs, ',');
	const char *const *keys = NULL;

	for (size_t i = 0; i < sizeof(port_iface_args) / sizeof(port_iface_args[0]); i++)
		if (strncmp(conf->devargs, port_iface_args[i].driver,
			    strlen(port_iface_args[i].driver)) == 0)
			keys = port_iface_args[i].keys;
	while (keys != NULL && args != NULL) {
		const char *key = args + 1;
		const char *eq = strchr(key, '=');
		const char *end = strchr(key, ',');

		args = end;
		if (end == NULL)
			end = key + strlen(key);
		if (eq == NULL || eq > end)
			continue;
		for (unsigned k = 0; k < 4 && keys[k] != NULL; k++) {
			char ifname[IF_NAMESIZE];
			size_t len = (size_t)(end - eq - 1);

			if (strlen(keys[k]) != (size_t)(eq - key) ||
			    strncmp(key, keys[k], (size_t)(eq - key)) != 0)
				continue;
			if (len == 0 || len >= sizeof(ifname)) {
				port_err(p, "%.*s: not an interface name (devargs \"%s\")",
					 (int)(end - key), key, conf->devargs);
				return -EINVAL;
			}
			memcpy(ifname, eq + 1, len);
			ifname[len] = '\0';
			if (if_nametoindex(ifname) == 0) {
				port_err(p, "no such interface %s (devargs \"%s\")", ifname,
					 conf->devargs);
				return -ENODEV;
			}
		}
	}
	return 0;
}

/*
 * Probe conf->devargs unless already probed, and find its ethdev port.
 * -errno with the error written.
 */
static int
port_probe(const struct dpsctp_port_conf *conf, struct dpsctp_port *p)
{
	char name[RTE_DEV_NAME_MAX_LEN];
	struct rte_eth_dev_info info;
	size_t len = strcspn(conf->devargs, ",");
	uint16_t pid;
	int ret;

	if (len == 0 || len >= sizeof(name)) {
		port_err(p, "devargs: no device name in \"%s\"", conf->devargs);
		return -EINVAL;
	}
	memcpy(name, conf->devargs, len);
	name[len] = '\0';
	ret = port_check_ifaces(conf, p);
	if (ret != 0)
		return ret;
	ret = rte_dev_probe(conf->devargs);
	if (ret == -1) {
		/* Most PMDs fail their probe with -1, not an errno: no strerror for it. */
		port_err(p, "rte_dev_probe: the driver refused \"%s\" (the EAL log above says why)",
			 conf->devargs);
		return -ENODEV;
	}
	if (ret != 0 && ret != -EEXIST) {
		port_err(p, "rte_dev_probe: %s (devargs \"%s\")", rte_strerror(-ret),
			 conf->devargs);
		return ret;
	}
	/* Someone else's device stays theirs: close does not remove it. */
	p->probed = ret == 0;

	ret = rte_eth_dev_get_port_by_name(name, &pid);
	if (ret == 0)
		ret = rte_eth_dev_info_get(pid, &info);
	if (ret != 0) {
		port_err(p, "rte_eth_dev_get_port_by_name: device \"%s\" made no ethdev port",
			 name);
		/* Nothing names the device now; it stays probed and unused. */
		p->probed = false;
		return -ENODEV;
	}
	p->port_id = pid;
	p->device = info.device;
	return 0;
}

/* Close and, if open probed it, remove the device. Errors go to p->error. */
static void
port_release(struct dpsctp_port *p)
{
	int ret = rte_eth_dev_close(p->port_id);

	if (ret != 0)
		port_err(p, "rte_eth_dev_close: %s (port %u)", rte_strerror(-ret), p->port_id);
	if (p->probed && p->device != NULL) {
		ret = rte_dev_remove(p->device);
		if (ret != 0)
			port_err(p, "rte_dev_remove: %s (port %u)", rte_strerror(-ret), p->port_id);
	}
	p->probed = false;
	p->device = NULL;
}

/* The offloads to ask for, recorded in p->offloads. */
static void
port_pick_offloads(const struct dpsctp_port_conf *conf, const struct rte_eth_dev_info *info,
		   struct dpsctp_port *p)
{
	struct dpsctp_port_offloads *o = &p->offloads;
	uint64_t tx_extra = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_MULTI_SEGS;

	if (conf->tx_fast_free)
		tx_extra |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	o->rx_capa = info->rx_offload_capa;
	o->tx_capa = info->tx_offload_capa;
	o->rss_capa = info->flow_type_rss_offloads;
	o->crc = crc32c_offload_decide(info);
	o->rx = (crc32c_offload_rx_offloads(&o->crc) |
		 (info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_IPV4_CKSUM)) &
		info->rx_offload_capa;
	o->tx = (crc32c_offload_tx_offloads(&o->crc) | (info->tx_offload_capa & tx_extra)) &
		info->tx_offload_capa;
	o->rss_hf = p->rss_queues > 1 ? PORT_RSS_WANTED & info->flow_type_rss_offloads : 0;
}

/* Create the port's own pool on its socket. -errno with the error written. */
static int
port_pool_create(const struct dpsctp_port_conf *conf, struct dpsctp_port *p)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	uint32_t cache = conf->pool_cache;
	uint32_t n = conf->pool_size;
	/* Room for an MTU-sized frame with two VLAN tags in one segment. */
	uint32_t frame = (uint32_t)p->mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN + 8;
	uint32_t room = RTE_MBUF_DEFAULT_DATAROOM > frame ? RTE_MBUF_DEFAULT_DATAROOM : frame;

	if (cache == 0 && n == 0)
		cache = PORT_POOL_CACHE_MAX;
	if (n == 0)
		n = dpsctp_port_pool_size(p->nb_queues, p->rx_ring_size, p->tx_ring_size, cache);
	/* rte_mempool_create refuses a cache above n / 1.5. */
	if (cache > RTE_MEMPOOL_CACHE_MAX_SIZE || cache * 3 / 2 > n)
		cache = n * 2 / 3 < RTE_MEMPOOL_CACHE_MAX_SIZE ? n * 2 / 3
							       : RTE_MEMPOOL_CACHE_MAX_SIZE;
	if (room + RTE_PKTMBUF_HEADROOM > UINT16_MAX) {
		port_err(p, "rte_pktmbuf_pool_create: MTU %u needs more than a 64 KiB segment",
			 p->mtu);
		return -EINVAL;
	}
	snprintf(name, sizeof(name), "dpsctp_port%u", p->port_id);
	p->pool = rte_pktmbuf_pool_create(name, n, cache, 0,
					  (uint16_t)(room + RTE_PKTMBUF_HEADROOM), p->socket_id);
	if (p->pool == NULL) {
		int err = rte_errno;
		struct rte_malloc_socket_stats st;
		size_t free_mib = 0;

		/* Out of memory: say how much there was, and where more comes from
		 * (without hugepages the EAL has its -m, 64 MiB by default, and no more). */
		if (err == ENOMEM)
			for (unsigned i = 0; i < rte_socket_count(); i++)
				if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) == 0)
					free_mib += st.heap_freesz_bytes >> 20;
		if (err == ENOMEM)
			port_err(p,
				 "rte_pktmbuf_pool_create: %s (%u mbufs of %u bytes, cache %u, "
				 "socket %d; %zu MiB free: %s, or fewer mbufs)",
				 rte_strerror(err), n, room + RTE_PKTMBUF_HEADROOM, cache,
				 p->socket_id, free_mib,
				 rte_eal_has_hugepages() ? "more hugepages" : "a larger -m");
		else
			port_err(p, "rte_pktmbuf_pool_create: %s (%u mbufs, cache %u, socket %d)",
				 rte_strerror(err), n, cache, p->socket_id);
		return err > 0 ? -err : -ENOMEM;
	}
	p->own_pool = true;
	return 0;
}

/* Free the port's own pool if nothing holds its mbufs. 0 or -EBUSY. */
static int
port_pool_free(struct dpsctp_port *p)
{
	unsigned int in_use;

	if (!p->own_pool || p->pool == NULL)
		return 0;
	in_use = rte_mempool_in_use_count(p->pool);
	if (in_use != 0) {
		port_err(p, "rte_mempool_free: %u mbufs of pool %s still in use; pool kept", in_use,
			 p->pool->name);
		return -EBUSY;
	}
	rte_mempool_free(p->pool);
	p->pool = NULL;
	p->own_pool = false;
	return 0;
}

static int
port_queues_setup(struct dpsctp_port *p, const struct rte_eth_dev_info *info)
{
	struct rte_eth_rxconf rxconf = info->default_rxconf;
	struct rte_eth_txconf txconf = info->default_txconf;
	uint16_t q;
	int ret;

	rxconf.offloads = p->offloads.rx;
	txconf.offloads = p->offloads.tx;
	for (q = 0; q < p->nb_queues; q++) {
		ret = rte_eth_rx_queue_setup(p->port_id, q, p->rx_ring_size, p->socket_id, &rxconf,
					     p->pool);
		if (ret != 0) {
			port_err(p,
				 "rte_eth_rx_queue_setup: %s (port %u, queue %u, %u descriptors)",
				 rte_strerror(-ret), p->port_id, q, p->rx_ring_size);
			return ret;
		}
		ret = rte_eth_tx_queue_setup(p->port_id, q, p->tx_ring_size, p->socket_id, &txconf);
		if (ret != 0) {
			port_err(p,
				 "rte_eth_tx_queue_setup: %s (port %u, queue %u, %u descriptors)",
				 rte_strerror(-ret), p->port_id, q, p->tx_ring_size);
			return ret;
		}
	}
	return 0;
}

/*
 * RSS over the first rss_queues rx queues only, when there are queues after
 * them (reserved for rte_flow rules): the redirection table filled with
 * 0..rss_queues-1 in turn. Nothing to do without RSS or without reserved
 * queues. -errno with the error written when the PMD refuses.
 */
static int
port_reta_limit(struct dpsctp_port *p, const struct rte_eth_dev_info *info)
{
	if (p->offloads.rss_hf == 0 || p->rss_queues >= p->nb_queues)
		return 0;
	uint16_t size = info->reta_size;
	if (size == 0 || size > RTE_ETH_RSS_RETA_SIZE_512) {
		port_err(p, "RSS over %u of %u queues: port %u (%s) has a RETA of %u entries",
			 p->rss_queues, p->nb_queues, p->port_id, p->driver, size);
		return -ENOTSUP;
	}
	struct rte_eth_rss_reta_entry64 reta[RTE_ETH_RSS_RETA_SIZE_512 / RTE_ETH_RETA_GROUP_SIZE];
	memset(reta, 0, sizeof(reta));
	for (uint16_t i = 0; i < size; i++) {
		reta[i / RTE_ETH_RETA_GROUP_SIZE].mask |= 1ull << (i % RTE_ETH_RETA_GROUP_SIZE);
		reta[i / RTE_ETH_RETA_GROUP_SIZE].reta[i % RTE_ETH_RETA_GROUP_SIZE] =
			(uint16_t)(i % p->rss_queues);
	}
	int ret = rte_eth_dev_rss_reta_update(p->port_id, reta, size);
	if (ret != 0) {
		port_err(p,
			 "rte_eth_dev_rss_reta_update: %s (port %u %s, RSS over %u of %u queues)",
			 rte_strerror(-ret), p->port_id, p->driver, p->rss_queues, p->nb_queues);
		return ret;
	}
	return 0;
}

/* Bounded wait for link up; a link still down is recorded, not an error. */
static void
port_link_wait(struct dpsctp_port *p, uint32_t timeout_ms)
{
	uint64_t waited_us = 0;
	struct rte_eth_link link;

	for (;;) {
		memset(&link, 0, sizeof(link));
		if (rte_eth_link_get_nowait(p->port_id, &link) == 0 &&
		    link.link_status == RTE_ETH_LINK_UP)
			break;
		if (waited_us >= (uint64_t)timeout_ms * 1000)
			break;
		rte_delay_us_sleep(PORT_LINK_POLL_US);
		waited_us += PORT_LINK_POLL_US;
	}
	p->link_up = link.link_status == RTE_ETH_LINK_UP;
	p->link_speed = link.link_speed;
}

/* Everything after the port is known; on failure the caller unwinds. */
static int
port_bring_up(const struct dpsctp_port_conf *conf, struct dpsctp_port *p)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf ec;
	int ret;

	ret = rte_eth_dev_info_get(p->port_id, &info);
	if (ret != 0) {
		port_err(p, "rte_eth_dev_info_get: %s (port %u)", rte_strerror(-ret), p->port_id);
		return ret;
	}
	snprintf(p->driver, sizeof(p->driver), "%s",
		 info.driver_name != NULL ? info.driver_name : "");
	rte_eth_dev_get_name_by_port(p->port_id, p->name);
	p->socket_id = rte_eth_dev_socket_id(p->port_id);
	if (p->nb_queues > info.max_rx_queues || p->nb_queues > info.max_tx_queues) {
		port_err(p, "nb_queues: port %u (%s) has at most %u rx and %u tx queues, %u asked",
			 p->port_id, p->driver, info.max_rx_queues, info.max_tx_queues,
			 p->nb_queues);
		return -EINVAL;
	}
	port_pick_offloads(conf, &info, p);

	memset(&ec, 0, sizeof(ec));
	ec.rxmode.mtu = conf->mtu;
	ec.rxmode.offloads = p->offloads.rx;
	ec.txmode.offloads = p->offloads.tx;
	if (p->offloads.rss_hf != 0) {
		ec.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		ec.rx_adv_conf.rss_conf.rss_key = NULL; /* the PMD's default key */
		ec.rx_adv_conf.rss_conf.rss_hf = p->offloads.rss_hf;
	}
	ret = rte_eth_dev_configure(p->port_id, p->nb_queues, p->nb_queues, &ec);
	if (ret != 0) {
		port_err(p, "rte_eth_dev_configure: %s (port %u, %u queues, MTU %u)",
			 rte_strerror(-ret), p->port_id, p->nb_queues, conf->mtu);
		return ret;
	}
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(p->port_id, &p->rx_ring_size, &p->tx_ring_size);
	if (ret != 0) {
		port_err(p, "rte_eth_dev_adjust_nb_rx_tx_desc: %s (port %u)", rte_strerror(-ret),
			 p->port_id);
		return ret;
	}
	ret = rte_eth_dev_get_mtu(p->port_id, &p->mtu);
	if (ret != 0)
		p->mtu = conf->mtu != 0 ? conf->mtu : RTE_ETHER_MTU;

	if (conf->pool != NULL) {
		p->pool = conf->pool;
	} else {
		ret = port_pool_create(conf, p);
		if (ret != 0)
			return ret;
	}
	ret = port_queues_setup(p, &info);
	if (ret != 0)
		return ret;

	ret = rte_eth_dev_start(p->port_id);
	if (ret != 0) {
		port_err(p, "rte_eth_dev_start: %s (port %u)", rte_strerror(-ret), p->port_id);
		return ret;
	}
	p->started = true;
	ret = port_reta_limit(p, &info);
	if (ret != 0)
		return ret;

	ret = conf->promiscuous ? rte_eth_promiscuous_enable(p->port_id)
				: rte_eth_promiscuous_disable(p->port_id);
	/* A port that cannot leave promiscuous mode only receives more. */
	if (ret != 0 && (conf->promiscuous || ret != -ENOTSUP)) {
		port_err(p, "rte_eth_promiscuous_%s: %s (port %u)",
			 conf->promiscuous ? "enable" : "disable", rte_strerror(-ret), p->port_id);
		return ret;
	}
	ret = rte_eth_macaddr_get(p->port_id, &p->mac);
	if (ret != 0) {
		port_err(p, "rte_eth_macaddr_get: %s (port %u)", rte_strerror(-ret), p->port_id);
		return ret;
	}
	port_link_wait(p, conf->link_timeout_ms != 0 ? conf->link_timeout_ms
						     : DPSCTP_PORT_LINK_TIMEOUT_MS);
	return 0;
}

int
dpsctp_port_open(const struct dpsctp_port_conf *conf, struct dpsctp_port *out)
{
	char why[DPSCTP_PORT_ERROR_LEN];
	int ret;

	if (out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->socket_id = SOCKET_ID_ANY;
	if (conf == NULL) {
		port_err(out, "dpsctp_port_open: no configuration");
		return -EINVAL;
	}
	out->nb_queues = conf->nb_queues != 0 ? conf->nb_queues : 1;
	out->rss_queues = conf->rss_queues != 0 && conf->rss_queues < out->nb_queues
				  ? conf->rss_queues
				  : out->nb_queues;
	out->rx_ring_size = conf->rx_ring_size != 0 ? conf->rx_ring_size : DPSCTP_PORT_RING_DEFAULT;
	out->tx_ring_size = conf->tx_ring_size != 0 ? conf->tx_ring_size : DPSCTP_PORT_RING_DEFAULT;
	if (out->nb_queues > DPSCTP_PORT_MAX_QUEUES) {
		port_err(out, "nb_queues: %u asked, at most %u supported", out->nb_queues,
			 DPSCTP_PORT_MAX_QUEUES);
		return -EINVAL;
	}

	if (conf->devargs != NULL) {
		ret = port_probe(conf, out);
		if (ret != 0)
			return ret;
	} else {
		if (!rte_eth_dev_is_valid_port(conf->port_id)) {
			port_err(out, "rte_eth_dev_is_valid_port: port %u does not exist",
				 conf->port_id);
			return -ENODEV;
		}
		out->port_id = conf->port_id;
	}

	ret = port_bring_up(conf, out);
	if (ret == 0) {
		out->open = true;
		return 0;
	}
	/* Unwind, keeping the first error: the one that names the failed step. */
	memcpy(why, out->error, sizeof(why));
	if (out->started)
		rte_eth_dev_stop(out->port_id);
	out->started = false;
	if (out->probed)
		port_release(out);
	port_pool_free(out);
	memcpy(out->error, why, sizeof(why));
	return ret < 0 ? ret : -EIO;
}

int
dpsctp_port_close(struct dpsctp_port *port)
{
	int ret;

	if (port == NULL)
		return -EINVAL;
	if (port->open) {
		if (port->started) {
			ret = rte_eth_dev_stop(port->port_id);
			if (ret != 0)
				port_err(port, "rte_eth_dev_stop: %s (port %u)", rte_strerror(-ret),
					 port->port_id);
			port->started = false;
		}
		/* Closing returns the mbufs the PMD holds (prefilled rx rings). */
		port_release(port);
		port->open = false;
	}
	return port_pool_free(port);
}

int
dpsctp_port_stats_get(struct dpsctp_port *port, struct dpsctp_port_stats *stats)
{
	struct rte_eth_stats s;
	uint16_t q;
	int ret;

	memset(stats, 0, sizeof(*stats));
	ret = rte_eth_stats_get(port->port_id, &s);
	if (ret != 0) {
		port_err(port, "rte_eth_stats_get: %s (port %u)", rte_strerror(-ret),
			 port->port_id);
		return ret;
	}
	stats->rx_packets = s.ipackets;
	stats->rx_bytes = s.ibytes;
	stats->rx_missed = s.imissed;
	stats->rx_errors = s.ierrors;
	stats->rx_nombuf = s.rx_nombuf;
	stats->tx_packets = s.opackets;
	stats->tx_bytes = s.obytes;
	stats->tx_errors = s.oerrors;
	stats->nb_queues = port->nb_queues;
	for (q = 0; q < port->nb_queues && q < DPSCTP_PORT_MAX_QUEUES; q++) {
		stats->queue[q].rx_packets = s.q_ipackets[q];
		stats->queue[q].rx_bytes = s.q_ibytes[q];
		stats->queue[q].rx_errors = s.q_errors[q];
		stats->queue[q].tx_packets = s.q_opackets[q];
		stats->queue[q].tx_bytes = s.q_obytes[q];
	}
	return 0;
}

int
dpsctp_port_stats_reset(struct dpsctp_port *port)
{
	int ret = rte_eth_stats_reset(port->port_id);

	if (ret != 0) {
		port_err(port, "rte_eth_stats_reset: %s (port %u)", rte_strerror(-ret),
			 port->port_id);
		return ret;
	}
	ret = rte_eth_xstats_reset(port->port_id);
	/* Basic counters are reset; a PMD without xstats has nothing more. */
	if (ret != 0 && ret != -ENOTSUP) {
		port_err(port, "rte_eth_xstats_reset: %s (port %u)", rte_strerror(-ret),
			 port->port_id);
		return ret;
	}
	return 0;
}

int
dpsctp_port_xstat(struct dpsctp_port *port, const char *name, uint64_t *value)
{
	uint64_t id;
	int ret;

	ret = rte_eth_xstats_get_id_by_name(port->port_id, name, &id);
	if (ret != 0) {
		port_err(port, "rte_eth_xstats_get_id_by_name: no counter \"%s\" on port %u", name,
			 port->port_id);
		return -ENOENT;
	}
	ret = rte_eth_xstats_get_by_id(port->port_id, &id, value, 1);
	if (ret != 1) {
		port_err(port, "rte_eth_xstats_get_by_id: %s (port %u, \"%s\")",
			 rte_strerror(ret < 0 ? -ret : EIO), port->port_id, name);
		return ret < 0 ? ret : -EIO;
	}
	return 0;
}
