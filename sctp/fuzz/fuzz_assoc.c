/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: packets into an association (sctp/assoc.c), with the
 * harness doing what a peer cannot guess, so that inputs reach every state:
 *
 *   byte 0      bit 7: a server association that negotiated RE-CONFIG (RFC
 *               6525), which then also asks for a stream reset and streams
 *               added, so its requests, the peer's answers and requests
 *               reach their handlers and the data block is taken anew;
 *               bit 6: a server association that negotiated I-DATA (RFC
 *               8260): its user data chunks are I-DATA both ways, so I-DATA
 *               and I-FORWARD TSN in the input reach their handlers and
 *               interleaved reassembly, and DATA is a protocol violation
 *               (a client association negotiates it when the input's INIT
 *               ACK lists it: the endpoint offers it);
 *               bit 5: our messages carry PR-SCTP policies (lifetime,
 *               retransmission limit, priority, by message), so FORWARD TSN
 *               is sent and the abandonment paths run (PR-SCTP is
 *               negotiated in every start, so a FORWARD TSN in the input
 *               reaches its handler);
 *               bits 0-2: the starting state — 0-3 a client association
 *               left in COOKIE-WAIT, 4-7 a server association ESTABLISHED
 *               from a genuine cookie (then, by bits 1-2: as is, after a
 *               user SHUTDOWN, or after a peer SHUTDOWN); bit 3: keep the
 *               input's own verification tags (otherwise each packet gets
 *               the tag the association expects, so the chunks are judged
 *               on their content and not only on the tag)
 *   then        up to 8 packets, each as a 2-byte length and the SCTP
 *               packet (common header first); between packets the clock
 *               moves by the next byte's value in milliseconds and expired
 *               timers fire.
 *
 * Properties beyond "no crash, no UB, no leak": the state stays a valid
 * state; the next wake-up is never in the past; every packet the
 * association sends walks cleanly and every chunk in it validates; the
 * input is never written.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sctp/assoc.h"
#include "sctp/chunk.h"
#include "sctp/endpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(int cond)
{
	if (!cond)
		abort();
}

static const uint8_t client_ip[4] = { 10, 0, 0, 1 }, server_ip[4] = { 10, 0, 0, 2 };
static struct sctp_endpoint ep;
static struct sctp_assoc_counters counters;
static struct sctp_assoc_stats stats;
static uint32_t rnd_state = 1;

static uint32_t
next_tag(void *ctx, const struct sctp_rx *rx)
{
	(void)ctx;
	(void)rx;
	return 0x7a6b5c4d;
}

static uint32_t
next_random(void *ctx)
{
	uint32_t *s = ctx;
	*s = *s * 1664525u + 1013904223u;
	return *s;
}

/* Every packet the association sends must be well-formed. */
static void
on_send(void *ctx, const uint8_t *bytes, size_t len, const struct sctp_addr *src,
	const struct sctp_addr *dst)
{
	struct sctp_packet p;
	struct sctp_chunk_iter it;
	struct sctp_chunk c;

	(void)ctx;
	(void)src;
	(void)dst;
	check(len <= SCTP_ASSOC_TX_MAX);
	check(sctp_packet_parse(&p, bytes, len) == SCTP_PERR_OK);
	sctp_chunk_iter_init(&it, &p);
	while (sctp_chunk_iter_next(&it, &c))
		check(sctp_chunk_validate(&c) == SCTP_PERR_OK);
	check(it.err == SCTP_PERR_OK);
}

static void
on_notify(void *ctx, const struct sctp_notification *n)
{
	(void)ctx;
	(void)n;
}

/* One association at a time: one handshake scratch, lent and given back. */
static struct sctp_assoc_handshake hs_store;
static bool hs_lent;

static struct sctp_assoc_handshake *
on_hs_get(void *ctx)
{
	(void)ctx;
	if (hs_lent)
		return NULL;
	hs_lent = true;
	return &hs_store;
}

static void
on_hs_put(void *ctx, struct sctp_assoc_handshake *hs)
{
	(void)ctx;
	check(hs_lent && hs == &hs_store);
	hs_lent = false;
}

/* Room for the peer's further addresses: one block, lent and given back. */
static struct sctp_path paths_store[SCTP_MAX_PATHS - 1];
static bool paths_lent;

static struct sctp_path *
on_paths_get(void *ctx, unsigned want, unsigned *got)
{
	(void)ctx;
	(void)want;
	if (paths_lent)
		return NULL;
	paths_lent = true;
	*got = SCTP_MAX_PATHS - 1;
	return paths_store;
}

static void
on_paths_put(void *ctx, struct sctp_path *block)
{
	(void)ctx;
	check(paths_lent && block == paths_store);
	paths_lent = false;
}

/* Delivered messages: every slice is walked (ASan checks it is readable). */
static void
on_deliver(void *ctx, const struct sctp_reasm_msg *m)
{
	struct sctp_reasm_iter it;
	struct sctp_slice sl;
	uint32_t total = 0;
	volatile uint8_t sink = 0;

	(void)ctx;
	sctp_reasm_iter_init(&it, m);
	while (sctp_reasm_iter_next(&it, &sl)) {
		for (uint32_t i = 0; i < sl.len; i++)
			sink ^= sl.data[i];
		total += sl.len;
	}
	check(total == m->len);
	(void)sink;
}

