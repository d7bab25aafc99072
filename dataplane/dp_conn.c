/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An association in the runtime: the core's callbacks (struct
 * sctp_assoc_ops) on the worker's mbufs and pools, its place in the
 * worker's two tables and timer wheel, and its way back to the
 * application's callbacks.
 *
 * Life: dp_conn_alloc() takes a block from the worker's pool (a COOKIE ECHO
 * accepted by dp_rx.c, or dpsctp_connect()); after every call into the core
 * dp_conn_after() re-arms the wheel at sctp_assoc_next_wakeup(), tells a
 * waiting application that send space opened, and frees the block once
 * the core says the association is freeable (CLOSED and reported) — after
 * the end event's callback has returned, which is the last time the
 * application sees the handle.
 *
 * Payload buffers are mbuf segments (dp_buf.h).
 */
#include <errno.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "dataplane/dp_buf.h"
#include "dataplane/dp_conn.h"
#include "dataplane/dp_stage.h"
#include "dataplane/dp_opt.h"
#include "dataplane/dp_public.h"
#include "dataplane/dp_tx.h"

/*
 * A message each way is counted twice, for the association
 * (dpsctp_assoc_get_stats()) and for its worker (DP_WORKER_COUNTERS): in
 * one place, so the two tallies cannot drift apart.
 */
static inline void
dp_conn_count_sent(struct dpsctp_assoc *c, uint32_t len)
{
	c->msgs_sent++;
	c->bytes_sent += len;
	c->w->ctr.msgs_sent++;
	c->w->ctr.bytes_sent += len;
}

static inline void
dp_conn_count_delivered(struct dpsctp_assoc *c, uint32_t len)
{
	c->msgs_recv++;
	c->bytes_recv += len;
	c->w->ctr.msgs_delivered++;
	c->w->ctr.bytes_delivered += len;
}

static struct sctp_assoc_handshake *
dp_hs_get(void *ctx)
{
	struct dpsctp_assoc *c = ctx;
	void *p;
	return rte_mempool_get(c->w->hs_pool, &p) == 0 ? p : NULL;
}

static void
dp_hs_put(void *ctx, struct sctp_assoc_handshake *hs)
{
	struct dpsctp_assoc *c = ctx;
	rte_mempool_put(c->w->hs_pool, hs);
}

static struct sctp_path *
dp_paths_get(void *ctx, unsigned want, unsigned *got)
{
	struct dpsctp_assoc *c = ctx;
	void *p;
	(void)want; /* one block size: DP_PATHS_PER_BLOCK covers SCTP_MAX_PATHS - 1 */
	/* None left (--multihomed), or none at all (--max-paths 1): the core
	 * keeps the one path and counts the addresses it leaves out. */
	if (c->w->paths_pool == NULL || rte_mempool_get(c->w->paths_pool, &p) != 0) {
		c->w->ctr.paths_no_block++;
		return NULL;
	}
	/* --max-paths in all (2..8: the block holds 7 more than the first). */
	*got = c->w->d->cfg.max_paths - 1u;
	return p;
}

static void
dp_paths_put(void *ctx, struct sctp_path *block)
{
	struct dpsctp_assoc *c = ctx;
	rte_mempool_put(c->w->paths_pool, block);
}

/*
 * A block larger than the pool's (more than DP_DATA_POOL_STREAMS streams a
 * way negotiated, or added by RE-CONFIG) from the heap, on the worker's
 * own lcore at ESTABLISHED (never for a peer's INIT alone: the core asks
 * once the cookie is back), within --stream-mem bytes per worker. Refused
 * (counted) past the budget or when the heap has no room: the core's
 * -ENOMEM, an ABORT with Out of Resource for a new association, "Denied"
 * for streams being added.
 */
static void *
dp_data_heap_get(struct dpsctp_assoc *c, size_t bytes)
{
	struct dp_worker *w = c->w;
	unsigned slot = c->heap_block[0] == NULL ? 0u : 1u;
	if (c->heap_block[slot] != NULL ||
	    w->data_heap_in_use + bytes > (uint64_t)w->d->cfg.stream_mem) {
		w->ctr.data_heap_refused++;
		return NULL;
	}
	void *p = rte_zmalloc("dp_data", bytes, RTE_CACHE_LINE_SIZE);
	if (p == NULL) {
		w->ctr.data_heap_refused++;
		return NULL;
	}
	c->heap_block[slot] = p;
	c->heap_bytes[slot] = bytes;
	w->data_heap_in_use += bytes;
	w->ctr.data_heap_blocks++;
	w->ctr.data_heap_bytes += bytes;
	return p;
}

