/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdpsctp-sock: messages out and in. Every send is one whole message (as
 * Linux's SCTP without SCTP_EXPLICIT_EOR); every receive returns at most
 * one message, or the next part of one, with MSG_EOR once its last byte
 * is read (RFC 6458 §4.1.8); the control messages of RFC 6458 §5.3 both
 * ways.
 */
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/sidecar/sock/sock.h"

void
sock_default_send(const struct sock *sk, struct sock_send *si)
{
	memset(si, 0, sizeof(*si));
	si->sid = sk->dflt.snd_sid;
	si->ppid = sk->dflt.snd_ppid;
	si->flags = sk->dflt.snd_flags;
	si->context = sk->dflt.snd_context;
	if (sk->dflt_pr_policy != DPSCTP_CLIENT_PR_NONE) {
		si->pr_policy = sk->dflt_pr_policy;
		si->pr_value = sk->dflt_pr_value;
	} else if (sk->dflt_ttl != 0) {
		si->pr_policy = DPSCTP_CLIENT_PR_TTL;
		si->pr_value = sk->dflt_ttl;
	}
}

static size_t
sock_iov_len(const struct iovec *iov, int n)
{
	size_t len = 0;
	for (int i = 0; i < n; i++)
		len += iov[i].iov_len;
	return len;
}

/* EPIPE is a signal too, unless MSG_NOSIGNAL (as the kernel sends it). */
static ssize_t
sock_epipe(int flags)
{
	if ((flags & MSG_NOSIGNAL) == 0)
		raise(SIGPIPE);
	return -EPIPE;
}

/* Whether a send may go now: 0, 1 to wait for the association, or -errno. */
static int
send_state(struct sock *sk, const struct sock_asc *a, int flags)
{
	if (a != NULL) /* one-to-many: sock_many_target() waited for it to come up */
		return a->ended || sock_g.gone ? (int)sock_epipe(flags) : 0;
	if (sk->state == SOCK_CONNECTING)
		return 1;
	if (sk->state != SOCK_CONNECTED || sk->assoc == 0 || sk->wr_shut || sock_g.gone) {
		if (sk->err != 0 && sk->state == SOCK_CONNECTED && !sk->ended) {
			int e = -sk->err;
			sk->err = 0;
			sock_ready(sk);
			return e;
		}
		return (int)sock_epipe(flags); /* Linux: EPIPE, fresh or ended */
	}
	return 0;
}

/* One message to one association: a's (one-to-many) or the socket's. */
static ssize_t
send_one(struct sock *sk, struct sock_asc *a, const struct iovec *iov, int n,
	 const struct sock_send *si, int flags)
{
	size_t len = sock_iov_len(iov, n);
	uint64_t handle = a != NULL ? a->handle : sk->assoc;
	int rc;
	if ((si->flags & SCTP_ABORT) != 0) {
		/* RFC 6458 §5.3.4: end the association; the data would be the
		 * reason, which the daemon does not carry (docs/SOCKETS.md). */
		if (handle == 0)
			return -ENOTCONN;
		dpsctp_client_abort(sock_g.c, 0, handle, 0);
		return (ssize_t)len;
	}
	if ((si->flags & SCTP_EOF) != 0 && len == 0) {
		if (handle == 0)
			return -ENOTCONN;
		if (a != NULL || !sk->wr_shut)
			dpsctp_client_shutdown(sock_g.c, 0, handle, 0);
		if (a == NULL)
			sk->wr_shut = true;
		return 0;
	}
	if (len == 0)
		return 0; /* nothing to send is no message (Linux returns 0 too) */
	/* One contiguous message: the vector gathered, as the kernel copies it. */
	const void *buf = iov[0].iov_base;
	void *gathered = NULL;
	if (n > 1) {
		gathered = malloc(len);
		if (gathered == NULL)
			return -ENOMEM;
		size_t at = 0;
		for (int i = 0; i < n; i++) {
			memcpy((uint8_t *)gathered + at, iov[i].iov_base, iov[i].iov_len);
			at += iov[i].iov_len;
		}
		buf = gathered;
	}
	ssize_t out;
	for (;;) {
		if ((rc = send_state(sk, a, flags)) == 1) {
			if ((flags & MSG_DONTWAIT) != 0 || sock_nonblocking(sk)) {
				out = -EAGAIN;
				break;
			}
			if ((rc = sock_wait(sk, POLLOUT, sk->sndtimeo_ms)) != 0) {
				out = rc;
				break;
			}
			continue;
		}
		if (rc != 0) {
			out = rc;
			break;
		}
		if (len > (size_t)UINT32_MAX) {
			out = -EMSGSIZE;
			break;
		}
		/* A stream the association does not have: refused here, as Linux does. */
		uint16_t outs = a != NULL ? a->out_streams : sk->out_streams;
		if (outs != 0 && si->sid >= outs) {
			out = -EINVAL;
			break;
		}
		struct dpsctp_client_sndinfo s = {
			.assoc = handle,
			.sid = si->sid,
			.ppid = si->ppid,
			.flags = DPSCTP_CLIENT_QUIET |
				 ((si->flags & SCTP_UNORDERED) != 0 ? DPSCTP_CLIENT_UNORDERED : 0) |
				 ((si->flags & SCTP_SACK_IMMEDIATELY) != 0 ? DPSCTP_CLIENT_SACK_NOW
									   : 0),
			.pr_policy = si->pr_policy,
			.pr_value = si->pr_value,
			.context = si->context,
		};
		/* SO_SNDBUF bounds what waits in the arena for the daemon, per socket
		 * (a message larger than it goes alone). */
		if (sk->unserved != 0 && sk->unserved + len > (uint64_t)sk->sndbuf)
			rc = -EAGAIN;
		else
			rc = dpsctp_client_send(sock_g.c, 0, &s, buf, (uint32_t)len, sk->id);
		if (rc == 0) {
			sk->unserved += len;
			out = (ssize_t)len;
			if ((si->flags & SCTP_EOF) != 0) {
				dpsctp_client_shutdown(sock_g.c, 0, handle, 0);
				if (a == NULL)
					sk->wr_shut = true;
			}
			break;
		}
		if (rc != -EAGAIN) {
			out = rc;
			break;
		}
		/* No room in the rings: not writable until the daemon has served what
		 * is ahead. */
		sock_block_send(sk);
		if ((flags & MSG_DONTWAIT) != 0 || sock_nonblocking(sk)) {
			out = -EAGAIN;
			break;
		}
		if ((rc = sock_wait(sk, POLLOUT, sk->sndtimeo_ms)) != 0) {
			out = rc;
			break;
		}
	}
	free(gathered);
	return out;
}

ssize_t
sock_sendv(struct sock *sk, const struct iovec *iov, int n, const struct sock_send *si, int flags)
{
	int rc = sock_check(sk);
	if (rc != 0)
		return rc;
	if (sk->type != SOCK_SEQPACKET)
		return send_one(sk, NULL, iov, n, si, flags);
	if ((si->flags & SCTP_SENDALL) != 0) {
		/* RFC 6458 §5.3.4: the message to every association of the socket. */
		ssize_t out = (ssize_t)sock_iov_len(iov, n);
		for (struct sock_asc *a = sk->ascs, *next; a != NULL; a = next) {
			next = a->next;
			if (!a->up)
				continue;
			ssize_t r = send_one(sk, a, iov, n, si, flags | MSG_NOSIGNAL);
			if (r < 0)
				out = r;
		}
		return out;
	}
	struct sock_asc *a = sock_many_target(sk, si, flags, &rc);
	if (a == NULL)
		return rc == -EPIPE ? sock_epipe(flags) : rc;
	return send_one(sk, a, iov, n, si, flags);
}

struct recv_cmsg {
	int type;
	const void *data;
	size_t len;
};

/* The control messages a receive carries (RFC 6458 §5.3.2, §5.3.5, §5.3.6). */
static void
sock_recv_cmsgs(const struct sock *sk, const struct sock_msg *m, struct msghdr *mh)
{
	size_t room = mh->msg_controllen, used = 0;
	uint8_t *at = mh->msg_control;
	struct recv_cmsg want[3];
	int n = 0;
	struct sctp_sndrcvinfo sr;
	struct sctp_rcvinfo ri;
	struct sctp_nxtinfo ni;
	sctp_assoc_t id = m->asc != NULL ? m->asc->id : sk->aid;
	if ((m->flags & SOCK_MSG_NOTIFICATION) == 0) {
		if ((sk->events & SOCK_EV(SCTP_DATA_IO_EVENT)) != 0) {
			memset(&sr, 0, sizeof(sr));
			sr.sinfo_stream = m->sid;
			sr.sinfo_ssn = m->ssn;
			sr.sinfo_flags = (m->flags & SOCK_MSG_UNORDERED) != 0 ? SCTP_UNORDERED : 0;
			sr.sinfo_ppid = m->ppid;
			sr.sinfo_assoc_id = id;
			want[n++] = (struct recv_cmsg){ SCTP_SNDRCV, &sr, sizeof(sr) };
		}
		if (sk->recvrcvinfo) {
			memset(&ri, 0, sizeof(ri));
			ri.rcv_sid = m->sid;
			ri.rcv_ssn = m->ssn;
			ri.rcv_flags = (m->flags & SOCK_MSG_UNORDERED) != 0 ? SCTP_UNORDERED : 0;
			ri.rcv_ppid = m->ppid;
			ri.rcv_assoc_id = id;
			want[n++] = (struct recv_cmsg){ SCTP_RCVINFO, &ri, sizeof(ri) };
		}
	}
	const struct sock_msg *nx = m->next;
	if (sk->recvnxtinfo && nx != NULL) {
		memset(&ni, 0, sizeof(ni));
		ni.nxt_sid = nx->sid;
		ni.nxt_ppid = nx->ppid;
		ni.nxt_length = nx->len;
		ni.nxt_flags =
			(uint16_t)(((nx->flags & SOCK_MSG_UNORDERED) != 0 ? SCTP_UNORDERED : 0) |
				   ((nx->flags & SOCK_MSG_NOTIFICATION) != 0 ? SCTP_NOTIFICATION
									     : 0));
		ni.nxt_assoc_id = nx->asc != NULL ? nx->asc->id : sk->aid;
		want[n++] = (struct recv_cmsg){ SCTP_NXTINFO, &ni, sizeof(ni) };
	}
	for (int i = 0; i < n; i++) {
		size_t need = CMSG_SPACE(want[i].len);
		if (at == NULL || used + need > room) {
			mh->msg_flags |= MSG_CTRUNC;
			break;
		}
		/* The program's control buffer is aligned for cmsghdr, as CMSG_*() require. */
		struct cmsghdr *c = (struct cmsghdr *)(void *)(at + used);
		c->cmsg_level = IPPROTO_SCTP;
		c->cmsg_type = want[i].type;
		c->cmsg_len = CMSG_LEN(want[i].len);
		memcpy(CMSG_DATA(c), want[i].data, want[i].len);
		used += need;
	}
	mh->msg_controllen = used;
}

/* Whether m is a part of the message sk is in the middle of. */
static bool
recv_part_of(const struct sock *sk, const struct sock_msg *m)
{
	return (m->flags & SOCK_MSG_NOTIFICATION) == 0 && m->asc == sk->cur.asc &&
	       m->sid == sk->cur.sid && m->mid == sk->cur.mid &&
	       (m->flags & SOCK_MSG_UNORDERED) == sk->cur.unordered;
}

/*
 * What the next receive reads: the next part of a message begun (RFC 6458
 * §4.1.8: a message is read to its end before any other, though with
 * I-DATA the data plane hands on parts of several at once), else the
 * first queued. NULL when none; *prev is the one before it in the queue.
 */
static struct sock_msg *
recv_pick(const struct sock *sk, struct sock_msg **prev)
{
	*prev = NULL;
	if (!sk->reading)
		return sk->head;
	for (struct sock_msg *m = sk->head; m != NULL; *prev = m, m = m->next)
		if (recv_part_of(sk, m))
			return m;
	return NULL;
}

bool
sock_recv_ready(const struct sock *sk)
{
	struct sock_msg *prev;
	return recv_pick(sk, &prev) != NULL;
}

void
sock_recv_aborted(struct sock *sk, struct sock_asc *a, const struct dpsctp_client_recv *r)
{
	struct sock_msg *last = NULL;
	for (struct sock_msg *m = sk->head; m != NULL; m = m->next)
		if ((m->flags & SOCK_MSG_NOTIFICATION) == 0 && m->asc == a && m->sid == r->sid &&
		    m->mid == r->mid &&
		    (m->flags & SOCK_MSG_UNORDERED) ==
			    (r->flags & DPSCTP_CLIENT_UNORDERED ? SOCK_MSG_UNORDERED : 0))
			last = m;
	if (last != NULL)
		last->flags |= SOCK_MSG_EOR; /* what was delivered of it is all there is */
	else if (sk->reading && sk->cur.asc == a && sk->cur.sid == r->sid && sk->cur.mid == r->mid)
		sk->reading = false;
	sock_ready(sk);
}

/* Copy from m at its offset into the vector from byte at on: bytes copied. */
static size_t
recv_copy(struct sock_msg *m, const struct iovec *iov, int n, size_t at)
{
	size_t left = m->len - m->off, done = 0, skip = at;
	for (int i = 0; i < n && done < left; i++) {
		if (skip >= iov[i].iov_len) {
			skip -= iov[i].iov_len;
			continue;
		}
		size_t room = iov[i].iov_len - skip;
		size_t k = room < left - done ? room : left - done;
		memcpy((uint8_t *)iov[i].iov_base + skip, m->data + m->off + done, k);
		done += k;
		skip = 0;
	}
	return done;
}

/* m (whose predecessor is prev) consumed: out of the queue. */
static void
recv_unlink(struct sock *sk, struct sock_msg *m, struct sock_msg *prev)
{
	if (prev != NULL)
		prev->next = m->next;
	else
		sk->head = m->next;
	if (sk->tail == m)
		sk->tail = prev;
	sock_asc_put(m->asc);
	free(m);
}

ssize_t
sock_recvv(struct sock *sk, const struct iovec *iov, int n, int flags, struct msghdr *mh)
{
	int rc = sock_check(sk);
	if (rc != 0)
		return rc;
	if ((flags & MSG_OOB) != 0)
		return -EOPNOTSUPP;
	if (mh != NULL)
		mh->msg_flags = 0;
	bool many = sk->type == SOCK_SEQPACKET;
	size_t room = sock_iov_len(iov, n);
	size_t ctl = mh != NULL ? mh->msg_controllen : 0; /* a wait must not lose it */
	for (;;) {
		if (sk->state == SOCK_LISTENING && !many)
			return -ENOTCONN;
		struct sock_msg *prev, *m = recv_pick(sk, &prev);
		if (m != NULL) {
			if (mh != NULL) {
				if (mh->msg_name != NULL) {
					socklen_t l = mh->msg_namelen;
					sock_addr_copy_out(m->asc != NULL ? &m->asc->peer
									  : &sk->peer,
							   mh->msg_name, &l);
					mh->msg_namelen = l;
				}
				/* Every receive of a message's bytes carries its control
				 * messages, the first and the rest (as Linux's). */
				mh->msg_controllen = ctl;
				if (mh->msg_control != NULL && ctl != 0)
					sock_recv_cmsgs(sk, m, mh);
				else
					mh->msg_controllen = 0;
				if ((m->flags & SOCK_MSG_NOTIFICATION) != 0)
					mh->msg_flags |= MSG_NOTIFICATION;
			}
			if ((flags & MSG_PEEK) != 0) {
				size_t k = recv_copy(m, iov, n, 0);
				if (mh != NULL && k == m->len - m->off && (m->flags & SOCK_MSG_EOR))
					mh->msg_flags |= MSG_EOR;
				return (ssize_t)k;
			}
			bool was_over = sk->queued > (size_t)sk->rcvbuf;
			size_t done = 0;
			bool eor = false;
			/* The parts of one message, as many as fit: Linux hands on a
			 * message's bytes up to the buffer, whatever its chunks. */
			while (m != NULL) {
				size_t k = recv_copy(m, iov, n, done);
				done += k;
				m->off += (uint32_t)k;
				sk->queued -= k;
				if (m->off < m->len)
					break; /* the rest waits for the next receive (no MSG_EOR
						  yet) */
				eor = (m->flags & SOCK_MSG_EOR) != 0;
				bool note = (m->flags & SOCK_MSG_NOTIFICATION) != 0;
				if (!note && !eor) {
					sk->reading = true;
					sk->cur.asc = m->asc;
					sk->cur.sid = m->sid;
					sk->cur.mid = m->mid;
					sk->cur.unordered = m->flags & SOCK_MSG_UNORDERED;
				} else if (!note) {
					sk->reading = false;
				}
				recv_unlink(sk, m, prev);
				if (note || eor || done == room)
					break;
				m = recv_pick(sk, &prev);
			}
			if (mh != NULL && eor)
				mh->msg_flags |= MSG_EOR;
			if (was_over && sk->queued <= (size_t)sk->rcvbuf) {
				sock_g.over_rcvbuf--;
				pthread_cond_broadcast(&sock_g.cv);
			}
			sock_ready(sk);
			return (ssize_t)done;
		}
		/* Nothing queued. Linux's one-to-one socket, in order: an error of
		 * its association (a reset) once; the peer's graceful close as one
		 * 0; then ENOTCONN for an association that is over. A fresh socket
		 * (a failed connect's too: its error stays for SO_ERROR) has no data. */
		if (sk->err != 0 && (many || sk->state != SOCK_FRESH)) {
			rc = -sk->err;
			sk->err = 0;
			sock_ready(sk);
			return rc;
		}
		if (!many && (sk->eof_pending || sk->rd_shut)) {
			/* The end of file: no address, no control messages (as Linux). */
			if (mh != NULL) {
				mh->msg_controllen = 0;
				mh->msg_namelen = 0;
			}
			return 0;
		}
		if (!many && sk->ended)
			return -ENOTCONN;
		/* Waiting for the rest of a message with the queue full of others:
		 * the pump, held by the queue, goes on for it (sock_pump_held()). */
		if (sk->reading && sk->queued > (size_t)sk->rcvbuf)
			pthread_cond_broadcast(&sock_g.cv);
		if ((flags & MSG_DONTWAIT) != 0 || sock_nonblocking(sk))
			return -EAGAIN;
		/* A fresh socket would wait forever on Linux; here it would find its
		 * descriptor readable (an error kept for SO_ERROR) and spin. */
		if (!many && sk->state == SOCK_FRESH)
			return -ENOTCONN;
		int fd = sk->fd;
		if ((rc = sock_wait(sk, POLLIN, sk->rcvtimeo_ms)) != 0)
			return rc;
		if (sock_get(fd) != sk)
			return -EBADF;
	}
}
