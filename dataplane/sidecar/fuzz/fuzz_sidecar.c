/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: a hostile application's ring set against what dpsctpd
 * reads of it — the request ring, the tx arena and the consumer indices of
 * the completion and event rings and of the rx arena — through the
 * daemon's own code: sc_serve_requests() (sc_serve.c, which dd_app.c runs
 * for every set) and the event side dd_app.c posts with, sc_post.c (events,
 * messages copied in pieces, records of what is unread, zero-copy records
 * whose owner goes back once read, the reaping). The data plane is a
 * stand-in (the ops below) that checks what it is handed and answers as the
 * input says.
 *
 * The region of one set is allocated at its exact size, so ASan reports a
 * read or write outside it. Byte 0 picks the geometry (8 .. 64 slots per
 * ring, arenas of 4 or 8 KiB, the set's worker 0 or 1); then operations,
 * each an opcode byte and its operands, run in turn, the daemon's among
 * the application's, so the daemon's reading code sees the memory change
 * between its rounds:
 *
 *   POST      the application posts a request as the library would (the
 *             arena bytes it names allocated, the slot written, the head
 *             moved), its fields from the input, tidied or not
 *   SERVE     the daemon serves the set (one round)
 *   CONSUME   the application reads and gives back completions
 *   EVENT     the daemon posts up to four events in a round (sc_post.c): a
 *             message copied in (in pieces above a quarter arena, one left
 *             part way continued first), a zero-copy record with an owner,
 *             an address change with its bytes, an event without bytes;
 *             then publishes
 *   READ      the application reads and gives back events
 *   REAP      the daemon reaps the records the application read past
 *             (sc_post_reap()): an owner goes back once, and only when the
 *             application's tail has passed its bytes
 *   SLOT      the application writes any bytes into any slot of its rings
 *   INDEX     the application writes any value into any index or flag
 *   BYTES     the application writes any bytes into its tx arena
 *
 * and, inside a round, each call into the stand-in data plane may write
 * a request slot, the request head, a completion or event tail or tx
 * arena bytes: what the application does while the daemon is busy.
 *
 * Properties beyond "no crash, no UB":
 *   - each daemon step writes only where it may: completion slots the
 *     application has given back, event slots and rx arena bytes likewise,
 *     its own indices and the consumer's sleeping flag; never a slot or a
 *     byte the application has not read yet (a byte-for-byte comparison of
 *     the region before and after);
 *   - what the stand-in data plane is handed is well-formed
 *     (sc_req_check()), not one of the instance's requests on worker 1,
 *     and its arena bytes lie inside the tx arena;
 *   - an application that only ever posts what the rules accept (POST of
 *     well-formed requests, or malformed ones that name no arena bytes) is
 *     never found broken; every request it posted is completed once, in
 *     order (but quiet sends that succeeded), a malformed one with -EPROTO,
 *     one of the instance's on worker 1 with -EXDEV, the others with the
 *     data plane's status; every completion and event passes the library's
 *     checks (sc_cpl_check(), sc_evt_check()) and every received byte is
 *     the one the daemon wrote;
 *   - a broken set is reported (-EPROTO), never served further: the
 *     target attaches a new one, as the daemon would a new application.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/sidecar/fuzz/fz_input.h"
#include "dataplane/sidecar/sc_post.h"
#include "dataplane/sidecar/sc_serve.h"

#define CHECK(cond, what) fz_check("fuzz_sidecar", cond, what)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum fz_op {
	FZ_POST,
	FZ_SERVE,
	FZ_CONSUME,
	FZ_EVENT,
	FZ_READ,
	FZ_REAP,
	FZ_SLOT,
	FZ_INDEX,
	FZ_BYTES,
	FZ_OPS
};

#define FZ_MAX_POSTS  2048u
#define FZ_MAX_OWNERS 1024u

/* What the application posted, by cookie (1, 2, ...). */
struct fz_post {
	bool valid;	/* sc_req_check() */
	bool exdev;	/* the instance's, on worker 1 */
	bool quiet;	/* a quiet SEND */
	int32_t status; /* the stand-in's, when it served it */
	bool served;	/* the stand-in served it */
	uint64_t assoc; /* ABORT: an abort ahead has the same status */
	uint8_t op;
};

