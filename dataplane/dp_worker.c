/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A worker: what one rx/tx queue pair needs, and its run-to-completion loop
 * (docs/LCORE.md "The loop"), the one place that calls both the receive and
 * the transmit side, as DPDK's l3fwd main loop does:
 *
 *   rx burst (-> receive impairment stage, --impair-rx) -> dp_rx_frame()
 *   each -> hand-off ring -> request ring (dp_req.c) -> timer wheel -> L3
 *   tick -> dp_tx_flush() (-> transmit impairment stage, --impair -> tx burst)
 *
 * Everything a worker allocates comes from its NUMA socket at creation:
 * association, handshake, path and data blocks from rte_mempools sized by
 * --max-assocs and --max-handshakes; reassembly nodes, queued messages and
 * sent chunks from the core's pools (sctp/reasm.h, outq.h, rtxq.h) sized
 * from --rcvbuf and --sndbuf. Nothing is allocated per packet but mbufs.
 *
 * The current worker is a thread-local pointer set for the duration of a
 * poll: the API uses it to tell a call on the owning thread (run at once)
 * from one elsewhere (queued on the request ring).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_hash_crc.h>
#include <rte_jhash.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "dataplane/dp_buf.h"
#include "dataplane/dp_conn.h"
#include "dataplane/dp_req.h"
#include "dataplane/dp_rx.h"
#include "dataplane/dp_stage.h"
#include "dataplane/dp_tx.h"
#include "dataplane/dp_worker.h"

static __thread struct dp_worker *dp_current;

struct dp_worker *
dp_worker_current(void)
{
	return dp_current;
}

void
dp_worker_set_current(struct dp_worker *w)
{
	dp_current = w;
}

/*
 * A harness's clock and seed (dp_worker_clock_set(), dp_worker_seed_set()):
 * process-wide, set before the instances are made and left alone while
 * workers run. Unset, the clock is the TSC and the seeds are the TSC's and
 * getrandom()'s; the loop pays one well-predicted branch for the hook.
 */
static dp_worker_clock_fn dp_clock_fn;
static void *dp_clock_ctx;
static uint64_t dp_seed;

void
dp_worker_clock_set(dp_worker_clock_fn fn, void *ctx)
{
	dp_clock_ctx = ctx;
	dp_clock_fn = fn;
}

void
dp_worker_seed_set(uint64_t seed)
{
	dp_seed = seed;
}

/* splitmix64: one step of a harness's seed into 64 well-mixed bits. */
static uint64_t
dp_seed_next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

bool
dp_worker_seed_bytes(void *buf, size_t len, uint64_t salt)
{
	if (dp_seed == 0)
		return false;
	uint64_t x = dp_seed ^ salt;
	uint8_t *b = buf;
	for (size_t i = 0; i < len; i += 8) {
		uint64_t v = dp_seed_next(&x);
		memcpy(b + i, &v, len - i < 8 ? len - i : 8);
	}
	return true;
}

/* A random 32-bit start: the harness's seed when set, else the TSC. */
static uint32_t
dp_worker_entropy32(uint64_t salt)
{
	uint32_t v;
	if (dp_worker_seed_bytes(&v, sizeof(v), salt))
		return v;
	return (uint32_t)rte_rdtsc();
}

/* The TSC in nanoseconds (or a harness's clock): the core's clock (sctp/time.h) on this worker. */
static uint64_t
dp_now_ns(void)
{
	static __thread double ns_per_cycle;
	if (unlikely(dp_clock_fn != NULL))
		return dp_clock_fn(dp_clock_ctx);
	if (ns_per_cycle == 0)
		ns_per_cycle = 1e9 / (double)rte_get_tsc_hz();
	return (uint64_t)((double)rte_rdtsc() * ns_per_cycle);
}

static uint32_t
dp_random32(void *ctx)
{
	struct dp_worker *w = ctx;
	/* xorshift32 seeded from the TSC and the OpenSSL-keyed vtag scheme at creation;
	 * initial TSNs need unpredictability only against off-path guessing (§5.3.1
	 * relies on the tag for that). */
	uint32_t x = w->rnd;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	w->rnd = x;
	return x;
}

