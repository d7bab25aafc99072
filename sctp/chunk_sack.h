/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SACK chunk, RFC 9260 §3.3.4, and NR-SACK (type 16,
 * draft-tuexen-tsvwg-sctp-multipath §4.1), which adds a list of
 * non-renegable gap blocks and a reserved field.
 *
 * SACK:
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 3    |  Chunk Flags  |         Chunk Length          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Cumulative TSN Ack                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Advertised Receiver Window Credit (a_rwnd)           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Number of Gap Ack Blocks = N  |  Number of Duplicate TSNs = M |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Gap Ack Block #1 Start     |     Gap Ack Block #1 End      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                              ...                              /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Gap Ack Block #N Start     |     Gap Ack Block #N End      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                        Duplicate TSN 1                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                              ...                              /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                        Duplicate TSN M                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * NR-SACK replaces the counts word with
 * | Number of R Gap Ack Blocks = N |Number of NR Gap Ack Blocks = M|
 * | Number of Duplicate TSNs = X   |           Reserved            |
 * and lists N R gap blocks, M NR gap blocks, then X duplicate TSNs.
 *
 * Gap block Start/End are offsets from the Cumulative TSN Ack. The Length
 * must be exactly what the counts say (SCTP_PERR_SACK_LEN_MISMATCH): a SACK
 * claiming 65535 blocks in a 16-byte chunk is refused before anyone reads a
 * block. Ordering and overlap of the blocks are the transfer code's to judge,
 * not the codec's.
 */
#ifndef SCTP_CHUNK_SACK_H
#define SCTP_CHUNK_SACK_H

#include <stdint.h>

#include "sctp/packet.h"

#define SCTP_NR_SACK_FIXED_LEN 16u /* cum TSN, a_rwnd, #gap, #nr-gap, #dup, reserved */

struct sctp_sack_gap {
	uint16_t start; /* offset from the cumulative TSN ack */
	uint16_t end;
};

struct sctp_sack {
	uint8_t type;  /* SCTP_CHUNK_SACK or SCTP_CHUNK_NR_SACK */
	uint8_t flags; /* raw chunk flags */
	uint16_t n_gaps;
	uint16_t n_nr_gaps; /* NR-SACK only; 0 for SACK */
	uint16_t n_dups;
	uint16_t reserved; /* NR-SACK only */
	uint32_t cum_tsn;
	uint32_t a_rwnd;
	const uint8_t *gaps;	/* n_gaps * 4 bytes inside the packet */
	const uint8_t *nr_gaps; /* n_nr_gaps * 4 bytes */
	const uint8_t *dups;	/* n_dups * 4 bytes */
};

/*
 * SACK or NR-SACK (dispatching on c->type). SCTP_PERR_CHUNK_LEN_FIXED below
 * the fixed part; SCTP_PERR_SACK_LEN_MISMATCH when the lists do not fill the
 * chunk exactly.
 */
enum sctp_parse_err sctp_sack_parse(const struct sctp_chunk *c, struct sctp_sack *out);

/* Gap block i < s->n_gaps, in host order. */
static inline struct sctp_sack_gap
sctp_sack_gap_block(const struct sctp_sack *s, uint16_t i)
{
	struct sctp_sack_gap g = { sctp_load_be16(s->gaps + 4u * i),
				   sctp_load_be16(s->gaps + 4u * i + 2) };
	return g;
}

/* NR gap block i < s->n_nr_gaps (NR-SACK). */
static inline struct sctp_sack_gap
sctp_sack_nr_gap_block(const struct sctp_sack *s, uint16_t i)
{
	struct sctp_sack_gap g = { sctp_load_be16(s->nr_gaps + 4u * i),
				   sctp_load_be16(s->nr_gaps + 4u * i + 2) };
	return g;
}

/* Duplicate TSN i < s->n_dups. */
static inline uint32_t
sctp_sack_dup_tsn(const struct sctp_sack *s, uint16_t i)
{
	return sctp_load_be32(s->dups + 4u * i);
}

/* The whole chunk (SACK or NR-SACK, by in->type) from the views in *in. */
void sctp_sack_build(struct sctp_writer *w, const struct sctp_sack *in);

/*
 * A SACK from host values, the form the receiver keeps: gap blocks as
 * {start, end} offsets from cum_tsn and duplicate TSNs as numbers. Either
 * array may be NULL when its count is 0. A SACK too long for the 16-bit
 * Length (more than 16379 entries in all) is a writer error.
 */
void sctp_sack_build_from(struct sctp_writer *w, uint8_t flags, uint32_t cum_tsn, uint32_t a_rwnd,
			  const struct sctp_sack_gap *gaps, uint16_t n_gaps, const uint32_t *dups,
			  uint16_t n_dups);

#endif /* SCTP_CHUNK_SACK_H */
