/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FORWARD TSN (RFC 3758 §3.2) and I-FORWARD TSN (RFC 8260 §2.3.1).
 *
 * FORWARD TSN: 4-byte entries.
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 192  |  Flags = 0x00 |        Length = Variable      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      New Cumulative TSN                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Stream-1              |       Stream Sequence-1       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                              ...                              /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Stream-N              |       Stream Sequence-N       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * I-FORWARD TSN: 8-byte entries, U = the skipped message was unordered.
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 194  |  Flags = 0x00 |        Length = Variable      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      New Cumulative TSN                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |       Stream Identifier       |          Reserved           |U|
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Message Identifier                      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                              ...                              /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * A list that is not a whole number of entries is SCTP_PERR_FORWARD_TSN_LEN.
 */
#ifndef SCTP_CHUNK_FORWARD_TSN_H
#define SCTP_CHUNK_FORWARD_TSN_H

#include <stdint.h>

#include "sctp/packet.h"

#define SCTP_FORWARD_TSN_ENTRY_LEN   4u	     /* SID, SSN */
#define SCTP_I_FORWARD_TSN_ENTRY_LEN 8u	     /* SID, reserved/U, MID */
#define SCTP_I_FORWARD_TSN_FLAG_U    0x0001u /* in sctp_forward_tsn_ientry.flags */

struct sctp_forward_tsn_entry {
	uint16_t sid;
	uint16_t ssn;
};

struct sctp_forward_tsn_ientry {
	uint16_t sid;
	uint16_t flags; /* the 16 bits after the SID: reserved bits and U */
	uint32_t mid;
};

struct sctp_forward_tsn {
	uint8_t type;  /* SCTP_CHUNK_FORWARD_TSN or SCTP_CHUNK_I_FORWARD_TSN */
	uint8_t flags; /* raw chunk flags */
	uint16_t n_entries;
	uint32_t new_cum_tsn;
	const uint8_t *entries; /* n_entries entries of 4 (FORWARD) or 8 (I-FORWARD) bytes */
};

/* FORWARD TSN or I-FORWARD TSN, by c->type. */
enum sctp_parse_err sctp_forward_tsn_parse(const struct sctp_chunk *c,
					   struct sctp_forward_tsn *out);

/* Entry i < f->n_entries of a FORWARD TSN. */
static inline struct sctp_forward_tsn_entry
sctp_forward_tsn_entry(const struct sctp_forward_tsn *f, uint16_t i)
{
	const uint8_t *p = f->entries + SCTP_FORWARD_TSN_ENTRY_LEN * i;
	struct sctp_forward_tsn_entry e = { sctp_load_be16(p), sctp_load_be16(p + 2) };
	return e;
}

/* Entry i < f->n_entries of an I-FORWARD TSN. */
static inline struct sctp_forward_tsn_ientry
sctp_forward_tsn_ientry(const struct sctp_forward_tsn *f, uint16_t i)
{
	const uint8_t *p = f->entries + SCTP_I_FORWARD_TSN_ENTRY_LEN * i;
	struct sctp_forward_tsn_ientry e = { sctp_load_be16(p), sctp_load_be16(p + 2),
					     sctp_load_be32(p + 4) };
	return e;
}

/* The whole chunk of type in->type from the view in *in. */
void sctp_forward_tsn_build(struct sctp_writer *w, const struct sctp_forward_tsn *in);

/* A FORWARD TSN from host entries (entries may be NULL when n is 0). */
void sctp_forward_tsn_build_entries(struct sctp_writer *w, uint8_t flags, uint32_t new_cum_tsn,
				    const struct sctp_forward_tsn_entry *entries, uint16_t n);

/* An I-FORWARD TSN from host entries (entries may be NULL when n is 0). */
void sctp_forward_tsn_build_ientries(struct sctp_writer *w, uint8_t flags, uint32_t new_cum_tsn,
				     const struct sctp_forward_tsn_ientry *entries, uint16_t n);

#endif /* SCTP_CHUNK_FORWARD_TSN_H */
