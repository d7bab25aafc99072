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
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "dataplane/sidecar/sc_server.h"

/* Connections accepted per sc_server_poll(): a connect() flood costs one
 * call this many accepts at most; the listen backlog holds the rest. */
#define SC_ACCEPT_BURST 16u

static uint64_t
sc_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int
sc_server_probe(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(sa.sun_path))
		return -EINVAL;
	strcpy(sa.sun_path, path);
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	/* Non-blocking: a live daemon whose backlog is full answers EAGAIN and
	 * is alive all the same. Only "refused" says nobody listens there. A
	 * live daemon sees this connection close before its hello: it just
	 * closes its end. */
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	int rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 ? 0 : errno;
	close(fd);
	switch (rc) {
	case ECONNREFUSED:
	case ENOENT: /* it went while we looked */
		return 0;
	case 0:
	case EAGAIN:
	case EINPROGRESS:
	case EPROTOTYPE: /* a live socket of another kind: not ours to take either */
		return -EADDRINUSE;
	default:
		return -rc;
	}
}

/* Bind and listen at once: between the two, a probe would be refused and
 * take the socket for a stale one. */
static int
sc_bind_listen(int fd, const struct sockaddr_un *sa, uint32_t backlog)
{
	if (bind(fd, (const struct sockaddr *)sa, sizeof(*sa)) != 0 ||
	    listen(fd, (int)backlog) != 0)
		return -errno;
	return 0;
}

int
sc_server_open(struct sc_server *s, const char *path, const struct sc_server_limits *lim,
	       uint64_t generation)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(sa.sun_path) || lim->max_apps == 0 ||
	    lim->max_apps > SC_SERVER_MAX_APPS || lim->max_threads == 0 ||
	    lim->max_threads > SC_MAX_THREADS || lim->max_pending > SC_SERVER_MAX_PENDING ||
	    lim->hello_timeout_ms > SC_SERVER_HELLO_MS_MAX || lim->workers > SC_MAX_WORKERS ||
	    (lim->access.mode & ~07777u) != 0 || lim->access.n_uids > SC_SERVER_MAX_ALLOW ||
	    lim->access.n_gids > SC_SERVER_MAX_ALLOW)
		return -EINVAL;
	struct sc_layout probe;
	if (sc_layout_compute(&probe, 1, lim->ring_slots, lim->arena_bytes) != 0)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->listen_fd = -1;
	s->zc_fd = -1;
	s->lim = *lim;
	if (s->lim.max_pending == 0)
		s->lim.max_pending = SC_SERVER_PENDING_DEFAULT;
	if (s->lim.hello_timeout_ms == 0)
		s->lim.hello_timeout_ms = SC_SERVER_HELLO_MS_DEFAULT;
	if (s->lim.workers == 0)
		s->lim.workers = 1;
	s->generation = generation;
	s->next_id = 1;
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* bind() fails on any existing file, so a free path is taken atomically.
	 * An existing socket is replaced only when nobody accepts on it (its
	 * daemon died): taking a live daemon's path would leave that daemon
	 * running and unreachable, and our exit would delete its socket. */
	int rc = sc_bind_listen(fd, &sa, s->lim.max_pending);
	if (rc == -EADDRINUSE) {
		rc = sc_server_probe(path);
		if (rc == 0 && unlink(path) != 0 && errno != ENOENT)
			rc = -errno;
		if (rc == 0)
			rc = sc_bind_listen(fd, &sa, s->lim.max_pending);
	}
	/* The mode and group go on before the first accept: bind() made the
	 * file with the umask's bits, and what connected in between is still
	 * checked against the lists. */
	struct stat st;
	const struct sc_server_access *acc = &s->lim.access;
	if (rc == 0 && (chmod(path, acc->mode != 0 ? acc->mode : 0660) != 0 ||
			(acc->set_gid && chown(path, (uid_t)-1, (gid_t)acc->gid) != 0) ||
			stat(path, &st) != 0))
		rc = -errno;
	if (rc != 0) {
		close(fd);
		return rc;
	}
	s->sock_dev = (uint64_t)st.st_dev;
	s->sock_ino = (uint64_t)st.st_ino;
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

