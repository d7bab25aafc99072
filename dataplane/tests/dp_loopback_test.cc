/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] Two data-plane instances in one process over a net_ring port pair,
// polled by the test thread (no lcores, no hugepages): the client resolves
// the server's MAC by ARP, connects, sends 100,000 messages of 1 byte to
// 64 KiB on 4 streams, ordered and unordered, from bytes and from mbufs;
// the server checks every message's bytes, exactly once, in order per
// stream for ordered ones. Then a graceful shutdown, and every mbuf of both
// pools is back.
#include <gtest/gtest.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <cstring>
#include <map>
#include <vector>

#include "dataplane/tests/dp_env.h"

namespace {

constexpr uint16_t kPort = 5001;
constexpr unsigned kStreams = 4;

// Message k: stream k % 4, PPID k, size from a fixed cycle with a 64 KiB one
// every 997th, bytes a function of (k, offset); every 5th unordered.
uint32_t
msg_size(uint32_t k)
{
	static const uint32_t sizes[] = { 1, 7, 64, 100, 512, 1000, 1452, 1453, 3000, 4096, 9000 };
	if (k % 997 == 500)
		return 65536 - 64;
	return sizes[k % (sizeof(sizes) / sizeof(sizes[0]))];
}

uint8_t
msg_byte(uint32_t k, uint32_t off)
{
	return (uint8_t)(k * 131u + off * 7u + (off >> 8));
}

struct Side {
	dpsctp *d = nullptr;
	dpsctp_assoc *a = nullptr;
	bool up = false, done = false, lost = false;
	uint64_t recv = 0, bad = 0, dup = 0, order = 0, bytes = 0;
	std::vector<uint8_t> seen;
	uint32_t next_ssn_k[kStreams] = {}; // last ordered k seen + 1 per stream
	std::vector<uint8_t> partial;	    // a message delivered in parts
	bool space = false;
};

void
on_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	Side *s = static_cast<Side *>(arg);
	if (ev->type == DPSCTP_EV_COMM_UP) {
		s->up = true;
		s->a = a;
	}
	if (ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE)
		s->done = true;
	if (ev->type == DPSCTP_EV_COMM_LOST || ev->type == DPSCTP_EV_CANT_START)
		s->lost = true;
}

void
on_space(dpsctp_assoc *, uint32_t, void *arg)
{
	static_cast<Side *>(arg)->space = true;
}

void
on_recv(dpsctp_assoc *, const dpsctp_msg *m, void *arg)
{
	Side *s = static_cast<Side *>(arg);
	size_t old = s->partial.size();
	s->partial.resize(old + m->len);
	EXPECT_EQ(dpsctp_msg_copy(m, s->partial.data() + old, m->len), m->len);
	if (m->flags & DPSCTP_MSG_MORE)
		return;
	uint32_t k = m->ppid;
	std::vector<uint8_t> body;
	body.swap(s->partial);
	s->recv++;
	s->bytes += body.size();
	if (k >= s->seen.size() || body.size() != msg_size(k) || m->sid != k % kStreams) {
		s->bad++;
		return;
	}
	for (uint32_t i = 0; i < body.size(); i++)
		if (body[i] != msg_byte(k, i)) {
			s->bad++;
			return;
		}
	if (s->seen[k]++)
		s->dup++;
	if (!(m->flags & DPSCTP_MSG_UNORDERED)) {
		if (k < s->next_ssn_k[m->sid])
			s->order++;
		s->next_ssn_k[m->sid] = k + 1;
	}
}

const dpsctp_callbacks kCb = { on_recv, on_event, on_space };

class DpLoopback : public ::testing::Test {
      protected:
	void poll_both(Side &c, Side &s)
	{
		for (unsigned i = 0; i < dpsctp_workers(c.d); i++)
			dpsctp_poll(c.d, i);
		for (unsigned i = 0; i < dpsctp_workers(s.d); i++)
			dpsctp_poll(s.d, i);
	}
};

