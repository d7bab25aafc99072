/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association state machine, RFC 9260 §4, §5.1, §5.2.3, §5.2.5, §5.2.6,
 * §8.5, §8.5.1, §9.1 and §9.2. See sctp/assoc.h for the interface and
 * docs/STATES.md for the diagram and the tables.
 *
 * The file reads top to bottom as the design does:
 *   1. commands: what a handler may ask for, and the helpers that emit them;
 *   2. handlers: sf_* for chunks, tf_* for timers, uf_* for user calls. They
 *      read the association as const and only emit commands;
 *   3. the three tables, one designated initializer per cell;
 *   4. the interpreter, the one place that changes the association, builds
 *      packets and calls the user;
 *   5. dispatch and the entry points.
 */
#include <errno.h>
#include <string.h>

#include "sctp/assoc.h"
#include "sctp/chunk.h"

/* ---- 1. Commands ------------------------------------------------------ */

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
	PKT_ERROR_CHUNK, /* ERROR, Unrecognized Chunk Type */
};

struct assoc_send {
	uint8_t pkt;	     /* enum assoc_pkt */
	bool reflect;	     /* tag of the packet in hand, T bit set, back to its source */
	bool to_source;	     /* our usual tag, but to the source of the packet in hand */
	bool rtx;	     /* a retransmission of INIT / COOKIE ECHO (Karn) */
	uint16_t cause;	     /* ABORT: the cause code, 0 for none */
	uint32_t vtag;	     /* non-zero: use it instead of the peer's tag */
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
		struct assoc_send send;
		struct assoc_notify notify;
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
};

struct assoc_cmds {
	uint8_t n;
	bool overflow;
	int result; /* a user call's return value */
	struct assoc_cmd cmd[SCTP_ASSOC_MAX_CMDS];
	struct assoc_cmd sink; /* where commands past the bound go, never applied */
	struct assoc_peer peer;
};

/* What a handler is given. rx and c are NULL for timers and user calls. */
struct assoc_cell;
struct assoc_in {
	const struct sctp_rx *rx;
	const struct sctp_chunk *c;
	const struct assoc_cell *cell;
	const uint8_t *reason; /* user ABORT */
	uint16_t reason_len;
	uint64_t now_ns;
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

static struct assoc_cmd *
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

static void
emit_state(struct assoc_cmds *o, enum sctp_assoc_state s)
{
	emit(o, OP_STATE)->u.state = (uint8_t)s;
}

static void
emit_timer_start(struct assoc_cmds *o, enum sctp_assoc_timer t)
{
	emit(o, OP_TIMER_START)->u.timer = (uint8_t)t;
}

static void
emit_timer_stop(struct assoc_cmds *o, enum sctp_assoc_timer t)
{
	emit(o, OP_TIMER_STOP)->u.timer = (uint8_t)t;
}

static void
emit_count(struct assoc_cmds *o, enum assoc_op op, uint32_t value)
{
	emit(o, op)->u.count = value;
}

static struct assoc_send *
emit_send(struct assoc_cmds *o, enum assoc_pkt pkt)
{
	struct assoc_send *s = &emit(o, OP_SEND)->u.send;

	s->pkt = (uint8_t)pkt;
	return s;
}

static void
emit_drop(struct assoc_cmds *o, enum sctp_assoc_drop d)
{
	emit(o, OP_DROP)->u.drop = (uint8_t)d;
}

static void
emit_drop_packet(struct assoc_cmds *o, enum sctp_assoc_drop d)
{
	emit_drop(o, d);
	emit(o, OP_STOP);
}

/* Close, then tell the user why (the notification sees state CLOSED). */
static struct assoc_notify *
emit_close(struct assoc_cmds *o, enum sctp_notify_type type, enum sctp_assoc_reason reason)
{
	emit(o, OP_CLOSE);
	struct assoc_notify *n = &emit(o, OP_NOTIFY)->u.notify;
	n->type = (uint8_t)type;
	n->reason = (uint8_t)reason;
	return n;
}

/* ---- 2. Handlers ------------------------------------------------------ */

static const struct sctp_profile *
assoc_profile(const struct sctp_assoc *a)
{
	return a->ep->cfg.profile;
}

/*
 * RFC 9260 §9.2 "outstanding data": the hook the data path fills. Until it
 * exists nothing is ever outstanding, so SHUTDOWN-PENDING and
 * SHUTDOWN-RECEIVED are left at once.
 */
static bool
assoc_data_outstanding(const struct sctp_assoc *a)
{
	(void)a;
	return false;
}

/* §9.2: SHUTDOWN carries the last in-sequence TSN received: none yet. */
static uint32_t
assoc_cum_tsn_ack(const struct sctp_assoc *a)
{
	return a->peer_initial_tsn - 1u;
}

static uint16_t
min_u16(uint16_t x, uint16_t y)
{
	return x < y ? x : y;
}

/* §9.2: SHUTDOWN sent, T2-shutdown started, SHUTDOWN-SENT. */
static void
assoc_send_shutdown(struct assoc_cmds *o)
{
	emit_send(o, PKT_SHUTDOWN);
	emit_count(o, OP_SHUTDOWN_RTX, 0);
	emit_timer_start(o, SCTP_ASSOC_T2_SHUTDOWN);
	emit_state(o, SCTP_ASSOC_SHUTDOWN_SENT);
}

/*
 * §9.2: the user's SHUTDOWN. SHUTDOWN-PENDING until our data is acked; T5
 * bounds the whole sequence from here.
 */
static void
assoc_begin_shutdown(const struct sctp_assoc *a, struct assoc_cmds *o)
{
	emit_state(o, SCTP_ASSOC_SHUTDOWN_PENDING);
	emit_timer_start(o, SCTP_ASSOC_T5_GUARD);
	if (!assoc_data_outstanding(a))
		assoc_send_shutdown(o);
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
assoc_peer_from_init_ack(const struct sctp_assoc *a, const struct sctp_init *ack,
			 const struct sctp_init_params *p, struct assoc_cmds *o)
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
	emit(o, OP_PEER_INIT);
}

/*
 * RFC 9260 §5.1 C: INIT ACK in COOKIE-WAIT (tag rule §8.5: the Initiate
 * Tag of our INIT). Stop T1-init, send the COOKIE ECHO (with an ERROR
 * reporting unrecognized parameters, §3.2.2), start T1-cookie, enter
 * COOKIE-ECHOED. An INIT ACK answering an INIT sent once gives an RTT
 * sample (§6.3.1; Karn's rule otherwise).
 */
static void
sf_init_ack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
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
	assoc_peer_from_init_ack(a, &ack, &p, o);
	if (!a->hs.retransmitted)
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
static void
sf_cookie_ack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_cookie ack;

