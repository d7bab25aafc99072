/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Stream reconfiguration, RFC 6525: the RE-CONFIG chunk both ways, when
 * both sides listed it in Supported Extensions (SCTP_COOKIE_EXT_RECONFIG).
 *
 * What is done here, both as the requester and as the peer:
 *  - resetting the numbering of streams: our outgoing ones (Outgoing SSN
 *    Reset Request, §5.1.2 / §5.2.2) and the peer's (Incoming SSN Reset
 *    Request, §5.1.3 / §5.2.3, which the peer answers with an Outgoing SSN
 *    Reset Request of its own naming ours in its Response Sequence Number);
 *  - adding streams (Add Outgoing Streams, §5.1.5 / §5.2.5, and Add Incoming
 *    Streams, §5.1.6 / §5.2.6, answered with the peer's own Add Outgoing
 *    Streams, as Linux does): the association's data block is taken anew
 *    at the larger size (ops->data_get()), its contents moved, the old one
 *    given back (reconf_regrow()); a side that cannot have it says "Denied";
 *  - resetting the association's SSNs and TSNs (SSN/TSN Reset, §5.1.4 /
 *    §5.2.4), only with nothing outstanding either way, as Linux asks.
 *
 * Requests of ours. One at a time (§5.1.1), with one or two parameters
 * (outgoing, incoming or both), numbered from our Initial TSN as §4.1 says;
 * each parameter waits for its answer, explicit (a Re-configuration
 * Response) or implicit (the peer's Outgoing SSN Reset Request naming our
 * Incoming one). The request is sent again with the same numbers when
 * SCTP_ASSOC_T_RECONF expires after the data path's RTO, which counts as an
 * error on the path like a T3-rtx expiry and backs the RTO off (§5.1.1);
 * not after the peer answered "In progress", which only makes us ask
 * again. Our outgoing streams being reset take no message (-EAGAIN) until
 * the answer, and are reset only if nothing of theirs is queued, as Linux
 * does, so the Sender's Last Assigned TSN covers everything they carried.
 *
 * Requests of the peer. Numbered from its Initial TSN; a number already
 * answered (the last two) gets the same answer again, any other unexpected
 * one "Error - Bad Sequence Number" (§5.2.1). An Outgoing SSN Reset Request
 * whose Sender's Last Assigned TSN our cumulative TSN has reached resets
 * the streams at once ("Success - Performed"); otherwise it waits
 * ("deferred reset processing", §5.2.2), answered "In progress" now and
 * "Success - Performed" in a RE-CONFIG of its own once the cumulative TSN
 * gets there (assoc_reconf_input_end()), as usrsctp does. An Incoming SSN
 * Reset Request makes our own Outgoing one when nothing is queued on the
 * streams, and is answered "In progress" (not consumed, so the peer asks
 * again with the same number, as Linux expects) while something is.
 *
 * Storage: struct sctp_assoc_reconf in struct sctp_assoc_tx; nothing is
 * allocated. A request lists at most SCTP_RECONF_MAX_STREAMS streams (or
 * all); a peer's deferred reset of more is answered "Denied".
 */
#include <errno.h>
#include <string.h>

#include "sctp/assoc_internal.h"
#include "sctp/chunk_reconfig.h"

/*
 * What one RE-CONFIG chunk received leads to: up to two Re-configuration
 * Responses and our request, in one RE-CONFIG chunk, and the notifications,
 * which go to the application only after the answers left: an application
 * that sends from its callback must not put its DATA ahead of the answer
 * the peer waits for before it uses the streams (found against usrsctp).
 */
struct reconf_note {
	uint8_t type;
	uint16_t flags;
	uint16_t n;
	uint32_t local_tsn, remote_tsn;
	uint16_t sids[SCTP_ASSOC_TX_MAX / 2];
};
struct reconf_out {
	uint8_t n_resp;
	struct sctp_param_reconfig_resp resp[2];
	bool request; /* our outstanding request's parameters */
	uint8_t n_note;
	struct reconf_note note[2];
};

static bool
reconf_success(uint32_t result)
{
	return result == SCTP_RECONFIG_SUCCESS_NOP || result == SCTP_RECONFIG_SUCCESS_PERFORMED;
}

void
assoc_reconf_start(struct sctp_assoc *a)
{
	struct sctp_assoc_reconf *r = &a->tx->reconf;

	memset(r, 0, sizeof(*r));
	/* §4.1: request numbers start at the sender's Initial TSN. */
	r->next_seq = a->local_initial_tsn;
	r->peer_seq = a->peer_initial_tsn;
	r->last_result[0] = r->last_result[1] = SCTP_RECONFIG_ERROR_BAD_SEQ;
}

