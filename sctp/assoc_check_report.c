/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The debug build's failure report: after an entry point of sctp/assoc.h,
 * a broken invariant (sctp_assoc_check()) prints its name and aborts, so
 * the test, simulation or fuzz input that broke it stops right there.
 *
 * The one file of sctp/ that prints and aborts: it is linked only into
 * sctp_checked_lib (sctp/meson.build), never into the library the data
 * plane runs, and docs/tools/layers.py allows it <stdio.h> and <stdlib.h>
 * by name.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sctp/assoc_internal.h"

void
assoc_check_or_abort(const struct sctp_assoc *a, const char *where)
{
	const char *e = sctp_assoc_check(a);

	if (e == NULL)
		return;
	fprintf(stderr, "sctp_assoc_check: after %s, in %s: %s\n", where,
		sctp_assoc_state_name((enum sctp_assoc_state)a->state), e);
	abort();
}
