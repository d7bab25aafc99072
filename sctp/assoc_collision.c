/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * INIT and COOKIE ECHO reaching an association that exists, RFC 9260 §5.2:
 * initialization collisions (§5.2.1), unexpected INITs and tie-tags
 * (§5.2.2), and the four COOKIE ECHO cases (§5.2.4), one of which is the
 * peer's restart. The handlers read the association as const and only emit
 * commands (sctp/assoc_internal.h).
 *
 * How such packets get here: the caller finds an association by our tag.
 * An INIT carries tag 0 and the COOKIE ECHO of a restart or a collision
 * carries a tag the association may not know yet, so for those two chunk
 * types the caller also looks up (peer address, ports) before giving the
 * packet to the endpoint (sctp/assoc.h, "Finding the association").
 *
 * What a forged packet can do here: an INIT is answered with an INIT ACK
 * to its Initiate Tag and changes nothing (§5.2.2, last paragraph); a
 * COOKIE ECHO acts only if its MAC verifies, i.e. only with a cookie we
 * made for an INIT we answered, and a restart (case A) only if the cookie
 * also carries this association's tags as tie-tags, which only an INIT
 * ACK from this association ever contained.
 */
#include <string.h>

#include "sctp/assoc_internal.h"

static struct sctp_addr
assoc_addr_of_param(const struct sctp_param_addr *pa)
{
	return pa->type == SCTP_PARAM_IPV4_ADDR ? sctp_addr_v4(pa->addr) : sctp_addr_v6(pa->addr);
}

/* Does the INIT name (as its source or in a parameter) an address we know? */
static bool
assoc_init_names_peer(const struct sctp_assoc *a, const struct sctp_rx *rx,
		      const struct sctp_init_params *p)
{
	if (assoc_peer_addr_known(a, &rx->src))
		return true;
	for (uint16_t i = 0; i < p->n_addrs; i++) {
		struct sctp_addr x = assoc_addr_of_param(&p->addrs[i]);
		if (assoc_peer_addr_known(a, &x))
			return true;
	}
	return false;
}

static void
assoc_put_addr_param(struct sctp_writer *w, const struct sctp_addr *x)
{
	struct sctp_param_addr pa = {
		.type = x->family == SCTP_ADDR_V4 ? SCTP_PARAM_IPV4_ADDR : SCTP_PARAM_IPV6_ADDR,
	};

	memcpy(pa.addr, x->bytes, sizeof(pa.addr));
	sctp_param_addr_build(w, &pa);
}

/*
 * RFC 9260 §5.2.1, §5.2.2: the addresses of the INIT (its source, then its
 * Address parameters) that are not the peer's in this association, written
 * into o->scratch as address parameters for the ABORT. Returns their
 * length; 0 when the INIT adds nothing.
 */
static uint16_t
assoc_new_addrs(const struct sctp_assoc *a, const struct sctp_rx *rx,
		const struct sctp_init_params *p, struct assoc_cmds *o)
{
	struct sctp_writer w = sctp_writer_make(o->scratch, sizeof(o->scratch));

	if (!assoc_peer_addr_known(a, &rx->src))
		assoc_put_addr_param(&w, &rx->src);
	for (uint16_t i = 0; i < p->n_addrs; i++) {
		struct sctp_addr x = assoc_addr_of_param(&p->addrs[i]);
		if (!assoc_peer_addr_known(a, &x))
			assoc_put_addr_param(&w, &x);
	}
	return (uint16_t)w.off;
}

/*
 * The checks any INIT gets (sctp_endpoint_check_init()), answered as the
 * endpoint answers them: an ABORT to the INIT's Initiate Tag for the ones
 * §3.3.2 and §5.1.2 say to abort, a discard otherwise. true to go on.
 */
static bool
assoc_init_ok(const struct assoc_in *in, struct sctp_init *init, struct sctp_init_params *p,
	      struct assoc_cmds *o)
{
	enum sctp_ep_drop why = sctp_endpoint_check_init(in->c, init, p);
	struct assoc_send *s;

