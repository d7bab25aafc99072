/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctp-perf --sidecar SOCKET: one end of a test through dpsctpd, the
 * sidecar daemon, with libdpsctp-client (dataplane/sidecar/dpsctp_client.h;
 * docs/SIDECAR.md) instead of an instance of our own. The traffic is the
 * embedded ends' (perf_flow.c): the same 16-byte header on every message,
 * so either end may be embedded and the other a sidecar application.
 *
 * No EAL. This process owns no port and needs no hugepages, so it starts
 * no DPDK: rte_rdtsc() is an instruction, and the TSC's rate, which
 * rte_get_tsc_hz() would take from the EAL, is measured against
 * CLOCK_MONOTONIC_RAW over 100 ms at start (a few ppm from the kernel's
 * own calibration where we measured it; the EAL's figure is rounded there,
 * 2600 against 2596.14 MHz). Ping latencies and every rate use it.
 *
 * One thread (the client library's thread 0) busy-polls the rings and
 * never calls dpsctp_client_wait(), as the embedded ends busy-poll their
 * instances. An iteration polls completions and events (up to
 * PSC_EVENTS x PSC_POLLS), then lets every flow send; it is busy when it
 * got anything or sent anything. Its cycles per message are this process's
 * alone: the copy into the tx arena and the rings. The protocol work is
 * dpsctpd's, on its own core, and not counted here.
 *
 * Sending: one copy into the thread's tx arena per message
 * (dpsctp_client_send()). -EAGAIN means the request ring or the arena is
 * full: no flow sends more this iteration, and the next poll reaps the
 * completions of what the daemon took. The daemon bundles a run of sends
 * on one association (DPSCTP_SEND_MORE), so a flow sends its burst in a
 * row and the flows take turns at going first.
 *
 * Receiving: a RECV's bytes are the rx arena's until the next poll, so
 * every message is counted and checked in its poll's batch; answers (a
 * ping's echo, --echo, --bidir) are made from our own payload, never
 * kept. A message larger than a quarter of the daemon's arena comes in
 * pieces (DPSCTP_CLIENT_MORE): it is counted and answered at its last.
 *
 * The end of a client's test: it stops sending, waits for every send's
 * completion and for its pings' echoes, then SHUTDOWNs. SHUTDOWN_COMPLETE
 * comes only after the peer acknowledged everything (RFC 9260 §9.2), so
 * "sent" means received, as in embedded mode, without the association
 * statistics the client library does not have.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include <rte_cycles.h>

#include "apps/common/app_common.h"
#include "apps/dpsctp-perf/perf.h"
#include "dataplane/sidecar/dpsctp_client.h"

#define PSC_EVENTS	 256u  /* completions and events per dpsctp_client_poll() */
#define PSC_POLLS	 4u    /* polls per iteration at most, while they come back full */
#define PSC_SERVER_FLOWS 4096u /* associations a server keeps, as the embedded one */
#define PSC_MAX_PEERS	 4u    /* dpsctp_client_connect(): 1 to 4 addresses */
#define PSC_SHOWN	 5u    /* failed sends, lost associations described one by one */

/* Cookies: a flow's index, this for the LISTEN, PSC_COOKIE_OPT + the option for a SETOPT. */
#define PSC_COOKIE_LISTEN UINT64_MAX
#define PSC_COOKIE_OPT	  (UINT64_MAX - 64u)

static bool interrupted;
static volatile int phase = PERF_RUN;

/*
 * SIGINT and SIGTERM are blocked and looked for (sigpending(), once a
 * millisecond) rather than caught: a handler would interrupt the client
 * library's system calls, and its look at the control socket takes an
 * interrupted poll() for the daemon's departure, for good.
 */
static void
psc_block_signals(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	(void)sigprocmask(SIG_BLOCK, &set, NULL);
}

static void
psc_look_for_signals(uint64_t now, uint64_t hz)
{
	static uint64_t next;
	sigset_t p;
	if (now < next)
		return;
	next = now + hz / 1000;
	if (sigpending(&p) == 0 && (sigismember(&p, SIGINT) || sigismember(&p, SIGTERM)))
		interrupted = true;
}

/* One association's traffic (struct perf_flow's, with the daemon's handle). */
struct psc_flow {
	uint64_t assoc; /* the daemon's handle: CONNECT's completion, or COMM_UP */
	bool up, ended, lost, sender;
	bool closing; /* our SHUTDOWN posted, or the peer's seen: no new data */
	uint32_t len;
	uint32_t *seq_out, *seq_in;
	uint16_t streams, in_streams, next_sid;
	bool ping_outstanding;
	bool pong_due; /* a ping's echo the daemon had no room for */
	uint16_t pong_sid;
	uint32_t pong_len;
	uint64_t pong_tsc;
	uint64_t owed; /* --echo */
	uint32_t owed_len;
	/* The message arriving (more than one piece when DPSCTP_CLIENT_MORE). */
	bool partial, partial_hdr;
	struct perf_hdr ph;
	uint16_t partial_sid;
	uint8_t partial_flags;
	uint32_t partial_len;
	/* --reset-every: the stream being reset (-1 none), where its request
	 * stands, when it went, when the next is due (perf_flow.c's reset_step()
	 * with the request's answer coming as a completion). */
	int32_t resetting;
	enum { PSC_RESET_POST, PSC_RESET_POSTED, PSC_RESET_ASKED } reset_state;
	bool resets_off;
	uint16_t reset_next;
	uint64_t reset_tsc, next_reset_tsc;
};

struct psc_end {
	struct perf_side side; /* what perf_report.c reads: counters, latency, errors */
	const struct perf_opts *o;
	struct dpsctp_client *c;
	struct psc_flow *flows;
	uint32_t max_flows, next_connect, rr;
	/* Handle -> flow index; open addressing, cleared between a server's tests. */
	uint64_t *keys;
	uint32_t *vals, mask;
	uint64_t sends_out;    /* sends posted (quiet: only a failure completes) */
	bool barrier_posted;   /* the drain's dpsctp_client_barrier() */
	bool barrier_done;     /* ...completed: every send before it was served */
	uint64_t send_errors;  /* completions with an error (the first few shown) */
	uint64_t undelivered;  /* SEND_FAILED: not acknowledged at the close */
	uint64_t strays;       /* events for a handle we do not know */
	int listen_status;     /* 1 until LISTEN completes, then its status */
	unsigned opts_pending; /* the options' SETOPTs not completed yet (psc_setopts()) */
	bool full;	       /* -EAGAIN this iteration: ring or arena full */
	bool gone;	       /* the daemon went or broke: the test is over */
	struct sctp_addr peers[PSC_MAX_PEERS];
	unsigned n_peers;
	uint16_t port;
	uint8_t *payload;
	uint32_t payload_len; /* perf_payload_len() */
	struct dpsctp_client_event ev[PSC_EVENTS];
};

/* The TSC's rate against CLOCK_MONOTONIC_RAW over 100 ms (the EAL's job, had we one). */
static uint64_t
psc_tsc_hz(void)
{
	struct timespec a, b, pause = { 0, 100 * 1000 * 1000 };
	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	uint64_t t0 = rte_rdtsc();
	while (nanosleep(&pause, &pause) != 0 && errno == EINTR)
		;
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	uint64_t t1 = rte_rdtsc();
	double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
	return ns > 0 ? (uint64_t)((double)(t1 - t0) * 1e9 / ns) : 1;
}

/* ---- handles ---- */

static uint32_t
psc_slot(const struct psc_end *e, uint64_t h)
{
	return (uint32_t)((h * 0x9e3779b97f4a7c15ull) >> 40) & e->mask;
}

static void
psc_map_put(struct psc_end *e, uint64_t h, uint32_t idx)
{
	uint32_t i = psc_slot(e, h);
	while (e->keys[i] != 0 && e->keys[i] != h)
		i = (i + 1) & e->mask;
	e->keys[i] = h;
	e->vals[i] = idx;
}

static struct psc_flow *
psc_map_get(struct psc_end *e, uint64_t h)
{
	if (h == 0)
		return NULL;
	for (uint32_t i = psc_slot(e, h); e->keys[i] != 0; i = (i + 1) & e->mask)
		if (e->keys[i] == h)
			return &e->flows[e->vals[i]];
	return NULL;
}

/* ---- flows ---- */

static void
psc_fatal(struct psc_end *e, const char *what, int rc)
{
	if (!e->gone)
		fprintf(stderr, "%s: %s: %s%s\n", e->side.name, what, strerror(-rc),
			rc == -ECONNRESET ? " (dpsctpd went away)"
			: rc == -EPROTO	  ? " (dpsctpd wrote something malformed)"
					  : "");
	e->gone = true;
}

static void
psc_flow_up(struct psc_end *e, struct psc_flow *f, const struct dpsctp_client_event *ev)
{
	struct perf_side *s = &e->side;
	f->up = true;
	f->resetting = -1;
	f->streams = ev->assoc_change.outbound_streams != 0 ? ev->assoc_change.outbound_streams : 1;
	if (s->is_client && e->o->streams < f->streams)
		f->streams = e->o->streams;
	f->in_streams = ev->assoc_change.inbound_streams;
	perf_side_extensions(s, ev->assoc_change.extensions);
	f->seq_out = calloc(f->streams, sizeof(*f->seq_out));
	f->seq_in = calloc(f->in_streams != 0 ? f->in_streams : 1, sizeof(*f->seq_in));
	s->flows_up++;
	if (f->seq_out == NULL || f->seq_in == NULL) {
		fprintf(stderr, "%s: no memory for a flow's sequence numbers\n", s->name);
		(void)dpsctp_client_abort(e->c, 0, f->assoc, (uint64_t)(f - e->flows));
		f->closing = true;
		return;
	}
	/* The stream scheduler is dpsctpd's (--sched): ask, for the report. A
	 * full request ring leaves it unknown (null), never the test failed. */
	(void)dpsctp_client_get_sched(e->c, 0, f->assoc, (uint64_t)(f - e->flows));
}

static void
psc_flow_end(struct psc_end *e, struct psc_flow *f, bool ok, const char *why, unsigned cause)
{
	struct perf_side *s = &e->side;
	if (f->ended)
		return;
	if (!ok) {
		f->lost = true;
		if (s->flows_lost++ < PSC_SHOWN) {
			if (cause != 0)
				fprintf(stderr, "%s: association %s (cause %u)\n", s->name, why,
					cause);
			else
				fprintf(stderr, "%s: association %s\n", s->name, why);
		}
	}
	f->ended = true;
	f->up = false;
	s->flows_ended++;
	free(f->seq_out);
	free(f->seq_in);
	f->seq_out = f->seq_in = NULL;
}

/* Post one message; 0, or the library's error (-EAGAIN: full, try next iteration). */
static int
psc_send(struct psc_end *e, struct psc_flow *f, uint16_t sid, uint32_t len, uint16_t flags,
	 uint64_t tsc)
{
	struct perf_side *s = &e->side;
	uint32_t seq = f->seq_out[sid];
	/* Quiet: no completion per message, only for a failure; the drain's
	 * barrier says when all were served. */
	struct dpsctp_client_sndinfo si = {
		.assoc = f->assoc,
		.sid = sid,
		.ppid = htonl(PERF_PPID),
		.flags = DPSCTP_CLIENT_QUIET | (e->o->unordered ? DPSCTP_CLIENT_UNORDERED : 0u)
	};
	/* PR-SCTP on data; pings and their echoes reliably (perf_flow.c). */
	if (e->o->pr_policy != 0 && (flags & (PERF_F_PING | PERF_F_PONG)) == 0) {
		si.pr_policy = (uint32_t)e->o->pr_policy;
		si.pr_value = e->o->pr_value;
		flags |= PERF_F_PR;
	}
	perf_hdr_write(e->payload, seq, flags, tsc);
	int rc = dpsctp_client_send(e->c, 0, &si, e->payload, len, (uint64_t)(f - e->flows));
	if (rc == 0) {
		f->seq_out[sid] = seq + 1;
		e->sends_out++;
		perf_add(&s->c.msgs_sent, 1);
		perf_add(&s->c.bytes_sent, len);
	} else if (rc == -EAGAIN) {
		e->full = true;
	} else if (rc == -EMSGSIZE) {
		fprintf(stderr,
			"%s: a %u-byte message is larger than dpsctpd's arena (--arena-bytes)\n",
			s->name, len);
		e->gone = true;
	} else {
		psc_fatal(e, "send", rc);
	}
	return rc;
}

static uint16_t
psc_next_sid(struct psc_flow *f)
{
	uint16_t sid = f->next_sid;
	f->next_sid = (uint16_t)(sid + 1u == f->streams ? 0u : sid + 1u);
	return sid;
}

/*
 * --reset-every through dpsctpd: as perf_flow.c's reset_step(), with the
 * call's result in a completion. -EAGAIN there (messages still queued on
 * the stream in the data plane) or -EINPROGRESS: asked again next time.
 */
static void
psc_reset_step(struct psc_end *e, struct psc_flow *f, bool skip0)
{
	struct perf_side *s = &e->side;
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
		f->reset_state = PSC_RESET_POST;
	}
	if (f->reset_state != PSC_RESET_POST)
		return;
	uint16_t sid = (uint16_t)f->resetting;
	int rc = dpsctp_client_reset_streams(e->c, 0, f->assoc, DPSCTP_CLIENT_RESET_OUTGOING, &sid,
					     1, (uint64_t)(f - e->flows));
	if (rc == 0) {
		f->reset_state = PSC_RESET_POSTED;
		f->reset_tsc = now;
	} else if (rc == -EAGAIN) {
		e->full = true;
	} else {
		perf_add(&s->c.resets_refused, 1);
		f->resetting = -1;
		f->resets_off = true;
	}
}

