/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctp-perf: an iperf for SCTP on the embedded data plane. The pieces:
 *
 *   perf_opts.c     command line -> struct perf_opts (and --help)
 *   perf_hist.c     latency histogram: log-linear, fixed memory
 *   perf_wire.c     the Ethernet wire model behind --rate and the verdict
 *   perf_flow.c     one association's traffic: send, sink, echo, ping
 *   perf_side.c     one end (an instance and its flows) and its poll loop
 *   perf_busy.c     --busy: round trips on a random share of --handshakes' associations
 *   perf_report.c   interval lines, the summary, the JSON document
 *   perf_sidecar.c  --sidecar: one end through dpsctpd (libdpsctp-client), no EAL
 *   main.c          roles (server, client, loopback) and the run's phases
 *
 * Threads. Every instance is polled by the application (dpsctp_poll()),
 * never dpsctp_start()ed, so each end belongs to the lcore that polls it
 * and every API call runs at once. Counters an end's lcore writes and the
 * main lcore reads for interval lines are 64-bit, written by one thread
 * and read with relaxed atomics.
 *
 * Messages carry a 16-byte header (struct perf_hdr) so the receiver checks
 * order per stream, answers pings and mirrors --bidir with no side
 * channel; messages from other tools (no magic) are counted, not checked.
 */
#ifndef DPSCTP_PERF_H
#define DPSCTP_PERF_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dataplane/config.h"
#include "dataplane/dpsctp.h"

#define PERF_PORT_DEFAULT 5001
#define PERF_MAX_ASSOCS	  65536u /* -P, and flows a server keeps */
#define PERF_MAX_STREAMS  1024u	 /* -S */
/*
 * --handshakes: a listening port (of --listeners) for each 16,384 ephemeral
 * ports of the client, 62 for a million; the instances' --max-assocs (2^20
 * per worker) bounds it too.
 */
#define PERF_MAX_HANDSHAKES 1000000u
#define PERF_HS_PORT_SPAN   16384u
#define PERF_MIN_LEN	    16u /* the header */
/* -l: up to --sndbuf (checked at start). Messages above PERF_SEG_MAX do not
 * fit one mbuf segment (16-bit lengths): they go as a chain, which the
 * library copies into one buffer (docs/API.md). */
#define PERF_MAX_LEN (16u << 20)
#define PERF_SEG_MAX 65000u /* --ping-length, and answers (echo, --bidir) at most */
#define PERF_MAGIC   0xd5c7u

/* struct perf_hdr.flags */
#define PERF_F_PING  0x1u /* echo this message back (ping request) */
#define PERF_F_PONG  0x2u /* an echoed ping */
#define PERF_F_BIDIR 0x4u /* the sender wants traffic back (--bidir) */
/* Sent with a PR-SCTP policy (--pr-policy): the sender may abandon it, so a
 * gap before it in its stream's seq is a message abandoned, not an error. */
#define PERF_F_PR 0x8u

/*
 * The PPID of every message (no registered protocol; its four bytes differ,
 * so a PPID byte-swapped anywhere between two ends shows): as a number
 * through the embedded API, in network order through the sidecar's (as
 * lksctp's sinfo_ppid). A message of ours with another PPID is an error.
 */
#define PERF_PPID 0x64707066u /* "dppf" */

/* The first 16 bytes of every message, big-endian on the wire. */
struct perf_hdr {
	uint32_t seq;	/* per stream, from 0 */
	uint16_t magic; /* PERF_MAGIC */
	uint16_t flags; /* PERF_F_* */
	uint64_t tsc;	/* sender's TSC at send (pings) */
};

/* A message's first 16 bytes from a header's fields. */
static inline void
perf_hdr_write(uint8_t *p, uint32_t seq, uint16_t flags, uint64_t tsc)
{
	struct perf_hdr h = { htobe32(seq), htobe16(PERF_MAGIC), htobe16(flags), htobe64(tsc) };
	memcpy(p, &h, sizeof(h));
}

/* The header in a message's first 16 bytes: false when short or without the magic. */
static inline bool
perf_hdr_decode(const void *p, uint32_t len, struct perf_hdr *h)
{
	if (len < sizeof(*h))
		return false;
	memcpy(h, p, sizeof(*h));
	if (be16toh(h->magic) != PERF_MAGIC)
		return false;
	h->seq = be32toh(h->seq);
	h->magic = PERF_MAGIC;
	h->flags = be16toh(h->flags);
	h->tsc = be64toh(h->tsc);
	return true;
}

