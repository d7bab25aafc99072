/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] Two data-plane instances in one process over a net_ring port pair
// (no NIC, no hugepages). The client is polled by the test thread; the
// server runs on its own EAL lcore (dpsctp_start()), so its callbacks and
// the client's calls meet only through the port, as in production.
//
// Each side sends N messages of 1 byte to 65,472 bytes on 16 streams (every
// 5th unordered), from mbufs and from bytes, driven the embedded way: send
// until -EAGAIN, resume in on_space. Each receiver checks every message's
// bytes against the generator, exactly once, in order per stream for
// ordered ones. Then a graceful shutdown (or an abort), and every mbuf of
// both pools is back. The same with the impairment stage dropping,
// duplicating and reordering 1% of the frames both ways; with messages
// above 64 KiB (65,536 to 200,000 bytes, longer than 16-bit mbuf offsets
// reach); and with the receive stage (--impair-rx) on one side only.
#include <gtest/gtest.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <atomic>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "dataplane/tests/dp_env.h"

namespace {

constexpr uint16_t kPort = 5001;
constexpr unsigned kStreams = 16;
// Payloads above the default copy threshold (512 bytes, dataplane/dp_api.c) go by reference.
constexpr uint32_t kCopyMaxDefault = 512;

uint32_t
msg_size(uint32_t k)
{
	static const uint32_t sizes[] = { 1, 7, 64, 100, 512, 1000, 1452, 1453, 3000, 4096, 9000 };
	if (k % 997 == 500)
		return 65472; // the largest message an mbuf carries whole (docs/API.md)
	return sizes[k % (sizeof(sizes) / sizeof(sizes[0]))];
}

// The bytes of message k from side `dir`: a checksum is the whole content.
uint8_t
msg_byte(unsigned dir, uint32_t k, uint32_t off)
{
	return (uint8_t)(k * 131u + off * 7u + (off >> 8) + dir * 29u);
}

struct Side {
	unsigned dir = 0;	     // which generator this side sends with
	uint32_t fixed = 0;	     // every message this many bytes, from an mbuf (0: the mix)
	std::vector<uint32_t> sizes; // message k has sizes[k % n] bytes (empty: fixed or the mix)
	dpsctp *d = nullptr;
	std::atomic<dpsctp_assoc *> a{ nullptr };
	std::atomic<bool> up{ false }, done{ false }, lost{ false };
	uint32_t to_send = 0;
	std::atomic<uint32_t> sent{ 0 };
	std::atomic<uint64_t> recv{ 0 };
	uint64_t bad = 0, dup = 0, order = 0, bytes = 0;
	std::vector<uint8_t> seen;
	uint32_t last_k[kStreams] = {};
	bool any_k[kStreams] = {};
	// Messages in parts, by (stream, U bit, identifier): with I-DATA
	// (negotiated by default) several are in parts at once, interleaved.
	std::map<std::tuple<uint16_t, bool, uint32_t>, std::vector<uint8_t>> partial;
	std::vector<uint8_t> scratch = std::vector<uint8_t>(65536);

	uint32_t size_of(uint32_t k) const
	{
		if (fixed != 0)
			return fixed;
		return sizes.empty() ? msg_size(k) : sizes[k % sizes.size()];
	}
};

// Send until the buffer is full or everything is queued; on_space resumes.
void
pump(Side *s, dpsctp_assoc *a)
{
	rte_mempool *pool = dpsctp_pktmbuf_pool(s->d);
	uint32_t k = s->sent.load();
	while (k < s->to_send) {
		uint32_t len = s->size_of(k);
		dpsctp_sndinfo si = {
			(uint16_t)(k % kStreams), k, k % 5 == 4 ? DPSCTP_SEND_UNORDERED : 0u,
			DPSCTP_PR_NONE,		  0, 0
		};
		int r;
		if (len <= 2000 && (k % 2 == 0 || s->fixed != 0)) {
			rte_mbuf *m = rte_pktmbuf_alloc(pool);
			if (m == nullptr)
				break;
			uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
			for (uint32_t i = 0; i < len; i++)
				p[i] = msg_byte(s->dir, k, i);
			r = dpsctp_send(a, &si, m);
			if (r != 0)
				rte_pktmbuf_free(m);
		} else {
			for (uint32_t i = 0; i < len; i++)
				s->scratch[i] = msg_byte(s->dir, k, i);
			r = dpsctp_send_bytes(a, &si, s->scratch.data(), len);
		}
		if (r == -EAGAIN || r == -ENOMEM)
			break;
		if (r != 0) {
			ADD_FAILURE() << "send " << k << ": " << r;
			s->lost = true;
			break;
		}
		k++;
	}
	s->sent = k;
}

void
on_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	Side *s = static_cast<Side *>(arg);
	if (ev->type == DPSCTP_EV_COMM_UP) {
		s->a = a;
		s->up = true;
		pump(s, a);
	}
	if (ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE)
		s->done = true;
	if (ev->type == DPSCTP_EV_COMM_LOST || ev->type == DPSCTP_EV_CANT_START)
		s->lost = true;
}

