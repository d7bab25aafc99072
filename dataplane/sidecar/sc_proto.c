/* SPDX-License-Identifier: BSD-3-Clause */
/* The sidecar's slot formats: checks of what a ring delivers (sc_proto.h). */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "dataplane/sidecar/sc_proto.h"

_Static_assert(sizeof(struct sc_req) == SC_SLOT_BYTES, "request slot");
_Static_assert(sizeof(struct sc_cpl) == SC_SLOT_BYTES, "completion slot");
_Static_assert(sizeof(struct sc_evt) == SC_SLOT_BYTES, "event slot");
_Static_assert(sizeof(struct sc_addr) == 20, "address");
_Static_assert(offsetof(struct sc_evt, peer) == 38 && offsetof(struct sc_evt, pr_policy) == 58 &&
		       offsetof(struct sc_evt, mid) == 60,
	       "event slot fields");
_Static_assert(offsetof(struct sc_req, pr_policy) == 40 && offsetof(struct sc_req, value) == 48 &&
		       offsetof(struct sc_req, context) == 52 &&
		       offsetof(struct sc_req, reserved) == 56,
	       "request slot fields");
_Static_assert(SC_OPT_SLOTS(SC_OPT_MAX_BYTES) == 4 && SC_OPT_SLOTS(1) == 1 && SC_OPT_SLOTS(64) == 1,
	       "an option's answer in whole slots");
_Static_assert(offsetof(struct sc_cpl, value) == 24 && offsetof(struct sc_cpl, reserved) == 28,
	       "completion slot fields");
_Static_assert(sizeof(struct sc_zc_ref) == 16, "zero-copy reference");

/* Every byte zero; OR-ed a word at a time (the daemon checks every request). */
static bool
sc_zero(const uint8_t *p, size_t n)
{
	uint64_t acc = 0;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		acc |= w;
	}
	for (; i < n; i++)
		acc |= p[i];
	return acc == 0;
}

int
sc_req_check(const struct sc_req *r, uint64_t arena_bytes)
{
	if (r->op == 0 || r->op >= SC_OP_COUNT || (r->flags & ~SC_SEND_FLAGS) != 0 ||
	    r->pad0 != 0 || !sc_zero(r->reserved, sizeof(r->reserved)))
		return -EPROTO;
	/* value is the setters', the RFC 6525 requests', CONNECT's and the options' own: zero in
	 * every other request. So is a SEND's context. */
	if (r->value != 0 && r->op != SC_OP_SET_SCHED && r->op != SC_OP_SET_STREAM_PARAM &&
	    r->op != SC_OP_RESET_STREAMS && r->op != SC_OP_ADD_STREAMS && r->op != SC_OP_CONNECT &&
	    r->op != SC_OP_SETOPT && r->op != SC_OP_GETOPT)
		return -EPROTO;
	if (r->context != 0 && r->op != SC_OP_SEND)
		return -EPROTO;
	switch ((enum sc_op)r->op) {
	case SC_OP_LISTEN:
	case SC_OP_UNLISTEN:
		return r->port != 0 ? 0 : -EPROTO;
	case SC_OP_CONNECT: {
		/* The addresses, then the INITMSG (value bytes) when there is one. */
		uint32_t addrs = r->len - r->value;
		if (r->port == 0 || r->value > SC_OPT_MAX_BYTES || r->len <= r->value ||
		    addrs % sizeof(struct sc_addr) != 0 ||
		    addrs / sizeof(struct sc_addr) > SC_MAX_ADDRS || r->off >= arena_bytes)
			return -EPROTO;
		return 0;
	}
	case SC_OP_SETOPT:
	case SC_OP_GETOPT:
		/* The option's id and size here; its fields are the data plane's to judge
		 * (dpsctp_opt_check()), as a SEND's policy is. A SETOPT has a value to set;
		 * a GETOPT may ask a bare question. The other fields are zero. */
		if (r->value == 0 || r->value > SC_OPT_ID_MAX || r->len > SC_OPT_MAX_BYTES ||
		    (r->op == SC_OP_SETOPT && r->len == 0) ||
		    (r->len != 0 && r->off >= arena_bytes) || (r->len == 0 && r->off != 0) ||
		    r->sid != 0 || r->ppid != 0 || r->port != 0 || r->flags != 0 ||
		    r->pr_policy != 0 || r->pr_value != 0)
			return -EPROTO;
		return 0;
	case SC_OP_SEND:
		/* Empty messages do not exist in SCTP (RFC 9260 §6.2's zero-length DATA is an
		 * error). */
		if (r->len == 0 || r->len > arena_bytes || r->off >= arena_bytes)
			return -EPROTO;
		if ((r->flags & SC_SEND_DEFAULT) &&
		    ((r->flags & (SC_SEND_UNORDERED | SC_SEND_SACK_NOW)) != 0 || r->sid != 0 ||
		     r->ppid != 0 || r->pr_policy != 0 || r->pr_value != 0 || r->context != 0))
			return -EPROTO;
		return 0;
	case SC_OP_SHUTDOWN:
	case SC_OP_ABORT:
	case SC_OP_GET_SCHED:
	case SC_OP_GET_STREAM_PARAM:
		return r->assoc != 0 ? 0 : -EPROTO;
	case SC_OP_SET_SCHED:
		/* The number is the data plane's to judge (-EINVAL), as a SEND's policy is. */
		return r->assoc != 0 ? 0 : -EPROTO;
	case SC_OP_SET_STREAM_PARAM:
		return r->assoc != 0 && r->value <= UINT16_MAX ? 0 : -EPROTO;
	case SC_OP_RESET_STREAMS:
		/* The flags and the list's length here; the streams are the data plane's to judge.
		 */
		if (r->assoc == 0 || r->value == 0 ||
		    (r->value & ~(SC_RESET_INCOMING | SC_RESET_OUTGOING)) != 0 || r->len % 2 != 0 ||
		    r->len > 2 * SC_RECONF_MAX_STREAMS || (r->len != 0 && r->off >= arena_bytes))
			return -EPROTO;
		return 0;
	case SC_OP_ADD_STREAMS:
		return r->assoc != 0 && r->value != 0 ? 0 : -EPROTO;
	case SC_OP_RESET_ASSOC:
		return r->assoc != 0 ? 0 : -EPROTO;
	case SC_OP_RELEASE:
		return 0;
	case SC_OP_COUNT:
		break;
	}
	return -EPROTO;
}

