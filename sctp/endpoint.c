/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packets that match no association: RFC 9260 §5.1 (INIT and COOKIE ECHO
 * from CLOSED), §8.4 (out-of-the-blue packets) and §8.5.1 (verification tag
 * exceptions). Stateless by design: see sctp/endpoint.h.
 */
#include <errno.h>
#include <string.h>

#include "sctp/chunk.h"
#include "sctp/endpoint.h"

static const struct sctp_def_row ep_drop_rows[SCTP_EP_DROP_COUNT] = {
#define SCTP_EP_DROP(name, str, why) SCTP_DEF_ROW(SCTP_EP_DROP_##name, str, why)
#include "sctp/endpoint_drop.def"
#undef SCTP_EP_DROP
};

const char *
sctp_ep_drop_name(enum sctp_ep_drop d)
{
	return sctp_def_name(ep_drop_rows, SCTP_EP_DROP_COUNT, d);
}

const char *
sctp_ep_drop_describe(enum sctp_ep_drop d)
{
	return sctp_def_describe(ep_drop_rows, SCTP_EP_DROP_COUNT, d, "unknown drop");
}

int
sctp_endpoint_init(struct sctp_endpoint *ep, const struct sctp_endpoint_config *cfg,
		   const uint8_t key[SCTP_COOKIE_KEY_LEN], uint64_t now_ns)
{
	if (cfg == NULL || cfg->profile == NULL || sctp_profile_check(cfg->profile) != NULL ||
	    cfg->choose_tag == NULL || cfg->random32 == NULL || cfg->n_addrs > SCTP_EP_MAX_ADDRS)
		return -EINVAL;
	memset(ep, 0, sizeof(*ep));
	ep->cfg = *cfg;
	if (sctp_cookie_keys_init(&ep->keys, key, now_ns) != 0) {
		sctp_cookie_keys_fini(&ep->keys);
		return -ENOMEM;
	}
	return 0;
}

void
sctp_endpoint_fini(struct sctp_endpoint *ep)
{
	sctp_cookie_keys_fini(&ep->keys);
}

/* RFC 9260 §8.4 rule 1: only unicast addresses take part. */
static bool
addr_is_unicast(const struct sctp_addr *a)
{
	static const uint8_t zero[16];

	if (a->family == SCTP_ADDR_V4)
		return a->bytes[0] != 0 && a->bytes[0] < 224; /* not 0/8, multicast, class E */
	if (a->family == SCTP_ADDR_V6)
		return a->bytes[0] != 0xff && memcmp(a->bytes, zero, 16) != 0;
	return false;
}

static enum sctp_ootb_result
discard(struct sctp_endpoint *ep, struct sctp_tx *tx, enum sctp_ep_drop why,
	enum sctp_ep_drop *drop)
{
	ep->drops[why]++;
	*drop = why;
	tx->len = 0;
	return SCTP_OOTB_DISCARD;
}

/* Start an answer to rx: ports and addresses swapped, the given tag. */
static struct sctp_writer
reply_begin(const struct sctp_rx *rx, struct sctp_tx *tx, uint32_t vtag)
{
	struct sctp_writer w = sctp_writer_make(tx->buf, tx->cap);

	tx->src = rx->dst;
	tx->dst = rx->src;
	sctp_packet_build_header(&w, rx->pkt.dst_port, rx->pkt.src_port, vtag);
	return w;
}

static enum sctp_ootb_result
reply_end(struct sctp_endpoint *ep, struct sctp_tx *tx, const struct sctp_writer *w,
	  enum sctp_ep_drop *drop)
{
	if (!sctp_writer_ok(w))
		return discard(ep, tx, SCTP_EP_DROP_REPLY_TOO_BIG, drop);
	tx->len = w->off;
	return SCTP_OOTB_REPLY;
}

/*
 * An ABORT answering rx. t_bit: the tag is the one the packet carried
 * (reflected, RFC 9260 §8.4 rule 8); otherwise it is the INIT's Initiate Tag
 * (§8.4 rule 3). cause_code 0 means no cause; the cause bodies we send are
 * the ones without data, plus Unresolvable Address carrying a parameter.
 */
static enum sctp_ootb_result
send_abort(struct sctp_endpoint *ep, const struct sctp_rx *rx, struct sctp_tx *tx, uint32_t vtag,
	   bool t_bit, uint16_t cause_code, const struct sctp_tlv *cause_param,
	   enum sctp_ep_drop *drop)
{
	struct sctp_writer w = reply_begin(rx, tx, vtag);
	struct sctp_abort abort = { .flags = t_bit ? SCTP_FLAG_T : 0 };
	size_t off = sctp_abort_build_begin(&w, &abort);

