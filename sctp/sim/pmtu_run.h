// SPDX-License-Identifier: BSD-3-Clause
// A pair simulation with a per-direction MTU hop (docs/SIM.md "Path MTU",
// docs/PMTU.md): two established associations exchanging 64 KiB messages
// both ways through seeded impairment stages on a virtual clock, each
// packet first judged by the hop of its direction. Over the hop's MTU a
// packet is dropped silently or answered with an ICMP Fragmentation
// Needed quoting it (fed to the sender's sctp_assoc_icmp() half a one-way
// delay later); a packet the sender IP-fragments at the source
// (sctp_assoc_frag_mtu() during the send) passes when its fragments fit.
// The MTU, and whether the hop answers, change mid-run on a schedule.
//
// Header-only C++ shared by the sim test (sctp/sim/tests/sim_pmtu_test.cc)
// and the benchmark (bench/pmtu_bench.cc): the same run measured and judged.
// Every message is judged as in sim_data_test (sctp/sim/sim_traffic.h):
// exactly once, in order, byte-identical.
#ifndef SCTP_SIM_PMTU_RUN_H
#define SCTP_SIM_PMTU_RUN_H

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "drivers/impair/impair.h"
#include "sctp/assoc.h"
#include "sctp/chunk.h"
#include "sctp/sim/sim_traffic.h"
}

namespace pmtu_sim {

// One hop change, at a virtual time counted from the start of the data.
struct Step {
	uint64_t at_ns;
	uint16_t mtu;
	bool icmp; // over-size packets answered with ICMP (else silently dropped)
};

struct Config {
	const struct sctp_profile *profile = &sctp_profile_rfc; // copied, then pmtud/plpmtud set
	bool pmtud = true;
	bool plpmtud = true;
	uint64_t raise_ns = SCTP_S(600);
	uint64_t seed = 1;
	uint32_t messages = 150; // per side, SIM_TRAFFIC_MAX_LEN bytes each
	uint16_t start_mtu = 1500;
	bool start_icmp = true;
	std::vector<Step> steps;
	uint32_t loss_ppb = 0;
	// After the last message, keep running this long (a raise timer to see through).
	uint64_t linger_ns = 0;
};

struct Result {
	bool ok = false;
	std::string why;
	uint64_t t_done = 0;	      // all delivered, from the start of the data
	uint64_t bytes[2] = { 0, 0 }; // delivered to side i
	uint64_t dropped = 0, icmp = 0, fragmented = 0;
	// Time from the first step to the first message queued after it delivered, per sender.
	uint64_t recover_ns[2] = { 0, 0 };
	uint64_t bytes_before = 0, bytes_after = 0; // delivered before / after the first step
	// Delivered both ways in the second before the first step, and in the
	// second after the recovery of side 0's direction (recover_ns[0]).
	uint64_t bytes_second_before = 0, bytes_second_after = 0;
	uint64_t t_first_step = 0;
	uint16_t final_mtu[2] = { 0, 0 }; // each side's path MTU at the end
	struct sctp_assoc_counters counters[2];
	unsigned lost_notes = 0, mtu_notes[2] = { 0, 0 };
	// Once everything was delivered (the linger): the most path and association
	// errors seen, and the probes lost meanwhile (RFC 8899 §4.4: never an error).
	unsigned errors_after_done = 0;
	uint64_t probes_lost_after_done = 0;
	uint64_t t3_after_done = 0;
	// Once side i's PLPMTU first reached the hop's MTU (within the 4-byte step)
	// after the last step: when, and its probes the hop refused from then on,
	// until it next declared a black hole (then a new search starts).
	uint64_t t_found[2] = { 0, 0 };
	uint64_t over_probes_after_found[2] = { 0, 0 };
};

class Run {
      public:
	explicit Run(const Config &cfg) : cfg_(cfg)
	{
		prof_ = *cfg.profile;
		prof_.pmtud = cfg.pmtud;
		prof_.plpmtud = cfg.plpmtud;
		prof_.plpmtud_raise_ns = cfg.raise_ns;
		mtu_ = cfg.start_mtu;
		icmp_ = cfg.start_icmp;
		for (unsigned i = 0; i < 2; i++) {
			traffic_[i] = {};
			traffic_[i].seed = cfg.seed * 2 + i;
			traffic_[i].messages = cfg.messages;
			traffic_[i].min_len = SIM_TRAFFIC_MAX_LEN;
			traffic_[i].max_len = SIM_TRAFFIC_MAX_LEN;
			traffic_[i].streams = 2;
			seen_[i].resize(cfg.messages / 8 + 1);
			last_k_[i].resize(2);
		}
		scratch_.resize(SIM_TRAFFIC_MAX_LEN);
		buf_ops_.hold = [](void *, void *h) { static_cast<Buf *>(h)->refs++; };
		buf_ops_.release = [](void *ctx, void *h) {
			static_cast<Run *>(ctx)->put(static_cast<Buf *>(h));
		};
		buf_ops_.ctx = this;
		struct impair_config ic = {};
		ic.loss_ppb = cfg.loss_ppb;
		ic.delay_ns = prof_.rto_min_ns >= SCTP_MS(100) ? SCTP_MS(25) : SCTP_US(20);
		delay_ = ic.delay_ns;
		stage_ops_.dup = [](void *, uintptr_t, uint32_t, uintptr_t *) { return false; };
		stage_ops_.ctx = this;
		for (unsigned i = 0; i < 2; i++) {
			stage_mem_[i].resize(impair_storage_size(8192) / 8 + 1);
			setup_ok_ &=
				impair_init(&stage_[i], &ic, &stage_ops_, cfg.seed * 7 + i, 8192,
					    stage_mem_[i].data(), stage_mem_[i].size() * 8) == 0;
		}
		for (unsigned i = 0; i < 2; i++) {
			end_[i].run = this;
			end_[i].id = i;
			sim_traffic_judge_init(&end_[i].judge, &traffic_[1 - i], 1 - i,
					       seen_[i].data(), last_k_[i].data());
			setup(end_[i]);
		}
	}
	~Run()
	{
		for (End &e : end_)
			sctp_endpoint_fini(&e.ep);
	}
	Run(const Run &) = delete;
	Run &operator=(const Run &) = delete;

