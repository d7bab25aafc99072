// SPDX-License-Identifier: BSD-3-Clause
// The receive path under impairment (suite sim): a real association (made
// from a cookie, with the data path configured) receives the traffic of a
// scripted sender through a seeded impairment stage, and its SACKs go back
// through another. The scripted sender is deliberately simple — it sends
// DATA within the advertised window, retransmits what a SACK reports
// missing three times or what a fixed timeout leaves unacknowledged, and
// forgets what the cumulative TSN covers — so that every message arriving,
// and the run ending at all, depends on the association's SACKs being
// right (cumulative TSN, gap blocks, window).
//
// Every run checks, with the judge of sctp/sim/sim_traffic.h: every message
// delivered exactly once, in order on ordered streams, byte-identical; no
// more than one SACK per packet carrying DATA; and, after the association
// is aborted and the stages drained, every packet buffer the association
// held given back (zero copy) and the reassembly pool full again.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "drivers/impair/impair.h"
#include "sctp/assoc.h"
#include "sctp/chunk.h"
#include "sctp/sim/sim_traffic.h"
}

namespace {

constexpr uint32_t kPayloadMax = 1200; // per DATA chunk
constexpr uint32_t kPacketMax = 1400;  // bytes of chunks per packet
constexpr uint32_t kPeerTag = 0x5e4d3c2b, kOurTag = 0x1a2b3c4d;
constexpr uint32_t kPeerTsn0 = 0xfffffff0u; // the sender's TSNs wrap during the run

// Packet buffers in flight or held by the association: refcounted.
struct Pkt {
	std::vector<uint8_t> bytes;
	int refs = 0; // the stage's, the association's, and the delivered slices'
};

struct Scenario {
	const struct sctp_profile *prof;
	const char *name;
	struct impair_config net; // both directions
	uint32_t messages;
	uint32_t max_len;
	uint16_t streams;
	uint8_t unordered_pct;
	uint64_t seed;
};

std::string
replay_line(const Scenario &sc)
{
	char buf[256];
	impair_format(&sc.net, sc.seed, buf, sizeof(buf));
	return std::string("profile=") + (sc.prof == &sctp_profile_dc ? "dc" : "rfc") +
	       " scenario=" + sc.name + " impair=" + buf +
	       " messages=" + std::to_string(sc.messages) +
	       " streams=" + std::to_string(sc.streams);
}

class Run {
      public:
	explicit Run(const Scenario &sc) : sc_(sc)
	{
		traffic_ = {}; // no PR-SCTP mix: the receive path alone
		traffic_.seed = sc.seed;
		traffic_.messages = sc.messages;
		traffic_.min_len = 1;
		traffic_.max_len = sc.max_len;
		traffic_.streams = sc.streams;
		traffic_.unordered_pct = sc.unordered_pct;
		seen_.resize(sc.messages / 8 + 1);
		last_k_.resize(sc.streams);
		scratch_.resize(SIM_TRAFFIC_MAX_LEN);
		sim_traffic_judge_init(&judge_, &traffic_, 0, seen_.data(), last_k_.data());
		one_way_ = sc.prof == &sctp_profile_dc ? SCTP_US(20) : SCTP_MS(50);
		rto_ = sc.prof == &sctp_profile_dc ? SCTP_MS(2) : SCTP_S(1);
		struct impair_config net = sc.net;
		net.delay_ns = one_way_;
		for (int i = 0; i < 2; i++) {
			stage_mem_[i].resize(impair_storage_size(4096) / 8 + 1);
			stage_ops_.dup = [](void *ctx, uintptr_t h, uint32_t, uintptr_t *copy) {
				Run *r = static_cast<Run *>(ctx);
				Pkt *p = reinterpret_cast<Pkt *>(h);
				*copy = reinterpret_cast<uintptr_t>(r->new_pkt(p->bytes));
				return true;
			};
			stage_ops_.ctx = this;
			if (impair_init(&stage_[i], &net, &stage_ops_, sc.seed * 2 + i, 4096,
					stage_mem_[i].data(), stage_mem_[i].size() * 8) != 0)
				ADD_FAILURE() << "impair_init";
		}
		setup_receiver();
		split_messages();
	}
	~Run()
	{
		sctp_endpoint_fini(&ep_);
	}