	if (cause_code == SCTP_CAUSE_INVALID_MANDATORY_PARAM) {
		sctp_cause_invalid_mandatory_param_build(&w);
	} else if (cause_code == SCTP_CAUSE_OUT_OF_RESOURCE) {
		sctp_cause_out_of_resource_build(&w);
	} else if (cause_code == SCTP_CAUSE_UNRESOLVABLE_ADDR && cause_param != NULL) {
		struct sctp_cause_unresolvable_addr u = {
			.addr = sctp_param_tlv_bytes(cause_param),
			.addr_len = cause_param->length,
		};
		sctp_cause_unresolvable_addr_build(&w, &u);
	}
	sctp_abort_build_end(&w, off);
	enum sctp_ootb_result r = reply_end(ep, tx, &w, drop);
	if (r == SCTP_OOTB_REPLY)
		ep->aborts_sent++;
	return r;
}

enum sctp_ootb_result
sctp_endpoint_refuse_cookie(struct sctp_endpoint *ep, const struct sctp_rx *rx,
			    const struct sctp_cookie_state *st, struct sctp_tx *tx)
{
	enum sctp_ep_drop drop = SCTP_EP_DROP_COUNT;

	tx->len = 0;
	return send_abort(ep, rx, tx, st->peer_vtag, false, SCTP_CAUSE_OUT_OF_RESOURCE, NULL,
			  &drop);
}

/* The refusals of an INIT that still answer with an ABORT (§8.4 rule 3). */
static enum sctp_ootb_result
refuse_init(struct sctp_endpoint *ep, const struct sctp_rx *rx, struct sctp_tx *tx,
	    uint32_t init_tag, enum sctp_ep_drop why, uint16_t cause_code,
	    const struct sctp_tlv *cause_param, enum sctp_ep_drop *drop)
{
	ep->drops[why]++;
	*drop = why;
	return send_abort(ep, rx, tx, init_tag, false, cause_code, cause_param, drop);
}

static uint16_t
min_u16(uint16_t a, uint16_t b)
{
	return a < b ? a : b;
}

/*
 * The association-to-be, as the cookie will carry it (RFC 9260 §5.1.3),
 * all but our tag, our Initial TSN and the tie-tags.
 */
static void
cookie_state_from_init(const struct sctp_endpoint *ep, const struct sctp_rx *rx,
		       const struct sctp_init *init, const struct sctp_init_params *p,
		       uint64_t now_ns, struct sctp_cookie_state *st)
{
	const struct sctp_profile *prof = ep->cfg.profile;

	memset(st, 0, sizeof(*st));
	st->peer_vtag = init->init_tag;
	st->peer_initial_tsn = init->initial_tsn;
	st->peer_a_rwnd = init->a_rwnd;
	/* RFC 9260 §5.1.1: each direction gets the smaller of offer and limit. */
	st->outbound_streams = min_u16(prof->out_streams, init->mis);
	st->inbound_streams = min_u16(init->os, prof->max_in_streams);
	st->local_port = rx->pkt.dst_port;
	st->peer_port = rx->pkt.src_port;
	st->extensions =
		sctp_cookie_ext_negotiate(p, ep->cfg.extensions, ep->cfg.zero_checksum_edmid);
	st->peer_adaptation_ind = p->has_adaptation ? p->adaptation_ind : 0;
	st->created_ns = now_ns;
	st->lifespan_ns =
		sctp_cookie_lifespan(prof->valid_cookie_life_ns,
				     p->has_cookie_preservative ? p->cookie_preservative_ms : 0,
				     prof->cookie_preservative_cap_ns);
	st->peer_src = rx->src;
	st->local_addr = rx->dst;
	for (uint16_t i = 0; i < p->n_addrs && i < SCTP_INIT_MAX_ADDRS; i++) {
		const struct sctp_param_addr *a = &p->addrs[i];
		st->peer_addrs[st->n_peer_addrs++] = a->type == SCTP_PARAM_IPV4_ADDR
							     ? sctp_addr_v4(a->addr)
							     : sctp_addr_v6(a->addr);
	}
}

