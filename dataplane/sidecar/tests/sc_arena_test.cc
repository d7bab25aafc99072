// SPDX-License-Identifier: BSD-3-Clause
// The sidecar's payload arena (dataplane/sidecar/sc_arena.h): contiguous
// allocations that wrap by skipping the end, refusal when full until the
// consumer releases, the consumer accepting only the next published
// allocation, a producer and a consumer thread through many messages of
// mixed sizes, and a hostile peer's positions refused.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "dataplane/sidecar/sc_arena.h"

namespace {

struct Region {
	std::vector<uint64_t> mem;
	explicit Region(size_t n) : mem(n / 8 + 1)
	{
	}
	uint8_t *base()
	{
		return (uint8_t *)mem.data();
	}
	size_t len() const
	{
		return mem.size() * 8;
	}
};

const uint64_t kData = 4096;

TEST(ScArena, AllocationsAreContiguousAndWrapBySkippingTheEnd)
{
	Region reg(SC_ARENA_HDR + kData);
	ASSERT_EQ(sc_arena_create(reg.base(), reg.len(), 0, kData), 0);
	struct sc_arena p, c;
	ASSERT_EQ(sc_arena_attach(&p, reg.base(), reg.len(), 0, kData, true), 0);
	ASSERT_EQ(sc_arena_attach(&c, reg.base(), reg.len(), 0, kData, false), 0);
	uint64_t off;
	int err;
	EXPECT_EQ(sc_arena_alloc(&p, 0, &off, &err), nullptr);
	EXPECT_EQ(err, -EMSGSIZE);
	EXPECT_EQ(sc_arena_alloc(&p, kData + 1, &off, &err), nullptr);
	EXPECT_EQ(err, -EMSGSIZE);
	uint8_t *a = (uint8_t *)sc_arena_alloc(&p, 3000, &off, &err);
	ASSERT_NE(a, nullptr);
	EXPECT_EQ(off, 0u);
	memset(a, 'a', 3000);
	// 1500 more do not fit behind it until the consumer gives the 3000 back.
	EXPECT_EQ(sc_arena_alloc(&p, 1500, &off, &err), nullptr);
	EXPECT_EQ(err, -EAGAIN);
	sc_arena_publish(&p);
	const uint8_t *got = (const uint8_t *)sc_arena_take(&c, 0, 3000, &err);
	ASSERT_NE(got, nullptr);
	EXPECT_EQ(got[2999], 'a');
	sc_arena_release(&c);
	// Now it fits, at offset 0: the 1096 bytes at the end are skipped.
	uint8_t *b = (uint8_t *)sc_arena_alloc(&p, 1500, &off, &err);
	ASSERT_NE(b, nullptr);
	EXPECT_EQ(off, 0u);
	memset(b, 'b', 1500);
	sc_arena_publish(&p);
	EXPECT_EQ(sc_arena_take(&c, 3000, 1500, &err), nullptr); // where it did not go
	EXPECT_EQ(err, -EPROTO);
	got = (const uint8_t *)sc_arena_take(&c, 0, 1500, &err);
	ASSERT_NE(got, nullptr);
	EXPECT_EQ(got[0], 'b');
}

TEST(ScArena, TheConsumerTakesOnlyTheNextPublishedAllocation)
{
	Region reg(SC_ARENA_HDR + kData);
	ASSERT_EQ(sc_arena_create(reg.base(), reg.len(), 0, kData), 0);
	struct sc_arena p, c;
	ASSERT_EQ(sc_arena_attach(&p, reg.base(), reg.len(), 0, kData, true), 0);
	ASSERT_EQ(sc_arena_attach(&c, reg.base(), reg.len(), 0, kData, false), 0);
	uint64_t o1, o2;
	int err;
	ASSERT_NE(sc_arena_alloc(&p, 100, &o1, &err), nullptr);
	ASSERT_NE(sc_arena_alloc(&p, 200, &o2, &err), nullptr);
	EXPECT_EQ(sc_arena_take(&c, o1, 100, &err), nullptr); // not published yet
	sc_arena_publish(&p);
	EXPECT_EQ(sc_arena_take(&c, o2, 200, &err), nullptr); // out of order
	EXPECT_NE(sc_arena_take(&c, o1, 100, &err), nullptr);
	EXPECT_EQ(sc_arena_take(&c, o2, 300, &err), nullptr); // longer than was published
	EXPECT_NE(sc_arena_take(&c, o2, 200, &err), nullptr);
	EXPECT_EQ(sc_arena_take(&c, o2 + 200, 1, &err), nullptr); // nothing more
	// The arena knows positions, not the producer's boundaries: a wrong
	// length inside what was published is taken (the bytes are the
	// producer's own), and what follows is then out of place.
	ASSERT_NE(sc_arena_alloc(&p, 50, &o1, &err), nullptr);
	ASSERT_NE(sc_arena_alloc(&p, 50, &o2, &err), nullptr);
	sc_arena_publish(&p);
	EXPECT_NE(sc_arena_take(&c, o1, 60, &err), nullptr);
	EXPECT_EQ(sc_arena_take(&c, o2, 50, &err), nullptr);
}

TEST(ScArena, ProducerAndConsumerThreads)
{
	const uint64_t data = 1 << 16;
	Region reg(SC_ARENA_HDR + data);
	ASSERT_EQ(sc_arena_create(reg.base(), reg.len(), 0, data), 0);
	struct sc_arena p, c;
	ASSERT_EQ(sc_arena_attach(&p, reg.base(), reg.len(), 0, data, true), 0);
	ASSERT_EQ(sc_arena_attach(&c, reg.base(), reg.len(), 0, data, false), 0);
	// The (offset, length) pairs travel on a side channel, as slots would.
	const uint32_t n = 200000;
	std::vector<std::atomic<uint64_t>> slot(n);
	std::atomic<uint32_t> posted{ 0 };
	std::thread prod([&] {
		for (uint32_t i = 0; i < n; i++) {
			uint32_t len = 1 + (i * 7919u) % 9000u;
			uint64_t off;
			int err;
			uint8_t *d;
			while ((d = (uint8_t *)sc_arena_alloc(&p, len, &off, &err)) == nullptr) {
				ASSERT_EQ(err, -EAGAIN);
				std::this_thread::yield(); // the consumer may share our core
			}
			d[len - 1] = (uint8_t)(i >> 8);
			d[0] = (uint8_t)i; // last: a 1-byte message holds only this
			sc_arena_publish(&p);
			slot[i].store(off << 16 | (len & 0xffff), std::memory_order_relaxed);
			posted.store(i + 1, std::memory_order_release);
		}
	});
	for (uint32_t i = 0; i < n; i++) {
		while (posted.load(std::memory_order_acquire) <= i)
			std::this_thread::yield();
		uint64_t s = slot[i].load(std::memory_order_relaxed);
		int err;
		const uint8_t *d =
			(const uint8_t *)sc_arena_take(&c, s >> 16, (uint32_t)(s & 0xffff), &err);
		ASSERT_NE(d, nullptr) << "message " << i;
		ASSERT_EQ(d[0], (uint8_t)i);
		if ((s & 0xffff) > 1) {
			ASSERT_EQ(d[(s & 0xffff) - 1], (uint8_t)(i >> 8));
		}
		if (i % 3 == 0)
			sc_arena_release(&c); // batched releases
	}
	sc_arena_release(&c);
	prod.join();
}

TEST(ScArena, ImpossiblePositionsAreRefused)
{
	Region reg(SC_ARENA_HDR + kData);
	ASSERT_EQ(sc_arena_create(reg.base(), reg.len(), 0, kData), 0);
	struct sc_arena p, c;
	ASSERT_EQ(sc_arena_attach(&p, reg.base(), reg.len(), 0, kData, true), 0);
	ASSERT_EQ(sc_arena_attach(&c, reg.base(), reg.len(), 0, kData, false), 0);
	uint64_t *head = (uint64_t *)reg.base(), *tail = (uint64_t *)(reg.base() + 64);
	uint64_t off;
	int err;
	ASSERT_NE(sc_arena_alloc(&p, 4000, &off, &err), nullptr);
	// A tail past our head, when we need the room.
	__atomic_store_n(tail, 5000, __ATOMIC_RELEASE);
	EXPECT_EQ(sc_arena_alloc(&p, 500, &off, &err), nullptr);
	EXPECT_EQ(err, -EPROTO);
	// A head more than an arena ahead of the consumer.
	__atomic_store_n(head, kData + 1, __ATOMIC_RELEASE);
	EXPECT_EQ(sc_arena_take(&c, 0, 100, &err), nullptr);
	EXPECT_EQ(err, -EPROTO);
	struct sc_arena v;
	__atomic_store_n(tail, 1, __ATOMIC_RELEASE); // 4,096 apart: possible
	EXPECT_EQ(sc_arena_attach(&v, reg.base(), reg.len(), 0, kData, false), 0);
	__atomic_store_n(tail, 0, __ATOMIC_RELEASE); // 4,097 apart: not
	EXPECT_EQ(sc_arena_attach(&v, reg.base(), reg.len(), 0, kData, false), -EPROTO);
	EXPECT_EQ(sc_arena_attach(&v, reg.base(), reg.len(), 64, kData, false), -EINVAL);
}

} // namespace
