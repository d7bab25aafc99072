/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdpsctp-sock: SCTP sockets (RFC 6458, the Linux API) through dpsctpd,
 * for programs that load the library with LD_PRELOAD (docs/SOCKETS.md).
 * What the library's files share; nothing here is exported.
 *
 * Every SCTP socket is a pair of AF_UNIX stream sockets: the program holds
 * one end (its descriptor, "fd"), the library the other ("inner"). No data
 * crosses the pair: it only carries readiness, so that poll, select and
 * epoll, which the library does not wrap, see an SCTP socket as Linux would
 * show it, in any mix with kernel descriptors:
 *
 *   readable  the library writes a byte from inner into fd's receive
 *             queue while a message, an association to accept, an error
 *             or the end waits (sock_ready()), and reads it back when none
 *             does;
 *   writable  fd is writable until the library fills its send buffer (a
 *             small one) while a connect is under way or the daemon's rings
 *             have no room for a send, and drains it from inner again.
 *
 * Blocking calls sleep in poll() on fd for the same readiness, so they
 * never spin, honour SO_RCVTIMEO/SO_SNDTIMEO and return EINTR on a signal.
 *
 * One attachment to dpsctpd per process, one ring set (thread 0), and one
 * thread of the library's (the pump, sock_core.c) that sleeps on the
 * attachment's eventfd, polls completions and events and hands them to
 * the sockets. A single mutex (sock_g.lock) covers the sockets and every
 * call into libdpsctp-client but the pump's dpsctp_client_wait(), which
 * touches only the consumer side of the rings (their sleep flags) while a
 * program's thread may post a request on the producer side.
 */
#ifndef DPSCTP_SOCK_H
#define DPSCTP_SOCK_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <netinet/sctp.h>

#include "dataplane/sidecar/dpsctp_client.h"

#define SOCK_EXPORT __attribute__((visibility("default")))

/* sock_msg.flags */
#define SOCK_MSG_EOR	      0x01u /* the last part of its message */
#define SOCK_MSG_NOTIFICATION 0x02u /* a union sctp_notification, not data */
#define SOCK_MSG_UNORDERED    0x04u

/* A message (or a part of one, or a notification) waiting to be read. */
struct dpsctp_initmsg;

struct sock_msg {
	struct sock_msg *next;
	uint32_t len;  /* bytes at data */
	uint32_t off;  /* of them already read */
	uint32_t ppid; /* network order */
	uint32_t mid;
	uint16_t sid;
	uint16_t ssn;
	uint16_t flags;	      /* SOCK_MSG_* */
	struct sock_asc *asc; /* one-to-many: whose (a reference); NULL on a one-to-one socket */
	uint8_t data[];
};

/*
 * An association of a one-to-many socket (SOCK_SEQPACKET, sock_many.c). A
 * one-to-one socket's association is the socket's own fields (assoc, aid,
 * peer, streams).
 */
struct sock_asc {
	struct sock *sk;
	uint64_t handle;
	sctp_assoc_t id; /* the program's name for it */
	struct sockaddr_storage peer;
	uint16_t out_streams, in_streams;
	bool up;		/* COMM_UP seen */
	bool ended;		/* gone from the daemon; freed when no message names it */
	int err;		/* why it ended, for a send waiting on its set-up */
	unsigned refs;		/* messages that name it */
	struct sock_asc *next;	/* the socket's */
	struct sock_asc *hnext; /* by handle */
};

enum sock_state {
	SOCK_FRESH = 0,	 /* made, maybe bound: no association */
	SOCK_LISTENING,	 /* listen() took the port at the daemon */
	SOCK_CONNECTING, /* connect() posted, COMM_UP not yet here */
	SOCK_CONNECTED,	 /* an association (until it ends: eof) */
	SOCK_CLOSING,	 /* closed by the program: waits for its association to end */
};

/* An association option set before the association exists (sock_opt.c). */
#define SOCK_PENDING_OPTS 8u
struct sock_pending_opt {
	int opt; /* DPSCTP_OPT_*, 0: a free slot */
	uint32_t len;
	uint8_t data[64];
};

