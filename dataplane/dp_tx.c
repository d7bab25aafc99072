/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transmit side: the core's packets onto mbufs, into the worker's tx
 * batch, and the batch to the port (through the --impair stage when one is
 * set). The worker loop flushes the batch once per iteration; a batch that
 * fills up is flushed here, as DPDK's l3fwd does.
 *
 * Control packets (ops->send, and the endpoint's replies) are a few dozen
 * bytes: copied into one mbuf. Packets with DATA (ops->send_data) are
 * built as a chain without copying payloads above the copy threshold
 * (--copy-max: copied into a bundle only below the crossover
 * bench_dp_copy measures, docs/PERFORMANCE.md):
 *
 *   [L2/L3 (+UDP) | common header | SACK | DATA hdr | small payloads ...]
 *       -> [indirect mbuf on the application's (or peer's) payload]
 *       -> [pad | next DATA hdr | ...] -> ...
 *
 * The indirect mbuf takes its own reference to the payload's mbuf
 * (rte_pktmbuf_attach; for a message flattened by dp_conn_send(), longer
 * than a 16-bit data_off reaches, the fragment is attached by address with
 * rte_pktmbuf_attach_extbuf), so the PMD frees it after transmission while
 * the core's reference keeps the payload for retransmission until the SACK.
 * Counters tx_payload_copied / tx_payload_zero_copy say which bytes went
 * which way. Over UDP (RFC 6951) the packet is built flat (the UDP checksum
 * is computed over contiguous bytes): encapsulation costs a copy.
 *
 * CRC32c: the NIC fills it when the port offers SCTP checksum offload and
 * the packet is not UDP-encapsulated; otherwise drivers/crc32c over the
 * chain before the L2/L3 headers are prepended in the headroom.
 *
 * Source fragmentation (struct dpsctp_l3_tx frag_mtu, docs/NET.md): a packet
 * the core lets IP fragment and that is longer than frag_mtu leaves as IP
 * fragments, each copied into an mbuf of its own behind the headers
 * dpsctp_l3_fragment() writes. Copied, not chained: it happens only to
 * DATA retransmitted after the path MTU fell (RFC 9260 §7.3), and a
 * fragment is at most one MTU. Checksums a NIC would fill are computed
 * first: it cannot fill them across fragments.
 */
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "dataplane/dp_buf.h"
#include "dataplane/dp_route.h"
#include "dataplane/dp_tx.h"
#include "dataplane/dp_stage.h"
#include "drivers/crc32c/crc32c_mbuf.h"
#include "sctp/byteorder.h"
#include "sctp/wire.h"

/*
 * The batch through the transmit impairment stage (--impair): what is due
 * now comes back into w->tx.
 */
static void
dp_tx_impair(struct dp_worker *w)
{
	unsigned n = w->n_tx;
	w->n_tx = 0;
	dp_impair_push(&w->impair_tx, w->tx, n, w->now_ns, &w->ctr.impair_dropped,
		       &w->ctr.tx_no_mbuf);
	w->n_tx = dp_impair_pop(&w->impair_tx, w->now_ns, w->tx, DP_TX_MAX);
}

/*
 * Hand the batch to the port. A PMD that takes fewer (ring full) gets a few
 * more tries in this call; what it still refuses is dropped and counted:
 * SCTP retransmits, and holding packets here would make the batch unbounded.
 */
static void
dp_tx_burst(struct dp_worker *w, unsigned port, struct rte_mbuf **pkts, unsigned n)
{
	unsigned done = 0;
	unsigned st = dp_stage_enter(w, DP_STAGE_TX_BURST);
	for (int tries = 0; done < n && tries < 8; tries++)
		done += rte_eth_tx_burst(w->d->ports[port].port_id, (uint16_t)w->index, pkts + done,
					 (uint16_t)(n - done));
	dp_stage_leave(w, st);
	w->ctr.tx_packets += done;
	w->port_tx[port] += done;
	if (done < n) {
		w->ctr.tx_full += n - done;
		rte_pktmbuf_free_bulk(pkts + done, n - done);
	}
}

void
dp_tx_flush(struct dp_worker *w)
{
	const struct dpsctp *d = w->d;
	if (w->impair_tx.on)
		dp_tx_impair(w);
	if (d->n_ports == 1) {
		dp_tx_burst(w, 0, w->tx, w->n_tx);
	} else {
		/* Each port's frames in batch order: a stable split by m->port. */
		struct rte_mbuf *one[DP_TX_MAX];
		for (unsigned p = 0; p < d->n_ports; p++) {
			unsigned k = 0;
			for (unsigned i = 0; i < w->n_tx; i++)
				if (w->tx[i]->port == p)
					one[k++] = w->tx[i];
			if (k != 0)
				dp_tx_burst(w, p, one, k);
		}
	}
	w->n_tx = 0;
}

