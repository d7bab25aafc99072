/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Traffic generator and judge for data simulations: see sim_traffic.h.
 * Randomness is splitmix64 of (seed, side, k, purpose), so message k's
 * properties never depend on how many others were generated before it.
 */
#include <string.h>

#include "sctp/rtxq.h"
#include "sctp/sim/sim_traffic.h"

static uint64_t
mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t
rnd(const struct sim_traffic_config *c, unsigned side, uint32_t k, unsigned purpose)
{
	return mix64(c->seed ^ mix64(((uint64_t)side << 62) ^ ((uint64_t)purpose << 48) ^ k));
}

/*
 * Log-uniform in [lo, hi]: as many 1–2 byte messages as 32–64 KiB ones, so
 * both the bundling of small messages and fragmentation get exercised.
 */
static uint32_t
log_uniform(uint64_t r, uint32_t lo, uint32_t hi)
{
	if (lo >= hi)
		return lo;
	unsigned lo_bits = 0, hi_bits = 0;
	while ((1ull << (lo_bits + 1)) <= lo)
		lo_bits++;
	while ((1ull << hi_bits) < hi)
		hi_bits++;
	unsigned bits = lo_bits + (unsigned)(r % (hi_bits - lo_bits + 1u));
	uint64_t base = 1ull << bits;
	uint64_t v = base + ((r >> 8) % base);
	if (v < lo)
		v = lo;
	if (v > hi)
		v = hi;
	return (uint32_t)v;
}

struct sim_traffic_msg
sim_traffic_msg(const struct sim_traffic_config *c, unsigned side, uint32_t k)
{
	struct sim_traffic_msg m;
	uint32_t hi = c->max_len > SIM_TRAFFIC_MAX_LEN ? SIM_TRAFFIC_MAX_LEN : c->max_len;
	uint32_t lo = c->min_len == 0 ? 1 : c->min_len;

	m.k = k;
	m.len = log_uniform(rnd(c, side, k, 1), lo, hi < lo ? lo : hi);
	m.sid = (uint16_t)(c->streams == 0 ? 0 : rnd(c, side, k, 2) % c->streams);
	m.unordered = rnd(c, side, k, 3) % 100u < c->unordered_pct;
	/* Purposes 5 and 6: without a PR mix the messages are what they were. */
	uint64_t pol = rnd(c, side, k, 5) % 100u, v = rnd(c, side, k, 6);
	m.pr_policy = SCTP_RTXQ_PR_NONE;
	m.pr_value = 0;
	if (pol < c->ttl_pct) {
		uint32_t tlo = c->ttl_min_ms == 0 ? 1 : c->ttl_min_ms;
		m.pr_policy = SCTP_RTXQ_PR_TTL;
		m.pr_value = log_uniform(v, tlo, c->ttl_max_ms < tlo ? tlo : c->ttl_max_ms);
	} else if (pol < (uint64_t)c->ttl_pct + c->rtx_pct) {
		m.pr_policy = SCTP_RTXQ_PR_RTX;
		m.pr_value = (uint32_t)(v % (c->rtx_max + 1u));
	}
	return m;
}

void
sim_traffic_fill(const struct sim_traffic_config *c, unsigned side, const struct sim_traffic_msg *m,
		 uint8_t *out)
{
	uint64_t s = rnd(c, side, m->k, 4);

	for (uint32_t i = 0; i < m->len; i += 8) {
		s = mix64(s);
		uint32_t n = m->len - i < 8 ? m->len - i : 8;
		memcpy(out + i, &s, n);
	}
}

static const char *const verdict_names[] = {
	[SIM_TRAFFIC_OK] = "ok",
	[SIM_TRAFFIC_UNKNOWN] = "unknown_message",
	[SIM_TRAFFIC_TWICE] = "delivered_twice",
	[SIM_TRAFFIC_WRONG] = "wrong_content",
	[SIM_TRAFFIC_REORDERED] = "reordered",
	[SIM_TRAFFIC_RELIABLE_ABANDONED] = "reliable_abandoned",
	[SIM_TRAFFIC_ABANDONED_TWICE] = "abandoned_twice",
	[SIM_TRAFFIC_UNSENT_DELIVERED] = "unsent_delivered",
	[SIM_TRAFFIC_WRONG_REPORT] = "wrong_report",
};

const char *
sim_traffic_verdict_name(enum sim_traffic_verdict v)
{
	return (unsigned)v < sizeof(verdict_names) / sizeof(verdict_names[0]) ? verdict_names[v]
									      : "unknown";
}

void
sim_traffic_judge_init(struct sim_traffic_judge *j, const struct sim_traffic_config *cfg,
		       unsigned from_side, uint8_t *seen, int64_t *last_k)
{
	memset(j, 0, sizeof(*j));
	j->cfg = cfg;
	j->from_side = from_side;
	j->seen = seen;
	j->last_k = last_k;
	memset(seen, 0, cfg->messages / 8u + 1u);
	for (unsigned s = 0; s < (cfg->streams ? cfg->streams : 1u); s++)
		last_k[s] = -1;
}

static enum sim_traffic_verdict
refuse(struct sim_traffic_judge *j, enum sim_traffic_verdict v, uint32_t k)
{
	if (j->bad++ == 0) {
		j->first_bad = v;
		j->first_bad_k = k;
	}
	return v;
}

