/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Outbound message queue of one association: the user's messages waiting
 * for their first transmission, per stream, and the DATA chunks cut from
 * them. RFC 9260 §6.1 (the sender's side of data transfer), §6.5 (Stream Identifier and Stream
 * Sequence Number, the SSN wrapping from 65535 to 0), §6.6 (unordered delivery: U bit, SSN not
 * used), §6.9 (fragmentation: B and E bits, strictly sequential TSNs), §3.3.1 (the DATA chunk; no
 * chunk without user data), RFC 7053 §3 (the I bit) and RFC 8260 §2.1 (I-DATA: MID and FSN) and
 * §3 (the stream schedulers: FCFS, round robin, round robin per packet,
 * priority, fair capacity and weighted fair queueing).
 *
 * Memory: nothing is allocated. Message nodes come from a pool the caller
 * owns (struct sctp_outq_pool: an array and a free list, one per lcore,
 * shared by all the lcore's associations: no locks, share nothing). Per
 * association the caller provides the 48-byte header (struct sctp_outq) and
 * one 16-byte entry per outbound stream (struct sctp_outq_stream): 1024
 * streams cost 16 KiB whether they carry data or not, a message in flight
 * 48 bytes of pool. A stream with nothing queued costs only its entry.
 *
 * Who holds which buffer reference (sctp/buf.h). The payload of a message
 * is one slice of the caller's buffer, never copied:
 *   - sctp_outq_push() takes one reference of its own (ops->hold(), once,
 *     only on success). The caller's references are the caller's: it may
 *     drop its own as soon as push returns.
 *   - sctp_outq_next() and sctp_outq_fill() hand out chunks; every chunk
 *     carries exactly one reference, owned by whoever receives the chunk
 *     (the retransmission queue, which releases it when the TSN is acked
 *     or abandoned). For every fragment but the last, next() takes a new
 *     one (ops->hold()); the last fragment gets the queue's own reference,
 *     which thus ends the moment the last byte is taken out. A message of n
 *     fragments costs n holds in all, a single-chunk message exactly one.
 *   - sctp_outq_abandon() releases the queue's reference of every message
 *     still queued (ops->release(), once each), a partly sent one included:
 *     its chunks already handed out keep their own references.
 *   - sctp_outq_pr_expire() and sctp_outq_pr_evict() release the queue's
 *     reference of each unsent message they abandon (once, after
 *     reporting it); sctp_outq_abandon_partial() that of the partly sent
 *     message it drops (its chunks handed out keep theirs).
 * So at any time the queue holds exactly one reference per queued message.
 * The buffer ops live in the pool: one lcore, one kind of buffer.
 *
 * SSN and MID. A message gets its SSN (DATA) or MID (I-DATA) when its first
 * fragment is taken out, not when it is queued, so the numbers follow the
 * order of transmission. Ordered DATA: the stream's next SSN, 65535 then 0.
 * Unordered DATA: SSN 0 (§3.3.1: ignored when U is set); no SSN consumed.
 * I-DATA: the stream's ordered MID, or its unordered MID for U messages
 * (two 32-bit counters per stream, RFC 8260 §2.1); FSN 0, 1, ... per
 * fragment.
 *
 * Scheduling. Round robin (the default, RFC 8260 §3.2) serves the streams
 * with data in turn, one message per turn; a stream that becomes active
 * joins at the end of the round. FCFS (RFC 8260 §3.1) sends messages in the
 * order they were queued, across streams. With DATA, a message's fragments
 * go out back to back whatever the scheduler: RFC 9260 §6.9 makes the TSNs
 * of a message's fragments "strictly sequential" and the receiver
 * reassembles by TSN, so any chunk of another message in between would
 * take a TSN inside the run. That is the sender-side head-of-line blocking
 * RFC 8260 §1 describes: a 64 KiB message (46 chunks at 1452 bytes) holds
 * every other stream back for 46 chunks. With I-DATA (negotiated, RFC 8260
 * §2.2) fragments carry their MID and FSN, and round robin takes turns per
 * chunk instead: a small message waits behind at most one chunk per other
 * active stream. The scheduler is a table of three functions (push, peek,
 * taken) over the per-stream FIFOs and a 16-bit link and parameter per
 * stream.
 *
 * The other schedulers of RFC 8260 §3 (docs/DATAPATH.md, "Stream
 * schedulers"), all over the same ring of active streams, so that
 * sctp_outq_set_sched() switches between any two of them on an empty queue:
 *   - round robin per packet (§3.3): one stream per packet. The queue
 *     learns where packets end from sctp_outq_packet_end(), which
 *     sctp_outq_fill() calls itself (one fill, one packet); a caller that
 *     takes chunks with sctp_outq_next() calls it after each packet. Until
 *     then sctp_outq_next() answers -ENOENT once the packet's stream has no
 *     more data, even if other streams have. With DATA a message that does
 *     not fit one packet goes on in the next ones, back to back (§6.9), and
 *     the turn passes when it ends;
 *   - priority (§3.4): the stream parameter is the priority, lower value
 *     served first (0, the default, is the highest, as Linux's
 *     SCTP_SS_PRIO); streams of one priority take turns as in round robin.
 *     A higher priority that becomes active preempts at the next message
 *     boundary with DATA (§6.9), at the next chunk with I-DATA;
 *   - weighted fair queueing (§3.6): deficit round robin over the ring; a
 *     stream's turn adds weight * SCTP_OUTQ_WFQ_QUANTUM bytes of credit,
 *     it is served while its credit is positive (the chunk that makes it
 *     negative still goes, and with DATA the rest of its message), so over
 *     time each backlogged stream's bytes follow its weight (the parameter,
 *     1 .. 65535; 0, the default, counts as 1);
 *   - fair capacity (§3.5): the same with every weight 1.
 * sctp_outq_set_stream_param() changes a stream's priority or weight at
 * any time, messages queued or not.
 *
 * Bundling (RFC 9260 §6.10). The queue never waits: whatever is queued can
 * be taken at once, no Nagle-like delay. sctp_outq_peek_len() says how many
 * bytes of DATA chunk, header and padding included, the next chunk takes in
 * a packet; sctp_outq_fill() takes chunks while they fit the room left in
 * one; sctp_outq_wire_bytes() says how much is queued in those units, so an
 * association configured with a bundling delay (it has the clock, the
 * queue does not) can tell when a full packet is waiting.
 *
 * PR-SCTP (RFC 3758, RFC 7496): sctp_outq_push_pr() queues a message with
 * a policy, which every chunk cut from it carries for the retransmission
 * queue; unsent messages are abandoned here (sctp_outq_pr_expire(),
 * sctp_outq_pr_evict()), the rest of a partly sent one when the
 * retransmission queue abandons its first part
 * (sctp_outq_abandon_partial()). As in the retransmission queue the policy
 * lives in a 16-byte slot per pool node beside the array
 * (sctp_outq_pool_attach_pr()), so the 48-byte node does not grow, a
 * reliable message costs nothing more and a pool without PR-SCTP has no
 * slots. The application's context value for a message (RFC 6458
 * snd_context, returned with SEND FAILED) lives the same way in a 4-byte
 * slot per node (sctp_outq_pool_attach_ctx()).
 *
 * Costs: push, next and peek are O(1) (a handful of loads and stores, two
 * indirect calls to the scheduler per chunk, one ops->hold() per fragment
 * but the last); abandon and PR-SCTP expiry are O(queued messages),
 * eviction O(queued messages) per message evicted; init writes the stream
 * entries, 16 bytes each. Exceptions, all bounded by the number A of
 * streams with data: with priority, a stream that becomes active (push) or
 * whose priority changes while active walks the sorted ring, O(A); with
 * weighted fair queueing or fair capacity a turn change skips streams still
 * in debt, amortized O(1) per chunk (at most one skip per quantum of bytes
 * sent, as debt is only made by bytes sent) and O(A) at worst.
 * bench_outq (bench/outq_bench.cc) on a 2.6 GHz x86 VM, buffer ops that
 * only count: about 34 TSC cycles to push a 64-byte message and take it out
 * as one chunk (any of 1 to 1024 streams, round robin; 29 with FCFS), 42
 * per message when 18 of them are bundled into a packet with
 * sctp_outq_fill(), 24 per 1452-byte fragment of a 64 KiB message. A real
 * buffer's hold (rte_mbuf refcount) comes on top. The other schedulers'
 * figures are in docs/DATAPATH.md.
 *
 * Errors returned (nothing is taken, held or changed when a call fails):
 *   -EINVAL    bad argument: stream id >= the number of streams, zero-length
 *              or NULL payload, unknown flags, max_payload 0, bad config;
 *   -EMSGSIZE  the message is longer than the queue's byte limit: it could
 *              never be queued;
 *   -ENOBUFS   the association's queued-bytes or queued-messages limit would
 *              be exceeded: retry once chunks have been taken out;
 *   -ENOMEM    the lcore's node pool is empty (shared by all associations);
 *   -ENOENT    nothing queued (next);
 *   -EBUSY     the scheduler cannot change while messages are queued, nor
 *              I-DATA once a chunk has gone out.
 *   (-EINVAL also: a stream parameter for a stream id >= n_streams, or a
 *   weight 0 under weighted fair queueing; a PR-SCTP policy unknown, or
 *   given while the pool has no PR slots.)
 */