void
on_space(dpsctp_assoc *a, uint32_t, void *arg)
{
	pump(static_cast<Side *>(arg), a);
}

void
on_recv(dpsctp_assoc *, const dpsctp_msg *m, void *arg)
{
	Side *s = static_cast<Side *>(arg);
	auto key = std::make_tuple(m->sid, (m->flags & DPSCTP_MSG_UNORDERED) != 0, m->mid);
	std::vector<uint8_t> &part = s->partial[key];
	size_t old = part.size();
	part.resize(old + m->len);
	EXPECT_EQ(dpsctp_msg_copy(m, part.data() + old, m->len), m->len);
	if (m->flags & DPSCTP_MSG_MORE)
		return;
	uint32_t k = m->ppid;
	unsigned from = 1 - s->dir;
	std::vector<uint8_t> body;
	body.swap(part);
	s->partial.erase(key);
	s->bytes += body.size();
	uint32_t want = s->size_of(k);
	bool ok = k < s->seen.size() && body.size() == want && m->sid == k % kStreams;
	for (uint32_t i = 0; ok && i < body.size(); i++)
		ok = body[i] == msg_byte(from, k, i);
	if (!ok) {
		s->bad++;
	} else {
		if (s->seen[k]++)
			s->dup++;
		if (!(m->flags & DPSCTP_MSG_UNORDERED)) {
			if (s->any_k[m->sid] && k < s->last_k[m->sid])
				s->order++;
			s->last_k[m->sid] = k;
			s->any_k[m->sid] = true;
		}
	}
	s->recv++;
}

const dpsctp_callbacks kCb = { on_recv, on_event, on_space };

struct Transfer {
	const char *impair = "";
	const char *impair_rx = "";  // the client's receive stage only
	std::vector<uint32_t> sizes; // message sizes, sent from bytes (empty: see fixed)
	uint32_t msgs = 100000;
	bool abort = false;
	bool start_server = true;
	bool udp = false;   // RFC 6951: SCTP over UDP port 9899 both ways
	uint32_t fixed = 0; // one message size, sent from mbufs (0: the mix)
};

