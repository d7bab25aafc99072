/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association's handlers for the chunks that neither open nor close it:
 * ERROR (RFC 9260 §3.3.10), HEARTBEAT (§8.3) and unrecognized chunk types
 * (§3.2). They read the association as const and only emit commands
 * (sctp/assoc_internal.h).
 */
#include "sctp/assoc_internal.h"

/*
 * ERROR once established (tag rule §8.5): counted, not acted on; a Stale
 * Cookie outside COOKIE-ECHOED is discarded (§5.2.6).
 */
void
assoc_sf_error(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit_drop(o, SCTP_ASSOC_DROP_ERROR_IGNORED);
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
