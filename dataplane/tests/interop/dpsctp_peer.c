/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctp-peer: the data plane's side of the interop harness
 * (docs/INTEROP.md). It speaks the same message format (interop_msg.h) and
 * takes the same options as usrsctp-peer, so every case runs with either
 * program in either role.
 *
 *   client: connect to PEER[,PEER...], send --batches of -n messages over
 *           -S streams (sizes 1 byte .. -l, every other one unordered),
 *           with --echo check that each comes back intact exactly once;
 *           --hold S idles between batches and before closing; then a
 *           graceful close, or --abort. --reconnect: a lost association is
 *           set up again and the batch sent again.
 *   server: accept associations; --echo sends every message back on its
 *           stream with its PPID and U bit; --close-after N starts the
 *           shutdown once N messages were echoed, --abort-after N aborts on
 *           the Nth; --once exits when the first association ends.
 *           --check (receive only): every message is checked instead —
 *           each of the client's -n at most once, byte-correct, on its
 *           stream, in order on the ordered streams — and the missing ones
 *           listed.
 *
 * --pr ttl:MS|rtx:N: the client sends every message with that PR-SCTP
 * policy (dpsctp_sndinfo.pr_policy, pr_value), without --echo, and lists
 * the messages DPSCTP_EV_SEND_FAILED said were abandoned. At the end of an
 * association both roles print its PR-SCTP statistics ("stats: ..."), and
 * --counters adds them to the file as stats.<field>.
 *
 * --big BYTES: every fifth message is large (interop_msg.h; the send buffer,
 * --sndbuf, must hold one). Messages in parts (DPSCTP_MSG_MORE, _CONT) are
 * put together per (stream, U bit, MID): under I-DATA the parts of several
 * messages may come between each other (dpsctp_msg.mid). At COMM_UP both roles print the negotiated
 * extensions ("..., extensions pr-sctp,i-data").
 *
 * --reconf out:SIDS@N | in:SIDS@N | add:OUT,IN@N | assoc@N (client): once N
 * messages were sent and, with --echo, all of them came back, the client
 * resets its outgoing or incoming streams SIDS (a comma list, empty for all:
 * dpsctp_reset_streams(), called again while it says -EAGAIN), adds
 * streams (dpsctp_add_streams()) or resets the association, every stream's
 * SSN and both sides' TSNs (dpsctp_reset_assoc(), called again while it
 * says -EAGAIN: something of ours not yet acknowledged), and sends nothing
 * more until the event that answers it; after an add the messages spread
 * over -S plus the larger of OUT and IN streams. Both roles print the
 * stream reset, association reset and stream change events as usrsctp-peer
 * does ("client: stream-reset: outgoing, streams 2", "server: assoc-reset:
 * performed, local tsn 1234, remote tsn 5678", "server: stream-change:
 * performed, 12 in, 16 out"). With --echo, echoes on an ordered stream
 * must come back in the order sent.
 *
 * --primary ADDR: once the association is up, and the path to ADDR (one of
 * the peer's addresses) confirmed, the peer's ADDR is made the primary path
 * (DPSCTP_OPT_PRIMARY_ADDR, SET PRIMARY, RFC 9260 §5.1.2): a client's
 * primary is the first address it connects to, a server's the one the INIT
 * came from (§6.4), and a case may need another. "<role>: primary ADDR set"
 * once done; a refusal other than "not confirmed yet" fails the run.
 *
 * Lines on stdout say what happened ("server: association up", "client:
 * batch 0: 100 sent, 100 echoed, 0 bad", "server: restart", "... peer
 * closed (shutdown)"); the harness waits for and checks them. With
 * --expect abort the run passes only when the peer aborted the
 * association. --counters FILE writes the data plane's non-zero counters
 * at exit ("name value" lines). --linger S polls on S seconds after the end
 * (default 0.05): a peer whose last SHUTDOWN COMPLETE was lost then gets the
 * §8.4 answer to its retransmitted SHUTDOWN ACK, not silence. Exit status: 0 as expected, 1 not, 2
 * bad usage, 3 the data plane would not start.
 *
 * The main thread polls the instance (dpsctp_poll()), so every callback and
 * every call runs on it: no locks.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include "dataplane/config.h"
#include "dataplane/dpsctp.h"
#include "dataplane/tests/interop/interop_msg.h"
#include "dataplane/tests/interop/interop_reconf.h"

#define PEER_MAX_STREAMS 64u
#define PEER_MAX_ADDRS	 4u

static volatile sig_atomic_t stop_requested;

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct opts {
	bool server, echo, do_abort, once, reconnect, expect_abort, check;
	uint32_t pr_policy, pr_value; /* --pr: DPSCTP_PR_TTL or _RTX, else DPSCTP_PR_NONE */
	uint32_t n, max, big, streams, batches;
	uint32_t close_after, abort_after;
	double hold_s;
	double linger_s; /* poll on after the end: late packets get their §8.4 answer */
	uint16_t port, lport;
	const char *counters;
	/* --reconf (interop_reconf.h) */
	struct interop_reconf rc;
	/* --primary: the peer address made primary once the association is up */
	struct sctp_addr primary;
	bool has_primary;
};

/* The client's request: not yet due, due (waiting for the echoes, or for
 * dpsctp to take it), asked (waiting for the answer), answered. */
enum { REQ_IDLE, REQ_DUE, REQ_ASKED, REQ_DONE };

/*
 * A message being put together from partial deliveries (DPSCTP_MSG_MORE):
 * which one (stream, U bit, MID), its first part's PPID, and the bytes.
 */
struct rx_msg {
	bool used;
	uint16_t sid;
	uint32_t mid, unordered, ppid;
	uint8_t *buf;
	uint32_t len, cap;
};

#define PEER_RX_PARTIAL 16u /* messages in parts at once, per association */

/* One association's state (a server may hold several). */
struct conn {
	const struct opts *o;
	struct dpsctp_assoc *a;
	bool up, ended, aborted_by_peer, closing;
	bool primary_set; /* --primary done on this association */
	/* client */
	uint32_t batch, sent, back, bad, batches_done;
	uint32_t streams; /* the messages' streams: -S, more after an add */
	int req;	  /* REQ_* */
	uint64_t ask_at;  /* an association reset: asked then (0: not yet due) */
	uint8_t *seen;
	uint64_t hold_until;
	/* --pr: messages reported abandoned (SEND_FAILED with a policy), and
	 * SEND_FAILED events without one */
	uint8_t *abandoned;
	uint32_t send_failed;
	/* the association's statistics at its end */
	struct dpsctp_assoc_stats st;
	bool have_st;
	/* server */
	uint64_t msgs, echoed;
	/* --check */
	uint8_t *got;
	int64_t last[PEER_MAX_STREAMS];
	uint32_t n_got, dup, disorder, wrong;
	struct echo_q {
		uint8_t *bytes;
		uint32_t len;
		struct dpsctp_sndinfo si;
		struct echo_q *next;
	} * q_head, *q_tail;
	struct rx_msg rx[PEER_RX_PARTIAL];
};

static uint8_t sendbuf[INTEROP_MAX_LEN];

static uint64_t
now_cycles(void)
{
	return rte_get_tsc_cycles();
}

static void
conn_free_queues(struct conn *c)
{
	while (c->q_head != NULL) {
		struct echo_q *e = c->q_head;
		c->q_head = e->next;
		free(e->bytes);
		free(e);
	}
	c->q_tail = NULL;
	for (unsigned i = 0; i < PEER_RX_PARTIAL; i++) {
		free(c->rx[i].buf);
		memset(&c->rx[i], 0, sizeof(c->rx[i]));
	}
}

/* Server: send queued echoes while the send buffer takes them. */
static void
echo_drain(struct conn *c)
{
	while (c->a != NULL && c->q_head != NULL) {
		struct echo_q *e = c->q_head;
		int rc = dpsctp_send_bytes(c->a, &e->si, e->bytes, e->len);
		if (rc == -EAGAIN || rc == -ENOMEM || rc == -ENOBUFS)
			return; /* on_space calls again */
		if (rc != 0) {
			fprintf(stderr, "server: echo of %u bytes: %s\n", e->len, strerror(-rc));
			c->bad++;
		} else {
			c->echoed++;
		}
		c->q_head = e->next;
		if (c->q_head == NULL)
			c->q_tail = NULL;
		free(e->bytes);
		free(e);
	}
	if (c->a != NULL && c->o->close_after != 0 && !c->closing &&
	    c->echoed >= c->o->close_after) {
		c->closing = true;
		printf("server: %llu echoed, shutting down\n", (unsigned long long)c->echoed);
		fflush(stdout);
		(void)dpsctp_shutdown(c->a);
	}
}

/*
 * Client: send the current batch as far as the buffer allows. The embedded
 * API's PPID is a number (the core writes it big-endian), where the socket
 * API's is the field's bytes: message seq's PPID is seq here and
 * htonl(seq) in interop_peer.c, the same on the wire.
 */
static void
client_pump(struct conn *c)
{
	const struct opts *o = c->o;
	while (c->a != NULL && c->hold_until == 0 && c->sent < o->n) {
		uint32_t seq = c->batch * o->n + c->sent;
		if (o->rc.kind != RECONF_NONE && seq == o->rc.at && c->req != REQ_DONE) {
			if (c->req == REQ_IDLE)
				c->req = REQ_DUE; /* the main loop asks */
			return;
		}
		uint32_t len = interop_size(seq, o->max, o->big);
		interop_fill(seq, sendbuf, len);
		struct dpsctp_sndinfo si = { (uint16_t)(seq % c->streams),
					     seq,
					     interop_unordered(seq) ? DPSCTP_SEND_UNORDERED : 0,
					     o->pr_policy,
					     o->pr_value,
					     0 };
		int rc = dpsctp_send_bytes(c->a, &si, sendbuf, len);
		if (rc == -EAGAIN || rc == -ENOMEM || rc == -ENOBUFS)
			return;
		if (rc != 0) {
			fprintf(stderr, "client: send %u (%u bytes): %s\n", seq, len,
				strerror(-rc));
			c->bad++;
			c->sent = o->n;
			return;
		}
		c->sent++;
	}
}

/* An echo: one of this batch, intact, not seen before, and on an ordered
 * stream after the ones sent before it (c->last, -1 none). */
static void
client_check(struct conn *c, const struct dpsctp_msg *m, uint32_t ppid, const uint8_t *b,
	     uint32_t len)
{
	const struct opts *o = c->o;
	uint32_t seq = ppid;
	uint32_t first = c->batch * o->n;
	if (seq >= first && seq < first + o->n && !c->seen[seq - first] &&
	    interop_check(seq, o->max, o->big, b, len)) {
		c->seen[seq - first] = 1;
	} else {
		fprintf(stderr, "client: bad echo: seq %u, %u bytes\n", seq, len);
		c->bad++;
	}
	if (!(m->flags & DPSCTP_MSG_UNORDERED) && m->sid < PEER_MAX_STREAMS) {
		if ((int64_t)seq <= c->last[m->sid]) {
			fprintf(stderr, "client: echo %u after %lld on stream %u\n", seq,
				(long long)c->last[m->sid], m->sid);
			c->bad++;
		}
		c->last[m->sid] = seq;
	}
	c->back++;
}

/* --check: what a receiver of partially reliable messages may see (interop_peer.c's
 * check_msg()). */
static void
server_check(struct conn *c, const struct dpsctp_msg *m, uint32_t ppid, const uint8_t *b,
	     uint32_t len)
{
	const struct opts *o = c->o;
	uint32_t seq = ppid;
	bool unordered = (m->flags & DPSCTP_MSG_UNORDERED) != 0;
	c->n_got++;
	if (c->got == NULL) {
		if ((c->got = calloc(o->n ? o->n : 1, 1)) == NULL) {
			c->wrong++;
			return;
		}
		for (unsigned i = 0; i < PEER_MAX_STREAMS; i++)
			c->last[i] = -1;
	}
	if (seq >= o->n || m->sid != seq % o->streams || unordered != interop_unordered(seq) ||
	    !interop_check(seq, o->max, o->big, b, len)) {
		fprintf(stderr, "server: bad message: seq %u, stream %u, %u bytes\n", seq, m->sid,
			len);
		c->wrong++;
		return;
	}
	if (c->got[seq]) {
		fprintf(stderr, "server: message %u twice\n", seq);
		c->dup++;
		return;
	}
	c->got[seq] = 1;
	if (!unordered) {
		if ((int64_t)seq <= c->last[m->sid]) {
			fprintf(stderr, "server: message %u after %lld on stream %u\n", seq,
				(long long)c->last[m->sid], m->sid);
			c->disorder++;
		}
		c->last[m->sid] = seq;
	}
}

static void
server_take(struct conn *c, const struct dpsctp_msg *m, uint32_t ppid, const uint8_t *b,
	    uint32_t len)
{
	c->msgs++;
	if (c->o->check)
		server_check(c, m, ppid, b, len);
	if (c->o->abort_after != 0 && c->msgs == c->o->abort_after) {
		printf("server: %llu messages, aborting\n", (unsigned long long)c->msgs);
		fflush(stdout);
		(void)dpsctp_abort(c->a);
		return;
	}
	if (!c->o->echo)
		return;
	struct echo_q *e = malloc(sizeof(*e));
	uint8_t *copy = malloc(len);
	if (e == NULL || copy == NULL) {
		free(e);
		free(copy);
		c->bad++;
		return;
	}
	memcpy(copy, b, len);
	e->bytes = copy;
	e->len = len;
	e->si = (struct dpsctp_sndinfo){
		m->sid,		ppid, (m->flags & DPSCTP_MSG_UNORDERED) ? DPSCTP_SEND_UNORDERED : 0,
		DPSCTP_PR_NONE, 0,    0
	};
	e->next = NULL;
	if (c->q_tail != NULL)
		c->q_tail->next = e;
	else
		c->q_head = e;
	c->q_tail = e;
	echo_drain(c);
}

/* The message in parts that this delivery belongs to; a new one when it
 * starts one (no DPSCTP_MSG_CONT). NULL: a part of nothing begun, or no room. */
static struct rx_msg *
rx_find(struct conn *c, const struct dpsctp_msg *m)
{
	const char *who = c->o->server ? "server" : "client";
	uint32_t u = m->flags & DPSCTP_MSG_UNORDERED;
	struct rx_msg *free_slot = NULL;
	for (unsigned i = 0; i < PEER_RX_PARTIAL; i++) {
		struct rx_msg *r = &c->rx[i];
		if (r->used && r->sid == m->sid && r->mid == m->mid && r->unordered == u) {
			if (m->flags & DPSCTP_MSG_CONT)
				return r;
			fprintf(stderr,
				"%s: a new message (stream %u, MID %u) before the end of "
				"the last\n",
				who, m->sid, m->mid);
			return NULL;
		}
		if (!r->used && free_slot == NULL)
			free_slot = r;
	}
	if (m->flags & DPSCTP_MSG_CONT) {
		fprintf(stderr, "%s: a part of no message begun (stream %u, MID %u)\n", who, m->sid,
			m->mid);
		return NULL;
	}
	if (free_slot == NULL) {
		fprintf(stderr, "%s: over %u messages in parts at once\n", who, PEER_RX_PARTIAL);
		return NULL;
	}
	*free_slot = (struct rx_msg){ .used = true,
				      .sid = m->sid,
				      .mid = m->mid,
				      .unordered = u,
				      .ppid = m->ppid,
				      .buf = free_slot->buf,
				      .cap = free_slot->cap };
	return free_slot;
}

static void
on_recv(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg)
{
	struct conn *c = arg;
	(void)a;
	if (!(m->flags & (DPSCTP_MSG_MORE | DPSCTP_MSG_CONT))) {
		/* A whole message in one delivery: checked in place. */
		uint8_t *b = m->len <= INTEROP_MAX_LEN ? malloc(m->len ? m->len : 1) : NULL;
		if (b == NULL) {
			c->bad++;
			return;
		}
		uint32_t len = (uint32_t)dpsctp_msg_copy(m, b, m->len);
		if (c->o->server)
			server_take(c, m, m->ppid, b, len);
		else
			client_check(c, m, m->ppid, b, len);
		free(b);
		return;
	}
	struct rx_msg *r = rx_find(c, m);
	if (r == NULL) {
		c->bad++;
		return;
	}
	if (r->len + m->len > INTEROP_MAX_LEN) {
		fprintf(stderr, "%s: message over %u bytes on stream %u\n",
			c->o->server ? "server" : "client", INTEROP_MAX_LEN, m->sid);
		c->bad++;
		r->used = false;
		return;
	}
	if (r->len + m->len > r->cap) {
		uint32_t cap = r->cap ? r->cap : 64u * 1024u;
		while (cap < r->len + m->len)
			cap *= 2;
		uint8_t *nb = realloc(r->buf, cap);
		if (nb == NULL) {
			c->bad++;
			r->used = false;
			return;
		}
		r->buf = nb;
		r->cap = cap;
	}
	r->len += (uint32_t)dpsctp_msg_copy(m, r->buf + r->len, r->cap - r->len);
	if (m->flags & DPSCTP_MSG_MORE)
		return; /* the rest follows */
	r->used = false;
	if (c->o->server)
		server_take(c, m, r->ppid, r->buf, r->len);
	else
		client_check(c, m, r->ppid, r->buf, r->len);
}

static void
on_space(struct dpsctp_assoc *a, uint32_t free_bytes, void *arg)
{
	struct conn *c = arg;
	(void)a;
	(void)free_bytes;
	if (c->o->server)
		echo_drain(c);
	else
		client_pump(c);
}

static void on_event(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg);

static const struct dpsctp_callbacks callbacks = { on_recv, on_event, on_space };

/* The names of the bits set in a RE-CONFIG event's flags ("performed" when none). */
static void
print_reconf_flags(uint32_t f)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = { { DPSCTP_RESET_INCOMING_SSN, "incoming" },
		      { DPSCTP_RESET_OUTGOING_SSN, "outgoing" },
		      { DPSCTP_RESET_DENIED, "denied" },
		      { DPSCTP_RESET_FAILED, "failed" } };
	const char *sep = "";
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (f & names[i].bit) {
			printf("%s%s", sep, names[i].name);
			sep = " ";
		}
	if (*sep == '\0')
		printf("performed");
}

/*
 * A stream reset, association reset or stream change: printed as
 * usrsctp-peer prints the socket API's events; the client's request is
 * answered by the first (it fails the run when denied or failed).
 */
static void
on_reconf_event(struct conn *c, const char *who, const struct dpsctp_event *ev)
{
	uint32_t f = ev->reset_flags;
	if (ev->type == DPSCTP_EV_STREAM_RESET) {
		printf("%s: stream-reset: ", who);
		print_reconf_flags(f);
		printf(", streams ");
		for (unsigned i = 0; i < ev->n_streams; i++)
			printf("%s%u", i ? "," : "", ev->streams[i]);
		printf("%s\n", ev->n_streams == 0 ? "all" : "");
	} else if (ev->type == DPSCTP_EV_ASSOC_RESET) {
		printf("%s: assoc-reset: ", who);
		print_reconf_flags(f);
		printf(", local tsn %u, remote tsn %u\n", ev->local_tsn, ev->remote_tsn);
	} else {
		printf("%s: stream-change: ", who);
		print_reconf_flags(f);
		printf(", %u in, %u out\n", ev->inbound_streams, ev->outbound_streams);
	}
	fflush(stdout);
	if (c->o->server || c->req != REQ_ASKED)
		return;
	c->req = REQ_DONE;
	if (f & (DPSCTP_RESET_DENIED | DPSCTP_RESET_FAILED)) {
		c->bad++;
		return;
	}
	if (c->o->rc.kind == RECONF_ADD)
		c->streams += c->o->rc.out > c->o->rc.in ? c->o->rc.out : c->o->rc.in;
	client_pump(c);
}

/*
 * The client's request, once due and every echo so far back: 0 asked (or
 * failed: counted as bad), -EAGAIN to call again (data still queued on a
 * stream to reset, ours not yet acknowledged for an association reset, or
 * another request outstanding).
 */
static int
reconf_ask(struct conn *c)
{
	const struct opts *o = c->o;
	static const char *const names[] = { "?", "out", "in", "add", "assoc" };
	const char *what = names[o->rc.kind];
	int rc;
	if (o->rc.kind == RECONF_ASSOC)
		rc = dpsctp_reset_assoc(c->a);
	else if (o->rc.kind == RECONF_ADD)
		rc = dpsctp_add_streams(c->a, o->rc.out, o->rc.in);
	else
		rc = dpsctp_reset_streams(c->a,
					  o->rc.kind == RECONF_OUT ? DPSCTP_RESET_OUTGOING
								   : DPSCTP_RESET_INCOMING,
					  o->rc.sids, o->rc.nsids);
	if (rc == -EAGAIN || rc == -EINPROGRESS)
		return -EAGAIN;
	printf("client: reconf %s requested: %s\n", what, rc == 0 ? "ok" : strerror(-rc));
	fflush(stdout);
	if (rc != 0) {
		c->bad++;
		c->req = REQ_DONE;
		c->sent = o->n; /* nothing more to send: the run fails */
		return 0;
	}
	c->req = REQ_ASKED;
	return 0;
}

/*
 * --primary: make the peer's address the primary path. Until the path is
 * confirmed the association refuses (-EINVAL, RFC 9260 §5.4: no data to an
 * unconfirmed address), so it is asked again at each path event.
 */
static void
primary_try(struct conn *c, const char *who)
{
	if (!c->o->has_primary || c->primary_set || c->a == NULL)
		return;
	struct dpsctp_primary_addr pa;
	char err[128] = "";
	char s[64] = "?";
	memset(&pa, 0, sizeof(pa));
	pa.addr = c->o->primary;
	inet_ntop(pa.addr.family == 6 ? AF_INET6 : AF_INET, pa.addr.bytes, s, sizeof(s));
	/* Done before the call: it reports MADE_PRIMARY, a path event, at once. */
	c->primary_set = true;
	int rc = dpsctp_assoc_setopt(c->a, DPSCTP_OPT_PRIMARY_ADDR, &pa, sizeof(pa), err,
				     sizeof(err));
	if (rc == -EINVAL && strstr(err, "not confirmed") != NULL) {
		c->primary_set = false; /* the CONFIRMED event calls again */
		return;
	}
	if (rc == 0) {
		printf("%s: primary %s set\n", who, s);
	} else {
		printf("%s: primary %s refused: %s (%s)\n", who, s, strerror(-rc), err);
		c->bad++;
	}
	fflush(stdout);
}

/* The server's listener hands new associations here; each gets its own state. */
static struct conn *server_last;
static unsigned server_assocs;

static void
on_event(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	struct conn *c = arg;
	const char *who = c->o->server ? "server" : "client";
	switch (ev->type) {
	case DPSCTP_EV_COMM_UP:
		if (c->o->server) {
			struct conn *n = calloc(1, sizeof(*n));
			if (n == NULL) {
				(void)dpsctp_abort(a);
				return;
			}
			n->o = c->o;
			dpsctp_assoc_set_callbacks(a, &callbacks, n);
			c = n;
			server_last = n;
			server_assocs++;
		}
		c->a = a;
		c->up = true;
		struct dpsctp_assoc_stats st;
		printf("%s: association up, %u streams out, %u in, extensions 0x%x\n", who,
		       ev->outbound_streams, ev->inbound_streams,
		       dpsctp_assoc_get_stats(a, &st) == 0 ? st.extensions : 0);
		fflush(stdout);
		primary_try(c, who);
		if (!c->o->server)
			client_pump(c);
		break;
	case DPSCTP_EV_RESTART:
		printf("%s: restart (the peer restarted the association)\n", who);
		fflush(stdout);
		break;
	case DPSCTP_EV_PEER_ADDR_CHANGE: {
		char s[64] = "?";
		inet_ntop(ev->addr.family == 6 ? AF_INET6 : AF_INET, ev->addr.bytes, s, sizeof(s));
		printf("%s: path %s state %u\n", who, s, ev->addr_state);
		fflush(stdout);
		primary_try(c, who);
		break;
	}
	case DPSCTP_EV_SEND_FAILED: {
		uint32_t seq = ev->ppid;
		if (ev->pr_policy != DPSCTP_PR_NONE && c->abandoned != NULL &&
		    seq < c->o->n * c->o->batches)
			c->abandoned[seq] = 1;
		else
			c->send_failed++;
		break;
	}
	case DPSCTP_EV_STREAM_RESET:
	case DPSCTP_EV_ASSOC_RESET:
	case DPSCTP_EV_STREAM_CHANGE:
		on_reconf_event(c, who, ev);
		break;
	case DPSCTP_EV_SHUTDOWN_COMPLETE:
	case DPSCTP_EV_COMM_LOST:
	case DPSCTP_EV_CANT_START: {
		bool graceful = ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE;
		/* The handle is alive until this callback returns. */
		c->have_st = dpsctp_assoc_get_stats(a, &c->st) == 0;
		c->aborted_by_peer = !graceful && c->o->abort_after == 0 && !c->o->do_abort;
		if (c->o->server)
			printf("server: %llu messages, %llu echoed, peer closed (%s)\n",
			       (unsigned long long)c->msgs, (unsigned long long)c->echoed,
			       graceful ? "shutdown" : "abort");
		else
			printf("client: association %s (reason %u, cause %u)\n",
			       graceful				 ? "closed"
			       : ev->type == DPSCTP_EV_COMM_LOST ? "lost"
								 : "could not start",
			       ev->reason, ev->error);
		fflush(stdout);
		conn_free_queues(c);
		c->a = NULL;
		c->ended = true;
		break;
	}
	default:
		break;
	}
}

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: dpsctp-peer [EAL args] -- [data-plane options] (-s | -c PEER[,PEER...])\n"
		"  [--lport P] [-n MSGS] [-l MAXBYTES] [-S STREAMS] [--batches B]\n"
		"  [--hold SECS] [--echo] [--abort] [--reconnect] [--close-after N]\n"
		"  [--abort-after N] [--once] [--expect shutdown|abort] [--counters FILE]\n"
		"  [--linger SECS] [--check] [--pr ttl:MS|rtx:N] [--big BYTES]\n"
		"  [--reconf out:SIDS@N|in:SIDS@N|add:OUT,IN@N|assoc@N] [--primary ADDR]\n"
		"The data-plane options are dpsctp-echo's (dpsctp-echo -h); the SCTP port\n"
		"is --sctp-port (default 5001).\n");
}

