/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Text output: one line per SCTP packet, for people.
 *
 *   12 10.0.0.1:5000 > 10.0.0.2:80 vtag=0x0000eb00 checksum=ok
 *      [DATA flags=0x03 len=116 tsn=7 sid=0 ssn=2 ppid=3 payload_len=100]
 *      [SACK flags=0x00 len=20 cum_tsn=6 a_rwnd=65536 gaps=[{start=2 end=3}] dups=[]]
 *
 * (one line in the output; wrapped here). Members are separated by spaces,
 * list elements by commas; peer bytes are quoted with C escapes.
 */
#include "apps/dpsctp-decode/decode.h"

#include <inttypes.h>
#include <string.h>

/* The separator before an item at the current depth. */
static void
text_item(struct decode_text_ctx *t, const char *key, char sep)
{
	if (t->need_sep[t->depth])
		fputc(sep, t->out);
	t->need_sep[t->depth] = true;
	if (key != NULL)
		fprintf(t->out, "%s=", key);
}

/* List elements are separated by commas, members of a chunk or object by spaces. */
static char
text_sep(const struct decode_text_ctx *t)
{
	return t->in_list[t->depth] ? ',' : ' ';
}

static void
text_push(struct decode_text_ctx *t, bool list)
{
	if (t->depth + 1 < DECODE_MAX_DEPTH)
		t->depth++;
	t->need_sep[t->depth] = false;
	t->in_list[t->depth] = list;
}

static void
text_pop(struct decode_text_ctx *t)
{
	if (t->depth > 0)
		t->depth--;
}

static void
text_num(void *ctx, const char *key, uint64_t v)
{
	struct decode_text_ctx *t = ctx;

	text_item(t, key, text_sep(t));
	fprintf(t->out, "%" PRIu64, v);
}

static void
text_hex(void *ctx, const char *key, uint64_t v, unsigned digits)
{
	struct decode_text_ctx *t = ctx;

	text_item(t, key, text_sep(t));
	fprintf(t->out, "0x%0*" PRIx64, (int)digits, v);
}

static void
text_str(void *ctx, const char *key, const char *s)
{
	struct decode_text_ctx *t = ctx;

	text_item(t, key, text_sep(t));
	fputs(s != NULL ? s : "-", t->out);
}

static void
text_bytes(void *ctx, const char *key, const uint8_t *p, size_t n)
{
	struct decode_text_ctx *t = ctx;

	text_item(t, key, text_sep(t));
	fputc('"', t->out);
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '"' || p[i] == '\\')
			fprintf(t->out, "\\%c", p[i]);
		else if (p[i] < 0x20 || p[i] >= 0x7f)
			fprintf(t->out, "\\x%02x", p[i]);
		else
			fputc(p[i], t->out);
	}
	fputc('"', t->out);
}

static void
text_list_begin(void *ctx, const char *key)
{
	struct decode_text_ctx *t = ctx;

	text_item(t, key, text_sep(t));
	fputc('[', t->out);
	text_push(t, true);
}

static void
text_list_end(void *ctx)
{
	struct decode_text_ctx *t = ctx;

	fputc(']', t->out);
	text_pop(t);
}

static void
text_obj_begin(void *ctx)
{
	struct decode_text_ctx *t = ctx;

	text_item(t, NULL, text_sep(t));
	fputc('{', t->out);
	text_push(t, false);
}

static void
text_obj_end(void *ctx)
{
	struct decode_text_ctx *t = ctx;

	fputc('}', t->out);
	text_pop(t);
}

static void
text_endpoint(FILE *out, const struct decode_head *h, const char *addr, uint16_t port)
{
	if (h->ip_version == 6)
		fprintf(out, "[%s]", addr);
	else
		fputs(addr, out);
	if (h->have_ports)
		fprintf(out, ":%u", port);
}

static void
text_packet_begin(void *ctx, const struct decode_head *h)
{
	struct decode_text_ctx *t = ctx;

	t->depth = 0;
	t->need_sep[0] = true;
	t->in_list[0] = false;
	fprintf(t->out, "%" PRIu64 " ", h->frame);
	text_endpoint(t->out, h, h->src, h->sport);
	fputs(" > ", t->out);
	text_endpoint(t->out, h, h->dst, h->dport);
	if (h->udp_encap)
		fprintf(t->out, " udp=%u>%u", h->udp_sport, h->udp_dport);
	if (h->have_header)
		fprintf(t->out, " vtag=0x%08" PRIx32 " checksum=%s", h->vtag,
			h->verdict != NULL ? h->verdict : "unverified");
}

static void
text_chunks_begin(void *ctx)
{
	(void)ctx;
}

static void
text_chunk_begin(void *ctx, const char *type_name, uint8_t type, uint8_t flags, uint16_t length)
{
	struct decode_text_ctx *t = ctx;

	fprintf(t->out, " [%s", type_name);
	if (strcmp(type_name, "UNKNOWN") == 0 || strcmp(type_name, "IETF_EXTENSION") == 0)
		fprintf(t->out, "(%u)", type);
	fprintf(t->out, " flags=0x%02x len=%u", flags, length);
	text_push(t, false);
	t->need_sep[t->depth] = true;
}

static void
text_chunk_end(void *ctx)
{
	struct decode_text_ctx *t = ctx;

	fputc(']', t->out);
	text_pop(t);
}

static void
text_chunks_end(void *ctx)
{
	(void)ctx;
}

static void
text_packet_end(void *ctx, const char *error)
{
	struct decode_text_ctx *t = ctx;

	if (error != NULL)
		fprintf(t->out, " error=%s", error);
	fputc('\n', t->out);
}

struct decode_sink
decode_text_sink(struct decode_text_ctx *ctx, FILE *out)
{
	ctx->out = out;
	ctx->depth = 0;
	struct decode_sink s = {
		.ctx = ctx,
		.packet_begin = text_packet_begin,
		.chunks_begin = text_chunks_begin,
		.chunk_begin = text_chunk_begin,
		.chunk_end = text_chunk_end,
		.chunks_end = text_chunks_end,
		.packet_end = text_packet_end,
		.num = text_num,
		.hex = text_hex,
		.str = text_str,
		.bytes = text_bytes,
		.list_begin = text_list_begin,
		.list_end = text_list_end,
		.obj_begin = text_obj_begin,
		.obj_end = text_obj_end,
	};
	return s;
}