/* Events a socket subscribed to (RFC 6458 §6.2), by SCTP_SN type. */
#define SOCK_EV(type) (1u << ((type)-SCTP_SN_TYPE_BASE))

struct sock {
	int fd;	       /* the program's end of the pair; -1 before accept() hands it out */
	int inner;     /* ours */
	unsigned refs; /* descriptors that name it (dup) */
	uint32_t id;   /* in the cookies of its sends */
	int domain;    /* AF_INET or AF_INET6 */
	int type;      /* SOCK_STREAM (one-to-one) or SOCK_SEQPACKET */
	enum sock_state state;
	uint64_t assoc;	       /* one-to-one: the association's handle, 0 when none */
	sctp_assoc_t aid;      /* one-to-one: its id, as the program sees it */
	struct sock_asc *ascs; /* one-to-many: its associations */
	bool orphan;	       /* inherited over fork(): the parent's, unusable here */

	/* Addresses. local_port is bind()'s, or COMM_UP's once connected. */
	bool bound;
	struct sockaddr_storage local;
	struct sockaddr_storage peer;
	uint16_t out_streams, in_streams;

	int err;	  /* SO_ERROR: a positive errno, 0 none */
	bool eof;	  /* the peer sends nothing more: its SHUTDOWN came, or the end */
	bool ended;	  /* the association (one-to-one) is over; recv says ENOTCONN once read */
	bool eof_pending; /* the peer closed gracefully: one receive of 0 owed (Linux's CLOSING) */
	bool rd_shut;	  /* shutdown(SHUT_RD) */
	bool wr_shut;	  /* shutdown(SHUT_WR) or a graceful close begun */

	/* Received, in order; queued counts their unread bytes. */
	struct sock_msg *head, *tail;
	size_t queued;
	/* A message read in part: its parts come before anything else. */
	bool reading;
	struct {
		struct sock_asc *asc;
		uint16_t sid;
		uint16_t unordered; /* SOCK_MSG_UNORDERED or 0 */
		uint32_t mid;
	} cur;

	/* Listening: associations accepted by the daemon, not yet by accept(). */
	struct sock *acc_head, *acc_tail;
	struct sock *acc_next; /* link in the listener's queue */
	unsigned n_acc, backlog;

	/* Readiness on fd (above). */
	unsigned tokens;   /* bytes written into fd's receive queue */
	bool filled;	   /* fd's send buffer filled: not writable */
	bool send_blocked; /* a send found no room: in the rings, or in SO_SNDBUF */
	/* Bytes sent that the daemon may not have taken from the arena yet: at most
	 * SO_SNDBUF (the socket's send buffer, as the kernel bounds it). A barrier
	 * (cookie SOCK_COOKIE_BARRIER | id) says when the first mark of them were. */
	uint64_t unserved, mark;
	bool barrier_out;

	/* Options (sock_opt.c). */
	int rcvbuf, sndbuf;
	int linger_on, linger_s;
	int64_t rcvtimeo_ms, sndtimeo_ms; /* -1: none */
	bool have_initmsg;
	struct sctp_initmsg initmsg;
	uint32_t events; /* SOCK_EV() of each notification wanted */
	bool recvrcvinfo, recvnxtinfo;
	bool nodelay, reuseaddr, v6only;
	struct sctp_sndinfo dflt; /* SCTP_DEFAULT_SNDINFO */
	uint32_t dflt_ttl;	  /* SCTP_DEFAULT_SEND_PARAM's timetolive, ms */
	uint32_t dflt_pr_policy;  /* SCTP_DEFAULT_PRINFO, DPSCTP_CLIENT_PR_* */
	uint32_t dflt_pr_value;
	uint32_t strreset; /* SCTP_ENABLE_STREAM_RESET */
	struct sock_pending_opt pend[SOCK_PENDING_OPTS];

	struct sock *hnext; /* by association */
	struct sock *next;  /* every socket */
};

/* A request whose completion a program's thread waits for. */
struct sock_op {
	bool used, done;
	uint64_t cookie;
	int status;
	uint64_t assoc;
	uint32_t value;
	uint32_t len;
	struct sock *sk;      /* connect: registered by the pump as the completion arrives */
	struct sock_asc *asc; /* connect on a one-to-many socket: the association made */
	uint8_t data[256];
};

