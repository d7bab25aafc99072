/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * dpsctp public API.
 *
 * Every exported symbol carries the dpsctp_ prefix (docs/ARCHITECTURE.md decision 9:
 * programs link usrsctp, which exports about 300 sctp_* symbols, beside us).
 * Everything else in libdpsctp is built with hidden visibility.
 *
 * The embedded API: an instance owns one DPDK port and runs N workers, one
 * rx/tx queue pair each; associations live on one worker for their whole
 * life (the one their verification tag names, docs/DEMUX.md). Callbacks
 * run on that worker and must not block. docs/API.md has the threading
 * rules, the ownership of mbufs and a walk-through; examples/embedded_hello.c
 * is the smallest complete program.
 *
 * Errors are negative errno values; each function lists the ones it
 * returns and what they mean for it:
 *   -EINVAL     an argument is out of its documented range
 *   -ENOENT     no such association, listener or worker
 *   -ENOTCONN   the association is not (or no longer) established
 *   -EAGAIN     no room now (send buffer, request ring): retry later, or
 *               wait for the on_space callback
 *   -EMSGSIZE   the message is larger than the send buffer can ever hold
 *   -ENOMEM     a pool is exhausted (associations, handshakes, mbufs)
 *   -EEXIST     already done (a listener on that port, a started instance)
 *   -EBUSY      not allowed while the instance runs (or before it starts),
 *               or while messages are queued (dpsctp_set_sched())
 *   -ENODEV     the port could not be opened (the error text says why)
 *   -EADDRINUSE no free local port towards that peer (connect)
 */
#ifndef DPSCTP_H
#define DPSCTP_H

#include <stddef.h>
#include <stdint.h>

#include "dpsctp_opt.h"
#include "sctp/addr.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DPSCTP_EXPORT __attribute__((visibility("default")))

/**
 * The library version as "MAJOR.MINOR.PATCH".
 *
 * @return a static string; never NULL.
 */
DPSCTP_EXPORT const char *dpsctp_version(void);

/**
 * CRC32c (Castagnoli) of a byte span, with the engine the library chose for
 * this CPU and span length (inline SSE4.2 for short spans, ISA-L for long
 * ones, a table otherwise).
 *
 * @param crc  the CRC of the bytes before @p buf, or 0 to start.
 * @param buf  the bytes; may be NULL when @p len is 0.
 * @param len  number of bytes.
 * @return the CRC32c of everything so far (final XOR applied), so that
 *         dpsctp_crc32c(dpsctp_crc32c(0, a, n), b, m) is the CRC of a then b.
 */
DPSCTP_EXPORT uint32_t dpsctp_crc32c(uint32_t crc, const void *buf, size_t len);

/**
 * The CRC32c policy in force on this CPU: "<short-span engine>+<long-span
 * engine>", e.g. "sse42+isal", or one name when one engine does everything
 * ("table" on a CPU without SSE4.2 in a build without ISA-L).
 *
 * @return a static string; never NULL.
 */
DPSCTP_EXPORT const char *dpsctp_crc32c_engine(void);

/* ------------------------------------------------------------------------
 * The embedded data plane. Needs DPDK: declared always, defined in
 * libdpsctp when it was built with DPDK. An instance is made from a
 * configuration (<dpsctp/config.h>: dpsctp_config_defaults(), then
 * dpsctp_config_parse_args() or dpsctp_config_set()).
 */

struct rte_mbuf;
struct rte_mempool;
struct dpsctp;
struct dpsctp_assoc;
struct dpsctp_config;

/** One slice of a received message: bytes inside a received mbuf. */
struct dpsctp_seg {
	struct rte_mbuf *m;  /**< the packet the bytes arrived in (not the bytes' start) */
	const uint8_t *data; /**< first byte of the slice */
	uint32_t len;	     /**< bytes in the slice */
};

/** dpsctp_msg.flags */
#define DPSCTP_MSG_UNORDERED 0x01u /**< sent unordered (U bit) */
#define DPSCTP_MSG_MORE	     0x02u /**< partial delivery: more of this message follows */
#define DPSCTP_MSG_CONT	     0x04u /**< continues a message whose start was delivered */
/**
 * The end of a message delivered in parts that will never be whole: the
 * sender abandoned it (PR-SCTP, RFC 3758 §3.6). No bytes; the parts before
 * it are not a message.
 */
#define DPSCTP_MSG_ABORTED 0x08u

/**
 * A received message as its receive callback sees it: the payload is the
 * concatenation of segs[0 .. nsegs-1], slices of the received mbufs (no
 * copy). The slices stay valid until the callback returns; to keep them
 * longer without copying call dpsctp_msg_to_mbuf().
 */
struct dpsctp_msg {
	uint16_t sid;	/**< stream */
	uint16_t ssn;	/**< stream sequence number (ordered messages) */
	uint32_t ppid;	/**< payload protocol identifier: the number the peer sent (host order) */
	uint32_t len;	/**< payload bytes in this delivery */
	uint32_t flags; /**< DPSCTP_MSG_* */
	uint32_t nsegs; /**< entries of segs */
	/**
	 * The message's identifier: with I-DATA (RFC 8260) its MID (ssn is
	 * then its low 16 bits), with DATA the SSN again. Partial deliveries
	 * (DPSCTP_MSG_MORE / _CONT) of several messages may then interleave
	 * (RFC 6458 SCTP_FRAGMENT_INTERLEAVE level 2): the pieces of one
	 * message share (sid, DPSCTP_MSG_UNORDERED, mid).
	 */
	uint32_t mid;
	const struct dpsctp_seg *segs;
};

/** dpsctp_sndinfo.flags */
#define DPSCTP_SEND_UNORDERED 0x01u /**< deliver on arrival, no stream order (U bit) */
#define DPSCTP_SEND_SACK_NOW  0x02u /**< ask the peer to SACK at once (I bit, RFC 7053) */
/**
 * More messages follow at once (like MSG_MORE): queue this one without
 * sending, so a burst of small messages leaves bundled. The caller sends
 * one without the flag, or calls dpsctp_flush(), before returning to the
 * loop; the worker also flushes at its next input or timer.
 */
#define DPSCTP_SEND_MORE 0x04u

/**
 * dpsctp_sndinfo.pr_policy: PR-SCTP (RFC 3758, RFC 7496) policies, the
 * numbers of the RFC 6458/7496 socket API's SCTP_PR_SCTP_NONE, _TTL, _RTX
 * and _PRIO. A message with a policy other than NONE may be abandoned: its
 * chunks are no longer retransmitted, the peer is told with a FORWARD TSN
 * and the application with DPSCTP_EV_SEND_FAILED (pr_policy set). With a
 * peer that did not negotiate PR-SCTP (dpsctp_assoc_stats.extensions
 * without DPSCTP_EXT_PR_SCTP), or an instance configured without it, the
 * message is sent reliably.
 */
