/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association's handlers for the chunks that neither open nor close it:
 * ERROR (RFC 9260 §3.3.10), HEARTBEAT (§8.3) and unrecognized chunk types
 * (§3.2). They read the association as const and only emit commands
 * (sctp/assoc_internal.h).
 */
#include "sctp/assoc_internal.h"

/*
 * ERROR (tag rule §8.5), RFC 9260 §3.3.10: the peer reports something it
 * did not like; nothing in the association changes. The user hears of it
 * (RFC 6458 §6.1.3 SCTP_REMOTE_ERROR: the first cause code and every cause
 * as received). A Stale Cookie outside COOKIE-ECHOED concerns no cookie of
 * ours any more (§5.2.6) and is only counted.
 */
void
assoc_sf_error(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_error e;

	(void)a;
	(void)sctp_error_parse(in->c, &e); /* never fails on a walked chunk */
	uint16_t first = assoc_first_cause(e.causes, e.causes_len);
	if (first == SCTP_CAUSE_STALE_COOKIE) {
		emit_drop(o, SCTP_ASSOC_DROP_ERROR_IGNORED);
		return;
	}
	struct assoc_notify *n = &emit(o, OP_NOTIFY)->u.notify;
	n->type = SCTP_NOTIFY_REMOTE_ERROR;
	n->error = first;
	n->causes = e.causes;
	n->causes_len = e.causes_len;
}

/*
 * RFC 9260 §8.3: HEARTBEAT (tag rule §8.5) is answered at once with a
 * HEARTBEAT ACK carrying the same Heartbeat Info, to the address the
 * HEARTBEAT came from.
 */
void
assoc_sf_heartbeat(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_heartbeat hb;

	(void)a;
	if (sctp_heartbeat_parse(in->c, &hb) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	struct assoc_send *s = emit_send(o, PKT_HEARTBEAT_ACK);
	s->to_source = true;
	s->view = hb.info;
	s->view_len = hb.info_len;
}

/*
 * RFC 9260 §3.2: an unrecognized chunk type, by its two high bits: 00 stop,
 * 01 stop and report, 10 skip, 11 skip and report. A report is an ERROR
 * with an Unrecognized Chunk Type cause.
 */
void
assoc_sf_unknown(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	enum sctp_unknown_action act = SCTP_UNKNOWN_ACTION_OF_CHUNK(in->c->type);

	(void)a;
	emit_drop(o, SCTP_ASSOC_DROP_UNKNOWN_CHUNK);
	if (act == SCTP_UNKNOWN_STOP_REPORT || act == SCTP_UNKNOWN_SKIP_REPORT) {
		struct assoc_send *s = emit_send(o, PKT_ERROR_CHUNK);
		s->view = in->c->value - SCTP_CHUNK_HDR_LEN;
		s->view_len = in->c->length;
	}
	if (act == SCTP_UNKNOWN_STOP || act == SCTP_UNKNOWN_STOP_REPORT)
		emit(o, OP_STOP);
}
