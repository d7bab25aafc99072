#!/usr/bin/env python3
"""[dp] bench/sock/run.py once, short: asserts the JSON's shape and the table
it writes, never speed: for both nice levels, iperf3 ran over SCTP and every
goodput row (both directions, both sizes) has a figure for the library and
for dpsctp-perf, their ratio and each end's CPU a message; both ping-pongs
have ordered quantiles and sock-pingpong did every round trip asked; the
Markdown section lands between its markers (written into a scratch copy, not
into docs/); nothing is left behind (the namespace, the daemons' sockets
and DPDK runtime directories).
A program that hung at exit after its report (run.py kills it and says so)
fails the test: the library must let every program exit (it did not once,
with a queue past SO_RCVBUF at exit; sock_python_client checks that case).

usage: quick_test.py RUN_PY BUILD_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.prereq import cannot_run  # noqa: E402

PINGS = 2000


def main():
    run_py, build = sys.argv[1], sys.argv[2]
    if os.geteuid() != 0:
        return cannot_run("needs root (a namespace, DPDK's memif)")
    if shutil.which("iperf3") is None:
        return cannot_run("iperf3 is not installed (apt-get install iperf3)")
    with tempfile.TemporaryDirectory() as d:
        out, md = os.path.join(d, "sock.json"), os.path.join(d, "PERF.md")
        with open(md, "w") as f:
            f.write("# Perf\n")
        p = subprocess.Popen([sys.executable, run_py, "--build", build, "--seconds", "1",
                              "--ping-seconds", "1", "--pings", str(PINGS), "--json", out,
                              "--md", md], stdout=subprocess.PIPE, text=True)
        try:
            stdout, _ = p.communicate(timeout=220)
        except subprocess.TimeoutExpired:
            p.terminate()  # run.py cleans up on SIGTERM
            p.communicate(timeout=60)
            print("FAIL: run.py did not finish in 220 s")
            return 1
        if p.returncode != 0:
            print(stdout[-3000:])
            print("FAIL: run.py exited", p.returncode)
            return 1
        res = json.load(open(out))
        if json.loads(stdout) != res:
            print("FAIL: the JSON printed is not the JSON written")
            return 1
        text = open(md).read()
    bad = []
    for k in ("when", "host", "commit", "configurations", "hung_at_exit", "errors", "commands",
              "sleep_20us_takes_us"):
        if k not in res:
            bad.append("no key " + k)
    if res.get("errors"):
        bad.append("errors: %s" % res["errors"])
    confs = {c.get("programs_nice"): c for c in res.get("configurations", [])}
    if sorted(confs) != [0, 19]:
        bad.append("configurations: %s, not nice 0 and 19" % sorted(confs))
    for nice, conf in sorted(confs.items()):
        rows = {(g["direction"], g["message_bytes"]): g for g in conf["goodput"]}
        for key in [(d, n) for d in ("forward", "reverse") for n in (1452, 65536)]:
            g = rows.get(key)
            what = "nice %d %s" % (nice, key)
            if g is None:
                bad.append("no goodput row " + what)
                continue
            for who in ("library", "dpsctp_perf"):
                v = g[who].get("gbps")
                if not isinstance(v, (int, float)) or v <= 0:
                    bad.append("%s %s: no goodput (%s)" % (what, who, g[who]))
            lib, ref = g["library"], g["dpsctp_perf"]
            if lib.get("protocol") != "SCTP":
                bad.append("%s: iperf3's protocol %s" % (what, lib.get("protocol")))
            if not isinstance(g.get("ratio"), float) or g["ratio"] <= 0:
                bad.append(what + ": no ratio")
            for side in ("sender", "receiver"):
                for who, key2 in (("library", "cpu_ns_per_message"),
                                  ("dpsctp-perf", "busy_ns_per_message")):
                    v = (lib if who == "library" else ref).get(key2, {}).get(side)
                    if not isinstance(v, float) or v <= 0:
                        bad.append("%s: %s's %s CPU a message: %s" % (what, who, side, v))
        lat = conf["latency"]
        for who in ("library", "dpsctp_perf"):
            x = lat.get(who, {})
            q = [x.get(k) for k in ("p50", "p90", "p99", "max")]
            if not all(isinstance(v, (int, float)) and v > 0 for v in q) or q != sorted(q):
                bad.append("nice %d latency %s: quantiles %s" % (nice, who, q))
        if lat.get("library", {}).get("round_trips") != PINGS:
            bad.append("nice %d sock-pingpong: %s round trips of %d" %
                       (nice, lat.get("library", {}).get("round_trips"), PINGS))
        if "added_one_way_us" not in lat:
            bad.append("nice %d latency: no difference" % nice)
    if "<!-- sock:begin" not in text or "<!-- sock:end -->" not in text or \
            "| nice 0 | forward (B → A) | 1452 B |" not in text or \
            "| nice 19 | sock-pingpong through the library |" not in text:
        bad.append("the Markdown section is missing or short:\n" + text)
    # What NsPair names after run.py's pid: its namespace, the daemons' sockets, the link.
    ns = subprocess.run(["ip", "netns", "list"], stdout=subprocess.PIPE, text=True).stdout
    if "dpsk%d" % p.pid in ns.split():
        bad.append("run.py left its namespace dpsk%d" % p.pid)
    left = [f for f in ["/tmp/sb%d.%s" % (p.pid, x) for x in ("A", "B", "nsmemif")] +
            ["/var/run/dpdk/sb%d%s" % (p.pid, x) for x in "AB"] if os.path.exists(f)]
    if left:
        bad.append("run.py left %s" % left)
    for h in res.get("hung_at_exit", []):
        bad.append("did not exit after its report (killed): %s" % h)
    for b in bad:
        print("FAIL:", b)
    print("PASS" if not bad else "FAIL")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
