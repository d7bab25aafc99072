/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdpsctp-sock: the options about streams — the stream scheduler and
 * its per-stream values (RFC 8260 §4.3.2-§4.3.3) and stream
 * reconfiguration (RFC 6525 §6.3: SCTP_ENABLE_STREAM_RESET,
 * SCTP_RESET_STREAMS, SCTP_RESET_ASSOC, SCTP_ADD_STREAMS) — each a request
 * to dpsctpd whose completion is the call's result. The notifications
 * that answer a reconfiguration are sock_core.c's.
 */
#include <string.h>

#include "dataplane/sidecar/sock/sock.h"

/* Linux numbers its schedulers in this order; kernels before 6.3 name the first three only. */
#ifndef SCTP_SS_FC
#define SCTP_SS_FC 3
#endif
#ifndef SCTP_SS_WFQ
#define SCTP_SS_WFQ 4
#endif

/* Linux's scheduler number to the daemon's, -1 for none. */
static int
sched_from_linux(uint32_t v)
{
	switch (v) {
	case SCTP_SS_FCFS:
		return DPSCTP_CLIENT_SCHED_FCFS;
	case SCTP_SS_PRIO:
		return DPSCTP_CLIENT_SCHED_PRIO;
	case SCTP_SS_RR:
		return DPSCTP_CLIENT_SCHED_RR;
	case SCTP_SS_FC:
		return DPSCTP_CLIENT_SCHED_FC;
	case SCTP_SS_WFQ:
		return DPSCTP_CLIENT_SCHED_WFQ;
	default:
		return -1;
	}
}

/* The daemon's to Linux's; round robin per packet (which Linux has not) reads as
 * round robin. */
static uint32_t
sched_to_linux(uint32_t v)
{
	switch (v) {
	case DPSCTP_CLIENT_SCHED_FCFS:
		return SCTP_SS_FCFS;
	case DPSCTP_CLIENT_SCHED_PRIO:
		return SCTP_SS_PRIO;
	case DPSCTP_CLIENT_SCHED_FC:
		return SCTP_SS_FC;
	case DPSCTP_CLIENT_SCHED_WFQ:
		return SCTP_SS_WFQ;
	default:
		return SCTP_SS_RR;
	}
}

/* A request posted with op's cookie (posted: what the post returned), waited
 * for: its completion's status, its value in *value. */
static int
stream_wait(struct sock_op *op, int posted, uint32_t *value)
{
	int rc = posted == 0 ? sock_op_wait(op) : posted;
	if (rc == 0 && value != NULL)
		*value = op->value;
	sock_op_end(op);
	return rc;
}

/* The association an option names, which must exist (no defaults here). */
static uint64_t
stream_target(struct sock *sk, sctp_assoc_t id, int *rc)
{
	uint64_t h = sock_opt_handle(sk, id, rc);
	if (*rc == 0 && h == 0)
		*rc = sk->type == SOCK_STREAM ? -ENOTCONN : -EINVAL;
	if (*rc == 0 && (sock_g.c == NULL || sock_g.gone))
		*rc = -ECONNRESET;
	return h;
}

