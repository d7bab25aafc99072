/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The embedded API (dataplane/dpsctp.h): an instance's life (create, poll or
 * start, stop, destroy) and the calls on associations.
 *
 * Threading (docs/API.md): a call on an association runs at once when the
 * calling thread owns the association's worker — inside that worker's
 * poll, i.e. in a callback, or on an instance that was never started, where
 * the caller polls every worker itself and so owns them all. From any other
 * thread it becomes a request on the worker's MP/SC ring (dp_req.c),
 * executed at the worker's next poll; the call then reports only whether it
 * was queued.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_pdump.h>

#include "dataplane/dp_conn.h"
#include "dataplane/dp_opt.h"
#include "dataplane/dp_req.h"
#include "dataplane/dp_stats.h"
#include "dataplane/dp_telemetry.h"
#include "dataplane/dp_tx.h"
#include "dataplane/dp_worker.h"
#include "drivers/port/flow.h"

/*
 * Payloads up to this size are copied into the packet (--copy-max auto): the
 * crossover bench/dp_copy_bench.cc measures (docs/PERFORMANCE.md "Copy or
 * refer"): 512 bytes when the payload is not in cache, above 1 KiB when it is.
 */
#define DP_COPY_MAX_DEFAULT 512u

static void
dp_err(char *err, size_t errlen, const char *fmt, const char *what, int rc)
{
	if (err != NULL && errlen != 0)
		snprintf(err, errlen, fmt, what, rc);
}

int
dpsctp_eal_init(int argc, char **argv)
{
	int n = rte_eal_init(argc, argv);
	if (n < 0)
		return -ENODEV;
	/*
	 * dpdk-dumpcap attaches as a secondary process, which needs the shared
	 * hugepage memory: with --no-huge there is nothing to attach to, so
	 * pdump is only started with hugepages.
	 */
	if (rte_eal_has_hugepages() && rte_eal_process_type() == RTE_PROC_PRIMARY)
		dp_pdump_on = rte_pdump_init() == 0;
	return n;
}

/*
 * --neighbours 0: a next hop for every path of every association (pinned
 * entries are never evicted, docs/NET.md), plus 64 for the gateways, the
 * resolving pool and peers not yet associated; at most 2^20.
 */
static uint32_t
dp_neighbours_default(const struct dpsctp_config *c)
{
	uint64_t n = (uint64_t)c->max_assocs * (c->max_paths != 0 ? c->max_paths : 1u) + 64u;
	return n > (1u << 20) ? 1u << 20 : (uint32_t)n;
}

static void
dp_settings(struct dpsctp *d, const struct dpsctp_config *c)
{
	struct dp_settings *s = &d->set;
	for (unsigned i = 0; i < c->n_ips && i < DPSCTP_L3_ADDR_MAX; i++) {
		struct dp_port_settings *ps = &s->port[c->ips[i].port];
		s->addrs[i] = c->ips[i].addr;
		s->prefix[i] = c->ips[i].prefix;
		s->n_addrs++;
		ps->addrs[ps->n_addrs] = c->ips[i].addr;
		ps->prefix[ps->n_addrs++] = c->ips[i].prefix;
	}
	s->port[0].gw4 = c->gw4;
	s->port[0].gw6 = c->gw6;
	for (unsigned p = 1; p < DPSCTP_CONFIG_MAX_PORTS; p++) {
		s->port[p].gw4 = c->port_gw4[p - 1];
		s->port[p].gw6 = c->port_gw6[p - 1];
	}
	s->udp_encap = c->udp_encap;
	s->udp_port = c->udp_port;
	s->max_assocs = c->max_assocs;
	s->max_handshakes = c->max_handshakes;
	/* Each at most --max-assocs; --max-paths 1 keeps every association single-homed. */
	s->active_assocs = c->active_assocs != 0 ? c->active_assocs : DP_ACTIVE_DEFAULT;
	if (s->active_assocs > s->max_assocs)
		s->active_assocs = s->max_assocs;
	s->multihomed = c->max_paths <= 1				      ? 0
			: c->multihomed != 0 && c->multihomed < s->max_assocs ? c->multihomed
									      : s->max_assocs;
	s->rcvbuf = c->rcvbuf;
	s->sndbuf = c->sndbuf;
	s->max_streams = (uint16_t)c->max_streams; /* 1..65535: dpsctp_config_validate() */
	s->copy_max =
		c->copy_max == DPSCTP_CONFIG_COPY_MAX_AUTO ? DP_COPY_MAX_DEFAULT : c->copy_max;
	s->neighbours = c->neighbours != 0 ? c->neighbours : dp_neighbours_default(c);
}

/*
 * Bytes of a pool data block: the core's own size
 * (sctp_assoc_data_bytes()) for that many streams both ways, under the fields of
 * a worker's data config (dp_worker.c) the layout depends on: the TSN map's
 * words, the duplicates listed, the send side on (its pools set) and, with
 * I-DATA configured, I-DATA's reassembly (its pool set; its per-stream
 * state is larger than DATA's), and the send state of --max-paths paths. The size reads only that
 * the pools are set.
 */
static uint32_t
dp_data_bytes(uint16_t streams, bool idata, uint32_t max_paths)
{
	struct sctp_outq_pool outq;
	struct sctp_rtxq_pool rtxq;
	struct sctp_ireasm_pool ireasm;
	const struct sctp_data_config dc = {
		.tsn_map_words = DP_TSN_MAP_WORDS,
		.max_dups = DP_MAX_DUPS,
		.outq_pool = &outq,
		.rtxq_pool = &rtxq,
		.ireasm_pool = idata ? &ireasm : NULL,
		.max_paths = (uint8_t)max_paths,
	};
	return (uint32_t)sctp_assoc_data_bytes(&dc, streams, streams);
}

/*
 * Fitting the mbuf pools into the EAL's memory (a default pool of 36,160
 * mbufs does not fit in the 64 MiB that --no-huge gives without -m, and the
 * failure must say what would). With hugepages the EAL grows its
 * heap on demand, up to the hugepages there are, and nothing is checked
 * here. Without them it has exactly its -m and never more: the pool is
 * fitted to what is free once the workers' tables are made.
 */
#define DP_MIB		  (1024u * 1024u)
#define DP_FIT_SLACK_MIB  2u  /* headers, rings and allocator overhead the sums miss */
#define DP_FIT_SLACK_FRAC 32u /* and 1/32 of what the pools take */

/* The EAL's heaps over every socket: bytes in all, and free. */
static void
dp_heap(size_t *total, size_t *free_bytes)
{
	struct rte_malloc_socket_stats st;
	*total = *free_bytes = 0;
	for (unsigned i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) == 0) {
			*total += st.heap_totalsz_bytes;
			*free_bytes += st.heap_freesz_bytes;
		}
}

/*
 * Bytes a pool of n objects of elt bytes takes from memory of 4 KiB pages
 * (no hugepages): rte_mempool keeps each object inside one page when it
 * fits one (IOVA-contiguous objects), so a 2.3 KiB mbuf takes a page of its
 * own; plus the header with its per-lcore caches, and the ring.
 */
