/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sidecar's shared region and the attach handshake
 * (docs/SIDECAR.md). Plain C11 and POSIX, no DPDK: both dpsctpd and the
 * client library use it.
 *
 * An application connects to the daemon's Unix socket (SOCK_SEQPACKET:
 * one message per datagram, ordered, and the peer's exit is seen as EOF)
 * and sends a hello; the daemon answers with a welcome carrying the layout
 * of a region it made for that application alone, and, as SCM_RIGHTS, the
 * region's memfd and one eventfd per application thread (the thread's
 * completions and events; the daemon's lcores busy-poll the request rings
 * and never sleep on an eventfd).
 *
 * The region, by offset (sc_layout_compute()):
 *
 *   0                    struct sc_region_hdr (three pages): magic, version,
 *                        the daemon's generation, the layout again
 *   per thread t, per worker w (a ring set, sc_layout_set()):
 *                        request ring (app -> daemon), completion ring and
 *                        event ring (daemon -> app): SC_SLOT_BYTES slots;
 *                        tx arena (app writes payloads), rx arena (the
 *                        daemon writes payloads)
 *
 * A ring set joins one application thread to one of the daemon's workers
 * (its data-plane worker and the thread that runs it): every ring has one
 * producer and one consumer, so neither side takes a lock. An association
 * lives on one worker (its tag names it, docs/LCORE.md) and its handle says
 * which (SC_HANDLE_WORKER()): the application posts its requests to, and
 * hears its events from, the set (thread, that worker). With one worker
 * the region is what it was before workers: one set per thread.
 *
 * What one side sends the other is input: the welcome is checked against
 * the memfd's size, the hello's fields against the daemon's limits; a bad
 * message is -EPROTO, never a crash.
 */
#ifndef DPSCTP_SC_REGION_H
#define DPSCTP_SC_REGION_H

#include <stdint.h>

