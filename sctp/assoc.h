/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An SCTP association (RFC 9260 §2.3, §4): its state machine, from the
 * handshake to the teardown. docs/STATES.md has the diagram and the tables.
 *
 * Sans-I/O. Inputs: a received packet (sctp_assoc_input), the time
 * (sctp_assoc_timeout) and the user's calls (connect, send, shutdown, abort), each
 * with now_ns. Outputs: packets through ops->send (SCTP bytes with a zero
 * checksum: the caller's CRC policy fills it) and notifications through
 * ops->notify, both called before the input function returns; and the next
 * wake-up, sctp_assoc_next_wakeup(). Nothing is allocated: the caller owns
 * the struct, and may free or reuse it once sctp_assoc_freeable() is true.
 *
 * How it is built (STYLE.md, "handlers decide, one place does"): every
 * chunk is dispatched once, through a const chunk x state table; every
 * timer expiry through a timer x state table; every user call through a
 * user call x state table. A cell is either a handler or a named discard,
 * never an empty default (sctp_assoc_*_cell() let a test check each one).
 * Handlers read the association as const and emit commands into a small
 * bounded list; one interpreter applies them: set a state, start or stop a
 * timer, send a packet, notify, close.
 *
 * Implemented: the client handshake with T1-init and T1-cookie, INIT ACK
 * checks, unrecognized INIT ACK parameters reported, Stale Cookie restarts
 * with a Cookie Preservative (§5.1, §5.2.6); graceful shutdown both ways
 * with T2-shutdown and T5-shutdown-guard (§9.2); ABORT both ways (§9.1);
 * the verification tag rules of §8.5 and §8.5.1; HEARTBEAT answered (§8.3);
 * unrecognized chunks (§3.2); INIT and COOKIE ECHO in an existing
 * association, tie-tags and restart (§5.2); several peer addresses with
 * heartbeats, confirmation, failover and SET PRIMARY (§5.4, §8, RFC 7829,
 * through sctp/path.h); ERROR reported to the user; the data path
 * (docs/DATAPATH.md): DATA in, SACK policy and SACK out
 * (sctp/assoc_data.c), user send, transmission with congestion control,
 * SACK in, fast retransmit, T3-rtx and SEND FAILED (sctp/assoc_send.c).
 *
 * Finding the association (the caller's job): by our tag (the packet's
 * verification tag) and ports. Two chunk types also need a look-up by
 * (peer address, local port, peer port) when the tag finds nothing: INIT,
 * whose packet carries tag 0, and COOKIE ECHO, whose packet carries the tag
 * of the cookie, which in a restart or a collision (§5.2.4 A) is not yet
 * the association's. Only when that finds nothing either does the packet
 * go to the endpoint (sctp_endpoint_input()).
 */
#ifndef SCTP_ASSOC_H
#define SCTP_ASSOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sctp/addr.h"
#include "sctp/cookie.h"
#include "sctp/def_table.h"
#include "sctp/endpoint.h"
#include "sctp/buf.h"
#include "sctp/cc.h"
#include "sctp/ireasm.h"
#include "sctp/outq.h"
#include "sctp/path.h"
#include "sctp/plpmtud.h"
#include "sctp/reasm.h"
#include "sctp/rtxq.h"
#include "sctp/rto.h"
#include "sctp/spurious.h"
#include "sctp/time.h"
#include "sctp/tsn_map.h"

/* RFC 9260 §4: the states, and only the states (flags are fields). */
enum sctp_assoc_state {
	SCTP_ASSOC_CLOSED = 0,
	SCTP_ASSOC_COOKIE_WAIT,
	SCTP_ASSOC_COOKIE_ECHOED,
	SCTP_ASSOC_ESTABLISHED,
	SCTP_ASSOC_SHUTDOWN_PENDING,
	SCTP_ASSOC_SHUTDOWN_SENT,
	SCTP_ASSOC_SHUTDOWN_RECEIVED,
	SCTP_ASSOC_SHUTDOWN_ACK_SENT,
	SCTP_ASSOC_STATE_COUNT
};

/*
 * The timers, RFC 9260 §5.1, §8.3 and §9.2. HEARTBEAT is the path set's
 * wake-up (sctp_paths_next_wakeup()): idle heartbeats, their deadlines and
 * §5.4 probes, all paths behind one deadline.
 */
enum sctp_assoc_timer {
	SCTP_ASSOC_T1_INIT = 0,
	SCTP_ASSOC_T1_COOKIE,
	SCTP_ASSOC_T2_SHUTDOWN,
	SCTP_ASSOC_T5_GUARD,
	SCTP_ASSOC_T_HEARTBEAT,
	SCTP_ASSOC_T_SACK, /* delayed SACK, RFC 9260 §6.2 */
	/* T3-rtx (§6.3.2): the earliest of the per-path deadlines, tx->path[].t3_at. */
	SCTP_ASSOC_T3_RTX,
	/*
	 * The bundling delay (sctp_data_config.bundle_delay_us): when the
	 * oldest message held back for bundling has waited long enough. Only
	 * ever running in ESTABLISHED, with a delay configured.
	 */
	SCTP_ASSOC_T_BUNDLE,
	/*
	 * RFC 6525 §5.1.1: our RE-CONFIG request not answered yet is sent
	 * again after the data path's RTO (sctp/assoc_reconf.c).
	 */
	SCTP_ASSOC_T_RECONF,
	/*
	 * PLPMTUD (RFC 8899, sctp/assoc_pmtu.c): the earliest probe deadline
	 * or raise timer of the paths. Runs from ESTABLISHED while the send
	 * side does (ESTABLISHED, SHUTDOWN-PENDING, SHUTDOWN-RECEIVED).
	 */
	SCTP_ASSOC_T_PMTU,
	SCTP_ASSOC_TIMER_COUNT
};

/* The user calls that go through the user call x state table. */
enum sctp_assoc_user_call {
	SCTP_ASSOC_USER_SHUTDOWN = 0,
	SCTP_ASSOC_USER_ABORT,
	SCTP_ASSOC_USER_SET_PRIMARY,
	SCTP_ASSOC_USER_SEND,
	SCTP_ASSOC_USER_CONSUMED,
	SCTP_ASSOC_USER_FLUSH,
	SCTP_ASSOC_USER_RECONF, /* a stream reset or streams added (RFC 6525) */
	SCTP_ASSOC_USER_COUNT
};

/*
 * Rows of the chunk table. Chunk types map to rows with sctp_assoc_row_of():
 * the chunk types of RFC 9260 have a row each; the chunk of an extension
 * both sides negotiated goes to EXTENSION; any other type, including an
 * extension that was not negotiated, is UNKNOWN (RFC 9260 §3.2: handled by
 * its two high bits).
 */
enum sctp_assoc_row {
	SCTP_ASSOC_ROW_DATA = 0, /* DATA, and I-DATA when negotiated (RFC 8260) */
	SCTP_ASSOC_ROW_INIT,
	SCTP_ASSOC_ROW_INIT_ACK,
	SCTP_ASSOC_ROW_SACK,
	SCTP_ASSOC_ROW_HEARTBEAT,
	SCTP_ASSOC_ROW_HEARTBEAT_ACK,
	SCTP_ASSOC_ROW_ABORT,
	SCTP_ASSOC_ROW_SHUTDOWN,
	SCTP_ASSOC_ROW_SHUTDOWN_ACK,
	SCTP_ASSOC_ROW_ERROR,
	SCTP_ASSOC_ROW_COOKIE_ECHO,
	SCTP_ASSOC_ROW_COOKIE_ACK,
	SCTP_ASSOC_ROW_SHUTDOWN_COMPLETE,
	SCTP_ASSOC_ROW_FORWARD_TSN, /* RFC 3758 §3.2, when PR-SCTP was negotiated; and
				       I-FORWARD TSN with I-DATA too (RFC 8260 §2.3.1) */
	SCTP_ASSOC_ROW_RECONFIG,    /* RFC 6525 §3.1, when RE-CONFIG was negotiated */
	SCTP_ASSOC_ROW_EXTENSION,
	SCTP_ASSOC_ROW_UNKNOWN,
	SCTP_ASSOC_ROW_COUNT
};

/*
 * The verification tag a chunk's packet must carry (RFC 9260 §8.5,
 * §8.5.1), per table cell. 0 is no rule: a cell left empty.
 */
enum sctp_assoc_vtag_rule {
	SCTP_ASSOC_VTAG_UNSET = 0,
	SCTP_ASSOC_VTAG_OURS,  /* §8.5: our tag */
	SCTP_ASSOC_VTAG_ZERO,  /* §8.5.1 A: INIT, tag 0 */
	SCTP_ASSOC_VTAG_T_BIT, /* §8.5.1 B, C: ours with T clear, or the peer's with T set */
	SCTP_ASSOC_VTAG_ANY,   /* §8.5.1 D (checked against the cookie), E (out of the blue),
				  and CLOSED, where everything is discarded */
};

enum sctp_assoc_drop {
	SCTP_ASSOC_DROP_NONE = 0, /* a handler cell, not a discard */
#define SCTP_ASSOC_DROP(name, str, why) SCTP_DEF_ENUM(SCTP_ASSOC_DROP_##name)
#include "sctp/assoc_drop.def"
#undef SCTP_ASSOC_DROP
	SCTP_ASSOC_DROP_COUNT
};

/*
 * Counters shared by every association of one owner (an lcore): drops and
 * the events an operator reads summed over the owner's associations. They
 * stay out of the association, which must stay small (docs/ARCHITECTURE.md
 * decision 6; docs/MEMORY.md). One owner, so plain increments. What one
 * association's application reads about it is struct sctp_assoc_stats,
 * inside the association.
 */
struct sctp_assoc_counters {
	uint64_t drops[SCTP_ASSOC_DROP_COUNT];
	/* INIT ACKs whose OS exceeded our MIS: settled at our MIS (§5.1.1). */
	uint64_t init_ack_os_clamped;
	uint64_t stale_cookie_restarts; /* §5.2.6 option 3 taken */
	uint64_t restarts;		/* §5.2.4 A: the peer restarted, RESTART notified */
	uint64_t failovers;		/* new data moved off the primary (§6.4.1) */
	uint64_t primary_returns;	/* new data moved back to the primary */
	uint64_t peer_addrs_ignored;	/* peer addresses beyond the path storage, or of a
					   family we have no local address for */
	/* Receive side (sctp/assoc_data.c). */
	uint64_t data_out_of_window; /* beyond the TSN map: dropped, retransmitted later */
	uint64_t data_no_room;	     /* reassembly caps or pool: dropped, not acknowledged */
	uint64_t data_bad_stream;    /* stream id >= inbound streams: ERROR cause 1 */
	uint64_t sacks_delayed;	     /* sent by the delayed-SACK timer */
	uint64_t window_updates;     /* SACKs sent because the application consumed data */
	/* Send side (sctp/assoc_send.c). */
	uint64_t data_packets;	  /* packets carrying DATA */
	uint64_t sacks_bundled;	  /* SACKs that went out ahead of DATA */
	uint64_t sacks_old;	  /* §6.2.1 D i: behind the Cumulative TSN Ack Point */
	uint64_t sacks_gap_order; /* gap blocks out of order: dropped */
	uint64_t zwp_expiries;	  /* T3-rtx expiries of a zero window probe the peer answered:
				     no error counted, cwnd kept (§6.1 A) */
	uint64_t send_failed;	  /* SEND_FAILED notifications */
	/* PR-SCTP (RFC 3758, sctp/assoc_send.c and assoc_data.c). */
	uint64_t pr_unsupported; /* sent with a policy to a peer without PR-SCTP: reliably */
	uint64_t fwd_tsn_stale;	 /* at or behind our cumulative TSN: a SACK answers it */
	/* ICMP errors quoting our packets (sctp/assoc_icmp.c, RFC 9260 appendix C). */
	uint64_t icmp_bad_tag; /* ICMP6: the quoted tag is not the peer's: discarded */
	uint64_t icmp_aborts;  /* ICMP8: protocol (or UDP port) unreachable taken as ABORT */
	uint64_t icmp_ignored; /* ICMP7 with PMTUD off, no MTU given, a path fixed by the user or
				  an address not a path; ICMP9, an INIT quoted late, ICMP8 when
				  the profile does not abort */
	/* Path MTU (sctp/assoc_pmtu.c, docs/PMTU.md). */
	uint64_t icmp_pmtu_applied;   /* ICMP7 that lowered a path's MTU */
	uint64_t icmp_pmtu_bad_tsn;   /* ICMP7 quoting a DATA TSN not outstanding: discarded */
	uint64_t icmp_pmtu_not_lower; /* ICMP7 with an MTU at or above the path's: ignored */
	uint64_t icmp_pmtu_too_small; /* ICMP7 with an MTU below the floor: the floor used */
	uint64_t pmtu_decreases;      /* a path's MTU lowered (ICMP, PLPMTUD, the user) */
	uint64_t pmtu_increases;      /* a path's MTU raised (PLPMTUD, the user) */
	uint64_t pmtu_rtx_marked;     /* DATA chunks sent too large for a lowered MTU: resent */
	uint64_t pmtu_frag_rtx;	      /* packets with one such chunk, IP-fragmented at the source */
	uint64_t plpmtud_probes_sent; /* RFC 8899 probes: HEARTBEAT + PAD */
	uint64_t plpmtud_probes_acked; /* ... answered */
	uint64_t plpmtud_probes_lost;  /* ... unanswered within the probe timer (never an error) */
	uint64_t plpmtud_black_holes;  /* the PLPMTU itself stopped carrying: back to BASE_PLPMTU */
};

/*
 * What one association did, for its application (the runtime's
 * dpsctp_assoc_get_stats()): the caller's, one per association
 * (sctp_assoc_init()), kept out of struct sctp_assoc as the owner's
 * counters are so that the association stays within its 512 bytes.
 */
struct sctp_assoc_stats {
	uint64_t heartbeats_sent;  /* §8.3 idle heartbeats and §5.4 probes */
	uint64_t data_chunks;	   /* DATA chunks taken (delivered or queued) */
	uint64_t data_dups;	   /* DATA chunks whose TSN we had already */
	uint64_t sacks_sent;	   /* at most one per received packet */
	uint64_t data_sent;	   /* DATA chunks sent for the first time */
	uint64_t data_rtx;	   /* DATA chunks retransmitted (fast or T3) */
	uint64_t sacks_in;	   /* SACKs accepted */
	uint64_t t3_expiries;	   /* §6.3.3 */
	uint64_t t3_spurious;	   /* T3-rtx episodes shown spurious (the peer's duplicate
				      TSNs or F-RTO): cwnd and RTO undone (sctp/spurious.h) */
	uint64_t t3_rtx_saved;	   /* chunks a spurious T3-rtx expiry marked that F-RTO
				      found in flight and did not send again */
	uint64_t fast_retransmits; /* §7.2.4: SACKs that marked chunks for fast retransmit */
	struct sctp_rtxq_pr_stats pr_abandoned; /* PR-SCTP: messages and payload bytes per policy */
	uint64_t fwd_tsn_sent;			/* FORWARD TSN chunks sent */
	uint64_t fwd_tsn_in; /* FORWARD TSN chunks that moved our cumulative TSN */
	/* Stream reconfiguration (RFC 6525, sctp/assoc_reconf.c). */
	uint64_t reconf_requests;      /* our request parameters sent (not counting resends) */
	uint64_t reconf_rtx;	       /* RE-CONFIG requests resent by the reconfiguration timer */
	uint64_t reconf_peer_requests; /* the peer's request parameters answered */
	uint64_t reconf_denied;	       /* of those, answered with anything but success */
	uint64_t reconf_malformed;     /* RE-CONFIG chunks refused: a parameter that does not parse,
					 or a pair RFC 6525 §3.1 does not allow */
};

/*
 * The data path's per-lcore resources and limits, shared by every
 * association of an endpoint (sctp_endpoint_config.data). Nothing here is
 * per association; each association's own storage comes from
 * ops->data_get().
 */
struct sctp_data_config {
	struct sctp_buf_ops buf;	    /* hold / release of payload buffers */
	struct sctp_reasm_pool *reasm_pool; /* queued fragments (sctp/reasm.h) */
	/*
	 * Queued I-DATA fragments and messages in progress (sctp/ireasm.h),
	 * under the same limits (reasm). An endpoint that offers I-DATA
	 * (SCTP_COOKIE_EXT_I_DATA) must have one: an association that
	 * negotiated I-DATA without it aborts with Out of Resource.
	 */
	struct sctp_ireasm_pool *ireasm_pool;
	struct sctp_reasm_limits reasm; /* per association; max_bytes is our window */
	uint16_t tsn_map_words;		/* receive window: 64 TSNs a word */
	uint16_t max_dups;		/* duplicate TSNs listed per SACK */
	uint16_t max_gap_blocks;	/* Gap Ack Blocks per SACK, the rest left out */
	/*
	 * Count delivered bytes against our window until the application says
	 * it consumed them (sctp_assoc_consumed()): a slow reader then closes
	 * the window, as RFC 9260 §6.2 means by the receive buffer, instead of
	 * holding mbufs the window does not see. Off: the window counts only
	 * what reassembly holds.
	 */
	bool rwnd_counts_delivered;
	/*
	 * Send side (sctp/assoc_send.c); off (sctp_assoc_send() -EOPNOTSUPP)
	 * while outq_pool or rtxq_pool is NULL. The outq's pool must use the
	 * same buffer ops as buf.
	 */
	struct sctp_outq_pool *outq_pool; /* queued messages (sctp/outq.h) */
	struct sctp_rtxq_pool *rtxq_pool; /* DATA chunks sent, not yet acked (sctp/rtxq.h) */
	uint32_t outq_max_bytes;	  /* per association: payload bytes queued */
	uint32_t outq_max_msgs;		  /* per association: messages queued */
	uint32_t rtxq_max_chunks;	  /* per association: chunks unacked; 0: the pool */
	/* NULL: sctp_cc_params_dc for sctp_profile_dc, sctp_cc_params_rfc otherwise. */
	const struct sctp_cc_params *cc;
	/*
	 * The interface MTU, IP header included; 0: 1500 (SCTP_ASSOC_TX_MAX).
	 * Every path starts there; PMTUD lowers a path's, PLPMTUD never raises
	 * one above it (docs/PMTU.md).
	 */
	uint16_t mtu;
	/*
	 * Stream scheduler of every association's send queue (enum
	 * sctp_outq_sched, RFC 8260 §3): 0 is round robin (§3.2), then first
	 * come first served (§3.1), round robin per packet (§3.3), priority
	 * (§3.4), fair capacity (§3.5) and weighted fair queueing (§3.6); the
	 * streams' priorities and weights are the send queue's
	 * (sctp_outq_set_stream_param()), at their defaults until the API sets
	 * them. An unknown value leaves the send side off (-EOPNOTSUPP), as any
	 * bad send queue limit does.
	 */
	uint8_t sched;
	/*
	 * Bundling delay (RFC 9260 §6.10 leaves the policy to the sender), in
	 * microseconds; 0, the default, never waits. Otherwise, in ESTABLISHED,
	 * new DATA that would leave in a packet less than full is held back
	 * until the oldest message held has waited this long, or more is queued
	 * to fill a packet. Never held: retransmissions, control chunks (a SACK
	 * due goes alone), a message sent with SCTP_SEND_SACK_NOW (and what is
	 * queued with it), and anything once a shutdown is under way.
	 */
	uint32_t bundle_delay_us;
	/*
	 * The most paths an association under this config uses (the runtime's
	 * --max-paths), 1 .. SCTP_MAX_PATHS; 0: SCTP_MAX_PATHS. The data block
	 * holds the send side's state of that many paths (struct sctp_tx_path,
	 * 64 bytes each): a single-homed instance's blocks are 448 bytes smaller.
	 * An association with more paths than that has no send side (a config
	 * bug: the path blocks it was given held more).
	 */
	uint8_t max_paths;
};

/* Most streams one RE-CONFIG request of ours lists (RFC 6525 §4.1, §4.2); more: all. */
#define SCTP_RECONF_MAX_STREAMS 32

/*
 * Stream reconfiguration, RFC 6525 (sctp/assoc_reconf.c): the request
 * sequence numbers both ways, our one outstanding request (§5.1.1: one at a
 * time), and a peer's Outgoing SSN Reset Request waiting for our cumulative
 * TSN (§5.2.2, "deferred reset processing"). About 180 bytes, in struct
 * sctp_assoc_tx.
 */
struct sctp_assoc_reconf {
	uint32_t next_seq; /* our next Re-configuration Request Sequence Number */
	uint32_t peer_seq; /* the peer's next one we expect (§5.2.1) */
	/* Our request: the SCTP_RECONF_REQ_* parameters it carries and those not answered. */
	uint8_t req;
	uint8_t waiting;
	uint8_t n_streams;	/* streams listed, 0: all */
	uint8_t last_result[2]; /* our answers to peer_seq - 1 and peer_seq - 2 (§5.2.1) */
	bool in_progress;	/* the peer answered "In progress": resend without counting */
	uint16_t add_out;	/* streams asked for: Add Outgoing / Incoming Streams */
	uint16_t add_in;
	uint32_t out_seq; /* the sequence number of each parameter */
	uint32_t in_seq;
	uint32_t tsn_seq;
	uint32_t add_out_seq;
	uint32_t add_in_seq;
	uint32_t resp_seq; /* the Outgoing SSN Reset Request's Response Sequence Number */
	uint32_t last_tsn; /* ... and its Sender's Last Assigned TSN */
	uint16_t streams[SCTP_RECONF_MAX_STREAMS];
	/* The peer's Outgoing SSN Reset Request in deferred processing. */
	bool deferred;
	uint8_t def_n; /* its streams, 0: all */
	uint32_t def_seq;
	uint32_t def_tsn;
	/* The TSNs our answer to the peer's last SSN/TSN Reset Request gave (§5.2.1 replays). */
	uint32_t tsn_local;
	uint32_t tsn_remote;
	uint16_t def_streams[SCTP_RECONF_MAX_STREAMS];
};
#define SCTP_RECONF_REQ_OUT	0x01u /* Outgoing SSN Reset Request (§4.1) */
#define SCTP_RECONF_REQ_IN	0x02u /* Incoming SSN Reset Request (§4.2) */
#define SCTP_RECONF_REQ_TSN	0x04u /* SSN/TSN Reset Request (§4.3) */
#define SCTP_RECONF_REQ_ADD_OUT 0x08u /* Add Outgoing Streams Request (§4.5) */
#define SCTP_RECONF_REQ_ADD_IN	0x10u /* Add Incoming Streams Request (§4.6) */

/*
 * The send side's state of one path, 64 bytes (a cache line; static_assert
 * in assoc_send.c): congestion state (§7.2: per destination), its T3-rtx
 * deadline, and RFC 8899's search for its MTU (sctp/plpmtud.h; DISABLED
 * when off for the path).
 */
struct sctp_tx_path {
	struct sctp_cc_path cc;
	uint64_t t3_at; /* T3-rtx deadline; SCTP_TIME_NEVER: off */
	struct sctp_plpmtud plp;
};

/*
 * The send side's state (sctp/assoc_send.c), inside the association's
 * data_mem block: the send and retransmission queues, each path's
 * congestion state, T3-rtx deadline and PLPMTUD (path[], n_paths of them
 * right after this struct in the block: sctp_data_config.max_paths), Fast
 * Recovery, the next TSN. Read-only for callers (tests read cwnd and
 * flight).
 */
struct sctp_assoc_tx {
	struct sctp_rtxq rtxq;		 /* 64 bytes */
	struct sctp_outq outq;		 /* 48 bytes */
	struct sctp_rtxq_env env;	 /* pool, buffer ops, max_chunks */
	const struct sctp_cc_params *cc; /* checked parameters */
	struct sctp_tx_path *path;	 /* n_paths entries, behind this struct in data_mem */
	uint8_t n_paths;		 /* at least the association's paths.n */
	struct sctp_cc_recovery fr;	 /* §7.2.4: one per association */
	uint32_t next_tsn;		 /* TSN of the next new chunk */
	uint16_t mtu;			 /* interface MTU: where paths start */
	/* While ops->send / send_data runs: sctp_assoc_frag_mtu(). */
	uint16_t frag_mtu;
	bool fast_rtx; /* one fast-retransmit packet owed, cwnd ignored */
	/*
	 * A SACK (or a SHUTDOWN's Cumulative TSN Ack) was accepted since DATA
	 * last went out: the peer is alive and has seen what we sent. While
	 * probing a zero window (§6.1 A) it tells an answered probe, whose
	 * T3-rtx expiry counts no error, from one into silence, which counts.
	 */
	bool sack_since_data;
	/* A SCTP_SEND_SACK_NOW message is queued: nothing is held back for bundling. */
	bool no_hold;
	/*
	 * PR-SCTP (RFC 3758): a message with a policy was queued since the
	 * send side started, so expiry is looked for after T3-rtx and fast
	 * retransmit (RFC 7496 §4's limit); pr_next is the earliest TTL
	 * deadline queued or in flight (SCTP_TIME_NEVER: none), before which no
	 * flush walks the queues for it.
	 */
	bool pr_used;
	uint64_t pr_next;
	/*
	 * A message abandoned part way whose never-sent last fragment still
	 * needs its TSN (sctp_rtxq_add_skip()): taken before any new chunk.
	 */
	bool skip_due;
	uint8_t skip_flags; /* the message's U bit */
	uint16_t skip_sid;
	uint16_t skip_ssn;
	uint8_t skip_policy;
	/* sctp_data_config.bundle_delay_us in ns, 0: never hold back. */
	uint64_t bundle_delay_ns;
	/*
	 * When the queue last went from empty to not empty: no message queued
	 * is older, so holding until hold_since + bundle_delay_ns waits no
	 * message longer than the delay. SCTP_TIME_NEVER while empty.
	 */
	uint64_t hold_since;
	struct sctp_assoc_reconf reconf; /* RFC 6525 (sctp/assoc_reconf.c) */
	/* The T3-rtx episode being judged spurious or not (sctp/spurious.h). */
	struct sctp_spurious spur;
};

/* RFC 6458 sac_state, with names of our own (docs/ARCHITECTURE.md decision 9). */
enum sctp_notify_type {
	SCTP_NOTIFY_COMM_UP = 1,       /* ESTABLISHED reached */
	SCTP_NOTIFY_COMM_LOST,	       /* an established association ended abnormally */
	SCTP_NOTIFY_SHUTDOWN_COMPLETE, /* graceful close done */
	SCTP_NOTIFY_CANT_START,	       /* the handshake failed */
	SCTP_NOTIFY_RESTART,	       /* the peer restarted (§5.2.4 A): new tags, TSNs, streams */
	SCTP_NOTIFY_PEER_ADDR_CHANGE,  /* RFC 6458 SCTP_PEER_ADDR_CHANGE: addr, addr_state */
	SCTP_NOTIFY_REMOTE_ERROR,      /* RFC 6458 SCTP_REMOTE_ERROR: error, causes */
	SCTP_NOTIFY_SEND_FAILED,       /* RFC 6458 SCTP_SEND_FAILED_EVENT: sid, ppid, length */
	SCTP_NOTIFY_STREAM_RESET,      /* RFC 6525 §6.1.1 SCTP_STREAM_RESET_EVENT: reset_flags,
					  streams (n_streams 0: all) */
	SCTP_NOTIFY_ASSOC_RESET,       /* §6.1.2 SCTP_ASSOC_RESET_EVENT: reset_flags, local_tsn,
					  remote_tsn */
	SCTP_NOTIFY_STREAM_CHANGE,     /* §6.1.3 SCTP_STREAM_CHANGE_EVENT: reset_flags, the new
					  inbound_streams and outbound_streams */
	SCTP_NOTIFY_PATH_MTU,	       /* a path's MTU changed (docs/PMTU.md): addr, mtu (no RFC
					  6458 equivalent; Linux says nothing) */
};

/* RFC 6525 §6.1 flags of the three reconfiguration notifications (the socket API's values). */
#define SCTP_RESET_INCOMING_SSN	  0x0001u /* STREAM_RESET: the peer's outgoing streams, ours in */
#define SCTP_RESET_OUTGOING_SSN	  0x0002u /* STREAM_RESET: our outgoing streams */
#define SCTP_RESET_DENIED	  0x0004u /* the peer refused the request */
#define SCTP_RESET_FAILED	  0x0008u /* the request failed (an error result) */
#define SCTP_RESET_ASSOC_DENIED	  SCTP_RESET_DENIED
#define SCTP_RESET_ASSOC_FAILED	  SCTP_RESET_FAILED
#define SCTP_STREAM_CHANGE_DENIED SCTP_RESET_DENIED
#define SCTP_STREAM_CHANGE_FAILED SCTP_RESET_FAILED

/* RFC 6458 §6.1.2 spc_state, with names of our own. */
enum sctp_addr_change {
	SCTP_ADDR_CHANGE_AVAILABLE = 1,	     /* active again (§8.2, §8.3, RFC 7829) */
	SCTP_ADDR_CHANGE_UNREACHABLE,	     /* inactive: errors above Path.Max.Retrans (§8.2) */
	SCTP_ADDR_CHANGE_POTENTIALLY_FAILED, /* RFC 7829 PF */
	SCTP_ADDR_CHANGE_CONFIRMED,	     /* §5.4: our heartbeat's nonce came back */
	SCTP_ADDR_CHANGE_MADE_PRIMARY,	     /* the primary path is now this address */
};

/* Why an association ended; NONE for COMM_UP. */
enum sctp_assoc_reason {
	SCTP_ASSOC_REASON_NONE = 0,
	SCTP_ASSOC_REASON_PEER_ABORT,	    /* the peer's ABORT; its causes in the notification */
	SCTP_ASSOC_REASON_USER_ABORT,	    /* sctp_assoc_abort() */
	SCTP_ASSOC_REASON_SHUTDOWN,	    /* graceful: SHUTDOWN_COMPLETE */
	SCTP_ASSOC_REASON_T1_INIT,	    /* INIT sent 1 + Max.Init.Retransmits times */
	SCTP_ASSOC_REASON_T1_COOKIE,	    /* COOKIE ECHO sent 1 + Max.Init.Retransmits times */
	SCTP_ASSOC_REASON_STALE_COOKIE,	    /* Max.Init.Retransmits restarts after Stale Cookie */
	SCTP_ASSOC_REASON_INIT_ACK_INVALID, /* INIT ACK refused (§3.3.3, §5.1.2) */
	SCTP_ASSOC_REASON_T2_SHUTDOWN,	/* SHUTDOWN (ACK) sent 1 + Association.Max.Retrans times */
	SCTP_ASSOC_REASON_T5_GUARD,	/* the shutdown took longer than 5 x RTO.Max */
	SCTP_ASSOC_REASON_PATHS_FAILED, /* §8.1: Association.Max.Retrans errors in a row */
	SCTP_ASSOC_REASON_NO_MEMORY,	/* ops->data_get() refused: ABORT, Out of Resource */
	SCTP_ASSOC_REASON_PROTOCOL,	/* the peer broke the protocol: ABORT sent */
};

struct sctp_assoc;

/*
 * What the user is told (RFC 6458 §6.1.1 SCTP_ASSOC_CHANGE). Views are
 * valid only during the callback.
 */
struct sctp_notification {
	const struct sctp_assoc *assoc;
	uint8_t type;	/* enum sctp_notify_type: sac_state */
	uint8_t reason; /* enum sctp_assoc_reason */
	uint16_t error; /* sac_error / sre_error: first cause code of the peer's ABORT or ERROR */
	uint16_t outbound_streams; /* sac_outbound_streams */
	uint16_t inbound_streams;  /* sac_inbound_streams */
	uint32_t extensions;	   /* sac_info of COMM_UP: SCTP_COOKIE_EXT_* */
	/* sac_info of a peer ABORT, sre_data of an ERROR: the causes as received. */
	const uint8_t *abort_causes;
	uint16_t abort_causes_len;
	/* PEER_ADDR_CHANGE: spc_aaddr and spc_state (enum sctp_addr_change). */
	uint8_t addr_state;
	struct sctp_addr addr;
	/*
	 * SEND_FAILED, once per message not (wholly) acknowledged at close or
	 * restart: its stream, PPID and length; sent: some of it went out (the
	 * peer may have it, RFC 6458 SCTP_DATA_SENT), else SCTP_DATA_UNSENT.
	 */
	uint16_t sid;
	bool sent;
	uint8_t pr_policy; /* SEND_FAILED: the PR-SCTP policy that abandoned it; 0: closed */
	uint32_t ppid;
	uint32_t length;
	uint32_t context; /* SEND_FAILED: the message's (sctp_assoc_send_ctx()); 0 without */
	/*
	 * STREAM_RESET, ASSOC_RESET, STREAM_CHANGE (RFC 6525 §6.1): the
	 * SCTP_RESET_* flags; the streams reset (host order, valid during the
	 * call; n_streams 0 means all); the next TSNs after an association
	 * reset.
	 */
	uint16_t reset_flags;
	uint16_t n_streams;
	const uint16_t *streams;
	uint32_t local_tsn;
	uint32_t remote_tsn;
	/* PATH_MTU: the path's new MTU, IP header included (addr names the path). */
	uint16_t mtu;
};

struct sctp_assoc_handshake;

/* One DATA chunk of a packet for ops->send_data. */
struct sctp_tx_seg {
	uint8_t hdr[20];	   /* chunk header and fixed part, network order: DATA's
				      TSN, SID, SSN, PPID; I-DATA's TSN, SID, MID, PPID/FSN */
	uint8_t hdr_len;	   /* 16 (DATA) or 20 (I-DATA) */
	uint8_t pad;		   /* zero bytes after the payload, 0 .. 3 */
	struct sctp_slice payload; /* the user's bytes, never copied */
};

/*
 * The packet as one buffer: head, then each seg's header, payload and
 * padding. Returns the length, or 0 when it exceeds cap (nothing useful
 * written).
 */
size_t sctp_tx_flatten(uint8_t *out, size_t cap, const uint8_t *head, size_t head_len,
		       const struct sctp_tx_seg *segs, unsigned n_segs);

struct sctp_assoc_ops {
	/* One SCTP packet, checksum field zero, from src to dst. */
	void (*send)(void *ctx, const uint8_t *bytes, size_t len, const struct sctp_addr *src,
		     const struct sctp_addr *dst);
	void (*notify)(void *ctx, const struct sctp_notification *n);
	/*
	 * Handshake scratch for an association we initiate (1.3 KB: the peer's
	 * cookie for T1-cookie retransmissions): taken by sctp_assoc_connect(),
	 * given back when the association leaves COOKIE-WAIT / COOKIE-ECHOED.
	 * The data plane keeps a per-lcore pool sized for the handshakes it lets
	 * run at once; hs_get() returning NULL makes connect fail with -ENOBUFS.
	 * An association made from a cookie never needs one.
	 */
	struct sctp_assoc_handshake *(*hs_get)(void *ctx);
	void (*hs_put)(void *ctx, struct sctp_assoc_handshake *hs);
	/*
	 * Room for the peer's second and further addresses (sctp/path.h,
	 * "Storage"): a block of at least `want` paths, *got set to its length,
	 * or NULL. Asked for when an INIT ACK or a cookie brings more than one
	 * address; given back when the association closes. Both may be NULL: the
	 * association then keeps one path and counts the other addresses in
	 * peer_addrs_ignored (RFC 9260 does not oblige an endpoint to use all).
	 */
	struct sctp_path *(*paths_get)(void *ctx, unsigned want, unsigned *got);
	void (*paths_put)(void *ctx, struct sctp_path *block);
	/*
	 * Received messages, in order per stream (sctp/reasm.h "What the
	 * receiver sees"): each slice read with sctp_reasm_iter_*() during the
	 * call carries one reference the receiver releases.
	 */
	void (*deliver)(void *ctx, const struct sctp_reasm_msg *m);
	/*
	 * The association's data-path storage (the inbound streams' state, the
	 * TSN map's bitmap and duplicate list, and with a send side struct
	 * sctp_assoc_tx and 16 bytes per outbound stream, docs/DATAPATH.md):
	 * `bytes` 8-aligned, asked for on
	 * entering ESTABLISHED, given back at close. NULL: the association
	 * aborts with Out of Resource.
	 */
	void *(*data_get)(void *ctx, size_t bytes);
	void (*data_put)(void *ctx, void *mem);
	/*
	 * One packet with DATA, zero copy (docs/DATAPATH.md): head[0 ..
	 * head_len - 1] is the common header (checksum zero) and any control
	 * chunk bundled ahead (a SACK); then each seg is one DATA (or I-DATA)
	 * chunk: its hdr_len header bytes, its payload slice, its padding
	 * (zero bytes). The
	 * caller copies or chains; the slices stay valid (the association holds
	 * them) until acknowledged, but a caller that keeps one past the call
	 * takes its own hold(). NULL: the association flattens the packet into
	 * a buffer on its stack (sctp_tx_flatten()) and calls send.
	 */
	void (*send_data)(void *ctx, const uint8_t *head, size_t head_len,
			  const struct sctp_tx_seg *segs, unsigned n_segs,
			  const struct sctp_addr *src, const struct sctp_addr *dst);
	/*
	 * A budget for heartbeats (sctp/path.h, sctp_paths_hb_budgeted()):
	 * asked before each HEARTBEAT to an idle path (§8.3) that has no slot
	 * yet (probe false): 0 sends it now, anything else is the wait in ns
	 * until the slot the budget grants it, where it goes without asking
	 * again. Told of each probe of an unconfirmed or potentially-failed
	 * path (probe true), which goes whatever the answer: the budget may
	 * count it, so that idle heartbeats yield to probes. NULL: no budget.
	 * The data plane keeps one per worker (--hb-rate).
	 */
	uint64_t (*hb_admit)(void *ctx, uint64_t now_ns, bool probe);
};

/* Most bytes of a packet the association builds (a COOKIE ECHO is the longest). */
#define SCTP_ASSOC_TX_MAX 1500u
/*
 * Longest peer State Cookie we keep for T1-cookie retransmissions. Ours is
 * at most 266 bytes; stacks that copy the INIT and the INIT ACK into their
 * cookie (usrsctp) reach 500 to 800 bytes. A longer one is answered with an
 * ABORT carrying Out of Resource.
 */
#define SCTP_ASSOC_COOKIE_MAX 1024u
/* Unrecognized INIT ACK parameters echoed in an ERROR (§3.2.2): what fits. */
#define SCTP_ASSOC_REPORT_MAX 256u

/*
 * Handshake state of an association we initiate: dead once ESTABLISHED.
 * Not part of the association (the 512-byte goal of docs/ARCHITECTURE.md decision 6
 * counts an established one): ops->hs_get() lends it for COOKIE-WAIT and
 * COOKIE-ECHOED only.
 */
struct sctp_assoc_handshake {
	uint64_t sent_ns;	  /* first transmission of the outstanding INIT / COOKIE ECHO */
	bool retransmitted;	  /* then no RTT sample from its answer (Karn, §6.3.1 C5) */
	uint32_t preservative_ms; /* Cookie Preservative of the next INIT (§5.2.6), 0: none */
	uint16_t cookie_len;
	uint16_t report_len;
	uint8_t cookie[SCTP_ASSOC_COOKIE_MAX];
	uint8_t report[SCTP_ASSOC_REPORT_MAX]; /* Unrecognized Parameter TLVs, padded */
};

/*
 * 416 bytes on LP64 (the send side's state is in data_mem, behind tx;
 * 392 before the per-association options pointer and path MTU discovery),
 * laid out by how often a field is read (docs/ARCHITECTURE.md
 * decision 6; static_asserts in sctp/assoc.c, sizes printed by
 * bench_endpoint and AssocSize.ReportSizes):
 *
 *   line 0 (bytes 0-63)    what every packet in or out reads: state, ports,
 *                          tags, the peer's window, the extensions, and the
 *                          endpoint, callbacks and counters;
 *   line 1 (64-127)        the path set's header and path 0's hot fields
 *                          (state, errors, RTO, last send: sctp/path.h);
 *   then                   the rest of path 0, the timers (read after every
 *                          input), the handshake leftovers and our address.
 *
 * The receive side's state (TSN map, reassembly) follows them; the send
 * side's is in data_mem, behind tx. The budget is 512 bytes.
 */
struct sctp_assoc {
	/* Line 0. */
	uint8_t state;		 /* enum sctp_assoc_state */
	bool shutdown_requested; /* user SHUTDOWN in COOKIE-ECHOED: run it once ESTABLISHED */
	bool freeable;		 /* CLOSED and reported: the caller may free or reuse it */
	/* tx->reconf.deferred, here where every packet's end looks (assoc_reconf.c) */
	bool reconf_deferred;
	uint16_t local_port;
	uint16_t peer_port;
	uint32_t local_vtag; /* our Initiate Tag: what the peer puts in its packets */
	uint32_t peer_vtag;  /* the peer's Initiate Tag; 0 until known */
	uint32_t extensions; /* SCTP_COOKIE_EXT_* both sides support */
	uint32_t peer_a_rwnd;
	uint16_t outbound_streams; /* min(our OS, peer MIS), §5.1.1 */
	uint16_t inbound_streams;  /* min(peer OS, our MIS) */
	struct sctp_endpoint *ep;  /* profile, cookie keys, tag and random strategies */
	const struct sctp_assoc_ops *ops;
	void *ctx;
	struct sctp_assoc_counters *counters; /* the owner's, shared by its associations */
	/* Line 1 and on: the peer's addresses, each with its RTO and state. */
	struct sctp_paths paths;
	/*
	 * The parameters in force: ep's profile, or the caller's per-association
	 * block once an option is set (sctp/assoc_opt.h); see assoc_profile().
	 */
	const struct sctp_profile *prof;
	uint64_t timer_at[SCTP_ASSOC_TIMER_COUNT]; /* deadlines; SCTP_TIME_NEVER: stopped */
	uint32_t local_initial_tsn;
	uint32_t peer_initial_tsn;
	/* Retransmissions of the packet the running timer guards. */
	uint16_t init_rtx;	 /* INIT or COOKIE ECHO, against Max.Init.Retransmits */
	uint16_t shutdown_rtx;	 /* SHUTDOWN or SHUTDOWN ACK, against Association.Max.Retrans */
	uint16_t stale_restarts; /* §5.2.6 restarts, against Max.Init.Retransmits */
	struct sctp_addr local_addr;
	struct sctp_assoc_handshake *hs; /* non-NULL exactly in COOKIE-WAIT and COOKIE-ECHOED */
	/* Receive side, RFC 9260 §6.2, §6.5-§6.9 (sctp/assoc_data.c). */
	struct sctp_tsn_map rx_tsn;
	/* DATA's reassembly, or I-DATA's when negotiated (SCTP_COOKIE_EXT_I_DATA). */
	union {
		struct sctp_reasm rx_reasm;
		struct sctp_ireasm rx_ireasm;
	};
	union {
		struct sctp_reasm_stream *rx_streams; /* in data_mem, one per inbound stream */
		struct sctp_ireasm_stream *rx_istreams;
	};
	void *data_mem;		/* from ops->data_get(), NULL outside ESTABLISHED+ */
	uint16_t rx_pkts;	/* packets with DATA since our last SACK */
	uint8_t rx_sack_now;	/* SACK policy bits (assoc_data.c) */
	uint8_t rx_path;	/* path of the last packet with DATA: SACKs go there */
	uint32_t rx_unconsumed; /* delivered, not yet consumed (rwnd_counts_delivered) */
	uint32_t rx_rwnd_sent;	/* the a_rwnd our last SACK carried */
	/* Send side, in data_mem; NULL when not configured or outside ESTABLISHED+. */
	struct sctp_assoc_tx *tx;
	/* This association's figures (the caller's), beside tx: the data path's line. */
	struct sctp_assoc_stats *stats;
};

/*
 * Make a CLOSED association with nothing running. ops (send and notify),
 * counters (the owner's, shared by its associations) and stats (this
 * association's own) are the caller's and must outlive it.
 */
void sctp_assoc_init(struct sctp_assoc *a, const struct sctp_assoc_ops *ops, void *ctx,
		     struct sctp_assoc_counters *counters, struct sctp_assoc_stats *stats);

/*
 * Client side, RFC 9260 §5.1 A: send an INIT from local to peer, start
 * T1-init, enter COOKIE-WAIT. Our Initiate Tag is ep->cfg.choose_tag(ctx,
 * NULL) (NULL: an association we initiate), our Initial TSN
 * ep->cfg.random32(). 0; -EISCONN unless CLOSED; -EINVAL for a missing
 * endpoint, an address that is not IPv4 or IPv6, or a port 0; -ENOBUFS when
 * ops->hs_get() has no handshake scratch to lend.
 */
int sctp_assoc_connect(struct sctp_assoc *a, struct sctp_endpoint *ep, const struct sctp_addr *peer,
		       const struct sctp_addr *local, uint16_t local_port, uint16_t peer_port,
		       uint64_t now_ns);

/*
 * The same with n_peers addresses of the peer (RFC 6458 sctp_connectx()):
 * the INIT goes to peers[0], the primary; all of them are confirmed (RFC
 * 9260 §5.4 rule 1). -EINVAL also for n_peers 0; addresses beyond what
 * ops->paths_get() gives room for are ignored and counted.
 */
int sctp_assoc_connectx(struct sctp_assoc *a, struct sctp_endpoint *ep,
			const struct sctp_addr *peers, unsigned n_peers,
			const struct sctp_addr *local, uint16_t local_port, uint16_t peer_port,
			uint64_t now_ns);

/*
 * Server side, RFC 9260 §5.1 D: the endpoint verified a COOKIE ECHO and
 * sent the COOKIE ACK (SCTP_OOTB_NEW_ASSOC); build the association from
 * the cookie, ESTABLISHED, and notify COMM_UP. Then pass the same packet
 * to sctp_assoc_input_after_cookie() for the chunks bundled after the
 * COOKIE ECHO. 0; -EISCONN unless CLOSED; -EINVAL without an endpoint.
 */
int sctp_assoc_from_cookie(struct sctp_assoc *a, struct sctp_endpoint *ep,
			   const struct sctp_cookie_state *st, uint64_t now_ns);

/*
 * A packet for this association (the caller found it by tag, ports and
 * addresses; CRC verified). Chunks are walked once; each is checked
 * against the tag rule of its cell and dispatched.
 */
void sctp_assoc_input(struct sctp_assoc *a, const struct sctp_rx *rx, uint64_t now_ns);

/* The same, skipping the first chunk (the COOKIE ECHO the endpoint took). */
void sctp_assoc_input_after_cookie(struct sctp_assoc *a, const struct sctp_rx *rx, uint64_t now_ns);

/* Fire every timer whose deadline is at or before now_ns. */
void sctp_assoc_timeout(struct sctp_assoc *a, uint64_t now_ns);

/* The earliest deadline, or SCTP_TIME_NEVER. */
uint64_t sctp_assoc_next_wakeup(const struct sctp_assoc *a);

/*
 * User SHUTDOWN, RFC 9260 §9.2. 0; -ENOTCONN when CLOSED; -EALREADY when a
 * shutdown is under way. In COOKIE-WAIT the association just closes (the
 * peer holds no state); in COOKIE-ECHOED it shuts down once established.
 */
int sctp_assoc_shutdown(struct sctp_assoc *a, uint64_t now_ns);

/*
 * User ABORT, RFC 9260 §9.1: an ABORT with a User-Initiated Abort cause
 * carrying reason (may be empty), then CLOSED. In COOKIE-WAIT nothing is
 * sent: the peer has no TCB. 0, or -ENOTCONN when CLOSED.
 */
int sctp_assoc_abort(struct sctp_assoc *a, uint64_t now_ns, const uint8_t *reason,
		     uint16_t reason_len);

/*
 * The user's SETPRIMARY (RFC 9260 §11.1 SET PRIMARY, RFC 6458
 * SCTP_PRIMARY_ADDR): 0; -ENOTCONN when CLOSED; -EADDRNOTAVAIL for an
 * address that is not one of the peer's; -EINVAL for one not yet
 * confirmed (§5.4). New data moves at once if the path is active.
 */
int sctp_assoc_set_primary(struct sctp_assoc *a, const struct sctp_addr *peer, uint64_t now_ns);

/* sctp_assoc_send() flags. */
#define SCTP_SEND_UNORDERED SCTP_OUTQ_UNORDERED /* §6.6: U bit, no SSN */
#define SCTP_SEND_SACK_NOW  SCTP_OUTQ_SACK_NOW	/* RFC 7053: I bit on the last fragment */

/*
 * Queue only, like MSG_MORE: the caller promises another send or a
 * sctp_assoc_flush() soon, so that the messages of one receive burst leave
 * bundled (RFC 9260 §6.10) instead of one packet each. Any input or timer
 * before that sends them too.
 */
#define SCTP_SEND_MORE 0x40u

/*
 * The application is done with `bytes` of what was delivered (with
 * sctp_data_config.rwnd_counts_delivered on). When our window has grown by
 * at least min(MTU, half the buffer) since the last SACK, a SACK goes out
 * at once to say so (receiver-side silly window avoidance, as RFC 9260
 * §6.2 and RFC 1122 §4.2.3.3 describe for TCP); smaller growth waits for
 * the next SACK. 0; -ENOTCONN without a receive path.
 */
int sctp_assoc_consumed(struct sctp_assoc *a, uint32_t bytes, uint64_t now_ns);

/*
 * Queue one message (RFC 9260 §6.1, §6.5, §6.6, §6.9) on stream sid, then
 * send what the windows allow (with SCTP_SEND_MORE: only queue). The
 * caller's reference to msg->handle passes to the association on success
 * only. 0; -ENOTCONN before ESTABLISHED and when CLOSED; -ESHUTDOWN once
 * a shutdown is under way (§9.2: no new data); -EOPNOTSUPP without a send
 * side configured (sctp_data_config); the send queue's -EINVAL (bad
 * stream, empty message, unknown flags), -EMSGSIZE, -ENOBUFS
 * (per-association limits: retry later) and -ENOMEM (pool).
 */
int sctp_assoc_send(struct sctp_assoc *a, uint16_t sid, uint32_t ppid, uint8_t flags,
		    const struct sctp_slice *msg, uint64_t now_ns);

/*
 * PR-SCTP (RFC 3758, RFC 7496) policies of sctp_assoc_send_pr(), the
 * numbers of the RFC 6458/7496 socket API's SCTP_PR_SCTP_NONE, _TTL, _RTX
 * and _PRIO.
 */
#define SCTP_PR_NONE SCTP_RTXQ_PR_NONE /* reliable */
#define SCTP_PR_TTL  SCTP_RTXQ_PR_TTL  /* value: lifetime in ms from the send call */
#define SCTP_PR_RTX  SCTP_RTXQ_PR_RTX  /* value: retransmissions allowed (0: sent once) */
#define SCTP_PR_PRIO                                                                               \
	SCTP_RTXQ_PR_PRIO /* value: priority, 0 highest; lower ones are                            \
			     abandoned to make room (RFC 7496 §4) */

/*
 * sctp_assoc_send() with a PR-SCTP policy: the message may be abandoned
 * (RFC 3758 §3.5) once its lifetime is over, once a chunk of it would be
 * retransmitted more than value times, or to make room for a message of
 * higher priority when the send queue is full; the peer is then told with
 * a FORWARD TSN, and the application with a SEND_FAILED notification
 * (pr_policy set, sent as RFC 6458 SCTP_DATA_SENT / SCTP_DATA_UNSENT).
 * With a peer that did not negotiate PR-SCTP (a->extensions without
 * SCTP_COOKIE_EXT_FORWARD_TSN) the message goes reliably and
 * pr_unsupported counts it, as Linux does. Returns sctp_assoc_send()'s
 * values, and -EINVAL for an unknown policy or a TTL of 0 ms; -EOPNOTSUPP
 * for a policy when the data config has no PR slots in its pools.
 */
int sctp_assoc_send_pr(struct sctp_assoc *a, uint16_t sid, uint32_t ppid, uint8_t flags,
		       const struct sctp_slice *msg, uint8_t pr_policy, uint32_t pr_value,
		       uint64_t now_ns);

/*
 * sctp_assoc_send_pr() with the application's context for the message (RFC
 * 6458 snd_context): every SEND_FAILED notification about the message
 * carries it (struct sctp_notification context). A context other than 0
 * needs context slots in the data config's pools (sctp_outq_pool_attach_ctx(),
 * sctp_rtxq_pool_attach_ctx()): -EINVAL without; otherwise send_pr's values.
 */
int sctp_assoc_send_ctx(struct sctp_assoc *a, uint16_t sid, uint32_t ppid, uint8_t flags,
			const struct sctp_slice *msg, uint8_t pr_policy, uint32_t pr_value,
			uint32_t context, uint64_t now_ns);

/*
 * The stream scheduler of this association's send queue (enum
 * sctp_outq_sched, RFC 8260 §3; sctp/outq.h): the data config's sched
 * until changed. Changing it takes effect for the next chunk: 0; -EINVAL
 * for an unknown scheduler; -EBUSY while messages are queued (the
 * schedulers keep different state over the same queue); -ENOTCONN with no
 * send side (before ESTABLISHED, after CLOSED, or none configured).
 */
int sctp_assoc_set_sched(struct sctp_assoc *a, unsigned sched);

/* The scheduler in use, or -ENOTCONN as above. */
int sctp_assoc_sched(const struct sctp_assoc *a);

/*
 * Outbound stream sid's scheduler parameter (RFC 8260 §3.4 priority, lower
 * first, or §3.6 weight, 0 counting as 1), at any time, messages queued or
 * not: 0; -EINVAL for a stream the association does not have, or a weight
 * of 0 under weighted fair queueing; -ENOTCONN as above. Every stream
 * starts at 0 (the highest priority; weight 1).
 */
int sctp_assoc_set_stream_param(struct sctp_assoc *a, uint16_t sid, uint16_t value);

/* Stream sid's parameter, or -EINVAL / -ENOTCONN as above. */
int sctp_assoc_stream_param(const struct sctp_assoc *a, uint16_t sid);

/*
 * Stream reconfiguration (RFC 6525), when both sides negotiated RE-CONFIG
 * (SCTP_COOKIE_EXT_RECONFIG). One request is outstanding at a time; its
 * outcome comes as SCTP_NOTIFY_STREAM_RESET / _ASSOC_RESET / _STREAM_CHANGE.
 *
 * sctp_assoc_reset_streams(): reset the numbering of the streams listed
 * (n 0: every stream), our outgoing ones (SCTP_STREAM_RESET_OUTGOING, the
 * peer resets its incoming side once it has every TSN we sent before), the
 * peer's outgoing ones (SCTP_STREAM_RESET_INCOMING, it then resets them as
 * above), or both. An outgoing stream being reset takes no new message
 * (-EAGAIN) until the answer. 0 when the request went out; -EOPNOTSUPP
 * without RE-CONFIG negotiated; -ENOTCONN outside ESTABLISHED; -EINPROGRESS
 * while a request is outstanding; -EINVAL for no flag, a stream the
 * association does not have, or more than SCTP_RECONF_MAX_STREAMS listed;
 * -EAGAIN while a message is queued on an outgoing stream to reset (as
 * Linux: send it, or let it go, first).
 */
#define SCTP_STREAM_RESET_INCOMING 0x01u
#define SCTP_STREAM_RESET_OUTGOING 0x02u
int sctp_assoc_reset_streams(struct sctp_assoc *a, unsigned flags, const uint16_t *sids, uint16_t n,
			     uint64_t now_ns);

/*
 * Add out outbound streams (Add Outgoing Streams, §5.1.5) and ask the peer
 * for in more of its own, our inbound (Add Incoming Streams, §5.1.6; it
 * answers with its own Add Outgoing Streams). The new streams need a larger
 * data block (ops->data_get(), then the old one goes back): the side that
 * cannot have it answers "Denied" (or its STREAM_CHANGE says FAILED). The
 * new counts come with SCTP_NOTIFY_STREAM_CHANGE. 0; -EINVAL for nothing to
 * add or a count past 65,535; the others as sctp_assoc_reset_streams().
 */
int sctp_assoc_add_streams(struct sctp_assoc *a, uint16_t out, uint16_t in, uint64_t now_ns);

/*
 * SSN/TSN Reset (§5.1.4): both sides start every stream at 0 and take new
 * TSNs (SCTP_NOTIFY_ASSOC_RESET gives them). Only with nothing of ours
 * queued or unacknowledged (-EAGAIN otherwise); no new message is taken
 * until the answer. The other values as sctp_assoc_reset_streams().
 */
int sctp_assoc_reset_assoc(struct sctp_assoc *a, uint64_t now_ns);

/*
 * Send what SCTP_SEND_MORE left queued, as far as the windows allow (and
 * the bundling delay: a partial packet may still wait for it). 0;
 * -ENOTCONN before ESTABLISHED and when CLOSED. In the shutdown states it
 * sends what is left (§9.2) and returns 0.
 */
int sctp_assoc_flush(struct sctp_assoc *a, uint64_t now_ns);

/* An ICMP error quoting a packet this association sent (RFC 9260 appendix C). */
enum sctp_icmp_kind {
	SCTP_ICMP_FRAG_NEEDED = 0, /* ICMP 3/4, ICMPv6 Packet Too Big: mtu */
	SCTP_ICMP_PROTO_UNREACH,   /* ICMP 3/2, ICMPv6 Parameter Problem 1 */
	SCTP_ICMP_PORT_UNREACH,	   /* ICMP 3/3, ICMPv6 1/4: meaningful over UDP (RFC 6951) */
	SCTP_ICMP_UNREACH,	   /* other destination unreachable codes */
};

struct sctp_icmp {
	uint8_t kind;	      /* enum sctp_icmp_kind */
	bool udp_encap;	      /* the quoted packet was SCTP over UDP */
	uint32_t mtu;	      /* FRAG_NEEDED: the next-hop MTU, 0 when not given */
	uint32_t vtag;	      /* the quoted common header's verification tag */
	const uint8_t *quote; /* the quoted SCTP bytes from the common header on */
	uint32_t quote_len;
	struct sctp_addr peer; /* the quoted destination: one of the peer's addresses */
};

/*
 * RFC 9260 appendix C for one ICMP error the caller matched to this
 * association by (peer address, ports). ICMP6: the quoted tag must be the
 * peer's, or 0 with a quoted INIT whose Initiate Tag is ours; anything else
 * is discarded (icmp_bad_tag, -EINVAL). ICMP8: protocol unreachable (and,
 * over UDP encapsulation, port unreachable, RFC 6951 §5.5) ends the
 * association as an ABORT from the peer would — during the handshake only
 * while in COOKIE-WAIT when the quote is our INIT. ICMP7 (Fragmentation
 * Needed, Packet Too Big), with profile.pmtud on and a send side: when the
 * quote's first chunk is DATA or I-DATA its TSN must be outstanding (after
 * the Cumulative TSN Ack Point, at most the highest TSN sent), else it is
 * discarded (icmp_pmtu_bad_tsn, -EINVAL); an MTU at or above the quoted
 * path's is ignored (icmp_pmtu_not_lower); otherwise the path's MTU falls
 * to it, never below the family's floor (icmp_pmtu_applied, docs/PMTU.md).
 * ICMP9 (other unreachables) is counted, not acted on (icmp_ignored).
 * Returns 0, -EINVAL (tag, TSN) or -ENOTCONN (CLOSED).
 */
int sctp_assoc_icmp(struct sctp_assoc *a, const struct sctp_icmp *e, uint64_t now_ns);

/*
 * Exactly the bytes an association with these stream counts asks
 * ops->data_get() for under the data config d (the block's layout is in
 * docs/DATAPATH.md): the inbound streams' reassembly state, the TSN map's
 * bitmap and duplicate list, and, when d has the send side's pools, struct
 * sctp_assoc_tx and the outbound streams' entries. 0 for a NULL d (no data
 * path: nothing is asked for). A runtime sizes its blocks with it for the
 * most streams it negotiates (the counts are at most the profile's
 * out_streams and max_in_streams).
 */
size_t sctp_assoc_data_bytes(const struct sctp_data_config *d, uint16_t inbound_streams,
			     uint16_t outbound_streams);

/*
 * The association's invariants (sctp/assoc_check.c: the state against the
 * handshake scratch, the data block and the timers; the path set's
 * indices; the receive side's TSN map; the send side's queues against
 * their recounts, flights, TSNs and T3-rtx deadlines). NULL when all hold,
 * else a static string naming the first broken one. Builds with
 * SCTP_ASSOC_CHECK defined (the unit, sim and fuzz builds) run it after
 * every entry point above and abort on a broken one; it reads every queued
 * chunk, so the data plane's build never calls it.
 */
const char *sctp_assoc_check(const struct sctp_assoc *a);

/*
 * Path MTU per path (docs/PMTU.md), for RFC 6458 SCTP_PEER_ADDR_PARAMS
 * (spp_pathmtu, SPP_PMTUD_ENABLE / SPP_PMTUD_DISABLE). Stable: the option
 * API is built on these two calls.
 *
 * sctp_assoc_set_path_mtu(): mtu 0 hands path `path` back to discovery
 * (ICMP PMTUD and PLPMTUD as the profile says, starting again from the
 * interface MTU); any other value fixes its MTU (IP header included) and
 * turns discovery off for it, as SPP_PMTUD_DISABLE with spp_pathmtu does.
 * Takes effect for the next packet; DATA already sent larger is resent
 * IP-fragmented (as for an ICMP) at the association's next wake-up, which
 * the call makes due at once (sctp_assoc_next_wakeup()). 0; -ENOTCONN without a send side (before
 * ESTABLISHED, after CLOSED); -EINVAL for a path not in use, or an MTU
 * below the family's floor (576 IPv4 or profile.pmtu_min_v4, 1280 IPv6) or
 * above the interface MTU.
 *
 * sctp_assoc_path_mtu(): path `path`'s MTU, > 0; -EINVAL for a path not in
 * use; -ENOTCONN as above. *fixed (if not NULL) says whether the user
 * fixed it.
 */
int sctp_assoc_set_path_mtu(struct sctp_assoc *a, unsigned path, uint16_t mtu);
int sctp_assoc_path_mtu(const struct sctp_assoc *a, unsigned path, bool *fixed);

/*
 * During ops->send or ops->send_data only: 0 for an ordinary packet (set
 * DF, never fragment); else the packet is larger than its path's MTU and
 * must be IP-fragmented at the source into packets of at most this many
 * bytes (struct dpsctp_l3_tx.frag_mtu). Only a packet retransmitting one
 * DATA chunk cut before the path's MTU fell is (docs/PMTU.md).
 */
static inline uint16_t
sctp_assoc_frag_mtu(const struct sctp_assoc *a)
{
	return a->tx != NULL ? a->tx->frag_mtu : 0;
}

/* The path new data goes to, and the primary. */
static inline const struct sctp_path *
sctp_assoc_data_path(const struct sctp_assoc *a)
{
	return sctp_paths_get_const(&a->paths, a->paths.current);
}

static inline const struct sctp_path *
sctp_assoc_primary_path(const struct sctp_assoc *a)
{
	return sctp_paths_get_const(&a->paths, a->paths.primary);
}

static inline bool
sctp_assoc_freeable(const struct sctp_assoc *a)
{
	return a->freeable;
}

/* The row of a chunk type, given the negotiated SCTP_COOKIE_EXT_* mask. */
enum sctp_assoc_row sctp_assoc_row_of(uint8_t chunk_type, uint32_t extensions);

/* A table cell as a test or a document sees it. */
struct sctp_assoc_cell_info {
	const char *handler;	   /* function name, or "discard" / "discard_packet"; NULL: empty */
	enum sctp_assoc_drop drop; /* SCTP_ASSOC_DROP_NONE for a handler */
	enum sctp_assoc_vtag_rule vtag; /* chunk table only; ANY elsewhere */
};

/* 0, or -EINVAL for an index out of range. */
int sctp_assoc_chunk_cell(enum sctp_assoc_row row, enum sctp_assoc_state s,
			  struct sctp_assoc_cell_info *out);
int sctp_assoc_timer_cell(enum sctp_assoc_timer t, enum sctp_assoc_state s,
			  struct sctp_assoc_cell_info *out);
int sctp_assoc_user_cell(enum sctp_assoc_user_call u, enum sctp_assoc_state s,
			 struct sctp_assoc_cell_info *out);

/* Names for logs, telemetry and docs; "unknown" out of range. */
const char *sctp_assoc_state_name(enum sctp_assoc_state s);
const char *sctp_assoc_timer_name(enum sctp_assoc_timer t);
const char *sctp_assoc_row_name(enum sctp_assoc_row r);
const char *sctp_assoc_user_call_name(enum sctp_assoc_user_call u);
const char *sctp_assoc_drop_name(enum sctp_assoc_drop d);

/*
 * The events of struct sctp_assoc_counters besides drops[], one per field
 * (sctp/assoc_event.def, in the struct's order): the i-th's name (NULL past
 * the last) and value in c (0 past the last). Owners export them with the
 * discards (sctp/assoc_counters.c).
 */
enum sctp_assoc_event {
#define SCTP_ASSOC_EVENT(name, str, why) SCTP_DEF_ENUM(SCTP_ASSOC_EVT_##name)
#include "sctp/assoc_event.def"
#undef SCTP_ASSOC_EVENT
	SCTP_ASSOC_EVENT_COUNT
};
const char *sctp_assoc_event_name(enum sctp_assoc_event e);
uint64_t sctp_assoc_event_value(const struct sctp_assoc_counters *c, enum sctp_assoc_event e);
const char *sctp_assoc_drop_describe(enum sctp_assoc_drop d);

#endif /* SCTP_ASSOC_H */
