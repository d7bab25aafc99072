/* SPDX-License-Identifier: BSD-3-Clause */
/* libdpsctp-sock: socket addresses to and from the daemon's struct sctp_addr. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "dataplane/sidecar/sock/sock.h"

int
sock_addr_from(const struct sockaddr *sa, socklen_t len, struct sctp_addr *a, uint16_t *port)
{
	memset(a, 0, sizeof(*a));
	if (sa == NULL || len < (socklen_t)sizeof(sa_family_t))
		return -EINVAL;
	if (sa->sa_family == AF_INET) {
		if (len < (socklen_t)sizeof(struct sockaddr_in))
			return -EINVAL;
		/* Copied out: a program's address need not be aligned for the type. */
		struct sockaddr_in in;
		memcpy(&in, sa, sizeof(in));
		a->family = SCTP_ADDR_V4;
		memcpy(a->bytes, &in.sin_addr, 4);
		*port = ntohs(in.sin_port);
		return 0;
	}
	if (sa->sa_family == AF_INET6) {
		if (len < (socklen_t)sizeof(struct sockaddr_in6))
			return -EINVAL;
		struct sockaddr_in6 in6;
		memcpy(&in6, sa, sizeof(in6));
		/* An IPv4-mapped address is the IPv4 peer it names (RFC 4291 §2.5.5.2). */
		if (IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr)) {
			a->family = SCTP_ADDR_V4;
			memcpy(a->bytes, &in6.sin6_addr.s6_addr[12], 4);
		} else {
			a->family = SCTP_ADDR_V6;
			memcpy(a->bytes, &in6.sin6_addr, 16);
		}
		*port = ntohs(in6.sin6_port);
		return 0;
	}
	return -EAFNOSUPPORT;
}

socklen_t
sock_addr_to(const struct sctp_addr *a, uint16_t port, int domain, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (domain == AF_INET6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		if (a != NULL && a->family == SCTP_ADDR_V6) {
			memcpy(&in6->sin6_addr, a->bytes, 16);
		} else if (a != NULL && a->family == SCTP_ADDR_V4) {
			/* An IPv4 peer on an AF_INET6 socket: v4-mapped, as Linux shows it. */
			in6->sin6_addr.s6_addr[10] = 0xff;
			in6->sin6_addr.s6_addr[11] = 0xff;
			memcpy(&in6->sin6_addr.s6_addr[12], a->bytes, 4);
		}
		return sizeof(*in6);
	}
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	in->sin_family = AF_INET;
	in->sin_port = htons(port);
	if (a != NULL && a->family == SCTP_ADDR_V4)
		memcpy(&in->sin_addr, a->bytes, 4);
	return sizeof(*in);
}

socklen_t
sock_addr_len(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET6)
		return sizeof(struct sockaddr_in6);
	if (ss->ss_family == AF_INET)
		return sizeof(struct sockaddr_in);
	return 0;
}

void
sock_addr_copy_out(const struct sockaddr_storage *ss, struct sockaddr *out, socklen_t *len)
{
	if (out == NULL || len == NULL)
		return;
	socklen_t have = sock_addr_len(ss);
	/* As the kernel does: copy what fits, say how long the address is. */
	memcpy(out, ss, *len < have ? *len : have);
	*len = have;
}