static uint32_t
dp_choose_tag(void *ctx, const struct sctp_rx *rx)
{
	(void)rx;
	struct dp_worker *w = ctx;
	/* An INIT of no association from the queue for handshakes: its
	 * association's home is the next worker in turn, where the COOKIE
	 * ECHO's tag will take it (dp_rx.c sets tag_spread). */
	unsigned owner = w->index;
	if (w->tag_spread)
		owner = w->init_next++ % w->d->n_workers;
	return dpsctp_vtag_make(&w->d->vtag, owner, dp_random32(w));
}

static struct rte_hash *
dp_hash(const char *what, struct dpsctp *d, unsigned index, uint32_t entries, uint32_t key_len)
{
	char name[RTE_HASH_NAMESIZE];
	snprintf(name, sizeof(name), "dp%p%s%u", (void *)d, what, index);
	struct rte_hash_parameters p = {
		.name = name,
		.entries = entries < 8 ? 8 : entries,
		.key_len = key_len,
		.hash_func = rte_hash_crc,
		.socket_id = d->ports[0].socket_id < 0 ? 0 : d->ports[0].socket_id,
	};
	return rte_hash_create(&p);
}

static struct rte_mempool *
dp_pool(const char *what, struct dpsctp *d, unsigned index, unsigned n, unsigned size)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	snprintf(name, sizeof(name), "dp%p%s%u", (void *)d, what, index);
	/*
	 * Multi-producer and -consumer: dpsctp_connect() from another thread takes
	 * an association block; no cache, so a block freed is at once visible.
	 * The blocks are the CPU's alone (no NIC reads them): no IOVA-contiguous
	 * objects, which on 4 KB pages (--no-huge) put one 3.5 KB data block or
	 * two 1.4 KB association blocks in each page, and no padding to spread
	 * objects over memory channels (docs/MEMORY.md "Pool overhead").
	 */
	return rte_mempool_create(name, n < 2 ? 2 : n, size, 0, 0, NULL, NULL, NULL, NULL,
				  d->ports[0].socket_id < 0 ? 0 : d->ports[0].socket_id,
				  RTE_MEMPOOL_F_NO_IOVA_CONTIG | RTE_MEMPOOL_F_NO_SPREAD);
}

static struct rte_ring *
dp_ring(const char *what, struct dpsctp *d, unsigned index, unsigned n)
{
	char name[RTE_RING_NAMESIZE];
	snprintf(name, sizeof(name), "dp%p%s%u", (void *)d, what, index);
	return rte_ring_create(name, rte_align32pow2(n),
			       d->ports[0].socket_id < 0 ? 0 : d->ports[0].socket_id,
			       RING_F_SC_DEQ);
}

/* The public extension bits are the core's: the configuration's set goes in as is. */
_Static_assert(DPSCTP_EXT_PR_SCTP == SCTP_COOKIE_EXT_FORWARD_TSN &&
		       DPSCTP_EXT_I_DATA == SCTP_COOKIE_EXT_I_DATA &&
		       DPSCTP_EXT_RECONFIG == SCTP_COOKIE_EXT_RECONFIG,
	       "DPSCTP_EXT_* are the SCTP_COOKIE_EXT_* bits");

static int
dp_endpoint(struct dp_worker *w, struct sctp_endpoint *ep, uint16_t port, bool listening)
{
	struct dpsctp *d = w->d;
	struct sctp_endpoint_config c;
	memset(&c, 0, sizeof(c));
	c.port = port;
	c.profile = &d->profile;
	w->data.cc = &d->cc; /* Max.Burst: DPSCTP_OPT_MAX_BURST, --max-burst */
	c.data = &w->data;
	c.a_rwnd = w->data.reasm.max_bytes;
	c.listening = listening;
	/* What INIT and INIT ACK offer and what we accept of the peer's (--extensions). */
	c.extensions = d->cfg.extensions & DPSCTP_CONFIG_EXTENSIONS;
	c.choose_tag = dp_choose_tag;
	c.random32 = dp_random32;
	c.ctx = w;
	for (unsigned i = 0; i < d->set.n_addrs && i < SCTP_EP_MAX_ADDRS; i++)
		c.addrs[c.n_addrs++] = d->set.addrs[i];
	return sctp_endpoint_init(ep, &c, d->cookie_key, dp_now_ns());
}

#define DP_NBR_RETRANS_MAX_NS 1000000000ull /* RFC 4861 §10 RETRANS_TIMER: 1 s */

