#!/usr/bin/env python3
"""[dp] bench/sidecar/run.py once, short: it exits 0 and every scenario has a
figure in every mode (a benchmark that silently lost a mode would not show).

usage: quick_test.py RUN_PY BUILD_DIR
"""
import json
import os
import subprocess
import sys
from pathlib import Path
import tempfile
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.prereq import cannot_run  # noqa: E402


def main():
    run_py, build = sys.argv[1], sys.argv[2]
    if os.geteuid() != 0:
        return cannot_run("needs root (DPDK)")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "sidecar.json")
        r = subprocess.run([sys.executable, run_py, "--build", build, "--repeats", "1",
                            "--seconds", "1", "--out", out], timeout=220)
        if r.returncode != 0:
            print("FAIL: run.py exited", r.returncode)
            return 1
        res = json.load(open(out))
    bad = []
    for name in ("msgs_64", "goodput_1452", "echo_1452", "ping_64"):
        row = res["scenarios"].get(name)
        if row is None:
            bad.append(name + ": missing")
            continue
        for mode, v in row["median"].items():
            if v is None or v <= 0:
                bad.append("%s/%s: no figure (%s)" % (name, mode, row["runs"][mode]))
        if name == "echo_1452" and "sidecar_zero_copy" not in row["median"]:
            bad.append("echo_1452: no zero-copy run")
    for b in bad:
        print("FAIL:", b)
    print("PASS" if not bad else "FAIL")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
