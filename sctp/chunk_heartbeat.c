/* SPDX-License-Identifier: BSD-3-Clause */
/* HEARTBEAT and HEARTBEAT ACK, RFC 9260 §3.3.5 and §3.3.6: see chunk_heartbeat.h. */
#include "sctp/chunk_heartbeat.h"

enum sctp_parse_err
sctp_heartbeat_parse(const struct sctp_chunk *c, struct sctp_heartbeat *out)
{
	if (c->length < SCTP_CHUNK_HDR_LEN + SCTP_HEARTBEAT_FIXED_LEN)
		return SCTP_PERR_CHUNK_LEN_FIXED;

	uint16_t value_len = sctp_chunk_value_len(c);
	struct sctp_reader r = sctp_reader_make(c->value, value_len);
	uint16_t ptype = sctp_reader_u16(&r);
	uint16_t plen = sctp_reader_u16(&r);

	if (ptype != SCTP_PARAM_HEARTBEAT_INFO)
		return SCTP_PERR_HEARTBEAT_INFO;
	if (plen < SCTP_PARAM_HDR_LEN)
		return SCTP_PERR_PARAM_LEN_SHORT;
	if (plen > value_len)
		return SCTP_PERR_PARAM_LEN_OVERRUN;
	if (value_len > SCTP_PAD4((uint32_t)plen))
		return SCTP_PERR_HEARTBEAT_INFO;
	out->type = c->type;
	out->flags = c->flags;
	out->info_len = (uint16_t)(plen - SCTP_PARAM_HDR_LEN);
	out->info = sctp_reader_take(&r, out->info_len);
	return SCTP_PERR_OK;
}

void
sctp_heartbeat_build(struct sctp_writer *w, const struct sctp_heartbeat *in)
{
	size_t off = sctp_chunk_build_begin(w, in->type, in->flags);

	sctp_tlv_build(w, SCTP_PARAM_HEARTBEAT_INFO, in->info, in->info_len);
	sctp_chunk_build_end(w, off);
}
