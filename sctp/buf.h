/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Payload bytes without copies (docs/ARCHITECTURE.md decision 3): the core never owns
 * packet memory. A payload is a slice of a caller's buffer, named by an
 * opaque handle (an rte_mbuf in the data plane, a test's refcounted block in
 * the unit tests and the simulator) plus a pointer and a length into it.
 *
 * The pointer stays valid for as long as the handle is held. A slice seen
 * during an input call (the packet in hand) is held by the caller for that
 * call only; the core calls ops->hold() before keeping it past the call
 * (reassembly, out-of-order queues, the retransmission queue) and
 * ops->release() exactly once per hold when it lets go. A caller can thus
 * check, at any moment, that every handle the core holds is accounted for:
 * the tests do, after every simulated run.
 */
#ifndef SCTP_BUF_H
#define SCTP_BUF_H

#include <stdint.h>

struct sctp_slice {
	void *handle;	     /* caller's buffer; NULL for bytes the core does not hold */
	const uint8_t *data; /* first payload byte, inside the handle's buffer */
	uint32_t len;
};

struct sctp_buf_ops {
	/* One more reference to handle (rte_mbuf_refcnt_update(m, 1)). */
	void (*hold)(void *ctx, void *handle);
	/* Drop one reference (rte_pktmbuf_free(m) when it was the last). */
	void (*release)(void *ctx, void *handle);
	void *ctx;
};

#endif /* SCTP_BUF_H */
