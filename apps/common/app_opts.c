/* SPDX-License-Identifier: BSD-3-Clause */
/* The programs' options from one table (app_opts.h). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "apps/common/app_opts.h"

#define APP_OPTS_MAX  64 /* entries a table may have */
#define APP_OPTS_WRAP 79 /* --help's line width */

static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* "--streams", or "-n" for an option with no long name. */
static const char *
opt_label(const struct app_opt *e, char *buf, size_t n)
{
	if (e->name != NULL)
		snprintf(buf, n, "--%s", e->name);
	else
		snprintf(buf, n, "-%c", e->short_name);
	return buf;
}

/* A size the way a user writes it: 4m rather than 4194304. */
static void
size_text(uint64_t v, char *buf, size_t n)
{
	static const char suffix[] = { 'g', 'm', 'k' };
	for (unsigned i = 0; i < 3; i++) {
		unsigned shift = 30 - 10 * i;
		if (v != 0 && v % (1ull << shift) == 0) {
			snprintf(buf, n, "%" PRIu64 "%c", v >> shift, suffix[i]);
			return;
		}
	}
	snprintf(buf, n, "%" PRIu64, v);
}

/* What an entry's argument may be: the error's "want" and --help's bounds. */
static void
allowed(const struct app_opt *e, char *buf, size_t n)
{
	char lo[32], hi[32];
	size_t k;
	switch (e->kind) {
	case APP_OPT_UINT:
		snprintf(buf, n, "%s%" PRIu64 "..%" PRIu64,
			 e->flags & APP_OPT_POW2 ? "a power of two, " : "", e->min, e->max);
		break;
	case APP_OPT_SIZE:
		size_text(e->min, lo, sizeof(lo));
		size_text(e->max, hi, sizeof(hi));
		snprintf(buf, n, "%s%s..%s", e->flags & APP_OPT_POW2 ? "a power of two, " : "", lo,
			 hi);
		break;
	case APP_OPT_DOUBLE:
		snprintf(buf, n, "%g..%g", e->dmin, e->dmax);
		break;
	case APP_OPT_SI:
		snprintf(buf, n, "%g..%g; k, m, g: x1000", e->dmin, e->dmax);
		break;
	case APP_OPT_STRING:
	case APP_OPT_BUF:
		if (e->max != 0 || e->kind == APP_OPT_BUF)
			snprintf(buf, n, "1..%" PRIu64 " bytes",
				 e->kind == APP_OPT_BUF ? (uint64_t)e->size - 1 : e->max);
		else
			buf[0] = '\0'; /* any but "" */
		break;
	case APP_OPT_ADDRS:
		snprintf(buf, n, "1..%" PRIu64 " IPv4 or IPv6 addresses, comma-separated", e->max);
		break;
	case APP_OPT_CHOICE:
		k = 0;
		buf[0] = '\0';
		for (unsigned i = 0; e->choices[i] != NULL && k < n; i++)
			k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? " or " : "",
					      e->choices[i]);
		break;
	default:
		buf[0] = '\0';
		break;
	}
}

/*
 * A number of digits (decimal, or hex after 0x; a leading 0 is octal, as
 * strtoull has always read these options), no sign, no space; *end is what
 * follows. False when there are no digits or it overflows.
 */
static bool
read_uint(const char *s, unsigned long long *v, char **end)
{
	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*v = strtoull(s, end, 0);
	return errno == 0 && *end != s;
}

static bool
read_double(const char *s, double *v, char **end)
{
	if (s[0] == '\0' || isspace((unsigned char)s[0]))
		return false;
	errno = 0;
	*v = strtod(s, end);
	return errno == 0 && *end != s && isfinite(*v);
}

/* k, m, g at *end: the multiplier's power of base (1, 2, 3), else 0. */
static unsigned
suffix_power(char **end)
{
	const char *p = strchr("kmg", tolower((unsigned char)**end));
	if (**end == '\0' || p == NULL)
		return 0;
	(*end)++;
	return (unsigned)(p - "kmg") + 1;
}

static void
store_uint(void *field, size_t size, uint64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;
	switch (size) {
	case 1:
		memcpy(field, &u8, 1);
		break;
	case 2:
		memcpy(field, &u16, 2);
		break;
	case 4:
		memcpy(field, &u32, 4);
		break;
	default:
		memcpy(field, &v, 8);
		break;
	}
}

