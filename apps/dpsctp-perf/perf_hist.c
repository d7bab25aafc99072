/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The latency histogram: log-linear buckets (HdrHistogram's shape),
 * PERF_HIST_SUB linear buckets per power of two, so a quantile is exact to
 * within 1/32 (3.1 %) of its value at any scale from 1 ns to 78 hours, in a
 * fixed 12 KiB. Adding is a bit scan and an increment: cheap enough to
 * record every ping.
 */
#include "apps/dpsctp-perf/perf.h"

static unsigned
bucket(uint64_t v)
{
	if (v < PERF_HIST_SUB)
		return (unsigned)v; /* exponent 0: one bucket per value */
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned e = msb - 4u; /* values 2^(4+e) .. 2^(5+e)-1, in buckets of 2^(e-1) */
	if (e >= PERF_HIST_EXPS)
		return PERF_HIST_EXPS * PERF_HIST_SUB - 1u;
	unsigned sub = (unsigned)(v >> (msb - 5u)) & (PERF_HIST_SUB - 1u);
	return e * PERF_HIST_SUB + sub;
}

/* The largest value that falls into bucket i. */
static uint64_t
upper(unsigned i)
{
	unsigned e = i / PERF_HIST_SUB, sub = i % PERF_HIST_SUB;
	if (e == 0)
		return sub;
	unsigned msb = e + 4u;
	return (((uint64_t)(PERF_HIST_SUB | sub) + 1u) << (msb - 5u)) - 1u;
}

void
perf_hist_add(struct perf_hist *h, uint64_t v)
{
	h->b[bucket(v)]++;
	h->n++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

void
perf_hist_merge(struct perf_hist *into, const struct perf_hist *h)
{
	for (unsigned i = 0; i < PERF_HIST_EXPS * PERF_HIST_SUB; i++)
		into->b[i] += h->b[i];
	into->n += h->n;
	into->sum += h->sum;
	if (h->max > into->max)
		into->max = h->max;
}

uint64_t
perf_hist_quantile(const struct perf_hist *h, double q)
{
	if (h->n == 0)
		return 0;
	uint64_t rank = (uint64_t)(q * (double)h->n);
	if (rank >= h->n)
		rank = h->n - 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < PERF_HIST_EXPS * PERF_HIST_SUB; i++) {
		seen += h->b[i];
		if (seen > rank) {
			uint64_t u = upper(i);
			return u < h->max ? u : h->max;
		}
	}
	return h->max;
}
