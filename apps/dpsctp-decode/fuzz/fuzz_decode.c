/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: one capture file (pcap or pcapng, as dpsctp-decode
 * reads it) through the capture reader (capture.c, libpcap underneath),
 * the frame parser, the SCTP walker and every chunk and TLV decoder, into
 * both sinks. Properties checked beyond "no crash, no UB":
 *  - each sink writes exactly one line per SCTP packet (peer bytes are
 *    escaped, so no newline of theirs reaches the output);
 *  - the two sinks are told the same facts: their counts agree;
 *  - the counts are consistent (SCTP packets are frames; malformed ones
 *    and checksum verdicts are SCTP packets);
 *  - the input is never written (a copy is compared at the end).
 * Seeds: apps/dpsctp-decode/fuzz/seeds/, small pcap and pcapng files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/dpsctp-decode/capture.h"
#include "apps/dpsctp-decode/decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(int cond)
{
	if (!cond)
		abort();
}

static size_t
count_lines(const char *p, size_t n)
{
	size_t lines = 0;
	for (size_t i = 0; i < n; i++)
		lines += p[i] == '\n';
	return lines;
}

/* One pass of the reader with one sink; the sink's output is counted. */
static struct decode_stats
decode_once(const uint8_t *data, size_t size, bool json, size_t *lines)
{
	struct decode_stats st = { 0 };
	struct decode_options opt = { .verify = true };
	char err[512];
	char *out = NULL;
	size_t out_len = 0;

	*lines = 0;
	FILE *o = open_memstream(&out, &out_len);
	/* fmemopen wants a non-const buffer; the mode "rb" never writes it. */
	FILE *in = size > 0 ? fmemopen((void *)(uintptr_t)data, size, "rb") : NULL;
	if (o == NULL || in == NULL) {
		if (in != NULL)
			fclose(in);
		if (o != NULL)
			fclose(o);
		free(out);
		return st;
	}
	struct decode_text_ctx text_ctx;
	struct decode_json_ctx json_ctx;
	struct decode_sink sink =
		json ? decode_json_sink(&json_ctx, o) : decode_text_sink(&text_ctx, o);
	enum decode_capture_result r =
		decode_capture_stream(in, &opt, &sink, &st, err, sizeof(err));
	if (r != DECODE_CAPTURE_OK)
		check(memchr(err, '\0', sizeof(err)) != NULL && err[0] != '\0');
	if (r == DECODE_CAPTURE_UNREADABLE)
		check(st.frames == 0);
	check(fclose(o) == 0);
	*lines = count_lines(out, out_len);
	free(out);
	return st;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);

	size_t text_lines, json_lines;
	struct decode_stats t = decode_once(data, size, false, &text_lines);
	struct decode_stats j = decode_once(data, size, true, &json_lines);

	check(text_lines == t.sctp && json_lines == j.sctp);
	check(memcmp(&t, &j, sizeof(t)) == 0);
	check(t.sctp <= t.frames && t.malformed <= t.sctp);
	check(t.verdict_ok + t.verdict_bad + t.verdict_zero + t.verdict_adler32 + t.unverified <=
	      t.sctp);
	check(memcmp(copy, data, size) == 0);
	free(copy);
	return 0;
}
