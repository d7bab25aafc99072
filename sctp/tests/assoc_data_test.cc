// SPDX-License-Identifier: BSD-3-Clause
// The association's receive path (sctp/assoc_data.c): DATA through the TSN
// map and reassembly to the user, and the SACK policy of RFC 9260 §6.2 and
// §6.7 for both profiles, on one association fed crafted packets. Every
// packet carries a refcounted fake buffer handle; each test ends with every
// hold released (zero copy: what the association keeps, it holds).
#include "assoc_harness.h"

namespace {

// Reference counts of fake packet buffers: one int per packet.
struct Refs {
	std::vector<std::unique_ptr<int>> bufs;
	int *fresh()
	{
		bufs.push_back(std::make_unique<int>(0));
		return bufs.back().get();
	}
	int outstanding() const
	{
		int n = 0;
		for (const auto &b : bufs)
			n += *b;
		return n;
	}
};

// A DATA chunk: flags, TSN, stream, SSN, PPID, payload.
Bytes
data_chunk(uint8_t flags, uint32_t tsn, uint16_t sid, uint16_t ssn, const std::string &payload,
	   uint32_t ppid = 51)
{
	Bytes b(16 + payload.size() + 4);
	struct sctp_writer w = sctp_writer_make(b.data(), b.size());
	struct sctp_data d;
	std::memset(&d, 0, sizeof(d));
	d.flags = flags;
	d.tsn = tsn;
	d.sid = sid;
	d.ssn = ssn;
	d.ppid = ppid;
	d.payload = reinterpret_cast<const uint8_t *>(payload.data());
	d.payload_len = static_cast<uint16_t>(payload.size());
	sctp_data_build(&w, &d);
	EXPECT_TRUE(sctp_writer_ok(&w));
	b.resize(w.off);
	return b;
}

constexpr uint8_t kBE = SCTP_DATA_FLAG_B | SCTP_DATA_FLAG_E;
constexpr uint32_t kTsn0 = 5000; // the Initial TSN of One's INIT ACK

// The SACK in a packet we sent.
struct Sack {
	uint32_t cum, a_rwnd;
	std::vector<std::pair<uint16_t, uint16_t>> gaps;
	std::vector<uint32_t> dups;
};

Sack
sack_of(const Bytes &pkt)
{
	Sack out{};
	struct sctp_packet p;
	EXPECT_EQ(sctp_packet_parse(&p, pkt.data(), pkt.size()), SCTP_PERR_OK);
	struct sctp_chunk_iter it;
	struct sctp_chunk c;
	sctp_chunk_iter_init(&it, &p);
	EXPECT_TRUE(sctp_chunk_iter_next(&it, &c));
	EXPECT_EQ(c.type, SCTP_CHUNK_SACK);
	struct sctp_sack s;
	EXPECT_EQ(sctp_sack_parse(&c, &s), SCTP_PERR_OK);
	out.cum = s.cum_tsn;
	out.a_rwnd = s.a_rwnd;
	for (uint16_t i = 0; i < s.n_gaps; i++) {
		struct sctp_sack_gap g = sctp_sack_gap_block(&s, i);
		out.gaps.push_back({ g.start, g.end });
	}
	for (uint16_t i = 0; i < s.n_dups; i++)
		out.dups.push_back(sctp_sack_dup_tsn(&s, i));
	return out;
}

class Data : public One, public ::testing::WithParamInterface<const struct sctp_profile *> {
      protected:
	void SetUp() override
	{
		prof_ = *GetParam();
		ASSERT_EQ(sctp_reasm_pool_init(&pool_, nodes_, 64), 0);
		cfg_.buf.hold = [](void *, void *h) { ++*static_cast<int *>(h); };
		cfg_.buf.release = [](void *, void *h) {
			int *r = static_cast<int *>(h);
			EXPECT_GT(*r, 0);
			--*r;
		};
		cfg_.reasm_pool = &pool_;
		cfg_.reasm = { 4096, 0, 32 };
		cfg_.tsn_map_words = 4;
		cfg_.max_dups = 8;
		cfg_.max_gap_blocks = 16;
		data_cfg_ = &cfg_;
		make_endpoint();
		// Our window is what reassembly may hold.
		ep_.cfg.a_rwnd = cfg_.reasm.max_bytes;
		to_established();
		ASSERT_NE(a_.data_mem, nullptr);
	}
	void TearDown() override
	{
		if (a_.state != SCTP_ASSOC_CLOSED)
			sctp_assoc_abort(&a_, now_, nullptr, 0);
		EXPECT_FALSE(data_lent_) << "data storage given back at close";
		EXPECT_EQ(refs_.outstanding(), 0) << "every hold released";
		EXPECT_EQ(pool_.n_free, pool_.n);
		One::TearDown();
	}
	// One packet from the peer with these chunks, in its own buffer.
	void rx(const Bytes &chunks)
	{
		rx_handle_ = refs_.fresh();
		input(kClientTag, chunks);
	}
	size_t sacks() const
	{
		size_t n = 0;
		for (const auto &s : sent_)
			n += s.first == SCTP_CHUNK_SACK;
		return n;
	}
	std::string got(size_t i) const
	{
		return std::string(delivered_.at(i).bytes.begin(), delivered_.at(i).bytes.end());
	}

