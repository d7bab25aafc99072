/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The interop peers' --reconf option, shared by usrsctp-peer (and
 * linux-sctp-peer) and dpsctp-peer, which each make the request with their
 * own stack's call (docs/INTEROP.md).
 *
 *   --reconf out:SIDS@N | in:SIDS@N | add:OUT,IN@N | assoc@N
 *
 * once N messages were sent (and, for assoc, the association went quiet
 * for INTEROP_RECONF_QUIET_S): reset our outgoing streams SIDS, ask the
 * peer to reset its outgoing ones, add OUT outbound streams and ask for IN
 * inbound ones, or reset the association's SSNs and TSNs.
 */
#ifndef DPSCTP_INTEROP_RECONF_H
#define DPSCTP_INTEROP_RECONF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RECONF_NONE, RECONF_OUT, RECONF_IN, RECONF_ADD, RECONF_ASSOC };

/* Before an association reset the client lets the association go quiet
 * this long: the SACKs of the last messages both ways leave (the delayed
 * SACK of RFC 9260 §6.2 is at most 500 ms, 200 ms in every stack here). */
#define RECONF_QUIET_S 0.3

struct interop_reconf {
	int kind;    /* RECONF_* */
	uint32_t at; /* after this many messages */
	uint16_t sids[32], nsids;
	uint16_t out, in; /* add: the counts */
};

/* The option's argument into *r; false when malformed. */
static inline bool
interop_reconf_parse(const char *arg, struct interop_reconf *r)
{
	char tmp[256];
	snprintf(tmp, sizeof(tmp), "%s", arg);
	char *at = strrchr(tmp, '@');
	if (at == NULL)
		return false;
	*at = '\0';
	r->at = (uint32_t)strtoul(at + 1, NULL, 0);
	if (strcmp(tmp, "assoc") == 0) {
		r->kind = RECONF_ASSOC;
		return r->at != 0;
	}
	char *list = strchr(tmp, ':');
	if (list == NULL || r->at == 0)
		return false;
	*list++ = '\0';
	if (strcmp(tmp, "add") == 0) {
		unsigned out, in;
		if (sscanf(list, "%u,%u", &out, &in) != 2 || out + in == 0 || out > 64 || in > 64)
			return false;
		r->kind = RECONF_ADD;
		r->out = (uint16_t)out;
		r->in = (uint16_t)in;
		return true;
	}
	r->kind = strcmp(tmp, "out") == 0  ? RECONF_OUT
		  : strcmp(tmp, "in") == 0 ? RECONF_IN
					   : RECONF_NONE;
	for (char *save = NULL, *t = strtok_r(list, ",", &save); t != NULL;
	     t = strtok_r(NULL, ",", &save)) {
		if (r->nsids == 32)
			return false;
		r->sids[r->nsids++] = (uint16_t)strtoul(t, NULL, 0);
	}
	return r->kind != RECONF_NONE;
}

#endif /* DPSCTP_INTEROP_RECONF_H */