#ifndef SCTP_OUTQ_H
#define SCTP_OUTQ_H

#include <stdbool.h>
#include <stdint.h>

#include "sctp/buf.h"
#include "sctp/wire.h"

/* Message flags for sctp_outq_push() (the DATA chunk's own flag values). */
#define SCTP_OUTQ_UNORDERED SCTP_DATA_FLAG_U /* §6.6: deliver on arrival, no SSN */
#define SCTP_OUTQ_SACK_NOW  SCTP_DATA_FLAG_I /* RFC 7053: I bit on the last fragment */
#define SCTP_OUTQ_FLAGS	    (SCTP_OUTQ_UNORDERED | SCTP_OUTQ_SACK_NOW)

/*
 * Bounds on the limits: keep every byte and count sum in 32 bits (queued
 * wire bytes <= 2^30 + 2^24 * 23 < 2^31). A 1 GiB send queue per
 * association is far beyond any bandwidth-delay product this stack targets
 * (100 Gb/s over 10 ms is 125 MB).
 */
#define SCTP_OUTQ_MAX_BYTES   (1u << 30)
#define SCTP_OUTQ_MAX_MSGS    (1u << 24)
#define SCTP_OUTQ_POOL_MAX    0xfffffffeu /* nodes per pool: references are 1 + index */
#define SCTP_OUTQ_MAX_STREAMS 65535u	  /* RFC 9260 §3.3.2: a 16-bit stream count */

