// SPDX-License-Identifier: BSD-3-Clause
// Two associations exchanging data both ways at once through seeded
// impairment stages on a virtual clock (suite sim). Each side
// sends the messages of sctp/sim/sim_traffic.h (1 byte to 64 KiB, several
// streams, a share unordered) from refcounted application buffers as fast
// as the association takes them, and judges what the other side delivers:
// every message exactly once, in order on ordered streams, byte-identical.
// When both directions are complete, one side shuts down gracefully; then
// every packet buffer and application buffer must have been released
// exactly as often as it was held (zero copy), and every pool be full.
//
// Each run also reports goodput in virtual time (application bytes
// delivered both ways over the time to deliver them); the sweep prints one
// "[sim-data]" line per profile and network and one JSON object per line
// prefixed "SIM_GOODPUT " for docs/PERFORMANCE.md.
//
// PR-SCTP (RFC 3758, RFC 7496): with a policy mix, a share of the messages
// goes with sctp_assoc_send_pr() under a lifetime or a retransmission
// limit; both ends negotiate FORWARD-TSN. The sender hands every
// SEND_FAILED it gets for an abandoned message to the judge of its
// messages, which then requires each message with a policy delivered at
// most once or, never delivered, reported abandoned exactly once (never
// delivered when reported unsent), and each reliable one delivered exactly
// once; the association's abandonment counters must match the reports.
// The sweeps print one "[sim-pr]" line per profile and network.
//
// Stream reconfiguration (RFC 6525): with a reset interval, both ends
// negotiate RE-CONFIG and each, every interval of virtual time, resets one
// of its outgoing streams (at random) while the other streams carry data:
// it stops queueing on that stream, asks once its queued messages have
// left (the call says -EAGAIN until then), and queues on it again at the
// answer. The receiver checks the boundary: the ordered messages of a
// stream carry SSNs (I-DATA: MIDs) 0, 1, 2, ... and, from the incoming
// reset's notification on, 0, 1, ... again, so a reset performed a message
// early or late, or a message of the new numbering delivered before the
// notification, is a bad SSN (checked in every run without PR-SCTP, whose
// abandoned messages leave gaps). Every reset asked must be performed (none
// denied) and seen by the peer. The sweeps print one "[sim-reconf]" line
// per profile and network.
#include <map>
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstring>
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

// Both kinds of buffer start with their kind, so one set of buffer ops
// serves the receive path (packets) and the send path (application data).
enum { kPacket = 1, kAppBuf = 2 };

struct Buf {
	int kind;
	int refs = 0;
	std::vector<uint8_t> bytes;
	explicit Buf(int k) : kind(k)
	{
	}
};

// A PR-SCTP policy mix (struct sim_traffic_config's fields).
struct PrMix {
	uint8_t ttl_pct, rtx_pct, rtx_max;
	uint32_t ttl_min_ms, ttl_max_ms;
};

struct Net {
	const char *name;
	uint32_t loss_permille;
	bool dup_reorder;
	bool jitter;	  // delay jitter of 4 one-way delays, packets may overtake each other
	bool slow_reader; // side 1's application consumes at most 300 bytes per event
};

// The largest DATA payload on these IPv4 paths at MTU 1500 (SCTP_ASSOC_TX_MAX):
// IP header 20, common header 12, DATA chunk header 16.
constexpr uint32_t kMaxChunkPayload = SCTP_ASSOC_TX_MAX - 20 - 12 - 16;

struct Result {
	bool ok = false;
	std::string why;
	uint64_t bytes = 0, t_done = 0, data_rtx = 0, sacks = 0, data_pkts = 0;
	// PR-SCTP, both directions: abandonment reports, of them unsent, and
	// delivered all the same (sent, the peer had it); partial deliveries
	// ended by ABORTED; FORWARD TSNs sent.
	uint64_t abandoned = 0, unsent = 0, abandoned_delivered = 0, pd_aborted = 0, fwd_tsn = 0;
	// RE-CONFIG, both directions: resets performed, and seen by the receiver.
	uint64_t resets = 0, resets_seen = 0;
};

