/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A pair simulation: one client association and one server endpoint on a
 * virtual clock, each direction through its own seeded impairment stage
 * (drivers/impair). docs/SIM.md says what it models and what it does not.
 *
 * The clock jumps from event to event: the earliest of each stage's
 * impair_next_due() and each live association's sctp_assoc_next_wakeup().
 * Packets live in a fixed pool of buffers inside struct sim (nothing is
 * allocated per packet); an impairment stage holds pool indices as its
 * handles, and its dup callback copies a packet into a free slot.
 *
 * There is no checksum layer: packets go from one side's send callback to
 * the other side's input as bytes with the CRC field left zero, because
 * nothing between them can corrupt a packet unnoticed (the stages run with
 * corruption off) and the CRC engines have their own tests.
 *
 * Multi-homing (scenario flag multihome): each side then has SIM_ADDRS
 * addresses, one per simulated network (address k of side x is 10.0.k.x+1,
 * so a /24 is a network and the association's longest-prefix choice of
 * source address keeps a path inside its network). Both endpoints list
 * both addresses, the client connects to both of the server's (primary:
 * server address 0), and each side lends one static block of paths for the
 * peer's second address. A black hole drops, during a window after
 * establishment, every packet sent to one address before it reaches its
 * stage; alt_loss adds seeded loss on the other network. docs/SIM.md,
 * "Path failure", has the scenario and its bounds.
 *
 * Single-threaded, deterministic: the same scenario and seed give the same
 * run, event for event, on every machine.
 */
#ifndef SCTP_SIM_SIM_H
#define SCTP_SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "drivers/impair/impair.h"
#include "sctp/assoc.h"
#include "sctp/endpoint.h"
#include "sctp/profile.h"

/* Packet buffers shared by both directions; enough for a handshake storm. */
#define SIM_POOL_SIZE 64u
/* Bytes of one buffer: an INIT ACK with the longest cookie fits. */
#define SIM_PKT_MAX 2048u
/* Notifications kept per side; more are counted, not stored. */
#define SIM_NOTES_MAX 8u
/* Bytes reserved for each stage's slots (checked by sim_init). */
#define SIM_IMPAIR_MEM 8192u
/* Addresses of a side with multihome on (one otherwise). */
#define SIM_ADDRS 2u

enum sim_side { SIM_CLIENT = 0, SIM_SERVER = 1, SIM_SIDES };

/*
 * How a run ended. OK, CANT_START and COMM_LOST are outcomes the protocol
 * allows; the others are the harness finding something wrong.
 */
enum sim_outcome {
	SIM_OK = 0,	 /* established, and shut down if asked, cleanly */
	SIM_CANT_START,	 /* the client's handshake gave up (Max.Init.Retransmits) */
	SIM_COMM_LOST,	 /* an association ended abnormally (T2 or T5 exhausted) */
	SIM_HANG,	 /* the virtual-time limit passed first */
	SIM_BAD_STATE,	 /* wrong notifications, a state other than CLOSED at the end */
	SIM_LEAK,	 /* pool not back to full, or a stage not empty */
	SIM_SETUP_ERROR, /* the scenario could not be set up */
	SIM_OUTCOME_COUNT
};

/* One notification as a side received it. */
struct sim_note {
	uint64_t at_ns;
	uint8_t type;	/* enum sctp_notify_type */
	uint8_t reason; /* enum sctp_assoc_reason */
};

/* Packets of one direction: dir[SIM_CLIENT] is client to server. */
struct sim_dir_stats {
	uint64_t sent;	     /* handed to the stage by the sending side */
	uint64_t dropped;    /* refused by the stage (loss, burst, limit) */
	uint64_t duplicated; /* copies the stage made */
	uint64_t delivered;  /* popped and given to the receiving side */
	uint64_t no_buffer;  /* not sent: the pool was empty */
	uint64_t blackholed; /* dropped by the black hole, before the stage */
	uint64_t alt_lost;   /* dropped by alt_loss_ppb, before the stage */
};

/*
 * Packets sent to address `addr` of side `side` are dropped in [from_ns,
 * to_ns), times counted from establishment (sim_result.t_established), at
 * the moment they are sent: a packet already in its stage arrives. None
 * when to_ns <= from_ns.
 */
struct sim_blackhole {
	uint64_t from_ns;
	uint64_t to_ns;
	uint8_t side; /* enum sim_side owning the address */
	uint8_t addr; /* its index, < SIM_ADDRS */
};