/* Bytes of chunk header and fixed part: DATA (§3.3.1) and I-DATA (RFC 8260 §2.1). */
#define SCTP_OUTQ_DATA_HDR  (SCTP_CHUNK_HDR_LEN + SCTP_DATA_FIXED_LEN)	 /* 16 */
#define SCTP_OUTQ_IDATA_HDR (SCTP_CHUNK_HDR_LEN + SCTP_I_DATA_FIXED_LEN) /* 20 */

enum sctp_outq_sched {
	SCTP_OUTQ_SCHED_RR = 0,	    /* round robin between streams, RFC 8260 §3.2 (default) */
	SCTP_OUTQ_SCHED_FCFS = 1,   /* first come, first served, RFC 8260 §3.1 */
	SCTP_OUTQ_SCHED_RR_PKT = 2, /* round robin per packet, RFC 8260 §3.3 */
	SCTP_OUTQ_SCHED_PRIO = 3,   /* strict priority, lower value first, RFC 8260 §3.4 */
	SCTP_OUTQ_SCHED_FC = 4,	    /* fair capacity: equal byte shares, RFC 8260 §3.5 */
	SCTP_OUTQ_SCHED_WFQ = 5,    /* weighted fair queueing, RFC 8260 §3.6 */
	SCTP_OUTQ_SCHED_COUNT,
};

/*
 * One queued message: a pool node, 48 bytes (asserted in outq.c). Fields
 * are the queue's; the caller only provides the array.
 */
struct sctp_outq_msg {
	void *handle;	     /* the caller's buffer, held by the queue */
	const uint8_t *data; /* first payload byte */
	uint32_t len;	     /* payload bytes, >= 1 */
	uint32_t off;	     /* bytes already taken out as chunks */
	uint32_t ppid;	     /* host order */
	uint32_t next;	     /* 1 + index of the next node in its list; 0 ends it */
	uint32_t mid;	     /* SSN (DATA) or MID (I-DATA), set when the first fragment goes;
				before, for SCTP_OUTQ_PR_PRIO, the high half of the push order */
	uint32_t fsn;	     /* I-DATA: FSN of the next fragment; before the first goes, for
				SCTP_OUTQ_PR_PRIO, the low half of the push order */
	uint16_t sid;
	uint8_t flags;	   /* SCTP_OUTQ_* */
	uint8_t pr_policy; /* SCTP_OUTQ_PR_*; not NONE: the rest in pool->pr[node index] */
	int32_t credit;	   /* WFQ/FC, first message of a stream: the stream's byte credit */
};

