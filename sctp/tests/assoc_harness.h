// SPDX-License-Identifier: BSD-3-Clause
// Test harness for the association (sctp/assoc.h), shared by the state
// machine tests (assoc_test.cc) and the §5.2 tests (assoc_collision_test.cc):
// packet decoding helpers; Sim, two associations on a virtual clock (a
// client association against a server endpoint whose cookie creates the
// server association, or two connecting at once); and One, a single
// association fed crafted packets. Header-only, one copy per test program.
#ifndef SCTP_TESTS_ASSOC_HARNESS_H
#define SCTP_TESTS_ASSOC_HARNESS_H

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hex.h"

extern "C" {
#include "sctp/assoc.h"
#include "sctp/chunk.h"
}

namespace {

using Bytes = std::vector<uint8_t>;

constexpr uint64_t kT0 = SCTP_S(1);
constexpr uint16_t kClientPort = 40000;
constexpr uint16_t kServerPort = 5001;
constexpr uint32_t kClientTag = 0xc11e0001;
constexpr uint32_t kServerTag = 0x5e7e0002;

inline struct sctp_addr
v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	const uint8_t be[4] = { a, b, c, d };
	return sctp_addr_v4(be);
}

// One chunk of a packet, copied out.
struct Chunk {
	uint8_t type, flags;
	Bytes value;
};

struct Packet {
	uint32_t vtag = 0;
	uint16_t src_port = 0, dst_port = 0;
	std::vector<Chunk> chunks;
};

inline Packet
decode(const Bytes &b)
{
	Packet out;
	struct sctp_packet p;
	EXPECT_EQ(sctp_packet_parse(&p, b.data(), b.size()), SCTP_PERR_OK);
	out.vtag = p.vtag;
	out.src_port = p.src_port;
	out.dst_port = p.dst_port;
	EXPECT_EQ(p.checksum, 0u) << "the caller's CRC policy fills the checksum";
	struct sctp_chunk_iter it;
	struct sctp_chunk c;
	sctp_chunk_iter_init(&it, &p);
	while (sctp_chunk_iter_next(&it, &c)) {
		EXPECT_EQ(sctp_chunk_validate(&c), SCTP_PERR_OK);
		out.chunks.push_back(
			{ c.type, c.flags, Bytes(c.value, c.value + sctp_chunk_value_len(&c)) });
	}
	EXPECT_EQ(it.err, SCTP_PERR_OK);
	return out;
}

// The error causes of an ABORT or ERROR value: (code, body) pairs.
inline std::vector<std::pair<uint16_t, Bytes>>
causes_of(const Bytes &value)
{
	std::vector<std::pair<uint16_t, Bytes>> out;
	struct sctp_tlv_iter it;
	struct sctp_tlv t;
	sctp_tlv_iter_init(&it, SCTP_TLV_CAUSE, value.data(), value.size());
	while (sctp_tlv_iter_next(&it, &t))
		out.push_back({ t.type, Bytes(t.value, t.value + sctp_tlv_value_len(&t)) });
	EXPECT_EQ(it.err, SCTP_PERR_OK);
	return out;
}

struct Sent {
	uint64_t at;
	Bytes bytes;
	struct sctp_addr src, dst;
	uint8_t first; // type of the first chunk
};

struct Note {
	uint64_t at;
	struct sctp_notification n;
	Bytes causes;
	std::vector<uint16_t> streams; // STREAM_RESET: n.streams, copied (valid only in the call)
	size_t sent_before = 0;	       // packets the side had sent when told (Sim only)
};

// The RFC 9260 §6.3.3 E2 schedule: the k-th expiry after the first send
// comes RTO.Initial * 2^k (capped at RTO.Max) after the previous one.
inline uint64_t
backoff_sum(uint64_t rto, uint64_t rto_max, unsigned expiries)
{
	uint64_t t = 0;
	for (unsigned k = 0; k < expiries; k++) {
		t += rto;
		rto = std::min(2 * rto, rto_max);
	}
	return t;
}

// ---- Two associations on a virtual clock ------------------------------

struct Sim;

// A message as the receiving user saw it.
struct RxMsg {
	uint16_t sid;
	uint32_t ppid;
	uint8_t flags; // SCTP_REASM_MSG_*
	Bytes bytes;
};

