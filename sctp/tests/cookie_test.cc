// SPDX-License-Identifier: BSD-3-Clause
// The State Cookie (RFC 9260 §5.1.3, §5.1.5): round trips of every field,
// a known-answer vector pinning the layout, tampering and truncation at
// every byte, key rotation with its grace window, the life span edge, the
// Cookie Preservative cap, encode into short buffers, extension negotiation,
// and the OpenSSL allocations a cookie costs.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "hex.h"

extern "C" {
#include "sctp/cookie.h"
}

namespace {

// Every OpenSSL allocation of this process, counted from before main():
// OpenSSL only accepts new memory functions before its first allocation.
std::atomic<unsigned long> g_allocs{ 0 };
std::atomic<unsigned long> g_frees{ 0 };

void *
count_malloc(size_t n, const char *, int)
{
	g_allocs++;
	return malloc(n);
}

void *
count_realloc(void *p, size_t n, const char *, int)
{
	if (p == nullptr)
		g_allocs++;
	return realloc(p, n);
}

void
count_free(void *p, const char *, int)
{
	if (p != nullptr)
		g_frees++;
	free(p);
}

const bool g_counting = CRYPTO_set_mem_functions(count_malloc, count_realloc, count_free) == 1;

using Bytes = std::vector<uint8_t>;

constexpr uint64_t kSecond = 1000000000ull;

Bytes
key_bytes(uint8_t first)
{
	Bytes k(SCTP_COOKIE_KEY_LEN);
	for (size_t i = 0; i < k.size(); i++)
		k[i] = (uint8_t)(first + i);
	return k;
}

const Bytes kKey1 = key_bytes(0x00);
const Bytes kKey2 = key_bytes(0x40);

struct sctp_addr
v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	const uint8_t x[4] = { a, b, c, d };
	return sctp_addr_v4(x);
}

struct sctp_addr
v6(uint16_t first, uint16_t last)
{
	uint8_t x[16] = {};
	x[0] = (uint8_t)(first >> 8);
	x[1] = (uint8_t)first;
	x[14] = (uint8_t)(last >> 8);
	x[15] = (uint8_t)last;
	return sctp_addr_v6(x);
}

// The state of the known-answer vector: every field a distinct value.
struct sctp_cookie_state
kat_state()
{
	struct sctp_cookie_state st;
	memset(&st, 0, sizeof(st));
	st.local_vtag = 0x11223344;
	st.local_initial_tsn = 0x55667788;
	st.peer_vtag = 0x99aabbcc;
	st.peer_initial_tsn = 0xddeeff00;
	st.peer_a_rwnd = 65536;
	st.outbound_streams = 10;
	st.inbound_streams = 2048;
	st.local_port = 36412;
	st.peer_port = 5000;
	st.local_tie_tag = 0xa1a2a3a4;
	st.peer_tie_tag = 0xb1b2b3b4;
	st.extensions =
		SCTP_COOKIE_EXT_ECN | SCTP_COOKIE_EXT_FORWARD_TSN | SCTP_COOKIE_EXT_RECONFIG;
	st.peer_adaptation_ind = 0x01020304;
	st.created_ns = 1000 * kSecond;
	st.lifespan_ns = SCTP_COOKIE_DEFAULT_LIFE_NS;
	st.peer_src = v4(192, 0, 2, 1);
	st.local_addr = v4(198, 51, 100, 7);
	st.n_peer_addrs = 2;
	st.peer_addrs[0] = v4(192, 0, 2, 1);
	st.peer_addrs[1] = v6(0x2001, 1);
	st.peer_addrs[1].bytes[2] = 0x0d;
	st.peer_addrs[1].bytes[3] = 0xb8;
	return st;
}

// The largest cookie: IPv6 everywhere, SCTP_INIT_MAX_ADDRS addresses, and
// fields at their widest so that a narrowed field would show.
struct sctp_cookie_state
max_state()
{
	struct sctp_cookie_state st;
	memset(&st, 0, sizeof(st));
	st.local_vtag = 0xffffffff;
	st.local_initial_tsn = 0xfffffffe;
	st.peer_vtag = 0x80000001;
	st.peer_initial_tsn = 0x7fffffff;
	st.peer_a_rwnd = 0xfffffff0;
	st.outbound_streams = 0xffff;
	st.inbound_streams = 0xfffe;
	st.local_port = 0xfffd;
	st.peer_port = 0x8001;
	st.local_tie_tag = 0xdeadbeef;
	st.peer_tie_tag = 0xcafef00d;
	st.extensions = 0x7f;
	st.peer_adaptation_ind = 0xffffffff;
	st.created_ns = 0xfedcba9876543210ull;
	st.lifespan_ns = 0x0123456789abcdefull;
	st.peer_src = v6(0xfe80, 0xffff);
	st.local_addr = v6(0x2001, 0x0db8);
	st.n_peer_addrs = SCTP_INIT_MAX_ADDRS;
	for (unsigned i = 0; i < SCTP_INIT_MAX_ADDRS; i++)
		st.peer_addrs[i] = v6((uint16_t)(0x2001 + i), (uint16_t)(0x100 + i));
	return st;
}

