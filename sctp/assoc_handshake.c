/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association's handshake handlers, RFC 9260 §5.1, §5.2.6, §6.3.3: the
 * INIT ACK and COOKIE ACK we wait for, the Stale Cookie ERROR, and T1-init /
 * T1-cookie. They read the association as const and only emit commands
 * (sctp/assoc_internal.h).
 */
#include <string.h>

#include "sctp/assoc_internal.h"

/*
 * RFC 9260 §3.3.3, §5.1.2, §5.1 C: INIT ACKs that end the attempt. Tag 0:
 * the TCB is destroyed and nothing sent (there is no tag to send to); the
 * others are answered with an ABORT to the INIT ACK's Initiate Tag.
 */
static bool
assoc_init_ack_refused(const struct sctp_init *ack, const struct sctp_init_params *p,
		       struct assoc_cmds *o)
{
	uint16_t cause = 0;

	if (ack->init_tag == 0) {
		emit_close(o, SCTP_NOTIFY_CANT_START, SCTP_ASSOC_REASON_INIT_ACK_INVALID);
		return true;
	}
	if (ack->os == 0 || ack->mis == 0)
		cause = SCTP_CAUSE_INVALID_MANDATORY_PARAM;
	else if (p->host_name_seen)
		cause = SCTP_CAUSE_UNRESOLVABLE_ADDR;
	else if (!p->has_cookie)
		cause = SCTP_CAUSE_MISSING_MANDATORY_PARAM;
	else if (p->cookie_len > SCTP_ASSOC_COOKIE_MAX)
		cause = SCTP_CAUSE_OUT_OF_RESOURCE;
	if (cause == 0)
		return false;
	struct assoc_send *s = emit_send(o, PKT_ABORT);
	s->vtag = ack->init_tag;
	s->cause = cause;
	if (cause == SCTP_CAUSE_UNRESOLVABLE_ADDR) {
		s->view = sctp_param_tlv_bytes(&p->host_name);
		s->view_len = p->host_name.length;
	}
	emit_close(o, SCTP_NOTIFY_CANT_START, SCTP_ASSOC_REASON_INIT_ACK_INVALID);
	return true;
}

/* §5.1.1 streams, §5.1 C cookie, §3.2.2 reports: what OP_PEER_INIT records. */
static void
assoc_peer_from_init_ack(const struct sctp_assoc *a, const struct assoc_in *in,
			 const struct sctp_init *ack, const struct sctp_init_params *p,
			 struct assoc_cmds *o)
{
	const struct sctp_profile *prof = assoc_profile(a);
	struct assoc_peer *pr = &o->peer;

	pr->vtag = ack->init_tag;
	pr->initial_tsn = ack->initial_tsn;
	pr->a_rwnd = ack->a_rwnd;
	pr->outbound_streams = min_u16(prof->out_streams, ack->mis);
	pr->inbound_streams = min_u16(ack->os, prof->max_in_streams);
	pr->os_clamped = ack->os > prof->max_in_streams;
	pr->extensions =
		sctp_cookie_ext_negotiate(p, a->ep->cfg.extensions, a->ep->cfg.zero_checksum_edmid);
	pr->cookie = p->cookie;
	pr->cookie_len = p->cookie_len;
	pr->n_report = p->n_report;
	memcpy(pr->report, p->report, sizeof(pr->report[0]) * p->n_report);
	/* §5.1.2: the INIT ACK's source and its addresses are the peer's. */
	pr->src = in->rx->src;
	pr->n_addrs = 0;
	for (uint16_t i = 0; i < p->n_addrs && i < SCTP_INIT_MAX_ADDRS; i++) {
		const struct sctp_param_addr *pa = &p->addrs[i];
		pr->addrs[pr->n_addrs++] = pa->type == SCTP_PARAM_IPV4_ADDR
						   ? sctp_addr_v4(pa->addr)
						   : sctp_addr_v6(pa->addr);
	}
	emit(o, OP_PEER_INIT);
}

/*
 * RFC 9260 §5.1 C: INIT ACK in COOKIE-WAIT (tag rule §8.5: the Initiate
 * Tag of our INIT). Stop T1-init, send the COOKIE ECHO (with an ERROR
 * reporting unrecognized parameters, §3.2.2), start T1-cookie, enter
 * COOKIE-ECHOED. An INIT ACK answering an INIT sent once gives an RTT
 * sample (§6.3.1; Karn's rule otherwise).
 */
void
assoc_sf_init_ack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_init ack;
	struct sctp_init_params p;

	if (sctp_init_parse(in->c, &ack) != SCTP_PERR_OK ||
	    sctp_init_params_decode(ack.params, ack.params_len, &p) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	if (assoc_init_ack_refused(&ack, &p, o))
		return;
	assoc_peer_from_init_ack(a, in, &ack, &p, o);
	if (!a->hs->retransmitted)
		emit(o, OP_RTO_SAMPLE);
	emit_timer_stop(o, SCTP_ASSOC_T1_INIT);
	emit_count(o, OP_INIT_RTX, 0);
	emit_send(o, PKT_COOKIE_ECHO);
	emit_timer_start(o, SCTP_ASSOC_T1_COOKIE);
	emit_state(o, SCTP_ASSOC_COOKIE_ECHOED);
}

/*
 * RFC 9260 §5.1 E: COOKIE ACK in COOKIE-ECHOED (tag rule §8.5). Stop
 * T1-cookie, ESTABLISHED, COMMUNICATION UP; a SHUTDOWN the user asked for
 * meanwhile starts now (§9.2).
 */
