/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dd_soak: one application of the soak (tests/soak/soak.py, docs/TESTING.md
 * "Soak"). It attaches to dpsctpd, keeps a few associations with the
 * daemon's loopback echo peer open at a time, and churns them: each one
 * sends a random number of numbered messages (random stream, ordered or
 * not, random length, bytes derived from the message's number) and ends
 * either gracefully, once every echo is back, or with an ABORT at a random
 * point. It never stops by itself: SIGTERM makes it finish what it has
 * (every echo, then SHUTDOWN) and detach.
 *
 *   dd_soak SOCKET LEDGER CLIENT_ID SEED RATE
 *
 * RATE caps the messages sent per second (0: as fast as the echoes come
 * back), so that a 30-minute soak writes a ledger soak.py can read.
 *
 * Every fact goes into LEDGER, one line each, written before the next poll
 * (a SIGKILL loses at most the lines of one loop turn, never a line in the
 * middle of the file):
 *
 *   S serial seq sid unordered len   the message was handed to the library
 *   D serial seq                     its echo came back intact
 *   F serial seq reason              its sender was told it failed
 *   V serial seq what                a violation (duplicate, order, bytes)
 *   A serial event                   connect, up, cant_start, shutdown, abort,
 *                                    closed, lost
 *   K id                             attached (the daemon's id for it)
 *   R                                the daemon went (-ECONNRESET); attach again
 *   E                                a clean end: every message has its fate
 *
 * A message's fate is an echo (D) or a report to the sender (F): a send
 * completion with an error, SEND_FAILED (by its context), the end of its
 * association before its echo (COMM_LOST after our ABORT or otherwise), or
 * the daemon's loss. The checks here are what only the receiver can see:
 * bytes, stream, PPID and U bit, one echo per message, and order per
 * stream for the ordered ones; the totals are soak.py's, from the ledger.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "dataplane/sidecar/dpsctp_client.h"

#define SOAK_MAGIC   0x534f414bu /* "SOAK" */
#define SOAK_HDR     20u	 /* magic, client, serial, seq, len: five u32 */
#define SOAK_STREAMS 8u		 /* streams 0..5 ordered, 6..7 unordered */
#define SOAK_ORDERED 6u
#define SOAK_ASSOCS  3u	  /* associations open at once */
#define SOAK_WINDOW  48u  /* messages sent and not yet echoed, per association */
#define SOAK_MSGS    400u /* at most this many messages per association */
#define SOAK_LEN_MAX 4000u
#define SOAK_PORT    5001u
#define SOAK_DRAIN_S 30.0 /* after SIGTERM: time for the last echoes */

enum msg_state { MSG_NONE, MSG_SENT, MSG_DELIVERED, MSG_FAILED };
enum as_state { AS_FREE, AS_CONNECTING, AS_UP, AS_CLOSING };

struct soak_assoc {
	enum as_state state;
	uint64_t handle;
	uint32_t serial;
	uint32_t msgs;	   /* to send */
	uint32_t sent;	   /* handed to the library */
	uint32_t done;	   /* delivered or failed */
	uint32_t abort_at; /* abort after this many sent; UINT32_MAX: graceful */
	bool aborted;	   /* our ABORT posted */
	int64_t last_seq[SOAK_STREAMS];
	uint8_t st[SOAK_MSGS];
};

static volatile sig_atomic_t stop_requested;
static uint32_t client_id;
static uint64_t rng;
static int ledger_fd;
static char lbuf[1 << 16];
static size_t llen;
static struct soak_assoc as[SOAK_ASSOCS];
static uint32_t next_serial = 1;
static double rate, t_start;
static unsigned long long n_sent, n_deliv, n_fail, n_viol, n_up, n_abort, n_shut, n_resets;

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The message's bytes after its header: a function of who sent it and its number. */
static void
soak_body(uint8_t *b, uint32_t len, uint32_t serial, uint32_t seq)
{
	uint64_t s = ((uint64_t)client_id << 40) ^ ((uint64_t)serial << 20) ^ seq ^
		     0x9e3779b97f4a7c15ull;
	for (uint32_t i = 0; i < len; i += 8) {
		uint64_t v = xorshift(&s);
		uint32_t k = len - i < 8 ? len - i : 8;
		memcpy(b + i, &v, k);
	}
}

static void
ledger_flush(void)
{
	size_t off = 0;
	while (off < llen) {
		ssize_t w = write(ledger_fd, lbuf + off, llen - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			perror("dd_soak: ledger");
			exit(3);
		}
		off += (size_t)w;
	}
	llen = 0;
}

static void __attribute__((format(printf, 1, 2))) ledger(const char *fmt, ...)
{
	if (llen > sizeof(lbuf) - 128)
		ledger_flush();
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(lbuf + llen, sizeof(lbuf) - llen, fmt, ap);
	va_end(ap);
	llen += (size_t)n;
}

static struct soak_assoc *
by_handle(uint64_t h)
{
	for (unsigned i = 0; i < SOAK_ASSOCS; i++)
		if (as[i].state != AS_FREE && as[i].handle == h && h != 0)
			return &as[i];
	return NULL;
}

static struct soak_assoc *
by_serial(uint32_t serial)
{
	for (unsigned i = 0; i < SOAK_ASSOCS; i++)
		if (as[i].state != AS_FREE && as[i].serial == serial)
			return &as[i];
	return NULL;
}

static void
violation(struct soak_assoc *a, uint32_t seq, const char *what)
{
	ledger("V %u %u %s\n", a != NULL ? a->serial : 0, seq, what);
	fprintf(stderr, "dd_soak %u: VIOLATION serial %u seq %u: %s\n", client_id,
		a != NULL ? a->serial : 0, seq, what);
	n_viol++;
}

static void
fail_msg(struct soak_assoc *a, uint32_t seq, const char *reason)
{
	if (seq >= a->sent || a->st[seq] != MSG_SENT)
		return; /* delivered already (its SACK came late), or failed once */
	a->st[seq] = MSG_FAILED;
	a->done++;
	n_fail++;
	ledger("F %u %u %s\n", a->serial, seq, reason);
}

/* The association ended: what has no echo yet has failed, and its sender knows. */
static void
assoc_end(struct soak_assoc *a, const char *event, const char *reason)
{
	for (uint32_t s = 0; s < a->sent; s++)
		fail_msg(a, s, reason);
	ledger("A %u %s\n", a->serial, event);
	a->state = AS_FREE;
}

static void
on_recv(struct soak_assoc *a, const struct dpsctp_client_recv *r)
{
	static uint8_t want[SOAK_LEN_MAX];
	uint32_t h[5];
	if (r->flags & (DPSCTP_CLIENT_MORE | DPSCTP_CLIENT_CONT)) {
		violation(a, 0, "a message in parts (none is that large)");
		return;
	}
	if (r->len < SOAK_HDR) {
		violation(a, 0, "short message");
		return;
	}
	memcpy(h, r->data, sizeof(h));
	uint32_t seq = h[3];
	if (h[0] != SOAK_MAGIC || h[1] != client_id || h[2] != a->serial || seq >= a->sent ||
	    h[4] != r->len) {
		violation(a, seq, "header not one of this association's messages");
		return;
	}
	uint32_t sid = seq % SOAK_STREAMS;
	bool unordered = sid >= SOAK_ORDERED;
	soak_body(want, r->len - SOAK_HDR, a->serial, seq);
	if (memcmp((const uint8_t *)r->data + SOAK_HDR, want, r->len - SOAK_HDR) != 0)
		violation(a, seq, "bytes differ");
	else if (r->sid != sid || r->ppid != htonl(seq) ||
		 !!(r->flags & DPSCTP_CLIENT_UNORDERED) != unordered)
		violation(a, seq, "stream, PPID or U bit differ");
	else if (a->st[seq] == MSG_DELIVERED)
		violation(a, seq, "duplicate");
	else if (a->st[seq] == MSG_FAILED)
		violation(a, seq, "echoed after it was reported failed");
	else if (!unordered && (int64_t)seq <= a->last_seq[sid])
		violation(a, seq, "out of order on an ordered stream");
	else {
		if (!unordered)
			a->last_seq[sid] = seq;
		a->st[seq] = MSG_DELIVERED;
		a->done++;
		n_deliv++;
		ledger("D %u %u\n", a->serial, seq);
	}
}

static void
on_event(const struct dpsctp_client_event *e)
{
	struct soak_assoc *a;
	switch (e->kind) {
	case DPSCTP_CLIENT_COMPLETION:
		if (e->completion.op == DPSCTP_CLIENT_OP_CONNECT) {
			a = by_serial((uint32_t)e->completion.cookie);
			if (a == NULL)
				break;
			if (e->completion.status != 0)
				assoc_end(a, "cant_connect", "");
			else
				a->handle = e->assoc;
		} else if (e->completion.op == DPSCTP_CLIENT_OP_SEND) {
			/* quiet sends complete only when they fail */
			a = by_serial((uint32_t)(e->completion.cookie >> 32));
			if (a != NULL) {
				char why[32];
				snprintf(why, sizeof(why), "send%d", e->completion.status);
				fail_msg(a, (uint32_t)e->completion.cookie, why);
			}
		}
		break;
	case DPSCTP_CLIENT_COMM_UP:
		a = by_handle(e->assoc);
		if (a != NULL && a->state == AS_CONNECTING) {
			a->state = AS_UP;
			n_up++;
			ledger("A %u up\n", a->serial);
		}
		break;
	case DPSCTP_CLIENT_RECV:
		a = by_handle(e->assoc);
		if (a != NULL)
			on_recv(a, &e->recv);
		else
			violation(NULL, 0, "a message on an association not ours");
		break;
	case DPSCTP_CLIENT_SEND_FAILED:
		a = by_handle(e->assoc);
		if (a != NULL)
			fail_msg(a, e->send_failed.context, "send_failed");
		break;
	case DPSCTP_CLIENT_CANT_START:
		a = by_handle(e->assoc);
		if (a != NULL)
			assoc_end(a, "cant_start", "");
		break;
	case DPSCTP_CLIENT_COMM_LOST:
		a = by_handle(e->assoc);
		if (a != NULL) {
			char why[32];
			snprintf(why, sizeof(why), "lost%d", (int)e->assoc_change.reason);
			assoc_end(a, a->aborted ? "aborted" : why, a->aborted ? "aborted" : why);
		}
		break;
	case DPSCTP_CLIENT_SHUTDOWN_COMPLETE:
		a = by_handle(e->assoc);
		if (a != NULL) {
			if (a->done != a->sent)
				violation(a, a->done, "closed gracefully with echoes missing");
			assoc_end(a, "closed", "closed_early");
		}
		break;
	default:
		break;
	}
}

static void
open_assoc(struct dpsctp_client *c, struct soak_assoc *a)
{
	static const struct sctp_addr peer = { 4, { 10, 255, 0, 2 } };
	memset(a, 0, sizeof(*a));
	a->serial = next_serial++;
	a->msgs = 1 + (uint32_t)(xorshift(&rng) % SOAK_MSGS);
	/* about a third end with an ABORT, somewhere in their traffic */
	a->abort_at =
		xorshift(&rng) % 3 == 0 ? (uint32_t)(xorshift(&rng) % (a->msgs + 1)) : UINT32_MAX;
	for (unsigned s = 0; s < SOAK_STREAMS; s++)
		a->last_seq[s] = -1;
	if (dpsctp_client_connect(c, 0, &peer, 1, SOAK_PORT, a->serial) != 0)
		return; /* ring full: this slot tries again next turn */
	a->state = AS_CONNECTING;
	ledger("A %u connect\n", a->serial);
}

/*
 * Send what the window allows; then close the way the association was meant
 * to. Returns -ECONNRESET when the daemon has gone (a send says so before
 * the poll that would), else 0.
 */
static int
drive(struct dpsctp_client *c, struct soak_assoc *a)
{
	static uint8_t buf[SOAK_LEN_MAX];
	if (a->state != AS_UP)
		return 0;
	while (a->sent < a->msgs && a->sent - a->done < SOAK_WINDOW && a->sent < a->abort_at) {
		if (rate > 0 && (double)n_sent >= rate * (now_s() - t_start))
			return 0; /* ahead of RATE */
		uint32_t seq = a->sent, sid = seq % SOAK_STREAMS;
		uint64_t r = xorshift(&rng);
		uint32_t len =
			SOAK_HDR + (uint32_t)(r % 10 == 0 ? (r >> 8) % (SOAK_LEN_MAX - SOAK_HDR)
							  : (r >> 8) % 300);
		uint32_t h[5] = { SOAK_MAGIC, client_id, a->serial, seq, len };
		memcpy(buf, h, sizeof(h));
		soak_body(buf + SOAK_HDR, len - SOAK_HDR, a->serial, seq);
		struct dpsctp_client_sndinfo si = {
			.assoc = a->handle,
			.sid = (uint16_t)sid,
			.ppid = htonl(seq),
			.flags = DPSCTP_CLIENT_QUIET |
				 (sid >= SOAK_ORDERED ? DPSCTP_CLIENT_UNORDERED : 0),
			.context = seq,
		};
		int rc = dpsctp_client_send(c, 0, &si, buf, len, ((uint64_t)a->serial << 32) | seq);
		if (rc == -EAGAIN)
			return 0;
		if (rc == -ECONNRESET)
			return rc;
		if (rc != 0) {
			char why[64];
			snprintf(why, sizeof(why), "the library refused a valid send: %d", rc);
			violation(a, seq, why);
			a->msgs = a->sent; /* once */
			return 0;
		}
		a->st[seq] = MSG_SENT;
		a->sent++;
		n_sent++;
		ledger("S %u %u %u %u %u\n", a->serial, seq, sid, sid >= SOAK_ORDERED, len);
	}
	if (a->sent >= a->abort_at && !a->aborted) {
		if (dpsctp_client_abort(c, 0, a->handle, 0) == 0) {
			a->aborted = true;
			a->state = AS_CLOSING;
			n_abort++;
			ledger("A %u abort\n", a->serial);
		}
	} else if (a->sent == a->msgs && a->done == a->sent) {
		if (dpsctp_client_shutdown(c, 0, a->handle, 0) == 0) {
			a->state = AS_CLOSING;
			n_shut++;
			ledger("A %u shutdown\n", a->serial);
		}
	}
	return 0;
}

/* The daemon went: every association with it, and every message without an echo. */
static void
daemon_lost(void)
{
	for (unsigned i = 0; i < SOAK_ASSOCS; i++)
		if (as[i].state != AS_FREE)
			assoc_end(&as[i], "daemon_lost", "daemon_lost");
	ledger("R\n");
	n_resets++;
}

int
main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: dd_soak SOCKET LEDGER CLIENT_ID SEED RATE\n");
		return 2;
	}
	const char *sock = argv[1];
	client_id = (uint32_t)strtoul(argv[3], NULL, 0);
	rng = strtoull(argv[4], NULL, 0) | 1;
	rate = strtod(argv[5], NULL);
	t_start = now_s();
	ledger_fd = open(argv[2], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (ledger_fd < 0) {
		perror("dd_soak: ledger");
		return 3;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);

	struct dpsctp_client *c = NULL;
	char name[32];
	snprintf(name, sizeof(name), "soak-%u", client_id);
	struct dpsctp_client_opts o = { .threads = 1, .name = name };
	double drain_end = 0;
	for (;;) {
		if (stop_requested && drain_end == 0) {
			drain_end = now_s() + SOAK_DRAIN_S;
			/* no new messages; the graceful way out for every association */
			for (unsigned i = 0; i < SOAK_ASSOCS; i++) {
				as[i].msgs = as[i].sent;
				as[i].abort_at = UINT32_MAX;
			}
		}
		if (c == NULL) {
			if (drain_end != 0)
				break;
			int err;
			c = dpsctp_client_attach(sock, &o, &err);
			if (c == NULL) {
				usleep(50000); /* the daemon is restarting */
				continue;
			}
			ledger("K %u\n", dpsctp_client_id(c));
		}
		bool busy = false;
		if (drain_end == 0)
			for (unsigned i = 0; i < SOAK_ASSOCS; i++)
				if (as[i].state == AS_FREE) {
					open_assoc(c, &as[i]);
					busy = true;
				}
		int n = 0;
		for (unsigned i = 0; i < SOAK_ASSOCS && n == 0; i++)
			n = drive(c, &as[i]);
		struct dpsctp_client_event ev[64];
		if (n == 0)
			n = dpsctp_client_poll(c, 0, ev, 64);
		if (n == -ECONNRESET) {
			daemon_lost();
			dpsctp_client_detach(c);
			c = NULL;
			ledger_flush();
			continue;
		}
		if (n < 0) {
			fprintf(stderr, "dd_soak %u: poll: %s\n", client_id, strerror(-n));
			return 1;
		}
		for (int i = 0; i < n; i++)
			on_event(&ev[i]);
		ledger_flush();
		if (drain_end != 0) {
			bool open = false;
			for (unsigned i = 0; i < SOAK_ASSOCS; i++)
				open |= as[i].state != AS_FREE;
			if (!open)
				break;
			if (now_s() > drain_end) {
				for (unsigned i = 0; i < SOAK_ASSOCS; i++)
					if (as[i].state == AS_UP) {
						as[i].abort_at = as[i].sent;
						(void)drive(c, &as[i]);
					}
				drain_end = now_s() + SOAK_DRAIN_S;
			}
		}
		if (n == 0 && !busy)
			(void)dpsctp_client_wait(c, 0, rate > 0 ? 2 : 20);
	}
	if (c != NULL)
		dpsctp_client_detach(c);
	ledger("E\n");
	ledger_flush();
	printf("dd_soak %u: sent %llu delivered %llu failed %llu violations %llu up %llu "
	       "aborted %llu shutdown %llu daemon_resets %llu\n",
	       client_id, n_sent, n_deliv, n_fail, n_viol, n_up, n_abort, n_shut, n_resets);
	return n_viol == 0 && n_deliv + n_fail == n_sent ? 0 : 1;
}