struct fz {
	struct fz_input in; /* what is left of the input */
	uint8_t *base;
	size_t len;
	size_t off[5]; /* req, cpl, evt rings; tx, rx arenas */
	uint32_t slots;
	uint64_t arena;
	uint32_t worker;
	struct sc_thread d, a; /* the daemon's views, the application's */
	struct sc_reader rd;
	bool good; /* the application kept to the rules: its set must never break */
	uint64_t next_cookie;
	uint64_t last_cpl; /* the cookie of the last completion read */
	struct fz_post post[FZ_MAX_POSTS + 1];
	uint32_t evt_seq; /* RECV bytes: a pattern of (sequence, offset in the message) */
	uint32_t read_seq;
	struct sc_post ev; /* the daemon's event side */
	struct sc_unread unread[128];
	uint32_t msg_len, msg_done;   /* a message copied in part way: the rest goes first */
	uint32_t read_off;	      /* the application: offset in the message it reads */
	uint8_t owner[FZ_MAX_OWNERS]; /* zero-copy owners: 1 posted, 2 given back */
	uint32_t owners;
	uint8_t *before; /* the region before a daemon step */
	uint8_t *may;	 /* per byte: the daemon step may write it */
};

#define RING_OFF 0
#define CPL_OFF	 1
#define EVT_OFF	 2
#define TX_OFF	 3
#define RX_OFF	 4

/* ------------------------------------------------------ the ring set */

static void
fz_attach(struct fz *f)
{
	memset(f->base, 0, f->len);
	for (int i = 0; i < 3; i++)
		CHECK(sc_ring_create(f->base, f->len, f->off[i], f->slots, SC_SLOT_BYTES) == 0,
		      "ring create");
	for (int i = 3; i < 5; i++)
		CHECK(sc_arena_create(f->base, f->len, f->off[i], f->arena) == 0, "arena create");
	/* The daemon consumes requests and the tx arena, produces the rest; the
	 * application the other way round. */
	for (int daemon = 0; daemon < 2; daemon++) {
		struct sc_thread *th = daemon ? &f->d : &f->a;
		CHECK(sc_ring_attach(&th->req, f->base, f->len, f->off[RING_OFF], f->slots,
				     SC_SLOT_BYTES, !daemon) == 0 &&
			      sc_ring_attach(&th->cpl, f->base, f->len, f->off[CPL_OFF], f->slots,
					     SC_SLOT_BYTES, daemon) == 0 &&
			      sc_ring_attach(&th->evt, f->base, f->len, f->off[EVT_OFF], f->slots,
					     SC_SLOT_BYTES, daemon) == 0 &&
			      sc_arena_attach(&th->tx, f->base, f->len, f->off[TX_OFF], f->arena,
					      !daemon) == 0 &&
			      sc_arena_attach(&th->rx, f->base, f->len, f->off[RX_OFF], f->arena,
					      daemon) == 0,
		      "attach");
	}
	memset(&f->rd, 0, sizeof(f->rd));
	f->good = true;
	f->next_cookie = 1;
	f->last_cpl = 0;
	f->evt_seq = f->read_seq = 0;
	f->msg_len = f->msg_done = f->read_off = 0;
	f->owners = 0;
	memset(f->owner, 0, sizeof(f->owner));
	sc_post_init(&f->ev, &f->d, f->unread, 2 * f->slots);
}

/* ------------------------------------------- the stand-in data plane */

static uint32_t
fz_answer_slots(const struct sc_req *r)
{
	/* An option's size, as dpsctp_opt_size() would say: 1 .. 4 slots. */
	if (r->op != SC_OP_GETOPT || r->value == 0 || r->value > SC_OPT_ID_MAX)
		return 0;
	return 1 + (r->value & 3u);
}

static int32_t
fz_abort_status(uint64_t h)
{
	return (h & 1) ? -ENOENT : 0;
}

static bool
fz_is_global(const struct sc_req *r)
{
	return r->op == SC_OP_LISTEN || r->op == SC_OP_UNLISTEN ||
	       (r->op == SC_OP_SETOPT && r->assoc == 0);
}

static void may_range(struct fz *f, size_t off, size_t len);

/*
 * The application writes while the daemon is inside its round (the data
 * plane's call is where the daemon spends its time): any bytes into a
 * request slot, any value into the request head or the completion or
 * event tail, any bytes into the tx arena. Those bytes are the
 * application's, so the step's comparison lets them change.
 */
