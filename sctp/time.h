/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Time in the sans-I/O core: uint64_t nanoseconds, always passed in by the
 * caller as `now_ns` (the core never reads a clock). Nanoseconds because the
 * data-center profile measures round trips of a few microseconds over
 * net_ring and veth; 64 bits of them last 584 years.
 */
#ifndef SCTP_TIME_H
#define SCTP_TIME_H

#include <stdint.h>

#define SCTP_NS_PER_US 1000ull
#define SCTP_NS_PER_MS 1000000ull
#define SCTP_NS_PER_S  1000000000ull

#define SCTP_US(x) ((uint64_t)(x)*SCTP_NS_PER_US)
#define SCTP_MS(x) ((uint64_t)(x)*SCTP_NS_PER_MS)
#define SCTP_S(x)  ((uint64_t)(x)*SCTP_NS_PER_S)

/* "No wake-up wanted": later than any real deadline. */
#define SCTP_TIME_NEVER UINT64_MAX

#endif /* SCTP_TIME_H */
