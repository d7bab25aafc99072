/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The request ring (dp_req.c): API calls made on a thread that does not own
 * the worker become requests — a block from the worker's multi-producer
 * pool, posted on its MP/SC ring — which the worker loop runs at its next
 * iteration (docs/LCORE.md, "Threading rules").
 *
 * Includes: dp_types.h and dp_conn.h of the runtime (docs/ARCHITECTURE.md,
 * "The runtime's files").
 */
#ifndef DPSCTP_DATAPLANE_DP_REQ_H
#define DPSCTP_DATAPLANE_DP_REQ_H

#include <stdint.h>

#include "dataplane/dp_types.h"

enum dp_req_kind {
	DP_REQ_CONNECT,
	DP_REQ_SEND,
	DP_REQ_SHUTDOWN,
	DP_REQ_ABORT,
	DP_REQ_CONSUMED,
	DP_REQ_FLUSH,
	DP_REQ_SCHED,	     /* bytes: the scheduler (dpsctp_set_sched()) */
	DP_REQ_STREAM_PARAM, /* si.sid, bytes: the value (dpsctp_set_stream_param()) */
	DP_REQ_CALL,	     /* run fn(arg) on the worker */
	/* RFC 6525 (dpsctp_reset_streams(), _add_streams(), _reset_assoc()) */
	DP_REQ_RESET_STREAMS, /* bytes: the flags; n_sids, sids */
	DP_REQ_ADD_STREAMS,   /* local_port: outbound streams to add, peer_port: inbound */
	DP_REQ_RESET_ASSOC,
	DP_REQ_SETOPT, /* bytes: the option (dpsctp_assoc_setopt()); opt: its value */
};

struct dp_req {
	uint8_t kind;
	struct dpsctp_assoc *assoc;
	struct rte_mbuf *m;
	struct dpsctp_sndinfo si;
	uint32_t bytes;
	void (*fn)(struct dpsctp *d, unsigned worker, void *arg);
	void *arg;
	/* DP_REQ_CONNECT (DP_REQ_ADD_STREAMS: the two counts in the ports) */
	uint16_t n_peers;
	uint16_t local_port, peer_port;
	uint16_t n_sids; /* DP_REQ_RESET_STREAMS */
	/* DP_REQ_CONNECT: an INITMSG with it (dpsctp_connect_opts()) */
	bool has_init;
	/* DP_REQ_SETOPT: the value; DP_REQ_CONNECT with has_init: the INITMSG
	 * (aligned: the worker reads it in place as its struct) */
	_Alignas(8) uint8_t opt[64];
	union {
		struct sctp_addr peers[SCTP_MAX_PATHS]; /* DP_REQ_CONNECT */
		uint16_t sids[SCTP_RECONF_MAX_STREAMS]; /* DP_REQ_RESET_STREAMS */
	};
};

/* The worker's request pool and ring (w->req_pool, w->requests): 0 or -ENOMEM. */
int dp_req_create(struct dp_worker *w, int socket);
void dp_req_destroy(struct dp_worker *w);
/* A zeroed request of kind on c; NULL when the pool is empty (requests_full). */
struct dp_req *dp_req_new(struct dp_worker *w, enum dp_req_kind kind, struct dpsctp_assoc *c);
/* A request taken and not posted, back to the pool. */
void dp_req_free(struct dp_worker *w, struct dp_req *r);
/* r onto the ring: 0, or -EAGAIN when it is full (r freed, requests_full). */
int dp_req_post(struct dp_worker *w, struct dp_req *r);
/* fn(d, worker, arg) at the worker's next iteration: 0, -ENOMEM (pool empty) or
 * -ENOBUFS (ring full); uncounted, the caller decides whether to retry. */
int dp_req_call(struct dp_worker *w, void (*fn)(struct dpsctp *, unsigned, void *), void *arg);
/* On the worker: the requests posted so far, up to DP_BURST; how many ran. */
unsigned dp_req_run_pending(struct dp_worker *w);
/* The requests never run (stop): their mbufs freed, blocks back to the pool. */
void dp_req_drain(struct dp_worker *w);

#endif /* DPSCTP_DATAPLANE_DP_REQ_H */