/* Our request's parameters, as they went first (the same numbers each time). */
static void
reconf_build_request(const struct sctp_assoc_reconf *r, struct sctp_writer *w)
{
	struct sctp_param_u16_list list = { .host = r->streams, .count = r->n_streams };

	if (r->req & SCTP_RECONF_REQ_OUT) {
		struct sctp_param_out_reset_req p = {
			.req_seq = r->out_seq,
			.resp_seq = r->resp_seq,
			.last_tsn = r->last_tsn,
			.streams = list,
		};
		sctp_param_out_reset_req_build(w, &p);
	}
	if (r->req & SCTP_RECONF_REQ_IN) {
		struct sctp_param_in_reset_req p = { .req_seq = r->in_seq, .streams = list };
		sctp_param_in_reset_req_build(w, &p);
	}
	if (r->req & SCTP_RECONF_REQ_TSN) {
		struct sctp_param_tsn_reset_req p = { .req_seq = r->tsn_seq };
		sctp_param_tsn_reset_req_build(w, &p);
	}
	if (r->req & SCTP_RECONF_REQ_ADD_OUT) {
		struct sctp_param_add_streams_req p = {
			.type = SCTP_PARAM_ADD_OUT_STREAMS_REQ,
			.req_seq = r->add_out_seq,
			.n_streams = r->add_out,
		};
		sctp_param_add_streams_req_build(w, &p);
	}
	if (r->req & SCTP_RECONF_REQ_ADD_IN) {
		struct sctp_param_add_streams_req p = {
			.type = SCTP_PARAM_ADD_IN_STREAMS_REQ,
			.req_seq = r->add_in_seq,
			.n_streams = r->add_in,
		};
		sctp_param_add_streams_req_build(w, &p);
	}
}

/* One RE-CONFIG chunk alone, to the data path. */
static void
reconf_send(struct sctp_assoc *a, const struct reconf_out *o)
{
	_Alignas(8) uint8_t buf[SCTP_ASSOC_TX_MAX];
	struct sctp_writer w = sctp_writer_make(buf, sizeof(buf));
	struct sctp_reconfig rc;

	memset(&rc, 0, sizeof(rc));
	sctp_packet_build_header(&w, a->local_port, a->peer_port, a->peer_vtag);
	size_t off = sctp_reconfig_build_begin(&w, &rc);
	for (unsigned i = 0; i < o->n_resp; i++)
		sctp_param_reconfig_resp_build(&w, &o->resp[i]);
	if (o->request)
		reconf_build_request(&a->tx->reconf, &w);
	sctp_reconfig_build_end(&w, off);
	if (!sctp_writer_ok(&w)) {
		assoc_count_drop(a, SCTP_ASSOC_DROP_TX_TOO_BIG);
		return;
	}
	struct sctp_addr dst = sctp_path_addr(sctp_assoc_data_path(a));
	a->ops->send(a->ctx, buf, w.off, assoc_src_for(a, &dst), &dst);
}

static void
reconf_timer_start(struct sctp_assoc *a, uint64_t now_ns)
{
	a->timer_at[SCTP_ASSOC_T_RECONF] = now_ns + sctp_assoc_data_path(a)->rto.rto_ns;
}

/* Our request is answered in full: the next may go. */
static void
reconf_request_done(struct sctp_assoc *a)
{
	struct sctp_assoc_reconf *r = &a->tx->reconf;

	r->req = 0;
	r->waiting = 0;
	r->in_progress = false;
	a->timer_at[SCTP_ASSOC_T_RECONF] = SCTP_TIME_NEVER;
}

/* The most streams each way RE-CONFIG may grow to (struct sctp_profile). */
static uint32_t
reconf_max_out(const struct sctp_assoc *a)
{
	uint16_t m = assoc_profile(a)->max_out_streams;
	return m != 0 ? m : 0xffffu;
}

static uint32_t
reconf_max_in(const struct sctp_assoc *a)
{
	return assoc_profile(a)->max_in_streams;
}

/*
 * §5.2.5 and the requester's side of §5.1.5: new_in inbound and new_out
 * outbound streams (at least as many as now). A new data block of that
 * size, the receive and send sides moved into it, the old one back. -ENOMEM
 * when the data block cannot be had (nothing changed).
 */
static int
reconf_regrow(struct sctp_assoc *a, uint32_t new_in, uint32_t new_out)
{
	const struct sctp_data_config *d = a->ep->cfg.data;
	bool idata = assoc_idata(a);

	if (new_in > 0xffffu || new_out > 0xffffu)
		return -ENOMEM;
	size_t rx = assoc_rx_bytes(d, (uint16_t)new_in, idata);
	size_t tx = assoc_tx_bytes(d, (uint16_t)new_out);
	void *old = a->data_mem;
	uint8_t *mem = a->ops->data_get(a->ctx, rx + tx);
	if (mem == NULL)
		return -ENOMEM;
	assoc_rx_move(a, mem, (uint16_t)new_in);
	assoc_tx_move(a, mem + rx, (uint16_t)new_out);
	a->data_mem = mem;
	a->inbound_streams = (uint16_t)new_in;
	a->outbound_streams = (uint16_t)new_out;
	a->ops->data_put(a->ctx, old);
	return 0;
}

/*
 * One of the three notifications (RFC 6525 §6.1): STREAM_RESET with its
 * streams, ASSOC_RESET with the TSNs, STREAM_CHANGE with the counts as
 * they now stand. With o, held until o's answers left (struct reconf_out).
 */
