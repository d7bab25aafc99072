/* SPDX-License-Identifier: BSD-3-Clause */
/* Chunk type names and dispatch to the per-type codecs (RFC 9260 §3.2). */
#include "sctp/chunk.h"

static const char *const chunk_type_names[256] = {
	[SCTP_CHUNK_DATA] = "DATA",
	[SCTP_CHUNK_INIT] = "INIT",
	[SCTP_CHUNK_INIT_ACK] = "INIT_ACK",
	[SCTP_CHUNK_SACK] = "SACK",
	[SCTP_CHUNK_HEARTBEAT] = "HEARTBEAT",
	[SCTP_CHUNK_HEARTBEAT_ACK] = "HEARTBEAT_ACK",
	[SCTP_CHUNK_ABORT] = "ABORT",
	[SCTP_CHUNK_SHUTDOWN] = "SHUTDOWN",
	[SCTP_CHUNK_SHUTDOWN_ACK] = "SHUTDOWN_ACK",
	[SCTP_CHUNK_ERROR] = "ERROR",
	[SCTP_CHUNK_COOKIE_ECHO] = "COOKIE_ECHO",
	[SCTP_CHUNK_COOKIE_ACK] = "COOKIE_ACK",
	[SCTP_CHUNK_ECNE] = "ECNE",
	[SCTP_CHUNK_CWR] = "CWR",
	[SCTP_CHUNK_SHUTDOWN_COMPLETE] = "SHUTDOWN_COMPLETE",
	[SCTP_CHUNK_AUTH] = "AUTH",
	[SCTP_CHUNK_NR_SACK] = "NR_SACK",
	[SCTP_CHUNK_I_DATA] = "I_DATA",
	[SCTP_CHUNK_ASCONF_ACK] = "ASCONF_ACK",
	[SCTP_CHUNK_PKTDROP] = "PKTDROP",
	[SCTP_CHUNK_RECONFIG] = "RE_CONFIG",
	[SCTP_CHUNK_PAD] = "PAD",
	[SCTP_CHUNK_FORWARD_TSN] = "FORWARD_TSN",
	[SCTP_CHUNK_ASCONF] = "ASCONF",
	[SCTP_CHUNK_I_FORWARD_TSN] = "I_FORWARD_TSN",
	/* RFC 9260 §3.2: reserved for IETF-defined chunk extensions. */
	[255] = "IETF_EXTENSION",
};

const char *
sctp_chunk_type_name(uint8_t type)
{
	const char *name = chunk_type_names[type];

	return name != NULL ? name : "UNKNOWN";
}

/* One parsed chunk of any type, for parse-then-build. */
union chunk_any {
	struct sctp_data data;
	struct sctp_init init;
	struct sctp_sack sack;
	struct sctp_heartbeat heartbeat;
	struct sctp_abort abort;
	struct sctp_shutdown shutdown;
	struct sctp_error error;
	struct sctp_cookie cookie;
	struct sctp_ecn ecn;
	struct sctp_auth auth;
	struct sctp_idata idata;
	struct sctp_reconfig reconfig;
	struct sctp_pad pad;
	struct sctp_forward_tsn forward_tsn;
	struct sctp_asconf asconf;
};

/*
 * Parse c into *u. Returns false (with *err SCTP_PERR_OK) for types without
 * a parser, true with the verdict in *err otherwise.
 */
static bool
chunk_parse_any(const struct sctp_chunk *c, union chunk_any *u, enum sctp_parse_err *err)
{
	/*
	 * The walker never yields such a chunk, and the parsers may rely on
	 * that; a hand-made one (fuzzer, tests) is refused here, for every type.
	 */
	if (c->length < SCTP_CHUNK_HDR_LEN) {
		*err = SCTP_PERR_CHUNK_LEN_SHORT;
		return true;
	}
	switch (c->type) {
	case SCTP_CHUNK_DATA:
		*err = sctp_data_parse(c, &u->data);
		return true;
	case SCTP_CHUNK_INIT:
	case SCTP_CHUNK_INIT_ACK:
		*err = sctp_init_parse(c, &u->init);
		return true;
	case SCTP_CHUNK_SACK:
	case SCTP_CHUNK_NR_SACK:
		*err = sctp_sack_parse(c, &u->sack);
		return true;
	case SCTP_CHUNK_HEARTBEAT:
	case SCTP_CHUNK_HEARTBEAT_ACK:
		*err = sctp_heartbeat_parse(c, &u->heartbeat);
		return true;
	case SCTP_CHUNK_ABORT:
		*err = sctp_abort_parse(c, &u->abort);
		return true;
	case SCTP_CHUNK_SHUTDOWN:
	case SCTP_CHUNK_SHUTDOWN_ACK:
	case SCTP_CHUNK_SHUTDOWN_COMPLETE:
		*err = sctp_shutdown_parse(c, &u->shutdown);
		return true;
	case SCTP_CHUNK_ERROR:
		*err = sctp_error_parse(c, &u->error);
		return true;
	case SCTP_CHUNK_COOKIE_ECHO:
	case SCTP_CHUNK_COOKIE_ACK:
		*err = sctp_cookie_parse(c, &u->cookie);
		return true;
	case SCTP_CHUNK_ECNE:
	case SCTP_CHUNK_CWR:
		*err = sctp_ecn_parse(c, &u->ecn);
		return true;
	case SCTP_CHUNK_AUTH:
		*err = sctp_auth_parse(c, &u->auth);
		return true;
	case SCTP_CHUNK_I_DATA:
		*err = sctp_idata_parse(c, &u->idata);
		return true;
	case SCTP_CHUNK_RECONFIG:
		*err = sctp_reconfig_parse(c, &u->reconfig);
		return true;
	case SCTP_CHUNK_PAD:
		*err = sctp_pad_parse(c, &u->pad);
		return true;
	case SCTP_CHUNK_FORWARD_TSN:
	case SCTP_CHUNK_I_FORWARD_TSN:
		*err = sctp_forward_tsn_parse(c, &u->forward_tsn);
		return true;
	case SCTP_CHUNK_ASCONF:
	case SCTP_CHUNK_ASCONF_ACK:
		*err = sctp_asconf_parse(c, &u->asconf);
		return true;
	default:
		*err = SCTP_PERR_OK;
		return false;
	}
}

