/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * I-DATA chunk, RFC 8260 §2.1.
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 64   |  Res  |I|U|B|E|       Length = Variable       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                              TSN                              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Stream Identifier      |           Reserved            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Message Identifier                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Payload Protocol Identifier / Fragment Sequence Number     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                           User Data                           /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * The fifth word is the PPID in the first fragment (B bit set) and the
 * Fragment Sequence Number in every other one; the first fragment's FSN is
 * implicitly 0 (RFC 8260 §2.1). The codec keeps the raw word; the accessors
 * below interpret it. Like DATA, the parser is inline: I-DATA is as hot.
 */
#ifndef SCTP_CHUNK_IDATA_H
#define SCTP_CHUNK_IDATA_H

#include <stdint.h>

#include "sctp/packet.h"

struct sctp_idata {
	uint8_t flags; /* raw chunk flags: SCTP_DATA_FLAG_{E,B,U,I} and reserved bits */
	uint16_t sid;
	uint16_t reserved; /* kept so that build(parse(x)) == x */
	uint32_t tsn;
	uint32_t mid;
	uint32_t ppid_fsn;	/* PPID if SCTP_DATA_FLAG_B, else FSN */
	const uint8_t *payload; /* user data, payload_len bytes, inside the packet */
	uint16_t payload_len;
};

/*
 * Parse an I-DATA chunk found by the chunk walker. SCTP_PERR_CHUNK_LEN_FIXED
 * below 20 bytes; SCTP_PERR_DATA_NO_USER_DATA for exactly 20.
 */
static inline enum sctp_parse_err
sctp_idata_parse(const struct sctp_chunk *c, struct sctp_idata *out)
{
	const uint8_t *v = c->value;

	if (c->length <= SCTP_CHUNK_HDR_LEN + SCTP_I_DATA_FIXED_LEN) {
		return c->length < SCTP_CHUNK_HDR_LEN + SCTP_I_DATA_FIXED_LEN
			       ? SCTP_PERR_CHUNK_LEN_FIXED
			       : SCTP_PERR_DATA_NO_USER_DATA;
	}
	out->flags = c->flags;
	out->tsn = sctp_load_be32(v);
	out->sid = sctp_load_be16(v + 4);
	out->reserved = sctp_load_be16(v + 6);
	out->mid = sctp_load_be32(v + 8);
	out->ppid_fsn = sctp_load_be32(v + 12);
	out->payload = v + SCTP_I_DATA_FIXED_LEN;
	out->payload_len = (uint16_t)(c->length - (SCTP_CHUNK_HDR_LEN + SCTP_I_DATA_FIXED_LEN));
	return SCTP_PERR_OK;
}

/* PPID of a first fragment; 0 for the others, which do not carry one. */
static inline uint32_t
sctp_idata_ppid(const struct sctp_idata *d)
{
	return (d->flags & SCTP_DATA_FLAG_B) ? d->ppid_fsn : 0;
}

/* Fragment Sequence Number: 0 for a first fragment (RFC 8260 §2.1). */
static inline uint32_t
sctp_idata_fsn(const struct sctp_idata *d)
{
	return (d->flags & SCTP_DATA_FLAG_B) ? 0 : d->ppid_fsn;
}

/* The whole chunk: header, fixed part, in->payload, padding. */
void sctp_idata_build(struct sctp_writer *w, const struct sctp_idata *in);

/*
 * Only the 20 bytes of header and fixed part, with a Length counting
 * in->payload_len bytes of user data sent from elsewhere (see
 * sctp_data_build_header). in->payload is not read.
 */
void sctp_idata_build_header(struct sctp_writer *w, const struct sctp_idata *in);

#endif /* SCTP_CHUNK_IDATA_H */
