#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Path MTU discovery in network namespaces (docs/PMTU.md, "In network
namespaces"): 64 KiB messages across a router whose far side carries only
1,280 bytes, with its ICMP errors delivered and then filtered.

Three namespaces:

  A  dpsctp-peer (the client) on net_af_packet over veth a0
  R  a Linux router (ip_forward, IPv6 forwarding) between veths ra and rb;
     its routes to A's and to B's network carry MTU 1280 ("mtu lock"), so
     it forwards at most 1,280 bytes either way and answers a larger packet
     with ICMP "fragmentation needed" / ICMPv6 "packet too big" (RFC 1191,
     RFC 8201) to whichever side sent it. The links stay at 1,500: a veth
     drops a frame over its own MTU on receipt without a word, which would
     test nothing but a black hole in one direction.
  B  the server, echoing every message: dpsctp-peer on veth b0, or
     usrsctp-peer on B's kernel addresses.

Each run: the client sends -n messages (sizes up to 64 KiB, every fifth a
64, 32 or 16 KiB one) and checks that every echo comes back intact, exactly
once. Variants: IPv4 and IPv6; ICMP delivered, or filtered on R (nftables
drops what R itself sends of ICMP 3/4 and ICMPv6 2: only PLPMTUD, RFC 8899,
can find the path then, so dpsctp runs with --plpmtud on); the MTU at 1,280
from the start, or lowered from 1,500 between two batches (--cases drop).
dumpcap captures on both of R's links and tshark judges:

  - the client and the server exit 0 (every message echoed intact; the
    association ends with a SHUTDOWN), and no ABORT crosses R;
  - every SCTP packet's CRC32c verifies, nothing is malformed;
  - ICMP on: R sent ICMP errors; filtered: none left R;
  - "no DATA over 1,280 after discovery", per sender: once a sender has
    sent three DATA packets in a row sized for the 1,280 path (1,216 < IP
    length <= 1,280) after the MTU fell, none of its packets carrying DATA exceeds
    1,280 bytes (an RFC 8899 probe, HEARTBEAT and PAD without DATA, may:
    that is how the path is probed upward). Retransmitted DATA cut for the
    old MTU goes as IP fragments of at most 1,280 (RFC 9260 §7.3).

Against usrsctp (server in B): usrsctp in user space has no ICMP PMTUD
(its ICMP input is compiled out) and no PLPMTUD; the 1,500-byte packets it
sends with DF set into a 1,280 path are dropped until its association
fails. So usrsctp-peer runs with --pmtu 1280 (its path MTU fixed, as its
application must on such a path, docs/INTEROP.md); dpsctp's direction,
A to B, is the one under test, and B reassembles dpsctp's IP fragments in
its kernel.

