/* SPDX-License-Identifier: BSD-3-Clause */
/* I-DATA chunk, RFC 8260 §2.1: builders (the parser is inline in chunk_idata.h). */
#include "sctp/chunk_idata.h"

static void
idata_build_fixed(struct sctp_writer *w, const struct sctp_idata *in)
{
	sctp_writer_u32(w, in->tsn);
	sctp_writer_u16(w, in->sid);
	sctp_writer_u16(w, in->reserved);
	sctp_writer_u32(w, in->mid);
	sctp_writer_u32(w, in->ppid_fsn);
}

void
sctp_idata_build(struct sctp_writer *w, const struct sctp_idata *in)
{
	size_t off = sctp_chunk_build_begin(w, SCTP_CHUNK_I_DATA, in->flags);

	idata_build_fixed(w, in);
	sctp_writer_bytes(w, in->payload, in->payload_len);
	sctp_chunk_build_end(w, off);
}

void
sctp_idata_build_header(struct sctp_writer *w, const struct sctp_idata *in)
{
	uint32_t length = SCTP_CHUNK_HDR_LEN + SCTP_I_DATA_FIXED_LEN + (uint32_t)in->payload_len;

	sctp_chunk_build_header(w, SCTP_CHUNK_I_DATA, in->flags, length);
	/* After an overflow the writer's error is sticky: nothing more is written. */
	idata_build_fixed(w, in);
}
