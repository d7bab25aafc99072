/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What travels in the sidecar's rings (docs/SIDECAR.md): one
 * 64-byte slot per request (application -> daemon), per completion and per
 * event (daemon -> application). Fixed layouts with explicit widths, no
 * pointers; payloads and address lists are (offset, length) in the
 * thread's arena (sc_arena.h). Both sides check what they read
 * (sc_req_check(), sc_evt_check()): an unknown operation, a length beyond
 * the limits or a reserved field that is not zero is -EPROTO.
 */
#ifndef DPSCTP_SC_PROTO_H
#define DPSCTP_SC_PROTO_H

#include <stdint.h>

#include "dataplane/sidecar/sc_region.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Requests. */
enum sc_op {
	SC_OP_LISTEN = 1, /* port: accept associations on it */
	SC_OP_CONNECT,	  /* port; the peers' addresses in the tx arena (sc_addr x n), then,
			     when value is not 0, an INITMSG of value bytes (dpsctp_opt.h's
			     struct dpsctp_initmsg: dpsctp_connect_opts()) */
	SC_OP_SEND,	  /* assoc, sid, ppid, flags; the message in the tx arena */
	SC_OP_SHUTDOWN,	  /* assoc */
	SC_OP_ABORT,	  /* assoc */
	SC_OP_RELEASE,	  /* a barrier: completes once every request before it was served */
	SC_OP_UNLISTEN,	  /* port: accept no more on it (what it accepted lives on) */
	/* The association's stream scheduler (RFC 8260 §3): dpsctp_set_sched(), dpsctp_sched(). */
	SC_OP_SET_SCHED, /* assoc, value: the scheduler (dpsctp.h's DPSCTP_SCHED_*) */
	SC_OP_GET_SCHED, /* assoc; the completion's value */
	/* An outbound stream's priority or weight: dpsctp_set_stream_param(),
	   dpsctp_stream_param(). */
	SC_OP_SET_STREAM_PARAM, /* assoc, sid, value (16 bits) */
	SC_OP_GET_STREAM_PARAM, /* assoc, sid; the completion's value */
	/*
	 * Stream reconfiguration (RFC 6525): dpsctp_reset_streams(),
	 * dpsctp_add_streams(), dpsctp_reset_assoc(). The completion is the
	 * call's result; the outcome comes as the events below.
	 */
	SC_OP_RESET_STREAMS, /* assoc, value: SC_RESET_INCOMING and/or _OUTGOING; the streams
				(uint16_t, host order) in the tx arena, len 2 x n, n at most
				SC_RECONF_MAX_STREAMS; len 0: every stream */
	SC_OP_ADD_STREAMS,   /* assoc, value: outbound streams to add | inbound ones << 16 */
	SC_OP_RESET_ASSOC,   /* assoc */
	/*
	 * Per-association options (RFC 6458's socket options, dpsctp_opt.h):
	 * dpsctp_assoc_setopt(), dpsctp_assoc_getopt(). assoc 0 names the
	 * application's defaults, which its associations made afterwards start
	 * with (RFC 6458's association id 0). value is the option
	 * (DPSCTP_OPT_*, 1 .. SC_OPT_ID_MAX); the option's struct travels as its
	 * bytes in the tx arena, len at most SC_OPT_MAX_BYTES.
	 */
	SC_OP_SETOPT, /* assoc or 0, value; the struct in the tx arena, len 1 or more */
	SC_OP_GETOPT, /* assoc or 0, value; len 0, or the question in the tx arena (the struct
			 with its input fields: a path's address). The answer, when status is 0:
			 the completion's value is its length (1 .. SC_OPT_MAX_BYTES), its bytes
			 in the SC_OPT_SLOTS(value) completion slots that follow */
	SC_OP_COUNT
};

/*
 * The options on the wire. An option's struct is at most SC_OPT_MAX_BYTES
 * (the largest, STATUS, is 64 today: room to grow without a new slot
 * format); a GETOPT's answer takes SC_OPT_SLOTS(len) raw completion slots
 * after its completion, so it arrives with it, in ring order (the rx arena
 * is the events' and is read in their order, after the completions).
 */
#define SC_OPT_ID_MAX	  63u
#define SC_OPT_MAX_BYTES  256u
#define SC_OPT_SLOTS(len) (((len) + SC_SLOT_BYTES - 1u) / SC_SLOT_BYTES)

/* SC_OP_RESET_STREAMS's value (dpsctp.h's DPSCTP_RESET_INCOMING, _OUTGOING). */
#define SC_RESET_INCOMING 0x01u
#define SC_RESET_OUTGOING 0x02u
/* Streams one RESET_STREAMS names, and one STREAM_RESET event lists (the core's
 * SCTP_RECONF_MAX_STREAMS). */
#define SC_RECONF_MAX_STREAMS 32u

#define SC_SEND_UNORDERED 0x01u /* the U bit */
#define SC_SEND_SACK_NOW  0x02u /* the I bit (RFC 7053) */
#define SC_SEND_QUIET	  0x04u /* no completion when it succeeds (a failure still has one) */
/* The association's DEFAULT_SNDINFO (dpsctp_opt.h) gives the stream, PPID, U and I bits, policy
 * and context: the request's are zero. */
