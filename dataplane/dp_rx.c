/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One received frame, from the queue or from another worker's hand-off:
 *
 *   L3 (drivers/net/l3.c): ARP, ND, ICMP echo answered; ICMP errors
 *   counted; SCTP over IP or over UDP (RFC 6951) located in the frame.
 *   Load: while the frames came in a full burst (the queue is backed up),
 *   an INIT beyond --busy-init-rate is dropped before anything else is
 *   spent on it (dp_rx_init_shed()).
 *   CRC32c (RFC 9260 §6.8): the NIC's verdict when it gives one, else
 *   drivers/crc32c over the packet (never written).
 *   Owner: the worker our verification tag names (dataplane/vtag.c); a
 *   frame for another worker goes to that worker's hand-off ring (MP/SC
 *   rte_ring, the mbuf pointer only) and is classified again there.
 *   Association: (our tag, ports) in the worker's rte_hash; INIT (tag 0)
 *   and packets whose T bit reflects the peer's tag by (peer address,
 *   ports); otherwise the endpoint of the destination port (or the closed
 *   endpoint) answers as §8.4 says, and a valid COOKIE ECHO creates the
 *   association on this worker — the one its tag named.
 *
 * What the receive side sends (an endpoint's answer, an L3 reply, packets
 * a neighbour's answer releases, and whatever the core sends from inside
 * its input through its output callbacks) goes into the worker's tx batch
 * (dp_tx.h); the worker loop flushes it. Nothing here calls back into the
 * loop.
 *
 * The frame's mbuf is released here; the core took its own references to
 * payload slices it keeps (sctp/buf.h), so the packet lives on in the
 * reassembly queue or in the application's hands without a copy.
 *
 * A multi-segment frame (net_ring loopback passes our own tx chains
 * through) is copied into one mbuf first: the core parses contiguous
 * bytes. NICs deliver one segment per frame up to the 2 KB data room, so
 * this is counted (rx_linearized) and absent on real ports at MTU 1500.
 */
#include <errno.h>
#include <stdalign.h>
#include <string.h>

#include <rte_mbuf.h>

#include "dataplane/dp_conn.h"
#include "dataplane/dp_rx.h"
#include "dataplane/dp_stage.h"
#include "dataplane/dp_tx.h"
#include "drivers/crc32c/crc32c_mbuf.h"
#include "sctp/packet.h"
#include "sctp/wire.h"

static struct rte_mbuf *
dp_rx_linearize(struct dp_worker *w, struct rte_mbuf *m)
{
	struct rte_mbuf *n = rte_pktmbuf_alloc(w->d->ports[0].pool);
	if (n == NULL || m->pkt_len > rte_pktmbuf_tailroom(n)) {
		rte_pktmbuf_free(n);
		rte_pktmbuf_free(m);
		w->ctr.rx_no_mbuf++;
		return NULL;
	}
	char *dst = rte_pktmbuf_append(n, (uint16_t)m->pkt_len);
	const void *src = rte_pktmbuf_read(m, 0, m->pkt_len, dst);
	if (src != NULL && src != dst)
		memcpy(dst, src, m->pkt_len);
	n->ol_flags = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;
	n->port = m->port;
	rte_pktmbuf_free(m);
	w->ctr.rx_linearized++;
	return n;
}

