// SPDX-License-Identifier: BSD-3-Clause
// The per-lcore timer wheel (dataplane/timer_wheel.c) and the vtag owner
// decode (dataplane/vtag.c): what an lcore pays per timer operation and, per
// received packet, to find the owning lcore.
//   BM_ArmCancel/S      arm 1024 idle timers at deadlines spread over S us
//                       ahead (1 us ticks), then cancel them: cycles_per_arm,
//                       cycles_per_cancel (each batch timed as a whole).
//   BM_Rearm/S          move an armed timer to a new deadline within S us
//                       (the T3-rtx restart on every SACK): cycles_per_rearm.
//   BM_Fire/S           1024 timers over S us, then one advance() over all
//                       of them: cycles_per_fired, cascades included (S of
//                       200 passes level 0 only; 200000, the DC profile's
//                       200 ms, crosses levels 1 and 2).
//   BM_ArmCancelAmong/N the BM_ArmCancel batch (spread over 50 ms) into a
//                       wheel already holding N timers spread over 30 s (N
//                       idle associations' heartbeat timers): cycles_per_arm
//                       and cycles_per_cancel at 1 k, 100 k and 1 M timers.
//   BM_FireAmong/N      N timers spread over 1 s, advanced 100 us at a time
//                       for 20 ms: cycles_per_fired with N in the wheel.
//   BM_AdvanceIdle      advance() one tick at a time with nothing due (1000
//                       timers armed an hour ahead): cycles_per_advance.
//   BM_VtagOwner/mixed  dpsctp_vtag_owner() on a stream of tags, clear
//                       scheme (0) and keyed permutation (1): cycles_per_tag.
// TSC cycles, read around a whole batch (bench/tsc.h).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "tsc.h"

extern "C" {
#include "dataplane/timer_wheel.h"
#include "dataplane/vtag.h"
}

namespace {

constexpr unsigned kBatch = 1024;
constexpr uint64_t kTick = 1000; // 1 us

struct Bed {
	std::unique_ptr<struct dpsctp_timer_wheel> w{ new struct dpsctp_timer_wheel };
	std::vector<struct dpsctp_timer> t;
	std::vector<uint64_t> offsets;
	uint64_t now = (UINT64_C(1) << 40) / kTick * kTick; // 18 minutes in, on a tick

	Bed(unsigned n, uint64_t spread_us, uint64_t seed = 1) : t(n), offsets(n)
	{
		dpsctp_timer_wheel_init(w.get(), kTick, now);
		std::mt19937_64 rng(seed);
		for (unsigned i = 0; i < n; i++) {
			dpsctp_timer_init(&t[i]);
			offsets[i] = kTick + rng() % (spread_us * kTick);
		}
	}
};

void
count_cb(struct dpsctp_timer_wheel *, struct dpsctp_timer *, void *arg)
{
	++*static_cast<uint64_t *>(arg);
}

void
sizes(benchmark::State &state)
{
	state.counters["wheel_bytes"] = sizeof(struct dpsctp_timer_wheel);
	state.counters["timer_bytes"] = sizeof(struct dpsctp_timer);
}

// Arm the bed's batch at its offsets, then cancel it: the cycles of each half.
void
arm_cancel_batch(Bed &b, uint64_t &arm, uint64_t &cancel)
{
	uint64_t t0 = bench_tsc();
	for (unsigned i = 0; i < kBatch; i++)
		dpsctp_timer_arm(b.w.get(), &b.t[i], b.now + b.offsets[i]);
	uint64_t t1 = bench_tsc();
	for (unsigned i = 0; i < kBatch; i++)
		dpsctp_timer_cancel(b.w.get(), &b.t[i]);
	uint64_t t2 = bench_tsc();
	arm += t1 - t0;
	cancel += t2 - t1;
}

void
BM_ArmCancel(benchmark::State &state)
{
	Bed b(kBatch, (uint64_t)state.range(0));
	uint64_t arm = 0, cancel = 0, ops = 0;
	for (auto _ : state) {
		arm_cancel_batch(b, arm, cancel);
		ops += kBatch;
		b.now += kTick;
		dpsctp_timer_wheel_advance(b.w.get(), b.now, count_cb, &ops);
	}
	if (dpsctp_timer_wheel_count(b.w.get()) != 0)
		state.SkipWithError("timers left armed");
	state.counters["cycles_per_arm"] = (double)arm / (double)ops;
	state.counters["cycles_per_cancel"] = (double)cancel / (double)ops;
	state.counters["spread_us"] = (double)state.range(0);
	sizes(state);
	state.SetItemsProcessed((int64_t)ops);
}
BENCHMARK(BM_ArmCancel)->Arg(200)->Arg(200000)->Arg(60000000);

void
BM_Rearm(benchmark::State &state)
{
	Bed b(kBatch, (uint64_t)state.range(0));
	for (unsigned i = 0; i < kBatch; i++)
		dpsctp_timer_arm(b.w.get(), &b.t[i], b.now + b.offsets[i]);
	uint64_t ops = 0;
	unsigned i = 0;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		dpsctp_timer_arm(b.w.get(), &b.t[i], b.now + b.offsets[(i + 7) & (kBatch - 1)]);
		i = (i + 1) & (kBatch - 1);
		ops++;
	}
	uint64_t cycles = bench_tsc() - t0;
	if (dpsctp_timer_wheel_count(b.w.get()) != kBatch)
		state.SkipWithError("re-arm changed the count");
	state.counters["cycles_per_rearm"] = (double)cycles / (double)ops;
	state.counters["spread_us"] = (double)state.range(0);
	sizes(state);
	state.SetItemsProcessed((int64_t)ops);
}
BENCHMARK(BM_Rearm)->Arg(200)->Arg(200000);

