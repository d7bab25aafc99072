/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The daemon's reading of one ring set's requests (docs/SIDECAR.md): the
 * request ring, the check of each request, the tx arena bytes it names,
 * its completion (and a GETOPT's answer in the slots after it), the ABORTs
 * done ahead of a SEND that waits for send space. What a request does is
 * the caller's (struct sc_serve_ops: dpsctpd hands it to the data plane,
 * apps/dpsctpd/dd_app.c).
 *
 * Everything here reads memory the application writes while it runs, so
 * it is kept apart from the data plane and plain C11, no DPDK: the
 * sidecar's fuzz target (dataplane/sidecar/fuzz/) runs this very code
 * between operations of a hostile application on its ring set.
 *
 * The rules (what an application can rely on, and what detaches it):
 * each request slot is copied out once, then checked (sc_req_check()); a
 * malformed one is completed with -EPROTO and counted, and the ring goes
 * on, unless it names tx arena bytes that cannot be trusted (a SEND, a
 * CONNECT, a RESET_STREAMS with streams, an option's bytes that are not
 * the arena's next): then nothing after it could be read, and the set is
 * broken. So is a ring index or arena position that is impossible. A
 * broken set is the application's end (the daemon detaches it), never
 * another application's.
 */
#ifndef DPSCTP_SC_SERVE_H
#define DPSCTP_SC_SERVE_H

#include <stdbool.h>
#include <stdint.h>

#include "dataplane/sidecar/sc_proto.h"
#include "dataplane/sidecar/sc_region.h"

#ifdef __cplusplus
extern "C" {
#endif

enum sc_verdict {
	SC_DONE,   /* completed (status in the completion) */
	SC_RETRY,  /* leave it in the ring: no room in the data plane now (a SEND) */
	SC_BROKEN, /* the application broke its arena: detach it */
};

/* A GETOPT's answer, bound for the completion slots after its completion. */
struct sc_answer {
	uint32_t len; /* 0: none */
	union {
		uint64_t align;
		uint8_t bytes[SC_OPT_MAX_BYTES];
	};
};

/* ABORTs done ahead of a SEND waiting at the ring's head, at most. */
#define SC_AHEAD_MAX 8u

/* What the daemon remembers of one ring set's requests from one round to the next. */
struct sc_reader {
	/* ABORTs done ahead of a SEND waiting for space, each by its ring position. */
	struct {
		uint32_t pos;
		int32_t status;
		uint64_t cookie;
	} ahead[SC_AHEAD_MAX];
	uint32_t n_ahead;
	uint32_t ahead_scan; /* ring position up to which slots were looked at */
};

/* What one round counted (the caller adds them to its counters). */
struct sc_serve_counts {
	uint64_t requests;     /* served (a SEND left waiting is not, yet) */
	uint64_t bad_requests; /* malformed (-EPROTO), or sent to the wrong worker (-EXDEV) */
	uint64_t completions;  /* written */
};

/* What the daemon does with a request: the caller's. arg is sc_serve_requests()'. */
struct sc_serve_ops {
	/*
	 * A well-formed request (sc_req_check()), not one of the instance's on
	 * another worker than 0. bytes: the r->len tx arena bytes it names
	 * when it names any (a SEND, a CONNECT, a RESET_STREAMS with streams,
	 * an option's), inside the arena; the application may change them
	 * meanwhile, so what is kept is copied. A SEND's bytes are only looked
	 * at: SC_RETRY leaves them (and the request) for the next round. next:
	 * a copy of the request after r when it is served this round whatever
	 * r does, else NULL. *more: r went with the data plane's
	 * DPSCTP_SEND_MORE (the next request's fate says whether to flush). c
	 * has the cookie and op already; ans->len is 0 (a GETOPT with status 0
	 * sets it, at most the option's size: answer_slots() of it).
	 */
	enum sc_verdict (*request)(void *arg, const struct sc_req *r, const void *bytes,
				   const struct sc_req *next, bool *more, struct sc_cpl *c,
				   struct sc_answer *ans);
	/* Send what DPSCTP_SEND_MORE held back on the association named h. */
	void (*flush)(void *arg, uint64_t h);
	/* ABORT the association named h now (ahead of a waiting SEND): 0 or -errno. */
	int32_t (*abort)(void *arg, uint64_t h);
	/* The completion slots r's answer takes beyond its completion (a GETOPT's), 0..4. */
	uint32_t (*answer_slots)(const struct sc_req *r);
};

/*
 * One round of a ring set's requests (th: the daemon's views), while there
 * is room for their completions. worker: the daemon's worker serving the
 * set (the instance's requests are worker 0's, -EXDEV elsewhere);
 * arena_bytes: the layout's. The requests served (>= 0), or -EPROTO: the
 * application broke its rings or arena (detach it). *wake: set when the
 * application asked to be woken for the completions.
 */
int sc_serve_requests(struct sc_thread *th, struct sc_reader *rd, uint64_t arena_bytes,
		      uint32_t worker, const struct sc_serve_ops *ops, void *arg,
		      struct sc_serve_counts *cnt, bool *wake);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_SC_SERVE_H */