// The data path of one side of a Sim (Sim::enable_data()): the lcore's
// pools, the endpoint's data config, the association's storage.
struct SideData {
	struct sctp_data_config cfg;
	struct sctp_reasm_node reasm_nodes[256];
	struct sctp_reasm_pool reasm_pool;
	std::vector<struct sctp_outq_msg> outq_nodes;
	struct sctp_outq_pool outq_pool;
	std::vector<struct sctp_rtxq_node> rtxq_nodes;
	struct sctp_rtxq_pool rtxq_pool;
	std::vector<struct sctp_rtxq_pr_slot> rtxq_pr; // PR-SCTP slots (Sim::enable_pr())
	std::vector<struct sctp_outq_pr> outq_pr;
	std::vector<union sctp_ireasm_node> ireasm_nodes; // I-DATA (Sim::enable_idata())
	struct sctp_ireasm_pool ireasm_pool;
	std::vector<uint64_t> store;
	bool lent = false;
	std::vector<uint64_t> spare; // the second block (ops.data_get())
	bool spare_lent = false;
	size_t data_cap = SIZE_MAX;
	size_t asked = 0; // bytes the last ops.data_get() asked for
	std::vector<RxMsg> delivered;
	std::vector<struct sctp_notification> failed; // SEND_FAILED notifications
	unsigned data_packets = 0;		      // packets sent with DATA
	std::vector<uint64_t> data_times;	      // when each went out
};

struct Side {
	const char *name;
	Sim *sim;
	struct sctp_endpoint ep;
	struct sctp_assoc a;
	struct sctp_assoc_counters counters;
	struct sctp_assoc_stats stats;
	bool has_assoc = false;
	struct sctp_addr addr;
	uint16_t port;
	uint32_t tag;
	bool fresh_tags = false; // choose_tag: tag, tag + 1, ... instead of always tag
	uint32_t tags_issued = 0;
	uint32_t rnd;
	std::vector<Sent> sent;
	std::vector<Note> notes;
	std::unique_ptr<SideData> data; // set by Sim::enable_data()
	// The one handshake scratch this side lends (ops.hs_get / hs_put).
	struct sctp_assoc_handshake hs_store;
	bool hs_lent = false;
	// Multi-homed sides have a second address and lend one path block.
	bool multihomed = false;
	struct sctp_addr addr2;
	struct sctp_path path_block[SCTP_MAX_PATHS - 1];
	bool paths_lent = false;

	// PEER_ADDR_CHANGE notifications of one kind for one address, in order.
	std::vector<uint64_t> addr_changes(const struct sctp_addr &x, uint8_t state) const
	{
		std::vector<uint64_t> t;
		for (const auto &n : notes)
			if (n.n.type == SCTP_NOTIFY_PEER_ADDR_CHANGE && n.n.addr_state == state &&
			    sctp_addr_eq(&n.n.addr, &x))
				t.push_back(n.at);
		return t;
	}

	uint64_t wakeup() const
	{
		return has_assoc ? sctp_assoc_next_wakeup(&a) : SCTP_TIME_NEVER;
	}
	std::vector<uint64_t> times_of(uint8_t type) const
	{
		std::vector<uint64_t> t;
		for (const auto &s : sent)
			if (s.first == type)
				t.push_back(s.at);
		return t;
	}
	std::vector<uint8_t> firsts() const
	{
		std::vector<uint8_t> t;
		for (const auto &s : sent)
			t.push_back(s.first);
		return t;
	}
	const Sent &last_of(uint8_t type) const
	{
		for (auto it = sent.rbegin(); it != sent.rend(); ++it)
			if (it->first == type)
				return *it;
		ADD_FAILURE() << name << " sent no chunk of type " << int(type);
		static Sent none{};
		return none;
	}
};

struct Sim {
	struct InFlight {
		Side *to;
		Bytes bytes;
		struct sctp_addr src, dst;
	};

	uint64_t now = kT0;
	uint64_t delay;
	Side c, s;
	std::multimap<uint64_t, InFlight> queue;
	// Returns true when the packet is lost: from, the packet, its first chunk type.
	std::function<bool(const Side &, const Bytes &, uint8_t)> lose;
	struct sctp_assoc_ops ops = {};

	// Destination addresses whose packets vanish (a path's black hole).
	std::vector<struct sctp_addr> blackhole;

	// A side that does nothing in [stall_from, stall_until): a polling
	// thread descheduled. Packets to it wait, in order, and its timers
	// fire at stall_until at the earliest.
	const Side *stalled = nullptr;
	uint64_t stall_from = 0, stall_until = 0;
	bool frozen(const Side &x, uint64_t t) const
	{
		return &x == stalled && t >= stall_from && t < stall_until;
	}
	uint64_t wakeup_of(const Side &x) const
	{
		uint64_t w = x.wakeup();
		return frozen(x, w) ? stall_until : w;
	}

	// Refcounted fake buffers (sctp/buf.h): every received packet and every
	// message sent lives in one; counts must all be 0 at the end.
	std::vector<std::unique_ptr<Bytes>> bufs;
	std::map<const void *, int> refs;
	struct sctp_buf_ops buf_ops = {};

