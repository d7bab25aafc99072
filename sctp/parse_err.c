/* SPDX-License-Identifier: BSD-3-Clause */
#include "sctp/parse_err.h"

static const char *const parse_err_names[SCTP_PERR_COUNT] = {
	[SCTP_PERR_OK] = "ok",
#define SCTP_PARSE_ERR(name, str, why) [SCTP_PERR_##name] = str,
#include "sctp/parse_err.def"
#undef SCTP_PARSE_ERR
};

static const char *const parse_err_whys[SCTP_PERR_COUNT] = {
	[SCTP_PERR_OK] = "no error",
#define SCTP_PARSE_ERR(name, str, why) [SCTP_PERR_##name] = why,
#include "sctp/parse_err.def"
#undef SCTP_PARSE_ERR
};

const char *
sctp_parse_err_name(enum sctp_parse_err err)
{
	return (unsigned)err < SCTP_PERR_COUNT ? parse_err_names[err] : "unknown";
}

const char *
sctp_parse_err_describe(enum sctp_parse_err err)
{
	return (unsigned)err < SCTP_PERR_COUNT ? parse_err_whys[err] : "unknown error";
}
