/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * libdpsctp-client: an application's way into dpsctpd, the sidecar data
 * plane (issue 8, docs/SIDECAR.md). It does not link DPDK: it speaks to
 * the daemon over a Unix socket and shared memory.
 *
 * Each application thread t (0 .. threads-1 at attach) has its own rings
 * and arenas: calls that name t may run on that thread only, without
 * locks; different threads never share. Every call returns 0 (or a count)
 * or a negative errno; none blocks but dpsctp_client_wait().
 */
#ifndef DPSCTP_CLIENT_H
#define DPSCTP_CLIENT_H

#include <stdint.h>

#include "sctp/addr.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DPSCTP_CLIENT_EXPORT __attribute__((visibility("default")))

/** The daemon's socket when none is given. */
#define DPSCTP_CLIENT_DEFAULT_SOCKET "/run/dpsctpd.sock"

struct dpsctp_client;

/** How to attach; zeros take the daemon's defaults. */
struct dpsctp_client_opts {
	unsigned threads;     /**< application threads with their own rings (default 1) */
	uint32_t ring_slots;  /**< slots per ring, a power of two */
	uint64_t arena_bytes; /**< payload bytes per arena, a power of two */
	const char *name;     /**< shown in the daemon's logs and counters (at most 31 bytes) */
	/**
	 * Ask for zero-copy receive: RECV data points into the daemon's packet
	 * buffers, mapped read-only, instead of a copy in the rx arena. Granted
	 * when the daemon runs with --zero-copy (dpsctp_client_zero_copy()
	 * says); the application then sees every packet buffer of the daemon,
	 * so the daemon should serve only applications that trust each other.
	 */
	int zero_copy;
};

/**
 * Attach to the daemon at @p socket_path (NULL: DPSCTP_CLIENT_DEFAULT_SOCKET).
 * Blocks for the handshake (a few system calls).
 *
 * @return the handle, or NULL with *err: -ENOENT / -ECONNREFUSED (no
 *         daemon there), -EBUSY (the daemon serves its maximum of
 *         applications), -E2BIG (more threads or larger rings or arenas
 *         than it allows), -EPROTO (it speaks another version, or sent
 *         something malformed), -EINVAL (bad options), -ENOMEM.
 */
DPSCTP_CLIENT_EXPORT struct dpsctp_client *
dpsctp_client_attach(const char *socket_path, const struct dpsctp_client_opts *opts, int *err);

/** 1 when received data comes by reference (zero copy), 0 when copied. */
DPSCTP_CLIENT_EXPORT int dpsctp_client_zero_copy(const struct dpsctp_client *c);

/** The daemon's id for this application (its logs and counters use it). */
DPSCTP_CLIENT_EXPORT uint32_t dpsctp_client_id(const struct dpsctp_client *c);

/**
 * The eventfd of thread @p t: readable when its completions or events
 * wait (put it in an epoll set). -EINVAL for a thread out of range.
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_fd(const struct dpsctp_client *c, unsigned t);

/**
 * 0 while the daemon that welcomed us serves us; -ECONNRESET once it has
 * gone (stopped, crashed, restarted: detach and attach again).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_check(struct dpsctp_client *c);

/** How to send one message. */
struct dpsctp_client_sndinfo {
	uint64_t assoc;	      /**< the association, from its COMM_UP event */
	uint16_t sid;	      /**< stream */
	uint32_t ppid;	      /**< payload protocol identifier, sent as given */
	uint32_t flags;	      /**< DPSCTP_CLIENT_UNORDERED, DPSCTP_CLIENT_SACK_NOW */
	uint32_t lifetime_ms; /**< 0: reliable */
};
#define DPSCTP_CLIENT_UNORDERED 0x01u
#define DPSCTP_CLIENT_SACK_NOW	0x02u
/**
 * No completion when the send succeeds (a failed one still completes, with
 * its cookie): a completion per message is a cache line the daemon writes
 * and the application reads, a third of the rings' traffic for small
 * messages. dpsctp_client_barrier() says when everything before it was
 * served.
 */
#define DPSCTP_CLIENT_QUIET 0x04u

