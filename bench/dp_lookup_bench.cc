// SPDX-License-Identifier: BSD-3-Clause
// What finding an association costs a worker as the population grows
// (docs/PERFORMANCE.md "Association lookup at scale"): the two rte_hash
// tables of dataplane/dp_worker.c, made as the worker makes them (2 x N
// entries, the CRC hash, the keys of dataplane/dp_types.h), holding N
// associations, looked up in a random order so that at 1 M neither the
// buckets nor the keys are in cache, as on a worker serving a million
// mostly idle associations.
//   BM_LookupByTag/N      our tag and the ports (every packet after the
//                         handshake): cycles_per_lookup, one key at a time
//   BM_LookupByTagBulk/N  the same, 32 keys per rte_hash_lookup_bulk_data()
//                         (what a burst-wide lookup would pay)
//   BM_LookupByPeer/N     the peer's address and the ports (INIT, COOKIE
//                         ECHO, ICMP, ABORT with the T bit)
// TSC cycles around batches of 1,024 lookups (bench/tsc.h); the tables'
// heap bytes per association as table_bytes_per_assoc.
#include <benchmark/benchmark.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "bench/tsc.h"

extern "C" {
#include "dataplane/dp_types.h"
}

namespace {

constexpr unsigned kBatch = 1024;

bool
eal()
{
	static int ok = -1;
	if (ok < 0) {
		static const char *args[] = {
			"bench", "--no-huge",	"--no-pci",	 "--no-shconf",	  "-l", "0", "-m",
			"2048",	 "--log-level", "lib.eal:error", "--no-telemetry"
		};
		std::vector<char *> argv;
		for (const char *a : args)
			argv.push_back(const_cast<char *>(a));
		ok = rte_eal_init((int)argv.size(), argv.data()) >= 0;
		if (!ok)
			fprintf(stderr, "bench_dp_lookup: EAL: %s\n", rte_strerror(rte_errno));
	}
	return ok == 1;
}

size_t
heap()
{
	rte_malloc_socket_stats st;
	rte_malloc_get_socket_stats(0, &st);
	return st.heap_allocsz_bytes;
}

// A table of n keys made as dp_worker.c makes its own, and the keys in a
// random lookup order.
template <typename Key> struct Table {
	rte_hash *h = nullptr;
	std::vector<Key> order;
	size_t bytes = 0;

	Table(const char *name, unsigned n, Key (*make)(std::mt19937_64 &))
	{
		size_t h0 = heap();
		rte_hash_parameters p = {};
		p.name = name;
		p.entries = 2 * n;
		p.key_len = sizeof(Key);
		p.hash_func = rte_hash_crc;
		p.socket_id = 0;
		h = rte_hash_create(&p);
		if (h == nullptr)
			return;
		bytes = heap() - h0;
		std::mt19937_64 rng(n);
		std::vector<Key> keys;
		keys.reserve(n);
		while (keys.size() < n) {
			Key k = make(rng);
			// A distinct key each time (tags are random; a repeat is not added twice).
			if (rte_hash_add_key_data(h, &k, (void *)(uintptr_t)(keys.size() + 1)) !=
				    0 ||
			    rte_hash_count(h) != (int32_t)keys.size() + 1)
				continue;
			keys.push_back(k);
		}
		order = keys;
		std::shuffle(order.begin(), order.end(), rng);
	}
	~Table()
	{
		rte_hash_free(h);
	}
};

dp_tag_key
tag_key(std::mt19937_64 &rng)
{
	dp_tag_key k = {};
	k.vtag = (uint32_t)rng() | 1u;
	k.local_port = 5001;
	k.peer_port = (uint16_t)(1024 + rng() % 60000);
	return k;
}

dp_peer_key
peer_key(std::mt19937_64 &rng)
{
	dp_peer_key k = {};
	uint32_t a = (uint32_t)rng();
	k.addr[0] = 10;
	memcpy(&k.addr[1], &a, 3);
	k.family = 4;
	k.local_port = 5001;
	k.peer_port = (uint16_t)(1024 + rng() % 60000);
	return k;
}

void
report(benchmark::State &state, uint64_t found, uint64_t lookups, uint64_t cycles, unsigned n,
       size_t table_bytes)
{
	if (found != lookups)
		state.SkipWithError("a key was not found");
	state.counters["cycles_per_lookup"] = (double)cycles / (double)lookups;
	state.counters["assocs"] = (double)n;
	state.counters["table_bytes_per_assoc"] = (double)table_bytes / (double)n;
	state.SetItemsProcessed((int64_t)lookups);
}

template <typename Key>
void
one_at_a_time(benchmark::State &state, const char *name, Key (*make)(std::mt19937_64 &))
{
	if (!eal()) {
		state.SkipWithError("no EAL");
		return;
	}
	const unsigned n = (unsigned)state.range(0);
	Table<Key> t(name, n, make);
	if (t.h == nullptr) {
		state.SkipWithError("rte_hash_create failed");
		return;
	}
	uint64_t cycles = 0, lookups = 0, found = 0;
	size_t at = 0;
	for (auto _ : state) {
		uint64_t t0 = bench_tsc();
		for (unsigned i = 0; i < kBatch; i++) {
			void *data;
			found += rte_hash_lookup_data(t.h, &t.order[at], &data) >= 0;
			at = at + 1 == t.order.size() ? 0 : at + 1;
		}
		cycles += bench_tsc() - t0;
		lookups += kBatch;
	}
	report(state, found, lookups, cycles, n, t.bytes);
}

void
BM_LookupByTag(benchmark::State &state)
{
	one_at_a_time<dp_tag_key>(state, "bench_tag", tag_key);
}
BENCHMARK(BM_LookupByTag)->Arg(1000)->Arg(100000)->Arg(1000000);

void
BM_LookupByPeer(benchmark::State &state)
{
	one_at_a_time<dp_peer_key>(state, "bench_peer", peer_key);
}
BENCHMARK(BM_LookupByPeer)->Arg(1000)->Arg(100000)->Arg(1000000);

void
BM_LookupByTagBulk(benchmark::State &state)
{
	if (!eal()) {
		state.SkipWithError("no EAL");
		return;
	}
	const unsigned n = (unsigned)state.range(0);
	Table<dp_tag_key> t("bench_tagb", n, tag_key);
	if (t.h == nullptr) {
		state.SkipWithError("rte_hash_create failed");
		return;
	}
	uint64_t cycles = 0, lookups = 0, found = 0;
	size_t at = 0;
	const void *keys[32];
	void *data[32];
	for (auto _ : state) {
		uint64_t t0 = bench_tsc();
		for (unsigned b = 0; b < kBatch / 32; b++) {
			for (unsigned i = 0; i < 32; i++) {
				keys[i] = &t.order[at];
				at = at + 1 == t.order.size() ? 0 : at + 1;
			}
			uint64_t hits = 0;
			found += (uint64_t)rte_hash_lookup_bulk_data(t.h, keys, 32, &hits, data);
		}
		cycles += bench_tsc() - t0;
		lookups += kBatch;
	}
	report(state, found, lookups, cycles, n, t.bytes);
}
BENCHMARK(BM_LookupByTagBulk)->Arg(1000)->Arg(100000)->Arg(1000000);

} // namespace

BENCHMARK_MAIN();
