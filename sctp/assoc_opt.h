/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-association parameters (RFC 6458's socket options on one
 * association). Every association reads its parameters through one
 * pointer, sctp_assoc.prof: the endpoint's profile, shared by all its
 * associations, until the caller gives the association a block of its own
 * (struct sctp_assoc_opts) with sctp_assoc_set_opts(). Sans-I/O: the
 * caller owns the block (the data plane takes it from a pool only once an
 * option is set, so an association that keeps the defaults costs one
 * pointer), and takes it back with sctp_assoc_clear_opts() before reusing
 * it or freeing the association.
 *
 * What a set changes at once: every path's RTO is clamped to the new
 * bounds (RTO.Initial for paths without an RTT sample), heartbeats are
 * rescheduled with the new interval (each path's own, when the block's
 * profile gives it one: struct sctp_profile.path), the send side's Max.Burst is the
 * block's. The rest (SACK delay and frequency, failure thresholds, MAXSEG,
 * the handshake's retries and back-off cap) is read where it is used.
 */
#ifndef SCTP_ASSOC_OPT_H
#define SCTP_ASSOC_OPT_H

#include <stdint.h>

#include "sctp/assoc.h"
#include "sctp/cc.h"
#include "sctp/profile.h"

struct sctp_assoc_opts {
	struct sctp_profile profile; /* first: sctp_assoc.prof points here */
	struct sctp_cc_params cc;    /* the send side's parameters, max_burst the profile's */
};

/* The parameters in force (the endpoint's or the association's block). */
const struct sctp_profile *sctp_assoc_profile(const struct sctp_assoc *a);

/* The association's block, NULL while it runs on the endpoint's profile. */
struct sctp_assoc_opts *sctp_assoc_opts(const struct sctp_assoc *a);

/* o filled with the parameters in force, ready to change and set. */
void sctp_assoc_opts_init(struct sctp_assoc_opts *o, const struct sctp_assoc *a);

/*
 * Make o (filled by the caller from sctp_assoc_opts_init()) the
 * association's parameters and apply what changes at once (above). o stays
 * the caller's and must outlive its use (sctp_assoc_clear_opts()); setting
 * the block already in force again applies its new values. 0, or -EINVAL
 * with *why (sctp_profile_check()'s text) and nothing changed. Allowed in
 * any state, before sctp_assoc_connect() too (the INIT then offers o's
 * streams).
 */
int sctp_assoc_set_opts(struct sctp_assoc *a, struct sctp_assoc_opts *o, uint64_t now_ns,
			const char **why);

/* Back to the endpoint's profile; the block is the caller's again. */
void sctp_assoc_clear_opts(struct sctp_assoc *a);

/* The send side's congestion parameters for a (internal to the core). */
const struct sctp_cc_params *assoc_opts_cc(const struct sctp_assoc *a);

#endif /* SCTP_ASSOC_OPT_H */
