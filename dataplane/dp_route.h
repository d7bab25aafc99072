/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The instance's routing table (dp_route.c): which port and next hop an
 * outgoing packet takes, and which of that port's addresses it carries
 * (docs/PORTS.md "Several ports"). Built once by dpsctp_create() from the
 * configuration (connected prefixes of every --ip, --route entries, each
 * port's --gw) into DPDK's rte_lpm and rte_lpm6, and only read after: the
 * workers share it without a lock.
 *
 * Includes: dp_types.h's config.h and sctp/addr.h only; nothing of the
 * runtime (docs/ARCHITECTURE.md, "The runtime's files").
 */
#ifndef DPSCTP_DATAPLANE_DP_ROUTE_H
#define DPSCTP_DATAPLANE_DP_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/config.h"
#include "sctp/addr.h"

struct rte_lpm;
struct rte_lpm6;

/* Next hops: one per connected prefix and per route, at most. */
#define DP_ROUTE_HOPS (DPSCTP_CONFIG_MAX_IPS + DPSCTP_CONFIG_MAX_ROUTES)

/* Where a packet goes: out of port, to via (family 0: the destination itself, on-link). */
struct dp_route_hop {
	uint8_t port;
	struct sctp_addr via;
};

struct dp_routes {
	struct rte_lpm *lpm4;
	struct rte_lpm6 *lpm6;
	unsigned n_hops;
	struct dp_route_hop hop[DP_ROUTE_HOPS];
	/* A --route or connected prefix of length 0 (rte_lpm takes 1..32): hop index, or -1. */
	int def4, def6;
	unsigned n_ports;
	/* Each port's default gateways (family 0: none) and addresses. */
	struct sctp_addr gw4[DPSCTP_CONFIG_MAX_PORTS], gw6[DPSCTP_CONFIG_MAX_PORTS];
	unsigned n_addrs[DPSCTP_CONFIG_MAX_PORTS];
	struct sctp_addr addrs[DPSCTP_CONFIG_MAX_PORTS][DPSCTP_CONFIG_MAX_IPS];
};

/*
 * The table of a configuration dpsctp_config_validate() accepted, its LPMs
 * on socket (name: a prefix unique in the process). 0, or -ENOMEM / -EINVAL
 * with a sentence in err.
 */
int dp_routes_build(struct dp_routes *r, const struct dpsctp_config *c, const char *name,
		    int socket, char *err, size_t errlen);
void dp_routes_free(struct dp_routes *r);

/*
 * The port and next hop for dst: the longest connected prefix or --route
 * holding it; else a /0 route; else the default gateway of src's port (when
 * src, may be NULL, is an address of a port with a gateway of dst's
 * family); else the gateway of the lowest-numbered port with one; an IPv6
 * link-local dst is on-link on src's port (port 0 without src). 0, or
 * -ENETUNREACH.
 */
int dp_route_lookup(const struct dp_routes *r, const struct sctp_addr *dst,
		    const struct sctp_addr *src, struct dp_route_hop *out);

/* The port src is an address of, or -1. */
int dp_route_port_of(const struct dp_routes *r, const struct sctp_addr *src);

/*
 * The source a packet to dst leaving by port carries (RFC 9260 §6.4: an
 * address of the interface it leaves by): src when it is one of the
 * port's; else the port's address of dst's family sharing the longest
 * prefix with dst (the first such). false: the port has none of the family.
 */
bool dp_route_src(const struct dp_routes *r, unsigned port, const struct sctp_addr *dst,
		  const struct sctp_addr *src, struct sctp_addr *out);

#endif /* DPSCTP_DATAPLANE_DP_ROUTE_H */
