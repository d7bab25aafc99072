/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One frame: link/IP/UDP headers (drivers/net/frame.h), the checksum verdict
 * (drivers/crc32c), the common header and the chunk walk (sctp/packet.h);
 * each chunk's facts come from decode_chunk.c. A malformed packet is
 * described as far as it is well formed, with the first reason it is not.
 */
#include "apps/dpsctp-decode/decode.h"

#include <arpa/inet.h>
#include <sys/socket.h>

#include "drivers/crc32c/crc32c.h"
#include "sctp/packet.h"

void
decode_addr_text(char *dst, size_t cap, const uint8_t *addr, unsigned len)
{
	if (inet_ntop(len == 4 ? AF_INET : AF_INET6, addr, dst, (socklen_t)cap) == NULL)
		snprintf(dst, cap, "?");
}

static void
count_verdict(struct decode_stats *st, const struct decode_head *h)
{
	if (!h->have_header)
		return;
	if (h->verdict == NULL) {
		st->unverified++;
		return;
	}
	switch (h->verdict[0]) {
	case 'o':
		st->verdict_ok++;
		break;
	case 'z':
		st->verdict_zero++;
		break;
	case 'a':
		st->verdict_adler32++;
		break;
	default:
		st->verdict_bad++;
		break;
	}
}

void
decode_frame(const struct decode_options *opt, const struct decode_sink *sink,
	     struct decode_stats *stats, uint64_t frame_no, enum net_frame_link link,
	     const uint8_t *buf, size_t caplen)
{
	struct net_frame f;
	enum net_frame_err ferr = net_frame_parse(&f, link, buf, caplen);

	stats->frames++;
	if (ferr != NET_FRAME_OK && !f.is_sctp)
		return; /* not SCTP: counted, not shown */
	stats->sctp++;

	struct decode_head h = { 0 };
	const char *error = ferr == NET_FRAME_OK ? NULL : net_frame_err_name(ferr);

	h.frame = frame_no;
	h.ip_version = f.ip_version;
	decode_addr_text(h.src, sizeof(h.src), f.src_addr, f.ip_version == 4 ? 4 : 16);
	decode_addr_text(h.dst, sizeof(h.dst), f.dst_addr, f.ip_version == 4 ? 4 : 16);
	h.udp_encap = f.udp_encap;
	h.udp_sport = f.udp_src_port;
	h.udp_dport = f.udp_dst_port;

	/*
	 * The chunks of a capture cut short are still shown as far as they
	 * were captured; a fragment or a bad UDP length leaves nothing to walk.
	 */
	size_t avail = 0;
	if (ferr == NET_FRAME_OK) {
		avail = f.sctp_len;
	} else if (ferr == NET_FRAME_ERR_CAPTURE_TRUNCATED && f.sctp_offset <= caplen) {
		avail = caplen - f.sctp_offset;
		if (avail > f.sctp_len)
			avail = f.sctp_len;
	}

	struct sctp_packet pkt;
	const uint8_t *sctp = buf + f.sctp_offset;
	if (ferr == NET_FRAME_OK || avail > 0) {
		enum sctp_parse_err perr = sctp_packet_parse(&pkt, sctp, avail);
		if (perr == SCTP_PERR_OK) {
			h.have_header = true;
			h.vtag = pkt.vtag;
			h.checksum = pkt.checksum;
			h.have_ports = true;
			h.sport = pkt.src_port;
			h.dport = pkt.dst_port;
		} else if (error == NULL) {
			error = sctp_parse_err_name(perr);
		}
	}
	if (!h.have_ports && f.sctp_len >= 4 && f.src_port != 0) {
		h.have_ports = true;
		h.sport = f.src_port;
		h.dport = f.dst_port;
	}
	/* Only a whole packet has a checksum to verify. */
	if (h.have_header && ferr == NET_FRAME_OK && opt->verify)
		h.verdict = crc32c_verdict_name(crc32c_sctp_verify(sctp, f.sctp_len));

	sink->packet_begin(sink->ctx, &h);
	sink->chunks_begin(sink->ctx);
	if (h.have_header) {
		struct sctp_chunk_iter it;
		struct sctp_chunk c;

		sctp_chunk_iter_init(&it, &pkt);
		while (sctp_chunk_iter_next(&it, &c)) {
			const char *cerr = decode_chunk(sink, &c);
			if (error == NULL)
				error = cerr;
		}
		if (error == NULL && it.err != SCTP_PERR_OK)
			error = sctp_parse_err_name(it.err);
	}
	sink->chunks_end(sink->ctx);
	sink->packet_end(sink->ctx, error);

	if (error != NULL)
		stats->malformed++;
	count_verdict(stats, &h);
}