/* The reset request's completion: asked, to be asked again, or refused. */
static void
psc_reset_done(struct psc_end *e, struct psc_flow *f, int status)
{
	if (f == NULL || f->resetting < 0 || f->reset_state != PSC_RESET_POSTED)
		return;
	if (status == 0) {
		f->reset_state = PSC_RESET_ASKED;
	} else if (status == -EAGAIN || status == -EINPROGRESS) {
		f->reset_state = PSC_RESET_POST;
	} else {
		perf_add(&e->side.c.resets_refused, 1); /* -EOPNOTSUPP: not negotiated */
		f->resetting = -1;
		f->resets_off = true;
	}
}

/* STREAM_RESET: our reset's answer (the stream takes messages again), or the peer's. */
static void
psc_stream_reset(struct psc_end *e, struct psc_flow *f, const struct dpsctp_client_event *ev)
{
	struct perf_side *s = &e->side;
	uint32_t fl = ev->stream_reset.flags;
	bool refused = (fl & (DPSCTP_CLIENT_RESET_DENIED | DPSCTP_CLIENT_RESET_FAILED)) != 0;
	if ((fl & DPSCTP_CLIENT_RESET_OUTGOING_SSN) && f->resetting >= 0 &&
	    f->reset_state == PSC_RESET_ASKED) {
		uint64_t now = rte_rdtsc();
		if (refused) {
			perf_add(&s->c.resets_denied, 1);
		} else {
			perf_add(&s->c.resets, 1);
			perf_hist_add(&s->reset_rtt, (now - f->reset_tsc) * 1000000000ull / s->hz);
		}
		f->resetting = -1;
		f->next_reset_tsc = now + s->reset_every_tsc;
		return;
	}
	/* The peer's --reset-every: counted, as an embedded receiver counts it. */
	if ((fl & DPSCTP_CLIENT_RESET_INCOMING_SSN) && !refused)
		perf_add(&s->c.resets_in, 1);
}

