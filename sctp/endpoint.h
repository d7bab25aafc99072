/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An SCTP endpoint (RFC 9260 §2.3): a local port and its addresses, the
 * protocol profile, the state-cookie keys, and what is done with every
 * packet that matches no association — the only packets that reach it.
 *
 * The endpoint keeps no per-peer state. An INIT is answered with an INIT ACK
 * whose State Cookie carries everything the association will need (RFC 9260
 * §5.1.3), so a flood of INITs costs CPU and nothing else; a COOKIE ECHO
 * whose cookie verifies hands the caller the state to create the
 * association from (§5.1.5). Every other out-of-the-blue packet gets the
 * answer of RFC 9260 §8.4, and every discard is counted under a name
 * (sctp/endpoint_drop.def).
 *
 * Sans-I/O: the caller passes the packet, its addresses and now_ns in, and
 * gets back a packet to send (written into the caller's buffer, checksum
 * field zero: the caller's CRC policy fills it). The Initiate Tag and the
 * random numbers come from caller-supplied strategies, so the data plane can
 * encode the owning lcore in the tag (docs/ARCHITECTURE.md decision 1).
 */
#ifndef SCTP_ENDPOINT_H
#define SCTP_ENDPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sctp/addr.h"
#include "sctp/chunk_init.h"
#include "sctp/cookie.h"
#include "sctp/def_table.h"
#include "sctp/packet.h"
#include "sctp/profile.h"
#include "sctp/writer.h"

/* Local addresses listed in our INIT ACK (RFC 9260 §3.3.3: multi-homing). */
#define SCTP_EP_MAX_ADDRS 8

enum sctp_ep_drop {
#define SCTP_EP_DROP(name, str, why) SCTP_DEF_ENUM(SCTP_EP_DROP_##name)
#include "sctp/endpoint_drop.def"
#undef SCTP_EP_DROP
	SCTP_EP_DROP_COUNT
};

const char *sctp_ep_drop_name(enum sctp_ep_drop d);
const char *sctp_ep_drop_describe(enum sctp_ep_drop d);

struct sctp_rx;
struct sctp_data_config;

struct sctp_endpoint_config {
	uint16_t port;
	const struct sctp_profile *profile;
	/* The data path's per-lcore pools and limits (sctp/assoc.h); NULL: none. */
	const struct sctp_data_config *data;
	uint32_t a_rwnd;	      /* advertised receive window in our INIT ACK */
	bool listening;		      /* answer INITs (a client-only endpoint does not) */
	uint32_t extensions;	      /* SCTP_COOKIE_EXT_* we offer and accept */
	uint32_t zero_checksum_edmid; /* with SCTP_COOKIE_EXT_ZERO_CHECKSUM */
	uint8_t n_addrs;
	struct sctp_addr addrs[SCTP_EP_MAX_ADDRS];
	/*
	 * Our Initiate Tag for an association the INIT in rx would create,
	 * or, with rx NULL, for one we initiate (sctp_assoc_connect()): never
	 * 0. The data plane encodes the owning lcore here.
	 */
	uint32_t (*choose_tag)(void *ctx, const struct sctp_rx *rx);
	/* Uniform random 32-bit values (initial TSNs). */
	uint32_t (*random32)(void *ctx);
	void *ctx;
};

struct sctp_endpoint {
	struct sctp_endpoint_config cfg;
	struct sctp_cookie_keys keys;
	uint64_t drops[SCTP_EP_DROP_COUNT];
	uint64_t init_acks_sent;
	uint64_t cookies_accepted;
	uint64_t aborts_sent;
	uint64_t shutdown_completes_sent;
};

/*
 * Set up an endpoint. key is the first state-cookie secret (32 random bytes
 * from the caller). 0, -EINVAL for a config the endpoint cannot use (no
 * profile, a profile sctp_profile_check() refuses, no choose_tag/random32,
 * more than SCTP_EP_MAX_ADDRS), or -ENOMEM from the cookie key ring.
 */
int sctp_endpoint_init(struct sctp_endpoint *ep, const struct sctp_endpoint_config *cfg,
		       const uint8_t key[SCTP_COOKIE_KEY_LEN], uint64_t now_ns);
void sctp_endpoint_fini(struct sctp_endpoint *ep);

/* A received packet as the caller found it. */
struct sctp_rx {
	struct sctp_packet pkt; /* sctp_packet_parse() of the SCTP bytes */
	struct sctp_addr src;	/* IP source */
	struct sctp_addr dst;	/* IP destination */
	/*
	 * The buffer the bytes live in (an rte_mbuf in the data plane), for
	 * zero-copy payload slices (sctp/buf.h): the core holds it before
	 * keeping a slice past the call. NULL: nobody owns the bytes; payloads
	 * are then only valid during the call.
	 */
	void *handle;
};

/* A packet the endpoint wants sent: SCTP bytes, checksum field zero. */
struct sctp_tx {
	uint8_t *buf; /* caller's buffer, 4-byte aligned */
	size_t cap;
	size_t len; /* set by the endpoint; 0 when nothing is to be sent */
	struct sctp_addr src, dst;
};

enum sctp_ootb_result {
	SCTP_OOTB_DISCARD,   /* nothing to send; *drop says why */
	SCTP_OOTB_REPLY,     /* send tx (INIT ACK, ABORT, SHUTDOWN COMPLETE, ERROR) */
	SCTP_OOTB_NEW_ASSOC, /* cookie verified: create the association from
				 *cookie, send tx (the COOKIE ACK), then give the
				 association the chunks after the COOKIE ECHO */
};

/*
 * Handle a packet that matched no association. The packet's chunks are
 * walked once; tx->buf must hold at least SCTP_COOKIE_MAX_LEN + 256 bytes
 * for an INIT ACK. *cookie is written only for SCTP_OOTB_NEW_ASSOC; *drop
 * only for SCTP_OOTB_DISCARD and for the answers that also count a drop
 * (ABORT for a refused INIT, ERROR for a stale cookie).
 */
enum sctp_ootb_result sctp_endpoint_input(struct sctp_endpoint *ep, const struct sctp_rx *rx,
					  uint64_t now_ns, struct sctp_tx *tx,
					  struct sctp_cookie_state *cookie,
					  enum sctp_ep_drop *drop);

/*
 * sctp_endpoint_input() verified a cookie (SCTP_OOTB_NEW_ASSOC) but the
 * caller has no room for the association (no block left, its table full):
 * tx becomes, in place of the COOKIE ACK, an ABORT with an Out of Resource
 * cause (RFC 9260 §3.3.10.4) under the peer's tag from the cookie (T bit
 * clear), from the address the COOKIE ECHO came to. The peer's handshake
 * then ends at once (its CANT_START names the cause) instead of
 * retransmitting the COOKIE ECHO up to Max.Init.Retransmits into silence.
 * Only a peer that received our INIT ACK has a valid cookie, so the ABORT
 * goes to an address that asked. SCTP_OOTB_REPLY (counted in
 * aborts_sent), or SCTP_OOTB_DISCARD when tx cannot hold it.
 */
enum sctp_ootb_result sctp_endpoint_refuse_cookie(struct sctp_endpoint *ep,
						  const struct sctp_rx *rx,
						  const struct sctp_cookie_state *st,
						  struct sctp_tx *tx);

/*
 * The checks every INIT gets, whoever answers it (RFC 9260 §3.3.2, §5.1.2):
 * the endpoint for an INIT that matches no association, the association
 * for one that reaches it (§5.2.1, §5.2.2). Fills *init and *p. Returns
 * SCTP_EP_DROP_COUNT for an INIT to answer; else why not:
 * INIT_STREAMS_ZERO and INIT_HOST_NAME are answered with an ABORT (Invalid
 * Mandatory Parameter, Unresolvable Address), the others are discarded.
 */
enum sctp_ep_drop sctp_endpoint_check_init(const struct sctp_chunk *c, struct sctp_init *init,
					   struct sctp_init_params *p);

/*
 * What an INIT ACK sent by an existing association changes (RFC 9260
 * §5.2.1, §5.2.2). local_vtag 0: a new Initiate Tag from choose_tag() and
 * a new Initial TSN, as for an INIT that matches nothing; otherwise these
 * two are used as they are (§5.2.1: "the same parameters it sent in its
 * original INIT"). The tie-tags go into the State Cookie for §5.2.4.
 */
struct sctp_init_ack_tags {
	uint32_t local_vtag;
	uint32_t local_initial_tsn;
	uint32_t local_tie_tag;
	uint32_t peer_tie_tag;
	/*
	 * Valid.Cookie.Life of the association answering (RFC 6458
	 * sasoc_cookie_life, set on it); 0: the endpoint's profile's.
	 */
	uint64_t cookie_life_ns;
};

/*
 * Write the INIT ACK chunk answering the INIT in rx (checked by
 * sctp_endpoint_check_init()) into w: State Cookie, our addresses,
 * unrecognized parameters, negotiated extensions. tags NULL: a stateless
 * answer. false when the cookie could not be made or w is too small.
 */
bool sctp_endpoint_write_init_ack(struct sctp_endpoint *ep, const struct sctp_rx *rx,
				  const struct sctp_init *init, const struct sctp_init_params *p,
				  const struct sctp_init_ack_tags *tags, uint64_t now_ns,
				  struct sctp_writer *w);

#endif /* SCTP_ENDPOINT_H */
