/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ASCONF and ASCONF-ACK, RFC 5061 §4.1.1 and §4.1.2 (wire diagrams in
 * sctp/chunk_asconf.h): serial number, the sender's address (ASCONF only),
 * then parameters.
 */
#include <string.h>

#include "sctp/chunk_asconf.h"

enum sctp_parse_err
sctp_asconf_parse(const struct sctp_chunk *c, struct sctp_asconf *out)
{
	struct sctp_reader r = sctp_reader_make(c->value, sctp_chunk_value_len(c));
	uint32_t n;

	out->type = c->type;
	out->flags = c->flags;
	out->serial = sctp_reader_u32(&r);
	if (!sctp_reader_ok(&r))
		return SCTP_PERR_CHUNK_LEN_FIXED;
	memset(&out->addr, 0, sizeof(out->addr));
	out->params_len = (uint16_t)sctp_reader_left(&r);
	out->params = sctp_reader_take(&r, out->params_len);
	if (c->type == SCTP_CHUNK_ASCONF) {
		struct sctp_tlv_iter it;
		struct sctp_tlv t;
		enum sctp_parse_err err;

		if (out->params_len < SCTP_PARAM_HDR_LEN)
			return SCTP_PERR_CHUNK_LEN_FIXED;
		sctp_tlv_iter_init(&it, SCTP_TLV_PARAM, out->params, out->params_len);
		if (!sctp_tlv_iter_next(&it, &t))
			return it.err;
		err = sctp_param_addr_parse(&t, &out->addr);
		if (err != SCTP_PERR_OK)
			return err;
		/* IPv4 / IPv6 parameters are 8 / 20 bytes long: never padded. */
		out->params += t.length;
		out->params_len = (uint16_t)(out->params_len - t.length);
	}
	return sctp_param_walk_check(SCTP_TLV_PARAM, out->params, out->params_len, &n);
}

size_t
sctp_asconf_build_begin(struct sctp_writer *w, const struct sctp_asconf *in)
{
	size_t off = sctp_chunk_build_begin(w, in->type, in->flags);

	sctp_writer_u32(w, in->serial);
	if (in->type == SCTP_CHUNK_ASCONF)
		sctp_param_addr_build(w, &in->addr);
	return off;
}

void
sctp_asconf_build_end(struct sctp_writer *w, size_t chunk_off)
{
	sctp_chunk_build_end(w, chunk_off);
}

void
sctp_asconf_build(struct sctp_writer *w, const struct sctp_asconf *in)
{
	size_t off = sctp_asconf_build_begin(w, in);

	sctp_writer_bytes(w, in->params, in->params_len);
	sctp_asconf_build_end(w, off);
}
