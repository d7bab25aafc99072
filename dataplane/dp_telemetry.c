/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPDK telemetry for the runtime (docs/COUNTERS.md): the instances a
 * process runs, registered at dpsctp_create() when --telemetry is on
 * (the default) and removed at dpsctp_destroy().
 */
#include <pthread.h>

#include "dataplane/dp.h"

#define DP_TELEMETRY_MAX 8u

static pthread_mutex_t dp_tel_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dpsctp *dp_tel_inst[DP_TELEMETRY_MAX];

void
dp_telemetry_add(struct dpsctp *d)
{
	pthread_mutex_lock(&dp_tel_lock);
	for (unsigned i = 0; i < DP_TELEMETRY_MAX; i++)
		if (dp_tel_inst[i] == NULL) {
			dp_tel_inst[i] = d;
			break;
		}
	pthread_mutex_unlock(&dp_tel_lock);
}

void
dp_telemetry_remove(struct dpsctp *d)
{
	pthread_mutex_lock(&dp_tel_lock);
	for (unsigned i = 0; i < DP_TELEMETRY_MAX; i++)
		if (dp_tel_inst[i] == d)
			dp_tel_inst[i] = NULL;
	pthread_mutex_unlock(&dp_tel_lock);
}