static void
fz_meanwhile(struct fz *f)
{
	uint8_t kind = fz_take8(&f->in);
	uint32_t v = fz_take32(&f->in);
	size_t at;
	switch (kind % 3) {
	case 0: /* a request slot */
		at = f->off[RING_OFF] + SC_RING_HDR + (size_t)(v & (f->slots - 1)) * SC_SLOT_BYTES;
		fz_take_bytes(&f->in, f->base + at, SC_SLOT_BYTES);
		may_range(f, at, SC_SLOT_BYTES);
		f->good = false;
		break;
	case 1: { /* an index */
		static const unsigned part[3] = { RING_OFF, CPL_OFF, EVT_OFF };
		static const unsigned off[3] = { SC_RING_HEAD_OFF, SC_RING_TAIL_OFF,
						 SC_RING_TAIL_OFF };
		unsigned w = (kind >> 2) % 3;
		at = f->off[part[w]] + off[w];
		atomic_store((_Atomic uint32_t *)(void *)(f->base + at), v);
		may_range(f, at, 4);
		f->good = false;
		break;
	}
	default: { /* tx arena bytes: their meaning is the data plane's to judge */
		uint32_t o = v & (uint32_t)(f->arena - 1);
		uint32_t len = (v >> 16) & 0xffu;
		if (len > f->arena - o)
			len = (uint32_t)(f->arena - o);
		at = f->off[TX_OFF] + SC_ARENA_HDR + o;
		fz_take_bytes(&f->in, f->base + at, len);
		may_range(f, at, len);
		break;
	}
	}
}

static const int32_t fz_status[] = { 0, 0, 0, -ENOENT, -ENOTCONN, -EINVAL, -ENOBUFS, -EBUSY };

static enum sc_verdict
fz_request(void *arg, const struct sc_req *r, const void *bytes, const struct sc_req *next,
	   bool *more, struct sc_cpl *c, struct sc_answer *ans)
{
	struct fz *f = arg;
	const uint8_t *tx = f->base + f->off[TX_OFF] + SC_ARENA_HDR;
	CHECK(sc_req_check(r, f->arena) == 0, "a malformed request reached the data plane");
	CHECK(!(fz_is_global(r) && f->worker != 0), "the instance's request on worker 1");
	CHECK(c->cookie == r->cookie && c->op == r->op && c->status == 0 && ans->len == 0,
	      "completion not prepared");
	bool names =
		r->op == SC_OP_SEND || r->op == SC_OP_CONNECT ||
		((r->op == SC_OP_RESET_STREAMS || r->op == SC_OP_SETOPT || r->op == SC_OP_GETOPT) &&
		 r->len != 0);
	if (names) {
		const uint8_t *b = bytes;
		CHECK(b != NULL && b >= tx && (uint64_t)(b - tx) + r->len <= f->arena,
		      "arena bytes outside the arena");
		/* What each handler in dd_app.c copies, within what it is given. */
		if (r->op == SC_OP_CONNECT)
			CHECK(r->len > r->value &&
				      (r->len - r->value) % sizeof(struct sc_addr) == 0 &&
				      (r->len - r->value) / sizeof(struct sc_addr) <=
					      SC_MAX_ADDRS &&
				      r->value <= SC_OPT_MAX_BYTES,
			      "CONNECT's addresses");
		if (r->op == SC_OP_RESET_STREAMS)
			CHECK(r->len % 2 == 0 && r->len <= 2 * SC_RECONF_MAX_STREAMS,
			      "RESET_STREAMS' list");
		if (r->op == SC_OP_SETOPT || r->op == SC_OP_GETOPT)
			CHECK(r->len <= SC_OPT_MAX_BYTES, "an option's bytes");
		uint8_t copy[8192];
		CHECK(r->len <= sizeof(copy), "longer than an arena");
		memcpy(copy, b, r->len); /* every byte read: ASan sees each */
	} else {
		CHECK(bytes == NULL, "bytes for a request that names none");
	}
	uint8_t choice = fz_take8(&f->in);
	if (choice & 0x40)
		fz_meanwhile(f);
	if (r->op == SC_OP_SEND && (choice & 7) == 7)
		return SC_RETRY; /* the send buffer is full */
	c->status = r->op == SC_OP_ABORT ? fz_abort_status(r->assoc) : fz_status[choice & 7];
	if (r->op == SC_OP_SEND && c->status == 0)
		*more = next != NULL && (choice & 8) != 0;
	if (r->op == SC_OP_GETOPT && c->status == 0) {
		uint32_t max = fz_answer_slots(r) * SC_SLOT_BYTES;
		ans->len = 1 + ((uint32_t)fz_take8(&f->in) * 7u) % max;
		for (uint32_t i = 0; i < ans->len; i++)
			ans->bytes[i] = (uint8_t)(r->cookie + i);
		c->value = ans->len;
	}
	if ((r->op == SC_OP_GET_SCHED || r->op == SC_OP_GET_STREAM_PARAM) && c->status == 0)
		c->value = choice >> 4;
	if (r->cookie >= 1 && r->cookie < f->next_cookie && r->cookie <= FZ_MAX_POSTS) {
		f->post[r->cookie].status = c->status;
		f->post[r->cookie].served = true;
	}
	return SC_DONE;
}

static void
fz_flush(void *arg, uint64_t h)
{
	(void)arg;
	CHECK(h != 0, "flush of no association");
}