/** What dpsctp_client_poll() hands back: a completion or an event. */
enum dpsctp_client_kind {
	DPSCTP_CLIENT_COMPLETION = 1, /**< a request's result: op, status, cookie (and assoc) */
	DPSCTP_CLIENT_RECV,	      /**< a message (or part, DPSCTP_CLIENT_MORE): data, len */
	DPSCTP_CLIENT_COMM_UP,	      /**< an association is up: assoc, streams */
	DPSCTP_CLIENT_COMM_LOST,      /**< ended abnormally (error: the peer's cause) */
	DPSCTP_CLIENT_SHUTDOWN_COMPLETE,
	DPSCTP_CLIENT_CANT_START,
	DPSCTP_CLIENT_RESTART,
	DPSCTP_CLIENT_PEER_ADDR_CHANGE,
	DPSCTP_CLIENT_SEND_FAILED,
	DPSCTP_CLIENT_SHUTDOWN_EVENT,
	DPSCTP_CLIENT_DAEMON_STOPPING,
};
/**
 * RECV flags. A message the daemon hands on in parts (larger than a quarter
 * of the rx arena, of several packets in zero-copy mode, or delivered in
 * parts by the data plane) comes as RECVs with MORE, then the last with
 * CONT and without MORE; the parts after the first carry CONT. A RECV
 * with neither flag is a whole message.
 */
#define DPSCTP_CLIENT_MORE 0x02u /**< RECV flags: more of this message follows */
#define DPSCTP_CLIENT_CONT 0x08u /**< RECV flags: continues a message begun earlier */

/**
 * COMM_LOST and CANT_START: why the association ended or never started
 * (dpsctp.h's enum dpsctp_reason, the same numbers). A peer that refused
 * the association (no listener on that port) is PEER_ABORT; one that never
 * answered is T1_INIT.
 */
enum dpsctp_client_reason {
	DPSCTP_CLIENT_REASON_NONE = 0,
	DPSCTP_CLIENT_REASON_PEER_ABORT,       /**< the peer's ABORT (its first cause: error) */
	DPSCTP_CLIENT_REASON_USER_ABORT,       /**< an abort of ours (or the daemon's) */
	DPSCTP_CLIENT_REASON_SHUTDOWN,	       /**< a graceful close */
	DPSCTP_CLIENT_REASON_T1_INIT,	       /**< no answer to the INIT */
	DPSCTP_CLIENT_REASON_T1_COOKIE,	       /**< no answer to the COOKIE ECHO */
	DPSCTP_CLIENT_REASON_STALE_COOKIE,     /**< the peer kept finding the cookie stale */
	DPSCTP_CLIENT_REASON_INIT_ACK_INVALID, /**< the peer's INIT ACK was refused */
	DPSCTP_CLIENT_REASON_T2_SHUTDOWN,      /**< no answer to SHUTDOWN */
	DPSCTP_CLIENT_REASON_T5_GUARD,	       /**< the shutdown took too long */
	DPSCTP_CLIENT_REASON_PATHS_FAILED,     /**< every path to the peer failed */
	DPSCTP_CLIENT_REASON_NO_MEMORY,	       /**< no memory in the data plane: ABORT sent */
	DPSCTP_CLIENT_REASON_PROTOCOL,	       /**< the peer broke the protocol: ABORT sent */
};