/*
 * Bytes of credit per unit of weight and turn (WFQ and FC). Small enough
 * that turns stay short (a weight-1 stream sends about one 1 KiB chunk per
 * round), large enough that a skip of a stream in debt repays a chunk's
 * worth of it.
 */
#define SCTP_OUTQ_WFQ_QUANTUM 1024

/*
 * PR-SCTP policy of a queued message (RFC 3758 §4, RFC 7496 §3-§4); the
 * policy numbers are enum sctp_rtxq_pr_policy's (sctp/rtxq.h). value: TTL
 * the deadline in ns of the caller's clock, RTX the retransmissions
 * allowed, PRIO the priority (lower value = higher priority). 16 bytes.
 * Also the pool's slot type (sctp_outq_pool_attach_pr()).
 */
struct sctp_outq_pr {
	uint64_t value;
	uint8_t policy;
	uint8_t reserved[7];
};
#define SCTP_OUTQ_PR_NONE 0u /* reliable */
#define SCTP_OUTQ_PR_TTL  1u /* timed reliability: abandoned once now > value */
#define SCTP_OUTQ_PR_RTX  2u /* limited retransmissions: the retransmission queue's */
#define SCTP_OUTQ_PR_PRIO 3u /* priority: evicted for a higher priority (lower value) */

/*
 * Nodes of one lcore, shared by its associations. n_free nodes are on the
 * free list; the others belong to some association's queue.
 */
struct sctp_outq_pool {
	struct sctp_outq_msg *nodes;
	const struct sctp_buf_ops *ops; /* hold/release of every queued buffer */
	struct sctp_outq_pr *pr;	/* n slots, slot i node i's policy; NULL: no PR-SCTP */
	uint32_t *ctx;			/* n slots, slot i node i's context; NULL: none kept */
	uint64_t pr_seq;		/* SCTP_OUTQ_PR_PRIO messages pushed (their push order) */
	uint32_t n;
	uint32_t free; /* 1 + index of the first free node; 0: none */
	uint32_t n_free;
};

/*
 * Per outbound stream, 16 bytes, caller storage (an array indexed by
 * stream id). Zero bytes are a valid idle stream with SSN and MIDs 0.
 */
struct sctp_outq_stream {
	uint32_t tail;	      /* 1 + index of the last queued message (round robin); 0: none */
	uint32_t next_mid;    /* ordered: next SSN (low 16 bits, DATA) or MID (I-DATA) */
	uint32_t next_umid;   /* unordered: next MID (I-DATA only) */
	uint16_t sched_next;  /* 1 + id of the next active stream (round robin); 0: inactive */
	uint16_t sched_param; /* PRIO: priority, WFQ: weight (sctp_outq_set_stream_param()) */
};

struct sctp_outq_config {
	uint32_t max_bytes; /* payload bytes not yet taken out, 1 .. SCTP_OUTQ_MAX_BYTES */
	uint32_t max_msgs;  /* messages not yet fully taken out, 1 .. SCTP_OUTQ_MAX_MSGS */
	uint16_t n_streams; /* outbound streams, >= 1; entries in the stream array */
	uint8_t sched;	    /* enum sctp_outq_sched */
	bool idata;	    /* I-DATA negotiated (RFC 8260 §2.2): MID/FSN, per-chunk turns */
};

/*
 * One association's queue: 48 bytes (asserted in outq.c). Read it through
 * the accessors below.
 */
struct sctp_outq {
	struct sctp_outq_pool *pool;
	struct sctp_outq_stream *streams;
	uint32_t queued_bytes; /* payload bytes not yet taken out */
	uint32_t queued_msgs;  /* messages with bytes not yet taken out */
	uint32_t max_bytes;
	uint32_t max_msgs;
	uint32_t wire_bytes; /* see sctp_outq_wire_bytes() */
	uint32_t head;	     /* scheduler: ring schedulers 1 + id of the stream before the one
				served next, FCFS 1 + index of the first message; 0 when empty */
	uint32_t tail;	     /* scheduler: FCFS 1 + index of the last message; PRIO 1 + id of the
				last (lowest priority) active stream; RR_PKT 1 + id of the
				stream of the packet being filled (0: none) and bit 31; RR,
				WFQ, FC unused */
	uint16_t n_streams;
	uint8_t sched; /* enum sctp_outq_sched */
	uint8_t flags; /* SCTP_OUTQ_QF_* */
};