	if (sctp_cookie_parse(in->c, &ack) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	emit_timer_stop(o, SCTP_ASSOC_T1_COOKIE);
	if (!a->hs.retransmitted)
		emit(o, OP_RTO_SAMPLE);
	emit_count(o, OP_INIT_RTX, 0);
	emit_state(o, SCTP_ASSOC_ESTABLISHED);
	struct assoc_notify *n = &emit(o, OP_NOTIFY)->u.notify;
	n->type = SCTP_NOTIFY_COMM_UP;
	if (a->shutdown_requested)
		assoc_begin_shutdown(a, o);
}

/* The first cause code of an error-cause list, 0 when there is none. */
static uint16_t
assoc_first_cause(const uint8_t *causes, uint16_t len)
{
	struct sctp_tlv_iter it;
	struct sctp_tlv t;

	sctp_tlv_iter_init(&it, SCTP_TLV_CAUSE, causes, len);
	return sctp_tlv_iter_next(&it, &t) ? t.type : 0;
}

/*
 * RFC 9260 §9.1: ABORT, in any state with a TCB (tag rule §8.5.1 B, checked
 * before). The association is gone: CANT_START before ESTABLISHED,
 * COMM_LOST after, with the peer's causes.
 */
static void
sf_abort(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
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
 * RFC 9260 §9.2: SHUTDOWN in ESTABLISHED, SHUTDOWN-PENDING or
 * SHUTDOWN-RECEIVED (tag rule §8.5). SHUTDOWN-RECEIVED; its Cumulative TSN
 * Ack goes to the data path; once nothing of ours is outstanding, SHUTDOWN
 * ACK, T2-shutdown, SHUTDOWN-ACK-SENT.
 */
static void
sf_shutdown(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_shutdown sd;

	if (sctp_shutdown_parse(in->c, &sd) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	emit_state(o, SCTP_ASSOC_SHUTDOWN_RECEIVED);
	if (!assoc_data_outstanding(a))
		assoc_send_shutdown_ack(o);
}

/*
 * RFC 9260 §9.2: SHUTDOWN in SHUTDOWN-SENT, both sides shut down at once:
 * SHUTDOWN ACK at once, SHUTDOWN-ACK-SENT, T2-shutdown restarted.
 */
static void
sf_shutdown_in_shutdown_sent(const struct sctp_assoc *a, const struct assoc_in *in,
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
static void
sf_shutdown_resend_ack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
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
static void
sf_shutdown_ack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
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
static void
sf_shutdown_ack_ootb(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
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
static void
sf_shutdown_complete(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_shutdown sd;

	(void)a;
	if (sctp_shutdown_parse(in->c, &sd) != SCTP_PERR_OK) {
		emit_drop_packet(o, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		return;
	}
	emit_close(o, SCTP_NOTIFY_SHUTDOWN_COMPLETE, SCTP_ASSOC_REASON_SHUTDOWN);
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
	uint64_t rtt_ns = now_ns > a->hs.sent_ns ? now_ns - a->hs.sent_ns : 0;
	uint64_t ms = ceil_ms((uint64_t)staleness_us * SCTP_NS_PER_US) + ceil_ms(rtt_ns);

	return ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

/*
 * RFC 9260 §5.2.6: ERROR in COOKIE-ECHOED (tag rule §8.5). A Stale Cookie
 * restarts the handshake with a new INIT carrying a Cookie Preservative
 * (option 3), at most Max.Init.Retransmits times; then the attempt fails
 * (option 2). Any other ERROR is noted and ignored.
 */
static void
sf_error_cookie_echoed(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	struct sctp_error e;
	uint32_t staleness_us;

	(void)sctp_error_parse(in->c, &e); /* never fails on a walked chunk */
	if (!assoc_find_stale_cookie(&e, &staleness_us)) {
		emit_drop(o, SCTP_ASSOC_DROP_ERROR_IGNORED);
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
 * ERROR once established (tag rule §8.5): counted, not acted on; a Stale
 * Cookie outside COOKIE-ECHOED is discarded (§5.2.6).
 */
static void
sf_error(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
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
static void
sf_heartbeat(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
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
static void
sf_unknown(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
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

/*
 * RFC 9260 §9.2: INIT in SHUTDOWN-ACK-SENT from the peer's address (our
 * SHUTDOWN COMPLETE was lost and the peer starts again): discard it and
 * retransmit the SHUTDOWN ACK. From elsewhere it is a §5.2 case.
 */
static void
sf_init_in_shutdown_ack_sent(const struct sctp_assoc *a, const struct assoc_in *in,
			     struct assoc_cmds *o)
{
	if (!sctp_addr_eq(&in->rx->src, &a->peer_addr)) {
		emit_drop(o, SCTP_ASSOC_DROP_COLLISION);
		return;
	}
	emit_drop(o, SCTP_ASSOC_DROP_INIT_IN_SHUTDOWN_ACK_SENT);
	emit_send(o, PKT_SHUTDOWN_ACK);
}

/*
 * RFC 9260 §5.1 A, §6.3.3: T1-init expired in COOKIE-WAIT. Retransmit the
 * INIT with the RTO doubled, up to Max.Init.Retransmits times; the expiry
 * after the last retransmission ends the attempt (CANT_START). So the INIT
 * is sent 1 + Max.Init.Retransmits times in all.
 */
static void
tf_t1_init(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
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
static void
tf_t1_cookie(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
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

static void
tf_t2_shutdown_sent(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)in;
	assoc_t2_expired(a, PKT_SHUTDOWN, o);
}

static void
tf_t2_shutdown_ack_sent(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)in;
	assoc_t2_expired(a, PKT_SHUTDOWN_ACK, o);
}

/*
 * RFC 9260 §9.2: T5-shutdown-guard (5 x RTO.Max) expired: the shutdown took
 * too long. ABORT, CLOSED, COMM_LOST.
 */
static void
tf_t5_guard(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit_send(o, PKT_ABORT);
	emit_close(o, SCTP_NOTIFY_COMM_LOST, SCTP_ASSOC_REASON_T5_GUARD);
}

/* A user call refused in this state: its cell names the drop and errno. */
static void
uf_refuse(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	emit_drop(o, (enum sctp_assoc_drop)in->cell->drop);
	o->result = in->cell->err;
}

/* RFC 9260 §9.2: user SHUTDOWN in ESTABLISHED. */
static void
uf_shutdown(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)in;
	assoc_begin_shutdown(a, o);
}

/*
 * User SHUTDOWN in COOKIE-WAIT: the peer keeps no state for an INIT
 * (§5.1.3), so there is nobody to shut down with. Close at once.
 */
static void
uf_shutdown_cookie_wait(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit_close(o, SCTP_NOTIFY_SHUTDOWN_COMPLETE, SCTP_ASSOC_REASON_SHUTDOWN);
}

/*
 * User SHUTDOWN in COOKIE-ECHOED: the peer may already be ESTABLISHED, so
 * close gracefully once the COOKIE ACK comes (sf_cookie_ack).
 */
static void
uf_shutdown_cookie_echoed(const struct sctp_assoc *a, const struct assoc_in *in,
			  struct assoc_cmds *o)
{
	(void)in;
	if (a->shutdown_requested) {
		emit_drop(o, SCTP_ASSOC_DROP_USER_SHUTDOWN_AGAIN);
		o->result = -EALREADY;
		return;
	}
	emit(o, OP_SHUTDOWN_FLAG);
}

/*
 * RFC 9260 §9.1: user ABORT. ABORT with a User-Initiated Abort cause
 * (§3.3.10.12) carrying the user's reason, then CLOSED.
 */
static void
uf_abort(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
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
static void
uf_abort_cookie_wait(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit_close(o, SCTP_NOTIFY_CANT_START, SCTP_ASSOC_REASON_USER_ABORT);
}

/* ---- 3. Tables -------------------------------------------------------- */

#define S(x) [SCTP_ASSOC_##x]
#define DO(f, rule)                                                                                \
	{                                                                                          \
		.fn = f, .name = #f, .drop = SCTP_ASSOC_DROP_NONE, .vtag = SCTP_ASSOC_VTAG_##rule  \
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
static const struct assoc_cell assoc_chunk_table[SCTP_ASSOC_ROW_COUNT][SCTP_ASSOC_STATE_COUNT] = {
	[SCTP_ASSOC_ROW_DATA] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DISCARD(DATA_PATH, OURS),
		S(ESTABLISHED) = DISCARD(DATA_PATH, OURS),
		S(SHUTDOWN_PENDING) = DISCARD(DATA_PATH, OURS),
		S(SHUTDOWN_SENT) = DISCARD(DATA_PATH, OURS),
		S(SHUTDOWN_RECEIVED) = DISCARD(DATA_AFTER_SHUTDOWN, OURS),
		S(SHUTDOWN_ACK_SENT) = DISCARD(DATA_AFTER_SHUTDOWN, OURS),
	},
	[SCTP_ASSOC_ROW_INIT] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(COLLISION, ZERO),
		S(COOKIE_ECHOED) = DISCARD(COLLISION, ZERO),
		S(ESTABLISHED) = DISCARD(COLLISION, ZERO),
		S(SHUTDOWN_PENDING) = DISCARD(COLLISION, ZERO),
		S(SHUTDOWN_SENT) = DISCARD(COLLISION, ZERO),
		S(SHUTDOWN_RECEIVED) = DISCARD(COLLISION, ZERO),
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
		S(COOKIE_WAIT) = DISCARD(COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DISCARD(DATA_PATH, OURS),
		S(ESTABLISHED) = DISCARD(DATA_PATH, OURS),
		S(SHUTDOWN_PENDING) = DISCARD(DATA_PATH, OURS),
		S(SHUTDOWN_SENT) = DISCARD(DATA_PATH, OURS),
		S(SHUTDOWN_RECEIVED) = DISCARD(DATA_PATH, OURS),
		S(SHUTDOWN_ACK_SENT) = DISCARD(SACK_AFTER_SHUTDOWN_ACK, OURS),
	},
	[SCTP_ASSOC_ROW_HEARTBEAT] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DO(sf_heartbeat, OURS),
		S(ESTABLISHED) = DO(sf_heartbeat, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_heartbeat, OURS),
		S(SHUTDOWN_SENT) = DO(sf_heartbeat, OURS),
		S(SHUTDOWN_RECEIVED) = DO(sf_heartbeat, OURS),
		S(SHUTDOWN_ACK_SENT) = DO(sf_heartbeat, OURS),
	},
	[SCTP_ASSOC_ROW_HEARTBEAT_ACK] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DISCARD(PATH_MGMT, OURS),
		S(ESTABLISHED) = DISCARD(PATH_MGMT, OURS),
		S(SHUTDOWN_PENDING) = DISCARD(PATH_MGMT, OURS),
		S(SHUTDOWN_SENT) = DISCARD(PATH_MGMT, OURS),
		S(SHUTDOWN_RECEIVED) = DISCARD(PATH_MGMT, OURS),
		S(SHUTDOWN_ACK_SENT) = DISCARD(PATH_MGMT, OURS),
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
		S(COOKIE_WAIT) = DISCARD(COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DISCARD(SHUTDOWN_EARLY, OURS),
		S(ESTABLISHED) = DO(sf_shutdown, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_shutdown, OURS),
		S(SHUTDOWN_SENT) = DO(sf_shutdown_in_shutdown_sent, OURS),
		S(SHUTDOWN_RECEIVED) = DO(sf_shutdown, OURS),
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
		S(COOKIE_WAIT) = DISCARD(COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DO(sf_error_cookie_echoed, OURS),
		S(ESTABLISHED) = DO(sf_error, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_error, OURS),
		S(SHUTDOWN_SENT) = DO(sf_error, OURS),
		S(SHUTDOWN_RECEIVED) = DO(sf_error, OURS),
		S(SHUTDOWN_ACK_SENT) = DO(sf_error, OURS),
	},
	[SCTP_ASSOC_ROW_COOKIE_ECHO] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(COLLISION, ANY),
		S(COOKIE_ECHOED) = DISCARD(COLLISION, ANY),
		S(ESTABLISHED) = DISCARD(COLLISION, ANY),
		S(SHUTDOWN_PENDING) = DISCARD(COLLISION, ANY),
		S(SHUTDOWN_SENT) = DISCARD(COLLISION, ANY),
		S(SHUTDOWN_RECEIVED) = DISCARD(COLLISION, ANY),
		S(SHUTDOWN_ACK_SENT) = DISCARD(COLLISION, ANY),
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
	[SCTP_ASSOC_ROW_EXTENSION] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DISCARD(EXTENSION, OURS),
		S(ESTABLISHED) = DISCARD(EXTENSION, OURS),
		S(SHUTDOWN_PENDING) = DISCARD(EXTENSION, OURS),
		S(SHUTDOWN_SENT) = DISCARD(EXTENSION, OURS),
		S(SHUTDOWN_RECEIVED) = DISCARD(EXTENSION, OURS),
		S(SHUTDOWN_ACK_SENT) = DISCARD(EXTENSION, OURS),
	},
	[SCTP_ASSOC_ROW_UNKNOWN] = {
		S(CLOSED) = CLOSED_CELL,
		S(COOKIE_WAIT) = DISCARD(COOKIE_WAIT, OURS),
		S(COOKIE_ECHOED) = DO(sf_unknown, OURS),
		S(ESTABLISHED) = DO(sf_unknown, OURS),
		S(SHUTDOWN_PENDING) = DO(sf_unknown, OURS),
		S(SHUTDOWN_SENT) = DO(sf_unknown, OURS),
		S(SHUTDOWN_RECEIVED) = DO(sf_unknown, OURS),
		S(SHUTDOWN_ACK_SENT) = DO(sf_unknown, OURS),
	},
};

/* Timer x state. Transitions stop the timers a state does not run. */
static const struct assoc_cell assoc_timer_table[SCTP_ASSOC_TIMER_COUNT][SCTP_ASSOC_STATE_COUNT] = {
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
};

/* User call x state. */
static const struct assoc_cell assoc_user_table[SCTP_ASSOC_USER_COUNT][SCTP_ASSOC_STATE_COUNT] = {
	[SCTP_ASSOC_USER_SHUTDOWN] = {
		S(CLOSED) = REFUSE(USER_NOT_CONNECTED, -ENOTCONN),
		S(COOKIE_WAIT) = DO(uf_shutdown_cookie_wait, ANY),
		S(COOKIE_ECHOED) = DO(uf_shutdown_cookie_echoed, ANY),
		S(ESTABLISHED) = DO(uf_shutdown, ANY),
		S(SHUTDOWN_PENDING) = REFUSE(USER_SHUTDOWN_AGAIN, -EALREADY),
		S(SHUTDOWN_SENT) = REFUSE(USER_SHUTDOWN_AGAIN, -EALREADY),
		S(SHUTDOWN_RECEIVED) = REFUSE(USER_SHUTDOWN_AGAIN, -EALREADY),
		S(SHUTDOWN_ACK_SENT) = REFUSE(USER_SHUTDOWN_AGAIN, -EALREADY),
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
};

#undef S
#undef DO
#undef DISCARD
#undef CLOSED_CELL
#undef REFUSE

/* ---- 4. The interpreter ----------------------------------------------- */

/* What the interpreter knows about the input being handled. */
struct assoc_run {
	const struct sctp_rx *rx; /* NULL for timers and user calls */
	uint64_t now_ns;
	bool stop; /* no further chunk of this packet */
};

/*
 * Where a packet of ours goes. One path for now, the peer's primary
 * address; with sctp/path.h this becomes the data path (new chunks) or the
 * retransmission path, chosen here and nowhere else.
 */
static const struct sctp_addr *
assoc_path_dst(const struct sctp_assoc *a)
{
	return &a->peer_addr;
}

static void
assoc_count_drop(struct sctp_assoc *a, enum sctp_assoc_drop d)
{
	a->counters->drops[d]++;
}

/* RFC 9260 §6.3: T1 and T2 run for the RTO; T5 for 5 x RTO.Max (§9.2). */
static uint64_t
assoc_timer_duration(const struct sctp_assoc *a, enum sctp_assoc_timer t)
{
	if (t == SCTP_ASSOC_T5_GUARD)
		return 5u * assoc_profile(a)->rto_max_ns;
	return a->rto.rto_ns;
}

/* Our INIT's optional parameters: addresses, preservative, extensions. */
static void
assoc_tx_init_params(const struct sctp_assoc *a, struct sctp_writer *w)
{
	const struct sctp_endpoint_config *cfg = &a->ep->cfg;

	/* One address is the packet's own source: listing it adds nothing. */
	for (uint8_t i = 0; cfg->n_addrs > 1 && i < cfg->n_addrs; i++) {
		struct sctp_param_addr pa = {
			.type = cfg->addrs[i].family == SCTP_ADDR_V4 ? SCTP_PARAM_IPV4_ADDR
								     : SCTP_PARAM_IPV6_ADDR,
		};
		memcpy(pa.addr, cfg->addrs[i].bytes, sizeof(pa.addr));
		sctp_param_addr_build(w, &pa);
	}
	if (a->hs.preservative_ms != 0) {
		struct sctp_param_cookie_preservative cp = { a->hs.preservative_ms };
		sctp_param_cookie_preservative_build(w, &cp);
	}
	if (cfg->extensions & SCTP_COOKIE_EXT_ECN)
		sctp_param_ecn_capable_build(w);
	if (cfg->extensions & SCTP_COOKIE_EXT_FORWARD_TSN)
		sctp_param_forward_tsn_supported_build(w);
	if (cfg->extensions & SCTP_COOKIE_EXT_ZERO_CHECKSUM) {
		struct sctp_param_zero_checksum z = { cfg->zero_checksum_edmid };
		sctp_param_zero_checksum_build(w, &z);
	}
}

/* RFC 9260 §3.3.2, §5.1 A: our INIT. */
static void
assoc_tx_init(const struct sctp_assoc *a, struct sctp_writer *w)
{
	const struct sctp_profile *prof = assoc_profile(a);
	struct sctp_init init = {
		.type = SCTP_CHUNK_INIT,
		.init_tag = a->local_vtag,
		.a_rwnd = a->ep->cfg.a_rwnd,
		.os = prof->out_streams,
		.mis = prof->max_in_streams,
		.initial_tsn = a->local_initial_tsn,
	};
	size_t off = sctp_init_build_begin(w, &init);
	assoc_tx_init_params(a, w);
	sctp_init_build_end(w, off);
}

/* RFC 9260 §5.1 C: COOKIE ECHO first, then the ERROR of §3.2.2 if any. */
static void
assoc_tx_cookie_echo(const struct sctp_assoc *a, struct sctp_writer *w)
{
	struct sctp_cookie ce = {
		.type = SCTP_CHUNK_COOKIE_ECHO,
		.cookie = a->hs.cookie,
		.cookie_len = a->hs.cookie_len,
	};
	sctp_cookie_build(w, &ce);
	if (a->hs.report_len == 0)
		return;
	struct sctp_error err = { 0 };
	size_t off = sctp_error_build_begin(w, &err);
	struct sctp_cause_unrecognized_params u = { a->hs.report, a->hs.report_len };
	sctp_cause_unrecognized_params_build(w, &u);
	sctp_error_build_end(w, off);
}

static void
assoc_tx_abort_cause(const struct assoc_send *s, struct sctp_writer *w)
{
	static const uint16_t state_cookie = SCTP_PARAM_STATE_COOKIE;

	switch (s->cause) {
	case SCTP_CAUSE_USER_INITIATED_ABORT: {
		struct sctp_cause_user_abort u = { s->view, s->view_len };
		sctp_cause_user_abort_build(w, &u);
		break;
	}
	case SCTP_CAUSE_INVALID_MANDATORY_PARAM:
		sctp_cause_invalid_mandatory_param_build(w);
		break;
	case SCTP_CAUSE_MISSING_MANDATORY_PARAM: {
		struct sctp_cause_missing_param m = { { NULL, &state_cookie, 1 } };
		sctp_cause_missing_param_build(w, &m);
		break;
	}
	case SCTP_CAUSE_UNRESOLVABLE_ADDR: {
		struct sctp_cause_unresolvable_addr u = { s->view, s->view_len };
		sctp_cause_unresolvable_addr_build(w, &u);
		break;
	}
	case SCTP_CAUSE_OUT_OF_RESOURCE:
		sctp_cause_out_of_resource_build(w);
		break;
	default:
		break;
	}
}

/* Unrecognized Chunk Type: the chunk, cut to what a report should carry. */
#define SCTP_ASSOC_REPORT_CHUNK_MAX 1024u

static void
assoc_tx_chunks(const struct sctp_assoc *a, const struct assoc_send *s, struct sctp_writer *w)
{
	uint8_t t_flag = s->reflect ? SCTP_FLAG_T : 0;

	switch (s->pkt) {
	case PKT_INIT:
		assoc_tx_init(a, w);
		break;
	case PKT_COOKIE_ECHO:
		assoc_tx_cookie_echo(a, w);
		break;
	case PKT_SHUTDOWN: {
		struct sctp_shutdown sd = { SCTP_CHUNK_SHUTDOWN, 0, assoc_cum_tsn_ack(a) };
		sctp_shutdown_build(w, &sd);
		break;
	}
	case PKT_SHUTDOWN_ACK:
	case PKT_SHUTDOWN_COMPLETE: {
		uint8_t type = s->pkt == PKT_SHUTDOWN_ACK ? SCTP_CHUNK_SHUTDOWN_ACK
							  : SCTP_CHUNK_SHUTDOWN_COMPLETE;
		struct sctp_shutdown sd = { type, t_flag, 0 };
		sctp_shutdown_build(w, &sd);
		break;
	}
	case PKT_ABORT: {
		struct sctp_abort ab = { .flags = t_flag };
		size_t off = sctp_abort_build_begin(w, &ab);
		assoc_tx_abort_cause(s, w);
		sctp_abort_build_end(w, off);
		break;
	}
	case PKT_HEARTBEAT_ACK: {
		struct sctp_heartbeat hb = { SCTP_CHUNK_HEARTBEAT_ACK, 0, s->view, s->view_len };
		sctp_heartbeat_build(w, &hb);
		break;
	}
	default: { /* PKT_ERROR_CHUNK */
		struct sctp_error err = { 0 };
		size_t off = sctp_error_build_begin(w, &err);
		struct sctp_cause_unrecognized_chunk u = {
			s->view, min_u16(s->view_len, SCTP_ASSOC_REPORT_CHUNK_MAX)
		};
		sctp_cause_unrecognized_chunk_build(w, &u);
		sctp_error_build_end(w, off);
		break;
	}
	}
}

/* §8.5 and §8.5.1: the tag a packet of ours carries. */
static uint32_t
assoc_tx_vtag(const struct sctp_assoc *a, const struct assoc_run *run, const struct assoc_send *s)
{
	if (s->pkt == PKT_INIT)
		return 0; /* §8.5.1 A */
	if (s->reflect)
		return run->rx->pkt.vtag; /* §8.5.1 B, C with the T bit */
	return s->vtag != 0 ? s->vtag : a->peer_vtag;
}

/* INIT and COOKIE ECHO remember when they left, for the RTT and §5.2.6. */
static void
assoc_note_handshake_tx(struct sctp_assoc *a, const struct assoc_run *run,
			const struct assoc_send *s)
{
	if (s->pkt != PKT_INIT && s->pkt != PKT_COOKIE_ECHO)
		return;
	if (s->rtx) {
		a->hs.retransmitted = true;
	} else {
		a->hs.sent_ns = run->now_ns;
		a->hs.retransmitted = false;
	}
}

static void
assoc_apply_send(struct sctp_assoc *a, const struct assoc_run *run, const struct assoc_send *s)
{
	_Alignas(8) uint8_t buf[SCTP_ASSOC_TX_MAX];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	const struct sctp_addr *src = &a->local_addr, *dst = assoc_path_dst(a);

	sctp_packet_build_header(&w, a->local_port, a->peer_port, assoc_tx_vtag(a, run, s));
	assoc_tx_chunks(a, s, &w);
	if (!sctp_writer_ok(&w)) {
		assoc_count_drop(a, SCTP_ASSOC_DROP_TX_TOO_BIG);
		return;
	}
	if ((s->reflect || s->to_source) && run->rx != NULL) {
		src = &run->rx->dst;
		dst = &run->rx->src;
	}
	assoc_note_handshake_tx(a, run, s);
	a->ops->send(a->ctx, buf, w.off, src, dst);
}

static void
assoc_apply_notify(struct sctp_assoc *a, const struct assoc_notify *an)
{
	struct sctp_notification n = {
		.assoc = a,
		.type = an->type,
		.reason = an->reason,
		.error = an->error,
		.outbound_streams = a->outbound_streams,
		.inbound_streams = a->inbound_streams,
		.extensions = a->extensions,
		.abort_causes = an->causes,
		.abort_causes_len = an->causes_len,
	};
	a->ops->notify(a->ctx, &n);
}

/* §3.2.2: keep the unrecognized parameters that fit, each whole, padded. */
static void
assoc_keep_reports(struct sctp_assoc *a, const struct assoc_peer *pr)
{
	uint16_t end = 0;

	for (uint16_t i = 0; i < pr->n_report; i++) {
		uint16_t at = (uint16_t)SCTP_PAD4(end), len = pr->report[i].length;
		if ((size_t)at + len > sizeof(a->hs.report))
			break;
		memset(a->hs.report + end, 0, at - end);
		memcpy(a->hs.report + at, sctp_param_tlv_bytes(&pr->report[i]), len);
		end = (uint16_t)(at + len);
	}
	a->hs.report_len = end;
}

static void
assoc_apply_peer_init(struct sctp_assoc *a, const struct assoc_peer *pr)
{
	a->peer_vtag = pr->vtag;
	a->peer_initial_tsn = pr->initial_tsn;
	a->peer_a_rwnd = pr->a_rwnd;
	a->outbound_streams = pr->outbound_streams;
	a->inbound_streams = pr->inbound_streams;
	a->extensions = pr->extensions;
	if (pr->os_clamped)
		a->counters->init_ack_os_clamped++;
	memcpy(a->hs.cookie, pr->cookie, pr->cookie_len);
	a->hs.cookie_len = pr->cookie_len;
	assoc_keep_reports(a, pr);
}

/* §5.2.6: back to COOKIE-WAIT; the next INIT asks for more cookie life. */
static void
assoc_apply_stale_restart(struct sctp_assoc *a, uint32_t preservative_ms)
{
	a->stale_restarts++;
	a->counters->stale_cookie_restarts++;
	a->hs.preservative_ms = preservative_ms;
	a->hs.cookie_len = 0;
	a->hs.report_len = 0;
	a->peer_vtag = 0; /* a T-bit ABORT with the old tag is no longer the peer's */
}

static void
assoc_apply_close(struct sctp_assoc *a, struct assoc_run *run)
{
	for (unsigned t = 0; t < SCTP_ASSOC_TIMER_COUNT; t++)
		a->timer_at[t] = SCTP_TIME_NEVER;
	a->state = SCTP_ASSOC_CLOSED;
	a->freeable = true;
	run->stop = true;
}

static void
assoc_apply_one(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_cmds *cmds,
		const struct assoc_cmd *c)
{
	switch ((enum assoc_op)c->op) {
	case OP_STATE:
		a->state = c->u.state;
		break;
	case OP_TIMER_START:
		a->timer_at[c->u.timer] =
			run->now_ns + assoc_timer_duration(a, (enum sctp_assoc_timer)c->u.timer);
		break;
	case OP_TIMER_STOP:
		a->timer_at[c->u.timer] = SCTP_TIME_NEVER;
		break;
	case OP_SEND:
		assoc_apply_send(a, run, &c->u.send);
		break;
	case OP_NOTIFY:
		assoc_apply_notify(a, &c->u.notify);
		break;
	case OP_DROP:
		assoc_count_drop(a, (enum sctp_assoc_drop)c->u.drop);
		break;
	case OP_STOP:
		run->stop = true;
		break;
	case OP_PEER_INIT:
		assoc_apply_peer_init(a, &cmds->peer);
		break;
	case OP_RTO_SAMPLE:
		sctp_rto_sample(&a->rto, assoc_profile(a), run->now_ns - a->hs.sent_ns);
		break;
	case OP_RTO_BACKOFF:
		sctp_rto_backoff(&a->rto, assoc_profile(a));
		break;
	case OP_INIT_RTX:
		a->init_rtx = (uint16_t)c->u.count;
		break;
	case OP_SHUTDOWN_RTX:
		a->shutdown_rtx = (uint16_t)c->u.count;
		break;
	case OP_STALE_RESTART:
		assoc_apply_stale_restart(a, c->u.count);
		break;
	case OP_SHUTDOWN_FLAG:
		a->shutdown_requested = true;
		break;
	case OP_CLOSE:
		assoc_apply_close(a, run);
		break;
	}
}

/* The one place that changes the association. */
static void
assoc_apply(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_cmds *cmds)
{
	if (cmds->overflow)
		assoc_count_drop(a, SCTP_ASSOC_DROP_CMD_OVERFLOW);
	for (uint8_t i = 0; i < cmds->n; i++)
		assoc_apply_one(a, run, cmds, &cmds->cmd[i]);
}

/* ---- 5. Dispatch and entry points ------------------------------------- */

static int
assoc_run_cell(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_in *in)
{
	struct assoc_cmds cmds;

	cmds.n = 0;
	cmds.overflow = false;
	cmds.result = 0;
	in->cell->fn(a, in, &cmds);
	assoc_apply(a, run, &cmds);
	return cmds.result;
}

/* RFC 9260 §8.5 and §8.5.1: does the packet's tag pass this cell's rule? */
static bool
assoc_vtag_ok(const struct sctp_assoc *a, const struct sctp_rx *rx, const struct sctp_chunk *c,
	      enum sctp_assoc_vtag_rule rule)
{
	uint32_t vtag = rx->pkt.vtag;

	switch (rule) {
	case SCTP_ASSOC_VTAG_OURS:
		return vtag == a->local_vtag;
	case SCTP_ASSOC_VTAG_ZERO:
		return vtag == 0;
	case SCTP_ASSOC_VTAG_T_BIT:
		if (c->flags & SCTP_FLAG_T)
			return a->peer_vtag != 0 && vtag == a->peer_vtag;
		return vtag == a->local_vtag;
	case SCTP_ASSOC_VTAG_ANY:
		return true;
	default:
		return false;
	}
}

/*
 * Walk the packet once. Each chunk goes to its cell; a tag that fails the
 * cell's rule discards the rest of the packet (§8.5: "silently discard").
 * The chunks before it stay handled: they passed their own rule.
 */
static void
assoc_walk(struct sctp_assoc *a, const struct sctp_rx *rx, uint64_t now_ns, bool skip_first)
{
	struct assoc_run run = { .rx = rx, .now_ns = now_ns, .stop = false };
	struct sctp_chunk_iter it;
	struct sctp_chunk c;

	sctp_chunk_iter_init(&it, &rx->pkt);
	if (skip_first && !sctp_chunk_iter_next(&it, &c))
		run.stop = true;
	while (!run.stop && sctp_chunk_iter_next(&it, &c)) {
		enum sctp_assoc_row row = sctp_assoc_row_of(c.type, a->extensions);
		const struct assoc_cell *cell = &assoc_chunk_table[row][a->state];
		if (!assoc_vtag_ok(a, rx, &c, (enum sctp_assoc_vtag_rule)cell->vtag)) {
			assoc_count_drop(a, SCTP_ASSOC_DROP_BAD_VTAG);
			return;
		}
		struct assoc_in in = { .rx = rx, .c = &c, .cell = cell, .now_ns = now_ns };
		assoc_run_cell(a, &run, &in);
	}
	if (it.err != SCTP_PERR_OK)
		assoc_count_drop(a, SCTP_ASSOC_DROP_MALFORMED_PACKET);
}

void
sctp_assoc_input(struct sctp_assoc *a, const struct sctp_rx *rx, uint64_t now_ns)
{
	assoc_walk(a, rx, now_ns, false);
}

void
sctp_assoc_input_after_cookie(struct sctp_assoc *a, const struct sctp_rx *rx, uint64_t now_ns)
{
	assoc_walk(a, rx, now_ns, true);
}

void
sctp_assoc_timeout(struct sctp_assoc *a, uint64_t now_ns)
{
	/* T5 first: when it is due, retransmitting under T2 is pointless. */
	static const uint8_t order[SCTP_ASSOC_TIMER_COUNT] = {
		SCTP_ASSOC_T5_GUARD,
		SCTP_ASSOC_T1_INIT,
		SCTP_ASSOC_T1_COOKIE,
		SCTP_ASSOC_T2_SHUTDOWN,
	};
	struct assoc_run run = { .rx = NULL, .now_ns = now_ns, .stop = false };

	for (unsigned i = 0; i < SCTP_ASSOC_TIMER_COUNT; i++) {
		uint8_t t = order[i];
		if (a->timer_at[t] > now_ns)
			continue;
		a->timer_at[t] = SCTP_TIME_NEVER;
		struct assoc_in in = { .cell = &assoc_timer_table[t][a->state], .now_ns = now_ns };
		assoc_run_cell(a, &run, &in);
	}
}

uint64_t
sctp_assoc_next_wakeup(const struct sctp_assoc *a)
{
	uint64_t next = SCTP_TIME_NEVER;

	for (unsigned t = 0; t < SCTP_ASSOC_TIMER_COUNT; t++)
		if (a->timer_at[t] < next)
			next = a->timer_at[t];
	return next;
}

static int
assoc_user_call(struct sctp_assoc *a, enum sctp_assoc_user_call u, uint64_t now_ns,
		const uint8_t *reason, uint16_t reason_len)
{
	struct assoc_run run = { .rx = NULL, .now_ns = now_ns, .stop = false };
	struct assoc_in in = {
		.cell = &assoc_user_table[u][a->state],
		.reason = reason,
		.reason_len = reason_len,
		.now_ns = now_ns,
	};
	return assoc_run_cell(a, &run, &in);
}

int
sctp_assoc_shutdown(struct sctp_assoc *a, uint64_t now_ns)
{
	return assoc_user_call(a, SCTP_ASSOC_USER_SHUTDOWN, now_ns, NULL, 0);
}

int
sctp_assoc_abort(struct sctp_assoc *a, uint64_t now_ns, const uint8_t *reason, uint16_t reason_len)
{
	return assoc_user_call(a, SCTP_ASSOC_USER_ABORT, now_ns, reason, reason_len);
}

/* Everything but what the caller gave sctp_assoc_init(). */
static void
assoc_reset(struct sctp_assoc *a, struct sctp_endpoint *ep)
{
	const struct sctp_assoc_ops *ops = a->ops;
	void *ctx = a->ctx;
	struct sctp_assoc_counters *counters = a->counters;

	sctp_assoc_init(a, ops, ctx, counters);
	a->ep = ep;
	sctp_rto_init(&a->rto, ep->cfg.profile);
}

void
sctp_assoc_init(struct sctp_assoc *a, const struct sctp_assoc_ops *ops, void *ctx,
		struct sctp_assoc_counters *counters)
{
	memset(a, 0, offsetof(struct sctp_assoc, hs));
	memset(&a->hs, 0, offsetof(struct sctp_assoc_handshake, cookie));
	a->state = SCTP_ASSOC_CLOSED;
	for (unsigned t = 0; t < SCTP_ASSOC_TIMER_COUNT; t++)
		a->timer_at[t] = SCTP_TIME_NEVER;
	a->ops = ops;
	a->ctx = ctx;
	a->counters = counters;
}

static bool
assoc_addr_ok(const struct sctp_addr *x)
{
	return x != NULL && sctp_addr_len(x) != 0;
}

int
sctp_assoc_connect(struct sctp_assoc *a, struct sctp_endpoint *ep, const struct sctp_addr *peer,
		   const struct sctp_addr *local, uint16_t local_port, uint16_t peer_port,
		   uint64_t now_ns)
{
	if (ep == NULL || !assoc_addr_ok(peer) || !assoc_addr_ok(local) || local_port == 0 ||
	    peer_port == 0)
		return -EINVAL;
	if (a->state != SCTP_ASSOC_CLOSED)
		return -EISCONN;
	assoc_reset(a, ep);
	a->peer_addr = *peer;
	a->local_addr = *local;
	a->local_port = local_port;
	a->peer_port = peer_port;
	a->local_vtag = ep->cfg.choose_tag(ep->cfg.ctx, NULL);
	if (a->local_vtag == 0) /* a strategy bug must not put 0 on the wire */
		a->local_vtag = 1;
	a->local_initial_tsn = ep->cfg.random32(ep->cfg.ctx);

	/* RFC 9260 §5.1 A: INIT, T1-init, COOKIE-WAIT. */
	struct assoc_run run = { .rx = NULL, .now_ns = now_ns, .stop = false };
	struct assoc_cmds cmds = { .n = 0 };
	emit_send(&cmds, PKT_INIT);
	emit_timer_start(&cmds, SCTP_ASSOC_T1_INIT);
	emit_state(&cmds, SCTP_ASSOC_COOKIE_WAIT);
	assoc_apply(a, &run, &cmds);
	return 0;
}

int
sctp_assoc_from_cookie(struct sctp_assoc *a, struct sctp_endpoint *ep,
		       const struct sctp_cookie_state *st, uint64_t now_ns)
{
	if (ep == NULL || st == NULL)
		return -EINVAL;
	if (a->state != SCTP_ASSOC_CLOSED)
		return -EISCONN;
	assoc_reset(a, ep);
	a->local_vtag = st->local_vtag;
	a->peer_vtag = st->peer_vtag;
	a->local_initial_tsn = st->local_initial_tsn;
	a->peer_initial_tsn = st->peer_initial_tsn;
	a->peer_a_rwnd = st->peer_a_rwnd;
	a->outbound_streams = st->outbound_streams;
	a->inbound_streams = st->inbound_streams;
	a->local_port = st->local_port;
	a->peer_port = st->peer_port;
	a->extensions = st->extensions;
	a->peer_addr = st->peer_src;
	a->local_addr = st->local_addr;

	/* RFC 9260 §5.1 D: the COOKIE ACK is sent; ESTABLISHED, COMMUNICATION UP. */
	struct assoc_run run = { .rx = NULL, .now_ns = now_ns, .stop = false };
	struct assoc_cmds cmds = { .n = 0 };
	emit_state(&cmds, SCTP_ASSOC_ESTABLISHED);
	emit(&cmds, OP_NOTIFY)->u.notify.type = SCTP_NOTIFY_COMM_UP;
	assoc_apply(a, &run, &cmds);
	return 0;
}

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
	if (needs != 0 && (ext & needs) == needs)
		return SCTP_ASSOC_ROW_EXTENSION;
	return SCTP_ASSOC_ROW_UNKNOWN;
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
	[SCTP_ASSOC_ROW_EXTENSION] = "negotiated extension",
	[SCTP_ASSOC_ROW_UNKNOWN] = "unrecognized",
};

static const char *const assoc_user_names[SCTP_ASSOC_USER_COUNT] = {
	[SCTP_ASSOC_USER_SHUTDOWN] = "SHUTDOWN",
	[SCTP_ASSOC_USER_ABORT] = "ABORT",
};

static const char *const assoc_drop_names[SCTP_ASSOC_DROP_COUNT] = {
	[SCTP_ASSOC_DROP_NONE] = "none",
#define SCTP_ASSOC_DROP(name, str, why) [SCTP_ASSOC_DROP_##name] = str,
#include "sctp/assoc_drop.def"
#undef SCTP_ASSOC_DROP
};

static const char *const assoc_drop_whys[SCTP_ASSOC_DROP_COUNT] = {
	[SCTP_ASSOC_DROP_NONE] = "not a discard",
#define SCTP_ASSOC_DROP(name, str, why) [SCTP_ASSOC_DROP_##name] = why,
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
	return (unsigned)d < SCTP_ASSOC_DROP_COUNT ? assoc_drop_names[d] : "unknown";
}

const char *
sctp_assoc_drop_describe(enum sctp_assoc_drop d)
{
	return (unsigned)d < SCTP_ASSOC_DROP_COUNT ? assoc_drop_whys[d] : "unknown";
}