struct perf_opts {
	bool server, loopback, one_off, echo, json, unordered, bidir, ping, stats;
	bool stages;	     /* --stages: --stage-cycles on, and the figures at the end */
	bool memory;	     /* --memory: size the server end, report, exit */
	const char *peer;    /* -c ADDR[,ADDR] */
	const char *sidecar; /* --sidecar SOCKET: through dpsctpd, no instance of our own */
	bool zero_copy;	     /* --zero-copy: received messages by reference (with --sidecar) */
	uint16_t sctp_port;  /* --sctp-port */
	double seconds;	     /* -t */
	double interval;     /* -i, 0 = none */
	double omit;	     /* seconds not measured at the start (warm-up) */
	uint32_t len;	     /* -l */
	uint32_t ping_len;   /* --ping-length; resolved to min(-l, PERF_SEG_MAX) without it */
	double ping_us;	     /* --ping-interval, us; 0 = one ping in flight at a time */
	uint16_t streams;    /* -S */
	uint32_t assocs;     /* -P */
	double rate_bps;     /* --rate, wire bits/s, 0 = as fast as possible */
	double pps;	     /* --pps, DATA packets/s, 0 = none */
	uint32_t handshakes; /* --handshakes N, 0 = a traffic test */
	double idle_s;	     /* --idle: seconds the associations stay up idle after, 0 = none */
	double busy_s;	     /* --busy: seconds of traffic on a random share of them, 0 = none */
	double busy_share;   /* --busy-share: that share, percent of the associations */
	bool line_rate_10g;  /* --rate 10g (for the verdict's wording) */
	unsigned burst;	     /* messages sent per flow and loop iteration */
	int pr_policy;	     /* --pr-policy: DPSCTP_PR_TTL, _RTX, _PRIO; 0 reliable */
	uint32_t pr_value;   /* --pr-value: TTL ms, RTX retransmissions, PRIO priority */
	double reset_ms;     /* --reset-every: an outgoing stream reset every MS ms, 0 none */
};

/* --pr-policy's word for a DPSCTP_PR_* ("none" for 0). */
const char *perf_pr_name(int policy);
/* The names of DPSCTP_EXT_* bits as --extensions takes them ("none" for 0), into buf. */
void perf_ext_names(uint32_t ext, char *buf, size_t len);
/* The bytes a side's payload buffer holds: every message it sends or answers with. */
static inline uint32_t
perf_payload_len(const struct perf_opts *o)
{
	return o->len > PERF_SEG_MAX ? o->len : PERF_SEG_MAX;
}

int perf_opts_parse(struct perf_opts *o, int argc, char **argv, char *err, size_t errlen);
void perf_opts_usage(FILE *f);

/* ---- histogram (perf_hist.c) ---- */
#define PERF_HIST_SUB  32u /* linear buckets per power of two: < 3.2 % error */
#define PERF_HIST_EXPS 48u /* up to 2^48 ns */
struct perf_hist {
	uint64_t n, max, sum;
	uint64_t b[PERF_HIST_EXPS * PERF_HIST_SUB];
};
void perf_hist_add(struct perf_hist *h, uint64_t v);
void perf_hist_merge(struct perf_hist *into, const struct perf_hist *h);
/* The value at quantile q (0..1): the upper edge of its bucket; 0 when empty. */
uint64_t perf_hist_quantile(const struct perf_hist *h, double q);

/* ---- wire model (perf_wire.c) ---- */
struct perf_wire {
	uint32_t msgs_per_pkt;	   /* messages bundled in one full packet (1 when larger) */
	uint32_t pkts_per_msg;	   /* DATA packets one message needs (fragments) */
	double wire_bytes_per_msg; /* incl. preamble 8, IFG 12, FCS 4, headers */
};
/* idata: the chunks are I-DATA's (the extensions this end offers; a peer
 * without I-DATA makes them DATA's, 4 bytes a chunk less than modelled). */
void perf_wire_model(struct perf_wire *w, uint32_t len, uint16_t mtu, bool ipv6, bool udp,
		     bool idata);

/* ---- one end (perf_side.c, perf_flow.c) ---- */
struct perf_side;

