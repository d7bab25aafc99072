# SPDX-License-Identifier: BSD-3-Clause
"""What a test does when this machine cannot run it.

The project's rule (docs/TESTING.md, "Skips"): on the machine the suite is
made for (Debian 12, root; `./dev.sh test` installs every package a test
needs), every test runs. A test that cannot run here -- not root, a tool
missing -- is a set-up fault, and it fails, naming what is missing, rather
than skipping where nobody looks. A developer who knowingly runs part of the
suite without root sets DPSCTP_ALLOW_SKIP=1, and the same test then skips
(meson's exit status 77) with the same message.

Scripts import it with the repository root on sys.path:

    sys.path.insert(0, str(Path(__file__).resolve().parents[N]))
    from tests.prereq import cannot_run
"""
import os
import sys

SKIP = 77


def skips_allowed():
    return os.environ.get("DPSCTP_ALLOW_SKIP") == "1"


def cannot_run(reason, log=None):
    """Report that the test cannot run here; return its exit status."""
    say = log or (lambda s: print(s, file=sys.stderr, flush=True))
    if skips_allowed():
        say(f"SKIP: {reason} (DPSCTP_ALLOW_SKIP=1)")
        return SKIP
    say(f"FAIL: cannot run here: {reason}; `./dev.sh test` as root sets up "
        "everything, or set DPSCTP_ALLOW_SKIP=1 to skip instead")
    return 1
