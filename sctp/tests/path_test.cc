// SPDX-License-Identifier: BSD-3-Clause
// Path management (RFC 9260 §5.4, §6.4, §8.1-§8.3, RFC 7829): every state
// transition in both profiles, thresholds exactly at their limits, failover
// and return, PF, path confirmation, the Heartbeat Info round trip and its
// refusals, jitter bounds, saturation, the failover time of docs/PATHS.md
// recomputed by driving the path set on a virtual clock, and the storage
// (path 0 inline, the rest in an attached block: capacity, moves to another
// block, detach, memcpy of the set), also against a model over many seeds.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "hex.h"

extern "C" {
#include "sctp/path.h"
}

namespace {

using Bytes = std::vector<uint8_t>;

struct sctp_addr
v4(uint8_t last)
{
	const uint8_t b[4] = { 10, 0, 0, last };
	return sctp_addr_v4(b);
}

// A heartbeat sent to path i at now: the info value, recorded as outstanding.
Bytes
send_hb(struct sctp_paths *ps, unsigned i, uint64_t now, uint64_t nonce, uint32_t rnd = 0)
{
	Bytes buf(64, 0xee);
	struct sctp_writer w = sctp_writer_make(buf.data(), buf.size());
	EXPECT_EQ(sctp_paths_hb_info(ps, i, now, nonce, rnd, &w), 0);
	buf.resize(w.off);
	return buf;
}

// The ACK of that heartbeat arrives at now; it must be accepted.
uint64_t
ack_hb(struct sctp_paths *ps, const struct sctp_profile *p, const Bytes &info, uint64_t now,
       unsigned want_path)
{
	unsigned path = 99;
	uint64_t ev = 0;
	EXPECT_EQ(sctp_paths_on_hb_ack(ps, p, info.data(), info.size(), now, &path, &ev),
		  SCTP_HB_ACK_OK);
	EXPECT_EQ(path, want_path);
	return ev;
}

enum sctp_hb_ack_verdict
try_ack(struct sctp_paths *ps, const struct sctp_profile *p, const Bytes &info, uint64_t now)
{
	unsigned path = 99;
	uint64_t ev = 12345;
	enum sctp_hb_ack_verdict v =
		sctp_paths_on_hb_ack(ps, p, info.data(), info.size(), now, &path, &ev);
	if (v != SCTP_HB_ACK_OK) {
		EXPECT_EQ(ev, 0u);
		EXPECT_EQ(path, 99u);
	}
	return v;
}

// A path set with the block the data plane would attach for a peer with
// many addresses: room for SCTP_MAX_PATHS in all once attach_all() ran. The
// block follows the set, so sizeof(PathSet) covers every path and a memcmp
// or memcpy of the whole object snapshots them all (a copy's `more` still
// points at the original's block, which is what makes it a snapshot).
struct PathSet : sctp_paths {
	struct sctp_path block[SCTP_MAX_PATHS - 1];
};

void
attach_all(PathSet *ps)
{
	ASSERT_EQ(sctp_paths_attach(ps, ps->block, SCTP_MAX_PATHS - 1), 0);
	ASSERT_EQ(ps->cap, SCTP_MAX_PATHS);
}

// n confirmed paths 10.0.0.1 .. 10.0.0.n, path 0 primary, each with an RTT
// sample of rtt (so its RTO is known), heartbeats started at t = 0; room for
// SCTP_MAX_PATHS.
void
make_set(PathSet *ps, const struct sctp_profile *p, unsigned n, uint64_t rtt, uint32_t rnd = 0)
{
	struct sctp_addr a0 = v4(1);
	sctp_paths_init(ps, p, &a0);
	attach_all(ps);
	for (unsigned i = 1; i < n; i++) {
		struct sctp_addr a = v4((uint8_t)(i + 1));
		ASSERT_EQ(sctp_paths_add(ps, p, &a, true, 0, rnd), (int)i);
	}
	for (unsigned i = 0; i < n; i++)
		sctp_rto_sample(&sctp_paths_get(ps, i)->rto, p, rtt);
	sctp_paths_hb_start(ps, p, 0, rnd);
}

const struct sctp_profile *const kProfiles[] = { &sctp_profile_rfc, &sctp_profile_dc };

class PathsByProfile : public ::testing::TestWithParam<const struct sctp_profile *> {
      protected:
	const struct sctp_profile *p = GetParam();
	PathSet ps;
};

std::string
profile_name(const ::testing::TestParamInfo<const struct sctp_profile *> &info)
{
	return info.param == &sctp_profile_rfc ? "rfc" : "dc";
}

// The hand-computed figures below assume these values.
void
assume_profiles()
{
	const struct sctp_profile &r = sctp_profile_rfc, &d = sctp_profile_dc;
	ASSERT_EQ(r.rto_min_ns, SCTP_S(1));
	ASSERT_EQ(r.rto_max_ns, SCTP_S(60));
	ASSERT_EQ(r.path_max_retrans, 5);
	ASSERT_EQ(r.assoc_max_retrans, 10);
	ASSERT_FALSE(r.pf_enabled);
	ASSERT_EQ(r.hb_interval_ns, SCTP_S(30));
	ASSERT_EQ(d.rto_min_ns, SCTP_US(500)) << "DC profile changed: recompute docs/PATHS.md";
	ASSERT_EQ(d.rto_max_ns, SCTP_MS(200));
	ASSERT_EQ(d.path_max_retrans, 3);
	ASSERT_EQ(d.assoc_max_retrans, 20);
	ASSERT_TRUE(d.pf_enabled);
	ASSERT_EQ(d.pf_max_retrans, 0);
	ASSERT_EQ(d.hb_interval_ns, SCTP_MS(50));
}

} // namespace

INSTANTIATE_TEST_SUITE_P(Profiles, PathsByProfile, ::testing::ValuesIn(kProfiles), profile_name);

// ---- set-up -------------------------------------------------------------

TEST(Paths, InitHasOneConfirmedActivePrimary)
{
	struct sctp_paths ps;
	struct sctp_addr a = v4(1);
	memset(&ps, 0x5a, sizeof(ps));
	sctp_paths_init(&ps, &sctp_profile_rfc, &a);
	EXPECT_EQ(ps.n, 1);
	EXPECT_EQ(ps.primary, 0);
	EXPECT_EQ(sctp_paths_data_path(&ps), 0u);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->state, SCTP_PATH_ACTIVE);
	EXPECT_TRUE(sctp_paths_get(&ps, 0)->flags & SCTP_PATH_F_CONFIRMED);
	EXPECT_TRUE(sctp_paths_get(&ps, 0)->flags & SCTP_PATH_F_HB_ENABLED);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->rto.rto_ns, SCTP_S(1));
	EXPECT_EQ(ps.assoc_errors, 0);
	struct sctp_addr got = sctp_path_addr(sctp_paths_get(&ps, 0));
	EXPECT_TRUE(sctp_addr_eq(&got, &a));
	EXPECT_EQ(ps.cap, 1);
	EXPECT_EQ(sctp_paths_block(&ps), nullptr);
	// Heartbeats wait for ESTABLISHED.
	EXPECT_EQ(sctp_paths_next_wakeup(&ps), SCTP_TIME_NEVER);
}

TEST(Paths, AddFindDuplicatesFullSetAndEmptyAddress)
{
	PathSet ps;
	const struct sctp_profile *p = &sctp_profile_dc;
	struct sctp_addr a = v4(1);
	sctp_paths_init(&ps, p, &a);
	attach_all(&ps);
	for (unsigned i = 1; i < SCTP_MAX_PATHS; i++) {
		struct sctp_addr b = v4((uint8_t)(i + 1));
		EXPECT_EQ(sctp_paths_add(&ps, p, &b, false, 0, 0), (int)i);
	}
	struct sctp_addr dup = v4(3);
	EXPECT_EQ(sctp_paths_add(&ps, p, &dup, true, 0, 0), 2); // already there, unchanged
	EXPECT_FALSE(sctp_paths_get(&ps, 2)->flags & SCTP_PATH_F_CONFIRMED);
	struct sctp_addr ninth = v4(99);
	EXPECT_EQ(sctp_paths_add(&ps, p, &ninth, true, 0, 0), -1);
	EXPECT_EQ(ps.n, SCTP_MAX_PATHS);
	EXPECT_EQ(sctp_paths_find(&ps, &dup), 2);
	EXPECT_EQ(sctp_paths_find(&ps, &ninth), -1);

	PathSet ps2;
	sctp_paths_init(&ps2, p, &a);
	attach_all(&ps2);
	struct sctp_addr none;
	memset(&none, 0, sizeof(none));
	EXPECT_EQ(sctp_paths_add(&ps2, p, &none, true, 0, 0), -1);
	uint8_t v6b[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	struct sctp_addr six = sctp_addr_v6(v6b);
	EXPECT_EQ(sctp_paths_add(&ps2, p, &six, true, 0, 0), 1);
}

TEST(Paths, EventMaskLayout)
{
	uint64_t ev = SCTP_PATH_EV(0, SCTP_PATH_EV_PF) |
		      SCTP_PATH_EV(7, SCTP_PATH_EV_CONFIRMED | SCTP_PATH_EV_ACTIVE) |
		      SCTP_PATHS_EV_COMM_LOST;
	EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_PF);
	EXPECT_EQ(sctp_path_events(ev, 7), SCTP_PATH_EV_CONFIRMED | SCTP_PATH_EV_ACTIVE);
	for (unsigned i = 1; i < 7; i++)
		EXPECT_EQ(sctp_path_events(ev, i), 0u);
	EXPECT_EQ(ev >> 32, SCTP_PATHS_EV_COMM_LOST >> 32);
}

TEST(Paths, PathStructStaysSmall)
{
	// 80 before the path MTU (docs/PMTU.md) joined the address at the end.
	EXPECT_EQ(sizeof(struct sctp_path), 88u);
	// The set is what the association embeds: header and path 0 (LP64).
	if (sizeof(void *) == 8) {
		EXPECT_EQ(sizeof(struct sctp_paths), 120u);
	}
	EXPECT_LE(sizeof(struct sctp_paths), 128u);
	// Choosing a path reads state, flags, errors and the RTO: the first 32 bytes.
	EXPECT_LT(offsetof(struct sctp_path, rto) + sizeof(struct sctp_rto), 40u);
	// A send writes last_tx_ns, in the first 40 bytes; every call re-reads hb_due_ns, next.
	EXPECT_LE(offsetof(struct sctp_path, last_tx_ns) + 8, 40u);
	EXPECT_LE(offsetof(struct sctp_path, hb_due_ns) + 8, 48u);
	// What every call reads of the set comes before the block pointer and path 0.
	EXPECT_LE(offsetof(struct sctp_paths, assoc_errors) + 2, offsetof(struct sctp_paths, more));
	EXPECT_LT(offsetof(struct sctp_paths, more), offsetof(struct sctp_paths, first));
}

// ---- storage: path 0 inline, the rest in the caller's block --------------

namespace {

// Everything of a set except where its paths live (more, cap): the header
// field by field, the paths in use byte for byte (struct sctp_path has no
// padding, and path_init() clears each one).
void
expect_same_state(const struct sctp_paths *a, const struct sctp_paths *b)
{
	EXPECT_EQ(a->n, b->n);
	EXPECT_EQ(a->primary, b->primary);
	EXPECT_EQ(a->current, b->current);
	EXPECT_EQ(a->running, b->running);
	EXPECT_EQ(a->probe_last, b->probe_last);
	EXPECT_EQ(a->assoc_errors, b->assoc_errors);
	EXPECT_EQ(a->probe_window_end_ns, b->probe_window_end_ns);
	EXPECT_EQ(a->probes, b->probes);
	EXPECT_EQ(a->hb_ack_rejects, b->hb_ack_rejects);
	for (unsigned i = 0; i < a->n && i < b->n; i++)
		EXPECT_EQ(memcmp(sctp_paths_get_const(a, i), sctp_paths_get_const(b, i),
				 sizeof(struct sctp_path)),
			  0)
			<< "path " << i;
}

// Drives two path sets with the same protocol calls (no adds, no storage
// changes) from one seeded generator and checks that every output matches:
// one set's storage may change between steps, the other's never does.
struct Lockstep {
	const struct sctp_profile *p;
	uint64_t rng;
	uint64_t now = 0;
	uint64_t nonce = 1;
	std::vector<Bytes> infos; // Heartbeat Info values sent, ACKed or not

	Lockstep(const struct sctp_profile *prof, uint64_t seed) : p(prof), rng(seed)
	{
	}

	// splitmix64: the same sequence on every platform.
	uint64_t next()
	{
		uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		return z ^ (z >> 31);
	}

	unsigned below(unsigned n)
	{
		return n ? (unsigned)(next() % n) : 0;
	}

