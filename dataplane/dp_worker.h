/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A worker (dp_worker.c): its creation and teardown, its endpoints, and its
 * loop — the one caller of both the receive side (dp_rx.h) and the
 * transmit flush (dp_tx.h).
 *
 * Includes: dp_types.h, dp_buf.h, dp_conn.h, dp_req.h, dp_rx.h, dp_tx.h of
 * the runtime (docs/ARCHITECTURE.md, "The runtime's files").
 */
#ifndef DPSCTP_DATAPLANE_DP_WORKER_H
#define DPSCTP_DATAPLANE_DP_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/dp_types.h"

/* d->w[index], with every pool, table and ring: 0 or a negative errno. */
int dp_worker_create(struct dpsctp *d, unsigned index);
void dp_worker_destroy(struct dp_worker *w);
/* The endpoint of d->listeners[slot] on this worker, made or given back. */
int dp_worker_listen(struct dp_worker *w, unsigned slot);
void dp_worker_unlisten(struct dp_worker *w, unsigned slot);
/* The --impair and --impair-rx stages from the configuration (err: why not). */
int dp_worker_impair_setup(struct dp_worker *w, char *err, size_t errlen);
/* Every frame the two stages hold, freed. */
void dp_worker_impair_drain(struct dp_worker *w);
/* One iteration of the loop: the work it found (0: idle). */
unsigned dp_worker_poll(struct dp_worker *w);
/*
 * A harness's clock and randomness (fuzz targets, tests; not in dpsctp.h:
 * no application replaces them). Process-wide; set them before
 * dpsctp_create() and never while a worker runs.
 *
 * dp_worker_clock_set(): every worker's now (ns) is fn(ctx) from here on,
 * NULL: the TSC again. The clock must not go backwards.
 * dp_worker_seed_set(): a nonzero seed makes the instances made after it
 * draw their keys (cookie, tags) and the workers their random starts from
 * it, the same each run; 0: the TSC and getrandom() again.
 * dp_worker_seed_bytes(): len bytes derived from the seed and salt; false
 * (buf untouched) when no seed is set.
 */
typedef uint64_t (*dp_worker_clock_fn)(void *ctx);
void dp_worker_clock_set(dp_worker_clock_fn fn, void *ctx);
void dp_worker_seed_set(uint64_t seed);
bool dp_worker_seed_bytes(void *buf, size_t len, uint64_t salt);
/* The worker whose poll runs on this thread; NULL outside a poll. */
struct dp_worker *dp_worker_current(void);
void dp_worker_set_current(struct dp_worker *w);

#endif /* DPSCTP_DATAPLANE_DP_WORKER_H */
