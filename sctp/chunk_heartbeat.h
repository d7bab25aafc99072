/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * HEARTBEAT (RFC 9260 §3.3.5) and HEARTBEAT ACK (§3.3.6): same layout, one
 * Heartbeat Info parameter (type 1) whose value is opaque to the receiver,
 * which echoes it back unchanged in the HEARTBEAT ACK.
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Type = 4/5   |  Chunk Flags  |       Heartbeat Length        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Heartbeat Info Type = 1    |      HB Info Length           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                  Sender-Specific Heartbeat Info               /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * Accepted: a chunk whose value is that one parameter, with or without the
 * parameter's padding counted in the chunk Length. Anything else (another
 * parameter type, bytes after the parameter's padding) is
 * SCTP_PERR_HEARTBEAT_INFO; a parameter length below 4 or past the chunk is
 * SCTP_PERR_PARAM_LEN_SHORT / SCTP_PERR_PARAM_LEN_OVERRUN.
 */
#ifndef SCTP_CHUNK_HEARTBEAT_H
#define SCTP_CHUNK_HEARTBEAT_H

#include <stdint.h>

#include "sctp/packet.h"

#define SCTP_HEARTBEAT_FIXED_LEN 4u /* the Heartbeat Info parameter header */

struct sctp_heartbeat {
	uint8_t type;	     /* SCTP_CHUNK_HEARTBEAT or SCTP_CHUNK_HEARTBEAT_ACK */
	uint8_t flags;	     /* raw chunk flags */
	const uint8_t *info; /* Heartbeat Info value, info_len bytes, inside the packet */
	uint16_t info_len;
};

enum sctp_parse_err sctp_heartbeat_parse(const struct sctp_chunk *c, struct sctp_heartbeat *out);

/*
 * The whole chunk of type in->type. The chunk Length does not count the
 * padding of the parameter (RFC 9260 §3.2), so the ACK of a HEARTBEAT can be
 * built from the parsed HEARTBEAT with only the type changed.
 */
void sctp_heartbeat_build(struct sctp_writer *w, const struct sctp_heartbeat *in);

#endif /* SCTP_CHUNK_HEARTBEAT_H */
