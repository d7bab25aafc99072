#!/usr/bin/env python3
"""[dp] dpsctpd with real applications and a real peer (issue 8).

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
  garbage     dd_probe writes an unknown request (-EPROTO back, stays
              attached) and then a request ring head beyond the ring
              (detached) while another application's transfer goes on intact
  zero-copy   dpsctpd --zero-copy: dd_probe's echoes of 1 B .. 20 KB arrive by
              reference into the daemon's packet buffers (mapped read-only),
              intact, and every buffer returns to the pool once read
  loopback-peer  dpsctpd --loopback-peer echo (no NIC, no memif): two echo
              clients through the daemon to the peer in its process
  restart     dpsctp-sidecar-echo -s --reattach serves the peer's echo client;
              dpsctpd is stopped and started again; the application sees it
              go, attaches to the new one, listens again, and a second peer
              client run is echoed intact

usage: dpsctpd_test.py BUILD_DIR CASE
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

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

    def start_daemon(self, n=0, extra=()):
        for f in (self.memif, self.sock):
            if os.path.exists(f):
                os.unlink(f)
        prefix = f"{self.tag}d{n}"
        d = Proc("dpsctpd", [self.exe("apps/dpsctpd/dpsctpd"), *EAL, f"--file-prefix={prefix}",
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
              "garbage: -EPROTO for a bad request, detached for a broken ring")
    rig.check(good.wait(120) == 0 and echoed_all(good, 20000),
              "the other application's 20000 echoes intact")
    st = rig.settle({"apps": 0})
    rig.check(st.get("apps_dropped") == 1 and st.get("bad_requests") == 1,
              "dpsctpd counted one bad request and one application dropped (%s)" % st)


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


CASES = {"two-apps": case_two_apps, "app-killed": case_app_killed,
         "garbage": case_garbage, "restart": case_restart, "zero-copy": case_zero_copy,
         "loopback-peer": case_loopback_peer}


def main():
    build, case = sys.argv[1], sys.argv[2]
    if os.geteuid() != 0:
        print("SKIP: needs root (DPDK, memif)")
        return 77
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