#define DPSCTP_PR_NONE 0u /**< reliable; pr_value is ignored */
#define DPSCTP_PR_TTL  1u /**< abandoned pr_value ms after the send call (1 or more) */
#define DPSCTP_PR_RTX  2u /**< abandoned after pr_value retransmissions (0: sent once) */
#define DPSCTP_PR_PRIO 3u /**< priority pr_value, 0 highest: lower ones make room when full */

/** How to send one message. */
struct dpsctp_sndinfo {
	uint16_t sid;	    /**< stream, below the association's outbound streams */
	uint32_t ppid;	    /**< payload protocol identifier, a number (host order: 60 is NGAP) */
	uint32_t flags;	    /**< DPSCTP_SEND_* */
	uint32_t pr_policy; /**< DPSCTP_PR_NONE, _TTL, _RTX, _PRIO */
	uint32_t pr_value; /**< TTL: lifetime in ms; RTX: retransmissions allowed; PRIO: priority, 0
			      highest */
	uint32_t context;  /**< the application's value for the message (RFC 6458 snd_context) */
};

/**
 * SCTP extensions (dpsctp_config.extensions: offered to and accepted from
 * peers; dpsctp_assoc_stats.extensions: negotiated with this peer). The
 * bits are the core's SCTP_COOKIE_EXT_* values.
 */
#define DPSCTP_EXT_PR_SCTP 0x02u /**< PR-SCTP, RFC 3758 (FORWARD TSN) with RFC 7496 policies */
/**
 * I-DATA, RFC 8260 §2: messages carry a 32-bit message identifier and
 * their fragments a sequence number, so the sender interleaves the
 * fragments of messages of different streams (a small message need not
 * wait behind a large one) and the receiver delivers several messages in
 * parts at once. With PR-SCTP too, I-FORWARD-TSN replaces FORWARD TSN.
 */
#define DPSCTP_EXT_I_DATA 0x04u
/**
 * Stream reconfiguration, RFC 6525 (RE-CONFIG): resetting streams' numbering
 * and adding streams on a live association (dpsctp_reset_streams(),
 * dpsctp_add_streams(), dpsctp_reset_assoc(); the sidecar's
 * dpsctp_client_reset_streams() and the others). Offered by default; a peer
 * that does not list it is unaffected (the calls say -EOPNOTSUPP).
 */
#define DPSCTP_EXT_RECONFIG 0x08u

/**
 * Stream schedulers (RFC 8260 §3): how an association's send queue picks
 * the stream whose data goes next (dpsctp_config.sched for every
 * association, dpsctp_set_sched() for one). With DATA a scheduler can
 * switch streams only between messages, with I-DATA (DPSCTP_EXT_I_DATA
 * negotiated) between chunks. The numbers are ours, not Linux's
 * (SCTP_SS_FCFS 0, SCTP_SS_PRIO 1, SCTP_SS_RR 2, ...).
 */
#define DPSCTP_SCHED_RR	    0u /**< round robin over the streams with data, §3.2 (default) */
#define DPSCTP_SCHED_FCFS   1u /**< first come, first served: the order of the send calls, §3.1 */
#define DPSCTP_SCHED_RR_PKT 2u /**< round robin, one stream per packet, §3.3 */
#define DPSCTP_SCHED_PRIO   3u /**< strict priority, lower value first, §3.4 */
#define DPSCTP_SCHED_FC	    4u /**< fair capacity: equal bytes per stream, §3.5 */
#define DPSCTP_SCHED_WFQ    5u /**< weighted fair queueing: bytes in proportion to weights, §3.6 */

/** Event types (RFC 6458 names where one exists). */
enum dpsctp_event_type {
	DPSCTP_EV_COMM_UP = 1,	     /**< established; the handle may send */
	DPSCTP_EV_COMM_LOST,	     /**< ended abnormally; the handle dies after the callback */
	DPSCTP_EV_SHUTDOWN_COMPLETE, /**< closed gracefully; the handle dies after the callback */
	DPSCTP_EV_CANT_START,	    /**< the handshake failed; the handle dies after the callback */
	DPSCTP_EV_RESTART,	    /**< the peer restarted: new TSNs, queues kept */
	DPSCTP_EV_PEER_ADDR_CHANGE, /**< a path changed state (addr, addr_state) */
	DPSCTP_EV_REMOTE_ERROR,	    /**< the peer sent an ERROR chunk (error) */
	DPSCTP_EV_SEND_FAILED,	    /**< a message was not (wholly) acknowledged at close */
	DPSCTP_EV_STREAM_RESET,	    /**< RFC 6525: streams reset (reset_flags, streams) */
	DPSCTP_EV_ASSOC_RESET,	    /**< RFC 6525: SSNs and TSNs reset (local_tsn, remote_tsn) */
	DPSCTP_EV_STREAM_CHANGE,    /**< RFC 6525: streams added (inbound/outbound_streams) */
	DPSCTP_EV_PATH_MTU,	    /**< a path's MTU changed (addr, mtu; docs/PMTU.md) */
};

/** dpsctp_event.reset_flags (RFC 6525 §6.1, the socket API's values). */
#define DPSCTP_RESET_INCOMING_SSN 0x01u /**< the peer's outgoing streams, our incoming ones */
#define DPSCTP_RESET_OUTGOING_SSN 0x02u /**< our outgoing streams */
#define DPSCTP_RESET_DENIED	  0x04u /**< the peer refused the request */
#define DPSCTP_RESET_FAILED	  0x08u /**< the request failed */

/** dpsctp_reset_streams() flags. */
#define DPSCTP_RESET_INCOMING 0x01u /**< ask the peer to reset its outgoing streams */
#define DPSCTP_RESET_OUTGOING 0x02u /**< reset our outgoing streams */

/**
 * dpsctp_event.reason: why an association ended or never started (with
 * `error`, the first cause code of the peer's ABORT, when there was one).
 * A CANT_START of a peer that refused (PEER_ABORT, e.g. no listener on
 * that port) and of a peer that never answered (T1_INIT) differ here.
 */
