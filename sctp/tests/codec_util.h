// SPDX-License-Identifier: BSD-3-Clause
// Helpers shared by the codec tests in sctp/tests/: packets and chunks from
// hex, builders run into a poisoned buffer, TLV walks, and the table-driven
// checks the parameter and cause tests share. Header-only; every helper
// reports through GoogleTest, so a failure names the test that called it.
#ifndef SCTP_TESTS_CODEC_UTIL_H
#define SCTP_TESTS_CODEC_UTIL_H

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "hex.h"

extern "C" {
#include "sctp/packet.h"
#include "sctp/param.h"
}

namespace codec_test {

using Bytes = std::vector<uint8_t>;

// The common header of every test packet: ports 5001 -> 3000, verification
// tag 0x01020304 and a zero checksum (the codecs never look at either).
inline constexpr const char *kCommonHeader = "1389 0bb8 01020304 00000000";

// A packet: the common header, then the chunks given in hex, padding
// included, exactly as they are to stand on the wire.
inline Bytes
packet(const std::string &chunk_hex)
{
	return hex::bytes(kCommonHeader + chunk_hex);
}

// The same for chunk bytes a builder wrote.
inline Bytes
packet(const Bytes &chunks)
{
	Bytes p = hex::bytes(kCommonHeader);
	p.insert(p.end(), chunks.begin(), chunks.end());
	return p;
}

// What follows the common header of pkt: the bytes a chunk builder should
// write again.
inline Bytes
chunk_bytes(const Bytes &pkt)
{
	return Bytes(pkt.begin() + SCTP_COMMON_HDR_LEN, pkt.end());
}

// Walk pkt with the real chunk walker, as the stack would: the walker's
// error, or OK and the first chunk in *c (left alone on error).
inline enum sctp_parse_err
walk_first_chunk(const Bytes &pkt, struct sctp_chunk *c)
{
	struct sctp_packet p;
	struct sctp_chunk_iter it;
	if (sctp_packet_parse(&p, pkt.data(), pkt.size()) != SCTP_PERR_OK)
		return SCTP_PERR_PACKET_TOO_SHORT;
	sctp_chunk_iter_init(&it, &p);
	return sctp_chunk_iter_next(&it, c) ? SCTP_PERR_OK : it.err;
}

// Put chunk_hex behind a common header in pkt and walk it: for tests of
// what the walker refuses as well as of what it yields. c points into pkt.
inline enum sctp_parse_err
walk_chunk(Bytes &pkt, const std::string &chunk_hex, struct sctp_chunk *c)
{
	pkt = packet(chunk_hex);
	return walk_first_chunk(pkt, c);
}

// The walker's verdict on chunk_hex behind a common header.
inline enum sctp_parse_err
walker_verdict(const std::string &chunk_hex)
{
	Bytes pkt;
	struct sctp_chunk c;
	return walk_chunk(pkt, chunk_hex, &c);
}

// The first chunk of pkt, which the walker must yield (a failure is
// reported and an all-zero chunk returned, which every parser refuses).
inline struct sctp_chunk
first_chunk(const Bytes &pkt)
{
	struct sctp_chunk c;
	std::memset(&c, 0, sizeof(c));
	enum sctp_parse_err err = walk_first_chunk(pkt, &c);
	EXPECT_EQ(err, SCTP_PERR_OK) << sctp_parse_err_name(err);
	return c;
}

// A chunk header as a caller might hand-craft it (the walker would refuse
// some of these): the parsers must still not read past what length allows.
inline struct sctp_chunk
raw_chunk(const Bytes &b)
{
	struct sctp_chunk c {};
	c.type = b[0];
	c.flags = b[1];
	c.length = static_cast<uint16_t>(b[2] << 8 | b[3]);
	c.value = b.data() + 4;
	return c;
}

// A chunk parser: sctp_<x>_parse() of any chunk codec.
template <typename S> using ChunkParse = enum sctp_parse_err (*)(const struct sctp_chunk *, S *);

// The verdict of a chunk parser on a raw_chunk() made from hdr_hex.
template <typename S>
enum sctp_parse_err
raw_verdict(ChunkParse<S> parse, const std::string &hdr_hex)
{
	Bytes b = hex::bytes(hdr_hex);
	struct sctp_chunk c = raw_chunk(b);
	S s;
	return parse(&c, &s);
}

// Run a builder (a callable taking the writer) into a 128 KiB buffer filled
// with 0xee, expect no overflow, and return the bytes it wrote.
template <typename F>
Bytes
build(F &&f)
{
	Bytes buf(1 << 17, 0xee);
	struct sctp_writer w = sctp_writer_make(buf.data(), buf.size());
	f(&w);
	EXPECT_TRUE(sctp_writer_ok(&w));
	buf.resize(w.off);
	return buf;
}

// The same for a codec builder and its input: build(sctp_ecn_build, &e).
template <typename S>
Bytes
build(void (*build_fn)(struct sctp_writer *, const S *), const S *in)
{
	return build([&](struct sctp_writer *w) { build_fn(w, in); });
}

// The verdict of a chunk parser on chunk_hex, a chunk the walker must
// accept (if it does not, that is reported and SCTP_PERR_COUNT returned).
template <typename S>
enum sctp_parse_err
chunk_verdict(ChunkParse<S> parse, const std::string &chunk_hex)
{
	Bytes pkt;
	struct sctp_chunk c;
	enum sctp_parse_err err = walk_chunk(pkt, chunk_hex, &c);
	EXPECT_EQ(err, SCTP_PERR_OK) << "walker refused " << chunk_hex;
	if (err != SCTP_PERR_OK)
		return SCTP_PERR_COUNT;
	S s;
	return parse(&c, &s);
}

// build(parse(x)) == x for one chunk given in hex, padding included.
template <typename S>
void
expect_chunk_round_trip(ChunkParse<S> parse, void (*build_fn)(struct sctp_writer *, const S *),
			const std::string &chunk_hex)
{
	SCOPED_TRACE(chunk_hex);
	Bytes pkt;
	struct sctp_chunk c;
	ASSERT_EQ(walk_chunk(pkt, chunk_hex, &c), SCTP_PERR_OK);
	S s;
	ASSERT_EQ(parse(&c, &s), SCTP_PERR_OK);
	EXPECT_EQ(hex::dump(build(build_fn, &s)), hex::dump(hex::bytes(chunk_hex)));
}

// ---- TLVs: parameters and error causes -----------------------------------

// The first TLV of a span as the walker yields it (a failure is reported
// and an all-zero TLV returned).
inline struct sctp_tlv
first_tlv(enum sctp_tlv_kind kind, const uint8_t *p, size_t n)
{
	struct sctp_tlv_iter it;
	struct sctp_tlv t;
	std::memset(&t, 0, sizeof(t));
	sctp_tlv_iter_init(&it, kind, p, n);
	bool ok = sctp_tlv_iter_next(&it, &t);
	EXPECT_TRUE(ok) << sctp_parse_err_name(it.err) << " in " << hex::dump(p, n);
	return t;
}

inline struct sctp_tlv
first_tlv(enum sctp_tlv_kind kind, const Bytes &b)
{
	return first_tlv(kind, b.data(), b.size());
}

// The TLV's own bytes: as long as its Length field says, no padding.
inline Bytes
tlv_only(const Bytes &b)
{
	size_t len = static_cast<size_t>(b[2] << 8 | b[3]);
	return Bytes(b.begin(), b.begin() + static_cast<long>(len));
}

// The framing verdict of sctp_param_walk_check() on a span of TLVs.
inline enum sctp_parse_err
tlv_walk_check(enum sctp_tlv_kind kind, const Bytes &b)
{
	uint32_t n;
	return sctp_param_walk_check(kind, b.data(), b.size(), &n);
}

// Every TLV a walker yields, and the error it stopped on.
struct Tlvs {
	std::vector<struct sctp_tlv> list;
	enum sctp_parse_err err;
};

inline Tlvs
drain_tlvs(struct sctp_tlv_iter *it)
{
	Tlvs out{ {}, SCTP_PERR_OK };
	struct sctp_tlv t;
	while (sctp_tlv_iter_next(it, &t))
		out.list.push_back(t);
	out.err = it->err;
	return out;
}

// The TLVs of a span of bytes.
inline Tlvs
tlvs_in(enum sctp_tlv_kind kind, const Bytes &b)
{
	struct sctp_tlv_iter it;
	sctp_tlv_iter_init(&it, kind, b.data(), b.size());
	return drain_tlvs(&it);
}

// The TLVs of a parsed chunk, walked with the chunk's own iterator setup:
// tlvs_of(sctp_abort_cause_iter_init, &abort).
template <typename T>
Tlvs
tlvs_of(void (*iter_init)(struct sctp_tlv_iter *, const T *), const T *x)
{
	struct sctp_tlv_iter it;
	iter_init(&it, x);
	return drain_tlvs(&it);
}

// Parse a TLV and, on success, rebuild it into *out: one function type for
// every parameter and cause codec, so that one table can list them all.
using TlvParseBuild = std::function<enum sctp_parse_err(const struct sctp_tlv *, Bytes *)>;

template <typename S>
TlvParseBuild
parse_build(enum sctp_parse_err (*parse)(const struct sctp_tlv *, S *),
	    void (*build_fn)(struct sctp_writer *, const S *))
{
	return [parse, build_fn](const struct sctp_tlv *t, Bytes *out) {
		S s;
		std::memset(&s, 0, sizeof(s));
		enum sctp_parse_err err = parse(t, &s);
		if (err == SCTP_PERR_OK)
			*out = build(build_fn, static_cast<const S *>(&s));
		return err;
	};
}

// The same for a TLV without a value (ECN Capable, Out of Resource, ...).
inline TlvParseBuild
parse_build(enum sctp_parse_err (*parse)(const struct sctp_tlv *),
	    void (*build_fn)(struct sctp_writer *))
{
	return [parse, build_fn](const struct sctp_tlv *t, Bytes *out) {
		enum sctp_parse_err err = parse(t);
		if (err == SCTP_PERR_OK)
			*out = build([&](struct sctp_writer *w) { build_fn(w); });
		return err;
	};
}

// parse_build() of the codec named x (x_parse, x_build).
#define TLV_PARSE_BUILD(x) codec_test::parse_build(x##_parse, x##_build)

struct BadTlv {
	const char *hex;
	enum sctp_parse_err err;
};

// One parameter type or cause code and its test vectors.
struct TlvCase {
	const char *name;
	std::vector<const char *> good; // canonical vectors: build(parse(x)) == x
	TlvParseBuild parse_build;
	std::vector<BadTlv> bad; // well framed, wrong for the type
};

// build(parse(x)) == x for every good vector, padding left to the next TLV
// (the builder writes exactly Length bytes).
inline void
expect_tlv_round_trips(enum sctp_tlv_kind kind, const std::vector<TlvCase> &cases)
{
	for (const TlvCase &c : cases) {
		for (const char *h : c.good) {
			SCOPED_TRACE(std::string(c.name) + ": " + h);
			Bytes b = hex::bytes(h);
			ASSERT_EQ(tlv_walk_check(kind, b), SCTP_PERR_OK);
			struct sctp_tlv t = first_tlv(kind, b);
			Bytes out;
			ASSERT_EQ(c.parse_build(&t, &out), SCTP_PERR_OK);
			EXPECT_EQ(hex::dump(out), hex::dump(tlv_only(b)));
		}
	}
}

// Every bad vector frames well and its codec names the expected error.
inline void
expect_tlv_wrong_lengths(enum sctp_tlv_kind kind, const std::vector<TlvCase> &cases)
{
	for (const TlvCase &c : cases) {
		for (const BadTlv &bad : c.bad) {
			SCOPED_TRACE(std::string(c.name) + ": " + bad.hex);
			Bytes b = hex::bytes(bad.hex);
			ASSERT_EQ(tlv_walk_check(kind, b), SCTP_PERR_OK);
			struct sctp_tlv t = first_tlv(kind, b);
			Bytes out;
			EXPECT_EQ(c.parse_build(&t, &out), bad.err);
		}
	}
}

// Framing errors the walker catches, before any codec runs, in every good
// vector cut short, with a length below the header or past the end, or
// followed by next_tlv_hex where its padding belongs.
inline void
expect_tlv_framing_errors(enum sctp_tlv_kind kind, const std::vector<TlvCase> &cases,
			  const char *next_tlv_hex)
{
	bool param = kind == SCTP_TLV_PARAM;
	enum sctp_parse_err truncated =
		param ? SCTP_PERR_PARAM_TRUNCATED : SCTP_PERR_CAUSE_TRUNCATED;
	enum sctp_parse_err len_short =
		param ? SCTP_PERR_PARAM_LEN_SHORT : SCTP_PERR_CAUSE_LEN_SHORT;
	enum sctp_parse_err overrun =
		param ? SCTP_PERR_PARAM_LEN_OVERRUN : SCTP_PERR_CAUSE_LEN_OVERRUN;

	for (const TlvCase &c : cases) {
		for (const char *h : c.good) {
			SCOPED_TRACE(std::string(c.name) + ": " + h);
			Bytes b = tlv_only(hex::bytes(h));

			Bytes cut(b.begin(), b.begin() + 3); // not even a header
			EXPECT_EQ(tlv_walk_check(kind, cut), truncated);

			Bytes shortv(b.begin(), b.end() - 1); // value cut short
			EXPECT_EQ(tlv_walk_check(kind, shortv),
				  shortv.size() < 4 ? truncated : overrun);

			for (uint16_t len : { 0, 1, 2, 3 }) { // below the header
				Bytes below = b;
				below[2] = static_cast<uint8_t>(len >> 8);
				below[3] = static_cast<uint8_t>(len);
				EXPECT_EQ(tlv_walk_check(kind, below), len_short);
			}

			Bytes past = b; // past the end
			size_t len = b.size() + 4;
			past[2] = static_cast<uint8_t>(len >> 8);
			past[3] = static_cast<uint8_t>(len);
			EXPECT_EQ(tlv_walk_check(kind, past), overrun);

			// A second TLV written where the padding belongs is
			// misread: its header is off by the pad (RFC 9260 §3.2).
			if (b.size() % 4 != 0) {
				Bytes nopad = b;
				for (uint8_t x : hex::bytes(next_tlv_hex))
					nopad.push_back(x);
				EXPECT_NE(tlv_walk_check(kind, nopad), SCTP_PERR_OK);
			}
		}
	}
}

} // namespace codec_test

#endif
