#!/usr/bin/env python3
"""[dp] dpsctpd with real applications and a real peer.

dpsctpd owns one end of a net_memif link (memif server role, 10.0.0.1); the
peer, dpsctp-echo in another process, owns the other (memif client role,
10.0.0.2). Applications attach to dpsctpd with libdpsctp-client:
dpsctp-sidecar-echo, and dd_probe for what a well-behaved program would not
do. Each case starts its own daemon and peer and always stops them.

  two-apps    two echo clients at once, different sizes and streams: every
              echo intact; dd_probe isolation: an application cannot name
              another's association (-ENOENT) nor take its port (-EADDRINUSE)
              and never hears of it
  app-killed  kill -9 of an application mid-transfer: the peer sees an ABORT
              (User-Initiated Abort, cause 12), and dpsctpd's associations,
              memory for applications, shared regions and mbufs in use
              return to their values before it attached (/dpsctpd/stats)
  garbage     dd_probe writes an unknown request and a RESET_STREAMS with
              an unknown flag (-EPROTO back for each, stays attached) and then a request ring head beyond the ring
              (detached) while another application's transfer goes on intact
  zero-copy   dpsctpd --zero-copy: dd_probe's echoes of 1 B .. 20 KB arrive by
              reference into the daemon's packet buffers (mapped read-only),
              intact, and every buffer returns to the pool once read
  loopback-peer  dpsctpd --loopback-peer echo (no NIC, no memif): two echo
              clients through the daemon to the peer in its process
  loopback-parts  messages the data plane delivers in parts (above
              64 packets, or half the window) come back through --loopback-peer
              echo as one message of their size, intact, by copy and by reference
  loopback-events  COMM_UP names the peer, its port and ours, with
              --max-streams' 64 streams; CANT_START says why: a port nobody
              listens on (the peer's ABORT) and an address nobody answers from
              (INIT retransmissions exhausted) read differently
  pr-sctp     dd_probe prsctp through --loopback-peer echo: COMM_UP says
              PR-SCTP and I-DATA were negotiated (PR-SCTP alone with
              --extensions pr-sctp, neither with none); sends with each PR-SCTP
              policy complete with 0 (dpsctpd refused a lifetime once) and
              come back intact
  sched       dd_probe sched through --loopback-peer echo, with the default
              --sched and with --sched prio: the scheduler and the streams'
              parameters set and read back per association, each error
              (-EINVAL, -ENOENT, -EBUSY) back in its completion; --check
              prints sched and refuses an unknown one, naming the schedulers
  opts        dd_probe opts through --loopback-peer echo: per-association
              options set and read back, STATUS and PEER_ADDR_INFO, refusals
              with the option's message, isolation, the application's
              defaults, INITMSG at connect, malformed option requests;
              dpsctp-perf --sidecar with per-association options (one
              refused by dpsctpd: exit 2); then
              dd_probe opts-accept over memif: an association a dpsctp-echo
              peer opens has the application's defaults, its messages echoed
  reconf      dd_probe reconf through --loopback-peer echo (--max-streams 16
              --out-streams 8): COMM_UP lists RE-CONFIG; outgoing and incoming
              stream resets come back as STREAM_RESET naming the streams, added
              streams as STREAM_CHANGE with the new counts (and a message on a
              new stream echoed on it), streams past --max-streams -EINVAL
              in the completion, the association reset as ASSOC_RESET;
              -EINPROGRESS, -EINVAL, -ENOENT in their completions, a bad flag
              -EINVAL in the library; with --extensions pr-sctp,i-data each
              request is -EOPNOTSUPP
  cpl-ring    dd_probe cplring, every completion-ring fill level
              under every mix of quiet and other requests, through
              --loopback-peer echo: each request answered once, in order, every
              byte echoed and counted by the peer
  listeners   ports come back when an application leaves or is
              killed, and with UNLISTEN (--listeners 4)
  app-limits  per-application association limits leave room for
              another application, count accepted associations, and --check
              refuses limits that let one application take everything
  silent-clients  six connections that never say hello, opened
              again each time dpsctpd turns them away (beyond --max-pending 4,
              and after the hello timeout), while an echo client's 3000
              echoes come back intact; the loop's heartbeat in /dpsctpd/stats
              stays fresh, and shows a loop stopped on purpose (ptrace of the
              loop thread alone) as loop_age_us growing
  second-daemon  a second dpsctpd on the same --socket exits 3 and
              says why, the first still serves; after a kill -9 of the first,
              its stale socket is replaced by the next daemon
  quiet-stdout  dpsctpd's stdout is a pipe nobody reads; 200
              attach/detach cycles (its log lines fill the pipe) and an echo
              run go on, dropped lines are counted (log_lost), SIGTERM stops it
  workers     dpsctpd --queues 2 (two worker lcores) --loopback-peer echo:
              two applications (dd_probe workers) open 32 associations each
              from one thread, spread over both workers by their handles;
              200 messages on each, every echo checked (association,
              sequence, bytes), a barrier completed once, a GETOPT answered
              per association, each shut down; /dpsctpd/workers shows both
              workers' loops running and each one's share of the
              associations and messages, /dpsctpd/apps each application's;
              an echo client after them is intact; SIGTERM stops all workers;
              --queues 3 with two lcores is refused, saying why
  workers-accept  dpsctpd --queues 2 over a two-queue memif link, an echo
              server listening (dpsctp-sidecar-echo -s); the peer (dd_wpeer,
              two workers) opens 16 associations, each on its worker i mod 2,
              so its INITs arrive on both of the daemon's queues and each
              worker answers those of its queue: the application accepts
              associations owned by both workers (their handles say which),
              /dpsctpd/workers counts 8 opened on each; 200 messages on
              each, every echo checked by the peer (association, order,
              bytes); once with copies, once with the server's --zero-copy
              (every message received by reference on both workers, every
              packet buffer back afterwards: as many in use at rest as after
              the run with copies); each round on a daemon of its own
  access      --socket-mode 0666 --allow-uid 4242 --allow-gid 4343: a listed
              user and a listed group attach and echo, anyone else is refused
              EACCES with a hint, counted refused_cred
  restart     dpsctp-sidecar-echo -s --reattach serves the peer's echo client;
              dpsctpd is stopped and started again; the application sees it
              go, attaches to the new one, listens again, and a second peer
              client run is echoed intact

usage: dpsctpd_test.py BUILD_DIR CASE
"""
import array
import ctypes
import fcntl
import json
import os
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.prereq import cannot_run  # noqa: E402

EAL = ["-l", "0", "--no-huge", "--no-pci", "-m", "512", "--log-level", "lib.eal:error"]
DAEMON_IP, PEER_IP = "10.0.0.1", "10.0.0.2"


class Proc:
    """A process whose output is collected as it comes (and can be waited for)."""

    def __init__(self, name, argv, env=None):
        self.name, self.lines = name, []
        self.cv = threading.Condition()
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, env=env)
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _read(self):
        for ln in self.p.stdout:
            with self.cv:
                self.lines.append(ln.rstrip("\n"))
                self.cv.notify_all()

    def wait_line(self, pattern, timeout):
        rx, end = re.compile(pattern), time.time() + timeout
        with self.cv:
            while time.time() < end:
                for ln in self.lines:
                    if rx.search(ln):
                        return ln
                if self.p.poll() is not None and not self.t.is_alive():
                    return None
                self.cv.wait(0.1)
        return None

    def wait(self, timeout):
        try:
            rc = self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = None
        self.t.join(2)
        return rc

    def stop(self, sig=signal.SIGTERM, timeout=20):
        if self.p.poll() is None:
            self.p.send_signal(sig)
        return self.wait(timeout)

    def text(self):
        return "\n".join(self.lines)


