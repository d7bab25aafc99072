/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association's insides, shared by its files and by nothing else (the
 * interface is sctp/assoc.h). Handlers read the association as const and
 * emit commands; assoc_apply() is the one place that carries them out.
 *
 *   sctp/assoc.c            entry points: tag checks, the chunk walk, timers,
 *                           user calls;
 *   sctp/assoc_handshake.c  INIT ACK, COOKIE ACK, Stale Cookie, T1 handlers;
 *   sctp/assoc_collision.c  INIT and COOKIE ECHO in an existing association
 *                           (§5.2: collisions, tie-tags, restart);
 *   sctp/assoc_shutdown.c   SHUTDOWN family, ABORT, T2 and T5 handlers;
 *   sctp/assoc_control.c    HEARTBEAT, ERROR and unrecognized chunk handlers;
 *   sctp/assoc_path.c       HEARTBEAT ACK, the heartbeat timer, SET PRIMARY
 *                           (the path set, sctp/path.h, does the work);
 *   sctp/assoc_apply.c      the interpreter: state, timers, control packets,
 *                           the user, the data block's life;
 *   sctp/assoc_send.c       the send path: user send, the flush after
 *                           every input, SACK in, T3-rtx (the send queue,
 *                           the retransmission queue and cc do the work);
 *   sctp/assoc_data.c       the data path: DATA in, SACK policy and SACK out
 *                           (the TSN map and reassembly do the work);
 *   sctp/assoc_check.c      the association's invariants, for debug builds;
 *   sctp/assoc_table.c      the three tables, row lookup and names.
 *
 * How an input flows, and why one way. An entry point (assoc.c) hands the
 * input to its cell's handler, which emits a command list; assoc_apply()
 * runs it, then assoc_apply_end() makes the input's SACK decision and
 * flush. Commands of the data path (OP_DATA, OP_SACK, OP_T3, ...) call the
 * receive and send logic (assoc_data.c, assoc_send.c), which does its own
 * work through the data-path modules (TSN map, reassembly, send and
 * retransmission queues, cc, path set) and sends its own DATA and SACK
 * packets, but never calls back into the interpreter: what needs the
 * interpreter (a control packet, a state, a timer, an ABORT, path events)
 * it emits as follow-up commands into a queue the interpreter passes it.
 * The interpreter drains that queue right after the command that filled
 * it, before the next one, as Linux's sm_sideeffect.c does, so the order
 * of effects is the order the handler asked for. The queue is bounded
 * (SCTP_ASSOC_MAX_CMDS, counted as cmd_overflow past it, and
 * sctp_assoc_check() fails on that count), and the calls run one way:
 * assoc.c -> assoc_apply.c -> assoc_send.c -> assoc_data.c -> modules,
 * so no file can re-enter the interpreter half way through a command and
 * see, or leave, the association half changed.
 */
#ifndef SCTP_ASSOC_INTERNAL_H
#define SCTP_ASSOC_INTERNAL_H

#include <string.h>

#include "sctp/assoc.h"
#include "sctp/chunk.h"

/* RFC 8260 §2.2: I-DATA negotiated, so every user message goes as I-DATA both ways. */
static inline bool
assoc_idata(const struct sctp_assoc *a)
{
	return (a->extensions & SCTP_COOKIE_EXT_I_DATA) != 0;
}

/* ---- Commands --------------------------------------------------------- */

/* The longest handler (COOKIE ACK with a shutdown pending) emits 11. */
#define SCTP_ASSOC_MAX_CMDS 16