class DpLoopback : public ::testing::Test {
      protected:
	void transfer(const Transfer &run)
	{
		RingLink link("lb" + std::to_string(serial_++), 1);
		ASSERT_GE(link.a, 0) << rte_strerror(rte_errno);
		ASSERT_GE(link.b, 0) << rte_strerror(rte_errno);
		char err[256] = "";
		Side c, s;
		c.dir = 0;
		s.dir = 1;
		c.to_send = s.to_send = run.msgs;
		c.fixed = s.fixed = run.fixed;
		c.sizes = s.sizes = run.sizes;
		for (uint32_t n : run.sizes)
			for (Side *x : { &c, &s })
				if (n > x->scratch.size())
					x->scratch.resize(n);
		c.seen.assign(run.msgs, 0);
		s.seen.assign(run.msgs, 0);

		dpsctp_config cc = dp_test_config(link.name_a, "10.0.0.1/24", 1, 0);
		dpsctp_config sc = dp_test_config(link.name_b, "10.0.0.2/24", 1, kPort);
		ASSERT_EQ(dpsctp_config_set(&cc, "impair", run.impair, err, sizeof(err)), 0) << err;
		ASSERT_EQ(dpsctp_config_set(&sc, "impair", run.impair, err, sizeof(err)), 0) << err;
		ASSERT_EQ(dpsctp_config_set(&cc, "impair-rx", run.impair_rx, err, sizeof(err)), 0)
			<< err;
		if (run.udp) {
			ASSERT_EQ(dpsctp_config_set(&cc, "udp-encap", nullptr, err, sizeof(err)), 0)
				<< err;
			ASSERT_EQ(dpsctp_config_set(&sc, "udp-encap", nullptr, err, sizeof(err)), 0)
				<< err;
		}
		c.d = dpsctp_create(&cc, err, sizeof(err));
		ASSERT_NE(c.d, nullptr) << err;
		s.d = dpsctp_create(&sc, err, sizeof(err));
		ASSERT_NE(s.d, nullptr) << err;
		rte_mempool *cpool = dpsctp_pktmbuf_pool(c.d), *spool = dpsctp_pktmbuf_pool(s.d);
		unsigned cfree = rte_mempool_avail_count(cpool);
		unsigned sfree = rte_mempool_avail_count(spool);
		ASSERT_EQ(dpsctp_listen(s.d, kPort, &kCb, &s), 0);
		bool started = run.start_server && rte_lcore_count() >= 2;
		if (started) {
			ASSERT_EQ(dpsctp_start(s.d), 0);
		}

		auto poll = [&] {
			dpsctp_poll(c.d, 0);
			if (!started)
				dpsctp_poll(s.d, 0);
		};
		sctp_addr peer = { 4, { 10, 0, 0, 2 } };
		int rc = 0;
		ASSERT_NE(dpsctp_connect(c.d, 0, &peer, 1, kPort, 0, &kCb, &c, &rc), nullptr) << rc;
		for (uint64_t i = 0; i < 200000000 && !(c.up && s.up) && !c.lost; i++)
			poll();
		ASSERT_TRUE(c.up && s.up) << "no COMM_UP; client:" << dp_test_counters(c.d)
					  << "; server:" << dp_test_counters(s.d);
		if (!run.sizes.empty()) {
			// One byte more than --sndbuf (256k by default) can never be queued:
			// refused whole, the association unharmed.
			std::vector<uint8_t> big(cc.sndbuf + 1u, 0x5a);
			dpsctp_sndinfo si = { 0, 0, 0, DPSCTP_PR_NONE, 0, 0 };
			EXPECT_EQ(dpsctp_send_bytes(c.a, &si, big.data(), big.size()), -EMSGSIZE);
		}

		// Until both have everything; the server side's progress is read atomically.
		uint64_t iters = 0;
		while ((c.recv < run.msgs || s.recv < run.msgs) && !c.lost && !s.lost &&
		       iters++ < 400000000) {
			poll();
			if ((iters & 255) == 0)
				pump(&c, c.a); // harmless when on_space already did it
		}
		EXPECT_FALSE(c.lost || s.lost);
		EXPECT_EQ(c.sent.load(), run.msgs);
		EXPECT_EQ(s.sent.load(), run.msgs);

		if (run.abort) {
			ASSERT_EQ(dpsctp_abort(c.a), 0);
			for (uint64_t i = 0; i < 100000000 && !s.lost; i++)
				poll();
			EXPECT_TRUE(s.lost) << "the server heard no ABORT";
		} else {
			ASSERT_EQ(dpsctp_shutdown(c.a), 0);
			for (uint64_t i = 0; i < 100000000 && !(c.done && s.done); i++)
				poll();
			EXPECT_TRUE(c.done);
			EXPECT_TRUE(s.done);
		}
		// Frames still on the link (the server's last SACKs after an ABORT)
		// are the other side's mbufs: let them arrive before counting.
		for (uint64_t i = 0; i < 1000000 && (rte_mempool_avail_count(cpool) != cfree ||
						     rte_mempool_avail_count(spool) != sfree);
		     i++)
			poll();
		EXPECT_EQ(dpsctp_stop(s.d, 200), 0);
		EXPECT_EQ(dpsctp_stop(c.d, 200), 0);
		// Receivers' verdicts, read after the server's lcore stopped.
		for (Side *x : { &c, &s }) {
			EXPECT_EQ(x->recv.load(), run.msgs) << "side " << x->dir;
			EXPECT_EQ(x->bad, 0u) << "side " << x->dir;
			EXPECT_EQ(x->dup, 0u) << "side " << x->dir;
			EXPECT_EQ(x->order, 0u) << "side " << x->dir;
		}
		std::map<std::string, uint64_t> cn;
		const char *name;
		for (unsigned i = 0;; i++) {
			uint64_t v = dpsctp_worker_counter(c.d, 0, i, &name);
			if (name == nullptr)
				break;
			cn[name] = v;
		}
		// Over UDP the packet is built flat for the UDP checksum (dp_tx.c).
		if (!run.udp) {
			EXPECT_GT(cn["tx_payload_zero_copy"], 0u);
		}
		if (run.fixed == 0 && run.sizes.empty()) {
			EXPECT_GT(cn["tx_payload_copied"], 0u);
		}
		if (!run.sizes.empty()) {
			// Every message was a chain flattened once into an external buffer
			// (more than once when a full send buffer made the pump retry it),
			// and every payload byte left at least once.
			uint64_t total = 0;
			for (uint32_t k = 0; k < run.msgs; k++)
				total += c.size_of(k);
			EXPECT_GE(cn["send_copied"], (uint64_t)run.msgs);
			EXPECT_GE(cn["tx_payload_zero_copy"] + cn["tx_payload_copied"], total);
			EXPECT_EQ(c.bytes, total) << "bytes the client received";
			EXPECT_EQ(s.bytes, total) << "bytes the server received";
		}
		if (run.fixed > kCopyMaxDefault) {
			// The large-message path copies nothing on the sending side: every
			// payload byte left by reference (retransmissions included).
			EXPECT_EQ(cn["tx_payload_copied"], 0u);
			EXPECT_EQ(cn["send_copied"], 0u);
			EXPECT_GE(cn["tx_payload_zero_copy"], (uint64_t)run.msgs * run.fixed);
		}
		if (run.udp) {
			EXPECT_GT(cn["l3.sctp_udp_in"], 0u);
			EXPECT_EQ(cn["l3.sctp_udp_in"],
				  cn["l3.sctp_in"]); // every packet came over UDP
		}
		// Every frame within the MTU (over UDP: the 8-byte header counted), both ways.
		EXPECT_EQ(cn["tx_too_big"], 0u);
		for (unsigned i = 0;; i++) {
			uint64_t v = dpsctp_worker_counter(s.d, 0, i, &name);
			if (name == nullptr)
				break;
			if (strcmp(name, "tx_too_big") == 0) {
				EXPECT_EQ(v, 0u) << "server";
			}
		}
		if (run.impair[0] != '\0') {
			EXPECT_GT(cn["impair_dropped"], 0u);
			EXPECT_GT(cn["impair_duplicated"], 0u);
		} else {
			EXPECT_EQ(cn["impair_dropped"], 0u);
		}
		if (run.impair_rx[0] != '\0') {
			EXPECT_GT(cn["impair_rx_dropped"], 0u);
			if (strstr(run.impair_rx, "dup=") != nullptr) {
				EXPECT_GT(cn["impair_rx_duplicated"], 0u);
			}
		} else {
			EXPECT_EQ(cn["impair_rx_dropped"], 0u);
		}
		printf("client:%s\nserver:%s\n", dp_test_counters(c.d).c_str(),
		       dp_test_counters(s.d).c_str());
		EXPECT_EQ(dpsctp_assoc_count(c.d), 0u);
		EXPECT_EQ(dpsctp_assoc_count(s.d), 0u);
		// Nothing leaked: every mbuf is back in its pool.
		EXPECT_EQ(rte_mempool_avail_count(cpool), cfree);
		EXPECT_EQ(rte_mempool_avail_count(spool), sfree);
		dpsctp_destroy(c.d);
		dpsctp_destroy(s.d);
	}
	static unsigned serial_;
};

