/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The owner-wide events of struct sctp_assoc_counters by index, for an
 * owner that exports them (the data plane's "assoc." worker counters): the
 * list is sctp/assoc_event.def, one row per field after drops[], in order;
 * the struct is 64-bit counters only, so event i is the word after the
 * discards' at i.
 */
#include <string.h>

#include "sctp/assoc.h"
#include "sctp/def_table.h"

static const struct sctp_def_row assoc_event_rows[SCTP_ASSOC_EVENT_COUNT] = {
#define SCTP_ASSOC_EVENT(name, str, why) SCTP_DEF_ROW(SCTP_ASSOC_EVT_##name, str, why)
#include "sctp/assoc_event.def"
#undef SCTP_ASSOC_EVENT
};

/* Every field after drops[] has its row: the struct is the two lists, words only. */
_Static_assert(sizeof(struct sctp_assoc_counters) ==
		       (SCTP_ASSOC_DROP_COUNT + SCTP_ASSOC_EVENT_COUNT) * sizeof(uint64_t),
	       "struct sctp_assoc_counters: a field without its row in sctp/assoc_event.def");

const char *
sctp_assoc_event_name(enum sctp_assoc_event e)
{
	return (unsigned)e < SCTP_ASSOC_EVENT_COUNT ? assoc_event_rows[e].name : NULL;
}

uint64_t
sctp_assoc_event_value(const struct sctp_assoc_counters *c, enum sctp_assoc_event e)
{
	uint64_t v;

	if ((unsigned)e >= SCTP_ASSOC_EVENT_COUNT)
		return 0;
	memcpy(&v, (const uint8_t *)c + (SCTP_ASSOC_DROP_COUNT + (size_t)e) * sizeof(v), sizeof(v));
	return v;
}
