#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every command the README and docs/*.md show is run, exactly as written.

A first-time user found documented commands that failed (a
dpsctp-perf line and dpsctpd lines out of memory with --no-huge, a -h that
needed a working EAL, an include that did not match pkg-config). This test
reads every fenced ```sh block of README.md and docs/*.md and fails unless
each command in it is

  - run here, verbatim, from the repository root, its exit status checked
    (and its output, where the table below says what to look for); or
  - mapped below (MAPPED) to the existing test that runs it, which is
    checked: a `meson test` line's suite and test names exist, a program
    line is exactly the command line of the named test (meson introspect),
    `./dev.sh test` is what CI (.ci/run) runs; or
  - in a block the docs mark, on the line before its fence, with
    `<!-- not run by tests: REASON -->` (two machines, a NIC, a kernel with
    SCTP, a change to the host, or a run of many minutes).

Nothing is substituted but the build directory: commands say `build`, the
directory ./dev.sh uses; when the tree under test is another one, `build`
(as a path or a word) names it, and ./dev.sh gets it as BUILD_DIR. Programs
named without a path (`dpsctpd`, `dpsctp-perf`, ...) are the build tree's,
on PATH, as `meson install` would put them.

The commands of one block run in one shell, in order, as a user types them:
variables they set stay set; a command ending in `&` runs in the background,
as does a daemon the table names (a user runs it in another terminal); the
test waits until each background command is ready (a path exists, a line
was printed), checks it is still running at the end of its block, stops it
with SIGTERM and checks its exit status. Blocks that need a veth pair run in
a network namespace the test creates and always removes. Unlabelled blocks
that hold commands fail the test: label them ```sh (run) or ```text.

A table entry that names a command no document has fails the test too.

usage: doc_commands.py --source REPO --build BUILD_DIR [--only FILE[:LINE]] [--list]
Exit 0 all pass, 1 a failure (also when not root: namespaces, /run),
77 skipped (the same, with DPSCTP_ALLOW_SKIP=1).
"""

import argparse
import glob
import json
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.prereq import cannot_run  # noqa: E402


# Programs the docs name without a path: build/apps/<name>/<name>.
PROGRAMS = ["dpsctpd", "dpsctp-perf", "dpsctp-echo", "dpsctp-sidecar-echo", "dpsctp-decode"]

# Commands run by an existing test (checked, see mapped_ok()): the test's name.
MAPPED = {
    # README.md, docs/INTEROP.md: the whole suite is what CI runs (.ci/run).
    "./dev.sh test   # set up, build, run every test suite": "CI: .ci/run",
    "sudo ./dev.sh test                                       # runs the interop suite too (root)":
        "CI: .ci/run",
    # docs/SOCKETS.md: the conformance run against Linux's SCTP (a QEMU guest)
    "sudo meson test -C build sock_conform_linux": "sock_conform_linux",
    # docs/INTEROP.md
    "sudo meson test -C build --suite interop                 # the suite alone, ~8 min":
        "suite interop",
    "sudo python3 dataplane/tests/interop/interop.py build    # the matrix (IPv4), one line per run":
        "interop_usrsctp",
    "sudo python3 dataplane/tests/interop/interop.py build --modes raw6 --only multihome "
    "--dirs dpsctp-client   # IPv6": "interop_usrsctp_ipv6",
    "sudo python3 dataplane/tests/interop/interop.py build --only pr-rtx,pr-ttl,no-ext "
    "--modes raw   # PR-SCTP": "interop_usrsctp_pr",
    "sudo python3 dataplane/tests/interop/interop.py build --only idata,idata-pr "
    "--modes raw   # I-DATA": "interop_usrsctp_idata",
    "sudo python3 dataplane/tests/interop/interop.py build --only reconf-out,reconf-in,"
    "reconf-add --modes raw --dirs dpsctp-server   # RE-CONFIG": "interop_usrsctp_reconf",
    "sudo python3 dataplane/tests/interop/interop.py build --only reconf-out,reconf-in,"
    "reconf-add,reconf-assoc --modes raw --dirs dpsctp-client   # dpsctp asks":
        "interop_usrsctp_reconf_client",
    "sudo python3 dataplane/tests/interop/interop.py build --only multihome-ports "
    "--modes raw,raw6   # two ports a side": "interop_usrsctp_ports",
    "sudo python3 dataplane/tests/interop/interop.py build --peer dpsctp --only "
    "multihome-ports --modes raw,raw6 --cut own   # dpsctp both sides, its own port cut":
        "interop_dpsctp_ports",
    "sudo python3 dataplane/tests/interop/replay.py build --variants "
    "--keep build/interop-artifacts/replay   # the corpus replay": "interop_corpus_replay",
    # docs/PMTU.md
    "sudo python3 dataplane/tests/interop/pmtu_ns.py build    # the matrix, one line per run":
        "pmtu_ns",
    "sudo python3 dataplane/tests/interop/pmtu_ns.py build --cases drop --peers dpsctp   "
    "# the MTU lowered between batches": "pmtu_ns_drop",
    # docs/NET.md
    "meson test -C build --suite dp net_l3_veth_test -v": "net_l3_veth_test",
    "build/drivers/port/tests/net_l3_veth_test        # directly, with its output":
        "net_l3_veth_test",
    # docs/SIM.md
    "meson test -C build --suite sim                # or run the binary for the table":
        "suite sim",
    "build/sctp/sim/tests/sim_test": "sim_test",
    # docs/TESTING.md
    "meson test -C build --suite unit                    # one suite": "suite unit",
    "meson test -C build sctp_chunk_sack_test -v         # one test binary":
        "sctp_chunk_sack_test",
    "meson test -C build-fuzz --suite fuzz               # libFuzzer, 30 s a target":
        "suite fuzz",
    "FUZZ_SECONDS=600 meson test -C build-fuzz --suite fuzz   # longer": "suite fuzz",
    "meson test -C build --no-rebuild soak_quick -v   # the 2-minute soak": "soak_quick",
}

# How to run the commands that are not simply run in the foreground and must
# exit 0: background (a path or an output line that says it is ready, the
# exit status expected after SIGTERM), what the output must show, longer
# time limits, the environment.
SPECIAL = {
    # README.md: dev.sh builds the tree under test (BUILD_DIR), then the demo.
    "./dev.sh run    # set up, build, run the demo (no NIC, no hugepages)":
        {"timeout": 240, "expect": r"every echo checked[\s\S]*SHUTDOWN_COMPLETE", "dev_sh": True},
    "build/apps/dpsctp-perf/dpsctp-perf --no-huge --no-pci --no-shconf -l 0-1 -- --loopback "
    "-l 64 --json": {"expect": r'"sum_received"'},
    "build/apps/dpsctp-perf/dpsctp-perf [EAL args] -- -h     # every option; docs/PERF_TOOL.md":
        {"expect": r"usage: dpsctp-perf"},
    "build/apps/dpsctp-decode/dpsctp-decode build/docs/sample.pcap          "
    "# one line per SCTP packet": {"expect": r"SHUTDOWN_COMPLETE"},
    # docs/CONFIG.md
    "dpsctp-perf -l 0 --no-huge --no-pci --no-shconf --vdev net_ring0 -- "
    "--port net_ring0 --ip 10.0.0.1/24 --profile dc -s":
        {"daemon": {"line": r"dpsctp-perf .*: server"}},
    # docs/COUNTERS.md
    "dpsctpd --no-huge --no-pci -l 0 -m 512 --file-prefix dd -- --loopback-peer echo "
    "--socket /tmp/dd-telemetry.sock &": {"daemon": {"path": "/tmp/dd-telemetry.sock"}},
    "dpdk-telemetry.py -l                             # the file prefixes with a telemetry socket":
        {"expect": r"\bdd\b"},
    "echo /dpsctp/stats | dpdk-telemetry.py -f dd     # one reply as JSON, for scripts":
        {"expect": r'"/dpsctp/stats"'},
    # docs/PERF_TOOL.md, through the sidecar
    "dpsctpd $EAL --file-prefix=hpd -- --port net_memif0,socket=/tmp/hperf.memif,"
    "socket-abstract=no,id=0,role=server --ip 10.0.0.1/24 --socket /tmp/hperf.sock "
    "--idle-sleep-us 20": {"daemon": {"path": "/tmp/hperf.sock"}},
    "dpsctp-perf $EAL --file-prefix=hpp -- --port net_memif0,socket=/tmp/hperf.memif,"
    "socket-abstract=no,id=0,role=client,mac=02:00:00:00:00:02 --ip 10.0.0.2/24 -s":
        {"daemon": {"line": r"dpsctp-perf .*: server"}},
    "dpsctp-perf --sidecar /tmp/hperf.sock -s --json": {
        "daemon": {"line": r"server: listening on SCTP port"}},
    # docs/SIDECAR.md, quick start (in a namespace: a veth pair of its own)
    "dpsctpd -l 1 --no-huge -- --port net_af_packet0,iface=veth0 --ip 10.0.0.1/24 "
    "--socket /run/dpsctpd.sock": {"daemon": {"path": "/run/dpsctpd.sock"}},
    "dpsctp-sidecar-echo -s --socket /run/dpsctpd.sock &": {
        "daemon": {"line": r"server: listening on SCTP port"}},
    "dpsctp-echo -l 0 --no-huge --file-prefix peer -- --port net_af_packet1,iface=veth1 "
    "--ip 10.0.0.2/24 -c 10.0.0.1 -n 10000 -l 1200": {"expect": r"10000 echoed intact, 0 bad"},
    "dpsctp-echo -l 0 --no-huge --file-prefix peer -- --port net_af_packet1,iface=veth1 "
    "--ip 10.0.0.2/24 -s &": {"daemon": {"line": r"server: listening on SCTP port"}},
    # docs/SIDECAR.md, without a NIC
    "dpsctpd --no-huge --no-pci -l 0 -m 512 -- --loopback-peer echo --socket /tmp/dd.sock &": {
        "daemon": {"path": "/tmp/dd.sock"}},
}

# Blocks (named by their first command) that run in a network namespace of
# their own, and files their commands leave that the test removes after.
NETNS_BLOCKS = {
    "ip link add veth0 type veth peer name veth1 && ip link set veth0 up && ip link set veth1 up",
}
LEFTOVERS = ["/tmp/hperf.memif", "/tmp/hperf.sock", "/tmp/dd.sock", "/tmp/dd-telemetry.sock",
             "/run/dpsctpd.sock", "/tmp/embedded_hello", "/tmp/client_hello", "/tmp/dpsctp-root"]

# An unlabelled block with a line like these holds commands (label it).
COMMANDISH = re.compile(r"^\s*(\$\s+|\w+\$\s+)?(sudo\s+)?(\./dev\.sh|build[\w-]*/|dpsctp[\w-]*\s|"
                        r"meson\s|ninja\s|python3\s|ip\s+(link|netns|addr)|install\s|docker\s|"
                        r"dpdk-|[A-Z_]+=\S+\s+\S)")
NOT_RUN = re.compile(r"^\s*<!--\s*not run by tests:\s*(.*?)\s*-->\s*$")


class Block:
    def __init__(self, path, line, lang, lines, not_run):
        self.path, self.line, self.lang, self.lines, self.not_run = path, line, lang, lines, not_run

    def where(self):
        return f"{self.path}:{self.line}"

    def commands(self):
        """Logical lines: continuations joined, comment-only and blank lines left out."""
        out, cur = [], []
        for raw in self.lines:
            text = raw.strip()
            if not cur and (text == "" or text.startswith("#")):
                continue
            if text.endswith("\\"):
                cur.append(text[:-1].strip())
                continue
            cur.append(text)
            out.append(" ".join(cur))
            cur = []
        if cur:
            out.append(" ".join(cur))
        return out


def read_blocks(root):
    files = ["README.md"] + sorted(os.path.relpath(p, root)
                                   for p in glob.glob(os.path.join(root, "docs", "*.md")))
    blocks = []
    for rel in files:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            lines = f.read().split("\n")
        i = 0
        while i < len(lines):
            m = re.match(r"^(\s*)```(\S*)\s*$", lines[i])
            if not m:
                i += 1
                continue
            j = i + 1
            while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
                j += 1
            k = i - 1
            while k >= 0 and lines[k].strip() == "":
                k -= 1
            nr = NOT_RUN.match(lines[k]) if k >= 0 else None
            blocks.append(Block(rel, i + 1, m.group(2), lines[i + 1:j],
                                None if nr is None else nr.group(1)))
            i = j + 1
    return blocks


