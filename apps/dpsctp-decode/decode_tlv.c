/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Parameters (RFC 9260 §3.2.1 and extensions) and error causes
 * (RFC 9260 §3.3.10 and extensions) as dpsctp-decode shows them: each TLV an
 * object with its name, code and length, then what its codec (sctp/param.h,
 * sctp/cause.h) parsed out of it. TLVs that carry TLVs (Unrecognized
 * Parameter, the ASCONF causes, Error Cause Indication, ...) nest, up to
 * TLV_MAX_DEPTH levels.
 */
#include "apps/dpsctp-decode/decode.h"

#include "sctp/cause.h"
#include "sctp/chunk.h"
#include "sctp/param.h"

/* Deeper than any real packet nests; keeps the sink's stack bounded. */
#define TLV_MAX_DEPTH 4u

static const char *
verdict(enum sctp_parse_err err)
{
	return err == SCTP_PERR_OK ? NULL : sctp_parse_err_name(err);
}

static void
u16_list(const struct decode_sink *s, const char *key, const struct sctp_param_u16_list *l)
{
	decode_list_begin(s, key);
	for (uint16_t i = 0; i < l->count; i++)
		decode_num(s, NULL, sctp_param_u16_list_at(l, i));
	decode_list_end(s);
}

static void
u8_list(const struct decode_sink *s, const char *key, const uint8_t *p, uint16_t n)
{
	decode_list_begin(s, key);
	for (uint16_t i = 0; i < n; i++)
		decode_num(s, NULL, p[i]);
	decode_list_end(s);
}

static void
addr(const struct decode_sink *s, const char *key, const struct sctp_param_addr *a)
{
	char text[48];

	decode_addr_text(text, sizeof(text), a->addr, sctp_param_addr_len(a));
	decode_str(s, key, text);
}

/* Opaque text from the peer (host names, abort reasons), without trailing NULs. */
static void
text(const struct decode_sink *s, const char *key, const uint8_t *p, uint16_t n)
{
	while (n > 0 && p[n - 1] == 0)
		n--;
	decode_bytes(s, key, p, n);
}