void
BM_Fire(benchmark::State &state)
{
	const uint64_t spread = (uint64_t)state.range(0);
	Bed b(kBatch, spread);
	uint64_t fired = 0, cycles = 0;
	for (auto _ : state) {
		state.PauseTiming();
		for (unsigned i = 0; i < kBatch; i++)
			dpsctp_timer_arm(b.w.get(), &b.t[i], b.now + b.offsets[i]);
		state.ResumeTiming();
		b.now += (spread + 1) * kTick;
		uint64_t t0 = bench_tsc();
		dpsctp_timer_wheel_advance(b.w.get(), b.now, count_cb, &fired);
		cycles += bench_tsc() - t0;
	}
	if (fired != kBatch * (uint64_t)state.iterations())
		state.SkipWithError("not every timer fired");
	state.counters["cycles_per_fired"] = (double)cycles / (double)fired;
	state.counters["spread_us"] = (double)spread;
	sizes(state);
	state.SetItemsProcessed((int64_t)fired);
}
BENCHMARK(BM_Fire)->Arg(200)->Arg(200000);

// A wheel holding n timers spread over spread_us, plus room for a batch.
struct Crowd {
	Bed b;
	std::vector<struct dpsctp_timer> crowd;

	Crowd(unsigned n, uint64_t spread_us, uint64_t batch_spread_us)
	    : b(kBatch, batch_spread_us, 2), crowd(n)
	{
		std::mt19937_64 rng(3);
		for (unsigned i = 0; i < n; i++) {
			dpsctp_timer_init(&crowd[i]);
			dpsctp_timer_arm(b.w.get(), &crowd[i],
					 b.now + kTick + rng() % (spread_us * kTick));
		}
	}
};

void
BM_ArmCancelAmong(benchmark::State &state)
{
	const unsigned n = (unsigned)state.range(0);
	Crowd c(n, 30000000, 50000);
	Bed &b = c.b;
	uint64_t arm = 0, cancel = 0, ops = 0;
	for (auto _ : state) {
		arm_cancel_batch(b, arm, cancel);
		ops += kBatch;
	}
	if (dpsctp_timer_wheel_count(b.w.get()) != n)
		state.SkipWithError("the crowd changed");
	state.counters["cycles_per_arm"] = (double)arm / (double)ops;
	state.counters["cycles_per_cancel"] = (double)cancel / (double)ops;
	state.counters["timers_armed"] = (double)n;
	state.SetItemsProcessed((int64_t)ops);
}
BENCHMARK(BM_ArmCancelAmong)->Arg(1000)->Arg(100000)->Arg(1000000);

void
BM_FireAmong(benchmark::State &state)
{
	const unsigned n = (unsigned)state.range(0);
	uint64_t fired = 0, cycles = 0;
	for (auto _ : state) {
		state.PauseTiming();
		Crowd c(n, 1000000, 1);
		state.ResumeTiming();
		uint64_t now = c.b.now;
		for (unsigned step = 0; step < 200; step++) {
			now += 100 * kTick;
			uint64_t t0 = bench_tsc();
			dpsctp_timer_wheel_advance(c.b.w.get(), now, count_cb, &fired);
			cycles += bench_tsc() - t0;
		}
	}
	if (fired == 0)
		state.SkipWithError("nothing fired");
	state.counters["cycles_per_fired"] = (double)cycles / (double)fired;
	state.counters["timers_armed"] = (double)n;
	state.SetItemsProcessed((int64_t)fired);
}
BENCHMARK(BM_FireAmong)->Arg(1000)->Arg(100000)->Arg(1000000)->Iterations(3);

void
BM_AdvanceIdle(benchmark::State &state)
{
	Bed b(1000, 1000000);
	for (unsigned i = 0; i < 1000; i++)
		dpsctp_timer_arm(b.w.get(), &b.t[i],
				 b.now + UINT64_C(3600000000000) + b.offsets[i]); // an hour
	uint64_t fired = 0, n = 0;
	uint64_t now = b.now;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		now += kTick;
		benchmark::DoNotOptimize(
			dpsctp_timer_wheel_advance(b.w.get(), now, count_cb, &fired));
		n++;
	}
	uint64_t cycles = bench_tsc() - t0;
	if (fired != 0)
		state.SkipWithError("something fired");
	state.counters["cycles_per_advance"] = (double)cycles / (double)n;
	sizes(state);
	state.SetItemsProcessed((int64_t)n);
}
BENCHMARK(BM_AdvanceIdle);

void
BM_VtagOwner(benchmark::State &state)
{
	const bool mixed = state.range(0) != 0;
	uint8_t key[DPSCTP_VTAG_KEY_BYTES];
	std::mt19937 rng(3);
	for (auto &k : key)
		k = (uint8_t)rng();
	struct dpsctp_vtag_scheme s;
	dpsctp_vtag_scheme_init(&s, 6, 64, mixed ? key : nullptr);
	std::vector<uint32_t> tags(kBatch);
	for (unsigned i = 0; i < kBatch; i++)
		tags[i] = dpsctp_vtag_make(&s, i & 63u, rng());
	uint64_t n = 0;
	unsigned sum = 0;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		for (unsigned i = 0; i < kBatch; i++)
			sum += (unsigned)dpsctp_vtag_owner(&s, tags[i]);
		n += kBatch;
	}
	uint64_t cycles = bench_tsc() - t0;
	benchmark::DoNotOptimize(sum);
	state.counters["cycles_per_tag"] = (double)cycles / (double)n;
	state.counters["mixed"] = mixed;
	state.SetItemsProcessed((int64_t)n);
}
BENCHMARK(BM_VtagOwner)->Arg(0)->Arg(1);

} // namespace

BENCHMARK_MAIN();