class Run {
      public:
	Run(const struct sctp_profile *prof, const Net &net, uint64_t seed, uint32_t messages,
	    uint16_t streams, const PrMix *pr = nullptr, bool idata = false,
	    uint64_t reset_every_ns = 0)
	    : prof_(prof), slow_reader_(net.slow_reader), pr_(pr != nullptr), idata_(idata),
	      reset_every_(reset_every_ns), streams_(streams)
	{
		for (unsigned i = 0; i < 2; i++) {
			traffic_[i] = { seed * 2 + i,
					messages,
					1,
					SIM_TRAFFIC_MAX_LEN,
					streams,
					20,
					pr ? pr->ttl_pct : uint8_t(0),
					pr ? pr->rtx_pct : uint8_t(0),
					pr ? pr->rtx_max : uint8_t(0),
					pr ? pr->ttl_min_ms : 0,
					pr ? pr->ttl_max_ms : 0 };
			seen_[i].resize(messages / 8 + 1);
			abandoned_[i].resize(messages / 8 + 1);
			unsent_[i].resize(messages / 8 + 1);
			last_k_[i].resize(streams);
		}
		scratch_.resize(SIM_TRAFFIC_MAX_LEN);
		buf_ops_.hold = [](void *, void *h) { static_cast<Buf *>(h)->refs++; };
		buf_ops_.release = [](void *ctx, void *h) {
			static_cast<Run *>(ctx)->put(static_cast<Buf *>(h));
		};
		buf_ops_.ctx = this;
		struct impair_config cfg = {};
		cfg.loss_ppb = net.loss_permille * (IMPAIR_PPB_ONE / 1000u);
		if (net.dup_reorder) {
			cfg.dup_ppb = IMPAIR_PCT(2);
			cfg.reorder_ppb = IMPAIR_PCT(2);
			cfg.reorder_gap = 3;
		}
		cfg.delay_ns = prof == &sctp_profile_dc ? SCTP_US(20) : SCTP_MS(25);
		if (net.jitter) {
			cfg.jitter_ns = 4 * cfg.delay_ns;
			cfg.jitter_reorders = true;
		}
		stage_ops_.dup = [](void *ctx, uintptr_t h, uint32_t, uintptr_t *copy) {
			Run *r = static_cast<Run *>(ctx);
			*copy = reinterpret_cast<uintptr_t>(
				r->new_buf(kPacket, reinterpret_cast<Buf *>(h)->bytes));
			return true;
		};
		stage_ops_.ctx = this;
		for (unsigned i = 0; i < 2; i++) {
			stage_mem_[i].resize(impair_storage_size(8192) / 8 + 1);
			EXPECT_EQ(impair_init(&stage_[i], &cfg, &stage_ops_, seed * 7 + i, 8192,
					      stage_mem_[i].data(), stage_mem_[i].size() * 8),
				  0);
		}
		for (unsigned i = 0; i < 2; i++) {
			end_[i].run = this;
			end_[i].id = i;
			sim_traffic_judge_init(&end_[i].judge, &traffic_[1 - i], 1 - i,
					       seen_[i].data(), last_k_[i].data());
			if (pr_)
				sim_traffic_judge_pr(&end_[i].judge, abandoned_[i].data(),
						     unsent_[i].data());
			setup(end_[i], streams);
		}
	}
	~Run()
	{
		for (End &e : end_)
			sctp_endpoint_fini(&e.ep);
	}

