// SPDX-License-Identifier: BSD-3-Clause
// Both halves of the data path together: associations in one process, one
// sending, one receiving, packets handed over in memory (flattened from
// ops->send_data) with no loss, DC profile. Per iteration the sender queues
// a batch of messages and the packets (DATA one way, SACKs the other) are
// passed until none is left; delayed SACKs are fired by the clock. The
// figure is every cycle of both cores' work divided by the messages: send
// queue, fragmentation, bundling, congestion control, the receive path,
// SACK generation and SACK processing.
//
// The goal asks for cycles per bundled small message, per 1452-byte DATA
// sent and per SACK processed, and for N streams in one association
// against N associations at the same message rate (goal: at least 95 % of
// the throughput). BM_Streams/N and BM_Assocs/N are that pair. BM_SackIn/N
// is the sender's cost of one SACK that acknowledges N chunks, alone.
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <vector>

#include "tsc.h"

extern "C" {
#include "sctp/assoc.h"
#include "sctp/chunk.h"
#include "sctp/chunk_sack.h"
#include "sctp/endpoint.h"
}

namespace {

struct Wire;

// One association with its own endpoint, pools and storage.
struct Side {
	Wire *wire;
	unsigned id;
	struct sctp_endpoint ep;
	struct sctp_assoc a;
	struct sctp_assoc_counters counters = {};
	struct sctp_assoc_stats stats = {};
	struct sctp_assoc_ops ops = {};
	struct sctp_data_config data = {};
	std::vector<struct sctp_reasm_node> reasm_nodes = std::vector<struct sctp_reasm_node>(512);
	std::vector<struct sctp_outq_msg> outq_nodes = std::vector<struct sctp_outq_msg>(512);
	std::vector<struct sctp_rtxq_node> rtxq_nodes = std::vector<struct sctp_rtxq_node>(1024);
	struct sctp_reasm_pool reasm_pool;
	struct sctp_outq_pool outq_pool;
	struct sctp_rtxq_pool rtxq_pool;
	std::vector<uint64_t> mem;
	uint32_t rnd = 11;
	uint64_t delivered = 0;
};

// Packets in flight between the two ends of each pair, in order: a ring of
// preallocated buffers, so the harness allocates nothing per packet.
struct Wire {
	struct Pkt {
		Side *to;
		size_t len;
		alignas(8) uint8_t bytes[SCTP_ASSOC_TX_MAX];
	};
	static constexpr size_t kRing = 8192;
	std::vector<Pkt> ring = std::vector<Pkt>(kRing);
	size_t head = 0, tail = 0;
	uint64_t now = SCTP_S(1);
	uint64_t data_pkts = 0, sacks = 0;
	Pkt *push(Side *to)
	{
		if (tail - head == kRing)
			abort();
		Pkt *p = &ring[tail++ % kRing];
		p->to = to;
		return p;
	}
	bool empty() const
	{
		return head == tail;
	}
};

const struct sctp_buf_ops kNoRefs = {
	[](void *, void *) {},
	[](void *, void *) {},
	nullptr,
};

void
make_side(Side &s, Wire *w, unsigned id, uint16_t streams, uint32_t local_tag, uint32_t peer_tag,
	  uint32_t local_tsn, uint32_t peer_tsn)
{
	s.wire = w;
	s.id = id;
	sctp_reasm_pool_init(&s.reasm_pool, s.reasm_nodes.data(), (uint32_t)s.reasm_nodes.size());
	sctp_outq_pool_init(&s.outq_pool, s.outq_nodes.data(), (uint32_t)s.outq_nodes.size(),
			    &kNoRefs);
	sctp_rtxq_pool_init(&s.rtxq_pool, s.rtxq_nodes.data(), (uint32_t)s.rtxq_nodes.size());
	s.data.buf = kNoRefs;
	s.data.reasm_pool = &s.reasm_pool;
	s.data.reasm = { 4u << 20, 0, 4096 };
	s.data.tsn_map_words = 64;
	s.data.max_dups = 16;
	s.data.max_gap_blocks = 16;
	s.data.outq_pool = &s.outq_pool;
	s.data.rtxq_pool = &s.rtxq_pool;
	s.data.outq_max_bytes = 4u << 20;
	s.data.outq_max_msgs = 512;
	struct sctp_endpoint_config cfg = {};
	cfg.port = 5001;
	cfg.profile = &sctp_profile_dc;
	cfg.a_rwnd = 4u << 20;
	cfg.listening = true;
	cfg.choose_tag = [](void *ctx, const struct sctp_rx *) {
		return static_cast<Side *>(ctx)->a.local_vtag | 1u;
	};
	cfg.random32 = [](void *ctx) {
		Side *x = static_cast<Side *>(ctx);
		x->rnd = x->rnd * 1664525u + 1013904223u;
		return x->rnd;
	};
	cfg.ctx = &s;
	cfg.data = &s.data;
	uint8_t key[SCTP_COOKIE_KEY_LEN] = { 5 };
	if (sctp_endpoint_init(&s.ep, &cfg, key, 0) != 0)
		abort();
	s.ops.send = [](void *ctx, const uint8_t *b, size_t len, const struct sctp_addr *,
			const struct sctp_addr *) {
		Side *x = static_cast<Side *>(ctx);
		Side *peer = x->id == 0 ? x + 1 : x - 1;
		if (len > 12 && b[12] == SCTP_CHUNK_SACK)
			x->wire->sacks++;
		Wire::Pkt *p = x->wire->push(peer);
		memcpy(p->bytes, b, len);
		p->len = len;
	};
	s.ops.send_data = [](void *ctx, const uint8_t *head, size_t head_len,
			     const struct sctp_tx_seg *segs, unsigned n, const struct sctp_addr *,
			     const struct sctp_addr *) {
		Side *x = static_cast<Side *>(ctx);
		Side *peer = x->id == 0 ? x + 1 : x - 1;
		Wire::Pkt *p = x->wire->push(peer);
		p->len = sctp_tx_flatten(p->bytes, sizeof(p->bytes), head, head_len, segs, n);
		x->wire->data_pkts++;
	};
	s.ops.notify = [](void *, const struct sctp_notification *) {};
	s.ops.deliver = [](void *ctx, const struct sctp_reasm_msg *) {
		static_cast<Side *>(ctx)->delivered++;
	};
	s.ops.data_get = [](void *ctx, size_t n) -> void * {
		Side *x = static_cast<Side *>(ctx);
		x->mem.assign((n + 7) / 8, 0);
		return x->mem.data();
	};
	s.ops.data_put = [](void *, void *) {};
	struct sctp_cookie_state st = {};
	st.local_vtag = local_tag;
	st.peer_vtag = peer_tag;
	st.local_initial_tsn = local_tsn;
	st.peer_initial_tsn = peer_tsn;
	st.peer_a_rwnd = 4u << 20;
	st.outbound_streams = st.inbound_streams = streams;
	st.local_port = 5001;
	st.peer_port = 5001;
	const uint8_t ip_a[4] = { 10, 0, 0, 1 }, ip_b[4] = { 10, 0, 0, 2 };
	st.peer_src = sctp_addr_v4(id == 0 ? ip_b : ip_a);
	st.local_addr = sctp_addr_v4(id == 0 ? ip_a : ip_b);
	sctp_assoc_init(&s.a, &s.ops, &s, &s.counters, &s.stats);
	if (sctp_assoc_from_cookie(&s.a, &s.ep, &st, 1) != 0 || s.a.tx == nullptr)
		abort();
}

// A sender/receiver pair: pair[0] sends, pair[1] receives.
struct Pair {
	Side side[2];
	Pair(Wire *w, uint16_t streams, uint32_t n)
	{
		make_side(side[0], w, 0, streams, 0x100 + n, 0x200 + n, 1000, 5000);
		make_side(side[1], w, 1, streams, 0x200 + n, 0x100 + n, 5000, 1000);
	}
	~Pair()
	{
		for (Side &s : side) {
			sctp_assoc_abort(&s.a, s.wire->now, nullptr, 0);
			sctp_endpoint_fini(&s.ep);
		}
	}
};

// Pass every packet; then let the clock run to the next delayed SACK until quiet.
void
drain(Wire &w, std::vector<std::unique_ptr<Pair>> &pairs)
{
	for (int round = 0; round < 64; round++) {
		while (!w.empty()) {
			Wire::Pkt *p = &w.ring[w.head++ % Wire::kRing];
			struct sctp_rx rx = {};
			if (sctp_packet_parse(&rx.pkt, p->bytes, p->len) != SCTP_PERR_OK)
				abort();
			rx.src = sctp_path_addr(&p->to->a.paths.first);
			rx.dst = p->to->a.local_addr;
			sctp_assoc_input(&p->to->a, &rx, w.now);
		}
		uint64_t next = SCTP_TIME_NEVER;
		for (auto &pr : pairs)
			for (Side &s : pr->side)
				next = std::min(next, s.a.timer_at[SCTP_ASSOC_T_SACK]);
		if (next == SCTP_TIME_NEVER)
			return;
		w.now = std::max(w.now, next);
		for (auto &pr : pairs)
			for (Side &s : pr->side)
				if (s.a.timer_at[SCTP_ASSOC_T_SACK] <= w.now)
					sctp_assoc_timeout(&s.a, w.now);
	}
}

// n_pairs associations, each with `streams` streams; each iteration sends
// `batch` messages of `len` bytes spread round robin over all streams of
// all associations.
void
run(benchmark::State &state, unsigned n_pairs, uint16_t streams, uint32_t len, unsigned batch)
{
	Wire w;
	std::vector<std::unique_ptr<Pair>> pairs;
	for (unsigned i = 0; i < n_pairs; i++)
		pairs.push_back(std::make_unique<Pair>(&w, streams, i));
	static uint8_t payload[65536];
	struct sctp_slice msg = { payload, payload, len };
	uint64_t msgs = 0, t0 = bench_tsc(), k = 0;
	for (auto _ : state) {
		for (unsigned i = 0; i < batch; i++, k++) {
			Pair &p = *pairs[k % n_pairs];
			uint16_t sid = (uint16_t)((k / n_pairs) % streams);
			if (sctp_assoc_send(&p.side[0].a, sid, (uint32_t)k, 0, &msg, w.now) != 0) {
				state.SkipWithError("send refused");
				return;
			}
		}
		drain(w, pairs);
		msgs += batch;
	}
	double cycles = (double)(bench_tsc() - t0);
	uint64_t delivered = 0;
	for (auto &p : pairs)
		delivered += p->side[1].delivered;
	if (delivered != msgs)
		state.SkipWithError("not every message was delivered");
	state.counters["cycles_per_message"] = cycles / (double)(msgs ? msgs : 1);
	state.counters["cycles_per_byte"] = cycles / (double)(msgs ? msgs * len : 1);
	state.counters["sacks_per_data_packet"] =
		(double)w.sacks / (double)(w.data_pkts ? w.data_pkts : 1);
	state.counters["messages_per_data_packet"] =
		(double)msgs / (double)(w.data_pkts ? w.data_pkts : 1);
	state.SetItemsProcessed((int64_t)msgs);
	state.SetBytesProcessed((int64_t)(msgs * len));
}

void
BM_Small64(benchmark::State &state)
{
	run(state, 1, 1, 64, 64);
}
BENCHMARK(BM_Small64);

void
BM_Data1452(benchmark::State &state)
{
	run(state, 1, 1, 1452, 32);
}
BENCHMARK(BM_Data1452);

void
BM_Message64K(benchmark::State &state)
{
	run(state, 1, 1, 65536, 4);
}
BENCHMARK(BM_Message64K);

// The multi-streaming pair: the same 256-byte message rate over N streams of
// one association, or over N associations of one stream each.
void
BM_Streams(benchmark::State &state)
{
	run(state, 1, (uint16_t)state.range(0), 256, 64);
}
BENCHMARK(BM_Streams)->Arg(8)->Arg(64);

void
BM_Assocs(benchmark::State &state)
{
	run(state, (unsigned)state.range(0), 1, 256, 64);
}
BENCHMARK(BM_Assocs)->Arg(8)->Arg(64);

// What a pair of TSC reads costs by itself (the mean of many), to take out
// of figures read around a single call.
double
tsc_pair_cost()
{
	uint64_t sum = 0;
	const unsigned k = 4096;
	for (unsigned i = 0; i < k; i++) {
		uint64_t t = bench_tsc();
		sum += bench_tsc() - t;
	}
	return (double)sum / k;
}

// The goal's "per SACK processed": the sender's cost of one SACK that
// cumulatively acknowledges N outstanding chunks, from sctp_assoc_input()
// to its return: the chunk walk, the SACK's parse, the retransmission
// queue releasing N chunks, cc, the RTO sample, T3-rtx and the flush after
// it (nothing left to send). Each iteration queues N 64-byte messages with
// SCTP_SEND_MORE and sends them in one packet (not counted), then hands the
// association a SACK of all of them; only that input is timed (TSC read
// around it, the reads' own cost measured and taken out). The packet's
// parse is the caller's and is not counted.
void
BM_SackIn(benchmark::State &state)
{
	const unsigned n = (unsigned)state.range(0);
	Wire w;
	Pair pair(&w, 1, 0);
	Side &s = pair.side[0];
	static uint8_t payload[64];
	struct sctp_slice msg = { payload, payload, sizeof(payload) };
	alignas(8) uint8_t pkt[64];
	double overhead = tsc_pair_cost();
	uint64_t cycles = 0, sacks = 0;
	for (auto _ : state) {
		for (unsigned i = 0; i < n; i++) {
			uint8_t more = i + 1 < n ? SCTP_SEND_MORE : 0;
			if (sctp_assoc_send(&s.a, 0, i, more, &msg, w.now) != 0) {
				state.SkipWithError("send refused");
				return;
			}
		}
		w.head = w.tail; // the DATA goes nowhere: the SACK is made here
		struct sctp_writer wr = sctp_writer_make(pkt, sizeof(pkt));
		sctp_packet_build_header(&wr, 5001, 5001, s.a.local_vtag);
		sctp_sack_build_from(&wr, 0, s.a.tx->next_tsn - 1u, 4u << 20, nullptr, 0, nullptr,
				     0);
		struct sctp_rx rx = {};
		if (!sctp_writer_ok(&wr) || sctp_packet_parse(&rx.pkt, pkt, wr.off) != SCTP_PERR_OK)
			abort();
		rx.src = sctp_path_addr(&s.a.paths.first);
		rx.dst = s.a.local_addr;
		uint64_t t = bench_tsc();
		sctp_assoc_input(&s.a, &rx, w.now);
		cycles += bench_tsc() - t;
		sacks++;
	}
	if (!sctp_rtxq_empty(&s.a.tx->rtxq) || s.stats.sacks_in != sacks)
		state.SkipWithError("a SACK was not taken or left chunks unacknowledged");
	state.counters["cycles_per_sack"] = (double)cycles / (double)(sacks ? sacks : 1) - overhead;
	state.counters["chunks_per_sack"] = n;
	state.counters["tsc_pair_overhead"] = overhead;
	state.SetItemsProcessed((int64_t)sacks);
}
BENCHMARK(BM_SackIn)->Arg(1)->Arg(16);

} // namespace

BENCHMARK_MAIN();
