#!/usr/bin/env python3
"""What libdpsctp-sock costs an unmodified program, side by side in one run.

One namespace, two dpsctpd on a memif link (NsPair of
dataplane/sidecar/sock/tests/sock_test.py: A is 10.0.0.1 on lcore 0, B is
10.0.0.2 on lcore 1, both --idle-sleep-us 20; 10.0.0.1 also on the
namespace's lo for iperf3's TCP control connection). Over the same two
daemons:

  goodput   iperf3 --sctp through the library (LD_PRELOAD on both ends:
            server on A, client on B) against dpsctp-perf --sidecar
            (libdpsctp-client, busy-polling its rings: server on A, client
            on B), for 1452-byte messages and iperf3's default 64 KiB block,
            -t --seconds each; "forward" is B sending to A, "reverse" A to B
            (iperf3 -R; dpsctp-perf's client on A, its server on B). Beside
            the goodput, each end's CPU per message: for the library the
            process's CPU time (wait4()'s rusage: every thread, the pump
            included) over the messages it sent or received; for
            dpsctp-perf its own figure, the TSC cycles of its busy loop
            iterations per message (a busy poller's CPU time is its wall
            time).
  latency   64-byte ping-pong: sock-pingpong (bench/sock/sock_pingpong.c,
            the plain socket API) through the library on both ends against
            dpsctp-perf --sidecar --ping; one way = RTT/2, microseconds.

Everything runs twice (--nice): with the programs at the daemons' priority
(nice 0), and behind them (nice 19). Two cores carry two daemons and the
programs: at nice 0 a busy-polling dpsctp-perf takes half of each daemon's
core from it, while the library's programs sleep in the kernel between
messages and leave the daemons theirs; at nice 19 the daemons run whenever
they have work, as on a host with a core each, and every program waits for
a daemon's idle time, the library's wake-ups included. Neither is the
"right" figure on this machine; the pair shows what the scheduler makes of
each design.

The programs, the daemons and the library are copied out of --build first,
so a build during the run cannot mix two versions into one table.

Prints one JSON document (and writes it to --json PATH); --md FILE rewrites
the section between <!-- sock:begin and <!-- sock:end --> of FILE. A
program that printed its report but did not exit within 8 s is killed, its
figures kept, and the JSON lists it under "hung_at_exit".
Exit 0 when every figure was measured, 1 otherwise (the JSON still says
which failed and why); a machine that cannot run it: tests/prereq.py.

usage: run.py [--build DIR] [--seconds T] [--ping-seconds T] [--pings N]
              [--no-reverse] [--nice N[,N]] [--json PATH] [--md FILE]
"""
import argparse
import datetime
import json
import os
import platform
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "dataplane" / "sidecar" / "sock" / "tests"))
sys.path.insert(0, str(ROOT / "apps" / "dpsctpd" / "tests"))
import md_section  # noqa: E402  (bench/md_section.py)
from tests.prereq import cannot_run  # noqa: E402
from sock_test import NsPair  # noqa: E402
from dpsctpd_test import DAEMON_IP, PEER_IP, Rig  # noqa: E402

SIZES = [1452, 65536]  # iperf3 -l 1452, and iperf3's default SCTP block (64 KiB)
EXIT_GRACE = 8.0  # after its report: the library's exit linger is 5 s at most


# What a run executes, copied out of the build tree first: another build
# during the run (a minute and a half) cannot then mix two versions of the
# library or the daemons into one table. The layout is the build tree's, so
# the programs' $ORIGIN run paths find the snapshot's libraries.
SNAPSHOT = ["apps/dpsctpd/dpsctpd", "apps/dpsctp-perf/dpsctp-perf", "bench/sock/sock-pingpong",
            "dataplane/sidecar/sock/libdpsctp-sock.so", "dataplane/libdpsctp.so*",
            "dataplane/sidecar/libdpsctp-client.so*"]


def snapshot(build, into):
    for pattern in SNAPSHOT:
        found = [f for f in Path(build).glob(pattern) if f.is_symlink() or f.is_file()]
        if not found:
            raise FileNotFoundError("%s/%s is not built (ninja -C %s)" % (build, pattern, build))
        for f in found:
            dst = Path(into) / f.relative_to(build)
            dst.parent.mkdir(parents=True, exist_ok=True)
            # The name LD_PRELOAD uses as the file itself; the libraries' links as links.
            shutil.copy2(f, dst, follow_symlinks=pattern.endswith(".so"))
    return into


