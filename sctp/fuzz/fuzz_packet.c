/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: one SCTP packet (common header first) through the whole
 * codec — the chunk walker, every chunk parser, the TLV walkers inside INIT,
 * INIT ACK, ABORT and ERROR, the INIT parameter summary, the builders, and
 * the checksum classifier. Properties checked beyond "no crash, no UB":
 *  - every chunk the walker yields lies inside the packet;
 *  - a chunk its parser accepts rebuilds to bytes that parse again and
 *    rebuild to the same bytes (the codec is a fixed point after one pass);
 *  - the input is never written (a copy is compared at the end).
 * Seeds: the SCTP packets of tests/corpus/pcap (see run_fuzz.py).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/crc32c/crc32c.h"
#include "sctp/chunk.h"
#include "sctp/packet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The rebuilt chunk must fit: a chunk is at most 64 KiB + padding. */
static uint8_t rebuilt[2][UINT16_MAX + 4];

static void
check(int cond)
{
	if (!cond)
		abort();
}

static void
walk_tlvs(enum sctp_tlv_kind kind, const uint8_t *p, size_t len)
{
	struct sctp_tlv_iter it;
	struct sctp_tlv t;

	sctp_tlv_iter_init(&it, kind, p, len);
	while (sctp_tlv_iter_next(&it, &t))
		check(t.offset + t.length <= len);
}

static void
fuzz_chunk(const struct sctp_chunk *c)
{
	if (sctp_chunk_validate(c) != SCTP_PERR_OK)
		return;

	struct sctp_writer w1 = sctp_writer_make(rebuilt[0], sizeof(rebuilt[0]));
	sctp_chunk_rebuild(&w1, c);
	check(sctp_writer_ok(&w1));

	/* Re-walk the rebuilt chunk as a packet body of its own. */
	struct sctp_chunk again = {
		.type = rebuilt[0][0],
		.flags = rebuilt[0][1],
		.length = sctp_load_be16(rebuilt[0] + 2),
		.offset = 0,
		.value = rebuilt[0] + SCTP_CHUNK_HDR_LEN,
	};
	check(again.length >= SCTP_CHUNK_HDR_LEN && again.length <= w1.off);
	check(sctp_chunk_validate(&again) == SCTP_PERR_OK);
	struct sctp_writer w2 = sctp_writer_make(rebuilt[1], sizeof(rebuilt[1]));
	sctp_chunk_rebuild(&w2, &again);
	check(sctp_writer_ok(&w2));
	check(w1.off == w2.off && memcmp(rebuilt[0], rebuilt[1], w1.off) == 0);

	switch (c->type) {
	case SCTP_CHUNK_INIT:
	case SCTP_CHUNK_INIT_ACK: {
		struct sctp_init init;
		struct sctp_init_params params;
		if (sctp_init_parse(c, &init) == SCTP_PERR_OK) {
			walk_tlvs(SCTP_TLV_PARAM, init.params, init.params_len);
			(void)sctp_init_params_decode(init.params, init.params_len, &params);
		}
		break;
	}
	case SCTP_CHUNK_ABORT:
	case SCTP_CHUNK_ERROR:
		walk_tlvs(SCTP_TLV_CAUSE, c->value, sctp_chunk_value_len(c));
		break;
	default:
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	struct sctp_packet pkt;
	struct sctp_chunk_iter it;
	struct sctp_chunk c;

	check(copy != NULL);
	memcpy(copy, data, size);

	(void)crc32c_sctp_verify(data, size);
	if (sctp_packet_parse(&pkt, data, size) == SCTP_PERR_OK) {
		sctp_chunk_iter_init(&it, &pkt);
		while (sctp_chunk_iter_next(&it, &c)) {
			check(c.offset + c.length <= size);
			fuzz_chunk(&c);
		}
	}
	check(memcmp(copy, data, size) == 0);
	free(copy);
	return 0;
}
