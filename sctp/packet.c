/* SPDX-License-Identifier: BSD-3-Clause */
/* RFC 9260 §3, §3.2, §6.10: common header, chunk walker, TLV walker. */
#include "sctp/packet.h"

enum sctp_parse_err
sctp_packet_parse(struct sctp_packet *pkt, const uint8_t *buf, size_t len)
{
	if (len < SCTP_COMMON_HDR_LEN)
		return SCTP_PERR_PACKET_TOO_SHORT;
	pkt->src_port = sctp_load_be16(buf);
	pkt->dst_port = sctp_load_be16(buf + 2);
	pkt->vtag = sctp_load_be32(buf + 4);
	pkt->checksum = sctp_load_be32(buf + 8);
	pkt->buf = buf;
	pkt->len = len;
	return SCTP_PERR_OK;
}

void
sctp_chunk_iter_init(struct sctp_chunk_iter *it, const struct sctp_packet *pkt)
{
	it->buf = pkt->buf;
	/* IP limits a packet to 64 KiB + jumbograms; clamp so offsets fit 32 bits. */
	it->len = pkt->len > UINT32_MAX ? UINT32_MAX : (uint32_t)pkt->len;
	it->off = SCTP_COMMON_HDR_LEN;
	it->count = 0;
	it->err = SCTP_PERR_OK;
}

static inline bool
chunk_must_be_alone(uint8_t type)
{
	return type == SCTP_CHUNK_INIT || type == SCTP_CHUNK_INIT_ACK ||
	       type == SCTP_CHUNK_SHUTDOWN_COMPLETE;
}

static inline bool
chunk_iter_fail(struct sctp_chunk_iter *it, enum sctp_parse_err err)
{
	it->err = err;
	it->off = it->len; /* later calls keep returning false */
	return false;
}

bool
sctp_chunk_iter_next(struct sctp_chunk_iter *it, struct sctp_chunk *c)
{
	uint32_t left = it->len - it->off;

	if (it->err != SCTP_PERR_OK)
		return false;
	if (left == 0) {
		if (it->count == 0)
			return chunk_iter_fail(it, SCTP_PERR_PACKET_NO_CHUNKS);
		return false;
	}
	if (left < SCTP_CHUNK_HDR_LEN)
		return chunk_iter_fail(it, SCTP_PERR_CHUNK_TRUNCATED);

	const uint8_t *p = it->buf + it->off;
	uint16_t length = sctp_load_be16(p + 2);

	if (length < SCTP_CHUNK_HDR_LEN)
		return chunk_iter_fail(it, SCTP_PERR_CHUNK_LEN_SHORT);
	if (length > left)
		return chunk_iter_fail(it, SCTP_PERR_CHUNK_LEN_OVERRUN);
	uint32_t padded = SCTP_PAD4((uint32_t)length);
	if (padded > left)
		return chunk_iter_fail(it, SCTP_PERR_CHUNK_PAD_MISSING);
	/* §6.10: these three travel alone; refuse before anyone acts on one. */
	if (chunk_must_be_alone(p[0]) && (it->count != 0 || padded != left))
		return chunk_iter_fail(it, SCTP_PERR_CHUNK_NOT_ALONE);
	if (it->count == 1 && chunk_must_be_alone(it->buf[SCTP_COMMON_HDR_LEN]))
		return chunk_iter_fail(it, SCTP_PERR_CHUNK_NOT_ALONE);

	c->type = p[0];
	c->flags = p[1];
	c->length = length;
	c->offset = it->off;
	c->value = p + SCTP_CHUNK_HDR_LEN;
	it->off += padded;
	it->count++;
	return true;
}

void
sctp_tlv_iter_init(struct sctp_tlv_iter *it, enum sctp_tlv_kind kind, const uint8_t *buf,
		   size_t len)
{
	it->buf = buf;
	it->len = len > UINT16_MAX ? UINT16_MAX : (uint32_t)len;
	it->off = 0;
	it->kind = kind;
	it->err = SCTP_PERR_OK;
}