/* No association took the packet: the endpoint answers (§8.4) or accepts a cookie. */
static void
dp_rx_ootb(struct dp_worker *w, struct rte_mbuf *m, const struct sctp_rx *rx,
	   const struct dpsctp_l3_sctp_in *in)
{
	alignas(8) uint8_t out[SCTP_ASSOC_TX_MAX];
	struct sctp_tx tx = { out, sizeof(out), 0, { 0 }, { 0 } };
	struct sctp_cookie_state st;
	enum sctp_ep_drop drop;
	unsigned slot = 0;
	const struct dp_listener *l = dp_listener_find(w->d, rx->pkt.dst_port, &slot);
	struct sctp_endpoint *ep = l != NULL ? &w->ep[slot] : &w->closed_ep;
	uint16_t udp_port = in->udp_encap ? in->udp_src_port : 0;

	(void)m;
	w->ctr.ootb++;
	enum sctp_ootb_result r = sctp_endpoint_input(ep, rx, w->now_ns, &tx, &st, &drop);
	if (r == SCTP_OOTB_REPLY) {
		if (tx.len != 0)
			dp_tx_bytes(w, udp_port, out, tx.len, &tx.src, &tx.dst);
		return;
	}
	if (r != SCTP_OOTB_NEW_ASSOC)
		return; /* counted by the endpoint under drop */

	struct dpsctp_assoc *c =
		dp_conn_alloc(w, l != NULL ? l->cb : NULL, l != NULL ? l->arg : NULL);
	if (c == NULL) {
		/* No block (--max-assocs): the peer hears ABORT, Out of Resource,
		 * instead of retransmitting its COOKIE ECHO into silence. */
		w->ctr.drop_no_conn_memory++;
		if (sctp_endpoint_refuse_cookie(ep, rx, &st, &tx) == SCTP_OOTB_REPLY)
			dp_tx_bytes(w, udp_port, out, tx.len, &tx.src, &tx.dst);
		return;
	}
	c->udp_port = udp_port;
	/* The COOKIE ACK leaves first: whatever COMM_UP's callback sends follows it. */
	if (tx.len != 0)
		dp_tx_bytes(w, udp_port, out, tx.len, &tx.src, &tx.dst);
	/* The association refers to the closed endpoint (dp_types.h, struct dp_listener). */
	if (sctp_assoc_from_cookie(&c->a, &w->closed_ep, &st, w->now_ns) != 0) {
		dp_conn_after(c);
		return;
	}
	if (l == NULL) {
		/* Its port stopped listening after the INIT ACK (dpsctp_unlisten()):
		 * nobody would take it. The peer hears ABORT. */
		w->ctr.cookie_unlistened++;
		(void)sctp_assoc_abort(&c->a, w->now_ns, NULL, 0);
		dp_conn_after(c);
		return;
	}
	int rc = dp_conn_index_tag(c);
	if (rc == 0)
		rc = dp_conn_index_peer(c);
	if (rc != 0) {
		if (rc == -EADDRINUSE)
			w->ctr.peer_addr_taken++;
		else
			w->ctr.drop_table_full++;
		(void)sctp_assoc_abort(&c->a, w->now_ns, NULL, 0);
		dp_conn_after(c);
		return;
	}
	sctp_assoc_input_after_cookie(&c->a, rx, w->now_ns);
	dp_conn_after(c);
}

/*
 * Upper-layer confirmation of a neighbour (dpsctp_l3_confirm()): a packet of
 * an association passed its verification-tag check. Packets the entry held
 * while resolving again leave now.
 */
#define DP_NBR_CONFIRM_NS 100000000ull /* 100 ms: far below reachable_ns */
static void
dp_rx_confirm(struct dp_worker *w, struct rte_mbuf *m, const struct sctp_addr *src)
{
	struct dpsctp_l3_tx released[DPSCTP_L3_PARK_MAX];
	const uint8_t *src_mac = rte_pktmbuf_mtod(m, const uint8_t *) + 6;
	unsigned n = dpsctp_l3_confirm(w->l3[m->port], src, src_mac, w->now_ns, released);
	if (n != 0)
		dp_tx_l3_released(w, m->port, released, n);
}

static bool
dp_rx_reflected(const struct sctp_packet *pkt)
{
	/* ABORT and SHUTDOWN COMPLETE may carry the peer's own tag (T bit, §8.5.1 B, C). */
	if (pkt->len < 16)
		return false;
	uint8_t type = pkt->buf[12], flags = pkt->buf[13];
	return (type == SCTP_CHUNK_ABORT || type == SCTP_CHUNK_SHUTDOWN_COMPLETE) &&
	       (flags & SCTP_FLAG_T) != 0;
}

/* At most this many INITs at once above --busy-init-rate's pace (GCRA tolerance). */
#define DP_BUSY_INIT_BURST 8u

/*
 * An INIT while the queue is backed up, beyond --busy-init-rate: dropped
 * unread. An INIT costs about 1,300 cycles (the cookie's HMAC, the INIT
 * ACK, a neighbour resolution: docs/SECURITY.md); one that looks like an
 * INIT (tag 0, first chunk INIT) and is dropped here costs a few loads, not
 * even its CRC32c, so a flood faster than the worker can answer takes what
 * the worker has left over, not what established associations need. A
 * dropped INIT is one lost packet to its sender, which sends it again
 * (T1-init). While the queue keeps up, every INIT is answered.
 */