	struct sctp_assoc *assoc(unsigned i)
	{
		return &end_[i].a;
	}
	uint64_t now() const
	{
		return now_;
	}
	// The last packet side i sent that the hop refused, as the hop saw it.
	const std::vector<uint8_t> &last_refused(unsigned i) const
	{
		return refused_[i];
	}

	Result go()
	{
		Result res;
		if (!setup_ok_) {
			res.why = "setup failed";
			return res;
		}
		uint64_t t0 = now_;
		uint64_t deadline =
			now_ + (prof_.rto_min_ns >= SCTP_MS(100) ? SCTP_S(7200) : SCTP_S(600));
		size_t step = 0;
		uint64_t t_step = SCTP_TIME_NEVER;
		uint32_t k_at_step[2] = { 0, 0 };
		uint64_t done_at = SCTP_TIME_NEVER;
		bool shut = false;
		feed();
		for (long n = 0; n < 50000000; n++) {
			if (done_at == SCTP_TIME_NEVER && all_delivered()) {
				done_at = now_;
				res.t_done = now_ - t0;
				for (unsigned i = 0; i < 2; i++) {
					lost_at_done_[i] = end_[i].counters.plpmtud_probes_lost;
					t3_at_done_[i] = end_[i].stats.t3_expiries;
				}
			}
			for (unsigned i = 0; i < 2 && step >= cfg_.steps.size(); i++) {
				uint16_t m = sctp_paths_get(&end_[i].a.paths, 0)->mtu;
				if (found_at_[i] == SCTP_TIME_NEVER && m <= mtu_ && m + 4u > mtu_) {
					found_at_[i] = now_;
					bh_at_found_[i] = end_[i].counters.plpmtud_black_holes;
					res.t_found[i] = now_ - t0;
				}
			}
			if (done_at != SCTP_TIME_NEVER && !shut) {
				for (End &e : end_) {
					unsigned err = e.a.paths.assoc_errors;
					if (sctp_paths_get(&e.a.paths, 0)->errors > err)
						err = sctp_paths_get(&e.a.paths, 0)->errors;
					res.errors_after_done =
						std::max(res.errors_after_done, err);
				}
			}
			if (!shut && done_at != SCTP_TIME_NEVER &&
			    now_ >= done_at + cfg_.linger_ns && step >= cfg_.steps.size()) {
				shut = true;
				for (unsigned i = 0; i < 2; i++)
					res.final_mtu[i] = sctp_paths_get(&end_[i].a.paths, 0)->mtu;
				if (sctp_assoc_shutdown(&end_[0].a, now_) != 0) {
					res.why = "shutdown refused";
					break;
				}
			}
			if (shut && end_[0].a.state == SCTP_ASSOC_CLOSED &&
			    end_[1].a.state == SCTP_ASSOC_CLOSED)
				break;
			uint64_t next_step = step < cfg_.steps.size() ? t0 + cfg_.steps[step].at_ns
								      : SCTP_TIME_NEVER;
			uint64_t t =
				std::min({ impair_next_due(&stage_[0]), impair_next_due(&stage_[1]),
					   sctp_assoc_next_wakeup(&end_[0].a),
					   sctp_assoc_next_wakeup(&end_[1].a), next_step,
					   icmps_.empty() ? SCTP_TIME_NEVER : icmps_.front().at,
					   done_at == SCTP_TIME_NEVER || shut ||
							   done_at + cfg_.linger_ns <= now_
						   ? SCTP_TIME_NEVER
						   : done_at + cfg_.linger_ns });
			if (t == SCTP_TIME_NEVER || t > deadline)
				break;
			now_ = std::max(now_, t);
			if (next_step <= now_) {
				mtu_ = cfg_.steps[step].mtu;
				icmp_ = cfg_.steps[step].icmp;
				if (step == 0) {
					t_step = now_;
					res.t_first_step = now_ - t0;
					for (unsigned i = 0; i < 2; i++) {
						k_at_step[i] = end_[i].next_k;
						res.bytes_before += end_[i].judge.bytes;
					}
				}
				step++;
				continue;
			}
			if (!icmps_.empty() && icmps_.front().at <= now_) {
				Icmp ic = std::move(icmps_.front());
				icmps_.pop_front();
				End &e = end_[ic.to];
				struct sctp_icmp m = {};
				m.kind = SCTP_ICMP_FRAG_NEEDED;
				m.mtu = ic.mtu;
				m.quote = ic.quote.data();
				m.quote_len = (uint32_t)ic.quote.size();
				m.vtag = ic.quote.size() >= 8
						 ? (uint32_t)ic.quote[4] << 24 |
							   (uint32_t)ic.quote[5] << 16 |
							   (uint32_t)ic.quote[6] << 8 | ic.quote[7]
						 : 0;
				m.peer = addr(1 - ic.to);
				if (!sctp_assoc_freeable(&e.a))
					(void)sctp_assoc_icmp(&e.a, &m, now_);
				feed();
				continue;
			}
			uintptr_t h;
			uint32_t len;
			bool did = false;
			for (unsigned i = 0; i < 2 && !did; i++) {
				if (impair_pop(&stage_[i], now_, &h, &len)) {
					input(end_[1 - i], reinterpret_cast<Buf *>(h));
					did = true;
				}
			}
			for (unsigned i = 0; i < 2 && !did; i++) {
				if (sctp_assoc_next_wakeup(&end_[i].a) <= now_) {
					sctp_assoc_timeout(&end_[i].a, now_);
					did = true;
				}
			}
			for (unsigned i = 0; i < 2; i++) {
				// First message queued after the step, delivered to the peer.
				End &rx = end_[1 - i];
				if (t_step != SCTP_TIME_NEVER && res.recover_ns[i] == 0 &&
				    rx.first_k_after_step(k_at_step[i]))
					res.recover_ns[i] = now_ - t_step;
			}
			feed();
		}
		for (unsigned i = 0; i < 2; i++) {
			End &e = end_[i];
			res.bytes[i] = e.judge.bytes;
			res.counters[i] = e.counters;
			res.mtu_notes[i] = e.mtu_notes;
			res.lost_notes += e.notes_lost;
			res.over_probes_after_found[i] = over_probes_[i];
		}
		res.bytes_after = res.bytes[0] + res.bytes[1] - res.bytes_before;
		if (t_step != SCTP_TIME_NEVER) {
			res.bytes_second_before = delivered_in(t_step - SCTP_S(1), t_step);
			if (res.recover_ns[0] != 0) {
				uint64_t r0 = t_step + res.recover_ns[0];
				res.bytes_second_after = delivered_in(r0, r0 + SCTP_S(1));
			}
		}
		for (unsigned i = 0; i < 2 && done_at != SCTP_TIME_NEVER; i++) {
			res.probes_lost_after_done +=
				end_[i].counters.plpmtud_probes_lost - lost_at_done_[i];
			res.t3_after_done += end_[i].stats.t3_expiries - t3_at_done_[i];
		}
		res.dropped = dropped_;
		res.icmp = icmp_sent_;
		res.fragmented = fragmented_;
		for (End &e : end_)
			if (e.a.state != SCTP_ASSOC_CLOSED)
				sctp_assoc_abort(&e.a, now_, nullptr, 0);
		for (unsigned i = 0; i < 2; i++)
			impair_drain(
				&stage_[i],
				[](void *ctx, uintptr_t h, uint32_t) {
					static_cast<Run *>(ctx)->put(reinterpret_cast<Buf *>(h));
				},
				this);
		char why[256] = "";
		for (End &e : end_) {
			if (e.notes_lost != 0 && !why[0])
				snprintf(why, sizeof(why),
					 "side %u: the association was lost (reason %u); %u "
					 "messages "
					 "to it missing",
					 e.id, e.lost_reason, sim_traffic_missing(&e.judge));
			if (e.judge.bad != 0 && !why[0])
				snprintf(why, sizeof(why),
					 "side %u: %u bad deliveries, first %s k %u", e.id,
					 e.judge.bad, sim_traffic_verdict_name(e.judge.first_bad),
					 e.judge.first_bad_k);
			if (sim_traffic_missing(&e.judge) != 0 && !why[0])
				snprintf(why, sizeof(why), "side %u: %u messages missing", e.id,
					 sim_traffic_missing(&e.judge));
		}
		if (!why[0] && !shut)
			snprintf(why, sizeof(why), "not everything delivered by the deadline");
		if (!why[0] && bufs_in_use_ != 0)
			snprintf(why, sizeof(why), "%llu buffers still held",
				 (unsigned long long)bufs_in_use_);
		if (!why[0] && (end_[0].completes != 1 || end_[1].completes != 1))
			snprintf(why, sizeof(why), "no clean shutdown");
		res.why = why;
		res.ok = why[0] == 0;
		return res;
	}

