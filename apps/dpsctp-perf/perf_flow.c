/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One association's traffic, as its callbacks see it.
 *
 * Sending: perf_flow_pump() sends up to o->burst messages a call with
 * DPSCTP_SEND_MORE on all but the last (they leave bundled), within the
 * side's pacing tokens, until the send buffer refuses (-EAGAIN: the flow
 * waits for on_space). Messages up to the copy threshold go through
 * dpsctp_send_bytes() (packed, one copy); larger ones are written into an
 * mbuf once and sent by reference, as an application that owns its
 * buffers would — the one copy every stack makes from an application's
 * bytes (write() for TCP, usrsctp_sendv()) is counted in our cycles too.
 * Messages longer than one segment holds (PERF_SEG_MAX) are a chain
 * whatever we do: dpsctp_send_bytes() builds it.
 *
 * Pings (--ping) go on stream 0, --ping-length bytes: one at a time, or
 * with --ping-interval one every interval stamped with the time it was
 * due, however many are in flight.
 *
 * PR-SCTP (--pr-policy): every data message goes with the policy and
 * PERF_F_PR in its header; pings and their echoes go reliably, one lost
 * would stop the ping-pong. SEND_FAILED of a policy counts the message as
 * abandoned (the report's goodput leaves it out).
 *
 * Receiving: every message is counted; the first 16 bytes (struct
 * perf_hdr) are checked — order per ordered stream, a gap before a
 * PERF_F_PR message counted as abandoned — and answered: a ping
 * is echoed at once with its timestamp (a --loopback server also takes
 * its one-way time: one clock for both ends; one echo slot per flow holds
 * an echo the send buffer refused), --echo owes the peer one
 * message of the same size per message, and a sender's --bidir flag makes
 * a server send back at the size it receives.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>

#include "apps/dpsctp-perf/perf.h"

static bool
hdr_read(const struct dpsctp_msg *m, struct perf_hdr *h)
{
	uint8_t b[sizeof(*h)];
	if (m->len < sizeof(*h) || (m->flags & DPSCTP_MSG_CONT) != 0)
		return false;
	if (m->segs[0].len >= sizeof(*h))
		return perf_hdr_decode(m->segs[0].data, m->segs[0].len, h);
	(void)dpsctp_msg_copy(m, b, sizeof(b));
	return perf_hdr_decode(b, sizeof(b), h);
}

/*
 * The per-stream sequence numbers: at COMM_UP for a traffic test; with
 * --handshakes (a million associations, few of which carry data) when the
 * flow first sends or receives. 0, or -ENOMEM (said, the association
 * aborted: its checks cannot be made).
 */
static int
flow_seqs(struct perf_flow *f)
{
	if (f->seq_out != NULL && f->seq_in != NULL)
		return 0;
	free(f->seq_out);
	free(f->seq_in);
	f->seq_out = calloc(f->streams ? f->streams : 1u, sizeof(*f->seq_out));
	f->seq_in = calloc(f->in_streams ? f->in_streams : 1u, sizeof(*f->seq_in));
	if (f->seq_out != NULL && f->seq_in != NULL)
		return 0;
	fprintf(stderr, "%s: no memory for a flow's sequence numbers\n", f->side->name);
	free(f->seq_out);
	free(f->seq_in);
	f->seq_out = f->seq_in = NULL;
	if (f->a != NULL)
		(void)dpsctp_abort(f->a);
	return -ENOMEM;
}

/*
 * --busy: every byte after the header is the side's payload pattern (both
 * ends fill theirs alike, perf_side_init()); false at the first that is
 * not. Whole messages only (a partial delivery's offset is not known).
 */
static bool
payload_ok(const struct perf_side *s, const struct dpsctp_msg *m)
{
	uint32_t off = 0;
	if ((m->flags & (DPSCTP_MSG_MORE | DPSCTP_MSG_CONT)) != 0)
		return true;
	if (m->len > s->payload_len)
		return false; /* longer than anything either end sends */
	for (uint32_t i = 0; i < m->nsegs; i++) {
		const uint8_t *p = m->segs[i].data;
		uint32_t n = m->segs[i].len;
		uint32_t skip = off < sizeof(struct perf_hdr) ? sizeof(struct perf_hdr) - off : 0;
		if (skip < n && memcmp(p + skip, s->payload + off + skip, n - skip) != 0)
			return false;
		off += n;
	}
	return off == m->len;
}

/* Send one message of f->len (or len) bytes; 0, or the API's error. */
static int
send_msg(struct perf_flow *f, uint16_t sid, uint32_t len, uint16_t flags, uint64_t tsc,
	 uint32_t sflags)
{
	struct perf_side *s = f->side;
	struct dpsctp_sndinfo si = { .sid = sid, .ppid = PERF_PPID, .flags = sflags };
	uint32_t seq = f->seq_out[sid];
	int rc;

	if (s->o->unordered)
		si.flags |= DPSCTP_SEND_UNORDERED;
	if (s->o->pr_policy != 0 && (flags & (PERF_F_PING | PERF_F_PONG)) == 0) {
		si.pr_policy = (uint32_t)s->o->pr_policy;
		si.pr_value = s->o->pr_value;
		flags |= PERF_F_PR;
	}
	if (len <= s->copy_max || (len > s->room && len > s->big_room)) {
		/* Small ones packed; large ones without a pool of their size (a
		 * server echoing what a client chose, a message longer than one
		 * segment holds) go as the library's chain. */
		perf_hdr_write(s->payload, seq, flags, tsc);
		rc = dpsctp_send_bytes(f->a, &si, s->payload, len);
	} else {
		struct rte_mempool *mp = len <= s->room ? dpsctp_pktmbuf_pool(s->d) : s->big_pool;
		struct rte_mbuf *m = mp != NULL ? rte_pktmbuf_alloc(mp) : NULL;
		if (m == NULL)
			return -ENOMEM;
		uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
		memcpy(p + sizeof(struct perf_hdr), s->payload + sizeof(struct perf_hdr),
		       len - sizeof(struct perf_hdr));
		perf_hdr_write(p, seq, flags, tsc);
		rc = dpsctp_send(f->a, &si, m);
		if (rc != 0)
			rte_pktmbuf_free(m);
	}
	if (rc == 0) {
		f->seq_out[sid] = seq + 1;
		perf_add(&s->c.msgs_sent, 1);
		perf_add(&s->c.bytes_sent, len);
	} else if (rc == -EAGAIN || rc == -ENOMEM) {
		f->blocked = true; /* on_space, or the next iteration for -ENOMEM */
		f->blocked_nomem = rc == -ENOMEM;
	} else {
		s->refused++;
	}
	return rc;
}

static uint16_t
next_sid(struct perf_flow *f)
{
	uint16_t sid = f->next_sid;
	f->next_sid = (uint16_t)(sid + 1u == f->streams ? 0u : sid + 1u);
	return sid;
}

/*
 * --reset-every: one bulk stream at a time is reset (RFC 6525 outgoing SSN
 * reset). The sender stops queueing on it; dpsctp_reset_streams() says
 * -EAGAIN while its messages still wait in the send queue, so the request
 * goes once they have left; the answer is DPSCTP_EV_STREAM_RESET
 * (flow_reset_done()). The other streams carry data all along, and the
 * receiver's per-stream seq check shows that nothing was lost or reordered
 * across the reset. A call refused for another reason (the peer did not
 * negotiate RE-CONFIG) is counted and stops the resets of this flow.
 */
static void
reset_step(struct perf_flow *f, bool skip0)
{
	struct perf_side *s = f->side;
	uint64_t now = rte_rdtsc();
	if (f->resets_off)
		return;
	if (f->resetting < 0) {
		if (f->next_reset_tsc == 0)
			f->next_reset_tsc = now + s->reset_every_tsc;
		if ((int64_t)(now - f->next_reset_tsc) < 0)
			return;
		uint16_t sid = f->reset_next;
		if (skip0 && sid == 0)
			sid = 1;
		f->reset_next = (uint16_t)(sid + 1u >= f->streams ? 0u : sid + 1u);
		f->resetting = sid;
		f->reset_asked = false;
	}
	if (f->reset_asked)
		return;
	uint16_t sid = (uint16_t)f->resetting;
	int rc = dpsctp_reset_streams(f->a, DPSCTP_RESET_OUTGOING, &sid, 1);
	if (rc == 0) {
		f->reset_asked = true;
		f->reset_tsc = now;
	} else if (rc != -EAGAIN && rc != -EINPROGRESS) {
		perf_add(&s->c.resets_refused, 1);
		f->resetting = -1;
		f->resets_off = true; /* e.g. -EOPNOTSUPP: not negotiated */
	}
}

/* Our reset's answer (its stream may take messages again), or the peer's reset. */
static void
flow_reset_done(struct perf_flow *f, const struct dpsctp_event *ev)
{
	struct perf_side *s = f->side;
	if ((ev->reset_flags & DPSCTP_RESET_OUTGOING_SSN) == 0 || !f->reset_asked) {
		if (ev->reset_flags & DPSCTP_RESET_INCOMING_SSN)
			perf_add(&s->c.resets_in, 1);
		return;
	}
	uint64_t now = rte_rdtsc();
	if (ev->reset_flags & (DPSCTP_RESET_DENIED | DPSCTP_RESET_FAILED)) {
		perf_add(&s->c.resets_denied, 1);
	} else {
		perf_add(&s->c.resets, 1);
		perf_hist_add(&s->reset_rtt, (now - f->reset_tsc) * 1000000000ull / s->hz);
	}
	f->resetting = -1;
	f->reset_asked = false;
	f->next_reset_tsc = now + s->reset_every_tsc;
}

bool
perf_flow_pump(struct perf_flow *f)
{
	struct perf_side *s = f->side;
	bool did = false;

	if (!f->up || f->ended)
		return false;
	if (f->blocked && f->blocked_nomem)
		f->blocked = f->blocked_nomem = false; /* mbufs may be back: try again */
	/*
	 * Answers first: a ping's echo, then echoes owed (--echo); then a ping.
	 * Pings and their echoes are tried even while the send buffer refuses
	 * bulk data (blocked, waiting for on_space): a 64-byte ping fits where
	 * a 1 MiB message does not, as an application would find.
	 */
	if (f->pong_due) {
		if (send_msg(f, f->pong_sid, f->pong_len, PERF_F_PONG, f->pong_tsc, 0) != 0)
			goto blocked;
		f->pong_due = false;
		did = true;
	}
	while (f->owed != 0 && !f->blocked) {
		if (send_msg(f, next_sid(f), f->owed_len, 0, 0, 0) != 0)
			goto blocked;
		f->owed--;
		did = true;
	}
	if (*s->phase != PERF_RUN)
		return did;
	if (s->is_client && s->o->ping && s->ping_tsc != 0) {
		/* --ping-interval: every ping due, stamped with when it was due, so
		 * a ping the loop or a full buffer held back counts its wait too.
		 * At most 64 at once: a stall of the whole process is not made up
		 * for with a burst longer than that. */
		uint64_t now = rte_rdtsc();
		if (f->next_ping_tsc == 0)
			f->next_ping_tsc = now;
		if (now - f->next_ping_tsc > 64 * s->ping_tsc &&
		    (int64_t)(now - f->next_ping_tsc) > 0)
			f->next_ping_tsc = now - 64 * s->ping_tsc;
		while ((int64_t)(now - f->next_ping_tsc) >= 0) {
			if (send_msg(f, 0, s->o->ping_len, PERF_F_PING, f->next_ping_tsc, 0) != 0)
				goto blocked;
			f->next_ping_tsc += s->ping_tsc;
			did = true;
		}
	} else if (s->is_client && s->o->ping && !f->ping_outstanding) {
		if (send_msg(f, 0, s->o->ping_len, PERF_F_PING, rte_rdtsc(), 0) != 0)
			goto blocked;
		f->ping_outstanding = true;
		did = true;
	}
	if (!f->sender || f->blocked)
		return did;
	unsigned n = s->o->burst;
	if (s->msgs_per_tsc > 0) {
		/* Paced: wait for a batch's worth of credit. One message per
		 * iteration would pay the loop's fixed costs (a tx burst, a poll)
		 * per message; a batch keeps the per-message cost of an unpaced
		 * run, and at 10G a batch of 16 1452-byte messages is 19 us. */
		if (s->tokens < (double)s->pace_batch)
			return did;
		if ((double)n > s->tokens)
			n = (unsigned)s->tokens;
	}
	uint16_t fl = s->is_client && s->o->bidir ? PERF_F_BIDIR : 0;
	/* Pings own stream 0 when there is another: bulk data never delays them. */
	bool skip0 = s->o->ping && f->streams > 1;
	if (s->reset_every_tsc != 0 && s->is_client) {
		reset_step(f, skip0);
		/* The only bulk stream is being reset: nothing to send meanwhile. */
		if (f->resetting >= 0 && f->streams <= (skip0 ? 2u : 1u))
			return did;
	}
	unsigned sent = 0;
	for (; sent < n; sent++) {
		uint16_t sid = next_sid(f);
		if (skip0 && sid == 0)
			sid = next_sid(f);
		if (sid == f->resetting) {
			sid = next_sid(f);
			if (skip0 && sid == 0)
				sid = next_sid(f);
		}
		int rc = send_msg(f, sid, f->len, fl, 0, sent + 1 < n ? DPSCTP_SEND_MORE : 0u);
		if (rc != 0) {
			f->next_sid = sid; /* the same stream next time: no gap in its seq */
			break;
		}
	}
	if (sent != 0 && sent < n)
		(void)dpsctp_flush(f->a); /* the last one had SEND_MORE */
	if (s->msgs_per_tsc > 0)
		s->tokens -= sent;
	return did || sent != 0;
blocked:
	return did;
}

int
perf_flow_ping(struct perf_flow *f)
{
	if (!f->up || f->ended || f->a == NULL)
		return -ENOTCONN;
	if (flow_seqs(f) != 0)
		return -ENOMEM;
	f->blocked = f->blocked_nomem = false; /* one message at a time: nothing to wait for */
	int rc = send_msg(f, next_sid(f), f->side->o->ping_len, PERF_F_PING, rte_rdtsc(), 0);
	if (rc == 0)
		f->ping_outstanding = true;
	return rc;
}

bool
perf_flow_drained(const struct perf_flow *f)
{
	struct dpsctp_assoc_stats st;
	struct dpsctp_path_stats ps;

	if (f->a == NULL || f->ended)
		return true;
	if (dpsctp_assoc_get_stats(f->a, &st) != 0 || st.send_queued != 0)
		return false;
	for (unsigned i = 0; dpsctp_path_get_stats(f->a, i, &ps) == 0; i++)
		if (ps.flight != 0)
			return false;
	/* A reset asked for is seen through: its answer is in the report. */
	return !f->pong_due && f->owed == 0 && !(f->resetting >= 0 && f->reset_asked);
}

/* A new association: its flow (the client's, or one the server takes). */
static void
flow_up(struct perf_flow *f, struct dpsctp_assoc *a, const struct dpsctp_event *ev)
{
	struct perf_side *s = f->side;
	f->a = a;
	f->up = true;
	f->resetting = -1;
	f->streams = ev->outbound_streams;
	if (s->is_client && s->o->streams < f->streams)
		f->streams = s->o->streams;
	f->in_streams = ev->inbound_streams;
	struct dpsctp_assoc_stats st;
	if (dpsctp_assoc_get_stats(a, &st) == 0)
		perf_side_extensions(s, st.extensions);
	perf_side_sched(s, dpsctp_sched(a));
	if (s->o->handshakes == 0 && flow_seqs(f) != 0)
		return;
	s->flows_up++;
	s->established_tsc = rte_rdtsc();
}

static void
flow_end(struct perf_flow *f, struct dpsctp_assoc *a, const struct dpsctp_event *ev)
{
	struct perf_side *s = f->side;
	if (a != NULL && dpsctp_assoc_get_stats(a, &f->final) == 0) {
		s->sum.msgs_sent += f->final.msgs_sent;
		s->sum.bytes_sent += f->final.bytes_sent;
		s->sum.msgs_recv += f->final.msgs_recv;
		s->sum.bytes_recv += f->final.bytes_recv;
		s->sum.data_chunks_out += f->final.data_chunks_out;
		s->sum.data_chunks_rtx += f->final.data_chunks_rtx;
		s->sum.data_chunks_in += f->final.data_chunks_in;
		s->sum.data_dups_in += f->final.data_dups_in;
		s->sum.sacks_out += f->final.sacks_out;
		s->sum.sacks_in += f->final.sacks_in;
		s->sum.t3_expiries += f->final.t3_expiries;
		s->sum.fast_retransmits += f->final.fast_retransmits;
		s->sum.t3_spurious += f->final.t3_spurious;
		s->sum.t3_rtx_saved += f->final.t3_rtx_saved;
		s->sum.fwd_tsn_out += f->final.fwd_tsn_out;
	}
	if (ev->type != DPSCTP_EV_SHUTDOWN_COMPLETE) {
		f->lost = true;
		s->flows_lost++;
		if (s->o->handshakes == 0 || ev->type == DPSCTP_EV_CANT_START)
			fprintf(stderr, "%s: association %s (reason %u, cause %u)\n", s->name,
				ev->type == DPSCTP_EV_CANT_START ? "did not start" : "lost",
				ev->reason, ev->error);
	}
	f->ended = true;
	f->up = false;
	f->a = NULL;
	s->flows_ended++;
	free(f->seq_out);
	free(f->seq_in);
	f->seq_out = f->seq_in = NULL;
}

static void
on_event(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	struct perf_flow *f = arg;
	switch (ev->type) {
	case DPSCTP_EV_COMM_UP:
		flow_up(f, a, ev);
		break;
	case DPSCTP_EV_SHUTDOWN_COMPLETE:
	case DPSCTP_EV_COMM_LOST:
	case DPSCTP_EV_CANT_START:
		flow_end(f, a, ev);
		break;
	case DPSCTP_EV_SEND_FAILED:
		/* Abandoned by its policy (0: left at a close, which the end event says). */
		if (ev->pr_policy != DPSCTP_PR_NONE) {
			perf_add(&f->side->c.abandoned_msgs, 1);
			perf_add(&f->side->c.abandoned_bytes, ev->length);
			if (ev->sent)
				perf_add(&f->side->c.abandoned_sent, 1);
		}
		break;
	case DPSCTP_EV_STREAM_RESET:
		flow_reset_done(f, ev);
		break;
	case DPSCTP_EV_RESTART:
		f->side->restarts++;
		if (f->seq_in != NULL)
			memset(f->seq_in, 0, f->in_streams * sizeof(*f->seq_in));
		break;
	default:
		break;
	}
}

/* The server's listener: a flow for each association it accepts. */
static void
on_listen_event(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	struct perf_side *s = arg;
	if (ev->type != DPSCTP_EV_COMM_UP)
		return;
	if (s->n_flows == s->max_flows) {
		fprintf(stderr, "%s: more than %u associations: aborting the new one\n", s->name,
			s->max_flows);
		(void)dpsctp_abort(a);
		return;
	}
	struct perf_flow *f = &s->flows[s->n_flows++];
	memset(f, 0, sizeof(*f));
	f->side = s;
	f->len = s->o->len;
	dpsctp_assoc_set_callbacks(a, &perf_callbacks, f);
	flow_up(f, a, ev);
	if (s->o->loopback && s->o->bidir)
		f->sender = true; /* the loopback server knows the test */
}

static void
on_recv(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg)
{
	struct perf_flow *f = arg;
	struct perf_side *s = f->side;
	struct perf_hdr h;
	(void)a;

	perf_add(&s->c.bytes_recv, m->len);
	if ((m->flags & DPSCTP_MSG_MORE) == 0)
		perf_add(&s->c.msgs_recv, 1);
	if (!hdr_read(m, &h))
		return; /* another tool's message, or the rest of a partial delivery */
	if (m->ppid != PERF_PPID)
		s->errors++;
	if (f->seq_in == NULL && flow_seqs(f) != 0)
		return; /* --handshakes: the flow's first message */
	if (s->o->busy_s > 0 && !payload_ok(s, m))
		s->errors++;
	if ((m->flags & DPSCTP_MSG_UNORDERED) == 0 && m->sid < f->in_streams)
		perf_seq_check(s, &f->seq_in[m->sid], &h);
	/* A client's own ping back unchanged is its pong too: a plain echo
	 * server (dpsctp-echo, dpsctpd --loopback-peer echo) does not flip it. */
	if ((h.flags & PERF_F_PONG) || (s->is_client && (h.flags & PERF_F_PING))) {
		uint64_t rtt = rte_rdtsc() - h.tsc;
		perf_hist_add(&s->lat, (uint64_t)((double)rtt * 1e9 / 2.0 / (double)s->hz));
		perf_add(&s->c.pings, 1);
		f->ping_outstanding = false;
		return;
	}
	/* The size to answer with: the peer chose it, our payload buffer bounds it. */
	uint32_t whole = (m->flags & DPSCTP_MSG_MORE) ? s->o->len : m->len;
	if (whole > s->payload_len)
		whole = s->payload_len;
	if ((h.flags & PERF_F_PING) && s->o->loopback) {
		/* Both ends in this process: one clock, so the way out alone. */
		uint64_t one = rte_rdtsc() - h.tsc;
		perf_hist_add(&s->lat, (uint64_t)((double)one * 1e9 / (double)s->hz));
	}
	if (h.flags & PERF_F_PING) {
		f->pong_due = true;
		f->pong_sid = m->sid < f->streams ? m->sid : 0;
		f->pong_len = whole;
		f->pong_tsc = h.tsc;
	} else if (s->o->echo && !s->is_client) {
		f->owed++;
		f->owed_len = whole;
	}
	if ((h.flags & PERF_F_BIDIR) && !s->is_client && !f->sender) {
		f->sender = true;
		f->len = whole;
	}
	if (f->pong_due || f->owed != 0)
		(void)perf_flow_pump(f);
	if (f->pong_due && s->o->handshakes != 0)
		s->pong_retry = true; /* no loop pumps these flows: perf_side_iterate() looks */
}

static void
on_space(struct dpsctp_assoc *a, uint32_t free_bytes, void *arg)
{
	struct perf_flow *f = arg;
	(void)a;
	(void)free_bytes;
	f->blocked = f->blocked_nomem = false;
}

const struct dpsctp_callbacks perf_callbacks = { on_recv, on_event, on_space };
const struct dpsctp_callbacks perf_listen_callbacks = { NULL, on_listen_event, NULL };
