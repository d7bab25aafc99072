/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctpd --zero-copy: the port's mbuf pool on memory applications can map.
 *
 * A memfd, mapped here read-write, is given to DPDK as an external heap
 * (rte_malloc_heap_create() + rte_malloc_heap_memory_add()); the pool is
 * created on that heap's socket, so every packet buffer — the mempool's
 * objects, and with them every received byte — lies in the memfd. An
 * application that asks for zero copy gets the memfd at attach and maps it
 * read-only: a received message is then an offset into its mapping, no
 * copy. Read-only keeps applications from changing buffers the data plane
 * still uses; it does not keep them from reading other applications'
 * packets, which is why the mode is the operator's choice
 * (docs/SIDECAR.md).
 *
 * IOVA: the memory is registered without IO addresses (RTE_BAD_IOVA).
 * Virtual and socket ports (net_memif, net_af_packet, net_tap, net_ring)
 * copy frames and never need them; a PCI NIC would need the pages' IO
 * addresses (hugepage memfds and a VFIO mapping), not done here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "apps/dpsctpd/dd.h"

#define DD_ZC_HEAP	    "dpsctpd_zc"
#define DD_ZC_MBUFS_DEFAULT 32768u
#define DD_ZC_PAGE	    (2u << 20)

/*
 * The memfd mapped at a 2 MiB boundary, and registered as 2 MiB pages: the
 * mempool keeps an object inside one page when the memory has no IO
 * addresses, so with 4 KiB pages every 2.3 KiB mbuf would take a page of
 * its own (and the pool 1.7 times the memory).
 */
static void *
dd_zc_map(int f, uint64_t len)
{
	uint8_t *res = mmap(NULL, len + DD_ZC_PAGE, PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (res == MAP_FAILED)
		return MAP_FAILED;
	uint8_t *at = (uint8_t *)(((uintptr_t)res + DD_ZC_PAGE - 1) & ~(uintptr_t)(DD_ZC_PAGE - 1));
	void *va =
		mmap(at, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_POPULATE, f, 0);
	if (va == MAP_FAILED) {
		munmap(res, len + DD_ZC_PAGE);
		return MAP_FAILED;
	}
	if (at > res)
		munmap(res, (size_t)(at - res));
	if (res + DD_ZC_PAGE > at)
		munmap(at + len, (size_t)(res + DD_ZC_PAGE - at));
	return va;
}

int
dd_zc_pool(const struct dpsctp_config *cfg, int *fd, uint8_t **base, uint64_t *bytes,
	   struct rte_mempool **pool)
{
	uint32_t n = cfg->mbufs != 0 ? cfg->mbufs : DD_ZC_MBUFS_DEFAULT;
	/* Room for an MTU-sized frame with two VLAN tags, as the port's own pool. */
	uint32_t frame = (uint32_t)cfg->mtu + 14u + 4u + 8u;
	uint32_t room = frame > RTE_MBUF_DEFAULT_DATAROOM ? frame : RTE_MBUF_DEFAULT_DATAROOM;
	/* Objects (mbuf header, headroom, data room, mempool header) plus the
	 * pool's ring, per-lcore caches and descriptors, rounded up. */
	uint64_t len =
		(uint64_t)n * (sizeof(struct rte_mbuf) + RTE_PKTMBUF_HEADROOM + room + 128u) +
		(32u << 20);
	len = (len + (2u << 20) - 1) & ~(uint64_t)((2u << 20) - 1);
	int f = memfd_create("dpsctpd-packet-buffers", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (f < 0 || ftruncate(f, (off_t)len) != 0) {
		int e = errno;
		fprintf(stderr, "dpsctpd: --zero-copy: memfd of %llu bytes: %s\n",
			(unsigned long long)len, strerror(e));
		if (f >= 0)
			close(f);
		return -e;
	}
	/* Its size is part of what applications were told: sealed. */
	(void)fcntl(f, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	void *va = dd_zc_map(f, len);
	if (va == MAP_FAILED) {
		int e = errno;
		fprintf(stderr, "dpsctpd: --zero-copy: mmap: %s\n", strerror(e));
		close(f);
		return -e;
	}
	int rc = rte_malloc_heap_create(DD_ZC_HEAP);
	if (rc == 0)
		rc = rte_malloc_heap_memory_add(DD_ZC_HEAP, va, len, NULL,
						(unsigned)(len / DD_ZC_PAGE), DD_ZC_PAGE);
	int socket = rc == 0 ? rte_malloc_heap_get_socket(DD_ZC_HEAP) : -1;
	struct rte_mempool *mp =
		socket >= 0
			? rte_pktmbuf_pool_create("dpsctpd_zc", n, 256, 0,
						  (uint16_t)(room + RTE_PKTMBUF_HEADROOM), socket)
			: NULL;
	if (mp == NULL) {
		fprintf(stderr,
			"dpsctpd: --zero-copy: a pool of %u mbufs on a %llu-byte external heap: "
			"%s\n",
			n, (unsigned long long)len, rte_strerror(rte_errno));
		munmap(va, len);
		close(f);
		return -ENOMEM;
	}
	*fd = f;
	*base = va;
	*bytes = len;
	*pool = mp;
	return 0;
}