static void *
dp_data_get(void *ctx, size_t bytes)
{
	struct dpsctp_assoc *c = ctx;
	void *p;
	/*
	 * The pool's blocks hold DP_DATA_POOL_STREAMS streams each way (at most
	 * --max-streams); the core refuses RFC 6525's added streams past
	 * --max-streams (struct sctp_profile's max_out_streams,
	 * max_in_streams), so any larger block is within it. An empty pool is
	 * the core's -ENOMEM, which it answers "Denied" (sctp/assoc_reconf.c).
	 */
	if (bytes > c->w->d->data_bytes)
		return dp_data_heap_get(c, bytes);
	if (rte_mempool_get(c->w->data_pool, &p) != 0) {
		c->w->ctr.data_block_empty++;
		return NULL;
	}
	memset(p, 0, bytes);
	return p;
}

static void
dp_data_put(void *ctx, void *mem)
{
	struct dpsctp_assoc *c = ctx;
	struct dp_worker *w = c->w;
	for (unsigned i = 0; i < 2; i++) {
		if (c->heap_block[i] == mem) {
			rte_free(mem);
			w->data_heap_in_use -= c->heap_bytes[i];
			w->ctr.data_heap_freed += c->heap_bytes[i];
			c->heap_block[i] = NULL;
			c->heap_bytes[i] = 0;
			return;
		}
	}
	rte_mempool_put(w->data_pool, mem);
}

static void
dp_notify(void *ctx, const struct sctp_notification *n)
{
	struct dpsctp_assoc *c = ctx;
	struct dpsctp_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = (enum dpsctp_event_type)n->type; /* same numbering, checked below */
	ev.error = n->error;
	ev.reason = dp_public_reason(n->reason);
	ev.outbound_streams = n->outbound_streams;
	ev.inbound_streams = n->inbound_streams;
	ev.addr_state = dp_public_addr_state(n->addr_state);
	if (n->type == SCTP_NOTIFY_PEER_ADDR_CHANGE || n->type == SCTP_NOTIFY_PATH_MTU) {
		ev.addr = n->addr;
	} else if (c->a.paths.n != 0) {
		/* Who the association is with: after a close only path 0 is left. */
		unsigned i = c->a.paths.primary < c->a.paths.n ? c->a.paths.primary : 0;
		struct sctp_addr pa = sctp_path_addr(sctp_paths_get_const(&c->a.paths, i));
		if (pa.family != SCTP_ADDR_NONE)
			ev.addr = pa;
	}
	ev.local_port = c->a.local_port;
	ev.peer_port = c->a.peer_port;
	ev.sid = n->sid;
	ev.ppid = n->ppid;
	ev.length = n->length;
	ev.sent = n->sent;
	ev.pr_policy = n->pr_policy;
	ev.context = n->context;
	ev.reset_flags = n->reset_flags;
	ev.n_streams = n->n_streams;
	ev.streams = n->streams;
	ev.local_tsn = n->local_tsn;
	ev.remote_tsn = n->remote_tsn;
	ev.mtu = n->mtu;
	if (n->type == SCTP_NOTIFY_COMM_LOST || n->type == SCTP_NOTIFY_SHUTDOWN_COMPLETE ||
	    n->type == SCTP_NOTIFY_CANT_START)
		c->notified_end = true;
	/* DPSCTP_OPT_EVENTS: what the application asked not to hear is not called. */
	if (c->cb != NULL && c->cb->on_event != NULL && dp_opt_event_wanted(c, n->type)) {
		unsigned st = dp_stage_enter(c->w, DP_STAGE_APP);
		c->in_cb++;
		c->cb->on_event(c, &ev, c->arg);
		c->in_cb--;
		dp_stage_leave(c->w, st);
	}
}

_Static_assert((int)DPSCTP_EV_COMM_UP == (int)SCTP_NOTIFY_COMM_UP &&
		       (int)DPSCTP_EV_COMM_LOST == (int)SCTP_NOTIFY_COMM_LOST &&
		       (int)DPSCTP_EV_SHUTDOWN_COMPLETE == (int)SCTP_NOTIFY_SHUTDOWN_COMPLETE &&
		       (int)DPSCTP_EV_CANT_START == (int)SCTP_NOTIFY_CANT_START &&
		       (int)DPSCTP_EV_RESTART == (int)SCTP_NOTIFY_RESTART &&
		       (int)DPSCTP_EV_PEER_ADDR_CHANGE == (int)SCTP_NOTIFY_PEER_ADDR_CHANGE &&
		       (int)DPSCTP_EV_REMOTE_ERROR == (int)SCTP_NOTIFY_REMOTE_ERROR &&
		       (int)DPSCTP_EV_SEND_FAILED == (int)SCTP_NOTIFY_SEND_FAILED &&
		       (int)DPSCTP_EV_STREAM_RESET == (int)SCTP_NOTIFY_STREAM_RESET &&
		       (int)DPSCTP_EV_ASSOC_RESET == (int)SCTP_NOTIFY_ASSOC_RESET &&
		       (int)DPSCTP_EV_STREAM_CHANGE == (int)SCTP_NOTIFY_STREAM_CHANGE &&
		       (int)DPSCTP_EV_PATH_MTU == (int)SCTP_NOTIFY_PATH_MTU &&
		       DPSCTP_RESET_INCOMING_SSN == SCTP_RESET_INCOMING_SSN &&
		       DPSCTP_RESET_OUTGOING_SSN == SCTP_RESET_OUTGOING_SSN &&
		       DPSCTP_RESET_DENIED == SCTP_RESET_DENIED &&
		       DPSCTP_RESET_FAILED == SCTP_RESET_FAILED &&
		       DPSCTP_RESET_INCOMING == SCTP_STREAM_RESET_INCOMING &&
		       DPSCTP_RESET_OUTGOING == SCTP_STREAM_RESET_OUTGOING,
	       "public event numbers follow the core's");

