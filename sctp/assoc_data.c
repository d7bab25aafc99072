/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The association's receive path, RFC 9260 §6.2 (acknowledgement), §6.5
 * (streams), §6.7 (gaps), §6.9 (reassembly), §9.2 (DATA while shutting
 * down): a DATA chunk's TSN is checked against the TSN map
 * (sctp/tsn_map.h), its payload handed to reassembly (sctp/reasm.h), which
 * delivers whole messages in order per stream, and the TSN marked only if
 * reassembly took it. At the end of each packet one decision: a SACK now,
 * or the delayed-SACK timer.
 *
 * I-DATA (RFC 8260), once negotiated, takes the same path with the other
 * reassembly (sctp/ireasm.h: by stream, U bit, MID and FSN, since the
 * sender interleaves messages chunk by chunk) and I-FORWARD TSN in place
 * of FORWARD TSN. The association holds one or the other (a union in
 * struct sctp_assoc, the data block's streams sized for the one in use),
 * and every DATA of a peer that negotiated I-DATA, or I-DATA of one that
 * did not, is a protocol violation (RFC 8260 §2.2) answered with an ABORT.
 *
 * The handlers (sf_data, tf_sack) only name the input; the work is done
 * here, run by the interpreter (OP_DATA, the input's end), because the two
 * modules decide as they go and the per-chunk cost matters (150 cycles for
 * a 64-byte DATA packet through delivery and the SACK decision is the
 * goal). This file sends its SACKs itself (assoc_sack_send()) and emits
 * into the interpreter's follow-up queue whatever else it decides (an
 * ABORT, an ERROR, a SHUTDOWN): it calls no other assoc_*.c file, and the
 * send path calls it for the SACK it bundles. Nothing here allocates: the
 * association's storage comes once from ops->data_get() (the interpreter
 * asks, sctp_assoc_data_bytes() says how much), fragments from the lcore's
 * reassembly pool.
 *
 * SACK policy (profile fields, docs/PROFILES.md):
 *   - never more than one SACK per received packet: decided at its end;
 *   - at once when the packet leaves a gap (§6.7), fills the last gap our
 *     previous SACK reported (the sender learns at once that its recovery
 *     is over, as TCP's RFC 5681 §4.2 asks), carried a duplicate (§6.2:
 *     MUST for duplicates), carried the I bit (RFC 7053), or when
 *     sack_every packets with DATA have gone unacknowledged (the RFC's
 *     "every second packet", 4 in the data-center profile);
 *   - a SACK "at once" with a send side on leaves from the flush that ends
 *     the input: bundled ahead of the first DATA packet the same input
 *     releases when that goes where the DATA came from (§6.10, §6.4), else
 *     alone (assoc_tx_flush());
 *   - otherwise within sack_delay (200 ms RFC, 100 µs DC) by the T-SACK
 *     timer;
 *   - in SHUTDOWN-SENT a SHUTDOWN instead, T2 restarted (§9.2).
 */
#include <string.h>

#include "sctp/assoc_internal.h"
#include "sctp/chunk_forward_tsn.h"
#include "sctp/chunk_idata.h"

/* struct sctp_assoc.rx_sack_now */
#define ASSOC_RX_SACK_NOW     0x1u /* this packet asks for a SACK at once */
#define ASSOC_RX_GAP_REPORTED 0x2u /* our last SACK carried Gap Ack Blocks */

static const struct sctp_data_config *
assoc_data_cfg(const struct sctp_assoc *a)
{
	return a->ep->cfg.data;
}

/*
 * RFC 9260 §6.1: DATA (tag rule §8.5) in a state that takes it. The
 * receive path runs in the interpreter (assoc_rx_data()).
 */
void
assoc_sf_data(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	if (a->data_mem == NULL) {
		emit_drop(o, SCTP_ASSOC_DROP_DATA_PATH);
		return;
	}
	/* RFC 8260 §2.2: one kind of user data chunk per association, both ways. */
	if ((in->c->type == SCTP_CHUNK_I_DATA) != assoc_idata(a)) {
		emit_abort(a, o, SCTP_CAUSE_PROTOCOL_VIOLATION, SCTP_ASSOC_REASON_PROTOCOL, 0);
		return;
	}
	emit(o, OP_DATA)->u.chunk = in->c;
}

