/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sidecar fuzz targets' input, read a few bytes at a time: what runs
 * out reads as zeros, so every input is a complete sequence of operations.
 * And their checks: a broken invariant aborts, which libFuzzer reports.
 * dataplane/fuzz/fuzz_dp_rx.c reads its operations with it too.
 */
#ifndef DPSCTP_SIDECAR_FUZZ_FZ_INPUT_H
#define DPSCTP_SIDECAR_FUZZ_FZ_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fz_input {
	const uint8_t *in;
	size_t n;
};

static inline uint8_t
fz_take8(struct fz_input *f)
{
	if (f->n == 0)
		return 0;
	f->n--;
	return *f->in++;
}

static inline uint32_t
fz_take32(struct fz_input *f)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++)
		v |= (uint32_t)fz_take8(f) << (8 * i);
	return v;
}

static inline void
fz_take_bytes(struct fz_input *f, void *dst, size_t len)
{
	size_t k = len < f->n ? len : f->n;
	memcpy(dst, f->in, k);
	memset((uint8_t *)dst + k, 0, len - k);
	f->in += k;
	f->n -= k;
}

/* Abort with "target: what" when cond is false. */
static inline void
fz_check(const char *target, bool cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "%s: %s\n", target, what);
		abort();
	}
}

#endif /* DPSCTP_SIDECAR_FUZZ_FZ_INPUT_H */