enum dpsctp_reason {
	DPSCTP_REASON_NONE = 0,		/**< COMM_UP, RESTART and the other events */
	DPSCTP_REASON_PEER_ABORT,	/**< the peer sent an ABORT (its first cause in error) */
	DPSCTP_REASON_USER_ABORT,	/**< dpsctp_abort() */
	DPSCTP_REASON_SHUTDOWN,		/**< a graceful close (SHUTDOWN_COMPLETE) */
	DPSCTP_REASON_T1_INIT,		/**< no answer to the INIT, Max.Init.Retransmits times */
	DPSCTP_REASON_T1_COOKIE,	/**< no answer to the COOKIE ECHO, as many times */
	DPSCTP_REASON_STALE_COOKIE,	/**< the peer kept finding our cookie stale */
	DPSCTP_REASON_INIT_ACK_INVALID, /**< the peer's INIT ACK was refused (RFC 9260 §5.1.2) */
	DPSCTP_REASON_T2_SHUTDOWN,	/**< no answer to SHUTDOWN (ACK), Association.Max.Retrans */
	DPSCTP_REASON_T5_GUARD,		/**< the shutdown took longer than 5 x RTO.Max */
	DPSCTP_REASON_PATHS_FAILED,	/**< every path failed (RFC 9260 §8.1) */
	DPSCTP_REASON_NO_MEMORY,	/**< no memory here for its data path: ABORT sent */
	DPSCTP_REASON_PROTOCOL,		/**< the peer broke the protocol: ABORT sent */
};

/**
 * dpsctp_event.addr_state: what a PEER_ADDR_CHANGE says happened to the
 * path (RFC 6458 §6.1.2 spc_state, the same numbers).
 */
enum dpsctp_addr_state {
	DPSCTP_ADDR_AVAILABLE = 1,	/**< active again (RFC 9260 §8.2, §8.3) */
	DPSCTP_ADDR_UNREACHABLE,	/**< inactive: errors above Path.Max.Retrans */
	DPSCTP_ADDR_POTENTIALLY_FAILED, /**< RFC 7829: probed, no data while another path works */
	DPSCTP_ADDR_CONFIRMED,		/**< our heartbeat came back (RFC 9260 §5.4) */
	DPSCTP_ADDR_MADE_PRIMARY,	/**< the primary path is now this address */
};

/** dpsctp_assoc_stats.state: the association's state (RFC 9260 §4). */
enum dpsctp_assoc_state {
	DPSCTP_ASSOC_CLOSED = 0,
	DPSCTP_ASSOC_COOKIE_WAIT,
	DPSCTP_ASSOC_COOKIE_ECHOED,
	DPSCTP_ASSOC_ESTABLISHED,
	DPSCTP_ASSOC_SHUTDOWN_PENDING,
	DPSCTP_ASSOC_SHUTDOWN_SENT,
	DPSCTP_ASSOC_SHUTDOWN_RECEIVED,
	DPSCTP_ASSOC_SHUTDOWN_ACK_SENT,
};

/** dpsctp_path_stats.state: a path's state (RFC 9260 §8.2, RFC 7829). */
enum dpsctp_path_state {
	DPSCTP_PATH_ACTIVE = 0,		/**< usable */
	DPSCTP_PATH_POTENTIALLY_FAILED, /**< RFC 7829: probed; no data while another is active */
	DPSCTP_PATH_INACTIVE,		/**< errors above Path.Max.Retrans */
};

/** An event on an association. */
struct dpsctp_event {
	enum dpsctp_event_type type;
	uint16_t error;		   /**< first cause code of an ABORT or ERROR, else 0 */
	uint16_t reason;	   /**< why it ended or never started: enum dpsctp_reason */
	uint16_t outbound_streams; /**< COMM_UP, RESTART */
	uint16_t inbound_streams;  /**< COMM_UP, RESTART */
	uint8_t addr_state;	   /**< PEER_ADDR_CHANGE: enum dpsctp_addr_state, else 0 */
	/** PEER_ADDR_CHANGE: the path's address; every other event: the peer's primary */
	struct sctp_addr addr;
	uint16_t sid;	     /**< SEND_FAILED */
	uint32_t ppid;	     /**< SEND_FAILED */
	uint32_t length;     /**< SEND_FAILED: message bytes */
	int sent;	     /**< SEND_FAILED: some of it went on the wire */
	uint32_t pr_policy;  /**< SEND_FAILED: the PR-SCTP policy that abandoned the message, 0 when
				the association closed */
	uint32_t context;    /**< SEND_FAILED: the message's dpsctp_sndinfo.context */
	uint16_t local_port; /**< every event: our SCTP port */
	uint16_t peer_port;  /**< every event: the peer's SCTP port */
	uint32_t reset_flags;	 /**< STREAM_RESET, ASSOC_RESET, STREAM_CHANGE: DPSCTP_RESET_* */
	uint16_t n_streams;	 /**< STREAM_RESET: entries of streams; 0: every stream */
	const uint16_t *streams; /**< STREAM_RESET: the streams, valid during the callback */
	uint32_t local_tsn;	 /**< ASSOC_RESET: our next TSN */
	uint32_t remote_tsn;	 /**< ASSOC_RESET: the peer's next TSN */
	uint16_t mtu;		 /**< PATH_MTU: the path's new MTU, IP header included */
};

/** Receive callback: one message (or a partial delivery of one). */
typedef void (*dpsctp_recv_cb)(struct dpsctp_assoc *a, const struct dpsctp_msg *m, void *arg);

/**
 * What an application hears from its associations. Every member may be
 * NULL. All run on the association's worker, inside dpsctp_poll() or the
 * started loop; they may call the association's API (send, shutdown, abort)
 * directly and must not block.
 */
struct dpsctp_callbacks {
	dpsctp_recv_cb on_recv; /**< messages, unless a per-stream handler takes them */
	/** Association events; after COMM_LOST, SHUTDOWN_COMPLETE and CANT_START the handle is
	 * gone. */
	void (*on_event)(struct dpsctp_assoc *a, const struct dpsctp_event *ev, void *arg);
	/** The send buffer has at least the threshold free (dpsctp_set_send_space()). */
	void (*on_space)(struct dpsctp_assoc *a, uint32_t free_bytes, void *arg);
};

