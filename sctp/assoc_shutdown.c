/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association's closing handlers, RFC 9260 §9.1 and §9.2: ABORT and the
 * SHUTDOWN family from the peer, T2-shutdown and T5-shutdown-guard, and the
 * user's SHUTDOWN and ABORT. They read the association as const and only
 * emit commands (sctp/assoc_internal.h).
 */
#include <errno.h>

#include "sctp/assoc_internal.h"

/*
 * §9.2: the user's SHUTDOWN. SHUTDOWN-PENDING until our data is acked; T5
 * bounds the whole sequence from here. The SHUTDOWN itself leaves from the
 * flush at the end of the input (assoc_send.c, tx_shutdown_step()), as soon
 * as nothing is queued or unacknowledged: at once when nothing is.
 */
void
assoc_begin_shutdown(const struct sctp_assoc *a, struct assoc_cmds *o)
{
	(void)a;
	emit_state(o, SCTP_ASSOC_SHUTDOWN_PENDING);
	emit_timer_start(o, SCTP_ASSOC_T5_GUARD);
}

/* §9.2: SHUTDOWN ACK sent, T2-shutdown started, SHUTDOWN-ACK-SENT. */
static void
assoc_send_shutdown_ack(struct assoc_cmds *o)
{
	emit_send(o, PKT_SHUTDOWN_ACK);
	emit_count(o, OP_SHUTDOWN_RTX, 0);
	emit_timer_start(o, SCTP_ASSOC_T2_SHUTDOWN);
	emit_state(o, SCTP_ASSOC_SHUTDOWN_ACK_SENT);
}

/*
 * RFC 9260 §9.1: ABORT, in any state with a TCB (tag rule §8.5.1 B, checked
 * before). The association is gone: CANT_START before ESTABLISHED,
 * COMM_LOST after, with the peer's causes.
 */
void
assoc_sf_abort(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_abort ab;

	(void)sctp_abort_parse(in->c, &ab); /* any length of at least 4 is an ABORT */
	bool up = a->state >= SCTP_ASSOC_ESTABLISHED;
	struct assoc_notify *n = emit_close(o, up ? SCTP_NOTIFY_COMM_LOST : SCTP_NOTIFY_CANT_START,
					    SCTP_ASSOC_REASON_PEER_ABORT);
	n->error = assoc_first_cause(ab.causes, ab.causes_len);
	n->causes = ab.causes;
	n->causes_len = ab.causes_len;
}

/*
 * RFC 9260 §9.2: SHUTDOWN in SHUTDOWN-SENT, both sides shut down at once:
 * SHUTDOWN ACK at once, SHUTDOWN-ACK-SENT, T2-shutdown restarted.
 */
void
assoc_sf_shutdown_in_shutdown_sent(const struct sctp_assoc *a, const struct assoc_in *in,
				   struct assoc_cmds *o)
{
	struct sctp_shutdown sd;

	(void)a;
	if (sctp_shutdown_parse(in->c, &sd) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	assoc_send_shutdown_ack(o);
}

/*
 * RFC 9260 §9.2: SHUTDOWN again in SHUTDOWN-ACK-SENT: our SHUTDOWN ACK was
 * lost and the peer's T2 fired. Answer it; our own T2 keeps counting.
 */
void
assoc_sf_shutdown_resend_ack(const struct sctp_assoc *a, const struct assoc_in *in,
			     struct assoc_cmds *o)
{
	struct sctp_shutdown sd;

	(void)a;
	if (sctp_shutdown_parse(in->c, &sd) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	emit_send(o, PKT_SHUTDOWN_ACK);
}

/*
 * RFC 9260 §9.2: SHUTDOWN ACK in SHUTDOWN-SENT or SHUTDOWN-ACK-SENT (tag
 * rule §8.5): SHUTDOWN COMPLETE with the peer's tag and T clear (§8.5.1 C),
 * the association is gone.
 */
void
assoc_sf_shutdown_ack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_shutdown sd;

	(void)a;
	if (sctp_shutdown_parse(in->c, &sd) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	emit_send(o, PKT_SHUTDOWN_COMPLETE);
	emit_close(o, SCTP_NOTIFY_SHUTDOWN_COMPLETE, SCTP_ASSOC_REASON_SHUTDOWN);
}

/*
 * RFC 9260 §8.5.1 E: SHUTDOWN ACK in COOKIE-WAIT or COOKIE-ECHOED is out of
 * the blue (§8.4 rule 5): SHUTDOWN COMPLETE with the packet's own tag and T
 * set, nothing else done, the rest of the packet ignored.
 */
void
assoc_sf_shutdown_ack_ootb(const struct sctp_assoc *a, const struct assoc_in *in,
			   struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit_send(o, PKT_SHUTDOWN_COMPLETE)->reflect = true;
	emit_drop_packet(o, SCTP_ASSOC_DROP_SHUTDOWN_ACK_OOTB);
}

/*
 * RFC 9260 §9.2: SHUTDOWN COMPLETE in SHUTDOWN-ACK-SENT (tag rule §8.5.1 C):
 * stop T2, the association is gone.
 */
void
assoc_sf_shutdown_complete(const struct sctp_assoc *a, const struct assoc_in *in,
			   struct assoc_cmds *o)
{
	struct sctp_shutdown sd;