static int32_t
fz_abort(void *arg, uint64_t h)
{
	(void)arg;
	return fz_abort_status(h);
}

static const struct sc_serve_ops fz_ops = { fz_request, fz_flush, fz_abort, fz_answer_slots };

/* ------------------------------------------------ where writes may go */

static void
may_range(struct fz *f, size_t off, size_t len)
{
	memset(f->may + off, 1, len);
}

/* A ring the daemon produces: the slots not holding what the application has yet to read. */
static void
may_ring_slots(struct fz *f, int which, const struct sc_ring *r)
{
	const uint8_t *sh = f->base + f->off[which];
	uint32_t t = atomic_load((const _Atomic uint32_t *)(const void *)(sh + SC_RING_TAIL_OFF));
	/* The tail the daemon may take: one that is possible, else the one it had. */
	if (t - r->other > r->mine - r->other)
		t = r->other;
	for (uint32_t p = r->mine; p != t + f->slots; p++)
		may_range(f,
			  f->off[which] + SC_RING_HDR +
				  (size_t)(p & (f->slots - 1)) * SC_SLOT_BYTES,
			  SC_SLOT_BYTES);
	may_range(f, f->off[which] + SC_RING_HEAD_OFF, 4);
	may_range(f, f->off[which] + SC_RING_TAIL_OFF + 4, 4); /* sleeping: cleared */
}

/*
 * The rx arena: the bytes not holding what the application has yet to read.
 * A tail the application wrote ahead of the daemon's head says it read
 * everything up to there: within a round the head can pass it (several
 * events), and from then on the daemon takes it (sc_arena_alloc() reads
 * the tail again only when it needs room). A tail more than an arena ahead
 * of what the daemon knew, or behind it, is never taken.
 */
static void
may_arena_bytes(struct fz *f, const struct sc_arena *a)
{
	uint64_t t = atomic_load((const _Atomic uint64_t *)(const void *)(a->shared + 64));
	if (t - a->other > a->size)
		t = a->other;
	size_t data = f->off[RX_OFF] + SC_ARENA_HDR;
	may_range(f, data, f->arena);
	/* Unread: positions t .. mine, at most an arena, in one or two pieces. */
	uint64_t n = (int64_t)(a->mine - t) > 0 ? a->mine - t : 0, at = t & (f->arena - 1);
	uint64_t first = n < f->arena - at ? n : f->arena - at;
	memset(f->may + data + at, 0, first);
	memset(f->may + data, 0, n - first);
	may_range(f, f->off[RX_OFF], 8); /* head */
}

static void
step_begin(struct fz *f)
{
	memcpy(f->before, f->base, f->len);
	memset(f->may, 0, f->len);
}

static void
step_end(struct fz *f, const char *step)
{
	/* A line at a time; a line that changed, byte by byte. */
	for (size_t l = 0; l < f->len; l += SC_RING_LINE) {
		if (memcmp(f->base + l, f->before + l, SC_RING_LINE) == 0)
			continue;
		for (size_t i = l; i < l + SC_RING_LINE; i++)
			if (f->base[i] != f->before[i] && !f->may[i]) {
				fprintf(stderr, "fuzz_sidecar: %s wrote byte %zu of the region\n",
					step, i);
				abort();
			}
	}
}

/* --------------------------------------------------------- operations */

/* Arena bytes the daemon takes for a request it may refuse (sc_serve.c's rules). */
static bool
fz_names_bytes(const struct sc_req *r)
{
	return r->op == SC_OP_SEND || r->op == SC_OP_CONNECT ||
	       ((r->op == SC_OP_RESET_STREAMS || r->op == SC_OP_SETOPT || r->op == SC_OP_GETOPT) &&
		r->len != 0);
}