static const char *
param_fields(const struct decode_sink *s, const struct sctp_tlv *t, unsigned depth)
{
	enum sctp_parse_err err = SCTP_PERR_OK;

	switch (t->type) {
	case SCTP_PARAM_HEARTBEAT_INFO:
		decode_num(s, "info_len", sctp_tlv_value_len(t));
		break;
	case SCTP_PARAM_IPV4_ADDR:
	case SCTP_PARAM_IPV6_ADDR: {
		struct sctp_param_addr a;
		err = sctp_param_addr_parse(t, &a);
		if (err == SCTP_PERR_OK)
			addr(s, "addr", &a);
		break;
	}
	case SCTP_PARAM_STATE_COOKIE: {
		struct sctp_param_state_cookie c;
		err = sctp_param_state_cookie_parse(t, &c);
		if (err == SCTP_PERR_OK)
			decode_num(s, "cookie_len", c.len);
		break;
	}
	case SCTP_PARAM_UNRECOGNIZED: {
		struct sctp_param_unrecognized u;
		err = sctp_param_unrecognized_parse(t, &u);
		if (err == SCTP_PERR_OK)
			return decode_tlv_list(s, "params", SCTP_TLV_PARAM, u.params, u.len,
					       depth + 1);
		break;
	}
	case SCTP_PARAM_COOKIE_PRESERVATIVE: {
		struct sctp_param_cookie_preservative c;
		err = sctp_param_cookie_preservative_parse(t, &c);
		if (err == SCTP_PERR_OK)
			decode_num(s, "increment_ms", c.increment_ms);
		break;
	}
	case SCTP_PARAM_HOST_NAME_ADDR: {
		struct sctp_param_host_name h;
		err = sctp_param_host_name_parse(t, &h);
		if (err == SCTP_PERR_OK)
			text(s, "host_name", h.name, h.len);
		break;
	}
	case SCTP_PARAM_SUPPORTED_ADDR_TYPES: {
		struct sctp_param_supported_addr_types a;
		err = sctp_param_supported_addr_types_parse(t, &a);
		if (err == SCTP_PERR_OK)
			u16_list(s, "addr_types", &a.types);
		break;
	}
	case SCTP_PARAM_OUT_SSN_RESET_REQ: {
		struct sctp_param_out_reset_req r;
		err = sctp_param_out_reset_req_parse(t, &r);
		if (err == SCTP_PERR_OK) {
			decode_num(s, "req_seq", r.req_seq);
			decode_num(s, "resp_seq", r.resp_seq);
			decode_num(s, "last_tsn", r.last_tsn);
			u16_list(s, "streams", &r.streams);
		}
		break;
	}
	case SCTP_PARAM_IN_SSN_RESET_REQ: {
		struct sctp_param_in_reset_req r;
		err = sctp_param_in_reset_req_parse(t, &r);
		if (err == SCTP_PERR_OK) {
			decode_num(s, "req_seq", r.req_seq);
			u16_list(s, "streams", &r.streams);
		}
		break;
	}
	case SCTP_PARAM_SSN_TSN_RESET_REQ: {
		struct sctp_param_tsn_reset_req r;
		err = sctp_param_tsn_reset_req_parse(t, &r);
		if (err == SCTP_PERR_OK)
			decode_num(s, "req_seq", r.req_seq);
		break;
	}
	case SCTP_PARAM_RECONFIG_RESPONSE: {
		struct sctp_param_reconfig_resp r;
		err = sctp_param_reconfig_resp_parse(t, &r);
		if (err == SCTP_PERR_OK) {
			decode_num(s, "resp_seq", r.resp_seq);
			decode_num(s, "result", r.result);
			if (r.has_tsns) {
				decode_num(s, "sender_next_tsn", r.sender_next_tsn);
				decode_num(s, "receiver_next_tsn", r.receiver_next_tsn);
			}
		}
		break;
	}
	case SCTP_PARAM_ADD_OUT_STREAMS_REQ:
	case SCTP_PARAM_ADD_IN_STREAMS_REQ: {
		struct sctp_param_add_streams_req r;
		err = sctp_param_add_streams_req_parse(t, &r);
		if (err == SCTP_PERR_OK) {
			decode_num(s, "req_seq", r.req_seq);
			decode_num(s, "n_streams", r.n_streams);
		}
		break;
	}
	case SCTP_PARAM_ECN_CAPABLE:
		err = sctp_param_ecn_capable_parse(t);
		break;
	case SCTP_PARAM_FORWARD_TSN_SUPPORTED:
		err = sctp_param_forward_tsn_supported_parse(t);
		break;
	case SCTP_PARAM_ZERO_CHECKSUM_ACCEPTABLE: {
		struct sctp_param_zero_checksum z;
		err = sctp_param_zero_checksum_parse(t, &z);
		if (err == SCTP_PERR_OK)
			decode_num(s, "edmid", z.edmid);
		break;
	}
	case SCTP_PARAM_RANDOM: {
		struct sctp_param_random r;
		err = sctp_param_random_parse(t, &r);
		if (err == SCTP_PERR_OK)
			decode_num(s, "random_len", r.len);
		break;
	}
	case SCTP_PARAM_CHUNK_LIST: {
		struct sctp_param_chunk_list l;
		err = sctp_param_chunk_list_parse(t, &l);
		if (err == SCTP_PERR_OK)
			u8_list(s, "chunk_types", l.types, l.count);
		break;
	}
	case SCTP_PARAM_HMAC_ALGO: {
		struct sctp_param_hmac_algo h;
		err = sctp_param_hmac_algo_parse(t, &h);
		if (err == SCTP_PERR_OK)
			u16_list(s, "hmac_ids", &h.ids);
		break;
	}
	case SCTP_PARAM_PADDING: {
		struct sctp_param_padding p;
		err = sctp_param_padding_parse(t, &p);
		if (err == SCTP_PERR_OK)
			decode_num(s, "pad_len", p.len);
		break;
	}
	case SCTP_PARAM_SUPPORTED_EXTENSIONS: {
		struct sctp_param_supported_ext e;
		err = sctp_param_supported_ext_parse(t, &e);
		if (err == SCTP_PERR_OK)
			u8_list(s, "chunk_types", e.types, e.count);
		break;
	}
	case SCTP_PARAM_ADD_IP:
	case SCTP_PARAM_DEL_IP:
	case SCTP_PARAM_SET_PRIMARY: {
		struct sctp_param_asconf_addr a;
		err = sctp_param_asconf_addr_parse(t, &a);
		if (err == SCTP_PERR_OK) {
			decode_num(s, "correlation_id", a.correlation_id);
			addr(s, "addr", &a.addr);
		}
		break;
	}
	case SCTP_PARAM_ERROR_CAUSE_IND: {
		struct sctp_param_error_cause_ind e;
		err = sctp_param_error_cause_ind_parse(t, &e);
		if (err == SCTP_PERR_OK) {
			decode_num(s, "correlation_id", e.correlation_id);
			return decode_tlv_list(s, "causes", SCTP_TLV_CAUSE, e.causes, e.causes_len,
					       depth + 1);
		}
		break;
	}
	case SCTP_PARAM_SUCCESS_IND: {
		struct sctp_param_success_ind e;
		err = sctp_param_success_ind_parse(t, &e);
		if (err == SCTP_PERR_OK)
			decode_num(s, "correlation_id", e.correlation_id);
		break;
	}
	case SCTP_PARAM_ADAPTATION_LAYER_IND: {
		struct sctp_param_adaptation a;
		err = sctp_param_adaptation_parse(t, &a);
		if (err == SCTP_PERR_OK)
			decode_num(s, "indication", a.indication);
		break;
	}
	default:
		break;
	}
	return verdict(err);
}