static void
dp_deliver_call(struct dpsctp_assoc *c, struct dpsctp_msg *msg)
{
	dpsctp_recv_cb fn = NULL;
	void *arg = c->arg;
	if (msg->sid < c->n_stream_cb && c->stream_recv[msg->sid] != NULL) {
		fn = c->stream_recv[msg->sid];
		arg = c->stream_args != NULL ? c->stream_args[msg->sid] : c->arg;
	} else if (c->cb != NULL) {
		fn = c->cb->on_recv;
	}
	dp_conn_count_delivered(c, msg->len);
	unsigned st = dp_stage_enter(c->w, DP_STAGE_DELIVER);
	if (fn != NULL) {
		c->in_cb++;
		fn(c, msg, arg);
		c->in_cb--;
	}
	for (uint32_t i = 0; i < msg->nsegs; i++)
		rte_pktmbuf_free_seg(msg->segs[i].m);
	dp_stage_leave(c->w, st);
}

/*
 * A message from reassembly: its slices, each with one reference, become
 * the callback's segments; the references are dropped after it returns
 * (dpsctp_msg_to_mbuf() takes its own to keep them). More slices than
 * DP_MSG_SEGS go out as consecutive partial deliveries (MORE / CONT).
 */
static void
dp_deliver(void *ctx, const struct sctp_reasm_msg *m)
{
	struct dpsctp_assoc *c = ctx;
	struct dp_worker *w = c->w;
	struct sctp_reasm_iter it;
	struct sctp_slice s;
	struct dpsctp_msg msg;
	uint32_t base = 0;

	memset(&msg, 0, sizeof(msg));
	msg.sid = m->sid;
	msg.ssn = m->ssn;
	msg.mid = m->mid;
	msg.ppid = m->ppid;
	msg.flags = ((m->flags & SCTP_REASM_MSG_UNORDERED) ? DPSCTP_MSG_UNORDERED : 0) |
		    ((m->flags & SCTP_REASM_MSG_CONT) ? DPSCTP_MSG_CONT : 0) |
		    ((m->flags & SCTP_REASM_MSG_ABORTED) ? DPSCTP_MSG_ABORTED : 0);
	msg.segs = w->segs;
	sctp_reasm_iter_init(&it, m);
	while (sctp_reasm_iter_next(&it, &s)) {
		if (msg.nsegs == DP_MSG_SEGS) {
			msg.flags |= DPSCTP_MSG_MORE;
			dp_deliver_call(c, &msg);
			msg.flags = (msg.flags & DPSCTP_MSG_UNORDERED) | DPSCTP_MSG_CONT;
			msg.nsegs = 0;
			msg.len = 0;
		}
		w->segs[msg.nsegs].m = s.handle;
		w->segs[msg.nsegs].data = s.data;
		w->segs[msg.nsegs].len = s.len;
		msg.nsegs++;
		msg.len += s.len;
		base += s.len;
	}
	if (m->flags & SCTP_REASM_MSG_MORE)
		msg.flags |= DPSCTP_MSG_MORE;
	(void)base;
	dp_deliver_call(c, &msg);
}

/*
 * --hb-rate: the worker's budget for heartbeats (RFC 9260 §8.3). Each idle
 * heartbeat's ask takes the next slot, hb_gap_ns after the last one given
 * (GCRA), so a million idle paths whose heartbeats fall due together leave
 * one a gap from then on, in the order they asked, with no retries: a
 * heartbeat more than DP_HB_AHEAD_NS early in its slot waits for it
 * (hb_deferred). A probe of an unconfirmed or potentially-failed path
 * never waits (failure detection keeps its pace) but takes a slot when one
 * is free now, never a later one: idle heartbeats yield to probes, and
 * probes beyond the rate build no debt. What a worker spends on idle
 * heartbeats is then bounded by the rate, whatever the number of
 * associations or their HB.interval; idle paths are probed less often when
 * there are more of them than the rate allows at their interval
 * (docs/PATHS.md "Heartbeats at scale").
 */
#define DP_HB_AHEAD_NS 1000000ull /* a millisecond's worth goes at once */

