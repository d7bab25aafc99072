/* SPDX-License-Identifier: BSD-3-Clause */
#include "sctp/parse_err.h"

static const struct sctp_def_row parse_err_rows[SCTP_PERR_COUNT] = {
	[SCTP_PERR_OK] = { "ok", "no error" },
#define SCTP_PARSE_ERR(name, str, why) SCTP_DEF_ROW(SCTP_PERR_##name, str, why)
#include "sctp/parse_err.def"
#undef SCTP_PARSE_ERR
};

const char *
sctp_parse_err_name(enum sctp_parse_err err)
{
	return sctp_def_name(parse_err_rows, SCTP_PERR_COUNT, err);
}

const char *
sctp_parse_err_describe(enum sctp_parse_err err)
{
	return sctp_def_describe(parse_err_rows, SCTP_PERR_COUNT, err, "unknown error");
}