      private:
	enum { kPacket = 1, kAppBuf = 2 };
	struct Buf {
		int kind;
		int refs = 0;
		std::vector<uint8_t> bytes;
		explicit Buf(int k) : kind(k)
		{
		}
	};
	struct Icmp {
		uint64_t at;
		unsigned to;
		uint16_t mtu;
		std::vector<uint8_t> quote;
	};
	struct End {
		Run *run;
		unsigned id;
		struct sctp_endpoint ep;
		struct sctp_assoc a;
		struct sctp_assoc_counters counters = {};
		struct sctp_assoc_stats stats = {};
		struct sctp_assoc_ops ops = {};
		struct sctp_data_config data = {};
		std::vector<struct sctp_reasm_node> reasm_nodes =
			std::vector<struct sctp_reasm_node>(2048);
		std::vector<struct sctp_outq_msg> outq_nodes =
			std::vector<struct sctp_outq_msg>(64);
		std::vector<struct sctp_rtxq_node> rtxq_nodes =
			std::vector<struct sctp_rtxq_node>(2048);
		struct sctp_reasm_pool reasm_pool;
		struct sctp_outq_pool outq_pool;
		struct sctp_rtxq_pool rtxq_pool;
		std::vector<uint64_t> mem;
		struct sim_traffic_judge judge;
		uint32_t next_k = 0;
		uint32_t rnd = 5;
		unsigned completes = 0, notes_lost = 0, mtu_notes = 0;
		uint8_t lost_reason = 0;
		uint16_t last_mtu = 0;
		std::vector<uint32_t> delivered_k;
		bool first_k_after_step(uint32_t k0) const
		{
			for (uint32_t k : delivered_k)
				if (k >= k0)
					return true;
			return false;
		}
	};

