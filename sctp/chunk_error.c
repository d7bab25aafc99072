/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ERROR, RFC 9260 §3.3.10 (wire diagram in sctp/chunk_error.h): error
 * causes after the chunk header.
 */
#include "sctp/chunk_error.h"

enum sctp_parse_err
sctp_error_parse(const struct sctp_chunk *c, struct sctp_error *out)
{
	out->flags = c->flags;
	out->causes = c->value;
	out->causes_len = sctp_chunk_value_len(c);
	return SCTP_PERR_OK;
}

size_t
sctp_error_build_begin(struct sctp_writer *w, const struct sctp_error *in)
{
	return sctp_chunk_build_begin(w, SCTP_CHUNK_ERROR, in->flags);
}

void
sctp_error_build_end(struct sctp_writer *w, size_t chunk_off)
{
	sctp_chunk_build_end(w, chunk_off);
}

void
sctp_error_build(struct sctp_writer *w, const struct sctp_error *in)
{
	size_t off = sctp_error_build_begin(w, in);

	sctp_writer_bytes(w, in->causes, in->causes_len);
	sctp_error_build_end(w, off);
}
