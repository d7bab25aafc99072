// SPDX-License-Identifier: BSD-3-Clause
// drivers/impair: the seeded impairment stage.
//
// Every packet is a handle from one ledger shared by all tests: the ledger
// hands out handles, records bit flips, makes copies for duplication, and
// takes each handle back exactly once (popped, dropped or drained). A test
// ends with nothing live, and the whole run ends with as many handles
// released as were created.
//
// Rates are measured over 100,000 packets and must lie within 5 binomial
// standard deviations of the configured probability. The seed is fixed (42,
// or IMPAIR_TEST_SEED from the environment), so a run is reproducible; it is
// printed at start and in every statistical failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "drivers/impair/impair.h"
}

namespace {

constexpr uint64_t kUs = 1000;
constexpr uint64_t kMs = 1000 * kUs;
constexpr uint32_t kPackets = 100000;
constexpr double kSigmas = 5.0;

uint64_t
test_seed()
{
	const char *env = std::getenv("IMPAIR_TEST_SEED");

	return env != nullptr ? std::strtoull(env, nullptr, 0) : 42;
}

std::string
seed_note(uint64_t seed)
{
	return "seed=" + std::to_string(seed) +
	       " (rerun with IMPAIR_TEST_SEED=" + std::to_string(seed) + ")";
}

// Tolerance for a count of n Bernoulli(p) trials.
double
binomial_tolerance(double n, double p)
{
	return kSigmas * std::sqrt(n * p * (1 - p)) + 1;
}

struct Packet {
	uint32_t len = 0;
	uint64_t seq = 0;     // input position of the original
	uint64_t in_time = 0; // when it was pushed
	bool copy = false;
	std::vector<std::pair<uint32_t, uint8_t>> flips;
};

struct Ledger {
	std::map<uintptr_t, Packet> live;
	uintptr_t next = 1;
	uint64_t created = 0;
	uint64_t released = 0;
	bool fail_dup = false;

	uintptr_t make(uint32_t len, uint64_t seq, uint64_t in_time)
	{
		const uintptr_t h = next++;
		Packet &p = live[h];

		p.len = len;
		p.seq = seq;
		p.in_time = in_time;
		created++;
		return h;
	}

	// Returns the packet as it was; fails the test on an unknown handle.
	Packet release(uintptr_t h)
	{
		auto it = live.find(h);

		EXPECT_NE(it, live.end()) << "handle " << h << " released twice or never made";
		if (it == live.end())
			return Packet();
		Packet p = std::move(it->second);
		live.erase(it);
		released++;
		return p;
	}
};

Ledger ledger;

bool
ledger_dup(void *ctx, uintptr_t handle, uint32_t len, uintptr_t *copy)
{
	auto *l = static_cast<Ledger *>(ctx);
	auto it = l->live.find(handle);

	EXPECT_NE(it, l->live.end());
	if (l->fail_dup || it == l->live.end())
		return false;
	EXPECT_EQ(it->second.len, len);
	Packet orig = it->second;
	*copy = l->make(len, orig.seq, orig.in_time);
	Packet &c = l->live[*copy];
	c.copy = true;
	c.flips = orig.flips;
	return true;
}

void
ledger_corrupt(void *ctx, uintptr_t handle, uint32_t len, uint32_t offset, uint8_t bit)
{
	auto *l = static_cast<Ledger *>(ctx);
	auto it = l->live.find(handle);

	ASSERT_NE(it, l->live.end());
	EXPECT_EQ(it->second.len, len);
	EXPECT_LT(offset, len);
	EXPECT_LT(bit, 8);
	it->second.flips.emplace_back(offset, bit);
}

void
ledger_release(void *ctx, uintptr_t handle, uint32_t len)
{
	auto *l = static_cast<Ledger *>(ctx);
	Packet p = l->release(handle);

	EXPECT_EQ(p.len, len);
}

const impair_ops kOps = { ledger_dup, ledger_corrupt, &ledger };

// Printed once; checks at exit that every handle made was released.
class LedgerEnvironment : public ::testing::Environment {
      public:
	void SetUp() override
	{
		std::printf("impair_test: seed=%" PRIu64 "\n", test_seed());
	}

	void TearDown() override
	{
		EXPECT_TRUE(ledger.live.empty());
		EXPECT_EQ(ledger.created, ledger.released);
		std::printf("impair_test: %" PRIu64 " handles made, %" PRIu64 " released\n",
			    ledger.created, ledger.released);
	}
};

[[maybe_unused]] const ::testing::Environment *const ledger_env =
	::testing::AddGlobalTestEnvironment(new LedgerEnvironment);

// One packet out of the stage.
struct Out {
	uintptr_t handle;
	Packet pkt;
	uint64_t out_time;
};

struct Trace {
	std::vector<impair_verdict> verdicts; // per push
	std::vector<Out> out;		      // in pop order
};

// Field by field: memcmp would also compare padding.
bool
same_config(const impair_config &a, const impair_config &b)
{
	return a.loss_ppb == b.loss_ppb && a.burst_enter_ppb == b.burst_enter_ppb &&
	       a.burst_leave_ppb == b.burst_leave_ppb &&
	       a.burst_loss_bad_ppb == b.burst_loss_bad_ppb &&
	       a.burst_loss_good_ppb == b.burst_loss_good_ppb && a.dup_ppb == b.dup_ppb &&
	       a.reorder_ppb == b.reorder_ppb && a.reorder_gap == b.reorder_gap &&
	       a.reorder_delay_ns == b.reorder_delay_ns && a.delay_ns == b.delay_ns &&
	       a.jitter_ns == b.jitter_ns && a.jitter_reorders == b.jitter_reorders &&
	       a.corrupt_ppb == b.corrupt_ppb && a.corrupt_skip == b.corrupt_skip &&
	       a.rate_bytes_per_s == b.rate_bytes_per_s &&
	       a.rate_burst_bytes == b.rate_burst_bytes && a.rate_police == b.rate_police &&
	       a.limit == b.limit;
}

impair_config
zero_config()
{
	impair_config c;

	std::memset(&c, 0, sizeof(c));
	return c;
}

class ImpairTest : public ::testing::Test {
      protected:
	std::vector<uint64_t> mem;
	impair st{};
	uint64_t seed = test_seed();
	bool started = false;

	void start(const impair_config &cfg, uint32_t capacity = 4096, uint64_t s = test_seed())
	{
		seed = s;
		mem.assign(impair_storage_size(capacity) / sizeof(uint64_t) + 1, 0);
		ASSERT_EQ(0, impair_init(&st, &cfg, &kOps, s, capacity, mem.data(),
					 mem.size() * sizeof(uint64_t)));
		started = true;
	}

	void TearDown() override
	{
		if (!started)
			return;
		const uint32_t inside = impair_count(&st);
		EXPECT_EQ(inside, impair_drain(&st, ledger_release, &ledger));
		EXPECT_EQ(0u, impair_count(&st));
		EXPECT_EQ(IMPAIR_NEVER, impair_next_due(&st));
		const impair_counters *c = impair_counters_get(&st);
		uint64_t sum = 0;
		for (unsigned v = 0; v < IMPAIR_VERDICT_COUNT; v++)
			sum += c->verdicts[v];
		EXPECT_EQ(c->pushed, sum);
		EXPECT_EQ(c->verdicts[IMPAIR_QUEUED] + c->duplicated, c->popped + c->drained);
		EXPECT_TRUE(ledger.live.empty()) << ledger.live.size() << " handles leaked";
	}

	// Pop everything due at or before t, each at its due time.
	void pop_until(uint64_t t, Trace &tr)
	{
		uint64_t due;

		while ((due = impair_next_due(&st)) <= t && due != IMPAIR_NEVER) {
			uintptr_t h;
			uint32_t len;

			ASSERT_TRUE(impair_pop(&st, due, &h, &len));
			Packet p = ledger.release(h);
			EXPECT_EQ(p.len, len);
			tr.out.push_back(Out{ h, std::move(p), due });
		}
	}

