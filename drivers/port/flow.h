/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Steering on the SCTP verification tag (docs/PORTS.md
 * "Steering on the SCTP tag"): ask the port to deliver every SCTP packet
 * whose common-header tag (RFC 9260 §3.1, §8.5) matches value under mask
 * to one rx queue, so that the lcore named by the tag's owner bits
 * (dataplane/vtag.h, clear scheme) receives its associations' packets
 * without a software hand-off.
 *
 * One call installs two rte_flow rules, one per IP family:
 *   ETH / IPV4 / SCTP (hdr.tag & mask == value) -> QUEUE queue
 *   ETH / IPV6 / SCTP (hdr.tag & mask == value) -> QUEUE queue
 * each checked with rte_flow_validate() before rte_flow_create(). A PMD
 * that refuses either (every software PMD does: net_ring has no rte_flow,
 * net_tap matches no SCTP item) gets -ENOTSUP with its own rte_flow_error
 * message in port->error, and nothing of that call stays installed. SCTP
 * over UDP (RFC 6951) is never steered: its tag sits in the UDP payload,
 * where no rte_flow item reaches portably; such packets are handed off in
 * software.
 *
 * Whether steering is in hardware is recorded per port:
 * dpsctp_port_flow_hw() is true once at least one tag rule is installed
 * and none was refused since the last flush. The data plane installs one
 * rule per lcore (mask = the owner bits, value = the lcore's index in
 * them) and reads it once at start: true -> the clear vtag scheme
 * (mixed = 0 in struct dpsctp_vtag_scheme), so that hardware can read the
 * owner; false -> flush, and keep the mixed scheme with software hand-off.
 *
 * Threading and cost: control path only (one rte_flow call is microseconds
 * on a software PMD, up to milliseconds on a NIC); not to be called
 * concurrently for one port, nor while another thread changes the port's
 * rules. The record lives in this file, one slot per ethdev port id
 * (RTE_MAX_ETHPORTS, 32 on Debian's DPDK 22.11), tied to the struct
 * dpsctp_port it was made through: call dpsctp_port_flow_flush() before
 * dpsctp_port_close().
 */
#ifndef DRIVERS_PORT_FLOW_H
#define DRIVERS_PORT_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/port/port.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rte_flow;

/* Rules one dpsctp_port_flow_vtag() call installs: [0] IPv4, [1] IPv6. */
#define DPSCTP_PORT_FLOW_VTAG_RULES 2

/*
 * Steer SCTP packets with (tag & tag_mask) == tag_value to rx queue
 * queue of port p (an open port). out is NULL or room for
 * DPSCTP_PORT_FLOW_VTAG_RULES handles, filled on success (for
 * rte_flow_destroy(); dpsctp_port_flow_flush() removes them all anyway).
 * Returns:
 *   0         both rules installed; dpsctp_port_flow_hw(p) is true unless
 *             an earlier call was refused since the last flush;
 *   -EINVAL   p not open, queue >= p->nb_queues, tag_mask 0, or tag_value
 *             with bits outside tag_mask (p->error says which);
 *   -ENOTSUP  the PMD refused a rule, in validation or creation:
 *             p->error holds its rte_flow_error message, the step and the
 *             errno it returned; the rules this call made are destroyed and
 *             dpsctp_port_flow_hw(p) is false until the next flush.
 */
int dpsctp_port_flow_vtag(struct dpsctp_port *p, uint32_t tag_mask, uint32_t tag_value,
			  uint16_t queue, struct rte_flow **out);

/*
 * dpsctp_port_flow_vtag() at rte_flow priority priority (0 the highest; a
 * PMD may support 0 only, and refuses the rest as above). Where two rules
 * match one packet the lower number decides: the data plane's queue for
 * handshakes (tag 0 exactly, priority 0) over the owner rules (priority 1),
 * whose owner 0 would match tag 0 too.
 */
int dpsctp_port_flow_vtag_prio(struct dpsctp_port *p, uint32_t tag_mask, uint32_t tag_value,
			       uint16_t queue, uint32_t priority, struct rte_flow **out);

/*
 * Remove every rte_flow rule of the port (rte_flow_flush(): the tag rules
 * and any other) and forget the record: dpsctp_port_flow_hw(p) is false
 * after it. A PMD without rte_flow support has nothing to flush: 0.
 * Returns 0, -EINVAL when p is not open, or the errno rte_flow_flush()
 * returned with p->error naming it (the record is cleared all the same:
 * the data plane must not count on rules it could not account for).
 */
int dpsctp_port_flow_flush(struct dpsctp_port *p);

/*
 * True when the port steers on the tag in hardware: at least one
 * dpsctp_port_flow_vtag() succeeded through this p, none was refused, and
 * the port was not flushed since.
 */
bool dpsctp_port_flow_hw(const struct dpsctp_port *p);

/* Tag rules installed through p since the last flush (two per successful call). */
uint32_t dpsctp_port_flow_rules(const struct dpsctp_port *p);

#ifdef __cplusplus
}
#endif

#endif /* DRIVERS_PORT_FLOW_H */
