/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdpsctp-sock: the one-to-many style (SOCK_SEQPACKET, RFC 6458 §3).
 * One socket, many associations: those the daemon accepts on its port once
 * it listens, those a connect() or a send to a new address sets up. Each
 * has an id the program names it by (sinfo_assoc_id, snd_assoc_id, an
 * option's assoc_id, sctp_peeloff()); messages and notifications of all
 * of them come through the one receive queue, each naming its association
 * and peer.
 */
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dataplane/dpsctp_opt.h"
#include "dataplane/sidecar/sock/sock.h"

sctp_assoc_t
sock_new_aid(void)
{
	/* Positive, and never one of SCTP_{FUTURE,CURRENT,ALL}_ASSOC (0, 1, 2). */
	if (sock_g.next_aid < 3 || sock_g.next_aid == INT32_MAX)
		sock_g.next_aid = 3;
	return sock_g.next_aid++;
}

static size_t
asc_hash(uint64_t handle)
{
	return (size_t)((handle * 0x9e3779b97f4a7c15ull) >> 54) & (SOCK_HASH - 1);
}

struct sock_asc *
sock_asc_by_handle(uint64_t handle)
{
	for (struct sock_asc *a = sock_g.ahash[asc_hash(handle)]; a != NULL; a = a->hnext)
		if (a->handle == handle)
			return a;
	return NULL;
}

struct sock_asc *
sock_asc_by_id(const struct sock *sk, sctp_assoc_t id)
{
	for (struct sock_asc *a = sk->ascs; a != NULL; a = a->next)
		if (a->id == id && !a->ended)
			return a;
	return NULL;
}

struct sock_asc *
sock_asc_add(struct sock *sk, uint64_t handle)
{
	struct sock_asc *a = calloc(1, sizeof(*a));
	if (a == NULL)
		return NULL;
	a->sk = sk;
	a->handle = handle;
	a->id = sock_new_aid();
	a->next = sk->ascs;
	sk->ascs = a;
	size_t h = asc_hash(handle);
	a->hnext = sock_g.ahash[h];
	sock_g.ahash[h] = a;
	return a;
}

/* Out of the socket's list and the table; freed once no message names it. */
static void
asc_end(struct sock_asc *a, int err)
{
	if (a->ended)
		return;
	a->ended = true;
	a->err = err;
	for (struct sock_asc **p = &sock_g.ahash[asc_hash(a->handle)]; *p != NULL;
	     p = &(*p)->hnext) {
		if (*p == a) {
			*p = a->hnext;
			break;
		}
	}
	if (a->sk != NULL) {
		for (struct sock_asc **p = &a->sk->ascs; *p != NULL; p = &(*p)->next) {
			if (*p == a) {
				*p = a->next;
				break;
			}
		}
	}
	a->next = a->hnext = NULL;
}

void
sock_asc_forget(struct sock_asc *a)
{
	asc_end(a, ECONNRESET);
	a->sk = NULL;
	a->refs++;
	sock_asc_put(a);
}

void
sock_asc_put(struct sock_asc *a)
{
	if (a != NULL && --a->refs == 0 && a->ended && a->sk == NULL)
		free(a);
}

/* The end of an association: the notification, then out; a closed socket whose
 * last association this was goes too. */
static void
asc_gone(struct sock_asc *a, const struct dpsctp_client_event *ev, uint16_t state, int err)
{
	struct sock *sk = a->sk;
	sock_assoc_change(sk, a, ev, state, a->id);
	asc_end(a, err);
	/* Messages naming it keep it (their sender's address) until read. */
	a->sk = NULL;
	a->refs++;
	sock_asc_put(a);
	pthread_cond_broadcast(&sock_g.cv);
	if (sk->state == SOCK_CLOSING && sk->ascs == NULL && sk->fd < 0 && sk->refs == 0)
		sock_free(sk);
}

static struct sock *
many_listener(uint16_t port)
{
	for (struct sock *sk = sock_g.all; sk != NULL; sk = sk->next) {
		if (sk->type != SOCK_SEQPACKET || sk->state != SOCK_LISTENING || sk->orphan)
			continue;
		if (ntohs(((struct sockaddr_in *)&sk->local)->sin_port) == port)
			return sk;
	}
	return NULL;
}

static void
asc_up(struct sock_asc *a, const struct dpsctp_client_event *ev)
{
	const struct dpsctp_client_assoc_change *ac = &ev->assoc_change;
	a->up = true;
	a->out_streams = ac->outbound_streams;
	a->in_streams = ac->inbound_streams;
	sock_addr_to(&ac->peer, ac->peer_port, a->sk->domain, &a->peer);
	struct sockaddr_in *l = (struct sockaddr_in *)&a->sk->local;
	if (l->sin_port == 0)
		l->sin_port = htons(ac->port);
	sock_assoc_change(a->sk, a, ev, SCTP_COMM_UP, a->id);
	pthread_cond_broadcast(&sock_g.cv);
}

int
sock_many_event(const struct dpsctp_client_event *ev)
{
	struct sock_asc *a = sock_asc_by_handle(ev->assoc);
	if (a == NULL) {
		if (ev->kind != DPSCTP_CLIENT_COMM_UP || sock_by_assoc(ev->assoc) != NULL)
			return 0;
		struct sock *l = many_listener(ev->assoc_change.port);
		if (l == NULL)
			return 0; /* perhaps a one-to-one listener's */
		if ((a = sock_asc_add(l, ev->assoc)) == NULL) {
			dpsctp_client_abort(sock_g.c, 0, ev->assoc, 0);
			return 1;
		}
		sock_opt_apply_to(l, ev->assoc);
		asc_up(a, ev);
		return 1;
	}
	struct sock *sk = a->sk;
	switch (ev->kind) {
	case DPSCTP_CLIENT_RECV:
		sock_recv_event(sk, a, ev);
		break;
	case DPSCTP_CLIENT_COMM_UP:
		asc_up(a, ev);
		break;
	case DPSCTP_CLIENT_RESTART:
		sock_assoc_change(sk, a, ev, SCTP_RESTART, a->id);
		break;
	case DPSCTP_CLIENT_CANT_START:
		asc_gone(a, ev, SCTP_CANT_STR_ASSOC, sock_reason_errno(ev->assoc_change.reason));
		break;
	case DPSCTP_CLIENT_COMM_LOST:
		asc_gone(a, ev, SCTP_COMM_LOST,
			 ev->assoc_change.reason == DPSCTP_CLIENT_REASON_PEER_ABORT
				 ? ECONNRESET
				 : sock_reason_errno(ev->assoc_change.reason));
		break;
	case DPSCTP_CLIENT_SHUTDOWN_COMPLETE:
		asc_gone(a, ev, SCTP_SHUTDOWN_COMP, 0);
		break;
	default:
		sock_other_event(sk, a, ev, a->id);
		break;
	}
	return 1;
}

static bool
asc_peer_is(const struct sock_asc *a, const struct sctp_addr *addr, uint16_t port)
{
	struct sctp_addr b;
	uint16_t p;
	if (sock_addr_from((const struct sockaddr *)&a->peer, sock_addr_len(&a->peer), &b, &p) != 0)
		return false;
	return p == port && sctp_addr_eq(&b, addr);
}

int
sock_many_connect(struct sock *sk, const struct sockaddr *sa, socklen_t len, struct sock_asc **out)
{
	struct sctp_addr addr;
	uint16_t port;
	int rc = sock_addr_from(sa, len, &addr, &port);
	if (rc != 0)
		return rc;
	if (port == 0)
		return -EINVAL;
	if (sk->domain == AF_INET && sa->sa_family == AF_INET6)
		return -EAFNOSUPPORT;
	for (struct sock_asc *a = sk->ascs; a != NULL; a = a->next) {
		if (!a->ended && asc_peer_is(a, &addr, port)) {
			*out = a;
			return -EISCONN;
		}
	}
	if (sock_g.gone)
		return -ECONNRESET;
	struct sock_op *op = sock_op_begin();
	if (op == NULL)
		return -EAGAIN;
	op->sk = sk;
	struct dpsctp_initmsg im;
	rc = dpsctp_client_connect_opts(sock_g.c, 0, &addr, 1, port, sock_initmsg(sk, &im),
					op->cookie, NULL, 0);
	if (rc == 0)
		rc = sock_op_wait(op);
	struct sock_asc *a = op->asc;
	sock_op_end(op);
	if (rc != 0)
		return rc == -ENOBUFS ? -EAGAIN : rc;
	if (a == NULL)
		return -ENOMEM;
	sock_addr_to(&addr, port, sk->domain, &a->peer);
	sock_opt_apply_to(sk, a->handle);
	*out = a;
	return 0;
}

/* Wait (the lock dropped) until a is up or has ended: 0, or the errno it ended with. */
static int
asc_wait_up(struct sock_asc *a, int64_t timeout_ms)
{
	struct timespec end;
	clock_gettime(CLOCK_REALTIME, &end);
	if (timeout_ms > 0) {
		end.tv_sec += timeout_ms / 1000;
		end.tv_nsec += (timeout_ms % 1000) * 1000000;
		if (end.tv_nsec >= 1000000000) {
			end.tv_sec++;
			end.tv_nsec -= 1000000000;
		}
	}
	a->refs++; /* kept while we wait, whatever happens to it */
	while (!a->up && !a->ended && !sock_g.gone) {
		if (timeout_ms > 0) {
			if (pthread_cond_timedwait(&sock_g.cv, &sock_g.lock, &end) != 0)
				break;
		} else {
			pthread_cond_wait(&sock_g.cv, &sock_g.lock);
		}
	}
	int rc = a->up && !a->ended ? 0
		 : a->ended	    ? -(a->err != 0 ? a->err : ECONNRESET)
		 : sock_g.gone	    ? -ECONNRESET
				    : -EAGAIN;
	sock_asc_put(a);
	return rc;
}

struct sock_asc *
sock_many_target(struct sock *sk, const struct sock_send *si, int flags, int *rc)
{
	(void)flags;
	struct sock_asc *a = NULL;
	if (si->to != NULL) {
		*rc = sock_many_connect(sk, si->to, si->tolen, &a);
		if (*rc != 0 && *rc != -EISCONN)
			return NULL;
	} else if (si->aid != 0) {
		a = sock_asc_by_id(sk, si->aid);
	} else if (sk->ascs != NULL && sk->ascs->next == NULL) {
		a = sk->ascs; /* the only one */
	}
	if (a == NULL) {
		/* Linux: no association by that id is a broken pipe. */
		*rc = -EPIPE;
		return NULL;
	}
	/* A message to an association still being set up waits for it (Linux
	 * queues it behind the COOKIE ECHO; the daemon takes messages for an
	 * established association only). */
	if (!a->up && (*rc = asc_wait_up(a, sk->sndtimeo_ms)) != 0)
		return NULL;
	*rc = 0;
	return a;
}

void
sock_many_close(struct sock *sk)
{
	for (struct sock_asc *a = sk->ascs; a != NULL; a = a->next) {
		if (a->ended || sock_g.c == NULL || sock_g.gone)
			continue;
		if (sk->linger_on && sk->linger_s == 0)
			dpsctp_client_abort(sock_g.c, 0, a->handle, 0);
		else
			dpsctp_client_shutdown(sock_g.c, 0, a->handle, 0);
	}
}

uint64_t
sock_opt_handle(struct sock *sk, sctp_assoc_t id, int *rc)
{
	*rc = 0;
	if (sk->type == SOCK_STREAM)
		return sk->assoc;
	if (id == SCTP_FUTURE_ASSOC)
		return 0;
	struct sock_asc *a = sock_asc_by_id(sk, id);
	if (a == NULL) {
		*rc = -EINVAL;
		return 0;
	}
	return a->handle;
}

/*
 * sctp_peeloff(): association id of the one-to-many socket sk becomes a
 * one-to-one socket of its own, with what was queued for it (RFC 6458
 * §9.2). The new descriptor, or -errno.
 */
int
sock_peeloff_sk(struct sock *sk, sctp_assoc_t id, unsigned flags)
{
	if (sk->type != SOCK_SEQPACKET)
		return -EINVAL;
	struct sock_asc *a = sock_asc_by_id(sk, id);
	if (a == NULL || !a->up)
		return -EINVAL;
	struct sock *nk = sock_new(sk->domain, SOCK_STREAM);
	if (nk == NULL)
		return -ENOMEM;
	int rc = sock_open_fd(nk, (int)flags);
	if (rc != 0) {
		sock_free(nk);
		return rc;
	}
	nk->state = SOCK_CONNECTED;
	nk->assoc = a->handle;
	nk->aid = a->id;
	nk->peer = a->peer;
	nk->local = sk->local;
	nk->out_streams = a->out_streams;
	nk->in_streams = a->in_streams;
	nk->rcvbuf = sk->rcvbuf;
	nk->sndbuf = sk->sndbuf;
	nk->events = sk->events;
	nk->recvrcvinfo = sk->recvrcvinfo;
	nk->recvnxtinfo = sk->recvnxtinfo;
	nk->dflt = sk->dflt;
	nk->linger_on = sk->linger_on;
	nk->linger_s = sk->linger_s;
	/* Its messages move, in order; the others stay, in order. */
	struct sock_msg *m = sk->head, *keep = NULL, *keep_tail = NULL;
	bool was_over = sk->queued > (size_t)sk->rcvbuf;
	sk->head = sk->tail = NULL;
	while (m != NULL) {
		struct sock_msg *next = m->next;
		m->next = NULL;
		if (m->asc == a) {
			sk->queued -= m->len - m->off;
			m->asc = NULL;
			a->refs--;
			sock_queue(nk, m);
		} else {
			if (keep_tail != NULL)
				keep_tail->next = m;
			else
				keep = m;
			keep_tail = m;
		}
		m = next;
	}
	sk->head = keep;
	sk->tail = keep_tail;
	if (was_over && sk->queued <= (size_t)sk->rcvbuf) {
		sock_g.over_rcvbuf--;
		pthread_cond_broadcast(&sock_g.cv);
	}
	asc_end(a, 0);
	a->sk = NULL;
	a->refs++;
	sock_asc_put(a);
	sock_hash_add(nk);
	sock_ready(sk);
	sock_ready(nk);
	return nk->fd;
}

/* The peer address of association id of a one-to-many socket. */
int
sock_many_peer(struct sock *sk, sctp_assoc_t id, struct sockaddr_storage *ss)
{
	struct sock_asc *a = id != 0					  ? sock_asc_by_id(sk, id)
			     : sk->ascs != NULL && sk->ascs->next == NULL ? sk->ascs
									  : NULL;
	if (a == NULL)
		return -EINVAL;
	*ss = a->peer;
	return 0;
}
