/* SPDX-License-Identifier: BSD-3-Clause */
/* PAD chunk, RFC 4820 §3: see chunk_pad.h. */
#include "sctp/chunk_pad.h"

enum sctp_parse_err
sctp_pad_parse(const struct sctp_chunk *c, struct sctp_pad *out)
{
	if (c->length < SCTP_CHUNK_HDR_LEN)
		return SCTP_PERR_CHUNK_LEN_SHORT;
	out->flags = c->flags;
	out->data = c->value;
	out->len = sctp_chunk_value_len(c);
	return SCTP_PERR_OK;
}

void
sctp_pad_build(struct sctp_writer *w, const struct sctp_pad *in)
{
	size_t off = sctp_chunk_build_begin(w, SCTP_CHUNK_PAD, in->flags);

	if (in->data != NULL) {
		sctp_writer_bytes(w, in->data, in->len);
	} else {
		uint8_t *p = sctp_writer_take(w, in->len);
		if (p != NULL)
			memset(p, 0, in->len);
	}
	sctp_chunk_build_end(w, off);
}