void
expect_addr_eq(const struct sctp_addr &a, const struct sctp_addr &b, const std::string &what)
{
	EXPECT_EQ(a.family, b.family) << what;
	EXPECT_TRUE(sctp_addr_eq(&a, &b)) << what;
	// Decode zeroes what the family does not use, as the helpers do.
	EXPECT_EQ(memcmp(a.bytes, b.bytes, sizeof(a.bytes)), 0) << what;
}

void
expect_state_eq(const struct sctp_cookie_state &a, const struct sctp_cookie_state &b)
{
	EXPECT_EQ(a.local_vtag, b.local_vtag);
	EXPECT_EQ(a.local_initial_tsn, b.local_initial_tsn);
	EXPECT_EQ(a.peer_vtag, b.peer_vtag);
	EXPECT_EQ(a.peer_initial_tsn, b.peer_initial_tsn);
	EXPECT_EQ(a.peer_a_rwnd, b.peer_a_rwnd);
	EXPECT_EQ(a.outbound_streams, b.outbound_streams);
	EXPECT_EQ(a.inbound_streams, b.inbound_streams);
	EXPECT_EQ(a.local_port, b.local_port);
	EXPECT_EQ(a.peer_port, b.peer_port);
	EXPECT_EQ(a.local_tie_tag, b.local_tie_tag);
	EXPECT_EQ(a.peer_tie_tag, b.peer_tie_tag);
	EXPECT_EQ(a.extensions, b.extensions);
	EXPECT_EQ(a.peer_adaptation_ind, b.peer_adaptation_ind);
	EXPECT_EQ(a.created_ns, b.created_ns);
	EXPECT_EQ(a.lifespan_ns, b.lifespan_ns);
	expect_addr_eq(a.peer_src, b.peer_src, "peer_src");
	expect_addr_eq(a.local_addr, b.local_addr, "local_addr");
	ASSERT_EQ(a.n_peer_addrs, b.n_peer_addrs);
	for (unsigned i = 0; i < a.n_peer_addrs; i++)
		expect_addr_eq(a.peer_addrs[i], b.peer_addrs[i],
			       "peer_addrs[" + std::to_string(i) + "]");
}

// A key ring for one test.
class Ring {
      public:
	explicit Ring(const Bytes &key, uint64_t now_ns = 0)
	{
		EXPECT_EQ(sctp_cookie_keys_init(&keys, key.data(), now_ns), 0);
	}
	~Ring()
	{
		sctp_cookie_keys_fini(&keys);
	}
	Ring(const Ring &) = delete;
	Ring &operator=(const Ring &) = delete;

	Bytes encode(const struct sctp_cookie_state &st)
	{
		Bytes out(SCTP_COOKIE_MAX_LEN);
		size_t n = sctp_cookie_encode(&keys, &st, out.data(), out.size());
		out.resize(n);
		return out;
	}

	enum sctp_cookie_verdict decode(const Bytes &c, uint64_t now_ns,
					struct sctp_cookie_state *st = nullptr,
					uint64_t *stale = nullptr)
	{
		struct sctp_cookie_state scratch;
		return sctp_cookie_decode(&keys, c.data(), c.size(), now_ns, st ? st : &scratch,
					  stale);
	}

	struct sctp_cookie_keys keys;
};

// What the decoder must say when byte i of a cookie is changed to v.
enum sctp_cookie_verdict
expected_for_tamper(size_t i, uint8_t v, const struct sctp_cookie_keys &keys, uint64_t now_ns)
{
	if (i == 0)
		return v == SCTP_COOKIE_VERSION ? SCTP_COOKIE_BAD_MAC : SCTP_COOKIE_MALFORMED;
	if (i == 1) {
		const struct sctp_cookie_key &cur = keys.slot[keys.cur];
		const struct sctp_cookie_key &prev = keys.slot[keys.cur ^ 1];
		bool known = (cur.live && cur.id == v) ||
			     (prev.live && prev.id == v && now_ns <= prev.until_ns);
		return known ? SCTP_COOKIE_BAD_MAC : SCTP_COOKIE_UNKNOWN_KEY;
	}
	return SCTP_COOKIE_BAD_MAC;
}

uint8_t
key_id_of(const struct sctp_cookie_keys &keys)
{
	return keys.slot[keys.cur].id;
}

} // namespace

TEST(Cookie, SizeBoundsFitAnInitAck)
{
	EXPECT_EQ(SCTP_COOKIE_MIN_LEN, 106u);
	EXPECT_EQ(SCTP_COOKIE_MAX_LEN, 266u);
	// MTU 1500 under IPv6 (40-byte header): 1460 bytes of SCTP packet. The
	// INIT ACK's common header (12), fixed part (20), State Cookie
	// parameter header (4) and largest cookie leave over 1,100 bytes for
	// our own parameters.
	EXPECT_LT(12u + 20u + 4u + SCTP_COOKIE_MAX_LEN, 1460u - 1100u);
}

