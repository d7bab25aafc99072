/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Path MTU per path (docs/PMTU.md): ICMP PMTUD (RFC 9260 appendix C,
 * ICMP7, §7.3), PLPMTUD (RFC 8899 §6.2: probes are a HEARTBEAT padded to
 * the probe size with a PAD chunk, RFC 4820) and the user's fixed MTU (RFC
 * 6458 SPP_PMTUD_DISABLE, spp_pathmtu).
 *
 * Every change of a path's MTU goes through pmtu_apply(): the congestion
 * control's PMDCS follows (sctp_cc_on_pmtu_change()), a SCTP_NOTIFY_PATH_MTU
 * tells the user, and on a decrease the DATA chunks in flight on the path
 * that no longer fit are marked for retransmission at once: their TSNs
 * are fixed, so they are not cut again (RFC 9260 §6.9) but resent alone,
 * IP-fragmented at the source (assoc_send.c, tx_flush_rtx()). A PTB says
 * the packet it quotes was dropped (RFC 4821 §7.5, RFC 8899 §4.6): the
 * resend is a repair, not a congestion signal, so cwnd and the error
 * counters stay as they are, as Linux (SCTP_RTXR_PMTUD) and FreeBSD do.
 *
 * Probes: their HEARTBEAT carries a Heartbeat Info of format 2 (ordinary
 * heartbeats have 1, sctp/path.h), 20 bytes:
 *
 *   0        1        2                4                        12
 *   +--------+--------+----------------+------------------------+------
 *   | format | path   | probe size     | nonce (64 bits)        | send
 *   |  = 2   | index  | (IP bytes)     |                        | time
 *   +--------+--------+----------------+------------------------+------
 *
 * so its HEARTBEAT ACK goes to the path's PLPMTUD, never to the path set:
 * a probe is neither a heartbeat's proof of life nor, lost, an error
 * (RFC 8899 §4.4). The nonce authenticates the ACK as for heartbeats.
 */
#include <errno.h>
#include <string.h>

#include "sctp/assoc_internal.h"
#include "sctp/chunk_heartbeat.h"
#include "sctp/chunk_pad.h"
#include "sctp/tsn.h"
#include "sctp/wire.h"

#define PMTU_HB_FORMAT	 2u
#define PMTU_HB_INFO_LEN 20u
/* Largest probe we build: the flatten bound of the send path (jumbo frames). */
#define PMTU_PROBE_MAX 9000u

