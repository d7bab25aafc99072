// SPDX-License-Identifier: BSD-3-Clause
// The copy threshold of the data plane's transmit path (dataplane/dp_tx.c,
// --copy-max): below some payload size, copying the payload into the packet
// being built costs less than referring to it with an indirect mbuf (alloc,
// attach — an atomic refcount add — chain, and at tx completion detach and
// free — an atomic sub). This measures both ways per DATA chunk of N bytes,
// the whole life of the packet's mbufs included (built, then freed as the
// PMD would after transmission), on the same pools the runtime uses
// (--no-huge, one lcore).
//
//   BM_Copy/N/C header mbuf with the 16-byte DATA header and N payload bytes
//               copied in; cycles_per_chunk.
//   BM_Ref/N/C  header mbuf with the DATA header, then an indirect mbuf on
//               the payload's mbuf; cycles_per_chunk.
//
// The crossover (the smallest N where BM_Ref is cheaper) is what
// DP_COPY_MAX_DEFAULT in dataplane/dp_api.c follows (docs/PERFORMANCE.md).
// The NIC's side of a two-segment packet (one more descriptor) is not in
// these figures: on a real NIC it favours copying a little further.
#include <benchmark/benchmark.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>

#include <cstring>
#include <vector>

#include "bench/tsc.h"

namespace {

struct Pools {
	rte_mempool *pkt = nullptr, *ind = nullptr;
	rte_mbuf *payload = nullptr;
	std::vector<rte_mbuf *> cold; // payloads spread over 32 MiB: not in any cache
	bool ok = false;
	Pools()
	{
		static const char *args[] = {
			"bench", "--no-huge",	"--no-pci",	 "--no-shconf",	  "-l", "0", "-m",
			"1024",	 "--log-level", "lib.eal:error", "--no-telemetry"
		};
		std::vector<char *> argv;
		for (const char *a : args)
			argv.push_back(const_cast<char *>(a));
		if (rte_eal_init((int)argv.size(), argv.data()) < 0) {
			fprintf(stderr, "bench_dp_copy: EAL: %s\n", rte_strerror(rte_errno));
			return;
		}
		pkt = rte_pktmbuf_pool_create("bench_pkt", 32767, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
					      0);
		ind = rte_pktmbuf_pool_create("bench_ind", 8191, 256, 0, 0, 0);
		if (pkt == nullptr || ind == nullptr)
			return;
		payload = rte_pktmbuf_alloc(pkt);
		rte_pktmbuf_append(payload, 2000);
		memset(rte_pktmbuf_mtod(payload, void *), 0x5a, 2000);
		for (unsigned i = 0; i < 16384; i++) {
			rte_mbuf *m = rte_pktmbuf_alloc(pkt);
			if (m == nullptr)
				return;
			memset(rte_pktmbuf_append(m, 1500), (int)i, 1500);
			cold.push_back(m);
		}
		ok = true;
	}
};

Pools &
pools()
{
	static Pools p;
	return p;
}

constexpr unsigned kBatch = 64;

void
BM_Copy(benchmark::State &state)
{
	Pools &p = pools();
	if (!p.ok) {
		state.SkipWithError("EAL or pools did not start");
		return;
	}
	const uint16_t n = (uint16_t)state.range(0);
	const bool is_cold = state.range(1) != 0;
	const uint8_t hdr[16] = { 0 };
	rte_mbuf *batch[kBatch];
	uint64_t cycles = 0, chunks = 0;
	size_t next = 0;
	for (auto _ : state) {
		uint64_t t0 = bench_tsc();
		for (unsigned i = 0; i < kBatch; i++) {
			rte_mbuf *pm = is_cold ? p.cold[next++ % p.cold.size()] : p.payload;
			const uint8_t *src = rte_pktmbuf_mtod(pm, const uint8_t *);
			rte_mbuf *m = rte_pktmbuf_alloc(p.pkt);
			uint8_t *d = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(16 + n));
			memcpy(d, hdr, 16);
			memcpy(d + 16, src, n);
			batch[i] = m;
		}
		rte_pktmbuf_free_bulk(batch, kBatch);
		cycles += bench_tsc() - t0;
		chunks += kBatch;
	}
	state.counters["cycles_per_chunk"] = (double)cycles / (double)chunks;
}

void
BM_Ref(benchmark::State &state)
{
	Pools &p = pools();
	if (!p.ok) {
		state.SkipWithError("EAL or pools did not start");
		return;
	}
	const uint16_t n = (uint16_t)state.range(0);
	const bool is_cold = state.range(1) != 0;
	const uint8_t hdr[16] = { 0 };
	rte_mbuf *batch[kBatch];
	uint64_t cycles = 0, chunks = 0;
	size_t next = 0;
	for (auto _ : state) {
		uint64_t t0 = bench_tsc();
		for (unsigned i = 0; i < kBatch; i++) {
			rte_mbuf *pm = is_cold ? p.cold[next++ % p.cold.size()] : p.payload;
			const uint8_t *src = rte_pktmbuf_mtod(pm, const uint8_t *);
			rte_mbuf *m = rte_pktmbuf_alloc(p.pkt);
			uint8_t *d = (uint8_t *)rte_pktmbuf_append(m, 16);
			memcpy(d, hdr, 16);
			rte_mbuf *mi = rte_pktmbuf_alloc(p.ind);
			rte_pktmbuf_attach(mi, pm);
			mi->data_off = (uint16_t)(src - (const uint8_t *)mi->buf_addr);
			mi->data_len = n;
			m->next = mi;
			m->nb_segs = 2;
			m->pkt_len = 16u + n;
			batch[i] = m;
		}
		rte_pktmbuf_free_bulk(batch, kBatch);
		cycles += bench_tsc() - t0;
		chunks += kBatch;
	}
	state.counters["cycles_per_chunk"] = (double)cycles / (double)chunks;
}

// Args: payload bytes, and 0 for a payload in cache (the application just
// wrote it) or 1 for one that is not (queued a while ago, or from DMA).
BENCHMARK(BM_Copy)->ArgsProduct({ { 64, 128, 256, 512, 1024, 1452 }, { 0, 1 } });
BENCHMARK(BM_Ref)->ArgsProduct({ { 64, 128, 256, 512, 1024, 1452 }, { 0, 1 } });

} // namespace

BENCHMARK_MAIN();
