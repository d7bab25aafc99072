/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * JSON Lines output: one object per SCTP packet, written as the decoder
 * describes it. Keys and values are escaped per RFC 8259 §7; bytes from the
 * peer that are not printable ASCII are written as \u00XX, so the output is
 * valid UTF-8 whatever the packet holds.
 */
#include "apps/dpsctp-decode/decode.h"

#include <inttypes.h>

static void
json_string(FILE *out, const uint8_t *p, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		uint8_t ch = p[i];
		switch (ch) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (ch < 0x20 || ch >= 0x7f)
				fprintf(out, "\\u%04x", ch);
			else
				fputc(ch, out);
			break;
		}
	}
	fputc('"', out);
}

static void
json_cstring(FILE *out, const char *s)
{
	size_t n = 0;

	while (s[n] != '\0')
		n++;
	json_string(out, (const uint8_t *)s, n);
}

/* The comma before an item, and the key of a member (NULL: a list element). */
static void
json_item(struct decode_json_ctx *j, const char *key)
{
	if (j->need_comma[j->depth])
		fputc(',', j->out);
	j->need_comma[j->depth] = true;
	if (key != NULL) {
		json_cstring(j->out, key);
		fputc(':', j->out);
	}
}

static void
json_open(struct decode_json_ctx *j, char bracket)
{
	fputc(bracket, j->out);
	/* Nesting is bounded by the decoder (decode_tlv.c); the guard only
	 * keeps the stack inside its array should that ever change. */
	if (j->depth + 1 < DECODE_MAX_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void
json_close(struct decode_json_ctx *j, char bracket)
{
	fputc(bracket, j->out);
	if (j->depth > 0)
		j->depth--;
}

static void
json_num(void *ctx, const char *key, uint64_t v)
{
	struct decode_json_ctx *j = ctx;

	json_item(j, key);
	fprintf(j->out, "%" PRIu64, v);
}

static void
json_hex(void *ctx, const char *key, uint64_t v, unsigned digits)
{
	(void)digits;
	json_num(ctx, key, v);
}

static void
json_str(void *ctx, const char *key, const char *s)
{
	struct decode_json_ctx *j = ctx;

	json_item(j, key);
	if (s == NULL)
		fputs("null", j->out);
	else
		json_cstring(j->out, s);
}

static void
json_bytes(void *ctx, const char *key, const uint8_t *p, size_t n)
{
	struct decode_json_ctx *j = ctx;

	json_item(j, key);
	json_string(j->out, p, n);
}

static void
json_list_begin(void *ctx, const char *key)
{
	struct decode_json_ctx *j = ctx;

	json_item(j, key);
	json_open(j, '[');
}

static void
json_list_end(void *ctx)
{
	json_close(ctx, ']');
}

static void
json_obj_begin(void *ctx)
{
	struct decode_json_ctx *j = ctx;

	json_item(j, NULL);
	json_open(j, '{');
}

static void
json_obj_end(void *ctx)
{
	json_close(ctx, '}');
}

static void
json_packet_begin(void *ctx, const struct decode_head *h)
{
	struct decode_json_ctx *j = ctx;

	j->depth = 0;
	j->need_comma[0] = false;
	json_open(j, '{');
	json_num(j, "frame", h->frame);
	json_num(j, "ip_version", h->ip_version);
	json_str(j, "src", h->src);
	json_str(j, "dst", h->dst);
	if (h->have_ports) {
		json_num(j, "sport", h->sport);
		json_num(j, "dport", h->dport);
	}
	if (h->udp_encap) {
		json_num(j, "udp_sport", h->udp_sport);
		json_num(j, "udp_dport", h->udp_dport);
	}
	if (h->have_header) {
		json_num(j, "vtag", h->vtag);
		json_num(j, "checksum_value", h->checksum);
	}
	json_str(j, "checksum", h->verdict);
}

static void
json_chunks_begin(void *ctx)
{
	json_list_begin(ctx, "chunks");
}

static void
json_chunk_begin(void *ctx, const char *type_name, uint8_t type, uint8_t flags, uint16_t length)
{
	json_obj_begin(ctx);
	json_str(ctx, "type", type_name);
	json_num(ctx, "type_id", type);
	json_num(ctx, "flags", flags);
	json_num(ctx, "length", length);
}

static void
json_packet_end(void *ctx, const char *error)
{
	struct decode_json_ctx *j = ctx;

	json_str(j, "error", error);
	json_close(j, '}');
	fputc('\n', j->out);
}

struct decode_sink
decode_json_sink(struct decode_json_ctx *ctx, FILE *out)
{
	ctx->out = out;
	ctx->depth = 0;
	ctx->need_comma[0] = false;
	struct decode_sink s = {
		.ctx = ctx,
		.packet_begin = json_packet_begin,
		.chunks_begin = json_chunks_begin,
		.chunk_begin = json_chunk_begin,
		.chunk_end = json_obj_end,
		.chunks_end = json_list_end,
		.packet_end = json_packet_end,
		.num = json_num,
		.hex = json_hex,
		.str = json_str,
		.bytes = json_bytes,
		.list_begin = json_list_begin,
		.list_end = json_list_end,
		.obj_begin = json_obj_begin,
		.obj_end = json_obj_end,
	};
	return s;
}
