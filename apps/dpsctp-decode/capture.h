/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reading a capture: a pcap or pcapng file (libpcap reads both) whose
 * frames go one by one to decode_frame(). Nothing here prints: the reason a
 * capture could not be read is returned as text, so the command (main.c)
 * and the fuzz target (fuzz/fuzz_decode.c) share the same reader.
 */
#ifndef DPSCTP_APPS_DECODE_CAPTURE_H
#define DPSCTP_APPS_DECODE_CAPTURE_H

#include <stddef.h>
#include <stdio.h>

#include "apps/dpsctp-decode/decode.h"

enum decode_capture_result {
	/* Every record was read and decoded. */
	DECODE_CAPTURE_OK,
	/* Not opened: not a capture, unreadable, or a link type we do not
	 * decode. Nothing was decoded. */
	DECODE_CAPTURE_UNREADABLE,
	/* A damaged record: the frames before it were decoded. */
	DECODE_CAPTURE_DAMAGED,
};

/*
 * Decodes the capture at @path ("-" is standard input). On a result other
 * than DECODE_CAPTURE_OK, @err holds the reason (without the path).
 */
enum decode_capture_result decode_capture_path(const char *path, const struct decode_options *opt,
					       const struct decode_sink *sink,
					       struct decode_stats *st, char *err, size_t errlen);

/*
 * The same for an open stream, which is closed on return whatever the
 * result (libpcap owns it once it is opened).
 */
enum decode_capture_result decode_capture_stream(FILE *f, const struct decode_options *opt,
						 const struct decode_sink *sink,
						 struct decode_stats *st, char *err, size_t errlen);

#endif
