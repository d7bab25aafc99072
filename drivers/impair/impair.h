/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A seeded impairment stage for tests and benchmarks: a one-way link that
 * loses (uniformly or in Gilbert-Elliott bursts), duplicates, corrupts,
 * reorders, delays with jitter and rate-limits the packets pushed into it,
 * then hands them back when they are due.
 *
 * The pair simulations put one stage in each direction between two
 * associations on a virtual clock; the data plane puts one behind a port's
 * transmit (or receive) path when a test or dpsctp-perf --impair asks for it.
 * Both drive it the same way:
 *
 *   impair_push(st, handle, len, now)    the packet enters the link
 *   impair_next_due(st)                  when to come back
 *   impair_pop(st, now, &handle, &len)   a packet leaves the link
 *   impair_drain(st, release, ctx)       teardown: every handle handed back
 *
 * Packets are opaque handles (an mbuf pointer, an index into a simulation's
 * buffer table) with a length. The stage never reads or writes packet bytes:
 * corruption asks the caller to flip one bit (struct impair_ops.corrupt), and
 * duplication asks the caller for a second handle (struct impair_ops.dup).
 *
 * Pure C11: no allocation (the caller gives the storage for `capacity`
 * packets at init), no clock reads (`now_ns` is passed in, uint64_t
 * nanoseconds as in sctp/time.h), no floating point, no I/O. Every random
 * choice comes from one 64-bit seed, so the same seed, configuration and
 * sequence of calls give the same result on every machine (docs/IMPAIR.md).
 * One stage is used by one thread at a time; there are no locks inside.
 */
#ifndef DRIVERS_IMPAIR_IMPAIR_H
#define DRIVERS_IMPAIR_IMPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sctp/def_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "Nothing is due": the same value as SCTP_TIME_NEVER in sctp/time.h. */
#define IMPAIR_NEVER UINT64_MAX

/*
 * Probabilities are integers in parts per billion, so a configuration means
 * the same thing on every machine and prints back exactly: 0 is never,
 * IMPAIR_PPB_ONE is always. IMPAIR_PCT(0.5) is 0.5% (a compile-time constant
 * when x is one).
 */
#define IMPAIR_PPB_ONE 1000000000u
#define IMPAIR_PCT(x)  ((uint32_t)((x)*10000000.0 + 0.5))

/*
 * A held-back packet waits for this many later packets when the
 * configuration gives neither reorder_gap nor reorder_delay_ns: the smallest
 * reordering, two neighbours swapped.
 */
#define IMPAIR_REORDER_GAP_DEFAULT 1u

/*
 * What the link does. Every knob is independent and 0 turns it off; an
 * all-zero configuration is a FIFO that holds nothing back (impair_pop()
 * returns each packet at the time it was pushed).
 */
