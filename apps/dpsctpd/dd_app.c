/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctpd: one attached application (dd.h). Its requests become embedded
 * API calls; the data plane's callbacks for its associations become events
 * in its rings.
 *
 * Nothing an application writes is trusted (sc_serve.c, which reads its
 * requests, holds to it): each request slot is copied out before it is
 * checked (the application could change it meanwhile), handles are looked
 * up in the daemon's table and must belong to the asking application,
 * arena positions must be the next ones. A malformed
 * request is completed with -EPROTO; rings or arenas out of order mean the
 * application is broken and it is detached (its associations aborted),
 * alone.
 *
 * Nothing the data plane hands over is lost: when a thread's event ring or
 * rx arena is full, events wait in that thread's backlog (a received
 * message as an mbuf chain that refers to the received packets, no copy)
 * and go out in order as room appears. The receive window is not reopened
 * (dpsctp_consumed()) until the application has read a message, so a slow
 * application slows its peers instead of growing the backlog; a backlog
 * that still fills up aborts the association it cannot take more of, and
 * says so (backlog_aborts).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_mbuf.h>
#include <rte_pause.h>

#include "apps/dpsctpd/dd.h"
#include "dataplane/sidecar/dpsctp_client.h"

/* A reason travels as the data plane gives it (sc_proto.h): the same numbers. */
_Static_assert((int)DPSCTP_CLIENT_REASON_PEER_ABORT == (int)DPSCTP_REASON_PEER_ABORT &&
		       (int)DPSCTP_CLIENT_REASON_T1_INIT == (int)DPSCTP_REASON_T1_INIT &&
		       (int)DPSCTP_CLIENT_REASON_PATHS_FAILED == (int)DPSCTP_REASON_PATHS_FAILED &&
		       (int)DPSCTP_CLIENT_REASON_PROTOCOL == (int)DPSCTP_REASON_PROTOCOL,
	       "reasons");

/* PR-SCTP policies and extension bits travel as the data plane numbers them (sc_proto.h). */
_Static_assert(DPSCTP_PR_NONE == SC_PR_NONE && DPSCTP_PR_TTL == SC_PR_TTL &&
		       DPSCTP_PR_RTX == SC_PR_RTX && DPSCTP_PR_PRIO == SC_PR_PRIO,
	       "PR-SCTP policies");
_Static_assert(DPSCTP_EXT_PR_SCTP == DPSCTP_CLIENT_EXT_PR_SCTP &&
		       DPSCTP_EXT_I_DATA == DPSCTP_CLIENT_EXT_I_DATA &&
		       DPSCTP_EXT_RECONFIG == DPSCTP_CLIENT_EXT_RECONFIG &&
		       DPSCTP_CONFIG_EXTENSIONS <= 0xffu,
	       "extensions fit COMM_UP's byte");
/* Stream reconfiguration's flags, both ways, too (RFC 6525). */
_Static_assert(DPSCTP_RESET_INCOMING == SC_RESET_INCOMING &&
		       DPSCTP_RESET_OUTGOING == SC_RESET_OUTGOING &&
		       DPSCTP_RESET_INCOMING_SSN == SC_RESET_INCOMING_SSN &&
		       DPSCTP_RESET_OUTGOING_SSN == SC_RESET_OUTGOING_SSN &&
		       DPSCTP_RESET_DENIED == SC_RESET_DENIED &&
		       DPSCTP_RESET_FAILED == SC_RESET_FAILED,
	       "reset flags");
/* So do the stream schedulers. */
_Static_assert(DPSCTP_SCHED_RR == DPSCTP_CLIENT_SCHED_RR &&
		       DPSCTP_SCHED_FCFS == DPSCTP_CLIENT_SCHED_FCFS &&
		       DPSCTP_SCHED_RR_PKT == DPSCTP_CLIENT_SCHED_RR_PKT &&
		       DPSCTP_SCHED_PRIO == DPSCTP_CLIENT_SCHED_PRIO &&
		       DPSCTP_SCHED_FC == DPSCTP_CLIENT_SCHED_FC &&
		       DPSCTP_SCHED_WFQ == DPSCTP_CLIENT_SCHED_WFQ &&
		       DPSCTP_SCHED_WFQ == SC_SCHED_MAX,
	       "schedulers");

/* The options' numbers, as the client library names them (sc_proto.h: the struct travels as
 * its bytes). */
_Static_assert(DPSCTP_CLIENT_STATE_ESTABLISHED == (int)DPSCTP_ASSOC_ESTABLISHED &&
		       DPSCTP_CLIENT_STATE_SHUTDOWN_ACK_SENT ==
			       (int)DPSCTP_ASSOC_SHUTDOWN_ACK_SENT &&
		       DPSCTP_CLIENT_PATH_INACTIVE == (int)DPSCTP_PATH_INACTIVE &&
		       DPSCTP_CLIENT_PATH_POTENTIALLY_FAILED == (int)DPSCTP_PATH_POTENTIALLY_FAILED,
	       "states");
_Static_assert(DPSCTP_CLIENT_EVENT_RESTART == DPSCTP_EV_BIT(DPSCTP_EV_RESTART) &&
		       DPSCTP_CLIENT_EVENT_PEER_ADDR_CHANGE ==
			       DPSCTP_EV_BIT(DPSCTP_EV_PEER_ADDR_CHANGE) &&
		       DPSCTP_CLIENT_EVENT_SEND_FAILED == DPSCTP_EV_BIT(DPSCTP_EV_SEND_FAILED) &&
		       DPSCTP_CLIENT_EVENT_STREAM_RESET == DPSCTP_EV_BIT(DPSCTP_EV_STREAM_RESET) &&
		       DPSCTP_CLIENT_EVENT_ASSOC_RESET == DPSCTP_EV_BIT(DPSCTP_EV_ASSOC_RESET) &&
		       DPSCTP_CLIENT_EVENT_STREAM_CHANGE == DPSCTP_EV_BIT(DPSCTP_EV_STREAM_CHANGE),
	       "event bits");

static struct dd *dd_g; /* the callbacks' way back to the daemon (one per process) */
_Thread_local unsigned dd_w;

