/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The impairment stage: loss, Gilbert-Elliott bursts, a queue limit, a token
 * bucket, corruption, duplication, delay with jitter and reordering, over
 * opaque packet handles (docs/IMPAIR.md).
 *
 * Packets inside live in caller-given slots; a binary min-heap on (due time,
 * queue order) decides which leaves next, so ties leave in the order they
 * were queued and impair_next_due() is the heap's top. Packets held back for
 * reordering are also on a doubly linked list, oldest first, until enough
 * followers have been queued: their gap targets grow with the list, so only
 * its head is ever looked at.
 */
#include "drivers/impair/impair.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define NS_PER_S 1000000000ull
#define NIL	 UINT32_MAX
/*
 * Rates above 10^13 bytes/s (80 Tbit/s) are refused: the token bucket keeps
 * bytes * 10^9 in 64 bits, and the largest packet (2^32 bytes) plus one
 * second's worth of tokens must still fit.
 */
#define RATE_MAX 10000000000000ull

struct impair_slot {
	uintptr_t handle;
	uint64_t due;	 /* heap key; IMPAIR_NEVER for a held packet with no delay */
	uint64_t order;	 /* heap tie-break */
	uint64_t base;	 /* held: when the packet would have left had it not been held */
	uint64_t target; /* held: leaves once st->passed reaches this */
	uint32_t len;
	uint32_t heap_pos;
	uint32_t prev; /* held list */
	uint32_t next; /* held list, or free list */
	bool in_held;
};

/* ---- Random numbers ---------------------------------------------------- */

/*
 * splitmix64 (Steele, Lea and Flood, 2014): a Weyl sequence through a
 * mixing function. Used only to expand a seed into xoshiro's 256-bit state,
 * which must not be all zero; splitmix64 is a bijection of its counter, so
 * four consecutive outputs are never all zero.
 */
static uint64_t
rng_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static inline uint64_t
rng_rotl(uint64_t x, unsigned k)
{
	return (x << k) | (x >> (64 - k));
}

void
impair_rng_seed(struct impair_rng *r, uint64_t seed, uint64_t stream)
{
	/* The stream number goes through the mixer so streams 0, 1, 2... of
	 * one seed do not start at neighbouring points of the Weyl sequence. */
	uint64_t salt = stream;
	uint64_t x = seed ^ rng_splitmix64(&salt);
	unsigned i;

	for (i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&x);
}

/* xoshiro256** (Blackman and Vigna, "Scrambled linear pseudorandom number generators", 2018). */
uint64_t
impair_rng_next(struct impair_rng *r)
{
	uint64_t *s = r->s;
	const uint64_t out = rng_rotl(s[1] * 5, 7) * 9;
	const uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return out;
}

uint64_t
impair_rng_below(struct impair_rng *r, uint64_t bound)
{
	/* 2^64 mod bound values at the bottom would make r % bound favour
	 * small results; redraw those. At most half the draws are redrawn. */
	uint64_t skip, x;

	if (bound == 0)
		return 0;
	skip = (0 - bound) % bound;
	do {
		x = impair_rng_next(r);
	} while (x < skip);
	return x % bound;
}

bool
impair_rng_chance(struct impair_rng *r, uint32_t ppb)
{
	/* Map the top 32 bits onto [0, 10^9) by multiply and shift: exact
	 * integers, so every machine decides alike; the error against ppb/10^9
	 * is below 2^-32. */
	const uint64_t x = impair_rng_next(r) >> 32;

	return ((x * IMPAIR_PPB_ONE) >> 32) < ppb;
}

/* ---- Names and counters ------------------------------------------------ */

static const struct sctp_def_row verdict_rows[IMPAIR_VERDICT_COUNT] = {
	[IMPAIR_QUEUED] = { "queued", "accepted: the stage holds the packet until it is due" },
#define IMPAIR_DROP(name, str, why) SCTP_DEF_ROW(IMPAIR_DROP_##name, str, why)
#include "drivers/impair/impair_drop.def"
#undef IMPAIR_DROP
};

const char *
impair_verdict_name(enum impair_verdict v)
{
	return sctp_def_name(verdict_rows, IMPAIR_VERDICT_COUNT, v);
}

const char *
impair_verdict_describe(enum impair_verdict v)
{
	return sctp_def_describe(verdict_rows, IMPAIR_VERDICT_COUNT, v, "unknown verdict");
}

static const struct {
	const char *name;
	size_t off;
} event_counters[] = {
	{ "pushed", offsetof(struct impair_counters, pushed) },
	{ "duplicated", offsetof(struct impair_counters, duplicated) },
	{ "dup_failed", offsetof(struct impair_counters, dup_failed) },
	{ "dup_no_room", offsetof(struct impair_counters, dup_no_room) },
	{ "corrupted", offsetof(struct impair_counters, corrupted) },
	{ "held", offsetof(struct impair_counters, held) },
	{ "burst_entered", offsetof(struct impair_counters, burst_entered) },
	{ "popped", offsetof(struct impair_counters, popped) },
	{ "drained", offsetof(struct impair_counters, drained) },
};

#define EVENT_COUNT (sizeof(event_counters) / sizeof(event_counters[0]))

unsigned
impair_counter_count(void)
{
	return IMPAIR_VERDICT_COUNT + (unsigned)EVENT_COUNT;
}

const char *
impair_counter_name(unsigned i)
{
	if (i < IMPAIR_VERDICT_COUNT)
		return verdict_rows[i].name;
	i -= IMPAIR_VERDICT_COUNT;
	return i < EVENT_COUNT ? event_counters[i].name : "unknown";
}