	void step(struct sctp_paths *a, struct sctp_paths *b)
	{
		unsigned n = a->n;
		unsigned i = below(n + 1); // sometimes one past the end
		uint64_t ea = 0, eb = 0;

		switch (below(10)) {
		case 0:
			now += 1 + next() % (2 * p->rto_min_ns);
			break;
		case 1:
			ea = sctp_paths_on_t3_expiry(a, p, i, now);
			eb = sctp_paths_on_t3_expiry(b, p, i, now);
			break;
		case 2:
			ea = sctp_paths_on_data_acked(a, p, i, now);
			eb = sctp_paths_on_data_acked(b, p, i, now);
			break;
		case 3:
			sctp_paths_on_data_sent(a, i, now);
			sctp_paths_on_data_sent(b, i, now);
			break;
		case 4: {
			uint32_t ma = 0, mb = 0;
			ea = sctp_paths_on_wakeup(a, p, now, &ma);
			eb = sctp_paths_on_wakeup(b, p, now, &mb);
			EXPECT_EQ(ma, mb);
			for (unsigned k = 0; k < n; k++) {
				if (!(ma & (1u << k)))
					continue;
				uint32_t jitter = (uint32_t)next();
				Bytes ia = send_hb(a, k, now, nonce, jitter);
				Bytes ib = send_hb(b, k, now, nonce, jitter);
				nonce++;
				EXPECT_EQ(ia, ib);
				infos.push_back(ia);
			}
			break;
		}
		case 5: {
			if (infos.empty())
				break;
			Bytes info = infos[below((unsigned)infos.size())];
			if (below(4) == 0)
				info[below((unsigned)info.size())] ^= (uint8_t)(1 + below(255));
			unsigned pa = 99, pb = 99;
			enum sctp_hb_ack_verdict va =
				sctp_paths_on_hb_ack(a, p, info.data(), info.size(), now, &pa, &ea);
			enum sctp_hb_ack_verdict vb =
				sctp_paths_on_hb_ack(b, p, info.data(), info.size(), now, &pb, &eb);
			EXPECT_EQ(va, vb);
			EXPECT_EQ(pa, pb);
			break;
		}
		case 6: {
			int ra = sctp_paths_set_primary(a, p, i, &ea);
			int rb = sctp_paths_set_primary(b, p, i, &eb);
			EXPECT_EQ(ra, rb);
			break;
		}
		case 7: {
			bool on = below(3) != 0;
			EXPECT_EQ(sctp_paths_set_hb_enabled(a, p, i, on, now),
				  sctp_paths_set_hb_enabled(b, p, i, on, now));
			break;
		}
		case 8:
			if (below(8) == 0) {
				sctp_paths_hb_stop(a);
				sctp_paths_hb_stop(b);
			} else if (!a->running) {
				uint32_t rnd = (uint32_t)next();
				sctp_paths_hb_start(a, p, now, rnd);
				sctp_paths_hb_start(b, p, now, rnd);
			}
			break;
		default: {
			unsigned last = below(n);
			EXPECT_EQ(sctp_paths_rtx_path(a, last), sctp_paths_rtx_path(b, last));
			break;
		}
		}
		EXPECT_EQ(ea, eb);
		EXPECT_EQ(sctp_paths_data_path(a), sctp_paths_data_path(b));
		EXPECT_EQ(sctp_paths_next_wakeup(a), sctp_paths_next_wakeup(b));
		expect_same_state(a, b);
	}

	void steps(struct sctp_paths *a, struct sctp_paths *b, unsigned count)
	{
		for (unsigned k = 0; k < count && !::testing::Test::HasFailure(); k++)
			step(a, b);
	}
};

// The same address, possibly unconfirmed, added to both sets.
void
add_both(struct sctp_paths *a, struct sctp_paths *b, const struct sctp_profile *p,
	 const struct sctp_addr *addr, bool confirmed, uint64_t now, uint32_t rnd, int want)
{
	EXPECT_EQ(sctp_paths_add(a, p, addr, confirmed, now, rnd), want);
	EXPECT_EQ(sctp_paths_add(b, p, addr, confirmed, now, rnd), want);
}

} // namespace

// Capacity 1 until a block is attached; then up to 1 + the block's length.
TEST(PathsStorage, CapacityOneRefusesASecondPathUntilABlockIsAttached)
{
	const struct sctp_profile *p = &sctp_profile_dc;
	struct sctp_paths ps;
	struct sctp_path block[3];
	struct sctp_addr a0 = v4(1), a1 = v4(2), a2 = v4(3), a3 = v4(4), a4 = v4(5);
	sctp_paths_init(&ps, p, &a0);
	EXPECT_EQ(ps.cap, 1);
	EXPECT_EQ(sctp_paths_add(&ps, p, &a1, true, 0, 0), -1);
	EXPECT_EQ(sctp_paths_add(&ps, p, &a0, true, 0, 0), 0); // already there: no room needed
	EXPECT_EQ(ps.n, 1);
	EXPECT_EQ(sctp_paths_find(&ps, &a1), -1);

	ASSERT_EQ(sctp_paths_attach(&ps, block, 3), 0);
	EXPECT_EQ(ps.cap, 4);
	EXPECT_EQ(sctp_paths_block(&ps), block);
	EXPECT_EQ(sctp_paths_add(&ps, p, &a1, true, 0, 0), 1);
	EXPECT_EQ(sctp_paths_add(&ps, p, &a2, false, 0, 0), 2);
	EXPECT_EQ(sctp_paths_add(&ps, p, &a3, true, 0, 0), 3);
	EXPECT_EQ(sctp_paths_add(&ps, p, &a4, true, 0, 0), -1); // full at cap
	EXPECT_EQ(ps.n, 4);
	// Path 0 is in the set, paths 1.. in the block, in order.
	EXPECT_EQ(sctp_paths_get(&ps, 0), &ps.first);
	for (unsigned i = 1; i < 4; i++)
		EXPECT_EQ(sctp_paths_get(&ps, i), &block[i - 1]);
	const struct sctp_addr want[] = { a0, a1, a2, a3 };
	for (unsigned i = 0; i < 4; i++) {
		struct sctp_addr got = sctp_path_addr(sctp_paths_get_const(&ps, i));
		EXPECT_TRUE(sctp_addr_eq(&got, &want[i])) << i;
		EXPECT_EQ(memcmp(&got, &want[i], sizeof(got)), 0) << i;
		EXPECT_EQ(sctp_paths_find(&ps, &want[i]), (int)i);
	}
	EXPECT_FALSE(block[1].flags & SCTP_PATH_F_CONFIRMED);

	// A block longer than SCTP_MAX_PATHS - 1 gives SCTP_MAX_PATHS, no more.
	struct sctp_path big[SCTP_MAX_PATHS + 4];
	ASSERT_EQ(sctp_paths_attach(&ps, big, SCTP_MAX_PATHS + 4), 0);
	EXPECT_EQ(ps.cap, SCTP_MAX_PATHS);
	for (unsigned i = 4; i < SCTP_MAX_PATHS; i++) {
		struct sctp_addr a = v4((uint8_t)(10 + i));
		EXPECT_EQ(sctp_paths_add(&ps, p, &a, true, 0, 0), (int)i);
	}
	EXPECT_EQ(sctp_paths_add(&ps, p, &a4, true, 0, 0), -1);
	EXPECT_EQ(ps.n, SCTP_MAX_PATHS);
	// n_more beyond what a uint8_t or 1 + n_more can hold is still just the maximum.
	struct sctp_paths other;
	sctp_paths_init(&other, p, &a0);
	ASSERT_EQ(sctp_paths_attach(&other, big, UINT32_MAX), 0);
	EXPECT_EQ(other.cap, SCTP_MAX_PATHS);
}

// The address survives the round trip through the flags: both families, and
// an empty one (path 0 may be given one; it then matches only an empty query).
TEST(PathsStorage, AddressFamiliesRoundTrip)
{
	const struct sctp_profile *p = &sctp_profile_rfc;
	PathSet ps;
	uint8_t v6b[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a };
	uint8_t v4b[4] = { 0x20, 0x01, 0x0d, 0xb8 }; // v6b's first four bytes
	struct sctp_addr six = sctp_addr_v6(v6b), four = sctp_addr_v4(v4b);
	sctp_paths_init(&ps, p, &six);
	attach_all(&ps);
	EXPECT_EQ(sctp_paths_find(&ps, &four), -1);
	EXPECT_EQ(sctp_paths_add(&ps, p, &four, true, 0, 0), 1);
	struct sctp_addr g0 = sctp_path_addr(sctp_paths_get(&ps, 0));
	struct sctp_addr g1 = sctp_path_addr(sctp_paths_get(&ps, 1));
	EXPECT_EQ(memcmp(&g0, &six, sizeof(six)), 0);
	EXPECT_EQ(memcmp(&g1, &four, sizeof(four)), 0);
	EXPECT_EQ(sctp_paths_find(&ps, &six), 0);
	EXPECT_EQ(sctp_paths_find(&ps, &four), 1);

	// A hand-filled IPv4 address with junk past byte 4: equal by
	// sctp_addr_eq(), and stored without the junk.
	struct sctp_addr junk = four;
	memset(junk.bytes + 4, 0xff, 12);
	EXPECT_EQ(sctp_paths_find(&ps, &junk), 1);
	EXPECT_EQ(sctp_paths_add(&ps, p, &junk, true, 0, 0), 1);

	struct sctp_addr none;
	memset(&none, 0, sizeof(none));
	struct sctp_paths empty;
	sctp_paths_init(&empty, p, &none);
	struct sctp_addr ge = sctp_path_addr(sctp_paths_get(&empty, 0));
	EXPECT_EQ(memcmp(&ge, &none, sizeof(none)), 0);
	EXPECT_EQ(sctp_paths_find(&empty, &none), 0);
	EXPECT_EQ(sctp_paths_find(&empty, &four), -1);
	EXPECT_EQ(sctp_paths_find(&ps, &none), -1);
}

// Refused attaches change nothing.
TEST(PathsStorage, AttachRefusals)
{
	const struct sctp_profile *p = &sctp_profile_dc;
	PathSet ps;
	make_set(&ps, p, 4, SCTP_US(10));
	struct sctp_path small[3];
	PathSet before;
	memcpy(&before, &ps, sizeof(ps));
	EXPECT_EQ(sctp_paths_attach(&ps, nullptr, 7), -1);
	EXPECT_EQ(sctp_paths_attach(&ps, small, 0), -1);
	EXPECT_EQ(sctp_paths_attach(&ps, small, 2), -1); // 3 paths in use need 3
	EXPECT_EQ(memcmp(&ps, &before, sizeof(ps)), 0);
	// Exactly long enough is enough: the set is then full.
	EXPECT_EQ(sctp_paths_attach(&ps, small, 3), 0);
	EXPECT_EQ(ps.cap, 4);
	expect_same_state(&ps, &before);
	struct sctp_addr a = v4(77);
	EXPECT_EQ(sctp_paths_add(&ps, p, &a, true, 0, 0), -1);
}

// Moving to a bigger block keeps every path's state, including a HEARTBEAT
// in flight, and the old block is not touched again.
TEST(PathsStorage, MoveToABiggerBlockKeepsState)
{
	for (const struct sctp_profile *p : kProfiles) {
		SCOPED_TRACE(p == &sctp_profile_rfc ? "rfc" : "dc");
		struct sctp_paths ps;
		struct sctp_path *small = new struct sctp_path[2];
		struct sctp_path big[SCTP_MAX_PATHS - 1];
		PathSet ref; // the same calls, on a set that never moves
		struct sctp_addr a0 = v4(1), a1 = v4(2), a2 = v4(3);

		sctp_paths_init(&ps, p, &a0);
		sctp_paths_init(&ref, p, &a0);
		attach_all(&ref);
		ASSERT_EQ(sctp_paths_attach(&ps, small, 2), 0);
		add_both(&ps, &ref, p, &a1, true, 0, 0, 1);
		sctp_paths_hb_start(&ps, p, 0, 0x5eed);
		sctp_paths_hb_start(&ref, p, 0, 0x5eed);
		Lockstep drive(p, 42);
		drive.steps(&ps, &ref, 300);
		add_both(&ps, &ref, p, &a2, false, drive.now, 3, 2);
		sctp_paths_on_t3_expiry(&ps, p, 1, drive.now);
		sctp_paths_on_t3_expiry(&ref, p, 1, drive.now);
		Bytes info = send_hb(&ps, 2, drive.now, 0xfeedface);
		send_hb(&ref, 2, drive.now, 0xfeedface);
		expect_same_state(&ps, &ref);

		// The move: the caller reads its old block, attaches the new one,
		// then reuses the old one (here: scribbles on it and frees it).
		ASSERT_EQ(sctp_paths_block(&ps), small);
		ASSERT_EQ(sctp_paths_attach(&ps, big, SCTP_MAX_PATHS - 1), 0);
		memset(small, 0xa5, 2 * sizeof(*small));
		delete[] small;
		EXPECT_EQ(ps.cap, SCTP_MAX_PATHS);
		EXPECT_EQ(sctp_paths_block(&ps), big);
		expect_same_state(&ps, &ref);

		// The HEARTBEAT sent before the move is answered after it.
		uint64_t ea = ack_hb(&ps, p, info, drive.now + 5, 2);
		uint64_t eb = ack_hb(&ref, p, info, drive.now + 5, 2);
		EXPECT_EQ(ea, eb);
		EXPECT_TRUE(sctp_path_events(ea, 2) & SCTP_PATH_EV_CONFIRMED);
		// Room for the rest, and everything behaves as on the set that never moved.
		for (unsigned i = 3; i < SCTP_MAX_PATHS; i++) {
			struct sctp_addr a = v4((uint8_t)(i + 1));
			add_both(&ps, &ref, p, &a, i % 2 == 0, drive.now, (uint32_t)i, (int)i);
		}
		drive.steps(&ps, &ref, 2000);
	}
}