static inline bool
tlv_iter_fail(struct sctp_tlv_iter *it, enum sctp_parse_err param_err,
	      enum sctp_parse_err cause_err)
{
	it->err = it->kind == SCTP_TLV_PARAM ? param_err : cause_err;
	it->off = it->len;
	return false;
}

bool
sctp_tlv_iter_next(struct sctp_tlv_iter *it, struct sctp_tlv *t)
{
	uint32_t left = it->len - it->off;

	if (it->err != SCTP_PERR_OK || left == 0)
		return false;
	if (left < SCTP_PARAM_HDR_LEN)
		return tlv_iter_fail(it, SCTP_PERR_PARAM_TRUNCATED, SCTP_PERR_CAUSE_TRUNCATED);

	const uint8_t *p = it->buf + it->off;
	uint16_t length = sctp_load_be16(p + 2);

	if (length < SCTP_PARAM_HDR_LEN)
		return tlv_iter_fail(it, SCTP_PERR_PARAM_LEN_SHORT, SCTP_PERR_CAUSE_LEN_SHORT);
	if (length > left)
		return tlv_iter_fail(it, SCTP_PERR_PARAM_LEN_OVERRUN, SCTP_PERR_CAUSE_LEN_OVERRUN);

	t->type = sctp_load_be16(p);
	t->length = length;
	t->offset = it->off;
	t->value = p + SCTP_PARAM_HDR_LEN;
	/* The last TLV may end without its padding (§3.2). */
	uint32_t padded = SCTP_PAD4((uint32_t)length);
	it->off += padded < left ? padded : left;
	return true;
}

void
sctp_packet_build_header(struct sctp_writer *w, uint16_t src_port, uint16_t dst_port, uint32_t vtag)
{
	sctp_writer_u16(w, src_port);
	sctp_writer_u16(w, dst_port);
	sctp_writer_u32(w, vtag);
	sctp_writer_u32(w, 0);
}

size_t
sctp_chunk_build_begin(struct sctp_writer *w, uint8_t type, uint8_t flags)
{
	size_t off = w->off;

	sctp_writer_u8(w, type);
	sctp_writer_u8(w, flags);
	sctp_writer_u16(w, 0);
	return off;
}

void
sctp_chunk_build_header(struct sctp_writer *w, uint8_t type, uint8_t flags, uint32_t length)
{
	uint8_t *p;

	/* The Length field is 16 bits: a value it cannot describe is an overflow. */
	if (length > UINT16_MAX) {
		w->err = true;
		return;
	}
	p = sctp_writer_take(w, SCTP_CHUNK_HDR_LEN);
	if (p == NULL)
		return;
	p[0] = type;
	p[1] = flags;
	sctp_store_be16(p + 2, (uint16_t)length);
}

/*
 * Patch the length field of the header at hdr_off. Chunks pad after
 * themselves; TLVs pad *before* the next TLV (sctp_tlv_build_begin), so the
 * last TLV's padding is left to the enclosing chunk and is not counted in the
 * chunk length, as RFC 9260 §3.2 requires of a sender.
 */
static void
patch_length(struct sctp_writer *w, size_t hdr_off)
{
	if (!sctp_writer_ok(w))
		return;
	size_t length = w->off - hdr_off;
	if (length > UINT16_MAX) {
		w->err = true;
		return;
	}
	sctp_store_be16(w->buf + hdr_off + 2, (uint16_t)length);
}

void
sctp_chunk_build_end(struct sctp_writer *w, size_t chunk_off)
{
	patch_length(w, chunk_off);
	sctp_writer_pad4(w);
}

size_t
sctp_tlv_build_begin(struct sctp_writer *w, uint16_t type)
{
	sctp_writer_pad4(w); /* padding of the previous TLV, if any */
	size_t off = w->off;

	sctp_writer_u16(w, type);
	sctp_writer_u16(w, 0);
	return off;
}

void
sctp_tlv_build_end(struct sctp_writer *w, size_t tlv_off)
{
	patch_length(w, tlv_off);
}

void
sctp_tlv_build(struct sctp_writer *w, uint16_t type, const void *value, size_t value_len)
{
	size_t off = sctp_tlv_build_begin(w, type);

	sctp_writer_bytes(w, value, value_len);
	sctp_tlv_build_end(w, off);
}
