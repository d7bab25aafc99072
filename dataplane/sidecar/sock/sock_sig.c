/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdpsctp-sock: what signal(7) says of a blocked socket call interrupted
 * by a handler. Linux restarts accept, connect, recv and send when the
 * handler was installed with SA_RESTART (and the socket has no
 * SO_RCVTIMEO/SO_SNDTIMEO), and returns EINTR otherwise; the library's
 * blocking calls sleep in poll(), which never restarts. So the library
 * watches sigaction() and signal() and restarts the wait itself while
 * every handler the program installed asked for SA_RESTART; once one did
 * not (Python's, for one), an interrupted call returns EINTR, as it would
 * for that handler's signal. It cannot tell which signal interrupted it.
 */
#include <signal.h>
#include <stdint.h>

#include "dataplane/sidecar/sock/sock.h"

/* Bit s-1: signal s has a handler without SA_RESTART. */
static uint64_t no_restart;

static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);
static __sighandler_t (*real_signal)(int, __sighandler_t);

static void
sig_note(int sig, bool handler, bool restart)
{
	if (sig < 1 || sig > 64)
		return;
	uint64_t bit = 1ull << (sig - 1);
	if (handler && !restart)
		__atomic_fetch_or(&no_restart, bit, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&no_restart, ~bit, __ATOMIC_RELAXED);
}

SOCK_EXPORT int
sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (real_sigaction == NULL)
		*(void **)&real_sigaction = dlsym_next("sigaction");
	int rc = real_sigaction(sig, act, old);
	if (rc == 0 && act != NULL) {
		bool handler = (act->sa_flags & SA_SIGINFO) != 0
				       ? act->sa_sigaction != NULL
				       : act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN;
		sig_note(sig, handler, (act->sa_flags & SA_RESTART) != 0);
	}
	return rc;
}

/* glibc's signal() has BSD semantics: its handlers restart. */
SOCK_EXPORT __sighandler_t
signal(int sig, __sighandler_t h)
{
	if (real_signal == NULL)
		*(void **)&real_signal = dlsym_next("signal");
	__sighandler_t old = real_signal(sig, h);
	if (old != SIG_ERR)
		sig_note(sig, h != SIG_DFL && h != SIG_IGN, true);
	return old;
}

bool
sock_sig_restarts(void)
{
	return __atomic_load_n(&no_restart, __ATOMIC_RELAXED) == 0;
}
