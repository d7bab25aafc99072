// SPDX-License-Identifier: BSD-3-Clause
// The receive-side TSN map (sctp/tsn_map.c): what the data path pays per
// received DATA chunk to record its TSN, and per SACK for the gap blocks.
//   BM_MarkInOrder          the fast path: tsn == cum + 1, nothing held above.
//   BM_CheckThenMarkInOrder the same as the association calls it: check
//                           (room in reassembly is decided between) then mark.
//   BM_MarkOutOfOrder/B     one TSN lost per block of B: B - 1 marks above
//                           the gap (cycles_per_ooo_mark), then the missing
//                           TSN arrives and cum advances over the B - 1 held
//                           ones word by word (cycles_per_fill). Timed per
//                           block; the cost of a TSC read is subtracted.
//   BM_GapBlocks/N          the Gap Ack Blocks of a SACK with N blocks spread
//                           over a 1024-TSN window.
// TSC cycles, read around a whole batch (bench/tsc.h).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "tsc.h"

extern "C" {
#include "sctp/tsn_map.h"
}

namespace {

constexpr unsigned kWords = 16; // 1024-TSN window
constexpr unsigned kMaxDups = 16;

struct Map {
	uint64_t bits[kWords];
	uint32_t dups[kMaxDups];
	struct sctp_tsn_map m;

	explicit Map(uint32_t initial)
	{
		sctp_tsn_map_init(&m, initial, bits, kWords, dups, kMaxDups);
	}
};

// Cost of one bench_tsc() read as it sits between two timed intervals (the
// lowest of many back-to-back pairs), taken off per-block intervals below.
uint64_t
tsc_overhead()
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 1000; i++) {
		uint64_t a = bench_tsc();
		uint64_t d = bench_tsc() - a;
		if (d < best)
			best = d;
	}
	return best;
}

void
sizes(benchmark::State &state)
{
	state.counters["struct_bytes"] = sizeof(struct sctp_tsn_map);
	state.counters["window_tsns"] = 64 * kWords;
}

void
BM_MarkInOrder(benchmark::State &state)
{
	Map map(0xfffff000u); // crosses the 2^32 wrap on the way
	uint32_t tsn = 0xfffff000u;
	uint64_t n = 0;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		benchmark::DoNotOptimize(sctp_tsn_map_mark(&map.m, tsn++));
		n++;
	}
	uint64_t cycles = bench_tsc() - t0;
	if (sctp_tsn_map_cum(&map.m) != tsn - 1)
		state.SkipWithError("cum did not follow");
	state.counters["cycles_per_mark"] = (double)cycles / (double)n;
	sizes(state);
	state.SetItemsProcessed((int64_t)n);
}
BENCHMARK(BM_MarkInOrder);

void
BM_CheckThenMarkInOrder(benchmark::State &state)
{
	Map map(1);
	uint32_t tsn = 1;
	uint64_t n = 0;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		enum sctp_tsn_map_verdict v = sctp_tsn_map_check(&map.m, tsn);
		benchmark::DoNotOptimize(v);
		if (v == SCTP_TSN_MAP_NEW_IN_ORDER || v == SCTP_TSN_MAP_NEW_OUT_OF_ORDER)
			benchmark::DoNotOptimize(sctp_tsn_map_mark(&map.m, tsn));
		tsn++;
		n++;
	}
	uint64_t cycles = bench_tsc() - t0;
	state.counters["cycles_per_mark"] = (double)cycles / (double)n;
	sizes(state);
	state.SetItemsProcessed((int64_t)n);
}
BENCHMARK(BM_CheckThenMarkInOrder);

void
BM_MarkOutOfOrder(benchmark::State &state)
{
	const uint32_t block = (uint32_t)state.range(0);
	Map map(0xffff0000u);
	uint64_t ooo_cycles = 0;
	uint64_t fill_cycles = 0;
	uint64_t blocks = 0;
	const uint64_t overhead = tsc_overhead();
	for (auto _ : state) {
		uint32_t cum = sctp_tsn_map_cum(&map.m);
		uint64_t t0 = bench_tsc();
		for (uint32_t k = 2; k <= block; k++)
			benchmark::DoNotOptimize(sctp_tsn_map_mark(&map.m, cum + k));
		uint64_t t1 = bench_tsc();
		benchmark::DoNotOptimize(sctp_tsn_map_mark(&map.m, cum + 1));
		uint64_t t2 = bench_tsc();
		ooo_cycles += t1 - t0 > overhead ? t1 - t0 - overhead : 0;
		fill_cycles += t2 - t1 > overhead ? t2 - t1 - overhead : 0;
		blocks++;
		if (sctp_tsn_map_cum(&map.m) != cum + block) {
			state.SkipWithError("cum did not advance over the block");
			break;
		}
	}
	state.counters["cycles_per_ooo_mark"] = (double)ooo_cycles / (double)(blocks * (block - 1));
	state.counters["cycles_per_fill"] = (double)fill_cycles / (double)blocks;
	state.counters["cycles_per_tsn_advanced"] =
		(double)fill_cycles / (double)(blocks * (block - 1));
	state.counters["block"] = block;
	state.counters["tsc_overhead_subtracted"] = (double)overhead;
	sizes(state);
	state.SetItemsProcessed((int64_t)(blocks * block));
}
BENCHMARK(BM_MarkOutOfOrder)->Arg(8)->Arg(64)->Arg(1000);

void
BM_GapBlocks(benchmark::State &state)
{
	const unsigned n_blocks = (unsigned)state.range(0);
	Map map(1);
	// Blocks of 3 TSNs evenly over the window, the last one at its far end.
	const uint32_t stride = (64 * kWords - 4) / n_blocks;
	for (unsigned i = 1; i <= n_blocks; i++)
		for (uint32_t k = 0; k < 3; k++)
			sctp_tsn_map_mark(&map.m, stride * i + k);
	struct sctp_sack_gap out[64];
	uint64_t n = 0;
	unsigned got = 0;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		benchmark::DoNotOptimize(map.m);
		bool more;
		got = sctp_tsn_map_gaps(&map.m, out, 64, &more);
		benchmark::DoNotOptimize(out);
		n++;
	}
	uint64_t cycles = bench_tsc() - t0;
	if (got != n_blocks)
		state.SkipWithError("wrong number of gap blocks");
	state.counters["cycles_per_sack"] = (double)cycles / (double)n;
	state.counters["gap_blocks"] = n_blocks;
	sizes(state);
	state.SetItemsProcessed((int64_t)n);
}
BENCHMARK(BM_GapBlocks)->Arg(1)->Arg(4)->Arg(16);

} // namespace

BENCHMARK_MAIN();
