/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The State Cookie (RFC 9260 §5.1.3, §5.1.5): the stateless half of the
 * handshake. An INIT is answered with an INIT ACK whose State Cookie holds
 * everything needed to create the association, authenticated with
 * HMAC-SHA256 under a secret only we know; nothing is allocated or
 * remembered for the INIT (docs/ARCHITECTURE.md decision 1). The association is built
 * when a COOKIE ECHO brings back a cookie that verifies and has not expired.
 *
 * Layout, version 1 (big-endian; docs/COOKIE.md has the diagram):
 *
 *   offset size field
 *        0    1 version (SCTP_COOKIE_VERSION)
 *        1    1 key id (which key of the ring made the MAC)
 *        2    1 number of peer addresses that follow (0..SCTP_INIT_MAX_ADDRS)
 *        3    1 reserved, zero
 *        4    8 creation time, ns (the caller's clock)
 *       12    8 life span, ns
 *       20    4 our Initiate Tag (the association's local verification tag)
 *       24    4 our Initial TSN
 *       28    4 the peer's Initiate Tag
 *       32    4 the peer's Initial TSN
 *       36    4 the peer's a_rwnd
 *       40    2 outbound streams (negotiated)
 *       42    2 inbound streams (negotiated)
 *       44    2 local port
 *       46    2 peer port
 *       48    4 local tie-tag (RFC 9260 §5.2.2)
 *       52    4 peer tie-tag
 *       56    4 negotiated extensions (SCTP_COOKIE_EXT_*)
 *       60    4 the peer's Adaptation Code Point (RFC 5061 §4.2.6)
 *       64      address: INIT source (family byte 4 or 6, then 4 or 16 bytes)
 *               address: INIT destination
 *               addresses: the INIT's address parameters, in order
 *   len - 32   32 HMAC-SHA256 over bytes [0, len - 32)
 *
 * The cookie is written field by field with sctp/writer.h and read back
 * with sctp/reader.h, never copied from or to the struct, so neither
 * padding nor host byte order can leak into it. Sizes: 106 bytes (IPv4, no
 * address parameter) to SCTP_COOKIE_MAX_LEN = 266 bytes (ten IPv6
 * addresses); the State Cookie parameter adds 4, which leaves an INIT ACK
 * over 1,100 bytes for our own parameters under a 1500-byte MTU.
 *
 * sctp/ is sans-I/O: the secret keys and the time come from the caller.
 * Time is the caller's monotonic clock in nanoseconds (now_ns).
 */
#ifndef SCTP_COOKIE_H
#define SCTP_COOKIE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sctp/addr.h"
#include "sctp/param.h"

/* OpenSSL's digest types (<openssl/types.h>), kept out of every includer. */
struct SHA256state_st; /* OpenSSL's SHA256_CTX */

#define SCTP_COOKIE_VERSION  1u
#define SCTP_COOKIE_KEY_LEN  32u /* bytes of secret: the HMAC-SHA256 output size */
#define SCTP_COOKIE_MAC_LEN  32u /* HMAC-SHA256, untruncated */
#define SCTP_COOKIE_HDR_LEN  64u /* fixed part before the addresses */
#define SCTP_COOKIE_ADDR_MAX 17u /* one address entry: family byte + 16 */
/* Two IPv4 addresses (source, destination), no parameter: 106 bytes. */
#define SCTP_COOKIE_MIN_LEN (SCTP_COOKIE_HDR_LEN + 2u * 5u + SCTP_COOKIE_MAC_LEN)
/* Ten IPv6 addresses: 266 bytes. */
#define SCTP_COOKIE_MAX_LEN                                                                        \
	(SCTP_COOKIE_HDR_LEN + (2u + SCTP_INIT_MAX_ADDRS) * SCTP_COOKIE_ADDR_MAX +                 \
	 SCTP_COOKIE_MAC_LEN)

/* Valid.Cookie.Life, RFC 9260 §16: 60 s. */
#define SCTP_COOKIE_DEFAULT_LIFE_NS (60ull * 1000000000ull)

/*
 * Extensions both sides support, as negotiated from the INIT (their offer)
 * and our configuration. The association enables exactly these.
 */
enum sctp_cookie_ext {
	SCTP_COOKIE_EXT_ECN = 1u << 0,		 /* ECN Capable, RFC 9260 Appendix A */
	SCTP_COOKIE_EXT_FORWARD_TSN = 1u << 1,	 /* PR-SCTP, RFC 3758 §3.1 */
	SCTP_COOKIE_EXT_I_DATA = 1u << 2,	 /* I-DATA, RFC 8260 §2.2 */
	SCTP_COOKIE_EXT_RECONFIG = 1u << 3,	 /* RE-CONFIG, RFC 6525 §3.1 */
	SCTP_COOKIE_EXT_ASCONF = 1u << 4,	 /* ASCONF + ASCONF ACK, RFC 5061 §4.2.7 */
	SCTP_COOKIE_EXT_ZERO_CHECKSUM = 1u << 5, /* RFC 9653 §4, same EDMID both ways */
	SCTP_COOKIE_EXT_ADAPTATION = 1u << 6,	 /* peer sent an indication, RFC 5061 §4.2.6 */
};

/*
 * What the TCB is rebuilt from. Everything here travels in the cookie and
 * comes back authenticated; nothing else is kept between INIT and COOKIE
 * ECHO. Local means ours (the INIT ACK's sender), peer means the INIT's
 * sender.
 */
struct sctp_cookie_state {
	uint32_t local_vtag;	    /* our Initiate Tag in the INIT ACK */
	uint32_t local_initial_tsn; /* our Initial TSN in the INIT ACK */
	uint32_t peer_vtag;	    /* the INIT's Initiate Tag */
	uint32_t peer_initial_tsn;  /* the INIT's Initial TSN */
	uint32_t peer_a_rwnd;	    /* the INIT's a_rwnd */
	/* RFC 9260 §5.1.1: min(our OS, its MIS) and min(our MIS, its OS). */
	uint16_t outbound_streams;
	uint16_t inbound_streams;
	uint16_t local_port;
	uint16_t peer_port;
	/*
	 * RFC 9260 §5.2.2: the tags of an existing association, when the INIT
	 * arrived in a state other than CLOSED; zero otherwise. They let
	 * §5.2.4 tell the four COOKIE ECHO cases apart.
	 */
	uint32_t local_tie_tag;
	uint32_t peer_tie_tag;
	uint32_t extensions;	      /* SCTP_COOKIE_EXT_* */
	uint32_t peer_adaptation_ind; /* meaningful with SCTP_COOKIE_EXT_ADAPTATION */
	uint64_t created_ns;	      /* when the INIT ACK was made */
	uint64_t lifespan_ns;	      /* see sctp_cookie_lifespan() */
	struct sctp_addr peer_src;    /* source address of the INIT packet */
	struct sctp_addr local_addr;  /* the address the INIT came to */
	/* The INIT's IPv4/IPv6 Address parameters, in order, at most
	 * SCTP_INIT_MAX_ADDRS (sctp_init_params keeps no more either). */
	uint8_t n_peer_addrs;
	struct sctp_addr peer_addrs[SCTP_INIT_MAX_ADDRS];
};

/*
 * The key ring: the current secret and the previous one. Keys are given
 * by the caller (32 random bytes from its generator) and never stored:
 * what is kept is SHA-256 after absorbing the key XOR ipad and XOR opad
 * blocks (RFC 2104), so each MAC costs no key-schedule work. Every key
 * has a one-byte id carried in the cookie, so verification looks up one
 * key, never tries two.
 *
 * A ring belongs to one lcore, like everything else (docs/ARCHITECTURE.md decision
 * 2): give each lcore its own ring, initialised and rotated with the same
 * secrets. Encode and decode take it non-const so that a MAC may keep
 * scratch state in it; today the scratch is on the stack.
 */
struct sctp_cookie_key {
	struct SHA256state_st *inner; /* SHA-256 after (key ^ ipad) */
	struct SHA256state_st *outer; /* SHA-256 after (key ^ opad) */
	uint64_t installed_ns;	      /* when it became the current key */
	uint64_t until_ns;	      /* last instant it verifies (UINT64_MAX: current) */
	uint8_t id;
	bool live;
};

struct sctp_cookie_keys {
	struct sctp_cookie_key slot[2];
	uint8_t cur; /* index of the current key in slot[] */
};

/*
 * Set up a ring whose only key is `key`, id 0. Returns 0, or -ENOMEM when
 * OpenSSL could not create its contexts (the ring then makes no cookie and
 * verifies none, and sctp_cookie_keys_fini() is still to be called).
 */
int sctp_cookie_keys_init(struct sctp_cookie_keys *keys, const uint8_t key[SCTP_COOKIE_KEY_LEN],
			  uint64_t now_ns);

/*
 * Make `key` the current key (id: the previous current id + 1, modulo 256)
 * and keep the old current one as the previous key until now_ns + grace_ns
 * inclusive; the key that was previous until now is forgotten. Cookies are
 * made with the current key only. A grace of at least the longest life span
 * granted (Valid.Cookie.Life plus any Cookie Preservative allowance) means
 * no valid cookie is ever refused because of a rotation. Returns 0, or
 * -ENOMEM when OpenSSL failed: the current key is then unchanged and the
 * previous one may be gone.
 */
int sctp_cookie_keys_rotate(struct sctp_cookie_keys *keys, const uint8_t key[SCTP_COOKIE_KEY_LEN],
			    uint64_t now_ns, uint64_t grace_ns);

/* Free the OpenSSL contexts (key states are wiped by OpenSSL as it frees). */
void sctp_cookie_keys_fini(struct sctp_cookie_keys *keys);

/*
 * Write the cookie for `st` into out, MAC'd with the current key. Returns
 * its length (SCTP_COOKIE_MIN_LEN to SCTP_COOKIE_MAX_LEN), or 0 when it
 * does not fit in cap, when st is not encodable (more than
 * SCTP_INIT_MAX_ADDRS peer addresses, a family other than 4 or 6) or when
 * the ring has no key. Bytes of out past a returned 0 are unspecified.
 */
size_t sctp_cookie_encode(struct sctp_cookie_keys *keys, const struct sctp_cookie_state *st,
			  uint8_t *out, size_t cap);

enum sctp_cookie_verdict {
	SCTP_COOKIE_OK = 0,
	/* Length outside [SCTP_COOKIE_MIN_LEN, SCTP_COOKIE_MAX_LEN], a
	 * version we do not write, or (after the MAC verified, so only from a
	 * writer bug) a body that does not parse. */
	SCTP_COOKIE_MALFORMED,
	/* The key id names no key of the ring, or the previous key after its
	 * grace window. */
	SCTP_COOKIE_UNKNOWN_KEY,
	/* The MAC does not match: forged, corrupted or truncated. */
	SCTP_COOKIE_BAD_MAC,
	/* Authentic but older than its life span (RFC 9260 §5.1.5 step 3):
	 * answer with a Stale Cookie error cause (§3.3.10.3). */
	SCTP_COOKIE_STALE,
};

/*
 * Check a cookie from a COOKIE ECHO and, when it is ours, recover the
 * state. In this order: length and version (MALFORMED), key id
 * (UNKNOWN_KEY), MAC in constant time over everything before it (BAD_MAC);
 * only then is any other field read. Last, the life span: a cookie is valid
 * up to and including created + lifespan, and STALE after, with
 * *staleness_ns = now_ns - (created + lifespan). *out is filled for OK and
 * STALE (an ERROR for a stale cookie needs the peer's tag), undefined
 * otherwise; *staleness_ns (may be NULL) is 0 unless STALE. The ports and
 * tags of the packet are the caller's to compare (§5.1.5 step 3, §5.2.4).
 */
enum sctp_cookie_verdict sctp_cookie_decode(struct sctp_cookie_keys *keys, const uint8_t *cookie,
					    size_t len, uint64_t now_ns,
					    struct sctp_cookie_state *out, uint64_t *staleness_ns);

/* "OK", "MALFORMED", "UNKNOWN_KEY", "BAD_MAC", "STALE", "?" otherwise. */
const char *sctp_cookie_verdict_name(enum sctp_cookie_verdict v);

/*
 * The Stale Cookie cause's Measure of Staleness (RFC 9260 §3.3.10.3) is in
 * microseconds: rounded up, so that a cookie stale by a few nanoseconds is
 * not reported as 0 (the peer sizes its Cookie Preservative from it,
 * §5.2.6), and saturated at UINT32_MAX (about 71 minutes).
 */
uint32_t sctp_cookie_staleness_us(uint64_t staleness_ns);

/*
 * The life span to put in a cookie: base_ns (Valid.Cookie.Life) plus the
 * increment a peer asked for in a Cookie Preservative (RFC 9260
 * §3.3.2.1.3, milliseconds; 0 when the INIT had none), but never more than
 * cap_ns in all. The RFC lets the receiver ignore the request for its own
 * security reasons; the cap is how much it is willing to honour. A cap at
 * or below base_ns ignores preservatives and never shortens the base.
 */
uint64_t sctp_cookie_lifespan(uint64_t base_ns, uint32_t preservative_increment_ms,
			      uint64_t cap_ns);

/*
 * The extensions to record in the cookie: those the INIT offers (ECN
 * Capable, Forward-TSN-Supported, Supported Extensions' chunk types, Zero
 * Checksum Acceptable with our EDMID, Adaptation Layer Indication) that are
 * also in `ours`.
 */
uint32_t sctp_cookie_ext_negotiate(const struct sctp_init_params *peer, uint32_t ours,
				   uint32_t our_edmid);

/*
 * The parameters that offer the extensions `exts` (SCTP_COOKIE_EXT_*) in an
 * INIT or INIT ACK: ECN Capable, Forward-TSN-Supported (RFC 3758 §3.1),
 * Supported Extensions (RFC 5061 §4.2.7) listing I-DATA, and I-FORWARD TSN
 * with PR-SCTP too (RFC 8260 §2.2, §2.3.1), and RE-CONFIG (RFC 6525 §3.1),
 * and Zero Checksum Acceptable
 * with edmid. PR-SCTP alone keeps to its own parameter, as RFC 3758 has it.
 */
void sctp_cookie_ext_params_build(struct sctp_writer *w, uint32_t exts, uint32_t edmid);

#endif /* SCTP_COOKIE_H */