	Buf *new_buf(int kind, std::vector<uint8_t> b)
	{
		auto &pool = kind == kPacket ? free_pkts_ : free_app_;
		Buf *p;
		if (!pool.empty()) {
			p = pool.back();
			pool.pop_back();
		} else {
			bufs_.push_back(std::make_unique<Buf>(kind));
			p = bufs_.back().get();
		}
		p->bytes = std::move(b);
		p->refs = 1;
		bufs_in_use_++;
		return p;
	}
	void put(Buf *p)
	{
		if (--p->refs == 0) {
			bufs_in_use_--;
			(p->kind == kPacket ? free_pkts_ : free_app_).push_back(p);
		}
	}

	static struct sctp_addr addr(unsigned i)
	{
		const uint8_t b[4] = { 10, 0, 0, (uint8_t)(1 + i) };
		return sctp_addr_v4(b);
	}

	void setup(End &e)
	{
		sctp_reasm_pool_init(&e.reasm_pool, e.reasm_nodes.data(),
				     (uint32_t)e.reasm_nodes.size());
		sctp_outq_pool_init(&e.outq_pool, e.outq_nodes.data(),
				    (uint32_t)e.outq_nodes.size(), &buf_ops_);
		sctp_rtxq_pool_init(&e.rtxq_pool, e.rtxq_nodes.data(),
				    (uint32_t)e.rtxq_nodes.size());
		e.data.buf = buf_ops_;
		e.data.reasm_pool = &e.reasm_pool;
		e.data.reasm = { 1u << 20, 256 * 1024, 1000 };
		e.data.tsn_map_words = 64;
		e.data.max_dups = 16;
		e.data.max_gap_blocks = 16;
		e.data.outq_pool = &e.outq_pool;
		e.data.rtxq_pool = &e.rtxq_pool;
		e.data.outq_max_bytes = 1u << 20;
		e.data.outq_max_msgs = 16;
		e.data.mtu = 1500;
		struct sctp_endpoint_config cfg = {};
		cfg.port = 5001;
		cfg.profile = &prof_;
		cfg.a_rwnd = e.data.reasm.max_bytes;
		cfg.listening = true;
		cfg.choose_tag = [](void *ctx, const struct sctp_rx *) {
			return static_cast<End *>(ctx)->a.local_vtag | 1u;
		};
		cfg.random32 = [](void *ctx) {
			End *x = static_cast<End *>(ctx);
			x->rnd = x->rnd * 1664525u + 1013904223u;
			return x->rnd;
		};
		cfg.ctx = &e;
		cfg.data = &e.data;
		uint8_t key[SCTP_COOKIE_KEY_LEN] = { 3 };
		setup_ok_ &= sctp_endpoint_init(&e.ep, &cfg, key, now_) == 0;
		e.ops.send = [](void *ctx, const uint8_t *b, size_t len, const struct sctp_addr *,
				const struct sctp_addr *) {
			End *x = static_cast<End *>(ctx);
			x->run->transmit(*x, std::vector<uint8_t>(b, b + len),
					 sctp_assoc_frag_mtu(&x->a));
		};
		e.ops.send_data = [](void *ctx, const uint8_t *head, size_t head_len,
				     const struct sctp_tx_seg *segs, unsigned n,
				     const struct sctp_addr *, const struct sctp_addr *) {
			End *x = static_cast<End *>(ctx);
			std::vector<uint8_t> b(9000);
			b.resize(sctp_tx_flatten(b.data(), b.size(), head, head_len, segs, n));
			x->run->transmit(*x, std::move(b), sctp_assoc_frag_mtu(&x->a));
		};
		e.ops.notify = [](void *ctx, const struct sctp_notification *n) {
			End *x = static_cast<End *>(ctx);
			if (n->type == SCTP_NOTIFY_SHUTDOWN_COMPLETE)
				x->completes++;
			if (n->type == SCTP_NOTIFY_PATH_MTU) {
				x->mtu_notes++;
				x->last_mtu = n->mtu;
			}
			if (n->type == SCTP_NOTIFY_COMM_LOST ||
			    n->type == SCTP_NOTIFY_SEND_FAILED) {
				if (x->notes_lost++ == 0)
					x->lost_reason = n->reason;
			}
		};
		e.ops.deliver = [](void *ctx, const struct sctp_reasm_msg *m) {
			End *x = static_cast<End *>(ctx);
			x->run->deliver(*x, m);
		};
		e.ops.data_get = [](void *ctx, size_t n) -> void * {
			End *x = static_cast<End *>(ctx);
			x->mem.assign((n + 7) / 8, 0);
			return x->mem.data();
		};
		e.ops.data_put = [](void *, void *) {};
		struct sctp_cookie_state st = {};
		st.local_vtag = e.id == 0 ? 0x1111 : 0x2222;
		st.peer_vtag = e.id == 0 ? 0x2222 : 0x1111;
		st.local_initial_tsn = e.id == 0 ? 0xfffffff0u : 77;
		st.peer_initial_tsn = e.id == 0 ? 77 : 0xfffffff0u;
		st.peer_a_rwnd = cfg.a_rwnd;
		st.outbound_streams = st.inbound_streams = 2;
		st.local_port = 5001;
		st.peer_port = 5001;
		st.peer_src = addr(1 - e.id);
		st.local_addr = addr(e.id);
		sctp_assoc_init(&e.a, &e.ops, &e, &e.counters, &e.stats);
		setup_ok_ &= sctp_assoc_from_cookie(&e.a, &e.ep, &st, now_) == 0;
		setup_ok_ &= e.a.tx != nullptr;
	}