/* Answers first (a ping's echo, --echo), then pings and data; true when it sent. */
static bool
psc_pump(struct psc_end *e, struct psc_flow *f)
{
	const struct perf_opts *o = e->o;
	bool did = false;

	if (!f->up || f->closing || e->full || e->gone)
		return false;
	if (f->pong_due) {
		if (psc_send(e, f, f->pong_sid, f->pong_len, PERF_F_PONG, f->pong_tsc) != 0)
			return did;
		f->pong_due = false;
		did = true;
	}
	while (f->owed != 0) {
		if (psc_send(e, f, psc_next_sid(f), f->owed_len, 0, 0) != 0)
			return did;
		f->owed--;
		did = true;
	}
	if (phase != PERF_RUN)
		return did;
	if (e->side.is_client && o->ping && !f->ping_outstanding) {
		if (psc_send(e, f, 0, o->ping_len, PERF_F_PING, rte_rdtsc()) != 0)
			return did;
		f->ping_outstanding = true;
		did = true;
	}
	if (!f->sender)
		return did;
	uint16_t fl = e->side.is_client && o->bidir ? PERF_F_BIDIR : 0;
	/* With --ping and another stream, pings keep stream 0: resets take the rest. */
	bool skip0 = o->ping && f->streams > 1;
	if (e->side.reset_every_tsc != 0 && e->side.is_client) {
		psc_reset_step(e, f, skip0);
		/* The only data stream is being reset: nothing to send meanwhile. */
		if (f->resetting >= 0 && f->streams <= (skip0 ? 2u : 1u))
			return did;
	}
	unsigned sent = 0;
	for (; sent < o->burst; sent++) {
		uint16_t sid = psc_next_sid(f);
		if (skip0 && sid == 0)
			sid = psc_next_sid(f);
		if (sid == f->resetting) {
			sid = psc_next_sid(f);
			if (skip0 && sid == 0)
				sid = psc_next_sid(f);
		}
		if (psc_send(e, f, sid, f->len, fl, 0) != 0) {
			f->next_sid = sid; /* the same stream next time */
			break;
		}
	}
	return did || sent != 0;
}

