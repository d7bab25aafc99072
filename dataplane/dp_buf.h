/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Payload buffers (sctp/buf.h) on mbufs: a handle is an rte_mbuf segment;
 * hold() adds a reference, release() drops one with rte_pktmbuf_free_seg()
 * (segments are referenced one by one, so a chain is never freed as a whole
 * here). A message sent as a chain is flattened once into an external
 * buffer (dp_conn_send()), which the transmit side recognizes to attach its
 * fragments by address (dp_tx.c).
 *
 * Includes: nothing of the runtime (docs/ARCHITECTURE.md, "The runtime's
 * files").
 */
#ifndef DPSCTP_DATAPLANE_DP_BUF_H
#define DPSCTP_DATAPLANE_DP_BUF_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

/* struct sctp_buf_ops hold and release (ctx unused). */
void dp_buf_hold(void *ctx, void *handle);
void dp_buf_release(void *ctx, void *handle);
/*
 * The chain m copied into one rte_malloc'd external buffer on socket,
 * attached to an mbuf of pool, which is returned (NULL: no memory); *data is
 * the copy's first byte.
 */
struct rte_mbuf *dp_buf_flatten(struct rte_mempool *pool, int socket, const struct rte_mbuf *m,
				uint8_t **data);
/* m holds a chain dp_buf_flatten() made: longer than 16-bit offsets reach. */
bool dp_buf_is_flat(const struct rte_mbuf *m);

#endif /* DPSCTP_DATAPLANE_DP_BUF_H */
