/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The facts dpsctp-decode shows for each chunk type: the type's codec
 * (sctp/chunk_<x>.h) parses the chunk, and its fields are handed to the sink
 * by name. Field names are the JSON keys; keep them stable (the tshark
 * comparison in tests/compare_tshark.py reads them).
 */
#include "apps/dpsctp-decode/decode.h"

#include "sctp/chunk.h"

/* Report a codec verdict on the current object; NULL when it is fine. */
static const char *
chunk_verdict(enum sctp_parse_err err)
{
	return err == SCTP_PERR_OK ? NULL : sctp_parse_err_name(err);
}

static const char *
chunk_data(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_data d;
	enum sctp_parse_err err = sctp_data_parse(c, &d);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	decode_num(s, "tsn", d.tsn);
	decode_num(s, "sid", d.sid);
	decode_num(s, "ssn", d.ssn);
	decode_num(s, "ppid", d.ppid);
	decode_num(s, "payload_len", d.payload_len);
	return NULL;
}

/* RFC 8260 §2.1: the last word is the PPID on a first fragment, the FSN otherwise. */
static const char *
chunk_idata(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_idata d;
	enum sctp_parse_err err = sctp_idata_parse(c, &d);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	decode_num(s, "tsn", d.tsn);
	decode_num(s, "sid", d.sid);
	decode_num(s, "mid", d.mid);
	if (d.flags & SCTP_DATA_FLAG_B)
		decode_num(s, "ppid", sctp_idata_ppid(&d));
	else
		decode_num(s, "fsn", sctp_idata_fsn(&d));
	decode_num(s, "payload_len", d.payload_len);
	return NULL;
}

static const char *
chunk_init(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_init in;
	enum sctp_parse_err err = sctp_init_parse(c, &in);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	decode_hex(s, "initiate_tag", in.init_tag, 8);
	decode_num(s, "a_rwnd", in.a_rwnd);
	decode_num(s, "out_streams", in.os);
	decode_num(s, "in_streams", in.mis);
	decode_num(s, "initial_tsn", in.initial_tsn);
	return decode_tlv_list(s, "params", SCTP_TLV_PARAM, in.params, in.params_len, 0);
}

static void
gap_list(const struct decode_sink *s, const char *key, const struct sctp_sack *k, bool nr)
{
	uint16_t n = nr ? k->n_nr_gaps : k->n_gaps;

	decode_list_begin(s, key);
	for (uint16_t i = 0; i < n; i++) {
		struct sctp_sack_gap g =
			nr ? sctp_sack_nr_gap_block(k, i) : sctp_sack_gap_block(k, i);
		decode_obj_begin(s);
		decode_num(s, "start", g.start);
		decode_num(s, "end", g.end);
		decode_obj_end(s);
	}
	decode_list_end(s);
}

static const char *
chunk_sack(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_sack k;
	enum sctp_parse_err err = sctp_sack_parse(c, &k);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	decode_num(s, "cum_tsn", k.cum_tsn);
	decode_num(s, "a_rwnd", k.a_rwnd);
	gap_list(s, "gaps", &k, false);
	if (k.type == SCTP_CHUNK_NR_SACK)
		gap_list(s, "nr_gaps", &k, true);
	decode_list_begin(s, "dups");
	for (uint16_t i = 0; i < k.n_dups; i++)
		decode_num(s, NULL, sctp_sack_dup_tsn(&k, i));
	decode_list_end(s);
	return NULL;
}

static const char *
chunk_heartbeat(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_heartbeat h;
	enum sctp_parse_err err = sctp_heartbeat_parse(c, &h);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	decode_num(s, "info_len", h.info_len);
	return NULL;
}

static const char *
chunk_abort(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_abort a;
	enum sctp_parse_err err = sctp_abort_parse(c, &a);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	return decode_tlv_list(s, "causes", SCTP_TLV_CAUSE, a.causes, a.causes_len, 0);
}

static const char *
chunk_error(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_error e;
	enum sctp_parse_err err = sctp_error_parse(c, &e);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	return decode_tlv_list(s, "causes", SCTP_TLV_CAUSE, e.causes, e.causes_len, 0);
}

/* SHUTDOWN, SHUTDOWN ACK, SHUTDOWN COMPLETE. */
static const char *
chunk_shutdown(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_shutdown sh;
	enum sctp_parse_err err = sctp_shutdown_parse(c, &sh);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	if (c->type == SCTP_CHUNK_SHUTDOWN)
		decode_num(s, "cum_tsn", sh.cum_tsn);
	return NULL;
}

/* COOKIE ECHO, COOKIE ACK. */
static const char *
chunk_cookie(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_cookie ck;
	enum sctp_parse_err err = sctp_cookie_parse(c, &ck);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	if (c->type == SCTP_CHUNK_COOKIE_ECHO)
		decode_num(s, "cookie_len", ck.cookie_len);
	return NULL;
}

/* ECNE, CWR. */
static const char *
chunk_ecn(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_ecn e;
	enum sctp_parse_err err = sctp_ecn_parse(c, &e);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	decode_num(s, "lowest_tsn", e.lowest_tsn);
	if (e.has_pkt_count)
		decode_num(s, "pkts_since_cwr", e.pkts_since_cwr);
	return NULL;
}