struct sim_scenario {
	const struct sctp_profile *profile; /* both sides */
	/* Both directions; the one-way delay is impair.delay_ns. corrupt must be 0. */
	struct impair_config impair;
	uint64_t seed;		     /* everything random in the run derives from it */
	bool shutdown;		     /* once both are ESTABLISHED, shut down ... */
	enum sim_side shutdown_from; /* ... from this side */
	uint64_t time_limit_ns;	     /* virtual time allowed from the start */
	/* The rest is off when zero; then the run is what it was with one address. */
	bool multihome;			/* SIM_ADDRS addresses per side: see the top of this file */
	struct sim_blackhole blackhole; /* needs multihome */
	/*
	 * Loss on the second network, from its own seeded stream: every packet
	 * to or from the server's address 1. Needs multihome.
	 */
	uint32_t alt_loss_ppb;
};

/*
 * One side's view of its peer's addresses in a multihome run. "Primary" is
 * the peer's address 0. Milestones are virtual times, SCTP_TIME_NEVER when
 * not reached; the failure milestones count from the black hole's opening
 * (from establishment without one).
 */
struct sim_path_result {
	uint8_t n_paths;	/* paths of the association when it was last seen */
	uint64_t t_confirmed;	/* every path confirmed (RFC 9260 §5.4) */
	uint64_t t_pf;		/* primary POTENTIALLY_FAILED (RFC 7829) */
	uint64_t t_unreachable; /* primary UNREACHABLE (§8.2) */
	uint64_t t_failover;	/* counters.failovers grew: new data left the primary */
	uint64_t t_available;	/* primary AVAILABLE again, after t_pf or t_unreachable */
	uint64_t t_return;	/* counters.primary_returns grew, after t_failover */
	/*
	 * Whether the peer's address 1 was PF or unreachable when the primary
	 * first failed (its first PF or UNREACHABLE), and when it was
	 * AVAILABLE again: loss on the second network can hold a failover back.
	 */
	bool alt_down_at_fail;
	uint64_t t_alt_back;
	/* RTO of the path to the primary when the black hole opened and closed. */
	uint64_t rto_open_ns;
	uint64_t rto_repair_ns;
	uint64_t failovers;	  /* counters at the end of the run */
	uint64_t primary_returns; /* ... */
	uint64_t heartbeats_sent; /* ... */
	/* PEER_ADDR_CHANGE per peer address index and enum sctp_addr_change. */
	uint32_t addr_notes[SIM_ADDRS][SCTP_ADDR_CHANGE_MADE_PRIMARY + 1];
	uint32_t paths_refused; /* paths_get calls this side could not serve */
};

struct sim_result {
	enum sim_outcome outcome;
	uint8_t fail_reason; /* enum sctp_assoc_reason of CANT_START / COMM_LOST */
	char detail[160];    /* for BAD_STATE, LEAK, SETUP_ERROR: what was seen */
	/* Virtual times; SCTP_TIME_NEVER when the milestone was not reached. */
	uint64_t t_start;
	uint64_t t_up[SIM_SIDES];     /* COMM_UP */
	uint64_t t_established;	      /* both up: establishment time is this - t_start */
	uint64_t t_shutdown;	      /* sctp_assoc_shutdown() called */
	uint64_t t_closed[SIM_SIDES]; /* SHUTDOWN_COMPLETE, or the abnormal end */
	uint64_t t_end;		      /* the last event */
	struct sim_dir_stats dir[SIM_SIDES];
	unsigned comm_up[SIM_SIDES];
	unsigned shutdown_complete[SIM_SIDES];
	unsigned notes[SIM_SIDES];	   /* notifications of every kind but PEER_ADDR_CHANGE */
	unsigned addr_changes[SIM_SIDES];  /* PEER_ADDR_CHANGE notifications */
	unsigned remote_errors[SIM_SIDES]; /* REMOTE_ERROR notifications */
	unsigned server_assocs;		   /* associations the server created from cookies */
	uint8_t final_state[SIM_SIDES];	   /* before the harness aborted anything left */
	/* §5.2 INITs and COOKIE ECHOs the association refused (sim_collision_drops()). */
	uint64_t collisions[SIM_SIDES];
	uint64_t events;
	/* Multihome runs: the black hole's window in virtual time, and each side's paths. */
	uint64_t t_blackhole_from;
	uint64_t t_blackhole_to;
	struct sim_path_result path[SIM_SIDES];
};

/* One packet buffer of the pool. */
struct sim_pkt {
	uint32_t len;
	uint8_t to; /* enum sim_side of the receiver */
	struct sctp_addr src, dst;
	union { /* 8-byte aligned: the parsers read 32-bit fields */
		uint64_t align;
		uint8_t bytes[SIM_PKT_MAX];
	};
};