uint64_t
impair_counter_value(const struct impair_counters *c, unsigned i)
{
	uint64_t v;

	if (i < IMPAIR_VERDICT_COUNT)
		return c->verdicts[i];
	i -= IMPAIR_VERDICT_COUNT;
	if (i >= EVENT_COUNT)
		return 0;
	memcpy(&v, (const char *)c + event_counters[i].off, sizeof(v));
	return v;
}

/* ---- Configuration ----------------------------------------------------- */

static const struct {
	const char *name;
	size_t off;
} prob_fields[] = {
	{ "loss_ppb", offsetof(struct impair_config, loss_ppb) },
	{ "burst_enter_ppb", offsetof(struct impair_config, burst_enter_ppb) },
	{ "burst_leave_ppb", offsetof(struct impair_config, burst_leave_ppb) },
	{ "burst_loss_bad_ppb", offsetof(struct impair_config, burst_loss_bad_ppb) },
	{ "burst_loss_good_ppb", offsetof(struct impair_config, burst_loss_good_ppb) },
	{ "dup_ppb", offsetof(struct impair_config, dup_ppb) },
	{ "reorder_ppb", offsetof(struct impair_config, reorder_ppb) },
	{ "corrupt_ppb", offsetof(struct impair_config, corrupt_ppb) },
};