	// Until every message is acknowledged or the virtual deadline.
	void go()
	{
		uint64_t deadline =
			now_ + (sc_.prof == &sctp_profile_dc ? SCTP_S(60) : SCTP_S(3600));
		send_what_we_can();
		for (int steps = 0; steps < 5000000 && !done(); steps++) {
			uint64_t t =
				std::min({ impair_next_due(&stage_[0]), impair_next_due(&stage_[1]),
					   sctp_assoc_next_wakeup(&a_), rtx_timer_ });
			if (t == SCTP_TIME_NEVER || t > deadline)
				break;
			now_ = std::max(now_, t);
			uintptr_t h;
			uint32_t len;
			if (impair_pop(&stage_[0], now_, &h, &len)) {
				to_receiver(reinterpret_cast<Pkt *>(h));
			} else if (impair_pop(&stage_[1], now_, &h, &len)) {
				to_sender(reinterpret_cast<Pkt *>(h));
			} else if (sctp_assoc_next_wakeup(&a_) <= now_) {
				sctp_assoc_timeout(&a_, now_);
			} else if (rtx_timer_ <= now_) {
				on_rtx_timeout();
			}
		}
	}

	bool done() const
	{
		return next_chunk_ == chunks_.size() && outstanding_.empty();
	}

	// Tear down and check that nothing is left anywhere.
	void finish()
	{
		sctp_assoc_abort(&a_, now_, nullptr, 0);
		for (int i = 0; i < 2; i++)
			impair_drain(
				&stage_[i],
				[](void *ctx, uintptr_t h, uint32_t) {
					static_cast<Run *>(ctx)->put(reinterpret_cast<Pkt *>(h));
				},
				this);
	}

	const Scenario &sc_;
	struct sim_traffic_config traffic_;
	struct sim_traffic_judge judge_;
	struct sctp_assoc_counters counters_ = {};
	struct sctp_assoc_stats stats_ = {};
	uint64_t data_packets_in_ = 0; // packets with DATA handed to the association
	uint64_t sacks_ = 0;
	uint64_t retransmissions_ = 0;
	uint64_t partial_parts_ = 0; // deliveries continuing a partial delivery
	uint64_t now_ = SCTP_S(1);
	std::vector<std::unique_ptr<Pkt>> pkts_;
	std::vector<Pkt *> free_;
	struct sctp_reasm_pool pool_;
	std::vector<struct sctp_reasm_node> nodes_ = std::vector<struct sctp_reasm_node>(512);
	size_t bufs_in_use() const
	{
		return pkts_.size() - free_.size();
	}

      private:
	// A message delivered whole is judged at once. One delivered in parts
	// (partial delivery: the first part has MORE, the middle ones CONT|MORE,
	// the last CONT; at most one such message at a time, other messages may
	// go up between its parts) is collected and judged whole. Slices'
	// references are released as soon as their bytes are read.
	void on_deliver(const struct sctp_reasm_msg *m)
	{
		struct sctp_reasm_iter it;
		struct sctp_slice sl;
		bool part = (m->flags & (SCTP_REASM_MSG_MORE | SCTP_REASM_MSG_CONT)) != 0;
		std::vector<uint8_t> whole;
		std::vector<uint8_t> &into = part ? partial_ : whole;
		if (part && !(m->flags & SCTP_REASM_MSG_CONT)) {
			EXPECT_TRUE(partial_.empty()) << "two partial deliveries at once";
			partial_.clear();
			partial_ppid_ = m->ppid;
			partial_sid_ = m->sid;
		} else if (m->flags & SCTP_REASM_MSG_CONT) {
			EXPECT_EQ(m->sid, partial_sid_) << "a part of another message";
			partial_parts_++;
		}
		sctp_reasm_iter_init(&it, m);
		while (sctp_reasm_iter_next(&it, &sl)) {
			into.insert(into.end(), sl.data, sl.data + sl.len);
			if (sl.handle != nullptr)
				put(static_cast<Pkt *>(sl.handle));
		}
		if (m->flags & SCTP_REASM_MSG_MORE)
			return;
		const uint8_t *d = into.data();
		uint32_t l = (uint32_t)into.size();
		sim_traffic_judge(
			&judge_, part ? partial_ppid_ : m->ppid, part ? partial_sid_ : m->sid,
			(m->flags & SCTP_REASM_MSG_UNORDERED) != 0, &d, &l, 1, scratch_.data());
		if (part)
			partial_.clear();
	}

