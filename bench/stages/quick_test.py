#!/usr/bin/env python3
"""[dp] bench/stages/run.py, one short run of each workload: asserts the
JSON's shape and the table it writes, not speed: every stage has a figure
for both ends of both workloads, the stages add up to the total, the
receiver checked CRC32c, and the Markdown section lands between its markers
(written into a scratch copy, not into docs/).

usage: quick_test.py RUN_PY BUILD_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.prereq import cannot_run  # noqa: E402


def main():
    run_py, build = sys.argv[1], sys.argv[2]
    if os.geteuid() != 0:
        return cannot_run("needs root (DPDK)")
    sys.path.insert(0, os.path.dirname(run_py))
    import run as stages  # noqa: E402
    with tempfile.TemporaryDirectory() as d:
        out, md = os.path.join(d, "stages.json"), os.path.join(d, "PERF.md")
        with open(md, "w") as f:
            f.write("# Perf\n")
        r = subprocess.run([sys.executable, run_py, "--build", build, "--repeats", "1",
                            "--seconds", "0.5", "--out", out, "--md", md],
                           stdout=subprocess.DEVNULL, timeout=110)
        if r.returncode != 0:
            print("FAIL: run.py exited", r.returncode)
            return 1
        res = json.load(open(out))
        text = open(md).read()
    bad = []
    for name, _ in stages.WORKLOADS:
        w = res["workloads"].get(name)
        if w is None:
            bad.append("no workload " + name)
            continue
        for who in ("client", "server"):
            e = w[who]
            missing = [s for s in stages.STAGES if s not in e]
            if missing:
                bad.append("%s %s: no %s" % (name, who, missing))
                continue
            if abs(sum(e[s] for s in stages.STAGES) - e["total"]) > 1:
                bad.append("%s %s: stages do not add up" % (name, who))
            if e["total"] <= 0:
                bad.append("%s %s: no cycles" % (name, who))
        if w["server"]["crc"] <= 0:
            bad.append(name + ": the receiver checked no CRC32c")
    if "<!-- stages:begin" not in text or "<!-- stages:end -->" not in text or \
            "| `core` |" not in text:
        bad.append("the Markdown section is missing")
    for b in bad:
        print("FAIL:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