/* A rare event's counter, which any worker may count. */
static void
dd_count(uint64_t *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

void
dd_app_init(struct dd *d)
{
	dd_g = d;
}

void
dd_counters_add(struct dd_counters *sum, const struct dd_counters *c)
{
	const uint64_t *src = (const uint64_t *)c;
	uint64_t *dst = (uint64_t *)sum;
	for (size_t i = 0; i < sizeof(*c) / sizeof(uint64_t); i++)
		dst[i] += src[i];
}

/* ------------------------------------------------------------ handles */

/* sc_proto.h's format: generation, the owning worker, slot + 1. */
static uint64_t
dd_handle(const struct dd *d, const struct dd_assoc *as)
{
	return ((uint64_t)as->gen << 32) | ((uint64_t)as->worker << 24) |
	       (uint64_t)(as - d->assocs + 1);
}

/* The table slot a handle names (may be out of range: the caller checks). */
static uint32_t
dd_handle_slot(uint64_t h)
{
	return (uint32_t)(h & (SC_HANDLE_SLOTS - 1u)) - 1u;
}

/* The live association `h` names, if it belongs to app; NULL otherwise. */
static struct dd_assoc *
dd_lookup(struct dd *d, const struct dd_app *app, uint64_t h)
{
	uint32_t slot = dd_handle_slot(h);
	/* Another worker's slot is not ours to read: that worker's requests name it. */
	if (slot >= d->n_assocs || SC_HANDLE_WORKER(h) != dd_w)
		return NULL;
	struct dd_assoc *as = &d->assocs[slot];
	if (as->gen != (uint32_t)(h >> 32) || as->worker != SC_HANDLE_WORKER(h) || as->a == NULL ||
	    as->app != app)
		return NULL;
	return as;
}

/*
 * A handle for an association of worker dd_w, from its slice of the table.
 * The application's limit is shared by the workers: one atomic add per
 * association opened (and one per association ended), none per message.
 */
static struct dd_assoc *
dd_assoc_new(struct dd *d, struct dd_app *app, unsigned thread, uint16_t port, int *rc)
{
	if (__atomic_add_fetch(&app->assocs, 1, __ATOMIC_RELAXED) > d->lim.app_assocs) {
		__atomic_sub_fetch(&app->assocs, 1, __ATOMIC_RELAXED);
		*rc = -ENOBUFS; /* the per-application limit */
		return NULL;
	}
	uint32_t lo = dd_w * d->per_worker, hi = lo + d->per_worker;
	for (uint32_t i = lo; i < hi; i++) {
		struct dd_assoc *as = &d->assocs[i];
		if (as->a == NULL && as->app == NULL && as->tag == 0) {
			as->tag = DD_TAG_ASSOC;
			as->app = app;
			as->thread = (uint16_t)thread;
			as->port = port;
			as->worker = (uint8_t)dd_w;
			as->up = false;
			as->backlog_aborted = false;
			as->rx_unconsumed = 0;
			app->ctr[dd_w].assocs_opened++;
			d->assocs_used[dd_w]++;
			return as;
		}
	}
	__atomic_sub_fetch(&app->assocs, 1, __ATOMIC_RELAXED);
	*rc = -ENOMEM;
	return NULL;
}

/* The application no longer counts the association against its limit. */
static void
dd_assoc_unown(struct dd_app *app)
{
	__atomic_sub_fetch(&app->assocs, 1, __ATOMIC_RELAXED);
}

static void
dd_assoc_free(struct dd *d, struct dd_assoc *as)
{
	if (as->app != NULL)
		dd_assoc_unown(as->app);
	as->a = NULL;
	as->app = NULL;
	as->tag = 0;
	as->gen++;
	if (as->gen == 0)
		as->gen = 1;
	d->assocs_used[as->worker]--;
}

/* ------------------------------------------------------------- events */

static void
dd_copy_from_msg(uint8_t *dst, const struct dpsctp_msg *m, uint32_t off, uint32_t len)
{
	for (uint32_t i = 0; i < m->nsegs && len != 0; i++) {
		const struct dpsctp_seg *s = &m->segs[i];
		if (off >= s->len) {
			off -= s->len;
			continue;
		}
		uint32_t k = s->len - off < len ? s->len - off : len;
		memcpy(dst, s->data + off, k);
		dst += k;
		len -= k;
		off = 0;
	}
}

static void
dd_copy_from_mbuf(uint8_t *dst, const struct rte_mbuf *m, uint32_t off, uint32_t len)
{
	const void *p = rte_pktmbuf_read(m, off, len, dst);
	if (p != dst)
		memcpy(dst, p, len);
}

/*
 * Where an event's bytes come from: a message in a callback, a held chain,
 * an address, a STREAM_RESET's streams (e->len / 2 of them).
 */
struct dd_src {
	const struct dpsctp_msg *msg;
	struct rte_mbuf *m; /* a chain referring to the received packets */
	const struct sc_addr *addr;
	bool zc; /* m goes by reference (zero copy); the last record takes it */
	const uint16_t *streams;
};

/* The RECV that ends a message its sender abandoned: no bytes, only its slot. */
static bool
dd_recv_aborted(const struct sc_evt *e)
{
	return e->type == SC_EVT_RECV && (e->flags & SC_RECV_ABORTED) != 0;
}

/* One more event in t's rings this round (published by dd_app_wake()). */
static void
dd_commit(struct dd_app *app)
{
	app->ctr[dd_w].events++;
}

/* Every segment's bytes lie in the packet-buffer memfd (the pool's memory). */
static bool
dd_in_zc(const struct rte_mbuf *m)
{
	if (dd_g->zc_base == NULL)
		return false;
	for (; m != NULL; m = m->next) {
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
		if (p < dd_g->zc_base ||
		    (uint64_t)(p - dd_g->zc_base) + m->data_len > dd_g->zc_bytes)
			return false;
	}
	return true;
}

/*
 * A message by reference: one RECV (SC_RECV_ZC) per segment of the chain,
 * each naming its bytes by offset in the packet-buffer memfd through a
 * 16-byte record in the rx arena. The record of the last segment owns the
 * chain: it is freed when the application's next poll gives that record
 * back (dd_reap_unread()), which is what keeps the bytes unchanged until
 * then.
 */
static bool
dd_post_zc(struct dd_app *app, unsigned ti, const struct sc_evt *e, const struct dd_src *src,
	   uint32_t *done)
{
	struct dd_thread *t = &app->t[dd_w][ti];
	uint32_t pos = 0;
	for (struct rte_mbuf *seg = src->m; seg != NULL; seg = seg->next) {
		uint32_t sl = seg->data_len;
		if (pos + sl <= *done) {
			pos += sl;
			continue;
		}
		uint32_t skip = *done - pos;
		bool last = seg->next == NULL;
		struct sc_unread rec = { dd_handle_slot(e->assoc), (uint32_t)(e->assoc >> 32),
					 sl - skip, 0, last ? src->m : NULL };
		uint8_t *b;
		struct sc_evt *slot =
			sc_post_bytes(&t->post, e, sizeof(struct sc_zc_ref), &rec, &b);
		if (slot == NULL)
			return false;
		const uint8_t *p = rte_pktmbuf_mtod_offset(seg, const uint8_t *, skip);
		struct sc_zc_ref z = { (uint64_t)(p - dd_g->zc_base), sl - skip, 0 };
		memcpy(b, &z, sizeof(z));
		slot->flags |= SC_RECV_ZC;
		if (!last)
			slot->flags |= SC_RECV_MORE;
		if (*done != 0) /* a piece after the first continues the message */
			slot->flags |= SC_RECV_CONT;
		*done += z.len;
		pos += sl;
		dd_commit(app);
	}
	app->ctr[dd_w].recv_msgs++;
	app->ctr[dd_w].recv_bytes += e->len;
	app->ctr[dd_w].recv_zero_copy++;
	return true;
}

/* sc_post_copy_fn: a message's bytes from a callback's message or a held chain. */
static void
dd_copy_src(void *arg, uint8_t *dst, uint32_t off, uint32_t len)
{
	const struct dd_src *src = arg;
	if (src->msg != NULL)
		dd_copy_from_msg(dst, src->msg, off, len);
	else
		dd_copy_from_mbuf(dst, src->m, off, len);
}

/*
 * One event into thread t's rings now, or false when there is no room
 * (event slot, arena bytes, a record of the unread bytes). A message larger
 * than a quarter of the arena goes in pieces, each its own RECV with
 * SC_RECV_MORE but the last; `*done` counts what went, so a message
 * interrupted by a full ring continues where it stopped.
 */
static bool
dd_post(struct dd_app *app, unsigned ti, const struct sc_evt *e, const struct dd_src *src,
	uint32_t *done)
{
	struct dd_thread *t = &app->t[dd_w][ti];
	if (e->type == SC_EVT_RECV && src->zc)
		return dd_post_zc(app, ti, e, src, done);
	if (e->type == SC_EVT_RECV && !dd_recv_aborted(e)) {
		uint32_t before = t->post.pending;
		bool all = sc_post_recv(&t->post, e, dd_handle_slot(e->assoc),
					(uint32_t)(e->assoc >> 32), dd_copy_src, (void *)src, done);
		app->ctr[dd_w].events += t->post.pending - before;
		if (!all)
			return false;
		app->ctr[dd_w].recv_msgs++;
		app->ctr[dd_w].recv_bytes += e->len;
		return true;
	}
	/* An address, or the streams reset (none: every stream), ride in the rx
	 * arena, as a message's bytes do. */
	const void *bytes = NULL;
	uint32_t len = 0;
	if (e->type == SC_EVT_PEER_ADDR_CHANGE) {
		bytes = src->addr;
		len = sizeof(struct sc_addr);
	} else if (e->type == SC_EVT_STREAM_RESET && e->len != 0) {
		bytes = src->streams;
		len = e->len;
	}
	if (bytes == NULL) {
		if (sc_post_plain(&t->post, e) == NULL)
			return false;
	} else {
		static const struct sc_unread none = { 0, 0, 0, 0, NULL };
		uint8_t *b;
		if (sc_post_bytes(&t->post, e, len, &none, &b) == NULL)
			return false;
		memcpy(b, bytes, len);
	}
	dd_commit(app);
	return true;
}

/*
 * A thread's backlog is full, or no indirect mbuf was left to hold a
 * message: the association cannot be served without losing data, so it
 * ends, visibly (an ABORT to the peer; COMM_LOST to the application once
 * its backlog drains).
 */
static void
dd_backlog_full(struct dd_app *app, struct dd_assoc *as)
{
	/* Called once per event that finds no room: the rest of the packet's
	 * messages follow before the abort takes effect (dpsctp_abort() from
	 * inside a callback waits for the run to end). One association, one
	 * count. */
	if (as != NULL && as->backlog_aborted)
		return;
	app->ctr[dd_w].backlog_aborts++;
	if (as != NULL && as->a != NULL) {
		as->backlog_aborted = true;
		(void)dpsctp_abort(as->a);
	}
}

/*
 * A thread's held events: --backlog of any kind, and room beyond for the
 * end event (COMM_LOST, SHUTDOWN_COMPLETE, CANT_START) of each association
 * its application may have (--app-assocs): an association aborted because
 * the backlog was full is still heard to end, and its handle is not left
 * dangling.
 */
static uint32_t
dd_held_cap(const struct dd *d)
{
	return d->lim.backlog + d->lim.app_assocs;
}

static bool
dd_evt_is_end(const struct sc_evt *e)
{
	return e->type == SC_EVT_COMM_LOST || e->type == SC_EVT_SHUTDOWN_COMPLETE ||
	       e->type == SC_EVT_CANT_START;
}

/* An event for thread t: now, or after the ones already waiting. */
static void
dd_emit(struct dd *d, struct dd_app *app, unsigned ti, const struct sc_evt *e,
	const struct dd_src *src, struct dd_assoc *as)
{
	struct dd_thread *t = &app->t[dd_w][ti];
	uint32_t done = 0;
	struct dd_src zsrc;
	if (e->type == SC_EVT_RECV && app->sa->zero_copy && !dd_recv_aborted(e)) {
		/* By reference when every byte lies in the shared packet buffers;
		 * a copy otherwise (no indirect mbuf left, a buffer from elsewhere). */
		zsrc = (struct dd_src){ src->msg, dpsctp_msg_to_mbuf(as->a, src->msg), NULL, true,
					NULL };
		zsrc.zc = zsrc.m != NULL && dd_in_zc(zsrc.m);
		if (zsrc.m != NULL && !zsrc.zc) {
			rte_pktmbuf_free(zsrc.m);
			zsrc.m = NULL;
		}
		if (zsrc.zc)
			src = &zsrc;
	}
	if (t->held_n == 0 && dd_post(app, ti, e, src, &done))
		return;
	if (t->held_n >= d->lim.backlog && !(dd_evt_is_end(e) && t->held_n < dd_held_cap(d))) {
		/* A message by reference that went in part: the application may
		 * read those parts, so the chain goes with the last of them. */
		if (src->zc && done != 0)
			sc_post_last(&t->post)->owner = src->m;
		else if (src->zc)
			rte_pktmbuf_free(src->m);
		dd_backlog_full(app, as);
		return;
	}
	struct dd_held *h = &t->held[(t->held_head + t->held_n) % dd_held_cap(d)];
	memset(h, 0, sizeof(*h));
	h->e = *e;
	h->done = done;
	if (e->type == SC_EVT_RECV && !dd_recv_aborted(e)) {
		/* Held by reference to the received packets: no copy, and the
		 * window stays closed by these bytes until they are read. */
		h->zc = src->zc;
		h->m = src->zc ? src->m : dpsctp_msg_to_mbuf(as->a, src->msg);
		if (h->m == NULL) {
			dd_backlog_full(app, as);
			return;
		}
	} else if (e->type == SC_EVT_PEER_ADDR_CHANGE) {
		h->addr = *src->addr;
	} else if (e->type == SC_EVT_STREAM_RESET && e->len != 0) {
		memcpy(h->sids, src->streams, e->len); /* at most SC_RECONF_MAX_STREAMS */
	}
	t->held_n++;
	app->ctr[dd_w].held++;
}

/* Thread t's backlog into its rings, oldest first, as far as they have room. */
static unsigned
dd_drain_held(struct dd *d, struct dd_app *app, unsigned ti)
{
	struct dd_thread *t = &app->t[dd_w][ti];
	unsigned n = 0;
	while (t->held_n != 0) {
		struct dd_held *h = &t->held[t->held_head];
		struct dd_src src = { NULL, h->m, &h->addr, h->zc, h->sids };
		if (!dd_post(app, ti, &h->e, &src, &h->done))
			break;
		if (!h->zc)
			rte_pktmbuf_free(h->m); /* copied; a reference is the last record's */
		t->held_head = (t->held_head + 1) % dd_held_cap(d);
		t->held_n--;
		n++;
	}
	return n;
}

/* sc_post_read_fn: a span the application has read; its window reopens by its bytes. */
static void
dd_unread_done(void *arg, const struct sc_unread *u)
{
	struct dd *d = arg;
	rte_pktmbuf_free(u->owner); /* zero copy: the application is done with the bytes */
	if (u->bytes != 0 && u->slot < d->n_assocs) {
		struct dd_assoc *as = &d->assocs[u->slot];
		if (as->gen == u->gen && as->a != NULL && as->app != NULL)
			(void)dpsctp_consumed(as->a, u->bytes);
	}
}

/* sc_post_read_fn at detach: only the chains go back (the associations go too). */
static void
dd_unread_drop(void *arg, const struct sc_unread *u)
{
	(void)arg;
	rte_pktmbuf_free(u->owner);
}

/* The application has read up to its rx arena's tail: reopen those windows. */
static int
dd_reap_unread(struct dd *d, struct dd_thread *t)
{
	return sc_post_reap(&t->post, dd_unread_done, d);
}

/* ---------------------------------------------------------- callbacks */

static void
dd_on_recv_here(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg)
{
	struct dd_assoc *as = arg;
	(void)a;
	if (as->tag != DD_TAG_ASSOC || as->app == NULL) {
		dd_count(&dd_g->orphan_events);
		return;
	}
	struct sc_evt e;
	memset(&e, 0, sizeof(e));
	e.type = SC_EVT_RECV;
	/* A part of a message the data plane delivers in parts stays one here
	 * (MORE, CONT): the application must be able to tell it from a message. */
	e.flags = (uint8_t)(((m->flags & DPSCTP_MSG_UNORDERED) ? SC_RECV_UNORDERED : 0) |
			    ((m->flags & DPSCTP_MSG_MORE) ? SC_RECV_MORE : 0) |
			    ((m->flags & DPSCTP_MSG_CONT) ? SC_RECV_CONT : 0));
	/* The end of a message in parts its sender abandoned (PR-SCTP): no bytes,
	 * and it ends the parts before it (a RECV that continues them, no MORE). */
	if (m->flags & DPSCTP_MSG_ABORTED)
		e.flags = (uint8_t)((e.flags & SC_RECV_UNORDERED) | SC_RECV_CONT | SC_RECV_ABORTED);
	e.sid = m->sid;
	e.ssn = m->ssn;
	e.mid = m->mid;		 /* the parts of one message share (sid, U, mid) */
	e.ppid = htonl(m->ppid); /* the sidecar's PPIDs are in network order (sc_proto.h) */
	e.assoc = dd_handle(dd_g, as);
	e.len = (m->flags & DPSCTP_MSG_ABORTED) ? 0 : m->len;
	struct dd_src src = { m, NULL, NULL, false, NULL };
	dd_emit(dd_g, as->app, as->thread, &e, &src, as);
}

/*
 * An association accepted on a listening port: adopt it, or abort it. It
 * counts against its application's --app-assocs as one it connected does:
 * over the limit (or with the handle table full, or when it cannot take
 * its application's option defaults) it is aborted, and counted
 * (orphan_accepts).
 */
static struct dd_assoc *
dd_adopt(struct dd *d, struct dd_listener *l, struct dpsctp_assoc *a)
{
	int rc;
	struct dd_assoc *as =
		l->app != NULL ? dd_assoc_new(d, l->app, l->thread, l->port, &rc) : NULL;
	/* It starts with its application's option defaults, or not at all: an
	 * association that ran with others than the application set would be
	 * wrong silently (the data plane's option blocks ran out: -ENOMEM). */
	if (as != NULL && dd_opt_apply_defaults(l->app, a) != 0) {
		dd_assoc_free(d, as);
		as = NULL;
	}
	if (as == NULL) {
		dd_count(&d->orphan_accepts);
		(void)dpsctp_abort(a);
		return NULL;
	}
	as->a = a;
	as->worker = (uint8_t)dpsctp_assoc_worker(a);
	dpsctp_assoc_set_callbacks(a, &dd_callbacks, as);
	return as;
}

/* COMM_UP and RESTART: what the association negotiated (RFC 6458's sac_info). */
static uint8_t
dd_extensions(const struct dpsctp_assoc *a)
{
	struct dpsctp_assoc_stats st;
	if (dpsctp_assoc_get_stats(a, &st) != 0)
		return 0;
	return (uint8_t)(st.extensions & DPSCTP_CONFIG_EXTENSIONS);
}

/* Who an association is with, and on which of our ports (COMM_UP and the ends). */
static void
dd_evt_who(struct sc_evt *e, const struct dpsctp_event *ev, const struct dd_assoc *as)
{
	e->port = ev->local_port != 0 ? ev->local_port : as->port;
	e->peer_port = ev->peer_port;
	if (ev->addr.family == 4 || ev->addr.family == 6) {
		e->peer.family = ev->addr.family;
		memcpy(e->peer.bytes, ev->addr.bytes, sizeof(e->peer.bytes));
	}
}

/*
 * STREAM_RESET: the streams ride in the rx arena, at most
 * SC_RECONF_MAX_STREAMS per event. A peer's request performed at once may
 * name more (as many as its packet holds): they go as several events with
 * the same flags, in order. None listed: every stream.
 */
static void
dd_stream_reset(struct dd *d, struct dd_assoc *as, const struct dpsctp_event *ev,
		const struct sc_evt *tmpl)
{
	uint32_t n = ev->streams != NULL ? ev->n_streams : 0, i = 0;
	do {
		uint32_t k = n - i < SC_RECONF_MAX_STREAMS ? n - i : SC_RECONF_MAX_STREAMS;
		struct sc_evt e = *tmpl;
		e.type = SC_EVT_STREAM_RESET;
		e.flags = (uint8_t)(ev->reset_flags & SC_RESET_FLAGS);
		e.len = k * (uint32_t)sizeof(uint16_t);
		struct dd_src src = { NULL, NULL, NULL, false,
				      ev->streams != NULL ? ev->streams + i : NULL };
		dd_emit(d, as->app, as->thread, &e, &src, as);
		i += k;
	} while (i < n && as->app != NULL);
}

static void
dd_on_event_here(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	struct dd *d = dd_g;
	struct dd_assoc *as = arg;
	if (as->tag == DD_TAG_LISTENER) {
		if (ev->type != DPSCTP_EV_COMM_UP) {
			dd_count(&d->orphan_events); /* the end of one we aborted at once */
			return;
		}
		as = dd_adopt(d, arg, a);
		if (as == NULL)
			return;
	}
	bool final = ev->type == DPSCTP_EV_COMM_LOST || ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE ||
		     ev->type == DPSCTP_EV_CANT_START;
	if (as->app == NULL) { /* its application left: we aborted it */
		dd_count(&d->orphan_events);
		if (final)
			dd_assoc_free(d, as);
		return;
	}
	struct sc_evt e;
	memset(&e, 0, sizeof(e));
	e.assoc = dd_handle(d, as);
	struct sc_addr addr;
	struct dd_src src = { NULL, NULL, &addr, false, NULL };
	switch (ev->type) {
	case DPSCTP_EV_COMM_UP:
		as->a = a;
		as->up = true;
		e.type = SC_EVT_COMM_UP;
		e.sid = ev->outbound_streams;
		e.ssn = ev->inbound_streams;
		e.extensions = dd_extensions(a);
		dd_evt_who(&e, ev, as);
		break;
	case DPSCTP_EV_RESTART:
		e.type = SC_EVT_RESTART;
		e.sid = ev->outbound_streams;
		e.ssn = ev->inbound_streams;
		e.extensions = dd_extensions(a);
		dd_evt_who(&e, ev, as);
		break;
	case DPSCTP_EV_COMM_LOST:
		e.type = SC_EVT_COMM_LOST;
		e.error = ev->error;
		e.reason = (uint8_t)ev->reason;
		dd_evt_who(&e, ev, as);
		break;
	case DPSCTP_EV_SHUTDOWN_COMPLETE:
		e.type = SC_EVT_SHUTDOWN_COMPLETE;
		break;
	case DPSCTP_EV_CANT_START:
		/* A wrong port (the peer's ABORT) and a silent peer (T1-init) differ in reason. */
		e.type = SC_EVT_CANT_START;
		e.error = ev->error;
		e.reason = (uint8_t)ev->reason;
		dd_evt_who(&e, ev, as);
		break;
	case DPSCTP_EV_PEER_ADDR_CHANGE:
		e.type = SC_EVT_PEER_ADDR_CHANGE;
		e.addr_state = ev->addr_state;
		memset(&addr, 0, sizeof(addr));
		addr.family = ev->addr.family;
		memcpy(addr.bytes, ev->addr.bytes, sizeof(addr.bytes));
		break;
	case DPSCTP_EV_SEND_FAILED:
		e.type = SC_EVT_SEND_FAILED;
		e.sid = ev->sid;
		e.ppid = htonl(ev->ppid);
		e.len = ev->length;
		e.pr_policy = ev->pr_policy <= DPSCTP_PR_PRIO ? (uint8_t)ev->pr_policy : 0;
		e.mid = ev->context; /* the wire's place for it (sc_proto.h) */
		if (ev->sent)
			e.flags = SC_FAILED_SENT;
		break;
	case DPSCTP_EV_STREAM_RESET:
		dd_stream_reset(d, as, ev, &e);
		return;
	case DPSCTP_EV_ASSOC_RESET:
		e.type = SC_EVT_ASSOC_RESET;
		e.flags = (uint8_t)(ev->reset_flags & SC_RESET_FLAGS);
		e.ppid = ev->local_tsn; /* numbers, host order */
		e.mid = ev->remote_tsn;
		break;
	case DPSCTP_EV_STREAM_CHANGE:
		e.type = SC_EVT_STREAM_CHANGE;
		e.flags = (uint8_t)(ev->reset_flags & SC_RESET_FLAGS);
		e.sid = ev->outbound_streams;
		e.ssn = ev->inbound_streams;
		break;
	case DPSCTP_EV_REMOTE_ERROR:
	default:
		return; /* no notification for it in the sidecar protocol yet */
	}
	struct dd_app *app = as->app;
	dd_emit(d, app, as->thread, &e, &src, as);
	if (final)
		dd_assoc_free(d, as);
}

/*
 * A callback touches its association's worker's state: on that worker's
 * thread, or on the main thread with the others parked (a departure's
 * ABORTs) or stopped (the end).
 */
static void
dd_on_recv(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg)
{
	unsigned saved = dd_w;
	dd_w = dpsctp_assoc_worker(a);
	dd_on_recv_here(a, m, arg);
	dd_w = saved;
}

static void
dd_on_event(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg)
{
	unsigned saved = dd_w;
	dd_w = dpsctp_assoc_worker(a);
	dd_on_event_here(a, ev, arg);
	dd_w = saved;
}

const struct dpsctp_callbacks dd_callbacks = { dd_on_recv, dd_on_event, NULL };

/* ------------------------------------------------------------ parking */

void
dd_world_stop(struct dd *d)
{
	if (d->n_workers < 2 || atomic_load_explicit(&d->quit, memory_order_relaxed))
		return; /* nobody else runs (after dd_run(), this thread runs them all) */
	uint64_t seq = atomic_load_explicit(&d->stop_seq, memory_order_relaxed) + 1;
	atomic_store_explicit(&d->stop_seq, seq, memory_order_release);
	/* Each of them is at most one loop iteration away (nothing in it waits). */
	for (unsigned w = 1; w < d->n_workers; w++)
		while (atomic_load_explicit(&d->wk[w].parked, memory_order_acquire) != seq)
			rte_pause();
}

void
dd_world_go(struct dd *d)
{
	if (d->n_workers < 2 || atomic_load_explicit(&d->quit, memory_order_relaxed))
		return; /* nobody else runs (after dd_run(), this thread runs them all) */
	atomic_store_explicit(&d->go_seq, atomic_load_explicit(&d->stop_seq, memory_order_relaxed),
			      memory_order_release);
}

/* ----------------------------------------------------------- requests */

static int
dd_listen(struct dd *d, struct dd_app *app, unsigned ti, uint16_t port)
{
	struct dd_listener *l = NULL, *free_l = NULL;
	for (uint32_t i = 0; i < d->n_listeners; i++) {
		if (d->listeners[i].port == port)
			l = &d->listeners[i];
		else if (d->listeners[i].port == 0 && free_l == NULL)
			free_l = &d->listeners[i];
	}
	if (l != NULL)
		return l->app == app ? -EEXIST : -EADDRINUSE; /* isolation */
	if (app->listens >= d->lim.app_listens)
		return -ENOBUFS;
	if (free_l == NULL)
		return -ENOMEM;
	int rc = dpsctp_listen(d->dp, port, &dd_callbacks, free_l);
	if (rc != 0)
		return rc;
	free_l->port = port;
	free_l->app = app;
	free_l->thread = (uint16_t)ti;
	app->listens++;
	return 0;
}

/* The port goes back to the data plane: INITs to it are refused from now
 * on; the associations accepted on it stay their application's. */
static void
dd_listener_close(struct dd *d, struct dd_listener *l)
{
	(void)dpsctp_unlisten(d->dp, l->port); /* 0: we listen on it */
	l->app->listens--;
	l->port = 0;
	l->app = NULL;
	l->thread = 0;
}

static int
dd_unlisten(struct dd *d, struct dd_app *app, uint16_t port)
{
	for (uint32_t i = 0; i < d->n_listeners; i++)
		if (d->listeners[i].port == port && d->listeners[i].app == app) {
			dd_listener_close(d, &d->listeners[i]);
			return 0;
		}
	return -ENOENT; /* not a port this application listens on */
}

static enum sc_verdict
dd_connect(struct dd *d, struct dd_app *app, unsigned ti, const struct sc_req *r, const uint8_t *in,
	   struct sc_cpl *c)
{
	/* The addresses, then the INITMSG (value bytes, sc_req_check() bounded them),
	 * copied out first: the application could change them meanwhile. */
	struct sctp_addr peers[SC_MAX_ADDRS];
	unsigned n = (r->len - r->value) / (uint32_t)sizeof(struct sc_addr);
	for (unsigned i = 0; i < n; i++) {
		struct sc_addr sa;
		memcpy(&sa, in + i * sizeof(sa), sizeof(sa));
		peers[i].family = sa.family;
		memcpy(peers[i].bytes, sa.bytes, sizeof(peers[i].bytes));
		if (peers[i].family != 4 && peers[i].family != 6)
			c->status = -EINVAL;
	}
	struct dpsctp_initmsg call, merged;
	if (r->value != 0 && r->value != sizeof(call))
		c->status = -EINVAL; /* not an INITMSG of this version's */
	else if (r->value != 0)
		memcpy(&call, in + n * sizeof(struct sc_addr), sizeof(call));
	if (c->status != 0)
		return SC_DONE;
	const struct dpsctp_initmsg *init =
		dd_opt_initmsg(app, r->value != 0 ? &call : NULL, &merged);
	int rc;
	struct dd_assoc *as = dd_assoc_new(d, app, ti, 0, &rc);
	if (as == NULL) {
		c->status = rc;
		return SC_DONE;
	}
	/* On this worker: its tag is this worker's, so the association stays here. */
	struct dpsctp_assoc *a = dpsctp_connect_opts(d->dp, dd_w, peers, n, r->port, 0, init,
						     &dd_callbacks, as, &rc);
	if (a == NULL) {
		dd_assoc_free(d, as);
		c->status = rc;
		return SC_DONE;
	}
	as->a = a;
	as->worker = (uint8_t)dpsctp_assoc_worker(a);
	/* The application's other defaults, before the INIT is answered; an association
	 * that cannot have them is not made (aborted as an orphan: no event of it). */
	rc = dd_opt_apply_defaults(app, a);
	if (rc != 0) {
		as->app = NULL;
		dd_assoc_unown(app);
		(void)dpsctp_abort(a);
		c->status = rc;
		return SC_DONE;
	}
	c->assoc = dd_handle(d, as);
	return SC_DONE;
}

/* Send what DPSCTP_SEND_MORE held back on the association named h, if it still lives. */
static void
dd_flush_handle(struct dd *d, struct dd_app *app, uint64_t h)
{
	struct dd_assoc *as = dd_lookup(d, app, h);
	if (as != NULL && as->up)
		(void)dpsctp_flush(as->a);
}

/*
 * bytes: the message, looked at, not taken (sc_serve.c): a full send buffer
 * leaves the request where it is. *held: the message went with
 * DPSCTP_SEND_MORE (the caller flushes if nothing follows).
 */
static enum sc_verdict
dd_send(struct dd *d, struct dd_app *app, const struct sc_req *r, const void *bytes, bool more,
	bool *held, struct sc_cpl *c)
{
	struct dd_assoc *as = dd_lookup(d, app, r->assoc);
	if (as == NULL)
		c->status = -ENOENT;
	else if (!as->up)
		c->status = -ENOTCONN;
	if (c->status == 0) {
		/* The policy as the application gave it: dpsctp_send() refuses a bad one. */
		struct dpsctp_sndinfo si = { .sid = r->sid,
					     .ppid = ntohl(r->ppid), /* a number to dpsctp_send() */
					     .pr_policy = r->pr_policy,
					     .pr_value = r->pr_value,
					     .context = r->context };
		if (r->flags & SC_SEND_UNORDERED)
			si.flags |= DPSCTP_SEND_UNORDERED;
		if (r->flags & SC_SEND_SACK_NOW)
			si.flags |= DPSCTP_SEND_SACK_NOW;
		if (r->flags & SC_SEND_DEFAULT) {
			/* RFC 6458 SCTP_DEFAULT_SNDINFO: the association's, as dpsctp_send()
			 * with no sndinfo takes it (sc_req_check() kept the request's zero). */
			struct dpsctp_default_sndinfo ds;
			size_t n = sizeof(ds);
			if (dpsctp_assoc_getopt(as->a, DPSCTP_OPT_DEFAULT_SNDINFO, &ds, &n) == 0)
				si = (struct dpsctp_sndinfo){ .sid = ds.sid,
							      .ppid = ds.ppid,
							      .flags = ds.flags &
								       (DPSCTP_SEND_UNORDERED |
									DPSCTP_SEND_SACK_NOW),
							      .pr_policy = ds.pr_policy,
							      .pr_value = ds.pr_value,
							      .context = ds.context };
		}
		if (more)
			si.flags |= DPSCTP_SEND_MORE;
		int rc = dpsctp_send_bytes(as->a, &si, bytes, r->len);
		if (rc == -EAGAIN) {
			/* What earlier requests left queued with DPSCTP_SEND_MORE goes now. */
			(void)dpsctp_flush(as->a);
			return SC_RETRY;
		}
		c->status = rc;
		*held = rc == 0 && more;
		if (rc == 0) {
			app->ctr[dd_w].sends++;
			app->ctr[dd_w].send_bytes += r->len;
		}
	}
	return SC_DONE;
}

/*
 * The stream scheduler requests: the embedded API's calls, made here on the
 * thread that polls the data plane (it owns the worker, so each runs at
 * once and its answer goes back in the completion: a setting of the send
 * queue, no waiting on anything).
 */
static void
dd_sched(struct dd *d, struct dd_app *app, const struct sc_req *r, struct sc_cpl *c)
{
	struct dd_assoc *as = dd_lookup(d, app, r->assoc);
	int rc;
	if (as == NULL) {
		c->status = -ENOENT;
		return;
	}
	switch ((enum sc_op)r->op) {
	case SC_OP_SET_SCHED:
		rc = dpsctp_set_sched(as->a, r->value);
		break;
	case SC_OP_GET_SCHED:
		rc = dpsctp_sched(as->a);
		break;
	case SC_OP_SET_STREAM_PARAM:
		rc = dpsctp_set_stream_param(as->a, r->sid, (uint16_t)r->value);
		break;
	default:
		rc = dpsctp_stream_param(as->a, r->sid);
		break;
	}
	/* A getter's answer is the value; status says only whether there is one. */
	c->status = rc < 0 ? rc : 0;
	if (rc > 0 && (r->op == SC_OP_GET_SCHED || r->op == SC_OP_GET_STREAM_PARAM))
		c->value = (uint32_t)rc;
}

/*
 * Stream reconfiguration (RFC 6525), as dd_sched(): the embedded API's
 * call, made on the thread that owns the worker, so it runs at once and
 * its result is the completion's status; what the peer answered comes
 * later as STREAM_RESET, ASSOC_RESET or STREAM_CHANGE. RESET_STREAMS'
 * list is copied out of the tx arena first (the application could change
 * it meanwhile); its bytes go back with the batch's.
 */
static enum sc_verdict
dd_reconf(struct dd *d, struct dd_app *app, const struct sc_req *r, const void *bytes,
	  struct sc_cpl *c)
{
	uint16_t sids[SC_RECONF_MAX_STREAMS];
	uint16_t n = (uint16_t)(r->len / sizeof(uint16_t)); /* sc_req_check(): at most 32 */
	if (r->op == SC_OP_RESET_STREAMS && n != 0)
		memcpy(sids, bytes, r->len);
	struct dd_assoc *as = dd_lookup(d, app, r->assoc);
	if (as == NULL)
		c->status = -ENOENT;
	else if (r->op == SC_OP_RESET_STREAMS)
		c->status = dpsctp_reset_streams(as->a, r->value, n != 0 ? sids : NULL, n);
	else if (r->op == SC_OP_ADD_STREAMS)
		c->status = dpsctp_add_streams(as->a, (uint16_t)(r->value & 0xffffu),
					       (uint16_t)(r->value >> 16));
	else
		c->status = dpsctp_reset_assoc(as->a);
	return SC_DONE;
}

/* The completion slots a request's answer takes beyond its completion. */
static uint32_t
dd_answer_slots(const struct sc_req *r)
{
	if (r->op != SC_OP_GETOPT || r->value == 0 || r->value >= DPSCTP_OPT_END)
		return 0;
	return (uint32_t)SC_OPT_SLOTS(dpsctp_opt_size((enum dpsctp_opt)r->value));
}

/*
 * The options (SETOPT, GETOPT), as dd_sched(): the embedded API's call,
 * made on the thread that owns the worker, so it runs at once and its
 * result is the completion's (a GETOPT's answer in ans). Association 0 is
 * the application's defaults (dd_opt.c). The struct is copied out of the
 * tx arena first (the application could change it meanwhile); the data
 * plane checks it again (dpsctp_opt_check()): the client library's check
 * is the application's, not ours.
 */
static enum sc_verdict
dd_opt(struct dd *d, struct dd_app *app, const struct sc_req *r, const void *bytes,
       struct sc_cpl *c, struct sc_answer *ans)
{
	union {
		uint64_t align;
		uint8_t bytes[SC_OPT_MAX_BYTES];
	} v;
	memset(&v, 0, sizeof(v));
	if (r->len != 0) /* at most SC_OPT_MAX_BYTES: sc_req_check() */
		memcpy(v.bytes, bytes, r->len);
	enum dpsctp_opt opt = (enum dpsctp_opt)r->value;
	size_t size = r->value < DPSCTP_OPT_END ? dpsctp_opt_size(opt) : 0;
	struct dd_assoc *as = r->assoc != 0 ? dd_lookup(d, app, r->assoc) : NULL;
	if (size == 0)
		c->status = -ENOPROTOOPT;
	else if (r->len != 0 && r->len != size)
		c->status = -EINVAL; /* not the option's struct */
	else if (r->assoc != 0 && as == NULL)
		c->status = -ENOENT; /* ended, or another application's */
	if (c->status != 0)
		return SC_DONE;
	if (r->op == SC_OP_SETOPT) {
		c->status = as == NULL ? dd_opt_set_default(d, app, opt, v.bytes, r->len)
				       : dpsctp_assoc_setopt(as->a, opt, v.bytes, r->len, NULL, 0);
		return SC_DONE;
	}
	/* The question's input fields (a path's address) in the answer's place. */
	size_t n = sizeof(ans->bytes);
	memcpy(ans->bytes, v.bytes, sizeof(ans->bytes));
	int rc = as == NULL ? dd_opt_get_default(d, app, opt, ans->bytes, &n)
			    : dpsctp_assoc_getopt(as->a, opt, ans->bytes, &n);
	if (rc == 0 && (n == 0 || n > size)) /* more than the slots counted on */
		rc = -EOVERFLOW;
	c->status = rc;
	if (rc == 0) {
		ans->len = (uint32_t)n;
		c->value = (uint32_t)n;
	}
	return SC_DONE;
}

/* What sc_serve_requests() hands back: the ring set it serves. */
struct dd_serve_arg {
	struct dd *d;
	struct dd_app *app;
	unsigned ti;
};

/* A well-formed request, its arena bytes taken (sc_serve.c): into the data plane. */
static enum sc_verdict
dd_request(void *arg, const struct sc_req *r, const void *bytes, const struct sc_req *next,
	   bool *held, struct sc_cpl *c, struct sc_answer *ans)
{
	const struct dd_serve_arg *sa = arg;
	struct dd *d = sa->d;
	struct dd_app *app = sa->app;
	unsigned ti = sa->ti;
	/* The instance's requests (sc_serve.c sent those of another worker back): with the
	 * other workers parked. */
	bool global = r->op == SC_OP_LISTEN || r->op == SC_OP_UNLISTEN ||
		      (r->op == SC_OP_SETOPT && r->assoc == 0);
	struct dd_assoc *as;
	switch ((enum sc_op)r->op) {
	case SC_OP_LISTEN:
		dd_world_stop(d);
		c->status = dd_listen(d, app, ti, r->port);
		dd_world_go(d);
		return SC_DONE;
	case SC_OP_UNLISTEN:
		dd_world_stop(d);
		c->status = dd_unlisten(d, app, r->port);
		dd_world_go(d);
		return SC_DONE;
	case SC_OP_CONNECT:
		return dd_connect(d, app, ti, r, bytes, c);
	case SC_OP_SEND: {
		/* The next request sends on the same association: let this one
		 * wait to leave bundled with it (DPSCTP_SEND_MORE). */
		bool more = next != NULL && next->op == SC_OP_SEND && next->assoc == r->assoc;
		return dd_send(d, app, r, bytes, more, held, c);
	}
	case SC_OP_SHUTDOWN:
	case SC_OP_ABORT:
		as = dd_lookup(d, app, r->assoc);
		if (as == NULL)
			c->status = -ENOENT;
		else
			c->status = r->op == SC_OP_SHUTDOWN ? dpsctp_shutdown(as->a)
							    : dpsctp_abort(as->a);
		return SC_DONE;
	case SC_OP_SET_SCHED:
	case SC_OP_GET_SCHED:
	case SC_OP_SET_STREAM_PARAM:
	case SC_OP_GET_STREAM_PARAM:
		dd_sched(d, app, r, c);
		return SC_DONE;
	case SC_OP_RESET_STREAMS:
	case SC_OP_ADD_STREAMS:
	case SC_OP_RESET_ASSOC:
		return dd_reconf(d, app, r, bytes, c);
	case SC_OP_SETOPT:
	case SC_OP_GETOPT: {
		if (!global)
			return dd_opt(d, app, r, bytes, c, ans);
		dd_world_stop(d);
		enum sc_verdict v = dd_opt(d, app, r, bytes, c, ans);
		dd_world_go(d);
		return v;
	}
	case SC_OP_RELEASE: /* a barrier: its completion, in ring order, is all it asks */
	case SC_OP_COUNT:
		break;
	}
	return SC_DONE;
}

static void
dd_serve_flush(void *arg, uint64_t h)
{
	const struct dd_serve_arg *sa = arg;
	dd_flush_handle(sa->d, sa->app, h);
}

/* An ABORT done ahead of a SEND that waits for send space (sc_serve.c). */
static int32_t
dd_serve_abort(void *arg, uint64_t h)
{
	const struct dd_serve_arg *sa = arg;
	struct dd_assoc *as = dd_lookup(sa->d, sa->app, h);
	return as != NULL ? dpsctp_abort(as->a) : -ENOENT;
}

static const struct sc_serve_ops dd_serve_ops = { dd_request, dd_serve_flush, dd_serve_abort,
						  dd_answer_slots };

/* Thread ti's requests, while there is room for their completions (sc_serve.c reads the
 * ring and the arena, dd_request() does what each asks). */
static int
dd_serve_requests(struct dd *d, struct dd_app *app, unsigned ti, unsigned *work)
{
	struct dd_thread *t = &app->t[dd_w][ti];
	struct dd_serve_arg arg = { d, app, ti };
	struct sc_serve_counts cnt = { 0, 0, 0 };
	int n = sc_serve_requests(&t->th, &t->rd, app->sa->layout.arena_bytes, dd_w, &dd_serve_ops,
				  &arg, &cnt, &t->wake);
	app->ctr[dd_w].requests += cnt.requests;
	app->ctr[dd_w].bad_requests += cnt.bad_requests;
	app->ctr[dd_w].completions += cnt.completions;
	if (n < 0)
		return n;
	*work += (unsigned)n;
	return 0;
}

unsigned
dd_app_serve(struct dd *d, struct dd_app *app)
{
	unsigned work = 0;
	for (unsigned ti = 0; ti < app->sa->layout.n_threads; ti++) {
		struct dd_thread *t = &app->t[dd_w][ti];
		if (dd_reap_unread(d, t) != 0 || dd_serve_requests(d, app, ti, &work) != 0) {
			fprintf(stderr, "dpsctpd: application %u (%s) broke its rings: detached\n",
				app->sa->id, app->sa->name);
			dd_count(&d->apps_dropped);
			if (dd_w == 0) {
				sc_server_drop(&d->srv, app->sa); /* frees app */
			} else {
				/* The main thread detaches it (with us parked): not served
				 * meanwhile. */
				__atomic_store_n(&app->broken, true, __ATOMIC_RELEASE);
			}
			return work + 1;
		}
		work += dd_drain_held(d, app, ti);
	}
	return work;
}

/* Write the eventfds of the threads that asked for a wake-up. */
void
dd_app_wake(struct dd_app *app)
{
	/* What this round posted, published at once: the arena's bytes before
	 * the events that name them, one index store each. */
	for (unsigned ti = 0; ti < app->sa->layout.n_threads; ti++) {
		struct dd_thread *t = &app->t[dd_w][ti];
		if (sc_post_publish(&t->post))
			t->wake = true;
	}
	for (unsigned ti = 0; ti < app->sa->layout.n_threads; ti++)
		if (app->t[dd_w][ti].wake) {
			uint64_t one = 1;
			app->t[dd_w][ti].wake = false;
			app->ctr[dd_w].wakeups++;
			if (write(app->sa->efd[ti], &one, sizeof(one)) < 0) {
				/* EAGAIN: the counter is already huge, the app is awake anyway */
			}
		}
}

void
dd_app_say_stopping(struct dd *d)
{
	for (unsigned i = 0; i < SC_SERVER_MAX_APPS; i++) {
		struct sc_app *sa = d->srv.apps[i];
		if (sa == NULL)
			continue;
		struct dd_app *app = sa->user;
		struct sc_evt e;
		memset(&e, 0, sizeof(e));
		e.type = SC_EVT_DAEMON_STOPPING;
		/* Worker 0's set of each thread: one such event per thread (the workers are
		 * stopped: this thread may post into any set). */
		for (unsigned ti = 0; ti < sa->layout.n_threads; ti++) {
			struct dd_src src = { NULL, NULL, NULL, false, NULL };
			dd_emit(d, app, ti, &e, &src, NULL);
			app->t[dd_w][ti].wake = true; /* whether it sleeps or not */
		}
		for (unsigned w = 0; w < d->n_workers; w++) {
			unsigned saved = dd_w;
			dd_w = w;
			dd_app_wake(app);
			dd_w = saved;
		}
	}
}

/* ------------------------------------------------- attach and detach */

/* Where sa sits in the server's table: its place in d->live too. */
static int
dd_app_index(const struct dd *d, const struct sc_app *sa)
{
	for (unsigned i = 0; i < SC_SERVER_MAX_APPS; i++)
		if (d->srv.apps[i] == sa)
			return (int)i;
	return -1;
}

void
dd_on_attach(struct sc_server *s, struct sc_app *sa, void *arg)
{
	struct dd *d = arg;
	(void)s;
	size_t bytes = sizeof(struct dd_app);
	struct dd_app *app = calloc(1, sizeof(*app));
	bool ok = app != NULL, rings_ok = true;
	for (unsigned w = 0; ok && w < d->n_workers; w++)
		for (unsigned ti = 0; ok && ti < sa->layout.n_threads; ti++) {
			struct dd_thread *t = &app->t[w][ti];
			uint32_t cap = 2u * sa->layout.ring_slots;
			struct sc_unread *unread = calloc(cap, sizeof(*unread));
			sc_post_init(&t->post, &t->th, unread, cap);
			t->held = calloc(dd_held_cap(d), sizeof(*t->held));
			bytes += dd_held_cap(d) * sizeof(*t->held) + cap * sizeof(*unread);
			ok = t->held != NULL && unread != NULL;
			/* Before the welcome (sc_server.c): only the daemon has written
			 * the region, so rings it cannot take are a fault of ours. */
			if (ok && sc_region_set(sa->base, &sa->layout, ti, w, true, &t->th) != 0)
				ok = rings_ok = false;
		}
	if (app != NULL) {
		app->sa = sa;
		app->heap_bytes = bytes;
		d->heap_bytes += bytes;
	}
	sa->user = app;
	if (!ok) {
		/* The loop detaches it at once (a NULL or broken user): its socket
		 * closes and its library says the daemon is gone. */
		if (rings_ok) {
			fprintf(stderr, "dpsctpd: no memory for application %u (%s)\n", sa->id,
				sa->name);
		} else {
			fprintf(stderr,
				"dpsctpd: application %u (%s): its new rings do not check out: "
				"detached\n",
				sa->id, sa->name);
			dd_count(&d->apps_dropped);
		}
		if (app != NULL)
			app->broken = true;
		return;
	}
	/* The other workers serve it from now on (their sets were made above). */
	int i = dd_app_index(d, sa);
	if (i >= 0)
		atomic_store_explicit(&d->live[i], app, memory_order_release);
	printf("dpsctpd: application %u (%s) attached, %u threads\n", sa->id, sa->name,
	       sa->layout.n_threads);
	fflush(stdout);
}

void
dd_on_detach(struct sc_server *s, struct sc_app *sa, void *arg)
{
	struct dd *d = arg;
	(void)s;
	struct dd_app *app = sa->user;
	if (app == NULL)
		return;
	/* The other workers parked: this thread may touch every worker's
	 * associations and sets, and none of them sees the application after. */
	dd_world_stop(d);
	int idx = dd_app_index(d, sa);
	if (idx >= 0)
		atomic_store_explicit(&d->live[idx], NULL, memory_order_relaxed);
	/* Its associations end now: ABORT to each peer (RFC 9260 §9.1); the
	 * data plane's COMM_LOST finds them orphaned and frees their slots. */
	uint64_t aborted = 0;
	for (uint32_t i = 0; i < d->n_assocs; i++) {
		struct dd_assoc *as = &d->assocs[i];
		if (as->app != app)
			continue;
		as->app = NULL;
		dd_assoc_unown(app);
		if (as->a != NULL) {
			app->ctr[as->worker].assocs_aborted_at_exit++;
			aborted++;
			(void)dpsctp_abort(as->a);
		} else {
			dd_assoc_free(d, as);
		}
	}
	/* Its ports are given back: another application may listen on them. */
	for (uint32_t i = 0; i < d->n_listeners; i++)
		if (d->listeners[i].port != 0 && d->listeners[i].app == app)
			dd_listener_close(d, &d->listeners[i]);
	for (unsigned w = 0; w < d->n_workers; w++)
		for (unsigned ti = 0; ti < sa->layout.n_threads; ti++) {
			struct dd_thread *t = &app->t[w][ti];
			for (; t->held_n != 0;
			     t->held_n--, t->held_head = (t->held_head + 1) % dd_held_cap(d))
				rte_pktmbuf_free(t->held[t->held_head].m);
			sc_post_drain(&t->post, dd_unread_drop, NULL);
			free(t->held);
			free(t->post.unread);
		}
	dd_world_go(d);
	for (unsigned w = 0; w < d->n_workers; w++) {
		dd_counters_add(&d->gone, &app->ctr[w]);
		dd_counters_add(&d->gone_wk[w], &app->ctr[w]);
	}
	printf("dpsctpd: application %u (%s) detached; %llu associations aborted\n", sa->id,
	       sa->name, (unsigned long long)aborted);
	fflush(stdout);
	d->heap_bytes -= app->heap_bytes;
	free(app);
	sa->user = NULL;
}
