/* SPDX-License-Identifier: BSD-3-Clause */
/* The daemon's reading of a ring set's requests (sc_serve.h). */
#include <errno.h>
#include <string.h>

#include "dataplane/sidecar/sc_serve.h"

/* The instance's rather than a worker's (a port, the defaults every worker's associations
 * start with): worker 0's to change, with the others parked (the library posts them there). */
static bool
sc_global(const struct sc_req *r)
{
	return r->op == SC_OP_LISTEN || r->op == SC_OP_UNLISTEN ||
	       (r->op == SC_OP_SETOPT && r->assoc == 0);
}

/* A well-formed request names tx arena bytes. */
static bool
sc_names_bytes(const struct sc_req *r)
{
	switch ((enum sc_op)r->op) {
	case SC_OP_SEND:
	case SC_OP_CONNECT:
		return true;
	case SC_OP_RESET_STREAMS:
	case SC_OP_SETOPT:
	case SC_OP_GETOPT:
		return r->len != 0;
	default:
		return false;
	}
}

/*
 * Check r, take its arena bytes and hand it to the caller. The completion
 * c is filled here for what never reaches the caller: a malformed request
 * and one of the instance's on another worker.
 */
static enum sc_verdict
sc_request(struct sc_thread *th, uint64_t arena_bytes, uint32_t worker,
	   const struct sc_serve_ops *ops, void *arg, const struct sc_req *r,
	   const struct sc_req *next, bool *more, struct sc_cpl *c, struct sc_answer *ans,
	   struct sc_serve_counts *cnt)
{
	memset(c, 0, sizeof(*c));
	c->cookie = r->cookie;
	c->op = r->op;
	ans->len = 0;
	int err;
	if (sc_req_check(r, arena_bytes) != 0) {
		/* A SEND, CONNECT or RESET_STREAMS that names arena bytes we cannot
		 * trust leaves the arena out of step: nothing after it could be read. */
		if (r->op == SC_OP_SEND || r->op == SC_OP_CONNECT ||
		    (r->op == SC_OP_RESET_STREAMS && r->len != 0))
			return SC_BROKEN;
		/* An option's bytes are few: taken when they are the arena's next (the
		 * request is refused, the arena stays in step), else the same. */
		if ((r->op == SC_OP_SETOPT || r->op == SC_OP_GETOPT) && r->len != 0) {
			if (r->len > SC_OPT_MAX_BYTES || r->off >= arena_bytes ||
			    sc_arena_take(&th->tx, r->off, r->len, &err) == NULL)
				return SC_BROKEN;
		}
		cnt->bad_requests++;
		c->status = -EPROTO;
		return SC_DONE;
	}
	const void *bytes = NULL;
	if (sc_names_bytes(r)) {
		/* A SEND's are looked at, not taken: a full send buffer leaves the
		 * request where it is. The others' are taken now, copied by the caller. */
		bytes = r->op == SC_OP_SEND ? sc_arena_peek(&th->tx, r->off, r->len, &err)
					    : sc_arena_take(&th->tx, r->off, r->len, &err);
		if (bytes == NULL)
			return SC_BROKEN;
	}
	if (sc_global(r) && worker != 0) {
		/* Refused, its bytes (an option's) taken: the arena stays in step. */
		cnt->bad_requests++;
		c->status = -EXDEV;
		return SC_DONE;
	}
	enum sc_verdict v = ops->request(arg, r, bytes, next, more, c, ans);
	if (v == SC_DONE && r->op == SC_OP_SEND)
		(void)sc_arena_take(&th->tx, r->off, r->len, &err); /* given back per batch */
	return v;
}

/*
 * A SEND waits at the head of the ring for send space: ABORTs behind it
 * go now (an application must be able to end an association whose peer
 * keeps its window shut — that one's SEND then completes -ENOTCONN and
 * the ring moves on). Each is remembered by its ring position and
 * completed in its turn with the status it got here.
 */
static void
sc_abort_ahead(struct sc_thread *th, struct sc_reader *rd, uint64_t arena_bytes,
	       const struct sc_serve_ops *ops, void *arg, uint32_t from, uint32_t have)
{
	/* Each slot is looked at once while the head waits, not every round. */
	int32_t seen = (int32_t)(rd->ahead_scan - th->req.mine);
	if (seen > (int32_t)from)
		from = (uint32_t)seen;
	rd->ahead_scan = th->req.mine + have;
	for (uint32_t k = from; k < have && rd->n_ahead < SC_AHEAD_MAX; k++) {
		struct sc_req r;
		memcpy(&r, sc_ring_peek(&th->req, k), sizeof(r));
		uint32_t pos = th->req.mine + k;
		if (r.op != SC_OP_ABORT || sc_req_check(&r, arena_bytes) != 0)
			continue;
		bool done = false;
		for (uint32_t i = 0; i < rd->n_ahead; i++)
			done |= rd->ahead[i].pos == pos;
		if (done)
			continue;
		rd->ahead[rd->n_ahead].pos = pos;
		rd->ahead[rd->n_ahead].cookie = r.cookie;
		rd->ahead[rd->n_ahead].status = ops->abort(arg, r.assoc);
		rd->n_ahead++;
	}
}

