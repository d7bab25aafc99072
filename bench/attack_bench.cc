// SPDX-License-Identifier: BSD-3-Clause
// What each attack of dataplane/tests/dp_attack.h costs its victim and what
// it does to the legitimate traffic: one JSON record per attack (one line
// each, or an array in --json FILE). docs/SECURITY.md ("Attacks, with
// figures") has the table.
//
//   attack_bench [EAL options] -- [--seconds S] [--only NAME] [--lcore] [--json FILE]
//
// Per attack, on a fresh bench (client and server polled by the main lcore):
//   1. goodput without the attack: the client sends checked messages as
//      fast as its send buffer takes them for S seconds (default 1);
//   2. goodput with it: the same, while attack packets go into the victim's
//      receive ring. The INIT flood's come from an attacker thread on the
//      second lcore writing as fast as it can (its frames made beforehand,
//      4,000 sources; attacker_offered_per_s is what it tried, per
//      wall-clock second, attack_packets_per_s what the ring took); with
//      --init-queue (init_flood_queue) they go, as the NIC's rule would send
//      them, to the server's queue for handshakes, and the cost per packet
//      is measured once the association has been quiet for 150 ms (such a
//      queue is read in full only then); every other attack's from the main lcore, up to 32
//      per round while the victim's ring holds fewer than 256 (with
//      --lcore, from the attacker lcore too, records named NAME_lcore: 4,000
//      frames made beforehand, so only attacks whose frames stay valid
//      mean much). The ratio of the two is the attack's effect. Seconds are
//      CPU seconds of the polling thread;
//   3. cost per attack packet: bursts of 32 (the forged SACKs: 1) written
//      into an idle victim's ring and the TSC read around the victim's
//      dpsctp_poll() until the ring is empty; the forged SACKs go to a
//      client with a full window outstanding (the server's SACKs held back),
//      so that their gap blocks are valid. Then the associations and the
//      victim's mbufs in use, per attack packet (state left behind).
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include <rte_ring.h>

#include <atomic>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "dataplane/tests/dp_attack.h"

using namespace dp_attack;