static bool
dp_rx_init_shed(struct dp_worker *w, const uint8_t *bytes, uint32_t len)
{
	if (len < SCTP_COMMON_HDR_LEN + SCTP_CHUNK_HDR_LEN ||
	    bytes[SCTP_COMMON_HDR_LEN] != SCTP_CHUNK_INIT ||
	    (bytes[4] | bytes[5] | bytes[6] | bytes[7]) != 0)
		return false;
	uint64_t gap = w->busy_init_gap_ns;
	if (gap == 0)
		return false;
	uint64_t due = w->busy_init_ns > w->now_ns ? w->busy_init_ns : w->now_ns;
	if (due - w->now_ns > DP_BUSY_INIT_BURST * gap)
		return true;
	w->busy_init_ns = due + gap;
	return false;
}

/* Whether --busy-init-rate rations INITs now: a rate, and associations with traffic. */
static bool
dp_rx_init_rationed(const struct dp_worker *w)
{
	return w->busy_init_gap_ns != 0 && w->now_ns < w->assoc_traffic_until;
}

unsigned
dp_rx_init_budget(const struct dp_worker *w, unsigned max)
{
	if (!dp_rx_init_rationed(w))
		return max;
	/* GCRA as dp_rx_init_shed(): the k-th frame conforms while its due
	 * time is within DP_BUSY_INIT_BURST intervals of now. */
	uint64_t gap = w->busy_init_gap_ns;
	uint64_t due = w->busy_init_ns > w->now_ns ? w->busy_init_ns : w->now_ns;
	uint64_t limit = w->now_ns + DP_BUSY_INIT_BURST * gap;
	if (due > limit)
		return 0;
	uint64_t k = (limit - due) / gap + 1;
	return k < max ? (unsigned)k : max;
}

void
dp_rx_init_spend(struct dp_worker *w, unsigned n)
{
	if (n == 0 || !dp_rx_init_rationed(w))
		return;
	uint64_t due = w->busy_init_ns > w->now_ns ? w->busy_init_ns : w->now_ns;
	w->busy_init_ns = due + (uint64_t)n * w->busy_init_gap_ns;
}

