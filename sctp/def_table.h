/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One shape for every list of named reasons (the .def files; VPP's
 * tcp_error.def is the model). A .def file holds one row per line,
 *
 *     ROW(NAME, "name", "what it means")
 *
 * where ROW is the list's own macro (SCTP_PARSE_ERR, SCTP_EP_DROP, ...),
 * NAME completes the enum constant (prefix##NAME) and "name" is NAME in
 * lower case: the counter, wire and telemetry name. Both are written out so
 * that grepping a name telemetry prints lands on the row and, through NAME,
 * on the code that counts it; sctp/tests/def_names.py checks the rule for
 * every .def file in the repository.
 *
 * The list's header builds the enum (an optional value 0 first, then the
 * rows, then the count):
 *
 *     enum sctp_parse_err {
 *             SCTP_PERR_OK = 0,
 *     #define SCTP_PARSE_ERR(name, str, why) SCTP_DEF_ENUM(SCTP_PERR_##name)
 *     #include "sctp/parse_err.def"
 *     #undef SCTP_PARSE_ERR
 *             SCTP_PERR_COUNT
 *     };
 *
 * and its .c file one array of names and descriptions, read through
 * sctp_def_name() and sctp_def_describe(), which bound the index:
 *
 *     static const struct sctp_def_row parse_err_rows[SCTP_PERR_COUNT] = {
 *             [SCTP_PERR_OK] = { "ok", "no error" },
 *     #define SCTP_PARSE_ERR(name, str, why) SCTP_DEF_ROW(SCTP_PERR_##name, str, why)
 *     #include "sctp/parse_err.def"
 *     #undef SCTP_PARSE_ERR
 *     };
 *
 * Header-only, so drivers/ includes it as it includes sctp/addr.h.
 */
#ifndef SCTP_DEF_TABLE_H
#define SCTP_DEF_TABLE_H

/*
 * A row's enum constant. The list's row macro pastes the prefix itself, as
 * above: a NAME that is also a macro (ND_HOP_LIMIT in l3.c) would be
 * expanded before a paste done inside the kit.
 */
#define SCTP_DEF_ENUM(constant) constant,

/* A row's cell of the name/description array, at its enum constant. */
#define SCTP_DEF_ROW(constant, str, why) [constant] = { str, why },

struct sctp_def_row {
	const char *name; /* counter/wire name: NAME in lower case */
	const char *why;  /* one line, for logs, --help and docs/COUNTERS.md */
};

/* The name of value i of a list of count rows, or "unknown" if out of range. */
static inline const char *
sctp_def_name(const struct sctp_def_row *rows, unsigned count, unsigned i)
{
	return i < count ? rows[i].name : "unknown";
}

/* The description of value i, or unknown if out of range. */
static inline const char *
sctp_def_describe(const struct sctp_def_row *rows, unsigned count, unsigned i, const char *unknown)
{
	return i < count ? rows[i].why : unknown;
}

#endif /* SCTP_DEF_TABLE_H */