TEST_F(DpLoopback, HundredThousandMessagesOverNetRing)
{
	RingLink link("lb", 1);
	ASSERT_GE(link.a, 0) << rte_strerror(rte_errno);
	ASSERT_GE(link.b, 0) << rte_strerror(rte_errno);
	char err[256] = "";
	Side c, s;
	const uint32_t kMsgs = 100000;
	s.seen.assign(kMsgs, 0);

	dpsctp_config cc = dp_test_config(link.name_a, "10.0.0.1/24", 1, 0);
	dpsctp_config sc = dp_test_config(link.name_b, "10.0.0.2/24", 1, kPort);
	c.d = dpsctp_create(&cc, err, sizeof(err));
	ASSERT_NE(c.d, nullptr) << err;
	s.d = dpsctp_create(&sc, err, sizeof(err));
	ASSERT_NE(s.d, nullptr) << err;
	rte_mempool *cpool = dpsctp_pktmbuf_pool(c.d), *spool = dpsctp_pktmbuf_pool(s.d);
	unsigned cfree = rte_mempool_avail_count(cpool), sfree = rte_mempool_avail_count(spool);
	ASSERT_EQ(dpsctp_listen(s.d, kPort, &kCb, &s), 0);

	dpsctp_addr peer = { 4, { 10, 0, 0, 2 } };
	int rc = 0;
	c.a = dpsctp_connect(c.d, 0, &peer, 1, kPort, 0, &kCb, &c, &rc);
	ASSERT_NE(c.a, nullptr) << rc;
	for (int i = 0; i < 100000 && !(c.up && s.up); i++)
		poll_both(c, s);
	ASSERT_TRUE(c.up && s.up) << "no COMM_UP on both sides; client:" << dp_test_counters(c.d)
				  << "; server:" << dp_test_counters(s.d);

	uint32_t k = 0;
	uint64_t iters = 0;
	std::vector<uint8_t> buf(65536);
	rte_mempool *pool = dpsctp_pktmbuf_pool(c.d);
	while ((k < kMsgs || s.recv < kMsgs) && iters < 20000000 && !c.lost && !s.lost) {
		iters++;
		for (int burst = 0; burst < 32 && k < kMsgs; burst++) {
			uint32_t len = msg_size(k);
			dpsctp_sndinfo si = { (uint16_t)(k % kStreams), k,
					      k % 5 == 4 ? DPSCTP_SEND_UNORDERED : 0u };
			int r;
			if (len <= 2000 && k % 2 == 0) {
				// From an mbuf (zero copy above the copy threshold).
				rte_mbuf *m = rte_pktmbuf_alloc(pool);
				ASSERT_NE(m, nullptr);
				uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
				for (uint32_t i = 0; i < len; i++)
					p[i] = msg_byte(k, i);
				r = dpsctp_send(c.a, &si, m);
				if (r != 0)
					rte_pktmbuf_free(m);
			} else {
				for (uint32_t i = 0; i < len; i++)
					buf[i] = msg_byte(k, i);
				r = dpsctp_send_bytes(c.a, &si, buf.data(), len);
			}
			if (r == -EAGAIN)
				break;
			ASSERT_EQ(r, 0) << "send " << k;
			k++;
		}
		poll_both(c, s);
	}
	EXPECT_FALSE(c.lost || s.lost);
	EXPECT_EQ(k, kMsgs);
	EXPECT_EQ(s.recv, kMsgs);
	EXPECT_EQ(s.bad, 0u);
	EXPECT_EQ(s.dup, 0u);
	EXPECT_EQ(s.order, 0u);

	dpsctp_assoc_stats st;
	ASSERT_EQ(dpsctp_assoc_get_stats(c.a, &st), 0);
	EXPECT_EQ(st.msgs_sent, kMsgs);
	printf("client: %llu DATA chunks, %llu rtx, %llu SACKs in; server bytes %llu\n",
	       (unsigned long long)st.data_chunks_out, (unsigned long long)st.data_chunks_rtx,
	       (unsigned long long)st.sacks_in, (unsigned long long)s.bytes);

	// Counters: zero-copy bytes went by reference, nothing dropped for CRC.
	const char *name;
	std::map<std::string, uint64_t> cn, sn;
	for (unsigned i = 0;; i++) {
		uint64_t v = dpsctp_worker_counter(c.d, 0, i, &name);
		if (name == nullptr)
			break;
		cn[name] = v;
	}
	for (unsigned i = 0;; i++) {
		uint64_t v = dpsctp_worker_counter(s.d, 0, i, &name);
		if (name == nullptr)
			break;
		sn[name] = v;
	}
	EXPECT_GT(cn["tx_payload_zero_copy"], 0u);
	EXPECT_GT(cn["tx_payload_copied"], 0u);
	EXPECT_EQ(sn["drop_bad_crc"], 0u);
	EXPECT_GE(cn["l3.arp_replies_sent"] + sn["l3.arp_replies_sent"], 1u);

	ASSERT_EQ(dpsctp_shutdown(c.a), 0);
	for (int i = 0; i < 100000 && !(c.done && s.done); i++)
		poll_both(c, s);
	EXPECT_TRUE(c.done);
	EXPECT_TRUE(s.done);
	EXPECT_EQ(dpsctp_assoc_count(c.d), 0u);
	EXPECT_EQ(dpsctp_assoc_count(s.d), 0u);
	EXPECT_EQ(dpsctp_stop(c.d, 100), 0);
	EXPECT_EQ(dpsctp_stop(s.d, 100), 0);
	// Nothing leaked: every mbuf is back in its pool.
	EXPECT_EQ(rte_mempool_avail_count(cpool), cfree);
	EXPECT_EQ(rte_mempool_avail_count(spool), sfree);
	dpsctp_destroy(c.d);
	dpsctp_destroy(s.d);
}

} // namespace

int
main(int argc, char **argv)
{
	::testing::InitGoogleTest(&argc, argv);
	::testing::AddGlobalTestEnvironment(new DpEal);
	return RUN_ALL_TESTS();
}