/* The data path's storage: one association at a time, at most 65535 streams. */
/* Receive side (stream state, 12 bytes with I-DATA; TSN map, dups), then the send side (struct
 * sctp_assoc_tx, 16 bytes per outbound stream). */
/* Two blocks: while one is lent, the other lets the association grow (RFC 6525 §5.2.5). */
static uint64_t data_store[2][(65536u * 12u + 64u * 8u + 64u * 4u + 1024u + 65536u * 16u) / 8u];
static bool data_lent[2];

static void *
on_data_get(void *ctx, size_t bytes)
{
	(void)ctx;
	for (unsigned i = 0; i < 2; i++) {
		if (!data_lent[i] && bytes <= sizeof(data_store[i])) {
			data_lent[i] = true;
			return data_store[i];
		}
	}
	return NULL;
}

static void
on_data_put(void *ctx, void *mem)
{
	(void)ctx;
	unsigned i = mem == data_store[1];
	check(data_lent[i] && mem == data_store[i]);
	data_lent[i] = false;
}

static const struct sctp_assoc_ops ops = {
	.send = on_send,
	.notify = on_notify,
	.hs_get = on_hs_get,
	.hs_put = on_hs_put,
	.paths_get = on_paths_get,
	.paths_put = on_paths_put,
	.deliver = on_deliver,
	.data_get = on_data_get,
	.data_put = on_data_put,
};

/*
 * The receive path: a small reassembly pool and caps, so that inputs reach
 * NO_ROOM and partial delivery. Payload handles are NULL (the fuzzer's
 * bytes), so nothing is held.
 */
static struct sctp_reasm_node reasm_nodes[64];
static struct sctp_reasm_pool reasm_pool;
static union sctp_ireasm_node ireasm_nodes[64];
static struct sctp_ireasm_pool ireasm_pool;

/*
 * The send side: small pools, so that SACKs meet full and empty queues.
 * Messages live in one static buffer whose holds are counted: every hold
 * must be released once the association is closed.
 */
static int msg_holds;
static uint8_t msg_bytes[4000];

static void
msg_hold(void *ctx, void *h)
{
	(void)ctx;
	check(h == msg_bytes);
	msg_holds++;
}

static void
msg_release(void *ctx, void *h)
{
	(void)ctx;
	if (h != msg_bytes)
		return; /* a received payload: the fuzzer's bytes, NULL handles */
	check(msg_holds > 0);
	msg_holds--;
}

static struct sctp_outq_msg outq_nodes[16];
static struct sctp_outq_pool outq_pool;
static struct sctp_outq_pr outq_pr[16];
static struct sctp_rtxq_node rtxq_nodes[32];
static struct sctp_rtxq_pr_slot rtxq_pr[32];
static struct sctp_rtxq_pool rtxq_pool;
static const struct sctp_buf_ops msg_ops = { .hold = msg_hold, .release = msg_release };

static struct sctp_data_config data_cfg = {
	.buf = { .hold = msg_hold, .release = msg_release },
	.outq_pool = &outq_pool,
	.rtxq_pool = &rtxq_pool,
	.outq_max_bytes = 16000,
	.outq_max_msgs = 16,
	.rtxq_max_chunks = 24,
	.reasm_pool = &reasm_pool,
	.ireasm_pool = &ireasm_pool,
	.reasm = { .max_bytes = 4096, .pd_point = 1024, .max_chunks = 32 },
	.tsn_map_words = 64,
	.max_dups = 64,
	.max_gap_blocks = 16,
};

static void
endpoint_once(void)
{
	static int ready;
	if (ready)
		return;
	struct sctp_endpoint_config cfg = {
		.port = 5001,
		.profile = &sctp_profile_dc,
		.a_rwnd = 65536,
		.listening = true,
		.choose_tag = next_tag,
		.random32 = next_random,
		.ctx = &rnd_state,
		.data = &data_cfg,
		.extensions = SCTP_COOKIE_EXT_FORWARD_TSN | SCTP_COOKIE_EXT_I_DATA |
			      SCTP_COOKIE_EXT_RECONFIG,
	};
	static const uint8_t key[SCTP_COOKIE_KEY_LEN] = { 4, 5, 6 };
	check(sctp_reasm_pool_init(&reasm_pool, reasm_nodes, 64) == 0);
	check(sctp_ireasm_pool_init(&ireasm_pool, ireasm_nodes, 64) == 0);
	check(sctp_outq_pool_init(&outq_pool, outq_nodes, 16, &msg_ops) == 0);
	check(sctp_rtxq_pool_init(&rtxq_pool, rtxq_nodes, 32) == 0);
	check(sctp_outq_pool_attach_pr(&outq_pool, outq_pr, 16) == 0);
	check(sctp_rtxq_pool_attach_pr(&rtxq_pool, rtxq_pr, 32) == 0);
	check(sctp_endpoint_init(&ep, &cfg, key, 0) == 0);
	ready = 1;
}