	void *fresh_buf(Bytes b)
	{
		bufs.push_back(std::make_unique<Bytes>(std::move(b)));
		refs[bufs.back().get()] = 1;
		return bufs.back().get();
	}
	void put(void *h)
	{
		EXPECT_GT(refs[h], 0);
		refs[h]--;
	}
	int held() const
	{
		int n = 0;
		for (const auto &r : refs)
			n += r.second;
		return n;
	}

	// Both sides get a send and receive path: pools of these sizes, the
	// profile's cc, rwnd = reassembly's max_bytes.
	void enable_data(uint32_t rwnd = 65536, uint32_t rtxq_nodes = 1024,
			 uint32_t outq_max_bytes = 1u << 20)
	{
		buf_ops.ctx = this;
		buf_ops.hold = [](void *ctx, void *h) { static_cast<Sim *>(ctx)->refs[h]++; };
		buf_ops.release = [](void *ctx, void *h) { static_cast<Sim *>(ctx)->put(h); };
		ops.deliver = [](void *ctx, const struct sctp_reasm_msg *m) {
			Side *side = static_cast<Side *>(ctx);
			RxMsg d{ m->sid, m->ppid, m->flags, Bytes() };
			struct sctp_reasm_iter it;
			struct sctp_slice sl;
			sctp_reasm_iter_init(&it, m);
			while (sctp_reasm_iter_next(&it, &sl)) {
				d.bytes.insert(d.bytes.end(), sl.data, sl.data + sl.len);
				if (sl.handle != nullptr)
					side->sim->put(sl.handle);
			}
			side->data->delivered.push_back(std::move(d));
		};
		// One block, and a second one while it is lent (the data block
		// growing, RFC 6525 §5.2.5), up to data_cap bytes each.
		ops.data_get = [](void *ctx, size_t bytes) -> void * {
			SideData &d = *static_cast<Side *>(ctx)->data;
			if (bytes > d.data_cap || (d.lent && d.spare_lent))
				return nullptr;
			std::vector<uint64_t> &v = d.lent ? d.spare : d.store;
			(d.lent ? d.spare_lent : d.lent) = true;
			d.asked = bytes;
			v.assign((bytes + 7) / 8, 0xa5a5a5a5a5a5a5a5ull);
			return v.data();
		};
		ops.data_put = [](void *ctx, void *mem) {
			SideData &d = *static_cast<Side *>(ctx)->data;
			if (d.spare_lent && mem == d.store.data()) {
				std::swap(d.store, d.spare); // the second block is the one in use
				d.spare_lent = false;
				return;
			}
			EXPECT_TRUE(d.lent && !d.spare_lent && mem == d.store.data());
			d.lent = false;
		};
		ops.send_data = [](void *ctx, const uint8_t *head, size_t head_len,
				   const struct sctp_tx_seg *segs, unsigned n,
				   const struct sctp_addr *src, const struct sctp_addr *dst) {
			Side *side = static_cast<Side *>(ctx);
			Bytes b(SCTP_ASSOC_TX_MAX);
			size_t len = sctp_tx_flatten(b.data(), b.size(), head, head_len, segs, n);
			EXPECT_NE(len, 0u);
			b.resize(len);
			side->data->data_packets++;
			side->data->data_times.push_back(side->sim->now);
			side->sim->transmit(*side, std::move(b), *src, *dst);
		};
		for (Side *x : { &c, &s }) {
			x->data = std::make_unique<SideData>();
			SideData &d = *x->data;
			std::memset(&d.cfg, 0, sizeof(d.cfg));
			ASSERT_EQ(sctp_reasm_pool_init(&d.reasm_pool, d.reasm_nodes, 256), 0);
			d.outq_nodes.resize(1024);
			ASSERT_EQ(sctp_outq_pool_init(&d.outq_pool, d.outq_nodes.data(), 1024,
						      &buf_ops),
				  0);
			d.rtxq_nodes.resize(rtxq_nodes);
			ASSERT_EQ(
				sctp_rtxq_pool_init(&d.rtxq_pool, d.rtxq_nodes.data(), rtxq_nodes),
				0);
			d.cfg.buf = buf_ops;
			d.cfg.reasm_pool = &d.reasm_pool;
			d.cfg.reasm = { rwnd, 0, 256 };
			d.cfg.tsn_map_words = 16;
			d.cfg.max_dups = 16;
			d.cfg.max_gap_blocks = 16;
			d.cfg.outq_pool = &d.outq_pool;
			d.cfg.rtxq_pool = &d.rtxq_pool;
			d.cfg.outq_max_bytes = outq_max_bytes;
			d.cfg.outq_max_msgs = 4096;
			x->ep.cfg.data = &d.cfg;
			x->ep.cfg.a_rwnd = rwnd;
		}
	}

