/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association's three tables, RFC 9260 §4, §8.5, §8.5.1: chunk x state,
 * timer x state, user call x state, one designated initializer per cell,
 * each cell a handler or a named discard with its tag rule. Also the chunk
 * type to row mapping and the names docs/STATES.md is printed from.
 */
#include <errno.h>

#include "sctp/assoc_internal.h"
#include "sctp/def_table.h"

/* A cell that is a named discard of one chunk. */
static void
sf_discard(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	emit_drop(o, (enum sctp_assoc_drop)in->cell->drop);
}

/* A cell that is a named discard of the chunk and the rest of the packet. */
static void
sf_discard_packet(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	emit_drop_packet(o, (enum sctp_assoc_drop)in->cell->drop);
}

/* A user call refused in this state: its cell names the drop and errno. */
static void
uf_refuse(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	emit_drop(o, (enum sctp_assoc_drop)in->cell->drop);
	o->result = in->cell->err;
}

#define S(x) [SCTP_ASSOC_##x]
#define DO(f, rule)                                                                                \
	{                                                                                          \
		.fn = assoc_##f, .name = #f, .drop = SCTP_ASSOC_DROP_NONE,                         \
		.vtag = SCTP_ASSOC_VTAG_##rule                                                     \
	}
#define DISCARD(d, rule)                                                                           \
	{                                                                                          \
		.fn = sf_discard, .name = "discard", .drop = SCTP_ASSOC_DROP_##d,                  \
		.vtag = SCTP_ASSOC_VTAG_##rule                                                     \
	}
/* CLOSED: the association is gone; the whole packet is counted once. */
#define CLOSED_CELL                                                                                \
	{                                                                                          \
		.fn = sf_discard_packet, .name = "discard_packet",                                 \
		.drop = SCTP_ASSOC_DROP_ASSOC_CLOSED, .vtag = SCTP_ASSOC_VTAG_ANY                  \
	}
#define REFUSE(d, e)                                                                               \
	{                                                                                          \
		.fn = uf_refuse, .name = "refuse", .drop = SCTP_ASSOC_DROP_##d,                    \
		.vtag = SCTP_ASSOC_VTAG_ANY, .err = (e)                                            \
	}

/*
 * Chunk x state. Every cell names its tag rule (§8.5, §8.5.1) and either a
 * handler or a discard. In COOKIE-WAIT only INIT ACK, ABORT and SHUTDOWN
 * ACK mean anything: the peer has no TCB that could send the rest.
 */