/*
 * L3 of port p: its addresses and MAC, and its neighbour table; parked
 * packets given back through dp_tx. Each port has a table of --neighbours
 * entries: a port's next hops are its own network's.
 */
static int
dp_worker_l3(struct dp_worker *w, unsigned p, int socket)
{
	struct dpsctp *d = w->d;
	const struct dp_port_settings *ps = &d->set.port[p];
	struct dpsctp_l3_config l3c;
	memset(&l3c, 0, sizeof(l3c));
	memcpy(l3c.mac, d->ports[p].mac.addr_bytes, 6);
	for (unsigned i = 0; i < ps->n_addrs && i < DPSCTP_L3_ADDR_MAX; i++) {
		l3c.addr[i] = ps->addrs[i];
		l3c.prefix[i] = ps->prefix[i];
		l3c.addr_count++;
		if (ps->addrs[i].family == 6)
			l3c.ipv6_link_local = true;
	}
	l3c.gw4 = ps->gw4;
	l3c.gw6 = ps->gw6;
	l3c.udp_port = d->set.udp_port;
	/*
	 * A lost ARP request or NS (or its answer) is probed again after
	 * retrans_ns, while the packets parked for the answer, an INIT first
	 * of all, run their own timers: RFC 4861's RETRANS_TIMER of 1 s
	 * outlasted the data-center profile's whole INIT budget (RTO.Initial
	 * 10 ms doubling up to RTO.Max 200 ms, 8 retransmissions: ~1.1 s), so
	 * one lost frame of the first resolution failed the association
	 * (CANT_START, T1-init; found by the soak, docs/TESTING.md). Probe
	 * again within ten initial RTOs, never later than RFC 4861 §10 says.
	 */
	if (d->profile.rto_initial_ns * 10 < DP_NBR_RETRANS_MAX_NS)
		l3c.retrans_ns = d->profile.rto_initial_ns * 10;
	/* The neighbour table, sized for the associations (dp_api.c, --neighbours). */
	l3c.nbr_max = d->set.neighbours;
	l3c.nbr_mem_len = dpsctp_l3_nbr_mem_size(l3c.nbr_max, 0);
	l3c.nbr_mem = w->l3_mem[p] = rte_zmalloc_socket("dp_nbr", l3c.nbr_mem_len, 64, socket);
	l3c.hash_seed = dp_worker_entropy32(0x6c33u + p) ^ w->rnd ^ (0x9e3779b9u * p);
	w->l3[p] = rte_zmalloc_socket("dp_l3", sizeof(*w->l3[p]), RTE_CACHE_LINE_SIZE, socket);
	if (w->l3_mem[p] == NULL || w->l3[p] == NULL)
		return -ENOMEM;
	if (dpsctp_l3_init(w->l3[p], &l3c, dp_tx_l3_release, w) != 0)
		return -EINVAL;
	return 0;
}

/*
 * The core's pools and data configuration: reassembly nodes for the receive
 * windows, messages and chunks for the send buffers, shared by the worker's
 * associations: sized for DP_FULL_WINDOWS of them holding full windows at
 * once, plus 16 entries each for --active-assocs more (not for every
 * association: an idle one holds none, and an instance sized for a million
 * pays for the ones that move data at once). An association that finds a pool
 * empty drops and counts (data_no_room) or refuses the send (-EAGAIN): the
 * peer and the application retry, nothing grows (docs/LCORE.md). With
 * PR-SCTP configured (--extensions) the send queue and the sent chunks get
 * their PR-SCTP slots beside the nodes, 16 bytes per node each; without
 * it they have none and a message with a policy goes reliably. With I-DATA
 * configured, I-DATA's reassembly gets a pool of its own beside DATA's (an
 * association uses one or the other, as it negotiated), sized as DATA's
 * plus one node per association: I-DATA keeps a record per message in
 * progress besides its fragments, and each association may hold one while
 * the rest of the pool is taken.
 */