/*
 * RFC 3758 §3.6: FORWARD TSN where DATA is taken; the work is
 * assoc_rx_forward_tsn(). RFC 8260 §2.3.1: with I-DATA, I-FORWARD TSN
 * instead; the other kind names messages in a numbering reassembly does
 * not keep, so it is discarded and counted, as Linux does.
 */
void
assoc_sf_forward_tsn(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	if (a->data_mem == NULL) {
		emit_drop(o, SCTP_ASSOC_DROP_DATA_PATH);
		return;
	}
	if ((in->c->type == SCTP_CHUNK_I_FORWARD_TSN) != assoc_idata(a)) {
		emit_drop(o, SCTP_ASSOC_DROP_FWD_TSN_WRONG_KIND);
		return;
	}
	emit(o, OP_FWD_TSN)->u.chunk = in->c;
}

/* RFC 9260 §6.2: the delayed SACK is due. */
void
assoc_tf_sack(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit_send(o, PKT_SACK);
}

/*
 * The receive side's part of the data block: the inbound streams'
 * reassembly state, the TSN map's bitmap, its duplicate list, each
 * 8-aligned. The send side's part follows (assoc_tx_bytes()).
 */
static size_t
assoc_rx_streams_bytes(uint16_t inbound_streams, bool idata)
{
	size_t one = idata ? sizeof(struct sctp_ireasm_stream) : sizeof(struct sctp_reasm_stream);

	return assoc_align8((size_t)inbound_streams * one);
}

size_t
assoc_rx_bytes(const struct sctp_data_config *d, uint16_t inbound_streams, bool idata)
{
	return assoc_rx_streams_bytes(inbound_streams, idata) +
	       (size_t)d->tsn_map_words * sizeof(uint64_t) +
	       assoc_align8((size_t)d->max_dups * sizeof(uint32_t));
}

/* The largest block: I-DATA's streams are bigger, when the config can reassemble it. */
size_t
sctp_assoc_data_bytes(const struct sctp_data_config *d, uint16_t inbound_streams,
		      uint16_t outbound_streams)
{
	if (d == NULL)
		return 0;
	return assoc_rx_bytes(d, inbound_streams, d->ireasm_pool != NULL) +
	       assoc_tx_bytes(d, outbound_streams);
}

/*
 * The receive side over mem, the head of the data block (assoc_rx_bytes());
 * with I-DATA the caller made sure the config has its pool.
 */
void
assoc_rx_start(struct sctp_assoc *a, void *mem)
{
	const struct sctp_data_config *d = assoc_data_cfg(a);
	bool idata = assoc_idata(a);
	size_t streams = assoc_rx_streams_bytes(a->inbound_streams, idata);
	size_t bits = (size_t)d->tsn_map_words * sizeof(uint64_t);
	uint8_t *m = mem;

	if (idata) {
		a->rx_istreams = (struct sctp_ireasm_stream *)(void *)m;
		sctp_ireasm_streams_init(a->rx_istreams, a->inbound_streams);
		sctp_ireasm_init(&a->rx_ireasm);
	} else {
		a->rx_streams = (struct sctp_reasm_stream *)(void *)m;
		sctp_reasm_streams_init(a->rx_streams, a->inbound_streams);
		sctp_reasm_init(&a->rx_reasm);
	}
	sctp_tsn_map_init(&a->rx_tsn, a->peer_initial_tsn, (uint64_t *)(void *)(m + streams),
			  d->tsn_map_words, (uint32_t *)(void *)(m + streams + bits), d->max_dups);
	a->rx_pkts = 0;
	a->rx_sack_now = 0;
	a->rx_path = a->paths.current;
	a->rx_unconsumed = 0;
	a->rx_rwnd_sent = assoc_rwnd(a);
}

/*
 * RFC 6525 §5.2.5: the receive side moves to mem, the head of a new data
 * block, with new_in inbound streams (at least as many): the streams' state
 * copied, the added ones fresh, the TSN map's arrays copied.
 */