static int
parse_peers(const char *list, struct sctp_addr *out)
{
	char tmp[256];
	unsigned n = 0;
	snprintf(tmp, sizeof(tmp), "%s", list);
	for (char *save = NULL, *t = strtok_r(tmp, ",", &save); t != NULL;
	     t = strtok_r(NULL, ",", &save)) {
		if (n == PEER_MAX_ADDRS)
			return -1;
		memset(&out[n], 0, sizeof(out[n]));
		if (inet_pton(AF_INET, t, out[n].bytes) == 1)
			out[n].family = 4;
		else if (inet_pton(AF_INET6, t, out[n].bytes) == 1)
			out[n].family = 6;
		else
			return -1;
		n++;
	}
	return (int)n;
}

/* Message numbers i with bits[i] == want, 20 a line (as interop_peer.c prints them). */
static void
print_seqs(const char *prefix, const uint8_t *bits, uint32_t n, uint8_t want)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (bits[i] != want)
			continue;
		printf("%s%s%u", k % 20 == 0 ? prefix : "", k % 20 == 0 ? " " : ",", i);
		if (++k % 20 == 0)
			printf("\n");
	}
	if (k % 20 != 0)
		printf("\n");
	fflush(stdout);
}

/* The PR-SCTP side of an association's statistics, printed and written to --counters. */
static void
print_stats(const char *who, const struct conn *c)
{
	if (!c->have_st)
		return;
	printf("%s: stats: extensions 0x%x, abandoned %llu messages (%llu bytes), "
	       "fwd_tsn_out %llu, fwd_tsn_in %llu\n",
	       who, c->st.extensions, (unsigned long long)c->st.abandoned_msgs,
	       (unsigned long long)c->st.abandoned_bytes, (unsigned long long)c->st.fwd_tsn_out,
	       (unsigned long long)c->st.fwd_tsn_in);
	fflush(stdout);
}