static void
reconf_tell(struct sctp_assoc *a, struct reconf_out *o, uint8_t type, uint16_t flags,
	    const uint16_t *streams, uint16_t n, uint32_t local_tsn, uint32_t remote_tsn)
{
	if (o != NULL && o->n_note < 2) {
		struct reconf_note *nt = &o->note[o->n_note++];
		nt->type = type;
		nt->flags = flags;
		nt->n = n < SCTP_ASSOC_TX_MAX / 2 ? n : SCTP_ASSOC_TX_MAX / 2;
		if (nt->n != 0)
			memcpy(nt->sids, streams, sizeof(uint16_t) * nt->n);
		nt->local_tsn = local_tsn;
		nt->remote_tsn = remote_tsn;
		return;
	}
	struct sctp_notification note = {
		.assoc = a,
		.type = type,
		.outbound_streams = a->outbound_streams,
		.inbound_streams = a->inbound_streams,
		.extensions = a->extensions,
		.reset_flags = flags,
		.n_streams = n,
		.streams = streams,
		.local_tsn = local_tsn,
		.remote_tsn = remote_tsn,
	};
	a->ops->notify(a->ctx, &note);
}

static void
reconf_notify(struct sctp_assoc *a, struct reconf_out *o, uint16_t flags, const uint16_t *streams,
	      uint16_t n)
{
	reconf_tell(a, o, SCTP_NOTIFY_STREAM_RESET, flags, streams, n, 0, 0);
}

static void
reconf_notify_kind(struct sctp_assoc *a, struct reconf_out *o, uint8_t type, uint16_t flags,
		   uint32_t local_tsn, uint32_t remote_tsn)
{
	reconf_tell(a, o, type, flags, NULL, 0, local_tsn, remote_tsn);
}

/* The peer reset its outgoing streams: ours in start at SSN (or MID) 0 again. */
static void
reconf_reset_incoming(struct sctp_assoc *a, const struct sctp_param_u16_list *l)
{
	uint32_t n = l->count != 0 ? l->count : a->inbound_streams;

	for (uint32_t i = 0; i < n; i++)
		assoc_rx_stream_reset(a, l->count != 0 ? sctp_param_u16_list_at(l, (uint16_t)i)
						       : (uint16_t)i);
}

/* Every stream listed is one the association has (n 0: all of them). */
static bool
reconf_streams_valid(const struct sctp_param_u16_list *l, uint16_t have)
{
	for (uint16_t i = 0; i < l->count; i++)
		if (sctp_param_u16_list_at(l, i) >= have)
			return false;
	return true;
}

/* Something of ours is queued on the streams listed (n 0: on any). */
static bool
reconf_outq_busy(const struct sctp_assoc *a, const struct sctp_param_u16_list *l)
{
	const struct sctp_outq *q = &a->tx->outq;

	if (l->count == 0)
		return !sctp_outq_empty(q);
	for (uint16_t i = 0; i < l->count; i++)
		if (sctp_outq_stream_busy(q, sctp_param_u16_list_at(l, i)))
			return true;
	return false;
}

/* Our outgoing reset request, listing l, is on its way: its numbers and closed streams. */
static void
reconf_request_out(struct sctp_assoc *a, const struct sctp_param_u16_list *l, uint32_t resp_seq)
{
	struct sctp_assoc_reconf *r = &a->tx->reconf;

	r->req |= SCTP_RECONF_REQ_OUT;
	r->waiting |= SCTP_RECONF_REQ_OUT;
	r->out_seq = r->next_seq++;
	r->resp_seq = resp_seq;
	r->last_tsn = a->tx->next_tsn - 1u;
	r->n_streams = (uint8_t)l->count;
	for (uint16_t i = 0; i < l->count; i++)
		r->streams[i] = sctp_param_u16_list_at(l, i);
	a->stats->reconf_requests++;
}

/*
 * §5.2.1: where request number seq stands. 1: the next expected, to be
 * handled; 0: answered before (*result the same answer again) or out of
 * line (*result Bad Sequence Number).
 */
static int
reconf_seq(const struct sctp_assoc_reconf *r, uint32_t seq, uint32_t *result)
{
	if (seq == r->peer_seq)
		return 1;
	if (seq == r->peer_seq - 1u)
		*result = r->last_result[0];
	else if (seq == r->peer_seq - 2u)
		*result = r->last_result[1];
	else
		*result = SCTP_RECONFIG_ERROR_BAD_SEQ;
	return 0;
}

/* The request numbered peer_seq is answered with result. */
static void
reconf_consume(struct sctp_assoc *a, uint32_t result)
{
	struct sctp_assoc_reconf *r = &a->tx->reconf;

	r->last_result[1] = r->last_result[0];
	r->last_result[0] = (uint8_t)result;
	r->peer_seq++;
	a->stats->reconf_peer_requests++;
	if (!reconf_success(result) && result != SCTP_RECONFIG_IN_PROGRESS)
		a->stats->reconf_denied++;
}

