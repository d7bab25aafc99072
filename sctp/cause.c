/* SPDX-License-Identifier: BSD-3-Clause */
/* Error causes: RFC 9260 §3.3.10.1-13, RFC 5061 §4.3, RFC 4895 §4.1. */
#include "sctp/cause.h"

const char *
sctp_cause_code_name(uint16_t code)
{
	switch (code) {
	case SCTP_CAUSE_INVALID_STREAM:
		return "INVALID_STREAM";
	case SCTP_CAUSE_MISSING_MANDATORY_PARAM:
		return "MISSING_MANDATORY_PARAM";
	case SCTP_CAUSE_STALE_COOKIE:
		return "STALE_COOKIE";
	case SCTP_CAUSE_OUT_OF_RESOURCE:
		return "OUT_OF_RESOURCE";
	case SCTP_CAUSE_UNRESOLVABLE_ADDR:
		return "UNRESOLVABLE_ADDR";
	case SCTP_CAUSE_UNRECOGNIZED_CHUNK:
		return "UNRECOGNIZED_CHUNK";
	case SCTP_CAUSE_INVALID_MANDATORY_PARAM:
		return "INVALID_MANDATORY_PARAM";
	case SCTP_CAUSE_UNRECOGNIZED_PARAMS:
		return "UNRECOGNIZED_PARAMS";
	case SCTP_CAUSE_NO_USER_DATA:
		return "NO_USER_DATA";
	case SCTP_CAUSE_COOKIE_WHILE_SHUTTING_DOWN:
		return "COOKIE_WHILE_SHUTTING_DOWN";
	case SCTP_CAUSE_RESTART_WITH_NEW_ADDRS:
		return "RESTART_WITH_NEW_ADDRS";
	case SCTP_CAUSE_USER_INITIATED_ABORT:
		return "USER_INITIATED_ABORT";
	case SCTP_CAUSE_PROTOCOL_VIOLATION:
		return "PROTOCOL_VIOLATION";
	case SCTP_CAUSE_DELETE_LAST_ADDR:
		return "DELETE_LAST_ADDR";
	case SCTP_CAUSE_RESOURCE_SHORTAGE:
		return "RESOURCE_SHORTAGE";
	case SCTP_CAUSE_DELETE_SOURCE_ADDR:
		return "DELETE_SOURCE_ADDR";
	case SCTP_CAUSE_ILLEGAL_ASCONF_ACK:
		return "ILLEGAL_ASCONF_ACK";
	case SCTP_CAUSE_REQUEST_REFUSED:
		return "REQUEST_REFUSED";
	case SCTP_CAUSE_UNSUPPORTED_HMAC_ID:
		return "UNSUPPORTED_HMAC_ID";
	}
	return "UNKNOWN";
}

static inline uint16_t
info_len(const struct sctp_tlv *t)
{
	return (uint16_t)(t->length - SCTP_CAUSE_HDR_LEN);
}

/* A cause with no information: length exactly 4. */
static enum sctp_parse_err
parse_empty(const struct sctp_tlv *t)
{
	return info_len(t) == 0 ? SCTP_PERR_OK : SCTP_PERR_CAUSE_LEN_INVALID;
}

static void
build_empty(struct sctp_writer *w, uint16_t code)
{
	sctp_tlv_build_end(w, sctp_tlv_build_begin(w, code));
}

/* A cause whose information is one 32-bit field. */
static enum sctp_parse_err
parse_u32(const struct sctp_tlv *t, uint32_t *v)
{
	if (info_len(t) != 4)
		return SCTP_PERR_CAUSE_LEN_INVALID;
	*v = sctp_load_be32(t->value);
	return SCTP_PERR_OK;
}

static void
build_u32(struct sctp_writer *w, uint16_t code, uint32_t v)
{
	size_t off = sctp_tlv_build_begin(w, code);

	sctp_writer_u32(w, v);
	sctp_tlv_build_end(w, off);
}

/*
 * Information that is a list of parameter TLVs: well framed (walker errors
 * are the embedded parameters' own, SCTP_PERR_PARAM_*), at least min of them.
 */
static enum sctp_parse_err
parse_params(const struct sctp_tlv *t, uint32_t min, const uint8_t **p, uint16_t *n)
{
	uint32_t count;
	enum sctp_parse_err err =
		sctp_param_walk_check(SCTP_TLV_PARAM, t->value, info_len(t), &count);

	if (err != SCTP_PERR_OK)
		return err;
	if (count < min)
		return SCTP_PERR_CAUSE_LEN_INVALID;
	*p = t->value;
	*n = info_len(t);
	return SCTP_PERR_OK;
}