/* Our optional INIT ACK parameters: addresses, reports, extensions. */
static void
init_ack_params(const struct sctp_endpoint *ep, const struct sctp_init_params *p,
		uint32_t negotiated, struct sctp_writer *w)
{
	/* One address is the packet's own source: listing it adds nothing. */
	if (ep->cfg.n_addrs > 1) {
		for (uint8_t i = 0; i < ep->cfg.n_addrs; i++) {
			const struct sctp_addr *a = &ep->cfg.addrs[i];
			struct sctp_param_addr pa = {
				.type = a->family == SCTP_ADDR_V4 ? SCTP_PARAM_IPV4_ADDR
								  : SCTP_PARAM_IPV6_ADDR,
			};
			memcpy(pa.addr, a->bytes, sizeof(pa.addr));
			sctp_param_addr_build(w, &pa);
		}
	}
	/* RFC 9260 §3.2.1: parameters of types 01 and 11 we did not know. */
	for (uint16_t i = 0; i < p->n_report; i++) {
		struct sctp_param_unrecognized u = {
			.params = sctp_param_tlv_bytes(&p->report[i]),
			.len = p->report[i].length,
		};
		sctp_param_unrecognized_build(w, &u);
	}
	sctp_cookie_ext_params_build(w, negotiated, ep->cfg.zero_checksum_edmid);
}

enum sctp_ep_drop
sctp_endpoint_check_init(const struct sctp_chunk *c, struct sctp_init *init,
			 struct sctp_init_params *p)
{
	if (sctp_init_parse(c, init) != SCTP_PERR_OK)
		return SCTP_EP_DROP_OOTB_MALFORMED;
	/* §3.3.2: an Initiate Tag of 0 is silently discarded. */
	if (init->init_tag == 0)
		return SCTP_EP_DROP_INIT_INITIATE_TAG_ZERO;
	/* §3.3.2: OS or MIS of 0 is answered with an ABORT. */
	if (init->os == 0 || init->mis == 0)
		return SCTP_EP_DROP_INIT_STREAMS_ZERO;
	if (sctp_init_params_decode(init->params, init->params_len, p) != SCTP_PERR_OK)
		return SCTP_EP_DROP_INIT_PARAMS_MALFORMED;
	/* §5.1.2: we resolve no host names. */
	if (p->host_name_seen)
		return SCTP_EP_DROP_INIT_HOST_NAME;
	return SCTP_EP_DROP_COUNT;
}

bool
sctp_endpoint_write_init_ack(struct sctp_endpoint *ep, const struct sctp_rx *rx,
			     const struct sctp_init *init, const struct sctp_init_params *p,
			     const struct sctp_init_ack_tags *tags, uint64_t now_ns,
			     struct sctp_writer *w)
{
	struct sctp_cookie_state st;
	uint8_t cookie[SCTP_COOKIE_MAX_LEN];

	cookie_state_from_init(ep, rx, init, p, now_ns, &st);
	if (tags != NULL && tags->local_vtag != 0) {
		st.local_vtag = tags->local_vtag;
		st.local_initial_tsn = tags->local_initial_tsn;
	} else {
		st.local_vtag = ep->cfg.choose_tag(ep->cfg.ctx, rx);
		if (st.local_vtag == 0) /* a strategy bug must not put 0 on the wire */
			st.local_vtag = 1;
		st.local_initial_tsn = ep->cfg.random32(ep->cfg.ctx);
	}
	if (tags != NULL) {
		st.local_tie_tag = tags->local_tie_tag;
		st.peer_tie_tag = tags->peer_tie_tag;
		if (tags->cookie_life_ns != 0)
			st.lifespan_ns = sctp_cookie_lifespan(
				tags->cookie_life_ns,
				p->has_cookie_preservative ? p->cookie_preservative_ms : 0,
				ep->cfg.profile->cookie_preservative_cap_ns);
	}
	size_t cookie_len = sctp_cookie_encode(&ep->keys, &st, cookie, sizeof(cookie));
	if (cookie_len == 0)
		return false;

	struct sctp_init ack = {
		.type = SCTP_CHUNK_INIT_ACK,
		.init_tag = st.local_vtag,
		.a_rwnd = ep->cfg.a_rwnd,
		.os = st.outbound_streams,
		.mis = ep->cfg.profile->max_in_streams,
		.initial_tsn = st.local_initial_tsn,
	};
	size_t off = sctp_init_build_begin(w, &ack);
	struct sctp_param_state_cookie sc = { .cookie = cookie, .len = (uint16_t)cookie_len };
	sctp_param_state_cookie_build(w, &sc);
	init_ack_params(ep, p, st.extensions, w);
	sctp_init_build_end(w, off);
	return sctp_writer_ok(w);
}