	// Push one packet at t; a refused packet goes back to the ledger.
	impair_verdict push(uint32_t len, uint64_t seq, uint64_t t)
	{
		const uintptr_t h = ledger.make(len, seq, t);
		const impair_verdict v = impair_push(&st, h, len, t);

		if (v != IMPAIR_QUEUED)
			ledger.release(h);
		return v;
	}

	// n packets of len bytes, one every `spacing` ns from 0, popping on a
	// virtual clock; then time runs on until nothing more is due.
	Trace run(uint32_t n, uint64_t spacing, uint32_t len = 100)
	{
		Trace tr;

		for (uint32_t i = 0; i < n; i++) {
			const uint64_t t = i * spacing;

			pop_until(t, tr);
			tr.verdicts.push_back(push(len, i, t));
			pop_until(t, tr);
		}
		pop_until(IMPAIR_NEVER - 1, tr);
		return tr;
	}

	uint64_t count(impair_verdict v) const
	{
		return impair_counters_get(&st)->verdicts[v];
	}
};

// Inversions in a sequence (pairs out of order), by merge sort.
uint64_t
inversions(std::vector<uint64_t> v)
{
	std::vector<uint64_t> tmp(v.size());
	uint64_t inv = 0;

	for (size_t width = 1; width < v.size(); width *= 2) {
		for (size_t lo = 0; lo < v.size(); lo += 2 * width) {
			const size_t mid = std::min(lo + width, v.size());
			const size_t hi = std::min(lo + 2 * width, v.size());
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi) {
				if (v[j] < v[i]) {
					inv += mid - i;
					tmp[k++] = v[j++];
				} else {
					tmp[k++] = v[i++];
				}
			}
			while (i < mid)
				tmp[k++] = v[i++];
			while (j < hi)
				tmp[k++] = v[j++];
		}
		v.swap(tmp);
	}
	return inv;
}

std::vector<uint64_t>
out_seqs(const Trace &tr)
{
	std::vector<uint64_t> s;

	for (const Out &o : tr.out)
		s.push_back(o.pkt.seq);
	return s;
}

// ---- The generator ------------------------------------------------------

TEST(ImpairRng, XoshiroKnownAnswers)
{
	// The first outputs of xoshiro256** from the state {1, 2, 3, 4}.
	impair_rng r = { { 1, 2, 3, 4 } };

	EXPECT_EQ(11520u, impair_rng_next(&r));
	EXPECT_EQ(0u, impair_rng_next(&r));
	EXPECT_EQ(1509978240u, impair_rng_next(&r));
	EXPECT_EQ(1215971899390074240u, impair_rng_next(&r));
}

TEST(ImpairRng, SeedingIsSplitmix64OfTheMixedStream)
{
	// Worked out by hand from the definition: salt = splitmix64(stream),
	// state = four splitmix64 outputs from seed ^ salt.
	impair_rng r;

	impair_rng_seed(&r, 42, 0);
	EXPECT_EQ(0x1ff785474f113b15u, impair_rng_next(&r));
	EXPECT_EQ(0x4b7867ceff5d8325u, impair_rng_next(&r));
	EXPECT_EQ(0x90ca7a95a9909966u, impair_rng_next(&r));
}

TEST(ImpairRng, StreamsAndSeedsDiffer)
{
	impair_rng a, b, c;

	impair_rng_seed(&a, 7, 0);
	impair_rng_seed(&b, 7, 1);
	impair_rng_seed(&c, 8, 0);
	const uint64_t x = impair_rng_next(&a);
	EXPECT_NE(x, impair_rng_next(&b));
	EXPECT_NE(x, impair_rng_next(&c));
}

TEST(ImpairRng, BelowAndChanceBounds)
{
	impair_rng r;
	std::vector<uint32_t> hist(10, 0);

	impair_rng_seed(&r, test_seed(), 0);
	EXPECT_EQ(0u, impair_rng_below(&r, 0));
	for (int i = 0; i < 1000; i++) {
		EXPECT_EQ(0u, impair_rng_below(&r, 1));
		EXPECT_FALSE(impair_rng_chance(&r, 0));
		EXPECT_TRUE(impair_rng_chance(&r, IMPAIR_PPB_ONE));
	}
	for (uint32_t i = 0; i < kPackets; i++) {
		const uint64_t x = impair_rng_below(&r, 10);
		ASSERT_LT(x, 10u);
		hist[x]++;
	}
	for (uint32_t h : hist)
		EXPECT_NEAR(h, kPackets / 10.0, binomial_tolerance(kPackets, 0.1))
			<< seed_note(test_seed());
}

// ---- Zero configuration -------------------------------------------------

TEST_F(ImpairTest, AllZeroIsAFifoThatHoldsNothingBack)
{
	impair_config cfg = zero_config();

	EXPECT_TRUE(impair_config_is_zero(&cfg));
	start(cfg, 4);
	EXPECT_EQ(IMPAIR_NEVER, impair_next_due(&st));
	for (uint64_t i = 0; i < 1000; i++) {
		const uint64_t t = 10 + i * 3;
		uintptr_t h;
		uint32_t len;

		EXPECT_EQ(IMPAIR_QUEUED, push(static_cast<uint32_t>(i % 1500), i, t));
		EXPECT_EQ(IMPAIR_QUEUED, push(7, i, t));
		EXPECT_EQ(t, impair_next_due(&st));
		EXPECT_FALSE(impair_pop(&st, t - 1, &h, &len));
		ASSERT_TRUE(impair_pop(&st, t, &h, &len));
		Packet p = ledger.release(h);
		EXPECT_EQ(i, p.seq);
		EXPECT_EQ(i % 1500, len);
		EXPECT_FALSE(p.copy);
		ASSERT_TRUE(impair_pop(&st, t, &h, &len));
		EXPECT_EQ(7u, len);
		EXPECT_EQ(i, ledger.release(h).seq);
		EXPECT_EQ(IMPAIR_NEVER, impair_next_due(&st));
	}
	const impair_counters *c = impair_counters_get(&st);
	EXPECT_EQ(2000u, c->pushed);
	EXPECT_EQ(2000u, c->verdicts[IMPAIR_QUEUED]);
	EXPECT_EQ(2000u, c->popped);
	EXPECT_EQ(0u, c->duplicated + c->corrupted + c->held + c->burst_entered);
}

TEST_F(ImpairTest, TimeNeverGoesBack)
{
	start(zero_config());
	Trace tr;
	EXPECT_EQ(IMPAIR_QUEUED, push(10, 0, 100));
	EXPECT_EQ(IMPAIR_QUEUED, push(10, 1, 50)); // taken as 100
	EXPECT_EQ(100u, impair_next_due(&st));
	pop_until(100, tr);
	ASSERT_EQ(2u, tr.out.size());
	EXPECT_EQ(0u, tr.out[0].pkt.seq);
	EXPECT_EQ(1u, tr.out[1].pkt.seq);
}

// ---- Loss ---------------------------------------------------------------

class ImpairLossTest : public ImpairTest, public ::testing::WithParamInterface<double> {};

TEST_P(ImpairLossTest, UniformLossRate)
{
	const double pct = GetParam();
	impair_config cfg = zero_config();

	cfg.loss_ppb = IMPAIR_PCT(pct);
	start(cfg);
	Trace tr = run(kPackets, 1 * kUs);
	const double p = pct / 100;
	const uint64_t lost = count(IMPAIR_DROP_LOSS);

	EXPECT_NEAR(lost, kPackets * p, binomial_tolerance(kPackets, p)) << seed_note(seed);
	EXPECT_EQ(kPackets - lost, tr.out.size());
	EXPECT_EQ(lost, static_cast<uint64_t>(std::count(tr.verdicts.begin(), tr.verdicts.end(),
							 IMPAIR_DROP_LOSS)));
	EXPECT_EQ(0u, inversions(out_seqs(tr)));
}

