#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every DPDK program answers -h and --help after `--` without starting the
EAL (`dpsctp-perf [EAL args] -- -h`, as the README shows it, died
in rte_eal_init() on a machine without hugepages, before any help).

Each program gets EAL arguments the EAL refuses (an unknown option, then
the README's literal "[EAL args]" on a machine with no hugepages: no
--no-huge) and -h or --help after `--`: it must exit 0 with its usage on
stdout and start no EAL (no "EAL:" line).

usage: help_without_eal.py PROGRAM... [--if-built PROGRAM...]
"""
import os
import subprocess
import sys


def main():
    args = sys.argv[1:]
    progs, optional = [], False
    for a in args:
        if a == "--if-built":
            optional = True
        elif optional and not os.path.exists(a):
            print(f"(not built: {a})")
        else:
            progs.append(a)
    failures = []
    for prog in progs:
        name = os.path.basename(prog)
        for eal in (["--no-such-eal-option"], ["[EAL", "args]"]):
            for h in ("-h", "--help"):
                argv = [prog, *eal, "--", h]
                p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, timeout=30)
                ok = p.returncode == 0 and "usage:" in p.stdout and "EAL:" not in p.stderr
                print(f"{'ok  ' if ok else 'FAIL'} {' '.join([name] + argv[1:])}: exit "
                      f"{p.returncode}")
                if not ok:
                    print(p.stdout[-500:] + p.stderr[-500:])
                    failures.append(" ".join(argv))
    print("PASS" if not failures else f"FAIL: {len(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
