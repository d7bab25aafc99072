// SPDX-License-Identifier: BSD-3-Clause
// The sender's retransmission queue (sctp/rtxq.c): what the data path pays
// per SACK processed, and per chunk queued.
//   BM_SackCumAck2        the common case: 32 chunks outstanding on one
//                         path, each SACK acknowledges the two oldest
//                         cumulatively (the RFC's every-second-packet SACK),
//                         no gap blocks. Two chunks are added before each
//                         SACK (untimed; cycles_per_add reports them).
//   BM_AddTwoSackTwo      the same loop with no timing inside: the TSC read
//                         around the whole batch, cycles per iteration (two
//                         adds and one SACK) without the fences' cost.
//   BM_SackGaps/N         N chunks outstanding on two paths, one SACK that
//                         does not move the cum TSN and carries 4 gap blocks
//                         spread over them (newly acking 4 runs of 16, miss
//                         indications below the HTNA): the queue is rebuilt
//                         untimed before each SACK.
// Each SACK is timed alone with the TSC (bench/tsc.h) and the cost of a TSC
// read pair is subtracted. The release callback only counts, as an
// rte_pktmbuf_free of a cached mbuf costs the data plane separately.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "tsc.h"

extern "C" {
#include "sctp/rtxq.h"
}

namespace {

struct Counter {
	uint64_t releases = 0;
	static void hold(void *, void *)
	{
	}
	static void release(void *ctx, void *)
	{
		static_cast<Counter *>(ctx)->releases++;
	}
};

struct Bench {
	Counter counter;
	struct sctp_buf_ops ops;
	std::vector<struct sctp_rtxq_node> nodes;
	struct sctp_rtxq_pool pool;
	struct sctp_rtxq_env env = {};
	struct sctp_rtxq q;
	uint8_t payload[1452];
	uint32_t next_tsn;

	explicit Bench(uint32_t n_nodes) : nodes(n_nodes), next_tsn(0xfffff000u)
	{
		ops.hold = &Counter::hold;
		ops.release = &Counter::release;
		ops.ctx = &counter;
		sctp_rtxq_pool_init(&pool, nodes.data(), n_nodes);
		env.pool = &pool;
		env.buf = &ops;
		env.max_chunks = 0;
		sctp_rtxq_init(&q, next_tsn, 1u << 24);
		memset(payload, 0, sizeof(payload));
	}
	bool add(uint8_t path, uint64_t now)
	{
		struct sctp_rtxq_chunk c = {};
		c.tsn = next_tsn;
		c.ppid = 0;
		c.sid = 0;
		c.ssn = 0;
		c.flags = SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E;
		c.path = path;
		c.payload.handle = payload; // any non-NULL handle: released by count
		c.payload.data = payload;
		c.payload.len = 1452;
		if (sctp_rtxq_add(&q, &env, &c, now) != SCTP_RTXQ_ADD_OK)
			return false;
		next_tsn++;
		return true;
	}
};

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
	state.counters["node_bytes"] = sizeof(struct sctp_rtxq_node);
	state.counters["queue_bytes"] = sizeof(struct sctp_rtxq);
}

void
BM_SackCumAck2(benchmark::State &state)
{
	const uint32_t window = 32;
	Bench b(4096);
	const uint64_t overhead = tsc_overhead();
	uint64_t now = 1000;
	for (uint32_t i = 0; i < window; i++)
		b.add(0, now);
	struct sctp_sack s;
	memset(&s, 0, sizeof(s));
	s.type = SCTP_CHUNK_SACK;
	s.a_rwnd = 1u << 24;
	struct sctp_rtxq_sack_result res;
	uint64_t sack_cycles = 0, add_cycles = 0, n = 0;
	for (auto _ : state) {
		uint64_t t0 = bench_tsc();
		b.add(0, now);
		b.add(0, now);
		uint64_t t1 = bench_tsc();
		s.cum_tsn = sctp_rtxq_cum_point(&b.q) + 2u;
		now += 1000;
		enum sctp_rtxq_sack_verdict v =
			sctp_rtxq_on_sack(&b.q, &b.env, &s, false, now, &res);
		uint64_t t2 = bench_tsc();
		benchmark::DoNotOptimize(v);
		benchmark::DoNotOptimize(res);
		add_cycles += t1 - t0 > overhead ? t1 - t0 - overhead : 0;
		sack_cycles += t2 - t1 > overhead ? t2 - t1 - overhead : 0;
		n++;
		if (v != SCTP_RTXQ_SACK_OK || res.chunks_released != 2) {
			state.SkipWithError("SACK did not ack two chunks");
			break;
		}
	}
	state.counters["cycles_per_sack"] = (double)sack_cycles / (double)n;
	state.counters["cycles_per_add"] = (double)add_cycles / (double)(2 * n);
	state.counters["outstanding"] = window;
	state.counters["tsc_overhead_subtracted"] = (double)overhead;
	sizes(state);
	state.SetItemsProcessed((int64_t)n);
}
BENCHMARK(BM_SackCumAck2);