// Detach gives the block back while only path 0 is in use, and refuses
// (changing nothing) once a path lives in it.
TEST(PathsStorage, DetachRules)
{
	const struct sctp_profile *p = &sctp_profile_rfc;
	struct sctp_paths ps;
	struct sctp_path block[4];
	struct sctp_addr a0 = v4(1), a1 = v4(2);
	sctp_paths_init(&ps, p, &a0);
	EXPECT_EQ(sctp_paths_detach(&ps), nullptr); // nothing attached
	EXPECT_EQ(ps.cap, 1);

	ASSERT_EQ(sctp_paths_attach(&ps, block, 4), 0);
	EXPECT_EQ(sctp_paths_detach(&ps), block); // n == 1: given back
	EXPECT_EQ(ps.cap, 1);
	EXPECT_EQ(sctp_paths_block(&ps), nullptr);
	EXPECT_EQ(sctp_paths_add(&ps, p, &a1, true, 0, 0), -1);
	EXPECT_EQ(sctp_paths_detach(&ps), nullptr);

	ASSERT_EQ(sctp_paths_attach(&ps, block, 4), 0);
	ASSERT_EQ(sctp_paths_add(&ps, p, &a1, true, 0, 0), 1);
	struct sctp_paths before = ps;
	struct sctp_path path1 = block[0];
	EXPECT_EQ(sctp_paths_detach(&ps), nullptr); // path 1 lives in the block: refused
	EXPECT_EQ(memcmp(&ps, &before, sizeof(ps)), 0);
	EXPECT_EQ(memcmp(&block[0], &path1, sizeof(path1)), 0);
	EXPECT_EQ(sctp_paths_block(&ps), block); // what to give back when the association goes
	EXPECT_EQ(sctp_paths_find(&ps, &a1), 1);

	// init forgets the block (the caller took it back first).
	sctp_paths_init(&ps, p, &a0);
	EXPECT_EQ(ps.cap, 1);
	EXPECT_EQ(sctp_paths_block(&ps), nullptr);
}

// The set holds no pointer into itself: a memcpy'd copy works on its own
// (the original is scribbled over) exactly like a set that never moved.
TEST(PathsStorage, MemcpyMovedSetStillWorks)
{
	for (const struct sctp_profile *p : kProfiles) {
		SCOPED_TRACE(p == &sctp_profile_rfc ? "rfc" : "dc");
		PathSet ref;
		make_set(&ref, p, 3, SCTP_US(10));
		// Built in one place, with its own block...
		struct sctp_paths where[2];
		struct sctp_path block[SCTP_MAX_PATHS - 1];
		struct sctp_paths *ps = &where[0];
		struct sctp_addr a0 = v4(1);
		sctp_paths_init(ps, p, &a0);
		ASSERT_EQ(sctp_paths_attach(ps, block, SCTP_MAX_PATHS - 1), 0);
		for (unsigned i = 1; i < 3; i++) {
			struct sctp_addr a = v4((uint8_t)(i + 1));
			ASSERT_EQ(sctp_paths_add(ps, p, &a, true, 0, 0), (int)i);
		}
		for (unsigned i = 0; i < 3; i++)
			sctp_rto_sample(&sctp_paths_get(ps, i)->rto, p, SCTP_US(10));
		sctp_paths_hb_start(ps, p, 0, 0);
		Lockstep drive(p, 7);
		drive.steps(ps, &ref, 500);
		Bytes info = send_hb(ps, 0, drive.now, 99);
		send_hb(&ref, 0, drive.now, 99);

		// ...moved with memcpy, the original scribbled over.
		memcpy(&where[1], &where[0], sizeof(struct sctp_paths));
		memset(&where[0], 0xa5, sizeof(struct sctp_paths));
		ps = &where[1];
		EXPECT_EQ(sctp_paths_block(ps), block);
		expect_same_state(ps, &ref);
		EXPECT_EQ(try_ack(ps, p, info, drive.now + 1),
			  try_ack(&ref, p, info, drive.now + 1));
		drive.steps(ps, &ref, 2000);
		for (unsigned i = 3; i < 5; i++) {
			struct sctp_addr a = v4((uint8_t)(i + 1));
			add_both(ps, &ref, p, &a, false, drive.now, 0, (int)i);
		}
		drive.steps(ps, &ref, 2000);
	}
}

// Model-based: random adds, attaches (new blocks, the same block, an
// overlapping window of the same block), detaches and memcpy moves,
// interleaved with random protocol calls. The model is a list of addresses
// and a capacity; a twin set with full room from the start gets the same
// protocol calls and the adds the model accepts, and must end every step in
// the same state. The seed is in the failure message.
TEST(PathsStorage, RandomizedAgainstAModel)
{
	const unsigned kSeeds = 400, kSteps = 400;
	const unsigned kBlocks = 3, kBlockLen = SCTP_MAX_PATHS + 1;
	for (const struct sctp_profile *p : kProfiles) {
		for (uint64_t seed = 1; seed <= kSeeds && !HasFailure(); seed++) {
			SCOPED_TRACE(std::string(p == &sctp_profile_rfc ? "rfc" : "dc") + " seed " +
				     std::to_string(seed));
			Lockstep drive(p, seed);
			std::vector<std::vector<struct sctp_path>> blocks(
				kBlocks, std::vector<struct sctp_path>(kBlockLen));
			struct sctp_paths where[2];
			unsigned slot = 0;
			struct sctp_paths *ps = &where[slot];
			PathSet twin;

			std::vector<struct sctp_addr> model; // index i: path i's address
			unsigned cap = 1;
			struct sctp_path *block = nullptr; // what the model says is attached
			int block_id = -1;

			struct sctp_addr a0 = v4(1);
			sctp_paths_init(ps, p, &a0);
			sctp_paths_init(&twin, p, &a0);
			attach_all(&twin);
			model.push_back(a0);

			for (unsigned step = 0; step < kSteps && !HasFailure(); step++) {
				switch (drive.below(8)) {
				case 0: { // add one of 12 addresses (duplicates happen)
					struct sctp_addr a = v4((uint8_t)(1 + drive.below(12)));
					bool conf = drive.below(2) != 0;
					uint32_t rnd = (uint32_t)drive.next();
					int want = -1;
					bool added = false;
					for (unsigned i = 0; i < model.size(); i++)
						if (sctp_addr_eq(&model[i], &a))
							want = (int)i;
					if (want < 0 && model.size() < cap) {
						want = (int)model.size();
						model.push_back(a);
						added = true;
					}
					EXPECT_EQ(sctp_paths_add(ps, p, &a, conf, drive.now, rnd),
						  want);
					if (added) {
						EXPECT_EQ(sctp_paths_add(&twin, p, &a, conf,
									 drive.now, rnd),
							  want);
					}
					break;
				}
				case 1: { // attach: a block, at offset 0 or 1, 0 .. 9 long
					unsigned id = drive.below(kBlocks);
					unsigned off = drive.below(2);
					unsigned len = drive.below(kBlockLen - off + 1);
					struct sctp_path *b =
						drive.below(8) == 0 ? nullptr : &blocks[id][off];
					bool ok =
						b != nullptr && len > 0 && len + 1 >= model.size();
					EXPECT_EQ(sctp_paths_attach(ps, b, len), ok ? 0 : -1);
					if (ok) {
						// The old block is the caller's again unless the
						// new window lies in it: scribble to catch reuse.
						if (block != nullptr && block_id != (int)id)
							memset(blocks[block_id].data(), 0xa5,
							       kBlockLen *
								       sizeof(struct sctp_path));
						block = b;
						block_id = (int)id;
						cap = len + 1 < SCTP_MAX_PATHS ? len + 1
									       : SCTP_MAX_PATHS;
					}
					break;
				}
				case 2: { // detach
					struct sctp_path *want = model.size() > 1 ? nullptr : block;
					EXPECT_EQ(sctp_paths_detach(ps), want);
					if (model.size() <= 1) {
						block = nullptr;
						block_id = -1;
						cap = 1;
					}
					break;
				}
				case 3: // memcpy the set to the other slot, scribble the old
					memcpy(&where[1 - slot], &where[slot], sizeof(*ps));
					memset(&where[slot], 0xa5, sizeof(*ps));
					slot = 1 - slot;
					ps = &where[slot];
					break;
				default:
					drive.step(ps, &twin);
					break;
				}
				EXPECT_EQ(ps->n, model.size());
				EXPECT_EQ(ps->cap, cap);
				EXPECT_EQ(sctp_paths_block(ps), block);
				for (unsigned i = 0; i < model.size(); i++) {
					struct sctp_addr got =
						sctp_path_addr(sctp_paths_get(ps, i));
					EXPECT_TRUE(sctp_addr_eq(&got, &model[i])) << "path " << i;
					EXPECT_EQ(sctp_paths_find(ps, &model[i]), (int)i);
				}
				expect_same_state(ps, &twin);
			}
		}
	}
}

// ---- error thresholds ---------------------------------------------------

// §8.2: inactive when the counter EXCEEDS Path.Max.Retrans. RFC 7829: PF
// when it exceeds PFMR. Each T3 expiry backs the RTO off (E2).
TEST_P(PathsByProfile, T3ThresholdsExactlyAtTheLimits)
{
	make_set(&ps, p, 2, SCTP_US(10));
	uint64_t rto = sctp_paths_get(&ps, 0)->rto.rto_ns;
	for (unsigned k = 1; k <= p->path_max_retrans + 1u; k++) {
		uint64_t ev = sctp_paths_on_t3_expiry(&ps, p, 0, SCTP_S(k));
		rto = rto * 2 > p->rto_max_ns ? p->rto_max_ns : rto * 2;
		EXPECT_EQ(sctp_paths_get(&ps, 0)->errors, k);
		EXPECT_EQ(sctp_paths_get(&ps, 0)->rto.rto_ns, rto);
		unsigned want;
		enum sctp_path_state st;
		if (k > p->path_max_retrans) {
			want = SCTP_PATH_EV_INACTIVE;
			st = SCTP_PATH_INACTIVE;
		} else if (p->pf_enabled && k == p->pf_max_retrans + 1u) {
			want = SCTP_PATH_EV_PF;
			st = SCTP_PATH_PF;
		} else {
			want = 0;
			st = p->pf_enabled && k > p->pf_max_retrans ? SCTP_PATH_PF
								    : SCTP_PATH_ACTIVE;
		}
		EXPECT_EQ(sctp_path_events(ev, 0), want) << "expiry " << k;
		EXPECT_EQ(sctp_paths_get(&ps, 0)->state, st) << "expiry " << k;
		EXPECT_EQ(sctp_path_events(ev, 1), 0u);
	}
	// §8.3: an inactive path's counter no longer grows.
	sctp_paths_on_t3_expiry(&ps, p, 0, SCTP_S(100));
	EXPECT_EQ(sctp_paths_get(&ps, 0)->errors, p->path_max_retrans + 1u);
}

// §6.1 A: the expiry of a zero window probe the peer answers backs the RTO
// off (the probes' interval doubles up to RTO.Max) and changes nothing
// else: no error on the path or the association, no state, no failover,
// however long the window stays closed.
TEST_P(PathsByProfile, ProbeExpiryOnlyBacksTheRtoOff)
{
	make_set(&ps, p, 2, SCTP_US(10));
	uint64_t rto = sctp_paths_get(&ps, 0)->rto.rto_ns;
	uint64_t rto1 = sctp_paths_get(&ps, 1)->rto.rto_ns;
	for (unsigned k = 1; k <= 2u * p->assoc_max_retrans + 5u; k++) {
		sctp_paths_on_probe_expiry(&ps, p, 0);
		rto = rto * 2 > p->rto_max_ns ? p->rto_max_ns : rto * 2;
		ASSERT_EQ(sctp_paths_get(&ps, 0)->rto.rto_ns, rto) << "expiry " << k;
		ASSERT_EQ(sctp_paths_get(&ps, 0)->errors, 0u);
		ASSERT_EQ(ps.assoc_errors, 0u);
		ASSERT_EQ(sctp_paths_get(&ps, 0)->state, SCTP_PATH_ACTIVE);
		ASSERT_EQ(sctp_paths_data_path(&ps), 0u);
	}
	EXPECT_EQ(rto, p->rto_max_ns);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->rto.rto_ns, rto1) << "the other path untouched";
	// An index out of range changes nothing.
	PathSet before = ps;
	sctp_paths_on_probe_expiry(&ps, p, 2);
	sctp_paths_on_probe_expiry(&ps, p, SCTP_MAX_PATHS);
	EXPECT_EQ(memcmp(&before, &ps, sizeof(ps)), 0);
}

