#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""campaign_ledger: campaigns of different targets running at once keep
each other's figures in the ledger (campaign.py's update_ledger()).

Four processes add to one ledger.json at the same time, each to a target
of its own and to one all share, many times over; every addition must be
in the file at the end. Without the lock (a ledger loaded once, or read
and written unguarded) additions are lost and the sums come out short.
"""
import importlib.util
import json
import multiprocessing
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
WORKERS, ROUNDS = 4, 150


def campaign():
    spec = importlib.util.spec_from_file_location("campaign", os.path.join(HERE, "campaign.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def worker(path, k):
    c = campaign()

    def add(ledger):
        for name in ("fuzz_t%d" % k, "fuzz_shared"):
            e = ledger["targets"].setdefault(name, {})
            e["runs"] = e.get("runs", 0) + 1
            e["cpu_seconds"] = e.get("cpu_seconds", 0) + 1.5
    for _ in range(ROUNDS):
        c.update_ledger(path, add)


def main():
    with tempfile.TemporaryDirectory(prefix="dpsctp-ledger-") as tmp:
        path = os.path.join(tmp, "ledger.json")
        procs = [multiprocessing.Process(target=worker, args=(path, k)) for k in range(WORKERS)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(120)
        bad = [p.exitcode for p in procs if p.exitcode != 0]
        if bad:
            print("campaign_ledger: a writer failed (exit %s)" % bad)
            return 1
        with open(path, encoding="utf-8") as f:
            t = json.load(f)["targets"]
        want = {"fuzz_t%d" % k: ROUNDS for k in range(WORKERS)}
        want["fuzz_shared"] = ROUNDS * WORKERS
        got = {n: t.get(n, {}).get("runs", 0) for n in want}
        if got != want:
            print("campaign_ledger: additions lost: runs %s, expected %s" % (got, want))
            return 1
        if abs(t["fuzz_shared"]["cpu_seconds"] - 1.5 * ROUNDS * WORKERS) > 1e-6:
            print("campaign_ledger: cpu_seconds %s" % t["fuzz_shared"]["cpu_seconds"])
            return 1
        print("campaign_ledger: %d writers x %d updates, none lost: PASS" % (WORKERS, ROUNDS))
        return 0


if __name__ == "__main__":
    sys.exit(main())