enum assoc_op {
	OP_STATE,	  /* u.state */
	OP_TIMER_START,	  /* u.timer: deadline now + assoc_timer_duration() */
	OP_TIMER_STOP,	  /* u.timer */
	OP_SEND,	  /* u.send: build and send one packet */
	OP_NOTIFY,	  /* u.notify */
	OP_DROP,	  /* u.drop: count it */
	OP_STOP,	  /* handle no further chunk of this packet */
	OP_PEER_INIT,	  /* record cmds->peer, what the INIT ACK said */
	OP_RTO_SAMPLE,	  /* RTT = now - hs.sent_ns */
	OP_RTO_BACKOFF,	  /* RFC 9260 §6.3.3 E2 */
	OP_INIT_RTX,	  /* u.count: new value of init_rtx */
	OP_SHUTDOWN_RTX,  /* u.count: new value of shutdown_rtx */
	OP_STALE_RESTART, /* u.count: Cookie Preservative (ms) for the new INIT */
	OP_SHUTDOWN_FLAG, /* shutdown_requested = true */
	OP_CLOSE,	  /* CLOSED, every timer stopped, freeable */
	OP_ADOPT_COOKIE,  /* §5.2.4 B before ESTABLISHED: the peer's side of cmds->cookie */
	OP_PEER_VTAG,	  /* §5.2.4 B once ESTABLISHED: u.count is the peer's new tag */
	OP_RESTART,	  /* §5.2.4 A: the association becomes cmds->cookie's */
	OP_PATHS_WAKEUP,  /* sctp_paths_on_wakeup(): heartbeats sent, events raised */
	OP_HB_ACK,	  /* u.send.view: a HEARTBEAT ACK's info for sctp_paths_on_hb_ack() */
	OP_SET_PRIMARY,	  /* u.count: the path index the user made primary */
	OP_DATA,	  /* u.chunk: a DATA chunk for the receive path (assoc_data.c) */
	OP_SACK,	  /* u.chunk: a SACK for the send path (assoc_send.c) */
	OP_FWD_TSN,	  /* u.chunk: a FORWARD TSN for the receive path (assoc_data.c) */
	OP_SHUTDOWN_CUM,  /* u.chunk: a SHUTDOWN's Cumulative TSN Ack (§9.2) */
	OP_T3,		  /* T3-rtx expired on every path whose deadline passed */
	OP_PUSH,	  /* u.user: the user's message into the send queue; run->result */
	OP_CONSUMED,	  /* u.count: bytes the application consumed (assoc_data.c) */
	OP_BUNDLE_DUE,	  /* the bundling delay ran out: the flush holds nothing back */
	OP_PATH_EVENTS,	  /* u.events: what the path set reported (sctp/path.h masks) */
	OP_HALT,	  /* the association ended: apply nothing more, handle no further chunk */
	OP_RECONF,	  /* u.chunk: a RE-CONFIG chunk (assoc_reconf.c) */
	OP_RECONF_USER,	  /* u.user: the user's reconfiguration request; run->result */
	OP_RECONF_TIMER,  /* our request's timer expired (RFC 6525 §5.1.1) */
	OP_PMTU_TIMER,	  /* a PLPMTUD deadline passed (assoc_pmtu.c) */
};

/* The packets an association sends. */
enum assoc_pkt {
	PKT_INIT,
	PKT_COOKIE_ECHO, /* with the ERROR of §3.2.2 when there is something to report */
	PKT_SHUTDOWN,
	PKT_SHUTDOWN_ACK,
	PKT_SHUTDOWN_COMPLETE,
	PKT_ABORT,
	PKT_HEARTBEAT_ACK,
	PKT_COOKIE_ACK,	 /* §5.2.4 D: the answer to a retransmitted COOKIE ECHO */
	PKT_ERROR_CHUNK, /* ERROR, Unrecognized Chunk Type */
	PKT_INIT_ACK,	 /* §5.2.1, §5.2.2: answers the INIT in hand with cmds->init_ack */
	PKT_ERROR_STALE, /* ERROR, Stale Cookie of u.send.value µs (§5.2.4 step 3) */
	PKT_SHUTDOWN_ACK_COOKIE, /* SHUTDOWN ACK + ERROR, Cookie Received While Shutting Down */
	PKT_SACK,		 /* from the TSN map, to the path of the last DATA (§6.4) */
	PKT_ERROR_STREAM,	 /* ERROR, Invalid Stream Identifier u.send.value (§6.5) */
};

struct assoc_send {
	uint8_t pkt;	     /* enum assoc_pkt */
	bool reflect;	     /* tag of the packet in hand, T bit set, back to its source */
	bool to_source;	     /* our usual tag, but to the source of the packet in hand */
	bool rtx;	     /* a retransmission of INIT / COOKIE ECHO (Karn) */
	uint16_t cause;	     /* ABORT: the cause code, 0 for none */
	uint32_t vtag;	     /* non-zero: use it instead of the peer's tag */
	uint32_t value;	     /* PKT_ERROR_STALE: staleness µs; ERROR_STREAM: sid; ABORT: TSN */
	const uint8_t *view; /* cause data, heartbeat info, chunk: valid during the input */
	uint16_t view_len;
};

