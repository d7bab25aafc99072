// SPDX-License-Identifier: BSD-3-Clause
// The sidecar's slot formats (dataplane/sidecar/sc_proto.h): each fills one
// 64-byte slot, well-formed requests and events pass, and every malformed
// field a broken application or daemon could write is -EPROTO.
#include <gtest/gtest.h>

#include <cstddef>
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
		if (op == SC_OP_RESET_STREAMS) { // sc_proto_reconf_test has more
			r.value = SC_RESET_OUTGOING;
			r.len = 4;
		}
		if (op == SC_OP_ADD_STREAMS)
			r.value = 1;
		if (op == SC_OP_SETOPT || op == SC_OP_GETOPT) { // sc_proto_opts_test has more
			r.value = 1;
			r.port = 0;
			r.len = 12;
		}
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
	r.reserved[sizeof(r.reserved) - 1] = 1;
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
	e.mid = 1 << 24; // where version 4 had reserved bytes: a RECV's alone
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
}

// A SEND carries its PR-SCTP policy and value where version 3 had a
// lifetime and reserved bytes; the slot stays 64 bytes and the fields land
// where the daemon reads them. Any policy number is well-formed here: the
// data plane judges it (dpsctp_send()'s -EINVAL in the completion).
TEST(ScProto, SendCarriesItsPolicy)
{
	EXPECT_EQ(offsetof(struct sc_req, pr_policy), 40u);
	EXPECT_EQ(offsetof(struct sc_req, pr_value), 44u);
	EXPECT_EQ(offsetof(struct sc_req, reserved) + sizeof(((struct sc_req *)0)->reserved),
		  (size_t)SC_SLOT_BYTES);
	for (uint32_t p = SC_PR_NONE; p <= SC_PR_PRIO + 1; p++) {
		struct sc_req r = req(SC_OP_SEND);
		r.pr_policy = p;
		r.pr_value = 0xfffffffeu;
		EXPECT_EQ(sc_req_check(&r, kArena), 0) << "policy " << p;
		// Encoded as a byte image (what crosses the shared memory) and read back.
		uint8_t img[SC_SLOT_BYTES];
		memcpy(img, &r, sizeof(img));
		uint32_t pol, val;
		memcpy(&pol, img + 40, 4);
		memcpy(&val, img + 44, 4);
		EXPECT_EQ(pol, p);
		EXPECT_EQ(val, 0xfffffffeu);
	}
}

// SEND_FAILED says why (the policy, or 0: the association ended) and
// whether some of the message went out (SC_FAILED_SENT); COMM_UP and
// RESTART say what was negotiated. Those fields are zero in every other
// event, and a policy the protocol does not have is -EPROTO.
TEST(ScProto, SendFailedAndExtensions)
{
	struct sc_evt e;
	memset(&e, 0, sizeof(e));
	e.type = SC_EVT_SEND_FAILED;
	e.assoc = 9;
	e.len = 1000;
	e.pr_policy = SC_PR_TTL;
	e.flags = SC_FAILED_SENT;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	uint8_t img[SC_SLOT_BYTES];
	memcpy(img, &e, sizeof(img));
	EXPECT_EQ(img[58], SC_PR_TTL); // where version 3 had reserved bytes
	e.pr_policy = SC_PR_PRIO;
	e.flags = 0;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.pr_policy = SC_PR_PRIO + 1;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
	e.pr_policy = SC_PR_NONE; // left at the close
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.extensions = 0x02;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO); // not SEND_FAILED's

	memset(&e, 0, sizeof(e));
	e.type = SC_EVT_COMM_UP;
	e.assoc = 9;
	e.peer.family = 4;
	e.extensions = 0x02;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	memcpy(img, &e, sizeof(img));
	EXPECT_EQ(img[59], 0x02);
	e.type = SC_EVT_RESTART;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.pr_policy = SC_PR_TTL;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO); // not RESTART's
	e.pr_policy = 0;
	e.flags = SC_FAILED_SENT;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO);
	e.flags = 0;
	e.type = SC_EVT_RECV;
	e.len = 10;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO); // extensions on a RECV
	e.extensions = 0;
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.mid = 0x12345678; // a RECV's message identifier (version 5), anything
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	memcpy(img, &e, sizeof(img));
	uint32_t mid;
	memcpy(&mid, img + 60, 4);
	EXPECT_EQ(mid, 0x12345678u);
	EXPECT_EQ(offsetof(struct sc_evt, mid) + sizeof(e.mid), (size_t)SC_SLOT_BYTES);
}

// Version 5: the stream scheduler's requests (SET_SCHED, GET_SCHED,
// SET_STREAM_PARAM, GET_STREAM_PARAM) name an association; the setters'
// value travels in a field carved from the reserved bytes, a getter's answer
// in one of the completion's. value is zero in every other request, a
// stream parameter fits 16 bits, and a scheduler number is the data plane's
// to judge (any is well-formed here).
TEST(ScProto, SchedRequests)
{
	EXPECT_GE(SC_VERSION, 5u) << "a new wire format needs a new version";
	EXPECT_EQ(offsetof(struct sc_req, value), 48u);
	EXPECT_EQ(offsetof(struct sc_req, reserved) + sizeof(((struct sc_req *)0)->reserved),
		  (size_t)SC_SLOT_BYTES);
	EXPECT_EQ(offsetof(struct sc_cpl, value), 24u);
	EXPECT_EQ(offsetof(struct sc_cpl, reserved) + sizeof(((struct sc_cpl *)0)->reserved),
		  (size_t)SC_SLOT_BYTES);
	EXPECT_EQ(SC_SCHED_MAX, 5u);

	for (uint8_t op : { (uint8_t)SC_OP_SET_SCHED, (uint8_t)SC_OP_GET_SCHED,
			    (uint8_t)SC_OP_SET_STREAM_PARAM, (uint8_t)SC_OP_GET_STREAM_PARAM }) {
		struct sc_req r = req(op);
		EXPECT_EQ(sc_req_check(&r, kArena), 0) << "op " << (int)op;
		r.assoc = 0;
		EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO)
			<< "op " << (int)op << ": no association";
	}
	struct sc_req r = req(SC_OP_SET_SCHED);
	r.value = SC_SCHED_MAX + 1; // the data plane says -EINVAL
	EXPECT_EQ(sc_req_check(&r, kArena), 0);
	uint8_t img[SC_SLOT_BYTES];
	memcpy(img, &r, sizeof(img));
	uint32_t v;
	memcpy(&v, img + 48, 4);
	EXPECT_EQ(v, SC_SCHED_MAX + 1);

	r = req(SC_OP_SET_STREAM_PARAM);
	r.sid = 7;
	r.value = 65535;
	EXPECT_EQ(sc_req_check(&r, kArena), 0);
	r.value = 65536;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "a stream parameter is 16 bits";

	// value belongs to the setters (and version 6's RFC 6525 requests, version 7's
	// options and CONNECT's INITMSG: sc_proto_opts_test) alone.
	for (uint8_t op = SC_OP_LISTEN; op < SC_OP_COUNT; op++) {
		if (op == SC_OP_SET_SCHED || op == SC_OP_SET_STREAM_PARAM ||
		    op == SC_OP_RESET_STREAMS || op == SC_OP_ADD_STREAMS || op == SC_OP_SETOPT ||
		    op == SC_OP_GETOPT)
			continue;
		r = req(op);
		if (op == SC_OP_CONNECT)
			r.len = 2 * sizeof(struct sc_addr);
		r.value = 1;
		EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "op " << (int)op;
	}
}

} // namespace