#define SCTP_OUTQ_QF_IDATA 0x01u /* I-DATA: MID and FSN, 20-byte headers, per-chunk turns */
#define SCTP_OUTQ_QF_TAKEN 0x02u /* a first fragment went out since init (SSN/MID given) */

/* A DATA (or I-DATA) chunk to send: everything but the TSN, which the association assigns. */
struct sctp_outq_chunk {
	struct sctp_slice slice; /* handle (one reference, the receiver's), data, len */
	uint32_t ppid;		 /* host order; I-DATA carries it in the first fragment only */
	uint32_t mid;		 /* I-DATA MID; DATA: the SSN again (0 if unordered) */
	uint32_t fsn;		 /* the fragment's index in its message, 0 first: I-DATA's FSN */
	uint16_t sid;
	uint16_t ssn;	   /* DATA SSN; 0 for unordered (U set) */
	uint8_t flags;	   /* SCTP_DATA_FLAG_{B,E,U,I} */
	uint8_t pr_policy; /* the message's SCTP_OUTQ_PR_*, NONE if pushed without one */
	uint64_t pr_value; /* its struct sctp_outq_pr value; 0 for NONE */
	uint32_t context;  /* the message's context (sctp_outq_push_ctx()); 0 without */
};

/* What sctp_outq_abandon() and the PR-SCTP calls report for each message they drop. */
struct sctp_outq_unsent {
	struct sctp_slice msg; /* the whole message as pushed; handle still held */
	uint32_t ppid;
	uint32_t taken; /* bytes already handed out as chunks (0: none sent) */
	uint16_t sid;
	uint8_t flags;	   /* SCTP_OUTQ_* as pushed */
	uint8_t pr_policy; /* SCTP_OUTQ_PR_* as pushed */
	uint32_t context;  /* as pushed (sctp_outq_push_ctx()); 0 without */
};

/*
 * Called once per dropped message, before its reference is released. It
 * must not call into the queue.
 */
typedef void (*sctp_outq_unsent_fn)(void *arg, const struct sctp_outq_unsent *u);

/*
 * Put nodes[0 .. n-1] on the pool's free list (n stores). ops is kept and
 * must outlive every queue using the pool. -EINVAL for n == 0 or above
 * SCTP_OUTQ_POOL_MAX, NULL nodes or ops.
 */
int sctp_outq_pool_init(struct sctp_outq_pool *p, struct sctp_outq_msg *nodes, uint32_t n,
			const struct sctp_buf_ops *ops);

/*
 * PR-SCTP slots for a pool: slots[0 .. n-1] beside the pool's n nodes,
 * slot i belonging to node i (caller storage, 16 bytes each; never read
 * for a reliable message, so they need no initialization). Without them
 * only reliable messages can be pushed. Call after sctp_outq_pool_init(),
 * before any message is pushed. -1 (nothing changed) if n != p->n or slots
 * is NULL.
 */
int sctp_outq_pool_attach_pr(struct sctp_outq_pool *p, struct sctp_outq_pr *slots, uint32_t n);

/*
 * Context slots for a pool, as the PR slots: slots[i] holds node i's
 * message context (caller storage, 4 bytes each, written by every push).
 * Without them a message can only be pushed with context 0. -1 (nothing
 * changed) if n != p->n or slots is NULL.
 */
int sctp_outq_pool_attach_ctx(struct sctp_outq_pool *p, uint32_t *slots, uint32_t n);

static inline uint32_t
sctp_outq_pool_free(const struct sctp_outq_pool *p)
{
	return p->n_free;
}

/*
 * An empty queue over streams[0 .. cfg->n_streams - 1], all of them idle
 * with SSN and MIDs 0 (16 * n_streams bytes written; RFC 9260 §6.5: the
 * SSNs of all outgoing streams start from 0 when the association is
 * established, after a restart too, once sctp_outq_abandon() has emptied
 * the queue). -EINVAL for a bad config (a zero or out-of-bounds limit, no
 * streams, an unknown scheduler) or NULL storage.
 */
