#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The `prerequisites` test: every optional part the configure step looked
for was found, so no test was left out of the suite without a word.

meson registers some tests only when what they need was found (DPDK,
GoogleTest, usrsctp, libsctp, tshark, clang-format...). A tree configured
without one of them would pass with fewer tests and nobody would notice;
this test fails instead, naming what is missing and the Debian package that
`./dev.sh setup` installs for it (docs/TESTING.md, "Skips").

Arguments: NAME=yes|no[:PACKAGE] for each part.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.prereq import cannot_run  # noqa: E402


def main(args):
    missing = []
    for a in args:
        name, _, rest = a.partition("=")
        found, _, package = rest.partition(":")
        if found not in ("yes", "no"):
            print(f"prereq_check: bad argument {a!r}", file=sys.stderr)
            return 2
        print(f"{name}: {'found' if found == 'yes' else 'MISSING'}")
        if found == "no":
            missing.append(f"{name} (Debian package {package})" if package else name)
    if missing:
        return cannot_run("not found when the tree was configured, so the tests that need "
                          "it were left out: " + ", ".join(missing) + "; install, then "
                          "`meson setup --reconfigure`")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