	struct sctp_data_config cfg_ = {};
	struct sctp_reasm_node nodes_[64];
	struct sctp_reasm_pool pool_;
	Refs refs_;
};

INSTANTIATE_TEST_SUITE_P(Profiles, Data, ::testing::Values(&sctp_profile_rfc, &sctp_profile_dc),
			 [](const ::testing::TestParamInfo<const struct sctp_profile *> &info) {
				 return std::string(info.param == &sctp_profile_rfc ? "Rfc" : "Dc");
			 });

// §6.2: in order, each message goes up at once; the SACK waits for
// sack_every packets or sack_delay, whichever comes first, never more than
// one per packet.
TEST_P(Data, InOrderMessagesGoUpAndTheSackFollowsThePolicy)
{
	size_t base = sacks();
	for (unsigned i = 0; i < prof_.sack_every; i++) {
		rx(data_chunk(kBE, kTsn0 + i, 0, static_cast<uint16_t>(i),
			      "m" + std::to_string(i)));
		ASSERT_EQ(delivered_.size(), i + 1u);
		EXPECT_EQ(got(i), "m" + std::to_string(i));
		if (i + 1 < prof_.sack_every) {
			EXPECT_EQ(sacks(), base) << "packet " << i;
			EXPECT_EQ(a_.timer_at[SCTP_ASSOC_T_SACK], now_ + prof_.sack_delay_ns);
		}
	}
	ASSERT_EQ(sacks(), base + 1);
	Sack s = sack_of(last().bytes);
	EXPECT_EQ(s.cum, kTsn0 + prof_.sack_every - 1);
	EXPECT_EQ(s.a_rwnd, cfg_.reasm.max_bytes);
	EXPECT_TRUE(s.gaps.empty());
	EXPECT_EQ(a_.timer_at[SCTP_ASSOC_T_SACK], SCTP_TIME_NEVER);
	EXPECT_TRUE(sctp_addr_eq(&last().dst, &peer_addr_));
	// One more: the delayed SACK comes sack_delay later.
	rx(data_chunk(kBE, kTsn0 + prof_.sack_every, 0, static_cast<uint16_t>(prof_.sack_every),
		      "late"));
	EXPECT_EQ(sacks(), base + 1);
	now_ = sctp_assoc_next_wakeup(&a_);
	EXPECT_EQ(now_, a_.timer_at[SCTP_ASSOC_T_SACK]);
	sctp_assoc_timeout(&a_, now_);
	ASSERT_EQ(sacks(), base + 2);
	EXPECT_EQ(sack_of(last().bytes).cum, kTsn0 + prof_.sack_every);
	EXPECT_EQ(counters_.sacks_delayed, 1u);
	EXPECT_EQ(stats_.data_chunks, prof_.sack_every + 1u);
}

// §6.7: a gap is reported at once with a Gap Ack Block; filling it delivers
// what waited, in order, and is acknowledged at once too (§6.2: the gap
// report changed).
TEST_P(Data, GapsAreReportedAtOnceAndFilledInOrder)
{
	size_t base = sacks();
	rx(data_chunk(kBE, kTsn0 + 1, 0, 1, "second"));
	EXPECT_TRUE(delivered_.empty()) << "SSN 1 waits for SSN 0";
	ASSERT_EQ(sacks(), base + 1);
	Sack s = sack_of(last().bytes);
	EXPECT_EQ(s.cum, kTsn0 - 1);
	ASSERT_EQ(s.gaps.size(), 1u);
	EXPECT_EQ(s.gaps[0], std::make_pair(uint16_t{ 2 }, uint16_t{ 2 }));
	EXPECT_EQ(s.a_rwnd, cfg_.reasm.max_bytes - 6) << "the held bytes leave the window";
	EXPECT_EQ(refs_.outstanding(), 1) << "the queued fragment holds its packet";
	rx(data_chunk(kBE, kTsn0, 0, 0, "first"));
	ASSERT_EQ(delivered_.size(), 2u);
	EXPECT_EQ(got(0), "first");
	EXPECT_EQ(got(1), "second");
	EXPECT_EQ(refs_.outstanding(), 0);
	EXPECT_EQ(sacks(), base + 2) << "the packet that fills the gap is acknowledged";
	EXPECT_EQ(sack_of(last().bytes).cum, kTsn0 + 1);
}

// §6.2: a duplicate is reported at once and listed; it goes up only once.
TEST_P(Data, DuplicatesAreListedAndNotDeliveredTwice)
{
	rx(data_chunk(kBE, kTsn0, 0, 0, "once"));
	size_t base = sacks();
	rx(data_chunk(kBE, kTsn0, 0, 0, "once"));
	EXPECT_EQ(delivered_.size(), 1u);
	ASSERT_EQ(sacks(), base + 1);
	Sack s = sack_of(last().bytes);
	EXPECT_EQ(s.dups, std::vector<uint32_t>{ kTsn0 });
	EXPECT_EQ(stats_.data_dups, 1u);
	// Listed once: the next SACK does not repeat it.
	rx(data_chunk(kBE, kTsn0 + 1, 0, 1, "x"));
	now_ = sctp_assoc_next_wakeup(&a_);
	sctp_assoc_timeout(&a_, now_);
	EXPECT_TRUE(sack_of(last().bytes).dups.empty());
}

// RFC 7053: the I bit asks for a SACK at once.
TEST_P(Data, TheIBitIsAnsweredAtOnce)
{
	size_t base = sacks();
	rx(data_chunk(kBE | SCTP_DATA_FLAG_I, kTsn0, 0, 0, "now"));
	EXPECT_EQ(sacks(), base + 1);
}

// §6.9: a message in three fragments, arriving last first, goes up whole,
// its bytes in order, no copy made: each queued fragment held its packet.
TEST_P(Data, FragmentsAreReassembledWithoutCopies)
{
	rx(data_chunk(SCTP_DATA_FLAG_E, kTsn0 + 2, 3, 0, "gamma"));
	rx(data_chunk(0, kTsn0 + 1, 3, 0, "beta-"));
	EXPECT_EQ(refs_.outstanding(), 2);
	EXPECT_TRUE(delivered_.empty());
	rx(data_chunk(SCTP_DATA_FLAG_B, kTsn0, 3, 0, "alpha-"));
	ASSERT_EQ(delivered_.size(), 1u);
	EXPECT_EQ(got(0), "alpha-beta-gamma");
	EXPECT_EQ(delivered_[0].sid, 3u);
	EXPECT_EQ(delivered_[0].ppid, 51u);
	EXPECT_EQ(refs_.outstanding(), 0);
}

// §6.5: an unknown stream gets an ERROR with cause 1; the TSN is still
// acknowledged (the peer must not retransmit it).
TEST_P(Data, AnInvalidStreamGetsAnErrorAndIsAcknowledged)
{
	rx(data_chunk(kBE | SCTP_DATA_FLAG_I, kTsn0, 999, 0, "nowhere"));
	EXPECT_TRUE(delivered_.empty());
	EXPECT_EQ(counters_.data_bad_stream, 1u);
	bool error_seen = false;
	for (const auto &p : sent_) {
		if (p.first != SCTP_CHUNK_ERROR)
			continue;
		Packet e = decode(p.bytes);
		auto causes = causes_of(e.chunks[0].value);
		EXPECT_EQ(causes[0].first, SCTP_CAUSE_INVALID_STREAM);
		EXPECT_EQ(causes[0].second, hex::bytes("03e7 0000"));
		error_seen = true;
	}
	EXPECT_TRUE(error_seen);
	EXPECT_EQ(sack_of(last().bytes).cum, kTsn0);
}

// §6.2: what reassembly cannot hold is dropped, not acknowledged, and the
// peer learns the smaller window at once.
TEST_P(Data, WhatDoesNotFitIsNotAcknowledged)
{
	std::string big(3000, 'x');
	rx(data_chunk(kBE, kTsn0 + 1, 0, 1, big)); // waits for SSN 0
	rx(data_chunk(kBE, kTsn0 + 2, 0, 2, big)); // would wait too, past 4096
	EXPECT_EQ(counters_.data_no_room, 1u);
	Sack s = sack_of(last().bytes);
	EXPECT_EQ(s.cum, kTsn0 - 1);
	ASSERT_EQ(s.gaps.size(), 1u);
	EXPECT_EQ(s.gaps[0], std::make_pair(uint16_t{ 2 }, uint16_t{ 2 })) << "not kTsn0 + 2";
	EXPECT_EQ(s.a_rwnd, 4096u - 3000u);
}

// §3.3.1: DATA with no user data ends the association with an ABORT
// carrying No User Data and the TSN.
TEST_P(Data, EmptyDataIsAbortedWithNoUserData)
{
	rx(hex::bytes("00030010 00001388 00000000 00000000"));
	EXPECT_EQ(a_.state, SCTP_ASSOC_CLOSED);
	Packet p = decode(last().bytes);
	ASSERT_EQ(p.chunks[0].type, SCTP_CHUNK_ABORT);
	auto causes = causes_of(p.chunks[0].value);
	EXPECT_EQ(causes[0].first, SCTP_CAUSE_NO_USER_DATA);
	EXPECT_EQ(causes[0].second, hex::bytes("00001388"));
	EXPECT_EQ(notes_.back().n.type, SCTP_NOTIFY_COMM_LOST);
	EXPECT_EQ(notes_.back().n.reason, SCTP_ASSOC_REASON_PROTOCOL);
}

// §9.2: in SHUTDOWN-SENT each packet with DATA is answered with a SHUTDOWN
// carrying the new cumulative TSN, and T2 restarts.
TEST_P(Data, DataInShutdownSentIsAnsweredWithShutdown)
{
	ASSERT_EQ(sctp_assoc_shutdown(&a_, now_), 0);
	ASSERT_EQ(a_.state, SCTP_ASSOC_SHUTDOWN_SENT);
	now_ += SCTP_US(10);
	rx(data_chunk(kBE, kTsn0, 0, 0, "last words"));
	EXPECT_EQ(got(0), "last words");
	Packet p = decode(last().bytes);
	ASSERT_EQ(p.chunks[0].type, SCTP_CHUNK_SHUTDOWN);
	EXPECT_EQ(p.chunks[0].value, hex::bytes("00001388"));
	EXPECT_EQ(a_.timer_at[SCTP_ASSOC_T2_SHUTDOWN], now_ + a_.paths.first.rto.rto_ns);
}

// Closing gives the storage back and releases what reassembly held.
TEST_P(Data, CloseReleasesWhatWasHeld)
{
	rx(data_chunk(SCTP_DATA_FLAG_B, kTsn0, 0, 0, "half"));
	EXPECT_EQ(refs_.outstanding(), 1);
	ASSERT_EQ(sctp_assoc_abort(&a_, now_, nullptr, 0), 0);
	EXPECT_EQ(refs_.outstanding(), 0);
	EXPECT_FALSE(data_lent_);
}

// Without storage for its data path the association aborts with Out of
// Resource instead of running without one.
TEST_P(Data, NoStorageAbortsWithOutOfResource)
{
	ASSERT_EQ(sctp_assoc_abort(&a_, now_, nullptr, 0), 0);
	fresh();
	data_refuse_ = true;
	notes_.clear();
	to_cookie_echoed();
	input_hex(kClientTag, "0b000004");
	EXPECT_EQ(a_.state, SCTP_ASSOC_CLOSED);
	Packet p = decode(last().bytes);
	ASSERT_EQ(p.chunks[0].type, SCTP_CHUNK_ABORT);
	EXPECT_EQ(causes_of(p.chunks[0].value)[0].first, SCTP_CAUSE_OUT_OF_RESOURCE);
	ASSERT_FALSE(notes_.empty());
	EXPECT_EQ(notes_.back().n.reason, SCTP_ASSOC_REASON_NO_MEMORY);
	for (const auto &n : notes_)
		EXPECT_NE(n.n.type, SCTP_NOTIFY_COMM_UP) << "never reported up";
}

} // namespace

