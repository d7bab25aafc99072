// SPDX-License-Identifier: BSD-3-Clause
// The outbound message queue (sctp/outq.c): what the send path pays per
// user message before the association assigns TSNs.
//   BM_SmallMessage/S/F     push one 64-byte message and take it out as one
//                           chunk (max_payload 1452), round robin over S
//                           streams (S = 1, 16, 1024), F the scheduler
//                           (enum sctp_outq_sched: 0 round robin, 1 FCFS,
//                           2 round robin per packet, one packet per
//                           message, 3 priority, 5 WFQ); cycles_per_msg.
//   BM_Backlogged/S/F       S streams (16, 256) that always have one 64-byte
//                           message queued: take one, queue its stream
//                           another, so every take is a turn change and
//                           every push a stream becoming active (PRIO:
//                           priorities sid % 8, WFQ: weights 1 + sid % 4);
//                           cycles_per_msg.
//   BM_SmallBundled/N       push N 64-byte messages on N streams, then fill
//                           1468-byte packets (PMDCS of a 1500-byte IPv4
//                           path) with sctp_outq_fill() until empty: 18
//                           chunks of 80 bytes per packet; cycles_per_msg
//                           (push and fill), cycles_per_packet.
//   BM_Fragment64K/I        push one 64 KiB message and cut it into 1452-byte
//                           fragments (46 chunks, one hold() each but the
//                           last), I = 1 for I-DATA; cycles_per_fragment.
// The buffer ops are a plain counter, so the figures are the queue's own
// cost plus two indirect calls per hold; a real rte_mbuf refcount update is
// an atomic add on top. TSC cycles around whole batches (bench/tsc.h).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "tsc.h"

extern "C" {
#include "sctp/outq.h"
}

namespace {

struct Counter {
	int64_t refs = 0;
};

void
count_hold(void *ctx, void *)
{
	static_cast<Counter *>(ctx)->refs++;
}

void
count_release(void *ctx, void *)
{
	static_cast<Counter *>(ctx)->refs--;
}

struct Bench {
	Counter ctr;
	struct sctp_buf_ops ops = { count_hold, count_release, &ctr };
	std::vector<struct sctp_outq_msg> nodes;
	std::vector<struct sctp_outq_stream> streams;
	struct sctp_outq_pool pool;
	struct sctp_outq q;
	std::vector<uint8_t> payload;
	int handle = 0; // any non-NULL handle: the counter does not look at it

	Bench(uint16_t n_streams, uint8_t sched, bool idata, uint32_t payload_len)
	    : nodes(4096), streams(n_streams), payload(payload_len, 0x5a)
	{
		sctp_outq_pool_init(&pool, nodes.data(), (uint32_t)nodes.size(), &ops);
		struct sctp_outq_config cfg = { 1u << 26, 4096, n_streams, sched, idata };
		sctp_outq_init(&q, &pool, streams.data(), &cfg);
	}

	struct sctp_slice slice()
	{
		return { &handle, payload.data(), (uint32_t)payload.size() };
	}
};

void
sizes(benchmark::State &state)
{
	state.counters["outq_bytes"] = sizeof(struct sctp_outq);
	state.counters["stream_bytes"] = sizeof(struct sctp_outq_stream);
	state.counters["node_bytes"] = sizeof(struct sctp_outq_msg);
}

void
BM_SmallMessage(benchmark::State &state)
{
	const uint16_t n_streams = (uint16_t)state.range(0);
	const uint8_t sched = (uint8_t)state.range(1);
	const bool per_packet = sched == SCTP_OUTQ_SCHED_RR_PKT;
	Bench b(n_streams, sched, false, 64);
	struct sctp_slice s = b.slice();
	struct sctp_outq_chunk c;
	uint16_t sid = 0;
	uint64_t n = 0;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		sctp_outq_push(&b.q, sid, 51, 0, &s);
		sctp_outq_next(&b.q, 1452, &c);
		if (per_packet)
			sctp_outq_packet_end(&b.q);
		benchmark::DoNotOptimize(c);
		if (++sid == n_streams)
			sid = 0;
		n++;
	}
	uint64_t cycles = bench_tsc() - t0;
	if (!sctp_outq_empty(&b.q) || b.ctr.refs != (int64_t)n)
		state.SkipWithError("queue not drained or references off");
	state.counters["cycles_per_msg"] = (double)cycles / (double)n;
	state.counters["streams"] = n_streams;
	sizes(state);
	state.SetItemsProcessed((int64_t)n);
}
BENCHMARK(BM_SmallMessage)
	->Args({ 1, 0 })
	->Args({ 16, 0 })
	->Args({ 1024, 0 })
	->Args({ 1, 1 })
	->Args({ 16, 1 })
	->Args({ 16, SCTP_OUTQ_SCHED_RR_PKT })
	->Args({ 16, SCTP_OUTQ_SCHED_PRIO })
	->Args({ 16, SCTP_OUTQ_SCHED_WFQ });

