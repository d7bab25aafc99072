/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The runtime's counters, each declared once: its name, what it counts, and
 * its field. DP_WORKER_COUNTERS is the one list; struct dp_worker_counters
 * (the fields a worker increments), the names and descriptions of
 * dpsctp_worker_counter() and /dpsctp/ telemetry (dp_stats.c) and the table
 * in docs/COUNTERS.md (docs/tools/counters.py) are all made from it. A new
 * counter is one X() line here.
 *
 * Includes: nothing of the runtime (docs/ARCHITECTURE.md, "The runtime's
 * files").
 */
#ifndef DPSCTP_DATAPLANE_DP_COUNTERS_H
#define DPSCTP_DATAPLANE_DP_COUNTERS_H

#include <stdint.h>

/* A worker's counters: X(field and name, description). */
#define DP_WORKER_COUNTERS(X)                                                                      \
	X(rx_packets, "frames received from the queue")                                            \
	X(rx_on_owner,                                                                             \
	  "SCTP packets that arrived on their owner's queue (hardware-steered when flow_hw)")      \
	X(rx_handoff_in, "frames another worker handed to this one (tag names us)")                \
	X(rx_handoff_out, "frames handed to the worker the tag names")                             \
	X(rx_handoff_full, "hand-off ring full: frame dropped")                                    \
	X(rx_linearized, "multi-segment frames copied into one mbuf to be parsed")                 \
	X(rx_no_mbuf, "no mbuf to linearize a multi-segment frame: dropped")                       \
	X(rx_sctp, "SCTP packets reaching the demultiplexer")                                      \
	X(rx_crc_offload, "SCTP CRC32c checked by the NIC")                                        \
	X(rx_crc_software, "SCTP CRC32c checked in software")                                      \
	X(drop_bad_crc, "SCTP packet with a wrong CRC32c (RFC 9260 §6.8): dropped")                \
	X(drop_malformed, "SCTP packet the chunk walker refused: dropped")                         \
	X(drop_tag_no_owner, "tag names no running worker (forged or corrupt): dropped")           \
	X(drop_no_conn_memory,                                                                     \
	  "no association block left (--max-assocs): a valid COOKIE ECHO answered with ABORT, "    \
	  "Out of Resource")                                                                       \
	X(drop_table_full, "association table full: cookie dropped")                               \
	X(cookie_unlistened,                                                                       \
	  "cookie for a port that stopped listening since its INIT ACK: aborted")                  \
	X(icmp_errors,                                                                             \
	  "ICMP errors quoting our SCTP packets, handed to the association (appendix C)")          \
	X(icmp_no_assoc, "ICMP errors quoting a packet of no association on this worker: dropped") \
	X(peer_addr_taken,                                                                         \
	  "a peer address another association has with the same ports: not indexed (a cookie "     \
	  "from it as the first is aborted)")                                                      \
	X(peer_table_full, "a peer's further address not indexed: the by-peer table is full")      \
	X(paths_no_block,                                                                          \
	  "a multi-homed peer's further addresses not used: no block of paths left "               \
	  "(--multihomed; none with --max-paths 1)")                                               \
	X(ootb, "packets for no association, answered or dropped by the endpoint (§8.4)")          \
	X(drop_init_busy,                                                                          \
	  "INITs dropped unread while the receive queue was backed up, beyond --busy-init-rate")   \
	X(tx_heartbeats,                                                                           \
	  "HEARTBEAT chunks sent: idle-path heartbeats, path probes, PLPMTUD probes")              \
	X(tx_heartbeat_acks, "HEARTBEAT ACK chunks sent: the peers' heartbeats answered")          \
	X(hb_probes, "HEARTBEATs probing an unconfirmed or potentially-failed path: never held "   \
		     "by --hb-rate, "                                                              \
		     "but counted against it")                                                     \
	X(hb_deferred,                                                                             \
	  "idle-path HEARTBEATs given a later slot by --hb-rate (each goes at its slot unless "    \
	  "the path carries data first)")                                                          \
	X(rx_init_queue,                                                                           \
	  "frames read from the queue for handshakes (--init-queue); those it holds beyond "       \
	  "--busy-init-rate while associations have traffic are left for the port to drop")        \
	X(tx_packets, "frames handed to the port")                                                 \
	X(tx_full, "frames the port did not take after retries: dropped (the core retransmits)")   \
	X(tx_no_mbuf, "no mbuf to build a packet: dropped (the core retransmits)")                 \
	X(tx_l3_drop, "no route or neighbour for a packet: dropped (l3 counters say why)")         \
	X(tx_too_big, "frames longer than the port's MTU: dropped, as a NIC or veth would")        \
	X(tx_src_port,                                                                             \
	  "packets whose source the core chose on another port than the route's: sent from the "   \
	  "egress port's address instead (several ports)")                                         \
	X(tx_payload_copied, "payload bytes copied into a bundle (below the copy threshold)")      \
	X(tx_payload_zero_copy, "payload bytes sent by reference (indirect mbufs)")                \
	X(send_copied, "messages copied at send: mbuf chains and byte sends (one copy)")           \
	X(send_packed, "small byte sends packed into a shared mbuf (one copy, no mbuf each)")      \
	X(tx_crc_offload, "SCTP CRC32c left to the NIC")                                           \
	X(tx_crc_software, "SCTP CRC32c computed in software")                                     \
	X(assocs_created, "associations created (from a cookie or by connect)")                    \
	X(assocs_freed, "associations freed")                                                      \
	X(msgs_delivered, "messages (or partial deliveries) handed to receive callbacks")          \
	X(bytes_delivered, "payload bytes handed to receive callbacks")                            \
	X(msgs_sent, "messages accepted by send")                                                  \
	X(bytes_sent, "payload bytes accepted by send")                                            \
	X(send_refused, "sends refused (no room, closed, bad stream)")                             \
	X(data_block_empty,                                                                        \
	  "no per-association data block left (--max-assocs plus the RE-CONFIG spares): a new "    \
	  "association, or streams being added (answered Denied), refused")                        \
	X(data_heap_blocks,                                                                        \
	  "data blocks larger than the pool's (more than 64 streams a way) taken from the heap")   \
	X(data_heap_bytes,                                                                         \
	  "bytes of those blocks taken (in use: data_heap_bytes - data_heap_freed)")               \
	X(data_heap_freed, "bytes of those blocks given back")                                     \
	X(data_heap_refused,                                                                       \
	  "larger data blocks refused: past --stream-mem or no heap left (a new association "      \
	  "aborted with Out of Resource, streams being added answered Denied)")                    \
	X(requests, "API requests executed from other threads")                                    \
	X(requests_full, "API requests refused: the worker's request ring was full")               \
	X(timers_fired, "association timer wheel expiries")                                        \
	X(impair_dropped, "frames the impairment stage dropped (--impair: loss, limit, rate)")     \
	X(impair_duplicated, "frames the impairment stage duplicated (--impair dup)")              \
	X(impair_rx_dropped,                                                                       \
	  "received frames the rx impairment stage dropped (--impair-rx: loss, limit, rate)")      \
	X(impair_rx_duplicated,                                                                    \
	  "received frames the rx impairment stage duplicated (--impair-rx dup)")                  \
	X(polls, "loop iterations")                                                                \
	X(idle_polls, "loop iterations that found nothing to do")                                  \
	X(poll_gap_500us,                                                                          \
	  "polls that came over 500 us after the one before (the DC profile's RTO.min): the "      \
	  "thread was descheduled, or its application kept it, and peers waited that long")        \
	X(poll_gap_2ms, "polls that came over 2 ms after the one before (also in the above)")      \
	X(poll_gap_10ms, "polls that came over 10 ms after the one before (also in the above)")    \
	X(poll_gap_100ms, "polls that came over 100 ms after the one before (also in the above)")  \
	X(rx_catchup,                                                                              \
	  "frames read after a poll gap over 500 us beyond the first burst, before the timers: "   \
	  "the SACKs that came meanwhile are seen before T3-rtx can expire")

struct dp_worker_counters {
#define DP_CTR_FIELD(name, why) uint64_t name;
	DP_WORKER_COUNTERS(DP_CTR_FIELD)
#undef DP_CTR_FIELD
};

#endif /* DPSCTP_DATAPLANE_DP_COUNTERS_H */
