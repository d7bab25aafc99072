// SPDX-License-Identifier: BSD-3-Clause
// The whole data plane, both ends, on one core: two instances over a
// net_ring pair polled by one thread (dataplane/, docs/LCORE.md). One
// association sends bursts of messages; the receiver counts them; the TSC
// is read around whole bursts, so a figure is everything both sides do per
// message: API send, the core's send and receive halves, SACKs, mbuf chains,
// CRC32c in software twice, L2/L3, the rings, delivery.
//
//   BM_DpLoopback/64         64-byte messages from bytes (packed, bundled)
//   BM_DpLoopback/1452       1452-byte messages from mbufs (zero copy, one DATA
//                            chunk per packet)
//   BM_DpLoopbackIData/64    the same with I-DATA (RFC 8260) negotiated
//   BM_DpLoopbackIData/1448  the largest message one I-DATA chunk carries at
//                            MTU 1500 (its header is 4 bytes longer than
//                            DATA's: 1452 bytes would take two packets)
//
// BM_DpLoopback pins the extensions to pr-sctp, so it measures the DATA
// path whatever the default set (I-DATA is on by default since it was
// wired in): the figure stays comparable with revisions before that.
//
// Counters: cycles_per_msg (both sides), msgs_per_s, Gbit_per_s (payload),
// at one core for both ends — so one end's share is about half. The
// per-core figures come from dpsctp-perf with one core a side.
#include <benchmark/benchmark.h>

#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include <cstring>
#include <string>
#include <vector>

#include "bench/tsc.h"

extern "C" {
#include "dataplane/config.h"
#include "dataplane/dpsctp.h"
}

namespace {

struct End {
	dpsctp *d = nullptr;
	dpsctp_assoc *a = nullptr;
	uint64_t recv = 0;
};

void
on_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	if (ev->type == DPSCTP_EV_COMM_UP)
		static_cast<End *>(arg)->a = a;
}

void
on_recv(dpsctp_assoc *, const dpsctp_msg *, void *arg)
{
	static_cast<End *>(arg)->recv++;
}

const dpsctp_callbacks kCb = { on_recv, on_event, nullptr };

// The EAL, once for every pair.
bool
eal()
{
	static int rc = [] {
		static const char *args[] = {
			"bench", "--no-huge",	"--no-pci",	 "--no-shconf",	  "-l", "0", "-m",
			"1024",	 "--log-level", "lib.eal:error", "--no-telemetry"
		};
		std::vector<char *> argv;
		for (const char *x : args)
			argv.push_back(const_cast<char *>(x));
		return dpsctp_eal_init((int)argv.size(), argv.data());
	}();
	return rc >= 0;
}

struct Pair {
	End c, s;
	bool ok = false;
	std::string why;
	// tag names the rings and ports; extensions is --extensions' value.
	Pair(const std::string &tag, const char *extensions)
	{
		if (!eal()) {
			why = "EAL did not start";
			return;
		}
		rte_ring *ab = rte_ring_create((tag + "_ab").c_str(), 4096, 0, 0);
		rte_ring *ba = rte_ring_create((tag + "_ba").c_str(), 4096, 0, 0);
		if (ab == nullptr || ba == nullptr ||
		    rte_eth_from_rings((tag + "_a").c_str(), &ba, 1, &ab, 1, 0) < 0 ||
		    rte_eth_from_rings((tag + "_b").c_str(), &ab, 1, &ba, 1, 0) < 0) {
			why = "net_ring pair";
			return;
		}
		char err[256];
		c.d = make(("ethdev:net_ring_" + tag + "_a").c_str(), "10.0.0.1/24", extensions,
			   err);
		s.d = make(("ethdev:net_ring_" + tag + "_b").c_str(), "10.0.0.2/24", extensions,
			   err);
		if (c.d == nullptr || s.d == nullptr) {
			why = err;
			return;
		}
		dpsctp_listen(s.d, 5001, &kCb, &s);
		sctp_addr peer = { 4, { 10, 0, 0, 2 } };
		int rc;
		dpsctp_connect(c.d, 0, &peer, 1, 5001, 0, &kCb, &c, &rc);
		for (int i = 0; i < 1000000 && (c.a == nullptr || s.a == nullptr); i++)
			poll();
		ok = c.a != nullptr && s.a != nullptr;
		if (!ok)
			why = "no association";
	}
	static dpsctp *make(const char *port, const char *ip, const char *extensions, char *err)
	{
		dpsctp_config cfg;
		dpsctp_config_defaults(&cfg);
		dpsctp_config_set(&cfg, "extensions", extensions, err, 256);
		dpsctp_config_set(&cfg, "port", port, err, 256);
		dpsctp_config_set(&cfg, "ip", ip, err, 256);
		dpsctp_config_set(&cfg, "max-assocs", "16", err, 256);
		dpsctp_config_set(&cfg, "sndbuf", "1m", err, 256);
		dpsctp_config_set(&cfg, "rcvbuf", "1m", err, 256);
		return dpsctp_create(&cfg, err, 256);
	}
	void poll()
	{
		dpsctp_poll(c.d, 0);
		dpsctp_poll(s.d, 0);
	}
};

