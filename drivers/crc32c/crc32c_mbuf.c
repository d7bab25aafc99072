/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CRC32c and the SCTP checksum (RFC 9260 §6.8) over multi-segment mbufs,
 * without linearising the chain. See crc32c_mbuf.h.
 */
#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include "drivers/crc32c/crc32c_mbuf.h"

/* The pieces of [off, off + len) of a chain, one per segment touched. */
struct crc32c_span {
	const struct rte_mbuf *m;
	uint32_t off; /* into m's data */
	uint32_t left;
};

static int
crc32c_span_init(struct crc32c_span *s, const struct rte_mbuf *m, uint32_t off, uint32_t len)
{
	if (off > m->pkt_len || len > m->pkt_len - off)
		return -EINVAL;
	s->m = m;
	s->off = off;
	s->left = len;
	return 0;
}

/*
 * Next piece, or false when the span is done — or when the chain ends early
 * (s->left then stays non-zero, which callers report as -EINVAL).
 * Empty segments are skipped.
 */
static bool
crc32c_span_next(struct crc32c_span *s, const uint8_t **p, uint32_t *n)
{
	while (s->left > 0 && s->m != NULL) {
		const struct rte_mbuf *m = s->m;

		s->m = m->next;
		if (s->off >= m->data_len) {
			s->off -= m->data_len;
			continue;
		}
		*n = RTE_MIN((uint32_t)m->data_len - s->off, s->left);
		*p = rte_pktmbuf_mtod_offset(m, const uint8_t *, s->off);
		s->left -= *n;
		s->off = 0;
		return true;
	}
	return false;
}

int
crc32c_mbuf_update(const struct rte_mbuf *m, uint32_t off, uint32_t len, uint32_t *crc)
{
	struct crc32c_span s;
	const uint8_t *p;
	uint32_t n;
	uint32_t c = *crc;

	if (crc32c_span_init(&s, m, off, len) != 0)
		return -EINVAL;
	while (crc32c_span_next(&s, &p, &n))
		c = crc32c_update(c, p, n);
	if (s.left != 0)
		return -EINVAL;
	*crc = c;
	return 0;
}

static int
crc32c_mbuf_adler32(const struct rte_mbuf *m, uint32_t off, uint32_t len, uint32_t *adler)
{
	struct crc32c_span s;
	const uint8_t *p;
	uint32_t n;
	uint32_t a = *adler;

	if (crc32c_span_init(&s, m, off, len) != 0)
		return -EINVAL;
	while (crc32c_span_next(&s, &p, &n))
		a = crc32c_adler32_update(a, p, n);
	if (s.left != 0)
		return -EINVAL;
	*adler = a;
	return 0;
}

/*
 * The common header copied out (it may straddle segments), with the stored
 * checksum field saved in field[] and zeroed in hdr[].
 */
static int
crc32c_mbuf_sctp_header(const struct rte_mbuf *m, uint32_t l4_off, uint32_t l4_len,
			uint8_t hdr[CRC32C_SCTP_COMMON_HDR_LEN], uint8_t field[4])
{
	const uint8_t *h;

	if (l4_len < CRC32C_SCTP_COMMON_HDR_LEN || l4_off > m->pkt_len ||
	    l4_len > m->pkt_len - l4_off)
		return -EINVAL;
	h = rte_pktmbuf_read(m, l4_off, CRC32C_SCTP_COMMON_HDR_LEN, hdr);
	if (h == NULL)
		return -EINVAL;
	if (h != hdr)
		memcpy(hdr, h, CRC32C_SCTP_COMMON_HDR_LEN);
	memcpy(field, hdr + CRC32C_SCTP_CKSUM_OFF, 4);
	memset(hdr + CRC32C_SCTP_CKSUM_OFF, 0, 4);
	return 0;
}

