/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * INIT and INIT ACK, RFC 9260 §3.3.2 and §3.3.3 (wire diagram in
 * sctp/chunk_init.h): tag, a_rwnd, OS, MIS, initial TSN, then parameters.
 */
#include "sctp/chunk_init.h"
#include "sctp/param.h"

enum sctp_parse_err
sctp_init_parse(const struct sctp_chunk *c, struct sctp_init *out)
{
	struct sctp_reader r = sctp_reader_make(c->value, sctp_chunk_value_len(c));
	uint32_t n;

	out->type = c->type;
	out->flags = c->flags;
	out->init_tag = sctp_reader_u32(&r);
	out->a_rwnd = sctp_reader_u32(&r);
	out->os = sctp_reader_u16(&r);
	out->mis = sctp_reader_u16(&r);
	out->initial_tsn = sctp_reader_u32(&r);
	if (!sctp_reader_ok(&r))
		return SCTP_PERR_CHUNK_LEN_FIXED;
	out->params_len = (uint16_t)sctp_reader_left(&r);
	out->params = sctp_reader_take(&r, out->params_len);
	return sctp_param_walk_check(SCTP_TLV_PARAM, out->params, out->params_len, &n);
}

size_t
sctp_init_build_begin(struct sctp_writer *w, const struct sctp_init *in)
{
	size_t off = sctp_chunk_build_begin(w, in->type, in->flags);

	sctp_writer_u32(w, in->init_tag);
	sctp_writer_u32(w, in->a_rwnd);
	sctp_writer_u16(w, in->os);
	sctp_writer_u16(w, in->mis);
	sctp_writer_u32(w, in->initial_tsn);
	return off;
}

void
sctp_init_build_end(struct sctp_writer *w, size_t chunk_off)
{
	sctp_chunk_build_end(w, chunk_off);
}

void
sctp_init_build(struct sctp_writer *w, const struct sctp_init *in)
{
	size_t off = sctp_init_build_begin(w, in);

	sctp_writer_bytes(w, in->params, in->params_len);
	sctp_init_build_end(w, off);
}