static int
dp_worker_data(struct dp_worker *w, int socket)
{
	struct dpsctp *d = w->d;
	uint32_t assocs = d->set.max_assocs, active = d->set.active_assocs;
	uint32_t full = assocs < DP_FULL_WINDOWS ? assocs : DP_FULL_WINDOWS;
	uint32_t reasm_n = full * (d->set.rcvbuf / 512u) + active * 16u;
	uint32_t outq_n = full * (d->set.sndbuf / 1024u) + active * 16u;
	uint32_t rtxq_n = full * (d->set.sndbuf / 512u) + active * 16u;
	if (reasm_n > 1u << 22)
		reasm_n = 1u << 22;
	uint32_t ireasm_n = reasm_n + active;
	if (outq_n > 1u << 22)
		outq_n = 1u << 22;
	if (rtxq_n > 1u << 22)
		rtxq_n = 1u << 22;
	w->reasm_nodes = rte_zmalloc_socket("dp_reasm", (size_t)reasm_n * sizeof(*w->reasm_nodes),
					    RTE_CACHE_LINE_SIZE, socket);
	w->outq_nodes = rte_zmalloc_socket("dp_outq", (size_t)outq_n * sizeof(*w->outq_nodes),
					   RTE_CACHE_LINE_SIZE, socket);
	w->rtxq_nodes = rte_zmalloc_socket("dp_rtxq", (size_t)rtxq_n * sizeof(*w->rtxq_nodes),
					   RTE_CACHE_LINE_SIZE, socket);
	if (w->reasm_nodes == NULL || w->outq_nodes == NULL || w->rtxq_nodes == NULL)
		return -ENOMEM;
	bool pr = (d->cfg.extensions & DPSCTP_EXT_PR_SCTP) != 0;
	if (pr) {
		w->outq_pr = rte_zmalloc_socket("dp_outq_pr", (size_t)outq_n * sizeof(*w->outq_pr),
						RTE_CACHE_LINE_SIZE, socket);
		w->rtxq_pr = rte_zmalloc_socket("dp_rtxq_pr", (size_t)rtxq_n * sizeof(*w->rtxq_pr),
						RTE_CACHE_LINE_SIZE, socket);
		if (w->outq_pr == NULL || w->rtxq_pr == NULL)
			return -ENOMEM;
	}
	/* The messages' contexts for SEND FAILED (dpsctp_sndinfo.context): 4 bytes a node. */
	w->outq_ctx = rte_zmalloc_socket("dp_outq_ctx", (size_t)outq_n * sizeof(*w->outq_ctx),
					 RTE_CACHE_LINE_SIZE, socket);
	w->rtxq_ctx = rte_zmalloc_socket("dp_rtxq_ctx", (size_t)rtxq_n * sizeof(*w->rtxq_ctx),
					 RTE_CACHE_LINE_SIZE, socket);
	if (w->outq_ctx == NULL || w->rtxq_ctx == NULL)
		return -ENOMEM;
	bool idata = (d->cfg.extensions & DPSCTP_EXT_I_DATA) != 0;
	if (idata) {
		w->ireasm_nodes =
			rte_zmalloc_socket("dp_ireasm", (size_t)ireasm_n * sizeof(*w->ireasm_nodes),
					   RTE_CACHE_LINE_SIZE, socket);
		if (w->ireasm_nodes == NULL)
			return -ENOMEM;
	}
	w->data.buf.hold = dp_buf_hold;
	w->data.buf.release = dp_buf_release;
	w->data.buf.ctx = w;
	if (sctp_reasm_pool_init(&w->reasm_pool, w->reasm_nodes, reasm_n) != 0 ||
	    sctp_outq_pool_init(&w->outq_pool, w->outq_nodes, outq_n, &w->data.buf) != 0 ||
	    sctp_rtxq_pool_init(&w->rtxq_pool, w->rtxq_nodes, rtxq_n) != 0)
		return -EINVAL;
	if (pr && (sctp_outq_pool_attach_pr(&w->outq_pool, w->outq_pr, outq_n) != 0 ||
		   sctp_rtxq_pool_attach_pr(&w->rtxq_pool, w->rtxq_pr, rtxq_n) != 0))
		return -EINVAL;
	if (sctp_outq_pool_attach_ctx(&w->outq_pool, w->outq_ctx, outq_n) != 0 ||
	    sctp_rtxq_pool_attach_ctx(&w->rtxq_pool, w->rtxq_ctx, rtxq_n) != 0)
		return -EINVAL;
	if (idata && sctp_ireasm_pool_init(&w->ireasm_pool, w->ireasm_nodes, ireasm_n) != 0)
		return -EINVAL;
	w->data.reasm_pool = &w->reasm_pool;
	/* Required when the endpoint offers I-DATA (sctp/assoc.h); NULL: not offered. */
	w->data.ireasm_pool = idata ? &w->ireasm_pool : NULL;
	w->data.reasm.max_bytes = d->set.rcvbuf;
	/* Messages above half the window are delivered in parts (partial delivery). */
	w->data.reasm.pd_point = d->set.rcvbuf / 2u;
	uint32_t chunks = d->set.rcvbuf / 64u + 16u;
	w->data.reasm.max_chunks = (uint16_t)(chunks > 65535u ? 65535u : chunks);
	w->data.tsn_map_words = DP_TSN_MAP_WORDS;
	w->data.max_dups = DP_MAX_DUPS;
	w->stages_on = d->cfg.stage_cycles;
	w->busy_init_gap_ns =
		d->cfg.busy_init_rate != 0 ? 1000000000ull / d->cfg.busy_init_rate : 0;
	w->hb_gap_ns = d->cfg.hb_rate != 0 ? 1000000000ull / d->cfg.hb_rate : 0;
	w->data.max_gap_blocks = 16;
	/* The data block holds --max-paths paths' send state (dp_data_bytes()). */
	w->data.max_paths = (uint8_t)d->cfg.max_paths;
	w->data.outq_pool = &w->outq_pool;
	w->data.rtxq_pool = &w->rtxq_pool;
	w->data.outq_max_bytes = d->set.sndbuf;
	w->data.outq_max_msgs = d->set.sndbuf / 64u + 16u;
	w->data.rtxq_max_chunks = d->set.sndbuf / 64u + 16u;
	/* Every association's scheduler until dpsctp_set_sched() (--sched). */
	w->data.sched = (uint8_t)d->cfg.sched;
	w->data.mtu = d->ports[0].mtu != 0 ? d->ports[0].mtu : 1500;
	if (w->data.mtu > SCTP_ASSOC_TX_MAX)
		w->data.mtu = SCTP_ASSOC_TX_MAX;
	/* RFC 6951 §5.6: over UDP the SCTP packet has 8 bytes less of the path MTU. */
	if (d->set.udp_encap)
		w->data.mtu = (uint16_t)(w->data.mtu - 8u);
	return 0;
}