def sub_build(cmd, rel_build):
    """`build` (a path's first part, or a word) names the tree under test."""
    if rel_build == "build":
        return cmd
    return re.sub(r"(?<![\w./-])build(?=/|\s|$)", rel_build, cmd)


# ---- mapped commands ---------------------------------------------------------

def strip_comment(cmd):
    return re.sub(r"\s+#.*$", "", cmd).strip()


def mapped_ok(cmd, target, root, tests):
    """'' when the mapping holds, else why not."""
    words = shlex.split(strip_comment(cmd))
    while words and (words[0] == "sudo" or re.match(r"^[A-Z_]+=", words[0])):
        words = words[1:]
    if target.startswith("CI: "):
        ci = os.path.join(root, target[4:])
        with open(ci, encoding="utf-8") as f:
            lines = [ln.strip() for ln in f]
        return "" if " ".join(words) in lines else f"{target[4:]} does not run {' '.join(words)}"
    names = {t["name"]: t for t in tests}
    suites = {s.split(":")[-1] for t in tests for s in t["suite"]}
    if words[:2] == ["meson", "test"]:
        args = words[2:]
        want_suite, want_names, i = None, [], 0
        while i < len(args):
            if args[i] in ("-C", "--suite"):
                if args[i] == "--suite":
                    want_suite = args[i + 1]
                i += 2
            elif args[i].startswith("-"):
                i += 1
            else:
                want_names.append(args[i])
                i += 1
        if want_suite is not None and want_suite not in suites:
            return f"no suite {want_suite}"
        for n in want_names:
            if n not in names:
                return f"no test {n}"
        if target.startswith("suite "):
            return "" if target[6:] == want_suite else f"maps to {target}, runs {want_suite}"
        return "" if target in want_names else f"maps to {target}, names {want_names}"
    if target not in names:
        return f"no test {target}"
    # The test's command line in the doc's words: python3 by its name, the
    # build tree as `build`, the source tree's files relative to it.
    build = names[target]["_build"]
    have = []
    for w in names[target]["cmd"]:
        if os.path.isabs(w):
            p = os.path.realpath(w)
            if not have and os.path.basename(p).startswith("python3"):
                w = "python3"
            elif p == build:
                w = "build"
            elif p.startswith(build + os.sep):
                w = "build/" + os.path.relpath(p, build)
            elif p.startswith(root + os.sep):
                w = os.path.relpath(p, root)
        have.append(w)
    return "" if have == words else f"{target} runs {' '.join(have)}"