TEST(Paths, RfcT3ByTheNumbers)
{
	assume_profiles();
	const struct sctp_profile *p = &sctp_profile_rfc;
	PathSet ps;
	make_set(&ps, p, 2, SCTP_MS(10));
	for (int k = 1; k <= 5; k++)
		EXPECT_EQ(sctp_path_events(sctp_paths_on_t3_expiry(&ps, p, 0, SCTP_S(k)), 0), 0u);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->state, SCTP_PATH_ACTIVE); // 5 errors: not above 5
	uint64_t ev = sctp_paths_on_t3_expiry(&ps, p, 0, SCTP_S(6));
	EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_INACTIVE);
}

TEST(Paths, DcT3ByTheNumbers)
{
	assume_profiles();
	const struct sctp_profile *p = &sctp_profile_dc;
	PathSet ps;
	make_set(&ps, p, 2, SCTP_US(10));
	EXPECT_EQ(sctp_path_events(sctp_paths_on_t3_expiry(&ps, p, 0, 1), 0), SCTP_PATH_EV_PF);
	EXPECT_EQ(sctp_path_events(sctp_paths_on_t3_expiry(&ps, p, 0, 2), 0), 0u);
	EXPECT_EQ(sctp_path_events(sctp_paths_on_t3_expiry(&ps, p, 0, 3), 0), 0u);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->state, SCTP_PATH_PF); // 3 errors: not above 3
	EXPECT_EQ(sctp_path_events(sctp_paths_on_t3_expiry(&ps, p, 0, 4), 0),
		  SCTP_PATH_EV_INACTIVE);
}

// §8.3: a HEARTBEAT unanswered within one RTO counts like a T3 expiry.
TEST_P(PathsByProfile, HeartbeatTimeoutsCountLikeT3)
{
	make_set(&ps, p, 1, SCTP_US(10));
	uint64_t t = 0;
	for (unsigned k = 1; k <= p->path_max_retrans + 1u; k++) {
		uint64_t rto = sctp_paths_get(&ps, 0)->rto.rto_ns;
		send_hb(&ps, 0, t, k);
		ASSERT_EQ(sctp_paths_next_wakeup(&ps), t + rto);
		uint32_t mask = 0;
		// One nanosecond early: nothing.
		EXPECT_EQ(sctp_paths_on_wakeup(&ps, p, t + rto - 1, &mask), 0u);
		EXPECT_EQ(sctp_paths_get(&ps, 0)->errors, k - 1);
		t += rto;
		uint64_t ev = sctp_paths_on_wakeup(&ps, p, t, &mask);
		EXPECT_EQ(sctp_paths_get(&ps, 0)->errors, k);
		EXPECT_EQ(ps.assoc_errors, k);
		EXPECT_EQ(sctp_paths_get(&ps, 0)->rto.rto_ns,
			  rto * 2 > p->rto_max_ns ? p->rto_max_ns : rto * 2);
		if (k > p->path_max_retrans)
			EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_INACTIVE);
		else if (p->pf_enabled && k == p->pf_max_retrans + 1u)
			EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_PF);
		else
			EXPECT_EQ(sctp_path_events(ev, 0), 0u);
	}
}

// §8.1: communication lost when the association counter EXCEEDS
// Association.Max.Retrans, i.e. on error number AMR + 1, and not before.
TEST_P(PathsByProfile, CommLostExactlyAtAssociationMaxRetransPlusOne)
{
	make_set(&ps, p, 1, SCTP_US(10));
	for (unsigned k = 1; k <= p->assoc_max_retrans; k++) {
		uint64_t ev = sctp_paths_on_t3_expiry(&ps, p, 0, k);
		EXPECT_FALSE(ev & SCTP_PATHS_EV_COMM_LOST) << "error " << k;
	}
	EXPECT_EQ(ps.assoc_errors, p->assoc_max_retrans);
	EXPECT_TRUE(sctp_paths_on_t3_expiry(&ps, p, 0, 99) & SCTP_PATHS_EV_COMM_LOST);
}

TEST(Paths, CommLostByTheNumbers)
{
	assume_profiles();
	for (const struct sctp_profile *p : kProfiles) {
		PathSet ps;
		make_set(&ps, p, 1, SCTP_US(10));
		unsigned k = 0;
		while (!(sctp_paths_on_t3_expiry(&ps, p, 0, k) & SCTP_PATHS_EV_COMM_LOST))
			k++;
		EXPECT_EQ(k + 1, p == &sctp_profile_rfc ? 11u : 21u);
	}
}

// §8.1: any path's acknowledgement clears the association counter; §8.2:
// only that path's counter.
TEST_P(PathsByProfile, AnyPathsAckResetsTheAssociationCounter)
{
	make_set(&ps, p, 3, SCTP_US(10));
	sctp_paths_on_t3_expiry(&ps, p, 0, 1);
	sctp_paths_on_t3_expiry(&ps, p, 1, 2);
	ASSERT_EQ(ps.assoc_errors, 2);
	sctp_paths_on_data_acked(&ps, p, 2, 3);
	EXPECT_EQ(ps.assoc_errors, 0);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->errors, 1);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->errors, 1);

	sctp_paths_on_t3_expiry(&ps, p, 0, 4);
	ASSERT_EQ(ps.assoc_errors, 1);
	Bytes info = send_hb(&ps, 2, 5, 0xabc);
	ack_hb(&ps, p, info, 6, 2);
	EXPECT_EQ(ps.assoc_errors, 0);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->errors, 2);
}

// ---- state transitions --------------------------------------------------

// Every transition of docs/PATHS.md's diagram that the profile allows.
TEST_P(PathsByProfile, EveryStateTransition)
{
	make_set(&ps, p, 2, SCTP_US(10));
	uint64_t ev;

	if (p->pf_enabled) {
		// active -> PF (error count > PFMR)
		for (unsigned k = 0; k <= p->pf_max_retrans; k++)
			ev = sctp_paths_on_t3_expiry(&ps, p, 0, 1);
		EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_PF);
		// PF -> active on a HEARTBEAT ACK
		ev = ack_hb(&ps, p, send_hb(&ps, 0, 2, 1), 3, 0);
		EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_ACTIVE);
		EXPECT_EQ(sctp_paths_get(&ps, 0)->errors, 0);
		// active -> PF -> active on an acknowledgement of data
		sctp_paths_on_t3_expiry(&ps, p, 0, 4);
		ASSERT_EQ(sctp_paths_get(&ps, 0)->state, SCTP_PATH_PF);
		ev = sctp_paths_on_data_acked(&ps, p, 0, 5);
		EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_ACTIVE);
		// PF -> inactive (error count > Path.Max.Retrans)
		sctp_paths_on_t3_expiry(&ps, p, 0, 6);
		ASSERT_EQ(sctp_paths_get(&ps, 0)->state, SCTP_PATH_PF);
		for (unsigned k = p->pf_max_retrans + 1u; k < p->path_max_retrans; k++)
			EXPECT_EQ(sctp_path_events(sctp_paths_on_t3_expiry(&ps, p, 0, 7), 0), 0u);
		ev = sctp_paths_on_t3_expiry(&ps, p, 0, 8);
		EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_INACTIVE);
	} else {
		// active -> inactive directly; PF never appears
		for (unsigned k = 0; k < p->path_max_retrans; k++) {
			ev = sctp_paths_on_t3_expiry(&ps, p, 0, 1);
			EXPECT_EQ(sctp_paths_get(&ps, 0)->state, SCTP_PATH_ACTIVE);
			EXPECT_EQ(sctp_path_events(ev, 0), 0u);
		}
		ev = sctp_paths_on_t3_expiry(&ps, p, 0, 8);
		EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_INACTIVE);
	}
	// inactive -> active on a HEARTBEAT ACK
	ev = ack_hb(&ps, p, send_hb(&ps, 0, 9, 2), 10, 0);
	EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_ACTIVE);
	// active -> inactive -> active on an acknowledgement of data (dormant sending)
	for (unsigned k = 0; k <= p->path_max_retrans; k++)
		sctp_paths_on_t3_expiry(&ps, p, 0, 11);
	ASSERT_EQ(sctp_paths_get(&ps, 0)->state, SCTP_PATH_INACTIVE);
	ev = sctp_paths_on_data_acked(&ps, p, 0, 12);
	EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_ACTIVE);

	// unconfirmed -> confirmed (§5.4)
	struct sctp_addr a = v4(50);
	int u = sctp_paths_add(&ps, p, &a, false, 13, 0);
	ASSERT_EQ(u, 2);
	ev = ack_hb(&ps, p, send_hb(&ps, 2, 13, 3), 14, 2);
	EXPECT_EQ(sctp_path_events(ev, 2), SCTP_PATH_EV_CONFIRMED);
	EXPECT_TRUE(sctp_paths_get(&ps, 2)->flags & SCTP_PATH_F_CONFIRMED);
}

// ---- choosing paths -----------------------------------------------------

// §8.2 failover when the primary's errors pass Path.Max.Retrans (or PFMR
// with RFC 7829), retransmissions to an alternate from the first expiry
// (§6.4.1), and the return to the primary after a HEARTBEAT ACK.
TEST_P(PathsByProfile, FailoverAndReturnToPrimary)
{
	make_set(&ps, p, 2, SCTP_US(10));
	unsigned fail_at = p->pf_enabled ? p->pf_max_retrans + 1u : p->path_max_retrans + 1u;
	uint64_t t = 0;
	for (unsigned k = 1; k < fail_at; k++) {
		t += sctp_paths_get(&ps, 0)->rto.rto_ns;
		uint64_t ev = sctp_paths_on_t3_expiry(&ps, p, 0, t);
		EXPECT_FALSE(ev & SCTP_PATHS_EV_FAILOVER);
		EXPECT_EQ(sctp_paths_data_path(&ps), 0u);
		EXPECT_EQ(sctp_paths_rtx_path(&ps, 0), 1u);
	}
	t += sctp_paths_get(&ps, 0)->rto.rto_ns;
	uint64_t ev = sctp_paths_on_t3_expiry(&ps, p, 0, t);
	EXPECT_TRUE(ev & SCTP_PATHS_EV_FAILOVER);
	EXPECT_FALSE(ev & SCTP_PATHS_EV_PRIMARY_CHANGED);
	EXPECT_EQ(sctp_paths_data_path(&ps), 1u);
	EXPECT_EQ(ps.primary, 0);
	EXPECT_EQ(sctp_paths_rtx_path(&ps, 0), 1u);

	// The primary is probed; the first HEARTBEAT to it that is answered
	// brings new data back.
	uint32_t mask = 0;
	uint64_t wake = t;
	ASSERT_NE(sctp_paths_next_wakeup(&ps), SCTP_TIME_NEVER);
	while (!(mask & 1u)) {
		uint64_t next = sctp_paths_next_wakeup(&ps);
		wake = next > wake ? next : wake;
		sctp_paths_on_wakeup(&ps, p, wake, &mask);
		if (mask & 2u)
			ack_hb(&ps, p, send_hb(&ps, 1, wake, 77), wake, 1);
	}
	Bytes info = send_hb(&ps, 0, wake, 0x1234);
	ev = ack_hb(&ps, p, info, wake + SCTP_US(10), 0);
	EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_ACTIVE);
	EXPECT_TRUE(ev & SCTP_PATHS_EV_PRIMARY_RETURN);
	EXPECT_EQ(sctp_paths_data_path(&ps), 0u);
}

// RFC 7829: a PF path carries no data while another path is active, even
// with fewer errors; one HEARTBEAT ACK makes it active again.
TEST(Paths, PfPathUnusedWhileAnotherIsActive)
{
	const struct sctp_profile *p = &sctp_profile_dc;
	PathSet ps;
	make_set(&ps, p, 3, SCTP_US(10));
	sctp_paths_on_t3_expiry(&ps, p, 0, 1); // primary PF
	ASSERT_EQ(sctp_paths_get(&ps, 0)->state, SCTP_PATH_PF);
	EXPECT_EQ(sctp_paths_data_path(&ps), 1u);
	EXPECT_NE(sctp_paths_rtx_path(&ps, 1), 0u);
	EXPECT_EQ(sctp_paths_rtx_path(&ps, 1), 2u);

	// A PF path is probed at once, one HEARTBEAT per RTO.
	uint32_t mask = 0;
	EXPECT_EQ(sctp_paths_next_wakeup(&ps), 1u);
	sctp_paths_on_wakeup(&ps, p, 1, &mask);
	EXPECT_EQ(mask, 1u);
	Bytes info = send_hb(&ps, 0, 1, 0xfeed);
	uint64_t ev = ack_hb(&ps, p, info, 2, 0);
	EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_ACTIVE);
	EXPECT_TRUE(ev & SCTP_PATHS_EV_PRIMARY_RETURN);
	EXPECT_EQ(sctp_paths_data_path(&ps), 0u);
}