TEST(Cookie, RoundTripIpv4)
{
	Ring ring(kKey1);
	struct sctp_cookie_state st = kat_state();
	st.n_peer_addrs = 1;
	Bytes c = ring.encode(st);
	ASSERT_EQ(c.size(), SCTP_COOKIE_HDR_LEN + 3 * 5 + SCTP_COOKIE_MAC_LEN);

	struct sctp_cookie_state got;
	memset(&got, 0xa5, sizeof(got));
	uint64_t stale = 12345;
	EXPECT_EQ(ring.decode(c, st.created_ns, &got, &stale), SCTP_COOKIE_OK);
	EXPECT_EQ(stale, 0u);
	expect_state_eq(got, st);
	// Slots past n_peer_addrs are cleared, not left as they were.
	for (unsigned i = 1; i < SCTP_INIT_MAX_ADDRS; i++)
		EXPECT_EQ(got.peer_addrs[i].family, SCTP_ADDR_NONE);
}

TEST(Cookie, RoundTripIpv6MaxAddresses)
{
	Ring ring(kKey1);
	struct sctp_cookie_state st = max_state();
	Bytes c = ring.encode(st);
	ASSERT_EQ(c.size(), SCTP_COOKIE_MAX_LEN);
	struct sctp_cookie_state got;
	memset(&got, 0, sizeof(got));
	EXPECT_EQ(ring.decode(c, st.created_ns, &got), SCTP_COOKIE_OK);
	expect_state_eq(got, st);
}

TEST(Cookie, RoundTripMixedFamiliesAndNoAddresses)
{
	Ring ring(kKey1);
	struct sctp_cookie_state st = kat_state();
	st.peer_src = v6(0x2001, 7);
	st.local_addr = v4(10, 0, 0, 1);
	for (unsigned n = 0; n <= SCTP_INIT_MAX_ADDRS; n++) {
		st.n_peer_addrs = (uint8_t)n;
		for (unsigned i = 0; i < n; i++)
			st.peer_addrs[i] = i % 2 ? v6((uint16_t)i, 9) : v4(10, 1, 2, (uint8_t)i);
		Bytes c = ring.encode(st);
		ASSERT_FALSE(c.empty()) << n;
		struct sctp_cookie_state got;
		ASSERT_EQ(ring.decode(c, st.created_ns, &got), SCTP_COOKIE_OK) << n;
		expect_state_eq(got, st);
	}
	struct sctp_cookie_state smallest = kat_state();
	smallest.n_peer_addrs = 0;
	EXPECT_EQ(ring.encode(smallest).size(), SCTP_COOKIE_MIN_LEN);
}

// The layout, byte for byte. The body is written out by hand from the
// table in sctp/cookie.h; the MAC was computed independently with
// `openssl dgst -sha256 -mac HMAC -macopt hexkey:000102...1f` and Python's
// hmac module over that body.
TEST(Cookie, KnownAnswerVector)
{
	const Bytes body = hex::bytes("01 00 02 00"
				      "000000e8 d4a51000" // created: 1000 s
				      "0000000d f8475800" // life span: 60 s
				      "11223344 55667788 99aabbcc ddeeff00 00010000"
				      "000a 0800 8e3c 1388"
				      "a1a2a3a4 b1b2b3b4 0000000b 01020304"
				      "04 c0000201" // INIT source 192.0.2.1
				      "04 c6336407" // INIT destination 198.51.100.7
				      "04 c0000201"
				      "06 20010db8 00000000 00000000 00000001");
	const std::string mac = "84c4bdf3f53f987b54d18c6c01cdc189e058730d69111bedb93f4b82f191df33";
	Bytes expected = body;
	Bytes mac_bytes = hex::bytes(mac);
	expected.insert(expected.end(), mac_bytes.begin(), mac_bytes.end());

	Ring ring(kKey1);
	Bytes c = ring.encode(kat_state());
	EXPECT_EQ(hex::dump(c), hex::dump(expected));

	// The precomputed-pad HMAC is RFC 2104 HMAC: OpenSSL's one-shot agrees.
	uint8_t one_shot[32];
	unsigned int n = 0;
	ASSERT_NE(HMAC(EVP_sha256(), kKey1.data(), (int)kKey1.size(), body.data(), body.size(),
		       one_shot, &n),
		  nullptr);
	EXPECT_EQ(hex::dump(one_shot, n), hex::dump(mac_bytes));

	struct sctp_cookie_state got;
	EXPECT_EQ(ring.decode(expected, 1000 * kSecond, &got), SCTP_COOKIE_OK);
	expect_state_eq(got, kat_state());
}

TEST(Cookie, MacIsHmacSha256OfTheBodyUnderEitherKey)
{
	Ring ring(kKey1);
	for (int round = 0; round < 2; round++) {
		const Bytes &key = round == 0 ? kKey1 : kKey2;
		for (uint8_t n = 0; n <= SCTP_INIT_MAX_ADDRS; n++) {
			struct sctp_cookie_state st = max_state();
			st.n_peer_addrs = n;
			st.local_vtag = 1000u + n;
			Bytes c = ring.encode(st);
			ASSERT_GE(c.size(), SCTP_COOKIE_MIN_LEN);
			size_t body = c.size() - SCTP_COOKIE_MAC_LEN;
			uint8_t want[32];
			HMAC(EVP_sha256(), key.data(), (int)key.size(), c.data(), body, want,
			     nullptr);
			EXPECT_EQ(hex::dump(c.data() + body, 32), hex::dump(want, 32));
		}
		ASSERT_EQ(sctp_cookie_keys_rotate(&ring.keys, kKey2.data(), 0, 0), 0);
	}
}