int sctp_outq_init(struct sctp_outq *q, struct sctp_outq_pool *pool,
		   struct sctp_outq_stream *streams, const struct sctp_outq_config *cfg);

/*
 * New limits, within the bounds of struct sctp_outq_config. Lowering them
 * below what is queued drops nothing: pushes fail with -ENOBUFS until the
 * queue falls below them. -EINVAL for a bound violated (nothing changed).
 */
int sctp_outq_set_limits(struct sctp_outq *q, uint32_t max_bytes, uint32_t max_msgs);

/*
 * I-DATA on or off: RFC 8260 §2.2, the handshake tells, and the user may
 * have queued messages before it ended. Allowed (0) until the first chunk
 * is taken out after init, -EBUSY afterwards: the SSNs or MIDs given so far
 * belong to one chunk type.
 */
int sctp_outq_set_idata(struct sctp_outq *q, bool on);

/*
 * Another scheduler; only while nothing is queued (-EBUSY), -EINVAL if
 * unknown. The stream parameters are kept.
 */
int sctp_outq_set_sched(struct sctp_outq *q, unsigned sched);

/* "rr", "fcfs", "rr_pkt", "prio", "fc", "wfq"; NULL for an unknown value. */
const char *sctp_outq_sched_name(unsigned sched);

/*
 * Stream sid's parameter, at any time, messages queued or not: its priority
 * under SCTP_OUTQ_SCHED_PRIO (0 highest, the default), its weight under
 * SCTP_OUTQ_SCHED_WFQ (1 .. 65535; 0, the default of a stream never set,
 * counts as 1). Other schedulers keep it for a later switch. A new priority
 * takes effect at once (at the end of a DATA message already begun), a new
 * weight from the stream's next turn. -EINVAL for sid >= n_streams, or
 * value 0 under WFQ (a weight 0 would starve the stream); nothing changed.
 * O(1), but O(A) for an active stream under PRIO (see Costs).
 */
int sctp_outq_set_stream_param(struct sctp_outq *q, uint16_t sid, uint16_t value);

/* Stream sid's parameter as set (0 if never), or -EINVAL for sid >= n_streams. */
int sctp_outq_stream_param(const struct sctp_outq *q, uint16_t sid);

/*
 * RFC 6525 §5.1.5: more streams. The queue moves to `streams` (n entries,
 * n >= its count; may be the old array grown in place): the entries it has
 * are copied (memmove), the new ones start idle with SSN and MIDs 0. Stream
 * ids do not change, so queued messages and the scheduler's turns stay as
 * they were. -EINVAL for n below the stream count; nothing changed then.
 */
int sctp_outq_grow(struct sctp_outq *q, struct sctp_outq_stream *streams, uint16_t n);

/* Whether stream sid has a message queued, whole or part taken (false for sid >= n_streams). */
bool sctp_outq_stream_busy(const struct sctp_outq *q, uint16_t sid);

/*
 * RFC 6525 §5.1.2: stream sid's numbering starts again, its next SSN (DATA)
 * or ordered and unordered MIDs (I-DATA) 0. Only with nothing of it queued:
 * -EBUSY otherwise, -EINVAL for sid >= n_streams; nothing changed then.
 */
int sctp_outq_reset_stream(struct sctp_outq *q, uint16_t sid);

/*
 * The packet being filled is complete: round robin per packet passes the
 * turn to the next stream (other schedulers: nothing). sctp_outq_fill()
 * calls it before it returns; a caller taking chunks with sctp_outq_next()
 * calls it after the last chunk of each packet. O(1).
 */
void sctp_outq_packet_end(struct sctp_outq *q);

/*
 * Queue one message for stream sid: the bytes msg->data[0 .. msg->len - 1]
 * of buffer msg->handle, held (once) from now on; flags SCTP_OUTQ_*.
 * Returns 0, or -EINVAL, -EMSGSIZE, -ENOBUFS, -ENOMEM (see the top of this
 * file); on error nothing was held or queued. O(1).
 */
int sctp_outq_push(struct sctp_outq *q, uint16_t sid, uint32_t ppid, uint8_t flags,
		   const struct sctp_slice *msg);