static void
reconf_answer(struct reconf_out *o, uint32_t seq, uint32_t result)
{
	if (o->n_resp < 2) {
		o->resp[o->n_resp].resp_seq = seq;
		o->resp[o->n_resp].result = result;
		o->resp[o->n_resp].has_tsns = false;
		o->n_resp++;
	}
}

/* §5.2.2: the peer resets its outgoing streams once we have every TSN it sent before. */
static void
reconf_peer_out(struct sctp_assoc *a, const struct sctp_param_out_reset_req *p,
		struct reconf_out *o)
{
	struct sctp_assoc_reconf *r = &a->tx->reconf;
	uint32_t result;

	if (!reconf_seq(r, p->req_seq, &result)) {
		reconf_answer(o, p->req_seq, result);
		return;
	}
	/* §5.2.3: it may be the answer to our Incoming SSN Reset Request. */
	if ((r->waiting & SCTP_RECONF_REQ_IN) && p->resp_seq == r->in_seq) {
		r->waiting &= (uint8_t)~SCTP_RECONF_REQ_IN;
		if (r->waiting == 0)
			reconf_request_done(a);
	}
	uint32_t cum = sctp_tsn_map_cum(&a->rx_tsn);
	if (!reconf_streams_valid(&p->streams, a->inbound_streams)) {
		result = SCTP_RECONFIG_DENIED;
	} else if (!sctp_tsn_gt(p->last_tsn, cum)) {
		/* Every stream a packet can list, in host order for the notification. */
		uint16_t sids[SCTP_ASSOC_TX_MAX / 2];
		uint16_t n = p->streams.count < SCTP_ASSOC_TX_MAX / 2 ? p->streams.count
								      : SCTP_ASSOC_TX_MAX / 2;
		for (uint16_t i = 0; i < n; i++)
			sids[i] = sctp_param_u16_list_at(&p->streams, i);
		reconf_reset_incoming(a, &p->streams);
		reconf_notify(a, o, SCTP_RESET_INCOMING_SSN, sids, n);
		result = SCTP_RECONFIG_SUCCESS_PERFORMED;
	} else if (r->deferred) {
		result = SCTP_RECONFIG_ERROR_IN_PROGRESS;
	} else if (p->streams.count > SCTP_RECONF_MAX_STREAMS) {
		result = SCTP_RECONFIG_DENIED; /* more than we keep for later */
	} else {
		r->deferred = a->reconf_deferred = true;
		r->def_seq = p->req_seq;
		r->def_tsn = p->last_tsn;
		r->def_n = (uint8_t)p->streams.count;
		for (uint16_t i = 0; i < p->streams.count; i++)
			r->def_streams[i] = sctp_param_u16_list_at(&p->streams, i);
		result = SCTP_RECONFIG_IN_PROGRESS;
	}
	reconf_consume(a, result);
	reconf_answer(o, p->req_seq, result);
}

/* §5.2.3: the peer asks us to reset our outgoing streams: our own request answers it. */
static void
reconf_peer_in(struct sctp_assoc *a, const struct sctp_param_in_reset_req *p, struct reconf_out *o,
	       uint64_t now_ns)
{
	struct sctp_assoc_reconf *r = &a->tx->reconf;
	uint32_t result;

	if (!reconf_seq(r, p->req_seq, &result)) {
		/* Performed: our Outgoing SSN Reset Request was the answer, and is resent on its
		 * own.
		 */
		if (result != SCTP_RECONFIG_SUCCESS_PERFORMED)
			reconf_answer(o, p->req_seq, result);
		return;
	}
	if (r->req != 0) {
		result = SCTP_RECONFIG_ERROR_IN_PROGRESS;
	} else if (!reconf_streams_valid(&p->streams, a->outbound_streams) ||
		   p->streams.count > SCTP_RECONF_MAX_STREAMS) {
		result = SCTP_RECONFIG_DENIED;
	} else if (reconf_outq_busy(a, &p->streams)) {
		/* Not consumed: the peer asks again with the same number once we sent it. */
		a->stats->reconf_peer_requests++;
		reconf_answer(o, p->req_seq, SCTP_RECONFIG_IN_PROGRESS);
		return;
	} else {
		reconf_request_out(a, &p->streams, p->req_seq);
		o->request = true;
		reconf_timer_start(a, now_ns);
		reconf_consume(a, SCTP_RECONFIG_SUCCESS_PERFORMED);
		return;
	}
	reconf_consume(a, result);
	reconf_answer(o, p->req_seq, result);
}

/* §5.2.5: the peer adds outgoing streams, our inbound ones. */
static void
reconf_peer_add_out(struct sctp_assoc *a, const struct sctp_param_add_streams_req *p,
		    struct reconf_out *o)
{
	struct sctp_assoc_reconf *r = &a->tx->reconf;
	uint32_t result;

