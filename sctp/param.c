/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Parameters of RFC 9260 §3.2.1, §3.3.2.1, §3.3.3.1 and of the extensions
 * listed in sctp/param.h (RFC 3758, 4820, 4895, 5061, 6525, 9653), and the
 * INIT / INIT ACK parameter summary.
 */
#include <string.h>

#include "sctp/param.h"

enum sctp_parse_err
sctp_param_walk_check(enum sctp_tlv_kind kind, const uint8_t *buf, size_t len, uint32_t *count)
{
	struct sctp_tlv_iter it;
	struct sctp_tlv t;
	uint32_t n = 0;

	sctp_tlv_iter_init(&it, kind, buf, len);
	while (sctp_tlv_iter_next(&it, &t))
		n++;
	*count = n;
	return it.err;
}

void
sctp_param_u16_list_write(struct sctp_writer *w, const struct sctp_param_u16_list *l)
{
	if (l->be) {
		sctp_writer_bytes(w, l->be, 2u * l->count);
		return;
	}
	if (l->count != 0 && l->host == NULL) {
		w->err = true; /* a count with no values: the caller's bug, not the wire's */
		return;
	}
	for (uint16_t i = 0; i < l->count; i++)
		sctp_writer_u16(w, l->host[i]);
}

const char *
sctp_param_type_name(uint16_t type)
{
	switch (type) {
	case SCTP_PARAM_HEARTBEAT_INFO:
		return "HEARTBEAT_INFO";
	case SCTP_PARAM_IPV4_ADDR:
		return "IPV4_ADDR";
	case SCTP_PARAM_IPV6_ADDR:
		return "IPV6_ADDR";
	case SCTP_PARAM_STATE_COOKIE:
		return "STATE_COOKIE";
	case SCTP_PARAM_UNRECOGNIZED:
		return "UNRECOGNIZED_PARAM";
	case SCTP_PARAM_COOKIE_PRESERVATIVE:
		return "COOKIE_PRESERVATIVE";
	case SCTP_PARAM_HOST_NAME_ADDR:
		return "HOST_NAME_ADDR";
	case SCTP_PARAM_SUPPORTED_ADDR_TYPES:
		return "SUPPORTED_ADDR_TYPES";
	case SCTP_PARAM_OUT_SSN_RESET_REQ:
		return "OUT_SSN_RESET_REQ";
	case SCTP_PARAM_IN_SSN_RESET_REQ:
		return "IN_SSN_RESET_REQ";
	case SCTP_PARAM_SSN_TSN_RESET_REQ:
		return "SSN_TSN_RESET_REQ";
	case SCTP_PARAM_RECONFIG_RESPONSE:
		return "RECONFIG_RESPONSE";
	case SCTP_PARAM_ADD_OUT_STREAMS_REQ:
		return "ADD_OUT_STREAMS_REQ";
	case SCTP_PARAM_ADD_IN_STREAMS_REQ:
		return "ADD_IN_STREAMS_REQ";
	case SCTP_PARAM_ECN_CAPABLE:
		return "ECN_CAPABLE";
	case SCTP_PARAM_ZERO_CHECKSUM_ACCEPTABLE:
		return "ZERO_CHECKSUM_ACCEPTABLE";
	case SCTP_PARAM_RANDOM:
		return "RANDOM";
	case SCTP_PARAM_CHUNK_LIST:
		return "CHUNK_LIST";
	case SCTP_PARAM_HMAC_ALGO:
		return "HMAC_ALGO";
	case SCTP_PARAM_PADDING:
		return "PADDING";
	case SCTP_PARAM_SUPPORTED_EXTENSIONS:
		return "SUPPORTED_EXTENSIONS";
	case SCTP_PARAM_FORWARD_TSN_SUPPORTED:
		return "FORWARD_TSN_SUPPORTED";
	case SCTP_PARAM_ADD_IP:
		return "ADD_IP";
	case SCTP_PARAM_DEL_IP:
		return "DEL_IP";
	case SCTP_PARAM_ERROR_CAUSE_IND:
		return "ERROR_CAUSE_IND";
	case SCTP_PARAM_SET_PRIMARY:
		return "SET_PRIMARY";
	case SCTP_PARAM_SUCCESS_IND:
		return "SUCCESS_IND";
	case SCTP_PARAM_ADAPTATION_LAYER_IND:
		return "ADAPTATION_LAYER_IND";
	}
	return "UNKNOWN";
}