/* Association, handshake, path and data blocks; the two tables; the hand-off and request rings. */
static int
dp_worker_blocks(struct dp_worker *w, int socket)
{
	struct dpsctp *d = w->d;
	unsigned index = w->index;
	uint32_t assocs = d->set.max_assocs;
	w->conn_pool = dp_pool("c", d, index, assocs, sizeof(struct dpsctp_assoc));
	w->hs_pool =
		dp_pool("h", d, index, d->set.max_handshakes, sizeof(struct sctp_assoc_handshake));
	/* Blocks of further paths for --multihomed associations (none with --max-paths 1). */
	w->paths_pool = d->set.multihomed == 0
				? NULL
				: dp_pool("p", d, index, d->set.multihomed,
					  DP_PATHS_PER_BLOCK * sizeof(struct sctp_path));
	/* RFC 6525: adding streams takes a second block for a moment (the old one goes back). */
	uint32_t spare = (d->cfg.extensions & DPSCTP_EXT_RECONFIG) ? DP_DATA_SPARE : 0u;
	w->data_pool = dp_pool("d", d, index, assocs + spare, d->data_bytes);
	w->by_tag = dp_hash("t", d, index, assocs * 2, sizeof(struct dp_tag_key));
	w->by_peer = dp_hash("a", d, index, assocs * 2, sizeof(struct dp_peer_key));
	w->handoff = dp_ring("r", d, index, 4096);
	int rc = dp_req_create(w, socket);
	if (w->conn_pool == NULL || w->hs_pool == NULL ||
	    (w->paths_pool == NULL && d->set.multihomed != 0) || w->data_pool == NULL || rc != 0 ||
	    w->by_tag == NULL || w->by_peer == NULL || w->handoff == NULL)
		return -ENOMEM;
	return 0;
}

