/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sender's retransmission queue and SACK processing: every DATA chunk
 * sent and not yet cumulatively acknowledged, what the peer's SACKs say
 * about each, and what the association must do about it. RFC 9260 §6.1
 * (the peer's rwnd, rule A), §6.2.1 (processing a received SACK: rwnd, out
 * of order SACKs, reneging, Fast Recovery exit point), §6.3.1 C5 (Karn),
 * §6.3.2 (T3-rtx rules R2-R4), §6.3.3 E3 (T3-rtx expiry), §7.2.4 (miss
 * indications, HTNA, fast retransmit once per chunk) and §12.4 (a SACK that
 * acknowledges a TSN not sent is a protocol violation: "MUST abort").
 *
 * Place in the send path. The association assigns a TSN when a chunk first
 * goes out and hands the chunk to sctp_rtxq_add() with the path it went to
 * and the payload's reference. Each SACK goes through sctp_rtxq_on_sack(),
 * whose result feeds the congestion control (sctp/cc.h, docs/CC.md: bytes
 * acknowledged and flight sizes per path, cum advanced, fast retransmit per
 * path), the RTO estimator (RTT samples per path, sctp_rto_sample()) and the
 * T3-rtx timers (masks of paths to stop, restart or start). A T3-rtx expiry
 * goes through sctp_rtxq_on_t3_expiry(); retransmissions are taken with
 * sctp_rtxq_take_rtx(); close or restart ends with sctp_rtxq_abandon().
 *
 * The queue holds exactly the TSNs cum_point + 1 .. highest sent, one node
 * each, in TSN order: TSNs are assigned in send order, sctp_rtxq_add()
 * refuses any TSN but the next one, and only a cumulative ack (or abandon)
 * removes nodes, from the head. So appends are O(1), the number of chunks
 * queued is highest - cum_point, and "the highest TSN sent" is the tail's.
 *
 * A chunk is in exactly one of three states:
 *   IN_FLIGHT   sent, not acknowledged: RFC 9260 §1.3's "outstanding data",
 *               counted in its path's flight size and against the peer's
 *               rwnd.
 *   GAP_ACKED   acknowledged by a Gap Ack Block of the last SACK accepted;
 *               not in flight (§1.3: outstanding means "not yet received an
 *               acknowledgement"), but kept: the peer may renege (§6.2).
 *   MARKED      marked for retransmission (T3-rtx expiry or fast
 *               retransmit), not yet resent; not in flight (§1.3 "A DATA
 *               chunk that is classified as lost but that has not yet been
 *               retransmitted is not in outstanding data").
 * and, with PR-SCTP (RFC 3758), a fourth:
 *   ABANDONED   given up (sctp_rtxq_pr_expire(), sctp_rtxq_pr_evict()): its
 *               reference is released, it is in no flight and no count, and
 *               it stays in the list until the peer's cumulative TSN passes
 *               it (after our FORWARD TSN, sctp_rtxq_fwd_tsn()); then it
 *               leaves like any acked chunk, with no second release.
 * plus two history bits: FAST_RTX (fast-retransmitted once, never again,
 * §7.2.4 rule 5) and RETRANSMITTED (sent more than once: no RTT sample,
 * §6.3.1 C5).
 *
 * Units. Flight sizes are bytes of DATA chunks, header and padding
 * included: 16 + the payload rounded up to 4 (§7.2: "the length of the DATA
 * chunk, including the padding, SHOULD be used"), the unit of sctp/cc.h.
 * The peer's rwnd counts payload bytes only: §6.2.1 B subtracts "the data
 * size of the chunk", and the receiver's a_rwnd counts "bytes received and
 * buffered" (§6.2), not our headers. rwnd = max(0, a_rwnd of the last SACK
 * accepted - payload bytes in flight): §6.2.1 B, C and D ii in one formula,
 * computed when asked (sctp_rtxq_rwnd()).
 *
 * Zero copy and references (sctp/buf.h). sctp_rtxq_add() takes over the
 * caller's reference to the payload (no hold() here); the queue calls
 * ops->release() exactly once per chunk, when a SACK acknowledges it
 * cumulatively, when PR-SCTP abandons it (sctp_rtxq_pr_expire(),
 * sctp_rtxq_pr_evict()) or on sctp_rtxq_abandon(), and never otherwise: not on a gap
 * ack (the peer may renege), not on marking, not on retransmission. A
 * retransmission is lent the queue's slice (sctp_rtxq_take_rtx()): the
 * same bytes go out again. NULL handles are never released. release() is
 * called from inside sctp_rtxq_on_sack(), the PR-SCTP calls and
 * sctp_rtxq_abandon(), with the queue half updated: it must not call into
 * this module.
 *
 * Memory. Nodes come from a pool (struct sctp_rtxq_pool: an array and a
 * free list, one per lcore, shared by its associations), 48 bytes each. The
 * per-association header is 64 bytes, one cache line: 32 of them are the
 * eight per-path flight sizes (SCTP_MAX_PATHS * 4), the rest head, tail,
 * the Cumulative TSN Ack Point, the last a_rwnd, payload bytes in flight,
 * the Karn fence and two counters. With PR-SCTP the pool has a 16-byte
 * slot per node beside the array (struct sctp_rtxq_pr_slot), and with
 * context slots (sctp_rtxq_pool_attach_ctx()) a 4-byte one holding the
 * chunk's message context; the node and the header do not grow. Nothing
 * here allocates.
 *
 * Costs, Q being the chunks queued, A those a SACK acknowledges
 * cumulatively, G its gap blocks, W the chunks from the new cum point to
 * max(the last gap block's end, the highest chunk gap-acked before):
 *   sctp_rtxq_add()             O(1)
 *   SACK, no gap blocks and nothing gap-acked before   O(A): the common case
 *   SACK with gap blocks        O(A + G + W), W walked twice at most (acks,
 *                               then miss indications up to the HTNA)
 *   T3-rtx expiry               O(Q)
 *   sctp_rtxq_take_rtx()        O(position of the last chunk taken)
 *   abandon                     O(Q)
 *   PR-SCTP expiry              O(Q); eviction O(Q) per message abandoned;
 *                               FORWARD TSN O(abandoned run * entries)
 *
 * Peer input never reaches an assert: every SACK gets a verdict, and a SACK
 * refused (old, violating or unmergeable) changes nothing at all.
 */
#ifndef SCTP_RTXQ_H
#define SCTP_RTXQ_H

#include <stdbool.h>
#include <stdint.h>

#include "sctp/buf.h"
#include "sctp/chunk_forward_tsn.h"
#include "sctp/chunk_sack.h"
#include "sctp/path.h"

/* "No node" in links; the largest pool is below it. */
#define SCTP_RTXQ_NIL UINT32_MAX

/* Largest DATA payload: the chunk's Length is 16 bits, 16 of them header. */
#define SCTP_RTXQ_MAX_PAYLOAD (65535u - 16u)

/* Fast retransmit on the third miss indication (§7.2.4). */
#define SCTP_RTXQ_FR_THRESHOLD 3u

/* struct sctp_rtxq_node.state: exactly one of the first three is set. */
#define SCTP_RTXQ_S_IN_FLIGHT	  0x01u /* outstanding: counts in flight and against rwnd */
#define SCTP_RTXQ_S_GAP_ACKED	  0x02u /* acked by a gap block of the last SACK */
#define SCTP_RTXQ_S_MARKED	  0x04u /* marked for retransmission, not yet resent */
#define SCTP_RTXQ_S_FAST_RTX	  0x08u /* marked by fast retransmit once: never again */
#define SCTP_RTXQ_S_RETRANSMITTED 0x10u /* sent more than once: no RTT sample (Karn) */
#define SCTP_RTXQ_S_ABANDONED	  0x40u /* PR-SCTP: abandoned, reference released (a phase) */
#define SCTP_RTXQ_S_PR		  0x80u /* has a PR-SCTP policy in pool->pr[node index] */
#define SCTP_RTXQ_S_PHASE	  0x47u /* the exclusive bits */

/*
 * One DATA chunk sent: a node of the pool. The fields are this module's;
 * tests and the association read them through the pool (q->head, next).
 * 48 bytes (static_assert in rtxq.c).
 */
struct sctp_rtxq_node {
	void *handle;	     /* the payload's buffer; the queue owns one reference */
	const uint8_t *data; /* first payload byte */
	uint64_t sent_ns;    /* first transmission (RTT samples) */
	uint32_t tsn;
	uint32_t ppid;	 /* as the caller gave it (host value of the field); I-DATA: the
			    PPID of a B fragment, the FSN of any other (the wire field) */
	uint32_t next;	 /* higher TSN; in the pool: next free node */
	uint16_t len;	 /* payload bytes */
	uint16_t sid;	 /* stream */
	uint16_t ssn;	 /* stream sequence number; I-DATA: the MID's low 16 bits */
	uint8_t flags;	 /* DATA chunk flags: SCTP_DATA_FLAG_B, _E, _U, _I */
	uint8_t state;	 /* SCTP_RTXQ_S_* */
	uint8_t path;	 /* path index it was last sent to, < SCTP_MAX_PATHS */
	uint8_t misses;	 /* miss indications (§7.2.4) since it was last sent */
	uint16_t mid_hi; /* I-DATA: the MID's high 16 bits; 0 with DATA */
};

/*
 * PR-SCTP policies (RFC 3758 §4 timed reliability, RFC 7496 §3-§4 limited
 * retransmissions and priority; the RFC 6458/7496 socket API's
 * SCTP_PR_SCTP_NONE, _TTL, _RTX, _PRIO).
 */
enum sctp_rtxq_pr_policy {
	SCTP_RTXQ_PR_NONE = 0, /* reliable */
	SCTP_RTXQ_PR_TTL = 1,  /* value: deadline in ns of the caller's clock */
	SCTP_RTXQ_PR_RTX = 2,  /* value: retransmissions allowed per chunk */
	SCTP_RTXQ_PR_PRIO = 3, /* value: priority, lower value = higher priority */
};
#define SCTP_RTXQ_PR_N 4u

/*
 * A chunk's PR-SCTP state, beside its node: pool->pr[i] belongs to
 * pool->nodes[i] and is read only when the node has SCTP_RTXQ_S_PR. Kept out
 * of the node so a reliable chunk costs not one byte more (the node stays 48)
 * and a pool without PR-SCTP has no array at all. 16 bytes.
 */
struct sctp_rtxq_pr_slot {
	uint64_t value; /* as enum sctp_rtxq_pr_policy says */
	uint32_t ppid;	/* the message's PPID: an I-DATA chunk other than the B keeps
			   its FSN in the node, and SEND FAILED still names the PPID */
	uint16_t rtx;	/* retransmissions so far, saturating at UINT16_MAX */
	uint8_t policy; /* enum sctp_rtxq_pr_policy, not NONE */
	uint8_t reserved;
};

/* Nodes of one lcore, shared by its associations. */
struct sctp_rtxq_pool {
	struct sctp_rtxq_node *nodes;
	struct sctp_rtxq_pr_slot *pr; /* n slots, or NULL: no PR-SCTP chunk can be added */
	uint32_t *ctx;		      /* n slots, node i's message context; NULL: none kept */
	uint32_t n;		      /* nodes in the array */
	uint32_t free;		      /* first free node, SCTP_RTXQ_NIL when none */
	uint32_t n_free;	      /* free nodes */
};

/*
 * One association's queue: 64 bytes. Initialize with sctp_rtxq_init().
 * Read it through the accessors below.
 */
struct sctp_rtxq {
	uint32_t path_flight[SCTP_MAX_PATHS]; /* bytes of IN_FLIGHT chunks per path */
	uint32_t head;			      /* lowest TSN, cum_point + 1; NIL when empty */
	uint32_t tail;			      /* highest TSN sent; NIL when empty */
	uint32_t cum_point;		      /* Cumulative TSN Ack Point (§6.2.1) */
	uint32_t a_rwnd;		      /* a_rwnd of the last SACK accepted (or INIT) */
	uint32_t data_flight;		      /* payload bytes of IN_FLIGHT chunks (for rwnd) */
	uint32_t karn_fence;  /* highest TSN sent when a chunk was last retransmitted: no RTT
				 sample at or below it (§6.3.1 C5, second sentence) */
	uint32_t n_gap_acked; /* GAP_ACKED chunks */
	uint32_t n_marked;    /* MARKED chunks */
};

/*
 * Everything a call needs besides the header: the lcore's pool, the buffer
 * ops, and the association's cap on chunks queued (0: the pool is the only
 * limit). The association builds it (it can keep one per association).
 */
struct sctp_rtxq_env {
	struct sctp_rtxq_pool *pool;
	const struct sctp_buf_ops *buf;
	uint32_t max_chunks;
	/*
	 * I-DATA (RFC 8260): a message is every chunk with its stream, U bit
	 * and MID, wherever their TSNs fall (the sender interleaves), not a
	 * run of TSNs; see "PR-SCTP" below.
	 */
	bool idata;
};

/* n nodes in caller storage, all free. -1 if n is 0 or not below SCTP_RTXQ_NIL. */
int sctp_rtxq_pool_init(struct sctp_rtxq_pool *p, struct sctp_rtxq_node *nodes, uint32_t n);

/*
 * PR-SCTP slots for a pool: slots[] has p->n entries, one per node (caller
 * storage, 16 bytes each). Call after sctp_rtxq_pool_init(), before any
 * chunk is added. -1 if slots is NULL or n is not p->n.
 */
int sctp_rtxq_pool_attach_pr(struct sctp_rtxq_pool *p, struct sctp_rtxq_pr_slot *slots, uint32_t n);

/*
 * Context slots for a pool: slots[i] keeps node i's message context
 * (struct sctp_rtxq_chunk context, given back in struct sctp_rtxq_msg);
 * caller storage, 4 bytes each, written by every add. Without them every
 * context reads 0. -1 if slots is NULL or n is not p->n.
 */
int sctp_rtxq_pool_attach_ctx(struct sctp_rtxq_pool *p, uint32_t *slots, uint32_t n);

/*
 * An empty queue whose first TSN will be initial_tsn (ours, from the INIT or
 * INIT ACK we sent): the Cumulative TSN Ack Point starts at initial_tsn - 1,
 * which is what the peer's first SACK acknowledges when it has nothing
 * (§3.3.4). peer_a_rwnd: the a_rwnd of the peer's INIT or INIT ACK
 * (§6.2.1 A).
 */
void sctp_rtxq_init(struct sctp_rtxq *q, uint32_t initial_tsn, uint32_t peer_a_rwnd);

/* One chunk as it first goes out. */
struct sctp_rtxq_chunk {
	uint32_t tsn;
	uint32_t ppid; /* I-DATA: the PPID of a B fragment, else its FSN */
	uint16_t sid;
	uint16_t ssn;		   /* I-DATA: the MID's low 16 bits */
	uint16_t mid_hi;	   /* I-DATA: the MID's high 16 bits */
	uint8_t flags;		   /* DATA chunk flags */
	uint8_t path;		   /* the path it is sent to */
	struct sctp_slice payload; /* the caller's reference passes to the queue on OK */
	uint32_t context;	   /* its message's context, kept if the pool has slots */
};

enum sctp_rtxq_add_verdict {
	SCTP_RTXQ_ADD_OK = 0,
	SCTP_RTXQ_ADD_NO_ROOM,	/* pool empty or max_chunks reached: do not send it yet */
	SCTP_RTXQ_ADD_BAD_TSN,	/* not highest sent + 1: a caller bug */
	SCTP_RTXQ_ADD_BAD_PATH, /* path >= SCTP_MAX_PATHS: a caller bug */
	SCTP_RTXQ_ADD_BAD_LEN,	/* payload above SCTP_RTXQ_MAX_PAYLOAD: a caller bug */
	SCTP_RTXQ_ADD_BAD_PR,	/* sctp_rtxq_add_pr(): unknown policy, or the pool has no
				   PR slots: a caller bug */
};

/*
 * The chunk went out now, for the first time: queued IN_FLIGHT on its path
 * (flight += its chunk bytes, §6.2.1 B). Any verdict but OK takes nothing:
 * the reference stays with the caller, nothing changes.
 */
enum sctp_rtxq_add_verdict sctp_rtxq_add(struct sctp_rtxq *q, const struct sctp_rtxq_env *env,
					 const struct sctp_rtxq_chunk *c, uint64_t now_ns);

/* A message's PR-SCTP policy, given with each of its chunks. */
struct sctp_rtxq_pr {
	uint8_t policy; /* enum sctp_rtxq_pr_policy */
	uint64_t value; /* deadline (ns), retransmissions allowed, or priority */
	uint32_t ppid;	/* the message's PPID (with DATA also every chunk's) */
};

/*
 * sctp_rtxq_add() for a chunk of a PR-SCTP message: every chunk of one
 * message must carry the same policy (abandonment is per message, RFC 3758
 * §3.5 A3). pr NULL or SCTP_RTXQ_PR_NONE is sctp_rtxq_add(). BAD_PR as its
 * enum says; otherwise the same verdicts.
 */
enum sctp_rtxq_add_verdict sctp_rtxq_add_pr(struct sctp_rtxq *q, const struct sctp_rtxq_env *env,
					    const struct sctp_rtxq_chunk *c, uint64_t now_ns,
					    const struct sctp_rtxq_pr *pr);

/*
 * RFC 3758 §3.5 A3 with DATA, after a message was abandoned part way (its
 * last fragments never sent): one more TSN for it, given to a fragment that
 * is never sent (E set, U as the message, no payload), ABANDONED from the
 * start. The next message's B then does not follow a fragment that is not
 * an E (which RFC 9260 §6.9 forbids and a receiver without PR-SCTP leniency
 * refuses), and the peer's cum can never pass the message without our
 * FORWARD TSN, which so always names its (sid, ssn), even when every
 * fragment sent had arrived (usrsctp does the same). pr->mid as for
 * sctp_rtxq_add_pr(); the same verdicts; nothing is in flight after it.
 */
enum sctp_rtxq_add_verdict sctp_rtxq_add_skip(struct sctp_rtxq *q, const struct sctp_rtxq_env *env,
					      uint32_t tsn, uint16_t sid, uint16_t ssn,
					      uint8_t flags, uint8_t path,
					      const struct sctp_rtxq_pr *pr);

/*
 * What sctp_rtxq_on_sack() decided. Only OK changes anything; every other
 * verdict leaves the queue, its counters and the a_rwnd as they were.
 */
enum sctp_rtxq_sack_verdict {
	SCTP_RTXQ_SACK_OK = 0,
	SCTP_RTXQ_SACK_OLD,	     /* §6.2.1 D i: cum TSN behind the Cumulative TSN Ack Point,
					an out-of-order SACK: dropped, a_rwnd too; count it */
	SCTP_RTXQ_SACK_CUM_NOT_SENT, /* cum TSN above the highest TSN sent: §12.4 "MUST abort",
					ABORT with a Protocol Violation cause */
	SCTP_RTXQ_SACK_GAP_NOT_SENT, /* a gap block ends above the highest TSN sent: §12.4,
					ABORT as above */
	SCTP_RTXQ_SACK_BAD_GAP,	     /* a gap block with start > end or start 0 (§3.3.4: gap
					TSNs are above the cum TSN): malformed, ABORT as above */
	SCTP_RTXQ_SACK_GAP_ORDER,    /* gap blocks not in ascending order or overlapping:
					dropped, count it (see rtxq.c "Gap block order") */
};

/* "ok", "old", "cum_not_sent", "gap_not_sent", "bad_gap", "gap_order"; "unknown". */
const char *sctp_rtxq_sack_verdict_name(enum sctp_rtxq_sack_verdict v);

/* The verdicts the association answers with an ABORT (RFC 9260 §12.4). */
static inline bool
sctp_rtxq_sack_verdict_aborts(enum sctp_rtxq_sack_verdict v)
{
	return v == SCTP_RTXQ_SACK_CUM_NOT_SENT || v == SCTP_RTXQ_SACK_GAP_NOT_SENT ||
	       v == SCTP_RTXQ_SACK_BAD_GAP;
}

/* One path's share of a SACK. */
struct sctp_rtxq_path_ack {
	uint32_t bytes_acked;	/* chunk bytes newly acked (cum or gap), last sent here */
	uint32_t flight_before; /* this path's flight size before the SACK */
	uint32_t flight_after;	/* after it: acked, fast-retransmit marks out; reneged in */
	uint32_t reserved;
	uint64_t rtt_ns; /* RTT sample, valid when rtt_mask has this path's bit */
};

/*
 * What a SACK did. Masks have bit i for path i. On any verdict the struct
 * is filled: for a refused SACK, nothing acked and flights unchanged.
 *
 * For sctp/cc.h (docs/CC.md "What the association does"): for each path in
 * acked_mask, sctp_cc_on_sack() with path[i].bytes_acked, flight_before,
 * flight_after and cum_advanced; then for each path in fast_rtx_mask,
 * sctp_cc_on_fast_retransmit(); if fast_rtx_mask is not 0,
 * sctp_cc_recovery_enter(highest_sent).
 *
 * For the T3-rtx timers (§6.3.2): stop those in t3_stop_mask (R2: nothing
 * outstanding on the path), restart those in t3_restart_mask (R3: the
 * path's earliest outstanding chunk was acknowledged and data remains),
 * start those in t3_start_mask if not running (R4, §6.2.1 D iii: a chunk
 * last sent there was reneged). A path is in at most one of stop and
 * restart; start implies not stop.
 */
struct sctp_rtxq_sack_result {
	struct sctp_rtxq_path_ack path[SCTP_MAX_PATHS];
	uint32_t flight_before;	  /* all paths */
	uint32_t flight_after;	  /* all paths */
	uint32_t bytes_acked;	  /* all paths */
	uint32_t cum_tsn;	  /* Cumulative TSN Ack Point after the SACK */
	uint32_t highest_sent;	  /* the Fast Recovery exit point, §7.2.4 rule 6 */
	uint32_t chunks_released; /* cumulatively acked: removed, references released */
	uint32_t reneged;	  /* gap-acked before, missing now (§6.2.1 D iii) */
	uint32_t fast_rtx_chunks; /* newly marked for fast retransmit */
	uint32_t fast_rtx_bytes;
	uint8_t acked_mask;	 /* paths with bytes_acked > 0 */
	uint8_t rtt_mask;	 /* paths with an RTT sample */
	uint8_t fast_rtx_mask;	 /* paths whose chunks got their third miss indication */
	uint8_t t3_stop_mask;	 /* R2 */
	uint8_t t3_restart_mask; /* R3 */
	uint8_t t3_start_mask;	 /* R4 / D iii */
	bool cum_advanced;	 /* the Cumulative TSN Ack Point moved */
	bool all_acked;		 /* nothing in flight and nothing marked: every chunk sent is
				    acknowledged (cumulatively or by gap blocks) */
};

/*
 * One received SACK, as parsed by sctp_sack_parse(): its cumulative TSN,
 * a_rwnd and gap blocks (read in place with sctp_sack_gap_block(), no
 * copy). Duplicate TSNs and an NR-SACK's NR blocks are not read: duplicate
 * TSNs are at or below a cum TSN already acknowledged, so their chunks are
 * gone, and the association does not negotiate NR-SACK.
 *
 * in_fast_recovery: sctp_cc_recovery_active() as it stood when the SACK
 * arrived, before sctp_cc_recovery_on_sack(): §7.2.4 "If an endpoint is in
 * Fast Recovery and a SACK chunk arrives that advances the Cumulative TSN
 * Ack Point, the miss indications are incremented for all TSNs reported
 * missing in the SACK chunk". Otherwise miss indications go only to TSNs
 * below the highest TSN newly acknowledged (HTNA).
 *
 * now_ns: for RTT samples (now - first transmission).
 */
enum sctp_rtxq_sack_verdict sctp_rtxq_on_sack(struct sctp_rtxq *q, const struct sctp_rtxq_env *env,
					      const struct sctp_sack *s, bool in_fast_recovery,
					      uint64_t now_ns, struct sctp_rtxq_sack_result *out);

/*
 * The Cumulative TSN Ack of a SHUTDOWN chunk (RFC 9260 §9.2, §3.3.8): the
 * cumulative part of sctp_rtxq_on_sack() alone. Same verdicts for the cum
 * TSN (OLD, CUM_NOT_SENT) and the same result, but gap-acked chunks stay
 * gap-acked (§3.3.8: "the receiver of the SHUTDOWN chunk MUST NOT interpret
 * the lack of a Gap Ack Block as a renege"), no miss indication is counted
 * and the a_rwnd is kept (a SHUTDOWN carries none).
 */
enum sctp_rtxq_sack_verdict sctp_rtxq_on_shutdown_cum(struct sctp_rtxq *q,
						      const struct sctp_rtxq_env *env,
						      uint32_t cum_tsn, uint64_t now_ns,
						      struct sctp_rtxq_sack_result *out);

/*
 * §6.3.3 E3: T3-rtx expired on `path`. Every IN_FLIGHT chunk last sent to
 * it becomes MARKED (its flight drops to 0, rwnd grows by their payload,
 * §6.2.1 C). Returns the chunks marked; *bytes (if not NULL) their chunk
 * bytes. The association then takes the first packetful with
 * sctp_rtxq_take_rtx(), possibly to another path (§6.4). A path index out
 * of range marks nothing.
 */
uint32_t sctp_rtxq_on_t3_expiry(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, unsigned path,
				uint32_t *bytes);

/*
 * Undo what sctp_rtxq_on_t3_expiry() did to `path` for the chunks not yet
 * retransmitted: each MARKED chunk last sent to `path` that no fast
 * retransmit marked becomes IN_FLIGHT there again, as it was sent (not
 * RETRANSMITTED; flight and rwnd as for a send; the Karn fence keeps RTT
 * samples off it, as for everything sent before the last retransmission).
 * For a timeout judged spurious before all that it marked went again
 * (F-RTO, RFC 5682 §3): the originals are on their way, so they are
 * waited for instead of sent twice. Returns the chunks unmarked; *bytes
 * (if not NULL) their chunk bytes. O(queue). A path out of range: 0.
 */
uint32_t sctp_rtxq_unmark_t3(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, unsigned path,
			     uint32_t *bytes);

/*
 * §6.1 A, zero window probing. The probe is the highest TSN sent when it is
 * IN_FLIGHT, the only chunk in flight, nothing is marked, and its payload
 * is more than the peer's last a_rwnd: the peer has no room for it, so it
 * went as the one chunk rule A always lets go. Returns the path it was last
 * sent to (*tsn, if not NULL, gets its TSN), or -1 when what is in flight
 * is no probe. O(1).
 */
int sctp_rtxq_window_probe(const struct sctp_rtxq *q, const struct sctp_rtxq_pool *pool,
			   uint32_t *tsn);

/*
 * The peer's window reopened (a_rwnd now takes the chunk) while the probe
 * `tsn` is still the only chunk in flight, unacknowledged: the peer dropped
 * it at zero window (§6.2). It becomes MARKED, as T3-rtx would make it
 * (flight and rwnd as there), so it goes again now instead of one backed-off
 * RTO later. Returns the path it was on, or -1 (nothing changed) when tsn
 * is not the highest TSN sent, not alone in flight, or still more than the
 * a_rwnd, or when its SCTP_RTXQ_PR_RTX retransmissions are used up: it
 * may not go again, so it stays in flight, under T3-rtx, whose expiry marks
 * it for sctp_rtxq_pr_expire() (and a SACK may still ack it: the window
 * often reopens while the probe is on its way). O(1).
 */
int sctp_rtxq_window_reopened(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, uint32_t tsn);

/*
 * The path's MTU fell (docs/PMTU.md): every IN_FLIGHT chunk last sent to
 * `path`, from TSN `from_tsn` on, that takes more than `room` bytes on the
 * wire (its PMDCS now) becomes MARKED, as T3-rtx would make it (flight and rwnd as there), so
 * the flush sends it again at once, alone and IP-fragmented. Returns the
 * chunks marked; *bytes (if not NULL) their chunk bytes. O(queue).
 */
uint32_t sctp_rtxq_mark_oversize(struct sctp_rtxq *q, const struct sctp_rtxq_env *env,
				 unsigned path, uint32_t room, uint32_t from_tsn, uint32_t *bytes);

/*
 * Wire bytes of the chunk sctp_rtxq_take_rtx() would take first (the
 * earliest MARKED one whose retransmissions are not used up), 0 when none.
 */
uint32_t sctp_rtxq_next_rtx_bytes(const struct sctp_rtxq *q, const struct sctp_rtxq_env *env);

/* One chunk to retransmit. */
struct sctp_rtxq_rtx {
	struct sctp_slice payload; /* lent: the queue keeps its reference (see below) */
	uint32_t tsn;
	uint32_t ppid; /* I-DATA: PPID of a B fragment, else FSN */
	uint16_t sid;
	uint16_t ssn;
	uint16_t mid_hi; /* I-DATA: the MID is mid_hi << 16 | ssn */
	uint8_t flags;
};

/*
 * Retransmissions: the MARKED chunks in TSN order, while their chunk bytes
 * fit in `budget` and up to max_out of them, into out[]. Each becomes
 * IN_FLIGHT again on `path` (flight and rwnd as for a send), RETRANSMITTED
 * (no RTT sample from it), with its miss count reset; the Karn fence moves
 * to the highest TSN sent. Stops at the first marked chunk that does not
 * fit, so a packet carries the earliest ones (§6.3.3 E3, §7.2.4 rule 3).
 * Returns the number taken; *bytes (if not NULL) their chunk bytes as they
 * go on the wire (with env->idata, I-DATA's 20-byte header: budget counts
 * the same, so the packet never passes the room it was given).
 *
 * The slices are the queue's: valid until the chunk leaves the queue (a
 * cumulative ack or abandon, never during a call that does not take a
 * SACK). A transmit path that frees what it sends takes its own reference
 * with ops->hold() first. A path index out of range takes nothing.
 *
 * PR-SCTP: a marked chunk whose SCTP_RTXQ_PR_RTX limit is used up is
 * passed over (it stays marked: sctp_rtxq_pr_expire() abandons it, RFC 7496
 * §4), so no chunk is ever sent more than its limit allows; every other
 * chunk with a policy counts the retransmission in its slot.
 */
unsigned sctp_rtxq_take_rtx(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, unsigned path,
			    uint32_t budget, struct sctp_rtxq_rtx *out, unsigned max_out,
			    uint32_t *bytes);

/* A message that was not cumulatively acknowledged, for a send-failed notification. */
struct sctp_rtxq_msg {
	uint32_t first_tsn;	/* its first chunk in the queue */
	uint32_t ppid;		/* of that chunk; I-DATA: of the B, or the policy's slot, else 0 */
	uint32_t mid;		/* I-DATA: its MID; DATA: the SSN */
	uint32_t len;		/* payload bytes of its chunks in the queue */
	uint32_t gap_acked_len; /* of which gap-acked (the peer had them, might renege) */
	uint32_t chunks;	/* its chunks in the queue */
	uint16_t sid;
	uint16_t ssn;
	uint8_t flags;	  /* DATA flags of the first chunk (U tells unordered) */
	bool has_first;	  /* its B fragment is in the queue (none of it was acked) */
	bool has_last;	  /* its E fragment is in the queue (else the rest was never sent) */
	uint32_t context; /* its first chunk's (every chunk of a message has the same) */
};

typedef void (*sctp_rtxq_msg_fn)(void *arg, const struct sctp_rtxq_msg *m);

/*
 * Close or restart: fn(arg, m) (if fn is not NULL) once per message with a
 * chunk in the queue, in TSN order, then every chunk's reference is
 * released and every node goes back to the pool. The queue is then empty,
 * with its Cumulative TSN Ack Point at the highest TSN sent (the next add
 * continues the TSN sequence) and nothing in flight. A message is a run
 * from a B fragment (or the queue's head) to an E fragment (or the tail);
 * with I-DATA, its stream, U bit and MID's chunks, reported in the order of
 * their first TSNs. Messages already abandoned by PR-SCTP were reported
 * then, not again.
 */
void sctp_rtxq_abandon(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, sctp_rtxq_msg_fn fn,
		       void *arg);

/*
 * PR-SCTP, sender side (RFC 3758 §3.5, RFC 7496). What exists here: the
 * policy per chunk, abandonment of whole messages, priority eviction, the
 * Advanced.Peer.Ack.Point and the (I-)FORWARD TSN entries. The association
 * decides when to call them and sends the chunk (docs/DATAPATH.md).
 *
 * A message here is a run of chunks from B to E in TSN order: with DATA
 * the fragments of a message have consecutive TSNs (RFC 9260 §6.9). With
 * I-DATA (env->idata) it is every chunk of one stream, U bit and MID, the
 * chunks of other messages between them; a sender sends a stream's
 * messages one after another, so a message's chunks end at its E. An
 * I-DATA message whose E was not sent yet is not abandoned until it is
 * (has_last is always true with I-DATA): the I-FORWARD TSN then names it
 * with every fragment it had, and no fragment of it can follow. A
 * message is abandoned whole (§3.5 A3: "all other TSN's within that
 * fragmented message MUST be abandoned at the same time"); a message whose
 * every chunk in the queue is gap-acked is never abandoned (the peer has
 * it: no SEND FAILED for data it will deliver). Each abandoned message goes
 * to fn(arg, m, policy) once, before its references are released: every
 * message the queue reports was sent, so it is SCTP_DATA_SENT (RFC 6458
 * §6.1.11); m->has_last false means later fragments were never sent and
 * wait in the caller's send queue, which must abandon them too (A3) and
 * report nothing more for the message.
 */
typedef void (*sctp_rtxq_pr_fn)(void *arg, const struct sctp_rtxq_msg *m,
				enum sctp_rtxq_pr_policy policy);

/* Abandoned messages and their payload bytes per policy; the caller's, accumulated. */
struct sctp_rtxq_pr_stats {
	uint64_t msgs[SCTP_RTXQ_PR_N];
	uint64_t bytes[SCTP_RTXQ_PR_N];
};

/* What one call abandoned. */
struct sctp_rtxq_pr_result {
	uint32_t msgs;		/* messages abandoned */
	uint32_t chunks;	/* their chunks */
	uint32_t bytes;		/* their payload bytes (references released) */
	uint32_t flight_bytes;	/* chunk bytes that left the flight (were IN_FLIGHT) */
	uint8_t flight_mask;	/* paths whose flight dropped: T3-rtx R2 applies, but
				   RFC 3758 §3.5 C5 wants one T3-rtx running while a
				   FORWARD TSN is outstanding */
	uint64_t next_deadline; /* sctp_rtxq_pr_expire(): the earliest deadline not yet
				   passed of the SCTP_RTXQ_PR_TTL messages left (a
				   wholly gap-acked one past its deadline stays and is
				   not counted), UINT64_MAX when none; 0 from
				   sctp_rtxq_pr_evict() */
};

/*
 * RFC 3758 §3.5 A2/A3, RFC 7496 §3-§4: abandon every message whose time is
 * up: SCTP_RTXQ_PR_TTL once now_ns > its deadline (alive at the deadline
 * itself), SCTP_RTXQ_PR_RTX once one of its chunks is marked for
 * retransmission with its retransmissions equal to the limit (limit 0:
 * sent once, never again). Call after a T3-rtx expiry or a SACK marked
 * chunks and before sctp_rtxq_take_rtx(), and whenever a deadline may have
 * passed. stats and res may be NULL (res is zeroed first). Returns the
 * messages abandoned. O(Q).
 */
uint32_t sctp_rtxq_pr_expire(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, uint64_t now_ns,
			     sctp_rtxq_pr_fn fn, void *arg, struct sctp_rtxq_pr_stats *stats,
			     struct sctp_rtxq_pr_result *res);

/*
 * RFC 7496 §4, priority policy: a message of priority prio needs `need`
 * payload bytes of buffer. Abandons SCTP_RTXQ_PR_PRIO messages of lower
 * priority (value strictly above prio), the lowest priority first and,
 * among equals, the oldest first, until their payload bytes reach need or
 * none is left. Returns the payload bytes released. O(Q) per message
 * abandoned.
 */
uint32_t sctp_rtxq_pr_evict(struct sctp_rtxq *q, const struct sctp_rtxq_env *env, uint64_t prio,
			    uint32_t need, sctp_rtxq_pr_fn fn, void *arg,
			    struct sctp_rtxq_pr_stats *stats, struct sctp_rtxq_pr_result *res);

/* The FORWARD TSN to send. */
struct sctp_rtxq_fwd {
	uint32_t new_cum_tsn; /* the Advanced.Peer.Ack.Point */
	uint16_t n_entries;   /* entries written */
	bool limited;	      /* stopped short: more abandoned chunks follow whose
				 entries did not fit in max_entries */
};

/*
 * RFC 3758 §3.5 C1-C3 (C1: the cum point is the peer's, sctp_rtxq_on_sack()
 * moved it): the Advanced.Peer.Ack.Point is the cum point moved over the
 * abandoned chunks that follow it. The entries for the chunk: with DATA
 * (idata false), one (sid, ssn) per stream of the ordered messages skipped,
 * the highest SSN (serial order), unordered ones left out (§3.2 "MUST NOT
 * report TSN's corresponding to DATA chunks that are marked as
 * unordered"); with I-DATA (RFC 8260 §2.3.1) one (sid, U, MID) per stream
 * and U, the highest MID. In out[] as I-FORWARD entries (DATA: ssn in mid,
 * flags 0; see sctp_rtxq_fwd_entry()). At most max_entries: the point stops
 * before the first message that would need one more (use
 * sctp_rtxq_fwd_max_entries() with the room in the packet). Returns true
 * when a FORWARD TSN is due (C3: the point is above the cum point). O(run
 * of abandoned chunks * entries). C4/C5 (bundling, T3-rtx) are the
 * association's.
 */
bool sctp_rtxq_fwd_tsn(const struct sctp_rtxq *q, const struct sctp_rtxq_pool *pool, bool idata,
		       struct sctp_forward_tsn_ientry *out, uint16_t max_entries,
		       struct sctp_rtxq_fwd *f);

/* Entries a (I-)FORWARD TSN of `room` bytes (header included) can carry. */
static inline uint16_t
sctp_rtxq_fwd_max_entries(uint32_t room, bool idata)
{
	uint32_t n;

	if (room < 8u)
		return 0;
	n = (room - 8u) / (idata ? SCTP_I_FORWARD_TSN_ENTRY_LEN : SCTP_FORWARD_TSN_ENTRY_LEN);
	return n > UINT16_MAX ? UINT16_MAX : (uint16_t)n;
}

/* A FORWARD TSN entry from sctp_rtxq_fwd_tsn()'s output in DATA mode. */
static inline struct sctp_forward_tsn_entry
sctp_rtxq_fwd_entry(const struct sctp_forward_tsn_ientry *e)
{
	struct sctp_forward_tsn_entry r = { e->sid, (uint16_t)e->mid };
	return r;
}

/* Bytes a DATA chunk with len payload bytes takes on the wire: 16 + len padded to 4. */
static inline uint32_t
sctp_rtxq_chunk_bytes(uint32_t len)
{
	return 16u + ((len + 3u) & ~3u);
}

/* Flight size of path i (0 for an index out of range). */
static inline uint32_t
sctp_rtxq_path_flight(const struct sctp_rtxq *q, unsigned i)
{
	return i < SCTP_MAX_PATHS ? q->path_flight[i] : 0;
}

/* Flight size over all paths (chunk bytes). */
static inline uint32_t
sctp_rtxq_flight(const struct sctp_rtxq *q)
{
	uint32_t f = 0;

	for (unsigned i = 0; i < SCTP_MAX_PATHS; i++)
		f += q->path_flight[i];
	return f;
}

/* The peer's rwnd (§6.2.1): last a_rwnd minus payload bytes in flight, floored at 0. */
static inline uint32_t
sctp_rtxq_rwnd(const struct sctp_rtxq *q)
{
	return q->a_rwnd > q->data_flight ? q->a_rwnd - q->data_flight : 0;
}

/* The Cumulative TSN Ack Point. */
static inline uint32_t
sctp_rtxq_cum_point(const struct sctp_rtxq *q)
{
	return q->cum_point;
}

/*
 * A chunk retransmitted earlier may still be outstanding: the Karn fence
 * (the highest TSN sent at the last retransmission) is past the Cumulative
 * TSN Ack Point. Conservative: chunks up to the fence sent once count too.
 */
static inline bool
sctp_rtxq_rtx_outstanding(const struct sctp_rtxq *q)
{
	return q->karn_fence != q->cum_point;
}

/* Highest TSN sent (the tail's); the cum point when the queue is empty. */
uint32_t sctp_rtxq_highest_sent(const struct sctp_rtxq *q, const struct sctp_rtxq_pool *pool);

/* Chunks queued (sent and not cumulatively acknowledged). */
static inline uint32_t
sctp_rtxq_count(const struct sctp_rtxq *q, const struct sctp_rtxq_pool *pool)
{
	return sctp_rtxq_highest_sent(q, pool) - q->cum_point;
}

/* Nothing queued: every TSN sent is cumulatively acknowledged. */
static inline bool
sctp_rtxq_empty(const struct sctp_rtxq *q)
{
	return q->head == SCTP_RTXQ_NIL;
}

/* Chunks marked for retransmission and not yet resent. */
static inline uint32_t
sctp_rtxq_marked(const struct sctp_rtxq *q)
{
	return q->n_marked;
}

/*
 * Every invariant of the queue, recounted from the nodes in O(Q): TSNs
 * consecutive from cum_point + 1 to the tail, one phase bit per node, path
 * in range, flights, payload in flight and the two counters equal to a
 * recount, abandoned chunks released, with a policy and in whole messages,
 * the Karn fence between the cum point and the highest TSN sent,
 * no more nodes than the pool has. NULL when all hold, else a static string
 * naming the first broken one. For tests, the simulator and debug builds.
 */
const char *sctp_rtxq_check(const struct sctp_rtxq *q, const struct sctp_rtxq_pool *pool);

#endif /* SCTP_RTXQ_H */
