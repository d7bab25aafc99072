/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The socket layer under interop_peer.c: one peer program, two SCTP stacks.
 *
 * usrsctp's API is the RFC 6458 socket API with a `usrsctp_` prefix and a
 * `struct socket *` for a descriptor, so the same peer source builds twice:
 *
 *   usrsctp-peer     (default)             Debian's libusrsctp, the FreeBSD
 *                                          stack in the peer's own process;
 *   linux-sctp-peer  (INTEROP_LINUX_SCTP)  the Linux kernel's SCTP through
 *                                          lksctp-tools' libsctp, linked
 *                                          statically so it runs in the
 *                                          initramfs of linux_vm.py's guest.
 *
 * Only what differs lives here: the descriptor type, the stack's set-up
 * (usrsctp is a library that must be started; the kernel is configured by
 * sysctl and per-socket options) and the names of the calls. The structures
 * (sctp_sndinfo, sctp_rcvinfo, sctp_prinfo, sctp_sendv_spa, sctp_initmsg,
 * sctp_paddrparams, sctp_udpencaps, sctp_event, sctp_send_failed_event) are
 * RFC 6458's in both headers; only the PR-SCTP policy numbers differ
 * (SCTP_PR_SCTP_TTL is 1 in usrsctp, 0x10 in Linux), so the peer uses the
 * header's names. I-DATA (RFC 8260) is SCTP_INTERLEAVING_SUPPORTED in both,
 * which usrsctp's installed header leaves out (below).
 */
#ifndef DPSCTP_INTEROP_SOCK_H
#define DPSCTP_INTEROP_SOCK_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>

#ifdef INTEROP_LINUX_SCTP

#include <netinet/in.h>
#include <netinet/sctp.h>
#include <unistd.h>

#define PEER_NAME "linux-sctp-peer"

typedef int psock;
#define PSOCK_NONE (-1)

static uint32_t psock_rto_min, psock_rto_initial, psock_rto_max;

/* A namespace-wide sysctl of the kernel's SCTP; false (errno) when it failed. */
static bool
psock_sysctl(const char *name, unsigned value)
{
	char path[128];
	snprintf(path, sizeof(path), "/proc/sys/net/sctp/%s", name);
	FILE *f = fopen(path, "w");
	if (f == NULL)
		return false;
	bool ok = fprintf(f, "%u\n", value) > 0;
	return fclose(f) == 0 && ok;
}

/*
 * UDP encapsulation (RFC 6951, Linux 5.11+): udp_port opens the kernel's
 * listening UDP socket for the whole network namespace (the remote port is
 * the socket's SCTP_REMOTE_UDP_ENCAPS_PORT, set in make_socket()). I-DATA
 * (RFC 8260): intl_enable lets a socket turn it on (SCTP_INTERLEAVING_SUPPORTED
 * fails with EPERM while it is 0, the default). RE-CONFIG (RFC 6525):
 * reconf_enable, also 0 by default, is what new sockets offer. The peer runs in its own
 * guest, so this touches nobody else; on a shared host run it in a namespace
 * of its own.
 */