enum sctp_parse_err
sctp_cause_invalid_stream_parse(const struct sctp_tlv *t, struct sctp_cause_invalid_stream *out)
{
	if (info_len(t) != 4)
		return SCTP_PERR_CAUSE_LEN_INVALID;
	out->sid = sctp_load_be16(t->value);
	out->reserved = sctp_load_be16(t->value + 2);
	return SCTP_PERR_OK;
}

void
sctp_cause_invalid_stream_build(struct sctp_writer *w, const struct sctp_cause_invalid_stream *in)
{
	size_t off = sctp_tlv_build_begin(w, SCTP_CAUSE_INVALID_STREAM);

	sctp_writer_u16(w, in->sid);
	sctp_writer_u16(w, in->reserved);
	sctp_tlv_build_end(w, off);
}

enum sctp_parse_err
sctp_cause_missing_param_parse(const struct sctp_tlv *t, struct sctp_cause_missing_param *out)
{
	uint16_t n = info_len(t);

	if (n < 4)
		return SCTP_PERR_CAUSE_LEN_INVALID;
	uint32_t count = sctp_load_be32(t->value);
	/* Compare in 64 bits: 4 + 2 * count overflows 32 bits for absurd counts. */
	if ((uint64_t)n != 4u + 2u * (uint64_t)count)
		return SCTP_PERR_CAUSE_LEN_INVALID;
	out->types.be = t->value + 4;
	out->types.host = NULL;
	out->types.count = (uint16_t)count;
	return SCTP_PERR_OK;
}

void
sctp_cause_missing_param_build(struct sctp_writer *w, const struct sctp_cause_missing_param *in)
{
	size_t off = sctp_tlv_build_begin(w, SCTP_CAUSE_MISSING_MANDATORY_PARAM);

	sctp_writer_u32(w, in->types.count);
	sctp_param_u16_list_write(w, &in->types);
	sctp_tlv_build_end(w, off);
}

enum sctp_parse_err
sctp_cause_stale_cookie_parse(const struct sctp_tlv *t, struct sctp_cause_stale_cookie *out)
{
	return parse_u32(t, &out->staleness_us);
}

void
sctp_cause_stale_cookie_build(struct sctp_writer *w, const struct sctp_cause_stale_cookie *in)
{
	build_u32(w, SCTP_CAUSE_STALE_COOKIE, in->staleness_us);
}

enum sctp_parse_err
sctp_cause_out_of_resource_parse(const struct sctp_tlv *t)
{
	return parse_empty(t);
}

void
sctp_cause_out_of_resource_build(struct sctp_writer *w)
{
	build_empty(w, SCTP_CAUSE_OUT_OF_RESOURCE);
}

enum sctp_parse_err
sctp_cause_unresolvable_addr_parse(const struct sctp_tlv *t,
				   struct sctp_cause_unresolvable_addr *out)
{
	uint16_t n = info_len(t);
	struct sctp_reader r = sctp_reader_make(t->value, n);

	sctp_reader_skip(&r, 2);
	uint16_t inner = sctp_reader_u16(&r);
	if (!sctp_reader_ok(&r))
		return SCTP_PERR_CAUSE_LEN_INVALID;
	if (inner < SCTP_PARAM_HDR_LEN)
		return SCTP_PERR_PARAM_LEN_SHORT;
	if (inner > n)
		return SCTP_PERR_PARAM_LEN_OVERRUN;
	/* Exactly one TLV, its padding counted or not. */
	if (n > SCTP_PAD4((uint32_t)inner))
		return SCTP_PERR_CAUSE_LEN_INVALID;
	out->addr = t->value;
	out->addr_len = n;
	return SCTP_PERR_OK;
}

void
sctp_cause_unresolvable_addr_build(struct sctp_writer *w,
				   const struct sctp_cause_unresolvable_addr *in)
{
	sctp_tlv_build(w, SCTP_CAUSE_UNRESOLVABLE_ADDR, in->addr, in->addr_len);
}

enum sctp_parse_err
sctp_cause_unrecognized_chunk_parse(const struct sctp_tlv *t,
				    struct sctp_cause_unrecognized_chunk *out)
{
	if (info_len(t) < SCTP_CHUNK_HDR_LEN)
		return SCTP_PERR_CAUSE_LEN_INVALID;
	out->chunk = t->value;
	out->chunk_len = info_len(t);
	return SCTP_PERR_OK;
}