	// The hop of this direction, then the stage: IP bytes are the SCTP bytes plus 20.
	void transmit(End &from, std::vector<uint8_t> b, uint16_t frag_mtu)
	{
		uint32_t ip = (uint32_t)b.size() + 20u;
		if (ip > mtu_) {
			if (frag_mtu != 0 && frag_mtu <= mtu_) {
				fragmented_++; // fragments fit: reassembled by the receiver's IP
			} else {
				refused_[from.id] = b;
				if (b.size() > SCTP_COMMON_HDR_LEN &&
				    b[SCTP_COMMON_HDR_LEN] == SCTP_CHUNK_HEARTBEAT &&
				    found_at_[from.id] != SCTP_TIME_NEVER &&
				    from.counters.plpmtud_black_holes == bh_at_found_[from.id])
					over_probes_[from.id]++;
				if (icmp_) {
					// RFC 1812 §4.3.2.3: as much of the packet as fits 576
					// bytes.
					size_t q = std::min<size_t>(b.size(), 576 - 20 - 8 - 20);
					Icmp ic{ now_ + delay_ / 2, from.id, mtu_,
						 std::vector<uint8_t>(b.begin(), b.begin() + q) };
					icmps_.push_back(std::move(ic));
					icmp_sent_++;
				} else {
					dropped_++;
				}
				return;
			}
		}
		uint32_t len = (uint32_t)b.size();
		Buf *p = new_buf(kPacket, std::move(b));
		if (impair_push(&stage_[from.id], reinterpret_cast<uintptr_t>(p), len, now_) !=
		    IMPAIR_QUEUED)
			put(p);
	}