int
dp_worker_create(struct dpsctp *d, unsigned index)
{
	int socket = d->ports[0].socket_id < 0 ? 0 : d->ports[0].socket_id;
	struct dp_worker *w =
		rte_zmalloc_socket("dp_worker", sizeof(*w), RTE_CACHE_LINE_SIZE, socket);
	if (w == NULL)
		return -ENOMEM;
	d->w[index] = w;
	w->d = d;
	w->index = index;
	w->rnd = dp_worker_entropy32(0x7277u + index) ^ (0x9e3779b9u * (index + 1)) ^
		 dpsctp_vtag_make(&d->vtag, 0, 1);
	if (w->rnd == 0)
		w->rnd = 1;
	w->now_ns = dp_now_ns();

	int rc = 0;
	for (unsigned p = 0; p < d->n_ports && rc == 0; p++)
		rc = dp_worker_l3(w, p, socket);
	if (rc == 0)
		rc = dp_worker_data(w, socket);
	if (rc == 0)
		rc = dp_worker_blocks(w, socket);
	if (rc != 0)
		return rc;

	w->ep = rte_zmalloc_socket("dp_ep", (size_t)d->max_listeners * sizeof(*w->ep),
				   RTE_CACHE_LINE_SIZE, socket);
	if (w->ep == NULL)
		return -ENOMEM;
	if (dp_endpoint(w, &w->closed_ep, 0, false) != 0)
		return -EINVAL;
	for (unsigned i = 0; i < d->n_listeners; i++)
		if (d->listeners[i].port != 0 &&
		    dp_endpoint(w, &w->ep[i], d->listeners[i].port, true) != 0)
			return -EINVAL;
	if (dpsctp_timer_wheel_init(&w->wheel, 1000, w->now_ns) != 0)
		return -EINVAL;
	return 0;
}

int
dp_worker_listen(struct dp_worker *w, unsigned slot)
{
	return dp_endpoint(w, &w->ep[slot], w->d->listeners[slot].port, true);
}

/* The endpoint of a port that stops listening; its drops stay counted (closed_ep's). */
void
dp_worker_unlisten(struct dp_worker *w, unsigned slot)
{
	struct sctp_endpoint *ep = &w->ep[slot];
	for (unsigned i = 0; i < SCTP_EP_DROP_COUNT; i++)
		w->closed_ep.drops[i] += ep->drops[i];
	sctp_endpoint_fini(ep);
	memset(ep, 0, sizeof(*ep));
}

void
dp_worker_destroy(struct dp_worker *w)
{
	if (w == NULL)
		return;
	rte_hash_free(w->by_tag);
	rte_hash_free(w->by_peer);
	rte_ring_free(w->handoff);
	dp_req_destroy(w);
	/* Heap data blocks of associations a stop did not end (the pools go whole). */
	for (struct dpsctp_assoc *c = w->conns; c != NULL; c = c->next)
		for (unsigned i = 0; i < 2; i++)
			rte_free(c->heap_block[i]);
	rte_mempool_free(w->conn_pool);
	rte_mempool_free(w->hs_pool);
	rte_mempool_free(w->paths_pool);
	rte_mempool_free(w->data_pool);
	rte_free(w->reasm_nodes);
	rte_free(w->outq_nodes);
	rte_free(w->rtxq_nodes);
	rte_free(w->outq_pr);
	rte_free(w->rtxq_pr);
	rte_free(w->outq_ctx);
	rte_free(w->rtxq_ctx);
	rte_free(w->ireasm_nodes);
	for (unsigned p = 0; p < DPSCTP_CONFIG_MAX_PORTS; p++) {
		rte_free(w->l3_mem[p]);
		rte_free(w->l3[p]);
	}
	dp_impair_fini(&w->impair_tx);
	dp_impair_fini(&w->impair_rx);
	rte_pktmbuf_free(w->pack);
	sctp_endpoint_fini(&w->closed_ep);
	for (unsigned i = 0; w->ep != NULL && i < w->d->n_listeners; i++)
		if (w->d->listeners[i].port != 0)
			sctp_endpoint_fini(&w->ep[i]);
	rte_free(w->ep);
	rte_free(w);
}

/*
 * The receive stage's seed is the transmit one's (seed + worker index) XOR
 * this constant (2^64 / golden ratio, splitmix64's increment): with the same
 * seed= in --impair and --impair-rx, the two directions of a worker still
 * draw different losses (docs/IMPAIR.md, "In the data plane").
 */