namespace {

struct Flood {
	AttackBed *bed;
	std::vector<Bytes> frames;
	std::atomic<bool> stop{ false };
	bool spin_only = false; // the control: the second lcore busy, writing nothing
	uint64_t sent = 0, full = 0;
	uint64_t offered = 0; // frames it tried to write: the ring took `sent`
};

// The attacker lcore: INITs into the server's ring as fast as it takes them.
int
flood_main(void *arg)
{
	Flood *f = static_cast<Flood *>(arg);
	rte_mbuf *m[32];
	size_t next = 0;
	if (f->spin_only) {
		while (!f->stop.load(std::memory_order_relaxed))
			rte_pause();
		return 0;
	}
	// The NIC's steering (AttackBed::server_rx()): every frame is an INIT.
	rte_ring *to = f->bed->server_rx(f->frames[0].data(), f->frames[0].size());
	while (!f->stop.load(std::memory_order_relaxed)) {
		if (rte_pktmbuf_alloc_bulk(f->bed->apool, m, 32) != 0) {
			f->full++;
			continue;
		}
		for (int i = 0; i < 32; i++) {
			const Bytes &b = f->frames[next++ % f->frames.size()];
			memcpy(rte_pktmbuf_append(m[i], (uint16_t)b.size()), b.data(), b.size());
		}
		unsigned n = rte_ring_enqueue_burst(to, (void **)m, 32, nullptr);
		f->offered += 32;
		f->sent += n;
		if (n < 32) {
			f->full++;
			rte_pktmbuf_free_bulk(m + n, 32 - n);
		}
	}
	return 0;
}

// CPU seconds of the calling thread: the machine is shared, and a second
// in which another process ran ours says nothing about the data plane.
double
cpu_secs()
{
	timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct Goodput {
	double secs = 0;
	uint64_t msgs = 0, bytes = 0, attack = 0, steps = 0;
	uint64_t offered = 0; // the attacker lcore's tries (attack: what got in)
	double wall = 0;      // wall-clock seconds (the attacker lcore's time)
};

// The server's ring the attacks write: with --init-queue (the INIT
// floods' only), the queue for handshakes.
rte_ring *
attack_ring(const AttackBed &b)
{
	return b.s_rx_init != nullptr ? b.s_rx_init : b.s_rx;
}

// Legitimate traffic for secs seconds; the attack's packets too when `at`:
// from the flood lcore, or from this one, up to 32 a round while the
// victim's ring holds fewer than kPaceRoom (the rate the victim absorbs).
constexpr unsigned kPaceRoom = 256;

Goodput
traffic(AttackBed &b, double secs, const Attack *at, Flood *flood, unsigned *next)
{
	Goodput g;
	uint64_t m0 = b.received, b0 = b.received_bytes, a0 = b.injected;
	rte_ring *rx = at != nullptr && at->victim_client ? b.c_rx : attack_ring(b);
	if (flood != nullptr) {
		flood->stop = false;
		flood->sent = 0;
		flood->offered = 0;
		if (rte_eal_remote_launch(flood_main, flood, rte_get_next_lcore(-1, 1, 0)) != 0)
			fprintf(stderr, "attack_bench: no second lcore for the flood\n");
	}
	const double t0 = cpu_secs();
	const auto w0 = std::chrono::steady_clock::now();
	while (cpu_secs() - t0 < secs) {
		for (int k = 0;
		     at != nullptr && flood == nullptr && k < 32 && rte_ring_count(rx) < kPaceRoom;
		     k++)
			if (!b.inject_attack(*at, (*next)++))
				break;
		b.pump(UINT64_MAX);
		b.step();
		g.steps++;
	}
	g.secs = cpu_secs() - t0;
	g.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
	if (flood != nullptr) {
		flood->stop = true;
		rte_eal_mp_wait_lcore();
		g.attack = flood->sent;
		g.offered = flood->offered;
	} else {
		g.attack = b.injected - a0;
	}
	g.msgs = b.received - m0;
	g.bytes = b.received_bytes - b0;
	return g;
}

void
add(Goodput &sum, const Goodput &g)
{
	sum.secs += g.secs;
	sum.msgs += g.msgs;
	sum.bytes += g.bytes;
	sum.attack += g.attack;
	sum.steps += g.steps;
	sum.offered += g.offered;
	sum.wall += g.wall;
}

void
poll_victim(AttackBed &b, dpsctp *v)
{
	uint64_t t0 = rte_rdtsc();
	dpsctp_poll(v, 0);
	b.victim_cycles += rte_rdtsc() - t0;
}

// Frees what the instance sent, unread (the forged SACKs' measurement).
void
discard(rte_ring *r)
{
	void *m;
	while (rte_ring_dequeue(r, &m) == 0)
		rte_pktmbuf_free((rte_mbuf *)m);
}

std::string
run(const Attack &at, double secs, unsigned serial, bool threaded)
{
	AttackBed b;
	b.msg_limit = 1u << 24;
	std::string err = b.open("b" + std::to_string(serial), at.client, at.server);
	if (err.empty() && !b.connect())
		err = "no association";
	if (err.empty() && at.setup && !at.setup(b))
		err = "set-up failed";
	if (!err.empty())
		return std::string("{\"attack\": \"") + at.name + "\", \"error\": \"" + err + "\"}";
	dpsctp *victim = at.victim_client ? b.c : b.s;
	b.victim_is_client = at.victim_client;

	// First the cost of each packet on its own, after traffic that
	// opened the congestion window.
	unsigned warm = 0;
	(void)traffic(b, secs / 5, nullptr, nullptr, &warm);
	for (int k = 0; k < 2000; k++)
		b.step();
	if (at.victim_client) {
		// A full window outstanding: the client sends, the server's SACKs wait.
		b.hold_s2c = true;
		for (int k = 0; k < 200; k++) {
			b.pump(UINT64_MAX);
			b.step();
		}
	}
	if (b.s_rx_init != nullptr) {
		// The queue for handshakes is read in full only once the
		// association has been quiet for 100 ms (DP_ASSOC_TRAFFIC_NS):
		// what follows prices an INIT read, not the wait for one.
		const auto q0 = std::chrono::steady_clock::now();
		while (std::chrono::steady_clock::now() - q0 < std::chrono::milliseconds(150))
			b.step();
	}
	unsigned assocs0 = dpsctp_assoc_count(victim), use0 = AttackBed::in_use(victim);
	uint64_t gaps1 = b.forged_gap_blocks;
	unsigned n = 0, burst = at.victim_client ? 1 : 32, target = at.victim_client ? 2000 : 20000;
	rte_ring *rx = at.victim_client ? b.c_rx : attack_ring(b);
	std::vector<double> per_packet; // each burst's victim cycles per packet
	for (unsigned i = 0; n < target; i++) {
		unsigned got = 0;
		for (unsigned k = 0; k < burst; k++)
			got += b.inject_attack(at, 1000000 + i * burst + k);
		uint64_t c0 = b.victim_cycles;
		while (rte_ring_count(rx) > 0)
			poll_victim(b, victim);
		if (got > 0)
			per_packet.push_back((double)(b.victim_cycles - c0) / got);
		n += got;
		if (at.victim_client)
			discard(b.c_tx);
		else if (i % 8 == 7)
			b.step(); // the victim's answers leave
	}
	// The median burst: a burst during which the thread lost its core to
	// another process would count that process's time.
	std::sort(per_packet.begin(), per_packet.end());
	double cycles = per_packet.empty() ? 0.0 : per_packet[per_packet.size() / 2];
	double gaps_measured = at.victim_client ? (double)(b.forged_gap_blocks - gaps1) / n : 0.0;
	b.hold_s2c = false;
	for (int k = 0; k < 2000; k++)
		b.step();
	int assocs_left = (int)dpsctp_assoc_count(victim) - (int)assocs0;
	int mbufs_left = (int)AttackBed::in_use(victim) - (int)use0;

	// Then goodput without and with the attack.
	Flood flood;
	flood.bed = &b;
	if (threaded)
		for (unsigned i = 0; i < 4000; i++)
			flood.frames.push_back(at.frame(b, i));
	// Five rounds of each, alternated: a machine whose load changes during
	// the run changes both alike.
	Goodput without, with, busy;
	uint64_t dropped0 = b.wire_dropped, gaps0 = b.forged_gap_blocks, inj0 = b.injected;
	unsigned next = 0;
	// From the attacker lcore, a control too: that lcore busy writing
	// nothing. On a VM whose two vCPUs share a core (hyperthreads), any
	// busy sibling slows the victim's; the attack's own effect is the
	// ratio to that.
	Flood spinner;
	spinner.bed = &b;
	spinner.spin_only = true;
	for (int r = 0; r < 5; r++) {
		add(without, traffic(b, secs / 5, nullptr, nullptr, &next));
		add(with, traffic(b, secs / 5, &at, threaded ? &flood : nullptr, &next));
		if (threaded)
			add(busy, traffic(b, secs / 5, nullptr, &spinner, &next));
	}
	uint64_t forged = b.injected - inj0;
	double gaps_per_sack =
		forged > 0 ? (double)(b.forged_gap_blocks - gaps0) / (double)forged : 0.0;
	// Legitimate frames the victim's full ring refused (both phases).
	uint64_t wire_dropped = b.wire_dropped - dropped0;
	bool established = b.client_up && !b.client_lost && !b.sa.empty() && !b.sa[0].ended;

	double hz = (double)rte_get_tsc_hz();
	bool init = std::string(at.name).rfind("init_flood", 0) == 0;
	const char *suffix = threaded && !init ? "_lcore" : !threaded && init ? "_paced" : "";

	char out[2048];
	snprintf(out, sizeof(out),
		 "{\"attack\": \"%s%s\", \"victim\": \"%s\", "
		 "\"attack_packets\": %lu, \"attack_packets_per_s\": %.0f, "
		 "\"victim_cycles_per_packet\": %.0f, \"victim_packets_per_s_max\": %.0f, "
		 "\"goodput_msgs_per_s_without\": %.0f, \"goodput_bytes_per_s_without\": %.0f, "
		 "\"goodput_msgs_per_s_with\": %.0f, \"goodput_bytes_per_s_with\": %.0f, "
		 "\"goodput_ratio\": %.3f, \"legit_frames_dropped_ring_full\": %lu, "
		 "\"legit_established\": %s, \"legit_bad\": %lu, "
		 "\"assocs_per_packet\": %.6f, \"mbufs_in_use_per_packet\": %.6f, "
		 "\"cost_packets\": %u, \"gap_blocks_per_sack\": %.1f, "
		 "\"gap_blocks_per_sack_measured\": %.1f, \"attacker_lcore\": %s, "
		 "\"attacker_offered_per_s\": %.0f, \"goodput_msgs_per_s_busy_lcore\": %.0f, "
		 "\"goodput_ratio_to_busy_lcore\": %.3f}",
		 at.name, suffix, at.victim_client ? "client" : "server",
		 (unsigned long)with.attack, with.attack / with.secs, cycles, hz / cycles,
		 without.msgs / without.secs, without.bytes / without.secs, with.msgs / with.secs,
		 with.bytes / with.secs,
		 without.msgs > 0 ? (with.msgs / with.secs) / (without.msgs / without.secs) : 0.0,
		 (unsigned long)wire_dropped, established ? "true" : "false", (unsigned long)b.bad,
		 (double)assocs_left / n, (double)mbufs_left / n, n, gaps_per_sack, gaps_measured,
		 threaded ? "true" : "false", with.wall > 0 ? with.offered / with.wall : 0.0,
		 busy.secs > 0 ? busy.msgs / busy.secs : 0.0,
		 busy.msgs > 0 ? (with.msgs / with.secs) / (busy.msgs / busy.secs) : 0.0);
	return out;
}

} // namespace

int
main(int argc, char **argv)
{
	int used = dpsctp_eal_init(argc, argv);
	if (used < 0) {
		fprintf(stderr, "attack_bench: EAL did not start\n");
		return 1;
	}
	argc -= used;
	argv += used;
	double secs = 1.0;
	std::string only, json;
	bool all_lcore = false;
	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		if (a == "--seconds" && i + 1 < argc)
			secs = atof(argv[++i]);
		else if (a == "--only" && i + 1 < argc)
			only = argv[++i];
		else if (a == "--json" && i + 1 < argc)
			json = argv[++i];
		else if (a == "--lcore")
			all_lcore = true;
		else {
			fprintf(stderr, "usage: attack_bench [EAL] -- [--seconds S] [--only NAME] "
					"[--lcore] [--json FILE]\n");
			return 2;
		}
	}
	std::vector<std::string> recs;
	unsigned serial = 0;
	for (const Attack &at : attacks()) {
		if (!only.empty() && only != at.name)
			continue;
		// The INIT flood (with --lcore, every attack) twice: from the
		// attacker lcore as fast as it writes, then paced like the others.
		bool flood = std::string(at.name).rfind("init_flood", 0) == 0;
		bool lcore = (flood || all_lcore) && rte_lcore_count() > 1;
		for (int t = lcore ? 1 : 0; t >= 0; t--) {
			recs.push_back(run(at, secs, serial++, t == 1));
			printf("%s\n", recs.back().c_str());
			fflush(stdout);
		}
	}
	if (!json.empty()) {
		FILE *f = fopen(json.c_str(), "w");
		if (f == nullptr) {
			perror(json.c_str());
			return 1;
		}
		fprintf(f, "[\n");
		for (size_t i = 0; i < recs.size(); i++)
			fprintf(f, "  %s%s\n", recs[i].c_str(), i + 1 < recs.size() ? "," : "");
		fprintf(f, "]\n");
		fclose(f);
	}
	rte_eal_cleanup();
	return recs.empty() ? 2 : 0;
}
