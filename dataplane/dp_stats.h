/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Statistics (dp_stats.c): a worker's counters as one flat list of named
 * values, for dpsctp_worker_counter() and /dpsctp/ telemetry.
 *
 * Includes: dp_types.h and dp_worker.h of the runtime (docs/ARCHITECTURE.md,
 * "The runtime's files").
 */
#ifndef DPSCTP_DATAPLANE_DP_STATS_H
#define DPSCTP_DATAPLANE_DP_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "dataplane/dp_types.h"

/* Counter i of a worker and its name (*name NULL and UINT64_MAX past the last). */
uint64_t dp_worker_counter(const struct dpsctp *d, unsigned worker, unsigned i, const char **name);

#endif /* DPSCTP_DATAPLANE_DP_STATS_H */
