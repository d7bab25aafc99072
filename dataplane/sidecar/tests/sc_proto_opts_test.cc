// SPDX-License-Identifier: BSD-3-Clause
// The sidecar's version 7 slots (dataplane/sidecar/sc_proto.h): the
// per-association options' requests (SETOPT with the option's struct in the
// tx arena, GETOPT with an optional question), a CONNECT's INITMSG after
// its addresses, a SEND's context and SEND_FAILED's, a SEND that takes the
// association's DEFAULT_SNDINFO; and the completions
// (sc_cpl_check()): a GETOPT's answer in whole slots after its completion,
// a value nowhere else it does not belong. Well-formed ones pass, every
// malformed field is -EPROTO.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>

#include "dataplane/dpsctp_opt.h"
#include "dataplane/sidecar/sc_proto.h"

namespace {

const uint64_t kArena = 1 << 20;

struct sc_req
opt_req(uint8_t op, uint32_t opt, uint32_t len)
{
	struct sc_req r;
	memset(&r, 0, sizeof(r));
	r.op = op;
	r.assoc = 42;
	r.value = opt;
	r.len = len;
	r.off = len != 0 ? 4096 : 0;
	return r;
}

struct sc_cpl
cpl(uint8_t op, int32_t status, uint32_t value)
{
	struct sc_cpl c;
	memset(&c, 0, sizeof(c));
	c.op = op;
	c.status = status;
	c.value = value;
	return c;
}

TEST(ScProtoOpts, VersionAndBounds)
{
	EXPECT_EQ(SC_VERSION, 8u) << "a new wire format needs a new version";
	EXPECT_EQ(offsetof(struct sc_req, context), 52u);
	EXPECT_EQ(offsetof(struct sc_req, reserved) + sizeof(((struct sc_req *)0)->reserved),
		  (size_t)SC_SLOT_BYTES);
	// Every option of the header has an id and a struct the wire carries.
	EXPECT_LE(DPSCTP_OPT_END - 1, (int)SC_OPT_ID_MAX);
	for (int o = 1; o < DPSCTP_OPT_END; o++) {
		size_t n = dpsctp_opt_size((enum dpsctp_opt)o);
		EXPECT_GT(n, 0u) << o;
		EXPECT_LE(n, SC_OPT_MAX_BYTES) << o;
	}
	EXPECT_EQ(SC_OPT_SLOTS(sizeof(struct dpsctp_status)), 1u) << "STATUS, 64 bytes: one slot";
	EXPECT_EQ(SC_OPT_SLOTS(65u), 2u);
	EXPECT_EQ(SC_OPT_SLOTS(SC_OPT_MAX_BYTES), 4u);
}

TEST(ScProtoOpts, SetoptRequest)
{
	const uint32_t n = sizeof(struct dpsctp_rtoinfo);
	struct sc_req r = opt_req(SC_OP_SETOPT, DPSCTP_OPT_RTOINFO, n);
	EXPECT_EQ(sc_req_check(&r, kArena), 0);
	r.assoc = 0;
	EXPECT_EQ(sc_req_check(&r, kArena), 0) << "assoc 0: the application's defaults";
	r.value = SC_OPT_ID_MAX;
	EXPECT_EQ(sc_req_check(&r, kArena), 0) << "an id the wire carries; the daemon judges it";
	r.len = SC_OPT_MAX_BYTES;
	EXPECT_EQ(sc_req_check(&r, kArena), 0);

	struct sc_req bad[12];
	for (auto &b : bad)
		b = opt_req(SC_OP_SETOPT, DPSCTP_OPT_RTOINFO, n);
	bad[0].value = 0;		  // no option
	bad[1].value = SC_OPT_ID_MAX + 1; // beyond the ids
	bad[2].len = 0;			  // nothing to set
	bad[2].off = 0;
	bad[3].len = SC_OPT_MAX_BYTES + 1; // larger than any option
	bad[4].off = kArena;		   // outside the arena
	bad[5].sid = 1;			   // the other fields are zero
	bad[6].ppid = 1;
	bad[7].port = 1;
	bad[8].flags = SC_SEND_UNORDERED;
	bad[9].pr_policy = SC_PR_TTL;
	bad[10].pr_value = 1;
	bad[11].context = 1;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(sc_req_check(&bad[i], kArena), -EPROTO) << "case " << i;
	r = opt_req(SC_OP_SETOPT, DPSCTP_OPT_RTOINFO, n);
	r.reserved[7] = 1;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "reserved bytes";
}

TEST(ScProtoOpts, GetoptRequest)
{
	struct sc_req r = opt_req(SC_OP_GETOPT, DPSCTP_OPT_STATUS, 0);
	EXPECT_EQ(sc_req_check(&r, kArena), 0) << "a bare question";
	r = opt_req(SC_OP_GETOPT, DPSCTP_OPT_PEER_ADDR_INFO, sizeof(struct dpsctp_paddrinfo));
	EXPECT_EQ(sc_req_check(&r, kArena), 0) << "a question naming a path";
	r.assoc = 0;
	EXPECT_EQ(sc_req_check(&r, kArena), 0) << "a default";
	r = opt_req(SC_OP_GETOPT, DPSCTP_OPT_STATUS, 0);
	r.off = 64;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "an offset without bytes";
	r = opt_req(SC_OP_GETOPT, 0, 0);
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "no option";
	r = opt_req(SC_OP_GETOPT, DPSCTP_OPT_STATUS, SC_OPT_MAX_BYTES + 1);
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "a question larger than any option";
	r = opt_req(SC_OP_GETOPT, DPSCTP_OPT_STATUS, 0);
	r.sid = 3;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "a stream";
}

TEST(ScProtoOpts, ConnectWithInitmsg)
{
	struct sc_req r;
	memset(&r, 0, sizeof(r));
	r.op = SC_OP_CONNECT;
	r.port = 38412;
	r.len = 2 * sizeof(struct sc_addr) + sizeof(struct dpsctp_initmsg);
	r.value = sizeof(struct dpsctp_initmsg);
	EXPECT_EQ(sc_req_check(&r, kArena), 0) << "two addresses, then the INITMSG";
	r.value = 0;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "bytes that are no address";
	r.value = r.len;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "an INITMSG and no address";
	r.len = 5 * sizeof(struct sc_addr) + 12;
	r.value = 12;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "five addresses";
	r.len = sizeof(struct sc_addr) + SC_OPT_MAX_BYTES + 4;
	r.value = SC_OPT_MAX_BYTES + 4;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "an INITMSG larger than any option";
	r.len = sizeof(struct sc_addr) + 12;
	r.value = 12;
	r.context = 7;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "a context outside a SEND";
}

TEST(ScProtoOpts, SendContext)
{
	struct sc_req r;
	memset(&r, 0, sizeof(r));
	r.op = SC_OP_SEND;
	r.assoc = 1;
	r.len = 10;
	r.context = 0xdeadbeef;
	EXPECT_EQ(sc_req_check(&r, kArena), 0);
	r.context = 0;
	r.flags = SC_SEND_DEFAULT | SC_SEND_QUIET;
	EXPECT_EQ(sc_req_check(&r, kArena), 0) << "the association's DEFAULT_SNDINFO";
	struct sc_req bad[7];
	for (auto &b : bad)
		b = r;
	bad[0].sid = 1; // DEFAULT_SNDINFO gives these: the request's are zero
	bad[1].ppid = 1;
	bad[2].flags |= SC_SEND_UNORDERED;
	bad[3].flags |= SC_SEND_SACK_NOW;
	bad[4].pr_policy = SC_PR_RTX;
	bad[5].pr_value = 1;
	bad[6].context = 1;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(sc_req_check(&bad[i], kArena), -EPROTO) << "case " << i;
	r.flags = 0x10;
	EXPECT_EQ(sc_req_check(&r, kArena), -EPROTO) << "an unknown flag";

	struct sc_evt e;
	memset(&e, 0, sizeof(e));
	e.type = SC_EVT_SEND_FAILED;
	e.assoc = 1;
	e.len = 10;
	e.mid = 0xdeadbeef; // the message's context
	EXPECT_EQ(sc_evt_check(&e, kArena), 0);
	e.type = SC_EVT_SHUTDOWN_EVENT;
	e.len = 0;
	EXPECT_EQ(sc_evt_check(&e, kArena), -EPROTO) << "mid where none belongs";
}

TEST(ScProtoOpts, Completions)
{
	struct sc_cpl c = cpl(SC_OP_GETOPT, 0, sizeof(struct dpsctp_status));
	EXPECT_EQ(sc_cpl_check(&c), 1) << "STATUS: one slot of answer";
	c.value = 65;
	EXPECT_EQ(sc_cpl_check(&c), 2);
	c.value = SC_OPT_MAX_BYTES;
	EXPECT_EQ(sc_cpl_check(&c), 4);
	c.value = SC_OPT_MAX_BYTES + 1;
	EXPECT_EQ(sc_cpl_check(&c), -EPROTO) << "longer than any option";
	c.value = 0;
	EXPECT_EQ(sc_cpl_check(&c), -EPROTO) << "success without an answer";
	c = cpl(SC_OP_GETOPT, -ENOENT, 0);
	EXPECT_EQ(sc_cpl_check(&c), 0) << "a refusal has no answer";
	c.value = 4;
	EXPECT_EQ(sc_cpl_check(&c), -EPROTO) << "a refusal with an answer";

	// The values of the other completions, where they belong and nowhere else.
	c = cpl(SC_OP_GET_SCHED, 0, 3);
	EXPECT_EQ(sc_cpl_check(&c), 0);
	c = cpl(SC_OP_GET_STREAM_PARAM, 0, 65535);
	EXPECT_EQ(sc_cpl_check(&c), 0);
	c = cpl(SC_OP_GET_SCHED, -ENOTCONN, 3);
	EXPECT_EQ(sc_cpl_check(&c), -EPROTO);
	c = cpl(SC_OP_SETOPT, 0, 12);
	EXPECT_EQ(sc_cpl_check(&c), -EPROTO) << "a setter has no answer";
	for (uint8_t op = SC_OP_LISTEN; op < SC_OP_COUNT; op++) {
		c = cpl(op, 0, 0);
		EXPECT_EQ(sc_cpl_check(&c), op == SC_OP_GETOPT ? -EPROTO : 0) << (int)op;
	}
	c = cpl(0, 0, 0);
	EXPECT_EQ(sc_cpl_check(&c), -EPROTO) << "no request";
	c = cpl(SC_OP_COUNT, 0, 0);
	EXPECT_EQ(sc_cpl_check(&c), -EPROTO) << "an unknown request";
	c = cpl(SC_OP_SEND, 0, 0);
	c.reserved[35] = 1;
	EXPECT_EQ(sc_cpl_check(&c), -EPROTO) << "reserved bytes";
	c = cpl(SC_OP_SEND, 0, 0);
	c.pad[0] = 1;
	EXPECT_EQ(sc_cpl_check(&c), -EPROTO) << "padding";
}

} // namespace
