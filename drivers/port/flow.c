/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_flow rules that steer SCTP packets to a queue by verification tag
 * (RFC 9260 §3.1: the tag is bytes 4-7 of the common header), and the
 * per-port record of whether steering is in hardware. See flow.h for the
 * contract and docs/PORTS.md "Steering on the SCTP tag" for the policy.
 *
 * Invariants: a call either leaves both of its rules installed or none of
 * them; the record of a port counts only rules installed through the same
 * struct dpsctp_port, and one refusal makes the port software-steered
 * until the next flush. Control path only: no locks, the caller serialises
 * calls per port.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow.h>

#include "drivers/port/flow.h"
#include "drivers/port/port.h"

/*
 * What this file knows of each ethdev port: which struct dpsctp_port made
 * its tag rules, how many are installed, whether one was refused. Written
 * and read on the control path only.
 */
struct flow_record {
	const struct dpsctp_port *owner;
	uint32_t rules;
	bool refused;
};

static struct flow_record flow_records[RTE_MAX_ETHPORTS];

static void flow_err(struct dpsctp_port *p, const char *fmt, ...) __rte_format_printf(2, 3);

static void
flow_err(struct dpsctp_port *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->error, sizeof(p->error), fmt, ap);
	va_end(ap);
}

/* The record of p's port, reset when it was made through another struct. */
static struct flow_record *
flow_record_of(const struct dpsctp_port *p)
{
	struct flow_record *r = &flow_records[p->port_id];

	if (r->owner != p) {
		r->owner = p;
		r->rules = 0;
		r->refused = false;
	}
	return r;
}

/* Which part of the rule an rte_flow_error blames, for the message. */
static const char *
flow_err_part(enum rte_flow_error_type t)
{
	switch (t) {
	case RTE_FLOW_ERROR_TYPE_ATTR:
	case RTE_FLOW_ERROR_TYPE_ATTR_GROUP:
	case RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY:
	case RTE_FLOW_ERROR_TYPE_ATTR_INGRESS:
	case RTE_FLOW_ERROR_TYPE_ATTR_EGRESS:
	case RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER:
		return "attribute";
	case RTE_FLOW_ERROR_TYPE_ITEM_NUM:
	case RTE_FLOW_ERROR_TYPE_ITEM:
	case RTE_FLOW_ERROR_TYPE_ITEM_SPEC:
	case RTE_FLOW_ERROR_TYPE_ITEM_LAST:
	case RTE_FLOW_ERROR_TYPE_ITEM_MASK:
		return "pattern";
	case RTE_FLOW_ERROR_TYPE_ACTION_NUM:
	case RTE_FLOW_ERROR_TYPE_ACTION_CONF:
	case RTE_FLOW_ERROR_TYPE_ACTION:
		return "action";
	default:
		return "rule";
	}
}

/*
 * Write "<step>: <PMD message> (...)" into p->error. A PMD may leave the
 * message NULL or empty; the errno's text stands in for it then, so the
 * sentence is never empty.
 */
static void
flow_err_pmd(struct dpsctp_port *p, const char *step, int ret, const struct rte_flow_error *e,
	     const char *family, uint32_t mask, uint32_t value, uint16_t queue)
{
	const char *why = rte_strerror(-ret);
	/* net_ring's "message" is the errno's own text: say it once. */
	bool has_msg = e->message != NULL && e->message[0] != '\0' && strcmp(e->message, why) != 0;

	flow_err(p,
		 "%s: %s (%s%sblames the %s; port %u %s, %s rule, tag 0x%08x/0x%08x -> queue %u)",
		 step, has_msg ? e->message : why, has_msg ? why : "", has_msg ? ", " : "",
		 flow_err_part(e->type), p->port_id, p->driver, family, value, mask, queue);
}

/*
 * Validate and create one rule for family 4 or 6. 0 with *rule set, or
 * -ENOTSUP with the PMD's reason in p->error.
 */