/*
 * sctp_outq_push() with a PR-SCTP policy, carried by every chunk cut from
 * the message (struct sctp_outq_chunk pr_policy and pr_value). pr NULL or
 * policy SCTP_OUTQ_PR_NONE is sctp_outq_push(). -EINVAL for an unknown
 * policy, or a policy while the pool has no PR slots; otherwise push's
 * errors. O(1).
 */
int sctp_outq_push_pr(struct sctp_outq *q, uint16_t sid, uint32_t ppid, uint8_t flags,
		      const struct sctp_slice *msg, const struct sctp_outq_pr *pr);

/*
 * sctp_outq_push_pr() with the application's context for the message (RFC
 * 6458 snd_context), carried by its chunks (struct sctp_outq_chunk) and
 * reported if the message is dropped (struct sctp_outq_unsent). -EINVAL
 * for a context other than 0 while the pool has no context slots;
 * otherwise push_pr's errors. O(1).
 */
int sctp_outq_push_ctx(struct sctp_outq *q, uint16_t sid, uint32_t ppid, uint8_t flags,
		       const struct sctp_slice *msg, const struct sctp_outq_pr *pr,
		       uint32_t context);

/*
 * Take the next chunk the scheduler picks: at most max_payload bytes of user
 * data (cut at 65519 for DATA, 65515 for I-DATA, so the chunk Length fits
 * 16 bits), B on a message's first fragment, E on its last, U as pushed, I
 * on the last fragment of a SACK_NOW message. The chunk carries one buffer
 * reference for its receiver (see the top of this file). Returns 0, -ENOENT
 * when nothing is queued, -EINVAL for max_payload 0. Pass the path's PMDCS
 * less the chunk header (1452 for DATA on an IPv4 path of MTU 1500); a
 * multiple of 4 keeps padding out of all fragments but the last. A chunk
 * taken cannot be put back (its SSN is given, and with DATA the rest of
 * its message must follow it): ask only for what can be sent now, room in
 * the retransmission queue included.
 */
int sctp_outq_next(struct sctp_outq *q, uint32_t max_payload, struct sctp_outq_chunk *c);

/*
 * Bytes the next chunk would take in a packet, header and padding
 * included, for this max_payload (0 when nothing is queued or max_payload
 * is 0). Changes nothing. O(1).
 */
uint32_t sctp_outq_peek_len(const struct sctp_outq *q, uint32_t max_payload);

/*
 * Bundle: take chunks, as sctp_outq_next() would, while the next one fits
 * in what is left of room bytes (header and padding counted) and fewer than
 * max have been taken (bound max by the room in the retransmission queue).
 * Stops at the first chunk that does not fit; never fragments a message to
 * fill the room. *used (may be NULL) gets the bytes
 * taken. Returns the number of chunks written to out. The chunks are one
 * packet's: fill ends with sctp_outq_packet_end().
 */
unsigned sctp_outq_fill(struct sctp_outq *q, uint32_t max_payload, uint32_t room,
			struct sctp_outq_chunk *out, unsigned max, uint32_t *used);

/*
 * Drop every queued message (association close, abort or restart): fn (may
 * be NULL) is called for each, in the order the scheduler would have sent
 * them (per stream, the order they were queued), then its reference is
 * released. Returns how many messages were dropped; the queue is empty
 * afterwards and the SSNs and MIDs are kept (sctp_outq_init() resets them).
 */
uint32_t sctp_outq_abandon(struct sctp_outq *q, sctp_outq_unsent_fn fn, void *arg);

/*
 * PR-SCTP, messages still in the queue (RFC 3758 §3.5, RFC 7496 §3-§4).
 * A message none of whose bytes have been taken out (unsent) is abandoned
 * here without trace on the wire: it has no TSN, and no SSN or MID either
 * (given when the first fragment goes), so the stream's numbering goes on
 * as if it had never been queued and no FORWARD TSN is needed. A message
 * partly sent is the retransmission queue's to abandon; it then calls
 * sctp_outq_abandon_partial() for the rest. The message leaves the
 * schedulers as when its last chunk is taken: a stream that empties leaves
 * the ring of active streams, WFQ/FC credit moves to the stream's next
 * message.
 */

