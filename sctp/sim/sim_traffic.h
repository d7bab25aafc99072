/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Traffic for data simulations: what each side sends, and the
 * judge of what the other side delivers. Deterministic from a seed, so a
 * failing run replays; nothing is allocated per message.
 *
 * Message k of a side (k = 0, 1, ...) is fully determined by (seed, side,
 * k): its stream, whether it is unordered, its length (log-uniform between
 * min_len and max_len, so that 1-byte messages and 64 KiB fragmented ones
 * both occur) and every payload byte. Its PPID is k, so the receiver can
 * regenerate it from the PPID alone and compare every byte, whatever order
 * it arrives in (RFC 9260 §3.3.1: the PPID travels with every message,
 * opaque to SCTP). The judge checks:
 *
 *   - exactly once: each k delivered at most once, and at the end all of
 *     them (sim_traffic_missing());
 *   - in order per ordered stream: the k of a stream's ordered messages
 *     increase (the sender sends them in k order per stream);
 *   - byte-identical: length, stream, U flag and every byte;
 *   - nothing unexpected: k beyond what the sender produced, a stream the
 *     message does not belong to.
 *
 * With PR-SCTP (RFC 3758, RFC 7496) a share of the messages carries a
 * policy (pr_policy, pr_value: a lifetime or a retransmission limit, also
 * drawn from (seed, side, k)). The sender reports what the association
 * abandoned (its SEND_FAILED notifications) to the judge of its messages
 * (sim_traffic_judge_abandoned()), and "exactly once" becomes: a message
 * with a policy is delivered at most once, or, if never delivered,
 * reported abandoned exactly once; one reported unsent (it never went out)
 * is never delivered; a reliable one is never reported.
 *
 * Payload buffers are the sender's "application buffers": a fixed pool of
 * refcounted blocks (struct sim_appbuf), so the simulator can check that
 * the association gives back every reference it took (zero copy, sctp/buf.h).
 */
#ifndef SCTP_SIM_SIM_TRAFFIC_H
#define SCTP_SIM_SIM_TRAFFIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest message the generator makes (RFC 9260 allows more; 64 KiB
 * exercises fragmentation at every MTU). */
#define SIM_TRAFFIC_MAX_LEN 65536u

struct sim_traffic_config {
	uint64_t seed;
	uint32_t messages;     /* per side */
	uint32_t min_len;      /* >= 1 */
	uint32_t max_len;      /* <= SIM_TRAFFIC_MAX_LEN */
	uint16_t streams;      /* messages spread over streams 0 .. streams-1 */
	uint8_t unordered_pct; /* share of unordered messages, 0..100 */
	/*
	 * PR-SCTP mix, none when both shares are 0: a share of the messages
	 * with a lifetime (SCTP_PR_TTL, log-uniform in [ttl_min_ms,
	 * ttl_max_ms]) and a share with a retransmission limit (SCTP_PR_RTX,
	 * uniform in 0 .. rtx_max); ttl_pct + rtx_pct <= 100, the rest reliable.
	 */
	uint8_t ttl_pct;
	uint8_t rtx_pct;
	uint8_t rtx_max;
	uint32_t ttl_min_ms; /* >= 1 */
	uint32_t ttl_max_ms;
};

/* One generated message's description (the bytes come from sim_traffic_fill()). */
struct sim_traffic_msg {
	uint32_t k;
	uint32_t len;
	uint16_t sid;
	bool unordered;
	uint8_t pr_policy; /* SCTP_PR_NONE, _TTL or _RTX (sctp/assoc.h) */
	uint32_t pr_value; /* its value for sctp_assoc_send_pr(); 0 for NONE */
};

/* Message k of side `side` (0 or 1). */
struct sim_traffic_msg sim_traffic_msg(const struct sim_traffic_config *c, unsigned side,
				       uint32_t k);

/* Its payload bytes, m->len of them, into out. */
void sim_traffic_fill(const struct sim_traffic_config *c, unsigned side,
		      const struct sim_traffic_msg *m, uint8_t *out);

/* Why a delivery was refused by the judge. */
enum sim_traffic_verdict {
	SIM_TRAFFIC_OK = 0,
	SIM_TRAFFIC_UNKNOWN,   /* PPID names no message the sender makes */
	SIM_TRAFFIC_TWICE,     /* delivered before */
	SIM_TRAFFIC_WRONG,     /* length, stream, U flag or a byte differs */
	SIM_TRAFFIC_REORDERED, /* an ordered message before an earlier one of its stream */
	/* PR-SCTP (sim_traffic_judge_abandoned()) */
	SIM_TRAFFIC_RELIABLE_ABANDONED, /* a message without a policy reported abandoned */
	SIM_TRAFFIC_ABANDONED_TWICE,	/* reported abandoned before */
	SIM_TRAFFIC_UNSENT_DELIVERED,	/* delivered, and reported as never sent */
	SIM_TRAFFIC_WRONG_REPORT,	/* the report's stream, length or policy differs */
};