struct assoc_notify {
	uint8_t type;
	uint8_t reason;
	uint16_t error;
	const uint8_t *causes;
	uint16_t causes_len;
};

struct assoc_cmd {
	uint8_t op; /* enum assoc_op */
	union {
		uint8_t state;
		uint8_t timer;
		uint8_t drop;
		uint32_t count;
		uint64_t events;
		struct assoc_send send;
		struct assoc_notify notify;
		const struct sctp_chunk *chunk; /* valid during the input */
		const struct assoc_in *user;	/* the user call in hand */
	} u;
};

/* What an INIT ACK tells about the peer; views into the packet in hand. */
struct assoc_peer {
	uint32_t vtag;
	uint32_t initial_tsn;
	uint32_t a_rwnd;
	uint16_t outbound_streams;
	uint16_t inbound_streams;
	bool os_clamped;
	uint32_t extensions;
	const uint8_t *cookie;
	uint16_t cookie_len;
	uint16_t n_report;
	struct sctp_tlv report[SCTP_INIT_MAX_REPORTS];
	/* §5.1.2: the INIT ACK's source and its address parameters. */
	struct sctp_addr src;
	uint8_t n_addrs;
	struct sctp_addr addrs[SCTP_INIT_MAX_ADDRS];
};

/*
 * Everything a command may refer to beyond its own fields. Only n,
 * overflow and result are set before a handler runs; the rest is written
 * by the handler that uses it, so the data path pays nothing for it.
 */
struct assoc_cmds {
	uint8_t n;
	bool overflow;
	int result; /* a user call's return value */
	struct assoc_cmd cmd[SCTP_ASSOC_MAX_CMDS];
	struct assoc_cmd sink; /* where commands past the bound go, never applied */
	struct assoc_peer peer;
	/* §5.2.4: the verified cookie of the COOKIE ECHO in hand. */
	struct sctp_cookie_state cookie;
	/* §5.2.1, §5.2.2: how PKT_INIT_ACK answers the INIT in hand (in->c). */
	const struct sctp_chunk *init_chunk;
	struct sctp_init_ack_tags init_ack;
	/* §5.2.2: the new addresses an ABORT lists, as address parameters. */
	uint8_t scratch[(1u + SCTP_INIT_MAX_ADDRS) * 20u];
};

/* What a handler is given. rx and c are NULL for timers and user calls. */
struct assoc_cell;
struct assoc_in {
	const struct sctp_rx *rx;
	const struct sctp_chunk *c;
	const struct assoc_cell *cell;
	const uint8_t *reason;	      /* user ABORT */
	const struct sctp_addr *addr; /* user SET PRIMARY */
	uint64_t now_ns;
	uint32_t bytes; /* user CONSUMED */
	uint16_t reason_len;
	/*
	 * One user call's arguments at a time: every call zero-fills the
	 * struct, so what SEND (each message) fills stays as small as before
	 * RE-CONFIG's arguments came.
	 */
	union {
		struct {
			const struct sctp_slice
				*msg; /* user SEND: the message, its stream, PPID, flags */
			uint32_t ppid;
			uint16_t sid;
			uint8_t flags;
			uint8_t pr_policy; /* user SEND: SCTP_PR_*, pr_value its value */
			uint32_t pr_value;
			uint32_t context; /* user SEND: given back with SEND FAILED */
		};
		struct {
			/* user RECONF: what (ASSOC_RECONF_*), SCTP_STREAM_RESET_* flags and
			 * streams, or the streams to add */
			const uint16_t *sids;
			unsigned reset_flags;
			uint16_t n_sids;
			uint16_t add_out;
			uint16_t add_in;
			uint8_t reconf;
		};
	};
};

typedef void (*assoc_fn)(const struct sctp_assoc *a, const struct assoc_in *in,
			 struct assoc_cmds *o);

