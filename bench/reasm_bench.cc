// SPDX-License-Identifier: BSD-3-Clause
// Reassembly and delivery (sctp/reasm.c): TSC cycles per DATA chunk through
// sctp_reasm_input() and the delivery callback (which walks the slices and
// releases them), with hold/release counting into plain integers, so the
// figures are the module's own cost, not a buffer allocator's. The
// budget for the whole receive path of a 64-byte DATA packet: 150 cycles.
//
//   BM_InOrderSingle      one-fragment ordered messages in order: the fast
//                         path (no node taken)
//   BM_InOrderFragments/k k-fragment messages in order: queue k - 1, deliver
//                         on the E; per fragment, flat in k if in-order
//                         insertion is O(1) (k = 45 is a 64 KiB message in
//                         1452-byte chunks)
//   BM_Streams/n          one-fragment messages round robin over n streams:
//                         flat in n (docs/ARCHITECTURE.md decision 7)
//   BM_SwappedPairs       TSNs arrive in pairs swapped (t+1 then t): one
//                         queued and released per pair
//   BM_PartialDelivery    45-fragment messages with a 4 KiB partial delivery
//                         point: the message goes up in parts
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "tsc.h"

extern "C" {
#include "sctp/reasm.h"
#include "sctp/wire.h"
}

namespace {

struct Rx {
	std::vector<struct sctp_reasm_node> nodes;
	std::vector<struct sctp_reasm_stream> streams;
	struct sctp_reasm_pool pool;
	struct sctp_reasm r;
	struct sctp_buf_ops ops;
	struct sctp_reasm_env env;
	uint64_t holds = 0, releases = 0, bytes = 0, msgs = 0;
	uint8_t payload[1452] = {};

