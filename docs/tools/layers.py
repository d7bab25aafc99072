#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The `layers` test: every #include of the repository's own code follows
the arrows of docs/ARCHITECTURE.md, and the sans-I/O core includes no
platform header.

    layers.py SOURCE_ROOT

Rules, by the directory of the including file (tests, fuzz targets and the
simulator are harnesses and may reach across layers):

  sctp/               only sctp/ headers; of the system, only the C library
                      headers that do no I/O and OpenSSL's hash (the state
                      cookie): no DPDK, no sockets, no threads, no clocks, no
                      printing, no allocation (one named exception: the
                      test builds' failure report, CORE_EXCEPTIONS)
  drivers/            drivers/ and the core's header-only vocabulary
                      (sctp/addr.h, sctp/byteorder.h, sctp/def_table.h)
  dataplane/sidecar/  itself, sctp/addr.h and dataplane/dpsctp_opt.h (the
                      options' structs; the client library links their
                      DPDK-free check): nothing else of ours
  dataplane/          dataplane/, sctp/, drivers/; never apps/
  apps/<app>/         its own directory, apps/common/ and the layers below;
                      never another app's files
Exit 0 when every include is allowed, 1 with one line per violation.
"""
import re
import subprocess
import sys
from pathlib import Path

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
HARNESS = re.compile(r"(^|/)(tests|fuzz|sim)/")

# The C library headers the core may use: types, strings, error codes.
CORE_SYSTEM = {"stdint.h", "stdbool.h", "stddef.h", "string.h", "errno.h", "limits.h",
               "inttypes.h", "stdalign.h", "assert.h",
               "openssl/sha.h", "openssl/crypto.h", "openssl/evp.h", "openssl/hmac.h",
               "openssl/core_names.h", "openssl/params.h"}
CORE_VOCABULARY = {"sctp/addr.h", "sctp/byteorder.h", "sctp/def_table.h"}
# The debug build's failure report prints and aborts; it is linked only into
# the checked core the tests use (sctp/meson.build), never the data plane's.
CORE_EXCEPTIONS = {"sctp/assoc_check_report.c": {"stdio.h", "stdlib.h"}}


def layer_of(path):
    parts = path.split("/")
    if parts[0] == "dataplane" and len(parts) > 2 and parts[1] == "sidecar":
        return "dataplane/sidecar"
    if parts[0] == "apps" and len(parts) > 2:
        return "apps/" + parts[1]
    return parts[0]


def allowed(layer, kind, target, path=""):
    """None when the include is fine, else the reason it is not."""
    if layer == "sctp":
        if kind == "<":
            if target in CORE_SYSTEM or target in CORE_EXCEPTIONS.get(path, ()):
                return None
            return "the sans-I/O core includes a platform header"
        return None if target.startswith("sctp/") else "the core includes outside sctp/"
    if kind == "<":
        return None  # the layers above the core may use the platform
    if layer == "drivers":
        if target.startswith("drivers/") or target in CORE_VOCABULARY:
            return None
        return "drivers/ may use only the core's header-only vocabulary"
    if layer == "dataplane/sidecar":
        if target.startswith("dataplane/sidecar/") or target in ("sctp/addr.h",
                                                                  "dataplane/dpsctp_opt.h"):
            return None
        return "the sidecar's shared pieces link nothing else of ours"
    if layer == "dataplane":
        if target.split("/")[0] in ("dataplane", "sctp", "drivers"):
            return None
        if "/" not in target:
            return None  # a header beside the file (the public headers, installed together)
        return "the runtime includes from above it"
    if layer.startswith("apps/"):
        top = target.split("/")[0]
        if top in ("dataplane", "sctp", "drivers"):
            return None
        if target.startswith(layer + "/") or target.startswith("apps/common/"):
            return None
        if top == "apps":
            return "one app includes another's files (share them in apps/common/)"
        return None  # a header beside the file, included by its bare name
    return None


def main(root):
    root = Path(root)
    files = subprocess.run(["git", "-C", str(root), "ls-files", "*.c", "*.h"],
                           capture_output=True, text=True, check=True).stdout.split()
    bad = 0
    checked = 0
    for f in files:
        if HARNESS.search(f) or f.startswith(("bench/", "tests/")):
            continue
        layer = layer_of(f)
        if layer not in ("sctp", "drivers", "dataplane", "dataplane/sidecar") \
                and not layer.startswith("apps/"):
            continue
        text = (root / f).read_text(errors="replace")
        for m in INCLUDE.finditer(text):
            checked += 1
            why = allowed(layer, m.group(1), m.group(2), f)
            if why:
                line = text.count("\n", 0, m.start()) + 1
                print(f"{f}:{line}: #include {m.group(1)}{m.group(2)}: {why}")
                bad += 1
    print(f"layers: {checked} includes checked, {bad} not allowed")
    return 1 if bad or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