def get(doc, dotted):
    for k in dotted.split("."):
        doc = doc.get(k) if isinstance(doc, dict) else None
    return doc


def jdoc(text):
    """The JSON document in a program's stdout (None until it is whole)."""
    i = text.find("{")
    if i < 0:
        return None
    try:
        return json.loads(text[i:])
    except ValueError:
        return None


def shown(argv):
    """A command as a reader would type it: the program's name, no namespace prefix."""
    pre = []
    if argv[:1] == ["nice"]:
        pre, argv = argv[:3], argv[3:]
    if argv[:3] == ["ip", "netns", "exec"]:
        argv = argv[argv.index("env") + 1:] if "env" in argv else argv[4:]
        argv = ["LD_PRELOAD=libdpsctp-sock.so"] + [x for x in argv if not x.startswith(
            ("LD_PRELOAD=", "DPSCTP_SOCKET="))]
    return " ".join(pre + [os.path.basename(x) if x.endswith(("/dpsctp-perf", "/sock-pingpong"))
                           else x for x in argv])


class Job:
    """A program whose output goes to files and whose end is reaped with
    wait4(), for its CPU time (every thread of it)."""

    def __init__(self, name, argv, jobs):
        self.name, self.argv = name, argv
        self.out = tempfile.TemporaryFile(mode="w+")
        self.err = tempfile.TemporaryFile(mode="w+")
        self.p = subprocess.Popen(argv, stdout=self.out, stderr=self.err, text=True)
        self.rc, self.cpu, self.hung = None, None, False
        jobs.append(self)

    def _read(self, f):
        f.seek(0)
        return f.read()

    def stdout(self):
        return self._read(self.out)

    def text(self):
        return self.stdout() + self._read(self.err)

    def reaped(self):
        if self.rc is None:
            pid, status, ru = os.wait4(self.p.pid, os.WNOHANG)
            if pid == 0:
                return False
            self.rc = os.waitstatus_to_exitcode(status)
            self.p.returncode = self.rc  # Popen must not wait for it again
            self.cpu = ru.ru_utime + ru.ru_stime
        return True

    def wait_line(self, pattern, timeout):
        rx, end = re.compile(pattern, re.M), time.time() + timeout
        while time.time() < end:
            if rx.search(self.text()):
                return True
            if self.reaped():
                return bool(rx.search(self.text()))
            time.sleep(0.05)
        return False

    def finish(self, timeout, report=True):
        """Wait for the exit; a program that printed its JSON report and then
        did not exit within EXIT_GRACE is killed and marked hung."""
        end, since = time.time() + timeout, None
        while not self.reaped():
            if since is None and report and jdoc(self.stdout()) is not None:
                since = time.time()
            if since is not None and time.time() - since > EXIT_GRACE:
                self.hung = True
                break
            if time.time() > end:
                break
            time.sleep(0.05)
        if self.rc is None:
            self.kill()
        return self.rc

    def kill(self, sig=signal.SIGKILL):
        if self.rc is None:
            try:
                self.p.send_signal(sig)
            except ProcessLookupError:
                pass
            end = time.time() + 10
            while not self.reaped() and time.time() < end:
                time.sleep(0.05)


