/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the configuration parser (dataplane/config.c) as every
 * program built on it uses it. Byte 0 picks the way in:
 *
 *   0  the rest is a configuration file (dpsctp_config_parse_file())
 *   1  the rest is a command line, arguments separated by NUL bytes
 *      (dpsctp_config_parse_args(), which also reorders argv)
 *   2  the rest is NUL-separated name, value pairs (dpsctp_config_set())
 *
 * then dpsctp_config_validate() and the round trip config.h promises:
 * dpsctp_config_print() of whatever the parse left (it stops at the first
 * bad option, keeping those before) parses back onto the defaults without
 * an error and prints the same text again. Includes ("config = FILE") are
 * skipped: an input naming a file could read anything on the machine,
 * block on a FIFO or a terminal, and its coverage is the same parser's.
 * Properties beyond "no crash, no UB, no leak": every error message is a
 * terminated string within its buffer; parse_args returns an argc within
 * what it was given with argv still a permutation of the arguments.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dataplane/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64
#define TEXT_MAX 16384

static void
check(int cond)
{
	if (!cond)
		abort();
}

static void
check_err(const char *err, size_t len)
{
	check(memchr(err, '\0', len) != NULL);
}

/* A file holding len bytes of text; its path in path. -1 when none could be made. */
static int
text_file(const char *text, size_t len, char *path, size_t cap)
{
	int fd = memfd_create("fuzz_config", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	snprintf(path, cap, "/proc/self/fd/%d", fd);
	return fd;
}

/* dpsctp_config_print() into a malloc'd string (*len bytes). */
static char *
printed(const struct dpsctp_config *c, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	check(f != NULL);
	check(dpsctp_config_print(c, f) == 0);
	check(fclose(f) == 0);
	return buf;
}

/* Whether the name at p (n bytes, up to a blank, '=' or the end) is "config". */
static bool
is_include(const char *p, size_t n)
{
	return n >= 6 && memcmp(p, "config", 6) == 0 &&
	       (n == 6 || p[6] == '=' || p[6] == ' ' || p[6] == '\t' || p[6] == '\0' ||
		p[6] == '\r');
}

/* A file's text names an include on some line (see the top): skipped. */
static bool
file_includes(const char *t, size_t len)
{
	for (size_t i = 0; i < len;) {
		/* The parser's blanks (config.c blank()): '\r' too, or "\rconfig=0"
		 * names /proc/self/fd/0 beside the memfd, and reads stdin. */
		while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r'))
			i++;
		if (is_include(t + i, len - i))
			return true;
		const char *nl = memchr(t + i, '\n', len - i);
		i = nl == NULL ? len : (size_t)(nl - t) + 1;
	}
	return false;
}

static void
round_trip(const struct dpsctp_config *c)
{
	size_t len1 = 0, len2 = 0;
	char *one = printed(c, &len1), path[64], err[256];
	int fd = text_file(one, len1, path, sizeof(path));
	if (fd < 0) {
		free(one);
		return;
	}
	struct dpsctp_config back;
	dpsctp_config_defaults(&back);
	int rc = dpsctp_config_parse_file(&back, path, err, sizeof(err));
	check_err(err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "fuzz_config: the printed configuration does not parse: %s\n%s",
			err, one);
		abort();
	}
	close(fd);
	char *two = printed(&back, &len2);
	if (len1 != len2 || memcmp(one, two, len1) != 0) {
		fprintf(stderr,
			"fuzz_config: printed, parsed and printed again differs:\n%s---\n%s", one,
			two);
		abort();
	}
	free(one);
	free(two);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > TEXT_MAX)
		return 0;

	struct dpsctp_config c;
	char err[256];
	dpsctp_config_defaults(&c);
	memset(err, 'x', sizeof(err));
	err[sizeof(err) - 1] = '\0';

	/* The rest as NUL-terminated text, so every piece is a C string. */
	char *text = malloc(size + 1);
	check(text != NULL);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	text[size] = '\0';
	size_t len = size - 1;

	switch (data[0] % 3) {
	case 0: {
		char path[64];
		if (file_includes(text, len))
			break;
		int fd = text_file(text, len, path, sizeof(path));
		if (fd >= 0) {
			(void)dpsctp_config_parse_file(&c, path, err, sizeof(err));
			close(fd);
		}
		break;
	}
	case 1: {
		char *argv[MAX_ARGS + 1], *orig[MAX_ARGS + 1];
		int argc = 0;
		argv[argc++] = (char *)"fuzz";
		for (size_t i = 0; i < len && argc < MAX_ARGS; i += strlen(text + i) + 1) {
			if (strncmp(text + i, "--", 2) == 0 &&
			    is_include(text + i + 2, strlen(text + i + 2)))
				goto out;
			argv[argc++] = text + i;
		}
		argv[argc] = NULL;
		memcpy(orig, argv, sizeof(argv));
		int n = dpsctp_config_parse_args(&c, argc, argv, err, sizeof(err));
		check(n < 0 || (n >= 1 && n <= argc));
		check(argv[0] == orig[0]);
		if (n > 0) {
			/* What is left is some of the arguments, each at most once. */
			for (int i = 1; i < n; i++) {
				int seen = 0;
				for (int j = 1; j < argc; j++)
					seen += argv[i] == orig[j];
				check(seen == 1);
				for (int k = 1; k < i; k++)
					check(argv[k] != argv[i]);
			}
		}
		break;
	}
	case 2:
		for (size_t i = 0; i < len;) {
			const char *name = text + i;
			i += strlen(name) + 1;
			const char *value = i < len ? text + i : NULL;
			if (is_include(name, strlen(name)))
				break;
			if (value != NULL)
				i += strlen(value) + 1;
			int rc = dpsctp_config_set(&c, name, value, err, sizeof(err));
			if (rc != 0 && rc != -ENOENT)
				break;
		}
		break;
	}
	check_err(err, sizeof(err));
	(void)dpsctp_config_validate(&c, err, sizeof(err));
	check_err(err, sizeof(err));
	round_trip(&c);
out:
	free(text);
	return 0;
}