/** Per-association statistics (dpsctp_assoc_get_stats()). */
struct dpsctp_assoc_stats {
	uint64_t msgs_sent, bytes_sent;		  /**< accepted by send */
	uint64_t msgs_recv, bytes_recv;		  /**< handed to receive callbacks */
	uint64_t data_chunks_out;		  /**< DATA chunks sent for the first time */
	uint64_t data_chunks_rtx;		  /**< DATA chunks retransmitted */
	uint64_t data_chunks_in;		  /**< DATA chunks taken */
	uint64_t data_dups_in;			  /**< duplicate DATA chunks received */
	uint64_t sacks_out, sacks_in;		  /**< SACK chunks sent and accepted */
	uint64_t t3_expiries;			  /**< retransmission timeouts */
	uint64_t fast_retransmits;		  /**< fast retransmit events */
	uint32_t state;				  /**< enum dpsctp_assoc_state */
	uint32_t peer_rwnd;			  /**< the peer's window as we last saw it */
	uint32_t send_queued;			  /**< bytes queued, not yet sent */
	uint32_t paths;				  /**< peer addresses known */
	uint32_t extensions;			  /**< DPSCTP_EXT_* negotiated with the peer */
	uint64_t abandoned_msgs, abandoned_bytes; /**< PR-SCTP: messages abandoned (all policies) */
	uint64_t fwd_tsn_out, fwd_tsn_in; /**< PR-SCTP: FORWARD TSN chunks sent, and received that
					     moved our cumulative TSN */
	uint64_t reconf_requests;      /**< RE-CONFIG: our request parameters sent (not resends) */
	uint64_t reconf_rtx;	       /**< RE-CONFIG: our requests sent again by their timer */
	uint64_t reconf_peer_requests; /**< RE-CONFIG: the peer's request parameters answered */
	uint64_t reconf_denied;	       /**< RE-CONFIG: of those, answered other than success */
	uint64_t reconf_malformed;     /**< RE-CONFIG: chunks refused as malformed */
	/** Of t3_expiries, episodes shown spurious (a stall, not a loss) by the peer's duplicate
	    TSNs or by F-RTO: cwnd and RTO put back (docs/CC.md, "Spurious timeouts") */
	uint64_t t3_spurious;
	/** DATA chunks a spurious T3-rtx expiry marked that F-RTO found still in flight and did
	    not send again (docs/CC.md, "F-RTO") */
	uint64_t t3_rtx_saved;
	/** HEARTBEAT chunks sent: idle-path heartbeats (RFC 9260 §8.3, held to --hb-rate) and
	    probes of unconfirmed and potentially-failed paths */
	uint64_t heartbeats_out;
};

/** Per-path statistics (dpsctp_path_get_stats()). */
struct dpsctp_path_stats {
	struct sctp_addr addr; /**< the peer address */
	uint32_t state;	       /**< enum dpsctp_path_state */
	uint32_t srtt_us;      /**< smoothed RTT, 0 before the first sample */
	uint32_t rto_us;       /**< current RTO */
	uint32_t cwnd;	       /**< congestion window, bytes */
	uint32_t ssthresh;     /**< slow-start threshold, bytes */
	uint32_t flight;       /**< bytes outstanding on this path */
	int primary;	       /**< 1 for the primary path */
	uint32_t mtu;	       /**< path MTU, IP header included (docs/PMTU.md) */
};

/**
 * Start DPDK: rte_eal_init() on the EAL part of argv (everything before
 * "--"), once per process.
 *
 * @param argc  arguments in @p argv.
 * @param argv  the program's arguments, argv[0] its name (as main() has them).
 * @return the number of arguments consumed (as rte_eal_init()), or
 *         -ENODEV when the EAL refused to start (its log says why).
 */
DPSCTP_EXPORT int dpsctp_eal_init(int argc, char **argv);

/**
 * Create an instance from a configuration (<dpsctp/config.h>): open the
 * port, set up one worker per queue pair with its pools, tables and timer
 * wheel. Nothing runs until dpsctp_start() or dpsctp_poll(). Without
 * hugepages the EAL has exactly its -m: a pool sized from the limits
 * (--mbufs 0) is cut to what is free once the tables are made, with one
 * line on stderr naming the -m that would hold it whole; when even the
 * port's rings do not fit, or a --mbufs does not, err names the -m needed.
 *
 * @param cfg     the configuration; copied.
 * @param err     room for a one-line reason on failure; may be NULL.
 * @param errlen  bytes at @p err.
 * @return the instance, or NULL with @p err filled (bad configuration, the
 *         port would not open, memory for the pools).
 */
DPSCTP_EXPORT struct dpsctp *dpsctp_create(const struct dpsctp_config *cfg, char *err,
					   size_t errlen);

/**
 * dpsctp_create() with the application's packet buffer pool instead of one
 * the instance makes: every received packet, and every mbuf the instance
 * allocates, comes from @p pool. For memory the application shares (dpsctpd
 * puts the pool on a memfd its applications map read-only: zero-copy
 * receive). The pool must hold mbufs with a data room of at least an
 * MTU-sized frame, enough for every ring and window (docs/CONFIG.md,
 * --mbufs); it stays the caller's (dpsctp_destroy() does not free it).
 *
 * @param cfg     the configuration; copied.
 * @param pool    the packet buffer pool.
 * @param err     room for a one-line reason on failure; may be NULL.
 * @param errlen  bytes at @p err.
 * @return the instance, or NULL with @p err filled (as dpsctp_create(), and
 *         for a NULL pool).
 */
DPSCTP_EXPORT struct dpsctp *dpsctp_create_with_pool(const struct dpsctp_config *cfg,
						     struct rte_mempool *pool, char *err,
						     size_t errlen);

/**
 * Run worker i on the calling thread for one loop iteration: receive a
 * burst, process it, fire timers, transmit. The caller owns the worker for
 * the call (never two threads on one worker; not on a started instance).
 *
 * @param d       the instance.
 * @param worker  the worker, 0 .. dpsctp_workers() - 1.
 * @return the packets and timers handled (0 when idle), or -EINVAL for a
 *         bad worker index, -EBUSY when the instance is started.
 */
DPSCTP_EXPORT int dpsctp_poll(struct dpsctp *d, unsigned worker);

/**
 * Launch every worker on its own EAL worker lcore (dpsctp_workers() of
 * them are needed) running the loop until dpsctp_stop().
 *
 * @param d  the instance.
 * @return 0, -EEXIST when already started, -EBUSY when not enough idle
 *         worker lcores exist.
 */
DPSCTP_EXPORT int dpsctp_start(struct dpsctp *d);

/**
 * Close every association and stop: SHUTDOWN to each (ABORT to those still
 * in their handshake), up to timeout_ms for the shutdowns to complete, ABORT
 * to the rest; then stop the loops and wait for them. Callbacks run during
 * the wait. May be called from any thread but a worker's.
 *
 * @param d           the instance.
 * @param timeout_ms  how long the graceful shutdowns may take.
 * @return the number of associations that had to be aborted (0 is a clean
 *         stop); never an error.
 */
DPSCTP_EXPORT int dpsctp_stop(struct dpsctp *d, unsigned timeout_ms);

/**
 * Stop (if needed, with a 1 s timeout), free every resource, close the port.
 *
 * @param d  the instance; NULL is ignored.
 */
DPSCTP_EXPORT void dpsctp_destroy(struct dpsctp *d);

/**
 * Workers (queue pairs) of the instance.
 *
 * @param d  the instance.
 * @return the number of workers, 1 or more.
 */
