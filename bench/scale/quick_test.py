#!/usr/bin/env python3
"""[dp] bench/scale/run.py --quick: one short run of every scenario at 64 bytes
(about 20 s). Asserts the JSON's shape, not speed: every scenario has a
message rate and one cycles-per-message figure per worker (per end for the
peer runs), and in the loopback scenarios no frame was handed between
workers (queue q goes to queue q and each association was connected on the
worker that polls its queue, so the data path stays on one worker).

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

# scenario: (receiver workers, sender workers or 0 when the receiver's thread
# is the sender's too)
SHAPE = {"one_worker": (1, 0), "two_workers": (2, 0), "two_instances": (2, 0),
         "two_processes": (2, 0), "peer_1": (1, 1), "peer_2": (2, 2)}


def main():
    run_py, build = sys.argv[1], sys.argv[2]
    if os.geteuid() != 0:
        return cannot_run("needs root (DPDK)")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "scale.json")
        r = subprocess.run([sys.executable, run_py, "--build", build, "--quick", "--out", out],
                           stdout=subprocess.DEVNULL, timeout=110)
        if r.returncode != 0:
            print("FAIL: run.py exited", r.returncode)
            return 1
        res = json.load(open(out))
    bad = []
    row = res["sizes"].get("64")
    if row is None:
        bad.append("no 64-byte results")
        row = {"summary": {}, "runs": {}}
    for scn, (nrx, ntx) in SHAPE.items():
        s = row["summary"].get(scn)
        if s is None:
            bad.append(scn + ": missing")
            continue
        if not s.get("messages_per_second"):
            bad.append("%s: no message rate (%s)" % (scn, s.get("errors")))
            continue
        cpm = s.get("cycles_per_message", [])
        if len(cpm) != nrx or not all(x and x > 0 for x in cpm):
            bad.append("%s: receiver cycles per message %s, want %d figures" % (scn, cpm, nrx))
        tx = s.get("cycles_per_message_sender", [])
        if len(tx) != ntx or not all(x and x > 0 for x in tx):
            bad.append("%s: sender cycles per message %s, want %d figures" % (scn, tx, ntx))
        if not scn.startswith("peer") and s.get("rx_handoff") != 0:
            bad.append("%s: %s frames handed between workers" % (scn, s.get("rx_handoff")))
    for b in bad:
        print("FAIL:", b)
    print("PASS" if not bad else "FAIL")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
