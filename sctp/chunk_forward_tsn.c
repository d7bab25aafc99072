/* SPDX-License-Identifier: BSD-3-Clause */
/* FORWARD TSN (RFC 3758 §3.2) and I-FORWARD TSN (RFC 8260 §2.3.1): see the header. */
#include "sctp/chunk_forward_tsn.h"

static uint32_t
forward_tsn_entry_len(uint8_t type)
{
	return type == SCTP_CHUNK_I_FORWARD_TSN ? SCTP_I_FORWARD_TSN_ENTRY_LEN
						: SCTP_FORWARD_TSN_ENTRY_LEN;
}

enum sctp_parse_err
sctp_forward_tsn_parse(const struct sctp_chunk *c, struct sctp_forward_tsn *out)
{
	uint32_t entry_len = forward_tsn_entry_len(c->type);

	if (c->length < SCTP_CHUNK_HDR_LEN + SCTP_FORWARD_TSN_FIXED_LEN)
		return SCTP_PERR_CHUNK_LEN_FIXED;

	uint32_t list_len = (uint32_t)c->length - SCTP_CHUNK_HDR_LEN - SCTP_FORWARD_TSN_FIXED_LEN;

	if (list_len % entry_len != 0)
		return SCTP_PERR_FORWARD_TSN_LEN;
	out->type = c->type;
	out->flags = c->flags;
	out->new_cum_tsn = sctp_load_be32(c->value);
	out->n_entries = (uint16_t)(list_len / entry_len);
	out->entries = c->value + SCTP_FORWARD_TSN_FIXED_LEN;
	return SCTP_PERR_OK;
}

void
sctp_forward_tsn_build(struct sctp_writer *w, const struct sctp_forward_tsn *in)
{
	size_t off = sctp_chunk_build_begin(w, in->type, in->flags);

	sctp_writer_u32(w, in->new_cum_tsn);
	sctp_writer_bytes(w, in->entries, (size_t)in->n_entries * forward_tsn_entry_len(in->type));
	sctp_chunk_build_end(w, off);
}

void
sctp_forward_tsn_build_entries(struct sctp_writer *w, uint8_t flags, uint32_t new_cum_tsn,
			       const struct sctp_forward_tsn_entry *entries, uint16_t n)
{
	size_t off = sctp_chunk_build_begin(w, SCTP_CHUNK_FORWARD_TSN, flags);

	sctp_writer_u32(w, new_cum_tsn);
	for (uint16_t i = 0; i < n; i++) {
		sctp_writer_u16(w, entries[i].sid);
		sctp_writer_u16(w, entries[i].ssn);
	}
	sctp_chunk_build_end(w, off);
}

void
sctp_forward_tsn_build_ientries(struct sctp_writer *w, uint8_t flags, uint32_t new_cum_tsn,
				const struct sctp_forward_tsn_ientry *entries, uint16_t n)
{
	size_t off = sctp_chunk_build_begin(w, SCTP_CHUNK_I_FORWARD_TSN, flags);

	sctp_writer_u32(w, new_cum_tsn);
	for (uint16_t i = 0; i < n; i++) {
		sctp_writer_u16(w, entries[i].sid);
		sctp_writer_u16(w, entries[i].flags);
		sctp_writer_u32(w, entries[i].mid);
	}
	sctp_chunk_build_end(w, off);
}
