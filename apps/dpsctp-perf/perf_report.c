/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What dpsctp-perf prints: interval lines like iperf's, a summary, and one
 * JSON document shaped like iperf3's (start, intervals, end) whose keys
 * docs/PERF_TOOL.md lists. Every rate is over the measured window (between
 * the start and end snapshots); message and byte totals are the whole test
 * after the drain, when everything sent had been acknowledged.
 *
 * With a PR-SCTP policy (--pr-policy) messages may be abandoned: a client
 * whose peer is remote counts as received what was sent less what its
 * SEND_FAILED events abandoned, so every "received" figure is goodput.
 *
 * With --sidecar the data plane is dpsctpd's: the frames, SACKs and
 * retransmissions it counts are not visible to this process, and the JSON
 * says null for them rather than a zero that reads as a measurement.
 */
#include <inttypes.h>
#include <string.h>

#include "apps/dpsctp-perf/perf.h"

#define MAX_KEPT 3600u

struct kept {
	double start, end;
	uint64_t bytes, msgs;
};
static struct kept kept[MAX_KEPT];
static unsigned n_kept;

void
perf_report_reset(void)
{
	n_kept = 0;
}

/* The receiving end's counters: the server when we have it, else what the
 * peer acknowledged (everything the client sent and did not abandon, after
 * the drain). */
static unsigned
rx_index(const struct perf_result *r)
{
	return r->rx != NULL ? 1u : 0u;
}

static uint64_t
rx_msgs(const struct perf_result *r, const struct perf_snap *s)
{
	return r->rx != NULL ? s->c[1].msgs_recv : s->c[0].msgs_sent - s->c[0].abandoned_msgs;
}

static uint64_t
rx_bytes(const struct perf_result *r, const struct perf_snap *s)
{
	return r->rx != NULL ? s->c[1].bytes_recv : s->c[0].bytes_sent - s->c[0].abandoned_bytes;
}

static double
secs(const struct perf_result *r, const struct perf_snap *a, const struct perf_snap *b)
{
	return (double)(b->tsc - a->tsc) / (double)r->hz;
}

void
perf_report_keep_interval(const struct perf_result *r, const struct perf_snap *a,
			  const struct perf_snap *b)
{
	if (n_kept == MAX_KEPT)
		return;
	struct kept *k = &kept[n_kept++];
	k->start = (double)(a->tsc - r->start.tsc) / (double)r->hz;
	k->end = (double)(b->tsc - r->start.tsc) / (double)r->hz;
	k->bytes = rx_bytes(r, b) - rx_bytes(r, a);
	k->msgs = rx_msgs(r, b) - rx_msgs(r, a);
}

static void
human_bytes(char *out, size_t n, double b)
{
	if (b >= 1e9)
		snprintf(out, n, "%.2f GB", b / 1e9);
	else if (b >= 1e6)
		snprintf(out, n, "%.2f MB", b / 1e6);
	else
		snprintf(out, n, "%.2f KB", b / 1e3);
}

void
perf_report_interval(FILE *f, const struct perf_result *r, const struct perf_snap *a,
		     const struct perf_snap *b, bool json_only)
{
	perf_report_keep_interval(r, a, b);
	if (json_only)
		return;
	const struct kept *k = &kept[n_kept - 1];
	double t = secs(r, a, b);
	char hb[32];
	human_bytes(hb, sizeof(hb), (double)k->bytes);
	fprintf(f, "[SUM] %6.2f-%-6.2f s  %10s  %7.3f Gbit/s  %10.0f msg/s", k->start, k->end, hb,
		(double)k->bytes * 8 / t / 1e9, (double)k->msgs / t);
	if (r->o->ping && r->tx != NULL)
		fprintf(f, "  %" PRIu64 " pings", b->c[0].pings - a->c[0].pings);
	fputc('\n', f);
	fflush(f);
}

