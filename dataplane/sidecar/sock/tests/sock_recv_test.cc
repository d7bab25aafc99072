// SPDX-License-Identifier: BSD-3-Clause
// libdpsctp-sock's receive queue (sock_data.c): message boundaries, parts of
// messages that the data plane hands on interleaved (I-DATA), MSG_EOR, the
// notifications between them, and the end of a message the sender
// abandoned. No daemon: the parts are queued as the pump would queue them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

extern "C" {
#include "dataplane/sidecar/sock/sock.h"
}

namespace {

class SockRecv : public ::testing::Test {
      protected:
	void SetUp() override
	{
		pthread_mutex_lock(&sock_g.lock);
		sk = sock_new(AF_INET, SOCK_STREAM);
		ASSERT_NE(sk, nullptr);
		sk->state = SOCK_CONNECTED;
	}
	void TearDown() override
	{
		sock_free(sk);
		pthread_mutex_unlock(&sock_g.lock);
	}
	// A part of message mid on stream sid, as the pump queues it.
	void part(uint16_t sid, uint32_t mid, const std::string &bytes, bool last,
		  uint16_t extra = 0)
	{
		auto *m = static_cast<sock_msg *>(calloc(1, sizeof(sock_msg) + bytes.size()));
		m->len = static_cast<uint32_t>(bytes.size());
		m->sid = sid;
		m->mid = mid;
		m->flags = static_cast<uint16_t>((last ? SOCK_MSG_EOR : 0) | extra);
		memcpy(m->data, bytes.data(), bytes.size());
		sock_queue(sk, m);
	}
	// One receive of up to n bytes: what came, and whether MSG_EOR.
	std::string recv(size_t n, bool *eor = nullptr, int *flags = nullptr)
	{
		std::string buf(n, '\0');
		iovec v = { &buf[0], n };
		msghdr mh = {};
		mh.msg_iov = &v;
		mh.msg_iovlen = 1;
		ssize_t r = sock_recvv(sk, &v, 1, MSG_DONTWAIT, &mh);
		if (r < 0)
			return "errno:" + std::to_string(-r);
		if (eor != nullptr)
			*eor = (mh.msg_flags & MSG_EOR) != 0;
		if (flags != nullptr)
			*flags = mh.msg_flags;
		buf.resize(static_cast<size_t>(r));
		return buf;
	}
	sock *sk = nullptr;
};

TEST_F(SockRecv, OneMessageAtMostPerReceive)
{
	part(0, 0, "first", true);
	part(0, 1, "second", true);
	bool eor = false;
	EXPECT_EQ(recv(100, &eor), "first");
	EXPECT_TRUE(eor);
	EXPECT_EQ(recv(100, &eor), "second");
	EXPECT_TRUE(eor);
	EXPECT_EQ(recv(100), "errno:" + std::to_string(EAGAIN));
}

TEST_F(SockRecv, AMessageLargerThanTheBufferComesInTurnsEorOnTheLast)
{
	part(0, 0, "0123456789", true);
	bool eor = true;
	EXPECT_EQ(recv(4, &eor), "0123");
	EXPECT_FALSE(eor);
	EXPECT_EQ(recv(4, &eor), "4567");
	EXPECT_FALSE(eor);
	EXPECT_EQ(recv(4, &eor), "89");
	EXPECT_TRUE(eor);
}

TEST_F(SockRecv, PartsOfOneMessageAreJoinedUpToTheBuffer)
{
	part(0, 0, "abc", false);
	part(0, 0, "def", false);
	part(0, 0, "gh", true);
	bool eor = false;
	EXPECT_EQ(recv(100, &eor), "abcdefgh");
	EXPECT_TRUE(eor);
}

// With I-DATA the data plane hands on parts of two messages interleaved: a
// receive continues the message begun, never mixes another's bytes into it.
TEST_F(SockRecv, InterleavedPartsAreReadOneMessageAtATime)
{
	part(1, 7, "A1", false);
	part(2, 9, "B1", false);
	part(1, 7, "A2", false);
	part(2, 9, "B2", true);
	bool eor = true;
	// A's parts are joined, B's between them skipped (B waits for A's end).
	EXPECT_EQ(recv(100, &eor), "A1A2");
	EXPECT_FALSE(eor);
	// A is not complete: nothing of it is here, and B must wait for it.
	EXPECT_EQ(recv(100), "errno:" + std::to_string(EAGAIN));
	EXPECT_FALSE(sock_recv_ready(sk));
	part(1, 7, "A3", true);
	EXPECT_TRUE(sock_recv_ready(sk));
	EXPECT_EQ(recv(100, &eor), "A3");
	EXPECT_TRUE(eor);
	EXPECT_EQ(recv(100, &eor), "B1B2");
	EXPECT_TRUE(eor);
}

TEST_F(SockRecv, ANotificationBetweenPartsDoesNotBreakTheMessage)
{
	part(1, 1, "x", false);
	part(0, 0, "note", true, SOCK_MSG_NOTIFICATION);
	part(1, 1, "y", true);
	bool eor = false;
	int flags = 0;
	EXPECT_EQ(recv(100, &eor, &flags), "xy");
	EXPECT_TRUE(eor);
	EXPECT_FALSE(flags & MSG_NOTIFICATION);
	EXPECT_EQ(recv(100, &eor, &flags), "note");
	EXPECT_TRUE(flags & MSG_NOTIFICATION);
}

// PR-SCTP: the sender abandoned a message after its first part was handed
// on; the message ends there and the next one is readable.
TEST_F(SockRecv, AnAbandonedMessageEndsWhereItWas)
{
	part(3, 4, "half", false);
	part(4, 0, "other", true);
	EXPECT_EQ(recv(100), "half");
	EXPECT_FALSE(sock_recv_ready(sk));
	dpsctp_client_recv r = {};
	r.sid = 3;
	r.mid = 4;
	r.flags = DPSCTP_CLIENT_ABORTED | DPSCTP_CLIENT_CONT;
	sock_recv_aborted(sk, nullptr, &r);
	EXPECT_TRUE(sock_recv_ready(sk));
	EXPECT_EQ(recv(100), "other");
}

TEST_F(SockRecv, QueuedBytesAreCountedBackToZero)
{
	part(0, 0, std::string(1000, 'q'), true);
	part(1, 0, std::string(500, 'r'), false);
	part(1, 0, std::string(500, 's'), true);
	EXPECT_EQ(sk->queued, 2000u);
	recv(300);
	recv(2000);
	recv(2000);
	EXPECT_EQ(sk->queued, 0u);
	EXPECT_EQ(sk->head, nullptr);
	EXPECT_EQ(sk->tail, nullptr);
}

} // namespace