void
dp_tx_frame(struct dp_worker *w, unsigned port, struct rte_mbuf *m)
{
	if (w->n_tx == DP_TX_MAX)
		dp_tx_flush(w);
	m->port = (uint16_t)port;
	w->tx[w->n_tx++] = m;
}

void
dp_tx_l3_release(void *ctx, uintptr_t handle)
{
	(void)ctx;
	rte_pktmbuf_free((struct rte_mbuf *)handle);
}

void
dp_tx_raw(struct dp_worker *w, unsigned port, const uint8_t *frame, uint32_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(w->d->ports[0].pool);
	char *p = m != NULL ? rte_pktmbuf_append(m, (uint16_t)len) : NULL;
	if (p == NULL) {
		rte_pktmbuf_free(m);
		w->ctr.tx_no_mbuf++;
		return;
	}
	memcpy(p, frame, len);
	dp_tx_frame(w, port, m);
}

/* The port's MTU (a PMD that reports none: 1500). */
static uint32_t
dp_tx_mtu(const struct dp_worker *w, unsigned port)
{
	return w->d->ports[port].mtu != 0 ? w->d->ports[port].mtu : 1500u;
}

/* The frame limit: the port's MTU plus the Ethernet header. */
static uint32_t
dp_tx_frame_max(const struct dp_worker *w, unsigned port, uint32_t l2_len)
{
	return dp_tx_mtu(w, port) + l2_len;
}

/*
 * RFC 768 checksum of the UDP datagram at [off, pkt_len) of m (its header in
 * the first segment), whose checksum field holds the folded pseudo-header
 * sum (the offload convention, DPSCTP_L3_UDP_CSUM_PSEUDO): summing the
 * datagram as it stands therefore sums the pseudo-header too. Over the
 * chain, an odd byte carried across segment boundaries.
 */
static void
dp_tx_udp_csum(struct rte_mbuf *m, uint32_t off)
{
	uint32_t sum = 0;
	uint8_t pair[2];
	bool odd = false;
	uint32_t pos = 0;
	for (const struct rte_mbuf *s = m; s != NULL; s = s->next) {
		const uint8_t *p = rte_pktmbuf_mtod(s, const uint8_t *);
		uint32_t n = s->data_len;
		uint32_t skip = pos >= off ? 0 : (off - pos < n ? off - pos : n);
		pos += n;
		p += skip;
		n -= skip;
		if (odd && n != 0) {
			pair[1] = p[0];
			sum = dpsctp_l3_csum_add(sum, pair, 2);
			p++;
			n--;
			odd = false;
		}
		sum = dpsctp_l3_csum_add(sum, p, n & ~1u);
		if ((n & 1u) != 0) {
			pair[0] = p[n - 1u];
			odd = true;
		}
	}
	if (odd)
		sum = dpsctp_l3_csum_add(sum, pair, 1);
	uint16_t c = dpsctp_l3_csum_fold(sum);
	/* RFC 768: a computed zero is sent as all ones. */
	sctp_store_be16(rte_pktmbuf_mtod_offset(m, uint8_t *, off + 6u), c == 0 ? 0xFFFFu : c);
}

/*
 * m (headers prepended) as out->frag_count IP fragments: each an mbuf of its
 * own with the fragment's headers and its slice of the IP payload. m is
 * freed; fragments built before a failure still go (the receiver's
 * reassembly times out), the rest counts tx_no_mbuf.
 */
static void
dp_tx_fragments(struct dp_worker *w, unsigned port, struct rte_mbuf *m, const uint8_t *hdr,
		const struct dpsctp_l3_out *out)
{
	uint32_t base = out->l2_len + out->l3_len;
	for (uint32_t off = 0; off < out->ip_payload; off += out->frag_size) {
		uint32_t len = out->ip_payload - off;
		if (len > out->frag_size)
			len = out->frag_size;
		uint8_t fh[DPSCTP_L3_FRAG_HDR_MAX];
		uint32_t flen = dpsctp_l3_fragment(w->l3[port], hdr, out, off, len, fh, sizeof(fh));
		if (flen == 0 || flen + len > dp_tx_frame_max(w, port, out->l2_len)) {
			w->ctr.tx_too_big++;
			break;
		}
		struct rte_mbuf *f = rte_pktmbuf_alloc(w->d->ports[0].pool);
		uint8_t *p = f != NULL && flen + len <= rte_pktmbuf_tailroom(f)
				     ? (uint8_t *)rte_pktmbuf_append(f, (uint16_t)(flen + len))
				     : NULL;
		if (p == NULL) {
			rte_pktmbuf_free(f);
			w->ctr.tx_no_mbuf++;
			break;
		}
		memcpy(p, fh, flen);
		const uint8_t *src = rte_pktmbuf_read(m, base + off, len, p + flen);
		if (src != p + flen)
			memcpy(p + flen, src, len);
		dp_tx_frame(w, port, f);
	}
	rte_pktmbuf_free(m);
}