static size_t
dp_pool_bytes(uint32_t n, uint32_t elt, bool cache)
{
	struct rte_mempool_objsz sz;
	size_t obj = rte_mempool_calc_obj_size(elt, 0, &sz);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t bytes = obj <= page ? ((size_t)n + page / obj - 1) / (page / obj) * page
				   : RTE_ALIGN_CEIL(obj, page) * n;
	bytes += sizeof(struct rte_mempool) +
		 (cache ? RTE_MAX_LCORE * sizeof(struct rte_mempool_cache) : 0);
	return bytes + (size_t)rte_ring_get_memsize(rte_align32pow2(n + 1));
}

/* The port's pool of n mbufs (drivers/port: a frame of the MTU in one
 * segment) and the instance's indirect pool of as many. */
static size_t
dp_pools_bytes(const struct dpsctp *d, uint32_t n)
{
	uint32_t mtu = d->cfg.mtu != 0 ? d->cfg.mtu : 1500u; /* software PMDs' MTU */
	uint32_t frame = mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN + 8u;
	uint32_t room = frame > RTE_MBUF_DEFAULT_DATAROOM ? frame : RTE_MBUF_DEFAULT_DATAROOM;
	size_t bytes =
		dp_pool_bytes(n, (uint32_t)sizeof(struct rte_mbuf) + RTE_PKTMBUF_HEADROOM + room,
			      true) +
		dp_pool_bytes(n, (uint32_t)sizeof(struct rte_mbuf), true);
	return bytes + bytes / DP_FIT_SLACK_FRAC;
}

/*
 * Bytes one worker's tables and blocks take (dp_worker_create()), measured:
 * one is made on a scratch copy of the instance (as dp_create() has it
 * when it makes the workers) and freed again, so the figure follows
 * whatever the tables become. 0; -ENOMEM when they do not fit, with an
 * estimate from a worker for a fraction of the associations, scaled up (an
 * overestimate: not every table grows with them); or another
 * dp_worker_create() error, which the real one will report.
 */
static int
dp_worker_bytes(const struct dpsctp *d, size_t *bytes)
{
	struct dpsctp *s = rte_malloc("dpsctp_sizing", sizeof(*s), RTE_CACHE_LINE_SIZE);
	int rc = -ENOMEM;
	*bytes = 0;
	if (s == NULL)
		return -ENOMEM;
	for (uint32_t k = 1; k <= d->set.max_assocs && *bytes == 0; k *= 2) {
		size_t total, free0, free1;
		memcpy(s, d, sizeof(*s));
		memset(s->w, 0, sizeof(s->w));
		s->max_listeners = d->cfg.listeners;
		s->set.max_assocs = (d->set.max_assocs + k - 1u) / k;
		dp_heap(&total, &free0);
		int r = dp_worker_create(s, 0);
		dp_heap(&total, &free1);
		dp_worker_destroy(s->w[0]);
		if (r == 0)
			*bytes = (free0 > free1 ? free0 - free1 : 0) * k;
		if (k == 1)
			rc = r;
		if (r != 0 && r != -ENOMEM)
			break;
	}
	rte_free(s);
	return rc;
}

/* MiB, rounded up. */
static size_t
dp_mib(size_t bytes)
{
	return (bytes + DP_MIB - 1u) / DP_MIB;
}

/*
 * The -m that would hold want bytes where free_bytes of total are free now:
 * the EAL's memory scaled by want / free, which also holds when this
 * instance was given a share (two ends in one process each fit into half
 * of it, apps/common app_hold_half()).
 */
static size_t
dp_m_for(size_t want, size_t free_bytes, size_t total)
{
	double scale = free_bytes != 0 ? (double)want / (double)free_bytes : 1.0;
	return dp_mib((size_t)((double)total * scale)) + DP_FIT_SLACK_MIB;
}

/*
 * Without hugepages: *n mbufs (computed: cut to fit, not below least, with
 * a line on stderr; the user's --mbufs: as given or not at all) in the
 * memory free once the workers' tables are made. 0, or -ENOMEM with one
 * sentence naming the -m that would do in err.
 */
static int
dp_fit_pool(const struct dpsctp *d, uint32_t *n, uint32_t least, bool computed, char *err,
	    size_t errlen)
{
	size_t total, free_bytes;
	if (err == NULL)
		errlen = 0;
	dp_heap(&total, &free_bytes);
	size_t tables = 0;
	int rc = dp_worker_bytes(d, &tables);
	if (rc != 0 && rc != -ENOMEM)
		return 0; /* not a matter of memory: the workers' creation says what */
	tables *= d->n_workers;
	size_t slack = (size_t)DP_FIT_SLACK_MIB * DP_MIB;
	if (rc == -ENOMEM) {
		/* The tables alone do not fit; what with the least pool would. */
		size_t want = tables + dp_pools_bytes(d, least) + slack;
		snprintf(err, errlen,
			 "the tables of %u associations do not fit in the %zu MiB free of the "
			 "EAL's %zu MiB (no hugepages): give the EAL -m %zu%s, or lower "
			 "--max-assocs, --rcvbuf, --sndbuf (%d)",
			 d->set.max_assocs, free_bytes / DP_MIB, total / DP_MIB,
			 dp_m_for(want, free_bytes, total), tables != 0 ? "" : " or more", -ENOMEM);
		return -ENOMEM;
	}
	size_t want = tables + dp_pools_bytes(d, *n) + slack;
	if (want <= free_bytes)
		return 0;
	uint32_t fit = 0;
	if (computed) {
		/* The largest pool that fits, by bisection (page rounding: not linear). */
		uint32_t lo = 0, hi = *n;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo + 1u) / 2u;
			if (tables + dp_pools_bytes(d, mid) + slack <= free_bytes)
				lo = mid;
			else
				hi = mid - 1u;
		}
		fit = lo;
	}
	if (computed && fit >= least) {
		fprintf(stderr,
			"%s: dpsctp: a pool of %u mbufs, not the %u computed from the limits: the "
			"EAL's %zu MiB (no hugepages) have %zu free; -m %zu would hold them all\n",
			program_invocation_short_name, fit, *n, total / DP_MIB, free_bytes / DP_MIB,
			dp_m_for(want, free_bytes, total));
		*n = fit;
		return 0;
	}
	uint32_t need = computed ? least : *n;
	want = tables + dp_pools_bytes(d, need) + slack;
	snprintf(err, errlen,
		 "%u mbufs%s and the tables of %u associations need %zu MiB together, the EAL's "
		 "%zu MiB (no "
		 "hugepages) have %zu free: give the EAL -m %zu, or lower %s--max-assocs (%d)",
		 need, computed ? " (the least the port's rings need)" : " (--mbufs)",
		 d->set.max_assocs, dp_mib(want), total / DP_MIB, free_bytes / DP_MIB,
		 dp_m_for(want, free_bytes, total), computed ? "" : "--mbufs, ", -ENOMEM);
	return -ENOMEM;
}

/* The configuration's checks before anything is made: 0, or -EINVAL with err. */
static int
dp_create_check(const struct dpsctp_config *cfg, char *err, size_t errlen)
{
	char why[256];

	if (cfg == NULL) {
		dp_err(err, errlen, "%s (%d)", "no configuration", -EINVAL);
		return -EINVAL;
	}
	if (dpsctp_config_validate(cfg, why, sizeof(why)) != 0) {
		dp_err(err, errlen, "%s", why, 0);
		return -EINVAL;
	}
	if (cfg->n_ports < 1 || cfg->n_ports > DPSCTP_CONFIG_MAX_PORTS) {
		dp_err(err, errlen, "%s (got %d)", "an instance drives 1 to 4 --port",
		       (int)cfg->n_ports);
		return -EINVAL;
	}
	return 0;
}

