#!/usr/bin/env python3
"""Workers and ports: the embedded data plane with one and two workers, side by
side in one run (docs/PERFORMANCE.md, "Workers and ports: scaling").

Every figure comes from dpsctp-scale (bench/scale/dp_scale.c): each worker's
thread times its own loop with the TSC and counts its own messages, so a
worker's cycles per message is its own, whatever the other threads do.

Scenarios, per message size (64 and 1452 bytes), repeats interleaved so that
drift of the machine falls on every scenario alike:
  one_worker      one process, two instances over a net_ring pair, one worker
                  each, one thread polling both ends (core 0)
  two_workers     the same with two workers an instance (two queue pairs,
                  queue q to queue q), thread w polls worker w of both ends
                  and owns its own associations (cores 0 and 1)
  two_instances   two threads as above, each with an instance pair of its own
                  in one process: what the threads share is the process
  two_processes   two one_worker processes at once (cores 0 and 1): nothing
                  shared but the machine, the control for the two above
  peer_1          one worker against a peer process over net_memif: server
                  on core 0, client on core 1
  peer_2          two workers each side over a two-queue net_memif: four
                  busy threads on two cores (the scheduler's figure)

In the loopback scenarios a worker's cycles per message carry both ends of its
associations (sender and receiver); peer_* report the receiver's (the server's
busy cycles) and the sender's apart.

usage: run.py [--build DIR] [--repeats N] [--seconds T] [--sizes 64,1452]
              [--out FILE] [--md FILE] [--quick]
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

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EAL = ["--no-huge", "--no-pci", "--no-shconf", "-m", "1024", "--log-level", "lib.eal:error"]
# A worker's cost: its cycles per message without the iterations in which it
# was descheduled (the host's, not the data plane's).
CPM = "cycles_per_message_unstalled"
SCENARIOS = ["one_worker", "two_workers", "two_instances", "two_processes", "peer_1", "peer_2"]


class Run:
    def __init__(self, build, seconds, omit):
        self.exe = os.path.join(build, "bench/scale/dpsctp-scale")
        self.seconds, self.omit = seconds, omit
        self.n = 0

    def start(self, cores, args):
        self.n += 1
        argv = ["taskset", "-c", cores, self.exe, *EAL, "-l", cores,
                "--file-prefix=scale%d_%d" % (os.getpid(), self.n), "--",
                "-t", str(self.seconds), "--omit", str(self.omit), *args]
        return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def finish(self, p, timeout=60):
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            raise RuntimeError("dpsctp-scale timed out: %s" % err[-300:])
        if p.returncode != 0:
            raise RuntimeError("dpsctp-scale exited %d: %s" % (p.returncode, err[-300:]))
        return json.loads(out)

    def loopback(self, cores, workers, size, split=False):
        args = ["--workers", str(workers), "-l", str(size)]
        if split:
            args += ["--split", "yes"]
        return [self.finish(self.start(cores, args))]

    def two_processes(self, size):
        ps = [self.start(c, ["--workers", "1", "-l", str(size)]) for c in ("0", "1")]
        return [self.finish(p) for p in ps]

    def peer(self, workers, size):
        sock = "/tmp/dpsctp-scale-%d-%d.memif" % (os.getpid(), self.n)
        if os.path.exists(sock):
            os.unlink(sock)
        port = "net_memif0,socket=%s,socket-abstract=no,id=0" % sock
        sc, cc = ("0", "1") if workers == 1 else ("0-1", "0-1")
        srv = self.start(sc, ["--role", "server", "--workers", str(workers), "-l", str(size),
                              "--port", port + ",role=server", "--ip", "10.0.0.2/24", "-t",
                              str(self.seconds + self.omit + 20)])
        try:
            # The server listens once it says so on stderr (after its port is up).
            head = []
            for line in srv.stderr:
                head.append(line)
                if "listening" in line:
                    break
            else:
                raise RuntimeError("the server did not start: %s" % "".join(head)[-300:])
            cli = self.start(cc, ["--role", "client", "--workers", str(workers), "-l",
                                  str(size), "--port",
                                  port + ",role=client,mac=02:00:00:00:00:02",
                                  "--ip", "10.0.0.1/24", "--peer", "10.0.0.2"])
            c = self.finish(cli)
            s = self.finish(srv)
        finally:
            if srv.poll() is None:
                srv.kill()
                srv.wait()
            if os.path.exists(sock):
                os.unlink(sock)
        return [s, c]


def run_one(r, scn, size):
    if scn == "one_worker":
        return r.loopback("0", 1, size)
    if scn == "two_workers":
        return r.loopback("0-1", 2, size)
    if scn == "two_instances":
        return r.loopback("0-1", 2, size, split=True)
    if scn == "two_processes":
        return r.two_processes(size)
    return r.peer(1 if scn == "peer_1" else 2, size)


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def summarize(runs):
    """Medians over the runs of a scenario: total messages/s (the receivers'),
    cycles per message of each worker, the stalled share of its cycles, and
    the frames handed between workers (0 when the data path stayed put)."""
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return {"messages_per_second": None, "errors": [r["error"] for r in runs]}
    out = {}
    recv = lambda docs: [d for d in docs if d["role"] != "client"]  # noqa: E731
    out["messages_per_second"] = median(
        [sum(d["total_messages_per_second"] for d in recv(r["docs"])) for r in ok])
    for role in ("receiver", "sender"):
        cpm, cpm_u, stall = [], [], []
        for r in ok:
            docs = [d for d in r["docs"] if (d["role"] == "client") == (role == "sender")]
            if role == "sender" and not docs:
                continue
            ws = [w for d in docs for w in d["per_worker"]]
            cpm.append([w["cycles_per_message"] for w in ws])
            cpm_u.append([w["cycles_per_message_unstalled"] for w in ws])
            stall.append([w["stalled_cycles"] / w["cycles"] if w["cycles"] else 0 for w in ws])
        if not cpm:
            continue
        key = "" if role == "receiver" else "_sender"
        out["cycles_per_message" + key] = [median(c) for c in zip(*cpm)]
        out["cycles_per_message_unstalled" + key] = [median(c) for c in zip(*cpm_u)]
        out["stalled_fraction" + key] = [round(median(c), 4) for c in zip(*stall)]
    out["rx_handoff"] = max(w["rx_handoff_in"] + w["rx_handoff_out"]
                            for r in ok for d in r["docs"] for w in d["per_worker"])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2)
    ap.add_argument("--omit", type=float, default=1.0,
                    help="not measured at the start: both processes of two_processes are "
                         "up by then")
    ap.add_argument("--sizes", default="64,1452")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench/results/scale.json"))
    ap.add_argument("--md", default=None, help="rewrite the scaling table of this file")
    ap.add_argument("--quick", action="store_true",
                    help="one short run of each scenario at 64 bytes (the smoke test)")
    a = ap.parse_args()
    if a.quick:
        a.repeats, a.seconds, a.omit, a.sizes = 1, 0.3, 0.3, "64"
    if os.geteuid() != 0:
        print("run.py: needs root (DPDK)")
        return 77
    r = Run(a.build, a.seconds, a.omit)
    res = {"when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "machine": "%s, %d cpus, %s" % (platform.processor() or platform.machine(),
                                            os.cpu_count(), platform.release()),
           "commit": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                    stdout=subprocess.PIPE, text=True).stdout.strip(),
           "repeats": a.repeats, "seconds": a.seconds, "omit": a.omit, "sizes": {}}
    sizes = [int(x) for x in a.sizes.split(",")]
    for size in sizes:
        res["sizes"][str(size)] = {"runs": {s: [] for s in SCENARIOS}}
    for rep in range(a.repeats):
        for size in sizes:
            for scn in SCENARIOS:
                try:
                    run = {"docs": run_one(r, scn, size)}
                except Exception as e:  # recorded; the benchmark goes on
                    run = {"error": str(e)}
                res["sizes"][str(size)]["runs"][scn].append(run)
                print("%5d B %-14s run %d: %s" % (
                    size, scn, rep + 1, run.get("error") or "%.0f msg/s" % sum(
                        d["total_messages_per_second"] for d in run["docs"]
                        if d["role"] != "client")), file=sys.stderr, flush=True)
    for size in sizes:
        row = res["sizes"][str(size)]
        row["summary"] = {s: summarize(row["runs"][s]) for s in SCENARIOS}
        sm = row["summary"]

        def ratio(x, y, key="messages_per_second"):
            a_, b_ = sm[x].get(key), sm[y].get(key)
            if isinstance(a_, list):
                a_, b_ = (statistics.mean(a_) if a_ else None), (statistics.mean(b_) if b_
                                                                 else None)
            return None if a_ is None or not b_ else round(a_ / b_, 3)
        row["ratios"] = {
            "two_workers_over_one_worker_messages": ratio("two_workers", "one_worker"),
            "two_processes_over_one_worker_messages": ratio("two_processes", "one_worker"),
            "worker_cost_two_workers_over_one_worker":
                ratio("two_workers", "one_worker", CPM),
            "worker_cost_two_workers_over_two_processes":
                ratio("two_workers", "two_processes", CPM),
            "worker_cost_two_instances_over_two_processes":
                ratio("two_instances", "two_processes", CPM),
            "peer_2_over_peer_1_messages": ratio("peer_2", "peer_1"),
        }
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)
    print(json.dumps({s: {"summary": v["summary"], "ratios": v["ratios"]}
                      for s, v in res["sizes"].items()}, indent=1))
    if a.md:
        write_md(a.md, report(res))
    return 0


def f_cpm(v):
    return "—" if not v else " / ".join("%.0f" % x for x in v)


def f_mps(v):
    return "failed" if v is None else "%.2f M" % (v / 1e6)


def report(res):
    lines = ["<!-- scale:begin (written by bench/scale/run.py) -->", "",
             "Measured %s on %s, commit %s; medians of %d runs of %g s after %g s not "
             "measured (`sudo python3 bench/scale/run.py --build build --md "
             "docs/PERFORMANCE.md`; JSON in bench/results/scale.json)." %
             (res["when"], res["machine"], res["commit"], res["repeats"], res["seconds"],
              res["omit"]), "",
             "| size | scenario | threads / cores | messages/s (received) | cycles/message "
             "per worker, unstalled (receiver) | sender's | stalled share | frames handed "
             "over |",
             "|---|---|---|---|---|---|---|---|"]
    threads = {"one_worker": "1 / 1", "two_workers": "2 / 2", "two_instances": "2 / 2",
               "two_processes": "2 / 2", "peer_1": "2 / 2", "peer_2": "4 / 2"}
    for size, row in res["sizes"].items():
        for scn in SCENARIOS:
            s = row["summary"][scn]
            lines.append("| %s B | %s | %s | %s | %s | %s | %s | %s |" % (
                size, scn.replace("_", " "), threads[scn], f_mps(s.get("messages_per_second")),
                f_cpm(s.get(CPM)), f_cpm(s.get(CPM + "_sender")),
                " / ".join("%.1f %%" % (100 * x) for x in s.get("stalled_fraction", [])) or "—",
                s.get("rx_handoff", "—")))
    lines += ["", "| size | 2 workers / 1 (messages/s) | 2 processes / 1 (messages/s) | "
              "worker cost: 2 workers / 1 | 2 workers / 2 processes | 2 instances / 2 "
              "processes | peer: 2 workers / 1 |", "|---|---|---|---|---|---|---|"]
    for size, row in res["sizes"].items():
        q = row["ratios"]
        cell = lambda k: "—" if q[k] is None else "%.2f" % q[k]  # noqa: E731
        lines.append("| %s B | %s | %s | %s | %s | %s | %s |" % (
            size, cell("two_workers_over_one_worker_messages"),
            cell("two_processes_over_one_worker_messages"),
            cell("worker_cost_two_workers_over_one_worker"),
            cell("worker_cost_two_workers_over_two_processes"),
            cell("worker_cost_two_instances_over_two_processes"),
            cell("peer_2_over_peer_1_messages")))
    lines += ["", "<!-- scale:end -->"]
    return "\n".join(lines)


def write_md(path, text):
    md_section.write_section(path, "scale", text, "Workers and ports: scaling")


if __name__ == "__main__":
    sys.exit(main())
