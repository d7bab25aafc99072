/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The daemon's side of attaching (docs/SIDECAR.md): a Unix
 * socket that applications connect to, one region per application, and
 * the knowledge of which applications are still there. DPDK-free: dpsctpd
 * drives it (sc_server_poll()) from the thread that also runs the data
 * plane and serves the rings.
 *
 * An application is gone when its socket reports EOF or an error (it
 * exited, crashed or detached): the server says so through on_detach and
 * frees its region after the callback, so the data plane can abort the
 * application's associations first. A hello that is malformed or asks for
 * more than the limits is answered with a refusal (a welcome with a
 * negative status) and the socket closed; the other applications notice
 * nothing.
 *
 * Nothing here waits for an application: dpsctpd polls this
 * from the thread that runs the data plane, so a client that connects and
 * says nothing, says half a hello or never reads its welcome must cost
 * that thread nothing. Sockets are non-blocking; a connection whose hello
 * has not arrived waits in a bounded table (max_pending) with a deadline
 * (hello_timeout_ms) and is read when poll() says so; a full table turns
 * away its oldest entry; a welcome that does not fit in the socket at once
 * is a refusal, not a wait.
 */
#ifndef DPSCTP_SC_SERVER_H
#define DPSCTP_SC_SERVER_H

#include "dataplane/sidecar/sc_region.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SC_SERVER_MAX_APPS 64u
/* Connections whose hello has not arrived yet: at most, and by default. */
#define SC_SERVER_MAX_PENDING	  128u
#define SC_SERVER_PENDING_DEFAULT 16u
/* How long a connection may take to say hello, by default and at most. The
 * client library sends it right after connect(): a well-behaved client
 * needs microseconds; the rest is for a loaded machine. */
#define SC_SERVER_HELLO_MS_DEFAULT 1000u
#define SC_SERVER_HELLO_MS_MAX	   60000u

/*
 * Who may attach. The socket file's mode and group are the first gate
 * (connect() needs write permission on it); the lists are a second one the
 * kernel vouches for: SO_PEERCRED gives the connecting process's user and
 * primary group as they were at connect(). With both lists empty anyone the
 * file lets in may attach; otherwise a connection whose user is not in
 * uids and whose group is not in gids is refused -EACCES (counted
 * refused_cred). Root and the daemon's own user are always let in: they
 * can read the daemon's memory anyway.
 */
#define SC_SERVER_MAX_ALLOW 16u
struct sc_server_access {
	uint32_t mode; /* the socket file's permission bits; 0: 0660 */
	bool set_gid;  /* chown the socket file to gid */
	uint32_t gid;
	uint32_t n_uids, n_gids;
	uint32_t uids[SC_SERVER_MAX_ALLOW], gids[SC_SERVER_MAX_ALLOW];
};

struct sc_server_limits {
	uint32_t max_apps;    /* attached at once, <= SC_SERVER_MAX_APPS */
	uint32_t max_threads; /* per application, <= SC_MAX_THREADS */
	uint32_t ring_slots;  /* default and largest */
	uint64_t arena_bytes; /* default and largest */
	/* 0: the defaults above */
	uint32_t max_pending;	   /* not yet said hello, <= SC_SERVER_MAX_PENDING */
	uint32_t hello_timeout_ms; /* to say it, <= SC_SERVER_HELLO_MS_MAX */
	uint32_t workers;	   /* ring sets per thread (the daemon's workers), 0: one */
	struct sc_server_access access;
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
	uint64_t attached, detached;
	uint64_t refused;	  /* every connection turned away, for whatever reason */
	uint64_t bad_hello;	  /* malformed, truncated, oversized, or with descriptors */
	uint64_t hello_timeouts;  /* no hello within hello_timeout_ms */
	uint64_t pending_evicted; /* the oldest pending one, to make room for a newer */
	uint64_t welcome_unsent;  /* the welcome did not fit in the socket at once */
	uint64_t refused_cred;	  /* a user and group neither list allows (-EACCES) */
};

/* A connection whose hello has not arrived yet. */
struct sc_pending {
	int sock;
	uint64_t deadline_ms; /* CLOCK_MONOTONIC */
};

struct sc_server {
	int listen_fd;
	uint64_t generation;
	struct sc_server_limits lim;
	uint32_t next_id;
	struct sc_app *apps[SC_SERVER_MAX_APPS];
	struct sc_pending pending[SC_SERVER_MAX_PENDING]; /* oldest first */
	uint32_t n_pending;
	struct sc_server_counters ctr;
	/* The socket file as bound: sc_server_close() unlinks it only while it
	 * is still this one (not another daemon's that replaced it). */
	uint64_t sock_dev, sock_ino;
	/* Zero copy: the packet-buffer memfd handed (read-only use) to the
	 * applications that ask; -1 when the daemon runs in one-copy mode. */
	int zc_fd;
	uint64_t zc_bytes;
	void (*on_attach)(struct sc_server *s, struct sc_app *a, void *arg);
	void (*on_detach)(struct sc_server *s, struct sc_app *a, void *arg);
	void *arg;
};

/*
 * Whether path can be ours: 0 when nothing is there or only a stale socket
 * (nobody accepts on it: connect() is refused), -EADDRINUSE when a server
 * accepts connections on it (another daemon is alive; nothing is changed),
 * -EEXIST when it is not a socket, or another -errno from the probe.
 * Touches nothing; sc_server_open() asks the same before replacing.
 */
int sc_server_probe(const char *path);

/*
 * Listen on the Unix socket at path (mode 0660). A stale socket file is
 * replaced; a live one is not (-EADDRINUSE: another daemon serves it), nor
 * anything that is not a socket (-EEXIST). generation distinguishes this
 * daemon from its predecessors (e.g. its start time and pid). 0 or -errno
 * (-EINVAL: limits out of range).
 */
int sc_server_open(struct sc_server *s, const char *path, const struct sc_server_limits *lim,
		   uint64_t generation);

/*
 * Accept new applications, read the hellos that arrived, expire the ones
 * that did not in time, and notice departed applications, waiting at most
 * timeout_ms (0: do not wait; never longer than the next hello deadline).
 * Never waits on a client otherwise. The callbacks run inside. The number
 * of applications attached or detached, or -errno.
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

/*
 * Detach every application (on_detach for each), close the pending
 * connections and the socket, and unlink path if it is still the socket
 * this server bound (another daemon may have replaced it since).
 */
void sc_server_close(struct sc_server *s, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_SC_SERVER_H */