struct assoc_cell {
	assoc_fn fn;
	const char *name;
	uint8_t drop; /* enum sctp_assoc_drop: the discard's name, NONE for a handler */
	uint8_t vtag; /* enum sctp_assoc_vtag_rule */
	int err;      /* a refused user call's return value */
};

static inline struct assoc_cmd *
emit(struct assoc_cmds *o, enum assoc_op op)
{
	struct assoc_cmd *c = &o->sink;

	if (o->n < SCTP_ASSOC_MAX_CMDS)
		c = &o->cmd[o->n++];
	else
		o->overflow = true;
	memset(c, 0, sizeof(*c));
	c->op = (uint8_t)op;
	return c;
}

static inline void
emit_state(struct assoc_cmds *o, enum sctp_assoc_state s)
{
	emit(o, OP_STATE)->u.state = (uint8_t)s;
}

static inline void
emit_timer_start(struct assoc_cmds *o, enum sctp_assoc_timer t)
{
	emit(o, OP_TIMER_START)->u.timer = (uint8_t)t;
}

static inline void
emit_timer_stop(struct assoc_cmds *o, enum sctp_assoc_timer t)
{
	emit(o, OP_TIMER_STOP)->u.timer = (uint8_t)t;
}

static inline void
emit_count(struct assoc_cmds *o, enum assoc_op op, uint32_t value)
{
	emit(o, op)->u.count = value;
}

static inline struct assoc_send *
emit_send(struct assoc_cmds *o, enum assoc_pkt pkt)
{
	struct assoc_send *s = &emit(o, OP_SEND)->u.send;

	s->pkt = (uint8_t)pkt;
	return s;
}

static inline void
emit_drop(struct assoc_cmds *o, enum sctp_assoc_drop d)
{
	emit(o, OP_DROP)->u.drop = (uint8_t)d;
}

static inline void
emit_drop_packet(struct assoc_cmds *o, enum sctp_assoc_drop d)
{
	emit_drop(o, d);
	emit(o, OP_STOP);
}

/* Close, then tell the user why (the notification sees state CLOSED). */
static inline struct assoc_notify *
emit_close(struct assoc_cmds *o, enum sctp_notify_type type, enum sctp_assoc_reason reason)
{
	emit(o, OP_CLOSE);
	struct assoc_notify *n = &emit(o, OP_NOTIFY)->u.notify;
	n->type = (uint8_t)type;
	n->reason = (uint8_t)reason;
	return n;
}

/*
 * ABORT with one cause (value: its datum, a TSN for No User Data), CLOSED,
 * the user told why; then nothing more is applied and no further chunk of
 * the packet handled.
 */
static inline void
emit_abort(const struct sctp_assoc *a, struct assoc_cmds *o, uint16_t cause,
	   enum sctp_assoc_reason reason, uint32_t value)
{
	struct assoc_send *s = emit_send(o, PKT_ABORT);

	s->cause = cause;
	s->value = value;
	emit_close(o,
		   a->state >= SCTP_ASSOC_ESTABLISHED ? SCTP_NOTIFY_COMM_LOST
						      : SCTP_NOTIFY_CANT_START,
		   reason);
	emit(o, OP_HALT);
}

static inline void
emit_path_events(struct assoc_cmds *o, uint64_t ev)
{
	emit(o, OP_PATH_EVENTS)->u.events = ev;
}

/* An empty command list: the one initialisation a list needs. */
static inline void
assoc_cmds_init(struct assoc_cmds *o)
{
	o->n = 0;
	o->overflow = false;
	o->result = 0;
}

/* ---- Shared by the handlers ------------------------------------------- */

static inline const struct sctp_profile *
assoc_profile(const struct sctp_assoc *a)
{
	return a->prof != NULL ? a->prof : a->ep->cfg.profile;
}

static inline uint16_t
min_u16(uint16_t x, uint16_t y)
{
	return x < y ? x : y;
}

/* The first cause code of an error-cause list, 0 when there is none. */
static inline uint16_t
assoc_first_cause(const uint8_t *causes, uint16_t len)
{
	struct sctp_tlv_iter it;
	struct sctp_tlv t;

	sctp_tlv_iter_init(&it, SCTP_TLV_CAUSE, causes, len);
	return sctp_tlv_iter_next(&it, &t) ? t.type : 0;
}