#define SC_SEND_DEFAULT 0x08u
#define SC_SEND_FLAGS	0x0fu

#define SC_MAX_ADDRS 4u

/*
 * An association's handle, the daemon's name for it: its generation in
 * the high 32 bits, then the worker that owns it (bits 24..31) and its
 * slot + 1 in that worker's table (bits 0..23); 0 names none. The
 * application routes a request by the worker (the ring set (thread,
 * worker), sc_region.h); a handle whose worker the daemon does not have
 * goes to worker 0, which answers -ENOENT as for any stale handle.
 */
#define SC_HANDLE_WORKER(h) ((uint32_t)((h) >> 24) & 0xffu)
#define SC_HANDLE_SLOTS	    (1u << 24)

/* An address in an arena: family 4 or 6, bytes in network order. */
struct sc_addr {
	uint8_t family;
	uint8_t pad[3];
	uint8_t bytes[16];
};

struct sc_req {
	uint8_t op;	 /* enum sc_op */
	uint8_t flags;	 /* SC_SEND_* */
	uint16_t sid;	 /* SEND */
	uint32_t ppid;	 /* SEND, as the peer will see it (network order) */
	uint64_t cookie; /* the application's, returned in the completion */
	uint64_t assoc;	 /* SEND, SHUTDOWN, ABORT and the others: the daemon's handle */
	uint64_t off;	 /* SEND, CONNECT, RESET_STREAMS: where the bytes are in the tx arena */
	uint32_t len;	 /* SEND: message bytes; CONNECT: n x sizeof(struct sc_addr);
			    RESET_STREAMS: 2 x n */
	uint16_t port;	 /* LISTEN, UNLISTEN, CONNECT */
	uint16_t pad0;
	uint32_t pr_policy;  /* SEND: SC_PR_* (PR-SCTP, RFC 3758 and RFC 7496), 0 = reliable */
	uint32_t pr_value;   /* SEND: TTL ms, RTX retransmissions, PRIO priority (0 highest) */
	uint32_t value;	     /* SET_SCHED: the scheduler; SET_STREAM_PARAM: the value;
				RESET_STREAMS, ADD_STREAMS, CONNECT, SETOPT, GETOPT: as above;
				else 0 */
	uint32_t context;    /* SEND: the application's, back in its SEND_FAILED; else 0 */
	uint8_t reserved[8]; /* zero */
};

/*
 * sc_req.pr_policy: dpsctp.h's DPSCTP_PR_* numbers, which the daemon hands
 * to dpsctp_send() as they are; the data plane judges them (-EINVAL in the
 * completion for one it does not know), so a request with another number
 * is well-formed here and refused there, like a stream out of range.
 */
#define SC_PR_NONE 0u
#define SC_PR_TTL  1u
#define SC_PR_RTX  2u
#define SC_PR_PRIO 3u

/*
 * SET_SCHED's value: dpsctp.h's DPSCTP_SCHED_* numbers, 0 .. SC_SCHED_MAX,
 * handed to dpsctp_set_sched() as they are (the data plane judges them).
 */
#define SC_SCHED_MAX 5u

/* The result of one request. */
struct sc_cpl {
	uint64_t cookie; /* the request's */
	int32_t status;	 /* 0 or -errno */
	uint8_t op;	 /* the request's */
	uint8_t pad[3];
	uint64_t assoc;	      /* CONNECT: the new association's handle */
	uint32_t value;	      /* GET_SCHED, GET_STREAM_PARAM with status 0: the answer;
				 GETOPT with status 0: the answer's bytes (sc_proto.h above) */
	uint8_t reserved[36]; /* zero */
};

/* Events. */
enum sc_evt_type {
	SC_EVT_RECV = 1,	  /* a message (or part, SC_RECV_MORE) in the rx arena */
	SC_EVT_COMM_UP,		  /* the association is up; streams in `sid` (out) and `ssn` (in) */
	SC_EVT_COMM_LOST,	  /* ended abnormally; `error`: the peer's cause, if any */
	SC_EVT_SHUTDOWN_COMPLETE, /* closed gracefully */
	SC_EVT_CANT_START,	  /* a CONNECT that failed */
	SC_EVT_RESTART,		  /* the peer restarted the association */
	SC_EVT_PEER_ADDR_CHANGE,  /* `addr_state` for the path at `off` in the rx arena */
	SC_EVT_SEND_FAILED,	  /* a message not delivered (abandoned, or left at the close):
				   * sid, ppid, len, pr_policy, SC_FAILED_SENT */
	SC_EVT_SHUTDOWN_EVENT,	  /* the peer started a shutdown */
	SC_EVT_DAEMON_STOPPING,	  /* the daemon is going away: detach */
	/*
	 * RFC 6525 (dpsctp.h's DPSCTP_EV_STREAM_RESET, _ASSOC_RESET,
	 * _STREAM_CHANGE); flags: SC_RESET_*_SSN, SC_RESET_DENIED, _FAILED.
	 */
	SC_EVT_STREAM_RESET,  /* the streams (uint16_t, host order) at off in the rx arena, len
				 2 x n, n at most SC_RECONF_MAX_STREAMS (more come as several
				 events); len 0: every stream */
	SC_EVT_ASSOC_RESET,   /* ppid: our next TSN; mid: the peer's next TSN */
	SC_EVT_STREAM_CHANGE, /* the new counts: outbound streams in sid, inbound in ssn */
	SC_EVT_COUNT
};