/* L2/L3 headers for an SCTP packet already in m (checksum done or offloaded). */
static void
dp_tx_finish(struct dp_worker *w, unsigned port, struct rte_mbuf *m, const struct dpsctp_l3_tx *tx,
	     bool offload)
{
	uint8_t hdr[DPSCTP_L3_HDR_MAX], probe[DPSCTP_L3_PROBE_MAX];
	struct dpsctp_l3_out out;

	enum dpsctp_l3_tx_verdict v = dpsctp_l3_output(w->l3[port], tx, w->now_ns, hdr, sizeof(hdr),
						       probe, sizeof(probe), &out);
	if (out.probe_len != 0)
		dp_tx_raw(w, port, probe, out.probe_len);
	if (v == DPSCTP_L3_TX_PARKED)
		return; /* the layer holds m until the neighbour answers or it gives up */
	if (v != DPSCTP_L3_TX_READY) {
		w->ctr.tx_l3_drop++;
		rte_pktmbuf_free(m);
		return;
	}
	char *p = rte_pktmbuf_prepend(m, (uint16_t)out.hdr_len);
	if (p == NULL) {
		w->ctr.tx_no_mbuf++;
		rte_pktmbuf_free(m);
		return;
	}
	memcpy(p, hdr, out.hdr_len);
	if (out.frag_size != 0) {
		if (offload)
			(void)crc32c_mbuf_sctp_fill(m, out.hdr_len, m->pkt_len - out.hdr_len);
		if (out.udp_csum == DPSCTP_L3_UDP_CSUM_PSEUDO)
			dp_tx_udp_csum(m, out.l2_len + out.l3_len);
		dp_tx_fragments(w, port, m, hdr, &out);
		return;
	}
	/* The core sizes packets to the port's MTU (less the UDP header when
	 * encapsulating): a longer frame is a bug here, and a NIC or a veth would
	 * drop it without a word. */
	if (m->pkt_len > dp_tx_frame_max(w, port, out.l2_len)) {
		w->ctr.tx_too_big++;
		rte_pktmbuf_free(m);
		return;
	}
	if (offload) {
		m->l2_len = out.l2_len;
		m->l3_len = out.l3_len;
		m->ol_flags |= RTE_MBUF_F_TX_SCTP_CKSUM |
			       (tx->dst.family == 6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4);
	}
	dp_tx_frame(w, port, m);
}

void
dp_tx_l3_released(struct dp_worker *w, unsigned port, const struct dpsctp_l3_tx *released,
		  unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct rte_mbuf *m = (struct rte_mbuf *)released[i].handle;
		dp_tx_finish(w, port, m, &released[i],
			     (m->ol_flags & RTE_MBUF_F_TX_SCTP_CKSUM) != 0);
	}
}

/* The egress port's own decision (drivers/crc32c/crc32c_offload.h): ports may differ. */
static bool
dp_tx_offload(const struct dp_worker *w, unsigned port, uint16_t udp_port)
{
	return udp_port == 0 && w->d->ports[port].offloads.crc.tx == CRC32C_WHERE_NIC;
}

/*
 * With several ports or --route entries (d->routed): the packet's port and
 * next hop from the routing table (dp_route.h), and its source one of that
 * port's addresses (RFC 9260 §6.4): the core's when it is the port's, else
 * the port's address of the family sharing the longest prefix with dst
 * (counted tx_src_port). No route: the source's port (else port 0), whose
 * L3 drops it as tx_no_route. Returns the port; tx->src, tx->via set.
 */
