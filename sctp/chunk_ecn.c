/* SPDX-License-Identifier: BSD-3-Clause */
/* ECNE and CWR, RFC 9260 Appendix A: see chunk_ecn.h for the 12-byte ECNE. */
#include "sctp/chunk_ecn.h"

enum sctp_parse_err
sctp_ecn_parse(const struct sctp_chunk *c, struct sctp_ecn *out)
{
	bool long_form = c->type == SCTP_CHUNK_ECNE &&
			 c->length == SCTP_CHUNK_HDR_LEN + SCTP_ECNE_LONG_FIXED_LEN;

	if (c->length != SCTP_CHUNK_HDR_LEN + SCTP_ECNE_FIXED_LEN && !long_form)
		return SCTP_PERR_CHUNK_LEN_EXACT;
	out->type = c->type;
	out->flags = c->flags;
	out->has_pkt_count = long_form;
	out->lowest_tsn = sctp_load_be32(c->value);
	out->pkts_since_cwr = long_form ? sctp_load_be32(c->value + 4) : 0;
	return SCTP_PERR_OK;
}

void
sctp_ecn_build(struct sctp_writer *w, const struct sctp_ecn *in)
{
	size_t off = sctp_chunk_build_begin(w, in->type, in->flags);

	sctp_writer_u32(w, in->lowest_tsn);
	if (in->type == SCTP_CHUNK_ECNE && in->has_pkt_count)
		sctp_writer_u32(w, in->pkts_since_cwr);
	sctp_chunk_build_end(w, off);
}