const struct assoc_cell assoc_chunk_table[SCTP_ASSOC_ROW_COUNT][SCTP_ASSOC_STATE_COUNT] = {
	[SCTP_ASSOC_ROW_DATA] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(UNEXPECTED_IN_COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DISCARD(DATA_PATH, OURS),
		S(ESTABLISHED) = DO(sf_data, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_data, OURS),
		S(SHUTDOWN_SENT) = DO(sf_data, OURS),
		S(SHUTDOWN_RECEIVED) = DISCARD(DATA_AFTER_PEER_SHUTDOWN, OURS),
		S(SHUTDOWN_ACK_SENT) = DISCARD(DATA_AFTER_PEER_SHUTDOWN, OURS),
	},
	[SCTP_ASSOC_ROW_INIT] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DO(sf_init_collision, ZERO),
		S(COOKIE_ECHOED) = DO(sf_init_collision, ZERO),
		S(ESTABLISHED) = DO(sf_init_unexpected, ZERO),
		S(SHUTDOWN_PENDING) = DO(sf_init_unexpected, ZERO),
		S(SHUTDOWN_SENT) = DO(sf_init_unexpected, ZERO),
		S(SHUTDOWN_RECEIVED) = DO(sf_init_unexpected, ZERO),
		S(SHUTDOWN_ACK_SENT) = DO(sf_init_in_shutdown_ack_sent, ZERO),
	},
	[SCTP_ASSOC_ROW_INIT_ACK] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DO(sf_init_ack, OURS),
		S(COOKIE_ECHOED) = DISCARD(INIT_ACK_UNEXPECTED, OURS),
		S(ESTABLISHED) = DISCARD(INIT_ACK_UNEXPECTED, OURS),
		S(SHUTDOWN_PENDING) = DISCARD(INIT_ACK_UNEXPECTED, OURS),
		S(SHUTDOWN_SENT) = DISCARD(INIT_ACK_UNEXPECTED, OURS),
		S(SHUTDOWN_RECEIVED) = DISCARD(INIT_ACK_UNEXPECTED, OURS),
		S(SHUTDOWN_ACK_SENT) = DISCARD(INIT_ACK_UNEXPECTED, OURS),
	},
	[SCTP_ASSOC_ROW_SACK] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(UNEXPECTED_IN_COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DISCARD(DATA_PATH, OURS),
		S(ESTABLISHED) = DO(sf_sack, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_sack, OURS),
		S(SHUTDOWN_SENT) = DO(sf_sack, OURS),
		S(SHUTDOWN_RECEIVED) = DO(sf_sack, OURS),
		S(SHUTDOWN_ACK_SENT) = DISCARD(SACK_AFTER_SHUTDOWN_ACK, OURS),
	},
	[SCTP_ASSOC_ROW_HEARTBEAT] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(UNEXPECTED_IN_COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DO(sf_heartbeat, OURS),
		S(ESTABLISHED) = DO(sf_heartbeat, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_heartbeat, OURS),
		S(SHUTDOWN_SENT) = DO(sf_heartbeat, OURS),
		S(SHUTDOWN_RECEIVED) = DO(sf_heartbeat, OURS),
		S(SHUTDOWN_ACK_SENT) = DISCARD(HB_AFTER_SHUTDOWN_ACK, OURS),
	},
	[SCTP_ASSOC_ROW_HEARTBEAT_ACK] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(UNEXPECTED_IN_COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DO(sf_heartbeat_ack, OURS),
		S(ESTABLISHED) = DO(sf_heartbeat_ack, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_heartbeat_ack, OURS),
		S(SHUTDOWN_SENT) = DO(sf_heartbeat_ack, OURS),
		S(SHUTDOWN_RECEIVED) = DO(sf_heartbeat_ack, OURS),
		S(SHUTDOWN_ACK_SENT) = DO(sf_heartbeat_ack, OURS),
	},
	[SCTP_ASSOC_ROW_ABORT] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DO(sf_abort, T_BIT),
		S(COOKIE_ECHOED) = DO(sf_abort, T_BIT),
		S(ESTABLISHED) = DO(sf_abort, T_BIT),
		S(SHUTDOWN_PENDING) = DO(sf_abort, T_BIT),
		S(SHUTDOWN_SENT) = DO(sf_abort, T_BIT),
		S(SHUTDOWN_RECEIVED) = DO(sf_abort, T_BIT),
		S(SHUTDOWN_ACK_SENT) = DO(sf_abort, T_BIT),
	},
	[SCTP_ASSOC_ROW_SHUTDOWN] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(UNEXPECTED_IN_COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DISCARD(SHUTDOWN_BEFORE_ESTABLISHED, OURS),
		S(ESTABLISHED) = DO(sf_shutdown_data, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_shutdown_data, OURS),
		S(SHUTDOWN_SENT) = DO(sf_shutdown_in_shutdown_sent, OURS),
		S(SHUTDOWN_RECEIVED) = DO(sf_shutdown_data, OURS),
		S(SHUTDOWN_ACK_SENT) = DO(sf_shutdown_resend_ack, OURS),
	},
	[SCTP_ASSOC_ROW_SHUTDOWN_ACK] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DO(sf_shutdown_ack_ootb, ANY),
		S(COOKIE_ECHOED) = DO(sf_shutdown_ack_ootb, ANY),
		S(ESTABLISHED) = DISCARD(SHUTDOWN_ACK_UNEXPECTED, OURS),
		S(SHUTDOWN_PENDING) = DISCARD(SHUTDOWN_ACK_UNEXPECTED, OURS),
		S(SHUTDOWN_SENT) = DO(sf_shutdown_ack, OURS),
		S(SHUTDOWN_RECEIVED) = DISCARD(SHUTDOWN_ACK_UNEXPECTED, OURS),
		S(SHUTDOWN_ACK_SENT) = DO(sf_shutdown_ack, OURS),
	},
	[SCTP_ASSOC_ROW_ERROR] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(UNEXPECTED_IN_COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DO(sf_error_cookie_echoed, OURS),
		S(ESTABLISHED) = DO(sf_error, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_error, OURS),
		S(SHUTDOWN_SENT) = DO(sf_error, OURS),
		S(SHUTDOWN_RECEIVED) = DO(sf_error, OURS),
		S(SHUTDOWN_ACK_SENT) = DO(sf_error, OURS),
	},
	[SCTP_ASSOC_ROW_COOKIE_ECHO] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DO(sf_cookie_echo, ANY),
		S(COOKIE_ECHOED) = DO(sf_cookie_echo, ANY),
		S(ESTABLISHED) = DO(sf_cookie_echo, ANY),
		S(SHUTDOWN_PENDING) = DO(sf_cookie_echo, ANY),
		S(SHUTDOWN_SENT) = DO(sf_cookie_echo, ANY),
		S(SHUTDOWN_RECEIVED) = DO(sf_cookie_echo, ANY),
		S(SHUTDOWN_ACK_SENT) = DO(sf_cookie_echo, ANY),
	},
	[SCTP_ASSOC_ROW_COOKIE_ACK] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(COOKIE_ACK_UNEXPECTED, OURS),
		S(COOKIE_ECHOED) = DO(sf_cookie_ack, OURS),
		S(ESTABLISHED) = DISCARD(COOKIE_ACK_UNEXPECTED, OURS),
		S(SHUTDOWN_PENDING) = DISCARD(COOKIE_ACK_UNEXPECTED, OURS),
		S(SHUTDOWN_SENT) = DISCARD(COOKIE_ACK_UNEXPECTED, OURS),
		S(SHUTDOWN_RECEIVED) = DISCARD(COOKIE_ACK_UNEXPECTED, OURS),
		S(SHUTDOWN_ACK_SENT) = DISCARD(COOKIE_ACK_UNEXPECTED, OURS),
	},
	[SCTP_ASSOC_ROW_SHUTDOWN_COMPLETE] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(SHUTDOWN_COMPLETE_UNEXPECTED, T_BIT),
		S(COOKIE_ECHOED) = DISCARD(SHUTDOWN_COMPLETE_UNEXPECTED, T_BIT),
		S(ESTABLISHED) = DISCARD(SHUTDOWN_COMPLETE_UNEXPECTED, T_BIT),
		S(SHUTDOWN_PENDING) = DISCARD(SHUTDOWN_COMPLETE_UNEXPECTED, T_BIT),
		S(SHUTDOWN_SENT) = DISCARD(SHUTDOWN_COMPLETE_UNEXPECTED, T_BIT),
		S(SHUTDOWN_RECEIVED) = DISCARD(SHUTDOWN_COMPLETE_UNEXPECTED, T_BIT),
		S(SHUTDOWN_ACK_SENT) = DO(sf_shutdown_complete, T_BIT),
	},
	/*
	 * RFC 3758 §3.6: where DATA is taken. After the peer's SHUTDOWN it has
	 * nothing outstanding (§9.2, and an abandoned chunk is outstanding
	 * until a FORWARD TSN moved our cum past it), so none can be due.
	 */
	[SCTP_ASSOC_ROW_FORWARD_TSN] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(UNEXPECTED_IN_COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DISCARD(DATA_PATH, OURS),
		S(ESTABLISHED) = DO(sf_forward_tsn, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_forward_tsn, OURS),
		S(SHUTDOWN_SENT) = DO(sf_forward_tsn, OURS),
		S(SHUTDOWN_RECEIVED) = DISCARD(DATA_AFTER_PEER_SHUTDOWN, OURS),
		S(SHUTDOWN_ACK_SENT) = DISCARD(DATA_AFTER_PEER_SHUTDOWN, OURS),
	},
	/*
	 * RFC 6525: where data flows both ways. After the peer's SHUTDOWN it
	 * sends no new data, but an answer to our request may still come.
	 */
	[SCTP_ASSOC_ROW_RECONFIG] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(UNEXPECTED_IN_COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DISCARD(DATA_PATH, OURS),
		S(ESTABLISHED) = DO(sf_reconfig, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_reconfig, OURS),
		S(SHUTDOWN_SENT) = DO(sf_reconfig, OURS),
		S(SHUTDOWN_RECEIVED) = DO(sf_reconfig, OURS),
		S(SHUTDOWN_ACK_SENT) = DO(sf_reconfig, OURS),
	},
	[SCTP_ASSOC_ROW_EXTENSION] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(UNEXPECTED_IN_COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DISCARD(EXTENSION_NOT_IMPLEMENTED, OURS),
		S(ESTABLISHED) = DISCARD(EXTENSION_NOT_IMPLEMENTED, OURS),
		S(SHUTDOWN_PENDING) = DISCARD(EXTENSION_NOT_IMPLEMENTED, OURS),
		S(SHUTDOWN_SENT) = DISCARD(EXTENSION_NOT_IMPLEMENTED, OURS),
		S(SHUTDOWN_RECEIVED) = DISCARD(EXTENSION_NOT_IMPLEMENTED, OURS),
		S(SHUTDOWN_ACK_SENT) = DISCARD(EXTENSION_NOT_IMPLEMENTED, OURS),
	},
	[SCTP_ASSOC_ROW_UNKNOWN] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(UNEXPECTED_IN_COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DO(sf_unknown, OURS),
		S(ESTABLISHED) = DO(sf_unknown, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_unknown, OURS),
		S(SHUTDOWN_SENT) = DO(sf_unknown, OURS),
		S(SHUTDOWN_RECEIVED) = DO(sf_unknown, OURS),
		S(SHUTDOWN_ACK_SENT) = DO(sf_unknown, OURS),
	},
};

