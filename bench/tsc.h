// SPDX-License-Identifier: BSD-3-Clause
// Cycle counting for the micro-benchmarks: the TSC, read around a whole
// batch of iterations and divided, so the read's own cost (~25 cycles with
// the fences) is spread over the batch. The TSC ticks at the nominal clock,
// not the current one: with frequency scaling the figures are "reference
// cycles", which is what cycles-per-packet budgets are written in.
#ifndef BENCH_TSC_H
#define BENCH_TSC_H

#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t
bench_tsc(void)
{
	_mm_lfence();
	uint64_t t = __rdtsc();
	_mm_lfence();
	return t;
}
#else
#include <chrono>
static inline uint64_t
bench_tsc(void)
{
	return (uint64_t)std::chrono::steady_clock::now().time_since_epoch().count();
}
#endif

#endif
