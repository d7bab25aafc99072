// SPDX-License-Identifier: BSD-3-Clause
// The association's receive path (sctp/assoc_data.c) per packet: parse the
// common header, walk the chunks, check the tag, dispatch, TSN map,
// reassembly, delivery to the user and the SACK decision (a SACK built and
// "sent" every sack_every packets). Goal: at most 150 cycles for a
// single-chunk 64-byte DATA packet. Also a packet bundling 16 messages of
// 64 bytes, per message. Both profiles; the delivery callback reads the
// message's first slice, as an application must at least do.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "tsc.h"

extern "C" {
#include "sctp/assoc.h"
#include "sctp/chunk.h"
#include "sctp/endpoint.h"
}

namespace {

struct Receiver {
	struct sctp_endpoint ep;
	struct sctp_assoc a;
	struct sctp_assoc_counters counters = {};
	struct sctp_assoc_stats stats = {};
	struct sctp_assoc_ops ops = {};
	struct sctp_data_config data = {};
	struct sctp_reasm_node nodes[256];
	struct sctp_reasm_pool pool;
	std::vector<uint64_t> mem;
	uint64_t delivered = 0, bytes = 0, sacks = 0;
	uint32_t rnd = 7;

	explicit Receiver(const struct sctp_profile *prof)
	{
		sctp_reasm_pool_init(&pool, nodes, 256);
		data.buf.hold = [](void *, void *) {};
		data.buf.release = [](void *, void *) {};
		data.reasm_pool = &pool;
		data.reasm = { 1u << 20, 0, 1024 };
		data.tsn_map_words = 16;
		data.max_dups = 16;
		data.max_gap_blocks = 16;
		struct sctp_endpoint_config cfg = {};
		cfg.port = 5001;
		cfg.profile = prof;
		cfg.a_rwnd = 1u << 20;
		cfg.listening = true;
		cfg.choose_tag = [](void *, const struct sctp_rx *) { return 0x1234567u; };
		cfg.random32 = [](void *ctx) {
			Receiver *r = static_cast<Receiver *>(ctx);
			r->rnd = r->rnd * 1664525u + 1013904223u;
			return r->rnd;
		};
		cfg.ctx = this;
		cfg.data = &data;
		uint8_t key[SCTP_COOKIE_KEY_LEN] = { 1, 2, 3 };
		if (sctp_endpoint_init(&ep, &cfg, key, 0) != 0)
			abort();
		ops.send = [](void *ctx, const uint8_t *, size_t, const struct sctp_addr *,
			      const struct sctp_addr *) { static_cast<Receiver *>(ctx)->sacks++; };
		ops.notify = [](void *, const struct sctp_notification *) {};
		ops.deliver = [](void *ctx, const struct sctp_reasm_msg *m) {
			Receiver *r = static_cast<Receiver *>(ctx);
			struct sctp_reasm_iter it;
			struct sctp_slice sl;
			sctp_reasm_iter_init(&it, m);
			if (sctp_reasm_iter_next(&it, &sl))
				r->bytes += sl.data[0];
			r->delivered++;
		};
		ops.data_get = [](void *ctx, size_t n) -> void * {
			Receiver *r = static_cast<Receiver *>(ctx);
			r->mem.assign((n + 7) / 8, 0);
			return r->mem.data();
		};
		ops.data_put = [](void *, void *) {};
		struct sctp_cookie_state st = {};
		st.local_vtag = 0x1234567;
		st.peer_vtag = 0x7654321;
		st.local_initial_tsn = 1;
		st.peer_initial_tsn = 100;
		st.peer_a_rwnd = 1u << 20;
		st.outbound_streams = st.inbound_streams = 16;
		st.local_port = 5001;
		st.peer_port = 40000;
		const uint8_t c[4] = { 10, 0, 0, 1 }, s[4] = { 10, 0, 0, 2 };
		st.peer_src = sctp_addr_v4(c);
		st.local_addr = sctp_addr_v4(s);
		sctp_assoc_init(&a, &ops, this, &counters, &stats);
		if (sctp_assoc_from_cookie(&a, &ep, &st, 1) != 0 || a.data_mem == nullptr)
			abort();
	}
	~Receiver()
	{
		sctp_assoc_abort(&a, 2, nullptr, 0);
		sctp_endpoint_fini(&ep);
	}
};

// A packet of n DATA chunks of 64 bytes, TSNs and SSNs rewritten per use.
struct Packet {
	std::vector<uint8_t> b;
	unsigned n;
	Packet(unsigned chunks) : b(12 + chunks * 80), n(chunks)
	{
		struct sctp_writer w = sctp_writer_make(b.data(), b.size());
		sctp_packet_build_header(&w, 40000, 5001, 0x1234567);
		uint8_t payload[64];
		memset(payload, 'x', sizeof(payload));
		for (unsigned i = 0; i < chunks; i++) {
			struct sctp_data d = {};
			d.flags = SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E;
			d.payload = payload;
			d.payload_len = sizeof(payload);
			sctp_data_build(&w, &d);
		}
		b.resize(w.off);
	}
	void number(uint32_t tsn, uint16_t ssn)
	{
		for (unsigned i = 0; i < n; i++) {
			uint8_t *c = b.data() + 12 + i * 80;
			sctp_store_be32(c + 4, tsn + i);
			sctp_store_be16(c + 10, (uint16_t)(ssn + i));
		}
	}
};

void
run(benchmark::State &state, const struct sctp_profile *prof, unsigned chunks)
{
	Receiver r(prof);
	Packet p(chunks);
	struct sctp_rx rx = {};
	const uint8_t c[4] = { 10, 0, 0, 1 }, s[4] = { 10, 0, 0, 2 };
	rx.src = sctp_addr_v4(c);
	rx.dst = sctp_addr_v4(s);
	uint32_t tsn = 100;
	uint16_t ssn = 0;
	uint64_t n = 0, now = 10;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		p.number(tsn, ssn);
		sctp_packet_parse(&rx.pkt, p.b.data(), p.b.size());
		sctp_assoc_input(&r.a, &rx, now);
		tsn += chunks;
		ssn = (uint16_t)(ssn + chunks);
		n++;
	}
	double cycles = (double)(bench_tsc() - t0) / (double)(n ? n : 1);
	if (r.delivered != n * chunks || r.a.state != SCTP_ASSOC_ESTABLISHED)
		state.SkipWithError("not every message was delivered");
	state.counters["cycles_per_packet"] = cycles;
	state.counters["cycles_per_message"] = cycles / chunks;
	state.counters["sacks_per_packet"] = (double)r.sacks / (double)(n ? n : 1);
	state.counters["assoc_bytes"] = (double)sizeof(struct sctp_assoc);
	state.counters["assoc_tx_bytes"] = (double)sizeof(struct sctp_assoc_tx);
	state.SetItemsProcessed((int64_t)(n * chunks));
}

void
BM_RxData64(benchmark::State &state)
{
	run(state, state.range(0) ? &sctp_profile_dc : &sctp_profile_rfc, 1);
}
BENCHMARK(BM_RxData64)->ArgName("dc")->Arg(0)->Arg(1);

void
BM_RxBundle16x64(benchmark::State &state)
{
	run(state, state.range(0) ? &sctp_profile_dc : &sctp_profile_rfc, 16);
}
BENCHMARK(BM_RxBundle16x64)->ArgName("dc")->Arg(0)->Arg(1);

} // namespace

BENCHMARK_MAIN();