// RFC 7829: with nothing active, the PF path with the fewest errors; a tie
// stays on the path data is on.
TEST(Paths, AllPfChoosesFewestErrors)
{
	const struct sctp_profile *p = &sctp_profile_dc;
	PathSet ps;
	make_set(&ps, p, 2, SCTP_US(10));
	sctp_paths_on_t3_expiry(&ps, p, 0, 1); // 0: PF, 1 error; data -> 1
	ASSERT_EQ(sctp_paths_data_path(&ps), 1u);
	uint64_t ev = sctp_paths_on_t3_expiry(&ps, p, 1, 2); // 1: PF, 1 error: tie, stay
	EXPECT_FALSE(ev & (SCTP_PATHS_EV_FAILOVER | SCTP_PATHS_EV_PRIMARY_RETURN));
	EXPECT_EQ(sctp_paths_data_path(&ps), 1u);
	EXPECT_EQ(sctp_paths_rtx_path(&ps, 1), 1u); // no active alternate
	ev = sctp_paths_on_t3_expiry(&ps, p, 1, 3); // 1: 2 errors > 0's 1
	EXPECT_TRUE(ev & SCTP_PATHS_EV_PRIMARY_RETURN);
	EXPECT_EQ(sctp_paths_data_path(&ps), 0u);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->state, SCTP_PATH_PF);

	// All inactive: stay where data is (dormant).
	for (int k = 0; k < 5; k++) {
		sctp_paths_on_t3_expiry(&ps, p, 0, 4);
		sctp_paths_on_t3_expiry(&ps, p, 1, 4);
	}
	ASSERT_EQ(sctp_paths_get(&ps, 0)->state, SCTP_PATH_INACTIVE);
	ASSERT_EQ(sctp_paths_get(&ps, 1)->state, SCTP_PATH_INACTIVE);
	EXPECT_EQ(sctp_paths_data_path(&ps), 0u);
	EXPECT_EQ(sctp_paths_rtx_path(&ps, 0), 0u);
}

// An active alternate is chosen by fewest errors, then smallest RTO, then index.
TEST(Paths, AlternateChoiceIsDeterministic)
{
	const struct sctp_profile *p = &sctp_profile_rfc;
	PathSet ps;
	make_set(&ps, p, 4, SCTP_MS(10));
	sctp_rto_sample(&sctp_paths_get(&ps, 3)->rto, p, SCTP_S(5)); // path 3 slower
	sctp_paths_on_t3_expiry(&ps, p, 1, 1);			     // path 1 has an error
	// Retransmission of data last sent on 0: 2 (no errors, RTO 1 s) beats 3.
	EXPECT_EQ(sctp_paths_rtx_path(&ps, 0), 2u);
	for (unsigned k = 0; k <= p->path_max_retrans; k++)
		sctp_paths_on_t3_expiry(&ps, p, 0, 2);
	EXPECT_EQ(sctp_paths_data_path(&ps), 2u);
	// The new data path is kept while active, even when 1 recovers.
	sctp_paths_on_data_acked(&ps, p, 1, 3);
	EXPECT_EQ(sctp_paths_data_path(&ps), 2u);
	// Retransmissions of data sent on 2 go elsewhere: 1 (RTO 2 s, no errors) before 3.
	EXPECT_EQ(sctp_paths_rtx_path(&ps, 2), 1u);
}

// RFC 7829 Primary Path Switchover (no return): the alternate becomes the primary.
TEST(Paths, NoPrimaryReturnMakesTheAlternatePrimary)
{
	struct sctp_profile p = sctp_profile_dc;
	p.primary_return = false;
	PathSet ps;
	make_set(&ps, &p, 2, SCTP_US(10));
	uint64_t ev = sctp_paths_on_t3_expiry(&ps, &p, 0, 1);
	EXPECT_TRUE(ev & SCTP_PATHS_EV_FAILOVER);
	EXPECT_TRUE(ev & SCTP_PATHS_EV_PRIMARY_CHANGED);
	EXPECT_EQ(ps.primary, 1);
	ev = ack_hb(&ps, &p, send_hb(&ps, 0, 2, 5), 3, 0);
	EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_ACTIVE);
	EXPECT_FALSE(ev & SCTP_PATHS_EV_PRIMARY_RETURN);
	EXPECT_EQ(sctp_paths_data_path(&ps), 1u);
}

TEST(Paths, SetPrimary)
{
	const struct sctp_profile *p = &sctp_profile_rfc;
	PathSet ps;
	make_set(&ps, p, 2, SCTP_MS(10));
	struct sctp_addr a = v4(9);
	ASSERT_EQ(sctp_paths_add(&ps, p, &a, false, 0, 0), 2);
	uint64_t ev = 1;
	EXPECT_EQ(sctp_paths_set_primary(&ps, p, 2, &ev), -1); // unconfirmed (§5.4)
	EXPECT_EQ(ev, 0u);
	EXPECT_EQ(sctp_paths_set_primary(&ps, p, 3, &ev), -1); // not in use
	EXPECT_EQ(sctp_paths_set_primary(&ps, p, 1, &ev), 0);
	EXPECT_EQ(ev, SCTP_PATHS_EV_PRIMARY_RETURN);
	EXPECT_EQ(ps.primary, 1);
	EXPECT_EQ(sctp_paths_data_path(&ps), 1u);
}

// ---- path verification (§5.4) -------------------------------------------

TEST_P(PathsByProfile, UnconfirmedPathsAreProbedNotUsed)
{
	struct sctp_addr a0 = v4(1), a1 = v4(2), a2 = v4(3);
	sctp_paths_init(&ps, p, &a0);
	attach_all(&ps);
	ASSERT_EQ(sctp_paths_add(&ps, p, &a1, false, 0, 0), 1);
	ASSERT_EQ(sctp_paths_add(&ps, p, &a2, false, 0, 0), 2);
	EXPECT_EQ(sctp_paths_next_wakeup(&ps), SCTP_TIME_NEVER);
	sctp_paths_hb_start(&ps, p, 100, 0);
	EXPECT_EQ(sctp_paths_next_wakeup(&ps), 100u); // probing starts at ESTABLISHED

	// HB.Max.Burst probes per RTO: one of the two now, the other next window.
	ASSERT_EQ(p->hb_max_burst, 1);
	uint32_t mask = 0;
	sctp_paths_on_wakeup(&ps, p, 100, &mask);
	EXPECT_EQ(mask, 2u);
	Bytes probe1 = send_hb(&ps, 1, 100, 11);
	uint64_t rto = sctp_paths_get(&ps, 2)->rto.rto_ns;
	EXPECT_EQ(sctp_paths_get(&ps, 2)->hb_due_ns, 100 + rto);

	// Never data or retransmissions on an unconfirmed path, even with the primary down.
	for (unsigned k = 0; k <= p->path_max_retrans; k++)
		sctp_paths_on_t3_expiry(&ps, p, 0, 101);
	EXPECT_EQ(sctp_paths_data_path(&ps), 0u);
	EXPECT_EQ(sctp_paths_rtx_path(&ps, 0), 0u);
	unsigned assoc = ps.assoc_errors;

	// Probe 1 unanswered for its RTO: path error, not an association error;
	// path 1 is probed again at once, path 2 in the new window.
	sctp_paths_on_wakeup(&ps, p, 100 + rto, &mask);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->errors, 1);
	EXPECT_EQ(ps.assoc_errors, assoc);
	EXPECT_EQ(mask, 4u); // path 2 opens the new window; path 1 waits for the next
	send_hb(&ps, 2, 100 + rto, 12);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->hb_due_ns,
		  100 + rto + sctp_paths_get(&ps, 2)->rto.rto_ns);

	// The late ACK of probe 1 still confirms path 1, and data can go there.
	uint64_t ev = ack_hb(&ps, p, probe1, 100 + rto + 5, 1);
	EXPECT_TRUE(sctp_path_events(ev, 1) & SCTP_PATH_EV_CONFIRMED);
	EXPECT_TRUE(ev & SCTP_PATHS_EV_FAILOVER);
	EXPECT_EQ(sctp_paths_data_path(&ps), 1u);
}

// §5.4: an unconfirmed path that becomes inactive is probed at the normal rate.
TEST_P(PathsByProfile, UnconfirmedInactivePathSlowsToTheHeartbeatRate)
{
	struct sctp_addr a0 = v4(1), a1 = v4(2);
	sctp_paths_init(&ps, p, &a0);
	attach_all(&ps);
	ASSERT_EQ(sctp_paths_add(&ps, p, &a1, false, 0, 0), 1);
	sctp_paths_hb_start(&ps, p, 0, 0);
	sctp_paths_set_hb_enabled(&ps, p, 0, false, 0);
	uint64_t t = 0;
	uint32_t mask = 0;
	for (unsigned k = 0; k <= p->path_max_retrans; k++) {
		t = sctp_paths_next_wakeup(&ps);
		sctp_paths_on_wakeup(&ps, p, t, &mask);
		ASSERT_EQ(mask, 2u);
		send_hb(&ps, 1, t, k);
		t = sctp_paths_next_wakeup(&ps); // the probe's deadline
		EXPECT_EQ(t,
			  sctp_paths_get(&ps, 1)->hb_sent_ns + sctp_paths_get(&ps, 1)->rto.rto_ns);
	}
	sctp_paths_on_wakeup(&ps, p, t, &mask);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->state, SCTP_PATH_INACTIVE);
	EXPECT_EQ(mask, 0u);
	EXPECT_EQ(ps.assoc_errors, 0);
	EXPECT_EQ(sctp_paths_next_wakeup(&ps),
		  sctp_paths_get(&ps, 1)->hb_sent_ns +
			  sctp_path_hb_period(sctp_paths_get(&ps, 1), p->hb_interval_ns, 0));
}

// ---- Heartbeat Info ---------------------------------------------------------

TEST(Paths, HeartbeatInfoLayoutAndRoundTrip)
{
	const struct sctp_profile *p = &sctp_profile_dc;
	PathSet ps;
	make_set(&ps, p, 3, SCTP_US(10));
	const uint64_t sent = 0x0000000102030405ull;
	Bytes info = send_hb(&ps, 2, sent, 0x1122334455667788ull, 7);
	// The nonce: the round's secret (the caller's random value, a round
	// opening) mixed with the send time, secret ^ sent * 0x9e3779b97f4a7c15.
	ASSERT_EQ(0x1122334455667788ull ^ (sent * 0x9e3779b97f4a7c15ull), 0x4553e6cd11c5b7e1ull);
	EXPECT_EQ(hex::dump(info.data(), info.size()),
		  hex::dump(hex::bytes("01 02 0000 4553e6cd11c5b7e1 0000000102030405")));
	EXPECT_EQ(info.size(), SCTP_PATH_HB_INFO_LEN);
	EXPECT_TRUE(sctp_paths_get(&ps, 2)->flags & SCTP_PATH_F_HB_OUTSTANDING);
	EXPECT_EQ(sctp_paths_get(&ps, 2)->hb_due_ns, sent + sctp_paths_get(&ps, 2)->rto.rto_ns);
	EXPECT_EQ(sctp_paths_get(&ps, 2)->hb_jitter, 7u);

	// The ACK 300 us later is an RTT sample of 300 us for path 2.
	struct sctp_rto before = sctp_paths_get(&ps, 2)->rto;
	ack_hb(&ps, p, info, sent + SCTP_US(300), 2);
	sctp_rto_sample(&before, p, SCTP_US(300));
	EXPECT_EQ(sctp_paths_get(&ps, 2)->rto.srtt_ns, before.srtt_ns);
	EXPECT_EQ(sctp_paths_get(&ps, 2)->rto.rto_ns, before.rto_ns);
	EXPECT_FALSE(sctp_paths_get(&ps, 2)->flags &
		     (SCTP_PATH_F_HB_OUTSTANDING | SCTP_PATH_F_NONCE_VALID));
	EXPECT_EQ(ps.hb_ack_rejects, 0u);

	// The writer's overflow records nothing.
	uint8_t small[10];
	struct sctp_writer w = sctp_writer_make(small, sizeof(small));
	EXPECT_EQ(sctp_paths_hb_info(&ps, 1, 5, 6, 0, &w), -1);
	EXPECT_FALSE(sctp_paths_get(&ps, 1)->flags & SCTP_PATH_F_NONCE_VALID);
	w = sctp_writer_make(small, sizeof(small));
	EXPECT_EQ(sctp_paths_hb_info(&ps, 3, 5, 6, 0, &w), -1);
}

