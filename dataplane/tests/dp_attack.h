/* SPDX-License-Identifier: BSD-3-Clause */
// The attacks of docs/SECURITY.md ("Attacks, with figures"), shared by the
// test that asserts each achieves nothing (dp_attack_test.cc) and the
// benchmark that prices them (bench/attack_bench.cc).
//
// A bench (AttackBed) is two instances, a client (10.0.0.1/16) and a server
// (10.0.0.2/16, listening on port 5001), whose ports are net_ring devices
// joined by a tapped wire: each step moves what one sent into the other's
// receive ring and learns from it what an attacker on the path would (the
// verification tags, the client's latest TSN, the server's latest
// cumulative TSN ack, the client's COOKIE ECHO). Frames the server sends to
// any other address go to the attacker (AttackBed::to_attacker). The
// legitimate association carries checked messages from the client to the
// server: message k has ppid k, a length and bytes derived from k, and the
// server counts how often each arrived and whether its bytes were right.
//
// An attack (struct Attack) is a set-up (a raw handshake from 10.0.0.9, a
// captured cookie) and a function that crafts its i-th packet, written
// into the victim's receive ring from a pool of the attacker's own, so that
// the victim's pool shows only what the victim holds.
//
// With a server option --init-queue (flow or external), the server's port
// has a second receive ring for handshakes, and the wire and the attacker
// play the NIC whose rte_flow rule fills it: a frame whose SCTP tag is 0
// goes there, everything else to the first (AttackBed::server_rx()).
#ifndef DPSCTP_DATAPLANE_TESTS_DP_ATTACK_H
#define DPSCTP_DATAPLANE_TESTS_DP_ATTACK_H

#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "dataplane/config.h"
#include "dataplane/dpsctp.h"
}

namespace dp_attack {

using Bytes = std::vector<uint8_t>;
using Opts = std::vector<std::pair<std::string, std::string>>;

constexpr uint16_t kServerPort = 5001;
constexpr uint16_t kRawPort = 40009; // the raw peer's SCTP port

// Message k of the legitimate traffic: its length and its i-th byte.
uint32_t msg_len(uint32_t k);
uint8_t msg_byte(uint32_t k, uint32_t i);

// Frame building: an SCTP common header, a chunk appended (padded), an
// Ethernet + IPv4 frame around an SCTP packet (CRC32c filled) or any
// other protocol's payload.
Bytes sctp_common(uint16_t sport, uint16_t dport, uint32_t vtag);
void sctp_chunk(Bytes &p, uint8_t type, uint8_t flags, const Bytes &value);
Bytes ipv4_frame(const uint8_t dst_mac[6], const uint8_t src_mac[6], const uint8_t src[4],
		 const uint8_t dst[4], uint8_t proto, const Bytes &payload);
Bytes sctp_frame(const uint8_t dst_mac[6], const uint8_t src_mac[6], const uint8_t src[4],
		 const uint8_t dst[4], Bytes sctp);
void put32(uint8_t *p, uint32_t v);
uint32_t get32(const uint8_t *p);

class AttackBed;

// An ICMP Destination Unreachable (code: 4 Fragmentation Needed with the
// next-hop mtu, 2 Protocol Unreachable) from an on-link router to the
// server, quoting a packet the server would send the client: tag vtag, its
// first chunk DATA with TSN tsn (data) or a SACK.
Bytes icmp_to_server(const AttackBed &b, uint8_t code, uint16_t mtu, uint32_t vtag, bool data,
		     uint32_t tsn);

struct Attack {
	const char *name;
	const char *tries;   // what it tries, for the report
	bool victim_client;  // whose receive ring it writes: the client's, else the server's
	Opts client, server; // options the bench needs for it
	// Set-up after the legitimate association is up; false: it could not.
	std::function<bool(AttackBed &)> setup;
	// The i-th attack frame.
	std::function<Bytes(AttackBed &, unsigned i)> frame;
};

// Every attack, in the order of the table in docs/SECURITY.md.
const std::vector<Attack> &attacks();
const Attack *find_attack(const std::string &name);

// The server's view of one association.
struct ServerAssoc {
	dpsctp_assoc *a = nullptr;
	bool up = false, ended = false;
	uint64_t msgs = 0, bytes = 0;
	uint64_t mtu_events = 0; // DPSCTP_EV_PATH_MTU
};

class AttackBed {
      public:
	AttackBed() = default;
	AttackBed(const AttackBed &) = delete;
	AttackBed &operator=(const AttackBed &) = delete;
	~AttackBed();

	// Both instances with the options (name, value), the attacker's pool;
	// "" on success, else what failed.
	std::string open(const std::string &tag, const Opts &client, const Opts &server);
	// The legitimate association, up on both sides; false after max steps.
	bool connect(uint64_t max_steps = 20000000);
	// Stop both instances and empty every ring (their pools' mbufs back).
	void stop();
	// stop(), then destroy everything (idempotent).
	void close();

	// One round: the wire both ways, then each instance polled once (the
	// victim's poll timed in victim_cycles).
	void step();
	// Queue legitimate messages while the client's send buffer takes them,
	// up to `total` messages in all.
	void pump(uint64_t total);
	// One frame into the victim's (or the client's) receive ring, from the
	// attacker's pool; false when the ring or the pool is full.
	bool inject(const Bytes &f, bool to_client = false);
	// The n-th frame of the attack into its victim; false as inject().
	bool inject_attack(const Attack &at, unsigned i);