TEST(Cookie, TamperedByteAtEveryPosition)
{
	Ring ring(kKey1);
	struct sctp_cookie_state st = max_state();
	st.created_ns = 50 * kSecond;
	st.lifespan_ns = SCTP_COOKIE_DEFAULT_LIFE_NS;
	for (uint8_t n : { (uint8_t)0, (uint8_t)1, (uint8_t)SCTP_INIT_MAX_ADDRS }) {
		st.n_peer_addrs = n;
		const Bytes c = ring.encode(st);
		ASSERT_FALSE(c.empty());
		for (size_t i = 0; i < c.size(); i++) {
			for (uint8_t mask : { 0x01, 0x80, 0xff }) {
				Bytes t = c;
				t[i] ^= mask;
				EXPECT_EQ(ring.decode(t, st.created_ns),
					  expected_for_tamper(i, t[i], ring.keys, st.created_ns))
					<< "byte " << i << " ^ " << (int)mask << " of " << c.size();
			}
		}
	}
}

TEST(Cookie, KeyIdOfTheOtherLiveKeyIsABadMac)
{
	Ring ring(kKey1);
	struct sctp_cookie_state st = kat_state();
	Bytes old = ring.encode(st); // key id 0
	ASSERT_EQ(sctp_cookie_keys_rotate(&ring.keys, kKey2.data(), st.created_ns, kSecond), 0);
	Bytes now = ring.encode(st); // key id 1
	ASSERT_EQ(now[1], 1);
	ASSERT_EQ(old[1], 0);
	now[1] = 0;
	old[1] = 1;
	EXPECT_EQ(ring.decode(now, st.created_ns), SCTP_COOKIE_BAD_MAC);
	EXPECT_EQ(ring.decode(old, st.created_ns), SCTP_COOKIE_BAD_MAC);
}

TEST(Cookie, TruncatedAndExtendedAtEveryLength)
{
	Ring ring(kKey1);
	struct sctp_cookie_state st = max_state();
	st.created_ns = 0;
	st.lifespan_ns = kSecond;
	const Bytes c = ring.encode(st);
	ASSERT_EQ(c.size(), SCTP_COOKIE_MAX_LEN);
	for (size_t n = 0; n < c.size(); n++) {
		Bytes t(c.begin(), c.begin() + (long)n);
		enum sctp_cookie_verdict want =
			n < SCTP_COOKIE_MIN_LEN ? SCTP_COOKIE_MALFORMED : SCTP_COOKIE_BAD_MAC;
		EXPECT_EQ(ring.decode(t, 0), want) << "length " << n;
	}
	// Longer than any cookie we make.
	Bytes longer = c;
	longer.push_back(0);
	EXPECT_EQ(ring.decode(longer, 0), SCTP_COOKIE_MALFORMED);
	// Longer but within bounds: the MAC moves, so it fails.
	struct sctp_cookie_state small = kat_state();
	Bytes s = ring.encode(small);
	s.push_back(0);
	EXPECT_EQ(ring.decode(s, small.created_ns), SCTP_COOKIE_BAD_MAC);
	// A zero-length cookie is not even looked at.
	EXPECT_EQ(sctp_cookie_decode(&ring.keys, nullptr, 0, 0, &st, nullptr),
		  SCTP_COOKIE_MALFORMED);
}

TEST(Cookie, WrongKeyIsABadMac)
{
	Ring maker(kKey1);
	Ring other(kKey2); // same key id 0, another secret
	struct sctp_cookie_state st = kat_state();
	Bytes c = maker.encode(st);
	EXPECT_EQ(other.decode(c, st.created_ns), SCTP_COOKIE_BAD_MAC);
	EXPECT_EQ(maker.decode(c, st.created_ns), SCTP_COOKIE_OK);
}

TEST(Cookie, UnknownKeyId)
{
	Ring ring(kKey1);
	struct sctp_cookie_state st = kat_state();
	Bytes c = ring.encode(st);
	for (unsigned id = 1; id < 256; id++) {
		c[1] = (uint8_t)id;
		EXPECT_EQ(ring.decode(c, st.created_ns), SCTP_COOKIE_UNKNOWN_KEY) << id;
	}
}