/*
 * Abandon every unsent SCTP_OUTQ_PR_TTL message whose deadline has passed
 * (now_ns > value: alive at the deadline itself). Partly sent ones stay.
 * fn (may be NULL) is called for each (taken 0) before its reference is
 * released. *next_deadline (may be NULL) gets the earliest deadline of
 * the TTL messages still queued, partly sent ones included, UINT64_MAX
 * when none. Returns the messages abandoned. O(queued messages).
 */
uint32_t sctp_outq_pr_expire(struct sctp_outq *q, uint64_t now_ns, sctp_outq_unsent_fn fn,
			     void *arg, uint64_t *next_deadline);

/*
 * RFC 7496 §4, priority policy, the send buffer is full: abandon unsent
 * SCTP_OUTQ_PR_PRIO messages of lower priority than prio (value strictly
 * greater), the lowest priority first, until their payload bytes reach
 * need or none is left; fn as for sctp_outq_pr_expire(). Among equal
 * priorities the most recently pushed goes first: the older ones have
 * waited longest and are next to go out (a FIFO buffer's tail drop);
 * nothing of them is on the wire yet, so there is no Advanced.Peer.Ack.Point
 * to move, the reason the retransmission queue abandons its oldest first.
 * Returns the payload bytes freed. O(queued messages) per message
 * abandoned.
 */
uint32_t sctp_outq_pr_evict(struct sctp_outq *q, uint64_t prio, uint32_t need,
			    sctp_outq_unsent_fn fn, void *arg);

/*
 * The retransmission queue abandoned a message whose first fragments went
 * out and whose last did not (RFC 3758 §3.5 A3: the rest MUST be abandoned
 * at the same time): drop the rest of the partly sent message at the head
 * of stream sid (off > 0), without a report (the retransmission queue
 * reported it), releasing the queue's reference. Returns the payload bytes
 * dropped, 0 when stream sid has no partly sent message (or sid >=
 * n_streams). O(1), but O(streams with data) when the stream empties and
 * is not the one served next.
 */
uint32_t sctp_outq_abandon_partial(struct sctp_outq *q, uint16_t sid);

static inline uint32_t
sctp_outq_queued_bytes(const struct sctp_outq *q)
{
	return q->queued_bytes;
}

static inline uint32_t
sctp_outq_queued_msgs(const struct sctp_outq *q)
{
	return q->queued_msgs;
}

static inline bool
sctp_outq_empty(const struct sctp_outq *q)
{
	return q->queued_msgs == 0;
}

/*
 * Bytes of DATA chunks (header and padding included) the queued data makes
 * if each message's untaken part went out as one chunk. Exact while no such
 * part exceeds max_payload; otherwise every further fragment adds a header
 * and padding, but then that one message already fills a packet. O(1).
 */
static inline uint32_t
sctp_outq_wire_bytes(const struct sctp_outq *q)
{
	return q->wire_bytes;
}

/* The SSN the next ordered DATA message on sid gets (sid < n_streams). */
static inline uint16_t
sctp_outq_next_ssn(const struct sctp_outq *q, uint16_t sid)
{
	return (uint16_t)q->streams[sid].next_mid;
}

/*
 * The scheduler interface. A scheduler owns q->head, q->tail, the tail
 * and sched_next of every stream entry (it reads sched_param, which
 * sctp_outq_set_stream_param() writes) and the next and credit fields of
 * the nodes; messages link through next. Contract:
 *   push(q, ref)        node ref (1 + index, fields set) joins the queue;
 *   peek(q)             the node whose next fragment goes out now, 0 if
 *                       none; must not change anything;
 *   taken(q, ref, bytes, done)
 *                       a fragment of ref, peek's answer, bytes of user
 *                       data long, was taken (abandon: the rest);
 *                       done: it was the last one, unlink the node (the
 *                       queue frees it afterwards). Unless I-DATA is on
 *                       (SCTP_OUTQ_QF_IDATA), peek must answer ref again
 *                       after taken(q, ref, false):
 *                       DATA fragments go back to back (RFC 9260 §6.9).
 */
struct sctp_outq_sched_ops {
	const char *name;
	void (*push)(struct sctp_outq *q, uint32_t ref);
	uint32_t (*peek)(const struct sctp_outq *q);
	void (*taken)(struct sctp_outq *q, uint32_t ref, uint32_t bytes, bool done);
};

extern const struct sctp_outq_sched_ops *const sctp_outq_scheds[SCTP_OUTQ_SCHED_COUNT];

#endif /* SCTP_OUTQ_H */