enum sim_traffic_verdict
sim_traffic_judge(struct sim_traffic_judge *j, uint32_t ppid, uint16_t sid, bool unordered,
		  const uint8_t *const *data, const uint32_t *len, unsigned n, uint8_t *scratch)
{
	const struct sim_traffic_config *c = j->cfg;
	uint32_t k = ppid;

	if (k >= c->messages)
		return refuse(j, SIM_TRAFFIC_UNKNOWN, k);
	if (j->seen[k / 8] & (1u << (k % 8)))
		return refuse(j, SIM_TRAFFIC_TWICE, k);
	if (j->unsent && (j->unsent[k / 8] & (1u << (k % 8))))
		return refuse(j, SIM_TRAFFIC_UNSENT_DELIVERED, k);
	struct sim_traffic_msg m = sim_traffic_msg(c, j->from_side, k);
	uint32_t total = 0;
	for (unsigned i = 0; i < n; i++)
		total += len[i];
	if (m.sid != sid || m.unordered != unordered || m.len != total)
		return refuse(j, SIM_TRAFFIC_WRONG, k);
	sim_traffic_fill(c, j->from_side, &m, scratch);
	uint32_t at = 0;
	for (unsigned i = 0; i < n; i++) {
		if (memcmp(scratch + at, data[i], len[i]) != 0)
			return refuse(j, SIM_TRAFFIC_WRONG, k);
		at += len[i];
	}
	if (!unordered) {
		if ((int64_t)k <= j->last_k[sid])
			return refuse(j, SIM_TRAFFIC_REORDERED, k);
		j->last_k[sid] = k;
	}
	j->seen[k / 8] |= (uint8_t)(1u << (k % 8));
	j->delivered++;
	j->bytes += total;
	if (j->abandoned && (j->abandoned[k / 8] & (1u << (k % 8))))
		j->reported_delivered++; /* abandoned after it was sent: the peer had it */
	else
		j->settled++;
	return SIM_TRAFFIC_OK;
}

void
sim_traffic_judge_pr(struct sim_traffic_judge *j, uint8_t *abandoned, uint8_t *unsent)
{
	j->abandoned = abandoned;
	j->unsent = unsent;
	memset(abandoned, 0, j->cfg->messages / 8u + 1u);
	memset(unsent, 0, j->cfg->messages / 8u + 1u);
}

enum sim_traffic_verdict
sim_traffic_judge_abandoned(struct sim_traffic_judge *j, uint32_t ppid, uint16_t sid,
			    uint32_t length, uint8_t pr_policy, bool sent)
{
	const struct sim_traffic_config *c = j->cfg;
	uint32_t k = ppid;
	uint8_t bit = (uint8_t)(1u << (k % 8));

	if (k >= c->messages || j->abandoned == NULL)
		return refuse(j, SIM_TRAFFIC_UNKNOWN, k);
	struct sim_traffic_msg m = sim_traffic_msg(c, j->from_side, k);
	if (m.pr_policy == SCTP_RTXQ_PR_NONE)
		return refuse(j, SIM_TRAFFIC_RELIABLE_ABANDONED, k);
	if (j->abandoned[k / 8] & bit)
		return refuse(j, SIM_TRAFFIC_ABANDONED_TWICE, k);
	/*
	 * A message partly sent may have its first fragments acknowledged
	 * already: the report then counts the bytes given up, at least one.
	 */
	if (m.sid != sid || m.pr_policy != pr_policy || length == 0 || length > m.len ||
	    (!sent && length != m.len))
		return refuse(j, SIM_TRAFFIC_WRONG_REPORT, k);
	bool seen = (j->seen[k / 8] & bit) != 0;
	if (!sent && seen)
		return refuse(j, SIM_TRAFFIC_UNSENT_DELIVERED, k);
	j->abandoned[k / 8] |= bit;
	j->reported++;
	if (!sent) {
		j->unsent[k / 8] |= bit;
		j->reported_unsent++;
	}
	if (seen)
		j->reported_delivered++;
	else
		j->settled++;
	return SIM_TRAFFIC_OK;
}

uint32_t
sim_traffic_missing(const struct sim_traffic_judge *j)
{
	return j->cfg->messages - j->settled;
}

void
sim_appbuf_pool_init(struct sim_appbuf_pool *p, struct sim_appbuf *bufs, uint8_t *storage,
		     uint32_t n)
{
	memset(p, 0, sizeof(*p));
	p->bufs = bufs;
	p->storage = storage;
	p->n = n;
	for (uint32_t i = 0; i < n; i++) {
		bufs[i].refs = 0;
		bufs[i].len = 0;
		bufs[i].bytes = storage + (size_t)i * SIM_TRAFFIC_MAX_LEN;
	}
}

struct sim_appbuf *
sim_appbuf_get(struct sim_appbuf_pool *p)
{
	for (uint32_t i = 0; i < p->n; i++) {
		if (p->bufs[i].refs == 0) {
			p->bufs[i].refs = 1;
			p->in_use++;
			p->holds++;
			return &p->bufs[i];
		}
	}
	return NULL;
}

void
sim_appbuf_hold(struct sim_appbuf_pool *p, struct sim_appbuf *b)
{
	b->refs++;
	p->holds++;
}

void
sim_appbuf_release(struct sim_appbuf_pool *p, struct sim_appbuf *b)
{
	if (b->refs <= 0) {
		p->bad_releases++;
		return;
	}
	p->releases++;
	if (--b->refs == 0)
		p->in_use--;
}