void
assoc_rx_move(struct sctp_assoc *a, void *mem, uint16_t new_in)
{
	const struct sctp_data_config *d = assoc_data_cfg(a);
	bool idata = assoc_idata(a);
	size_t streams = assoc_rx_streams_bytes(new_in, idata);
	size_t bits = (size_t)d->tsn_map_words * sizeof(uint64_t);
	uint8_t *m = mem;

	sctp_tsn_map_move(&a->rx_tsn, (uint64_t *)(void *)(m + streams),
			  (uint32_t *)(void *)(m + streams + bits));
	if (idata) {
		struct sctp_ireasm_stream *s = (struct sctp_ireasm_stream *)(void *)m;
		memcpy(s, a->rx_istreams, sizeof(*s) * a->inbound_streams);
		sctp_ireasm_streams_init(s + a->inbound_streams,
					 (uint32_t)(new_in - a->inbound_streams));
		a->rx_istreams = s;
	} else {
		struct sctp_reasm_stream *s = (struct sctp_reasm_stream *)(void *)m;
		memcpy(s, a->rx_streams, sizeof(*s) * a->inbound_streams);
		sctp_reasm_streams_init(s + a->inbound_streams,
					(uint32_t)(new_in - a->inbound_streams));
		a->rx_streams = s;
	}
}

/*
 * RFC 6525 §5.2.4 G3-G4, and its requester's side: the peer's next DATA
 * has TSN next_tsn. What reassembly holds is dropped (as a FORWARD TSN to
 * next_tsn - 1 over every stream would), every inbound stream starts at SSN
 * (MID) 0, the TSN map starts over.
 */
void
assoc_rx_reset(struct sctp_assoc *a, uint32_t next_tsn)
{
	const struct sctp_data_config *d = assoc_data_cfg(a);

	assoc_rx_stop(a);
	if (assoc_idata(a)) {
		sctp_ireasm_streams_init(a->rx_istreams, a->inbound_streams);
		sctp_ireasm_init(&a->rx_ireasm);
	} else {
		sctp_reasm_streams_init(a->rx_streams, a->inbound_streams);
		sctp_reasm_init(&a->rx_reasm);
	}
	sctp_tsn_map_init(&a->rx_tsn, next_tsn, a->rx_tsn.bits, d->tsn_map_words, a->rx_tsn.dups,
			  d->max_dups);
	a->rx_sack_now = 0;
	a->rx_pkts = 0;
}

static void assoc_deliver(void *arg, const struct sctp_reasm_msg *m);
static void assoc_ideliver(void *arg, const struct sctp_ireasm_msg *m);

static struct sctp_reasm_env
assoc_reasm_env(struct sctp_assoc *a)
{
	const struct sctp_data_config *d = assoc_data_cfg(a);
	struct sctp_reasm_env env = {
		.pool = d->reasm_pool,
		.streams = a->rx_streams,
		.n_streams = a->inbound_streams,
		.lim = d->reasm,
		.buf = &d->buf,
		.deliver = assoc_deliver,
		.arg = a,
		.pr_cut = (a->extensions & SCTP_COOKIE_EXT_FORWARD_TSN) != 0,
	};
	return env;
}

static struct sctp_ireasm_env
assoc_ireasm_env(struct sctp_assoc *a)
{
	const struct sctp_data_config *d = assoc_data_cfg(a);
	struct sctp_ireasm_env env = {
		.pool = d->ireasm_pool,
		.streams = a->rx_istreams,
		.n_streams = a->inbound_streams,
		.lim = d->reasm,
		.buf = &d->buf,
		.deliver = assoc_ideliver,
		.arg = a,
	};
	return env;
}

static void
assoc_deliver(void *arg, const struct sctp_reasm_msg *m)
{
	struct sctp_assoc *a = arg;

	if (assoc_data_cfg(a)->rwnd_counts_delivered)
		a->rx_unconsumed += m->len;
	a->ops->deliver(a->ctx, m);
}