static void set_err(char *err, size_t err_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
set_err(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || err_len == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
}

static bool
burst_on(const struct impair_config *cfg)
{
	return (cfg->burst_enter_ppb | cfg->burst_leave_ppb | cfg->burst_loss_bad_ppb |
		cfg->burst_loss_good_ppb) != 0;
}

int
impair_config_check(const struct impair_config *cfg, char *err, size_t err_len)
{
	size_t i;

	if (cfg == NULL) {
		set_err(err, err_len, "no configuration");
		return -EINVAL;
	}
	for (i = 0; i < sizeof(prob_fields) / sizeof(prob_fields[0]); i++) {
		uint32_t ppb;

		memcpy(&ppb, (const char *)cfg + prob_fields[i].off, sizeof(ppb));
		if (ppb > IMPAIR_PPB_ONE) {
			set_err(err, err_len, "%s is %" PRIu32 ", above 100%% (%u)",
				prob_fields[i].name, ppb, IMPAIR_PPB_ONE);
			return -EINVAL;
		}
	}
	if (burst_on(cfg) && cfg->burst_loss_bad_ppb == 0 && cfg->burst_loss_good_ppb == 0) {
		set_err(err, err_len,
			"burst_loss_bad_ppb and burst_loss_good_ppb are both 0: "
			"burst loss would lose nothing");
		return -EINVAL;
	}
	if (cfg->rate_bytes_per_s > RATE_MAX) {
		set_err(err, err_len, "rate_bytes_per_s is %" PRIu64 ", above 10^13 (80 Tbit/s)",
			cfg->rate_bytes_per_s);
		return -EINVAL;
	}
	return 0;
}

bool
impair_config_is_zero(const struct impair_config *cfg)
{
	return cfg->loss_ppb == 0 && !burst_on(cfg) && cfg->dup_ppb == 0 && cfg->reorder_ppb == 0 &&
	       cfg->delay_ns == 0 && cfg->jitter_ns == 0 && cfg->corrupt_ppb == 0 &&
	       cfg->rate_bytes_per_s == 0 && cfg->limit == 0;
}

/* Everything impair_init() and impair_set_config() share. */
static int
stage_apply(struct impair *st, const struct impair_config *cfg)
{
	if (impair_config_check(cfg, NULL, 0) != 0)
		return -EINVAL;
	if (cfg->dup_ppb != 0 && st->ops.dup == NULL)
		return -EINVAL;
	if (cfg->corrupt_ppb != 0 && st->ops.corrupt == NULL)
		return -EINVAL;
	st->cfg = *cfg;
	st->limit = cfg->limit != 0 && cfg->limit < st->capacity ? cfg->limit : st->capacity;
	st->gap = cfg->reorder_gap;
	if (cfg->reorder_gap == 0 && cfg->reorder_delay_ns == 0)
		st->gap = IMPAIR_REORDER_GAP_DEFAULT;
	if (!burst_on(cfg))
		st->ge_bad = false;
	return 0;
}

size_t
impair_storage_size(uint32_t capacity)
{
	const size_t per = sizeof(struct impair_slot) + sizeof(uint32_t);

	if (capacity > SIZE_MAX / per)
		return 0;
	return (size_t)capacity * per;
}

static void
free_list_rebuild(struct impair *st)
{
	uint32_t i;

	for (i = 0; i < st->capacity; i++)
		st->slots[i].next = i + 1 < st->capacity ? i + 1 : NIL;
	st->free_head = 0;
	st->used = 0;
	st->held_head = NIL;
	st->held_tail = NIL;
}

int
impair_init(struct impair *st, const struct impair_config *cfg, const struct impair_ops *ops,
	    uint64_t seed, uint32_t capacity, void *storage, size_t storage_len)
{
	size_t need = impair_storage_size(capacity);
	unsigned i;

	if (st == NULL || capacity == 0 || capacity == NIL || need == 0 || storage == NULL ||
	    storage_len < need || (uintptr_t)storage % _Alignof(struct impair_slot) != 0)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	if (ops != NULL)
		st->ops = *ops;
	st->capacity = capacity;
	if (stage_apply(st, cfg) != 0)
		return -EINVAL;
	st->seed = seed;
	for (i = 0; i < IMPAIR_STREAM_COUNT; i++)
		impair_rng_seed(&st->rng[i], seed, i);
	st->slots = storage;
	st->heap = (uint32_t *)(st->slots + capacity);
	free_list_rebuild(st);
	/* The bucket starts full; the first refill trims it to its depth. */
	st->tb_tokens = UINT64_MAX;
	return 0;
}

int
impair_set_config(struct impair *st, const struct impair_config *cfg)
{
	return stage_apply(st, cfg);
}

uint64_t
impair_seed(const struct impair *st)
{
	return st->seed;
}

const struct impair_counters *
impair_counters_get(const struct impair *st)
{
	return &st->ctr;
}

uint32_t
impair_count(const struct impair *st)
{
	return st->used;
}

/* ---- The heap ---------------------------------------------------------- */

static inline bool
heap_before(const struct impair *st, uint32_t a, uint32_t b)
{
	const struct impair_slot *x = &st->slots[a];
	const struct impair_slot *y = &st->slots[b];

	return x->due < y->due || (x->due == y->due && x->order < y->order);
}

static inline void
heap_put(struct impair *st, uint32_t pos, uint32_t idx)
{
	st->heap[pos] = idx;
	st->slots[idx].heap_pos = pos;
}

static bool
heap_sift_up(struct impair *st, uint32_t pos)
{
	const uint32_t idx = st->heap[pos];
	const uint32_t start = pos;

	while (pos > 0) {
		const uint32_t parent = (pos - 1) / 2;

		if (!heap_before(st, idx, st->heap[parent]))
			break;
		heap_put(st, pos, st->heap[parent]);
		pos = parent;
	}
	heap_put(st, pos, idx);
	return pos != start;
}

static void
heap_sift_down(struct impair *st, uint32_t pos)
{
	const uint32_t idx = st->heap[pos];

	for (;;) {
		uint32_t child = 2 * pos + 1;

		if (child >= st->used)
			break;
		if (child + 1 < st->used && heap_before(st, st->heap[child + 1], st->heap[child]))
			child++;
		if (!heap_before(st, st->heap[child], idx))
			break;
		heap_put(st, pos, st->heap[child]);
		pos = child;
	}
	heap_put(st, pos, idx);
}

/* Restore the heap after the key of the entry at pos changed either way. */
static void
heap_fix(struct impair *st, uint32_t pos)
{
	if (!heap_sift_up(st, pos))
		heap_sift_down(st, pos);
}

static void
heap_insert(struct impair *st, uint32_t idx)
{
	heap_put(st, st->used, idx);
	st->used++;
	heap_sift_up(st, st->used - 1);
}

static void
heap_remove_top(struct impair *st)
{
	st->used--;
	if (st->used == 0)
		return;
	heap_put(st, 0, st->heap[st->used]);
	heap_sift_down(st, 0);
}

/* ---- Held-back packets ------------------------------------------------- */

static void
held_append(struct impair *st, uint32_t idx)
{
	struct impair_slot *s = &st->slots[idx];

	s->in_held = true;
	s->next = NIL;
	s->prev = st->held_tail;
	if (st->held_tail != NIL)
		st->slots[st->held_tail].next = idx;
	else
		st->held_head = idx;
	st->held_tail = idx;
}

static void
held_unlink(struct impair *st, uint32_t idx)
{
	struct impair_slot *s = &st->slots[idx];

	if (s->prev != NIL)
		st->slots[s->prev].next = s->next;
	else
		st->held_head = s->next;
	if (s->next != NIL)
		st->slots[s->next].prev = s->prev;
	else
		st->held_tail = s->prev;
	s->in_held = false;
}

/*
 * A packet that was not held has just been queued with due time `due`:
 * every held packet whose gap it completes now leaves right behind it,
 * unless its own reorder delay already lets it leave earlier.
 */
static void
held_release(struct impair *st, uint64_t due)
{
	while (st->held_head != NIL && st->slots[st->held_head].target <= st->passed) {
		const uint32_t idx = st->held_head;
		struct impair_slot *s = &st->slots[idx];
		const uint64_t after = s->base > due ? s->base : due;

		held_unlink(st, idx);
		if (after <= s->due) {
			s->due = after;
			s->order = ++st->order;
			heap_fix(st, s->heap_pos);
		}
	}
}

/* ---- Push and pop ------------------------------------------------------ */

/* Sums stay below IMPAIR_NEVER, which only a waiting held packet may carry. */
static inline uint64_t
time_add(uint64_t a, uint64_t b)
{
	return b >= IMPAIR_NEVER - 1 - a ? IMPAIR_NEVER - 1 : a + b;
}

/* Both loss models draw for every pushed packet, so each one's choices
 * depend on the seed and the packet count only. */
static enum impair_verdict
push_loss(struct impair *st)
{
	const struct impair_config *cfg = &st->cfg;
	bool burst_lost = false;
	bool lost = false;

	if (burst_on(cfg)) {
		struct impair_rng *r = &st->rng[IMPAIR_STREAM_BURST];

		if (!st->ge_bad) {
			if (impair_rng_chance(r, cfg->burst_enter_ppb)) {
				st->ge_bad = true;
				st->ctr.burst_entered++;
			}
		} else if (impair_rng_chance(r, cfg->burst_leave_ppb)) {
			st->ge_bad = false;
		}
		burst_lost = impair_rng_chance(r, st->ge_bad ? cfg->burst_loss_bad_ppb
							     : cfg->burst_loss_good_ppb);
	}
	if (cfg->loss_ppb != 0)
		lost = impair_rng_chance(&st->rng[IMPAIR_STREAM_LOSS], cfg->loss_ppb);
	if (burst_lost)
		return IMPAIR_DROP_BURST;
	return lost ? IMPAIR_DROP_LOSS : IMPAIR_QUEUED;
}

/* Bring the bucket up to time t; it holds at most `depth`. */
static void
bucket_refill(struct impair *st, uint64_t t, uint64_t depth)
{
	const uint64_t rate = st->cfg.rate_bytes_per_s;

	if (t > st->tb_time) {
		const uint64_t dt = t - st->tb_time;
		const uint64_t room = depth > st->tb_tokens ? depth - st->tb_tokens : 0;

		if (dt > room / rate)
			st->tb_tokens = depth;
		else
			st->tb_tokens += dt * rate;
		st->tb_time = t;
	}
	if (st->tb_tokens > depth)
		st->tb_tokens = depth;
}

/*
 * Token bucket in units of bytes * 10^9, so that rate * nanoseconds adds
 * whole units and nothing is lost to rounding over a long run. The depth is
 * at least the packet, so a packet larger than rate_burst_bytes still passes
 * (alone, once the bucket has filled to its length).
 */
static enum impair_verdict
push_rate(struct impair *st, uint32_t len, uint64_t now, uint64_t *depart)
{
	const uint64_t rate = st->cfg.rate_bytes_per_s;
	const uint64_t need = (uint64_t)len * NS_PER_S;
	const uint32_t depth_bytes =
		st->cfg.rate_burst_bytes > len ? st->cfg.rate_burst_bytes : len;
	uint64_t t, wait;

	*depart = now;
	if (rate == 0)
		return IMPAIR_QUEUED;
	/* A shaper serves its queue in order: a packet starts waiting for
	 * tokens only once the one ahead of it has left. */
	t = st->cfg.rate_police || now > st->tb_time ? now : st->tb_time;
	bucket_refill(st, t, (uint64_t)depth_bytes * NS_PER_S);
	if (st->tb_tokens >= need) {
		st->tb_tokens -= need;
		*depart = t;
		return IMPAIR_QUEUED;
	}
	if (st->cfg.rate_police)
		return IMPAIR_DROP_RATE;
	wait = (need - st->tb_tokens + rate - 1) / rate;
	st->tb_tokens = st->tb_tokens + wait * rate - need;
	st->tb_time = t + wait;
	*depart = t + wait;
	return IMPAIR_QUEUED;
}

static void
push_corrupt(struct impair *st, uintptr_t handle, uint32_t len)
{
	struct impair_rng *r = &st->rng[IMPAIR_STREAM_CORRUPT];
	const uint32_t skip = st->cfg.corrupt_skip;
	uint32_t offset;
	uint8_t bit;

	if (!impair_rng_chance(r, st->cfg.corrupt_ppb) || len <= skip)
		return;
	offset = skip + (uint32_t)impair_rng_below(r, len - skip);
	bit = (uint8_t)impair_rng_below(r, 8);
	st->ops.corrupt(st->ops.ctx, handle, len, offset, bit);
	st->ctr.corrupted++;
}

/* Queue one packet (original or copy) that left the rate limit at `depart`. */
static void
schedule(struct impair *st, uintptr_t handle, uint32_t len, uint64_t depart)
{
	const struct impair_config *cfg = &st->cfg;
	const uint32_t idx = st->free_head;
	struct impair_slot *s = &st->slots[idx];
	uint64_t due = time_add(depart, cfg->delay_ns);

	st->free_head = s->next;
	s->handle = handle;
	s->len = len;
	s->in_held = false;
	if (cfg->jitter_ns != 0) {
		struct impair_rng *r = &st->rng[IMPAIR_STREAM_JITTER];
		const uint64_t j = cfg->jitter_ns == UINT64_MAX
					   ? impair_rng_next(r)
					   : impair_rng_below(r, cfg->jitter_ns + 1);

		due = time_add(due, j);
	}
	if (!cfg->jitter_reorders && due < st->fifo_due)
		due = st->fifo_due;

	if (cfg->reorder_ppb != 0 &&
	    impair_rng_chance(&st->rng[IMPAIR_STREAM_REORDER], cfg->reorder_ppb)) {
		st->ctr.held++;
		s->base = due;
		if (st->gap != 0) {
			s->target = st->passed + st->gap;
			s->due = cfg->reorder_delay_ns != 0 ? time_add(due, cfg->reorder_delay_ns)
							    : IMPAIR_NEVER;
			held_append(st, idx);
		} else {
			s->due = time_add(due, cfg->reorder_delay_ns);
		}
		s->order = ++st->order;
		heap_insert(st, idx);
		return;
	}
	s->due = due;
	s->order = ++st->order;
	st->fifo_due = due;
	heap_insert(st, idx);
	st->passed++;
	held_release(st, due);
}

enum impair_verdict
impair_push(struct impair *st, uintptr_t handle, uint32_t len, uint64_t now_ns)
{
	enum impair_verdict v;
	uint64_t depart = now_ns;

	if (now_ns < st->last_now)
		now_ns = st->last_now;
	st->last_now = now_ns;
	st->ctr.pushed++;

	v = push_loss(st);
	if (v == IMPAIR_QUEUED && st->used >= st->limit)
		v = IMPAIR_DROP_QUEUE_FULL;
	if (v == IMPAIR_QUEUED)
		v = push_rate(st, len, now_ns, &depart);
	if (v != IMPAIR_QUEUED) {
		st->ctr.verdicts[v]++;
		return v;
	}

	if (st->cfg.corrupt_ppb != 0)
		push_corrupt(st, handle, len);
	schedule(st, handle, len, depart);
	if (st->cfg.dup_ppb != 0 &&
	    impair_rng_chance(&st->rng[IMPAIR_STREAM_DUP], st->cfg.dup_ppb)) {
		uintptr_t copy;

		if (st->used >= st->limit) {
			st->ctr.dup_no_room++;
		} else if (!st->ops.dup(st->ops.ctx, handle, len, &copy)) {
			st->ctr.dup_failed++;
		} else {
			st->ctr.duplicated++;
			schedule(st, copy, len, depart);
		}
	}
	st->ctr.verdicts[IMPAIR_QUEUED]++;
	return IMPAIR_QUEUED;
}

uint64_t
impair_next_due(const struct impair *st)
{
	return st->used != 0 ? st->slots[st->heap[0]].due : IMPAIR_NEVER;
}

bool
impair_pop(struct impair *st, uint64_t now_ns, uintptr_t *handle, uint32_t *len)
{
	uint32_t idx;
	struct impair_slot *s;

	if (st->used == 0)
		return false;
	idx = st->heap[0];
	s = &st->slots[idx];
	if (s->due == IMPAIR_NEVER || s->due > now_ns)
		return false;
	heap_remove_top(st);
	if (s->in_held)
		held_unlink(st, idx);
	*handle = s->handle;
	*len = s->len;
	s->next = st->free_head;
	st->free_head = idx;
	st->ctr.popped++;
	return true;
}

unsigned
impair_pop_burst(struct impair *st, uint64_t now_ns, uintptr_t *handles, uint32_t *lens, unsigned n)
{
	unsigned i = 0;

	while (i < n && impair_pop(st, now_ns, &handles[i], &lens[i]))
		i++;
	return i;
}

uint32_t
impair_drain(struct impair *st, void (*release)(void *ctx, uintptr_t handle, uint32_t len),
	     void *ctx)
{
	const uint32_t n = st->used;
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct impair_slot *s = &st->slots[st->heap[i]];

		if (release != NULL)
			release(ctx, s->handle, s->len);
	}
	free_list_rebuild(st);
	st->ctr.drained += n;
	return n;
}