static uint64_t
dp_hb_admit(void *ctx, uint64_t now_ns, bool probe)
{
	struct dp_worker *w = ((struct dpsctp_assoc *)ctx)->w;
	uint64_t slot = w->hb_slot_ns > now_ns ? w->hb_slot_ns : now_ns;

	if (probe) {
		w->ctr.hb_probes++;
		if (w->hb_gap_ns != 0 && slot <= now_ns + DP_HB_AHEAD_NS)
			w->hb_slot_ns = slot + w->hb_gap_ns;
		return 0;
	}
	if (w->hb_gap_ns == 0)
		return 0;
	w->hb_slot_ns = slot + w->hb_gap_ns;
	if (slot <= now_ns + DP_HB_AHEAD_NS)
		return 0;
	w->ctr.hb_deferred++;
	return slot - now_ns;
}

const struct sctp_assoc_ops dp_conn_ops = {
	.send = dp_tx_send,
	.notify = dp_notify,
	.hs_get = dp_hs_get,
	.hs_put = dp_hs_put,
	.paths_get = dp_paths_get,
	.paths_put = dp_paths_put,
	.deliver = dp_deliver,
	.data_get = dp_data_get,
	.data_put = dp_data_put,
	.send_data = dp_tx_send_data,
	.hb_admit = dp_hb_admit,
};

struct dpsctp_assoc *
dp_conn_block(struct dp_worker *w, const struct dpsctp_callbacks *cb, void *arg)
{
	void *p;
	if (rte_mempool_get(w->conn_pool, &p) != 0)
		return NULL;
	struct dpsctp_assoc *c = p;
	memset(c, 0, sizeof(*c));
	c->w = w;
	c->cb = cb;
	c->arg = arg;
	return c;
}

void
dp_conn_link(struct dpsctp_assoc *c)
{
	struct dp_worker *w = c->w;
	c->id = ++w->d->next_id * DP_MAX_WORKERS + w->index;
	dpsctp_timer_init(&c->timer);
	sctp_assoc_init(&c->a, &dp_conn_ops, c, &w->assoc_ctr, &c->stats);
	c->next = w->conns;
	if (w->conns != NULL)
		w->conns->prev = c;
	w->conns = c;
	w->n_conns++;
	w->ctr.assocs_created++;
}

struct dpsctp_assoc *
dp_conn_alloc(struct dp_worker *w, const struct dpsctp_callbacks *cb, void *arg)
{
	struct dpsctp_assoc *c = dp_conn_block(w, cb, arg);
	if (c != NULL)
		dp_conn_link(c);
	return c;
}

static void dp_peer_key(struct dp_peer_key *k, const struct sctp_addr *peer, uint16_t lport,
			uint16_t pport);

/*
 * A further address of the peer (a path after the first) in the by-peer
 * table, so that what is found by (peer address, ports) rather than by tag
 * finds the association from any of them: an ICMP error quoting a packet
 * sent to that address (dp_rx_icmp()), an INIT or a T-bit chunk it sends,
 * an ephemeral port choice. Two associations never share a peer transport
 * address with the same local port (RFC 9260: the transport addresses
 * identify the association): an address another association of the worker
 * has is left to it (counted in peer_addr_taken), never taken from it; a
 * full table counts peer_table_full. Either way ICMP about that address
 * counts icmp_no_assoc.
 */
static void
dp_conn_index_peer_addr(struct dpsctp_assoc *c, const struct sctp_addr *a)
{
	struct dp_worker *w = c->w;
	struct dp_peer_key k;
	void *data;

	if (!c->in_peer_table || c->n_peer_addrs >= SCTP_MAX_PATHS - 1)
		return;
	dp_peer_key(&k, a, c->peer_key.local_port, c->peer_key.peer_port);
	if (rte_hash_lookup_data(w->by_peer, &k, &data) >= 0) {
		if (data != c)
			w->ctr.peer_addr_taken++;
		return;
	}
	if (rte_hash_add_key_data(w->by_peer, &k, c) != 0) {
		w->ctr.peer_table_full++;
		return;
	}
	c->peer_addrs[c->n_peer_addrs++] = *a;
}

/*
 * With several ports or --route entries: the port a path to *ip leaves by
 * and, when the route goes through a gateway, *ip replaced by it (its
 * entry is the one to pin). The source is the one the core picks
 * (sctp/assoc_internal.h assoc_src_for(): the association's local address,
 * or an address sharing a longer prefix with ip), which decides between
 * the ports' default gateways as it does for the path's packets (dp_tx.c).
 */
static unsigned
dp_conn_next_hop(const struct dpsctp_assoc *c, struct sctp_addr *ip)
{
	const struct dpsctp *d = c->w->d;
	if (!d->routed)
		return 0;
	const struct sctp_addr *src = &c->a.local_addr;
	unsigned best = sctp_addr_common_prefix(src, ip);
	for (unsigned i = 0; d->set.n_addrs > 1 && i < d->set.n_addrs; i++) {
		unsigned l = sctp_addr_common_prefix(&d->set.addrs[i], ip);
		if (l > best) {
			best = l;
			src = &d->set.addrs[i];
		}
	}
	struct dp_route_hop hop;
	if (dp_route_lookup(&d->routes, ip, src, &hop) != 0)
		return 0; /* the pin fails: no route (its packets count tx_no_route) */
	if (hop.via.family != 0)
		*ip = hop.via;
	return hop.port;
}

