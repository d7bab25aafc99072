/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Who may attach (docs/SIDECAR.md, "Who may attach"): --socket-mode,
 * --socket-group, --allow-uid and --allow-gid, from the strings the option
 * table took to the sc_server_access the server enforces. Users and groups
 * by name or number; names are looked up once, here, at start: a name that
 * does not resolve is an error, not a rule that matches nobody.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/dpsctpd/dd.h"

/* A user (is_group false) or group by name or number: 0, or -ENOENT. */
static int
dd_access_id(const char *s, bool is_group, uint32_t *id)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (*s >= '0' && *s <= '9' && *end == '\0' && errno == 0 && v < UINT32_MAX) {
		*id = (uint32_t)v;
		return 0;
	}
	if (is_group) {
		const struct group *g = getgrnam(s);
		if (g == NULL)
			return -ENOENT;
		*id = (uint32_t)g->gr_gid;
	} else {
		const struct passwd *p = getpwnam(s);
		if (p == NULL)
			return -ENOENT;
		*id = (uint32_t)p->pw_uid;
	}
	return 0;
}

/* "a,b,c" into ids: 0, or -EINVAL said on stderr. */
static int
dd_access_list(const char *opt, const char *list, bool is_group, uint32_t *ids, uint32_t *n)
{
	char buf[DD_ACCESS_LIST_LEN];
	snprintf(buf, sizeof(buf), "%s", list);
	*n = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t != NULL;
	     t = strtok_r(NULL, ",", &save)) {
		if (*n == SC_SERVER_MAX_ALLOW) {
			fprintf(stderr, "dpsctpd: --%s: at most %u entries\n", opt,
				SC_SERVER_MAX_ALLOW);
			return -EINVAL;
		}
		if (dd_access_id(t, is_group, &ids[*n]) != 0) {
			fprintf(stderr, "dpsctpd: --%s: no %s named '%s'\n", opt,
				is_group ? "group" : "user", t);
			return -EINVAL;
		}
		(*n)++;
	}
	return 0;
}

int
dd_access_parse(const struct dd_access_opts *in, struct sc_server_access *out)
{
	memset(out, 0, sizeof(*out));
	if (in->mode[0] != '\0') {
		char *end;
		unsigned long m = strtoul(in->mode, &end, 8);
		if (*end != '\0' || m == 0 || m > 0777) {
			fprintf(stderr,
				"dpsctpd: --socket-mode '%s': permission bits in octal, 1..0777 "
				"(connect() needs write permission)\n",
				in->mode);
			return -EINVAL;
		}
		out->mode = (uint32_t)m;
	}
	if (in->group[0] != '\0') {
		if (dd_access_id(in->group, true, &out->gid) != 0) {
			fprintf(stderr, "dpsctpd: --socket-group: no group named '%s'\n",
				in->group);
			return -EINVAL;
		}
		out->set_gid = true;
	}
	if (dd_access_list("allow-uid", in->uids, false, out->uids, &out->n_uids) != 0 ||
	    dd_access_list("allow-gid", in->gids, true, out->gids, &out->n_gids) != 0)
		return -EINVAL;
	return 0;
}

void
dd_access_print(const struct sc_server_access *a, FILE *f)
{
	fprintf(f, "# dpsctpd: socket mode %04o", a->mode != 0 ? a->mode : 0660u);
	if (a->set_gid)
		fprintf(f, ", group %u", a->gid);
	if (a->n_uids == 0 && a->n_gids == 0) {
		fprintf(f, ", anyone the socket lets in may attach\n");
		return;
	}
	fprintf(f, ", may attach: root, the daemon's user");
	for (uint32_t i = 0; i < a->n_uids; i++)
		fprintf(f, ", uid %u", a->uids[i]);
	for (uint32_t i = 0; i < a->n_gids; i++)
		fprintf(f, ", gid %u", a->gids[i]);
	fprintf(f, "\n");
}
