// SPDX-License-Identifier: BSD-3-Clause
// The State Cookie's cost (sctp/cookie.c): TSC cycles per encode and per
// decode (MAC included) for three cookie sizes, and the HMAC-SHA256
// strategies OpenSSL 3 offers, measured side by side on the same message,
// which is how sctp/cookie.c chose its own.
// Budget: a whole server-side handshake in about 5,000 cycles
// (500,000 per second per core), so encode + decode far under 2,000.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/params.h>

#include "tsc.h"

extern "C" {
#include "sctp/cookie.h"
}

namespace {

// OpenSSL's allocations, counted from before main() (OpenSSL takes new
// memory functions only before its first allocation).
std::atomic<unsigned long> g_allocs{ 0 };

void *
count_malloc(size_t n, const char *, int)
{
	g_allocs.fetch_add(1, std::memory_order_relaxed);
	return malloc(n);
}

void *
count_realloc(void *p, size_t n, const char *, int)
{
	if (p == nullptr)
		g_allocs.fetch_add(1, std::memory_order_relaxed);
	return realloc(p, n);
}

void
count_free(void *p, const char *, int)
{
	free(p);
}

const bool g_counting = CRYPTO_set_mem_functions(count_malloc, count_realloc, count_free) == 1;

// 31 characters and the terminating NUL: 32 bytes of key.
const uint8_t kKey[SCTP_COOKIE_KEY_LEN] = "bench key, not a secret: 32 B..";

struct sctp_addr
addr(uint8_t family, uint8_t last)
{
	uint8_t b[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	b[15] = last;
	if (family == SCTP_ADDR_V4) {
		const uint8_t v4[4] = { 192, 0, 2, last };
		return sctp_addr_v4(v4);
	}
	return sctp_addr_v6(b);
}

// Shapes: 0 = IPv4 peer with one address parameter (the common INIT),
// 1 = IPv6 peer with two, 2 = the largest cookie (eight IPv6 parameters).
struct sctp_cookie_state
shape(int64_t which)
{
	struct sctp_cookie_state st;
	memset(&st, 0, sizeof(st));
	st.local_vtag = 0x01000001;
	st.local_initial_tsn = 77;
	st.peer_vtag = 0x12345678;
	st.peer_initial_tsn = 1000;
	st.peer_a_rwnd = 1 << 20;
	st.outbound_streams = 10;
	st.inbound_streams = 10;
	st.local_port = 36412;
	st.peer_port = 36412;
	st.extensions = SCTP_COOKIE_EXT_ECN | SCTP_COOKIE_EXT_FORWARD_TSN;
	st.created_ns = 1;
	st.lifespan_ns = SCTP_COOKIE_DEFAULT_LIFE_NS;
	uint8_t fam = which == 0 ? SCTP_ADDR_V4 : SCTP_ADDR_V6;
	st.peer_src = addr(fam, 1);
	st.local_addr = addr(fam, 2);
	st.n_peer_addrs = which == 0 ? 1 : which == 1 ? 2 : SCTP_INIT_MAX_ADDRS;
	for (unsigned i = 0; i < st.n_peer_addrs; i++)
		st.peer_addrs[i] = addr(fam, (uint8_t)(10 + i));
	return st;
}

const char *const kShapeNames[] = { "ipv4_1addr", "ipv6_2addr", "ipv6_8addr_max" };

void
report(benchmark::State &state, uint64_t cycles, uint64_t n, unsigned long allocs, size_t bytes)
{
	state.counters["cycles"] = (double)cycles / (double)n;
	state.counters["cookie_bytes"] = (double)bytes;
	if (g_counting)
		state.counters["openssl_allocs"] = (double)allocs / (double)n;
	state.SetItemsProcessed((int64_t)n);
	state.SetLabel(kShapeNames[state.range(0)]);
}

void
BM_CookieEncode(benchmark::State &state)
{
	struct sctp_cookie_keys keys;
	sctp_cookie_keys_init(&keys, kKey, 0);
	struct sctp_cookie_state st = shape(state.range(0));
	uint8_t out[SCTP_COOKIE_MAX_LEN];
	size_t len = 0;
	uint64_t n = 0;
	unsigned long a0 = g_allocs;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		st.local_vtag++; // a new INIT each time
		len = sctp_cookie_encode(&keys, &st, out, sizeof(out));
		benchmark::DoNotOptimize(out);
		n++;
	}
	uint64_t cycles = bench_tsc() - t0;
	report(state, cycles, n, g_allocs - a0, len);
	if (len == 0)
		state.SkipWithError("encode failed");
	sctp_cookie_keys_fini(&keys);
}
BENCHMARK(BM_CookieEncode)->DenseRange(0, 2);

void
BM_CookieDecode(benchmark::State &state)
{
	struct sctp_cookie_keys keys;
	sctp_cookie_keys_init(&keys, kKey, 0);
	struct sctp_cookie_state st = shape(state.range(0));
	struct sctp_cookie_state got;
	uint8_t c[SCTP_COOKIE_MAX_LEN];
	size_t len = sctp_cookie_encode(&keys, &st, c, sizeof(c));
	uint64_t n = 0, bad = 0;
	unsigned long a0 = g_allocs;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		benchmark::DoNotOptimize(c);
		bad += sctp_cookie_decode(&keys, c, len, 2, &got, nullptr) != SCTP_COOKIE_OK;
		benchmark::DoNotOptimize(got);
		n++;
	}
	uint64_t cycles = bench_tsc() - t0;
	report(state, cycles, n, g_allocs - a0, len);
	if (bad)
		state.SkipWithError("decode failed");
	sctp_cookie_keys_fini(&keys);
}
BENCHMARK(BM_CookieDecode)->DenseRange(0, 2);

