/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive side (dp_rx.c): one received frame through L3, CRC32c, the
 * owner's hand-off, the association tables and the core.
 *
 * Includes: dp_types.h, dp_conn.h and dp_tx.h of the runtime: what a frame
 * makes the stack send goes into the tx batch, never back up to the worker
 * loop (docs/ARCHITECTURE.md, "The runtime's files").
 */
#ifndef DPSCTP_DATAPLANE_DP_RX_H
#define DPSCTP_DATAPLANE_DP_RX_H

#include <stdbool.h>

#include "dataplane/dp_types.h"

/*
 * One frame (handed: from another worker's hand-off ring); m is consumed:
 * an SCTP frame is held for dp_rx_release_flush(), the rest freed here.
 */
void dp_rx_frame(struct dp_worker *w, struct rte_mbuf *m, bool handed);

/* Free the SCTP frames handled since the last call, in one bulk put (the
 * core took its own references to what it keeps). The worker calls it
 * after its receive bursts, before anything else of the poll. */
void dp_rx_release_flush(struct dp_worker *w);

/*
 * Frames the worker may read now from a queue for handshakes
 * (--init-queue), up to max: max while no association has traffic or
 * --busy-init-rate is 0, else what the rate's allowance holds (the same
 * allowance dp_rx_frame() sheds INITs against), which reading n of them
 * spends (dp_rx_init_spend()). What stays in the queue is the port's to
 * drop when it fills: costs this worker nothing.
 */
unsigned dp_rx_init_budget(const struct dp_worker *w, unsigned max);
void dp_rx_init_spend(struct dp_worker *w, unsigned n);

#endif /* DPSCTP_DATAPLANE_DP_RX_H */
