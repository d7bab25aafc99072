/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The capture reader: libpcap opens the file (pcap or pcapng), the link
 * type is mapped to drivers/net/frame.h's, and every record is decoded.
 */
#include "apps/dpsctp-decode/capture.h"

#include <inttypes.h>
#include <pcap/pcap.h>

static enum decode_capture_result
read_all(pcap_t *p, const struct decode_options *opt, const struct decode_sink *sink,
	 struct decode_stats *st, char *err, size_t errlen)
{
	enum net_frame_link link;
	int linktype = pcap_datalink(p);
	if (!net_frame_link_from_linktype(linktype, &link)) {
		const char *name = pcap_datalink_val_to_name(linktype);
		snprintf(err, errlen, "link type %d (%s) is not supported", linktype,
			 name != NULL ? name : "unknown");
		pcap_close(p);
		return DECODE_CAPTURE_UNREADABLE;
	}

	enum decode_capture_result rc = DECODE_CAPTURE_OK;
	uint64_t frame_no = 0;
	for (;;) {
		struct pcap_pkthdr *hdr;
		const u_char *data;
		int r = pcap_next_ex(p, &hdr, &data);
		if (r == PCAP_ERROR_BREAK)
			break;
		if (r != 1) {
			/* A damaged record: what came before it has been decoded. */
			snprintf(err, errlen, "after frame %" PRIu64 ": %s", frame_no,
				 pcap_geterr(p));
			rc = DECODE_CAPTURE_DAMAGED;
			break;
		}
		frame_no++;
		decode_frame(opt, sink, st, frame_no, link, data, hdr->caplen);
	}
	pcap_close(p);
	return rc;
}

enum decode_capture_result
decode_capture_path(const char *path, const struct decode_options *opt,
		    const struct decode_sink *sink, struct decode_stats *st, char *err,
		    size_t errlen)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path, errbuf);

	if (p == NULL) {
		snprintf(err, errlen, "%s", errbuf);
		return DECODE_CAPTURE_UNREADABLE;
	}
	return read_all(p, opt, sink, st, err, errlen);
}

enum decode_capture_result
decode_capture_stream(FILE *f, const struct decode_options *opt, const struct decode_sink *sink,
		      struct decode_stats *st, char *err, size_t errlen)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_fopen_offline(f, errbuf);

	if (p == NULL) {
		fclose(f);
		snprintf(err, errlen, "%s", errbuf);
		return DECODE_CAPTURE_UNREADABLE;
	}
	return read_all(p, opt, sink, st, err, errlen);
}
