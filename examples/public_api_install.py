#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The public API as a program outside this repository uses it: installed,
found with nothing but pkg-config, built and run.

The build is installed into a scratch DESTDIR (meson install --destdir) and
PKG_CONFIG_PATH names the directory of its .pc files, nothing else: they
are relocatable (prefix=${pcfiledir}/...), so their -I and -L lead into the
DESTDIR, while libdpdk, which libdpsctp requires, is the system's. Then, in
a scratch directory outside both trees:

  - both .pc files exist, and `pkg-config --cflags` of each names no
    directory of the source or build tree;
  - examples/embedded_hello.c and examples/client_hello.c, copied there,
    compile with `pkg-config --cflags --libs libdpsctp` (plus DPDK's ring
    PMD, which the example itself uses) and `... libdpsctp-client`, with
    -H: every dpsctp header the compiler read is the installed one;
  - the #include lines of docs/API.md's and docs/SIDECAR.md's C blocks
    compile the same way (what a reader copies from the docs works);
  - embedded_hello runs against the installed libdpsctp (two instances on a
    net_ring pair, one message, a graceful close): exit 0;
  - client_hello runs against the installed libdpsctp-client and a real
    dpsctpd from the build tree (--loopback-peer echo): the echo comes back
    intact, exit 0.

usage: public_api_install.py SOURCE_ROOT BUILD_ROOT
"""
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

EAL = ["--no-huge", "--no-pci", "--no-shconf", "-l", "0", "-m", "512",
       "--log-level", "lib.eal:error"]


def run(argv, env=None, timeout=120):
    r = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=timeout)
    return r.returncode, r.stdout


def documented_includes(source, doc):
    """The #include <dpsctp/...> lines of a document's C blocks."""
    with open(os.path.join(source, "docs", doc), encoding="utf-8") as f:
        text = f.read()
    lines = []
    for block in re.findall(r"```c\n(.*?)```", text, re.S):
        lines += [ln.split("/*")[0].strip() for ln in block.split("\n")
                  if re.match(r"\s*#include\s*<dpsctp", ln)]
    return lines


class Check:
    def __init__(self):
        self.failed = 0

    def __call__(self, ok, what, detail=""):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            self.failed += 1
            if detail:
                print(detail[-4000:])
        return ok


def compile_out_of_tree(check, cc, src, exe, flags, dest, trees, what):
    """Compile with -H; every header of ours must come from the DESTDIR."""
    rc, out = run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-H", src, "-o", exe] + flags)
    if not check(rc == 0, f"{what}: compiles with pkg-config's flags alone", out):
        return False
    read = [ln.lstrip(". ").strip() for ln in out.split("\n") if ln.startswith(".")]
    ours = [h for h in read if "dpsctp" in h or "/sctp/" in h]
    outside = [h for h in ours if not os.path.realpath(h).startswith(dest + os.sep)]
    in_tree = [h for h in read if any(os.path.realpath(h).startswith(t + os.sep) for t in trees)]
    check(ours != [] and outside == [] and in_tree == [],
          f"{what}: the headers of ours it read are the installed ones ({len(ours)})",
          "outside the DESTDIR: %s\nfrom the source or build tree: %s" % (outside, in_tree))
    return True