static unsigned
dp_tx_route(struct dp_worker *w, struct dpsctp_l3_tx *tx)
{
	const struct dp_routes *r = &w->d->routes;
	struct dp_route_hop hop;
	if (dp_route_lookup(r, &tx->dst, &tx->src, &hop) != 0) {
		int p = dp_route_port_of(r, &tx->src);
		return p >= 0 ? (unsigned)p : 0u;
	}
	tx->via = hop.via;
	struct sctp_addr src;
	if (dp_route_src(r, hop.port, &tx->dst, &tx->src, &src) && !sctp_addr_eq(&src, &tx->src)) {
		tx->src = src;
		w->ctr.tx_src_port++;
	}
	return hop.port;
}

/*
 * Checksum (or its offload mark), then L2/L3: m holds the SCTP packet from
 * offset 0. frag_mtu: 0, DF set; else IP may fragment it to that size, never
 * beyond the port's MTU.
 */
static void
dp_tx_sctp(struct dp_worker *w, struct rte_mbuf *m, uint16_t udp_port, uint16_t frag_mtu,
	   const struct sctp_addr *src, const struct sctp_addr *dst)
{
	struct dpsctp_l3_tx tx;
	memset(&tx, 0, sizeof(tx));
	tx.src = *src;
	tx.dst = *dst;
	unsigned port = w->d->routed ? dp_tx_route(w, &tx) : 0u;
	bool offload = dp_tx_offload(w, port, udp_port);
	if (offload) {
		w->ctr.tx_crc_offload++;
		m->ol_flags |= RTE_MBUF_F_TX_SCTP_CKSUM; /* remembered while parked */
	} else {
		w->ctr.tx_crc_software++;
		(void)crc32c_mbuf_sctp_fill(m, 0, m->pkt_len);
	}
	tx.udp_dst_port = udp_port;
	uint16_t port_mtu = (uint16_t)dp_tx_mtu(w, port);
	tx.frag_mtu = frag_mtu < port_mtu ? frag_mtu : port_mtu;
	tx.sctp = m->nb_segs == 1 ? rte_pktmbuf_mtod(m, const uint8_t *) : NULL;
	tx.sctp_len = m->pkt_len;
	tx.handle = (uintptr_t)m;
	dp_tx_finish(w, port, m, &tx, offload);
}

/* An SCTP packet in bytes, copied into one mbuf. */
static void
dp_tx_copy(struct dp_worker *w, uint16_t udp_port, uint16_t frag_mtu, const uint8_t *bytes,
	   size_t len, const struct sctp_addr *src, const struct sctp_addr *dst)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(w->d->ports[0].pool);
	char *p = m != NULL && len <= rte_pktmbuf_tailroom(m) ? rte_pktmbuf_append(m, (uint16_t)len)
							      : NULL;
	if (p == NULL) {
		rte_pktmbuf_free(m);
		w->ctr.tx_no_mbuf++;
		return;
	}
	memcpy(p, bytes, len);
	dp_tx_sctp(w, m, udp_port, frag_mtu, src, dst);
}

void
dp_tx_bytes(struct dp_worker *w, uint16_t udp_port, const uint8_t *bytes, size_t len,
	    const struct sctp_addr *src, const struct sctp_addr *dst)
{
	dp_tx_copy(w, udp_port, 0, bytes, len, src, dst);
}

void
dp_tx_send(void *ctx, const uint8_t *bytes, size_t len, const struct sctp_addr *src,
	   const struct sctp_addr *dst)
{
	struct dpsctp_assoc *c = ctx;
	unsigned st = dp_stage_enter(c->w, DP_STAGE_TX_BUILD);
	/* An association's control packets: a HEARTBEAT or its ACK is alone in one. */
	if (len > SCTP_COMMON_HDR_LEN) {
		c->w->ctr.tx_heartbeats += bytes[SCTP_COMMON_HDR_LEN] == SCTP_CHUNK_HEARTBEAT;
		c->w->ctr.tx_heartbeat_acks +=
			bytes[SCTP_COMMON_HDR_LEN] == SCTP_CHUNK_HEARTBEAT_ACK;
	}
	dp_tx_copy(c->w, c->udp_port, sctp_assoc_frag_mtu(&c->a), bytes, len, src, dst);
	dp_stage_leave(c->w, st);
}

/* A chain under construction: bytes go to the tail's tailroom, new direct mbufs as needed. */
struct dp_chain {
	struct rte_mbuf *head, *tail;
	uint32_t len;
	uint16_t segs;
	bool failed;
};

static void
dp_chain_link(struct dp_chain *ch, struct rte_mbuf *m)
{
	ch->tail->next = m;
	ch->tail = m;
	ch->segs++;
}

