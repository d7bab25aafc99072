/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A worker's seeded impairment stages on mbufs (drivers/impair,
 * docs/IMPAIR.md): one on transmit (--impair, between the tx batch and the
 * port, run by dp_tx.c) and one on receive (--impair-rx, between the rx
 * burst and dp_rx_frame(), run by the worker loop).
 *
 * Includes: nothing of the runtime; a stage knows its pools and counters,
 * not its worker (docs/ARCHITECTURE.md, "The runtime's files").
 */
#ifndef DPSCTP_DATAPLANE_DP_IMPAIR_H
#define DPSCTP_DATAPLANE_DP_IMPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "drivers/impair/impair.h"

/* Frames one dp_impair_pop() hands back at most. */
#define DP_IMPAIR_POP_MAX 256u

/* One stage. ops.ctx is the stage. */
struct dp_impair {
	struct impair st;
	struct impair_ops ops;
	struct rte_mempool *clone_pool; /* duplicates: clones sharing the data */
	struct rte_mempool *copy_pool;	/* private copies a bit flip may touch */
	uint64_t *duplicated;		/* the worker counter a copy adds to */
	void *mem;			/* the stage's storage (rte_zmalloc) */
	bool on;
	bool corrupts; /* frames are copied before the stage may flip a bit */
};

/*
 * The stage from its spec (impair_parse()); an empty or all-zero spec leaves
 * it off. Its seed is (the spec's seed + stream) ^ salt, so runs repeat and
 * workers and directions draw differently. 0, -EINVAL (a sentence in err) or
 * -ENOMEM.
 */
int dp_impair_init(struct dp_impair *s, const char *spec, uint64_t stream, uint64_t salt,
		   uint64_t *duplicated, struct rte_mempool *clone_pool,
		   struct rte_mempool *copy_pool, char *err, size_t errlen);
/* Frames into the stage: those it drops are freed and counted in *dropped, a
 * frame with no mbuf for its private copy in *no_mbuf. */
void dp_impair_push(struct dp_impair *s, struct rte_mbuf **m, unsigned n, uint64_t now_ns,
		    uint64_t *dropped, uint64_t *no_mbuf);
/* Up to max (at most DP_IMPAIR_POP_MAX) frames due at now_ns. */
unsigned dp_impair_pop(struct dp_impair *s, uint64_t now_ns, struct rte_mbuf **out, unsigned max);
/* Every frame the stage holds, freed (stop and teardown). */
void dp_impair_drain(struct dp_impair *s);
/* dp_impair_drain() and the stage's storage given back. */
void dp_impair_fini(struct dp_impair *s);

#endif /* DPSCTP_DATAPLANE_DP_IMPAIR_H */