struct sim;

struct sim_endside {
	struct sim *sim;
	enum sim_side id;
	struct sctp_endpoint ep;
	struct sctp_assoc a;
	struct sctp_assoc_counters counters;
	struct sctp_assoc_stats stats;
	bool has_assoc;			   /* a is in use (connected, or made from a cookie) */
	struct sctp_addr addrs[SIM_ADDRS]; /* addrs[0] always; the rest with multihome */
	unsigned n_addrs;
	uint16_t port;
	struct sim_note notes[SIM_NOTES_MAX];
	unsigned n_notes;
	struct sctp_assoc_handshake hs; /* the one handshake scratch this side lends */
	bool hs_lent;
	/* Per peer address: PF or UNREACHABLE since its last AVAILABLE. */
	bool peer_down[SIM_ADDRS];
	/* The one block of paths this side lends: room for the peer's other addresses. */
	struct sctp_path paths_block[SIM_ADDRS - 1];
	bool paths_lent;
};

struct sim {
	struct sim_scenario sc;
	uint64_t now;
	struct sim_endside side[SIM_SIDES];
	struct sctp_assoc_ops ops;
	struct impair stage[SIM_SIDES]; /* stage[x] carries what side x sends */
	struct impair_ops stage_ops;
	struct impair_rng rng;	   /* tags and initial TSNs */
	struct impair_rng alt_rng; /* alt_loss_ppb, its own stream so the rest stays put */
	uint64_t watch_from;	   /* path milestones count from here (sim_path_result) */
	struct sim_result res;
	uint32_t free_top; /* free[0 .. free_top) are free pool indices */
	uint32_t free[SIM_POOL_SIZE];
	struct sim_pkt pool[SIM_POOL_SIZE];
	uint64_t impair_mem[SIM_SIDES][SIM_IMPAIR_MEM / 8];
};

/*
 * Set up both sides and stages for sc; nothing is sent yet. 0, or -EINVAL
 * (a profile or impairment the parts refuse, corruption asked for, or
 * stage storage too small) or -ENOMEM from an endpoint's key ring.
 */
int sim_init(struct sim *s, const struct sim_scenario *sc);
/* Release the endpoints. Packets still inside go back to the pool first. */
void sim_fini(struct sim *s);

/*
 * The client connects to the server at the current virtual time: to the
 * server's address 0, or with multihome to all its addresses (connectx,
 * primary address 0), from the client's address 0.
 */
int sim_connect(struct sim *s);
/* User SHUTDOWN on one side's association, at the current virtual time. */
int sim_shutdown(struct sim *s, enum sim_side from);

/*
 * One event at or before limit_ns: a due packet (client-to-server first
 * on a tie), else the timers of an association whose wake-up has come.
 * false when nothing is due by limit_ns; the clock then stays put.
 */
bool sim_step(struct sim *s, uint64_t limit_ns);
/* The earliest pending event, or SCTP_TIME_NEVER. */
uint64_t sim_next_event(const struct sim *s);

/* Free pool buffers, and packets inside both stages. */
uint32_t sim_pool_free(const struct sim *s);
uint32_t sim_in_flight(const struct sim *s);

/*
 * Run sc from start to end in s (its storage; s is set up and torn down
 * here): connect, wait for COMM_UP on both sides, optionally shut down from
 * sc->shutdown_from, wait for both to close, let the packets still in
 * flight arrive, then check that both associations are CLOSED, that each
 * side saw the notifications it should exactly once, and that every buffer
 * came back. Returns res->outcome.
 *
 * With multihome, between COMM_UP and the shutdown: wait until both sides
 * have every path confirmed (BAD_STATE if the black hole opens first); run
 * through the black hole; then until every side that failed over has
 * returned to its primary and every path is active again (BAD_STATE if the
 * time limit comes first). The path blocks must come back like the buffers
 * (LEAK).
 */
enum sim_outcome sim_run(struct sim *s, const struct sim_scenario *sc, struct sim_result *res);

/* "ok", "cant_start", ...; "unknown" out of range. */
const char *sim_outcome_name(enum sim_outcome o);

/*
 * The scenario in one line that replays it: profile, shutdown side and
 * the impairment in impair_parse() syntax with the seed. With multihome,
 * also "multihome=on", "blackhole=s0@FROM-TO" (side s or c, address index,
 * times with a unit as impair_parse() takes them: ns, us, ms, s) and
 * "altloss=P%" when set, before the impairment. Returns what snprintf()
 * returns.
 */
int sim_scenario_format(const struct sim_scenario *sc, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* SCTP_SIM_SIM_H */