#include "dataplane/sidecar/sc_arena.h"
#include "dataplane/sidecar/sc_ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * SC_VERSION, the protocol's: 3, COMM_UP and CANT_START say who and why;
 * 4, PR-SCTP (a SEND's policy, SEND_FAILED's policy and SC_FAILED_SENT,
 * COMM_UP's extensions); 5, I-DATA and the stream scheduler (SET_SCHED,
 * GET_SCHED, SET_STREAM_PARAM, GET_STREAM_PARAM, a request's and a
 * completion's value, a RECV's mid); 6, stream reconfiguration (RESET_STREAMS,
 * ADD_STREAMS, RESET_ASSOC; the STREAM_RESET, ASSOC_RESET and STREAM_CHANGE
 * events) and a RECV's SC_RECV_ABORTED; 7, per-association options
 * (SETOPT, GETOPT and its answer in the completion slots after it, a
 * CONNECT's INITMSG) and a SEND's and a SEND_FAILED's context; 8, a ring
 * set per (thread, worker) (the layout's n_workers) and the worker in
 * an association's handle.
 */
#define SC_MAGIC	   0x4450534354505343ull /* "DPSCTPSC" */
#define SC_VERSION	   8u
#define SC_SLOT_BYTES	   64u
#define SC_MAX_THREADS	   16u
#define SC_MAX_WORKERS	   16u
#define SC_MAX_SETS	   (SC_MAX_THREADS * SC_MAX_WORKERS)
#define SC_NAME_LEN	   32u
#define SC_REGION_ALIGN	   4096u
#define SC_RING_SLOTS_MIN  64u
#define SC_RING_SLOTS_MAX  65536u
#define SC_ARENA_BYTES_MIN 65536u
#define SC_ARENA_BYTES_MAX (1ull << 30)

struct sc_layout_thread {
	uint64_t req_off, cpl_off, evt_off; /* rings, SC_SLOT_BYTES slots each */
	uint64_t tx_off, rx_off;	    /* arenas: SC_ARENA_HDR + arena_bytes each */
};

struct sc_layout {
	uint32_t n_threads;
	uint32_t ring_slots;
	uint64_t arena_bytes;
	uint64_t region_bytes;
	uint32_t n_workers; /* the daemon's, 1 .. SC_MAX_WORKERS */
	uint32_t pad;
	struct sc_layout_thread t[SC_MAX_SETS]; /* by sc_layout_set() */
};

/* The ring set of thread t and worker w: index into sc_layout.t. */
static inline uint32_t
sc_layout_set(const struct sc_layout *l, uint32_t t, uint32_t w)
{
	return t * l->n_workers + w;
}

/* The region's first pages (sc_layout_compute() rounds it up). */
struct sc_region_hdr {
	uint64_t magic;
	uint32_t version;
	uint32_t pad;
	uint64_t generation; /* the daemon's; a restarted daemon has another */
	struct sc_layout layout;
};

/* Application -> daemon, the first message on the socket. */
struct sc_hello {
	uint64_t magic;
	uint32_t version;
	uint32_t n_threads;	/* 1 .. SC_MAX_THREADS */
	uint32_t ring_slots;	/* 0 = the daemon's default */
	uint32_t flags;		/* SC_HELLO_* */
	uint64_t arena_bytes;	/* 0 = the daemon's default */
	char name[SC_NAME_LEN]; /* for the daemon's logs and counters, NUL-terminated */
};

/* sc_hello.flags: received messages by reference into the daemon's packet
 * buffers, mapped read-only (when the daemon runs with --zero-copy). */
#define SC_HELLO_ZERO_COPY 0x1u
#define SC_HELLO_FLAGS	   0x1u

/* Daemon -> application: the answer, with the fds when status is 0. */
struct sc_welcome {
	uint64_t magic;
	uint32_t version;
	int32_t status;	 /* 0, or -errno: why the daemon refused */
	uint32_t app_id; /* the daemon's name for this application */
	uint32_t n_fds;	 /* memfd, one eventfd per thread, then the packet-buffer memfd */
	uint64_t generation;
	uint64_t zc_bytes; /* the packet-buffer memfd's size; 0: one-copy mode, no such fd */
	struct sc_layout layout;
};

/*
 * Offsets for n_threads threads, rings of ring_slots slots and arenas of
 * arena_bytes (powers of two, within the SC_* bounds); everything aligned
 * to SC_REGION_ALIGN. One worker. 0 or -EINVAL.
 */
int sc_layout_compute(struct sc_layout *l, uint32_t n_threads, uint32_t ring_slots,
		      uint64_t arena_bytes);
/* The same with a ring set per (thread, worker), n_workers 1 .. SC_MAX_WORKERS. */
int sc_layout_compute_workers(struct sc_layout *l, uint32_t n_threads, uint32_t n_workers,
			      uint32_t ring_slots, uint64_t arena_bytes);

/* A layout that came from elsewhere: inside region_bytes, not overlapping. 0 or -EPROTO. */
int sc_layout_check(const struct sc_layout *l, uint64_t region_bytes);

/*
 * Daemon: a memfd of the layout's size, mapped, with the header written and
 * every ring created. 0 with *fd and *base set, or -errno.
 */
int sc_region_create(const struct sc_layout *l, uint64_t generation, int *fd, void **base);

/*
 * Application: map a region from its memfd after checking its size
 * against the layout. 0 with *base set, or -errno (-EPROTO: the memfd or
 * its header does not match the welcome).
 */
int sc_region_map(int fd, const struct sc_layout *l, uint64_t generation, void **base);

/* One thread's rings and arenas as one side sees them. */
struct sc_thread {
	struct sc_ring req, cpl, evt;
	struct sc_arena tx, rx;
};

/*
 * Views of the rings and arenas of thread t and worker w for the daemon
 * (daemon true: it consumes requests and the tx arena, produces
 * completions, events and the rx arena) or for the application. 0,
 * -EINVAL or -EPROTO.
 */
int sc_region_set(void *base, const struct sc_layout *l, uint32_t t, uint32_t w, bool daemon,
		  struct sc_thread *th);
/* Thread t's set of worker 0 (the only one with one worker). */
int sc_region_thread(void *base, const struct sc_layout *l, uint32_t t, bool daemon,
		     struct sc_thread *th);

/* Attach the three rings of thread t (worker 0), from the side given (daemon or application). */
int sc_region_rings(void *base, const struct sc_layout *l, uint32_t t, bool daemon,
		    struct sc_ring *req, struct sc_ring *cpl, struct sc_ring *evt);

/* The handshake. Each returns 0 or -errno; -EPROTO for a malformed message. */
int sc_hello_send(int sock, const struct sc_hello *h);
int sc_hello_recv(int sock, struct sc_hello *h);
int sc_welcome_send(int sock, const struct sc_welcome *w, const int *fds);
/* fds gets w->n_fds descriptors (at most max_fds; more is -EPROTO, and all are closed). */
int sc_welcome_recv(int sock, struct sc_welcome *w, int *fds, unsigned max_fds);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_SC_REGION_H */