struct perf_flow {
	struct perf_side *side;
	struct dpsctp_assoc *a;
	bool up, ended, sender, lost;
	bool blocked;	    /* the send buffer refused: wait for on_space */
	bool blocked_nomem; /* no mbuf: retry next iteration */
	uint32_t len;	    /* message size when sending */
	uint32_t *seq_out;  /* next seq per outbound stream */
	uint32_t *seq_in;   /* expected seq per inbound stream */
	uint16_t streams, in_streams, next_sid;
	/* --reset-every (RFC 6525): the bulk stream being reset (no message is
	 * queued on it meanwhile), -1 for none; whether its request went, when
	 * (TSC), and when the next reset is due. */
	int32_t resetting;
	bool reset_asked, resets_off; /* off: a call was refused (not negotiated) */
	uint16_t reset_next;	      /* the stream the next reset takes */
	uint64_t reset_tsc, next_reset_tsc;
	bool ping_outstanding;
	bool busy;		/* --busy: the flow holds a busy slot (perf_busy.c) */
	uint64_t next_ping_tsc; /* --ping-interval: the next ping's scheduled time */
	/* A ping's echo the send buffer refused (one outstanding per flow). */
	bool pong_due;
	uint16_t pong_sid;
	uint32_t pong_len;
	uint64_t pong_tsc;
	/* --echo: messages owed to the peer, and their size. */
	uint64_t owed;
	uint32_t owed_len;
	struct dpsctp_assoc_stats final; /* at the end event */
};

/* Counters an end's lcore writes and the main lcore reads (relaxed). */
struct perf_counts {
	uint64_t msgs_sent, bytes_sent;
	uint64_t msgs_recv, bytes_recv;
	uint64_t busy_cycles, loop_cycles, polls, idle_polls;
	uint64_t pings;
	/* SEND_FAILED of a PR-SCTP policy: messages abandoned, their bytes, and
	 * how many of them had gone on the wire at least in part. */
	uint64_t abandoned_msgs, abandoned_bytes, abandoned_sent;
	/* --reset-every: our outgoing stream resets performed, answered denied or
	 * failed, refused by the call (the error, e.g. not negotiated); and the
	 * peer's resets of its outgoing streams (our incoming ones) seen. */
	uint64_t resets, resets_denied, resets_refused, resets_in;
};

enum perf_phase {
	PERF_RUN = 0, /* traffic */
	PERF_DRAIN,   /* senders stop; queued data goes out */
	PERF_CLOSE,   /* shut every association down */
	PERF_EXIT,    /* loops return */
};

struct perf_side {
	const char *name; /* "client", "server" */
	struct dpsctp *d;
	const struct perf_opts *o;
	bool is_client;
	struct perf_flow *flows;
	uint32_t n_flows, max_flows, flows_up, flows_ended, flows_lost;
	uint64_t errors;   /* order, length or header errors */
	uint64_t refused;  /* sends refused for another reason than no room */
	uint64_t restarts; /* the peer restarted an association (RFC 9260 §5.2) */
	uint64_t skipped;  /* messages missing before a PERF_F_PR one: abandoned by the sender */
	/* What the associations negotiated (DPSCTP_EXT_*): the bits every one of
	 * them has, once ext_flows (the associations that said) is not 0. */
	uint32_t extensions, ext_flows;
	/* The stream scheduler (DPSCTP_SCHED_*) of the associations that came up:
	 * PERF_SCHED_UNKNOWN before one did (or through the sidecar),
	 * PERF_SCHED_MIXED when they differ. */
	int sched;
	struct perf_counts c;
	/* The client's: ping RTT/2 in ns. A --loopback server's: one way, its
	 * receive TSC less the ping's stamp (one process, one clock). */
	struct perf_hist lat;
	/* --reset-every: a reset's round trip (request to its event), ns. */
	struct perf_hist reset_rtt;
	uint64_t reset_every_tsc;
	/* Pacing: messages this side may send by now (token bucket). */
	double msgs_per_tsc, tokens, tokens_max;
	unsigned pace_batch; /* messages sent at once when paced */
	uint64_t last_tsc;
	uint64_t hz;
	uint64_t ping_tsc; /* --ping-interval in TSC ticks, 0 = one ping in flight */
	uint8_t *payload;  /* a message's bytes, perf_payload_len() */
	uint32_t payload_len;
	uint32_t copy_max;	      /* at or below: dpsctp_send_bytes() */
	uint32_t room;		      /* payload bytes an mbuf of the instance's pool holds */
	struct rte_mempool *big_pool; /* single-segment mbufs for large messages */
	uint32_t big_room;	      /* the bytes one of them holds */
	/* Sum of the flows' final statistics. */
	struct dpsctp_assoc_stats sum;
	volatile int *phase;
	uint64_t established_tsc; /* last COMM_UP (handshakes) */
	/* --handshakes: a ping's echo the send buffer refused is owed by some
	 * flow; the loop (which pumps no flow then) looks for it. */
	bool pong_retry;
};

int perf_side_init(struct perf_side *s, const char *name, struct dpsctp *d,
		   const struct perf_opts *o, bool client, uint32_t max_flows, volatile int *phase,
		   uint32_t copy_max, uint32_t sndbuf);
