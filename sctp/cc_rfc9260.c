/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The congestion control of RFC 9260 §7.2 for one destination address, with
 * §6.1 rules B and D for how much may be sent. Each rule below quotes the
 * RFC sentence it implements; docs/CC.md lists them with the tests.
 *
 * Where the RFC leaves a choice, the choice and its reason are next to the
 * code: the idle decay never raises cwnd, pba is bounded by cwnd, a PMTU
 * change keeps cwnd (raised to one PMDCS at least), Max.Burst is applied
 * in both of §6.1 D's forms and never stored.
 *
 * Costs: every function is a handful of compares and adds on 16 bytes of
 * state, except on_idle, at most 32 halvings (cwnd <= 2^32 - 1). Sums are
 * taken in 64 bits and saturated at UINT32_MAX, so no input overflows.
 */
#include "sctp/cc.h"

/* ssthresh "arbitrarily high", §7.2.1; also the saturation point of cwnd. */
#define BYTES_MAX UINT32_MAX

static uint32_t
add_sat(uint32_t a, uint64_t b)
{
	uint64_t r = (uint64_t)a + b;

	return r > BYTES_MAX ? BYTES_MAX : (uint32_t)r;
}

static uint32_t
mul_sat(uint32_t a, uint32_t b)
{
	uint64_t r = (uint64_t)a * b;

	return r > BYTES_MAX ? BYTES_MAX : (uint32_t)r;
}

static uint32_t
max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

static uint32_t
min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* §7.2.3 "ssthresh = max(cwnd / 2, 4 * PMDCS)", shared by loss and T3-rtx. */
static uint32_t
loss_ssthresh(const struct sctp_cc_path *s)
{
	return max_u32(s->cwnd / 2, mul_sat(4, s->pmdcs));
}

static void
rfc9260_init(struct sctp_cc_path *s, const struct sctp_cc_params *p, uint16_t pmdcs, uint8_t family)
{
	uint32_t m = pmdcs != 0 ? pmdcs : 1;

	s->pmdcs = (uint16_t)m;
	if (p->initial_cwnd_pmdcs != 0) {
		/* The data-center override (docs/CC.md): n * PMDCS. */
		s->cwnd = mul_sat(p->initial_cwnd_pmdcs, m);
	} else {
		/*
		 * §7.2.1 "The initial cwnd before data transmission MUST be
		 * set to min(4 * PMDCS, max(2 * PMDCS, 4404)) bytes if the
		 * peer address is an IPv4 address and to min(4 * PMDCS,
		 * max(2 * PMDCS, 4344)) bytes if the peer address is an IPv6
		 * address." (3 * 1468 and 3 * 1448: three full DATA chunks at
		 * a 1500-byte MTU.)
		 */
		uint32_t k = family == SCTP_ADDR_V6 ? 4344u : 4404u;

		s->cwnd = min_u32(4 * m, max_u32(2 * m, k));
	}
	/*
	 * §7.2.1 "The initial value of ssthresh SHOULD be arbitrarily high
	 * (e.g., the size of the largest-possible advertised window)." Not the
	 * peer's a_rwnd: a receiver may grow its window after the handshake.
	 */
	s->ssthresh = BYTES_MAX;
	/* §7.2.2 "partial_bytes_acked is initialized to 0." */
	s->partial_bytes_acked = 0;
	s->flags = 0;
	s->reserved = 0;
}