static void
dp_chain_put(struct dp_worker *w, struct dp_chain *ch, const void *src, uint32_t n)
{
	const uint8_t *s = src;
	while (n != 0 && !ch->failed) {
		uint16_t room = rte_pktmbuf_tailroom(ch->tail);
		if (room == 0 || RTE_MBUF_HAS_EXTBUF(ch->tail) || RTE_MBUF_CLONED(ch->tail)) {
			struct rte_mbuf *m = rte_pktmbuf_alloc(w->d->ports[0].pool);
			if (m == NULL) {
				ch->failed = true;
				w->ctr.tx_no_mbuf++;
				return;
			}
			rte_pktmbuf_reset_headroom(m);
			m->data_off = 0;
			dp_chain_link(ch, m);
			continue;
		}
		uint32_t k = n < room ? n : room;
		uint8_t *d = rte_pktmbuf_mtod_offset(ch->tail, uint8_t *, ch->tail->data_len);
		if (s != NULL) {
			memcpy(d, s, k);
			s += k;
		} else {
			memset(d, 0, k);
		}
		ch->tail->data_len = (uint16_t)(ch->tail->data_len + k);
		ch->len += k;
		n -= k;
	}
}

static void
dp_chain_ref(struct dp_worker *w, struct dp_chain *ch, const struct sctp_slice *s)
{
	struct rte_mbuf *mi = rte_pktmbuf_alloc(w->d->indirect_pool);
	if (mi == NULL) {
		ch->failed = true;
		w->ctr.tx_no_mbuf++;
		return;
	}
	struct rte_mbuf *h = s->handle;
	if (dp_buf_is_flat(h)) {
		/* A flattened message may be longer than mbuf offsets (16 bits) reach:
		 * the fragment (one packet's worth) becomes an external buffer of its
		 * own, sharing the message's reference count and free callback. */
		size_t off = (size_t)(s->data - (const uint8_t *)h->buf_addr);
		rte_iova_t iova = rte_mbuf_iova_get(h);
		rte_mbuf_ext_refcnt_update(h->shinfo, 1);
		rte_pktmbuf_attach_extbuf(mi, (void *)(uintptr_t)s->data,
					  iova == RTE_BAD_IOVA ? RTE_BAD_IOVA : iova + off,
					  (uint16_t)s->len, h->shinfo);
	} else {
		rte_pktmbuf_attach(mi, h);
		mi->data_off = (uint16_t)(s->data - (const uint8_t *)mi->buf_addr);
	}
	mi->data_len = (uint16_t)s->len;
	dp_chain_link(ch, mi);
	ch->len += s->len;
}

void
dp_tx_send_data(void *ctx, const uint8_t *head, size_t head_len, const struct sctp_tx_seg *segs,
		unsigned n_segs, const struct sctp_addr *src, const struct sctp_addr *dst)
{
	static const uint8_t zeros[4];
	struct dpsctp_assoc *c = ctx;
	struct dp_worker *w = c->w;
	uint32_t copy_max = c->udp_port != 0 ? UINT32_MAX : w->d->set.copy_max;
	struct dp_chain ch = { 0 };
	unsigned st = dp_stage_enter(w, DP_STAGE_TX_BUILD);

	ch.head = ch.tail = rte_pktmbuf_alloc(w->d->ports[0].pool);
	if (ch.head == NULL) {
		w->ctr.tx_no_mbuf++;
		dp_stage_leave(w, st);
		return;
	}
	ch.segs = 1;
	dp_chain_put(w, &ch, head, (uint32_t)head_len);
	for (unsigned i = 0; i < n_segs && !ch.failed; i++) {
		const struct sctp_tx_seg *s = &segs[i];
		dp_chain_put(w, &ch, s->hdr, s->hdr_len);
		if (s->payload.len <= copy_max || s->payload.handle == NULL) {
			dp_chain_put(w, &ch, s->payload.data, s->payload.len);
			w->ctr.tx_payload_copied += s->payload.len;
		} else {
			dp_chain_ref(w, &ch, &s->payload);
			w->ctr.tx_payload_zero_copy += s->payload.len;
		}
		dp_chain_put(w, &ch, zeros, s->pad);
	}
	if (ch.failed) {
		rte_pktmbuf_free(ch.head);
		dp_stage_leave(w, st);
		return; /* counted; the chunks stay in the retransmission queue */
	}
	ch.head->nb_segs = ch.segs;
	ch.head->pkt_len = ch.len;
	dp_tx_sctp(w, ch.head, c->udp_port, sctp_assoc_frag_mtu(&c->a), src, dst);
	dp_stage_leave(w, st);
}