void perf_side_fini(struct perf_side *s);
/* One loop iteration: poll, send what the flows may, account cycles. */
void perf_side_iterate(struct perf_side *s);
/* Set the pacing rate from the options (0: unpaced). */
void perf_side_pace(struct perf_side *s, double msgs_per_s);
/* Open -P associations to the peers (the client). */
int perf_side_connect(struct perf_side *s, const struct sctp_addr *peers, unsigned n, uint16_t port,
		      uint32_t count);
/*
 * A received message's seq against what its ordered stream expects next: a
 * gap before a PERF_F_PR message is messages its sender abandoned
 * (skipped), anything else out of order is an error.
 */
static inline void
perf_seq_check(struct perf_side *s, uint32_t *expect, const struct perf_hdr *h)
{
	int32_t ahead = (int32_t)(h->seq - *expect);
	if (ahead > 0 && (h->flags & PERF_F_PR) != 0)
		s->skipped += (uint32_t)ahead;
	else if (ahead != 0)
		s->errors++;
	*expect = h->seq + 1;
}

/* An association came up having negotiated ext (DPSCTP_EXT_*). */
static inline void
perf_side_extensions(struct perf_side *s, uint32_t ext)
{
	s->extensions = s->ext_flows++ == 0 ? ext : s->extensions & ext;
}

#define PERF_SCHED_UNKNOWN (-1)
#define PERF_SCHED_MIXED   (-2)

/* An association came up with stream scheduler sched (dpsctp_sched(); < 0: not known). */
static inline void
perf_side_sched(struct perf_side *s, int sched)
{
	if (sched < 0)
		return;
	s->sched = s->sched == PERF_SCHED_UNKNOWN || s->sched == sched ? sched : PERF_SCHED_MIXED;
}

/* Read a counter written by the side's lcore. */
static inline uint64_t
perf_load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}
static inline void
perf_add(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, *p + v, __ATOMIC_RELAXED);
}

extern const struct dpsctp_callbacks perf_callbacks;	    /* arg: the flow */
extern const struct dpsctp_callbacks perf_listen_callbacks; /* arg: the side */
/* Send what the flow may now; true when it sent anything. */
bool perf_flow_pump(struct perf_flow *f);
bool perf_flow_drained(const struct perf_flow *f);
/*
 * One ping (PERF_F_PING, --ping-length bytes) on the flow's next stream,
 * for --busy: the per-stream sequence numbers taken on first use. 0, or
 * the send's error (the caller tries again later).
 */
int perf_flow_ping(struct perf_flow *f);

/*
 * --busy (perf_busy.c), on the client's lcore: a random --busy-share of the
 * associations at a time make PERF_BUSY_ROUNDS round trips each (a ping
 * and its echo, every byte checked at both ends), then another random
 * association takes the slot. The main lcore turns it ON, then STOP; the
 * client's lcore says DONE once no ping is outstanding.
 */
#define PERF_BUSY_ROUNDS 8u
enum perf_busy_state { PERF_BUSY_OFF = 0, PERF_BUSY_ON, PERF_BUSY_STOP, PERF_BUSY_DONE };
struct perf_busy {
	int state;	/* enum perf_busy_state: __atomic, two threads */
	uint32_t n;	/* slots: associations busy at once */
	uint32_t *slot; /* the flow in each slot, UINT32_MAX: empty */
	uint8_t *left;	/* round trips its flow still makes */
	uint64_t rng;
	/* Written by the client's lcore, read once DONE. */
	uint64_t turns;	  /* associations made busy (one may come again) */
	uint64_t touched; /* distinct associations made busy */
};
int perf_busy_init(struct perf_busy *b, uint32_t n_assocs, double share_pct);
void perf_busy_fini(struct perf_busy *b);
void perf_busy_step(struct perf_busy *b, struct perf_side *s);

/* ---- report (perf_report.c) ---- */
struct perf_snap {
	uint64_t tsc;
	struct perf_counts c[2]; /* [0] sender side, [1] receiver side */
	uint64_t rx_packets[2];
};

/* --stages (perf_stages.c): each end's stage cycles, read at the end of the run. */
#define PERF_STAGES_MAX 24
struct perf_stages_end {
	unsigned n; /* stages read; 0: no such end, or --stage-cycles off there */
	const char *name[PERF_STAGES_MAX];
	uint64_t cycles[PERF_STAGES_MAX], events[PERF_STAGES_MAX];
	uint64_t packets; /* the worker's rx_packets + tx_packets */
};
struct perf_stages {
	double tsc_read;	       /* cycles of one rte_rdtsc() */
	struct perf_stages_end end[2]; /* client, server */
};
void perf_stages_snap(struct perf_stages *s, const struct dpsctp *client,
		      const struct dpsctp *server);