	struct Chunk {
		uint32_t tsn;
		uint16_t sid, ssn;
		uint32_t ppid;
		uint8_t flags;
		std::vector<uint8_t> payload;
		bool gap_acked = false;
		bool marked = false;
		unsigned misses = 0;
		bool fast_rtx_done = false;
	};

	Pkt *new_pkt(const std::vector<uint8_t> &b)
	{
		Pkt *p;
		if (!free_.empty()) {
			p = free_.back();
			free_.pop_back();
		} else {
			pkts_.push_back(std::make_unique<Pkt>());
			p = pkts_.back().get();
		}
		p->bytes = b;
		p->refs = 1;
		return p;
	}
	void put(Pkt *p)
	{
		EXPECT_GT(p->refs, 0);
		if (--p->refs == 0)
			free_.push_back(p);
	}

	void setup_receiver()
	{
		ASSERT_EQ(sctp_reasm_pool_init(&pool_, nodes_.data(), (uint32_t)nodes_.size()), 0);
		data_.buf.hold = [](void *, void *h) { static_cast<Pkt *>(h)->refs++; };
		data_.buf.release = [](void *ctx, void *h) {
			static_cast<Run *>(ctx)->put(static_cast<Pkt *>(h));
		};
		data_.buf.ctx = this;
		data_.reasm_pool = &pool_;
		data_.reasm = { 256 * 1024, 64 * 1024, 400 };
		data_.tsn_map_words = 16;
		data_.max_dups = 16;
		data_.max_gap_blocks = 16;
		struct sctp_endpoint_config cfg = {};
		cfg.port = 5001;
		cfg.profile = sc_.prof;
		cfg.a_rwnd = data_.reasm.max_bytes;
		cfg.listening = true;
		cfg.choose_tag = [](void *, const struct sctp_rx *) { return kOurTag; };
		cfg.random32 = [](void *ctx) { return static_cast<Run *>(ctx)->rnd_++; };
		cfg.ctx = this;
		cfg.data = &data_;
		uint8_t key[SCTP_COOKIE_KEY_LEN] = { 9 };
		ASSERT_EQ(sctp_endpoint_init(&ep_, &cfg, key, now_), 0);
		ops_.send = [](void *ctx, const uint8_t *b, size_t len, const struct sctp_addr *,
			       const struct sctp_addr *) {
			Run *r = static_cast<Run *>(ctx);
			Pkt *p = r->new_pkt(std::vector<uint8_t>(b, b + len));
			if (len > 12 && b[12] == SCTP_CHUNK_SACK)
				r->sacks_++;
			if (impair_push(&r->stage_[1], reinterpret_cast<uintptr_t>(p),
					(uint32_t)len, r->now_) != IMPAIR_QUEUED)
				r->put(p);
		};
		ops_.notify = [](void *, const struct sctp_notification *) {};
		ops_.deliver = [](void *ctx, const struct sctp_reasm_msg *m) {
			static_cast<Run *>(ctx)->on_deliver(m);
		};
		ops_.data_get = [](void *ctx, size_t n) -> void * {
			Run *r = static_cast<Run *>(ctx);
			r->data_mem_.assign((n + 7) / 8, 0);
			return r->data_mem_.data();
		};
		ops_.data_put = [](void *, void *) {};
		struct sctp_cookie_state st = {};
		st.local_vtag = kOurTag;
		st.peer_vtag = kPeerTag;
		st.local_initial_tsn = 1;
		st.peer_initial_tsn = kPeerTsn0;
		st.peer_a_rwnd = 1u << 20;
		st.outbound_streams = 1;
		st.inbound_streams = sc_.streams;
		st.local_port = 5001;
		st.peer_port = 40000;
		st.peer_src = addr_peer_;
		st.local_addr = addr_us_;
		sctp_assoc_init(&a_, &ops_, this, &counters_, &stats_);
		ASSERT_EQ(sctp_assoc_from_cookie(&a_, &ep_, &st, now_), 0);
		ASSERT_NE(a_.data_mem, nullptr);
	}

