/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The routing table (dp_route.h): connected prefixes and --route entries
 * in rte_lpm (IPv4) and rte_lpm6 (IPv6), whose next-hop value is an index
 * into hop[]; the default gateways beside them. The LPMs are written only
 * by dp_routes_build(), before any worker runs, and read by every worker:
 * rte_lpm lookups are reads of tables nobody writes, so no lock and no RCU.
 *
 * Costs: a lookup is rte_lpm_lookup() (one or two table reads) or
 * rte_lpm6_lookup() (a few); source selection a pass over at most
 * DPSCTP_CONFIG_MAX_IPS addresses. The data plane calls them per packet
 * only with several ports or --route entries (dp_tx.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_lpm.h>
#include <rte_lpm6.h>

#include "dataplane/dp_route.h"
#include "sctp/addr.h"
#include "sctp/byteorder.h"

/* The network of a with len bits kept. */
static void
network(const struct sctp_addr *a, unsigned len, uint8_t out[16])
{
	memset(out, 0, 16);
	for (unsigned b = 0; b < len; b++)
		out[b / 8u] |= (uint8_t)(a->bytes[b / 8u] & (0x80u >> (b % 8u)));
}

static int
add(struct dp_routes *r, const struct sctp_addr *prefix, unsigned len, uint8_t port,
    const struct sctp_addr *via, char *err, size_t errlen)
{
	uint8_t net[16];
	unsigned h = r->n_hops;
	if (h == DP_ROUTE_HOPS)
		return -ENOSPC;
	r->hop[h].port = port;
	if (via != NULL)
		r->hop[h].via = *via;
	r->n_hops++;
	network(prefix, len, net);
	int rc;
	if (len == 0) {
		int *def = prefix->family == 4 ? &r->def4 : &r->def6;
		if (*def < 0)
			*def = (int)h;
		return 0;
	}
	if (prefix->family == 4)
		rc = rte_lpm_add(r->lpm4, sctp_load_be32(net), (uint8_t)len, h);
	else
		rc = rte_lpm6_add(r->lpm6, net, (uint8_t)len, h);
	if (rc != 0 && err != NULL && errlen != 0)
		snprintf(err, errlen, "routing table: rte_lpm%s_add /%u: %s (%d)",
			 prefix->family == 4 ? "" : "6", len, strerror(-rc), rc);
	return rc;
}

int
dp_routes_build(struct dp_routes *r, const struct dpsctp_config *c, const char *name, int socket,
		char *err, size_t errlen)
{
	char n4[RTE_LPM_NAMESIZE], n6[RTE_LPM_NAMESIZE];
	memset(r, 0, sizeof(*r));
	r->def4 = r->def6 = -1;
	r->n_ports = c->n_ports > 0 ? c->n_ports : 1u;
	snprintf(n4, sizeof(n4), "%s4", name);
	snprintf(n6, sizeof(n6), "%s6", name);
	/* Prefixes above /24 (/48 in IPv6's tables) take tbl8 groups: one each at most. */
	struct rte_lpm_config c4 = { .max_rules = DP_ROUTE_HOPS, .number_tbl8s = DP_ROUTE_HOPS };
	struct rte_lpm6_config c6 = { .max_rules = DP_ROUTE_HOPS,
				      .number_tbl8s = DP_ROUTE_HOPS * 16u };
	r->lpm4 = rte_lpm_create(n4, socket, &c4);
	r->lpm6 = rte_lpm6_create(n6, socket, &c6);
	if (r->lpm4 == NULL || r->lpm6 == NULL) {
		dp_routes_free(r);
		if (err != NULL && errlen != 0)
			snprintf(err, errlen, "routing table: rte_lpm_create: no memory (%d)",
				 -ENOMEM);
		return -ENOMEM;
	}
	int rc = 0;
	for (unsigned i = 0; i < c->n_ips && rc == 0; i++) {
		const struct dpsctp_config_ip *ip = &c->ips[i];
		unsigned p = ip->port;
		r->addrs[p][r->n_addrs[p]++] = ip->addr;
		rc = add(r, &ip->addr, ip->prefix, ip->port, NULL, err, errlen);
	}
	for (unsigned p = 0; p < r->n_ports; p++) {
		r->gw4[p] = p == 0 ? c->gw4 : c->port_gw4[p - 1];
		r->gw6[p] = p == 0 ? c->gw6 : c->port_gw6[p - 1];
	}
	/* A route leaves by the port its gateway is on-link for (dpsctp_config_validate()). */
	for (unsigned i = 0; i < c->n_routes && rc == 0; i++) {
		struct dp_route_hop on;
		const struct dpsctp_config_route *rt = &c->routes[i];
		if (dp_route_lookup(r, &rt->via, NULL, &on) != 0 || on.via.family != 0) {
			if (err != NULL && errlen != 0)
				snprintf(err, errlen,
					 "routing table: --route #%u: gateway not on-link", i + 1);
			rc = -EINVAL;
			break;
		}
		rc = add(r, &rt->prefix, rt->len, on.port, &rt->via, err, errlen);
	}
	if (rc != 0) {
		dp_routes_free(r);
		return rc < 0 ? rc : -EINVAL;
	}
	return 0;
}

void
dp_routes_free(struct dp_routes *r)
{
	rte_lpm_free(r->lpm4);
	rte_lpm6_free(r->lpm6);
	r->lpm4 = NULL;
	r->lpm6 = NULL;
}

int
dp_route_port_of(const struct dp_routes *r, const struct sctp_addr *src)
{
	for (unsigned p = 0; p < r->n_ports; p++)
		for (unsigned i = 0; i < r->n_addrs[p]; i++)
			if (sctp_addr_eq(&r->addrs[p][i], src))
				return (int)p;
	return -1;
}

static const struct sctp_addr *
gateway(const struct dp_routes *r, unsigned port, uint8_t family)
{
	const struct sctp_addr *g = family == 4 ? &r->gw4[port] : &r->gw6[port];
	return g->family == family ? g : NULL;
}

int
dp_route_lookup(const struct dp_routes *r, const struct sctp_addr *dst, const struct sctp_addr *src,
		struct dp_route_hop *out)
{
	uint32_t h = 0;
	int rc, def;
	memset(out, 0, sizeof(*out));
	if (dst->family == 4) {
		rc = rte_lpm_lookup(r->lpm4, sctp_load_be32(dst->bytes), &h);
		def = r->def4;
	} else if (dst->family == 6) {
		rc = rte_lpm6_lookup(r->lpm6, dst->bytes, &h);
		def = r->def6;
	} else {
		return -ENETUNREACH;
	}
	if (rc != 0 && def >= 0) {
		h = (uint32_t)def;
		rc = 0;
	}
	if (rc == 0 && h < r->n_hops) {
		*out = r->hop[h];
		return 0;
	}
	int sp = src != NULL ? dp_route_port_of(r, src) : -1;
	const struct sctp_addr *g = sp >= 0 ? gateway(r, (unsigned)sp, dst->family) : NULL;
	for (unsigned p = 0; g == NULL && p < r->n_ports; p++)
		if ((g = gateway(r, p, dst->family)) != NULL)
			sp = (int)p;
	if (g != NULL) {
		out->port = (uint8_t)sp;
		out->via = *g;
		return 0;
	}
	/* fe80::/10: on-link on every port; the source says which. */
	if (dst->family == 6 && dst->bytes[0] == 0xfe && (dst->bytes[1] & 0xc0u) == 0x80u) {
		out->port = (uint8_t)(sp >= 0 ? sp : 0);
		return 0;
	}
	return -ENETUNREACH;
}

bool
dp_route_src(const struct dp_routes *r, unsigned port, const struct sctp_addr *dst,
	     const struct sctp_addr *src, struct sctp_addr *out)
{
	const struct sctp_addr *best = NULL;
	unsigned best_len = 0;
	for (unsigned i = 0; i < r->n_addrs[port]; i++) {
		const struct sctp_addr *a = &r->addrs[port][i];
		if (src != NULL && sctp_addr_eq(a, src)) {
			*out = *a;
			return true;
		}
		if (a->family != dst->family)
			continue;
		unsigned l = sctp_addr_common_prefix(a, dst);
		if (best == NULL || l > best_len) {
			best = a;
			best_len = l;
		}
	}
	if (best == NULL)
		return false;
	*out = *best;
	return true;
}