struct impair_config {
	/* Each pushed packet is lost with this probability (ppb). */
	uint32_t loss_ppb;
	/*
	 * Gilbert-Elliott burst loss: a two-state Markov chain advanced once
	 * per pushed packet, starting in the good state. The chain moves good
	 * to bad with burst_enter_ppb and bad to good with burst_leave_ppb,
	 * then the packet is lost with burst_loss_bad_ppb or
	 * burst_loss_good_ppb according to the new state. Off when all four
	 * are 0. With loss 100% in bad and 0% in good, losses come in runs of
	 * mean length 1 / p(leave), and the long-run loss rate is
	 * p(enter) / (p(enter) + p(leave)).
	 */
	uint32_t burst_enter_ppb;
	uint32_t burst_leave_ppb;
	uint32_t burst_loss_bad_ppb;
	uint32_t burst_loss_good_ppb;
	/* A queued packet is followed by a copy (impair_ops.dup) with this probability. */
	uint32_t dup_ppb;
	/*
	 * Reordering: each packet entering the queue (copies included) is
	 * held back with reorder_ppb. A held packet leaves right after the
	 * reorder_gap-th later packet that was not held, or reorder_delay_ns
	 * after it would otherwise have left, whichever comes first; 0 turns
	 * either limit off (both 0: a gap of IMPAIR_REORDER_GAP_DEFAULT). With
	 * a gap and no delay, a held packet waits for its followers however
	 * long they take (impair_drain() still returns it).
	 */
	uint32_t reorder_ppb;
	uint32_t reorder_gap;
	uint64_t reorder_delay_ns;
	/*
	 * Every packet leaves delay_ns plus a uniform draw from
	 * [0, jitter_ns] after it entered (after the rate limit's wait, if
	 * any). Packets keep their order (a packet never leaves before the
	 * one pushed ahead of it) unless jitter_reorders is set.
	 */
	uint64_t delay_ns;
	uint64_t jitter_ns;
	bool jitter_reorders;
	/*
	 * A queued packet has one bit flipped with corrupt_ppb, at a uniform
	 * byte in [corrupt_skip, len) (so the data plane can spare the
	 * Ethernet and IP headers and reach the SCTP checksum) and a uniform
	 * bit. Packets no longer than corrupt_skip are never corrupted.
	 */
	uint32_t corrupt_ppb;
	uint32_t corrupt_skip;
	/*
	 * Token bucket of rate_bytes_per_s, depth rate_burst_bytes (at least
	 * the packet's own length), full at start. By default it shapes:
	 * packets wait in the queue, in order, until the bucket holds their
	 * length. With rate_police a packet finding too few tokens is dropped
	 * instead (IMPAIR_DROP_RATE). 0 is no limit.
	 */
	uint64_t rate_bytes_per_s;
	uint32_t rate_burst_bytes;
	bool rate_police;
	/* At most this many packets inside (0: the capacity given at init). */
	uint32_t limit;
};

/*
 * What impair_push() did with a packet. On IMPAIR_QUEUED the stage owns the
 * handle until impair_pop() or impair_drain() hands it back; on any drop the
 * caller still owns it (and frees it).
 */
enum impair_verdict {
	IMPAIR_QUEUED = 0,
#define IMPAIR_DROP(name, str, why) SCTP_DEF_ENUM(IMPAIR_DROP_##name)
#include "drivers/impair/impair_drop.def"
#undef IMPAIR_DROP
	IMPAIR_VERDICT_COUNT
};

/* "queued", the counter name of a drop, or "unknown". */
const char *impair_verdict_name(enum impair_verdict v);
/* One-line explanation, for logs and --help. */
const char *impair_verdict_describe(enum impair_verdict v);

/*
 * Counters, all since impair_init(). Invariants (checked by the tests):
 * pushed = sum of verdicts[]; verdicts[IMPAIR_QUEUED] + duplicated =
 * popped + drained + impair_count().
 */
struct impair_counters {
	uint64_t verdicts[IMPAIR_VERDICT_COUNT]; /* per verdict of impair_push() */
	uint64_t pushed;			 /* impair_push() calls */
	uint64_t duplicated;			 /* copies made and queued */
	uint64_t dup_failed;			 /* impair_ops.dup refused: copy skipped */
	uint64_t dup_no_room;			 /* queue at its limit: copy skipped */
	uint64_t corrupted;			 /* bits flipped through impair_ops.corrupt */
	uint64_t held;				 /* packets held back for reordering */
	uint64_t burst_entered;			 /* Gilbert-Elliott good -> bad transitions */
	uint64_t popped;			 /* handed back by impair_pop() */
	uint64_t drained;			 /* handed back by impair_drain() */
};

/* Counters as name/value pairs, for printing: i in [0, impair_counter_count()). */
unsigned impair_counter_count(void);
const char *impair_counter_name(unsigned i);
uint64_t impair_counter_value(const struct impair_counters *c, unsigned i);

/*
 * The caller's side of duplication and corruption; ctx is passed back.
 * dup:     make a second handle for the packet (an mbuf clone or refcount,
 *          a copy of the bytes); return false when it cannot, and the copy
 *          is skipped and counted (dup_failed). The copy carries any bit
 *          already flipped in the original: corruption comes first.
 * corrupt: flip bit `bit` (0 = least significant) of byte `offset` of the
 *          packet, offset < len. The packet may be multi-segment; the
 *          caller knows how to reach the byte.
 * Either may be NULL when its knob is 0.
 */
