/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctpd, the sidecar daemon (docs/SIDECAR.md): what its files
 * share.
 *
 *   dd_main.c       options and the configuration file, the EAL, the loop,
 *                   signals, the orderly stop
 *   dd_app.c        one attached application: its rings served through the
 *                   embedded API, callbacks turned into events, departure
 *   dd_opt.c        an application's option defaults (RFC 6458 assoc id 0)
 *   dd_access.c     who may attach: the socket's mode and group, allow lists
 *   dd_telemetry.c  /dpsctpd/stats and /dpsctpd/apps over DPDK telemetry
 *
 * One thread per data-plane worker (--queues N), run to completion: worker
 * w polls its worker of the data plane (dpsctp_poll(dp, w)), then the ring
 * set (thread, w) of every application (sc_region.h). The main thread is
 * worker 0 and also the control: it looks at the control socket every
 * millisecond and serves what is the instance's rather than a worker's
 * (attach, departure, listening ports, an application's option defaults)
 * with the other workers parked at a loop boundary (dd_world_stop()):
 * nothing on the data path takes a lock. With one worker there is one
 * thread, as there always was. Callbacks of the data plane run inside
 * dpsctp_poll() and inside the calls the request handlers make (an
 * ABORT's COMM_LOST arrives before dpsctp_abort() returns): every handler
 * expects that.
 *
 * Associations are named to applications by handles: a table index, the
 * owning worker and a generation (sc_proto.h), so a handle of an
 * association that ended (or of another application) is -ENOENT, never
 * another association.
 */
#ifndef DPSCTP_DD_H
#define DPSCTP_DD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dataplane/config.h"
#include "dataplane/dpsctp.h"
#include "dataplane/sidecar/sc_post.h"
#include "dataplane/sidecar/sc_proto.h"
#include "dataplane/sidecar/sc_serve.h"
#include "dataplane/sidecar/sc_server.h"

struct rte_mbuf;

/*
 * The daemon's own limits (flags and the configuration file, docs/SIDECAR.md).
 * The per-application ones are the isolation boundary: by default each
 * application may hold an equal share of the data plane's associations and
 * listeners, and no configuration lets one hold them all while others may
 * attach (dd_main.c, dd_limits_check()).
 */
struct dd_limits {
	uint32_t app_assocs;  /* associations per application, inbound ones included */
	uint32_t app_listens; /* listening ports per application */
	uint32_t backlog;     /* events held per application thread when its rings are full */
};

/* What a callback's argument points at: an association or a listening port. */
enum dd_tag { DD_TAG_ASSOC = 1, DD_TAG_LISTENER };

struct dd_app;

struct dd_assoc {
	enum dd_tag tag;
	struct dpsctp_assoc *a; /* NULL: the slot is free */
	struct dd_app *app;	/* NULL: its application left; aborting */
	uint32_t gen;		/* bumped when the slot is freed */
	uint16_t thread;	/* the application thread that hears about it */
	uint16_t port;		/* ours */
	uint8_t worker;		/* the data-plane worker that owns it (its handle says so) */
	uint32_t rx_unconsumed; /* delivered, not yet read by the application */
	bool up;
	bool backlog_aborted; /* dd_backlog_full() aborted it: counted once */
};

/*
 * A port an application listens on; port 0: a free slot. The data plane
 * listens on the port exactly while the slot is in use: an unlisten or
 * the application's departure gives the port back (dpsctp_unlisten()).
 * tag is DD_TAG_LISTENER in every slot, used or free: the data plane hands
 * a slot's address to callbacks of the associations accepted on it.
 */
struct dd_listener {
	enum dd_tag tag;
	uint16_t port;
	struct dd_app *app; /* who accepts on it */
	uint16_t thread;
};

/* An event waiting for room in an application thread's rings. */
struct dd_held {
	struct sc_evt e;
	struct rte_mbuf *m; /* RECV: the message (dpsctp_msg_to_mbuf()), else NULL */
	bool zc;	    /* RECV: m goes by reference (zero copy) */
	uint32_t done;	    /* RECV: bytes of it already delivered */
	union {
		struct sc_addr addr;		      /* PEER_ADDR_CHANGE */
		uint16_t sids[SC_RECONF_MAX_STREAMS]; /* STREAM_RESET: e.len / 2 of them */
	};
};

/* A message in the rx arena the application has not read yet. */

struct dd_counters {
	uint64_t requests, bad_requests, sends, send_bytes, completions;
	uint64_t events, recv_msgs, recv_bytes, held, wakeups;
	uint64_t assocs_opened, assocs_aborted_at_exit, backlog_aborts;
	uint64_t recv_zero_copy; /* messages handed by reference */
};

struct dd_thread {
	struct sc_thread th;
	struct dd_held *held; /* FIFO of limits.backlog, + app_assocs end events */
	uint32_t held_head, held_n;
	bool wake;	     /* the app asked for a wake-up: write its eventfd after this round */
	struct sc_reader rd; /* its requests between rounds (sc_serve.h) */
	/* Its events and rx arena bytes, and the records of what is unread (2 x
	 * ring slots; a zero-copy record's owner is the chain to free once read):
	 * posted during a round, published once in dd_app_wake() (sc_post.h). */
	struct sc_post post;
};

/* An option's value as the daemon keeps it: the option's struct, aligned. */
#define DD_OPT_BYTES 64u
union dd_opt_val {
	uint64_t align;
	uint8_t bytes[DD_OPT_BYTES];
};

/*
 * The option defaults one application set (SETOPT with association 0):
 * what it set of each, merged (dd_opt.c), for its associations to come.
 */
struct dd_app_opts {
	uint32_t set; /* 1 << the option id, for each option set */
	union dd_opt_val val[DPSCTP_OPT_END];
};

struct dd_app {
	struct sc_app *sa;
	struct dd_app_opts opts;
	/* A ring set per worker and application thread: t[w][thread], touched by worker w only. */
	struct dd_thread t[SC_MAX_WORKERS][SC_MAX_THREADS];
	uint32_t assocs; /* associations it owns now, all workers: __atomic, on open and end only */
	uint32_t listens;
	uint64_t heap_bytes; /* what the daemon allocated for it */
	bool broken;	     /* detach at the next round (attach failed half way, or a worker
				found its rings broken): __atomic */
	struct dd_counters ctr[SC_MAX_WORKERS]; /* by the worker that counted */
};

/* The worker whose state the calling code touches (its set of each application, its
 * counters, its slice of the handle table): set by each worker's loop, and by the
 * callbacks to the association's own worker. */
extern _Thread_local unsigned dd_w;

struct dd {
	struct dpsctp *dp;
	struct sc_server srv;
	struct dd_limits lim;
	struct dd_assoc *assocs; /* the handle table: a slice of per_worker slots per worker */
	uint32_t n_assocs;
	uint32_t per_worker;
	unsigned n_workers;
	uint32_t assocs_used[SC_MAX_WORKERS];
	struct dd_listener *listeners; /* the data plane's --listeners */
	uint32_t n_listeners;
	/* Rare events, counted by any worker: __atomic. */
	uint64_t orphan_events;	 /* callbacks for associations whose application left */
	uint64_t orphan_accepts; /* accepted over their application's limit: aborted */
	uint64_t apps_dropped;	 /* applications detached for breaking their rings */
	/* What the workers other than 0 serve: the main thread publishes an
	 * application here once attached and removes it with them parked. */
	struct dd_app *_Atomic live[SC_SERVER_MAX_APPS];
	/* Parking (dd_world_stop()): the main thread asks (stop_seq), each other
	 * worker says it stopped (parked[w] = stop_seq) and waits for go_seq. */
	_Atomic uint64_t stop_seq, go_seq;
	struct {
		_Alignas(64) _Atomic uint64_t parked;
		_Atomic uint64_t iterations; /* its loop's, for telemetry */
	} wk[SC_MAX_WORKERS];
	_Atomic bool quit;	 /* the other workers stop; once set, none runs again */
	uint64_t heap_bytes;	 /* allocated for applications now */
	struct dd_counters gone; /* the counters of departed applications, summed */
	struct dd_counters gone_wk[SC_MAX_WORKERS]; /* the same, by worker */
	/* Zero copy (--zero-copy): the packet-buffer memfd, mapped here read-write. */
	const uint8_t *zc_base;
	uint64_t zc_bytes;
	struct dpsctp *peer; /* --loopback-peer, or NULL */
};

/* dd_app.c */
void dd_app_init(struct dd *d);
extern const struct dpsctp_callbacks dd_callbacks;
void dd_on_attach(struct sc_server *s, struct sc_app *sa, void *arg);
void dd_on_detach(struct sc_server *s, struct sc_app *sa, void *arg);
/* Serve one application's rings of worker dd_w: held events first, then requests. Work
 * done. A broken application is dropped on worker 0, marked broken on the others. */
unsigned dd_app_serve(struct dd *d, struct dd_app *app);
/* Publish what this round posted to its rings of worker dd_w, then write the eventfds of
 * its threads that asked to be woken. Once per loop iteration. */
void dd_app_wake(struct dd_app *app);
/* Park every worker but the main thread's (0) at a loop boundary, and let them go. */
void dd_world_stop(struct dd *d);
void dd_world_go(struct dd *d);
/* Tell every application the daemon is stopping (SC_EVT_DAEMON_STOPPING). */
void dd_app_say_stopping(struct dd *d);
void dd_counters_add(struct dd_counters *sum, const struct dd_counters *c);

/* dd_opt.c: an application's option defaults (0 or -errno, as dpsctp_setopt() says). */
int dd_opt_set_default(const struct dd *d, struct dd_app *app, enum dpsctp_opt opt, const void *val,
		       size_t len);
int dd_opt_get_default(const struct dd *d, const struct dd_app *app, enum dpsctp_opt opt, void *val,
		       size_t *len);
/* The INITMSG of a connect: the application's default with the call's over it (out), or
 * the call's alone (NULL: the daemon's). */
const struct dpsctp_initmsg *dd_opt_initmsg(const struct dd_app *app,
					    const struct dpsctp_initmsg *call,
					    struct dpsctp_initmsg *out);
/* Give a new association the application's defaults but INITMSG. 0 or the first error. */
int dd_opt_apply_defaults(const struct dd_app *app, struct dpsctp_assoc *a);

/* dd_zc.c: the mbuf pool on a memfd (DPDK external memory). 0 or -errno, said why. */
struct rte_mempool;
int dd_zc_pool(const struct dpsctp_config *cfg, int *fd, uint8_t **base, uint64_t *bytes,
	       struct rte_mempool **pool);

/* dd_access.c: who may attach, from the options' strings (empty: not given). */
#define DD_ACCESS_LIST_LEN 512
struct dd_access_opts {
	char mode[8];		       /* --socket-mode, octal */
	char group[64];		       /* --socket-group, name or number */
	char uids[DD_ACCESS_LIST_LEN]; /* --allow-uid, names or numbers */
	char gids[DD_ACCESS_LIST_LEN]; /* --allow-gid */
};
/* 0, or -EINVAL with the option and value said on stderr. */
int dd_access_parse(const struct dd_access_opts *in, struct sc_server_access *out);
/* One "# dpsctpd: socket mode ..." line (--check). */
void dd_access_print(const struct sc_server_access *a, FILE *f);

/* dd_peer.c: --loopback-peer, a peer in this process over a net_ring pair. */
#define DD_PEER_IP	  "10.255.0.2"
#define DD_PEER_DAEMON_IP "10.255.0.1"
#define DD_PEER_PORT	  5001u
/* Make the ring pair and the peer; cfg's port and address become the daemon's end. */
struct dpsctp *dd_peer_create(struct dpsctp_config *cfg, bool echo);
void dd_peer_stats(uint64_t *msgs, uint64_t *bytes, uint64_t *echo_dropped);
void dd_peer_destroy(struct dpsctp *p);

/* dd_telemetry.c */
void dd_telemetry_register(struct dd *d);
/* A copy of what telemetry shows, refreshed by the loop (the loop owns the tables). */
void dd_telemetry_refresh(struct dd *d);
/*
 * The loop's heartbeat: written by the loop (dd_run()), read by
 * the telemetry thread directly, not through the refreshed copy, so that a
 * loop stuck inside an iteration shows as loop_age_us growing.
 */
struct dd_loop_beat {
	_Atomic uint64_t iterations;
	_Atomic uint64_t last_tsc;    /* when the latest iteration began */
	_Atomic uint64_t longest_tsc; /* the longest from one iteration's start to the next */
	_Atomic uint64_t log_lost;    /* 100 ms periods in which stdout or stderr dropped a line */
};
extern struct dd_loop_beat dd_loop;

#endif /* DPSCTP_DD_H */