/* Fields the library would give a request of r->op (from the input's). */
static void
fz_tidy(struct fz *f, struct sc_req *r)
{
	r->op = (uint8_t)(1 + r->op % (SC_OP_COUNT - 1));
	r->pad0 = 0;
	memset(r->reserved, 0, sizeof(r->reserved));
	if (r->op != SC_OP_SEND) {
		r->context = 0;
		r->flags = 0;
	}
	r->flags &= SC_SEND_FLAGS;
	switch ((enum sc_op)r->op) {
	case SC_OP_SEND:
		r->value = 0;
		r->len = 1 + r->len % (uint32_t)(f->arena / 2);
		if (r->flags & SC_SEND_DEFAULT) {
			r->flags &= ~(SC_SEND_UNORDERED | SC_SEND_SACK_NOW);
			r->sid = 0;
			r->ppid = r->pr_policy = r->pr_value = r->context = 0;
		}
		break;
	case SC_OP_CONNECT:
		r->value = (r->value & 1) ? 16 : 0;
		r->len = r->value + (uint32_t)sizeof(struct sc_addr) * (1 + r->len % SC_MAX_ADDRS);
		r->port |= 1;
		break;
	case SC_OP_RESET_STREAMS:
		r->value = 1 + r->value % 3;
		r->len = 2 * (r->len % (SC_RECONF_MAX_STREAMS + 1));
		break;
	case SC_OP_SETOPT:
	case SC_OP_GETOPT:
		r->value = 1 + r->value % SC_OPT_ID_MAX;
		r->len %= SC_OPT_MAX_BYTES + 1;
		if (r->op == SC_OP_SETOPT && r->len == 0)
			r->len = 1;
		r->sid = 0;
		r->ppid = r->port = 0;
		r->pr_policy = r->pr_value = 0;
		break;
	case SC_OP_LISTEN:
	case SC_OP_UNLISTEN:
		r->port |= 1;
		r->value = 0;
		break;
	case SC_OP_SET_STREAM_PARAM:
		r->value &= 0xffffu;
		break;
	case SC_OP_ADD_STREAMS:
		r->value |= 1;
		break;
	default:
		if (r->op != SC_OP_SET_SCHED)
			r->value = 0;
		break;
	}
	if (r->op != SC_OP_LISTEN && r->op != SC_OP_UNLISTEN && r->op != SC_OP_RELEASE &&
	    r->op != SC_OP_CONNECT && !(r->op == SC_OP_SETOPT || r->op == SC_OP_GETOPT))
		r->assoc |= 1ull << 32;
	if ((r->op == SC_OP_SETOPT || r->op == SC_OP_GETOPT) && (r->assoc & 1))
		r->assoc = 0; /* the application's defaults */
}

static void
op_post(struct fz *f)
{
	uint8_t mode = fz_take8(&f->in);
	struct sc_req r;
	fz_take_bytes(&f->in, &r, sizeof(r));
	if (mode & 1)
		fz_tidy(f, &r);
	if (f->next_cookie > FZ_MAX_POSTS || sc_ring_free(&f->a.req) <= 0)
		return;
	r.cookie = f->next_cookie;
	if (fz_names_bytes(&r)) {
		if (r.len == 0 || r.len > f->arena)
			goto unnamed;
		uint64_t off;
		int err;
		uint8_t *p = sc_arena_alloc(&f->a.tx, r.len, &off, &err);
		if (p == NULL)
			return; /* no room yet: the library says -EAGAIN */
		fz_take_bytes(&f->in, p, r.len < 64 ? r.len : 64);
		r.off = off;
		sc_arena_publish(&f->a.tx);
	}
unnamed:;
	bool valid = sc_req_check(&r, f->arena) == 0;
	/* A malformed request naming arena bytes the daemon cannot trust breaks the set,
	 * by the rules (sc_serve.h). */
	if (!valid && fz_names_bytes(&r) &&
	    !((r.op == SC_OP_SETOPT || r.op == SC_OP_GETOPT) && r.len <= SC_OPT_MAX_BYTES &&
	      r.off < f->arena && r.off == (r.off & (f->arena - 1))))
		f->good = false;
	if (valid && fz_names_bytes(&r) && (r.len == 0 || r.len > f->arena))
		f->good = false;
	struct fz_post *p = &f->post[r.cookie];
	*p = (struct fz_post){ valid,
			       valid && fz_is_global(&r) && f->worker != 0,
			       r.op == SC_OP_SEND && (r.flags & SC_SEND_QUIET),
			       0,
			       false,
			       r.assoc,
			       r.op };
	memcpy(sc_ring_reserve(&f->a.req, 0), &r, sizeof(r));
	(void)sc_ring_commit(&f->a.req, 1);
	f->next_cookie++;
}

static void
op_serve(struct fz *f)
{
	step_begin(f);
	may_range(f, f->off[RING_OFF] + SC_RING_TAIL_OFF, 4);
	may_ring_slots(f, CPL_OFF, &f->d.cpl);
	may_range(f, f->off[TX_OFF] + 64, 8); /* tail */
	struct sc_serve_counts cnt = { 0, 0, 0 };
	bool wake = false;
	int rc = sc_serve_requests(&f->d, &f->rd, f->arena, f->worker, &fz_ops, f, &cnt, &wake);
	step_end(f, "serving requests");
	CHECK(rc >= 0 || rc == -EPROTO, "serve: another error");
	CHECK(cnt.completions <= f->slots && cnt.completions <= cnt.requests &&
		      cnt.bad_requests <= cnt.requests,
	      "serve: counts");
	if (rc < 0) {
		CHECK(!f->good, "a set that kept to the rules found broken");
		fz_attach(f); /* the daemon detaches it; a new application attaches */
	}
}