	// Every message cut into DATA chunks, TSNs in order, SSN per stream.
	void split_messages()
	{
		std::vector<uint16_t> next_ssn(sc_.streams, 0);
		uint32_t tsn = kPeerTsn0;
		std::vector<uint8_t> bytes(SIM_TRAFFIC_MAX_LEN);
		for (uint32_t k = 0; k < sc_.messages; k++) {
			struct sim_traffic_msg m = sim_traffic_msg(&traffic_, 0, k);
			sim_traffic_fill(&traffic_, 0, &m, bytes.data());
			uint16_t ssn = m.unordered ? 0 : next_ssn[m.sid]++;
			for (uint32_t at = 0; at < m.len; at += kPayloadMax) {
				uint32_t n = std::min(kPayloadMax, m.len - at);
				Chunk c;
				c.tsn = tsn++;
				c.sid = m.sid;
				c.ssn = ssn;
				c.ppid = k;
				c.flags = (at == 0 ? SCTP_DATA_FLAG_B : 0) |
					  (at + n == m.len ? SCTP_DATA_FLAG_E : 0) |
					  (m.unordered ? SCTP_DATA_FLAG_U : 0);
				c.payload.assign(bytes.begin() + at, bytes.begin() + at + n);
				chunks_.push_back(std::move(c));
			}
		}
	}

	uint32_t in_flight() const
	{
		uint32_t b = 0;
		for (const auto &o : outstanding_)
			if (!o.second.gap_acked)
				b += (uint32_t)o.second.payload.size();
		return b;
	}

	// Retransmissions first, then new chunks, within the peer's window.
	void send_what_we_can()
	{
		std::vector<const Chunk *> batch;
		uint32_t room = kPacketMax, flight = in_flight();
		auto flush = [&]() {
			if (batch.empty())
				return;
			std::vector<uint8_t> b(12 + kPacketMax + 64);
			struct sctp_writer w = sctp_writer_make(b.data(), b.size());
			sctp_packet_build_header(&w, 40000, 5001, kOurTag);
			for (const Chunk *c : batch) {
				struct sctp_data d = {};
				d.flags = c->flags;
				d.tsn = c->tsn;
				d.sid = c->sid;
				d.ssn = c->ssn;
				d.ppid = c->ppid;
				d.payload = c->payload.data();
				d.payload_len = (uint16_t)c->payload.size();
				sctp_data_build(&w, &d);
			}
			EXPECT_TRUE(sctp_writer_ok(&w));
			b.resize(w.off);
			Pkt *p = new_pkt(b);
			if (impair_push(&stage_[0], reinterpret_cast<uintptr_t>(p),
					(uint32_t)b.size(), now_) != IMPAIR_QUEUED)
				put(p);
			batch.clear();
			room = kPacketMax;
		};
		auto add = [&](const Chunk *c) {
			uint32_t need = 16 + (((uint32_t)c->payload.size() + 3) & ~3u);
			if (need > room)
				flush();
			batch.push_back(c);
			room -= need;
		};
		for (auto &o : outstanding_) {
			if (o.second.marked) {
				o.second.marked = false;
				o.second.misses = 0;
				retransmissions_++;
				add(&o.second);
			}
		}
		while (next_chunk_ < chunks_.size() &&
		       flight + chunks_[next_chunk_].payload.size() <=
			       std::max(peer_rwnd_, 1200u) &&
		       outstanding_.size() < 300) {
			Chunk &c = chunks_[next_chunk_++];
			flight += (uint32_t)c.payload.size();
			auto it = outstanding_.emplace(c.tsn - kPeerTsn0, c).first;
			add(&it->second);
		}
		flush();
		rtx_timer_ = outstanding_.empty() ? SCTP_TIME_NEVER : now_ + rto_;
	}