/*
 * The next hops of the association's paths stay in the worker's neighbour
 * table while it lives (pinned, docs/NET.md "The neighbour cache"): what a
 * stranger makes us resolve cannot evict them. Paths only grow; those added
 * since the last call are pinned now (a table too small for them counts
 * l3.nbr_pin_failed, and the path's packets resolve as any other's), and
 * the addresses after the first go in the by-peer table.
 */
static void
dp_conn_pin_paths(struct dpsctp_assoc *c)
{
	for (; c->nbr_paths < c->a.paths.n; c->nbr_paths++) {
		struct sctp_addr a =
			sctp_path_addr(sctp_paths_get_const(&c->a.paths, c->nbr_paths));
		if (a.family == SCTP_ADDR_NONE)
			continue;
		if (c->nbr_paths != 0)
			dp_conn_index_peer_addr(c, &a);
		struct sctp_addr ip = a;
		unsigned port = dp_conn_next_hop(c, &ip);
		if (dpsctp_l3_pin(c->w->l3[port], &ip, c->w->now_ns) == 0) {
			c->nbr_pin_port[c->n_nbr_pins] = (uint8_t)port;
			c->nbr_pins[c->n_nbr_pins++] = ip;
		}
	}
}

/* A key of the by-peer table out, if it is still this association's. */
static void
dp_conn_unindex_peer(struct dpsctp_assoc *c, const struct dp_peer_key *k)
{
	void *data;

	if (rte_hash_lookup_data(c->w->by_peer, k, &data) >= 0 && data == c)
		(void)rte_hash_del_key(c->w->by_peer, k);
}

void
dp_conn_free(struct dpsctp_assoc *c)
{
	struct dp_worker *w = c->w;
	for (unsigned i = 0; i < c->n_nbr_pins; i++)
		dpsctp_l3_unpin(w->l3[c->nbr_pin_port[i]], &c->nbr_pins[i]);
	if (c->in_tag_table)
		(void)rte_hash_del_key(w->by_tag, &c->tag_key);
	if (c->in_peer_table)
		dp_conn_unindex_peer(c, &c->peer_key);
	for (unsigned i = 0; i < c->n_peer_addrs; i++) {
		struct dp_peer_key k;
		dp_peer_key(&k, &c->peer_addrs[i], c->peer_key.local_port, c->peer_key.peer_port);
		dp_conn_unindex_peer(c, &k);
	}
	dpsctp_timer_cancel(&w->wheel, &c->timer);
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		w->conns = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	w->n_conns--;
	w->ctr.assocs_freed++;
	dp_opt_free(c);
	rte_mempool_put(w->conn_pool, c);
}

int
dp_conn_index_tag(struct dpsctp_assoc *c)
{
	if (c->in_tag_table || c->a.local_vtag == 0)
		return 0;
	memset(&c->tag_key, 0, sizeof(c->tag_key));
	c->tag_key.vtag = c->a.local_vtag;
	c->tag_key.local_port = c->a.local_port;
	c->tag_key.peer_port = c->a.peer_port;
	if (rte_hash_add_key_data(c->w->by_tag, &c->tag_key, c) != 0)
		return -ENOSPC;
	c->in_tag_table = true;
	return 0;
}

static void
dp_peer_key(struct dp_peer_key *k, const struct sctp_addr *peer, uint16_t lport, uint16_t pport)
{
	memset(k, 0, sizeof(*k));
	memcpy(k->addr, peer->bytes, sizeof(k->addr));
	k->family = peer->family;
	k->local_port = lport;
	k->peer_port = pport;
}

int
dp_conn_index_peer(struct dpsctp_assoc *c)
{
	void *data;

	if (c->in_peer_table)
		return 0;
	struct sctp_addr peer = sctp_path_addr(sctp_paths_get_const(&c->a.paths, 0));
	dp_peer_key(&c->peer_key, &peer, c->a.local_port, c->a.peer_port);
	/* Another association's (rte_hash_add_key_data() would hand it over). */
	if (rte_hash_lookup_data(c->w->by_peer, &c->peer_key, &data) >= 0 && data != c)
		return -EADDRINUSE;
	if (rte_hash_add_key_data(c->w->by_peer, &c->peer_key, c) != 0)
		return -ENOSPC;
	c->in_peer_table = true;
	return 0;
}