unsigned DpLoopback::serial_ = 0;

TEST_F(DpLoopback, HundredThousandEachWayThenShutdown)
{
	transfer(Transfer{});
}

TEST_F(DpLoopback, TransferThenAbort)
{
	Transfer r;
	r.msgs = 20000;
	r.abort = true;
	transfer(r);
}

TEST_F(DpLoopback, OnePercentLossDuplicationReordering)
{
	Transfer r;
	r.impair = "loss=1%,dup=1%,reorder=1%,seed=7";
	transfer(r);
}

// A message that fills one packet's chunk leaves by reference, whole. With
// I-DATA (negotiated by default) a chunk carries 1,448 bytes at MTU 1500
// (its header is 4 bytes longer than DATA's 16): a 1,452-byte message would
// leave as 1,448 bytes by reference and a 4-byte tail copied.
TEST_F(DpLoopback, LargeMessagesCopyNothing)
{
	Transfer r;
	r.msgs = 20000;
	r.fixed = 1448;
	transfer(r);
}

// Messages above 64 KiB, from bytes: 65,536 (one byte past a 16-bit
// length), 200,000 (fragments at offsets past 65,535 and partial delivery
// at the receiver, above rcvbuf / 2) and an odd size in between; a message
// one byte longer than --sndbuf gets -EMSGSIZE.
TEST_F(DpLoopback, MessagesAbove64KiB)
{
	Transfer r;
	r.msgs = 300;
	r.sizes = { 65536, 200000, 100003 };
	transfer(r);
}

// One instance impairs both directions of its link: its receive stage loses,
// duplicates and reorders what the server sends (data and SACKs), its
// transmit path is clean, and the server runs no stage at all.
TEST_F(DpLoopback, ReceiveImpairmentOnOneSide)
{
	Transfer r;
	r.msgs = 20000;
	r.impair_rx = "loss=5%,dup=1%,reorder=2%,seed=11";
	transfer(r);
}

TEST_F(DpLoopback, OverUdpEncapsulation)
{
	Transfer r;
	r.msgs = 20000;
	r.udp = true;
	transfer(r);
}

TEST_F(DpLoopback, BothSidesPolledByOneThread)
{
	Transfer r;
	r.msgs = 20000;
	r.start_server = false;
	transfer(r);
}

} // namespace