DPSCTP_EXPORT unsigned dpsctp_workers(const struct dpsctp *d);

/**
 * Accept associations on an SCTP port (on every worker). Accepted
 * associations announce themselves with DPSCTP_EV_COMM_UP through cb with
 * arg; change them per association with dpsctp_assoc_set_callbacks().
 * A port set with --sctp-port listens from the start without callbacks:
 * the first dpsctp_listen() on it gives it its callbacks. Call it on the
 * thread that polls an instance that is not started (dpsctp_poll()), or
 * before dpsctp_start().
 *
 * @param d     the instance.
 * @param port  the SCTP port, not 0.
 * @param cb    the accepted associations' callbacks, kept by reference
 *              (they must outlive them); NULL for none.
 * @param arg   what the callbacks receive.
 * @return 0, -EEXIST for a port already listened on, -ENOMEM when
 *         --listeners ports listen already (or no memory for the port's
 *         cookie key), -EBUSY when the instance is started and the port is
 *         new, -EINVAL for port 0.
 */
DPSCTP_EXPORT int dpsctp_listen(struct dpsctp *d, uint16_t port, const struct dpsctp_callbacks *cb,
				void *arg);

/**
 * Stop accepting associations on a port: an INIT to it is answered with
 * ABORT from now on, as on any port nobody listens on, and its slot of
 * --listeners is free for another port. Associations it accepted before
 * live on with their callbacks (a TCP listening socket's close does not
 * close the connections it accepted). Same thread rule as dpsctp_listen().
 *
 * @param d     the instance.
 * @param port  the SCTP port.
 * @return 0, -ENOENT when nobody listens on @p port, -EBUSY when the
 *         instance is started, -EINVAL for port 0.
 */
DPSCTP_EXPORT int dpsctp_unlisten(struct dpsctp *d, uint16_t port);

/**
 * Start an association to a peer with one or more addresses (RFC 9260
 * §5.1, multi-homed when n_peers > 1), owned by worker `worker`. Returns
 * at once; DPSCTP_EV_COMM_UP or DPSCTP_EV_CANT_START follows on the worker.
 * From another thread than the worker's, the request travels through the
 * worker's request ring.
 *
 * @param d           the instance.
 * @param worker      the worker that will own the association.
 * @param peers       the peer's addresses, the first the primary; copied.
 * @param n_peers     entries of @p peers, 1 .. --max-paths.
 * @param peer_port   the peer's SCTP port, not 0.
 * @param local_port  our SCTP port; 0: the worker picks a free one in its own
 *                    slice of the dynamic range 49152-65535 (the range split
 *                    evenly between the workers).
 * @param cb          the association's callbacks (must outlive it); NULL for none.
 * @param arg         what the callbacks receive.
 * @param rc          set on failure; may be NULL.
 * @return the association handle, or NULL with *rc set: -EINVAL (no peer,
 *         bad worker, port 0), -ENOMEM (no association or handshake block),
 *         -EAGAIN (request ring full), -EADDRINUSE (local_port 0 and every
 *         port of the worker's slice already used towards that peer; or
 *         another association of the worker has local_port towards the
 *         first peer address and port).
 */
DPSCTP_EXPORT struct dpsctp_assoc *dpsctp_connect(struct dpsctp *d, unsigned worker,
						  const struct sctp_addr *peers, unsigned n_peers,
						  uint16_t peer_port, uint16_t local_port,
						  const struct dpsctp_callbacks *cb, void *arg,
						  int *rc);

/**
 * dpsctp_connect() with the INIT's streams and retries for this
 * association (RFC 6458 SCTP_INITMSG on a socket before connect()): the
 * fields of @p init not 0 replace the instance's (dpsctp_setopt()) for it.
 * Streams beyond --max-streams are refused (-EINVAL): the per-association
 * block holds that many.
 *
 * @param d           the instance.
 * @param worker      the worker that will own the association.
 * @param peers       the peer's addresses, the first the primary; copied.
 * @param n_peers     entries of @p peers, 1 .. --max-paths.
 * @param peer_port   the peer's SCTP port, not 0.
 * @param local_port  our SCTP port; 0: the worker picks one (as dpsctp_connect()).
 * @param init        the streams and retries; NULL: the instance's (as dpsctp_connect()).
 * @param cb          the association's callbacks (must outlive it); NULL for none.
 * @param arg         what the callbacks receive.
 * @param rc          set on failure; may be NULL.
 * @return as dpsctp_connect(), and NULL with -EINVAL in *rc for an @p init
 *         that dpsctp_opt_check() refuses or that asks for more streams
 *         than --max-streams.
 */
DPSCTP_EXPORT struct dpsctp_assoc *
dpsctp_connect_opts(struct dpsctp *d, unsigned worker, const struct sctp_addr *peers,
		    unsigned n_peers, uint16_t peer_port, uint16_t local_port,
		    const struct dpsctp_initmsg *init, const struct dpsctp_callbacks *cb, void *arg,
		    int *rc);

/**
 * Send one message from an mbuf (a chain is one message). Zero copy: the
 * segments are referenced until acknowledged; payloads at or below the
 * configured copy threshold are copied into the packet being bundled. On
 * success the mbuf belongs to the library; on error it stays the caller's.
 * From another thread than the owner's the request is queued and the
 * result of the send itself is not reported (count refusals in
 * statistics).
 *
 * @param a   the association.
 * @param si  stream, payload protocol identifier and flags; NULL: the
 *            association's DPSCTP_OPT_DEFAULT_SNDINFO.
 * @param m   the message, an mbuf chain of the instance's pool or one like it.
 * @return 0, -ENOTCONN (not established or closing), -EINVAL (stream out of
 *         range, empty message, pr_policy above DPSCTP_PR_PRIO, a
 *         DPSCTP_PR_TTL of 0 ms), -EAGAIN (send buffer full: wait for
 *         on_space), -EMSGSIZE (larger than the send buffer).
 */
DPSCTP_EXPORT int dpsctp_send(struct dpsctp_assoc *a, const struct dpsctp_sndinfo *si,
			      struct rte_mbuf *m);

/**
 * Send one message from bytes: copied once into mbufs of the instance's
 * pool, then as dpsctp_send().
 *
 * @param a    the association.
 * @param si   stream, payload protocol identifier and flags.
 * @param buf  the message.
 * @param len  its bytes, 1 or more.
 * @return as dpsctp_send(), and -ENOMEM when no mbuf is free.
 */
DPSCTP_EXPORT int dpsctp_send_bytes(struct dpsctp_assoc *a, const struct dpsctp_sndinfo *si,
				    const void *buf, size_t len);

