/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctp-sidecar-echo: dpsctp-echo's echo test, written against the
 * sidecar instead of the embedded API. It links libdpsctp-client
 * (dataplane/sidecar/dpsctp_client.h) and nothing else of ours: no DPDK,
 * no libdpsctp. dpsctpd owns the port and runs SCTP; this process talks
 * to it through shared-memory rings (docs/SIDECAR.md).
 *
 *   server (-s): LISTEN on a port and send every message back on its
 *           association and stream with its PPID (unordered ones
 *           unordered), for any number of associations, until SIGINT or
 *           SIGTERM;
 *   client (-c): CONNECT to the peer's addresses (multi-homing), send N
 *           messages over S streams, each carrying its sequence number and
 *           a checksum of the rest in its first 8 bytes, check every echo,
 *           SHUTDOWN, exit 0 when every echo came back intact, once each.
 *
 * What it shows, for readers who know usrsctp or the embedded API:
 *  - no callbacks: dpsctp_client_poll() returns completions (one per
 *    request, matched by the cookie the request carried) and then events
 *    (RECV, COMM_UP, and RFC 6458's notifications), on the calling thread;
 *  - a send is one copy into the thread's tx arena. -EAGAIN means the
 *    arena or the request ring is full: poll (the daemon frees arena space
 *    as it takes requests), then retry. The server keeps the echoes it
 *    could not send yet in a bounded queue of its own, in arrival order, so
 *    each stream's order is kept;
 *  - flow control is reading: dpsctpd reopens an association's receive
 *    window only as the application reads its rx arena. A server that
 *    copied messages out as fast as they came would keep the windows open
 *    however far behind its echoes are, so past half its queue it stops
 *    taking messages in until the queue shrinks;
 *  - a RECV's bytes stay in the rx arena only until the next poll on the
 *    thread, so whatever is kept past it is copied; a message the daemon
 *    delivers in parts (DPSCTP_CLIENT_MORE on every part but the last,
 *    DPSCTP_CLIENT_CONT on every part but the first) is put back together
 *    here (up to 1 MiB) before it is used;
 *  - COMM_UP says who the association is with (address and port, and our
 *    port); COMM_LOST and CANT_START say why (a reason, and the first
 *    cause of the peer's ABORT), so a wrong port and a peer that does not
 *    answer read differently;
 *  - an idle thread sleeps on its eventfd (dpsctp_client_wait(); the
 *    daemon then writes the eventfd). With --busy-poll it never makes a
 *    system call, and the daemon never writes the eventfd;
 *  - the daemon can go away (DAEMON_STOPPING, or -ECONNRESET from poll or
 *    wait), and its associations go with it. The server then exits, or
 *    with --reattach attaches again and listens again.
 *
 * The checksum is FNV-1a (32 bits), not dpsctp-echo's CRC32c: the client
 * library has no CRC function, and the program links nothing else of
 * ours. SCTP's CRC32c already covers the packets on the wire. This
 * checksum covers the rest of the path: the data planes at both ends,
 * the arenas and the server's copies.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "apps/common/app_opts.h"
#include "dataplane/sidecar/dpsctp_client.h"

#define ECHO_PORT_DEFAULT  5001
#define ECHO_NAME_DEFAULT  "dpsctp-sidecar-echo"
#define ECHO_NAME_MAX	   31u	       /* dpsctp_client_opts.name */
#define ECHO_HDR	   8u	       /* sequence number, FNV-1a of the rest: both big-endian */
#define ECHO_LEN_MAX	   (1u << 20)  /* client -l: above --sndbuf dpsctpd refuses (EMSGSIZE) */
#define ECHO_MSG_MAX	   (1u << 20)  /* the largest message put back together from parts */
#define ECHO_PENDING	   4096u       /* server: echoes waiting for tx space, as dpsctp-echo */
#define ECHO_PENDING_BYTES (64u << 20) /* and their bytes: 1,000 of the largest */
#define ECHO_DEEP	   (ECHO_PENDING / 2) /* server: above this, hold new messages back */
#define ECHO_DEEP_BYTES	   (ECHO_PENDING_BYTES / 2)
#define ECHO_HOLD_NS	   20000L      /* server: held and nothing taken: pause (not tuned) */
#define ECHO_HOLD_CHECK	   1024u       /* held pauses between looks for the daemon's departure */
#define ECHO_HOLD_MAX_NS   10000000ull /* held this long with no progress: take one message */
#define ECHO_BURST	   32u	       /* completions and events per poll */
#define ECHO_WAIT_MS	   100	       /* longest sleep: how often signals and deadlines are seen */
#define ECHO_BAD_SHOWN	   10u	       /* client: bad echoes described one by one */
#define NS_PER_S	   1000000000ull
#define ECHO_IDLE_NS	   (10 * NS_PER_S)  /* client: give up after this long without progress */
#define ECHO_REATTACH_NS   (10 * NS_PER_S)  /* server --reattach: how long to keep trying */
#define ECHO_REATTACH_STEP (100 * 1000000L) /* ns between attempts */

/* The cookies of the requests that are not sends (a send's is its message's number
 * on the client, its association on the server). */
#define COOKIE_LISTEN	1u
#define COOKIE_CONNECT	2u
#define COOKIE_SHUTDOWN 3u

static volatile sig_atomic_t stop_requested;

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct echo_opts {
	bool server, busy_poll, reattach, zero_copy;
	uint32_t window;   /* client: messages sent and not yet echoed, at most */
	const char *peers; /* -c */
	const char *socket;
	const char *name;
	uint16_t port;
	uint16_t streams;
	uint32_t count; /* -n */
	uint32_t len;	/* -l */
};

static const char *
op_name(enum dpsctp_client_op op)
{
	switch (op) {
	case DPSCTP_CLIENT_OP_LISTEN:
		return "listen";
	case DPSCTP_CLIENT_OP_CONNECT:
		return "connect";
	case DPSCTP_CLIENT_OP_SEND:
		return "send";
	case DPSCTP_CLIENT_OP_SHUTDOWN:
		return "shutdown";
	case DPSCTP_CLIENT_OP_ABORT:
		return "abort";
	default:
		return "unknown request";
	}
}

static uint64_t
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* FNV-1a, 32 bits: offset basis 2166136261, prime 16777619. */
static uint32_t
fnv1a(const uint8_t *p, uint32_t n)
{
	uint32_t h = 0x811c9dc5u;
	for (uint32_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x01000193u;
	}
	return h;
}

/*
 * Messages delivered in parts. Without I-DATA only one message per
 * association is delivered in parts at a time; with it (RFC 8260) one per
 * stream and ordering, so parts are matched by (association, stream, U).
 */
struct partial {
	uint64_t assoc;
	uint16_t sid;
	uint8_t unordered;
	int err; /* -EMSGSIZE, -ENOMEM: the rest is dropped, the message not used */
	uint32_t ppid;
	uint32_t len, cap;
	uint8_t *buf;
};

struct reasm {
	struct partial *p;
	unsigned n, cap;
};

/* A whole message: the event's bytes, or a reassembled copy that `owned` then holds. */
struct whole {
	const uint8_t *data;
	uint32_t len;
	uint32_t ppid;
	uint8_t *owned;
};

static struct partial *
reasm_find(struct reasm *r, const struct dpsctp_client_event *ev)
{
	uint8_t u = ev->recv.flags & DPSCTP_CLIENT_UNORDERED;
	for (unsigned i = 0; i < r->n; i++)
		if (r->p[i].assoc == ev->assoc && r->p[i].sid == ev->recv.sid &&
		    r->p[i].unordered == u)
			return &r->p[i];
	return NULL;
}

static void
reasm_remove(struct reasm *r, struct partial *p)
{
	free(p->buf);
	*p = r->p[--r->n];
}

/* An association's messages in parts are void (it ended or restarted). */
static void
reasm_drop_assoc(struct reasm *r, uint64_t assoc)
{
	for (unsigned i = 0; i < r->n;)
		if (r->p[i].assoc == assoc)
			reasm_remove(r, &r->p[i]);
		else
			i++;
}

static void
reasm_free(struct reasm *r)
{
	while (r->n != 0)
		reasm_remove(r, &r->p[0]);
	free(r->p);
	r->p = NULL;
	r->cap = 0;
}

static int
reasm_append(struct partial *p, const struct dpsctp_client_event *ev)
{
	if (ev->recv.len > ECHO_MSG_MAX - p->len)
		return -EMSGSIZE;
	uint32_t need = p->len + ev->recv.len;
	if (need > p->cap) {
		uint32_t cap = p->cap != 0 ? p->cap : 4096u;
		while (cap < need)
			cap *= 2;
		if (cap > ECHO_MSG_MAX)
			cap = ECHO_MSG_MAX;
		uint8_t *b = realloc(p->buf, cap);
		if (b == NULL)
			return -ENOMEM;
		p->buf = b;
		p->cap = cap;
	}
	memcpy(p->buf + p->len, ev->recv.data, ev->recv.len);
	p->len = need;
	return 0;
}

/*
 * Take one RECV event. 1: a whole message in *w; 0: a part, kept until
 * the rest comes; -EMSGSIZE (over ECHO_MSG_MAX) or -ENOMEM: the message
 * ended here and was dropped whole; -EBADMSG: the parts did not follow
 * MORE and CONT (the last part of a message whose beginning was not kept,
 * or a message in parts beginning before the last one ended): the message
 * they belonged to is dropped.
 */
static int
reasm_feed(struct reasm *r, const struct dpsctp_client_event *ev, struct whole *w)
{
	bool more = (ev->recv.flags & DPSCTP_CLIENT_MORE) != 0;
	bool cont = (ev->recv.flags & DPSCTP_CLIENT_CONT) != 0;
	if (ev->recv.flags & DPSCTP_CLIENT_ABORTED) {
		/* Its sender abandoned it (PR-SCTP): the parts kept are no message. */
		struct partial *a = reasm_find(r, ev);
		if (a != NULL)
			reasm_remove(r, a);
		return 0;
	}
	if (!more && !cont) {
		/* Whole, even between the parts of another message of the stream
		 * (an unordered one may overtake). */
		*w = (struct whole){ ev->recv.data, ev->recv.len, ev->recv.ppid, NULL };
		return 1;
	}
	struct partial *p = reasm_find(r, ev);
	int broken = 0;
	if (p != NULL && !cont) {
		/* A message in parts began before the last one ended (one at a time):
		 * that one is dropped, this one is kept. */
		reasm_remove(r, p);
		p = NULL;
		broken = -EBADMSG;
	}
	if (p == NULL && cont)
		return more ? 0 : -EBADMSG; /* its beginning was not kept: said at its end */
	if (p == NULL) {
		if (r->n == r->cap) {
			unsigned cap = r->cap != 0 ? 2 * r->cap : 8;
			struct partial *np = realloc(r->p, cap * sizeof(*np));
			/* Without a record this part and those that follow (CONT) are
			 * dropped; the last says so (-EBADMSG). */
			if (np == NULL)
				return broken;
			r->p = np;
			r->cap = cap;
		}
		p = &r->p[r->n++];
		*p = (struct partial){ .assoc = ev->assoc,
				       .sid = ev->recv.sid,
				       .unordered = ev->recv.flags & DPSCTP_CLIENT_UNORDERED,
				       .ppid = ev->recv.ppid };
	}
	if (p->err == 0) {
		p->err = reasm_append(p, ev);
		if (p->err != 0) {
			free(p->buf);
			p->buf = NULL;
			p->len = p->cap = 0;
		}
	}
	if (more)
		return broken;
	int err = p->err;
	if (err == 0) {
		*w = (struct whole){ p->buf, p->len, p->ppid, p->buf };
		p->buf = NULL;
	}
	reasm_remove(r, p);
	return err == 0 ? 1 : err;
}

/* Why reasm_feed() dropped a message. */
static const char *
drop_text(int rc)
{
	if (rc == -EMSGSIZE)
		return "larger than 1 MiB";
	if (rc == -EBADMSG)
		return "its parts did not follow MORE and CONT";
	return strerror(-rc);
}

/* The peer of COMM_UP, COMM_LOST, CANT_START: "10.0.0.2 port 5001". */
static void
peer_text(const struct dpsctp_client_event *ev, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";
	if (ev->assoc_change.peer.family == 4 || ev->assoc_change.peer.family == 6)
		inet_ntop(ev->assoc_change.peer.family == 6 ? AF_INET6 : AF_INET,
			  ev->assoc_change.peer.bytes, a, sizeof(a));
	snprintf(buf, len, "%s port %u", a, ev->assoc_change.peer_port);
}

/*
 * Why an association ended or never started: the reason and the first
 * cause of the peer's ABORT (RFC 9260 §3.3.10), with the numbers.
 */
static void
end_text(const struct dpsctp_client_event *ev, char *buf, size_t len)
{
	static const char *const reason[] = {
		[DPSCTP_CLIENT_REASON_PEER_ABORT] = "the peer sent an ABORT",
		[DPSCTP_CLIENT_REASON_USER_ABORT] = "aborted on this side",
		[DPSCTP_CLIENT_REASON_SHUTDOWN] = "shut down",
		[DPSCTP_CLIENT_REASON_T1_INIT] = "no answer to INIT (retransmissions exhausted)",
		[DPSCTP_CLIENT_REASON_T1_COOKIE] =
			"no answer to COOKIE ECHO (retransmissions exhausted)",
		[DPSCTP_CLIENT_REASON_STALE_COOKIE] = "the peer kept finding the cookie stale",
		[DPSCTP_CLIENT_REASON_INIT_ACK_INVALID] = "the peer's INIT ACK was invalid",
		[DPSCTP_CLIENT_REASON_T2_SHUTDOWN] = "no answer to SHUTDOWN",
		[DPSCTP_CLIENT_REASON_T5_GUARD] = "the shutdown took too long",
		[DPSCTP_CLIENT_REASON_PATHS_FAILED] = "every path to the peer failed",
		[DPSCTP_CLIENT_REASON_NO_MEMORY] = "no memory for it in dpsctpd",
		[DPSCTP_CLIENT_REASON_PROTOCOL] = "the peer broke the protocol",
	};
	static const char *const cause[] = {
		[1] = "Invalid Stream Identifier",
		[2] = "Missing Mandatory Parameter",
		[3] = "Stale Cookie Error",
		[4] = "Out of Resource",
		[5] = "Unresolvable Address",
		[6] = "Unrecognized Chunk Type",
		[7] = "Invalid Mandatory Parameter",
		[8] = "Unrecognized Parameters",
		[9] = "No User Data",
		[10] = "Cookie Received While Shutting Down",
		[11] = "Restart of an Association with New Addresses",
		[12] = "User-Initiated Abort",
		[13] = "Protocol Violation",
	};
	const char *r = ev->assoc_change.reason < sizeof(reason) / sizeof(reason[0]) &&
					reason[ev->assoc_change.reason]
				? reason[ev->assoc_change.reason]
				: "no reason given";
	const char *c = ev->assoc_change.error < sizeof(cause) / sizeof(cause[0]) &&
					cause[ev->assoc_change.error]
				? cause[ev->assoc_change.error]
				: "an unknown cause";
	if (ev->assoc_change.error != 0)
		snprintf(buf, len, "%s, cause %u: %s (reason %u)", r, ev->assoc_change.error, c,
			 ev->assoc_change.reason);
	else if (ev->assoc_change.reason == DPSCTP_CLIENT_REASON_PEER_ABORT)
		snprintf(buf, len, "%s without a cause (reason %u, cause 0)", r,
			 ev->assoc_change.reason);
	else
		snprintf(buf, len, "%s (reason %u, cause 0)", r, ev->assoc_change.reason);
}

/* PEER_ADDR_CHANGE: which path, and what became of it (RFC 6458 spc_state). */
static void
print_addr_change(const char *who, const struct dpsctp_client_event *ev)
{
	static const char *const state[] = { [1] = "available",
					     [2] = "unreachable",
					     [3] = "potentially failed",
					     [4] = "confirmed",
					     [5] = "made primary" };
	char text[INET6_ADDRSTRLEN] = "?";
	inet_ntop(ev->addr_change.addr.family == 6 ? AF_INET6 : AF_INET, ev->addr_change.addr.bytes,
		  text, sizeof(text));
	const char *what = "changed state";
	if (ev->addr_change.state < sizeof(state) / sizeof(state[0]) &&
	    state[ev->addr_change.state] != NULL)
		what = state[ev->addr_change.state];
	printf("%s: association %#" PRIx64 ": peer address %s %s\n", who, ev->assoc, text, what);
}

static struct dpsctp_client *
echo_attach(const struct echo_opts *o, int *err)
{
	struct dpsctp_client_opts co = { .threads = 1, .name = o->name, .zero_copy = o->zero_copy };
	return dpsctp_client_attach(o->socket, &co, err);
}

static int
attach_failed(const struct echo_opts *o, int err)
{
	fprintf(stderr, "dpsctp-sidecar-echo: cannot attach to dpsctpd at %s: %s%s\n", o->socket,
		strerror(-err),
		err == -ENOENT || err == -ECONNREFUSED
			? " (is dpsctpd running? --socket or DPSCTPD_SOCKET names its socket)"
		: err == -EACCES ? " (the socket's mode and group, or dpsctpd's --allow-uid and "
				   "--allow-gid, keep this user out)"
				 : "");
	return 3;
}

/* ---- Server ---- */

/* An echo waiting for tx space; bytes == NULL: its association ended. */
struct pending {
	struct dpsctp_client_sndinfo si;
	uint8_t *bytes;
	uint32_t len;
};

struct server {
	struct dpsctp_client *c;
	const struct echo_opts *o;
	bool listening;
	bool lost; /* the daemon went away */
	uint32_t open;
	uint64_t served, echoed, dropped;
	struct reasm ra;
	struct pending q[ECHO_PENDING];
	uint32_t q_head, q_count;
	uint64_t q_bytes;
	bool q_full_said; /* a full queue is reported once until it drains */
	bool held;	  /* the queue is deep: take no message in until it shrinks */
	uint32_t held_spins;
	uint64_t held_since;
};

static void
server_pop(struct server *s)
{
	struct pending *p = &s->q[s->q_head];
	free(p->bytes);
	s->q_bytes -= p->len;
	p->bytes = NULL;
	s->q_head = (s->q_head + 1) % ECHO_PENDING;
	s->q_count--;
	if (s->q_count == 0)
		s->q_full_said = false;
}

/* A send that failed at once (not -EAGAIN): the echo is lost. */
static void
server_send_failed(struct server *s, const struct dpsctp_client_sndinfo *si, uint32_t len, int rc)
{
	s->dropped++;
	fprintf(stderr,
		"server: send (echo of %" PRIu32 " bytes on association %#" PRIx64
		", stream %u): %s\n",
		len, si->assoc, si->sid, strerror(-rc));
	if (rc == -ECONNRESET)
		s->lost = true;
}

/* Send queued echoes, oldest first, until the daemon has no room again. */
static void
server_drain(struct server *s)
{
	while (s->q_count != 0 && !s->lost) {
		struct pending *p = &s->q[s->q_head];
		if (p->bytes != NULL) {
			int rc = dpsctp_client_send(s->c, 0, &p->si, p->bytes, p->len, p->si.assoc);
			if (rc == -EAGAIN)
				return;
			if (rc == 0)
				s->echoed++;
			else
				server_send_failed(s, &p->si, p->len, rc);
		}
		server_pop(s);
	}
}

static void
server_echo(struct server *s, const struct dpsctp_client_sndinfo *si, struct whole *w)
{
	/* Behind queued echoes a new one waits its turn: each stream keeps its order. */
	if (s->q_count == 0) {
		int rc = dpsctp_client_send(s->c, 0, si, w->data, w->len, si->assoc);
		if (rc != -EAGAIN) {
			if (rc == 0)
				s->echoed++;
			else
				server_send_failed(s, si, w->len, rc);
			free(w->owned);
			return;
		}
	}
	/* No room in the daemon now: keep a copy, since the rx arena's bytes are
	 * gone at the next poll. */
	uint8_t *copy = w->owned;
	if (s->q_count == ECHO_PENDING || w->len > ECHO_PENDING_BYTES - s->q_bytes) {
		free(copy);
		copy = NULL;
		if (!s->q_full_said)
			fprintf(stderr,
				"server: %u echoes (%" PRIu64 " bytes) wait for room in "
				"dpsctpd; dropping new ones\n",
				s->q_count, s->q_bytes);
		s->q_full_said = true;
	} else if (copy == NULL) {
		copy = malloc(w->len);
		if (copy != NULL)
			memcpy(copy, w->data, w->len);
		else
			fprintf(stderr, "server: no memory to keep an echo of %" PRIu32 " bytes\n",
				w->len);
	}
	if (copy == NULL) {
		s->dropped++; /* the client will see it missing */
		return;
	}
	struct pending *p = &s->q[(s->q_head + s->q_count) % ECHO_PENDING];
	p->si = *si;
	p->bytes = copy;
	p->len = w->len;
	s->q_count++;
	s->q_bytes += w->len;
}

/* An association ended: its parts and queued echoes go. */
static void
server_forget(struct server *s, uint64_t assoc)
{
	reasm_drop_assoc(&s->ra, assoc);
	for (uint32_t i = 0; i < s->q_count; i++) {
		struct pending *p = &s->q[(s->q_head + i) % ECHO_PENDING];
		if (p->bytes != NULL && p->si.assoc == assoc) {
			free(p->bytes);
			p->bytes = NULL;
			s->q_bytes -= p->len;
			p->len = 0;
			s->dropped++;
		}
	}
	if (s->open != 0)
		s->open--;
}

static void
server_recv(struct server *s, const struct dpsctp_client_event *ev)
{
	struct whole w;
	int rc = reasm_feed(&s->ra, ev, &w);
	if (rc == 0)
		return;
	if (rc < 0) {
		s->dropped++;
		fprintf(stderr,
			"server: a message on association %#" PRIx64 ", stream %u not echoed: %s\n",
			ev->assoc, ev->recv.sid, drop_text(rc));
		return;
	}
	struct dpsctp_client_sndinfo si = { .assoc = ev->assoc,
					    .sid = ev->recv.sid,
					    .ppid = w.ppid,
					    .flags = ev->recv.flags & DPSCTP_CLIENT_UNORDERED };
	server_echo(s, &si, &w);
}

/* 0, or the exit status when the server cannot go on. */
static int
server_event(struct server *s, const struct dpsctp_client_event *ev)
{
	char who[INET6_ADDRSTRLEN + 16], why[160];
	switch (ev->kind) {
	case DPSCTP_CLIENT_COMPLETION:
		if (ev->completion.status == 0) {
			if (ev->completion.op == DPSCTP_CLIENT_OP_LISTEN) {
				s->listening = true;
				printf("server: listening on SCTP port %u\n", s->o->port);
			}
			return 0;
		}
		if (ev->completion.op == DPSCTP_CLIENT_OP_SEND) {
			s->dropped++;
			fprintf(stderr, "server: send (echo on association %#" PRIx64 "): %s\n",
				ev->completion.cookie, strerror(-ev->completion.status));
			return 0;
		}
		fprintf(stderr, "server: %s: %s\n", op_name(ev->completion.op),
			strerror(-ev->completion.status));
		if (ev->completion.op == DPSCTP_CLIENT_OP_LISTEN) {
			fprintf(stderr, "server: dpsctpd refused to listen on SCTP port %u\n",
				s->o->port);
			return 3;
		}
		return 0;
	case DPSCTP_CLIENT_RECV:
		server_recv(s, ev);
		return 0;
	case DPSCTP_CLIENT_COMM_UP:
		s->open++;
		s->served++;
		peer_text(ev, who, sizeof(who));
		printf("server: association %#" PRIx64
		       " up with %s on our port %u, %u streams out, "
		       "%u in (%" PRIu32 " open)\n",
		       ev->assoc, who, ev->assoc_change.port, ev->assoc_change.outbound_streams,
		       ev->assoc_change.inbound_streams, s->open);
		return 0;
	case DPSCTP_CLIENT_COMM_LOST:
		server_forget(s, ev->assoc);
		peer_text(ev, who, sizeof(who));
		end_text(ev, why, sizeof(why));
		fprintf(stderr, "server: association %#" PRIx64 " with %s lost: %s\n", ev->assoc,
			who, why);
		return 0;
	case DPSCTP_CLIENT_SHUTDOWN_COMPLETE:
		server_forget(s, ev->assoc);
		printf("server: association %#" PRIx64 " closed (%" PRIu32 " open)\n", ev->assoc,
		       s->open);
		return 0;
	case DPSCTP_CLIENT_CANT_START:
		end_text(ev, why, sizeof(why));
		fprintf(stderr, "server: association %#" PRIx64 " could not start: %s\n", ev->assoc,
			why);
		return 0;
	case DPSCTP_CLIENT_RESTART:
		/* The peer restarted (RFC 9260 §5.2.4): stream sequence numbers start
		 * again, and a message in parts will not be continued. */
		reasm_drop_assoc(&s->ra, ev->assoc);
		fprintf(stderr, "server: association %#" PRIx64 " restarted by the peer\n",
			ev->assoc);
		return 0;
	case DPSCTP_CLIENT_SEND_FAILED:
		s->dropped++;
		fprintf(stderr,
			"server: an echo of %" PRIu32 " bytes on association %#" PRIx64
			", stream %u was not delivered\n",
			ev->send_failed.len, ev->assoc, ev->send_failed.sid);
		return 0;
	case DPSCTP_CLIENT_DAEMON_STOPPING:
		fprintf(stderr, "server: dpsctpd is stopping\n");
		s->lost = true;
		return 0;
	case DPSCTP_CLIENT_PEER_ADDR_CHANGE:
		print_addr_change("server", ev);
		return 0;
	case DPSCTP_CLIENT_SHUTDOWN_EVENT:
	case DPSCTP_CLIENT_STREAM_RESET: /* RFC 6525, asked by the peer: nothing to do */
	case DPSCTP_CLIENT_ASSOC_RESET:
	case DPSCTP_CLIENT_STREAM_CHANGE:
		return 0;
	}
	return 0;
}

/* After the daemon went: nothing of the old attachment is left. */
static void
server_reset(struct server *s)
{
	while (s->q_count != 0)
		server_pop(s);
	reasm_free(&s->ra);
	dpsctp_client_detach(s->c);
	s->c = NULL;
	s->open = 0;
	s->listening = false;
	s->lost = false;
	s->held = false;
}

static int
server_listen(struct server *s)
{
	int rc = dpsctp_client_listen(s->c, 0, s->o->port, COOKIE_LISTEN);
	if (rc != 0)
		fprintf(stderr, "server: listen on SCTP port %u: %s\n", s->o->port, strerror(-rc));
	return rc;
}

/* --reattach: a new daemon (or the same one restarted), every 100 ms for 10 s. */
static struct dpsctp_client *
server_reattach(const struct echo_opts *o, int *err)
{
	uint64_t until = now_ns() + ECHO_REATTACH_NS;
	*err = -ETIMEDOUT;
	while (!stop_requested) {
		struct timespec step = { 0, ECHO_REATTACH_STEP };
		nanosleep(&step, NULL);
		struct dpsctp_client *c = echo_attach(o, err);
		if (c != NULL)
			return c;
		if (now_ns() >= until)
			break;
	}
	return NULL;
}

static int
server_run(const struct echo_opts *o)
{
	struct server *s = calloc(1, sizeof(*s));
	if (s == NULL) {
		fprintf(stderr, "server: out of memory\n");
		return 1;
	}
	s->o = o;
	int err, status = 0;
	s->c = echo_attach(o, &err);
	if (s->c == NULL) {
		free(s);
		return attach_failed(o, err);
	}
	if (server_listen(s) != 0) {
		dpsctp_client_detach(s->c);
		free(s);
		return 3;
	}
	struct dpsctp_client_event ev[ECHO_BURST];
	while (!stop_requested) {
		/*
		 * Flow control. Echoes wait in our queue when the daemon has no room
		 * for them; if we kept taking messages in, N clients could fill it
		 * faster than one thread's tx arena empties. So past ECHO_DEEP we
		 * poll one slot at a time: a completion (they come first) lets the
		 * daemon take more of our requests; a message means there was no
		 * completion to take, and we hold: no poll until the queue shrinks.
		 * Meanwhile our rx arena and event ring fill, the daemon stops
		 * reading those associations' data, and SCTP's receive window slows
		 * their senders. The daemon can go on: when we held, our completion
		 * ring was empty, and our requests are in its ring. (A daemon that
		 * took no request while our event ring is full could not: after
		 * ECHO_HOLD_MAX_NS without progress one more message is taken.)
		 */
		bool deep = s->q_count >= ECHO_DEEP || s->q_bytes >= ECHO_DEEP_BYTES;
		int n = 0;
		if (!s->held) {
			n = dpsctp_client_poll(s->c, 0, ev, deep ? 1 : ECHO_BURST);
			if (n == -ECONNRESET) {
				s->lost = true;
				n = 0;
			} else if (n < 0) {
				fprintf(stderr,
					"server: poll: %s (dpsctpd sent something malformed)\n",
					strerror(-n));
				status = 1;
				break;
			}
			for (int i = 0; i < n && status == 0; i++)
				status = server_event(s, &ev[i]);
			if (status != 0)
				break;
			s->held = deep && n == 1 && ev[0].kind != DPSCTP_CLIENT_COMPLETION;
			if (s->held)
				s->held_since = now_ns();
		}
		uint32_t queued = s->q_count;
		server_drain(s);
		if (s->q_count < queued || s->q_count == 0)
			s->held = false;
		/* Held, no poll sees the daemon go: look now and then. */
		if (s->held && !s->lost && ++s->held_spins % ECHO_HOLD_CHECK == 0 &&
		    dpsctp_client_check(s->c) != 0)
			s->lost = true;
		/* A signal in the library's look at the control socket passes for the
		 * daemon's departure (dpsctp_client_check() takes poll()'s EINTR for a
		 * hang-up): once asked to stop, we stop, and with status 0. */
		if (s->lost && stop_requested)
			break;
		if (s->lost) {
			fprintf(stderr,
				"server: dpsctpd went away, and %" PRIu32 " associations with it\n",
				s->open);
			if (!o->reattach) {
				status = 1;
				break;
			}
			server_reset(s);
			s->c = server_reattach(o, &err);
			if (s->c == NULL) {
				if (!stop_requested) {
					fprintf(stderr,
						"server: cannot attach to dpsctpd at %s again "
						"within 10 s: %s\n",
						o->socket, strerror(-err));
					status = 1;
				}
				break;
			}
			printf("server: attached to dpsctpd again\n");
			if (server_listen(s) != 0) {
				status = 3;
				break;
			}
			continue;
		}
		if (s->held) {
			/* Nothing wakes us when the daemon takes a request: a short pause. */
			struct timespec pause = { 0, ECHO_HOLD_NS };
			if (!o->busy_poll)
				nanosleep(&pause, NULL);
			if (now_ns() - s->held_since > ECHO_HOLD_MAX_NS)
				s->held = false;
			continue;
		}
		if (n == 0 && !o->busy_poll) {
			int w = dpsctp_client_wait(s->c, 0, ECHO_WAIT_MS);
			if (w == -ECONNRESET) {
				s->lost = true; /* seen after the next poll */
			} else if (w < 0) {
				fprintf(stderr, "server: wait: %s\n", strerror(-w));
				status = 1;
				break;
			}
		}
	}
	printf("server: %" PRIu64 " associations, %" PRIu64 " messages echoed, %" PRIu64
	       " not echoed\n",
	       s->served, s->echoed, s->dropped);
	if (s->c != NULL)
		server_reset(s);
	free(s);
	return status;
}

/* ---- Client ---- */

struct client {
	struct dpsctp_client *c;
	const struct echo_opts *o;
	uint64_t assoc;
	uint16_t streams;
	bool up, closing, closed, failed, lost;
	uint32_t sent, echoed, bad, refused;
	uint32_t filled; /* 1 + the number of the message in buf, 0: none */
	uint8_t *buf;
	uint8_t *seen; /* a bit per message: its echo came */
	struct reasm ra;
	uint64_t t_up, t_done;
};

static void
client_fill(struct client *cl, uint32_t k)
{
	uint32_t len = cl->o->len;
	for (uint32_t i = ECHO_HDR; i < len; i++)
		cl->buf[i] = (uint8_t)(k * 7u + i);
	uint32_t be[2] = { htonl(k), htonl(fnv1a(cl->buf + ECHO_HDR, len - ECHO_HDR)) };
	memcpy(cl->buf, be, sizeof(be));
	cl->filled = k + 1;
}

/* Send until the daemon has no room (-EAGAIN: the next round tries again). */
static void
client_pump(struct client *cl)
{
	/* At most --window unanswered: an echo server has only so much room for
	 * echoes its peer's window holds back (dpsctp-echo drops beyond 4,096). */
	while (cl->up && !cl->closing && !cl->failed && !cl->lost && cl->sent < cl->o->count &&
	       cl->sent - (cl->echoed + cl->bad) < cl->o->window) {
		uint32_t k = cl->sent;
		if (cl->filled != k + 1)
			client_fill(cl, k);
		struct dpsctp_client_sndinfo si = { .assoc = cl->assoc,
						    .sid = (uint16_t)(k % cl->streams),
						    .ppid = htonl(k) };
		int rc = dpsctp_client_send(cl->c, 0, &si, cl->buf, cl->o->len, k);
		if (rc == -EAGAIN)
			return;
		if (rc != 0) {
			fprintf(stderr, "client: send of message %" PRIu32 ": %s\n", k,
				strerror(-rc));
			if (rc == -ECONNRESET)
				cl->lost = true;
			cl->failed = true;
			return;
		}
		cl->sent++;
	}
}

static void client_bad(struct client *cl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One bad echo: counted, and described while there have been few. */
static void
client_bad(struct client *cl, const char *fmt, ...)
{
	if (cl->bad++ < ECHO_BAD_SHOWN) {
		va_list ap;
		va_start(ap, fmt);
		fputs("client: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		va_end(ap);
	} else if (cl->bad == ECHO_BAD_SHOWN + 1) {
		fprintf(stderr, "client: (further bad echoes not shown)\n");
	}
}

/* Length, checksum, bytes, number, stream and PPID of one echo. */
static void
client_check(struct client *cl, const struct dpsctp_client_event *ev, const struct whole *w)
{
	uint32_t len = cl->o->len;
	if (w->len < ECHO_HDR) {
		client_bad(cl, "an echo of %" PRIu32 " bytes, shorter than its header", w->len);
		return;
	}
	uint32_t be[2];
	memcpy(be, w->data, sizeof(be));
	uint32_t k = ntohl(be[0]);
	if (k >= cl->sent) {
		client_bad(cl, "an echo of message %" PRIu32 ", but %" PRIu32 " were sent", k,
			   cl->sent);
		return;
	}
	if (w->len != len) {
		client_bad(cl,
			   "the echo of message %" PRIu32 " has %" PRIu32 " bytes, not %" PRIu32, k,
			   w->len, len);
		return;
	}
	if (ntohl(be[1]) != fnv1a(w->data + ECHO_HDR, len - ECHO_HDR)) {
		client_bad(cl, "the echo of message %" PRIu32 " fails its checksum", k);
		return;
	}
	for (uint32_t i = ECHO_HDR; i < len; i++)
		if (w->data[i] != (uint8_t)(k * 7u + i)) {
			client_bad(cl, "the echo of message %" PRIu32 " differs at byte %" PRIu32,
				   k, i);
			return;
		}
	if (ev->recv.sid != k % cl->streams) {
		client_bad(cl, "the echo of message %" PRIu32 " came on stream %u, not %" PRIu32, k,
			   ev->recv.sid, k % cl->streams);
		return;
	}
	if (w->ppid != htonl(k)) {
		client_bad(cl,
			   "the echo of message %" PRIu32 " has PPID %#" PRIx32 ", not %#" PRIx32,
			   k, w->ppid, htonl(k));
		return;
	}
	if (cl->seen[k / 8] & (1u << (k % 8))) {
		client_bad(cl, "message %" PRIu32 " was echoed twice", k);
		return;
	}
	cl->seen[k / 8] |= (uint8_t)(1u << (k % 8));
	cl->echoed++;
}

static void
client_event(struct client *cl, const struct dpsctp_client_event *ev)
{
	char who[INET6_ADDRSTRLEN + 16], why[160];
	struct whole w;
	int rc;
	switch (ev->kind) {
	case DPSCTP_CLIENT_COMPLETION:
		if (ev->completion.status == 0) {
			/* CONNECT's completion names the association; COMM_UP says it is up. */
			if (ev->completion.op == DPSCTP_CLIENT_OP_CONNECT && cl->assoc == 0)
				cl->assoc = ev->assoc;
			return;
		}
		if (ev->completion.op == DPSCTP_CLIENT_OP_SEND) {
			cl->refused++;
			fprintf(stderr, "client: send of message %" PRIu64 ": %s\n",
				ev->completion.cookie, strerror(-ev->completion.status));
			return;
		}
		fprintf(stderr, "client: %s: %s\n", op_name(ev->completion.op),
			strerror(-ev->completion.status));
		cl->failed = true;
		if (ev->completion.op == DPSCTP_CLIENT_OP_CONNECT)
			cl->closed = true; /* no association to wait for */
		return;
	case DPSCTP_CLIENT_RECV:
		rc = reasm_feed(&cl->ra, ev, &w);
		if (rc == 1)
			client_check(cl, ev, &w);
		else if (rc < 0)
			client_bad(cl, "an echo on stream %u was dropped: %s", ev->recv.sid,
				   drop_text(rc));
		if (rc == 1)
			free(w.owned);
		return;
	case DPSCTP_CLIENT_COMM_UP:
		if (cl->up) {
			fprintf(stderr, "client: a second COMM_UP (association %#" PRIx64 ")\n",
				ev->assoc);
			cl->failed = true;
			return;
		}
		cl->up = true;
		cl->assoc = ev->assoc;
		cl->t_up = now_ns();
		/* The server answers on the stream it received on: use only the streams
		 * both directions have (0: the daemon did not say). */
		if (ev->assoc_change.outbound_streams != 0 &&
		    ev->assoc_change.outbound_streams < cl->streams)
			cl->streams = ev->assoc_change.outbound_streams;
		if (ev->assoc_change.inbound_streams != 0 &&
		    ev->assoc_change.inbound_streams < cl->streams)
			cl->streams = ev->assoc_change.inbound_streams;
		peer_text(ev, who, sizeof(who));
		printf("client: association up with %s from our port %u, %u streams out, %u in; "
		       "sending on %u\n",
		       who, ev->assoc_change.port, ev->assoc_change.outbound_streams,
		       ev->assoc_change.inbound_streams, cl->streams);
		return;
	case DPSCTP_CLIENT_COMM_LOST:
		peer_text(ev, who, sizeof(who));
		end_text(ev, why, sizeof(why));
		fprintf(stderr, "client: association with %s lost: %s\n", who, why);
		cl->failed = cl->closed = true;
		return;
	case DPSCTP_CLIENT_CANT_START:
		peer_text(ev, who, sizeof(who));
		end_text(ev, why, sizeof(why));
		fprintf(stderr, "client: the association with %s could not be set up: %s\n", who,
			why);
		cl->failed = cl->closed = true;
		return;
	case DPSCTP_CLIENT_SHUTDOWN_COMPLETE:
		printf("client: association closed\n");
		cl->closed = true;
		return;
	case DPSCTP_CLIENT_RESTART:
		fprintf(stderr, "client: the peer restarted the association\n");
		reasm_drop_assoc(&cl->ra, ev->assoc);
		return;
	case DPSCTP_CLIENT_SEND_FAILED:
		fprintf(stderr,
			"client: message %" PRIu32 " (%" PRIu32
			" bytes, stream %u) was not delivered\n",
			ntohl(ev->send_failed.ppid), ev->send_failed.len, ev->send_failed.sid);
		cl->failed = true;
		return;
	case DPSCTP_CLIENT_SHUTDOWN_EVENT:
		if (!cl->closing)
			fprintf(stderr, "client: the peer is closing the association\n");
		return;
	case DPSCTP_CLIENT_DAEMON_STOPPING:
		fprintf(stderr, "client: dpsctpd is stopping\n");
		cl->lost = true;
		return;
	case DPSCTP_CLIENT_PEER_ADDR_CHANGE:
		print_addr_change("client", ev);
		return;
	case DPSCTP_CLIENT_STREAM_RESET: /* RFC 6525, asked by the peer: nothing to do */
	case DPSCTP_CLIENT_ASSOC_RESET:
	case DPSCTP_CLIENT_STREAM_CHANGE:
		return;
	}
}

/* "ADDR[,ADDR...]", IPv4 or IPv6: the count, or -1. */
static int
parse_peers(const char *list, struct sctp_addr *a, unsigned max)
{
	unsigned n = 0;
	const char *p = list;
	memset(a, 0, max * sizeof(*a));
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		char one[64];
		if (n == max || len == 0 || len >= sizeof(one))
			return -1;
		memcpy(one, p, len);
		one[len] = '\0';
		if (inet_pton(AF_INET, one, a[n].bytes) == 1)
			a[n].family = 4;
		else if (inet_pton(AF_INET6, one, a[n].bytes) == 1)
			a[n].family = 6;
		else
			return -1;
		n++;
		if (comma == NULL)
			return (int)n;
		p = comma + 1;
	}
}

static int
client_run(const struct echo_opts *o)
{
	struct sctp_addr addrs[4];
	int na = parse_peers(o->peers, addrs, 4);
	if (na <= 0) {
		fprintf(stderr,
			"dpsctp-sidecar-echo: bad peer address list \"%s\" (1 to 4 IPv4 or "
			"IPv6 addresses, comma-separated)\n",
			o->peers);
		return 2;
	}
	struct client cl = { .o = o, .streams = o->streams };
	cl.buf = malloc(o->len);
	cl.seen = calloc((size_t)o->count / 8 + 1, 1);
	if (cl.buf == NULL || cl.seen == NULL) {
		fprintf(stderr, "client: out of memory\n");
		free(cl.buf);
		free(cl.seen);
		return 1;
	}
	int err;
	cl.c = echo_attach(o, &err);
	if (cl.c == NULL) {
		free(cl.buf);
		free(cl.seen);
		return attach_failed(o, err);
	}
	int rc = dpsctp_client_connect(cl.c, 0, addrs, (unsigned)na, o->port, COOKIE_CONNECT);
	if (rc != 0) {
		fprintf(stderr, "client: connect: %s\n", strerror(-rc));
		cl.failed = true;
	}

	/* A lost echo never comes: nothing at all from the daemon for 10 s ends the test. */
	uint64_t progress_at = now_ns();
	struct dpsctp_client_event ev[ECHO_BURST];
	while (!stop_requested && !cl.closed && rc == 0) {
		int n = dpsctp_client_poll(cl.c, 0, ev, ECHO_BURST);
		if (n == -ECONNRESET) {
			cl.lost = true;
		} else if (n < 0) {
			fprintf(stderr, "client: poll: %s (dpsctpd sent something malformed)\n",
				strerror(-n));
			cl.failed = true;
			break;
		}
		for (int i = 0; i < n; i++)
			client_event(&cl, &ev[i]);
		uint64_t now = now_ns();
		if (n > 0)
			progress_at = now;
		if (cl.lost && stop_requested)
			break; /* perhaps only the signal (see server_run) */
		if (cl.lost) {
			fprintf(stderr, "client: dpsctpd went away\n");
			cl.failed = true;
			break;
		}
		if (cl.closed)
			break;
		client_pump(&cl);
		bool answered = cl.sent == o->count && cl.echoed + cl.bad + cl.refused >= cl.sent;
		if (cl.up && !cl.closing && (cl.failed || answered)) {
			if (cl.t_done == 0)
				cl.t_done = now;
			int s = dpsctp_client_shutdown(cl.c, 0, cl.assoc, COOKIE_SHUTDOWN);
			if (s == 0) {
				cl.closing = true;
			} else if (s != -EAGAIN) {
				fprintf(stderr, "client: shutdown: %s\n", strerror(-s));
				cl.failed = true;
				break;
			}
		}
		if (now - progress_at > ECHO_IDLE_NS) {
			fprintf(stderr, "client: nothing from dpsctpd for 10 s (%s); giving up\n",
				!cl.up	     ? "no COMM_UP"
				: cl.closing ? "no SHUTDOWN_COMPLETE"
					     : "echoes missing");
			cl.failed = true;
			break;
		}
		if (n == 0 && !o->busy_poll) {
			int w = dpsctp_client_wait(cl.c, 0, ECHO_WAIT_MS);
			if (w == -ECONNRESET) {
				cl.lost = true; /* seen after the next poll */
			} else if (w < 0) {
				fprintf(stderr, "client: wait: %s\n", strerror(-w));
				cl.failed = true;
				break;
			}
		}
	}
	if (cl.t_done == 0)
		cl.t_done = now_ns();
	double secs = cl.t_up != 0 ? (double)(cl.t_done - cl.t_up) / 1e9 : 0.0;
	printf("client: %" PRIu32 " sent, %" PRIu32 " echoed intact, %" PRIu32 " bad, %.3f s, %.0f "
	       "messages/s",
	       cl.sent, cl.echoed, cl.bad, secs, secs > 0 ? cl.echoed / secs : 0.0);
	if (cl.refused != 0)
		printf(", %" PRIu32 " refused by dpsctpd", cl.refused);
	printf("\n");
	dpsctp_client_detach(cl.c);
	reasm_free(&cl.ra);
	free(cl.buf);
	free(cl.seen);
	return cl.failed || cl.bad != 0 || cl.refused != 0 || cl.echoed != o->count ? 1 : 0;
}

/* ---- Options ---- */

#define EO(m) APP_OPT_FIELD(struct echo_opts, m)

static const struct app_opt echo_opt_table[] = {
	{ .kind = APP_OPT_FLAG,
	  .short_name = 's',
	  EO(server),
	  .help = "server: echo every message back on its stream, with its PPID" },
	{ .kind = APP_OPT_ADDRS,
	  .short_name = 'c',
	  EO(peers),
	  .arg = "PEER[,PEER]",
	  .help = "client: connect to the peer's addresses",
	  .max = 4 },
	{ .kind = APP_OPT_UINT,
	  .short_name = 'n',
	  EO(count),
	  .arg = "N",
	  .help = "client: messages to send",
	  .max = UINT32_MAX - 1 },
	{ .kind = APP_OPT_UINT,
	  .short_name = 'l',
	  EO(len),
	  .arg = "BYTES",
	  .help = "client: message size",
	  .min = ECHO_HDR,
	  .max = ECHO_LEN_MAX },
	{ .kind = APP_OPT_UINT,
	  .name = "streams",
	  EO(streams),
	  .arg = "S",
	  .help = "client: streams to spread the messages over",
	  .min = 1,
	  .max = UINT16_MAX },
	{ .kind = APP_OPT_UINT,
	  .name = "sctp-port",
	  EO(port),
	  .arg = "P",
	  .help = "the SCTP port to listen on or connect to",
	  .min = 1,
	  .max = UINT16_MAX },
	{ .kind = APP_OPT_STRING,
	  .name = "socket",
	  EO(socket),
	  .arg = "PATH",
	  .help = "dpsctpd's socket",
	  .dflt = "$DPSCTPD_SOCKET, else " DPSCTP_CLIENT_DEFAULT_SOCKET },
	{ .kind = APP_OPT_STRING,
	  .name = "name",
	  EO(name),
	  .arg = "NAME",
	  .help = "this application's name in dpsctpd's logs",
	  .max = ECHO_NAME_MAX },
	{ .kind = APP_OPT_FLAG,
	  .name = "busy-poll",
	  EO(busy_poll),
	  .help = "never sleep: poll the rings without a system call" },
	{ .kind = APP_OPT_UINT,
	  .name = "window",
	  EO(window),
	  .arg = "N",
	  .help = "client: at most N messages sent and not yet echoed",
	  .min = 1,
	  .max = 1u << 20 },
	{ .kind = APP_OPT_FLAG,
	  .name = "zero-copy",
	  EO(zero_copy),
	  .help = "receive by reference into dpsctpd's packet buffers, when it runs with "
		  "--zero-copy" },
	{ .kind = APP_OPT_FLAG,
	  .name = "reattach",
	  EO(reattach),
	  .help = "server: when dpsctpd goes away, attach again (every 100 ms, for up to 10 s) "
		  "and listen again" },
	{ .kind = APP_OPT_HELP, .name = "help", .short_name = 'h', .help = "this help" },
	{ 0 },
};

static const struct echo_opts echo_opt_defaults = { .name = ECHO_NAME_DEFAULT,
						    .port = ECHO_PORT_DEFAULT,
						    .streams = 4,
						    .count = 1000,
						    .window = 1024,
						    .len = 64 };

static void
usage(FILE *f)
{
	fprintf(f, "usage: dpsctp-sidecar-echo [options] (-s | -c PEER[,PEER...])\n");
	app_opts_usage(f, echo_opt_table, &echo_opt_defaults);
	fprintf(f, "Exit status: 0 every echo intact (server: stopped by SIGINT or SIGTERM), 1 a\n"
		   "failure (association lost, bad echo, dpsctpd gone), 2 bad usage, 3 cannot\n"
		   "attach to dpsctpd (or it refused to listen).\n");
}

static int
bad_usage(const char *what)
{
	fprintf(stderr, "dpsctp-sidecar-echo: %s\n", what);
	return 2;
}

int
main(int argc, char **argv)
{
	struct echo_opts o = echo_opt_defaults;
	const char *env = getenv("DPSCTPD_SOCKET");
	o.socket = env != NULL && env[0] != '\0' ? env : DPSCTP_CLIENT_DEFAULT_SOCKET;
	char err[256];
	int rc = app_opts_parse(echo_opt_table, &o, argc, argv, NULL, err, sizeof(err));
	if (rc == 1) {
		usage(stdout);
		return 0;
	}
	if (rc != 0)
		return bad_usage(err);
	if (o.server == (o.peers != NULL))
		return bad_usage("one of -s and -c (try -h)");
	if (o.reattach && !o.server)
		return bad_usage("--reattach: server only");

	/* No SA_RESTART: a signal ends dpsctp_client_wait() and nanosleep() early. */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	return o.server ? server_run(&o) : client_run(&o);
}
