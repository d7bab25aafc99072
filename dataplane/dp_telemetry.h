/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPDK telemetry for the runtime (dp_telemetry.c): the process's instances
 * for the /dpsctp/ commands.
 *
 * Includes: dp_types.h, dp_req.h and dp_stats.h of the runtime
 * (docs/ARCHITECTURE.md, "The runtime's files").
 */
#ifndef DPSCTP_DATAPLANE_DP_TELEMETRY_H
#define DPSCTP_DATAPLANE_DP_TELEMETRY_H

#include <stdbool.h>

#include "dataplane/dp_types.h"

/* rte_pdump_init() succeeded (hugepages: dpdk-dumpcap can attach); /dpsctp/stats says so. */
extern bool dp_pdump_on;

void dp_telemetry_add(struct dpsctp *d);
void dp_telemetry_remove(struct dpsctp *d);

#endif /* DPSCTP_DATAPLANE_DP_TELEMETRY_H */
