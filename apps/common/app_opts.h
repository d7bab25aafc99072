/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The programs' own command-line options, from one table per program.
 *
 * Each entry names an option (long, short or both), the field of the
 * program's options struct it sets, the kind of argument it takes with its
 * bounds, and its line of --help. The parser (getopt_long underneath), the
 * file reader of dpsctpd (app_opts_set()) and --help all read that one
 * entry, so what the help says an option takes is what the parser accepts:
 * a bound changed in the table changes both. A bad argument is refused with
 * a sentence naming the option, what was given and what is allowed
 * ("--streams 70000: out of range (want 1..65535)"); nothing is clamped,
 * wrapped or read as 0.
 *
 * The data plane's options (--port, --ip, --max-assocs, ...) are not here:
 * dpsctp_config_parse_args() takes them first and leaves the program's.
 *
 * No DPDK: dpsctp-decode and dpsctp-sidecar-echo link this alone.
 */
#ifndef DPSCTP_APP_OPTS_H
#define DPSCTP_APP_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sctp/addr.h"

enum app_opt_kind {
	APP_OPT_END = 0, /* ends a table ({ 0 }) */
	APP_OPT_SECTION, /* a heading in --help (help), no option */
	APP_OPT_FLAG,	 /* no argument: the bool field becomes true */
	APP_OPT_HELP,	 /* no argument: parsing stops and returns 1; a bool field (if
			  * size != 0) says which of several such options it was */
	APP_OPT_UINT,	 /* an unsigned field of 1, 2, 4 or 8 bytes: decimal or 0x, in
			  * [min, max] (APP_OPT_POW2: a power of two) */
	APP_OPT_SIZE,	 /* the same, with an optional k, m or g suffix (x 1024); --help
			  * shows its bounds so: 64k..1g */
	APP_OPT_DOUBLE,	 /* a double, in [dmin, dmax] */
	APP_OPT_SI,	 /* a double with an optional k, m or g suffix (x 1000), in
			  * [dmin, dmax] after the suffix: "10g", "2.5m", "1e9" */
	APP_OPT_STRING,	 /* const char *: the argument itself, 1..max bytes (max 0: any) */
	APP_OPT_BUF,	 /* char[size]: a copy of the argument, 1..size - 1 bytes */
	APP_OPT_ADDRS,	 /* const char *: "ADDR[,ADDR...]", 1..max IPv4/IPv6 addresses
			  * (app_parse_peers() reads it again where it is used) */
	APP_OPT_CHOICE,	 /* int: 1 + the index of the argument in choices (0: not given) */
};

/* app_opt.flags */
#define APP_OPT_POW2 0x1u /* UINT, SIZE: a power of two */
#define APP_OPT_CLI  0x2u /* the command line only: app_opts_set() does not know it */

/* Where an entry's value goes: offset and size of a member of the options struct. */
#define APP_OPT_FIELD(type, member)                                                                \
	.off = offsetof(type, member), .size = sizeof(((type *)0)->member)

struct app_opt {
	enum app_opt_kind kind;
	const char *name; /* long name without "--", or NULL */
	char short_name;  /* or 0 */
	size_t off, size; /* APP_OPT_FIELD(); size 0: no field (SECTION, HELP) */
	const char *arg;  /* the argument in --help: "N", "SECONDS", "PATH" */
	const char *help; /* what it does (--help wraps it) */
	uint64_t min, max;
	double dmin, dmax;
	const char *const *choices; /* CHOICE: the words, NULL last */
	/*
	 * The default --help shows, for when the field's initial value does not
	 * say it ("10; 3 with --loopback"); "" shows none. NULL: the initial
	 * value of the field in the defaults app_opts_usage() gets (numbers,
	 * strings, choices).
	 */
	const char *dflt;
	unsigned flags; /* APP_OPT_POW2, APP_OPT_CLI */
};

/*
 * Parse the options of argv[1..argc) by table t into the struct at o (its
 * defaults set by the caller). next == NULL: an argument that is no option
 * is an error; else *next is the index of the first of them (getopt_long
 * moves them to the end). Returns 0; 1 when an APP_OPT_HELP option was seen
 * (parsing stops there); -EINVAL with the reason in err (no program name,
 * no newline).
 */
int app_opts_parse(const struct app_opt *t, void *o, int argc, char **argv, int *next, char *err,
		   size_t errlen);

/*
 * One option by its long name (a configuration file's "name = value";
 * value NULL for "name" alone). 0; -ENOENT no such option in t (or it is
 * APP_OPT_CLI); -EINVAL with the reason in err.
 */
int app_opts_set(const struct app_opt *t, void *o, const char *name, const char *value, char *err,
		 size_t errlen);

/*
 * --help's option lines from t: each option, its argument, its help, and
 * the bounds and default the parser uses (defaults: the options struct as
 * the program fills it before parsing).
 */
void app_opts_usage(FILE *f, const struct app_opt *t, const void *defaults);

/*
 * "ADDR[,ADDR...]", IPv4 or IPv6, into out (at most max). Returns the
 * number of addresses, or -1 for a word that is no address, an empty list,
 * a list longer than 255 bytes or more than max addresses.
 */
int app_parse_peers(const char *list, struct sctp_addr *out, unsigned max);

/*
 * Whether the program's own options (after the first "--") ask for help,
 * -h or --help. Programs answer it before the EAL starts, so that help
 * works where the EAL would not (no hugepages, too little memory, another
 * process on the same --file-prefix, EAL arguments still to be chosen).
 */
bool app_help_wanted(int argc, char **argv);

/*
 * Whether the program's options (after the first "--") give --NAME (as
 * "--NAME" or "--NAME=..."), or a --config file, which may.
 */
bool app_option_given(int argc, char **argv, const char *name);

#endif /* DPSCTP_APP_OPTS_H */