static uint64_t
pmtu_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void
pmtu_put64(uint8_t *p, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

static uint32_t
pmtu_rnd32(const struct sctp_assoc *a)
{
	return a->ep->cfg.random32(a->ep->cfg.ctx);
}

/* IP header bytes of the association's family. */
static unsigned
pmtu_ip_hdr(const struct sctp_assoc *a)
{
	return a->local_addr.family == SCTP_ADDR_V6 ? 40u : 20u;
}

/* The lowest MTU discovery may set: RFC 8200 §5 for IPv6, the profile's (576 up) for IPv4. */
static uint16_t
pmtu_floor(const struct sctp_assoc *a)
{
	uint16_t m = SCTP_PMTU_MIN_V6;

	if (a->local_addr.family != SCTP_ADDR_V6) {
		m = assoc_profile(a)->pmtu_min_v4;
		if (m < SCTP_PMTU_MIN_V4)
			m = SCTP_PMTU_MIN_V4;
	}
	return a->tx != NULL && m > a->tx->mtu ? a->tx->mtu : m;
}

static struct sctp_plpmtud_params
pmtu_params(const struct sctp_assoc *a, unsigned i)
{
	const struct sctp_profile *p = assoc_profile(a);
	const struct sctp_rto *r = &sctp_paths_get_const(&a->paths, i)->rto;
	/*
	 * How long a probe's answer may take: SRTT + 4 RTTVAR, the RTO without
	 * the back-off T3-rtx gave it (a black hole backs it off, and the probes
	 * that find the hole must not wait for that), or the RTO before any
	 * sample. PROBE_TIMER is the profile's when longer.
	 */
	uint64_t wait = r->srtt_ns != 0 ? r->srtt_ns + 4 * r->rttvar_ns : r->rto_ns;
	struct sctp_plpmtud_params pp = {
		.min = pmtu_floor(a),
		.max = a->tx->mtu,
		.probe_timer_ns = p->plpmtud_probe_ns > wait ? p->plpmtud_probe_ns : wait,
		.raise_ns = p->plpmtud_raise_ns,
	};
	return pp;
}

/* Whether PLPMTUD runs on path i: the profile says so and the user did not fix its MTU. */
static bool
pmtu_plp_on(const struct sctp_assoc *a, unsigned i)
{
	return assoc_profile(a)->plpmtud &&
	       !(sctp_paths_get_const(&a->paths, i)->pmtu_flags & SCTP_PATH_PMTU_FIXED);
}

static void
pmtu_notify(struct sctp_assoc *a, unsigned i)
{
	struct sctp_notification n = {
		.assoc = a,
		.type = SCTP_NOTIFY_PATH_MTU,
		.outbound_streams = a->outbound_streams,
		.inbound_streams = a->inbound_streams,
		.extensions = a->extensions,
		.addr = sctp_path_addr(sctp_paths_get(&a->paths, i)),
		.mtu = sctp_paths_get(&a->paths, i)->mtu,
	};
	a->ops->notify(a->ctx, &n);
}

/*
 * The one place a path's MTU changes once the send side runs (see the top
 * of the file). from_tsn: on a decrease, the chunks too large from this TSN
 * on are resent (see pmtu_icmp_from()).
 */
static void
pmtu_apply_from(struct sctp_assoc *a, unsigned i, uint16_t mtu, uint32_t from_tsn)
{
	struct sctp_assoc_tx *tx = a->tx;
	struct sctp_path *pa = sctp_paths_get(&a->paths, i);
	uint16_t old = pa->mtu;

	if (mtu == old)
		return;
	pa->mtu = mtu;
	sctp_cc_on_pmtu_change(&tx->path[i].cc, tx->cc, assoc_tx_pmdcs(a, i));
	if (mtu > old) {
		a->counters->pmtu_increases++;
	} else {
		a->counters->pmtu_decreases++;
		a->counters->pmtu_rtx_marked += sctp_rtxq_mark_oversize(
			&tx->rtxq, &tx->env, i, assoc_tx_pmdcs(a, i), from_tsn, NULL);
	}
	pmtu_notify(a, i);
}

/* Every chunk in flight that no longer fits is resent (PLPMTUD, the user). */
static void
pmtu_apply(struct sctp_assoc *a, unsigned i, uint16_t mtu)
{
	pmtu_apply_from(a, i, mtu, sctp_rtxq_cum_point(&a->tx->rtxq) + 1u);
}

static void
pmtu_plp_start(struct sctp_assoc *a, unsigned i)
{
	struct sctp_plpmtud_params pp = pmtu_params(a, i);

	sctp_plpmtud_start(&a->tx->path[i].plp, &pp, sctp_paths_get(&a->paths, i)->mtu);
}

void
assoc_pmtu_start(struct sctp_assoc *a)
{
	struct sctp_assoc_tx *tx = a->tx;

	sctp_paths_set_mtu_start(&a->paths, tx->mtu);
	for (unsigned i = 0; i < tx->n_paths; i++) {
		sctp_plpmtud_stop(&tx->path[i].plp);
		if (i < a->paths.n && pmtu_plp_on(a, i))
			pmtu_plp_start(a, i);
	}
}

/* RFC 8899 §6.2: HEARTBEAT (format 2 info) + PAD to `size` IP bytes, to path i. */
static void
pmtu_send_probe(struct sctp_assoc *a, const struct assoc_run *run, unsigned i, uint16_t size)
{
	_Alignas(8) uint8_t buf[PMTU_PROBE_MAX];
	uint8_t info[PMTU_HB_INFO_LEN];
	struct sctp_plpmtud *s = &a->tx->path[i].plp;
	unsigned sctp_len = size - pmtu_ip_hdr(a);
	unsigned hb_len = SCTP_CHUNK_HDR_LEN + 4u + PMTU_HB_INFO_LEN;
	uint64_t nonce = (uint64_t)pmtu_rnd32(a) << 32 | pmtu_rnd32(a);

	if (sctp_len > sizeof(buf) ||
	    sctp_len < SCTP_COMMON_HDR_LEN + hb_len + SCTP_CHUNK_HDR_LEN) {
		sctp_plpmtud_stop(s); /* cannot be: sizes are clamped to the floor */
		return;
	}
	info[0] = PMTU_HB_FORMAT;
	info[1] = (uint8_t)i;
	info[2] = (uint8_t)(size >> 8);
	info[3] = (uint8_t)size;
	pmtu_put64(info + 4, nonce);
	pmtu_put64(info + 12, run->now_ns);
	struct sctp_writer w = sctp_writer_make(buf, sctp_len);
	sctp_packet_build_header(&w, a->local_port, a->peer_port, a->peer_vtag);
	struct sctp_heartbeat hb = { SCTP_CHUNK_HEARTBEAT, 0, info, sizeof(info) };
	sctp_heartbeat_build(&w, &hb);
	struct sctp_pad pad = {
		0, NULL, (uint16_t)(sctp_len - SCTP_COMMON_HDR_LEN - hb_len - SCTP_CHUNK_HDR_LEN)
	};
	sctp_pad_build(&w, &pad);
	if (!sctp_writer_ok(&w) || w.off != sctp_len) {
		assoc_count_drop(a, SCTP_ASSOC_DROP_TX_TOO_BIG);
		sctp_plpmtud_stop(s);
		return;
	}
	struct sctp_plpmtud_params pp = pmtu_params(a, i);
	sctp_plpmtud_sent(s, nonce, run->now_ns, pp.probe_timer_ns);
	a->counters->plpmtud_probes_sent++;
	struct sctp_addr dst = sctp_path_addr(sctp_paths_get(&a->paths, i));
	a->ops->send(a->ctx, buf, w.off, assoc_src_for(a, &dst), &dst);
}

/*
 * End of every input: the probes wanted go out (only while the send side
 * runs and the path is confirmed: §5.4, nothing but its own probes goes to
 * an unconfirmed address), and the timer follows the earliest deadline.
 */
void
assoc_pmtu_flush(struct sctp_assoc *a, struct assoc_run *run)
{
	struct sctp_assoc_tx *tx = a->tx;
	uint64_t next = SCTP_TIME_NEVER;

	if (run->halted || tx == NULL ||
	    (a->state != SCTP_ASSOC_ESTABLISHED && a->state != SCTP_ASSOC_SHUTDOWN_PENDING &&
	     a->state != SCTP_ASSOC_SHUTDOWN_RECEIVED)) {
		a->timer_at[SCTP_ASSOC_T_PMTU] = SCTP_TIME_NEVER;
		return;
	}
	for (unsigned i = 0; i < a->paths.n; i++) {
		struct sctp_plpmtud *s = &tx->path[i].plp;
		/* Off, raise_at is the ICMP-lowered MTU's expiry (assoc_pmtu_icmp()). */
		uint16_t size = sctp_plpmtud_want(s);
		if (size != 0 && (sctp_paths_get(&a->paths, i)->flags & SCTP_PATH_F_CONFIRMED) &&
		    sctp_paths_get(&a->paths, i)->state != SCTP_PATH_INACTIVE)
			pmtu_send_probe(a, run, i, size);
		uint64_t t = sctp_plpmtud_next(s);
		if (t < next)
			next = t;
	}
	a->timer_at[SCTP_ASSOC_T_PMTU] = next;
}

/* SCTP_ASSOC_T_PMTU: some path's probe deadline or raise timer passed. */
void
assoc_tf_pmtu(const struct sctp_assoc *a, const struct assoc_in *in, struct assoc_cmds *o)
{
	(void)a;
	(void)in;
	emit(o, OP_PMTU_TIMER);
}

/* A change the PLPMTUD of path i reported, applied (a black hole when lower and not by PTB). */
static void
pmtu_plp_change(struct sctp_assoc *a, unsigned i, enum sctp_plpmtud_change ch)
{
	if (ch == SCTP_PLPMTUD_SAME)
		return;
	pmtu_apply(a, i, a->tx->path[i].plp.plpmtu);
}

void
assoc_pmtu_timeout(struct sctp_assoc *a, struct assoc_run *run)
{
	struct sctp_assoc_tx *tx = a->tx;

	if (tx == NULL)
		return;
	for (unsigned i = 0; i < a->paths.n; i++) {
		struct sctp_plpmtud *s = &tx->path[i].plp;
		if (s->state == SCTP_PLPMTUD_DISABLED) {
			/*
			 * ICMP only: an MTU an ICMP lowered goes back to the
			 * interface MTU after the raise timer (RFC 8201 §4, RFC
			 * 1191 §6.3: try a larger one after 10 minutes, as Linux's
			 * route cache does); a PTB lowers it again if it must.
			 */
			if (s->raise_at <= run->now_ns) {
				s->raise_at = SCTP_TIME_NEVER;
				if (!(sctp_paths_get(&a->paths, i)->pmtu_flags &
				      SCTP_PATH_PMTU_FIXED))
					pmtu_apply(a, i, tx->mtu);
			}
			continue;
		}
		struct sctp_plpmtud_params pp = pmtu_params(a, i);
		unsigned lost = 0;
		bool confirming = s->confirming;
		enum sctp_plpmtud_change ch = sctp_plpmtud_on_timer(s, &pp, run->now_ns, &lost);
		a->counters->plpmtud_probes_lost += lost;
		if (confirming && !s->confirming && ch == SCTP_PLPMTUD_LOWER)
			a->counters->plpmtud_black_holes++;
		pmtu_plp_change(a, i, ch);
	}
}

void
assoc_pmtu_t3(struct sctp_assoc *a, unsigned i)
{
	if (a->tx != NULL && i < a->tx->n_paths)
		sctp_plpmtud_on_loss(&a->tx->path[i].plp);
}

bool
assoc_pmtu_hb_ack(struct sctp_assoc *a, struct assoc_run *run, const uint8_t *info, size_t info_len)
{
	if (info_len != PMTU_HB_INFO_LEN || info[0] != PMTU_HB_FORMAT)
		return false;
	unsigned i = info[1];
	uint16_t size = (uint16_t)(info[2] << 8 | info[3]);
	enum sctp_plpmtud_change ch;
	if (a->tx == NULL || i >= a->paths.n || i >= a->tx->n_paths) {
		assoc_count_drop(a, SCTP_ASSOC_DROP_HB_ACK_REFUSED);
		return true;
	}
	struct sctp_plpmtud_params pp = pmtu_params(a, i);
	if (sctp_plpmtud_on_ack(&a->tx->path[i].plp, &pp, size, pmtu_be64(info + 4), run->now_ns,
				&ch) != 0) {
		assoc_count_drop(a, SCTP_ASSOC_DROP_HB_ACK_REFUSED);
		return true;
	}
	a->counters->plpmtud_probes_acked++;
	pmtu_plp_change(a, i, ch);
	return true;
}

/*
 * Which chunks a PTB says were dropped: the quoted one and those sent after
 * it (TSNs go out in order the first time); the ones before it crossed the
 * hop before it shrank, or bring PTBs of their own. Resending them too would
 * send up to a window twice. Without a TSN quoted: every one too large.
 */
static uint32_t
pmtu_icmp_from(const struct sctp_assoc *a, const struct sctp_icmp *e)
{
	const uint8_t *c = e->quote + SCTP_COMMON_HDR_LEN;

	if (e->quote == NULL || e->quote_len < SCTP_COMMON_HDR_LEN + 8u ||
	    (c[0] != SCTP_CHUNK_DATA && c[0] != SCTP_CHUNK_I_DATA))
		return sctp_rtxq_cum_point(&a->tx->rtxq) + 1u;
	return (uint32_t)c[4] << 24 | (uint32_t)c[5] << 16 | (uint32_t)c[6] << 8 | c[7];
}

/*
 * RFC 9260 appendix C, ICMP7: the quoted DATA (or I-DATA) chunk's TSN, when
 * the quote reaches it, must be one in flight: after the Cumulative TSN Ack
 * Point and not after the highest TSN sent. A quote without a DATA chunk
 * first (a SACK, a HEARTBEAT, a probe) passes on its tag alone.
 */
static bool
pmtu_tsn_ok(const struct sctp_assoc *a, const struct sctp_icmp *e)
{
	const uint8_t *c = e->quote + SCTP_COMMON_HDR_LEN;

	if (e->quote == NULL || e->quote_len < SCTP_COMMON_HDR_LEN + 8u ||
	    (c[0] != SCTP_CHUNK_DATA && c[0] != SCTP_CHUNK_I_DATA))
		return true;
	uint32_t tsn = (uint32_t)c[4] << 24 | (uint32_t)c[5] << 16 | (uint32_t)c[6] << 8 | c[7];
	const struct sctp_assoc_tx *tx = a->tx;
	uint32_t cum = sctp_rtxq_cum_point(&tx->rtxq);
	return tx->next_tsn != cum + 1u && sctp_tsn_gt(tsn, cum) &&
	       sctp_tsn_le(tsn, tx->next_tsn - 1u);
}

int
assoc_pmtu_icmp(struct sctp_assoc *a, const struct sctp_icmp *e, uint64_t now_ns)
{
	int i = sctp_paths_find(&a->paths, &e->peer);

	if (!assoc_profile(a)->pmtud || a->tx == NULL || e->mtu == 0 || i < 0 ||
	    (sctp_paths_get(&a->paths, (unsigned)i)->pmtu_flags & SCTP_PATH_PMTU_FIXED)) {
		a->counters->icmp_ignored++;
		return 0;
	}
	if (!pmtu_tsn_ok(a, e)) {
		a->counters->icmp_pmtu_bad_tsn++;
		return -EINVAL;
	}
	struct sctp_path *pa = sctp_paths_get(&a->paths, (unsigned)i);
	uint16_t floor = pmtu_floor(a);
	uint32_t mtu = e->mtu;
	if (mtu < floor) {
		a->counters->icmp_pmtu_too_small++;
		mtu = floor;
	}
	/* Never raised by ICMP: a PTB can only say the path is smaller (RFC 8201 §4, RFC 1191). */
	if (mtu >= pa->mtu) {
		a->counters->icmp_pmtu_not_lower++;
		return 0;
	}
	a->counters->icmp_pmtu_applied++;
	struct sctp_plpmtud *s = &a->tx->path[i].plp;
	if (s->state != SCTP_PLPMTUD_DISABLED) {
		/* RFC 8899 §4.6.2: PLPMTUD takes it as a hint, confirmed by a probe. */
		struct sctp_plpmtud_params pp = pmtu_params(a, (unsigned)i);
		(void)sctp_plpmtud_on_ptb(s, &pp, mtu, now_ns);
		mtu = s->plpmtu < mtu ? s->plpmtu : mtu;
	}
	pmtu_apply_from(a, (unsigned)i, (uint16_t)mtu, pmtu_icmp_from(a, e));
	if (s->state == SCTP_PLPMTUD_DISABLED) {
		uint64_t r = assoc_profile(a)->plpmtud_raise_ns;
		if (r == 0)
			r = SCTP_S(600); /* a profile that never set it: RFC 1191's 10 minutes */
		s->raise_at = r >= SCTP_TIME_NEVER - now_ns ? SCTP_TIME_NEVER : now_ns + r;
	}
	return 0;
}

int
sctp_assoc_set_path_mtu(struct sctp_assoc *a, unsigned path, uint16_t mtu)
{
	if (a->tx == NULL || a->state == SCTP_ASSOC_CLOSED)
		return -ENOTCONN;
	if (path >= a->paths.n || path >= a->tx->n_paths)
		return -EINVAL;
	struct sctp_path *pa = sctp_paths_get(&a->paths, path);
	if (mtu == 0) {
		/* SPP_PMTUD_ENABLE: discovery again, from the interface MTU. */
		pa->pmtu_flags &= (uint8_t)~SCTP_PATH_PMTU_FIXED;
		pmtu_apply(a, path, a->tx->mtu);
		if (pmtu_plp_on(a, path))
			pmtu_plp_start(a, path);
	} else {
		if (mtu < pmtu_floor(a) || mtu > a->tx->mtu)
			return -EINVAL;
		pa->pmtu_flags |= SCTP_PATH_PMTU_FIXED;
		sctp_plpmtud_stop(&a->tx->path[path].plp);
		pmtu_apply(a, path, mtu);
	}
	/* The resend of what no longer fits, and the first probe, at the next wake-up: now. */
	a->timer_at[SCTP_ASSOC_T_PMTU] = 0;
	return 0;
}

int
sctp_assoc_path_mtu(const struct sctp_assoc *a, unsigned path, bool *fixed)
{
	if (a->tx == NULL || a->state == SCTP_ASSOC_CLOSED)
		return -ENOTCONN;
	if (path >= a->paths.n || path >= a->tx->n_paths)
		return -EINVAL;
	const struct sctp_path *pa = sctp_paths_get_const(&a->paths, path);
	if (fixed != NULL)
		*fixed = (pa->pmtu_flags & SCTP_PATH_PMTU_FIXED) != 0;
	return pa->mtu;
}