/*
 * An I-DATA delivery goes up in the form of a DATA one (struct
 * sctp_reasm_msg with the MID and ireasm's nodes behind the chain), so
 * that receivers have one callback and one iterator for both.
 */
static void
assoc_ideliver(void *arg, const struct sctp_ireasm_msg *im)
{
	struct sctp_reasm_msg m;

	memset(&m, 0, sizeof(m));
	m.sid = im->sid;
	m.ssn = (uint16_t)im->mid;
	m.mid = im->mid;
	m.ppid = im->ppid;
	m.len = im->len;
	m.nfrags = im->nfrags;
	m.flags = im->flags;
	m.has_first = im->has_first;
	m.first = im->first;
	m.inodes = im->nodes;
	m.chain = im->chain;
	m.n_chain = im->n_chain;
	assoc_deliver(arg, &m);
}

/* Close or restart: whatever reassembly holds is dropped, its references released. */
void
assoc_rx_stop(struct sctp_assoc *a)
{
	if (assoc_idata(a)) {
		struct sctp_ireasm_env env = assoc_ireasm_env(a);
		sctp_ireasm_abandon(&a->rx_ireasm, &env);
		return;
	}
	struct sctp_reasm_env env = assoc_reasm_env(a);

	sctp_reasm_abandon(&a->rx_reasm, &env);
}

/* Payload bytes reassembly holds. */
static uint32_t
assoc_rx_held(const struct sctp_assoc *a)
{
	if (a->data_mem == NULL)
		return 0;
	return assoc_idata(a) ? sctp_ireasm_queued_bytes(&a->rx_ireasm)
			      : sctp_reasm_queued_bytes(&a->rx_reasm);
}

/*
 * §6.2: what we can still take, after what reassembly holds and, when the
 * application accounts for it, what it has not consumed yet.
 */
uint32_t
assoc_rwnd(const struct sctp_assoc *a)
{
	uint32_t buf = a->ep->cfg.a_rwnd;
	uint64_t held = assoc_rx_held(a);

	if (assoc_data_cfg(a)->rwnd_counts_delivered)
		held += a->rx_unconsumed;
	return held < buf ? buf - (uint32_t)held : 0;
}

/* The user's CONSUMED: a window update may be due (assoc_rx_consumed()). */
void
assoc_uf_consumed(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	emit_count(o, OP_CONSUMED, in->bytes);
}

/*
 * The application gave back `bytes`. A SACK goes out at once only if the
 * window we last advertised was below half the buffer (the sender may be
 * held back by it) and it grew by at least min(MTU, half the buffer) since:
 * small openings wait for the next SACK, so a reader that consumes a few
 * bytes at a time does not make a SACK each time (silly window
 * avoidance), a sender stopped by a closed window learns as soon as a
 * packet's worth is free, and a reader that keeps up adds no SACK to the
 * delayed-SACK policy's (it would be one per packet). None once the peer has sent its SHUTDOWN
 * (§9.2: it does so only with all its DATA acknowledged, and sends no
 * more): the update would tell nobody anything, and in SHUTDOWN-ACK-SENT
 * it races the peer's SHUTDOWN COMPLETE, after which the peer's endpoint
 * answers it as out of the blue with an ABORT (§8.4).
 */
void
assoc_rx_consumed(struct sctp_assoc *a, struct assoc_run *run, uint32_t bytes)
{
	if (a->data_mem == NULL)
		return;
	a->rx_unconsumed -= bytes < a->rx_unconsumed ? bytes : a->rx_unconsumed;
	if (a->state == SCTP_ASSOC_SHUTDOWN_RECEIVED || a->state == SCTP_ASSOC_SHUTDOWN_ACK_SENT)
		return;
	uint32_t now_rwnd = assoc_rwnd(a), buf = a->ep->cfg.a_rwnd;
	uint32_t mtu = a->tx != NULL ? a->tx->mtu : SCTP_ASSOC_TX_MAX;
	uint32_t step = mtu < buf / 2 ? mtu : buf / 2;
	if (a->rx_rwnd_sent >= buf / 2 || now_rwnd <= a->rx_rwnd_sent ||
	    now_rwnd - a->rx_rwnd_sent < step)
		return;
	assoc_sack_send(a, run, false);
	a->counters->window_updates++;
}

