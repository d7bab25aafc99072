/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * libdpsctp-client: an application's way into dpsctpd, the sidecar data
 * plane (docs/SIDECAR.md; examples/client_hello.c is the smallest
 * program). It does not link DPDK: it speaks to the daemon over a Unix
 * socket and shared memory.
 *
 * Each application thread t (0 .. threads-1 at attach) has its own rings
 * and arenas: calls that name t may run on that thread only, without
 * locks; different threads never share. Every call returns 0 (or a count)
 * or a negative errno; none blocks but dpsctp_client_wait(). A call that
 * names a thread out of range returns -EINVAL.
 *
 * A request (listen, connect, send, ...) returns 0 once it is posted; its
 * result comes later as a completion with the request's cookie
 * (dpsctp_client_poll()). Events (a message, an association up or gone)
 * come the same way; struct dpsctp_client_event has one member per kind.
 *
 * A daemon with several workers (dpsctpd --queues N) gives each thread a
 * set of rings per worker; the library posts a request about an
 * association to the set of the worker that owns it (its handle says
 * which), spreads a thread's connects over the workers in turn, and a
 * poll reads every set: an association's events keep their order, those
 * of associations on different workers have none between them
 * (docs/SIDECAR.md, "Several workers").
 */
#ifndef DPSCTP_CLIENT_H
#define DPSCTP_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "sctp/addr.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DPSCTP_CLIENT_EXPORT __attribute__((visibility("default")))

/** The daemon's socket when none is given. */
#define DPSCTP_CLIENT_DEFAULT_SOCKET "/run/dpsctpd.sock"

struct dpsctp_client;
/* <dpsctp/dpsctp_opt.h>: the options' ids (DPSCTP_OPT_*) and structs. */
struct dpsctp_initmsg;

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
 * Attach to a daemon. Blocks for the handshake (a few system calls).
 *
 * @param socket_path  the daemon's socket; NULL: DPSCTP_CLIENT_DEFAULT_SOCKET.
 * @param opts         how to attach; NULL: the daemon's defaults.
 * @param err          set on failure; may be NULL.
 * @return the handle, or NULL with *err: -ENOENT / -ECONNREFUSED (no
 *         daemon there), -EBUSY (the daemon serves its maximum of
 *         applications), -E2BIG (more threads or larger rings or arenas
 *         than it allows), -EPROTO (it speaks another version, or sent
 *         something malformed), -EINVAL (bad options), -ENOMEM.
 */
DPSCTP_CLIENT_EXPORT struct dpsctp_client *
dpsctp_client_attach(const char *socket_path, const struct dpsctp_client_opts *opts, int *err);

/**
 * How received data comes.
 *
 * @param c  the attachment.
 * @return 1 when by reference (zero copy), 0 when copied.
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_zero_copy(const struct dpsctp_client *c);

/**
 * The daemon's id for this application.
 *
 * @param c  the attachment.
 * @return the id its logs and counters use.
 */
DPSCTP_CLIENT_EXPORT uint32_t dpsctp_client_id(const struct dpsctp_client *c);