void
assoc_sf_cookie_ack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_cookie ack;

	if (sctp_cookie_parse(in->c, &ack) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	emit_timer_stop(o, SCTP_ASSOC_T1_COOKIE);
	if (!a->hs->retransmitted)
		emit(o, OP_RTO_SAMPLE);
	emit_count(o, OP_INIT_RTX, 0);
	emit_state(o, SCTP_ASSOC_ESTABLISHED);
	struct assoc_notify *n = &emit(o, OP_NOTIFY)->u.notify;
	n->type = SCTP_NOTIFY_COMM_UP;
	if (a->shutdown_requested)
		assoc_begin_shutdown(a, o);
}

/* The staleness of the first Stale Cookie cause, in µs; false without one. */
static bool
assoc_find_stale_cookie(const struct sctp_error *e, uint32_t *staleness_us)
{
	struct sctp_tlv_iter it;
	struct sctp_tlv t;
	struct sctp_cause_stale_cookie sc;

	sctp_error_cause_iter_init(&it, e);
	while (sctp_tlv_iter_next(&it, &t)) {
		if (t.type == SCTP_CAUSE_STALE_COOKIE &&
		    sctp_cause_stale_cookie_parse(&t, &sc) == SCTP_PERR_OK) {
			*staleness_us = sc.staleness_us;
			return true;
		}
	}
	return false;
}

static uint64_t
ceil_ms(uint64_t ns)
{
	return (ns + SCTP_NS_PER_MS - 1) / SCTP_NS_PER_MS;
}

/*
 * RFC 9260 §5.2.6 option 3: the life-span increment to ask for. The cookie
 * came back staleness late, after one COOKIE ECHO / ERROR round trip; ask
 * for both (the RFC's "no more than 1 second beyond the measured RTT" holds
 * whenever the staleness is under a second, as it is for a peer whose
 * cookie life is anywhere near the RTT).
 */
static uint32_t
assoc_preservative_ms(const struct sctp_assoc *a, uint32_t staleness_us, uint64_t now_ns)
{
	uint64_t rtt_ns = now_ns > a->hs->sent_ns ? now_ns - a->hs->sent_ns : 0;
	uint64_t ms = ceil_ms((uint64_t)staleness_us * SCTP_NS_PER_US) + ceil_ms(rtt_ns);

	return ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

/*
 * RFC 9260 §5.2.6: ERROR in COOKIE-ECHOED (tag rule §8.5). A Stale Cookie
 * restarts the handshake with a new INIT carrying a Cookie Preservative
 * (option 3), at most Max.Init.Retransmits times; then the attempt fails
 * (option 2). Any other ERROR is noted and ignored.
 */
void
assoc_sf_error_cookie_echoed(const struct sctp_assoc *a, const struct assoc_in *in,
			     struct assoc_cmds *o)
{
	struct sctp_error e;
	uint32_t staleness_us;

	(void)sctp_error_parse(in->c, &e); /* never fails on a walked chunk */
	if (!assoc_find_stale_cookie(&e, &staleness_us)) {
		assoc_sf_error(a, in, o);
		return;
	}
	if (a->stale_restarts >= assoc_profile(a)->max_init_retransmits) {
		emit_close(o, SCTP_NOTIFY_CANT_START, SCTP_ASSOC_REASON_STALE_COOKIE);
		return;
	}
	emit_count(o, OP_STALE_RESTART, assoc_preservative_ms(a, staleness_us, in->now_ns));
	emit_timer_stop(o, SCTP_ASSOC_T1_COOKIE);
	emit_count(o, OP_INIT_RTX, 0);
	emit_send(o, PKT_INIT);
	emit_timer_start(o, SCTP_ASSOC_T1_INIT);
	emit_state(o, SCTP_ASSOC_COOKIE_WAIT);
}

/*
 * RFC 9260 §5.1 A, §6.3.3: T1-init expired in COOKIE-WAIT. Retransmit the
 * INIT with the RTO doubled, up to Max.Init.Retransmits times; the expiry
 * after the last retransmission ends the attempt (CANT_START). So the INIT
 * is sent 1 + Max.Init.Retransmits times in all.
 */
void
assoc_tf_t1_init(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)in;
	if (a->init_rtx >= assoc_profile(a)->max_init_retransmits) {
		emit_close(o, SCTP_NOTIFY_CANT_START, SCTP_ASSOC_REASON_T1_INIT);
		return;
	}
	emit_count(o, OP_INIT_RTX, a->init_rtx + 1u);
	emit(o, OP_RTO_BACKOFF);
	emit_send(o, PKT_INIT)->rtx = true;
	emit_timer_start(o, SCTP_ASSOC_T1_INIT);
}

/* RFC 9260 §5.1 C, §6.3.3: T1-cookie expired in COOKIE-ECHOED; as T1-init. */
void
assoc_tf_t1_cookie(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)in;
	if (a->init_rtx >= assoc_profile(a)->max_init_retransmits) {
		emit_close(o, SCTP_NOTIFY_CANT_START, SCTP_ASSOC_REASON_T1_COOKIE);
		return;
	}
	emit_count(o, OP_INIT_RTX, a->init_rtx + 1u);
	emit(o, OP_RTO_BACKOFF);
	emit_send(o, PKT_COOKIE_ECHO)->rtx = true;
	emit_timer_start(o, SCTP_ASSOC_T1_COOKIE);
}