static void
op_consume(struct fz *f)
{
	uint32_t want = fz_take8(&f->in) % (f->slots + 1);
	int have = sc_ring_count(&f->a.cpl);
	if (have < 0) {
		CHECK(!f->good, "completion ring broken by the daemon");
		return;
	}
	uint32_t k = 0;
	while (k < (uint32_t)have && k < want) {
		struct sc_cpl c;
		memcpy(&c, sc_ring_peek(&f->a.cpl, k), sizeof(c));
		k++;
		if (!f->good)
			continue;
		CHECK(c.cookie > f->last_cpl && c.cookie < f->next_cookie,
		      "completion out of order");
		/* Those skipped: quiet sends that succeeded. */
		for (uint64_t q = f->last_cpl + 1; q < c.cookie; q++)
			CHECK(f->post[q].quiet && f->post[q].served && f->post[q].status == 0,
			      "a request without its completion");
		f->last_cpl = c.cookie;
		const struct fz_post *p = &f->post[c.cookie];
		if (!p->valid) {
			CHECK(c.status == -EPROTO, "a malformed request not refused with -EPROTO");
			continue;
		}
		int extra = sc_cpl_check(&c);
		CHECK(extra >= 0, "a completion the library refuses");
		if (p->exdev)
			CHECK(c.status == -EXDEV, "the instance's request on worker 1 not -EXDEV");
		else if (p->op == SC_OP_ABORT)
			CHECK(c.status == fz_abort_status(p->assoc), "an ABORT's status");
		else
			CHECK(p->served && c.status == p->status, "the data plane's status lost");
		if (extra > 0) {
			CHECK(k + (uint32_t)extra <= (uint32_t)have, "an answer cut short");
			for (uint32_t i = 0; i < c.value; i++) {
				const uint8_t *s = sc_ring_peek(&f->a.cpl, k + i / SC_SLOT_BYTES);
				CHECK(s[i % SC_SLOT_BYTES] == (uint8_t)(c.cookie + i),
				      "the answer");
			}
			k += (uint32_t)extra;
		}
	}
	if (k > (uint32_t)have)
		k = (uint32_t)have;
	sc_ring_release(&f->a.cpl, k);
}

/* sc_post_copy_fn: message evt_seq's bytes, a pattern of its sequence and the offset. */
static void
fz_copy(void *arg, uint8_t *dst, uint32_t off, uint32_t len)
{
	const struct fz *f = arg;
	for (uint32_t i = 0; i < len; i++)
		dst[i] = (uint8_t)(f->evt_seq * 31u + off + i);
}

/* One event posted the way dd_app.c posts it; false when there was no room. */
static bool
fz_post_one(struct fz *f, uint8_t kind, uint32_t len)
{
	struct sc_evt e;
	memset(&e, 0, sizeof(e));
	e.assoc = 1ull << 32 | 1;
	if (f->msg_len != 0)
		kind = 0; /* a message part way goes on first, as dpsctpd's backlog does */
	switch (kind % 4) {
	case 0: { /* a message, copied in */
		if (f->msg_len == 0)
			f->msg_len = len;
		e.type = SC_EVT_RECV;
		e.mid = f->evt_seq;
		e.len = f->msg_len;
		bool all = sc_post_recv(&f->ev, &e, 1, 1, fz_copy, f, &f->msg_done);
		if (all) {
			f->msg_len = f->msg_done = 0;
			f->evt_seq++;
		}
		return all;
	}
	case 1: { /* a zero-copy record: the owner goes back once read */
		if (f->owners == FZ_MAX_OWNERS)
			return false;
		struct sc_unread rec = { 1, 1, len, 0, &f->owner[f->owners] };
		uint8_t *b;
		e.type = SC_EVT_RECV;
		e.flags = SC_RECV_ZC;
		e.mid = f->evt_seq;
		struct sc_evt *slot = sc_post_bytes(&f->ev, &e, sizeof(struct sc_zc_ref), &rec, &b);
		if (slot == NULL)
			return false;
		struct sc_zc_ref z = { f->evt_seq, len, 0 };
		memcpy(b, &z, sizeof(z));
		f->owner[f->owners++] = 1;
		f->evt_seq++;
		return true;
	}
	case 2: { /* an address change: its address in the arena */
		static const struct sc_unread none = { 0, 0, 0, 0, NULL };
		struct sc_addr a = { 4, { 0 }, { 192, 0, 2, (uint8_t)f->evt_seq } };
		uint8_t *b;
		e.type = SC_EVT_PEER_ADDR_CHANGE;
		if (sc_post_bytes(&f->ev, &e, sizeof(a), &none, &b) == NULL)
			return false;
		memcpy(b, &a, sizeof(a));
		return true;
	}
	default: /* no bytes */
		e.type = SC_EVT_SHUTDOWN_EVENT;
		return sc_post_plain(&f->ev, &e) != NULL;
	}
}