	if (!reconf_seq(r, p->req_seq, &result)) {
		reconf_answer(o, p->req_seq, result);
		return;
	}
	/* §5.2.6: the answer to our Add Incoming Streams Request, as Linux gives it. */
	if (r->waiting & SCTP_RECONF_REQ_ADD_IN) {
		r->waiting &= (uint8_t)~SCTP_RECONF_REQ_ADD_IN;
		if (r->waiting == 0)
			reconf_request_done(a);
	}
	uint32_t new_in = (uint32_t)a->inbound_streams + p->n_streams;
	if (p->n_streams == 0 || new_in > reconf_max_in(a) ||
	    reconf_regrow(a, new_in, a->outbound_streams) != 0) {
		result = SCTP_RECONFIG_DENIED;
	} else {
		result = SCTP_RECONFIG_SUCCESS_PERFORMED;
		reconf_notify_kind(a, o, SCTP_NOTIFY_STREAM_CHANGE, 0, 0, 0);
	}
	reconf_consume(a, result);
	reconf_answer(o, p->req_seq, result);
}

/* §5.2.6: the peer asks for more of our outgoing streams: our own Add Outgoing answers it. */
static void
reconf_peer_add_in(struct sctp_assoc *a, const struct sctp_param_add_streams_req *p,
		   struct reconf_out *o, uint64_t now_ns)
{
	struct sctp_assoc_reconf *r = &a->tx->reconf;
	uint32_t result;

	if (!reconf_seq(r, p->req_seq, &result)) {
		if (result != SCTP_RECONFIG_SUCCESS_PERFORMED)
			reconf_answer(o, p->req_seq, result);
		return;
	}
	if (r->req != 0) {
		result = SCTP_RECONFIG_ERROR_IN_PROGRESS;
	} else if (p->n_streams == 0 ||
		   (uint32_t)a->outbound_streams + p->n_streams > reconf_max_out(a)) {
		result = SCTP_RECONFIG_DENIED;
	} else {
		r->req = r->waiting = SCTP_RECONF_REQ_ADD_OUT;
		r->add_out = p->n_streams;
		r->add_out_seq = r->next_seq++;
		a->stats->reconf_requests++;
		o->request = true;
		reconf_timer_start(a, now_ns);
		reconf_consume(a, SCTP_RECONFIG_SUCCESS_PERFORMED);
		return;
	}
	reconf_consume(a, result);
	reconf_answer(o, p->req_seq, result);
}

/*
 * §5.2.4: both sides start over: every stream at 0, our next TSN stays
 * (G5: highest sent + 1), the peer's next one is our cumulative TSN + 1 +
 * 2^31 (G3), which the answer carries. Only with nothing of ours
 * outstanding; otherwise "In progress", not consumed (asked again later).
 */
static void
reconf_peer_tsn(struct sctp_assoc *a, const struct sctp_param_tsn_reset_req *p,
		struct reconf_out *o)
{
	struct sctp_assoc_reconf *r = &a->tx->reconf;
	uint32_t result;

	if (!reconf_seq(r, p->req_seq, &result)) {
		reconf_answer(o, p->req_seq, result);
		if (result == SCTP_RECONFIG_SUCCESS_PERFORMED && o->n_resp != 0) {
			/* The same TSNs as the first answer. */
			o->resp[o->n_resp - 1].has_tsns = true;
			o->resp[o->n_resp - 1].sender_next_tsn = r->tsn_local;
			o->resp[o->n_resp - 1].receiver_next_tsn = r->tsn_remote;
		}
		return;
	}
	if (r->req != 0) {
		result = SCTP_RECONFIG_ERROR_IN_PROGRESS;
	} else if (assoc_tx_outstanding(a)) {
		a->stats->reconf_peer_requests++;
		reconf_answer(o, p->req_seq, SCTP_RECONFIG_IN_PROGRESS);
		return;
	} else {
		uint32_t remote = sctp_tsn_map_cum(&a->rx_tsn) + 1u + 0x80000000u;
		uint32_t local = a->tx->next_tsn;
		assoc_rx_reset(a, remote);
		assoc_tx_reset(a, local);
		r->tsn_local = local;
		r->tsn_remote = remote;
		reconf_consume(a, SCTP_RECONFIG_SUCCESS_PERFORMED);
		reconf_answer(o, p->req_seq, SCTP_RECONFIG_SUCCESS_PERFORMED);
		o->resp[o->n_resp - 1].has_tsns = true;
		o->resp[o->n_resp - 1].sender_next_tsn = local;
		o->resp[o->n_resp - 1].receiver_next_tsn = remote;
		reconf_notify_kind(a, o, SCTP_NOTIFY_ASSOC_RESET, 0, local, remote);
		return;
	}
	reconf_consume(a, result);
	reconf_answer(o, p->req_seq, result);
}

/* §5.1.2, §5.1.3: the peer's answer to one parameter of our request. */
static void
reconf_response(struct sctp_assoc *a, const struct sctp_param_reconfig_resp *p,
		struct reconf_out *o, uint64_t now_ns)
{
	struct sctp_assoc_reconf *r = &a->tx->reconf;
	uint8_t which;
	uint16_t flags;