static uint64_t
load_uint(const void *field, size_t size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
	switch (size) {
	case 1:
		memcpy(&u8, field, 1);
		return u8;
	case 2:
		memcpy(&u16, field, 2);
		return u16;
	case 4:
		memcpy(&u32, field, 4);
		return u32;
	default:
		memcpy(&u64, field, 8);
		return u64;
	}
}

static int
apply_uint(const struct app_opt *e, void *field, const char *v, const char *label, char *err,
	   size_t errlen)
{
	char want[128], *end;
	unsigned long long n;
	allowed(e, want, sizeof(want));
	if (!read_uint(v, &n, &end))
		return fail(err, errlen, "%s %s: not a number (want %s)", label, v, want);
	unsigned shift = e->kind == APP_OPT_SIZE ? 10 * suffix_power(&end) : 0;
	if (*end != '\0')
		return fail(err, errlen, "%s %s: not a number (want %s)", label, v, want);
	if (n > (e->max >> shift) || ((uint64_t)n << shift) < e->min)
		return fail(err, errlen, "%s %s: out of range (want %s)", label, v, want);
	uint64_t x = (uint64_t)n << shift;
	if ((e->flags & APP_OPT_POW2) && (x & (x - 1)) != 0)
		return fail(err, errlen, "%s %s: not a power of two (want %s)", label, v, want);
	store_uint(field, e->size, x);
	return 0;
}

static int
apply_double(const struct app_opt *e, void *field, const char *v, const char *label, char *err,
	     size_t errlen)
{
	char want[128], *end;
	double d;
	allowed(e, want, sizeof(want));
	if (!read_double(v, &d, &end))
		return fail(err, errlen, "%s %s: not a number (want %s)", label, v, want);
	if (e->kind == APP_OPT_SI)
		d *= pow(1000.0, suffix_power(&end));
	if (*end != '\0')
		return fail(err, errlen, "%s %s: not a number (want %s)", label, v, want);
	if (!(d >= e->dmin && d <= e->dmax))
		return fail(err, errlen, "%s %s: out of range (want %s)", label, v, want);
	memcpy(field, &d, sizeof(d));
	return 0;
}

static int
apply_text(const struct app_opt *e, void *field, const char *v, const char *label, char *err,
	   size_t errlen)
{
	char want[128];
	struct sctp_addr tmp[64];
	size_t len = strlen(v);
	allowed(e, want, sizeof(want));
	switch (e->kind) {
	case APP_OPT_STRING:
		if (len == 0 && e->max == 0)
			return fail(err, errlen, "%s: an empty value", label);
		if (len == 0 || (e->max != 0 && len > e->max))
			return fail(err, errlen, "%s \"%s\": want %s", label, v, want);
		memcpy(field, &v, sizeof(v));
		return 0;
	case APP_OPT_BUF:
		if (len == 0 || len >= e->size)
			return fail(err, errlen, "%s \"%s\": want %s", label, v, want);
		memcpy(field, v, len + 1);
		return 0;
	case APP_OPT_ADDRS:
		if (app_parse_peers(v, tmp, (unsigned)e->max) <= 0)
			return fail(err, errlen, "%s \"%s\": want %s", label, v, want);
		memcpy(field, &v, sizeof(v));
		return 0;
	default: /* APP_OPT_CHOICE */
		for (int i = 0; e->choices[i] != NULL; i++)
			if (strcmp(v, e->choices[i]) == 0) {
				int pick = i + 1;
				memcpy(field, &pick, sizeof(pick));
				return 0;
			}
		return fail(err, errlen, "%s %s: want %s", label, v, want);
	}
}

/* The entry's value from argument v (NULL: none was given). */
static int
apply(const struct app_opt *e, void *o, const char *v, char *err, size_t errlen)
{
	char label[64];
	void *field = (char *)o + e->off;
	opt_label(e, label, sizeof(label));
	if (e->kind == APP_OPT_FLAG || e->kind == APP_OPT_HELP) {
		if (v != NULL)
			return fail(err, errlen, "%s takes no value", label);
		bool yes = true;
		if (e->size != 0)
			memcpy(field, &yes, sizeof(yes));
		return e->kind == APP_OPT_HELP ? 1 : 0;
	}
	if (v == NULL)
		return fail(err, errlen, "%s needs a value (%s)", label, e->arg ? e->arg : "");
	switch (e->kind) {
	case APP_OPT_UINT:
	case APP_OPT_SIZE:
		return apply_uint(e, field, v, label, err, errlen);
	case APP_OPT_DOUBLE:
	case APP_OPT_SI:
		return apply_double(e, field, v, label, err, errlen);
	default:
		return apply_text(e, field, v, label, err, errlen);
	}
}

