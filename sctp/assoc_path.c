/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association's handlers for its paths, RFC 9260 §5.4, §8.1 to §8.3
 * and RFC 7829: the HEARTBEAT ACK, the heartbeat timer and the user's SET
 * PRIMARY. The path set (sctp/path.h) decides what each means; these
 * handlers only hand it the input, and the interpreter (assoc_apply.c)
 * turns what it reports into packets, notifications and, when every path
 * has failed, the end of the association.
 */
#include <errno.h>

#include "sctp/assoc_internal.h"

/*
 * RFC 9260 §8.3: HEARTBEAT ACK (tag rule §8.5). Its info must be one we
 * sent and not yet answered: the nonce authenticates it (§5.4), so a
 * forged or replayed ACK changes nothing but a counter. A good one gives
 * the path an RTT sample, clears the error counters, confirms and
 * reactivates the path.
 */
void
assoc_sf_heartbeat_ack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_heartbeat hb;

	(void)a;
	if (sctp_heartbeat_parse(in->c, &hb) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	struct assoc_send *s = &emit(o, OP_HB_ACK)->u.send;
	s->view = hb.info;
	s->view_len = hb.info_len;
}

/*
 * The path set's wake-up (§8.3, §5.4, RFC 7829): unanswered heartbeats
 * count as errors, idle paths and unconfirmed ones get a HEARTBEAT.
 */
void
assoc_tf_heartbeat(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit(o, OP_PATHS_WAKEUP);
}

/*
 * SET PRIMARY (RFC 9260 §11.1): only to one of the peer's addresses, and
 * only once confirmed (§5.4: data never goes to an unconfirmed address).
 */
void
assoc_uf_set_primary(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	int i = in->addr != NULL ? sctp_paths_find(&a->paths, in->addr) : -1;

	if (i < 0) {
		emit_drop(o, SCTP_ASSOC_DROP_USER_SET_PRIMARY_REFUSED);
		o->result = -EADDRNOTAVAIL;
		return;
	}
	if (!(sctp_paths_get_const(&a->paths, (unsigned)i)->flags & SCTP_PATH_F_CONFIRMED)) {
		emit_drop(o, SCTP_ASSOC_DROP_USER_SET_PRIMARY_REFUSED);
		o->result = -EINVAL;
		return;
	}
	emit_count(o, OP_SET_PRIMARY, (uint32_t)i);
}