/**
 * The eventfd of a thread: readable when its completions or events wait
 * (put it in an epoll set).
 *
 * @param c  the attachment.
 * @param t  the thread.
 * @return the file descriptor, or -EINVAL for a thread out of range.
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_fd(const struct dpsctp_client *c, unsigned t);

/**
 * Whether the daemon that welcomed us still serves us (one system call).
 *
 * @param c  the attachment.
 * @return 0 while it does; -ECONNRESET once it has gone (stopped, crashed,
 *         restarted: detach and attach again).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_check(struct dpsctp_client *c);

/** How to send one message. */
struct dpsctp_client_sndinfo {
	uint64_t assoc;	    /**< the association, from its COMM_UP event */
	uint16_t sid;	    /**< stream */
	uint32_t ppid;	    /**< payload protocol identifier in network order, as lksctp's
				 sinfo_ppid: htonl(60) is NGAP */
	uint32_t flags;	    /**< DPSCTP_CLIENT_UNORDERED, DPSCTP_CLIENT_SACK_NOW */
	uint32_t pr_policy; /**< DPSCTP_CLIENT_PR_NONE (reliable), _TTL, _RTX, _PRIO */
	uint32_t pr_value;  /**< TTL: lifetime in ms; RTX: retransmissions; PRIO: priority */
	uint32_t context;   /**< the application's, returned in the message's SEND_FAILED */
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
/**
 * Send with the association's DPSCTP_OPT_DEFAULT_SNDINFO (RFC 6458
 * SCTP_DEFAULT_SNDINFO, set with dpsctp_client_setopt()): its stream, PPID,
 * unordered and SACK-now flags, PR-SCTP policy and context; those of the
 * dpsctp_client_sndinfo are ignored (DPSCTP_CLIENT_QUIET still applies).
 */
#define DPSCTP_CLIENT_DEFAULT_SNDINFO 0x08u

/**
 * dpsctp_client_sndinfo.pr_policy: PR-SCTP (RFC 3758) with the policies of
 * RFC 7496, dpsctp.h's DPSCTP_PR_* (the same numbers). A message with a
 * policy may be abandoned: the data plane stops retransmitting it, tells
 * the peer with a FORWARD TSN and the application with SEND_FAILED
 * (send_failed.pr_policy set). With a peer that did not negotiate PR-SCTP
 * (assoc_change.extensions without DPSCTP_CLIENT_EXT_PR_SCTP), or a daemon
 * configured without it, the message goes reliably.
 */
#define DPSCTP_CLIENT_PR_NONE 0u /**< reliable; pr_value is ignored */
/** Abandoned pr_value ms (1 or more) after dpsctpd handed the message to the data plane (a
 * request waiting in the ring for send space has not started its lifetime). */
#define DPSCTP_CLIENT_PR_TTL 1u
#define DPSCTP_CLIENT_PR_RTX 2u /**< abandoned after pr_value retransmissions (0: sent once) */
/** Priority pr_value, 0 highest: lower ones are abandoned to make room when the daemon's send
 * buffer for the association is full. */
#define DPSCTP_CLIENT_PR_PRIO 3u

/** assoc_change.extensions: what the association negotiated (dpsctp.h's DPSCTP_EXT_*). */
#define DPSCTP_CLIENT_EXT_PR_SCTP 0x02u /**< PR-SCTP: FORWARD TSN, RFC 3758 */
/** I-DATA, RFC 8260: messages of different streams interleave, fragment by fragment, both
 * ways; several messages may arrive in parts at once (RECV flags) */
#define DPSCTP_CLIENT_EXT_I_DATA 0x04u
/** Stream reconfiguration, RFC 6525: dpsctp_client_reset_streams(), dpsctp_client_add_streams(),
 * dpsctp_client_reset_assoc() */
#define DPSCTP_CLIENT_EXT_RECONFIG 0x08u

/**
 * Stream schedulers (RFC 8260 §3), dpsctp.h's DPSCTP_SCHED_* (the same
 * numbers): dpsctp_client_set_sched(). Every association starts with the
 * daemon's (--sched, round robin by default).
 */
#define DPSCTP_CLIENT_SCHED_RR	   0u /**< round robin over the streams with data (default) */
#define DPSCTP_CLIENT_SCHED_FCFS   1u /**< first come, first served */
#define DPSCTP_CLIENT_SCHED_RR_PKT 2u /**< round robin, one stream per packet */
#define DPSCTP_CLIENT_SCHED_PRIO   3u /**< strict priority: lower stream parameter first */
#define DPSCTP_CLIENT_SCHED_FC	   4u /**< fair capacity: equal bytes per stream */
#define DPSCTP_CLIENT_SCHED_WFQ	   5u /**< weighted fair queueing: bytes by stream weight */

/** What dpsctp_client_poll() hands back: a completion or an event. */
enum dpsctp_client_kind {
	DPSCTP_CLIENT_COMPLETION = 1,	 /**< a request's result: completion */
	DPSCTP_CLIENT_RECV,		 /**< a message, or part of one: recv */
	DPSCTP_CLIENT_COMM_UP,		 /**< an association is up: assoc_change */
	DPSCTP_CLIENT_COMM_LOST,	 /**< it ended abnormally: assoc_change */
	DPSCTP_CLIENT_SHUTDOWN_COMPLETE, /**< it closed gracefully: assoc_change */
	DPSCTP_CLIENT_CANT_START,	 /**< a connect failed: assoc_change */
	DPSCTP_CLIENT_RESTART,		 /**< the peer restarted it: assoc_change */
	DPSCTP_CLIENT_PEER_ADDR_CHANGE,	 /**< a path changed state: addr_change */
	DPSCTP_CLIENT_SEND_FAILED,	 /**< a message abandoned, or not delivered at a close:
					    send_failed */
	DPSCTP_CLIENT_SHUTDOWN_EVENT,	 /**< the peer began a graceful close (no fields) */
	DPSCTP_CLIENT_DAEMON_STOPPING,	 /**< the daemon is going away: detach (no fields) */
	DPSCTP_CLIENT_STREAM_RESET,	 /**< RFC 6525: streams' numbering reset: stream_reset */
	DPSCTP_CLIENT_ASSOC_RESET,	 /**< RFC 6525: SSNs and TSNs reset: assoc_reset */
	DPSCTP_CLIENT_STREAM_CHANGE,	 /**< RFC 6525: streams added: stream_change */
};

/** The request a completion answers (dpsctp_client_completion.op). */
enum dpsctp_client_op {
	DPSCTP_CLIENT_OP_LISTEN = 1,	   /**< dpsctp_client_listen() */
	DPSCTP_CLIENT_OP_CONNECT,	   /**< dpsctp_client_connect(): the new handle in assoc */
	DPSCTP_CLIENT_OP_SEND,		   /**< dpsctp_client_send() */
	DPSCTP_CLIENT_OP_SHUTDOWN,	   /**< dpsctp_client_shutdown() */
	DPSCTP_CLIENT_OP_ABORT,		   /**< dpsctp_client_abort() */
	DPSCTP_CLIENT_OP_BARRIER,	   /**< dpsctp_client_barrier() */
	DPSCTP_CLIENT_OP_UNLISTEN,	   /**< dpsctp_client_unlisten() */
	DPSCTP_CLIENT_OP_SET_SCHED,	   /**< dpsctp_client_set_sched() */
	DPSCTP_CLIENT_OP_GET_SCHED,	   /**< dpsctp_client_get_sched(): the scheduler in value */
	DPSCTP_CLIENT_OP_SET_STREAM_PARAM, /**< dpsctp_client_set_stream_param() */
	DPSCTP_CLIENT_OP_GET_STREAM_PARAM, /**< dpsctp_client_get_stream_param(): value */
	DPSCTP_CLIENT_OP_RESET_STREAMS,	   /**< dpsctp_client_reset_streams() */
	DPSCTP_CLIENT_OP_ADD_STREAMS,	   /**< dpsctp_client_add_streams() */
	DPSCTP_CLIENT_OP_RESET_ASSOC,	   /**< dpsctp_client_reset_assoc() */
	DPSCTP_CLIENT_OP_SETOPT,	   /**< dpsctp_client_setopt() */
	DPSCTP_CLIENT_OP_GETOPT,	   /**< dpsctp_client_getopt(): the answer in data, len */
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
 * RECV flags, with CONT: the sender abandoned (PR-SCTP) the message whose
 * parts came before; this RECV has no bytes (len 0, data NULL) and ends
 * it. What was delivered of it is all there will be: not a message.
 */
#define DPSCTP_CLIENT_ABORTED 0x20u

/** dpsctp_client_reset_streams() flags (dpsctp.h's DPSCTP_RESET_INCOMING, _OUTGOING). */
#define DPSCTP_CLIENT_RESET_INCOMING 0x01u /**< ask the peer to reset its outgoing streams */
#define DPSCTP_CLIENT_RESET_OUTGOING 0x02u /**< reset our outgoing streams */

/**
 * STREAM_RESET, ASSOC_RESET and STREAM_CHANGE flags (RFC 6525 §6.1, the
 * socket API's values; dpsctp.h's DPSCTP_RESET_*_SSN, _DENIED, _FAILED).
 */
#define DPSCTP_CLIENT_RESET_INCOMING_SSN 0x01u /**< the peer's outgoing streams, our incoming */
#define DPSCTP_CLIENT_RESET_OUTGOING_SSN 0x02u /**< our outgoing streams */
#define DPSCTP_CLIENT_RESET_DENIED	 0x04u /**< the peer refused the request */
#define DPSCTP_CLIENT_RESET_FAILED	 0x08u /**< the request failed */

/**
 * COMM_LOST and CANT_START: why the association ended or never started
 * (dpsctp.h's enum dpsctp_reason, the same numbers). A peer that refused
 * the association (no listener on that port) is PEER_ABORT; one that never
 * answered is T1_INIT.
 */
enum dpsctp_client_reason {
	DPSCTP_CLIENT_REASON_NONE = 0,	       /**< COMM_UP, RESTART, SHUTDOWN_COMPLETE */
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

/**
 * PEER_ADDR_CHANGE: what happened to the path (RFC 6458 spc_state; dpsctp.h's
 * enum dpsctp_addr_state, the same numbers).
 */
enum dpsctp_client_addr_state {
	DPSCTP_CLIENT_ADDR_AVAILABLE = 1,      /**< active again */
	DPSCTP_CLIENT_ADDR_UNREACHABLE,	       /**< inactive: too many errors */
	DPSCTP_CLIENT_ADDR_POTENTIALLY_FAILED, /**< RFC 7829: probed, no data while another works */
	DPSCTP_CLIENT_ADDR_CONFIRMED,	       /**< our heartbeat came back (RFC 9260 §5.4) */
	DPSCTP_CLIENT_ADDR_MADE_PRIMARY,       /**< the primary path is now this address */
};

/**
 * DPSCTP_OPT_STATUS' state (RFC 6458 sstat_state; dpsctp.h's enum
 * dpsctp_assoc_state, the same numbers).
 */
enum dpsctp_client_assoc_state {
	DPSCTP_CLIENT_STATE_CLOSED = 0,	       /**< gone */
	DPSCTP_CLIENT_STATE_COOKIE_WAIT,       /**< INIT sent */
	DPSCTP_CLIENT_STATE_COOKIE_ECHOED,     /**< COOKIE ECHO sent */
	DPSCTP_CLIENT_STATE_ESTABLISHED,       /**< up */
	DPSCTP_CLIENT_STATE_SHUTDOWN_PENDING,  /**< closing: our data still leaving */
	DPSCTP_CLIENT_STATE_SHUTDOWN_SENT,     /**< closing: SHUTDOWN sent */
	DPSCTP_CLIENT_STATE_SHUTDOWN_RECEIVED, /**< closing: the peer's SHUTDOWN came */
	DPSCTP_CLIENT_STATE_SHUTDOWN_ACK_SENT, /**< closing: SHUTDOWN ACK sent */
};

/**
 * DPSCTP_OPT_PEER_ADDR_INFO's state, and STATUS' primary path's (RFC 6458
 * spinfo_state; dpsctp.h's enum dpsctp_path_state, the same numbers).
 */
enum dpsctp_client_path_state {
	DPSCTP_CLIENT_PATH_ACTIVE = 0,	       /**< usable */
	DPSCTP_CLIENT_PATH_POTENTIALLY_FAILED, /**< RFC 7829: probed, no data while another works */
	DPSCTP_CLIENT_PATH_INACTIVE,	       /**< errors above Path.Max.Retrans */
};

/**
 * DPSCTP_OPT_EVENTS' mask through the daemon (RFC 6458 SCTP_EVENT; dpsctp.h's
 * DPSCTP_EV_BIT() of the same events): the events of an association its
 * application hears. COMM_UP, COMM_LOST, SHUTDOWN_COMPLETE and CANT_START
 * always come, whatever the mask; every event by default.
 */
#define DPSCTP_CLIENT_EVENT_RESTART	     (1u << 5)
#define DPSCTP_CLIENT_EVENT_PEER_ADDR_CHANGE (1u << 6)
#define DPSCTP_CLIENT_EVENT_SEND_FAILED	     (1u << 8)
#define DPSCTP_CLIENT_EVENT_STREAM_RESET     (1u << 9)
#define DPSCTP_CLIENT_EVENT_ASSOC_RESET	     (1u << 10)
#define DPSCTP_CLIENT_EVENT_STREAM_CHANGE    (1u << 11)

/** DPSCTP_CLIENT_COMPLETION: the result of one request. */
struct dpsctp_client_completion {
	uint64_t cookie;	  /**< the request's */
	int32_t status;		  /**< 0 or -errno (the request's function lists them) */
	enum dpsctp_client_op op; /**< which request */
	/** GET_SCHED: the scheduler (DPSCTP_CLIENT_SCHED_*); GET_STREAM_PARAM: the stream's
	 * priority or weight; 0 otherwise and when status is not 0 */
	uint32_t value;
	/** GETOPT with status 0: the option's struct (<dpsctp/dpsctp_opt.h>), len bytes,
	 * aligned for it, valid until the next poll on this thread; NULL otherwise */
	const void *data;
	uint32_t len; /**< bytes at data */
};

/** DPSCTP_CLIENT_RECV: a message, or a part of one (flags). */
struct dpsctp_client_recv {
	const void *data; /**< the bytes: valid until the next poll on this thread */
	uint32_t len;	  /**< bytes at data */
	uint32_t ppid;	  /**< payload protocol identifier, network order */
	uint16_t sid;	  /**< stream */
	uint16_t ssn;  /**< stream sequence number (ordered messages; I-DATA: mid's low 16 bits) */
	uint8_t flags; /**< DPSCTP_CLIENT_UNORDERED, _MORE, _CONT, _ABORTED */
	/** the message's identifier: with I-DATA its MID, with DATA the SSN again. With I-DATA
	 * the parts of several messages may interleave: one message's share (assoc, sid,
	 * DPSCTP_CLIENT_UNORDERED, mid) */
	uint32_t mid;
};

/**
 * COMM_UP, RESTART, COMM_LOST, SHUTDOWN_COMPLETE, CANT_START: the
 * association's state changed (RFC 6458 SCTP_ASSOC_CHANGE).
 */
struct dpsctp_client_assoc_change {
	/** the peer's primary address (family 0 when unknown; SHUTDOWN_COMPLETE: 0) */
	struct sctp_addr peer;
	uint16_t port;		   /**< our SCTP port (SHUTDOWN_COMPLETE: 0) */
	uint16_t peer_port;	   /**< the peer's SCTP port (SHUTDOWN_COMPLETE: 0) */
	uint16_t outbound_streams; /**< COMM_UP, RESTART: streams we may send on */
	uint16_t inbound_streams;  /**< COMM_UP, RESTART: streams the peer may send on */
	uint16_t error;		   /**< COMM_LOST, CANT_START: first cause of the peer's ABORT */
	enum dpsctp_client_reason reason; /**< COMM_LOST, CANT_START: why */
	/** COMM_UP, RESTART: the extensions negotiated with the peer, DPSCTP_CLIENT_EXT_* (RFC
	 * 6458's sac_info features) */
	uint32_t extensions;
};

/** DPSCTP_CLIENT_PEER_ADDR_CHANGE: one path of the association. */
struct dpsctp_client_addr_change {
	struct sctp_addr addr;		     /**< the path's peer address */
	enum dpsctp_client_addr_state state; /**< what happened to it */
};

/**
 * DPSCTP_CLIENT_SEND_FAILED: a message the peer will not get whole. Either
 * its PR-SCTP policy abandoned it (pr_policy says which) while the
 * association lives on, or it was not acknowledged when the association
 * ended (pr_policy DPSCTP_CLIENT_PR_NONE).
 */
struct dpsctp_client_send_failed {
	uint32_t len;	    /**< message bytes */
	uint32_t ppid;	    /**< its payload protocol identifier, network order */
	uint16_t sid;	    /**< its stream */
	int sent;	    /**< some of it went on the wire (RFC 6458 SCTP_DATA_SENT), else 0 */
	uint32_t pr_policy; /**< DPSCTP_CLIENT_PR_* that abandoned it; 0: the association ended */
	uint32_t context;   /**< its dpsctp_client_sndinfo.context */
};

/**
 * DPSCTP_CLIENT_STREAM_RESET: the numbering of streams was reset (RFC
 * 6525; RFC 6458 SCTP_STREAM_RESET_EVENT): ours (OUTGOING_SSN, the answer
 * to dpsctp_client_reset_streams()), or the peer's (INCOMING_SSN, asked by
 * either side), or a request of ours refused (with DENIED or FAILED). A
 * list of more than 32 streams comes as several events.
 */
struct dpsctp_client_stream_reset {
	uint32_t flags;		 /**< DPSCTP_CLIENT_RESET_*_SSN, _DENIED, _FAILED */
	uint16_t n;		 /**< entries of streams; 0: every stream */
	const uint16_t *streams; /**< the streams: valid until the next poll on this thread */
};

/**
 * DPSCTP_CLIENT_ASSOC_RESET: every stream's numbering and both TSNs were
 * reset (RFC 6458 SCTP_ASSOC_RESET_EVENT), or a request of ours refused
 * (DENIED, FAILED; the TSNs 0).
 */
struct dpsctp_client_assoc_reset {
	uint32_t flags;	     /**< DPSCTP_CLIENT_RESET_DENIED, _FAILED, or 0 */
	uint32_t local_tsn;  /**< our next TSN */
	uint32_t remote_tsn; /**< the peer's next TSN */
};

/**
 * DPSCTP_CLIENT_STREAM_CHANGE: streams were added, by us or by the peer
 * (RFC 6458 SCTP_STREAM_CHANGE_EVENT), or a request of ours refused
 * (DENIED, FAILED). The counts are the association's now.
 */
struct dpsctp_client_stream_change {
	uint32_t flags;		   /**< DPSCTP_CLIENT_RESET_DENIED, _FAILED, or 0 */
	uint16_t outbound_streams; /**< streams we may send on */
	uint16_t inbound_streams;  /**< streams the peer may send on */
};

/** A completion or an event: kind says which member of the union is filled. */
struct dpsctp_client_event {
	enum dpsctp_client_kind kind;
	/** The association: every event but DAEMON_STOPPING; a COMPLETION of
	 * connect, send, shutdown and abort (0 for the others). */
	uint64_t assoc;
	union {
		struct dpsctp_client_completion completion;	  /**< COMPLETION */
		struct dpsctp_client_recv recv;			  /**< RECV */
		struct dpsctp_client_assoc_change assoc_change;	  /**< COMM_UP .. RESTART */
		struct dpsctp_client_addr_change addr_change;	  /**< PEER_ADDR_CHANGE */
		struct dpsctp_client_send_failed send_failed;	  /**< SEND_FAILED */
		struct dpsctp_client_stream_reset stream_reset;	  /**< STREAM_RESET */
		struct dpsctp_client_assoc_reset assoc_reset;	  /**< ASSOC_RESET */
		struct dpsctp_client_stream_change stream_change; /**< STREAM_CHANGE */
	};
};

/**
 * Accept associations on an SCTP port; their events come to thread @p t.
 * The port is this application's until it unlistens or detaches (or dies):
 * then it goes back to the daemon for any application. The completion
 * (DPSCTP_CLIENT_OP_LISTEN) says 0, -EEXIST (ours already), -EADDRINUSE
 * (another application's port) or -ENOBUFS (the daemon's --listeners are
 * all taken).
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param port    the SCTP port, not 0.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the request ring is full), -EINVAL (port 0 or
 *         a thread out of range).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_listen(struct dpsctp_client *c, unsigned t, uint16_t port,
					      uint64_t cookie);

/**
 * Accept no more associations on a port (the completion,
 * DPSCTP_CLIENT_OP_UNLISTEN: 0, or -ENOENT when this application does not
 * listen on it). Associations accepted on it live on; the port is free for
 * any application.
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param port    the SCTP port.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the request ring is full), -EINVAL (port 0).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_unlisten(struct dpsctp_client *c, unsigned t, uint16_t port,
						uint64_t cookie);

/**
 * Associate with a peer. The completion (DPSCTP_CLIENT_OP_CONNECT) carries
 * the new association's handle in assoc, or -ENOBUFS when this application
 * holds its share of the daemon's associations; COMM_UP or CANT_START
 * follows.
 *
 * @param c       the attachment.
 * @param t       the thread that will hear the association's events.
 * @param addrs   the peer's addresses, the first the primary.
 * @param n       entries of @p addrs, 1..4.
 * @param port    the peer's SCTP port.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring or the arena is full), -EINVAL (no
 *         address, more than 4, a family other than 4 or 6, port 0).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_connect(struct dpsctp_client *c, unsigned t,
					       const struct sctp_addr *addrs, unsigned n,
					       uint16_t port, uint64_t cookie);

/**
 * dpsctp_client_connect() with the INIT's streams and retries for this
 * association (RFC 6458's SCTP_INITMSG set before connect(); the embedded
 * API's dpsctp_connect_opts()): the fields of @p init not 0 replace the
 * application's defaults (dpsctp_client_setopt() with assoc 0), which
 * replace the daemon's. The completion (DPSCTP_CLIENT_OP_CONNECT) as
 * dpsctp_client_connect()'s, or -EINVAL when the daemon refuses the streams
 * (more than its --max-streams).
 *
 * @param c       the attachment.
 * @param t       the thread that will hear the association's events.
 * @param addrs   the peer's addresses, the first the primary.
 * @param n       entries of @p addrs, 1..4.
 * @param port    the peer's SCTP port.
 * @param init    struct dpsctp_initmsg (<dpsctp/dpsctp_opt.h>); NULL: as
 *                dpsctp_client_connect().
 * @param cookie  returned in the completion.
 * @param err     room for a one-line reason when @p init is refused here
 *                (it names the field and its range); may be NULL.
 * @param errlen  bytes at @p err.
 * @return 0 (posted), -EAGAIN (the ring or the arena is full), -EINVAL (as
 *         dpsctp_client_connect(), or an @p init that dpsctp_opt_check()
 *         refuses: err says why).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_connect_opts(struct dpsctp_client *c, unsigned t,
						    const struct sctp_addr *addrs, unsigned n,
						    uint16_t port,
						    const struct dpsctp_initmsg *init,
						    uint64_t cookie, char *err, size_t errlen);

/**
 * Send one message, copied once into the thread's arena. The completion
 * (DPSCTP_CLIENT_OP_SEND; none for a DPSCTP_CLIENT_QUIET send that succeeds)
 * says 0 or what the data plane said (dpsctp_send(): -ENOTCONN, -EAGAIN,
 * ...), or -ENOENT for an association that is not this application's.
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param si      the association, stream, payload protocol identifier,
 *                flags, PR-SCTP policy and its value.
 * @param buf     the message.
 * @param len     its bytes, 1 or more.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring or the arena is full: poll for
 *         completions), -EMSGSIZE (larger than the arena), -EINVAL (empty,
 *         bad flags, a pr_policy above DPSCTP_CLIENT_PR_PRIO, a
 *         DPSCTP_CLIENT_PR_TTL of 0 ms).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_send(struct dpsctp_client *c, unsigned t,
					    const struct dpsctp_client_sndinfo *si, const void *buf,
					    uint32_t len, uint64_t cookie);

/**
 * A request that completes (DPSCTP_CLIENT_OP_BARRIER, status 0) once every
 * request the thread posted before it has been served: after quiet sends,
 * the moment they have all been handed to the data plane.
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring is full).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_barrier(struct dpsctp_client *c, unsigned t,
					       uint64_t cookie);

/**
 * Close an association gracefully: SHUTDOWN_COMPLETE (or COMM_LOST)
 * follows. The completion (DPSCTP_CLIENT_OP_SHUTDOWN) says 0, or -ENOENT
 * for an association that is not this application's (or has ended).
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param assoc   the association.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring is full).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_shutdown(struct dpsctp_client *c, unsigned t, uint64_t assoc,
						uint64_t cookie);

/**
 * Abort an association: COMM_LOST follows. The completion
 * (DPSCTP_CLIENT_OP_ABORT) as dpsctp_client_shutdown()'s.
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param assoc   the association.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring is full).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_abort(struct dpsctp_client *c, unsigned t, uint64_t assoc,
					     uint64_t cookie);

/**
 * Change an association's stream scheduler (RFC 8260 §3; the socket API's
 * SCTP_STREAM_SCHEDULER, RFC 8260 §4.3.2). The daemon applies it on the
 * data plane's thread between two polls (dpsctp_set_sched()). The
 * schedulers keep different state over the send queue, so the change is
 * refused while messages wait in it: set it before sending (at COMM_UP),
 * or when the sends so far have left. The completion
 * (DPSCTP_CLIENT_OP_SET_SCHED) says 0, -EBUSY (messages queued),
 * -ENOTCONN (not established, or closing), -ENOENT (not this
 * application's association).
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param assoc   the association.
 * @param sched   DPSCTP_CLIENT_SCHED_RR .. DPSCTP_CLIENT_SCHED_WFQ.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring is full), -EINVAL (assoc 0, not a
 *         scheduler, a thread out of range).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_set_sched(struct dpsctp_client *c, unsigned t,
						 uint64_t assoc, unsigned sched, uint64_t cookie);

/**
 * Ask for an association's stream scheduler: the completion
 * (DPSCTP_CLIENT_OP_GET_SCHED) carries it in value with status 0, or says
 * -ENOTCONN or -ENOENT as dpsctp_client_set_sched()'s.
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param assoc   the association.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring is full), -EINVAL (assoc 0).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_get_sched(struct dpsctp_client *c, unsigned t,
						 uint64_t assoc, uint64_t cookie);

/**
 * Set an outbound stream's scheduling parameter (the socket API's
 * SCTP_STREAM_SCHEDULER_VALUE, RFC 8260 §4.3.3): its priority under
 * DPSCTP_CLIENT_SCHED_PRIO (lower first; 0, the highest, is the default)
 * or its weight under DPSCTP_CLIENT_SCHED_WFQ. Allowed while messages are
 * queued. The completion (DPSCTP_CLIENT_OP_SET_STREAM_PARAM) says 0,
 * -EINVAL (a stream the association does not have, a weight of 0 under
 * WFQ), -ENOTCONN, -ENOENT.
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param assoc   the association.
 * @param sid     the outbound stream.
 * @param value   its priority or weight.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring is full), -EINVAL (assoc 0).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_set_stream_param(struct dpsctp_client *c, unsigned t,
							uint64_t assoc, uint16_t sid,
							uint16_t value, uint64_t cookie);

/**
 * Ask for an outbound stream's scheduling parameter: the completion
 * (DPSCTP_CLIENT_OP_GET_STREAM_PARAM) carries it in value with status 0,
 * or says -EINVAL (no such stream), -ENOTCONN, -ENOENT.
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param assoc   the association.
 * @param sid     the outbound stream.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring is full), -EINVAL (assoc 0).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_get_stream_param(struct dpsctp_client *c, unsigned t,
							uint64_t assoc, uint16_t sid,
							uint64_t cookie);

/**
 * Reset the numbering of streams (RFC 6525 §5.1.2-§5.1.3; Linux's
 * SCTP_RESET_STREAMS): our outgoing ones (DPSCTP_CLIENT_RESET_OUTGOING: the
 * next message on each is SSN 0 again, once the peer has everything sent
 * before), the peer's (DPSCTP_CLIENT_RESET_INCOMING), or both. Needs
 * RE-CONFIG negotiated (assoc_change.extensions with
 * DPSCTP_CLIENT_EXT_RECONFIG). The daemon makes the call
 * (dpsctp_reset_streams()) between two polls of the data plane; the
 * completion (DPSCTP_CLIENT_OP_RESET_STREAMS) says 0 (the request went to
 * the peer), -EOPNOTSUPP (RE-CONFIG not negotiated), -ENOTCONN (not
 * established, or shutting down), -EINPROGRESS (a request of ours still
 * waits for its answer), -EINVAL (a stream the association does not have),
 * -EAGAIN (a message is queued on an outgoing stream to reset: let it
 * leave, then ask again), -ENOENT (not this application's association).
 * The answer comes as DPSCTP_CLIENT_STREAM_RESET (with
 * DPSCTP_CLIENT_RESET_DENIED or _FAILED when refused); until then a send on
 * an outgoing stream being reset completes with -EAGAIN.
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param assoc   the association.
 * @param flags   DPSCTP_CLIENT_RESET_OUTGOING and/or DPSCTP_CLIENT_RESET_INCOMING.
 * @param sids    the streams (NULL with n 0), copied into the thread's arena.
 * @param n       how many, at most 32; 0: every stream.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring or the arena is full), -EINVAL
 *         (assoc 0, no flag or an unknown one, more than 32 streams, sids
 *         NULL with n not 0, a thread out of range).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_reset_streams(struct dpsctp_client *c, unsigned t,
						     uint64_t assoc, unsigned flags,
						     const uint16_t *sids, uint16_t n,
						     uint64_t cookie);

/**
 * Add streams (RFC 6525 §5.1.5-§5.1.6; Linux's SCTP_ADD_STREAMS): @p out
 * more outbound streams, and ask the peer for @p in more of ours inbound.
 * Streams go up to the daemon's --max-streams (each side's: the peer may
 * refuse). The completion (DPSCTP_CLIENT_OP_ADD_STREAMS) says 0, or
 * -EINVAL (past 65,535 streams) and the other values of
 * dpsctp_client_reset_streams(); the new counts come as
 * DPSCTP_CLIENT_STREAM_CHANGE (with DPSCTP_CLIENT_RESET_DENIED or _FAILED
 * when refused), one for each direction added.
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param assoc   the association.
 * @param out     outbound streams to add (0: none).
 * @param in      inbound streams to ask the peer for (0: none).
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring is full), -EINVAL (assoc 0,
 *         nothing to add, a thread out of range).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_add_streams(struct dpsctp_client *c, unsigned t,
						   uint64_t assoc, uint16_t out, uint16_t in,
						   uint64_t cookie);

/**
 * Reset every stream's numbering and both sides' TSNs (RFC 6525 §5.1.4;
 * Linux's SCTP_RESET_ASSOC). Only with nothing of ours queued or
 * unacknowledged: the completion (DPSCTP_CLIENT_OP_RESET_ASSOC) says 0,
 * -EAGAIN (something outstanding: ask again once it is acknowledged), and
 * the other values of dpsctp_client_reset_streams(); the new TSNs come as
 * DPSCTP_CLIENT_ASSOC_RESET.
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param assoc   the association.
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring is full), -EINVAL (assoc 0, a
 *         thread out of range).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_reset_assoc(struct dpsctp_client *c, unsigned t,
						   uint64_t assoc, uint64_t cookie);

/**
 * Set an option of an association, or the application's default for its
 * associations made afterwards (RFC 6458's setsockopt() with an
 * association id, or id 0). The option's ids, structs and ranges are
 * <dpsctp/dpsctp_opt.h>'s (docs/OPTIONS.md maps each to its socket option).
 * The value is checked here first (dpsctp_opt_check(): -EINVAL with the
 * option, the field and the range in @p err, nothing posted), then copied
 * into the thread's arena. The daemon applies it on the thread that owns
 * the association (dpsctp_assoc_setopt()); the completion
 * (DPSCTP_CLIENT_OP_SETOPT) says 0 or that call's error (-EINVAL for a
 * value that does not fit those in force, -ENOENT for an address that is
 * not the peer's, -ENOTCONN, -EOPNOTSUPP), or -ENOENT for an association
 * that is not this application's. With @p assoc 0 the value is kept for
 * the application alone: associations it connects and accepts afterwards
 * start with it (not DPSCTP_OPT_PRIMARY_ADDR; DPSCTP_OPT_INITMSG's streams
 * for those it connects; those accepted offer the daemon's), those that
 * exist keep theirs, and other applications never see it.
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param assoc   the association, or 0: the application's defaults.
 * @param opt     the option, a DPSCTP_OPT_* (not _STATUS or _PEER_ADDR_INFO).
 * @param val     its struct.
 * @param len     sizeof that struct.
 * @param cookie  returned in the completion.
 * @param err     room for a one-line reason when refused here; may be NULL.
 * @param errlen  bytes at @p err.
 * @return 0 (posted), -EAGAIN (the ring or the arena is full), -EINVAL (a
 *         bad value or length: err says which; a thread out of range),
 *         -ENOPROTOOPT (not an option one sets; DPSCTP_OPT_PRIMARY_ADDR with
 *         assoc 0).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_setopt(struct dpsctp_client *c, unsigned t, uint64_t assoc,
					      int opt, const void *val, uint32_t len,
					      uint64_t cookie, char *err, size_t errlen);

/**
 * Read an option of an association (RFC 6458's getsockopt()), among them
 * DPSCTP_OPT_STATUS and DPSCTP_OPT_PEER_ADDR_INFO, or with @p assoc 0 the
 * application's default (what it set, else the daemon's). The completion
 * (DPSCTP_CLIENT_OP_GETOPT) carries the option's struct in data (len
 * bytes, valid until the next poll on the thread) with status 0, or says
 * -ENOENT (not this application's association, or no path with that
 * address), -ENOPROTOOPT (not an option of the defaults: PRIMARY_ADDR,
 * STATUS, PEER_ADDR_INFO with assoc 0).
 *
 * @param c       the attachment.
 * @param t       the thread.
 * @param assoc   the association, or 0: the application's defaults.
 * @param opt     the option, a DPSCTP_OPT_*.
 * @param in      the question, or NULL: the option's struct with its input
 *                fields set (DPSCTP_OPT_PEER_ADDR_INFO's and
 *                _PEER_ADDR_PARAMS' addr: the path; NULL or SCTP_ADDR_NONE:
 *                the primary path, or the association).
 * @param len     sizeof the option's struct (0 with @p in NULL).
 * @param cookie  returned in the completion.
 * @return 0 (posted), -EAGAIN (the ring or the arena is full), -EINVAL (a
 *         length that is not the option's, a thread out of range),
 *         -ENOPROTOOPT (not an option).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_getopt(struct dpsctp_client *c, unsigned t, uint64_t assoc,
					      int opt, const void *in, uint32_t len,
					      uint64_t cookie);

/**
 * Completions and events for a thread, completions first. Received data
 * stays valid until the next poll on the same thread.
 *
 * @param c    the attachment.
 * @param t    the thread.
 * @param ev   room for @p max of them.
 * @param max  entries at @p ev.
 * @return the number filled (0: nothing now), -EINVAL for a thread out of
 *         range, -EPROTO when the daemon wrote something malformed,
 *         -ECONNRESET when it has gone (seen within 1,024 empty polls, so
 *         that busy polling makes no system call; dpsctp_client_check() and
 *         dpsctp_client_wait() see it at once).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_poll(struct dpsctp_client *c, unsigned t,
					    struct dpsctp_client_event *ev, unsigned max);

/**
 * Block until a thread has something to poll. Busy-polling applications
 * never call it, and the daemon then never makes a system call to wake them.
 *
 * @param c           the attachment.
 * @param t           the thread.
 * @param timeout_ms  at most this long; -1: no limit.
 * @return 1 ready, 0 timed out (or a signal), -ECONNRESET the daemon went,
 *         -EINVAL for a thread out of range.
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_wait(struct dpsctp_client *c, unsigned t, int timeout_ms);

/**
 * Detach and free everything (the daemon aborts what is left of ours).
 *
 * @param c  the attachment; NULL is ignored.
 */
DPSCTP_CLIENT_EXPORT void dpsctp_client_detach(struct dpsctp_client *c);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_CLIENT_H */