INSTANTIATE_TEST_SUITE_P(Rates, ImpairLossTest, ::testing::Values(0.0, 0.1, 1.0, 5.0, 20.0, 100.0));

TEST_F(ImpairTest, GilbertElliottBurstLengthAndLossRate)
{
	const double enter = 0.01, leave = 0.30;
	impair_config cfg = zero_config();

	cfg.burst_enter_ppb = IMPAIR_PCT(1);
	cfg.burst_leave_ppb = IMPAIR_PCT(30);
	cfg.burst_loss_bad_ppb = IMPAIR_PPB_ONE;
	start(cfg);
	Trace tr = run(kPackets, 1 * kUs);

	// Runs of consecutive losses. The packet on which the chain leaves
	// the bad state is in the good state and passes, so two sojourns in
	// the bad state never merge: runs and entries match one for one.
	std::vector<uint64_t> runs;
	uint64_t cur = 0, lost = 0;
	for (impair_verdict v : tr.verdicts) {
		if (v == IMPAIR_DROP_BURST) {
			cur++;
			lost++;
		} else if (cur != 0) {
			runs.push_back(cur);
			cur = 0;
		}
	}
	if (cur != 0)
		runs.push_back(cur);
	EXPECT_EQ(runs.size(), impair_counters_get(&st)->burst_entered);
	ASSERT_GT(runs.size(), 500u);

	// Sojourns are geometric: mean 1/leave, variance (1-leave)/leave^2.
	double sum = 0;
	for (uint64_t r : runs)
		sum += static_cast<double>(r);
	const double mean = sum / static_cast<double>(runs.size());
	const double se =
		std::sqrt(1 - leave) / leave / std::sqrt(static_cast<double>(runs.size()));
	EXPECT_NEAR(mean, 1 / leave, kSigmas * se) << seed_note(seed);

	// Long-run loss: pi_bad = enter / (enter + leave); the chain's
	// correlation (lambda = 1 - enter - leave) widens the binomial spread
	// by (1 + lambda) / (1 - lambda).
	const double pi = enter / (enter + leave);
	const double lambda = 1 - enter - leave;
	const double sd = std::sqrt(kPackets * pi * (1 - pi) * (1 + lambda) / (1 - lambda));
	EXPECT_NEAR(lost, kPackets * pi, kSigmas * sd) << seed_note(seed);
	EXPECT_EQ(lost, count(IMPAIR_DROP_BURST));
}

TEST_F(ImpairTest, GilbertElliottGoodStateLoss)
{
	// Never entering the bad state, the chain is uniform loss at the
	// good state's rate.
	impair_config cfg = zero_config();

	cfg.burst_loss_good_ppb = IMPAIR_PCT(2);
	start(cfg);
	run(kPackets, 1 * kUs);
	EXPECT_NEAR(count(IMPAIR_DROP_BURST), kPackets * 0.02, binomial_tolerance(kPackets, 0.02))
		<< seed_note(seed);
	EXPECT_EQ(0u, impair_counters_get(&st)->burst_entered);
}

TEST_F(ImpairTest, LossStreamsDoNotDependOnOtherKnobs)
{
	// Same seed: the packets lost are the same whether or not the other
	// knobs draw from their own streams.
	impair_config plain = zero_config();
	plain.loss_ppb = IMPAIR_PCT(5);
	plain.burst_enter_ppb = IMPAIR_PCT(0.5);
	plain.burst_leave_ppb = IMPAIR_PCT(40);
	plain.burst_loss_bad_ppb = IMPAIR_PPB_ONE;
	impair_config busy = plain;
	busy.dup_ppb = IMPAIR_PCT(10);
	busy.reorder_ppb = IMPAIR_PCT(10);
	busy.reorder_delay_ns = 30 * kUs;
	busy.delay_ns = 10 * kUs;
	busy.jitter_ns = 5 * kUs;
	busy.corrupt_ppb = IMPAIR_PCT(10);

	start(plain);
	const Trace a = run(20000, 1 * kUs);
	TearDown();
	start(busy);
	const Trace b = run(20000, 1 * kUs);
	EXPECT_EQ(a.verdicts, b.verdicts) << seed_note(seed);
}

// ---- Duplication and corruption ----------------------------------------

TEST_F(ImpairTest, DuplicationRate)
{
	impair_config cfg = zero_config();

	cfg.dup_ppb = IMPAIR_PCT(1);
	start(cfg);
	Trace tr = run(kPackets, 1 * kUs);
	const uint64_t dups = impair_counters_get(&st)->duplicated;

	EXPECT_NEAR(dups, kPackets * 0.01, binomial_tolerance(kPackets, 0.01)) << seed_note(seed);
	EXPECT_EQ(kPackets + dups, tr.out.size());
	// With no delay a copy leaves right behind its original.
	for (size_t i = 0; i < tr.out.size(); i++) {
		if (!tr.out[i].pkt.copy)
			continue;
		ASSERT_GT(i, 0u);
		EXPECT_EQ(tr.out[i - 1].pkt.seq, tr.out[i].pkt.seq);
		EXPECT_FALSE(tr.out[i - 1].pkt.copy);
	}
}

TEST_F(ImpairTest, FailedDuplicationIsSkippedAndCounted)
{
	impair_config cfg = zero_config();

	cfg.dup_ppb = IMPAIR_PCT(50);
	start(cfg);
	ledger.fail_dup = true;
	Trace tr = run(1000, 1 * kUs);
	ledger.fail_dup = false;
	const impair_counters *c = impair_counters_get(&st);
	EXPECT_EQ(0u, c->duplicated);
	EXPECT_NEAR(c->dup_failed, 500, binomial_tolerance(1000, 0.5)) << seed_note(seed);
	EXPECT_EQ(1000u, tr.out.size());
}

TEST_F(ImpairTest, CorruptionRateOffsetsAndBits)
{
	impair_config cfg = zero_config();
	const uint32_t skip = 14, len = 100;

	cfg.corrupt_ppb = IMPAIR_PCT(1);
	cfg.corrupt_skip = skip;
	start(cfg);
	Trace tr = run(kPackets, 1 * kUs, len);
	uint64_t flipped = 0;
	uint32_t lo = len, hi = 0;
	std::vector<uint32_t> bits(8, 0);
	for (const Out &o : tr.out) {
		flipped += o.pkt.flips.size();
		for (auto [off, bit] : o.pkt.flips) {
			lo = std::min(lo, off);
			hi = std::max(hi, off);
			bits[bit]++;
		}
	}
	EXPECT_EQ(flipped, impair_counters_get(&st)->corrupted);
	EXPECT_NEAR(flipped, kPackets * 0.01, binomial_tolerance(kPackets, 0.01))
		<< seed_note(seed);
	// ~1000 uniform offsets over 86 bytes: both ends are reached.
	EXPECT_EQ(skip, lo);
	EXPECT_EQ(len - 1, hi);
	for (uint32_t b : bits)
		EXPECT_GT(b, 0u);
}

TEST_F(ImpairTest, PacketsNoLongerThanTheSkipAreNeverCorrupted)
{
	impair_config cfg = zero_config();

	cfg.corrupt_ppb = IMPAIR_PPB_ONE;
	cfg.corrupt_skip = 60;
	start(cfg);
	Trace tr = run(100, 1 * kUs, 60);
	EXPECT_EQ(0u, impair_counters_get(&st)->corrupted);
	for (const Out &o : tr.out)
		EXPECT_TRUE(o.pkt.flips.empty());
}