	// PR-SCTP slots beside both sides' send and retransmission pools.
	void enable_pr()
	{
		for (Side *x : { &c, &s }) {
			SideData &d = *x->data;
			d.rtxq_pr.resize(d.rtxq_pool.n);
			d.outq_pr.resize(d.outq_pool.n);
			ASSERT_EQ(sctp_rtxq_pool_attach_pr(&d.rtxq_pool, d.rtxq_pr.data(),
							   d.rtxq_pool.n),
				  0);
			ASSERT_EQ(sctp_outq_pool_attach_pr(&d.outq_pool, d.outq_pr.data(),
							   d.outq_pool.n),
				  0);
		}
	}

	// I-DATA offered by the sides named (RFC 8260), with their reassembly pools.
	void enable_idata(bool client = true, bool server = true)
	{
		for (Side *x : { &c, &s }) {
			SideData &d = *x->data;
			d.ireasm_nodes.resize(512);
			ASSERT_EQ(sctp_ireasm_pool_init(&d.ireasm_pool, d.ireasm_nodes.data(), 512),
				  0);
			d.cfg.ireasm_pool = &d.ireasm_pool;
			if (x == &c ? client : server)
				x->ep.cfg.extensions |= SCTP_COOKIE_EXT_I_DATA;
		}
	}

	// RE-CONFIG (RFC 6525) offered by the sides named.
	void enable_reconf(bool client = true, bool server = true)
	{
		if (client)
			c.ep.cfg.extensions |= SCTP_COOKIE_EXT_RECONFIG;
		if (server)
			s.ep.cfg.extensions |= SCTP_COOKIE_EXT_RECONFIG;
	}

	// sctp_assoc_send_pr() as send() below.
	int send_pr(Side &x, uint16_t sid, const Bytes &msg, uint8_t policy, uint32_t value,
		    uint8_t flags = 0, uint32_t ppid = 51)
	{
		void *h = fresh_buf(msg);
		const Bytes *b = static_cast<const Bytes *>(h);
		struct sctp_slice sl = { h, b->data(), static_cast<uint32_t>(b->size()) };
		int r = sctp_assoc_send_pr(&x.a, sid, ppid, flags, &sl, policy, value, now);
		if (r != 0)
			put(h);
		return r;
	}

	// Queue a message from x: its bytes in a fresh buffer whose reference
	// passes to the association on success (dropped here on failure).
	int send(Side &x, uint16_t sid, const Bytes &msg, uint8_t flags = 0, uint32_t ppid = 51)
	{
		void *h = fresh_buf(msg);
		const Bytes *b = static_cast<const Bytes *>(h);
		struct sctp_slice sl = { h, b->data(), static_cast<uint32_t>(b->size()) };
		int r = sctp_assoc_send(&x.a, sid, ppid, flags, &sl, now);
		if (r != 0)
			put(h);
		return r;
	}

	Sim(const struct sctp_profile *client_prof, const struct sctp_profile *server_prof,
	    uint64_t one_way, bool multihome = false)
	    : delay(one_way)
	{
		c.multihomed = s.multihomed = multihome;
		c.addr2 = v4(10, 0, 1, 1);
		s.addr2 = v4(10, 0, 1, 2);
		ops.paths_get = [](void *ctx, unsigned, unsigned *got) -> struct sctp_path *
		{
			Side *side = static_cast<Side *>(ctx);
			if (side->paths_lent)
				return nullptr;
			side->paths_lent = true;
			*got = SCTP_MAX_PATHS - 1;
			return side->path_block;
		};
		ops.paths_put = [](void *ctx, struct sctp_path *block) {
			Side *side = static_cast<Side *>(ctx);
			EXPECT_TRUE(side->paths_lent && block == side->path_block) << side->name;
			side->paths_lent = false;
		};
		ops.send = [](void *ctx, const uint8_t *b, size_t len, const struct sctp_addr *src,
			      const struct sctp_addr *dst) {
			Side *side = static_cast<Side *>(ctx);
			side->sim->transmit(*side, Bytes(b, b + len), *src, *dst);
		};
		ops.notify = [](void *ctx, const struct sctp_notification *n) {
			Side *side = static_cast<Side *>(ctx);
			if (n->type == SCTP_NOTIFY_SEND_FAILED && side->data)
				side->data->failed.push_back(*n);
			Note note{ side->sim->now, *n, Bytes(), {} };
			if (n->abort_causes_len)
				note.causes.assign(n->abort_causes,
						   n->abort_causes + n->abort_causes_len);
			if (n->streams != nullptr)
				note.streams.assign(n->streams, n->streams + n->n_streams);
			note.n.streams = nullptr;
			note.sent_before = side->sent.size();
			side->notes.push_back(note);
		};
		ops.hs_get = [](void *ctx) -> struct sctp_assoc_handshake *
		{
			Side *side = static_cast<Side *>(ctx);
			if (side->hs_lent)
				return nullptr;
			side->hs_lent = true;
			return &side->hs_store;
		};
		ops.hs_put = [](void *ctx, struct sctp_assoc_handshake *hs) {
			Side *side = static_cast<Side *>(ctx);
			EXPECT_TRUE(side->hs_lent && hs == &side->hs_store) << side->name;
			side->hs_lent = false;
		};
		setup(c, "client", client_prof, v4(10, 0, 0, 1), kClientPort, kClientTag, false);
		setup(s, "server", server_prof, v4(10, 0, 0, 2), kServerPort, kServerTag, true);
	}
	~Sim()
	{
		sctp_endpoint_fini(&c.ep);
		sctp_endpoint_fini(&s.ep);
	}

