/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The request ring (dp_req.h). A request's block comes from the worker's
 * pool (multi-producer, no cache: a block put back is at once visible to
 * every thread) and goes onto its ring (multi-producer, single consumer:
 * the worker). The worker runs what it finds once per iteration, in the
 * order posted, and gives each block back.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dataplane/dp_conn.h"
#include "dataplane/dp_opt.h"
#include "dataplane/dp_req.h"

#define DP_REQ_MAX 1024u /* requests a worker holds at once (pool and ring) */

int
dp_req_create(struct dp_worker *w, int socket)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	snprintf(name, sizeof(name), "dp%pq%u", (void *)w->d, w->index);
	w->req_pool = rte_mempool_create(name, DP_REQ_MAX, sizeof(struct dp_req), 0, 0, NULL, NULL,
					 NULL, NULL, socket, 0);
	snprintf(name, sizeof(name), "dp%pk%u", (void *)w->d, w->index);
	w->requests = rte_ring_create(name, DP_REQ_MAX, socket, RING_F_SC_DEQ);
	return w->req_pool != NULL && w->requests != NULL ? 0 : -ENOMEM;
}

void
dp_req_destroy(struct dp_worker *w)
{
	rte_ring_free(w->requests);
	rte_mempool_free(w->req_pool);
	w->requests = NULL;
	w->req_pool = NULL;
}

struct dp_req *
dp_req_new(struct dp_worker *w, enum dp_req_kind kind, struct dpsctp_assoc *c)
{
	void *p;
	if (rte_mempool_get(w->req_pool, &p) != 0) {
		w->ctr.requests_full++;
		return NULL;
	}
	struct dp_req *r = p;
	memset(r, 0, sizeof(*r));
	r->kind = (uint8_t)kind;
	r->assoc = c;
	return r;
}

void
dp_req_free(struct dp_worker *w, struct dp_req *r)
{
	rte_mempool_put(w->req_pool, r);
}

int
dp_req_post(struct dp_worker *w, struct dp_req *r)
{
	if (rte_ring_mp_enqueue(w->requests, r) != 0) {
		w->ctr.requests_full++;
		rte_mempool_put(w->req_pool, r);
		return -EAGAIN;
	}
	return 0;
}

int
dp_req_call(struct dp_worker *w, void (*fn)(struct dpsctp *, unsigned, void *), void *arg)
{
	void *p;
	if (rte_mempool_get(w->req_pool, &p) != 0)
		return -ENOMEM;
	struct dp_req *r = p;
	memset(r, 0, sizeof(*r));
	r->kind = DP_REQ_CALL;
	r->fn = fn;
	r->arg = arg;
	if (rte_ring_mp_enqueue(w->requests, r) != 0) {
		rte_mempool_put(w->req_pool, r);
		return -ENOBUFS;
	}
	return 0;
}

static void
dp_req_run(struct dp_worker *w, struct dp_req *r)
{
	struct dpsctp_assoc *c = r->assoc;
	int rc;

	switch ((enum dp_req_kind)r->kind) {
	case DP_REQ_CONNECT:
		dp_conn_link(c);
		if ((r->has_init && dp_opt_assoc_init(c, (const void *)r->opt) != 0) ||
		    dp_conn_connect(w, c, r->peers, r->n_peers, r->local_port, r->peer_port) != 0) {
			/* CANT_START is the handle's last word, as for a failed handshake. */
			struct dpsctp_event ev = { .type = DPSCTP_EV_CANT_START };
			if (c->cb != NULL && c->cb->on_event != NULL)
				c->cb->on_event(c, &ev, c->arg);
			dp_conn_free(c);
			return;
		}
		dp_conn_after(c);
		break;
	case DP_REQ_SETOPT:
		(void)dp_opt_assoc_apply(c, (enum dpsctp_opt)r->bytes, r->opt, NULL, 0);
		dp_conn_after(c);
		break;
	case DP_REQ_SEND:
		rc = dp_conn_send(c, &r->si, r->m);
		if (rc != 0)
			rte_pktmbuf_free(r->m);
		break;
	case DP_REQ_SHUTDOWN:
		(void)sctp_assoc_shutdown(&c->a, w->now_ns);
		dp_conn_after(c);
		break;
	case DP_REQ_ABORT:
		(void)sctp_assoc_abort(&c->a, w->now_ns, NULL, 0);
		dp_conn_after(c);
		break;
	case DP_REQ_CONSUMED:
		(void)sctp_assoc_consumed(&c->a, r->bytes, w->now_ns);
		dp_conn_after(c);
		break;
	case DP_REQ_FLUSH:
		(void)sctp_assoc_flush(&c->a, w->now_ns);
		dp_conn_after(c);
		break;
	case DP_REQ_SCHED: /* settings of the send queue: nothing to send after them */
		(void)sctp_assoc_set_sched(&c->a, r->bytes);
		break;
	case DP_REQ_STREAM_PARAM:
		(void)sctp_assoc_set_stream_param(&c->a, r->si.sid, (uint16_t)r->bytes);
		break;
	case DP_REQ_CALL:
		r->fn(w->d, w->index, r->arg);
		break;
	case DP_REQ_RESET_STREAMS: /* RE-CONFIG: a chunk to send and a timer, as a send */
		(void)sctp_assoc_reset_streams(&c->a, r->bytes, r->sids, r->n_sids, w->now_ns);
		dp_conn_after(c);
		break;
	case DP_REQ_ADD_STREAMS:
		(void)sctp_assoc_add_streams(&c->a, r->local_port, r->peer_port, w->now_ns);
		dp_conn_after(c);
		break;
	case DP_REQ_RESET_ASSOC:
		(void)sctp_assoc_reset_assoc(&c->a, w->now_ns);
		dp_conn_after(c);
		break;
	}
}

unsigned
dp_req_run_pending(struct dp_worker *w)
{
	void *reqs[DP_BURST];
	unsigned n = rte_ring_sc_dequeue_burst(w->requests, reqs, DP_BURST, NULL);
	for (unsigned i = 0; i < n; i++) {
		dp_req_run(w, reqs[i]);
		rte_mempool_put(w->req_pool, reqs[i]);
	}
	w->ctr.requests += n;
	return n;
}

void
dp_req_drain(struct dp_worker *w)
{
	void *p;
	while (rte_ring_sc_dequeue(w->requests, &p) == 0) {
		struct dp_req *r = p;
		rte_pktmbuf_free(r->m);
		rte_mempool_put(w->req_pool, r);
	}
}