/* Length checks shared by the fixed-size and list-shaped parameters. */
static inline enum sctp_parse_err
value_len_is(const struct sctp_tlv *t, uint16_t n)
{
	return sctp_tlv_value_len(t) == n ? SCTP_PERR_OK : SCTP_PERR_PARAM_LEN_INVALID;
}

static inline enum sctp_parse_err
value_len_at_least(const struct sctp_tlv *t, uint16_t n)
{
	return sctp_tlv_value_len(t) >= n ? SCTP_PERR_OK : SCTP_PERR_PARAM_LEN_INVALID;
}

/* A value that is one 32-bit field. */
static enum sctp_parse_err
parse_u32(const struct sctp_tlv *t, uint32_t *v)
{
	if (value_len_is(t, 4) != SCTP_PERR_OK)
		return SCTP_PERR_PARAM_LEN_INVALID;
	*v = sctp_load_be32(t->value);
	return SCTP_PERR_OK;
}

static void
build_u32(struct sctp_writer *w, uint16_t type, uint32_t v)
{
	size_t off = sctp_tlv_build_begin(w, type);

	sctp_writer_u32(w, v);
	sctp_tlv_build_end(w, off);
}

/* A value that is a list of n >= min 16-bit entries. */
static enum sctp_parse_err
parse_u16_list(const struct sctp_tlv *t, uint16_t min, struct sctp_param_u16_list *l)
{
	uint16_t n = sctp_tlv_value_len(t);

	if ((n & 1u) != 0 || n / 2u < min)
		return SCTP_PERR_PARAM_LEN_INVALID;
	l->be = t->value;
	l->host = NULL;
	l->count = (uint16_t)(n / 2u);
	return SCTP_PERR_OK;
}

static void
build_u16_list(struct sctp_writer *w, uint16_t type, const struct sctp_param_u16_list *l)
{
	size_t off = sctp_tlv_build_begin(w, type);

	sctp_param_u16_list_write(w, l);
	sctp_tlv_build_end(w, off);
}

/* A value that is opaque bytes, at least min of them. */
static enum sctp_parse_err
parse_bytes(const struct sctp_tlv *t, uint16_t min, const uint8_t **p, uint16_t *n)
{
	if (value_len_at_least(t, min) != SCTP_PERR_OK)
		return SCTP_PERR_PARAM_LEN_INVALID;
	*p = t->value;
	*n = sctp_tlv_value_len(t);
	return SCTP_PERR_OK;
}

/* A parameter with no value (length exactly 4). */
static enum sctp_parse_err
parse_empty(const struct sctp_tlv *t)
{
	return value_len_is(t, 0);
}

static void
build_empty(struct sctp_writer *w, uint16_t type)
{
	sctp_tlv_build_end(w, sctp_tlv_build_begin(w, type));
}

enum sctp_parse_err
sctp_param_addr_parse(const struct sctp_tlv *t, struct sctp_param_addr *out)
{
	uint16_t n;

	if (t->type == SCTP_PARAM_IPV4_ADDR)
		n = 4;
	else if (t->type == SCTP_PARAM_IPV6_ADDR)
		n = 16;
	else
		return SCTP_PERR_PARAM_ADDR_TYPE;
	if (sctp_tlv_value_len(t) != n)
		return SCTP_PERR_PARAM_LEN_INVALID;
	out->type = t->type;
	memset(out->addr, 0, sizeof(out->addr));
	memcpy(out->addr, t->value, n);
	return SCTP_PERR_OK;
}

