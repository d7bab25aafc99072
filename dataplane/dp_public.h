/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The core's codes (sctp/) to the public API's (dpsctp.h). The public
 * enums are the library's promise to applications and the core's are free
 * to change, so every value is converted by name: a core enum that grows
 * or is renumbered cannot silently change what an application reads. The
 * switches compile to a table or to nothing when the numbers agree (they
 * do today), so the event and statistics paths pay nothing for them.
 */
#ifndef DPSCTP_DATAPLANE_DP_PUBLIC_H
#define DPSCTP_DATAPLANE_DP_PUBLIC_H

#include "dataplane/dpsctp.h"
#include "sctp/assoc.h"
#include "sctp/path.h"

/* Why an association ended (enum sctp_assoc_reason). */
static inline enum dpsctp_reason
dp_public_reason(unsigned r)
{
	switch ((enum sctp_assoc_reason)r) {
	case SCTP_ASSOC_REASON_NONE:
		return DPSCTP_REASON_NONE;
	case SCTP_ASSOC_REASON_PEER_ABORT:
		return DPSCTP_REASON_PEER_ABORT;
	case SCTP_ASSOC_REASON_USER_ABORT:
		return DPSCTP_REASON_USER_ABORT;
	case SCTP_ASSOC_REASON_SHUTDOWN:
		return DPSCTP_REASON_SHUTDOWN;
	case SCTP_ASSOC_REASON_T1_INIT:
		return DPSCTP_REASON_T1_INIT;
	case SCTP_ASSOC_REASON_T1_COOKIE:
		return DPSCTP_REASON_T1_COOKIE;
	case SCTP_ASSOC_REASON_STALE_COOKIE:
		return DPSCTP_REASON_STALE_COOKIE;
	case SCTP_ASSOC_REASON_INIT_ACK_INVALID:
		return DPSCTP_REASON_INIT_ACK_INVALID;
	case SCTP_ASSOC_REASON_T2_SHUTDOWN:
		return DPSCTP_REASON_T2_SHUTDOWN;
	case SCTP_ASSOC_REASON_T5_GUARD:
		return DPSCTP_REASON_T5_GUARD;
	case SCTP_ASSOC_REASON_PATHS_FAILED:
		return DPSCTP_REASON_PATHS_FAILED;
	case SCTP_ASSOC_REASON_NO_MEMORY:
		return DPSCTP_REASON_NO_MEMORY;
	case SCTP_ASSOC_REASON_PROTOCOL:
		return DPSCTP_REASON_PROTOCOL;
	}
	return DPSCTP_REASON_PROTOCOL; /* unreachable: every core reason is named above */
}

/* What a PEER_ADDR_CHANGE says of the path (enum sctp_addr_change); 0 for other events. */
static inline uint8_t
dp_public_addr_state(unsigned s)
{
	switch ((enum sctp_addr_change)s) {
	case SCTP_ADDR_CHANGE_AVAILABLE:
		return DPSCTP_ADDR_AVAILABLE;
	case SCTP_ADDR_CHANGE_UNREACHABLE:
		return DPSCTP_ADDR_UNREACHABLE;
	case SCTP_ADDR_CHANGE_POTENTIALLY_FAILED:
		return DPSCTP_ADDR_POTENTIALLY_FAILED;
	case SCTP_ADDR_CHANGE_CONFIRMED:
		return DPSCTP_ADDR_CONFIRMED;
	case SCTP_ADDR_CHANGE_MADE_PRIMARY:
		return DPSCTP_ADDR_MADE_PRIMARY;
	}
	return 0;
}

/* The association's state (enum sctp_assoc_state). */
static inline enum dpsctp_assoc_state
dp_public_assoc_state(unsigned s)
{
	switch ((enum sctp_assoc_state)s) {
	case SCTP_ASSOC_CLOSED:
	case SCTP_ASSOC_STATE_COUNT:
		break;
	case SCTP_ASSOC_COOKIE_WAIT:
		return DPSCTP_ASSOC_COOKIE_WAIT;
	case SCTP_ASSOC_COOKIE_ECHOED:
		return DPSCTP_ASSOC_COOKIE_ECHOED;
	case SCTP_ASSOC_ESTABLISHED:
		return DPSCTP_ASSOC_ESTABLISHED;
	case SCTP_ASSOC_SHUTDOWN_PENDING:
		return DPSCTP_ASSOC_SHUTDOWN_PENDING;
	case SCTP_ASSOC_SHUTDOWN_SENT:
		return DPSCTP_ASSOC_SHUTDOWN_SENT;
	case SCTP_ASSOC_SHUTDOWN_RECEIVED:
		return DPSCTP_ASSOC_SHUTDOWN_RECEIVED;
	case SCTP_ASSOC_SHUTDOWN_ACK_SENT:
		return DPSCTP_ASSOC_SHUTDOWN_ACK_SENT;
	}
	return DPSCTP_ASSOC_CLOSED;
}

/* A path's state (enum sctp_path_state). */
static inline enum dpsctp_path_state
dp_public_path_state(unsigned s)
{
	switch ((enum sctp_path_state)s) {
	case SCTP_PATH_ACTIVE:
		return DPSCTP_PATH_ACTIVE;
	case SCTP_PATH_PF:
		return DPSCTP_PATH_POTENTIALLY_FAILED;
	case SCTP_PATH_INACTIVE:
		break;
	}
	return DPSCTP_PATH_INACTIVE;
}

#endif /* DPSCTP_DATAPLANE_DP_PUBLIC_H */
