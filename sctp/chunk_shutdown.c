/* SPDX-License-Identifier: BSD-3-Clause */
/* SHUTDOWN, SHUTDOWN ACK, SHUTDOWN COMPLETE: RFC 9260 §3.3.8, §3.3.9, §3.3.13. */
#include "sctp/chunk_shutdown.h"

enum sctp_parse_err
sctp_shutdown_parse(const struct sctp_chunk *c, struct sctp_shutdown *out)
{
	bool has_tsn = c->type == SCTP_CHUNK_SHUTDOWN;
	uint32_t want = SCTP_CHUNK_HDR_LEN + (has_tsn ? SCTP_SHUTDOWN_FIXED_LEN : 0);

	if (c->length != want)
		return SCTP_PERR_CHUNK_LEN_EXACT;
	out->type = c->type;
	out->flags = c->flags;
	out->cum_tsn = has_tsn ? sctp_load_be32(c->value) : 0;
	return SCTP_PERR_OK;
}

void
sctp_shutdown_build(struct sctp_writer *w, const struct sctp_shutdown *in)
{
	size_t off = sctp_chunk_build_begin(w, in->type, in->flags);

	if (in->type == SCTP_CHUNK_SHUTDOWN)
		sctp_writer_u32(w, in->cum_tsn);
	sctp_chunk_build_end(w, off);
}