/* ---- Parse and format -------------------------------------------------- */

enum knob_kind {
	KNOB_PROB,  /* uint32_t ppb */
	KNOB_TIME,  /* uint64_t ns */
	KNOB_COUNT, /* uint32_t */
	KNOB_BOOL,  /* bool */
	KNOB_RATE,  /* uint64_t bytes per second */
	KNOB_BURST, /* the four burst_* fields */
	KNOB_SEED,  /* the seed, not in the configuration */
};

static const struct knob {
	const char *name;
	enum knob_kind kind;
	size_t off;
} knobs[] = {
	{ "loss", KNOB_PROB, offsetof(struct impair_config, loss_ppb) },
	{ "burst", KNOB_BURST, 0 },
	{ "dup", KNOB_PROB, offsetof(struct impair_config, dup_ppb) },
	{ "reorder", KNOB_PROB, offsetof(struct impair_config, reorder_ppb) },
	{ "reorder_gap", KNOB_COUNT, offsetof(struct impair_config, reorder_gap) },
	{ "reorder_delay", KNOB_TIME, offsetof(struct impair_config, reorder_delay_ns) },
	{ "delay", KNOB_TIME, offsetof(struct impair_config, delay_ns) },
	{ "jitter", KNOB_TIME, offsetof(struct impair_config, jitter_ns) },
	{ "jitter_reorder", KNOB_BOOL, offsetof(struct impair_config, jitter_reorders) },
	{ "corrupt", KNOB_PROB, offsetof(struct impair_config, corrupt_ppb) },
	{ "corrupt_skip", KNOB_COUNT, offsetof(struct impair_config, corrupt_skip) },
	{ "rate", KNOB_RATE, offsetof(struct impair_config, rate_bytes_per_s) },
	{ "rate_burst", KNOB_COUNT, offsetof(struct impair_config, rate_burst_bytes) },
	{ "rate_police", KNOB_BOOL, offsetof(struct impair_config, rate_police) },
	{ "limit", KNOB_COUNT, offsetof(struct impair_config, limit) },
	{ "seed", KNOB_SEED, 0 },
};