	Rx(uint32_t n_streams, uint32_t pd_point) : nodes(4096), streams(n_streams)
	{
		sctp_reasm_pool_init(&pool, nodes.data(), (uint32_t)nodes.size());
		sctp_reasm_streams_init(streams.data(), n_streams);
		sctp_reasm_init(&r);
		ops.hold = [](void *ctx, void *) { static_cast<Rx *>(ctx)->holds++; };
		ops.release = [](void *ctx, void *) { static_cast<Rx *>(ctx)->releases++; };
		ops.ctx = this;
		env.pool = &pool;
		env.streams = streams.data();
		env.n_streams = n_streams;
		env.lim.max_bytes = 1u << 24;
		env.lim.max_chunks = 4000;
		env.lim.pd_point = pd_point;
		env.buf = &ops;
		env.deliver = [](void *arg, const struct sctp_reasm_msg *m) {
			Rx *rx = static_cast<Rx *>(arg);
			struct sctp_reasm_iter it;
			struct sctp_slice s;
			sctp_reasm_iter_init(&it, m);
			while (sctp_reasm_iter_next(&it, &s)) {
				rx->bytes += s.len;
				rx->ops.release(rx->ops.ctx, s.handle);
			}
			rx->msgs++;
		};
		env.arg = this;
	}
	~Rx()
	{
		sctp_reasm_abandon(&r, &env);
	}
	enum sctp_reasm_verdict in(uint32_t tsn, uint16_t sid, uint16_t ssn, uint8_t flags,
				   uint32_t len, uint32_t cum)
	{
		struct sctp_reasm_chunk c;
		c.tsn = tsn;
		c.ppid = 0;
		c.sid = sid;
		c.ssn = ssn;
		c.flags = flags;
		c.payload.handle = this;
		c.payload.data = payload;
		c.payload.len = len;
		return sctp_reasm_input(&r, &env, &c, cum);
	}
};

void
report(benchmark::State &state, uint64_t t0, uint64_t chunks, const Rx &rx)
{
	state.counters["cycles_per_chunk"] =
		(double)(bench_tsc() - t0) / (double)(chunks ? chunks : 1);
	state.counters["reasm_bytes"] = (double)sizeof(struct sctp_reasm);
	state.counters["node_bytes"] = (double)sizeof(struct sctp_reasm_node);
	state.counters["stream_bytes"] = (double)sizeof(struct sctp_reasm_stream);
	state.SetItemsProcessed((int64_t)chunks);
	if (rx.holds != rx.releases + sctp_reasm_queued_chunks(&rx.r))
		state.SkipWithError("holds and releases do not match");
}

void
BM_InOrderSingle(benchmark::State &state)
{
	Rx rx(1, 0);
	uint32_t tsn = 1;
	uint16_t ssn = 0;
	uint64_t n = 0, t0 = bench_tsc();
	for (auto _ : state) {
		if (rx.in(tsn, 0, ssn, SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E, 64, tsn - 1) !=
		    SCTP_REASM_DELIVERED) {
			state.SkipWithError("not delivered");
			break;
		}
		tsn++;
		ssn++;
		n++;
	}
	report(state, t0, n, rx);
}
BENCHMARK(BM_InOrderSingle);

void
BM_InOrderFragments(benchmark::State &state)
{
	const uint32_t k = (uint32_t)state.range(0);
	Rx rx(1, 0);
	uint32_t tsn = 1, i = 0;
	uint16_t ssn = 0;
	uint64_t n = 0, t0 = bench_tsc();
	for (auto _ : state) {
		uint8_t fl = (uint8_t)((i == 0 ? SCTP_DATA_FLAG_B : 0) |
				       (i == k - 1 ? SCTP_DATA_FLAG_E : 0));
		rx.in(tsn, 0, ssn, fl, 1452, tsn - 1);
		tsn++;
		n++;
		if (++i == k) {
			i = 0;
			ssn++;
		}
	}
	report(state, t0, n, rx);
	if (rx.msgs != n / k)
		state.SkipWithError("messages lost");
}
BENCHMARK(BM_InOrderFragments)->Arg(2)->Arg(8)->Arg(45);

void
BM_Streams(benchmark::State &state)
{
	const uint32_t ns = (uint32_t)state.range(0);
	Rx rx(ns, 0);
	uint32_t tsn = 1, sid = 0;
	uint64_t n = 0, t0 = bench_tsc();
	for (auto _ : state) {
		rx.in(tsn, (uint16_t)sid, rx.streams[sid].next_ssn,
		      SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E, 64, tsn - 1);
		tsn++;
		n++;
		if (++sid == ns)
			sid = 0;
	}
	report(state, t0, n, rx);
}
BENCHMARK(BM_Streams)->Arg(1)->Arg(16)->Arg(1024);

void
BM_SwappedPairs(benchmark::State &state)
{
	Rx rx(1, 0);
	uint32_t tsn = 1;
	uint16_t ssn = 0;
	bool second = false;
	uint64_t n = 0, t0 = bench_tsc();
	for (auto _ : state) {
		// t+1 (SSN s+1) first, queued; then t (SSN s) releases both.
		if (!second)
			rx.in(tsn + 1, 0, (uint16_t)(ssn + 1), SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E,
			      64, tsn - 1);
		else {
			rx.in(tsn, 0, ssn, SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E, 64, tsn - 1);
			tsn += 2;
			ssn = (uint16_t)(ssn + 2);
		}
		second = !second;
		n++;
	}
	report(state, t0, n, rx);
}
BENCHMARK(BM_SwappedPairs);

void
BM_PartialDelivery(benchmark::State &state)
{
	const uint32_t k = 45;
	Rx rx(1, 4096);
	uint32_t tsn = 1, i = 0;
	uint16_t ssn = 0;
	uint64_t n = 0, t0 = bench_tsc();
	for (auto _ : state) {
		uint8_t fl = (uint8_t)((i == 0 ? SCTP_DATA_FLAG_B : 0) |
				       (i == k - 1 ? SCTP_DATA_FLAG_E : 0));
		rx.in(tsn, 0, ssn, fl, 1452, tsn - 1);
		tsn++;
		n++;
		if (++i == k) {
			i = 0;
			ssn++;
		}
	}
	report(state, t0, n, rx);
}
BENCHMARK(BM_PartialDelivery);

} // namespace

BENCHMARK_MAIN();