/* An association in the state byte 0 asks for. */
static void
start(struct sctp_assoc *a, uint8_t how, uint64_t now)
{
	struct sctp_addr c = sctp_addr_v4(client_ip), s = sctp_addr_v4(server_ip);

	sctp_assoc_init(a, &ops, NULL, &counters, &stats);
	if ((how & 4) == 0) {
		check(sctp_assoc_connect(a, &ep, &c, &s, 5001, 40000, now) == 0);
		return;
	}
	struct sctp_cookie_state st = { 0 };
	st.local_vtag = 0x7a6b5c4d;
	st.peer_vtag = 0x01020304;
	st.local_initial_tsn = 100;
	st.peer_initial_tsn = 200;
	st.peer_a_rwnd = 65536;
	st.outbound_streams = st.inbound_streams = 4;
	st.local_port = 5001;
	st.peer_port = 40000;
	st.peer_src = c;
	st.local_addr = s;
	st.created_ns = now;
	st.lifespan_ns = SCTP_S(10);
	st.extensions = SCTP_COOKIE_EXT_FORWARD_TSN | ((how & 64) ? SCTP_COOKIE_EXT_I_DATA : 0u) |
			((how & 128) ? SCTP_COOKIE_EXT_RECONFIG : 0u);
	check(sctp_assoc_from_cookie(a, &ep, &st, now) == 0);
	if (how & 128) {
		/* Our requests outstanding, so that answers and timer expiries find them. */
		static const uint16_t sids[2] = { 1, 3 };
		int r = (how & 16) ? sctp_assoc_add_streams(a, 2, 3, now)
				   : sctp_assoc_reset_streams(a,
							      SCTP_STREAM_RESET_OUTGOING |
								      SCTP_STREAM_RESET_INCOMING,
							      sids, 2, now);
		check(r == 0);
	}
	if ((how & 3) == 1)
		sctp_assoc_shutdown(a, now);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t pkt[65536];
	struct sctp_assoc a;
	uint64_t now = SCTP_S(1);

	if (size < 1)
		return 0;
	endpoint_once();
	uint8_t *copy = malloc(size);
	check(copy != NULL);
	memcpy(copy, data, size);

	start(&a, data[0], now);
	bool keep_tags = (data[0] & 8) != 0;
	/* Data of ours outstanding, so that SACK, SHUTDOWN and T3-rtx find some. */
	for (unsigned m = 0; (data[0] & 16) != 0 && m < 6; m++) {
		msg_holds++; /* the caller's reference, passed on success */
		struct sctp_slice sl = { msg_bytes, msg_bytes, 1u + m * 700u };
		uint8_t policy = (data[0] & 32) ? (uint8_t)(1u + m % 3u) : SCTP_PR_NONE;
		uint32_t value = policy == SCTP_PR_TTL ? 1u + m : m % 3u;
		if (sctp_assoc_send_pr(&a, (uint16_t)(m & 3), m, m & 1 ? SCTP_SEND_UNORDERED : 0,
				       &sl, policy, value, now) != 0)
			msg_holds--;
	}
	size_t off = 1;
	for (int n = 0; n < 8 && off + 2 <= size; n++) {
		size_t len = (size_t)data[off] << 8 | data[off + 1];
		off += 2;
		if (len > size - off)
			len = size - off;
		memcpy(pkt, data + off, len);
		off += len;
		if (len >= SCTP_COMMON_HDR_LEN && !keep_tags) {
			sctp_store_be16(pkt, 40000);
			sctp_store_be16(pkt + 2, 5001);
			if (pkt[12] != SCTP_CHUNK_INIT)
				sctp_store_be32(pkt + 4, a.local_vtag);
		}
		struct sctp_rx rx = { 0 };
		rx.src = sctp_addr_v4(client_ip);
		rx.dst = sctp_addr_v4(server_ip);
		if (sctp_packet_parse(&rx.pkt, pkt, len) == SCTP_PERR_OK)
			sctp_assoc_input(&a, &rx, now);
		check(a.state < SCTP_ASSOC_STATE_COUNT);
		/* Let time pass and timers fire, as the data plane would. */
		if (off < size)
			now += SCTP_MS(data[off++]);
		uint64_t wake = sctp_assoc_next_wakeup(&a);
		if (wake <= now)
			sctp_assoc_timeout(&a, now);
		wake = sctp_assoc_next_wakeup(&a);
		check(wake == SCTP_TIME_NEVER || wake > now);
	}
	/* The caller's side of the contract: end it, then all lent storage is back. */
	if (a.state != SCTP_ASSOC_CLOSED)
		check(sctp_assoc_abort(&a, now, NULL, 0) == 0);
	check(!hs_lent && !paths_lent && !data_lent[0] && !data_lent[1]);
	check(reasm_pool.n_free == reasm_pool.n && ireasm_pool.n_free == ireasm_pool.n);
	check(outq_pool.n_free == outq_pool.n && rtxq_pool.n_free == rtxq_pool.n);
	check(msg_holds == 0);
	check(memcmp(copy, data, size) == 0);
	free(copy);
	return 0;
}
