/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 9260 §5.1.3 (generating the State Cookie) and §5.1.5 (authenticating
 * it): the cookie codec and its HMAC-SHA256 key ring. The layout is in
 * sctp/cookie.h and docs/COOKIE.md.
 *
 * HMAC (RFC 2104) is SHA-256(K ^ opad || SHA-256(K ^ ipad || m)). Both
 * padded key blocks are absorbed once per key, when the key is installed;
 * a MAC starts from plain-struct copies of the two saved SHA-256 states.
 *
 * Why OpenSSL's low-level SHA256_* API, deprecated since 3.0: it is the
 * only libcrypto interface that hashes without touching the heap. Every
 * EVP digest path in OpenSSL 3.0 allocates the provider's state on each
 * context copy or init (two mallocs per MAC with saved EVP states, 11 with
 * EVP_MAC_CTX_dup, 13 with one-shot HMAC()), and the goal is that an INIT
 * flood allocate nothing (sctp_endpoint_test's flood test counts). It is
 * also faster: a whole IPv4 cookie, MAC included, encodes in about 375
 * cycles (bench_cookie, BM_CookieEncode/0), while the MAC alone with saved
 * EVP states took 430 (BM_Hmac_* in the same benchmark). The deprecation
 * warning is silenced for this file only; the functions exist through the
 * whole 3.x series.
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "sctp/cookie.h"

#include <errno.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/sha.h>

#define SHA256_BLOCK_LEN 64u
#define HMAC_IPAD	 0x36u
#define HMAC_OPAD	 0x5cu

/* ---- key ring ---- */

static void
key_wipe(struct sctp_cookie_key *k)
{
	OPENSSL_clear_free(k->inner, sizeof(SHA256_CTX));
	OPENSSL_clear_free(k->outer, sizeof(SHA256_CTX));
	memset(k, 0, sizeof(*k));
}

/*
 * Absorb the padded key blocks into k's contexts (created when missing).
 * The key is shorter than SHA-256's block, so RFC 2104 pads it with zeros
 * rather than hashing it first.
 */
static int
key_load(struct sctp_cookie_key *k, const uint8_t key[SCTP_COOKIE_KEY_LEN])
{
	uint8_t ipad[SHA256_BLOCK_LEN];
	uint8_t opad[SHA256_BLOCK_LEN];
	int ok;

	/* Allocated once per key slot, at key installation, never per MAC. */
	if (k->inner == NULL)
		k->inner = OPENSSL_zalloc(sizeof(SHA256_CTX));
	if (k->outer == NULL)
		k->outer = OPENSSL_zalloc(sizeof(SHA256_CTX));
	if (k->inner == NULL || k->outer == NULL)
		return -ENOMEM;
	for (unsigned i = 0; i < SHA256_BLOCK_LEN; i++) {
		uint8_t b = i < SCTP_COOKIE_KEY_LEN ? key[i] : 0;
		ipad[i] = (uint8_t)(b ^ HMAC_IPAD);
		opad[i] = (uint8_t)(b ^ HMAC_OPAD);
	}
	ok = SHA256_Init(k->inner) && SHA256_Update(k->inner, ipad, sizeof(ipad)) &&
	     SHA256_Init(k->outer) && SHA256_Update(k->outer, opad, sizeof(opad));
	OPENSSL_cleanse(ipad, sizeof(ipad));
	OPENSSL_cleanse(opad, sizeof(opad));
	return ok ? 0 : -ENOMEM;
}

int
sctp_cookie_keys_init(struct sctp_cookie_keys *keys, const uint8_t key[SCTP_COOKIE_KEY_LEN],
		      uint64_t now_ns)
{
	struct sctp_cookie_key *k = &keys->slot[0];

	memset(keys, 0, sizeof(*keys));
	if (key_load(k, key) != 0)
		return -ENOMEM;
	k->id = 0;
	k->installed_ns = now_ns;
	k->until_ns = UINT64_MAX;
	k->live = true;
	return 0;
}

int
sctp_cookie_keys_rotate(struct sctp_cookie_keys *keys, const uint8_t key[SCTP_COOKIE_KEY_LEN],
			uint64_t now_ns, uint64_t grace_ns)
{
	struct sctp_cookie_key *old = &keys->slot[keys->cur];
	struct sctp_cookie_key *next = &keys->slot[keys->cur ^ 1u];

	/* The slot of the retiring previous key takes the new one. */
	next->live = false;
	if (key_load(next, key) != 0)
		return -ENOMEM;
	next->id = (uint8_t)(old->id + 1u);
	next->installed_ns = now_ns;
	next->until_ns = UINT64_MAX;
	next->live = true;
	old->until_ns = grace_ns > UINT64_MAX - now_ns ? UINT64_MAX : now_ns + grace_ns;
	keys->cur ^= 1u;
	return 0;
}

void
sctp_cookie_keys_fini(struct sctp_cookie_keys *keys)
{
	key_wipe(&keys->slot[0]);
	key_wipe(&keys->slot[1]);
	memset(keys, 0, sizeof(*keys));
}

/* The key a cookie names, or NULL: unknown id, or retired at now_ns. */
static const struct sctp_cookie_key *
key_find(const struct sctp_cookie_keys *keys, uint8_t id, uint64_t now_ns)
{
	const struct sctp_cookie_key *cur = &keys->slot[keys->cur];
	const struct sctp_cookie_key *prev = &keys->slot[keys->cur ^ 1u];

	if (cur->live && cur->id == id)
		return cur;
	if (prev->live && prev->id == id && now_ns <= prev->until_ns)
		return prev;
	return NULL;
}

/* HMAC-SHA256 of msg under k into mac; false only if OpenSSL fails. */
static bool
cookie_mac(struct sctp_cookie_keys *keys, const struct sctp_cookie_key *k, const uint8_t *msg,
	   size_t len, uint8_t mac[SCTP_COOKIE_MAC_LEN])
{
	uint8_t inner[SCTP_COOKIE_MAC_LEN];
	SHA256_CTX c;
	bool ok;

	(void)keys;
	c = *(const SHA256_CTX *)k->inner;
	ok = SHA256_Update(&c, msg, len) && SHA256_Final(inner, &c);
	c = *(const SHA256_CTX *)k->outer;
	ok = ok && SHA256_Update(&c, inner, sizeof(inner)) && SHA256_Final(mac, &c);
	OPENSSL_cleanse(&c, sizeof(c));
	OPENSSL_cleanse(inner, sizeof(inner));
	return ok;
}

/* ---- codec ---- */

static void
addr_write(struct sctp_writer *w, const struct sctp_addr *a)
{
	sctp_writer_u8(w, a->family);
	sctp_writer_bytes(w, a->bytes, sctp_addr_len(a));
}

/* False for a family other than 4 or 6 (the reader's error is separate). */
static bool
addr_read(struct sctp_reader *r, struct sctp_addr *a)
{
	const uint8_t *p;

	memset(a, 0, sizeof(*a));
	a->family = sctp_reader_u8(r);
	if (a->family != SCTP_ADDR_V4 && a->family != SCTP_ADDR_V6)
		return false;
	p = sctp_reader_take(r, sctp_addr_len(a));
	if (p != NULL)
		memcpy(a->bytes, p, sctp_addr_len(a));
	return true;
}

static bool
addr_encodable(const struct sctp_addr *a)
{
	return a->family == SCTP_ADDR_V4 || a->family == SCTP_ADDR_V6;
}

size_t
sctp_cookie_encode(struct sctp_cookie_keys *keys, const struct sctp_cookie_state *st, uint8_t *out,
		   size_t cap)
{
	const struct sctp_cookie_key *k = &keys->slot[keys->cur];
	struct sctp_writer w = sctp_writer_make(out, cap);
	uint8_t *mac;

	if (!k->live || st->n_peer_addrs > SCTP_INIT_MAX_ADDRS || !addr_encodable(&st->peer_src) ||
	    !addr_encodable(&st->local_addr))
		return 0;
	for (unsigned i = 0; i < st->n_peer_addrs; i++)
		if (!addr_encodable(&st->peer_addrs[i]))
			return 0;

	sctp_writer_u8(&w, SCTP_COOKIE_VERSION);
	sctp_writer_u8(&w, k->id);
	sctp_writer_u8(&w, st->n_peer_addrs);
	sctp_writer_u8(&w, 0);
	sctp_writer_u32(&w, (uint32_t)(st->created_ns >> 32));
	sctp_writer_u32(&w, (uint32_t)st->created_ns);
	sctp_writer_u32(&w, (uint32_t)(st->lifespan_ns >> 32));
	sctp_writer_u32(&w, (uint32_t)st->lifespan_ns);
	sctp_writer_u32(&w, st->local_vtag);
	sctp_writer_u32(&w, st->local_initial_tsn);
	sctp_writer_u32(&w, st->peer_vtag);
	sctp_writer_u32(&w, st->peer_initial_tsn);
	sctp_writer_u32(&w, st->peer_a_rwnd);
	sctp_writer_u16(&w, st->outbound_streams);
	sctp_writer_u16(&w, st->inbound_streams);
	sctp_writer_u16(&w, st->local_port);
	sctp_writer_u16(&w, st->peer_port);
	sctp_writer_u32(&w, st->local_tie_tag);
	sctp_writer_u32(&w, st->peer_tie_tag);
	sctp_writer_u32(&w, st->extensions);
	sctp_writer_u32(&w, st->peer_adaptation_ind);
	addr_write(&w, &st->peer_src);
	addr_write(&w, &st->local_addr);
	for (unsigned i = 0; i < st->n_peer_addrs; i++)
		addr_write(&w, &st->peer_addrs[i]);

	size_t body_len = w.off;
	mac = sctp_writer_take(&w, SCTP_COOKIE_MAC_LEN);
	if (mac == NULL || !cookie_mac(keys, k, out, body_len, mac))
		return 0;
	return w.off;
}

static uint64_t
reader_u64(struct sctp_reader *r)
{
	uint64_t hi = sctp_reader_u32(r);
	return hi << 32 | sctp_reader_u32(r);
}

/* The body after its MAC verified: every field, and nothing left over. */
static bool
cookie_body_read(const uint8_t *body, size_t len, struct sctp_cookie_state *st)
{
	struct sctp_reader r = sctp_reader_make(body, len);
	bool families_ok = true;

	sctp_reader_skip(&r, 2); /* version and key id, already checked */
	st->n_peer_addrs = sctp_reader_u8(&r);
	if (sctp_reader_u8(&r) != 0 || st->n_peer_addrs > SCTP_INIT_MAX_ADDRS)
		return false;
	st->created_ns = reader_u64(&r);
	st->lifespan_ns = reader_u64(&r);
	st->local_vtag = sctp_reader_u32(&r);
	st->local_initial_tsn = sctp_reader_u32(&r);
	st->peer_vtag = sctp_reader_u32(&r);
	st->peer_initial_tsn = sctp_reader_u32(&r);
	st->peer_a_rwnd = sctp_reader_u32(&r);
	st->outbound_streams = sctp_reader_u16(&r);
	st->inbound_streams = sctp_reader_u16(&r);
	st->local_port = sctp_reader_u16(&r);
	st->peer_port = sctp_reader_u16(&r);
	st->local_tie_tag = sctp_reader_u32(&r);
	st->peer_tie_tag = sctp_reader_u32(&r);
	st->extensions = sctp_reader_u32(&r);
	st->peer_adaptation_ind = sctp_reader_u32(&r);
	families_ok &= addr_read(&r, &st->peer_src);
	families_ok &= addr_read(&r, &st->local_addr);
	for (unsigned i = 0; i < st->n_peer_addrs && families_ok; i++)
		families_ok &= addr_read(&r, &st->peer_addrs[i]);
	for (unsigned i = st->n_peer_addrs; i < SCTP_INIT_MAX_ADDRS; i++)
		memset(&st->peer_addrs[i], 0, sizeof(st->peer_addrs[i]));
	return families_ok && sctp_reader_ok(&r) && sctp_reader_left(&r) == 0;
}

enum sctp_cookie_verdict
sctp_cookie_decode(struct sctp_cookie_keys *keys, const uint8_t *cookie, size_t len,
		   uint64_t now_ns, struct sctp_cookie_state *out, uint64_t *staleness_ns)
{
	const struct sctp_cookie_key *k;
	uint8_t mac[SCTP_COOKIE_MAC_LEN];
	size_t body_len;
	uint64_t age;

	if (staleness_ns != NULL)
		*staleness_ns = 0;
	if (len < SCTP_COOKIE_MIN_LEN || len > SCTP_COOKIE_MAX_LEN ||
	    cookie[0] != SCTP_COOKIE_VERSION)
		return SCTP_COOKIE_MALFORMED;
	k = key_find(keys, cookie[1], now_ns);
	if (k == NULL)
		return SCTP_COOKIE_UNKNOWN_KEY;
	/* RFC 9260 §5.1.5 steps 1-2: recompute the MAC and compare; nothing
	 * else in the cookie is trusted before this. */
	body_len = len - SCTP_COOKIE_MAC_LEN;
	if (!cookie_mac(keys, k, cookie, body_len, mac) ||
	    CRYPTO_memcmp(mac, cookie + body_len, SCTP_COOKIE_MAC_LEN) != 0)
		return SCTP_COOKIE_BAD_MAC;
	if (!cookie_body_read(cookie, body_len, out))
		return SCTP_COOKIE_MALFORMED;
	/* Step 3: the life span. A cookie stamped later than now_ns (clocks of
	 * two lcores a hair apart) is simply young. */
	age = now_ns > out->created_ns ? now_ns - out->created_ns : 0;
	if (age > out->lifespan_ns) {
		if (staleness_ns != NULL)
			*staleness_ns = age - out->lifespan_ns;
		return SCTP_COOKIE_STALE;
	}
	return SCTP_COOKIE_OK;
}

const char *
sctp_cookie_verdict_name(enum sctp_cookie_verdict v)
{
	switch (v) {
	case SCTP_COOKIE_OK:
		return "OK";
	case SCTP_COOKIE_MALFORMED:
		return "MALFORMED";
	case SCTP_COOKIE_UNKNOWN_KEY:
		return "UNKNOWN_KEY";
	case SCTP_COOKIE_BAD_MAC:
		return "BAD_MAC";
	case SCTP_COOKIE_STALE:
		return "STALE";
	}
	return "?";
}

uint32_t
sctp_cookie_staleness_us(uint64_t staleness_ns)
{
	uint64_t us = staleness_ns / 1000u + (staleness_ns % 1000u != 0);
	return us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

uint64_t
sctp_cookie_lifespan(uint64_t base_ns, uint32_t preservative_increment_ms, uint64_t cap_ns)
{
	uint64_t inc_ns = (uint64_t)preservative_increment_ms * 1000000u; /* < 2^63 */
	uint64_t life = inc_ns > UINT64_MAX - base_ns ? UINT64_MAX : base_ns + inc_ns;

	if (cap_ns < base_ns)
		cap_ns = base_ns;
	return life < cap_ns ? life : cap_ns;
}

static bool
ext_listed(const struct sctp_init_params *p, uint8_t chunk_type)
{
	if (!p->has_supported_ext)
		return false;
	for (uint16_t i = 0; i < p->n_ext_chunks; i++)
		if (p->ext_chunks[i] == chunk_type)
			return true;
	return false;
}

uint32_t
sctp_cookie_ext_negotiate(const struct sctp_init_params *peer, uint32_t ours, uint32_t our_edmid)
{
	uint32_t offered = 0;

	if (peer->ecn)
		offered |= SCTP_COOKIE_EXT_ECN;
	/* RFC 3758 §3.1 announces PR-SCTP with its own parameter; RFC 5061
	 * §4.2.7 lets a sender list FORWARD TSN in Supported Extensions too. */
	if (peer->forward_tsn || ext_listed(peer, SCTP_CHUNK_FORWARD_TSN))
		offered |= SCTP_COOKIE_EXT_FORWARD_TSN;
	if (ext_listed(peer, SCTP_CHUNK_I_DATA))
		offered |= SCTP_COOKIE_EXT_I_DATA;
	if (ext_listed(peer, SCTP_CHUNK_RECONFIG))
		offered |= SCTP_COOKIE_EXT_RECONFIG;
	/* RFC 5061 §4.2.7: both ASCONF and ASCONF ACK must be listed. */
	if (ext_listed(peer, SCTP_CHUNK_ASCONF) && ext_listed(peer, SCTP_CHUNK_ASCONF_ACK))
		offered |= SCTP_COOKIE_EXT_ASCONF;
	/* RFC 9653 §4: zero checksums only under the one method both name. */
	if (peer->zero_checksum && peer->zero_checksum_edmid == our_edmid &&
	    our_edmid != SCTP_EDMID_RESERVED)
		offered |= SCTP_COOKIE_EXT_ZERO_CHECKSUM;
	if (peer->has_adaptation)
		offered |= SCTP_COOKIE_EXT_ADAPTATION;
	return offered & ours;
}

void
sctp_cookie_ext_params_build(struct sctp_writer *w, uint32_t exts, uint32_t edmid)
{
	uint8_t types[3];
	uint16_t n = 0;

	if (exts & SCTP_COOKIE_EXT_ECN)
		sctp_param_ecn_capable_build(w);
	if (exts & SCTP_COOKIE_EXT_FORWARD_TSN)
		sctp_param_forward_tsn_supported_build(w);
	if (exts & SCTP_COOKIE_EXT_I_DATA) {
		types[n++] = SCTP_CHUNK_I_DATA;
		if (exts & SCTP_COOKIE_EXT_FORWARD_TSN)
			types[n++] = SCTP_CHUNK_I_FORWARD_TSN;
	}
	if (exts & SCTP_COOKIE_EXT_RECONFIG)
		types[n++] = SCTP_CHUNK_RECONFIG;
	if (n != 0) {
		struct sctp_param_supported_ext se = { .types = types, .count = n };
		sctp_param_supported_ext_build(w, &se);
	}
	if (exts & SCTP_COOKIE_EXT_ZERO_CHECKSUM) {
		struct sctp_param_zero_checksum z = { .edmid = edmid };
		sctp_param_zero_checksum_build(w, &z);
	}
}