/* A table a program got wrong: a bug, said at once whatever the arguments. */
static bool
table_ok(const struct app_opt *t, char *err, size_t errlen)
{
	for (unsigned i = 0; t[i].kind != APP_OPT_END; i++) {
		const struct app_opt *e = &t[i];
		bool sized;
		if (i >= APP_OPTS_MAX) {
			fail(err, errlen, "option table: more than %u entries", APP_OPTS_MAX);
			return false;
		}
		switch (e->kind) {
		case APP_OPT_SECTION:
			sized = true;
			break;
		case APP_OPT_FLAG:
			sized = e->size == sizeof(bool);
			break;
		case APP_OPT_HELP:
			sized = e->size == 0 || e->size == sizeof(bool);
			break;
		case APP_OPT_UINT:
		case APP_OPT_SIZE:
			sized = (e->size == 1 || e->size == 2 || e->size == 4 || e->size == 8) &&
				(e->size == 8 || e->max < (1ull << (8 * e->size))) &&
				e->min <= e->max;
			break;
		case APP_OPT_DOUBLE:
		case APP_OPT_SI:
			sized = e->size == sizeof(double) && e->dmin <= e->dmax;
			break;
		case APP_OPT_STRING:
			sized = e->size == sizeof(const char *);
			break;
		case APP_OPT_ADDRS:
			sized = e->size == sizeof(const char *) && e->max >= 1 && e->max <= 64;
			break;
		case APP_OPT_BUF:
			sized = e->size >= 2;
			break;
		case APP_OPT_CHOICE:
			sized = e->size == sizeof(int) && e->choices != NULL;
			break;
		default:
			sized = false;
			break;
		}
		for (unsigned j = 0; sized && j < i; j++) /* one entry per name */
			sized = t[j].kind == APP_OPT_SECTION ||
				((e->short_name == 0 || e->short_name != t[j].short_name) &&
				 (e->name == NULL || t[j].name == NULL ||
				  strcmp(e->name, t[j].name) != 0));
		if (!sized ||
		    (e->kind != APP_OPT_SECTION && e->name == NULL && e->short_name == 0)) {
			fail(err, errlen, "option table: entry %u (%s) is malformed", i,
			     e->name != NULL ? e->name : "?");
			return false;
		}
	}
	return true;
}

/* " (try -h)", as the table spells its help option, or "" without one. */
static void
help_hint(const struct app_opt *t, char *buf, size_t n)
{
	buf[0] = '\0';
	for (unsigned i = 0; t[i].kind != APP_OPT_END; i++)
		if (t[i].kind == APP_OPT_HELP) {
			char label[64];
			if (t[i].short_name != 0)
				snprintf(label, sizeof(label), "-%c", t[i].short_name);
			else
				opt_label(&t[i], label, sizeof(label));
			snprintf(buf, n, " (try %s)", label);
			return;
		}
}

static bool
takes_arg(const struct app_opt *e)
{
	return e->kind != APP_OPT_FLAG && e->kind != APP_OPT_HELP;
}

/*
 * getopt_long's view of the table: a long option's val is 256 + its entry
 * (above every short option); shorts starts with ':' so that a missing
 * argument is told apart from an unknown option.
 */
static void
getopt_tables(const struct app_opt *t, struct option *longopts, char *shorts)
{
	unsigned nl = 0, ns = 0;
	shorts[ns++] = ':';
	for (unsigned i = 0; t[i].kind != APP_OPT_END; i++) {
		if (t[i].kind == APP_OPT_SECTION)
			continue;
		if (t[i].name != NULL)
			longopts[nl++] =
				(struct option){ t[i].name,
						 takes_arg(&t[i]) ? required_argument : no_argument,
						 NULL, 256 + (int)i };
		if (t[i].short_name != 0) {
			shorts[ns++] = t[i].short_name;
			if (takes_arg(&t[i]))
				shorts[ns++] = ':';
		}
	}
	longopts[nl] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns] = '\0';
}