/* One RECV (a message or a piece): its bytes counted; a message's end checked and answered. */
static void
psc_recv(struct psc_end *e, struct psc_flow *f, const struct dpsctp_client_event *ev)
{
	struct perf_side *s = &e->side;
	if (ev->recv.flags & DPSCTP_CLIENT_ABORTED) {
		/* PR-SCTP: the sender abandoned the message in parts; not received. */
		f->partial = false;
		return;
	}
	perf_add(&s->c.bytes_recv, ev->recv.len);
	if (!f->partial) {
		f->partial_hdr = perf_hdr_decode(ev->recv.data, ev->recv.len, &f->ph);
		f->partial_sid = ev->recv.sid;
		f->partial_flags = ev->recv.flags;
		f->partial_len = 0;
		if (f->partial_hdr && ev->recv.ppid != htonl(PERF_PPID))
			s->errors++;
	}
	f->partial_len += ev->recv.len;
	f->partial = (ev->recv.flags & DPSCTP_CLIENT_MORE) != 0;
	if (f->partial)
		return;
	perf_add(&s->c.msgs_recv, 1);
	if (!f->partial_hdr)
		return; /* another tool's message */
	const struct perf_hdr *h = &f->ph;
	uint16_t sid = f->partial_sid;
	if ((f->partial_flags & DPSCTP_CLIENT_UNORDERED) == 0 && sid < f->in_streams)
		perf_seq_check(s, &f->seq_in[sid], h);
	/* A client's own ping back unchanged is its pong too: a plain echo
	 * server (dpsctp-echo, dpsctpd --loopback-peer echo) does not flip it. */
	if ((h->flags & PERF_F_PONG) || (s->is_client && (h->flags & PERF_F_PING))) {
		uint64_t rtt = rte_rdtsc() - h->tsc;
		perf_hist_add(&s->lat, (uint64_t)((double)rtt * 1e9 / 2.0 / (double)s->hz));
		perf_add(&s->c.pings, 1);
		f->ping_outstanding = false;
		return;
	}
	uint32_t whole = f->partial_len < e->payload_len ? f->partial_len : e->payload_len;
	if (h->flags & PERF_F_PING) {
		f->pong_due = true;
		f->pong_sid = sid < f->streams ? sid : 0;
		f->pong_len = whole;
		f->pong_tsc = h->tsc;
	} else if (e->o->echo && !s->is_client) {
		f->owed++;
		f->owed_len = whole;
	}
	if ((h->flags & PERF_F_BIDIR) && !s->is_client && !f->sender) {
		f->sender = true;
		f->len = whole;
	}
	if (f->pong_due || f->owed != 0)
		(void)psc_pump(e, f); /* at once: a ping's echo waits for no loop */
}

static void
psc_completion(struct psc_end *e, const struct dpsctp_client_event *ev)
{
	struct perf_side *s = &e->side;
	struct psc_flow *f =
		ev->completion.cookie < e->max_flows ? &e->flows[ev->completion.cookie] : NULL;
	switch (ev->completion.op) {
	case DPSCTP_CLIENT_OP_BARRIER:
		e->barrier_done = true;
		return;
	case DPSCTP_CLIENT_OP_SEND:
		if (ev->completion.status == 0)
			return;
		/*
		 * A server's answers race the client's SHUTDOWN (-ENOTCONN once it
		 * came; dpsctpd has no SHUTDOWN_EVENT to say so first): counted, as
		 * the embedded server counts them. A client's sends are the test.
		 */
		if (!s->is_client || (f != NULL && (f->closing || f->ended))) {
			s->refused++;
			return;
		}
		if (e->send_errors++ < PSC_SHOWN)
			fprintf(stderr, "%s: dpsctpd refused a send: %s\n", s->name,
				strerror(-ev->completion.status));
		return;
	case DPSCTP_CLIENT_OP_CONNECT:
		if (f == NULL)
			return;
		if (ev->completion.status != 0) {
			char why[160];
			snprintf(why, sizeof(why), "refused by dpsctpd: %s%s",
				 strerror(-ev->completion.status),
				 ev->completion.status == -ENOBUFS ||
						 ev->completion.status == -ENOMEM
					 ? " (its --app-assocs, --max-assocs)"
					 : "");
			psc_flow_end(e, f, false, why, 0);
			return;
		}
		f->assoc = ev->assoc;
		psc_map_put(e, ev->assoc, (uint32_t)ev->completion.cookie);
		return;
	case DPSCTP_CLIENT_OP_LISTEN:
		e->listen_status = ev->completion.status;
		return;
	case DPSCTP_CLIENT_OP_SHUTDOWN:
	case DPSCTP_CLIENT_OP_ABORT:
		/* -ENOENT: it had ended already (its event is on the way or came). */
		if (ev->completion.status != 0 && ev->completion.status != -ENOENT)
			fprintf(stderr, "%s: %s: %s\n", s->name,
				ev->completion.op == DPSCTP_CLIENT_OP_SHUTDOWN ? "shutdown"
									       : "abort",
				strerror(-ev->completion.status));
		return;
	case DPSCTP_CLIENT_OP_GET_SCHED:
		if (ev->completion.status == 0)
			perf_side_sched(s, (int)ev->completion.value);
		return;
	case DPSCTP_CLIENT_OP_UNLISTEN:
	case DPSCTP_CLIENT_OP_SET_SCHED:
	case DPSCTP_CLIENT_OP_SET_STREAM_PARAM:
	case DPSCTP_CLIENT_OP_GET_STREAM_PARAM:
	case DPSCTP_CLIENT_OP_RESET_STREAMS:
		psc_reset_done(e, f, ev->completion.status);
		return;
	case DPSCTP_CLIENT_OP_SETOPT: {
		/* The options of the command line, the application's defaults
		 * (psc_setopts()): a refusal ends the run, as a bad flag would. */
		const char *name =
			dpsctp_opt_name((enum dpsctp_opt)(ev->completion.cookie - PSC_COOKIE_OPT));
		char what[64];
		snprintf(what, sizeof(what), "dpsctpd refused option %s",
			 name != NULL ? name : "?");
		if (e->opts_pending != 0)
			e->opts_pending--;
		if (ev->completion.status != 0)
			psc_fatal(e, what, ev->completion.status);
		return;
	}
	case DPSCTP_CLIENT_OP_ADD_STREAMS:
	case DPSCTP_CLIENT_OP_RESET_ASSOC:
	case DPSCTP_CLIENT_OP_GETOPT:
		return; /* never asked */
	}
}

