#!/usr/bin/env python3
"""Print the micro-benchmark results in bench/results/*.json as Markdown
tables (the figures docs/PERFORMANCE.md quotes), with the machine they ran on.

  python3 bench/summarize.py [bench/results]
"""
import glob
import json
import os
import sys

# Counters worth a column: every cycle figure the benchmarks report.
def counter_columns(rows):
    seen = []
    for b in rows:
        for k in b:
            if "cycle" in k and k not in seen:
                seen.append(k)
    return seen


def fmt(v):
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)


def main(results_dir):
    files = sorted(glob.glob(os.path.join(results_dir, "*.json")))
    if not files:
        print(f"no results in {results_dir}; run ./dev.sh bench", file=sys.stderr)
        return 1
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        ctx = doc.get("context", {})
        print(f"### {os.path.basename(path)}\n")
        print(f"{ctx.get('host_name', '?')}: {ctx.get('num_cpus', '?')} CPUs at "
              f"{ctx.get('mhz_per_cpu', '?')} MHz, {ctx.get('date', '?')}, "
              f"library build {ctx.get('library_build_type', '?')}\n")
        benches = doc.get("benchmarks", [])
        # With repetitions, quote the median; otherwise the single run.
        rows = [b for b in benches if b.get("aggregate_name") == "median"]
        if not rows:
            rows = [b for b in benches if b.get("run_type", "iteration") == "iteration"]
        cols = counter_columns(rows)
        print("| benchmark | ns/op | " + " | ".join(cols) + " |")
        print("|---|---:|" + "---:|" * len(cols))
        for b in rows:
            ns = b.get("real_time", 0.0)
            unit = b.get("time_unit", "ns")
            ns *= {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}.get(unit, 1)
            cells = [fmt(b[c]) if c in b else "" for c in cols]
            name = b.get("run_name", b["name"])
            print(f"| {name} | {ns:.1f} | " + " | ".join(cells) + " |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "bench/results"))