void
BM_Backlogged(benchmark::State &state)
{
	const uint16_t n_streams = (uint16_t)state.range(0);
	const uint8_t sched = (uint8_t)state.range(1);
	Bench b(n_streams, sched, false, 64);
	struct sctp_slice s = b.slice();
	struct sctp_outq_chunk c;
	uint64_t n = 0;
	for (uint16_t i = 0; i < n_streams; i++) {
		uint16_t v =
			sched == SCTP_OUTQ_SCHED_WFQ ? (uint16_t)(1 + i % 4) : (uint16_t)(i % 8);
		sctp_outq_set_stream_param(&b.q, i, v);
		sctp_outq_push(&b.q, i, 51, 0, &s);
	}
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		sctp_outq_next(&b.q, 1452, &c);
		sctp_outq_packet_end(&b.q);
		sctp_outq_push(&b.q, c.sid, 51, 0, &s);
		benchmark::DoNotOptimize(c);
		n++;
	}
	uint64_t cycles = bench_tsc() - t0;
	if (sctp_outq_queued_msgs(&b.q) != n_streams)
		state.SkipWithError("a take or push failed");
	state.counters["cycles_per_msg"] = (double)cycles / (double)n;
	state.counters["streams"] = n_streams;
	sizes(state);
	state.SetItemsProcessed((int64_t)n);
}
BENCHMARK(BM_Backlogged)
	->Args({ 16, SCTP_OUTQ_SCHED_RR })
	->Args({ 16, SCTP_OUTQ_SCHED_PRIO })
	->Args({ 16, SCTP_OUTQ_SCHED_WFQ })
	->Args({ 256, SCTP_OUTQ_SCHED_RR })
	->Args({ 256, SCTP_OUTQ_SCHED_PRIO })
	->Args({ 256, SCTP_OUTQ_SCHED_WFQ });

void
BM_SmallBundled(benchmark::State &state)
{
	const unsigned n_msgs = (unsigned)state.range(0);
	Bench b((uint16_t)n_msgs, SCTP_OUTQ_SCHED_RR, false, 64);
	struct sctp_slice s = b.slice();
	struct sctp_outq_chunk out[64];
	uint64_t msgs = 0;
	uint64_t packets = 0;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		for (unsigned i = 0; i < n_msgs; i++)
			sctp_outq_push(&b.q, (uint16_t)i, 51, 0, &s);
		unsigned n;
		uint32_t used;
		while ((n = sctp_outq_fill(&b.q, 1452, 1468, out, 64, &used)) != 0) {
			benchmark::DoNotOptimize(out);
			msgs += n;
			packets++;
		}
	}
	uint64_t cycles = bench_tsc() - t0;
	if (msgs != n_msgs * (uint64_t)state.iterations())
		state.SkipWithError("messages left behind");
	state.counters["cycles_per_msg"] = (double)cycles / (double)msgs;
	state.counters["cycles_per_packet"] = (double)cycles / (double)packets;
	state.counters["msgs_per_packet"] = (double)msgs / (double)packets;
	sizes(state);
	state.SetItemsProcessed((int64_t)msgs);
}
BENCHMARK(BM_SmallBundled)->Arg(18)->Arg(72);

void
BM_Fragment64K(benchmark::State &state)
{
	const bool idata = state.range(0) != 0;
	Bench b(1, SCTP_OUTQ_SCHED_RR, idata, 65536);
	struct sctp_slice s = b.slice();
	struct sctp_outq_chunk c;
	uint64_t frags = 0;
	uint64_t msgs = 0;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		sctp_outq_push(&b.q, 0, 51, 0, &s);
		while (sctp_outq_next(&b.q, 1452, &c) == 0) {
			benchmark::DoNotOptimize(c);
			frags++;
		}
		msgs++;
	}
	uint64_t cycles = bench_tsc() - t0;
	if (b.ctr.refs != (int64_t)frags)
		state.SkipWithError("one reference per fragment expected");
	state.counters["cycles_per_fragment"] = (double)cycles / (double)frags;
	state.counters["cycles_per_msg"] = (double)cycles / (double)msgs;
	state.counters["fragments_per_msg"] = (double)frags / (double)msgs;
	sizes(state);
	state.SetItemsProcessed((int64_t)frags);
}
BENCHMARK(BM_Fragment64K)->Arg(0)->Arg(1);

} // namespace

BENCHMARK_MAIN();