	(void)a;
	if (sctp_shutdown_parse(in->c, &sd) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	emit_close(o, SCTP_NOTIFY_SHUTDOWN_COMPLETE, SCTP_ASSOC_REASON_SHUTDOWN);
}

/*
 * RFC 9260 §9.2: INIT in SHUTDOWN-ACK-SENT from an address of this
 * association (our SHUTDOWN COMPLETE was lost and the peer starts again):
 * discard it and retransmit the SHUTDOWN ACK. The caller routes INITs by
 * source address, so another source means a caller that routed wrongly.
 */
void
assoc_sf_init_in_shutdown_ack_sent(const struct sctp_assoc *a, const struct assoc_in *in,
				   struct assoc_cmds *o)
{
	if (!assoc_peer_addr_known(a, &in->rx->src)) {
		emit_drop(o, SCTP_ASSOC_DROP_INIT_NO_ROUTE);
		return;
	}
	emit_drop(o, SCTP_ASSOC_DROP_INIT_IN_SHUTDOWN_ACK_SENT);
	emit_send(o, PKT_SHUTDOWN_ACK);
}

/*
 * RFC 9260 §9.2, §6.3.3: T2-shutdown expired. Retransmit what it guards
 * (SHUTDOWN in SHUTDOWN-SENT, SHUTDOWN ACK in SHUTDOWN-ACK-SENT) with the
 * RTO doubled, up to Association.Max.Retrans times; past that the peer is
 * unreachable: CLOSED, COMM_LOST, nothing sent.
 */
static void
assoc_t2_expired(const struct sctp_assoc *a, enum assoc_pkt pkt, struct assoc_cmds *o)
{
	if (a->shutdown_rtx >= assoc_profile(a)->assoc_max_retrans) {
		emit_close(o, SCTP_NOTIFY_COMM_LOST, SCTP_ASSOC_REASON_T2_SHUTDOWN);
		return;
	}
	emit_count(o, OP_SHUTDOWN_RTX, a->shutdown_rtx + 1u);
	emit(o, OP_RTO_BACKOFF);
	emit_send(o, pkt);
	emit_timer_start(o, SCTP_ASSOC_T2_SHUTDOWN);
}

void
assoc_tf_t2_shutdown_sent(const struct sctp_assoc *a, const struct assoc_in *in,
			  struct assoc_cmds *o)
{
	(void)in;
	assoc_t2_expired(a, PKT_SHUTDOWN, o);
}

void
assoc_tf_t2_shutdown_ack_sent(const struct sctp_assoc *a, const struct assoc_in *in,
			      struct assoc_cmds *o)
{
	(void)in;
	assoc_t2_expired(a, PKT_SHUTDOWN_ACK, o);
}

/*
 * RFC 9260 §9.2: T5-shutdown-guard (5 x RTO.Max) expired: the shutdown took
 * too long. ABORT, CLOSED, COMM_LOST.
 */
void
assoc_tf_t5_guard(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit_send(o, PKT_ABORT);
	emit_close(o, SCTP_NOTIFY_COMM_LOST, SCTP_ASSOC_REASON_T5_GUARD);
}

/*
 * User SHUTDOWN in COOKIE-WAIT: the peer keeps no state for an INIT
 * (§5.1.3), so there is nobody to shut down with. Close at once.
 */
void
assoc_uf_shutdown_cookie_wait(const struct sctp_assoc *a, const struct assoc_in *in,
			      struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit_close(o, SCTP_NOTIFY_SHUTDOWN_COMPLETE, SCTP_ASSOC_REASON_SHUTDOWN);
}

/*
 * User SHUTDOWN in COOKIE-ECHOED: the peer may already be ESTABLISHED, so
 * close gracefully once the COOKIE ACK comes (sf_cookie_ack).
 */
void
assoc_uf_shutdown_cookie_echoed(const struct sctp_assoc *a, const struct assoc_in *in,
				struct assoc_cmds *o)
{
	(void)in;
	if (a->shutdown_requested) {
		emit_drop(o, SCTP_ASSOC_DROP_USER_SHUTDOWN_IN_PROGRESS);
		o->result = -EALREADY;
		return;
	}
	emit(o, OP_SHUTDOWN_FLAG);
}

/*
 * RFC 9260 §9.1: user ABORT. ABORT with a User-Initiated Abort cause
 * (§3.3.10.12) carrying the user's reason, then CLOSED.
 */
void
assoc_uf_abort(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct assoc_send *s = emit_send(o, PKT_ABORT);

	s->cause = SCTP_CAUSE_USER_INITIATED_ABORT;
	s->view = in->reason;
	s->view_len = in->reason_len;
	bool up = a->state >= SCTP_ASSOC_ESTABLISHED;
	emit_close(o, up ? SCTP_NOTIFY_COMM_LOST : SCTP_NOTIFY_CANT_START,
		   SCTP_ASSOC_REASON_USER_ABORT);
}

/*
 * User ABORT in COOKIE-WAIT: nothing is sent. The peer has no TCB, its tag
 * is unknown to us, and it would take any ABORT as out of the blue (§8.4
 * rule 2).
 */
void
assoc_uf_abort_cookie_wait(const struct sctp_assoc *a, const struct assoc_in *in,
			   struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit_close(o, SCTP_NOTIFY_CANT_START, SCTP_ASSOC_REASON_USER_ABORT);
}