void
sctp_param_addr_build(struct sctp_writer *w, const struct sctp_param_addr *in)
{
	if (in->type != SCTP_PARAM_IPV4_ADDR && in->type != SCTP_PARAM_IPV6_ADDR) {
		w->err = true;
		return;
	}
	sctp_tlv_build(w, in->type, in->addr, sctp_param_addr_len(in));
}

enum sctp_parse_err
sctp_param_state_cookie_parse(const struct sctp_tlv *t, struct sctp_param_state_cookie *out)
{
	return parse_bytes(t, 1, &out->cookie, &out->len);
}

void
sctp_param_state_cookie_build(struct sctp_writer *w, const struct sctp_param_state_cookie *in)
{
	sctp_tlv_build(w, SCTP_PARAM_STATE_COOKIE, in->cookie, in->len);
}

enum sctp_parse_err
sctp_param_unrecognized_parse(const struct sctp_tlv *t, struct sctp_param_unrecognized *out)
{
	uint32_t n;
	enum sctp_parse_err err =
		sctp_param_walk_check(SCTP_TLV_PARAM, t->value, sctp_tlv_value_len(t), &n);

	if (err != SCTP_PERR_OK)
		return err;
	if (n == 0)
		return SCTP_PERR_PARAM_LEN_INVALID;
	out->params = t->value;
	out->len = sctp_tlv_value_len(t);
	return SCTP_PERR_OK;
}

void
sctp_param_unrecognized_build(struct sctp_writer *w, const struct sctp_param_unrecognized *in)
{
	sctp_tlv_build(w, SCTP_PARAM_UNRECOGNIZED, in->params, in->len);
}

enum sctp_parse_err
sctp_param_cookie_preservative_parse(const struct sctp_tlv *t,
				     struct sctp_param_cookie_preservative *out)
{
	return parse_u32(t, &out->increment_ms);
}

void
sctp_param_cookie_preservative_build(struct sctp_writer *w,
				     const struct sctp_param_cookie_preservative *in)
{
	build_u32(w, SCTP_PARAM_COOKIE_PRESERVATIVE, in->increment_ms);
}

enum sctp_parse_err
sctp_param_host_name_parse(const struct sctp_tlv *t, struct sctp_param_host_name *out)
{
	return parse_bytes(t, 1, &out->name, &out->len);
}

void
sctp_param_host_name_build(struct sctp_writer *w, const struct sctp_param_host_name *in)
{
	sctp_tlv_build(w, SCTP_PARAM_HOST_NAME_ADDR, in->name, in->len);
}

enum sctp_parse_err
sctp_param_supported_addr_types_parse(const struct sctp_tlv *t,
				      struct sctp_param_supported_addr_types *out)
{
	return parse_u16_list(t, 1, &out->types);
}

void
sctp_param_supported_addr_types_build(struct sctp_writer *w,
				      const struct sctp_param_supported_addr_types *in)
{
	build_u16_list(w, SCTP_PARAM_SUPPORTED_ADDR_TYPES, &in->types);
}

enum sctp_parse_err
sctp_param_ecn_capable_parse(const struct sctp_tlv *t)
{
	return parse_empty(t);
}

void
sctp_param_ecn_capable_build(struct sctp_writer *w)
{
	build_empty(w, SCTP_PARAM_ECN_CAPABLE);
}

enum sctp_parse_err
sctp_param_forward_tsn_supported_parse(const struct sctp_tlv *t)
{
	return parse_empty(t);
}

void
sctp_param_forward_tsn_supported_build(struct sctp_writer *w)
{
	build_empty(w, SCTP_PARAM_FORWARD_TSN_SUPPORTED);
}