static bool
sc_evt_reconf(uint8_t type)
{
	return type == SC_EVT_STREAM_RESET || type == SC_EVT_ASSOC_RESET ||
	       type == SC_EVT_STREAM_CHANGE;
}

/* The flags an event type may carry. */
static uint8_t
sc_evt_flags(uint8_t type)
{
	if (type == SC_EVT_RECV)
		return SC_RECV_UNORDERED | SC_RECV_MORE | SC_RECV_CONT | SC_RECV_ZC |
		       SC_RECV_ABORTED;
	if (type == SC_EVT_SEND_FAILED)
		return SC_FAILED_SENT;
	return sc_evt_reconf(type) ? SC_RESET_FLAGS : 0;
}

int
sc_evt_check(const struct sc_evt *e, uint64_t arena_bytes)
{
	if (e->type == 0 || e->type >= SC_EVT_COUNT || (e->flags & ~sc_evt_flags(e->type)) != 0 ||
	    !sc_zero(e->peer.pad, sizeof(e->peer.pad)))
		return -EPROTO;
	/* Who the association is with: an IPv4 or IPv6 address, or none at all. */
	if (e->peer.family != 0 && e->peer.family != 4 && e->peer.family != 6)
		return -EPROTO;
	if (e->type == SC_EVT_COMM_UP && e->peer.family == 0)
		return -EPROTO;
	/* A RECV has bytes, but the one that ends a message its sender abandoned. */
	if (e->type == SC_EVT_RECV && (e->flags & SC_RECV_ABORTED) &&
	    (e->len != 0 || e->off != 0 ||
	     (e->flags & (SC_RECV_CONT | SC_RECV_ZC)) != SC_RECV_CONT))
		return -EPROTO;
	if (e->type == SC_EVT_RECV && !(e->flags & SC_RECV_ABORTED) &&
	    (e->len == 0 || e->len > arena_bytes || e->off >= arena_bytes))
		return -EPROTO;
	if (e->type == SC_EVT_STREAM_RESET &&
	    (e->len % 2 != 0 || e->len > 2 * SC_RECONF_MAX_STREAMS ||
	     (e->len != 0 && e->off >= arena_bytes)))
		return -EPROTO;
	/* (The flags' bits mean something else in other events: the RFC 6525 ones
	 * reuse 0x04, SC_RESET_DENIED; sc_evt_flags() kept each type to its own.) */
	if (e->type == SC_EVT_RECV && (e->flags & SC_RECV_ZC) && e->len != sizeof(struct sc_zc_ref))
		return -EPROTO;
	/* Each event's own fields are zero in the others. */
	if (e->type != SC_EVT_SEND_FAILED &&
	    ((e->flags & SC_FAILED_SENT) != 0 || e->pr_policy != SC_PR_NONE))
		return -EPROTO;
	if (e->type == SC_EVT_SEND_FAILED && e->pr_policy > SC_PR_PRIO)
		return -EPROTO;
	if (e->extensions != 0 && e->type != SC_EVT_COMM_UP && e->type != SC_EVT_RESTART)
		return -EPROTO;
	if (e->mid != 0 && e->type != SC_EVT_RECV && e->type != SC_EVT_ASSOC_RESET &&
	    e->type != SC_EVT_SEND_FAILED)
		return -EPROTO;
	if (e->type == SC_EVT_PEER_ADDR_CHANGE &&
	    (e->len != sizeof(struct sc_addr) || e->off >= arena_bytes))
		return -EPROTO;
	if (e->type != SC_EVT_DAEMON_STOPPING && e->assoc == 0)
		return -EPROTO;
	return 0;
}

int
sc_cpl_check(const struct sc_cpl *c)
{
	if (c->op == 0 || c->op >= SC_OP_COUNT || !sc_zero(c->pad, sizeof(c->pad)) ||
	    !sc_zero(c->reserved, sizeof(c->reserved)))
		return -EPROTO;
	if (c->op == SC_OP_GETOPT) {
		/* An answer only with success, and then one of a size an option can have. */
		if (c->status != 0)
			return c->value == 0 ? 0 : -EPROTO;
		if (c->value == 0 || c->value > SC_OPT_MAX_BYTES)
			return -EPROTO;
		return (int)SC_OPT_SLOTS(c->value);
	}
	if (c->value != 0 &&
	    (c->status != 0 || (c->op != SC_OP_GET_SCHED && c->op != SC_OP_GET_STREAM_PARAM)))
		return -EPROTO;
	return 0;
}