/* STREAM_RESET, ASSOC_RESET, STREAM_CHANGE flags: dpsctp.h's DPSCTP_RESET_* values. */
#define SC_RESET_INCOMING_SSN 0x01u
#define SC_RESET_OUTGOING_SSN 0x02u
#define SC_RESET_DENIED	      0x04u
#define SC_RESET_FAILED	      0x08u
#define SC_RESET_FLAGS	      0x0fu

#define SC_RECV_UNORDERED 0x01u
#define SC_RECV_MORE	  0x02u /* partial delivery: more of this message follows */
#define SC_RECV_CONT	  0x08u /* partial delivery: continues a message begun earlier */
/*
 * Zero copy: the rx arena holds a struct sc_zc_ref (off, len), not the
 * bytes; they are in the packet-buffer memfd at that offset, unchanged
 * until the application's next poll frees the arena record (the daemon
 * then frees the packet buffers).
 */
#define SC_RECV_ZC 0x04u
/* SEND_FAILED: some of the message went on the wire (RFC 6458 SCTP_DATA_SENT). */
#define SC_FAILED_SENT 0x10u
/*
 * RECV: the sender abandoned (PR-SCTP) the message whose parts came before
 * (SC_RECV_CONT): this RECV has no bytes (len 0, off 0) and ends it; what
 * was delivered of it is all there will be.
 */
#define SC_RECV_ABORTED 0x20u

struct sc_zc_ref {
	uint64_t off; /* into the packet-buffer memfd */
	uint32_t len;
	uint32_t pad;
};

struct sc_evt {
	uint8_t type;	     /* enum sc_evt_type */
	uint8_t flags;	     /* RECV: SC_RECV_*; SEND_FAILED: SC_FAILED_SENT; the RFC 6525
				events: SC_RESET_* */
	uint16_t sid;	     /* RECV, SEND_FAILED; COMM_UP, STREAM_CHANGE: outbound streams */
	uint32_t ppid;	     /* RECV, SEND_FAILED; ASSOC_RESET: our next TSN (host order) */
	uint64_t assoc;	     /* the association's handle */
	uint64_t off;	     /* RECV, PEER_ADDR_CHANGE, STREAM_RESET: in the rx arena */
	uint32_t len;	     /* RECV, SEND_FAILED, PEER_ADDR_CHANGE, STREAM_RESET */
	uint16_t ssn;	     /* RECV (ordered); COMM_UP, STREAM_CHANGE: inbound streams */
	uint16_t error;	     /* COMM_LOST, CANT_START: first cause code of the peer's ABORT */
	uint16_t port;	     /* COMM_UP, RESTART, COMM_LOST, CANT_START: our port */
	uint8_t addr_state;  /* PEER_ADDR_CHANGE: RFC 6458 spc_state */
	uint8_t reason;	     /* COMM_LOST, CANT_START: why (enum dpsctp_reason's numbers) */
	uint16_t peer_port;  /* COMM_UP, RESTART, COMM_LOST, CANT_START: the peer's port */
	struct sc_addr peer; /* the same events: the peer's primary address (family 0: none) */
	uint8_t pr_policy;   /* SEND_FAILED: the SC_PR_* policy that abandoned it, 0: the close */
	uint8_t extensions;  /* COMM_UP, RESTART: dpsctp.h's DPSCTP_EXT_* negotiated */
	/*
	 * RECV: the message's identifier, dpsctp_msg.mid (I-DATA: the MID, ssn
	 * its low 16 bits; DATA: the SSN again); the parts of one message share
	 * (sid, SC_RECV_UNORDERED, mid). ASSOC_RESET: the peer's next TSN.
	 * SEND_FAILED: the message's context (its SEND's). Zero in the other
	 * events.
	 */
	uint32_t mid;
};

/*
 * Daemon: a request read from an application's ring is well-formed
 * (known op, flags and lengths within limits, reserved bytes zero). It
 * says nothing of the handles and offsets, which the daemon checks against
 * its own tables and the arena. 0 or -EPROTO.
 */
int sc_req_check(const struct sc_req *r, uint64_t arena_bytes);

/* Application: the same for an event from the daemon. 0 or -EPROTO. */
int sc_evt_check(const struct sc_evt *e, uint64_t arena_bytes);

/*
 * Application: a completion from the daemon is well-formed (a request's
 * op, reserved bytes zero, a value only where one belongs). The number of
 * raw slots that follow it (a GETOPT's answer, SC_OPT_SLOTS(value)), or
 * -EPROTO.
 */
int sc_cpl_check(const struct sc_cpl *c);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_SC_PROTO_H */