	if (why == SCTP_EP_DROP_COUNT)
		return true;
	emit_drop(o, SCTP_ASSOC_DROP_INIT_INVALID);
	if (why == SCTP_EP_DROP_INIT_STREAMS_ZERO || why == SCTP_EP_DROP_INIT_HOST_NAME) {
		s = emit_send(o, PKT_ABORT);
		s->vtag = init->init_tag;
		s->to_source = true;
		if (why == SCTP_EP_DROP_INIT_STREAMS_ZERO) {
			s->cause = SCTP_CAUSE_INVALID_MANDATORY_PARAM;
		} else {
			s->cause = SCTP_CAUSE_UNRESOLVABLE_ADDR;
			s->view = sctp_param_tlv_bytes(&p->host_name);
			s->view_len = p->host_name.length;
		}
	}
	return false;
}

/*
 * §5.2.1, §5.2.2: an INIT that would add addresses is refused with an
 * ABORT to its Initiate Tag listing them, and changes nothing. true when
 * that is the case.
 */
static bool
assoc_init_adds_addrs(const struct sctp_assoc *a, const struct assoc_in *in,
		      const struct sctp_init *init, const struct sctp_init_params *p,
		      struct assoc_cmds *o)
{
	uint16_t len = assoc_new_addrs(a, in->rx, p, o);

	if (len == 0)
		return false;
	emit_drop(o, SCTP_ASSOC_DROP_INIT_NEW_ADDRS);
	struct assoc_send *s = emit_send(o, PKT_ABORT);
	s->vtag = init->init_tag;
	s->to_source = true;
	s->cause = SCTP_CAUSE_RESTART_WITH_NEW_ADDRS;
	s->view = o->scratch;
	s->view_len = len;
	return true;
}

/* The INIT ACK answering the INIT in hand, to its Initiate Tag. */
static struct assoc_send *
assoc_send_init_ack(const struct assoc_in *in, const struct sctp_init *init, struct assoc_cmds *o)
{
	struct assoc_send *s = emit_send(o, PKT_INIT_ACK);

	o->init_chunk = in->c;
	s->vtag = init->init_tag;
	return s;
}

/*
 * RFC 9260 §5.2.1: INIT in COOKIE-WAIT or COOKIE-ECHOED (tag rule §8.5.1
 * A): both ends started at once. Answer with an INIT ACK carrying the
 * Initiate Tag and Initial TSN of our own INIT, unchanged, and a cookie;
 * the state, the timers and the TCB stay as they are, and §5.2.4 settles
 * the two handshakes into one association when the cookies come back.
 *
 * COOKIE-WAIT: we know no tag of the peer, so the tie-tags are 0 (§5.2.2,
 * note). The INIT ACK may only go to an address the user gave us that the
 * INIT names (rules 1 and 2), preferably its source (rule 3); the user
 * gave one address, the one we sent our INIT to.
 *
 * COOKIE-ECHOED: the peer's INIT ACK gave us its tag, so the tie-tags are
 * both our tags; an INIT that adds addresses is refused with an ABORT.
 */
void
assoc_sf_init_collision(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_init init;
	struct sctp_init_params p;

	if (!assoc_init_ok(in, &init, &p, o))
		return;
	if (a->state == SCTP_ASSOC_COOKIE_ECHOED) {
		if (assoc_init_adds_addrs(a, in, &init, &p, o))
			return;
		o->init_ack.local_tie_tag = a->local_vtag;
		o->init_ack.peer_tie_tag = a->peer_vtag;
	} else {
		if (!assoc_init_names_peer(a, in->rx, &p)) {
			emit_drop(o, SCTP_ASSOC_DROP_INIT_NO_ROUTE);
			return;
		}
		o->init_ack.local_tie_tag = 0;
		o->init_ack.peer_tie_tag = 0;
	}
	o->init_ack.local_vtag = a->local_vtag;
	o->init_ack.local_initial_tsn = a->local_initial_tsn;
	/* Rule 3, or rule 1 when the source is not an address the user gave. */
	assoc_send_init_ack(in, &init, o)->to_source = assoc_peer_addr_known(a, &in->rx->src);
}

/*
 * RFC 9260 §5.2.2: INIT in ESTABLISHED, SHUTDOWN-PENDING, SHUTDOWN-SENT or
 * SHUTDOWN-RECEIVED (tag rule §8.5.1 A): the peer may have restarted, or
 * the INIT is old or forged. Answer with an INIT ACK with a new Initiate
 * Tag, our current tags as tie-tags in the cookie, to the source and to
 * the INIT's Initiate Tag; an INIT that adds addresses gets an ABORT
 * instead. Either way nothing of the association changes: a restart
 * happens only when the cookie comes back (§5.2.4 A).
 */