/* A server's new association. */
static void
psc_accept(struct psc_end *e, const struct dpsctp_client_event *ev)
{
	struct perf_side *s = &e->side;
	if (psc_map_get(e, ev->assoc) != NULL) {
		e->strays++;
		return;
	}
	if (s->n_flows == e->max_flows) {
		fprintf(stderr, "%s: more than %u associations: aborting the new one\n", s->name,
			e->max_flows);
		(void)dpsctp_client_abort(e->c, 0, ev->assoc, PSC_COOKIE_LISTEN);
		return;
	}
	struct psc_flow *f = &e->flows[s->n_flows];
	memset(f, 0, sizeof(*f));
	f->assoc = ev->assoc;
	f->len = e->o->len;
	psc_map_put(e, ev->assoc, s->n_flows++);
	psc_flow_up(e, f, ev);
}

static void
psc_event(struct psc_end *e, const struct dpsctp_client_event *ev)
{
	if (ev->kind == DPSCTP_CLIENT_COMPLETION) {
		psc_completion(e, ev);
		return;
	}
	if (ev->kind == DPSCTP_CLIENT_DAEMON_STOPPING) {
		if (!e->gone)
			fprintf(stderr, "%s: dpsctpd is stopping\n", e->side.name);
		e->gone = true;
		return;
	}
	if (ev->kind == DPSCTP_CLIENT_COMM_UP && !e->side.is_client) {
		psc_accept(e, ev);
		return;
	}
	struct psc_flow *f = psc_map_get(e, ev->assoc);
	if (f == NULL || f->ended) {
		e->strays++;
		return;
	}
	switch (ev->kind) {
	case DPSCTP_CLIENT_COMM_UP:
		if (!f->up)
			psc_flow_up(e, f, ev);
		break;
	case DPSCTP_CLIENT_RECV:
		psc_recv(e, f, ev);
		break;
	case DPSCTP_CLIENT_COMM_LOST:
		psc_flow_end(e, f, false, "lost", ev->assoc_change.error);
		break;
	case DPSCTP_CLIENT_CANT_START:
		psc_flow_end(e, f, false, "did not start", ev->assoc_change.error);
		break;
	case DPSCTP_CLIENT_SHUTDOWN_COMPLETE:
		psc_flow_end(e, f, true, NULL, 0);
		break;
	case DPSCTP_CLIENT_RESTART:
		e->side.restarts++;
		if (f->seq_in != NULL)
			memset(f->seq_in, 0,
			       (f->in_streams ? f->in_streams : 1) * sizeof(*f->seq_in));
		f->partial = false;
		break;
	case DPSCTP_CLIENT_SEND_FAILED:
		/* Abandoned by its PR-SCTP policy, or not acknowledged at the close. */
		if (ev->send_failed.pr_policy != DPSCTP_CLIENT_PR_NONE) {
			perf_add(&e->side.c.abandoned_msgs, 1);
			perf_add(&e->side.c.abandoned_bytes, ev->send_failed.len);
			if (ev->send_failed.sent)
				perf_add(&e->side.c.abandoned_sent, 1);
		} else {
			e->undelivered++;
		}
		break;
	case DPSCTP_CLIENT_SHUTDOWN_EVENT:
		f->closing = true;
		break;
	case DPSCTP_CLIENT_STREAM_RESET:
		psc_stream_reset(e, f, ev);
		break;
	default:
		break;
	}
}

/* A client's associations, as far as the request ring has room. */
static void
psc_connect_more(struct psc_end *e)
{
	while (e->next_connect < e->o->assocs && !e->gone) {
		struct psc_flow *f = &e->flows[e->next_connect];
		memset(f, 0, sizeof(*f));
		f->len = e->o->len;
		f->sender = !e->o->ping;
		int rc = dpsctp_client_connect(e->c, 0, e->peers, e->n_peers, e->port,
					       e->next_connect);
		if (rc == -EAGAIN)
			return;
		if (rc != 0) {
			psc_fatal(e, "connect", rc);
			return;
		}
		e->next_connect++;
		e->side.n_flows++;
	}
}

/* One loop iteration: poll, send what the flows may, account cycles (perf_side_iterate()). */
static void
psc_iterate(struct psc_end *e)
{
	struct perf_side *s = &e->side;
	uint64_t t0 = rte_rdtsc();
	bool work = false;

	psc_look_for_signals(t0, s->hz);
	e->full = false;
	for (unsigned k = 0; k < PSC_POLLS && !e->gone; k++) {
		int n = dpsctp_client_poll(e->c, 0, e->ev, PSC_EVENTS);
		if (n < 0) {
			psc_fatal(e, "poll", n);
			break;
		}
		for (int i = 0; i < n; i++)
			psc_event(e, &e->ev[i]);
		work |= n > 0;
		if ((unsigned)n < PSC_EVENTS)
			break;
	}
	if (s->is_client && e->next_connect < e->o->assocs)
		psc_connect_more(e);
	/* The flows take turns at going first: the ring fills for the later ones. */
	uint32_t n = s->n_flows;
	for (uint32_t i = 0; i < n && !e->full && !e->gone; i++)
		work |= psc_pump(e, &e->flows[(e->rr + i) % n]);
	if (n != 0)
		e->rr = (e->rr + 1) % n;
	uint64_t t1 = rte_rdtsc();
	perf_add(&s->c.loop_cycles, t1 - t0);
	perf_add(&s->c.polls, 1);
	if (work)
		perf_add(&s->c.busy_cycles, t1 - t0);
	else
		perf_add(&s->c.idle_polls, 1);
}

/* ---- the run ---- */

static void
psc_snap(struct perf_snap *sn, const struct perf_result *r)
{
	const struct perf_side *sides[2] = { r->tx, r->rx };
	memset(sn, 0, sizeof(*sn));
	sn->tsc = rte_rdtsc();
	for (int i = 0; i < 2; i++)
		if (sides[i] != NULL)
			sn->c[i] = sides[i]->c; /* one thread writes and reads them */
}

