/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-lcore hierarchical timer wheel: see timer_wheel.h for the contract
 * (timing and ordering guarantees, costs).
 *
 * Placement. A timer with expiry tick e is placed relative to the current
 * tick c by its distance d = e - c (d >= 1 for a fresh arm, d >= 0 in a
 * cascade): level k = the highest 8-bit group of d that is non-zero (k <= 3
 * below the horizon), slot = digit k of e, i.e. (e >> 8k) & 255. A distance
 * beyond the horizon is placed as if it were HORIZON (p = c + HORIZON) and
 * keeps its true e.
 *
 * Invariants, for every armed timer on level k >= 1 with placement tick p:
 *   1 <= (p >> 8k) - (c >> 8k) <= 256
 * (d < 2^(8k+8) gives at most 256, d >= 2^(8k) at least 1), and on level 0:
 *   1 <= p - c <= 255, p == e.
 * So the slot's block of 2^(8k) ticks that holds p is the first block after
 * c's with that digit: when c first enters a block whose start is B << 8k,
 * slot B & 255 holds exactly the timers with p >> 8k == B, and they are
 * placed again relative to c = B << 8k (they now land on lower levels,
 * level 0 slot c & 255 when p == c, or level 3 again when e is still
 * beyond the horizon). Processing a tick cascades the levels whose block
 * starts there from the top down, then fires level 0 slot c & 255, all of
 * whose timers have e == c.
 *
 * Skipping idle ticks: only ticks where a non-empty level-0 slot comes due
 * or a non-empty level-k slot's block starts have work ("events").
 * next_event is kept at or below the earliest event and above cur: arm
 * lowers it to the timer's event, cancel leaves it (a stale, early value
 * costs one empty step), and advance() recomputes it from the occupancy
 * bitmaps after each tick it processes. So advance() jumps from event to
 * event, and between events moving cur changes nothing: no timer's block
 * is entered on the way.
 */
#include <errno.h>
#include <stddef.h>

#include "dataplane/timer_wheel.h"

#define WHERE_IDLE   UINT32_C(0xffffffff)
#define WHERE_FIRING UINT32_C(0xfffffffe) /* on w->firing, callback not yet run */

_Static_assert(offsetof(struct dpsctp_timer, link) == 0, "the link must come first");
_Static_assert(sizeof(struct dpsctp_timer) <= 32, "a timer must stay 32 bytes");
_Static_assert(DPSCTP_TIMER_WHEEL_LEVELS *DPSCTP_TIMER_WHEEL_SLOT_BITS == 32,
	       "the horizon is 2^32 - 1 ticks: four levels of eight bits");

__extension__ typedef unsigned __int128 u128;

/*
 * floor(n / tick_ns) by one multiply and at most one correction: with
 * 2^64 - 1 = recip * tick + s, s < tick, n * recip / 2^64 falls short of
 * n / tick by n * (1 + s) / (tick * 2^64) < 1, so q is at most one short.
 * A 64-bit divide costs 25 to 90 cycles on the CPUs we target; this, about 5.
 */
static uint64_t
tick_floor(const struct dpsctp_timer_wheel *w, uint64_t n)
{
	uint64_t q = (uint64_t)(((u128)n * w->recip) >> 64);

	if (n - q * w->tick_ns >= w->tick_ns)
		q++;
	return q;
}

static uint64_t
tick_ceil(const struct dpsctp_timer_wheel *w, uint64_t n)
{
	uint64_t q = tick_floor(w, n);

	return q + (q * w->tick_ns != n);
}

static void
list_init(struct dpsctp_timer_link *h)
{
	h->next = h;
	h->prev = h;
}

static bool
list_empty(const struct dpsctp_timer_link *h)
{
	return h->next == h;
}

static void
list_append(struct dpsctp_timer_link *h, struct dpsctp_timer_link *l)
{
	l->prev = h->prev;
	l->next = h;
	h->prev->next = l;
	h->prev = l;
}

static void
list_unlink(struct dpsctp_timer_link *l)
{
	l->prev->next = l->next;
	l->next->prev = l->prev;
}

/* Move every element of @from to the empty list @to. */
static void
list_move_all(struct dpsctp_timer_link *from, struct dpsctp_timer_link *to)
{
	if (list_empty(from))
		return;
	to->next = from->next;
	to->prev = from->prev;
	to->next->prev = to;
	to->prev->next = to;
	list_init(from);
}

static void
bit_set(uint64_t *map, unsigned i)
{
	map[i >> 6] |= UINT64_C(1) << (i & 63u);
}

static void
bit_clear(uint64_t *map, unsigned i)
{
	map[i >> 6] &= ~(UINT64_C(1) << (i & 63u));
}

/*
 * Distance, in [0, 256), from slot @from forward (wrapping) to the first
 * occupied slot of a level, or -1 when the level is empty.
 */