const char *sim_traffic_verdict_name(enum sim_traffic_verdict v);

/*
 * The receiving side's judge of the other side's messages. Caller storage:
 * seen[] one bit per message (messages / 8 + 1 bytes), last_k[] one entry
 * per stream; with PR-SCTP traffic also abandoned[] and unsent[], one bit
 * per message each (sim_traffic_judge_pr()).
 */
struct sim_traffic_judge {
	const struct sim_traffic_config *cfg;
	unsigned from_side;
	uint8_t *seen;
	int64_t *last_k; /* highest ordered k delivered per stream, -1: none */
	uint32_t delivered;
	uint64_t bytes;
	/* PR-SCTP: NULL without (a report is then UNKNOWN). */
	uint8_t *abandoned; /* reported abandoned */
	uint8_t *unsent;    /* ... and not sent at all (RFC 6458 SCTP_DATA_UNSENT) */
	uint32_t reported;  /* abandonment reports accepted */
	uint32_t reported_unsent;
	uint32_t reported_delivered; /* reported (sent) and delivered all the same */
	uint32_t settled;	     /* delivered, or reported abandoned */
	uint32_t bad;		     /* deliveries and reports refused */
	enum sim_traffic_verdict first_bad;
	uint32_t first_bad_k;
};

void sim_traffic_judge_init(struct sim_traffic_judge *j, const struct sim_traffic_config *cfg,
			    unsigned from_side, uint8_t *seen, int64_t *last_k);

/*
 * A whole message as delivered: its PPID, stream, U flag and bytes, read
 * as `n` slices (data, len) in order. scratch holds the regenerated
 * message (SIM_TRAFFIC_MAX_LEN bytes).
 */
enum sim_traffic_verdict sim_traffic_judge(struct sim_traffic_judge *j, uint32_t ppid, uint16_t sid,
					   bool unordered, const uint8_t *const *data,
					   const uint32_t *len, unsigned n, uint8_t *scratch);

/* Caller storage for the PR-SCTP reports, messages / 8 + 1 bytes each. */
void sim_traffic_judge_pr(struct sim_traffic_judge *j, uint8_t *abandoned, uint8_t *unsent);

/*
 * The sender's report that the association abandoned message ppid under
 * its PR-SCTP policy (a SEND_FAILED notification with pr_policy): its
 * stream, length and policy as notified, and whether some of it was sent.
 * The length is the message's when unsent; when sent, the bytes not yet
 * acknowledged when it was given up: 1 .. the message's.
 */
enum sim_traffic_verdict sim_traffic_judge_abandoned(struct sim_traffic_judge *j, uint32_t ppid,
						     uint16_t sid, uint32_t length,
						     uint8_t pr_policy, bool sent);

/* Messages neither delivered nor reported abandoned yet. */
uint32_t sim_traffic_missing(const struct sim_traffic_judge *j);

/* A refcounted application buffer the sender's messages live in. */
struct sim_appbuf {
	int32_t refs;
	uint32_t len;
	uint8_t *bytes; /* SIM_TRAFFIC_MAX_LEN bytes of the pool's storage */
};

struct sim_appbuf_pool {
	struct sim_appbuf *bufs;
	uint8_t *storage;
	uint32_t n;
	uint32_t in_use;       /* buffers with refs > 0 */
	uint64_t holds;	       /* every hold */
	uint64_t releases;     /* every release */
	uint64_t bad_releases; /* a release of a buffer with no reference: a bug */
};

/* n buffers over storage of n * SIM_TRAFFIC_MAX_LEN bytes. */
void sim_appbuf_pool_init(struct sim_appbuf_pool *p, struct sim_appbuf *bufs, uint8_t *storage,
			  uint32_t n);
/* A free buffer with one reference, or NULL. */
struct sim_appbuf *sim_appbuf_get(struct sim_appbuf_pool *p);
void sim_appbuf_hold(struct sim_appbuf_pool *p, struct sim_appbuf *b);
void sim_appbuf_release(struct sim_appbuf_pool *p, struct sim_appbuf *b);

#ifdef __cplusplus
}
#endif

#endif /* SCTP_SIM_SIM_TRAFFIC_H */