	void input(End &to, Buf *p)
	{
		struct sctp_rx rx = {};
		if (sctp_packet_parse(&rx.pkt, p->bytes.data(), p->bytes.size()) == SCTP_PERR_OK) {
			rx.src = addr(1 - to.id);
			rx.dst = addr(to.id);
			rx.handle = p;
			if (!sctp_assoc_freeable(&to.a)) {
				sctp_assoc_input(&to.a, &rx, now_);
			} else {
				alignas(8) uint8_t out[2048];
				struct sctp_tx tx = { out, sizeof(out), 0, {}, {} };
				struct sctp_cookie_state st;
				enum sctp_ep_drop drop;
				if (sctp_endpoint_input(&to.ep, &rx, now_, &tx, &st, &drop) ==
					    SCTP_OOTB_REPLY &&
				    tx.len != 0)
					transmit(to, std::vector<uint8_t>(out, out + tx.len), 0);
			}
		}
		put(p);
	}

	// Bytes delivered (both ways) in [from, to).
	uint64_t delivered_in(uint64_t from, uint64_t to) const
	{
		uint64_t n = 0;
		for (const auto &d : log_)
			if (d.first >= from && d.first < to)
				n += d.second;
		return n;
	}

	void deliver(End &e, const struct sctp_reasm_msg *m)
	{
		struct sctp_reasm_iter it;
		struct sctp_slice sl;
		bool unordered = (m->flags & SCTP_REASM_MSG_UNORDERED) != 0;
		std::vector<uint8_t> &into = partial_[e.id];
		if (!(m->flags & SCTP_REASM_MSG_CONT))
			into.clear();
		sctp_reasm_iter_init(&it, m);
		while (sctp_reasm_iter_next(&it, &sl)) {
			into.insert(into.end(), sl.data, sl.data + sl.len);
			if (sl.handle != nullptr)
				put(static_cast<Buf *>(sl.handle));
		}
		if (m->flags & SCTP_REASM_MSG_MORE)
			return;
		const uint8_t *d = into.data();
		uint32_t l = (uint32_t)into.size();
		if (sim_traffic_judge(&e.judge, m->ppid, m->sid, unordered, &d, &l, 1,
				      scratch_.data()) == SIM_TRAFFIC_OK) {
			e.delivered_k.push_back(m->ppid);
			log_.push_back({ now_, l });
		}
		into.clear();
	}