void
BM_AddTwoSackTwo(benchmark::State &state)
{
	const uint32_t window = 32;
	Bench b(4096);
	uint64_t now = 1000;
	for (uint32_t i = 0; i < window; i++)
		b.add(0, now);
	struct sctp_sack s;
	memset(&s, 0, sizeof(s));
	s.type = SCTP_CHUNK_SACK;
	s.a_rwnd = 1u << 24;
	struct sctp_rtxq_sack_result res;
	uint64_t n = 0;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		b.add(0, now);
		b.add(0, now);
		s.cum_tsn = sctp_rtxq_cum_point(&b.q) + 2u;
		now += 1000;
		benchmark::DoNotOptimize(sctp_rtxq_on_sack(&b.q, &b.env, &s, false, now, &res));
		benchmark::DoNotOptimize(res);
		n++;
	}
	uint64_t cycles = bench_tsc() - t0;
	if (b.counter.releases != 2 * n)
		state.SkipWithError("SACKs did not ack two chunks each");
	state.counters["cycles_per_iteration"] = (double)cycles / (double)n;
	state.counters["outstanding"] = window;
	sizes(state);
	state.SetItemsProcessed((int64_t)n);
}
BENCHMARK(BM_AddTwoSackTwo);

void
BM_SackGaps(benchmark::State &state)
{
	const uint32_t outstanding = (uint32_t)state.range(0);
	Bench b(outstanding + 16);
	const uint64_t overhead = tsc_overhead();
	// Four blocks of 16 TSNs, evenly spread, the last ending 8 below the top.
	const uint32_t stride = (outstanding - 8) / 4;
	uint8_t gap_bytes[16];
	for (unsigned i = 0; i < 4; i++) {
		uint16_t end = (uint16_t)(stride * (i + 1));
		uint16_t start = (uint16_t)(end - 15);
		gap_bytes[4 * i] = (uint8_t)(start >> 8);
		gap_bytes[4 * i + 1] = (uint8_t)start;
		gap_bytes[4 * i + 2] = (uint8_t)(end >> 8);
		gap_bytes[4 * i + 3] = (uint8_t)end;
	}
	struct sctp_sack s;
	memset(&s, 0, sizeof(s));
	s.type = SCTP_CHUNK_SACK;
	s.a_rwnd = 1u << 24;
	s.n_gaps = 4;
	s.gaps = gap_bytes;
	struct sctp_rtxq_sack_result res;
	uint64_t cycles = 0, n = 0;
	uint64_t now = 1000;
	for (auto _ : state) {
		state.PauseTiming();
		for (uint32_t i = 0; i < outstanding; i++)
			b.add((uint8_t)(i & 1), now);
		s.cum_tsn = sctp_rtxq_cum_point(&b.q);
		state.ResumeTiming();
		uint64_t t0 = bench_tsc();
		enum sctp_rtxq_sack_verdict v =
			sctp_rtxq_on_sack(&b.q, &b.env, &s, false, now + 1000, &res);
		uint64_t t1 = bench_tsc();
		benchmark::DoNotOptimize(v);
		benchmark::DoNotOptimize(res);
		cycles += t1 - t0 > overhead ? t1 - t0 - overhead : 0;
		n++;
		state.PauseTiming();
		if (v != SCTP_RTXQ_SACK_OK || res.bytes_acked != 64u * 1468u) {
			state.SkipWithError("SACK did not gap-ack 64 chunks");
			break;
		}
		sctp_rtxq_abandon(&b.q, &b.env, nullptr, nullptr);
		now += 2000;
		state.ResumeTiming();
	}
	state.counters["cycles_per_sack"] = (double)cycles / (double)n;
	state.counters["cycles_per_outstanding_chunk"] = (double)cycles / (double)(n * outstanding);
	state.counters["outstanding"] = outstanding;
	state.counters["gap_blocks"] = 4;
	state.counters["tsc_overhead_subtracted"] = (double)overhead;
	sizes(state);
	state.SetItemsProcessed((int64_t)n);
}
BENCHMARK(BM_SackGaps)->Arg(256)->Arg(1024);

} // namespace

BENCHMARK_MAIN();