// A refused ACK changes nothing but the refusal counter.
TEST(Paths, HeartbeatAckRefusals)
{
	const struct sctp_profile *p = &sctp_profile_rfc;
	PathSet ps;
	make_set(&ps, p, 2, SCTP_MS(10));
	sctp_paths_on_t3_expiry(&ps, p, 1, 1);
	Bytes good = send_hb(&ps, 1, 1000, 0xa5a5a5a5deadbeefull);
	PathSet before;
	memcpy(&before, &ps, sizeof(ps));

	struct Case {
		const char *what;
		Bytes info;
		enum sctp_hb_ack_verdict want;
	};
	auto edit = [&](size_t at, uint8_t v) {
		Bytes b = good;
		b[at] = v;
		return b;
	};
	std::vector<Case> cases = {
		{ "truncated", Bytes(good.begin(), good.end() - 1), SCTP_HB_ACK_BAD_LEN },
		{ "empty", Bytes(), SCTP_HB_ACK_BAD_LEN },
		{ "one byte long",
		  [&] {
			  Bytes b = good;
			  b.push_back(0);
			  return b;
		  }(),
		  SCTP_HB_ACK_BAD_LEN },
		{ "format", edit(0, 2), SCTP_HB_ACK_BAD_FORMAT },
		{ "reserved", edit(3, 1), SCTP_HB_ACK_BAD_FORMAT },
		{ "path index out of range", edit(1, 2), SCTP_HB_ACK_BAD_PATH },
		{ "path index 255", edit(1, 255), SCTP_HB_ACK_BAD_PATH },
		{ "other path's index", edit(1, 0), SCTP_HB_ACK_BAD_NONCE },
		{ "wrong nonce", edit(11, 0xee), SCTP_HB_ACK_BAD_NONCE },
		{ "edited send time", edit(19, 0), SCTP_HB_ACK_BAD_NONCE },
	};
	uint32_t rejects = 0;
	for (const Case &c : cases) {
		EXPECT_EQ(try_ack(&ps, p, c.info, 2000), c.want) << c.what;
		EXPECT_EQ(ps.hb_ack_rejects, ++rejects) << c.what;
		ps.hb_ack_rejects = before.hb_ack_rejects;
		EXPECT_EQ(memcmp(&ps, &before, sizeof(ps)), 0) << c.what;
		ps.hb_ack_rejects = rejects;
	}

	// The genuine ACK is still accepted after all that; its replay is not.
	uint64_t ev = ack_hb(&ps, p, good, 2000, 1);
	EXPECT_EQ(ev, 0u);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->errors, 0);
	EXPECT_EQ(try_ack(&ps, p, good, 2001), SCTP_HB_ACK_BAD_NONCE);
	EXPECT_EQ(ps.hb_ack_rejects, rejects + 1);

	EXPECT_STREQ(sctp_hb_ack_verdict_name(SCTP_HB_ACK_OK), "ok");
	EXPECT_STREQ(sctp_hb_ack_verdict_name(SCTP_HB_ACK_BAD_NONCE), "bad_nonce");
	EXPECT_STREQ(sctp_hb_ack_verdict_name((enum sctp_hb_ack_verdict)42), "unknown");
}

// A late ACK (after the timeout) still counts; the ACK of any HEARTBEAT of
// the open round closes it, and the round after it has a new secret.
TEST(Paths, LateAckAcceptedWhileItsRoundIsOpen)
{
	const struct sctp_profile *p = &sctp_profile_dc;
	PathSet ps;
	make_set(&ps, p, 2, SCTP_US(10));
	Bytes first = send_hb(&ps, 1, 0, 1);
	uint32_t mask;
	uint64_t rto = sctp_paths_get(&ps, 1)->rto.rto_ns;
	sctp_paths_on_wakeup(&ps, p, rto, &mask); // timed out
	ASSERT_EQ(sctp_paths_get(&ps, 1)->errors, 1);
	ASSERT_EQ(sctp_paths_get(&ps, 1)->state, SCTP_PATH_PF);
	uint64_t ev = ack_hb(&ps, p, first, rto + 1, 1);
	EXPECT_EQ(sctp_path_events(ev, 1), SCTP_PATH_EV_ACTIVE);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->errors, 0);

	// A new round (the caller's new random value), and an on-demand
	// HEARTBEAT (§8.3 D) in it: the two nonces differ.
	Bytes second = send_hb(&ps, 1, 10 * rto, 2);
	Bytes third = send_hb(&ps, 1, 10 * rto + 1, 3);
	EXPECT_NE(Bytes(second.begin() + 4, second.begin() + 12),
		  Bytes(third.begin() + 4, third.begin() + 12));
	// The older one's ACK counts and closes the round; the newer one's, and
	// the first's (an earlier round), no longer do.
	ack_hb(&ps, p, second, 10 * rto + 2, 1);
	EXPECT_EQ(try_ack(&ps, p, third, 10 * rto + 3), SCTP_HB_ACK_BAD_NONCE);
	Bytes fourth = send_hb(&ps, 1, 20 * rto, 4);
	EXPECT_EQ(try_ack(&ps, p, third, 20 * rto + 1), SCTP_HB_ACK_BAD_NONCE);
	EXPECT_EQ(try_ack(&ps, p, first, 20 * rto + 1), SCTP_HB_ACK_BAD_NONCE);
	ack_hb(&ps, p, fourth, 20 * rto + 2, 1);
}

// A potentially-failed path whose probes are all answered later than their
// RTO (a peer or a network that stalls longer than the RTO, a loaded
// machine): each probe times out and the next goes, but the ACK of an
// earlier probe arriving after that still shows the peer alive. The path
// comes back, and the RTT sample is the acknowledged probe's own, so the
// RTO grows toward what the path takes.
TEST(Paths, LateProbeAckAfterTheNextProbeCounts)
{
	const struct sctp_profile *p = &sctp_profile_dc;
	PathSet ps;
	make_set(&ps, p, 1, SCTP_US(10));
	uint32_t mask = 0;
	uint64_t now = 0;
	Bytes hb = send_hb(&ps, 0, now, 0x1234);
	std::vector<std::pair<uint64_t, Bytes>> probes = { { now, hb } };
	// Three timeouts: PF, and a probe each RTO (backed off).
	for (int k = 0; k < 3; k++) {
		now = sctp_paths_get(&ps, 0)->hb_due_ns;
		sctp_paths_on_wakeup(&ps, p, now, &mask);
		ASSERT_EQ(mask, 1u) << k;
		probes.emplace_back(now, send_hb(&ps, 0, now, 0x5678 + k)); // new random: ignored
	}
	const struct sctp_path *pa = sctp_paths_get(&ps, 0);
	ASSERT_EQ(pa->state, SCTP_PATH_PF);
	ASSERT_EQ(pa->errors, 3);
	// The second probe's ACK, after the third probe left.
	uint64_t sent = probes[2].first;
	now += 1000;
	struct sctp_rto want = pa->rto, newest = pa->rto;
	sctp_rto_sample(&want, p, now - sent);
	sctp_rto_sample(&newest, p, now - probes[3].first);
	ASSERT_NE(want.srtt_ns, newest.srtt_ns);
	uint64_t ev = ack_hb(&ps, p, probes[2].second, now, 0);
	EXPECT_EQ(sctp_path_events(ev, 0), SCTP_PATH_EV_ACTIVE);
	EXPECT_EQ(pa->state, SCTP_PATH_ACTIVE);
	EXPECT_EQ(pa->errors, 0);
	EXPECT_FALSE(pa->flags & SCTP_PATH_F_HB_OUTSTANDING);
	// The RTT sample is the acknowledged probe's round trip, not the newest's.
	EXPECT_EQ(pa->rto.srtt_ns, want.srtt_ns);
	EXPECT_EQ(pa->rto.rto_ns, want.rto_ns);
	// The round is closed: the others' ACKs are refused, a replay too.
	for (const auto &pr : probes)
		EXPECT_EQ(try_ack(&ps, p, pr.second, now + 1), SCTP_HB_ACK_BAD_NONCE);
}

// ---- heartbeat timing ---------------------------------------------------

// §8.3: RTO + HB.interval with jitter of +-50% of the RTO.
TEST_P(PathsByProfile, JitterBoundsAtBothExtremes)
{
	make_set(&ps, p, 1, SCTP_US(10));
	const struct sctp_path *pa = sctp_paths_get(&ps, 0);
	uint64_t rto = pa->rto.rto_ns, hbi = p->hb_interval_ns;
	ASSERT_EQ(rto % 2, 0u);
	EXPECT_EQ(sctp_path_hb_period(pa, p->hb_interval_ns, 0), rto + hbi - rto / 2);
	// rto * (2^32 - 1) / 2^32 rounds down to rto - 1 for any rto below 2^32 ns...
	ASSERT_LT(rto, 1ull << 32);
	uint64_t top = sctp_path_hb_period(pa, p->hb_interval_ns, UINT32_MAX);
	EXPECT_EQ(top, rto + hbi + rto / 2 - 1);
	EXPECT_EQ(sctp_path_hb_period(pa, p->hb_interval_ns, 1u << 31), rto + hbi);

	// ...and for a large RTO (split multiplication).
	struct sctp_path big = *pa;
	big.rto.rto_ns = SCTP_S(3600); // 3.6e12 ns, above 2^32
	EXPECT_EQ(sctp_path_hb_period(&big, p->hb_interval_ns, 0), SCTP_S(1800) + hbi);
	EXPECT_EQ(sctp_path_hb_period(&big, p->hb_interval_ns, 1u << 31), SCTP_S(3600) + hbi);
	uint64_t bigtop = sctp_path_hb_period(&big, p->hb_interval_ns, UINT32_MAX);
	// 3.6e12 * (2^32 - 1) / 2^32 = 3.6e12 - 838.19 -> floor
	EXPECT_EQ(bigtop, SCTP_S(1800) + hbi + (SCTP_S(3600) - 839));

	// The first heartbeat after start uses the same formula.
	EXPECT_EQ(pa->hb_due_ns, rto + hbi - rto / 2);
	PathSet hi;
	make_set(&hi, p, 1, SCTP_US(10), UINT32_MAX);
	EXPECT_EQ(sctp_paths_get(&hi, 0)->hb_due_ns, top);
}

// RFC 6458 §8.1.12 with spp_address: Path.Max.Retrans of one path. Path 1
// (its own PMR 1, PF off there) is inactive at its 2nd error; path 0 takes
// the same two errors under the association's PMR and stays usable.
TEST_P(PathsByProfile, PerPathMaxRetrans)
{
	struct sctp_profile q = *p;
	sctp_profile_path_set_max_retrans(&q, 1, 1);
	sctp_profile_path_set_pf(&q, 1, false, 0);
	ASSERT_EQ(sctp_profile_check(&q), nullptr);
	ASSERT_GT(p->path_max_retrans, 2u);
	make_set(&ps, &q, 2, SCTP_US(10));
	for (unsigned i : { 0u, 1u })
		sctp_paths_on_t3_expiry(&ps, &q, i, 1);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->state, SCTP_PATH_ACTIVE) << "1 error: PMR 1 not exceeded";
	uint64_t ev = 0;
	for (unsigned i : { 0u, 1u })
		ev |= sctp_paths_on_t3_expiry(&ps, &q, i, 2);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->state, SCTP_PATH_INACTIVE);
	EXPECT_TRUE(sctp_path_events(ev, 1) & SCTP_PATH_EV_INACTIVE);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->errors, 2u);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->state, p->pf_enabled ? SCTP_PATH_PF : SCTP_PATH_ACTIVE);
	EXPECT_FALSE(sctp_path_events(ev, 0) & SCTP_PATH_EV_INACTIVE);
}

// RFC 7829 SCTP_PEER_ADDR_THLDS on one path: path 1 has PF on with PFMR 1
// (PF at its 2nd error), path 2 PF off (never PF); path 0 keeps the
// association's (RFC: off; DC: on, PFMR 0).
TEST_P(PathsByProfile, PerPathPfThreshold)
{
	struct sctp_profile q = *p;
	sctp_profile_path_set_pf(&q, 1, true, 1);
	sctp_profile_path_set_pf(&q, 2, false, 0);
	ASSERT_EQ(sctp_profile_check(&q), nullptr);
	make_set(&ps, &q, 3, SCTP_US(10));
	for (unsigned i = 0; i < 3; i++)
		sctp_paths_on_t3_expiry(&ps, &q, i, 1);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->state, p->pf_enabled ? SCTP_PATH_PF : SCTP_PATH_ACTIVE);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->state, SCTP_PATH_ACTIVE) << "PFMR 1 not exceeded";
	EXPECT_EQ(sctp_paths_get(&ps, 2)->state, SCTP_PATH_ACTIVE);
	for (unsigned i = 0; i < 3; i++)
		sctp_paths_on_t3_expiry(&ps, &q, i, 2);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->state, SCTP_PATH_PF);
	EXPECT_EQ(sctp_paths_get(&ps, 2)->state, SCTP_PATH_ACTIVE) << "PF off on path 2";
	// Still inactive past Path.Max.Retrans, PF or not.
	for (unsigned k = 2; k <= p->path_max_retrans; k++)
		sctp_paths_on_t3_expiry(&ps, &q, 2, 3);
	EXPECT_EQ(sctp_paths_get(&ps, 2)->state, SCTP_PATH_INACTIVE);
}