	if ((r->waiting & SCTP_RECONF_REQ_OUT) && p->resp_seq == r->out_seq) {
		which = SCTP_RECONF_REQ_OUT;
		flags = SCTP_RESET_OUTGOING_SSN;
	} else if ((r->waiting & SCTP_RECONF_REQ_IN) && p->resp_seq == r->in_seq) {
		which = SCTP_RECONF_REQ_IN;
		flags = SCTP_RESET_INCOMING_SSN;
	} else if ((r->waiting & SCTP_RECONF_REQ_TSN) && p->resp_seq == r->tsn_seq) {
		which = SCTP_RECONF_REQ_TSN;
		flags = 0;
	} else if ((r->waiting & SCTP_RECONF_REQ_ADD_OUT) && p->resp_seq == r->add_out_seq) {
		which = SCTP_RECONF_REQ_ADD_OUT;
		flags = 0;
	} else if ((r->waiting & SCTP_RECONF_REQ_ADD_IN) && p->resp_seq == r->add_in_seq) {
		which = SCTP_RECONF_REQ_ADD_IN;
		flags = 0;
	} else {
		return; /* an answer to nothing outstanding: a late duplicate */
	}
	if (p->result == SCTP_RECONFIG_IN_PROGRESS) {
		/* Asked again after an RTO, without counting an error. */
		r->in_progress = true;
		reconf_timer_start(a, now_ns);
		return;
	}
	uint16_t fail = p->result == SCTP_RECONFIG_DENIED ? SCTP_RESET_DENIED : SCTP_RESET_FAILED;
	if (which == SCTP_RECONF_REQ_TSN) {
		/* §5.1.4: the TSNs the answer gives, both ways; an answer without them failed. */
		if (reconf_success(p->result) && p->has_tsns) {
			assoc_rx_reset(a, p->sender_next_tsn);
			assoc_tx_reset(a, p->receiver_next_tsn);
			reconf_notify_kind(a, o, SCTP_NOTIFY_ASSOC_RESET, 0, p->receiver_next_tsn,
					   p->sender_next_tsn);
		} else {
			reconf_notify_kind(a, o, SCTP_NOTIFY_ASSOC_RESET,
					   reconf_success(p->result) ? SCTP_RESET_FAILED : fail, 0,
					   0);
		}
	} else if (which == SCTP_RECONF_REQ_ADD_OUT) {
		/* §5.1.5: the peer has room; ours may still be refused. */
		if (!reconf_success(p->result))
			reconf_notify_kind(a, o, SCTP_NOTIFY_STREAM_CHANGE, fail, 0, 0);
		else if (reconf_regrow(a, a->inbound_streams,
				       (uint32_t)a->outbound_streams + r->add_out) != 0)
			reconf_notify_kind(a, o, SCTP_NOTIFY_STREAM_CHANGE,
					   SCTP_STREAM_CHANGE_FAILED, 0, 0);
		else
			reconf_notify_kind(a, o, SCTP_NOTIFY_STREAM_CHANGE, 0, 0, 0);
	} else if (which == SCTP_RECONF_REQ_ADD_IN) {
		/* Success comes as the peer's own Add Outgoing Streams Request. */
		if (!reconf_success(p->result))
			reconf_notify_kind(a, o, SCTP_NOTIFY_STREAM_CHANGE, fail, 0, 0);
	} else if (reconf_success(p->result)) {
		if (which == SCTP_RECONF_REQ_OUT) {
			uint32_t n = r->n_streams != 0 ? r->n_streams : a->outbound_streams;
			for (uint32_t i = 0; i < n; i++)
				(void)sctp_outq_reset_stream(&a->tx->outq, r->n_streams != 0
										   ? r->streams[i]
										   : (uint16_t)i);
			reconf_notify(a, o, flags, r->streams, r->n_streams);
		}
		/* An incoming reset done is told when the peer's own request resets the streams. */
	} else {
		reconf_notify(a, o, (uint16_t)(flags | fail), r->streams, r->n_streams);
	}
	r = &a->tx->reconf; /* reconf_regrow() moved the send side */
	r->waiting &= (uint8_t)~which;
	if (r->waiting == 0)
		reconf_request_done(a);
}

/* §3.1: the parameter pairs one RE-CONFIG chunk may carry. */
static bool
reconf_pair_allowed(uint16_t t0, uint16_t t1)
{
	uint32_t pair = t0 < t1 ? (uint32_t)t0 << 16 | t1 : (uint32_t)t1 << 16 | t0;

	switch (pair) {
	case (uint32_t)SCTP_PARAM_OUT_SSN_RESET_REQ << 16 | SCTP_PARAM_IN_SSN_RESET_REQ:
	case (uint32_t)SCTP_PARAM_ADD_OUT_STREAMS_REQ << 16 | SCTP_PARAM_ADD_IN_STREAMS_REQ:
	case (uint32_t)SCTP_PARAM_OUT_SSN_RESET_REQ << 16 | SCTP_PARAM_RECONFIG_RESPONSE:
	case (uint32_t)SCTP_PARAM_RECONFIG_RESPONSE << 16 | SCTP_PARAM_RECONFIG_RESPONSE:
		return true;
	default:
		return false;
	}
}

static bool
reconf_single_allowed(uint16_t t)
{
	return t >= SCTP_PARAM_OUT_SSN_RESET_REQ && t <= SCTP_PARAM_ADD_IN_STREAMS_REQ;
}