static void
psc_interval(const struct perf_result *r, struct perf_snap *prev, uint64_t *next, uint64_t now)
{
	if (r->o->interval <= 0 || now < *next)
		return;
	struct perf_snap cur;
	psc_snap(&cur, r);
	perf_report_interval(stdout, r, prev, &cur, r->o->json);
	*prev = cur;
	*next += (uint64_t)(r->o->interval * (double)r->hz);
}

/* "ADDR[,ADDR...]" as the embedded ends read it (app_parse_peers()): the count, or -1. */
static int
psc_parse_peers(const char *list, struct sctp_addr *a, unsigned max)
{
	struct sctp_addr in[PSC_MAX_PEERS];
	int n = app_parse_peers(list, in, max < PSC_MAX_PEERS ? max : PSC_MAX_PEERS);
	for (int i = 0; i < n; i++) {
		a[i].family = in[i].family;
		memcpy(a[i].bytes, in[i].bytes, sizeof(a[i].bytes));
	}
	return n > 0 ? n : -1;
}

static int
psc_init(struct psc_end *e, const struct perf_opts *o, uint64_t hz)
{
	memset(e, 0, sizeof(*e));
	e->o = o;
	e->side.name = o->server ? "server" : "client";
	e->side.o = o;
	e->side.is_client = !o->server;
	e->side.phase = &phase;
	e->side.hz = hz;
	e->max_flows = o->server ? PSC_SERVER_FLOWS : o->assocs;
	e->side.max_flows = e->max_flows;
	uint32_t cap = 16;
	while (cap < 2 * e->max_flows)
		cap *= 2;
	e->mask = cap - 1;
	e->flows = calloc(e->max_flows, sizeof(*e->flows));
	e->keys = calloc(cap, sizeof(*e->keys));
	e->vals = calloc(cap, sizeof(*e->vals));
	e->side.sched = PERF_SCHED_UNKNOWN; /* until dpsctpd says (psc_flow_up()) */
	e->payload_len = perf_payload_len(o);
	e->payload = malloc(e->payload_len);
	if (e->flows == NULL || e->keys == NULL || e->vals == NULL || e->payload == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < e->payload_len; i++)
		e->payload[i] = (uint8_t)(i * 131u + 7u);
	e->listen_status = 1;
	return 0;
}

static void
psc_fini(struct psc_end *e)
{
	for (uint32_t i = 0; e->flows != NULL && i < e->side.n_flows; i++) {
		free(e->flows[i].seq_out);
		free(e->flows[i].seq_in);
	}
	free(e->flows);
	free(e->keys);
	free(e->vals);
	free(e->payload);
	dpsctp_client_detach(e->c);
	memset(e, 0, sizeof(*e));
}

/* A server's next test: flows, handles, counters and intervals of its own. */
static void
psc_server_reset(struct psc_end *e)
{
	struct perf_side *s = &e->side;
	s->n_flows = s->flows_up = s->flows_ended = s->flows_lost = 0;
	s->errors = s->refused = s->restarts = s->skipped = 0;
	s->extensions = s->ext_flows = 0;
	s->sched = PERF_SCHED_UNKNOWN;
	memset(&s->c, 0, sizeof(s->c));
	memset(&s->lat, 0, sizeof(s->lat));
	memset(e->keys, 0, (e->mask + 1) * sizeof(*e->keys));
	e->send_errors = e->undelivered = 0;
	perf_report_reset();
}

static int
psc_server(struct psc_end *e, struct perf_result *res)
{
	const struct perf_opts *o = e->o;
	const uint64_t hz = res->hz;
	int rc = dpsctp_client_listen(e->c, 0, e->port, PSC_COOKIE_LISTEN);
	if (rc != 0) {
		fprintf(stderr, "server: listen: %s\n", strerror(-rc));
		return 3;
	}
	uint64_t deadline = rte_rdtsc() + 5 * hz;
	while (e->listen_status == 1 && !e->gone && !interrupted && rte_rdtsc() < deadline)
		psc_iterate(e);
	if (e->listen_status != 0) {
		fprintf(stderr, "server: dpsctpd did not listen on SCTP port %u: %s\n", e->port,
			e->listen_status == 1 ? "no answer in 5 s" : strerror(-e->listen_status));
		return 3;
	}
	/* On stderr (stdout may be JSON): a script knows when to start its client. */
	fprintf(stderr, "server: listening on SCTP port %u through dpsctpd\n", e->port);
	struct perf_side *s = &e->side;
	struct perf_snap prev;
	uint64_t next_iv = 0;
	bool measuring = false;
	while (!interrupted && !e->gone) {
		psc_iterate(e);
		uint64_t now = rte_rdtsc();
		if (!measuring && s->flows_up > s->flows_ended) {
			measuring = true;
			psc_snap(&res->start, res);
			prev = res->start;
			next_iv = now + (uint64_t)(o->interval * (double)hz);
		}
		if (measuring)
			psc_interval(res, &prev, &next_iv, now);
		if (measuring && s->flows_ended == s->n_flows) {
			psc_snap(&res->end, res);
			perf_report_end(stdout, res);
			if (o->json)
				perf_report_json(stdout, res);
			if (s->refused != 0 || e->undelivered != 0)
				fprintf(stderr,
					"server: %" PRIu64 " answers refused (the association "
					"was closing), %" PRIu64 " not acknowledged at the close\n",
					s->refused, e->undelivered);
			measuring = false;
			if (o->one_off)
				return 0;
			psc_server_reset(e);
		}
	}
	return e->gone ? 1 : 0;
}

/* Every send completed and every ping answered (or its association gone). */
static bool
psc_drained(const struct psc_end *e)
{
	if (!e->barrier_done)
		return false;
	for (uint32_t i = 0; i < e->side.n_flows; i++) {
		const struct psc_flow *f = &e->flows[i];
		if (f->up && f->ping_outstanding)
			return false;
		/* A reset asked for is seen through: its answer is in the report. */
		if (f->up && !f->ended && f->resetting >= 0 && f->reset_state != PSC_RESET_POST)
			return false;
	}
	return true;
}