static int
first_occupied(const uint64_t map[DPSCTP_TIMER_WHEEL_SLOTS / 64u], unsigned from)
{
	unsigned word = from >> 6;
	unsigned bit = from & 63u;
	uint64_t x = map[word] & (~UINT64_C(0) << bit);

	if (x != 0)
		return (int)((word << 6 | (unsigned)__builtin_ctzll(x)) - from);
	for (unsigned i = 1; i <= 4; i++) {
		unsigned ww = (word + i) & 3u;
		x = map[ww];
		if (i == 4)
			x &= (UINT64_C(1) << bit) - 1u; /* the wrapped part below @from */
		if (x != 0) {
			unsigned pos = ww << 6 | (unsigned)__builtin_ctzll(x);
			return (int)((pos - from) & (DPSCTP_TIMER_WHEEL_SLOTS - 1u));
		}
	}
	return -1;
}

/* The earliest tick after w->cur with work, UINT64_MAX if none. */
static uint64_t
compute_next_event(const struct dpsctp_timer_wheel *w)
{
	uint64_t best = UINT64_MAX;

	for (unsigned k = 0; k < DPSCTP_TIMER_WHEEL_LEVELS; k++) {
		unsigned shift = k * DPSCTP_TIMER_WHEEL_SLOT_BITS;
		uint64_t block = w->cur >> shift;
		int o = first_occupied(w->occupied[k],
				       (unsigned)(block + 1u) & (DPSCTP_TIMER_WHEEL_SLOTS - 1u));

		if (o < 0)
			continue;
		uint64_t ev = (block + 1u + (uint64_t)o) << shift;
		if (ev < best)
			best = ev;
	}
	return best;
}

/* Link @t (not on any list) into its slot relative to w->cur; e >= cur. */
static void
place(struct dpsctp_timer_wheel *w, struct dpsctp_timer *t)
{
	uint64_t d = t->expiry - w->cur;
	uint64_t p = t->expiry;
	unsigned k = 0;

	if (d > DPSCTP_TIMER_WHEEL_HORIZON_TICKS) {
		d = DPSCTP_TIMER_WHEEL_HORIZON_TICKS;
		p = w->cur + d;
	}
	if (d != 0)
		k = (unsigned)(63 - __builtin_clzll(d)) / DPSCTP_TIMER_WHEEL_SLOT_BITS;
	unsigned shift = k * DPSCTP_TIMER_WHEEL_SLOT_BITS;
	unsigned slot = (unsigned)(p >> shift) & (DPSCTP_TIMER_WHEEL_SLOTS - 1u);

	list_append(&w->slots[k][slot], &t->link);
	bit_set(w->occupied[k], slot);
	t->where = k << DPSCTP_TIMER_WHEEL_SLOT_BITS | slot;

	uint64_t ev = (p >> shift) << shift;
	if (ev < w->next_event)
		w->next_event = ev;
}

/* Take @t off whatever list holds it; it stays counted. */
static void
detach(struct dpsctp_timer_wheel *w, struct dpsctp_timer *t)
{
	list_unlink(&t->link);
	if (t->where == WHERE_FIRING)
		return;
	unsigned k = t->where >> DPSCTP_TIMER_WHEEL_SLOT_BITS;
	unsigned slot = t->where & (DPSCTP_TIMER_WHEEL_SLOTS - 1u);
	if (list_empty(&w->slots[k][slot]))
		bit_clear(w->occupied[k], slot);
}

int
dpsctp_timer_wheel_init(struct dpsctp_timer_wheel *w, uint64_t tick_ns, uint64_t now_ns)
{
	if (tick_ns == 0)
		tick_ns = DPSCTP_TIMER_WHEEL_DEFAULT_TICK_NS;
	if (tick_ns > (UINT64_C(1) << 32))
		return -EINVAL;
	w->tick_ns = tick_ns;
	w->recip = UINT64_MAX / tick_ns;
	w->cur = tick_floor(w, now_ns);
	w->next_event = UINT64_MAX;
	w->count = 0;
	w->in_advance = false;
	for (unsigned k = 0; k < DPSCTP_TIMER_WHEEL_LEVELS; k++) {
		for (unsigned i = 0; i < DPSCTP_TIMER_WHEEL_SLOTS / 64u; i++)
			w->occupied[k][i] = 0;
		for (unsigned i = 0; i < DPSCTP_TIMER_WHEEL_SLOTS; i++)
			list_init(&w->slots[k][i]);
	}
	list_init(&w->firing);
	return 0;
}

void
dpsctp_timer_init(struct dpsctp_timer *t)
{
	t->link.next = &t->link;
	t->link.prev = &t->link;
	t->expiry = 0;
	t->where = WHERE_IDLE;
}