struct dpsctp_assoc *
dp_conn_by_tag(struct dp_worker *w, uint32_t vtag, uint16_t lport, uint16_t pport)
{
	struct dp_tag_key k;
	void *data;
	memset(&k, 0, sizeof(k));
	k.vtag = vtag;
	k.local_port = lport;
	k.peer_port = pport;
	return rte_hash_lookup_data(w->by_tag, &k, &data) >= 0 ? data : NULL;
}

struct dpsctp_assoc *
dp_conn_by_peer(struct dp_worker *w, const struct sctp_addr *peer, uint16_t lport, uint16_t pport)
{
	struct dp_peer_key k;
	void *data;
	dp_peer_key(&k, peer, lport, pport);
	return rte_hash_lookup_data(w->by_peer, &k, &data) >= 0 ? data : NULL;
}

static uint32_t
dp_conn_space(const struct dpsctp_assoc *c)
{
	const struct sctp_assoc_tx *tx = c->a.tx;
	if (tx == NULL)
		return 0;
	return tx->outq.max_bytes > tx->outq.queued_bytes
		       ? tx->outq.max_bytes - tx->outq.queued_bytes
		       : 0;
}

/* dp_conn_after() for a send: the block may be freed there, so in_send is
 * cleared only on a block that lives on. */
static void
dp_conn_after_send(struct dpsctp_assoc *c)
{
	if (sctp_assoc_freeable(&c->a)) {
		dp_conn_after(c); /* frees it */
		return;
	}
	dp_conn_after(c);
	c->in_send = false;
}

void
dp_conn_after(struct dpsctp_assoc *c)
{
	struct dp_worker *w = c->w;

	/* Called back and asked from there (dp_assoc_call()): the run that
	 * called back is ours to finish and free, not a nested one's. */
	if (c->in_cb != 0)
		return;
	if (c->deferred != DP_CLOSE_NONE) {
		uint8_t kind = c->deferred;
		c->deferred = DP_CLOSE_NONE;
		if (!sctp_assoc_freeable(&c->a)) {
			if (kind == DP_CLOSE_ABORT)
				(void)sctp_assoc_abort(&c->a, w->now_ns, NULL, 0);
			else
				(void)sctp_assoc_shutdown(&c->a, w->now_ns);
		}
	}
	if (sctp_assoc_freeable(&c->a)) {
		dp_conn_free(c);
		return;
	}
	unsigned st = dp_stage_enter(w, DP_STAGE_REARM);
	(void)dp_conn_index_tag(c);
	if (c->nbr_paths < c->a.paths.n && c->a.state != SCTP_ASSOC_CLOSED)
		dp_conn_pin_paths(c);
	uint64_t at = sctp_assoc_next_wakeup(&c->a);
	if (at == SCTP_TIME_NEVER)
		dpsctp_timer_cancel(&w->wheel, &c->timer);
	else if (!dpsctp_timer_armed(&c->timer) ||
		 dpsctp_timer_expiry_ns(&w->wheel, &c->timer) != at)
		dpsctp_timer_arm(&w->wheel, &c->timer, at);
	dp_stage_leave(w, st);
	/* Never from inside a send: an application that sends again from on_space
	 * would re-enter its own send loop. The next input or timer tells it. */
	if (c->want_space && !c->in_send) {
		uint32_t space = dp_conn_space(c);
		uint32_t want =
			c->space_threshold != 0 ? c->space_threshold : w->d->set.sndbuf / 4u;
		if (space >= want) {
			c->want_space = false;
			if (c->cb != NULL && c->cb->on_space != NULL) {
				st = dp_stage_enter(w, DP_STAGE_APP);
				c->in_cb++;
				c->cb->on_space(c, space, c->arg);
				c->in_cb--;
				dp_stage_leave(w, st);
				if (c->deferred != DP_CLOSE_NONE)
					dp_conn_after(
						c); /* closed from on_space: the block may go */
			}
		}
	}
}

void
dp_conn_timer_cb(struct dpsctp_timer_wheel *wh, struct dpsctp_timer *t, void *arg)
{
	struct dp_worker *w = arg;
	/* The timer is embedded in its association (timer_wheel.h): back to the block. */
	struct dpsctp_assoc *c = (void *)((char *)t - offsetof(struct dpsctp_assoc, timer));
	(void)wh;
	sctp_assoc_timeout(&c->a, w->now_ns);
	dp_conn_after(c);
}

struct dp_listener *
dp_listener_find(struct dpsctp *d, uint16_t port, unsigned *slot)
{
	if (port == 0)
		return NULL; /* the mark of a free slot, never a listener */
	for (unsigned i = 0; i < d->n_listeners; i++)
		if (d->listeners[i].port == port) {
			*slot = i;
			return &d->listeners[i];
		}
	return NULL;
}

/*
 * A local port for a connect that named none: the dynamic range (RFC 6335,
 * 49152-65535) is split into one slice per worker, so two workers never
 * pick the same port towards one peer (the peer would take the second INIT
 * for a restart of the first association), and inside its slice a worker
 * walks from a random start to the first port no association of its own
 * uses towards any of the peer's addresses and port. 0 when the slice is
 * full for that peer.
 */