--bench: the MTU lowered under traffic (three batches of 2,000 messages
back to back, the route lowered once the first has been echoed), ICMP on
and filtered, IPv4 and IPv6, dpsctp at both ends; prints one JSON object
per run: the time from the drop to the first full-sized (64 KiB) message
delivered after it (its last I-DATA chunk through R to B), and A-to-B
goodput before and after (unique TSNs' payload through R per second).

  pmtu_ns.py BUILD_DIR [--peers dpsctp,usrsctp] [--families 4,6]
             [--icmp on,off] [--cases static,drop] [-n MSGS] [--bench]
             [--json FILE] [--keep DIR] [-v]

Namespaces, veths and processes always go away (finally, SIGTERM); captures
of failing runs are kept (--keep DIR, default BUILD_DIR/pmtu-artifacts).
Exit status 0 every run passed, 1 a run failed, 77 skipped (only with
DPSCTP_ALLOW_SKIP=1: not root, or a program missing).
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import interop  # noqa: E402  (Proc, sh, the capture helpers)
from interop import Proc, sh, capture_settle, capture_dropped, on_term  # noqa: E402
from tests.prereq import cannot_run  # noqa: E402

PATH_MTU = 1280
LINK_MTU = 1500
SCTP_PORT = 5001
# Addresses: A-R on the first network, R-B on the second; R is .254 / ::fe.
NETS = {
    4: {"a": "192.0.2.1", "ra": "192.0.2.254", "rb": "198.51.100.254", "b": "198.51.100.2",
        "net_a": "192.0.2.0/24", "net_b": "198.51.100.0/24", "plen": 24},
    6: {"a": "2001:db8:1::1", "ra": "2001:db8:1::fe", "rb": "2001:db8:2::fe",
        "b": "2001:db8:2::2", "net_a": "2001:db8:1::/64", "net_b": "2001:db8:2::/64",
        "plen": 64},
}
# One lcore each, apart: two polling data planes on one core would share it.
EAL = ["--no-huge", "--no-pci", "--no-shconf", "-m", "512", "--log-level", "lib.eal:error"]
# Sizes up to 64 KiB (interop_msg.h), every fifth message 64, 32 or 16 KiB.
MSG = ["-l", "65536", "--big", "65536", "-S", "4", "--echo"]
TSHARK = ["-n", "-o", "sctp.checksum:CRC 32c", "-o", "sctp.ulp_dissection:FALSE",
          "-o", "sctp.tsn_analysis:FALSE", "-o", "sctp.reassembly:FALSE"]
DATA, ABORT, I_DATA = 0, 6, 64
FULL = 60000  # a "full-sized" message: the 64 KiB ones (65536 less at most 12)

VERBOSE = False


def log(*a):
    print(*a, flush=True)


class Net3:
    """Namespaces A, R and B; R routes between them at PATH_MTU (or LINK_MTU until drop())."""

    def __init__(self, fam, peer, mtu):
        tag = str(os.getpid())
        self.ns = {k: "dpp%s-%s" % (k, tag) for k in ("A", "R", "B")}
        self.fam, self.peer = fam, peer
        self.procs = []
        self.made = []
        self.mtu = mtu

    def ip(self, ns, *args):
        return sh("ip", "-n", self.ns[ns], *(["-6"] if self.fam == 6 else []), *args)

    def route_mtu(self, mtu):
        """R's routes to both networks at mtu, locked: R forwards at most that, either way."""
        n = NETS[self.fam]
        for net, dev, src in ((n["net_a"], "ra", n["ra"]), (n["net_b"], "rb", n["rb"])):
            # The connected route itself (IPv6's has metric 256), not a second one.
            self.ip("R", "route", "replace", net, "dev", dev, "src", src, "mtu", "lock",
                    str(mtu), *(["metric", "256"] if self.fam == 6 else []))
        self.mtu = mtu

    def up(self):
        n = NETS[self.fam]
        for ns in self.ns.values():
            sh("ip", "netns", "add", ns)
            self.made.append(ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
            # No duplicate address detection: link-local addresses usable at
            # once, so that R forwards (and answers ND) from the first INIT.
            for k in ("all", "default"):
                sh("ip", "netns", "exec", ns, "sysctl", "-qw",
                   "net.ipv6.conf.%s.accept_dad=0" % k)
        A, R, B = self.ns["A"], self.ns["R"], self.ns["B"]
        sh("ip", "-n", A, "link", "add", "a0", "type", "veth", "peer", "name", "ra", "netns", R)
        sh("ip", "-n", B, "link", "add", "b0", "type", "veth", "peer", "name", "rb", "netns", R)
        for k in ("net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1"):
            sh("ip", "netns", "exec", R, "sysctl", "-qw", k)
        nodad = ["nodad"] if self.fam == 6 else []
        self.ip("R", "addr", "add", "%s/%d" % (n["ra"], n["plen"]), "dev", "ra", *nodad)
        self.ip("R", "addr", "add", "%s/%d" % (n["rb"], n["plen"]), "dev", "rb", *nodad)
        if self.peer == "usrsctp":
            # usrsctp reads and writes raw IP: B's kernel holds the address,
            # routes through R, and reassembles what arrives in fragments.
            self.ip("B", "addr", "add", "%s/%d" % (n["b"], n["plen"]), "dev", "b0", *nodad)
        for ns, dev in ((A, "a0"), (R, "ra"), (R, "rb"), (B, "b0")):
            sh("ip", "-n", ns, "link", "set", dev, "mtu", str(LINK_MTU), "up")
        if self.peer == "usrsctp":
            self.ip("B", "route", "add", "default", "via", n["rb"])
        self.route_mtu(self.mtu)

    def filter_icmp(self):
        """R sends no ICMP 3/4 and no ICMPv6 Packet Too Big (what a careless firewall does)."""
        rules = ("table inet pmtu_ns {\n"
                 " chain out {\n"
                 "  type filter hook output priority 0; policy accept;\n"
                 "  icmp type destination-unreachable icmp code frag-needed counter drop\n"
                 "  icmpv6 type packet-too-big counter drop\n"
                 " }\n"
                 "}\n")
        r = subprocess.run(["ip", "netns", "exec", self.ns["R"], "nft", "-f", "-"], input=rules,
                           text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise RuntimeError("nft: %s" % r.stdout.strip())

    def icmp_dropped(self):
        out = sh("ip", "netns", "exec", self.ns["R"], "nft", "list", "table", "inet", "pmtu_ns",
                 check=False)
        return sum(int(x) for x in re.findall(r"counter packets (\d+)", out))

    def start(self, name, ns, argv, logdir):
        p = Proc(name, self.ns[ns], argv, logdir)
        self.procs.append(p)
        return p

    def down(self):
        for p in self.procs:
            p.close()
        self.procs = []
        for ns in self.made:
            subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)
        self.made = []


def sweep_stale_namespaces():
    """Namespaces a killed run left behind (its pid is in their name)."""
    for ln in sh("ip", "netns", "list", check=False).splitlines():
        name = ln.split()[0] if ln.split() else ""
        m = re.match(r"dpp[ARB]-(\d+)$", name)
        if m and not os.path.exists("/proc/%s" % m.group(1)):
            subprocess.run(["ip", "netns", "del", name], stderr=subprocess.DEVNULL)


def frames(cap, defrag):
    """Every IP frame of the capture: time, link (ra/rb), source, IP length,
    chunk types (when tshark dissects SCTP in it), ICMP type/code, CRC32c
    verdict. defrag False: one row per IP fragment as it
    crossed the link (its own length); True: SCTP dissected in the frame
    that completes a datagram."""
    fields = ["frame.time_epoch", "frame.interface_name", "ip.src", "ipv6.src", "ip.len",
              "ipv6.plen", "sctp.chunk_type", "icmp.type", "icmp.code", "icmpv6.type",
              "sctp.checksum.status", "_ws.malformed"]
    out = sh("tshark", "-r", cap, *TSHARK, "-o", "ip.defragment:%s" % defrag,
             "-o", "ipv6.defragment:%s" % defrag, "-Y", "ip || ipv6", "-T", "fields",
             "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=,",
             *sum((["-e", f] for f in fields), []))
    rows = []
    ints = lambda s: [int(x, 0) for x in s.split(",") if x]  # noqa: E731
    for ln in out.splitlines():
        f = ln.split("|")
        if len(f) != len(fields):
            continue
        v4 = f[2] != ""
        src = (f[2] or f[3]).split(",")[0]
        iplen = ints(f[4])[0] if v4 and f[4] else (ints(f[5])[0] + 40 if f[5] else 0)
        icmp = f[7] != "" or f[9] != ""
        # An ICMP error's quote is not a packet sent: its chunks do not count.
        types = [] if icmp else ints(f[6])
        rows.append({"t": float(f[0]), "link": f[1], "src": src, "len": iplen,
                     "chunks": types, "data": DATA in types or I_DATA in types,
                     "icmp": (ints(f[7]) or [None])[0], "icmp_code": (ints(f[8]) or [None])[0],
                     "icmp6": (ints(f[9]) or [None])[0], "crc": "" if icmp else f[10],
                     "malformed": f[11] != ""})
    return rows


def discovered(mine):
    """When a sender's packets show it sizes DATA for the 1,280 path: its
    first three DATA packets in a row that are full for it: within 64
    bytes of it (chunk padding, bundling, and PLPMTUD's search, which
    stops at the largest probe size that got through, 1,264 here). A
    packet that merely happens to be that long (the end of a message) is
    not taken for it."""
    run = []
    for r in mine:
        if not r["data"]:
            continue
        run = run + [r["t"]] if PATH_MTU - 64 < r["len"] <= PATH_MTU else []
        if len(run) == 3:
            return run[0]
    return None


class Run:
    def __init__(self, args, peer, fam, icmp, case):
        self.a, self.peer, self.fam, self.icmp, self.case = args, peer, fam, icmp, case
        self.errs, self.notes = [], []
        self.tmp = tempfile.mkdtemp(prefix="dpsctp-pmtu-")
        self.cap = os.path.join(self.tmp, "router.pcapng")
        self.t_drop = None
        self.figures = {}

    @property
    def name(self):
        return "%s/ipv%d/icmp-%s/%s" % (self.peer, self.fam, self.icmp, self.case)

    def dp_argv(self, side, lcore, extra):
        n = NETS[self.fam]
        me, gw = (n["a"], n["ra"]) if side == "A" else (n["b"], n["rb"])
        dev = "a0" if side == "A" else "b0"
        return ([os.path.join(self.a.build, "dataplane/tests/interop/dpsctp-peer")] + EAL +
                ["-l", str(lcore), "--file-prefix", "dpp%s%d" % (side, os.getpid()), "--",
                 "--port", "net_af_packet0,iface=%s" % dev, "--ip", "%s/%d" % (me, n["plen"]),
                 "--gw", gw, "--mtu", str(LINK_MTU),
                 # ICMP filtered: only RFC 8899 probing can find the path (off by
                 # default); with ICMP the runs show PMTUD alone at work.
                 *(["--plpmtud", "on"] if self.icmp == "off" else []),
                 "--counters", os.path.join(self.tmp, "counters-%s.txt" % side)] + extra)

    def go(self):
        net = Net3(self.fam, self.peer, PATH_MTU if self.case == "static" else LINK_MTU)
        t0 = time.time()
        try:
            net.up()
            if self.icmp == "off":
                net.filter_icmp()
            cap = net.start("dumpcap", "R", ["dumpcap", "-n", "-q", "-N", "4000000", "-C",
                                             str(1 << 30), "-i", "ra", "-B", "64", "-i", "rb",
                                             "-B", "64", "-w", self.cap], self.tmp)
            if cap.wait_line(r"Capturing on", 10) is None:
                raise RuntimeError("dumpcap did not start capturing")
            self.play(net)
            capture_settle(self.cap)
            cap.kill(signal.SIGINT)
            cap.wait(10)
            lost = capture_dropped(cap.lines)
            if lost:
                raise RuntimeError("the capture dropped %d packets" % lost)
            if self.icmp == "off":
                self.notes.append("R's filter dropped %d ICMP errors" % net.icmp_dropped())
            self.judge()
        except Exception as e:  # a set-up failure is this run's failure
            self.errs.append("harness: %s" % e)
            with open(os.path.join(self.tmp, "harness.log"), "w") as f:
                traceback.print_exc(file=f)
        finally:
            net.down()
        self.secs = time.time() - t0
        ok = not self.errs
        if not ok:
            dst = os.path.join(self.a.keep, self.name.replace("/", "_"))
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(self.tmp, dst)
            self.notes.append("artifacts: %s" % dst)
        shutil.rmtree(self.tmp, ignore_errors=True)
        return ok

    def play(self, net):
        n = NETS[self.fam]
        if self.peer == "dpsctp":
            srv = net.start("server", "B", self.dp_argv("B", 1, ["-s", "--echo", "--once"]),
                            self.tmp)
            time.sleep(1.5)  # its EAL and port; it says nothing until an association is up
        else:
            srv = net.start("server", "B", [
                os.path.join(self.a.build, "dataplane/tests/interop/usrsctp-peer"), "-s",
                "--echo", "--pmtu", str(PATH_MTU), "--rcvbuf", str(4 << 20)] +
                (["-6"] if self.fam == 6 else []), self.tmp)
            if srv.wait_line(r"listening", 10) is None:
                raise RuntimeError("usrsctp-peer did not start")
        # The test lowers the path between two batches, the association idle
        # for a second (deterministic); --bench under traffic, the moment
        # the first of three batches has been echoed (the next follows at
        # once), whatever this machine's speed.
        batches = []
        if self.case == "drop":
            batches = ["--batches", "3"] if self.a.bench else ["--batches", "2", "--hold", "1"]
        cli = net.start("client", "A", self.dp_argv("A", 0, ["-c", n["b"], "-n", str(self.a.n)] +
                                                    MSG + batches), self.tmp)
        if self.case == "drop":
            if cli.wait_line(r"batch 0:", 60) is None:
                raise RuntimeError("the client did not finish its first batch")
            net.route_mtu(PATH_MTU)
            # When both routes are lowered (each `ip route` takes a few ms).
            self.t_drop = time.time()
        rc = cli.wait(self.a.timeout)
        if rc != 0:
            self.errs.append("the client exited %s (%s)" % (rc, " | ".join(cli.lines[-3:])))
        rc = srv.wait(20)
        if rc != 0:
            self.errs.append("the %s server exited %s (%s)" % (self.peer, rc,
                                                               " | ".join(srv.lines[-3:])))

    def judge(self):
        raw = frames(self.cap, "FALSE")
        whole = frames(self.cap, "TRUE")
        n = NETS[self.fam]
        sctp = [r for r in whole if r["chunks"]]
        if not sctp:
            self.errs.append("the capture holds no SCTP packet")
            return
        if any(ABORT in r["chunks"] for r in sctp):
            self.errs.append("an ABORT crossed R")
        bad = [r for r in sctp if "1" not in r["crc"].split(",")]
        if bad:
            self.errs.append("%d SCTP packets without a good CRC32c" % len(bad))
        if any(r["malformed"] for r in whole):
            self.errs.append("tshark: malformed packets")
        icmp = [r for r in raw if (r["icmp"] == 3 and r["icmp_code"] == 4) or r["icmp6"] == 2]
        if self.icmp == "on" and not icmp:
            self.errs.append("R sent no ICMP fragmentation needed / packet too big")
        if self.icmp == "off" and icmp:
            self.errs.append("%d ICMP errors got past R's filter" % len(icmp))
        # What each sender put on its own link: A's on ra, B's on rb.
        t_low = self.t_drop if self.t_drop is not None else 0.0
        senders = [("A", n["a"], "ra")] + ([("B", n["b"], "rb")] if self.peer == "dpsctp" else [])
        for who, ip, link in senders:
            mine = [r for r in raw if r["src"] == ip and r["link"] == link and r["t"] >= t_low]
            found = discovered(mine)
            big = [r for r in mine if r["len"] > PATH_MTU]
            if found is None:
                self.errs.append("%s never sent a DATA packet sized for the %d path" %
                                 (who, PATH_MTU))
                continue
            late = [r for r in big if r["t"] > found and (r["data"] or not r["chunks"])]
            probes = [r for r in big if r["t"] > found and r["chunks"] and not r["data"]]
            before = [r for r in big if r["t"] <= found]
            frags = [r for r in mine if not r["chunks"] and r["len"] <= PATH_MTU and
                     r["icmp"] is None and r["icmp6"] is None]
            self.notes.append("%s: %d over %d before discovery (%.3f s), %d probes after, "
                              "%d fragments" % (who, len(before), PATH_MTU, found - (
                                  t_low or mine[0]["t"]), len(probes), len(frags)))
            if late:
                self.errs.append("%s sent %d packets over %d with DATA after discovery "
                                 "(first at +%.3f s)" % (who, len(late), PATH_MTU,
                                                          late[0]["t"] - found))
        if self.a.bench:
            self.bench_figures(whole, n)

    def bench_figures(self, whole, n):
        """A-to-B I-DATA as it left R toward B (dpsctp offers I-DATA, so both
        ends use it): messages told apart by (stream, U bit, MID), each one's
        size the sum of its chunks; the first full-sized message all of whose
        chunks crossed R after the drop (one begun before it says nothing of
        the new path), and goodput (unique TSNs' payload per second) before
        the drop and after that message."""
        out = sh("tshark", "-r", self.cap, *TSHARK, "-Y",
                 'frame.interface_name == "rb" && %s.src == %s && sctp.chunk_type == 64' %
                 ("ip" if self.fam == 4 else "ipv6", n["a"]),
                 "-T", "fields", "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=,",
                 "-e", "frame.time_epoch", "-e", "sctp.chunk_type", "-e", "sctp.chunk_length",
                 "-e", "sctp.data_tsn_raw", "-e", "sctp.data_sid", "-e", "sctp.data_mid",
                 "-e", "sctp.data_u_bit", "-e", "sctp.data_e_bit")
        seen, size, done, first = {}, {}, {}, {}
        for ln in out.splitlines():
            f = ln.split("|")
            if len(f) != 8:
                continue
            t = float(f[0])
            lens = [int(ln_) - 20 for ty, ln_ in zip(f[1].split(","), f[2].split(","))
                    if ty == "64"]  # I-DATA: 20 bytes of header
            cols = [x.split(",") for x in f[3:8]]
            for ln_, tsn, sid, mid, u, e in zip(lens, *cols):
                key = (sid, u, mid)
                if tsn not in seen:
                    seen[tsn] = (t, ln_)
                    size[key] = size.get(key, 0) + ln_
                    first.setdefault(key, t)
                if e in ("1", "True") and key not in done:
                    done[key] = t
        td = self.t_drop
        after = sorted(t for k, t in done.items() if first[k] > td and size.get(k, 0) >= FULL)
        f = self.figures
        f["drop_to_full_msg_s"] = round(after[0] - td, 3) if after else None
        pts = sorted(seen.values())
        if pts:
            t0, t1 = pts[0][0], pts[-1][0]
            t_rec = after[0] if after else t1
            b_before = sum(ln_ for t, ln_ in pts if t <= td)
            b_after = sum(ln_ for t, ln_ in pts if t > t_rec)
            f["goodput_before_mbps"] = round(8e-6 * b_before / max(td - t0, 1e-3), 1)
            f["goodput_after_mbps"] = round(8e-6 * b_after / max(t1 - t_rec, 1e-3), 1)
            f["seconds_before"] = round(td - t0, 2)
            f["seconds_after"] = round(t1 - t_rec, 2)


def main():
    global VERBOSE
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--peers", default="dpsctp,usrsctp")
    ap.add_argument("--families", default="4,6")
    ap.add_argument("--icmp", default="on,off")
    ap.add_argument("--cases", default="static")
    ap.add_argument("-n", type=int, default=0,
                    help="messages per run, per batch with --cases drop (default 40; "
                    "2000 with --bench)")
    ap.add_argument("--timeout", type=float, default=90)
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--keep")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    VERBOSE = interop.VERBOSE = a.v
    a.build = os.path.abspath(a.build)
    a.keep = a.keep or os.path.join(a.build, "pmtu-artifacts")
    if a.bench:
        a.cases, a.peers = "drop", "dpsctp"
        a.n = a.n or 2000
    a.n = a.n or 40
    if os.geteuid() != 0:
        return cannot_run("pmtu_ns: needs root (namespaces, veth)")
    peers = a.peers.split(",")
    progs = ["dataplane/tests/interop/dpsctp-peer"] + (
        ["dataplane/tests/interop/usrsctp-peer"] if "usrsctp" in peers else [])
    for p in progs:
        if not os.path.exists(os.path.join(a.build, p)):
            return cannot_run("pmtu_ns: %s not built" % p)
    for tool in ("dumpcap", "tshark", "nft"):
        if shutil.which(tool) is None:
            return cannot_run("pmtu_ns: %s missing (./dev.sh setup installs it)" % tool)
    signal.signal(signal.SIGTERM, on_term)
    sweep_stale_namespaces()
    results = []
    t0 = time.time()
    for case in a.cases.split(","):
        for peer in peers:
            for fam in (int(x) for x in a.families.split(",")):
                for icmp in a.icmp.split(","):
                    r = Run(a, peer, fam, icmp, case)
                    ok = r.go()
                    log("%-4s %-34s %5.1f s  %s" % ("ok" if ok else "FAIL", r.name, r.secs,
                                                    "; ".join(r.errs + r.notes)))
                    res = {"peer": peer, "family": fam, "icmp": icmp, "case": case, "ok": ok,
                           "secs": round(r.secs, 1), "errors": r.errs, "notes": r.notes,
                           "messages": a.n, **r.figures}
                    if a.bench:
                        print(json.dumps({"bench": "pmtu_ns", "path_mtu": PATH_MTU,
                                          "link_mtu": LINK_MTU, "machine": os.uname().nodename,
                                          **res}), flush=True)
                    results.append(res)
    passed = sum(r["ok"] for r in results)
    log("pmtu_ns: %d of %d runs passed in %.0f s" % (passed, len(results), time.time() - t0))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                       "results": results}, f, indent=1)
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