static void
rfc9260_on_sack(struct sctp_cc_path *s, const struct sctp_cc_params *p,
		const struct sctp_cc_sack *ev)
{
	/*
	 * §7.2.1 "only one packet is allowed to be in flight until successful
	 * acknowledgement": data of this path was acknowledged.
	 */
	if (ev->bytes_acked != 0)
		s->flags &= (uint8_t)~SCTP_CC_F_ONE_PACKET;

	if (s->cwnd <= s->ssthresh) {
		/*
		 * §7.2.1 "When cwnd is less than or equal to ssthresh, an SCTP
		 * endpoint MUST use the slow-start algorithm to increase cwnd
		 * only if the current congestion window is being fully
		 * utilized and the data sender is not in Fast Recovery. ...
		 * then cwnd MUST be increased by, at most, the lesser of 1) the
		 * total size of the previously outstanding DATA chunk(s)
		 * acknowledged and 2) L times the destination's PMDCS."
		 * RFC 9260 dropped RFC 4960's third condition, that the SACK
		 * advance the Cumulative TSN Ack Point: cum_tsn_advanced is
		 * not read. "Fully utilized" is §7.2.2's test, flight size
		 * before the SACK >= cwnd; rule B's overbooking lets a sender
		 * that is limited by cwnd always reach it.
		 */
		if (!ev->in_fast_recovery && ev->flight_before >= s->cwnd)
			s->cwnd = add_sat(s->cwnd,
					  min_u32(ev->bytes_acked, mul_sat(p->ss_l, s->pmdcs)));
	} else {
		/*
		 * §7.2.2 "Whenever cwnd is greater than ssthresh, upon each
		 * SACK chunk arrival, increase partial_bytes_acked by the total
		 * number of bytes ... of all new DATA chunks acknowledged in
		 * that SACK chunk, including chunks acknowledged by the new
		 * Cumulative TSN Ack, by Gap Ack Blocks, and by the number of
		 * bytes of duplicated chunks reported in Duplicate TSNs."
		 */
		s->partial_bytes_acked =
			add_sat(s->partial_bytes_acked, (uint64_t)ev->bytes_acked + ev->bytes_dup);
		if (s->partial_bytes_acked >= s->cwnd && ev->flight_before >= s->cwnd) {
			/*
			 * "When (1) partial_bytes_acked is equal to or greater
			 * than cwnd and (2) before the arrival of the SACK
			 * chunk the sender had cwnd or more bytes of data
			 * outstanding ..., partial_bytes_acked is reset to
			 * (partial_bytes_acked - cwnd). Next, cwnd is
			 * increased by PMDCS."
			 */
			s->partial_bytes_acked -= s->cwnd;
			s->cwnd = add_sat(s->cwnd, s->pmdcs);
			/*
			 * Ours: what is left may not exceed the new cwnd, so
			 * one SACK never carries credit for a second increase
			 * ("MUST NOT increment cwnd by more than PMDCS per
			 * RTT"). It only bites when acked plus duplicate bytes
			 * exceed a window, e.g. a SACK reporting a
			 * retransmitted chunk both acknowledged and duplicate.
			 */
			s->partial_bytes_acked = min_u32(s->partial_bytes_acked, s->cwnd);
		} else if (s->partial_bytes_acked > s->cwnd) {
			/*
			 * "When (1) partial_bytes_acked is greater than cwnd
			 * and (2) before the arrival of the SACK chunk the
			 * sender had less than cwnd bytes of data outstanding
			 * ..., reset partial_bytes_acked to cwnd." (Condition
			 * (2) holds here: with it false the branch above ran.)
			 */
			s->partial_bytes_acked = s->cwnd;
		}
	}
	/*
	 * §7.2.2 "When all of the data transmitted by the sender has been
	 * acknowledged by the receiver, partial_bytes_acked is initialized to
	 * 0." Per path, like partial_bytes_acked itself; after the increase
	 * above, which that SACK has earned.
	 */
	if (ev->flight_after == 0)
		s->partial_bytes_acked = 0;
}

static void
rfc9260_on_fast_retransmit(struct sctp_cc_path *s, const struct sctp_cc_params *p,
			   bool in_fast_recovery)
{
	(void)p;
	/*
	 * §7.2.4 rule 2 "If not in Fast Recovery, adjust the ssthresh and cwnd
	 * of the destination address(es) to which the missing DATA chunks were
	 * last sent"; rule 6 "While in Fast Recovery, the ssthresh and cwnd
	 * SHOULD NOT change for any destinations due to a subsequent Fast
	 * Recovery event".
	 */
	if (in_fast_recovery)
		return;
	/*
	 * §7.2.3 "Upon detection of packet losses from SACK chunks ...
	 * ssthresh = max(cwnd / 2, 4 * PMDCS); cwnd = ssthresh;
	 * partial_bytes_acked = 0". Below 8 * PMDCS this raises cwnd to
	 * 4 * PMDCS; the formula says so.
	 */
	s->ssthresh = loss_ssthresh(s);
	s->cwnd = s->ssthresh;
	s->partial_bytes_acked = 0;
}

static void
rfc9260_on_t3_expiry(struct sctp_cc_path *s, const struct sctp_cc_params *p)
{
	(void)p;
	/*
	 * §7.2.3 "When the T3-rtx timer expires on an address, SCTP SHOULD
	 * perform slow start by: ssthresh = max(cwnd / 2, 4 * PMDCS); cwnd =
	 * PMDCS; partial_bytes_acked = 0 and ensure that no more than one SCTP
	 * packet will be in flight for that address until the endpoint
	 * receives acknowledgement for successful delivery of data to that
	 * address." The last part is SCTP_CC_F_ONE_PACKET, read by window().
	 */
	s->ssthresh = loss_ssthresh(s);
	s->cwnd = s->pmdcs;
	s->partial_bytes_acked = 0;
	s->flags |= SCTP_CC_F_ONE_PACKET;
}

