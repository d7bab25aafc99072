/* SPDX-License-Identifier: BSD-3-Clause */
/* The daemon's side of attaching: the socket, the regions, departures (sc_server.h). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "dataplane/sidecar/sc_server.h"

/* How long an application that connected may take to say hello: the
 * control thread waits for it, so a silent one delays others this much. */
#define SC_HELLO_TIMEOUT_MS 1000

int
sc_server_open(struct sc_server *s, const char *path, const struct sc_server_limits *lim,
	       uint64_t generation)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(sa.sun_path) || lim->max_apps == 0 ||
	    lim->max_apps > SC_SERVER_MAX_APPS || lim->max_threads == 0 ||
	    lim->max_threads > SC_MAX_THREADS)
		return -EINVAL;
	struct sc_layout probe;
	if (sc_layout_compute(&probe, 1, lim->ring_slots, lim->arena_bytes) != 0)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->zc_fd = -1;
	s->lim = *lim;
	s->generation = generation;
	s->next_id = 1;
	strcpy(sa.sun_path, path);
	struct stat st;
	/* A socket left by a daemon that died is replaced; anything else is not ours. */
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode))
			return -EEXIST;
		unlink(path);
	}
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || chmod(path, 0660) != 0 ||
	    listen(fd, 16) != 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	s->listen_fd = fd;
	return 0;
}

static void
sc_app_free(struct sc_app *a)
{
	for (uint32_t t = 0; t < a->layout.n_threads; t++)
		if (a->efd[t] >= 0)
			close(a->efd[t]);
	if (a->base != NULL)
		munmap(a->base, a->layout.region_bytes);
	if (a->memfd >= 0)
		close(a->memfd);
	if (a->sock >= 0)
		close(a->sock);
	free(a);
}

/* Refuse an application with a reason, then hang up. */
static void
sc_refuse(struct sc_server *s, int sock, int status)
{
	struct sc_welcome w;
	memset(&w, 0, sizeof(w));
	w.magic = SC_MAGIC;
	w.version = SC_VERSION;
	w.status = status;
	w.generation = s->generation;
	(void)sc_welcome_send(sock, &w, NULL);
	close(sock);
	s->ctr.refused++;
}

static int
sc_slot_free(const struct sc_server *s)
{
	for (unsigned i = 0; i < s->lim.max_apps; i++)
		if (s->apps[i] == NULL)
			return (int)i;
	return -1;
}

static int
sc_accept_one(struct sc_server *s)
{
	int sock = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (sock < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
	struct timeval tv = { 0, SC_HELLO_TIMEOUT_MS * 1000 };
	(void)setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	struct sc_hello h;
	if (sc_hello_recv(sock, &h) != 0) {
		s->ctr.bad_hello++;
		sc_refuse(s, sock, -EPROTO);
		return 0;
	}
	uint32_t slots = h.ring_slots != 0 ? h.ring_slots : s->lim.ring_slots;
	uint64_t arena = h.arena_bytes != 0 ? h.arena_bytes : s->lim.arena_bytes;
	int slot = sc_slot_free(s);
	if (h.n_threads > s->lim.max_threads || slots > s->lim.ring_slots ||
	    arena > s->lim.arena_bytes) {
		sc_refuse(s, sock, -E2BIG);
		return 0;
	}
	if (slot < 0) {
		sc_refuse(s, sock, -EBUSY);
		return 0;
	}
	struct sc_app *a = calloc(1, sizeof(*a));
	if (a == NULL) {
		sc_refuse(s, sock, -ENOMEM);
		return 0;
	}
	a->sock = sock;
	a->memfd = -1;
	for (unsigned t = 0; t < SC_MAX_THREADS; t++)
		a->efd[t] = -1;
	memcpy(a->name, h.name, sizeof(a->name));
	struct sc_welcome w;
	memset(&w, 0, sizeof(w));
	int rc = sc_layout_compute(&w.layout, h.n_threads, slots, arena);
	if (rc == 0)
		rc = sc_region_create(&w.layout, s->generation, &a->memfd, &a->base);
	a->layout = w.layout;
	int fds[2 + SC_MAX_THREADS];
	fds[0] = a->memfd;
	for (uint32_t t = 0; rc == 0 && t < h.n_threads; t++) {
		a->efd[t] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (a->efd[t] < 0)
			rc = -errno;
		fds[1 + t] = a->efd[t];
	}
	if (rc != 0) {
		a->sock = -1;
		sc_app_free(a);
		sc_refuse(s, sock, rc == -EINVAL ? -EINVAL : rc);
		return 0;
	}
	a->id = s->next_id++;
	w.magic = SC_MAGIC;
	w.version = SC_VERSION;
	w.app_id = a->id;
	w.n_fds = 1 + h.n_threads;
	w.generation = s->generation;
	if ((h.flags & SC_HELLO_ZERO_COPY) && s->zc_fd >= 0) {
		fds[w.n_fds++] = s->zc_fd;
		w.zc_bytes = s->zc_bytes;
		a->zero_copy = true;
	}
	if (sc_welcome_send(sock, &w, fds) != 0) {
		sc_app_free(a); /* it left while we answered */
		return 0;
	}
	s->apps[slot] = a;
	s->ctr.attached++;
	if (s->on_attach != NULL)
		s->on_attach(s, a, s->arg);
	return 1;
}

static void
sc_detach(struct sc_server *s, unsigned i)
{
	struct sc_app *a = s->apps[i];
	if (s->on_detach != NULL)
		s->on_detach(s, a, s->arg);
	s->apps[i] = NULL;
	sc_app_free(a);
	s->ctr.detached++;
}

int
sc_server_poll(struct sc_server *s, int timeout_ms)
{
	struct pollfd pf[1 + SC_SERVER_MAX_APPS];
	unsigned idx[SC_SERVER_MAX_APPS], n = 0;
	pf[n++] = (struct pollfd){ s->listen_fd, POLLIN, 0 };
	for (unsigned i = 0; i < s->lim.max_apps; i++)
		if (s->apps[i] != NULL) {
			idx[n - 1] = i;
			pf[n++] = (struct pollfd){ s->apps[i]->sock, POLLIN, 0 };
		}
	int rc = poll(pf, n, timeout_ms);
	if (rc < 0)
		return errno == EINTR ? 0 : -errno;
	int changes = 0;
	/* An application says nothing after its hello: anything readable is its
	 * departure (EOF, an error) or a protocol breach; either way it is gone. */
	for (unsigned k = 1; k < n; k++)
		if (pf[k].revents != 0) {
			sc_detach(s, idx[k - 1]);
			changes++;
		}
	if (pf[0].revents & POLLIN)
		for (int r; (r = sc_accept_one(s)) > 0;)
			changes += r;
	return changes;
}

void
sc_server_drop(struct sc_server *s, struct sc_app *a)
{
	for (unsigned i = 0; i < s->lim.max_apps; i++)
		if (s->apps[i] == a) {
			sc_detach(s, i);
			return;
		}
}

unsigned
sc_server_apps(const struct sc_server *s)
{
	unsigned n = 0;
	for (unsigned i = 0; i < s->lim.max_apps; i++)
		n += s->apps[i] != NULL;
	return n;
}

void
sc_server_close(struct sc_server *s, const char *path)
{
	for (unsigned i = 0; i < s->lim.max_apps; i++)
		if (s->apps[i] != NULL)
			sc_detach(s, i);
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	s->listen_fd = -1;
	if (path != NULL)
		unlink(path);
}
