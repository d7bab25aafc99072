/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One end of a test: an instance, its flows, and the loop iteration its
 * lcore runs. The iteration is timed with the TSC: an iteration that
 * received, fired a timer or sent anything is busy, one that found nothing
 * is idle. Busy cycles divided by messages are the "cycles per message"
 * dpsctp-perf reports — what the end spent on its messages, with the idle
 * polling of a run-to-completion loop left out (it is reported apart, as
 * the idle fraction: the CPU an end has to spare).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "apps/dpsctp-perf/perf.h"

/* Paced: the bytes of one batch of messages at most (one message when larger). */
#define PERF_PACE_BATCH_BYTES 65536u

int
perf_side_init(struct perf_side *s, const char *name, struct dpsctp *d, const struct perf_opts *o,
	       bool client, uint32_t max_flows, volatile int *phase, uint32_t copy_max,
	       uint32_t sndbuf)
{
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->d = d;
	s->o = o;
	s->is_client = client;
	s->phase = phase;
	s->hz = rte_get_tsc_hz();
	s->max_flows = max_flows;
	s->copy_max = copy_max;
	s->sched = PERF_SCHED_UNKNOWN;
	s->ping_tsc = (uint64_t)(o->ping_us * 1e-6 * (double)s->hz);
	if (o->ping_us > 0 && s->ping_tsc == 0)
		s->ping_tsc = 1;
	s->reset_every_tsc = (uint64_t)(o->reset_ms * 1e-3 * (double)s->hz);
	s->flows = calloc(max_flows, sizeof(*s->flows));
	s->payload_len = perf_payload_len(o);
	s->payload = malloc(s->payload_len);
	if (s->flows == NULL || s->payload == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < s->payload_len; i++)
		s->payload[i] = (uint8_t)(i * 131u + 7u);
	struct rte_mempool *mp = dpsctp_pktmbuf_pool(d);
	s->room = rte_pktmbuf_data_room_size(mp) - RTE_PKTMBUF_HEADROOM;
	if (o->len > s->room && o->len <= PERF_SEG_MAX && o->handshakes == 0) {
		/* Messages above an mbuf's room: a pool of single-segment mbufs that
		 * hold one each (a chain would be flattened by the library, one more
		 * copy). Enough for every flow's send buffer, and some. Longer ones
		 * than a segment holds are a chain whatever we do
		 * (dpsctp_send_bytes()). */
		char pname[RTE_MEMPOOL_NAMESIZE];
		uint32_t per = sndbuf / o->len + 16u;
		uint32_t n = per * (client ? o->assocs : 64u) + 1024u;
		snprintf(pname, sizeof(pname), "perf_big_%s", name);
		s->big_pool = rte_pktmbuf_pool_create(pname, n, 256, 0,
						      (uint16_t)(o->len + RTE_PKTMBUF_HEADROOM),
						      (int)rte_socket_id());
		if (s->big_pool == NULL)
			return -ENOMEM;
		s->big_room = o->len;
	}
	return 0;
}

void
perf_side_fini(struct perf_side *s)
{
	for (uint32_t i = 0; i < s->n_flows; i++) {
		free(s->flows[i].seq_out);
		free(s->flows[i].seq_in);
	}
	free(s->flows);
	free(s->payload);
	rte_mempool_free(s->big_pool);
	memset(s, 0, sizeof(*s));
}

void
perf_side_pace(struct perf_side *s, double msgs_per_s)
{
	if (msgs_per_s <= 0) {
		s->msgs_per_tsc = 0;
		return;
	}
	s->msgs_per_tsc = msgs_per_s / (double)s->hz;
	/* Two bursts' worth of credit at most: pacing stays smooth within ~2 bursts. */
	s->pace_batch = s->o->burst < 16u ? s->o->burst : 16u;
	s->tokens_max = 2.0 * s->o->burst;
	if ((uint64_t)s->pace_batch * s->o->len > PERF_PACE_BATCH_BYTES) {
		/* Large messages: a batch of 16 would be a burst of megabytes, far
		 * ahead of the pace. As many as make 64 KiB, one at least, and
		 * credit for two such batches. */
		s->pace_batch = (unsigned)(PERF_PACE_BATCH_BYTES / s->o->len);
		if (s->pace_batch == 0)
			s->pace_batch = 1;
		s->tokens_max = 2.0 * s->pace_batch;
	}
	s->tokens = 0;
	s->last_tsc = rte_rdtsc();
}

int
perf_side_connect(struct perf_side *s, const struct sctp_addr *peers, unsigned n, uint16_t port,
		  uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		if (s->n_flows == s->max_flows)
			return -ENOMEM;
		struct perf_flow *f = &s->flows[s->n_flows];
		int rc = 0;
		memset(f, 0, sizeof(*f));
		f->side = s;
		f->len = s->o->len;
		f->sender = s->o->handshakes == 0 &&
			    (!s->o->ping || s->o->rate_bps > 0 || s->o->pps > 0);
		if (dpsctp_connect(s->d, 0, peers, n, port, 0, &perf_callbacks, f, &rc) == NULL)
			return rc;
		s->n_flows++;
	}
	return 0;
}

void
perf_side_iterate(struct perf_side *s)
{
	uint64_t t0 = rte_rdtsc();
	bool work = dpsctp_poll(s->d, 0) > 0;

	if (s->msgs_per_tsc > 0) {
		s->tokens += (double)(t0 - s->last_tsc) * s->msgs_per_tsc;
		if (s->tokens > s->tokens_max)
			s->tokens = s->tokens_max;
		s->last_tsc = t0;
	}
	if (s->o->handshakes == 0)
		for (uint32_t i = 0; i < s->n_flows; i++)
			work |= perf_flow_pump(&s->flows[i]);
	else if (s->pong_retry) {
		/* An echo refused earlier (--busy): rare, so a walk is cheap enough. */
		s->pong_retry = false;
		for (uint32_t i = 0; i < s->n_flows; i++)
			if (s->flows[i].pong_due) {
				work |= perf_flow_pump(&s->flows[i]);
				s->pong_retry |= s->flows[i].pong_due;
			}
	}
	uint64_t t1 = rte_rdtsc();
	perf_add(&s->c.loop_cycles, t1 - t0);
	perf_add(&s->c.polls, 1);
	if (work)
		perf_add(&s->c.busy_cycles, t1 - t0);
	else
		perf_add(&s->c.idle_polls, 1);
}