	// A worker-0 counter by name (UINT64_MAX when none).
	static uint64_t counter(const dpsctp *d, const std::string &name);
	static std::map<std::string, uint64_t> counters(const dpsctp *d);
	// mbufs of d's pool not in it.
	static unsigned in_use(const dpsctp *d);

	// The raw peer (10.0.0.9:kRawPort): sends an INIT with initiate tag
	// raw_tag and window a_rwnd and waits for the INIT ACK (its cookie in
	// raw_cookie); with echo, then the COOKIE ECHO and waits for the
	// COOKIE ACK. false when an answer did not come.
	bool raw_handshake(bool echo, uint32_t a_rwnd = 65536);
	// A frame from the raw peer to the server carrying the SCTP packet.
	Bytes raw_frame(Bytes sctp) const;
	// The raw peer answers every DATA chunk the server sends it with a SACK
	// of window raw_rwnd (raw_auto_sack); the SACKs it would send.
	void raw_receive();

	dpsctp *c = nullptr, *s = nullptr;
	dpsctp_assoc *ca = nullptr; // the client's end of the legitimate association
	bool client_up = false, client_lost = false;
	std::vector<ServerAssoc> sa; // the server's associations, [0] the legitimate one
	uint8_t c_mac[6] = {}, s_mac[6] = {};

	// Legitimate traffic.
	uint64_t sent = 0;		    // messages the client's send took
	std::vector<uint8_t> got;	    // times message k arrived (saturating)
	uint64_t received = 0, bad = 0;	    // messages delivered; with wrong bytes, ppid or flags
	uint64_t received_bytes = 0;	    // their payload bytes
	uint64_t msg_limit = 1u << 20;	    // got[] has this many entries
	uint64_t wire_dropped = 0;	    // legitimate frames the victim's full ring refused
	uint64_t victim_cycles = 0;	    // TSC cycles spent in the victim's dpsctp_poll()
	bool victim_is_client = false;	    // which instance victim_cycles times
	bool hold_s2c = false;		    // step() leaves the server's frames on its wire
	uint64_t injected = 0, refused = 0; // attack frames taken and refused by the ring
	uint64_t forged_gap_blocks = 0, forged_dup_tsns = 0; // in the forged SACKs
	uint64_t hostile_sent_bytes = 0; // the server's sends to the raw peer taken
	int hostile_send_rc = 0;	 // what the first refused one returned

	// What the tap learnt.
	uint32_t tag_s = 0;	       // the server's tag: on the client's packets
	uint32_t tag_c = 0;	       // the client's tag: on the server's packets
	uint16_t c_port = 0;	       // the client's SCTP port
	uint32_t c_hi_tsn = 0;	       // the highest TSN of the client's DATA
	uint32_t s_sack_cum = 0;       // the server's latest cumulative TSN ack
	bool have_sack = false;	       // s_sack_cum is valid
	Bytes client_cookie_echo;      // the client's COOKIE ECHO frame, as sent
	std::deque<Bytes> to_attacker; // the server's frames to other addresses

	// The raw peer.
	uint32_t raw_tag = 0x5eed0009; // its Initiate Tag
	uint32_t raw_peer_tag = 0;     // the server's tag for it (the INIT ACK's Initiate Tag)
	uint32_t raw_peer_tsn = 0;     // the server's initial TSN for it
	Bytes raw_cookie;	       // the State Cookie of the INIT ACK
	uint32_t raw_hi_tsn = 0;       // the highest TSN the server sent it
	bool raw_seen_data = false;    // raw_hi_tsn is valid
	uint32_t raw_rwnd = 0;	       // the window of its SACKs
	bool raw_auto_sack = false;    // raw_receive() answers DATA
	uint64_t raw_sacks = 0;	       // SACKs it sent
	uint64_t raw_abort_seen = 0;   // ABORTs the server sent it
	uint64_t raw_stale_errors = 0; // ERRORs (Stale Cookie) the server sent it
	uint64_t raw_cookie_acks = 0;  // COOKIE ACKs the server sent it
	rte_mempool *apool = nullptr;  // the attacker's mbufs
	rte_ring *c_tx = nullptr, *c_rx = nullptr, *s_tx = nullptr, *s_rx = nullptr;
	// With the server's --init-queue: its rx queue 1 (and an idle tx queue 1).
	rte_ring *s_rx_init = nullptr, *s_tx_idle = nullptr;
	// The server's receive ring a frame goes to: the NIC's rule of
	// --init-queue (SCTP tag 0 to s_rx_init) when the server has one.
	rte_ring *server_rx(const uint8_t *f, size_t n) const;

      private:
	void tap_c2s(const uint8_t *f, size_t n);
	bool tap_s2c(const uint8_t *f, size_t n); // false: not for the client
	void wire(rte_ring *from, rte_ring *to, bool c2s);
	int cport_id = -1, sport_id = -1;
	std::string tag_;
};

// The receive and event callbacks of both sides (arg: the AttackBed).
extern const dpsctp_callbacks kClientCb, kServerCb;

} // namespace dp_attack

#endif /* DPSCTP_DATAPLANE_TESTS_DP_ATTACK_H */
