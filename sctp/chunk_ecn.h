/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECN Echo (ECNE, type 12) and Congestion Window Reduced (CWR, type 13),
 * RFC 9260 Appendix A.
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Type = 12/13  |  Chunk Flags  |          Length = 8           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Lowest TSN Number                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |       Number of Packets Since CWR (ECNE of length 12 only)    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * RFC 9260 gives both chunks a Length of 8. The FreeBSD stack (and so
 * usrsctp, our interop peer) sends a 12-byte ECNE with a count of CE-marked
 * packets (draft-stewart-tsvwg-sctpecn) and accepts both forms, so this codec
 * accepts ECNE of Length 8 or 12 and keeps which one it saw. CWR is exactly 8.
 * Any other length is SCTP_PERR_CHUNK_LEN_EXACT.
 */
#ifndef SCTP_CHUNK_ECN_H
#define SCTP_CHUNK_ECN_H

#include <stdbool.h>
#include <stdint.h>

#include "sctp/packet.h"

#define SCTP_ECNE_LONG_FIXED_LEN 8u /* lowest TSN, packets since CWR */

struct sctp_ecn {
	uint8_t type;	    /* SCTP_CHUNK_ECNE or SCTP_CHUNK_CWR */
	uint8_t flags;	    /* raw chunk flags */
	bool has_pkt_count; /* ECNE of Length 12 */
	uint32_t lowest_tsn;
	uint32_t pkts_since_cwr; /* when has_pkt_count; else 0 */
};

enum sctp_parse_err sctp_ecn_parse(const struct sctp_chunk *c, struct sctp_ecn *out);

/* The whole chunk of type in->type; the count is written for an ECNE with has_pkt_count. */
void sctp_ecn_build(struct sctp_writer *w, const struct sctp_ecn *in);

#endif /* SCTP_CHUNK_ECN_H */
