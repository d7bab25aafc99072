/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctp-decode: the decoding step shared by the text and JSON outputs.
 *
 * decode_frame() takes one captured frame, finds the SCTP packet in it
 * (drivers/net/frame.h), verifies the checksum (drivers/crc32c), walks the
 * chunks (sctp/packet.h) and parses each with its codec (sctp/chunk.h). It
 * does not print: it describes the packet to a sink as a sequence of events
 * (named numbers, strings, lists and objects), and the sink renders them.
 * Which facts a chunk has is decided here, once; how they look is decided in
 * decode_text.c and decode_json.c.
 */
#ifndef DPSCTP_DECODE_H
#define DPSCTP_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "drivers/net/frame.h"
#include "sctp/packet.h"

/* What the sink is told about the packet before its chunks. */
struct decode_head {
	uint64_t frame; /* 1-based, as tshark numbers frames */
	uint8_t ip_version;
	char src[48]; /* address text (inet_ntop) */
	char dst[48];
	bool have_ports;
	uint16_t sport; /* SCTP ports */
	uint16_t dport;
	bool udp_encap; /* RFC 6951: the outer UDP ports follow */
	uint16_t udp_sport;
	uint16_t udp_dport;
	bool have_header; /* the SCTP common header was captured */
	uint32_t vtag;
	uint32_t checksum;   /* the field as on the wire, read big-endian */
	const char *verdict; /* "ok" | "bad" | "zero" | "adler32"; NULL if not verified */
};

/*
 * The sink. A key of NULL marks a list element. Objects appear only as list
 * elements; lists are keyed members of the packet, a chunk or an object.
 * A sink renders every event it receives: the two outputs carry the same facts.
 */
struct decode_sink {
	void *ctx;
	void (*packet_begin)(void *ctx, const struct decode_head *h);
	void (*chunks_begin)(void *ctx);
	void (*chunk_begin)(void *ctx, const char *type_name, uint8_t type, uint8_t flags,
			    uint16_t length);
	void (*chunk_end)(void *ctx);
	void (*chunks_end)(void *ctx);
	/* error: the first reason the packet is malformed, NULL when it is not. */
	void (*packet_end)(void *ctx, const char *error);

	void (*num)(void *ctx, const char *key, uint64_t v);
	/* A number people read in hex (tags, type codes): digits wide in text, a number in JSON. */
	void (*hex)(void *ctx, const char *key, uint64_t v, unsigned digits);
	void (*str)(void *ctx, const char *key, const char *s);
	/* Peer bytes shown as a string; the sink escapes them. */
	void (*bytes)(void *ctx, const char *key, const uint8_t *p, size_t n);
	void (*list_begin)(void *ctx, const char *key);
	void (*list_end)(void *ctx);
	void (*obj_begin)(void *ctx);
	void (*obj_end)(void *ctx);
};

/* Shorthands for the producers (decode*.c). */
static inline void
decode_num(const struct decode_sink *s, const char *key, uint64_t v)
{
	s->num(s->ctx, key, v);
}

static inline void
decode_hex(const struct decode_sink *s, const char *key, uint64_t v, unsigned digits)
{
	s->hex(s->ctx, key, v, digits);
}

static inline void
decode_str(const struct decode_sink *s, const char *key, const char *v)
{
	s->str(s->ctx, key, v);
}

static inline void
decode_bytes(const struct decode_sink *s, const char *key, const uint8_t *p, size_t n)
{
	s->bytes(s->ctx, key, p, n);
}

static inline void
decode_list_begin(const struct decode_sink *s, const char *key)
{
	s->list_begin(s->ctx, key);
}

static inline void
decode_list_end(const struct decode_sink *s)
{
	s->list_end(s->ctx);
}

static inline void
decode_obj_begin(const struct decode_sink *s)
{
	s->obj_begin(s->ctx);
}

static inline void
decode_obj_end(const struct decode_sink *s)
{
	s->obj_end(s->ctx);
}

/* Address text for an IPv4 (len 4) or IPv6 (len 16) address. */
void decode_addr_text(char *dst, size_t cap, const uint8_t *addr, unsigned len);

struct decode_options {
	bool verify; /* compute the checksum verdict (--no-verify clears it) */
};

struct decode_stats {
	uint64_t frames;    /* packets read from the file */
	uint64_t sctp;	    /* of which carry SCTP (printed) */
	uint64_t malformed; /* of which had an "error" */
	uint64_t verdict_ok;
	uint64_t verdict_bad;
	uint64_t verdict_zero;
	uint64_t verdict_adler32;
	uint64_t unverified;
};

/*
 * Decode one frame of caplen bytes. Frames that do not carry SCTP are counted
 * in stats->frames and otherwise ignored; SCTP frames, malformed or not, are
 * described to the sink.
 */
void decode_frame(const struct decode_options *opt, const struct decode_sink *sink,
		  struct decode_stats *stats, uint64_t frame_no, enum net_frame_link link,
		  const uint8_t *buf, size_t caplen);

/* The chunk-level facts (decode_chunk.c): returns the first error name or NULL. */
const char *decode_chunk(const struct decode_sink *sink, const struct sctp_chunk *c);

/*
 * A list of parameters or error causes under key (decode_tlv.c); each TLV an
 * object. depth counts nesting (TLVs inside TLVs) and is bounded. Returns
 * the first error name or NULL.
 */
const char *decode_tlv_list(const struct decode_sink *sink, const char *key,
			    enum sctp_tlv_kind kind, const uint8_t *buf, size_t len,
			    unsigned depth);

/* Sinks; each writes to out and keeps its nesting state in *ctx. */
#define DECODE_MAX_DEPTH 16

struct decode_text_ctx {
	FILE *out;
	bool need_sep[DECODE_MAX_DEPTH]; /* a separator before the next item */
	bool in_list[DECODE_MAX_DEPTH];	 /* this level is a list, not an object */
	unsigned depth;
};
struct decode_sink decode_text_sink(struct decode_text_ctx *ctx, FILE *out);

struct decode_json_ctx {
	FILE *out;
	bool need_comma[DECODE_MAX_DEPTH];
	unsigned depth;
};
struct decode_sink decode_json_sink(struct decode_json_ctx *ctx, FILE *out);

#endif /* DPSCTP_DECODE_H */