/* The instance with its settings and profile resolved from cfg; nothing made yet. */
static struct dpsctp *
dp_instance_new(const struct dpsctp_config *cfg, char *err, size_t errlen)
{
	struct dpsctp *d = rte_zmalloc("dpsctp", sizeof(*d), RTE_CACHE_LINE_SIZE);
	if (d == NULL) {
		dp_err(err, errlen, "%s (%d)", "no memory for the instance", -ENOMEM);
		return NULL;
	}
	d->cfg = *cfg;
	dp_settings(d, cfg);
	d->profile = cfg->profile == DPSCTP_CONFIG_PROFILE_RFC ? sctp_profile_rfc : sctp_profile_dc;
	if (d->cfg.icmp_unreach != DPSCTP_CONFIG_ICMP_UNREACH_PROFILE)
		d->profile.proto_unreach_aborts =
			d->cfg.icmp_unreach == DPSCTP_CONFIG_ICMP_UNREACH_ABORT;
	/* Path MTU discovery (docs/PMTU.md): --mtu is where every path starts. */
	d->profile.frto = cfg->frto;
	d->profile.pmtud = cfg->pmtud;
	d->profile.plpmtud = cfg->plpmtud;
	if (cfg->pmtu_raise != 0)
		d->profile.plpmtud_raise_ns = SCTP_S(cfg->pmtu_raise);
	/* --max-streams is the stream count both ways (asked for unless
	 * --out-streams asks for fewer, and the most accepted; RE-CONFIG adds
	 * streams up to it; blocks past the pool's come from --stream-mem): the profile's
	 * own numbers are the sans-I/O core's defaults for callers that set
	 * none, and cutting --max-streams down to them would be a silent clamp. */
	d->profile.out_streams =
		cfg->out_streams != 0 ? (uint16_t)cfg->out_streams : d->set.max_streams;
	d->profile.max_in_streams = d->set.max_streams;
	d->profile.max_out_streams = d->set.max_streams; /* what RE-CONFIG adds up to */
	dp_opt_instance_init(d);
	if (dp_opt_from_config(d, err, errlen) != 0) {
		rte_free(d);
		return NULL;
	}
	/* The pool's blocks hold the common case; larger ones are counted heap
	 * blocks (dp_conn.c), so memory follows the streams negotiated. */
	d->data_bytes = dp_data_bytes(RTE_MIN(d->set.max_streams, (uint16_t)DP_DATA_POOL_STREAMS),
				      (cfg->extensions & DPSCTP_EXT_I_DATA) != 0, cfg->max_paths);
	d->n_workers = cfg->queues != 0 ? cfg->queues : 1;
	d->n_ports = cfg->n_ports;
	d->routed = cfg->n_ports > 1 || cfg->n_routes > 0;
	d->init_q = cfg->init_queue != DPSCTP_CONFIG_INIT_QUEUE_OFF;
	d->init_qid = (uint16_t)d->n_workers;
	if (d->n_workers > DP_MAX_WORKERS) {
		dp_err(err, errlen, "%s (%d)", "--queues above the workers an instance runs",
		       DP_MAX_WORKERS);
		rte_free(d);
		return NULL;
	}
	for (unsigned i = 0; i < DP_MAX_WORKERS; i++)
		d->lcore_of[i] = RTE_MAX_LCORE;
	return d;
}

/* Mbufs one port's rings and bursts hold: a queue pair per worker, and the
 * queue for handshakes (--init-queue), whose descriptors a NIC fills too. */
static uint32_t
dp_port_pool_least(const struct dpsctp *d)
{
	return dpsctp_port_pool_size((uint16_t)(d->n_workers + (d->init_q ? 1u : 0u)),
				     DPSCTP_PORT_RING_DEFAULT, DPSCTP_PORT_RING_DEFAULT, 256);
}

/*
 * The mbufs of the port's pool (--mbufs, or computed from the limits) and,
 * without hugepages and without the application's own pool, fitted to the
 * EAL's memory: 0, or -ENOMEM with err.
 */