/* The figures of the summary, computed once for the text and the JSON. */
struct figures {
	double secs, rx_bps, rx_mps, rx_pps, tx_bps, tx_mps;
	double rev_bps, rev_mps; /* --bidir: what the client received */
	double cpm[2], cpb[2], idle[2];
	bool have[2];
	uint64_t sent_msgs, sent_bytes, recv_msgs, recv_bytes;
	uint64_t rtx, sacks, data_pkts;
	uint64_t t3, frtx; /* the sender's T3-rtx expiries and fast retransmits */
	uint64_t t3_spur;  /* of the expiries' episodes, judged spurious and undone */
	uint64_t t3_saved; /* chunks those expiries marked that F-RTO did not resend */
	/* Each end's polls that came over 0.5, 2, 10 and 100 ms after the one
	 * before (poll_gap_*): a stalled receiver looks like loss to the sender. */
	uint64_t gaps[2][4];
	double sacks_per_pkt;
	double target_mps, target_bps;
	bool sustained;
	uint64_t errors;
	/* PR-SCTP: the sender's abandoned messages (SEND_FAILED), the receiver's gaps. */
	uint64_t aband_msgs, aband_bytes, aband_sent, skipped, fwd_tsn_out;
	/* Negotiated, DPSCTP_EXT_*: the sender's associations' (else the receiver's). */
	uint32_t extensions;
	bool ext_known;
	int sched; /* DPSCTP_SCHED_*, PERF_SCHED_UNKNOWN, PERF_SCHED_MIXED */
};

/* An end's poll_gap_* counters (worker 0: perf runs one per end); 0 without an instance. */
static void
poll_gaps(const struct dpsctp *d, uint64_t out[4])
{
	static const char *const want[4] = { "poll_gap_500us", "poll_gap_2ms", "poll_gap_10ms",
					     "poll_gap_100ms" };
	const char *name;
	uint64_t v;
	memset(out, 0, 4 * sizeof(out[0]));
	if (d == NULL)
		return;
	for (unsigned i = 0; (v = dpsctp_worker_counter(d, 0, i, &name)) != UINT64_MAX || name; i++)
		for (int k = 0; name != NULL && k < 4; k++)
			if (strcmp(name, want[k]) == 0)
				out[k] = v;
}

static void
figures(const struct perf_result *r, struct figures *g)
{
	const struct perf_snap *a = &r->start, *b = &r->end;
	memset(g, 0, sizeof(*g));
	g->secs = secs(r, a, b);
	if (g->secs <= 0)
		g->secs = 1e-9;
	g->rx_bps = (double)(rx_bytes(r, b) - rx_bytes(r, a)) * 8 / g->secs;
	g->rx_mps = (double)(rx_msgs(r, b) - rx_msgs(r, a)) / g->secs;
	unsigned ri = rx_index(r);
	g->rx_pps = (double)(b->rx_packets[ri] - a->rx_packets[ri]) / g->secs;
	g->tx_bps = (double)(b->c[0].bytes_sent - a->c[0].bytes_sent) * 8 / g->secs;
	g->tx_mps = (double)(b->c[0].msgs_sent - a->c[0].msgs_sent) / g->secs;
	g->rev_bps = (double)(b->c[0].bytes_recv - a->c[0].bytes_recv) * 8 / g->secs;
	g->rev_mps = (double)(b->c[0].msgs_recv - a->c[0].msgs_recv) / g->secs;
	const struct perf_side *sides[2] = { r->tx, r->rx };
	for (int i = 0; i < 2; i++) {
		if (sides[i] == NULL)
			continue;
		g->have[i] = true;
		poll_gaps(sides[i]->d, g->gaps[i]);
		uint64_t busy = b->c[i].busy_cycles - a->c[i].busy_cycles;
		uint64_t loop = b->c[i].loop_cycles - a->c[i].loop_cycles;
		uint64_t m = i == 0 ? b->c[0].msgs_sent - a->c[0].msgs_sent
				    : b->c[1].msgs_recv - a->c[1].msgs_recv;
		uint64_t by = i == 0 ? b->c[0].bytes_sent - a->c[0].bytes_sent
				     : b->c[1].bytes_recv - a->c[1].bytes_recv;
		g->cpm[i] = m ? (double)busy / (double)m : 0;
		g->cpb[i] = by ? (double)busy / (double)by : 0;
		g->idle[i] = loop ? 1.0 - (double)busy / (double)loop : 0;
		g->errors += sides[i]->errors;
	}
	if (r->tx != NULL) {
		g->sent_msgs = r->tx->c.msgs_sent;
		g->sent_bytes = r->tx->c.bytes_sent;
		g->rtx = r->tx->sum.data_chunks_rtx;
		g->t3 = r->tx->sum.t3_expiries;
		g->frtx = r->tx->sum.fast_retransmits;
		g->t3_spur = r->tx->sum.t3_spurious;
		g->t3_saved = r->tx->sum.t3_rtx_saved;
		g->aband_msgs = r->tx->c.abandoned_msgs;
		g->aband_bytes = r->tx->c.abandoned_bytes;
		g->aband_sent = r->tx->c.abandoned_sent;
		g->fwd_tsn_out = r->tx->sum.fwd_tsn_out;
	}
	if (r->rx != NULL)
		g->skipped = r->rx->skipped;
	const struct perf_side *es = r->tx != NULL && r->tx->ext_flows != 0 ? r->tx : r->rx;
	if (es != NULL && es->ext_flows != 0) {
		g->ext_known = true;
		g->extensions = es->extensions;
	}
	const struct perf_side *ss =
		r->tx != NULL && r->tx->sched != PERF_SCHED_UNKNOWN ? r->tx : r->rx;
	g->sched = ss != NULL ? ss->sched : PERF_SCHED_UNKNOWN;
	if (r->rx != NULL) {
		g->recv_msgs = r->rx->c.msgs_recv;
		g->recv_bytes = r->rx->c.bytes_recv;
		g->sacks = r->rx->sum.sacks_out;
		g->data_pkts = r->rx_packets_total;
	} else {
		/* Acknowledged: the drain waited for it; abandoned messages never were. */
		g->recv_msgs = g->sent_msgs - g->aband_msgs;
		g->recv_bytes = g->sent_bytes - g->aband_bytes;
		g->sacks = r->tx != NULL ? r->tx->sum.sacks_in : 0;
		g->data_pkts = r->tx_packets_total;
	}
	g->sacks_per_pkt = g->data_pkts ? (double)g->sacks / (double)g->data_pkts : 0;
	g->target_mps = r->pace_mps;
	if (g->target_mps > 0) {
		g->target_bps = g->target_mps * r->wire.wire_bytes_per_msg * 8;
		g->sustained = g->rx_mps >= 0.99 * g->target_mps;
	}
}