void
sctp_cause_unrecognized_chunk_build(struct sctp_writer *w,
				    const struct sctp_cause_unrecognized_chunk *in)
{
	sctp_tlv_build(w, SCTP_CAUSE_UNRECOGNIZED_CHUNK, in->chunk, in->chunk_len);
}

enum sctp_parse_err
sctp_cause_invalid_mandatory_param_parse(const struct sctp_tlv *t)
{
	return parse_empty(t);
}

void
sctp_cause_invalid_mandatory_param_build(struct sctp_writer *w)
{
	build_empty(w, SCTP_CAUSE_INVALID_MANDATORY_PARAM);
}

enum sctp_parse_err
sctp_cause_unrecognized_params_parse(const struct sctp_tlv *t,
				     struct sctp_cause_unrecognized_params *out)
{
	return parse_params(t, 1, &out->params, &out->len);
}

void
sctp_cause_unrecognized_params_build(struct sctp_writer *w,
				     const struct sctp_cause_unrecognized_params *in)
{
	sctp_tlv_build(w, SCTP_CAUSE_UNRECOGNIZED_PARAMS, in->params, in->len);
}

enum sctp_parse_err
sctp_cause_no_user_data_parse(const struct sctp_tlv *t, struct sctp_cause_no_user_data *out)
{
	return parse_u32(t, &out->tsn);
}

void
sctp_cause_no_user_data_build(struct sctp_writer *w, const struct sctp_cause_no_user_data *in)
{
	build_u32(w, SCTP_CAUSE_NO_USER_DATA, in->tsn);
}

enum sctp_parse_err
sctp_cause_cookie_while_shutting_down_parse(const struct sctp_tlv *t)
{
	return parse_empty(t);
}

void
sctp_cause_cookie_while_shutting_down_build(struct sctp_writer *w)
{
	build_empty(w, SCTP_CAUSE_COOKIE_WHILE_SHUTTING_DOWN);
}

enum sctp_parse_err
sctp_cause_restart_new_addrs_parse(const struct sctp_tlv *t,
				   struct sctp_cause_restart_new_addrs *out)
{
	return parse_params(t, 1, &out->addrs, &out->len);
}

void
sctp_cause_restart_new_addrs_build(struct sctp_writer *w,
				   const struct sctp_cause_restart_new_addrs *in)
{
	sctp_tlv_build(w, SCTP_CAUSE_RESTART_WITH_NEW_ADDRS, in->addrs, in->len);
}

enum sctp_parse_err
sctp_cause_user_abort_parse(const struct sctp_tlv *t, struct sctp_cause_user_abort *out)
{
	out->reason = t->value;
	out->len = info_len(t);
	return SCTP_PERR_OK;
}

void
sctp_cause_user_abort_build(struct sctp_writer *w, const struct sctp_cause_user_abort *in)
{
	sctp_tlv_build(w, SCTP_CAUSE_USER_INITIATED_ABORT, in->reason, in->len);
}

enum sctp_parse_err
sctp_cause_protocol_violation_parse(const struct sctp_tlv *t,
				    struct sctp_cause_protocol_violation *out)
{
	out->info = t->value;
	out->len = info_len(t);
	return SCTP_PERR_OK;
}

void
sctp_cause_protocol_violation_build(struct sctp_writer *w,
				    const struct sctp_cause_protocol_violation *in)
{
	sctp_tlv_build(w, SCTP_CAUSE_PROTOCOL_VIOLATION, in->info, in->len);
}

enum sctp_parse_err
sctp_cause_asconf_parse(const struct sctp_tlv *t, struct sctp_cause_asconf *out)
{
	out->code = t->type;
	return parse_params(t, 0, &out->params, &out->len);
}

void
sctp_cause_asconf_build(struct sctp_writer *w, const struct sctp_cause_asconf *in)
{
	sctp_tlv_build(w, in->code, in->params, in->len);
}

enum sctp_parse_err
sctp_cause_unsupported_hmac_parse(const struct sctp_tlv *t, struct sctp_cause_unsupported_hmac *out)
{
	if (info_len(t) != 2 && info_len(t) != 4)
		return SCTP_PERR_CAUSE_LEN_INVALID;
	out->hmac_id = sctp_load_be16(t->value);
	return SCTP_PERR_OK;
}

void
sctp_cause_unsupported_hmac_build(struct sctp_writer *w,
				  const struct sctp_cause_unsupported_hmac *in)
{
	size_t off = sctp_tlv_build_begin(w, SCTP_CAUSE_UNSUPPORTED_HMAC_ID);

	sctp_writer_u16(w, in->hmac_id);
	sctp_tlv_build_end(w, off);
}
