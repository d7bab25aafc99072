/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Replays fuzz inputs through a target without libFuzzer, so the kept
 * regression inputs run in every build (gcc included). Arguments are files
 * or directories of files; exit 0 when every input ran, 1 when none was
 * found (a regression suite that runs nothing must not pass quietly).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		perror(path);
		return -1;
	}
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			uint8_t *n = realloc(buf, cap);
			if (n == NULL) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = n;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		if (got == 0)
			break;
		len += got;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

static int
replay_path(const char *path, unsigned *count)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (replay_file(path) != 0)
			return -1;
		(*count)++;
		return 0;
	}
	DIR *d = opendir(path);
	if (d == NULL) {
		perror(path);
		return -1;
	}
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char sub[4096];
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (replay_path(sub, count) != 0)
			rc = -1;
	}
	closedir(d);
	return rc;
}

int
main(int argc, char **argv)
{
	unsigned count = 0;
	int rc = 0;
	for (int i = 1; i < argc; i++)
		if (replay_path(argv[i], &count) != 0)
			rc = 1;
	printf("replayed %u inputs\n", count);
	return rc != 0 || count == 0;
}