/* §3.3.10.1: ERROR, Invalid Stream Identifier, to where the DATA came from. */
static void
assoc_emit_invalid_stream(struct assoc_cmds *q, uint16_t sid)
{
	struct assoc_send *s = emit_send(q, PKT_ERROR_STREAM);

	s->value = sid;
	s->to_source = true;
}

/* A DATA or I-DATA chunk the parser refused (e is not SCTP_PERR_OK). */
static void
assoc_rx_malformed(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_chunk *c,
		   struct assoc_cmds *q, enum sctp_parse_err e)
{
	if (e == SCTP_PERR_DATA_NO_USER_DATA) {
		/* §3.3.1, §6.2: ABORT with No User Data, naming the TSN. */
		emit_abort(a, q, SCTP_CAUSE_NO_USER_DATA, SCTP_ASSOC_REASON_PROTOCOL,
			   sctp_load_be32(c->value));
		return;
	}
	assoc_count_drop(a, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
	run->stop = true;
}

/*
 * What DATA and I-DATA share before reassembly, once parsed: RFC 7053's I
 * bit, the TSN map's verdict (duplicate, out of window) and §6.2's zero
 * window. false: the chunk goes no further. Forced in line: as a call, it
 * cost the DATA path 20 instructions a chunk (callgrind, bench_assoc_rx).
 */
static inline __attribute__((always_inline)) bool
assoc_rx_admit(struct sctp_assoc *a, struct assoc_run *run, uint32_t tsn, uint8_t flags)
{
	run->had_data = true;
	if (flags & SCTP_DATA_FLAG_I)
		a->rx_sack_now |= ASSOC_RX_SACK_NOW; /* RFC 7053: the sender asked for it */
	switch (sctp_tsn_map_check(&a->rx_tsn, tsn)) {
	case SCTP_TSN_MAP_DUPLICATE:
		(void)sctp_tsn_map_mark(&a->rx_tsn, tsn); /* listed in the next SACK */
		a->stats->data_dups++;
		a->rx_sack_now |= ASSOC_RX_SACK_NOW; /* §6.2: duplicates are reported at once */
		return false;
	case SCTP_TSN_MAP_OUT_OF_WINDOW:
		a->counters->data_out_of_window++;
		return false;
	default:
		break;
	}
	/*
	 * §6.2: at zero window, new DATA above the highest TSN received (the
	 * peer's §6.1 A probe) is dropped, and a SACK says so at once.
	 * Reassembly never refuses a chunk it can deliver at once, so when the
	 * window also counts what the application has not consumed, this is
	 * the only place the closed window holds.
	 */
	if (assoc_data_cfg(a)->rwnd_counts_delivered && assoc_rwnd(a) == 0 &&
	    sctp_tsn_gt(tsn, sctp_tsn_map_highest(&a->rx_tsn))) {
		a->counters->data_no_room++;
		a->rx_sack_now |= ASSOC_RX_SACK_NOW;
		return false;
	}
	return true;
}

/*
 * Reassembly's verdict, for either kind (ireasm's verdicts are mapped to
 * DATA's, which mean the same): true when the TSN counts as received.
 */
static inline bool
assoc_rx_verdict(struct sctp_assoc *a, struct assoc_cmds *q, enum sctp_reasm_verdict v,
		 uint16_t sid, uint32_t tsn)
{
	switch (v) {
	case SCTP_REASM_NO_ROOM:
		a->counters->data_no_room++;
		a->rx_sack_now |= ASSOC_RX_SACK_NOW; /* tell the peer our window now */
		return false;
	case SCTP_REASM_BAD_FRAGMENT:
	case SCTP_REASM_BAD_LEN:
		emit_abort(a, q, SCTP_CAUSE_PROTOCOL_VIOLATION, SCTP_ASSOC_REASON_PROTOCOL, 0);
		return false;
	case SCTP_REASM_BAD_STREAM:
		a->counters->data_bad_stream++;
		assoc_emit_invalid_stream(q, sid);
		break;
	case SCTP_REASM_DUPLICATE:
		a->stats->data_dups++;
		return false;
	default:
		a->stats->data_chunks++;
		break;
	}
	(void)sctp_tsn_map_mark(&a->rx_tsn, tsn);
	return true;
}

static enum sctp_reasm_verdict
assoc_ireasm_verdict(enum sctp_ireasm_verdict v)
{
	switch (v) {
	case SCTP_IREASM_DELIVERED:
		return SCTP_REASM_DELIVERED;
	case SCTP_IREASM_QUEUED:
		return SCTP_REASM_QUEUED;
	case SCTP_IREASM_STALE:
		return SCTP_REASM_STALE;
	case SCTP_IREASM_NO_ROOM:
		return SCTP_REASM_NO_ROOM;
	case SCTP_IREASM_BAD_STREAM:
		return SCTP_REASM_BAD_STREAM;
	case SCTP_IREASM_DUPLICATE:
		return SCTP_REASM_DUPLICATE;
	case SCTP_IREASM_BAD_LEN:
		return SCTP_REASM_BAD_LEN;
	case SCTP_IREASM_BAD_FRAGMENT:
	default:
		return SCTP_REASM_BAD_FRAGMENT;
	}
}

/* An I-DATA chunk (RFC 8260): ireasm makes its room inside each input. */
static void
assoc_rx_idata(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_chunk *c,
	       struct assoc_cmds *q)
{
	struct sctp_idata d;
	enum sctp_parse_err e = sctp_idata_parse(c, &d);