/* Build what chunk_parse_any() parsed from a chunk of the given type. */
static void
chunk_build_any(struct sctp_writer *w, uint8_t type, const union chunk_any *u)
{
	switch (type) {
	case SCTP_CHUNK_DATA:
		sctp_data_build(w, &u->data);
		break;
	case SCTP_CHUNK_INIT:
	case SCTP_CHUNK_INIT_ACK:
		sctp_init_build(w, &u->init);
		break;
	case SCTP_CHUNK_SACK:
	case SCTP_CHUNK_NR_SACK:
		sctp_sack_build(w, &u->sack);
		break;
	case SCTP_CHUNK_HEARTBEAT:
	case SCTP_CHUNK_HEARTBEAT_ACK:
		sctp_heartbeat_build(w, &u->heartbeat);
		break;
	case SCTP_CHUNK_ABORT:
		sctp_abort_build(w, &u->abort);
		break;
	case SCTP_CHUNK_SHUTDOWN:
	case SCTP_CHUNK_SHUTDOWN_ACK:
	case SCTP_CHUNK_SHUTDOWN_COMPLETE:
		sctp_shutdown_build(w, &u->shutdown);
		break;
	case SCTP_CHUNK_ERROR:
		sctp_error_build(w, &u->error);
		break;
	case SCTP_CHUNK_COOKIE_ECHO:
	case SCTP_CHUNK_COOKIE_ACK:
		sctp_cookie_build(w, &u->cookie);
		break;
	case SCTP_CHUNK_ECNE:
	case SCTP_CHUNK_CWR:
		sctp_ecn_build(w, &u->ecn);
		break;
	case SCTP_CHUNK_AUTH:
		sctp_auth_build(w, &u->auth);
		break;
	case SCTP_CHUNK_I_DATA:
		sctp_idata_build(w, &u->idata);
		break;
	case SCTP_CHUNK_RECONFIG:
		sctp_reconfig_build(w, &u->reconfig);
		break;
	case SCTP_CHUNK_PAD:
		sctp_pad_build(w, &u->pad);
		break;
	case SCTP_CHUNK_FORWARD_TSN:
	case SCTP_CHUNK_I_FORWARD_TSN:
		sctp_forward_tsn_build(w, &u->forward_tsn);
		break;
	case SCTP_CHUNK_ASCONF:
	case SCTP_CHUNK_ASCONF_ACK:
		sctp_asconf_build(w, &u->asconf);
		break;
	default:
		break;
	}
}

enum sctp_parse_err
sctp_chunk_validate(const struct sctp_chunk *c)
{
	union chunk_any u;
	enum sctp_parse_err err;

	(void)chunk_parse_any(c, &u, &err);
	return err;
}

void
sctp_chunk_rebuild(struct sctp_writer *w, const struct sctp_chunk *c)
{
	union chunk_any u;
	enum sctp_parse_err err;

	if (chunk_parse_any(c, &u, &err) && err == SCTP_PERR_OK) {
		chunk_build_any(w, c->type, &u);
		return;
	}
	/* Verbatim copy; a length below the header has no value to copy. */
	size_t off = sctp_chunk_build_begin(w, c->type, c->flags);

	if (c->length > SCTP_CHUNK_HDR_LEN)
		sctp_writer_bytes(w, c->value, sctp_chunk_value_len(c));
	sctp_chunk_build_end(w, off);
}