struct impair_ops {
	bool (*dup)(void *ctx, uintptr_t handle, uint32_t len, uintptr_t *copy);
	void (*corrupt)(void *ctx, uintptr_t handle, uint32_t len, uint32_t offset, uint8_t bit);
	void *ctx;
};

/*
 * xoshiro256** (Blackman and Vigna, 2018) seeded through splitmix64: small,
 * fast, and good enough for test decisions (not for cryptography). Exposed
 * so the simulations draw their own message sizes and streams from the same
 * kind of seed.
 */
struct impair_rng {
	uint64_t s[4];
};

/* Seed one generator. `stream` picks an independent sequence for one seed. */
void impair_rng_seed(struct impair_rng *r, uint64_t seed, uint64_t stream);
uint64_t impair_rng_next(struct impair_rng *r);
/* Uniform in [0, bound), without modulo bias; 0 when bound is 0. */
uint64_t impair_rng_below(struct impair_rng *r, uint64_t bound);
/* True with probability ppb / IMPAIR_PPB_ONE (one draw, even for 0 and 100%). */
bool impair_rng_chance(struct impair_rng *r, uint32_t ppb);

/* One independent random stream per knob (docs/IMPAIR.md, "Seeds"). */
enum impair_stream {
	IMPAIR_STREAM_LOSS,
	IMPAIR_STREAM_BURST,
	IMPAIR_STREAM_DUP,
	IMPAIR_STREAM_REORDER,
	IMPAIR_STREAM_JITTER,
	IMPAIR_STREAM_CORRUPT,
	IMPAIR_STREAM_COUNT
};

struct impair_slot; /* one packet inside; defined in impair.c */

/* The stage. Fields are private: use the functions below. */
struct impair {
	struct impair_config cfg;
	struct impair_ops ops;
	struct impair_counters ctr;
	struct impair_rng rng[IMPAIR_STREAM_COUNT];
	uint64_t seed;
	struct impair_slot *slots; /* capacity packets, in the caller's storage */
	uint32_t *heap;		   /* slot indices, min-heap on (due, order) */
	uint32_t capacity;
	uint32_t limit;	    /* effective: min(cfg.limit, capacity) */
	uint32_t used;	    /* packets inside == heap entries */
	uint32_t free_head; /* free slots, linked through slot.next */
	uint32_t held_head; /* packets waiting for reorder_gap followers, oldest first */
	uint32_t held_tail;
	uint32_t gap;	    /* effective reorder gap */
	bool ge_bad;	    /* Gilbert-Elliott state */
	uint64_t passed;    /* packets queued and not held back, ever */
	uint64_t order;	    /* tie-break between equal due times: queue order */
	uint64_t fifo_due;  /* due time of the last packet not held back */
	uint64_t last_now;  /* now_ns never goes back inside the stage */
	uint64_t tb_tokens; /* token bucket, in bytes * 10^9 */
	uint64_t tb_time;   /* when tb_tokens was last brought up to date */
};

/*
 * Bytes of storage impair_init() needs for `capacity` packets (0 if that
 * would overflow size_t). Align the storage like uint64_t.
 */
size_t impair_storage_size(uint32_t capacity);

/*
 * Start a stage holding at most `capacity` packets (at least 1), in
 * `storage` of `storage_len` bytes (impair_storage_size(capacity) or more,
 * aligned like uint64_t). ops may be NULL when dup_ppb and corrupt_ppb are 0.
 * Returns 0, or -EINVAL for a configuration impair_config_check() refuses, a
 * knob whose callback is missing, or storage too small or misaligned.
 */
int impair_init(struct impair *st, const struct impair_config *cfg, const struct impair_ops *ops,
		uint64_t seed, uint32_t capacity, void *storage, size_t storage_len);

/*
 * Change the knobs of a running stage (the data plane switches impairment
 * on and off per port). Packets inside keep their schedule; the random
 * streams carry on. Returns 0 or -EINVAL as impair_init().
 */