/* The stream scheduler's name; NULL when not known (no association, the sidecar's). */
static const char *
sched_name(int sched)
{
	if (sched == PERF_SCHED_MIXED)
		return "mixed";
	return sched >= 0 ? dpsctp_config_sched_name((unsigned)sched) : NULL;
}

/* What was negotiated, and with a policy what it abandoned and what arrived. */
static void
report_pr_text(FILE *f, const struct perf_result *r, const struct figures *g)
{
	const struct perf_opts *o = r->o;
	char ext[64];
	perf_ext_names(g->extensions, ext, sizeof(ext));
	fprintf(f, "extensions negotiated: %s", g->ext_known ? ext : "(no association)");
	if (sched_name(g->sched) != NULL)
		fprintf(f, "; stream scheduler %s", sched_name(g->sched));
	fputc('\n', f);
	if (o->pr_policy == 0 && g->skipped == 0 && g->aband_msgs == 0)
		return;
	fprintf(f, "PR-SCTP %s %u: ", perf_pr_name(o->pr_policy), o->pr_value);
	if (r->tx != NULL)
		fprintf(f,
			"%" PRIu64 " messages (%" PRIu64 " bytes) abandoned, %" PRIu64
			" of them after going out",
			g->aband_msgs, g->aband_bytes, g->aband_sent);
	if (r->tx != NULL && !r->sidecar)
		fprintf(f, ", %" PRIu64 " FORWARD TSN sent", g->fwd_tsn_out);
	if (r->rx != NULL)
		fprintf(f, "%s%" PRIu64 " never arrived (gaps in the streams)",
			r->tx != NULL ? "; " : "", g->skipped);
	fprintf(f, "; goodput %.3f Gbit/s\n", g->rx_bps / 1e9);
}

/* --reset-every: the sender's resets, the receiver's view of them. */
static void
report_reset_text(FILE *f, const struct perf_result *r)
{
	const struct perf_side *tx = r->tx, *rx = r->rx;
	if (r->o->reset_ms <= 0 && (rx == NULL || rx->c.resets_in == 0))
		return;
	fprintf(f, "stream resets (RFC 6525)");
	if (tx != NULL && r->o->reset_ms > 0) {
		const struct perf_hist *h = &tx->reset_rtt;
		fprintf(f,
			": every %.3g ms, %" PRIu64 " performed, %" PRIu64 " denied, %" PRIu64
			" refused; round trip us p50 %.1f p99 %.1f max %.1f",
			r->o->reset_ms, tx->c.resets, tx->c.resets_denied, tx->c.resets_refused,
			perf_hist_quantile(h, 0.5) / 1e3, perf_hist_quantile(h, 0.99) / 1e3,
			(double)h->max / 1e3);
	}
	if (rx != NULL)
		fprintf(f, "; the receiver saw %" PRIu64, rx->c.resets_in);
	fputc('\n', f);
}