	if (e != SCTP_PERR_OK) {
		assoc_rx_malformed(a, run, c, q, e);
		return;
	}
	if (!assoc_rx_admit(a, run, d.tsn, d.flags))
		return;
	struct sctp_ireasm_env env = assoc_ireasm_env(a);
	struct sctp_ireasm_chunk ic = sctp_ireasm_chunk_of(&d, run->rx->handle);
	enum sctp_reasm_verdict v =
		assoc_ireasm_verdict(sctp_ireasm_input(&a->rx_ireasm, &env, &ic));
	(void)assoc_rx_verdict(a, q, v, d.sid, d.tsn);
}

/*
 * A DATA or I-DATA chunk; which one the association negotiated was
 * checked before (the other kind ends it). DATA's path is the one every
 * peer without I-DATA takes: it parses into its own struct and builds
 * reassembly's env once, for the input and the cumulative TSN's move.
 */
void
assoc_rx_data(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_chunk *c,
	      struct assoc_cmds *q)
{
	if (c->type == SCTP_CHUNK_I_DATA) {
		assoc_rx_idata(a, run, c, q);
		return;
	}
	struct sctp_data d;
	enum sctp_parse_err e = sctp_data_parse(c, &d);

	if (e != SCTP_PERR_OK) {
		assoc_rx_malformed(a, run, c, q, e);
		return;
	}
	if (!assoc_rx_admit(a, run, d.tsn, d.flags))
		return;
	struct sctp_reasm_env env = assoc_reasm_env(a);
	struct sctp_reasm_chunk rc = sctp_reasm_chunk_of(&d, run->rx->handle);
	uint32_t cum = sctp_tsn_map_cum(&a->rx_tsn);
	enum sctp_reasm_verdict v = sctp_reasm_input(&a->rx_reasm, &env, &rc, cum);
	if (assoc_rx_verdict(a, q, v, d.sid, d.tsn) && sctp_tsn_map_cum(&a->rx_tsn) != cum)
		sctp_reasm_cum_moved(&a->rx_reasm, &env, sctp_tsn_map_cum(&a->rx_tsn));
}

/*
 * RFC 3758 §3.6: the peer abandoned every TSN up to the New Cumulative TSN.
 * Our cum moves there (and on over what we hold right after it: the TSN
 * map), reassembly drops the fragments of messages that can no longer be
 * whole and hands up what was only waiting for them, and each ordered
 * stream the chunk lists skips past the SSN given, delivering what it then
 * holds in order. A stale one (at or behind our cum) leaves the cum alone
 * and asks for a SACK at once (our last SACK may have been lost), but its
 * stream entries still apply: when every abandoned TSN had arrived, the
 * cum passed them without the SSNs being skipped. Otherwise
 * the SACK rules are those of a packet with DATA (§3.6: "as if a DATA chunk
 * had been received"), which the packet's end applies.
 */
void
assoc_rx_forward_tsn(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_chunk *c)
{
	struct sctp_forward_tsn f;

	if (sctp_forward_tsn_parse(c, &f) != SCTP_PERR_OK) {
		assoc_count_drop(a, SCTP_ASSOC_DROP_MALFORMED_CHUNK);
		run->stop = true;
		return;
	}
	run->had_data = true;
	if (sctp_tsn_map_forward(&a->rx_tsn, f.new_cum_tsn)) {
		a->stats->fwd_tsn_in++;
	} else {
		/*
		 * Our cum is there already: every TSN the sender abandoned had
		 * arrived (reassembly dropped what was cut short), but only
		 * this chunk says which SSNs its ordered streams skip, so its
		 * entries still apply (each only ever moves a stream forward).
		 */
		a->counters->fwd_tsn_stale++;
		a->rx_sack_now |= ASSOC_RX_SACK_NOW;
	}
	uint32_t cum = sctp_tsn_map_cum(&a->rx_tsn);
	if (f.type == SCTP_CHUNK_I_FORWARD_TSN) {
		/* RFC 8260 §2.3.1: entries name (stream, U, MID). */
		struct sctp_ireasm_env ienv = assoc_ireasm_env(a);
		sctp_ireasm_forward_tsn(&a->rx_ireasm, &ienv, cum);
		for (uint16_t i = 0; i < f.n_entries; i++) {
			struct sctp_forward_tsn_ientry e = sctp_forward_tsn_ientry(&f, i);
			(void)sctp_ireasm_forward(&a->rx_ireasm, &ienv, e.sid,
						  (e.flags & SCTP_I_FORWARD_TSN_FLAG_U) != 0,
						  e.mid);
		}
		return;
	}
	struct sctp_reasm_env env = assoc_reasm_env(a);
	sctp_reasm_forward_tsn(&a->rx_reasm, &env, cum);
	for (uint16_t i = 0; i < f.n_entries; i++) {
		struct sctp_forward_tsn_entry e = sctp_forward_tsn_entry(&f, i);
		/* A stream we do not have: nothing of it is held here to skip. */
		(void)sctp_reasm_forward_ssn(&a->rx_reasm, &env, e.sid, e.ssn, cum);
	}
}

/*
 * RFC 6525 §5.2.2: the peer's outgoing stream sid, our inbound one, starts
 * at SSN (MID) 0 again; what reassembly still holds of it goes as
 * sctp_reasm_stream_reset() says.
 */
void
assoc_rx_stream_reset(struct sctp_assoc *a, uint16_t sid)
{
	if (a->data_mem == NULL)
		return;
	if (assoc_idata(a)) {
		struct sctp_ireasm_env ienv = assoc_ireasm_env(a);
		(void)sctp_ireasm_stream_reset(&a->rx_ireasm, &ienv, sid);
		return;
	}
	struct sctp_reasm_env env = assoc_reasm_env(a);
	(void)sctp_reasm_stream_reset(&a->rx_reasm, &env, sid, sctp_tsn_map_cum(&a->rx_tsn));
}

/* The one SACK (or SHUTDOWN) decision per packet with DATA. */
void
assoc_rx_packet_end(struct sctp_assoc *a, struct assoc_run *run, struct assoc_cmds *q)
{
	if (!run->had_data || run->halted || a->data_mem == NULL)
		return;
	const struct sctp_profile *p = assoc_profile(a);
	int i = sctp_paths_find(&a->paths, &run->rx->src);
	if (i >= 0)
		a->rx_path = (uint8_t)i;
	a->rx_pkts++;
	if (a->state == SCTP_ASSOC_SHUTDOWN_SENT) {
		/* §9.2: each packet with DATA is answered with a SHUTDOWN, T2 restarted. */
		emit_send(q, PKT_SHUTDOWN);
		emit_timer_start(q, SCTP_ASSOC_T2_SHUTDOWN);
		return;
	}
	bool gaps = sctp_tsn_map_has_gaps(&a->rx_tsn);
	bool gap_news = gaps || (a->rx_sack_now & ASSOC_RX_GAP_REPORTED);
	if ((a->rx_sack_now & ASSOC_RX_SACK_NOW) || a->rx_pkts >= p->sack_every ||
	    (gap_news && p->sack_immediate_on_gap_or_dup)) {
		if (a->tx != NULL && (a->state == SCTP_ASSOC_ESTABLISHED ||
				      a->state == SCTP_ASSOC_SHUTDOWN_PENDING)) {
			/* §6.10: ahead of the DATA the flush sends next, else alone. */
			run->sack_due = true;
			return;
		}
		assoc_sack_send(a, run, true);
		return;
	}
	if (a->timer_at[SCTP_ASSOC_T_SACK] == SCTP_TIME_NEVER)
		a->timer_at[SCTP_ASSOC_T_SACK] = run->now_ns + p->sack_delay_ns;
}

/* RFC 9260 §3.3.4: the SACK as the TSN map stands. */
void
assoc_tx_sack(const struct sctp_assoc *a, struct sctp_writer *w)
{
	const struct sctp_data_config *d = assoc_data_cfg(a);
	struct sctp_sack_gap gaps[64];
	const uint32_t *dups;
	unsigned max_gaps = d->max_gap_blocks < 64 ? d->max_gap_blocks : 64;
	unsigned n_gaps = sctp_tsn_map_gaps(&a->rx_tsn, gaps, max_gaps, NULL);
	unsigned n_dups = sctp_tsn_map_dups(&a->rx_tsn, &dups);

	sctp_sack_build_from(w, 0, sctp_tsn_map_cum(&a->rx_tsn), assoc_rwnd(a), gaps,
			     (uint16_t)n_gaps, dups, (uint16_t)n_dups);
}

/* A SACK left (or a SHUTDOWN, which carries the cumulative TSN): start afresh. */
void
assoc_sack_sent(struct sctp_assoc *a)
{
	if (a->data_mem == NULL)
		return;
	a->rx_pkts = 0;
	a->rx_rwnd_sent = assoc_rwnd(a);
	a->rx_sack_now = sctp_tsn_map_has_gaps(&a->rx_tsn) ? ASSOC_RX_GAP_REPORTED : 0;
	sctp_tsn_map_clear_dups(&a->rx_tsn);
	a->timer_at[SCTP_ASSOC_T_SACK] = SCTP_TIME_NEVER;
}

/*
 * §6.2, §6.4: a SACK alone, with our usual tag: to_source, to the source of
 * the packet in hand (from our address it went to); otherwise to the path
 * the last DATA came from, or the data path before any came.
 */
void
assoc_sack_send(struct sctp_assoc *a, const struct assoc_run *run, bool to_source)
{
	_Alignas(8) uint8_t buf[SCTP_ASSOC_TX_MAX];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	struct sctp_addr dst = sctp_path_addr(sctp_assoc_data_path(a));
	const struct sctp_addr *src, *to = &dst;

	if (a->data_mem == NULL)
		return; /* no TSN map to report */
	sctp_packet_build_header(&w, a->local_port, a->peer_port, a->peer_vtag);
	assoc_tx_sack(a, &w);
	if (!sctp_writer_ok(&w)) {
		assoc_count_drop(a, SCTP_ASSOC_DROP_TX_TOO_BIG);
		return;
	}
	if (to_source && run->rx != NULL) {
		src = &run->rx->dst;
		to = &run->rx->src;
	} else {
		if (a->rx_path < a->paths.n)
			dst = sctp_path_addr(sctp_paths_get_const(&a->paths, a->rx_path));
		src = assoc_src_for(a, &dst);
	}
	a->ops->send(a->ctx, buf, w.off, src, to);
	assoc_sack_sent(a);
	a->stats->sacks_sent++;
	if (run->rx == NULL)
		a->counters->sacks_delayed++;
}