struct dpsctp_client_event {
	enum dpsctp_client_kind kind;
	uint64_t assoc;
	uint64_t cookie; /**< COMPLETION: the request's */
	int32_t status;	 /**< COMPLETION: 0 or -errno */
	uint8_t op; /**< COMPLETION: which request (1 listen .. 5 abort, 6 barrier, 7 unlisten) */
	uint8_t flags;	    /**< RECV: DPSCTP_CLIENT_UNORDERED, _MORE, _CONT */
	uint16_t sid;	    /**< RECV, SEND_FAILED; COMM_UP: outbound streams */
	uint16_t ssn;	    /**< RECV; COMM_UP: inbound streams */
	uint16_t error;	    /**< COMM_LOST, CANT_START: first cause code of the peer's ABORT */
	uint16_t port;	    /**< COMM_UP, RESTART, COMM_LOST, CANT_START: our SCTP port */
	uint16_t peer_port; /**< the same events: the peer's SCTP port */
	uint8_t reason;	    /**< COMM_LOST, CANT_START: enum dpsctp_client_reason */
	uint32_t ppid;	    /**< RECV, SEND_FAILED */
	uint32_t len;	    /**< RECV: bytes at data; SEND_FAILED: message bytes */
	const void *data;   /**< RECV: valid until the next poll on this thread */
	/** PEER_ADDR_CHANGE: the path's address; COMM_UP, RESTART, COMM_LOST,
	 * CANT_START: the peer's primary address (family 0 when unknown) */
	struct sctp_addr addr;
	/** PEER_ADDR_CHANGE: 1 available, 2 unreachable, 3 potentially failed (RFC 7829),
	 * 4 confirmed, 5 made primary (RFC 6458 spc_state) */
	uint8_t addr_state;
};

/**
 * Accept associations on SCTP port @p port, on thread @p t. The port is this
 * application's until it unlistens or detaches (or dies): then it goes back
 * to the daemon for any application. -EAGAIN: the request ring is full.
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_listen(struct dpsctp_client *c, unsigned t, uint16_t port,
					      uint64_t cookie);

/**
 * Accept no more associations on @p port (completion op 7: 0, or -ENOENT
 * when this application does not listen on it). Associations accepted on
 * it live on; the port is free for any application. -EAGAIN: the request
 * ring is full; -EINVAL: port 0.
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_unlisten(struct dpsctp_client *c, unsigned t, uint16_t port,
						uint64_t cookie);

/** Associate with @p n (1..4) addresses of one peer, port @p port. -EAGAIN: full. */
DPSCTP_CLIENT_EXPORT int dpsctp_client_connect(struct dpsctp_client *c, unsigned t,
					       const struct sctp_addr *addrs, unsigned n,
					       uint16_t port, uint64_t cookie);

/**
 * Send one message (copied once, into the thread's arena). -EAGAIN: the
 * ring or the arena is full (wait for completions); -EMSGSIZE: larger than
 * the arena; -EINVAL: empty or bad flags.
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_send(struct dpsctp_client *c, unsigned t,
					    const struct dpsctp_client_sndinfo *si, const void *buf,
					    uint32_t len, uint64_t cookie);

/**
 * A request that completes (op 6, status 0, @p cookie) once every request
 * thread @p t posted before it has been served: after quiet sends, the
 * moment they have all been handed to the data plane. -EAGAIN: the ring
 * is full.
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_barrier(struct dpsctp_client *c, unsigned t,
					       uint64_t cookie);

/** Close gracefully / abort an association. -EAGAIN: the ring is full. */
DPSCTP_CLIENT_EXPORT int dpsctp_client_shutdown(struct dpsctp_client *c, unsigned t, uint64_t assoc,
						uint64_t cookie);
DPSCTP_CLIENT_EXPORT int dpsctp_client_abort(struct dpsctp_client *c, unsigned t, uint64_t assoc,
					     uint64_t cookie);

/**
 * Up to @p max completions and events for thread @p t, completions first.
 * The number filled (0: nothing now), -EPROTO when the daemon wrote
 * something malformed, -ECONNRESET when it has gone (seen within 1,024
 * empty polls, so that busy polling makes no system call;
 * dpsctp_client_check() and dpsctp_client_wait() see it at once). Received data stays
 * valid until the next poll on the same thread.
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_poll(struct dpsctp_client *c, unsigned t,
					    struct dpsctp_client_event *ev, unsigned max);

/**
 * Block until thread @p t has something to poll, at most @p timeout_ms
 * (-1: no limit): 1 ready, 0 timed out, -ECONNRESET the daemon went.
 * Busy-polling applications never call it and the daemon then never makes
 * a system call to wake them.
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_wait(struct dpsctp_client *c, unsigned t, int timeout_ms);

/** Detach and free everything (the daemon aborts what is left of ours). */
DPSCTP_CLIENT_EXPORT void dpsctp_client_detach(struct dpsctp_client *c);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_CLIENT_H */
