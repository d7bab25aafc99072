/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 9260 §3: the SCTP packet — common header, then chunks — and the walkers
 * over chunks (§3.2) and over the TLVs inside a chunk (parameters §3.2.1,
 * error causes §3.3.10).
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Source Port Number        |     Destination Port Number   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Verification Tag                         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                           Checksum                            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Chunk Type  | Chunk  Flags  |        Chunk Length           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                          Chunk Value                          \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * Views point into the caller's buffer, which is never written. Checksum
 * verification is not done here (drivers/crc32c decides how).
 */
#ifndef SCTP_PACKET_H
#define SCTP_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sctp/parse_err.h"
#include "sctp/reader.h"
#include "sctp/wire.h"
#include "sctp/writer.h"

struct sctp_packet {
	uint16_t src_port;
	uint16_t dst_port;
	uint32_t vtag;
	uint32_t checksum;  /* as on the wire (CRC32c is little-endian there) */
	const uint8_t *buf; /* the whole SCTP packet, common header first */
	size_t len;
};

/* A chunk as found by the walker. value_len excludes header and padding. */
struct sctp_chunk {
	uint8_t type;
	uint8_t flags;
	uint16_t length;      /* the Chunk Length field: header + value */
	uint32_t offset;      /* of the chunk header from the packet start */
	const uint8_t *value; /* length - 4 bytes */
};

static inline uint16_t
sctp_chunk_value_len(const struct sctp_chunk *c)
{
	return (uint16_t)(c->length - SCTP_CHUNK_HDR_LEN);
}

/* Parse the common header; SCTP_PERR_OK or SCTP_PERR_PACKET_TOO_SHORT. */
enum sctp_parse_err sctp_packet_parse(struct sctp_packet *pkt, const uint8_t *buf, size_t len);

/*
 * The chunk walker. Each call to next() yields one chunk whose header and
 * value lie inside the packet, or returns false: at the end of the packet
 * (err == SCTP_PERR_OK) or on malformed input (err names why; every chunk
 * already yielded was well-formed).
 *
 * Rules enforced (RFC 9260 §3.2, §6.10):
 *  - a chunk length of at least 4 that stays inside the packet;
 *  - padding to 4 bytes after every chunk, the last one included (padding
 *    content is ignored, as the RFC requires of a receiver);
 *  - INIT, INIT ACK and SHUTDOWN COMPLETE only as the single chunk of a packet
 *    (checked before such a chunk is yielded, so no caller acts on one);
 *  - at least one chunk per packet.
 * Unknown chunk types are yielded like any other: what to do with them is
 * SCTP_UNKNOWN_ACTION_OF_CHUNK(type), the caller's decision.
 */
struct sctp_chunk_iter {
	const uint8_t *buf; /* packet start */
	uint32_t len;	    /* packet length */
	uint32_t off;	    /* next chunk header */
	uint32_t count;	    /* chunks yielded so far */
	enum sctp_parse_err err;
};

void sctp_chunk_iter_init(struct sctp_chunk_iter *it, const struct sctp_packet *pkt);
bool sctp_chunk_iter_next(struct sctp_chunk_iter *it, struct sctp_chunk *c);

/*
 * TLV walker for parameters and error causes: same 4-byte header (16-bit type
 * or code, 16-bit length including the header), padded to 4 bytes. The last
 * TLV of a chunk may omit its padding (RFC 9260 §3.2: the chunk length counts
 * padding of every parameter but the last).
 */
struct sctp_tlv {
	uint16_t type;	      /* parameter type or cause code */
	uint16_t length;      /* header + value, no padding */
	uint32_t offset;      /* of the TLV header from the start of the walked span */
	const uint8_t *value; /* length - 4 bytes */
};

static inline uint16_t
sctp_tlv_value_len(const struct sctp_tlv *t)
{
	return (uint16_t)(t->length - SCTP_PARAM_HDR_LEN);
}

enum sctp_tlv_kind {
	SCTP_TLV_PARAM, /* errors reported as SCTP_PERR_PARAM_* */
	SCTP_TLV_CAUSE, /* errors reported as SCTP_PERR_CAUSE_* */
};

struct sctp_tlv_iter {
	const uint8_t *buf;
	uint32_t len;
	uint32_t off;
	enum sctp_tlv_kind kind;
	enum sctp_parse_err err;
};

void sctp_tlv_iter_init(struct sctp_tlv_iter *it, enum sctp_tlv_kind kind, const uint8_t *buf,
			size_t len);
bool sctp_tlv_iter_next(struct sctp_tlv_iter *it, struct sctp_tlv *t);

/*
 * Builders. sctp_packet_build_header() writes the 12-byte common header with
 * a zero checksum (the CRC is filled in last, by whoever owns the CRC
 * policy). sctp_chunk_build_begin()/end() bracket a chunk: begin writes the
 * header with a placeholder length and returns its offset; end patches the
 * length and writes zero padding. TLVs are padded before the next TLV starts,
 * so the padding of a chunk's last TLV is not counted in the chunk length
 * (RFC 9260 §3.2) — the form every builder here produces and the form
 * build(parse(x)) == x holds for. A writer must start 4-byte aligned with the
 * packet (offsets are padded relative to the writer's start).
 */
void sctp_packet_build_header(struct sctp_writer *w, uint16_t src_port, uint16_t dst_port,
			      uint32_t vtag);
size_t sctp_chunk_build_begin(struct sctp_writer *w, uint8_t type, uint8_t flags);
void sctp_chunk_build_end(struct sctp_writer *w, size_t chunk_off);
/* Same bracketing for one TLV (parameter or cause). */
size_t sctp_tlv_build_begin(struct sctp_writer *w, uint16_t type);
void sctp_tlv_build_end(struct sctp_writer *w, size_t tlv_off);
/* A whole TLV from its value bytes. */
void sctp_tlv_build(struct sctp_writer *w, uint16_t type, const void *value, size_t value_len);
/*
 * A chunk header on its own, for a chunk whose value the caller sends from
 * elsewhere (DATA and I-DATA user data chained as the application's own
 * mbuf): length is the Length field, header and value, padding excluded.
 * The four bytes are written whole or not at all; a length the 16-bit field
 * cannot hold is an overflow and sets the writer's error.
 */
void sctp_chunk_build_header(struct sctp_writer *w, uint8_t type, uint8_t flags, uint32_t length);

#endif /* SCTP_PACKET_H */