static const char *
cause_fields(const struct decode_sink *s, const struct sctp_tlv *t, unsigned depth)
{
	enum sctp_parse_err err = SCTP_PERR_OK;

	switch (t->type) {
	case SCTP_CAUSE_INVALID_STREAM: {
		struct sctp_cause_invalid_stream c;
		err = sctp_cause_invalid_stream_parse(t, &c);
		if (err == SCTP_PERR_OK)
			decode_num(s, "sid", c.sid);
		break;
	}
	case SCTP_CAUSE_MISSING_MANDATORY_PARAM: {
		struct sctp_cause_missing_param c;
		err = sctp_cause_missing_param_parse(t, &c);
		if (err == SCTP_PERR_OK)
			u16_list(s, "param_types", &c.types);
		break;
	}
	case SCTP_CAUSE_STALE_COOKIE: {
		struct sctp_cause_stale_cookie c;
		err = sctp_cause_stale_cookie_parse(t, &c);
		if (err == SCTP_PERR_OK)
			decode_num(s, "staleness_us", c.staleness_us);
		break;
	}
	case SCTP_CAUSE_OUT_OF_RESOURCE:
		err = sctp_cause_out_of_resource_parse(t);
		break;
	case SCTP_CAUSE_UNRESOLVABLE_ADDR: {
		struct sctp_cause_unresolvable_addr c;
		err = sctp_cause_unresolvable_addr_parse(t, &c);
		if (err == SCTP_PERR_OK)
			return decode_tlv_list(s, "params", SCTP_TLV_PARAM, c.addr, c.addr_len,
					       depth + 1);
		break;
	}
	case SCTP_CAUSE_UNRECOGNIZED_CHUNK: {
		struct sctp_cause_unrecognized_chunk c;
		err = sctp_cause_unrecognized_chunk_parse(t, &c);
		if (err == SCTP_PERR_OK) {
			uint8_t type = sctp_cause_unrecognized_chunk_type(&c);
			decode_str(s, "chunk_type", sctp_chunk_type_name(type));
			decode_num(s, "chunk_type_id", type);
			decode_num(s, "chunk_length", sctp_load_be16(c.chunk + 2));
		}
		break;
	}
	case SCTP_CAUSE_INVALID_MANDATORY_PARAM:
		err = sctp_cause_invalid_mandatory_param_parse(t);
		break;
	case SCTP_CAUSE_UNRECOGNIZED_PARAMS: {
		struct sctp_cause_unrecognized_params c;
		err = sctp_cause_unrecognized_params_parse(t, &c);
		if (err == SCTP_PERR_OK)
			return decode_tlv_list(s, "params", SCTP_TLV_PARAM, c.params, c.len,
					       depth + 1);
		break;
	}
	case SCTP_CAUSE_NO_USER_DATA: {
		struct sctp_cause_no_user_data c;
		err = sctp_cause_no_user_data_parse(t, &c);
		if (err == SCTP_PERR_OK)
			decode_num(s, "tsn", c.tsn);
		break;
	}
	case SCTP_CAUSE_COOKIE_WHILE_SHUTTING_DOWN:
		err = sctp_cause_cookie_while_shutting_down_parse(t);
		break;
	case SCTP_CAUSE_RESTART_WITH_NEW_ADDRS: {
		struct sctp_cause_restart_new_addrs c;
		err = sctp_cause_restart_new_addrs_parse(t, &c);
		if (err == SCTP_PERR_OK)
			return decode_tlv_list(s, "params", SCTP_TLV_PARAM, c.addrs, c.len,
					       depth + 1);
		break;
	}
	case SCTP_CAUSE_USER_INITIATED_ABORT: {
		struct sctp_cause_user_abort c;
		err = sctp_cause_user_abort_parse(t, &c);
		if (err == SCTP_PERR_OK)
			text(s, "reason", c.reason, c.len);
		break;
	}
	case SCTP_CAUSE_PROTOCOL_VIOLATION: {
		struct sctp_cause_protocol_violation c;
		err = sctp_cause_protocol_violation_parse(t, &c);
		if (err == SCTP_PERR_OK)
			text(s, "info", c.info, c.len);
		break;
	}
	case SCTP_CAUSE_DELETE_LAST_ADDR:
	case SCTP_CAUSE_RESOURCE_SHORTAGE:
	case SCTP_CAUSE_DELETE_SOURCE_ADDR:
	case SCTP_CAUSE_ILLEGAL_ASCONF_ACK:
	case SCTP_CAUSE_REQUEST_REFUSED: {
		struct sctp_cause_asconf c;
		err = sctp_cause_asconf_parse(t, &c);
		if (err == SCTP_PERR_OK)
			return decode_tlv_list(s, "params", SCTP_TLV_PARAM, c.params, c.len,
					       depth + 1);
		break;
	}
	case SCTP_CAUSE_UNSUPPORTED_HMAC_ID: {
		struct sctp_cause_unsupported_hmac c;
		err = sctp_cause_unsupported_hmac_parse(t, &c);
		if (err == SCTP_PERR_OK)
			decode_num(s, "hmac_id", c.hmac_id);
		break;
	}
	default:
		break;
	}
	return verdict(err);
}