/* RFC 6525 §3.1: RE-CONFIG where data flows; the work is assoc_rx_reconfig(). */
void
assoc_sf_reconfig(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	if (a->tx == NULL) {
		emit_drop(o, SCTP_ASSOC_DROP_DATA_PATH);
		return;
	}
	emit(o, OP_RECONF)->u.chunk = in->c;
}

void
assoc_tf_reconf(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit(o, OP_RECONF_TIMER);
}

void
assoc_uf_reconf(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	emit(o, OP_RECONF_USER)->u.user = in;
}

void
assoc_rx_reconfig(struct sctp_assoc *a, struct assoc_run *run, const struct sctp_chunk *c,
		  struct assoc_cmds *q)
{
	struct sctp_reconfig rc;
	struct reconf_out out;
	union {
		struct sctp_param_out_reset_req o;
		struct sctp_param_in_reset_req i;
		struct sctp_param_tsn_reset_req t;
		struct sctp_param_add_streams_req s;
		struct sctp_param_reconfig_resp r;
	} p;

	(void)q;
	memset(&out, 0, sizeof(out));
	if (sctp_reconfig_parse(c, &rc) != SCTP_PERR_OK ||
	    (rc.n_params == 1 && !reconf_single_allowed(rc.param[0].type)) ||
	    (rc.n_params == 2 && !reconf_pair_allowed(rc.param[0].type, rc.param[1].type))) {
		a->stats->reconf_malformed++;
		return;
	}
	for (uint8_t i = 0; i < rc.n_params; i++) {
		const struct sctp_tlv *t = &rc.param[i];
		enum sctp_parse_err e = SCTP_PERR_OK;
		switch (t->type) {
		case SCTP_PARAM_OUT_SSN_RESET_REQ:
			if ((e = sctp_param_out_reset_req_parse(t, &p.o)) == SCTP_PERR_OK)
				reconf_peer_out(a, &p.o, &out);
			break;
		case SCTP_PARAM_IN_SSN_RESET_REQ:
			if ((e = sctp_param_in_reset_req_parse(t, &p.i)) == SCTP_PERR_OK)
				reconf_peer_in(a, &p.i, &out, run->now_ns);
			break;
		case SCTP_PARAM_SSN_TSN_RESET_REQ:
			if ((e = sctp_param_tsn_reset_req_parse(t, &p.t)) == SCTP_PERR_OK)
				reconf_peer_tsn(a, &p.t, &out);
			break;
		case SCTP_PARAM_ADD_OUT_STREAMS_REQ:
			if ((e = sctp_param_add_streams_req_parse(t, &p.s)) == SCTP_PERR_OK)
				reconf_peer_add_out(a, &p.s, &out);
			break;
		case SCTP_PARAM_ADD_IN_STREAMS_REQ:
			if ((e = sctp_param_add_streams_req_parse(t, &p.s)) == SCTP_PERR_OK)
				reconf_peer_add_in(a, &p.s, &out, run->now_ns);
			break;
		case SCTP_PARAM_RECONFIG_RESPONSE:
			if ((e = sctp_param_reconfig_resp_parse(t, &p.r)) == SCTP_PERR_OK)
				reconf_response(a, &p.r, &out, run->now_ns);
			break;
		default:
			break;
		}
		if (e != SCTP_PERR_OK) {
			a->stats->reconf_malformed++;
			break;
		}
	}
	/*
	 * §3.1: a Response may share a chunk with an Outgoing SSN Reset
	 * Request only, and only one: otherwise the answers go first, alone.
	 */
	if (out.request && out.n_resp != 0 &&
	    (out.n_resp > 1 || a->tx->reconf.req != SCTP_RECONF_REQ_OUT)) {
		struct reconf_out first = out;
		first.request = false;
		reconf_send(a, &first);
		out.n_resp = 0;
	}
	if (out.n_resp != 0 || out.request)
		reconf_send(a, &out);
	for (uint8_t i = 0; i < out.n_note; i++) {
		const struct reconf_note *nt = &out.note[i];
		reconf_tell(a, NULL, nt->type, nt->flags, nt->sids, nt->n, nt->local_tsn,
			    nt->remote_tsn);
	}
}

