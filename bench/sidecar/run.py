#!/usr/bin/env python3
"""The sidecar against embedded mode, side by side in one run.

Embedded: `dpsctp-perf --loopback` with one lcore, which polls both ends (the
sender and a sink or echo peer) over a net_ring pair.

Sidecar: `dpsctpd --loopback-peer sink|echo` polls its own instance and the
same kind of peer over a net_ring pair on one lcore (core 0), and
`dpsctp-perf --sidecar` is the application on core 1, busy-polling its
rings. The data plane gets one core in both; the sidecar application has a
core of its own, as it does in any sidecar deployment (the embedded
application's work is inside its data-plane loop).

Scenarios (every figure the median of --repeats runs):
  msgs_64        64-byte messages one way: messages/s        goal >= 80 %
  goodput_1452   1452-byte messages one way: goodput         (one copy)
  echo_1452      1452-byte messages echoed back, the application
                 receives: goodput, one copy and zero copy    goal >= 90 % (zero copy)
  ping_64        64-byte ping-pong: one-way latency p50/p99   goal <= 1 us added at p50

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
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import md_section  # noqa: E402  (bench/md_section.py)

EAL = ["--no-huge", "--no-pci", "--no-shconf", "-m", "1024", "--log-level", "lib.eal:error"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_json(argv, timeout):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (argv[0], r.returncode, r.stderr[-400:]))
    return json.loads(r.stdout)


def get(doc, dotted):
    for k in dotted.split("."):
        doc = doc.get(k) if isinstance(doc, dict) else None
    return doc


class Daemon:
    """dpsctpd --loopback-peer on core 0, its socket private to this run."""

    def __init__(self, build, peer, zero_copy, tag):
        self.sock = "/tmp/dpsctpd-bench-%d-%s.sock" % (os.getpid(), tag)
        argv = ["taskset", "-c", "0", os.path.join(build, "apps/dpsctpd/dpsctpd"), *EAL,
                "-l", "0", "--file-prefix=ddb%d%s" % (os.getpid(), tag), "--",
                "--loopback-peer", peer, "--socket", self.sock]
        if zero_copy:
            argv.append("--zero-copy")
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True)
        end = time.time() + 20
        while not os.path.exists(self.sock):
            if time.time() > end or self.p.poll() is not None:
                self.stop()
                raise RuntimeError("dpsctpd did not start")
            time.sleep(0.05)

    def stop(self):
        if self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(15)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        if os.path.exists(self.sock):
            os.unlink(self.sock)


def embedded(build, args, seconds):
    perf = os.path.join(build, "apps/dpsctp-perf/dpsctp-perf")
    return run_json(["taskset", "-c", "0", perf, *EAL, "-l", "0", "--", "--loopback",
                     "-t", str(seconds), "--json", *args], seconds + 60)


def sidecar(build, daemon, args, seconds, zero_copy=False):
    perf = os.path.join(build, "apps/dpsctp-perf/dpsctp-perf")
    extra = ["--zero-copy"] if zero_copy else []
    return run_json(["taskset", "-c", "1", perf, "--sidecar", daemon.sock, *extra, "-c",
                     "10.255.0.2", "-t", str(seconds), "--json", *args], seconds + 60)


# name: (embedded args, sidecar peer, sidecar args, metric key, what)
SCENARIOS = [
    ("msgs_64", ["-l", "64"], "sink", ["-l", "64"],
     "end.sum_received.messages_per_second", "messages/s"),
    ("goodput_1452", ["-l", "1452"], "sink", ["-l", "1452"],
     "end.sum_received.bits_per_second", "bit/s"),
    ("echo_1452", ["-l", "1452", "--bidir"], "echo", ["-l", "1452"],
     "end.reverse.bits_per_second", "bit/s"),
    ("ping_64", ["-l", "64", "--ping"], "echo", ["-l", "64", "--ping"],
     "end.latency_us.p50", "us"),
]


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench/results/sidecar.json"))
    ap.add_argument("--md", default=None, help="rewrite the sidecar section of this file")
    a = ap.parse_args()
    if os.geteuid() != 0:
        print("run.py: needs root (DPDK)")
        return 77
    res = {"when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "machine": "%s, %d cpus, %s" % (platform.processor() or platform.machine(),
                                            os.cpu_count(), platform.release()),
           "commit": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                    stdout=subprocess.PIPE, text=True).stdout.strip(),
           "repeats": a.repeats, "seconds": a.seconds, "scenarios": {}}
    for name, eargs, peer, sargs, key, unit in SCENARIOS:
        modes = [("sidecar", False)]
        if name == "echo_1452":
            modes.append(("sidecar_zero_copy", True))
        row = {"unit": unit, "key": key, "runs": {}}
        for r in range(a.repeats):
            for mode, zc in [("embedded", False)] + modes:
                try:
                    if mode == "embedded":
                        doc = embedded(a.build, eargs, a.seconds)
                    else:
                        d = Daemon(a.build, peer, zc, "%s%d" % (name[:4], r))
                        try:
                            doc = sidecar(a.build, d, sargs, a.seconds, zc)
                        finally:
                            d.stop()
                    v = get(doc, key)
                    run = {"value": v,
                           "cycles_per_message": get(doc, "end.cycles_per_message.sender"),
                           "cycles_per_message_receiver":
                               get(doc, "end.cycles_per_message.receiver"),
                           "idle_fraction": get(doc, "end.idle_fraction.sender"),
                           "p99": get(doc, "end.latency_us.p99"),
                           "mode": get(doc, "start.mode")}
                except Exception as e:  # a failing run is recorded, the suite goes on
                    run = {"value": None, "error": str(e)}
                row["runs"].setdefault(mode, []).append(run)
                print("%-13s %-18s run %d: %s" % (name, mode, r + 1, run.get("value")),
                      flush=True)
        row["median"] = {m: median([x["value"] for x in runs]) for m, runs in row["runs"].items()}
        row["p99_median"] = {m: median([x.get("p99") for x in runs])
                             for m, runs in row["runs"].items()}
        res["scenarios"][name] = row
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)
    text = report(res)
    print(text)
    if a.md:
        write_md(a.md, text)
    return 0


def fmt(v, unit):
    if v is None:
        return "failed"
    if unit == "bit/s":
        return "%.2f Gbit/s" % (v / 1e9)
    if unit == "messages/s":
        return "%.2f M msg/s" % (v / 1e6)
    return "%.2f us" % v


def report(res):
    s = res["scenarios"]
    lines = ["<!-- sidecar:begin (written by bench/sidecar/run.py) -->", "",
             "Measured %s on %s, commit %s; medians of %d runs of %d s "
             "(`sudo python3 bench/sidecar/run.py --md docs/PERFORMANCE.md`)." %
             (res["when"], res["machine"], res["commit"], res["repeats"], res["seconds"]), "",
             "| scenario | embedded | sidecar (one copy) | sidecar (zero copy) | ratio | goal |",
             "|---|---|---|---|---|---|"]
    goals = {"msgs_64": ("sidecar", 0.80), "echo_1452": ("sidecar_zero_copy", 0.90)}
    for name, row in s.items():
        m, u = row["median"], row["unit"]
        e = m.get("embedded")
        cells = [fmt(e, u), fmt(m.get("sidecar"), u),
                 fmt(m["sidecar_zero_copy"], u) if "sidecar_zero_copy" in m else "—"]
        if name == "ping_64":
            sc = m.get("sidecar")
            added = None if sc is None or e is None else sc - e
            ratio = "added %s one way" % fmt(added, u)
            goal = "<= 1 us added at p50: %s" % (
                "met" if added is not None and added <= 1.0 else "missed")
            p99 = row["p99_median"]
            cells[0] += " (p99 %s)" % fmt(p99.get("embedded"), u)
            cells[1] += " (p99 %s)" % fmt(p99.get("sidecar"), u)
        else:
            best = goals.get(name, ("sidecar", None))
            v = m.get(best[0])
            r = None if v is None or not e else v / e
            ratio = "—" if r is None else "%.0f %%" % (100 * r)
            if best[1] is None:
                goal = "—"
            else:
                goal = ">= %.0f %% (%s): %s" % (100 * best[1], best[0].replace("_", " "),
                                                "met" if r is not None and r >= best[1]
                                                else "missed")
        lines.append("| %s | %s | %s | %s |" % (name, " | ".join(cells), ratio, goal))
    lines += ["", "<!-- sidecar:end -->"]
    return "\n".join(lines)


def write_md(path, text):
    md_section.write_section(path, "sidecar", text, "Sidecar against embedded mode")


if __name__ == "__main__":
    sys.exit(main())
