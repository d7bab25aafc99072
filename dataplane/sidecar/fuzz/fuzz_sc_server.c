/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: dpsctpd's control socket (sc_server.c, sc_region.c's
 * handshake) against clients that send anything. A real server listens on
 * a Unix socket in a private directory; the input is a sequence of
 * operations, each an opcode byte and its operands:
 *
 *   CONNECT   a new client connects (at most 6 at once)
 *   SEND      client i sends one datagram: a hello with its fields from
 *             the input (tidied or not), of any length (0 .. 127 bytes),
 *             with or without a descriptor attached
 *   CLOSE     client i closes its end
 *   POLL      the server polls once, without waiting; every client then
 *             reads what it was answered
 *
 * Byte 0 picks the limits (applications 1 .. 4, threads 1 .. 4, pending
 * connections 1 .. 4, one or two workers) and whether the daemon has
 * packet buffers for zero copy. The hello timeout is the
 * longest, so time plays no part. Properties beyond "no crash, no UB":
 *   - every answer is a welcome the library accepts (sc_welcome_recv());
 *     a malformed hello (wrong size, a descriptor, a bad field) is
 *     refused -EPROTO, one above the limits -E2BIG, one the layout cannot
 *     have -EINVAL, and a welcome with status 0 answers a hello that is
 *     well-formed and within the limits, with the layout it asked for
 *     (threads, slots, arena, the server's workers), a memfd of exactly
 *     that size whose header checks out (sc_region_map()) and one eventfd
 *     per thread; the only other refusal is -EBUSY (full, or the oldest
 *     silent connection turned away);
 *   - the server attaches only while it has room, never keeps more
 *     pending connections than its limit, and its on_attach sees a region
 *     whose every ring set the daemon can attach (sc_region_set());
 *   - an attached client that sends anything more is detached;
 *   - after the server closes, every application attached was detached
 *     once, and no descriptor is left open that was not open before.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "dataplane/sidecar/fuzz/fz_input.h"
#include "dataplane/sidecar/sc_server.h"

#define CHECK(cond, what) fz_check("fuzz_sc_server", cond, what)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_CLIENTS 6

enum fz_sent { FZ_NOTHING, FZ_GOOD, FZ_TOO_BIG, FZ_NO_LAYOUT, FZ_BAD };

struct fz_client {
	int sock;	   /* -1: none */
	enum fz_sent sent; /* what its first datagram was, as the server will judge it */
	uint32_t threads, slots;
	uint64_t arena;
	bool zero_copy; /* it asked for the packet-buffer memfd */
	bool answered, attached;
};

struct fz {
	struct fz_input in; /* what is left of the input */
	struct sc_server s;
	struct sc_server_limits lim;
	struct fz_client c[FZ_CLIENTS];
	unsigned attach_calls, detach_calls;
};

static char fz_path[108];
/* The packet buffers a daemon with --zero-copy hands out: a memfd of one page. */
static int fz_zc_fd = -1;
static const uint64_t fz_zc_bytes = 4096;

static unsigned
fz_open_fds(void)
{
	unsigned n = 0;
	DIR *d = opendir("/proc/self/fd");
	CHECK(d != NULL, "/proc/self/fd");
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

static void
fz_on_attach(struct sc_server *s, struct sc_app *a, void *arg)
{
	struct fz *f = arg;
	(void)s;
	f->attach_calls++;
	CHECK(sc_server_apps(s) <= f->lim.max_apps, "more applications than the limit");
	CHECK(sc_layout_check(&a->layout, a->layout.region_bytes) == 0 &&
		      a->layout.n_threads >= 1 && a->layout.n_threads <= f->lim.max_threads &&
		      a->layout.n_workers == (f->lim.workers != 0 ? f->lim.workers : 1),
	      "an attached application's layout");
	for (uint32_t t = 0; t < a->layout.n_threads; t++)
		for (uint32_t w = 0; w < a->layout.n_workers; w++) {
			struct sc_thread th;
			CHECK(sc_region_set(a->base, &a->layout, t, w, true, &th) == 0,
			      "a new ring set the daemon cannot attach");
		}
}

static void
fz_on_detach(struct sc_server *s, struct sc_app *a, void *arg)
{
	struct fz *f = arg;
	(void)s;
	(void)a;
	f->detach_calls++;
}

/* How the server must judge a hello of these bytes (sc_hello_recv(), sc_hello_take()). */
static enum fz_sent
fz_judge(const struct fz *f, const struct sc_hello *h, struct fz_client *c)
{
	if (h->magic != SC_MAGIC || h->version != SC_VERSION || h->n_threads == 0 ||
	    h->n_threads > SC_MAX_THREADS || (h->flags & ~SC_HELLO_FLAGS) != 0 ||
	    memchr(h->name, 0, sizeof(h->name)) == NULL)
		return FZ_BAD;
	c->threads = h->n_threads;
	c->zero_copy = (h->flags & SC_HELLO_ZERO_COPY) != 0;
	c->slots = h->ring_slots != 0 ? h->ring_slots : f->lim.ring_slots;
	c->arena = h->arena_bytes != 0 ? h->arena_bytes : f->lim.arena_bytes;
	if (h->n_threads > f->lim.max_threads || c->slots > f->lim.ring_slots ||
	    c->arena > f->lim.arena_bytes)
		return FZ_TOO_BIG;
	struct sc_layout l;
	if (sc_layout_compute_workers(&l, c->threads, f->lim.workers, c->slots, c->arena) != 0)
		return FZ_NO_LAYOUT;
	return FZ_GOOD;
}

static void
op_connect(struct fz *f)
{
	for (int i = 0; i < FZ_CLIENTS; i++)
		if (f->c[i].sock < 0) {
			int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
			CHECK(fd >= 0, "socket");
			struct sockaddr_un sa = { .sun_family = AF_UNIX };
			strcpy(sa.sun_path, fz_path);
			if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
				close(fd); /* the backlog is full: the kernel refuses */
				return;
			}
			f->c[i] = (struct fz_client){ .sock = fd, .sent = FZ_NOTHING };
			return;
		}
}

static void
op_send(struct fz *f)
{
	struct fz_client *c = &f->c[fz_take8(&f->in) % FZ_CLIENTS];
	uint8_t mode = fz_take8(&f->in);
	union {
		struct sc_hello h;
		uint8_t b[128];
	} m;
	fz_take_bytes(&f->in, &m, sizeof(m));
	if (mode & 1) { /* a hello as the library writes it, but the fields the input gives */
		m.h.magic = SC_MAGIC;
		m.h.version = SC_VERSION;
		m.h.n_threads = 1 + m.h.n_threads % 5;
		m.h.ring_slots = (mode & 2) ? 0 : 32u << (m.h.ring_slots % 4);
		m.h.arena_bytes = (mode & 4) ? 0 : 32768ull << (m.h.arena_bytes % 4);
		m.h.flags &= SC_HELLO_FLAGS;
		m.h.name[SC_NAME_LEN - 1] = 0;
	}
	size_t len = (mode & 8) ? (size_t)fz_take8(&f->in) % sizeof(m) : sizeof(m.h);
	bool with_fd = (mode & 0x30) == 0x30;
	if (c->sock < 0)
		return;
	struct iovec iov = { m.b, len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	union {
		struct cmsghdr c;
		char b[CMSG_SPACE(sizeof(int))];
	} ctl;
	int devnull = -1;
	if (with_fd) {
		devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
		CHECK(devnull >= 0, "/dev/null");
		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.b;
		mh.msg_controllen = sizeof(ctl.b);
		struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &devnull, sizeof(int));
	}
	ssize_t sent = sendmsg(c->sock, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (devnull >= 0)
		close(devnull);
	if (sent < 0)
		return; /* the server hung up, or no room */
	if (c->sent == FZ_NOTHING && !c->answered) {
		/* The first datagram is the hello the server judges. */
		if (len != sizeof(struct sc_hello) || with_fd)
			c->sent = FZ_BAD;
		else
			c->sent = fz_judge(f, &m.h, c);
	}
}

static void
fz_drop_client(struct fz_client *c)
{
	close(c->sock);
	c->sock = -1;
}

static void
op_close(struct fz *f)
{
	struct fz_client *c = &f->c[fz_take8(&f->in) % FZ_CLIENTS];
	if (c->sock >= 0)
		fz_drop_client(c);
}

/* A client reads its answer, if one came, and checks it. */
static void
fz_read_answer(struct fz *f, struct fz_client *c)
{
	struct sc_welcome w;
	int fds[2 + SC_MAX_THREADS];
	int rc = sc_welcome_recv(c->sock, &w, fds, 2 + SC_MAX_THREADS);
	if (rc == -EAGAIN || rc == -EWOULDBLOCK)
		return;
	if (c->answered || rc == -ECONNRESET) {
		/* After its welcome, or a refusal: only the end of the connection. */
		CHECK(rc == -ECONNRESET, "more than one answer");
		fz_drop_client(c);
		return;
	}
	CHECK(rc == 0, "an answer the library refuses");
	c->answered = true;
	switch (w.status) {
	case 0:
		CHECK(c->sent == FZ_GOOD, "a hello accepted that should not be");
		CHECK(w.layout.n_threads == c->threads && w.layout.ring_slots == c->slots &&
			      w.layout.arena_bytes == c->arena &&
			      w.layout.n_workers == f->lim.workers,
		      "the layout is not the one asked for");
		/* The memfd, an eventfd a thread, the packet-buffer memfd when asked and served. */
		bool zc = c->zero_copy && f->s.zc_fd >= 0;
		CHECK(w.n_fds == 1 + c->threads + zc && w.zc_bytes == (zc ? fz_zc_bytes : 0),
		      "the descriptors of a welcome");
		void *base;
		CHECK(sc_region_map(fds[0], &w.layout, w.generation, &base) == 0,
		      "the region does not check out");
		munmap(base, w.layout.region_bytes);
		for (uint32_t i = 0; i < w.n_fds; i++)
			close(fds[i]);
		c->attached = true;
		break;
	case -EPROTO:
		CHECK(c->sent == FZ_BAD, "-EPROTO for a well-formed hello");
		break;
	case -E2BIG:
		CHECK(c->sent == FZ_TOO_BIG, "-E2BIG for a hello within the limits");
		break;
	case -EINVAL:
		CHECK(c->sent == FZ_NO_LAYOUT, "-EINVAL for a layout that can be made");
		break;
	case -EBUSY:
		CHECK(c->sent != FZ_BAD && c->sent != FZ_TOO_BIG,
		      "-EBUSY before the hello's own fault");
		break;
	default:
		CHECK(false, "an unexpected refusal");
	}
}

static void
op_poll(struct fz *f)
{
	unsigned before = sc_server_apps(&f->s);
	CHECK(sc_server_poll(&f->s, 0) >= 0, "poll");
	CHECK(sc_server_apps(&f->s) <= f->lim.max_apps && f->s.n_pending <= f->lim.max_pending,
	      "beyond the limits");
	(void)before;
	for (int i = 0; i < FZ_CLIENTS; i++)
		if (f->c[i].sock >= 0)
			fz_read_answer(f, &f->c[i]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fz f;
	if (fz_path[0] == 0) {
		char dir[] = "/tmp/fuzz_sc_server-XXXXXX";
		CHECK(mkdtemp(dir) != NULL, "mkdtemp");
		snprintf(fz_path, sizeof(fz_path), "%s/s.sock", dir);
		fz_zc_fd = memfd_create("fuzz-zc", MFD_CLOEXEC);
		CHECK(fz_zc_fd >= 0 && ftruncate(fz_zc_fd, (off_t)fz_zc_bytes) == 0, "memfd");
	}
	if (size == 0)
		return 0;
	unsigned fds_before = fz_open_fds();
	memset(&f, 0, sizeof(f));
	f.in = (struct fz_input){ data + 1, size - 1 };
	f.lim = (struct sc_server_limits){ .max_apps = 1 + (data[0] & 3u),
					   .max_threads = 1 + ((data[0] >> 2) & 3u),
					   .ring_slots = 64,
					   .arena_bytes = 65536,
					   .max_pending = 1 + ((data[0] >> 4) & 3u),
					   .hello_timeout_ms = SC_SERVER_HELLO_MS_MAX,
					   .workers = 1 + ((data[0] >> 6) & 1u) };
	for (int i = 0; i < FZ_CLIENTS; i++)
		f.c[i].sock = -1;
	CHECK(sc_server_open(&f.s, fz_path, &f.lim, 42) == 0, "sc_server_open");
	/* Zero copy (byte 0's top bit): the daemon has packet buffers to hand out. */
	f.s.zc_fd = (data[0] & 0x80) ? fz_zc_fd : -1;
	f.s.zc_bytes = (data[0] & 0x80) ? fz_zc_bytes : 0;
	f.s.on_attach = fz_on_attach;
	f.s.on_detach = fz_on_detach;
	f.s.arg = &f;
	for (unsigned steps = 0; f.in.n != 0 && steps < 256; steps++) {
		switch (fz_take8(&f.in) % 4) {
		case 0:
			op_connect(&f);
			break;
		case 1:
			op_send(&f);
			break;
		case 2:
			op_close(&f);
			break;
		default:
			op_poll(&f);
			break;
		}
	}
	sc_server_close(&f.s, fz_path);
	/* on_attach runs before the welcome is sent; one that could not be sent (the client
	 * left) is undone with on_detach and counted refused, not attached. */
	CHECK(f.attach_calls == f.detach_calls && f.s.ctr.attached == f.s.ctr.detached &&
		      f.s.ctr.attached <= f.attach_calls,
	      "attached and detached differ");
	for (int i = 0; i < FZ_CLIENTS; i++)
		if (f.c[i].sock >= 0)
			close(f.c[i].sock);
	CHECK(fz_open_fds() == fds_before, "a descriptor left open");
	return 0;
}