	void feed()
	{
		for (End &e : end_) {
			const struct sim_traffic_config *c = &traffic_[e.id];
			while (e.next_k < c->messages && e.a.state == SCTP_ASSOC_ESTABLISHED) {
				struct sim_traffic_msg m = sim_traffic_msg(c, e.id, e.next_k);
				Buf *b = new_buf(kAppBuf, std::vector<uint8_t>(m.len));
				sim_traffic_fill(c, e.id, &m, b->bytes.data());
				struct sctp_slice s = { b, b->bytes.data(), m.len };
				uint8_t fl = m.unordered ? SCTP_SEND_UNORDERED : 0;
				if (sctp_assoc_send(&e.a, m.sid, m.k, fl, &s, now_) != 0) {
					put(b);
					break;
				}
				e.next_k++;
			}
		}
	}

	bool all_delivered() const
	{
		return sim_traffic_missing(&end_[0].judge) == 0 &&
		       sim_traffic_missing(&end_[1].judge) == 0;
	}

	Config cfg_;
	struct sctp_profile prof_;
	uint64_t lost_at_done_[2] = { 0, 0 }, t3_at_done_[2] = { 0, 0 };
	uint64_t found_at_[2] = { SCTP_TIME_NEVER, SCTP_TIME_NEVER };
	// Black holes a side had declared when it found the hop: over-size probes
	// count until its next one (after that a new search probes again).
	uint64_t bh_at_found_[2] = { 0, 0 };
	uint64_t over_probes_[2] = { 0, 0 };
	bool setup_ok_ = true;
	uint16_t mtu_;
	bool icmp_;
	uint64_t delay_ = 0;
	uint64_t dropped_ = 0, icmp_sent_ = 0, fragmented_ = 0;
	std::deque<Icmp> icmps_;
	std::vector<std::pair<uint64_t, uint32_t>> log_; // (time, bytes) of each delivery
	std::vector<uint8_t> refused_[2];
	struct sim_traffic_config traffic_[2];
	std::vector<uint8_t> seen_[2];
	std::vector<int64_t> last_k_[2];
	std::vector<uint8_t> partial_[2];
	std::vector<uint8_t> scratch_;
	struct sctp_buf_ops buf_ops_ = {};
	struct impair stage_[2];
	struct impair_ops stage_ops_ = {};
	std::vector<uint64_t> stage_mem_[2];
	End end_[2];
	std::vector<std::unique_ptr<Buf>> bufs_;
	std::vector<Buf *> free_pkts_, free_app_;
	uint64_t bufs_in_use_ = 0;
	uint64_t now_ = SCTP_S(1);
};

} // namespace pmtu_sim

#endif // SCTP_SIM_PMTU_RUN_H