#define KNOB_COUNT_ALL (sizeof(knobs) / sizeof(knobs[0]))
#define KNOB_LIST                                                                                  \
	"loss, burst, dup, reorder, reorder_gap, reorder_delay, delay, jitter, jitter_reorder, "   \
	"corrupt, corrupt_skip, rate, rate_burst, rate_police, limit, seed"

/* A unit suffix and the power of ten it scales by. */
struct unit {
	const char *suffix;
	int exp10;
	bool bits;
};

static const struct unit time_units[] = {
	{ "ns", 0, false },
	{ "us", 3, false },
	{ "ms", 6, false },
	{ "s", 9, false },
};

static const struct unit rate_units[] = {
	{ "bit", 0, true }, { "kbit", 3, true }, { "Mbit", 6, true }, { "Gbit", 9, true },
	{ "B", 0, false },  { "kB", 3, false },	 { "MB", 6, false },  { "GB", 9, false },
};

/* Why a value did not parse; each has one message in value_msg(). */
enum value_err {
	VAL_OK,
	VAL_PROB_SYNTAX,
	VAL_PROB_RANGE,
	VAL_PROB_FINE,
	VAL_TIME_SYNTAX,
	VAL_TIME_FINE,
	VAL_TIME_RANGE,
	VAL_COUNT_SYNTAX,
	VAL_NUM_RANGE,
	VAL_BOOL_SYNTAX,
	VAL_RATE_SYNTAX,
	VAL_RATE_FINE,
	VAL_RATE_RANGE,
	VAL_BURST_SYNTAX,
	VAL_BURST_NOTHING,
	VAL_SEED_SYNTAX,
};