// Made at first use, kept for the process.
Pair &
pair(bool idata)
{
	static Pair data("bench", "pr-sctp");
	if (!idata)
		return data;
	static Pair with_idata("benchi", "pr-sctp,i-data");
	return with_idata;
}

void
loopback(benchmark::State &state, Pair &p)
{
	if (!p.ok) {
		state.SkipWithError(p.why.c_str());
		return;
	}
	const uint32_t len = (uint32_t)state.range(0);
	const unsigned burst = len <= 512 ? 256 : 64;
	std::vector<uint8_t> bytes(len, 0x5a);
	rte_mempool *pool = dpsctp_pktmbuf_pool(p.c.d);
	uint64_t cycles = 0, msgs = 0;
	for (auto _ : state) {
		uint64_t want = p.s.recv + burst;
		uint64_t t0 = bench_tsc();
		unsigned sent = 0;
		while (p.s.recv < want) {
			while (sent < burst) {
				dpsctp_sndinfo si = { 0,
						      0,
						      sent + 1 < burst ? DPSCTP_SEND_MORE : 0u,
						      DPSCTP_PR_NONE,
						      0,
						      0 };
				int r;
				if (len > 512) {
					rte_mbuf *m = rte_pktmbuf_alloc(pool);
					if (m == nullptr)
						break;
					memcpy(rte_pktmbuf_append(m, (uint16_t)len), bytes.data(),
					       len);
					r = dpsctp_send(p.c.a, &si, m);
					if (r != 0)
						rte_pktmbuf_free(m);
				} else {
					r = dpsctp_send_bytes(p.c.a, &si, bytes.data(), len);
				}
				if (r != 0) {
					dpsctp_flush(p.c.a);
					break;
				}
				sent++;
			}
			p.poll();
		}
		cycles += bench_tsc() - t0;
		msgs += burst;
	}
	double cpm = (double)cycles / (double)msgs;
	state.counters["cycles_per_msg"] = cpm;
	state.counters["msgs_per_s"] =
		benchmark::Counter((double)msgs, benchmark::Counter::kIsRate);
	state.counters["Gbit_per_s"] =
		benchmark::Counter((double)msgs * len * 8 / 1e9, benchmark::Counter::kIsRate);
}

void
BM_DpLoopback(benchmark::State &state)
{
	loopback(state, pair(false));
}

void
BM_DpLoopbackIData(benchmark::State &state)
{
	Pair &p = pair(true);
	dpsctp_assoc_stats st;
	if (p.ok &&
	    (dpsctp_assoc_get_stats(p.c.a, &st) != 0 || (st.extensions & DPSCTP_EXT_I_DATA) == 0)) {
		state.SkipWithError("I-DATA not negotiated");
		return;
	}
	loopback(state, p);
}

BENCHMARK(BM_DpLoopback)->Arg(64)->Arg(1452)->MinTime(1.0);
BENCHMARK(BM_DpLoopbackIData)->Arg(64)->Arg(1448)->MinTime(1.0);

} // namespace

BENCHMARK_MAIN();