enum sctp_parse_err
sctp_param_zero_checksum_parse(const struct sctp_tlv *t, struct sctp_param_zero_checksum *out)
{
	return parse_u32(t, &out->edmid);
}

void
sctp_param_zero_checksum_build(struct sctp_writer *w, const struct sctp_param_zero_checksum *in)
{
	build_u32(w, SCTP_PARAM_ZERO_CHECKSUM_ACCEPTABLE, in->edmid);
}

enum sctp_parse_err
sctp_param_random_parse(const struct sctp_tlv *t, struct sctp_param_random *out)
{
	return parse_bytes(t, 1, &out->random, &out->len);
}

void
sctp_param_random_build(struct sctp_writer *w, const struct sctp_param_random *in)
{
	sctp_tlv_build(w, SCTP_PARAM_RANDOM, in->random, in->len);
}

enum sctp_parse_err
sctp_param_chunk_list_parse(const struct sctp_tlv *t, struct sctp_param_chunk_list *out)
{
	return parse_bytes(t, 0, &out->types, &out->count);
}

void
sctp_param_chunk_list_build(struct sctp_writer *w, const struct sctp_param_chunk_list *in)
{
	sctp_tlv_build(w, SCTP_PARAM_CHUNK_LIST, in->types, in->count);
}

enum sctp_parse_err
sctp_param_hmac_algo_parse(const struct sctp_tlv *t, struct sctp_param_hmac_algo *out)
{
	return parse_u16_list(t, 1, &out->ids);
}

void
sctp_param_hmac_algo_build(struct sctp_writer *w, const struct sctp_param_hmac_algo *in)
{
	build_u16_list(w, SCTP_PARAM_HMAC_ALGO, &in->ids);
}

enum sctp_parse_err
sctp_param_padding_parse(const struct sctp_tlv *t, struct sctp_param_padding *out)
{
	return parse_bytes(t, 0, &out->data, &out->len);
}

void
sctp_param_padding_build(struct sctp_writer *w, const struct sctp_param_padding *in)
{
	size_t off = sctp_tlv_build_begin(w, SCTP_PARAM_PADDING);

	if (in->data) {
		sctp_writer_bytes(w, in->data, in->len);
	} else {
		uint8_t *p = sctp_writer_take(w, in->len);
		if (p && in->len)
			memset(p, 0, in->len);
	}
	sctp_tlv_build_end(w, off);
}

enum sctp_parse_err
sctp_param_supported_ext_parse(const struct sctp_tlv *t, struct sctp_param_supported_ext *out)
{
	return parse_bytes(t, 0, &out->types, &out->count);
}

void
sctp_param_supported_ext_build(struct sctp_writer *w, const struct sctp_param_supported_ext *in)
{
	sctp_tlv_build(w, SCTP_PARAM_SUPPORTED_EXTENSIONS, in->types, in->count);
}

enum sctp_parse_err
sctp_param_adaptation_parse(const struct sctp_tlv *t, struct sctp_param_adaptation *out)
{
	return parse_u32(t, &out->indication);
}

void
sctp_param_adaptation_build(struct sctp_writer *w, const struct sctp_param_adaptation *in)
{
	build_u32(w, SCTP_PARAM_ADAPTATION_LAYER_IND, in->indication);
}

/*
 * An address parameter that must fill exactly n bytes at p (IPv4 and IPv6
 * parameters are multiples of 4 long, so no padding can follow it).
 */
static enum sctp_parse_err
addr_exact(const uint8_t *p, size_t n, struct sctp_param_addr *out)
{
	struct sctp_reader r = sctp_reader_make(p, n);
	struct sctp_tlv inner;

	inner.type = sctp_reader_u16(&r);
	inner.length = sctp_reader_u16(&r);
	inner.offset = 0;
	if (!sctp_reader_ok(&r) || inner.length != n)
		return SCTP_PERR_PARAM_LEN_INVALID;
	inner.value = sctp_reader_take(&r, n - SCTP_PARAM_HDR_LEN);
	return sctp_param_addr_parse(&inner, out);
}

