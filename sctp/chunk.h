/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The chunk codecs, one file per chunk type (RFC 9260 §3.3 and the
 * extensions named in sctp/wire.h), and what spans them all: type names,
 * validation by dispatch, and parse-then-build for round-trip checks.
 *
 * Every codec has the same shape:
 *   enum sctp_parse_err sctp_<x>_parse(const struct sctp_chunk *c, struct sctp_<x> *out);
 *   void sctp_<x>_build(struct sctp_writer *w, const struct sctp_<x> *in);
 * The parser takes a chunk the walker (sctp/packet.h) yielded, allocates
 * nothing and leaves variable parts as views into the packet; the builder
 * writes header, value and padding, an overflow being the writer's sticky
 * error. Each struct keeps the raw chunk flags (and the type, where a file
 * handles several types), so build(parse(x)) == x for every canonical x.
 */
#ifndef SCTP_CHUNK_H
#define SCTP_CHUNK_H

#include <stdint.h>

#include "sctp/packet.h"
#include "sctp/param.h"
#include "sctp/cause.h"
#include "sctp/chunk_abort.h"
#include "sctp/chunk_asconf.h"
#include "sctp/chunk_auth.h"
#include "sctp/chunk_cookie.h"
#include "sctp/chunk_data.h"
#include "sctp/chunk_ecn.h"
#include "sctp/chunk_error.h"
#include "sctp/chunk_forward_tsn.h"
#include "sctp/chunk_heartbeat.h"
#include "sctp/chunk_idata.h"
#include "sctp/chunk_init.h"
#include "sctp/chunk_pad.h"
#include "sctp/chunk_reconfig.h"
#include "sctp/chunk_sack.h"
#include "sctp/chunk_shutdown.h"

/*
 * Upper-case name with underscores, as tshark spells it ("DATA", "INIT_ACK",
 * "RE_CONFIG", "I_FORWARD_TSN", ...); "UNKNOWN" for unassigned types.
 */
const char *sctp_chunk_type_name(uint8_t type);

/*
 * Run the parser of c->type and return its verdict. Types without a parser
 * here (unknown ones, PKTDROP) are SCTP_PERR_OK: what to do with them is
 * SCTP_UNKNOWN_ACTION_OF_CHUNK(type), the caller's decision. A length below
 * the chunk header, which the walker never yields but a hand-made chunk may
 * carry, is SCTP_PERR_CHUNK_LEN_SHORT for every type.
 */
enum sctp_parse_err sctp_chunk_validate(const struct sctp_chunk *c);

/*
 * Parse c with its type's parser and write it back with its builder. Chunks
 * without a parser, and chunks that fail to parse, are copied verbatim
 * (header, value, zero padding); call sctp_chunk_validate() first to tell
 * them apart. For round-trip tests, corpus replay and the fuzzer.
 */
void sctp_chunk_rebuild(struct sctp_writer *w, const struct sctp_chunk *c);

#endif /* SCTP_CHUNK_H */
