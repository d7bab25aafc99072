#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""[interop] libdpsctp-sock against the Linux kernel's SCTP, case by case.

sock_conform.c runs a fixed list of cases of the one-to-one SCTP socket
API (socket types, options set and read back, bind/listen/accept/connect
and their errnos, notifications, messages with their control messages,
partial reads, PEEK, NXTINFO, STATUS, shutdown, abort, close with unread
data), each printing one normalized line. It runs twice:

  linux    the static build as /peer of linux_vm.py's guest (Debian's
           kernel in QEMU): server and client on 127.0.0.1 in one boot.
           Its own image directory, BUILD/sock-conform-vm (the kernel
           package is taken from interop.py's BUILD/linux-vm when that
           has it; linux_vm.py keeps the image while its stamp holds)
  library  the dynamic build under LD_PRELOAD=libdpsctp-sock.so: the
           server through dpsctpd A, the client through dpsctpd B, two
           daemons on a memif link in a namespace (sock_test.py's NsPair)

and the lines are compared one by one. A difference fails the test unless
ALLOWED lists it, with the sentence of docs/SOCKETS.md that documents it
(checked to be there) and the library's line it allows. --guest-runs N
boots the guest N times and fails when Linux's own lines differ between
boots (every case line must be deterministic); --host-runs N the same on
the library.

usage: sock_conform.py BUILD_DIR [--guest-runs N] [--host-runs N]
                       [--only linux|library] [--port P] [-v]

Exit status: 0 every line matches or is allowed, 1 a difference (or a run
that did not finish), 77 with DPSCTP_ALLOW_SKIP=1 when it cannot run here.
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "apps" / "dpsctpd" / "tests"))
sys.path.insert(0, str(HERE))
from tests.prereq import cannot_run  # noqa: E402

LINUX_VM = ROOT / "dataplane" / "tests" / "interop" / "linux_vm.py"
STATIC = "dataplane/sidecar/sock/tests/sock-conform-static"
DYNAMIC = "dataplane/sidecar/sock/tests/sock-conform"
LIB = "dataplane/sidecar/sock/libdpsctp-sock.so"
DAEMON = "apps/dpsctpd/dpsctpd"
SOCKETS_MD = ROOT / "docs" / "SOCKETS.md"

# Known differences, each documented in docs/SOCKETS.md: case -> (the
# sentence there, a regular expression the library's line must match for
# the difference to be allowed). Anything else that differs is a finding.
ALLOWED = {
    "cli.opt_auth_key": (
        "Not served (`ENOPROTOOPT`): SCTP-AUTH's options",
        r"^set: rc=-1 errno=ENOPROTOOPT get_active_key: rc=-1 errno=ENOPROTOOPT$"),
    "cli.opt_disable_fragments": (
        "0 only (messages are always fragmented): 1 is `EOPNOTSUPP`",
        r"^set1: rc=-1 errno=EOPNOTSUPP get: rc=0 errno=- value=0 len=4 "
        r"set0: rc=0 errno=-$"),
}

# An accepted association's streams are the daemon's, not the listening
# socket's SCTP_INITMSG: both ends' COMM_UP and STATUS show other counts.
LISTENER_STREAMS = ("An accepted association offers the daemon's streams (`--max-streams`, "
                    "`--out-streams`), not the listening socket's `SCTP_INITMSG`")
COMM_UP_LINE = (r"^rc=20 errno=- flags=NOTIFICATION\|EOR from=AF_INET/16 cmsgs=none "
                r"notif=ASSOC_CHANGE nflags=0 nlen=20 state=COMM_UP error=0 out=\d+ in=\d+ info=-$")
STATUS_LINE = (r"^rc=0 errno=- state=ESTABLISHED instrms=\d+ outstrms=\d+ primary_family=AF_INET "
               r"primary_state=2 len=176$")
for case in ("srv.comm_up", "srv.abort_comm_up", "srv.unread_comm_up", "cli.comm_up",
             "cli.abort_comm_up"):
    ALLOWED[case] = (LISTENER_STREAMS, COMM_UP_LINE)