TEST(Cookie, PreviousKeyVerifiesInsideTheGraceWindowOnly)
{
	const uint64_t t_rotate = 500 * kSecond;
	const uint64_t grace = 120 * kSecond;
	Ring ring(kKey1, 0);
	struct sctp_cookie_state st = kat_state();
	st.created_ns = t_rotate - kSecond;
	st.lifespan_ns = 10 * 60 * kSecond; // outlives the window: the key decides
	Bytes before = ring.encode(st);
	ASSERT_EQ(before[1], 0);

	ASSERT_EQ(sctp_cookie_keys_rotate(&ring.keys, kKey2.data(), t_rotate, grace), 0);
	EXPECT_EQ(key_id_of(ring.keys), 1);
	EXPECT_EQ(ring.keys.slot[ring.keys.cur].installed_ns, t_rotate);
	Bytes after = ring.encode(st);
	ASSERT_EQ(after[1], 1);

	struct sctp_cookie_state got;
	EXPECT_EQ(ring.decode(before, t_rotate, &got), SCTP_COOKIE_OK);
	expect_state_eq(got, st);
	EXPECT_EQ(ring.decode(before, t_rotate + grace, &got), SCTP_COOKIE_OK);
	EXPECT_EQ(ring.decode(before, t_rotate + grace + 1), SCTP_COOKIE_UNKNOWN_KEY);
	// The new key is not bounded by the window.
	EXPECT_EQ(ring.decode(after, t_rotate + grace + 1), SCTP_COOKIE_OK);
}

TEST(Cookie, SecondRotationForgetsTheOldestKey)
{
	Ring ring(kKey1, 0);
	struct sctp_cookie_state st = kat_state();
	Bytes k0 = ring.encode(st);
	ASSERT_EQ(sctp_cookie_keys_rotate(&ring.keys, kKey2.data(), 0, UINT64_MAX), 0);
	Bytes k1 = ring.encode(st);
	const Bytes key3 = key_bytes(0x80);
	ASSERT_EQ(sctp_cookie_keys_rotate(&ring.keys, key3.data(), 0, UINT64_MAX), 0);
	Bytes k2 = ring.encode(st);
	EXPECT_EQ(k2[1], 2);
	EXPECT_EQ(ring.decode(k0, st.created_ns), SCTP_COOKIE_UNKNOWN_KEY);
	EXPECT_EQ(ring.decode(k1, st.created_ns), SCTP_COOKIE_OK);
	EXPECT_EQ(ring.decode(k2, st.created_ns), SCTP_COOKIE_OK);
}

TEST(Cookie, KeyIdWrapsAndStaysDistinct)
{
	Ring ring(kKey1, 0);
	for (unsigned i = 1; i <= 300; i++) {
		ASSERT_EQ(
			sctp_cookie_keys_rotate(&ring.keys, (i % 2 ? kKey2 : kKey1).data(), i, 10),
			0);
		EXPECT_EQ(key_id_of(ring.keys), (uint8_t)i);
		EXPECT_NE(ring.keys.slot[0].id, ring.keys.slot[1].id);
	}
	struct sctp_cookie_state st = kat_state();
	EXPECT_EQ(ring.decode(ring.encode(st), st.created_ns), SCTP_COOKIE_OK);
}

TEST(Cookie, LifetimeEdgeAndStaleness)
{
	Ring ring(kKey1);
	struct sctp_cookie_state st = kat_state();
	st.created_ns = 7 * kSecond;
	st.lifespan_ns = SCTP_COOKIE_DEFAULT_LIFE_NS;
	Bytes c = ring.encode(st);
	const uint64_t edge = st.created_ns + st.lifespan_ns;

	uint64_t stale = 99;
	struct sctp_cookie_state got;
	EXPECT_EQ(ring.decode(c, edge, &got, &stale), SCTP_COOKIE_OK);
	EXPECT_EQ(stale, 0u);
	EXPECT_EQ(ring.decode(c, edge + 1, &got, &stale), SCTP_COOKIE_STALE);
	EXPECT_EQ(stale, 1u);
	EXPECT_EQ(sctp_cookie_staleness_us(stale), 1u);

	// Stale by 2.5 s: the Stale Cookie cause says 2,500,000 us, and the
	// state is there for the ERROR's verification tag.
	memset(&got, 0, sizeof(got));
	EXPECT_EQ(ring.decode(c, edge + 2500 * 1000000ull, &got, &stale), SCTP_COOKIE_STALE);
	EXPECT_EQ(stale, 2500000000ull);
	EXPECT_EQ(sctp_cookie_staleness_us(stale), 2500000u);
	expect_state_eq(got, st);

	// No staleness pointer: the verdict alone.
	EXPECT_EQ(ring.decode(c, edge + 1, nullptr, nullptr), SCTP_COOKIE_STALE);
	// Stamped after now (another lcore's clock a little ahead): young.
	EXPECT_EQ(ring.decode(c, st.created_ns - 1, &got, &stale), SCTP_COOKIE_OK);
	EXPECT_EQ(stale, 0u);
}

TEST(Cookie, LifetimeAtTheEndOfTime)
{
	Ring ring(kKey1);
	struct sctp_cookie_state st = kat_state();
	st.created_ns = UINT64_MAX - 10;
	st.lifespan_ns = UINT64_MAX; // created + lifespan would overflow
	Bytes c = ring.encode(st);
	EXPECT_EQ(ring.decode(c, UINT64_MAX), SCTP_COOKIE_OK);
	st.created_ns = 0;
	st.lifespan_ns = UINT64_MAX - 1;
	c = ring.encode(st);
	uint64_t stale = 0;
	EXPECT_EQ(ring.decode(c, UINT64_MAX - 1, nullptr, &stale), SCTP_COOKIE_OK);
	EXPECT_EQ(ring.decode(c, UINT64_MAX, nullptr, &stale), SCTP_COOKIE_STALE);
	EXPECT_EQ(stale, 1u);
}

