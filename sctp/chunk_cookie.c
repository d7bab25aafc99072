/* SPDX-License-Identifier: BSD-3-Clause */
/* COOKIE ECHO and COOKIE ACK, RFC 9260 §3.3.11 and §3.3.12: see chunk_cookie.h. */
#include "sctp/chunk_cookie.h"

enum sctp_parse_err
sctp_cookie_parse(const struct sctp_chunk *c, struct sctp_cookie *out)
{
	if (c->type == SCTP_CHUNK_COOKIE_ECHO) {
		if (c->length < SCTP_CHUNK_HDR_LEN)
			return SCTP_PERR_CHUNK_LEN_SHORT;
		out->cookie = c->value;
		out->cookie_len = sctp_chunk_value_len(c);
	} else {
		if (c->length != SCTP_CHUNK_HDR_LEN)
			return SCTP_PERR_CHUNK_LEN_EXACT;
		out->cookie = NULL;
		out->cookie_len = 0;
	}
	out->type = c->type;
	out->flags = c->flags;
	return SCTP_PERR_OK;
}

void
sctp_cookie_build(struct sctp_writer *w, const struct sctp_cookie *in)
{
	size_t off = sctp_chunk_build_begin(w, in->type, in->flags);

	if (in->type == SCTP_CHUNK_COOKIE_ECHO)
		sctp_writer_bytes(w, in->cookie, in->cookie_len);
	sctp_chunk_build_end(w, off);
}