	void setup(Side &x, const char *name, const struct sctp_profile *prof,
		   struct sctp_addr addr, uint16_t port, uint32_t tag, bool listening)
	{
		x.name = name;
		x.sim = this;
		x.addr = addr;
		x.port = port;
		x.tag = tag;
		x.rnd = tag ^ 0x1000;
		std::memset(&x.counters, 0, sizeof(x.counters));
		std::memset(&x.stats, 0, sizeof(x.stats));
		struct sctp_endpoint_config cfg;
		std::memset(&cfg, 0, sizeof(cfg));
		cfg.port = port;
		cfg.profile = prof;
		cfg.a_rwnd = 65536;
		cfg.listening = listening;
		cfg.extensions = SCTP_COOKIE_EXT_FORWARD_TSN;
		if (x.multihomed) {
			cfg.n_addrs = 2;
			cfg.addrs[0] = addr;
			cfg.addrs[1] = x.addr2;
		}
		cfg.choose_tag = [](void *ctx, const struct sctp_rx *) {
			Side *x = static_cast<Side *>(ctx);
			return x->fresh_tags ? x->tag + x->tags_issued++ : x->tag;
		};
		cfg.random32 = [](void *ctx) { return static_cast<Side *>(ctx)->rnd++; };
		cfg.ctx = &x;
		uint8_t key[SCTP_COOKIE_KEY_LEN];
		for (unsigned i = 0; i < sizeof(key); i++)
			key[i] = static_cast<uint8_t>(i * 13 + port);
		ASSERT_EQ(sctp_endpoint_init(&x.ep, &cfg, key, now), 0);
		sctp_assoc_init(&x.a, &ops, &x, &x.counters, &x.stats);
	}

	Side &peer_of(const Side &x)
	{
		return &x == &c ? s : c;
	}

	void transmit(Side &from, Bytes b, struct sctp_addr src, struct sctp_addr dst)
	{
		uint8_t first = b.size() > SCTP_COMMON_HDR_LEN ? b[SCTP_COMMON_HDR_LEN] : 0xff;
		from.sent.push_back({ now, b, src, dst, first });
		if (lose && lose(from, b, first))
			return;
		for (const auto &h : blackhole)
			if (sctp_addr_eq(&h, &dst))
				return;
		queue.emplace(now + delay, InFlight{ &peer_of(from), std::move(b), src, dst });
	}

	void deliver(Side &x, const InFlight &p)
	{
		struct sctp_rx rx;
		std::memset(&rx, 0, sizeof(rx));
		const Bytes *pb = &p.bytes;
		if (x.data) {
			// The association may keep slices of it (zero copy).
			rx.handle = fresh_buf(p.bytes);
			pb = static_cast<const Bytes *>(rx.handle);
		}
		ASSERT_EQ(sctp_packet_parse(&rx.pkt, pb->data(), pb->size()), SCTP_PERR_OK);
		rx.src = p.src;
		rx.dst = p.dst;
		struct Unref {
			Sim *sim;
			void *h;
			~Unref()
			{
				if (h != nullptr)
					sim->put(h);
			}
		} unref{ this, rx.handle };
		if (x.has_assoc && !sctp_assoc_freeable(&x.a)) {
			sctp_assoc_input(&x.a, &rx, now);
			return;
		}
		alignas(8) uint8_t out[2048];
		struct sctp_tx tx;
		std::memset(&tx, 0, sizeof(tx));
		tx.buf = out;
		tx.cap = sizeof(out);
		struct sctp_cookie_state st;
		enum sctp_ep_drop drop;
		enum sctp_ootb_result r = sctp_endpoint_input(&x.ep, &rx, now, &tx, &st, &drop);
		if (r != SCTP_OOTB_DISCARD && tx.len)
			transmit(x, Bytes(out, out + tx.len), tx.src, tx.dst);
		if (r == SCTP_OOTB_NEW_ASSOC) {
			sctp_assoc_init(&x.a, &ops, &x, &x.counters, &x.stats);
			ASSERT_EQ(sctp_assoc_from_cookie(&x.a, &x.ep, &st, now), 0);
			x.has_assoc = true;
			sctp_assoc_input_after_cookie(&x.a, &rx, now);
		}
	}

