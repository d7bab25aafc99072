// SPDX-License-Identifier: BSD-3-Clause
// Path MTU discovery in the pair simulation (sctp/sim/pmtu_run.h,
// docs/PMTU.md "Figures"): 400 messages of 64 KiB both ways over a path of
// 1500 bytes whose middle hop drops to 1280 1.5 s in; RFC profile, 25 ms
// one way. Figures in simulated time, so they are the protocol's, not this
// machine's (the wall time Google Benchmark reports is the simulator's):
//
//   recover_ms        from the drop to the first message queued after it
//                     delivered (client to server)
//   goodput_before    application bytes delivered both ways in the simulated
//   goodput_after     second before the drop, and in the second after the
//                     recovery (Mbit/s)
//   final_mtu         the client's path MTU at the end
//
//   BM_MtuDrop/icmp      the hop answers with ICMP Fragmentation Needed
//                        (PMTUD; PLPMTUD off)
//   BM_MtuDrop/plpmtud   the hop drops silently (PLPMTUD only)
#include <benchmark/benchmark.h>

#include "sctp/sim/pmtu_run.h"

namespace {

void
BM_MtuDrop(benchmark::State &state)
{
	bool icmp = state.range(0) != 0;
	pmtu_sim::Result r;
	for (auto _ : state) {
		pmtu_sim::Config c;
		c.plpmtud = !icmp;
		c.messages = 400;
		c.steps = { { SCTP_MS(1500), 1280, icmp } };
		pmtu_sim::Run run(c);
		r = run.go();
		benchmark::DoNotOptimize(r.t_done);
	}
	if (!r.ok || r.recover_ns[0] == 0) {
		state.SkipWithError(r.ok ? "the transfer ended before the drop" : r.why.c_str());
		return;
	}
	state.counters["recover_ms"] = (double)r.recover_ns[0] / 1e6;
	state.counters["goodput_before_mbit_s"] = (double)r.bytes_second_before * 8 / 1e6;
	state.counters["goodput_after_mbit_s"] = (double)r.bytes_second_after * 8 / 1e6;
	state.counters["final_mtu"] = r.final_mtu[0];
	state.counters["probes_lost"] = (double)r.counters[0].plpmtud_probes_lost;
	state.SetLabel(icmp ? "icmp" : "plpmtud");
}
BENCHMARK(BM_MtuDrop)
	->ArgName("icmp")
	->Arg(1)
	->Arg(0)
	->Iterations(1)
	->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