/* --busy's figures, when it ran. */
static void
busy_text(FILE *f, const struct perf_result *r)
{
	if (r->o->busy_s <= 0 || r->busy_s <= 0)
		return;
	fprintf(f,
		"busy %.1f s%s: %u associations at a time, %" PRIu64 " turns (%" PRIu64
		" distinct associations): %" PRIu64 " round trips, %.0f a second; server "
		"received %" PRIu64 ", echoed %" PRIu64 ", %" PRIu64 " echoes back; %" PRIu64
		" messages failed a check; RTT/2 p50 %.1f us, p99 "
		"%.1f us\n",
		r->busy_s, r->busy_cut ? " (cut short)" : "", r->busy_slots, r->busy_turns,
		r->busy_touched, r->busy_sent, (double)r->busy_answered / r->busy_s,
		r->busy_srv_recv, r->busy_srv_sent, r->busy_answered, r->busy_errors,
		r->busy_p50_us, r->busy_p99_us);
}

/* --handshakes: the close, and each phase's time and memory. */
static void
phases_text(FILE *f, const struct perf_result *r)
{
	if (r->n_phases == 0)
		return;
	if (strcmp(r->phases[r->n_phases - 1].name, "close") == 0)
		fprintf(f, "close: %u of %u associations shut down cleanly\n", r->closed_clean,
			r->close_of);
	fprintf(f, "%-10s %9s %12s %12s\n", "phase", "seconds", "heap MB", "resident MB");
	for (unsigned i = 0; i < r->n_phases; i++)
		fprintf(f, "%-10s %9.3f %12.1f %12.1f\n", r->phases[i].name, r->phases[i].seconds,
			(double)r->phases[i].heap_bytes / 1e6,
			(double)r->phases[i].rss_bytes / 1e6);
}

/* The same in the JSON document's "end". */
static void
phases_json(FILE *f, const struct perf_result *r)
{
	if (r->o->busy_s > 0 && r->busy_s > 0)
		fprintf(f,
			",\n    \"busy\": { \"seconds\": %.3f, \"stopped_early\": %s, "
			"\"slots\": %u, \"turns\": %" PRIu64 ", \"associations_touched\": %" PRIu64
			", \"round_trips\": %" PRIu64 ", \"round_trips_per_second\": %.0f, "
			"\"server_received\": %" PRIu64 ", \"server_echoed\": %" PRIu64
			", \"answered\": %" PRIu64 ", \"check_failures\": %" PRIu64
			", \"half_rtt_p50_us\": %.2f, \"half_rtt_p99_us\": %.2f }",
			r->busy_s, r->busy_cut ? "true" : "false", r->busy_slots, r->busy_turns,
			r->busy_touched, r->busy_sent, (double)r->busy_answered / r->busy_s,
			r->busy_srv_recv, r->busy_srv_sent, r->busy_answered, r->busy_errors,
			r->busy_p50_us, r->busy_p99_us);
	if (r->n_phases == 0)
		return;
	fprintf(f, ",\n    \"close\": { \"associations\": %u, \"closed_cleanly\": %u }",
		r->close_of, r->closed_clean);
	fprintf(f, ",\n    \"phases\": [");
	for (unsigned i = 0; i < r->n_phases; i++)
		fprintf(f,
			"%s\n      { \"name\": \"%s\", \"seconds\": %.3f, \"heap_bytes\": %zu, "
			"\"resident_bytes\": %zu }",
			i ? "," : "", r->phases[i].name, r->phases[i].seconds,
			r->phases[i].heap_bytes, r->phases[i].rss_bytes);
	fprintf(f, "\n    ]");
}