const char *
decode_tlv_list(const struct decode_sink *s, const char *key, enum sctp_tlv_kind kind,
		const uint8_t *buf, size_t len, unsigned depth)
{
	struct sctp_tlv_iter it;
	struct sctp_tlv t;
	const char *first = NULL;

	if (depth >= TLV_MAX_DEPTH)
		return NULL; /* shown by its length only */
	decode_list_begin(s, key);
	sctp_tlv_iter_init(&it, kind, buf, len);
	while (sctp_tlv_iter_next(&it, &t)) {
		const char *err;

		decode_obj_begin(s);
		if (kind == SCTP_TLV_PARAM) {
			decode_str(s, "type", sctp_param_type_name(t.type));
			decode_hex(s, "type_id", t.type, 4);
			decode_num(s, "length", t.length);
			err = param_fields(s, &t, depth);
		} else {
			decode_str(s, "cause", sctp_cause_code_name(t.type));
			decode_num(s, "code", t.type);
			decode_num(s, "length", t.length);
			err = cause_fields(s, &t, depth);
		}
		if (err != NULL)
			decode_str(s, "error", err);
		decode_obj_end(s);
		if (first == NULL)
			first = err;
	}
	decode_list_end(s);
	if (first == NULL && it.err != SCTP_PERR_OK)
		first = sctp_parse_err_name(it.err);
	return first;
}