/*
 * CLOSE: a SHUTDOWN for every association up, an ABORT for one still
 * starting, as far as the ring has room.
 */
static void
psc_shutdown_all(struct psc_end *e)
{
	for (uint32_t i = 0; i < e->side.n_flows && !e->gone; i++) {
		struct psc_flow *f = &e->flows[i];
		if (f->ended || f->closing || f->assoc == 0)
			continue;
		int rc = f->up ? dpsctp_client_shutdown(e->c, 0, f->assoc, i)
			       : dpsctp_client_abort(e->c, 0, f->assoc, i);
		if (rc == -EAGAIN)
			return;
		if (rc != 0) {
			psc_fatal(e, "shutdown", rc);
			return;
		}
		f->closing = true;
	}
}

/* The client's phases, as main.c's: RUN (connect, -t), DRAIN, CLOSE. */
static int
psc_client(struct psc_end *e, struct perf_result *res)
{
	const struct perf_opts *o = e->o;
	const uint64_t hz = res->hz;
	struct perf_side *s = &e->side;
	uint64_t t_up = 0, t_end = 0, next_iv = 0, deadline = rte_rdtsc() + 5 * hz;
	unsigned close_s = 10; /* CLOSE's deadline, for its message */
	struct perf_snap prev;
	bool measuring = false;
	int rc = 0;

	psc_connect_more(e);
	while (!e->gone) {
		psc_iterate(e);
		uint64_t now = rte_rdtsc();
		if (interrupted && phase < PERF_DRAIN) {
			if (res->end.tsc == 0 && t_up != 0)
				psc_snap(&res->end, res);
			phase = PERF_DRAIN;
			deadline = now + 10 * hz;
		}
		if (phase == PERF_RUN) {
			if (t_up == 0) {
				if (s->flows_up == o->assocs) {
					t_up = now;
					t_end = t_up + (uint64_t)(o->seconds * (double)hz);
				} else if (now > deadline || s->flows_lost != 0) {
					fprintf(stderr, "dpsctp-perf: %u of %u associations up\n",
						s->flows_up, o->assocs);
					rc = 1;
					phase = PERF_CLOSE;
					close_s = 2;
					deadline = now + close_s * hz;
				}
				continue;
			}
			if (!measuring && now >= t_up + (uint64_t)(o->omit * (double)hz)) {
				measuring = true;
				psc_snap(&res->start, res);
				prev = res->start;
				next_iv = res->start.tsc + (uint64_t)(o->interval * (double)hz);
			}
			if (measuring)
				psc_interval(res, &prev, &next_iv, now);
			if (s->flows_lost != 0 || now >= t_end) {
				psc_snap(&res->end, res);
				phase = PERF_DRAIN;
				deadline = now + 10 * hz;
			}
		} else if (phase == PERF_DRAIN) {
			/* Behind every send: its completion means all were served. */
			if (!e->barrier_posted && !e->gone &&
			    dpsctp_client_barrier(e->c, 0, UINT64_MAX) == 0)
				e->barrier_posted = true;
			bool drained = psc_drained(e);
			if (drained || now > deadline) {
				if (!drained) {
					fprintf(stderr,
						"dpsctp-perf: the barrier after %" PRIu64
						" sends not "
						"completed by dpsctpd (or pings unanswered) after "
						"10 s\n",
						e->sends_out);
					rc = 1;
				}
				phase = PERF_CLOSE;
				deadline = now + close_s * hz;
			}
		} else if (phase == PERF_CLOSE) {
			psc_shutdown_all(e);
			if (s->flows_ended == s->n_flows && e->next_connect == o->assocs)
				break;
			if (now > deadline) {
				fprintf(stderr,
					"dpsctp-perf: %u association%s not closed after %u s\n",
					s->n_flows - s->flows_ended,
					s->n_flows - s->flows_ended == 1 ? "" : "s", close_s);
				rc = 1;
				break;
			}
		}
	}
	phase = PERF_EXIT;
	if (res->end.tsc != 0) {
		perf_report_end(stdout, res);
		if (o->json)
			perf_report_json(stdout, res);
	}
	if (e->send_errors != 0 || e->undelivered != 0)
		fprintf(stderr,
			"dpsctp-perf: %" PRIu64 " sends refused by dpsctpd, %" PRIu64
			" messages not acknowledged at the close (SEND_FAILED)\n",
			e->send_errors, e->undelivered);
	if (e->gone || s->flows_lost != 0 || s->errors != 0 || e->send_errors != 0 ||
	    e->undelivered != 0)
		rc = 1;
	return rc;
}

/*
 * The per-association options of the command line (docs/OPTIONS.md's keys,
 * as an embedded end's configuration takes them) become this
 * application's defaults in dpsctpd (SETOPT with association 0) before the
 * first CONNECT or LISTEN: every association of the test, connected or
 * accepted, starts with them, as an embedded end's instance's do. The
 * daemon's own configuration is not touched (other applications keep
 * theirs). The library checks each value, dpsctpd again and against the
 * values in force: a refusal ends the run.
 */
static const char *const psc_opt_keys[] = {
	"rto-initial",	    "rto-min",		"rto-max",     "assoc-max-retrans", "cookie-life",
	"max-init-retrans", "max-init-timeout", "hb-interval", "path-max-retrans",  "sack-delay",
	"sack-freq",	    "max-burst",	"maxseg",
};
static struct dpsctp_config psc_cfg;
static bool psc_have_cfg;

bool
perf_sidecar_key(const char *name)
{
	for (size_t i = 0; i < sizeof(psc_opt_keys) / sizeof(psc_opt_keys[0]); i++)
		if (strcmp(name, psc_opt_keys[i]) == 0)
			return true;
	return false;
}

void
perf_sidecar_opts(const struct dpsctp_config *cfg)
{
	psc_cfg = *cfg;
	psc_have_cfg = true;
}

static int
psc_setopt(struct psc_end *e, enum dpsctp_opt opt, const void *v, uint32_t len)
{
	char why[160];
	int rc = dpsctp_client_setopt(e->c, 0, 0, opt, v, len, PSC_COOKIE_OPT + (uint64_t)opt, why,
				      sizeof(why));
	if (rc != 0) {
		fprintf(stderr, "dpsctp-perf: %s\n", rc == -EINVAL ? why : strerror(-rc));
		return rc;
	}
	e->opts_pending++;
	return 0;
}