void
perf_report_end(FILE *f, const struct perf_result *r)
{
	const struct perf_opts *o = r->o;
	if (o->json)
		return;
	if (o->handshakes != 0) {
		fprintf(f,
			"handshakes: %u of %u associations established, %.0f per second\n"
			"memory: %.0f bytes per association (the server instance sized for %u: "
			"%zu bytes)\n",
			r->handshakes_done, o->handshakes, r->handshakes_per_s,
			r->mem_bytes_per_assoc, r->mem_sized_for, r->mem_total);
		if (r->idle_cut)
			fprintf(f,
				"idle: the window stopped after %.3f s of %.1f: an association "
				"was lost\n",
				r->idle_s, o->idle_s);
		for (int i = 0; r->idle_s > 0 && i < 2; i++)
			fprintf(f,
				"idle %.1f s, %s: %.0f HEARTBEATs/s sent (%.0f probing suspect "
				"paths), %.0f answered, %.0f deferred by --hb-rate; busy %.1f %% "
				"of "
				"its loop\n",
				r->idle_s, i == 0 ? "client" : "server", r->hb_per_s[i],
				r->hb_probes_per_s[i], r->hb_acks_per_s[i], r->hb_deferred_per_s[i],
				100.0 * r->busy_share[i]);
		if (r->idle_s > 0)
			fprintf(f,
				"idle: %.0f cycles per heartbeat (both ends' busy cycles: sent, "
				"answered, its ACK taken)\n",
				r->cycles_per_hb);
		busy_text(f, r);
		phases_text(f, r);
		return;
	}
	struct figures g;
	figures(r, &g);
	static const char *names[2] = { "sender", "receiver" };
	fprintf(f, "- - - - - - - - - - - - - - - - - - - - - - - - -\n");
	fprintf(f, "measured %.2f s: %.3f Gbit/s goodput, %.0f msg/s", g.secs, g.rx_bps / 1e9,
		g.rx_mps);
	if (r->sidecar)
		fprintf(f, " (through dpsctpd)\n");
	else
		fprintf(f, ", %.0f packets/s received\n", g.rx_pps);
	fprintf(f,
		"sent %" PRIu64 " messages (%" PRIu64 " bytes), received %" PRIu64 " (%" PRIu64
		" bytes)%s\n",
		g.sent_msgs, g.sent_bytes, g.recv_msgs, g.recv_bytes,
		r->rx == NULL ? " (acknowledged by the peer)" : "");
	for (int i = 0; i < 2; i++)
		if (g.have[i])
			fprintf(f, "%-8s: %.0f cycles/message, %.3f cycles/byte, idle %.1f %%\n",
				names[i], g.cpm[i], g.cpb[i], g.idle[i] * 100);
	if (r->sidecar)
		fprintf(f,
			"order errors %" PRIu64 " (packets, SACKs and retransmissions are "
			"dpsctpd's: not visible here)\n",
			g.errors);
	else {
		fprintf(f,
			"SACKs per DATA packet %.3f, retransmitted chunks %" PRIu64
			" (T3-rtx expiries %" PRIu64 ", of them undone as spurious %" PRIu64
			", chunks they marked and F-RTO did not resend %" PRIu64
			", fast retransmits %" PRIu64 "), order errors %" PRIu64 "\n",
			g.sacks_per_pkt, g.rtx, g.t3, g.t3_spur, g.t3_saved, g.frtx, g.errors);
		for (int i = 0; i < 2; i++)
			if (g.have[i])
				fprintf(f,
					"%-8s: polls more than 0.5/2/10/100 ms apart: %" PRIu64
					"/%" PRIu64 "/%" PRIu64 "/%" PRIu64 "\n",
					names[i], g.gaps[i][0], g.gaps[i][1], g.gaps[i][2],
					g.gaps[i][3]);
	}
	if (o->bidir && r->tx != NULL && r->rx != NULL)
		fprintf(f,
			"reverse (server to client): %.3f Gbit/s, %.0f msg/s, %" PRIu64
			" messages sent, %" PRIu64 " received\n",
			g.rev_bps / 1e9, g.rev_mps, r->rx->c.msgs_sent, r->tx->c.msgs_recv);
	else if (r->tx != NULL && !o->ping && r->tx->c.msgs_recv != 0)
		fprintf(f,
			"received back (an echo server): %.3f Gbit/s, %.0f msg/s, %" PRIu64
			" messages\n",
			g.rev_bps / 1e9, g.rev_mps, r->tx->c.msgs_recv);
	if (r->tx != NULL && r->tx->lat.n != 0) {
		const struct perf_hist *h = &r->tx->lat;
		fprintf(f,
			"latency (one way = RTT/2) us: p50 %.2f p90 %.2f p99 %.2f p99.9 %.2f max "
			"%.2f (%" PRIu64 " pings)\n",
			perf_hist_quantile(h, 0.5) / 1e3, perf_hist_quantile(h, 0.9) / 1e3,
			perf_hist_quantile(h, 0.99) / 1e3, perf_hist_quantile(h, 0.999) / 1e3,
			(double)h->max / 1e3, h->n);
	}
	if (r->rx != NULL && r->rx->lat.n != 0) {
		const struct perf_hist *h = &r->rx->lat;
		fprintf(f,
			"one way (the server's receive TSC - the ping's stamp) us: p50 %.2f p90 "
			"%.2f "
			"p99 %.2f p99.9 %.2f max %.2f\n",
			perf_hist_quantile(h, 0.5) / 1e3, perf_hist_quantile(h, 0.9) / 1e3,
			perf_hist_quantile(h, 0.99) / 1e3, perf_hist_quantile(h, 0.999) / 1e3,
			(double)h->max / 1e3);
	}
	if (g.target_mps > 0)
		fprintf(f,
			"rate: target %.3f Gbit/s on the wire (%.0f msg/s), %s; sender idle %.1f "
			"%%\n",
			g.target_bps / 1e9, g.target_mps,
			g.sustained ? "sustained" : "NOT sustained", g.idle[0] * 100);
	report_pr_text(f, r, &g);
	report_reset_text(f, r);
	if (r->stages_on)
		perf_stages_text(f, &r->stages);
	fflush(f);
}