#define DP_IMPAIR_RX_SEED_SALT 0x9e3779b97f4a7c15ull

int
dp_worker_impair_setup(struct dp_worker *w, char *err, size_t errlen)
{
	char why[200] = "";
	struct rte_mempool *clones = w->d->indirect_pool, *copies = w->d->ports[0].pool;
	int rc = dp_impair_init(&w->impair_tx, w->d->cfg.impair, w->index, 0,
				&w->ctr.impair_duplicated, clones, copies, err, errlen);
	if (rc != 0)
		return rc;
	/* The caller (dpsctp_create()) prefixes "--impair: ": say which spec it was. */
	rc = dp_impair_init(&w->impair_rx, w->d->cfg.impair_rx, w->index, DP_IMPAIR_RX_SEED_SALT,
			    &w->ctr.impair_rx_duplicated, clones, copies, why, sizeof(why));
	if (rc != 0 && err != NULL && errlen != 0)
		snprintf(err, errlen, "receive side (--impair-rx): %s", why);
	return rc;
}

void
dp_worker_impair_drain(struct dp_worker *w)
{
	dp_impair_drain(&w->impair_tx);
	dp_impair_drain(&w->impair_rx);
}

/*
 * The port's burst through the receive stage, then every frame due now
 * (those from earlier polls too, so this runs when the port gave none) to
 * dp_rx_frame(), DP_BURST at a time. Returns the frames taken and handed on.
 */
static unsigned
dp_worker_impair_rx(struct dp_worker *w, struct rte_mbuf **pkts, unsigned n)
{
	unsigned work = n, k;
	struct rte_mbuf *due[DP_BURST];

	/* A received frame with no mbuf for its copy is lost as the stage's drop. */
	dp_impair_push(&w->impair_rx, pkts, n, w->now_ns, &w->ctr.impair_rx_dropped,
		       &w->ctr.impair_rx_dropped);
	do {
		k = dp_impair_pop(&w->impair_rx, w->now_ns, due, DP_BURST);
		for (unsigned i = 0; i < k; i++)
			dp_rx_frame(w, due[i], false);
		work += k;
	} while (k == DP_BURST);
	return work;
}

/* A gap over 500 us between two polls, counted in the buckets it passes. */
static void
dp_worker_count_gap(struct dp_worker *w, uint64_t gap_ns)
{
	w->ctr.poll_gap_500us++;
	if (gap_ns > 2 * 1000 * 1000ull)
		w->ctr.poll_gap_2ms++;
	if (gap_ns > 10 * 1000 * 1000ull)
		w->ctr.poll_gap_10ms++;
	if (gap_ns > 100 * 1000 * 1000ull)
		w->ctr.poll_gap_100ms++;
}

