/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-association options of the embedded API (dpsctp_opt.h,
 * docs/OPTIONS.md): the instance's defaults, an association's own block
 * made at its first set, and what the rest of the runtime reads of them.
 * The public calls that take the request ring are in dp_api.c.
 */
#ifndef DPSCTP_DATAPLANE_DP_OPT_H
#define DPSCTP_DATAPLANE_DP_OPT_H

#include <stdbool.h>
#include <stddef.h>

#include "dataplane/dp_types.h"

/* The instance's defaults from its profile and configuration (dp_instance_new()). */
void dp_opt_instance_init(struct dpsctp *d);
/* The configuration's option keys over the profile (--rto-min, ...): 0 or -EINVAL with err. */
int dp_opt_from_config(struct dpsctp *d, char *err, size_t errlen);
/* An option on c, on its worker: dpsctp_assoc_setopt()'s result; dp_conn_after() follows. */
int dp_opt_assoc_apply(struct dpsctp_assoc *c, enum dpsctp_opt opt, const void *val, char *err,
		       size_t errlen);
/* dpsctp_connect_opts()'s INITMSG on c, linked and not yet connected: 0 or -EINVAL. */
int dp_opt_assoc_init(struct dpsctp_assoc *c, const struct dpsctp_initmsg *init);
/* The dp-side options in force on c. */
const struct dp_optvals *dp_opt_vals(const struct dpsctp_assoc *c);
/* Whether the application wants events of that type (DPSCTP_OPT_EVENTS). */
bool dp_opt_event_wanted(const struct dpsctp_assoc *c, unsigned type);
/* c's block back (the association is freed or reused). */
void dp_opt_free(struct dpsctp_assoc *c);
/*
 * PEER_ADDR_PARAMS' path MTU, fixed (mtu) or discovered (0), on path i:
 * the one place the option reaches the path's MTU.
 */
int dp_opt_path_mtu(struct dpsctp_assoc *c, unsigned path, uint32_t mtu, char *err, size_t errlen);

#endif /* DPSCTP_DATAPLANE_DP_OPT_H */