TEST_F(ImpairTest, CopiesCarryTheOriginalsCorruption)
{
	impair_config cfg = zero_config();

	cfg.corrupt_ppb = IMPAIR_PPB_ONE;
	cfg.dup_ppb = IMPAIR_PPB_ONE;
	start(cfg);
	Trace tr = run(100, 1 * kUs, 1200);
	ASSERT_EQ(200u, tr.out.size());
	for (size_t i = 0; i < tr.out.size(); i += 2) {
		EXPECT_FALSE(tr.out[i].pkt.copy);
		EXPECT_TRUE(tr.out[i + 1].pkt.copy);
		ASSERT_EQ(1u, tr.out[i].pkt.flips.size());
		EXPECT_EQ(tr.out[i].pkt.flips, tr.out[i + 1].pkt.flips);
	}
	EXPECT_EQ(100u, impair_counters_get(&st)->corrupted);
}

// ---- Delay, jitter and reordering ----------------------------------------

TEST_F(ImpairTest, FixedDelay)
{
	impair_config cfg = zero_config();

	cfg.delay_ns = 250 * kUs;
	start(cfg);
	Trace tr = run(10000, 3 * kUs);
	ASSERT_EQ(10000u, tr.out.size());
	for (const Out &o : tr.out)
		EXPECT_EQ(o.pkt.in_time + 250 * kUs, o.out_time);
	EXPECT_EQ(0u, inversions(out_seqs(tr)));
}

TEST_F(ImpairTest, JitterBoundsKeepingOrder)
{
	impair_config cfg = zero_config();

	cfg.delay_ns = 100 * kUs;
	cfg.jitter_ns = 20 * kUs;
	start(cfg);
	Trace tr = run(kPackets, 1 * kUs);
	ASSERT_EQ(kPackets, tr.out.size());
	uint64_t prev = 0;
	for (const Out &o : tr.out) {
		const uint64_t lat = o.out_time - o.pkt.in_time;
		EXPECT_GE(lat, 100 * kUs);
		EXPECT_LE(lat, 120 * kUs);
		EXPECT_GE(o.out_time, prev);
		prev = o.out_time;
	}
	EXPECT_EQ(0u, inversions(out_seqs(tr))) << seed_note(seed);
}

TEST_F(ImpairTest, JitterBoundsAndSpreadWhenReorderingAllowed)
{
	impair_config cfg = zero_config();

	cfg.delay_ns = 100 * kUs;
	cfg.jitter_ns = 20 * kUs;
	cfg.jitter_reorders = true;
	start(cfg);
	Trace tr = run(kPackets, 1 * kUs);
	ASSERT_EQ(kPackets, tr.out.size());
	double sum = 0;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (const Out &o : tr.out) {
		const uint64_t lat = o.out_time - o.pkt.in_time;
		lo = std::min(lo, lat);
		hi = std::max(hi, lat);
		sum += static_cast<double>(lat);
	}
	EXPECT_GE(lo, 100 * kUs);
	EXPECT_LE(hi, 120 * kUs);
	// Uniform on [100us, 120us]: mean 110us, sd 20us/sqrt(12).
	const double sd_mean = 20.0 * kUs / std::sqrt(12.0) / std::sqrt(double(kPackets));
	EXPECT_NEAR(sum / kPackets, 110.0 * kUs, kSigmas * sd_mean) << seed_note(seed);
	EXPECT_LT(lo, 100 * kUs + 100);
	EXPECT_GT(hi, 120 * kUs - 100);
	EXPECT_GT(inversions(out_seqs(tr)), 0u);
}

TEST_F(ImpairTest, HeldPacketLeavesAfterItsGap)
{
	// A held, then (knob off) B C D E: with a gap of 2, A leaves right
	// behind C.
	impair_config cfg = zero_config();

	cfg.reorder_ppb = IMPAIR_PPB_ONE;
	cfg.reorder_gap = 2;
	start(cfg);
	Trace tr;
	EXPECT_EQ(IMPAIR_QUEUED, push(10, 0, 0));
	EXPECT_EQ(IMPAIR_NEVER, impair_next_due(&st)); // held, no delay: waits for followers
	cfg.reorder_ppb = 0;
	ASSERT_EQ(0, impair_set_config(&st, &cfg));
	for (uint64_t i = 1; i <= 4; i++) {
		EXPECT_EQ(IMPAIR_QUEUED, push(10, i, i * kUs));
		pop_until(i * kUs, tr);
	}
	std::vector<uint64_t> want = { 1, 2, 0, 3, 4 };
	EXPECT_EQ(want, out_seqs(tr));
	EXPECT_EQ(2 * kUs, tr.out[2].out_time);
	EXPECT_EQ(1u, impair_counters_get(&st)->held);
}

TEST_F(ImpairTest, HeldPacketLeavesAtItsDelayWhenFollowersDoNotCome)
{
	impair_config cfg = zero_config();

	cfg.reorder_ppb = IMPAIR_PPB_ONE;
	cfg.reorder_gap = 3;
	cfg.reorder_delay_ns = 40 * kUs;
	cfg.delay_ns = 10 * kUs;
	start(cfg);
	Trace tr;
	EXPECT_EQ(IMPAIR_QUEUED, push(10, 0, 0));
	EXPECT_EQ(50 * kUs, impair_next_due(&st));
	cfg.reorder_ppb = 0;
	ASSERT_EQ(0, impair_set_config(&st, &cfg));
	EXPECT_EQ(IMPAIR_QUEUED, push(10, 1, 5 * kUs));
	pop_until(IMPAIR_NEVER - 1, tr);
	std::vector<uint64_t> want = { 1, 0 };
	EXPECT_EQ(want, out_seqs(tr));
	EXPECT_EQ(15 * kUs, tr.out[0].out_time);
	EXPECT_EQ(50 * kUs, tr.out[1].out_time);
}

TEST_F(ImpairTest, ReorderingByGapReordersAndReleasesEverything)
{
	// Zero delay, gap K: each held packet is overtaken by exactly the K
	// packets not held that were queued after it, so the output has
	// exactly K inversions per held packet that left by its gap. The few
	// still waiting at the end (no followers) come back from drain.
	const uint32_t gap = 3;
	impair_config cfg = zero_config();

	cfg.reorder_ppb = IMPAIR_PCT(2);
	cfg.reorder_gap = gap;
	start(cfg);
	Trace tr = run(kPackets, 1 * kUs);
	const uint64_t held = impair_counters_get(&st)->held;
	const uint32_t waiting = impair_count(&st);

	EXPECT_NEAR(held, kPackets * 0.02, binomial_tolerance(kPackets, 0.02)) << seed_note(seed);
	EXPECT_LE(waiting, 2 * gap);
	EXPECT_EQ(kPackets, tr.out.size() + waiting);
	EXPECT_EQ(gap * (held - waiting), inversions(out_seqs(tr))) << seed_note(seed);
	EXPECT_EQ(waiting, impair_drain(&st, ledger_release, &ledger));
}

TEST_F(ImpairTest, ReorderingByDelay)
{
	impair_config cfg = zero_config();

	cfg.reorder_ppb = IMPAIR_PCT(10);
	cfg.reorder_delay_ns = 50 * kUs;
	start(cfg);
	Trace tr = run(kPackets, 1 * kUs);
	ASSERT_EQ(kPackets, tr.out.size());
	uint64_t late = 0;
	for (const Out &o : tr.out) {
		const uint64_t lat = o.out_time - o.pkt.in_time;
		EXPECT_TRUE(lat == 0 || lat == 50 * kUs) << lat;
		late += lat != 0;
	}
	EXPECT_EQ(late, impair_counters_get(&st)->held);
	EXPECT_NEAR(late, kPackets * 0.1, binomial_tolerance(kPackets, 0.1)) << seed_note(seed);
	EXPECT_GT(inversions(out_seqs(tr)), 0u);
}