static void
dp_rx_sctp(struct dp_worker *w, struct rte_mbuf *m, const struct dpsctp_l3_sctp_in *in, bool handed)
{
	struct dpsctp *d = w->d;
	uint8_t *bytes = rte_pktmbuf_mtod_offset(m, uint8_t *, in->offset);
	unsigned st; /* the stage interrupted (dp_stage.h) */

	w->ctr.rx_sctp++;
	if (unlikely(w->rx_busy) && dp_rx_init_shed(w, bytes, in->len)) {
		w->ctr.drop_init_busy++;
		goto done;
	}
	uint64_t ck = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;
	if (!in->udp_encap && ck == RTE_MBUF_F_RX_L4_CKSUM_GOOD) {
		w->ctr.rx_crc_offload++;
	} else if (!in->udp_encap && ck == RTE_MBUF_F_RX_L4_CKSUM_BAD) {
		w->ctr.rx_crc_offload++;
		w->ctr.drop_bad_crc++;
		goto done;
	} else {
		w->ctr.rx_crc_software++;
		st = dp_stage_enter(w, DP_STAGE_CRC);
		bool good = crc32c_sctp_verify(bytes, in->len) == CRC32C_VERDICT_OK;
		dp_stage_leave(w, st);
		if (!good) {
			w->ctr.drop_bad_crc++;
			goto done;
		}
	}

	struct sctp_rx rx;
	memset(&rx, 0, sizeof(rx));
	st = dp_stage_enter(w, DP_STAGE_PARSE);
	enum sctp_parse_err perr = sctp_packet_parse(&rx.pkt, bytes, in->len);
	dp_stage_leave(w, st);
	if (perr != SCTP_PERR_OK) {
		w->ctr.drop_malformed++;
		goto done;
	}
	rx.src = in->src;
	rx.dst = in->dst;
	rx.handle = m;

	st = dp_stage_enter(w, DP_STAGE_LOOKUP);
	bool reflected = dp_rx_reflected(&rx.pkt);
	if (!handed && rx.pkt.vtag != 0 && !reflected && d->n_workers > 1) {
		int owner = dpsctp_vtag_owner(&d->vtag, rx.pkt.vtag);
		if (owner < 0 || (unsigned)owner >= d->n_workers) {
			w->ctr.drop_tag_no_owner++;
			dp_stage_leave(w, st);
			goto done;
		}
		if ((unsigned)owner != w->index) {
			int full = rte_ring_mp_enqueue(d->w[owner]->handoff, m);
			dp_stage_leave(w, st);
			if (full != 0) {
				w->ctr.rx_handoff_full++;
				goto done;
			}
			w->ctr.rx_handoff_out++;
			return;
		}
		w->ctr.rx_on_owner++;
	}

	struct dpsctp_assoc *c = NULL;
	if (rx.pkt.vtag != 0 && !reflected)
		c = dp_conn_by_tag(w, rx.pkt.vtag, rx.pkt.dst_port, rx.pkt.src_port);
	bool by_tag = c != NULL;
	if (c == NULL)
		c = dp_conn_by_peer(w, &rx.src, rx.pkt.dst_port, rx.pkt.src_port);
	dp_stage_leave(w, st);
	if (c != NULL) {
		if (in->udp_encap)
			c->udp_port = in->udp_src_port; /* RFC 6951 §5.4: follow the peer's port */
		/* Found by our tag, from one of the peer's addresses, no chunk
		 * failing the tag rule (§8.5): confirmation of the next hop the
		 * frame came from. Once per DP_NBR_CONFIRM_NS and path, not per
		 * packet: the guard it sets lasts reachable_ns (30 s). */
		int path = by_tag && c->a.state != SCTP_ASSOC_CLOSED
				   ? sctp_paths_find(&c->a.paths, &rx.src)
				   : -1;
		bool confirm = path >= 0 && ((unsigned)path != c->nbr_confirmed_path ||
					     w->now_ns - c->nbr_confirmed_ns >= DP_NBR_CONFIRM_NS);
		uint64_t bad_tag = w->assoc_ctr.drops[SCTP_ASSOC_DROP_BAD_VTAG];
		st = dp_stage_enter(w, DP_STAGE_CORE);
		sctp_assoc_input(&c->a, &rx, w->now_ns);
		dp_stage_leave(w, st);
		if (confirm && w->assoc_ctr.drops[SCTP_ASSOC_DROP_BAD_VTAG] == bad_tag) {
			dp_rx_confirm(w, m, &in->src);
			c->nbr_confirmed_path = (uint8_t)path;
			c->nbr_confirmed_ns = w->now_ns;
		}
		dp_conn_after(c);
	} else {
		w->tag_spread = w->rx_init_q && d->n_workers > 1;
		st = dp_stage_enter(w, DP_STAGE_CORE);
		dp_rx_ootb(w, m, &rx, in);
		dp_stage_leave(w, st);
		w->tag_spread = false;
	}
done:
	/* Freed with the rest of the burst's (dp_rx_release_flush()): one
	 * bulk put into the pool instead of one per frame. */
	if (w->n_rx_done == DP_RX_DONE_MAX)
		dp_rx_release_flush(w);
	w->rx_done[w->n_rx_done++] = m;
}

void
dp_rx_release_flush(struct dp_worker *w)
{
	if (w->n_rx_done == 0)
		return;
	unsigned st = dp_stage_enter(w, DP_STAGE_RX_FREE);
	rte_pktmbuf_free_bulk(w->rx_done, w->n_rx_done);
	w->n_rx_done = 0;
	dp_stage_leave(w, st);
}

/*
 * An ICMP error quoting one of our packets (RFC 9260 appendix C): the
 * association is found by the quoted (peer address, ports) on this worker
 * and decides (sctp_assoc_icmp(): tag check, protocol unreachable as ABORT;
 * the path is the quoted address's). Every address of the peer is in the
 * table (dp_conn_pin_paths()) unless another association has it or the
 * table is full; an error about such an address, or one that reached
 * another worker's queue, is counted in icmp_no_assoc.
 */
