/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: one SCTP packet into an endpoint that matches no
 * association (sctp/endpoint.c): INIT handling, cookie verification and the
 * RFC 9260 §8.4 rules. An input whose first chunk is a COOKIE ECHO with
 * the top flag bit set gets a genuine cookie instead of its own: made for
 * the packet's tag and ports, fresh or stale by the input's length, with
 * the fuzzer's bytes XORed into its first 8 bytes, so the MAC check, the
 * stale-cookie ERROR and the tag and port checks are all reached.
 * Properties beyond "no crash, no UB, no leak":
 *  - an answer fits the buffer, walks cleanly and every chunk validates;
 *  - an ABORT or SHUTDOWN COMPLETE with the T bit reflects the input's tag;
 *    an answer to an INIT carries the INIT's Initiate Tag (§8.5.1);
 *  - a NEW_ASSOC result carries the packet's own tag;
 *  - the input is never written.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sctp/chunk.h"
#include "sctp/endpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(int cond)
{
	if (!cond)
		abort();
}

static uint32_t
fuzz_tag(void *ctx, const struct sctp_rx *rx)
{
	(void)ctx;
	return rx->pkt.vtag ^ 0x5a5a5a5au ? rx->pkt.vtag ^ 0x5a5a5a5au : 1u;
}

static uint32_t
fuzz_random(void *ctx)
{
	uint32_t *s = ctx;
	*s = *s * 1664525u + 1013904223u;
	return *s;
}

static struct sctp_endpoint ep;
static const uint8_t peer_ip[4] = { 10, 0, 0, 1 }, local_ip[4] = { 10, 0, 0, 2 };
static uint32_t rnd_state = 1;

static void
endpoint_once(void)
{
	static int ready;
	if (ready)
		return;
	struct sctp_endpoint_config cfg = {
		.port = 5001,
		.profile = &sctp_profile_rfc,
		.a_rwnd = 65536,
		.listening = true,
		.extensions = SCTP_COOKIE_EXT_FORWARD_TSN | SCTP_COOKIE_EXT_ECN,
		.choose_tag = fuzz_tag,
		.random32 = fuzz_random,
		.ctx = &rnd_state,
	};
	static const uint8_t key[SCTP_COOKIE_KEY_LEN] = { 9, 8, 7 };
	check(sctp_endpoint_init(&ep, &cfg, key, 0) == 0);
	ready = 1;
}

/* Replace the first chunk's cookie by a genuine one, perturbed by data. */
static size_t
splice_cookie(const uint8_t *data, size_t size, uint8_t *out, size_t cap)
{
	struct sctp_cookie_state st = { 0 };
	uint8_t cookie[SCTP_COOKIE_MAX_LEN];
	struct sctp_writer w = sctp_writer_make(out, cap);

	st.local_vtag = sctp_load_be32(data + 4);
	st.peer_vtag = 0x01020304;
	st.local_port = sctp_load_be16(data + 2);
	st.peer_port = sctp_load_be16(data);
	st.outbound_streams = st.inbound_streams = 10;
	st.peer_src = sctp_addr_v4(peer_ip);
	st.local_addr = sctp_addr_v4(local_ip);
	st.created_ns = 0;
	st.lifespan_ns = size & 1 ? SCTP_S(60) : 1; /* odd sizes fresh, even stale */
	size_t n = sctp_cookie_encode(&ep.keys, &st, cookie, sizeof(cookie));
	check(n != 0);
	/* XOR a few fuzzer bytes into the front of the cookie (0 changes nothing). */
	for (size_t i = 16; i < size && i - 16 < 8 && i - 16 < n; i++)
		cookie[i - 16] ^= data[i];
	sctp_packet_build_header(&w, st.peer_port, st.local_port, st.local_vtag);
	struct sctp_cookie ce = { SCTP_CHUNK_COOKIE_ECHO, 0, cookie, (uint16_t)n };
	sctp_cookie_build(&w, &ce);
	return sctp_writer_ok(&w) ? w.off : 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t spliced[2048];
	static uint8_t out[4096];
	const uint8_t *pkt = data;
	size_t len = size;

	endpoint_once();
	if (size >= 16 && data[12] == SCTP_CHUNK_COOKIE_ECHO && (data[13] & 0x80)) {
		len = splice_cookie(data, size, spliced, sizeof(spliced));
		pkt = spliced;
	}
	uint8_t *copy = malloc(len ? len : 1);
	check(copy != NULL);
	memcpy(copy, pkt, len);

	struct sctp_rx rx = { 0 };
	rx.src = sctp_addr_v4(peer_ip);
	rx.dst = sctp_addr_v4(local_ip);
	if (sctp_packet_parse(&rx.pkt, pkt, len) == SCTP_PERR_OK) {
		struct sctp_tx tx = { out, sizeof(out), 0, { 0 }, { 0 } };
		struct sctp_cookie_state st;
		enum sctp_ep_drop drop;
		enum sctp_ootb_result r = sctp_endpoint_input(&ep, &rx, SCTP_S(1), &tx, &st, &drop);
		check((r == SCTP_OOTB_DISCARD) == (tx.len == 0));
		if (r == SCTP_OOTB_NEW_ASSOC)
			check(st.local_vtag == rx.pkt.vtag);
		if (tx.len != 0) {
			struct sctp_packet rp;
			struct sctp_chunk_iter it;
			struct sctp_chunk c;
			check(tx.len <= sizeof(out));
			check(sctp_packet_parse(&rp, out, tx.len) == SCTP_PERR_OK);
			sctp_chunk_iter_init(&it, &rp);
			while (sctp_chunk_iter_next(&it, &c)) {
				check(sctp_chunk_validate(&c) == SCTP_PERR_OK);
				if ((c.type == SCTP_CHUNK_ABORT ||
				     c.type == SCTP_CHUNK_SHUTDOWN_COMPLETE) &&
				    (c.flags & SCTP_FLAG_T))
					check(rp.vtag == rx.pkt.vtag);
			}
			check(it.err == SCTP_PERR_OK);
			if (len > 16 && pkt[12] == SCTP_CHUNK_INIT)
				check(rp.vtag == sctp_load_be32(pkt + 16));
		}
	}
	check(memcmp(copy, pkt, len) == 0);
	free(copy);
	return 0;
}
