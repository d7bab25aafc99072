/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transmit side (dp_tx.c): the core's output callbacks (struct
 * sctp_assoc_ops send and send_data), the endpoint's and the L3 layer's
 * frames, the tx batch and its flush to the port.
 *
 * Includes: dp_types.h and dp_buf.h of the runtime. The transmit side calls
 * nothing above it: not the receive side, not the worker loop
 * (docs/ARCHITECTURE.md, "The runtime's files").
 */
#ifndef DPSCTP_DATAPLANE_DP_TX_H
#define DPSCTP_DATAPLANE_DP_TX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/dp_types.h"

/* A frame for port (its index in d->ports) into the batch (flushed first when full). */
void dp_tx_frame(struct dp_worker *w, unsigned port, struct rte_mbuf *m);
/* A whole L2 frame (an ARP/ND probe or an L3 reply) copied into an mbuf and batched. */
void dp_tx_raw(struct dp_worker *w, unsigned port, const uint8_t *frame, uint32_t len);
/* The batch to the ports; what one refuses after retries is dropped (tx_full). */
void dp_tx_flush(struct dp_worker *w);

/* Whether the loop has something to flush: a batch, or a frame the --impair stage holds due. */
static inline bool
dp_tx_due(const struct dp_worker *w)
{
	return w->n_tx != 0 || (w->impair_tx.on && impair_next_due(&w->impair_tx.st) <= w->now_ns);
}

/* An SCTP packet in bytes (an endpoint's answer) to dst, over UDP when udp_port != 0. */
void dp_tx_bytes(struct dp_worker *w, uint16_t udp_port, const uint8_t *bytes, size_t len,
		 const struct sctp_addr *src, const struct sctp_addr *dst);
/* The core's output (struct sctp_assoc_ops): ctx is the struct dpsctp_assoc. */
void dp_tx_send(void *ctx, const uint8_t *bytes, size_t len, const struct sctp_addr *src,
		const struct sctp_addr *dst);
void dp_tx_send_data(void *ctx, const uint8_t *head, size_t head_len,
		     const struct sctp_tx_seg *segs, unsigned n_segs, const struct sctp_addr *src,
		     const struct sctp_addr *dst);
/* The L3 layer gives back a packet it parked (struct dpsctp_l3_config release). */
void dp_tx_l3_release(void *ctx, uintptr_t handle);
/* Packets port's L3 layer parked, released now that their neighbour answered. */
void dp_tx_l3_released(struct dp_worker *w, unsigned port, const struct dpsctp_l3_tx *released,
		       unsigned n);

#endif /* DPSCTP_DATAPLANE_DP_TX_H */
