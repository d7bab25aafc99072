/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Per-association options: the RFC 6458 socket options a Linux SCTP user
 * knows (SCTP_RTOINFO, SCTP_ASSOCINFO, SCTP_INITMSG, ...), as values an
 * application sets on one association (dpsctp_assoc_setopt()) or on the
 * instance, for the associations made afterwards (dpsctp_setopt(), RFC
 * 6458's association id 0). docs/OPTIONS.md maps each socket option and
 * field to ours, with its configuration key, defaults and range.
 *
 * Every option's value is one fixed-size struct of explicit-width fields,
 * no pointers and no implicit padding: the sidecar copies them as bytes
 * between processes of one host. `len` is always sizeof the option's struct.
 * Times are in microseconds (the data-center profile's timers are below a
 * millisecond), except the cookie life, in milliseconds as in RFC 6458.
 * Where RFC 6458 says so, a field of 0 in a set keeps the value in force.
 *
 * dpsctp_opt_check() validates a value without the data plane (no DPDK):
 * the sidecar's client library refuses bad values with it before they
 * leave the process. Its message names the option, the field and the
 * allowed range.
 */
#ifndef DPSCTP_OPT_H
#define DPSCTP_OPT_H

#include <stddef.h>
#include <stdint.h>

#include "sctp/addr.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef DPSCTP_EXPORT
#define DPSCTP_EXPORT __attribute__((visibility("default")))
#endif

/** The options, named after RFC 6458's SCTP_* socket options. */
enum dpsctp_opt {
	DPSCTP_OPT_RTOINFO = 1,	     /**< struct dpsctp_rtoinfo (SCTP_RTOINFO, §8.1.1) */
	DPSCTP_OPT_ASSOCINFO,	     /**< struct dpsctp_associnfo (SCTP_ASSOCINFO, §8.1.2) */
	DPSCTP_OPT_INITMSG,	     /**< struct dpsctp_initmsg (SCTP_INITMSG, §8.1.3) */
	DPSCTP_OPT_PEER_ADDR_PARAMS, /**< struct dpsctp_paddrparams (§8.1.12) */
	DPSCTP_OPT_DELAYED_SACK,     /**< struct dpsctp_sack_info (SCTP_DELAYED_SACK, §8.1.19) */
	DPSCTP_OPT_MAXSEG,	     /**< struct dpsctp_assoc_value (SCTP_MAXSEG, §8.1.16) */
	DPSCTP_OPT_MAX_BURST,	     /**< struct dpsctp_assoc_value (SCTP_MAX_BURST, §8.1.24) */
	DPSCTP_OPT_NODELAY,	     /**< struct dpsctp_assoc_value (SCTP_NODELAY, §8.1.5) */
	DPSCTP_OPT_DEFAULT_SNDINFO,  /**< struct dpsctp_default_sndinfo (§8.1.31) */
	DPSCTP_OPT_EVENTS,	     /**< struct dpsctp_events (SCTP_EVENT, §6.2.2) */
	DPSCTP_OPT_PRIMARY_ADDR,     /**< struct dpsctp_primary_addr (SCTP_PRIMARY_ADDR, §8.1.9) */
	DPSCTP_OPT_STATUS,	     /**< struct dpsctp_status, get only (SCTP_STATUS, §8.2.1) */
	DPSCTP_OPT_PEER_ADDR_INFO,   /**< struct dpsctp_paddrinfo, get only (§8.2.2) */
};

/** One past the last option id (for tables and loops). */
#define DPSCTP_OPT_END (DPSCTP_OPT_PEER_ADDR_INFO + 1)

/**
 * DPSCTP_OPT_RTOINFO (RFC 9260 §6.3.1 RTO.Initial, RTO.Min, RTO.Max).
 * Set: 0 keeps a field's value; the result must keep min <= initial <= max.
 * Every path's RTO is clamped to the new bounds at once; RTO.Initial
 * applies to paths that have no RTT sample yet.
 */
struct dpsctp_rtoinfo {
	uint32_t initial_us; /**< srto_initial */
	uint32_t min_us;     /**< srto_min: at least the clock granularity */
	uint32_t max_us;     /**< srto_max: at most 3,600 s */
};

/**
 * DPSCTP_OPT_ASSOCINFO. Set: max_retrans and cookie_life_ms (0 keeps
 * them); the other fields are read only (ignored in a set). The cookie
 * life of the instance (dpsctp_setopt(), --cookie-life) is that of the
 * cookies a listener's INIT ACK gives new associations; an association's
 * own is that of the INIT ACKs it sends itself (an INIT collision or a
 * peer's restart, RFC 9260 §5.2).
 */
struct dpsctp_associnfo {
	uint16_t max_retrans;	    /**< sasoc_asocmaxrxt: Association.Max.Retrans (§8.1) */
	uint16_t peer_destinations; /**< sasoc_number_peer_destinations (get) */
	uint32_t peer_rwnd;	    /**< sasoc_peer_rwnd (get) */
	uint32_t local_rwnd;	    /**< sasoc_local_rwnd (get) */
	uint32_t cookie_life_ms;    /**< sasoc_cookie_life: Valid.Cookie.Life (§5.1.3) */
};

/**
 * DPSCTP_OPT_INITMSG: what our INIT (or INIT ACK) offers, and how the
 * handshake retries. A set on an association takes effect for the streams
 * only before its INIT is sent (dpsctp_connect_opts()); the retries from
 * the next timeout. 0 keeps a field's value.
 */
struct dpsctp_initmsg {
	uint16_t num_ostreams;	    /**< sinit_num_ostreams: outbound streams asked, 1..65535 */
	uint16_t max_instreams;	    /**< sinit_max_instreams: inbound streams allowed, 1..65535 */
	uint16_t max_attempts;	    /**< sinit_max_attempts: Max.Init.Retransmits (§5.1) */
	uint16_t reserved;	    /**< 0 */
	uint32_t max_init_timeo_us; /**< sinit_max_init_timeo: cap of the T1 timer's backoff */
};

/** dpsctp_paddrparams.flags (RFC 6458 spp_flags, the same numbers where they exist). */
#define DPSCTP_SPP_HB_ENABLE	 0x001u /**< heartbeats on */
#define DPSCTP_SPP_HB_DISABLE	 0x002u /**< heartbeats off */
#define DPSCTP_SPP_PMTUD_ENABLE	 0x008u /**< discover the path MTU */
#define DPSCTP_SPP_PMTUD_DISABLE 0x010u /**< fixed path MTU: pathmtu */
#define DPSCTP_SPP_PF_ENABLE	 0x100u /**< RFC 7829 potentially-failed state on, pf_threshold */
#define DPSCTP_SPP_PF_DISABLE	 0x200u /**< RFC 7829 potentially-failed state off */

/**
 * DPSCTP_OPT_PEER_ADDR_PARAMS (with RFC 7829's SCTP_PEER_ADDR_THLDS
 * folded in): heartbeats, path failure thresholds and path MTU. addr
 * SCTP_ADDR_NONE: the association (every path, and those added later);
 * on the instance, addr must be SCTP_ADDR_NONE. A peer address: that path
 * only (-ENOENT for an address that is not the peer's): its heartbeats on
 * or off, HB.interval, Path.Max.Retrans, PF state and threshold, MTU. A
 * set changes the fields its flags name, and hb_interval_us and
 * path_max_retrans when not 0; a set on the association also gives every
 * path the association's value of each field it changes (a path's own
 * value of it is dropped, as Linux does). The PF threshold must stay
 * below the Path.Max.Retrans of each path it applies to. A get fills
 * every field and flag: with addr, that path's values (its own, else the
 * association's); without, the association's.
 */
struct dpsctp_paddrparams {
	uint32_t flags;		   /**< DPSCTP_SPP_*: at most one of each ENABLE/DISABLE pair */
	uint32_t hb_interval_us;   /**< spp_hbinterval: HB.interval (§8.3), 0 keeps */
	uint16_t path_max_retrans; /**< spp_pathmaxrxt: Path.Max.Retrans (§8.2), 0 keeps */
	uint16_t pf_threshold; /**< spt_pathpfthld: PFMR (RFC 7829), with DPSCTP_SPP_PF_ENABLE */
	uint32_t pathmtu;      /**< spp_pathmtu, with DPSCTP_SPP_PMTUD_DISABLE */
	struct sctp_addr addr; /**< spp_address: the path, or SCTP_ADDR_NONE */
	uint8_t reserved[3];   /**< 0 */
};

/**
 * DPSCTP_OPT_DELAYED_SACK (RFC 9260 §6.2). 0 keeps a field; freq 1 SACKs
 * every packet with DATA (no delay).
 */
struct dpsctp_sack_info {
	uint32_t delay_us; /**< sack_delay: at most 500 ms and below RTO.Min */
	uint32_t freq;	   /**< sack_freq: SACK at least every freq packets with DATA, 1..65535 */
};

/**
 * DPSCTP_OPT_MAXSEG: the largest DATA payload a fragment carries (0: as
 * the path MTU allows; a value above what the path MTU allows is the path
 * MTU's). DPSCTP_OPT_MAX_BURST: packets sent per opportunity (RFC 9260
 * §6.1, 0: no cap). DPSCTP_OPT_NODELAY: 1 (the default) sends each message
 * at once; 0 holds a message smaller than a packet while data of ours is
 * unacknowledged, as if it carried DPSCTP_SEND_MORE, until a packet fills
 * or the acknowledgement comes (Nagle).
 */
struct dpsctp_assoc_value {
	uint32_t value; /**< assoc_value */
};

/**
 * DPSCTP_OPT_DEFAULT_SNDINFO: what dpsctp_send() with a NULL sndinfo uses
 * (fields as struct dpsctp_sndinfo's).
 */
struct dpsctp_default_sndinfo {
	uint16_t sid;	    /**< snd_sid */
	uint16_t reserved;  /**< 0 */
	uint32_t ppid;	    /**< snd_ppid, host order */
	uint32_t flags;	    /**< snd_flags: DPSCTP_SEND_UNORDERED, _SACK_NOW */
	uint32_t context;   /**< snd_context: as dpsctp_sndinfo.context */
	uint32_t pr_policy; /**< DPSCTP_PR_* (RFC 7496 sprstat_policy) */
	uint32_t pr_value;  /**< as dpsctp_sndinfo.pr_value */
};

/** The bit of event type t (enum dpsctp_event_type) in dpsctp_events.mask. */
#define DPSCTP_EV_BIT(t) (1u << (unsigned)(t))

/**
 * DPSCTP_OPT_EVENTS: the events the application's on_event receives (RFC
 * 6458 SCTP_EVENT). COMM_UP, COMM_LOST, SHUTDOWN_COMPLETE and CANT_START
 * are always delivered, whatever the mask: they begin and end a handle's
 * life (an accepted association is known only by its COMM_UP). Default:
 * every event.
 */
struct dpsctp_events {
	uint32_t mask; /**< DPSCTP_EV_BIT() of each event wanted */
};

/** DPSCTP_OPT_PRIMARY_ADDR: the primary path (set: SET PRIMARY, RFC 9260 §5.1.2). */
struct dpsctp_primary_addr {
	struct sctp_addr addr; /**< ssp_addr: one of the peer's addresses */
	uint8_t reserved[3];   /**< 0 */
};

/**
 * DPSCTP_OPT_PEER_ADDR_INFO (get only): one path. Set addr before the get
 * to name the path (SCTP_ADDR_NONE: the primary).
 */
struct dpsctp_paddrinfo {
	uint32_t state;	       /**< spinfo_state: enum dpsctp_path_state */
	uint32_t cwnd;	       /**< spinfo_cwnd, bytes */
	uint32_t srtt_us;      /**< spinfo_srtt, 0 before the first sample */
	uint32_t rto_us;       /**< spinfo_rto */
	uint32_t mtu;	       /**< spinfo_mtu */
	struct sctp_addr addr; /**< spinfo_address */
	uint8_t reserved[3];   /**< 0 */
};

/** DPSCTP_OPT_STATUS (get only). */
struct dpsctp_status {
	uint32_t state;		      /**< sstat_state: enum dpsctp_assoc_state */
	uint32_t rwnd;		      /**< sstat_rwnd: the peer's window as we last saw it */
	uint32_t unacked;	      /**< sstat_unackdata: DATA chunks sent, not acknowledged */
	uint32_t pending;	      /**< sstat_penddata: DATA chunks received, not delivered */
	uint16_t instrms;	      /**< sstat_instrms */
	uint16_t outstrms;	      /**< sstat_outstrms */
	uint32_t fragmentation_point; /**< sstat_fragmentation_point: DATA payload per fragment */
	struct dpsctp_paddrinfo primary; /**< sstat_primary */
};

/**
 * Check an option's value without applying it: what dpsctp_setopt() and
 * dpsctp_assoc_setopt() refuse for the value alone (a combination with the
 * values in force, e.g. RTOINFO.min above the current max, is checked
 * when set). Needs no data plane (the sidecar's client library links it).
 *
 * @param opt     the option.
 * @param val     its value.
 * @param len     sizeof the option's struct.
 * @param err     room for a one-line reason ("RTOINFO.min_us 0: outside
 *                1 us..3600 s"); may be NULL.
 * @param errlen  bytes at @p err.
 * @return 0, -EINVAL (bad value, wrong len, NULL val; err says which),
 *         -ENOPROTOOPT (not an option, or a get-only one).
 */
DPSCTP_EXPORT int dpsctp_opt_check(enum dpsctp_opt opt, const void *val, size_t len, char *err,
				   size_t errlen);

/**
 * The option's name as RFC 6458 spells it without "SCTP_" ("RTOINFO").
 *
 * @param opt  the option.
 * @return a static string; NULL for an unknown id.
 */
DPSCTP_EXPORT const char *dpsctp_opt_name(enum dpsctp_opt opt);

/**
 * sizeof the option's struct.
 *
 * @param opt  the option.
 * @return the size; 0 for an unknown id.
 */
DPSCTP_EXPORT size_t dpsctp_opt_size(enum dpsctp_opt opt);

#ifdef __cplusplus
}
#endif

#endif /* DPSCTP_OPT_H */