static uint16_t
dp_conn_ephemeral_port(struct dp_worker *w, const struct sctp_addr *peers, unsigned n_peers,
		       uint16_t peer_port)
{
	const unsigned first = 49152u, span = 16384u / w->d->n_workers;
	unsigned start = (w->rnd = w->rnd * 1664525u + 1013904223u) % span;

	for (unsigned k = 0; k < span; k++) {
		uint16_t port = (uint16_t)(first + w->index * span + (start + k) % span);
		bool used = false;
		for (unsigned i = 0; i < n_peers && !used; i++)
			used = dp_conn_by_peer(w, &peers[i], port, peer_port) != NULL;
		if (!used)
			return port;
	}
	return 0;
}

int
dp_conn_connect(struct dp_worker *w, struct dpsctp_assoc *c, const struct sctp_addr *peers,
		unsigned n_peers, uint16_t local_port, uint16_t peer_port)
{
	struct dpsctp *d = w->d;
	struct sctp_addr local;
	bool found = false;
	uint8_t fam = peers[0].family == SCTP_ADDR_V6 ? 6 : 4;

	for (unsigned i = 0; i < d->set.n_addrs && !found; i++)
		if (d->set.addrs[i].family == fam) {
			local = d->set.addrs[i];
			found = true;
		}
	/* Several ports: an address of the port the first peer address is reached by. */
	struct dp_route_hop hop;
	if (found && d->routed && dp_route_lookup(&d->routes, &peers[0], NULL, &hop) == 0)
		(void)dp_route_src(&d->routes, hop.port, &peers[0], NULL, &local);
	if (!found)
		return -EINVAL;
	uint16_t lport = local_port;
	if (lport == 0 && (lport = dp_conn_ephemeral_port(w, peers, n_peers, peer_port)) == 0)
		return -EADDRINUSE;
	c->udp_port = d->set.udp_encap ? d->set.udp_port : 0;
	/* The worker's closed endpoint, whatever the port: an association never
	 * refers to a listening one, which dpsctp_unlisten() may take away. */
	int rc = sctp_assoc_connectx(&c->a, &w->closed_ep, peers, n_peers, &local, lport, peer_port,
				     w->now_ns);
	if (rc != 0)
		return rc;
	if (dp_conn_index_tag(c) != 0 || (rc = dp_conn_index_peer(c)) != 0) {
		(void)sctp_assoc_abort(&c->a, w->now_ns, NULL, 0);
		return rc == -EADDRINUSE ? rc : -ENOSPC;
	}
	return 0;
}

/*
 * The message to the association with its PR-SCTP policy (dpsctp_send()
 * checked it). To a peer without PR-SCTP the core sends it reliably and
 * counts it (pr_unsupported); an instance configured without PR-SCTP offers
 * it to nobody, so its pools without PR slots are never asked for one.
 */
static int
dp_conn_send_pr(struct dpsctp_assoc *c, const struct dpsctp_sndinfo *si, uint8_t flags,
		const struct sctp_slice *s)
{
	uint32_t value = si->pr_policy == DPSCTP_PR_NONE ? 0 : si->pr_value;

	return sctp_assoc_send_ctx(&c->a, si->sid, si->ppid, flags, s, (uint8_t)si->pr_policy,
				   value, si->context, c->w->now_ns);
}

/*
 * Whether the message waits for more (the core's SCTP_SEND_MORE): the
 * caller said so (DPSCTP_SEND_MORE), or DPSCTP_OPT_NODELAY is off and a
 * message smaller than a packet finds data of ours unacknowledged (Nagle:
 * the acknowledgement's input flushes what waits).
 */
static bool
dp_conn_more(const struct dpsctp_assoc *c, const struct dpsctp_sndinfo *si, uint32_t len)
{
	if (si->flags & DPSCTP_SEND_MORE)
		return true;
	const struct sctp_assoc_tx *tx = c->a.tx;
	return dp_opt_vals(c)->nodelay == 0 && tx != NULL && len + 64u < tx->mtu &&
	       sctp_rtxq_flight(&tx->rtxq) != 0;
}

_Static_assert(DPSCTP_PR_NONE == SCTP_PR_NONE && DPSCTP_PR_TTL == SCTP_PR_TTL &&
		       DPSCTP_PR_RTX == SCTP_PR_RTX && DPSCTP_PR_PRIO == SCTP_PR_PRIO,
	       "public PR-SCTP policies are the core's");