static void
rfc9260_on_idle(struct sctp_cc_path *s, const struct sctp_cc_params *p, uint32_t rtos)
{
	uint32_t floor = mul_sat(4, s->pmdcs);

	(void)p;
	/*
	 * §7.2.1 "While the endpoint does not transmit data on a given
	 * transport address, the cwnd of the transport address SHOULD be
	 * adjusted to max(cwnd / 2, 4 * PMDCS) once per RTO. Before the first
	 * cwnd adjustment, the ssthresh of the transport address SHOULD be set
	 * to the cwnd."
	 *
	 * Ours: a cwnd at or below 4 * PMDCS is left alone, and so is ssthresh
	 * then. The formula read literally would raise such a cwnd (after a
	 * T3-rtx, 1 * PMDCS to 4 * PMDCS) for being silent, the opposite of
	 * the decay's purpose, and §7.2 forbids being "more aggressive than the
	 * following algorithms allow".
	 */
	if (rtos == 0 || s->cwnd <= floor)
		return;
	s->ssthresh = s->cwnd;
	while (rtos-- != 0 && s->cwnd > floor)
		s->cwnd = max_u32(s->cwnd / 2, floor);
	/*
	 * Ours: keeps partial_bytes_acked <= cwnd. Usually it is 0 already: an
	 * idle path has had all its data acknowledged (§7.2.2).
	 */
	s->partial_bytes_acked = min_u32(s->partial_bytes_acked, s->cwnd);
}

static void
rfc9260_on_pmtu_change(struct sctp_cc_path *s, const struct sctp_cc_params *p, uint16_t pmdcs)
{
	(void)p;
	/*
	 * RFC 9260 says nothing of cwnd on a PMTU change (§7.3 only asks for
	 * per-destination PMTU estimates); a new PMTU is not a congestion
	 * signal. cwnd stays in bytes. It is raised to one new PMDCS at least,
	 * which adds nothing to what rule B already allows (one packet of up
	 * to PMDCS while flight < cwnd) and keeps cwnd >= pmdcs.
	 */
	s->pmdcs = pmdcs != 0 ? pmdcs : 1;
	s->cwnd = max_u32(s->cwnd, s->pmdcs);
}

static struct sctp_cc_window
rfc9260_window(const struct sctp_cc_path *s, const struct sctp_cc_params *p, uint32_t flight,
	       bool new_data)
{
	struct sctp_cc_window w = { 0, 0 };
	uint64_t limit = s->cwnd;
	uint32_t packets = UINT32_MAX;

	if (s->flags & SCTP_CC_F_ONE_PACKET) {
		/* §7.2.1 and §7.2.3: one packet in flight after T3-rtx. */
		if (flight == 0) {
			w.bytes = s->cwnd;
			w.packets = 1;
		}
		return w;
	}
	if (new_data && p->max_burst != 0) {
		/*
		 * §6.1 D "the protocol parameter 'Max.Burst' SHOULD be used to
		 * limit the number of packets sent. The limit MAY be applied
		 * by adjusting cwnd temporarily, as follows: if ((flightsize +
		 * Max.Burst * PMDCS) < cwnd) cwnd = flightsize + Max.Burst *
		 * PMDCS. Or, it MAY be applied by strictly limiting the number
		 * of packets emitted by the output routine. ... cwnd SHOULD NOT
		 * be changed permanently." Both forms, on a copy: the byte form
		 * alone would let small packets exceed Max.Burst in number.
		 * RFC 4960 stored the reduced cwnd, which is what throttled
		 * Linux SCTP's pipe; here s is const.
		 */
		uint64_t burst = (uint64_t)flight + (uint64_t)p->max_burst * s->pmdcs;

		if (burst < limit)
			limit = burst;
		packets = p->max_burst;
	}
	/*
	 * §6.1 B "the sender MUST NOT transmit new data to a given transport
	 * address if it has cwnd + (PMDCS - 1) or more bytes of data
	 * outstanding ... If data is available, the sender SHOULD exceed cwnd
	 * by up to (PMDCS - 1) bytes on a new data transmission if the
	 * flightsize does not currently reach cwnd. The breach of cwnd MUST
	 * constitute one packet only." A packet may start while flight + sent
	 * < cwnd, i.e. sent < bytes; a packet holds at most PMDCS, so it ends
	 * at cwnd + PMDCS - 1 at most, and the next one cannot start.
	 */
	if (flight < limit) {
		w.bytes = (uint32_t)(limit - flight);
		w.packets = packets;
	}
	return w;
}

const struct sctp_cc_ops sctp_cc_rfc9260_ops = {
	.name = "rfc9260",
	.init = rfc9260_init,
	.on_sack = rfc9260_on_sack,
	.on_fast_retransmit = rfc9260_on_fast_retransmit,
	.on_t3_expiry = rfc9260_on_t3_expiry,
	.on_idle = rfc9260_on_idle,
	.on_pmtu_change = rfc9260_on_pmtu_change,
	.window = rfc9260_window,
};