	Result go()
	{
		Result res;
		uint64_t t0 = now_;
		uint64_t deadline = now_ + (prof_ == &sctp_profile_dc ? SCTP_S(120) : SCTP_S(7200));
		feed();
		bool shut = false;
		for (long steps = 0; steps < 20000000; steps++) {
			// A reset asked for is seen through before the close: its
			// answer is what the checks below count.
			if (!shut && all_delivered() && end_[0].resetting < 0 &&
			    end_[1].resetting < 0) {
				res.t_done = now_ - t0;
				shut = shut_ = true;
				if (sctp_assoc_shutdown(&end_[0].a, now_) != 0) {
					res.why = "shutdown refused";
					break;
				}
			}
			if (shut && end_[0].a.state == SCTP_ASSOC_CLOSED &&
			    end_[1].a.state == SCTP_ASSOC_CLOSED)
				break;
			uint64_t t =
				std::min({ impair_next_due(&stage_[0]), impair_next_due(&stage_[1]),
					   sctp_assoc_next_wakeup(&end_[0].a),
					   sctp_assoc_next_wakeup(&end_[1].a) });
			if (t == SCTP_TIME_NEVER || t > deadline)
				break;
			now_ = std::max(now_, t);
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
			consume();
			feed();
		}
		bool slow_bad = false, slow_over = false;
		for (End &e : end_) {
			if (e.data.rwnd_counts_delivered &&
			    (e.counters.window_updates == 0 ||
			     e.max_unconsumed < e.data.reasm.max_bytes / 2))
				slow_bad = true;
			// RFC 9260 §6.2: at zero window the receiver drops new TSNs, so
			// the slow application never holds more than its buffer plus
			// the one DATA chunk §6.1 A lets into a window too small for it.
			if (e.data.rwnd_counts_delivered &&
			    e.max_unconsumed > e.data.reasm.max_bytes + kMaxChunkPayload)
				slow_over = true;
			res.bytes += e.judge.bytes;
			res.data_rtx += e.stats.data_rtx;
			res.sacks += e.stats.sacks_sent;
			res.data_pkts += e.data_pkts;
			res.abandoned += e.judge.reported;
			res.unsent += e.judge.reported_unsent;
			res.abandoned_delivered += e.judge.reported_delivered;
			res.pd_aborted += e.pd_aborted;
			res.fwd_tsn += e.stats.fwd_tsn_sent;
			res.resets += e.resets_done;
			res.resets_seen += e.resets_seen;
		}
		// Tear down: nothing may be left held anywhere.
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
			// An association lost explains what follows: say so first.
			if (e.notes_lost != 0 && e.lost_reason != 0 && !why[0])
				snprintf(why, sizeof(why),
					 "side %u: the association was lost (reason %u, cause %u); "
					 "%u messages to it missing",
					 e.id, e.lost_reason, e.lost_error,
					 sim_traffic_missing(&e.judge));
			if (e.judge.bad != 0 && !why[0])
				snprintf(why, sizeof(why),
					 "side %u: %u bad deliveries, first %s k %u", e.id,
					 e.judge.bad, sim_traffic_verdict_name(e.judge.first_bad),
					 e.judge.first_bad_k);
			else if (sim_traffic_missing(&e.judge) != 0 && !why[0])
				snprintf(why, sizeof(why), "side %u: %u messages missing", e.id,
					 sim_traffic_missing(&e.judge));
			else if (e.notes_lost != 0 && !why[0])
				snprintf(why, sizeof(why), "side %u: the association was lost",
					 e.id);
			else if (!why[0] && e.pr_reports != end_[1 - e.id].judge.reported)
				snprintf(why, sizeof(why),
					 "side %u: %u abandonment reports, %u judged", e.id,
					 e.pr_reports, end_[1 - e.id].judge.reported);
			else if (!why[0] &&
				 e.stats.pr_abandoned.msgs[SCTP_PR_TTL] +
						 e.stats.pr_abandoned.msgs[SCTP_PR_RTX] !=
					 e.pr_reports)
				snprintf(why, sizeof(why),
					 "side %u: counters say %" PRIu64 " + %" PRIu64
					 " abandoned, %u reported",
					 e.id, e.stats.pr_abandoned.msgs[SCTP_PR_TTL],
					 e.stats.pr_abandoned.msgs[SCTP_PR_RTX], e.pr_reports);
			else if (!why[0] &&
				 (e.counters.pr_unsupported != 0 ||
				  (pr_ && !(e.a.extensions & SCTP_COOKIE_EXT_FORWARD_TSN))))
				snprintf(why, sizeof(why), "side %u: PR-SCTP not in use", e.id);
			else if (!why[0] && e.ssn_bad != 0)
				snprintf(
					why, sizeof(why),
					"side %u: %u ordered messages with the wrong SSN, first on "
					"stream %u: %u where %u was due",
					e.id, e.ssn_bad, e.bad_sid, e.bad_got, e.bad_want);
			else if (!why[0] && (e.resets_denied != 0 || e.resets_bad_call != 0))
				snprintf(why, sizeof(why),
					 "side %u: %u resets denied, %u calls refused (last %d)",
					 e.id, e.resets_denied, e.resets_bad_call, e.last_bad_rc);
			else if (!why[0] && e.resets_done != end_[1 - e.id].resets_seen)
				snprintf(why, sizeof(why),
					 "side %u: %u resets performed, the peer saw %u", e.id,
					 e.resets_done, end_[1 - e.id].resets_seen);
			else if (!why[0] && reset_every_ != 0 &&
				 !(e.a.extensions & SCTP_COOKIE_EXT_RECONFIG))
				snprintf(why, sizeof(why), "side %u: RE-CONFIG not negotiated",
					 e.id);
			else if (!why[0] &&
				 idata_ != ((e.a.extensions & SCTP_COOKIE_EXT_I_DATA) != 0))
				snprintf(why, sizeof(why), "side %u: I-DATA %s", e.id,
					 idata_ ? "not negotiated" : "negotiated unasked");
			else if ((e.reasm_pool.n_free != e.reasm_pool.n ||
				  e.ireasm_pool.n_free != e.ireasm_pool.n ||
				  e.rtxq_pool.n_free != e.rtxq_pool.n ||
				  sctp_outq_pool_free(&e.outq_pool) != e.outq_pool.n) &&
				 !why[0])
				snprintf(why, sizeof(why), "side %u: a pool is not full", e.id);
		}
		if (!why[0] && !shut)
			snprintf(why, sizeof(why), "not everything delivered by the deadline");
		if (!why[0] && bufs_in_use_ != 0)
			snprintf(why, sizeof(why), "%" PRIu64 " buffers still held", bufs_in_use_);
		if (!why[0] && (end_[0].completes != 1 || end_[1].completes != 1))
			snprintf(why, sizeof(why), "no clean shutdown (%u/%u SHUTDOWN_COMPLETE)",
				 end_[0].completes, end_[1].completes);
		if (!why[0] && slow_bad)
			snprintf(why, sizeof(why),
				 "the slow reader never closed and reopened its window");
		if (!why[0] && slow_over)
			snprintf(why, sizeof(why),
				 "the slow reader held %u bytes unconsumed: above its buffer (%u) "
				 "plus one DATA chunk",
				 end_[1].max_unconsumed, end_[1].data.reasm.max_bytes);
		res.why = why;
		res.ok = why[0] == 0;
		return res;
	}

      private:
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
			std::vector<struct sctp_reasm_node>(1024);
		std::vector<struct sctp_outq_msg> outq_nodes =
			std::vector<struct sctp_outq_msg>(256);
		std::vector<struct sctp_rtxq_node> rtxq_nodes =
			std::vector<struct sctp_rtxq_node>(2048);
		struct sctp_reasm_pool reasm_pool;
		std::vector<union sctp_ireasm_node> ireasm_nodes =
			std::vector<union sctp_ireasm_node>(2048);
		struct sctp_ireasm_pool ireasm_pool;
		struct sctp_outq_pool outq_pool;
		struct sctp_rtxq_pool rtxq_pool;
		std::vector<uint64_t> mem;
		struct sim_traffic_judge judge;
		uint32_t next_k = 0; // next message to send
		uint32_t rnd = 5;
		uint64_t data_pkts = 0;
		unsigned completes = 0, notes_lost = 0;
		uint8_t lost_reason = 0; // of the first COMM_LOST (enum sctp_assoc_reason)
		uint16_t lost_error = 0; // its cause code, of a peer's ABORT
		unsigned pr_reports = 0; // SEND_FAILED with a PR-SCTP policy
		unsigned pd_aborted = 0; // partial deliveries ended by ABORTED
		std::vector<struct sctp_rtxq_pr_slot> rtxq_pr;
		std::vector<struct sctp_outq_pr> outq_pr;
		uint32_t unconsumed = 0;     // delivered bytes the slow application still holds
		uint32_t max_unconsumed = 0; // the most it held at once
		std::map<uint64_t, std::vector<uint8_t>> partial; // by (sid, U, MID)
		// RE-CONFIG: the outgoing stream being reset (-1: none), whether
		// its request went, when the next is due; the SSN (I-DATA: MID)
		// each inbound stream's next ordered message must carry.
		int32_t resetting = -1;
		bool reset_asked = false;
		uint64_t next_reset = 0;
		unsigned resets_done = 0, resets_denied = 0, resets_bad_call = 0, resets_seen = 0;
		int last_bad_rc = 0;
		std::vector<uint32_t> want_ssn;
		unsigned ssn_bad = 0;
		uint32_t bad_sid = 0, bad_got = 0, bad_want = 0;
	};

	Buf *new_buf(int kind, const std::vector<uint8_t> &b)
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
		p->bytes = b;
		p->refs = 1;
		bufs_in_use_++;
		return p;
	}
	void put(Buf *p)
	{
		EXPECT_GT(p->refs, 0);
		if (--p->refs == 0) {
			bufs_in_use_--;
			(p->kind == kPacket ? free_pkts_ : free_app_).push_back(p);
		}
	}

	void setup(End &e, uint16_t streams)
	{
		sctp_reasm_pool_init(&e.reasm_pool, e.reasm_nodes.data(),
				     (uint32_t)e.reasm_nodes.size());
		sctp_ireasm_pool_init(&e.ireasm_pool, e.ireasm_nodes.data(),
				      (uint32_t)e.ireasm_nodes.size());
		sctp_outq_pool_init(&e.outq_pool, e.outq_nodes.data(),
				    (uint32_t)e.outq_nodes.size(), &buf_ops_);
		sctp_rtxq_pool_init(&e.rtxq_pool, e.rtxq_nodes.data(),
				    (uint32_t)e.rtxq_nodes.size());
		if (pr_) {
			e.rtxq_pr.resize(e.rtxq_pool.n);
			e.outq_pr.resize(e.outq_pool.n);
			ASSERT_EQ(sctp_rtxq_pool_attach_pr(&e.rtxq_pool, e.rtxq_pr.data(),
							   e.rtxq_pool.n),
				  0);
			ASSERT_EQ(sctp_outq_pool_attach_pr(&e.outq_pool, e.outq_pr.data(),
							   e.outq_pool.n),
				  0);
		}
		e.data.buf = buf_ops_;
		e.data.reasm_pool = &e.reasm_pool;
		e.data.ireasm_pool = &e.ireasm_pool;
		e.data.reasm = { 1u << 20, 256 * 1024, 1000 };
		if (slow_reader_ && e.id == 1) {
			// A 64 KiB receive buffer that delivered bytes keep occupied
			// until the application consumes them (RFC 9260 §6.2).
			e.data.reasm = { 64 * 1024, 16 * 1024, 1000 };
			e.data.rwnd_counts_delivered = true;
		}
		e.data.tsn_map_words = 64;
		e.data.max_dups = 16;
		e.data.max_gap_blocks = 16;
		e.data.outq_pool = &e.outq_pool;
		e.data.rtxq_pool = &e.rtxq_pool;
		e.data.outq_max_bytes = 1u << 20;
		e.data.outq_max_msgs = 200;
		struct sctp_endpoint_config cfg = {};
		cfg.port = 5001;
		cfg.profile = prof_;
		cfg.a_rwnd = e.data.reasm.max_bytes;
		cfg.listening = true;
		cfg.extensions = pr_ ? SCTP_COOKIE_EXT_FORWARD_TSN : 0;
		if (idata_)
			cfg.extensions |= SCTP_COOKIE_EXT_I_DATA;
		if (reset_every_ != 0)
			cfg.extensions |= SCTP_COOKIE_EXT_RECONFIG;
		e.want_ssn.assign(streams, 0);
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
		ASSERT_EQ(sctp_endpoint_init(&e.ep, &cfg, key, now_), 0);
		e.ops.send = [](void *ctx, const uint8_t *b, size_t len, const struct sctp_addr *,
				const struct sctp_addr *) {
			End *x = static_cast<End *>(ctx);
			x->run->transmit(*x, std::vector<uint8_t>(b, b + len));
		};
		e.ops.send_data = [](void *ctx, const uint8_t *head, size_t head_len,
				     const struct sctp_tx_seg *segs, unsigned n,
				     const struct sctp_addr *, const struct sctp_addr *) {
			End *x = static_cast<End *>(ctx);
			std::vector<uint8_t> b(SCTP_ASSOC_TX_MAX);
			b.resize(sctp_tx_flatten(b.data(), b.size(), head, head_len, segs, n));
			x->data_pkts++;
			x->run->transmit(*x, std::move(b));
		};
		e.ops.notify = [](void *ctx, const struct sctp_notification *n) {
			End *x = static_cast<End *>(ctx);
			if (n->type == SCTP_NOTIFY_SHUTDOWN_COMPLETE)
				x->completes++;
			if (n->type == SCTP_NOTIFY_STREAM_RESET)
				x->run->stream_reset(*x, n);
			if (n->type == SCTP_NOTIFY_SEND_FAILED && n->pr_policy != 0) {
				// Abandoned under its policy: the judge of x's messages
				// (the peer's) settles it.
				x->pr_reports++;
				sim_traffic_judge_abandoned(&x->run->end_[1 - x->id].judge, n->ppid,
							    n->sid, n->length, n->pr_policy,
							    n->sent);
			} else if (n->type == SCTP_NOTIFY_COMM_LOST ||
				   n->type == SCTP_NOTIFY_SEND_FAILED) {
				x->notes_lost++;
				if (n->type == SCTP_NOTIFY_COMM_LOST && x->lost_reason == 0) {
					x->lost_reason = n->reason;
					x->lost_error = n->error;
				}
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
		st.extensions = cfg.extensions; // as both INITs would have negotiated
		st.outbound_streams = st.inbound_streams = streams;
		st.local_port = 5001;
		st.peer_port = 5001;
		st.peer_src = addr(1 - e.id);
		st.local_addr = addr(e.id);
		sctp_assoc_init(&e.a, &e.ops, &e, &e.counters, &e.stats);
		ASSERT_EQ(sctp_assoc_from_cookie(&e.a, &e.ep, &st, now_), 0);
		ASSERT_NE(e.a.tx, nullptr);
	}

	static struct sctp_addr addr(unsigned i)
	{
		const uint8_t b[4] = { 10, 0, 0, (uint8_t)(1 + i) };
		return sctp_addr_v4(b);
	}

	void transmit(End &from, std::vector<uint8_t> b)
	{
		uint32_t len = (uint32_t)b.size();
		Buf *p = new_buf(kPacket, b);
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
				// The association is gone: the endpoint answers (RFC 9260
				// §8.4, e.g. SHUTDOWN COMPLETE to a late SHUTDOWN ACK).
				alignas(8) uint8_t out[2048];
				struct sctp_tx tx = { out, sizeof(out), 0, {}, {} };
				struct sctp_cookie_state st;
				enum sctp_ep_drop drop;
				if (sctp_endpoint_input(&to.ep, &rx, now_, &tx, &st, &drop) ==
					    SCTP_OOTB_REPLY &&
				    tx.len != 0)
					transmit(to, std::vector<uint8_t>(out, out + tx.len));
			}
		}
		put(p);
	}

	// Our reset's answer (the stream takes messages again), or the peer's:
	// its streams' numbering starts over from here.
	void stream_reset(End &e, const struct sctp_notification *n)
	{
		if (n->reset_flags & SCTP_RESET_OUTGOING_SSN) {
			if (n->reset_flags & (SCTP_RESET_DENIED | SCTP_RESET_FAILED))
				e.resets_denied++;
			else
				e.resets_done++;
			e.resetting = -1;
			e.reset_asked = false;
			e.next_reset = now_ + reset_every_;
		}
		if (n->reset_flags & SCTP_RESET_INCOMING_SSN) {
			if (n->reset_flags & (SCTP_RESET_DENIED | SCTP_RESET_FAILED))
				return;
			e.resets_seen++;
			if (n->n_streams == 0)
				std::fill(e.want_ssn.begin(), e.want_ssn.end(), 0u);
			for (uint16_t i = 0; i < n->n_streams; i++)
				if (n->streams[i] < e.want_ssn.size())
					e.want_ssn[n->streams[i]] = 0;
		}
	}

	// An ordered message's first delivery: the SSN (I-DATA: MID) due next.
	void check_ssn(End &e, const struct sctp_reasm_msg *m)
	{
		if (m->sid >= e.want_ssn.size())
			return;
		uint32_t got = idata_ ? m->mid : m->ssn;
		uint32_t want = idata_ ? e.want_ssn[m->sid] : (uint16_t)e.want_ssn[m->sid];
		if (got != want && e.ssn_bad++ == 0) {
			e.bad_sid = m->sid;
			e.bad_got = got;
			e.bad_want = want;
		}
		e.want_ssn[m->sid] = got + 1;
	}

	// Every interval, one outgoing stream reset (feed() holds its messages).
	void reset_step(End &e)
	{
		if (reset_every_ == 0 || shut_ || e.a.state != SCTP_ASSOC_ESTABLISHED)
			return;
		if (e.resetting < 0) {
			if (sim_traffic_missing(&end_[1 - e.id].judge) == 0)
				return; // every message delivered: no new reset
			if (e.next_reset == 0)
				e.next_reset = now_ + reset_every_;
			if (now_ < e.next_reset)
				return;
			e.rnd = e.rnd * 1664525u + 1013904223u;
			e.resetting = (int32_t)((e.rnd >> 8) % streams_);
			e.reset_asked = false;
		}
		if (e.reset_asked)
			return;
		uint16_t sid = (uint16_t)e.resetting;
		int rc = sctp_assoc_reset_streams(&e.a, SCTP_STREAM_RESET_OUTGOING, &sid, 1, now_);
		if (rc == 0) {
			e.reset_asked = true;
		} else if (rc != -EAGAIN && rc != -EINPROGRESS) {
			e.resets_bad_call++;
			e.last_bad_rc = rc;
			e.resetting = -1;
			e.next_reset = now_ + reset_every_;
		}
	}

	// Whole messages and partial deliveries, judged as in sim_rx_test.
	// The slow application: a little of what it holds each event.
	void consume()
	{
		for (End &e : end_) {
			if (!e.data.rwnd_counts_delivered || e.unconsumed == 0)
				continue;
			uint32_t n = e.unconsumed < 300 ? e.unconsumed : 300;
			e.unconsumed -= n;
			(void)sctp_assoc_consumed(&e.a, n, now_);
		}
	}

	void deliver(End &e, const struct sctp_reasm_msg *m)
	{
		if (e.data.rwnd_counts_delivered) {
			e.unconsumed += m->len;
			if (e.unconsumed > e.max_unconsumed)
				e.max_unconsumed = e.unconsumed;
		}
		struct sctp_reasm_iter it;
		struct sctp_slice sl;
		bool part = (m->flags & (SCTP_REASM_MSG_MORE | SCTP_REASM_MSG_CONT)) != 0;
		bool unordered = (m->flags & SCTP_REASM_MSG_UNORDERED) != 0;
		// With I-DATA several messages may be in partial delivery at once:
		// each is told apart by its stream, U bit and MID (RFC 6458
		// §8.1.20, level 2); with DATA one at a time, and the key is the same.
		uint64_t key = (uint64_t)m->sid << 33 | (uint64_t)unordered << 32 | m->mid;
		std::vector<uint8_t> whole;
		std::vector<uint8_t> &into = part ? e.partial[key] : whole;
		if (part && !(m->flags & SCTP_REASM_MSG_CONT))
			into.clear();
		// (With PR-SCTP an abandoned message leaves a gap in the numbering.)
		if (!pr_ && !unordered && !(m->flags & SCTP_REASM_MSG_CONT))
			check_ssn(e, m);
		sctp_reasm_iter_init(&it, m);
		while (sctp_reasm_iter_next(&it, &sl)) {
			into.insert(into.end(), sl.data, sl.data + sl.len);
			if (sl.handle != nullptr)
				put(static_cast<Buf *>(sl.handle));
		}
		if (m->flags & SCTP_REASM_MSG_MORE)
			return;
		if (m->flags & SCTP_REASM_MSG_ABORTED) {
			// The sender abandoned the message in partial delivery
			// (PR-SCTP): not delivered; its report settles it.
			e.pd_aborted++;
			e.partial.erase(key);
			return;
		}
		const uint8_t *d = into.data();
		uint32_t l = (uint32_t)into.size();
		sim_traffic_judge(&e.judge, m->ppid, m->sid, unordered, &d, &l, 1, scratch_.data());
		if (part)
			e.partial.erase(key);
	}

	// Each side queues its next messages while the association takes them.
	void feed()
	{
		for (End &e : end_) {
			const struct sim_traffic_config *c = &traffic_[e.id];
			reset_step(e);
			while (e.next_k < c->messages && e.a.state == SCTP_ASSOC_ESTABLISHED) {
				struct sim_traffic_msg m = sim_traffic_msg(c, e.id, e.next_k);
				if (m.sid == e.resetting)
					break; // its turn comes with the answer
				Buf *b = new_buf(kAppBuf, std::vector<uint8_t>(m.len));
				sim_traffic_fill(c, e.id, &m, b->bytes.data());
				struct sctp_slice s = { b, b->bytes.data(), m.len };
				uint8_t fl = m.unordered ? SCTP_SEND_UNORDERED : 0;
				int rc =
					m.pr_policy == SCTP_PR_NONE
						? sctp_assoc_send(&e.a, m.sid, m.k, fl, &s, now_)
						: sctp_assoc_send_pr(&e.a, m.sid, m.k, fl, &s,
								     m.pr_policy, m.pr_value, now_);
				if (rc != 0) {
					put(b);
					EXPECT_TRUE(rc == -ENOBUFS || rc == -ENOMEM) << rc;
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

	const struct sctp_profile *prof_;
	bool slow_reader_;
	bool pr_;	       // PR-SCTP: both ends negotiate it, the traffic has a policy mix
	bool idata_;	       // I-DATA (RFC 8260): both ends negotiate it
	uint64_t reset_every_; // RE-CONFIG: an outgoing stream reset per side this often, 0 none
	uint16_t streams_;
	bool shut_ = false;
	struct sim_traffic_config traffic_[2];
	std::vector<uint8_t> seen_[2];
	std::vector<uint8_t> abandoned_[2], unsent_[2];
	std::vector<int64_t> last_k_[2];
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

void
sweep(const struct sctp_profile *prof, const Net &n, unsigned seeds, uint32_t messages,
      uint16_t streams, bool idata = false)
{
	unsigned failed = 0;
	uint64_t bytes = 0, time = 0, rtx = 0, sacks = 0, pkts = 0;
	const char *pname = prof == &sctp_profile_dc ? "dc" : "rfc";
	for (unsigned s = 1; s <= seeds; s++) {
		Run r(prof, n, s, messages, streams, nullptr, idata);
		Result res = r.go();
		if (!res.ok) {
			failed++;
			ADD_FAILURE() << "SIM_DATA_REPLAY='profile=" << pname << " net=" << n.name
				      << " seed=" << s << " messages=" << messages
				      << " streams=" << streams << (idata ? " idata=1" : "")
				      << "': " << res.why;
		}
		bytes += res.bytes;
		time += res.t_done;
		rtx += res.data_rtx;
		sacks += res.sacks;
		pkts += res.data_pkts;
	}
	double goodput_mbps = time ? (double)bytes * 8.0 / ((double)time / 1e9) / 1e6 : 0.0;
	printf("[sim-data] profile=%-3s net=%-16s streams=%-3u%s runs=%u failed=%u | goodput %.1f "
	       "Mbit/s (virtual), %" PRIu64 " DATA packets, %.2f SACKs per DATA packet, %" PRIu64
	       " retransmitted chunks\n",
	       pname, n.name, streams, idata ? " I-DATA" : "", seeds, failed, goodput_mbps, pkts,
	       pkts ? (double)sacks / (double)pkts : 0.0, rtx);
	printf("SIM_GOODPUT {\"profile\":\"%s\",\"net\":\"%s\",\"loss_permille\":%u,"
	       "\"streams\":%u,\"idata\":%s,\"runs\":%u,\"goodput_mbit_s\":%.3f,"
	       "\"retransmitted\":%" PRIu64 "}\n",
	       pname, n.name, n.loss_permille, streams, idata ? "true" : "false", seeds,
	       goodput_mbps, rtx);
}

const Net kNets[] = {
	{ "loss0", 0, false, false, false },
	{ "loss0.1", 1, false, false, false },
	{ "loss1", 10, false, false, false },
	{ "loss5", 50, false, false, false },
	{ "loss20", 200, false, false, false },
	{ "loss1_dup2_reord2", 10, true, false, false },
	{ "loss1_jitter4x", 10, false, true, false },
	{ "loss1_slow_reader", 10, false, false, true },
};

TEST(SimData, BothWaysThroughImpairmentDc)
{
	for (const Net &n : kNets)
		sweep(&sctp_profile_dc, n, 6, 80, 8);
}

// 1,024 streams both ways, small and large messages mixed.
TEST(SimData, ManyStreamsBothWays)
{
	sweep(&sctp_profile_dc, kNets[2], 4, 300, 1024);
}

TEST(SimData, BothWaysThroughImpairmentRfc)
{
	for (const Net &n : kNets)
		sweep(&sctp_profile_rfc, n, 3, 80, 8);
}

// PR-SCTP: each run with the policy mix; prints abandonments and returns
// how many messages were reported abandoned over the sweep.
uint64_t
sweep_pr(const struct sctp_profile *prof, const Net &n, const PrMix &mix, unsigned seeds,
	 uint32_t messages, uint16_t streams, bool idata = false)
{
	unsigned failed = 0;
	Result sum;
	uint64_t time = 0;
	const char *pname = prof == &sctp_profile_dc ? "dc" : "rfc";
	for (unsigned s = 1; s <= seeds; s++) {
		Run r(prof, n, s, messages, streams, &mix, idata);
		Result res = r.go();
		if (!res.ok) {
			failed++;
			ADD_FAILURE()
				<< "SIM_DATA_REPLAY='profile=" << pname << " net=" << n.name
				<< " seed=" << s << " messages=" << messages
				<< " streams=" << streams << " pr=ttl" << unsigned(mix.ttl_pct)
				<< "%:" << mix.ttl_min_ms << "-" << mix.ttl_max_ms << "ms,rtx"
				<< unsigned(mix.rtx_pct) << "%:0-" << unsigned(mix.rtx_max)
				<< (idata ? " idata=1" : "") << "': " << res.why;
		}
		sum.bytes += res.bytes;
		sum.data_rtx += res.data_rtx;
		sum.abandoned += res.abandoned;
		sum.unsent += res.unsent;
		sum.abandoned_delivered += res.abandoned_delivered;
		sum.pd_aborted += res.pd_aborted;
		sum.fwd_tsn += res.fwd_tsn;
		time += res.t_done;
	}
	printf("[sim-pr] profile=%-3s net=%-16s ttl=%u-%ums runs=%u failed=%u | %u messages, "
	       "%" PRIu64 " abandoned (%" PRIu64 " unsent, %" PRIu64
	       " delivered all the same), %" PRIu64 " partial deliveries aborted, %" PRIu64
	       " FORWARD TSN, %" PRIu64 " retransmitted chunks, goodput %.1f Mbit/s (virtual)\n",
	       pname, n.name, mix.ttl_min_ms, mix.ttl_max_ms, seeds, failed, seeds * messages * 2,
	       sum.abandoned, sum.unsent, sum.abandoned_delivered, sum.pd_aborted, sum.fwd_tsn,
	       sum.data_rtx, time ? (double)sum.bytes * 8.0 / ((double)time / 1e9) / 1e6 : 0.0);
	return sum.abandoned;
}

// Loss each way, with 2 % duplication and 2 % reordering on every one.
const Net kPrNets[] = {
	{ "loss0_dup2_reord2", 0, true, false, false },
	{ "loss5_dup2_reord2", 50, true, false, false },
	{ "loss10_dup2_reord2", 100, true, false, false },
	{ "loss20_dup2_reord2", 200, true, false, false },
};

// A third of the messages with a lifetime, a third with 0 to 3
// retransmissions, the rest reliable. Lifetimes from about the RTT to a few
// RTOs: DC 1 ms (the unit; the RTT is 40 us) to 40 ms (RTO.Initial 10 ms),
// RFC 50 ms (the RTT) to 4 s (RTO.Initial and RTO.Min 1 s).
const PrMix kPrDc = { 33, 33, 3, 1, 40 };
const PrMix kPrRfc = { 33, 33, 3, 50, 4000 };
// The same shares with lifetimes far beyond the run.
const PrMix kPrGenerous = { 33, 33, 3, 600000, 1200000 };

// These sweeps abandon fragmented messages partly sent (RFC 3758 §3.5 A3),
// which once broke the receiver's §6.9 check and then stalled ordered
// streams (docs/SIM.md, "What the harness found: the tail of a partly sent
// message").
void
pr_sweeps(const struct sctp_profile *prof, const PrMix &mix, unsigned seeds, bool idata = false)
{
	for (const Net &n : kPrNets) {
		uint64_t abandoned = sweep_pr(prof, n, mix, seeds, 80, 8, idata);
		// Otherwise the judge's abandonment side was never exercised.
		if (n.loss_permille != 0) {
			EXPECT_GT(abandoned, 0u) << n.name << ": nothing abandoned";
		}
	}
}

TEST(SimPr, MixedPoliciesThroughImpairmentDc)
{
	pr_sweeps(&sctp_profile_dc, kPrDc, 6);
}

TEST(SimPr, MixedPoliciesThroughImpairmentRfc)
{
	pr_sweeps(&sctp_profile_rfc, kPrRfc, 3);
}

// No loss, no reordering, lifetimes beyond the run: no retransmission and
// no expiry, so nothing may be abandoned.
TEST(SimPr, CleanLinkGenerousLifetimesAbandonNothing)
{
	const Net clean = { "loss0", 0, false, false, false };
	EXPECT_EQ(sweep_pr(&sctp_profile_dc, clean, kPrGenerous, 6, 80, 8), 0u);
	EXPECT_EQ(sweep_pr(&sctp_profile_rfc, clean, kPrGenerous, 3, 80, 8), 0u);
}

// 1,024 streams both ways with the mix, 10 % loss.
TEST(SimPr, ManyStreamsDc)
{
	EXPECT_GT(sweep_pr(&sctp_profile_dc, kPrNets[2], kPrDc, 3, 300, 1024), 0u);
}

// I-DATA (RFC 8260): the same traffic, interleaved per chunk, reassembled
// by MID and FSN; every net of the DATA sweeps, and PR-SCTP's mix with
// I-FORWARD TSN through loss, duplication and reordering.
TEST(SimIData, BothWaysThroughImpairmentDc)
{
	for (const Net &n : kNets)
		sweep(&sctp_profile_dc, n, 4, 80, 8, true);
}

TEST(SimIData, BothWaysThroughImpairmentRfc)
{
	for (const Net &n : kNets)
		sweep(&sctp_profile_rfc, n, 2, 80, 8, true);
}

TEST(SimIData, ManyStreamsBothWays)
{
	sweep(&sctp_profile_dc, kNets[2], 3, 300, 1024, true);
}

TEST(SimIData, MixedPoliciesThroughImpairmentDc)
{
	pr_sweeps(&sctp_profile_dc, kPrDc, 4, true);
}

TEST(SimIData, MixedPoliciesThroughImpairmentRfc)
{
	pr_sweeps(&sctp_profile_rfc, kPrRfc, 2, true);
}

// RE-CONFIG (RFC 6525): each side resets one of its 8 outgoing streams
// every `every` of virtual time while both directions carry the traffic;
// returns the resets performed over the sweep.
uint64_t
sweep_reconf(const struct sctp_profile *prof, const Net &n, unsigned seeds, uint64_t every,
	     bool idata)
{
	unsigned failed = 0;
	uint64_t resets = 0, rtx = 0;
	const char *pname = prof == &sctp_profile_dc ? "dc" : "rfc";
	for (unsigned s = 1; s <= seeds; s++) {
		Run r(prof, n, s, 120, 8, nullptr, idata, every);
		Result res = r.go();
		if (!res.ok) {
			failed++;
			ADD_FAILURE() << "SIM_DATA_REPLAY='profile=" << pname << " net=" << n.name
				      << " seed=" << s
				      << " messages=120 streams=8 reset_every_ns=" << every
				      << (idata ? " idata=1" : "") << "': " << res.why;
		}
		resets += res.resets;
		rtx += res.data_rtx;
	}
	printf("[sim-reconf] profile=%-3s net=%-18s%s runs=%u failed=%u | %" PRIu64
	       " stream resets performed (every %.3g ms a side), %" PRIu64
	       " retransmitted chunks\n",
	       pname, n.name, idata ? " I-DATA" : "", seeds, failed, resets, (double)every / 1e6,
	       rtx);
	return resets;
}

// 0 to 20 % loss, duplication and reordering, jitter that reorders.
const Net kReconfNets[] = {
	{ "loss0", 0, false, false, false },
	{ "loss5_dup2_reord2", 50, true, false, false },
	{ "loss20_dup2_reord2", 200, true, false, false },
	{ "loss1_jitter4x", 10, false, true, false },
};

void
reconf_sweeps(const struct sctp_profile *prof, unsigned seeds, uint64_t every)
{
	for (bool idata : { false, true })
		for (const Net &n : kReconfNets)
			EXPECT_GT(sweep_reconf(prof, n, seeds, every, idata), 0u)
				<< n.name << (idata ? " I-DATA" : "") << ": no reset performed";
}

// Every 100 us of a 40 us RTT (DC), every 100 ms of a 50 ms one (RFC).
TEST(SimReconf, ResetsWhileDataFlowsDc)
{
	reconf_sweeps(&sctp_profile_dc, 4, SCTP_US(100));
}

TEST(SimReconf, ResetsWhileDataFlowsRfc)
{
	reconf_sweeps(&sctp_profile_rfc, 2, SCTP_MS(100));
}

} // namespace