/* "extensions" and "pr_sctp" of "end": null for what this end cannot see. */
static void
report_pr_json(FILE *f, const struct perf_result *r, const struct figures *g)
{
	char ext[64], am[24] = "null", ab[24] = "null", as[24] = "null", sk[24] = "null",
		      ft[24] = "null";
	snprintf(ext, sizeof(ext), "null");
	if (g->ext_known) {
		char names[56];
		perf_ext_names(g->extensions, names, sizeof(names));
		snprintf(ext, sizeof(ext), "\"%s\"", names);
	}
	if (r->tx != NULL) {
		snprintf(am, sizeof(am), "%" PRIu64, g->aband_msgs);
		snprintf(ab, sizeof(ab), "%" PRIu64, g->aband_bytes);
		snprintf(as, sizeof(as), "%" PRIu64, g->aband_sent);
		if (!r->sidecar)
			snprintf(ft, sizeof(ft), "%" PRIu64, g->fwd_tsn_out);
	}
	if (r->rx != NULL)
		snprintf(sk, sizeof(sk), "%" PRIu64, g->skipped);
	char sched[24] = "null";
	if (sched_name(g->sched) != NULL)
		snprintf(sched, sizeof(sched), "\"%s\"", sched_name(g->sched));
	fprintf(f,
		"    \"extensions\": %s, \"sched\": %s,\n    \"pr_sctp\": {\"policy\": \"%s\", "
		"\"value\": %u, "
		"\"abandoned_messages\": %s, \"abandoned_bytes\": %s, \"abandoned_after_sending\": "
		"%s, \"forward_tsn_sent\": %s, \"receiver_skipped\": %s, \"goodput_bps\": %.0f},\n",
		ext, sched, perf_pr_name(r->o->pr_policy), r->o->pr_value, am, ab, as, ft, sk,
		g->rx_bps);
}