/* Cookies: what a completion answers. */
#define SOCK_COOKIE_OP	    (1ull << 63) /* an op slot: index in bits 32..39, a sequence below */
#define SOCK_COOKIE_BARRIER (1ull << 62) /* a socket's barrier: its id below */
/* Otherwise: a quiet send that failed, the sending socket's id. */

#define SOCK_OPS	32u
#define SOCK_HASH	1024u
#define SOCK_TOKENS_MAX 16u

/* The process's state: one attachment, its pump and every socket. */
struct sock_global {
	pthread_mutex_t lock;
	pthread_cond_t cv; /* completions, freed room, the daemon gone */
	pid_t pid;	   /* of the process that attached (fork() makes a child) */
	struct dpsctp_client *c;
	bool gone; /* the daemon went: sockets fail, the next socket() attaches again */
	bool stop; /* the pump is told to end */
	bool pump_running;
	pthread_t pump;
	int kick; /* the attachment's eventfd: written to wake the pump */
	uint32_t next_id;
	uint64_t next_seq;
	struct sock **byfd; /* indexed by descriptor */
	int nfd;
	struct sock *hash[SOCK_HASH];	   /* one-to-one sockets by association handle */
	struct sock_asc *ahash[SOCK_HASH]; /* one-to-many associations by handle */
	sctp_assoc_t next_aid;
	struct sock *all;
	struct sock_op ops[SOCK_OPS];
	unsigned n_blocked;    /* sockets with send_blocked */
	uint64_t blocked_ns;   /* when the first of them blocked */
	unsigned over_rcvbuf;  /* sockets whose queue passed SO_RCVBUF: the pump waits */
	uint64_t dropped_recv; /* messages for sockets that no longer read */
};

extern struct sock_global sock_g;

/*
 * Set on a thread while it is inside libdpsctp-client (the pump always;
 * another thread while it attaches or detaches): the client library's own
 * socket, close, read and poll calls reach the wrappers too, and must go
 * straight to the C library, without the lock the caller may hold.
 */
extern __thread int sock_inside;

/* The C library's own functions, found with dlsym(RTLD_NEXT) (sock_real.c). */
struct sock_real {
	int (*socket)(int, int, int);
	int (*close)(int);
	int (*bind)(int, const struct sockaddr *, socklen_t);
	int (*listen)(int, int);
	int (*accept)(int, struct sockaddr *, socklen_t *);
	int (*accept4)(int, struct sockaddr *, socklen_t *, int);
	int (*connect)(int, const struct sockaddr *, socklen_t);
	int (*shutdown)(int, int);
	int (*getsockname)(int, struct sockaddr *, socklen_t *);
	int (*getpeername)(int, struct sockaddr *, socklen_t *);
	int (*setsockopt)(int, int, int, const void *, socklen_t);
	int (*getsockopt)(int, int, int, void *, socklen_t *);
	int (*dup)(int);
	int (*dup2)(int, int);
	int (*dup3)(int, int, int);
	int (*fcntl)(int, int, ...);
	int (*ioctl)(int, unsigned long, ...);
	ssize_t (*send)(int, const void *, size_t, int);
	ssize_t (*sendto)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
	ssize_t (*sendmsg)(int, const struct msghdr *, int);
	ssize_t (*recv)(int, void *, size_t, int);
	ssize_t (*recvfrom)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
	ssize_t (*recvmsg)(int, struct msghdr *, int);
	ssize_t (*read)(int, void *, size_t);
	ssize_t (*write)(int, const void *, size_t);
	ssize_t (*readv)(int, const struct iovec *, int);
	ssize_t (*writev)(int, const struct iovec *, int);
};

extern struct sock_real sock_real;

/* sock_real.c */
void sock_real_init(void);
void *dlsym_next(const char *name); /* the next definition of name, or abort() */

/* sock_sig.c: whether an interrupted wait restarts (every handler has SA_RESTART). */
bool sock_sig_restarts(void);

/* sock_core.c: attachment, pump, descriptors, readiness. Callers hold sock_g.lock
 * unless a function says otherwise. */
