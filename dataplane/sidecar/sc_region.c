/* SPDX-License-Identifier: BSD-3-Clause */
/* The sidecar's shared region and attach handshake (sc_region.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataplane/sidecar/sc_region.h"

#define SC_MAX_FDS (2u + SC_MAX_THREADS) /* memfd, eventfds, packet-buffer memfd */

static uint64_t
sc_align(uint64_t v)
{
	return (v + SC_REGION_ALIGN - 1) & ~(uint64_t)(SC_REGION_ALIGN - 1);
}

static bool
sc_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

int
sc_layout_compute(struct sc_layout *l, uint32_t n_threads, uint32_t ring_slots,
		  uint64_t arena_bytes)
{
	return sc_layout_compute_workers(l, n_threads, 1, ring_slots, arena_bytes);
}

int
sc_layout_compute_workers(struct sc_layout *l, uint32_t n_threads, uint32_t n_workers,
			  uint32_t ring_slots, uint64_t arena_bytes)
{
	if (n_threads == 0 || n_threads > SC_MAX_THREADS || n_workers == 0 ||
	    n_workers > SC_MAX_WORKERS || !sc_pow2(ring_slots) || ring_slots < SC_RING_SLOTS_MIN ||
	    ring_slots > SC_RING_SLOTS_MAX || !sc_pow2(arena_bytes) ||
	    arena_bytes < SC_ARENA_BYTES_MIN || arena_bytes > SC_ARENA_BYTES_MAX)
		return -EINVAL;
	memset(l, 0, sizeof(*l));
	l->n_threads = n_threads;
	l->n_workers = n_workers;
	l->ring_slots = ring_slots;
	l->arena_bytes = arena_bytes;
	uint64_t ring = sc_align(sc_ring_bytes(ring_slots, SC_SLOT_BYTES));
	uint64_t off = sc_align(sizeof(struct sc_region_hdr));
	for (uint32_t t = 0; t < n_threads * n_workers; t++) {
		struct sc_layout_thread *lt = &l->t[t];
		lt->req_off = off;
		lt->cpl_off = off + ring;
		lt->evt_off = off + 2 * ring;
		lt->tx_off = off + 3 * ring;
		lt->rx_off = lt->tx_off + SC_ARENA_HDR + arena_bytes;
		off = lt->rx_off + SC_ARENA_HDR + arena_bytes;
	}
	l->region_bytes = off;
	return 0;
}

int
sc_layout_check(const struct sc_layout *l, uint64_t region_bytes)
{
	/* The only acceptable layout is the one its own parameters give. */
	struct sc_layout want;
	if (sc_layout_compute_workers(&want, l->n_threads, l->n_workers, l->ring_slots,
				      l->arena_bytes) != 0 ||
	    memcmp(&want, l, sizeof(want)) != 0 || l->region_bytes != region_bytes)
		return -EPROTO;
	return 0;
}