TEST(Cookie, StalenessMicroseconds)
{
	EXPECT_EQ(sctp_cookie_staleness_us(0), 0u);
	EXPECT_EQ(sctp_cookie_staleness_us(1), 1u);
	EXPECT_EQ(sctp_cookie_staleness_us(999), 1u);
	EXPECT_EQ(sctp_cookie_staleness_us(1000), 1u);
	EXPECT_EQ(sctp_cookie_staleness_us(1001), 2u);
	EXPECT_EQ(sctp_cookie_staleness_us(4294967295000ull), 4294967295u);
	EXPECT_EQ(sctp_cookie_staleness_us(4294967295001ull), 4294967295u);
	EXPECT_EQ(sctp_cookie_staleness_us(UINT64_MAX), 4294967295u);
}

TEST(Cookie, LifespanHonoursThePreservativeUpToTheCap)
{
	const uint64_t base = SCTP_COOKIE_DEFAULT_LIFE_NS;
	const uint64_t cap = 120 * kSecond;
	EXPECT_EQ(sctp_cookie_lifespan(base, 0, cap), base);
	EXPECT_EQ(sctp_cookie_lifespan(base, 10000, cap), 70 * kSecond);
	EXPECT_EQ(sctp_cookie_lifespan(base, 60000, cap), cap); // exactly the cap
	EXPECT_EQ(sctp_cookie_lifespan(base, 60001, cap), cap); // capped
	EXPECT_EQ(sctp_cookie_lifespan(base, UINT32_MAX, cap), cap);
	// A cap at or below the base ignores preservatives, never shortens.
	EXPECT_EQ(sctp_cookie_lifespan(base, 10000, 0), base);
	EXPECT_EQ(sctp_cookie_lifespan(base, 10000, base), base);
	EXPECT_EQ(sctp_cookie_lifespan(base, 0, kSecond), base);
	// No overflow at the top.
	EXPECT_EQ(sctp_cookie_lifespan(UINT64_MAX - 5, UINT32_MAX, UINT64_MAX), UINT64_MAX);
	EXPECT_EQ(sctp_cookie_lifespan(0, UINT32_MAX, UINT64_MAX), 4294967295ull * 1000000ull);
}

TEST(Cookie, EncodeIntoTooSmallABuffer)
{
	Ring ring(kKey1);
	struct sctp_cookie_state st = max_state();
	const size_t need = SCTP_COOKIE_MAX_LEN;
	for (size_t cap = 0; cap < need; cap++) {
		Bytes buf(need + 16, 0xee);
		EXPECT_EQ(sctp_cookie_encode(&ring.keys, &st, buf.data(), cap), 0u) << cap;
		for (size_t i = cap; i < buf.size(); i++)
			ASSERT_EQ(buf[i], 0xee) << "wrote byte " << i << " with cap " << cap;
	}
	Bytes buf(need, 0);
	EXPECT_EQ(sctp_cookie_encode(&ring.keys, &st, buf.data(), need), need);
}

TEST(Cookie, EncodeRefusesWhatItCannotRepresent)
{
	Ring ring(kKey1);
	Bytes buf(512);
	struct sctp_cookie_state st = kat_state();
	st.n_peer_addrs = SCTP_INIT_MAX_ADDRS + 1;
	EXPECT_EQ(sctp_cookie_encode(&ring.keys, &st, buf.data(), buf.size()), 0u);
	st = kat_state();
	st.peer_src.family = 5;
	EXPECT_EQ(sctp_cookie_encode(&ring.keys, &st, buf.data(), buf.size()), 0u);
	st = kat_state();
	st.local_addr.family = SCTP_ADDR_NONE;
	EXPECT_EQ(sctp_cookie_encode(&ring.keys, &st, buf.data(), buf.size()), 0u);
	st = kat_state();
	st.peer_addrs[1].family = 2; // AF_INET is not a family here
	EXPECT_EQ(sctp_cookie_encode(&ring.keys, &st, buf.data(), buf.size()), 0u);
	// An address slot past n_peer_addrs is not looked at.
	st = kat_state();
	st.peer_addrs[5].family = 77;
	EXPECT_NE(sctp_cookie_encode(&ring.keys, &st, buf.data(), buf.size()), 0u);
}

TEST(Cookie, ARingWithoutKeysMakesAndVerifiesNothing)
{
	Ring ring(kKey1);
	struct sctp_cookie_state st = kat_state();
	Bytes c = ring.encode(st);
	sctp_cookie_keys_fini(&ring.keys); // the destructor's second fini is harmless
	Bytes buf(512);
	EXPECT_EQ(sctp_cookie_encode(&ring.keys, &st, buf.data(), buf.size()), 0u);
	EXPECT_EQ(ring.decode(c, st.created_ns), SCTP_COOKIE_UNKNOWN_KEY);
}

