/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The runtime's private structures (docs/LCORE.md): an instance (struct
 * dpsctp) owns one port and N workers; a worker owns one rx/tx queue pair
 * of that port and everything a packet of its associations touches — L3
 * state, endpoints, association tables, pools, timer wheel, tx batch,
 * counters. A worker runs on one thread at a time (an EAL lcore launched by
 * dpsctp_start(), or the caller's thread in dpsctp_poll()); nothing here
 * takes a lock. Other threads reach a worker through its two MP/SC rings:
 * `handoff` (packets another worker received for it, by tag) and
 * `requests` (API calls made off the owning thread).
 *
 * Files: dp_api.c (instance life, public calls), dp_worker.c (the loop),
 * dp_rx.c (a received frame: L3, CRC, demux, core), dp_tx.c (core packets
 * onto mbufs), dp_conn.c (an association's ops and life), dp_stats.c
 * (counter names and the statistics calls), dp_telemetry.c (/dpsctp/
 * telemetry commands).
 */
#ifndef DPSCTP_DATAPLANE_DP_H
#define DPSCTP_DATAPLANE_DP_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_hash.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "dataplane/config.h"
#include "dataplane/dpsctp.h"
#include "dataplane/timer_wheel.h"
#include "dataplane/vtag.h"
#include "drivers/impair/impair.h"
#include "drivers/net/l3.h"
#include "drivers/port/port.h"
#include "sctp/assoc.h"
#include "sctp/endpoint.h"

#define DP_MAX_WORKERS	   16u
#define DP_BURST	   32u	/* rx burst */
#define DP_TX_MAX	   256u /* packets a worker batches before tx_burst */
#define DP_MSG_SEGS	   64u	/* slices handed to one receive callback */
#define DP_HS_PER_WORKER   64u	/* handshake scratch blocks (client side) */
#define DP_PATHS_PER_BLOCK 7u	/* further peer addresses per association */
#define DP_FULL_WINDOWS	   64u	/* associations whose full windows the pools hold at once */

/* A worker's counters (names in dp_stats.c, same order). */
#define DP_WORKER_COUNTERS(X)                                                                      \
	X(rx_packets, "frames received from the queue")                                            \
	X(rx_on_owner,                                                                             \
	  "SCTP packets that arrived on their owner's queue (hardware-steered when flow_hw)")      \
	X(rx_handoff_in, "frames another worker handed to this one (tag names us)")                \
	X(rx_handoff_out, "frames handed to the worker the tag names")                             \
	X(rx_handoff_full, "hand-off ring full: frame dropped")                                    \
	X(rx_linearized, "multi-segment frames copied into one mbuf to be parsed")                 \
	X(rx_no_mbuf, "no mbuf to linearize a multi-segment frame: dropped")                       \
	X(rx_sctp, "SCTP packets reaching the demultiplexer")                                      \
	X(rx_crc_offload, "SCTP CRC32c checked by the NIC")                                        \
	X(rx_crc_software, "SCTP CRC32c checked in software")                                      \
	X(drop_bad_crc, "SCTP packet with a wrong CRC32c (RFC 9260 §6.8): dropped")                \
	X(drop_malformed, "SCTP packet the chunk walker refused: dropped")                         \
	X(drop_tag_no_owner, "tag names no running worker (forged or corrupt): dropped")           \
	X(drop_no_conn_memory,                                                                     \
	  "no association block left (--max-assocs): INIT ACK'd cookie dropped")                   \
	X(drop_table_full, "association table full: cookie dropped")                               \
	X(cookie_unlistened,                                                                       \
	  "cookie for a port that stopped listening since its INIT ACK: aborted")                  \
	X(icmp_errors,                                                                             \
	  "ICMP errors quoting our SCTP packets, handed to the association (appendix C)")          \
	X(icmp_no_assoc, "ICMP errors quoting a packet of no association on this worker: dropped") \
	X(ootb, "packets for no association, answered or dropped by the endpoint (§8.4)")          \
	X(tx_packets, "frames handed to the port")                                                 \
	X(tx_full, "frames the port did not take after retries: dropped (the core retransmits)")   \
	X(tx_no_mbuf, "no mbuf to build a packet: dropped (the core retransmits)")                 \
	X(tx_l3_drop, "no route or neighbour for a packet: dropped (l3 counters say why)")         \
	X(tx_too_big, "frames longer than the port's MTU: dropped, as a NIC or veth would")        \
	X(tx_payload_copied, "payload bytes copied into a bundle (below the copy threshold)")      \
	X(tx_payload_zero_copy, "payload bytes sent by reference (indirect mbufs)")                \
	X(send_copied, "messages copied at send: mbuf chains and byte sends (one copy)")           \
	X(send_packed, "small byte sends packed into a shared mbuf (one copy, no mbuf each)")      \
	X(tx_crc_offload, "SCTP CRC32c left to the NIC")                                           \
	X(tx_crc_software, "SCTP CRC32c computed in software")                                     \
	X(assocs_created, "associations created (from a cookie or by connect)")                    \
	X(assocs_freed, "associations freed")                                                      \
	X(msgs_delivered, "messages (or partial deliveries) handed to receive callbacks")          \
	X(bytes_delivered, "payload bytes handed to receive callbacks")                            \
	X(msgs_sent, "messages accepted by send")                                                  \
	X(bytes_sent, "payload bytes accepted by send")                                            \
	X(send_refused, "sends refused (no room, closed, bad stream)")                             \
	X(requests, "API requests executed from other threads")                                    \
	X(requests_full, "API requests refused: the worker's request ring was full")               \
	X(timers_fired, "association timer wheel expiries")                                        \
	X(impair_dropped, "frames the impairment stage dropped (--impair: loss, limit, rate)")     \
	X(impair_duplicated, "frames the impairment stage duplicated (--impair dup)")              \
	X(impair_rx_dropped,                                                                       \
	  "received frames the rx impairment stage dropped (--impair-rx: loss, limit, rate)")      \
	X(impair_rx_duplicated,                                                                    \
	  "received frames the rx impairment stage duplicated (--impair-rx dup)")                  \
	X(polls, "loop iterations")                                                                \
	X(idle_polls, "loop iterations that found nothing to do")

struct dp_worker_counters {
#define DP_CTR_FIELD(name, why) uint64_t name;
	DP_WORKER_COUNTERS(DP_CTR_FIELD)
#undef DP_CTR_FIELD
};

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
	uint16_t udp_port; /* the peer's RFC 6951 port; 0 for SCTP over IP */
	uint64_t id;	   /* stable identifier for statistics and telemetry */
	const struct dpsctp_callbacks *cb;
	void *arg;
	const dpsctp_recv_cb *stream_recv; /* per-stream handlers: NULL or n_stream_cb */
	void *const *stream_args;
	uint16_t n_stream_cb;
	uint32_t space_threshold;
	struct dpsctp_assoc_stats st;
	struct sctp_assoc_counters ctr;
	/*
	 * Peer addresses whose next hops this association pinned in its
	 * worker's neighbour table (dpsctp_l3_pin(), dp_conn_after()): paths
	 * [0, nbr_paths) were looked at, nbr_pins[0, n_nbr_pins) pinned; all
	 * unpinned when the block is freed (paths only grow, and a closed
	 * association keeps only path 0, so the addresses are kept here).
	 */
	uint8_t nbr_paths, n_nbr_pins;
	struct sctp_addr nbr_pins[SCTP_MAX_PATHS];
	/* The last neighbour confirmation (dp_rx.c): its path and time. */
	uint8_t nbr_confirmed_path;
	uint64_t nbr_confirmed_ns;
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

/* Requests from threads that do not own the worker (dp_api.c). */
enum dp_req_kind {
	DP_REQ_CONNECT,
	DP_REQ_SEND,
	DP_REQ_SHUTDOWN,
	DP_REQ_ABORT,
	DP_REQ_CONSUMED,
	DP_REQ_FLUSH,
	DP_REQ_CALL, /* run fn(arg) on the worker */
};

struct dp_req {
	uint8_t kind;
	struct dpsctp_assoc *assoc;
	struct rte_mbuf *m;
	struct dpsctp_sndinfo si;
	uint32_t bytes;
	void (*fn)(struct dpsctp *d, unsigned worker, void *arg);
	void *arg;
	/* DP_REQ_CONNECT */
	uint16_t n_peers;
	uint16_t local_port, peer_port;
	struct sctp_addr peers[SCTP_MAX_PATHS];
};

/*
 * One seeded impairment stage of a worker (drivers/impair, docs/IMPAIR.md):
 * on transmit (--impair) or on receive (--impair-rx). ops.ctx is the stage.
 */
struct dp_impair {
	struct impair st;
	struct impair_ops ops;
	struct dp_worker *w;
	uint64_t *duplicated; /* the worker counter a copy adds to */
	void *mem;	      /* the stage's storage (rte_zmalloc) */
	bool on;
	bool corrupts; /* frames are copied before the stage may flip a bit */
};

struct dp_worker {
	struct dpsctp *d;
	unsigned index; /* queue id and the owner index in our tags */
	uint64_t now_ns;
	struct dpsctp_l3 l3;
	void *l3_mem; /* its neighbour table (--neighbours entries), rte_malloc'd */
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
	struct rte_mempool *conn_pool;	/* struct dpsctp_assoc */
	struct rte_mempool *hs_pool;	/* struct sctp_assoc_handshake */
	struct rte_mempool *paths_pool; /* DP_PATHS_PER_BLOCK struct sctp_path */
	struct rte_mempool *data_pool;	/* ops->data_get() blocks */
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
	unsigned n_tx;
	struct rte_mbuf *tx[DP_TX_MAX];
	struct dp_impair impair_tx; /* --impair: between the tx batch and the port */
	struct dp_impair impair_rx; /* --impair-rx: between the rx burst and dp_rx_frame() */
	struct dp_worker_counters ctr;
	/* Associations' named discards (sctp/assoc_drop.def), summed as they close. */
	uint64_t assoc_drops_closed[SCTP_ASSOC_DROP_COUNT];
	struct dpsctp_seg segs[DP_MSG_SEGS];
};

/* What the runtime takes from the configuration, resolved (dp_api.c). */
struct dp_settings {
	struct sctp_addr addrs[DPSCTP_L3_ADDR_MAX];
	uint8_t prefix[DPSCTP_L3_ADDR_MAX];
	unsigned n_addrs;
	struct sctp_addr gw4, gw6;
	bool udp_encap;		 /* send over UDP (RFC 6951) to peers we connect to */
	uint16_t udp_port;	 /* our UDP port, and the peer's when we connect over UDP */
	uint32_t max_assocs;	 /* per worker */
	uint32_t max_handshakes; /* per worker */
	uint32_t rcvbuf, sndbuf; /* per association */
	uint16_t max_streams;
	uint32_t copy_max; /* payloads up to this many bytes are copied into the packet */
	/* Entries of each worker's neighbour table (--neighbours, 0 resolved). */
	uint32_t neighbours;
};

struct dpsctp {
	struct dpsctp_config cfg;
	struct dp_settings set;
	struct dpsctp_port port;
	struct rte_mempool *indirect_pool; /* mbufs without data room, for zero-copy payloads */
	struct sctp_profile profile;	   /* the chosen profile, streams capped at --max-streams */
	struct dpsctp_vtag_scheme vtag;
	uint8_t cookie_key[SCTP_COOKIE_KEY_LEN];
	unsigned n_workers;
	unsigned n_listeners;	/* slots used so far: free ones (port 0) among them */
	unsigned max_listeners; /* --listeners */
	struct dp_listener *listeners;
	struct dp_worker *w[DP_MAX_WORKERS];
	unsigned lcore_of[DP_MAX_WORKERS]; /* EAL lcore running worker i, or RTE_MAX_LCORE */
	bool flow_hw;			   /* rte_flow steers our tags to their owners' queues */
	volatile bool running;		   /* dpsctp_start()ed loops keep going while true */
	bool started;
	uint32_t data_bytes; /* data_pool element size */
	uint64_t next_id;
	struct sctp_assoc_ops ops;
};

/* dp_worker.c */
int dp_worker_create(struct dpsctp *d, unsigned index);
int dp_worker_listen(struct dp_worker *w, unsigned slot);
void dp_worker_unlisten(struct dp_worker *w, unsigned slot);
void dp_worker_destroy(struct dp_worker *w);
unsigned dp_worker_poll(struct dp_worker *w);
struct dp_worker *dp_worker_current(void);
void dp_worker_set_current(struct dp_worker *w);
void dp_worker_flush_tx(struct dp_worker *w);
int dp_worker_impair_setup(struct dp_worker *w, char *err, size_t errlen);
void dp_worker_impair_drain(struct dp_worker *w);
void dp_worker_run_request(struct dp_worker *w, struct dp_req *r);

/* dp_rx.c */
void dp_rx_frame(struct dp_worker *w, struct rte_mbuf *m, bool handed);

/* dp_tx.c */
void dp_tx_bytes(struct dp_worker *w, uint16_t udp_port, const uint8_t *bytes, size_t len,
		 const struct sctp_addr *src, const struct sctp_addr *dst);
void dp_tx_frame(struct dp_worker *w, struct rte_mbuf *m);
void dp_tx_l3_release(void *ctx, uintptr_t handle);
void dp_tx_send_data(void *ctx, const uint8_t *head, size_t head_len,
		     const struct sctp_tx_seg *segs, unsigned n_segs, const struct sctp_addr *src,
		     const struct sctp_addr *dst);
void dp_tx_send(void *ctx, const uint8_t *bytes, size_t len, const struct sctp_addr *src,
		const struct sctp_addr *dst);
void dp_tx_l3_released(struct dp_worker *w, const struct dpsctp_l3_tx *released, unsigned n);

/* dp_conn.c */
extern const struct sctp_assoc_ops dp_conn_ops;
/* The listener on port and its slot; NULL when nobody listens there. */
struct dp_listener *dp_listener_find(struct dpsctp *d, uint16_t port, unsigned *slot);
struct dpsctp_assoc *dp_conn_alloc(struct dp_worker *w, const struct dpsctp_callbacks *cb,
				   void *arg);
struct dpsctp_assoc *dp_conn_block(struct dp_worker *w, const struct dpsctp_callbacks *cb,
				   void *arg); /* any thread */
void dp_conn_link(struct dpsctp_assoc *c);     /* on the worker */
void dp_conn_after(struct dpsctp_assoc *c);    /* after any core call: wheel, tables, free */
void dp_conn_free(struct dpsctp_assoc *c);
int dp_conn_index_tag(struct dpsctp_assoc *c);
int dp_conn_index_peer(struct dpsctp_assoc *c);
struct dpsctp_assoc *dp_conn_by_tag(struct dp_worker *w, uint32_t vtag, uint16_t lport,
				    uint16_t pport);
struct dpsctp_assoc *dp_conn_by_peer(struct dp_worker *w, const struct sctp_addr *peer,
				     uint16_t lport, uint16_t pport);
void dp_conn_timer_cb(struct dpsctp_timer_wheel *wh, struct dpsctp_timer *t, void *arg);
int dp_conn_connect(struct dp_worker *w, struct dpsctp_assoc *c, const struct dp_req *r);
int dp_conn_send(struct dpsctp_assoc *c, const struct dpsctp_sndinfo *si, struct rte_mbuf *m);
int dp_conn_send_small(struct dpsctp_assoc *c, const struct dpsctp_sndinfo *si, const void *buf,
		       uint32_t len);
void dp_buf_hold(void *ctx, void *handle);
void dp_buf_release(void *ctx, void *handle);
/* m holds a chain flattened by dp_conn_send(): longer than 16-bit offsets reach. */
bool dp_conn_flat_buf(const struct rte_mbuf *m);

/* dp_api.c: rte_pdump_init() succeeded (hugepages: dpdk-dumpcap can attach). */
extern bool dp_pdump_on;

/* dp_stats.c: counter i of a worker; live: also walk its associations (owner only). */
uint64_t dp_worker_counter(const struct dpsctp *d, unsigned worker, unsigned i, const char **name,
			   bool live);

/* dp_telemetry.c: the process's instances for the /dpsctp/ commands. */
void dp_telemetry_add(struct dpsctp *d);
void dp_telemetry_remove(struct dpsctp *d);

#endif /* DPSCTP_DATAPLANE_DP_H */
