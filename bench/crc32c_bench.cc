// SPDX-License-Identifier: BSD-3-Clause
// CRC32c engines (drivers/crc32c): cost per call and bytes per cycle.
//
//   bench_crc32c --benchmark_format=json
//
// Each call's CRC is fed into the next, so a call cannot start before the
// previous one ends: the figure is the latency a packet sees, not the
// throughput of overlapped independent sums. Cycles are TSC ticks read with
// rdtsc around the whole batch of iterations and divided by their number
// (the TSC runs at a constant rate; "tsc_hz" in the context says which).
//
// Families:
//   engine/<table|sse42|isal|policy>/<bytes>  the issue-2 sizes 64..9000
//   crossover/<sse42|isal|policy>/<bytes>     16..512 in steps of 8: where
//                                             ISA-L overtakes the inline loop
//                                             (sets CRC32C_ISAL_MIN_LEN and
//                                             CRC32C_ISAL_BLOCK)
//   copy/<fused|memcpy_then_crc>/<bytes>      crc32c_copy_update vs. the
//                                             two-pass equivalent
//   sctp_verify/<bytes>                       crc32c_sctp_verify of a valid
//                                             packet
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "drivers/crc32c/crc32c.h"

namespace {

using crc_fn = uint32_t (*)(uint32_t, const void *, size_t);
using avail_fn = bool (*)();

const int64_t kSizes[] = { 64, 128, 256, 512, 1500, 9000 };

inline uint64_t
ticks()
{
#if defined(__x86_64__)
	return __rdtsc();
#else
	return static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

bool
always()
{
	return true;
}

// 64-byte aligned, random content: the engines' speed does not depend on the
// data, but a constant buffer would invite the reader to wonder.
struct Buffer {
	std::vector<uint8_t> storage;
	uint8_t *p;
	explicit Buffer(size_t n) : storage(n + 64)
	{
		std::mt19937 rng(42);
		for (auto &b : storage)
			b = static_cast<uint8_t>(rng());
		uintptr_t a = reinterpret_cast<uintptr_t>(storage.data());
		p = storage.data() + ((64 - a % 64) % 64);
	}
};

void
report(benchmark::State &state, uint64_t t0, uint64_t t1, size_t len)
{
	if (state.iterations() == 0)
		return;
	double cycles = static_cast<double>(t1 - t0) / static_cast<double>(state.iterations());
	state.counters["cycles"] = cycles;
	state.counters["bytes_per_cycle"] = cycles > 0 ? static_cast<double>(len) / cycles : 0;
	state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
				static_cast<int64_t>(len));
}

void
BM_engine(benchmark::State &state, crc_fn fn, avail_fn available)
{
	if (!available()) {
		state.SkipWithError("engine not available on this CPU/build");
		return;
	}
	const size_t len = static_cast<size_t>(state.range(0));
	Buffer buf(len);
	uint32_t crc = 0;

	uint64_t t0 = ticks();
	for (auto _ : state) {
		crc = fn(crc, buf.p, len);
		benchmark::DoNotOptimize(crc);
	}
	uint64_t t1 = ticks();
	report(state, t0, t1, len);
}

void
BM_copy_fused(benchmark::State &state)
{
	const size_t len = static_cast<size_t>(state.range(0));
	Buffer src(len), dst(len);
	uint32_t crc = 0;

	uint64_t t0 = ticks();
	for (auto _ : state) {
		crc = crc32c_copy_update(crc, dst.p, src.p, len);
		benchmark::DoNotOptimize(crc);
		benchmark::ClobberMemory();
	}
	uint64_t t1 = ticks();
	report(state, t0, t1, len);
}

void
BM_copy_two_pass(benchmark::State &state)
{
	const size_t len = static_cast<size_t>(state.range(0));
	Buffer src(len), dst(len);
	uint32_t crc = 0;

	uint64_t t0 = ticks();
	for (auto _ : state) {
		std::memcpy(dst.p, src.p, len);
		benchmark::ClobberMemory();
		crc = crc32c_update(crc, dst.p, len);
		benchmark::DoNotOptimize(crc);
	}
	uint64_t t1 = ticks();
	report(state, t0, t1, len);
}

void
BM_sctp_verify(benchmark::State &state)
{
	const size_t len = static_cast<size_t>(state.range(0));
	Buffer pkt(len);
	crc32c_sctp_fill(pkt.p, len);
	int ok = 0;

	uint64_t t0 = ticks();
	for (auto _ : state) {
		ok += crc32c_sctp_verify(pkt.p, len) == CRC32C_VERDICT_OK;
		benchmark::DoNotOptimize(ok);
	}
	uint64_t t1 = ticks();
	if (ok != static_cast<int>(state.iterations()))
		state.SkipWithError("packet did not verify");
	report(state, t0, t1, len);
}

// TSC ticks per second, measured against the steady clock over 200 ms.
double
tsc_hz()
{
	auto w0 = std::chrono::steady_clock::now();
	uint64_t t0 = ticks();
	while (std::chrono::steady_clock::now() - w0 < std::chrono::milliseconds(200))
		;
	uint64_t t1 = ticks();
	std::chrono::duration<double> dt = std::chrono::steady_clock::now() - w0;
	return static_cast<double>(t1 - t0) / dt.count();
}

// With --benchmark_repetitions, "min" is the run least disturbed by other
// work on the machine (the TSC keeps counting while the thread is preempted).
double
min_of(const std::vector<double> &v)
{
	return v.empty() ? 0 : *std::min_element(v.begin(), v.end());
}

void
register_all()
{
	const struct {
		const char *name;
		crc_fn fn;
		avail_fn available;
	} engines[] = {
		{ "table", crc32c_table_update, always },
		{ "sse42", crc32c_sse42_update, crc32c_sse42_available },
		{ "isal", crc32c_isal_update, crc32c_isal_available },
		{ "policy", crc32c_update, always },
	};
	for (const auto &e : engines) {
		auto *b = benchmark::RegisterBenchmark((std::string("engine/") + e.name).c_str(),
						       BM_engine, e.fn, e.available)
				  ->ComputeStatistics("min", min_of);
		for (int64_t n : kSizes)
			b->Arg(n);
	}
	for (const auto &e : engines) {
		if (std::strcmp(e.name, "table") == 0)
			continue;
		benchmark::RegisterBenchmark((std::string("crossover/") + e.name).c_str(),
					     BM_engine, e.fn, e.available)
			->ComputeStatistics("min", min_of)
			// 16-byte steps are fine enough to place the crossover and
			// keep ./dev.sh bench within a few minutes.
			->MinTime(0.05)
			->DenseRange(16, 512, 16);
	}
	auto *f = benchmark::RegisterBenchmark("copy/fused", BM_copy_fused)
			  ->ComputeStatistics("min", min_of);
	auto *t = benchmark::RegisterBenchmark("copy/memcpy_then_crc", BM_copy_two_pass)
			  ->ComputeStatistics("min", min_of);
	auto *v = benchmark::RegisterBenchmark("sctp_verify", BM_sctp_verify)
			  ->ComputeStatistics("min", min_of);
	for (int64_t n : kSizes) {
		f->Arg(n);
		t->Arg(n);
		v->Arg(n);
	}
}

} // namespace

int
main(int argc, char **argv)
{
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	register_all();
	benchmark::AddCustomContext("tsc_hz", std::to_string(tsc_hz()));
	benchmark::AddCustomContext("crc32c_policy", crc32c_engine_name());
	benchmark::AddCustomContext("crc32c_isal_min_len", std::to_string(CRC32C_ISAL_MIN_LEN));
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
