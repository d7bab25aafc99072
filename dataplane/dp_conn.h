/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An association in the runtime (dp_conn.c): the core's callbacks on the
 * worker's mbufs and pools, its life (block, link, after every core call,
 * free), its place in the worker's tables and timer wheel, sends, and the
 * listeners' table.
 *
 * Includes: dp_types.h, dp_buf.h and dp_tx.h of the runtime: the core's
 * output callbacks are the transmit side's (docs/ARCHITECTURE.md, "The
 * runtime's files").
 */
#ifndef DPSCTP_DATAPLANE_DP_CONN_H
#define DPSCTP_DATAPLANE_DP_CONN_H

#include <stdbool.h>
#include <stdint.h>

#include "dataplane/dp_types.h"

extern const struct sctp_assoc_ops dp_conn_ops;
/* The listener on port and its slot; NULL when nobody listens there. */
struct dp_listener *dp_listener_find(struct dpsctp *d, uint16_t port, unsigned *slot);
/* A block from the worker's pool, not yet linked (any thread). */
struct dpsctp_assoc *dp_conn_block(struct dp_worker *w, const struct dpsctp_callbacks *cb,
				   void *arg);
/* The block into the worker's list and the core's init (on the worker). */
void dp_conn_link(struct dpsctp_assoc *c);
/* dp_conn_block() and dp_conn_link() (on the worker). */
struct dpsctp_assoc *dp_conn_alloc(struct dp_worker *w, const struct dpsctp_callbacks *cb,
				   void *arg);
/* After any core call: wheel, tables, neighbour pins, send space; frees a closed one. */
void dp_conn_after(struct dpsctp_assoc *c);
void dp_conn_free(struct dpsctp_assoc *c);
/* Into the worker's tables by (our tag, ports) and by (peer, ports): 0 or -ENOSPC. */
int dp_conn_index_tag(struct dpsctp_assoc *c);
int dp_conn_index_peer(struct dpsctp_assoc *c);
struct dpsctp_assoc *dp_conn_by_tag(struct dp_worker *w, uint32_t vtag, uint16_t lport,
				    uint16_t pport);
struct dpsctp_assoc *dp_conn_by_peer(struct dp_worker *w, const struct sctp_addr *peer,
				     uint16_t lport, uint16_t pport);
/* The timer wheel's callback (arg: the worker). */
void dp_conn_timer_cb(struct dpsctp_timer_wheel *wh, struct dpsctp_timer *t, void *arg);
/* The INIT to peers (local_port 0: one from the worker's slice of the dynamic range). */
int dp_conn_connect(struct dp_worker *w, struct dpsctp_assoc *c, const struct sctp_addr *peers,
		    unsigned n_peers, uint16_t local_port, uint16_t peer_port);
/* The application's message (the core's answer: 0 or a negative errno). */
int dp_conn_send(struct dpsctp_assoc *c, const struct dpsctp_sndinfo *si, struct rte_mbuf *m);
int dp_conn_send_small(struct dpsctp_assoc *c, const struct dpsctp_sndinfo *si, const void *buf,
		       uint32_t len);

#endif /* DPSCTP_DATAPLANE_DP_CONN_H */