enum sctp_parse_err
sctp_param_asconf_addr_parse(const struct sctp_tlv *t, struct sctp_param_asconf_addr *out)
{
	if (value_len_at_least(t, 4 + SCTP_PARAM_HDR_LEN) != SCTP_PERR_OK)
		return SCTP_PERR_PARAM_LEN_INVALID;
	out->type = t->type;
	out->correlation_id = sctp_load_be32(t->value);
	return addr_exact(t->value + 4, sctp_tlv_value_len(t) - 4u, &out->addr);
}

void
sctp_param_asconf_addr_build(struct sctp_writer *w, const struct sctp_param_asconf_addr *in)
{
	size_t off = sctp_tlv_build_begin(w, in->type);

	sctp_writer_u32(w, in->correlation_id);
	sctp_param_addr_build(w, &in->addr);
	sctp_tlv_build_end(w, off);
}

enum sctp_parse_err
sctp_param_error_cause_ind_parse(const struct sctp_tlv *t, struct sctp_param_error_cause_ind *out)
{
	uint32_t n;
	enum sctp_parse_err err;

	if (value_len_at_least(t, 4) != SCTP_PERR_OK)
		return SCTP_PERR_PARAM_LEN_INVALID;
	out->correlation_id = sctp_load_be32(t->value);
	out->causes = t->value + 4;
	out->causes_len = (uint16_t)(sctp_tlv_value_len(t) - 4u);
	err = sctp_param_walk_check(SCTP_TLV_CAUSE, out->causes, out->causes_len, &n);
	if (err != SCTP_PERR_OK)
		return err;
	return n == 0 ? SCTP_PERR_PARAM_LEN_INVALID : SCTP_PERR_OK;
}

void
sctp_param_error_cause_ind_build(struct sctp_writer *w, const struct sctp_param_error_cause_ind *in)
{
	size_t off = sctp_tlv_build_begin(w, SCTP_PARAM_ERROR_CAUSE_IND);

	sctp_writer_u32(w, in->correlation_id);
	sctp_writer_bytes(w, in->causes, in->causes_len);
	sctp_tlv_build_end(w, off);
}

enum sctp_parse_err
sctp_param_success_ind_parse(const struct sctp_tlv *t, struct sctp_param_success_ind *out)
{
	return parse_u32(t, &out->correlation_id);
}

void
sctp_param_success_ind_build(struct sctp_writer *w, const struct sctp_param_success_ind *in)
{
	build_u32(w, SCTP_PARAM_SUCCESS_IND, in->correlation_id);
}

/* A stream-number list after `fixed` bytes of 32-bit fields. */
static enum sctp_parse_err
stream_list(const struct sctp_tlv *t, uint16_t fixed, struct sctp_param_u16_list *l)
{
	uint16_t n = sctp_tlv_value_len(t);

	if (n < fixed || ((n - fixed) & 1u) != 0)
		return SCTP_PERR_PARAM_LEN_INVALID;
	l->be = t->value + fixed;
	l->host = NULL;
	l->count = (uint16_t)((n - fixed) / 2u);
	return SCTP_PERR_OK;
}

enum sctp_parse_err
sctp_param_out_reset_req_parse(const struct sctp_tlv *t, struct sctp_param_out_reset_req *out)
{
	enum sctp_parse_err err = stream_list(t, 12, &out->streams);

	if (err != SCTP_PERR_OK)
		return err;
	out->req_seq = sctp_load_be32(t->value);
	out->resp_seq = sctp_load_be32(t->value + 4);
	out->last_tsn = sctp_load_be32(t->value + 8);
	return SCTP_PERR_OK;
}