int sock_attach(void);	       /* 0 or -errno; takes and drops nothing (lock held) */
struct sock *sock_get(int fd); /* the socket fd names, or NULL (lock held) */
/*
 * Whether fd may be one of ours, without the lock: every wrapper asks this
 * first, so that a call on any other descriptor — a signal handler's write
 * to its self-pipe while the interrupted thread holds the lock, say — goes
 * to the C library at once and never waits for the lock.
 */
bool sock_maybe_ours(int fd);
/* A wrapper's way in: the socket fd names, locked; NULL (not locked) when fd
 * is not ours. And out: unlocked, -errno turned into errno and -1. */
struct sock *sock_enter(int fd);
ssize_t sock_leave(ssize_t rc);
int sock_check(struct sock *sk);	      /* 0, or -ENOTSUP for an orphan (and says why once) */
struct sock *sock_new(int domain, int type);  /* no descriptors yet */
int sock_open_fd(struct sock *sk, int flags); /* the pair; SOCK_NONBLOCK, SOCK_CLOEXEC */
void sock_bind_fd(struct sock *sk, int fd);   /* byfd[fd] = sk */
void sock_unbind_fd(int fd);
void sock_free(struct sock *sk);
void sock_hash_add(struct sock *sk);
void sock_hash_del(struct sock *sk);
struct sock *sock_by_assoc(uint64_t assoc);
void sock_ready(struct sock *sk); /* make fd's readiness match the socket's */
/* Sleep until fd is readable (POLLIN) or writable (POLLOUT): drops the lock for the
 * poll. 0 ready, -EAGAIN timed out, -EINTR a signal. */
int sock_wait(struct sock *sk, short events, int64_t timeout_ms);
/* A request waited for: the slot, its cookie set. NULL when every slot is taken. */
struct sock_op *sock_op_begin(void);
int sock_op_wait(struct sock_op *op); /* the completion's status; frees nothing */
void sock_op_end(struct sock_op *op);
void sock_kick(void); /* wake the pump */
bool sock_nonblocking(const struct sock *sk);
uint64_t sock_now_ns(void);
void sock_queue(struct sock *sk, struct sock_msg *m); /* append, count, ready */
void sock_notify(struct sock *sk, struct sock_asc *a, const void *n, uint32_t len, uint16_t type);
void sock_assoc_change(struct sock *sk, struct sock_asc *a, const struct dpsctp_client_event *ev,
		       uint16_t state, sctp_assoc_t id);
int sock_reason_errno(enum dpsctp_client_reason r);
void sock_recv_event(struct sock *sk, struct sock_asc *a, const struct dpsctp_client_event *ev);
void sock_other_event(struct sock *sk, struct sock_asc *a, const struct dpsctp_client_event *ev,
		      sctp_assoc_t id);
void sock_close_assoc(struct sock *sk);	    /* the program closed it: shutdown or abort */
void sock_abort_if_unread(struct sock *sk); /* data unread: the close is an abort */
void sock_block_send(struct sock *sk);	    /* no room for its send: not writable until there is */

/* sock_calls.c */
int sock_connect_sk(struct sock *sk, int fd, const struct sockaddr *sa, socklen_t len,
		    sctp_assoc_t *id);
void sock_drop_queue(struct sock *sk);

/* sock_addr.c: between sockaddrs and sctp_addr. */
int sock_addr_from(const struct sockaddr *sa, socklen_t len, struct sctp_addr *a, uint16_t *port);
socklen_t sock_addr_to(const struct sctp_addr *a, uint16_t port, int domain,
		       struct sockaddr_storage *ss);
socklen_t sock_addr_len(const struct sockaddr_storage *ss);
void sock_addr_copy_out(const struct sockaddr_storage *ss, struct sockaddr *out, socklen_t *len);