/* The request at ring position pos was an ABORT done ahead: its completion. */
static bool
sc_ahead_done(struct sc_reader *rd, uint32_t pos, const struct sc_req *r, struct sc_cpl *c)
{
	for (uint32_t i = 0; i < rd->n_ahead; i++)
		if (rd->ahead[i].pos == pos && rd->ahead[i].cookie == r->cookie &&
		    r->op == SC_OP_ABORT) {
			memset(c, 0, sizeof(*c));
			c->cookie = r->cookie;
			c->op = r->op;
			c->status = rd->ahead[i].status;
			rd->ahead[i] = rd->ahead[--rd->n_ahead];
			return true;
		}
	return false;
}

/*
 * The request served at step n is always the one at ring position n,
 * copied from the ring once (then checked): a quiet send that succeeds
 * writes no completion, so how many requests one round serves is known
 * only as they are served. `next` is a copy of the request at n + 1, read
 * for DPSCTP_SEND_MORE only when it will be served this round whatever
 * the request at n does (room for a completion of each); it becomes the
 * request served at n + 1, else that one is read then. (The loop once
 * went on with `next` even when it had not been read — a quiet send
 * served with one completion slot free — serving a stale request.)
 *
 * Data left queued with DPSCTP_SEND_MORE is flushed when the request that
 * was to follow it does not send on that association (it failed, or the
 * application rewrote the slot since we looked ahead) and at the end of
 * the round: MORE never outlives the round that set it.
 */
int
sc_serve_requests(struct sc_thread *th, struct sc_reader *rd, uint64_t arena_bytes, uint32_t worker,
		  const struct sc_serve_ops *ops, void *arg, struct sc_serve_counts *cnt,
		  bool *wake)
{
	int have = sc_ring_count(&th->req);
	if (have < 0)
		return -EPROTO;
	int room = sc_ring_free(&th->cpl);
	if (room < 0)
		return -EPROTO;
	/* The event ring is checked whenever the application's rings are
	 * touched, not only when an event is next posted to it. */
	if (have > 0 && sc_ring_free(&th->evt) < 0)
		return -EPROTO;
	int n = 0, k = 0; /* requests served, completion slots written */
	struct sc_req r, next;
	struct sc_answer ans;
	bool next_read = false; /* next holds the request at position n */
	uint64_t unsent = 0;	/* an association with data held back by MORE */
	for (; n < have && k < room; n++) {
		if (next_read)
			r = next;
		else
			memcpy(&r, sc_ring_peek(&th->req, (uint32_t)n), sizeof(r));
		/* A GETOPT's answer comes in the slots after its completion: it waits
		 * for room for all of them (the application polls, room appears). */
		uint32_t extra = ops->answer_slots(&r);
		if ((uint32_t)k + 1 + extra > (uint32_t)room)
			break;
		next_read = n + 1 < have && k + 1 + (int)extra < room;
		if (next_read)
			memcpy(&next, sc_ring_peek(&th->req, (uint32_t)n + 1), sizeof(next));
		struct sc_cpl *c = sc_ring_reserve(&th->cpl, (uint32_t)k);
		uint32_t pos = th->req.mine + (uint32_t)n;
		bool more = false;
		ans.len = 0;
		enum sc_verdict v =
			sc_ahead_done(rd, pos, &r, c)
				? SC_DONE
				: sc_request(th, arena_bytes, worker, ops, arg, &r,
					     next_read ? &next : NULL, &more, c, &ans, cnt);
		if (v == SC_BROKEN)
			return -EPROTO;
		/* The answer, raw, in the slots counted on above (the caller kept it to
		 * them). */
		for (uint32_t i = 0; i < SC_OPT_SLOTS(ans.len); i++) {
			uint8_t *slot = sc_ring_reserve(&th->cpl, (uint32_t)k + 1 + i);
			uint32_t left = ans.len - i * SC_SLOT_BYTES;
			memset(slot, 0, SC_SLOT_BYTES);
			memcpy(slot, ans.bytes + i * SC_SLOT_BYTES,
			       left < SC_SLOT_BYTES ? left : SC_SLOT_BYTES);
		}
		/* What the previous send held back goes unless this one bundles with it. */
		bool sent_on =
			r.op == SC_OP_SEND && r.assoc == unsent && v == SC_DONE && c->status == 0;
		if (unsent != 0 && !sent_on)
			ops->flush(arg, unsent);
		unsent = more ? r.assoc : 0;
		if (v == SC_RETRY) {
			sc_abort_ahead(th, rd, arena_bytes, ops, arg, (uint32_t)n + 1,
				       (uint32_t)have);
			break;
		}
		cnt->requests++;
		/* A quiet send that succeeded has no completion: its slot is reused. */
		if (!(r.op == SC_OP_SEND && (r.flags & SC_SEND_QUIET) && c->status == 0)) {
			k += 1 + (int)SC_OPT_SLOTS(ans.len);
			cnt->completions++;
		}
	}
	if (unsent != 0)
		ops->flush(arg, unsent);
	/* One release and one commit for the batch: the shared indices (and the
	 * application's cache lines) are written once, not per request. */
	if (n > 0) {
		sc_arena_release(&th->tx); /* the bytes of every request taken */
		sc_ring_release(&th->req, (uint32_t)n);
	}
	if (k > 0 && sc_ring_commit(&th->cpl, (uint32_t)k))
		*wake = true;
	return n;
}
