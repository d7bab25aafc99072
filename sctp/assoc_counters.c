/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The owner-wide events of struct sctp_assoc_counters by index, for an
 * owner that exports them (the data plane's "assoc." worker counters): the
 * list is sctp/assoc_event.def, each entry a field of the struct.
 */
#include <stddef.h>
#include <string.h>

#include "sctp/assoc.h"

static const struct {
	const char *name;
	size_t off;
} assoc_events[SCTP_ASSOC_EVENT_COUNT] = {
#define SCTP_ASSOC_EVENT(field, name, why) { name, offsetof(struct sctp_assoc_counters, field) },
#include "sctp/assoc_event.def"
#undef SCTP_ASSOC_EVENT
};

/* Every field after drops[] is listed, none twice: the struct is the two lists. */
_Static_assert(sizeof(struct sctp_assoc_counters) ==
		       (SCTP_ASSOC_DROP_COUNT + SCTP_ASSOC_EVENT_COUNT) * sizeof(uint64_t),
	       "struct sctp_assoc_counters: a field missing from sctp/assoc_event.def");

const char *
sctp_assoc_event_name(enum sctp_assoc_event e)
{
	return (unsigned)e < SCTP_ASSOC_EVENT_COUNT ? assoc_events[e].name : NULL;
}

uint64_t
sctp_assoc_event_value(const struct sctp_assoc_counters *c, enum sctp_assoc_event e)
{
	if ((unsigned)e >= SCTP_ASSOC_EVENT_COUNT)
		return 0;
	uint64_t v;
	memcpy(&v, (const char *)c + assoc_events[e].off, sizeof(v));
	return v;
}
