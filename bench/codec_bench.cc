// SPDX-License-Identifier: BSD-3-Clause
// The receive-side codec cost: common header, chunk walk and DATA parse, for
// the two packets that bound the data path — one 1500-byte packet with a
// single DATA chunk (bulk transfer) and one bundling 20 small DATA chunks
// (small messages). Reported as TSC cycles per packet and per chunk.
// Goal: a single-DATA packet under 60 cycles.
#include <benchmark/benchmark.h>

#include <vector>

#include "tsc.h"

extern "C" {
#include "sctp/chunk_data.h"
#include "sctp/chunk_sack.h"
#include "sctp/packet.h"
}

namespace {

// An IPv4 MTU of 1500 leaves 1480 bytes of SCTP packet (1452 of user data).
constexpr size_t kMtuSctpBytes = 1480;

std::vector<uint8_t>
make_packet(unsigned n_chunks, size_t payload_len)
{
	std::vector<uint8_t> buf(65536);
	std::vector<uint8_t> payload(payload_len, 0xab);
	struct sctp_writer w = sctp_writer_make(buf.data(), buf.size());
	sctp_packet_build_header(&w, 5001, 5001, 0x12345678);
	for (unsigned i = 0; i < n_chunks; i++) {
		struct sctp_data d = {};
		d.flags = SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E;
		d.tsn = 1000 + i;
		d.sid = (uint16_t)(i % 8);
		d.ssn = (uint16_t)i;
		d.ppid = 46;
		d.payload = payload.data();
		d.payload_len = (uint16_t)payload_len;
		sctp_data_build(&w, &d);
	}
	if (!sctp_writer_ok(&w))
		abort();
	buf.resize(w.off);
	return buf;
}

// What the receive path does before any protocol state is touched.
inline uint32_t
walk_and_parse(const uint8_t *p, size_t len)
{
	struct sctp_packet pkt;
	struct sctp_chunk_iter it;
	struct sctp_chunk c;
	uint32_t bytes = 0;

	if (sctp_packet_parse(&pkt, p, len) != SCTP_PERR_OK)
		return 0;
	sctp_chunk_iter_init(&it, &pkt);
	while (sctp_chunk_iter_next(&it, &c)) {
		struct sctp_data d;
		if (c.type == SCTP_CHUNK_DATA && sctp_data_parse(&c, &d) == SCTP_PERR_OK)
			bytes += d.payload_len;
	}
	return bytes;
}

void
run(benchmark::State &state, const std::vector<uint8_t> &pkt, unsigned n_chunks)
{
	uint64_t packets = 0;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		benchmark::DoNotOptimize(pkt.data());
		uint32_t bytes = walk_and_parse(pkt.data(), pkt.size());
		benchmark::DoNotOptimize(bytes);
		packets++;
	}
	uint64_t cycles = bench_tsc() - t0;
	state.counters["cycles_per_packet"] = (double)cycles / (double)packets;
	state.counters["cycles_per_chunk"] = (double)cycles / (double)(packets * n_chunks);
	state.counters["packet_bytes"] = (double)pkt.size();
	state.counters["chunks"] = n_chunks;
	state.SetItemsProcessed((int64_t)packets);
	state.SetBytesProcessed((int64_t)(packets * pkt.size()));
}

void
BM_WalkParse_SingleData1500(benchmark::State &state)
{
	const size_t payload =
		kMtuSctpBytes - SCTP_COMMON_HDR_LEN - SCTP_CHUNK_HDR_LEN - SCTP_DATA_FIXED_LEN;
	auto pkt = make_packet(1, payload);
	run(state, pkt, 1);
}
BENCHMARK(BM_WalkParse_SingleData1500);

void
BM_WalkParse_Bundle20SmallData(benchmark::State &state)
{
	// 20 DATA chunks of 32-byte messages: 12 + 20 * 48 = 972 bytes.
	auto pkt = make_packet(20, 32);
	run(state, pkt, 20);
}
BENCHMARK(BM_WalkParse_Bundle20SmallData);

void
BM_SackParse(benchmark::State &state)
{
	// A SACK with 4 gap blocks and 2 duplicate TSNs, as seen under loss.
	std::vector<uint8_t> buf(256);
	struct sctp_writer w = sctp_writer_make(buf.data(), buf.size());
	sctp_packet_build_header(&w, 5001, 5001, 0x12345678);
	size_t c = sctp_chunk_build_begin(&w, SCTP_CHUNK_SACK, 0);
	sctp_writer_u32(&w, 1000);
	sctp_writer_u32(&w, 65536);
	sctp_writer_u16(&w, 4);
	sctp_writer_u16(&w, 2);
	for (uint16_t i = 0; i < 4; i++) {
		sctp_writer_u16(&w, (uint16_t)(2 + 4 * i));
		sctp_writer_u16(&w, (uint16_t)(3 + 4 * i));
	}
	sctp_writer_u32(&w, 998);
	sctp_writer_u32(&w, 999);
	sctp_chunk_build_end(&w, c);
	buf.resize(w.off);

	uint64_t n = 0;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		benchmark::DoNotOptimize(buf.data());
		struct sctp_packet pkt;
		struct sctp_chunk_iter it;
		struct sctp_chunk ch;
		struct sctp_sack s;
		sctp_packet_parse(&pkt, buf.data(), buf.size());
		sctp_chunk_iter_init(&it, &pkt);
		while (sctp_chunk_iter_next(&it, &ch))
			benchmark::DoNotOptimize(sctp_sack_parse(&ch, &s));
		n++;
	}
	state.counters["cycles_per_packet"] = (double)(bench_tsc() - t0) / (double)n;
	state.SetItemsProcessed((int64_t)n);
}
BENCHMARK(BM_SackParse);

} // namespace

BENCHMARK_MAIN();