int impair_set_config(struct impair *st, const struct impair_config *cfg);

/* The seed given to impair_init(), to print with a failure. */
uint64_t impair_seed(const struct impair *st);
const struct impair_counters *impair_counters_get(const struct impair *st);
/* Packets inside the stage now. */
uint32_t impair_count(const struct impair *st);

/*
 * A packet of len bytes enters at now_ns (times passed to the stage must
 * not go back; an earlier now_ns is taken as the latest one seen). The
 * knobs apply in this order: uniform and burst loss, the queue limit, the
 * rate limit, corruption, then the packet and any copy are scheduled
 * (delay, jitter, reordering). Returns IMPAIR_QUEUED or the drop reason.
 */
enum impair_verdict impair_push(struct impair *st, uintptr_t handle, uint32_t len, uint64_t now_ns);

/*
 * Earliest time a packet inside is due, or IMPAIR_NEVER when the stage is
 * empty or holds only packets waiting for followers with no reorder delay.
 */
uint64_t impair_next_due(const struct impair *st);

/*
 * Hand back the next packet due at or before now_ns: the one with the
 * earliest due time, ties in the order they were queued. Returns false when
 * none is due.
 */
bool impair_pop(struct impair *st, uint64_t now_ns, uintptr_t *handle, uint32_t *len);

/* impair_pop() up to n times into handles[] and lens[]; returns how many. */
unsigned impair_pop_burst(struct impair *st, uint64_t now_ns, uintptr_t *handles, uint32_t *lens,
			  unsigned n);

/*
 * Teardown: call release once for every packet inside (due or not, in no
 * promised order), leave the stage empty and usable, and return how many.
 */
uint32_t impair_drain(struct impair *st, void (*release)(void *ctx, uintptr_t handle, uint32_t len),
		      void *ctx);

/*
 * Whether cfg is usable; if not, a message naming the field goes to err (may
 * be NULL). Returns 0 or -EINVAL.
 */
int impair_config_check(const struct impair_config *cfg, char *err, size_t err_len);

/* True when every knob is 0: the caller may bypass the stage. */
bool impair_config_is_zero(const struct impair_config *cfg);

/*
 * Parse a comma-separated list of knob=value into *cfg (all knobs not named
 * are 0) and *seed (left alone unless seed= is given), as dpsctp-perf
 * --impair takes it:
 *
 *   loss=1%,dup=0.5%,reorder=1%,delay=100us,jitter=20us,burst=0.1%/30%,seed=42
 *
 * Knobs (docs/IMPAIR.md has the full table): loss, dup, reorder, corrupt
 * take a probability ("1%", "0.25%" or a fraction "0.01"; resolution 1e-9);
 * burst takes ENTER/LEAVE[/LOSS_BAD[/LOSS_GOOD]] (loss in bad defaults to
 * 100%, in good to 0%); delay, jitter, reorder_delay take a time with a unit
 * (ns, us, ms, s); rate takes a rate per second with a unit (bit, kbit,
 * Mbit, Gbit or B, kB, MB, GB; powers of 10); reorder_gap, corrupt_skip,
 * rate_burst (bytes), limit (packets) take a whole number; jitter_reorder
 * and rate_police take 0 or 1; seed takes a decimal or 0x hex number. The
 * empty string is the all-zero configuration. Each knob may appear once.
 *
 * Returns 0, or -EINVAL with a message naming the offending token in err
 * (may be NULL); *cfg and *seed are then unchanged.
 */
int impair_parse(const char *spec, struct impair_config *cfg, uint64_t *seed, char *err,
		 size_t err_len);

/*
 * Write cfg and seed in impair_parse()'s syntax (knobs that are 0 left
 * out, seed always last), so impair_parse() gives back exactly cfg and
 * seed. Returns the length of the whole string, as snprintf() does: the
 * output is complete when that is below buf_len.
 */
int impair_format(const struct impair_config *cfg, uint64_t seed, char *buf, size_t buf_len);

#ifdef __cplusplus
}
#endif

#endif /* DRIVERS_IMPAIR_IMPAIR_H */