TEST_F(ImpairTest, ReorderingOnTopOfDelayAndJitterKeepsEveryPacket)
{
	impair_config cfg = zero_config();

	cfg.reorder_ppb = IMPAIR_PCT(5);
	cfg.reorder_gap = 4;
	cfg.reorder_delay_ns = 200 * kUs;
	cfg.delay_ns = 100 * kUs;
	cfg.jitter_ns = 30 * kUs;
	cfg.dup_ppb = IMPAIR_PCT(3);
	start(cfg);
	Trace tr = run(kPackets, 1 * kUs);
	EXPECT_EQ(kPackets + impair_counters_get(&st)->duplicated, tr.out.size());
	EXPECT_EQ(0u, impair_count(&st));
	for (const Out &o : tr.out) {
		const uint64_t lat = o.out_time - o.pkt.in_time;
		EXPECT_GE(lat, 100 * kUs);
		EXPECT_LE(lat, 330 * kUs);
	}
}

// ---- Queue bound and rate limit -----------------------------------------

TEST_F(ImpairTest, FullQueueDropsTheNewest)
{
	impair_config cfg = zero_config();

	cfg.delay_ns = 1 * kMs;
	start(cfg, 8);
	for (uint64_t i = 0; i < 20; i++)
		EXPECT_EQ(i < 8 ? IMPAIR_QUEUED : IMPAIR_DROP_QUEUE_FULL, push(10, i, i));
	EXPECT_EQ(8u, impair_count(&st));
	EXPECT_EQ(12u, count(IMPAIR_DROP_QUEUE_FULL));
	Trace tr;
	pop_until(IMPAIR_NEVER - 1, tr);
	std::vector<uint64_t> want = { 0, 1, 2, 3, 4, 5, 6, 7 };
	EXPECT_EQ(want, out_seqs(tr));
}

TEST_F(ImpairTest, LimitBelowCapacity)
{
	impair_config cfg = zero_config();

	cfg.delay_ns = 1 * kMs;
	cfg.limit = 3;
	start(cfg, 8);
	for (uint64_t i = 0; i < 5; i++)
		push(10, i, 0);
	EXPECT_EQ(3u, impair_count(&st));
	EXPECT_EQ(2u, count(IMPAIR_DROP_QUEUE_FULL));
	// Raising the limit at run time lets more in.
	cfg.limit = 0;
	ASSERT_EQ(0, impair_set_config(&st, &cfg));
	EXPECT_EQ(IMPAIR_QUEUED, push(10, 5, 0));
	EXPECT_EQ(4u, impair_count(&st));
}

TEST_F(ImpairTest, CopyWithoutRoomIsSkipped)
{
	impair_config cfg = zero_config();

	cfg.delay_ns = 1 * kMs;
	cfg.dup_ppb = IMPAIR_PPB_ONE;
	start(cfg, 3);
	EXPECT_EQ(IMPAIR_QUEUED, push(10, 0, 0)); // and its copy
	EXPECT_EQ(IMPAIR_QUEUED, push(10, 1, 0)); // no room for the copy
	EXPECT_EQ(IMPAIR_DROP_QUEUE_FULL, push(10, 2, 0));
	const impair_counters *c = impair_counters_get(&st);
	EXPECT_EQ(1u, c->duplicated);
	EXPECT_EQ(1u, c->dup_no_room);
	EXPECT_EQ(3u, impair_count(&st));
}

TEST_F(ImpairTest, ShaperSpacesPacketsAtTheRate)
{
	// 1 MB/s, 1000-byte packets: one every millisecond, the first at
	// once (the bucket starts full), in order, none dropped.
	impair_config cfg = zero_config();

	cfg.rate_bytes_per_s = 1000000;
	start(cfg, 100);
	for (uint64_t i = 0; i < 100; i++)
		EXPECT_EQ(IMPAIR_QUEUED, push(1000, i, 0));
	Trace tr;
	pop_until(IMPAIR_NEVER - 1, tr);
	ASSERT_EQ(100u, tr.out.size());
	for (uint64_t i = 0; i < 100; i++) {
		EXPECT_EQ(i, tr.out[i].pkt.seq);
		EXPECT_EQ(i * kMs, tr.out[i].out_time);
	}
}

TEST_F(ImpairTest, ShaperBurstThenRateThenDelay)
{
	impair_config cfg = zero_config();

	cfg.rate_bytes_per_s = 1000000;
	cfg.rate_burst_bytes = 5000;
	cfg.delay_ns = 7 * kUs;
	start(cfg, 100);
	for (uint64_t i = 0; i < 10; i++)
		push(1000, i, 0);
	Trace tr;
	pop_until(IMPAIR_NEVER - 1, tr);
	ASSERT_EQ(10u, tr.out.size());
	for (uint64_t i = 0; i < 10; i++)
		EXPECT_EQ((i < 5 ? 0 : (i - 4) * kMs) + 7 * kUs, tr.out[i].out_time) << i;
}

TEST_F(ImpairTest, ShaperLongRunRateIsExact)
{
	// Odd sizes at an odd rate: fractions of a nanosecond carry over, so
	// the last packet leaves when the bytes before it have drained at the
	// rate, to within one nanosecond per packet of rounding up.
	impair_config cfg = zero_config();
	const uint64_t rate = 1234567;

	cfg.rate_bytes_per_s = rate;
	start(cfg, 1000);
	uint64_t bytes = 0;
	for (uint64_t i = 0; i < 1000; i++) {
		const uint32_t len = 40 + static_cast<uint32_t>(i * 7919 % 1460);
		if (i != 0)
			bytes += len;
		push(len, i, 0);
	}
	Trace tr;
	pop_until(IMPAIR_NEVER - 1, tr);
	ASSERT_EQ(1000u, tr.out.size());
	const double ideal = static_cast<double>(bytes) * 1e9 / static_cast<double>(rate);
	EXPECT_GE(static_cast<double>(tr.out.back().out_time), ideal - 1);
	EXPECT_LE(static_cast<double>(tr.out.back().out_time), ideal + 1);
}

TEST_F(ImpairTest, PolicerDropsWhatExceedsTheRate)
{
	// Offered twice the rate, one packet's worth of burst: every other
	// packet finds the bucket half full and is dropped.
	impair_config cfg = zero_config();

	cfg.rate_bytes_per_s = 1000000;
	cfg.rate_burst_bytes = 1000;
	cfg.rate_police = true;
	start(cfg);
	Trace tr = run(1000, 500 * kUs, 1000);
	EXPECT_EQ(500u, count(IMPAIR_DROP_RATE));
	EXPECT_EQ(500u, tr.out.size());
	for (size_t i = 0; i < tr.verdicts.size(); i++)
		EXPECT_EQ(i % 2 == 0 ? IMPAIR_QUEUED : IMPAIR_DROP_RATE, tr.verdicts[i]) << i;
}

// ---- Determinism ----------------------------------------------------------

impair_config
everything()
{
	impair_config cfg = zero_config();

	cfg.loss_ppb = IMPAIR_PCT(2);
	cfg.burst_enter_ppb = IMPAIR_PCT(0.5);
	cfg.burst_leave_ppb = IMPAIR_PCT(25);
	cfg.burst_loss_bad_ppb = IMPAIR_PCT(90);
	cfg.burst_loss_good_ppb = IMPAIR_PCT(0.1);
	cfg.dup_ppb = IMPAIR_PCT(2);
	cfg.reorder_ppb = IMPAIR_PCT(3);
	cfg.reorder_gap = 2;
	cfg.reorder_delay_ns = 80 * kUs;
	cfg.delay_ns = 50 * kUs;
	cfg.jitter_ns = 20 * kUs;
	cfg.jitter_reorders = true;
	cfg.corrupt_ppb = IMPAIR_PCT(1);
	cfg.corrupt_skip = 20;
	cfg.rate_bytes_per_s = 200000000;
	cfg.rate_burst_bytes = 3000;
	cfg.limit = 500;
	return cfg;
}