for case in ("srv.status", "cli.status"):
    ALLOWED[case] = (LISTENER_STREAMS, STATUS_LINE)
# POLLERR: a descriptor pair cannot raise it; the same waits end with POLLIN
# (and POLLOUT), and SO_ERROR and the receive say what Linux says.
NO_POLLERR = "`POLLERR` is never reported"
ALLOWED["srv.abort_wait"] = (NO_POLLERR, r"^pollin=IN$")
ALLOWED["srv.unread_wait"] = (NO_POLLERR, r"^pollin=IN$")
ALLOWED["srv.abort_ready"] = (NO_POLLERR, r"^ready=IN\|OUT$")
ALLOWED["cli.connect_refused_nonblock"] = (
    NO_POLLERR,
    r"^connect: rc=-1 errno=EINPROGRESS pollout=OUT ready=IN\|OUT so_error=ECONNREFUSED "
    r"recvmsg: rc=20 errno=- flags=NOTIFICATION\|EOR from=AF_INET/16 cmsgs=none "
    r"notif=ASSOC_CHANGE nflags=0 nlen=20 state=CANT_STR_ASSOC error=0 out=0 in=0 info=- "
    r"connect_again: rc=-1 errno=EINPROGRESS$")

CASE = re.compile(r"^case ([A-Za-z0-9_.]+):\s?(.*)$")


def log(*a):
    print(*a, flush=True)


def parse(text):
    """{case: rest of its line}, the case names in order, and the other lines."""
    cases, order, other = {}, [], []
    for ln in text.splitlines():
        m = CASE.match(ln.strip())
        if m is None:
            other.append(ln)
            continue
        name, rest = m.group(1), m.group(2).strip()
        if name in cases:
            other.append("duplicate case line: " + ln)
            continue
        cases[name] = rest
        order.append(name)
    return cases, order, other


# ---------------------------------------------------------------- Linux, in the guest