static const char *
value_msg(enum value_err e)
{
	switch (e) {
	case VAL_OK:
		break;
	case VAL_PROB_SYNTAX:
		return "expected a probability such as 1%, 0.5% or 0.005";
	case VAL_PROB_RANGE:
		return "probability above 100%";
	case VAL_PROB_FINE:
		return "probability finer than the resolution of 1e-9";
	case VAL_TIME_SYNTAX:
		return "expected a time such as 100us (units ns, us, ms, s)";
	case VAL_TIME_FINE:
		return "time finer than 1ns";
	case VAL_TIME_RANGE:
		return "time too large";
	case VAL_COUNT_SYNTAX:
		return "expected a whole number";
	case VAL_NUM_RANGE:
		return "number too large";
	case VAL_BOOL_SYNTAX:
		return "expected 0 or 1";
	case VAL_RATE_SYNTAX:
		return "expected a rate per second such as 10Gbit or 1MB "
		       "(units bit, kbit, Mbit, Gbit, B, kB, MB, GB)";
	case VAL_RATE_FINE:
		return "rate not a whole number of bytes per second";
	case VAL_RATE_RANGE:
		return "rate above 10TB (80Tbit) per second";
	case VAL_BURST_SYNTAX:
		return "expected ENTER/LEAVE[/LOSS_BAD[/LOSS_GOOD]] such as 0.1%/30%";
	case VAL_BURST_NOTHING:
		return "burst loss loses nothing in either state";
	case VAL_SEED_SYNTAX:
		return "expected a number (decimal, or hex after 0x)";
	}
	return "";
}

/* A span of the spec string: not NUL-terminated. */
struct span {
	const char *p;
	size_t n;
};

