/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DATA chunk, RFC 9260 §3.3.1 (I bit: RFC 7053 §3).
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 0    |  Res  |I|U|B|E|            Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                              TSN                              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |      Stream Identifier S      |   Stream Sequence Number n    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Payload Protocol Identifier                  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                 User Data (seq n of Stream S)                 /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * The Length counts header, fixed part and user data but not the padding.
 * This is the hot path of the receiver: the parser is inline, does one length
 * check and five loads, and leaves the payload where it is (a view into the
 * packet, which the data plane hands on as an mbuf slice).
 */
#ifndef SCTP_CHUNK_DATA_H
#define SCTP_CHUNK_DATA_H

#include <stdint.h>

#include "sctp/packet.h"

struct sctp_data {
	uint8_t flags; /* raw chunk flags: SCTP_DATA_FLAG_{E,B,U,I} and reserved bits */
	uint16_t sid;
	uint16_t ssn;
	uint32_t tsn;
	uint32_t ppid;		/* host value of the big-endian field */
	const uint8_t *payload; /* user data, payload_len bytes, inside the packet */
	uint16_t payload_len;
};

/*
 * Parse a DATA chunk found by the chunk walker (its value lies inside the
 * packet). SCTP_PERR_CHUNK_LEN_FIXED below 16 bytes; SCTP_PERR_DATA_NO_USER_DATA
 * for exactly 16 (RFC 9260 §6.2: answered with an ABORT carrying cause 9).
 */
static inline enum sctp_parse_err
sctp_data_parse(const struct sctp_chunk *c, struct sctp_data *out)
{
	const uint8_t *v = c->value;

	if (c->length <= SCTP_CHUNK_HDR_LEN + SCTP_DATA_FIXED_LEN) {
		return c->length < SCTP_CHUNK_HDR_LEN + SCTP_DATA_FIXED_LEN
			       ? SCTP_PERR_CHUNK_LEN_FIXED
			       : SCTP_PERR_DATA_NO_USER_DATA;
	}
	out->flags = c->flags;
	out->tsn = sctp_load_be32(v);
	out->sid = sctp_load_be16(v + 4);
	out->ssn = sctp_load_be16(v + 6);
	out->ppid = sctp_load_be32(v + 8);
	out->payload = v + SCTP_DATA_FIXED_LEN;
	out->payload_len = (uint16_t)(c->length - (SCTP_CHUNK_HDR_LEN + SCTP_DATA_FIXED_LEN));
	return SCTP_PERR_OK;
}

/* The whole chunk: header, fixed part, in->payload, padding. */
void sctp_data_build(struct sctp_writer *w, const struct sctp_data *in);

/*
 * Only the 16 bytes of header and fixed part, with a Length that counts
 * in->payload_len bytes of user data the caller sends from elsewhere (the
 * application's own mbuf, chained after this header) followed by padding the
 * caller also supplies. in->payload is not read.
 */
void sctp_data_build_header(struct sctp_writer *w, const struct sctp_data *in);

#endif /* SCTP_CHUNK_DATA_H */