static void
dp_rx_icmp(struct dp_worker *w, struct rte_mbuf *m, const struct dpsctp_l3_icmp_in *ic)
{
	static const uint8_t kinds[] = {
		[DPSCTP_L3_ICMP_FRAG_NEEDED] = SCTP_ICMP_FRAG_NEEDED,
		[DPSCTP_L3_ICMP_PROTO_UNREACH] = SCTP_ICMP_PROTO_UNREACH,
		[DPSCTP_L3_ICMP_PORT_UNREACH] = SCTP_ICMP_PORT_UNREACH,
		[DPSCTP_L3_ICMP_UNREACH] = SCTP_ICMP_UNREACH,
	};
	w->ctr.icmp_errors++;
	struct sctp_addr peer = ic->peer;
	struct dpsctp_assoc *c = dp_conn_by_peer(w, &peer, ic->local_port, ic->peer_port);
	if (c == NULL || (unsigned)ic->kind >= sizeof(kinds)) {
		w->ctr.icmp_no_assoc++;
		return;
	}
	struct sctp_icmp e;
	memset(&e, 0, sizeof(e));
	e.kind = kinds[ic->kind];
	e.udp_encap = ic->udp_encap;
	e.mtu = ic->mtu;
	e.vtag = ic->vtag;
	e.quote = rte_pktmbuf_mtod_offset(m, const uint8_t *, ic->quote_offset);
	e.quote_len = ic->quote_len;
	e.peer = peer;
	(void)sctp_assoc_icmp(&c->a, &e, w->now_ns);
	dp_conn_after(c);
}

/*
 * A datagram the L3 layer put together from IP fragments (drivers/net/l3.h,
 * DPSCTP_L3_IN_REASSEMBLED): into an mbuf of its own, then taken as any
 * frame (it is no fragment, so this recurses once). Longer than one mbuf
 * holds: rx_no_mbuf, as dp_rx_linearize().
 */
static void
dp_rx_reassembled(struct dp_worker *w, unsigned port, const struct dpsctp_l3_in *in, bool handed)
{
	struct rte_mbuf *n = rte_pktmbuf_alloc(w->d->ports[0].pool);
	char *p = n != NULL && in->reasm_len <= rte_pktmbuf_tailroom(n)
			  ? rte_pktmbuf_append(n, (uint16_t)in->reasm_len)
			  : NULL;
	if (p == NULL) {
		rte_pktmbuf_free(n);
		w->ctr.rx_no_mbuf++;
		return;
	}
	memcpy(p, in->reasm, in->reasm_len);
	n->port = (uint16_t)port;
	dp_rx_frame(w, n, handed);
}

void
dp_rx_frame(struct dp_worker *w, struct rte_mbuf *m, bool handed)
{
	uint8_t reply[1600];
	struct dpsctp_l3_in in;

	if (m->nb_segs > 1) {
		unsigned cp = dp_stage_enter(w, DP_STAGE_RX_COPY);
		m = dp_rx_linearize(w, m);
		dp_stage_leave(w, cp);
		if (m == NULL)
			return;
	}
	/* The port it came in by (dp_worker_poll() set m->port): that port's L3 answers it. */
	unsigned port = m->port < w->d->n_ports ? m->port : 0u;
	m->port = (uint16_t)port;
	unsigned st = dp_stage_enter(w, DP_STAGE_L3);
	enum dpsctp_l3_verdict v =
		dpsctp_l3_input(w->l3[port], rte_pktmbuf_mtod(m, const uint8_t *), m->data_len,
				w->now_ns, reply, sizeof(reply), &in);
	dp_stage_leave(w, st);
	if (in.released_count != 0)
		dp_tx_l3_released(w, port, in.released, in.released_count);
	switch (v) {
	case DPSCTP_L3_IN_SCTP:
		dp_rx_sctp(w, m, &in.sctp, handed);
		return;
	case DPSCTP_L3_IN_REPLY:
		dp_tx_raw(w, port, reply, in.reply_len);
		break;
	case DPSCTP_L3_IN_ICMP_ERROR:
		dp_rx_icmp(w, m, &in.icmp);
		break;
	case DPSCTP_L3_IN_REASSEMBLED:
		dp_rx_reassembled(w, port, &in, handed);
		break;
	case DPSCTP_L3_IN_DROP:
	case DPSCTP_L3_IN_CONSUMED:
		break;
	}
	rte_pktmbuf_free(m);
}