/* The application's message as one slice: a single segment as is, a chain copied once. */
int
dp_conn_send(struct dpsctp_assoc *c, const struct dpsctp_sndinfo *si, struct rte_mbuf *m)
{
	/* From inside its end event: closed, and freed when the callback returns. */
	if (sctp_assoc_freeable(&c->a))
		return -ENOTCONN;
	struct dp_worker *w = c->w;
	struct rte_mbuf *one = m;
	uint8_t *data = rte_pktmbuf_mtod(m, uint8_t *);
	uint32_t len = m->data_len;
	int rc;

	if (m->pkt_len == 0)
		return -EINVAL;
	if (m->nb_segs > 1) {
		/* One slice per message (sctp_assoc_send()): a chain is flattened into an
		 * external buffer once. Applications that care send single segments.
		 * What the send queue would refuse for its size is refused before the
		 * copy, with the queue's own answer (sctp_outq_push()): a message it can
		 * never hold, and, in ESTABLISHED, one it has no room for now — an
		 * application that retries until on_space would otherwise copy the
		 * whole message (up to --sndbuf) on every try. */
		len = m->pkt_len;
		const struct sctp_assoc_tx *tx = c->a.tx;
		if (tx != NULL && len > tx->outq.max_bytes) {
			w->ctr.send_refused++;
			return -EMSGSIZE;
		}
		if (tx != NULL && c->a.state == SCTP_ASSOC_ESTABLISHED &&
		    si->sid < tx->outq.n_streams && len > dp_conn_space(c)) {
			w->ctr.send_refused++;
			c->want_space = true;
			return -ENOBUFS;
		}
		if ((one = dp_buf_flatten(w->d->ports[0].pool,
					  w->d->ports[0].socket_id < 0 ? 0
								       : w->d->ports[0].socket_id,
					  m, &data)) == NULL)
			return -ENOMEM;
		w->ctr.send_copied++;
	}
	struct sctp_slice s = { one, data, len };
	uint8_t flags = ((si->flags & DPSCTP_SEND_UNORDERED) ? SCTP_SEND_UNORDERED : 0) |
			((si->flags & DPSCTP_SEND_SACK_NOW) ? SCTP_SEND_SACK_NOW : 0) |
			(dp_conn_more(c, si, len) ? SCTP_SEND_MORE : 0);
	c->in_send = true;
	rc = dp_conn_send_pr(c, si, flags, &s);
	if (rc == 0) {
		/* Our reference to `one` passed to the association (sctp_assoc_send()). */
		dp_conn_count_sent(c, s.len);
		if (one != m)
			rte_pktmbuf_free(m); /* the chain was copied */
	} else {
		if (one != m)
			rte_pktmbuf_free(one);
		w->ctr.send_refused++;
		if (rc == -ENOBUFS || rc == -EAGAIN || rc == -ENOMEM)
			c->want_space = true;
	}
	dp_conn_after_send(c);
	return rc;
}

/*
 * A small message sent from bytes (at most --copy-max, so always copied into
 * the packets that carry it): it goes into the worker's packing mbuf after
 * the previous ones, and its slice holds one reference to that mbuf. Small
 * messages then cost a 2 KB mbuf per few dozen, not one each; the mbuf goes
 * back to the pool when the last of them is acknowledged.
 */
int
dp_conn_send_small(struct dpsctp_assoc *c, const struct dpsctp_sndinfo *si, const void *buf,
		   uint32_t len)
{
	/* From inside its end event: closed, and freed when the callback returns. */
	if (sctp_assoc_freeable(&c->a))
		return -ENOTCONN;
	struct dp_worker *w = c->w;
	struct rte_mbuf *p = w->pack;

	if (p == NULL || rte_pktmbuf_tailroom(p) < len) {
		rte_pktmbuf_free(p); /* the worker's own reference; slices keep theirs */
		p = w->pack = rte_pktmbuf_alloc(w->d->ports[0].pool);
		if (p == NULL) {
			w->ctr.send_refused++;
			c->want_space = true;
			return -EAGAIN;
		}
	}
	uint8_t *dst = rte_pktmbuf_mtod_offset(p, uint8_t *, p->data_len);
	memcpy(dst, buf, len);
	struct sctp_slice s = { p, dst, len };
	uint8_t flags = ((si->flags & DPSCTP_SEND_UNORDERED) ? SCTP_SEND_UNORDERED : 0) |
			((si->flags & DPSCTP_SEND_SACK_NOW) ? SCTP_SEND_SACK_NOW : 0) |
			(dp_conn_more(c, si, len) ? SCTP_SEND_MORE : 0);
	rte_mbuf_refcnt_update(p, 1); /* the reference the association takes on success */
	c->in_send = true;
	int rc = dp_conn_send_pr(c, si, flags, &s);
	if (rc == 0) {
		p->data_len = (uint16_t)(p->data_len + len);
		p->pkt_len += len;
		dp_conn_count_sent(c, len);
		w->ctr.send_packed++;
	} else {
		rte_mbuf_refcnt_update(p, -1);
		w->ctr.send_refused++;
		if (rc == -ENOBUFS || rc == -EAGAIN || rc == -ENOMEM)
			c->want_space = true;
	}
	dp_conn_after_send(c);
	return rc;
}