/**
 * Send what DPSCTP_SEND_MORE left queued, as far as the windows allow.
 *
 * @param a  the association.
 * @return 0, -ENOTCONN before the association is established.
 */
DPSCTP_EXPORT int dpsctp_flush(struct dpsctp_assoc *a);

/**
 * Graceful close (RFC 9260 §9.2): queued data is sent, then SHUTDOWN.
 * DPSCTP_EV_SHUTDOWN_COMPLETE (or COMM_LOST) follows.
 *
 * @param a  the association.
 * @return 0, -ENOTCONN when already closing or closed.
 */
DPSCTP_EXPORT int dpsctp_shutdown(struct dpsctp_assoc *a);

/**
 * Abort (RFC 9260 §9.1): ABORT sent, queued data dropped with SEND_FAILED
 * events; COMM_LOST follows. From inside one of the association's own
 * callbacks it takes effect when the core is done with the packet or timer
 * that called back (as dpsctp_shutdown() then).
 *
 * @param a  the association.
 * @return 0, -ENOTCONN when already closed.
 */
DPSCTP_EXPORT int dpsctp_abort(struct dpsctp_assoc *a);

/**
 * Receive flow control by the application (what dpsctpd does for the
 * applications it serves): with it on, bytes handed to a receive callback
 * keep counting against the association's receive window (RFC 9260 §6.2,
 * the receive buffer) until dpsctp_consumed() gives them back, so a slow
 * reader closes the window and the peer waits, instead of the data plane
 * holding what the window no longer sees. Off (the default), the window
 * counts only what reassembly holds. Before dpsctp_start() and before any
 * association exists.
 *
 * @param d   the instance.
 * @param on  1 to turn it on, 0 off.
 * @return 0, -EBUSY when started or associations exist, -EINVAL for NULL.
 */
DPSCTP_EXPORT int dpsctp_rx_flow_control(struct dpsctp *d, int on);

/**
 * The application is done with @p bytes of what its receive callback was
 * given (with dpsctp_rx_flow_control() on): the window reopens by that
 * much, and a SACK says so at once when it grew by a packet or half the
 * buffer (receiver silly-window avoidance).
 *
 * @param a      the association.
 * @param bytes  payload bytes given back.
 * @return 0, -EINVAL without flow control on or for NULL, -ENOTCONN when
 *         the association no longer receives, -EAGAIN (request ring full,
 *         from another thread).
 */
DPSCTP_EXPORT int dpsctp_consumed(struct dpsctp_assoc *a, uint32_t bytes);

/**
 * Replace an association's callbacks and argument (on its worker).
 *
 * @param a    the association.
 * @param cb   the new callbacks (must outlive the association); NULL for none.
 * @param arg  what they receive.
 */
DPSCTP_EXPORT void dpsctp_assoc_set_callbacks(struct dpsctp_assoc *a,
					      const struct dpsctp_callbacks *cb, void *arg);

/**
 * The argument the callbacks receive.
 *
 * @param a  the association.
 * @return the arg of dpsctp_connect(), dpsctp_listen() or
 *         dpsctp_assoc_set_callbacks(), last set.
 */
DPSCTP_EXPORT void *dpsctp_assoc_arg(const struct dpsctp_assoc *a);

/**
 * Per-stream receive handlers: messages on stream s < n go to
 * handlers[s].recv when it is not NULL, else to on_recv. The arrays stay
 * the caller's and must outlive the association (or be replaced).
 *
 * @param a     the association.
 * @param recv  @p n handlers, one per stream (NULL entries: on_recv); NULL: none.
 * @param args  @p n arguments for them; NULL: the association's own.
 * @param n     entries of the arrays.
 * @return 0, -EINVAL when n is 0 with a non-NULL array.
 */
DPSCTP_EXPORT int dpsctp_assoc_set_stream_handlers(struct dpsctp_assoc *a,
						   const dpsctp_recv_cb *recv, void *const *args,
						   uint16_t n);

/**
 * Ask for on_space once at least threshold bytes of the send buffer are
 * free after a send was refused with -EAGAIN.
 *
 * @param a          the association.
 * @param threshold  free bytes; 0: the default, a quarter of the send buffer.
 */
DPSCTP_EXPORT void dpsctp_set_send_space(struct dpsctp_assoc *a, uint32_t threshold);

/**
 * Change the association's stream scheduler (RFC 8260 §3; RFC 6458's
 * SCTP_STREAM_SCHEDULER socket option as RFC 8260 §4.3.2 defines it).
 * Every association starts with the instance's (--sched, dpsctp_config.sched).
 * The schedulers keep different state over the queue, so the change is
 * refused while messages wait in it: set it at COMM_UP, or once the send
 * queue is empty (dpsctp_assoc_stats.send_queued 0). From another thread
 * than the owner's the request is queued and its result not reported
 * (dpsctp_sched() tells what took effect).
 *
 * @param a      the association.
 * @param sched  DPSCTP_SCHED_RR, _FCFS, _RR_PKT, _PRIO, _FC or _WFQ.
 * @return 0, -EINVAL (not a scheduler), -EBUSY (messages are queued),
 *         -ENOTCONN (not established yet, or closed), -EAGAIN (request
 *         ring full, from another thread).
 */
DPSCTP_EXPORT int dpsctp_set_sched(struct dpsctp_assoc *a, unsigned sched);

/**
 * The association's stream scheduler. Any thread may ask, as for the
 * statistics: the answer is what the owner last set.
 *
 * @param a  the association.
 * @return DPSCTP_SCHED_RR .. DPSCTP_SCHED_WFQ, -ENOTCONN (not established
 *         yet, or closed), -EINVAL for NULL.
 */
DPSCTP_EXPORT int dpsctp_sched(const struct dpsctp_assoc *a);

/**
 * Set an outbound stream's scheduling parameter (RFC 6458's
 * SCTP_STREAM_SCHEDULER_VALUE, RFC 8260 §4.3.3): its priority under
 * DPSCTP_SCHED_PRIO (lower goes first; 0, the highest, is every stream's
 * default) or its weight under DPSCTP_SCHED_WFQ (0 refused there; the
 * default 0 counts as 1). The other schedulers keep the value without
 * using it; it stays with the stream across dpsctp_set_sched(). Allowed
 * while messages are queued: it applies from the next chunk. Same thread
 * rules as dpsctp_set_sched().
 *
 * @param a      the association.
 * @param sid    the stream, below the association's outbound streams.
 * @param value  the priority or weight.
 * @return 0, -EINVAL (stream out of range, a weight of 0 under
 *         DPSCTP_SCHED_WFQ), -ENOTCONN (not established yet, or closed),
 *         -EAGAIN (request ring full, from another thread).
 */