void
sctp_param_out_reset_req_build(struct sctp_writer *w, const struct sctp_param_out_reset_req *in)
{
	size_t off = sctp_tlv_build_begin(w, SCTP_PARAM_OUT_SSN_RESET_REQ);

	sctp_writer_u32(w, in->req_seq);
	sctp_writer_u32(w, in->resp_seq);
	sctp_writer_u32(w, in->last_tsn);
	sctp_param_u16_list_write(w, &in->streams);
	sctp_tlv_build_end(w, off);
}

enum sctp_parse_err
sctp_param_in_reset_req_parse(const struct sctp_tlv *t, struct sctp_param_in_reset_req *out)
{
	enum sctp_parse_err err = stream_list(t, 4, &out->streams);

	if (err != SCTP_PERR_OK)
		return err;
	out->req_seq = sctp_load_be32(t->value);
	return SCTP_PERR_OK;
}

void
sctp_param_in_reset_req_build(struct sctp_writer *w, const struct sctp_param_in_reset_req *in)
{
	size_t off = sctp_tlv_build_begin(w, SCTP_PARAM_IN_SSN_RESET_REQ);

	sctp_writer_u32(w, in->req_seq);
	sctp_param_u16_list_write(w, &in->streams);
	sctp_tlv_build_end(w, off);
}

enum sctp_parse_err
sctp_param_tsn_reset_req_parse(const struct sctp_tlv *t, struct sctp_param_tsn_reset_req *out)
{
	return parse_u32(t, &out->req_seq);
}

void
sctp_param_tsn_reset_req_build(struct sctp_writer *w, const struct sctp_param_tsn_reset_req *in)
{
	build_u32(w, SCTP_PARAM_SSN_TSN_RESET_REQ, in->req_seq);
}

enum sctp_parse_err
sctp_param_reconfig_resp_parse(const struct sctp_tlv *t, struct sctp_param_reconfig_resp *out)
{
	uint16_t n = sctp_tlv_value_len(t);

	if (n != 8 && n != 16)
		return SCTP_PERR_PARAM_LEN_INVALID;
	out->resp_seq = sctp_load_be32(t->value);
	out->result = sctp_load_be32(t->value + 4);
	out->has_tsns = n == 16;
	out->sender_next_tsn = out->has_tsns ? sctp_load_be32(t->value + 8) : 0;
	out->receiver_next_tsn = out->has_tsns ? sctp_load_be32(t->value + 12) : 0;
	return SCTP_PERR_OK;
}

void
sctp_param_reconfig_resp_build(struct sctp_writer *w, const struct sctp_param_reconfig_resp *in)
{
	size_t off = sctp_tlv_build_begin(w, SCTP_PARAM_RECONFIG_RESPONSE);

	sctp_writer_u32(w, in->resp_seq);
	sctp_writer_u32(w, in->result);
	if (in->has_tsns) {
		sctp_writer_u32(w, in->sender_next_tsn);
		sctp_writer_u32(w, in->receiver_next_tsn);
	}
	sctp_tlv_build_end(w, off);
}

enum sctp_parse_err
sctp_param_add_streams_req_parse(const struct sctp_tlv *t, struct sctp_param_add_streams_req *out)
{
	if (value_len_is(t, 8) != SCTP_PERR_OK)
		return SCTP_PERR_PARAM_LEN_INVALID;
	out->type = t->type;
	out->req_seq = sctp_load_be32(t->value);
	out->n_streams = sctp_load_be16(t->value + 4);
	out->reserved = sctp_load_be16(t->value + 6);
	return SCTP_PERR_OK;
}

void
sctp_param_add_streams_req_build(struct sctp_writer *w, const struct sctp_param_add_streams_req *in)
{
	size_t off = sctp_tlv_build_begin(w, in->type);

	sctp_writer_u32(w, in->req_seq);
	sctp_writer_u16(w, in->n_streams);
	sctp_writer_u16(w, in->reserved);
	sctp_tlv_build_end(w, off);
}