int
app_opts_parse(const struct app_opt *t, void *o, int argc, char **argv, int *next, char *err,
	       size_t errlen)
{
	struct option longopts[APP_OPTS_MAX + 1];
	char shorts[2 * APP_OPTS_MAX + 2];
	if (!table_ok(t, err, errlen))
		return -EINVAL;
	getopt_tables(t, longopts, shorts);

	char hint[80];
	help_hint(t, hint, sizeof(hint));
	int c, old_opterr = opterr;
	opterr = 0; /* our sentences, not getopt's */
	optind = 0; /* glibc: start over, also after a parse that stopped mid-word ("-sx") */
	int rc = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		const struct app_opt *e = NULL;
		if (c >= 256) {
			e = &t[c - 256];
		} else if (c != '?' && c != ':') {
			for (unsigned i = 0; e == NULL && t[i].kind != APP_OPT_END; i++)
				if (t[i].kind != APP_OPT_SECTION && t[i].short_name == c)
					e = &t[i];
		}
		if (e != NULL) {
			rc = apply(e, o, takes_arg(e) ? optarg : NULL, err, errlen);
		} else if (c == ':') {
			rc = fail(err, errlen, "%s needs a value%s", argv[optind - 1], hint);
		} else if (optopt >= 256) {
			rc = fail(err, errlen, "--%s takes no value", t[optopt - 256].name);
		} else if (optopt != 0) {
			rc = fail(err, errlen, "unknown option -%c%s", optopt, hint);
		} else {
			rc = fail(err, errlen, "unknown option \"%s\"%s", argv[optind - 1], hint);
		}
	}
	opterr = old_opterr;
	if (rc != 0)
		return rc;
	if (next != NULL)
		*next = optind;
	else if (optind < argc)
		return fail(err, errlen, "unexpected argument \"%s\"%s", argv[optind], hint);
	return 0;
}

int
app_opts_set(const struct app_opt *t, void *o, const char *name, const char *value, char *err,
	     size_t errlen)
{
	if (!table_ok(t, err, errlen))
		return -EINVAL;
	for (unsigned i = 0; t[i].kind != APP_OPT_END; i++) {
		const struct app_opt *e = &t[i];
		if (e->kind == APP_OPT_SECTION || e->kind == APP_OPT_HELP ||
		    (e->flags & APP_OPT_CLI) || e->name == NULL || strcmp(e->name, name) != 0)
			continue;
		return apply(e, o, value, err, errlen);
	}
	return -ENOENT;
}

/* ---- --help ---- */

/* The entry's default as --help shows it, or "" for none. */
static void
default_text(const struct app_opt *e, const void *defaults, char *buf, size_t n)
{
	const void *field = (const char *)defaults + e->off;
	const char *s;
	double d;
	int pick;
	buf[0] = '\0';
	if (e->dflt != NULL) {
		snprintf(buf, n, "%s", e->dflt);
		return;
	}
	if (defaults == NULL)
		return;
	switch (e->kind) {
	case APP_OPT_UINT:
		snprintf(buf, n, "%" PRIu64, load_uint(field, e->size));
		break;
	case APP_OPT_SIZE:
		size_text(load_uint(field, e->size), buf, n);
		break;
	case APP_OPT_DOUBLE:
	case APP_OPT_SI:
		memcpy(&d, field, sizeof(d));
		snprintf(buf, n, "%g", d);
		break;
	case APP_OPT_STRING:
		memcpy(&s, field, sizeof(s));
		if (s != NULL)
			snprintf(buf, n, "%s", s);
		break;
	case APP_OPT_BUF:
		snprintf(buf, n, "%.*s", (int)e->size, (const char *)field);
		break;
	case APP_OPT_CHOICE:
		memcpy(&pick, field, sizeof(pick));
		if (pick > 0)
			snprintf(buf, n, "%s", e->choices[pick - 1]);
		break;
	default:
		break;
	}
}

/*
 * text from column col, wrapped at APP_OPTS_WRAP, the cursor at column at
 * (a newline in text breaks there).
 */
