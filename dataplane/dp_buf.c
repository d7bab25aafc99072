/* SPDX-License-Identifier: BSD-3-Clause */
/* Payload buffers on mbufs (dp_buf.h). */
#include <string.h>

#include <rte_malloc.h>

#include "dataplane/dp_buf.h"

void
dp_buf_hold(void *ctx, void *handle)
{
	(void)ctx;
	rte_mbuf_refcnt_update((struct rte_mbuf *)handle, 1);
}

void
dp_buf_release(void *ctx, void *handle)
{
	(void)ctx;
	rte_pktmbuf_free_seg((struct rte_mbuf *)handle);
}

/*
 * A flattened message's buffer is freed through the shared info's opaque
 * pointer, not through addr: DPDK passes the buf_addr of the mbuf that drops
 * the last reference, and an mbuf attached to one fragment (dp_chain_ref()
 * in dp_tx.c) has buf_addr inside the buffer.
 */
static void
dp_ext_free(void *addr, void *opaque)
{
	(void)addr;
	rte_free(opaque);
}

bool
dp_buf_is_flat(const struct rte_mbuf *m)
{
	return RTE_MBUF_HAS_EXTBUF(m) && m->shinfo->free_cb == dp_ext_free;
}

/*
 * mbuf lengths and offsets are 16 bits and a message may be as long as
 * --sndbuf, so the shared info is placed by hand after the payload
 * (rte_pktmbuf_ext_shinfo_init_helper() takes a 16-bit length) and the
 * returned mbuf only holds the reference: its buf_len and data_len cover at
 * most the first 65,535 bytes, and nothing reads past them. The slice
 * carries (buf, len); dp_chain_ref() attaches each fragment by its address.
 */
struct rte_mbuf *
dp_buf_flatten(struct rte_mempool *pool, int socket, const struct rte_mbuf *m, uint8_t **data)
{
	const uint32_t len = m->pkt_len;
	const size_t sh_off =
		RTE_ALIGN_CEIL((size_t)len, _Alignof(struct rte_mbuf_ext_shared_info));
	const uint16_t len16 = len > UINT16_MAX ? UINT16_MAX : (uint16_t)len;
	struct rte_mbuf_ext_shared_info *sh;
	struct rte_mbuf *n = rte_pktmbuf_alloc(pool);
	if (n == NULL)
		return NULL;
	uint8_t *buf = rte_malloc_socket("dp_send", sh_off + sizeof(*sh), 64, socket);
	if (buf == NULL) {
		rte_pktmbuf_free(n);
		return NULL;
	}
	sh = (struct rte_mbuf_ext_shared_info *)(void *)(buf + sh_off);
	sh->free_cb = dp_ext_free;
	sh->fcb_opaque = buf;
	rte_mbuf_ext_refcnt_set(sh, 1);
	rte_pktmbuf_attach_extbuf(n, buf, rte_malloc_virt2iova(buf), len16, sh);
	n->data_len = len16;
	n->pkt_len = len;
	const void *src = rte_pktmbuf_read(m, 0, len, buf);
	if (src != buf)
		memcpy(buf, src, len);
	*data = buf;
	return n;
}