	void connect()
	{
		connect_from(c);
	}

	// x opens an association to its peer (both may: §5.2.1 collisions).
	void connect_from(Side &x)
	{
		Side &y = peer_of(x);
		struct sctp_addr peers[2] = { y.addr, y.addr2 };
		ASSERT_EQ(sctp_assoc_connectx(&x.a, &x.ep, peers, y.multihomed ? 2 : 1, &x.addr,
					      x.port, y.port, now),
			  0);
		x.has_assoc = true;
	}

	// One event at or before limit: a packet first, then timers.
	bool step(uint64_t limit)
	{
		uint64_t tq = queue.empty() ? SCTP_TIME_NEVER : queue.begin()->first;
		uint64_t t = std::min({ tq, wakeup_of(c), wakeup_of(s) });
		if (t == SCTP_TIME_NEVER || t > limit)
			return false;
		now = std::max(now, t);
		if (tq == t) {
			InFlight p = queue.begin()->second;
			queue.erase(queue.begin());
			if (frozen(*p.to, now)) // behind what already waits, in order
				queue.emplace(stall_until, std::move(p));
			else
				deliver(*p.to, p);
		} else if (wakeup_of(c) == t) {
			sctp_assoc_timeout(&c.a, now);
		} else {
			sctp_assoc_timeout(&s.a, now);
		}
		return true;
	}

	// Nothing in flight and no timer running but the heartbeat timer,
	// which an established association always runs (RFC 9260 §8.3).
	bool quiet() const
	{
		if (!queue.empty())
			return false;
		for (const Side *x : { &c, &s })
			for (unsigned t = 0; x->has_assoc && t < SCTP_ASSOC_TIMER_COUNT; t++)
				if (t != SCTP_ASSOC_T_HEARTBEAT &&
				    x->a.timer_at[t] != SCTP_TIME_NEVER)
					return false;
		return true;
	}

	// Until quiet (heartbeats aside), or until limit with everything
	// running; the clock stays at the last event.
	void run(uint64_t limit = SCTP_TIME_NEVER - 1)
	{
		bool until_quiet = limit == SCTP_TIME_NEVER - 1;
		for (int i = 0; i < 100000 && !(until_quiet && quiet()) && step(limit); i++)
			;
	}

	void handshake()
	{
		connect();
		run();
		ASSERT_EQ(c.a.state, SCTP_ASSOC_ESTABLISHED);
		ASSERT_EQ(s.a.state, SCTP_ASSOC_ESTABLISHED);
	}
};

inline uint64_t
one_way_delay(const struct sctp_profile *p)
{
	return p == &sctp_profile_rfc ? SCTP_MS(50) : SCTP_US(20);
}

// Chunks of a type in every packet x sent.
inline unsigned
chunks_of_type(const Side &x, uint8_t type)
{
	unsigned n = 0;
	for (const auto &s : x.sent)
		for (const auto &c : decode(s.bytes).chunks)
			n += c.type == type;
	return n;
}

// The index a test wrote into a message's first four bytes.
inline uint32_t
index_of(const Bytes &b)
{
	uint32_t i;
	std::memcpy(&i, b.data(), 4);
	return i;
}

// No drop in any counter except those named.
inline void
expect_no_drops(const Side &x, std::initializer_list<enum sctp_assoc_drop> allowed = {})
{
	for (unsigned d = 0; d < SCTP_ASSOC_DROP_COUNT; d++) {
		if (std::find(allowed.begin(), allowed.end(), d) != allowed.end())
			continue;
		EXPECT_EQ(x.counters.drops[d], 0u)
			<< x.name << ": "
			<< sctp_assoc_drop_name(static_cast<enum sctp_assoc_drop>(d));
	}
}

// ---- One association, crafted packets ---------------------------------