/* Refuse an application with a reason, then hang up. The socket is
 * non-blocking: a client with no room for the refusal gets only the EOF. */
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

/*
 * Read the hello of a connection, without waiting: -EAGAIN when it has not
 * arrived yet (the caller keeps the connection pending); otherwise the
 * connection is attached (1) or refused or closed (0) here.
 *
 * The socket is non-blocking and SOCK_SEQPACKET, so a hello is one whole
 * record or nothing: a short, long (MSG_TRUNC) or malformed one, or one
 * carrying descriptors (no control buffer is offered: MSG_CTRUNC, and the
 * kernel closes them), is -EPROTO from sc_hello_recv() and refused.
 */
static int
sc_hello_take(struct sc_server *s, int sock)
{
	struct sc_hello h;
	int rc = sc_hello_recv(sock, &h);
	if (rc == -EAGAIN || rc == -EWOULDBLOCK)
		return -EAGAIN;
	if (rc == -EPROTO) {
		s->ctr.bad_hello++;
		sc_refuse(s, sock, -EPROTO);
		return 0;
	}
	if (rc != 0) { /* it left before saying anything (EOF, reset): nobody to answer */
		close(sock);
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
	rc = sc_layout_compute_workers(&w.layout, h.n_threads,
				       s->lim.workers != 0 ? s->lim.workers : 1, slots, arena);
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
		sc_refuse(s, sock, rc);
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
	/* The daemon takes the application on before it learns of the region:
	 * on_attach reads the rings while only the daemon has written them, so
	 * a broken ring there is a fault of ours, never an application quick
	 * to write its indices (nor one that never saw its welcome). */
	s->apps[slot] = a;
	if (s->on_attach != NULL)
		s->on_attach(s, a, s->arg);
	/* One record of ~10 KB into a socket buffer of ~200 KB that holds
	 * nothing else: it fits unless something is wrong, and then waiting
	 * would be for the client (EAGAIN: refused, counted). */
	rc = sc_welcome_send(sock, &w, fds);
	if (rc != 0) {
		if (rc == -EAGAIN || rc == -EWOULDBLOCK)
			s->ctr.welcome_unsent++;
		/* It left while we answered, or had no room: on_detach undoes
		 * on_attach, and it never counted as attached. */
		if (s->on_detach != NULL)
			s->on_detach(s, a, s->arg);
		s->apps[slot] = NULL;
		sc_app_free(a);
		s->ctr.refused++;
		return 0;
	}
	s->ctr.attached++;
	return 1;
}

/* Forget pending connection i (its socket is someone else's business now). */
static void
sc_pending_remove(struct sc_server *s, uint32_t i)
{
	memmove(&s->pending[i], &s->pending[i + 1], (s->n_pending - i - 1) * sizeof(s->pending[0]));
	s->n_pending--;
}

/* A connection whose hello has not arrived: into the table, oldest first.
 * A full table turns its oldest away, not the newcomer: holding the table
 * with silent connections then locks nobody out for longer than it takes
 * max_pending newer connections to arrive. */
static void
sc_pending_add(struct sc_server *s, int sock, uint64_t now)
{
	if (s->n_pending == s->lim.max_pending) {
		s->ctr.pending_evicted++;
		sc_refuse(s, s->pending[0].sock, -EBUSY);
		sc_pending_remove(s, 0);
	}
	s->pending[s->n_pending++] = (struct sc_pending){ sock, now + s->lim.hello_timeout_ms };
}

static bool
sc_listed(const uint32_t *v, uint32_t n, uint32_t x)
{
	for (uint32_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* The connecting process may attach (struct sc_server_access). */
static bool
sc_cred_allowed(const struct sc_server *s, int sock)
{
	const struct sc_server_access *acc = &s->lim.access;
	if (acc->n_uids == 0 && acc->n_gids == 0)
		return true;
	struct ucred cr;
	socklen_t len = sizeof(cr);
	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cr, &len) != 0 || len != sizeof(cr))
		return false;
	return cr.uid == 0 || cr.uid == geteuid() || sc_listed(acc->uids, acc->n_uids, cr.uid) ||
	       sc_listed(acc->gids, acc->n_gids, cr.gid);
}

/* Accept what is waiting (at most SC_ACCEPT_BURST); a hello already there
 * is taken at once. The number of applications attached. */
static int
sc_accept(struct sc_server *s, uint64_t now)
{
	int attached = 0;
	for (unsigned k = 0; k < SC_ACCEPT_BURST; k++) {
		int sock = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (sock < 0)
			break; /* EAGAIN: none left; anything else: next time */
		if (!sc_cred_allowed(s, sock)) {
			s->ctr.refused_cred++;
			sc_refuse(s, sock, -EACCES);
			continue;
		}
		int rc = sc_hello_take(s, sock);
		if (rc == -EAGAIN)
			sc_pending_add(s, sock, now);
		else
			attached += rc;
	}
	return attached;
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
	struct pollfd pf[1 + SC_SERVER_MAX_APPS + SC_SERVER_MAX_PENDING];
	unsigned idx[SC_SERVER_MAX_APPS], n = 0, n_apps = 0;
	uint64_t now = sc_now_ms();
	pf[n++] = (struct pollfd){ s->listen_fd, POLLIN, 0 };
	for (unsigned i = 0; i < s->lim.max_apps; i++)
		if (s->apps[i] != NULL) {
			idx[n_apps++] = i;
			pf[n++] = (struct pollfd){ s->apps[i]->sock, POLLIN, 0 };
		}
	const unsigned first_pending = n;
	for (uint32_t i = 0; i < s->n_pending; i++)
		pf[n++] = (struct pollfd){ s->pending[i].sock, POLLIN, 0 };
	/* Wake up for the oldest hello's deadline at the latest. */
	if (s->n_pending != 0 && timeout_ms != 0) {
		uint64_t dl = s->pending[0].deadline_ms;
		uint64_t left = dl > now ? dl - now : 0;
		if (timeout_ms < 0 || left < (uint64_t)timeout_ms)
			timeout_ms = (int)left;
	}
	int rc = poll(pf, n, timeout_ms);
	if (rc < 0)
		return errno == EINTR ? 0 : -errno;
	if (timeout_ms != 0)
		now = sc_now_ms();
	int changes = 0;
	/* An application says nothing after its hello: anything readable is its
	 * departure (EOF, an error) or a protocol breach; either way it is gone. */
	for (unsigned k = 0; k < n_apps; k++)
		if (pf[1 + k].revents != 0) {
			sc_detach(s, idx[k]);
			changes++;
		}
	/* Pending connections: a hello that arrived (or EOF), or time is up.
	 * From the newest down, so removing one moves no entry not yet seen;
	 * entries stay in arrival order, so the table stays sorted by deadline. */
	for (uint32_t i = s->n_pending; i-- > 0;) {
		int r = -EAGAIN;
		if (pf[first_pending + i].revents != 0)
			r = sc_hello_take(s, s->pending[i].sock);
		if (r == -EAGAIN && now >= s->pending[i].deadline_ms) {
			s->ctr.hello_timeouts++;
			sc_refuse(s, s->pending[i].sock, -ETIMEDOUT);
			r = 0;
		}
		if (r != -EAGAIN) {
			sc_pending_remove(s, i);
			changes += r;
		}
	}
	if (pf[0].revents & POLLIN)
		changes += sc_accept(s, now);
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
	for (uint32_t i = 0; i < s->n_pending; i++)
		close(s->pending[i].sock);
	s->n_pending = 0;
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	s->listen_fd = -1;
	/* Only our own socket: a daemon started after ours went stale (or after
	 * someone removed ours) has its socket there now. */
	struct stat st;
	if (path != NULL && lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) &&
	    (uint64_t)st.st_dev == s->sock_dev && (uint64_t)st.st_ino == s->sock_ino)
		unlink(path);
}