def guest_image(build):
    """linux_vm.py's image with the static sock-conform as /peer, in a directory
    of its own (interop.py's holds linux-sctp-peer). (DIR, None) or (None, why)."""
    d = os.path.join(build, "sock-conform-vm")
    os.makedirs(d, exist_ok=True)
    # The kernel package interop.py downloaded: the same file, no second download.
    src = os.path.join(build, "linux-vm")
    if os.path.isdir(src) and not any(f.endswith(".deb") for f in os.listdir(d)):
        for f in os.listdir(src):
            if f.startswith("linux-image-") and f.endswith(".deb"):
                try:
                    os.link(os.path.join(src, f), os.path.join(d, f))
                except OSError:
                    shutil.copy2(os.path.join(src, f), os.path.join(d, f))
    r = subprocess.run([sys.executable, str(LINUX_VM), "image", "--dir", d, "--peer",
                        os.path.join(build, STATIC)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    last = (r.stdout.strip().splitlines() or ["no output"])[-1]
    log("sock_conform: linux_vm.py image: %s" % last)
    if r.returncode != 0:
        return None, "linux_vm.py image failed (exit %d): %s" % (r.returncode, r.stdout[-2000:])
    return d, None


def guest_script(port):
    """The guest's command line (one line: linux_vm.py passes it in /run.conf):
    the server in the background, the client once the server says it listens,
    each bounded in time; then both outputs, the server's first."""
    return ("timeout -s KILL 240 /peer server %d >/tmp/s.log 2>&1 & sp=$!; i=0; "
            "until grep -q '^info ready' /tmp/s.log 2>/dev/null; do i=$((i+1)); "
            "[ $i -le 300 ] || break; sleep 0.1; done; "
            "timeout -s KILL 240 /peer client 127.0.0.1 %d >/tmp/c.log 2>&1; c=$?; "
            "wait $sp; s=$?; echo '== server'; cat /tmp/s.log; echo '== client'; "
            "cat /tmp/c.log; echo \"== exit server $s client $c\"" % (port, port))


def run_guest(vm_dir, port, verbose):
    argv = [sys.executable, str(LINUX_VM), "run", "--dir", vm_dir, "--boot-timeout", "120",
            "--exec", "--", "sh", "-c", guest_script(port)]
    t0 = time.monotonic()
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=600)
    log("sock_conform: guest run: exit %d in %.1f s" % (r.returncode, time.monotonic() - t0))
    if verbose or r.returncode != 0:
        print(r.stderr, end="")
    m = re.search(r"^== exit server (\d+) client (\d+)", r.stdout, re.M)
    ok = r.returncode == 0 and m is not None and m.groups() == ("0", "0")
    return r.stdout, ok


# ---------------------------------------------------------------- the library, on the host

def run_host(build, port, verbose):
    from dpsctpd_test import DAEMON_IP, Proc, Rig  # noqa: E402
    from sock_test import NsPair  # noqa: E402

    rig = Rig(build, "sc%d" % os.getpid())
    ns = NsPair(rig)
    exe = os.path.join(build, DYNAMIC)
    out, ok = "", False
    try:
        ns.up()
        srv = Proc("server", ns.run(ns.sa, [exe, "server", str(port)]))
        rig.procs.append(srv)
        if srv.wait_line(r"^info ready", 30) is None:
            return "== server\n%s\n" % srv.text(), False
        t0 = time.monotonic()
        try:
            cli = subprocess.run(ns.run(ns.sb, [exe, "client", DAEMON_IP, str(port)]),
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 timeout=300)
            ctext, crc = cli.stdout, cli.returncode
        except subprocess.TimeoutExpired as e:
            ctext, crc = (e.stdout or b"").decode(errors="replace"), "timeout"
        src = srv.wait(60)
        log("sock_conform: host run: server exit %s, client exit %s in %.1f s"
            % (src, crc, time.monotonic() - t0))
        out = "== server\n%s\n== client\n%s" % (srv.text(), ctext)
        ok = src == 0 and crc == 0
    finally:
        if verbose:
            for p in rig.procs:
                if p.name.startswith("dpsctpd"):
                    print("--- %s\n%s" % (p.name, p.text()[-3000:]))
        rig.stop()
        ns.down()
    return out, ok


# ---------------------------------------------------------------- comparison

def token_diff(a, b):
    """The tokens of a and b that differ, as '-x +y' pieces."""
    ta, tb = a.split(), b.split()
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=ta, b=tb, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        out.append("linux: %s | library: %s" % (" ".join(ta[i1:i2]) or "(nothing)",
                                                " ".join(tb[j1:j2]) or "(nothing)"))
    return out


def doc_text():
    """docs/SOCKETS.md as one line, without bold marks."""
    return re.sub(r"\s+", " ", SOCKETS_MD.read_text().replace("**", ""))


def compare(linux, lib):
    """Print the table; the number of differences not allowed."""
    lcases, lorder, _ = parse(linux)
    bcases, border, _ = parse(lib)
    doc = doc_text()
    names = lorder + [n for n in border if n not in lcases]
    rows, bad = [], 0
    for n in names:
        lv, bv = lcases.get(n), bcases.get(n)
        if lv is not None and lv == bv:
            rows.append(("match", n, None))
            continue
        allowed = ALLOWED.get(n)
        if lv is not None and bv is not None and allowed is not None:
            sentence, rx = allowed
            if re.search(rx, bv) and re.sub(r"\s+", " ", sentence) in doc:
                rows.append(("known", n, sentence))
                continue
            if re.sub(r"\s+", " ", sentence) not in doc:
                rows.append(("DIFF", n, "allow-list sentence no longer in docs/SOCKETS.md: "
                             + sentence))
                bad += 1
                continue
        what = ("missing on the library" if bv is None else
                "missing on Linux" if lv is None else "differs")
        rows.append(("DIFF", n, what))
        bad += 1
    w = max(len(n) for _, n, _ in rows) if rows else 10
    log("\n%-6s %-*s %s" % ("", w, "case", "linux vs library"))
    for verdict, n, why in rows:
        log("%-6s %-*s %s" % (verdict, w, n, "" if verdict == "match" else why))
        if verdict != "match":
            lv, bv = lcases.get(n), bcases.get(n)
            if verdict == "DIFF" and lv is not None and bv is not None:
                for piece in token_diff(lv, bv):
                    log("%-6s %-*s   %s" % ("", w, "", piece))
            if verdict == "DIFF" or os.environ.get("SOCK_CONFORM_VERBOSE"):
                log("%-6s %-*s   linux:   %s" % ("", w, "", lv))
                log("%-6s %-*s   library: %s" % ("", w, "", bv))
    counts = {}
    for verdict, _, _ in rows:
        counts[verdict] = counts.get(verdict, 0) + 1
    log("\nsock_conform: %d cases: %d match, %d known differences (docs/SOCKETS.md), "
        "%d differences" % (len(rows), counts.get("match", 0), counts.get("known", 0),
                            counts.get("DIFF", 0)))
    return bad


def same_runs(who, runs):
    """Whether every run gave the first one's lines (each case deterministic)."""
    base, order, _ = parse(runs[0])
    same = True
    for i, other in enumerate(runs[1:], 2):
        oc, oorder, _ = parse(other)
        for n in sorted(set(n for n in order + oorder if base.get(n) != oc.get(n))):
            log("sock_conform: NOT DETERMINISTIC on %s (runs 1 and %d): %s\n  1: %s\n  %d: %s"
                % (who, i, n, base.get(n), i, oc.get(n)))
            same = False
    if len(runs) > 1 and same:
        log("sock_conform: %s's %d lines are the same in %d runs" % (who, len(order), len(runs)))
    return same


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--guest-runs", type=int, default=1,
                    help="boot the guest N times: Linux's lines must not change")
    ap.add_argument("--host-runs", type=int, default=1,
                    help="run on the library N times: its lines must not change")
    ap.add_argument("--only", choices=("linux", "library"))
    ap.add_argument("--port", type=int, default=5000)
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    if os.geteuid() != 0:
        return cannot_run("sock_conform: needs root (namespaces, DPDK's memif, QEMU's guest)")
    need = [STATIC] if a.only == "linux" else [DYNAMIC, LIB, DAEMON] if a.only == "library" \
        else [STATIC, DYNAMIC, LIB, DAEMON]
    for rel in need:
        if not os.path.exists(os.path.join(build, rel)):
            return cannot_run("sock_conform: %s not built (DPDK or a static C library missing)"
                              % rel)
    if a.only != "library":
        for what, there in (("qemu-system-x86_64 (qemu-system-x86)",
                             shutil.which("qemu-system-x86_64")),
                            ("/bin/busybox (busybox-static)", os.path.exists("/bin/busybox"))):
            if not there:
                return cannot_run("sock_conform: %s missing (./dev.sh setup installs it)" % what)

    failed = False
    linux = None
    if a.only != "library":
        vm_dir, why = guest_image(build)
        if vm_dir is None:
            log("sock_conform: %s" % why)
            return 1
        runs = []
        for i in range(max(1, a.guest_runs)):
            out, ok = run_guest(vm_dir, a.port, a.v)
            if a.v or not ok:
                print(out, end="")
            if not ok:
                log("sock_conform: the guest run %d did not finish" % (i + 1))
                return 1
            runs.append(out)
        linux = runs[0]
        failed |= not same_runs("Linux", runs)
    lib = None
    if a.only != "linux":
        runs = []
        for i in range(max(1, a.host_runs)):
            out, ok = run_host(build, a.port, a.v)
            if a.v or not ok:
                print(out, end="")
            if not ok:
                log("sock_conform: the run on the library did not finish (its cases so far "
                    "are compared)")
                failed = True
            runs.append(out)
        lib = runs[0]
        failed |= not same_runs("the library", runs)
    if a.only is not None:
        text = linux if a.only == "linux" else lib
        cases, order, _ = parse(text)
        for n in order:
            log("%s: %s" % (n, cases[n]))
        return 1 if failed else 0
    bad = compare(linux, lib)
    return 1 if bad or failed else 0


if __name__ == "__main__":
    sys.exit(main())