static int
flow_vtag_one(struct dpsctp_port *p, int family, uint32_t mask, uint32_t value, uint16_t queue,
	      uint32_t priority, struct rte_flow **rule)
{
	const struct rte_flow_attr attr = { .priority = priority, .ingress = 1 };
	/* Addresses and ports are left open: only the tag decides. */
	const struct rte_flow_item_sctp spec = { .hdr.tag = rte_cpu_to_be_32(value) };
	const struct rte_flow_item_sctp smask = { .hdr.tag = rte_cpu_to_be_32(mask) };
	/* No IP spec: the SCTP item after it already restricts the protocol. */
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = family == 4 ? RTE_FLOW_ITEM_TYPE_IPV4 : RTE_FLOW_ITEM_TYPE_IPV6 },
		{ .type = RTE_FLOW_ITEM_TYPE_SCTP, .spec = &spec, .mask = &smask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action_queue to_queue = { .index = queue };
	const struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &to_queue },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const char *name = family == 4 ? "IPv4" : "IPv6";
	struct rte_flow_error e;
	int ret;

	memset(&e, 0, sizeof(e));
	ret = rte_flow_validate(p->port_id, &attr, pattern, actions, &e);
	if (ret != 0) {
		flow_err_pmd(p, "rte_flow_validate", ret < 0 ? ret : -EINVAL, &e, name, mask, value,
			     queue);
		return -ENOTSUP;
	}
	memset(&e, 0, sizeof(e));
	*rule = rte_flow_create(p->port_id, &attr, pattern, actions, &e);
	if (*rule == NULL) {
		ret = rte_errno != 0 ? -rte_errno : -EINVAL;
		flow_err_pmd(p, "rte_flow_create", ret, &e, name, mask, value, queue);
		return -ENOTSUP;
	}
	return 0;
}

int
dpsctp_port_flow_vtag(struct dpsctp_port *p, uint32_t tag_mask, uint32_t tag_value, uint16_t queue,
		      struct rte_flow **out)
{
	return dpsctp_port_flow_vtag_prio(p, tag_mask, tag_value, queue, 0, out);
}

int
dpsctp_port_flow_vtag_prio(struct dpsctp_port *p, uint32_t tag_mask, uint32_t tag_value,
			   uint16_t queue, uint32_t priority, struct rte_flow **out)
{
	struct rte_flow *rules[DPSCTP_PORT_FLOW_VTAG_RULES] = { NULL, NULL };
	struct flow_record *r;
	struct rte_flow_error e;
	int ret;

	if (p == NULL)
		return -EINVAL;
	if (!p->open || p->port_id >= RTE_MAX_ETHPORTS) {
		flow_err(p, "dpsctp_port_flow_vtag: port %u is not open", p->port_id);
		return -EINVAL;
	}
	if (queue >= p->nb_queues) {
		flow_err(p, "dpsctp_port_flow_vtag: queue %u, port %u (%s) has %u", queue,
			 p->port_id, p->driver, p->nb_queues);
		return -EINVAL;
	}
	if (tag_mask == 0 || (tag_value & ~tag_mask) != 0) {
		flow_err(p, "dpsctp_port_flow_vtag: tag 0x%08x outside mask 0x%08x, or mask 0",
			 tag_value, tag_mask);
		return -EINVAL;
	}
	r = flow_record_of(p);
	ret = flow_vtag_one(p, 4, tag_mask, tag_value, queue, priority, &rules[0]);
	if (ret == 0)
		ret = flow_vtag_one(p, 6, tag_mask, tag_value, queue, priority, &rules[1]);
	if (ret != 0) {
		/* All or nothing: undo the IPv4 rule when the IPv6 one is refused. */
		if (rules[0] != NULL)
			rte_flow_destroy(p->port_id, rules[0], &e);
		r->refused = true;
		return ret;
	}
	r->rules += DPSCTP_PORT_FLOW_VTAG_RULES;
	if (out != NULL)
		memcpy(out, rules, sizeof(rules));
	return 0;
}

int
dpsctp_port_flow_flush(struct dpsctp_port *p)
{
	struct flow_record *r;
	struct rte_flow_error e;
	int ret;

	if (p == NULL)
		return -EINVAL;
	if (!p->open || p->port_id >= RTE_MAX_ETHPORTS) {
		flow_err(p, "dpsctp_port_flow_flush: port %u is not open", p->port_id);
		return -EINVAL;
	}
	r = flow_record_of(p);
	r->rules = 0;
	r->refused = false;
	memset(&e, 0, sizeof(e));
	ret = rte_flow_flush(p->port_id, &e);
	/* No rte_flow in the PMD (net_ring: -ENOSYS): no rule can exist. */
	if (ret == 0 || ret == -ENOSYS || ret == -ENOTSUP)
		return 0;
	flow_err(p, "rte_flow_flush: %s (port %u %s, %s)",
		 e.message != NULL && e.message[0] != '\0' ? e.message : rte_strerror(-ret),
		 p->port_id, p->driver, rte_strerror(-ret));
	return ret;
}

bool
dpsctp_port_flow_hw(const struct dpsctp_port *p)
{
	const struct flow_record *r;

	if (p == NULL || !p->open || p->port_id >= RTE_MAX_ETHPORTS)
		return false;
	r = &flow_records[p->port_id];
	return r->owner == p && r->rules > 0 && !r->refused;
}

uint32_t
dpsctp_port_flow_rules(const struct dpsctp_port *p)
{
	const struct flow_record *r;

	if (p == NULL || p->port_id >= RTE_MAX_ETHPORTS)
		return 0;
	r = &flow_records[p->port_id];
	return r->owner == p ? r->rules : 0;
}
