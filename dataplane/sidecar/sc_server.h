/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The daemon's side of attaching (issue 8, docs/SIDECAR.md): a Unix
 * socket that applications connect to, one region per application, and
 * the knowledge of which applications are still there. DPDK-free: dpsctpd
 * drives it from its control thread (sc_server_poll()) and serves the
 * rings from its lcores.
 *
 * An application is gone when its socket reports EOF or an error (it
 * exited, crashed or detached): the server says so through on_detach and
 * frees its region after the callback, so the data plane can abort the
 * application's associations first. A hello that is malformed or asks for
 * more than the limits is answered with a refusal (a welcome with a
 * negative status) and the socket closed; the other applications notice
 * nothing.
 */
#ifndef DPSCTP_SC_SERVER_H
#define DPSCTP_SC_SERVER_H

#include "dataplane/sidecar/sc_region.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SC_SERVER_MAX_APPS 64u

struct sc_server_limits {
	uint32_t max_apps;    /* attached at once, <= SC_SERVER_MAX_APPS */
	uint32_t max_threads; /* per application, <= SC_MAX_THREADS */
	uint32_t ring_slots;  /* default and largest */
	uint64_t arena_bytes; /* default and largest */
};

/* One attached application, as the daemon holds it. */
struct sc_app {
	uint32_t id;
	int sock;
	int memfd;
	void *base;
	struct sc_layout layout;
	int efd[SC_MAX_THREADS]; /* the daemon's copies of the threads' eventfds */
	char name[SC_NAME_LEN];
	bool zero_copy; /* it asked for, and got, the packet-buffer memfd */
	void *user;	/* the daemon's own state for it (set in on_attach) */
};

struct sc_server_counters {
	uint64_t attached, detached, refused, bad_hello;
};

struct sc_server {
	int listen_fd;
	uint64_t generation;
	struct sc_server_limits lim;
	uint32_t next_id;
	struct sc_app *apps[SC_SERVER_MAX_APPS];
	struct sc_server_counters ctr;
	/* Zero copy: the packet-buffer memfd handed (read-only use) to the
	 * applications that ask; -1 when the daemon runs in one-copy mode. */
	int zc_fd;
	uint64_t zc_bytes;
	void (*on_attach)(struct sc_server *s, struct sc_app *a, void *arg);
	void (*on_detach)(struct sc_server *s, struct sc_app *a, void *arg);
	void *arg;
};

/*
 * Listen on the Unix socket at path (a stale socket file is replaced;
 * mode 0660). generation distinguishes this daemon from its predecessors
 * (e.g. its start time and pid). 0 or -errno.
 */
int sc_server_open(struct sc_server *s, const char *path, const struct sc_server_limits *lim,
		   uint64_t generation);

/*
 * Accept new applications and notice departed ones, waiting at most
 * timeout_ms (0: do not wait). The callbacks run inside. The number of
 * applications attached or detached, or -errno.
 */
int sc_server_poll(struct sc_server *s, int timeout_ms);

/*
 * Detach one application now (on_detach, then free): the daemon found its
 * rings broken. Its socket closes, so its library sees the daemon gone
 * (-ECONNRESET) and may attach again. Not from inside on_detach.
 */
void sc_server_drop(struct sc_server *s, struct sc_app *a);

/* Applications attached now. */
unsigned sc_server_apps(const struct sc_server *s);

/* Detach every application (on_detach for each) and close the socket. */
void sc_server_close(struct sc_server *s, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_SC_SERVER_H */
