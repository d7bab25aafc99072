/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the example programs (dpsctp-echo, dpsctp-perf) share and the
 * library has no business offering: a peer list from the command line and
 * the --loopback link, two net_ring ethdevs joined crosswise.
 */
#ifndef DPSCTP_APP_COMMON_H
#define DPSCTP_APP_COMMON_H

#include "dataplane/dpsctp.h"

/*
 * "ADDR[,ADDR...]", IPv4 or IPv6, into out (at most max). Returns the
 * number of addresses, or -1 for a word that is no address or more than
 * max of them.
 */
int app_parse_peers(const char *list, struct dpsctp_addr *out, unsigned max);

/*
 * Two ethdevs over two rings of 4096, crosswise: "net_ring_<prefix>_a" and
 * "net_ring_<prefix>_b" (the names --port ethdev:... takes). 0, or -1 when a
 * ring or an ethdev could not be made.
 */
int app_ring_pair(const char *prefix);

#endif /* DPSCTP_APP_COMMON_H */
