/* SPDX-License-Identifier: BSD-3-Clause */
/* AUTH chunk, RFC 4895 §4.1: see chunk_auth.h. */
#include "sctp/chunk_auth.h"

enum sctp_parse_err
sctp_auth_parse(const struct sctp_chunk *c, struct sctp_auth *out)
{
	if (c->length < SCTP_CHUNK_HDR_LEN + SCTP_AUTH_FIXED_LEN)
		return SCTP_PERR_CHUNK_LEN_FIXED;
	out->flags = c->flags;
	out->key_id = sctp_load_be16(c->value);
	out->hmac_id = sctp_load_be16(c->value + 2);
	out->hmac = c->value + SCTP_AUTH_FIXED_LEN;
	out->hmac_len = (uint16_t)(c->length - SCTP_CHUNK_HDR_LEN - SCTP_AUTH_FIXED_LEN);
	return SCTP_PERR_OK;
}

void
sctp_auth_build(struct sctp_writer *w, const struct sctp_auth *in)
{
	size_t off = sctp_chunk_build_begin(w, SCTP_CHUNK_AUTH, in->flags);

	sctp_writer_u16(w, in->key_id);
	sctp_writer_u16(w, in->hmac_id);
	if (in->hmac != NULL) {
		sctp_writer_bytes(w, in->hmac, in->hmac_len);
	} else {
		uint8_t *p = sctp_writer_take(w, in->hmac_len);
		if (p != NULL)
			memset(p, 0, in->hmac_len);
	}
	sctp_chunk_build_end(w, off);
}