void
dpsctp_timer_arm(struct dpsctp_timer_wheel *w, struct dpsctp_timer *t, uint64_t deadline_ns)
{
	uint64_t e = tick_ceil(w, deadline_ns);

	if (t->where != WHERE_IDLE)
		detach(w, t);
	else
		w->count++;
	t->expiry = e > w->cur ? e : w->cur + 1u;
	place(w, t);
}

void
dpsctp_timer_cancel(struct dpsctp_timer_wheel *w, struct dpsctp_timer *t)
{
	if (t->where == WHERE_IDLE)
		return;
	detach(w, t);
	t->where = WHERE_IDLE;
	w->count--;
}

bool
dpsctp_timer_armed(const struct dpsctp_timer *t)
{
	return t->where != WHERE_IDLE;
}

uint64_t
dpsctp_timer_expiry_ns(const struct dpsctp_timer_wheel *w, const struct dpsctp_timer *t)
{
	return t->expiry * w->tick_ns;
}

/* Empty level @k's slot whose block starts at w->cur into the levels below. */
static void
cascade(struct dpsctp_timer_wheel *w, unsigned k)
{
	unsigned shift = k * DPSCTP_TIMER_WHEEL_SLOT_BITS;
	unsigned slot = (unsigned)(w->cur >> shift) & (DPSCTP_TIMER_WHEEL_SLOTS - 1u);
	struct dpsctp_timer_link work;

	if (!(w->occupied[k][slot >> 6] & (UINT64_C(1) << (slot & 63u))))
		return;
	list_init(&work);
	list_move_all(&w->slots[k][slot], &work);
	bit_clear(w->occupied[k], slot);
	while (!list_empty(&work)) {
		struct dpsctp_timer *t = (struct dpsctp_timer *)(void *)work.next;

		list_unlink(&t->link);
		place(w, t);
	}
}

/* Process tick w->cur: cascades, then the level-0 slot's callbacks. */
static unsigned
process_tick(struct dpsctp_timer_wheel *w, dpsctp_timer_cb cb, void *arg)
{
	unsigned slot = (unsigned)w->cur & (DPSCTP_TIMER_WHEEL_SLOTS - 1u);
	unsigned fired = 0;

	for (unsigned k = DPSCTP_TIMER_WHEEL_LEVELS - 1u; k >= 1u; k--) {
		uint64_t mask = (UINT64_C(1) << (k * DPSCTP_TIMER_WHEEL_SLOT_BITS)) - 1u;
		if ((w->cur & mask) == 0)
			cascade(w, k);
	}
	if (list_empty(&w->slots[0][slot]))
		return 0;
	list_move_all(&w->slots[0][slot], &w->firing);
	bit_clear(w->occupied[0], slot);
	for (struct dpsctp_timer_link *l = w->firing.next; l != &w->firing; l = l->next)
		((struct dpsctp_timer *)(void *)l)->where = WHERE_FIRING;
	/* Callbacks may cancel or re-arm timers still on w->firing: take one at a time. */
	while (!list_empty(&w->firing)) {
		struct dpsctp_timer *t = (struct dpsctp_timer *)(void *)w->firing.next;

		list_unlink(&t->link);
		t->where = WHERE_IDLE;
		w->count--;
		fired++;
		cb(w, t, arg);
	}
	return fired;
}

unsigned
dpsctp_timer_wheel_advance(struct dpsctp_timer_wheel *w, uint64_t now_ns, dpsctp_timer_cb cb,
			   void *arg)
{
	uint64_t target = tick_floor(w, now_ns);
	unsigned fired = 0;

	if (w->in_advance)
		return 0;
	if (target < w->next_event) {
		/* nothing due: no block is entered between cur and target */
		if (target > w->cur)
			w->cur = target;
		return 0;
	}
	if (target <= w->cur)
		return 0;
	w->in_advance = true;
	while (w->next_event <= target) {
		w->cur = w->next_event;
		fired += process_tick(w, cb, arg);
		w->next_event = compute_next_event(w);
	}
	w->cur = target;
	w->in_advance = false;
	return fired;
}

uint64_t
dpsctp_timer_wheel_next_ns(struct dpsctp_timer_wheel *w)
{
	uint64_t ev;

	if (w->count == 0)
		return UINT64_MAX;
	ev = compute_next_event(w);
	if (!w->in_advance)
		w->next_event = ev;
	return ev == UINT64_MAX ? UINT64_MAX : ev * w->tick_ns;
}

uint64_t
dpsctp_timer_wheel_now_ns(const struct dpsctp_timer_wheel *w)
{
	return w->cur * w->tick_ns;
}

uint32_t
dpsctp_timer_wheel_count(const struct dpsctp_timer_wheel *w)
{
	return w->count;
}
