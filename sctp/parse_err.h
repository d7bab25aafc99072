/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Named reasons for rejecting network input (the list is sctp/parse_err.def).
 * 0 means "no error"; every other value has a stable wire name.
 */
#ifndef SCTP_PARSE_ERR_H
#define SCTP_PARSE_ERR_H

#include "sctp/def_table.h"

enum sctp_parse_err {
	SCTP_PERR_OK = 0,
#define SCTP_PARSE_ERR(name, str, why) SCTP_DEF_ENUM(SCTP_PERR_##name)
#include "sctp/parse_err.def"
#undef SCTP_PARSE_ERR
	SCTP_PERR_COUNT
};

/* "ok" for SCTP_PERR_OK, the wire name otherwise, "unknown" if out of range. */
const char *sctp_parse_err_name(enum sctp_parse_err err);
/* One-line explanation, for logs and --help. */
const char *sctp_parse_err_describe(enum sctp_parse_err err);

#endif /* SCTP_PARSE_ERR_H */