class Rig:
    """dpsctpd and the peer over one memif link; stop() undoes everything."""

    def __init__(self, build, tag):
        self.build, self.tag = build, tag
        self.memif = f"/tmp/{tag}.memif"
        self.sock = f"/tmp/{tag}.dpsctpd"
        self.procs = []
        self.failures = []

    def exe(self, rel):
        return os.path.join(self.build, rel)

    def start_daemon(self, n=0, extra=(), eal=EAL):
        for f in (self.memif, self.sock):
            if os.path.exists(f):
                os.unlink(f)
        prefix = f"{self.tag}d{n}"
        d = Proc("dpsctpd", [self.exe("apps/dpsctpd/dpsctpd"), *eal, f"--file-prefix={prefix}",
                             "--", "--port", f"net_memif0,socket={self.memif},"
                             "socket-abstract=no,id=0,role=server",
                             "--ip", DAEMON_IP + "/24", "--socket", self.sock,
                             "--idle-sleep-us", "20", *extra])
        self.procs.append(d)
        if d.wait_line(r"dpsctpd: serving", 20) is None:
            raise RuntimeError("dpsctpd did not start:\n" + d.text())
        self.telemetry = f"/var/run/dpdk/{prefix}/dpdk_telemetry.v2"
        return d

    def start_peer(self, args, n=0):
        p = Proc("peer", [self.exe("apps/dpsctp-echo/dpsctp-echo"), *EAL,
                          f"--file-prefix={self.tag}p{n}", "--", "--port",
                          f"net_memif0,socket={self.memif},socket-abstract=no,id=0,role=client",
                          "--ip", PEER_IP + "/24", *args])
        self.procs.append(p)
        # An INIT that reaches the peer before it listens is answered with an
        # ABORT (RFC 9260 section 8.4), so clients start only after this line.
        if "-s" in args and p.wait_line(r"server: listening", 30) is None:
            raise RuntimeError("the peer did not start listening:\n" + p.text())
        return p

    def app(self, name, args):
        p = Proc(name, [self.exe("apps/dpsctp-sidecar-echo/dpsctp-sidecar-echo"), "--socket",
                        self.sock, "--name", name, *args])
        self.procs.append(p)
        return p

    def probe(self, args, timeout=60):
        r = subprocess.run([self.exe("apps/dpsctpd/dd_probe"), self.sock, *args],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=timeout)
        print(r.stdout, end="")
        return r.returncode

    def stats(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        s.connect(self.telemetry)
        s.recv(16384)
        s.send(b"/dpsctpd/stats")
        d = json.loads(s.recv(65536))["/dpsctpd/stats"]
        s.close()
        return d

    def settle(self, want, timeout=10):
        """Stats once every key of want has its value. The telemetry copy is
        refreshed every 100 ms: without the first wait, a copy taken before
        what the caller just did can already match (no applications, no
        associations) and say nothing of it (a CI run read a zero-copy
        counter from before the probe ran)."""
        time.sleep(0.25)
        end, st = time.time() + timeout, {}
        while time.time() < end:
            st = self.stats()
            if all(st.get(k) == v for k, v in want.items()):
                return st
            time.sleep(0.1)
        return st

    def check(self, cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            self.failures.append(what)

    def stop(self):
        for p in reversed(self.procs):
            if p.p.poll() is None:
                p.p.kill()
                p.wait(5)
        for f in (self.memif, self.sock):
            if os.path.exists(f):
                os.unlink(f)


ECHOED = r"(\d+) sent, (\d+) echoed intact, (\d+) bad"


def echoed_all(p, n):
    m = re.search(ECHOED, p.text())
    return m is not None and int(m.group(2)) == n and int(m.group(3)) == 0


def case_two_apps(rig):
    rig.start_daemon()
    rig.start_peer(["-s"])
    a = rig.app("app-A", ["-c", PEER_IP, "-n", "3000", "-l", "1200", "--streams", "4"])
    b = rig.app("app-B", ["-c", PEER_IP, "-n", "5000", "-l", "100", "--streams", "8"])
    rig.check(a.wait(120) == 0 and echoed_all(a, 3000), "app-A: 3000 x 1200 B echoed intact")
    rig.check(b.wait(120) == 0 and echoed_all(b, 5000), "app-B: 5000 x 100 B echoed intact")
    rig.check(rig.probe(["isolation", PEER_IP, "5001"]) == 0,
              "isolation: another application's association and port are not reachable")
    st = rig.settle({"apps": 0, "assocs": 0})
    rig.check(st.get("apps") == 0 and st.get("assocs") == 0,
              "everything detached and closed afterwards (%s)" % st)


def case_app_killed(rig):
    rig.start_daemon()
    peer = rig.start_peer(["-s"])
    # The peer's ARP entry and the first association settle the baseline.
    warm = rig.app("warm-up", ["-c", PEER_IP, "-n", "10"])
    rig.check(warm.wait(60) == 0, "warm-up run")
    base = rig.settle({"apps": 0, "assocs": 0})
    victim = rig.app("victim", ["-c", PEER_IP, "-n", "100000000", "-l", "1000"])
    end = time.time() + 30
    while time.time() < end and rig.stats().get("recv_msgs", 0) < base.get("recv_msgs", 0) + 2000:
        time.sleep(0.1)
    mid = rig.stats()
    rig.check(mid.get("apps") == 1 and mid.get("assocs") == 1,
              "mid-transfer: one application, one association")
    victim.p.kill()  # SIGKILL
    victim.wait(10)
    after = rig.settle({k: base[k] for k in ("apps", "assocs", "heap_bytes", "region_bytes",
                                             "mbufs_in_use", "held")})
    for k in ("apps", "assocs", "heap_bytes", "region_bytes", "mbufs_in_use", "held"):
        rig.check(after.get(k) == base[k], "%s back to %s after kill -9 (%s)" %
                  (k, base[k], after.get(k)))
    rig.check(after.get("assocs_aborted_at_exit", 0) >= 1, "its association was aborted")
    rig.check(peer.wait_line(r"association lost \(reason 1, cause 12\)", 10) is not None,
              "the peer saw an ABORT (User-Initiated Abort)")


def case_garbage(rig):
    rig.start_daemon()
    rig.start_peer(["-s"])
    good = rig.app("good", ["-c", PEER_IP, "-n", "20000", "-l", "300"])
    time.sleep(0.3)
    rig.check(rig.probe(["garbage"]) == 0,
              "garbage: -EPROTO for a bad request, detached for a broken request ring "
              "and for a broken event ring")
    rig.check(good.wait(120) == 0 and echoed_all(good, 20000),
              "the other application's 20000 echoes intact")
    st = rig.settle({"apps": 0})
    rig.check(st.get("apps_dropped") == 2 and st.get("bad_requests") == 3,
              "dpsctpd counted three bad requests and two applications dropped (%s)" % st)


def case_restart(rig):
    rig.start_daemon(0)
    srv = rig.app("echo-server", ["-s", "--reattach"])
    rig.check(srv.wait_line(r"listening", 10) is not None, "the application listens")
    c1 = rig.start_peer(["-c", DAEMON_IP, "-n", "500", "-l", "700"], 1)
    rig.check(c1.wait(60) == 0 and "500 echoed intact, 0 bad" in c1.text(),
              "before the restart: 500 echoes intact")
    d0 = rig.procs[0]
    rig.check(d0.stop() == 0, "dpsctpd stopped cleanly on SIGTERM")
    rig.check(srv.wait_line(r"dpsctpd (went away|is stopping)", 10) is not None,
              "the application saw dpsctpd go (%s)" % srv.lines[-3:])
    rig.start_daemon(1)
    rig.check(srv.wait_line(r"attached to dpsctpd again", 15) is not None,
              "the application attached to the new dpsctpd")
    c2 = rig.start_peer(["-c", DAEMON_IP, "-n", "500", "-l", "700"], 2)
    rig.check(c2.wait(60) == 0 and "500 echoed intact, 0 bad" in c2.text(),
              "after the restart: 500 echoes intact")
    rig.check(srv.stop() == 0, "the application exits 0 on SIGTERM")


def case_zero_copy(rig):
    rig.start_daemon(extra=["--zero-copy"])
    rig.start_peer(["-s"])
    warm = rig.app("warm-up", ["-c", PEER_IP, "-n", "10"])
    rig.check(warm.wait(60) == 0, "warm-up run (one copy, beside zero copy)")
    base = rig.settle({"apps": 0, "assocs": 0})
    rig.check(rig.probe(["zerocopy", PEER_IP, "5001", "300"]) == 0,
              "300 echoes of 1 B .. 20 KB received by reference, intact")
    st = rig.settle({"apps": 0, "assocs": 0, "mbufs_in_use": base["mbufs_in_use"],
                     "recv_zero_copy": base.get("recv_zero_copy", 0) + 300})
    rig.check(st.get("recv_zero_copy", 0) - base.get("recv_zero_copy", 0) == 300,
              "dpsctpd handed 300 messages by reference (%s)" % st.get("recv_zero_copy"))
    rig.check(st.get("mbufs_in_use") == base["mbufs_in_use"],
              "every packet buffer back once the application read them (%s, was %s)" %
              (st.get("mbufs_in_use"), base["mbufs_in_use"]))


def case_loopback_peer(rig):
    """No memif, no second process: dpsctpd --loopback-peer echo (the demo)."""
    prefix = f"{rig.tag}lo"
    d = Proc("dpsctpd", [rig.exe("apps/dpsctpd/dpsctpd"), *EAL, f"--file-prefix={prefix}",
                         "--", "--loopback-peer", "echo", "--socket", rig.sock,
                         "--idle-sleep-us", "20"])
    rig.procs.append(d)
    if d.wait_line(r"dpsctpd: serving", 20) is None:
        raise RuntimeError("dpsctpd did not start:\n" + d.text())
    a = rig.app("small", ["-c", "10.255.0.2", "-n", "20000", "-l", "64", "--streams", "8"])
    b = rig.app("large", ["-c", "10.255.0.2", "-n", "500", "-l", "20000"])
    rig.check(a.wait(60) == 0 and echoed_all(a, 20000), "20000 x 64 B echoed intact")
    rig.check(b.wait(60) == 0 and echoed_all(b, 500), "500 x 20 KB echoed intact")
    rig.check(d.stop() == 0, "dpsctpd stopped cleanly")
    rig.check(d.wait_line(r"loopback peer received 20500 messages", 1) is not None,
              "the loopback peer counted every message")


def start_loopback(rig, extra=()):
    """dpsctpd --loopback-peer echo, no NIC (as case_loopback_peer starts it)."""
    d = Proc("dpsctpd", [rig.exe("apps/dpsctpd/dpsctpd"), *EAL, f"--file-prefix={rig.tag}lo",
                         "--", "--loopback-peer", "echo", "--socket", rig.sock,
                         "--idle-sleep-us", "20", *extra])
    rig.procs.append(d)
    if d.wait_line(r"dpsctpd: serving", 20) is None:
        raise RuntimeError("dpsctpd did not start:\n" + d.text())
    rig.telemetry = f"/var/run/dpdk/{rig.tag}lo/dpdk_telemetry.v2"
    return d


def case_loopback_parts(rig):
    """100,000 bytes came back as 92,928 + 7,072 (the data plane hands
    a message of more than 64 packets on in parts, and the peer echoed each
    part as a message). Sizes around that point, above half the 256 KiB
    window, and up to the 256 KiB send buffer; one copy and zero copy (where
    the daemon hands every packet on as a part, MORE and CONT)."""
    d = start_loopback(rig, ["--zero-copy"])
    runs = [("p100k", 30, 100000, []), ("p93k", 30, 92929, ["--zero-copy"]),
            ("p200k", 20, 200000, ["--zero-copy"]), ("p250k", 10, 250000, [])]
    apps = [(rig.app(name, ["-c", "10.255.0.2", "-n", str(n), "-l", str(size), *extra]),
             name, n, size) for name, n, size, extra in runs]
    for a, name, n, size in apps:
        rig.check(a.wait(120) == 0 and echoed_all(a, n),
                  "%s: %d x %d B each echoed as one message of %d B, intact" %
                  (name, n, size, size))
    rig.check(d.stop() == 0, "dpsctpd stopped cleanly")
    total = sum(r[1] for r in runs)
    rig.check(d.wait_line(r"loopback peer received %d messages, \d+ bytes; 0 echoes dropped"
                          % total, 1) is not None,
              "the loopback peer counted %d messages (not their parts), none dropped" % total)


def case_loopback_events(rig):
    """COMM_UP carried neither the peer's address nor its port (and
    our port was 0), COMM_UP's streams were the profile's 16 whatever
    --max-streams said, and a CANT_START looked the same for a wrong port and
    a silent peer."""
    start_loopback(rig)
    ok = rig.app("ok", ["-c", "10.255.0.2", "-n", "10"])
    rig.check(ok.wait(60) == 0 and echoed_all(ok, 10), "10 echoes")
    up = re.search(r"association up with 10\.255\.0\.2 port 5001 from our port (\d+), "
                   r"64 streams out, 64 in", ok.text())
    rig.check(up is not None and 49152 <= int(up.group(1)) <= 65535,
              "COMM_UP: the peer's address and port, our port, 64 streams each way (%s)" %
              [ln for ln in ok.lines if "association up" in ln])
    wrong = rig.app("wrong-port", ["-c", "10.255.0.2", "--sctp-port", "5002", "-n", "1"])
    rig.check(wrong.wait(30) == 1 and wrong.wait_line(
        r"association with 10\.255\.0\.2 port 5002 could not be set up: the peer sent an "
        r"ABORT without a cause \(reason 1, cause 0\)", 1) is not None,
        "CANT_START for a port nobody listens on: the peer's ABORT")
    silent = rig.app("silent", ["-c", "10.255.0.3", "-n", "1"])
    rig.check(silent.wait(30) == 1 and silent.wait_line(
        r"association with 10\.255\.0\.3 port 5001 could not be set up: no answer to INIT "
        r"\(retransmissions exhausted\) \(reason 4, cause 0\)", 1) is not None,
        "CANT_START for an address nobody answers from: INIT retransmissions exhausted")


def case_pr_sctp(rig):
    """dpsctpd answered a SEND with a lifetime -EOPNOTSUPP, and an
    application could not tell what an association had negotiated."""
    for ext, extra in (("pr-sctp,i-data,reconfig", []),
                       ("pr-sctp", ["--extensions", "pr-sctp"]),
                       ("none", ["--extensions", "none"])):
        d = start_loopback(rig, extra)
        rig.check(rig.probe(["prsctp", "10.255.0.2", "5001", ext]) == 0,
                  "PR-SCTP policies through the daemon, COMM_UP's extensions: %s" % ext)
        d.p.terminate()
        d.wait(10)


def case_sched(rig):
    """An application of the sidecar could not choose an
    association's stream scheduler (RFC 8260 §3) nor a stream's priority."""
    chk = [rig.exe("apps/dpsctpd/dpsctpd"), "--no-huge", "--no-pci", "--no-shconf", "-l", "0",
           "-m", "64", "--log-level", "lib.eal:error", "--"]
    r = subprocess.run(chk + ["--sched", "prio", "--check"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=30)
    rig.check(r.returncode == 0 and re.search(r"^sched = prio$", r.stdout, re.M) is not None
              and re.search(r"^extensions = pr-sctp,i-data,reconfig$", r.stdout, re.M)
              is not None,
              "--check prints sched = prio and the extensions (exit %d)" % r.returncode)
    r = subprocess.run(chk + ["--sched", "lottery", "--check"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=30)
    rig.check(r.returncode == 2 and
              "--sched 'lottery': unknown (rr, fcfs, rr_pkt, prio, fc or wfq)" in r.stdout,
              "--check refuses --sched lottery, naming the schedulers (exit %d: %s)" % (
                  r.returncode, r.stdout.strip().splitlines()[-1:]))
    for name, extra in (("rr", []), ("prio", ["--sched", "prio"])):
        d = start_loopback(rig, extra)
        rig.check(rig.probe(["sched", "10.255.0.2", "5001", name]) == 0,
                  "the scheduler through the daemon (--sched %s)" % name)
        d.p.terminate()
        d.wait(10)


def case_reconf(rig):
    """An application of the sidecar could not reset streams, add streams
    or reset an association (RFC 6525), nor hear that the peer did."""
    for mode, extra in (("on", []), ("off", ["--extensions", "pr-sctp,i-data"])):
        d = start_loopback(rig, ["--max-streams", "16", "--out-streams", "8", *extra])
        rig.check(rig.probe(["reconf", "10.255.0.2", "5001", mode]) == 0,
                  "stream reconfiguration through the daemon, RE-CONFIG %s" % mode)
        d.p.terminate()
        d.wait(10)


def case_opts(rig):
    """An application of the sidecar could set no per-association option
    (RFC 6458), read no association's status nor a path's, and had no
    defaults of its own for its associations."""
    d = start_loopback(rig)
    rig.check(rig.probe(["opts", "10.255.0.2", "5001"]) == 0,
              "options through the daemon: set, read back, STATUS, PEER_ADDR_INFO, refusals, "
              "isolation, the application's defaults, INITMSG at connect, bad requests")
    # dpsctp-perf's per-association options through the daemon: its defaults there.
    perf = [rig.exe("apps/dpsctp-perf/dpsctp-perf"), "--sidecar", rig.sock, "-c", "10.255.0.2",
            "-t", "1"]
    r = subprocess.run(perf + ["--sack-freq", "1", "--max-burst", "8"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=60)
    rig.check(r.returncode == 0, "dpsctp-perf --sidecar --sack-freq 1 --max-burst 8: the run "
              "completes (exit %d%s)" % (r.returncode, "" if r.returncode == 0 else
                                          ": " + " | ".join(r.stdout.splitlines()[-4:])))
    # An RTO.Min above the daemon's RTO.Initial (the data-center profile's 10 ms): fine for
    # the library alone, refused by dpsctpd, which the run says.
    r = subprocess.run(perf + ["--rto-min", "100000"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=60)
    rig.check(r.returncode == 2 and "dpsctpd refused option RTOINFO" in r.stdout,
              "dpsctp-perf --sidecar --rto-min 100000: refused by dpsctpd, exit 2 (%d: %s)" %
              (r.returncode, r.stdout.strip().splitlines()[-1:]))
    d.p.terminate()
    d.wait(10)
    # An association accepted from a peer over memif starts with the defaults too.
    rig.start_daemon(1)
    probe = Proc("probe", [rig.exe("apps/dpsctpd/dd_probe"), rig.sock, "opts-accept", "5001",
                           "50"])
    rig.procs.append(probe)
    rig.check(probe.wait_line(r"dd_probe: listening", 20) is not None, "the probe listens")
    peer = rig.start_peer(["-c", DAEMON_IP, "-n", "50", "-l", "200"])
    rig.check(peer.wait(60) == 0 and echoed_all(peer, 50), "the peer's 50 messages echoed")
    rig.check(probe.wait(30) == 0,
              "the accepted association has the application's defaults (%s)" %
              [ln for ln in probe.lines if "FAIL" in ln or "PASS" in ln])


# Request serving, listening ports and per-application
# limits (cases cpl-ring, listeners, app-limits).

def start_lo_daemon(rig, n, extra=()):
    """dpsctpd --loopback-peer echo (no NIC), its telemetry socket noted."""
    prefix = f"{rig.tag}c{n}"
    d = Proc("dpsctpd", [rig.exe("apps/dpsctpd/dpsctpd"), *EAL, f"--file-prefix={prefix}",
                         "--", "--loopback-peer", "echo", "--socket", rig.sock,
                         "--idle-sleep-us", "20", *extra])
    rig.procs.append(d)
    if d.wait_line(r"dpsctpd: serving", 20) is None:
        raise RuntimeError("dpsctpd did not start:\n" + d.text())
    rig.telemetry = f"/var/run/dpdk/{prefix}/dpdk_telemetry.v2"
    return d


def probe_out(rig, args, timeout=120):
    r = subprocess.run([rig.exe("apps/dpsctpd/dd_probe"), rig.sock, *args],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=timeout)
    print(r.stdout, end="")
    return r.returncode, r.stdout


def case_cpl_ring(rig):
    """A quiet send served with one completion slot free made
    dpsctpd serve a stale request (the application detached, or a request
    served twice). dd_probe cplring leaves 0..63 of its 64 completion slots
    taken under every mix of quiet sends, sends, barriers and failing quiet
    sends; then the same with a 4 KiB send buffer, where sends also wait at
    the head of the ring for space (RETRY)."""
    for n, extra in ((0, ()), (1, ("--sndbuf", "4k"))):
        d = start_lo_daemon(rig, n, extra)
        rc, out = probe_out(rig, ["cplring", "10.255.0.2", "5001"])
        m = re.search(r"(\d+) messages \((\d+) bytes\) sent, (\d+) \((\d+) bytes\) echoed intact",
                      out)
        what = "sndbuf 4k" if extra else "defaults"
        rig.check(rc == 0 and m is not None and m.group(1) == m.group(3),
                  "%s: 4096 trials, every completion once and in order, every echo intact"
                  % what)
        rig.check(d.wait_line(r"broke its rings", 0.1) is None,
                  "%s: the application was never detached" % what)
        rig.check(d.stop() == 0, "%s: dpsctpd stopped cleanly" % what)
        want = r"loopback peer received %s messages, %s bytes; 0 echoes dropped" % (
            (m.group(1), m.group(2)) if m else ("x", "x"))
        rig.check(d.wait_line(want, 1) is not None,
                  "%s: the peer received every byte sent, once (%s)" % (
                      what, d.wait_line(r"loopback peer received", 0.1)))


def case_listeners(rig):
    """Listening could not be undone; the data plane's four
    listeners leaked with each application that listened and left. Here
    --listeners 4, two ports per application: one application leaves, one is
    killed (-9), and two more still listen, on new ports and the old ones;
    UNLISTEN gives a port to another application."""
    start_lo_daemon(rig, 0, ["--listeners", "4", "--app-listens", "2", "--max-apps", "4"])
    rc, _ = probe_out(rig, ["listen", "7001", "2"])
    rig.check(rc == 0, "an application listens on 7001-7002 and leaves")
    held = Proc("holder", [rig.exe("apps/dpsctpd/dd_probe"), rig.sock, "listen", "7003", "2",
                           "hold"])
    rig.procs.append(held)
    rig.check(held.wait_line(r"holding 2 ports", 10) is not None,
              "another listens on 7003-7004")
    held.p.kill()  # SIGKILL
    held.wait(10)
    st = rig.settle({"apps": 0})
    rig.check(st.get("apps") == 0, "dpsctpd saw it die (%s)" % st.get("apps"))
    rc, _ = probe_out(rig, ["listen", "7005", "2"])
    rig.check(rc == 0, "a third listens on 7005-7006: the 4 listeners came back")
    rc, _ = probe_out(rig, ["listen", "7003", "2"])
    rig.check(rc == 0, "a fourth listens on the killed one's 7003-7004")
    rc, _ = probe_out(rig, ["unlisten", "7100", "2"])
    rig.check(rc == 0, "UNLISTEN: the port goes to another application, the per-application "
              "limit counts ports held now")


def case_app_limits(rig):
    """With the defaults one application could take every
    association. --max-assocs 8 and 2 applications: 4 each by default, a
    fifth CONNECT is -ENOBUFS while the other application still connects;
    associations accepted on a listening port count too; --check refuses a
    limit that lets one application take everything."""
    chk = [rig.exe("apps/dpsctpd/dpsctpd"), "--no-huge", "--no-pci", "--no-shconf", "-l", "0",
           "-m", "64", "--log-level", "lib.eal:error", "--"]
    for args, rc_want, text in (
            ([], 0, r"64 associations and 4 ports each"),
            (["--max-apps", "1", "--app-assocs", "1024"], 0, r"1024 associations"),
            (["--app-assocs", "1024"], 2,
             r"--app-assocs 1024 lets one application take all 1024 associations"),
            (["--listeners", "4", "--app-listens", "4"], 2,
             r"--app-listens 4 lets one application take all 4 listening ports"),
            (["--max-assocs", "100", "--app-assocs", "100", "--max-apps", "2"], 2,
             r"take all 100 associations")):
        r = subprocess.run(chk + args + ["--check"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=30)
        rig.check(r.returncode == rc_want and re.search(text, r.stdout) is not None,
                  "--check %s: exit %d, %r (got %d: %s)" % (
                      " ".join(args) or "(defaults)", rc_want, text, r.returncode,
                      r.stdout.strip().splitlines()[-1:]))
    # Start-up refuses it as --check does, before serving anything.
    r = subprocess.run(chk + ["--loopback-peer", "sink", "--socket", rig.sock,
                              "--app-assocs", "1024"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=30)
    rig.check(r.returncode == 2 and "lets one application take all" in r.stdout,
              "start-up refuses it too (exit %d)" % r.returncode)

    d = start_lo_daemon(rig, 0, ["--max-assocs", "8", "--max-apps", "2"])
    rc, _ = probe_out(rig, ["limits", "10.255.0.2", "5001", "4"])
    rig.check(rc == 0, "A: 4 associations, the fifth -ENOBUFS; B still connects")
    d.stop()

    # Accepted associations: a peer opens 6 to an application allowed 4.
    rig.start_daemon(1, ["--max-assocs", "8", "--max-apps", "2"])
    acc = Proc("accept", [rig.exe("apps/dpsctpd/dd_probe"), rig.sock, "accept", PEER_IP, "7001",
                          "4", "10"])
    rig.procs.append(acc)
    rig.check(acc.wait_line(r"listening on 7001", 10) is not None, "the application listens")
    perf = Proc("perf", [rig.exe("apps/dpsctp-perf/dpsctp-perf"), *EAL,
                         f"--file-prefix={rig.tag}perf", "--", "--port",
                         f"net_memif0,socket={rig.memif},socket-abstract=no,id=0,role=client",
                         "--ip", PEER_IP + "/24", "--sctp-port", "7001", "-c", DAEMON_IP,
                         "-P", "6", "-t", "5", "-l", "100", "--rate", "1m", "-i", "0",
                         # RFC 9260 timers: INITs parked out of the first ARP's
                         # queue are sent again after 1 s, not given up in 1 s.
                         "--profile", "rfc"])
    rig.procs.append(perf)
    rig.check(acc.wait(30) == 0, "at most 4 accepted at once; with 4 up a CONNECT is -ENOBUFS")
    perf.wait(30)
    st = rig.settle({"apps": 0})
    rig.check(st.get("orphan_accepts", 0) == 2,
              "dpsctpd aborted the 2 associations over the limit (orphan_accepts %s)" %
              st.get("orphan_accepts"))


# The control socket and the loop thread.

SC_MAGIC = 0x4450534354505343
ETIMEDOUT, EBUSY = 110, 16


def sc_version():
    """The handshake version of the sources beside this test."""
    h = (Path(__file__).resolve().parents[3] / "dataplane/sidecar/sc_region.h").read_text()
    return int(re.search(r"#define SC_VERSION\s+(\d+)u", h).group(1))


def raw_attach(path, name, timeout=10):
    """Attach and detach without the library (struct sc_hello, one thread,
    the daemon's default sizes): the welcome's status. Bounded: a daemon
    that does not answer raises socket.timeout."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as s:
        s.settimeout(timeout)
        s.connect(path)
        s.send(struct.pack("<QIIIIQ32s", SC_MAGIC, sc_version(), 1, 0, 0, 0, name.encode()))
        msg, anc, _, _ = s.recvmsg(4096, socket.CMSG_SPACE(32 * 4))
        for level, kind, data in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                for fd in array.array("i", data[:len(data) - len(data) % 4]):
                    os.close(fd)
        return struct.unpack_from("<i", msg, 12)[0]


class SilentCrowd:
    """n connections to the daemon's socket that never say hello; each one
    the daemon closes is opened again at once. refusals counts the
    daemon's answers by status (-ETIMEDOUT, -EBUSY)."""

    def __init__(self, path, n):
        self.path, self.n, self.socks, self.refusals = path, n, [], {}
        self.done = False
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _open(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        s.setblocking(False)
        try:
            s.connect(self.path)
        except OSError:  # the backlog is full (a daemon not accepting): later
            s.close()
            return None
        return s

    def _run(self):
        while not self.done:
            while len(self.socks) < self.n:
                s = self._open()
                if s is None:
                    break
                self.socks.append(s)
            if not self.socks:
                time.sleep(0.05)
                continue
            for s in select.select(self.socks, [], [], 0.05)[0]:
                try:
                    data = s.recv(4096)
                except OSError:
                    data = b""
                st = struct.unpack_from("<i", data, 12)[0] if len(data) >= 16 else "EOF"
                self.refusals[st] = self.refusals.get(st, 0) + 1
                s.close()
                self.socks.remove(s)

    def stop(self):
        self.done = True
        self.t.join(5)
        for s in self.socks:
            s.close()


class LoopStopped:
    """Stop one thread of a process for the duration of a with block, the
    others running on: ptrace(PTRACE_SEIZE, PTRACE_INTERRUPT) of that
    thread alone (SIGSTOP would stop telemetry's thread too)."""
    SEIZE, INTERRUPT, DETACH, WALL = 0x4206, 0x4207, 17, 0x40000000

    def __init__(self, tid):
        self.tid = tid
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p,
                                     ctypes.c_void_p]

    def __enter__(self):
        if self.libc.ptrace(self.SEIZE, self.tid, None, None) != 0:
            raise OSError(ctypes.get_errno(), "PTRACE_SEIZE")
        self.libc.ptrace(self.INTERRUPT, self.tid, None, None)
        os.waitpid(self.tid, self.WALL)  # it is stopped from here on
        return self

    def __exit__(self, *exc):
        self.libc.ptrace(self.DETACH, self.tid, None, None)
        return False


def case_silent_clients(rig):
    """A client that connected and said nothing stopped the whole
    daemon (the hello was read blocking on the loop thread)."""
    d = rig.start_daemon(extra=["--max-pending", "4"])  # and the default 1 s hello timeout
    rig.start_peer(["-s"])
    crowd = SilentCrowd(rig.sock, 6)
    samples = []
    try:
        time.sleep(0.3)
        app = rig.app("echo", ["-c", PEER_IP, "-n", "3000", "-l", "1000"])
        # Bounded: against a daemon stuck on a silent client this fails in a minute.
        end = time.time() + 60
        while app.p.poll() is None and time.time() < end:
            samples.append(rig.stats())
            time.sleep(0.1)
        samples.append(rig.stats())
        rig.check(app.wait(5) == 0 and echoed_all(app, 3000),
                  "3000 echoes intact while six clients connect and say nothing, again and again")
    finally:
        crowd.stop()
    st = rig.stats()
    pend = [x.get("pending", -1) for x in samples]
    rig.check(0 <= min(pend) and max(pend) <= 4,
              "never more than --max-pending 4 connections waiting for a hello (%s)" %
              sorted(set(pend)))
    rig.check(st.get("pending_evicted", 0) >= 2 and crowd.refusals.get(-EBUSY, 0) >= 2,
              "beyond --max-pending the oldest is turned away (-EBUSY) and counted (%s, %s)" %
              (st.get("pending_evicted"), crowd.refusals))
    # Within the bound, each is refused when its hello timeout (1 s) is up.
    crowd = SilentCrowd(rig.sock, 3)
    end = time.time() + 10
    while time.time() < end and crowd.refusals.get(-ETIMEDOUT, 0) < 3:
        time.sleep(0.1)
    crowd.stop()
    st = rig.settle({"pending": 0})
    rig.check(st.get("hello_timeouts", 0) >= 3 and crowd.refusals.get(-ETIMEDOUT, 0) >= 3,
              "a connection silent for the hello timeout is refused (-ETIMEDOUT) and counted "
              "(%s, %s)" % (st.get("hello_timeouts"), crowd.refusals))
    its = [x.get("loop_iterations", 0) for x in samples]
    ages = [x.get("loop_age_us", -1) for x in samples]
    rig.check(its[-1] > its[0] and 0 <= min(ages) and max(ages) < 2000000,
              "the loop's heartbeat stayed fresh throughout (iterations %s .. %s, oldest %s us)" %
              (its[0], its[-1], max(ages)))
    # A health check sees a loop that stopped: the age grows, the count stands.
    with LoopStopped(d.p.pid):
        time.sleep(1.5)
        s1 = rig.stats()
        time.sleep(0.3)
        s2 = rig.stats()
    time.sleep(0.5)
    s3 = rig.stats()
    rig.check(s1.get("loop_age_us", 0) >= 1000000 and
              s2.get("loop_age_us", 0) > s1.get("loop_age_us", 0) and
              s1.get("loop_iterations") == s2.get("loop_iterations"),
              "a stopped loop shows in telemetry: loop_age_us %s then %s, iterations %s then %s" %
              (s1.get("loop_age_us"), s2.get("loop_age_us"), s1.get("loop_iterations"),
               s2.get("loop_iterations")))
    rig.check(s3.get("loop_iterations", 0) > s2.get("loop_iterations", 0) and
              s3.get("loop_age_us", 1 << 62) < s2.get("loop_age_us", 0) and
              s3.get("loop_longest_us", 0) >= 1000000,
              "and its recovery: iterations go on, loop_longest_us keeps the stall (%s us)" %
              s3.get("loop_longest_us"))


def case_second_daemon(rig):
    """A second dpsctpd on the same --socket took the socket over
    and deleted it when it exited, leaving the first unreachable."""
    d1 = rig.start_daemon()
    rig.start_peer(["-s"])
    d2 = Proc("dpsctpd-2", [rig.exe("apps/dpsctpd/dpsctpd"), *EAL,
                            f"--file-prefix={rig.tag}d2", "--", "--loopback-peer", "sink",
                            "--socket", rig.sock])
    rig.procs.append(d2)
    rig.check(d2.wait(30) == 3, "the second dpsctpd exits with 3 (%s)" % d2.p.returncode)
    rig.check(d2.wait_line(r"%s: another dpsctpd is serving this socket" % re.escape(rig.sock),
                           1) is not None, "and says why (%s)" % d2.lines[-1:])
    a = rig.app("after", ["-c", PEER_IP, "-n", "500", "-l", "300"])
    rig.check(a.wait(60) == 0 and echoed_all(a, 500),
              "the first still serves its socket: 500 echoes intact")
    d1.p.kill()  # SIGKILL: the socket file stays, nobody accepts on it
    d1.wait(10)
    rig.check(os.path.exists(rig.sock), "kill -9 left a stale socket")
    d3 = Proc("dpsctpd-3", [rig.exe("apps/dpsctpd/dpsctpd"), *EAL,
                            f"--file-prefix={rig.tag}d3", "--", "--loopback-peer", "echo",
                            "--socket", rig.sock, "--idle-sleep-us", "20"])
    rig.procs.append(d3)
    rig.check(d3.wait_line(r"dpsctpd: serving", 20) is not None,
              "the next dpsctpd replaces the stale socket")
    b = rig.app("stale", ["-c", "10.255.0.2", "-n", "100"])
    rig.check(b.wait(60) == 0 and echoed_all(b, 100), "and serves it: 100 echoes intact")
    rig.check(d3.stop() == 0 and not os.path.exists(rig.sock),
              "stopped, it removes its own socket")


def as_user(uid, gid):
    """A preexec_fn: the child runs as uid:gid with no supplementary groups."""
    def drop():
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
    return drop


def case_access(rig):
    """--socket-mode and the allow lists: the socket file is 0666, so the
    kernel lets anyone connect; the daemon lets in uid 4242 and gid 4343
    (and root), and refuses anyone else -EACCES, counted refused_cred."""
    start_loopback(rig, ["--socket-mode", "0666", "--allow-uid", "4242", "--allow-gid", "4343"])
    rig.check(os.stat(rig.sock).st_mode & 0o7777 == 0o666, "the socket file is 0666")
    echo = [rig.exe("apps/dpsctp-sidecar-echo/dpsctp-sidecar-echo"), "--socket", rig.sock,
            "-c", "10.255.0.2", "-n", "100", "-l", "200"]
    for uid, gid, what in ((4242, 5000, "a listed user"), (5002, 4343, "a listed group")):
        r = subprocess.run(echo + ["--name", "uid%d" % uid], preexec_fn=as_user(uid, gid),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=60)
        print(r.stdout, end="")
        rig.check(r.returncode == 0 and "100 echoed intact, 0 bad" in r.stdout,
                  "%s (%d:%d) attaches: 100 echoes intact" % (what, uid, gid))
    r = subprocess.run(echo, preexec_fn=as_user(5002, 5002), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=60)
    print(r.stdout, end="")
    rig.check(r.returncode == 3 and "Permission denied" in r.stdout and
              "--allow-uid" in r.stdout,
              "anyone else (5002:5002) is refused, and told why (exit %s)" % r.returncode)
    st = rig.settle({"apps": 0, "refused_cred": 1})
    rig.check(st.get("refused_cred") == 1 and st.get("attached") == 2,
              "dpsctpd counted one refused_cred and two attached (%s)" %
              {k: st.get(k) for k in ("refused_cred", "refused", "attached")})


def case_slow_reader(rig):
    """An application stops reading while another works. With messages of
    200 B the receive window closes before its rings and backlog fill: the
    peer waits, and every echo arrives once it reads again. With 8-byte
    messages, rings of 64 slots (the staller's) and --backlog 16 the
    backlog overflows first: that association alone is aborted and counted
    (backlog_aborts). Both times the other
    application's 20,000 echoes come back intact meanwhile, and the
    staller's held events stay within its rings and backlog."""
    rounds = (("window", [], "4000", "200", "all", 4096),
              ("backlog", ["--backlog", "16"], "3000", "8", "abort", 16))
    for name, extra, n, size, expect, bound in rounds:
        d = start_loopback(rig, extra)
        staller = Proc("staller-" + name, [rig.exe("apps/dpsctpd/dd_probe"), rig.sock, "stall",
                                           "10.255.0.2", "5001", n, size, expect])
        rig.procs.append(staller)
        rig.check(staller.wait_line(r"not reading", 60) is not None,
                  "%s: the staller sent %s x %s B and stopped reading" % (name, n, size))
        def staller_held():
            apps = telemetry(rig.telemetry, "/dpsctpd/apps")
            return [a.get("held_now", 0) for a in apps.values()
                    if isinstance(a, dict) and a.get("name") == "staller"]
        time.sleep(0.5)  # the echoes fill its rings, then its backlog
        held = staller_held()
        other = rig.app("other-" + name, ["-c", "10.255.0.2", "-n", "20000", "-l", "300"])
        while other.p.poll() is None:
            held += staller_held()
            time.sleep(0.05)
        held += staller_held()
        rig.check(other.wait(120) == 0 and echoed_all(other, 20000),
                  "%s: the other application's 20000 x 300 B echoed intact meanwhile" % name)
        # --backlog, and room for its one association's end event
        rig.check(held and 0 < max(held) <= bound + 1,
                  "%s: the staller's held events stayed within its backlog "
                  "(at most %s, --backlog %d)" % (name, max(held) if held else None, bound))
        st = rig.settle({"backlog_aborts": 1 if expect == "abort" else 0})
        rig.check(st.get("backlog_aborts") == (1 if expect == "abort" else 0),
                  "%s: backlog_aborts %s" % (name, st.get("backlog_aborts")))
        staller.p.send_signal(signal.SIGUSR1)
        rig.check(staller.wait(90) == 0,
                  "%s: the staller, reading again: %s" % (name, staller.lines[-1:]))
        rig.check(d.stop() == 0, "%s: dpsctpd stopped cleanly" % name)


class Unread:
    """A process whose output is read up to a line, then never again (a
    pipe nobody reads: a stuck log shipper, a pager left open)."""

    def __init__(self, name, argv, pattern, timeout):
        self.name, self.lines = name, []
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        fd, buf, end = self.p.stdout.fileno(), b"", time.time() + timeout
        while time.time() < end and not re.search(pattern.encode(), buf):
            if select.select([fd], [], [], 0.2)[0]:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                buf += chunk
        self.lines = buf.decode(errors="replace").splitlines()
        self.started = re.search(pattern.encode(), buf) is not None
        if self.started:  # the smallest pipe: a few lines fill it
            fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)

    def wait(self, timeout):
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return None


def case_quiet_stdout(rig):
    """The loop thread wrote a line per attach
    and per detach with a blocking write; a full stdout pipe stopped it."""
    prefix = f"{rig.tag}q"
    d = Unread("dpsctpd", [rig.exe("apps/dpsctpd/dpsctpd"), *EAL, f"--file-prefix={prefix}",
                           "--", "--loopback-peer", "echo", "--socket", rig.sock,
                           "--idle-sleep-us", "20"], r"dpsctpd: serving", 20)
    rig.procs.append(d)
    if not d.started:
        raise RuntimeError("dpsctpd did not start:\n" + "\n".join(d.lines))
    rig.telemetry = f"/var/run/dpdk/{prefix}/dpdk_telemetry.v2"
    statuses = []
    try:
        for i in range(200):
            statuses.append(raw_attach(rig.sock, "q%d" % i))
    except OSError as e:  # socket.timeout included: the daemon stopped answering
        statuses.append("%s" % e)
    rig.check(len(statuses) == 200 and set(statuses) == {0},
              "200 attach/detach cycles with nobody reading the daemon's output (%d done, "
              "last %s)" % (len(statuses), statuses[-1:]))
    a = rig.app("after", ["-c", "10.255.0.2", "-n", "2000", "-l", "200"])
    rig.check(a.wait(60) == 0 and echoed_all(a, 2000), "then 2000 echoes intact")
    st = rig.settle({"apps": 0})
    rig.check(st.get("log_lost", 0) >= 1,
              "lines that found no room were counted (log_lost %s)" % st.get("log_lost"))
    d.p.send_signal(signal.SIGTERM)
    rig.check(d.wait(20) == 0, "SIGTERM stops it all the same (%s)" % d.p.returncode)


def telemetry(path, cmd):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(path)
    s.recv(16384)
    s.send(cmd.encode())
    d = json.loads(s.recv(65536))[cmd]
    s.close()
    return d


def case_workers(rig):
    """The sidecar with two workers: 64 associations from two applications."""
    prefix = f"{rig.tag}w"
    eal = ["-l", "0,1", *EAL[2:], "-m", "1024"]
    d = Proc("dpsctpd", [rig.exe("apps/dpsctpd/dpsctpd"), *eal, f"--file-prefix={prefix}",
                         "--", "--loopback-peer", "echo", "--queues", "2", "--socket", rig.sock,
                         "--idle-sleep-us", "20"])
    rig.procs.append(d)
    if d.wait_line(r"dpsctpd: serving", 30) is None:
        raise RuntimeError("dpsctpd did not start:\n" + d.text())
    rig.telemetry = f"/var/run/dpdk/{prefix}/dpdk_telemetry.v2"
    probes = [Proc(n, [rig.exe("apps/dpsctpd/dd_probe"), rig.sock, "workers", "10.255.0.2",
                       "5001", n, "32", "200", "2"]) for n in ("wk-A", "wk-B")]
    rig.procs.extend(probes)
    # Both attached, with their associations up, before either leaves: the
    # per-application view is read while they run.
    apps = {}
    end = time.time() + 60
    while time.time() < end and any(p.p.poll() is None for p in probes):
        a = telemetry(rig.telemetry, "/dpsctpd/apps")
        if len(a) == 2 and all(v.get("assocs") == 32 for v in a.values()):
            apps = a
            break
        time.sleep(0.05)
    for p in probes:
        rc = p.wait(120)
        rig.check(rc == 0 and p.wait_line(r"32 associations on 2 workers \(\d+ \d+\), "
                                          r"6400 of 6400 echoed intact, 0 bad: PASS", 1),
                  "%s: 32 associations over both workers, 6400 echoes intact (%s)" %
                  (p.name, p.wait_line(r"echoed intact", 0.1)))
    rig.check(sorted(v.get("name") for v in apps.values()) == ["wk-A", "wk-B"],
              "/dpsctpd/apps showed both applications with 32 associations each (%s)" %
              {k: (v.get("name"), v.get("assocs")) for k, v in apps.items()})
    st = rig.settle({"apps": 0, "assocs": 0})
    wk = telemetry(rig.telemetry, "/dpsctpd/workers")
    rig.check(sorted(wk) == ["0", "1"], "/dpsctpd/workers lists workers 0 and 1 (%s)" % list(wk))
    opened = [wk.get(w, {}).get("assocs_opened", 0) for w in ("0", "1")]
    recv = [wk.get(w, {}).get("recv_msgs", 0) for w in ("0", "1")]
    rig.check(sum(opened) == 64 and min(opened) > 0,
              "both workers opened associations, 64 in all (%s)" % opened)
    rig.check(sum(recv) == 12800 and min(recv) > 0,
              "both workers delivered echoes, 12800 in all (%s)" % recv)
    rig.check(all(wk.get(w, {}).get("iterations", 0) > 0 for w in ("0", "1")),
              "both workers' loops ran")
    rig.check(st.get("recv_msgs") == 12800 and st.get("assocs_opened") == 64,
              "/dpsctpd/stats sums them (%s, %s)" % (st.get("recv_msgs"),
                                                     st.get("assocs_opened")))
    a = rig.app("after", ["-c", "10.255.0.2", "-n", "2000", "-l", "300"])
    rig.check(a.wait(60) == 0 and echoed_all(a, 2000), "an echo client after them: intact")
    rig.check(d.stop() == 0, "SIGTERM stops both workers (%s)" % d.p.returncode)
    rig.check(d.wait_line(r"loopback peer received 14800 messages, \d+ bytes; 0 echoes "
                          r"dropped", 1) is not None,
              "the loopback peer received every message once (%s)" %
              d.wait_line(r"loopback peer received", 0.1))
    r = subprocess.run([rig.exe("apps/dpsctpd/dpsctpd"), *eal, f"--file-prefix={prefix}3",
                        "--", "--loopback-peer", "echo", "--queues", "3", "--socket",
                        rig.sock + "3"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=60)
    rig.check(r.returncode == 2 and "one lcore per worker" in r.stdout,
              "--queues 3 on two lcores: exit 2, saying why (%s: %s)" %
              (r.returncode, r.stdout.strip().splitlines()[-1:]))


EAL2 = ["-l", "0,1", *EAL[2:], "-m", "1024"]  # two lcores: dpsctpd --queues 2
WK_KEYS = ("assocs_opened", "recv_msgs", "recv_zero_copy")


def wk_counts(rig):
    """/dpsctpd/workers' counters by worker: {key: [worker 0, worker 1]}."""
    wk = telemetry(rig.telemetry, "/dpsctpd/workers")
    return {k: [wk.get(w, {}).get(k, 0) for w in ("0", "1")] for k in WK_KEYS}


def case_workers_accept(rig):
    """Accepted associations on both workers of a two-worker daemon,
    delivered to the listening application: no test opened associations to a
    multi-worker dpsctpd, and a peer that connects from one worker (as
    dpsctp-perf and dpsctp-echo do) sends every INIT to its queue 0."""
    # Each round on a daemon of its own (a memif client that came again
    # found the link up late). The buffers in use at rest after the run
    # with copies (neighbour entries and the like) are the zero-copy run's
    # baseline: any more after it were not given back.
    n, m, base = 16, 200, None
    for rnd, (name, zc) in enumerate((("acc-copy", False), ("acc-zc", True))):
        daemon = rig.start_daemon(rnd, ["--queues", "2", "--zero-copy"], eal=EAL2)
        rig.settle({"apps": 0, "assocs": 0})
        before = wk_counts(rig)
        srv = rig.app(name, ["-s", *(["--zero-copy"] if zc else [])])
        if srv.wait_line(r"listening on SCTP port 5001", 10) is None:
            raise RuntimeError("%s does not listen:\n%s" % (name, srv.text()))
        peer = Proc("wpeer", [rig.exe("apps/dpsctpd/dd_wpeer"), *EAL,
                              f"--file-prefix={rig.tag}wp{rnd}", "--", "--port",
                              f"net_memif0,socket={rig.memif},socket-abstract=no,id=0,"
                              "role=client", "--ip", PEER_IP + "/24", "--queues", "2",
                              # RFC timers: INITs parked behind the first ARP go
                              # again after 1 s, not given up.
                              "--profile", "rfc", DAEMON_IP, "5001", str(n), str(m),
                              # zero copy: messages of several packets too
                              "20000" if zc else "1407"])
        rig.procs.append(peer)
        rc = peer.wait(120)
        rig.check(rc == 0 and peer.wait_line(
            r"%d associations on 2 workers \(8 8\), %d of %d echoed intact, 0 bad: PASS"
            % (n, n * m, n * m), 1) is not None,
            "%s: the peer's 16 associations from its two workers, %d echoes intact (%s)" %
            (name, n * m, peer.wait_line(r"echoed intact", 0.1)))
        handles = [int(h, 16) for h in re.findall(r"server: association (0x[0-9a-f]+) up",
                                                  srv.text())]
        owners = sorted((h >> 24) & 0xff for h in handles)
        rig.check(owners.count(0) == 8 and owners.count(1) == 8,
                  "%s: the application accepted 8 associations owned by each worker "
                  "(handles' workers %s)" % (name, owners))
        rig.check(srv.stop() == 0 and srv.wait_line(
            r"server: %d associations, %d messages echoed, 0 not echoed" % (n, n * m), 1)
            is not None, "%s: the application echoed every message (%s)" %
            (name, srv.wait_line(r"messages echoed", 0.1)))
        st = rig.settle({"apps": 0, "assocs": 0} if base is None else
                        {"apps": 0, "assocs": 0, "mbufs_in_use": base})
        after = wk_counts(rig)
        d = {k: [after[k][w] - before[k][w] for w in (0, 1)] for k in WK_KEYS}
        rig.check(d["assocs_opened"] == [8, 8],
                  "%s: /dpsctpd/workers: 8 associations opened on each worker (%s)" %
                  (name, d["assocs_opened"]))
        rig.check(sum(d["recv_msgs"]) == n * m and min(d["recv_msgs"]) > 0,
                  "%s: both workers delivered messages, %d in all (%s)" %
                  (name, n * m, d["recv_msgs"]))
        want_zc = d["recv_msgs"] if zc else [0, 0]
        rig.check(d["recv_zero_copy"] == want_zc,
                  "%s: by reference: %s (%s)" % (name, want_zc, d["recv_zero_copy"]))
        if base is None:
            base = st.get("mbufs_in_use")
        else:
            rig.check(st.get("mbufs_in_use") == base,
                      "%s: every packet buffer back in the pool (%s in use at rest, as "
                      "after the run with copies)" % (name, st.get("mbufs_in_use")))
        rig.check(daemon.stop() == 0, "%s: SIGTERM stops both workers (%s)" %
                  (name, daemon.p.returncode))


CASES = {"two-apps": case_two_apps, "app-killed": case_app_killed,
         "garbage": case_garbage, "restart": case_restart, "zero-copy": case_zero_copy,
         "loopback-peer": case_loopback_peer, "loopback-parts": case_loopback_parts,
         "loopback-events": case_loopback_events, "cpl-ring": case_cpl_ring,
         "pr-sctp": case_pr_sctp, "sched": case_sched, "reconf": case_reconf,
         "opts": case_opts,
         "listeners": case_listeners, "app-limits": case_app_limits}
CASES.update({"silent-clients": case_silent_clients, "second-daemon": case_second_daemon,
              "quiet-stdout": case_quiet_stdout, "workers": case_workers,
              "workers-accept": case_workers_accept, "access": case_access,
              "slow-reader": case_slow_reader})


def main():
    build, case = sys.argv[1], sys.argv[2]
    if os.geteuid() != 0:
        return cannot_run("needs root (DPDK, memif)")
    rig = Rig(build, f"ddt{os.getpid()}")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    try:
        CASES[case](rig)
    except Exception as e:  # a set-up failure is this case's failure
        rig.failures.append("harness: %s" % e)
        print("FAIL harness: %s" % e)
    finally:
        rig.stop()
    if rig.failures:
        for p in rig.procs:
            print("---- %s (rc %s)\n%s" % (p.name, p.p.returncode, "\n".join(p.lines[-15:])))
    print("%s: %s" % (case, "PASS" if not rig.failures else
                      "FAIL (%d)" % len(rig.failures)))
    return 1 if rig.failures else 0


if __name__ == "__main__":
    sys.exit(main())
