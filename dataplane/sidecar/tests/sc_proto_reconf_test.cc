// SPDX-License-Identifier: BSD-3-Clause
// The sidecar's version 6 slots (dataplane/sidecar/sc_proto.h): stream
// reconfiguration's requests (RESET_STREAMS with its stream list in the tx
// arena, ADD_STREAMS, RESET_ASSOC) and events (STREAM_RESET with its list
// in the rx arena, ASSOC_RESET's two TSNs, STREAM_CHANGE's counts), and the
// zero-byte RECV that ends a message its sender abandoned (SC_RECV_ABORTED):
// well-formed ones pass, every malformed field is -EPROTO.
#include <gtest/gtest.h>

#include <cstring>

#include "dataplane/sidecar/sc_proto.h"

namespace {

const uint64_t kArena = 1 << 20;

struct sc_req
req(uint8_t op)
{
	struct sc_req r;
	memset(&r, 0, sizeof(r));
	r.op = op;
	r.assoc = 42;
	return r;
}

struct sc_evt
evt(uint8_t type)
{
	struct sc_evt e;
	memset(&e, 0, sizeof(e));
	e.type = type;
	e.assoc = 9;
	return e;
}

TEST(ScProtoReconf, Version)
{
	EXPECT_GE(SC_VERSION, 6u) << "a new wire format needs a new version";
	EXPECT_EQ(SC_RECONF_MAX_STREAMS, 32u) << "the core's SCTP_RECONF_MAX_STREAMS";
}

TEST(ScProtoReconf, ResetStreamsRequest)
{
	struct sc_req r = req(SC_OP_RESET_STREAMS);
	for (uint32_t v :
	     { SC_RESET_INCOMING, SC_RESET_OUTGOING, SC_RESET_INCOMING | SC_RESET_OUTGOING }) {
		r.value = v;
		EXPECT_EQ(sc_req_check(&r, kArena), 0) << v << ": len 0, every stream";
	}
	r.len = 2 * SC_RECONF_MAX_STREAMS;
	EXPECT_EQ(sc_req_check(&r, kArena), 0);
	r.len = 2 * SC_RECONF_MAX_STREAMS + 2;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "more than 32 streams";
	r.len = 3;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "half a stream";
	r.len = 2;
	r.off = kArena;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "outside the arena";
	r.off = 0;
	r.value = 0;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "no direction";
	r.value = 0x04;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "an unknown flag";
	r.value = SC_RESET_OUTGOING;
	r.assoc = 0;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "no association";
}

TEST(ScProtoReconf, AddStreamsAndResetAssocRequests)
{
	struct sc_req r = req(SC_OP_ADD_STREAMS);
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "nothing to add";
	r.value = 2;
	EXPECT_EQ(sc_req_check(&r, kArena), 0);
	r.value = 3u << 16;
	EXPECT_EQ(sc_req_check(&r, kArena), 0);
	r.assoc = 0;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO);
	r = req(SC_OP_RESET_ASSOC);
	EXPECT_EQ(sc_req_check(&r, kArena), 0);
	r.value = 1;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "value is not RESET_ASSOC's";
	r.value = 0;
	r.assoc = 0;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO);
}

TEST(ScProtoReconf, Events)
{
	struct sc_evt e = evt(SC_EVT_STREAM_RESET);
	e.flags = SC_RESET_INCOMING_SSN;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0) << "len 0: every stream";
	e.len = 2 * SC_RECONF_MAX_STREAMS;
	e.off = 128;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.len = 2 * SC_RECONF_MAX_STREAMS + 2;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO) << "more than one event lists";
	e.len = 5;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
	e.len = 2;
	e.off = kArena;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
	e.off = 0;
	e.flags = SC_RESET_OUTGOING_SSN | SC_RESET_DENIED | SC_RESET_FAILED;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.flags = 0x10;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO) << "not a reset flag";

	e = evt(SC_EVT_ASSOC_RESET);
	e.ppid = 0x11111111;
	e.mid = 0xfffffff0;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0) << "the two TSNs";
	e = evt(SC_EVT_STREAM_CHANGE);
	e.sid = 70;
	e.ssn = 66;
	e.flags = SC_RESET_DENIED;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.mid = 1;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO) << "mid is RECV's and ASSOC_RESET's";
	e.mid = 0;
	e.assoc = 0;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);

	// The reset flags are not another event's.
	e = evt(SC_EVT_COMM_LOST);
	e.flags = SC_RESET_DENIED;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
}

// A message in parts its sender abandoned ends with a RECV of no bytes,
// SC_RECV_CONT | SC_RECV_ABORTED; no other RECV is empty.
TEST(ScProtoReconf, AbortedRecv)
{
	struct sc_evt e = evt(SC_EVT_RECV);
	e.flags = SC_RECV_CONT | SC_RECV_ABORTED;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.flags = SC_RECV_CONT | SC_RECV_ABORTED | SC_RECV_UNORDERED;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.flags = SC_RECV_ABORTED;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO) << "it ends a message begun earlier";
	e.flags = SC_RECV_CONT | SC_RECV_ABORTED | SC_RECV_ZC;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO) << "no bytes to refer to";
	e.flags = SC_RECV_CONT | SC_RECV_ABORTED;
	e.len = 1;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO) << "no bytes";
	e.len = 0;
	e.off = 64;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
	e.off = 0;
	e.flags = SC_RECV_CONT;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO) << "an empty RECV that is not ABORTED";
	e = evt(SC_EVT_SEND_FAILED);
	e.flags = SC_RECV_ABORTED;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO) << "RECV's flag";
}

} // namespace