DPSCTP_EXPORT int dpsctp_set_stream_param(struct dpsctp_assoc *a, uint16_t sid, uint16_t value);

/**
 * An outbound stream's scheduling parameter (see dpsctp_set_stream_param()).
 * Any thread may ask, as for dpsctp_sched().
 *
 * @param a    the association.
 * @param sid  the stream.
 * @return the value (0 .. 65535), -EINVAL (stream out of range, or NULL),
 *         -ENOTCONN (not established yet, or closed).
 */
DPSCTP_EXPORT int dpsctp_stream_param(const struct dpsctp_assoc *a, uint16_t sid);

/**
 * Reset the numbering of streams (RFC 6525 §5.1.2-§5.1.3; Linux's
 * SCTP_RESET_STREAMS): our outgoing ones (DPSCTP_RESET_OUTGOING: the next
 * message on each is SSN 0 again, once the peer has everything sent
 * before), the peer's (DPSCTP_RESET_INCOMING), or both. Needs RE-CONFIG
 * negotiated (DPSCTP_EXT_RECONFIG). An outgoing stream being reset takes no
 * message (-EAGAIN) until the answer, which comes as DPSCTP_EV_STREAM_RESET
 * (DPSCTP_RESET_DENIED or _FAILED when refused). On the association's
 * worker (a callback, or the thread that runs dpsctp_poll()) it runs at
 * once and returns what the core said; from another thread the request
 * (with its stream list) is queued and its result not reported, as for
 * dpsctp_set_sched(): the event tells what happened, and a request the
 * association refused sends nothing and has no event.
 *
 * @param a      the association.
 * @param flags  DPSCTP_RESET_OUTGOING and/or DPSCTP_RESET_INCOMING.
 * @param sids   the streams (NULL with n 0: every stream).
 * @param n      how many, at most 32.
 * @return 0 (the request went out), -EOPNOTSUPP (RE-CONFIG not negotiated),
 *         -ENOTCONN (not established, or shutting down or closed),
 *         -EINPROGRESS (a request of ours still waits for its answer),
 *         -EINVAL (no flag, a stream out of range, more than 32),
 *         -EAGAIN (a message is queued on an outgoing stream to reset: send
 *         it first; from another thread: the request ring is full).
 */
DPSCTP_EXPORT int dpsctp_reset_streams(struct dpsctp_assoc *a, unsigned flags, const uint16_t *sids,
				       uint16_t n);

/**
 * Add streams (RFC 6525 §5.1.5-§5.1.6; Linux's SCTP_ADD_STREAMS): `out`
 * more outbound streams, and ask the peer for `in` more of ours inbound.
 * Streams go up to `--max-streams` (the size of the per-association block);
 * the new counts come as DPSCTP_EV_STREAM_CHANGE (with DPSCTP_RESET_DENIED
 * or _FAILED when refused). The rules of dpsctp_reset_streams().
 *
 * @param a    the association.
 * @param out  outbound streams to add (0: none).
 * @param in   inbound streams to ask the peer for (0: none).
 * @return 0, -EINVAL (nothing to add, or past 65,535), and the other values
 *         of dpsctp_reset_streams().
 */
DPSCTP_EXPORT int dpsctp_add_streams(struct dpsctp_assoc *a, uint16_t out, uint16_t in);

/**
 * Reset every stream's numbering and both sides' TSNs (RFC 6525 §5.1.4;
 * Linux's SCTP_RESET_ASSOC). Only with nothing of ours queued or
 * unacknowledged (-EAGAIN); the new TSNs come as DPSCTP_EV_ASSOC_RESET.
 * The rules of dpsctp_reset_streams().
 *
 * @param a  the association.
 * @return 0, and the values of dpsctp_reset_streams().
 */
DPSCTP_EXPORT int dpsctp_reset_assoc(struct dpsctp_assoc *a);

/**
 * Set an option on one association (<dpsctp/dpsctp_opt.h>, docs/OPTIONS.md:
 * RFC 6458's setsockopt() with an association id). The value is checked
 * first (dpsctp_opt_check(), then against the values in force); only the
 * association changes, the instance's defaults stay. On the association's
 * worker (a callback, or the thread that runs dpsctp_poll()) it applies at
 * once and returns what happened; from another thread the value is checked
 * alone, then travels through the worker's request ring and its result is
 * not reported (read it back with dpsctp_assoc_getopt()), as for
 * dpsctp_set_sched().
 *
 * @param a       the association.
 * @param opt     the option; not DPSCTP_OPT_STATUS or _PEER_ADDR_INFO.
 * @param val     its value, the option's struct.
 * @param len     sizeof that struct.
 * @param err     room for a one-line reason on failure; may be NULL.
 * @param errlen  bytes at @p err.
 * @return 0, -EINVAL (a bad value, or one that does not fit those in force:
 *         err says which), -ENOPROTOOPT (not an option one sets),
 *         -ENOENT (DPSCTP_OPT_PRIMARY_ADDR or _PEER_ADDR_PARAMS: not one of
 *         the peer's addresses), -ENOTCONN (closed, or DPSCTP_OPT_PRIMARY_ADDR
 *         before COMM_UP, or a path MTU set before ESTABLISHED), -EAGAIN
 *         (request ring full, another thread).
 */
DPSCTP_EXPORT int dpsctp_assoc_setopt(struct dpsctp_assoc *a, enum dpsctp_opt opt, const void *val,
				      size_t len, char *err, size_t errlen);

/**
 * Read an option of one association (RFC 6458's getsockopt()), among them
 * DPSCTP_OPT_STATUS and DPSCTP_OPT_PEER_ADDR_INFO. For
 * DPSCTP_OPT_PEER_ADDR_INFO and _PEER_ADDR_PARAMS, @p val's addr names the
 * path on input. Any thread may ask, as for the statistics: the answer is
 * what the owner last set or saw.
 *
 * @param a    the association.
 * @param opt  the option.
 * @param val  filled: the option's struct.
 * @param len  in: bytes at @p val, at least the struct's size; out: that size.
 * @return 0, -EINVAL (NULL, or @p len too small), -ENOPROTOOPT (not an
 *         option), -ENOENT (no path with that address).
 */
DPSCTP_EXPORT int dpsctp_assoc_getopt(const struct dpsctp_assoc *a, enum dpsctp_opt opt, void *val,
				      size_t *len);

