/* SPDX-License-Identifier: BSD-3-Clause */
/* SACK (RFC 9260 §3.3.4) and NR-SACK chunks: see chunk_sack.h for the wire layout. */
#include "sctp/chunk_sack.h"

enum sctp_parse_err
sctp_sack_parse(const struct sctp_chunk *c, struct sctp_sack *out)
{
	bool nr = c->type == SCTP_CHUNK_NR_SACK;
	uint32_t fixed = nr ? SCTP_NR_SACK_FIXED_LEN : SCTP_SACK_FIXED_LEN;

	if (c->length < SCTP_CHUNK_HDR_LEN + fixed)
		return SCTP_PERR_CHUNK_LEN_FIXED;

	struct sctp_reader r = sctp_reader_make(c->value, sctp_chunk_value_len(c));

	out->type = c->type;
	out->flags = c->flags;
	out->cum_tsn = sctp_reader_u32(&r);
	out->a_rwnd = sctp_reader_u32(&r);
	out->n_gaps = sctp_reader_u16(&r);
	if (nr) {
		out->n_nr_gaps = sctp_reader_u16(&r);
		out->n_dups = sctp_reader_u16(&r);
		out->reserved = sctp_reader_u16(&r);
	} else {
		out->n_nr_gaps = 0;
		out->n_dups = sctp_reader_u16(&r);
		out->reserved = 0;
	}

	/* At most 3 * 65535 * 4 bytes: no overflow in 32 bits. */
	uint32_t lists = 4u * ((uint32_t)out->n_gaps + out->n_nr_gaps + out->n_dups);

	if (sctp_reader_left(&r) != lists)
		return SCTP_PERR_SACK_LEN_MISMATCH;
	out->gaps = sctp_reader_take(&r, 4u * (size_t)out->n_gaps);
	out->nr_gaps = sctp_reader_take(&r, 4u * (size_t)out->n_nr_gaps);
	out->dups = sctp_reader_take(&r, 4u * (size_t)out->n_dups);
	return sctp_reader_ok(&r) ? SCTP_PERR_OK : SCTP_PERR_SACK_LEN_MISMATCH;
}

void
sctp_sack_build(struct sctp_writer *w, const struct sctp_sack *in)
{
	bool nr = in->type == SCTP_CHUNK_NR_SACK;
	size_t off =
		sctp_chunk_build_begin(w, nr ? SCTP_CHUNK_NR_SACK : SCTP_CHUNK_SACK, in->flags);

	sctp_writer_u32(w, in->cum_tsn);
	sctp_writer_u32(w, in->a_rwnd);
	sctp_writer_u16(w, in->n_gaps);
	if (nr) {
		sctp_writer_u16(w, in->n_nr_gaps);
		sctp_writer_u16(w, in->n_dups);
		sctp_writer_u16(w, in->reserved);
	} else {
		sctp_writer_u16(w, in->n_dups);
	}
	sctp_writer_bytes(w, in->gaps, 4u * (size_t)in->n_gaps);
	if (nr)
		sctp_writer_bytes(w, in->nr_gaps, 4u * (size_t)in->n_nr_gaps);
	sctp_writer_bytes(w, in->dups, 4u * (size_t)in->n_dups);
	sctp_chunk_build_end(w, off);
}

void
sctp_sack_build_from(struct sctp_writer *w, uint8_t flags, uint32_t cum_tsn, uint32_t a_rwnd,
		     const struct sctp_sack_gap *gaps, uint16_t n_gaps, const uint32_t *dups,
		     uint16_t n_dups)
{
	size_t off = sctp_chunk_build_begin(w, SCTP_CHUNK_SACK, flags);

	sctp_writer_u32(w, cum_tsn);
	sctp_writer_u32(w, a_rwnd);
	sctp_writer_u16(w, n_gaps);
	sctp_writer_u16(w, n_dups);
	for (uint16_t i = 0; i < n_gaps; i++) {
		sctp_writer_u16(w, gaps[i].start);
		sctp_writer_u16(w, gaps[i].end);
	}
	for (uint16_t i = 0; i < n_dups; i++)
		sctp_writer_u32(w, dups[i]);
	sctp_chunk_build_end(w, off);
}
