/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ABORT, RFC 9260 §3.3.7 (wire diagram in sctp/chunk_abort.h): flags with
 * the T bit, then zero or more error causes.
 */
#include "sctp/chunk_abort.h"

enum sctp_parse_err
sctp_abort_parse(const struct sctp_chunk *c, struct sctp_abort *out)
{
	out->flags = c->flags;
	out->causes = c->value;
	out->causes_len = sctp_chunk_value_len(c);
	return SCTP_PERR_OK;
}

size_t
sctp_abort_build_begin(struct sctp_writer *w, const struct sctp_abort *in)
{
	return sctp_chunk_build_begin(w, SCTP_CHUNK_ABORT, in->flags);
}

void
sctp_abort_build_end(struct sctp_writer *w, size_t chunk_off)
{
	sctp_chunk_build_end(w, chunk_off);
}

void
sctp_abort_build(struct sctp_writer *w, const struct sctp_abort *in)
{
	size_t off = sctp_abort_build_begin(w, in);

	sctp_writer_bytes(w, in->causes, in->causes_len);
	sctp_abort_build_end(w, off);
}