void
assoc_sf_init_unexpected(const struct sctp_assoc *a, const struct assoc_in *in,
			 struct assoc_cmds *o)
{
	struct sctp_init init;
	struct sctp_init_params p;

	if (!assoc_init_ok(in, &init, &p, o))
		return;
	if (assoc_init_adds_addrs(a, in, &init, &p, o))
		return;
	o->init_ack.local_vtag = 0; /* a new tag and Initial TSN */
	o->init_ack.local_initial_tsn = 0;
	o->init_ack.local_tie_tag = a->local_vtag;
	o->init_ack.peer_tie_tag = a->peer_vtag;
	assoc_send_init_ack(in, &init, o)->to_source = true;
}

/* The rows of RFC 9260 §5.2.4 Table 2, plus "none of them". */
enum assoc_cookie_case {
	COOKIE_CASE_A, /* the peer restarted */
	COOKIE_CASE_B, /* both started at once; the peer's tag is new */
	COOKIE_CASE_C, /* our own cookie, late */
	COOKIE_CASE_D, /* a retransmission for this very association */
	COOKIE_CASE_NONE,
};

/*
 * §5.2.4 Table 2: the tags in the cookie against the association's. The
 * Local Tag and Peer's Tag columns compare the cookie's tags with ours; a
 * peer tag of 0 in the TCB is COOKIE-WAIT (we have none yet).
 */
static enum assoc_cookie_case
assoc_cookie_case(const struct sctp_assoc *a, const struct sctp_cookie_state *st)
{
	bool local_m = st->local_vtag == a->local_vtag;
	bool peer_m = a->peer_vtag != 0 && st->peer_vtag == a->peer_vtag;

	if (!local_m && !peer_m && st->local_tie_tag == a->local_vtag &&
	    st->peer_tie_tag == a->peer_vtag)
		return COOKIE_CASE_A;
	if (local_m && !peer_m)
		return COOKIE_CASE_B;
	if (!local_m && peer_m && st->local_tie_tag == 0 && st->peer_tie_tag == 0)
		return COOKIE_CASE_C;
	if (local_m && peer_m)
		return COOKIE_CASE_D;
	return COOKIE_CASE_NONE;
}

/* Did the user ask for this association to close before the COOKIE ECHO? */
static bool
assoc_user_closing(const struct sctp_assoc *a)
{
	return a->shutdown_requested || a->state == SCTP_ASSOC_SHUTDOWN_PENDING ||
	       a->state == SCTP_ASSOC_SHUTDOWN_SENT;
}

/*
 * Case A: the peer restarted. In SHUTDOWN-ACK-SENT no new association is
 * set up: the SHUTDOWN ACK goes again, with an ERROR Cookie Received While
 * Shutting Down, to the peer's new tag. Elsewhere the association is
 * treated as aborted and re-created from the cookie in one step: new tags
 * and TSNs, timers stopped, congestion state reset (§6.2.1 via
 * OP_RESTART), ESTABLISHED, a COOKIE ACK, and RESTART for the user instead
 * of COMMUNICATION LOST. A shutdown the user had asked for starts again on
 * the new association.
 */
static void
assoc_cookie_restart(const struct sctp_assoc *a, struct assoc_cmds *o)
{
	if (a->state == SCTP_ASSOC_SHUTDOWN_ACK_SENT) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_COOKIE_WHILE_SHUTTING_DOWN);
		struct assoc_send *s = emit_send(o, PKT_SHUTDOWN_ACK_COOKIE);
		s->vtag = o->cookie.peer_vtag;
		s->to_source = true;
		return;
	}
	emit(o, OP_RESTART);
	emit_state(o, SCTP_ASSOC_ESTABLISHED);
	emit_send(o, PKT_COOKIE_ACK);
	emit(o, OP_NOTIFY)->u.notify.type = SCTP_NOTIFY_RESTART;
	if (assoc_user_closing(a))
		assoc_begin_shutdown(a, o);
}

/*
 * Case B: the peer answered our INIT while its own INIT crossed it, so its
 * tag may be new. Take its tag from the cookie, stop T1, enter ESTABLISHED
 * if not there yet (with the rest of the peer's parameters, which we could
 * not have had in COOKIE-WAIT, and COMMUNICATION UP), and send a COOKIE ACK.
 */
