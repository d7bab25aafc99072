/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ICMP errors quoting our packets, RFC 9260 appendix C (and RFC 6951 §5.5
 * for SCTP over UDP). The data plane finds the association by the quoted
 * (peer address, ports) and hands the error here; this file checks the
 * quoted verification tag (ICMP6) and turns a protocol-unreachable into the
 * ABORT it stands for (ICMP8) by feeding the association the ABORT chunk
 * the peer's stack would have sent, so that the state machine's own ABORT
 * cell (tag rules, notification, freeing) does the rest: one way to end an
 * association, not two.
 *
 * After the handshake, only when the profile says so
 * (sctp_profile.proto_unreach_aborts: yes in "rfc", no in "dc").
 *
 * ICMP7 (Fragmentation Needed / Packet Too Big) lowers the quoted path's
 * MTU once its TSN checks out too: sctp/assoc_pmtu.c, docs/PMTU.md; the
 * flush that follows resends what no longer fits. Not acted on, counted in
 * icmp_ignored: ICMP9 (other unreachables: MAY mark the path; the
 * heartbeats and T3-rtx find a dead path anyway).
 */
#include <errno.h>
#include <string.h>

#include "sctp/assoc.h"
#include "sctp/assoc_internal.h"
#include "sctp/wire.h"

static uint32_t
icmp_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* ICMP6: whether the quoted packet is one this association sent. */
static bool
icmp_tag_ok(const struct sctp_assoc *a, const struct sctp_icmp *e, bool *init)
{
	*init = false;
	if (e->vtag != 0)
		return a->peer_vtag != 0 && e->vtag == a->peer_vtag;
	/* Tag 0: only our INIT, recognised by its type and our Initiate Tag. */
	if (e->quote == NULL || e->quote_len < SCTP_COMMON_HDR_LEN + 8 ||
	    e->quote[SCTP_COMMON_HDR_LEN] != SCTP_CHUNK_INIT ||
	    icmp_be32(e->quote + SCTP_COMMON_HDR_LEN + 4) != a->local_vtag)
		return false;
	*init = true;
	return true;
}

int
sctp_assoc_icmp(struct sctp_assoc *a, const struct sctp_icmp *e, uint64_t now_ns)
{
	bool init;

	if (a->state == SCTP_ASSOC_CLOSED)
		return -ENOTCONN;
	if (!icmp_tag_ok(a, e, &init)) {
		a->counters->icmp_bad_tag++;
		return -EINVAL;
	}
	if (e->kind == SCTP_ICMP_FRAG_NEEDED) {
		uint64_t applied = a->counters->icmp_pmtu_applied;
		int r = assoc_pmtu_icmp(a, e, now_ns);
		if (a->counters->icmp_pmtu_applied != applied) {
			/* What was sent too large goes again now, not at its T3-rtx. */
			struct assoc_run run = { .rx = NULL, .now_ns = now_ns };
			assoc_apply_end(a, &run);
		}
		return r;
	}
	bool unreachable = e->kind == SCTP_ICMP_PROTO_UNREACH ||
			   (e->kind == SCTP_ICMP_PORT_UNREACH && e->udp_encap);
	/* ICMP8: an INIT quoted after we left COOKIE-WAIT says nothing of now. */
	if (!unreachable || (init && a->state != SCTP_ASSOC_COOKIE_WAIT) ||
	    (!init && !assoc_profile(a)->proto_unreach_aborts)) {
		a->counters->icmp_ignored++;
		return 0;
	}
	/*
	 * "Treat this message as an abort with the T bit set": the ABORT the
	 * peer would send, carrying our tag with the T bit clear — the form every
	 * state's ABORT cell accepts (§8.5.1 B) — from the quoted address.
	 */
	uint8_t pkt[SCTP_COMMON_HDR_LEN + 4];
	memset(pkt, 0, sizeof(pkt));
	pkt[0] = (uint8_t)(a->peer_port >> 8);
	pkt[1] = (uint8_t)a->peer_port;
	pkt[2] = (uint8_t)(a->local_port >> 8);
	pkt[3] = (uint8_t)a->local_port;
	pkt[4] = (uint8_t)(a->local_vtag >> 24);
	pkt[5] = (uint8_t)(a->local_vtag >> 16);
	pkt[6] = (uint8_t)(a->local_vtag >> 8);
	pkt[7] = (uint8_t)a->local_vtag;
	pkt[SCTP_COMMON_HDR_LEN] = SCTP_CHUNK_ABORT;
	pkt[SCTP_COMMON_HDR_LEN + 3] = 4; /* chunk length, no causes */
	struct sctp_rx rx;
	memset(&rx, 0, sizeof(rx));
	if (sctp_packet_parse(&rx.pkt, pkt, sizeof(pkt)) != SCTP_PERR_OK)
		return -EINVAL;
	rx.src = e->peer;
	rx.dst = a->local_addr;
	a->counters->icmp_aborts++;
	sctp_assoc_input(a, &rx, now_ns);
	return 0;
}