int
sc_region_create(const struct sc_layout *l, uint64_t generation, int *fd, void **base)
{
	if (sc_layout_check(l, l->region_bytes) != 0)
		return -EINVAL;
	int f = memfd_create("dpsctpd-app", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (f < 0)
		return -errno;
	if (ftruncate(f, (off_t)l->region_bytes) != 0 ||
	    /* The application must not be able to shrink it under the daemon. */
	    fcntl(f, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
		int e = -errno;
		close(f);
		return e;
	}
	void *b = mmap(NULL, l->region_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	if (b == MAP_FAILED) {
		int e = -errno;
		close(f);
		return e;
	}
	struct sc_region_hdr *h = b;
	h->magic = SC_MAGIC;
	h->version = SC_VERSION;
	h->generation = generation;
	h->layout = *l;
	for (uint32_t t = 0; t < l->n_threads * l->n_workers; t++) {
		const struct sc_layout_thread *lt = &l->t[t];
		if (sc_ring_create(b, l->region_bytes, lt->req_off, l->ring_slots, SC_SLOT_BYTES) ||
		    sc_ring_create(b, l->region_bytes, lt->cpl_off, l->ring_slots, SC_SLOT_BYTES) ||
		    sc_ring_create(b, l->region_bytes, lt->evt_off, l->ring_slots, SC_SLOT_BYTES) ||
		    sc_arena_create(b, l->region_bytes, lt->tx_off, l->arena_bytes) ||
		    sc_arena_create(b, l->region_bytes, lt->rx_off, l->arena_bytes)) {
			munmap(b, l->region_bytes);
			close(f);
			return -EINVAL;
		}
	}
	*fd = f;
	*base = b;
	return 0;
}

int
sc_region_map(int fd, const struct sc_layout *l, uint64_t generation, void **base)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -errno;
	if (sc_layout_check(l, l->region_bytes) != 0 || (uint64_t)st.st_size != l->region_bytes)
		return -EPROTO;
	void *b = mmap(NULL, l->region_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (b == MAP_FAILED)
		return -errno;
	const struct sc_region_hdr *h = b;
	if (h->magic != SC_MAGIC || h->version != SC_VERSION || h->generation != generation) {
		munmap(b, l->region_bytes);
		return -EPROTO;
	}
	*base = b;
	return 0;
}

static int
sc_region_set_rings(void *base, const struct sc_layout *l, uint32_t t, uint32_t w, bool daemon,
		    struct sc_ring *req, struct sc_ring *cpl, struct sc_ring *evt)
{
	if (t >= l->n_threads || w >= l->n_workers || l->n_workers > SC_MAX_WORKERS)
		return -EINVAL;
	const struct sc_layout_thread *lt = &l->t[sc_layout_set(l, t, w)];
	int rc = sc_ring_attach(req, base, l->region_bytes, lt->req_off, l->ring_slots,
				SC_SLOT_BYTES, !daemon);
	if (rc == 0)
		rc = sc_ring_attach(cpl, base, l->region_bytes, lt->cpl_off, l->ring_slots,
				    SC_SLOT_BYTES, daemon);
	if (rc == 0)
		rc = sc_ring_attach(evt, base, l->region_bytes, lt->evt_off, l->ring_slots,
				    SC_SLOT_BYTES, daemon);
	return rc;
}

int
sc_region_rings(void *base, const struct sc_layout *l, uint32_t t, bool daemon, struct sc_ring *req,
		struct sc_ring *cpl, struct sc_ring *evt)
{
	return sc_region_set_rings(base, l, t, 0, daemon, req, cpl, evt);
}

int
sc_region_set(void *base, const struct sc_layout *l, uint32_t t, uint32_t w, bool daemon,
	      struct sc_thread *th)
{
	int rc = sc_region_set_rings(base, l, t, w, daemon, &th->req, &th->cpl, &th->evt);
	const struct sc_layout_thread *lt = rc == 0 ? &l->t[sc_layout_set(l, t, w)] : NULL;
	if (rc == 0)
		rc = sc_arena_attach(&th->tx, base, l->region_bytes, lt->tx_off, l->arena_bytes,
				     !daemon);
	if (rc == 0)
		rc = sc_arena_attach(&th->rx, base, l->region_bytes, lt->rx_off, l->arena_bytes,
				     daemon);
	return rc;
}

int
sc_region_thread(void *base, const struct sc_layout *l, uint32_t t, bool daemon,
		 struct sc_thread *th)
{
	return sc_region_set(base, l, t, 0, daemon, th);
}

/* One whole datagram of exactly `len` bytes, or -EPROTO / -errno (0 bytes: the peer left). */
static int
sc_recv_exact(int sock, void *buf, size_t len, struct msghdr *mh)
{
	struct iovec iov = { buf, len };
	mh->msg_iov = &iov;
	mh->msg_iovlen = 1;
	ssize_t n;
	do
		n = recvmsg(sock, mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ECONNRESET;
	if ((size_t)n != len || (mh->msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0)
		return -EPROTO;
	return 0;
}

static int
sc_send_all(int sock, const void *buf, size_t len, const int *fds, unsigned nfds)
{
	union {
		struct cmsghdr c;
		char b[CMSG_SPACE(sizeof(int) * SC_MAX_FDS)];
	} ctl;
	struct iovec iov = { (void *)(uintptr_t)buf, len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	if (nfds > SC_MAX_FDS)
		return -EINVAL;
	if (nfds != 0) {
		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.b;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	ssize_t n;
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int
sc_hello_send(int sock, const struct sc_hello *h)
{
	return sc_send_all(sock, h, sizeof(*h), NULL, 0);
}

int
sc_hello_recv(int sock, struct sc_hello *h)
{
	struct msghdr mh = { 0 };
	int rc = sc_recv_exact(sock, h, sizeof(*h), &mh);
	if (rc != 0)
		return rc;
	if (h->magic != SC_MAGIC || h->version != SC_VERSION || h->n_threads == 0 ||
	    h->n_threads > SC_MAX_THREADS || (h->flags & ~SC_HELLO_FLAGS) != 0 ||
	    memchr(h->name, 0, sizeof(h->name)) == NULL)
		return -EPROTO;
	return 0;
}

int
sc_welcome_send(int sock, const struct sc_welcome *w, const int *fds)
{
	return sc_send_all(sock, w, sizeof(*w), fds, w->status == 0 ? w->n_fds : 0);
}

int
sc_welcome_recv(int sock, struct sc_welcome *w, int *fds, unsigned max_fds)
{
	union {
		struct cmsghdr c;
		char b[CMSG_SPACE(sizeof(int) * SC_MAX_FDS)];
	} ctl;
	struct msghdr mh = { .msg_control = ctl.b, .msg_controllen = sizeof(ctl.b) };
	int rc = sc_recv_exact(sock, w, sizeof(*w), &mh);
	unsigned got = 0;
	int tmp[SC_MAX_FDS];
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); rc != -ECONNRESET && c != NULL;
	     c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		unsigned n = (unsigned)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		for (unsigned i = 0; i < n && got < SC_MAX_FDS; i++)
			memcpy(&tmp[got++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
	}
	if (rc == 0 && (w->magic != SC_MAGIC || w->version != SC_VERSION ||
			(w->status == 0 && (w->n_fds != got || got > max_fds)) ||
			(w->status != 0 && got != 0)))
		rc = -EPROTO;
	if (rc != 0) {
		for (unsigned i = 0; i < got; i++)
			close(tmp[i]);
		return rc;
	}
	memcpy(fds, tmp, sizeof(int) * got);
	return 0;
}
