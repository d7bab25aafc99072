/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The C library's socket calls, for the descriptors that are not SCTP
 * sockets and for the library's own use of the descriptor pairs (sock.h).
 * Found once, before main() (a constructor), with dlsym(RTLD_NEXT): the
 * definitions after this library in the search order, normally libc's.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "dataplane/sidecar/sock/sock.h"

struct sock_real sock_real;

void *
dlsym_next(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);
	if (f == NULL) {
		/* Without the C library's own call nothing would work: say which. */
		fprintf(stderr, "libdpsctp-sock: the C library has no %s\n", name);
		abort();
	}
	return f;
}

void
sock_real_init(void)
{
	if (sock_real.socket != NULL)
		return;
		/* Each is a function pointer of the type the C library declares. */
#define REAL(f) *(void **)&sock_real.f = dlsym_next(#f)
	REAL(close);
	REAL(bind);
	REAL(listen);
	REAL(accept);
	REAL(accept4);
	REAL(connect);
	REAL(shutdown);
	REAL(getsockname);
	REAL(getpeername);
	REAL(setsockopt);
	REAL(getsockopt);
	REAL(dup);
	REAL(dup2);
	REAL(dup3);
	REAL(fcntl);
	REAL(ioctl);
	REAL(send);
	REAL(sendto);
	REAL(sendmsg);
	REAL(recv);
	REAL(recvfrom);
	REAL(recvmsg);
	REAL(read);
	REAL(write);
	REAL(readv);
	REAL(writev);
	REAL(socket); /* last: the others are set once this is */
#undef REAL
}