static int
psock_stack_init(bool udp, bool idata, bool reconf, uint32_t rto_min, uint32_t rto_initial,
		 uint32_t rto_max)
{
	psock_rto_min = rto_min;
	psock_rto_initial = rto_initial;
	psock_rto_max = rto_max;
	if (udp && !psock_sysctl("udp_port", 9899)) {
		fprintf(stderr, PEER_NAME ": net.sctp.udp_port: %s\n", strerror(errno));
		return -1;
	}
	if (idata && !psock_sysctl("intl_enable", 1)) {
		fprintf(stderr, PEER_NAME ": net.sctp.intl_enable: %s\n", strerror(errno));
		return -1;
	}
	if (reconf && !psock_sysctl("reconf_enable", 1)) {
		fprintf(stderr, PEER_NAME ": net.sctp.reconf_enable: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static void
psock_stack_finish(void)
{
}

static psock
psock_socket(int family)
{
	int fd = socket(family, SOCK_STREAM, IPPROTO_SCTP);
	if (fd < 0) {
		if (errno == EPROTONOSUPPORT || errno == ESOCKTNOSUPPORT)
			fprintf(stderr,
				PEER_NAME ": this kernel has no SCTP "
					  "(modprobe sctp, or run it in linux_vm.py's guest)\n");
		return PSOCK_NONE;
	}
	/* The kernel's RTO bounds are per socket (usrsctp's are sysctls). */
	if (psock_rto_min != 0 || psock_rto_initial != 0 || psock_rto_max != 0) {
		struct sctp_rtoinfo ri;
		memset(&ri, 0, sizeof(ri));
		ri.srto_assoc_id = SCTP_FUTURE_ASSOC;
		ri.srto_min = psock_rto_min;
		ri.srto_initial = psock_rto_initial;
		ri.srto_max = psock_rto_max;
		if (setsockopt(fd, IPPROTO_SCTP, SCTP_RTOINFO, &ri, sizeof(ri)) < 0)
			fprintf(stderr, PEER_NAME ": RTO bounds: %s\n", strerror(errno));
	}
	return fd;
}

/* The buffers for --big and --rcvbuf: SO_SNDBUF and SO_RCVBUF are capped at
 * twice net.core.wmem_max / rmem_max (416 KiB by default); the guest's peer
 * runs as root and may force them. */
#define PSOCK_SO_SNDBUF SO_SNDBUFFORCE
#define PSOCK_SO_RCVBUF SO_RCVBUFFORCE

#define psock_setsockopt setsockopt
#define psock_getsockopt getsockopt
#define psock_bind	 bind
#define psock_bindx	 sctp_bindx
#define psock_listen	 listen
#define psock_shutdown	 shutdown
#define psock_close	 close

static psock
psock_accept(psock s)
{
	return accept(s, NULL, NULL);
}

static int
psock_connectx(psock s, struct sockaddr *addrs, int n)
{
	sctp_assoc_t id;
	return sctp_connectx(s, addrs, n, &id);
}

/* With `pr`, the message goes with a PR-SCTP policy (RFC 7496): SNDINFO and
 * PRINFO together (SCTP_SENDV_SPA). */
static ssize_t
psock_sendv(psock s, const void *buf, size_t len, struct sctp_sndinfo *si,
	    const struct sctp_prinfo *pr)
{
	struct iovec iov = { (void *)buf, len };
	if (pr == NULL)
		return sctp_sendv(s, &iov, 1, NULL, 0, si, sizeof(*si), SCTP_SENDV_SNDINFO, 0);
	struct sctp_sendv_spa spa;
	memset(&spa, 0, sizeof(spa));
	spa.sendv_flags = SCTP_SEND_SNDINFO_VALID | SCTP_SEND_PRINFO_VALID;
	spa.sendv_sndinfo = *si;
	spa.sendv_prinfo = *pr;
	return sctp_sendv(s, &iov, 1, NULL, 0, &spa, sizeof(spa), SCTP_SENDV_SPA, 0);
}

/*
 * A one-to-one socket whose association has already gone to CLOSED fails
 * recvmsg() with ENOTCONN instead of reading the end of the stream (0), a
 * read that was blocked when the SHUTDOWN COMPLETE came gets 0: the end of a
 * graceful close either way. An ABORT leaves its error on the socket
 * (ECONNRESET), so ENOTCONN with no pending error is read as the end.
 */
static ssize_t
psock_recvv(psock s, void *buf, size_t len, struct sctp_rcvinfo *ri, int *flags)
{
	struct iovec iov = { buf, len };
	socklen_t il = sizeof(*ri);
	unsigned type = 0;
	*flags = 0;
	ssize_t n = sctp_recvv(s, &iov, 1, NULL, NULL, ri, &il, &type, flags);
	if (n < 0 && errno == ENOTCONN) {
		int err = 0;
		socklen_t el = sizeof(err);
		if (getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &el) == 0 && err == 0)
			return 0;
		errno = err != 0 ? err : ENOTCONN;
	}
	return n;
}

#else /* usrsctp */

#include <usrsctp.h>

#define PEER_NAME  "usrsctp-peer"

typedef struct socket *psock;
#define PSOCK_NONE NULL

/*
 * usrsctp implements I-DATA, but its installed header (0.9.5) leaves the
 * socket option out: the number is the one in its netinet/sctp.h, which
 * its own fuzzers define the same way.
 */
#ifndef SCTP_INTERLEAVING_SUPPORTED
#define SCTP_INTERLEAVING_SUPPORTED 0x00001206
#endif

/* usrsctp over raw IP, or over UDP with the RFC 6951 port as its local port.
 * I-DATA and RE-CONFIG are per-socket options here (make_socket()). */
static int
psock_stack_init(bool udp, bool idata, bool reconf, uint32_t rto_min, uint32_t rto_initial,
		 uint32_t rto_max)
{
	(void)idata;
	(void)reconf; /* usrsctp offers RE-CONFIG by default (the socket option says so too) */
	usrsctp_init(udp ? 9899 : 0, NULL, NULL);
	usrsctp_sysctl_set_sctp_blackhole(0);
	if (rto_min != 0)
		usrsctp_sysctl_set_sctp_rto_min_default(rto_min);
	if (rto_initial != 0)
		usrsctp_sysctl_set_sctp_rto_initial_default(rto_initial);
	if (rto_max != 0)
		usrsctp_sysctl_set_sctp_rto_max_default(rto_max);
	return 0;
}

/* usrsctp_finish() refuses while associations are still closing. */
static void
psock_stack_finish(void)
{
	for (int i = 0; i < 300 && usrsctp_finish() != 0; i++) {
		struct timespec d = { 0, 10 * 1000 * 1000 };
		nanosleep(&d, NULL);
	}
}

static psock
psock_socket(int family)
{
	return usrsctp_socket(family, SOCK_STREAM, IPPROTO_SCTP, NULL, NULL, 0, NULL);
}

#define PSOCK_SO_SNDBUF SO_SNDBUF
#define PSOCK_SO_RCVBUF SO_RCVBUF

#define psock_setsockopt usrsctp_setsockopt
#define psock_getsockopt usrsctp_getsockopt
#define psock_bind	 usrsctp_bind
#define psock_bindx	 usrsctp_bindx
#define psock_listen	 usrsctp_listen
#define psock_shutdown	 usrsctp_shutdown
#define psock_close	 usrsctp_close

static psock
psock_accept(psock s)
{
	return usrsctp_accept(s, NULL, NULL);
}

static int
psock_connectx(psock s, struct sockaddr *addrs, int n)
{
	return usrsctp_connectx(s, addrs, n, NULL);
}

static ssize_t
psock_sendv(psock s, const void *buf, size_t len, struct sctp_sndinfo *si,
	    const struct sctp_prinfo *pr)
{
	if (pr == NULL)
		return usrsctp_sendv(s, buf, len, NULL, 0, si, sizeof(*si), SCTP_SENDV_SNDINFO, 0);
	struct sctp_sendv_spa spa;
	memset(&spa, 0, sizeof(spa));
	spa.sendv_flags = SCTP_SEND_SNDINFO_VALID | SCTP_SEND_PRINFO_VALID;
	spa.sendv_sndinfo = *si;
	spa.sendv_prinfo = *pr;
	return usrsctp_sendv(s, buf, len, NULL, 0, &spa, sizeof(spa), SCTP_SENDV_SPA, 0);
}

static ssize_t
psock_recvv(psock s, void *buf, size_t len, struct sctp_rcvinfo *ri, int *flags)
{
	socklen_t il = sizeof(*ri);
	unsigned type = 0;
	*flags = 0;
	return usrsctp_recvv(s, buf, len, NULL, NULL, ri, &il, &type, flags);
}

#endif

#endif /* DPSCTP_INTEROP_SOCK_H */