struct Event {
	impair_verdict verdict;
	uint64_t seq, out_time;
	bool copy;
	std::vector<std::pair<uint32_t, uint8_t>> flips;
	bool operator==(const Event &o) const
	{
		return verdict == o.verdict && seq == o.seq && out_time == o.out_time &&
		       copy == o.copy && flips == o.flips;
	}
};

std::vector<Event>
flatten(const Trace &tr)
{
	std::vector<Event> e;

	for (impair_verdict v : tr.verdicts)
		e.push_back(Event{ v, 0, 0, false, {} });
	for (const Out &o : tr.out)
		e.push_back(Event{ IMPAIR_QUEUED, o.pkt.seq, o.out_time, o.pkt.copy, o.pkt.flips });
	return e;
}

TEST_F(ImpairTest, SameSeedSameRunOtherSeedOtherRun)
{
	const uint64_t s = test_seed();

	start(everything(), 4096, s);
	const std::vector<Event> a = flatten(run(20000, 1 * kUs, 700));
	const impair_counters ca = *impair_counters_get(&st);
	TearDown();
	start(everything(), 4096, s);
	const std::vector<Event> b = flatten(run(20000, 1 * kUs, 700));
	EXPECT_EQ(impair_seed(&st), s);
	EXPECT_TRUE(a == b) << seed_note(s);
	EXPECT_EQ(0, std::memcmp(&ca, impair_counters_get(&st), sizeof(ca)));
	TearDown();
	start(everything(), 4096, s + 1);
	const std::vector<Event> c = flatten(run(20000, 1 * kUs, 700));
	EXPECT_FALSE(a == c) << seed_note(s);
	// Every knob did something.
	const impair_counters *cc = impair_counters_get(&st);
	EXPECT_GT(cc->verdicts[IMPAIR_DROP_LOSS], 0u);
	EXPECT_GT(cc->verdicts[IMPAIR_DROP_BURST], 0u);
	EXPECT_GT(cc->duplicated, 0u);
	EXPECT_GT(cc->held, 0u);
	EXPECT_GT(cc->corrupted, 0u);
}

// ---- Drain --------------------------------------------------------------

TEST_F(ImpairTest, DrainReturnsEveryHandleOnce)
{
	impair_config cfg = everything();

	cfg.delay_ns = 10 * kMs; // nothing leaves during the pushes
	cfg.reorder_delay_ns = 0;
	start(cfg, 300);
	uint64_t queued = 0;
	for (uint64_t i = 0; i < 1000; i++)
		queued += push(500, i, i * kUs) == IMPAIR_QUEUED;
	const uint32_t inside = impair_count(&st);
	EXPECT_EQ(queued + impair_counters_get(&st)->duplicated, inside);
	EXPECT_LE(inside, 300u);
	const size_t live_before = ledger.live.size();
	EXPECT_EQ(inside, impair_drain(&st, ledger_release, &ledger));
	EXPECT_EQ(live_before - inside, ledger.live.size());
	EXPECT_EQ(0u, impair_count(&st));
	EXPECT_EQ(IMPAIR_NEVER, impair_next_due(&st));
	// Usable again afterwards.
	Trace tr = run(100, 1 * kUs);
	EXPECT_EQ(impair_counters_get(&st)->popped, tr.out.size());
	impair_drain(&st, ledger_release, &ledger);
	EXPECT_EQ(0u, impair_count(&st));
}

TEST_F(ImpairTest, PopBurst)
{
	impair_config cfg = zero_config();

	cfg.delay_ns = 5;
	start(cfg);
	for (uint64_t i = 0; i < 10; i++)
		push(64, i, 0);
	uintptr_t h[4];
	uint32_t len[4];
	EXPECT_EQ(0u, impair_pop_burst(&st, 4, h, len, 4));
	for (unsigned round = 0; round < 3; round++) {
		const unsigned n = impair_pop_burst(&st, 5, h, len, 4);
		EXPECT_EQ(round < 2 ? 4u : 2u, n);
		for (unsigned i = 0; i < n; i++) {
			EXPECT_EQ(round * 4 + i, ledger.release(h[i]).seq);
			EXPECT_EQ(64u, len[i]);
		}
	}
}

// ---- Configuration ------------------------------------------------------

TEST(ImpairInit, RefusesBadArguments)
{
	impair st;
	impair_config cfg = zero_config();
	alignas(8) static unsigned char mem[4096 + 8];
	const size_t need = impair_storage_size(16);
	const impair_ops no_ops = { nullptr, nullptr, nullptr };

	ASSERT_LE(need, 4096u);
	EXPECT_EQ(0, impair_init(&st, &cfg, nullptr, 1, 16, mem, need));
	EXPECT_EQ(-EINVAL, impair_init(&st, &cfg, nullptr, 1, 16, mem, need - 1));
	EXPECT_EQ(-EINVAL, impair_init(&st, &cfg, nullptr, 1, 16, mem + 4, need));
	EXPECT_EQ(-EINVAL, impair_init(&st, &cfg, nullptr, 1, 0, mem, need));
	EXPECT_EQ(-EINVAL, impair_init(&st, &cfg, nullptr, 1, 16, nullptr, need));
	cfg.dup_ppb = 1;
	EXPECT_EQ(-EINVAL, impair_init(&st, &cfg, &no_ops, 1, 16, mem, need));
	cfg.dup_ppb = 0;
	cfg.corrupt_ppb = 1;
	EXPECT_EQ(-EINVAL, impair_init(&st, &cfg, nullptr, 1, 16, mem, need));
	EXPECT_EQ(0, impair_init(&st, &cfg, &kOps, 1, 16, mem, need));
	cfg.corrupt_ppb = 0;
	cfg.loss_ppb = IMPAIR_PPB_ONE + 1;
	EXPECT_EQ(-EINVAL, impair_init(&st, &cfg, nullptr, 1, 16, mem, need));
	EXPECT_EQ(-EINVAL, impair_set_config(&st, &cfg));
}

TEST(ImpairConfig, CheckMessages)
{
	impair_config cfg = zero_config();
	char err[200];

	EXPECT_EQ(0, impair_config_check(&cfg, err, sizeof(err)));
	cfg.reorder_ppb = IMPAIR_PPB_ONE + 5;
	EXPECT_EQ(-EINVAL, impair_config_check(&cfg, err, sizeof(err)));
	EXPECT_STREQ("reorder_ppb is 1000000005, above 100% (1000000000)", err);
	cfg = zero_config();
	cfg.burst_enter_ppb = 1;
	EXPECT_EQ(-EINVAL, impair_config_check(&cfg, err, sizeof(err)));
	EXPECT_STREQ("burst_loss_bad_ppb and burst_loss_good_ppb are both 0: "
		     "burst loss would lose nothing",
		     err);
	cfg = zero_config();
	cfg.rate_bytes_per_s = 10000000000001ull;
	EXPECT_EQ(-EINVAL, impair_config_check(&cfg, err, sizeof(err)));
	EXPECT_STREQ("rate_bytes_per_s is 10000000000001, above 10^13 (80 Tbit/s)", err);
	EXPECT_EQ(-EINVAL, impair_config_check(nullptr, nullptr, 0));
}