static void
op_event(struct fz *f)
{
	uint8_t n = fz_take8(&f->in);
	step_begin(f);
	may_ring_slots(f, EVT_OFF, &f->d.evt);
	may_arena_bytes(f, &f->d.rx);
	for (unsigned i = 0; i < 1u + (n & 3u); i++) {
		uint8_t kind = fz_take8(&f->in);
		uint32_t len = 1 + (fz_take8(&f->in) | (uint32_t)fz_take8(&f->in) << 8) %
					   (uint32_t)(f->arena / 2);
		if (!fz_post_one(f, kind, len))
			break;
	}
	(void)sc_post_publish(&f->ev);
	step_end(f, "posting events");
	/* A ring or tail the application broke shows as no room here; the daemon
	 * finds out at the next reap (op_reap()), as dpsctpd does. */
}

static void
op_read(struct fz *f)
{
	uint32_t want = fz_take8(&f->in) % (f->slots + 1);
	int have = sc_ring_count(&f->a.evt);
	if (have < 0) {
		CHECK(!f->good, "event ring broken by the daemon");
		return;
	}
	uint32_t k = 0;
	for (; k < (uint32_t)have && k < want; k++) {
		struct sc_evt e;
		memcpy(&e, sc_ring_peek(&f->a.evt, k), sizeof(e));
		if (!f->good)
			continue;
		CHECK(sc_evt_check(&e, f->arena) == 0, "an event the library refuses");
		if (e.type == SC_EVT_SHUTDOWN_EVENT)
			continue;
		int err;
		const uint8_t *p = sc_arena_take(&f->a.rx, e.off, e.len, &err);
		CHECK(p != NULL, "an event's bytes not the arena's next");
		if (e.type == SC_EVT_PEER_ADDR_CHANGE) {
			CHECK(e.len == sizeof(struct sc_addr) && p[0] == 4 && p[4] == 192,
			      "an address overwritten");
			continue;
		}
		CHECK(e.type == SC_EVT_RECV, "an event never posted");
		CHECK(e.mid == f->read_seq, "messages out of order");
		CHECK(((e.flags & SC_RECV_CONT) != 0) == (f->read_off != 0),
		      "a piece that does not continue its message, or one that should");
		if (e.flags & SC_RECV_ZC) {
			struct sc_zc_ref z;
			memcpy(&z, p, sizeof(z));
			CHECK(z.off == e.mid && z.len != 0 && z.pad == 0,
			      "a zero-copy record overwritten");
		} else {
			for (uint32_t i = 0; i < e.len; i++)
				CHECK(p[i] == (uint8_t)(e.mid * 31u + f->read_off + i),
				      "a received byte overwritten");
			f->read_off += e.len;
		}
		if (!(e.flags & SC_RECV_MORE)) {
			f->read_seq++;
			f->read_off = 0;
		}
	}
	if (f->good)
		sc_arena_release(&f->a.rx);
	sc_ring_release(&f->a.evt, k);
}

/* sc_post_read_fn: only what the application has given back, each owner once. */
static void
fz_reaped(void *arg, const struct sc_unread *u)
{
	struct fz *f = arg;
	uint64_t tail = atomic_load((const _Atomic uint64_t *)(const void *)(f->d.rx.shared + 64));
	CHECK((int64_t)(tail - u->end) >= 0, "a record reaped before the application read it");
	if (u->owner != NULL) {
		uint8_t *o = u->owner;
		CHECK(o >= f->owner && o < f->owner + FZ_MAX_OWNERS, "an owner never posted");
		CHECK(*o == 1, "an owner given back twice");
		*o = 2;
	}
}

static void
op_reap(struct fz *f)
{
	int err = sc_post_reap(&f->ev, fz_reaped, f);
	if (err != 0) {
		CHECK(!f->good, "rx arena tail broken by the daemon");
		fz_attach(f);
	}
}

static void
op_slot(struct fz *f)
{
	int which = fz_take8(&f->in) % 3;
	uint32_t idx = fz_take32(&f->in);
	uint8_t slot[SC_SLOT_BYTES];
	fz_take_bytes(&f->in, slot, sizeof(slot));
	uint8_t *s = f->base + f->off[which] + SC_RING_HDR +
		     (size_t)(idx & (f->slots - 1)) * SC_SLOT_BYTES;
	if (memcmp(s, slot, sizeof(slot)) != 0) {
		memcpy(s, slot, sizeof(slot));
		f->good = false;
	}
}