class One : public ::testing::Test {
      protected:
	void SetUp() override
	{
		prof_ = sctp_profile_rfc;
		make_endpoint();
	}
	void TearDown() override
	{
		sctp_endpoint_fini(&ep_);
	}
	void make_endpoint()
	{
		std::memset(&counters_, 0, sizeof(counters_));
		std::memset(&stats_, 0, sizeof(stats_));
		struct sctp_endpoint_config cfg;
		std::memset(&cfg, 0, sizeof(cfg));
		cfg.port = kClientPort;
		cfg.profile = &prof_;
		cfg.a_rwnd = 65536;
		cfg.extensions = SCTP_COOKIE_EXT_FORWARD_TSN;
		cfg.choose_tag = [](void *ctx, const struct sctp_rx *) {
			One *t = static_cast<One *>(ctx);
			return t->next_tag_ != 0 ? t->next_tag_++ : kClientTag;
		};
		cfg.random32 = [](void *) { return 1000u; };
		cfg.ctx = this;
		cfg.data = data_cfg_;
		uint8_t key[SCTP_COOKIE_KEY_LEN] = { 1 };
		ASSERT_EQ(sctp_endpoint_init(&ep_, &cfg, key, now_), 0);
		std::memset(&ops_, 0, sizeof(ops_)); // paths_get NULL: one path
		ops_.send = [](void *ctx, const uint8_t *b, size_t len, const struct sctp_addr *src,
			       const struct sctp_addr *dst) {
			One *t = static_cast<One *>(ctx);
			t->sent_.push_back({ t->now_, Bytes(b, b + len), *src, *dst, b[12] });
		};
		ops_.notify = [](void *ctx, const struct sctp_notification *n) {
			One *t = static_cast<One *>(ctx);
			Note note{ t->now_, *n, Bytes(), {} };
			if (n->abort_causes_len)
				note.causes.assign(n->abort_causes,
						   n->abort_causes + n->abort_causes_len);
			t->notes_.push_back(note);
		};
		ops_.hs_get = [](void *ctx) -> struct sctp_assoc_handshake *
		{
			One *t = static_cast<One *>(ctx);
			if (t->hs_lent_ || t->hs_refuse_)
				return nullptr;
			t->hs_lent_ = true;
			return &t->hs_store_;
		};
		ops_.hs_put = [](void *ctx, struct sctp_assoc_handshake *hs) {
			One *t = static_cast<One *>(ctx);
			EXPECT_TRUE(t->hs_lent_ && hs == &t->hs_store_);
			t->hs_lent_ = false;
		};
		// The data path (used when data_cfg_ is set): messages are copied
		// out and their slices released at once, as an application would.
		ops_.deliver = [](void *ctx, const struct sctp_reasm_msg *m) {
			One *t = static_cast<One *>(ctx);
			Delivery d{ m->sid, m->ssn, m->ppid, m->flags, Bytes() };
			struct sctp_reasm_iter it;
			struct sctp_slice sl;
			sctp_reasm_iter_init(&it, m);
			while (sctp_reasm_iter_next(&it, &sl)) {
				d.bytes.insert(d.bytes.end(), sl.data, sl.data + sl.len);
				if (sl.handle != nullptr)
					t->data_cfg_->buf.release(t->data_cfg_->buf.ctx, sl.handle);
			}
			EXPECT_EQ(d.bytes.size(), m->len);
			t->delivered_.push_back(d);
		};
		ops_.data_get = [](void *ctx, size_t bytes) -> void * {
			One *t = static_cast<One *>(ctx);
			if (t->data_lent_ || t->data_refuse_)
				return nullptr;
			t->data_lent_ = true;
			t->data_store_.assign((bytes + 7) / 8, 0xa5a5a5a5a5a5a5a5ull);
			return t->data_store_.data();
		};
		ops_.data_put = [](void *ctx, void *mem) {
			One *t = static_cast<One *>(ctx);
			EXPECT_TRUE(t->data_lent_ && mem == t->data_store_.data());
			t->data_lent_ = false;
		};
		sctp_assoc_init(&a_, &ops_, this, &counters_, &stats_);
	}

	void connect()
	{
		struct sctp_addr peer = peer_addr_, local = local_addr_;
		ASSERT_EQ(sctp_assoc_connect(&a_, &ep_, &peer, &local, kClientPort, kServerPort,
					     now_),
			  0);
		ASSERT_EQ(a_.state, SCTP_ASSOC_COOKIE_WAIT);
	}

	// Feed a packet from the peer: common header, then chunk bytes.
	void input(uint32_t vtag, const Bytes &chunks, struct sctp_addr src = v4(10, 0, 0, 2))
	{
		// A packet with a buffer handle may be kept by the association
		// (zero copy): its bytes then live as long as the test.
		kept_.push_back(std::make_unique<Bytes>(SCTP_COMMON_HDR_LEN));
		Bytes &p = *kept_.back();
		struct sctp_writer w = sctp_writer_make(p.data(), p.size());
		sctp_packet_build_header(&w, kServerPort, kClientPort, vtag);
		p.insert(p.end(), chunks.begin(), chunks.end());
		struct sctp_rx rx;
		std::memset(&rx, 0, sizeof(rx));
		ASSERT_EQ(sctp_packet_parse(&rx.pkt, p.data(), p.size()), SCTP_PERR_OK);
		rx.src = src;
		rx.dst = local_addr_;
		rx.handle = rx_handle_;
		sctp_assoc_input(&a_, &rx, now_);
	}
	void input_hex(uint32_t vtag, const std::string &h)
	{
		input(vtag, hex::bytes(h));
	}