// A forged cookie costs the attacker's target one MAC, like a real one.
void
BM_CookieDecodeForged(benchmark::State &state)
{
	struct sctp_cookie_keys keys;
	sctp_cookie_keys_init(&keys, kKey, 0);
	struct sctp_cookie_state st = shape(state.range(0));
	struct sctp_cookie_state got;
	uint8_t c[SCTP_COOKIE_MAX_LEN];
	size_t len = sctp_cookie_encode(&keys, &st, c, sizeof(c));
	c[len - 1] ^= 1;
	uint64_t n = 0, ok = 0;
	unsigned long a0 = g_allocs;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		benchmark::DoNotOptimize(c);
		ok += sctp_cookie_decode(&keys, c, len, 2, &got, nullptr) != SCTP_COOKIE_BAD_MAC;
		n++;
	}
	uint64_t cycles = bench_tsc() - t0;
	report(state, cycles, n, g_allocs - a0, len);
	if (ok)
		state.SkipWithError("forgery accepted");
	sctp_cookie_keys_fini(&keys);
}
BENCHMARK(BM_CookieDecodeForged)->Arg(0);

// ---- HMAC-SHA256 strategies on one 100-byte message: two SHA-256 blocks
// in the inner hash, like the 79-byte body of an IPv4 cookie ----

constexpr size_t kMsgLen = 100;

void
hmac_report(benchmark::State &state, uint64_t cycles, uint64_t n, unsigned long allocs)
{
	state.counters["cycles"] = (double)cycles / (double)n;
	if (g_counting)
		state.counters["openssl_allocs"] = (double)allocs / (double)n;
	state.SetItemsProcessed((int64_t)n);
}

// What sctp/cookie.c does: the states after key^ipad and key^opad saved
// once; per MAC, two EVP_MD_CTX_copy_ex into one preallocated context.
void
BM_Hmac_PaddedStatesCopy(benchmark::State &state)
{
	uint8_t msg[kMsgLen] = {}, mac[32], inner[32], ipad[64] = {}, opad[64] = {};
	for (unsigned i = 0; i < 64; i++) {
		ipad[i] = (uint8_t)((i < sizeof(kKey) ? kKey[i] : 0) ^ 0x36);
		opad[i] = (uint8_t)((i < sizeof(kKey) ? kKey[i] : 0) ^ 0x5c);
	}
	EVP_MD *md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
	EVP_MD_CTX *in = EVP_MD_CTX_new(), *out = EVP_MD_CTX_new(), *work = EVP_MD_CTX_new();
	EVP_DigestInit_ex2(in, md, nullptr);
	EVP_DigestUpdate(in, ipad, sizeof(ipad));
	EVP_DigestInit_ex2(out, md, nullptr);
	EVP_DigestUpdate(out, opad, sizeof(opad));
	uint64_t n = 0;
	unsigned long a0 = g_allocs;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		msg[0] = (uint8_t)n;
		EVP_MD_CTX_copy_ex(work, in);
		EVP_DigestUpdate(work, msg, sizeof(msg));
		EVP_DigestFinal_ex(work, inner, nullptr);
		EVP_MD_CTX_copy_ex(work, out);
		EVP_DigestUpdate(work, inner, sizeof(inner));
		EVP_DigestFinal_ex(work, mac, nullptr);
		benchmark::DoNotOptimize(mac);
		n++;
	}
	hmac_report(state, bench_tsc() - t0, n, g_allocs - a0);
	EVP_MD_CTX_free(in);
	EVP_MD_CTX_free(out);
	EVP_MD_CTX_free(work);
	EVP_MD_free(md);
}
BENCHMARK(BM_Hmac_PaddedStatesCopy);