# ---- running -----------------------------------------------------------------

class Session:
    """One bash, fed the block's commands in order; output read by a thread."""

    def __init__(self, root, env, netns=None):
        argv = ["bash", "--norc", "--noprofile"]
        if netns:
            argv = ["ip", "netns", "exec", netns] + argv
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, cwd=root, env=env, text=True,
                                  bufsize=1, start_new_session=True, errors="replace")
        self.q = queue.Queue()
        self.mark = f"__doc_commands_{os.getpid()}__"
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line)
        self.q.put(None)

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def until(self, pred, timeout, out):
        """Collect output into out until pred(line) holds; the line, or None."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.q.get(timeout=min(left, 0.2))
            except queue.Empty:
                if pred(None):
                    return ""
                continue
            if line is None:
                return None
            out.append(line)
            sys.stdout.write("    | " + line)
            if pred(line):
                return line

    def run(self, cmd, timeout):
        """A foreground command: its exit status (None: timed out) and output."""
        out = []
        self.send("{ " + cmd + "\n} </dev/null; echo \"" + self.mark + " $?\"")
        line = self.until(lambda ln: ln is not None and self.mark in ln, timeout, out)
        if not line:
            return None, "".join(out)
        out.pop()
        return int(line.split(self.mark)[1].split()[0]), "".join(out)

    def background(self, cmd):
        """A command in the background (as given when it ends in &, else
        ended with one before its comment): its pid, and output so far."""
        out = []
        bg = cmd if strip_comment(cmd).endswith("&") else strip_comment(cmd) + " &"
        self.send(bg + "\necho \"" + self.mark + " $!\"")
        line = self.until(lambda ln: ln is not None and self.mark in ln, 10, out)
        return (int(line.split(self.mark)[1].split()[0]) if line else None), out

    def close(self):
        try:
            os.killpg(self.p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
        return f.read().split(")")[-1].split()[0] != "Z"


def run_block(block, root, rel_build, env, failures):
    cmds = [c for c in block.commands() if c not in MAPPED]
    if not cmds:
        return
    netns = None
    if block.commands()[0] in NETNS_BLOCKS:
        netns = f"dpdoc{os.getpid()}"
        subprocess.run(["ip", "netns", "add", netns], check=True)
        subprocess.run(["ip", "-n", netns, "link", "set", "lo", "up"], check=True)
    print(f"== {block.where()}{' (in namespace ' + netns + ')' if netns else ''}")
    s = Session(root, env, netns)
    daemons = []  # (command, pid, expected exit status)
    try:
        for doc_cmd in cmds:
            spec = SPECIAL.get(doc_cmd, {})
            cmd = sub_build(doc_cmd, rel_build)
            print(f"  $ {cmd}")
            if "daemon" in spec or doc_cmd.rstrip().endswith("&"):
                d = spec.get("daemon", {})
                pid, out = s.background(cmd)
                if pid is None:
                    failures.append(f"{block.where()}: {doc_cmd}: did not start")
                    return
                ok = wait_ready(s, pid, d, out)
                if not ok:
                    failures.append(f"{block.where()}: {doc_cmd}: not ready in 30 s "
                                    f"({'exited' if not alive(pid) else 'still running'})")
                    return
                daemons.append((doc_cmd, pid, d.get("status", 0)))
                continue
            rc, out = s.run(cmd, spec.get("timeout", 120))
            if rc is None:
                failures.append(f"{block.where()}: {doc_cmd}: no end in "
                                f"{spec.get('timeout', 120)} s")
                return
            if rc != spec.get("status", 0):
                failures.append(f"{block.where()}: {doc_cmd}: exit status {rc}")
                continue
            if "expect" in spec and not re.search(spec["expect"], out, re.M):
                failures.append(f"{block.where()}: {doc_cmd}: output lacks /{spec['expect']}/")
            # A filter that matches no test passes silently: not here.
            if "--gtest_filter" in cmd and not re.search(r"^\[  PASSED  \] [1-9]", out, re.M):
                failures.append(f"{block.where()}: {doc_cmd}: the filter ran no test")
        for doc_cmd, pid, want in reversed(daemons):
            if not alive(pid):
                failures.append(f"{block.where()}: {doc_cmd}: ended before the block did")
                continue
            rc, _ = s.run(f"kill -TERM {pid}; wait {pid}", 30)
            if rc != want:
                failures.append(f"{block.where()}: {doc_cmd}: exit status {rc} after SIGTERM "
                                f"(want {want})")
    finally:
        s.close()
        if netns:
            subprocess.run(["ip", "netns", "del", netns], check=False)
        for p in LEFTOVERS:
            if os.path.isdir(p) and not os.path.islink(p):
                shutil.rmtree(p, ignore_errors=True)  # an install's --destdir
            elif os.path.lexists(p):
                os.unlink(p)


def wait_ready(s, pid, d, out):
    """A background command is ready: its path exists, or it printed its line."""
    end = time.monotonic() + 30
    seen = "".join(out)
    rx = re.compile(d["line"], re.M) if "line" in d else None
    while time.monotonic() < end:
        if not alive(pid):
            return False
        if "path" in d and os.path.exists(d["path"]):
            break
        if rx is not None and rx.search(seen):
            break
        if not d:
            break
        more = []
        s.until(lambda ln: True, 0.2, more)
        seen += "".join(more)
    else:
        return False
    time.sleep(d.get("settle", 0.2))
    return alive(pid)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--only", default="", help="FILE or FILE:LINE of one block")
    ap.add_argument("--list", action="store_true", help="print what would run, run nothing")
    args = ap.parse_args()
    root = os.path.realpath(args.source)
    build = os.path.realpath(args.build)
    rel_build = os.path.relpath(build, root)
    with open(os.path.join(build, "meson-info", "intro-tests.json"), encoding="utf-8") as f:
        tests = json.load(f)
    for t in tests:
        t["_build"] = build

    failures = []
    blocks = read_blocks(root)
    seen = set()
    for b in blocks:
        seen.update(b.commands())
        if b.lang == "" and any(COMMANDISH.match(ln) for ln in b.lines):
            failures.append(f"{b.where()}: an unlabelled block with commands: label it ```sh "
                            "(the test runs it) or ```text")
        if b.lang in ("sh", "bash", "shell", "console") and b.not_run == "":
            failures.append(f"{b.where()}: 'not run by tests' without a reason")
    for table, name in ((MAPPED, "MAPPED"), (SPECIAL, "SPECIAL"), (NETNS_BLOCKS, "NETNS_BLOCKS")):
        for cmd in table:
            if cmd not in seen:
                failures.append(f"{name} names a command no document has: {cmd}")

    sh = [b for b in blocks if b.lang in ("sh", "bash", "shell", "console")]
    for b in sh:
        if b.not_run:
            print(f"-- {b.where()}: not run ({b.not_run})")
            continue
        for c in b.commands():
            if c in MAPPED:
                why = mapped_ok(c, MAPPED[c], root, tests)
                print(f"-- {b.where()}: {c}\n     run by {MAPPED[c]}"
                      f"{'' if not why else ': NO, ' + why}")
                if why:
                    failures.append(f"{b.where()}: {c}: mapped to {MAPPED[c]}, but {why}")

    if args.list:
        for b in sh:
            if not b.not_run:
                for c in b.commands():
                    if c not in MAPPED:
                        print(f"run {b.where()}: {c}")
        return 0 if not failures else 1
    if os.geteuid() != 0:
        return cannot_run("needs root (network namespaces, /run/dpsctpd.sock)")

    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([os.path.join(build, "apps", p) for p in PROGRAMS] +
                                  [env.get("PATH", "/usr/bin:/bin")])
    env["BUILD_DIR"] = rel_build  # ./dev.sh's build tree: the one under test
    env["DEVSH_NO_INSTALL"] = "1"  # a test installs nothing on the host
    for b in sh:
        if b.not_run:
            continue
        if args.only and not (b.where() == args.only or b.path == args.only):
            continue
        t0 = time.monotonic()
        run_block(b, root, rel_build, env, failures)
        print(f"   ({time.monotonic() - t0:.1f} s)")

    for f in failures:
        print("FAIL: " + f)
    print("PASS" if not failures else f"FAIL: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
