/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --stages: where each end's worker spent its cycles, stage by stage
 * (dpsctp_worker_stage(), --stage-cycles on: dataplane/dp_stage.h), per
 * packet that end's worker received or sent over the whole run (handshake
 * and warm-up included, as the counters are). Polls that found nothing to
 * do are "idle", apart: the headline total leaves them out, so that it is
 * the cost of the packets whatever the load. The TSC reads that measure
 * the stages cost cycles of their own: tsc_read_cycles, measured here in a
 * loop, and overhead_per_packet (two reads per stage entered) say how much
 * of the total they are.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "apps/dpsctp-perf/perf.h"

/* Cycles one rte_rdtsc() takes back to back: the median of 64 runs of 1,000. */
static double
tsc_read_cycles(void)
{
	double runs[64];
	for (unsigned k = 0; k < 64; k++) {
		uint64_t t0 = rte_rdtsc(), t = t0;
		for (unsigned i = 0; i < 1000; i++)
			t = rte_rdtsc();
		runs[k] = (double)(t - t0) / 1000.0;
	}
	for (unsigned i = 1; i < 64; i++)
		for (unsigned j = i; j > 0 && runs[j - 1] > runs[j]; j--) {
			double x = runs[j];
			runs[j] = runs[j - 1];
			runs[j - 1] = x;
		}
	return runs[32];
}

static uint64_t
worker_counter(const struct dpsctp *d, const char *want)
{
	const char *name;
	uint64_t v;
	for (unsigned i = 0; (v = dpsctp_worker_counter(d, 0, i, &name)) != UINT64_MAX || name; i++)
		if (name != NULL && strcmp(name, want) == 0)
			return v;
	return 0;
}

void
perf_stages_snap(struct perf_stages *s, const struct dpsctp *client, const struct dpsctp *server)
{
	const struct dpsctp *ends[2] = { client, server };
	memset(s, 0, sizeof(*s));
	s->tsc_read = tsc_read_cycles();
	for (unsigned e = 0; e < 2; e++) {
		struct perf_stages_end *pe = &s->end[e];
		if (ends[e] == NULL)
			continue;
		const char *name;
		uint64_t cycles, events;
		for (unsigned i = 0;
		     i < PERF_STAGES_MAX &&
		     dpsctp_worker_stage(ends[e], 0, i, &name, &cycles, &events) == 0;
		     i++) {
			pe->name[i] = name;
			pe->cycles[i] = cycles;
			pe->events[i] = events;
			pe->n = i + 1;
		}
		pe->packets = worker_counter(ends[e], "rx_packets") +
			      worker_counter(ends[e], "tx_packets");
	}
}

/* Cycles per packet of stage i, and the TSC reads' share of the end's total. */
static double
per_packet(const struct perf_stages_end *pe, uint64_t v)
{
	return pe->packets != 0 ? (double)v / (double)pe->packets : 0.0;
}

static double
overhead(const struct perf_stages *s, const struct perf_stages_end *pe)
{
	uint64_t events = 0;
	for (unsigned i = 0; i < pe->n; i++)
		events += pe->events[i];
	return per_packet(pe, events) * 2.0 * s->tsc_read;
}

void
perf_stages_text(FILE *f, const struct perf_stages *s)
{
	static const char *const who[2] = { "client", "server" };
	for (unsigned e = 0; e < 2; e++) {
		const struct perf_stages_end *pe = &s->end[e];
		if (pe->n == 0)
			continue;
		uint64_t total = 0;
		for (unsigned i = 0; i < pe->n; i++)
			if (strcmp(pe->name[i], "idle") != 0)
				total += pe->cycles[i];
		fprintf(f,
			"stages (%s, %" PRIu64 " packets received and sent): %.0f cycles a "
			"packet in polls that did work",
			who[e], pe->packets, per_packet(pe, total));
		for (unsigned i = 0; i < pe->n; i++)
			fprintf(f, "%s %s %.0f", i ? "," : ":", pe->name[i],
				per_packet(pe, pe->cycles[i]));
		fprintf(f, "; TSC reads %.1f cycles each, about %.0f a packet of the above\n",
			s->tsc_read, overhead(s, pe));
	}
}

void
perf_stages_json(FILE *f, const struct perf_stages *s)
{
	static const char *const who[2] = { "client", "server" };
	fprintf(f, "    \"stages\": {\"tsc_read_cycles\": %.1f", s->tsc_read);
	for (unsigned e = 0; e < 2; e++) {
		const struct perf_stages_end *pe = &s->end[e];
		if (pe->n == 0)
			continue;
		fprintf(f, ", \"%s\": {\"packets\": %" PRIu64 ", \"overhead_per_packet\": %.1f",
			who[e], pe->packets, overhead(s, pe));
		for (unsigned i = 0; i < pe->n; i++)
			fprintf(f,
				", \"%s\": {\"cycles\": %" PRIu64 ", \"entries\": %" PRIu64
				", \"cycles_per_packet\": %.1f}",
				pe->name[i], pe->cycles[i], pe->events[i],
				per_packet(pe, pe->cycles[i]));
		fprintf(f, "}");
	}
	fprintf(f, "},\n");
}