void
assoc_reconf_user(struct sctp_assoc *a, struct assoc_run *run, const struct assoc_in *in)
{
	struct sctp_assoc_reconf *r;
	struct sctp_param_u16_list l = { .host = in->sids, .count = in->n_sids };
	unsigned flags = in->reset_flags;

	run->result = 0;
	if (!(a->extensions & SCTP_COOKIE_EXT_RECONFIG)) {
		run->result = -EOPNOTSUPP;
		return;
	}
	if (a->tx == NULL) {
		run->result = -ENOTCONN;
		return;
	}
	r = &a->tx->reconf;
	if (r->req != 0) {
		run->result = -EINPROGRESS;
		return;
	}
	if (in->reconf == ASSOC_RECONF_ADD) {
		if ((in->add_out == 0 && in->add_in == 0) ||
		    (uint32_t)a->outbound_streams + in->add_out > reconf_max_out(a) ||
		    (uint32_t)a->inbound_streams + in->add_in > reconf_max_in(a)) {
			run->result = -EINVAL;
			return;
		}
		if (in->add_out != 0) {
			r->req |= SCTP_RECONF_REQ_ADD_OUT;
			r->add_out = in->add_out;
			r->add_out_seq = r->next_seq++;
			a->stats->reconf_requests++;
		}
		if (in->add_in != 0) {
			r->req |= SCTP_RECONF_REQ_ADD_IN;
			r->add_in = in->add_in;
			r->add_in_seq = r->next_seq++;
			a->stats->reconf_requests++;
		}
		r->waiting = r->req;
		goto send;
	}
	if (in->reconf == ASSOC_RECONF_ASSOC) {
		if (assoc_tx_outstanding(a)) {
			run->result = -EAGAIN;
			return;
		}
		r->req = r->waiting = SCTP_RECONF_REQ_TSN;
		r->tsn_seq = r->next_seq++;
		a->stats->reconf_requests++;
		goto send;
	}
	if ((flags & (SCTP_STREAM_RESET_INCOMING | SCTP_STREAM_RESET_OUTGOING)) == 0 ||
	    (flags & ~(SCTP_STREAM_RESET_INCOMING | SCTP_STREAM_RESET_OUTGOING)) != 0 ||
	    in->n_sids > SCTP_RECONF_MAX_STREAMS || (in->n_sids != 0 && in->sids == NULL) ||
	    ((flags & SCTP_STREAM_RESET_OUTGOING) &&
	     !reconf_streams_valid(&l, a->outbound_streams)) ||
	    ((flags & SCTP_STREAM_RESET_INCOMING) &&
	     !reconf_streams_valid(&l, a->inbound_streams))) {
		run->result = -EINVAL;
		return;
	}
	if ((flags & SCTP_STREAM_RESET_OUTGOING) && reconf_outq_busy(a, &l)) {
		run->result = -EAGAIN;
		return;
	}
	if (flags & SCTP_STREAM_RESET_OUTGOING)
		reconf_request_out(a, &l, r->peer_seq - 1u); /* §4.1: no request answered */
	if (flags & SCTP_STREAM_RESET_INCOMING) {
		r->req |= SCTP_RECONF_REQ_IN;
		r->waiting |= SCTP_RECONF_REQ_IN;
		r->in_seq = r->next_seq++;
		r->n_streams = (uint8_t)l.count;
		for (uint16_t i = 0; i < l.count; i++)
			r->streams[i] = in->sids[i];
		a->stats->reconf_requests++;
	}
send:;
	struct reconf_out out = { .request = true };
	reconf_send(a, &out);
	reconf_timer_start(a, run->now_ns);
}

void
assoc_reconf_timeout(struct sctp_assoc *a, struct assoc_run *run, struct assoc_cmds *q)
{
	struct sctp_assoc_reconf *r;

	if (a->tx == NULL || a->tx->reconf.req == 0)
		return;
	r = &a->tx->reconf;
	if (!r->in_progress) {
		/* §5.1.1: an error on the path, the RTO backed off, as for T3-rtx. */
		unsigned dp = sctp_paths_data_path(&a->paths);
		uint64_t ev = sctp_paths_on_t3_expiry(&a->paths, assoc_profile(a), dp, run->now_ns);
		if (ev != 0)
			emit_path_events(q, ev);
		if (ev & SCTP_PATHS_EV_COMM_LOST) {
			emit(q, OP_HALT);
			return;
		}
	}
	r->in_progress = false;
	a->stats->reconf_rtx++;
	struct reconf_out out = { .request = true };
	reconf_send(a, &out);
	reconf_timer_start(a, run->now_ns);
}

void
assoc_reconf_input_end(struct sctp_assoc *a, struct assoc_run *run)
{
	struct sctp_assoc_reconf *r;

	if (a->tx == NULL || !a->tx->reconf.deferred) {
		a->reconf_deferred = false; /* what it mirrored was reset with the send side */
		return;
	}
	if (run->halted)
		return;
	r = &a->tx->reconf;
	if (sctp_tsn_gt(r->def_tsn, sctp_tsn_map_cum(&a->rx_tsn)))
		return;
	struct sctp_param_u16_list l = { .host = r->def_streams, .count = r->def_n };
	reconf_reset_incoming(a, &l);
	r->deferred = a->reconf_deferred = false;
	if (r->def_seq == r->peer_seq - 1u)
		r->last_result[0] = SCTP_RECONFIG_SUCCESS_PERFORMED;
	else if (r->def_seq == r->peer_seq - 2u)
		r->last_result[1] = SCTP_RECONFIG_SUCCESS_PERFORMED;
	struct reconf_out out;
	memset(&out, 0, sizeof(out));
	reconf_answer(&out, r->def_seq, SCTP_RECONFIG_SUCCESS_PERFORMED);
	reconf_send(a, &out);
	reconf_notify(a, NULL, SCTP_RESET_INCOMING_SSN, r->def_streams, r->def_n);
}