/* RFC 9260 §5.1 step B / §5.1.3: INIT in CLOSED, answered statelessly. */
static enum sctp_ootb_result
handle_init(struct sctp_endpoint *ep, const struct sctp_rx *rx, const struct sctp_chunk *c,
	    uint64_t now_ns, struct sctp_tx *tx, enum sctp_ep_drop *drop)
{
	struct sctp_init init;
	struct sctp_init_params p;

	/* §8.5.1 rule A: the packet carrying an INIT has tag 0. */
	if (rx->pkt.vtag != 0)
		return discard(ep, tx, SCTP_EP_DROP_INIT_NONZERO_VTAG, drop);
	enum sctp_ep_drop why = sctp_endpoint_check_init(c, &init, &p);
	switch (why) {
	case SCTP_EP_DROP_COUNT:
		break;
	case SCTP_EP_DROP_INIT_STREAMS_ZERO:
		return refuse_init(ep, rx, tx, init.init_tag, why,
				   SCTP_CAUSE_INVALID_MANDATORY_PARAM, NULL, drop);
	case SCTP_EP_DROP_INIT_HOST_NAME:
		return refuse_init(ep, rx, tx, init.init_tag, why, SCTP_CAUSE_UNRESOLVABLE_ADDR,
				   &p.host_name, drop);
	default:
		return discard(ep, tx, why, drop);
	}
	if (!ep->cfg.listening)
		return refuse_init(ep, rx, tx, init.init_tag, SCTP_EP_DROP_INIT_NOT_LISTENING, 0,
				   NULL, drop);

	struct sctp_writer w = reply_begin(rx, tx, init.init_tag);
	if (!sctp_endpoint_write_init_ack(ep, rx, &init, &p, NULL, now_ns, &w))
		return discard(ep, tx, SCTP_EP_DROP_REPLY_TOO_BIG, drop);
	enum sctp_ootb_result r = reply_end(ep, tx, &w, drop);
	if (r == SCTP_OOTB_REPLY)
		ep->init_acks_sent++;
	return r;
}

/* RFC 9260 §5.1.5: COOKIE ECHO first in a packet that matched nothing. */
static enum sctp_ootb_result
handle_cookie_echo(struct sctp_endpoint *ep, const struct sctp_rx *rx, const struct sctp_chunk *c,
		   uint64_t now_ns, struct sctp_tx *tx, struct sctp_cookie_state *out,
		   enum sctp_ep_drop *drop)
{
	struct sctp_cookie echo;
	struct sctp_cookie_state st;
	uint64_t staleness_ns;

	if (sctp_cookie_parse(c, &echo) != SCTP_PERR_OK)
		return discard(ep, tx, SCTP_EP_DROP_OOTB_MALFORMED, drop);
	enum sctp_cookie_verdict v = sctp_cookie_decode(&ep->keys, echo.cookie, echo.cookie_len,
							now_ns, &st, &staleness_ns);
	switch (v) {
	case SCTP_COOKIE_OK:
	case SCTP_COOKIE_STALE:
		break;
	case SCTP_COOKIE_MALFORMED:
		return discard(ep, tx, SCTP_EP_DROP_COOKIE_MALFORMED, drop);
	case SCTP_COOKIE_UNKNOWN_KEY:
		return discard(ep, tx, SCTP_EP_DROP_COOKIE_UNKNOWN_KEY, drop);
	default:
		return discard(ep, tx, SCTP_EP_DROP_COOKIE_BAD_MAC, drop);
	}
	/* The cookie is ours; the packet around it must be the one it was made for. */
	if (rx->pkt.vtag != st.local_vtag || rx->pkt.dst_port != st.local_port ||
	    rx->pkt.src_port != st.peer_port)
		return discard(ep, tx, SCTP_EP_DROP_COOKIE_TAG_OR_PORT_MISMATCH, drop);

	if (v == SCTP_COOKIE_STALE) {
		/* §5.1.5 step 3: an ERROR with Stale Cookie, to the peer's tag. */
		ep->drops[SCTP_EP_DROP_COOKIE_STALE]++;
		*drop = SCTP_EP_DROP_COOKIE_STALE;
		struct sctp_writer w = reply_begin(rx, tx, st.peer_vtag);
		struct sctp_error err = { 0 };
		size_t off = sctp_error_build_begin(&w, &err);
		struct sctp_cause_stale_cookie sc = {
			.staleness_us = sctp_cookie_staleness_us(staleness_ns),
		};
		sctp_cause_stale_cookie_build(&w, &sc);
		sctp_error_build_end(&w, off);
		return reply_end(ep, tx, &w, drop);
	}

