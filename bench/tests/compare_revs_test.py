#!/usr/bin/env python3
"""bench/compare_revs.py's parsing and verdicts on fixed documents: no build,
no benchmark run, no timing (the comparison itself is run by hand:
./dev.sh bench-compare, docs/PERFORMANCE.md)."""
import sys
import unittest
from pathlib import Path

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import compare_revs as cr  # noqa: E402

# Shaped as Google Benchmark 1.7 writes them (--benchmark_format=json).
GBENCH = {
    "context": {"num_cpus": 2},
    "benchmarks": [
        {"name": "BM_RxData64/dc:0", "run_type": "iteration", "cpu_time": 79.5,
         "time_unit": "ns", "items_per_second": 12571035.6},
        {"name": "BM_RxData64/dc:0_median", "run_type": "aggregate", "cpu_time": 1.0,
         "time_unit": "ns", "items_per_second": 1.0},
        {"name": "BM_DpLoopback/64/min_time:1.000", "run_type": "iteration",
         "cpu_time": 52240.4, "time_unit": "ns", "msgs_per_s": 4900420.7},
        {"name": "BM_Plain", "run_type": "iteration", "cpu_time": 12.5, "time_unit": "us"},
        {"name": "BM_Broken", "run_type": "iteration", "error_occurred": True,
         "cpu_time": 0},
    ],
}

# The keys of dpsctp-perf --json that compare_revs reads (docs/PERF_TOOL.md).
PERF = {"start": {"test": {"message_bytes": 64}},
        "end": {"sum_received": {"messages_per_second": 182790, "bytes": 1},
                "cycles_per_message": {"sender": 6382.2, "receiver": None}}}


class Parse(unittest.TestCase):
    def test_gbench(self):
        got = cr.parse_gbench(GBENCH, "bench_x")
        self.assertEqual(got, {
            "bench_x/BM_RxData64/dc:0": (12571035.6, "items/s", True),
            "bench_x/BM_DpLoopback/64": (4900420.7, "msgs/s", True),
            "bench_x/BM_Plain": (12.5, "us", False),
        })

    def test_perf(self):
        got = cr.parse_perf(PERF, 64)
        self.assertEqual(got, {
            "perf_64/messages_per_second": (182790.0, "msgs/s", True),
            "perf_64/cycles_per_message_sender": (6382.2, "cycles", False),
        })


class Summary(unittest.TestCase):
    META = {"tput": ("msgs/s", True), "time": ("ns", False), "gone": ("ns", False)}

    def summary(self, a, b):
        return cr.summarize({"a": a, "b": b}, self.META)

    def test_medians_ratio_noise(self):
        s = self.summary({"tput": [100.0, 90.0, 110.0]}, {"tput": [104.0, 100.0, 102.0]})
        r = s["tput"]
        self.assertEqual((r["a"], r["b"]), (100.0, 102.0))
        self.assertAlmostEqual(r["ratio"], 1.02)
        self.assertAlmostEqual(r["noise"], 0.2)  # A: (110 - 90) / 100
        self.assertEqual(r["spread_a"], [90.0, 110.0])
        self.assertEqual(r["verdict"], "within noise")

    def test_faster_and_slower_follow_direction(self):
        a = {"tput": [100.0, 101.0, 100.5], "time": [10.0, 10.1, 10.05]}
        b = {"tput": [120.0, 121.0, 120.5], "time": [12.0, 12.1, 12.05]}
        s = self.summary(a, b)
        self.assertEqual(s["tput"]["verdict"], "faster")  # more messages per second
        self.assertEqual(s["time"]["verdict"], "slower")  # more time per iteration
        s = self.summary(b, a)
        self.assertEqual(s["tput"]["verdict"], "slower")
        self.assertEqual(s["time"]["verdict"], "faster")

    def test_missing_side(self):
        s = self.summary({"tput": [1.0], "gone": [3.0]}, {"tput": [1.0]})
        self.assertEqual(s["gone"]["verdict"], "missing")
        self.assertEqual(s["tput"]["verdict"], "within noise")
        self.assertEqual(list(s), ["tput", "time", "gone"])

    def test_table_has_a_line_per_metric(self):
        s = self.summary({"tput": [100.0], "time": [5.0]}, {"tput": [50.0], "time": [5.0]})
        lines = cr.table(s).splitlines()
        self.assertEqual(len(lines), 2 + 3)
        self.assertIn("slower", lines[2])
        self.assertIn("0.500", lines[2])
        self.assertIn("within noise", lines[3])
        self.assertIn("missing", lines[4])

    # A callgrind profile collected inside the function alone: its total
    # over the calls made to it (the call arcs name it by id after the first
    # mention, and several callers may call it).
    def test_callgrind_instructions_per_call(self):
        prof = "\n".join([
            "version: 1", "events: Ir",
            "fn=(1) main", "cfn=(2) sctp_assoc_input", "calls=300 0", "0 9000",
            "fn=(3) drain", "cfn=(2)", "calls=100 0", "0 3000",
            "fn=(2)", "0 12000",
            "totals: 12000", ""])
        self.assertEqual(cr.parse_callgrind(prof, "sctp_assoc_input"), 30.0)
        with self.assertRaises(ValueError):
            cr.parse_callgrind(prof, "sctp_assoc_send")
        with self.assertRaises(ValueError):
            cr.parse_callgrind("events: Ir\n", "sctp_assoc_input")


if __name__ == "__main__":
    unittest.main()
