// SPDX-License-Identifier: BSD-3-Clause
// The sidecar's shared-memory SPSC ring (dataplane/sidecar/sc_ring.h):
// order and content across wrap-around, full and empty, a second mapping
// of the same memfd at another address, a producer and a consumer thread
// through a million slots, the sleep/wake handshake, and a hostile peer's
// indices refused with -EPROTO rather than followed.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "dataplane/sidecar/sc_ring.h"

namespace {

struct Region {
	std::vector<uint8_t> mem;
	explicit Region(size_t n) : mem(n + SC_RING_LINE)
	{
	}
	uint8_t *base()
	{ // cache-line aligned, as a mapping is
		uintptr_t p = (uintptr_t)mem.data();
		return (uint8_t *)((p + SC_RING_LINE - 1) & ~(uintptr_t)(SC_RING_LINE - 1));
	}
	size_t len() const
	{
		return mem.size() - SC_RING_LINE;
	}
};

TEST(ScRing, GeometryIsChecked)
{
	Region reg(sc_ring_bytes(8, 64) + 128);
	EXPECT_EQ(sc_ring_create(reg.base(), reg.len(), 0, 6, 64), -EINVAL);  // not a power of 2
	EXPECT_EQ(sc_ring_create(reg.base(), reg.len(), 0, 8, 48), -EINVAL);  // nor the slot
	EXPECT_EQ(sc_ring_create(reg.base(), reg.len(), 32, 8, 64), -EINVAL); // misaligned
	EXPECT_EQ(sc_ring_create(reg.base(), reg.len(), 128, 8, 64), 0);
	EXPECT_EQ(sc_ring_create(reg.base(), reg.len(), 192, 8, 64), -EINVAL); // past the end
	struct sc_ring r;
	EXPECT_EQ(sc_ring_attach(&r, reg.base(), reg.len(), 192, 8, 64, true), -EINVAL);
	EXPECT_EQ(sc_ring_attach(&r, reg.base(), reg.len(), 128, 8, 64, true), 0);
}

TEST(ScRing, FifoAcrossWrapFullAndEmpty)
{
	Region reg(sc_ring_bytes(8, 16));
	ASSERT_EQ(sc_ring_create(reg.base(), reg.len(), 0, 8, 16), 0);
	struct sc_ring p, c;
	ASSERT_EQ(sc_ring_attach(&p, reg.base(), reg.len(), 0, 8, 16, true), 0);
	ASSERT_EQ(sc_ring_attach(&c, reg.base(), reg.len(), 0, 8, 16, false), 0);
	uint64_t next_in = 0, next_out = 0;
	for (int round = 0; round < 100; round++) {
		int room = sc_ring_free(&p);
		ASSERT_GE(room, 0);
		uint32_t n = (uint32_t)(round % 9 < room ? round % 9 : room);
		for (uint32_t k = 0; k < n; k++) {
			uint64_t v = next_in++;
			memcpy(sc_ring_reserve(&p, k), &v, 8);
		}
		EXPECT_FALSE(sc_ring_commit(&p, n)); // nobody sleeps
		int have = sc_ring_count(&c);
		ASSERT_EQ((uint64_t)have, next_in - next_out);
		uint32_t take = (uint32_t)have / 2 + (round & 1);
		if (take > (uint32_t)have)
			take = (uint32_t)have;
		for (uint32_t k = 0; k < take; k++) {
			uint64_t v;
			memcpy(&v, sc_ring_peek(&c, k), 8);
			ASSERT_EQ(v, next_out + k);
		}
		sc_ring_release(&c, take);
		next_out += take;
	}
	// Full: 8 in, nothing more fits; empty again after 8 out.
	while (sc_ring_free(&p) > 0)
		sc_ring_commit(&p, 1);
	EXPECT_EQ(sc_ring_free(&p), 0);
	EXPECT_EQ(sc_ring_count(&c), 8);
	sc_ring_release(&c, 8);
	EXPECT_EQ(sc_ring_count(&c), 0);
	EXPECT_EQ(sc_ring_free(&p), 8);
}

// The daemon and an application map one memfd at different addresses; the
// ring holds no pointer, so either mapping reads what the other wrote.
TEST(ScRing, TwoMappingsOfOneMemfd)
{
	const size_t len = 4096 * 4;
	int fd = memfd_create("sc_ring_test", MFD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ftruncate(fd, (off_t)len), 0);
	void *a = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	void *b = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(a, MAP_FAILED);
	ASSERT_NE(b, MAP_FAILED);
	ASSERT_NE(a, b);
	ASSERT_EQ(sc_ring_create(a, len, 256, 64, 64), 0);
	struct sc_ring p, c;
	ASSERT_EQ(sc_ring_attach(&p, a, len, 256, 64, 64, true), 0);
	ASSERT_EQ(sc_ring_attach(&c, b, len, 256, 64, 64, false), 0);
	strcpy((char *)sc_ring_reserve(&p, 0), "through the memfd");
	sc_ring_commit(&p, 1);
	ASSERT_EQ(sc_ring_count(&c), 1);
	EXPECT_STREQ((const char *)sc_ring_peek(&c, 0), "through the memfd");
	munmap(a, len);
	munmap(b, len);
	close(fd);
}

// Two spinning threads: each yields when it finds nothing to do, or on a
// loaded two-core machine (other tests polling beside it) every hand-over
// could wait for a whole scheduler time slice.
TEST(ScRing, ProducerAndConsumerThreads)
{
	const uint32_t slots = 256;
	Region reg(sc_ring_bytes(slots, 64));
	ASSERT_EQ(sc_ring_create(reg.base(), reg.len(), 0, slots, 64), 0);
	struct sc_ring p, c;
	ASSERT_EQ(sc_ring_attach(&p, reg.base(), reg.len(), 0, slots, 64, true), 0);
	ASSERT_EQ(sc_ring_attach(&c, reg.base(), reg.len(), 0, slots, 64, false), 0);
	const uint64_t total = 1000000;
	std::atomic<bool> bad{ false };
	std::thread prod([&] {
		uint64_t v = 0;
		while (v < total) {
			int room = sc_ring_free(&p);
			if (room < 0) {
				bad = true;
				return;
			}
			uint32_t n = 0;
			for (; n < (uint32_t)room && v < total; n++, v++) {
				uint64_t *s = (uint64_t *)sc_ring_reserve(&p, n);
				s[0] = v;
				s[7] = ~v; // the whole slot travels, not just its first word
			}
			if (n != 0)
				sc_ring_commit(&p, n);
			else
				std::this_thread::yield(); // the consumer may share our core
		}
	});
	uint64_t want = 0;
	while (want < total && !bad) {
		int have = sc_ring_count(&c);
		ASSERT_GE(have, 0);
		for (int k = 0; k < have; k++, want++) {
			const uint64_t *s = (const uint64_t *)sc_ring_peek(&c, (uint32_t)k);
			ASSERT_EQ(s[0], want);
			ASSERT_EQ(s[7], ~want);
		}
		sc_ring_release(&c, (uint32_t)have);
		if (have == 0)
			std::this_thread::yield(); // a busy machine: let the producer run
	}
	prod.join();
	EXPECT_FALSE(bad);
	EXPECT_EQ(want, total);
}

TEST(ScRing, SleepingConsumerIsWokenOnceAndOnlyWhenAsleep)
{
	Region reg(sc_ring_bytes(8, 64));
	ASSERT_EQ(sc_ring_create(reg.base(), reg.len(), 0, 8, 64), 0);
	struct sc_ring p, c;
	ASSERT_EQ(sc_ring_attach(&p, reg.base(), reg.len(), 0, 8, 64, true), 0);
	ASSERT_EQ(sc_ring_attach(&c, reg.base(), reg.len(), 0, 8, 64, false), 0);
	EXPECT_TRUE(sc_ring_prepare_sleep(&c));	 // empty: block
	EXPECT_TRUE(sc_ring_commit(&p, 1));	 // the producer must write the eventfd
	EXPECT_FALSE(sc_ring_commit(&p, 1));	 // once
	EXPECT_FALSE(sc_ring_prepare_sleep(&c)); // not empty: consume instead
	EXPECT_FALSE(sc_ring_commit(&p, 1));	 // and the flag was withdrawn
	EXPECT_EQ(sc_ring_count(&c), 3);
}

// A hostile application writes the shared bytes as it likes.
static void
poke(uint8_t *region, size_t off, uint32_t v)
{
	__atomic_store_n((uint32_t *)(void *)(region + off), v, __ATOMIC_RELEASE);
}

// What a broken or hostile application can write into the shared indices.
TEST(ScRing, ImpossibleIndicesAreRefused)
{
	Region reg(sc_ring_bytes(8, 64));
	ASSERT_EQ(sc_ring_create(reg.base(), reg.len(), 0, 8, 64), 0);
	struct sc_ring p, c;
	ASSERT_EQ(sc_ring_attach(&p, reg.base(), reg.len(), 0, 8, 64, true), 0);
	ASSERT_EQ(sc_ring_attach(&c, reg.base(), reg.len(), 0, 8, 64, false), 0);
	uint8_t *sh = reg.base();
	sc_ring_commit(&p, 3);
	ASSERT_EQ(sc_ring_count(&c), 3);
	// A head more than a ring ahead of the consumer.
	poke(sh, SC_RING_HEAD_OFF, 3u + 9u);
	EXPECT_EQ(sc_ring_count(&c), -EPROTO);
	// A head that went backwards.
	poke(sh, SC_RING_HEAD_OFF, 2u);
	EXPECT_EQ(sc_ring_count(&c), -EPROTO);
	poke(sh, SC_RING_HEAD_OFF, 3u);
	EXPECT_EQ(sc_ring_count(&c), 3);
	// A tail past the producer's head, and one that went backwards.
	poke(sh, SC_RING_TAIL_OFF, 4u);
	EXPECT_EQ(sc_ring_free(&p), -EPROTO);
	poke(sh, SC_RING_TAIL_OFF, 2u);
	EXPECT_EQ(sc_ring_free(&p), 7);
	poke(sh, SC_RING_TAIL_OFF, 1u);
	EXPECT_EQ(sc_ring_free(&p), -EPROTO);
	// The geometry in the shared header is never read: rewriting it changes nothing.
	poke(sh, 2 * SC_RING_LINE, 1u << 30);
	poke(sh, 2 * SC_RING_LINE + 4, 1);
	poke(sh, SC_RING_TAIL_OFF, 3u);
	EXPECT_EQ(sc_ring_free(&p), 8);
	// A view of a ring whose indices are already impossible is refused.
	poke(sh, SC_RING_HEAD_OFF, 100u);
	struct sc_ring v;
	EXPECT_EQ(sc_ring_attach(&v, reg.base(), reg.len(), 0, 8, 64, false), -EPROTO);
}

} // namespace