def main():
    source, build = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])
    trees = [source, build]
    check = Check()
    cc = shutil.which("cc") or shutil.which("gcc")
    with tempfile.TemporaryDirectory(prefix="dpsctp-api-") as tmp:
        dest = os.path.join(tmp, "destdir")
        rc, out = run(["meson", "install", "-C", build, "--no-rebuild", "--quiet",
                       "--destdir", dest])
        if not check(rc == 0, "meson install --destdir", out):
            return 1
        pcs = {}
        for name in ("libdpsctp", "libdpsctp-client"):
            found = glob.glob(os.path.join(dest, "**", name + ".pc"), recursive=True)
            check(len(found) == 1, f"{name}.pc installed", str(found))
            if found:
                pcs[name] = found[0]
        if len(pcs) != 2:
            return 1
        pcdirs = sorted({os.path.dirname(p) for p in pcs.values()})
        env = dict(os.environ, PKG_CONFIG_PATH=":".join(pcdirs))
        env.pop("PKG_CONFIG_SYSROOT_DIR", None)
        flags = {}
        for name in pcs:
            rc, out = run(["pkg-config", "--cflags", "--libs", name], env=env)
            check(rc == 0, f"pkg-config --cflags --libs {name}", out)
            flags[name] = out.split()
            named = [f for f in flags[name] if any(t in f for t in trees)]
            check(named == [], f"{name}: no flag names the source or build tree", str(named))
        requires = run(["pkg-config", "--print-requires", "libdpsctp"], env=env)[1]
        check(re.search(r"^libdpdk\b", requires, re.M) is not None,
              "libdpsctp.pc requires libdpdk", requires)
        libdirs = sorted({os.path.realpath(f[2:]) for fl in flags.values() for f in fl
                          if f.startswith("-L")})
        check(any(d.startswith(dest + os.sep) for d in libdirs),
              "the libraries' -L lead into the DESTDIR", str(libdirs))
        run_env = dict(os.environ, LD_LIBRARY_PATH=":".join(libdirs))

        work = os.path.join(tmp, "app")
        os.mkdir(work)
        progs = {}
        for name, pc, extra in (("embedded_hello", "libdpsctp", ["-lrte_net_ring"]),
                                ("client_hello", "libdpsctp-client", [])):
            src = os.path.join(work, name + ".c")
            shutil.copy(os.path.join(source, "examples", name + ".c"), src)
            exe = os.path.join(work, name)
            if compile_out_of_tree(check, cc, src, exe, flags[pc] + extra, dest, trees,
                                   f"examples/{name}.c"):
                progs[name] = exe
        for doc, pc in (("API.md", "libdpsctp"), ("SIDECAR.md", "libdpsctp-client")):
            inc = documented_includes(source, doc)
            if not check(inc != [], f"docs/{doc} shows #include <dpsctp/...> lines"):
                continue
            src = os.path.join(work, "doc_" + pc + ".c")
            with open(src, "w", encoding="utf-8") as f:
                f.write("\n".join(inc) + "\nint main(void) { return 0; }\n")
            compile_out_of_tree(check, cc, src, src[:-2], flags[pc], dest, trees,
                                f"docs/{doc}'s #include lines")

        if "embedded_hello" in progs:
            rc, out = run([progs["embedded_hello"], *EAL], env=run_env, timeout=60)
            check(rc == 0 and 'server: received "hello, dpsctp"' in out,
                  "embedded_hello runs against the installed libdpsctp",
                  f"{out}\nexit status {rc}")
            print(out.strip())

        dpsctpd = os.path.join(build, "apps", "dpsctpd", "dpsctpd")
        if "client_hello" in progs and check(os.access(dpsctpd, os.X_OK),
                                             "dpsctpd is built"):
            sock = os.path.join(tmp, "dd.sock")
            daemon = subprocess.Popen(
                [dpsctpd, *EAL,
                 f"--file-prefix=apiinst{os.getpid()}", "--", "--loopback-peer", "echo",
                 "--socket", sock],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                start_new_session=True)
            try:
                for _ in range(200):
                    if os.path.exists(sock) or daemon.poll() is not None:
                        break
                    time.sleep(0.1)
                if check(os.path.exists(sock), "dpsctpd --loopback-peer echo serves"):
                    rc, out = run([progs["client_hello"], sock, "10.255.0.2", "5001"],
                                  env=run_env, timeout=60)
                    check(rc == 0 and "echo of 21 bytes, intact" in out,
                          "client_hello runs against the installed libdpsctp-client and dpsctpd",
                          f"{out}\nexit status {rc}")
                    print(out.strip())
            finally:
                if daemon.poll() is None:
                    daemon.send_signal(signal.SIGTERM)
                try:
                    daemon.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(daemon.pid, signal.SIGKILL)
                    daemon.wait()
                check(daemon.returncode == 0, "dpsctpd exits 0 on SIGTERM",
                      daemon.stdout.read() if daemon.stdout else "")
    print(f"{check.failed} failed")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