// A body whose MAC is right but whose content we would never write: only
// a bug (or a stolen key) gets here, and the decoder still says MALFORMED.
TEST(Cookie, MalformedBodyBehindAValidMac)
{
	Ring ring(kKey1);
	struct sctp_cookie_state st = kat_state();
	const Bytes good = ring.encode(st);
	const Bytes body(good.begin(), good.end() - SCTP_COOKIE_MAC_LEN);
	auto remac = [](Bytes b) {
		uint8_t mac[32];
		HMAC(EVP_sha256(), kKey1.data(), (int)kKey1.size(), b.data(), b.size(), mac,
		     nullptr);
		b.insert(b.end(), mac, mac + 32);
		return b;
	};
	ASSERT_EQ(ring.decode(remac(body), st.created_ns), SCTP_COOKIE_OK);

	Bytes b = body;
	b[2] = SCTP_INIT_MAX_ADDRS + 1; // more addresses than a state holds
	EXPECT_EQ(ring.decode(remac(b), st.created_ns), SCTP_COOKIE_MALFORMED);
	b = body;
	b[2] = 3; // claims one more address than there is
	EXPECT_EQ(ring.decode(remac(b), st.created_ns), SCTP_COOKIE_MALFORMED);
	b = body;
	b[2] = 1; // leaves one address over
	EXPECT_EQ(ring.decode(remac(b), st.created_ns), SCTP_COOKIE_MALFORMED);
	b = body;
	b[3] = 1; // reserved
	EXPECT_EQ(ring.decode(remac(b), st.created_ns), SCTP_COOKIE_MALFORMED);
	b = body;
	b[SCTP_COOKIE_HDR_LEN] = 5; // family of the INIT source
	EXPECT_EQ(ring.decode(remac(b), st.created_ns), SCTP_COOKIE_MALFORMED);
	b = body;
	b[SCTP_COOKIE_HDR_LEN + 10] = 6; // first peer address, 4 bytes, says IPv6
	EXPECT_EQ(ring.decode(remac(b), st.created_ns), SCTP_COOKIE_MALFORMED);
	b = body;
	b.push_back(0); // trailing byte
	EXPECT_EQ(ring.decode(remac(b), st.created_ns), SCTP_COOKIE_MALFORMED);
}

TEST(Cookie, VerdictNames)
{
	EXPECT_STREQ(sctp_cookie_verdict_name(SCTP_COOKIE_OK), "OK");
	EXPECT_STREQ(sctp_cookie_verdict_name(SCTP_COOKIE_MALFORMED), "MALFORMED");
	EXPECT_STREQ(sctp_cookie_verdict_name(SCTP_COOKIE_UNKNOWN_KEY), "UNKNOWN_KEY");
	EXPECT_STREQ(sctp_cookie_verdict_name(SCTP_COOKIE_BAD_MAC), "BAD_MAC");
	EXPECT_STREQ(sctp_cookie_verdict_name(SCTP_COOKIE_STALE), "STALE");
	EXPECT_STREQ(sctp_cookie_verdict_name((enum sctp_cookie_verdict)42), "?");
}

TEST(Cookie, ExtensionNegotiation)
{
	const uint32_t all = 0x7f;
	struct sctp_init_params p;
	memset(&p, 0, sizeof(p));
	EXPECT_EQ(sctp_cookie_ext_negotiate(&p, all, SCTP_EDMID_DTLS), 0u);

	const uint8_t listed[] = { SCTP_CHUNK_RECONFIG, SCTP_CHUNK_I_DATA, SCTP_CHUNK_ASCONF,
				   SCTP_CHUNK_FORWARD_TSN };
	p.ecn = true;
	p.has_supported_ext = true;
	p.ext_chunks = listed;
	p.n_ext_chunks = sizeof(listed);
	p.zero_checksum = true;
	p.zero_checksum_edmid = SCTP_EDMID_DTLS;
	p.has_adaptation = true;
	p.adaptation_ind = 7;
	// ASCONF without ASCONF ACK is not an offer (RFC 5061 §4.2.7);
	// FORWARD TSN in the list counts like the parameter.
	EXPECT_EQ(sctp_cookie_ext_negotiate(&p, all, SCTP_EDMID_DTLS),
		  (uint32_t)(SCTP_COOKIE_EXT_ECN | SCTP_COOKIE_EXT_FORWARD_TSN |
			     SCTP_COOKIE_EXT_I_DATA | SCTP_COOKIE_EXT_RECONFIG |
			     SCTP_COOKIE_EXT_ZERO_CHECKSUM | SCTP_COOKIE_EXT_ADAPTATION));
	// Another method, or none configured: no zero checksum.
	EXPECT_EQ(sctp_cookie_ext_negotiate(&p, all, 2) & SCTP_COOKIE_EXT_ZERO_CHECKSUM, 0u);
	p.zero_checksum_edmid = SCTP_EDMID_RESERVED;
	EXPECT_EQ(sctp_cookie_ext_negotiate(&p, all, SCTP_EDMID_RESERVED) &
			  SCTP_COOKIE_EXT_ZERO_CHECKSUM,
		  0u);

	const uint8_t both[] = { SCTP_CHUNK_ASCONF_ACK, SCTP_CHUNK_ASCONF };
	p.ext_chunks = both;
	p.n_ext_chunks = sizeof(both);
	p.forward_tsn = true; // the RFC 3758 parameter alone
	EXPECT_EQ(sctp_cookie_ext_negotiate(&p, all, SCTP_EDMID_DTLS),
		  (uint32_t)(SCTP_COOKIE_EXT_ECN | SCTP_COOKIE_EXT_FORWARD_TSN |
			     SCTP_COOKIE_EXT_ASCONF | SCTP_COOKIE_EXT_ADAPTATION));
	// Only what we support too.
	EXPECT_EQ(sctp_cookie_ext_negotiate(&p, SCTP_COOKIE_EXT_ECN | SCTP_COOKIE_EXT_I_DATA,
					    SCTP_EDMID_DTLS),
		  (uint32_t)SCTP_COOKIE_EXT_ECN);
	// A Supported Extensions list that was absent is not read.
	p.has_supported_ext = false;
	EXPECT_EQ(sctp_cookie_ext_negotiate(&p, all, SCTP_EDMID_DTLS) & SCTP_COOKIE_EXT_ASCONF, 0u);
}