void perf_stages_text(FILE *f, const struct perf_stages *s);
void perf_stages_json(FILE *f, const struct perf_stages *s);

struct perf_result {
	const struct perf_opts *o;
	const char *role; /* "client", "server", "loopback" */
	/* --sidecar: the data plane is dpsctpd's, so its packet, SACK and
	 * retransmission counts are not ours to see (reported as null). */
	bool sidecar;
	bool zero_copy; /* sidecar: received messages came by reference */
	uint64_t hz;
	struct perf_side *tx, *rx; /* either may be NULL (a remote end) */
	struct perf_snap start, end;
	struct perf_wire wire;
	double pace_mps;	   /* --rate / --pps as messages/s, 0 = none */
	uint64_t rx_packets_total; /* the receiving end's frames, whole test */
	uint64_t tx_packets_total; /* the sending end's frames, whole test */
	/* --handshakes */
	double handshakes_per_s;
	double mem_bytes_per_assoc;
	size_t mem_total;
	uint32_t mem_sized_for;
	uint32_t handshakes_done;
	/*
	 * --idle: heartbeats over the idle window, per end ([0] client, [1]
	 * server): HEARTBEATs and HEARTBEAT ACKs sent, of the HEARTBEATs those
	 * probing a suspect path, and heartbeats deferred by --hb-rate, each per
	 * second; the end's busy share of its loop; and the
	 * busy cycles of both ends per HEARTBEAT sent by either (one heartbeat
	 * sent, answered and its ACK taken).
	 */
	double idle_s;
	bool idle_cut; /* the window stopped early: an association was lost */
	double hb_per_s[2], hb_acks_per_s[2], hb_deferred_per_s[2], hb_probes_per_s[2];
	double busy_share[2];
	double cycles_per_hb;
	/*
	 * --busy: how long, the slots, the associations that took one (turns)
	 * and how many distinct; round trips (pings the client sent, the server
	 * received and echoed, the client received back) and the messages of
	 * either end that failed a check; and the client's RTT/2 percentiles.
	 */
	double busy_s;
	bool busy_cut; /* stopped early: an association was lost, or pings never came back */
	uint32_t busy_slots;
	uint64_t busy_turns, busy_touched;
	uint64_t busy_sent, busy_srv_recv, busy_srv_sent, busy_answered, busy_errors;
	double busy_p50_us, busy_p99_us;
	/*
	 * --handshakes: the run's phases (handshakes, idle, busy, close), each
	 * one's seconds and, at its end, the EAL heap both ends hold and the
	 * process's resident memory; and the close: associations shut down
	 * cleanly (SHUTDOWN COMPLETE) of those up.
	 */
	struct perf_phase_mark {
		const char *name;
		double seconds;
		size_t heap_bytes, rss_bytes;
	} phases[4];
	unsigned n_phases;
	uint32_t closed_clean, close_of;
	char lcores[64];
	bool stages_on; /* --stages: stages holds both ends' */
	struct perf_stages stages;
};

void perf_report_interval(FILE *f, const struct perf_result *r, const struct perf_snap *a,
			  const struct perf_snap *b, bool json_only);
void perf_report_end(FILE *f, const struct perf_result *r);
void perf_report_json(FILE *f, const struct perf_result *r);
/* Record an interval for the JSON document (kept, bounded). */
void perf_report_keep_interval(const struct perf_result *r, const struct perf_snap *a,
			       const struct perf_snap *b);
/* Forget the kept intervals (a server's next test). */
void perf_report_reset(void);

/* ---- --sidecar (perf_sidecar.c) ---- */
/*
 * Run the -s or -c role of @p o through dpsctpd at o->sidecar, on SCTP port
 * @p port; no EAL. The exit status: 0, 1 the test failed, 2 a bad peer
 * list, 3 no daemon (or it refused to listen).
 */
int perf_sidecar_run(const struct perf_opts *o, uint16_t port);
/*
 * The data-plane keys of the per-association options (--rto-min, ...,
 * docs/OPTIONS.md) that --sidecar takes: perf_sidecar_opts() makes them the
 * application's defaults in dpsctpd. The other data-plane keys are dpsctpd's.
 */
bool perf_sidecar_key(const char *name);
/* cfg's per-association option keys, for perf_sidecar_run() (before it). */
void perf_sidecar_opts(const struct dpsctp_config *cfg);

#endif /* DPSCTP_PERF_H */
