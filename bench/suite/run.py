#!/usr/bin/env python3
"""The end-to-end benchmark suite: dpsctp-perf against usrsctp,
Linux TCP and the raw ceiling of the same DPDK path, on the same machine in
the same run, every figure the median of --repeats runs.

usage: run.py [--build DIR] [--repeats N] [--seconds T] [--quick] [--only REGEX]
              [--out bench/results/e2e.json]

Every scenario is a dict in SCENARIOS (built by scenarios()); each run's
whole JSON document is kept beside its medians. A tool that is missing or
fails is recorded with its error and the suite goes on. report.py turns the
result into docs/PERFORMANCE.md's tables and plots.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time

SIZES = [64, 256, 1024, 1452, 4096, 8192]
# The head-of-line scenario: bulk messages, their pace, the receive windows.
HOL_BULK, HOL_RATE, HOL_RCVBUFS = 1048576, "1g", ("4m", "256k")
EAL2 = ["--no-huge", "--no-pci", "--no-shconf", "-l", "0-1", "-m", "2048",
        "--log-level", "lib.eal:error"]


def wire_bytes_per_msg(length, mtu=1500):
    """dpsctp-perf's wire model (apps/dpsctp-perf/perf_wire.c), IPv4, no UDP."""
    ip, common, data_hdr, eth = 20, 12, 16, 8 + 14 + 4 + 12
    room = mtu - ip - common
    chunk = data_hdr + ((length + 3) & ~3)
    over = eth + ip + common
    if chunk <= room:
        per = room // chunk
        return chunk + over / per
    frag = (room - data_hdr) & ~3
    pkts = -(-length // frag)
    return length + pkts * (data_hdr + over) + 3


def get(doc, dotted, default=None):
    for k in dotted.split("."):
        if not isinstance(doc, dict) or k not in doc:
            return default
        doc = doc[k]
    return doc


# Metrics kept as medians, per tool: name -> dotted key in the tool's JSON.
METRICS = {
    "dpsctp": {
        "messages_per_second": "end.sum_received.messages_per_second",
        "bits_per_second": "end.sum_received.bits_per_second",
        "packets_per_second": "end.sum_received.packets_per_second",
        "cycles_per_message_sender": "end.cycles_per_message.sender",
        "cycles_per_message_receiver": "end.cycles_per_message.receiver",
        "cycles_per_byte_sender": "end.cycles_per_byte.sender",
        "cycles_per_byte_receiver": "end.cycles_per_byte.receiver",
        "idle_sender": "end.idle_fraction.sender",
        "sacks_per_data_packet": "end.sacks_per_data_packet",
        "retransmits": "end.retransmits",
        "p50": "end.latency_us.p50", "p90": "end.latency_us.p90", "p99": "end.latency_us.p99",
        "p999": "end.latency_us.p999", "max": "end.latency_us.max",
        "one_way_p50": "end.one_way_latency_us.p50", "one_way_p90": "end.one_way_latency_us.p90",
        "one_way_p99": "end.one_way_latency_us.p99",
        "one_way_p999": "end.one_way_latency_us.p999",
        "one_way_max": "end.one_way_latency_us.max",
        "handshakes_per_second": "end.handshakes_per_second",
        "cycles_per_heartbeat": "end.idle.cycles_per_heartbeat",
        "heartbeats_per_s_client": "end.idle.client.heartbeats_per_s",
        "heartbeats_per_s_server": "end.idle.server.heartbeats_per_s",
        "heartbeats_deferred_per_s": "end.idle.client.deferred_per_s",
        "busy_share_client": "end.idle.client.busy_share",
        "memory_total_bytes": "end.memory_total_bytes",
        "memory_sized_for_assocs": "end.memory_sized_for_assocs",
        "rate_sustained": "end.rate.sustained",
        "abandoned_messages": "end.pr_sctp.abandoned_messages",
        "abandoned_after_sending": "end.pr_sctp.abandoned_after_sending",
        "forward_tsn_sent": "end.pr_sctp.forward_tsn_sent",
        "pr_goodput_bps": "end.pr_sctp.goodput_bps",
        "messages_sent": "end.sum_sent.messages",
    },
    "usrsctp": {
        "messages_per_second": "end.sum_received.messages_per_second",
        "bits_per_second": "end.sum_received.bits_per_second",
        "cycles_per_message_sender": "end.cycles_per_message.sender",
        "cycles_per_message_receiver": "end.cycles_per_message.receiver",
        "p50": "end.latency_us.p50", "p90": "end.latency_us.p90", "p99": "end.latency_us.p99",
        "p999": "end.latency_us.p999", "max": "end.latency_us.max",
    },
    "raw": {
        "messages_per_second": "end.sum_received.messages_per_second",
        "bits_per_second": "end.sum_received.bits_per_second",
        "packets_per_second": "end.sum_received.packets_per_second",
        "cycles_per_packet_sender": "end.cycles_per_packet.sender",
        "cycles_per_packet_receiver": "end.cycles_per_packet.receiver",
        "cycles_per_message_sender": "end.cycles_per_message.sender",
        "cycles_per_message_receiver": "end.cycles_per_message.receiver",
    },
    "tcp": {
        "bits_per_second": "end.sum_received.bits_per_second",
        "messages_per_second": "end.messages_per_second",
        "cpu_sender_percent": "end.cpu_utilization_percent.host_total",
        "cpu_receiver_percent": "end.cpu_utilization_percent.remote_total",
    },
    "tcp-pingpong": {
        "p50": "end.latency_us.p50", "p90": "end.latency_us.p90", "p99": "end.latency_us.p99",
        "p999": "end.latency_us.p999", "max": "end.latency_us.max",
    },
}


def scenarios(b, seconds, quick):
    perf = os.path.join(b, "apps/dpsctp-perf/dpsctp-perf")
    usr = os.path.join(b, "bench/suite/usrsctp-perf")
    raw = os.path.join(b, "bench/suite/raw-ceiling")
    pp = os.path.join(b, "bench/suite/tcp-pingpong")
    t = str(seconds)
    sizes = [64, 1452] if quick else SIZES
    out = []

    # DATA, as the stacks beside it send: with I-DATA (on by default) a
    # 1452-byte message takes two packets, which would compare the chunk
    # formats, not the stacks (docs/PERFORMANCE.md). A scenario's own
    # --extensions comes later in its arguments and wins.
    def dp(scn, params, extra):
        out.append({"scenario": scn, "impl": "dpsctp", "tool": "dpsctp", "params": params,
                    "cmd": [perf, *EAL2, "--", "--loopback", "--json", "-i", "0", "-t", t,
                            "--extensions", "pr-sctp", *extra]})

    for n in sizes:
        for s in ([1] if quick else [1, 8]):
            for p in ([1] if quick else [1, 64]):
                dp("throughput", {"message_bytes": n, "streams": s, "assocs": p},
                   ["-l", str(n), "-S", str(s), "-P", str(p)])
        for crc in (True, False):
            out.append({"scenario": "throughput", "impl": "usrsctp" if crc else "usrsctp-nocrc",
                        "tool": "usrsctp",
                        "params": {"message_bytes": n, "streams": 1, "assocs": 1},
                        "cmd": [usr, "-l", str(n), "-t", t, "--json"] + ([] if crc else ["--no-crc"])})
        out.append({"scenario": "throughput", "impl": "tcp", "tool": "tcp",
                    "params": {"message_bytes": n, "streams": 1, "assocs": 1},
                    "cmd": ["iperf3", "-c", "127.0.0.1", "-N", "-l", str(n), "-t", t, "-A", "0",
                            "--json"]})
        out.append({"scenario": "throughput", "impl": "raw", "tool": "raw",
                    "params": {"message_bytes": n, "bundle": 1, "crc32c": True},
                    "cmd": [raw, *EAL2, "--", "-l", str(n), "-t", t, "--crc", "--json"]})
        if n <= 512:
            per = (1500 - 32) // (16 + ((n + 3) & ~3))
            out.append({"scenario": "throughput", "impl": "raw-bundled", "tool": "raw",
                        "params": {"message_bytes": n, "bundle": per, "crc32c": True},
                        "cmd": [raw, *EAL2, "--", "-l", str(n), "-t", t, "--crc", "--bundle",
                                str(per), "--json"]})
    # One DATA chunk per packet: a message per loop iteration, each flushed.
    out.append({"scenario": "throughput", "impl": "dpsctp-nobundle", "tool": "dpsctp",
                "params": {"message_bytes": 64, "streams": 1, "assocs": 1, "burst": 1},
                "cmd": [perf, *EAL2, "--", "--loopback", "--json", "-i", "0", "-t", t, "-l", "64",
                        "--burst", "1", "--extensions", "pr-sctp"]})
    for n in (64, 1452):
        dp("latency", {"message_bytes": n, "load": 0}, ["-l", str(n), "--ping"])
        out.append({"scenario": "latency", "impl": "dpsctp-loaded", "tool": "dpsctp",
                    "params": {"message_bytes": n, "load": 0.5}, "needs_rate_of": n,
                    "cmd": [perf, *EAL2, "--", "--loopback", "--json", "-i", "0", "-t", t,
                            "-l", str(n), "--ping", "-S", "2", "--extensions", "pr-sctp"]})
        out.append({"scenario": "latency", "impl": "usrsctp", "tool": "usrsctp",
                    "params": {"message_bytes": n, "load": 0},
                    "cmd": [usr, "-l", str(n), "-t", t, "--ping", "--json"]})
        out.append({"scenario": "latency", "impl": "tcp-busy", "tool": "tcp-pingpong",
                    "params": {"message_bytes": n, "load": 0},
                    "cmd": [pp, "-l", str(n), "-t", t, "--busy", "--json"]})
        out.append({"scenario": "latency", "impl": "tcp", "tool": "tcp-pingpong",
                    "params": {"message_bytes": n, "load": 0},
                    "cmd": [pp, "-l", str(n), "-t", t, "--json"]})
    # Handshakes and memory: the RFC profile (30 s heartbeats: idle
    # associations stay idle; docs/PERF_TOOL.md).
    hs = [(1000, 1016)] if quick else [(1000, 1016), (20000, 20016), (60000, 100000)]
    for n, sized in hs:
        dp("handshakes", {"handshakes": n, "sized_for": sized},
           ["--handshakes", str(n), "--profile", "rfc", "--max-assocs", str(sized)])
    # Idle associations in the data-center profile (50 ms heartbeats):
    # heartbeats per second and their cycles, with the default --hb-rate
    # and without a budget (docs/PATHS.md "Heartbeats at scale").
    if not quick:
        for n, rate in ((20000, "20000"), (20000, "0"), (60000, "20000")):
            dp("heartbeats", {"assocs": n, "hb_rate": int(rate)},
               ["--handshakes", str(n), "--idle", "3", "--hb-rate", rate,
                "--max-assocs", str(n + 16)])
    # 10G line rate (wire bits: preamble, IFG, FCS, headers): sustained, and
    # with how much of the sender's core to spare.
    for n in ([1452] if quick else [256, 512, 1024, 1452, 4096]):
        dp("linerate", {"message_bytes": n, "rate": "10g"}, ["-l", str(n), "--rate", "10g"])
    # Memory: the server end alone, sized for N associations (reserved at
    # create; an idle association adds nothing). 1 M needs about 7 GB.
    for n in ([1000] if quick else [1000, 100000, 1000000]):
        out.append({"scenario": "memory", "impl": "dpsctp", "tool": "dpsctp",
                    "params": {"sized_for": n},
                    "cmd": [perf, "--no-huge", "--no-pci", "--no-shconf", "-l", "0", "-m", "16384",
                            "--log-level", "lib.eal:error", "--", "--loopback", "--memory",
                            "--json", "--profile", "rfc", "--max-assocs", str(n)]})
    for loss in ([1] if quick else [0.1, 1, 5]):
        dp("loss", {"message_bytes": 1452, "loss_percent": loss},
           ["-l", "1452", "--impair", f"loss={loss}%,seed=7"])
    # PR-SCTP: the same loss with a 2 ms lifetime on every message (RFC 3758
    # timed reliability): what is given up, and the goodput left. 2 ms is
    # a few RTO.Min of the DC profile: losses that need a T3-rtx, and
    # messages queued behind a window that loss keeps small, run out.
    for loss in ([5] if quick else [1, 5]):
        dp("pr_loss", {"message_bytes": 1452, "loss_percent": loss, "lifetime_ms": 2},
           ["-l", "1452", "--impair", f"loss={loss}%,seed=7", "--pr-policy", "ttl",
            "--pr-value", "2"])
    # Head-of-line blocking (RFC 8260): 64-byte pings on stream 0, one every
    # 100 us whatever is in flight, beside 1 MiB messages on stream 1 paced
    # at a fixed rate, with DATA (PR-SCTP alone offered) and with I-DATA.
    # The send buffer holds four such messages; the receive window four (the
    # whole message goes into flight at once) or a quarter of one (the
    # default: the window holds the rest of it back in the sender's queue,
    # where the scheduler works). The RFC profile: its 1 s RTO.Min; the
    # data-center profile's draws spurious T3-rtx here when a 1 MiB burst
    # waits in the receiving lcore's ring, and those stall every stream
    # alike, DATA or I-DATA (the head-of-line table says so).
    for rcvbuf in HOL_RCVBUFS:
        for impl, ext in (("data", "pr-sctp"), ("i-data", "pr-sctp,i-data")):
            dp("hol", {"message_bytes": HOL_BULK, "ping_bytes": 64, "ping_interval_us": 100,
                       "rate": HOL_RATE, "rcvbuf": rcvbuf, "profile": "rfc", "extensions": ext,
                       "data": impl},
               ["-l", str(HOL_BULK), "-S", "2", "--sndbuf", "4m", "--rcvbuf", rcvbuf,
                "--rate", HOL_RATE, "--ping", "--ping-length", "64", "--ping-interval", "100",
                "--profile", "rfc", "--extensions", ext])
    return out


def run_tcp(cmd, timeout):
    """iperf3 needs its server: one per run, on a free port, pinned to CPU 1."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    srv = subprocess.Popen(["iperf3", "-s", "-1", "-p", str(port), "-A", "1"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.3)
        p = subprocess.run(cmd[:3] + ["-p", str(port)] + cmd[3:], capture_output=True,
                           text=True, timeout=timeout)
        return p
    finally:
        srv.kill()
        srv.wait()


def one_run(sc, timeout):
    cmd = sc["cmd"]
    exe = cmd[0]
    if not (shutil.which(exe) or os.path.exists(exe)):
        raise RuntimeError(f"{exe} not found")
    if sc["tool"] == "tcp":
        p = run_tcp(cmd, timeout)
    else:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        why = "\n".join(l for l in p.stderr.splitlines() if not l.startswith("TELEMETRY"))
        raise RuntimeError(f"exit {p.returncode}: {why.strip()[:400]}")
    doc = json.loads(p.stdout)
    if sc["tool"] == "tcp":  # messages/s from bytes: one write per message
        bps = get(doc, "end.sum_received.bits_per_second", 0)
        doc["end"]["messages_per_second"] = bps / 8 / sc["params"]["message_bytes"]
    return doc


def machine(build):
    def out(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            return ""
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(),
        "dpdk": out(["pkg-config", "--modversion", "libdpdk"]),
        "usrsctp": out(["dpkg-query", "-W", "-f=${Version}", "libusrsctp2"]),
        "iperf3": out(["iperf3", "--version"]).split("\n")[0],
        "date": datetime.date.today().isoformat(),
        "commit": out(["git", "rev-parse", "--short", "HEAD"]),
        "build": build,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--repeats", type=int, default=int(os.environ.get("BENCH_REPETITIONS", 5)))
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="bench/results/e2e.json")
    ap.add_argument("--merge", action="store_true",
                    help="keep the runs of an existing --out file that this run does not redo")
    a = ap.parse_args()
    if a.quick:
        a.repeats, a.seconds = 1, 1.0
    result = {"machine": machine(a.build), "repeats": a.repeats, "seconds": a.seconds, "runs": []}
    best_mps = {}
    ran = 0
    for sc in scenarios(a.build, a.seconds, a.quick):
        name = f"{sc['scenario']}/{sc['impl']}/" + ",".join(f"{k}={v}" for k, v in sc["params"].items())
        if a.only and not re.search(a.only, name):
            continue
        cmd = list(sc["cmd"])
        if "needs_rate_of" in sc:  # ping beside bulk data at half the measured maximum
            n = sc["needs_rate_of"]
            mps = best_mps.get(n)
            if not mps:
                result["runs"].append({"scenario": sc["scenario"], "impl": sc["impl"],
                                       "name": name, "params": sc["params"],
                                       "command": " ".join(cmd), "results": [], "median": {},
                                       "error": "no throughput figure to take 50 % of"})
                continue
            rate = 0.5 * mps * wire_bytes_per_msg(n) * 8
            cmd += ["--rate", f"{rate:.0f}"]
            sc["params"]["rate_bps"] = round(rate)
        docs, err = [], None
        for r in range(a.repeats):
            try:
                docs.append(one_run({**sc, "cmd": cmd}, timeout=a.seconds * 10 + 120))
            except (RuntimeError, ValueError, subprocess.TimeoutExpired, OSError) as e:
                err = str(e)
                break
        med = {}
        for m, key in METRICS[sc["tool"]].items():
            vals = [get(d, key) for d in docs]
            vals = [v for v in vals if isinstance(v, (int, float)) and not isinstance(v, bool)]
            if vals:
                med[m] = statistics.median(vals)
            bools = [get(d, key) for d in docs if isinstance(get(d, key), bool)]
            if bools:
                med[m] = sum(bools) * 2 > len(bools)
        if sc["impl"] == "dpsctp" and sc["scenario"] == "throughput" and \
                sc["params"].get("streams") == 1 and sc["params"].get("assocs") == 1 and \
                "messages_per_second" in med:
            best_mps[sc["params"]["message_bytes"]] = med["messages_per_second"]
        result["runs"].append({"scenario": sc["scenario"], "impl": sc["impl"], "name": name,
                               "params": sc["params"], "command": " ".join(cmd),
                               "results": docs, "median": med, "error": err})
        ran += 1
        shown = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in med.items()
                 if k in ("messages_per_second", "bits_per_second", "p50", "p99",
                          "handshakes_per_second", "cycles_per_message_sender")}
        print(f"{name}: {shown}" + (f" ERROR {err}" if err else ""), flush=True)
    if a.merge and os.path.exists(a.out):
        old = json.load(open(a.out))
        redone = {r["name"] for r in result["runs"]}
        kept = [r for r in old.get("runs", []) if r.get("name") not in redone]
        stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
        for r in result["runs"]:
            r["remeasured"] = f"{stamp}, commit {result['machine'].get('commit')}"
        result["runs"] = kept + result["runs"]
        result["machine"] = old.get("machine", result["machine"])
        result["repeats"], result["seconds"] = old.get("repeats", a.repeats), old.get("seconds", a.seconds)
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    print(f"{ran} scenarios, results in {a.out}")
    return 0 if ran else 1


if __name__ == "__main__":
    sys.exit(main())