static void
write_stats(const struct conn *c, const char *path)
{
	FILE *f = c != NULL && c->have_st ? fopen(path, "a") : NULL;
	if (f == NULL)
		return;
	fprintf(f,
		"stats.extensions %u\nstats.abandoned_msgs %llu\nstats.abandoned_bytes %llu\n"
		"stats.fwd_tsn_out %llu\nstats.fwd_tsn_in %llu\n",
		c->st.extensions, (unsigned long long)c->st.abandoned_msgs,
		(unsigned long long)c->st.abandoned_bytes, (unsigned long long)c->st.fwd_tsn_out,
		(unsigned long long)c->st.fwd_tsn_in);
	fclose(f);
}

static void
write_counters(const struct dpsctp *d, const char *path)
{
	FILE *f = fopen(path, "w");
	if (f == NULL) {
		fprintf(stderr, "dpsctp-peer: %s: %s\n", path, strerror(errno));
		return;
	}
	for (unsigned i = 0;; i++) {
		const char *name = NULL;
		uint64_t sum = 0;
		for (unsigned w = 0; w < dpsctp_workers(d); w++) {
			uint64_t v = dpsctp_worker_counter(d, w, i, &name);
			if (name == NULL)
				break;
			sum += v;
		}
		if (name == NULL)
			break;
		if (sum != 0)
			fprintf(f, "%s %llu\n", name, (unsigned long long)sum);
	}
	fclose(f);
}