// From a real INIT's parameters, as the association will call it.
TEST(Cookie, ExtensionNegotiationFromDecodedInitParams)
{
	const Bytes params = hex::bytes("8000 0004"		// ECN Capable
					"c000 0004"		// Forward-TSN-Supported
					"8008 0007 82 c0 40 00" // Supported Extensions
					"c006 0008 00000009");	// Adaptation Layer Indication
	struct sctp_init_params p;
	ASSERT_EQ(sctp_init_params_decode(params.data(), params.size(), &p), SCTP_PERR_OK);
	EXPECT_EQ(sctp_cookie_ext_negotiate(&p, 0x7f, SCTP_EDMID_DTLS),
		  (uint32_t)(SCTP_COOKIE_EXT_ECN | SCTP_COOKIE_EXT_FORWARD_TSN |
			     SCTP_COOKIE_EXT_RECONFIG | SCTP_COOKIE_EXT_I_DATA |
			     SCTP_COOKIE_EXT_ADAPTATION));
}

TEST(Cookie, AddressHelpers)
{
	struct sctp_addr a = v4(10, 0, 0, 1);
	struct sctp_addr b = v4(10, 0, 0, 1);
	EXPECT_EQ(sctp_addr_len(&a), 4);
	EXPECT_TRUE(sctp_addr_eq(&a, &b));
	b.bytes[12] = 0x55; // beyond an IPv4 address: not compared
	EXPECT_TRUE(sctp_addr_eq(&a, &b));
	b.bytes[3] = 2;
	EXPECT_FALSE(sctp_addr_eq(&a, &b));
	struct sctp_addr c = v6(0x2001, 1);
	EXPECT_EQ(sctp_addr_len(&c), 16);
	EXPECT_FALSE(sctp_addr_eq(&a, &c));
	struct sctp_addr d = c;
	d.bytes[15] = 2;
	EXPECT_FALSE(sctp_addr_eq(&c, &d));
	struct sctp_addr none;
	memset(&none, 0, sizeof(none));
	EXPECT_EQ(sctp_addr_len(&none), 0);
}

// Nothing is kept per cookie: OpenSSL 3.0 allocates the digest state on
// each context copy (two per MAC) and frees as many; the ring's contexts
// are all there is between calls.
TEST(Cookie, NoAllocationOutlivesACookie)
{
	if (!g_counting)
		GTEST_SKIP() << "OpenSSL allocated before the counters were installed";
	Ring ring(kKey1);
	struct sctp_cookie_state st = kat_state();
	Bytes buf(SCTP_COOKIE_MAX_LEN);
	struct sctp_cookie_state got;
	size_t n = sctp_cookie_encode(&ring.keys, &st, buf.data(), buf.size());
	ASSERT_EQ(sctp_cookie_decode(&ring.keys, buf.data(), n, st.created_ns, &got, nullptr),
		  SCTP_COOKIE_OK);

	const unsigned rounds = 1000;
	unsigned long a0 = g_allocs, f0 = g_frees;
	for (unsigned i = 0; i < rounds; i++) {
		st.local_vtag = i;
		n = sctp_cookie_encode(&ring.keys, &st, buf.data(), buf.size());
		ASSERT_EQ(
			sctp_cookie_decode(&ring.keys, buf.data(), n, st.created_ns, &got, nullptr),
			SCTP_COOKIE_OK);
	}
	unsigned long allocs = g_allocs - a0, frees = g_frees - f0;
	EXPECT_EQ(allocs, frees);
	// Two MACs per round; at most two digest-state copies per MAC.
	EXPECT_LE(allocs, rounds * 2u * 2u);
	RecordProperty("openssl_allocs_per_mac", std::to_string((double)allocs / (2.0 * rounds)));
}