/* Timer x state. Transitions stop the timers a state does not run. */
const struct assoc_cell assoc_timer_table[SCTP_ASSOC_TIMER_COUNT][SCTP_ASSOC_STATE_COUNT] = {
	[SCTP_ASSOC_T1_INIT] = {
		S(CLOSED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_WAIT) = DO(tf_t1_init, ANY),
		S(COOKIE_ECHOED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(ESTABLISHED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_PENDING) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_SENT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_RECEIVED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_ACK_SENT) = DISCARD(TIMER_UNEXPECTED, ANY),
	},
	[SCTP_ASSOC_T1_COOKIE] = {
		S(CLOSED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_WAIT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_ECHOED) = DO(tf_t1_cookie, ANY),
		S(ESTABLISHED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_PENDING) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_SENT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_RECEIVED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_ACK_SENT) = DISCARD(TIMER_UNEXPECTED, ANY),
	},
	[SCTP_ASSOC_T2_SHUTDOWN] = {
		S(CLOSED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_WAIT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_ECHOED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(ESTABLISHED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_PENDING) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_SENT) = DO(tf_t2_shutdown_sent, ANY),
		S(SHUTDOWN_RECEIVED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_ACK_SENT) = DO(tf_t2_shutdown_ack_sent, ANY),
	},
	[SCTP_ASSOC_T5_GUARD] = {
		S(CLOSED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_WAIT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_ECHOED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(ESTABLISHED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_PENDING) = DO(tf_t5_guard, ANY),
		S(SHUTDOWN_SENT) = DO(tf_t5_guard, ANY),
		S(SHUTDOWN_RECEIVED) = DO(tf_t5_guard, ANY),
		S(SHUTDOWN_ACK_SENT) = DO(tf_t5_guard, ANY),
	},
	/* §8.3: heartbeats run from ESTABLISHED until SHUTDOWN or SHUTDOWN ACK is sent. */
	[SCTP_ASSOC_T_HEARTBEAT] = {
		S(CLOSED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_WAIT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_ECHOED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(ESTABLISHED) = DO(tf_heartbeat, ANY),
		S(SHUTDOWN_PENDING) = DO(tf_heartbeat, ANY),
		S(SHUTDOWN_SENT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_RECEIVED) = DO(tf_heartbeat, ANY),
		S(SHUTDOWN_ACK_SENT) = DISCARD(TIMER_UNEXPECTED, ANY),
	},
	/* §6.2: a SACK owed for DATA may fall due in any state that took DATA. */
	[SCTP_ASSOC_T_SACK] = {
		S(CLOSED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_WAIT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_ECHOED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(ESTABLISHED) = DO(tf_sack, ANY),
		S(SHUTDOWN_PENDING) = DO(tf_sack, ANY),
		S(SHUTDOWN_SENT) = DO(tf_sack, ANY),
		S(SHUTDOWN_RECEIVED) = DO(tf_sack, ANY),
		S(SHUTDOWN_ACK_SENT) = DO(tf_sack, ANY),
	},
	/*
	 * §6.3.2: T3-rtx runs while DATA of ours is outstanding, which can be
	 * from ESTABLISHED until the SHUTDOWN or SHUTDOWN ACK leaves (§9.2).
	 */
	[SCTP_ASSOC_T3_RTX] = {
		S(CLOSED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_WAIT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_ECHOED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(ESTABLISHED) = DO(tf_t3_rtx, ANY),
		S(SHUTDOWN_PENDING) = DO(tf_t3_rtx, ANY),
		S(SHUTDOWN_SENT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_RECEIVED) = DO(tf_t3_rtx, ANY),
		S(SHUTDOWN_ACK_SENT) = DISCARD(TIMER_UNEXPECTED, ANY),
	},
	/*
	 * The bundling delay holds new data back in ESTABLISHED only: every
	 * flush outside it sends what it may and stops the timer, and leaving
	 * ESTABLISHED always ends in a flush (or a close, which stops it).
	 */
	[SCTP_ASSOC_T_BUNDLE] = {
		S(CLOSED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_WAIT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_ECHOED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(ESTABLISHED) = DO(tf_bundle, ANY),
		S(SHUTDOWN_PENDING) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_SENT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_RECEIVED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_ACK_SENT) = DISCARD(TIMER_UNEXPECTED, ANY),
	},
	/* RFC 6525 §5.1.1: our request outstanding, from ESTABLISHED until the close. */
	[SCTP_ASSOC_T_RECONF] = {
		S(CLOSED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_WAIT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_ECHOED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(ESTABLISHED) = DO(tf_reconf, ANY),
		S(SHUTDOWN_PENDING) = DO(tf_reconf, ANY),
		S(SHUTDOWN_SENT) = DO(tf_reconf, ANY),
		S(SHUTDOWN_RECEIVED) = DO(tf_reconf, ANY),
		S(SHUTDOWN_ACK_SENT) = DO(tf_reconf, ANY),
	},
	/*
	 * RFC 8899 probes go while the send side runs; the flush that ends
	 * every input stops the timer in any other state (assoc_pmtu_flush()).
	 */
	[SCTP_ASSOC_T_PMTU] = {
		S(CLOSED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_WAIT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(COOKIE_ECHOED) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(ESTABLISHED) = DO(tf_pmtu, ANY),
		S(SHUTDOWN_PENDING) = DO(tf_pmtu, ANY),
		S(SHUTDOWN_SENT) = DISCARD(TIMER_UNEXPECTED, ANY),
		S(SHUTDOWN_RECEIVED) = DO(tf_pmtu, ANY),
		S(SHUTDOWN_ACK_SENT) = DISCARD(TIMER_UNEXPECTED, ANY),
	},
};

/* User call x state. */
const struct assoc_cell assoc_user_table[SCTP_ASSOC_USER_COUNT][SCTP_ASSOC_STATE_COUNT] = {
	[SCTP_ASSOC_USER_SHUTDOWN] = {
		S(CLOSED) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(COOKIE_WAIT) = DO(uf_shutdown_cookie_wait, ANY),
		S(COOKIE_ECHOED) = DO(uf_shutdown_cookie_echoed, ANY),
		S(ESTABLISHED) = DO(uf_shutdown_data, ANY),
		S(SHUTDOWN_PENDING) = REFUSE(USER_SHUTDOWN_IN_PROGRESS, -EALREADY),
		S(SHUTDOWN_SENT) = REFUSE(USER_SHUTDOWN_IN_PROGRESS, -EALREADY),
		S(SHUTDOWN_RECEIVED) = REFUSE(USER_SHUTDOWN_IN_PROGRESS, -EALREADY),
		S(SHUTDOWN_ACK_SENT) = REFUSE(USER_SHUTDOWN_IN_PROGRESS, -EALREADY),
	},
	[SCTP_ASSOC_USER_ABORT] = {
		S(CLOSED) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(COOKIE_WAIT) = DO(uf_abort_cookie_wait, ANY),
		S(COOKIE_ECHOED) = DO(uf_abort, ANY),
		S(ESTABLISHED) = DO(uf_abort, ANY),
		S(SHUTDOWN_PENDING) = DO(uf_abort, ANY),
		S(SHUTDOWN_SENT) = DO(uf_abort, ANY),
		S(SHUTDOWN_RECEIVED) = DO(uf_abort, ANY),
		S(SHUTDOWN_ACK_SENT) = DO(uf_abort, ANY),
	},
	[SCTP_ASSOC_USER_SET_PRIMARY] = {
		S(CLOSED) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(COOKIE_WAIT) = DO(uf_set_primary, ANY),
		S(COOKIE_ECHOED) = DO(uf_set_primary, ANY),
		S(ESTABLISHED) = DO(uf_set_primary, ANY),
		S(SHUTDOWN_PENDING) = DO(uf_set_primary, ANY),
		S(SHUTDOWN_SENT) = DO(uf_set_primary, ANY),
		S(SHUTDOWN_RECEIVED) = DO(uf_set_primary, ANY),
		S(SHUTDOWN_ACK_SENT) = DO(uf_set_primary, ANY),
	},
	/* RFC 9260 §6.1, §9.2: new data only in ESTABLISHED. */
	[SCTP_ASSOC_USER_SEND] = {
		S(CLOSED) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(COOKIE_WAIT) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(COOKIE_ECHOED) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(ESTABLISHED) = DO(uf_send, ANY),
		S(SHUTDOWN_PENDING) = REFUSE(USER_SEND_SHUTTING_DOWN, -ESHUTDOWN),
		S(SHUTDOWN_SENT) = REFUSE(USER_SEND_SHUTTING_DOWN, -ESHUTDOWN),
		S(SHUTDOWN_RECEIVED) = REFUSE(USER_SEND_SHUTTING_DOWN, -ESHUTDOWN),
		S(SHUTDOWN_ACK_SENT) = REFUSE(USER_SEND_SHUTTING_DOWN, -ESHUTDOWN),
	},
	/* §6.2: the application freed receive buffer; wherever DATA may still come. */
	[SCTP_ASSOC_USER_CONSUMED] = {
		S(CLOSED) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(COOKIE_WAIT) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(COOKIE_ECHOED) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(ESTABLISHED) = DO(uf_consumed, ANY),
		S(SHUTDOWN_PENDING) = DO(uf_consumed, ANY),
		S(SHUTDOWN_SENT) = DO(uf_consumed, ANY),
		S(SHUTDOWN_RECEIVED) = DO(uf_consumed, ANY),
		S(SHUTDOWN_ACK_SENT) = DO(uf_consumed, ANY),
	},
	/* What SCTP_SEND_MORE queued leaves; the shutdown states send what is left (§9.2). */
	[SCTP_ASSOC_USER_FLUSH] = {
		S(CLOSED) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(COOKIE_WAIT) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(COOKIE_ECHOED) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(ESTABLISHED) = DO(uf_flush, ANY),
		S(SHUTDOWN_PENDING) = DO(uf_flush, ANY),
		S(SHUTDOWN_SENT) = DO(uf_flush, ANY),
		S(SHUTDOWN_RECEIVED) = DO(uf_flush, ANY),
		S(SHUTDOWN_ACK_SENT) = DO(uf_flush, ANY),
	},
	/* RFC 6525: a request of ours only while new data may flow. */
	[SCTP_ASSOC_USER_RECONF] = {
		S(CLOSED) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(COOKIE_WAIT) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(COOKIE_ECHOED) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(ESTABLISHED) = DO(uf_reconf, ANY),
		S(SHUTDOWN_PENDING) = REFUSE(USER_SEND_SHUTTING_DOWN, -ESHUTDOWN),
		S(SHUTDOWN_SENT) = REFUSE(USER_SEND_SHUTTING_DOWN, -ESHUTDOWN),
		S(SHUTDOWN_RECEIVED) = REFUSE(USER_SEND_SHUTTING_DOWN, -ESHUTDOWN),
		S(SHUTDOWN_ACK_SENT) = REFUSE(USER_SEND_SHUTTING_DOWN, -ESHUTDOWN),
	},
};

#undef S
#undef DO
#undef DISCARD
#undef CLOSED_CELL
#undef REFUSE

/* The extension a chunk type belongs to; 0 for the chunks of RFC 9260. */
static uint32_t
assoc_extension_of(uint8_t type)
{
	switch (type) {
	case SCTP_CHUNK_ECNE:
	case SCTP_CHUNK_CWR:
		return SCTP_COOKIE_EXT_ECN;
	case SCTP_CHUNK_FORWARD_TSN:
		return SCTP_COOKIE_EXT_FORWARD_TSN;
	case SCTP_CHUNK_I_DATA:
		return SCTP_COOKIE_EXT_I_DATA;
	case SCTP_CHUNK_I_FORWARD_TSN:
		return SCTP_COOKIE_EXT_I_DATA | SCTP_COOKIE_EXT_FORWARD_TSN;
	case SCTP_CHUNK_ASCONF:
	case SCTP_CHUNK_ASCONF_ACK:
		return SCTP_COOKIE_EXT_ASCONF;
	case SCTP_CHUNK_RECONFIG:
		return SCTP_COOKIE_EXT_RECONFIG;
	default:
		return 0;
	}
}

enum sctp_assoc_row
sctp_assoc_row_of(uint8_t type, uint32_t ext)
{
	switch (type) {
	case SCTP_CHUNK_DATA:
		return SCTP_ASSOC_ROW_DATA;
	case SCTP_CHUNK_INIT:
		return SCTP_ASSOC_ROW_INIT;
	case SCTP_CHUNK_INIT_ACK:
		return SCTP_ASSOC_ROW_INIT_ACK;
	case SCTP_CHUNK_SACK:
		return SCTP_ASSOC_ROW_SACK;
	case SCTP_CHUNK_HEARTBEAT:
		return SCTP_ASSOC_ROW_HEARTBEAT;
	case SCTP_CHUNK_HEARTBEAT_ACK:
		return SCTP_ASSOC_ROW_HEARTBEAT_ACK;
	case SCTP_CHUNK_ABORT:
		return SCTP_ASSOC_ROW_ABORT;
	case SCTP_CHUNK_SHUTDOWN:
		return SCTP_ASSOC_ROW_SHUTDOWN;
	case SCTP_CHUNK_SHUTDOWN_ACK:
		return SCTP_ASSOC_ROW_SHUTDOWN_ACK;
	case SCTP_CHUNK_ERROR:
		return SCTP_ASSOC_ROW_ERROR;
	case SCTP_CHUNK_COOKIE_ECHO:
		return SCTP_ASSOC_ROW_COOKIE_ECHO;
	case SCTP_CHUNK_COOKIE_ACK:
		return SCTP_ASSOC_ROW_COOKIE_ACK;
	case SCTP_CHUNK_SHUTDOWN_COMPLETE:
		return SCTP_ASSOC_ROW_SHUTDOWN_COMPLETE;
	default:
		break;
	}
	/*
	 * An extension both sides negotiated has its row; anything else (AUTH,
	 * NR-SACK, PKTDROP, PAD are never negotiated here) is unrecognized.
	 */
	uint32_t needs = assoc_extension_of(type);
	if (needs == 0 || (ext & needs) != needs)
		return SCTP_ASSOC_ROW_UNKNOWN;
	switch (type) {
	case SCTP_CHUNK_I_DATA:
		return SCTP_ASSOC_ROW_DATA; /* RFC 8260: DATA's rules, another reassembly */
	case SCTP_CHUNK_FORWARD_TSN:
	case SCTP_CHUNK_I_FORWARD_TSN:
		return SCTP_ASSOC_ROW_FORWARD_TSN;
	case SCTP_CHUNK_RECONFIG:
		return SCTP_ASSOC_ROW_RECONFIG;
	default:
		return SCTP_ASSOC_ROW_EXTENSION;
	}
}

/* ---- Names and the tables seen from outside --------------------------- */

static int
assoc_cell_info(const struct assoc_cell *cell, struct sctp_assoc_cell_info *out)
{
	out->handler = cell->fn != NULL ? cell->name : NULL;
	out->drop = (enum sctp_assoc_drop)cell->drop;
	out->vtag = (enum sctp_assoc_vtag_rule)cell->vtag;
	return 0;
}

int
sctp_assoc_chunk_cell(enum sctp_assoc_row row, enum sctp_assoc_state s,
		      struct sctp_assoc_cell_info *out)
{
	if ((unsigned)row >= SCTP_ASSOC_ROW_COUNT || (unsigned)s >= SCTP_ASSOC_STATE_COUNT)
		return -EINVAL;
	return assoc_cell_info(&assoc_chunk_table[row][s], out);
}

int
sctp_assoc_timer_cell(enum sctp_assoc_timer t, enum sctp_assoc_state s,
		      struct sctp_assoc_cell_info *out)
{
	if ((unsigned)t >= SCTP_ASSOC_TIMER_COUNT || (unsigned)s >= SCTP_ASSOC_STATE_COUNT)
		return -EINVAL;
	return assoc_cell_info(&assoc_timer_table[t][s], out);
}

int
sctp_assoc_user_cell(enum sctp_assoc_user_call u, enum sctp_assoc_state s,
		     struct sctp_assoc_cell_info *out)
{
	if ((unsigned)u >= SCTP_ASSOC_USER_COUNT || (unsigned)s >= SCTP_ASSOC_STATE_COUNT)
		return -EINVAL;
	return assoc_cell_info(&assoc_user_table[u][s], out);
}

static const char *const assoc_state_names[SCTP_ASSOC_STATE_COUNT] = {
	[SCTP_ASSOC_CLOSED] = "CLOSED",
	[SCTP_ASSOC_COOKIE_WAIT] = "COOKIE-WAIT",
	[SCTP_ASSOC_COOKIE_ECHOED] = "COOKIE-ECHOED",
	[SCTP_ASSOC_ESTABLISHED] = "ESTABLISHED",
	[SCTP_ASSOC_SHUTDOWN_PENDING] = "SHUTDOWN-PENDING",
	[SCTP_ASSOC_SHUTDOWN_SENT] = "SHUTDOWN-SENT",
	[SCTP_ASSOC_SHUTDOWN_RECEIVED] = "SHUTDOWN-RECEIVED",
	[SCTP_ASSOC_SHUTDOWN_ACK_SENT] = "SHUTDOWN-ACK-SENT",
};

static const char *const assoc_timer_names[SCTP_ASSOC_TIMER_COUNT] = {
	[SCTP_ASSOC_T1_INIT] = "T1-init",
	[SCTP_ASSOC_T1_COOKIE] = "T1-cookie",
	[SCTP_ASSOC_T2_SHUTDOWN] = "T2-shutdown",
	[SCTP_ASSOC_T5_GUARD] = "T5-shutdown-guard",
	[SCTP_ASSOC_T_HEARTBEAT] = "heartbeat",
	[SCTP_ASSOC_T_SACK] = "delayed-SACK",
	[SCTP_ASSOC_T3_RTX] = "T3-rtx",
	[SCTP_ASSOC_T_BUNDLE] = "bundling-delay",
	[SCTP_ASSOC_T_RECONF] = "reconfiguration",
	[SCTP_ASSOC_T_PMTU] = "pmtu-probe",
};

static const char *const assoc_row_names[SCTP_ASSOC_ROW_COUNT] = {
	[SCTP_ASSOC_ROW_DATA] = "DATA",
	[SCTP_ASSOC_ROW_INIT] = "INIT",
	[SCTP_ASSOC_ROW_INIT_ACK] = "INIT ACK",
	[SCTP_ASSOC_ROW_SACK] = "SACK",
	[SCTP_ASSOC_ROW_HEARTBEAT] = "HEARTBEAT",
	[SCTP_ASSOC_ROW_HEARTBEAT_ACK] = "HEARTBEAT ACK",
	[SCTP_ASSOC_ROW_ABORT] = "ABORT",
	[SCTP_ASSOC_ROW_SHUTDOWN] = "SHUTDOWN",
	[SCTP_ASSOC_ROW_SHUTDOWN_ACK] = "SHUTDOWN ACK",
	[SCTP_ASSOC_ROW_ERROR] = "ERROR",
	[SCTP_ASSOC_ROW_COOKIE_ECHO] = "COOKIE ECHO",
	[SCTP_ASSOC_ROW_COOKIE_ACK] = "COOKIE ACK",
	[SCTP_ASSOC_ROW_SHUTDOWN_COMPLETE] = "SHUTDOWN COMPLETE",
	[SCTP_ASSOC_ROW_FORWARD_TSN] = "FORWARD TSN",
	[SCTP_ASSOC_ROW_RECONFIG] = "RE-CONFIG",
	[SCTP_ASSOC_ROW_EXTENSION] = "negotiated extension",
	[SCTP_ASSOC_ROW_UNKNOWN] = "unrecognized",
};

static const char *const assoc_user_names[SCTP_ASSOC_USER_COUNT] = {
	[SCTP_ASSOC_USER_SHUTDOWN] = "SHUTDOWN",       [SCTP_ASSOC_USER_ABORT] = "ABORT",
	[SCTP_ASSOC_USER_SET_PRIMARY] = "SET PRIMARY", [SCTP_ASSOC_USER_SEND] = "SEND",
	[SCTP_ASSOC_USER_CONSUMED] = "CONSUMED",       [SCTP_ASSOC_USER_FLUSH] = "FLUSH",
	[SCTP_ASSOC_USER_RECONF] = "RECONF",
};

static const struct sctp_def_row assoc_drop_rows[SCTP_ASSOC_DROP_COUNT] = {
	[SCTP_ASSOC_DROP_NONE] = { "none", "not a discard" },
#define SCTP_ASSOC_DROP(name, str, why) SCTP_DEF_ROW(SCTP_ASSOC_DROP_##name, str, why)
#include "sctp/assoc_drop.def"
#undef SCTP_ASSOC_DROP
};

const char *
sctp_assoc_state_name(enum sctp_assoc_state s)
{
	return (unsigned)s < SCTP_ASSOC_STATE_COUNT ? assoc_state_names[s] : "unknown";
}

const char *
sctp_assoc_timer_name(enum sctp_assoc_timer t)
{
	return (unsigned)t < SCTP_ASSOC_TIMER_COUNT ? assoc_timer_names[t] : "unknown";
}

const char *
sctp_assoc_row_name(enum sctp_assoc_row r)
{
	return (unsigned)r < SCTP_ASSOC_ROW_COUNT ? assoc_row_names[r] : "unknown";
}

const char *
sctp_assoc_user_call_name(enum sctp_assoc_user_call u)
{
	return (unsigned)u < SCTP_ASSOC_USER_COUNT ? assoc_user_names[u] : "unknown";
}

const char *
sctp_assoc_drop_name(enum sctp_assoc_drop d)
{
	return sctp_def_name(assoc_drop_rows, SCTP_ASSOC_DROP_COUNT, d);
}

const char *
sctp_assoc_drop_describe(enum sctp_assoc_drop d)
{
	return sctp_def_describe(assoc_drop_rows, SCTP_ASSOC_DROP_COUNT, d, "unknown");
}