namespace {

// §6.2 with the application's consumption counted: a reader that does not
// consume closes the window; consuming a little does not make a SACK (the
// next SACK carries it), consuming a packet's worth sends one at once.
TEST_P(Data, ASlowReaderClosesTheWindowAndConsumingReopensIt)
{
	cfg_.rwnd_counts_delivered = true;
	std::string big(1400, 'x');
	rx(data_chunk(kBE | SCTP_DATA_FLAG_I, kTsn0, 0, 0, big));
	rx(data_chunk(kBE | SCTP_DATA_FLAG_I, kTsn0 + 1, 0, 1, big));
	ASSERT_EQ(delivered_.size(), 2u);
	EXPECT_EQ(sack_of(last().bytes).a_rwnd, 4096u - 2800u) << "delivered, not consumed";
	size_t sacks_before = sacks();
	ASSERT_EQ(sctp_assoc_consumed(&a_, 1000, now_), 0);
	EXPECT_EQ(sacks(), sacks_before) << "1000 bytes: less than min(MTU, buffer/2)";
	ASSERT_EQ(sctp_assoc_consumed(&a_, 1800, now_), 0);
	ASSERT_EQ(sacks(), sacks_before + 1) << "a window update";
	EXPECT_EQ(sack_of(last().bytes).a_rwnd, 4096u);
	EXPECT_EQ(counters_.window_updates, 1u);
	// Consuming more than was delivered is clamped, and says nothing.
	ASSERT_EQ(sctp_assoc_consumed(&a_, 5000, now_), 0);
	EXPECT_EQ(sacks(), sacks_before + 1);
	ASSERT_EQ(sctp_assoc_abort(&a_, now_, nullptr, 0), 0);
	EXPECT_EQ(sctp_assoc_consumed(&a_, 1, now_), -ENOTCONN);
}

// §9.2: once the peer has sent SHUTDOWN, all its DATA is acknowledged and
// no more comes. Consuming still frees the window but sends no update: in
// SHUTDOWN-ACK-SENT it would race the peer's SHUTDOWN COMPLETE and, arriving
// after it, draw an ABORT from the peer's endpoint (§8.4).
TEST_P(Data, NoWindowUpdateOnceThePeerHasShutDown)
{
	cfg_.rwnd_counts_delivered = true;
	std::string big(1400, 'x');
	rx(data_chunk(kBE | SCTP_DATA_FLAG_I, kTsn0, 0, 0, big));
	rx(data_chunk(kBE | SCTP_DATA_FLAG_I, kTsn0 + 1, 0, 1, big));
	ASSERT_EQ(a_.rx_unconsumed, 2800u);
	input_hex(kClientTag, "07000008 00000000");
	ASSERT_EQ(a_.state, SCTP_ASSOC_SHUTDOWN_ACK_SENT);
	size_t sent = sent_.size();
	ASSERT_EQ(sctp_assoc_consumed(&a_, 2800, now_), 0);
	EXPECT_EQ(a_.rx_unconsumed, 0u);
	EXPECT_EQ(sent_.size(), sent) << "no window update";
	EXPECT_EQ(counters_.window_updates, 0u);
}

} // namespace
