#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""[dp] The mbuf pools fit the memory the EAL has (with --no-huge
and no -m the EAL has 64 MiB, and the default pool of 36,160 mbufs failed
with "Cannot allocate memory" without saying what would do).

dpsctp-echo --loopback (two instances in one process) without hugepages:

  - with the default 64 MiB: it runs, every echo intact, and says in one
    line per instance that its pool is smaller than computed and which -m
    would hold it whole;
  - with that -m: it runs and says nothing of the kind;
  - with 24 MiB (less than the rings need): it exits 3 with one line naming
    the -m it needs; with that -m it runs, every echo intact.

usage: memory_fit_test.py PATH/TO/dpsctp-echo
"""
import re
import subprocess
import sys

FAILURES = []


def check(what, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILURES.append(what)
        if detail:
            print(detail)


def run(echo, m):
    eal = ["--no-huge", "--no-pci", "--no-shconf", "-l", "0", "--log-level", "lib.eal:error"]
    if m is not None:
        eal += ["-m", str(m)]
    p = subprocess.run([echo, *eal, "--", "--loopback", "-n", "2000", "-l", "1200"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    lines = [ln for ln in p.stderr.splitlines()
             if not ln.startswith(("EAL:", "TELEMETRY:")) and ln.strip()]
    print(f"-- -m {m if m is not None else '(none: 64 MiB)'}: exit {p.returncode}")
    for ln in lines:
        print("   " + ln)
    return p, lines


def main():
    echo = sys.argv[1]
    intact = "2000 echoed intact, 0 bad"

    p, lines = run(echo, None)
    check("64 MiB: runs, every echo intact", p.returncode == 0 and intact in p.stdout,
          p.stdout[-2000:])
    notes = [ln for ln in lines if re.search(r"a pool of \d+ mbufs, not the \d+ computed", ln)]
    check("64 MiB: one line per instance says its pool was cut", len(notes) == 2, str(lines))
    whole = [int(x) for ln in notes for x in re.findall(r"-m (\d+) would hold them all", ln)]
    check("each line names the -m that holds the pool whole", len(whole) == len(notes) != 0)
    if whole:
        p, lines = run(echo, max(whole))
        check(f"-m {max(whole)}: runs, every echo intact",
              p.returncode == 0 and intact in p.stdout, p.stdout[-2000:])
        check(f"-m {max(whole)}: no pool cut", not any("a pool of" in ln for ln in lines),
              str(lines))

    p, lines = run(echo, 24)
    check("24 MiB: exit 3 (the data plane would not start)", p.returncode == 3)
    need = [int(x) for ln in lines for x in re.findall(r"give the EAL -m (\d+)", ln)]
    check("24 MiB: one line, naming the -m it needs", len(lines) == 1 and len(need) == 1,
          str(lines))
    if need:
        p, lines = run(echo, need[0])
        check(f"-m {need[0]} (as told): runs, every echo intact",
              p.returncode == 0 and intact in p.stdout, p.stdout[-2000:])

    print("PASS" if not FAILURES else f"FAIL: {len(FAILURES)}")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
