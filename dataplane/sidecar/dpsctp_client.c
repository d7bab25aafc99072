/* SPDX-License-Identifier: BSD-3-Clause */
/* libdpsctp-client: attaching to dpsctpd (dpsctp_client.h). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "dataplane/sidecar/dpsctp_client.h"
#include "dataplane/sidecar/sc_region.h"

struct dpsctp_client {
	int sock;
	uint32_t id;
	uint64_t generation;
	struct sc_layout layout;
	void *base;
	int fds[1 + SC_MAX_THREADS]; /* memfd, then the threads' eventfds */
	unsigned n_fds;
	bool gone;
};

static struct dpsctp_client *
client_fail(struct dpsctp_client *c, int *err, int e)
{
	dpsctp_client_detach(c);
	if (err != NULL)
		*err = e;
	return NULL;
}

struct dpsctp_client *
dpsctp_client_attach(const char *socket_path, const struct dpsctp_client_opts *opts, int *err)
{
	const char *path = socket_path != NULL ? socket_path : DPSCTP_CLIENT_DEFAULT_SOCKET;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	unsigned threads = opts != NULL && opts->threads != 0 ? opts->threads : 1;
	if (strlen(path) >= sizeof(sa.sun_path) || threads > SC_MAX_THREADS ||
	    (opts != NULL && opts->name != NULL && strlen(opts->name) >= SC_NAME_LEN)) {
		if (err != NULL)
			*err = -EINVAL;
		return NULL;
	}
	strcpy(sa.sun_path, path);
	struct dpsctp_client *c = calloc(1, sizeof(*c));
	if (c == NULL)
		return client_fail(NULL, err, -ENOMEM);
	c->sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (c->sock < 0)
		return client_fail(c, err, -errno);
	if (connect(c->sock, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		return client_fail(c, err, -errno);
	struct sc_hello h;
	memset(&h, 0, sizeof(h));
	h.magic = SC_MAGIC;
	h.version = SC_VERSION;
	h.n_threads = threads;
	if (opts != NULL) {
		h.ring_slots = opts->ring_slots;
		h.arena_bytes = opts->arena_bytes;
		if (opts->name != NULL)
			strcpy(h.name, opts->name);
	}
	int rc = sc_hello_send(c->sock, &h);
	if (rc != 0)
		return client_fail(c, err, rc);
	struct sc_welcome w;
	rc = sc_welcome_recv(c->sock, &w, c->fds, 1 + threads);
	if (rc != 0)
		return client_fail(c, err, rc);
	c->n_fds = w.status == 0 ? w.n_fds : 0;
	if (w.status != 0)
		return client_fail(c, err, w.status);
	if (w.n_fds != 1 + threads || w.layout.n_threads != threads)
		return client_fail(c, err, -EPROTO);
	c->id = w.app_id;
	c->generation = w.generation;
	c->layout = w.layout;
	rc = sc_region_map(c->fds[0], &c->layout, c->generation, &c->base);
	if (rc != 0)
		return client_fail(c, err, rc);
	if (err != NULL)
		*err = 0;
	return c;
}

uint32_t
dpsctp_client_id(const struct dpsctp_client *c)
{
	return c->id;
}

int
dpsctp_client_fd(const struct dpsctp_client *c, unsigned t)
{
	return t < c->layout.n_threads ? c->fds[1 + t] : -EINVAL;
}

int
dpsctp_client_check(struct dpsctp_client *c)
{
	if (!c->gone) {
		/* The daemon never writes after the welcome: readable means it hung up. */
		struct pollfd pf = { c->sock, POLLIN, 0 };
		if (poll(&pf, 1, 0) != 0)
			c->gone = true;
	}
	return c->gone ? -ECONNRESET : 0;
}

void
dpsctp_client_detach(struct dpsctp_client *c)
{
	if (c == NULL)
		return;
	if (c->base != NULL)
		munmap(c->base, c->layout.region_bytes);
	for (unsigned i = 0; i < c->n_fds; i++)
		close(c->fds[i]);
	if (c->sock >= 0)
		close(c->sock);
	free(c);
}
