/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the DPDK programs (dpsctp-echo, dpsctp-perf, dpsctpd) share and the
 * library has no business offering: the EAL and the data plane's options,
 * the --loopback link (two net_ring ethdevs joined crosswise), memory held
 * back for a second instance. Their own options are app_opts.h's.
 */
#ifndef DPSCTP_APP_COMMON_H
#define DPSCTP_APP_COMMON_H

#include "apps/common/app_opts.h" /* options, peer lists */
#include "dataplane/config.h"
#include "dataplane/dpsctp.h"

/*
 * Two ethdevs over two rings of 4096, crosswise: "net_ring_<prefix>_a" and
 * "net_ring_<prefix>_b" (the names --port ethdev:... takes). 0, or -1 when a
 * ring or an ethdev could not be made.
 */
int app_ring_pair(const char *prefix);

/*
 * Start the EAL on the part of argv before "--", fill cfg with the defaults
 * and the data-plane options of the rest, and leave the program's own
 * options in *argc / *argv (argv[0] first). 0, or the exit status to return
 * with the reason on stderr: 3 the EAL did not start, 2 a bad option.
 */
int app_init(int *argc, char ***argv, struct dpsctp_config *cfg, const char *prog);

/*
 * dpsctp-echo and dpsctp-perf poll one worker from their main thread:
 * --queues above 1 would start workers whose queues nobody reads (RSS would
 * steer part of the traffic there, to be dropped). 0, or 2 with the reason
 * on stderr.
 */
int app_one_worker(const struct dpsctp_config *cfg, const char *prog);

/*
 * dpsctp_create() from cfg; with port != NULL, the configuration's port
 * and addresses are replaced first by "port" (ethdev:NAME or devargs) and
 * "ip" (ADDR/PREFIX). NULL with "prog: why" on stderr.
 */
struct dpsctp *app_create(struct dpsctp_config *cfg, const char *port, const char *ip,
			  const char *prog);

/*
 * Two instances in one process (--loopback, a loopback peer) share the
 * EAL's memory, which without hugepages is its -m and no more; the library
 * fits a computed mbuf pool to what is free, so the first instance would
 * leave the second nothing. app_hold_half() holds half of what is free (no
 * hugepages only) while the first is created; app_release() gives it back
 * for the second. NULL when nothing is held.
 */
void *app_hold_half(void);
void app_release(void *hold);

#endif /* DPSCTP_APP_COMMON_H */
