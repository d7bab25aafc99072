/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * libdpsctp-client: an application's way into dpsctpd, the sidecar data
 * plane (issue 8, docs/SIDECAR.md). It does not link DPDK: it speaks to
 * the daemon over a Unix socket and shared memory.
 *
 * This first part attaches and detaches; sending and receiving follow.
 * Every call returns 0 or a negative errno; none blocks unless it says so.
 */
#ifndef DPSCTP_CLIENT_H
#define DPSCTP_CLIENT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DPSCTP_CLIENT_EXPORT __attribute__((visibility("default")))

/** The daemon's socket when none is given. */
#define DPSCTP_CLIENT_DEFAULT_SOCKET "/run/dpsctpd.sock"

struct dpsctp_client;

/** How to attach; zeros take the daemon's defaults. */
struct dpsctp_client_opts {
	unsigned threads;     /**< application threads with their own rings (default 1) */
	uint32_t ring_slots;  /**< slots per ring, a power of two */
	uint64_t arena_bytes; /**< payload bytes per arena, a power of two */
	const char *name;     /**< shown in the daemon's logs and counters (at most 31 bytes) */
};

/**
 * Attach to the daemon at @p socket_path (NULL: DPSCTP_CLIENT_DEFAULT_SOCKET).
 * Blocks for the handshake (a few system calls).
 *
 * @return the handle, or NULL with *err: -ENOENT / -ECONNREFUSED (no
 *         daemon there), -EBUSY (the daemon serves its maximum of
 *         applications), -E2BIG (more threads or larger rings or arenas
 *         than it allows), -EPROTO (it speaks another version, or sent
 *         something malformed), -EINVAL (bad options), -ENOMEM.
 */
DPSCTP_CLIENT_EXPORT struct dpsctp_client *
dpsctp_client_attach(const char *socket_path, const struct dpsctp_client_opts *opts, int *err);

/** The daemon's id for this application (its logs and counters use it). */
DPSCTP_CLIENT_EXPORT uint32_t dpsctp_client_id(const struct dpsctp_client *c);

/**
 * The eventfd of thread @p t: readable when its completions or events
 * wait (put it in an epoll set). -EINVAL for a thread out of range.
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_fd(const struct dpsctp_client *c, unsigned t);

/**
 * 0 while the daemon that welcomed us serves us; -ECONNRESET once it has
 * gone (stopped, crashed, restarted: detach and attach again).
 */
DPSCTP_CLIENT_EXPORT int dpsctp_client_check(struct dpsctp_client *c);

/** Detach and free everything (the daemon aborts what is left of ours). */
DPSCTP_CLIENT_EXPORT void dpsctp_client_detach(struct dpsctp_client *c);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_CLIENT_H */
