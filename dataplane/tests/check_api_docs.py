#!/usr/bin/env python3
"""Every exported function of the public headers has a doc comment right
above it ("Doxygen on every function and error value"), and every
error value the comments name is explained in docs/API.md.

usage: check_api_docs.py HEADER... API.md
"""
import re
import sys


def main():
    *headers, api_md = sys.argv[1:]
    bad = []
    errors = set()
    for h in headers:
        text = open(h).read()
        # Declarations only: "DPSCTP_EXPORT <type> name(" (not the macro's definition).
        for m in re.finditer(r"^DPSCTP_EXPORT [^;(]*?(\w+)\s*\(", text, re.M):
            before = text[:m.start()].rstrip()
            if not before.endswith("*/"):
                bad.append(f"{h}: {m.group(1)} has no comment above it")
        errors |= set(re.findall(r"-E[A-Z]+", text))
    doc = open(api_md).read()
    for e in sorted(errors):
        if f"`{e}`" not in doc:
            bad.append(f"{api_md}: error value {e} is not explained")
    for b in bad:
        print(b)
    print(f"{len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
