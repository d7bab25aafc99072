#!/usr/bin/env python3
"""Cycles by stage: where each end of dpsctp-perf --loopback spends its
cycles per packet, stage by stage (--stages: dataplane/dp_stage.h), for the
two workloads of docs/PERFORMANCE.md's goals: 64-byte messages one per send
and flush (--burst 1), and 1452-byte messages. Each run's figures are its
worker's TSC cycles in each stage over the packets that end received and
sent; the median of the runs is printed per stage, beside what the TSC
reads themselves add (overhead_per_packet), which the per-stage figures
include.

usage: run.py [--build DIR] [--repeats N] [--seconds T] [--out FILE] [--md FILE]
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import md_section  # noqa: E402  (bench/md_section.py)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EAL = ["--no-huge", "--no-pci", "--no-shconf", "-m", "2048", "--log-level", "lib.eal:error"]
WORKLOADS = [("64 B, one message per send and flush", ["-l", "64", "--burst", "1"]),
             ("1452 B", ["-l", "1452"])]
STAGES = ["rx_burst", "rx_copy", "l3", "crc", "parse", "lookup", "core", "deliver", "app",
          "rearm", "tx_build", "tx_burst", "timers", "requests", "rx_free", "other"]


def run_once(build, seconds, args):
    exe = os.path.join(build, "apps/dpsctp-perf/dpsctp-perf")
    lcores = "0-1" if (os.cpu_count() or 1) >= 2 else "0"
    argv = [exe, *EAL, "-l", lcores, "--", "--loopback", "-t", str(seconds), "--stages",
            "--json", *args]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=seconds * 10 + 60)
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-2000:])
        return None
    return json.loads(p.stdout)


def medians(docs):
    out = {"tsc_read_cycles": statistics.median(d["end"]["stages"]["tsc_read_cycles"]
                                                for d in docs)}
    for who in ("client", "server"):
        ends = [d["end"]["stages"][who] for d in docs]
        e = {"overhead_per_packet": statistics.median(x["overhead_per_packet"] for x in ends)}
        for s in STAGES:
            e[s] = statistics.median(x[s]["cycles_per_packet"] for x in ends)
        e["total"] = sum(e[s] for s in STAGES)
        out[who] = e
    out["messages_per_second"] = statistics.median(
        d["end"]["sum_received"]["messages_per_second"] for d in docs)
    return out


def table(results, stamp):
    lines = ["<!-- stages:begin (written by bench/stages/run.py) -->", "",
             "Measured %s; medians of %d runs of %.0f s (`python3 bench/stages/run.py --build "
             "build --md docs/PERFORMANCE.md`; JSON in bench/results/stages.json). Cycles a "
             "packet (received or sent by that end), TSC reads included:" %
             (stamp, results["repeats"], results["seconds"]), ""]
    heads = []
    for name, _ in WORKLOADS:
        heads += ["%s: sender" % name, "receiver"]
    lines.append("| stage | " + " | ".join(heads) + " |")
    lines.append("|---|" + "---:|" * len(heads))
    for s in STAGES + ["total", "overhead_per_packet"]:
        row = []
        for name, _ in WORKLOADS:
            m = results["workloads"][name]
            row += ["%.0f" % m["client"][s], "%.0f" % m["server"][s]]
        label = {"total": "**all stages**",
                 "overhead_per_packet": "of which TSC reads"}.get(s, "`%s`" % s)
        lines.append("| %s | %s |" % (label, " | ".join(row)))
    rates = ", ".join("%s %.2f M messages/s" % (name, results["workloads"][name]
                                               ["messages_per_second"] / 1e6)
                      for name, _ in WORKLOADS)
    lines += ["", "Goodput meanwhile (counting on): %s. One TSC read: %.1f cycles." %
              (rates, results["workloads"][WORKLOADS[0][0]]["tsc_read_cycles"]), "",
              "<!-- stages:end -->"]
    return "\n".join(lines)


def write_md(path, text):
    md_section.write_section(path, "stages", text, "Cycles by stage")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--out")
    ap.add_argument("--md")
    a = ap.parse_args()
    results = {"repeats": a.repeats, "seconds": a.seconds, "workloads": {}}
    runs = {name: [] for name, _ in WORKLOADS}
    for _ in range(a.repeats):  # interleaved: drift falls on both alike
        for name, args in WORKLOADS:
            doc = run_once(a.build, a.seconds, args)
            if doc is None:
                print("run.py: dpsctp-perf failed (%s)" % name, file=sys.stderr)
                return 1
            runs[name].append(doc)
    for name, _ in WORKLOADS:
        results["workloads"][name] = medians(runs[name])
    stamp = "%s on %s, %d cpus, %s" % (
        datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        platform.machine(), os.cpu_count() or 0, platform.release())
    results["measured"] = stamp
    text = json.dumps(results, indent=1)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    if a.md:
        write_md(a.md, table(results, stamp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
