/* SPDX-License-Identifier: BSD-3-Clause */
/* DATA chunk, RFC 9260 §3.3.1: builders (the parser is inline in chunk_data.h). */
#include "sctp/chunk_data.h"

static void
data_build_fixed(struct sctp_writer *w, const struct sctp_data *in)
{
	sctp_writer_u32(w, in->tsn);
	sctp_writer_u16(w, in->sid);
	sctp_writer_u16(w, in->ssn);
	sctp_writer_u32(w, in->ppid);
}

void
sctp_data_build(struct sctp_writer *w, const struct sctp_data *in)
{
	size_t off = sctp_chunk_build_begin(w, SCTP_CHUNK_DATA, in->flags);

	data_build_fixed(w, in);
	sctp_writer_bytes(w, in->payload, in->payload_len);
	sctp_chunk_build_end(w, off);
}

void
sctp_data_build_header(struct sctp_writer *w, const struct sctp_data *in)
{
	uint32_t length = SCTP_CHUNK_HDR_LEN + SCTP_DATA_FIXED_LEN + (uint32_t)in->payload_len;

	sctp_chunk_build_header(w, SCTP_CHUNK_DATA, in->flags, length);
	/* After an overflow the writer's error is sticky: nothing more is written. */
	data_build_fixed(w, in);
}
