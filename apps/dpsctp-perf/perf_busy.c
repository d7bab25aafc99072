/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --busy: traffic on a random share of a large population of associations
 * (--handshakes N), the way a core network function sees its base
 * stations: most idle at any moment, a few per cent talking, a different
 * few each second.
 *
 * The client's lcore keeps --busy-share per cent of the associations (one
 * at least) in slots. A flow in a slot makes PERF_BUSY_ROUNDS round trips,
 * one at a time: a ping on its next stream (perf_flow_ping()), which the
 * server echoes; both ends check the header (per-stream order) and every
 * payload byte (perf_flow.c). Then the slot goes to another association
 * picked at random among those up and not in a slot, so over the window
 * the traffic visits associations in every part of the tables and pools,
 * cold ones included, and an association can come back for another turn.
 *
 * A slot whose association ended is emptied (the end event counted it
 * lost). Once the main lcore says STOP no new ping goes out; DONE when
 * every slot's last ping came back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "apps/dpsctp-perf/perf.h"

#define BUSY_EMPTY UINT32_MAX
/* Random draws for a slot in one step before it waits for the next step. */
#define BUSY_PICK_TRIES 8u

int
perf_busy_init(struct perf_busy *b, uint32_t n_assocs, double share_pct)
{
	memset(b, 0, sizeof(*b));
	double k = (double)n_assocs * share_pct / 100.0 + 0.5;
	b->n = k < 1.0 ? 1u : k > (double)n_assocs ? n_assocs : (uint32_t)k;
	b->slot = malloc(b->n * sizeof(*b->slot));
	b->left = calloc(b->n, sizeof(*b->left));
	if (b->slot == NULL || b->left == NULL) {
		perf_busy_fini(b);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < b->n; i++)
		b->slot[i] = BUSY_EMPTY;
	b->rng = rte_rdtsc() | 1u;
	return 0;
}

void
perf_busy_fini(struct perf_busy *b)
{
	free(b->slot);
	free(b->left);
	b->slot = NULL;
	b->left = NULL;
}

/* xorshift64: the picks need spread, not secrecy. */
static uint64_t
busy_rand(struct perf_busy *b)
{
	uint64_t x = b->rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	b->rng = x;
	return x;
}

/* An association up and in no slot, or BUSY_EMPTY after a few draws. */
static uint32_t
busy_pick(struct perf_busy *b, const struct perf_side *s)
{
	for (unsigned t = 0; t < BUSY_PICK_TRIES && s->n_flows != 0; t++) {
		uint32_t i = (uint32_t)(busy_rand(b) % s->n_flows);
		const struct perf_flow *f = &s->flows[i];
		if (f->up && !f->ended && !f->busy)
			return i;
	}
	return BUSY_EMPTY;
}

void
perf_busy_step(struct perf_busy *b, struct perf_side *s)
{
	int state = __atomic_load_n(&b->state, __ATOMIC_ACQUIRE);
	if (state != PERF_BUSY_ON && state != PERF_BUSY_STOP)
		return;
	bool outstanding = false;
	for (uint32_t i = 0; i < b->n; i++) {
		struct perf_flow *f = b->slot[i] != BUSY_EMPTY ? &s->flows[b->slot[i]] : NULL;
		if (f != NULL && (f->ended || !f->up)) {
			f->busy = false; /* lost: its end event counted it */
			b->slot[i] = BUSY_EMPTY;
			f = NULL;
		}
		if (f != NULL && f->ping_outstanding) {
			outstanding = true;
			continue;
		}
		if (state == PERF_BUSY_STOP)
			continue;
		if (f != NULL && b->left[i] == 0) {
			f->busy = false;
			b->slot[i] = BUSY_EMPTY;
			f = NULL;
		}
		if (f == NULL) {
			uint32_t pick = busy_pick(b, s);
			if (pick == BUSY_EMPTY)
				continue;
			f = &s->flows[pick];
			if (f->seq_out == NULL)
				b->touched++; /* its sequence numbers come with its first ping */
			f->busy = true;
			b->slot[i] = pick;
			b->left[i] = PERF_BUSY_ROUNDS;
			b->turns++;
		}
		if (perf_flow_ping(f) == 0)
			b->left[i]--;
		outstanding |= f->ping_outstanding;
	}
	if (state == PERF_BUSY_STOP && !outstanding)
		__atomic_store_n(&b->state, PERF_BUSY_DONE, __ATOMIC_RELEASE);
}
