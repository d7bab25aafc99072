// SPDX-License-Identifier: BSD-3-Clause
// The sidecar's slot formats (dataplane/sidecar/sc_proto.h): each fills one
// 64-byte slot, well-formed requests and events pass, and every malformed
// field a broken application or daemon could write is -EPROTO.
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
	r.port = 5001;
	r.assoc = 42;
	r.len = 100;
	return r;
}

TEST(ScProto, WellFormedRequestsPass)
{
	EXPECT_EQ(sizeof(struct sc_req), SC_SLOT_BYTES);
	EXPECT_EQ(sizeof(struct sc_evt), SC_SLOT_BYTES);
	EXPECT_EQ(sizeof(struct sc_cpl), SC_SLOT_BYTES);
	for (uint8_t op = SC_OP_LISTEN; op < SC_OP_COUNT; op++) {
		struct sc_req r = req(op);
		if (op == SC_OP_CONNECT)
			r.len = 2 * sizeof(struct sc_addr);
		EXPECT_EQ(sc_req_check(&r, kArena), 0) << "op " << (int)op;
	}
	struct sc_req r = req(SC_OP_SEND);
	r.flags = SC_SEND_UNORDERED | SC_SEND_SACK_NOW;
	r.len = kArena; // as large as the arena
	EXPECT_EQ(sc_req_check(&r, kArena), 0);
}

TEST(ScProto, MalformedRequestsAreProtocolErrors)
{
	struct sc_req r = req(0);
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO); // no op
	r = req(SC_OP_COUNT);
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO); // unknown op
	r = req(SC_OP_SEND);
	r.flags = 0x80;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO); // unknown flag
	r = req(SC_OP_SEND);
	r.reserved[19] = 1;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO); // reserved not zero
	r = req(SC_OP_SEND);
	r.len = 0;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO); // empty message
	r.len = kArena + 1;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO); // larger than the arena
	r = req(SC_OP_SEND);
	r.off = kArena;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO); // outside the arena
	r = req(SC_OP_CONNECT);
	r.len = 21;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO); // not whole addresses
	r.len = 5 * sizeof(struct sc_addr);
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO); // more than SC_MAX_ADDRS
	r = req(SC_OP_LISTEN);
	r.port = 0;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO);
	r = req(SC_OP_ABORT);
	r.assoc = 0;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO);
}

TEST(ScProto, EventsAreChecked)
{
	struct sc_evt e;
	memset(&e, 0, sizeof(e));
	e.type = SC_EVT_RECV;
	e.assoc = 9;
	e.len = 10;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.flags = SC_RECV_MORE | SC_RECV_UNORDERED;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.flags = 0x10;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
	e.flags = 0;
	e.off = kArena;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
	e.off = 0;
	e.assoc = 0;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
	e.type = SC_EVT_DAEMON_STOPPING; // the only event of no association
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.type = SC_EVT_COUNT;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
}

// The parts of a message are marked both ways (MORE, CONT);
// COMM_UP names the peer (an IPv4 or IPv6 address, never none); the
// address's padding is checked like the reserved bytes.
TEST(ScProto, PartsAndWhoAnAssociationIsWith)
{
	struct sc_evt e;
	memset(&e, 0, sizeof(e));
	e.type = SC_EVT_RECV;
	e.assoc = 9;
	e.len = 10;
	e.flags = SC_RECV_CONT;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.flags = SC_RECV_CONT | SC_RECV_MORE | SC_RECV_ZC;
	e.len = sizeof(struct sc_zc_ref);
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);

	memset(&e, 0, sizeof(e));
	e.type = SC_EVT_COMM_UP;
	e.assoc = 9;
	e.port = 49152;
	e.peer_port = 5001;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO); // who is it with?
	e.peer.family = 4;
	e.peer.bytes[0] = 10;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.peer.family = 5;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
	e.peer.family = 6;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.peer.pad[1] = 1;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
	e.peer.pad[1] = 0;

	// CANT_START may know no address; its reason and cause travel as given.
	memset(&e, 0, sizeof(e));
	e.type = SC_EVT_CANT_START;
	e.assoc = 9;
	e.reason = 4; // DPSCTP_REASON_T1_INIT
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.reserved[5] = 1;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
}

} // namespace