static bool
span_is(struct span s, const char *word)
{
	return strlen(word) == s.n && memcmp(s.p, word, s.n) == 0;
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * DIGITS [ . DIGITS ] at the start of s: the digits as one integer and the
 * count of those after the point, so the value is mant / 10^frac exactly.
 * Returns the characters used (0: no number there), or -ERANGE when the
 * digits do not fit 64 bits.
 */
static int
dec_parse(struct span s, uint64_t *mant, int *frac)
{
	size_t i = 0;
	bool point = false;
	uint64_t m = 0;
	int f = 0;

	if (s.n == 0 || !is_digit(s.p[0]))
		return 0;
	for (; i < s.n; i++) {
		const char c = s.p[i];

		if (c == '.' && !point && i + 1 < s.n && is_digit(s.p[i + 1])) {
			point = true;
			continue;
		}
		if (!is_digit(c))
			break;
		if (m > (UINT64_MAX - (uint64_t)(c - '0')) / 10)
			return -ERANGE;
		m = m * 10 + (uint64_t)(c - '0');
		if (point)
			f++;
	}
	*mant = m;
	*frac = f;
	return (int)i;
}

/* mant * 10^exp10 as an integer: -ERANGE past 64 bits, -EDOM if not whole. */
static int
dec_scale(uint64_t mant, int exp10, uint64_t *out)
{
	for (; exp10 > 0; exp10--) {
		if (mant > UINT64_MAX / 10)
			return -ERANGE;
		mant *= 10;
	}
	for (; exp10 < 0; exp10++) {
		if (mant % 10 != 0)
			return -EDOM;
		mant /= 10;
	}
	*out = mant;
	return 0;
}

/* A number and the unit after it, looked up in units[]. */
static int
number_with_unit(struct span v, const struct unit *units, size_t n_units, uint64_t *mant, int *frac,
		 const struct unit **unit)
{
	const int used = dec_parse(v, mant, frac);
	struct span suffix;
	size_t i;

	if (used <= 0)
		return used < 0 ? -ERANGE : -EINVAL;
	suffix.p = v.p + used;
	suffix.n = v.n - (size_t)used;
	for (i = 0; i < n_units; i++) {
		if (span_is(suffix, units[i].suffix)) {
			*unit = &units[i];
			return 0;
		}
	}
	return -EINVAL;
}

static enum value_err
parse_prob(struct span v, uint32_t *ppb)
{
	static const struct unit prob_units[] = { { "", 9, false }, { "%", 7, false } };
	const struct unit *u;
	uint64_t m, out;
	int frac, rc;

	rc = number_with_unit(v, prob_units, 2, &m, &frac, &u);
	if (rc == -ERANGE)
		return VAL_PROB_RANGE;
	if (rc != 0)
		return VAL_PROB_SYNTAX;
	rc = dec_scale(m, u->exp10 - frac, &out);
	if (rc == -ERANGE || (rc == 0 && out > IMPAIR_PPB_ONE))
		return VAL_PROB_RANGE;
	if (rc != 0)
		return VAL_PROB_FINE;
	*ppb = (uint32_t)out;
	return VAL_OK;
}

static enum value_err
parse_time(struct span v, uint64_t *ns)
{
	const struct unit *u;
	uint64_t m;
	int frac, rc;

	rc = number_with_unit(v, time_units, sizeof(time_units) / sizeof(time_units[0]), &m, &frac,
			      &u);
	if (rc == -ERANGE)
		return VAL_TIME_RANGE;
	if (rc != 0)
		return VAL_TIME_SYNTAX;
	rc = dec_scale(m, u->exp10 - frac, ns);
	if (rc == -ERANGE)
		return VAL_TIME_RANGE;
	return rc != 0 ? VAL_TIME_FINE : VAL_OK;
}

static enum value_err
parse_rate(struct span v, uint64_t *bytes_per_s)
{
	const struct unit *u;
	uint64_t m, out;
	int frac, rc;

	rc = number_with_unit(v, rate_units, sizeof(rate_units) / sizeof(rate_units[0]), &m, &frac,
			      &u);
	if (rc == -ERANGE)
		return VAL_RATE_RANGE;
	if (rc != 0)
		return VAL_RATE_SYNTAX;
	rc = dec_scale(m, u->exp10 - frac, &out);
	if (rc == -ERANGE)
		return VAL_RATE_RANGE;
	if (rc != 0 || (u->bits && out % 8 != 0))
		return VAL_RATE_FINE;
	if (u->bits)
		out /= 8;
	if (out > RATE_MAX)
		return VAL_RATE_RANGE;
	*bytes_per_s = out;
	return VAL_OK;
}

static enum value_err
parse_count(struct span v, uint32_t *count)
{
	uint64_t m;
	int frac;
	const int used = dec_parse(v, &m, &frac);

	if (used < 0)
		return VAL_NUM_RANGE;
	if (used == 0 || (size_t)used != v.n || frac != 0)
		return VAL_COUNT_SYNTAX;
	if (m > UINT32_MAX)
		return VAL_NUM_RANGE;
	*count = (uint32_t)m;
	return VAL_OK;
}

static enum value_err
parse_seed(struct span v, uint64_t *seed)
{
	uint64_t x = 0;
	size_t i;

	if (v.n > 2 && v.p[0] == '0' && (v.p[1] == 'x' || v.p[1] == 'X')) {
		for (i = 2; i < v.n; i++) {
			const char c = v.p[i];
			unsigned d;

			if (is_digit(c))
				d = (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = (unsigned)(c - 'A' + 10);
			else
				return VAL_SEED_SYNTAX;
			if (x >> 60 != 0)
				return VAL_NUM_RANGE;
			x = x << 4 | d;
		}
	} else {
		int frac;
		const int used = dec_parse(v, &x, &frac);

		if (used < 0)
			return VAL_NUM_RANGE;
		if (used == 0 || (size_t)used != v.n || frac != 0)
			return VAL_SEED_SYNTAX;
	}
	*seed = x;
	return VAL_OK;
}

static enum value_err
parse_burst(struct span v, struct impair_config *cfg)
{
	uint32_t part[4] = { 0, 0, IMPAIR_PPB_ONE, 0 };
	size_t start = 0, i;
	unsigned n = 0;

	for (i = 0; i <= v.n; i++) {
		struct span one;
		enum value_err e;

		if (i < v.n && v.p[i] != '/')
			continue;
		if (n == 4)
			return VAL_BURST_SYNTAX;
		one.p = v.p + start;
		one.n = i - start;
		e = parse_prob(one, &part[n]);
		if (e != VAL_OK)
			return one.n == 0 ? VAL_BURST_SYNTAX : e;
		n++;
		start = i + 1;
	}
	if (n < 2)
		return VAL_BURST_SYNTAX;
	if (part[2] == 0 && part[3] == 0)
		return VAL_BURST_NOTHING;
	cfg->burst_enter_ppb = part[0];
	cfg->burst_leave_ppb = part[1];
	cfg->burst_loss_bad_ppb = part[2];
	cfg->burst_loss_good_ppb = part[3];
	return VAL_OK;
}

static enum value_err
parse_value(const struct knob *k, struct span v, struct impair_config *cfg, uint64_t *seed)
{
	char *field = (char *)cfg + k->off;
	enum value_err e = VAL_OK;
	uint32_t u32 = 0;
	uint64_t u64 = 0;
	bool flag;

	switch (k->kind) {
	case KNOB_PROB:
		e = parse_prob(v, &u32);
		if (e == VAL_OK)
			memcpy(field, &u32, sizeof(u32));
		break;
	case KNOB_COUNT:
		e = parse_count(v, &u32);
		if (e == VAL_OK)
			memcpy(field, &u32, sizeof(u32));
		break;
	case KNOB_TIME:
		e = parse_time(v, &u64);
		if (e == VAL_OK)
			memcpy(field, &u64, sizeof(u64));
		break;
	case KNOB_RATE:
		e = parse_rate(v, &u64);
		if (e == VAL_OK)
			memcpy(field, &u64, sizeof(u64));
		break;
	case KNOB_BOOL:
		if (!span_is(v, "0") && !span_is(v, "1"))
			return VAL_BOOL_SYNTAX;
		flag = v.p[0] == '1';
		memcpy(field, &flag, sizeof(flag));
		break;
	case KNOB_BURST:
		e = parse_burst(v, cfg);
		break;
	case KNOB_SEED:
		e = parse_seed(v, seed);
		break;
	}
	return e;
}

#define EMPTY_KNOB_MSG "empty knob at offset %zu (two commas, or a comma at an end)"

/* One knob=value token, at byte `at` of the spec; *seen has a bit per knob given. */
static int
parse_token(struct span tok, size_t at, struct impair_config *cfg, uint64_t *seed, uint32_t *seen,
	    char *err, size_t err_len)
{
	const char *eq;
	struct span key, val;
	enum value_err e;
	size_t i;

	if (tok.n == 0) {
		set_err(err, err_len, EMPTY_KNOB_MSG, at);
		return -EINVAL;
	}
	eq = memchr(tok.p, '=', tok.n);
	if (eq == NULL) {
		set_err(err, err_len, "\"%.*s\": expected knob=value", (int)tok.n, tok.p);
		return -EINVAL;
	}
	key.p = tok.p;
	key.n = (size_t)(eq - tok.p);
	val.p = eq + 1;
	val.n = tok.n - key.n - 1;
	for (i = 0; i < KNOB_COUNT_ALL && !span_is(key, knobs[i].name); i++)
		;
	if (i == KNOB_COUNT_ALL) {
		set_err(err, err_len, "\"%.*s\": unknown knob \"%.*s\" (knobs: " KNOB_LIST ")",
			(int)tok.n, tok.p, (int)key.n, key.p);
		return -EINVAL;
	}
	if (*seen & (1u << i)) {
		set_err(err, err_len, "\"%.*s\": knob \"%s\" given twice", (int)tok.n, tok.p,
			knobs[i].name);
		return -EINVAL;
	}
	*seen |= 1u << i;
	e = parse_value(&knobs[i], val, cfg, seed);
	if (e != VAL_OK) {
		set_err(err, err_len, "\"%.*s\": %s", (int)tok.n, tok.p, value_msg(e));
		return -EINVAL;
	}
	return 0;
}

int
impair_parse(const char *spec, struct impair_config *cfg, uint64_t *seed, char *err, size_t err_len)
{
	struct impair_config c;
	uint64_t s = *seed;
	uint32_t seen = 0;
	const char *p = spec;

	memset(&c, 0, sizeof(c));
	/* The empty string is the empty list; otherwise every comma separates two knobs. */
	while (*spec != '\0') {
		const char *end = strchr(p, ',');
		struct span tok = { p, end != NULL ? (size_t)(end - p) : strlen(p) };

		if (parse_token(tok, (size_t)(p - spec), &c, &s, &seen, err, err_len) != 0)
			return -EINVAL;
		if (end == NULL)
			break;
		p = end + 1;
	}
	if (impair_config_check(&c, err, err_len) != 0)
		return -EINVAL;
	*cfg = c;
	*seed = s;
	return 0;
}

/* snprintf into the rest of buf, counting what would have been written. */
struct out {
	char *buf;
	size_t len;
	size_t pos;
};

static void out_add(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
out_add(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (o->pos < o->len)
		n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
	else
		n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

static void
out_prob(struct out *o, uint32_t ppb)
{
	const uint32_t whole = ppb / 10000000u;
	uint32_t frac = ppb % 10000000u;
	int digits = 7;

	if (frac == 0) {
		out_add(o, "%" PRIu32 "%%", whole);
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	out_add(o, "%" PRIu32 ".%0*" PRIu32 "%%", whole, digits, frac);
}

/* The largest unit in which v is whole; units[] is sorted smallest first. */
static void
out_scaled(struct out *o, uint64_t v, const struct unit *units, size_t n_units)
{
	size_t i = n_units;

	while (i-- > 0) {
		uint64_t div = 1;
		int e;

		if (units[i].bits)
			continue;
		for (e = 0; e < units[i].exp10; e++)
			div *= 10;
		if (v % div == 0) {
			out_add(o, "%" PRIu64 "%s", v / div, units[i].suffix);
			return;
		}
	}
}

int
impair_format(const struct impair_config *cfg, uint64_t seed, char *buf, size_t buf_len)
{
	struct out o = { buf, buf_len, 0 };
	size_t i;

	if (buf_len > 0)
		buf[0] = '\0';
	for (i = 0; i < KNOB_COUNT_ALL; i++) {
		const struct knob *k = &knobs[i];
		const char *field = (const char *)cfg + k->off;
		uint32_t u32;
		uint64_t u64;
		bool flag;

		switch (k->kind) {
		case KNOB_PROB:
		case KNOB_COUNT:
			memcpy(&u32, field, sizeof(u32));
			if (u32 == 0)
				break;
			out_add(&o, "%s=", k->name);
			if (k->kind == KNOB_PROB)
				out_prob(&o, u32);
			else
				out_add(&o, "%" PRIu32, u32);
			out_add(&o, ",");
			break;
		case KNOB_TIME:
		case KNOB_RATE:
			memcpy(&u64, field, sizeof(u64));
			if (u64 == 0)
				break;
			out_add(&o, "%s=", k->name);
			if (k->kind == KNOB_TIME)
				out_scaled(&o, u64, time_units,
					   sizeof(time_units) / sizeof(time_units[0]));
			else
				out_scaled(&o, u64, rate_units,
					   sizeof(rate_units) / sizeof(rate_units[0]));
			out_add(&o, ",");
			break;
		case KNOB_BOOL:
			memcpy(&flag, field, sizeof(flag));
			if (flag)
				out_add(&o, "%s=1,", k->name);
			break;
		case KNOB_BURST:
			if (!burst_on(cfg))
				break;
			out_add(&o, "burst=");
			out_prob(&o, cfg->burst_enter_ppb);
			out_add(&o, "/");
			out_prob(&o, cfg->burst_leave_ppb);
			out_add(&o, "/");
			out_prob(&o, cfg->burst_loss_bad_ppb);
			out_add(&o, "/");
			out_prob(&o, cfg->burst_loss_good_ppb);
			out_add(&o, ",");
			break;
		case KNOB_SEED:
			out_add(&o, "seed=%" PRIu64, seed);
			break;
		}
	}
	return o.pos > INT32_MAX ? -1 : (int)o.pos;
}