/**
 * Set an option's instance default: the value every association made
 * afterwards starts with (RFC 6458's association id 0, SCTP_FUTURE_ASSOC),
 * in place of the configuration's. Associations that exist keep theirs.
 * Before dpsctp_start(), or on the thread that polls an instance that is
 * not started (as dpsctp_listen()).
 *
 * @param d       the instance.
 * @param opt     the option; not DPSCTP_OPT_PRIMARY_ADDR, _STATUS or _PEER_ADDR_INFO.
 * @param val     its value; a DPSCTP_OPT_PEER_ADDR_PARAMS one names no address.
 * @param len     sizeof the option's struct.
 * @param err     room for a one-line reason on failure; may be NULL.
 * @param errlen  bytes at @p err.
 * @return 0, -EINVAL (bad value: err says which), -ENOPROTOOPT (not an
 *         option of the instance), -EBUSY (the instance is started).
 */
DPSCTP_EXPORT int dpsctp_setopt(struct dpsctp *d, enum dpsctp_opt opt, const void *val, size_t len,
				char *err, size_t errlen);

/**
 * Read an option's instance default (see dpsctp_setopt()).
 *
 * @param d    the instance.
 * @param opt  the option; not DPSCTP_OPT_PRIMARY_ADDR, _STATUS or _PEER_ADDR_INFO.
 * @param val  filled: the option's struct (ASSOCINFO's read-only fields 0).
 * @param len  in: bytes at @p val, at least the struct's size; out: that size.
 * @return 0, -EINVAL (NULL, or @p len too small), -ENOPROTOOPT (not an
 *         option of the instance).
 */
DPSCTP_EXPORT int dpsctp_getopt(const struct dpsctp *d, enum dpsctp_opt opt, void *val,
				size_t *len);

/**
 * Keep a received message without copying: an mbuf chain of indirect
 * mbufs, one per slice, each holding a reference to the received packet.
 * Free it with rte_pktmbuf_free().
 *
 * @param a  the association the message arrived on.
 * @param m  the message, inside its receive callback.
 * @return the chain, or NULL when the indirect pool is empty.
 */
DPSCTP_EXPORT struct rte_mbuf *dpsctp_msg_to_mbuf(struct dpsctp_assoc *a,
						  const struct dpsctp_msg *m);

/**
 * Copy a message's payload into a buffer.
 *
 * @param m    the message.
 * @param buf  where to copy.
 * @param cap  bytes at @p buf.
 * @return bytes copied: the payload, or @p cap when it is longer.
 */
DPSCTP_EXPORT size_t dpsctp_msg_copy(const struct dpsctp_msg *m, void *buf, size_t cap);

/**
 * The association's statistics.
 *
 * @param a   the association.
 * @param st  filled.
 * @return 0, -EINVAL for NULL arguments.
 */
DPSCTP_EXPORT int dpsctp_assoc_get_stats(const struct dpsctp_assoc *a,
					 struct dpsctp_assoc_stats *st);

/**
 * Statistics of one path of the association.
 *
 * @param a   the association.
 * @param i   the path, 0 for the first peer address.
 * @param st  filled.
 * @return 0, -ENOENT past the last path.
 */
DPSCTP_EXPORT int dpsctp_path_get_stats(const struct dpsctp_assoc *a, unsigned i,
					struct dpsctp_path_stats *st);

/**
 * The association's worker.
 *
 * @param a  the association.
 * @return the worker index.
 */
DPSCTP_EXPORT unsigned dpsctp_assoc_worker(const struct dpsctp_assoc *a);

/**
 * Worker counters by index: names are stable (docs/COUNTERS.md). Counters
 * of the L3 layer, the endpoints and the associations' discards follow the
 * worker's own, prefixed "l3.", "ep." and "assoc." (the last include live
 * associations only when called on the worker's thread or on a polled
 * instance).
 *
 * @param d       the instance.
 * @param worker  the worker.
 * @param i       the counter, from 0.
 * @param name    set to the counter's name, NULL past the last.
 * @return the value; -ENOENT as a value of UINT64_MAX with *name NULL past
 *         the last counter.
 */
DPSCTP_EXPORT uint64_t dpsctp_worker_counter(const struct dpsctp *d, unsigned worker, unsigned i,
					     const char **name);

/**
 * Where a worker's polls spent their cycles, by stage (--stage-cycles on):
 * stage i's name ("rx_burst", "rx_copy", "l3", "crc", "parse", "lookup",
 * "core", "deliver", "app", "rearm", "tx_build", "tx_burst", "timers",
 * "requests", "rx_free", "idle", "other"), the TSC cycles spent in it
 * (exclusive of the stages it called: they add up to the polls' cycles)
 * and how often it was entered. "idle"
 * holds whole polls that found nothing to do (events: their number), so
 * the rest is the cost of work done. Read while the worker polls, each
 * figure is at most a poll old (64-bit reads).
 *
 * @param d       the instance.
 * @param worker  the worker.
 * @param i       the stage, from 0.
 * @param name    set to the stage's name, NULL past the last.
 * @param cycles  set to its TSC cycles (may be NULL).
 * @param events  set to the times it was entered (may be NULL).
 * @return 0; -ENOENT past the last stage (*name NULL); -EINVAL for a bad
 *         instance or worker; -ENOTSUP when the instance was created
 *         without --stage-cycles on (nothing was counted).
 */
DPSCTP_EXPORT int dpsctp_worker_stage(const struct dpsctp *d, unsigned worker, unsigned i,
				      const char **name, uint64_t *cycles, uint64_t *events);

/**
 * The MAC address the instance uses on its port.
 *
 * @param d    the instance.
 * @param out  6 bytes, filled.
 */
DPSCTP_EXPORT void dpsctp_mac(const struct dpsctp *d, uint8_t out[6]);

/**
 * The instance's mbuf pool (for applications that build their own mbufs).
 *
 * @param d  the instance.
 * @return the pool (the caller's own with dpsctp_create_with_pool()).
 */
DPSCTP_EXPORT struct rte_mempool *dpsctp_pktmbuf_pool(const struct dpsctp *d);

/** Frames through one port of an instance, all workers (dpsctp_port_frames()). */
struct dpsctp_port_frames {
	uint64_t rx_packets; /**< frames received on it */
	uint64_t tx_packets; /**< frames the port took for sending */
};

/**
 * What went through port @p port (0 .. the ports configured - 1, as --port
 * numbers them): with several ports, which network carries the traffic.
 * Read without locks from another thread: a snapshot of counters the
 * workers keep moving.
 *
 * @param d     the instance.
 * @param port  the port.
 * @param st    filled.
 * @return 0, -EINVAL (no such port, or NULL).
 */
DPSCTP_EXPORT int dpsctp_port_frames(const struct dpsctp *d, unsigned port,
				     struct dpsctp_port_frames *st);

/**
 * Associations the instance holds now (all workers).
 *
 * @param d  the instance.
 * @return the count.
 */
DPSCTP_EXPORT unsigned dpsctp_assoc_count(const struct dpsctp *d);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_H */