static void
op_index(struct fz *f)
{
	uint8_t which = fz_take8(&f->in) % 10;
	uint32_t v = fz_take32(&f->in); /* odd: a small step from the value there, else the value */
	static const struct {
		int part;
		unsigned off, bytes;
	} w[10] = {
		{ RING_OFF, SC_RING_HEAD_OFF, 4 },
		{ RING_OFF, SC_RING_TAIL_OFF, 4 },
		{ CPL_OFF, SC_RING_TAIL_OFF, 4 },
		{ CPL_OFF, SC_RING_TAIL_OFF + 4, 4 },
		{ EVT_OFF, SC_RING_TAIL_OFF, 4 },
		{ EVT_OFF, SC_RING_TAIL_OFF + 4, 4 },
		{ TX_OFF, 0, 8 },
		{ RX_OFF, 64, 8 },
		{ CPL_OFF, SC_RING_HEAD_OFF, 4 },
		{ RX_OFF, 0, 8 },
	};
	uint8_t *p = f->base + f->off[w[which].part] + w[which].off;
	if (w[which].bytes == 4) {
		_Atomic uint32_t *x = (_Atomic uint32_t *)(void *)p;
		uint32_t old = atomic_load(x);
		uint32_t nv = (v & 1) ? old + (uint32_t)(int8_t)(v >> 8) : v;
		atomic_store(x, nv);
		/* The sleeping flags are the application's to raise. */
		if (nv != old && w[which].off != SC_RING_TAIL_OFF + 4)
			f->good = false;
	} else {
		_Atomic uint64_t *x = (_Atomic uint64_t *)(void *)p;
		uint64_t old = atomic_load(x);
		uint64_t nv = (v & 1) ? old + (uint64_t)(int64_t)(int16_t)(v >> 8) : v;
		atomic_store(x, nv);
		if (nv != old)
			f->good = false;
	}
}

static void
op_bytes(struct fz *f)
{
	uint32_t off =
		(fz_take8(&f->in) | (uint32_t)fz_take8(&f->in) << 8) & (uint32_t)(f->arena - 1);
	uint32_t len = fz_take8(&f->in);
	if (len > f->arena - off)
		len = (uint32_t)(f->arena - off);
	/* The tx arena's bytes are the application's: their meaning is the data plane's to
	 * judge, never a reason to break the set. */
	fz_take_bytes(&f->in, f->base + f->off[TX_OFF] + SC_ARENA_HDR + off, len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fz f;
	if (size == 0)
		return 0;
	memset(&f, 0, offsetof(struct fz, post));
	f.in = (struct fz_input){ data + 1, size - 1 };
	f.slots = 8u << (data[0] & 3u);
	f.arena = 4096u << ((data[0] >> 2) & 1u);
	f.worker = (data[0] >> 3) & 1u;
	size_t ring = sc_ring_bytes(f.slots, SC_SLOT_BYTES);
	f.off[RING_OFF] = 0;
	f.off[CPL_OFF] = ring;
	f.off[EVT_OFF] = 2 * ring;
	f.off[TX_OFF] = 3 * ring;
	f.off[RX_OFF] = f.off[TX_OFF] + SC_ARENA_HDR + f.arena;
	f.len = f.off[RX_OFF] + SC_ARENA_HDR + f.arena;
	/* Exactly the region: ASan reports any byte outside it. */
	f.base = aligned_alloc(SC_RING_LINE, f.len);
	f.before = malloc(f.len);
	f.may = malloc(f.len);
	CHECK(f.base != NULL && f.before != NULL && f.may != NULL, "memory");
	fz_attach(&f);
	for (unsigned steps = 0; f.in.n != 0 && steps < 4096; steps++) {
		switch ((enum fz_op)(fz_take8(&f.in) % FZ_OPS)) {
		case FZ_POST:
			op_post(&f);
			break;
		case FZ_SERVE:
			op_serve(&f);
			break;
		case FZ_CONSUME:
			op_consume(&f);
			break;
		case FZ_EVENT:
			op_event(&f);
			break;
		case FZ_READ:
			op_read(&f);
			break;
		case FZ_REAP:
			op_reap(&f);
			break;
		case FZ_SLOT:
			op_slot(&f);
			break;
		case FZ_INDEX:
			op_index(&f);
			break;
		case FZ_BYTES:
			op_bytes(&f);
			break;
		case FZ_OPS:
			break;
		}
	}
	free(f.base);
	free(f.before);
	free(f.may);
	return 0;
}