void
perf_report_json(FILE *f, const struct perf_result *r)
{
	const struct perf_opts *o = r->o;
	struct figures g;
	figures(r, &g);
	/* JSON values for what a sidecar run cannot see. */
	char crc[40], pps[32], spp[32], rtx[32];
	snprintf(crc, sizeof(crc), "\"%s\"", dpsctp_crc32c_engine());
	snprintf(pps, sizeof(pps), "%.0f", g.rx_pps);
	snprintf(spp, sizeof(spp), "%.4f", g.sacks_per_pkt);
	snprintf(rtx, sizeof(rtx), "%" PRIu64, g.rtx);
	if (r->sidecar) {
		strcpy(crc, "null");
		strcpy(pps, "null");
		strcpy(spp, "null");
		strcpy(rtx, "null");
	}
	fprintf(f,
		"{\n  \"start\": {\"version\": \"%s\", \"role\": \"%s\", \"mode\": \"%s\", "
		"\"lcores\": \"%s\", \"tsc_hz\": %" PRIu64 ", \"crc32c\": %s,\n",
		dpsctp_version(), r->role,
		r->sidecar ? (r->zero_copy ? "sidecar-zero-copy" : "sidecar") : "embedded",
		r->lcores, r->hz, crc);
	fprintf(f,
		"    \"test\": {\"message_bytes\": %u, \"streams\": %u, \"assocs\": %u, "
		"\"seconds\": %.3f, \"omit\": %.3f, \"unordered\": %s, \"bidir\": %s, \"ping\": "
		"%s, \"ping_bytes\": %u, \"ping_interval_us\": %.3f, \"rate_bps\": %.0f, \"pps\": "
		"%.0f, \"handshakes\": %u, "
		"\"burst\": %u, "
		"\"pr_policy\": \"%s\", \"pr_value\": %u}},\n",
		o->len, o->streams, o->assocs, o->seconds, o->omit, o->unordered ? "true" : "false",
		o->bidir ? "true" : "false", o->ping ? "true" : "false", o->ping_len, o->ping_us,
		o->rate_bps, o->pps, o->handshakes, o->burst, perf_pr_name(o->pr_policy),
		o->pr_value);
	fprintf(f, "  \"intervals\": [");
	for (unsigned i = 0; i < n_kept; i++) {
		double t = kept[i].end - kept[i].start;
		fprintf(f,
			"%s\n    {\"sum\": {\"start\": %.3f, \"end\": %.3f, \"bytes\": %" PRIu64
			", \"messages\": %" PRIu64 ", \"bits_per_second\": %.0f}}",
			i ? "," : "", kept[i].start, kept[i].end, kept[i].bytes, kept[i].msgs,
			t > 0 ? (double)kept[i].bytes * 8 / t : 0);
	}
	fprintf(f, "\n  ],\n  \"end\": {\n");
	if (r->stages_on)
		perf_stages_json(f, &r->stages);
	if (o->handshakes != 0) {
		fprintf(f,
			"    \"handshakes\": %u, \"handshakes_per_second\": %.0f,\n"
			"    \"memory_bytes_per_assoc\": %.1f, \"memory_total_bytes\": %zu, "
			"\"memory_sized_for_assocs\": %u",
			r->handshakes_done, r->handshakes_per_s, r->mem_bytes_per_assoc,
			r->mem_total, r->mem_sized_for);
		if (r->idle_s > 0)
			fprintf(f,
				",\n    \"idle\": { \"seconds\": %.3f, \"stopped_early\": %s, "
				"\"cycles_per_heartbeat\": %.0f, "
				"\"client\": { \"heartbeats_per_s\": %.0f, \"probes_per_s\": %.0f, "
				"\"acks_per_s\": %.0f, \"deferred_per_s\": %.0f, \"busy_share\": "
				"%.4f }, "
				"\"server\": { \"heartbeats_per_s\": %.0f, \"probes_per_s\": %.0f, "
				"\"acks_per_s\": %.0f, \"deferred_per_s\": %.0f, \"busy_share\": "
				"%.4f } }",
				r->idle_s, r->idle_cut ? "true" : "false", r->cycles_per_hb,
				r->hb_per_s[0], r->hb_probes_per_s[0], r->hb_acks_per_s[0],
				r->hb_deferred_per_s[0], r->busy_share[0], r->hb_per_s[1],
				r->hb_probes_per_s[1], r->hb_acks_per_s[1], r->hb_deferred_per_s[1],
				r->busy_share[1]);
		phases_json(f, r);
		fprintf(f, "\n  }\n}\n");
		fflush(f);
		return;
	}
	fprintf(f,
		"    \"sum_sent\": {\"bytes\": %" PRIu64 ", \"messages\": %" PRIu64
		", \"seconds\": %.6f, \"bits_per_second\": %.0f, \"messages_per_second\": %.0f},\n",
		g.sent_bytes, g.sent_msgs, g.secs, g.tx_bps, g.tx_mps);
	fprintf(f,
		"    \"sum_received\": {\"bytes\": %" PRIu64 ", \"messages\": %" PRIu64
		", \"seconds\": %.6f, \"bits_per_second\": %.0f, \"messages_per_second\": %.0f, "
		"\"packets_per_second\": %s, \"acknowledged_only\": %s},\n",
		g.recv_bytes, g.recv_msgs, g.secs, g.rx_bps, g.rx_mps, pps,
		r->rx == NULL ? "true" : "false");
	/* What the client received: --bidir's traffic, or an echo server's answers. */
	if (r->tx != NULL && ((o->bidir && r->rx != NULL) || (!o->ping && r->tx->c.msgs_recv != 0)))
		fprintf(f,
			"    \"reverse\": {\"bytes\": %" PRIu64 ", \"messages\": %" PRIu64
			", \"bits_per_second\": %.0f, \"messages_per_second\": %.0f},\n",
			r->tx->c.bytes_recv, r->tx->c.msgs_recv, g.rev_bps, g.rev_mps);
	static const char *names[2] = { "sender", "receiver" };
	const char *objs[3] = { "cycles_per_message", "cycles_per_byte", "idle_fraction" };
	for (int k = 0; k < 3; k++) {
		fprintf(f, "    \"%s\": {", objs[k]);
		for (int i = 0; i < 2; i++) {
			double v = k == 0 ? g.cpm[i] : k == 1 ? g.cpb[i] : g.idle[i];
			if (g.have[i])
				fprintf(f, "%s\"%s\": %.4f", i ? ", " : "", names[i], v);
			else
				fprintf(f, "%s\"%s\": null", i ? ", " : "", names[i]);
		}
		fprintf(f, "},\n");
	}
	fprintf(f,
		"    \"sacks_per_data_packet\": %s, \"retransmits\": %s, \"errors\": %" PRIu64
		",\n",
		spp, rtx, g.errors);
	if (!r->sidecar) {
		/* The sender's: null on a server. */
		char t3[24] = "null", sp[24] = "null", sv[24] = "null", fr[24] = "null";
		if (r->tx != NULL) {
			snprintf(t3, sizeof(t3), "%" PRIu64, g.t3);
			snprintf(sp, sizeof(sp), "%" PRIu64, g.t3_spur);
			snprintf(sv, sizeof(sv), "%" PRIu64, g.t3_saved);
			snprintf(fr, sizeof(fr), "%" PRIu64, g.frtx);
		}
		fprintf(f,
			"    \"t3_expiries\": %s, \"t3_spurious\": %s, \"t3_rtx_saved\": %s,\n"
			"    \"fast_retransmits\": %s,\n"
			"    \"poll_gaps_over_0.5_2_10_100_ms\": {",
			t3, sp, sv, fr);
		for (int i = 0; i < 2; i++) {
			if (g.have[i])
				fprintf(f,
					"%s\"%s\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64
					"]",
					i ? ", " : "", names[i], g.gaps[i][0], g.gaps[i][1],
					g.gaps[i][2], g.gaps[i][3]);
			else
				fprintf(f, "%s\"%s\": null", i ? ", " : "", names[i]);
		}
		fprintf(f, "},\n");
	}
	report_pr_json(f, r, &g);
	if (g.target_mps > 0)
		fprintf(f,
			"    \"rate\": {\"target_wire_bps\": %.0f, \"target_messages_per_second\": "
			"%.0f, \"wire_bytes_per_message\": %.2f, \"sustained\": %s, "
			"\"sender_idle_fraction\": %.4f},\n",
			g.target_bps, g.target_mps, r->wire.wire_bytes_per_msg,
			g.sustained ? "true" : "false", g.idle[0]);
	if (r->tx != NULL && r->tx->lat.n != 0) {
		const struct perf_hist *h = &r->tx->lat;
		fprintf(f,
			"    \"latency_us\": {\"one_way\": \"rtt/2\", \"samples\": %" PRIu64
			", \"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, \"p999\": %.3f, \"max\": "
			"%.3f},\n",
			h->n, perf_hist_quantile(h, 0.5) / 1e3, perf_hist_quantile(h, 0.9) / 1e3,
			perf_hist_quantile(h, 0.99) / 1e3, perf_hist_quantile(h, 0.999) / 1e3,
			(double)h->max / 1e3);
	}
	if (r->rx != NULL && r->rx->lat.n != 0) {
		const struct perf_hist *h = &r->rx->lat;
		fprintf(f,
			"    \"one_way_latency_us\": {\"clock\": \"one tsc\", \"samples\": %" PRIu64
			", \"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, \"p999\": %.3f, \"max\": "
			"%.3f},\n",
			h->n, perf_hist_quantile(h, 0.5) / 1e3, perf_hist_quantile(h, 0.9) / 1e3,
			perf_hist_quantile(h, 0.99) / 1e3, perf_hist_quantile(h, 0.999) / 1e3,
			(double)h->max / 1e3);
	}
	if (r->o->reset_ms > 0 && r->tx != NULL) {
		const struct perf_hist *h = &r->tx->reset_rtt;
		char in[24] = "null";
		if (r->rx != NULL)
			snprintf(in, sizeof(in), "%" PRIu64, r->rx->c.resets_in);
		fprintf(f,
			"    \"stream_resets\": {\"every_ms\": %.3f, \"performed\": %" PRIu64
			", \"denied\": %" PRIu64 ", \"refused\": %" PRIu64
			", \"receiver_saw\": %s, \"rtt_us\": {\"p50\": %.3f, \"p99\": %.3f, "
			"\"max\": %.3f}},\n",
			r->o->reset_ms, r->tx->c.resets, r->tx->c.resets_denied,
			r->tx->c.resets_refused, in, perf_hist_quantile(h, 0.5) / 1e3,
			perf_hist_quantile(h, 0.99) / 1e3, (double)h->max / 1e3);
	} else if (r->rx != NULL && r->rx->c.resets_in != 0)
		/* A receiver alone (a server): the peer's resets it was told of. */
		fprintf(f,
			"    \"stream_resets\": {\"every_ms\": null, \"performed\": null, "
			"\"denied\": null, \"refused\": null, \"receiver_saw\": %" PRIu64
			", \"rtt_us\": null},\n",
			r->rx->c.resets_in);
	fprintf(f, "    \"lcores\": \"%s\"\n  }\n}\n", r->lcores);
	fflush(f);
}
