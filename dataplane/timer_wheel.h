/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-lcore hierarchical timer wheel: the wake-ups of the associations an
 * lcore owns (RFC 9260 §6.3 T3-rtx, §5.1 T1-init / T1-cookie, §8.3
 * heartbeats, §6.2 delayed SACK, §9.2 T2-shutdown and T5) on the clock the
 * run-to-completion loop reads (TSC converted to nanoseconds).
 *
 * Internal to the data plane (hidden symbols, not in dpsctp.h). No DPDK, no
 * clock reads, no allocation, no locks: one wheel belongs to one lcore and
 * every call on it runs on that lcore (docs/ARCHITECTURE.md decision 2).
 *
 * Shape: 4 levels of 256 slots over ticks of tick_ns nanoseconds (default
 * 1 us). Level k holds timers whose expiry is 2^(8k) to 2^(8k+8) - 1 ticks
 * ahead of the wheel's current tick (level 0: 1 to 255), in the slot named
 * by digit k of the expiry tick; when the current tick enters a level-k slot's
 * block of 2^(8k) ticks, the slot is emptied into the levels below
 * (cascade). Horizon 2^32 - 1 ticks: 71.6 minutes at 1 us, so every timer of
 * the data-center profile (100 us to 200 ms) and of the RFC profile (RTO.Max
 * 60 s, HB.interval 30 s, valid cookie life 60 s) is placed directly. A
 * deadline beyond the horizon is placed at the horizon and placed again
 * when the horizon is reached: it is still never fired early, it costs one
 * more cascade per 2^32 ticks.
 *
 * Timing guarantee. A timer armed for deadline_ns expires at tick
 * E = max(ceil(deadline_ns / tick_ns), C + 1), where C is the wheel's
 * current tick when it was armed (floor of the last now_ns passed to
 * dpsctp_timer_wheel_advance(), or to init). It fires exactly once, in the
 * first advance() whose floor(now_ns / tick_ns) >= E, unless cancelled or
 * re-armed first. So it is never early (E * tick_ns >= deadline_ns) and,
 * for a deadline after the current tick, at most one tick late
 * (E * tick_ns < deadline_ns + tick_ns); a deadline at or before the
 * current tick fires at the next tick.
 *
 * Ordering guarantee. Within one advance() call timers fire in order of
 * their expiry tick E (non-decreasing); timers of the same tick fire in an
 * unspecified order (in practice the order in which they reached the
 * level-0 slot). Sub-tick order is not kept: deadlines 0.3 and 0.7 ticks
 * apart in the same tick may fire either way round. The callback sees the
 * tick being fired through dpsctp_timer_wheel_now_ns().
 *
 * Callbacks may arm, re-arm and cancel any timer of the wheel, including
 * the one firing and ones due in the same tick that have not fired yet (a
 * cancelled one then does not fire). A timer armed from a callback expires
 * at the earliest at the next tick, and fires within the same advance() if
 * that tick is not after now_ns. Callbacks must not call advance().
 *
 * Costs (bench/timer_wheel_bench.cc, 1 us ticks, 1024 timers; docs/DEMUX.md
 * has the table): arm, re-arm and cancel are O(1), a 64x64 multiply for the
 * tick, a list link and a bitmap bit (arm 10 cycles, cancel 4, re-arm 13 to
 * 15); advance() with nothing due is a multiply and a compare (4.5 cycles);
 * a fired timer costs its unlink plus at most one re-placement per level it
 * passed through, at most 3 (11 cycles per timer for deadlines within 200
 * us, 85 within 200 ms, where most ticks with work hold one timer and pay
 * the 16-word scan for the next event).
 *
 * Memory: struct dpsctp_timer_wheel is about 16.5 KiB (1024 list heads and
 * a 1024-bit occupancy map), all in the caller's storage; a timer is 32
 * bytes embedded in its owner (recover the owner with offsetof).
 *
 * Times are nanoseconds below 2^63 (292 years from the clock's zero).
 */
#ifndef DPSCTP_DATAPLANE_TIMER_WHEEL_H
#define DPSCTP_DATAPLANE_TIMER_WHEEL_H

#include <stdbool.h>
#include <stdint.h>

#define DPSCTP_TIMER_WHEEL_LEVELS	   4u
#define DPSCTP_TIMER_WHEEL_SLOT_BITS	   8u
#define DPSCTP_TIMER_WHEEL_SLOTS	   (1u << DPSCTP_TIMER_WHEEL_SLOT_BITS)
#define DPSCTP_TIMER_WHEEL_HORIZON_TICKS   ((UINT64_C(1) << 32) - 1u)
#define DPSCTP_TIMER_WHEEL_DEFAULT_TICK_NS 1000u

/* A list link; the wheel's slot heads are links, timers embed one. */
struct dpsctp_timer_link {
	struct dpsctp_timer_link *next;
	struct dpsctp_timer_link *prev;
};

/*
 * A timer, embedded in its owner. Initialise with dpsctp_timer_init() once;
 * the fields are the wheel's.
 */
struct dpsctp_timer {
	struct dpsctp_timer_link link; /* must stay first: the wheel casts back */
	uint64_t expiry;	       /* tick E (see above) while armed */
	uint32_t where;		       /* level * 256 + slot, or an idle / firing mark */
};

struct dpsctp_timer_wheel {
	uint64_t cur;	     /* the current tick: every tick <= cur has been processed */
	uint64_t next_event; /* a lower bound (> cur) on the next tick with work */
	uint64_t tick_ns;
	uint64_t recip; /* floor((2^64 - 1) / tick_ns), for division by multiply */
	uint32_t count; /* timers armed */
	bool in_advance;
	uint64_t occupied[DPSCTP_TIMER_WHEEL_LEVELS][DPSCTP_TIMER_WHEEL_SLOTS / 64u];
	struct dpsctp_timer_link slots[DPSCTP_TIMER_WHEEL_LEVELS][DPSCTP_TIMER_WHEEL_SLOTS];
	struct dpsctp_timer_link firing; /* the tick's timers while their callbacks run */
};

/*
 * Called for each timer that fires, after it is disarmed (so it may be
 * re-armed from here). @w is the wheel, @arg the advance() argument.
 */
typedef void (*dpsctp_timer_cb)(struct dpsctp_timer_wheel *w, struct dpsctp_timer *t, void *arg);

/*
 * Start an empty wheel whose current tick is floor(now_ns / tick_ns).
 * tick_ns 0 selects DPSCTP_TIMER_WHEEL_DEFAULT_TICK_NS (1 us).
 * Returns 0, or -EINVAL when tick_ns is above 2^32 (4.3 s, a tick too coarse
 * for any SCTP timer).
 */
int dpsctp_timer_wheel_init(struct dpsctp_timer_wheel *w, uint64_t tick_ns, uint64_t now_ns);

/* Mark a timer idle (not armed). Once, before its first use. */
void dpsctp_timer_init(struct dpsctp_timer *t);

/*
 * Arm @t to expire at @deadline_ns (see the timing guarantee above). If it
 * is armed already it is moved: it then fires once, for the new deadline.
 */
void dpsctp_timer_arm(struct dpsctp_timer_wheel *w, struct dpsctp_timer *t, uint64_t deadline_ns);

/* Disarm @t; nothing happens if it is not armed. */
void dpsctp_timer_cancel(struct dpsctp_timer_wheel *w, struct dpsctp_timer *t);

/* Whether @t is armed (it fires unless cancelled). */
bool dpsctp_timer_armed(const struct dpsctp_timer *t);

/* The time @t expires at: its tick E times tick_ns. Only while armed. */
uint64_t dpsctp_timer_expiry_ns(const struct dpsctp_timer_wheel *w, const struct dpsctp_timer *t);

/*
 * Fire every timer whose expiry tick is at or before floor(now_ns /
 * tick_ns), calling @cb(w, t, @arg) for each, in tick order. A now_ns
 * earlier than the current tick changes nothing.
 * Returns the number of timers fired.
 */
unsigned dpsctp_timer_wheel_advance(struct dpsctp_timer_wheel *w, uint64_t now_ns,
				    dpsctp_timer_cb cb, void *arg);

/*
 * When the lcore may sleep until: the start of the earliest tick at which
 * advance() can have work, UINT64_MAX when no timer is armed. Never later
 * than the earliest expiry; it may be earlier (a cascade of a higher level,
 * or a timer cancelled since), and then an advance() at that time fires
 * nothing and the next call answers a later time. O(1): 16 bitmap words.
 */
uint64_t dpsctp_timer_wheel_next_ns(struct dpsctp_timer_wheel *w);

/* The start of the current tick; inside a callback, of the tick firing. */
uint64_t dpsctp_timer_wheel_now_ns(const struct dpsctp_timer_wheel *w);

/* Timers armed. */
uint32_t dpsctp_timer_wheel_count(const struct dpsctp_timer_wheel *w);

#endif /* DPSCTP_DATAPLANE_TIMER_WHEEL_H */