	struct sctp_writer w = reply_begin(rx, tx, st.peer_vtag);
	struct sctp_cookie ack = { .type = SCTP_CHUNK_COOKIE_ACK };
	sctp_cookie_build(&w, &ack);
	if (reply_end(ep, tx, &w, drop) != SCTP_OOTB_REPLY)
		return SCTP_OOTB_DISCARD;
	ep->cookies_accepted++;
	*out = st;
	return SCTP_OOTB_NEW_ASSOC;
}

/* Does this ERROR chunk carry a Stale Cookie cause (§8.4 rule 7)? */
static bool
error_has_stale_cookie(const struct sctp_chunk *c)
{
	struct sctp_tlv_iter it;
	struct sctp_tlv t;

	sctp_tlv_iter_init(&it, SCTP_TLV_CAUSE, c->value, sctp_chunk_value_len(c));
	while (sctp_tlv_iter_next(&it, &t))
		if (t.type == SCTP_CAUSE_STALE_COOKIE)
			return true;
	return false;
}

enum sctp_ootb_result
sctp_endpoint_input(struct sctp_endpoint *ep, const struct sctp_rx *rx, uint64_t now_ns,
		    struct sctp_tx *tx, struct sctp_cookie_state *cookie, enum sctp_ep_drop *drop)
{
	struct sctp_chunk_iter it;
	struct sctp_chunk c;
	bool shutdown_ack = false;

	tx->len = 0;
	if (!addr_is_unicast(&rx->src) || !addr_is_unicast(&rx->dst))
		return discard(ep, tx, SCTP_EP_DROP_OOTB_NON_UNICAST, drop);

	sctp_chunk_iter_init(&it, &rx->pkt);
	if (!sctp_chunk_iter_next(&it, &c))
		return discard(ep, tx, SCTP_EP_DROP_OOTB_MALFORMED, drop);
	/* Rule 3 (the walker has made sure an INIT is alone). */
	if (c.type == SCTP_CHUNK_INIT)
		return handle_init(ep, rx, &c, now_ns, tx, drop);
	/* §8.5.1 rule A: only a packet carrying INIT has tag 0. */
	if (rx->pkt.vtag == 0)
		return discard(ep, tx, SCTP_EP_DROP_OOTB_ZERO_VTAG, drop);
	/* Rule 4: COOKIE ECHO as the first chunk. */
	if (c.type == SCTP_CHUNK_COOKIE_ECHO)
		return handle_cookie_echo(ep, rx, &c, now_ns, tx, cookie, drop);

	/* Rules 2, 5, 6, 7 look at every chunk; the first match decides. */
	do {
		if (sctp_chunk_validate(&c) != SCTP_PERR_OK)
			return discard(ep, tx, SCTP_EP_DROP_OOTB_MALFORMED, drop);
		switch (c.type) {
		case SCTP_CHUNK_ABORT:
			return discard(ep, tx, SCTP_EP_DROP_OOTB_ABORT, drop);
		case SCTP_CHUNK_SHUTDOWN_COMPLETE:
			return discard(ep, tx, SCTP_EP_DROP_OOTB_SHUTDOWN_COMPLETE, drop);
		case SCTP_CHUNK_COOKIE_ACK:
			return discard(ep, tx, SCTP_EP_DROP_OOTB_COOKIE_ACK_OR_STALE_ERROR, drop);
		case SCTP_CHUNK_ERROR:
			if (error_has_stale_cookie(&c))
				return discard(ep, tx, SCTP_EP_DROP_OOTB_COOKIE_ACK_OR_STALE_ERROR,
					       drop);
			break;
		case SCTP_CHUNK_SHUTDOWN_ACK:
			shutdown_ack = true;
			break;
		default:
			break;
		}
	} while (sctp_chunk_iter_next(&it, &c));
	if (it.err != SCTP_PERR_OK)
		return discard(ep, tx, SCTP_EP_DROP_OOTB_MALFORMED, drop);

	if (shutdown_ack) {
		/* Rule 5: SHUTDOWN COMPLETE, tag reflected, T bit set. */
		struct sctp_writer w = reply_begin(rx, tx, rx->pkt.vtag);
		struct sctp_shutdown sc = {
			.type = SCTP_CHUNK_SHUTDOWN_COMPLETE,
			.flags = SCTP_FLAG_T,
		};
		sctp_shutdown_build(&w, &sc);
		enum sctp_ootb_result r = reply_end(ep, tx, &w, drop);
		if (r == SCTP_OOTB_REPLY)
			ep->shutdown_completes_sent++;
		return r;
	}
	/* Rule 8: ABORT, tag reflected, T bit set. */
	return send_abort(ep, rx, tx, rx->pkt.vtag, true, 0, NULL, drop);
}