static int
dp_pool_size(const struct dpsctp *d, const struct rte_mempool *pool, uint32_t *n, char *err,
	     size_t errlen)
{
	*n = d->cfg.mbufs;
	if (*n == 0) {
		/*
		 * Rings and bursts (what the port computes), plus the mbufs that
		 * windows hold: received packets in reassembly or in the application's
		 * hands, sent payloads until acknowledged — for DP_FULL_WINDOWS
		 * associations with full windows per worker, as the core's pools are
		 * sized. An exhausted pool drops received packets (SACKs included) and
		 * stalls associations, so --mbufs should follow --max-assocs when many
		 * associations move data at once (docs/CONFIG.md).
		 */
		uint32_t full =
			d->set.max_assocs < DP_FULL_WINDOWS ? d->set.max_assocs : DP_FULL_WINDOWS;
		uint64_t m =
			(uint64_t)d->n_ports * dp_port_pool_least(d) +
			(uint64_t)d->n_workers * full * ((d->set.rcvbuf + d->set.sndbuf) / 1024u);
		*n = m > (1u << 22) ? (1u << 22) : (uint32_t)m;
	}
	/* Without hugepages the EAL's memory is its -m and no more: fit in it. */
	if (pool == NULL && !rte_eal_has_hugepages()) {
		uint32_t least = d->n_ports * dp_port_pool_least(d);
		if (dp_fit_pool(d, n, least, d->cfg.mbufs == 0, err, errlen) != 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Port i (drivers/port) with its queues, pool and MAC: 0, or an error with
 * err. Port 0 makes the pool (or takes the application's); the others
 * share it (one pool per NUMA socket, drivers/port/port.h), so an mbuf
 * received on one port may leave by another. --mac is port 0's.
 */
static int
dp_open_port(struct dpsctp *d, unsigned i, struct rte_mempool *pool, char *err, size_t errlen)
{
	struct dpsctp_port *port = &d->ports[i];
	const char *name = d->cfg.ports[i];
	struct dpsctp_port_conf pc;
	memset(&pc, 0, sizeof(pc));
	/* "ethdev:NAME": a port the application created itself (rte_eth_from_rings()). */
	if (strncmp(name, "ethdev:", 7) == 0) {
		if (rte_eth_dev_get_port_by_name(name + 7, &pc.port_id) != 0) {
			dp_err(err, errlen, "port: no ethdev named \"%s\" (%d)", name + 7, -ENODEV);
			return -ENODEV;
		}
	} else {
		pc.devargs = name;
	}
	/* --init-queue: one more rx queue, outside RSS, for what the rule sends it. */
	pc.nb_queues = (uint16_t)(d->n_workers + (d->init_q ? 1u : 0u));
	pc.rss_queues = (uint16_t)d->n_workers;
	pc.mtu = d->cfg.mtu;
	/* A per-lcore cache: without one every mbuf alloc and free is a CAS on the
	 * pool's ring (drivers/port only picks a cache when it sizes the pool). */
	pc.pool_cache = 256;
	if (i == 0 && dp_pool_size(d, pool, &pc.pool_size, err, errlen) != 0)
		return -ENOMEM;
	pc.pool = i == 0 ? pool : d->ports[0].pool; /* NULL: the port makes its own of pool_size */
	int rc = dpsctp_port_open(&pc, port);
	if (rc != 0) {
		if (err != NULL && errlen != 0)
			snprintf(err, errlen, "port%s%s: %s (%d)", d->n_ports > 1 ? " " : "",
				 d->n_ports > 1 ? name : "", port->error, rc);
		return rc;
	}
	if (i == 0 && d->cfg.has_mac) {
		memcpy(port->mac.addr_bytes, d->cfg.mac, 6);
	} else if (rte_is_zero_ether_addr(&port->mac)) {
		/* net_ring ports have no address: a random locally administered one. */
		rte_eth_random_addr(port->mac.addr_bytes);
	}
	(void)rte_eth_dev_default_mac_addr_set(port->port_id, &port->mac);
	return 0;
}

/* Every port, and the routing table when packets need it (several ports, --route). */
static int
dp_open_ports(struct dpsctp *d, struct rte_mempool *pool, char *err, size_t errlen)
{
	for (unsigned i = 0; i < d->n_ports; i++) {
		int rc = dp_open_port(d, i, pool, err, errlen);
		if (rc != 0)
			return rc;
	}
	if (!d->routed)
		return 0;
	char name[24];
	snprintf(name, sizeof(name), "dp%pr", (void *)d);
	int socket = d->ports[0].socket_id < 0 ? 0 : d->ports[0].socket_id;
	return dp_routes_build(&d->routes, &d->cfg, name, socket, err, errlen);
}

/* Mbufs without data room, as many as the port's, for zero-copy payloads. */
static int
dp_indirect_pool(struct dpsctp *d, char *err, size_t errlen)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	snprintf(name, sizeof(name), "dp%pi", (void *)d);
	d->indirect_pool =
		rte_pktmbuf_pool_create(name, d->ports[0].pool->size, 64, 0, 0,
					d->ports[0].socket_id < 0 ? 0 : d->ports[0].socket_id);
	if (d->indirect_pool == NULL) {
		dp_err(err, errlen, "indirect mbuf pool: %s (%d)",
		       "no memory (more -m, or hugepages; or lower --mbufs)", -ENOMEM);
		return -ENOMEM;
	}
	return 0;
}

/* The cookie key and the verification-tag scheme, with rte_flow steering where the port has it. */
static int
dp_tags(struct dpsctp *d, char *err, size_t errlen)
{
	uint8_t key[DPSCTP_VTAG_KEY_BYTES];
	/* A harness's seed (dp_worker_seed_set()) makes both keys the same each run. */
	bool seeded = dp_worker_seed_bytes(key, sizeof(key), 0x6b6579u) &&
		      dp_worker_seed_bytes(d->cookie_key, sizeof(d->cookie_key), 0x636f6fu);
	if (!seeded && (getrandom(key, sizeof(key), 0) != (ssize_t)sizeof(key) ||
			getrandom(d->cookie_key, sizeof(d->cookie_key), 0) !=
				(ssize_t)sizeof(d->cookie_key))) {
		dp_err(err, errlen, "%s (%d)", "no randomness for the instance", -ENOMEM);
		return -ENOMEM;
	}
	unsigned bits = 0;
	while ((1u << bits) < d->n_workers)
		bits++;
	/*
	 * With several workers, ask the port to steer on the owner bits of our
	 * tags (rte_flow, drivers/port/flow.c). Hardware steering needs the owner
	 * bits in clear; without it the tags are mixed by the keyed permutation
	 * and packets on the wrong queue are handed over in software
	 * (docs/DEMUX.md). Software PMDs refuse; the refusal is kept in the port's
	 * error text for the log.
	 */
	bool init_flow = d->init_q && d->cfg.init_queue == DPSCTP_CONFIG_INIT_QUEUE_FLOW;
	if (d->n_workers > 1) {
		uint32_t mask = ((1u << bits) - 1u) << (32u - bits);
		bool ok = true;
		/* Below the handshake rule (priority 0), which owner 0's would shadow. */
		for (unsigned p = 0; p < d->n_ports && ok; p++)
			for (unsigned i = 0; i < d->n_workers && ok; i++)
				ok = dpsctp_port_flow_vtag_prio(
					     &d->ports[p], mask, (uint32_t)i << (32u - bits),
					     (uint16_t)i, init_flow ? 1 : 0, NULL) == 0;
		if (!ok)
			for (unsigned p = 0; p < d->n_ports; p++)
				(void)dpsctp_port_flow_flush(&d->ports[p]);
		d->flow_hw = ok;
	}
	/* --init-queue flow: tag 0 (INITs) to the last queue, or no instance. */
	for (unsigned p = 0; init_flow && p < d->n_ports; p++) {
		int rc = dpsctp_port_flow_vtag_prio(&d->ports[p], UINT32_MAX, 0, d->init_qid, 0,
						    NULL);
		if (rc != 0) {
			dp_err(err, errlen,
			       "--init-queue flow: the port cannot steer INITs (%s); use "
			       "--init-queue external when something else steers them, or off "
			       "(%d)",
			       d->ports[p].error, rc);
			return rc;
		}
	}
	if (dpsctp_vtag_scheme_init(&d->vtag, bits, d->n_workers, d->flow_hw ? NULL : key) != 0) {
		dp_err(err, errlen, "%s (%d)", "verification tag scheme", -EINVAL);
		return -EINVAL;
	}
	return 0;
}

/* The listeners' slots (--listeners), the first one --sctp-port's. */
static int
dp_listeners(struct dpsctp *d, char *err, size_t errlen)
{
	d->max_listeners = d->cfg.listeners; /* 1..: dpsctp_config_validate() */
	d->listeners = rte_zmalloc("dp_listeners", d->max_listeners * sizeof(*d->listeners), 0);
	if (d->listeners == NULL) {
		dp_err(err, errlen, "%s (%d)", "no memory for --listeners", -ENOMEM);
		return -ENOMEM;
	}
	if (d->cfg.sctp_port != 0) {
		d->listeners[0].port = d->cfg.sctp_port;
		d->n_listeners = 1;
	}
	return 0;
}

/* Every worker with its impairment stages. */
static int
dp_workers(struct dpsctp *d, char *err, size_t errlen)
{
	char why[256];
	for (unsigned i = 0; i < d->n_workers; i++) {
		int rc = dp_worker_create(d, i);
		if (rc == 0 && dp_worker_impair_setup(d->w[i], why, sizeof(why)) != 0) {
			dp_err(err, errlen, "--impair: %s (%d)", why, -EINVAL);
			return -EINVAL;
		}
		if (rc != 0) {
			dp_err(err, errlen, "worker: %s (%d)",
			       "pools or tables do not fit (lower --max-assocs, --rcvbuf, "
			       "--sndbuf)",
			       rc);
			return rc;
		}
	}
	return 0;
}

/*
 * An instance, step by step: the configuration checked, settings resolved,
 * the port opened with its pool fitted to memory, the indirect pool, tags
 * and steering, listeners, workers, telemetry. Until the port is open a
 * failure frees the bare instance; after, dpsctp_destroy() takes back
 * whatever was made.
 */
static struct dpsctp *
dp_create(const struct dpsctp_config *cfg, struct rte_mempool *pool, char *err, size_t errlen)
{
	if (dp_create_check(cfg, err, errlen) != 0)
		return NULL;
	struct dpsctp *d = dp_instance_new(cfg, err, errlen);
	if (d == NULL)
		return NULL;
	if (dp_open_ports(d, pool, err, errlen) != 0) {
		/* What opened closes in port order: the pool (port 0's) last. */
		for (unsigned i = d->n_ports; i-- > 0;)
			if (d->ports[i].open)
				(void)dpsctp_port_close(&d->ports[i]);
		rte_free(d);
		return NULL;
	}
	if (dp_indirect_pool(d, err, errlen) != 0 || dp_tags(d, err, errlen) != 0 ||
	    dp_listeners(d, err, errlen) != 0 || dp_workers(d, err, errlen) != 0) {
		dpsctp_destroy(d);
		return NULL;
	}
	if (cfg->telemetry)
		dp_telemetry_add(d);
	return d;
}

struct dpsctp *
dpsctp_create(const struct dpsctp_config *cfg, char *err, size_t errlen)
{
	return dp_create(cfg, NULL, err, errlen);
}

struct dpsctp *
dpsctp_create_with_pool(const struct dpsctp_config *cfg, struct rte_mempool *pool, char *err,
			size_t errlen)
{
	if (pool == NULL) {
		dp_err(err, errlen, "%s (%d)", "no packet buffer pool", -EINVAL);
		return NULL;
	}
	return dp_create(cfg, pool, err, errlen);
}

unsigned
dpsctp_workers(const struct dpsctp *d)
{
	return d->n_workers;
}

void
dpsctp_mac(const struct dpsctp *d, uint8_t out[6])
{
	memcpy(out, d->ports[0].mac.addr_bytes, 6);
}

struct rte_mempool *
dpsctp_pktmbuf_pool(const struct dpsctp *d)
{
	return d->ports[0].pool;
}

int
dpsctp_poll(struct dpsctp *d, unsigned worker)
{
	if (worker >= d->n_workers)
		return -EINVAL;
	if (d->started)
		return -EBUSY;
	return (int)dp_worker_poll(d->w[worker]);
}

static int
dp_lcore_main(void *arg)
{
	struct dp_worker *w = arg;
	while (w->d->running)
		(void)dp_worker_poll(w);
	return 0;
}

int
dpsctp_start(struct dpsctp *d)
{
	unsigned lcore, i = 0;

	if (d->started)
		return -EEXIST;
	RTE_LCORE_FOREACH_WORKER(lcore)
	{
		if (i == d->n_workers)
			break;
		if (rte_eal_get_lcore_state(lcore) == WAIT)
			d->lcore_of[i++] = lcore;
	}
	if (i < d->n_workers) {
		for (unsigned k = 0; k < DP_MAX_WORKERS; k++)
			d->lcore_of[k] = RTE_MAX_LCORE;
		return -EBUSY;
	}
	d->running = true;
	d->started = true;
	for (i = 0; i < d->n_workers; i++)
		if (rte_eal_remote_launch(dp_lcore_main, d->w[i], d->lcore_of[i]) != 0)
			return -EBUSY;
	return 0;
}

/* Run fn on every worker: directly when the caller polls them, else by request. */
static void
dp_on_workers(struct dpsctp *d, void (*fn)(struct dpsctp *, unsigned, void *), void *arg)
{
	for (unsigned i = 0; i < d->n_workers; i++) {
		if (!d->started) {
			dp_worker_set_current(d->w[i]);
			fn(d, i, arg);
			if (d->w[i]->n_tx != 0)
				dp_tx_flush(d->w[i]);
			dp_worker_set_current(NULL);
			continue;
		}
		while (dp_req_call(d->w[i], fn, arg) != 0)
			rte_pause();
	}
}

static void
dp_close_all(struct dpsctp *d, unsigned i, void *arg)
{
	struct dp_worker *w = d->w[i];
	bool abort = arg != NULL;
	w->stopping = true;
	for (struct dpsctp_assoc *c = w->conns, *next; c != NULL; c = next) {
		next = c->next;
		uint8_t st = c->a.state;
		if (abort || st == SCTP_ASSOC_COOKIE_WAIT || st == SCTP_ASSOC_COOKIE_ECHOED)
			(void)sctp_assoc_abort(&c->a, w->now_ns, NULL, 0);
		else
			(void)sctp_assoc_shutdown(&c->a, w->now_ns);
		dp_conn_after(c);
	}
}

static uint64_t
dp_ms(void)
{
	return rte_get_tsc_cycles() / (rte_get_tsc_hz() / 1000u);
}

int
dpsctp_stop(struct dpsctp *d, unsigned timeout_ms)
{
	int aborted = 0;

	dp_on_workers(d, dp_close_all, NULL);
	uint64_t until = dp_ms() + timeout_ms;
	while (dpsctp_assoc_count(d) != 0 && dp_ms() < until) {
		if (!d->started)
			for (unsigned i = 0; i < d->n_workers; i++)
				(void)dp_worker_poll(d->w[i]);
		else
			rte_delay_us_sleep(1000);
	}
	aborted = (int)dpsctp_assoc_count(d);
	if (aborted != 0) {
		dp_on_workers(d, dp_close_all, d);
		/* ABORT frees at once; let the workers run their requests. */
		uint64_t grace = dp_ms() + 100;
		while (dpsctp_assoc_count(d) != 0 && dp_ms() < grace) {
			if (!d->started)
				for (unsigned i = 0; i < d->n_workers; i++)
					(void)dp_worker_poll(d->w[i]);
			else
				rte_delay_us_sleep(1000);
		}
	}
	if (d->started) {
		d->running = false;
		for (unsigned i = 0; i < d->n_workers; i++)
			if (d->lcore_of[i] != RTE_MAX_LCORE)
				(void)rte_eal_wait_lcore(d->lcore_of[i]);
		d->started = false;
	}
	/* Whatever the loops left in their batches and rings. */
	for (unsigned i = 0; i < d->n_workers; i++) {
		struct dp_worker *w = d->w[i];
		void *p;
		if (w == NULL)
			continue;
		if (w->n_tx != 0)
			dp_tx_flush(w);
		while (rte_ring_sc_dequeue(w->handoff, &p) == 0)
			rte_pktmbuf_free(p);
		dp_worker_impair_drain(w);
		rte_pktmbuf_free(w->pack); /* its slices were given back with their associations */
		w->pack = NULL;
		dp_req_drain(w);
		for (unsigned k = 0; k < d->n_ports; k++)
			dpsctp_l3_flush(w->l3[k]);
	}
	return aborted;
}

void
dpsctp_destroy(struct dpsctp *d)
{
	if (d == NULL)
		return;
	dp_telemetry_remove(d);
	if (dpsctp_assoc_count(d) != 0 || d->started)
		(void)dpsctp_stop(d, 1000);
	for (unsigned i = 0; i < d->n_workers; i++) {
		dp_worker_destroy(d->w[i]);
		d->w[i] = NULL;
	}
	for (unsigned i = d->n_ports; i-- > 0;) {
		if (d->flow_hw || (d->init_q && d->cfg.init_queue == DPSCTP_CONFIG_INIT_QUEUE_FLOW))
			(void)dpsctp_port_flow_flush(&d->ports[i]);
		/* Port 0's pool is every port's: the others close first. */
		if (d->ports[i].open)
			(void)dpsctp_port_close(&d->ports[i]);
	}
	dp_routes_free(&d->routes);
	rte_mempool_free(d->indirect_pool);
	rte_free(d->listeners);
	rte_free(d);
}

int
dpsctp_listen(struct dpsctp *d, uint16_t port, const struct dpsctp_callbacks *cb, void *arg)
{
	if (port == 0)
		return -EINVAL;
	unsigned slot = 0;
	struct dp_listener *l = dp_listener_find(d, port, &slot);
	if (l != NULL) {
		if (l->cb != NULL)
			return -EEXIST;
		l->cb = cb; /* the --sctp-port endpoint, now with callbacks */
		l->arg = arg;
		return 0;
	}
	/* The first free slot: one dpsctp_unlisten() gave back, else a new one. */
	for (slot = 0; slot < d->n_listeners && d->listeners[slot].port != 0; slot++)
		;
	if (slot == d->max_listeners)
		return -ENOMEM;
	if (d->started)
		return -EBUSY; /* the workers' endpoints are theirs once they run */
	l = &d->listeners[slot];
	l->port = port;
	l->cb = cb;
	l->arg = arg;
	if (slot == d->n_listeners)
		d->n_listeners++;
	for (unsigned i = 0; i < d->n_workers; i++) {
		int rc = dp_worker_listen(d->w[i], slot);
		if (rc != 0) { /* -ENOMEM: the cookie key's OpenSSL contexts */
			for (unsigned k = 0; k < i; k++)
				dp_worker_unlisten(d->w[k], slot);
			memset(l, 0, sizeof(*l));
			return rc;
		}
	}
	return 0;
}

int
dpsctp_unlisten(struct dpsctp *d, uint16_t port)
{
	if (port == 0)
		return -EINVAL;
	unsigned slot = 0;
	struct dp_listener *l = dp_listener_find(d, port, &slot);
	if (l == NULL)
		return -ENOENT;
	if (d->started)
		return -EBUSY;
	/* The associations it accepted refer to closed_ep and live on; an INIT
	 * to the port is answered with ABORT from now, as on any port nobody
	 * listens on (RFC 9260 §8.4 rule 3). */
	for (unsigned i = 0; i < d->n_workers; i++)
		dp_worker_unlisten(d->w[i], slot);
	memset(l, 0, sizeof(*l));
	while (d->n_listeners > 0 && d->listeners[d->n_listeners - 1].port == 0)
		d->n_listeners--;
	return 0;
}

/* Whether the calling thread may run a call on w now (see the file comment). */
static bool
dp_owner(const struct dp_worker *w)
{
	return !w->d->started || dp_worker_current() == w;
}

static int
dp_map_send_rc(int rc)
{
	switch (rc) {
	case -ESHUTDOWN:
	case -ENOTCONN:
	case -EOPNOTSUPP:
		return -ENOTCONN;
	case -ENOBUFS:
	case -ENOMEM:
	case -EAGAIN:
		return -EAGAIN;
	default:
		return rc;
	}
}

struct dpsctp_assoc *
dpsctp_connect(struct dpsctp *d, unsigned worker, const struct sctp_addr *peers, unsigned n_peers,
	       uint16_t peer_port, uint16_t local_port, const struct dpsctp_callbacks *cb,
	       void *arg, int *rc)
{
	return dpsctp_connect_opts(d, worker, peers, n_peers, peer_port, local_port, NULL, cb, arg,
				   rc);
}

struct dpsctp_assoc *
dpsctp_connect_opts(struct dpsctp *d, unsigned worker, const struct sctp_addr *peers,
		    unsigned n_peers, uint16_t peer_port, uint16_t local_port,
		    const struct dpsctp_initmsg *init, const struct dpsctp_callbacks *cb, void *arg,
		    int *rc)
{
	int dummy;
	if (rc == NULL)
		rc = &dummy;
	if (d == NULL || worker >= d->n_workers || peers == NULL || n_peers == 0 ||
	    n_peers > SCTP_MAX_PATHS || peer_port == 0 ||
	    (init != NULL &&
	     (dpsctp_opt_check(DPSCTP_OPT_INITMSG, init, sizeof(*init), NULL, 0) != 0 ||
	      init->num_ostreams > d->set.max_streams ||
	      init->max_instreams > d->set.max_streams))) {
		*rc = -EINVAL;
		return NULL;
	}
	struct dp_worker *w = d->w[worker];
	struct dp_req *r = dp_req_new(w, DP_REQ_CONNECT, NULL);
	if (r == NULL) {
		*rc = -EAGAIN;
		return NULL;
	}
	for (unsigned i = 0; i < n_peers; i++) {
		if (peers[i].family != 4 && peers[i].family != 6) {
			dp_req_free(w, r);
			*rc = -EINVAL;
			return NULL;
		}
		r->peers[i] = peers[i].family == 6 ? sctp_addr_v6(peers[i].bytes)
						   : sctp_addr_v4(peers[i].bytes);
	}
	r->n_peers = (uint16_t)n_peers;
	r->peer_port = peer_port;
	r->local_port = local_port;
	if (dp_owner(w)) {
		struct dpsctp_assoc *c = dp_conn_alloc(w, cb, arg);
		if (c == NULL) {
			dp_req_free(w, r);
			*rc = -ENOMEM;
			return NULL;
		}
		r->assoc = c;
		int e = init != NULL ? dp_opt_assoc_init(c, init) : 0;
		if (e == 0)
			e = dp_conn_connect(w, c, r->peers, r->n_peers, r->local_port,
					    r->peer_port);
		dp_req_free(w, r);
		if (e != 0) {
			dp_conn_free(c);
			*rc = e == -ENOBUFS ? -ENOMEM : e;
			return NULL;
		}
		dp_conn_after(c);
		if (!d->started && w->n_tx != 0)
			dp_tx_flush(w);
		*rc = 0;
		return c;
	}
	/* Another thread: the block is taken here (the pool is multi-producer) so
	 * the caller has its handle now; the worker links it and connects. */
	struct dpsctp_assoc *c = dp_conn_block(w, cb, arg);
	if (c == NULL) {
		dp_req_free(w, r);
		*rc = -ENOMEM;
		return NULL;
	}
	r->assoc = c;
	if (init != NULL) {
		r->has_init = true;
		memcpy(r->opt, init, sizeof(*init));
	}
	*rc = dp_req_post(w, r);
	if (*rc != 0) {
		rte_mempool_put(w->conn_pool, c);
		return NULL;
	}
	return c;
}

static int
dp_assoc_call(struct dpsctp_assoc *a, enum dp_req_kind kind, uint32_t bytes)
{
	struct dp_worker *w = a->w;
	if (dp_owner(w)) {
		/* Closed and being reported (from inside its end event): the run
		 * that closed it frees the block once the callback returns. */
		if (sctp_assoc_freeable(&a->a))
			return -ENOTCONN;
		/* From inside one of its callbacks the core is mid-run on it (a
		 * packet half delivered, a timer): a close waits for that run to
		 * end (dp_conn_after()); an abort overrides a shutdown. */
		if (a->in_cb != 0 && (kind == DP_REQ_SHUTDOWN || kind == DP_REQ_ABORT)) {
			if (kind == DP_REQ_ABORT)
				a->deferred = DP_CLOSE_ABORT;
			else if (a->deferred == DP_CLOSE_NONE)
				a->deferred = DP_CLOSE_SHUTDOWN;
			return 0;
		}
		int rc = 0;
		if (kind == DP_REQ_SHUTDOWN)
			rc = sctp_assoc_shutdown(&a->a, w->now_ns);
		else if (kind == DP_REQ_ABORT)
			rc = sctp_assoc_abort(&a->a, w->now_ns, NULL, 0);
		else if (kind == DP_REQ_FLUSH)
			rc = sctp_assoc_flush(&a->a, w->now_ns);
		else
			rc = sctp_assoc_consumed(&a->a, bytes, w->now_ns);
		dp_conn_after(a);
		if (!w->d->started && w->n_tx != 0)
			dp_tx_flush(w);
		return rc == -EALREADY ? -ENOTCONN : rc;
	}
	struct dp_req *r = dp_req_new(w, kind, a);
	if (r == NULL)
		return -EAGAIN;
	r->bytes = bytes;
	return dp_req_post(w, r);
}

int
dpsctp_shutdown(struct dpsctp_assoc *a)
{
	return a == NULL ? -EINVAL : dp_assoc_call(a, DP_REQ_SHUTDOWN, 0);
}

int
dpsctp_flush(struct dpsctp_assoc *a)
{
	return a == NULL ? -EINVAL : dp_assoc_call(a, DP_REQ_FLUSH, 0);
}

int
dpsctp_abort(struct dpsctp_assoc *a)
{
	return a == NULL ? -EINVAL : dp_assoc_call(a, DP_REQ_ABORT, 0);
}

int
dpsctp_consumed(struct dpsctp_assoc *a, uint32_t bytes)
{
	if (a == NULL || !a->w->data.rwnd_counts_delivered)
		return -EINVAL;
	return bytes == 0 ? 0 : dp_assoc_call(a, DP_REQ_CONSUMED, bytes);
}

int
dpsctp_rx_flow_control(struct dpsctp *d, int on)
{
	if (d == NULL)
		return -EINVAL;
	if (d->started || dpsctp_assoc_count(d) != 0)
		return -EBUSY;
	/* Every association of a worker shares its data configuration. */
	for (unsigned i = 0; i < d->n_workers; i++)
		d->w[i]->data.rwnd_counts_delivered = on != 0;
	return 0;
}

/*
 * A PR-SCTP policy the core takes: checked here, on the caller's thread, so a
 * send from another thread (queued, its result not reported) is refused too.
 */
static bool
dp_sndinfo_ok(const struct dpsctp_sndinfo *si)
{
	return si->pr_policy <= DPSCTP_PR_PRIO &&
	       !(si->pr_policy == DPSCTP_PR_TTL && si->pr_value == 0);
}

/* DPSCTP_OPT_DEFAULT_SNDINFO as a struct dpsctp_sndinfo (a NULL sndinfo). */
static const struct dpsctp_sndinfo *
dp_sndinfo_default(const struct dpsctp_assoc *a, struct dpsctp_sndinfo *si)
{
	const struct dpsctp_default_sndinfo *s = &dp_opt_vals(a)->sndinfo;
	si->sid = s->sid;
	si->ppid = s->ppid;
	si->flags = s->flags;
	si->pr_policy = s->pr_policy;
	si->pr_value = s->pr_value;
	si->context = s->context;
	return si;
}

int
dpsctp_send(struct dpsctp_assoc *a, const struct dpsctp_sndinfo *si, struct rte_mbuf *m)
{
	struct dpsctp_sndinfo dflt;
	if (si == NULL && a != NULL)
		si = dp_sndinfo_default(a, &dflt);
	if (a == NULL || si == NULL || m == NULL || !dp_sndinfo_ok(si))
		return -EINVAL;
	struct dp_worker *w = a->w;
	if (dp_owner(w)) {
		int rc = dp_map_send_rc(dp_conn_send(a, si, m));
		if (!w->d->started && w->n_tx != 0)
			dp_tx_flush(w);
		return rc;
	}
	struct dp_req *r = dp_req_new(w, DP_REQ_SEND, a);
	if (r == NULL)
		return -EAGAIN;
	r->si = *si;
	r->m = m;
	return dp_req_post(w, r);
}

int
dpsctp_send_bytes(struct dpsctp_assoc *a, const struct dpsctp_sndinfo *si, const void *buf,
		  size_t len)
{
	struct dpsctp_sndinfo dflt;
	if (si == NULL && a != NULL)
		si = dp_sndinfo_default(a, &dflt);
	if (a == NULL || si == NULL || (buf == NULL && len != 0) || !dp_sndinfo_ok(si))
		return -EINVAL;
	if (len == 0)
		return -EINVAL;
	struct dp_worker *w = a->w;
	if (len <= w->d->set.copy_max && dp_owner(w)) {
		int rc = dp_map_send_rc(dp_conn_send_small(a, si, buf, (uint32_t)len));
		if (!w->d->started && w->n_tx != 0)
			dp_tx_flush(w);
		return rc;
	}
	struct rte_mempool *pool = w->d->ports[0].pool;
	struct rte_mbuf *head = NULL, *tail = NULL;
	const uint8_t *p = buf;
	size_t left = len;
	while (left != 0) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
		if (m == NULL) {
			rte_pktmbuf_free(head);
			if (dp_owner(w))
				a->want_space =
					true; /* on_space once acknowledged data frees mbufs */
			return -EAGAIN;
		}
		uint16_t room = rte_pktmbuf_tailroom(m);
		uint16_t k = left < room ? (uint16_t)left : room;
		memcpy(rte_pktmbuf_append(m, k), p, k);
		p += k;
		left -= k;
		if (head == NULL) {
			head = tail = m;
		} else {
			tail->next = m;
			tail = m;
			head->nb_segs++;
			head->pkt_len += k;
		}
	}
	int rc = dpsctp_send(a, si, head);
	if (rc != 0)
		rte_pktmbuf_free(head);
	return rc;
}

/* The public scheduler numbers are the send queue's (sctp/outq.h). */
_Static_assert(DPSCTP_SCHED_RR == SCTP_OUTQ_SCHED_RR && DPSCTP_SCHED_FCFS == SCTP_OUTQ_SCHED_FCFS &&
		       DPSCTP_SCHED_RR_PKT == SCTP_OUTQ_SCHED_RR_PKT &&
		       DPSCTP_SCHED_PRIO == SCTP_OUTQ_SCHED_PRIO &&
		       DPSCTP_SCHED_FC == SCTP_OUTQ_SCHED_FC &&
		       DPSCTP_SCHED_WFQ == SCTP_OUTQ_SCHED_WFQ &&
		       DPSCTP_SCHED_WFQ + 1 == SCTP_OUTQ_SCHED_COUNT,
	       "DPSCTP_SCHED_* are enum sctp_outq_sched");

/*
 * dpsctp_set_sched() and dpsctp_set_stream_param(): settings of the send
 * queue, not input to the state machine, so nothing is sent or reported
 * after them (no dp_conn_after()); the next flush serves by them. From
 * another thread, a request like dp_assoc_call()'s.
 */
static int
dp_sched_call(struct dpsctp_assoc *a, enum dp_req_kind kind, uint16_t sid, uint32_t value)
{
	struct dp_worker *w = a->w;
	if (dp_owner(w)) {
		if (sctp_assoc_freeable(&a->a))
			return -ENOTCONN;
		return kind == DP_REQ_SCHED
			       ? sctp_assoc_set_sched(&a->a, value)
			       : sctp_assoc_set_stream_param(&a->a, sid, (uint16_t)value);
	}
	struct dp_req *r = dp_req_new(w, kind, a);
	if (r == NULL)
		return -EAGAIN;
	r->si.sid = sid;
	r->bytes = value;
	return dp_req_post(w, r);
}

int
dpsctp_set_sched(struct dpsctp_assoc *a, unsigned sched)
{
	/* Checked here too, so a request from another thread is refused as well. */
	if (a == NULL || sched > DPSCTP_SCHED_WFQ)
		return -EINVAL;
	return dp_sched_call(a, DP_REQ_SCHED, 0, sched);
}

int
dpsctp_sched(const struct dpsctp_assoc *a)
{
	return a == NULL ? -EINVAL : sctp_assoc_sched(&a->a);
}

int
dpsctp_set_stream_param(struct dpsctp_assoc *a, uint16_t sid, uint16_t value)
{
	return a == NULL ? -EINVAL : dp_sched_call(a, DP_REQ_STREAM_PARAM, sid, value);
}

int
dpsctp_stream_param(const struct dpsctp_assoc *a, uint16_t sid)
{
	return a == NULL ? -EINVAL : sctp_assoc_stream_param(&a->a, sid);
}

/*
 * RE-CONFIG requests (RFC 6525): input to the state machine that sends a
 * chunk and starts a timer, so dp_conn_after() follows, as for
 * dp_assoc_call(). From another thread, a request (its stream list, at most
 * SCTP_RECONF_MAX_STREAMS, travels in it) whose result is not reported:
 * what is refused there is refused here too when it can be told without
 * the association's state (flags, counts), and the answer comes as the
 * event either way.
 */
static int
dp_reconf_call(struct dpsctp_assoc *a, enum dp_req_kind kind, unsigned flags, const uint16_t *sids,
	       uint16_t n, uint16_t out, uint16_t in)
{
	struct dp_worker *w = a->w;
	if (dp_owner(w)) {
		if (sctp_assoc_freeable(&a->a))
			return -ENOTCONN;
		int rc = kind == DP_REQ_RESET_STREAMS
				 ? sctp_assoc_reset_streams(&a->a, flags, sids, n, w->now_ns)
			 : kind == DP_REQ_ADD_STREAMS
				 ? sctp_assoc_add_streams(&a->a, out, in, w->now_ns)
				 : sctp_assoc_reset_assoc(&a->a, w->now_ns);
		dp_conn_after(a);
		if (!w->d->started && w->n_tx != 0)
			dp_tx_flush(w);
		return rc == -ESHUTDOWN ? -ENOTCONN : rc;
	}
	struct dp_req *r = dp_req_new(w, kind, a);
	if (r == NULL)
		return -EAGAIN;
	r->bytes = flags;
	r->n_sids = n;
	if (n != 0)
		memcpy(r->sids, sids, n * sizeof(sids[0]));
	r->local_port = out;
	r->peer_port = in;
	return dp_req_post(w, r);
}

int
dpsctp_reset_streams(struct dpsctp_assoc *a, unsigned flags, const uint16_t *sids, uint16_t n)
{
	/* Checked here too, so a request from another thread is refused as well. */
	if (a == NULL || n > SCTP_RECONF_MAX_STREAMS || (n != 0 && sids == NULL) ||
	    (flags & (DPSCTP_RESET_INCOMING | DPSCTP_RESET_OUTGOING)) == 0 ||
	    (flags & ~(DPSCTP_RESET_INCOMING | DPSCTP_RESET_OUTGOING)) != 0)
		return -EINVAL;
	return dp_reconf_call(a, DP_REQ_RESET_STREAMS, flags, sids, n, 0, 0);
}

int
dpsctp_add_streams(struct dpsctp_assoc *a, uint16_t out, uint16_t in)
{
	if (a == NULL || (out == 0 && in == 0))
		return -EINVAL;
	return dp_reconf_call(a, DP_REQ_ADD_STREAMS, 0, NULL, 0, out, in);
}

int
dpsctp_reset_assoc(struct dpsctp_assoc *a)
{
	return a == NULL ? -EINVAL : dp_reconf_call(a, DP_REQ_RESET_ASSOC, 0, NULL, 0, 0, 0);
}

void
dpsctp_assoc_set_callbacks(struct dpsctp_assoc *a, const struct dpsctp_callbacks *cb, void *arg)
{
	a->cb = cb;
	a->arg = arg;
}

void *
dpsctp_assoc_arg(const struct dpsctp_assoc *a)
{
	return a->arg;
}

int
dpsctp_assoc_set_stream_handlers(struct dpsctp_assoc *a, const dpsctp_recv_cb *recv,
				 void *const *args, uint16_t n)
{
	if (recv != NULL && n == 0)
		return -EINVAL;
	a->stream_recv = recv;
	a->stream_args = args;
	a->n_stream_cb = recv != NULL ? n : 0;
	return 0;
}

void
dpsctp_set_send_space(struct dpsctp_assoc *a, uint32_t threshold)
{
	a->space_threshold = threshold;
}

unsigned
dpsctp_assoc_worker(const struct dpsctp_assoc *a)
{
	return a->w->index;
}

size_t
dpsctp_msg_copy(const struct dpsctp_msg *m, void *buf, size_t cap)
{
	size_t done = 0;
	for (uint32_t i = 0; i < m->nsegs && done < cap; i++) {
		size_t k = m->segs[i].len < cap - done ? m->segs[i].len : cap - done;
		memcpy((uint8_t *)buf + done, m->segs[i].data, k);
		done += k;
	}
	return done;
}

struct rte_mbuf *
dpsctp_msg_to_mbuf(struct dpsctp_assoc *a, const struct dpsctp_msg *m)
{
	struct rte_mbuf *head = NULL, *tail = NULL;
	for (uint32_t i = 0; i < m->nsegs; i++) {
		struct rte_mbuf *mi = rte_pktmbuf_alloc(a->w->d->indirect_pool);
		if (mi == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
		rte_pktmbuf_attach(mi, m->segs[i].m);
		mi->data_off = (uint16_t)(m->segs[i].data - (const uint8_t *)mi->buf_addr);
		mi->data_len = (uint16_t)m->segs[i].len;
		mi->pkt_len = m->segs[i].len;
		if (head == NULL) {
			head = tail = mi;
		} else {
			tail->next = mi;
			tail = mi;
			head->nb_segs++;
			head->pkt_len += mi->data_len;
		}
	}
	return head;
}

int
dpsctp_assoc_setopt(struct dpsctp_assoc *a, enum dpsctp_opt opt, const void *val, size_t len,
		    char *err, size_t errlen)
{
	if (a == NULL)
		return -EINVAL;
	int rc = dpsctp_opt_check(opt, val, len, err, errlen);
	if (rc != 0)
		return rc;
	struct dp_worker *w = a->w;
	if (dp_owner(w)) {
		rc = dp_opt_assoc_apply(a, opt, val, err, errlen);
		dp_conn_after(a); /* timers the option moved */
		if (!w->d->started && w->n_tx != 0)
			dp_tx_flush(w);
		return rc;
	}
	struct dp_req *r = dp_req_new(w, DP_REQ_SETOPT, a);
	if (r == NULL)
		return -EAGAIN;
	r->bytes = (uint32_t)opt;
	memcpy(r->opt, val, len);
	return dp_req_post(w, r);
}
