/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Congestion control: the parameter sets, their check and the table of
 * algorithms (sctp/cc.h). The RFC 9260 algorithm is sctp/cc_rfc9260.c;
 * docs/CC.md explains every parameter value.
 */
#include <stddef.h>

#include "sctp/cc.h"

_Static_assert(sizeof(struct sctp_cc_path) == 16, "struct sctp_cc_path grew: see its comment");

const struct sctp_cc_params sctp_cc_params_rfc = {
	.algo = SCTP_CC_RFC9260,
	.ss_l = 1,		 /* §7.2.1 "The positive integer L SHOULD be 1" */
	.max_burst = 4,		 /* §16 "Max.Burst: 4" */
	.initial_cwnd_pmdcs = 0, /* §7.2.1's formula */
};

const struct sctp_cc_params sctp_cc_params_dc = {
	.algo = SCTP_CC_RFC9260,
	.ss_l = 4,		  /* one SACK per 4 packets (sctp_profile_dc.sack_every) */
	.max_burst = 0,		  /* no cap: the window and the NIC pace */
	.initial_cwnd_pmdcs = 10, /* RFC 6928's ten segments */
};

const struct sctp_cc_ops *const sctp_cc_algos[SCTP_CC_ALGO_COUNT] = {
	[SCTP_CC_RFC9260] = &sctp_cc_rfc9260_ops,
};

const struct sctp_cc_ops *
sctp_cc_ops_get(unsigned algo)
{
	return algo < SCTP_CC_ALGO_COUNT ? sctp_cc_algos[algo] : NULL;
}

const char *
sctp_cc_params_check(const struct sctp_cc_params *p)
{
	if (p->algo >= SCTP_CC_ALGO_COUNT)
		return "algo unknown";
	if (p->ss_l == 0)
		return "ss_l == 0";
	if (p->ss_l > SCTP_CC_SS_L_MAX)
		return "ss_l > SCTP_CC_SS_L_MAX";
	if (p->initial_cwnd_pmdcs > SCTP_CC_INITIAL_PMDCS_MAX)
		return "initial_cwnd_pmdcs > SCTP_CC_INITIAL_PMDCS_MAX";
	return NULL;
}