/* sock_data.c: one message out, one message (part) in. */
struct sock_send {
	uint16_t sid;
	uint32_t ppid;	/* network order */
	uint32_t flags; /* SCTP_UNORDERED, SCTP_EOF, SCTP_ABORT, SCTP_SACK_IMMEDIATELY */
	uint32_t context;
	uint32_t pr_policy; /* DPSCTP_CLIENT_PR_* */
	uint32_t pr_value;
	uint64_t assoc;		   /* 0: the socket's */
	sctp_assoc_t aid;	   /* one-to-many: the association named (SNDRCV, SNDINFO) */
	const struct sockaddr *to; /* one-to-many: the peer named (msg_name) */
	socklen_t tolen;
};
ssize_t sock_sendv(struct sock *sk, const struct iovec *iov, int n, const struct sock_send *si,
		   int flags);
ssize_t sock_recvv(struct sock *sk, const struct iovec *iov, int n, int flags,
		   struct msghdr *mh); /* mh may be NULL (no addresses, cmsgs, msg_flags) */
void sock_default_send(const struct sock *sk, struct sock_send *si);
bool sock_recv_ready(const struct sock *sk); /* a receive has something to read */
/* A message the sender abandoned (PR-SCTP) after some of it was handed on: it ends there. */
void sock_recv_aborted(struct sock *sk, struct sock_asc *a, const struct dpsctp_client_recv *r);

/* sock_io.c: sendmsg() on sk, its control messages over dflt (NULL: the socket's). */
ssize_t sock_sendmsg_sk(struct sock *sk, const struct msghdr *mh, int flags,
			const struct sock_send *dflt);

/* sock_many.c: the one-to-many style's associations. */
sctp_assoc_t sock_new_aid(void);
struct sock_asc *sock_asc_by_handle(uint64_t handle);
struct sock_asc *sock_asc_by_id(const struct sock *sk, sctp_assoc_t id);
struct sock_asc *sock_asc_add(struct sock *sk, uint64_t handle);
void sock_asc_put(struct sock_asc *a); /* a message's reference given back */
void
sock_asc_forget(struct sock_asc *a); /* ended without a word (its socket goes, or the daemon) */
/* A one-to-many socket's event: 1 when it was one (handled), 0 when not. */
int sock_many_event(const struct dpsctp_client_event *ev);
/* Where a one-to-many send goes: the association, set up first when the
 * address names none (waits for it). NULL with *rc. */
struct sock_asc *sock_many_target(struct sock *sk, const struct sock_send *si, int flags, int *rc);
int sock_many_connect(struct sock *sk, const struct sockaddr *sa, socklen_t len,
		      struct sock_asc **out);
void sock_many_close(struct sock *sk); /* every association shut down (or aborted) */
int sock_peeloff_sk(struct sock *sk, sctp_assoc_t id, unsigned flags);
int sock_many_peer(struct sock *sk, sctp_assoc_t id, struct sockaddr_storage *ss);
/* The association handle an option's assoc_id names on sk (0: the socket's
 * defaults); -EINVAL in *rc for an id it does not have. */
uint64_t sock_opt_handle(struct sock *sk, sctp_assoc_t id, int *rc);

/* sock_opt_stream.c: the stream scheduler and stream reconfiguration. */
int sock_opt_stream_set(struct sock *sk, int name, const void *val, socklen_t len);
int sock_opt_stream_get(struct sock *sk, int name, void *val, socklen_t *len);

/* sock_io.c: RFC 6458's SCTP_PR_SCTP_* policy to DPSCTP_CLIENT_PR_*. */
uint32_t sock_pr_policy(uint16_t p);

/* sock_opt.c */
void sock_opt_apply(struct sock *sk); /* the options kept for the association it now has */
void sock_opt_apply_to(struct sock *sk, uint64_t handle); /* the same, for one of its own */
/* SCTP_INITMSG as the daemon takes it for a connect; NULL when none was set. */
const struct dpsctp_initmsg *sock_initmsg(const struct sock *sk, struct dpsctp_initmsg *im);
int sock_setopt(struct sock *sk, int level, int name, const void *val, socklen_t len);
int sock_getopt(struct sock *sk, int level, int name, void *val, socklen_t *len);

/* The errno convention of the wrappers: set errno from -rc and return -1. */
static inline int
sock_fail(int rc)
{
	errno = -rc;
	return -1;
}

#endif /* DPSCTP_SOCK_H */
