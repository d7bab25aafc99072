/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RE-CONFIG, RFC 6525 §3.1 (wire diagram in sctp/chunk_reconfig.h): one
 * or two re-configuration parameters.
 */
#include "sctp/chunk_reconfig.h"

enum sctp_parse_err
sctp_reconfig_parse(const struct sctp_chunk *c, struct sctp_reconfig *out)
{
	struct sctp_tlv_iter it;
	struct sctp_tlv t;
	unsigned int n = 0;

	out->flags = c->flags;
	out->params = c->value;
	out->params_len = sctp_chunk_value_len(c);
	sctp_tlv_iter_init(&it, SCTP_TLV_PARAM, out->params, out->params_len);
	while (sctp_tlv_iter_next(&it, &t)) {
		if (n == 2)
			return SCTP_PERR_RECONFIG_PARAM_COUNT;
		out->param[n++] = t;
	}
	if (it.err != SCTP_PERR_OK)
		return it.err;
	if (n == 0)
		return SCTP_PERR_RECONFIG_PARAM_COUNT;
	out->n_params = (uint8_t)n;
	return SCTP_PERR_OK;
}

size_t
sctp_reconfig_build_begin(struct sctp_writer *w, const struct sctp_reconfig *in)
{
	return sctp_chunk_build_begin(w, SCTP_CHUNK_RECONFIG, in->flags);
}

void
sctp_reconfig_build_end(struct sctp_writer *w, size_t chunk_off)
{
	sctp_chunk_build_end(w, chunk_off);
}

void
sctp_reconfig_build(struct sctp_writer *w, const struct sctp_reconfig *in)
{
	size_t off = sctp_reconfig_build_begin(w, in);

	sctp_writer_bytes(w, in->params, in->params_len);
	sctp_reconfig_build_end(w, off);
}
