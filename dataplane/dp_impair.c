/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The impairment stages on mbufs (dp_impair.h): a duplicate is a clone
 * (shares the data), a corruption flips one bit of a frame the stage copied
 * for the purpose, so that a bit flip cannot reach a retransmission's
 * payload.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_malloc.h>

#include "dataplane/dp_impair.h"

static bool
dp_impair_dup(void *ctx, uintptr_t handle, uint32_t len, uintptr_t *copy)
{
	struct dp_impair *s = ctx;
	(void)len;
	struct rte_mbuf *c = rte_pktmbuf_clone((struct rte_mbuf *)handle, s->clone_pool);
	if (c == NULL)
		return false;
	(*s->duplicated)++;
	*copy = (uintptr_t)c;
	return true;
}

static void
dp_impair_corrupt(void *ctx, uintptr_t handle, uint32_t len, uint32_t offset, uint8_t bit)
{
	(void)ctx;
	(void)len;
	struct rte_mbuf *m = (struct rte_mbuf *)handle;
	if (offset < m->data_len)
		rte_pktmbuf_mtod(m, uint8_t *)[offset] ^= (uint8_t)(1u << (bit & 7u));
}

int
dp_impair_init(struct dp_impair *s, const char *spec, uint64_t stream, uint64_t salt,
	       uint64_t *duplicated, struct rte_mempool *clone_pool, struct rte_mempool *copy_pool,
	       char *err, size_t errlen)
{
	struct impair_config cfg;
	uint64_t seed = 1;

	memset(&cfg, 0, sizeof(cfg));
	if (spec[0] == '\0')
		return 0;
	if (impair_parse(spec, &cfg, &seed, err, errlen) != 0)
		return -EINVAL;
	if (impair_config_is_zero(&cfg))
		return 0;
	const uint32_t cap = 8192;
	size_t bytes = impair_storage_size(cap);
	s->mem = rte_zmalloc("dp_impair", bytes, 64);
	if (s->mem == NULL) {
		if (err != NULL && errlen != 0)
			snprintf(err, errlen, "no memory for the stage (%zu bytes)", bytes);
		return -ENOMEM;
	}
	static const struct impair_ops ops_template = { dp_impair_dup, dp_impair_corrupt, NULL };
	s->ops = ops_template;
	s->ops.ctx = s;
	s->clone_pool = clone_pool;
	s->copy_pool = copy_pool;
	s->duplicated = duplicated;
	if (impair_init(&s->st, &cfg, &s->ops, (seed + stream) ^ salt, cap, s->mem, bytes) != 0)
		return -EINVAL;
	s->on = true;
	s->corrupts = cfg.corrupt_ppb != 0;
	return 0;
}

/* A private copy of a frame, so that a bit flip cannot reach a retransmission's payload. */
static struct rte_mbuf *
dp_impair_private(struct dp_impair *s, struct rte_mbuf *m)
{
	struct rte_mbuf *c = rte_pktmbuf_copy(m, s->copy_pool, 0, UINT32_MAX);
	rte_pktmbuf_free(m);
	return c;
}

void
dp_impair_push(struct dp_impair *s, struct rte_mbuf **m, unsigned n, uint64_t now_ns,
	       uint64_t *dropped, uint64_t *no_mbuf)
{
	for (unsigned i = 0; i < n; i++) {
		struct rte_mbuf *f = m[i];
		if (s->corrupts && (f = dp_impair_private(s, f)) == NULL) {
			(*no_mbuf)++;
			continue;
		}
		if (impair_push(&s->st, (uintptr_t)f, f->pkt_len, now_ns) != IMPAIR_QUEUED) {
			(*dropped)++;
			rte_pktmbuf_free(f);
		}
	}
}

unsigned
dp_impair_pop(struct dp_impair *s, uint64_t now_ns, struct rte_mbuf **out, unsigned max)
{
	uintptr_t h[DP_IMPAIR_POP_MAX];
	uint32_t len[DP_IMPAIR_POP_MAX];
	unsigned n = impair_pop_burst(&s->st, now_ns, h, len,
				      max < DP_IMPAIR_POP_MAX ? max : DP_IMPAIR_POP_MAX);
	for (unsigned i = 0; i < n; i++)
		out[i] = (struct rte_mbuf *)h[i];
	return n;
}

static void
dp_impair_release(void *ctx, uintptr_t handle, uint32_t len)
{
	(void)ctx;
	(void)len;
	rte_pktmbuf_free((struct rte_mbuf *)handle);
}

void
dp_impair_drain(struct dp_impair *s)
{
	if (s->on)
		(void)impair_drain(&s->st, dp_impair_release, s);
}

void
dp_impair_fini(struct dp_impair *s)
{
	dp_impair_drain(s);
	rte_free(s->mem);
	s->mem = NULL;
	s->on = false;
}