class Bench:
    def __init__(self, a, ns, rig, res):
        self.a, self.ns, self.rig, self.res = a, ns, rig, res
        self.perf = rig.exe("apps/dpsctp-perf/dpsctp-perf")
        self.pingpong = rig.exe("bench/sock/sock-pingpong")
        self.ports = random.sample(range(20000, 30000), 200)
        self.jobs = []
        self.nice = 0

    def port(self):
        return str(self.ports.pop())

    def job(self, name, argv):
        if self.nice:
            argv = ["nice", "-n", str(self.nice), *argv]
        self.res["commands"].append(shown(argv))
        return Job(name, argv, self.jobs)

    def client(self, name, argv, timeout):
        j = self.job(name, argv)
        j.finish(timeout)
        doc = jdoc(j.stdout())
        if j.hung:
            self.res["hung_at_exit"].append(shown(argv))
        elif j.rc != 0 or doc is None:
            raise RuntimeError("%s: exit %s: %s" % (name, j.rc, j.text()[-600:]))
        return j, doc

    def server_end(self, j):
        """A one-association server exits once the client is done."""
        j.finish(15)
        if j.rc is None or j.hung:
            self.res["hung_at_exit"].append(shown(j.argv))
        return j

    def in_ns(self, argv):
        return ["ip", "netns", "exec", self.ns.ns, *argv]

    def listening_tcp(self, port, j, timeout=20):
        end = time.time() + timeout
        while time.time() < end and not j.reaped():
            r = subprocess.run(self.in_ns(["ss", "-Hltn", "sport = :%s" % port]),
                               stdout=subprocess.PIPE, text=True)
            if r.stdout.strip():
                return True
            time.sleep(0.1)
        return False

    def iperf3(self, size, reverse):
        port = self.port()
        srv = self.job("iperf3", self.ns.run(self.ns.sa, ["iperf3", "-s", "-1", "-J", "-p",
                                                          port]))
        try:
            if not self.listening_tcp(port, srv):
                raise RuntimeError("iperf3 -s did not listen: " + srv.text()[-400:])
            argv = ["iperf3", "-c", DAEMON_IP, "-p", port, "--sctp", "-t", str(self.a.seconds),
                    "-J"]
            if size != 65536:
                argv += ["-l", str(size)]
            if reverse:
                argv.append("-R")
            cli, doc = self.client("iperf3", self.ns.run(self.ns.sb, argv), self.a.seconds + 40)
        finally:
            self.server_end(srv)
        if get(doc, "error"):
            raise RuntimeError("iperf3: " + str(get(doc, "error")))
        bps = get(doc, "end.sum_received.bits_per_second")
        blk = get(doc, "start.test_start.blksize") or size
        sent, got = get(doc, "end.sum_sent.bytes"), get(doc, "end.sum_received.bytes")
        # The sender is the client, or the server with -R.
        snd, rcv = (srv, cli) if reverse else (cli, srv)

        def per_msg(j, nbytes):
            return None if j.cpu is None or not nbytes else j.cpu * 1e9 / (nbytes / blk)
        return {"gbps": bps / 1e9 if bps else None,
                "protocol": get(doc, "start.test_start.protocol"), "blksize": blk,
                "bytes_sent": sent, "bytes_received": got,
                "cpu_seconds": {"sender": snd.cpu, "receiver": rcv.cpu},
                "cpu_ns_per_message": {"sender": per_msg(snd, sent),
                                       "receiver": per_msg(rcv, got)},
                "cpu_percent_iperf3": {"client": get(doc, "end.cpu_utilization_percent.host_total"),
                                       "server": get(doc,
                                                     "end.cpu_utilization_percent.remote_total")}}

    def ends(self, reverse):
        """(client's daemon, server's daemon, the server's address)"""
        return (self.ns.sb, self.ns.sa, DAEMON_IP) if not reverse else \
            (self.ns.sa, self.ns.sb, PEER_IP)

    def perf_server(self, ssock, port):
        srv = self.job("dpsctp-perf", [self.perf, "--sidecar", ssock, "-s", "-1", "--sctp-port",
                                       port, "-i", "0", "--json"])
        if not srv.wait_line(r"server: listening", 20):
            self.server_end(srv)
            raise RuntimeError("dpsctp-perf -s did not listen: " + srv.text()[-400:])
        return srv

    def dpsctp_perf(self, size, reverse):
        port = self.port()
        csock, ssock, peer = self.ends(reverse)
        srv = self.perf_server(ssock, port)
        try:
            cli, doc = self.client("dpsctp-perf", [
                self.perf, "--sidecar", csock, "-c", peer, "--sctp-port", port, "-l", str(size),
                "-t", str(self.a.seconds), "--omit", "0", "-i", "0", "--json"],
                self.a.seconds + 40)
        finally:
            self.server_end(srv)
        sdoc = jdoc(srv.stdout()) or {}
        bps = get(doc, "end.sum_received.bits_per_second")

        def ns(d, who):
            c, hz = get(d, "end.cycles_per_message." + who), get(d, "start.tsc_hz")
            return c * 1e9 / hz if c and hz else None
        return {"gbps": bps / 1e9 if bps else None,
                "messages_per_second": get(doc, "end.sum_received.messages_per_second"),
                "busy_ns_per_message": {"sender": ns(doc, "sender"),
                                        "receiver": ns(sdoc, "receiver")},
                "idle_fraction": {"sender": get(doc, "end.idle_fraction.sender"),
                                  "receiver": get(sdoc, "end.idle_fraction.receiver")},
                "cpu_seconds": {"sender": (srv if reverse else cli).cpu,
                                "receiver": (cli if reverse else srv).cpu}}

    def ping_library(self):
        port = self.port()
        srv = self.job("sock-pingpong", self.ns.run(self.ns.sa, [self.pingpong, "-s", "-1", "-p",
                                                                port]))
        try:
            if not srv.wait_line(r"listening on port", 20):
                raise RuntimeError("sock-pingpong -s did not listen: " + srv.text()[-400:])
            cli, doc = self.client("sock-pingpong", self.ns.run(self.ns.sb, [
                self.pingpong, "-c", DAEMON_IP, "-p", port, "-l", "64", "-n", str(self.a.pings),
                "-w", str(max(self.a.pings // 20, 100)), "--json"]), 120)
        finally:
            self.server_end(srv)
        if doc.get("bad_echoes"):
            raise RuntimeError("sock-pingpong: %d echoes not what was sent" % doc["bad_echoes"])
        return {"tool": "sock-pingpong", "round_trips": doc.get("round_trips"),
                "p50": get(doc, "latency_us.p50"), "p90": get(doc, "latency_us.p90"),
                "p99": get(doc, "latency_us.p99"), "max": get(doc, "latency_us.max"),
                "rtt_p50": get(doc, "rtt_us.p50"), "rtt_p99": get(doc, "rtt_us.p99")}

    def ping_perf(self):
        port = self.port()
        srv = self.perf_server(self.ns.sa, port)
        try:
            cli, doc = self.client("dpsctp-perf", [
                self.perf, "--sidecar", self.ns.sb, "-c", DAEMON_IP, "--sctp-port", port, "-l",
                "64", "--ping", "-t", str(self.a.ping_seconds), "-i", "0", "--json"],
                self.a.ping_seconds + 40)
        finally:
            self.server_end(srv)
        lat = get(doc, "end.latency_us") or {}
        return {"tool": "dpsctp-perf --ping", "round_trips": lat.get("samples"),
                "p50": lat.get("p50"), "p90": lat.get("p90"), "p99": lat.get("p99"),
                "max": lat.get("max")}

    def stop(self):
        for j in self.jobs:
            j.kill()


def measure(a, bench, res, nice):
    bench.nice = nice
    conf = {"programs_nice": nice, "goodput": [], "latency": {}}
    res["configurations"].append(conf)

    def attempt(what, fn, *args):
        what = "nice %d: %s" % (nice, what)
        try:
            r = fn(*args)
        except Exception as e:  # recorded; the run goes on to the next figure
            # What the daemons said lately, and the other end, to tell why.
            said = ["%s: %s" % (p.name, " | ".join(p.lines[-4:])) for p in bench.rig.procs]
            said += ["%s: %s" % (j.name, j.text()[-300:]) for j in bench.jobs[-2:]]
            res["errors"].append("%s: %s [%s]" % (what, e, "; ".join(said)))
            r = {"error": str(e)}
        print("%-42s %s" % (what, json.dumps(r)), file=sys.stderr, flush=True)
        return r

    for reverse in ([False, True] if a.reverse else [False]):
        direction = "reverse" if reverse else "forward"
        for size in SIZES:
            row = {"direction": direction, "message_bytes": size,
                   "what": ("A (10.0.0.1) sends to B (10.0.0.2)" if reverse else
                            "B (10.0.0.2) sends to A (10.0.0.1)")}
            row["library"] = attempt("iperf3 --sctp %s %d B" % (direction, size),
                                     bench.iperf3, size, reverse)
            row["dpsctp_perf"] = attempt("dpsctp-perf %s %d B" % (direction, size),
                                         bench.dpsctp_perf, size, reverse)
            lib, ref = row["library"].get("gbps"), row["dpsctp_perf"].get("gbps")
            row["ratio"] = lib / ref if lib and ref else None
            conf["goodput"].append(row)
    lib = attempt("sock-pingpong 64 B", bench.ping_library)
    ref = attempt("dpsctp-perf --ping 64 B", bench.ping_perf)
    conf["latency"] = {"message_bytes": 64, "one_way": "rtt/2", "unit": "us", "library": lib,
                       "dpsctp_perf": ref}
    if lib.get("p50") is not None and ref.get("p50") is not None:
        conf["latency"]["added_one_way_us"] = {"p50": lib["p50"] - ref["p50"],
                                               "p99": lib["p99"] - ref["p99"]}


def fmt_g(v):
    return "failed" if v is None else "%.2f Gbit/s" % v


def fmt_us(v):
    return "failed" if v is None else "%.1f" % v


def fmt_cpu(d):
    s, r = (d or {}).get("sender"), (d or {}).get("receiver")
    return "%s / %s" % tuple("—" if v is None else "%.2f" % (v / 1e3) for v in (s, r))


def report(res):
    cmd = "sudo python3 bench/sock/run.py --json bench/results/sock.json --md docs/PERFORMANCE.md"
    lines = ["<!-- sock:begin (written by bench/sock/run.py) -->", "",
             "Measured %s on %s, commit %s; one run: %d s of each goodput, %d round trips "
             "of sock-pingpong, %d s of `--ping`, once with the programs at the daemons' "
             "priority (nice 0) and once behind them (nice 19) (`%s`)." %
             (res["when"], res["host"], res["commit"], res["seconds"], res["pings"],
              res["ping_seconds"], cmd), "",
             "| programs at | direction | message | iperf3 --sctp through the library | "
             "dpsctp-perf --sidecar | library / dpsctp-perf | us of CPU a message, sender / "
             "receiver: library (process) | dpsctp-perf (busy loop) |",
             "|---|---|---|---|---|---|---|---|"]
    for conf in res["configurations"]:
        for r in conf["goodput"]:
            lib, ref = r["library"], r["dpsctp_perf"]
            lines.append("| nice %d | %s (%s) | %s | %s | %s | %s | %s | %s |" % (
                conf["programs_nice"], r["direction"],
                "A → B" if r["direction"] == "reverse" else "B → A",
                "64 KiB" if r["message_bytes"] == 65536 else "%d B" % r["message_bytes"],
                fmt_g(lib.get("gbps")), fmt_g(ref.get("gbps")),
                "—" if r["ratio"] is None else "%.0f %%" % (100 * r["ratio"]),
                fmt_cpu(lib.get("cpu_ns_per_message")),
                fmt_cpu(ref.get("busy_ns_per_message"))))
    lines += ["", "| programs at | 64-byte ping-pong, one way = RTT/2, us | p50 | p90 | p99 | "
              "max | round trips |", "|---|---|---:|---:|---:|---:|---:|"]
    for conf in res["configurations"]:
        lat = conf["latency"]
        for key, name in (("library", "sock-pingpong through the library"),
                          ("dpsctp_perf", "dpsctp-perf --sidecar --ping")):
            x = lat.get(key, {})
            lines.append("| nice %d | %s | %s | %s | %s | %s | %s |" % (
                conf["programs_nice"], name, fmt_us(x.get("p50")), fmt_us(x.get("p90")),
                fmt_us(x.get("p99")), fmt_us(x.get("max")), x.get("round_trips") or "—"))
        add = lat.get("added_one_way_us")
        if add:
            lines.append("| nice %d | the library's difference | %+.1f | | %+.1f | | |" %
                         (conf["programs_nice"], add["p50"], add["p99"]))
    lines += ["", "A 20 us sleep (the daemons' `--idle-sleep-us 20` when idle) took %.0f us "
              "here (timer slack %d us)." %
              (res["sleep_20us_takes_us"], res["timer_slack_ns"] // 1000)]
    if res["hung_at_exit"]:
        lines += ["", "Did not exit after printing their report (killed %g s later, figures "
                  "kept): %s." % (EXIT_GRACE, "; ".join("`%s`" % h for h in res["hung_at_exit"]))]
    if res["errors"]:
        lines += ["", "Failed in this run: " + "; ".join(res["errors"])]
    lines += ["", "<!-- sock:end -->"]
    return "\n".join(lines)


def sleep_20us():
    """What a 20 us sleep (dpsctpd --idle-sleep-us 20) takes on this host, in us:
    timer slack and the timer's own latency make it longer."""
    n, t = 2000, time.perf_counter()
    for _ in range(n):
        time.sleep(20e-6)
    return (time.perf_counter() - t) / n * 1e6


def commit():
    def git(*args):
        return subprocess.run(["git", "-C", str(ROOT), *args], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True).stdout.strip()
    c = git("rev-parse", "--short", "HEAD")
    return c + (" with the working tree" if git("status", "--porcelain", "--untracked-files=no")
                else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--seconds", type=int, default=3, help="-t of each goodput run")
    ap.add_argument("--ping-seconds", type=int, default=3, help="dpsctp-perf --ping -t")
    ap.add_argument("--pings", type=int, default=10000, help="sock-pingpong's round trips")
    ap.add_argument("--no-reverse", dest="reverse", action="store_false",
                    help="B sending to A only")
    ap.add_argument("--nice", type=lambda v: [int(x) for x in v.split(",")], default=[0, 19],
                    help="the programs' (not the daemons') nice levels, one pass each "
                    "(default 0,19)")
    ap.add_argument("--json", "--out", dest="out", help="write the JSON document here too")
    ap.add_argument("--md", help="rewrite the sock section of this Markdown file")
    a = ap.parse_args()
    if os.geteuid() != 0:
        return cannot_run("needs root (a namespace, DPDK's memif and /var/run/dpdk)")
    if shutil.which("iperf3") is None:
        return cannot_run("iperf3 is not installed (apt-get install iperf3)")
    snap = tempfile.TemporaryDirectory(prefix="sockbench")
    try:
        snapshot(a.build, snap.name)
    except OSError as e:
        print("run.py:", e, file=sys.stderr)
        return 1
    res = {"tool": "bench/sock/run.py",
           "when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "host": "%s (%s), %d cpus, %s" % (socket.gethostname(), platform.machine(),
                                              os.cpu_count() or 0, platform.release()),
           "commit": commit(), "seconds": a.seconds, "pings": a.pings,
           "ping_seconds": a.ping_seconds, "sleep_20us_takes_us": round(sleep_20us(), 1),
           "timer_slack_ns": int(open("/proc/self/timerslack_ns").read()),
           "topology": "two dpsctpd on a memif link in a namespace: A 10.0.0.1 on lcore 0, "
                       "B 10.0.0.2 on lcore 1, --idle-sleep-us 20; the programs unpinned",
           "configurations": [], "hung_at_exit": [], "errors": [], "commands": []}
    # SIGTERM (a test's timeout, a kill) goes through the finally below as ^C does.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    rig = Rig(snap.name, "sb%d" % os.getpid())
    ns = NsPair(rig)
    bench = Bench(a, ns, rig, res)
    t0 = time.time()
    try:
        ns.up()
        for nice in a.nice:
            measure(a, bench, res, nice)
    except Exception as e:
        res["errors"].append("set-up: %s" % e)
    finally:
        bench.stop()
        for p in reversed(rig.procs):  # the daemons, gently first
            p.stop(signal.SIGTERM, 10)
        rig.stop()
        ns.down()
        snap.cleanup()
        for side in "AB":  # the daemons' DPDK runtime directories (--file-prefix)
            shutil.rmtree("/var/run/dpdk/%s%s" % (rig.tag, side), ignore_errors=True)
    res["elapsed_seconds"] = round(time.time() - t0, 1)
    text = json.dumps(res, indent=1)
    print(text)
    if a.out:
        os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
        with open(a.out, "w") as f:
            f.write(text + "\n")
    if a.md:
        md_section.write_section(a.md, "sock", report(res),
                                 "Sockets for unmodified programs (`bench/sock/run.py`)")
    return 1 if res["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