int
sock_opt_stream_set(struct sock *sk, int name, const void *val, socklen_t len)
{
	int rc = 0;
	struct sock_op *op;
	switch (name) {
	case SCTP_STREAM_SCHEDULER: {
		struct sctp_assoc_value a;
		if (val == NULL || len < (socklen_t)sizeof(a))
			return -EINVAL;
		memcpy(&a, val, sizeof(a));
		int s = sched_from_linux(a.assoc_value);
		uint64_t h = stream_target(sk, a.assoc_id, &rc);
		if (rc != 0 || s < 0)
			return rc != 0 ? rc : -EINVAL;
		if ((op = sock_op_begin()) == NULL)
			return -EAGAIN;
		return stream_wait(
			op, dpsctp_client_set_sched(sock_g.c, 0, h, (unsigned)s, op->cookie), NULL);
	}
	case SCTP_STREAM_SCHEDULER_VALUE: {
		struct sctp_stream_value v;
		if (val == NULL || len < (socklen_t)sizeof(v))
			return -EINVAL;
		memcpy(&v, val, sizeof(v));
		uint64_t h = stream_target(sk, v.assoc_id, &rc);
		if (rc != 0)
			return rc;
		if ((op = sock_op_begin()) == NULL)
			return -EAGAIN;
		return stream_wait(op,
				   dpsctp_client_set_stream_param(sock_g.c, 0, h, v.stream_id,
								  v.stream_value, op->cookie),
				   NULL);
	}
	case SCTP_ENABLE_STREAM_RESET: {
		/* The daemon offers RE-CONFIG (--extensions) and serves every request
		 * of the peer's: what a program enables is kept and read back. */
		struct sctp_assoc_value a;
		if (val == NULL || len < (socklen_t)sizeof(a))
			return -EINVAL;
		memcpy(&a, val, sizeof(a));
		if ((a.assoc_value & ~(uint32_t)SCTP_ENABLE_STRRESET_MASK) != 0)
			return -EINVAL;
		sk->strreset = a.assoc_value;
		return 0;
	}
	case SCTP_RESET_STREAMS: {
		struct sctp_reset_streams r;
		if (val == NULL || len < (socklen_t)sizeof(r))
			return -EINVAL;
		memcpy(&r, val, sizeof(r));
		if ((size_t)len < sizeof(r) + (size_t)r.srs_number_streams * sizeof(uint16_t) ||
		    r.srs_number_streams > 32 ||
		    (r.srs_flags & ~(SCTP_STREAM_RESET_INCOMING | SCTP_STREAM_RESET_OUTGOING)) !=
			    0 ||
		    r.srs_flags == 0)
			return -EINVAL;
		uint16_t sids[32];
		memcpy(sids, (const uint8_t *)val + sizeof(r),
		       (size_t)r.srs_number_streams * sizeof(uint16_t));
		uint64_t h = stream_target(sk, r.srs_assoc_id, &rc);
		if (rc != 0)
			return rc;
		if ((op = sock_op_begin()) == NULL)
			return -EAGAIN;
		/* RFC 6525's directions, the same bits in both APIs. */
		return stream_wait(
			op,
			dpsctp_client_reset_streams(sock_g.c, 0, h, r.srs_flags,
						    r.srs_number_streams != 0 ? sids : NULL,
						    r.srs_number_streams, op->cookie),
			NULL);
	}
	case SCTP_RESET_ASSOC: {
		sctp_assoc_t id;
		if (val == NULL || len < (socklen_t)sizeof(id))
			return -EINVAL;
		memcpy(&id, val, sizeof(id));
		uint64_t h = stream_target(sk, id, &rc);
		if (rc != 0)
			return rc;
		if ((op = sock_op_begin()) == NULL)
			return -EAGAIN;
		return stream_wait(op, dpsctp_client_reset_assoc(sock_g.c, 0, h, op->cookie), NULL);
	}
	case SCTP_ADD_STREAMS: {
		struct sctp_add_streams a;
		if (val == NULL || len < (socklen_t)sizeof(a))
			return -EINVAL;
		memcpy(&a, val, sizeof(a));
		uint64_t h = stream_target(sk, a.sas_assoc_id, &rc);
		if (rc != 0)
			return rc;
		if ((op = sock_op_begin()) == NULL)
			return -EAGAIN;
		return stream_wait(op,
				   dpsctp_client_add_streams(sock_g.c, 0, h, a.sas_outstrms,
							     a.sas_instrms, op->cookie),
				   NULL);
	}
	default:
		return -ENOPROTOOPT;
	}
}

int
sock_opt_stream_get(struct sock *sk, int name, void *val, socklen_t *len)
{
	int rc = 0;
	struct sock_op *op;
	if (val == NULL || len == NULL)
		return -EFAULT;
	switch (name) {
	case SCTP_STREAM_SCHEDULER: {
		struct sctp_assoc_value a;
		if (*len < (socklen_t)sizeof(a))
			return -EINVAL;
		memcpy(&a, val, sizeof(a));
		uint64_t h = stream_target(sk, a.assoc_id, &rc);
		if (rc != 0)
			return rc;
		if ((op = sock_op_begin()) == NULL)
			return -EAGAIN;
		uint32_t v = 0;
		rc = stream_wait(op, dpsctp_client_get_sched(sock_g.c, 0, h, op->cookie), &v);
		if (rc != 0)
			return rc;
		a.assoc_value = sched_to_linux(v);
		memcpy(val, &a, sizeof(a));
		*len = sizeof(a);
		return 0;
	}
	case SCTP_STREAM_SCHEDULER_VALUE: {
		struct sctp_stream_value s;
		if (*len < (socklen_t)sizeof(s))
			return -EINVAL;
		memcpy(&s, val, sizeof(s));
		uint64_t h = stream_target(sk, s.assoc_id, &rc);
		if (rc != 0)
			return rc;
		if ((op = sock_op_begin()) == NULL)
			return -EAGAIN;
		uint32_t v = 0;
		rc = stream_wait(
			op, dpsctp_client_get_stream_param(sock_g.c, 0, h, s.stream_id, op->cookie),
			&v);
		if (rc != 0)
			return rc;
		s.stream_value = (uint16_t)v;
		memcpy(val, &s, sizeof(s));
		*len = sizeof(s);
		return 0;
	}
	case SCTP_ENABLE_STREAM_RESET: {
		struct sctp_assoc_value a;
		if (*len < (socklen_t)sizeof(a))
			return -EINVAL;
		memcpy(&a, val, sizeof(a));
		a.assoc_value = sk->strreset;
		memcpy(val, &a, sizeof(a));
		*len = sizeof(a);
		return 0;
	}
	default:
		return -ENOPROTOOPT;
	}
}