// §8.3 B: HB.interval of one path. Path 1 (its own, 3 times the
// association's) is heartbeated at its interval, path 0 at the
// association's, from the start and after each heartbeat.
TEST_P(PathsByProfile, PerPathHeartbeatInterval)
{
	struct sctp_profile q = *p;
	const uint64_t hbi = p->hb_interval_ns, own = 3 * p->hb_interval_ns;
	sctp_profile_path_set_hb_interval(&q, 1, own);
	ASSERT_EQ(sctp_profile_check(&q), nullptr);
	EXPECT_EQ(sctp_profile_hb_interval(&q, 0), hbi);
	EXPECT_EQ(sctp_profile_hb_interval(&q, 1), own);
	make_set(&ps, &q, 2, SCTP_US(10));
	const struct sctp_path *p0 = sctp_paths_get(&ps, 0), *p1 = sctp_paths_get(&ps, 1);
	EXPECT_EQ(p0->hb_due_ns, sctp_path_hb_period(p0, hbi, 0));
	EXPECT_EQ(p1->hb_due_ns, sctp_path_hb_period(p1, own, 0));
	// Each answered heartbeat plans the next with the path's interval.
	for (unsigned i : { 0u, 1u }) {
		uint64_t t = sctp_paths_get(&ps, i)->hb_due_ns;
		uint32_t mask = 0;
		sctp_paths_on_wakeup(&ps, &q, t, &mask);
		ASSERT_TRUE(mask & (1u << i));
		ack_hb(&ps, &q, send_hb(&ps, i, t, 10 + i), t + SCTP_US(10), i);
		EXPECT_EQ(sctp_paths_get(&ps, i)->hb_due_ns,
			  t + sctp_path_hb_period(sctp_paths_get(&ps, i), i ? own : hbi, 0))
			<< i;
	}
	// A change in force reschedules (what sctp_assoc_set_opts() does for each path).
	sctp_profile_path_set_hb_interval(&q, 1, 2 * own);
	uint64_t sent = p1->hb_sent_ns;
	ASSERT_EQ(sctp_paths_set_hb_enabled(&ps, &q, 1, true, sent + 1), 0);
	EXPECT_EQ(p1->hb_due_ns, sent + sctp_path_hb_period(p1, 2 * own, 0));
}

// A set for the whole association (RFC 6458 §8.1.12 without spp_address)
// gives every path the association's value of each field it names; the
// paths keep their own values of the others. With none left, the profile
// is the association's again, byte for byte.
TEST_P(PathsByProfile, AssociationWideSetReplacesThePathsValues)
{
	struct sctp_profile q = *p;
	sctp_profile_path_set_max_retrans(&q, 1, 1);
	sctp_profile_path_set_pf(&q, 1, false, 0);
	sctp_profile_path_set_hb_interval(&q, 1, 3 * p->hb_interval_ns);
	ASSERT_EQ(q.path_own, 2u);
	q.path_max_retrans = (uint16_t)(p->path_max_retrans + 1);
	sctp_profile_paths_follow(&q, SCTP_PROFILE_OWN_MAX_RETRANS);
	EXPECT_EQ(sctp_profile_path_max_retrans(&q, 1), q.path_max_retrans);
	EXPECT_EQ(sctp_profile_hb_interval(&q, 1), 3 * p->hb_interval_ns) << "not named: kept";
	make_set(&ps, &q, 2, SCTP_US(10));
	for (unsigned k = 0; k < 2; k++)
		sctp_paths_on_t3_expiry(&ps, &q, 1, 1);
	EXPECT_NE(sctp_paths_get(&ps, 1)->state, SCTP_PATH_INACTIVE) << "PMR 1 gone";
	sctp_profile_paths_follow(&q, SCTP_PROFILE_OWN_HB_INTERVAL | SCTP_PROFILE_OWN_PF);
	EXPECT_EQ(q.path_own, 0u);
	q.path_max_retrans = p->path_max_retrans;
	EXPECT_EQ(memcmp(&q, p, sizeof(q)), 0);
	EXPECT_EQ(sctp_profile_check(&q), nullptr);
}

// §8.3 "idle": new data pushes the next heartbeat out (checked lazily).
TEST_P(PathsByProfile, BusyPathsAreNotHeartbeated)
{
	make_set(&ps, p, 2, SCTP_US(10));
	uint64_t due = sctp_paths_get(&ps, 0)->hb_due_ns;
	uint64_t period = sctp_path_hb_period(sctp_paths_get(&ps, 0), p->hb_interval_ns, 0);
	ASSERT_EQ(due, period);
	sctp_paths_on_data_sent(&ps, 0, due - 10);
	sctp_paths_on_data_sent(&ps, 5, due - 10);   // not in use: ignored
	EXPECT_EQ(sctp_paths_next_wakeup(&ps), due); // lazy: not moved yet
	uint32_t mask = 0;
	sctp_paths_on_wakeup(&ps, p, due, &mask);
	EXPECT_EQ(mask, 2u); // path 1 idle, path 0 busy
	EXPECT_EQ(sctp_paths_get(&ps, 0)->hb_due_ns, due - 10 + period);
	sctp_paths_on_wakeup(&ps, p, due - 10 + period, &mask);
	EXPECT_TRUE(mask & 1u);
}

// §8.3: an unanswered heartbeat backs the RTO off; the next is due one
// period (with the backed-off RTO) after the last was sent.
TEST_P(PathsByProfile, NextHeartbeatAfterTimeoutUsesTheBackedOffRto)
{
	make_set(&ps, p, 2, SCTP_US(10));
	uint64_t t = sctp_paths_get(&ps, 1)->hb_due_ns;
	uint32_t mask = 0;
	sctp_paths_on_wakeup(&ps, p, t, &mask);
	ASSERT_TRUE(mask & 2u);
	send_hb(&ps, 1, t, 1, 0);
	uint64_t rto = sctp_paths_get(&ps, 1)->rto.rto_ns;
	sctp_paths_on_wakeup(&ps, p, t + rto, &mask);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->errors, 1);
	if (p->pf_enabled) {
		// PF: probed again at once (one per RTO).
		EXPECT_TRUE(mask & 2u);
		EXPECT_EQ(sctp_paths_get(&ps, 1)->hb_due_ns, t + rto);
	} else {
		EXPECT_FALSE(mask & 2u);
		EXPECT_EQ(sctp_paths_get(&ps, 1)->hb_due_ns,
			  t + sctp_path_hb_period(sctp_paths_get(&ps, 1), p->hb_interval_ns, 0));
		EXPECT_EQ(sctp_paths_get(&ps, 1)->rto.rto_ns, 2 * rto);
	}
}

// §8.3 A/C: heartbeats off for a path, except PF probing (RFC 7829).
TEST(Paths, HeartbeatsDisabledButPfStillProbed)
{
	const struct sctp_profile *p = &sctp_profile_dc;
	PathSet ps;
	make_set(&ps, p, 2, SCTP_US(10));
	EXPECT_EQ(sctp_paths_set_hb_enabled(&ps, p, 0, false, 0), 0);
	EXPECT_EQ(sctp_paths_set_hb_enabled(&ps, p, 5, false, 0), -1);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->hb_due_ns, SCTP_TIME_NEVER);
	EXPECT_EQ(sctp_paths_next_wakeup(&ps), sctp_paths_get(&ps, 1)->hb_due_ns);
	sctp_paths_on_t3_expiry(&ps, p, 0, 7);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->hb_due_ns, 7u);
	ack_hb(&ps, p, send_hb(&ps, 0, 7, 1), 8, 0);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->hb_due_ns, SCTP_TIME_NEVER);
	EXPECT_EQ(sctp_paths_set_hb_enabled(&ps, p, 0, true, 9), 0);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->hb_due_ns,
		  7 + sctp_path_hb_period(sctp_paths_get(&ps, 0), p->hb_interval_ns, 0));
}

// §8.3: an inactive path is still heartbeated; its timeouts count on the
// association (§8.1) but no longer on the path.
TEST(Paths, InactivePathHeartbeatsCountOnTheAssociationOnly)
{
	const struct sctp_profile *p = &sctp_profile_rfc;
	PathSet ps;
	make_set(&ps, p, 2, SCTP_MS(10));
	for (unsigned k = 0; k <= p->path_max_retrans; k++)
		sctp_paths_on_t3_expiry(&ps, p, 0, 1);
	sctp_paths_on_data_acked(&ps, p, 1, 2); // association counter back to 0
	ASSERT_EQ(sctp_paths_get(&ps, 0)->state, SCTP_PATH_INACTIVE);
	uint64_t t = sctp_paths_get(&ps, 0)->hb_due_ns;
	ASSERT_NE(t, SCTP_TIME_NEVER);
	uint32_t mask = 0;
	sctp_paths_on_wakeup(&ps, p, t, &mask);
	ASSERT_TRUE(mask & 1u);
	send_hb(&ps, 0, t, 1);
	sctp_paths_on_wakeup(&ps, p, t + sctp_paths_get(&ps, 0)->rto.rto_ns, &mask);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->errors, p->path_max_retrans + 1u);
	EXPECT_EQ(ps.assoc_errors, 1);
}

TEST(Paths, NextWakeupIsTheEarliestDeadline)
{
	const struct sctp_profile *p = &sctp_profile_dc;
	PathSet ps;
	make_set(&ps, p, 3, SCTP_US(10), 0x12345678);
	uint64_t m = SCTP_TIME_NEVER;
	for (unsigned i = 0; i < 3; i++)
		m = sctp_paths_get(&ps, i)->hb_due_ns < m ? sctp_paths_get(&ps, i)->hb_due_ns : m;
	EXPECT_EQ(sctp_paths_next_wakeup(&ps), m);
	// The per-path rotation of the random value spreads the first heartbeats.
	EXPECT_NE(sctp_paths_get(&ps, 0)->hb_due_ns, sctp_paths_get(&ps, 1)->hb_due_ns);
	send_hb(&ps, 2, 5, 1);
	EXPECT_EQ(sctp_paths_next_wakeup(&ps), 5 + sctp_paths_get(&ps, 2)->rto.rto_ns);
	sctp_paths_hb_stop(&ps);
	EXPECT_EQ(sctp_paths_next_wakeup(&ps), SCTP_TIME_NEVER);
	uint32_t mask = 7;
	EXPECT_EQ(sctp_paths_on_wakeup(&ps, p, SCTP_TIME_NEVER - 1, &mask), 0u);
	EXPECT_EQ(mask, 0u);
}

// Times near the end of the clock and absurd intervals saturate at NEVER.
TEST(Paths, NoOverflowNearTheEndOfTime)
{
	struct sctp_profile p = sctp_profile_rfc;
	p.hb_interval_ns = UINT64_MAX - 10;
	ASSERT_EQ(sctp_profile_check(&p), nullptr);
	PathSet ps;
	make_set(&ps, &p, 2, SCTP_MS(10));
	EXPECT_EQ(sctp_path_hb_period(sctp_paths_get(&ps, 0), p.hb_interval_ns, 0),
		  SCTP_TIME_NEVER);
	EXPECT_EQ(sctp_path_hb_period(sctp_paths_get(&ps, 0), p.hb_interval_ns, UINT32_MAX),
		  SCTP_TIME_NEVER);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->hb_due_ns, SCTP_TIME_NEVER);
	EXPECT_EQ(sctp_paths_next_wakeup(&ps), SCTP_TIME_NEVER);

	p = sctp_profile_rfc;
	make_set(&ps, &p, 2, SCTP_MS(10));
	const uint64_t late = SCTP_TIME_NEVER - 5;
	sctp_paths_hb_start(&ps, &p, late, UINT32_MAX);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->hb_due_ns, SCTP_TIME_NEVER);
	EXPECT_EQ(sctp_paths_next_wakeup(&ps), SCTP_TIME_NEVER);
	Bytes info = send_hb(&ps, 1, late, 9);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->hb_due_ns, SCTP_TIME_NEVER); // ACK deadline saturates
	ack_hb(&ps, &p, info, late + 1, 1);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->hb_due_ns, SCTP_TIME_NEVER);
	// An ACK "before" its HEARTBEAT (a clock that went back) is a zero sample.
	info = send_hb(&ps, 1, late, 10);
	ack_hb(&ps, &p, info, 3, 1);
	EXPECT_EQ(sctp_paths_get(&ps, 1)->rto.rto_ns, p.rto_min_ns);
	// A PF probe due "now" at the last nanosecond.
	struct sctp_profile d = sctp_profile_dc;
	make_set(&ps, &d, 2, SCTP_US(10));
	sctp_paths_on_t3_expiry(&ps, &d, 0, SCTP_TIME_NEVER - 1);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->hb_due_ns, SCTP_TIME_NEVER - 1);
	uint32_t mask = 0;
	sctp_paths_on_wakeup(&ps, &d, SCTP_TIME_NEVER - 1, &mask);
	EXPECT_EQ(mask & 1u, 1u);
	send_hb(&ps, 0, SCTP_TIME_NEVER - 1, 1);
	EXPECT_EQ(sctp_paths_get(&ps, 0)->hb_due_ns, SCTP_TIME_NEVER);
}

// ---- failover time (docs/PATHS.md) ---------------------------------------