TEST(ImpairConfig, NamesOfVerdictsAndCounters)
{
	EXPECT_STREQ("queued", impair_verdict_name(IMPAIR_QUEUED));
	EXPECT_STREQ("loss", impair_verdict_name(IMPAIR_DROP_LOSS));
	EXPECT_STREQ("burst", impair_verdict_name(IMPAIR_DROP_BURST));
	EXPECT_STREQ("queue_full", impair_verdict_name(IMPAIR_DROP_QUEUE_FULL));
	EXPECT_STREQ("rate", impair_verdict_name(IMPAIR_DROP_RATE));
	EXPECT_STREQ("unknown", impair_verdict_name(IMPAIR_VERDICT_COUNT));
	for (unsigned v = 0; v < IMPAIR_VERDICT_COUNT; v++)
		EXPECT_GT(std::strlen(impair_verdict_describe(static_cast<impair_verdict>(v))),
			  10u);

	impair_counters c;
	std::memset(&c, 0, sizeof(c));
	c.verdicts[IMPAIR_DROP_RATE] = 3;
	c.held = 11;
	c.drained = 17;
	std::map<std::string, uint64_t> by_name;
	for (unsigned i = 0; i < impair_counter_count(); i++)
		by_name[impair_counter_name(i)] = impair_counter_value(&c, i);
	EXPECT_EQ(impair_counter_count(), by_name.size()); // names are unique
	EXPECT_EQ(3u, by_name["rate"]);
	EXPECT_EQ(11u, by_name["held"]);
	EXPECT_EQ(17u, by_name["drained"]);
	EXPECT_EQ(0u, by_name["pushed"]);
	EXPECT_STREQ("unknown", impair_counter_name(impair_counter_count()));
	EXPECT_EQ(0u, impair_counter_value(&c, impair_counter_count()));
}

// ---- Parse and format -----------------------------------------------------

TEST(ImpairParse, TheBriefsExample)
{
	impair_config cfg;
	uint64_t seed = 7;
	char err[300] = "";

	ASSERT_EQ(0, impair_parse("loss=1%,dup=0.5%,reorder=1%,delay=100us,jitter=20us,"
				  "burst=0.1%/30%,corrupt=0.01%,seed=42",
				  &cfg, &seed, err, sizeof(err)))
		<< err;
	EXPECT_EQ(42u, seed);
	EXPECT_EQ(10000000u, cfg.loss_ppb);
	EXPECT_EQ(5000000u, cfg.dup_ppb);
	EXPECT_EQ(10000000u, cfg.reorder_ppb);
	EXPECT_EQ(0u, cfg.reorder_gap);
	EXPECT_EQ(100 * kUs, cfg.delay_ns);
	EXPECT_EQ(20 * kUs, cfg.jitter_ns);
	EXPECT_EQ(1000000u, cfg.burst_enter_ppb);
	EXPECT_EQ(300000000u, cfg.burst_leave_ppb);
	EXPECT_EQ(IMPAIR_PPB_ONE, cfg.burst_loss_bad_ppb);
	EXPECT_EQ(0u, cfg.burst_loss_good_ppb);
	EXPECT_EQ(100000u, cfg.corrupt_ppb);
	EXPECT_FALSE(cfg.jitter_reorders);
	EXPECT_EQ(0u, cfg.rate_bytes_per_s);
}

TEST(ImpairParse, EveryKnob)
{
	impair_config cfg;
	uint64_t seed = 7;
	char err[300] = "";

	ASSERT_EQ(0, impair_parse("reorder_gap=4,reorder_delay=1.5ms,jitter_reorder=1,"
				  "corrupt_skip=34,rate=10Gbit,rate_burst=64000,rate_police=1,"
				  "limit=1024,burst=1%/20%/80%/0.25%,loss=0.05,seed=0xDEADbeef",
				  &cfg, &seed, err, sizeof(err)))
		<< err;
	EXPECT_EQ(4u, cfg.reorder_gap);
	EXPECT_EQ(1500 * kUs, cfg.reorder_delay_ns);
	EXPECT_TRUE(cfg.jitter_reorders);
	EXPECT_EQ(34u, cfg.corrupt_skip);
	EXPECT_EQ(1250000000u, cfg.rate_bytes_per_s);
	EXPECT_EQ(64000u, cfg.rate_burst_bytes);
	EXPECT_TRUE(cfg.rate_police);
	EXPECT_EQ(1024u, cfg.limit);
	EXPECT_EQ(10000000u, cfg.burst_enter_ppb);
	EXPECT_EQ(200000000u, cfg.burst_leave_ppb);
	EXPECT_EQ(800000000u, cfg.burst_loss_bad_ppb);
	EXPECT_EQ(2500000u, cfg.burst_loss_good_ppb);
	EXPECT_EQ(50000000u, cfg.loss_ppb);
	EXPECT_EQ(0xDEADBEEFu, seed);
}

TEST(ImpairParse, UnitsAndEdges)
{
	struct Case {
		const char *spec;
		uint64_t impair_config::*field64;
		uint32_t impair_config::*field32;
		uint64_t want;
	} cases[] = {
		{ "delay=5ns", &impair_config::delay_ns, nullptr, 5 },
		{ "delay=2s", &impair_config::delay_ns, nullptr, 2000000000 },
		{ "delay=0.000001s", &impair_config::delay_ns, nullptr, 1000 },
		{ "delay=3ms", &impair_config::delay_ns, nullptr, 3000000 },
		{ "rate=8bit", &impair_config::rate_bytes_per_s, nullptr, 1 },
		{ "rate=1kbit", &impair_config::rate_bytes_per_s, nullptr, 125 },
		{ "rate=100Mbit", &impair_config::rate_bytes_per_s, nullptr, 12500000 },
		{ "rate=3B", &impair_config::rate_bytes_per_s, nullptr, 3 },
		{ "rate=2.5kB", &impair_config::rate_bytes_per_s, nullptr, 2500 },
		{ "rate=1MB", &impair_config::rate_bytes_per_s, nullptr, 1000000 },
		{ "rate=10000GB", &impair_config::rate_bytes_per_s, nullptr, 10000000000000ull },
		{ "loss=100%", nullptr, &impair_config::loss_ppb, IMPAIR_PPB_ONE },
		{ "loss=1", nullptr, &impair_config::loss_ppb, IMPAIR_PPB_ONE },
		{ "loss=0", nullptr, &impair_config::loss_ppb, 0 },
		{ "loss=0.0000001%", nullptr, &impair_config::loss_ppb, 1 },
		{ "loss=0.000000001", nullptr, &impair_config::loss_ppb, 1 },
		{ "loss=0.50000000000", nullptr, &impair_config::loss_ppb, 500000000 },
		{ "dup=007%", nullptr, &impair_config::dup_ppb, 70000000 },
		{ "limit=4294967295", nullptr, &impair_config::limit, 4294967295u },
	};
	for (const Case &c : cases) {
		impair_config cfg;
		uint64_t seed = 0;
		char err[300] = "";

		ASSERT_EQ(0, impair_parse(c.spec, &cfg, &seed, err, sizeof(err)))
			<< c.spec << ": " << err;
		if (c.field64 != nullptr)
			EXPECT_EQ(c.want, cfg.*c.field64) << c.spec;
		else
			EXPECT_EQ(c.want, cfg.*c.field32) << c.spec;
	}
}

TEST(ImpairParse, EmptyIsZeroAndSeedStaysUnlessGiven)
{
	impair_config cfg;
	uint64_t seed = 99;

	std::memset(&cfg, 0xA5, sizeof(cfg));
	ASSERT_EQ(0, impair_parse("", &cfg, &seed, nullptr, 0));
	EXPECT_TRUE(impair_config_is_zero(&cfg));
	EXPECT_FALSE(cfg.jitter_reorders);
	EXPECT_EQ(99u, seed);
	ASSERT_EQ(0, impair_parse("seed=18446744073709551615", &cfg, &seed, nullptr, 0));
	EXPECT_EQ(UINT64_MAX, seed);
}