	void on_rtx_timeout()
	{
		for (auto &o : outstanding_)
			if (!o.second.gap_acked)
				o.second.marked = true;
		send_what_we_can();
	}

	void to_receiver(Pkt *p)
	{
		struct sctp_rx rx = {};
		if (sctp_packet_parse(&rx.pkt, p->bytes.data(), p->bytes.size()) == SCTP_PERR_OK) {
			rx.src = addr_peer_;
			rx.dst = addr_us_;
			rx.handle = p;
			data_packets_in_++;
			sctp_assoc_input(&a_, &rx, now_);
		}
		put(p); // the stage's reference; the association holds what it keeps
	}

	void to_sender(Pkt *p)
	{
		struct sctp_packet pkt;
		struct sctp_chunk_iter it;
		struct sctp_chunk c;
		EXPECT_EQ(sctp_packet_parse(&pkt, p->bytes.data(), p->bytes.size()), SCTP_PERR_OK);
		sctp_chunk_iter_init(&it, &pkt);
		while (sctp_chunk_iter_next(&it, &c)) {
			struct sctp_sack s;
			if (c.type != SCTP_CHUNK_SACK || sctp_sack_parse(&c, &s) != SCTP_PERR_OK)
				continue;
			on_sack(s);
		}
		put(p);
		send_what_we_can();
	}

	void on_sack(const struct sctp_sack &s)
	{
		// Keys are TSN offsets from kPeerTsn0, so the map stays ordered across the wrap.
		uint32_t cum = s.cum_tsn - kPeerTsn0 + 1; // chunks below this key are acked
		if ((int32_t)(s.cum_tsn - (kPeerTsn0 - 1)) < 0)
			cum = 0;
		while (!outstanding_.empty() && outstanding_.begin()->first < cum)
			outstanding_.erase(outstanding_.begin());
		for (auto &o : outstanding_)
			o.second.gap_acked = false;
		uint32_t highest = cum;
		for (uint16_t i = 0; i < s.n_gaps; i++) {
			struct sctp_sack_gap g = sctp_sack_gap_block(&s, i);
			for (uint32_t off = g.start; off <= g.end; off++) {
				auto it = outstanding_.find(cum - 1 + off);
				if (it != outstanding_.end())
					it->second.gap_acked = true;
			}
			highest = std::max(highest, cum - 1 + g.end);
		}
		for (auto &o : outstanding_) {
			if (o.first >= highest)
				break;
			if (!o.second.gap_acked && ++o.second.misses >= 3 &&
			    !o.second.fast_rtx_done) {
				o.second.marked = true;
				o.second.fast_rtx_done = true;
			}
		}
		peer_rwnd_ = s.a_rwnd;
	}

