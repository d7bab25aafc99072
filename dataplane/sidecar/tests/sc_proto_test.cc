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

} // namespace