TEST(ImpairParse, RejectsWithTheExactMessage)
{
	const std::string knobs = " (knobs: loss, burst, dup, reorder, reorder_gap, reorder_delay, "
				  "delay, jitter, jitter_reorder, corrupt, corrupt_skip, rate, "
				  "rate_burst, rate_police, limit, seed)";
	const std::string prob = "expected a probability such as 1%, 0.5% or 0.005";
	const std::string time = "expected a time such as 100us (units ns, us, ms, s)";
	const std::string rate = "expected a rate per second such as 10Gbit or 1MB "
				 "(units bit, kbit, Mbit, Gbit, B, kB, MB, GB)";
	const std::string burst = "expected ENTER/LEAVE[/LOSS_BAD[/LOSS_GOOD]] such as 0.1%/30%";
	const std::pair<const char *, std::string> cases[] = {
		{ "loss=abc", "\"loss=abc\": " + prob },
		{ "loss=", "\"loss=\": " + prob },
		{ "loss=1%%", "\"loss=1%%\": " + prob },
		{ "loss=.5%", "\"loss=.5%\": " + prob },
		{ "loss=1.%", "\"loss=1.%\": " + prob },
		{ "loss=-1%", "\"loss=-1%\": " + prob },
		{ "loss=1 %", "\"loss=1 %\": " + prob },
		{ "loss=1e-3", "\"loss=1e-3\": " + prob },
		{ "loss=150%", "\"loss=150%\": probability above 100%" },
		{ "loss=1.0000001", "\"loss=1.0000001\": probability above 100%" },
		{ "loss=99999999999999999999999%",
		  "\"loss=99999999999999999999999%\": probability above 100%" },
		{ "loss=0.00000001%",
		  "\"loss=0.00000001%\": probability finer than the resolution of 1e-9" },
		{ "loss=1%,", "empty knob at offset 8 (two commas, or a comma at an end)" },
		{ "loss=1%,,dup=1%", "empty knob at offset 8 (two commas, or a comma at an end)" },
		{ ",loss=1%", "empty knob at offset 0 (two commas, or a comma at an end)" },
		{ "loss", "\"loss\": expected knob=value" },
		{ "dup=1%,Loss=1%", "\"Loss=1%\": unknown knob \"Loss\"" + knobs },
		{ "=1%", "\"=1%\": unknown knob \"\"" + knobs },
		{ "loss=1%,loss=2%", "\"loss=2%\": knob \"loss\" given twice" },
		{ "delay=100", "\"delay=100\": " + time },
		{ "delay=100 us", "\"delay=100 us\": " + time },
		{ "delay=100usec", "\"delay=100usec\": " + time },
		{ "jitter=1.5ns", "\"jitter=1.5ns\": time finer than 1ns" },
		{ "delay=99999999999s", "\"delay=99999999999s\": time too large" },
		{ "reorder_gap=1.5", "\"reorder_gap=1.5\": expected a whole number" },
		{ "reorder_gap=x", "\"reorder_gap=x\": expected a whole number" },
		{ "limit=4294967296", "\"limit=4294967296\": number too large" },
		{ "jitter_reorder=yes", "\"jitter_reorder=yes\": expected 0 or 1" },
		{ "rate_police=", "\"rate_police=\": expected 0 or 1" },
		{ "rate=10", "\"rate=10\": " + rate },
		{ "rate=10gbit", "\"rate=10gbit\": " + rate },
		{ "rate=1bit", "\"rate=1bit\": rate not a whole number of bytes per second" },
		{ "rate=0.5B", "\"rate=0.5B\": rate not a whole number of bytes per second" },
		{ "rate=10001GB", "\"rate=10001GB\": rate above 10TB (80Tbit) per second" },
		{ "burst=1%", "\"burst=1%\": " + burst },
		{ "burst=1%/", "\"burst=1%/\": " + burst },
		{ "burst=1%/2%/3%/4%/5%", "\"burst=1%/2%/3%/4%/5%\": " + burst },
		{ "burst=1%/x", "\"burst=1%/x\": " + prob },
		{ "burst=1%/30%/0%",
		  "\"burst=1%/30%/0%\": burst loss loses nothing in either state" },
		{ "seed=abc", "\"seed=abc\": expected a number (decimal, or hex after 0x)" },
		{ "seed=0xg", "\"seed=0xg\": expected a number (decimal, or hex after 0x)" },
		{ "seed=-1", "\"seed=-1\": expected a number (decimal, or hex after 0x)" },
		{ "seed=18446744073709551616", "\"seed=18446744073709551616\": number too large" },
		{ "seed=0x10000000000000000", "\"seed=0x10000000000000000\": number too large" },
	};
	for (const auto &c : cases) {
		impair_config cfg = zero_config();
		cfg.loss_ppb = 123;
		uint64_t seed = 5;
		char err[400] = "";

		EXPECT_EQ(-EINVAL, impair_parse(c.first, &cfg, &seed, err, sizeof(err))) << c.first;
		EXPECT_EQ(c.second, std::string(err)) << c.first;
		EXPECT_EQ(123u, cfg.loss_ppb) << "output touched on error: " << c.first;
		EXPECT_EQ(5u, seed) << c.first;
	}
	// A short buffer gets a truncated, terminated message; no buffer is fine.
	impair_config cfg;
	uint64_t seed = 0;
	char small[8];
	EXPECT_EQ(-EINVAL, impair_parse("loss=x", &cfg, &seed, small, sizeof(small)));
	EXPECT_STREQ("\"loss=x", small);
	EXPECT_EQ(-EINVAL, impair_parse("loss=x", &cfg, &seed, nullptr, 0));
}

TEST(ImpairFormat, RoundTrips)
{
	impair_config cfg = everything();
	char buf[512];

	cfg.rate_police = true;
	cfg.reorder_delay_ns = 1500;
	cfg.rate_bytes_per_s = 1250000000;
	const int n = impair_format(&cfg, 42, buf, sizeof(buf));
	ASSERT_GT(n, 0);
	ASSERT_LT(static_cast<size_t>(n), sizeof(buf));
	EXPECT_STREQ("loss=2%,burst=0.5%/25%/90%/0.1%,dup=2%,reorder=3%,reorder_gap=2,"
		     "reorder_delay=1500ns,delay=50us,jitter=20us,jitter_reorder=1,corrupt=1%,"
		     "corrupt_skip=20,rate=1250MB,rate_burst=3000,rate_police=1,limit=500,seed=42",
		     buf);
	impair_config back;
	uint64_t seed = 0;
	char err[300] = "";
	ASSERT_EQ(0, impair_parse(buf, &back, &seed, err, sizeof(err))) << err;
	EXPECT_TRUE(same_config(cfg, back));
	EXPECT_EQ(42u, seed);

	// Odd values survive too, and a short buffer reports the full length.
	cfg = zero_config();
	cfg.loss_ppb = 1;
	cfg.corrupt_ppb = 123456789;
	cfg.delay_ns = 1000000001;
	cfg.rate_bytes_per_s = 7;
	const int m = impair_format(&cfg, UINT64_MAX, buf, sizeof(buf));
	EXPECT_STREQ("loss=0.0000001%,delay=1000000001ns,corrupt=12.3456789%,rate=7B,"
		     "seed=18446744073709551615",
		     buf);
	ASSERT_EQ(0, impair_parse(buf, &back, &seed, err, sizeof(err))) << err;
	EXPECT_TRUE(same_config(cfg, back));
	char tiny[10];
	EXPECT_EQ(m, impair_format(&cfg, UINT64_MAX, tiny, sizeof(tiny)));
	EXPECT_STREQ("loss=0.00", tiny);
	EXPECT_EQ(m, impair_format(&cfg, UINT64_MAX, nullptr, 0));

	cfg = zero_config();
	EXPECT_EQ(6, impair_format(&cfg, 0, buf, sizeof(buf)));
	EXPECT_STREQ("seed=0", buf);
}

} // namespace