	struct sctp_endpoint ep_;
	struct sctp_assoc a_;
	struct sctp_assoc_ops ops_ = {};
	struct sctp_data_config data_ = {};
	std::vector<uint64_t> data_mem_;
	std::vector<uint8_t> seen_;
	std::vector<int64_t> last_k_;
	std::vector<uint8_t> scratch_;
	std::vector<uint8_t> partial_;
	uint32_t partial_ppid_ = 0;
	uint16_t partial_sid_ = 0;
	struct impair stage_[2]; // 0: sender -> association, 1: back
	struct impair_ops stage_ops_ = {};
	std::vector<uint64_t> stage_mem_[2];
	std::vector<Chunk> chunks_;
	size_t next_chunk_ = 0;
	std::map<uint32_t, Chunk> outstanding_; // by TSN offset
	uint32_t peer_rwnd_ = 1u << 20;
	uint64_t rtx_timer_ = SCTP_TIME_NEVER;
	uint64_t one_way_, rto_;
	uint32_t rnd_ = 77;
	struct sctp_addr addr_peer_ = sctp_addr_v4((const uint8_t *)"\x0a\x00\x00\x01");
	struct sctp_addr addr_us_ = sctp_addr_v4((const uint8_t *)"\x0a\x00\x00\x02");
};

struct Net {
	const char *name;
	uint32_t loss_pct_x10; // loss in tenths of a percent
	bool bursts;
	bool dup_reorder;
};

void
sweep(const struct sctp_profile *prof, const Net &n, unsigned seeds, uint32_t messages,
      uint16_t streams)
{
	unsigned failed = 0;
	uint64_t retrans = 0, sacks = 0, in = 0;
	for (unsigned s = 1; s <= seeds; s++) {
		Scenario sc{};
		sc.prof = prof;
		sc.name = n.name;
		sc.net.loss_ppb = n.loss_pct_x10 * (IMPAIR_PPB_ONE / 1000u);
		if (n.bursts) {
			sc.net.loss_ppb = 0;
			sc.net.burst_enter_ppb = IMPAIR_PCT(1);
			sc.net.burst_leave_ppb = IMPAIR_PCT(30);
			sc.net.burst_loss_bad_ppb = IMPAIR_PPB_ONE;
		}
		if (n.dup_reorder) {
			sc.net.dup_ppb = IMPAIR_PCT(5);
			sc.net.reorder_ppb = IMPAIR_PCT(5);
			sc.net.reorder_gap = 3;
		}
		sc.messages = messages;
		sc.max_len = SIM_TRAFFIC_MAX_LEN;
		sc.streams = streams;
		sc.unordered_pct = 20;
		sc.seed = s;
		Run r(sc);
		r.go();
		bool ok = r.done() && sim_traffic_missing(&r.judge_) == 0 && r.judge_.bad == 0 &&
			  r.sacks_ <= r.data_packets_in_;
		r.finish();
		ok = ok && r.bufs_in_use() == 0 && r.pool_.n_free == r.pool_.n;
		if (!ok) {
			failed++;
			ADD_FAILURE() << "SIM_RX_REPLAY='" << replay_line(sc) << "' done "
				      << r.done() << ", missing " << sim_traffic_missing(&r.judge_)
				      << ", bad " << r.judge_.bad << " (first "
				      << sim_traffic_verdict_name(r.judge_.first_bad) << " k "
				      << r.judge_.first_bad_k << "), sacks " << r.sacks_ << " for "
				      << r.data_packets_in_ << " packets, buffers left "
				      << r.bufs_in_use() << ", pool " << r.pool_.n_free << "/"
				      << r.pool_.n;
		}
		retrans += r.retransmissions_;
		sacks += r.sacks_;
		in += r.data_packets_in_;
	}
	printf("[sim-rx] profile=%-3s net=%-22s streams=%-4u runs=%u failed=%u | packets in "
	       "%" PRIu64 ", SACKs %" PRIu64 " (%.2f per packet), sender retransmissions %" PRIu64
	       "\n",
	       prof == &sctp_profile_dc ? "dc" : "rfc", n.name, streams, seeds, failed, in, sacks,
	       in ? (double)sacks / (double)in : 0.0, retrans);
}

const Net kNets[] = {
	{ "loss0", 0, false, false },
	{ "loss0.1", 1, false, false },
	{ "loss1", 10, false, false },
	{ "loss5", 50, false, false },
	{ "loss20", 200, false, false },
	{ "bursts", 0, true, false },
	{ "loss1_dup5_reorder5", 10, false, true },
};

TEST(SimRx, EveryMessageOnceInOrderUnderImpairmentDc)
{
	for (const Net &n : kNets)
		sweep(&sctp_profile_dc, n, 40, 120, 16);
}

TEST(SimRx, EveryMessageOnceInOrderUnderImpairmentRfc)
{
	for (const Net &n : kNets)
		sweep(&sctp_profile_rfc, n, 20, 120, 16);
}

TEST(SimRx, ManyStreamsAndSmallMessages)
{
	sweep(&sctp_profile_dc, kNets[2], 6, 400, 1024);
}

} // namespace