/* Poll for a while (the last packets of a close must leave). */
static void
poll_for(struct dpsctp *d, double secs)
{
	uint64_t until = now_cycles() + (uint64_t)(secs * (double)rte_get_tsc_hz());
	while (now_cycles() < until)
		(void)dpsctp_poll(d, 0);
}

int
main(int argc, char **argv)
{
	int k = dpsctp_eal_init(argc, argv);
	if (k < 0) {
		fprintf(stderr, "dpsctp-peer: the EAL did not start\n");
		return 3;
	}
	argc -= k;
	argv += k;
	struct dpsctp_config cfg;
	char err[256];
	dpsctp_config_defaults(&cfg);
	int left = dpsctp_config_parse_args(&cfg, argc, argv, err, sizeof(err));
	if (left < 0) {
		fprintf(stderr, "dpsctp-peer: %s\n", err);
		return 2;
	}
	argc = left;

	static const struct option lo[] = { { "lport", required_argument, NULL, 'P' },
					    { "batches", required_argument, NULL, 'B' },
					    { "hold", required_argument, NULL, 'H' },
					    { "echo", no_argument, NULL, 'e' },
					    { "abort", no_argument, NULL, 'a' },
					    { "reconnect", no_argument, NULL, 'r' },
					    { "close-after", required_argument, NULL, 'C' },
					    { "abort-after", required_argument, NULL, 'A' },
					    { "once", no_argument, NULL, 'o' },
					    { "expect", required_argument, NULL, 'x' },
					    { "counters", required_argument, NULL, 'k' },
					    { "linger", required_argument, NULL, 'g' },
					    { "check", no_argument, NULL, 'K' },
					    { "pr", required_argument, NULL, 'R' },
					    { "big", required_argument, NULL, 'G' },
					    { "reconf", required_argument, NULL, 'q' },
					    { "primary", required_argument, NULL, 'Y' },
					    { "help", no_argument, NULL, 'h' },
					    { NULL, 0, NULL, 0 } };
	static struct opts o = {
		.n = 1000, .max = 9000, .streams = 16, .batches = 1, .port = 5001, .linger_s = 0.05
	};
	const char *peers = NULL;
	const char *expect = "shutdown";
	int c;
	while ((c = getopt_long(argc, argv, "sc:n:l:S:h", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			o.server = true;
			break;
		case 'c':
			peers = optarg;
			break;
		case 'P':
			o.lport = (uint16_t)strtoul(optarg, NULL, 0);
			break;
		case 'n':
			o.n = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'l':
			o.max = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'S':
			o.streams = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'G':
			o.big = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'q':
			if (!interop_reconf_parse(optarg, &o.rc)) {
				usage(stderr);
				return 2;
			}
			break;
		case 'Y': {
			struct sctp_addr one[PEER_MAX_ADDRS];
			if (parse_peers(optarg, one) != 1) {
				usage(stderr);
				return 2;
			}
			o.primary = one[0];
			o.has_primary = true;
			break;
		}
		case 'B':
			o.batches = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'H':
			o.hold_s = strtod(optarg, NULL);
			break;
		case 'e':
			o.echo = true;
			break;
		case 'a':
			o.do_abort = true;
			break;
		case 'r':
			o.reconnect = true;
			break;
		case 'C':
			o.close_after = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'A':
			o.abort_after = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'o':
			o.once = true;
			break;
		case 'x':
			expect = optarg;
			break;
		case 'g':
			o.linger_s = strtod(optarg, NULL);
			break;
		case 'k':
			o.counters = optarg;
			break;
		case 'K':
			o.check = true;
			break;
		case 'R':
			if (strncmp(optarg, "ttl:", 4) == 0)
				o.pr_policy = DPSCTP_PR_TTL;
			else if (strncmp(optarg, "rtx:", 4) == 0)
				o.pr_policy = DPSCTP_PR_RTX;
			else {
				usage(stderr);
				return 2;
			}
			o.pr_value = (uint32_t)strtoul(optarg + 4, NULL, 0);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	o.expect_abort = strcmp(expect, "abort") == 0;
	if (cfg.sctp_port != 0)
		o.port = cfg.sctp_port;
	if (o.server == (peers != NULL) || o.max == 0 || o.max > INTEROP_MAX_LEN ||
	    o.streams == 0 || o.streams > PEER_MAX_STREAMS || o.batches == 0 || o.port == 0 ||
	    (o.big != 0 && (o.big < 64u * 1024u || o.big > INTEROP_MAX_LEN)) ||
	    (o.pr_policy != DPSCTP_PR_NONE && (o.server || o.echo || o.reconnect)) ||
	    (o.check && (!o.server || o.echo || !o.once)) ||
	    (o.rc.kind != RECONF_NONE && (o.server || o.reconnect || o.batches != 1)) ||
	    (!o.expect_abort && strcmp(expect, "shutdown") != 0)) {
		usage(stderr);
		return 2;
	}
	struct sctp_addr addrs[PEER_MAX_ADDRS];
	int na = peers != NULL ? parse_peers(peers, addrs) : 0;
	if (na < 0) {
		fprintf(stderr, "dpsctp-peer: bad peer address list \"%s\"\n", peers);
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	setvbuf(stdout, NULL, _IOLBF, 0); /* the harness reads lines as they come */
	struct dpsctp *d = dpsctp_create(&cfg, err, sizeof(err));
	if (d == NULL) {
		fprintf(stderr, "dpsctp-peer: %s\n", err);
		return 3;
	}
	static struct conn lst, cli;
	lst.o = cli.o = &o;
	int rc = 0;
	uint64_t hz = rte_get_tsc_hz();
	if (o.server) {
		if (dpsctp_listen(d, o.port, &callbacks, &lst) != 0) {
			fprintf(stderr, "dpsctp-peer: cannot listen on port %u\n", o.port);
			return 3;
		}
		while (!stop_requested) {
			(void)dpsctp_poll(d, 0);
			/* Echoes refused for a while (-EAGAIN: a send on a stream
			 * being reset waits for the peer's answer) go on here, not
			 * only when on_space says the buffer has room. */
			if (server_last != NULL && server_last->q_head != NULL)
				echo_drain(server_last);
			if (o.once && server_last != NULL && server_last->ended)
				break;
		}
		poll_for(d, o.linger_s);
		if (o.once) {
			struct conn *s = server_last;
			bool ok = s != NULL && s->bad == 0 &&
				  (o.expect_abort ? s->aborted_by_peer || o.abort_after != 0
						  : !s->aborted_by_peer);
			if (s != NULL && o.check) {
				uint32_t missing = 0;
				for (uint32_t i = 0; i < o.n; i++)
					missing += s->got == NULL || s->got[i] == 0;
				printf("server: checked: %u received, %u duplicated, %u out of "
				       "order, %u bad, %u missing\n",
				       s->n_got, s->dup, s->disorder, s->wrong, missing);
				if (s->got != NULL)
					print_seqs("server: missing:", s->got, o.n, 0);
				else if (o.n != 0)
					printf("server: missing: all\n");
				ok = ok && s->dup + s->disorder + s->wrong == 0;
			}
			if (s != NULL)
				print_stats("server", s);
			rc = ok ? 0 : 1;
		}
		printf("server: %u associations\n", server_assocs);
	} else {
		cli.seen = calloc(o.n ? o.n : 1, 1);
		if (o.pr_policy != DPSCTP_PR_NONE)
			cli.abandoned = calloc((size_t)o.n * o.batches + 1, 1);
		unsigned attempts = 0, reconnects = 0;
		uint64_t progress_at = now_cycles();
		uint32_t last_back = 0;
		for (;;) {
			if (stop_requested)
				break;
			if (cli.a == NULL && (!cli.up || cli.ended)) {
				/* (Re)connect: at start, or after a loss with --reconnect. */
				if (cli.up && !(o.reconnect && !cli.closing && reconnects < 10))
					break;
				if (cli.up) {
					reconnects++;
					printf("client: reconnecting (%u)\n", reconnects);
					fflush(stdout);
					poll_for(d, 0.2);
				}
				int e = 0;
				cli.up = cli.ended = false;
				cli.sent = cli.back = 0;
				cli.hold_until = 0;
				cli.streams = o.streams;
				cli.req = REQ_IDLE;
				cli.primary_set = false;
				cli.ask_at = 0;
				for (unsigned i = 0; i < PEER_MAX_STREAMS; i++)
					cli.last[i] = -1;
				memset(cli.seen, 0, o.n ? o.n : 1);
				cli.a = dpsctp_connect(d, 0, addrs, (unsigned)na, o.port, o.lport,
						       &callbacks, &cli, &e);
				attempts++;
				if (cli.a == NULL) {
					fprintf(stderr, "client: connect: %s\n", strerror(-e));
					rc = 1;
					break;
				}
				/* The handle is live until COMM_UP or CANT_START. */
				cli.up = true;
				progress_at = now_cycles();
			}
			(void)dpsctp_poll(d, 0);
			if (cli.a == NULL)
				continue;
			if (cli.req == REQ_DUE && (!o.echo || cli.back >= cli.sent)) {
				/* An association reset waits RECONF_QUIET_S more, so
				 * that our SACK of the last echoes is out: usrsctp,
				 * answering, leaves its own unacknowledged data
				 * outstanding across the reset and aborts at the SACK
				 * that covers it (docs/INTEROP.md). */
				if (o.rc.kind == RECONF_ASSOC && cli.ask_at == 0)
					cli.ask_at = now_cycles() +
						     (uint64_t)(RECONF_QUIET_S * (double)hz);
				if (now_cycles() >= cli.ask_at && reconf_ask(&cli) == 0)
					progress_at = now_cycles();
			}
			uint64_t t = now_cycles();
			if (cli.back + cli.sent != last_back) {
				last_back = cli.back + cli.sent;
				progress_at = t;
			} else if (cli.hold_until == 0 && !cli.closing &&
				   t - progress_at > 30 * hz) {
				fprintf(stderr, "client: no progress for 30 s; giving up\n");
				rc = 1;
				break;
			}
			if (cli.hold_until != 0) {
				if (t < cli.hold_until)
					continue;
				cli.hold_until = 0;
				progress_at = t;
				if (cli.batch + 1 < o.batches) {
					cli.batch++;
					cli.sent = cli.back = 0;
					memset(cli.seen, 0, o.n ? o.n : 1);
					client_pump(&cli);
					continue;
				}
				cli.closing = true;
				if (o.do_abort) {
					printf("client: aborting\n");
					fflush(stdout);
					(void)dpsctp_abort(cli.a);
				} else {
					(void)dpsctp_shutdown(cli.a);
				}
				continue;
			}
			if (!cli.closing && cli.sent == o.n && (!o.echo || cli.back >= o.n)) {
				printf("client: batch %u: %u sent, %u echoed, %u bad\n", cli.batch,
				       cli.sent, cli.back, cli.bad);
				cli.batches_done++;
				fflush(stdout);
				cli.hold_until = t + (uint64_t)(o.hold_s * (double)hz) + 1;
			}
		}
		/* Wait for the close to finish (SHUTDOWN COMPLETE or the ABORT's end). */
		for (uint64_t until = now_cycles() + 5 * hz; cli.a != NULL && now_cycles() < until;)
			(void)dpsctp_poll(d, 0);
		poll_for(d, o.linger_s);
		/* Every batch went and came back; the close may be ours or the peer's. */
		bool finished = cli.batches_done >= o.batches && cli.bad == 0;
		if (o.expect_abort)
			rc = cli.ended && cli.aborted_by_peer && cli.bad == 0 ? 0 : 1;
		else if (rc == 0)
			rc = finished && cli.ended && !cli.aborted_by_peer ? 0 : 1;
		if (o.do_abort && finished)
			rc = 0;
		if (cli.abandoned != NULL) {
			uint32_t total = o.n * o.batches, n = 0;
			for (uint32_t i = 0; i < total; i++)
				n += cli.abandoned[i];
			printf("client: pr-sctp: %u sent, %u abandoned, %u other SEND_FAILED\n",
			       total, n, cli.send_failed);
			print_seqs("client: abandoned:", cli.abandoned, total, 1);
		}
		print_stats("client", &cli);
		printf("client: %s after %u connection(s), %u reconnect(s)\n",
		       rc == 0 ? "passed" : "FAILED", attempts, reconnects);
		free(cli.seen);
		free(cli.abandoned);
	}
	if (o.counters != NULL) {
		write_counters(d, o.counters);
		write_stats(o.server ? server_last : &cli, o.counters);
	}
	int aborted = dpsctp_stop(d, 1000);
	(void)aborted;
	dpsctp_destroy(d);
	rte_eal_cleanup();
	return rc;
}