	// An INIT ACK chunk (tag, streams) with a cookie unless told otherwise.
	static Bytes init_ack(uint32_t tag, uint16_t os, uint16_t mis,
			      const std::function<void(struct sctp_writer *)> &params = nullptr,
			      bool cookie = true)
	{
		Bytes b(2048);
		struct sctp_writer w = sctp_writer_make(b.data(), b.size());
		struct sctp_init ack;
		std::memset(&ack, 0, sizeof(ack));
		ack.type = SCTP_CHUNK_INIT_ACK;
		ack.init_tag = tag;
		ack.a_rwnd = 32768;
		ack.os = os;
		ack.mis = mis;
		ack.initial_tsn = 5000;
		size_t off = sctp_init_build_begin(&w, &ack);
		if (params)
			params(&w);
		if (cookie) {
			static const uint8_t ck[12] = { 'c', 'o', 'o', 'k', 'i', 'e',
							1,   2,	  3,   4,   5,	 6 };
			struct sctp_param_state_cookie sc = { ck, sizeof(ck) };
			sctp_param_state_cookie_build(&w, &sc);
		}
		sctp_init_build_end(&w, off);
		EXPECT_TRUE(sctp_writer_ok(&w));
		b.resize(w.off);
		return b;
	}

	void to_cookie_echoed()
	{
		connect();
		input(kClientTag, init_ack(kServerTag, 10, 10));
		ASSERT_EQ(a_.state, SCTP_ASSOC_COOKIE_ECHOED);
	}
	void to_established()
	{
		to_cookie_echoed();
		input_hex(kClientTag, "0b000004");
		ASSERT_EQ(a_.state, SCTP_ASSOC_ESTABLISHED);
	}
	// SHUTDOWN-PENDING and SHUTDOWN-RECEIVED are left at once while no data
	// can be outstanding, so tests of their cells set the state directly.
	void to_state(enum sctp_assoc_state s)
	{
		switch (s) {
		case SCTP_ASSOC_CLOSED:
			to_established();
			ASSERT_EQ(sctp_assoc_abort(&a_, now_, nullptr, 0), 0);
			break;
		case SCTP_ASSOC_COOKIE_WAIT:
			connect();
			break;
		case SCTP_ASSOC_COOKIE_ECHOED:
			to_cookie_echoed();
			break;
		case SCTP_ASSOC_SHUTDOWN_SENT:
			to_established();
			ASSERT_EQ(sctp_assoc_shutdown(&a_, now_), 0);
			break;
		case SCTP_ASSOC_SHUTDOWN_ACK_SENT:
			to_established();
			input_hex(kClientTag, "07000008 00000000");
			break;
		default:
			to_established();
			a_.state = static_cast<uint8_t>(s);
			break;
		}
		ASSERT_EQ(a_.state, s);
	}

	const Sent &last() const
	{
		return sent_.back();
	}

	// A new CLOSED association in a_; a live one is aborted first, as a
	// caller must, so that it gives back what it was lent.
	void fresh()
	{
		if (a_.state != SCTP_ASSOC_CLOSED) {
			ASSERT_EQ(sctp_assoc_abort(&a_, now_, nullptr, 0), 0);
		}
		ASSERT_FALSE(hs_lent_);
		sctp_assoc_init(&a_, &ops_, this, &counters_, &stats_);
	}

	struct sctp_profile prof_;
	struct sctp_endpoint ep_;
	struct sctp_assoc a_;
	struct sctp_assoc_counters counters_;
	struct sctp_assoc_stats stats_;
	struct sctp_assoc_ops ops_;
	struct sctp_addr peer_addr_ = v4(10, 0, 0, 2), local_addr_ = v4(10, 0, 0, 1);
	uint64_t now_ = kT0;
	uint32_t next_tag_ = 0; // non-zero: the tags choose_tag hands out next
	struct sctp_assoc_handshake hs_store_;
	bool hs_lent_ = false;
	// The data path, off unless a test sets data_cfg_ before make_endpoint().
	struct Delivery {
		uint16_t sid, ssn;
		uint32_t ppid;
		uint8_t flags;
		Bytes bytes;
	};
	const struct sctp_data_config *data_cfg_ = nullptr;
	void *rx_handle_ = nullptr; // the handle input() gives its packets
	std::vector<uint64_t> data_store_;
	bool data_lent_ = false;
	bool data_refuse_ = false;
	std::vector<Delivery> delivered_;
	std::vector<std::unique_ptr<Bytes>> kept_; // every packet input() made
	bool hs_refuse_ = false;		   // hs_get() has nothing to lend
	std::vector<Sent> sent_;
	std::vector<Note> notes_;
};

} // namespace

#endif // SCTP_TESTS_ASSOC_HARNESS_H