/* 0 once dpsctpd took every option set on the command line; else the exit status. */
static int
psc_setopts(struct psc_end *e, uint64_t hz)
{
	const struct dpsctp_config *g = &psc_cfg;
	int rc = 0;
	if (!psc_have_cfg)
		return 0;
	if (g->rto_initial_us != 0 || g->rto_min_us != 0 || g->rto_max_us != 0) {
		struct dpsctp_rtoinfo v = { g->rto_initial_us, g->rto_min_us, g->rto_max_us };
		rc |= psc_setopt(e, DPSCTP_OPT_RTOINFO, &v, sizeof(v));
	}
	if (g->assoc_max_retrans != 0 || g->cookie_life_ms != 0) {
		struct dpsctp_associnfo v = { .max_retrans = (uint16_t)g->assoc_max_retrans,
					      .cookie_life_ms = g->cookie_life_ms };
		rc |= psc_setopt(e, DPSCTP_OPT_ASSOCINFO, &v, sizeof(v));
	}
	if (g->max_init_retrans != 0 || g->max_init_timeout_us != 0) {
		struct dpsctp_initmsg v = { .max_attempts = (uint16_t)g->max_init_retrans,
					    .max_init_timeo_us = g->max_init_timeout_us };
		rc |= psc_setopt(e, DPSCTP_OPT_INITMSG, &v, sizeof(v));
	}
	if (g->hb_interval_us != 0 || g->path_max_retrans != 0) {
		struct dpsctp_paddrparams v = { .hb_interval_us = g->hb_interval_us,
						.path_max_retrans = (uint16_t)g->path_max_retrans };
		rc |= psc_setopt(e, DPSCTP_OPT_PEER_ADDR_PARAMS, &v, sizeof(v));
	}
	if (g->sack_delay_us != 0 || g->sack_freq != 0) {
		struct dpsctp_sack_info v = { g->sack_delay_us, g->sack_freq };
		rc |= psc_setopt(e, DPSCTP_OPT_DELAYED_SACK, &v, sizeof(v));
	}
	if (g->max_burst != 0) {
		struct dpsctp_assoc_value v = { g->max_burst };
		rc |= psc_setopt(e, DPSCTP_OPT_MAX_BURST, &v, sizeof(v));
	}
	if (g->maxseg != 0) {
		struct dpsctp_assoc_value v = { g->maxseg };
		rc |= psc_setopt(e, DPSCTP_OPT_MAXSEG, &v, sizeof(v));
	}
	if (rc != 0)
		return 2;
	uint64_t deadline = rte_rdtsc() + 5 * hz;
	while (e->opts_pending != 0 && !e->gone && !interrupted && rte_rdtsc() < deadline)
		psc_iterate(e);
	if (e->opts_pending != 0 && !e->gone)
		fprintf(stderr, "dpsctp-perf: dpsctpd did not answer the options in 5 s\n");
	return e->opts_pending != 0 || e->gone ? 2 : 0;
}

int
perf_sidecar_run(const struct perf_opts *o, uint16_t port)
{
	static struct psc_end e;
	struct perf_result res;
	memset(&res, 0, sizeof(res));
	res.o = o;
	res.role = o->server ? "server" : "client";
	res.sidecar = true;
	snprintf(res.lcores, sizeof(res.lcores), "one thread busy-polls dpsctpd's rings");

	if (psc_init(&e, o, 0) != 0) {
		fprintf(stderr, "dpsctp-perf: no memory for %u flows\n", e.max_flows);
		psc_fini(&e);
		return 3;
	}
	e.port = port;
	if (!o->server) {
		int n = psc_parse_peers(o->peer, e.peers, PSC_MAX_PEERS);
		if (n < 0) {
			fprintf(stderr,
				"dpsctp-perf: bad peer address list \"%s\" (1 to %u IPv4 or IPv6 "
				"addresses through dpsctpd)\n",
				o->peer, PSC_MAX_PEERS);
			psc_fini(&e);
			return 2;
		}
		e.n_peers = (unsigned)n;
	}
	struct dpsctp_client_opts co = { .threads = 1,
					 .name = "dpsctp-perf",
					 .zero_copy = o->zero_copy };
	int err;
	e.c = dpsctp_client_attach(o->sidecar, &co, &err);
	if (e.c == NULL) {
		fprintf(stderr, "dpsctp-perf: cannot attach to dpsctpd at %s: %s\n", o->sidecar,
			strerror(-err));
		psc_fini(&e);
		return 3;
	}
	res.zero_copy = dpsctp_client_zero_copy(e.c) != 0;
	if (o->zero_copy && !res.zero_copy)
		fprintf(stderr, "dpsctp-perf: dpsctpd did not grant zero copy (start it with "
				"--zero-copy); receiving by copy\n");
	res.hz = psc_tsc_hz();
	e.side.hz = res.hz;
	e.side.reset_every_tsc = (uint64_t)(o->reset_ms * 1e-3 * (double)res.hz);
	psc_block_signals();
	int orc = psc_setopts(&e, res.hz);
	if (orc != 0) {
		psc_fini(&e);
		return orc;
	}
	if (o->server)
		res.rx = &e.side;
	else
		res.tx = &e.side;
	if (!o->json)
		printf("dpsctp-perf %s: %s through dpsctpd (%s), %u-byte messages, %u stream%s, %u "
		       "association%s, %s\n",
		       dpsctp_version(), res.role, o->sidecar, o->len, o->streams,
		       o->streams == 1 ? "" : "s", o->assocs, o->assocs == 1 ? "" : "s",
		       res.lcores);
	fflush(stdout);
	int rc = o->server ? psc_server(&e, &res) : psc_client(&e, &res);
	if (e.strays != 0)
		fprintf(stderr, "dpsctp-perf: %" PRIu64 " events named associations unknown here\n",
			e.strays);
	psc_fini(&e);
	return rc;
}