// Same arithmetic without saved states: both padded blocks hashed per MAC.
void
BM_Hmac_PaddedBlocksEachTime(benchmark::State &state)
{
	uint8_t msg[kMsgLen] = {}, mac[32], inner[32], ipad[64] = {}, opad[64] = {};
	for (unsigned i = 0; i < 64; i++) {
		ipad[i] = (uint8_t)((i < sizeof(kKey) ? kKey[i] : 0) ^ 0x36);
		opad[i] = (uint8_t)((i < sizeof(kKey) ? kKey[i] : 0) ^ 0x5c);
	}
	EVP_MD *md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
	EVP_MD_CTX *work = EVP_MD_CTX_new();
	uint64_t n = 0;
	unsigned long a0 = g_allocs;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		msg[0] = (uint8_t)n;
		EVP_DigestInit_ex2(work, md, nullptr);
		EVP_DigestUpdate(work, ipad, sizeof(ipad));
		EVP_DigestUpdate(work, msg, sizeof(msg));
		EVP_DigestFinal_ex(work, inner, nullptr);
		EVP_DigestInit_ex2(work, md, nullptr);
		EVP_DigestUpdate(work, opad, sizeof(opad));
		EVP_DigestUpdate(work, inner, sizeof(inner));
		EVP_DigestFinal_ex(work, mac, nullptr);
		benchmark::DoNotOptimize(mac);
		n++;
	}
	hmac_report(state, bench_tsc() - t0, n, g_allocs - a0);
	EVP_MD_CTX_free(work);
	EVP_MD_free(md);
}
BENCHMARK(BM_Hmac_PaddedBlocksEachTime);

EVP_MAC_CTX *
keyed_mac_ctx(EVP_MAC *mac)
{
	EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
	char digest[] = "SHA256";
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
		OSSL_PARAM_construct_end(),
	};
	EVP_MAC_init(ctx, kKey, sizeof(kKey), params);
	return ctx;
}

// One keyed EVP_MAC_CTX, re-initialised without a key before each MAC.
void
BM_Hmac_MacCtxReinit(benchmark::State &state)
{
	uint8_t msg[kMsgLen] = {}, out[32];
	EVP_MAC *mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
	EVP_MAC_CTX *ctx = keyed_mac_ctx(mac);
	uint64_t n = 0;
	unsigned long a0 = g_allocs;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		size_t len;
		msg[0] = (uint8_t)n;
		EVP_MAC_init(ctx, nullptr, 0, nullptr);
		EVP_MAC_update(ctx, msg, sizeof(msg));
		EVP_MAC_final(ctx, out, &len, sizeof(out));
		benchmark::DoNotOptimize(out);
		n++;
	}
	hmac_report(state, bench_tsc() - t0, n, g_allocs - a0);
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
}
BENCHMARK(BM_Hmac_MacCtxReinit);

// A keyed EVP_MAC_CTX duplicated for every MAC.
void
BM_Hmac_MacCtxDup(benchmark::State &state)
{
	uint8_t msg[kMsgLen] = {}, out[32];
	EVP_MAC *mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
	EVP_MAC_CTX *keyed = keyed_mac_ctx(mac);
	uint64_t n = 0;
	unsigned long a0 = g_allocs;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		size_t len;
		msg[0] = (uint8_t)n;
		EVP_MAC_CTX *ctx = EVP_MAC_CTX_dup(keyed);
		EVP_MAC_update(ctx, msg, sizeof(msg));
		EVP_MAC_final(ctx, out, &len, sizeof(out));
		EVP_MAC_CTX_free(ctx);
		benchmark::DoNotOptimize(out);
		n++;
	}
	hmac_report(state, bench_tsc() - t0, n, g_allocs - a0);
	EVP_MAC_CTX_free(keyed);
	EVP_MAC_free(mac);
}
BENCHMARK(BM_Hmac_MacCtxDup);

// The one-shot HMAC(): key schedule and method lookup every time.
void
BM_Hmac_OneShot(benchmark::State &state)
{
	uint8_t msg[kMsgLen] = {}, out[32];
	uint64_t n = 0;
	unsigned long a0 = g_allocs;
	uint64_t t0 = bench_tsc();
	for (auto _ : state) {
		unsigned int len;
		msg[0] = (uint8_t)n;
		HMAC(EVP_sha256(), kKey, (int)sizeof(kKey), msg, sizeof(msg), out, &len);
		benchmark::DoNotOptimize(out);
		n++;
	}
	hmac_report(state, bench_tsc() - t0, n, g_allocs - a0);
}
BENCHMARK(BM_Hmac_OneShot);

} // namespace

BENCHMARK_MAIN();