static void
assoc_cookie_collision(const struct sctp_assoc *a, struct assoc_cmds *o)
{
	if (a->state >= SCTP_ASSOC_ESTABLISHED) {
		emit_count(o, OP_PEER_VTAG, o->cookie.peer_vtag);
		emit_send(o, PKT_COOKIE_ACK);
		return;
	}
	emit(o, OP_ADOPT_COOKIE);
	emit_timer_stop(o, SCTP_ASSOC_T1_INIT);
	emit_timer_stop(o, SCTP_ASSOC_T1_COOKIE);
	emit_count(o, OP_INIT_RTX, 0);
	emit_state(o, SCTP_ASSOC_ESTABLISHED);
	emit_send(o, PKT_COOKIE_ACK);
	emit(o, OP_NOTIFY)->u.notify.type = SCTP_NOTIFY_COMM_UP;
	if (a->shutdown_requested)
		assoc_begin_shutdown(a, o);
}

/*
 * RFC 9260 §5.2.4: a COOKIE ECHO reaches an association that exists (tag
 * rule §8.5.1 D: checked against the cookie). Steps 1 and 2: the cookie
 * must verify with our keys, and the packet must carry the tag and ports
 * the cookie names. Step 3: a stale cookie is good only for case D (both
 * tags are the association's; refusing it would strand a peer whose COOKIE
 * ACKs were lost for longer than Valid.Cookie.Life); otherwise the packet
 * is discarded and a Stale Cookie ERROR sent. Step 4: Table 2 picks the
 * action. Case D — the peer did not get our COOKIE ACK — is answered with
 * a COOKIE ACK again, and COOKIE-ECHOED moves to ESTABLISHED. Case C, our
 * own late cookie, and a cookie of no case are discarded with the rest of
 * the packet; in cases A, B and D the chunks bundled after the COOKIE ECHO
 * are handled as usual.
 */
void
assoc_sf_cookie_echo(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_cookie echo;
	struct sctp_cookie_state *st = &o->cookie;
	uint64_t staleness_ns = 0;

	if (sctp_cookie_parse(in->c, &echo) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	enum sctp_cookie_verdict v = sctp_cookie_decode(&a->ep->keys, echo.cookie, echo.cookie_len,
							in->now_ns, st, &staleness_ns);
	if (v != SCTP_COOKIE_OK && v != SCTP_COOKIE_STALE) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_COOKIE_REFUSED);
		return;
	}
	const struct sctp_packet *pkt = &in->rx->pkt;
	if (pkt->vtag != st->local_vtag || pkt->dst_port != a->local_port ||
	    pkt->src_port != a->peer_port || st->local_port != a->local_port ||
	    st->peer_port != a->peer_port) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_COOKIE_TAG_OR_PORT_MISMATCH);
		return;
	}
	enum assoc_cookie_case k = assoc_cookie_case(a, st);
	if (v == SCTP_COOKIE_STALE && k != COOKIE_CASE_D) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_COOKIE_STALE);
		struct assoc_send *s = emit_send(o, PKT_ERROR_STALE);
		s->vtag = st->peer_vtag;
		s->to_source = true;
		s->value = sctp_cookie_staleness_us(staleness_ns);
		return;
	}
	switch (k) {
	case COOKIE_CASE_A:
		assoc_cookie_restart(a, o);
		break;
	case COOKIE_CASE_B:
		assoc_cookie_collision(a, o);
		break;
	case COOKIE_CASE_C:
		emit_drop_packet(o, SCTP_ASSOC_DROP_COOKIE_LATE);
		break;
	case COOKIE_CASE_D:
		if (a->state == SCTP_ASSOC_COOKIE_ECHOED) {
			emit_timer_stop(o, SCTP_ASSOC_T1_COOKIE);
			emit_count(o, OP_INIT_RTX, 0);
			emit_state(o, SCTP_ASSOC_ESTABLISHED);
			emit(o, OP_NOTIFY)->u.notify.type = SCTP_NOTIFY_COMM_UP;
		}
		emit_send(o, PKT_COOKIE_ACK);
		if (a->state == SCTP_ASSOC_COOKIE_ECHOED && a->shutdown_requested)
			assoc_begin_shutdown(a, o);
		break;
	default:
		emit_drop_packet(o, SCTP_ASSOC_DROP_COOKIE_NO_CASE);
		break;
	}
}