static void
wrap(FILE *f, const char *text, unsigned col, unsigned at)
{
	const char *p = text;
	while (*p != '\0') {
		size_t w = strcspn(p, " \n");
		if (at > col && at + 1 + w > APP_OPTS_WRAP) {
			fprintf(f, "\n%*s", (int)col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", (int)w, p);
		at += (unsigned)w;
		p += w;
		if (*p == '\n') {
			fprintf(f, "\n%*s", (int)col, "");
			at = col;
		}
		while (*p == ' ' || *p == '\n')
			p++;
	}
	fputc('\n', f);
}

static int
left_text(const struct app_opt *e, char *buf, size_t n)
{
	char s[8] = "", l[64] = "";
	if (e->short_name != 0)
		snprintf(s, sizeof(s), "-%c%s", e->short_name, e->name != NULL ? ", " : "");
	if (e->name != NULL)
		snprintf(l, sizeof(l), "--%s", e->name);
	return snprintf(buf, n, "  %s%s%s%s", s, l, takes_arg(e) && e->arg ? " " : "",
			takes_arg(e) && e->arg ? e->arg : "");
}

void
app_opts_usage(FILE *f, const struct app_opt *t, const void *defaults)
{
	char left[96], bounds[160], dflt[96], text[1024];
	unsigned col = 0;
	if (!table_ok(t, text, sizeof(text))) {
		fprintf(f, "%s\n", text);
		return;
	}
	for (unsigned i = 0; t[i].kind != APP_OPT_END; i++)
		if (t[i].kind != APP_OPT_SECTION) {
			unsigned w = (unsigned)left_text(&t[i], left, sizeof(left)) + 2;
			if (w <= 24 && w > col)
				col = w;
		}
	for (unsigned i = 0; t[i].kind != APP_OPT_END; i++) {
		const struct app_opt *e = &t[i];
		if (e->kind == APP_OPT_SECTION) {
			fprintf(f, "%s\n", e->help);
			continue;
		}
		unsigned at = (unsigned)left_text(e, left, sizeof(left));
		fputs(left, f);
		if (at + 1 >= col) {
			fprintf(f, "\n%*s", (int)col, "");
		} else {
			fprintf(f, "%*s", (int)(col - at), "");
		}
		allowed(e, bounds, sizeof(bounds));
		default_text(e, defaults, dflt, sizeof(dflt));
		if (bounds[0] != '\0' && dflt[0] != '\0')
			snprintf(text, sizeof(text), "%s (%s; default %s)", e->help, bounds, dflt);
		else if (bounds[0] != '\0' || dflt[0] != '\0')
			snprintf(text, sizeof(text), "%s (%s%s)", e->help,
				 bounds[0] ? "" : "default ", bounds[0] ? bounds : dflt);
		else
			snprintf(text, sizeof(text), "%s", e->help);
		wrap(f, text, col, col);
	}
}

/* ---- the rest of the command line ---- */

int
app_parse_peers(const char *list, struct sctp_addr *out, unsigned max)
{
	char tmp[256];
	unsigned n = 0;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s", list) >= sizeof(tmp))
		return -1; /* not cut short into a different list */
	for (char *save = NULL, *t = strtok_r(tmp, ",", &save); t != NULL;
	     t = strtok_r(NULL, ",", &save)) {
		if (n == max)
			return -1;
		memset(&out[n], 0, sizeof(out[n]));
		if (inet_pton(AF_INET, t, out[n].bytes) == 1)
			out[n].family = SCTP_ADDR_V4;
		else if (inet_pton(AF_INET6, t, out[n].bytes) == 1)
			out[n].family = SCTP_ADDR_V6;
		else
			return -1;
		n++;
	}
	return n == 0 ? -1 : (int)n;
}

bool
app_help_wanted(int argc, char **argv)
{
	int i = 1;
	while (i < argc && strcmp(argv[i], "--") != 0)
		i++;
	for (i++; i < argc; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
	return false;
}

bool
app_option_given(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);
	int i = 1;
	while (i < argc && strcmp(argv[i], "--") != 0)
		i++;
	for (i++; i < argc; i++) {
		const char *a = argv[i];
		if (strncmp(a, "--", 2) != 0)
			continue;
		a += 2;
		if ((strncmp(a, name, n) == 0 && (a[n] == '\0' || a[n] == '=')) ||
		    (strncmp(a, "config", 6) == 0 && (a[6] == '\0' || a[6] == '=')))
			return true;
	}
	return false;
}