namespace {

struct Failover {
	uint64_t first_rtx_on_alternate; // first retransmission sent on path 1
	uint64_t failover;		 // new data moves to path 1
	uint64_t primary_inactive;	 // path 0 declared inactive
};

// docs/PATHS.md's scenario on a virtual clock. Two confirmed paths, both
// measured with a 10 us RTT (RTO at RTO.Min in both profiles); data flows on
// path 0. At t = 0, just as a SACK restarted path 0's T3-rtx timer, path 0
// starts dropping everything. Path 1 answers every HEARTBEAT at once. New
// data keeps going to the data path, restarting its T3-rtx with the current
// RTO; timed-out chunks are retransmitted on sctp_paths_rtx_path().
Failover
black_hole_primary(const struct sctp_profile *p)
{
	PathSet ps;
	make_set(&ps, p, 2, SCTP_US(10));
	Failover f = { SCTP_TIME_NEVER, SCTP_TIME_NEVER, SCTP_TIME_NEVER };
	uint64_t t3 = sctp_paths_get(&ps, 0)->rto.rto_ns;
	uint64_t nonce = 1;

	for (int step = 0; step < 10000 && f.primary_inactive == SCTP_TIME_NEVER; step++) {
		uint64_t wake = sctp_paths_next_wakeup(&ps);
		uint64_t t;
		if (t3 <= wake) {
			t = t3;
			sctp_paths_on_t3_expiry(&ps, p, 0, t);
			if (sctp_paths_rtx_path(&ps, 0) == 1 &&
			    f.first_rtx_on_alternate == SCTP_TIME_NEVER)
				f.first_rtx_on_alternate = t;
			if (sctp_paths_data_path(&ps) == 0) {
				sctp_paths_on_data_sent(&ps, 0, t);
				t3 = t + sctp_paths_get(&ps, 0)->rto.rto_ns;
			} else {
				t3 = SCTP_TIME_NEVER;
			}
		} else {
			t = wake;
			uint32_t mask = 0;
			sctp_paths_on_wakeup(&ps, p, t, &mask);
			for (unsigned i = 0; i < 2; i++) {
				if (!(mask & (1u << i)))
					continue;
				Bytes info = send_hb(&ps, i, t, nonce++);
				if (i == 1)
					ack_hb(&ps, p, info, t, 1);
			}
		}
		if (sctp_paths_data_path(&ps) == 1 && f.failover == SCTP_TIME_NEVER)
			f.failover = t;
		if (sctp_paths_get(&ps, 0)->state == SCTP_PATH_INACTIVE)
			f.primary_inactive = t;
		EXPECT_LE(ps.assoc_errors, p->assoc_max_retrans);
	}
	return f;
}

} // namespace

// RFC profile, by hand: RTO 1 s, no PF, Path.Max.Retrans 5. Path 0 goes
// inactive at its 6th T3 expiry, each after a doubled RTO:
// 1 + 2 + 4 + 8 + 16 + 32 = 63 s, when new data moves to path 1.
// Retransmissions use path 1 from the first expiry, at 1 s.
TEST(PathsFailoverTime, RfcProfile)
{
	assume_profiles();
	Failover f = black_hole_primary(&sctp_profile_rfc);
	EXPECT_EQ(f.first_rtx_on_alternate, SCTP_S(1));
	EXPECT_EQ(f.failover, SCTP_S(63));
	EXPECT_EQ(f.primary_inactive, SCTP_S(63));
	std::printf("rfc: first retransmission on the alternate %.6f s, failover %.6f s, "
		    "primary inactive %.6f s\n",
		    f.first_rtx_on_alternate / 1e9, f.failover / 1e9, f.primary_inactive / 1e9);
}

// DC profile, by hand: RTO 500 us, PF with PFMR 0. The first T3 expiry
// makes path 0 PF and moves new data and retransmissions to path 1 at
// 0.5 ms. Path 0 is then probed back to back, one HEARTBEAT per (doubling)
// RTO: sent at 0.5 ms (RTO 1 ms), 1.5 ms (2 ms), 3.5 ms (4 ms); the third
// times out at 7.5 ms, the 4th error, above Path.Max.Retrans 3: inactive.
TEST(PathsFailoverTime, DcProfile)
{
	assume_profiles();
	Failover f = black_hole_primary(&sctp_profile_dc);
	EXPECT_EQ(f.first_rtx_on_alternate, SCTP_US(500));
	EXPECT_EQ(f.failover, SCTP_US(500));
	EXPECT_EQ(f.primary_inactive, SCTP_US(7500));
	std::printf("dc: first retransmission on the alternate %.6f s, failover %.6f s, "
		    "primary inactive %.6f s\n",
		    f.first_rtx_on_alternate / 1e9, f.failover / 1e9, f.primary_inactive / 1e9);
}

namespace {

// docs/PATHS.md "Both paths dead": every path drops everything from t = 0.
// Nothing is acknowledged, so no new data is sent after t = 0; the chunks
// outstanding on path 0 move, at each T3-rtx expiry, to
// sctp_paths_rtx_path() and start that path's T3-rtx if it was not
// running. Every HEARTBEAT the path set asks for is sent and lost. At equal
// times a T3-rtx expiry is handled before the heartbeat wake-up. Returns
// when the association is declared lost.
uint64_t
all_paths_dead(const struct sctp_profile *p, unsigned n)
{
	PathSet ps;
	make_set(&ps, p, n, SCTP_US(10));
	uint64_t t3[SCTP_MAX_PATHS];
	for (unsigned i = 0; i < n; i++)
		t3[i] = SCTP_TIME_NEVER;
	t3[0] = sctp_paths_get(&ps, 0)->rto.rto_ns;
	uint64_t nonce = 1;

	for (int step = 0; step < 10000; step++) {
		unsigned x = 0;
		for (unsigned i = 1; i < n; i++)
			x = t3[i] < t3[x] ? i : x;
		uint64_t wake = sctp_paths_next_wakeup(&ps), t, ev;
		if (t3[x] <= wake) {
			t = t3[x];
			ev = sctp_paths_on_t3_expiry(&ps, p, x, t);
			unsigned r = sctp_paths_rtx_path(&ps, x);
			t3[x] = SCTP_TIME_NEVER;
			if (t3[r] == SCTP_TIME_NEVER)
				t3[r] = t + sctp_paths_get(&ps, r)->rto.rto_ns;
		} else {
			t = wake;
			uint32_t mask = 0;
			ev = sctp_paths_on_wakeup(&ps, p, t, &mask);
			for (unsigned i = 0; i < n; i++)
				if (mask & (1u << i))
					send_hb(&ps, i, t, nonce++);
		}
		if (ev & SCTP_PATHS_EV_COMM_LOST)
			return t;
	}
	ADD_FAILURE() << "never lost";
	return 0;
}

} // namespace

// The figures of docs/PATHS.md "Both paths dead", each retraced by hand
// there from this model.
TEST(PathsFailoverTime, AllPathsDead)
{
	assume_profiles();
	struct {
		const struct sctp_profile *p;
		unsigned n;
		uint64_t lost;
	} cases[] = {
		{ &sctp_profile_rfc, 1, SCTP_S(226) },
		{ &sctp_profile_rfc, 2, SCTP_S(54) },
		{ &sctp_profile_dc, 1, SCTP_US(1433500) },
		{ &sctp_profile_dc, 2, SCTP_MS(450) },
	};
	for (const auto &c : cases) {
		uint64_t t = all_paths_dead(c.p, c.n);
		EXPECT_EQ(t, c.lost) << (c.p == &sctp_profile_rfc ? "rfc" : "dc") << " " << c.n;
		std::printf("%s, %u path(s) dead: communication lost at %.6f s\n",
			    c.p == &sctp_profile_rfc ? "rfc" : "dc", c.n, t / 1e9);
	}
}

// Associations set up together heartbeat spread over the interval from the
// first period on (path_start()): 4,000 one-path sets started at the same
// instant, each with its own random value, have their first heartbeats
// within [RTO / 2, HB.interval + 3 RTO / 2) after the start and evenly over
// the interval (no tenth of it holds more than 1.25 times its share).
TEST(Paths, FirstHeartbeatsAreSpreadOverTheInterval)
{
	const struct sctp_profile *p = &sctp_profile_dc;
	const uint64_t start = SCTP_S(100), hbi = p->hb_interval_ns;
	const unsigned n = 4000;
	unsigned bucket[10] = {};
	uint32_t rnd = 12345;
	for (unsigned k = 0; k < n; k++) {
		rnd = rnd * 1664525u + 1013904223u;
		PathSet ps;
		struct sctp_addr a0 = v4(1);
		sctp_paths_init(&ps, p, &a0);
		sctp_paths_hb_start(&ps, p, start, rnd);
		const struct sctp_path *pa = sctp_paths_get(&ps, 0);
		uint64_t rto = pa->rto.rto_ns, due = pa->hb_due_ns;
		ASSERT_GE(due, start + rto / 2);
		ASSERT_LT(due, start + hbi + rto + rto / 2);
		// Take out the jittered RTO part: what is left is the spread.
		uint64_t spread = start + sctp_path_hb_period(pa, hbi, pa->hb_jitter) - due;
		ASSERT_LT(spread, hbi);
		bucket[spread * 10 / hbi]++;
	}
	for (unsigned b = 0; b < 10; b++) {
		EXPECT_GT(bucket[b], n / 10 * 3 / 4) << b;
		EXPECT_LT(bucket[b], n / 10 * 5 / 4) << b;
	}
}

// The idle heartbeat budget (sctp_paths_hb_budgeted(), sctp_paths_hb_defer()):
// an idle path named at its wake-up may be deferred to a granted slot; at the
// slot it is named again and goes without asking; a path that carried data
// meanwhile is not named and loses the slot; a potentially-failed or
// unconfirmed path's probe is never budgeted (sctp_paths_hb_probing()).
TEST(Paths, IdleHeartbeatBudget)
{
	const struct sctp_profile *p = &sctp_profile_dc;
	PathSet ps;
	make_set(&ps, p, 2, SCTP_US(10));
	struct sctp_path *p0 = sctp_paths_get(&ps, 0);
	uint64_t due = p0->hb_due_ns;
	uint32_t mask = 0;
	sctp_paths_on_wakeup(&ps, p, due, &mask);
	ASSERT_TRUE(mask & 1u);
	EXPECT_TRUE(sctp_paths_hb_budgeted(&ps, 0));
	const uint64_t slot = due + SCTP_MS(300);
	sctp_paths_hb_defer(&ps, 0, slot);
	EXPECT_FALSE(sctp_paths_hb_budgeted(&ps, 0));
	EXPECT_EQ(p0->hb_due_ns, slot);
	EXPECT_EQ(p0->flags & SCTP_PATH_F_HB_OUTSTANDING, 0u);
	// Nothing before the slot, the heartbeat at it.
	mask = 0;
	sctp_paths_on_wakeup(&ps, p, slot - 1, &mask);
	EXPECT_EQ(mask & 1u, 0u);
	sctp_paths_on_wakeup(&ps, p, slot, &mask);
	ASSERT_TRUE(mask & 1u);
	EXPECT_FALSE(sctp_paths_hb_budgeted(&ps, 0));
	Bytes info = send_hb(&ps, 0, slot, 7);
	EXPECT_TRUE(p0->flags & SCTP_PATH_F_HB_OUTSTANDING);
	EXPECT_FALSE(p0->flags & SCTP_PATH_F_HB_ADMITTED);
	ack_hb(&ps, p, info, slot + SCTP_US(20), 0);
	// The next period asks again.
	due = p0->hb_due_ns;
	mask = 0;
	sctp_paths_on_wakeup(&ps, p, due, &mask);
	ASSERT_TRUE(mask & 1u);
	EXPECT_TRUE(sctp_paths_hb_budgeted(&ps, 0));
	// Deferred, then data: the path is not idle at the slot; the grant lapses.
	sctp_paths_hb_defer(&ps, 0, due + SCTP_MS(10));
	sctp_paths_on_data_sent(&ps, 0, due + SCTP_MS(5));
	mask = 0;
	sctp_paths_on_wakeup(&ps, p, due + SCTP_MS(10), &mask);
	EXPECT_EQ(mask & 1u, 0u);
	EXPECT_GT(p0->hb_due_ns, due + SCTP_MS(10));
	EXPECT_FALSE(p0->flags & SCTP_PATH_F_HB_ADMITTED);
	// Path 1 potentially failed: probed each RTO, never budgeted.
	uint64_t t = due + SCTP_MS(20);
	sctp_paths_on_t3_expiry(&ps, p, 1, t);
	ASSERT_EQ(sctp_paths_get(&ps, 1)->state, SCTP_PATH_PF);
	mask = 0;
	sctp_paths_on_wakeup(&ps, p, sctp_paths_get(&ps, 1)->hb_due_ns, &mask);
	ASSERT_TRUE(mask & 2u);
	EXPECT_FALSE(sctp_paths_hb_budgeted(&ps, 1));
	EXPECT_TRUE(sctp_paths_hb_probing(&ps, 1));
	EXPECT_FALSE(sctp_paths_hb_probing(&ps, 0));
	// An unconfirmed path's probe is not budgeted either.
	struct sctp_addr a3 = v4(9);
	int k = sctp_paths_add(&ps, p, &a3, false, t, 1);
	ASSERT_GE(k, 0);
	EXPECT_FALSE(sctp_paths_hb_budgeted(&ps, (unsigned)k));
	EXPECT_TRUE(sctp_paths_hb_probing(&ps, (unsigned)k));
	EXPECT_FALSE(sctp_paths_hb_budgeted(&ps, 99));
	EXPECT_FALSE(sctp_paths_hb_probing(&ps, 99));
}