unsigned
dp_worker_poll(struct dp_worker *w)
{
	struct rte_mbuf *pkts[DP_BURST];
	unsigned work = 0;

	dp_worker_set_current(w);
	dp_stage_begin(w);
	uint64_t now = dp_now_ns();
	/*
	 * How long nobody looked at this worker's queues and timers: what a
	 * peer waits on top of the path when the thread is descheduled. Its
	 * spread decides how far the RTO can go down (docs/PROFILES.md).
	 */
	bool gap = unlikely(now - w->now_ns > 500 * 1000ull) && w->ctr.polls != 0;
	if (gap)
		dp_worker_count_gap(w, now - w->now_ns);
	w->now_ns = now;
	w->ctr.polls++;
	/* SCTP packets since the last poll that were not out of the blue: some
	 * association has traffic (the counters the receive path keeps anyway). */
	uint64_t served = w->ctr.rx_sctp - w->ctr.ootb - w->ctr.drop_init_busy;
	if (served != w->assoc_served) {
		w->assoc_served = served;
		w->assoc_traffic_until = now + DP_ASSOC_TRAFFIC_NS;
	}

	uint16_t n;
	/*
	 * Every port's queue of this worker; a frame knows its port by m->port
	 * (dp_rx.c). One burst per port and poll; after a gap, what the queue
	 * gathered meanwhile, up to a ring's worth (DP_RX_CATCHUP): the timers
	 * below would otherwise fire first, and a T3-rtx deadline that passed
	 * while the thread was descheduled expires although the SACK that
	 * stops it is waiting behind the first burst (a stall of our own taken
	 * for a loss: cwnd cut, the window sent again).
	 */
	for (unsigned p = 0; p < w->d->n_ports; p++) {
		for (unsigned round = 0; round < (gap ? DP_RX_CATCHUP : 1u); round++) {
			unsigned st = dp_stage_enter(w, DP_STAGE_RX_BURST);
			n = rte_eth_rx_burst(w->d->ports[p].port_id, (uint16_t)w->index, pkts,
					     DP_BURST);
			dp_stage_leave(w, st);
			w->ctr.rx_packets += n;
			w->port_rx[p] += n;
			if (round != 0)
				w->ctr.rx_catchup += n;
			for (uint16_t i = 0; i < n; i++)
				pkts[i]->port = (uint16_t)p;
			/* A full burst: more wait behind it. INITs then come after the
			 * associations' traffic (dp_rx.c). */
			w->rx_busy = n == DP_BURST && w->now_ns < w->assoc_traffic_until;
			if (w->impair_rx.on) {
				work += dp_worker_impair_rx(w, pkts, n);
			} else {
				for (uint16_t i = 0; i < n; i++)
					dp_rx_frame(w, pkts[i], false);
				work += n;
			}
			if (n < DP_BURST)
				break;
		}
	}

	/*
	 * The queues for handshakes (--init-queue) of the ports this worker
	 * reads them for: while associations have traffic, only as many as
	 * --busy-init-rate allows; the rest wait, and what the queue cannot
	 * hold the port drops without costing us a cycle. No impairment stage
	 * here: --impair-rx is the associations' path.
	 */
	if (w->d->init_q) {
		w->rx_busy = false;
		w->rx_init_q = true;
		for (unsigned p = w->index; p < w->d->n_ports; p += w->d->n_workers) {
			unsigned k = dp_rx_init_budget(w, DP_BURST);
			if (k == 0)
				break;
			unsigned st = dp_stage_enter(w, DP_STAGE_RX_BURST);
			n = rte_eth_rx_burst(w->d->ports[p].port_id, w->d->init_qid, pkts,
					     (uint16_t)k);
			dp_stage_leave(w, st);
			dp_rx_init_spend(w, n);
			w->ctr.rx_packets += n;
			w->ctr.rx_init_queue += n;
			w->port_rx[p] += n;
			for (uint16_t i = 0; i < n; i++) {
				pkts[i]->port = (uint16_t)p;
				dp_rx_frame(w, pkts[i], false);
			}
			work += n;
		}
		w->rx_init_q = false;
	}

	/* Frames other workers received for us (never an INIT: tag 0 is not handed off). */
	w->rx_busy = false;
	unsigned st = dp_stage_enter(w, DP_STAGE_RX_BURST);
	n = (uint16_t)rte_ring_sc_dequeue_burst(w->handoff, (void **)pkts, DP_BURST, NULL);
	dp_stage_leave(w, st);
	w->ctr.rx_handoff_in += n;
	for (uint16_t i = 0; i < n; i++)
		dp_rx_frame(w, pkts[i], true);
	work += n;
	dp_rx_release_flush(w);

	/* API calls made on other threads. */
	st = dp_stage_enter(w, DP_STAGE_REQUESTS);
	work += dp_req_run_pending(w);
	dp_stage_leave(w, st);

	st = dp_stage_enter(w, DP_STAGE_TIMERS);
	unsigned fired = dpsctp_timer_wheel_advance(&w->wheel, w->now_ns, dp_conn_timer_cb, w);
	dp_stage_leave(w, st);
	w->ctr.timers_fired += fired;
	work += fired;

	for (unsigned p = 0; p < w->d->n_ports; p++) {
		uint8_t probe[DPSCTP_L3_PROBE_MAX];
		uint32_t probe_len = 0;
		(void)dpsctp_l3_tick(w->l3[p], w->now_ns, probe, sizeof(probe), &probe_len);
		if (probe_len != 0)
			dp_tx_raw(w, p, probe, probe_len);
	}

	if (dp_tx_due(w))
		dp_tx_flush(w);
	if (work == 0)
		w->ctr.idle_polls++;
	dp_stage_end(w, work);
	dp_worker_set_current(NULL);
	return work;
}