/* FORWARD TSN (RFC 3758 §3.2), I-FORWARD TSN (RFC 8260 §2.3.1). */
static const char *
chunk_forward_tsn(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_forward_tsn f;
	enum sctp_parse_err err = sctp_forward_tsn_parse(c, &f);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	decode_num(s, "new_cum_tsn", f.new_cum_tsn);
	decode_list_begin(s, "streams");
	for (uint16_t i = 0; i < f.n_entries; i++) {
		decode_obj_begin(s);
		if (f.type == SCTP_CHUNK_I_FORWARD_TSN) {
			struct sctp_forward_tsn_ientry e = sctp_forward_tsn_ientry(&f, i);
			decode_num(s, "sid", e.sid);
			decode_num(s, "unordered", (e.flags & SCTP_I_FORWARD_TSN_FLAG_U) != 0);
			decode_num(s, "mid", e.mid);
		} else {
			struct sctp_forward_tsn_entry e = sctp_forward_tsn_entry(&f, i);
			decode_num(s, "sid", e.sid);
			decode_num(s, "ssn", e.ssn);
		}
		decode_obj_end(s);
	}
	decode_list_end(s);
	return NULL;
}

static const char *
chunk_auth(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_auth a;
	enum sctp_parse_err err = sctp_auth_parse(c, &a);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	decode_num(s, "key_id", a.key_id);
	decode_num(s, "hmac_id", a.hmac_id);
	decode_num(s, "hmac_len", a.hmac_len);
	return NULL;
}

static const char *
chunk_pad(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_pad p;
	enum sctp_parse_err err = sctp_pad_parse(c, &p);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	decode_num(s, "pad_len", p.len);
	return NULL;
}

static const char *
chunk_reconfig(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_reconfig r;
	enum sctp_parse_err err = sctp_reconfig_parse(c, &r);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	return decode_tlv_list(s, "params", SCTP_TLV_PARAM, r.params, r.params_len, 0);
}

/* ASCONF (with its address parameter) and ASCONF ACK, RFC 5061 §4.1.1-2. */
static const char *
chunk_asconf(const struct decode_sink *s, const struct sctp_chunk *c)
{
	struct sctp_asconf a;
	enum sctp_parse_err err = sctp_asconf_parse(c, &a);

	if (err != SCTP_PERR_OK)
		return chunk_verdict(err);
	decode_num(s, "serial", a.serial);
	if (a.type == SCTP_CHUNK_ASCONF) {
		char text[48];
		decode_addr_text(text, sizeof(text), a.addr.addr, sctp_param_addr_len(&a.addr));
		decode_str(s, "addr", text);
	}
	return decode_tlv_list(s, "params", SCTP_TLV_PARAM, a.params, a.params_len, 0);
}

static const char *const unknown_action_names[] = {
	[SCTP_UNKNOWN_STOP] = "stop",
	[SCTP_UNKNOWN_STOP_REPORT] = "stop_report",
	[SCTP_UNKNOWN_SKIP] = "skip",
	[SCTP_UNKNOWN_SKIP_REPORT] = "skip_report",
};

const char *
decode_chunk(const struct decode_sink *s, const struct sctp_chunk *c)
{
	const char *err = NULL;

	s->chunk_begin(s->ctx, sctp_chunk_type_name(c->type), c->type, c->flags, c->length);
	switch (c->type) {
	case SCTP_CHUNK_DATA:
		err = chunk_data(s, c);
		break;
	case SCTP_CHUNK_I_DATA:
		err = chunk_idata(s, c);
		break;
	case SCTP_CHUNK_INIT:
	case SCTP_CHUNK_INIT_ACK:
		err = chunk_init(s, c);
		break;
	case SCTP_CHUNK_SACK:
	case SCTP_CHUNK_NR_SACK:
		err = chunk_sack(s, c);
		break;
	case SCTP_CHUNK_HEARTBEAT:
	case SCTP_CHUNK_HEARTBEAT_ACK:
		err = chunk_heartbeat(s, c);
		break;
	case SCTP_CHUNK_ABORT:
		err = chunk_abort(s, c);
		break;
	case SCTP_CHUNK_ERROR:
		err = chunk_error(s, c);
		break;
	case SCTP_CHUNK_SHUTDOWN:
	case SCTP_CHUNK_SHUTDOWN_ACK:
	case SCTP_CHUNK_SHUTDOWN_COMPLETE:
		err = chunk_shutdown(s, c);
		break;
	case SCTP_CHUNK_COOKIE_ECHO:
	case SCTP_CHUNK_COOKIE_ACK:
		err = chunk_cookie(s, c);
		break;
	case SCTP_CHUNK_ECNE:
	case SCTP_CHUNK_CWR:
		err = chunk_ecn(s, c);
		break;
	case SCTP_CHUNK_FORWARD_TSN:
	case SCTP_CHUNK_I_FORWARD_TSN:
		err = chunk_forward_tsn(s, c);
		break;
	case SCTP_CHUNK_AUTH:
		err = chunk_auth(s, c);
		break;
	case SCTP_CHUNK_PAD:
		err = chunk_pad(s, c);
		break;
	case SCTP_CHUNK_RECONFIG:
		err = chunk_reconfig(s, c);
		break;
	case SCTP_CHUNK_ASCONF:
	case SCTP_CHUNK_ASCONF_ACK:
		err = chunk_asconf(s, c);
		break;
	default:
		/* RFC 9260 §3.2: what a receiver does with a type it does not know. */
		decode_str(s, "unknown_action",
			   unknown_action_names[SCTP_UNKNOWN_ACTION_OF_CHUNK(c->type)]);
		break;
	}
	if (err != NULL)
		decode_str(s, "error", err);
	s->chunk_end(s->ctx);
	return err;
}
