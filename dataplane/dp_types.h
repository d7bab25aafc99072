/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The runtime's shared structures (docs/LCORE.md): an instance (struct
 * dpsctp) owns its ports (one to DPSCTP_CONFIG_MAX_PORTS) and N workers; a
 * worker (struct dp_worker) owns one rx/tx queue pair of every port, one L3
 * state per port, and everything a packet of its associations touches —
 * endpoints, association tables, pools,
 * timer wheel, tx batch, counters; an association (struct dpsctp_assoc)
 * is the core's state plus what the runtime needs to find and wake it.
 * A worker runs on one thread at a time (an EAL lcore launched by
 * dpsctp_start(), or the caller's thread in dpsctp_poll()); nothing here
 * takes a lock. Other threads reach a worker through its two MP/SC rings:
 * `handoff` (packets another worker received for it, by tag) and
 * `requests` (API calls made off the owning thread, dp_req.h).
 *
 * These are here, not in one file's header, because every runtime file
 * reads them: a packet's path touches the worker, its association and the
 * instance's settings in every step. Functions are declared in the header
 * of the file that defines them (dp_worker.h, dp_rx.h, dp_tx.h, ...); this
 * header declares none.
 *
 * Includes: dp_counters.h and dp_impair.h of the runtime (docs/ARCHITECTURE.md,
 * "The runtime's files").
 */
#ifndef DPSCTP_DATAPLANE_DP_TYPES_H
#define DPSCTP_DATAPLANE_DP_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_hash.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "dataplane/config.h"
#include "dataplane/dp_counters.h"
#include "dataplane/dp_impair.h"
#include "dataplane/dp_route.h"
#include "dataplane/dpsctp.h"
#include "dataplane/timer_wheel.h"
#include "dataplane/vtag.h"
#include "drivers/net/l3.h"
#include "drivers/port/port.h"
#include "sctp/assoc.h"
#include "sctp/assoc_opt.h"
#include "sctp/endpoint.h"

/*
 * The options the data plane keeps itself (dataplane/dp_opt.c): the
 * instance's in struct dpsctp, an association's in its struct dp_opts.
 */
struct dp_optvals {
	struct dpsctp_default_sndinfo sndinfo; /* DPSCTP_OPT_DEFAULT_SNDINFO */
	uint32_t events;		       /* DPSCTP_OPT_EVENTS mask */
	uint32_t nodelay;		       /* DPSCTP_OPT_NODELAY */
};

/* An association's own options, made at its first dpsctp_assoc_setopt(). */
struct dp_opts {
	struct sctp_assoc_opts core; /* the core's parameters (sctp/assoc_opt.h) */
	struct dp_optvals v;
};

#define DP_MAX_WORKERS 16u
#define DP_BURST       32u /* rx burst */
/*
 * Bursts per port read after a poll gap before the timers run
 * (dp_worker_poll()): 32 x 32, the default rx ring's 1024 frames
 * (DPSCTP_PORT_RING_DEFAULT). A bound, so a queue that stays full still
 * lets the timers run once per poll.
 */
#define DP_RX_CATCHUP	   32u
#define DP_RX_DONE_MAX	   64u	 /* handled frames held for one bulk free */
#define DP_TX_MAX	   256u	 /* packets a worker batches before tx_burst */
#define DP_MSG_SEGS	   64u	 /* slices handed to one receive callback */
#define DP_HS_PER_WORKER   64u	 /* handshake scratch blocks (client side) */
#define DP_PATHS_PER_BLOCK 7u	 /* further peer addresses per association */
#define DP_FULL_WINDOWS	   64u	 /* associations whose full windows the pools hold at once */
#define DP_ACTIVE_DEFAULT  4096u /* --active-assocs 0: at most this many with data at once */
/* How long associations count as busy after their last packet (INIT shedding, dp_rx.c). */
#define DP_ASSOC_TRAFFIC_NS 100000000ull
/*
 * Data blocks a worker keeps beyond --max-assocs when RE-CONFIG is offered:
 * adding streams (RFC 6525) takes the larger block while the old one is
 * still lent, inside one core call, so one would do; the rest is margin.
 * A refusal is counted (data_block_empty) and answered "Denied".
 */
#define DP_DATA_SPARE 4u
/*
 * The most streams each way a pool data block holds (fewer when
 * --max-streams is lower): the default --max-streams, so the pool does not
 * grow with --max-streams. An association that negotiates more gets its
 * block from the heap, within --stream-mem bytes per worker (dp_conn.c).
 */
#define DP_DATA_POOL_STREAMS 64u
/* The data block's layout (dp_worker.c sets them, dp_api.c sizes the pool by them). */
#define DP_TSN_MAP_WORDS 64u /* 4,096 TSNs of receive window in the bitmap */
#define DP_MAX_DUPS                                                                                \
	32u /* duplicate TSNs listed in one SACK: a whole packet of                                \
		   64-byte messages, so a sender can judge its timeout (sctp/spurious.h) */

/* rte_hash keys. */
struct dp_tag_key {
	uint32_t vtag; /* our tag, as on the wire (host order) */
	uint16_t local_port;
	uint16_t peer_port;
};

struct dp_peer_key {
	uint8_t addr[16];
	uint8_t family;
	uint8_t pad;
	uint16_t local_port;
	uint16_t peer_port;
	uint16_t pad2;
};

struct dp_worker;
struct dpsctp;

/* A close the application asked for from inside a callback (dpsctp_assoc.deferred). */
enum dp_close { DP_CLOSE_NONE, DP_CLOSE_SHUTDOWN, DP_CLOSE_ABORT };

/*
 * An association as the runtime holds it: the core's state first, then what
 * the runtime needs to find it, wake it and call back its application.
 */
struct dpsctp_assoc {
	struct sctp_assoc a;
	struct dpsctp_timer timer;
	struct dp_worker *w;
	struct dpsctp_assoc *next, *prev; /* the worker's list */
	struct dp_tag_key tag_key;
	struct dp_peer_key peer_key;
	bool in_tag_table, in_peer_table;
	bool notified_end; /* COMM_LOST, SHUTDOWN_COMPLETE or CANT_START given */
	bool want_space;   /* a send was refused for room: call on_space when it frees */
	bool in_send;	   /* inside dpsctp_send(): on_space waits for the next input */
	bool app_closed;   /* the application called close or abort */
	/* Inside one of its callbacks (a depth): the core is mid-run on this
	 * association, so a close asked from there waits in `deferred`
	 * (enum dp_close) for dp_conn_after(). */
	uint8_t in_cb;
	uint8_t deferred;
	uint16_t udp_port; /* the peer's RFC 6951 port; 0 for SCTP over IP */
	uint64_t id;	   /* stable identifier for statistics and telemetry */
	const struct dpsctp_callbacks *cb;
	void *arg;
	const dpsctp_recv_cb *stream_recv; /* per-stream handlers: NULL or n_stream_cb */
	void *const *stream_args;
	uint16_t n_stream_cb;
	uint32_t space_threshold;
	/*
	 * Data blocks larger than the pool's, from the heap (dp_conn.c): at most
	 * two at once, the old and the new one while RE-CONFIG moves the
	 * association to more streams; their bytes count against --stream-mem.
	 */
	void *heap_block[2];
	size_t heap_bytes[2];
	/* Messages and bytes through the API (dpsctp_assoc_get_stats() adds the rest). */
	uint64_t msgs_sent, bytes_sent, msgs_recv, bytes_recv;
	struct sctp_assoc_stats stats; /* the core's figures of this association */
	/*
	 * Peer addresses whose next hops this association pinned in its
	 * worker's neighbour table (dpsctp_l3_pin(), dp_conn_after()): paths
	 * [0, nbr_paths) were looked at, nbr_pins[0, n_nbr_pins) pinned; all
	 * unpinned when the block is freed (paths only grow, and a closed
	 * association keeps only path 0, so the addresses are kept here).
	 */
	uint8_t nbr_paths, n_nbr_pins;
	struct sctp_addr nbr_pins[SCTP_MAX_PATHS];
	uint8_t nbr_pin_port[SCTP_MAX_PATHS]; /* the port whose table holds each pin */
	/*
	 * The peer's addresses beyond path 0's (whose key is peer_key) this
	 * association put in its worker's by-peer table as its paths were
	 * added (dp_conn_pin_paths()), deleted when the block is freed.
	 */
	uint8_t n_peer_addrs;
	struct sctp_addr peer_addrs[SCTP_MAX_PATHS - 1];
	/* The last neighbour confirmation (dp_rx.c): its path and time. */
	uint8_t nbr_confirmed_path;
	uint64_t nbr_confirmed_ns;
	struct dp_opts *opts; /* NULL: the instance's options (dp_opt.c) */
};

/*
 * A listening port: one endpoint per worker, same key and settings. Port 0:
 * a free slot (dpsctp_unlisten()). The listening endpoints only answer
 * INITs and check COOKIE ECHOs; the associations they accept refer to
 * their worker's closed_ep (same addresses, key and profile), so a port
 * can stop listening while its associations live on.
 */
struct dp_listener {
	uint16_t port;
	const struct dpsctp_callbacks *cb;
	void *arg;
};

/* The stages of --stage-cycles (dp_stage.h); names in dp_stage_names[] (dp_stats.c). */
enum dp_stage {
	DP_STAGE_OTHER = 0, /* the loop and whatever no stage below covers */
	DP_STAGE_RX_BURST,  /* rte_eth_rx_burst() and the hand-off ring's dequeue */
	DP_STAGE_RX_COPY,   /* a received mbuf chain copied into one mbuf (rx_linearized) */
	DP_STAGE_L3,	    /* Ethernet, IP, UDP: finding the SCTP packet (drivers/net) */
	DP_STAGE_CRC,	    /* the CRC32c check of a received packet */
	DP_STAGE_PARSE,	    /* the chunk walk (sctp_packet_parse()) */
	DP_STAGE_LOOKUP,    /* owner, hand-off and the association tables */
	DP_STAGE_CORE,	    /* the association's input: state, SACK processing and decision */
	DP_STAGE_DELIVER,   /* the application's receive callback, the slices freed */
	DP_STAGE_APP,	    /* its other callbacks (events, on_space) and what they do */
	DP_STAGE_REARM,	    /* after an input: the association's timer re-armed, tables */
	DP_STAGE_TX_BUILD,  /* packets built from the core's output: headers, CRC32c, L3 */
	DP_STAGE_TX_BURST,  /* rte_eth_tx_burst() */
	DP_STAGE_TIMERS,    /* the timer wheel and what the timers do */
	DP_STAGE_REQUESTS,  /* API calls posted by other threads */
	DP_STAGE_RX_FREE,   /* a received frame's mbuf freed once handled */
	DP_STAGE_IDLE,	    /* whole polls that found nothing to do (moved here at their end) */
	DP_STAGE_COUNT
};

/* One stage's cycles and the boundaries entered (events). */
struct dp_stage_acc {
	uint64_t cycles, events;
};

struct dp_worker {
	struct dpsctp *d;
	unsigned index; /* queue id and the owner index in our tags */
	uint64_t now_ns;
	/*
	 * The frames being handled came in a full burst (the queue is backed
	 * up) while associations have traffic (an SCTP packet other than an
	 * out-of-the-blue one within DP_ASSOC_TRAFFIC_NS: assoc_served marks
	 * the count, assoc_traffic_until the window). INITs then wait for
	 * --busy-init-rate's allowance (dp_rx.c): busy_init_ns is when the next
	 * one is due (GCRA), busy_init_gap_ns the interval (0: no limit). A
	 * storm of handshakes alone, with no association talking, is answered
	 * in full.
	 */
	bool rx_busy;
	uint64_t assoc_served, assoc_traffic_until;
	uint64_t busy_init_ns, busy_init_gap_ns;
	/*
	 * --hb-rate (dp_conn.c dp_hb_admit()): idle-path heartbeats are
	 * granted slots hb_gap_ns apart (0: no limit); hb_slot_ns is the next
	 * free one (GCRA's theoretical arrival time).
	 */
	uint64_t hb_slot_ns, hb_gap_ns;
	/*
	 * rx_init_q: the frame being handled came from a port's queue for
	 * handshakes (--init-queue). tag_spread: it is out of the blue there,
	 * with several workers: the tag of an INIT ACK names the next worker in
	 * turn (init_next), not this one, so that the associations one worker
	 * answers for are spread over all, as RSS would have spread their INITs.
	 */
	/* Received SCTP frames handled, freed together (dp_rx_release_flush()). */
	unsigned n_rx_done;
	struct rte_mbuf *rx_done[DP_RX_DONE_MAX];
	bool rx_init_q, tag_spread;
	unsigned init_next;
	/* --stage-cycles (dp_stage.h): on, live inside a poll, the stage running since stage_t0. */
	bool stages_on, stage_live;
	uint8_t stage_cur;
	uint64_t stage_t0;
	struct dp_stage_acc stage[DP_STAGE_COUNT];
	struct dp_stage_acc stage_mark[DP_STAGE_COUNT]; /* at the poll's start */
	/*
	 * One L3 state per port of the instance (d->n_ports): that port's
	 * addresses, MAC and neighbour table (--neighbours entries in l3_mem),
	 * each rte_malloc'd.
	 */
	struct dpsctp_l3 *l3[DPSCTP_CONFIG_MAX_PORTS];
	void *l3_mem[DPSCTP_CONFIG_MAX_PORTS];
	/* Ports nobody listens on (§8.4 answers), and every association's endpoint. */
	struct sctp_endpoint closed_ep;
	struct sctp_endpoint *ep; /* d->max_listeners, by the slot of d->listeners */
	struct sctp_data_config data;
	struct sctp_reasm_pool reasm_pool;
	struct sctp_outq_pool outq_pool;
	struct sctp_rtxq_pool rtxq_pool;
	struct sctp_reasm_node *reasm_nodes;
	struct sctp_outq_msg *outq_nodes;
	struct sctp_rtxq_node *rtxq_nodes;
	/* PR-SCTP slots beside outq_nodes and rtxq_nodes; NULL without PR-SCTP (--extensions). */
	struct sctp_outq_pr *outq_pr;
	struct sctp_rtxq_pr_slot *rtxq_pr;
	uint32_t *outq_ctx; /* message contexts beside the send queue nodes */
	uint32_t *rtxq_ctx; /* and beside the retransmission queue's */
	/* I-DATA's reassembly (sctp/ireasm.h); NULL without I-DATA (--extensions). */
	struct sctp_ireasm_pool ireasm_pool;
	union sctp_ireasm_node *ireasm_nodes;
	struct rte_mempool *conn_pool;	/* struct dpsctp_assoc */
	struct rte_mempool *hs_pool;	/* struct sctp_assoc_handshake */
	struct rte_mempool *paths_pool; /* DP_PATHS_PER_BLOCK struct sctp_path; NULL: none */
	struct rte_mempool *data_pool;	/* ops->data_get() blocks up to d->data_bytes */
	uint64_t data_heap_in_use;	/* bytes of larger blocks held, at most --stream-mem */
	struct rte_hash *by_tag;
	struct rte_hash *by_peer;
	struct rte_ring *handoff;
	struct rte_ring *requests;
	struct rte_mempool *req_pool; /* struct dp_req, multi-producer */
	struct dpsctp_timer_wheel wheel;
	struct dpsctp_assoc *conns; /* every association of this worker */
	uint32_t n_conns;
	uint32_t rnd;
	bool stopping;
	struct rte_mbuf *pack; /* small byte sends are copied here, one slice each */
	/* The tx batch, every port's: each mbuf's m->port is its port's index in d->ports. */
	unsigned n_tx;
	struct rte_mbuf *tx[DP_TX_MAX];
	struct dp_impair impair_tx; /* --impair: between the tx batch and the port */
	struct dp_impair impair_rx; /* --impair-rx: between the rx burst and dp_rx_frame() */
	struct dp_worker_counters ctr;
	/* Frames in and out by port of the instance (dpsctp_port_stats()). */
	uint64_t port_rx[DPSCTP_CONFIG_MAX_PORTS], port_tx[DPSCTP_CONFIG_MAX_PORTS];
	/*
	 * What the core counts for all of this worker's associations together
	 * (sctp_assoc_init()'s counters): the named discards
	 * (sctp/assoc_drop.def) and the owner-wide events. Each association's
	 * own figures are inside it (struct sctp_assoc_stats).
	 */
	struct sctp_assoc_counters assoc_ctr;
	struct dpsctp_seg segs[DP_MSG_SEGS];
};

/* One port's addresses (its --ip) and default gateways (its --gw). */
struct dp_port_settings {
	struct sctp_addr addrs[DPSCTP_L3_ADDR_MAX];
	uint8_t prefix[DPSCTP_L3_ADDR_MAX];
	unsigned n_addrs;
	struct sctp_addr gw4, gw6;
};

/* What the runtime takes from the configuration, resolved (dp_api.c). */
struct dp_settings {
	/* Every address of every port: the endpoints' (what INIT and INIT ACK list). */
	struct sctp_addr addrs[DPSCTP_L3_ADDR_MAX];
	uint8_t prefix[DPSCTP_L3_ADDR_MAX];
	unsigned n_addrs;
	struct dp_port_settings port[DPSCTP_CONFIG_MAX_PORTS];
	bool udp_encap;		 /* send over UDP (RFC 6951) to peers we connect to */
	uint16_t udp_port;	 /* our UDP port, and the peer's when we connect over UDP */
	uint32_t max_assocs;	 /* per worker */
	uint32_t max_handshakes; /* per worker */
	uint32_t active_assocs;	 /* per worker, at most max_assocs: 16 pool entries each */
	uint32_t multihomed;	 /* per worker, at most max_assocs: blocks of further paths */
	uint32_t rcvbuf, sndbuf; /* per association */
	uint16_t max_streams;
	uint32_t copy_max; /* payloads up to this many bytes are copied into the packet */
	/* Entries of each worker's neighbour table (--neighbours, 0 resolved). */
	uint32_t neighbours;
};

struct dpsctp {
	struct dpsctp_config cfg;
	struct dp_settings set;
	/* The ports, in --port order; ports[0] holds the mbuf pool every port uses. */
	unsigned n_ports;
	struct dpsctp_port ports[DPSCTP_CONFIG_MAX_PORTS];
	/*
	 * The routing table (dp_route.h), read-only once built. routed: packets
	 * look it up (several ports, or --route entries); else port 0's L3
	 * decides alone, as with one port and no routes it always did.
	 */
	struct dp_routes routes;
	bool routed;
	struct rte_mempool *indirect_pool; /* mbufs without data room, for zero-copy payloads */
	struct sctp_profile profile;	   /* the chosen profile, streams capped at --max-streams */
	struct sctp_cc_params cc;	   /* every worker's send side (max_burst: profile's) */
	struct dp_optvals optv;		   /* the instance's dp-side options (dp_opt.c) */
	struct dpsctp_vtag_scheme vtag;
	uint8_t cookie_key[SCTP_COOKIE_KEY_LEN];
	unsigned n_workers;
	unsigned n_listeners;	/* slots used so far: free ones (port 0) among them */
	unsigned max_listeners; /* --listeners */
	struct dp_listener *listeners;
	struct dp_worker *w[DP_MAX_WORKERS];
	unsigned lcore_of[DP_MAX_WORKERS]; /* EAL lcore running worker i, or RTE_MAX_LCORE */
	bool flow_hw;			   /* rte_flow steers our tags to their owners' queues */
	/* --init-queue: rx queue init_qid of every port takes the INITs (tag 0);
	 * worker (port % n_workers) reads it (dp_worker.c) */
	bool init_q;
	uint16_t init_qid;
	volatile bool running; /* dpsctp_start()ed loops keep going while true */
	bool started;
	uint32_t data_bytes; /* data_pool element size: DP_DATA_POOL_STREAMS both ways at most */
	uint64_t next_id;
	struct sctp_assoc_ops ops;
};

#endif /* DPSCTP_DATAPLANE_DP_TYPES_H */
