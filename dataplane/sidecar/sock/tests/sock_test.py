#!/usr/bin/env python3
"""[dp] libdpsctp-sock: unmodified programs' SCTP sockets through dpsctpd.

Every program here is run as it is, with LD_PRELOAD=libdpsctp-sock.so and
DPSCTP_SOCKET naming the daemon; none of them knows dpsctp exists. Each
case starts its own daemons (and namespace) and always removes them.

  python-client  sock_py_app.py (socket.IPPROTO_SCTP) through dpsctpd
                 --loopback-peer echo: a non-blocking connect waited for with
                 select() beside a pipe, SO_ERROR, getpeername, SCTP_STATUS,
                 INITMSG's streams, a receive timeout, 400 messages of 1 ..
                 9000 B echoed (SHA-256 both ways), poll(), a dup(), a message
                 read in two parts, an AF_INET6 socket to an IPv4 peer; ENOPROTOOPT
                 for an option not served; ECONNREFUSED from a port nobody
                 listens on; the one-to-many style (SOCK_SEQPACKET): 200
                 messages echoed through an association set up by the first
                 send, COMM_UP first, SCTP_SNDRCV's stream and PPID, the
                 sender's address, then sctp_peeloff() and EPIPE for its id;
                 a program that exits with its queue past SO_RCVBUF
  python-server  sock_py_app.py server listening on an AF_INET6 socket of
                 a dpsctpd on a memif link; dpsctp-echo (embedded, the other
                 end) sends 2,000 x 1,200 B, every echo checked by the peer;
                 the server sees the end when the peer closes
  no-daemon      no daemon at DPSCTP_SOCKET: socket() fails with
                 ECONNREFUSED and one line on stderr saying why; a kernel TCP
                 socket in the same process is made as always
  daemon-gone    the daemon is killed under a connected Python program:
                 recv() and send() fail (ECONNRESET, EPIPE), nothing hangs
  iperf3         Debian's iperf3 as server and client, each through its own
                 dpsctpd (two daemons on a memif link, in a namespace whose
                 loopback carries the server's address for iperf3's TCP
                 control connection): --sctp -n 64M one way, then reversed
                 (-R); iperf3's own counts: every byte sent was received
  api            sock_api_test (C, linked with Debian's libsctp) through
                 --loopback-peer echo: sctp_sendmsg/recvmsg, sctp_send,
                 sctp_sendv/recvv, sctp_opt_info, sctp_getpaddrs/getladdrs,
                 sctp_bindx, sctp_connectx; epoll level- and edge-triggered
                 over a pipe and an SCTP socket; SO_RCVTIMEO, EINTR, a blocked
                 recv that uses no CPU; accept's timeout, EADDRINUSE; fork (the
                 child: ENOTSUP on the parent's socket, its own works; the
                 parent's intact); SHUT_WR and SHUTDOWN_COMP, EPIPE, SO_LINGER 0
  sctp-test      lksctp-tools' sctp_test, one-to-many and one-to-one (-T):
                 30 messages from the client, every one read by the server,
                 whose notifications say COMM_UP and SHUTDOWN_COMPLETE
  sctp-darn      lksctp-tools' sctp_darn, one-to-many and one-to-one (-t): two
                 lines typed into the client arrive at the server intact

usage: sock_test.py BUILD_DIR CASE
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "apps" / "dpsctpd" / "tests"))
from tests.prereq import cannot_run  # noqa: E402
from dpsctpd_test import EAL, DAEMON_IP, PEER_IP, Proc, Rig, echoed_all  # noqa: E402

HERE = Path(__file__).resolve().parent
APP = str(HERE / "sock_py_app.py")


class Sock:
    """The environment a program runs in to have its SCTP sockets through a daemon."""

    def __init__(self, build, daemon_sock):
        self.env = dict(os.environ)
        self.env["LD_PRELOAD"] = os.path.join(build, "dataplane/sidecar/sock/libdpsctp-sock.so")
        self.env["DPSCTP_SOCKET"] = daemon_sock
        # Python's own stdout to a pipe: line by line, so a killed run still shows.
        self.env["PYTHONUNBUFFERED"] = "1"


def run_app(rig, env, args, timeout=120, name="app"):
    r = subprocess.run([sys.executable, APP, *args], env=env.env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=timeout)
    print(r.stdout, end="")
    return r


def start_loopback(rig, n=0):
    prefix = f"{rig.tag}l{n}"
    d = Proc("dpsctpd", [rig.exe("apps/dpsctpd/dpsctpd"), *EAL, f"--file-prefix={prefix}", "--",
                         "--loopback-peer", "echo", "--socket", rig.sock, "--idle-sleep-us", "20"])
    rig.procs.append(d)
    if d.wait_line(r"dpsctpd: serving", 20) is None:
        raise RuntimeError("dpsctpd did not start:\n" + d.text())
    return d


def case_python_client(rig):
    start_loopback(rig)
    env = Sock(rig.build, rig.sock)
    r = run_app(rig, env, ["client", "10.255.0.2", "5001", "400"])
    rig.check(r.returncode == 0 and "0 failed" in r.stdout,
              "sock_py_app.py client: every check passed")
    r = run_app(rig, env, ["many", "10.255.0.2", "5001", "200"])
    rig.check(r.returncode == 0 and "0 failed" in r.stdout,
              "sock_py_app.py many (SOCK_SEQPACKET): every check passed")
    # A program that exits with more than SO_RCVBUF unread: the pump, held by
    # that queue, must still let the exit go (it hung before).
    t0 = time.time()
    r = run_app(rig, env, ["unread", "10.255.0.2", "5001"], timeout=30)
    rig.check(r.returncode == 0 and "exiting" in r.stdout and time.time() - t0 < 20,
              "a program exits with its queue past SO_RCVBUF (%.1f s)" % (time.time() - t0))
    r = run_app(rig, env, ["refused", "10.255.0.2", "5999"])
    rig.check(r.returncode == 0, "connect to a port nobody listens on: ECONNREFUSED")


def case_python_server(rig):
    rig.start_daemon()
    env = Sock(rig.build, rig.sock)
    srv = Proc("server", [sys.executable, APP, "server", "5001", "2000"], env=env.env)
    rig.procs.append(srv)
    rig.check(srv.wait_line(r"^listening", 20) is not None, "the Python server listens")
    peer = rig.start_peer(["-c", DAEMON_IP, "-n", "2000", "-l", "1200"])
    rig.check(peer.wait(120) == 0 and echoed_all(peer, 2000),
              "the peer's 2,000 x 1,200 B echoed intact by the Python server")
    rig.check(srv.wait(30) == 0, "the server's checks (%s)" %
              [ln for ln in srv.lines if ln.startswith(("ok", "FAIL"))])


def case_api(rig):
    exe = rig.exe("dataplane/sidecar/sock/tests/sock_api_test")
    if not os.path.exists(exe):
        sys.exit(cannot_run("sock_api_test was not built (libsctp-dev missing)"))
    start_loopback(rig)
    env = Sock(rig.build, rig.sock)
    r = subprocess.run([exe, "10.255.0.2", "5001"], env=env.env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    print(r.stdout, end="")
    rig.check(r.returncode == 0 and "0 failed" in r.stdout,
              "sock_api_test: every check passed (exit %d)" % r.returncode)


def case_no_daemon(rig):
    env = Sock(rig.build, "/tmp/%s.nobody" % rig.tag)
    r = run_app(rig, env, ["nodaemon"])
    rig.check(r.returncode == 0, "socket() fails with ECONNREFUSED, TCP unaffected")
    rig.check("libdpsctp-sock: cannot attach to dpsctpd at /tmp/%s.nobody" % rig.tag in r.stdout,
              "stderr says which daemon socket could not be reached")
    # DPSCTP_SOCK_FALLBACK=kernel: the kernel's socket() instead, which here has no
    # SCTP (EPROTONOSUPPORT, not the library's ECONNREFUSED).
    env.env["DPSCTP_SOCK_FALLBACK"] = "kernel"
    r = run_app(rig, env, ["nodaemon", "EPROTONOSUPPORT"])
    rig.check(r.returncode == 0 and "Protocol not supported" in r.stdout,
              "DPSCTP_SOCK_FALLBACK=kernel: socket() went to the kernel (EPROTONOSUPPORT here)")


def case_daemon_gone(rig):
    d = start_loopback(rig)
    env = Sock(rig.build, rig.sock)
    p = subprocess.Popen([sys.executable, APP, "gone", "10.255.0.2", "5001"], env=env.env,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    first = p.stdout.readline() + p.stdout.readline()
    print(first, end="")
    rig.check("connected" in first, "connected and echoed before the daemon goes")
    d.p.kill()
    d.wait(10)
    try:
        out, _ = p.communicate("go\n", timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        rig.check(False, "the program hung after the daemon died")
    print(out, end="")
    rig.check(p.returncode == 0, "recv and send fail at once, no hang")


class NsPair:
    """Two dpsctpd on a memif link inside a namespace of our own; the server
    daemon's address also on the namespace's loopback, for the programs'
    kernel TCP (iperf3's control connection). down() removes everything."""

    def __init__(self, rig):
        self.rig, self.ns = rig, f"dpsk{os.getpid()}"
        self.memif = f"/tmp/{rig.tag}.nsmemif"
        self.sa, self.sb = f"/tmp/{rig.tag}.A", f"/tmp/{rig.tag}.B"

    def up(self):
        subprocess.run(["ip", "netns", "del", self.ns], stderr=subprocess.DEVNULL)
        for cmd in (["ip", "netns", "add", self.ns],
                    ["ip", "-n", self.ns, "link", "set", "lo", "up"],
                    ["ip", "-n", self.ns, "addr", "add", DAEMON_IP + "/32", "dev", "lo"]):
            subprocess.run(cmd, check=True)
        for f in (self.memif, self.sa, self.sb):
            if os.path.exists(f):
                os.unlink(f)
        for side, sock, ip, role, lcore in (("A", self.sa, DAEMON_IP, "server", "0"),
                                            ("B", self.sb, PEER_IP, "client", "1")):
            eal = ["-l", lcore] + EAL[2:]
            d = Proc("dpsctpd-" + side, ["ip", "netns", "exec", self.ns,
                                         self.rig.exe("apps/dpsctpd/dpsctpd"), *eal,
                                         f"--file-prefix={self.rig.tag}{side}", "--", "--port",
                                         f"net_memif0,socket={self.memif},socket-abstract=no,"
                                         f"id=0,role={role}", "--ip", ip + "/24",
                                         "--socket", sock, "--idle-sleep-us", "20"])
            self.rig.procs.append(d)
            if d.wait_line(r"dpsctpd: serving", 20) is None:
                raise RuntimeError("dpsctpd %s did not start:\n%s" % (side, d.text()))

    def run(self, sock, argv):
        env = Sock(self.rig.build, sock).env
        return ["ip", "netns", "exec", self.ns, "env",
                "LD_PRELOAD=" + env["LD_PRELOAD"], "DPSCTP_SOCKET=" + sock, *argv]

    def down(self):
        subprocess.run(["ip", "netns", "del", self.ns], stderr=subprocess.DEVNULL)
        for f in (self.memif, self.sa, self.sb):
            if os.path.exists(f):
                os.unlink(f)


def with_pair(rig, body):
    ns = NsPair(rig)
    try:
        ns.up()
        body(ns)
    finally:
        rig.stop()
        ns.down()


def iperf_json(text):
    try:
        return json.loads(text)
    except ValueError:
        return {}


def case_iperf3(rig):
    if shutil.which("iperf3") is None:
        sys.exit(cannot_run("iperf3 is not installed (apt-get install iperf3)"))

    def body(ns):
        for rev in ([], ["-R"]):
            port = str(5201 + random.randrange(1000))
            srv = Proc("iperf3-s", ns.run(ns.sa, ["iperf3", "-s", "-1", "-J", "-p", port]))
            rig.procs.append(srv)
            time.sleep(1)
            cli = subprocess.run(ns.run(ns.sb, ["iperf3", "-c", DAEMON_IP, "-p", port, "--sctp",
                                                "-n", "64M", "-J", *rev]),
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 timeout=120)
            srv.wait(30)
            c, s = iperf_json(cli.stdout), iperf_json(srv.text())
            what = "iperf3 --sctp -n 64M%s" % (" -R" if rev else "")
            if cli.returncode != 0 or not c or not s:
                print(cli.stdout[-2000:], srv.text()[-2000:])
            sent = c.get("end", {}).get("sum_sent", {}).get("bytes", 0)
            got = c.get("end", {}).get("sum_received", {}).get("bytes", 0)
            proto = c.get("start", {}).get("test_start", {}).get("protocol")
            rig.check(cli.returncode == 0 and proto == "SCTP",
                      "%s: completes, protocol %s" % (what, proto))
            # The receiving end counts what it read until the sender's TEST_END
            # came over the TCP control connection (iperf3 does so on Linux too):
            # the client's receiver (-R) has read everything, the server may
            # miss what was still between the programs, at most the two
            # sockets' buffers and the daemons' windows.
            exact = bool(rev)
            rig.check(sent >= 64 << 20 and (got == sent if exact else
                                            sent - (2 << 20) <= got <= sent),
                      "%s: %d bytes sent, %d received (iperf3's counts%s)" %
                      (what, sent, got, "" if exact else "; the server's, as of TEST_END"))
            bps = c.get("end", {}).get("sum_received", {}).get("bits_per_second", 0)
            print("%s: %.2f Gbit/s" % (what, bps / 1e9))

    with_pair(rig, body)


def case_sctp_test(rig):
    if shutil.which("sctp_test") is None:
        sys.exit(cannot_run("sctp_test is not installed (apt-get install lksctp-tools)"))

    def body(ns):
        for style, flag, port in (("one-to-many", [], 5000), ("one-to-one", ["-T"], 5010)):
            srv = Proc("sctp_test-s", ns.run(ns.sa, ["stdbuf", "-oL", "sctp_test", "-H",
                                                     DAEMON_IP, "-P", str(port), "-l", *flag]))
            rig.procs.append(srv)
            rig.check(srv.wait_line(r"listen", 20) is not None,
                      "sctp_test -l %s listens" % style)
            cli = subprocess.run(ns.run(ns.sb, ["sctp_test", "-H", PEER_IP, "-P", str(port + 1),
                                                "-h", DAEMON_IP, "-p", str(port), "-s", "-c",
                                                "0", "-x", "3", "-X", "10", *flag]),
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 timeout=60)
            sends = len(re.findall(r"sendmsg\(sk=\d+, assoc=\d+\)\s+\d+ bytes", cli.stdout))
            rig.check(cli.returncode == 0 and sends == 30,
                      "sctp_test -s -x 3 -X 10 (%s): 30 messages sent, exit %d" %
                      (style, cli.returncode))
            end = time.time() + 20
            while time.time() < end and srv.wait_line(r"SHUTDOWN_COMPLETE", 0.5) is None:
                pass
            got = len([ln for ln in srv.lines if re.search(r"Data \d+ bytes", ln)])
            rig.check(got == 30, "the %s server read %d of 30 messages" % (style, got))
            rig.check(srv.wait_line(r"SCTP_ASSOC_CHANGE\(COMMUNICATION_UP\)", 1) is not None and
                      srv.wait_line(r"SCTP_ASSOC_CHANGE\(SHUTDOWN_COMPLETE\)", 1) is not None,
                      "the %s server's notifications: COMMUNICATION_UP, then SHUTDOWN_COMPLETE"
                      % style)
            if os.environ.get("SOCK_TEST_VERBOSE"):
                print("\n".join(srv.lines[-30:]))
            srv.stop()

    with_pair(rig, body)


def case_sctp_darn(rig):
    if shutil.which("sctp_darn") is None:
        sys.exit(cannot_run("sctp_darn is not installed (apt-get install lksctp-tools)"))

    def body(ns):
        for style, flag, port in (("one-to-many", [], 5002), ("one-to-one", ["-t"], 5012)):
            srv = Proc("sctp_darn-s", ns.run(ns.sa, ["stdbuf", "-oL", "sctp_darn", "-H",
                                                     DAEMON_IP, "-P", str(port), "-l", *flag]))
            rig.procs.append(srv)
            rig.check(srv.wait_line(r"listening", 20) is not None,
                      "sctp_darn -l %s listens" % style)
            lines = "the first line\nand the second, a little longer\n"
            subprocess.run(ns.run(ns.sb, ["sctp_darn", "-H", PEER_IP, "-P", str(port + 1), "-h",
                                          DAEMON_IP, "-p", str(port), "-s", *flag]),
                           input=lines, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=60)
            # sctp_darn's exit status is the length of its last message, not a verdict.
            for ln in lines.splitlines():
                want = r"DATA\(%d\):\s+%s\." % (len(ln) + 2, re.escape(ln))
                rig.check(srv.wait_line(want, 20) is not None,
                          "the %s server got %r" % (style, ln))
            srv.stop()

    with_pair(rig, body)


CASES = {
    "python-client": case_python_client,
    "python-server": case_python_server,
    "no-daemon": case_no_daemon,
    "daemon-gone": case_daemon_gone,
    "iperf3": case_iperf3,
    "sctp-test": case_sctp_test,
    "sctp-darn": case_sctp_darn,
    "api": case_api,
}


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        print(__doc__, file=sys.stderr)
        return 2
    if os.geteuid() != 0:
        return cannot_run("needs root (namespaces, DPDK's memif and /var/run/dpdk)")
    rig = Rig(sys.argv[1], "sk%d" % os.getpid())
    try:
        CASES[sys.argv[2]](rig)
    finally:
        rig.stop()
    print("%d failed" % len(rig.failures))
    return 1 if rig.failures else 0


if __name__ == "__main__":
    sys.exit(main())
