/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where a worker's cycles go, stage by stage (--stage-cycles on): the TSC
 * read at each stage boundary of dp_worker_poll() and of the paths it
 * calls, the elapsed cycles added to the stage that was running. Stages
 * nest (the core's input calls delivery and the transmit build through its
 * callbacks): entering one pauses the one it interrupts, so every cycle of
 * a poll lands in exactly one stage, and the stages add up to the poll.
 * What is not inside a named stage is DP_STAGE_OTHER (the loop itself, the
 * L3 tick, mbuf frees between stages). Only polls are measured: an API
 * call made between polls (a send that builds packets on the caller's
 * thread) is the caller's time, not a stage's (stage_live is off then).
 *
 * Off (the default), each boundary is one predictable branch on a flag the
 * worker already has in cache. On, each costs a TSC read (about 25 cycles
 * on current x86; dpsctp_worker_stage() reports the boundaries counted, so
 * a reader can subtract what the reads themselves took: dpsctp-perf
 * --stages does, from a calibration loop).
 *
 * Includes: dp_types.h. Used by dp_worker.c, dp_rx.c, dp_tx.c, dp_conn.c.
 */
#ifndef DPSCTP_DATAPLANE_DP_STAGE_H
#define DPSCTP_DATAPLANE_DP_STAGE_H

#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>

#include "dataplane/dp_types.h"

/* Start of a poll: the clock starts, DP_STAGE_OTHER running. */
static inline void
dp_stage_begin(struct dp_worker *w)
{
	if (unlikely(w->stages_on)) {
		memcpy(w->stage_mark, w->stage, sizeof(w->stage_mark));
		w->stage_t0 = rte_rdtsc();
		w->stage_cur = DP_STAGE_OTHER;
		w->stage_live = true;
	}
}

/*
 * End of a poll: what ran last is added up. A poll that did no work
 * (work 0) is moved whole to DP_STAGE_IDLE, so that the other stages are
 * the cost of the work done, whatever the load.
 */
static inline void
dp_stage_end(struct dp_worker *w, unsigned work)
{
	if (likely(!w->stage_live))
		return;
	w->stage[w->stage_cur].cycles += rte_rdtsc() - w->stage_t0;
	w->stage_live = false;
	if (work != 0)
		return;
	uint64_t idle = 0;
	for (unsigned s = 0; s < DP_STAGE_COUNT; s++) {
		if (s == DP_STAGE_IDLE)
			continue;
		idle += w->stage[s].cycles - w->stage_mark[s].cycles;
		w->stage[s] = w->stage_mark[s];
	}
	w->stage[DP_STAGE_IDLE].cycles += idle;
	w->stage[DP_STAGE_IDLE].events++;
}

/* Enter stage s; returns the stage to give back to dp_stage_leave(). */
static inline unsigned
dp_stage_enter(struct dp_worker *w, unsigned s)
{
	if (likely(!w->stage_live))
		return 0;
	uint64_t now = rte_rdtsc();
	unsigned prev = w->stage_cur;
	w->stage[prev].cycles += now - w->stage_t0;
	w->stage_t0 = now;
	w->stage_cur = (uint8_t)s;
	w->stage[s].events++;
	return prev;
}

/* Leave the stage entered last; prev runs again. */
static inline void
dp_stage_leave(struct dp_worker *w, unsigned prev)
{
	if (likely(!w->stage_live))
		return;
	uint64_t now = rte_rdtsc();
	w->stage[w->stage_cur].cycles += now - w->stage_t0;
	w->stage_t0 = now;
	w->stage_cur = (uint8_t)prev;
}

#endif /* DPSCTP_DATAPLANE_DP_STAGE_H */