/* RFC 9260 §3.2.1: an unrecognized parameter, by the top two bits of its type. */
static void
init_params_unknown(struct sctp_init_params *out, const struct sctp_tlv *t)
{
	enum sctp_unknown_action act = SCTP_UNKNOWN_ACTION_OF_PARAM(t->type);

	out->n_unknown++;
	if (act == SCTP_UNKNOWN_STOP_REPORT || act == SCTP_UNKNOWN_SKIP_REPORT) {
		if (out->n_report < SCTP_INIT_MAX_REPORTS)
			out->report[out->n_report++] = *t;
		else
			out->n_report_dropped++;
	}
	if (act == SCTP_UNKNOWN_STOP || act == SCTP_UNKNOWN_STOP_REPORT) {
		out->stopped = true;
		out->stop_offset = t->offset;
	}
}

static enum sctp_parse_err
init_params_one(struct sctp_init_params *out, const struct sctp_tlv *t)
{
	enum sctp_parse_err err;

	switch (t->type) {
	case SCTP_PARAM_IPV4_ADDR:
	case SCTP_PARAM_IPV6_ADDR: {
		struct sctp_param_addr a;
		err = sctp_param_addr_parse(t, &a);
		if (err != SCTP_PERR_OK)
			return err;
		if (out->n_addrs < SCTP_INIT_MAX_ADDRS)
			out->addrs[out->n_addrs++] = a;
		else
			out->n_addrs_dropped++;
		return SCTP_PERR_OK;
	}
	case SCTP_PARAM_STATE_COOKIE: {
		struct sctp_param_state_cookie c;
		err = sctp_param_state_cookie_parse(t, &c);
		if (err != SCTP_PERR_OK)
			return err;
		out->has_cookie = true;
		out->cookie = c.cookie;
		out->cookie_len = c.len;
		return SCTP_PERR_OK;
	}
	case SCTP_PARAM_UNRECOGNIZED: {
		struct sctp_param_unrecognized u;
		err = sctp_param_unrecognized_parse(t, &u);
		if (err != SCTP_PERR_OK)
			return err;
		if (out->n_peer_unrecognized < SCTP_INIT_MAX_REPORTS)
			out->peer_unrecognized[out->n_peer_unrecognized++] = *t;
		return SCTP_PERR_OK;
	}
	case SCTP_PARAM_COOKIE_PRESERVATIVE: {
		struct sctp_param_cookie_preservative p;
		err = sctp_param_cookie_preservative_parse(t, &p);
		if (err != SCTP_PERR_OK)
			return err;
		out->has_cookie_preservative = true;
		out->cookie_preservative_ms = p.increment_ms;
		return SCTP_PERR_OK;
	}
	case SCTP_PARAM_HOST_NAME_ADDR: {
		struct sctp_param_host_name h;
		err = sctp_param_host_name_parse(t, &h);
		if (err != SCTP_PERR_OK)
			return err;
		if (!out->host_name_seen)
			out->host_name = *t;
		out->host_name_seen = true;
		return SCTP_PERR_OK;
	}
	case SCTP_PARAM_SUPPORTED_ADDR_TYPES: {
		struct sctp_param_supported_addr_types s;
		err = sctp_param_supported_addr_types_parse(t, &s);
		if (err != SCTP_PERR_OK)
			return err;
		out->has_supported_addr_types = true;
		out->supports_ipv4 = out->supports_ipv6 = out->supports_host_name = false;
		for (uint16_t i = 0; i < s.types.count; i++) {
			uint16_t at = sctp_param_u16_list_at(&s.types, i);
			/* Other values name no address type: ignore them. */
			if (at == SCTP_PARAM_IPV4_ADDR)
				out->supports_ipv4 = true;
			else if (at == SCTP_PARAM_IPV6_ADDR)
				out->supports_ipv6 = true;
			else if (at == SCTP_PARAM_HOST_NAME_ADDR)
				out->supports_host_name = true;
		}
		return SCTP_PERR_OK;
	}
	case SCTP_PARAM_ECN_CAPABLE:
		err = sctp_param_ecn_capable_parse(t);
		out->ecn = err == SCTP_PERR_OK;
		return err;
	case SCTP_PARAM_FORWARD_TSN_SUPPORTED:
		err = sctp_param_forward_tsn_supported_parse(t);
		out->forward_tsn = err == SCTP_PERR_OK;
		return err;
	case SCTP_PARAM_ZERO_CHECKSUM_ACCEPTABLE: {
		struct sctp_param_zero_checksum z;
		err = sctp_param_zero_checksum_parse(t, &z);
		if (err != SCTP_PERR_OK)
			return err;
		out->zero_checksum = true;
		out->zero_checksum_edmid = z.edmid;
		return SCTP_PERR_OK;
	}
	case SCTP_PARAM_RANDOM: {
		struct sctp_param_random r;
		err = sctp_param_random_parse(t, &r);
		if (err != SCTP_PERR_OK)
			return err;
		out->has_random = true;
		out->random = r.random;
		out->random_len = r.len;
		return SCTP_PERR_OK;
	}
	case SCTP_PARAM_CHUNK_LIST: {
		struct sctp_param_chunk_list c;
		err = sctp_param_chunk_list_parse(t, &c);
		if (err != SCTP_PERR_OK)
			return err;
		out->has_chunk_list = true;
		out->auth_chunks = c.types;
		out->n_auth_chunks = c.count;
		return SCTP_PERR_OK;
	}
	case SCTP_PARAM_HMAC_ALGO: {
		struct sctp_param_hmac_algo h;
		err = sctp_param_hmac_algo_parse(t, &h);
		if (err != SCTP_PERR_OK)
			return err;
		out->has_hmac_algo = true;
		out->hmac_ids = h.ids;
		return SCTP_PERR_OK;
	}
	case SCTP_PARAM_PADDING:
		/* RFC 4820 §4: only there to make the chunk bigger. */
		return SCTP_PERR_OK;
	case SCTP_PARAM_SUPPORTED_EXTENSIONS: {
		struct sctp_param_supported_ext e;
		err = sctp_param_supported_ext_parse(t, &e);
		if (err != SCTP_PERR_OK)
			return err;
		out->has_supported_ext = true;
		out->ext_chunks = e.types;
		out->n_ext_chunks = e.count;
		return SCTP_PERR_OK;
	}
	case SCTP_PARAM_ADAPTATION_LAYER_IND: {
		struct sctp_param_adaptation a;
		err = sctp_param_adaptation_parse(t, &a);
		if (err != SCTP_PERR_OK)
			return err;
		out->has_adaptation = true;
		out->adaptation_ind = a.indication;
		return SCTP_PERR_OK;
	}
	default:
		init_params_unknown(out, t);
		return SCTP_PERR_OK;
	}
}

enum sctp_parse_err
sctp_init_params_decode(const uint8_t *params, size_t len, struct sctp_init_params *out)
{
	struct sctp_tlv_iter it;
	struct sctp_tlv t;
	uint32_t next = 0; /* where the walker looks for the next TLV */

	memset(out, 0, sizeof(*out));
	sctp_tlv_iter_init(&it, SCTP_TLV_PARAM, params, len);
	while (sctp_tlv_iter_next(&it, &t)) {
		enum sctp_parse_err err = init_params_one(out, &t);

		if (err != SCTP_PERR_OK) {
			out->err_type = t.type;
			out->err_offset = t.offset;
			return err;
		}
		if (out->stopped)
			return SCTP_PERR_OK;
		next = it.off;
	}
	if (it.err != SCTP_PERR_OK) {
		/* The header of the bad TLV, as far as it is there. */
		out->err_offset = next;
		out->err_type = len - next >= 2 ? sctp_load_be16(params + next) : 0;
	}
	return it.err;
}