void assoc_begin_shutdown(const struct sctp_assoc *a, struct assoc_cmds *o);

/* Is addr one of the peer's transport addresses in this association? */
static inline bool
assoc_peer_addr_known(const struct sctp_assoc *a, const struct sctp_addr *addr)
{
	return sctp_paths_find(&a->paths, addr) >= 0;
}

/* ---- Handlers: the tables' cells (assoc_table.c) ---------------------- */

/* assoc_handshake.c */
void assoc_sf_init_ack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_sf_cookie_ack(const struct sctp_assoc *a, const struct assoc_in *in,
			 struct assoc_cmds *o);
void assoc_sf_error_cookie_echoed(const struct sctp_assoc *a, const struct assoc_in *in,
				  struct assoc_cmds *o);
void assoc_tf_t1_init(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_tf_t1_cookie(const struct sctp_assoc *a, const struct assoc_in *in,
			struct assoc_cmds *o);

/* assoc_collision.c */
void assoc_sf_init_collision(const struct sctp_assoc *a, const struct assoc_in *in,
			     struct assoc_cmds *o);
void assoc_sf_init_unexpected(const struct sctp_assoc *a, const struct assoc_in *in,
			      struct assoc_cmds *o);
void assoc_sf_cookie_echo(const struct sctp_assoc *a, const struct assoc_in *in,
			  struct assoc_cmds *o);

/* assoc_path.c */
void assoc_sf_heartbeat_ack(const struct sctp_assoc *a, const struct assoc_in *in,
			    struct assoc_cmds *o);
void assoc_tf_heartbeat(const struct sctp_assoc *a, const struct assoc_in *in,
			struct assoc_cmds *o);
void assoc_uf_set_primary(const struct sctp_assoc *a, const struct assoc_in *in,
			  struct assoc_cmds *o);

/* assoc_data.c: handlers */
void assoc_sf_data(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_sf_forward_tsn(const struct sctp_assoc *a, const struct assoc_in *in,
			  struct assoc_cmds *o);
void assoc_tf_sack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_uf_consumed(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);

/* assoc_send.c: handlers */
void assoc_sf_sack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_sf_shutdown_data(const struct sctp_assoc *a, const struct assoc_in *in,
			    struct assoc_cmds *o);
void assoc_tf_t3_rtx(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_uf_send(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_uf_shutdown_data(const struct sctp_assoc *a, const struct assoc_in *in,
			    struct assoc_cmds *o);
void assoc_tf_bundle(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_uf_flush(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);

/* assoc_pmtu.c: handlers */
void assoc_tf_pmtu(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);

/* assoc_reconf.c: handlers */
void assoc_sf_reconfig(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_tf_reconf(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_uf_reconf(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);

/* assoc_shutdown.c */
void assoc_sf_abort(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_sf_shutdown_in_shutdown_sent(const struct sctp_assoc *a, const struct assoc_in *in,
					struct assoc_cmds *o);
void assoc_sf_shutdown_resend_ack(const struct sctp_assoc *a, const struct assoc_in *in,
				  struct assoc_cmds *o);
void assoc_sf_shutdown_ack(const struct sctp_assoc *a, const struct assoc_in *in,
			   struct assoc_cmds *o);
void assoc_sf_shutdown_ack_ootb(const struct sctp_assoc *a, const struct assoc_in *in,
				struct assoc_cmds *o);
void assoc_sf_shutdown_complete(const struct sctp_assoc *a, const struct assoc_in *in,
				struct assoc_cmds *o);
void assoc_sf_init_in_shutdown_ack_sent(const struct sctp_assoc *a, const struct assoc_in *in,
					struct assoc_cmds *o);
void assoc_tf_t2_shutdown_sent(const struct sctp_assoc *a, const struct assoc_in *in,
			       struct assoc_cmds *o);
void assoc_tf_t2_shutdown_ack_sent(const struct sctp_assoc *a, const struct assoc_in *in,
				   struct assoc_cmds *o);
void assoc_tf_t5_guard(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_uf_shutdown_cookie_wait(const struct sctp_assoc *a, const struct assoc_in *in,
				   struct assoc_cmds *o);
void assoc_uf_shutdown_cookie_echoed(const struct sctp_assoc *a, const struct assoc_in *in,
				     struct assoc_cmds *o);
void assoc_uf_abort(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_uf_abort_cookie_wait(const struct sctp_assoc *a, const struct assoc_in *in,
				struct assoc_cmds *o);

/* assoc_control.c */
void assoc_sf_error(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);
void assoc_sf_heartbeat(const struct sctp_assoc *a, const struct assoc_in *in,
			struct assoc_cmds *o);
void assoc_sf_unknown(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o);

/* ---- Tables (assoc_table.c) ------------------------------------------- */

extern const struct assoc_cell assoc_chunk_table[SCTP_ASSOC_ROW_COUNT][SCTP_ASSOC_STATE_COUNT];
extern const struct assoc_cell assoc_timer_table[SCTP_ASSOC_TIMER_COUNT][SCTP_ASSOC_STATE_COUNT];
extern const struct assoc_cell assoc_user_table[SCTP_ASSOC_USER_COUNT][SCTP_ASSOC_STATE_COUNT];

/* ---- The interpreter (assoc_apply.c) ---------------------------------- */

/* What the interpreter knows about the input being handled. */
struct assoc_run {
	const struct sctp_rx *rx; /* NULL for timers and user calls */
	uint64_t now_ns;
	bool stop;	    /* no further chunk of this packet */
	bool halted;	    /* the association ended (OP_HALT): apply nothing more */
	bool had_data;	    /* the packet carried DATA: a SACK decision is due at its end */
	int result;	    /* a user call's return value set by the interpreter (OP_PUSH) */
	bool shutdown_step; /* SHUTDOWN-PENDING or -RECEIVED entered, or data acked: the
			       flush checks whether the shutdown may go on (§9.2) */
	bool more;	    /* SCTP_SEND_MORE: the flush sends no new data this time */
	bool bundle_due;    /* the bundling delay's timer fired: hold nothing back */
	bool sack_due;	    /* the packet's SACK decided "at once": it rides ahead of the
			       first DATA this input sends, or leaves alone (assoc_tx_flush) */
	bool pr_check;	    /* chunks were marked (T3-rtx, fast retransmit): PR-SCTP limits
			       are looked at before retransmitting (RFC 7496 §4) */
	bool fwd_check;	    /* a SACK, a T3-rtx expiry or an abandonment: RFC 3758 §3.5
			       C1-C3, a FORWARD TSN if the peer's cum is behind */
};

/* Run a handler's command list, each command's follow-ups right after it. */
void assoc_apply(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_cmds *cmds);
/* The input's end: the packet's SACK decision, the flush, their follow-ups. */
void assoc_apply_end(struct sctp_assoc *a, struct assoc_run *run);

/*
 * Add the peer's addresses to the path set (§5.1.2, §5.4): confirmed per
 * §5.4 rules 1 and 2, room from ops->paths_get(); ones of another family
 * than our local address, or beyond the room, are counted and left out.
 */
void assoc_add_peer_addrs(struct sctp_assoc *a, const struct sctp_addr *addrs, unsigned n,
			  bool confirmed, uint64_t now_ns);

/*
 * ---- The send path (assoc_send.c), run by the interpreter -------------
 *
 * Functions given a queue `q` emit into it what the interpreter must do
 * next; they never call assoc_apply().
 */
void assoc_tx_start(struct sctp_assoc *a, void *mem);
/* PMDCS of path i (§1.3): its MTU less the IP and common headers. */
uint16_t assoc_tx_pmdcs(const struct sctp_assoc *a, unsigned i);

/*
 * ---- Path MTU (assoc_pmtu.c, docs/PMTU.md) ----------------------------
 *
 * start: from assoc_tx_start(), every path at the interface MTU and
 * PLPMTUD on each as the profile says. flush: at the end of every input,
 * the probes wanted go out and SCTP_ASSOC_T_PMTU follows the deadlines.
 * t3: T3-rtx expired on path i (a black hole may have opened). hb_ack: a
 * HEARTBEAT ACK whose info is a probe's (true: it was, handled).
 */
void assoc_pmtu_start(struct sctp_assoc *a);
void assoc_pmtu_flush(struct sctp_assoc *a, struct assoc_run *run);
void assoc_pmtu_timeout(struct sctp_assoc *a, struct assoc_run *run);
void assoc_pmtu_t3(struct sctp_assoc *a, unsigned i);
bool assoc_pmtu_hb_ack(struct sctp_assoc *a, struct assoc_run *run, const uint8_t *info,
		       size_t info_len);
/* ICMP7 after the tag check (assoc_icmp.c): 0 or -EINVAL. */
int assoc_pmtu_icmp(struct sctp_assoc *a, const struct sctp_icmp *e, uint64_t now_ns);
void assoc_tx_stop(struct sctp_assoc *a);
bool assoc_tx_outstanding(const struct sctp_assoc *a);
void assoc_tx_push(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_in *in);
void assoc_tx_flush(struct sctp_assoc *a, struct assoc_run *run, struct assoc_cmds *q);
void assoc_rx_sack(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_chunk *c,
		   struct assoc_cmds *q);
void assoc_rx_shutdown_cum(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_chunk *c,
			   struct assoc_cmds *q);
void assoc_tx_t3(struct sctp_assoc *a, struct assoc_run *run, struct assoc_cmds *q);
/* RFC 6525: the send side moves to mem with new_out outbound streams (at least as many). */
void assoc_tx_move(struct sctp_assoc *a, void *mem, uint16_t new_out);
/* RFC 6525 §5.2.4 G5-G7: nothing outstanding; the next new chunk takes TSN next_tsn. */
void assoc_tx_reset(struct sctp_assoc *a, uint32_t next_tsn);

/*
 * ---- Stream reconfiguration (assoc_reconf.c), run by the interpreter ---
 *
 * It calls the send and receive sides' modules directly (the send queue's
 * and reassembly's stream numbering, the TSN map's cumulative TSN) and
 * sends its own RE-CONFIG chunks.
 */
#define ASSOC_RECONF_STREAMS 0 /* sctp_assoc_reset_streams() */
#define ASSOC_RECONF_ADD     1 /* sctp_assoc_add_streams() */
#define ASSOC_RECONF_ASSOC   2 /* sctp_assoc_reset_assoc() */
void assoc_reconf_start(struct sctp_assoc *a);
void assoc_rx_reconfig(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_chunk *c,
		       struct assoc_cmds *q);
void assoc_reconf_user(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_in *in);
void assoc_reconf_timeout(struct sctp_assoc *a, struct assoc_run *run, struct assoc_cmds *q);
/* The input's end: a deferred reset whose TSN our cumulative TSN reached is
 * done now. Called only while a->reconf_deferred (a byte of line 0: every
 * packet looks). */
void assoc_reconf_input_end(struct sctp_assoc *a, struct assoc_run *run);

/* RFC 6525 §5.1.2: outgoing stream sid waits for the answer to our reset of it. */
static inline bool
assoc_reconf_closed(const struct sctp_assoc_tx *tx, uint16_t sid)
{
	const struct sctp_assoc_reconf *r = &tx->reconf;

	if (r->waiting & SCTP_RECONF_REQ_TSN)
		return true; /* §5.1.4: every stream, until the TSNs are agreed */
	if (!(r->waiting & SCTP_RECONF_REQ_OUT))
		return false;
	if (r->n_streams == 0)
		return true;
	for (unsigned i = 0; i < r->n_streams; i++)
		if (r->streams[i] == sid)
			return true;
	return false;
}

/* ---- The receive path (assoc_data.c), run by the interpreter ----------- */

/* Bytes of the data block the receive side takes, ahead of the send side's. */
size_t assoc_rx_bytes(const struct sctp_data_config *d, uint16_t inbound_streams, bool idata);
void assoc_rx_start(struct sctp_assoc *a, void *mem);
void assoc_rx_stop(struct sctp_assoc *a);
void assoc_rx_move(struct sctp_assoc *a, void *mem, uint16_t new_in);
void assoc_rx_reset(struct sctp_assoc *a, uint32_t next_tsn);
void assoc_rx_stream_reset(struct sctp_assoc *a, uint16_t sid);
void assoc_rx_data(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_chunk *c,
		   struct assoc_cmds *q);
void assoc_rx_forward_tsn(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_chunk *c);
void assoc_rx_packet_end(struct sctp_assoc *a, struct assoc_run *run, struct assoc_cmds *q);
void assoc_rx_consumed(struct sctp_assoc *a, struct assoc_run *run, uint32_t bytes);
void assoc_tx_sack(const struct sctp_assoc *a, struct sctp_writer *w);
/* A SACK alone: to the source of the packet in hand, else to the last DATA's path (§6.4). */
void assoc_sack_send(struct sctp_assoc *a, const struct assoc_run *run, bool to_source);
void assoc_sack_sent(struct sctp_assoc *a);
uint32_t assoc_rwnd(const struct sctp_assoc *a);

/* ---- Below every file: counters, addresses, the send side's size ------- */

static inline void
assoc_count_drop(struct sctp_assoc *a, enum sctp_assoc_drop d)
{
	a->counters->drops[d]++;
}

/*
 * Our source address toward dst. With one local address, that one. A
 * multi-homed endpoint (RFC 9260 §6.4) uses, of its addresses of dst's
 * family, the one sharing the longest prefix with dst, the association's
 * own on a tie: on directly attached networks that is the address of the
 * interface the path leaves by, so a reply to it comes back over the same
 * network, and a network that fails takes down only the paths through it.
 * A data plane with a routing table may pick otherwise (ops->send gets
 * both addresses).
 */
static inline const struct sctp_addr *
assoc_src_for(const struct sctp_assoc *a, const struct sctp_addr *dst)
{
	const struct sctp_endpoint_config *cfg = &a->ep->cfg;
	const struct sctp_addr *best = &a->local_addr;
	unsigned best_len = dst->family == best->family ? sctp_addr_common_prefix(best, dst) : 0;

	for (uint8_t i = 0; cfg->n_addrs > 1 && i < cfg->n_addrs; i++) {
		const struct sctp_addr *x = &cfg->addrs[i];
		if (x->family != dst->family)
			continue;
		unsigned l = sctp_addr_common_prefix(x, dst);
		if (l > best_len) {
			best = x;
			best_len = l;
		}
	}
	return best;
}

static inline size_t
assoc_align8(size_t n)
{
	return (n + 7u) & ~(size_t)7u;
}

/* The paths whose send state the data block holds (sctp_data_config.max_paths). */
static inline unsigned
assoc_tx_paths(const struct sctp_data_config *d)
{
	return d->max_paths == 0 || d->max_paths > SCTP_MAX_PATHS ? SCTP_MAX_PATHS : d->max_paths;
}

/*
 * Bytes of the data block the send side takes (struct sctp_assoc_tx, each
 * path's struct sctp_tx_path and the outbound streams' entries), 0 when it
 * is off: not configured, or no outbound stream.
 */
static inline size_t
assoc_tx_bytes(const struct sctp_data_config *d, uint16_t outbound_streams)
{
	if (d == NULL || d->outq_pool == NULL || d->rtxq_pool == NULL || outbound_streams == 0)
		return 0;
	return assoc_align8(sizeof(struct sctp_assoc_tx)) +
	       assoc_tx_paths(d) * sizeof(struct sctp_tx_path) +
	       assoc_align8((size_t)outbound_streams * sizeof(struct sctp_outq_stream));
}

/* ---- The invariants (assoc_check.c) ------------------------------------- */

/*
 * After every entry point of sctp/assoc.h, in builds with SCTP_ASSOC_CHECK
 * defined (the unit, sim and fuzz builds; never the library the data plane
 * links): sctp_assoc_check(), and abort() with the broken invariant's name
 * and where it was found if one is. Without the macro nothing is called.
 */
void assoc_check_or_abort(const struct sctp_assoc *a, const char *where);
#ifdef SCTP_ASSOC_CHECK
#define ASSOC_CHECK(a) assoc_check_or_abort((a), __func__)
#else
#define ASSOC_CHECK(a) ((void)(a))
#endif

#endif /* SCTP_ASSOC_INTERNAL_H */