static int
crc32c_mbuf_sctp_compute(const struct rte_mbuf *m, uint32_t l4_off, uint32_t l4_len, uint32_t *crc,
			 uint8_t field[4])
{
	uint8_t hdr[CRC32C_SCTP_COMMON_HDR_LEN];
	uint32_t c;

	if (crc32c_mbuf_sctp_header(m, l4_off, l4_len, hdr, field) != 0)
		return -EINVAL;
	c = crc32c_update(0, hdr, sizeof(hdr));
	if (crc32c_mbuf_update(m, l4_off + CRC32C_SCTP_COMMON_HDR_LEN,
			       l4_len - CRC32C_SCTP_COMMON_HDR_LEN, &c) != 0)
		return -EINVAL;
	*crc = c;
	return 0;
}

enum crc32c_verdict
crc32c_mbuf_sctp_verify(const struct rte_mbuf *m, uint32_t l4_off, uint32_t l4_len)
{
	uint8_t hdr[CRC32C_SCTP_COMMON_HDR_LEN];
	uint8_t field[4];
	uint32_t crc;
	uint32_t adler = CRC32C_ADLER32_INIT;
	uint32_t stored;

	if (crc32c_mbuf_sctp_compute(m, l4_off, l4_len, &crc, field) != 0)
		return CRC32C_VERDICT_BAD;
	/* The same order of tests as crc32c_sctp_verify(). */
	stored = crc32c_sctp_load(field);
	if (crc == stored)
		return CRC32C_VERDICT_OK;
	if (stored == 0)
		return CRC32C_VERDICT_ZERO;
	/* Rare (legacy peers or corruption): a second pass is acceptable. */
	if (crc32c_mbuf_sctp_header(m, l4_off, l4_len, hdr, field) != 0)
		return CRC32C_VERDICT_BAD;
	adler = crc32c_adler32_update(adler, hdr, sizeof(hdr));
	if (crc32c_mbuf_adler32(m, l4_off + CRC32C_SCTP_COMMON_HDR_LEN,
				l4_len - CRC32C_SCTP_COMMON_HDR_LEN, &adler) != 0)
		return CRC32C_VERDICT_BAD;
	/* Adler-32 went on the wire in network byte order. */
	if (adler == ((uint32_t)field[0] << 24 | (uint32_t)field[1] << 16 |
		      (uint32_t)field[2] << 8 | (uint32_t)field[3]))
		return CRC32C_VERDICT_ADLER32;
	return CRC32C_VERDICT_BAD;
}

int
crc32c_mbuf_sctp_store(struct rte_mbuf *m, uint32_t l4_off, uint32_t crc)
{
	uint8_t field[4];
	uint32_t off;
	uint32_t done = 0;

	if (l4_off > m->pkt_len || m->pkt_len - l4_off < CRC32C_SCTP_COMMON_HDR_LEN)
		return -EINVAL;
	crc32c_sctp_store(field, crc);
	off = l4_off + CRC32C_SCTP_CKSUM_OFF;
	/* Four bytes, possibly split across segments of a hand-built chain. */
	for (; m != NULL && done < sizeof(field); m = m->next) {
		uint32_t n;

		if (off >= m->data_len) {
			off -= m->data_len;
			continue;
		}
		n = RTE_MIN((uint32_t)m->data_len - off, (uint32_t)sizeof(field) - done);
		memcpy(rte_pktmbuf_mtod_offset(m, uint8_t *, off), field + done, n);
		done += n;
		off = 0;
	}
	return done == sizeof(field) ? 0 : -EINVAL;
}

int
crc32c_mbuf_sctp_fill(struct rte_mbuf *m, uint32_t l4_off, uint32_t l4_len)
{
	uint8_t field[4];
	uint32_t crc;

	if (crc32c_mbuf_sctp_compute(m, l4_off, l4_len, &crc, field) != 0)
		return -EINVAL;
	return crc32c_mbuf_sctp_store(m, l4_off, crc);
}
