#!/usr/bin/env python3
"""Fail if a shared library exports a symbol without the dpsctp_ prefix.

docs/ARCHITECTURE.md decision 9: test and benchmark programs link usrsctp beside us, and
usrsctp exports about 300 sctp_* names; a leaked internal sctp_* symbol of
ours could interpose on theirs. Usage: check_exports.py LIB.so
"""
import subprocess
import sys

# Linker-made markers, not code or data of ours.
ALLOWED = {"_init", "_fini", "_edata", "_end", "__bss_start"}


def main(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    exported, bad = [], []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        _, kind, name = parts
        if kind not in "TDBRVWiu":
            continue
        exported.append(name)
        if not name.startswith("dpsctp_") and name not in ALLOWED:
            bad.append(name)
    print(f"{lib}: {len(exported)} exported symbols")
    if not any(n.startswith("dpsctp_") for n in exported):
        print("no dpsctp_ symbol exported: the check would pass vacuously")
        return 1
    for name in bad:
        print(f"exported without the dpsctp_ prefix: {name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
